"""Symbolic links planted in a game directory (hostile-input trial 32, case 6): the files a game is
made of are the plain files of its own directory. A link at a name pbem reads or writes -- to an
identical copy elsewhere, to ``/etc/passwd``, or to nothing -- is refused in one line naming it
(exit 1 for ``verify``, 2 for every other command), never followed, and nothing is signed or
written; a link put there after the game was opened is refused when the file is read or written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import Player, Result, bastogne_set_up, env, ok, pbem

from pbem.engine.gamedir import Game
from pbem.engine.steps import Bad
from pbem.errors import ArchiveError, VerificationError
from pbem.outputs import engine_hooks
from pbem.protocol.fsutil import transaction

DE_TURN = {"kind": "player-turn", "side": "DE", "game_turn": 1, "attacks": [],
           "moves": [{"unit": "1/3", "to": "2712"}, {"unit": "2/3", "to": "2812"}]}


def refused(res: Result, code: int, name: str) -> str:
    assert res.code == code, (res.code, res.err, res.out)
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.err, res.err
    assert lines[0].startswith(f"pbem: {name}: a symbolic link, refused"), lines[0]
    return lines[0]


def snapshot(*roots: Path) -> dict[str, bytes]:
    """Every entry under ``roots``: a link by its target, a file by its bytes."""
    out: dict[str, bytes] = {}
    for root in roots:
        for p in sorted(root.rglob("*")):
            if p.is_symlink():
                out[str(p)] = b"-> " + os.readlink(p).encode()
            elif p.is_file():
                out[str(p)] = p.read_bytes()
    return out


def plant(path: Path, target: str, outside: Path) -> None:
    """Replace ``path`` (if there) by a link: to a copy of its own bytes outside the directory,
    to /etc/passwd, or to a file that does not exist."""
    if target == "identical copy outside":
        copy = outside / f"copy-of-{path.name}"
        shutil.copyfile(path, copy)
        dest = str(copy)
    else:
        dest = "/etc/passwd" if target == "/etc/passwd" else str(outside / "nowhere")
    if path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(dest)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Player, Player]:
    """Bastogne between two homes: the U.S. set-up signed by bob and ingested by alice; bob has
    then asked to take it back (a take-back request in his directory)."""
    a, b = bastogne_set_up(tmp_path_factory.mktemp("links"))
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    return a, b


ARCHIVE = ["genesis.json", "scenario.json", "join-US.json", "move-0001-US.json", "turn-0000.json",
           "turn-0001.json", "takeback-0001-US-1.json"]
DERIVED = ["map-0001.svg", "mail-0001.eml", "mail-join-US.eml", "derived.sha256"]


@pytest.mark.parametrize("target", ["identical copy outside", "/etc/passwd", "nowhere"])
@pytest.mark.parametrize("name", ARCHIVE + DERIVED)
def test_a_link_in_place_of_a_game_file_is_refused_by_verify_and_by_status(
        played: tuple[Player, Player], tmp_path: Path, name: str, target: str) -> None:
    # bob's directory holds every kind of file named here; a copy of it is attacked
    _, b = played
    g = tmp_path / "game"
    shutil.copytree(b.dir, g, symlinks=True)
    assert (g / name).is_file()
    plant(g / name, target, tmp_path)
    before = snapshot(g, b.home)
    refused(pbem("verify", g, home=tmp_path / "stranger"), 1, name)
    refused(b.run("status", g), 2, name)
    refused(b.run("log", g), 2, name)
    assert snapshot(g, b.home) == before


def test_the_same_directory_without_the_link_verifies(played: tuple[Player, Player], tmp_path: Path) -> None:
    # the control for the test above: the copy itself is a good game
    _, b = played
    g = tmp_path / "game"
    shutil.copytree(b.dir, g, symlinks=True)
    ok(pbem("verify", g, home=tmp_path / "stranger"))


@pytest.mark.parametrize("name", ["mail-0002.eml", "map-0002.svg", "move-0002-DE.json", "turn-0002.json"])
def test_submit_over_a_link_to_a_file_signs_nothing(played: tuple[Player, Player], tmp_path: Path, name: str) -> None:
    # The trial's case: a link at mail-0002.eml to a file that exists made 'submit' sign, write
    # the move and skip the email (the name looked written already), exit 0; verify then failed.
    # Now the link is named before anything is signed: no move file, no P7 record, no turn.
    a, _ = played
    home, g = tmp_path / "home", tmp_path / "game"
    shutil.copytree(a.home, home)
    shutil.copytree(a.dir, g, symlinks=True)
    outside = tmp_path / "outside.txt"
    outside.write_text("a file outside the game directory\n")
    (g / name).symlink_to(outside)
    orders = tmp_path / "de.json"
    orders.write_text(json.dumps(DE_TURN))
    before = snapshot(g, home)
    refused(pbem("submit", "--yes", g, orders, "--key", "alice", home=home), 2, name)
    assert snapshot(g, home) == before
    assert outside.read_text() == "a file outside the game directory\n"
    (g / name).unlink()  # moved away, the same command goes through and the game verifies
    ok(pbem("submit", "--yes", g, orders, "--key", "alice", home=home))
    assert (g / "mail-0002.eml").is_file() and not (g / "mail-0002.eml").is_symlink()
    ok(pbem("verify", g, home=tmp_path / "stranger"))


@pytest.mark.parametrize("name", ["move-0001-US.json", "turn-0001.json"])
def test_a_link_put_there_after_the_game_was_opened_is_refused_when_read(
        played: tuple[Player, Player], tmp_path: Path, name: str) -> None:
    # A file swapped for a link to its own bytes elsewhere between the opening of the game and
    # the reading of the file (moves are read when first needed, turns when compared): refused
    # when read, never believed.
    _, b = played
    g = tmp_path / "game"
    shutil.copytree(b.dir, g, symlinks=True)
    game = Game.open(g)
    plant(g / name, "identical copy outside", tmp_path)
    if name.startswith("move-"):
        with pytest.raises(Bad) as bad:
            game.moves[1]
        assert bad.value.path == name and bad.value.reason.startswith("a symbolic link, refused")
    else:
        with pytest.raises(VerificationError) as caught:
            game.verify()
        assert str(caught.value).startswith(f"{name}: a symbolic link, refused")


EXAMPLE = ROOT / "examples" / "bastogne-spearhead"
"""A finished game that keeps every map and email (moves 1-16)."""


@pytest.mark.parametrize("name", ["mail-0016.eml", "map-0016.svg"])
def test_a_writer_meeting_a_link_put_there_after_the_game_was_opened_refuses(tmp_path: Path, name: str) -> None:
    # The outputs a command writes skip a name "written already": a link to a copy of pbem's own
    # file is not one. The writer refuses it (the command's transaction then removes what it wrote).
    from pbem.mail.compose import move_output_hook
    from pbem.render.outputs import output_hook

    g = tmp_path / "game"
    shutil.copytree(EXAMPLE, g)
    with env(PBEM_HOME=str(tmp_path / "home")):
        game = Game.open(g, engine_hooks())
        rp = game.replay()
        plant(g / name, "identical copy outside", tmp_path)
        with pytest.raises(ArchiveError) as refusal, transaction():
            if name.startswith("mail-"):
                move_output_hook(game, rp, game.moves[16])
            else:
                output_hook(game, rp, rp.records[-1])
    assert str(refusal.value).startswith(f"{name}: a symbolic link stands where pbem writes this file")
    assert (g / name).is_symlink()
