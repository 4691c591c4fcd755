"""An umpire in sealed rounds (P9): orders sealed to the umpire alone, rulings signed after every
commitment and before any reveal, dice keyed by the reveals.

Four people -- three bidders of the toy ``auction`` [S1]-[S5] and Game Control (``GC``) -- each with
their own pbem home and directory, exchanging only files. The attacks are the umpire's: ruling
after the dice, ruling twice, and sharing a player's key.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import DATA
from helpers.protocol import GAME_ID, Player, move_body, ok, pbem, sign_move, written

SCENARIO = DATA / "auction-umpire.json"
NONCES = {"A": "a1" * 32, "B": "b2" * 32, "C": "c3" * 32, "GC": "d4" * 32}
NAMES = {"A": "alice", "B": "bob", "C": "carol", "GC": "control"}


def start(root: Path, scenario: Path = SCENARIO) -> dict[str, Player]:
    """Game Control creates the game and invites the three bidders by public key; each joins;
    every join reaches everyone. Four homes, four directories."""
    players = {s: Player(root, n, s) for s, n in NAMES.items()}
    for p in players.values():
        p.new_key()
    gc = players["GC"]
    args: list[str | Path] = ["new", scenario, gc.dir, "--player", "GC=control", "--game-id", GAME_ID,
                              "--nonce", NONCES["GC"]]
    for s in ("A", "B", "C"):
        pub = gc.work / f"{s}.pub"
        shutil.copyfile(players[s].pub, pub)
        args += ["--player", f"{s}={pub}"]
    ok(gc.run(*args))
    for s in ("A", "B", "C"):
        shutil.copytree(gc.dir, players[s].dir)
        ok(players[s].run("join", players[s].dir, "--key", players[s].name, "--nonce", NONCES[s]))
    for s in ("A", "B", "C"):
        for t in players:
            if t != s:
                ok(players[s].send(players[t], [f"join-{s}.json"]))
    return players


def send_all(players: dict[str, Player], sender: str, name: str) -> None:
    for t, p in players.items():
        if t != sender:
            ok(players[sender].send(p, [name]))


def new_move(res: Any) -> str:
    names = [n for n in written(res) if n.startswith("move-")]
    assert len(names) == 1, written(res)
    return names[0]


def commit_all(players: dict[str, Player], bids: dict[str, int], round_: int = 1) -> None:
    for s, coins in bids.items():
        p = players[s]
        send_all(players, s, new_move(ok(p.submit({"kind": "bid", "side": s, "round": round_, "coins": coins}))))


def ack_all(players: dict[str, Player]) -> None:
    """Every bidder acknowledges the commitments it holds and releases the key of its sealed copy
    to Game Control (``pbem reveal`` in the acknowledgement phase) [29]."""
    for s in ("A", "B", "C"):
        p = players[s]
        send_all(players, s, new_move(ok(p.run("reveal", p.dir, "--key", p.name, "--yes"))))


def rule(players: dict[str, Player], rulings: dict[str, Any]) -> str:
    gc = players["GC"]
    name = new_move(ok(gc.run("rule", gc.dir, gc.write_orders(rulings), "--key", "control", "--yes")))
    send_all(players, "GC", name)
    return name


def reveal_all(players: dict[str, Player]) -> None:
    for s in ("A", "B", "C"):
        p = players[s]
        send_all(players, s, new_move(ok(p.run("reveal", p.dir, "--key", p.name, "--yes"))))


@pytest.fixture
def four(tmp_path: Path) -> dict[str, Player]:
    return start(tmp_path)


def test_s5_umpired_game_end_to_end(four: dict[str, Player], tmp_path: Path) -> None:
    commit_all(four, {"A": 1, "B": 4, "C": 4})
    gc = four["GC"]
    res = gc.run("rule", gc.dir, gc.write_orders({"reserve": 2}), "--key", "control", "--yes")
    assert res.code == 2 and "B bids" not in res.err  # no ruling (no reading) before every acknowledgement
    ack_all(four)
    res = four["A"].run("reveal", four["A"].dir, "--key", "alice", "--yes")
    assert res.code == 2 and "the umpire has not ruled yet" in res.err  # the ruling is due first
    shown = ok(gc.run("rule", gc.dir, gc.write_orders({"reserve": 2, "bonus": "A"}), "--key", "control",
                      "--yes"))
    assert "A bids 1 coins" in shown.err and "C bids 4 coins" in shown.err  # GC reads every bid
    send_all(four, "GC", new_move(shown))
    reveal_all(four)
    turn = json.loads((gc.dir / "turn-0010.json").read_text())
    assert {"kind": "rulings", "reserve": 2, "bonus": "A"} in turn["events"]
    assert turn["state"]["points"]["A"] == 1  # [S5] the bonus; A's bid of 1 was void
    assert any(e["kind"] == "tie-roll" for e in turn["events"])  # B and C tied at 4 [S3]
    commit_all(four, {"A": 2, "B": 0, "C": 0}, 2)
    ack_all(four)
    rule(four, {})
    reveal_all(four)
    views = [{q.name: q.read_bytes() for q in p.dir.glob("*.json")} for p in four.values()]
    assert all(v == views[0] for v in views)
    last = json.loads((gc.dir / "turn-0020.json").read_text())
    assert last["pending"] == [] and last["outcome"]
    res = pbem("verify", gc.dir, home=tmp_path / "stranger")
    assert res.code == 0, res.err


def test_p9_umpire_key_may_not_be_a_players(tmp_path: Path) -> None:
    p = Player(tmp_path, "alice", "A")
    p.new_key()
    ok(p.run("key", "new", "bob"))
    ok(p.run("key", "new", "carol"))
    res = p.run("new", SCENARIO, p.dir, "--player", "A=alice", "--player", "B=bob", "--player", "C=carol",
                "--player", "GC=bob")
    assert res.code == 2 and "the umpire's key also plays B" in res.err
    assert not p.dir.exists()


def test_p8_commitments_are_readable_by_the_umpire_alone(four: dict[str, Player]) -> None:
    # Before the reveals, A's directory and home hold B's commitment with B's orders sealed under a
    # key of B's own, and B's acknowledgement with that key sealed to the umpire: A cannot open
    # either with any key it holds, and nothing in A's view is B's bid. Before B acknowledges,
    # nobody -- the umpire included -- holds that key [29].
    from pbem.engine.sealed import key_hash, open_copy, open_side_copy
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.seal import open_sealed, x25519_private

    commit_all(four, {"A": 3, "B": 7, "C": 5})
    a, b, gc = four["A"], four["B"], four["GC"]
    commit_b = move_body(a.dir / "move-0002-B.json")["orders"]
    assert set(commit_b) == {"sealed", "umpire", "key"}
    gc_key = x25519_private(gc.private(), GAME_ID, "GC")
    with pytest.raises(Exception, match="does not open"):  # no longer an HPKE ciphertext to the umpire
        open_sealed(commit_b["umpire"], gc_key, game=GAME_ID, step=2, sender="B", to="GC", what="sealed orders")
    ack_all(four)
    ack_b = move_body(a.dir / "move-0005-B.json")["orders"]
    assert set(ack_b) == {"ack", "key"}
    for key in [x25519_private(a.private(), GAME_ID, side) for side in ("A", "B", "C", "GC")]:
        with pytest.raises(Exception, match="does not open"):
            open_sealed(ack_b["key"], key, game=GAME_ID, step=5, sender="B", to="GC", what="copy key")
    released = bytes.fromhex(open_sealed(ack_b["key"], gc_key, game=GAME_ID, step=5, sender="B", to="GC",
                                         what="copy key"))  # the attack's sanity check: GC can
    assert key_hash(released) == commit_b["key"]
    assert open_copy(commit_b["umpire"], released, game=GAME_ID, step=2, side="B")["orders"]["coins"] == 7
    assert open_side_copy(commit_b, ack_b, gc_key, game=GAME_ID, commit_step=2, ack_step=5, side="B",
                          umpire="GC")[0]["coins"] == 7
    view = b"".join(q.read_bytes() for root in (a.dir, a.home) for q in sorted(root.rglob("*")) if q.is_file())
    assert canonical_bytes({"coins": 7, "kind": "bid", "round": 1, "side": "B"})[:-1] not in view
    assert b'"coins":7' not in view and released not in view and released.hex().encode() not in view
    _ = b


def test_p9_the_umpire_cannot_know_the_dice_when_it_rules(four: dict[str, Player]) -> None:
    # The round's dice are keyed by the chain values the three reveal moves disclose. When GC signs
    # its ruling, everything GC holds lacks every bidder's next chain value (each the preimage of
    # one that bidder published with its commitment).
    commit_all(four, {"A": 4, "B": 4, "C": 4})
    ack_all(four)
    gc = four["GC"]
    view = b"".join(q.read_bytes() for root in (gc.dir, gc.home) for q in sorted(root.rglob("*")) if q.is_file())
    from pbem.protocol.dice import reveal as chain_reveal

    for k, s in ((4, "A"), (5, "B"), (6, "C")):  # each side's acknowledgement showed chain value 2
        nxt = chain_reveal(four[s].seed(), 512, 3)
        assert hashlib.sha256(nxt).hexdigest() == move_body(gc.dir / f"move-000{k}-{s}.json")["reveal"]
        for form in (nxt, nxt.hex().encode(), base64.b64encode(nxt)):
            assert form not in view
    rule(four, {})
    reveal_all(four)
    turn = json.loads((gc.dir / "turn-0010.json").read_text())
    assert turn["reveals"][1:] == [move_body(gc.dir / f"move-{k:04d}-{s}.json")["reveal"]
                                   for k, s in ((8, "A"), (9, "B"), (10, "C"))]


def test_p9_a_ruling_after_the_reveals_is_refused(four: dict[str, Player]) -> None:
    # GC tries to rule *after* seeing the reveals: its tool has no ruling slot then, and a ruling
    # signed outside the tool for a later step is not GC's slot [P2] ...
    commit_all(four, {"A": 4, "B": 4, "C": 2})
    ack_all(four)
    rule(four, {})
    reveal_all(four)
    gc, a = four["GC"], four["A"]
    res = gc.run("rule", gc.dir, gc.write_orders({"reserve": 5}), "--key", "control", "--yes")
    assert res.code == 2 and "no ruling is due now" in res.err
    # ... and a second ruling for the ruling step, signed after the dice were known, is refused as
    # a second body for an archived step [P7]; smuggled into an archive in place of the first,
    # verify names the first reveal, which answers the first ruling's turn.
    first = move_body(gc.dir / "move-0007-GC.json")
    later = {**first, "orders": {"rulings": {"reserve": 5, "bonus": None}}}
    raw = sign_move(gc, later)
    inbox = a.work / "late-ruling"
    inbox.mkdir()
    (inbox / "move-0007-GC.json").write_bytes(raw)
    res = a.ingest(inbox / "move-0007-GC.json")
    assert res.code == 2 and "GC signed two different moves for step 7" in res.err and "[P7]" in res.err
    copy = a.work / "doctored"
    shutil.copytree(a.dir, copy)
    (copy / "move-0007-GC.json").write_bytes(raw)
    res = pbem("verify", copy, home=a.work / "stranger")
    assert res.code == 1 and "turn-0007.json" in res.err and "[P5/P6]" in res.err
    for step in range(7, 11):  # the umpire recomputes the turns too: the reveals still answer
        (copy / f"turn-{step:04d}.json").unlink()  # the first ruling's turn
    res = pbem("verify", copy, home=a.work / "stranger")
    assert res.code == 1 and "move-0008-A.json" in res.err and "DIVERGENCE" in res.err, res.err


def test_p9_rulings_must_be_well_formed(four: dict[str, Player]) -> None:
    commit_all(four, {"A": 1, "B": 1, "C": 1})
    ack_all(four)
    gc = four["GC"]
    res = gc.run("rule", gc.dir, gc.write_orders({"bonus": "GC"}), "--key", "control", "--yes")
    assert res.code == 2 and "not a bidding side [S5]" in res.err
    res = gc.run("rule", gc.dir, gc.write_orders({"reserve": -1}), "--key", "control", "--yes")
    assert res.code == 2 and "reserve" in res.err
    # and only GC rules
    res = four["A"].run("rule", four["A"].dir, "--key", "alice", "--yes")
    assert res.code == 2 and "not the umpire's" in res.err


def test_rulings_form_is_discoverable(tmp_path: Path) -> None:
    import json as _json

    res = ok(pbem("schema", "rulings", "--system", "auction", home=tmp_path))
    schema = _json.loads(res.out)
    assert set(schema["properties"]) == {"reserve", "bonus"} and "[S5]" in schema["description"]
    res = ok(pbem("schema", "receipt", home=tmp_path))
    assert "reveal" in _json.loads(res.out)["properties"]
