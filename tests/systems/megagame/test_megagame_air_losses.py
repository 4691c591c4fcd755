"""Fighter losses carried from turn to turn (seed 004 [12], "Fighter vs Fighter"): squadrons shot
down in an air combat are gone for the rest of the game, the side's pool of squadrons that fly is
smaller on every later turn (in the master state and in the team's own view alike), and each side
hears of its losses in words -- light or heavy -- never as a count. Tiny invented air forces on the
tiny map of tests/systems/megagame/test_megagame_rules.py; every expected value is computed by hand in the comments.
"""

from __future__ import annotations

from typing import Any

from pbem.systems.megagame.air import loss_words, squadrons_available
from pbem.systems.megagame.model import MegaScenario, TeamView
from pbem.systems.megagame.orders import OrderSheet
from pbem.systems.megagame.view import team_view
from systems.megagame.test_megagame_rules import Dice, R, play, scenario, sheet, unit

AIR: list[dict[str, Any]] = [
    {"id": "fc", "name": "Fighter Command wing", "side": "allied", "role": "fighter", "squadrons": 2,
     "region": "england"},
    {"id": "fc2", "name": "2nd TAF fighter wing", "side": "allied", "role": "fighter", "squadrons": 8,
     "region": "continent"},
]


def jg(squadrons: int) -> dict[str, Any]:
    return {"id": "jg", "name": "Jagdgeschwader", "side": "german", "role": "fighter", "squadrons": squadrons,
            "region": "germany"}


def air_scenario(german: int, **extra: Any) -> MegaScenario:
    return scenario([unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0808")], air=[*AIR, jg(german)],
                    **extra)


def cover(team: str, mission: str, squadrons: int, turn: int = 1) -> OrderSheet:
    return OrderSheet.parse({"team": team, "side": "allied" if team == "AL" else "german", "turn": turn,
                                      "lines": [], "air_orders": [{"mission": mission, "squadrons": squadrons}]})


def test_12_fighter_losses_are_taken_from_the_fighter_units_in_order_and_kept() -> None:
    # 15 German squadrons against 10 Allied: the Germans attack at 15/10 = 1-1; die 6: Win. The
    # attacker loses 10% of 10 = 1 squadron, the defender 20% of 15 = 3: the Allied losses fall on
    # fc (its 2 squadrons) and then fc2 (1 of its 8).
    sc = air_scenario(15)
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(6), cover("AL", "escort", 10), cover("GE", "air-cover", 15))
    fight = next(e for e in events if e["kind"] == "air-combat")
    assert (fight["attacker"], fight["result"], fight["losses"]) == ("german", "win", {"german": 1, "allied": 3})
    assert fight["units"] == {"jg": 1, "fc": 2, "fc2": 1}
    assert new.air_lost == {"fc": 2, "fc2": 1, "jg": 1}
    # turn 2: the Allies have 0 + 7 fighter squadrons left, the Germans 14
    assert squadrons_available(sc, "allied", 2, "escort", new.air_lost) == 7
    assert squadrons_available(sc, "german", 2, "air-cover", new.air_lost) == 14
    assert squadrons_available(sc, "allied", 2, "escort") == 10  # without the losses: the whole wing
    v = R.validate(sc, new, "AL", cover("AL", "escort", 8, turn=2))
    assert v and v[0].rule == "12" and "7 can fly" in v[0].message
    assert R.validate(sc, new, "AL", cover("AL", "escort", 7, turn=2)) == []
    # the team's own pbem, holding only its view, refuses the same sheet the same way
    view = TeamView.parse(team_view(sc, new, "AL"))
    assert view.air_lost == {"fc": 2, "fc2": 1}  # its own side's squadrons only
    assert "7 can fly" in R.validate(sc, view, "AL", cover("AL", "escort", 8, turn=2))[0].message
    assert TeamView.parse(team_view(sc, new, "GE")).air_lost == {"jg": 1}
    # and the losses stay: a turn with no air combat keeps them
    t3, _ = play(sc, new, Dice(), sheet("AL", turn=2), sheet("GE", turn=2))
    assert t3.air_lost == {"fc": 2, "fc2": 1, "jg": 1}


def test_12_losses_in_limited_weather_halve_what_is_left() -> None:
    # fc2 lost 1 of 8 on turn 1; on turn 2 the continent's weather is limited: (8 - 1) // 2 = 3
    # fly, and fc (England, good weather) has nothing left: 3 in all.
    sc = air_scenario(15, weather=[{"turn": 2, "england": "good", "continent": "limited"}])
    new, _ = play(sc, R.initial_state(sc, {}), Dice(6), cover("AL", "escort", 10), cover("GE", "air-cover", 15))
    assert squadrons_available(sc, "allied", 2, "escort", new.air_lost) == 3


def test_12_no_side_loses_more_squadrons_than_it_flew() -> None:
    # 10 Allied squadrons against 1 German: 6-1 (the last column); die 2: Win. The German loses 20%
    # of 10 = 2 squadrons, but only 1 flew: 1 lost, and next turn none of its fighters can fly.
    sc = air_scenario(1)
    new, events = play(sc, R.initial_state(sc, {}), Dice(2), cover("AL", "escort", 10), cover("GE", "air-cover", 1))
    fight = next(e for e in events if e["kind"] == "air-combat")
    assert (fight["result"], fight["losses"]) == ("win", {"allied": 0, "german": 1})
    assert new.air_lost == {"jg": 1}
    v = R.validate(sc, new, "GE", cover("GE", "air-cover", 1, turn=2))
    assert v and v[0].rule == "12" and "0 can fly" in v[0].message


def test_12_losses_are_reported_as_light_or_heavy_never_counted() -> None:
    # the 15-against-10 combat above: the Allies lost 3 of 10 (a fifth or more: heavy), the
    # Germans 1 of 15 (light)
    sc = air_scenario(15)
    new, _ = play(sc, R.initial_state(sc, {}), Dice(6), cover("AL", "escort", 10), cover("GE", "air-cover", 15))
    assert new.intel["AL"] == ["our fighters met the enemy's: the enemy held the sky (our losses heavy, "
                               "the enemy's light)"]
    assert new.intel["GE"] == ["our fighters met the enemy's: they held the sky (our losses light, "
                               "the enemy's heavy)"]
    assert not any(ch.isdigit() for line in new.intel["AL"] + new.intel["GE"] for ch in line)


def test_12_loss_words_boundary_at_a_fifth() -> None:
    assert loss_words(0, 3) == "light"  # aircraft lost, no whole squadron
    assert loss_words(1, 6) == "light"  # 5 < 6
    assert loss_words(1, 5) == "heavy"  # exactly a fifth
    assert loss_words(2, 2) == "heavy"
