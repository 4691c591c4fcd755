"""The Vae Victis Arnhem 1944 map, generated from the shared Market Garden geography: the checked-in
file is the generator's output, one kilometre a hex [0.1], every hex the text names is where the
text needs it [10.1, 15.2, 15.3, 17.1, 17.2], the Waal and the Neder Rijn cross the map with their
bridges at Nijmegen and Arnhem [12, 16], and the entry zones A-G lie on the edges [15.1]."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import deque

import pytest
from helpers.paths import ROOT
from helpers.svgmap import drawn_hexes

from pbem.maps.hexmap import Hex, hexside
from pbem.maps.view import EntryView, MapView, PlaceView, RouteView, SideView
from pbem.systems.arnhem1944.model import (
    HEX_TERRAIN,
    HEXSIDE_TERRAIN,
    ZONES,
    A1944Map,
    zones_within,
)

MAP = ROOT / "pbem" / "scenario_data" / "arnhem1944-map.json"


@pytest.fixture(scope="module")
def m() -> A1944Map:
    return A1944Map.parse(json.loads(MAP.read_text(encoding="utf-8")))


def H(s: str) -> Hex:
    return Hex.parse(s)


def at(m: A1944Map, name: str) -> Hex:
    return next(H(p.hex) for p in m.places if p.name == name)


def line(m: A1944Map, name: str) -> set[tuple[Hex, Hex]]:
    return {hexside(*(H(x) for x in s.split("/")))
            for ln in m.lines if ln.name == name for s in ln.hexsides}


def one_side(m: A1944Map, name: str) -> tuple[Hex, Hex]:
    (s,) = line(m, name)
    return s


def region(m: A1944Map, start: Hex, *cuts: str) -> set[Hex]:
    """The hexes reached from ``start`` without crossing the named lines."""
    cut = set().union(*(line(m, c) for c in cuts))
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n not in seen and m.on_map(n) and hexside(h, n) not in cut:
                seen.add(n)
                todo.append(n)
    return seen


@pytest.fixture(scope="module")
def banks(m: A1944Map) -> dict[str, set[Hex]]:
    """North of the Neder Rijn, the Island (Betuwe) between the rivers, south of the Waal."""
    rivers = ("Waal", "Neder Rijn")
    return {"north": region(m, at(m, "Arnhem"), *rivers),
            "island": region(m, at(m, "Elst"), *rivers),
            "south": region(m, at(m, "Nijmegen"), *rivers)}


def test_the_checked_in_map_is_the_generators_output() -> None:
    tool = ROOT / "scenarios" / "tools" / "gen_arnhem1944_map.py"
    out = subprocess.run([sys.executable, str(tool)], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout
    data = json.loads(out)
    assert data == json.loads(MAP.read_text(encoding="utf-8"))
    assert data["reconstructed"].startswith("RECONSTRUCTED")
    assert "0305" in data["reconstructed"] and "north up" in data["reconstructed"]


def test_0_1_one_kilometre_a_hex_north_up(m: A1944Map) -> None:
    # Nijmegen's centre to Arnhem's is 16 km as the crow flies: 16-18 hexes on a 1 km grid
    assert 15 <= at(m, "Nijmegen").distance(at(m, "Arnhem")) <= 18
    # Oosterbeek to Arnhem is about 5 km, Wolfheze to Oosterbeek 3 km
    assert 4 <= at(m, "Oosterbeek").distance(at(m, "Arnhem")) <= 6
    assert at(m, "Wolfheze").distance(at(m, "Oosterbeek")) == 3
    assert at(m, "Arnhem").row < at(m, "Elst").row < at(m, "Nijmegen").row  # rows run south
    assert at(m, "Wolfheze").col < at(m, "Arnhem").col < at(m, "Velp").col  # columns run east
    assert (m.cols, m.rows, m.north) == ((1, 21), (1, 27), "up")


def test_the_vocabulary_is_the_one_the_tec_is_keyed_on(m: A1944Map) -> None:
    assert set(m.terrain) | {m.default_terrain} == set(HEX_TERRAIN)
    assert {ln.kind for ln in m.lines} == set(HEXSIDE_TERRAIN)
    assert {r.kind for r in m.routes} == {"road"}
    assert {r.kind for r in m.railways} == {"railway"} and len(m.railways) >= 3
    rail = next(r for r in m.railways if r.name.startswith("Nijmegen - Elst - Arnhem"))
    a, b = H(rail.hexes[0]), H(rail.hexes[1])
    assert "railway" in m.features(a, b)
    for r in [*m.routes, *m.railways]:  # no route visits a hex twice; each step is adjacent
        assert len(set(r.hexes)) == len(r.hexes), r.name
        assert all(H(x).is_adjacent(H(y)) for x, y in zip(r.hexes, r.hexes[1:], strict=False))


def test_17_1_the_drop_zone_0305_is_open_heath_by_wolfheze(m: A1944Map,
                                                           banks: dict[str, set[Hex]]) -> None:
    dz = H("0305")
    assert m.terrain_of(dz) == "clear" and dz in banks["north"]
    assert dz.distance(at(m, "Wolfheze")) == 2
    # [17.1, 15.2] the 1st Airborne lands within 2 hexes; 1A and GP (five units, ten steps at
    # most) need clear hexes: at six steps a hex [5] two would do, there are many more
    clear = [h for h in m.all_hexes() if h.distance(dz) <= 2 and m.terrain_of(h) == "clear"]
    assert len(clear) >= 10


def test_17_2_the_polish_drop_zone_0709_is_polder_by_driel_south_of_the_rhine(
        m: A1944Map, banks: dict[str, set[Hex]]) -> None:
    dz = H("0709")
    assert m.terrain_of(dz) == "polder" and dz in banks["island"]
    assert dz.distance(at(m, "Driel")) == 1
    ring = [h for h in m.all_hexes() if h.distance(dz) <= 2]
    assert sum(m.terrain_of(h) in ("clear", "polder") for h in ring) >= 15  # [15.2]
    # the Driel ferry crosses the Neder Rijn to the 1st Airborne's bank
    a, b = one_side(m, "Driel ferry")
    assert {a in banks["north"], b in banks["north"]} == {True, False}
    assert min(a.distance(dz), b.distance(dz)) <= 2


def test_17_1_german_set_up_hexes(m: A1944Map, banks: dict[str, set[Hex]]) -> None:
    # SS-Pz.Gren.Ausb.Btl. 16 (Krafft) by Wolfheze, between the landing zones and Oosterbeek
    assert H("0604") in banks["north"] and H("0604").distance(at(m, "Wolfheze")) == 1
    assert H("0604").distance(at(m, "Oosterbeek")) == 3
    assert H("0604").distance(H("0305")) == 3
    # Kampfgruppe Weber on the northern edge above them
    assert H("0601") in m.edge_hexes("north")
    # SS-Panzer-Regiment 9 in Arnhem
    assert m.terrain_of(H("1405")) == "city" and H("1405").distance(at(m, "Arnhem")) == 1
    # Kampfgruppe Henke in Nijmegen, at the south ends of the rail and road bridges
    rail, road = one_side(m, "Nijmegen rail bridge"), one_side(m, "Nijmegen road bridge (Waalbrug)")
    for h in ("0922", "1022"):
        assert m.terrain_of(H(h)) == "city" and H(h) in banks["south"], h
    assert any(H("0922").is_adjacent(x) or H("0922") == x for x in rail if x in banks["south"])
    assert any(H("1022").is_adjacent(x) for x in road if x in banks["south"])
    # SS-Pz.Aufkl.Abt. 9 at Lent, on the north end of the rail bridge
    assert H("1020") in banks["island"] and H("1020").distance(at(m, "Lent")) == 1
    assert H("1020") in rail


def test_17_1_the_82nd_airborne_below_the_groesbeek_heights(m: A1944Map,
                                                           banks: dict[str, set[Hex]]) -> None:
    for h in ("1126", "1127"):
        assert H(h) in banks["south"] and m.terrain_of(H(h)) == "woods", h
        assert 4 <= H(h).distance(at(m, "Nijmegen")) <= 6, h
    assert H("1126").is_adjacent(H("1127"))


def test_15_3_xxx_corps_enters_by_0327_on_the_grave_road(m: A1944Map) -> None:
    entry = H("0327")
    assert entry in m.edge_hexes("south") and m.terrain_of(entry) == "clear"
    hell = next(r for r in m.routes if r.name.startswith("Hell's Highway"))
    assert hell.hexes[0] == "0327" and hell.off_map == ["start"]
    assert hell.hexes[-1] == str(at(m, "Nijmegen"))
    assert m.off_map_routes[entry] == frozenset({"road"})
    # west of the Maas-Waal canal: XXX Corps must take a canal bridge to reach Nijmegen
    west = region(m, entry, "Maas-Waal canal", "Waal")
    assert at(m, "Nijmegen") not in west
    on_road = {hexside(H(a), H(b)) for a, b in zip(hell.hexes, hell.hexes[1:], strict=False)}
    assert one_side(m, "Honinghutje bridge") in on_road


def test_the_waal_and_the_neder_rijn_cross_the_map(m: A1944Map,
                                                   banks: dict[str, set[Hex]]) -> None:
    for river in ("Waal", "Neder Rijn"):
        cols = {h.col for s in line(m, river) for h in s}
        assert {m.cols[0], m.cols[1]} <= cols, river
    assert len(banks["north"]) + len(banks["island"]) + len(banks["south"]) == len(m.all_hexes())
    assert not (banks["north"] & banks["island"]) and not (banks["island"] & banks["south"])
    for name in ("Oosterbeek", "Wolfheze", "Velp", "Arnhem"):
        assert at(m, name) in banks["north"], name
    for name in ("Driel", "Elst", "Lent", "Bemmel", "Huissen", "Heteren"):
        assert at(m, name) in banks["island"], name
    for name in ("Nijmegen", "Beek"):
        assert at(m, name) in banks["south"], name
    # the Betuwe is polder wherever it is not a town or marsh
    assert {m.terrain_of(h) for h in banks["island"]} <= {"polder", "town", "marsh"}


@pytest.mark.parametrize("river,road,rail", [
    ("Waal", "Nijmegen road bridge (Waalbrug)", "Nijmegen rail bridge"),
    ("Neder Rijn", "Arnhem road bridge", "Oosterbeek rail bridge"),
])
def test_12_the_rivers_are_bridged_at_nijmegen_and_arnhem_only(m: A1944Map, river: str, road: str,
                                                              rail: str) -> None:
    sides = line(m, river)
    roads = {s for s in sides if "road" in m.features(*s)}
    assert roads == {one_side(m, road)}
    assert "bridge" in m.features(*one_side(m, road))
    rails = {s for s in sides if "rail-bridge" in m.features(*s)}
    assert rails == {one_side(m, rail)}
    assert "railway" in m.features(*one_side(m, rail))


def test_16_the_arnhem_road_bridge_joins_arnhem_to_the_island(m: A1944Map,
                                                             banks: dict[str, set[Hex]]) -> None:
    a, b = one_side(m, "Arnhem road bridge")
    north = a if a in banks["north"] else b
    south = b if north == a else a
    assert north == at(m, "Arnhem") and m.terrain_of(north) == "city"
    assert south in banks["island"] and m.terrain_of(south) != "city"  # open ground south of it


def test_15_1_entry_zones_are_runs_of_edge_hexes_with_a_road_off_the_map(
        m: A1944Map, banks: dict[str, set[Hex]]) -> None:
    assert tuple(m.entry_zones) == ZONES
    seen: set[Hex] = set()
    for z, zone in m.entry_zones.items():
        hexes = [H(h) for h in zone.hexes]
        assert set(hexes) <= set(m.edge_hexes(zone.edge)), z
        assert all(a.is_adjacent(b) for a, b in zip(hexes, hexes[1:], strict=False)), z
        assert not (seen & set(hexes)), z
        seen |= set(hexes)
        assert any("road" in m.off_map_routes.get(h, frozenset()) for h in hexes), z  # [10.1]
    edges = {z: zone.edge for z, zone in m.entry_zones.items()}
    assert edges == {"A": "west", "B": "west", "C": "north", "D": "north", "E": "east",
                     "F": "east", "G": "east"}
    # von Tettau from the west, the 9th SS from the north [10.1]: all north of the Neder Rijn;
    # the 10th SS's zones F and G on the Island (the Pannerden crossing)
    for z in "ABCDE":
        assert {H(h) for h in m.entry_zones[z].hexes} <= banks["north"], z
    for z in "FG":
        assert {H(h) for h in m.entry_zones[z].hexes} <= banks["island"], z
    assert m.zone_of(H("0101")) == "B" and m.zone_of(H("2118")) == "G"
    assert m.zone_of(H("0327")) is None


def test_the_existing_renderer_draws_the_map(m: A1944Map) -> None:
    from pbem.render.svg import draw

    view = MapView(
        scenario_id="arnhem1944", title=m.title, subtitle="", cols=m.cols, rows=m.rows,
        terrain={h: m.terrain_of(h) for h in m.all_hexes()}, hexsides=dict(m.hexside_features),
        sides=(SideView("AL", "Allied", "#7a8b3a"), SideView("DE", "German", "#6e7f80")),
        terrain_kinds=frozenset(m.terrain) | {"clear"},
        routes=tuple(RouteView(r.kind, tuple(H(x) for x in r.hexes), tuple(r.off_map))
                     for r in m.routes),
        places=tuple(PlaceView(H(p.hex), p.name) for p in m.places),
        entries=tuple(EntryView("DE", 1, tuple(H(h) for h in zone.hexes), f"zone {z} [15.1]")
                      for z, zone in m.entry_zones.items()))
    svg = draw(view)
    assert {"0305", "2127"} <= set(drawn_hexes(ET.fromstring(svg)))
    for kind in ("polder", "marsh", "woods", "city"):
        assert f'data-terrain="{kind}"' in svg, kind
    assert "Arnhem road bridge" in svg or 'data-kind="bridge"' in svg


def test_15_1_a_delayed_entry_shifts_one_zone_a_turn() -> None:
    assert zones_within("A", 0) == ("A",)
    assert zones_within("A", 1) == ("A", "B")  # A is the first zone round the edge
    assert zones_within("D", 1) == ("C", "D", "E")
    assert zones_within("D", 2) == ("B", "C", "D", "E", "F")
    assert zones_within("G", 1) == ("F", "G")
    assert zones_within("C", 9) == ZONES


def test_15_2_landing_hexes_round_the_polish_drop_zone(m: A1944Map) -> None:
    dz = H("0709")
    got = m.landing_hexes(dz, 2, ["clear", "polder"])
    ring = [h for h in m.all_hexes() if h.distance(dz) <= 2]
    assert len(ring) == 19  # the hex, six at one, twelve at two
    assert at(m, "Driel") not in got and dz in got  # a town is no landing ground
    assert set(got) == {h for h in ring if m.terrain_of(h) in ("clear", "polder")}
    assert m.landing_hexes(dz, 0, ["clear", "polder"]) == [dz]
    assert m.landing_hexes(dz, 0, ["clear"]) == []  # 0709 is polder
