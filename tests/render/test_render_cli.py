"""``pbem render`` and ``pbem mail draft`` on a real WestWall game directory, and
``write_step_outputs`` (the engine output hook)."""

from __future__ import annotations

import base64
import contextlib
import email
import email.policy
import io
import json
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.svgmap import drawn_hexes, terrain

from pbem.render.svg.canvas import xml_id

GAME_ID = "00112233445566778899aabbccddeeff"


@contextlib.contextmanager
def _env(home: Path) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in ("PBEM_HOME", "PBEM_PASSPHRASE")}
    os.environ["PBEM_HOME"] = str(home)
    os.environ["PBEM_PASSPHRASE"] = ""
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run(home: Path, *args: str | Path) -> tuple[int, bytes, str]:
    from pbem.cli import main

    out, err = io.BytesIO(), io.StringIO()

    wrapper = io.TextIOWrapper(out, encoding="utf-8")
    code = 0
    with _env(home), contextlib.redirect_stdout(wrapper), contextlib.redirect_stderr(err):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        wrapper.flush()
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A Bastogne Spearhead game after the U.S. set-up and a German move (two steps)."""
    root = tmp_path_factory.mktemp("rendercli")
    home, g = root / "home", root / "game"
    for name in ("alice", "bob"):
        assert run(home, "key", "new", name)[0] == 0
    code, _o, err = run(home, "new", "bastogne-spearhead", g, "--player", "DE=alice",
                        "--player", "US=bob", "--game-id", GAME_ID)
    assert code == 0, err
    code, setup, err = run(home, "orders", g, "--side", "US")
    assert code == 0, err
    (root / "us.json").write_bytes(setup)
    assert run(home, "submit", "--yes", g, root / "us.json", "--key", "bob")[0] == 0
    orders = {"kind": "player-turn", "side": "DE", "game_turn": 1, "attacks": [],
              "moves": [{"unit": "1/3", "path": ["2913", "2812", "2712"]}]}
    (root / "de.json").write_text(json.dumps(orders), encoding="utf-8")
    code, _o, err = run(home, "submit", "--yes", g, root / "de.json", "--key", "alice")
    assert code == 0, err
    return home, g


def test_an_output_file_never_replaces_a_file_of_the_game(game: tuple[Path, Path], tmp_path: Path) -> None:
    # a trial: 'pbem render g -o g/genesis.json' exited 0 and the game was gone; the same with
    # 'mail draft -o' over a move and 'reach --map' over a turn file. Refused, nothing written;
    # a pruned map written back as pbem recorded it is allowed (the README's way to restore one)
    import shutil

    home, g = tmp_path / "home", tmp_path / "g"
    shutil.copytree(game[0], home)
    shutil.copytree(game[1], g)
    before = {p.name: p.read_bytes() for p in g.iterdir()}
    refused = [("render", g, "-o", g / "genesis.json"),
               ("mail", "draft", g, "--step", "1", "-o", g / "move-0001-US.json"),
               ("reach", g, "20", "--map", g / "turn-0001.json"),
               ("render", g, "--step", "1", "--around", "1317", "-o", g / "map-0001.svg"),  # not as recorded
               ("mail", "draft", g, "--step", "1", "-o", g / "mail-0001.eml")]  # send sends only its own
    for args in refused:
        code, _out, err = run(home, *args)
        assert code == 2 and "a file of the game itself" in err and len(err.splitlines()) == 1, (args, err)
        assert {p.name: p.read_bytes() for p in g.iterdir()} == before, args
    assert "map-0001.svg" not in before
    code, _out, err = run(home, "render", g, "--step", "1", "-o", g / "map-0001.svg")
    assert code == 0, err
    assert run(home, "verify", g)[0] == 0  # the map written back is the one derived.sha256 records


def test_render_newest_step_to_stdout(game: tuple[Path, Path]) -> None:
    home, g = game
    code, out, err = run(home, "render", g)
    assert code == 0, err
    root = ET.fromstring(out)
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    turn = json.loads((g / "turn-0002.json").read_bytes())
    on_map = {u: s["hex"] for u, s in turn["state"]["units"].items() if s["status"] == "on-map"}
    drawn = {el.get("data-unit"): el.get("data-hex") for k, el in ids.items() if k and k.startswith("unit-")}
    assert drawn == on_map
    assert ids[xml_id("unit-", "1/3")].get("data-hex") == "2712"
    assert ids["event-1"].get("data-type") == "moved"
    assert "step 2" in "".join(ids["subtitle"].itertext())


def test_render_zoc_shades_exactly_the_zones_the_rules_use(game: tuple[Path, Path]) -> None:
    # [6.0]: the hexes shaded for the U.S. are exactly those in which the rules stop a German unit
    # (Board.enemy_zoc), computed here from the turn file independently of the renderer.
    import re

    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.board import Board
    from pbem.systems.westwall.model import Scenario, State

    home, g = game
    code, out, err = run(home, "render", g, "--zoc", "US")
    assert code == 0, err
    svg = out.decode()
    shaded = set(re.findall(r'id="shaded-(\d{4})"', svg))
    sc = Scenario.parse(load_data("bastogne-spearhead"))
    st = State.parse(json.loads((g / "turn-0002.json").read_bytes())["state"])
    board = Board.from_state(sc, st)
    expected = {str(h) for h in board.geo.hexes if board.enemy_zoc(h, "DE")}
    assert shaded == expected and len(expected) > 20
    assert "zone of control of" in svg and "[6.0]" in svg
    code, _o, err = run(home, "render", g, "--zoc", "FR")
    assert code == 2 and "unknown side 'FR'" in err


def test_render_step_side_crop_and_file(game: tuple[Path, Path], tmp_path: Path) -> None:
    home, g = game
    out = tmp_path / "m.svg"
    code, _o, err = run(home, "render", g, "--step", "1", "-o", out, "--side", "US",
                        "--around", "1116", "--radius", "2")
    assert code == 0, err
    root = ET.fromstring(out.read_bytes())
    hexes = drawn_hexes(root)
    assert "1116" in hexes and "1118" in hexes and "1119" not in hexes and len(hexes) == 19  # radius 2
    assert root.get("data-side") == "US"


@pytest.mark.parametrize("args", [
    ("--step", "9"),
    ("--around", "99999"),
    ("--radius", "2"),
    ("--side", "XX"),
])
def test_render_bad_input_exit_2(game: tuple[Path, Path], args: tuple[str, ...]) -> None:
    home, g = game
    code, out, err = run(home, "render", g, *args)
    assert code == 2 and out == b""
    assert err.startswith("pbem: ") and err.count("\n") == 1


def test_mail_draft_carries_move_turn_and_map(game: tuple[Path, Path]) -> None:
    # The email for move 2 (the German player-turn) carries that move, the turn file it answers
    # (turn 1: the U.S. set-up) and that turn's map; it tells what happened, then the orders.
    home, g = game
    code, out, err = run(home, "mail", "draft", g, "--step", "2")
    assert code == 0, err
    msg = email.message_from_bytes(out, policy=email.policy.default)
    assert msg["Subject"] == f"[pbem] bastogne-spearhead {GAME_ID[:8]} T1 DE→US: your move"
    atts = {p.get_filename(): p.get_payload(decode=True) for p in msg.iter_attachments()}
    [crop] = [n for n in atts if n.startswith("map-0001-around-")]
    assert set(atts) == {"move-0002-DE.json", "turn-0001.json", crop}
    assert atts["move-0002-DE.json"] == (g / "move-0002-DE.json").read_bytes()
    assert atts["turn-0001.json"] == (g / "turn-0001.json").read_bytes()
    # the map of where the action was: the U.S. set-up, cropped; the whole map is drawn on ingest
    whole = (g / "map-0002.svg").read_bytes()  # the newest map, every hex's terrain drawn in it
    assert b'data-type="placed"' in atts[crop]
    assert 0 < len(drawn_hexes(ET.fromstring(atts[crop]))) < len(drawn_hexes(ET.fromstring(whole)))
    assert not (g / "board.svg").exists() and b"<image" not in whole
    # a new game writes drawing 4: its maps and the email's map say so, the subject names the game
    assert b'data-drawing="4"' in whole[:400] and b'data-drawing="4"' in atts[crop][:400]
    text = msg.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    # the move said as its author's preview said it: a reinforcement's entry as an entry [11.11, 27]
    assert "1/3 enters at 2913 [11.11], then moves to 2712 via 2812" in text
    set_up = json.loads(base64.b64decode(json.loads((g / "move-0001-US.json").read_bytes())["payload"]))
    assert f"20 set up in {set_up['orders']['placements']['20']}" in text  # the U.S. set-up it answers (turn 1)
    # the same command twice gives the same bytes (nothing from the clock)
    assert run(home, "mail", "draft", g, "--step", "2")[1] == out
    # submit wrote exactly this email
    assert (g / "mail-0002.eml").read_bytes() == out
    # and it can be ingested back: only the archive files come out
    from pbem.mail.draft import extract_attachments

    assert sorted(n for n, _ in extract_attachments(out)) == ["move-0002-DE.json", "turn-0001.json"]


def test_engine_hooks_keep_the_newest_map_and_the_unanswered_mail(game: tuple[Path, Path]) -> None:
    # issue 28: a map per turn and a mail per move were written, but only the newest map stays, and
    # the mail of move 2 (the German move the U.S. has not answered); the U.S. mail of move 1 was
    # removed once the German move answered it. Every one of them is still listed with its hash.
    import hashlib

    from pbem.engine import derived

    home, g = game
    assert sorted(p.name for p in g.glob("map-*.svg")) == ["map-0002.svg"]
    assert sorted(p.name for p in g.glob("mail-*.eml")) == ["mail-0002.eml"]
    recorded = derived.read(g)
    assert sorted(recorded) == ["mail-0001.eml", "mail-0002.eml", "map-0000.svg", "map-0001.svg", "map-0002.svg"]
    # each drawn again on demand is the file pbem wrote then, byte for byte
    for step in (0, 1, 2):
        code, out, err = run(home, "render", g, "--step", str(step))
        assert code == 0 and err == "", err
        assert hashlib.sha256(out).hexdigest() == recorded[f"map-{step:04d}.svg"], step
    for step in (1, 2):
        code, out, err = run(home, "mail", "draft", g, "--step", str(step))
        assert code == 0, err
        assert hashlib.sha256(out).hexdigest() == recorded[f"mail-{step:04d}.eml"], step


def test_a_map_draws_its_terrain_itself(game: tuple[Path, Path]) -> None:
    # issue 28: nothing outside the file is loaded (an <img>, webmail or cairosvg load nothing)
    import re

    from pbem.render.outputs import StepView, open_game

    home, g = game
    svg = (g / "map-0002.svg").read_bytes()
    root = ET.fromstring(svg)
    hrefs = [v for el in root.iter() for k, v in el.attrib.items() if k.endswith("href")]
    assert hrefs and all(v.startswith("#") for v in hrefs)  # only its own symbols and patterns
    assert b"<image" not in svg and not re.search(rb"url\((?!#)", svg)
    with _env(home):
        hexes = StepView(open_game(g), 2).view().all_hexes()
    drawn = terrain(root)
    assert drawn.keys() == {str(h) for h in hexes} and len(drawn) > 500  # every hex of the board
    assert {kind for kind, _fill in drawn.values()} >= {"clear", "woods", "town"}


def test_write_step_outputs_atomic_never_overwrites(game: tuple[Path, Path]) -> None:
    from pbem.errors import ArchiveError
    from pbem.render.outputs import write_step_outputs

    home, g = game
    with _env(home):
        svg = (g / "map-0002.svg").read_bytes()
        (g / "map-0002.svg").unlink()
        written = write_step_outputs(g, 2)
        assert [p.name for p in written] == ["map-0002.svg"]
        # the same bytes as the engine hook wrote at submit time (deterministic)
        assert (g / "map-0002.svg").read_bytes() == svg
        assert write_step_outputs(g, 2) == []  # same bytes: nothing to do
        (g / "map-0002.svg").write_bytes(svg + b" ")
        with pytest.raises(ArchiveError):
            write_step_outputs(g, 2)
        assert (g / "map-0002.svg").read_bytes() == svg + b" "  # left untouched
        (g / "map-0002.svg").write_bytes(svg)
    assert not [p for p in g.iterdir() if p.name.startswith(".") or p.suffix == ".tmp"]


def test_verify_rerenders_maps_and_names_a_changed_one(game: tuple[Path, Path]) -> None:
    home, g = game
    code, _out, err = run(home, "verify", g)
    assert code == 0, err
    svg = (g / "map-0002.svg").read_bytes()
    try:
        (g / "map-0002.svg").write_bytes(svg.replace(b"6-4-12", b"9-9-12", 1))
        code, _out, err = run(home, "verify", g)
        assert code == 1
        assert "map-0002.svg" in err
    finally:
        (g / "map-0002.svg").write_bytes(svg)


def test_mail_draft_for_webmail_carries_the_map_as_an_inline_png(game: tuple[Path, Path], tmp_path: Path) -> None:
    # For sending a draft by hand to a webmail reader: the same mail with the map drawn as a PNG
    # inside the HTML part (cid:), as 'pbem send' sends it.
    home, g = game
    out = tmp_path / "web.eml"
    code, _o, err = run(home, "mail", "draft", g, "--step", "1", "--webmail", "-o", out)
    assert code == 0, err
    msg = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
    png = next(p for p in msg.walk() if p.get_content_type() == "image/png")
    html = next(p for p in msg.walk() if p.get_content_type() == "text/html").get_content()
    assert png["Content-ID"] == "<map-1@pbem.invalid>" and "cid:map-1@pbem.invalid" in html
    assert png.get_payload(decode=True)[:4] == b"\x89PNG"
    assert any(p.get_filename() == "move-0001-US.json" for p in msg.walk())  # still ingestible
