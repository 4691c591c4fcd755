"""The bundled example game (``examples/bastogne-spearhead``) must stay a valid, complete archive.

``make demo`` verifies it; it is recomputed here byte for byte (turn files and maps) by a stranger
who holds no key, so a change to the rules, the bot or the renderer that is not followed by
``python examples/generate.py`` fails here, not in front of a user."""

from __future__ import annotations

import base64
import email
import email.policy
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import pbem as run_pbem
from helpers.svgmap import drawn_hexes

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"
REGENERATE = "the bundled example is stale: run 'python examples/generate.py' and commit examples/"


def test_example_game_verifies_for_a_stranger(tmp_path: Path) -> None:
    r = run_pbem("verify", EXAMPLE, "--redraw", home=tmp_path / "stranger")
    assert r.code == 0, f"{REGENERATE}\n{r.err}"
    report = r.out
    assert "16 moves, 17 turn files recomputed byte for byte" in report
    assert "outcome" in report and "OK" in report


def test_example_has_a_map_per_turn_and_the_mail_sent_with_each_move() -> None:
    turns = sorted(p.name for p in EXAMPLE.glob("turn-*.json"))
    moves = sorted(p.name for p in EXAMPLE.glob("move-*.json"))
    assert len(turns) == 17 and len(moves) == 16, REGENERATE
    assert sorted(p.name for p in EXAMPLE.glob("map-*.svg")) == [
        t.replace("turn-", "map-").replace(".json", ".svg") for t in turns
    ]
    for move in moves:
        step = int(move[5:9])
        mail = EXAMPLE / f"mail-{step:04d}.eml"
        msg = email.message_from_bytes(mail.read_bytes(), policy=email.policy.default)
        atts = {str(p.get_filename()): p.get_payload(decode=True) for p in msg.iter_attachments()}
        answered = f"turn-{step - 1:04d}.json"
        # the map of the turn answered, or (for the set-up, after a turn 0 with no events) of its own
        maps = [n for n in atts if n.startswith((f"map-{step - 1:04d}-around-", f"map-{step:04d}-around-"))]
        assert set(atts) - set(maps) == {move, answered} and len(maps) <= 1, mail.name
        # the whole board: drawn in every map (0.2's maps placed a board.svg drawn once)
        board = (EXAMPLE / "board.svg") if (EXAMPLE / "board.svg").exists() else max(EXAMPLE.glob("map-*.svg"))
        whole = len(drawn_hexes(ET.fromstring(board.read_bytes())))
        for name in maps:  # the action, cropped: fewer hexes than the whole board, which ingest draws
            assert 0 < len(drawn_hexes(ET.fromstring(atts[name]))) < whole
        assert atts[move] == (EXAMPLE / move).read_bytes()
        assert atts[answered] == (EXAMPLE / answered).read_bytes()
        assert msg["Subject"].startswith("[pbem] bastogne-spearhead e8a3b1e0 T")  # the game named (drawing 4)


def test_the_last_mail_reports_the_final_result() -> None:
    last = max(EXAMPLE.glob("mail-*.eml"))
    msg = email.message_from_bytes(last.read_bytes(), policy=email.policy.default)
    assert msg["Subject"].endswith(": game over"), REGENERATE
    text = msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "Final result: " in text and "[15.17]" in text, REGENERATE


def test_an_archive_from_other_rules_is_refused_by_name_not_as_tampered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The genesis records the rules the game is played under; a pbem whose WestWall results
    # differ (a new version) must say so instead of reporting every turn file as corrupt.
    import json

    from pbem.systems.westwall.rules import WestWallRules

    body = json.loads(base64.b64decode(json.loads((EXAMPLE / "genesis.json").read_bytes())["payload"]))
    assert body["rules"] == WestWallRules().rules_id
    monkeypatch.setattr(WestWallRules, "version", "999")
    r = run_pbem("verify", EXAMPLE, "--redraw", home=tmp_path / "stranger")
    assert r.code == 2
    assert f"adjudicated with {body['rules']} rules" in r.err and "westwall/999" in r.err
    assert r.err.count("\n") == 1


def test_every_map_draws_its_board_or_places_it_exactly_on_its_map_box() -> None:
    """Since issue 28 a map draws its board (terrain, roads, rivers, hex numbers, places) itself
    and links to nothing outside it; the maps of pbem 0.2 placed ``board.svg`` at the box the
    board's view box describes, so hex centres line up by hand."""
    import re

    board_file = EXAMPLE / "board.svg"
    for path in sorted(EXAMPLE.glob("map-*.svg")):
        text = path.read_text()
        img = re.search(r'<image [^>]*id="board"[^>]*/>', text)
        if not board_file.exists():
            # every hex of the board drawn in it (its terrain, its number)
            assert img is None and 'href="board.svg"' not in text, path.name
            assert len(drawn_hexes(ET.fromstring(text))) > 500, path.name
            continue
        vx, vy, vw, vh = re.search(r'viewBox="([^"]+)"', board_file.read_text()).group(1).split()  # type: ignore[union-attr]
        assert img is not None, path.name
        attrs = dict(re.findall(r'(\w[\w:-]*)="([^"]*)"', img.group(0)))
        assert (attrs["x"], attrs["y"], attrs["width"], attrs["height"]) == (vx, vy, vw, vh), path.name
        assert attrs["xlink:href"] == "board.svg" and attrs["preserveAspectRatio"] == "none"


ARNHEM = EXAMPLE.parent / "arnhem-historical"


def test_arnhem_example_opening_verifies_for_a_stranger(tmp_path: Path) -> None:
    """The opening of an SPI Arnhem game (the German set-up and three game-turns, left open): every
    turn file recomputed and every map redrawn byte for byte by someone holding no key."""
    r = run_pbem("verify", ARNHEM, "--redraw", home=tmp_path / "stranger")
    assert r.code == 0, f"{REGENERATE}\n{r.err}"
    assert "7 moves, 7 turn files recomputed byte for byte" in r.out
    assert "awaiting" in r.out and "OK" in r.out
    maps = sorted(p.name for p in ARNHEM.glob("map-*.svg"))
    assert len(maps) == 8
    assert "Weather" not in (ARNHEM / "map-0007.svg").read_text(encoding="utf-8")  # 18.1 without it
    assert "Drop zones: 1 at 3919, 101 at 1007, 82 at 2323" in (
        ARNHEM / "map-0001.svg").read_text(encoding="utf-8")  # [18.11]
