"""Rules version 3's air, supply and report readings of issue 25 [seed 004, sections 9, 10, 12, 13],
each with chosen dice and the values worked out from the text, and each with the result version 2
(the frozen games of tests/compat/) keeps:

* [9 interdiction table] heavy bombers given a target bomb it on the "Heavy Squadrons per map
  square" column;
* [12c] the bomb line, at least 2 km from friendly troops;
* [12] a day drop's lost status back "after 1 clear turn (i.e the next day)";
* [12a] polder poor terrain for air resupply; the airstrip (+2) and AFDAG (+5) factors;
* [13, 12c] flak a suppression mission damages or immobilises is suppressed for the turn;
* [12d] a failed recce reads the same whether the hex is empty or not;
* [10 ELETIS] tanks, artillery and air power named when they acted on the unit; supply lost to
  the enemy's action counted as used.

The tiny 8x8 map of test_megagame_rules: 0303 touches 0302, 0402, 0403, 0304, 0203 and 0202.
"""

from __future__ import annotations

from typing import Any

from pbem.maps.hexmap import Hex
from pbem.systems.megagame.model import MegaScenario, MegaState, UnitState
from pbem.systems.megagame.orders import OrderSheet
from pbem.systems.megagame.rules import MegagameRules
from pbem.systems.megagame.view import team_view
from systems.megagame.test_megagame_rules import AIR, TYPES, Dice, air_sheet, scenario, sheet, unit

V3 = MegagameRules()
V2 = MegagameRules().at_version("2")

HEAVY = {"id": "bc", "name": "Bomber Command", "side": "allied", "role": "heavy-bomber", "squadrons": 10,
         "region": "england"}
TRANSPORT = {"id": "tc", "name": "troop carriers", "side": "allied", "role": "transport", "squadrons": 4,
             "region": "england"}
MORE_TYPES: dict[str, Any] = {
    **TYPES,
    "hflak": {"profile": "3-2-1-0", "kind": "artillery", "troops": "motor-towed-artillery",
              "artillery": "field", "flak": "heavy", "size": 3},
    "afdag": {"profile": "(2)-(1)-0", "kind": "hq", "troops": "infantry", "size": 1, "afdag": True},
}


def tiny(*units: dict[str, Any], **extra: Any) -> MegaScenario:
    return scenario(list(units), air=[*AIR, HEAVY, TRANSPORT], types=MORE_TYPES, **extra)


def play(rules: MegagameRules, sc: MegaScenario, st: MegaState, dice: Dice,
         *sheets: OrderSheet) -> tuple[MegaState, list[Any]]:
    by_team = {s.team: s for s in sheets}
    for team in ("AL", "GE"):
        by_team.setdefault(team, sheet(team, turn=st.turn))
        assert rules.validate(sc, st, team, by_team[team]) == []
    res = rules.resolve_round(sc, st, by_team, dice, {}, rules.load_rulings(sc, st, {}))
    assert dice.faces == [], f"dice left over: {dice.faces}"
    return res.state, res.events


def report_of(sc: MegaScenario, st: MegaState, team: str, uid: str) -> str:
    return next(r for r in team_view(sc, st, team)["reports"] if r.startswith(f"{uid} ({uid})"))


def of_kind(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e["kind"] == kind]


# -- [9 interdiction table] the Heavy Squadrons column ------------------------------------------------


def test_9_interdiction_heavy_squadrons_bomb_their_target_on_their_own_column() -> None:
    # One heavy squadron: the row "3-4 tactical / 1 heavy": a step lost and immobilised on a 6,
    # immobilised on 4-5. Two heavy squadrons: the row "5-6 / 2-3": a step lost on 5-6.
    sc = tiny(unit("a", "AL", "inf", "0101"), unit("d", "GE", "inf", "0606"))
    st = V3.initial_state(sc, {})
    new, events = play(V3, sc, st, Dice(4), air_sheet({"mission": "heavy", "squadrons": 1, "target": "0606"}))
    assert of_kind(events, "interdiction")[0]["hits"] == [{"unit": "d", "die": 4, "result": "immobilised"}]
    assert new.units["d"].steps == 0
    new, events = play(V3, sc, st, Dice(5), air_sheet({"mission": "heavy", "squadrons": 2, "target": "0606"}))
    assert of_kind(events, "interdiction")[0]["hits"] == [{"unit": "d", "die": 5,
                                                          "result": "step loss and immobilised"}]
    assert new.units["d"].steps == 1
    assert new.intel["AL"] == ["heavy bombing of 0606: the pilots report hits"]
    # version 2: accepted, no die, nothing happens
    old, events = play(V2, sc, st, Dice(), air_sheet({"mission": "heavy", "squadrons": 2, "target": "0606"}))
    assert of_kind(events, "interdiction") == [] and old.units["d"].steps == 0


def test_9_interdiction_a_unit_passing_a_point_heavy_bombers_hit_meets_them() -> None:
    # One heavy squadron on the empty 0304 (die: none, nobody there); d marches 0305 -> 0304 -> 0303
    # and meets the strike at 0304: die 6 on the "3-4 / 1" row, a step lost and pinned there [9].
    sc = tiny(unit("a", "AL", "inf", "0808"), unit("d", "GE", "inf", "0305"))
    st = V3.initial_state(sc, {})
    new, events = play(V3, sc, st, Dice(6), air_sheet({"mission": "heavy", "squadrons": 1, "target": "0304"}),
                       sheet("GE", {"units": ["d"], "intention": "move", "route": ["0304", "0303"]}))
    passing = of_kind(events, "interdiction-passing")
    assert [(p["unit"], p["at"], p["result"]) for p in passing] == [("d", "0304", "step loss and immobilised")]
    assert (new.units["d"].hex, new.units["d"].steps) == ("0304", 1)


def test_9_heavy_bombers_without_a_target_still_fly_in_support_of_an_attack() -> None:
    # a (6, prepared) asks for 'heavy 1' on its line and on the air orders, without a target: not a
    # bombing (no die of its own) but the combat's air support, 1 heavy squadron "overwhelming"
    # (+8): 6 + 8 against d's 4, +10; die 3: 13, a Total Success, d retiring 2d6 (1 + 1) km.
    sc = tiny(unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0304"))
    st = _prepared(V3.initial_state(sc, {}), "a")
    al = OrderSheet.parse({
        "team": "AL", "side": "allied", "turn": 1,
        "lines": [{"units": ["a"], "intention": "attack", "objective": "0304",
                   "air": [{"mission": "heavy", "squadrons": 1}]}],
        "air_orders": [{"mission": "heavy", "squadrons": 1}]})
    _, events = play(V3, sc, st, Dice(3, 1, 1), al)
    assert of_kind(events, "interdiction") == []
    fight = of_kind(events, "combat")[0]
    assert (fight["air"], fight["band"]) == ("overwhelming", "total success")


# -- [12c] the bomb line ----------------------------------------------------------------------------


def test_12c_the_bomb_line_is_at_least_2_km_from_friendly_troops() -> None:
    sc = tiny(unit("a", "AL", "inf", "0303"), unit("d", "GE", "inf", "0606"))
    st = V3.initial_state(sc, {})
    for target, km in (("0303", 0), ("0304", 1)):
        for mission in ("bombing", "heavy"):
            v = V3.validate(sc, st, "AL", air_sheet({"mission": mission, "squadrons": 1, "target": target}))
            assert [x.rule for x in v] == ["12"], (mission, target)
            assert f"{km} km from friendly troops at 0303" in v[0].message
    assert V3.validate(sc, st, "AL", air_sheet({"mission": "bombing", "squadrons": 1, "target": "0305"})) == []
    # version 2 bombed next to its own troops
    assert V2.validate(sc, st, "AL", air_sheet({"mission": "bombing", "squadrons": 1, "target": "0304"})) == []


def test_12c_the_bomb_line_counts_the_other_teams_of_the_side_the_team_sees() -> None:
    teams = [{"id": "AL", "side": "allied", "name": "Allies"}, {"id": "XX", "side": "allied", "name": "Corps"},
             {"id": "GE", "side": "german", "name": "Germans"}]
    sc = tiny(unit("a", "AL", "inf", "0101"), unit("x", "XX", "inf", "0505"), unit("d", "GE", "inf", "0808"),
              teams=teams)
    st = V3.initial_state(sc, {})
    bomb = air_sheet({"mission": "bombing", "squadrons": 1, "target": "0506"})
    v = V3.validate(sc, st, "AL", bomb)
    assert [x.rule for x in v] == ["12"] and "friendly troops at 0505" in v[0].message
    # the team's own pbem, from its view, refuses the same sheet alike
    view = V3.load_state(sc, V3.view(sc, st.to_json(), "AL"))
    assert [x.message for x in V3.validate(sc, view, "AL", bomb)] == [x.message for x in v]


# -- [12] a day drop's stragglers: back after one clear turn ------------------------------------------


def test_12_a_day_drop_s_lost_status_is_back_after_one_clear_turn_the_next_day() -> None:
    # p lands at the start of turn 2 (the afternoon of the 17th): dice 1 (a loss) then 3 (not for
    # good). Turn 2 is the drop's; turn 3 the clear turn; at its end the men are back, for turn 4
    # (the afternoon of the 18th: "the next day"). Version 2: back at the end of turn 2.
    sc = tiny(unit("p", "AL", "inf", "0606", arrives=2, by_air=True), unit("d", "GE", "weak", "0101"),
              turns=5)
    for rules, back_after in ((V3, 3), (V2, 2)):
        st = rules.initial_state(sc, {})
        st, events = play(rules, sc, st, Dice(1, 3))
        assert of_kind(events, "drop")[0]["result"] == "status loss, recovered later"
        assert (st.units["p"].steps, st.units["p"].scattered) == (1, 1)
        for turn in (2, 3):
            st, _ = play(rules, sc, st, Dice(), sheet("AL", turn=turn), sheet("GE", turn=turn))
            back = turn >= back_after
            assert (st.units["p"].steps, st.units["p"].scattered) == ((0, 0) if back else (1, 1)), (rules.version, turn)
            if turn == back_after:
                assert "its scattered men have come in" in st.facts["p"].events


# -- [12a] air resupply: polder, airstrips, AFDAG ------------------------------------------------------


def _resupply(rules: MegagameRules, sc: MegaScenario, die: int, target: str) -> dict[str, Any]:
    st = rules.initial_state(sc, {})
    _, events = play(rules, sc, st, Dice(die), air_sheet({"mission": "transport", "squadrons": 2, "target": target}))
    e: dict[str, Any] = of_kind(events, "resupply")[0]
    return e


def test_12a_polder_is_poor_terrain_for_air_resupply() -> None:
    # 2 squadrons drop 4 points. Die 3 on polder: 3 - 1 = 2, the column of a 2: 2 of 4 land (the
    # 4-point row reads 4 4 3 3 2 2 2 1 1 0 0 for 6+ down to -4). Version 2: no factor, a 3: 3 land.
    sc = tiny(unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0808"), terrain={"polder": ["0305"]})
    e = _resupply(V3, sc, 3, "0305")
    assert (e["factors"], e["landed"]) == (["poor terrain"], 2)
    e = _resupply(V2, sc, 3, "0305")
    assert (e["factors"], e["landed"]) == ([], 3)


def test_12a_supplies_landed_on_an_airstrip_plus_2_with_afdag_deployed_plus_5() -> None:
    # Die 2 on clear ground: the column of a 2, 2 of 4 land. On an airstrip: 2 + 2 = 4, 3 land.
    # With an AFDAG of the side on the strip: die 1 + 5 = 6, all 4 land (die 1 alone: 2 land).
    # An airstrip on polder is not poor ground: +2 only.
    sc = tiny(unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0808"), airstrips=["0305", "0302"],
              terrain={"polder": ["0302"]})
    assert _resupply(V3, sc, 2, "0304")["landed"] == 2
    e = _resupply(V3, sc, 2, "0305")
    assert (e["factors"], e["landed"]) == (["airstrip"], 3)
    e = _resupply(V3, sc, 2, "0302")
    assert (e["factors"], e["landed"]) == (["airstrip"], 3)
    with_afdag = tiny(unit("a", "AL", "inf", "0303"), unit("g", "AL", "afdag", "0305"),
                      unit("d", "GE", "weak", "0808"), airstrips=["0305"])
    e = _resupply(V3, with_afdag, 1, "0305")
    assert (e["factors"], e["landed"]) == (["airstrip with AFDAG"], 4)
    assert _resupply(V2, with_afdag, 1, "0305")["landed"] == 2  # version 2: no airstrips


def test_12a_an_airstrip_off_the_map_is_a_scenario_problem() -> None:
    data = tiny(unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0808")).to_json()
    data["airstrips"] = ["0909"]
    assert any("airstrip '0909'" in p and "[12a]" in p for p in V3.scenario_problems(data))


# -- [13, 12c] flak suppressed --------------------------------------------------------------------------


def test_13_flak_damaged_or_immobilised_by_a_suppression_mission_is_suppressed_that_turn() -> None:
    # Heavy flak f at 0307, 2 km from the drop zone 0305 (not contesting it: no enemy within 1 km).
    # Bombing it with 2 squadrons (row "1-2": a step on 6, immobilised on 5): die 5, immobilised.
    # One squadron of supplies on 0305 (2 points): f does not fire, and no "enemy flak" -2: die 4,
    # the column of a 4 on the 2-point row (2 2 2 1 1 1 1 1 0 0 0 for 6+ down to -4): 2 land.
    sc = tiny(unit("a", "AL", "inf", "0303"), unit("f", "GE", "hflak", "0307"))
    st = V3.initial_state(sc, {})
    orders = air_sheet({"mission": "bombing", "squadrons": 2, "target": "0307"},
                       {"mission": "transport", "squadrons": 1, "target": "0305"})
    dice = Dice(5, 4)
    _, events = play(V3, sc, st, dice, orders)
    assert dice.labels == ["9 interdiction 0307 f", "12 air resupply 0305 AL"]
    e = of_kind(events, "resupply")[0]
    assert (e["factors"], e["landed"]) == ([], 2)
    # a miss (die 4: no effect on the "1-2" row) leaves the flak firing: its die (1, within 2 km:
    # no effect for heavy flak) and the -2: 4 - 2 = 2, the column of a 2: 1 lands
    dice = Dice(4, 1, 4)
    _, events = play(V3, sc, st, dice, orders)
    assert dice.labels[1] == "13 flak f on resupply AL 1"
    e = of_kind(events, "resupply")[0]
    assert (e["factors"], e["landed"]) == (["enemy flak"], 1)
    # version 2: the pinned-down flak fires and counts
    dice = Dice(5, 1, 4)
    _, events = play(V2, sc, st, dice, orders)
    assert dice.labels[1] == "13 flak f on resupply AL 1"
    assert of_kind(events, "resupply")[0]["factors"] == ["enemy flak"]


def test_13_flak_suppressed_this_round_does_not_meet_the_lift_that_lands_with_it() -> None:
    # p's lift lands at the end of this round (the start of turn 2) on 0606; f at 0608, 2 km from
    # its zone, is pinned down by the round's bombing (die 5). The drop rolls its two dice with no
    # flak modifier and f fires no die: dice 1 then 2 -- a loss, not for good (with flak, -2 on both:
    # the second would be 0, a loss for good). Version 2: f fires (die 1: no effect) and counts.
    sc = tiny(unit("a", "AL", "inf", "0101"), unit("p", "AL", "inf", "0606", arrives=2, by_air=True),
              unit("f", "GE", "hflak", "0608"))
    st = V3.initial_state(sc, {})
    bomb = air_sheet({"mission": "bombing", "squadrons": 2, "target": "0608"})
    _, events = play(V3, sc, st, Dice(5, 1, 2), bomb)
    drop = of_kind(events, "drop")[0]
    assert (drop["flak"], drop["result"]) == (False, "status loss, recovered later")
    assert "flak_dice" not in drop
    _, events = play(V2, sc, st, Dice(5, 1, 2, 1), bomb)
    drop = of_kind(events, "drop")[0]
    assert (drop["flak"], drop["result"], drop["flak_dice"]) == (True, "permanent status loss", [1])


# -- [12d] a failed recce reads the same whether the hex is empty or not --------------------------------


def test_12d_recce_with_nothing_to_report_reads_alike_empty_or_not() -> None:
    # The whole 8x8 map lies within the 15 km of a recce's air zone. Infantry in woods (cover:
    # ignored, no die), no enemy at all (a second unit of ours), and a die of 1 on stationary tanks in the open: all three
    # "no report".
    woods = {"woods": ["0606"]}
    cases = (((unit("d", "GE", "inf", "0606"),), woods, ()),
             ((unit("b", "AL", "inf", "0102"),), {}, ()),
             ((unit("t", "GE", "tank", "0808"),), {}, (1,)))
    heard = []
    for enemy, terrain, dice in cases:
        sc = tiny(unit("a", "AL", "inf", "0101"), *enemy, terrain=terrain)
        new, _ = play(V3, sc, V3.initial_state(sc, {}), Dice(*dice),
                      air_sheet({"mission": "recce", "squadrons": 1, "target": "0404"}))
        heard.append(new.intel["AL"][0])
    assert heard == ["air recce over the zone around 0404 (2 km from Dorp): no report"] * 3
    sc = tiny(unit("a", "AL", "inf", "0101"), unit("d", "GE", "inf", "0606"))
    old, _ = play(V2, sc, V2.initial_state(sc, {}), Dice(6), air_sheet({"mission": "recce", "squadrons": 1,
                                                                        "target": "0404"}))
    assert old.intel["AL"] == ["air recce over 0404 (2 km from Dorp): no enemy seen"]


# -- [10 ELETIS] -------------------------------------------------------------------------------------------


def _prepared(st: MegaState, *uids: str) -> MegaState:
    return st.replace(units={k: UnitState(**{**v.to_json(), "prepared": k in uids})
                                           for k, v in st.units.items()})


def test_10_eletis_type_tanks_and_artillery_that_drove_a_unit_back_are_named() -> None:
    # t (tanks, 5) and a (6) attack d (weak, 4) at 0303 from 0302 and 0402, prepared, the guns (4)
    # at 0301 in range: at least 15 against 4, +11; die 1: 12 or more, a Total Success; d retires
    # 2d6 km (3 + 3) away from them, out of contact. It fought 11 status of the enemy: "about four
    # battalions" [10, a third of the status], with tanks and artillery.
    sc = tiny(unit("t", "AL", "tank", "0302"), unit("a", "AL", "inf", "0402"), unit("g", "AL", "guns", "0301"),
              unit("d", "GE", "weak", "0303"), supply=10)
    st = _prepared(V3.initial_state(sc, {}), "t", "a")
    attack = sheet("AL", {"units": ["t", "a"], "intention": "attack", "objective": "0303"})
    for rules in (V3, V2):
        new, events = play(rules, sc, st, Dice(1, 3, 3), attack)
        fight = of_kind(events, "combat")[0]
        assert (fight["artillery"], fight["band"]) == (["g"], "total success")
        d = new.units["d"].hex
        assert d is not None and all(Hex.parse(d).distance(Hex.parse(str(new.units[x].hex))) > 1 for x in "ta")
        text = report_of(sc, new, "GE", "d")
        if rules is V3:
            assert "Enemy: about four battalions, with tanks and artillery." in text
        else:
            assert "tanks" not in text and "artillery" not in text


def test_10_eletis_supply_lost_to_the_enemy_s_success_is_supply_used() -> None:
    # a1 and a2 (6 each, prepared) against d (inf, 6): +6; die 4: 10, a Success: the loser loses
    # 1 supply point a unit [results table]; d retires 1d6 (die 1) km. Its report: one point used.
    sc = tiny(unit("a1", "AL", "inf", "0303"), unit("a2", "AL", "inf", "0404"), unit("d", "GE", "inf", "0304"),
              supply=10)
    st = _prepared(V3.initial_state(sc, {}), "a1", "a2")
    attack = sheet("AL", {"units": ["a1", "a2"], "intention": "attack", "objective": "0304"})
    for rules, used in ((V3, "one supply point"), (V2, "no supply")):
        new, events = play(rules, sc, st, Dice(4, 1), attack)
        assert of_kind(events, "combat")[0]["band"] == "success"
        assert new.supply["GE"] == 9
        assert f"Supply: used {used} this turn." in report_of(sc, new, "GE", "d")


def test_12a_drops_may_not_be_made_into_woods_or_built_up_areas() -> None:
    # "Drops may not be made into woods or built up areas": p (by air) at a woods hex, q at a town
    # hex, r at clear ground, s (by road) in the woods: p and q are refused; version 2 took them.
    units = [unit("p", "AL", "inf", "0505", arrives=2, by_air=True),
             unit("q", "AL", "inf", "0606", arrives=2, by_air=True),
             unit("r", "AL", "inf", "0707", arrives=2, by_air=True),
             unit("s", "AL", "inf", "0506"), unit("d", "GE", "weak", "0101")]
    data = tiny(*units).to_json()
    data["map"]["terrain"] = {"woods": ["0505", "0506"], "town": ["0606"]}
    problems = [p for p in V3.scenario_problems(data) if "[12a]" in p]
    assert problems == ["unit p: its drop zone 0505 is woods; drops may not be made into woods or built up areas "
                        "[12a]",
                        "unit q: its drop zone 0606 is town; drops may not be made into woods or built up areas "
                        "[12a]"]
    assert V2.scenario_problems(data) == []


def test_10_eletis_type_air_power_that_threw_an_attack_back_is_named_to_the_attackers() -> None:
    # AL's cab rank of 4 Europe-based squadrons (turn 1) is on call on turn 2: 2 squadrons' worth,
    # Allied ground attack "superior" (+6), in b's defence [9]. e (6, prepared) attacks b (6): 6
    # against 6 + 6, -6; die 3: -3, less than -1, attackers badly beaten, e thrown back 1 km, out
    # of contact. e fought 6 status: "about two battalions", with air attack; version 2 told e of
    # neither (no enemy next to it at the end, and air named only to defenders).
    sc = tiny(unit("b", "AL", "inf", "0606"), unit("e", "GE", "inf", "0607"))
    cab = OrderSheet.parse({"team": "AL", "side": "allied", "turn": 1, "lines": [],
                                     "air_orders": [{"mission": "cab-rank", "squadrons": 4}]})
    attack = sheet("GE", {"units": ["e"], "intention": "attack", "objective": "0606"}, turn=2)
    for rules in (V3, V2):
        t2, _ = play(rules, sc, rules.initial_state(sc, {}), Dice(), cab)
        t3, events = play(rules, sc, _prepared(t2, "e"), Dice(3), sheet("AL", turn=2), attack)
        fight = of_kind(events, "combat")[0]
        assert (fight["defender_air"], fight["band"]) == ("superior", "attackers badly beaten")
        assert t3.units["e"].hex is not None and Hex.parse(t3.units["e"].hex).distance(Hex.parse("0606")) > 1
        text = report_of(sc, t3, "GE", "e")
        if rules is V3:
            assert "Enemy: about two battalions, with air attack." in text
        else:
            assert "Enemy:" not in text and "air attack" not in text
