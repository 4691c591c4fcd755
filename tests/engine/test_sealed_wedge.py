"""No single signed message can wedge a sealed round [29, P8]: a message for a later slot of the
current phase is checked, when it arrives, as far as it can be -- its signature, its side's own
chain link, the turn it answers, its form, a reveal against its own side's commitment -- and
refused then, so that it can never stop the honest messages that fill the earlier slots.

Each attack is a modified client's validly signed message, sent to another player's machine
(three players, three homes, files only)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from helpers.protocol import Player, move_body, ok, pbem, sign_move

from engine.test_sealed import (
    GAME_ID,
    acknowledge_all,
    bid,
    broadcast,
    commit,
    files,
    reveal,
    start,
)
from pbem.engine.sealed import commitment, derive_salt
from pbem.protocol.dice import reveal as chain_reveal


def _deliver(to: Player, name: str, raw: bytes) -> Any:
    inbox = to.work / f"hostile-{name}"
    inbox.mkdir()
    (inbox / name).write_bytes(raw)
    return to.ingest(inbox / name)


def _turn_hash(p: Player, step: int) -> str:
    return hashlib.sha256((p.dir / f"turn-{step:04d}.json").read_bytes()).hexdigest()


def test_a_later_commitment_with_a_made_up_chain_value_is_refused_on_arrival(tmp_path: Path) -> None:
    players = start(tmp_path)
    a, b, c = players["A"], players["B"], players["C"]
    turn0 = _turn_hash(c, 0)
    salt = derive_salt(b.seed(), GAME_ID, 2, "B")
    forged = {"ds": "pbem/move/v1", "game": GAME_ID, "step": 2, "side": "B", "answers": turn0,
              "reveal": "ab" * 32, "orders": {"sealed": commitment(bid("B", 3), salt)}}
    before = files(c)
    res = _deliver(c, "move-0002-B.json", sign_move(b, forged))
    assert res.code == 2 and "move-0002-B.json" in res.err and "[P3 chain]" in res.err
    assert files(c) == before, "nothing of a refused message is archived"
    # the honest messages of the round are placed, and the round resolves for everyone
    for s, coins in (("A", 1), ("B", 2), ("C", 3)):
        broadcast(players, s, commit(players[s], coins))
    acknowledge_all(players, ["A", "B", "C"])
    for s in ("A", "B", "C"):
        broadcast(players, s, reveal(players[s]))
    for p in (a, b, c):
        res = ok(pbem("verify", p.dir, home=tmp_path / "stranger"))
        assert res.out.rstrip().endswith("OK")
    assert files(a) == files(b) == files(c)


def test_a_later_commitment_answering_another_turn_is_refused_on_arrival(tmp_path: Path) -> None:
    players = start(tmp_path)
    b, c = players["B"], players["C"]
    seed = b.seed()
    forged = {"ds": "pbem/move/v1", "game": GAME_ID, "step": 2, "side": "B", "answers": "cd" * 32,
              "reveal": chain_reveal(seed, 512, 1).hex(),
              "orders": {"sealed": commitment(bid("B", 3), derive_salt(seed, GAME_ID, 2, "B"))}}
    res = _deliver(c, "move-0002-B.json", sign_move(b, forged))
    assert res.code == 2 and "DIVERGENCE" in res.err and "[P6]" in res.err
    assert not (c.dir / "move-0002-B.json").exists()


def test_a_later_reveal_that_does_not_match_its_commitment_is_refused_before_the_earlier_ones(
        tmp_path: Path) -> None:
    players = start(tmp_path)
    a, b, c = players["A"], players["B"], players["C"]
    for s, coins in (("A", 1), ("B", 2), ("C", 3)):
        broadcast(players, s, commit(players[s], coins))
    acknowledge_all(players, ["A", "B", "C"])
    # B reveals a bid of 9 under its commitment to 2, for its slot (8), before A's reveal (7)
    body = move_body(b.dir / "move-0002-B.json")
    seed = b.seed()
    forged = {**body, "step": 8, "answers": _turn_hash(c, 6), "reveal": chain_reveal(seed, 512, 3).hex(),
              "orders": {"orders": bid("B", 9), "salt": derive_salt(seed, GAME_ID, 2, "B").hex()}}
    before = files(c)
    res = _deliver(c, "move-0008-B.json", sign_move(b, forged))
    assert res.code == 2 and "do not match its commitment in move-0002-B.json [P8]" in res.err
    assert files(c) == before
    # A's honest reveal, then B's and C's real ones: the round resolves at Carol's
    for s in ("A", "B", "C"):
        broadcast(players, s, reveal(players[s]))
    res = ok(pbem("verify", c.dir, home=tmp_path / "stranger"))
    assert res.out.rstrip().endswith("OK") and files(a) == files(c)


def test_a_later_reveal_with_illegal_orders_is_refused_before_the_earlier_ones(tmp_path: Path) -> None:
    # A commitment to orders the rules refuse cannot be revealed: refused on arrival, not held
    players = start(tmp_path)
    b, c = players["B"], players["C"]
    for s, coins in (("A", 1), ("C", 3)):
        broadcast(players, s, commit(players[s], coins))
    seed = b.seed()
    salt = derive_salt(seed, GAME_ID, 2, "B")
    illegal = bid("B", 99)  # more coins than B has [S2]
    body = {"ds": "pbem/move/v1", "game": GAME_ID, "step": 2, "side": "B", "answers": _turn_hash(c, 0),
            "reveal": chain_reveal(seed, 512, 1).hex(), "orders": {"sealed": commitment(illegal, salt)}}
    raw2 = sign_move(b, body)
    a = players["A"]
    ok(_deliver(c, "move-0002-B.json", raw2))  # a commitment hides its orders: placed
    ok(_deliver(a, "move-0002-B.json", raw2))
    for s in ("A", "C"):  # A and C acknowledge the three commitments; B's modified client too
        other = "C" if s == "A" else "A"
        name = reveal(players[s])
        ok(players[s].send(players[other], [name]))
    ack = {**body, "step": 5, "answers": _turn_hash(c, 3), "reveal": chain_reveal(seed, 512, 2).hex(),
           "orders": {"ack": "commitments"}}
    ok(_deliver(c, "move-0005-B.json", sign_move(b, ack)))
    later = {**body, "step": 8, "answers": _turn_hash(c, 6), "reveal": chain_reveal(seed, 512, 3).hex(),
             "orders": {"orders": illegal, "salt": salt.hex()}}
    res = _deliver(c, "move-0008-B.json", sign_move(b, later))  # before A's reveal (7): checked now
    assert res.code == 2 and "move-0008-B.json" in res.err and "[S2]" in res.err, res.err
    assert not (c.dir / "move-0008-B.json").exists()
