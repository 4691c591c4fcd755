"""Derived files (maps and email drafts) are checked by ``pbem verify`` against the hashes pbem
recorded when it wrote them (``derived.sha256``), not redrawn: what that proves, and what only
``--redraw`` proves."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import pbem

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    g = tmp_path / "game"
    shutil.copytree(EXAMPLE, g)
    return g


def verify(g: Path, tmp_path: Path, *extra: str) -> tuple[int, str]:
    res = pbem("verify", g, *extra, home=tmp_path / "stranger")
    return res.code, res.err + res.out


def test_every_map_and_mail_is_recorded(game: Path) -> None:
    recorded = dict(reversed(line.split("  ")) for line in (game / "derived.sha256").read_text().splitlines())
    names = sorted(p.name for p in game.iterdir() if p.name.startswith(("map-", "mail-0", "board")))
    assert sorted(recorded) == names
    for name in names:
        assert recorded[name] == hashlib.sha256((game / name).read_bytes()).hexdigest()


def test_the_record_is_sha256sum_format(game: Path) -> None:
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum is not installed on this machine")
    res = subprocess.run(["sha256sum", "--quiet", "-c", "derived.sha256"], cwd=game, capture_output=True)
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.parametrize("name", ["map-0007.svg", "mail-0012.eml"])
def test_a_doctored_derived_file_is_named(game: Path, tmp_path: Path, name: str) -> None:
    data = bytearray((game / name).read_bytes())
    data[len(data) // 2] ^= 0x20
    (game / name).write_bytes(bytes(data))
    code, out = verify(game, tmp_path)
    assert code == 1 and out.startswith(f"pbem: {name}: differs from the file pbem wrote"), out


def test_an_unrecorded_map_is_named(game: Path, tmp_path: Path) -> None:
    lines = (game / "derived.sha256").read_text().splitlines()
    (game / "derived.sha256").write_text("\n".join(x for x in lines if not x.endswith("map-0003.svg")) + "\n")
    code, out = verify(game, tmp_path)
    assert code == 1 and out.startswith("pbem: map-0003.svg: not recorded"), out


def test_a_map_redrawn_by_hand_with_its_record_needs_redraw_to_be_caught(game: Path, tmp_path: Path) -> None:
    """The record is not a signature: whoever edits a map and its line fools the quick check, which
    docs/protocol.md says plainly; ``--redraw`` draws every map from its turn again."""
    path = game / "map-0004.svg"
    doctored = path.read_bytes().replace(b"</svg>", b"<!-- moved a counter --></svg>")
    path.write_bytes(doctored)
    lines = [x for x in (game / "derived.sha256").read_text().splitlines() if not x.endswith("map-0004.svg")]
    lines.append(f"{hashlib.sha256(doctored).hexdigest()}  map-0004.svg")
    (game / "derived.sha256").write_text("\n".join(lines) + "\n")
    assert verify(game, tmp_path)[0] == 0
    code, out = verify(game, tmp_path, "--redraw")
    assert code == 1 and out.startswith("pbem: map-0004.svg: differs from the map re-rendered"), out


def test_a_deleted_map_is_not_an_error(game: Path, tmp_path: Path) -> None:
    (game / "map-0005.svg").unlink()
    assert verify(game, tmp_path)[0] == 0
