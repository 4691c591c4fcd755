"""The further attack after an overrun (seed 004 [9], results table, special results): armour with
Breakthrough orders that overran a beaten enemy after a Total Success or a Success and whose move
on brings it into contact with more enemy attacks again in the same turn, unprepared; after a
Limited Success it halts. A unit attacks at most twice a turn, and pays for each attack [9, 11].

The tiny map of tests/systems/megagame/test_megagame_rules.py. Two tanks (status 5 each) at 0302 and 0402 with
Breakthrough orders towards 0308 against d (weak infantry, status 4, in the open at 0303: -1
unsupported infantry against tanks, score 3); e (weak, 4) stands further on at 0306.
"""

from __future__ import annotations

from typing import Any

from pbem.systems.megagame.model import MegaScenario
from systems.megagame.test_megagame_rules import Dice, R, play, prepared, scenario, sheet, unit

BREAK = {"units": ["t1", "t2"], "intention": "breakthrough", "objective": "0308"}


def tanks(*more: dict[str, Any], supply: int = 5) -> MegaScenario:
    return scenario([unit("t1", "AL", "tank", "0302"), unit("t2", "AL", "tank", "0402"), unit("d", "GE", "weak", "0303"),
                     unit("e", "GE", "weak", "0306"), *more], supply=supply)


def combats(events: list[Any]) -> list[tuple[str, str, bool]]:
    return [(e["at"], e["band"], bool(e.get("further"))) for e in events if e["kind"] == "combat"]


def test_9_total_success_overrun_into_more_enemy_attacks_again_unprepared() -> None:
    # 10 - 3 + die 6 = 13: Total Success. d retires 2d6 = 1 + 1 km (to the west, out of the way);
    # each tank loses a step (status 4). They drive on half their move towards 0308 and halt at
    # 0305, next to e: contact. The further attack: status 8, unprepared -2 a unit = 4, against e's
    # 3; die 1: 4 - 3 + 1 = 2, confused combat: a step each side, nobody moves.
    sc = tanks()
    st = prepared(R.initial_state(sc, {}), "t1", "t2")
    dice = Dice(6, 1, 1, 1)
    new, events = play(sc, st, dice, sheet("AL", BREAK))
    assert combats(events) == [("0303", "total success", False), ("0306", "confused combat", True)]
    further = next(e for e in events if e.get("further"))
    assert (further["attacker_score"], further["defender_score"], further["result"]) == (4, 3, 2)
    assert "-4: unprepared attack" in further["attacker_lines"]
    assert dice.labels[-1] == "9 further attack at 0306"
    assert {u: (new.units[u].hex, new.units[u].steps) for u in ("t1", "t2", "e")} == {
        "t1": ("0305", 2), "t2": ("0305", 2), "e": ("0306", 1)}
    # supply: 5, less 2 for the first attack and 2 for the second; the last point is t1's fuel
    assert new.supply["AL"] == 0 and new.facts["t1"].supply_used == 3 and new.facts["t2"].supply_used == 2
    assert "attacked the enemy at 0306 (3 km from Dorp): the fighting was confused: both sides hold" \
        in new.facts["t1"].events
    assert R.describe_event(sc, further).startswith(
        "combat at 0306 [9, a further attack after an overrun, unprepared]: t1, t2 against e: 4 - 3 + die 1 = 2")


def test_9_after_a_limited_success_the_overrun_halts_without_attacking() -> None:
    # Game Control rules a +3 a unit advantage for d: 3 + 3 = 6; 10 - 6 + die 1 = 5, Limited
    # Success. The tanks overrun a quarter of their move and take a step more each, halt at 0305
    # next to e, and do not attack it: no die is rolled after the first.
    sc = tanks()
    st = prepared(R.initial_state(sc, {}), "t1", "t2")
    rulings = {"advantage": [{"at": "0303", "side": "defender", "points": 3, "why": "dug in"}]}
    new, events = play(sc, st, Dice(1), sheet("AL", BREAK), rulings=rulings)
    assert combats(events) == [("0303", "limited success", False)]
    assert (new.units["t1"].hex, new.units["t1"].steps) == ("0305", 2)
    assert new.units["e"].steps == 0 and new.supply["AL"] == 5 - 2 - 2  # one attack of two tanks, their fuel


def test_9_the_further_attack_needs_its_supply_point() -> None:
    # 2 supply points: both paid for the first attack, none left for the second [9, 11]. (With
    # none left the tanks fight the first without fuel too, -1 each: 10 - 2 - 3 + die 6 = 11, a
    # Success: d retires 1d6 = 3 km; the overrun reaches 0305 next to e all the same.)
    sc = tanks(supply=2)
    st = prepared(R.initial_state(sc, {}), "t1", "t2")
    new, events = play(sc, st, Dice(6, 3), sheet("AL", BREAK))
    assert combats(events) == [("0303", "success", False)]
    assert new.units["t1"].hex == "0305"
    assert "could not attack 0306 (3 km from Dorp): no supply left" in new.facts["t1"].events
    assert new.units["e"].steps == 0


def test_9_a_unit_attacks_at_most_twice_a_turn() -> None:
    # As in the first case, but Game Control rules +3 a unit for the tanks at 0306: 8 - 4 + 6 = 10
    # against 3, die 6: 13, a Total Success again (twice e's status 4: an overrun). e retires
    # 1 + 1 km; the tanks drive on and halt at 0307 next to f (0308): no third attack, no die more.
    sc = tanks(unit("f", "GE", "weak", "0308"), supply=9)
    st = prepared(R.initial_state(sc, {}), "t1", "t2")
    rulings = {"advantage": [{"at": "0306", "side": "attacker", "points": 3, "why": "surprise"}]}
    dice = Dice(6, 1, 1, 6, 1, 1)
    new, events = play(sc, st, dice, sheet("AL", BREAK), rulings=rulings)
    assert combats(events) == [("0303", "total success", False), ("0306", "total success", True)]
    assert [e["moves"][0]["path"] for e in events if e["kind"] == "overrun"] == [
        ["0303", "0304", "0305"], ["0306", "0307"]]
    assert new.units["t1"].hex == "0307" and new.units["f"].steps == 0 and dice.faces == []
    assert new.supply["AL"] == 9 - 2 - 2 - 2  # two attacks of two tanks, and their fuel


def test_9_the_beaten_enemy_next_to_the_overrun_is_not_more_enemy() -> None:
    # 2 supply points, as above, and d retires 1d6 = 1 km only, to 0203, next to 0303: the tanks,
    # having taken 0303, halt there in contact with d (the overrun halts on contact), but d is the
    # enemy they have just beaten, not more enemy: no further attack, no event of one.
    sc = tanks(supply=2)
    st = prepared(R.initial_state(sc, {}), "t1", "t2")
    new, events = play(sc, st, Dice(6, 1), sheet("AL", BREAK))
    assert combats(events) == [("0303", "success", False)]
    assert (new.units["t1"].hex, new.units["d"].hex) == ("0303", "0203")
    assert not any("could not attack" in x for x in new.facts["t1"].events)


def test_9_with_attack_orders_there_is_no_overrun_and_no_further_attack() -> None:
    sc = tanks()
    st = prepared(R.initial_state(sc, {}), "t1", "t2")
    new, events = play(sc, st, Dice(6, 1, 1), sheet("AL", {**BREAK, "intention": "attack"}))
    assert combats(events) == [("0303", "total success", False)]
    assert new.units["t1"].hex == "0303" and new.units["t2"].hex == "0402"
