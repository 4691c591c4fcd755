"""What the system-neutral renderer (pbem.render.svg) draws for Vae Victis *Arnhem 1944*: polder
and marsh in colours of their own (not the grey of an unknown kind), railways as routes of their
own kind under the roads, the anti-tank and HQ symbols [1.1, 1.3], stacks of two or three [5] with
only the top counter's text, and the ``--zoc`` legend citing the game's own cases [4.1, 4.2].

The hand-made views are 3x3 maps whose hex centres follow x = 1.5*s*col, y = sqrt(3)*s*(row +
0.5*[col even]) (see tests/render/test_render_svg.py); pixels are read through cairosvg."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections import Counter as Tally
from pathlib import Path
from typing import Any

import pytest
from helpers.svgmap import expanded, unit_data

from pbem.engine.scenarios import bundled_text
from pbem.maps.hexmap import Hex
from pbem.maps.view import CounterView, MapView, RouteView, SideView, terrain_looks
from pbem.render.svg import draw
from pbem.render.svg.canvas import hex_center
from pbem.render.svg.palette import DEFAULT_COLORS
from pbem.systems.arnhem1944.mapview import TERRAIN_LOOK

H = Hex.parse
S = 40.0
LOOKS = terrain_looks(bundled_text(TERRAIN_LOOK))
"""The system's terrain looks, as its map view hands them to the renderer."""


def view(**extra: Any) -> MapView:
    base = MapView("x", "", "", (1, 3), (1, 3), {}, {}, ())
    terrain = {h: "clear" for h in base.all_hexes()}
    terrain.update(extra.pop("terrain", {}))
    return MapView(
        scenario_id="hand-made", title="hand-made", subtitle="", cols=(1, 3), rows=(1, 3),
        terrain=terrain, hexsides=extra.pop("hexsides", {}),
        sides=(SideView("AL", "Allied", "#7a8b3a"), SideView("DE", "German", "#6e7f80")),
        terrain_kinds=frozenset(terrain.values()), terrain_looks=LOOKS, **extra)


def ids(svg: str) -> dict[str, ET.Element]:
    return {el.get("id") or "": el for el in ET.fromstring(svg).iter() if el.get("id")}


def png(svg: str) -> tuple[Any, tuple[float, float]]:
    cairosvg = pytest.importorskip("cairosvg", reason="cairosvg is not installed")
    image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    data = cairosvg.svg2png(bytestring=svg.encode())
    vx, vy, _w, _h = (float(v) for v in (ET.fromstring(svg).get("viewBox") or "").split())
    return image.open(io.BytesIO(data)).convert("RGB"), (vx, vy)


def rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_polder_and_marsh_have_colours_of_their_own() -> None:
    svg = draw(view(terrain={H("0101"): "polder", H("0303"): "marsh"}), hex_size=S,
               show_hex_numbers=False)
    img, (vx, vy) = png(svg)
    for hexno, kind in (("0101", "polder"), ("0303", "marsh")):
        cx, cy = hex_center(H(hexno), S)
        patch = Tally(img.getpixel((int(cx - vx) + dx, int(cy - vy) + dy))
                      for dx in range(-4, 5) for dy in range(-4, 5))
        colour, _n = patch.most_common(1)[0]
        assert close(colour, rgb({look.kind: look.fill for look in LOOKS}[kind])), kind
        assert not close(colour, rgb(DEFAULT_COLORS["terrain-unknown"]))
    found = ids(svg)
    assert "t-polder" in found and "t-marsh" in found  # a pattern each, for readers without colour
    legend = "".join(found["legend"].itertext())
    assert "polder" in legend and "marsh" in legend


def test_a_railway_is_a_route_drawn_under_the_roads_and_in_the_legend() -> None:
    rail = RouteView("railway", (H("0101"), H("0201"), H("0301")))
    road = RouteView("road", (H("0103"), H("0203"), H("0303")))
    svg = draw(view(routes=(rail, road)), hex_size=S, show_hex_numbers=False)
    order = [el.get("id") for el in ET.fromstring(svg).iter() if el.get("id", "").startswith("hs-")]
    assert order.index("hs-railway") < order.index("hs-railway-ties") < order.index("hs-road")
    assert "railway" in "".join(ids(svg)["legend"].itertext())
    # at a quarter of the way from 0101 to 0201 the line is the rail's dark or its white tie
    img, (vx, vy) = png(svg)
    (ax, ay), (bx, by) = hex_center(H("0101"), S), hex_center(H("0201"), S)
    x, y = ax + (bx - ax) * 0.25, ay + (by - ay) * 0.25
    here = img.getpixel((int(round(x - vx)), int(round(y - vy))))
    assert close(here, rgb(DEFAULT_COLORS["railway"]), 40) or \
        close(here, rgb(DEFAULT_COLORS["railway-tie"]), 40)


def test_1_1_1_3_antitank_and_hq_symbols_only_where_used() -> None:
    at = CounterView("at", H("0202"), "AL", "antitank", "II", "AT1", "1-3t-6", ("1-3t-6",))
    hq = CounterView("hq", H("0302"), "DE", "hq", "XX", "HQ9", "1-0-8", ("1-0-8",))
    drawn = draw(view(counters=(at, hq)))
    found, root = ids(drawn), ET.fromstring(drawn)
    assert "nato-antitank" in found and "nato-hq" in found
    assert unit_data(root, found["unit-at"], "data-type") == "antitank"
    assert unit_data(root, found["unit-hq"], "data-type") == "hq"
    legend = "".join(found["legend"].itertext())
    assert "antitank" in legend and "hq" in legend
    plain = ids(draw(view(counters=(CounterView("i", H("0202"), "AL", "infantry", "II", "I",
                                                 "3-0-6", ("3-0-6",)),))))
    assert "nato-antitank" not in plain and "nato-hq" not in plain  # other maps stay as they were


def test_5_a_stack_shows_the_top_counter_text_only_when_asked() -> None:
    units = tuple(CounterView(u, H("0202"), "AL", "infantry", "II", u, "3-0-6", ("3-0-6",),
                              (("ACT", "marker-advanced"),)) for u in ("a", "b", "c"))

    def texts(svg: str) -> dict[str, list[str]]:
        found, root = ids(svg), ET.fromstring(svg)
        # drawing 3 breaks lines between elements: whitespace-only text is layout, not a word; it
        # draws the face of a counter (all but its name) once and places it (helpers.svgmap.expanded)
        return {u: [t for el in expanded(root, found[f"unit-{u}"]) for t in [el.text] if t and t.strip()]
                for u in ("a", "b", "c")}

    fanned = texts(draw(view(counters=units), drawing=1))
    assert all("3-0-6" in fanned[u] and "ACT" in fanned[u] for u in "abc")  # drawing 1's default
    top = texts(draw(view(counters=units, stack_text=False), drawing=1))
    assert top["a"] == [] and top["b"] == []  # their edges only
    assert top["c"] == ["II", "c", "3-0-6", "ACT"]  # the last drawn, on top
    # drawing 2 (issue 27): every stack is its top counter and its count, whatever the view asks
    assert texts(draw(view(counters=units), drawing=2))["c"] == \
        ["II", "c", "3-0-6", "ACT", "3", "3 units in this hex: c 3-0-6; b 3-0-6; a 3-0-6"]
    now = texts(draw(view(counters=units)))
    assert now["a"] == ["a"] and now["b"] == ["b"]  # their edges, named on hover
    # drawing 3: the same words, the name after the face that holds the others (the tags too)
    assert now["c"] == ["II", "3-0-6", "ACT", "c", "3", "3 units in this hex: c 3-0-6; b 3-0-6; a 3-0-6"]


def test_arnhem_view_railways_symbols_and_stacks() -> None:
    from pbem.engine.scenarios import load_data
    from pbem.systems.arnhem1944.mapview import map_view
    from pbem.systems.arnhem1944.rules import Arnhem1944Rules

    rules = Arnhem1944Rules()
    sc = rules.load_scenario(load_data("arnhem1944-historical"))
    st = rules.initial_state(sc, {})
    v = map_view(sc, st)
    rails = [r for r in v.routes if r.kind == "railway"]
    assert [tuple(str(h) for h in r.hexes) for r in rails] == [
        tuple(r.hexes) for r in sc.map.railways]
    symbols = {c.id: c.symbol for c in v.counters}
    for c in sc.counters:
        if c.id in symbols and c.kind == "hq":
            assert symbols[c.id] == "hq", c.id
        if c.id in symbols and c.arm == "antitank":
            assert symbols[c.id] == "antitank", c.id
    assert "hq" in symbols.values() and v.stack_text is False and v.names_clear_bridges
    assert 'id="hs-railway"' in draw(v)


def test_4_1_render_zoc_cites_the_games_own_case(tmp_path: Path) -> None:
    from helpers.protocol import pbem

    home = tmp_path / "home"
    for name in ("allied", "german"):
        assert pbem("key", "new", name, home=home).code == 0
    g = tmp_path / "g"
    assert pbem("new", "arnhem1944-historical", g, "--player", "AL=allied", "--player",
                "DE=german", home=home).code == 0
    out = tmp_path / "zoc.svg"
    res = pbem("render", g, "--zoc", "DE", "-o", out, home=home)
    assert res.code == 0, res.err
    svg = out.read_text(encoding="utf-8")
    assert "zone of control of German units [4.1, 4.2]" in svg and "[6.0]" not in svg


def test_16_a_place_name_moves_off_the_bridge_it_would_cover() -> None:
    # "Arnhem" stands on 1406 and the road bridge spans 1406/1407 [16]: the name, low in its
    # hex (0.82 hex below the centre), would cover it. On the hand-made map: 0202 with a bridge
    # to 0203 below it (north up); 0302's hexside below (to 0303) has none.
    from pbem.maps.view import PlaceView

    places = (PlaceView(H("0202"), "Arnhem"), PlaceView(H("0302"), "Velp"))
    bridge = {(H("0202"), H("0203")): frozenset({"bridge", "river"})}

    def name_y(svg: str, name: str) -> float:  # the name's text (drawing 3: in the group of class pn)
        found = ids(svg)
        names = [g for g in found["places"].iter() if g.get("class") == "pn" and g.get("id") is None]
        return next(float(el.get("y") or 0) for g in names for el in g.iter() if el.text == name)

    moved = draw(view(places=places, hexsides=bridge, names_clear_bridges=True), hex_size=S)
    kept = draw(view(places=places, hexsides=bridge), hex_size=S)
    y0202, y0302 = hex_center(H("0202"), S)[1], hex_center(H("0302"), S)[1]
    assert name_y(kept, "Arnhem") == pytest.approx(y0202 + 0.82 * S, abs=0.06)  # as before
    assert name_y(moved, "Arnhem") == pytest.approx(y0202 - 0.92 * S, abs=0.06)  # above
    assert name_y(moved, "Velp") == pytest.approx(y0302 + 0.82 * S, abs=0.06)  # no bridge there
