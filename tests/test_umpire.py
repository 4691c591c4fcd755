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

from pbem.engine.ruleset import register_ruleset
from tests.test_protocol_helpers import GAME_ID, Player, move_body, ok, pbem, sign_move, written

register_ruleset("auction", "pbem.systems.auction:AuctionRules")

SCENARIO = Path(__file__).parent / "data" / "auction-umpire.json"
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
    res = four["A"].run("reveal", four["A"].dir, "--key", "alice", "--yes")
    assert res.code == 2 and "the umpire has not ruled yet" in res.err  # the ruling is due first
    gc = four["GC"]
    shown = ok(gc.run("rule", gc.dir, gc.write_orders({"reserve": 2, "bonus": "A"}), "--key", "control",
                      "--yes"))
    assert "A bids 1 coins" in shown.err and "C bids 4 coins" in shown.err  # GC reads every bid
    send_all(four, "GC", new_move(shown))
    reveal_all(four)
    turn = json.loads((gc.dir / "turn-0007.json").read_text())
    assert {"kind": "rulings", "reserve": 2, "bonus": "A"} in turn["events"]
    assert turn["state"]["points"]["A"] == 1  # [S5] the bonus; A's bid of 1 was void
    assert any(e["kind"] == "tie-roll" for e in turn["events"])  # B and C tied at 4 [S3]
    commit_all(four, {"A": 2, "B": 0, "C": 0}, 2)
    rule(four, {})
    reveal_all(four)
    views = [{q.name: q.read_bytes() for q in p.dir.glob("*.json")} for p in four.values()]
    assert all(v == views[0] for v in views)
    last = json.loads((gc.dir / "turn-0014.json").read_text())
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
    # Before the reveals, A's directory and home hold B's commitment with B's orders sealed to the
    # umpire: A cannot open it with any key A holds, and nothing in A's view is B's bid.
    commit_all(four, {"A": 3, "B": 7, "C": 5})
    a, b = four["A"], four["B"]
    commit_b = move_body(a.dir / "move-0002-B.json")["orders"]
    assert set(commit_b) == {"sealed", "umpire"}
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.seal import open_sealed, x25519_private

    keys = [x25519_private(a.private(), GAME_ID, side) for side in ("A", "B", "C", "GC")]
    for key in keys:
        with pytest.raises(Exception, match="does not open"):
            open_sealed(commit_b["umpire"], key, game=GAME_ID, step=2, sender="B", to="GC", what="sealed orders")
    gc_key = x25519_private(four["GC"].private(), GAME_ID, "GC")  # the attack's sanity check
    assert open_sealed(commit_b["umpire"], gc_key, game=GAME_ID, step=2, sender="B", to="GC",
                       what="sealed orders")["orders"]["coins"] == 7
    view = b"".join(q.read_bytes() for root in (a.dir, a.home) for q in sorted(root.rglob("*")) if q.is_file())
    assert canonical_bytes({"coins": 7, "kind": "bid", "round": 1, "side": "B"})[:-1] not in view
    assert b'"coins":7' not in view
    _ = b


def test_p9_the_umpire_cannot_know_the_dice_when_it_rules(four: dict[str, Player]) -> None:
    # The round's dice are keyed by the chain values the three reveal moves disclose. When GC signs
    # its ruling, everything GC holds lacks every bidder's next chain value (each the preimage of
    # one that bidder published with its commitment).
    commit_all(four, {"A": 4, "B": 4, "C": 4})
    gc = four["GC"]
    view = b"".join(q.read_bytes() for root in (gc.dir, gc.home) for q in sorted(root.rglob("*")) if q.is_file())
    from pbem.protocol.dice import reveal as chain_reveal

    for k, s in ((1, "A"), (2, "B"), (3, "C")):
        nxt = chain_reveal(four[s].seed(), 512, 2)
        assert hashlib.sha256(nxt).hexdigest() == move_body(gc.dir / f"move-000{k}-{s}.json")["reveal"]
        for form in (nxt, nxt.hex().encode(), base64.b64encode(nxt)):
            assert form not in view
    rule(four, {})
    reveal_all(four)
    turn = json.loads((gc.dir / "turn-0007.json").read_text())
    assert turn["reveals"][1:] == [move_body(gc.dir / f"move-000{k}-{s}.json")["reveal"]
                                   for k, s in ((5, "A"), (6, "B"), (7, "C"))]


def test_p9_a_ruling_after_the_reveals_is_refused(four: dict[str, Player]) -> None:
    # GC tries to rule *after* seeing the reveals: its tool has no ruling slot then, and a ruling
    # signed outside the tool for a later step is not GC's slot [P2] ...
    commit_all(four, {"A": 4, "B": 4, "C": 2})
    rule(four, {})
    reveal_all(four)
    gc, a = four["GC"], four["A"]
    res = gc.run("rule", gc.dir, gc.write_orders({"reserve": 5}), "--key", "control", "--yes")
    assert res.code == 2 and "no ruling is due now" in res.err
    # ... and a second ruling for the ruling step, signed after the dice were known, is refused as
    # a second body for an archived step [P7]; smuggled into an archive in place of the first,
    # verify names the first reveal, which answers the first ruling's turn.
    first = move_body(gc.dir / "move-0004-GC.json")
    later = {**first, "orders": {"rulings": {"reserve": 5, "bonus": None}}}
    raw = sign_move(gc, later)
    inbox = a.work / "late-ruling"
    inbox.mkdir()
    (inbox / "move-0004-GC.json").write_bytes(raw)
    res = a.ingest(inbox / "move-0004-GC.json")
    assert res.code == 2 and "GC signed two different moves for step 4" in res.err and "[P7]" in res.err
    copy = a.work / "doctored"
    shutil.copytree(a.dir, copy)
    (copy / "move-0004-GC.json").write_bytes(raw)
    res = pbem("verify", copy, home=a.work / "stranger")
    assert res.code == 1 and "turn-0004.json" in res.err and "[P5/P6]" in res.err
    for step in range(4, 8):  # the umpire recomputes the turns too: the reveals still answer
        (copy / f"turn-{step:04d}.json").unlink()  # the first ruling's turn
    res = pbem("verify", copy, home=a.work / "stranger")
    assert res.code == 1 and "move-0005-A.json" in res.err and "DIVERGENCE" in res.err, res.err


def test_p9_rulings_must_be_well_formed(four: dict[str, Player]) -> None:
    commit_all(four, {"A": 1, "B": 1, "C": 1})
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
