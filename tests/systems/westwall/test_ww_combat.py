"""Combat: which units must attack [7.1-7.3], checking declared attacks, and resolution with fixed
dice [7.4-7.9]. Artillery, FPF and ground support are in ``test_ww_artillery.py``.

Geometry used (SPI numbering, even columns half a hex lower):
0404 touches 0403 0504 0505 0405 0305 0304; 0305 touches 0304 0404 0405 0306 0205 0204;
0505 touches 0504 0604 0605 0506 0405 0404; 0504 touches 0503 0603 0604 0505 0404 0403.
On a one-row map (rows=(1, 1)) the hexes 0101-0201-0301-... form a line.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.westwall import atk, combats, game, orders, rules_of, state_with, tiny_scenario, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.protocol.dice import FixedDice
from pbem.systems.westwall.attacks import validate_attacks
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.combat import resolve_combat
from pbem.systems.westwall.model import (
    AdvanceEvent,
    EliminatedEvent,
    Event,
    NoteEvent,
    PlayerTurnOrders,
    RetreatEvent,
    StandingOrders,
)

H = Hex.parse




LINE = {"cols": (1, 8), "rows": (1, 1)}


# --------------------------------------------------------------------------------------------------
# Which units attack [7.1]
# --------------------------------------------------------------------------------------------------


def test_7_11_and_7_12_adjacent_units_must_fight() -> None:
    # de1 (0301) next to us1 (0401) and no attack declared: us1 must be attacked [7.11] and de1,
    # in us1's zone, must attack [7.12].
    sc, st_, b = game(
        [unit("de1", "DE"), unit("us1", "US")], {"de1": "0301", "us1": "0401"}, **LINE
    )
    v = validate_attacks(b, sc, st_, orders("DE"))
    assert rules_of(v) == ["7.11", "7.12"]
    assert str(v[0]) == "us1 in 0401 is adjacent to de1 and must be attacked [7.11]"
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"]))) == []


def test_7_12_every_unit_in_a_zone_attacks() -> None:
    # de1 (0301) and de2 (0501) both touch us1 (0401); only de1 attacks -> de2 breaks [7.12].
    sc, st_, b = game(
        [unit("de1", "DE"), unit("de2", "DE"), unit("us1", "US")],
        {"de1": "0301", "de2": "0501", "us1": "0401"},
        **LINE,
    )
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"])))
    assert [(x.rule, x.unit) for x in v] == [("7.12", "de2")]
    # Both together [7.22]: legal.
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1", "de2"], ["us1"]))) == []


def test_7_14_once_per_phase() -> None:
    sc, st_, b = game(
        [unit("de1", "DE"), unit("de2", "DE"), unit("us1", "US")],
        {"de1": "0301", "de2": "0501", "us1": "0401"},
        **LINE,
    )
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"]), atk(["de2"], ["us1"])))
    assert rules_of(v) == ["7.14"]
    assert v[0].unit == "us1"
    # The same attacker twice.
    sc, st_, b = game(
        [unit("de1", "DE"), unit("us1", "US"), unit("us2", "US")],
        {"de1": "0301", "us1": "0401", "us2": "0201"},
        **LINE,
    )
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"]), atk(["de1"], ["us2"])))
    assert rules_of(v) == ["7.14"] and v[0].unit == "de1"


def test_7_21_unit_in_two_zones_attacks_both() -> None:
    # de1 in 0301 between us1 (0201) and us2 (0401): attacking only us1 leaves us2 unengaged.
    sc, st_, b = game(
        [unit("de1", "DE"), unit("us1", "US"), unit("us2", "US")],
        {"de1": "0301", "us1": "0201", "us2": "0401"},
        **LINE,
    )
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"])))
    assert [(x.rule, x.unit) for x in v] == [("7.21", "us2")]
    # One combat against both [7.23: de1 is adjacent to both]: legal.
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1", "us2"]))) == []


def test_7_15_non_artillery_attacks_only_adjacent() -> None:
    sc, st_, b = game(
        [unit("de1", "DE"), unit("us1", "US")], {"de1": "0201", "us1": "0401"}, **LINE
    )
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"])))
    assert rules_of(v) == ["7.15"]
    v = validate_attacks(b, sc, st_, orders("DE", atk([], ["us1"], artillery=["de1"])))
    assert "7.15" in rules_of(v)


def test_7_22_7_23_multi_hex_combat() -> None:
    # Line: de1 0301, us1 0401, us2 0501, de2 0601. de1 touches us1 only, de2 touches us2 only.
    sc, st_, b = game(
        [unit("de1", "DE"), unit("de2", "DE"), unit("us1", "US"), unit("us2", "US")],
        {"de1": "0301", "us1": "0401", "us2": "0501", "de2": "0601"},
        **LINE,
    )
    # One combat with both attackers against both defenders: de1 is not adjacent to us2 [7.23].
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1", "de2"], ["us1", "us2"])))
    assert ("7.23", "de1") in [(x.rule, x.unit) for x in v]
    assert ("7.23", "de2") in [(x.rule, x.unit) for x in v]
    # Two separate combats are legal.
    ok = orders("DE", atk(["de1"], ["us1"]), atk(["de2"], ["us2"]))
    assert validate_attacks(b, sc, st_, ok) == []


def test_7_3_unity_no_unit_twice_in_a_combat() -> None:
    sc, st_, b = game(
        [unit("de1", "DE"), unit("us1", "US")], {"de1": "0301", "us1": "0401"}, **LINE
    )
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1", "de1"], ["us1"])))
    assert rules_of(v) == ["7.3"]


def test_6_33_no_attack_across_river_but_across_stream_and_bridge() -> None:
    base: dict[str, Any] = dict(LINE)
    units = [unit("de1", "DE"), unit("us1", "US")]
    pos = {"de1": "0301", "us1": "0401"}
    sc, st_, b = game(units, pos, lines=[("river", ["0301/0401"])], **base)
    v = validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"])))
    assert rules_of(v) == ["6.33"]
    # Across a river they are not obliged to fight either [6.33: no ZOC across it].
    assert validate_attacks(b, sc, st_, orders("DE")) == []
    sc, st_, b = game(units, pos, lines=[("stream", ["0301/0401"])], **base)
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"]))) == []
    sc, st_, b = game(
        units, pos, lines=[("river", ["0301/0401"])], routes=[("road", ["0301", "0401"])], **base
    )
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"]))) == []


def test_6_32_armour_may_attack_into_woods() -> None:
    sc, st_, b = game(
        [unit("de1", "DE", "armor", 6, 4, 12), unit("us1", "US")],
        {"de1": "0301", "us1": "0401"},
        terrain={"woods": ["0401"]},
        **LINE,
    )
    assert validate_attacks(b, sc, st_, orders("DE", atk(["de1"], ["us1"]))) == []


def test_7_52_strength_is_always_counted_in_full() -> None:
    # Orders cannot state a differential or hold back strength: unknown fields are refused and the
    # resolution counts every listed unit's full strength (5 + 3 = 8 against 4 -> +4).
    with pytest.raises(ValueError):
        PlayerTurnOrders.parse(
            {
                "side": "DE",
                "game_turn": 1,
                "attacks": [{**atk(["de1"], ["us1"]), "differential": 0}],
            }
        )
    sc, st_, b = game(
        [unit("de1", "DE", attack=5), unit("de2", "DE", attack=3), unit("us1", "US", defense=4)],
        {"de1": "0301", "de2": "0501", "us1": "0401"},
        **LINE,
    )
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1", "de2"], ["us1"])), FixedDice([6]))
    c = combats(ev)[0]
    assert (c.attack_strength, c.defense_strength, c.differential) == (8, 4, 4)


def test_unknown_unit_is_input_error() -> None:
    sc, st_, b = game(
        [unit("de1", "DE"), unit("us1", "US")], {"de1": "0301", "us1": "0401"}, **LINE
    )
    with pytest.raises(InputError):
        validate_attacks(b, sc, st_, orders("DE", atk(["nobody"], ["us1"])))


def test_validation_reports_every_problem_at_once() -> None:
    sc, st_, b = game(
        [unit("de1", "DE"), unit("de2", "DE"), unit("us1", "US"), unit("us2", "US")],
        {"de1": "0201", "us1": "0301", "us2": "0601", "de2": "0701"},
        **LINE,
    )
    v = validate_attacks(b, sc, st_, orders("DE"))
    assert rules_of(v) == ["7.11", "7.11", "7.12", "7.12"]


# --------------------------------------------------------------------------------------------------
# Resolution [7.0, 7.6]
# --------------------------------------------------------------------------------------------------


def test_7_0_worked_example_thirteen_against_four_in_town() -> None:
    # 5 + 4 + 4 = 13 attack 4 in Town (0404) -> +9 on the Town (broken) line, column +9-11;
    # die 5 -> D1. 0404's free neighbours: 0405 is next to 0305 and 0504 to 0403 (both controlled),
    # 0505 touches no attacker -> the defender retreats to 0505.
    sc, st_, b = game(
        [
            unit("a", "DE", attack=5),
            unit("b", "DE", attack=4),
            unit("c", "DE", attack=4),
            unit("d", "US", defense=4),
        ],
        {"a": "0403", "b": "0304", "c": "0305", "d": "0404"},
        terrain={"town": ["0404"]},
    )
    o = orders("DE", atk(["a", "b", "c"], ["d"]))
    assert validate_attacks(b, sc, st_, o) == []
    dice = FixedDice([5])
    ev = resolve_combat(b, sc, st_, o, dice)
    c = combats(ev)[0]
    assert (c.attack_strength, c.defense_strength, c.differential) == (13, 4, 9)
    assert (c.line, c.column, c.die, c.roll_index, c.result) == ("broken", "+9-11", 5, 0, "D1")
    assert b.unit_hex("d") == H("0505")
    assert [r.label for r in dice.rolls] == ["7.6 combat 1"]


def _duel(attack: int, defense: int, die: int, **kw: Any) -> tuple[Board, list[Event]]:
    # de1 (0301) attacks us1 (0401) on an 8-hex line; clear terrain.
    sc, st_, b = game(
        [unit("de1", "DE", attack=attack), unit("us1", "US", defense=defense)],
        {"de1": "0301", "us1": "0401"},
        **LINE,
        **kw,
    )
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([die]))
    return b, ev


@pytest.mark.parametrize(
    ("attack", "defense", "die", "result", "de1", "us1"),
    [
        # Clear line, read by hand: diff +12 die 1 -> De; +9 die 1 -> D4; +6 die 1 -> D3;
        # 0 die 1 -> D2; -1 die 1 -> D1; -2 die 1 -> Br; -3 die 1 -> A1; -7 die 4 -> A2;
        # -7 die 6 -> Ae. Defender retreats east (away from 0301), attacker west.
        (16, 4, 1, "De", "0301", None),
        (13, 4, 1, "D4", "0301", "0801"),
        (10, 4, 1, "D3", "0301", "0701"),
        (4, 4, 1, "D2", "0301", "0601"),
        (3, 4, 1, "D1", "0301", "0501"),
        (2, 4, 1, "Br", "0201", "0501"),
        (1, 4, 1, "A1", "0201", "0401"),
        (1, 8, 4, "A2", "0101", "0401"),
        (1, 8, 6, "Ae", None, "0401"),
    ],
)
def test_7_62_every_result(
    attack: int, defense: int, die: int, result: str, de1: str | None, us1: str | None
) -> None:
    b, ev = _duel(attack, defense, die)
    assert combats(ev)[0].result == result
    assert b.unit_hex("de1") == (H(de1) if de1 else None)
    assert b.unit_hex("us1") == (H(us1) if us1 else None)
    # Losers of the combat get the adverse mark for [8.41] (combat phase 1 here).
    if result.startswith("D") or result == "Br":
        assert b.units["us1"].adverse_phase == 1
    if result.startswith("A") or result == "Br":
        assert b.units["de1"].adverse_phase == 1


def test_7_62_br_defender_retreats_first() -> None:
    b, ev = _duel(2, 4, 1)
    moves = [e.unit for e in ev if isinstance(e, RetreatEvent)]
    assert moves == ["us1", "de1"]


def test_7_62_br_surrounded_defender_is_eliminated() -> None:
    # us1 (0401) between de1 (0301) and de2 (0601... controls 0501): Br -> us1 cannot retreat.
    sc, st_, b = game(
        [unit("de1", "DE", attack=2), unit("de2", "DE"), unit("us1", "US", defense=4)],
        {"de1": "0301", "de2": "0601", "us1": "0401"},
        **LINE,
    )
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([1]))
    assert combats(ev)[0].result == "Br"
    assert b.status("us1") == "eliminated"
    assert b.unit_hex("de1") == H("0201")


def test_7_42_stream_only_if_all_attack_across_it() -> None:
    # us1 in clear 0404. de1 in 0403 attacks across a stream -> broken line (+0: column "0").
    units = [unit("de1", "DE", attack=4), unit("de2", "DE", attack=0), unit("us1", "US", defense=4)]
    sc, st_, b = game(units, {"de1": "0403", "us1": "0404"}, lines=[("stream", ["0403/0404"])])
    c = combats(resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([6])))[0]
    assert (c.line, c.column) == ("broken", "0")
    # A second attacker not across the stream -> the clear line [7.42].
    sc, st_, b = game(
        units, {"de1": "0403", "de2": "0304", "us1": "0404"}, lines=[("stream", ["0403/0404"])]
    )
    o = orders("DE", atk(["de1", "de2"], ["us1"]))
    c = combats(resolve_combat(b, sc, st_, o, FixedDice([6])))[0]
    assert c.line == "clear"


def test_bridge_line_when_all_attack_across_bridges() -> None:
    # Road over a stream 0403/0404 is a bridge: the grove line when the only attacker uses it.
    sc, st_, b = game(
        [unit("de1", "DE", attack=4), unit("us1", "US", defense=4)],
        {"de1": "0403", "us1": "0404"},
        lines=[("stream", ["0403/0404"])],
        routes=[("road", ["0403", "0404"])],
    )
    c = combats(resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([6])))[0]
    assert c.line == "grove"


def test_7_44_most_advantageous_terrain() -> None:
    # Rough behind a stream: the rough line [7.44 example].
    sc, st_, b = game(
        [unit("de1", "DE", attack=4), unit("us1", "US", defense=4)],
        {"de1": "0403", "us1": "0404"},
        terrain={"rough": ["0404"]},
        lines=[("stream", ["0403/0404"])],
    )
    c = combats(resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([6])))[0]
    assert (c.line, c.column) == ("rough", "0")


def test_7_45_two_defenders_use_the_better_line() -> None:
    # Line map: de1 in 0301 attacks us1 (0201, clear) and us2 (0401, woods) in one combat.
    sc, st_, b = game(
        [unit("de1", "DE", attack=8), unit("us1", "US", defense=2), unit("us2", "US", defense=2)],
        {"de1": "0301", "us1": "0201", "us2": "0401"},
        terrain={"woods": ["0401"]},
        **LINE,
    )
    c = combats(
        resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1", "us2"])), FixedDice([6]))
    )[0]
    # 8 - 4 = +4 on the broken line (woods) -> column "+4,5"; die 6 on broken c6 -> A1.
    assert (c.line, c.column, c.result) == ("broken", "+4,5", "A1")


def test_dice_drawn_in_declared_order() -> None:
    sc, st_, b = game(
        [
            unit("de1", "DE", attack=16),
            unit("de2", "DE", attack=16),
            unit("us1", "US", defense=4),
            unit("us2", "US", defense=4),
        ],
        {"de1": "0301", "us1": "0401", "de2": "0501", "us2": "0601"},
        **LINE,
    )
    # Two De results (16 vs 4, die 1); one die each, labelled by declared combat number.
    o = orders("DE", atk(["de1"], ["us1"], advance=[("de1", 1)]), atk(["de2"], ["us2"]))
    dice = FixedDice([1, 1])
    ev = resolve_combat(b, sc, st_, o, dice)
    cs = combats(ev)
    assert [c.result for c in cs] == ["De", "De"]
    assert [(r.index, r.label) for r in dice.rolls] == [(0, "7.6 combat 1"), (1, "7.6 combat 2")]
    assert [c.roll_index for c in cs] == [0, 1]


# --------------------------------------------------------------------------------------------------
# Advance after combat [7.9]
# --------------------------------------------------------------------------------------------------


def test_7_91_7_92_advance_along_path_of_retreat() -> None:
    # D2: us1 0401 -> 0501 -> 0601; de1 advances 2 hexes: 0401, 0501 [7.91, 7.92].
    sc, st_, b = game(
        [unit("de1", "DE", attack=4), unit("us1", "US", defense=4)],
        {"de1": "0301", "us1": "0401"},
        **LINE,
    )
    ev = resolve_combat(
        b, sc, st_, orders("DE", atk(["de1"], ["us1"], advance=[("de1", 2)])), FixedDice([1])
    )
    adv = [e for e in ev if isinstance(e, AdvanceEvent)]
    assert adv == [AdvanceEvent(unit="de1", path=["0301", "0401", "0501"], combat=1)]
    assert b.unit_hex("de1") == H("0501")


def test_7_93_advance_ignores_zoc_and_7_95_stays_on_path() -> None:
    # D1 (3 vs 4, die 1): us1 0401 -> 0501. de1 asks for 3 hexes but the path of retreat is
    # 0401, 0501 and us1 now holds 0501, so de1 stops in 0401 [7.95] -- a hex in us1's zone of
    # control, which advancing units may enter [7.93].
    sc, st_, b = game(
        [unit("de1", "DE", attack=3), unit("us1", "US", defense=4)],
        {"de1": "0301", "us1": "0401"},
        **LINE,
    )
    ev = resolve_combat(
        b, sc, st_, orders("DE", atk(["de1"], ["us1"], advance=[("de1", 3)])), FixedDice([1])
    )
    assert combats(ev)[0].result == "D1"
    assert b.unit_hex("us1") == H("0501")
    assert b.unit_hex("de1") == H("0401")


def test_7_94_only_adjacent_participants_advance() -> None:
    sc, st_, b = game(
        [unit("de1", "DE", attack=4), unit("us1", "US", defense=4), unit("de2", "DE")],
        {"de1": "0301", "us1": "0401", "de2": "0101"},
        **LINE,
    )
    o = orders("DE", atk(["de1"], ["us1"], advance=[("de2", 1)]))
    assert rules_of(validate_attacks(b, sc, st_, o)) == ["7.94"]


def test_7_96_advance_next_to_enemy_creates_no_new_combat() -> None:
    # D1 (3 vs 4, die 1): us1 0401 -> 0501; de1 advances into 0401, next to us1 again. The
    # obligations of [7.11, 7.12] were fixed after movement: no further combat happens.
    sc, st_, b = game(
        [unit("de1", "DE", attack=3), unit("us1", "US", defense=4)],
        {"de1": "0301", "us1": "0401"},
        **LINE,
    )
    o = orders("DE", atk(["de1"], ["us1"], advance=[("de1", 1)]))
    dice = FixedDice([1])
    ev = resolve_combat(b, sc, st_, o, dice)
    assert len(combats(ev)) == 1 and len(dice.rolls) == 1
    assert b.unit_hex("de1") == H("0401") and b.unit_hex("us1") == H("0501")


def test_7_96_attack_involving_advanced_unit_cancelled() -> None:
    # Valid orders can never list an advancer again ([7.14]); the resolver still refuses a later
    # combat involving a unit that advanced (defence in depth for unvalidated orders): combat 2 is
    # cancelled with a note citing [7.96] and no die is drawn for it.
    sc, st_, b = game(
        [unit("de1", "DE", attack=16), unit("us1", "US", defense=4), unit("us2", "US", defense=4)],
        {"de1": "0301", "us1": "0401", "us2": "0501"},
        **LINE,
    )
    o = orders("DE", atk(["de1"], ["us1"], advance=[("de1", 1)]), atk(["de1"], ["us2"]))
    assert "7.14" in rules_of(validate_attacks(b, sc, st_, o))
    dice = FixedDice([1])
    ev = resolve_combat(b, sc, st_, o, dice)
    cs = combats(ev)
    assert cs[0].result == "De"
    assert cs[1].cancelled.endswith("[7.96]")
    assert len(dice.rolls) == 1
    assert any(isinstance(e, NoteEvent) and e.rule == "7.96" for e in ev)
    assert b.unit_hex("us2") == H("0501")


def test_7_62_de_victor_advances_into_the_hex() -> None:
    # 16 vs 4 -> +12, die 1 -> De: us1 is eliminated; its hex 0401 is the whole path of retreat,
    # so de1 asking for 2 hexes advances 1 [7.62, 7.95].
    sc, st_, b = game(
        [unit("de1", "DE", attack=16), unit("us1", "US", defense=4)],
        {"de1": "0301", "us1": "0401"},
        **LINE,
    )
    o = orders("DE", atk(["de1"], ["us1"], advance=[("de1", 2)]))
    ev = resolve_combat(b, sc, st_, o, FixedDice([1]))
    assert [e for e in ev if isinstance(e, EliminatedEvent)][0].rule == "7.62"
    assert b.status("us1") == "eliminated"
    assert [e.path for e in ev if isinstance(e, AdvanceEvent)] == [["0301", "0401"]]


def test_control_hexes_follow_retreat_and_advance() -> None:
    # 0501 and 0601 are objectives: us1's D2 retreat passes 0501 and ends in 0601 (US control);
    # de1 then advances 2 through 0401 into 0501 (DE control) [control by last passage].
    sc, st_, b = game(
        [unit("de1", "DE", attack=4), unit("us1", "US", defense=4)],
        {"de1": "0301", "us1": "0401"},
        special={"control_hexes": ["0501", "0601"]},
        **LINE,
    )
    o = orders("DE", atk(["de1"], ["us1"], advance=[("de1", 2)]))
    resolve_combat(b, sc, st_, o, FixedDice([1]))
    assert b.control == {"0501": "DE", "0601": "US"}


# --------------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------------

_P_UNITS = [unit(f"d{i}", "DE", "infantry", 4, 3, 7) for i in range(3)] + [
    unit(f"u{i}", "US", "infantry", 2, 3, 7) for i in range(3)
]
_P_SC = tiny_scenario(cols=(1, 4), rows=(1, 3), units=_P_UNITS)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from([str(h) for h in _P_SC.map.all_hexes()]),
        min_size=6,
        max_size=6,
        unique=True,
    ),
    st.lists(st.integers(1, 6), min_size=6, max_size=6),
)
def test_property_combat_phase_ends_unstacked_and_dice_in_order(
    hexes: list[str], faces: list[int]
) -> None:
    # Build the obligatory attacks greedily: each DE unit attacks every adjacent US unit not yet
    # attacked, one combat per DE unit (adjacency makes each combat legal by [7.15, 7.23] since each
    # has a single attacker). Resolve with fixed dice and check invariants.
    positions = {u.id: h for u, h in zip(_P_UNITS, hexes, strict=True)}
    st_ = state_with(_P_SC, positions, phasing="DE")
    b = Board.from_state(_P_SC, st_)
    taken: set[str] = set()
    attacks = []
    for d in ("d0", "d1", "d2"):
        dh = H(positions[d])
        targets = [
            u for u in ("u0", "u1", "u2") if H(positions[u]).is_adjacent(dh) and u not in taken
        ]
        if targets:
            taken.update(targets)
            attacks.append(atk([d], targets, advance=[(d, 2)]))
    o = orders("DE", *attacks)
    dice = FixedDice(faces)
    ev = resolve_combat(b, _P_SC, st_, o, dice)
    cs = combats(ev)
    assert len(cs) == len(attacks)
    rolled = [c for c in cs if not c.cancelled]
    assert [r.label for r in dice.rolls] == [f"7.6 combat {c.number}" for c in rolled]
    assert [c.roll_index for c in rolled] == list(range(len(rolled)))
    assert b.stacked_hexes() == {}


# Defender's advance after A1, A2, Ae [7.62 "Ae ... Defender may advance", 7.91]: standing orders


def _pursuing(hexes: int) -> dict[str, StandingOrders]:
    return {"US": StandingOrders.parse({"pursue": [{"unit": "us1", "hexes": hexes}]})}


def test_7_91_defender_follows_a_retreating_attacker_a1() -> None:
    # 1 vs 4 = -3 on the clear line (column "-4,-3"), die 1 -> A1: de1 retreats 0301 -> 0201. us1's
    # standing order pursues 2 hexes along that path (0301, 0201), but de1 now holds 0201, so us1
    # stops in 0301 [7.92, 7.95] and takes no further part in the phase [7.96].
    sc, st_, b = game(
        [unit("de1", "DE", attack=1), unit("us1", "US", defense=4)],
        {"de1": "0301", "us1": "0401"},
        standing=_pursuing(2),
        **LINE,
    )
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([1]))
    assert combats(ev)[0].result == "A1"
    assert b.unit_hex("de1") == H("0201")
    assert [e for e in ev if isinstance(e, AdvanceEvent)] == [
        AdvanceEvent(unit="us1", path=["0401", "0301"], combat=1)
    ]
    assert b.unit_hex("us1") == H("0301")


def test_7_62_ae_defender_may_advance_into_the_hex() -> None:
    # 1 vs 8 = -7 (lowest column), die 6 -> Ae: de1 dies in 0301; us1 advances into it.
    sc, st_, b = game(
        [unit("de1", "DE", attack=1), unit("us1", "US", defense=8)],
        {"de1": "0301", "us1": "0401"},
        standing=_pursuing(3),
        **LINE,
    )
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([6]))
    assert combats(ev)[0].result == "Ae"
    assert b.unit_hex("de1") is None and b.unit_hex("us1") == H("0301")


@pytest.mark.parametrize(("standing", "die", "result"), [
    (None, 1, "A1"),  # no standing order: the defender holds (the documented default)
    ("pursue", 3, "A1"),  # 1 vs 4 = -3, die 3 -> A1 as well; with the order it follows
])
def test_7_91_defender_advances_only_by_standing_order(
    standing: str | None, die: int, result: str
) -> None:
    sc, st_, b = game(
        [unit("de1", "DE", attack=1), unit("us1", "US", defense=4)],
        {"de1": "0301", "us1": "0401"},
        **({"standing": _pursuing(1)} if standing else {}),
        **LINE,
    )
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([die]))
    c = combats(ev)[0]
    assert c.result == result
    moved = b.unit_hex("us1") != H("0401")
    assert moved == (standing is not None)


def test_7_62_br_nobody_advances() -> None:
    # 4 vs 4 = 0 on the clear line (column "0"), die 3 -> Br: both retreat one hex, the defender
    # first; there is no victor, so even a pursuing defender does not advance.
    sc, st_, b = game(
        [unit("de1", "DE", attack=4), unit("us1", "US", defense=4)],
        {"de1": "0301", "us1": "0401"},
        standing=_pursuing(1),
        **LINE,
    )
    ev = resolve_combat(b, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([3]))
    assert combats(ev)[0].result == "Br"
    assert b.unit_hex("us1") == H("0501") and b.unit_hex("de1") == H("0201")
    assert not [e for e in ev if isinstance(e, AdvanceEvent)]


@pytest.mark.parametrize(("follow", "expected"), [(None, "0401"), ("us2", "0201")])
def test_7_95_advance_follows_the_named_defender(follow: str | None, expected: str) -> None:
    # de1 (8) attacks us1 (east, 2) and us2 (west, 2) together: +4 on the clear line, die 5 -> D1.
    # us1 retreats to 0501, us2 to 0101. By default de1 follows the first declared defender
    # (into 0401); with follow=us2 it takes us2's path instead (into 0201).
    sc, st_, b = game(
        [unit("de1", "DE", attack=8), unit("us1", "US", defense=2), unit("us2", "US", defense=2)],
        {"de1": "0301", "us1": "0401", "us2": "0201"},
        **LINE,
    )
    attack = atk(["de1"], ["us1", "us2"], advance=[("de1", 1)])
    if follow:
        attack["advance"][0]["follow"] = follow
    o = orders("DE", attack)
    assert validate_attacks(b, sc, st_, o) == []
    ev = resolve_combat(b, sc, st_, o, FixedDice([5]))
    assert combats(ev)[0].result == "D1"
    assert (b.unit_hex("us1"), b.unit_hex("us2")) == (H("0501"), H("0101"))
    assert b.unit_hex("de1") == H(expected)


def test_7_95_follow_must_name_a_defender_of_the_combat() -> None:
    sc, st_, b = game(
        [unit("de1", "DE", attack=8), unit("us1", "US", defense=2), unit("us2", "US")],
        {"de1": "0301", "us1": "0401", "us2": "0701"},
        **LINE,
    )
    attack = atk(["de1"], ["us1"], advance=[("de1", 1)])
    attack["advance"][0]["follow"] = "us2"
    assert rules_of(validate_attacks(b, sc, st_, orders("DE", attack))) == ["7.95"]
