"""Issue 25's supply and train rules of the megagame (seed 004), rules version 3, each beside what
version 2 (the frozen games of tests/compat/) still does:

* [11] "place all the supplies for a brigade/regimental group with the HQ unit ... The HQ unit has a
  limit to the number of supply counters is can carry about"; "Units can therefore draw on any
  supplies from their Bde/Regt HQ 'stack' provided it is within 5km"; the counters by nation: "Red
  counters = British Ammo, Green counters = American Ammo, Blue counters = German Ammo".
* [6] "It takes half a turn to disembark an infantry unit, or a whole turn for others."

The tiny map of test_megagame_rules.py (columns odd-high: in one column the distance is the
difference of the rows; 0303 touches 0302 and 0304).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.scenarios import load_data
from pbem.systems.megagame.model import MegaScenario, MegaState
from pbem.systems.megagame.presenter import stack_lines
from pbem.systems.megagame.view import team_view
from systems.megagame.test_megagame_rules import (
    AIR,
    R2,
    TYPES,
    Dice,
    R,
    air_sheet,
    play,
    prepared,
    scenario,
    sheet,
    unit,
)

STACK_TYPES: dict[str, Any] = {
    **TYPES,
    "hq3": {"profile": "(2)-(1)-0", "kind": "hq", "troops": "infantry", "size": 1, "lift": 3},
    "hq4": {"profile": "(2)-(1)-0", "kind": "hq", "troops": "infantry", "size": 1, "lift": 4},
    "hq6": {"profile": "(2)-(1)-0", "kind": "hq", "troops": "infantry", "size": 1, "lift": 6},
    "dump": {"profile": "(1)-0", "kind": "other", "troops": "mechanised", "mechanised": True, "size": 0, "dump": True},
    "rasc": {"profile": "(2)-(1)-0", "kind": "other", "troops": "mechanised", "mechanised": True, "size": 4},
}


def stacks(*units: dict[str, Any], **extra: Any) -> MegaScenario:
    return scenario(list(units), types=STACK_TYPES, **extra)


# -- [11] a unit draws on its HQ's stack ----------------------------------------------------------


def test_11_attacker_and_loser_draw_on_their_hq_stacks_not_the_team() -> None:
    # a (6, prepared) attacks d (4) holding: 6 - 4 = 2, die 3: 5, a Limited Success (table 5): the
    # loser loses one supply point a unit. The attack costs a 1 [9 Supplies]. ha holds 2 at 0301 (1 km
    # from a), hd 3 at 0305 (2 km from d). Version 3: ha 2 - 1 = 1, hd 3 - 1 = 2, both teams' own
    # supplies (5 each) untouched. Version 2: the teams pay, AL 5 - 1, GE 5 - 1.
    sc = stacks(unit("a", "AL", "inf", "0302", hq="ha"), unit("ha", "AL", "hq4", "0301", stock=2),
                unit("d", "GE", "weak", "0303", hq="hd"), unit("hd", "GE", "hq4", "0305", stock=3))
    orders = (sheet("AL", {"units": ["a"], "intention": "attack"}),
              sheet("GE", {"units": ["d"], "intention": "hold", "stand_fast": True}))
    new, events = play(sc, prepared(R.initial_state(sc, {}), "a"), Dice(3), *orders)
    assert next(e for e in events if e["kind"] == "combat")["band"] == "limited success"
    assert (new.units["ha"].stock, new.units["hd"].stock, new.supply) == (1, 2, {"AL": 5, "GE": 5})
    old, _ = play(sc, prepared(R2.initial_state(sc, {}), "a"), Dice(3), *orders, rules=R2)
    assert old.supply == {"AL": 4, "GE": 4}


def test_11_an_empty_hq_stack_means_no_attack_whatever_the_team_holds() -> None:
    # ha holds nothing; the team still has 5 points. Version 3: a draws only on its HQ's stack and
    # cannot attack ("Units cannot attack without supplies" [9]); version 2 pays from the team.
    sc = stacks(unit("a", "AL", "inf", "0302", hq="ha"), unit("ha", "AL", "hq4", "0301"),
                unit("d", "GE", "weak", "0303"))
    order = sheet("AL", {"units": ["a"], "intention": "attack"})
    new, events = play(sc, prepared(R.initial_state(sc, {}), "a"), Dice(), order)
    assert not any(e["kind"] == "combat" for e in events)
    assert "no supply left" in " ".join(new.facts["a"].events) and new.supply["AL"] == 5
    old, events = play(sc, prepared(R2.initial_state(sc, {}), "a"), Dice(3), order, rules=R2)
    assert any(e["kind"] == "combat" for e in events) and old.supply["AL"] == 4


def test_11_a_dump_fills_its_nations_hqs_nearest_first_each_up_to_its_lift() -> None:
    # Dump x at 0101: 15 points, lift 10 a turn, reach 5 km. In reach: hus (American) 1 km, h1 2 km
    # (lift 4, holding 1), h2 4 km (lift 6, empty). British counters do not go to the Americans; h1
    # takes 4 - 1 = 3, h2 6: 9 delivered, 15 - 9 = 6 left in the dump (the lift of 10 is not reached:
    # no HQ has room for the tenth). Version 2: 10 into the team's pool, 5 left.
    sc = stacks(unit("x", "AL", "dump", "0101", stock=15, lift=10, reach_km=5),
                unit("hus", "AL", "hq6", "0102", nation="us"), unit("h1", "AL", "hq4", "0103", stock=1),
                unit("h2", "AL", "hq6", "0105"), unit("d", "GE", "weak", "0808"))
    new, _ = play(sc, R.initial_state(sc, {}), Dice())
    assert [new.units[h].stock for h in ("hus", "h1", "h2", "x")] == [0, 4, 6, 6]
    assert new.supply["AL"] == 5
    assert "delivered 9 supply points to h1 (3), h2 (6) (6 left)" in new.facts["x"].events
    old, _ = play(sc, R2.initial_state(sc, {}), Dice(), rules=R2)
    assert (old.supply["AL"], old.units["x"].stock) == (5 + 10, 5)


def test_11_a_transport_unloads_only_at_its_nations_hq_and_only_what_it_can_carry() -> None:
    # r, a British lorry company carrying 5, stands with hus (American) and hb (British, lift 3,
    # holding 1): it unloads 3 - 1 = 2 into hb and keeps 3 loaded. Version 2: all 5 to the pool.
    sc = stacks(unit("r", "AL", "rasc", "0305"), unit("hus", "AL", "hq6", "0305", nation="us"),
                unit("hb", "AL", "hq3", "0305", stock=1), unit("d", "GE", "weak", "0808"))
    st = R.initial_state(sc, {})
    new, _ = play(sc, st.replace(loads={"r": 5}), Dice())
    assert (new.units["hb"].stock, new.units["hus"].stock, new.loads) == (3, 0, {"r": 3})
    assert "kept 3 supply points loaded: hb can carry no more" in new.facts["r"].events
    old, _ = play(sc, R2.initial_state(sc, {}).replace(loads={"r": 5}), Dice(), rules=R2)
    assert (old.supply["AL"], old.loads) == (5 + 5, {})


def test_11_supplies_dropped_by_air_go_to_the_hq_stacks_in_reach() -> None:
    # 2 transport squadrons drop 4 points on 0306; die 6, no factor: 4 land [12a]. h (lift 3, empty)
    # stands 2 km away: it takes 3; no unit without an HQ is near to take the fourth: lost.
    air = [*AIR, {"id": "tc", "name": "troop carriers", "side": "allied", "role": "transport", "squadrons": 2,
                  "region": "england"}]
    sc = stacks(unit("a", "AL", "inf", "0303", hq="h"), unit("h", "AL", "hq3", "0304"),
                unit("d", "GE", "weak", "0808"), air=air)
    new, events = play(sc, R.initial_state(sc, {}), Dice(6),
                       air_sheet({"mission": "transport", "squadrons": 2, "target": "0306"}))
    drop = next(e for e in events if e["kind"] == "resupply")
    assert (drop["landed"], drop["collected"], new.units["h"].stock, new.supply["AL"]) == (4, True, 3, 5)
    assert new.intel["AL"] == ["air resupply on 0306 (3 km from Dorp): 4 of 4 supply points landed, collected: "
                               "3 to h; 1 lost: no HQ of ours in reach could carry more"]


def test_11_the_scenario_gives_each_hq_no_more_than_its_lift_and_units_an_hq_of_their_nation() -> None:
    data = stacks(unit("a", "AL", "inf", "0302", hq="h"), unit("h", "AL", "hq3", "0301", stock=3),
                  unit("d", "GE", "weak", "0808")).to_json()
    assert R.scenario_problems(data) == []  # 3 of 3, both British by default
    data["units"][0]["nation"], data["units"][1]["stock"] = "us", 4
    problems = R.scenario_problems(data)
    assert "unit a: its HQ h holds british supplies, the unit uses us [11]" in problems
    assert "unit h: 4 supply points, more than the 3 its HQ can carry [11]" in problems
    assert R2.scenario_problems(data) == []


def test_11_a_team_sees_its_hq_stacks_in_its_view_and_sheet() -> None:
    sc = stacks(unit("a", "AL", "inf", "0302", hq="h"), unit("h", "AL", "hq3", "0301", stock=2),
                unit("d", "GE", "weak", "0808"))
    st = R.initial_state(sc, {})
    view = team_view(sc, st, "AL")
    assert view["stacks"] == [{"hq": "h", "hex": "0301", "points": 2, "lift": 3, "nation": "british"}]
    assert stack_lines(view)[1] == "  h at 0301: 2 supply points of the 3 it can carry, British (red)"
    template = R.presenter().orders_template(sc, st, "AL") or ""
    assert "#   h at 0301: 2 supply points of the 3 it can carry, British (red)" in template
    status = R.presenter().describe_view(sc, view)  # what pbem status prints for the team
    assert status[:3] == ["17 September 1944, morning: 5 supply points held by the team for units without an HQ [11]",
                          "Supplies at your HQs (each unit draws on its own HQ's stack within 5 km) [11]:",
                          "  h at 0301: 2 supply points of the 3 it can carry, British (red)"]
    assert "stacks" not in team_view(sc, st, "AL", rules3=False)  # version 2's view as it was


def test_11_the_bundled_scenario_gives_hqs_their_stacks_within_their_lift() -> None:
    data = load_data("megagame-market-garden")
    assert R.scenario_problems(data) == []
    sc = R.load_scenario(data)
    # Annex A as read (megagame-profiles.json): an airborne brigade HQ carries 4; 1st Para Brigade's
    # HQ starts with its 4 points of British ammunition; the Polish brigade's HQ uses British counters
    assert sc.types["gb-airborne-bde-hq"].lift == 4 and sc.unit["gb-1-para-bde-hq"].stock == 4
    assert sc.unit["pl-bde-hq"].nation == "british" and sc.unit["us-504-hq"].nation == "us"
    st: MegaState = R.initial_state(sc, {})
    assert st.supply["IAB"] == 0 and st.loads["gb-gds-rasc"] == 10


# -- [6] getting off a train -----------------------------------------------------------------------

RAIL = [{"kind": "railway", "name": "the line", "hexes": ["0101", "0201", "0301", "0401", "0501", "0601", "0701"]}]


def rail() -> MegaScenario:
    data = scenario([unit("g", "GE", "weak", "0101"), unit("a", "AL", "inf", "0105")],
                    terrain={"town": ["0101", "0701"]}, trains={"german": 25}).to_json()
    data["map"]["railways"] = RAIL
    return R.load_scenario(data)


def test_6_infantry_takes_half_a_turn_to_get_off_its_train() -> None:
    # Turn 1 g boards (a turn), turn 2 it travels to 0601, turn 3 the first half goes in getting off:
    # it takes orders, and moves at most half its move: 15 km tactical (infantry, version 3) / 2 = 7.5.
    sc = rail()
    t2, _ = play(sc, R.initial_state(sc, {}), Dice(), sheet("GE", {"units": ["g"], "intention": "move",
                                                                    "rail_to": "0601"}))
    t3, _ = play(sc, t2, Dice(), sheet("GE", turn=2), sheet("AL", turn=2))
    assert t3.units["g"].hex == "0601" and t3.units["g"].rail is not None
    assert t3.units["g"].rail.phase == "disembarking"
    eight = ["0602", "0603", "0604", "0605", "0606", "0607", "0608", "0508"]
    v = R.validate(sc, t3, "GE", sheet("GE", {"units": ["g"], "intention": "move", "route": eight}, turn=3))
    assert [(x.rule, x.message) for x in v] == [
        ("6", "g: g takes half a turn to get off its train: at most 7.5 km this turn, the route is 8 km")]
    t4, _ = play(sc, t3, Dice(), sheet("GE", {"units": ["g"], "intention": "move", "route": eight[:4]}, turn=3),
                 sheet("AL", turn=3))
    assert (t4.units["g"].hex, t4.units["g"].rail) == ("0605", None)
    # version 2: off the train with the turn of travel, free the next turn
    o2, _ = play(sc, R2.initial_state(sc, {}), Dice(), sheet("GE", {"units": ["g"], "intention": "move",
                                                                      "rail_to": "0601"}), rules=R2)
    o3, _ = play(sc, o2, Dice(), sheet("GE", turn=2), sheet("AL", turn=2), rules=R2)
    assert (o3.units["g"].hex, o3.units["g"].rail) == ("0601", None)


# -- [9] attaching a battalion to another division ---------------------------------------------------


def test_9_attaching_a_battalion_to_another_division_takes_the_turn() -> None:
    # "Attach a battalion to a different division takes 1 turn." a (1 Div) and b (2 Div), both
    # prepared, attack d (4): 6 + 6, less 1 for the unit not of the division leading the fight (note 6:
    # with one unit each, the engine takes the later name, 2 Div, as leading: a is the stray): 11.
    # b attached to 1 Div on the same turn still counts with 2 Div: 11; the turn after, both are
    # 1 Div: 12. Version 2 has no attaching: the line is refused.
    sc = scenario([unit("a", "AL", "inf", "0302", division="1 Div"), unit("b", "AL", "inf", "0402", division="2 Div"),
                   unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a", "b")
    attack = sheet("AL", {"units": ["a"], "intention": "attack"},
                   {"units": ["b"], "intention": "attack", "attach": "1 Div"})
    new, events = play(sc, st, Dice(1, 1, 1, 1), attack)
    assert next(e for e in events if e["kind"] == "combat")["attacker_score"] == 11
    assert new.attached == {"b": "1 Div"}
    assert "is attached to 1 Div: it fights with it from the next turn" in new.facts["b"].events
    later, events = play(sc, st.replace(attached={"b": "1 Div"}), Dice(1, 1, 1, 1),
                         sheet("AL", {"units": ["a", "b"], "intention": "attack"}))
    assert next(e for e in events if e["kind"] == "combat")["attacker_score"] == 12
    assert later.attached == {"b": "1 Div"}
    v = R2.validate(sc, st, "AL", attack)
    assert [x.rule for x in v] == ["9"] and "not in this game's rules version" in v[0].message
    bad = R.validate(sc, st, "AL", sheet("AL", {"units": ["b"], "intention": "hold", "attach": "9 SS"}))
    assert [x.rule for x in bad] == ["9"] and "no division '9 SS' on our side" in bad[0].message
    assert "attached" not in R2.dump_state(sc, R2.initial_state(sc, {}))  # version 2's state as it was
