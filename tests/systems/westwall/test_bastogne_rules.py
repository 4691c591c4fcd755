"""Bastogne exclusive rules on tiny hand-made maps: exclusion zone [15.26.3], victory points [15.17,
15.37], Bastogne control by last passage, Line of Communication [15.27].

Geometry reminder: 0505's neighbours are 0504, 0506, 0404, 0405, 0604, 0605 (odd column);
0606's are 0605, 0607, 0506, 0507, 0706, 0707 (even column)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.westwall import state_with, tiny_scenario, unit

from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.bastogne import (
    Bastogne,
    controller,
    line_of_communication,
    special_of,
    special_problems,
)
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import get_exclusive
from pbem.systems.westwall.model import Scenario, State, UnitState

H = Hex.parse
RULES = Bastogne()


def test_registered_for_the_bastogne_game() -> None:
    assert isinstance(get_exclusive("bastogne"), Bastogne)


# --- exclusion zone [15.26.3] ---------------------------------------------------------------------

EXCL = {"exclusion": {"side": "DE", "of": ["0505"], "within": 2, "rule": "15.26.3"}}


def excl_scenario() -> Scenario:
    return tiny_scenario(units=[unit("g", "DE"), unit("r", "DE"), unit("a", "US")], special=EXCL,
                         game="bastogne")


def test_german_may_not_move_within_the_radius() -> None:
    sc = excl_scenario()
    board = Board.from_state(sc, state_with(sc, {"g": "0808", "a": "0101"}))
    # 0707 is three hexes from 0505, 0606 two.
    assert RULES.movement_violations(sc, board, "g", [H("0808"), H("0707")]) == []
    (v,) = RULES.movement_violations(sc, board, "g", [H("0808"), H("0707"), H("0606"), H("0607")])
    assert (v.rule, v.unit, v.hex) == ("15.26.3", "g", "0606")
    assert str(v) == "g cannot enter 0606: it is within 2 hexes of 0505 [15.26.3]"
    # Americans are not restricted.
    assert RULES.movement_violations(sc, board, "a", [H("0101"), H("0202"), H("0303")]) == []


def test_reinforcement_entry_hex_counts_but_a_start_hex_does_not() -> None:
    sc = excl_scenario()
    board = Board.from_state(sc, state_with(sc, {"g": "0606"}))  # "r" is still waiting
    (v,) = RULES.movement_violations(sc, board, "r", [H("0707"), H("0606")])
    assert v.hex == "0606"
    (v,) = RULES.movement_violations(sc, board, "r", [H("0605")])
    assert v.hex == "0605"  # entering the map in the zone
    # A unit already inside may leave (it can only get there by set-up, which 15.23 forbids), but
    # every further hex it enters inside the zone is a breach.
    assert RULES.movement_violations(sc, board, "g", [H("0606"), H("0607"), H("0608")]) == []
    (v,) = RULES.movement_violations(sc, board, "g", [H("0606"), H("0506"), H("0507")])
    assert v.hex == "0506"


def test_forced_into_the_zone_is_eliminated() -> None:
    sc = excl_scenario()
    board = Board.from_state(sc, state_with(sc, {"g": "0808", "a": "0101"}))
    assert RULES.forced_entry_eliminates(sc, board, "g", H("0606")) == "15.26.3"
    assert RULES.forced_entry_eliminates(sc, board, "g", H("0707")) is None
    assert RULES.forced_entry_eliminates(sc, board, "a", H("0505")) is None


def test_no_exclusion_without_special_data() -> None:
    sc = tiny_scenario(units=[unit("g", "DE")], game="bastogne")
    board = Board.from_state(sc, state_with(sc, {"g": "0606"}))
    assert RULES.movement_violations(sc, board, "g", [H("0606"), H("0505")]) == []


# --- victory points [15.17, 15.37] ----------------------------------------------------------------


def vp_scenario(**victory: Any) -> Scenario:
    v: dict[str, Any] = {"kind": "exit-and-bastogne", "rule": "15.17", "exit_side": "DE",
                         "exit_units": ["p1", "p2", "p3"], "exit_edge": "west", "exit_vp": 1,
                         "fail_vp": 3, "control_vp": {"DE": 10, "US": 12},
                         "neither_vp": {"US": 6}}
    v.update(victory)
    return tiny_scenario(
        units=[unit(x, "DE") for x in ("p1", "p2", "p3", "x")] + [unit("u", "US")],
        special={"control_hexes": ["0404", "0505"], "initial_control": {"0404": "US", "0505": "US"},
                 "victory": v},
        game="bastogne", last_turn=7)


def with_units(st: State, **units: dict[str, Any]) -> State:
    new = dict(st.units)
    for uid, fields in units.items():
        new[uid] = UnitState.parse(fields)
    return st.replace(**{"units": new})


EXITED_W5 = {"status": "exited", "exit_edge": "west", "exit_turn": 5}


def test_points_15_17_by_hand() -> None:
    sc = vp_scenario()
    st = state_with(sc, {}, game_turn=7, finished=True, control={"0404": "DE", "0505": "DE"})
    st = with_units(st, p1=EXITED_W5,
                    p2={"status": "exited", "exit_edge": "east", "exit_turn": 5},  # wrong edge
                    p3={"status": "eliminated"},
                    x=EXITED_W5)  # not a listed unit
    # DE: p1 exited west (1) + Bastogne (10) = 11. US: p2 and p3 failed, 2 x 3 = 6.
    assert RULES.score(sc, st) == {"DE": 11, "US": 6}
    out = RULES.outcome(sc, st)
    assert out is not None and out.winner == "DE" and out.points == {"DE": 11, "US": 6}
    assert any("controls Bastogne = 10" in line for line in out.breakdown)


def test_bastogne_split_gives_the_us_six_15_17() -> None:
    sc = vp_scenario()
    # 0505 was never entered and stays American; 0404 was last passed by the Germans: split.
    st = with_units(state_with(sc, {}, game_turn=7, finished=True, control={"0404": "DE"}),
                    p1=EXITED_W5)
    assert controller(sc, st) is None
    assert RULES.score(sc, st) == {"DE": 1, "US": 2 * 3 + 6}


def test_untouched_bastogne_is_american_12_points() -> None:
    sc = vp_scenario()
    st = state_with(sc, {}, game_turn=7, finished=True)
    assert controller(sc, st) == "US"
    assert RULES.score(sc, st) == {"DE": 0, "US": 3 * 3 + 12}


def test_equal_points_is_a_draw_and_unfinished_is_no_outcome() -> None:
    sc = vp_scenario(exit_units=["p1", "p2"], fail_vp=5)
    st = state_with(sc, {}, game_turn=7, control={"0404": "DE", "0505": "DE"})
    assert RULES.outcome(sc, st) is None
    st = st.replace(**{"finished": True})
    assert RULES.score(sc, st) == {"DE": 10, "US": 10}
    out = RULES.outcome(sc, st)
    assert out is not None and out.winner is None


def test_campaign_exits_count_only_by_end_of_turn_8_15_37() -> None:
    sc = vp_scenario(rule="15.37", exit_by_turn=8)
    st = state_with(sc, {}, game_turn=18, finished=True, control={"0404": "US", "0505": "US"})
    st = with_units(st, p1={"status": "exited", "exit_edge": "west", "exit_turn": 8},
                    p2={"status": "exited", "exit_edge": "west", "exit_turn": 9})
    # p1 counts; p2 (too late) and p3 (never) fail; the US holds Bastogne.
    assert RULES.score(sc, st) == {"DE": 1, "US": 2 * 3 + 12}


def test_control_by_last_passage_through_both_hexes() -> None:
    sc = vp_scenario()
    board = Board.from_state(sc, state_with(sc, {"p1": "0303", "u": "0808"}))
    for h in ("0404", "0505", "0606"):  # the German passes through both hexes
        board.move_unit("p1", H(h))
    st = board.to_state(state_with(sc, {}))
    assert controller(sc, st) == "DE"
    for h in ("0707", "0506", "0505", "0405"):  # the American takes one back
        board.move_unit("u", H(h))
    st = board.to_state(st)
    assert controller(sc, st) is None
    board.move_unit("u", H("0404"))
    assert controller(sc, board.to_state(st)) == "US"


def test_bad_special_data_is_an_input_error() -> None:
    sc = tiny_scenario(units=[unit("g", "DE")], game="bastogne",
                       special={"victory": {"kind": "exit-and-bastogne"}})
    with pytest.raises(InputError):
        special_of(sc)
    assert special_problems(sc)


def test_special_problems_name_unknown_units_and_off_map_hexes() -> None:
    sc = vp_scenario(exit_units=["p1", "nobody", "u"])
    problems = special_problems(sc)
    assert "special.victory.exit_units: unknown unit id 'nobody'" in problems
    assert "special.victory.exit_units: u is not a DE unit" in problems
    sc = tiny_scenario(game="bastogne", special={"exclusion": {"side": "DE", "of": ["0909"],
                                                               "within": 4}})
    assert special_problems(sc) == ["special.exclusion.of: hex 0909 is off the map"]


# --- Line of Communication [15.27] ----------------------------------------------------------------

LOC = {"victory": {"kind": "line-of-communication", "rule": "15.27", "side": "US",
                   "from_hexes": ["0201"], "to_hexes": ["0206"], "otherwise": "DE"}}


def loc_scenario(routes: Any = (("road", ["0201", "0202", "0203", "0204", "0205", "0206"]),),
                 lines: Any = ()) -> Scenario:
    return tiny_scenario(units=[unit("g", "DE"), unit("h", "DE"), unit("a", "US")], routes=routes,
                         lines=lines, special=LOC, game="bastogne", first_player="US",
                         first_turn=9, last_turn=17)


def test_loc_follows_the_road() -> None:
    sc = loc_scenario()
    st = state_with(sc, {"g": "0606", "a": "0203"}, phasing="DE")
    assert line_of_communication(sc, st) == ["0201", "0202", "0203", "0204", "0205", "0206"]


def test_loc_blocked_by_a_german_unit_on_the_road() -> None:
    sc = loc_scenario()
    assert line_of_communication(sc, state_with(sc, {"g": "0204"})) is None


def test_loc_blocked_by_german_zoc_but_not_across_a_river_6_33() -> None:
    # 0304 touches 0203 and 0204 (odd column 03: rows 3 and 4 of column 02).
    sc = loc_scenario()
    assert line_of_communication(sc, state_with(sc, {"g": "0304"})) is None
    sc = loc_scenario(lines=[("river", ["0203/0304", "0204/0304"])])
    assert line_of_communication(sc, state_with(sc, {"g": "0304"})) is not None
    sc = loc_scenario(lines=[("stream", ["0203/0304", "0204/0304"])])
    assert line_of_communication(sc, state_with(sc, {"g": "0304"})) is None


def test_loc_needs_road_hexsides_not_just_road_hexes() -> None:
    sc = loc_scenario(routes=[("road", ["0201", "0202", "0203"]), ("road", ["0204", "0205", "0206"])])
    assert line_of_communication(sc, state_with(sc, {})) is None
    sc = loc_scenario(routes=[("road", ["0201", "0202", "0203"]), ("trail", ["0203", "0204"]),
                              ("road", ["0204", "0205", "0206"])])
    assert line_of_communication(sc, state_with(sc, {})) is None


def test_loc_goes_round_a_block_on_another_road() -> None:
    sc = loc_scenario(routes=[("road", ["0201", "0202", "0203", "0204", "0205", "0206"]),
                              ("road", ["0202", "0102", "0103", "0104", "0105", "0106", "0206"])])
    st = state_with(sc, {"g": "0404"})  # 0404 touches 0304/0305/0403/0405/0504/0505: no block
    assert line_of_communication(sc, st) == ["0201", "0202", "0203", "0204", "0205", "0206"]
    st = state_with(sc, {"g": "0304"})  # closes 0203 and 0204
    assert line_of_communication(sc, st) == [
        "0201", "0202", "0102", "0103", "0104", "0105", "0106", "0206"]


def test_loc_outcome_only_at_the_end_of_a_game_turn_15_27() -> None:
    # The engine asks right after a player-turn, the phasing side being the one that just played.
    sc = loc_scenario()
    mid = state_with(sc, {}, phasing="US", game_turn=10)  # US (first player) has just played
    assert RULES.outcome(sc, mid) is None
    end = state_with(sc, {}, phasing="DE", game_turn=10)  # the Germans have: Game-Turn 10 is over
    out = RULES.outcome(sc, end)
    assert out is not None and out.winner == "US" and "Game-Turn 10" in out.summary
    assert "[15.27]" in out.summary
    blocked = state_with(sc, {"g": "0204"}, phasing="DE", game_turn=10)
    assert RULES.outcome(sc, blocked) is None
    over = state_with(sc, {"g": "0204"}, phasing="US", game_turn=17, phase="over", finished=True)
    out = RULES.outcome(sc, over)
    assert out is not None and out.winner == "DE" and "Game-Turn 17" in out.summary
    assert RULES.score(sc, over) == {"DE": 0, "US": 0}


def test_relief_through_the_engine_us_wins_at_end_of_first_game_turn_15_27() -> None:
    """Bundled Relief with WestWallRules: Germans set up far to the north-east, nobody moves; the
    road LOC 1231-1419 is open when Game-Turn 9 ends, so the game stops there."""
    from pbem.engine.scenarios import load_data
    from pbem.protocol.dice import FixedDice
    from pbem.systems.westwall.rules import WestWallRules

    rules = WestWallRules()
    sc = rules.load_scenario(load_data("bastogne-relief"))
    st = rules.initial_state(sc, {})
    german = sc.deployments[0].units
    hexes = ["2503", "2603", "2703", "2504", "2604", "2704", "2506", "2606"]
    setup = {"kind": "setup", "side": "DE", "placements": dict(zip(german, hexes, strict=True))}
    assert rules.validate(sc, st, "DE", setup) == []
    st = rules.resolve(sc, st, "DE", setup, FixedDice([])).state
    us = {"kind": "player-turn", "side": "US", "game_turn": 9, "moves": []}
    st = rules.resolve(sc, st, "US", us, FixedDice([])).state
    assert rules.outcome(sc, st) is None  # half a Game-Turn: not yet
    de = {"kind": "player-turn", "side": "DE", "game_turn": 9, "moves": []}
    st = rules.resolve(sc, st, "DE", de, FixedDice([])).state
    out = rules.outcome(sc, st)
    assert out is not None and out.winner == "US" and "Game-Turn 9" in out.summary
