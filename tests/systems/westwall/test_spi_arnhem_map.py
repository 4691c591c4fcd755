"""The SPI Arnhem map, generated from the shared Market Garden geography: the checked-in file is
the generator's output, and every hex the rules name is where the rules need it."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from helpers.paths import ROOT
from helpers.svgmap import drawn_hexes

from pbem.engine.scenarios import load_data
from pbem.maps.hexmap import Hex
from pbem.systems.westwall import arnhem_victory as av
from pbem.systems.westwall.arnhem import bridge_kind
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.rules import WestWallRules

R = WestWallRules()


@pytest.fixture(scope="module")
def sc():  # type: ignore[no-untyped-def]
    return R.load_scenario(load_data("arnhem-historical"))


def test_the_checked_in_map_is_the_generators_output() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scenarios" / "tools" / "gen_arnhem_map.py")],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert json.loads(out) == json.loads((ROOT / "pbem" / "scenario_data" / "arnhem-map.json").read_text())
    geo = json.loads((ROOT / "pbem" / "scenario_data" / "geography" / "market-garden.json").read_text())
    assert "RECONSTRUCTED" in geo["reconstructed"]
    assert "RECONSTRUCTED" in json.loads(out)["reconstructed"]


def test_numbering_runs_south_to_north_then_west_to_east(sc) -> None:  # type: ignore[no-untyped-def]
    m = sc.map
    assert m.north == "right" and m.cols == (1, 40) and m.rows == (1, 26)
    board = Board.from_state(sc, R.initial_state(sc, {}))
    assert "south" in board.edges_of(Hex.parse("0105")) and "south" in board.edges_of(Hex.parse("0106"))
    assert "west" in board.edges_of(Hex.parse("0601")) and "west" in board.edges_of(Hex.parse("2301"))
    assert "east" in board.edges_of(Hex.parse("0126")) and "east" in board.edges_of(Hex.parse("2726"))
    assert m.off_map_routes.get(Hex.parse("0105")) == frozenset({"road"})  # Hell's Highway [17.31]


def test_17_11_the_waal_and_the_neder_rijn_cut_the_map_where_the_text_says(sc) -> None:  # type: ignore[no-untyped-def]
    waal = av.north_of(sc, "Waal", "3005", "2726")
    rijn = av.north_of(sc, "Neder Rijn", "3706", "3424")
    assert rijn < waal  # north of the Neder Rijn is north of the Waal too
    arnhem, nijmegen, driel = (next(Hex.parse(p.hex) for p in sc.map.places if p.name == n)
                               for n in ("Arnhem", "Nijmegen", "Driel"))
    assert arnhem in rijn and nijmegen not in waal
    assert driel in waal and driel not in rijn  # the Poles drop south of the Neder Rijn [18.13]
    assert Hex.parse("3220") in waal and Hex.parse("3220") not in rijn
    for h in ("3722", "3724", "3718", "3719", "3919", "3817"):  # Arnhem and the 1st Airborne [18.1]
        assert Hex.parse(h) in rijn, h
    for h in ("2621", "2323", "2223", "2117", "1007", "1308", "0105"):
        assert Hex.parse(h) not in waal, h


def test_bridges_of_each_kind_and_the_city_hexes(sc) -> None:  # type: ignore[no-untyped-def]
    board = Board.from_state(sc, R.initial_state(sc, {}))
    kinds: dict[str, set[str]] = {}
    for side in sc.map.hexside_features:
        k = bridge_kind(board, *side)
        if k:
            near = {sc.map.place_name(side[0]), sc.map.place_name(side[1])} - {None}
            kinds.setdefault(k, set()).update(n for n in near if n)
    assert {"Son", "Veghel", "Heumen"} <= kinds["canal"]  # wired [12.15]
    assert {"Grave", "Nijmegen"} <= kinds["highway"]  # over rivers: never wired [12.15]
    assert "rail" in kinds
    city = {str(h) for h in sc.map.all_hexes() if sc.map.terrain_of(h) == "city"}
    assert {"3722", "2621"} <= city  # Arnhem's German garrison; the Nijmegen bridge guard [18.12]
    for h in ("1007", "2323", "3919"):  # the drop zones of 18.11 are open ground or woods
        assert sc.map.terrain_of(Hex.parse(h)) in ("clear", "woods", "mixed")


def test_the_map_is_drawn_north_up(sc) -> None:  # type: ignore[no-untyped-def]

    from pbem.render.svg import draw
    from pbem.systems.westwall.mapview import map_view

    centres = drawn_hexes(ET.fromstring(draw(map_view(sc, R.initial_state(sc, {})))))

    def y_of(h: str) -> float:
        return centres[h][1]

    def x_of(h: str) -> float:
        return centres[h][0]

    assert y_of("3919") < y_of("0105")  # north above south
    assert x_of("1001") < x_of("1026")  # west left of east


def _named_lines(sc) -> dict[str, tuple[Hex, Hex]]:  # type: ignore[no-untyped-def]
    out = {}
    for line in sc.map.lines:
        if line.kind in ("bridge", "rail-bridge", "ferry"):
            assert len(line.hexsides) == 1, line.name
            a, b = line.hexsides[0].split("/")
            out[line.name] = (Hex.parse(a), Hex.parse(b))
    return out


def test_the_1944_bridges_are_named_and_of_the_kind_12_15_needs(sc) -> None:  # type: ignore[no-untyped-def]
    board = Board.from_state(sc, R.initial_state(sc, {}))
    named = _named_lines(sc)
    expect = {
        "canal": ["Son bridge", "Best bridge", "Veghel canal bridge", "Heumen lock bridge",
                  "Honinghutje bridge"],  # wired for demolition [12.15]
        "highway": ["Grave bridge", "Nijmegen road bridge (Waalbrug)", "Arnhem road bridge",
                    "Sint-Oedenrode Dommel bridge", "Veghel Aa bridge"],  # never demolished [12.15]
        "rail": ["Nijmegen rail bridge", "Oosterbeek rail bridge", "Veghel rail bridge (Aa)",
                 "Gennep rail bridge"],  # wired [12.15]
    }
    for kind, names in expect.items():
        for name in names:
            assert bridge_kind(board, *named[name]) == kind, name
    # the Driel ferry carries the Poles' side of the Neder Rijn to the 1st Airborne's [18.13]
    rijn = av.north_of(sc, "Neder Rijn", "3706", "3424")
    a, b = named["Driel ferry"]
    assert (a in rijn) != (b in rijn)
    assert "ferry" in sc.map.features(a, b)


def test_the_great_rivers_are_bridged_only_where_they_were(sc) -> None:  # type: ignore[no-untyped-def]
    """A road over the Waal only at Nijmegen and over the Neder Rijn only at Arnhem: no stray
    crossing (say, where a riverside road wanders over the line) lets XXX Corps around the
    bridges that decide the game [17.11]."""
    named = _named_lines(sc)
    for river, bridge, rail in (("Waal", "Nijmegen road bridge (Waalbrug)", "Nijmegen rail bridge"),
                                ("Neder Rijn", "Arnhem road bridge", "Oosterbeek rail bridge")):
        line = next(ln for ln in sc.map.lines if ln.name == river)
        sides = {tuple(Hex.parse(x) for x in s.split("/")) for s in line.hexsides}
        road = {s for s in sides if sc.map.features(*s) & {"road", "trail"}}
        assert road == {named[bridge]}, (river, road)
        rails = {s for s in sides if "rail-bridge" in sc.map.features(*s)}
        assert rails == {named[rail]}, (river, rails)


def test_the_places_stand_on_the_right_banks(sc) -> None:  # type: ignore[no-untyped-def]
    at = {p.name: Hex.parse(p.hex) for p in sc.map.places}
    waal = av.north_of(sc, "Waal", "3005", "2726")
    rijn = av.north_of(sc, "Neder Rijn", "3706", "3424")
    for name in ("Tiel", "Elst", "Lent", "Bemmel", "Driel", "Heteren", "Huissen", "Zetten"):
        assert at[name] in waal and at[name] not in rijn, name  # the Island
    for name in ("Nijmegen", "Beuningen", "Wijchen", "Grave", "Groesbeek", "Eindhoven"):
        assert at[name] not in waal, name
    for name in ("Arnhem", "Oosterbeek", "Wolfheze", "Renkum", "Wageningen", "Ede", "Velp"):
        assert at[name] in rijn, name


def test_the_hexes_the_text_names_fit_what_it_puts_there(sc) -> None:  # type: ignore[no-untyped-def]
    at = {p.name: Hex.parse(p.hex) for p in sc.map.places}
    m = sc.map

    def near(h: str, place: str, d: int) -> bool:
        return Hex.parse(h).distance(at[place]) <= d

    # airborne groups land by the towns and bridges they were sent for [18.13]
    assert near("0804", "Son", 2) and near("1004", "Sint-Oedenrode", 0) and near("1308", "Veghel", 0)
    assert near("2117", "Grave", 0) and near("2118", "Grave", 1)
    assert near("2023", "Groesbeek", 3) and near("2223", "Groesbeek", 0)
    for h in ("3718", "3719", "3817"):
        assert near(h, "Wolfheze", 2) and near(h, "Oosterbeek", 3), h
    assert near("3220", "Driel", 2)  # the Poles drop south of Driel
    assert near("1007", "Son", 2) and near("1007", "Sint-Oedenrode", 3)  # the 101st's zone [18.11]
    # the Germans of 18.12: Arnhem, the Nijmegen bridge, Best, the Reichswald, the Island
    assert m.terrain_of(Hex.parse("3722")) == "city" and near("3724", "Arnhem", 2)
    assert m.terrain_of(Hex.parse("2621")) == "city" and near("2621", "Nijmegen", 1)
    assert near("0702", "Best", 1)
    for h in ("2325", "2025"):  # east of Groesbeek, in the Reichswald
        assert m.terrain_of(Hex.parse(h)) == "woods" and Hex.parse(h).row > at["Groesbeek"].row, h
    waal = av.north_of(sc, "Waal", "3005", "2726")
    rijn = av.north_of(sc, "Neder Rijn", "3706", "3424")
    assert Hex.parse("3322") in waal and Hex.parse("3322") not in rijn
    # Hell's Highway: one road from the south edge at 0105 through the corridor to Arnhem
    roads = [r for r in m.routes if r.kind == "road"]
    hell = next(r for r in roads if r.name.startswith("Hell's Highway"))
    assert hell.hexes[0] == "0105" and "start" in hell.off_map
    assert {str(at[n]) for n in ("Valkenswaard", "Son", "Sint-Oedenrode", "Veghel", "Grave",
                                 "Nijmegen")} <= set(hell.hexes)


def test_no_road_wanders_back_over_itself(sc) -> None:  # type: ignore[no-untyped-def]
    for r in sc.map.routes:
        assert len(set(r.hexes)) == len(r.hexes), r.name
