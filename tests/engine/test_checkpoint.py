"""The local checkpoint (``pbem.engine.checkpoint``): commands replay only the newest steps, and a
checkpoint that does not match the archive is ignored, never trusted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import DATA
from helpers.protocol import GAME_ID, ok, pbem

from pbem.protocol import archive

ROUNDS = 8


def toy_orders(side: str, rnd: int | None, kind: str) -> dict[str, Any]:
    if kind == "setup":
        return {"kind": "setup", "side": side, "handicap": 1}
    if kind == "roll":
        return {"kind": "roll", "side": side, "round": rnd, "dice": 2}
    return {"kind": "acknowledge", "side": side}


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A hot-seat toy game of 8 rounds, played to step 14 (round 7) through the CLI."""
    tmp = tmp_path_factory.mktemp("ckpt")
    home, g = tmp / "home", tmp / "g"
    for name in ("alice", "bob"):
        ok(pbem("key", "new", name, home=home))
    ok(pbem("new", DATA / "toy-duel.json", g, "--player", "A=alice",
            "--player", "B=bob", "--option", f"rounds={ROUNDS}", "--game-id", GAME_ID, home=home))
    script = [("A", None, "setup"), ("B", None, "setup")]
    for rnd in range(1, ROUNDS + 1):
        script += [("A", rnd, "roll"), ("B", rnd, "roll")]
    for i, (side, rnd, kind) in enumerate(script[:14]):
        path = tmp / f"o{i}.json"
        path.write_text(json.dumps(toy_orders(side, rnd, kind)))
        ok(pbem("submit", "--yes", g, path, "--key", "alice" if side == "A" else "bob", home=home))
    return home, g


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Names of the move files parsed (read) during the test."""
    seen: list[str] = []
    real = archive.parse_move

    def counting(raw: bytes, name: str) -> Any:
        seen.append(name)
        return real(raw, name)

    monkeypatch.setattr(archive, "parse_move", counting)
    yield seen


def checkpoint_path(home: Path) -> Path:
    return home / "games" / GAME_ID / "checkpoint.json"


def test_status_reads_only_the_newest_moves(long_game: tuple[Path, Path], parses: list[str]) -> None:
    home, g = long_game
    data = json.loads(checkpoint_path(home).read_text())
    assert 10 <= data["step"] <= 14  # kept a couple of steps behind the newest turn
    out = ok(pbem("status", g, home=home)).out
    assert "round 7 of 8" in out
    assert len(parses) <= 4, parses  # not the 14 moves of the whole history


def test_status_and_check_start_from_the_newest_checked_turn(
    long_game: tuple[Path, Path], parses: list[str], tmp_path: Path
) -> None:
    """The checkpoint also names the newest turn a replay checked (``head``); status and check read
    only the position there (the moves of the two sides' last reveals, 13 and 14, to check their
    chains) and say exactly what a replay from the genesis says."""
    home, g = long_game
    data = json.loads(checkpoint_path(home).read_text())
    assert data["head"]["step"] == 14 and data["step"] < 14
    expected = full_status(home, g, tmp_path)
    parses.clear()
    assert ok(pbem("status", g, "--json", home=home)).out == expected
    assert sorted(set(parses)) == ["move-0013-A.json", "move-0014-B.json"]
    orders = tmp_path / "o.json"
    orders.write_text(json.dumps(toy_orders("A", 7, "roll")))
    shown = ok(pbem("check", g, orders, "--key", "alice", home=home)).out
    assert "roll" in shown
    saved = checkpoint_path(home).read_bytes()
    checkpoint_path(home).unlink()
    try:
        assert ok(pbem("check", g, orders, "--key", "alice", home=home)).out == shown
    finally:
        checkpoint_path(home).write_bytes(saved)
    assert checkpoint_path(home).read_bytes() == saved  # status and check left the file as it was


def test_a_head_that_does_not_match_falls_back_to_the_checkpoint(
    long_game: tuple[Path, Path], parses: list[str], tmp_path: Path
) -> None:
    home, g = long_game
    expected = full_status(home, g, tmp_path)
    ckpt = checkpoint_path(home)
    saved = ckpt.read_bytes()
    data = json.loads(saved)
    data["head"]["turn"] = "44" * 32
    ckpt.write_text(json.dumps(data))
    try:
        parses.clear()
        assert ok(pbem("status", g, "--json", home=home)).out == expected
        # more than the head's two moves (the steps after the checkpoint replayed), not the history
        assert {"move-0013-A.json", "move-0014-B.json"} < set(parses) and len(set(parses)) <= 4
    finally:
        ckpt.write_bytes(saved)


def test_verify_never_uses_the_checkpoint(long_game: tuple[Path, Path], parses: list[str]) -> None:
    home, g = long_game
    ok(pbem("verify", g, home=home))
    assert len(set(parses)) == 14


def full_status(home: Path, g: Path, tmp_path: Path) -> str:
    """The status a replay from the genesis gives (a home whose checkpoint was removed)."""
    ckpt = checkpoint_path(home)
    saved = ckpt.read_bytes()
    ckpt.unlink()
    try:
        return ok(pbem("status", g, "--json", home=home)).out
    finally:
        ckpt.write_bytes(saved)


@pytest.mark.parametrize("doctor", [
    "turn hash", "step beyond the archive", "chain count", "chain value", "other genesis",
    "not json", "move hash",
])
def test_a_checkpoint_that_does_not_match_is_ignored(
    long_game: tuple[Path, Path], parses: list[str], doctor: str, tmp_path: Path
) -> None:
    home, g = long_game
    expected = full_status(home, g, tmp_path)
    ckpt = checkpoint_path(home)
    saved = ckpt.read_bytes()
    data = json.loads(saved)
    assert "head" in data  # the newest turn too (status starts there): doctored the same way
    for at in (data, data["head"]):
        if doctor == "turn hash":
            at["turn"] = "0" * 64
        elif doctor == "step beyond the archive":
            at["step"] = 40
        elif doctor == "chain count":
            at["chains"]["A"][0] += 1
        elif doctor == "chain value":
            at["chains"]["B"][1] = "11" * 32
        elif doctor == "other genesis":
            data["genesis"] = "22" * 32
        elif doctor == "move hash":
            at["move"] = "33" * 32
    text = "{not json" if doctor == "not json" else json.dumps(data)
    ckpt.write_text(text)
    try:
        parses.clear()
        assert ok(pbem("status", g, "--json", home=home)).out == expected
        assert len(set(parses)) == 14, doctor  # replayed from the genesis
    finally:
        ckpt.write_bytes(saved)


def test_a_checkpoint_of_a_longer_game_is_stale_for_an_older_copy(
    long_game: tuple[Path, Path], tmp_path: Path
) -> None:
    """The directory was restored from a backup taken at step 6: the checkpoint (step >= 10) is
    ignored and the status is that of step 6."""
    import shutil

    home, g = long_game
    old = tmp_path / "backup"
    shutil.copytree(g, old)
    for p in old.iterdir():
        if p.name.startswith(("move-", "turn-", "map-", "mail-")) and int(p.name[5:9]) > 6:
            p.unlink()
    saved = checkpoint_path(home).read_bytes()
    out = json.loads(ok(pbem("status", old, "--json", home=home)).out)
    assert out["step"] == 6 and "round 3" in out["describe"]
    checkpoint_path(home).write_bytes(saved)


def test_commands_after_the_checkpoint_give_the_same_bytes(long_game: tuple[Path, Path], tmp_path: Path) -> None:
    """Playing on from a checkpoint writes exactly the turn a replay from the genesis writes."""
    import shutil

    home, g = long_game
    twin_home, twin = tmp_path / "home2", tmp_path / "g2"
    shutil.copytree(home, twin_home)
    shutil.copytree(g, twin)
    (twin_home / "games" / GAME_ID / "checkpoint.json").unlink()
    orders = tmp_path / "o.json"
    orders.write_text(json.dumps(toy_orders("A", 7, "roll")))
    for h, d in ((home, g), (twin_home, twin)):
        ok(pbem("submit", "--yes", d, orders, "--key", "alice", home=h))
    for name in ("move-0015-A.json", "turn-0014.json"):
        assert (g / name).read_bytes() == (twin / name).read_bytes(), name
