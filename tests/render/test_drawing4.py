"""Drawing 4: newer words in maps and emails, while archives of drawing 3 still redraw byte for byte.

A move's email of drawing 4 names its game in the subject (``[pbem] arnhem-historical a4a4a4a4 T3
DE→AL: your move``), as the invitation, join, reminder, receipt and take-back emails always did, so
two games of one scenario between the same players no longer share their subjects (by which Gmail
threads). SPI Arnhem's map header names the points scored at the ends of game-turns as such, told
apart from the victory points above them [17.1]. The archive of ``drawing3/`` was written with
drawing 3 (its README) and must still verify, redraw and draft again to its recorded hashes.

Expected words and hashes are read from the frozen archive's files and written out by hand here,
not from the code under test."""

from __future__ import annotations

import email
import email.policy
import hashlib
import shutil
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import ok, pbem

from pbem.engine.gamedir import open_checked
from pbem.mail.compose import email_as_written, invitation_email, move_email
from pbem.render.outputs import StepView, as_written, drawing_of
from pbem.render.svg import DRAWING

FROZEN = ROOT / "tests" / "render" / "drawing3" / "arnhem-historical"
COMPAT = ROOT / "tests" / "compat"

OLD_POINTS = "Points so far: DE 57 [17.1]"
NEW_POINTS = ("Points scored at the ends of game-turns: DE 57 (the victory points add what the end of the "
              "game would score now) [17.1]")


def _subject(eml: bytes) -> str:
    return str(email.message_from_bytes(eml, policy=email.policy.default)["Subject"])


def _recorded(game_dir: Path) -> dict[str, str]:
    """``derived.sha256`` read by hand: name -> its newest hash."""
    out: dict[str, str] = {}
    for line in (game_dir / "derived.sha256").read_text(encoding="ascii").splitlines():
        digest, name = line.split("  ", 1)
        out[name] = digest
    return out


def _copy(tmp_path: Path) -> Path:
    """The frozen archive copied (never run a command on the frozen files themselves)."""
    game = tmp_path / "g"
    shutil.copytree(FROZEN, game)
    return game


def test_the_frozen_archive_is_drawing_3() -> None:
    assert DRAWING == 4
    assert drawing_of((FROZEN / "map-0007.svg").read_bytes()) == 3
    assert open_checked(FROZEN).id == "a4a4a4a4e8a3b1e0c0dedeadbeef0144"


def test_a_move_email_of_drawing_4_names_its_game_and_drawing_3s_is_the_archived_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))  # the packaged templates only
    game = open_checked(FROZEN)
    archived = (FROZEN / "mail-0007.eml").read_bytes()
    old, new = move_email(game, 7, drawing=3), move_email(game, 7)
    assert old == archived  # drawing 3 drafts its email again byte for byte, subject and all
    assert _subject(old) == "[pbem] arnhem-historical T3 DE→AL: your move"
    assert _subject(new) == "[pbem] arnhem-historical a4a4a4a4 T3 DE→AL: your move"
    assert move_email(game, 7, drawing=4) == new  # the newest drawing is 4
    # as the invitation names the game: the scenario id, then the game id's first 8 characters
    invitation = _subject(invitation_email(game, "AL"))
    assert invitation.startswith("[pbem] arnhem-historical a4a4a4a4: ")
    # ``pbem mail draft`` finds the drawing that wrote each email: 3, recorded in derived.sha256
    assert email_as_written(game, 7) == (archived, True)
    eml, same = email_as_written(game, 4)  # an email not kept, recorded only by its hash
    assert same is True and hashlib.sha256(eml).hexdigest() == _recorded(FROZEN)["mail-0004.eml"]
    assert _subject(eml) == "[pbem] arnhem-historical T2 AL→DE: your move"


def test_a_hidden_games_sealed_round_subject_names_its_game_from_drawing_4(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    game = open_checked(COMPAT / "megagame")  # hidden information: the subject says the round
    assert game.hidden and game.id.startswith("c0a1c0a1")
    archived = _subject((COMPAT / "megagame" / "mail-0002.eml").read_bytes())
    old_words = "[pbem] megagame-arnhem Turn 1, 17 September 1944, afternoon  SS9→ALL: sealed orders"
    assert archived == old_words
    assert _subject(move_email(game, 2, drawing=3)) == old_words
    assert _subject(move_email(game, 2)) == ("[pbem] megagame-arnhem c0a1c0a1 Turn 1, 17 September 1944, "
                                             "afternoon  SS9→ALL: sealed orders")


def test_spi_arnhem_header_names_the_points_scored_at_the_ends_of_game_turns_from_drawing_4_17_1() -> None:
    view = StepView(open_checked(FROZEN), 7)
    archived = (FROZEN / "map-0007.svg").read_bytes()
    old, new = view.svg(drawing=3), view.svg()
    assert old.encode("utf-8") == archived
    assert OLD_POINTS in old and NEW_POINTS not in old
    assert NEW_POINTS in new and "Points so far" not in new
    for svg in (old, new):  # the victory points above them, in both
        assert "Victory points: Allied 0 &#183; German 92" in svg
    assert drawing_of(new.encode()) == 4
    # the same map in older drawings keeps the old words too
    assert OLD_POINTS in view.svg(drawing=2) and OLD_POINTS in view.svg(drawing=1)
    # nothing else differs: drawing 4 draws what drawing 3 draws (the 7-bit lines break elsewhere
    # after the longer line: the breaks between elements are layout)
    assert new.replace(NEW_POINTS, OLD_POINTS).replace('data-drawing="4"', 'data-drawing="3"').replace("\n", "") \
        == old.replace("\n", "")


def test_verify_redraw_and_the_step_redraws_of_a_drawing_3_archive_pass(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    home = tmp_path / "stranger"
    res = ok(pbem("verify", game, "--redraw", home=home))
    assert res.out.rstrip().endswith("OK")
    recorded = _recorded(FROZEN)
    for step in (3, 7):  # a map not kept (3) and the one kept (7): each as drawing 3 drew it
        out = tmp_path / f"map-{step}.svg"
        ok(pbem("render", game, "--step", step, "-o", out, home=home))
        assert hashlib.sha256(out.read_bytes()).hexdigest() == recorded[f"map-{step:04d}.svg"]
        assert drawing_of(out.read_bytes()) == 3
    assert b"Points so far: DE 18 [17.1]" in (tmp_path / "map-3.svg").read_bytes()
    for step in (4, 7):
        out = tmp_path / f"mail-{step}.eml"
        res = ok(pbem("mail", "draft", game, "--step", step, "-o", out, home=home))
        assert "differs" not in res.err
        assert hashlib.sha256(out.read_bytes()).hexdigest() == recorded[f"mail-{step:04d}.eml"]
    assert _recorded(game) == recorded  # nothing written into the archive
    assert sorted(p.name for p in game.iterdir()) == sorted(p.name for p in FROZEN.iterdir())
    # drawing 4's words in a map that says drawing 3, its record edited to match: plain verify
    # (hashes) passes, --redraw draws drawing 3's words and names the map
    path = game / "map-0007.svg"
    edited = path.read_bytes().replace(OLD_POINTS.encode(), NEW_POINTS.encode())
    path.write_bytes(edited)
    with (game / "derived.sha256").open("a", encoding="ascii") as f:
        f.write(f"{hashlib.sha256(edited).hexdigest()}  map-0007.svg\n")
    ok(pbem("verify", game, home=home))
    res = pbem("verify", game, "--redraw", home=home)
    assert res.code != 0 and "map-0007.svg" in res.err + res.out


def test_as_written_finds_drawing_3_for_a_map_it_recorded() -> None:
    data, same = as_written(open_checked(FROZEN), 5)
    assert same is True and drawing_of(data) == 3
    assert hashlib.sha256(data).hexdigest() == _recorded(FROZEN)["map-0005.svg"]
