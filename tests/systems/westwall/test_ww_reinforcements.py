"""Reinforcements [11.11-11.23] and areas, on an 0101-0808 map; costs by hand in half-points."""

from __future__ import annotations

from helpers.westwall import area, state_with, tiny_scenario, unit

from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.model import MoveOrder
from pbem.systems.westwall.movement import (
    area_hexes,
    cheapest_path,
    in_area,
    reachable,
    validate_moves,
    walk_moves,
)

H = Hex.parse


def mv(uid: str, *path: str) -> MoveOrder:
    return MoveOrder(unit=uid, path=list(path))


def scenario(**kw: object):  # type: ignore[no-untyped-def]
    units = kw.pop("units", [unit("r", "US", move=2), unit("e", "DE")])
    return tiny_scenario(
        units=units,  # type: ignore[arg-type]
        reinforcements=[
            {
                "side": "US",
                "turn": 2,
                "units": ["r"],
                "entry": [
                    area(edge="east", from_hex="0803", to_hex="0805", text="east edge 0803-0805")
                ],
                "rule": "15.14",
            }
        ],
        **kw,  # type: ignore[arg-type]
    )


def board(positions: dict[str, str], **kw: object) -> Board:
    sc = scenario(**kw)
    return Board.from_state(sc, state_with(sc, positions, phasing="US", game_turn=2))


def test_11_11_enters_through_a_scheduled_hex_paying_its_cost() -> None:
    # r (2 MP = 4 halves) enters at clear 0804 (2) and moves to clear 0704 (2): 4 in all.
    b = board({})
    plan = walk_moves(b, "US", 2, [mv("r", "0804", "0704")])
    assert plan.violations == []
    ev = plan.events[0]
    assert ev.entered and ev.path == ["0804", "0704"] and ev.mp_halves == 4
    assert b.unit_hex("r") == H("0704")


def test_11_11_wrong_entry_hex() -> None:
    vs = validate_moves(board({}), "US", 2, [mv("r", "0802")])
    assert [v.rule for v in vs] == ["11.11"]
    assert "east edge 0803-0805" in vs[0].message and "[15.14]" in vs[0].message


def test_11_11_terrain_restrictions_apply_to_entry_hexes() -> None:
    sc = scenario(
        units=[unit("r", "US", "armor", 5, 4, 12), unit("e", "DE")], terrain={"woods": ["0804"]}
    )
    b = Board.from_state(sc, state_with(sc, {}, phasing="US", game_turn=2))
    vs = validate_moves(b, "US", 2, [mv("r", "0804")])
    assert [v.rule for v in vs] == ["11.11"] and "[5.24]" in vs[0].message
    # Entering woods costs 6 halves: more than a 2-MP infantry unit has.
    b2 = board({}, terrain={"woods": ["0804"]})
    assert [v.rule for v in validate_moves(b2, "US", 2, [mv("r", "0804")])] == ["5.25"]


def test_11_12_road_leading_off_the_map_gives_the_road_rate() -> None:
    # Road from 0804 westward, leading off the map at 0804 ("start"). Woods at 0804 would cost 6,
    # but entry along the road costs 1; then 0704 (road) 1 and 0604 (road) 1: 3 halves in all.
    b = board(
        {},
        terrain={"woods": ["0804", "0704"]},
        routes=[("road", ["0804", "0704", "0604"], ["start"])],
    )
    plan = walk_moves(b, "US", 2, [mv("r", "0804", "0704", "0604")])
    assert plan.violations == [] and plan.events[0].mp_halves == 3


def test_11_21_cannot_enter_an_enemy_occupied_hex_but_may_enter_its_zoc() -> None:
    b = board({"e": "0804"})
    vs = validate_moves(b, "US", 2, [mv("r", "0804")])
    assert [v.rule for v in vs] == ["11.21"]
    assert str(vs[0]) == "r cannot enter at 0804: enemy unit e is there [11.21]"
    # 0805 is controlled by e: entering is allowed, continuing is not.
    assert validate_moves(b, "US", 2, [mv("r", "0805")]) == []
    assert [v.rule for v in validate_moves(b, "US", 2, [mv("r", "0805", "0705")])] == ["6.0"]


def test_11_22_too_early_or_withheld() -> None:
    sc = scenario()
    early = Board.from_state(sc, state_with(sc, {}, phasing="US", game_turn=1))
    vs = validate_moves(early, "US", 1, [mv("r", "0804")])
    assert [v.rule for v in vs] == ["11.0"] and "Game-Turn 2" in vs[0].message
    # Withheld on turn 2, entered on turn 3 through the same scheduled hexes [11.22].
    late = Board.from_state(sc, state_with(sc, {}, phasing="US", game_turn=3))
    assert validate_moves(late, "US", 3, [mv("r", "0803")]) == []
    assert validate_moves(late, "US", 3, []) == []


def test_11_13_several_units_may_enter_through_one_hex_but_not_stay_stacked() -> None:
    sc = tiny_scenario(
        units=[unit("r", "US", move=2), unit("s", "US", move=2)],
        reinforcements=[
            {
                "side": "US",
                "turn": 1,
                "units": ["r", "s"],
                "entry": [area(hexes=["0804"])],
                "rule": "15.14",
            }
        ],
    )
    b = Board.from_state(sc, state_with(sc, {}, phasing="US", game_turn=1))
    assert validate_moves(b, "US", 1, [mv("r", "0804", "0704"), mv("s", "0804")]) == []
    vs = validate_moves(b, "US", 1, [mv("r", "0804"), mv("s", "0804")])
    assert [v.rule for v in vs] == ["5.31"]


def test_reachable_and_cheapest_path_for_reinforcements() -> None:
    # r (4 halves) enters anywhere on 0803-0805 (2 each): reaches column 7 hexes at 4.
    b = board({})
    r = reachable(b, "r", 2)
    assert r[H("0803")] == 2 and r[H("0704")] == 4
    assert H("0604") not in r
    path = cheapest_path(b, "r", H("0704"), 2)
    assert path is not None and len(path) == 2 and path[-1] == H("0704")
    assert path[0] in {H("0803"), H("0804"), H("0805")} and path[0].is_adjacent(H("0704"))


def test_area_conditions() -> None:
    sc = tiny_scenario()
    # 15.12-style: anywhere except columns 7 and 8.
    a1 = area(exclude_cols=[7, 8])
    assert in_area(sc, a1, H("0606")) and not in_area(sc, a1, H("0706"))
    # 15.12-style: within two hexes of 0404 (inclusive): 0406 is two away, 0407 three.
    a2 = area(within=2, of=["0404"])
    assert in_area(sc, a2, H("0406")) and not in_area(sc, a2, H("0407"))
    # 15.23-style: more than two hexes from the south edge (row 8): rows 1-5 only.
    a3 = area(min_from_edge={"south": 2}, beyond=1, of=["0101"])
    assert in_area(sc, a3, H("0405")) and not in_area(sc, a3, H("0406"))
    assert not in_area(sc, a3, H("0102"))  # one hex from 0101
    # North edge from 0601 inclusive: 0601, 0701, 0801.
    a4 = area(edge="north", from_hex="0601")
    assert [str(h) for h in area_hexes(sc, [a4])] == ["0601", "0701", "0801"]
    assert not in_area(sc, area(hexes=["0909"]), H("0909"))  # off the map


def test_search_with_equal_cost_entry_and_step_is_deterministic() -> None:
    # Regression: 0803 costs 2 to enter directly, and also 1 + 1 via the road from entry hex 0804
    # (road leading off the map there [11.12]); both ties must be handled, the direct entry
    # (no predecessor) winning the tie.
    b = board({}, routes=[("road", ["0804", "0803"], ["start"])])
    assert reachable(b, "r", 2)[H("0803")] == 2
    assert cheapest_path(b, "r", H("0803"), 2) == [H("0803")]


def test_28_area_hexes_worked_out_once_are_the_areas_read_hex_by_hex() -> None:
    """``area_hexes`` keeps each area's hexes with the scenario (issue 28): for every deployment and
    entry area of every bundled WestWall scenario, and for areas made on the fly that differ from
    one another in one field only (kept apart), it gives every on-map hex :func:`in_area` accepts,
    sorted, asked once and again."""
    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.model import Area
    from pbem.systems.westwall.movement import area_hexes, in_area
    from pbem.systems.westwall.rules import WestWallRules

    rules = WestWallRules()
    for name in ("bastogne-spearhead", "bastogne-relief", "bastogne-campaign", "arnhem-historical",
                 "arnhem-historical-weather", "arnhem-alternate"):
        sc = rules.load_scenario(load_data(name))
        all_hexes = sorted(sc.map.all_hexes())
        areas = [a for d in sc.deployments for a in d.area] + [a for r in sc.reinforcements for a in r.entry]
        middle = str(all_hexes[len(all_hexes) // 2])
        areas += [Area(within=2, of=[middle]), Area(within=3, of=[middle]), Area(beyond=2, of=[middle]),
                  Area(edge="west"), Area(edge="east"), Area(edge="west", exclude_cols=[1])]
        assert len(areas) > 6
        for a in areas + areas:
            assert area_hexes(sc, [a]) == [h for h in all_hexes if in_area(sc, a, h)], (name, a)
        both = areas[-6:-4]
        assert area_hexes(sc, both) == [h for h in all_hexes if any(in_area(sc, a, h) for a in both)]
