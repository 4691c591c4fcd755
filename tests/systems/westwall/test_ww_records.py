"""WestWall's data as plain records [28]: outside input is read strictly (every problem named by
its field), and the dumps keep the shapes the archives were signed in."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import ROOT
from helpers.records import hold_trusted_records_to_the_checks
from helpers.westwall import state_with, tiny_scenario, unit

from pbem.errors import InputError
from pbem.protocol.record import RecordError
from pbem.systems.westwall.bastogne import BastogneSpecial
from pbem.systems.westwall.exclusive import parse_special
from pbem.systems.westwall.model import (
    DropZoneReveal,
    MoveOrder,
    PlayerTurnOrders,
    Scenario,
    StandingOrders,
    UnitState,
)
from pbem.systems.westwall.rules import WestWallRules, parse_orders, parse_state

R = WestWallRules()
COMPAT = ROOT / "tests" / "compat"


def _refused(orders: dict[str, Any]) -> str:
    with pytest.raises(InputError) as err:
        parse_orders(orders)
    line = str(err.value)
    assert "\n" not in line and line.startswith("malformed orders: ")
    return line


def test_orders_with_an_unknown_field_are_refused_naming_it() -> None:
    line = _refused({"kind": "player-turn", "side": "DE", "game_turn": 1, "moves": [], "hurry": True})
    assert "hurry: unknown field" in line


def test_orders_of_an_unknown_kind_are_refused_naming_kind() -> None:
    assert "kind: must be one of 'setup', 'player-turn', 'acknowledge'" in _refused({"kind": "pass", "side": "DE"})


def test_a_path_hex_that_is_no_hex_number_is_refused_naming_its_place_5_1() -> None:
    line = _refused({"kind": "player-turn", "side": "DE", "game_turn": 1,
                     "moves": [{"unit": "u1", "path": ["0707", "7a07"]}]})
    assert "moves.0.path.1: does not match" in line


def test_negative_ground_support_and_a_zero_advance_are_refused_9_0_7_9() -> None:
    line = _refused({"kind": "player-turn", "side": "DE", "game_turn": 1,
                     "attacks": [{"defenders": ["us1"], "support": -1,
                                  "advance": [{"unit": "de1", "hexes": 0}]}]})
    assert "attacks.0.support: must be 0 <= n, got -1" in line
    assert "attacks.0.advance.0.hexes: must be 1 <= n, got 0" in line


def test_a_game_turn_given_as_text_is_not_taken_for_a_number() -> None:
    assert "game_turn: expected an integer, got a string" in _refused(
        {"kind": "player-turn", "side": "DE", "game_turn": "1"})


def test_a_revealed_drop_zone_note_needs_its_whole_salt_15_36() -> None:
    with pytest.raises(RecordError) as err:
        DropZoneReveal.parse({"division": "1", "hex": "0808", "turn": 1, "salt": "ab" * 31})
    assert err.value.problems[0][0] == ("salt",)


def test_a_state_with_an_unknown_unit_status_is_refused() -> None:
    sc = tiny_scenario(units=[unit("u1", "DE")])
    data = R.dump_state(sc, state_with(sc, {"u1": "0707"}))
    data["units"]["u1"]["status"] = "resting"
    with pytest.raises(InputError) as err:
        parse_state(data)
    assert str(err.value).startswith("malformed state: units.u1.status: must be one of 'waiting'")


def test_a_scenario_naming_one_unit_id_twice_is_refused_at_the_second() -> None:
    data = tiny_scenario(units=[unit("u1", "DE"), unit("u2", "US")]).to_json()
    data["units"][1]["id"] = "u1"
    with pytest.raises(RecordError) as err:
        Scenario.parse(data)
    assert err.value.problems == [(("units", 1, "id"), "duplicate unit id 'u1'")]


def test_bad_special_data_of_bastogne_is_one_line_naming_the_field_15_17() -> None:
    sc = tiny_scenario(units=[unit("u1", "DE")], game="bastogne",
                       special={"victory": {"kind": "exit-and-bastogne", "exit_side": "DE",
                                            "exit_units": ["u1"], "exit_vp": -1}})
    with pytest.raises(InputError) as err:
        parse_special(sc, BastogneSpecial)
    line = str(err.value)
    assert "\n" not in line and "victory.exit_vp: must be 0 <= n, got -1" in line


def test_dump_orders_leaves_out_what_is_none_and_keeps_the_rest() -> None:
    sc = tiny_scenario(units=[unit("u1", "DE")])
    o = PlayerTurnOrders(side="DE", game_turn=2, moves=[MoveOrder(unit="u1", path=["0707"], to="0707")])
    assert R.dump_orders(sc, o) == {
        "kind": "player-turn", "side": "DE", "game_turn": 2,
        "moves": [{"unit": "u1", "path": ["0707"], "to": "0707", "exit": False}],
        "attacks": [],
        "standing": {"fpf": [], "fpf_support": 0, "retreat": {}, "avoid_displacing": [], "pursue": []},
    }
    o = o.replace(moves=[MoveOrder(unit="u1", path=["0707"], if_demolished=[])])
    assert R.dump_orders(sc, o)["moves"] == [{"unit": "u1", "path": ["0707"], "exit": False, "if_demolished": []}]


def test_spare_bridges_are_written_only_once_named_12_12() -> None:
    assert "spare_bridges" not in StandingOrders().to_json()
    assert StandingOrders(spare_bridges=["0707/0708"]).to_json()["spare_bridges"] == ["0707/0708"]


def test_dump_state_writes_null_hexes_and_no_empty_exclusive() -> None:
    sc = tiny_scenario(units=[unit("u1", "DE")])
    st = state_with(sc, {})
    data = R.dump_state(sc, st)
    assert "exclusive" not in data
    assert data["units"]["u1"] == {"hex": None, "status": "waiting", "fpf_turn": None, "adverse_phase": None,
                                   "exit_edge": None, "exit_turn": None}
    assert R.dump_state(sc, st.replace(exclusive={"weather": "good"}))["exclusive"] == {"weather": "good"}
    assert UnitState.parse(data["units"]["u1"]) == UnitState()


def test_the_orders_schema_describes_each_kind() -> None:
    schema = R.orders_schema()
    assert schema["discriminator"] == {"propertyName": "kind"}
    assert [r["$ref"] for r in schema["oneOf"]] == [
        "#/$defs/SetupOrders", "#/$defs/PlayerTurnOrders", "#/$defs/AcknowledgeOrders"]
    turn = schema["$defs"]["PlayerTurnOrders"]
    assert turn["required"] == ["side", "game_turn"] and turn["additionalProperties"] is False
    assert schema["$defs"]["AttackOrder"]["properties"]["support"]["minimum"] == 0


def test_28_dump_state_keeps_unchanged_units_and_equals_to_json_step_after_step() -> None:
    """``dump_state`` reuses the JSON of the units the previous dump had (issue 28): over a bot
    game of Spearhead it is ``State.to_json()`` at every step, dumped in order, out of order and
    twice; most units carry over from one state to the next (so the reuse is exercised); and a
    caller changing a dump changes no later one."""
    import hashlib

    from pbem.engine.scenarios import load_data
    from pbem.protocol.dice import DiceStream
    from pbem.systems.westwall.bot import choose_orders

    sc = R.load_scenario(load_data("bastogne-spearhead"))
    state = R.initial_state(sc, {})
    states = [state]
    for step in range(8):
        side = R.pending(sc, state)[0].side
        orders = choose_orders(sc, state, side, seed=3)
        dice = DiceStream(hashlib.sha256(f"dump/{step}".encode()).digest())
        state = R.resolve(sc, state, side, orders, dice).state
        states.append(state)
    carried = sum(1 for a, b in zip(states, states[1:], strict=False)
                  for uid, u in b.units.items() if a.units.get(uid) is u)
    assert carried > 8 * len(sc.units) // 2
    for st in [*states, *reversed(states), states[3], states[3]]:
        data = R.dump_state(sc, st)
        assert data == st.to_json()
        assert list(data) == list(st.to_json())  # the same order of keys
        for unit_json in data["units"].values():
            unit_json["status"] = "changed by a caller"
    assert R.dump_state(sc, states[-1]) == states[-1].to_json()


def test_the_events_the_rules_make_unchecked_are_what_the_checks_make_of_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """WestWall's events are trusted records (the rules make them without checking each field,
    [28]): every one the rules make while replaying finished games of Bastogne and of both SPI
    Arnhem scenarios and the example passes the checks, and is, field by field and type by type,
    what the checking constructor makes of the same values (the same objects where a check keeps
    a value itself, a copy where it copies)."""
    from pbem.engine.gamedir import Game

    made = hold_trusted_records_to_the_checks(monkeypatch)
    for source in (COMPAT / "bastogne-campaign", COMPAT / "arnhem-historical", COMPAT / "arnhem-alternate",
                   ROOT / "examples" / "bastogne-spearhead"):
        game = tmp_path / source.name
        shutil.copytree(source, game)
        replay = Game.open(game).replay()
        assert replay.records and replay.records[-1].state.phase == "over"
    assert {"MovedEvent", "CombatEvent", "RetreatEvent", "AdvanceEvent", "EliminatedEvent", "NoteEvent",
            "RollEvent", "PlacedEvent"} <= set(made), made
