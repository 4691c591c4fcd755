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

from typing import Any

from pbem.systems.megagame.model import ParkedSupply
from systems.megagame.test_megagame_air_rules3 import of_kind, tiny
from systems.megagame.test_megagame_air_rules3 import play as play_v
from systems.megagame.test_megagame_preview import team_preview
from systems.megagame.test_megagame_rules import (
    AIR,
    R2,
    TYPES,
    Dice,
    R,
    air_sheet,
    play,
    scenario,
    sheet,
    unit,
)

RECCE = {"mission": "recce", "squadrons": 1, "target": "0808"}

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


def test_10_a_unit_pinned_down_by_artillery_fire_is_told_so() -> None:
    # One battery g1 at 0101 interdicts 0606 (long range, field: 12 km); d at 0606 was to attack a at
    # 0602 (4 km off). The "1-2" row: die 5, immobilised. Version 3: "pinned down by artillery fire".
    sc = tiny(unit("g1", "AL", "guns", "0101"), unit("a", "AL", "inf", "0602"), unit("d", "GE", "inf", "0606"))
    new, events = play_v(R, sc, R.initial_state(sc, {}), Dice(5),
                         sheet("AL", {"units": ["g1"], "intention": "hold", "interdict": "0606"}),
                         sheet("GE", {"units": ["d"], "intention": "attack", "route": ["0605", "0604", "0603"]}))
    assert of_kind(events, "interdiction")[0]["hits"] == [{"unit": "d", "die": 5, "result": "immobilised"}]
    assert new.units["d"].hex == "0606"
    assert "did not attack: pinned down by artillery fire before it reached the enemy [9]" in new.facts["d"].events


# -- [11] parked counters keep their nation ---------------------------------------------------------

NATION_TYPES: dict[str, Any] = {
    **TYPES,
    "dump": {"profile": "(1)-0", "kind": "other", "troops": "mechanised", "mechanised": True, "size": 0, "dump": True},
    "rasc": {"profile": "(2)-(1)-0", "kind": "other", "troops": "mechanised", "mechanised": True, "size": 4},
}


def test_11_parked_counters_go_only_to_a_transport_of_their_nation() -> None:
    # x, a British dump (no nation on the Allied side: British) with 15 points, moves from 0101 to 0102
    # and leaves its red counters parked at 0101 [11]. Two lorry companies (10 each) stand there, rb
    # (British) and rus (American), taken in id order. Version 3: rb loads 10, rus none ("Green
    # counters = American Ammo": the red are not its), 5 stay parked, British. Version 2: rb 10, rus 5.
    sc = scenario([unit("h", "AL", "hq", "0106"), unit("x", "AL", "dump", "0101", stock=15, lift=10, reach_km=5),
                   unit("rb", "AL", "rasc", "0101"), unit("rus", "AL", "rasc", "0101", nation="us"),
                   unit("d", "GE", "weak", "0808")], types=NATION_TYPES)
    order = sheet("AL", {"units": ["x"], "intention": "move", "route": ["0102"]})
    new, _ = play(sc, R.initial_state(sc, {}), Dice(), order)
    assert new.loads == {"rb": 10}
    assert new.parked == [ParkedSupply(team="AL", hex="0101", points=5, left_by="x", nation="british")]
    assert new.to_json()["parked"] == [{"team": "AL", "hex": "0101", "points": 5, "left_by": "x",
                                           "nation": "british"}]
    old, _ = play(sc, R2.initial_state(sc, {}), Dice(), order, rules=R2)
    assert (old.loads, old.parked) == ({"rb": 10, "rus": 5}, [])


def test_11_a_dump_of_another_nation_does_not_take_up_parked_counters() -> None:
    # 6 British points lie parked at 0101 (state of version 3); xus, an American dump, stands there.
    # Version 3: they stay parked, xus's stock stays 0. Version 2's parked counters carry no nation:
    # the team's dump takes them back (6).
    sc = scenario([unit("xus", "AL", "dump", "0101", lift=10, reach_km=5, nation="us"),
                   unit("d", "GE", "weak", "0808")], types=NATION_TYPES)
    parked = ParkedSupply(team="AL", hex="0101", points=6, left_by="x", nation="british")
    new, _ = play(sc, R.initial_state(sc, {}).replace(parked=[parked]), Dice())
    assert (new.units["xus"].stock, new.parked) == (0, [parked])
    mine = parked.replace(nation="us")
    new, _ = play(sc, R.initial_state(sc, {}).replace(parked=[mine]), Dice())
    assert (new.units["xus"].stock, new.parked) == (6, [])
    old_parked = ParkedSupply(team="AL", hex="0101", points=6, left_by="x")
    old, _ = play(sc, R2.initial_state(sc, {}).replace(parked=[old_parked]), Dice(), rules=R2)
    assert (old.units["xus"].stock, old.parked) == (6, [])
    assert "nation" not in old_parked.to_json()  # version 2's state dumps as it did


# -- [12d] recce: supplies stationary in the open -----------------------------------------------------


def test_12d_recce_can_see_the_enemys_supply_counters_parked_in_the_open() -> None:
    # The German team's counters lie parked at 0606 (open) and 0707 (woods); the Allies' own at 0505;
    # d stands in the woods at 0808 (cover: ignored). A recce over 0808's zone (every hex of the tiny
    # map) has one target: 0606, on the column "Supplies stationary in open": 6 "Type reported"
    # (supplies), 5 "'Enemy Spotted'", 4 "No report". Cover hides the woods' counters ("Units in cover
    # ... we ignore it here"); the Allies' own are no target. Version 2 never looked at counters: its
    # one die over 0606 itself, a 6, finds no unit there and says so.
    sc = tiny(unit("a", "AL", "inf", "0101"), unit("d", "GE", "inf", "0808"), terrain={"woods": ["0707", "0808"]})
    parked = [ParkedSupply(team="GE", hex="0606", points=4, nation="german"),
              ParkedSupply(team="GE", hex="0707", points=3, nation="german"),
              ParkedSupply(team="AL", hex="0505", points=2, nation="british")]
    st = R.initial_state(sc, {}).replace(parked=parked)
    heard, looks = [], []
    for die in (6, 5, 4):
        new, events = play_v(R, sc, st, Dice(die), air_sheet(RECCE))
        heard.append(new.intel["AL"])
        looks.append(of_kind(events, "recce")[0]["looks"])
    assert looks == [[{"hex": "0606", "die": die, "target": "supplies stationary", "seen": seen}]
                     for die, seen in ((6, "enemy spotted: supplies"), (5, "enemy spotted"), (4, "no report"))]
    assert heard == [["air recce over the zone around 0808: enemy spotted: supplies at 0606"],
                     ["air recce over the zone around 0808: enemy spotted at 0606"],
                     ["air recce over the zone around 0808: no report"]]
    old_parked = [p.replace(nation="") for p in parked]
    old, _ = play_v(R2, sc, R2.initial_state(sc, {}).replace(parked=old_parked), Dice(6),
                    air_sheet({**RECCE, "target": "0606"}))
    assert old.intel["AL"] == ["air recce over 0606: no enemy seen"]


# -- [11] an HQ without orders follows its units ------------------------------------------------------

HQ_TYPES: dict[str, Any] = {**NATION_TYPES, "hq4": {"profile": "(2)-(1)-0", "kind": "hq", "troops": "infantry",
                                                    "size": 1, "lift": 4}}


def test_11_an_hq_without_orders_follows_its_units_and_supplies_their_attack() -> None:
    # h (HQ of a, holding 2) at 0101; a at 0102 marches 5 km down the column to 0107 and attacks d (4)
    # at 0108, who holds fast. h has no orders. Version 3: Game Control moves it up behind a: the first
    # hex of its shortest way within 5 km of 0107 is 0102 (0101 is 6 km off), so it goes 1 km. a, 5 km
    # from h, draws 1 point for the attack [9 Supplies, 11]: h 2 - 1 = 1. Unprepared: 6 - 4 - 2 + die 5
    # = 5, a Limited Success. With h told to hold (the player's order), h stays 6 km off and a has
    # nothing to draw on: no attack. Version 2 moves no HQ (the team pays).
    sc = scenario([unit("h", "AL", "hq4", "0101", stock=2), unit("a", "AL", "inf", "0102", hq="h"),
                   unit("d", "GE", "weak", "0108")], types=HQ_TYPES)
    go = {"units": ["a"], "intention": "attack",
          "route": ["0103", "0104", "0105", "0106", "0107"]}
    hold = sheet("GE", {"units": ["d"], "intention": "hold", "stand_fast": True})
    new, events = play(sc, R.initial_state(sc, {}), Dice(5), sheet("AL", go), hold)
    said = "had no orders: Game Control moved it up behind its units (1 going to 0107) to supply them [11]"
    assert {"kind": "note", "text": f"h {said}"} in events and said in new.facts["h"].events
    assert (new.units["h"].hex, new.units["a"].hex) == ("0102", "0107")
    combat = next(e for e in events if e["kind"] == "combat")
    assert (combat["attackers"], combat["band"]) == (["a"], "limited success")
    assert new.units["h"].stock == 1
    told, events = play(sc, R.initial_state(sc, {}), Dice(),
                        sheet("AL", go, {"units": ["h"], "intention": "hold"}), hold)
    assert told.units["h"].hex == "0101" and not any(e["kind"] == "combat" for e in events)
    assert told.units["h"].stock == 2
    old, _ = play(sc, R2.initial_state(sc, {}), Dice(5), sheet("AL", go), hold, rules=R2)
    assert old.units["h"].hex == "0101"


def test_11_an_hq_following_its_units_goes_no_farther_than_its_own_move() -> None:
    # A tall map (rows 1-20). ht, an armoured HQ (tanks' row) in marsh at 0101: 8 km tactical [6]. Its
    # unit a (infantry, 15 km) marches from 0102 to 0117. The first hex of ht's way within 5 km of 0117
    # is 0112, 11 km off: ht goes its 8 km, to 0109.
    tall = {"id": "tall", "cols": [1, 8], "rows": [1, 20], "terrain": {"marsh": ["0101"]}, "lines": [],
            "places": [{"hex": "0303", "name": "Dorp"}]}
    types = {**HQ_TYPES, "hqt": {"profile": "(2)-(1)-0", "kind": "hq", "troops": "tanks", "mechanised": True,
                                 "size": 1}}
    sc = scenario([unit("ht", "AL", "hqt", "0101", stock=2), unit("a", "AL", "inf", "0102", hq="ht"),
                   unit("d", "GE", "weak", "0820")], types=types, map=tall)
    march = {"units": ["a"], "intention": "move", "route": [f"01{r:02d}" for r in range(3, 18)]}
    new, _ = play(sc, R.initial_state(sc, {}), Dice(), sheet("AL", march))
    assert (new.units["a"].hex, new.units["ht"].hex) == ("0117", "0109")
    assert new.facts["ht"].path == [f"01{r:02d}" for r in range(1, 10)]


def test_11_the_preview_states_where_an_hq_without_orders_will_follow() -> None:
    # h (no orders) at 0101; a marches 0102 -> 0108. The first hex of h's way within 5 km of 0108 is
    # 0103 (0101 is 7 km off, 0102 6): h goes 2 km, via 0102 0103. The preview says so and no longer
    # lists h as staying where it is [5]; Game Control's resolution of the same sheet puts h at 0103.
    sc = scenario([unit("h", "AL", "hq4", "0101", stock=2), unit("a", "AL", "inf", "0102", hq="h"),
                   unit("d", "GE", "weak", "0808")], types=HQ_TYPES)
    march = {"units": ["a"], "intention": "move", "route": [f"01{r:02d}" for r in range(3, 9)]}
    orders, preview = team_preview(R, sc, [march])
    assert preview.expected == [
        "a moves 6 km, via 0103 0104 0105 0106 0107 0108, ending at 0108 unless the enemy is met on the way [6]",
        "h has no orders: as Game Control would, the engine moves it up behind its units (1 going to 0108) to "
        "supply them: 2 km, via 0102 0103, ending at 0103 unless the enemy is met on the way [6, 11]",
    ]
    assert preview.undone == []
    new, _ = play(sc, R.initial_state(sc, {}), Dice(), orders)
    assert (new.units["a"].hex, new.units["h"].hex) == ("0108", "0103")
    _, old_preview = team_preview(R2, sc, [march])
    assert old_preview.undone == ["no orders for h: they stay where they are [5]"]
