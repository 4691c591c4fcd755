"""Outside input to Arnhem 1944 -- scenario files, states read from turn files, orders -- is read
strictly by the records (issue 28): a hostile value is refused in one line naming the field (and
the case where the rule has one); what the bundled data needs is still accepted (a weather table
keyed by die faces written as JSON strings [14.2], a bridge as a pair of hexes [16])."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.engine.scenarios import load_data
from pbem.errors import InputError
from pbem.protocol.record import RecordError
from pbem.systems.arnhem1944.model import Scenario
from pbem.systems.arnhem1944.orders import Action, Standing
from pbem.systems.arnhem1944.rules import Arnhem1944Rules

RULES = Arnhem1944Rules()


def _scenario_error(edit: Any) -> str:
    data = copy.deepcopy(load_data("arnhem1944-historical"))
    edit(data)
    with pytest.raises(RecordError) as err:
        Scenario.parse(data)
    return err.value.line()


def test_14_2_the_weather_table_is_keyed_by_die_faces() -> None:
    data = load_data("arnhem1944-historical")
    assert set(data["weather_table"]) == {"1", "2", "3", "4", "5", "6"}  # JSON: string keys
    sc = Scenario.parse(data)
    assert sorted(sc.weather_table) == [1, 2, 3, 4, 5, 6]
    assert sc.weather_table[6] == "same"
    assert "weather_table.six.[key]: expected an integer, got a string" in _scenario_error(
        lambda d: d["weather_table"].__setitem__("six", "clear"))
    assert "[14.2] the weather table has one entry per die face" in _scenario_error(
        lambda d: d["weather_table"].__setitem__("7", "clear"))
    assert "weather_table.1: must be one of 'clear', 'cloudy', 'overcast', 'same'" in _scenario_error(
        lambda d: d["weather_table"].__setitem__("1", "snow"))


def test_16_the_bridge_is_two_hexes() -> None:
    sc = Scenario.parse(load_data("arnhem1944-historical"))
    assert isinstance(sc.victory.bridge_hexes, tuple) and len(sc.victory.bridge_hexes) == 2
    assert "victory.bridge_hexes: expected 2 items, got 3" in _scenario_error(
        lambda d: d["victory"]["bridge_hexes"].append("1408"))
    assert "victory.far_bank_hex: does not match" in _scenario_error(
        lambda d: d["victory"].__setitem__("far_bank_hex", "14O7"))


def test_1_2_a_counter_value_out_of_range_or_unknown_is_refused() -> None:
    assert "counters.0.steps: must be 1 <= n <= 4, got 5" in _scenario_error(
        lambda d: d["counters"][0].__setitem__("steps", 5))
    assert "counters.0.cf: expected an integer, got a string" in _scenario_error(
        lambda d: d["counters"][0].__setitem__("cf", "3"))
    assert "counters.0.colour: unknown field" in _scenario_error(
        lambda d: d["counters"][0].__setitem__("colour", "red"))


def test_a_hostile_state_is_refused_naming_the_field() -> None:
    sc = RULES.load_scenario(load_data("arnhem1944-historical"))
    good = RULES.dump_state(sc, RULES.initial_state(sc, {}))
    assert RULES.dump_state(sc, RULES.load_state(sc, good)) == good
    uid = next(iter(good["units"]))
    for edit, words in (
            (lambda s: s["units"][uid].__setitem__("steps", -1), f"units.{uid}.steps: must be 0 <= n, got -1"),
            (lambda s: s.__setitem__("phase", "lunch"), "phase: must be one of 'setup'"),
            (lambda s: s.__setitem__("turn", 0), "turn: must be 1 <= n, got 0"),
            (lambda s: s.__setitem__("extra", 1), "extra: unknown field"),
            (lambda s: s["options"].__setitem__("weather", "sunny"),
             "options.weather: must be one of 'historical', 'random'")):
        bad = copy.deepcopy(good)
        edit(bad)
        with pytest.raises(InputError) as err:
            RULES.load_state(sc, bad)
        assert str(err.value).startswith(f"arnhem1944 state: {words}"), str(err.value)


def test_15_2_landed_in_zoc_is_written_only_while_there_are_any() -> None:
    sc = RULES.load_scenario(load_data("arnhem1944-historical"))
    st = RULES.initial_state(sc, {})
    assert "landed_in_zoc" not in RULES.dump_state(sc, st)
    st.landed_in_zoc.append("x")
    assert RULES.dump_state(sc, st)["landed_in_zoc"] == ["x"]


def test_hostile_orders_are_refused_in_words_with_their_case() -> None:
    sc = RULES.load_scenario(load_data("arnhem1944-historical"))
    for doc, words in (
            ({"kind": "activation", "side": "AL", "mode": "general", "units": []},
             "activation: the units: none given [3]"),
            ({"kind": "pass", "side": "AL", "standing": {"bogus": 1}},
             "standing order: bogus: 'bogus' is not part of this order [7.5]"),
            ({"kind": "pass", "side": "AL", "standing": {"retreat": {"*": "x"}}},
             "standing order: 'retreat': 'x' is not a hex number XXYY to retreat towards [7.5]"),
            ({"kind": "pass", "side": "XX"}, "pass order: side: 'XX': it is 'AL' or 'DE' [2.2]"),
            ({"kind": "activation", "side": "AL", "mode": "general", "units": ["a"],
              "actions": [{"do": "attack", "target": "0606", "units": ["a"], "type": "Q"}]},
             "action 1: attack: the attack's type: 'Q': it is 'M', 'N' or 'P' [7.1]"),
            ({"kind": "activation", "side": "AL", "mode": "general", "units": ["a"],
              "actions": [{"do": "attack", "target": "0606", "units": ["a"]}]},
             "action 1: attack: a attack needs 'type' [7.1]")):
        with pytest.raises(InputError) as err:
            RULES.load_orders(sc, doc)
        assert str(err.value) == f"arnhem1944 orders: {words}"


def test_orders_dump_by_alias_without_defaults_and_with_kind_and_side() -> None:
    sc = RULES.load_scenario(load_data("arnhem1944-historical"))
    doc = {"kind": "pass", "side": "DE", "standing": {"defence": "hold", "fire": True}}
    assert RULES.dump_orders(sc, RULES.load_orders(sc, doc)) == {
        "kind": "pass", "side": "DE", "standing": {"defence": "hold"}}
    act = Action.parse({"do": "advance", "units": ["a"], "if": {"event": "vacated"}})
    assert act.if_ == {"event": "vacated"}
    assert act.to_json(omit_defaults=True) == {"do": "advance", "units": ["a"],
                                               "if": {"event": "vacated"}}
    assert Standing().to_json() == {"defence": "retreat", "hold": [], "lose": 0, "keep": 0,
                                    "fire": True, "air": True, "stacking": [], "retreat": {}}


def test_a_hex_nested_a_thousand_deep_is_refused_in_one_line() -> None:
    """A modified client's orders with a list nested ~975 deep where a hex number is due: refused
    as one line naming the field (printing the value whole raised RecursionError, a traceback in
    the opponent's ingest and in every later verify)."""
    from pbem.protocol.record import RecordError
    from pbem.systems.arnhem1944.state import HexNumber

    deep: Any = "0104"
    for _ in range(975):
        deep = [deep]
    with pytest.raises(RecordError) as info:
        HexNumber()(deep, ("placements", 0, "hex"))
    assert info.value.line() == "placements.0.hex: a list is not a hex number XXYY"


def test_2_a_turn_track_of_absurd_length_is_refused() -> None:
    assert "last_turn: must be 0 <= n <= 999, got 9007199254740991" in _scenario_error(
        lambda d: d.__setitem__("last_turn", 9007199254740991))
