"""The Arnhem 1944 ruleset (pbem/systems/arnhem1944/rules.py) on a tiny hand-built map: each test
named after the case it checks, with fixed dice and results computed by hand from the text and
the reconstructed tables (scenarios/arnhem1944-crt.json, -tec.json).

The map: columns 1-6, rows 1-6, clear unless said; the Neder Rijn runs between rows 3 and 4 (so
the north bank is rows 1-3), with the Arnhem road bridge on 0303/0304 and a railway bridge on
0503/0504; 0202 is a town, 0404 woods; a road runs 0301-0302-0303-0304-0305-0306. TEC costs in
half MP: clear 2, woods 4, town 2, road 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.errors import InputError
from pbem.maps.hexmap import Hex, hexside, hexside_str
from pbem.protocol.dice import FixedDice
from pbem.systems.arnhem1944.rules import Arnhem1944Rules
from pbem.systems.arnhem1944.state import Standing, State

RULES = Arnhem1944Rules()


def _river() -> list[str]:
    out = set()
    for c in range(1, 7):
        for r in range(1, 4):
            for n in Hex(c, r).neighbours():
                if 1 <= n.col <= 6 and n.row >= 4 and n.row <= 6:
                    out.add(hexside_str(hexside(Hex(c, r), n)))
    return sorted(out)


def unit(uid: str, side: str, formation: str, *, kind: str = "combat", arm: str = "infantry",
         mobility: str = "leg", cf: int = 3, steps: int = 2, mp: int = 6, **extra: Any) -> dict[str, Any]:
    out = {"id": uid, "name": uid, "side": side, "formation": formation, "kind": kind, "arm": arm,
           "mobility": mobility, "cf": cf, "steps": steps, "mp": mp, "morale": 7}
    if steps > 2:
        out["reduced"] = {"id": uid + "r", "steps": 2, "cf": cf - 1, "mp": mp}
    out.update(extra)
    return out


def scenario_data(units: list[tuple[dict[str, Any], str | None]],
                  reinforcements: list[dict[str, Any]] = (), drops: list[dict[str, Any]] = (),
                  **opts: Any) -> dict[str, Any]:
    """A scenario: ``units`` with their set-up hex (None: a reinforcement or drop)."""
    counters = [u for u, _ in units]
    for hq, side, form in (("HQDE", "DE", "9SS"), ("HQAL", "AL", "1AB"), ("HQGA", "AL", "GA")):
        if not any(c["id"] == hq for c in counters):
            counters.append(unit(hq, side, form, kind="hq", arm="hq", cf=1, steps=1, mp=6))
            units = [*units, (counters[-1], {"HQDE": "0601", "HQAL": "0101",
                                             "HQGA": "0106"}[hq])]
    river = _river()
    return {
        "id": "tiny", "system": "arnhem1944", "title": "tiny", "rule": "test",
        "sides": [{"id": "AL", "name": "Allied"}, {"id": "DE", "name": "German"}],
        "first_player": "AL", "last_turn": 3,
        "map": {"id": "tiny", "cols": [1, 6], "rows": [1, 6],
                "terrain": {"town": ["0202"], "woods": ["0404"]},
                "routes": [{"kind": "road", "hexes": ["0301", "0302", "0303", "0304", "0305",
                                                      "0306"], "off_map": ["start"]}],
                "lines": [{"kind": "river", "name": "Neder Rijn", "hexsides": river},
                          {"kind": "bridge", "name": "Arnhem road bridge",
                           "hexsides": ["0303/0304"]},
                          {"kind": "rail-bridge", "name": "rail bridge",
                           "hexsides": ["0503/0504"]}],
                "entry_zones": {"C": {"edge": "north", "hexes": ["0101", "0201"]},
                                "D": {"edge": "north", "hexes": ["0401", "0501"]},
                                "E": {"edge": "east", "hexes": ["0602", "0603"]}}},
        "options": {"drop": opts.get("drop", "historic"),
                    "weather": opts.get("weather", "historical"),
                    "morale": opts.get("morale", False),
                    "simplified_sequence": opts.get("simplified", False)},
        "constants": {"stacking_steps": 6, "formation_activation": 6, "general_activation": 3,
                      "command_range": 5, "supply_range": 2, "engineer_steps": 3,
                      "first_initiative": "AL", "turn_end_roll": [5, 6],
                      "first_airborne_air_missions": 2, "artillery_armour": 1,
                      "delay_zone_shift": 1},
        "turns": [{"turn": t, "date": f"1944-09-{16 + t}", "weather": w}
                  for t, w in ((1, "clear"), (2, "cloudy"), (3, "overcast"))],
        "weather_table": {"1": "clear", "2": "cloudy", "3": "cloudy", "4": "overcast",
                          "5": "overcast", "6": "same"},
        "weather_effects": {"clear": {"drops": True, "air_missions": 3},
                            "cloudy": {"drops": True, "air_missions": 1},
                            "overcast": {"drops": False, "air_missions": 0}},
        "formations": [
            {"id": "9SS", "name": "9SS", "side": "DE", "hq": "HQDE", "colour": "#000000",
             "supply": {"edges": ["north", "east"]}},
            {"id": "1AB", "name": "1AB", "side": "AL", "hq": "HQAL", "colour": "#000000",
             "supply": {"drop_zones": True, "xxx_corps_hq": True}},
            {"id": "82AB", "name": "82AB", "side": "AL", "hq": None, "colour": "#000000",
             "supply": {"hexes": ["0306"]}},
            {"id": "GA", "name": "GA", "side": "AL", "hq": "HQGA", "colour": "#000000",
             "corps": "XXX", "supply": {"hexes": ["0306"]}},
        ],
        "counters": counters,
        "setup": [{"unit": u["id"], "hex": h} for u, h in units if h is not None],
        "reinforcements": list(reinforcements),
        "para_drops": list(drops),
        "victory": {"bridge": "Arnhem road bridge", "bridge_hexes": ["0303", "0304"],
                    "river": "Neder Rijn", "far_bank_hex": "0302", "bridgehead_steps": 4},
    }


def game(units: list[tuple[dict[str, Any], str | None]], **kw: Any) -> tuple[Any, State]:
    sc = RULES.load_scenario(scenario_data(units, **kw))
    return sc, RULES.initial_state(sc, {})


def act(sc: Any, side: str, units: list[str], *actions: dict[str, Any], mode: str = "general",
        formation: str | None = None, standing: dict[str, Any] | None = None) -> Any:
    data: dict[str, Any] = {"kind": "activation", "side": side, "mode": mode, "units": units,
                            "actions": list(actions)}
    if formation:
        data["formation"] = formation
    if standing is not None:
        data["standing"] = standing
    return RULES.load_orders(sc, data)


def rules_of(violations: list[Any]) -> list[str]:
    return [v.rule for v in violations]


def pas(sc: Any, side: str) -> Any:
    return RULES.load_orders(sc, {"kind": "pass", "side": side})


def decided(sc: Any, st: State) -> list[tuple[str, str, bool]]:
    return [(d.side, d.kind, d.random) for d in RULES.pending(sc, st)]


A = unit("a", "AL", "1AB")
B = unit("b", "AL", "1AB")
C = unit("c", "AL", "1AB")
D = unit("d", "AL", "1AB")
G = unit("g", "DE", "9SS")
H = unit("h", "DE", "9SS")


# -- sequence of play [2.1, 2.2] --------------------------------------------------------------------


def test_2_1_turn_one_allies_act_first_without_a_roll() -> None:
    sc, st = game([(A, "0102"), (G, "0502")])
    assert st.turn == 1 and st.to_act == "AL" and st.weather == "clear"
    d = RULES.pending(sc, st)[0]
    assert (d.side, d.kind, d.revealer) == ("AL", "activation", "DE")


def test_2_2_both_pass_in_a_row_ends_the_turn_then_weather_and_initiative() -> None:
    sc, st = game([(A, "0102"), (G, "0502")])
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    assert st.turn == 1 and decided(sc, st) == [("DE", "activation", True)]
    res = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([3, 5]))
    st = res.state
    # turn 2: the track's weather (cloudy), AL 3 against DE 5: the Germans act first [2.1]; the
    # Germans rolled, so the Allies first owe a pass that reveals those dice
    assert st.turn == 2 and st.weather == "cloudy" and st.initiative == "DE"
    assert decided(sc, st) == [("AL", "pass", False)]
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    assert decided(sc, st) == [("DE", "activation", True)]
    kinds = [e["kind"] for e in res.events]
    assert kinds[-3:] == ["weather", "supply-command", "initiative"]


def test_2_1_initiative_tie_goes_to_the_germans() -> None:
    sc, st = game([(A, "0102"), (G, "0502")])
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([4, 4])).state
    assert st.initiative == "DE" and st.to_act == "DE"


def test_2_1_allied_initiative_after_an_allied_segment_needs_no_pass() -> None:
    sc, st = game([(A, "0102"), (G, "0502")])
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([6, 1])).state
    assert decided(sc, st) == [("AL", "activation", True)]


def test_2_2_a_pass_then_an_activation_does_not_end_the_turn() -> None:
    sc, st = game([(A, "0102"), (G, "0502")])
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", act(sc, "DE", ["g"]), FixedDice([])).state
    assert st.turn == 1 and st.passed is None
    assert decided(sc, st) == [("AL", "activation", True)]


def test_2_2_turn_end_die_after_the_second_segment_alone() -> None:
    sc, st = game([(A, "0102"), (B, "0103"), (C, "0104"), (G, "0502")])
    st.units["g"].activated = True
    st.units["HQDE"].activated = True  # the Germans have nothing left to activate
    # first segment alone: no die [2.2]; the Allies act again, so the Germans owe a pass
    st = RULES.resolve(sc, st, "AL", act(sc, "AL", ["a"]), FixedDice([])).state
    assert st.alone == 1 and decided(sc, st) == [("DE", "pass", False)]
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([])).state
    # second segment: die 4 goes on
    res = RULES.resolve(sc, st, "AL", act(sc, "AL", ["b"]), FixedDice([4]))
    assert res.events[-1] == {"kind": "turn-end-die", "turn": 1, "die": 4, "ends": False}
    st = RULES.resolve(sc, res.state, "DE", pas(sc, "DE"), FixedDice([])).state
    # third: a 5 ends the turn; turn 2's initiative follows in the same resolution
    res = RULES.resolve(sc, st, "AL", act(sc, "AL", ["c"]), FixedDice([5, 2, 3]))
    assert {"kind": "turn-end-die", "turn": 1, "die": 5, "ends": True} in res.events
    assert res.state.turn == 2 and res.state.initiative == "DE"
    assert not res.state.units["a"].activated  # the administrative phase [2.1]


def test_2_2_no_unit_left_on_either_side_ends_the_turn() -> None:
    sc, st = game([(A, "0102"), (G, "0502")])
    for uid in ("HQAL", "HQGA", "HQDE"):
        st.units[uid].activated = True
    st = RULES.resolve(sc, st, "AL", act(sc, "AL", ["a"]), FixedDice([])).state
    res = RULES.resolve(sc, st, "DE", act(sc, "DE", ["g"]), FixedDice([1, 2]))
    assert res.state.turn == 2 and res.state.to_act == "DE"


def test_16_the_game_ends_after_the_last_turn_and_the_other_side_acknowledges() -> None:
    sc, st = game([(A, "0102"), (G, "0502")])
    st.turn = 3
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([])).state
    assert decided(sc, st) == [("AL", "acknowledge", False)]
    st = RULES.resolve(sc, st, "AL", RULES.load_orders(sc, {"kind": "acknowledge", "side": "AL"}),
                       FixedDice([])).state
    out = RULES.outcome(sc, st)
    assert out is not None and out.winner == "DE" and "[16]" in out.summary


# -- activation [3] ------------------------------------------------------------------------------------


def test_3_3_a_general_activation_takes_three_units() -> None:
    sc, st = game([(A, "0102"), (B, "0103"), (C, "0104"), (D, "0105"), (G, "0502")])
    assert RULES.validate(sc, st, "AL", act(sc, "AL", ["a", "b", "c"])) == []
    bad = RULES.validate(sc, st, "AL", act(sc, "AL", ["a", "b", "c", "d"]))
    assert rules_of(bad) == ["3.3"] and str(bad[0]).endswith("[3.3]")


def test_3_2_a_formation_activation_takes_six_in_command() -> None:
    sc, st = game([(A, "0102"), (B, "0103"), (C, "0104"), (D, "0105"), (G, "0502")])
    ok = act(sc, "AL", ["a", "b", "c", "d", "HQAL"], mode="formation", formation="1AB")
    assert RULES.validate(sc, st, "AL", ok) == []
    st.units["d"].in_command = False
    bad = RULES.validate(sc, st, "AL", ok)
    assert rules_of(bad) == ["9.2"]
    wrong = act(sc, "AL", ["a", "HQGA"], mode="formation", formation="1AB")
    assert rules_of(RULES.validate(sc, st, "AL", wrong)) == ["3.2"]


def test_3_2_the_82nd_has_no_hq_and_no_formation_activation() -> None:
    u82 = unit("u82", "AL", "82AB")
    sc, st = game([(u82, "0105"), (G, "0502")])
    bad = RULES.validate(sc, st, "AL", act(sc, "AL", ["u82"], mode="formation",
                                           formation="82AB"))
    assert rules_of(bad) == ["3.2"]
    assert RULES.validate(sc, st, "AL", act(sc, "AL", ["u82"])) == []


def test_3_1_a_unit_is_activated_once_a_turn() -> None:
    sc, st = game([(A, "0102"), (G, "0502")])
    st = RULES.resolve(sc, st, "AL", act(sc, "AL", ["a"]), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([])).state
    bad = RULES.validate(sc, st, "AL", act(sc, "AL", ["a"]))
    assert rules_of(bad) == ["3.1"] and "already been activated" in str(bad[0])


def test_3_1_actions_only_for_units_of_the_activation() -> None:
    sc, st = game([(A, "0102"), (B, "0103"), (G, "0502")])
    bad = RULES.validate(sc, st, "AL", act(sc, "AL", ["a"], {"do": "move", "unit": "b",
                                                               "path": ["0104"]}))
    assert rules_of(bad) == ["3.1"]


def test_9_2_out_of_command_halves_the_movement_allowance() -> None:
    # a has 6 MP (12 half): four clear hexes off the road cost 2 half MP each, 8 in all; out of
    # command it has 6 half MP and runs out on the fourth [6.3, 9.2]
    sc, st = game([(A, "0102"), (G, "0606")])
    far = {"do": "move", "unit": "a", "path": ["0202", "0302", "0402", "0403"]}
    assert RULES.validate(sc, st, "AL", act(sc, "AL", ["a"], far)) == []
    st.turn = 2  # not the turn of entry, when all MP may be used [15.1, errata]
    st.units["a"].in_command = False
    bad = RULES.validate(sc, st, "AL", act(sc, "AL", ["a"], far))
    assert rules_of(bad) == ["6.1"] and "0403 (1 needed, 0 left)" in str(bad[0])
    # the unit and the hex travel with the case, out of the text [24]
    assert (bad[0].unit, bad[0].hex) == ("a", "0403")


def test_3_4_no_stop_and_resume_without_a_mobile_assault() -> None:
    sc, st = game([(A, "0102"), (G, "0606")])
    two = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0103"]},
              {"do": "move", "unit": "a", "path": ["0104"]})
    assert rules_of(RULES.validate(sc, st, "AL", two)) == ["3.4"]


# -- movement and zones [4, 6] ---------------------------------------------------------------------------


def test_6_3_road_costs_half_a_point_a_hex() -> None:
    # 3 MP: six road hexes 0301..0306 is five steps of 1 half MP: 5 of 6 half MP [6.3]
    fast = unit("f", "AL", "GA", mp=3)
    sc, st = game([(fast, "0301"), (G, "0606")])
    path = {"do": "move", "unit": "f", "path": ["0302", "0303", "0304", "0305", "0306"]}
    assert RULES.validate(sc, st, "AL", act(sc, "AL", ["f"], path)) == []
    off_road = {"do": "move", "unit": "f", "path": ["0201", "0202", "0203"]}  # 2+2+2 = 6
    assert RULES.validate(sc, st, "AL", act(sc, "AL", ["f"], off_road)) == []
    st.units["f"].hex = "0305"
    woods = {"do": "move", "unit": "f", "path": ["0404", "0405"]}  # 4 (woods) + 2 = 6
    assert RULES.validate(sc, st, "AL", act(sc, "AL", ["f"], woods)) == []
    more = {"do": "move", "unit": "f", "path": ["0404", "0405", "0406"]}
    assert rules_of(RULES.validate(sc, st, "AL", act(sc, "AL", ["f"], more))) == ["6.1"]


def test_12_1_rivers_are_crossed_only_by_bridges() -> None:
    sc, st = game([(A, "0203"), (G, "0106")])
    bad = RULES.validate(sc, st, "AL", act(sc, "AL", ["a"], {"do": "move", "unit": "a",
                                                               "path": ["0204"]}))
    assert rules_of(bad) == ["12.1"]
    ok = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0303", "0304"]})
    assert RULES.validate(sc, st, "AL", ok) == []


def test_4_2_entering_an_enemy_zone_stops_movement() -> None:
    sc, st = game([(A, "0401"), (G, "0403")])
    # 0402 is next to g: a must stop there, and attack [4.3]
    bad = RULES.validate(sc, st, "AL", act(sc, "AL", ["a"], {"do": "move", "unit": "a",
                                                               "path": ["0402", "0302"]}))
    assert "4.2" in rules_of(bad)
    stop = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0402"]})
    assert rules_of(RULES.validate(sc, st, "AL", stop)) == ["4.3"]
    fight = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0402"]},
                {"do": "attack", "target": "0403", "type": "N", "units": ["a"]})
    assert RULES.validate(sc, st, "AL", fight) == []


def test_4_3_no_compulsory_attack_from_a_town() -> None:
    sc, st = game([(A, "0201"), (G, "0203")])
    stop = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0202"]})
    assert RULES.validate(sc, st, "AL", stop) == []


def test_4_2_leaving_a_zone_costs_half_the_allowance_and_not_into_another() -> None:
    # a (6 MP = 12 half) starts next to g at 0403: leaving costs 6 half MP more [4.2]
    sc, st = game([(A, "0402"), (G, "0403")])
    away = act(sc, "AL", ["a"], {"do": "move", "unit": "a",
                                 "path": ["0401", "0301"]})  # 2 + 6, then 2: 10 of 12
    assert RULES.validate(sc, st, "AL", away) == []
    too_far = act(sc, "AL", ["a"], {"do": "move", "unit": "a",
                                    "path": ["0401", "0301", "0201", "0101"]})  # 14 of 12
    assert rules_of(RULES.validate(sc, st, "AL", too_far)) == ["6.1"]
    # 0303 is next to g too: no move from one enemy zone straight into another
    side_step = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0303"]})
    assert "4.2" in rules_of(RULES.validate(sc, st, "AL", side_step))


def test_4_2_no_zone_of_control_across_a_river() -> None:
    # g at 0205 (south bank) is next to 0204... and across the river from 0203/0104? 0104 is
    # south too; a on the north bank at 0202 moves to 0203, next to g only across the river
    sc, st = game([(A, "0202"), (G, "0204")])
    assert Hex(2, 3).is_adjacent(Hex(2, 4))
    move = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0203", "0303"]})
    assert RULES.validate(sc, st, "AL", move) == []


# -- stacking [5] --------------------------------------------------------------------------------------------


def test_5_excess_steps_go_at_the_end_of_operations() -> None:
    big = unit("big", "AL", "1AB", steps=4, cf=6)
    sc, st = game([(A, "0102"), (B, "0102"), (big, "0102"), (G, "0606")])
    # 2 + 2 + 4 = 8 steps: two too many; the standing list names b first, then the most steps
    st.standing["AL"] = Standing(stacking=["b"])
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    res = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([1, 2]))
    lost = [e["unit"] for e in res.events if e["kind"] == "step-lost"]
    assert lost == ["b", "b"]
    assert res.state.units["b"].steps == 0 and res.state.units["big"].steps == 4


# -- combat [7] ------------------------------------------------------------------------------------------------


def test_27_7_4_the_preview_states_the_column_the_die_is_rolled_on() -> None:
    """[7.3, 7.4, 27] a moves next to g, then a and b attack: 6 against 3, 2:1. The preview of the
    activation says so before signing (after the move written before the attack), and the
    resolution rolls on that column."""
    sc, st = game([(A, "0202"), (B, "0402"), (G, "0401")])
    orders = act(sc, "AL", ["a", "b"], {"do": "move", "unit": "a", "path": ["0302"]},
                 {"do": "attack", "target": "0401", "type": "N", "units": ["a", "b"]})
    assert RULES.validate(sc, st, "AL", orders) == []
    said = RULES.presenter().expected(sc, st, "AL", RULES.dump_orders(sc, orders))
    assert said[0] == "action 2, normal attack on 0401: column 2:1 [7.4]"
    assert said[1].startswith("  6 against 3 (")
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert combat["odds"] == "2:1" and [f"  {x}" for x in combat["lines"]] == said[1:]


def test_7_4_normal_attack_two_to_one_retreat_and_advance() -> None:
    # a (CF 3) and b (CF 3) attack g (CF 3) in clear: 6:3 is 2:1, the N column 3; die 5 gives
    # 0/2 (N row 5: 1/1 1/1 0/1 0/2 ...): the defender, by default, takes no step (not red) and
    # retreats two hexes; a advances up to two hexes along the vacated path (N) [7.4-7.6]
    sc, st = game([(A, "0302"), (B, "0402"), (G, "0401")])
    orders = act(sc, "AL", ["a", "b"],
                 {"do": "attack", "target": "0401", "type": "N", "units": ["a", "b"]},
                 {"do": "advance", "units": ["a"], "hexes": 1})
    assert RULES.validate(sc, st, "AL", orders) == []
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert (combat["odds"], combat["die"], combat["result"]) == ("2:1", 5, "0/2")
    retreat = next(e for e in res.events if e["kind"] == "retreated")
    assert retreat["from"] == "0401" and len(retreat["path"]) == 2
    assert res.state.units["g"].steps == 2
    assert res.state.units["a"].hex == "0401"
    assert {"kind": "advanced", "unit": "a", "from": "0302", "path": ["0401"]} in res.events


def test_7_5_a_defender_standing_order_to_hold_takes_steps() -> None:
    sc, st = game([(A, "0302"), (B, "0402"), (G, "0401")])
    st.standing["DE"] = Standing(defence="hold")
    orders = act(sc, "AL", ["a", "b"],
                 {"do": "attack", "target": "0401", "type": "N", "units": ["a", "b"]},
                 {"if": {"event": "vacated", "hex": "0401"}, "do": "advance", "units": ["a"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert res.state.units["g"].steps == 0  # 0/2 held: two steps, g is eliminated
    assert res.state.units["a"].hex == "0401"  # vacated by elimination: the condition held


def test_7_6_a_conditional_advance_is_skipped_when_its_condition_fails() -> None:
    sc, st = game([(A, "0302"), (B, "0402"), (G, "0401")])
    orders = act(sc, "AL", ["a", "b"],
                 {"do": "attack", "target": "0401", "type": "N", "units": ["a", "b"]},
                 {"if": {"not": {"event": "vacated", "hex": "0401"}}, "do": "move", "unit": "a",
                  "path": ["0301"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert {"kind": "skipped", "action": 2, "why": "its condition does not hold"} in res.events


def test_7_1_an_attack_costs_its_movement_points() -> None:
    slow = unit("s", "AL", "1AB", mp=2)
    sc, st = game([(slow, "0302"), (G, "0401")])
    bad = act(sc, "AL", ["s"], {"do": "attack", "target": "0401", "type": "N", "units": ["s"]})
    assert rules_of(RULES.validate(sc, st, "AL", bad)) == ["7.1"]
    ok = act(sc, "AL", ["s"], {"do": "attack", "target": "0401", "type": "M", "units": ["s"]})
    assert RULES.validate(sc, st, "AL", ok) == []


def test_3_4_normal_attack_ends_movement_mobile_assault_does_not() -> None:
    sc, st = game([(A, "0302"), (G, "0401")])
    normal = act(sc, "AL", ["a"], {"do": "attack", "target": "0401", "type": "N", "units": ["a"]},
                 {"do": "move", "unit": "a", "path": ["0303"]})
    assert rules_of(RULES.validate(sc, st, "AL", normal)) == ["3.4"]
    mobile = act(sc, "AL", ["a"], {"do": "attack", "target": "0401", "type": "M", "units": ["a"]},
                 {"do": "move", "unit": "a", "path": ["0202"]})
    assert RULES.validate(sc, st, "AL", mobile) == []


def test_7_5_the_attacker_takes_the_minimum_then_retreats_unless_it_holds() -> None:
    # a (CF 3) against g (CF 3, 2 steps): 1:1, mobile column 2, die 1: 2/0 (M row 1); the
    # attack table's minimum for a mobile assault is 1 step: a loses 1 and retreats 1 [7.5]
    sc, st = game([(A, "0302"), (G, "0401")])
    res = RULES.resolve(sc, st, "AL", act(sc, "AL", ["a"], {"do": "attack", "target": "0401",
                                                             "type": "M", "units": ["a"]}),
                        FixedDice([1]))
    assert res.state.units["a"].steps == 1 and res.state.units["a"].hex != "0302"
    held = act(sc, "AL", ["a"], {"do": "attack", "target": "0401", "type": "M", "units": ["a"],
                                 "hold": True})
    res = RULES.resolve(sc, st, "AL", held, FixedDice([1]))
    assert res.state.units["a"].steps == 0


# -- bridges [12] ---------------------------------------------------------------------------------------------


def test_12_2_entering_next_to_a_railway_bridge_rolls_for_its_demolition() -> None:
    sc, st = game([(A, "0602"), (G, "0106")])
    move = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0503"]})
    res = RULES.resolve(sc, st, "AL", move, FixedDice([3]))
    assert res.state.blown == ["0503/0504"] and res.state.tried == ["0503/0504"]
    res = RULES.resolve(sc, st, "AL", move, FixedDice([6]))
    assert res.state.blown == [] and res.state.tried == ["0503/0504"]
    # one attempt only: a second unit entering does not roll again
    again = RULES.resolve(sc, res.state, "AL", move.replace(), FixedDice([]))
    assert [e for e in again.events if e["kind"] in ("blown", "not-blown")] == []


def test_12_1_the_engineer_ferries_three_infantry_steps() -> None:
    eng = unit("eng", "AL", "GA", kind="engineer", arm="engineer", cf=0, steps=1)
    inf = unit("inf", "AL", "GA", mobility="motorized", mp=6)
    sc, st = game([(eng, "0203"), (inf, "0203"), (G, "0606")])
    cross = act(sc, "AL", ["inf"], {"do": "move", "unit": "inf", "path": ["0204", "0205"]})
    # the crossing costs a third of 6 MP = 2 MP (4 half), then clear 2 half: 6 of 12
    assert RULES.validate(sc, st, "AL", cross) == []
    st.engineer_steps = 2
    assert rules_of(RULES.validate(sc, st, "AL", cross)) == ["12.1"]


# -- command and supply [9, 10] -----------------------------------------------------------------------------


def test_9_1_command_range_is_five_hexes() -> None:
    sc, st = game([(A, "0106"), (B, "0102"), (G, "0606")])
    # HQAL at 0101: b at distance 1 in command; a at 0106, distance 5, in command
    assert st.units["b"].in_command and st.units["a"].in_command
    st.turn = 2  # on turn 1 every unit set up is in command [errata]
    st.units["HQAL"].hex = "0301"  # 0301 to 0106 is 6 hexes
    RULES.game(sc).command_and_supply(st)
    assert not st.units["a"].in_command and st.units["b"].in_command


def test_10_1_supply_within_two_hexes_of_the_road_net() -> None:
    gu = unit("gu", "AL", "GA")
    sc, st = game([(gu, "0106"), (G, "0601")])
    st.turn = 2
    RULES.game(sc).command_and_supply(st)
    # the GA road runs from 0306 north; 0106 is two hexes from 0306... and 0205 is one
    assert st.units["gu"].in_supply
    st.units["gu"].hex = "0606"  # three hexes from the road at 0306 and from HQGA at 0106
    RULES.game(sc).command_and_supply(st)
    assert not st.units["gu"].in_supply


# -- reinforcements and drops [15] ---------------------------------------------------------------------------


def test_15_1_a_german_reinforcement_enters_by_its_zone_or_one_further_a_turn_late() -> None:
    r = unit("r", "DE", "9SS", mp=6)
    sc, st = game([(A, "0106"), (r, None)],
                  reinforcements=[{"unit": "r", "turn": 1, "zone": "D"}])
    st.to_act = "DE"
    ok = act(sc, "DE", ["r"], {"do": "enter", "unit": "r", "path": ["0401", "0402"]})
    assert RULES.validate(sc, st, "DE", ok) == []
    early = act(sc, "DE", ["r"], {"do": "enter", "unit": "r", "zone": "E", "path": ["0602"]})
    assert rules_of(RULES.validate(sc, st, "DE", early)) == ["15.1"]
    st.turn = 2
    assert RULES.validate(sc, st, "DE", early) == []


def test_15_2_a_historic_drop_is_an_allied_decision_before_the_initiative() -> None:
    p = unit("p", "AL", "1AB")
    sc, st = game([(A, "0106"), (p, None), (G, "0606")],
                  drops=[{"group": "4P", "units": ["p"], "turn": 2, "dz": "0102", "radius": 2,
                          "terrain": ["clear"]}])
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([])).state  # no dice yet
    assert st.turn == 2 and decided(sc, st) == [("AL", "drop", True)]
    far = RULES.load_orders(sc, {"kind": "drop", "side": "AL",
                                 "landings": [{"unit": "p", "hex": "0105"}]})
    assert rules_of(RULES.validate(sc, st, "AL", far)) == ["15.2"]
    town = RULES.load_orders(sc, {"kind": "drop", "side": "AL",
                                  "landings": [{"unit": "p", "hex": "0202"}]})
    assert rules_of(RULES.validate(sc, st, "AL", town)) == ["15.2"]
    drop = RULES.load_orders(sc, {"kind": "drop", "side": "AL",
                                  "landings": [{"unit": "p", "hex": "0103"}]})
    assert RULES.validate(sc, st, "AL", drop) == []
    st = RULES.resolve(sc, st, "AL", drop, FixedDice([6, 2])).state
    assert st.units["p"].hex == "0103" and st.to_act == "AL"
    assert decided(sc, st) == [("DE", "pass", False)]


# -- victory [16] --------------------------------------------------------------------------------------------


def test_16_strategic_victory_holds_both_bridge_hexes() -> None:
    sc, st = game([(A, "0303"), (B, "0304"), (G, "0606")])
    st.turn = 3
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([])).state
    assert st.outcome == "AL strategic"


def test_16_secondary_victory_by_a_bridgehead_of_infantry_steps() -> None:
    sc, st = game([(A, "0202"), (B, "0102"), (G, "0606")])
    st.turn = 3
    # a and b: 4 infantry steps on the north bank = the tiny scenario's 4 [16]
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([])).state
    assert st.outcome == "AL secondary"


def test_orders_are_refused_in_one_line() -> None:
    sc, _ = game([(A, "0102"), (G, "0606")])
    with pytest.raises(InputError) as exc:
        RULES.load_orders(sc, {"kind": "activation", "side": "AL", "mode": "general",
                               "units": ["a"], "actions": [{"do": "attack"}]})
    assert "\n" not in str(exc.value)


# -- a whole turn [2.1, 2.2] ---------------------------------------------------------------------------------


def _step(sc: Any, st: State, side: str, orders: Any, dice: list[int]) -> State:
    """One decision, checked as the engine checks it: legal, and the side that reveals a random
    decision's dice decides next."""
    pend = RULES.pending(sc, st)[0]
    assert pend.side == side
    assert RULES.validate(sc, st, side, orders) == []
    new = RULES.resolve(sc, st, side, orders, FixedDice(dice)).state
    nxt = RULES.pending(sc, new)
    if pend.random and nxt:
        assert nxt[0].side == pend.revealer
    return new


def test_2_a_whole_turn_of_alternating_activations_ended_by_two_passes() -> None:
    sc, st = game([(A, "0102"), (B, "0103"), (G, "0502"), (H, "0503")])
    st = _step(sc, st, "AL", act(sc, "AL", ["a"], {"do": "move", "unit": "a",
                                                   "path": ["0202"]}), [])
    st = _step(sc, st, "DE", act(sc, "DE", ["g"], {"do": "move", "unit": "g",
                                                   "path": ["0501"]}), [])
    st = _step(sc, st, "AL", pas(sc, "AL"), [])
    assert st.passed == "AL"
    st = _step(sc, st, "DE", act(sc, "DE", ["h"]), [])  # an activation: the passes start again
    assert st.passed is None and st.turn == 1
    st = _step(sc, st, "AL", pas(sc, "AL"), [])
    st = _step(sc, st, "DE", pas(sc, "DE"), [2, 5])  # both in a row: turn 2, DE 5 beats AL 2
    assert st.turn == 2 and st.to_act == "DE" and st.units["a"].hex == "0202"
    assert not any(u.activated for u in st.units.values())
    st = _step(sc, st, "AL", pas(sc, "AL"), [])  # the owed pass that reveals those dice
    assert [(d.side, d.kind) for d in RULES.pending(sc, st)] == [("DE", "activation")]


def test_2_2_a_pass_says_before_it_is_signed_whether_it_ends_the_turn() -> None:
    """[2.2] a trial by email: the German pass right after an Allied pass ended turn 1 -- every German
    unit not yet activated lost its turn -- and the preview said only "passes [2.2]". Now it says
    what the rules will do with it: the turn goes on (the other side acts next), or it ends (both in
    a row, or the other side has nothing left to activate); a pass owed only to reveal dice, neither."""
    p = RULES.presenter()
    sc, st = game([(A, "0102"), (B, "0103"), (G, "0502"), (H, "0503")])
    assert said(p, sc, st, "AL") == ["turn 1 goes on: German acts next, and a pass of its own then ends the turn [2.2]"]
    st = _step(sc, st, "AL", pas(sc, "AL"), [])
    assert said(p, sc, st, "DE") == ["this pass ends turn 1 (Allied passed before it, both in a row): your units not "
                              "yet activated do nothing more in it [2.2]"]
    st = _step(sc, st, "DE", pas(sc, "DE"), [2, 5])  # as the preview said: turn 2
    assert st.turn == 2
    assert RULES.pending(sc, st)[0].side == "AL" and st.owed == "AL"
    assert said(p, sc, st, "AL") == []  # the owed pass reveals the dice of the turn's end; it ends nothing


def test_2_2_a_pass_ends_the_turn_when_the_other_side_has_nothing_left_to_activate() -> None:
    p = RULES.presenter()
    sc, st = game([(A, "0102"), (G, "0502")])
    st = _step(sc, st, "AL", act(sc, "AL", ["a"]), [])  # its two HQs may still be activated
    assert said(p, sc, st, "DE") == ["turn 1 goes on: Allied acts next, and a pass of its own then ends the turn [2.2]"]
    st = _step(sc, st, "DE", act(sc, "DE", ["g"]), [])
    st = _step(sc, st, "AL", act(sc, "AL", ["HQAL", "HQGA"]), [])  # the Allied side's last units
    assert said(p, sc, st, "DE") == ["this pass ends turn 1 (Allied has no unit left to activate): your units "
                                     "not yet activated do nothing more in it [2.2]"]
    st = _step(sc, st, "DE", pas(sc, "DE"), [2, 5])  # as the preview said: turn 2
    assert st.turn == 2


def said(p: Any, sc: Any, state: State, side: str) -> list[str]:
    """The lines of a pass's preview that say what it does to the turn [2.2]."""
    return [line for line in p.undone(sc, state, side, {"kind": "pass", "side": side}) if "[2.2]" in line]


# -- the presenter: words and text orders -------------------------------------------------------------------


def test_text_orders_read_like_the_game() -> None:
    p = RULES.presenter()
    real = RULES.load_scenario(__import__("pbem.engine.scenarios", fromlist=["load_data"])
                               .load_data("arnhem1944-historical"))
    text = """activate 9SS: 1/19 2/19 Werfer102
    enter 1/19 1301 1302
    move 2/19 to 1014
    attack 1014 prepared with 1/19 2/19 support Werfer102
    if vacated 1014: advance 1/19 2
    hold 1406   # standing order for the defence
    """
    out = p.parse_text_orders(real, {"kind": "pass", "side": "DE"}, "DE", text)
    assert out == {
        "kind": "activation", "side": "DE", "mode": "formation", "formation": "9SS",
        "units": ["1/19", "2/19", "Werfer102"],
        "actions": [
            {"do": "enter", "unit": "1/19", "path": ["1301", "1302"]},
            {"do": "move", "unit": "2/19", "to": "1014"},
            {"do": "attack", "target": "1014", "type": "P", "units": ["1/19", "2/19"],
             "support": ["Werfer102"]},
            {"do": "advance", "units": ["1/19"], "hexes": 2,
             "if": {"event": "vacated", "hex": "1014"}},
        ],
        "standing": {"hold": ["1406"]},
    }
    orders = RULES.load_orders(real, out)  # the document loads as orders
    assert orders.kind == "activation"
    lines = p.describe_orders(real, RULES.dump_orders(real, orders))
    assert lines == [
        "activates formation 9SS (9th SS-Panzer-Division Hohenstaufen): 1/19, 2/19, Werfer102 "
        "[3.2]",
        "1. 1/19 enters at 1301 → 1302 [15]",
        "2. 2/19 moves to 1014 (Elst) [6]",
        "3. prepared attack on 1014 (Elst) by 1/19, 2/19, supported by Werfer102 [7.1, 8.2]",
        "4. if 1014 is vacated: advance up to 2 hexes into the vacated hex by 1/19 [7.6]",
        "standing order from now on: when attacked, retreat rather than lose steps where the "
        "result allows [7.5]",
        "standing order from now on: hold (step losses, no retreat) at 1406 [7.5]",
    ]
    assert p.parse_text_orders(real, {"kind": "pass", "side": "AL"}, "AL", "pass") == {
        "kind": "pass", "side": "AL"}
    with pytest.raises(InputError, match="line 1"):
        p.parse_text_orders(real, {"kind": "pass", "side": "DE"}, "DE", "activate 99SS: a")


def test_6_a_move_to_a_hex_becomes_the_cheapest_path() -> None:
    sc, st = game([(A, "0102"), (G, "0606")])
    p = RULES.presenter()
    doc = p.parse_text_orders(sc, {"kind": "pass", "side": "AL"}, "AL",
                              "activate: a\nmove a to 0402")
    orders = RULES.normalize(sc, st, "AL", RULES.load_orders(sc, doc))
    path = orders.actions[0].path
    assert len(path) == 3 and path[-1] == "0402"  # three clear or town hexes, 2 half MP each
    assert RULES.validate(sc, st, "AL", orders) == []


def test_events_are_told_with_their_case() -> None:
    sc, st = game([(A, "0302"), (B, "0402"), (G, "0401")])
    orders = act(sc, "AL", ["a", "b"],
                 {"do": "attack", "target": "0401", "type": "N", "units": ["a", "b"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    lines = RULES.presenter().narrate(sc, res.events)
    # the activation first (the rules log it last) [3.3]; the combat with what followed it:
    # 6 against 3 is 2:1, die 5 on the normal line: 0/2 [7.4]; g retreats two hexes [7.6]
    assert lines[0] == "Allied general activation: a, b [3.3]"
    assert lines[1].startswith("Normal attack [7.1] by a, b on g at 0401: 6 against 3 (a 3 + b 3 "
                               "against g 3): 2:1 [7.4] → 2:1")
    assert ("→ 2:1, die 5 → 0/2 [7.4]: nothing for the attacker; the defender 2, each a step loss "
            "or a hex of retreat [7.5]; g retreated 0401 → ") in lines[1]
    assert lines[1].endswith("; 0401 was vacated [7.6]") and len(lines) == 2


def test_16_the_standing_is_told_after_a_turn_ends() -> None:
    # a (2 steps) at 0302 on the north bank: 2 of the 4 steps of the bridgehead; the Germans
    # hold both hexes of the bridge [16]
    sc, st = game([(A, "0302"), (G, "0606")])
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    res = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([3, 5]))
    p = RULES.presenter()
    lines = p.narrate(sc, res.events, state=RULES.dump_state(sc, res.state))
    assert lines[:2] == ["German passed [2.2]", "End of turn 1: both sides passed in a row [2.2]"]
    assert "Turn 2 weather: cloudy (turn track [14.1]): drops allowed, 1 air mission [14.3]" \
        in lines
    assert "Turn 2 initiative: Allied 3, German 5; German acts first (ties to the Germans) " \
        "[2.1]" in lines
    assert lines[-1] == ("Victory stands at [16]: 2 Allied infantry steps over the Neder Rijn "
                         "(4 make a secondary victory); 0 of 2 hexes of the Arnhem road bridge "
                         "in Allied hands (both make a strategic victory)")
    assert p.standing(sc, res.state) == lines[-1]
    # no turn ended: no standing in the step's words
    quiet = p.narrate(sc, [{"kind": "passed", "side": "AL"}], state=RULES.dump_state(sc, st))
    assert quiet == ["Allied passed [2.2]"]


def test_2_1_subtitle_and_about_say_turn_date_weather_and_who_acts() -> None:
    sc, st = game([(A, "0302"), (G, "0606")])
    p = RULES.presenter()
    assert p.subtitle(sc, RULES.dump_state(sc, st), 3, "DE") == \
        "Turn 1 of 3, 17 September, clear · Allied to act · step 3 · after the German move"
    assert p.about(sc).startswith("tiny [test]: 3 turns of a day (17 September to 19 "
                                  "September 1944), the historic drops [17.3]")
    assert p.side_name(sc, "DE") == "German"


def test_15_2_a_pass_where_a_drop_is_due_is_a_pass() -> None:
    p = RULES.presenter()
    sc, _st = game([(A, "0302"), (G, "0606")])
    assert p.parse_text_orders(sc, {"kind": "drop", "side": "AL", "landings": []}, "AL",
                               "pass") == {"kind": "pass", "side": "AL"}


def test_bot_orders_are_legal_for_both_sides() -> None:
    sc, st = game([(A, "0302"), (B, "0102"), (G, "0502"), (H, "0601")])
    p = RULES.presenter()
    for side in ("AL", "DE"):
        st.to_act = side  # type: ignore[assignment]
        doc = p.bot_orders(sc, st, side)
        orders = RULES.normalize(sc, st, side, RULES.load_orders(sc, doc))
        assert doc["kind"] == "activation" and RULES.validate(sc, st, side, orders) == []


# -- artillery [8], prepared positions [11], air [13] ---------------------------------------------------------

ART = unit("art", "AL", "1AB", kind="artillery", arm="artillery", mobility="motorized", cf=0,
           armour=1, steps=1, mp=4, br=4, df=2, range=3)
DART = unit("dart", "DE", "9SS", kind="artillery", arm="artillery", mobility="motorized", cf=0,
            armour=1, steps=1, mp=4, br=3, df=4, range=3)


def test_8_2_attack_support_adds_the_bv_of_activated_artillery() -> None:
    # a (CF 3) with art's BV 4 against g (CF 3): 7 against 3 is 2.33, rounded for the attacker
    # to 3:1; die 6 on N: 0/3r: g loses its one compulsory step and retreats 2 [7.4, 7.5, 8.2]
    sc, st = game([(A, "0302"), (ART, "0201"), (G, "0401")])
    orders = act(sc, "AL", ["a", "art"], {"do": "attack", "target": "0401", "type": "N",
                                          "units": ["a"], "support": ["art"]})
    assert RULES.validate(sc, st, "AL", orders) == []
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([6]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert (combat["odds"], combat["result"], combat["support"]) == ("3:1", "0/3r", ["art"])
    assert res.state.units["g"].steps == 1 and res.state.units["art"].bv_used
    mobile = act(sc, "AL", ["a", "art"], {"do": "attack", "target": "0401", "type": "M",
                                          "units": ["a"], "support": ["art"]})
    assert rules_of(RULES.validate(sc, st, "AL", mobile)) == ["7.1"]  # none in mobile


def test_8_2_defensive_support_from_artillery_not_yet_activated() -> None:
    # a (CF 3) against g (CF 3) plus dart's DF 4: 3 against 7, 1:2; without the standing order
    # to fire, 1:1 [8.2]
    sc, st = game([(A, "0302"), (G, "0401"), (DART, "0502")])
    orders = act(sc, "AL", ["a"], {"do": "attack", "target": "0401", "type": "N",
                                   "units": ["a"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([3]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert (combat["odds"], combat["defence_support"]) == ("1:2", ["dart"])
    assert res.state.units["dart"].df_used
    st.standing["DE"] = Standing(fire=False)
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([3]))
    assert next(e for e in res.events if e["kind"] == "combat")["odds"] == "1:1"
    st.standing["DE"] = Standing()
    st.units["dart"].activated = True  # activated artillery gives no defensive support [8]
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([3]))
    assert next(e for e in res.events if e["kind"] == "combat")["defence_support"] == []


def test_8_1_bombardment_needs_the_minimum_ratio_and_a_unit_adjacent() -> None:
    # BV 4 against CF 3 reaches 1:1; rounded for the attacker the column is 2:1; die 6 on the
    # N grid: 0/2r: g loses one step and retreats one hex [8.1]
    sc, st = game([(A, "0302"), (ART, "0201"), (G, "0401")])
    orders = act(sc, "AL", ["art"], {"do": "bombard", "target": "0401", "support": ["art"]})
    assert RULES.validate(sc, st, "AL", orders) == []
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([6]))
    bomb = next(e for e in res.events if e["kind"] == "bombardment")
    assert (bomb["odds"], bomb["result"]) == ("2:1", "0/2r")
    assert res.state.units["g"].steps == 1 and res.state.units["g"].hex != "0401"
    st.units["a"].hex = "0102"
    assert rules_of(RULES.validate(sc, st, "AL", orders)) == ["8.1, 8.4"]  # nobody adjacent
    st.units["a"].hex = "0302"
    st.units["g"].hex = "0202"  # a town halves the BV: 2 against 3 is below 1:1 [8.4]
    st.units["a"].hex = "0201"
    town = act(sc, "AL", ["art"], {"do": "bombard", "target": "0202", "support": ["art"]})
    st.units["art"].hex = "0101"
    bad = RULES.validate(sc, st, "AL", town)
    assert rules_of(bad) == ["8.1"] and "below the minimum 1:1" in str(bad[0])


def test_11_a_prepared_position_costs_a_third_of_the_mp_and_shifts_a_column() -> None:
    sc, st = game([(A, "0302"), (B, "0402"), (G, "0401"), (H, "0201")])
    st.to_act = "DE"
    prep = act(sc, "DE", ["g"], {"do": "prepare", "units": ["g"]})
    # g is next to a and b: no position in an enemy zone [errata 11.1]
    assert rules_of(RULES.validate(sc, st, "DE", prep)) == ["11.1"]
    st.units["g"].hex = "0601"
    prep = act(sc, "DE", ["g"], {"do": "prepare", "units": ["g"]})
    assert RULES.validate(sc, st, "DE", prep) == []
    st2 = RULES.resolve(sc, st, "DE", prep, FixedDice([])).state
    assert st2.units["g"].prepared
    st.units["g"].in_supply = False
    assert rules_of(RULES.validate(sc, st, "DE", prep)) == ["10.2"]
    # attacked in its position: one column to the defender [11.2]
    st2.units["g"].hex = "0401"
    st2.to_act = "AL"
    st2.owed = None
    orders = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0401", "type": "N",
                                        "units": ["a", "b"]})
    res = RULES.resolve(sc, st2, "AL", orders, FixedDice([5]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert combat["odds"] == "1:1" and "-1 column: prepared defensive position [11.2]" in \
        combat["lines"]


def test_13_air_support_in_prepared_attacks_and_1st_airborne_missions() -> None:
    ga = unit("ga", "AL", "GA")
    sc, st = game([(ga, "0302"), (A, "0402"), (G, "0401")])
    st.turn = 2
    st.weather = "cloudy"  # one mission [14.3]
    prepared = act(sc, "AL", ["ga"], {"do": "attack", "target": "0401", "type": "P",
                                      "units": ["ga"], "air": True})
    assert RULES.validate(sc, st, "AL", prepared) == []
    res = RULES.resolve(sc, st, "AL", prepared, FixedDice([3]))
    assert "+1 column: air support [13]" in next(
        e for e in res.events if e["kind"] == "combat")["lines"]
    assert res.state.air_used == 1
    normal = act(sc, "AL", ["ga"], {"do": "attack", "target": "0401", "type": "N",
                                    "units": ["ga"], "air": True})
    assert rules_of(RULES.validate(sc, st, "AL", normal)) == ["13"]
    # 1st Airborne may use one of its two missions in a normal attack [13]
    airborne = act(sc, "AL", ["a"], {"do": "attack", "target": "0401", "type": "N",
                                     "units": ["a"], "air": True})
    res = RULES.resolve(sc, st, "AL", airborne, FixedDice([3]))
    assert res.state.airborne_missions == 1 and res.state.air_used == 0
    st.weather = "overcast"
    assert rules_of(RULES.validate(sc, st, "AL", prepared)) == ["14.3"]


# -- optional rules [7.5 morale, 18.1] ------------------------------------------------------------------------


def test_7_5_morale_a_holding_defender_tests_each_hex() -> None:
    # 2:1, die 5 on N: 0/2 against g (morale 7) holding: 3+3 = 6 < 7 turns the first hex into a
    # step loss; 4+4 = 8 fails, so the second is a hex of retreat [7.5 optional]
    sc, st = game([(A, "0302"), (B, "0402"), (G, "0401")], morale=True)
    st.standing["DE"] = Standing(defence="hold")
    orders = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0401", "type": "N",
                                        "units": ["a", "b"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5, 3, 3, 4, 4]))
    morale = next(e for e in res.events if e["kind"] == "morale")
    assert morale["rolls"] == [[3, 3], [4, 4]] and (morale["steps"], morale["hexes"]) == (1, 1)
    assert res.state.units["g"].steps == 1 and res.state.units["g"].hex != "0401"
    # without the option a holding defender takes both as steps and no die is rolled
    sc2, st2 = game([(A, "0302"), (B, "0402"), (G, "0401")])
    st2.standing["DE"] = Standing(defence="hold")
    res = RULES.resolve(sc2, st2, "AL", orders, FixedDice([5]))
    assert res.state.units["g"].steps == 0


def test_15_1_and_6_1_orders_signed_with_a_bare_destination_are_refused() -> None:
    """A modified client signs ``enter``/``move`` with only a ``to`` (pbem expands it into the path
    before anything is signed): the entry crashed on its missing first hex, the move went nowhere
    while the check said nothing. Both are refused, naming the case, the unit and the hex."""
    r = unit("r", "DE", "9SS", mp=6)
    sc, st = game([(A, "0106"), (r, None)],
                  reinforcements=[{"unit": "r", "turn": 1, "zone": "D"}])
    st.to_act = "DE"
    enter = act(sc, "DE", ["r"], {"do": "enter", "unit": "r", "to": "0402"})
    [v] = RULES.validate(sc, st, "DE", enter)
    assert (v.rule, v.unit, v.hex) == ("15.1", "r", "0402") and "hex by hex" in v.message
    normalized = RULES.normalize(sc, st, "DE", enter)
    assert normalized.actions[0].to is None and RULES.validate(sc, st, "DE", normalized) == []
    g = unit("g", "DE", "9SS", mp=6)
    sc2, st2 = game([(A, "0106"), (g, "0401")])
    st2.to_act = "DE"
    move = act(sc2, "DE", ["g"], {"do": "move", "unit": "g", "to": "0403"})
    assert [(v.rule, v.hex) for v in RULES.validate(sc2, st2, "DE", move)] == [("6.1", "0403")]


def test_15_1_a_zone_in_allied_hands_is_closed() -> None:
    r = unit("r", "DE", "9SS", mp=6)
    sc, st = game([(A, "0501"), (r, None)], reinforcements=[{"unit": "r", "turn": 1,
                                                             "zone": "D"}])
    st.to_act = "DE"
    bad = RULES.validate(sc, st, "DE", act(sc, "DE", ["r"], {"do": "enter", "unit": "r",
                                                             "path": ["0401"]}))
    assert rules_of(bad) == ["15.1"] and "Allied hands" in str(bad[0])


def test_18_1_the_simplified_sequence_plays_whole_player_turns_allies_first() -> None:
    sc, st = game([(A, "0302"), (B, "0102"), (G, "0401"), (H, "0601")], simplified=True)
    assert [(d.side, d.kind) for d in RULES.pending(sc, st)] == [("AL", "player-turn")]
    # every unit at once, movement before combat [18.1]
    orders = act(sc, "AL", ["a", "b"], {"do": "move", "unit": "b", "path": ["0202"]},
                 {"do": "attack", "target": "0401", "type": "N", "units": ["a"]}, mode="phase")
    assert RULES.validate(sc, st, "AL", orders) == []
    late = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0401", "type": "N",
                                      "units": ["a"]},
               {"do": "move", "unit": "b", "path": ["0202"]}, mode="phase")
    assert rules_of(RULES.validate(sc, st, "AL", late)) == ["18.1"]
    assert rules_of(RULES.validate(sc, st, "AL", act(sc, "AL", ["a"]))) == ["18.1"]
    st = RULES.resolve(sc, st, "AL", orders, FixedDice([3])).state
    assert [(d.side, d.kind) for d in RULES.pending(sc, st)] == [("DE", "player-turn")]
    res = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([]))
    # no initiative: turn 2 starts with the Allies, no die rolled [18.1]
    assert res.state.turn == 2 and res.state.to_act == "AL"
    assert "initiative" not in [e["kind"] for e in res.events]
    assert [(d.side, d.kind) for d in RULES.pending(sc, res.state)] == [("AL", "player-turn")]


# -- the map view ---------------------------------------------------------------------------------------------


def test_map_view_shows_counters_markers_combat_retreat_and_advance() -> None:
    from pbem.maps.view import CombatMark, TrailMark
    from pbem.render.svg import draw

    sc, st = game([(A, "0302"), (B, "0402"), (G, "0401")])
    orders = act(sc, "AL", ["a", "b"],
                 {"do": "attack", "target": "0401", "type": "N", "units": ["a", "b"]},
                 {"do": "advance", "units": ["a"], "hexes": 1})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    p = RULES.presenter()
    assert p.has_map
    view = p.map_view(sc, RULES.dump_state(sc, res.state), res.events)
    a = next(c for c in view.counters if c.id == "a")
    assert (a.hex, a.symbol, a.value_lines) == (Hex(4, 1), "airborne", ("3-0-6", "2 steps"))
    assert ("ACT", "marker-advanced") in a.markers  # activated [3.1]
    combat = next(m for m in view.marks if isinstance(m, CombatMark))
    assert combat.label == "#1  2:1 · 5 · 0/2" and combat.defenders == (Hex(4, 1),)
    assert set(combat.attackers) == {Hex(3, 2), Hex(4, 2)}
    trails = {(m.kind, m.unit) for m in view.marks if isinstance(m, TrailMark)}
    assert trails == {("retreat", "g"), ("advance", "a")}
    svg = draw(view)
    assert svg.startswith("<") and "2:1" in svg


# -- more edges of the cases -----------------------------------------------------------------------------------


def test_4_3_a_retreat_into_an_enemy_zone_costs_a_step() -> None:
    # g at 0102 (west edge); HQAL holds 0101, a (0202) and b (0201) attack: 6:3, 2:1, die 4 on N
    # is 0/1; the only open hex, 0103, is in a's zone: g retreats there and loses a step [4.3, 7.6]
    sc, st = game([(A, "0202"), (B, "0201"), (G, "0102")])
    orders = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0102", "type": "N",
                                        "units": ["a", "b"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([4]))
    assert next(e for e in res.events if e["kind"] == "combat")["result"] == "0/1"
    assert res.state.units["g"].hex == "0103" and res.state.units["g"].steps == 1
    assert {"kind": "step-lost", "unit": "g", "why": "retreat", "steps": 1} in res.events


def test_7_6_a_stack_with_no_hex_open_at_the_edge_retreats_off_the_map() -> None:
    sc, st = game([(A, "0202"), (B, "0201"), (C, "0103"), (G, "0102")])
    orders = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0102", "type": "N",
                                        "units": ["a", "b"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([4]))
    assert res.state.units["g"].steps == 0
    assert any(e["kind"] == "eliminated" and e["unit"] == "g" and "off the map" in e["why"]
               for e in res.events)


def test_12_1_the_engineer_alone_is_destroyed_when_a_german_unit_enters() -> None:
    eng = unit("eng", "AL", "GA", kind="engineer", arm="engineer", cf=0, steps=1)
    sc, st = game([(eng, "0402"), (G, "0401")])
    st.to_act = "DE"
    move = act(sc, "DE", ["g"], {"do": "move", "unit": "g", "path": ["0402", "0403"]})
    assert RULES.validate(sc, st, "DE", move) == []  # no zone, no block: it has no CF [4.2]
    res = RULES.resolve(sc, st, "DE", move, FixedDice([]))
    assert res.state.units["eng"].steps == 0 and res.state.units["g"].hex == "0403"


def test_2_2_the_side_still_active_ends_the_turn_by_passing() -> None:
    sc, st = game([(A, "0102"), (B, "0103"), (G, "0502")])
    st.units["g"].activated = st.units["HQDE"].activated = True
    st = RULES.resolve(sc, st, "AL", act(sc, "AL", ["a"]), FixedDice([])).state
    st = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([])).state  # owed
    res = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([1, 6]))
    assert res.state.turn == 2 and res.state.to_act == "DE"
    assert {"kind": "turn-end", "turn": 1, "why": "the side still active passed [2.2]"} in res.events


def test_17_4_a_free_drop_may_wait_and_the_poles_may_move_their_drop_zone() -> None:
    p = unit("p", "AL", "1AB")
    grp = {"group": "Pol", "units": ["p"], "turn": 2, "dz": "0102", "radius": 2,
           "terrain": ["clear"], "alternative_dz": True}
    sc, st = game([(A, "0106"), (p, None), (G, "0606")], drops=[grp], drop="free")
    st.turn, st.phase = 2, "drop"
    wait = RULES.load_orders(sc, {"kind": "drop", "side": "AL", "wait": ["Pol"]})
    assert RULES.validate(sc, st, "AL", wait) == []
    moved = RULES.load_orders(sc, {"kind": "drop", "side": "AL", "dz": {"Pol": "0305"},
                                   "landings": [{"unit": "p", "hex": "0405"}]})
    assert RULES.validate(sc, st, "AL", moved) == []
    on_enemy = RULES.load_orders(sc, {"kind": "drop", "side": "AL", "dz": {"Pol": "0606"},
                                      "landings": [{"unit": "p", "hex": "0605"}]})
    assert rules_of(RULES.validate(sc, st, "AL", on_enemy)) == ["15.2"]
    sc2, st2 = game([(A, "0106"), (p, None), (G, "0606")], drops=[grp])
    st2.turn, st2.phase = 2, "drop"
    assert rules_of(RULES.validate(sc2, st2, "AL", wait)) == ["17.3"]


def test_8_4_divisional_integrity_and_corps_artillery() -> None:
    ga = unit("ga", "AL", "GA")
    xxx = unit("xxx", "AL", "GA", kind="artillery", arm="artillery", mobility="motorized", cf=0,
               armour=1, steps=1, mp=4, br=4, df=2, range=4)
    sc, st = game([(ga, "0302"), (A, "0402"), (ART, "0201"), (xxx, "0202"), (G, "0401")])
    foreign = act(sc, "AL", ["ga", "art"], {"do": "attack", "target": "0401", "type": "N",
                                            "units": ["ga"], "support": ["art"]})
    bad = RULES.validate(sc, st, "AL", foreign)
    assert rules_of(bad) == ["8.4"] and "divisional integrity" in str(bad[0])
    corps = act(sc, "AL", ["a", "xxx"], {"do": "attack", "target": "0401", "type": "N",
                                         "units": ["a"], "support": ["xxx"]})
    assert RULES.validate(sc, st, "AL", corps) == []  # XXX Corps supports the paras [8.4]


def test_roster_and_reach() -> None:
    sc, st = game([(A, "0102"), (G, "0606")])
    p = RULES.presenter()
    header, rows = p.roster(sc, st, "AL")
    assert header[0] == "unit" and ["a", "a", "1AB", "0102", "3-0-6 2 steps", "ready"] in rows
    lines = p.reach(sc, st, "a")
    assert "0103: 1 MP [6.3]" in lines and "0202: 1 MP [6.3]" in lines
    # 0104, across the river below 0103, only by the bridge: 0202 (2), 0303 (2), 0304 by road (1),
    # 0204 (2), 0104 (2): 9 half MP [6.3, 12.1]
    assert "0104: 4½ MP [6.3]" in lines
    # half an MP alone reads as such, not "0½": 0303 -> 0304 by road is one half MP [6.3]
    sc, st = game([(A, "0303"), (G, "0606")])
    assert "0304: ½ MP [6.3]" in p.reach(sc, st, "a")


def test_undone_names_idle_units_and_attacks_without_advance() -> None:
    sc, st = game([(A, "0302"), (B, "0102"), (G, "0401")])
    doc = {"kind": "activation", "side": "AL", "mode": "general", "units": ["a", "b"],
           "actions": [{"do": "attack", "target": "0401", "type": "N", "units": ["a"]}]}
    lines = RULES.presenter().undone(sc, st, "AL", doc)
    assert lines == ["b is activated but neither moves nor fights: its activation for the turn "
                     "is spent [3.1]",
                     "the attack on 0401 has no advance written: nobody advances if it is "
                     "vacated [7.6]"]


def test_1_2_a_unit_down_to_its_second_counter_uses_its_values() -> None:
    # big: 4 steps, CF 6; its second counter (2 steps) has CF 5 (unit(): cf - 1): the attack
    # strength the CRT reads is 6 at full strength, 5 once reduced to two steps [1.2, 7.4]
    big = unit("big", "AL", "1AB", steps=4, cf=6)
    sc, st = game([(big, "0302"), (G, "0401")])
    orders = act(sc, "AL", ["big"], {"do": "attack", "target": "0401", "type": "N",
                                     "units": ["big"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([3]))
    assert next(e for e in res.events if e["kind"] == "combat")["lines"][0].startswith(
        "6 against 3")
    st.units["big"].steps = 2
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([3]))
    assert next(e for e in res.events if e["kind"] == "combat")["lines"][0].startswith(
        "5 against 3")


def test_10_2_out_of_supply_halves_only_motor_units() -> None:
    mot = unit("mot", "AL", "GA", mobility="motorized", mp=6)
    leg = unit("leg", "AL", "GA", mp=6)
    sc, st = game([(mot, "0102"), (leg, "0103"), (G, "0606")])
    st.turn = 2  # not the turn of entry [errata]
    g = RULES.game(sc)
    st.units["mot"].in_supply = st.units["leg"].in_supply = False
    assert (g.allowance(st, "mot"), g.allowance(st, "leg")) == (6, 12)  # half MP [10.2]
    st.units["mot"].in_command = False  # out of command too: still halved once [10.2 note]
    assert g.allowance(st, "mot") == 6


def test_14_2_random_weather_and_six_keeps_the_turn_before() -> None:
    sc, st = game([(A, "0102"), (G, "0606")], weather="random")
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    res = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([4, 1, 2]))
    assert res.state.weather == "overcast"  # 4: overcast [14.2]
    st = res.state
    st.turn = 2
    st.owed = None
    st.to_act = "AL"
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    res = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([6, 1, 2]))
    assert res.state.weather == "overcast"  # 6: as the turn before
    assert {"kind": "weather", "turn": 3, "weather": "overcast", "die": 6} in res.events


def test_4_2_zones_of_control_for_the_map_stop_at_the_river() -> None:
    sc, st = game([(A, "0203"), (G, "0606")])
    covered = RULES.presenter().zones_of_control(sc, RULES.dump_state(sc, st), "AL")
    assert covered is not None
    # a at 0203 (even column: 0202, 0204, 0103, 0104, 0303, 0304 around it) covers 0202, 0103
    # and 0303 but not 0204, 0104 nor 0304 across the Neder Rijn [4.2]
    assert {Hex(2, 2), Hex(1, 3), Hex(3, 3)} <= set(covered)
    assert not {Hex(2, 4), Hex(1, 4), Hex(3, 4)} & set(covered)


def test_7_6_a_unit_retreating_into_a_friendly_stack_adds_no_defence_there() -> None:
    # g retreats from 0102 into 0103 where h stands (a's zone is negated by h [4.2]): then a and
    # b's attack on 0103 finds h's CF 3 alone, not 3 + 3 [7.6]
    sc, st = game([(A, "0202"), (B, "0201"), (G, "0102"), (H, "0103")])
    orders = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0102", "type": "M",
                                        "units": ["a", "b"]},
                 {"do": "attack", "target": "0103", "type": "M", "units": ["a"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5, 3]))
    first, second = [e for e in res.events if e["kind"] == "combat"]
    assert first["result"] == "0/1" and res.state.units["g"].hex == "0103"
    assert res.state.joined == ["g"] and res.state.units["g"].steps == 2
    assert second["defenders"] == ["g", "h"] and second["lines"][0].startswith("3 against 3")


def test_3_text_orders_that_cannot_be_read_name_the_line_never_a_traceback() -> None:
    from pbem.errors import InputError
    from pbem.systems.arnhem1944.presenter import Arnhem1944Presenter
    from pbem.systems.arnhem1944.rules import Arnhem1944Rules

    p = Arnhem1944Presenter(Arnhem1944Rules())
    skeleton = {"kind": "pass", "side": "AL"}
    for text, words in (("activate: a\nattack 0606 with a", "line 2: say the attack's type"),
                        ("activate: a\nattack", "line 2: say the attack's type after the hex: 'attack HEX"),
                        ("frobnicate a", "line 1: unknown order 'frobnicate': the orders are activate")):
        with pytest.raises(InputError) as exc:
            p.parse_text_orders(None, skeleton, "AL", text)
        assert words in str(exc.value)


# -- the game's choices at pbem new [14.1, 15.3, 18.1, 7.5] ------------------------------------------------


def test_14_1_random_weather_chosen_at_new_rolls_the_weather_die() -> None:
    sc = RULES.load_scenario(scenario_data([(A, "0102"), (G, "0606")]))  # historical by default
    st = RULES.initial_state(sc, {"weather": "random"})
    assert st.options.weather == "random" and st.weather == "clear"  # turn 1: the track's
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    # die 1: clear (the track says cloudy for turn 2) [14.2]; then AL 1 against DE 2
    res = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([1, 1, 2]))
    assert res.state.weather == "clear" and res.state.initiative == "DE"
    assert {"kind": "weather", "turn": 2, "weather": "clear", "die": 1} in res.events
    # the scenario's own choice: the track's weather, no die (the first two dice are initiative)
    st = RULES.initial_state(sc, {})
    st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
    res = RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([1, 2]))
    assert res.state.weather == "cloudy" and res.state.initiative == "DE"
    assert {"kind": "weather", "turn": 2, "weather": "cloudy"} in res.events


def test_14_1_the_choices_are_kept_in_the_state_and_the_scenario_gives_the_defaults() -> None:
    sc = RULES.load_scenario(scenario_data([(A, "0102"), (G, "0606")], weather="random",
                                           morale=True))
    st = RULES.initial_state(sc, {"morale": False})
    dumped = RULES.dump_state(sc, st)
    assert dumped["options"] == {"weather": "random", "xxx_corps_early": False,
                                 "simplified_sequence": False, "morale": False}
    assert RULES.load_state(sc, dumped) == st


@pytest.mark.parametrize(("given", "words"), [
    ({"fog": True}, "arnhem1944 has no option 'fog' (options: weather, xxx_corps_early, "
                    "simplified_sequence, morale; and chain_length)"),
    ({"weather": "sunny"}, "[14.1] option weather is historical or random, not 'sunny'"),
    ({"morale": 1}, "[7.5] option morale is true or false, not 1"),
    ({"simplified_sequence": "yes"}, "[18.1] option simplified_sequence is true or false, "
                                     "not 'yes'"),
    ({"xxx_corps_early": "historical"}, "[15.3] option xxx_corps_early is true or false"),
    ({"drop": "free"}, "[17] the drop is the scenario's (historic)"),
])
def test_14_1_an_unknown_option_or_value_is_refused_naming_the_allowed(
        given: dict[str, Any], words: str) -> None:
    sc = RULES.load_scenario(scenario_data([(A, "0102"), (G, "0606")]))
    with pytest.raises(InputError) as exc:
        RULES.initial_state(sc, given)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_15_3_xxx_corps_early_chosen_at_new_enters_a_turn_sooner() -> None:
    x = unit("x", "AL", "GA", mp=6)
    units = [(A, "0102"), (x, None), (G, "0601")]
    data = scenario_data(units, reinforcements=[{"unit": "x", "turn": 2, "hex": "0306"}])
    sc = RULES.load_scenario(data)
    enter = act(sc, "AL", ["x"], {"do": "enter", "unit": "x", "path": ["0306"]})
    late = RULES.initial_state(sc, {})
    bad = RULES.validate(sc, late, "AL", enter)
    assert rules_of(bad) == ["15"] and "not due to enter" in str(bad[0])
    early = RULES.initial_state(sc, {"xxx_corps_early": True})
    assert RULES.validate(sc, early, "AL", enter) == []  # turn 2 - 1 [15.3 optional]


def test_18_1_simplified_sequence_chosen_at_new_or_refused_over_the_scenario() -> None:
    units = [(A, "0302"), (G, "0401")]
    sc = RULES.load_scenario(scenario_data(units))
    st = RULES.initial_state(sc, {"simplified_sequence": True})
    assert [(d.side, d.kind) for d in RULES.pending(sc, st)] == [("AL", "player-turn")]
    sc2 = RULES.load_scenario(scenario_data(units, simplified=True))
    st2 = RULES.initial_state(sc2, {"simplified_sequence": False})
    assert [(d.side, d.kind) for d in RULES.pending(sc2, st2)] == [("AL", "activation")]


def test_7_5_morale_chosen_at_new_tests_a_holding_defender() -> None:
    # as test_7_5_morale_a_holding_defender_tests_each_hex, the option given at new instead
    sc = RULES.load_scenario(scenario_data([(A, "0302"), (B, "0402"), (G, "0401")]))
    st = RULES.initial_state(sc, {"morale": True})
    st.standing["DE"] = Standing(defence="hold")
    orders = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0401", "type": "N",
                                        "units": ["a", "b"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5, 3, 3, 4, 4]))
    assert res.state.units["g"].steps == 1 and res.state.units["g"].hex != "0401"


def test_14_1_the_games_choices_show_in_its_description() -> None:
    sc = RULES.load_scenario(scenario_data([(A, "0102"), (G, "0606")]))
    assert RULES.describe(sc, RULES.initial_state(sc, {})) == \
        "turn 1 of 3 (clear), operations, AL to act"
    st = RULES.initial_state(sc, {"weather": "random", "morale": True})
    assert RULES.describe(sc, st) == \
        "turn 1 of 3 (clear; random weather [14.2], morale [7.5]), operations, AL to act"


def test_7_4_a_replaced_crt_in_the_scenario_changes_the_result_exactly_as_its_table_says(tmp_path: Path) -> None:
    # The same 2:1 normal attack with die 5 reads 0/2 in pbem's reconstruction; a player's CRT whose
    # N grid says '0/3g' everywhere gives the defender three hexes/steps with the green minimum of two
    # steps [7.5] -- and pbem scenario check names a broken replacement's cell.
    import json

    from helpers.protocol import pbem as run_pbem

    from pbem.engine.scenarios import bundled_dir

    crt = json.loads((bundled_dir() / "arnhem1944-crt.json").read_text(encoding="utf-8"))
    crt["results"]["N"] = [["0/3g"] * len(crt["columns"]) for _ in range(6)]
    data = scenario_data([(A, "0302"), (B, "0402"), (G, "0401")])
    data["crt"] = crt
    sc = RULES.load_scenario(data)
    st = RULES.initial_state(sc, {})
    orders = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0401", "type": "N", "units": ["a", "b"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert (combat["odds"], combat["result"]) == ("2:1", "0/3g")
    assert st.units["g"].steps == 2 and res.state.units["g"].steps == 0  # the green minimum: both steps
    assert {"kind": "eliminated", "unit": "g", "hex": "0401"} in res.events
    plain = RULES.load_scenario(scenario_data([(A, "0302"), (B, "0402"), (G, "0401")]))
    res = RULES.resolve(plain, RULES.initial_state(plain, {}), "AL",
                        act(plain, "AL", ["a", "b"], {"do": "attack", "target": "0401", "type": "N",
                                                      "units": ["a", "b"]}), FixedDice([5]))
    assert next(e for e in res.events if e["kind"] == "combat")["result"] == "0/2"
    # a scenario beside a broken chart file: pbem scenario check names the cell [7.5]
    crt["results"]["N"][2][3] = "banana"
    (tmp_path / "my-crt.json").write_text(json.dumps(crt), encoding="utf-8")
    data["crt"] = "my-crt.json"
    (tmp_path / "mine.json").write_text(json.dumps(data), encoding="utf-8")
    out = run_pbem("scenario", "check", tmp_path / "mine.json", home=tmp_path / "home")
    assert out.code != 0 and "crt.results.N[2][3]" in (out.out + out.err)
