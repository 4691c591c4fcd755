"""Acknowledged rounds [29, P8, P9]: after the commitments every side acknowledges the set it holds
(its acknowledgement answers the turn of the last commitment, which hashes every one) and, with an
umpire, releases to it the key of its sealed copy. So a side that split its commitments between
players is caught before anyone reveals, and the umpire -- even with a modified client holding its
key -- reads no sheet before every side has committed.

Attacks as a modified client would make them: several homes, files only."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.protocol import Player, move_body, ok, sign_move

from engine.test_umpire import GAME_ID, ack_all, new_move, send_all, start
from pbem.engine.sealed import commitment, derive_salt


def _holding(p: Player) -> bytes:
    return b"".join(q.read_bytes() for root in (p.dir, p.home) for q in sorted(root.rglob("*")) if q.is_file())


def test_29_the_umpire_reads_no_sheet_before_every_side_has_committed(tmp_path: Path) -> None:
    from pbem.engine.sealed import copy_key
    from pbem.protocol.seal import open_sealed, x25519_private

    players = start(tmp_path)
    gc, a = players["GC"], players["A"]
    send_all(players, "A", new_move(ok(a.submit({"kind": "bid", "side": "A", "round": 1, "coins": 7}))))
    for args in (("status", gc.dir), ("status", gc.dir, "--json"), ("log", gc.dir)):
        out = ok(gc.run(*args)).out
        assert '"coins": 7' not in out and "coins 7" not in out and "A 7" not in out, (args, out)
    # a modified client with the umpire's key: A's copy is not sealed to it, and the key that opens
    # it is nowhere in Game Control's holding -- A releases it only in its acknowledgement
    copy = move_body(gc.dir / "move-0001-A.json")["orders"]["umpire"]
    with pytest.raises(Exception, match="does not open"):
        open_sealed(copy, x25519_private(gc.private(), GAME_ID, "GC"), game=GAME_ID, step=1, sender="A", to="GC",
                    what="sealed orders")
    key = copy_key(a.seed(), GAME_ID, 1, "A")
    held = _holding(gc)
    assert key not in held and key.hex().encode() not in held
    for s, coins in (("B", 2), ("C", 3)):
        p = players[s]
        send_all(players, s, new_move(ok(p.submit({"kind": "bid", "side": s, "round": 1, "coins": coins}))))
    res = gc.run("rule", gc.dir, gc.write_orders({"reserve": 0}), "--key", "control", "--yes")
    assert res.code == 2 and "7" not in res.err  # no ruling, no reading: the acknowledgements come first
    ack_all(players)
    res = ok(gc.run("rule", gc.dir, gc.write_orders({"reserve": 0}), "--key", "control", "--yes"))
    assert "A: A bids 7 coins in round 1 [S2]" in res.err + res.out


def _split(players: dict[str, Player], honest: list[str], other: list[str]) -> str:
    """A signs a bid of 2 for its slot and sends it to ``honest``; a second commitment, for the
    same slot, goes to ``other``. Returns the step-1 file name."""
    a = players["A"]
    first = new_move(ok(a.submit({"kind": "bid", "side": "A", "round": 1, "coins": 2})))
    for t in honest:
        ok(a.send(players[t], [first]))
    body = move_body(a.dir / first)
    second = {**body, "orders": {**body["orders"],
                                 "sealed": commitment({"kind": "bid", "side": "A", "round": 1, "coins": 9},
                                                      derive_salt(a.seed(), GAME_ID, 1, "A"))}}
    for t in other:
        inbox = players[t].work / "split"
        inbox.mkdir()
        (inbox / first).write_bytes(sign_move(a, second))
        ok(players[t].ingest(inbox / first))  # each holds one commitment of A: it cannot tell yet
    return first


def test_29_a_split_commitment_is_caught_before_any_reveal_with_an_umpire(tmp_path: Path) -> None:
    players = start(tmp_path)
    b, c, gc = players["B"], players["C"], players["GC"]
    first = _split(players, ["B", "GC"], ["C"])
    for s, coins in (("B", 5), ("C", 4)):
        p = players[s]
        send_all(players, s, new_move(ok(p.submit({"kind": "bid", "side": s, "round": 1, "coins": coins}))))
    ack_c = new_move(ok(c.run("reveal", c.dir, "--key", c.name, "--yes")))
    for t in (b, gc):  # C's acknowledgement names another set: refused, the split named
        res = c.send(t, [ack_c])
        assert res.code == 2 and "C's acknowledgement answers other commitments" in res.err
        assert "a side may have signed two (a split); compare move-0001 to move-0003" in res.err
    ack_b = new_move(ok(b.run("reveal", b.dir, "--key", b.name, "--yes")))
    res = b.send(c, [ack_b])
    assert res.code == 2 and "B's acknowledgement answers other commitments" in res.err
    # nobody reveals, and Game Control cannot rule: the round waits for the acknowledgements
    for p in (b, c):
        res = p.run("reveal", p.dir, "--key", p.name, "--yes")
        assert res.code == 2 and "acknowledged the commitments already" in res.err
    assert gc.run("rule", gc.dir, "--key", "control", "--yes").code == 2
    # the evidence: A's two signatures for step 1
    res = c.ingest(gc.dir / first)
    assert res.code == 2 and "A signed two different moves for step 1" in res.err


def test_29_a_split_commitment_is_caught_before_any_reveal_without_an_umpire(tmp_path: Path) -> None:
    from engine.test_sealed import commit, reveal
    from engine.test_sealed import start as start_three

    players = start_three(tmp_path)
    b, c = players["B"], players["C"]
    first = _split(players, ["B"], ["C"])
    for s, coins in (("B", 5), ("C", 4)):
        name = commit(players[s], coins)
        for t in players:
            if t != s:
                ok(players[s].send(players[t], [name]))
    ack_b, ack_c = reveal(b), reveal(c)  # each acknowledges the set it holds
    res = b.send(c, [ack_b])
    assert res.code == 2 and "B's acknowledgement answers other commitments" in res.err
    res = c.send(b, [ack_c])
    assert res.code == 2 and "C's acknowledgement answers other commitments" in res.err
    for p in (b, c):  # B's bid of 5 and C's of 4 stay sealed: neither can reveal
        res = p.run("reveal", p.dir, "--key", p.name, "--yes")
        assert res.code == 2
        assert not any(q.name.startswith(("move-0007", "move-0008", "move-0009")) for q in p.dir.iterdir())
    res = c.ingest(b.dir / first)
    assert res.code == 2 and "A signed two different moves for step 1" in res.err


def _lying_commitment(players: dict[str, Player]) -> tuple[str, bytes]:
    """A's modified client commits to a bid of 1 but seals a bid of 9 in the copy for Game
    Control (under the key its commitment names), and acknowledges honestly, releasing that key.
    Sent to everyone, A included. Returns A's ack file name and the key."""
    import hashlib

    from pbem.engine.sealed import copy_key, key_hash, seal_copy
    from pbem.protocol.dice import reveal as chain_reveal
    from pbem.protocol.seal import public_from_hex, seal

    a, gc = players["A"], players["GC"]
    seed = a.seed()
    salt = derive_salt(seed, GAME_ID, 1, "A")
    key = copy_key(seed, GAME_ID, 1, "A")
    turn0 = hashlib.sha256((gc.dir / "turn-0000.json").read_bytes()).hexdigest()
    lie = {"orders": {"kind": "bid", "side": "A", "round": 1, "coins": 9}, "salt": salt.hex()}
    body = {"ds": "pbem/move/v1", "game": GAME_ID, "step": 1, "side": "A", "answers": turn0,
            "reveal": chain_reveal(seed, 512, 1).hex(),
            "orders": {"sealed": commitment({"kind": "bid", "side": "A", "round": 1, "coins": 1}, salt),
                       "umpire": seal_copy(lie, key, game=GAME_ID, step=1, side="A"), "key": key_hash(key)}}
    _to_all(players, "move-0001-A.json", sign_move(a, body))
    for s, coins in (("B", 5), ("C", 4)):
        p = players[s]
        send_all(players, s, new_move(ok(p.submit({"kind": "bid", "side": s, "round": 1, "coins": coins}))))
    turn3 = hashlib.sha256((gc.dir / "turn-0003.json").read_bytes()).hexdigest()
    gc_x = public_from_hex(move_body(gc.dir / "genesis.json")["sides"]["GC"]["x25519"])
    ack = {**body, "step": 4, "answers": turn3, "reveal": chain_reveal(seed, 512, 2).hex(),
           "orders": {"ack": "commitments", "key": seal(key.hex(), gc_x, game=GAME_ID, step=4, sender="A",
                                                        to="GC", what="copy key")}}
    _to_all(players, "move-0004-A.json", sign_move(a, ack))
    for s in ("B", "C"):
        p = players[s]
        send_all(players, s, new_move(ok(p.run("reveal", p.dir, "--key", p.name, "--yes"))))
    return "move-0004-A.json", key


def _to_all(players: dict[str, Player], name: str, raw: bytes) -> None:
    for p in players.values():
        inbox = p.work / f"forged-{name}"
        inbox.mkdir()
        (inbox / name).write_bytes(raw)
        ok(p.ingest(inbox / name))


def test_29_a_side_whose_copy_lies_is_voided_with_a_proof_anyone_checks(tmp_path: Path) -> None:
    import hashlib
    import json

    from helpers.protocol import pbem

    from pbem.protocol.dice import reveal as chain_reveal

    players = start(tmp_path)
    a, gc = players["A"], players["GC"]
    _, key = _lying_commitment(players)
    res = ok(gc.run("rule", gc.dir, gc.write_orders({"reserve": 0}), "--key", "control", "--yes"))
    assert "A: its sealed copy does not hold the orders it committed to: its orders are void" in res.err + res.out
    ruling = new_move(res)
    assert move_body(gc.dir / ruling)["orders"]["void"] == {"A": key.hex()}  # the proof, in the clear
    send_all(players, "GC", ruling)  # every machine checks it: the key A's commitment names, a lying copy
    # the round goes on: A's reveal (of the bid of 1 it committed to) counts as no bid
    seed = a.seed()
    turn7 = hashlib.sha256((gc.dir / "turn-0007.json").read_bytes()).hexdigest()
    body = move_body(gc.dir / "move-0001-A.json")
    reveal_a = {**body, "step": 8, "answers": turn7, "reveal": chain_reveal(seed, 512, 3).hex(),
                "orders": {"orders": {"kind": "bid", "side": "A", "round": 1, "coins": 1},
                           "salt": derive_salt(seed, GAME_ID, 1, "A").hex()}}
    _to_all(players, "move-0008-A.json", sign_move(a, reveal_a))
    for s in ("B", "C"):
        p = players[s]
        send_all(players, s, new_move(ok(p.run("reveal", p.dir, "--key", p.name, "--yes"))))
    turn = json.loads((gc.dir / "turn-0010.json").read_text())
    bids = next(e for e in turn["events"] if e["kind"] == "bids")
    assert bids["bids"] == {"A": 0, "B": 5, "C": 4}
    res = ok(pbem("verify", players["C"].dir, home=tmp_path / "stranger"))
    assert res.out.rstrip().endswith("OK")


def test_29_an_umpire_cannot_void_an_honest_side(tmp_path: Path) -> None:
    from pbem.engine.sealed import copy_key

    players = start(tmp_path)
    b, gc = players["B"], players["GC"]
    for s, coins in (("A", 1), ("B", 5), ("C", 4)):
        p = players[s]
        send_all(players, s, new_move(ok(p.submit({"kind": "bid", "side": s, "round": 1, "coins": coins}))))
    ack_all(players)
    ruling = new_move(ok(gc.run("rule", gc.dir, gc.write_orders({"reserve": 0}), "--key", "control", "--yes")))
    body = move_body(gc.dir / ruling)
    forged = {**body, "orders": {**body["orders"], "void": {"B": copy_key(b.seed(), GAME_ID, 2, "B").hex()}}}
    inbox = b.work / "false-void"
    inbox.mkdir()
    (inbox / ruling).write_bytes(sign_move(gc, forged))
    res = b.ingest(inbox / ruling)
    assert res.code == 2 and "voids B's orders, but" in res.err and "holds the orders B committed to" in res.err


def test_29_a_lying_copy_in_a_hidden_game_is_voided_and_the_round_goes_on(tmp_path: Path) -> None:
    import hashlib
    import json

    from helpers.protocol import pbem

    from engine.test_hidden import SCENARIO as HIDDEN
    from pbem.protocol.dice import reveal as chain_reveal

    players = start(tmp_path, HIDDEN)
    a, gc = players["A"], players["GC"]
    _lying_commitment(players)
    res = ok(gc.run("rule", gc.dir, "--key", "control", "--yes"))
    assert "A: its sealed copy does not hold the orders it committed to" in res.err + res.out
    send_all(players, "GC", new_move(res))
    turn7 = hashlib.sha256((gc.dir / "turn-0007.json").read_bytes()).hexdigest()
    body = move_body(gc.dir / "move-0001-A.json")
    reveal_a = {**body, "step": 8, "answers": turn7, "reveal": chain_reveal(a.seed(), 512, 3).hex(),
                "orders": {"reveal": "to-umpire"}}
    _to_all(players, "move-0008-A.json", sign_move(a, reveal_a))
    for s in ("B", "C"):
        p = players[s]
        send_all(players, s, new_move(ok(p.run("reveal", p.dir, "--key", p.name, "--yes"))))
    send_all(players, "GC", new_move(ok(gc.run("report", gc.dir, "--key", "control", "--yes"))))
    coins = json.loads(ok(players["B"].run("status", players["B"].dir, "--json")).out)["views"]["B"]["coins"]
    assert coins == {"B": 5}  # B won the round with 5 against C's 4 and A's void bid
    copy = tmp_path / "after"
    import shutil

    shutil.copytree(gc.dir, copy)
    assert pbem("verify", copy, home=tmp_path / "stranger").code == 0


def test_29_hints_name_only_the_sides_that_still_owe_and_the_umpires_rulings_as_rulings(tmp_path: Path) -> None:
    # a tester's findings: after C committed (its slot waits for A's and B's), ingesting A's
    # commitment said "owed by B, C"; Game Control's sealed rulings read as "seals its orders"
    from engine.test_sealed import commit
    from engine.test_sealed import start as start_three

    three = start_three(tmp_path / "three")
    a, c = three["A"], three["C"]
    commit(c, 4)
    name = commit(a, 2)
    res = ok(a.send(c, [name]))
    assert "next: sealed commit, owed by B" in res.err and "owed by B, C" not in res.err
    players = start(tmp_path / "four")
    for s, coins in (("A", 1), ("B", 5), ("C", 4)):
        p = players[s]
        send_all(players, s, new_move(ok(p.submit({"kind": "bid", "side": s, "round": 1, "coins": coins}))))
    from helpers.protocol import env

    from pbem.engine import play
    from pbem.engine.gamedir import open_checked

    a4 = players["A"]
    shown: list[str] = []
    with env(PBEM_HOME=str(a4.home), PBEM_PASSPHRASE=""):
        play.reveal(open_checked(a4.dir), "alice", confirm=lambda preview: bool(shown.append(preview.text())) or True)
    text = "\n".join(shown)
    assert "signs no orders: your orders stay as you committed them at step 1" in text
    assert "the umpire rules once every side has acknowledged" in text and "committed: A bids 1 coins" in text
