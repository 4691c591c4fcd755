"""SPI Arnhem lines of communication, victory points and levels [17.1-17.4], hand-computed on tiny
maps (columns across, rows down: the exit hex 0101 is a corner of the map)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.westwall import state_with, tiny_scenario, unit

from pbem.maps.hexmap import Hex
from pbem.systems.westwall import arnhem_victory as av
from pbem.systems.westwall.board import Board

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


ROW5 = [f"{c:02d}05" for c in range(1, 11)]  # a road across the whole map: every line meets it


def test_17_31_a_line_that_reaches_a_road_must_follow_roads_to_the_exit() -> None:
    """The unit at 0509 cannot reach 0101 without entering a hex of the road along row 05; from
    there on only road hexsides count. With a road spur 0105-0101 the line runs along it; without
    it (the road runs east to 1005) there is none, though the open country north of the
    road leads straight to the exit."""
    spur = ["0105", "0104", "0103", "0102", "0101"]
    sc = _sc(routes=[("road", ROW5), ("road", spur)],
             units=[unit("xxx", "US", "armor"), unit("g", "DE")])
    b, _ = _board(sc, {"xxx": "0509", "g": "1010"})
    path = av.ground_loc(b, "xxx", ["0101"])
    assert path is not None and [str(h) for h in path][-5:] == spur
    first_road = next(i for i, h in enumerate(path) if str(h) in ROW5)
    assert all(b.crossing(x, y).route == "road" for x, y in zip(path[first_road:], path[first_road + 1:],
                                                                strict=False))
    no_spur = _sc(routes=[("road", ROW5)],
                  units=[unit("xxx", "US", "armor"), unit("g", "DE")])
    b2, _ = _board(no_spur, {"xxx": "0509", "g": "1010"})
    assert av.ground_loc(b2, "xxx", ["0101"]) is None


def test_17_31_from_a_road_onto_a_trail_is_refused_but_from_a_trail_onto_a_road_is_not() -> None:
    trail = ["0305", "0304", "0203", "0103", "0102", "0101"]
    sc = _sc(routes=[("road", ROW5), ("trail", trail)],
             units=[unit("xxx", "US"), unit("g", "DE")])
    b, _ = _board(sc, {"xxx": "0509", "g": "1010"})
    assert av.ground_loc(b, "xxx", ["0101"]) is None  # on the road, a trail hexside does not do
    # the other way round: trail 0509-0408-0407-0406-0306-0305 (joining the road), road to 0101
    sc2 = _sc(routes=[("trail", ["0509", "0408", "0407", "0406", "0306", "0305"]),
                      ("road", ["0305", "0205", "0105", "0104", "0103", "0102", "0101"])],
              units=[unit("xxx", "US"), unit("g", "DE")])
    b2, _ = _board(sc2, {"xxx": "0509", "g": "1010"})
    path = av.ground_loc(b2, "xxx", ["0101"])
    assert path is not None and [str(h) for h in path] == [
        "0509", "0408", "0407", "0406", "0306", "0305", "0205", "0105", "0104", "0103", "0102",
        "0101"]


def test_17_31_a_unit_on_a_trail_may_not_cut_across_country() -> None:
    """The trail from 0303 runs east, away from the exit: the open ground to 0101 does not count."""
    sc = _sc(routes=[("trail", ["0303", "0403", "0503", "0603"])],
             units=[unit("xxx", "US"), unit("g", "DE")])
    b, _ = _board(sc, {"xxx": "0303", "g": "1010"})
    assert av.ground_loc(b, "xxx", ["0101"]) is None
    b2, _ = _board(sc, {"xxx": "0202", "g": "1010"})  # off the trail: cross-country is fine
    path = av.ground_loc(b2, "xxx", ["0101"])
    assert path is not None and [str(h) for h in path] == ["0202", "0102", "0101"]


def test_17_31_either_exit_hex_will_do_and_the_line_is_the_shortest() -> None:
    sc = _sc(units=[unit("xxx", "US"), unit("g", "DE")])
    b, _ = _board(sc, {"xxx": "0105", "g": "1010"})
    assert av.ground_loc(b, "xxx", ["0101", "0106"]) == [Hex.parse("0105"), Hex.parse("0106")]
    b2, _ = _board(sc, {"xxx": "0101", "g": "1010"})
    assert av.ground_loc(b2, "xxx", ["0101"]) == [Hex.parse("0101")]


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


def test_17_33_an_enemy_zone_on_the_exit_hex_cuts_the_line() -> None:
    """The German at 0201 has 0101 and 0102 in its zone: a U.S. unit at 0102 opens that hex, but
    the exit hex itself is still in the zone until a second one stands there."""
    sc = _sc(cols=(1, 3), units=[unit("xxx", "US"), unit("f1", "US"), unit("f2", "US"),
                                 unit("g", "DE")])
    b, _ = _board(sc, {"xxx": "0110", "g": "0201", "f1": "0102"})
    assert av.ground_loc(b, "xxx", ["0101"]) is None
    b2, _ = _board(sc, {"xxx": "0110", "g": "0201", "f1": "0102", "f2": "0101"})
    path = av.ground_loc(b2, "xxx", ["0101"])
    assert path is not None and [str(h) for h in path][-2:] == ["0102", "0101"]


def test_17_33_airborne_lines_are_cut_by_enemy_zones_too() -> None:
    sc = _sc(cols=(1, 2), units=[unit("p", "US", "airborne", formation="82"), unit("f", "US"),
                                 unit("g", "DE")])
    b, _ = _board(sc, {"p": "0105", "g": "0203"})  # zone on 0102, 0103, 0104 (column 01)
    assert av.airborne_loc(b, "p", "0101") is None
    b2, _ = _board(sc, {"p": "0106", "g": "1010"})
    assert av.airborne_loc(b2, "p", "0101") is not None


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


def test_17_34_a_river_without_a_bridge_cuts_the_line_a_bridge_carries_it() -> None:
    """The river between rows 05 and 06 (see :func:`_rivers`): with no road the unit south of it
    has no line; with the road bridge at 0105/0106 it has one, and loses it when the bridge is
    demolished."""
    waal = _river_sides()
    bare = _sc(lines=[("river", waal)], units=[unit("xxx", "US"), unit("g", "DE")])
    b, _ = _board(bare, {"xxx": "0508", "g": "1010"})
    assert av.ground_loc(b, "xxx", ["0101"]) is None
    sc = _rivers(units=[unit("xxx", "US"), unit("g", "DE")])
    b2, _ = _board(sc, {"xxx": "0508", "g": "1010"})
    path = av.ground_loc(b2, "xxx", ["0101"])
    assert path is not None and Hex.parse("0106") in path and Hex.parse("0105") in path
    b2.demolish(Hex.parse("0105"), Hex.parse("0106"))
    assert av.ground_loc(b2, "xxx", ["0101"]) is None


def test_17_34_airborne_lines_do_not_cross_unbridged_water() -> None:
    ring = [f"0303/{h}" for h in Hex.parse("0303").neighbours()]
    sc = _sc(lines=[("stream", ring)], units=[unit("p", "US", "glider", formation="1"),
                                             unit("g", "DE")])
    b, _ = _board(sc, {"p": "0303", "g": "1010"})
    assert av.airborne_loc(b, "p", "0101") is None
    assert av.airborne_loc(b, "p", "0303") == [Hex.parse("0303")]  # standing on its drop zone


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
    assert av.airborne_loc(seven, "p", "0101", limit=6) is None


def test_17_32_the_seven_hexes_are_counted_along_the_line_not_as_the_crow_flies() -> None:
    """Stream hexsides wall column 01 (rows 01-04) off from column 02, and 0101 from 0102: the way
    to the drop zone at 0101 goes down to 0105 and back up column 02. From 0103 (two hexes away)
    that is 0104 0105 0204 0203 0202 0201 0101, seven hexes: a line; from 0102 (one hex away) it is
    eight: none."""
    wall = ["0101/0102", "0102/0201", "0102/0202", "0103/0202", "0103/0203", "0104/0203",
            "0104/0204"]
    sc = _sc(cols=(1, 3), lines=[("stream", wall)],
             units=[unit("p", "US", "airborne", formation="101"), unit("g", "DE")])
    b, _ = _board(sc, {"p": "0103", "g": "0310"})
    path = av.airborne_loc(b, "p", "0101")
    assert path is not None and [str(h) for h in path] == [
        "0103", "0104", "0105", "0204", "0203", "0202", "0201", "0101"]
    b2, _ = _board(sc, {"p": "0102", "g": "0310"})
    assert av.airborne_loc(b2, "p", "0101") is None
    assert av.airborne_loc(b2, "p", "0101", limit=8) is not None


def test_17_36_poles_and_germans_trace_no_line() -> None:
    sc = _sc(units=[unit("pol", "US", "airborne", formation="Pol"), unit("p", "US", "glider",
                                                                          formation="1"),
                    unit("xxx", "US", "armor"), unit("g", "DE")])
    assert av.needs_loc(sc.unit["pol"]) is None
    assert av.needs_loc(sc.unit["p"]) == "airborne"
    assert av.needs_loc(sc.unit["xxx"]) == "ground"
    assert av.needs_loc(sc.unit["g"], "US") is None and av.needs_loc(sc.unit["xxx"], "US") == "ground"
    assert av.needs_loc(unit("art", "US", "airborne-artillery", formation="82")) == "airborne"
    b, st = _board(sc, {"pol": "1010", "p": "1009", "xxx": "0909", "g": "0505"})
    assert av.loc_failures(sc, b, st) == ["p"]  # p: no drop zone placed; pol is exempt


# -- [17.11, 17.12] points ---------------------------------------------------------------------------

def _river_sides(north_row: int = 5) -> list[str]:
    """Every hexside between row ``north_row`` and the row below it, across columns 01-10."""
    south = north_row + 1
    sides = [f"{c:02d}{north_row:02d}/{c:02d}{south:02d}" for c in range(1, 11)]
    sides += [f"{c:02d}{south:02d}/{n}" for c in range(1, 11) for n in
              (str(h) for h in Hex(c, south).neighbours())
              if Hex.parse(n).row == north_row and n != f"{c:02d}{north_row:02d}"]
    return sorted(set(sides))


def _rivers(rijn: bool = False, **kw: Any) -> Any:
    """The Waal between rows 05 and 06 and, with ``rijn``, the Neder Rijn between rows 02 and 03,
    both bridged by the road down column 01 (0101-0110); the exit is 0101. The Waal is the
    southern river here, as on the real map: the exit is north of both, which is fine for a test
    of the areas and the points."""
    special: dict[str, Any] = dict(SPECIAL, waal={"line": "Waal", "south_hex": "0110",
                                                  "north_hex": "0101", "points": 5})
    lines: list[Any] = [{"kind": "river", "name": "Waal", "hexsides": _river_sides(5)}]
    if rijn:
        special["neder_rijn"] = {"line": "Neder Rijn", "south_hex": "0110", "north_hex": "0101",
                                 "points": 10}
        lines.append({"kind": "river", "name": "Neder Rijn", "hexsides": _river_sides(2)})
    return _sc(lines=lines, routes=[("road", [f"01{r:02d}" for r in range(1, 11)])],
               special=special, **kw)


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


def test_17_11_2_no_points_without_a_line_and_three_to_the_german() -> None:
    """A tank on the road north of the Waal at 0104, a German unit at 0202 whose zone covers the
    road hexes 0103 and 0102: no line, so no 5 points, and 3 to the German [17.12.2, 17.35]."""
    sc = _rivers(units=[unit("tk", "US", "armor"), unit("g", "DE")])
    b, st = _board(sc, {"tk": "0104", "g": "0202"})
    pts, _lines = av.turn_points(sc, b, st)
    assert pts == {"US": 0, "DE": 3}
    b2, st2 = _board(sc, {"tk": "0108", "g": "1010"})  # south of the Waal, line open: nothing
    assert av.turn_points(sc, b2, st2)[0] == {"US": 0, "DE": 0}


def test_17_11_3_ten_points_north_of_the_neder_rijn_at_the_end() -> None:
    """Ground units north of the Neder Rijn (rows 01-02 here) with a line score 10 each at the end
    of the game; airborne units there do not, a ground unit south of it does not, nor one cut
    off. The 5 points for the Waal are for the ends of game-turns, not the end of the game."""
    sc = _rivers(rijn=True, units=[unit("tk", "US", "armor"), unit("inf", "US"),
                                   unit("p", "US", "airborne", formation="1"),
                                   unit("mid", "US"), unit("g", "DE")])
    b, st = _board(sc, {"tk": "0102", "inf": "0101", "p": "0202", "mid": "0104", "g": "1010"},
                   exclusive={"dz": {"1": "0202"}})
    pts, lines = av.final_points(sc, b, st)
    assert pts == {"US": 20, "DE": 0}
    assert any("Neder Rijn" in line for line in lines)
    # a German unit at 0301 puts its zone on 0201 and 0202 only: the road in column 01 stays open
    b2, st2 = _board(sc, {"tk": "0102", "inf": "0101", "p": "0202", "mid": "0104", "g": "0301"},
                     exclusive={"dz": {"1": "0202"}})
    assert av.final_points(sc, b2, st2)[0] == {"US": 20, "DE": 0}
    # a demolished road bridge on the Neder Rijn: the two north of it have a line (the exit is
    # north of the river in this map), the one south of it does not and scores nothing anyway
    b2.demolish(Hex.parse("0102"), Hex.parse("0103"))
    assert av.final_points(sc, b2, st2)[0] == {"US": 20, "DE": 0}
    assert av.loc_failures(sc, b2, st2) == ["mid"]


def test_17_11_1_17_12_1_elimination_points_at_the_end() -> None:
    sc = _sc(units=[unit("xxx", "US"), unit("g", "DE")])
    b, st = _board(sc, {"xxx": "0101", "g": "1010"}, exclusive={"eliminated": {"DE": 4, "US": 2}})
    pts, _lines = av.final_points(sc, b, st)
    assert pts == {"US": 4, "DE": 10}


def test_13_3_the_tally_is_taken_as_given() -> None:
    """The engineer destroyed twice counts twice [13.3, 17.12.1]: the caller's tally is used."""
    sc = _sc(units=[unit("xxx", "US"), unit("g", "DE")])
    b, st = _board(sc, {"xxx": "0101", "g": "1010"}, exclusive={"eliminated": {"DE": 4, "US": 2}})
    pts, _lines = av.final_points(sc, b, st, eliminated={"US": 3, "DE": 0})
    assert pts == {"US": 0, "DE": 15}


# -- [17.4] levels -------------------------------------------------------------------------------

@pytest.mark.parametrize(("german", "allied", "level"), [
    (300, 100, "German Strategic"), (3000, 1, "German Strategic"),
    (2995, 1000, "German Strategic"),  # 2.995 rounds to 3.00
    (2994, 1000, "German Tactical"), (299, 100, "German Tactical"), (201, 100, "German Tactical"),
    (2005, 1000, "German Tactical"),  # 2.005 rounds to 2.01
    (2004, 1000, "Draw"), (200, 100, "Draw"), (2, 1, "Draw"),
    (1995, 1000, "Draw"),  # 1.995 rounds to 2.00
    (1994, 1000, "Allied Tactical"), (199, 100, "Allied Tactical"), (101, 100, "Allied Tactical"),
    (1005, 1000, "Allied Tactical"),  # 1.005 rounds to 1.01
    (1004, 1000, "Allied Strategic"), (100, 100, "Allied Strategic"),
    (50, 100, "Allied Strategic"), (0, 100, "Allied Strategic"),
    (5, 0, "German Strategic"), (0, 0, "Draw"),
])
def test_17_4_westwall_2_rounded_the_ratio_to_two_decimals(german: int, allied: int, level: str) -> None:
    """The boundaries under westwall/2 (kept for its games); westwall/3 compares exactly
    (test_spi_arnhem_17_4.py)."""
    got, winner = av.victory_level(german, allied, exact=False)
    assert got.startswith(level)
    assert winner == {"German": "german", "Allied": "allied", "Draw": None}[level.split()[0]]


def test_17_4_the_winner_is_named_by_the_side_ids_given() -> None:
    assert av.victory_level(7, 2, german_side="DE", allied_side="AL") == (
        "German Strategic Victory", "DE")
    assert av.victory_level(3, 2, german_side="DE", allied_side="AL") == (
        "Allied Tactical Victory", "AL")
    assert av.victory_level(4, 2, german_side="DE", allied_side="AL") == ("Draw", None)


# -- [17.35, 27] who cut the line, and every unit named -----------------------------------------


def test_27_17_33_the_enemy_that_cuts_a_line_is_named() -> None:
    """The lane of test_17_33_enemy_zones_block...: the German at 0205 holds 0105 and 0106 in its
    zone, so xxx at 0110 has no line; were g not there, the line would run up column 01 and g's
    zone is the first thing it meets, at 0106. `pbem units` says so."""
    from pbem.systems.westwall.presenter import roster

    sc = _sc(cols=(1, 2), units=[unit("xxx", "US"), unit("g", "DE")])
    b, st = _board(sc, {"xxx": "0110", "g": "0205"})
    assert av.loc_cut_by(sc, b, st, "xxx") == (["g"], Hex.parse("0106"))
    _head, rows = roster(sc, st, "US")
    notes = next(r[-1] for r in rows if r[0] == "xxx")
    assert "no line of communication now: cut by g at 0106 (3 German points if still so at the end of " \
           "the game-turn) [17.35]" in notes
    # at 0201 g holds 0102 and the exit hex 0101 (test_17_33_an_enemy_zone_on_the_exit_hex...):
    # the line up column 01 meets 0102 first
    b2, st2 = _board(sc, {"xxx": "0110", "g": "0201"})
    assert not av.has_loc(sc, b2, st2, "xxx") and av.loc_cut_by(sc, b2, st2, "xxx") == (["g"], Hex.parse("0102"))


def test_27_17_35_the_note_names_every_unit_cut_off_from_westwall_3() -> None:
    """Nine U.S. units in a column, a German zone across the exit: all nine are cut off. westwall/3
    names them all; westwall/2's note named eight and '...' (its turn files keep that)."""
    sc2 = _sc(cols=(1, 2), units=[*[unit(f"u{i}", "US") for i in range(1, 10)], unit("g", "DE")])
    b, st = _board(sc2, {**{f"u{i}": f"01{i + 1:02d}" for i in range(1, 10)}, "g": "0201"})
    pts, lines = av.turn_points(sc2, b, st)
    assert pts["DE"] == 27
    assert lines[0] == ("9 Allied units without a line of communication (u1, u2, u3, u4, u5, u6, u7, u8, "
                        "u9): 27 points to the German player [17.12, 17.35]")
    _pts, old = av.turn_points(sc2, b, st, name_all=False)
    assert old[0].startswith("9 Allied units without a line of communication (u1, u2, u3, u4, u5, u6, u7, "
                             "u8...): 27 points")


# -- [28] the lines of every unit in one search: the same answers as unit by unit ----------------


def test_28_loc_holders_agrees_with_has_loc_unit_by_unit_on_the_real_map() -> None:
    """The backward searches (one for all ground lines, one per drop-zone counter) give, unit by
    unit, the answer of the forward search :func:`has_loc` makes for one unit: on the bundled
    Arnhem map, 12 positions with units of both sides scattered at random (a seeded generator)
    and drop zones placed; over them both answers occur many times, for both kinds of line."""
    import random

    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.scenarios import load_data

    rules = get_ruleset("westwall")
    sc = rules.load_scenario(load_data("arnhem-historical"))
    allied = av._sides(sc)[0]
    hexes = sorted(sc.map.all_hexes())
    divisions = sorted({u.formation for u in sc.units if u.type in av.AIRBORNE and u.formation})
    seen: dict[tuple[str | None, bool], int] = {}
    for seed in range(12):
        rng = random.Random(seed)
        units = [u.id for u in sc.units]
        rng.shuffle(units)
        placed = {uid: str(h) for uid, h in zip(units[: len(units) * 2 // 3], rng.sample(hexes, len(units)),
                                               strict=False)}
        st = state_with(sc, placed, phasing=allied)
        st = st.replace(**{"exclusive": {"dz": {d: str(rng.choice(hexes)) for d in divisions}}})
        b = Board.from_state(sc, st)
        expected = {uid for uid in b.units_of(allied) if av.has_loc(sc, b, st, uid)}
        assert av.loc_holders(sc, b, st) == expected, seed
        for uid in b.units_of(allied):
            key = (av.needs_loc(sc.unit[uid], allied), uid in expected)
            seen[key] = seen.get(key, 0) + 1
    assert all(seen.get((kind, ok), 0) >= 3 for kind in ("ground", "airborne") for ok in (True, False)), seen


def test_28_loc_holders_agrees_with_has_loc_with_bridges_down_and_up_again() -> None:
    """The steps a line may take into each hex [17.34] are worked out once per set of demolished
    bridges [12.13] and kept with the scenario: with bridges down, up again, and down in another
    set, the backward searches still give unit by unit the answer of :func:`has_loc`, which reads
    the board's own hexsides; and demolishing bridges changes some unit's answer (so the test can
    tell a table of the wrong set of bridges)."""
    import random

    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.scenarios import load_data

    rules = get_ruleset("westwall")
    sc = rules.load_scenario(load_data("arnhem-historical"))
    allied = av._sides(sc)[0]
    hexes = sorted(sc.map.all_hexes())
    bridges = sorted(side for side in sc.map.hexside_features if Board.from_state(
        sc, state_with(sc, {}, phasing=allied)).crossing(*side).bridge)
    assert len(bridges) >= 6
    divisions = sorted({u.formation for u in sc.units if u.type in av.AIRBORNE and u.formation})
    changed = 0
    for seed in range(8):
        rng = random.Random(seed)
        units = [u.id for u in sc.units]
        rng.shuffle(units)
        placed = {uid: str(h) for uid, h in zip(units[: len(units) * 2 // 3], rng.sample(hexes, len(units)),
                                               strict=False)}
        st = state_with(sc, placed, phasing=allied)
        st = st.replace(**{"exclusive": {"dz": {d: str(rng.choice(hexes)) for d in divisions}}})
        # every other seed: all bridges down, then some of them up again
        down = bridges if seed % 2 else rng.sample(bridges, len(bridges) // 2)
        intact = Board.from_state(sc, st)
        before = {uid for uid in intact.units_of(allied) if av.has_loc(sc, intact, st, uid)}
        assert av.loc_holders(sc, intact, st) == before, seed
        b = Board.from_state(sc, st)
        for a, c in down:
            b.demolish(a, c)
        expected = {uid for uid in b.units_of(allied) if av.has_loc(sc, b, st, uid)}
        assert av.loc_holders(sc, b, st) == expected, seed
        changed += expected != before
        for a, c in down[::2]:
            b.repair(a, c)
        expected = {uid for uid in b.units_of(allied) if av.has_loc(sc, b, st, uid)}
        assert av.loc_holders(sc, b, st) == expected, seed
    assert changed >= 2


def test_28_the_ground_search_stops_once_the_states_asked_about_are_reached() -> None:
    """The backward ground search may stop when it has reached every state it is asked about:
    each one asked about is found exactly when the whole search finds it, one at a time (so the
    search stops early for those it reaches) and all together; on the bundled map with units of
    both sides scattered at random (a seeded generator)."""
    import random

    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.arnhem import special_of

    rules = get_ruleset("westwall")
    sc = rules.load_scenario(load_data("arnhem-historical"))
    allied = av._sides(sc)[0]
    hexes = sorted(sc.map.all_hexes())
    exits = special_of(sc).loc_hexes
    stopped = 0
    for seed in range(4):
        rng = random.Random(seed)
        units = [u.id for u in sc.units]
        rng.shuffle(units)
        placed = {uid: str(h) for uid, h in zip(units[: len(units) // 2], rng.sample(hexes, len(units)),
                                               strict=False)}
        b = Board.from_state(sc, state_with(sc, placed, phasing=allied))
        closed = av._closed_hexes(b, allied)
        whole = av._ground_reaching(b, allied, exits, closed)
        asked = {(h, m) for h in rng.sample(hexes, 40) for m in (0, 1, 2)}
        found = av._ground_reaching(b, allied, exits, closed, set(asked))
        assert {s for s in asked if s in found} == asked & whole, seed
        for state in sorted(asked)[:30]:
            one = av._ground_reaching(b, allied, exits, closed, {state})
            assert (state in one) == (state in whole), (seed, state)
            stopped += len(one) < len(whole)
    assert stopped >= 10  # the early stop is exercised


def test_28_closed_hexes_are_the_hexes_the_step_test_refuses_on_the_real_map() -> None:
    """:func:`_closed_hexes` works from the enemy hexes and the zones they cast; it names exactly
    the on-map hexes that :func:`_open`'s test of the hex entered refuses [17.33] (an enemy unit
    in it, or an enemy zone of control and no friendly unit), hex by hex over the whole bundled
    map, for either side, with units of both sides scattered at random (a seeded generator)."""
    import random

    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.scenarios import load_data

    rules = get_ruleset("westwall")
    sc = rules.load_scenario(load_data("arnhem-historical"))
    hexes = sorted(sc.map.all_hexes())
    sizes = set()
    for seed in range(6):
        rng = random.Random(seed)
        units = [u.id for u in sc.units]
        rng.shuffle(units)
        placed = {uid: str(h) for uid, h in zip(units[: len(units) * 2 // 3], rng.sample(hexes, len(units)),
                                               strict=False)}
        b = Board.from_state(sc, state_with(sc, placed, phasing=av._sides(sc)[0]))
        for side in sc.side_ids():
            expected = {h for h in hexes if b.enemy_at(h, side) is not None
                        or (not any(b.side_of(x) == side for x in b.occupants(h)) and b.enemy_zoc(h, side))}
            got = av._closed_hexes(b, side)
            assert got == expected, (seed, side)
            sizes.add(len(got))
    assert min(sizes) > 20  # enemies and their zones are on the map in every case


def test_28_final_points_without_a_board_are_those_with_one() -> None:
    """:func:`score` and :func:`describe` hand :func:`final_points` no board: it makes one only when
    an Allied ground unit stands north of the Neder Rijn [17.11]. Points and lines equal those
    worked out on the board of the same state, on the bundled map, with units of both sides
    scattered at random (a seeded generator): positions with and without such a unit, and some
    where such a unit scores (traces its line)."""
    import random

    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.scenarios import load_data

    rules = get_ruleset("westwall")
    sc = rules.load_scenario(load_data("arnhem-historical"))
    allied = av._sides(sc)[0]
    hexes = sorted(sc.map.all_hexes())
    north = av._north(sc, "neder_rijn")
    kinds = {"none north": 0, "north": 0, "scores": 0}
    for seed in range(30):
        rng = random.Random(seed)
        units = [u.id for u in sc.units]
        rng.shuffle(units)
        share = rng.choice((8, 3, 1))  # few units (often none north) to most of them
        placed = {uid: str(h) for uid, h in zip(units[: len(units) // share], rng.sample(hexes, len(units)),
                                               strict=False)}
        st = state_with(sc, placed, phasing=allied)
        b = Board.from_state(sc, st)
        assert av.final_points(sc, None, st) == av.final_points(sc, b, st), seed
        ground_north = [u for u in b.units_of(allied) if sc.unit[u].type not in av.AIRBORNE and b.unit_hex(u) in north]
        kinds["north" if ground_north else "none north"] += 1
        kinds["scores"] += bool(av._ground_north_with_loc(sc, b, st, "neder_rijn"))
    assert all(n >= 2 for n in kinds.values()), kinds
