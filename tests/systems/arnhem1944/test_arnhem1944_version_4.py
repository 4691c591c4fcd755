"""Arnhem 1944 rules version 4 (issue 26) and version 3 beside it: each fix and each revisited
reading, named by its case, played by both versions on the tiny map of
``test_arnhem1944_rules.py``: the newest ruleset gives the result the text asks for, the ruleset
at version 3 (a game begun under it, ``Ruleset.at_version``) keeps the result it always gave.
Expected values are worked out by hand from seed 003 and the reconstructed tables
(``pbem/scenario_data/arnhem1944-crt.json``, ``-tec.json``); each test says how."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.protocol.dice import FixedDice
from pbem.systems.arnhem1944.queries import Readings
from pbem.systems.arnhem1944.rules import Arnhem1944Rules
from pbem.systems.arnhem1944.state import State
from systems.arnhem1944.test_arnhem1944_rules import (
    RULES,
    A,
    B,
    G,
    H,
    act,
    rules_of,
    scenario_data,
    unit,
)

V3 = RULES.at_version("3")
BOTH = pytest.mark.parametrize("rules", [RULES, V3], ids=["v4", "v3"])
BIG = unit("big", "AL", "1AB", cf=6)
DART = unit("dart", "DE", "9SS", kind="artillery", arm="artillery", mobility="motorized", cf=0,
            armour=1, steps=1, mp=4, br=3, df=4, range=3)


def _game(rules: Arnhem1944Rules, data: dict[str, Any],
          options: dict[str, Any] | None = None) -> tuple[Any, State]:
    sc = rules.load_scenario(data)
    return sc, rules.initial_state(sc, options or {})


def _kinds(res: Any, *kinds: str) -> list[dict[str, Any]]:
    return [e for e in res.events if e["kind"] in kinds]


def _decided(rules: Arnhem1944Rules, sc: Any, st: State) -> list[tuple[str, str, bool]]:
    return [(d.side, d.kind, d.random) for d in rules.pending(sc, st)]


def test_the_version_4_ruleset_still_plays_version_3() -> None:
    assert RULES.rules_id == "arnhem1944/4" and RULES.plays == ("3",)
    assert V3.rules_id == "arnhem1944/3" and not V3.since("4")
    new, old = Readings.of(RULES), Readings.of(V3)
    assert new == Readings()  # the defaults are the newest version's
    assert old == Readings(entry_hex_demolition=False, own_positions=False, artillery_zoc=True,
                           first_turn_weather_die=False, mobile_only_in_enemy_zoc=False)


# -- [12.2] only movement rolls for a railway bridge or ferry ----------------------------------------


@BOTH
def test_12_2_an_advance_after_combat_next_to_a_railway_bridge_rolls_nothing(
        rules: Arnhem1944Rules) -> None:
    # big (CF 6) at 0502 attacks g (CF 3) at 0503, a hex of the railway bridge 0503/0504: 6
    # against 3 is 2:1, clear, no shift; die 5 on the N grid is 0/2: g takes no step (not red)
    # and retreats two hexes, vacating 0503 [7.4, 7.5]. big advances one hex into 0503. "The
    # moment an allied unit enters a hex adjacent ... the first time an allied unit moves
    # adjacent" [12.2]: an advance is not a move -- no die (FixedDice holds only the combat's)
    sc, st = _game(rules, scenario_data([(BIG, "0502"), (G, "0503")]))
    orders = act(sc, "AL", ["big"], {"do": "attack", "target": "0503", "type": "N",
                                     "units": ["big"]},
                 {"do": "advance", "units": ["big"], "hexes": 1})
    res = rules.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert next(e for e in res.events if e["kind"] == "combat")["result"] == "0/2"
    assert [(e["unit"], e["path"]) for e in _kinds(res, "advanced")] == [("big", ["0503"])]
    assert _kinds(res, "blown", "not-blown") == [] and res.state.tried == []
    assert res.state.units["big"].hex == "0503"


@BOTH
def test_12_2_a_move_next_to_a_railway_bridge_rolls_in_both_versions(
        rules: Arnhem1944Rules) -> None:
    # the control of the test above: big moves 0502 -> 0503 instead: die 3, not a 6, the crossing
    # is down [12.2]
    sc, st = _game(rules, scenario_data([(BIG, "0502"), (G, "0106")]))
    orders = act(sc, "AL", ["big"], {"do": "move", "unit": "big", "path": ["0503"]})
    res = rules.resolve(sc, st, "AL", orders, FixedDice([3]))
    assert res.state.blown == ["0503/0504"] and res.state.tried == ["0503/0504"]


def _ferry_at_the_edge() -> dict[str, Any]:
    """The tiny map with a ferry on 0603/0604 (the river, east edge) and a XXX Corps unit ``x``
    entering by hex 0603 on turn 1 [15.3]."""
    x = unit("x", "AL", "GA")
    data = scenario_data([(x, None), (G, "0205")],
                         reinforcements=[{"unit": "x", "turn": 1, "hex": "0603"}])
    data["map"]["lines"].append({"kind": "ferry", "name": "ferry", "hexsides": ["0603/0604"]})
    return data


def test_12_2_a_reinforcement_entering_on_a_hex_of_a_ferry_rolls_for_it() -> None:
    # x enters the map at 0603, a hex of the ferry 0603/0604: it "enters a hex adjacent" as much
    # as any move does; die 2, not a 6: the ferry is down [12.2]
    sc, st = _game(RULES, _ferry_at_the_edge())
    orders = act(sc, "AL", ["x"], {"do": "enter", "unit": "x", "path": ["0603"]})
    assert RULES.validate(sc, st, "AL", orders) == []
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([2]))
    assert [(e["kind"], e["crossing"], e["die"]) for e in _kinds(res, "blown", "not-blown")] == [
        ("blown", "0603/0604", 2)]
    assert res.state.blown == ["0603/0604"] and res.state.units["x"].hex == "0603"


def test_12_2_version_3_rolls_nothing_for_the_entry_hex() -> None:
    sc, st = _game(V3, _ferry_at_the_edge())
    orders = act(sc, "AL", ["x"], {"do": "enter", "unit": "x", "path": ["0603"]})
    res = V3.resolve(sc, st, "AL", orders, FixedDice([]))
    assert _kinds(res, "blown", "not-blown") == [] and res.state.tried == []
    assert res.state.units["x"].hex == "0603"


# -- [11] a prepared position shields only the units that paid for it -------------------------------


def _position_and_a_newcomer(rules: Arnhem1944Rules) -> tuple[Any, State, Any]:
    """g prepared its position at 0401; h (CF 3) came in afterwards without paying; a and b (CF
    3 each) attack 0401 with a normal attack."""
    sc, st = _game(rules, scenario_data([(A, "0302"), (B, "0402"), (G, "0401"), (H, "0401")]))
    st.units["g"].prepared = True
    orders = act(sc, "AL", ["a", "b"], {"do": "attack", "target": "0401", "type": "N",
                                        "units": ["a", "b"]})
    return sc, st, orders


def test_11_a_unit_that_moves_into_a_prepared_position_does_not_share_it() -> None:
    # 6 against g 3 + h 3: exactly 1:1 [7.4]. "PDPs are not transferable between units. If a
    # stack of units wishes to place a PDP, all units expend the necessary MP" [11.1]: h did not
    # pay, so the stack is not in a prepared position: no column for it [11.2], 1:1 stands
    sc, st, orders = _position_and_a_newcomer(RULES)
    combat = _kinds(RULES.resolve(sc, st, "AL", orders, FixedDice([5])), "combat")[0]
    assert combat["odds"] == "1:1"
    assert not any("prepared defensive position" in line for line in combat["lines"])


def test_11_a_stack_whose_every_unit_paid_keeps_its_position() -> None:
    # h prepares too: the column to the defender [11.2], 1:1 becomes 1:2
    sc, st, orders = _position_and_a_newcomer(RULES)
    st.units["h"].prepared = True
    combat = _kinds(RULES.resolve(sc, st, "AL", orders, FixedDice([5])), "combat")[0]
    assert combat["odds"] == "1:2"
    assert "-1 column: prepared defensive position [11.2]" in combat["lines"]


def test_11_version_3_lets_one_units_position_shield_the_stack() -> None:
    sc, st, orders = _position_and_a_newcomer(V3)
    combat = _kinds(V3.resolve(sc, st, "AL", orders, FixedDice([5])), "combat")[0]
    assert combat["odds"] == "1:2"
    assert "-1 column: prepared defensive position [11.2]" in combat["lines"]


BIG_GUN = unit("gun", "AL", "1AB", kind="artillery", arm="artillery", mobility="motorized", cf=0,
               armour=1, steps=1, mp=4, br=8, df=2, range=3)


@pytest.mark.parametrize(("rules", "problems"), [(RULES, []), (V3, ["8.1"])], ids=["v4", "v3"])
def test_8_4_11_the_newcomer_takes_away_the_halving_of_bombardment_values(
        rules: Arnhem1944Rules, problems: list[str]) -> None:
    # gun (BV 8) at 0201 bombards 0401 (clear), a next to it at 0302 [8.1]; g 3 + h 3 = CF 6.
    # Version 4: the stack is in no prepared position (h did not pay), the BV stays 8: 8:6 is
    # over the minimum 1:1, and rounded for the attacker the column is 2:1 [7.4, 8.1]. Version 3:
    # g's position halves it [8.4]: 4 against 6 is under 1:1, no bombardment
    sc, st = _game(rules, scenario_data([(A, "0302"), (BIG_GUN, "0201"), (G, "0401"),
                                         (H, "0401")]))
    st.units["g"].prepared = True
    orders = act(sc, "AL", ["gun"], {"do": "bombard", "target": "0401", "support": ["gun"]})
    assert rules_of(rules.validate(sc, st, "AL", orders)) == problems
    if not problems:
        res = rules.resolve(sc, st, "AL", orders, FixedDice([1]))
        assert _kinds(res, "bombardment")[0]["odds"] == "2:1"


@BOTH
def test_11_2_the_newcomer_must_still_attack_from_the_position_it_did_not_prepare(
        rules: Arnhem1944Rules) -> None:
    # g holds a position at 0401 next to a (0302) and b (0402); h moves 0501 -> 0401, into their
    # zone, and stops: a unit in a PDP "does not have to attack", but h has none of its own
    # [4.3, 11.2] -- in both versions
    sc, st = _game(rules, scenario_data([(A, "0302"), (B, "0402"), (G, "0401"), (H, "0501")]))
    st.units["g"].prepared = True
    st.to_act = "DE"
    move = act(sc, "DE", ["h"], {"do": "move", "unit": "h", "path": ["0401"]})
    assert rules_of(rules.validate(sc, st, "DE", move)) == ["4.3"]


# -- [4.2] artillery exerts no zone of control ----------------------------------------------------------


def test_4_2_artillery_exerts_no_zone_of_control() -> None:
    # dart (German artillery) at 0403; a at 0401 moves 0402 (next to dart) -> 0302. "All combat
    # units and EMs exert a ZdC" [4.2]: artillery is neither, so a does not stop at 0402
    sc, st = _game(RULES, scenario_data([(A, "0401"), (DART, "0403")]))
    move = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0402", "0302"]})
    assert RULES.validate(sc, st, "AL", move) == []
    zones = {str(h) for h in RULES.presenter().zones_of_control(sc, st, "DE") or []}
    # only HQDE's at 0601 (an EM): 0501, 0502, 0602
    assert zones == {"0501", "0502", "0602"}


def test_4_2_version_3_gives_artillery_a_zone_of_control() -> None:
    sc, st = _game(V3, scenario_data([(A, "0401"), (DART, "0403")]))
    move = act(sc, "AL", ["a"], {"do": "move", "unit": "a", "path": ["0402", "0302"]})
    assert rules_of(V3.validate(sc, st, "AL", move)) == ["4.2"]
    zones = {str(h) for h in V3.presenter().zones_of_control(sc, st, "DE") or []}
    # dart's zone: 0303, 0402 and 0503; not 0304, 0404 or 0504 across the river [4.2]
    assert {"0303", "0402", "0503"} <= zones and not {"0304", "0404", "0504"} & zones


# -- [2.1, 14.1] with random weather, turn 1 has its die ---------------------------------------------


def _with_a_set_up() -> dict[str, Any]:
    """a is placed by the Allied player within one hex of 0102, on clear terrain [17.1]."""
    data = scenario_data([(A, "0102"), (G, "0606")])
    for p in data["setup"]:
        if p["unit"] == "a":
            p.update(within=1, terrain=["clear"])
    return data


def _set_up(rules: Arnhem1944Rules, sc: Any) -> Any:
    return rules.load_orders(sc, {"kind": "setup", "side": "AL",
                                  "placements": [{"unit": "a", "hex": "0102"}]})


@pytest.mark.parametrize(("die", "weather"), [(1, "clear"), (4, "overcast"), (6, "clear")])
def test_14_1_random_weather_rolls_for_turn_1_with_the_set_up(die: int, weather: str) -> None:
    # [2.1] every turn begins with its weather phase, "Throw 1d6 ... (if option is in play)";
    # [14.2] 1 clear, 2-3 cloudy, 4-5 overcast, 6 as the turn before: on turn 1 the game's
    # starting weather, the turn track's (clear here). The set-up carries the die; the German
    # pass that reveals it comes before the first Allied activation
    sc, st = _game(RULES, _with_a_set_up(), {"weather": "random"})
    assert _decided(RULES, sc, st) == [("AL", "setup", True)]
    assert RULES.pending(sc, st)[0].revealer == "DE"
    res = RULES.resolve(sc, st, "AL", _set_up(RULES, sc), FixedDice([die]))
    assert [(e["turn"], e["weather"], e["die"]) for e in _kinds(res, "weather")] == [
        (1, weather, die)]
    assert res.state.weather == weather
    assert _decided(RULES, sc, res.state) == [("DE", "pass", False)]
    after = RULES.resolve(sc, res.state, "DE", RULES.load_orders(
        sc, {"kind": "pass", "side": "DE"}), FixedDice([])).state
    assert _decided(RULES, sc, after) == [("AL", "activation", True)]


def test_14_1_historical_weather_rolls_nothing_at_the_set_up() -> None:
    sc, st = _game(RULES, _with_a_set_up())
    assert _decided(RULES, sc, st) == [("AL", "setup", False)]
    res = RULES.resolve(sc, st, "AL", _set_up(RULES, sc), FixedDice([]))
    assert _kinds(res, "weather") == [] and res.state.weather == "clear"


def test_14_1_version_3_keeps_the_turn_track_weather_on_turn_1() -> None:
    sc, st = _game(V3, _with_a_set_up(), {"weather": "random"})
    assert _decided(V3, sc, st) == [("AL", "setup", False)]
    res = V3.resolve(sc, st, "AL", _set_up(V3, sc), FixedDice([]))
    assert _kinds(res, "weather") == [] and res.state.weather == "clear"
    assert _decided(V3, sc, res.state) == [("AL", "activation", True)]


# -- [15.2] only units that land in an enemy zone are held to mobile assaults ------------------------


def _landed(rules: Arnhem1944Rules) -> tuple[Any, State]:
    """Turn 2: p lands at 0201 (out of g's zone), q at 0103 (in it: g at 0203 controls 0103,
    0202 and 0303; 0104, 0204 and 0304 lie across the river [4.2]); the Allies win the
    initiative (6 against 2) and the German owed pass has been made."""
    p, q = unit("p", "AL", "1AB"), unit("q", "AL", "1AB")
    grp = {"group": "4P", "units": ["p", "q"], "turn": 2, "dz": "0102", "radius": 2,
           "terrain": ["clear", "town"]}
    sc, st = _game(rules, scenario_data([(p, None), (q, None), (G, "0203")], drops=[grp]))
    for side in ("AL", "DE"):
        st = rules.resolve(sc, st, side, rules.load_orders(sc, {"kind": "pass", "side": side}),
                           FixedDice([])).state
    drop = rules.load_orders(sc, {"kind": "drop", "side": "AL", "landings": [
        {"unit": "p", "hex": "0201"}, {"unit": "q", "hex": "0103"}]})
    assert rules.validate(sc, st, "AL", drop) == []
    st = rules.resolve(sc, st, "AL", drop, FixedDice([6, 2])).state
    st = rules.resolve(sc, st, "DE", rules.load_orders(sc, {"kind": "pass", "side": "DE"}),
                       FixedDice([])).state
    assert _decided(rules, sc, st) == [("AL", "activation", True)]
    return sc, st


def _normal(sc: Any, who: str, *moves: dict[str, Any]) -> Any:
    return act(sc, "AL", [who], *moves, {"do": "attack", "target": "0203", "type": "N",
                                         "units": [who]})


def test_15_2_only_units_that_dropped_in_an_enemy_zone_are_held_to_mobile_assaults() -> None:
    # "units may drop in enemy ZdC, and may attack the enemy during its activation but may only
    # use mobile combat" [15.2]: q (landed in g's zone) makes mobile assaults only; p (landed
    # clear of it) moves 0201 -> 0202 (town, 1 MP) and makes a normal attack (3 MP) [7.1]
    sc, st = _landed(RULES)
    assert st.landed_in_zoc == ["q"]
    assert RULES.validate(sc, st, "AL", _normal(sc, "p", {"do": "move", "unit": "p",
                                                          "path": ["0202"]})) == []
    assert rules_of(RULES.validate(sc, st, "AL", _normal(sc, "q"))) == ["15.2"]
    mobile = act(sc, "AL", ["q"], {"do": "attack", "target": "0203", "type": "M", "units": ["q"]})
    assert RULES.validate(sc, st, "AL", mobile) == []
    dumped = RULES.dump_state(sc, st)
    assert dumped["landed_in_zoc"] == ["q"]
    assert RULES.load_state(sc, dumped).landed_in_zoc == ["q"]


def test_15_2_version_3_holds_every_unit_dropped_that_turn_to_mobile_assaults() -> None:
    sc, st = _landed(V3)
    assert st.landed_in_zoc == [] and "landed_in_zoc" not in V3.dump_state(sc, st)
    assert rules_of(V3.validate(sc, st, "AL", _normal(sc, "p", {"do": "move", "unit": "p",
                                                                "path": ["0202"]}))) == ["15.2"]
    assert rules_of(V3.validate(sc, st, "AL", _normal(sc, "q"))) == ["15.2"]
