"""A whole toy game between two machines: who can compute which turn when, and P6 determinism."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from helpers.paths import DATA
from helpers.protocol import (
    GAME_ID,
    SCRIPT,
    Player,
    listing,
    move_body,
    ok,
    pbem,
    sign_move,
    start_remote,
    written,
)

# Files each player's tool writes at each step (hand-derived from docs/protocol.md):
# a random decision (steps 3-6) is resolved only by the tool that holds the *next* side's reveal.
EXPECTED = [
    # (submitter writes, recipient writes)
    (["move-0001-A.json", "turn-0001.json"], ["move-0001-A.json", "turn-0001.json"]),
    (["move-0002-B.json", "turn-0002.json"], ["move-0002-B.json", "turn-0002.json"]),
    (["move-0003-A.json"], ["move-0003-A.json", "turn-0003.json"]),
    (["move-0004-B.json"], ["move-0004-B.json", "turn-0003.json", "turn-0004.json"]),
    (["move-0005-A.json"], ["move-0005-A.json", "turn-0004.json", "turn-0005.json"]),
    (["move-0006-B.json"], ["move-0006-B.json", "turn-0005.json", "turn-0006.json"]),
    (["move-0007-A.json", "turn-0007.json"], ["move-0007-A.json", "turn-0006.json", "turn-0007.json"]),
]


def test_full_game_two_machines_byte_identical(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    players = {"A": a, "B": b}
    for step, ((side, orders), (mine, theirs)) in enumerate(zip(SCRIPT, EXPECTED, strict=True), 1):
        me = players[side]
        other = b if me is a else a
        assert written(ok(me.submit(orders))) == mine, f"step {step}"
        name = f"move-{step:04d}-{side}.json"
        assert written(ok(me.send(other, [name]))) == theirs, f"step {step}"
    # P6: two independent adjudications, byte-identical archives
    assert listing(a.dir) == listing(b.dir)
    final = json.loads((a.dir / "turn-0007.json").read_bytes())
    assert final["pending"] == [] and final["outcome"] is not None  # a win or a draw [T5]
    # turn 3 was keyed by A's reveal in move 3 and B's reveal in move 4
    t3 = json.loads((a.dir / "turn-0003.json").read_bytes())
    assert t3["reveals"] == [move_body(a.dir / "move-0003-A.json")["reveal"],
                             move_body(a.dir / "move-0004-B.json")["reveal"]]
    assert len(t3["rolls"]) == 2  # A rolled two dice [T3]
    # a third party with no keys verifies everything
    stranger = tmp_path / "home-stranger"
    res = ok(pbem("verify", a.dir, home=stranger))
    assert "OK" in res.out and "7 moves" in res.out
    # re-sending the final orders is harmless; new orders meet a closed archive
    res = ok(a.submit({"kind": "acknowledge", "side": "A"}))
    assert "already in the archive: move-0007-A.json" in res.err
    res = b.submit({"kind": "roll", "side": "B", "round": 3, "dice": 1})
    assert res.code == 2 and "game is over" in res.err


def test_turn_resolved_locally_by_the_co_revealer_only(tmp_path: Path) -> None:
    """After A's random move 3, A cannot know the dice; B can (B's seed), before answering."""
    a, b = start_remote(tmp_path)
    for step, (side, orders) in enumerate(SCRIPT[:3], 1):
        me, other = (a, b) if side == "A" else (b, a)
        ok(me.submit(orders))
        ok(me.send(other, [f"move-{step:04d}-{side}.json"]))
    assert not (a.dir / "turn-0003.json").exists()
    assert (b.dir / "turn-0003.json").exists()
    status = json.loads(ok(a.run("status", a.dir, "--json")).out)
    assert "B's next message" in status["waiting"]
    # B's status shows B to move; a stranger can verify A's copy (turn 3 not derivable yet)
    status_b = json.loads(ok(b.run("status", b.dir, "--json")).out)
    assert status_b["pending"][0]["side"] == "B"
    ok(pbem("verify", a.dir, home=tmp_path / "nobody"))
    # B's copy holds turn 3, which nobody else can check before move 4: verify says so
    res = ok(pbem("verify", b.dir, home=tmp_path / "nobody"))
    assert "turn-0003.json" in res.out


def test_divergent_answers_is_loud_and_writes_nothing(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    for step, (side, orders) in enumerate(SCRIPT[:3], 1):
        me, other = (a, b) if side == "A" else (b, a)
        ok(me.submit(orders))
        ok(me.send(other, [f"move-{step:04d}-{side}.json"]))
    # B's tool "computed" a different turn 3: it signs a move answering another hash
    ok(b.submit(SCRIPT[3][1]))
    body = move_body(b.dir / "move-0004-B.json")
    real = body["answers"]
    body["answers"] = "ab" * 32
    forged = tmp_path / "move-0004-B.json"
    forged.write_bytes(sign_move(b, body))
    before = listing(a.dir)
    res = a.ingest(forged)
    assert res.code == 2
    assert "DIVERGENCE" in res.err and "ab" * 32 in res.err and real in res.err
    assert len(res.err.strip().splitlines()) == 1
    assert listing(a.dir) == before


def test_same_archive_same_rolls(tmp_path: Path) -> None:
    from pbem.engine.gamedir import Game

    a, b = start_remote(tmp_path)
    for step, (side, orders) in enumerate(SCRIPT, 1):
        me, other = (a, b) if side == "A" else (b, a)
        ok(me.submit(orders))
        ok(me.send(other, [f"move-{step:04d}-{side}.json"]))
    copy = tmp_path / "copy"
    shutil.copytree(a.dir, copy)
    first = Game.open(a.dir).replay()
    second = Game.open(copy).replay()
    assert [r.turn["rolls"] for r in first.records] == [r.turn["rolls"] for r in second.records]
    assert [r.turn_bytes for r in first.records] == [r.turn_bytes for r in second.records]
    assert sum(len(r.turn["rolls"]) for r in first.records) == 2 + 3 + 1 + 2


def test_hot_seat_game_with_both_keys_local(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ok(pbem("key", "new", "alice", home=home))
    ok(pbem("key", "new", "bob", home=home))
    g = tmp_path / "g"
    res = ok(pbem("new", str(DATA / "toy-duel.json"), g, "--player", "A=alice",
                  "--player", "B=bob", "--game-id", GAME_ID, home=home))
    assert written(res) == ["scenario.json", "genesis.json", "turn-0000.json"]
    p = Player(tmp_path, "x", "A")
    for _step, (side, orders) in enumerate(SCRIPT, 1):
        path = p.write_orders(orders)
        ok(pbem("submit", "--yes", g, path, "--key", "alice" if side == "A" else "bob", home=home))
    assert (g / "turn-0007.json").exists()
    ok(pbem("verify", g, home=home))


def test_lost_private_state_is_recovered_from_the_key(tmp_path: Path) -> None:
    """Deleting a player's games/<id>/ (seed, sides.json, P7 records) never strands the game."""
    a, b = start_remote(tmp_path)
    for step, (side, orders) in enumerate(SCRIPT[:3], 1):
        me, other = (a, b) if side == "A" else (b, a)
        ok(me.submit(orders))
        ok(me.send(other, [f"move-{step:04d}-{side}.json"]))
    seed_b = b.seed()
    shutil.rmtree(b.home / "games" / GAME_ID)
    # B's tool needs B's seed to resolve A's roll (step 3): re-derived from B's key, same bytes
    ok(b.submit(SCRIPT[3][1]))
    assert b.seed() == seed_b
    ok(b.send(a, ["move-0004-B.json"]))
    shutil.rmtree(a.home / "games" / GAME_ID)
    for step, (side, orders) in enumerate(SCRIPT[4:], 5):
        me, other = (a, b) if side == "A" else (b, a)
        ok(me.submit(orders))
        ok(me.send(other, [f"move-{step:04d}-{side}.json"]))
    assert listing(a.dir) == listing(b.dir)


def test_passphrase_protected_keys(tmp_path: Path) -> None:
    from helpers.protocol import env

    home = tmp_path / "home"
    with env(PBEM_PASSPHRASE="s3cret"):
        from pbem.protocol.keys import KeyStore

        KeyStore(home).new("alice", b"s3cret")
        KeyStore(home).new("bob", b"s3cret")
    g = tmp_path / "g"
    toy = DATA / "toy-duel.json"
    args = ["new", toy, g, "--player", "A=alice", "--player", "B=bob", "--game-id", GAME_ID]
    res = pbem(*args, home=home)  # the helper sets an empty passphrase: wrong for these keys
    assert res.code == 2 and not g.exists()
    from pbem.cli import main

    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE="s3cret"):
        try:
            main([str(x) for x in args])
        except SystemExit as exc:
            assert exc.code in (0, None)
    assert (g / "turn-0000.json").exists()
