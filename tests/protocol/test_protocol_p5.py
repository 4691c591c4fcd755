"""P5: a byte changed anywhere in any archived file is detected, and the file is named.

A finished toy game is verified by a stranger (no keys, no seeds) after flipping one bit at many
positions of one file of each kind: genesis, join, move (random and non-random), turn (turn 0, a
dice turn, the last), and the scenario copy. Every flip must make ``pbem verify`` exit 1 with that
file's name first on its one-line report.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.protocol import SCRIPT, listing, ok, pbem, play, start_remote

KINDS = [
    "genesis.json",
    "join-B.json",
    "scenario.json",
    "move-0001-A.json",
    "move-0004-B.json",
    "move-0007-A.json",
    "turn-0000.json",
    "turn-0004.json",
    "turn-0007.json",
]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("p5")
    a, b = start_remote(root)
    play(a, b, len(SCRIPT))
    return a.dir


def positions(size: int, count: int = 24) -> list[int]:
    step = max(1, size // count)
    return sorted(set(range(0, size, step)) | {size - 1, size - 2})


@pytest.mark.parametrize("name", KINDS)
def test_p5_flipped_byte_is_named(finished: Path, name: str, tmp_path: Path) -> None:
    nobody = tmp_path / "nobody"
    ok(pbem("verify", finished, home=nobody))
    path = finished / name
    original = path.read_bytes()
    try:
        for pos in positions(len(original)):
            data = bytearray(original)
            data[pos] ^= 0x01
            path.write_bytes(bytes(data))
            res = pbem("verify", finished, home=nobody)
            assert res.code == 1, (name, pos, res.err, res.out)
            assert res.err.startswith(f"pbem: {name}:"), (name, pos, res.err)
            assert len(res.err.strip().splitlines()) == 1
    finally:
        path.write_bytes(original)
    ok(pbem("verify", finished, home=nobody))


def test_p5_removed_or_added_files_are_detected(finished: Path, tmp_path: Path) -> None:
    nobody = tmp_path / "nobody"
    before = listing(finished)
    move = finished / "move-0004-B.json"
    data = move.read_bytes()
    move.unlink()
    try:
        res = pbem("verify", finished, home=nobody)
        assert res.code == 1 and "move-0005-A.json" in res.err  # the gap is named
    finally:
        move.write_bytes(data)
    extra = finished / "turn-0008.json"
    extra.write_bytes((finished / "turn-0007.json").read_bytes())
    try:
        res = pbem("verify", finished, home=nobody)
        assert res.code == 1 and "turn-0008.json" in res.err
    finally:
        extra.unlink()
    assert listing(finished) == before
