"""The SVG map renderer (pbem.render.svg): structure, geometry, determinism, real-renderer pixels.

The scenario here is a hand-made 6x5 map so every expected value can be worked out on paper:
hex centres follow x = 1.5*s*col, y = sqrt(3)*s*(row + 0.5*[col even]).
"""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest
from helpers.paths import ROOT
from helpers.svgmap import (
    counters,
    drawn_hexes,
    expanded,
    number_positions,
    place_names,
    terrain,
    unit_data,
)

from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.render.svg import draw
from pbem.render.svg.canvas import hex_center, xml_id
from pbem.render.svg.palette import DEFAULT_COLORS
from pbem.systems.westwall.display import coerce_events, coerce_state, positions_before
from pbem.systems.westwall.mapview import map_view
from pbem.systems.westwall.model import Area, Scenario
from pbem.systems.westwall.movement import area_hexes, in_any_area

NS = {"s": "http://www.w3.org/2000/svg"}


def render_map(scenario: Any, state: Any, events: Any = (), *, around: Hex | str | None = None,
               radius: int | None = None, hex_size: float = 32.0,
               colors: dict[str, str] | None = None, show_hex_numbers: bool = True,
               **view_args: Any) -> str:
    """The WestWall map after a step: its map view drawn (what the map writer does)."""
    return draw(map_view(scenario, state, events, **view_args), around=around, radius=radius,
                hex_size=hex_size, colors=colors, show_hex_numbers=show_hex_numbers)
DE_COLOUR = "#c0c0c0"
US_COLOUR = "#80c040"


def tiny_scenario(**extra: Any) -> Scenario:
    data: dict[str, Any] = {
        "id": "tiny",
        "title": "Tiny test map",
        "game": "bastogne",
        "rule": "15.1",
        "sides": [
            {"id": "DE", "name": "German", "colour": DE_COLOUR},
            {"id": "US", "name": "American", "colour": US_COLOUR},
        ],
        "first_player": "DE",
        "last_turn": 5,
        "map": {
            "id": "tiny-map",
            "cols": [1, 6],
            "rows": [1, 5],
            "terrain": {"woods": ["0503", "0504"], "town": ["0302"], "rough": ["0605"]},
            "routes": [{"kind": "road", "hexes": ["0101", "0201", "0301", "0401"]}],
            "lines": [
                {"kind": "river", "hexsides": ["0102/0103", "0103/0203"]},
                {"kind": "stream", "hexsides": ["0301/0401"]},
            ],
            "places": [{"hex": "0302", "name": "Noville"}],
        },
        "terrain_key": {
            "hexes": {k: {"mp_halves": 2, "crt": "clear"} for k in
                      ("clear", "woods", "town", "rough")},
            "hexsides": {},
        },
        "units": [
            {"id": "1/501", "side": "US", "designation": "1/501", "type": "airborne",
             "attack": 3, "defense": 4, "move": 8},
            {"id": "20", "side": "US", "designation": "20", "type": "armor",
             "attack": 4, "defense": 4, "move": 12},
            {"id": "3/26", "side": "DE", "designation": "3/26", "type": "infantry",
             "attack": 5, "defense": 4, "move": 8},
            {"id": "2/26", "side": "DE", "designation": "2/26", "type": "infantry",
             "attack": 5, "defense": 4, "move": 8},
            {"id": "26art", "side": "DE", "designation": "26", "type": "artillery",
             "barrage": 3, "fpf": 2, "range": 18, "defense": 1, "move": 7},
            {"id": "9", "side": "US", "designation": "9", "type": "recon",
             "attack": 1, "defense": 2, "move": 16},
        ],
        "reinforcements": [
            {"side": "US", "turn": 2, "units": ["9"], "entry": [{"edge": "west"}],
             "rule": "15.14"},
        ],
    }
    data.update(extra)
    return Scenario.parse(data)


def tiny_state(**units: dict[str, Any]) -> dict[str, Any]:
    base: dict[str, dict[str, Any]] = {
        "1/501": {"hex": "0202", "status": "on-map"},
        "20": {"hex": "0204", "status": "on-map"},
        "3/26": {"hex": "0303", "status": "on-map"},
        "2/26": {"hex": "0304", "status": "on-map"},
        "26art": {"hex": "0601", "status": "on-map", "fpf_turn": 2},
        "9": {"status": "waiting"},
    }
    base.update(units)
    return {"scenario": "tiny", "game_turn": 2, "phasing": "DE", "phase": "player-turn",
            "units": base}


# One German player-turn, consistent with tiny_state(): 3/26 moves 0101 -> 0303 along the road,
# then 3/26 (0303) and 2/26 (0403) attack 20 in 0304 with 26art barraging from 0601; 20 retreats
# to 0204 and 2/26 advances into 0304 [7.9]; finally 1/501 is eliminated in 0202.
STEP_EVENTS: list[dict[str, Any]] = [
    {"type": "moved", "unit": "3/26", "path": ["0101", "0201", "0302", "0303"], "mp_halves": 5},
    {"type": "combat", "number": 1, "attackers": ["3/26", "2/26"], "artillery": ["26art"],
     "support": 0, "defenders": ["20"], "fpf": [], "fpf_support": 0, "attack_strength": 13,
     "defense_strength": 4, "differential": 9, "line": "clear", "column": "+9-11", "die": 5,
     "roll_index": 0, "result": "D1"},
    {"type": "retreat", "unit": "20", "path": ["0304", "0204"], "combat": 1},
    {"type": "advance", "unit": "2/26", "path": ["0403", "0304"], "combat": 1},
    {"type": "eliminated", "unit": "1/501", "hex": "0202", "rule": "7.74",
     "reason": "could not retreat"},
    {"type": "note", "rule": "9.14", "text": "no ground support this turn"},
]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {el.get("id", ""): el for el in root.iter() if el.get("id")}


# -- geometry -------------------------------------------------------------------------------------

def test_hex_centres_by_hand() -> None:
    # s = 10: odd column 1 row 1 -> (15, 17.32); even column 2 sits half a hex lower.
    x, y = hex_center(Hex.parse("0101"), 10)
    assert (round(x, 2), round(y, 2)) == (15.0, 17.32)
    x, y = hex_center(Hex.parse("0202"), 10)
    assert (round(x, 2), round(y, 2)) == (30.0, round(math.sqrt(3) * 10 * 2.5, 2))
    # adjacent hexes are exactly sqrt(3)*s apart (1317 and 1416 touch [15.17])
    a, b = hex_center(Hex.parse("1317"), 10), hex_center(Hex.parse("1416"), 10)
    assert math.isclose(math.dist(a, b), math.sqrt(3) * 10)


def test_hex_elements_sit_at_their_centres() -> None:
    root = parse(render_map(tiny_scenario(), tiny_state(), hex_size=20))
    hexes = drawn_hexes(root)
    assert len(hexes) == 30  # 6 columns x 5 rows, each once
    assert hexes["0302"] == (90, 69.3)  # 1.5*20*3, sqrt(3)*20*2 (one decimal)
    kinds = terrain(root)
    assert kinds["0302"][0] == "town"
    assert kinds["0503"][1] == "url(#t-woods)"
    assert kinds["0101"][0] == "clear"


# -- structure ------------------------------------------------------------------------------------

def test_ids_are_xml_names() -> None:
    """``unit-2/501`` is no XML name: ids escape it (``unit-2_2f_501``), ``data-unit`` keeps it."""
    import re as _re

    root = parse(render_map(tiny_scenario(), tiny_state(), STEP_EVENTS))
    name = _re.compile(r"^[A-Za-z_][A-Za-z0-9._-]*$")
    assert all(name.match(el.get("id", "")) for el in root.iter() if el.get("id")), \
        [el.get("id") for el in root.iter() if el.get("id") and not name.match(el.get("id", ""))]
    assert xml_id("unit-", "2/501") == "unit-2_2f_501"


def test_every_on_map_unit_drawn_exactly_once_in_its_hex() -> None:
    st = tiny_state()
    root = parse(render_map(tiny_scenario(), st, STEP_EVENTS))
    units = [el for el in root.iter() if (el.get("id") or "").startswith("unit-")]
    drawn = Counter(el.get("id") for el in units)
    expected = {xml_id("unit-", uid) for uid, us in st["units"].items() if us["status"] == "on-map"}
    assert set(drawn) == expected
    assert all(n == 1 for n in drawn.values())
    for el in units:
        uid = el.get("data-unit", "")
        assert el.get("id") == xml_id("unit-", uid)
        assert el.get("data-hex") == st["units"][uid]["hex"]
        x, y = hex_center(Hex.parse(st["units"][uid]["hex"]), 32)
        tx, ty = (float(v) for v in el.get("transform", "")[10:-1].split(","))
        assert math.isclose(tx, x, abs_tol=0.051) and math.isclose(ty, y, abs_tol=0.051)


def test_waiting_and_eliminated_units_are_not_on_the_map() -> None:
    st = tiny_state(**{"1/501": {"status": "eliminated"}})
    ids = by_id(parse(render_map(tiny_scenario(), st)))
    assert xml_id("unit-", "1/501") not in ids
    assert "unit-9" not in ids  # a reinforcement still waiting [11.0]


def test_every_event_of_the_step_is_drawn() -> None:
    root = parse(render_map(tiny_scenario(), tiny_state(), STEP_EVENTS))
    ids = by_id(root)
    for i, ev in enumerate(STEP_EVENTS, start=1):
        el = ids[f"event-{i}"]
        assert el.get("data-type") == ev["type"]
        assert len(list(el.iter())) > 1, f"event-{i} has nothing drawn"
    assert sum(1 for k in ids if k.startswith("event-") and k[6:].isdigit()) == len(STEP_EVENTS)


def test_combat_label_shows_differential_die_and_result_7_6() -> None:
    ids = by_id(parse(render_map(tiny_scenario(), tiny_state(), STEP_EVENTS)))
    combat = ids["event-2"]
    texts = ["".join(t.itertext()) for t in combat.iter(f"{{{NS['s']}}}text")]
    assert texts == ["#1  +9 · 5 · D1"]
    # the defender was in 0304 when attacked (it retreated afterwards) [7.7]
    assert combat.get("data-hex") == "0304"


def test_markers_fpf_used_and_advanced() -> None:
    root = parse(render_map(tiny_scenario(), tiny_state(), STEP_EVENTS))
    ids = by_id(root)

    def marks(uid: str) -> list[str]:  # drawing 3: in the face the counter places (helpers.svgmap)
        return ["".join(t.itertext()) for t in expanded(root, ids[xml_id("unit-", uid)])
                if t.tag == f"{{{NS['s']}}}text" and t.get("class") == "mk"]

    assert "FPF" in marks("26art")  # fired FPF this game-turn [8.46]
    assert "ADV" in marks("2/26")  # advanced after combat [7.9]
    assert "RET" in marks("20")
    assert "FPF" not in marks("3/26")


def test_counter_values_in_the_texts_format() -> None:
    root = parse(render_map(tiny_scenario(), tiny_state()))
    ids = by_id(root)
    assert unit_data(root, ids[xml_id("unit-", "3/26")], "data-values") == "5-4-8"
    assert unit_data(root, ids["unit-26art"], "data-values") == "3-2-18/1-7"
    texts = ["".join(t.itertext()) for t in expanded(root, by_id(root)["unit-26art"]) if t.tag == f"{{{NS['s']}}}text"]
    assert "3-2-18" in texts and "1-7" in texts


def test_eliminated_listed_in_margin_and_note_listed() -> None:
    ids = by_id(parse(render_map(tiny_scenario(), tiny_state(), STEP_EVENTS)))
    assert "1/501" in "".join(ids["event-5-text"].itertext())
    assert "[7.74]" in "".join(ids["event-5-text"].itertext())
    assert "no ground support" in "".join(ids["event-6"].itertext())


def test_entry_area_from_reinforcement_schedule_11_11() -> None:
    ids = by_id(parse(render_map(tiny_scenario(), tiny_state())))
    entry = ids["entry-1"]
    assert entry.get("data-side") == "US"
    assert entry.get("data-hexes") == "0101 0102 0103 0104 0105"


def test_area_hexes_edge_range() -> None:
    sc = tiny_scenario()
    area = Area(edge="east", from_hex="0602", to_hex="0604")
    assert [str(h) for h in area_hexes(sc, [area])] == ["0602", "0603", "0604"]
    area = Area(within=1, of=["0303"])
    assert len(area_hexes(sc, [area])) == 7


def test_the_map_draws_exactly_the_entry_hexes_the_rules_accept_11_11() -> None:
    """One copy of the rule: an area 'within 1 of' no hex holds no hex for the rules, and the map
    draws none (the renderer's own copy once drew the whole map, 899 hexes on Bastogne's)."""
    sc = tiny_scenario()
    empty = Area(within=1, of=[])
    assert area_hexes(sc, [empty]) == []
    assert not any(in_any_area(sc, [empty], h) for h in sc.map.all_hexes())
    data = sc.to_json()
    data["reinforcements"][0]["entry"] = [empty.to_json()]
    from pbem.systems.westwall.model import Scenario

    ids = by_id(parse(render_map(Scenario.parse(data), tiny_state())))
    assert "entry-1" not in ids  # nothing drawn for an area with no hex


def test_bridge_derived_where_road_crosses_stream() -> None:
    ids = by_id(parse(render_map(tiny_scenario(), tiny_state())))
    assert ids["bridge-0301-0401"].get("data-kind") == "bridge"
    assert not any(k.startswith("bridge-0102") for k in ids)  # river without road: no bridge


def test_header_shows_turn_and_score() -> None:
    root = parse(render_map(tiny_scenario(), tiny_state(), score={"DE": 3, "US": 1},
                            header_lines=["step 4"]))
    ids = by_id(root)
    assert "".join(ids["subtitle"].itertext()) == "Game-Turn 2 of 5 · German player-turn"
    assert "".join(ids["score"].itertext()) == "Victory points: German 3 · American 1"
    assert "step 4" in "".join(ids["header"].itertext())


def test_crop_around_hex_keeps_only_the_radius() -> None:
    root = parse(render_map(tiny_scenario(), tiny_state(), around="0303", radius=1))
    ids = by_id(root)
    hexes = sorted(drawn_hexes(root))
    # odd column 3: the neighbours in columns 2 and 4 are rows 2 and 3
    assert hexes == ["0202", "0203", "0302", "0303", "0304", "0402", "0403"]
    assert "unit-26art" not in ids  # 0601 is outside
    assert xml_id("unit-", "3/26") in ids


def test_a_radius_beyond_the_map_draws_the_same_map_as_one_that_reaches_its_corners() -> None:
    # a trial: '--radius 100000' listed every hex within it (billions) and ran out of memory; no
    # hex of a map is farther from another than its columns and rows spanned together, so a larger
    # radius draws exactly what that one does (the whole map, cropped the same way)
    sc = tiny_scenario()
    span = (sc.map.cols[1] - sc.map.cols[0]) + (sc.map.rows[1] - sc.map.rows[0])
    reaching = render_map(sc, tiny_state(), around="0303", radius=span)
    assert render_map(sc, tiny_state(), around="0303", radius=10**12) == reaching
    assert len(drawn_hexes(parse(reaching))) == len(drawn_hexes(parse(render_map(sc, tiny_state()))))


def test_side_view_named_in_header() -> None:
    ids = by_id(parse(render_map(tiny_scenario(), tiny_state(), side="US")))
    assert "view of American" in "".join(ids["subtitle"].itertext())


def test_colour_overrides() -> None:
    root = parse(render_map(tiny_scenario(), tiny_state(),
                            colors={"side-DE": "#ff0000", "terrain-clear": "#010203"}))
    ids = by_id(root)
    # the counter's frame: drawing 3 places ``#counter`` in the counter's face
    [frame] = [e for e in expanded(root, ids[xml_id("unit-", "3/26")])
               if e.get("{http://www.w3.org/1999/xlink}href") == "#counter"]
    assert frame.get("fill") == "#ff0000"
    assert terrain(root)["0101"] == ("clear", "#010203")


def test_deterministic_bytes() -> None:
    a = render_map(tiny_scenario(), tiny_state(), STEP_EVENTS)
    render_map(tiny_scenario(), tiny_state(), around="0303", radius=2)  # something in between
    b = render_map(tiny_scenario(), tiny_state(), STEP_EVENTS)
    assert a == b


def test_bad_input_is_input_error() -> None:
    with pytest.raises(InputError):
        render_map(tiny_scenario(), tiny_state(), around="33x")
    with pytest.raises(InputError):
        render_map(tiny_scenario(), tiny_state(), around="0303", radius=-1)
    with pytest.raises(InputError):
        render_map(tiny_scenario(), {"scenario": "tiny"})
    with pytest.raises(InputError):
        render_map(tiny_scenario(), tiny_state(), [{"type": "moved", "unit": "x"}])


def test_positions_before_each_event_by_hand() -> None:
    st = coerce_state(tiny_state())
    evs = coerce_events(STEP_EVENTS)
    pos = positions_before(st, evs)
    assert pos[0]["3/26"] == Hex.parse("0101")  # before its move
    assert pos[1]["3/26"] == Hex.parse("0303")  # at the combat
    assert pos[1]["20"] == Hex.parse("0304")  # before retreating
    assert pos[1]["2/26"] == Hex.parse("0403")  # attacked from 0403, then advanced
    assert pos[4]["1/501"] == Hex.parse("0202")  # before elimination
    assert "1/501" in pos[4] and "9" not in pos[0]


def test_full_size_map_stays_under_300_kb() -> None:
    from pbem.systems.westwall.sample import sample_step

    data, state, events = sample_step()
    svg = render_map(data, state, events, score={"DE": 0, "US": 0})
    assert len(svg.encode()) <= 300 * 1024
    assert sum(1 for u in state["units"].values() if u["status"] == "on-map") >= 55


# -- real renderer --------------------------------------------------------------------------------

def _png(svg: str) -> tuple[Any, tuple[float, float]]:
    cairosvg = pytest.importorskip("cairosvg", reason="cairosvg is not installed")
    image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    try:
        png = cairosvg.svg2png(bytestring=svg.encode())
    except OSError as exc:  # pragma: no cover - libcairo missing
        pytest.skip(f"libcairo is not available: {exc}")
    root = parse(svg)
    vx, vy, _w, _h = (float(v) for v in (root.get("viewBox") or "").split())
    return image.open(io.BytesIO(png)).convert("RGB"), (vx, vy)


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_pixels_side_colour_river_and_woods() -> None:
    s = 40.0
    svg = render_map(tiny_scenario(), tiny_state(), hex_size=s, show_hex_numbers=False)
    img, (vx, vy) = _png(svg)

    def px(x: float, y: float) -> tuple[int, int, int]:
        return img.getpixel((int(round(x - vx)), int(round(y - vy))))

    # counter colour inside the counters of 0303 (German) and 0204 (American), right of the
    # symbol and the values (a counter is one hex across, 0.5 either side of the centre)
    for hexno, colour in (("0303", DE_COLOUR), ("0204", US_COLOUR)):
        cx, cy = hex_center(Hex.parse(hexno), s)
        assert _close(px(cx + 0.42 * s, cy - 0.02 * s), _rgb(colour)), hexno
    # the river on the midpoint of hexside 0102/0103
    (ax, ay), (bx, by) = hex_center(Hex.parse("0102"), s), hex_center(Hex.parse("0103"), s)
    assert _close(px((ax + bx) / 2, (ay + by) / 2), _rgb(DEFAULT_COLORS["river"]))
    # inside woods hex 0504 (no unit): the woods fill dominates a 9x9 patch around the centre
    cx, cy = hex_center(Hex.parse("0504"), s)
    patch = Counter(px(cx + dx, cy + dy) for dx in range(-4, 5) for dy in range(-4, 5))
    colour, _count = patch.most_common(1)[0]
    fill = {look.kind: look.fill for look in map_view(tiny_scenario(), tiny_state()).terrain_looks}
    assert _close(colour, _rgb(fill["woods"]))
    # and a clear hex without units is the clear colour
    assert _close(px(*hex_center(Hex.parse("0501"), s)), _rgb(fill["clear"]))


def test_bastogne_map_with_every_unit_stays_under_300_kb() -> None:
    from pbem.engine.scenarios import load_data

    sc = Scenario.parse(load_data("bastogne-spearhead"))
    hexes = [h for h in sc.map.all_hexes() if sc.map.terrain_of(h) != "lake"]
    units = {u.id: {"hex": str(hexes[(i * 13) % len(hexes)]), "status": "on-map"}
             for i, u in enumerate(sc.units)}
    state = {"scenario": sc.id, "game_turn": 1, "phasing": "DE", "phase": "player-turn",
             "units": units}
    svg = render_map(sc, state, score={"DE": 0, "US": 0})
    assert len(svg.encode()) <= 300 * 1024
    root = parse(svg)
    assert sum(1 for el in root.iter() if (el.get("id") or "").startswith("unit-")) == len(units)
    assert len(drawn_hexes(root)) == len(terrain(root)) == 29 * 31


def test_around_a_hex_off_the_map_is_refused() -> None:
    from pbem.errors import InputError

    with pytest.raises(InputError, match="off the map"):
        render_map(tiny_scenario(), tiny_state(), around="4040")


def test_legend_never_runs_past_its_panel() -> None:
    # Every line of the legend fits inside the legend box, taking a character of the sans-serif
    # legend face as 0.55 of the font size (DejaVu Sans averages about that); the example's
    # reinforcement lines ("DE GT 2: eastern map edge, 2908 to 2915 inclusive [15.15]") used to
    # run past the box's right edge.

    svg = (ROOT / "examples" / "bastogne-spearhead" / "map-0001.svg").read_text()
    root = parse(svg)
    [legend] = [g for g in root.iter(f"{{{NS['s']}}}g") if g.get("id") == "legend"]
    m = re.fullmatch(r"translate\(([-\d.]+)\)", legend.get("transform") or "translate(0)")
    assert m is not None
    shift = float(m.group(1))  # drawing 3 places the panel by its group
    box = legend.find("s:rect", NS)  # the panel's box comes first
    assert box is not None
    right = shift + float(box.get("x") or 0) + float(box.get("width") or 0)
    font = float(re.search(r"\.pl\{font-size:([\d.]+)px", svg).group(1))
    texts = [(shift + float(t.get("x") or 0), "".join(t.itertext())) for t in legend.iter(f"{{{NS['s']}}}text")]
    assert any("inclusive [15.15]" in t for _, t in texts)
    for x, text in texts:
        assert x + 0.55 * font * len(text) <= right, text


def test_hex_numbers_and_place_names_never_sit_under_a_counter() -> None:
    # Every counter of an example map is clear of its hex's number (above it) and of a place name
    # in its hex (below it); positions and sizes read from the drawn SVG itself (a map draws its
    # own terrain, hex numbers and place names since the archive keeps no board.svg [28]).

    example = ROOT / "examples" / "bastogne-spearhead"
    board = parse((example / "map-0001.svg").read_text())
    numbers = number_positions(board)  # baselines
    css = "".join(board.find("s:style", NS).itertext())  # type: ignore[union-attr]
    hn = float(re.search(r"\.hn\{font-size:([\d.]+)px", css).group(1))
    pn = float(re.search(r"\.pn\{font-size:([\d.]+)px", css).group(1))
    places = [(x, y) for _name, x, y in place_names(board)]
    assert numbers and places
    checked = 0
    for name in ("map-0001.svg", "map-0008.svg", "map-0016.svg"):
        for hexno, cx, cy, side in counters(parse((example / name).read_text())):
            top, bottom = cy - side / 2, cy + side / 2
            nx, ny = numbers[hexno]
            assert abs(nx - cx) < 0.06 and ny <= top, (name, hexno)  # the number's baseline is above
            for px, py in places:
                if abs(px - cx) < 0.06 and 0 < py - cy < side:  # a place name in this hex
                    assert py - 0.75 * pn >= bottom, (name, hexno)
            checked += 1
    assert checked > 30 and hn > 0


def test_combat_labels_sit_beside_the_combat_not_over_counters() -> None:
    # Every combat label of the example's maps, read from the SVG, covers no counter.

    example = ROOT / "examples" / "bastogne-spearhead"
    labels = seen = 0
    for path in sorted(example.glob("map-*.svg")):
        svg = path.read_text()
        boxes = [(cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
                 for _h, cx, cy, side in counters(parse(svg))]
        seen += len(boxes)
        for group in re.findall(r'<g class="event" data-hex="[^"]*" data-number="\d+" data-type="combat"[^>]*>(.*?)</g>', svg,
                                re.S):
            rects = re.findall(r'<rect fill="[^"]*" height="([\d.]+)" opacity="0.95" rx="[\d.]+" '
                               r'stroke="[^"]*" stroke-width="[\d.]+" width="([\d.]+)" x="([\d.]+)" y="([\d.]+)"', group)
            for h, w, x, y in rects:
                box = (float(x), float(y), float(x) + float(w), float(y) + float(h))
                labels += 1
                assert not any(box[0] < c[2] and c[0] < box[2] and box[1] < c[3] and c[1] < box[3]
                               for c in boxes), (path.name, box)
    assert labels >= 10 and seen > 100  # counters read from every map


def test_every_ring_cross_and_counter_tag_drawn_is_in_the_legend() -> None:
    # In the example's maps: a placement ring, an elimination cross, and each counter tag (FPF,
    # RET, ADV) drawn on the map appear, explained, in that map's legend.

    example = ROOT / "examples" / "bastogne-spearhead"
    seen = set()
    for path in sorted(example.glob("map-*.svg")):
        svg = path.read_text()
        root = parse(svg)
        [group] = [g for g in root.iter(f"{{{NS['s']}}}g") if g.get("id") == "legend"]
        legend = "".join(f">{''.join(t.itertext())}</text>" for t in group.iter(f"{{{NS['s']}}}text"))
        if 'data-type="placed"' in svg:
            assert "ring: placed this step" in legend, path.name
            seen.add("placed")
        if re.search(r'data-type="eliminated"[^>]*data-hex=', svg) or re.search(
                r'data-hex="\d{4}"[^>]*data-type="eliminated"', svg):
            assert "cross: eliminated here" in legend, path.name
            seen.add("eliminated")
        tags = {"".join(t.itertext()) for g in root.iter(f"{{{NS['s']}}}g") if g.get("class") == "unit"
                for t in expanded(root, g) if t.tag == f"{{{NS['s']}}}text" and t.get("class") == "mk"}
        for tag in ("FPF", "RET", "ADV"):
            if tag in tags:  # on a counter (drawing 3: in the face it places)
                assert f">{tag}</text>" in legend, (path.name, tag)  # the tag, with its meaning beside it
                seen.add(tag)
    assert {"placed", "eliminated", "FPF", "RET"} <= seen


def test_entry_rows_are_drawn_in_their_sides_colour_11_11() -> None:
    # The panel's list of reinforcement entry areas [11.11] writes each side's row in that side's
    # colour. The rows sit in a group of class "pl", whose style rule sets the text colour: a
    # plain fill attribute on the group lost to it, and the rows came out in black. Read from the
    # pixels a real renderer draws, in the band of the US row.
    s = 40.0
    svg = render_map(tiny_scenario(), tiny_state(), hex_size=s, show_hex_numbers=False)
    img, (vx, vy) = _png(svg)
    root = parse(svg)
    [legend] = [g for g in root.iter(f"{{{NS['s']}}}g") if g.get("id") == "legend"]
    m = re.fullmatch(r"translate\(([-\d.]+)\)", legend.get("transform") or "translate(0)")
    shift = float(m.group(1)) if m else 0.0
    rows = [t for t in legend.iter(f"{{{NS['s']}}}text") if "".join(t.itertext()).startswith("US GT")]
    assert rows, "no US entry row in the panel"
    row = rows[0]
    font = float(re.search(r"\.pl\{font-size:([\d.]+)px", svg).group(1))  # type: ignore[union-attr]
    y = float((row.get("y") or "").split()[0])
    x0 = shift + float(row.get("x") or 0)  # drawing 3 writes a list's rows at the panel's left
    band = [img.getpixel((int(x - vx), int(yy - vy)))
            for x in range(int(x0), int(x0 + 0.5 * font * len("".join(row.itertext()))))
            for yy in range(int(y - font), int(y + 1))]
    coloured = sum(1 for p in band if _close(p, _rgb(US_COLOUR), tol=40))
    dark = sum(1 for p in band if max(p) < 60)
    assert coloured > 20 and coloured > dark, (coloured, dark)

