"""Issue 25's last small gaps of the megagame (seed 004), rules version 3, each beside what version 2
(the frozen games of tests/compat/) still does:

* [10 ELETIS] "Tanks, artillery and air power MUST be mentioned if they are involved": a unit that
  was to attack and was pinned down short of the enemy is told what pinned it.
* [11] parked supply counters keep the nation of whoever parked them ("Red counters = British Ammo /
  Green counters = American Ammo").
* [12d] the recce table's column "Supplies stationary in open".
* [11] "Game Control should assume the HQ unit follows the main units during an advance".

The tiny map of test_megagame_rules.py (in one column the distance is the difference of the rows).
"""

from __future__ import annotations

from systems.megagame.test_megagame_rules import AIR, R2, Dice, R, air_sheet, play, scenario, sheet, unit

# -- [10 ELETIS, 9] a unit pinned down short of its attack hears so --------------------------------


def test_10_a_unit_pinned_down_by_bombing_is_told_the_pin_kept_it_from_attacking() -> None:
    # d stands at 0306 with attack orders against a at 0302 (4 km off). 2 squadrons bomb 0306 (4 km
    # from a: past the 2 km bomb line); the 1-2 squadrons row: die 5 "Immobilised". d stays at 0306,
    # never next to a. Version 3 names the pin (air power must be mentioned [10]); version 2 says
    # no enemy was next to it.
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "inf", "0306")], air=AIR)
    orders = (air_sheet({"mission": "bombing", "squadrons": 2, "target": "0306"}),
              sheet("GE", {"units": ["d"], "intention": "attack", "objective": "0302",
                           "route": ["0305", "0304", "0303"]}))
    new, events = play(sc, R.initial_state(sc, {}), Dice(5), *orders)
    strike = next(e for e in events if e["kind"] == "interdiction")
    assert [(h["unit"], h["die"], h["result"]) for h in strike["hits"]] == [("d", 5, "immobilised")]
    assert new.units["d"].hex == "0306"
    said = "did not attack: pinned down from the air before it reached the enemy [9]"
    assert said in new.facts["d"].events
    assert {"kind": "note", "text": f"d {said}"} in events
    old, events = play(sc, R2.initial_state(sc, {}), Dice(5), *orders, rules=R2)
    assert "did not attack: no enemy was next to it when the attacks went in [9]" in old.facts["d"].events
