"""Maps that say what matters (issue 27, item 5), drawing 2: the email's map framed on all of a
step's action, objectives [16 of Arnhem 1944], drop zones once revealed [15.35, 15.36 of SPI
Arnhem], units out of supply [10 of Arnhem 1944] or without a line of communication [17.35 of SPI
Arnhem] marked, stacks readable; and maps an older pbem drew (drawing 1) still redrawn byte for
byte by ``pbem verify --redraw``.

The SVG is checked structurally: the elements present, their hexes, the viewBox, counts. The hexes
expected are read from the turn files' JSON (events and state), not from the code under test."""

from __future__ import annotations

import email
import email.policy
import json
import math
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import ROOT
from helpers.protocol import ok, pbem
from helpers.svgmap import drawn_hexes, expanded, number_positions, terrain

from pbem.engine.gamedir import open_checked
from pbem.maps.hexmap import Hex
from pbem.render.outputs import StepView, action_crop, drawing_of
from pbem.render.site import _chart
from pbem.render.svg import DRAWING, draw
from pbem.render.svg.canvas import hex_center
from pbem.systems.westwall.arnhem_victory import loc_failures
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.display import coerce_scenario, coerce_state
from pbem.systems.westwall.mapview import map_view
from render.test_render_svg import STEP_EVENTS, tiny_scenario, tiny_state

COMPAT = ROOT / "tests" / "compat"
EXAMPLES = ROOT / "examples"
XLINK = "{http://www.w3.org/1999/xlink}"
SVG = "{http://www.w3.org/2000/svg}"


def _view(game_dir: Path, step: int) -> Any:
    return StepView(open_checked(game_dir), step).view()


def _turn(game_dir: Path, step: int) -> dict[str, Any]:
    return dict(json.loads((game_dir / f"turn-{step:04d}.json").read_text()))


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{SVG}g") if el.get("class") == cls]


# -- 1. the email's map is framed on all of the step's action -------------------------------------

def _westwall_action_hexes(turn: dict[str, Any]) -> set[str]:
    """Every hex a WestWall step's events name: paths of moves, retreats, displacements and
    advances, eliminations and placements (combats are fought by units whose hexes the paths and
    the state before hold; those are checked through the drawn combat groups)."""
    out: set[str] = set()
    for ev in turn["events"]:
        out.update(ev.get("path") or [])
        if ev.get("hex"):
            out.add(ev["hex"])
    return out


def _widest_step(game_dir: Path) -> int:
    """The step whose events reach farthest apart (the one an email's map framed on one corner,
    radius 5 around the middle, cut)."""
    best, step = -1, 0
    for path in sorted(game_dir.glob("turn-*.json")):
        hexes = [Hex.parse(h) for h in _westwall_action_hexes(json.loads(path.read_text()))]
        span = max((a.distance(b) for a in hexes for b in hexes), default=-1)
        if span > best:
            best, step = span, int(path.stem.split("-")[1])
    return step


def _drawn_hexes(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Hex number -> where the drawing puts its centre (:func:`helpers.svgmap.drawn_hexes`)."""
    return drawn_hexes(root)


def _assert_labels_on_the_hexes_drawn(root: ET.Element, combats: list[ET.Element]) -> None:
    drawn = _drawn_hexes(root)
    hexagon = next(el for el in root.iter(f"{SVG}polygon") if el.get("id") == "hex")
    corners = [tuple(float(v) for v in pt.split(",")) for pt in (hexagon.get("points") or "").split()]
    centres = list(drawn.values())

    def in_hexagon(dx: float, dy: float) -> bool:  # the drawing's own hex outline, convex
        signs = []
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
            cross = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
            length = math.hypot(bx - ax, by - ay)
            signs.append(cross / length)
        return all(v >= -0.6 for v in signs) or all(v <= 0.6 for v in signs)

    for g in combats:  # no combat tag cut by the edge of the hexes drawn (the map is clipped there)
        rect = next(r for r in g.iter(f"{SVG}rect") if r.get("opacity") == "0.95")
        x0, y0 = float(rect.get("x", "0")), float(rect.get("y", "0"))
        x1, y1 = x0 + float(rect.get("width", "0")), y0 + float(rect.get("height", "0"))
        for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1), ((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1)):
            cx, cy = min(centres, key=lambda c: math.hypot(x - c[0], y - c[1]))
            assert in_hexagon(x - cx, y - cy), (g.get("id"), x, y)


@pytest.mark.parametrize("example", ["bastogne-spearhead", "arnhem-historical"])
def test_the_emails_map_holds_every_hex_of_the_steps_action_and_its_combat_labels(example: str) -> None:
    game_dir = EXAMPLES / example
    step = _widest_step(game_dir)
    turn = _turn(game_dir, step)
    view = _view(game_dir, step)
    crop = action_crop(view)
    assert crop is not None
    root = ET.fromstring(draw(view, box=crop[1]))
    drawn = _drawn_hexes(root)
    wanted = _westwall_action_hexes(turn)
    spread = [Hex.parse(h) for h in wanted]
    assert max(a.distance(b) for a in spread for b in spread) > 10  # more than the old radius 5 held
    assert wanted <= set(drawn), sorted(wanted - set(drawn))
    # two hexes to spare beyond the outermost hex of the action, where the map goes on
    for h in spread:
        for n in h.within(2):
            if view.on_map(n):
                assert str(n) in drawn, (h, n)
    vx, vy, vw, vh = (float(v) for v in root.get("viewBox", "").split())
    for h in wanted:
        x, y = drawn[h]
        assert vx <= x <= vx + vw and vy <= y <= vy + vh, h
    combats = [g for g in root.iter(f"{SVG}g") if g.get("data-type") == "combat" and g.get("data-hex")]
    assert len(combats) == sum(1 for ev in turn["events"] if ev["type"] == "combat" and not ev.get("cancelled"))
    assert combats
    _assert_labels_on_the_hexes_drawn(root, combats)


def test_the_emails_map_of_a_step_with_one_move_is_its_hexes_and_two_to_spare() -> None:
    # by hand: the tiny WestWall map of test_render_svg, one move 0303 -> 0304 (cols 3, rows 3-4):
    # the frame is columns 1-5, rows 1-6 cut to the map's 1-6 x 1-5 -> columns 1-5, rows 1-5
    view = map_view(tiny_scenario(), tiny_state(), [
        {"type": "moved", "unit": "3/26", "path": ["0303", "0304"], "mp_halves": 2}])
    crop = action_crop(view)
    assert crop is not None
    assert crop[1] == ((1, 5), (1, 5))
    assert str(crop[0]) == "0303"
    drawn = set(_drawn_hexes(ET.fromstring(draw(view, box=crop[1]))))
    assert drawn == {f"{c:02d}{r:02d}" for c in range(1, 6) for r in range(1, 6)}


def test_a_combat_label_on_a_tight_crop_stays_on_the_hexes_drawn() -> None:
    # the tiny map's combat #1 on 0304, on a map cropped to two hexes around 0405: the first spots
    # beside the defender that cover no counter lie partly off the hexes drawn (drawing 1 put the
    # label there, cut by the crop); the label goes where the crop does not cut it
    view = map_view(tiny_scenario(), tiny_state(), STEP_EVENTS)
    root = ET.fromstring(draw(view, around="0405", radius=2))
    combats = [g for g in root.iter(f"{SVG}g") if g.get("data-type") == "combat" and g.get("data-hex")]
    assert [g.get("data-hex") for g in combats] == ["0304"]
    _assert_labels_on_the_hexes_drawn(root, combats)


def test_the_mail_attaches_the_map_framed_on_the_action() -> None:
    # the example's mails name their map after the middle of the frame, and the map inside holds
    # every hex of the action of the turn the move answers
    game_dir = EXAMPLES / "bastogne-spearhead"
    step = _widest_step(game_dir)
    msg = email.message_from_bytes((game_dir / f"mail-{step + 1:04d}.eml").read_bytes(),
                                   policy=email.policy.default)
    maps = [p for p in msg.iter_attachments() if (p.get_filename() or "").startswith(f"map-{step:04d}-around-")]
    assert len(maps) == 1
    svg = maps[0].get_content()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    drawn = set(_drawn_hexes(ET.fromstring(svg)))
    assert _westwall_action_hexes(_turn(game_dir, step)) <= drawn


# -- 2. objectives, drop zones, supply ------------------------------------------------------------

def test_arnhem_1944_marks_the_bridge_hexes_and_who_holds_them_16() -> None:
    game_dir = COMPAT / "arnhem1944-historical"
    turn = _turn(game_dir, 101)
    view = _view(game_dir, 101)
    root = ET.fromstring(draw(view))
    objectives = {g.get("data-hex"): g.get("data-holder") for g in _groups(root, "objective")}
    scenario = json.loads((game_dir / "scenario.json").read_text())
    bridge = scenario["victory"]["bridge_hexes"]
    assert sorted(objectives) == sorted(bridge) and len(bridge) == 2
    assert objectives == {h: turn["state"]["bridge"].get(h, "") for h in bridge}
    legend = root.find(f".//{SVG}g[@id='legend']")
    assert legend is not None
    assert any("[16]" in (t.text or "") and "VP" in (t.text or "") for t in legend.iter(f"{SVG}text"))
    areas = [g for g in _groups(root, "zone") if g.get("data-kind") == "objective-area"]
    assert len(areas) == 1  # the far bank the bridgehead counts [16]
    far = set((areas[0].get("data-hexes") or "").split())
    assert scenario["victory"]["far_bank_hex"] in far


def test_bastogne_marks_its_two_control_hexes_and_who_holds_each_15_17() -> None:
    # [15.17]: "both hexes of Bastogne (1317 and 1416)"; a hex's holder is the side that last
    # passed through it (the state's control), else its holder at the start (the scenario's)
    game_dir = EXAMPLES / "bastogne-spearhead"
    scenario = json.loads((game_dir / "scenario.json").read_text())
    for step in (0, 11):
        control = _turn(game_dir, step)["state"].get("control") or {}
        root = ET.fromstring(draw(_view(game_dir, step)))
        objectives = {g.get("data-hex"): g.get("data-holder") for g in _groups(root, "objective")}
        assert objectives == {h: control.get(h) or scenario["special"]["initial_control"].get(h, "")
                              for h in ("1317", "1416")}
    old = ET.fromstring(draw(_view(game_dir, 11), drawing=1))
    assert not _groups(old, "objective")


def test_arnhem_1944_draws_the_drop_zones_in_use_10_1_15_2() -> None:
    # turn 4 of the frozen game: the 4th Parachute Brigade has landed on the hex its state says,
    # 0305, which is also where the set-up placed the 1st Airborne within two hexes; the Polish
    # Brigade's 0709 is not in use yet
    game_dir = COMPAT / "arnhem1944-historical"
    state = _turn(game_dir, 101)["state"]
    assert state["dropped"] == ["4th Parachute Brigade (4P)"] and state["drop_zones"] == {
        "4th Parachute Brigade (4P)": "0305"}
    root = ET.fromstring(draw(_view(game_dir, 101)))
    zones = [g for g in _groups(root, "zone") if g.get("data-kind") == "drop-zone"]
    assert [g.get("data-hexes") for g in zones] == ["0305"]
    legend = root.find(f".//{SVG}g[@id='legend']")
    assert legend is not None
    assert sum("drop zone" in (t.text or "") for t in legend.iter(f"{SVG}text")) == 1


def test_arnhem_1944_rings_every_unit_out_of_supply_10() -> None:
    game_dir = COMPAT / "arnhem1944-historical"
    turn = _turn(game_dir, 101)
    out = {uid for uid, u in turn["state"]["units"].items()
           if not u["in_supply"] and u["steps"] > 0 and u.get("hex")}
    assert out  # the frozen game has some at this step
    root = ET.fromstring(draw(_view(game_dir, 101)))
    ringed = {uid for g in _groups(root, "unsupplied") for uid in (g.get("data-units") or "").split()}
    assert ringed == out
    for g in _groups(root, "unsupplied"):
        hexes = {turn["state"]["units"][u]["hex"] for u in (g.get("data-units") or "").split()}
        assert hexes == {g.get("data-hex")}


def test_spi_arnhem_drop_zones_are_drawn_once_revealed_15_36() -> None:
    game_dir = COMPAT / "arnhem-alternate"
    secret = ET.fromstring(draw(_view(game_dir, 2)))  # noted and committed, not revealed
    assert not [g for g in _groups(secret, "zone") if g.get("data-kind") == "drop-zone"]
    revealed = _turn(game_dir, 3)["state"]["exclusive"]["dz"]
    root = ET.fromstring(draw(_view(game_dir, 3)))
    zones = {g.get("data-hexes"): g for g in _groups(root, "zone") if g.get("data-kind") == "drop-zone"}
    assert sorted(zones) == sorted(revealed.values())
    for division, h in revealed.items():
        texts = [t.text for t in zones[h].iter(f"{SVG}text")]
        assert texts == [f"DZ {division}"]


def test_spi_arnhem_rings_the_units_without_a_line_of_communication_17_35() -> None:
    game_dir = COMPAT / "arnhem-historical"
    game = open_checked(game_dir)
    state = coerce_state(_turn(game_dir, 9)["state"])
    sc = coerce_scenario(game.scenario)
    cut = set(loc_failures(sc, Board.from_state(sc, state), state))  # the rules' own verdict
    assert cut
    root = ET.fromstring(draw(StepView(game, 9).view()))
    ringed = {uid for g in _groups(root, "unsupplied") for uid in (g.get("data-units") or "").split()}
    assert ringed == cut
    legend = root.find(f".//{SVG}g[@id='legend']")
    assert legend is not None
    assert any("17.35" in (t.text or "") for t in legend.iter(f"{SVG}text"))


# -- 3. stacks ------------------------------------------------------------------------------------

def test_a_stack_is_its_top_counter_and_the_count_of_its_units() -> None:
    state = tiny_state(**{"2/26": {"hex": "0303", "status": "on-map"},
                          "26art": {"hex": "0303", "status": "on-map"}})  # 3/26, 2/26, 26art in 0303
    view = map_view(tiny_scenario(), state)
    root = ET.fromstring(draw(view))
    units = [g for g in root.iter(f"{SVG}g") if g.get("class") == "unit" and g.get("data-hex") == "0303"]
    assert len(units) == 3
    legible = [g for g in units if g.find(f"{SVG}text") is not None]
    assert len(legible) == 1  # one counter's text, not three drawn over each other
    counts = [g for g in root.iter(f"{SVG}g") if g.get("class") == "stack-count"]
    assert len(counts) == 1 and counts[0].get("data-count") == "3"
    assert sorted((counts[0].get("data-units") or "").split()) == ["2/26", "26art", "3/26"]
    assert [t.text for t in counts[0].iter(f"{SVG}text")] == ["3"]
    single = [g for g in root.iter(f"{SVG}g") if g.get("class") == "unit" and g.get("data-hex") == "0202"]
    assert len(single) == 1 and single[0].find(f"{SVG}text") is not None
    # drawing 1 (the maps of pbem 0.2.0) drew every counter of a WestWall stack legibly, no count
    old = ET.fromstring(draw(view, drawing=1))
    old_units = [g for g in old.iter(f"{SVG}g") if g.get("class") == "unit" and g.get("data-hex") == "0303"]
    assert all(g.find(f"{SVG}text") is not None for g in old_units) and len(old_units) == 3
    assert not [g for g in old.iter(f"{SVG}g") if g.get("class") == "stack-count"]


# -- drawings: old archives keep verifying --------------------------------------------------------

def test_a_map_says_which_drawing_made_it() -> None:
    view = _view(EXAMPLES / "bastogne-spearhead", 3)
    assert drawing_of(draw(view).encode()) == DRAWING == 4
    assert drawing_of(draw(view, drawing=3).encode()) == 3
    assert drawing_of(draw(view, drawing=2).encode()) == 2
    assert drawing_of(draw(view, drawing=1).encode()) == 1
    assert 'data-drawing=' not in draw(view, drawing=1)
    assert drawing_of(b'<svg baseProfile="full" data-drawing="9" height="1">') is None


def test_drawing_3_clips_a_crop_to_the_outline_of_its_hexes() -> None:
    # issue 28: a crop is clipped to the outline of the hexes shown -- the terrain's area, one path
    # along it, placed in the clip (drawing 2: one hex each). One hex (radius 0): its six sides; a
    # hex and its six neighbours (radius 1): 6 x 3 = 18 sides (each outer hex adds three).
    view = _view(EXAMPLES / "bastogne-spearhead", 3)
    for radius, sides in ((0, 6), (1, 18), (2, 30)):
        root = ET.fromstring(draw(view, around="1116", radius=radius))
        [clip] = [e for e in root.iter(f"{SVG}clipPath") if e.get("id") == "map-clip"]
        [use] = list(clip)
        assert use.get(f"{XLINK}href") == "#board-area" and use.get("clip-rule") == "evenodd"
        [area] = [e for e in root.iter(f"{SVG}path") if e.get("id") == "board-area"]
        d = area.get("d") or ""
        assert d.count("M") == 1 and len(_segments(d)) == sides, (radius, d)
        old = re.search(r'<clipPath id="map-clip">(.*?)</clipPath>', draw(view, around="1116", radius=radius,
                                                                          drawing=2))
        assert old is not None and old.group(1).count("<use") == 1 + 3 * radius * (radius + 1)
    # one hex: exactly its sides (size 32, centre of 1116 from hex_center, flat-topped), in tenths
    x, y = hex_center(Hex.parse("1116"))
    corners = [(round((x + dx) * 10), round((y + dy) * 10)) for dx, dy in (
        (32, 0), (16, 27.7128), (-16, 27.7128), (-32, 0), (-16, -27.7128), (16, -27.7128))]
    root = ET.fromstring(draw(view, around="1116", radius=0))
    [area] = [e for e in root.iter(f"{SVG}path") if e.get("id") == "board-area"]
    assert _segments(area.get("d") or "") == {(min(a, b), max(a, b)) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)}


def _segments(d: str) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """The straight segments of path data made of M, L and l (relative) commands, end points in
    tenths of a unit, each segment with its ends in order."""
    out: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    x = y = 0
    for cmd, args in re.findall(r"([MLl])([^MLl]*)", d):
        nums = [round(float(v) * 10) for v in re.findall(r"-?[0-9.]+", args)]
        for k in range(0, len(nums), 2):
            px, py = (x + nums[k], y + nums[k + 1]) if cmd == "l" else (nums[k], nums[k + 1])
            if not (cmd == "M" and k == 0):
                out.add((min((x, y), (px, py)), max((x, y), (px, py))))
            x, y = px, py
    return out


def test_drawing_3_is_drawing_2_lighter() -> None:
    # issue 28: a whole map of drawing 3 shows what drawing 2's shows, in fewer bytes: the same
    # elements (ids; but the hex tiles, whose terrain is drawn as areas), texts, hex numbers and
    # terrain of every hex, the map edge and water the same segments chained, and 7-bit lines of
    # at most 998 characters (an email carries it as itself)
    view = _view(EXAMPLES / "bastogne-spearhead", 3)
    new, old = draw(view, drawing=3), draw(view, drawing=2)
    assert len(new) < len(old) and new.isascii()
    assert max(len(line) for line in new.split("\n")) <= 998
    a, b = ET.fromstring(new), ET.fromstring(old)
    tiles = {e.get("id") for e in b.iter() if re.fullmatch(r"hex-\d{4}", e.get("id") or "")}
    assert len(tiles) == len(view.all_hexes())
    new_ids = {"board-area", "grid", "counter", "deck"} | {e.get("id") for e in a.iter()
                                                   if (e.get("id") or "").startswith(("cut-", "face-", "ah-", "place-"))}
    assert {e.get("id") for e in a.iter()} - new_ids == {e.get("id") for e in b.iter()} - tiles

    def words(root: ET.Element) -> list[str]:  # what is written, each counter face where placed
        return sorted("".join(t.itertext()) for top in root if top.tag != f"{SVG}defs"
                      for t in expanded(root, top) if t.tag == f"{SVG}text")

    assert words(a) == words(b)

    def rounded(numbers: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
        return {h: (round(x, 1), round(y, 1)) for h, (x, y) in numbers.items()}

    # every number where it was, to the rounding of its height above the centre (0.64 hex, 20.48)
    na, nb = rounded(number_positions(a)), rounded(number_positions(b))
    assert na.keys() == nb.keys() and len(na) == len(view.all_hexes())
    assert all(na[h][0] == nb[h][0] and abs(na[h][1] - nb[h][1]) <= 0.11 for h in na)
    # 1116's number: 0.64 hex above its centre (hex_center, size 32)
    x, y = hex_center(Hex.parse("1116"))
    assert na["1116"][0] == round(x, 1) and abs(na["1116"][1] - (y - 0.64 * 32)) <= 0.11
    assert terrain(a) == terrain(b) and len(terrain(a)) == len(view.all_hexes())
    assert {h: kind for h, (kind, _fill) in terrain(a).items()} == \
        {str(h): view.terrain_of(h) for h in view.all_hexes()}
    paths_a = {e.get("id"): e.get("d") or "" for e in a.iter(f"{SVG}path") if e.get("id")}
    paths_b = {e.get("id"): e.get("d") or "" for e in b.iter(f"{SVG}path") if e.get("id")}
    for pid in ("hs-river", "hs-stream"):
        if pid in paths_b:
            assert _segments(paths_a[pid]) == _segments(paths_b[pid]) and _segments(paths_b[pid]), pid
            assert len(paths_a[pid]) < len(paths_b[pid])
    # the edge of a whole map is the outline of its area: every hexside of an edge hex that faces
    # off the map, once, and no other
    [edge] = [e for e in a.iter(f"{SVG}use") if e.get("id") == "map-edge"]
    assert edge.get("{http://www.w3.org/1999/xlink}href") == "#board-area" and edge.get("fill") == "none"
    assert _segments(paths_a["board-area"]) == _segments(paths_b["map-edge"])
    assert len(_segments(paths_a["board-area"])) == sum(
        1 for h in view.all_hexes() for n in h.neighbours() if not view.on_map(n))


@pytest.mark.parametrize("case", ["bastogne-campaign", "arnhem-historical", "arnhem1944-historical"])
def test_the_frozen_corpus_maps_are_drawing_1_and_redraw_byte_for_byte(case: str) -> None:
    game = open_checked(COMPAT / case)
    maps = sorted((COMPAT / case).glob("map-*.svg"))
    assert maps
    for path in maps:
        data = path.read_bytes()
        assert drawing_of(data) == 1
        step = int(path.stem.split("-")[1])
        assert StepView(game, step).svg(board="board.svg", drawing=1).encode() == data, path.name


def test_verify_redraw_passes_on_a_frozen_archive_and_names_a_map_of_an_unknown_drawing(tmp_path: Path) -> None:
    copy = tmp_path / "g"
    shutil.copytree(COMPAT / "arnhem-historical", copy)
    res = ok(pbem("verify", copy, "--redraw", home=tmp_path / "stranger"))
    assert res.out.rstrip().endswith("OK")
    path = copy / "map-0001.svg"
    path.write_bytes(path.read_bytes().replace(b"<svg ", b'<svg data-drawing="9" ', 1))
    res = pbem("verify", copy, "--redraw", home=tmp_path / "stranger")
    assert res.code != 0 and "map-0001.svg" in res.err + res.out


# -- 4. the viewer ---------------------------------------------------------------------------------

def test_the_score_chart_has_the_sides_map_colours_and_axis_values() -> None:
    # by hand: scores 0/0, 4/1, 10/3 -> the score axis from 0 to 10, its middle 5; steps 0, 1, 2
    chart = _chart([{"AL": 0, "DE": 0}, {"AL": 4, "DE": 1}, {"AL": 10, "DE": 3}],
                   {"AL": "Allied", "DE": "German"}, {"AL": "#7a8b3a", "DE": "#6e7f80"}, [0, 1, 2])
    root = ET.fromstring(chart)
    lines = {p.get("data-side"): p.get("stroke") for p in root.iter("polyline")}
    assert lines == {"AL": "#7a8b3a", "DE": "#6e7f80"}
    assert [t.text for t in root.iter("text") if t.get("class") == "tick-y"] == ["0", "5", "10"]
    assert [t.text for t in root.iter("text") if t.get("class") == "tick-x"] == ["0", "1", "2"]


def test_the_viewer_zooms_links_the_full_map_and_colours_the_chart_as_the_map(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(EXAMPLES / "bastogne-spearhead", game)
    out = tmp_path / "site"
    ok(pbem("html", game, "-o", out, home=tmp_path / "home"))
    text = (out / "index.html").read_text(encoding="utf-8")
    for needle in ('id="zoom-in"', 'id="zoom-out"', 'id="zoom-fit"', 'id="fullmap"', "overflow: auto"):
        assert needle in text, needle
    assert not re.search(r"(src|href)=\"https?:", text)
    scenario = json.loads((game / "scenario.json").read_text())
    colours = {s["id"]: s["colour"] for s in scenario["sides"]}
    chart = ET.fromstring(text[text.index('<svg id="score-chart"'):text.index("</svg>", text.index('<svg id="score-chart"')) + 6])
    assert {p.get("data-side"): p.get("stroke") for p in chart.iter("polyline")} == colours
    assert [t for t in chart.iter("text") if t.get("class") == "tick-y"]


def test_hex_centres_used_here_are_the_renderers() -> None:
    # the tiny map's 0303 by hand: x = 1.5*32*3 = 144, y = sqrt(3)*32*3 = 166.3
    x, y = hex_center(Hex.parse("0303"), 32)
    assert (round(x, 1), round(y, 1)) == (144.0, 166.3)


def test_an_email_carries_drawing_3s_map_as_text_and_older_drawings_in_base64() -> None:
    # issue 28: drawing 3's map is 7-bit lines, so the email carries it as itself (7bit) instead of
    # a third larger in base64; an email of drawing 2 is drafted as before (base64), byte for byte
    from pbem.mail.compose import move_email

    game = open_checked(EXAMPLES / "bastogne-spearhead")

    def svg_part(eml: bytes) -> email.message.EmailMessage:
        msg = email.message_from_bytes(eml, policy=email.policy.default)
        [part] = [p for p in msg.walk() if p.get_content_type() == "image/svg+xml"]
        assert isinstance(part, email.message.EmailMessage)
        return part

    new, old = move_email(game, 3), move_email(game, 3, drawing=2)
    assert svg_part(new)["Content-Transfer-Encoding"] == "7bit"
    assert svg_part(old)["Content-Transfer-Encoding"] == "base64"
    text = svg_part(new).get_payload(decode=True)
    assert isinstance(text, bytes) and b'data-drawing="%d"' % DRAWING in text[:400]  # 3 and later
    ET.fromstring(text)  # the map as the recipient saves it: well-formed
    assert all(len(line) <= 998 for line in new.split(b"\r\n"))  # RFC 5322 [2.1.1]
    assert len(new) < len(old)


def test_an_email_of_drawing_3_carries_its_json_files_quoted_printable_and_ingest_reads_them_exactly() -> None:
    # issue 28: the move and turn files travel in quoted-printable (RFC 2045 6.7), not base64: lines
    # of at most 76 characters, every byte but printable ASCII as =XX (a line end too, so none is
    # turned into CRLF), and the files come back byte for byte; an email of drawing 2 keeps base64
    from pbem.mail.compose import move_email
    from pbem.mail.draft import extract_attachments

    game = open_checked(EXAMPLES / "bastogne-spearhead")
    new, old = move_email(game, 3), move_email(game, 3, drawing=2)
    files = {"move-0003-US.json", "turn-0002.json"}
    for eml, cte in ((new, "quoted-printable"), (old, "base64")):
        msg = email.message_from_bytes(eml, policy=email.policy.default)
        parts = {p.get_filename(): p for p in msg.walk() if p.get_content_type() == "application/json"}
        assert set(parts) == files
        assert {p["Content-Transfer-Encoding"] for p in parts.values()} == {cte}
        assert dict(extract_attachments(eml)) == {n: (EXAMPLES / "bastogne-spearhead" / n).read_bytes() for n in files}
    part = new.split(b'filename="turn-0002.json"', 1)[1]
    body = part.split(b"\r\n\r\n", 1)[1].split(b"\r\n--", 1)[0]
    assert body.strip() and all(len(line) <= 76 for line in body.split(b"\r\n"))
    turn = (EXAMPLES / "bastogne-spearhead" / "turn-0002.json").read_bytes()
    assert turn.endswith(b"\n") and b"=0A" in new  # the file's own line end, as =0A
    assert len(new) < len(old)


def test_drawing_3_draws_an_entry_area_as_one_band_outside_the_edge_and_an_outline_inside() -> None:
    # issue 28: an entry area on the map edge [11.11] is one band just outside the edge (each of
    # its hexes' sides facing off the map, joined where they meet), an area inside the map the
    # outline of its hexes (drawings 1 and 2: a segment each, a ring each)
    from pbem.systems.westwall.model import Area, Scenario
    from render.test_render_svg import render_map

    def on_map(h: Hex) -> bool:  # the tiny scenario's map: columns 1-6, rows 1-5
        return 1 <= h.col <= 6 and 1 <= h.row <= 5

    root = ET.fromstring(render_map(tiny_scenario(), tiny_state()))
    [entry] = [g for g in root.iter(f"{SVG}g") if g.get("id") == "entry-1"]
    hexes = [Hex.parse(h) for h in (entry.get("data-hexes") or "").split()]
    assert [str(h) for h in hexes] == ["0101", "0102", "0103", "0104", "0105"]  # the west edge
    [band] = entry.findall(f"{SVG}path")
    d = band.get("d") or ""
    assert d.count("M") == 1  # one band, not a segment each
    assert len(_segments(d)) == sum(1 for h in hexes for n in h.neighbours() if not on_map(n))
    near = [Hex(c, r) for c in range(-1, 9) for r in range(-1, 8)]
    for seg in _segments(d):  # every corner of the band lies off the map, just outside it
        for px, py in seg:
            x, y = px / 10, py / 10
            nearest = min(near, key=lambda h: math.dist(hex_center(h), (x, y)))
            assert not on_map(nearest) and math.dist(hex_center(nearest), (x, y)) < 32, (x, y)
    # an area within one hex of 0303, inside the map: the outline of its seven hexes
    data = tiny_scenario().to_json()
    data["reinforcements"][0]["entry"] = [Area(within=1, of=["0303"]).to_json()]
    root = ET.fromstring(render_map(Scenario.parse(data), tiny_state()))
    [entry] = [g for g in root.iter(f"{SVG}g") if g.get("id") == "entry-1"]
    assert len((entry.get("data-hexes") or "").split()) == 7
    [outline] = entry.findall(f"{SVG}path")
    d = outline.get("d") or ""
    assert d.count("M") == 1 and len(_segments(d)) == 18  # six hexes around one: three sides each
