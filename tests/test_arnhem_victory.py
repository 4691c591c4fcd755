"""SPI Arnhem lines of communication, victory points and levels [17.1-17.4], hand-computed on tiny
maps (columns across, rows down: the exit hex 0101 is a corner of the map)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.maps.hexmap import Hex
from pbem.systems.westwall import arnhem_victory as av
from pbem.systems.westwall.board import Board
from tests.ww_helpers import state_with, tiny_scenario, unit

SPECIAL: dict[str, Any] = {"loc_hexes": ["0101"], "engineer": None}


def _sc(**kw: Any) -> Any:
    base: dict[str, Any] = dict(game="arnhem", first_player="US", cols=(1, 10), rows=(1, 10),
                                special=dict(SPECIAL))
    base.update(kw)
    return tiny_scenario(**base)


def _board(sc: Any, pos: dict[str, str], **kw: Any) -> tuple[Board, Any]:
    st = state_with(sc, pos, **kw)
    return Board.from_state(sc, st), st


# -- [17.31] ground lines of communication -----------------------------------------------------

def test_17_31_cross_country_to_the_exit_hex() -> None:
    sc = _sc(units=[unit("xxx", "US", "armor"), unit("g", "DE")])
    b, _st = _board(sc, {"xxx": "0404", "g": "1010"})
    path = av.ground_loc(b, "xxx", ["0101"])
    assert path is not None and path[0] == Hex.parse("0404") and path[-1] == Hex.parse("0101")


def test_17_31_once_on_a_road_the_line_keeps_to_the_road() -> None:
    """The unit stands on a road that bends away from the exit: the line must follow the road
    (0301-0302-...-0305-0205-0105-0104-...-0101), it may not cut across from the road."""
    road = ["0305", "0205", "0105", "0104", "0103", "0102", "0101"]
    sc = _sc(routes=[("road", ["0303", "0304", *road], ["end"])],
             units=[unit("xxx", "US", "armor"), unit("g", "DE")])
    b, _st = _board(sc, {"xxx": "0303", "g": "1010"})
    path = av.ground_loc(b, "xxx", ["0101"])
    assert path is not None and [str(h) for h in path] == ["0303", "0304", *road]
    # a German unit on the road (not its zone: it sits beside it) cuts the line: no way round
    sc2 = _sc(routes=[("road", ["0303", "0304", *road], ["end"])],
              units=[unit("xxx", "US", "armor"), unit("g", "DE")])
    b2, _ = _board(sc2, {"xxx": "0303", "g": "0104"})
    assert av.ground_loc(b2, "xxx", ["0101"]) is None


def test_17_31_a_trail_allows_roads_and_trails_only() -> None:
    sc = _sc(routes=[("trail", ["0303", "0202", "0102", "0101"])],
             units=[unit("xxx", "US"), unit("g", "DE")])
    b, _ = _board(sc, {"xxx": "0303", "g": "1010"})
    path = av.ground_loc(b, "xxx", ["0101"])
    assert path is not None and [str(h) for h in path] == ["0303", "0202", "0102", "0101"]


# -- [17.33] enemy units and zones of control -------------------------------------------------------

def test_17_33_enemy_zones_block_but_friendly_units_negate_them() -> None:
    """A lane two columns wide; the German at 0205 holds the middle of it with its zone of control:
    the line from 0110 to 0101 is cut; U.S. units standing in the zone's hexes of column 01 open
    it through them."""
    sc = _sc(cols=(1, 2), units=[unit("xxx", "US"), unit("f1", "US"), unit("f2", "US"),
                                 unit("g", "DE")])
    b, _ = _board(sc, {"xxx": "0110", "g": "0205"})
    assert av.ground_loc(b, "xxx", ["0101"]) is None
    b2, _ = _board(sc, {"xxx": "0110", "f1": "0105", "f2": "0106", "g": "0205"})
    path = av.ground_loc(b2, "xxx", ["0101"])
    assert path is not None and Hex.parse("0105") in path and Hex.parse("0106") in path


# -- [17.34] unbridged water -----------------------------------------------------------------------

def test_17_34_no_line_over_unbridged_water_and_a_demolished_bridge_cuts_it() -> None:
    ring = [f"0303/{n}" for n in (str(h) for h in Hex.parse("0303").neighbours())]
    sc = _sc(lines=[("stream", ring)], units=[unit("xxx", "US"), unit("g", "DE")])
    b, _ = _board(sc, {"xxx": "0303", "g": "1010"})
    assert av.ground_loc(b, "xxx", ["0101"]) is None
    bridge_to = "0202"  # the road leaves 0303 over a bridge and runs on to the exit [17.31]
    sc2 = _sc(lines=[("stream", ring)], routes=[("road", ["0303", bridge_to, "0102", "0101"])],
              units=[unit("xxx", "US"), unit("g", "DE")])
    b2, _ = _board(sc2, {"xxx": "0303", "g": "1010"})
    assert av.ground_loc(b2, "xxx", ["0101"]) is not None
    b2.demolish(Hex.parse("0303"), Hex.parse(bridge_to))
    assert av.ground_loc(b2, "xxx", ["0101"]) is None


# -- [17.32] airborne lines --------------------------------------------------------------------------

def test_17_32_airborne_units_trace_seven_hexes_to_their_drop_zone() -> None:
    sc = _sc(units=[unit("p", "US", "airborne", formation="101"), unit("g", "DE")])
    seven, _ = _board(sc, {"p": "0108", "g": "1010"})
    assert Hex.parse("0108").distance(Hex.parse("0101")) == 7
    assert av.airborne_loc(seven, "p", "0101") is not None
    eight, _ = _board(sc, {"p": "0109", "g": "1010"})
    assert av.airborne_loc(eight, "p", "0101") is None
    overrun, _ = _board(sc, {"p": "0103", "g": "0101"})
    assert av.airborne_loc(overrun, "p", "0101") is None  # the DZ is held by the enemy [15.35]
    assert av.airborne_loc(seven, "p", None) is None


def test_17_36_poles_and_germans_trace_no_line() -> None:
    sc = _sc(units=[unit("pol", "US", "airborne", formation="Pol"), unit("p", "US", "glider",
                                                                          formation="1"),
                    unit("xxx", "US", "armor"), unit("g", "DE")])
    assert av.needs_loc(sc.unit["pol"]) is None
    assert av.needs_loc(sc.unit["p"]) == "airborne"
    assert av.needs_loc(sc.unit["xxx"]) == "ground"
    b, st = _board(sc, {"pol": "1010", "p": "1009", "xxx": "0909", "g": "0505"})
    assert av.loc_failures(sc, b, st) == ["p"]  # p: no drop zone placed; pol is exempt


# -- [17.11, 17.12] points ---------------------------------------------------------------------------

def _rivers(**kw: Any) -> Any:
    waal = [f"{c:02d}05/{c:02d}06" for c in range(1, 11)]
    waal += [f"{c:02d}06/{n}" for c in range(1, 11) for n in
             (str(h) for h in Hex(c, 6).neighbours()) if Hex.parse(n).row == 5 and n != f"{c:02d}05"]
    special = dict(SPECIAL, waal={"line": "Waal", "south_hex": "0110", "north_hex": "0101",
                                  "points": 5})
    return _sc(lines=[{"kind": "river", "name": "Waal", "hexsides": sorted(set(waal))}],
               routes=[("road", [f"01{r:02d}" for r in range(1, 11)])], special=special, **kw)


def test_north_of_a_named_line() -> None:
    sc = _rivers(units=[unit("g", "DE")])
    north = av.north_of(sc, "Waal", "0101", "0110")
    assert Hex.parse("0505") in north and Hex.parse("0506") not in north
    with pytest.raises(ValueError):
        av.north_of(sc, "Waal", "0101", "0102")


def test_17_11_2_five_points_a_turn_north_of_the_waal_with_a_line() -> None:
    """The Waal has a road bridge (the road crosses at 0105/0106): a tank north of it with the
    road open behind it scores 5; airborne units score nothing [17.11]."""
    sc = _rivers(units=[unit("tk", "US", "armor"), unit("p", "US", "airborne", formation="1"),
                        unit("g", "DE")])
    b, st = _board(sc, {"tk": "0103", "p": "0303", "g": "1010"})
    pts, lines = av.turn_points(sc, b, st)
    assert pts["US"] == 5
    assert pts["DE"] == 3  # p has no drop zone: no line [17.12]
    assert any("north of the Waal" in line for line in lines)


def test_17_11_1_17_12_1_elimination_points_at_the_end() -> None:
    sc = _sc(units=[unit("xxx", "US"), unit("g", "DE")])
    b, st = _board(sc, {"xxx": "0101", "g": "1010"}, exclusive={"eliminated": {"DE": 4, "US": 2}})
    pts, _lines = av.final_points(sc, b, st)
    assert pts == {"US": 4, "DE": 10}


# -- [17.4] levels -------------------------------------------------------------------------------

@pytest.mark.parametrize(("german", "allied", "level"), [
    (300, 100, "German Strategic"), (2995, 1000, "German Strategic"),  # 2.995 rounds to 3.00
    (299, 100, "German Tactical"), (201, 100, "German Tactical"),
    (2005, 1000, "German Tactical"),  # 2.005 rounds to 2.01
    (200, 100, "Draw"), (1995, 1000, "Draw"),  # 1.995 rounds to 2.00
    (199, 100, "Allied Tactical"), (101, 100, "Allied Tactical"),
    (100, 100, "Allied Strategic"), (50, 100, "Allied Strategic"),
    (5, 0, "German Strategic"), (0, 0, "Draw"),
])
def test_17_4_every_boundary(german: int, allied: int, level: str) -> None:
    got, winner = av.victory_level(german, allied)
    assert got.startswith(level)
    assert winner == {"German": "german", "Allied": "allied", "Draw": None}[level.split()[0]]
