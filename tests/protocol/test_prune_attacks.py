"""Attacks on the pruning of derived files (issue 28): an older step's map is removed when a later
one is drawn, a move's email once every other side has answered it. What pbem may remove is the
file it wrote and can draw again; everything else in a game directory must stay, and a command
that fails must leave the directory as it found it."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import pbem

from pbem.engine import derived
from pbem.engine.gamedir import Game
from pbem.errors import DiskError
from pbem.mail.compose import write_move_outputs
from pbem.outputs import engine_hooks
from pbem.protocol.fsutil import transaction
from pbem.render.outputs import prune_maps

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"
"""A finished two-sided game (US and DE alternate, moves 1-16, turns 0-16) that keeps every map
and email: a directory the pruning has not touched yet."""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    g = tmp_path / "game"
    shutil.copytree(EXAMPLE, g)
    return g


def snapshot(g: Path) -> dict[str, tuple[bytes, int]]:
    """Every entry under ``g`` (links by target), with its bytes and mode."""
    out: dict[str, tuple[bytes, int]] = {}
    for root, dirs, files in os.walk(g):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            p = Path(root) / name
            rel = str(p.relative_to(g))
            if p.is_symlink():
                out[rel] = (os.readlink(p).encode(), -1)
            else:
                out[rel] = (p.read_bytes(), os.stat(p).st_mode & 0o7777)
    return out


def maps(g: Path) -> list[str]:
    return sorted(p.name for p in g.iterdir() if p.name.startswith("map-"))


def test_only_the_files_pbem_wrote_are_pruned(game: Path, tmp_path: Path) -> None:
    # Beside the maps pbem wrote: the player's own files named like them (in a subfolder, with
    # another ending, with a trailing newline), a map the player annotated and saved over pbem's,
    # and a link at a map's name pointing outside the directory, put there once the game is open
    # (a game directory holding it is not opened at all). Pruning to step 16 removes the 14
    # untouched maps of steps 0-15 but 3 and 4, and nothing else.
    (game / "notes").mkdir()
    (game / "notes" / "map-0001.svg").write_text("my own map\n")
    (game / "mail-0001.eml.txt").write_text("what I wrote to him\n")
    (game / "map-0002.svg\n").write_text("a file pbem did not write\n")
    annotated = (game / "map-0003.svg").read_bytes().replace(b"</svg>", b"<!-- my arrows --></svg>")
    (game / "map-0003.svg").write_bytes(annotated)
    outside = tmp_path / "elsewhere.svg"
    outside.write_text("not in the game directory\n")
    record = (game / "derived.sha256").read_bytes()

    g = Game.open(game, engine_hooks())
    (game / "map-0004.svg").unlink()
    (game / "map-0004.svg").symlink_to(outside)
    with transaction():
        removed = prune_maps(g, 16)
    expected = [f"map-{s:04d}.svg" for s in range(16) if s not in (3, 4)]
    assert sorted(removed) == expected
    assert maps(game) == ["map-0002.svg\n", "map-0003.svg", "map-0004.svg", "map-0016.svg"]
    assert (game / "notes" / "map-0001.svg").read_text() == "my own map\n"
    assert (game / "mail-0001.eml.txt").read_text() == "what I wrote to him\n"
    assert (game / "map-0002.svg\n").read_text() == "a file pbem did not write\n"
    assert (game / "map-0003.svg").read_bytes() == annotated
    assert (game / "map-0004.svg").is_symlink() and outside.read_text() == "not in the game directory\n"
    assert (game / "derived.sha256").read_bytes() == record  # lines stay, none added
    assert "map-0003.svg" in g.listing.other and "map-0000.svg" not in g.listing.other


def test_only_the_emails_pbem_wrote_and_every_side_answered_are_pruned(game: Path) -> None:
    # Move 16 (DE) signed: the emails of moves 1-15 have each been answered by the other side and
    # go; one the player edited before sending stays, and so does a file pbem did not write.
    (game / "mail-0001.eml\n").write_text("a file pbem did not write\n")
    edited = (game / "mail-0005.eml").read_bytes() + b"\r\nSorry for the delay.\r\n"
    (game / "mail-0005.eml").write_bytes(edited)
    g = Game.open(game, engine_hooks())
    with transaction():
        assert write_move_outputs(g, g.moves[16]) == []  # mail-0016.eml is there already
    mails = sorted(p.name for p in game.iterdir() if p.name.startswith("mail-"))
    assert mails == ["mail-0001.eml\n", "mail-0005.eml", "mail-0016.eml"]
    assert (game / "mail-0005.eml").read_bytes() == edited


def test_a_name_ending_in_a_newline_is_not_a_derived_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        derived.remove(tmp_path, "map-0001.svg\n")
    assert derived.check(tmp_path, ["map-0001.svg\n", "mail-0002.eml\n", "notes.txt"]) == 0


def test_a_command_failing_after_pruning_leaves_the_directory_as_it_was(game: Path) -> None:
    # The fault comes after several maps were removed (a later write fails): every one is back,
    # bytes and mode, and the record is unchanged.
    os.chmod(game / "map-0007.svg", 0o600)
    before = snapshot(game)
    g = Game.open(game, engine_hooks())
    with pytest.raises(DiskError), transaction():
        assert len(prune_maps(g, 16)) == 16
        raise DiskError("cannot write turn-0017.json: No space left on device")
    assert snapshot(game) == before


def test_a_directory_that_refuses_a_removal_halfway_is_restored(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A read-only directory (simulated: the test may run as root, who may write anyway): the
    # removal of map-0009.svg fails after maps 0-8 went; the command fails and they come back.
    before = snapshot(game)
    real = Path.unlink

    def unlink(self: Path, missing_ok: bool = False) -> None:
        if self.name == "map-0009.svg":
            raise PermissionError(13, "Permission denied")
        real(self, missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink)
    g = Game.open(game, engine_hooks())
    with pytest.raises(DiskError, match="cannot remove map-0009.svg"), transaction():
        prune_maps(g, 16)
    monkeypatch.undo()
    assert snapshot(game) == before


def test_killed_right_after_a_removal_nothing_is_lost_that_cannot_be_drawn_again(game: Path, tmp_path: Path) -> None:
    # kill -9 of the process just after it removed map-0005.svg (nothing to restore it): the
    # directory still verifies, and the map drawn again is the one pbem wrote (its recorded hash).
    recorded = derived.read(game)
    script = f"""
import os, signal
from pathlib import Path
from pbem.engine import derived
from pbem.engine.gamedir import Game
from pbem.outputs import engine_hooks
from pbem.protocol.fsutil import transaction
from pbem.render.outputs import prune_maps
real = derived.remove
def remove(game_dir, name, listed=None, recorded=None):
    done = real(game_dir, name, listed, recorded)
    if name == "map-0005.svg":
        os.kill(os.getpid(), signal.SIGKILL)
    return done
derived.remove = remove
g = Game.open(Path({str(game)!r}), engine_hooks())
with transaction():
    prune_maps(g, 16)
"""
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, cwd=ROOT)
    assert res.returncode == -9, res.stderr
    assert maps(game) == [f"map-{s:04d}.svg" for s in range(6, 17)]
    check = pbem("verify", game, home=tmp_path / "stranger")
    assert check.code == 0, check.err + check.out
    res2 = pbem("render", game, "--step", "5", "-o", tmp_path / "m.svg", home=tmp_path / "stranger")
    assert res2.code == 0 and "differs" not in res2.err, res2.err
    assert hashlib.sha256((tmp_path / "m.svg").read_bytes()).hexdigest() == recorded["map-0005.svg"]


def test_a_take_back_removes_what_pbem_drew_for_the_step_and_not_the_players_notes(tmp_path: Path) -> None:
    # Bastogne: the U.S. set-up (step 1, no dice [9.1]) is taken back on the German player's
    # machine. The map of step 1 and a map-0001-around-HEX.svg saved from the email go (drawn for
    # the step taken back); the player's own map-0001-notes.svg and notes/map-0001.svg stay.
    from helpers.protocol import bastogne_set_up, ok

    a, b = bastogne_set_up(tmp_path)
    assert (a.dir / "map-0001.svg").is_file() and not (a.dir / "map-0000.svg").exists()  # pruned
    (a.dir / "map-0001-around-0704.svg").write_text("<svg>an attachment saved here</svg>\n")
    (a.dir / "map-0001-notes.svg").write_text("<svg>my plan against the set-up</svg>\n")
    (a.dir / "notes").mkdir()
    (a.dir / "notes" / "map-0001.svg").write_text("<svg>mine</svg>\n")
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0001-US-1.json"]))
    res = ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0001-US-1.json", "--key", "alice",
                   "--yes"))
    assert "removed map-0001.svg" in res.err
    assert not (a.dir / "map-0001.svg").exists() and not (a.dir / "map-0001-around-0704.svg").exists()
    assert (a.dir / "map-0001-notes.svg").read_text() == "<svg>my plan against the set-up</svg>\n"
    assert (a.dir / "notes" / "map-0001.svg").read_text() == "<svg>mine</svg>\n"
    # the set-up's map, pruned when step 1 was drawn, is drawn again: the game stands at step 0
    assert (a.dir / "map-0000.svg").is_file()
    assert ok(pbem("verify", a.dir, home=a.home)).code == 0


def test_an_email_is_answered_only_once_every_other_side_has_moved_after_it(tmp_path: Path) -> None:
    # A sealed game with Game Control (the megagame's sides: its teams and the umpire): teams AL
    # and DE commit round 1 (steps 1, 2), Game Control rules it (3), AL commits round 2 (4), DE (5).
    # AL's commitment is answered once DE and Game Control have each moved later: after step 3,
    # not after DE's commitment alone; a take-back's redo is its author's move.
    from types import SimpleNamespace

    from pbem.mail.compose import delivered
    from pbem.protocol.archive import PathMap

    moves = PathMap(tmp_path)
    game = SimpleNamespace(sides=["AL", "DE", "GC"], listing=SimpleNamespace(moves=moves))
    seen: list[list[bool]] = []
    for step, name in enumerate(["move-0001-AL.json", "move-0002-DE-redo1.json", "move-0003-GC.json",
                                 "move-0004-AL.json", "move-0005-DE.json"], start=1):
        moves.add(step, name)
        seen.append([delivered(game, s) for s in range(1, 6)])  # type: ignore[arg-type]
    assert seen == [
        [False, False, False, False, False],
        [False, False, False, False, False],  # DE has moved after AL; Game Control has not
        [True, False, False, False, False],   # GC ruled: AL's answered; DE's awaits AL
        [True, True, False, False, False],    # AL moved after DE's: answered by GC and AL
        [True, True, True, False, False],     # GC's ruling: AL and DE both moved after it
    ]


def test_a_full_disk_that_refuses_a_restore_loses_only_that_map_which_is_drawn_again(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The command fails on a full disk after pruning, and the disk is still full when the first
    # removed map (the newest, map-0015.svg) is written back: that one stays removed, every other
    # comes back, the error told is the command's own, the game verifies, and the lost map is
    # drawn again as pbem wrote it.
    from pbem.protocol import fsutil

    before = snapshot(game)
    recorded = derived.read(game)
    real = fsutil._write_temp

    def full(path: Path, data: bytes, mode: int) -> Path:  # as fsutil._write_temp on a full disk
        if path.name == "map-0015.svg":
            raise DiskError(f"cannot write {path.name} in {path.parent}: No space left on device")
        return real(path, data, mode)

    g = Game.open(game, engine_hooks())
    with pytest.raises(DiskError, match="turn-0017.json"), transaction():
        assert len(prune_maps(g, 16)) == 16
        monkeypatch.setattr(fsutil, "_write_temp", full)
        raise DiskError("cannot write turn-0017.json: No space left on device")
    monkeypatch.undo()
    after = snapshot(game)
    assert sorted(set(before) - set(after)) == ["map-0015.svg"]
    assert all(after[n] == before[n] for n in after)
    check = pbem("verify", game, home=tmp_path / "stranger")
    assert check.code == 0, check.err + check.out
    res = pbem("render", game, "--step", "15", "-o", tmp_path / "m.svg", home=tmp_path / "stranger")
    assert res.code == 0 and hashlib.sha256((tmp_path / "m.svg").read_bytes()).hexdigest() == recorded["map-0015.svg"]


def test_an_archive_name_with_a_trailing_newline_is_not_an_archive_file(game: Path, tmp_path: Path) -> None:
    # Python's '$' also matches before a final newline: 'move-0001-US.json\n' was read as the move
    # of step 1 (and refused the game as two moves of one step [P7]); every archive name pattern now
    # ends exactly (\Z), so such a file is someone else's and the archive verifies as it is.
    shutil.copyfile(game / "move-0001-US.json", game / "move-0001-US.json\n")
    shutil.copyfile(game / "turn-0001.json", game / "turn-0001.json\n")
    done = pbem("verify", game, home=tmp_path / "stranger")
    assert done.code == 0, done.err
    assert "P7" not in done.err
