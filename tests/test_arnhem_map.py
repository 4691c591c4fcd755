"""The SPI Arnhem map, generated from the shared Market Garden geography: the checked-in file is
the generator's output, and every hex the rules name is where the rules need it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.engine.scenarios import load_data
from pbem.maps.hexmap import Hex
from pbem.systems.westwall import arnhem_victory as av
from pbem.systems.westwall.arnhem import bridge_kind
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.rules import WestWallRules

ROOT = Path(__file__).resolve().parent.parent
R = WestWallRules()


@pytest.fixture(scope="module")
def sc():  # type: ignore[no-untyped-def]
    return R.load_scenario(load_data("arnhem-historical"))


def test_the_checked_in_map_is_the_generators_output() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scenarios" / "tools" / "gen_arnhem_map.py")],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert json.loads(out) == json.loads((ROOT / "scenarios" / "arnhem-map.json").read_text())
    geo = json.loads((ROOT / "scenarios" / "geography" / "market-garden.json").read_text())
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
    import re

    from pbem.systems.westwall.mapview import render_map

    svg = render_map(sc, R.initial_state(sc, {}))

    def y_of(h: str) -> float:
        m = re.search(rf'<use id="hex-{h}" x="[-0-9.]+" xlink:href="#hex" y="([-0-9.]+)"', svg)
        assert m is not None, h
        return float(m.group(1))

    def x_of(h: str) -> float:
        m = re.search(rf'<use id="hex-{h}" x="([-0-9.]+)"', svg)
        assert m is not None, h
        return float(m.group(1))

    assert y_of("3919") < y_of("0105")  # north above south
    assert x_of("1001") < x_of("1026")  # west left of east
