"""Board: terrain costs, hexside crossings and zones of control on tiny hand-made maps.

Geometry reminder (SPI numbering, even columns half a hex lower): 0303's neighbours are 0302 (N),
0402 (NE), 0403 (SE), 0304 (S), 0203 (SW), 0202 (NW). Costs are in half Movement Points.
"""

from __future__ import annotations

from helpers.westwall import state_with, tiny_scenario, unit

from pbem.maps.hexmap import Hex
from pbem.protocol.record import json_schema
from pbem.systems.westwall.board import Board, better_line, default_terrain_key, geometry

H = Hex.parse


def board_for(**kw: object) -> Board:
    positions = kw.pop("positions", {})
    sc = tiny_scenario(**kw)  # type: ignore[arg-type]
    return Board.from_state(sc, state_with(sc, positions))  # type: ignore[arg-type]


INF = unit("i", "DE", "infantry", 2, 4, 7)
ARM = unit("a", "DE", "armor", 6, 4, 12)


def test_default_terrain_key_has_every_kind_and_is_documented() -> None:
    key = default_terrain_key()
    assert set(key.hexes) == {
        "clear",
        "mixed",
        "grove",
        "town",
        "broken",
        "woods",
        "rough",
        "city",
        "lake",
    }
    assert set(key.hexsides) >= {
        "stream",
        "river",
        "canal",
        "road",
        "trail",
        "bridge",
        "rail-bridge",
        "ferry",
        "destroyed-bridge",
    }
    assert "RECONSTRUCTION" in key.note
    # [5.21] one MP (two halves) for clear; [5.22] road 1/2 MP; [5.23] trail 1 MP.
    assert key.hexes["clear"].mp_halves == 2
    assert (key.road_mp_halves, key.trail_mp_halves) == (1, 2)


def test_5_21_clear_and_terrain_costs() -> None:
    b = board_for(terrain={"woods": ["0302"], "rough": ["0304"], "broken": ["0402"]})
    assert b.enter_cost(INF, H("0303"), H("0203")) == 2  # clear: 1 MP
    assert b.enter_cost(INF, H("0303"), H("0302")) == 6  # woods: 3 MP
    assert b.enter_cost(INF, H("0303"), H("0304")) == 8  # rough: 4 MP
    assert b.enter_cost(INF, H("0303"), H("0402")) == 4  # broken: 2 MP


def test_5_21_hexside_cost_is_added_to_hex_cost() -> None:
    # Stream adds 1 MP to the 3 MP of woods: 2 + 6 = 8 halves. River adds 2 MP to clear: 4 + 2.
    b = board_for(
        terrain={"woods": ["0302"]},
        lines=[("stream", ["0302/0303"]), ("river", ["0303/0304"])],
    )
    assert b.enter_cost(INF, H("0303"), H("0302")) == 8
    assert b.enter_cost(INF, H("0303"), H("0304")) == 6


def test_5_22_road_costs_half_a_point_regardless_of_terrain() -> None:
    # Road 0301-0302-0303 through woods: each step along the road costs 1 half-point.
    b = board_for(terrain={"woods": ["0302", "0303"]}, routes=[("road", ["0301", "0302", "0303"])])
    assert b.enter_cost(INF, H("0301"), H("0302")) == 1
    assert b.enter_cost(INF, H("0302"), H("0303")) == 1
    # Leaving the road into woods pays the woods cost (0302 -> 0202 is not a road hexside).
    assert b.enter_cost(INF, H("0302"), H("0202")) == 2  # 0202 is clear
    assert b.enter_cost(INF, H("0303"), H("0304")) == 2


def test_5_22_road_requires_a_road_hexside_not_just_two_road_hexes() -> None:
    # Two roads pass through 0302 and 0402 but do not connect across their common hexside.
    b = board_for(
        terrain={"woods": ["0402"]},
        routes=[("road", ["0301", "0302"]), ("road", ["0401", "0402"])],
    )
    assert b.enter_cost(INF, H("0302"), H("0402")) == 6  # woods cost, not road


def test_5_23_trail_costs_one_point() -> None:
    b = board_for(terrain={"rough": ["0302"]}, routes=[("trail", ["0301", "0302"])])
    assert b.enter_cost(INF, H("0301"), H("0302")) == 2
    assert b.enter_cost(ARM, H("0301"), H("0302")) == 2  # [5.24] lifted along the trail


def test_5_24_mech_blocked_by_woods_unless_on_road() -> None:
    b = board_for(terrain={"woods": ["0302", "0304"]}, routes=[("road", ["0301", "0302"])])
    cost, why = b.enter_check(ARM, H("0303"), H("0304"))
    assert cost is None and why is not None and why.rule == "5.24"
    assert str(why) == "a (armor) cannot enter woods hex 0304 except along a road or trail [5.24]"
    assert b.enter_cost(ARM, H("0301"), H("0302")) == 1  # along the road
    cost, why = b.enter_check(ARM, H("0303"), H("0302"))  # into the same woods hex off the road
    assert cost is None and why is not None and why.rule == "5.24"
    assert b.enter_cost(INF, H("0303"), H("0304")) == 6  # infantry may


def test_5_24_mech_cannot_cross_stream_or_river_except_by_bridge() -> None:
    b = board_for(
        lines=[("stream", ["0302/0303"]), ("river", ["0303/0304", "0203/0204"])],
        routes=[("road", ["0203", "0204"])],
    )
    for a, c in (("0303", "0302"), ("0303", "0304")):
        why = b.crossing_prohibited_for(ARM, H(a), H(c))
        assert why is not None and why.rule == "5.24"
    assert b.crossing_prohibited_for(INF, H("0303"), H("0302")) is None
    # Road over the river at 0203/0204 is a bridge: road rate, no crossing cost.
    assert b.enter_cost(ARM, H("0203"), H("0204")) == 1


def test_lake_is_closed_to_all() -> None:
    b = board_for(terrain={"lake": ["0302"]})
    cost, why = b.enter_check(INF, H("0303"), H("0302"))
    assert cost is None and why is not None and why.rule == "5.21"


def test_off_map_and_not_adjacent() -> None:
    b = board_for(cols=(1, 3), rows=(1, 3))
    assert b.enter_check(INF, H("0303"), H("0304"))[1] is not None  # row 4 is off a 3-row map
    assert b.enter_check(INF, H("0101"), H("0103"))[1] is not None  # not adjacent


def test_6_0_zoc_covers_all_six_neighbours() -> None:
    sc = tiny_scenario(units=[unit("e", "US"), INF])
    b = Board.from_state(sc, state_with(sc, {"e": "0303"}))
    zoc = {str(h) for h in geometry(sc).hexes if b.enemy_zoc(h, "DE")}
    assert zoc == {"0302", "0402", "0403", "0304", "0203", "0202"}
    assert b.zoc_sources(H("0302"), "DE") == ["e"]
    assert not b.enemy_zoc(H("0302"), "US")  # own units never control against their side [6.21]


def test_6_33_river_blocks_zoc_stream_and_bridge_do_not() -> None:
    sc = tiny_scenario(
        units=[unit("e", "US"), INF],
        lines=[("river", ["0302/0303", "0303/0304"]), ("stream", ["0203/0303"])],
        routes=[("road", ["0303", "0304"])],
    )
    b = Board.from_state(sc, state_with(sc, {"e": "0303"}))
    assert not b.enemy_zoc(H("0302"), "DE")  # non-bridge river
    assert b.enemy_zoc(H("0304"), "DE")  # the road makes 0303/0304 a bridge
    assert b.enemy_zoc(H("0203"), "DE")  # streams never block ZOC


def test_6_33_ferry_is_not_a_bridge_and_destroyed_bridge_cuts_the_road() -> None:
    sc = tiny_scenario(
        units=[unit("e", "US"), INF],
        lines=[
            ("river", ["0302/0303", "0303/0304"]),
            ("ferry", ["0302/0303"]),
            ("destroyed-bridge", ["0303/0304"]),
        ],
        routes=[("road", ["0302", "0303", "0304"])],
    )
    b = Board.from_state(sc, state_with(sc, {"e": "0303"}))
    assert not b.enemy_zoc(H("0302"), "DE")
    assert not b.enemy_zoc(H("0304"), "DE")
    # Ferry: the road still runs across, so the road rate applies; destroyed bridge: river crossing.
    assert b.crossing(H("0302"), H("0303")).route == "road"
    assert b.crossing(H("0303"), H("0304")).route is None
    assert b.enter_cost(INF, H("0303"), H("0304")) == 2 + 4


def test_6_31_zoc_does_not_extend_into_a_lake() -> None:
    sc = tiny_scenario(units=[unit("e", "US"), INF], terrain={"lake": ["0302"]})
    b = Board.from_state(sc, state_with(sc, {"e": "0303"}))
    assert not b.enemy_zoc(H("0302"), "DE")
    assert b.enemy_zoc(H("0304"), "DE")


def test_crossing_crt_lines() -> None:
    sc = tiny_scenario(
        lines=[("stream", ["0302/0303", "0303/0304"])], routes=[("road", ["0303", "0304"])]
    )
    b = Board.from_state(sc, state_with(sc, {}))
    stream = b.crossing(H("0302"), H("0303"))
    assert stream.stream and stream.crt == "broken" and not stream.bridge
    bridge = b.crossing(H("0303"), H("0304"))
    assert bridge.bridge and bridge.crt == "grove" and not bridge.stream
    assert better_line("grove", "broken") == "broken"
    assert better_line(None, "clear") == "clear"


def test_positions_move_eliminate_exit_and_to_state() -> None:
    sc = tiny_scenario(units=[INF, unit("e", "US")], special={"control_hexes": ["0305"]})
    st = state_with(sc, {"i": "0303", "e": "0606"})
    b = Board.from_state(sc, st)
    assert b.unit_hex("i") == H("0303") and b.occupant(H("0303")) == "i"
    assert b.units_of("DE") == ["i"] and b.units_of("US") == ["e"]
    b.move_unit("i", H("0304"))
    b.move_unit("i", H("0305"))
    assert b.control == {"0305": "DE"}
    b.move_unit("e", H("0305"))  # transient sharing is allowed
    assert b.occupants(H("0305")) == ["i", "e"] and b.stacked_hexes() == {H("0305"): ["e", "i"]}
    b.eliminate("e")
    b.exit_unit("i", "south", 2)
    new = b.to_state(st)
    assert new.units["e"].status == "eliminated" and new.units["e"].hex is None
    assert new.units["i"].status == "exited" and new.units["i"].exit_edge == "south"
    assert new.control == {"0305": "US"}
    # The source state is untouched.
    assert st.units["i"].hex == "0303" and st.control == {}


def test_geometry_is_kept_with_its_scenario_object_and_no_copy_reads_it() -> None:
    """No process-wide memo keyed by id(): the geometry goes with the scenario object, is no part
    of its value, and a copy (perhaps with other fields) works out its own [24]."""
    import copy

    sc = tiny_scenario(units=[INF])
    geo = geometry(sc)
    assert geometry(sc) is geo and geo.scenario is sc
    assert sc == tiny_scenario(units=[INF])  # a memo does not change what a scenario equals
    assert "_memo" not in sc.to_json() and "_memo" not in json_schema(type(sc))["properties"]
    bigger = sc.replace(map=sc.map.replace(cols=(1, 9)))
    assert geometry(bigger) is not geo and geometry(bigger).scenario is bigger
    assert geometry(sc) is geo  # the original keeps its own
    import pickle

    for other in (copy.copy(sc), copy.deepcopy(sc), pickle.loads(pickle.dumps(sc))):
        assert geometry(other) is not geo and geometry(other).scenario is other
    assert geometry(sc) is geo


def test_28_geometries_of_a_scenario_share_what_bridges_do_not_change() -> None:
    """Every geometry of a scenario (one per set of demolished bridges, Arnhem [12.13]) shares the
    tables that depend on the map alone, and those give what the plain definitions give: on the
    bundled Bastogne and Arnhem maps, each hex's neighbours are :meth:`Hex.neighbours` on the map,
    in that order; its terrain kind is the map's; while the zones of control [6.33] stay each
    geometry's own (a demolished bridge leaves the water to block them)."""
    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.scenarios import load_data

    rules = get_ruleset("westwall")
    for name in ("bastogne-campaign", "arnhem-historical"):
        sc = rules.load_scenario(load_data(name))
        geo = geometry(sc)
        hexes = set(sc.map.all_hexes())
        assert geo.hexes == hexes
        for h in sorted(hexes):
            assert geo.neighbours[h] == tuple(n for n in h.neighbours() if n in hexes), (name, h)
            assert geo.terrain_kind[h] == sc.map.terrain_of(h)
        bridges = sorted(s for s in sc.map.hexside_features if geo.crossing(*s).bridge)
        assert bridges, name
        down = geometry(sc, frozenset(bridges))
        assert down is not geo and down.neighbours is geo.neighbours and down.terrain is geo.terrain
        a, b = bridges[0]
        assert not geo.crossing(a, b).water and down.crossing(a, b).water
        assert down.zoc_from is not geo.zoc_from
