"""Movement Phase [5.0, 6.0, 12.0] on tiny maps; costs worked out by hand in half-points.

Clear hexes cost 2 halves (1 MP), road steps 1 half [5.22], trail 2 [5.23]. Column 3 hexes 0301..0308
form a straight N-S line (vertically adjacent), which keeps hand computation easy.
"""

from __future__ import annotations

import pytest
from helpers.westwall import state_with, tiny_scenario, unit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.errors import InputError, RuleViolation
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Exclusive
from pbem.systems.westwall.model import MoveOrder
from pbem.systems.westwall.movement import (
    apply_moves,
    cheapest_path,
    exit_options,
    fmt_mp,
    reachable,
    validate_moves,
    walk_moves,
)

H = Hex.parse


def mv(uid: str, *path: str, exit: bool = False) -> MoveOrder:
    return MoveOrder(unit=uid, path=list(path), exit=exit)


def setup(positions: dict[str, str], units: list, **kw: object) -> Board:  # type: ignore[type-arg]
    sc = tiny_scenario(units=units, **kw)  # type: ignore[arg-type]
    return Board.from_state(sc, state_with(sc, positions))


def rules_of(vs: list[RuleViolation]) -> list[str]:
    return [v.rule for v in vs]


def test_fmt_mp() -> None:
    assert [fmt_mp(x) for x in (0, 1, 2, 7)] == ["0", "½", "1", "3½"]


def test_5_22_three_road_hexes_cost_three_halves() -> None:
    # Road 0301..0304: entering 0302, 0303, 0304 along the road = 1 + 1 + 1 = 3 half-points.
    b = setup(
        {"i": "0301"},
        [unit("i", "DE", move=2)],
        routes=[("road", ["0301", "0302", "0303", "0304"])],
    )
    plan = walk_moves(b, "DE", 1, [mv("i", "0302", "0303", "0304")])
    assert plan.violations == []
    assert plan.events[0].mp_halves == 3
    assert plan.events[0].path == ["0301", "0302", "0303", "0304"]
    assert b.unit_hex("i") == H("0304")


def test_5_25_four_mp_unit_cannot_enter_rough_after_spending_one() -> None:
    # 4 MP = 8 halves. 0302 clear costs 2; 0303 rough costs 8 > 6 left.
    b = setup({"i": "0301"}, [unit("i", "DE", move=4)], terrain={"rough": ["0303"]})
    vs = validate_moves(b, "DE", 1, [mv("i", "0302", "0303")])
    assert rules_of(vs) == ["5.25"]
    assert str(vs[0]) == "i cannot enter 0303: it costs 4 MP and only 3 of its 4 MP are left [5.25]"
    # From the start it has all 8 halves: rough alone is allowed.
    b2 = setup({"i": "0302"}, [unit("i", "DE", move=4)], terrain={"rough": ["0303"]})
    assert validate_moves(b2, "DE", 1, [mv("i", "0303")]) == []


def test_5_13_allowance_is_the_limit() -> None:
    # 3 MP: three clear hexes (6 halves) fine, a fourth is not.
    b = setup({"i": "0301"}, [unit("i", "DE", move=3)])
    assert validate_moves(b, "DE", 1, [mv("i", "0302", "0303", "0304")]) == []
    assert rules_of(validate_moves(b, "DE", 1, [mv("i", "0302", "0303", "0304", "0305")])) == [
        "5.25"
    ]


def test_5_12_cannot_enter_enemy_hex() -> None:
    # Every hex next to an enemy is controlled, so [5.12] shows when a river blocks the ZOC [6.33]:
    # i at 0301 is not controlled by e at 0302 across the river and tries to walk into e's hex.
    b = setup(
        {"i": "0301", "e": "0302"},
        [unit("i", "DE"), unit("e", "US")],
        lines=[("river", ["0301/0302"])],
    )
    vs = validate_moves(b, "DE", 1, [mv("i", "0302")])
    assert rules_of(vs) == ["5.12"]
    assert str(vs[0]) == "i cannot enter 0302: enemy unit e is there [5.12]"
    # Without the river, i starts in e's zone of control and cannot move at all [5.14].
    b2 = setup({"i": "0301", "e": "0302"}, [unit("i", "DE"), unit("e", "US")])
    assert rules_of(validate_moves(b2, "DE", 1, [mv("i", "0302")])) == ["5.14"]


def test_5_14_unit_starting_in_enemy_zoc_cannot_move() -> None:
    b = setup({"i": "0302", "e": "0303"}, [unit("i", "DE"), unit("e", "US")])
    vs = validate_moves(b, "DE", 1, [mv("i", "0301")])
    assert rules_of(vs) == ["5.14"]
    assert str(vs[0]) == "i cannot leave 0302: it starts in an enemy zone of control (of e) [5.14]"


def test_6_0_entering_enemy_zoc_ends_movement() -> None:
    b = setup({"i": "0301", "e": "0304"}, [unit("i", "DE"), unit("e", "US")])
    assert validate_moves(b, "DE", 1, [mv("i", "0302", "0303")]) == []  # stops in ZOC: fine
    vs = validate_moves(b, "DE", 1, [mv("i", "0302", "0303", "0203")])
    assert rules_of(vs) == ["6.0"] and vs[0].hex == "0303"


def test_6_33_river_blocks_zoc_so_movement_continues() -> None:
    # e at 0304 with a river on 0303/0304: i at 0303 is not controlled, so it may leave freely.
    b = setup(
        {"i": "0303", "e": "0304"},
        [unit("i", "DE"), unit("e", "US")],
        lines=[("river", ["0303/0304"])],
    )
    assert not b.enemy_zoc(H("0303"), "DE")
    assert validate_moves(b, "DE", 1, [mv("i", "0302", "0301")]) == []


def test_5_24_mech_blocked_by_woods_unless_on_road() -> None:
    b = setup(
        {"a": "0301", "b": "0501"},
        [unit("a", "DE", "armor", 6, 4, 12), unit("b", "DE", "armor", 6, 4, 12)],
        terrain={"woods": ["0302", "0502"]},
        routes=[("road", ["0301", "0302", "0303"])],
    )
    assert validate_moves(b, "DE", 1, [mv("a", "0302", "0303")]) == []
    vs = validate_moves(b, "DE", 1, [mv("b", "0502")])
    assert rules_of(vs) == ["5.24"]


def test_5_31_no_stacking_at_end_but_passing_through_is_fine() -> None:
    b = setup({"i": "0301", "j": "0302"}, [unit("i", "DE"), unit("j", "DE")])
    assert validate_moves(b, "DE", 1, [mv("i", "0302", "0303")]) == []
    vs = validate_moves(b, "DE", 1, [mv("i", "0302")])
    assert rules_of(vs) == ["5.31"] and vs[0].hex == "0302"
    # Moving j away first makes room [5.15: units move one at a time, in order].
    assert validate_moves(b, "DE", 1, [mv("j", "0303"), mv("i", "0302")]) == []


def test_5_15_each_unit_moves_once_and_5_11_only_own_units() -> None:
    b = setup({"i": "0301", "e": "0308"}, [unit("i", "DE"), unit("e", "US")])
    vs = validate_moves(b, "DE", 1, [mv("i", "0302"), mv("i", "0303"), mv("e", "0307")])
    assert rules_of(vs) == ["5.15", "5.11"]


def test_off_map_and_non_adjacent_steps() -> None:
    b = setup({"i": "0301"}, [unit("i", "DE")], cols=(1, 3), rows=(1, 3))
    assert rules_of(validate_moves(b, "DE", 1, [mv("i", "0303", "0304")])) == ["5.0"]
    assert rules_of(validate_moves(b, "DE", 1, [mv("i", "0302", "0304")])) == ["5.0"]


def test_unknown_unit_is_input_error() -> None:
    b = setup({"i": "0301"}, [unit("i", "DE")])
    with pytest.raises(InputError):
        validate_moves(b, "DE", 1, [mv("zz", "0302")])


def test_eliminated_unit_cannot_move() -> None:
    sc = tiny_scenario(units=[unit("i", "DE")])
    b = Board.from_state(sc, state_with(sc, {}, eliminated=["i"]))
    assert rules_of(validate_moves(b, "DE", 1, [mv("i", "0302")])) == ["5.0"]


def test_every_violation_is_reported() -> None:
    # Three independent problems in one set of orders.
    b = setup(
        {"i": "0301", "j": "0501", "k": "0702", "e": "0703"},
        [unit("i", "DE", move=1), unit("j", "DE"), unit("k", "DE"), unit("e", "US")],
    )
    vs = validate_moves(
        b, "DE", 1, [mv("i", "0302", "0303"), mv("j", "0503", "0504"), mv("k", "0701")]
    )
    assert sorted(rules_of(vs)) == ["5.0", "5.14", "5.25"]


def test_validate_does_not_touch_the_board_and_apply_moves_does() -> None:
    sc = tiny_scenario(units=[unit("i", "DE")], special={"control_hexes": ["0302"]})
    st = state_with(sc, {"i": "0301"})
    b = Board.from_state(sc, st)
    validate_moves(b, "DE", 1, [mv("i", "0302", "0303")])
    assert b.unit_hex("i") == H("0301") and b.control == {}
    events = apply_moves(b, "DE", 1, [mv("i", "0302", "0303")])
    assert b.unit_hex("i") == H("0303")
    assert b.control == {"0302": "DE"}  # passed through an objective hex
    assert events[0].to_json() == {
        "type": "moved",
        "unit": "i",
        "path": ["0301", "0302", "0303"],
        "mp_halves": 4,
        "entered": False,
        "exited": False,
    }


def test_exclusive_movement_hook_is_consulted() -> None:
    class NoRow3(Exclusive):
        def movement_violations(self, scenario, board, unit_id, path):  # type: ignore[no-untyped-def]
            return [
                RuleViolation("99.1", f"{unit_id} may not enter {h}", unit_id, str(h))
                for h in path[1:]
                if h.row == 3
            ]

    b = setup({"i": "0301"}, [unit("i", "DE")])
    vs = validate_moves(b, "DE", 1, [mv("i", "0302", "0303")], exclusive=NoRow3())
    assert rules_of(vs) == ["99.1"]
    # The search honours it too: row 3 spans the map, so nothing at or beyond it is reachable.
    r = reachable(b, "i", 1, exclusive=NoRow3())
    assert all(h.row < 3 for h in r)


def test_reachable_and_cheapest_path_by_hand() -> None:
    # i (2 MP = 4 halves) at 0301 on a road 0301-0302-0303-0304-0305 and clear elsewhere.
    b = setup(
        {"i": "0301"},
        [unit("i", "DE", move=2)],
        routes=[("road", ["0301", "0302", "0303", "0304", "0305"])],
    )
    r = reachable(b, "i", 1)
    assert r[H("0301")] == 0 and r[H("0305")] == 4 and r[H("0303")] == 2
    assert H("0306") not in r  # 4 + 2 > 4
    assert r[H("0201")] == 2  # one clear hex off the road
    assert cheapest_path(b, "i", H("0305"), 1) == [H("0302"), H("0303"), H("0304"), H("0305")]
    assert cheapest_path(b, "i", H("0308"), 1) is None


def test_reachable_stops_in_enemy_zoc() -> None:
    b = setup({"i": "0301", "e": "0304"}, [unit("i", "DE", move=12), unit("e", "US")])
    r = reachable(b, "i", 1)
    assert H("0303") in r  # entered (controlled by e) ...
    assert H("0304") not in r  # ... enemy hex never
    # 0305 is reachable only around e, never through 0303 (where movement stops).
    path = cheapest_path(b, "i", H("0305"), 1)
    assert path is not None and H("0303") not in path[:-1]
    for a in [H("0301"), *path[:-1]]:
        assert a == H("0301") or not b.enemy_zoc(a, "DE")


# -- exits [12.0] ---------------------------------------------------------------------------------


def exit_board(**kw: object) -> Board:
    return setup(
        {"i": "0102", "a": "0105"},
        [unit("i", "DE", move=2), unit("a", "DE", "armor", 6, 4, 12)],
        exits=[{"side": "DE", "edges": ["west"]}],
        **kw,
    )


def test_12_0_exit_costs_an_imaginary_hex_like_the_last() -> None:
    # i (4 halves) at 0102 on the west edge, clear: exiting costs 2 halves.
    b = exit_board(terrain={"woods": ["0105"]}, routes=[("road", ["0105", "0205"], ["start"])])
    plan = walk_moves(b, "DE", 1, [mv("i", exit=True)])
    assert plan.violations == [] and plan.events[0].mp_halves == 2 and plan.events[0].exited
    assert b.status("i") == "exited" and b.units["i"].exit_edge == "west"
    # a (armour) in a woods hex where a road leads off the map: exits at the road rate, 1 half,
    # and [5.24] does not stop it.
    plan = walk_moves(b, "DE", 1, [mv("a", exit=True)])
    assert plan.violations == [] and plan.events[0].mp_halves == 1


def test_12_0_exit_needs_the_movement_points() -> None:
    # i (2 MP = 4 halves) stands in woods at 0102: the imaginary woods hex beyond costs 6 > 4.
    b = exit_board(terrain={"woods": ["0102"]})
    vs = validate_moves(b, "DE", 1, [mv("i", exit=True)])
    assert rules_of(vs) == ["12.0"]
    assert "needs 3 MP and has 2 of its 2 MP left" in vs[0].message


def test_12_0_exit_only_by_allowed_edge_and_never_return() -> None:
    b = exit_board()
    vs = validate_moves(b, "DE", 1, [mv("i", "0202", exit=True)])
    assert rules_of(vs) == ["12.0"]  # 0202 is not on the west edge
    sc = tiny_scenario(units=[unit("i", "DE")], exits=[{"side": "DE", "edges": ["west"]}])
    gone = Board.from_state(sc, state_with(sc, {}, exited=["i"]))
    assert rules_of(validate_moves(gone, "DE", 1, [mv("i", "0101")])) == ["12.11"]


def test_12_0_no_exit_rule_for_side() -> None:
    b = setup({"i": "0102"}, [unit("i", "US")])
    assert rules_of(validate_moves(b, "US", 1, [mv("i", exit=True)])) == ["12.0"]


def test_exit_options() -> None:
    b = exit_board()
    opts = dict(exit_options(b, "i", 1))
    # From 0102 (cost 0) exit costs 2; 0101 and 0103 cost 2 + 2 = 4 (allowance 4).
    assert opts[H("0102")] == 2 and opts[H("0101")] == 4 and opts[H("0103")] == 4
    assert H("0104") not in opts


# -- properties -----------------------------------------------------------------------------------

HEXES = [f"{c:02d}{r:02d}" for c in range(1, 6) for r in range(1, 6)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    starts=st.lists(st.sampled_from(HEXES), min_size=4, max_size=4, unique=True),
    walks=st.lists(st.lists(st.integers(0, 5), max_size=6), min_size=3, max_size=3),
    woods=st.sets(st.sampled_from(HEXES), max_size=6),
)
def test_property_legal_moves_never_stack_and_never_overspend(
    starts: list[str], walks: list[list[int]], woods: set[str]
) -> None:
    """Random walks (each step one of the six neighbour directions) so that many orders are legal:
    whenever the walk reports no violation, nobody ends stacked [5.31] and no unit spends more than
    its allowance [5.13]."""
    units = [unit("a", "DE", move=3), unit("b", "DE", "armor", 6, 4, 4), unit("c", "DE", move=2)]
    units.append(unit("e", "US"))
    sc = tiny_scenario(cols=(1, 5), rows=(1, 5), units=units, terrain={"woods": sorted(woods)})
    st_ = state_with(sc, dict(zip(["a", "b", "c", "e"], starts, strict=True)))
    board = Board.from_state(sc, st_)
    orders = []
    for uid, start, walk in zip(["a", "b", "c"], starts, walks, strict=False):
        h = H(start)
        path = []
        for d in walk:
            h = h.neighbours()[d]
            if h.col < 1 or h.row < 1:
                break  # not even a hex number; off-map hexes such as 0106 stay in
            path.append(str(h))
        orders.append(mv(uid, *path))
    plan = walk_moves(board, "DE", 1, orders)
    if plan.violations:
        return
    assert board.stacked_hexes() == {}
    for ev in plan.events:
        assert ev.mp_halves <= sc.unit[ev.unit].move_halves


@settings(max_examples=40, deadline=None)
@given(
    start=st.sampled_from(HEXES),
    enemy=st.sampled_from(HEXES),
    target=st.sampled_from(HEXES),
    rough=st.sets(st.sampled_from(HEXES), max_size=8),
)
def test_property_cheapest_path_is_legal_and_costs_what_reachable_says(
    start: str, enemy: str, target: str, rough: set[str]
) -> None:
    if start == enemy:
        return
    sc = tiny_scenario(
        cols=(1, 5),
        rows=(1, 5),
        units=[unit("a", "DE", move=4), unit("e", "US")],
        terrain={"rough": sorted(rough - {start, enemy})},
    )
    board = Board.from_state(sc, state_with(sc, {"a": start, "e": enemy}))
    path = cheapest_path(board, "a", H(target), 1)
    cost = reachable(board, "a", 1).get(H(target))
    if path is None:
        assert cost is None
        return
    assert cost is not None and cost <= 8
    if not path:
        return
    plan = walk_moves(board, "DE", 1, [MoveOrder(unit="a", path=[str(h) for h in path])])
    assert plan.violations == []
    assert plan.events[0].mp_halves == cost


# -- enumeration (pbem.systems.westwall.enumerate) ----------------------------------------------------------


def test_enumerate_destinations_are_vacant_and_each_move_order_is_legal() -> None:
    from pbem.systems.westwall.enumerate import legal_moves, move_order

    sc = tiny_scenario(
        cols=(1, 4),
        rows=(1, 4),
        units=[
            unit("i", "DE", move=1),
            unit("j", "DE", move=1),
            unit("r", "DE", move=1),
            unit("e", "US"),
        ],
        reinforcements=[
            {
                "side": "DE",
                "turn": 1,
                "units": ["r"],
                "entry": [{"hexes": ["0104"]}],
                "rule": "11.11",
            }
        ],
        exits=[{"side": "DE", "edges": ["north"]}],
    )
    st_ = state_with(sc, {"i": "0301", "j": "0302", "e": "0404"})
    opts = legal_moves(sc, st_)
    assert sorted(opts) == ["i", "j", "r"]
    # i (2 halves) at 0301 (neighbours on the map: 0401, 0302, 0201): its own hex, 0201 and 0401
    # (clear, 2 each); 0302 holds j.
    assert opts["i"].destinations == {H("0301"): 0, H("0201"): 2, H("0401"): 2}
    assert opts["i"].exits == [(H("0301"), 2)]
    assert opts["r"].destinations == {H("0104"): 2}
    board = Board.from_state(sc, st_)
    for o in opts.values():
        for h in o.destinations:
            assert validate_moves(board, "DE", 1, [move_order(o, h)]) == []
        for h, _c in o.exits:
            assert validate_moves(board, "DE", 1, [move_order(o, h, exit=True)]) == []
