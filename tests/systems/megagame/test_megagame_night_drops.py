"""Night drops (seed 004 [12], "Night Drops" and "Movement after landing"): a team orders its
airborne lift to drop by night with a line of its own on the sheet of the turn before the lift is
due ('move' with timing 'night'); the drop then uses the night table (a loss on a 1 or 2, for good
on a second 1 or 2, -1 on both dice for flak and for the enemy on the drop zone, enemy fighters do
not count), scattered men come in after 1d6 turns, and movement after landing follows the time of
the drop: half a move after a morning night drop, none after an afternoon one. Tiny invented
scenarios of tests/systems/megagame/test_megagame_rules.py; expected values by hand in the comments.

Turns of the tiny scenario: 1 is the morning of the 17th, 2 its afternoon, 3 the morning of the
18th.
"""

from __future__ import annotations

import pytest

from pbem.systems.megagame.model import MegaScenario, TeamView
from pbem.systems.megagame.orders import OrderSheet
from pbem.systems.megagame.rules import MegagameRules
from pbem.systems.megagame.view import team_view
from systems.megagame.test_megagame_rules import AIR, R2, Dice, R, play, scenario, sheet, unit

NIGHT = {"units": ["p"], "intention": "move", "timing": "night"}


def lift(arrives: int = 2, enemy_hex: str = "0101", **extra: object) -> MegaScenario:
    return scenario([unit("p", "AL", "inf", "0606", arrives=arrives, by_air=True), unit("d", "GE", "weak", enemy_hex)],
                    air=AIR, **extra)


def test_12_a_night_drop_is_ordered_the_turn_before_and_uses_the_night_table() -> None:
    # p is due on turn 2. Ordered by night on turn 1's sheet: dice 2, 3 -- a 2 is a loss by night
    # (by day only a 1 is), the second die 3 is not a 1 or 2: scattered, not lost for good; the
    # stragglers' die 1: they come in at the end of turn 2, as by day.
    sc = lift()
    st = R.initial_state(sc, {})
    t2, events = play(sc, st, Dice(2, 3, 1), sheet("AL", NIGHT))
    drop = next(e for e in events if e["kind"] == "drop")
    assert (drop["result"], drop.get("night"), drop["stragglers_die"]) == ("status loss, recovered later", True, 1)
    assert (t2.units["p"].hex, t2.units["p"].steps, t2.units["p"].scattered) == ("0606", 1, 1)
    assert t2.night_drops == ["p"] and t2.stragglers == {"p": 2}
    assert "dropped by night and landed scattered" in t2.facts["p"].events
    assert R.describe_event(sc, drop) == ("p drops by night (dice 2, 3): status loss, recovered later, the "
                                          "scattered men back after 1 turn [12]")
    t3, _ = play(sc, t2, Dice(), sheet("AL", turn=2), sheet("GE", turn=2))
    assert (t3.units["p"].steps, t3.units["p"].scattered, t3.stragglers, t3.night_drops) == (0, 0, {}, [])
    # the same dice by day: a 2 is no loss
    t2, events = play(sc, st, Dice(2, 3))
    drop = next(e for e in events if e["kind"] == "drop")
    assert drop["result"] == "intact" and "night" not in drop and t2.night_drops == []


def test_12_night_drop_permanent_loss_on_a_second_1_or_2() -> None:
    sc = lift()
    t2, events = play(sc, R.initial_state(sc, {}), Dice(1, 2), sheet("AL", NIGHT))
    assert next(e for e in events if e["kind"] == "drop")["result"] == "permanent status loss"
    assert (t2.units["p"].steps, t2.units["p"].scattered, t2.stragglers) == (1, 0, {})


def test_12_night_drop_stragglers_come_in_after_1d6_turns() -> None:
    # stragglers' die 2: the turn of the drop (2) and one more: they come in at the end of turn 3.
    sc = scenario([unit("p", "AL", "inf", "0606", arrives=2, by_air=True), unit("d", "GE", "weak", "0101")],
                  air=AIR, turns=5)
    t2, _ = play(sc, R.initial_state(sc, {}), Dice(1, 6, 2), sheet("AL", NIGHT))
    assert t2.stragglers == {"p": 3} and t2.units["p"].steps == 1
    t3, _ = play(sc, t2, Dice(), sheet("AL", turn=2), sheet("GE", turn=2))
    assert (t3.units["p"].steps, t3.units["p"].scattered) == (1, 1)  # still out at the end of turn 2
    t4, _ = play(sc, t3, Dice(), sheet("AL", turn=3), sheet("GE", turn=3))
    assert (t4.units["p"].steps, t4.units["p"].scattered, t4.stragglers) == (0, 0, {})
    assert "its scattered men have come in" in t4.facts["p"].events


def test_12_night_drop_minus_one_for_the_enemy_on_the_dz_and_enemy_fighters_do_not_count() -> None:
    # d stands 1 km from the drop zone: the enemy on the DZ, -1 on both dice by night. Dice 3, 3:
    # 3 - 1 = 2, a loss; 3 - 1 = 2, for good. Dice 4, 6: 4 - 1 = 3, no loss.
    sc = lift(enemy_hex="0607")
    st = R.initial_state(sc, {})
    _, events = play(sc, st, Dice(3, 3), sheet("AL", NIGHT))
    drop = next(e for e in events if e["kind"] == "drop")
    assert (drop["enemy_on_dz"], drop["result"]) == (True, "permanent status loss")
    _, events = play(sc, st, Dice(4, 6), sheet("AL", NIGHT))
    assert next(e for e in events if e["kind"] == "drop")["result"] == "intact"
    # German fighters over the battle (on escort: they do not go for the transport stream): by day
    # -2 on the first die (3 - 2 = 1, a loss); by night they do not count (3: no loss).
    jg = {"id": "jg", "name": "Jagdgeschwader", "side": "german", "role": "fighter", "squadrons": 1,
          "region": "germany"}
    sc = scenario([unit("p", "AL", "inf", "0606", arrives=2, by_air=True), unit("d", "GE", "weak", "0101")],
                  air=[*AIR, jg])
    st = R.initial_state(sc, {})
    cover = OrderSheet.parse({"team": "GE", "side": "german", "turn": 1, "lines": [],
                                       "air_orders": [{"mission": "escort", "squadrons": 1}]})
    _, events = play(sc, st, Dice(3, 6), cover)
    drop = next(e for e in events if e["kind"] == "drop")
    assert (drop["fighters"], drop["result"]) == (True, "status loss, recovered later")
    _, events = play(sc, st, Dice(3, 6), cover, sheet("AL", NIGHT))
    drop = next(e for e in events if e["kind"] == "drop")
    assert (drop["fighters"], drop["result"]) == (True, "intact")


@pytest.mark.parametrize("rules,half,allowed", [(R, "7.5", 7), (R2, "4", 4)], ids=["version-3", "version-2"])
def test_12_movement_after_an_afternoon_night_drop_is_none_after_a_morning_one_half(
        rules: MegagameRules, half: str, allowed: int) -> None:
    # p drops by night on turn 2 (an afternoon): no movement. q drops by night on turn 3 (a
    # morning): half of the infantry's 15 km tactical in the open [6], 7.5 km (rules version 2: of 8, 4 km).
    sc = scenario([unit("p", "AL", "inf", "0606", arrives=2, by_air=True),
                   unit("q", "AL", "inf", "0306", arrives=3, by_air=True), unit("d", "GE", "weak", "0101")], air=AIR)
    t2, _ = play(sc, rules.initial_state(sc, {}), Dice(6, 6), sheet("AL", NIGHT), rules=rules)
    v = rules.validate(sc, t2, "AL", sheet("AL", {"units": ["p"], "intention": "move", "route": ["0605"]}, turn=2))
    assert v and v[0].rule == "12" and "dropped this afternoon by night: no movement" in v[0].message
    # by day an afternoon drop would have had half a move (tests/systems/megagame/test_megagame_rules.py)
    night_q = sheet("AL", {"units": ["q"], "intention": "move", "timing": "night"}, turn=2)
    t3, _ = play(sc, t2, Dice(6, 6), night_q, sheet("GE", turn=2), rules=rules)
    assert t3.night_drops == ["q"] and t3.units["q"].landed
    way = ["0305", "0304", "0303", "0302", "0301", "0401", "0402", "0403"]  # every hex next to the last
    over = way[:allowed + 1]
    v = rules.validate(sc, t3, "AL", sheet("AL", {"units": ["q"], "intention": "move", "route": over}, turn=3))
    assert v and v[0].rule == "12" and f"at most {half} km" in v[0].message
    assert rules.validate(sc, t3, "AL", sheet("AL", {"units": ["q"], "intention": "move", "route": over[:-1]},
                                             turn=3)) == []
    # the team's own view knows the same
    view = TeamView.parse(team_view(sc, t3, "AL"))
    assert view.night_drops == ["q"]
    assert rules.validate(sc, view, "AL", sheet("AL", {"units": ["q"], "intention": "move", "route": over}, turn=3))
    assert TeamView.parse(team_view(sc, t3, "GE")).night_drops == []


def test_12_a_night_drop_line_is_checked() -> None:
    sc = lift(arrives=3)
    st = R.initial_state(sc, {})
    v = R.validate(sc, st, "AL", sheet("AL", NIGHT))  # due on turn 3: ordered on turn 2's sheet
    assert v and v[0].rule == "12" and "due on turn 3" in v[0].message and "sheet of turn 2" in v[0].message
    v = R.validate(sc, st, "AL", sheet("AL", {**NIGHT, "intention": "attack"}))
    assert v and v[0].rule == "12" and "all the line may order" in v[0].message
    v = R.validate(sc, st, "AL", sheet("AL", {"units": ["p"], "intention": "move"}))  # not by night
    assert v and v[0].rule == "5" and "may be given its drop by night" in v[0].message
    sc2 = lift()
    st2 = R.initial_state(sc2, {})
    assert R.validate(sc2, st2, "AL", sheet("AL", NIGHT)) == []
    # a lift that waits for the weather may still be ordered by night, turn after turn
    wx = [{"turn": 2, "england": "none"}]
    sc3 = lift(weather=wx)
    t2, events = play(sc3, R.initial_state(sc3, {}), Dice(), sheet("AL", NIGHT))
    assert t2.units["p"].hex is None and any(e["kind"] == "delayed" for e in events)
    assert R.validate(sc3, t2, "AL", sheet("AL", NIGHT, turn=2)) == []
    t3, events = play(sc3, t2, Dice(6, 6), sheet("AL", NIGHT, turn=2), sheet("GE", turn=2))
    assert next(e for e in events if e["kind"] == "drop").get("night") is True and t3.night_drops == ["p"]


def test_12_the_order_sheet_template_names_the_lift_due_next_turn() -> None:
    sc = lift()
    text = R.presenter().orders_template(sc, R.initial_state(sc, {}), "AL")
    assert "# Due by air next turn, dropping by day unless a line 'p: move, night' orders the drop by night [12]: p" \
        in text
    assert "Due by air" not in R.presenter().orders_template(sc, R.initial_state(sc, {}), "GE")
    st = R.initial_state(sc, {})
    doc = R.presenter().parse_text_orders(sc, R.skeleton(sc, st, "AL"), "AL", "p: move, night\n")
    assert doc["lines"] == [{"units": ["p"], "intention": "move", "timing": "night"}]
    assert R.validate(sc, st, "AL", R.load_orders(sc, doc)) == []


def test_12_gliders_landing_on_polder_lose_a_step_for_good_on_a_1() -> None:
    # p lands by glider on 0606, polder, by day: drop dice 4, 4 (intact), then the glider's die.
    # A 1: a permanent status loss (a step, not scattered); a 2: nothing more. A parachute unit on
    # the same polder rolls no third die; a glider on clear ground neither.
    def landing(glider: bool, terrain: dict[str, list[str]], *dice: int) -> tuple[int, int, dict[str, object]]:
        sc = scenario([unit("p", "AL", "inf", "0606", arrives=2, by_air=True, glider=glider),
                       unit("d", "GE", "weak", "0101")], air=AIR, terrain=terrain)
        t2, events = play(sc, R.initial_state(sc, {}), Dice(*dice))
        drop = next(e for e in events if e["kind"] == "drop")
        return t2.units["p"].steps, t2.units["p"].scattered, drop

    polder = {"polder": ["0606"]}
    steps, scattered, drop = landing(True, polder, 4, 4, 1)
    assert (steps, scattered, drop["result"], drop["glider_die"]) == (1, 0, "intact", 1)
    steps, _, drop = landing(True, polder, 4, 4, 2)
    assert (steps, drop["glider_die"]) == (0, 2)
    steps, _, drop = landing(False, polder, 4, 4, 1)
    assert steps == 0 and "glider_die" not in drop
    steps, _, drop = landing(True, {}, 4, 4, 1)
    assert steps == 0 and "glider_die" not in drop


def test_13_flak_near_the_drop_zone_fires_on_each_serial() -> None:
    # Heavy flak 2 km from the DZ 0606 (column "landing within 2 km": a loss on 5-6, damage on 3-4),
    # light flak 4 km off (column "within 4 km": damage on a 6). p and q drop by day: drop dice 4, 4
    # and 4, 4 with the flak's -2 still intact. p: heavy 5 (loss: a status, and damage), light 1;
    # q: heavy 3 (damage), light 6 (damage). Three damage: one transport squadron lost for good.
    from systems.megagame.test_megagame_rules import TYPES

    types = {**TYPES, "hflak": {"profile": "2-1-0", "kind": "other", "troops": "motor-towed-artillery",
                                "flak": "heavy", "size": 2},
             "lflak": {"profile": "2-1-0", "kind": "other", "troops": "motor-towed-artillery", "flak": "light",
                       "size": 1}}
    air = [*AIR, {"id": "38g", "name": "38 Group", "side": "allied", "role": "transport", "squadrons": 4,
                  "region": "england"},
           {"id": "46g", "name": "46 Group", "side": "allied", "role": "transport", "squadrons": 4,
            "region": "england"}]
    sc = scenario([unit("p", "AL", "inf", "0606", arrives=2, by_air=True),
                   unit("q", "AL", "inf", "0606", arrives=2, by_air=True),
                   unit("h", "GE", "hflak", "0608"), unit("l", "GE", "lflak", "0602")], air=air, types=types)
    st = R.initial_state(sc, {})
    t2, events = play(sc, st, Dice(4, 4, 5, 1, 4, 4, 3, 6))
    drops = {e["unit"]: e for e in events if e["kind"] == "drop"}
    assert drops["p"]["result"] == drops["q"]["result"] == "intact"
    assert drops["p"]["flak_dice"] == [5, 1] and drops["q"]["flak_dice"] == [3, 6]
    assert (t2.units["p"].steps, t2.units["q"].steps) == (1, 0)  # the loss: a status of p's
    assert "flak brought down some of the aircraft carrying it" in " ".join(t2.facts["p"].events)
    assert t2.air_lost == {"38g": 1}  # three damage: one squadron, the rest of it lost with the turn


def test_13_flak_fires_on_each_squadron_of_an_air_resupply() -> None:
    # Two squadrons drop supplies on 0606 with heavy flak 2 km off: one die each (3 and 4: damage
    # on 3-4), then the ready reckoner's die: two damage, one transport squadron lost.
    from systems.megagame.test_megagame_rules import TYPES, air_sheet

    types = {**TYPES, "hflak": {"profile": "2-1-0", "kind": "other", "troops": "motor-towed-artillery",
                                "flak": "heavy", "size": 2}}
    air = [*AIR, {"id": "38g", "name": "38 Group", "side": "allied", "role": "transport", "squadrons": 4,
                  "region": "england"}]
    sc = scenario([unit("a", "AL", "inf", "0605"), unit("h", "GE", "hflak", "0608")], air=air, types=types)
    st = R.initial_state(sc, {})
    t2, events = play(sc, st, Dice(3, 4, 6), air_sheet({"mission": "transport", "squadrons": 2, "target": "0606"}))
    assert any(e["kind"] == "resupply" for e in events)
    assert t2.air_lost == {"38g": 1}


def test_12_fighters_on_air_cover_that_hold_the_sky_turn_back_a_serial_a_squadron() -> None:
    # One German squadron on air cover, no Allied fighters up: it breaks through to the stream and
    # puts one serial out of action: p (first in order) comes a turn later, q drops (dice 6, 6).
    # By night the fighters do not count: both drop.
    jg = {"id": "jg", "name": "Jagdgeschwader", "side": "german", "role": "fighter", "squadrons": 1,
          "region": "germany"}
    sc = scenario([unit("p", "AL", "inf", "0606", arrives=2, by_air=True),
                   unit("q", "AL", "inf", "0607", arrives=2, by_air=True), unit("d", "GE", "weak", "0101")],
                  air=[*AIR, jg])
    st = R.initial_state(sc, {})
    cover = OrderSheet.parse({"team": "GE", "side": "german", "turn": 1, "lines": [],
                                       "air_orders": [{"mission": "air-cover", "squadrons": 1}]})
    t2, events = play(sc, st, Dice(6, 6), cover)
    assert {"kind": "turned-back", "unit": "p", "turn": 2} in events
    assert (t2.units["p"].hex, t2.units["q"].hex) == (None, "0607")
    assert "turned back by enemy fighters" in " ".join(t2.facts["p"].events)
    t3, events = play(sc, t2, Dice(6, 6), sheet("AL", turn=2), sheet("GE", turn=2))
    assert t3.units["p"].hex == "0606"  # the next lift, the sky clear
    night = {"units": ["p", "q"], "intention": "move", "timing": "night"}
    t2, events = play(sc, st, Dice(6, 6, 6, 6), cover, sheet("AL", night))
    assert (t2.units["p"].hex, t2.units["q"].hex) == ("0606", "0607")


def test_12_fighters_on_air_cover_turn_back_squadrons_of_an_air_resupply() -> None:
    from systems.megagame.test_megagame_rules import air_sheet, team_view

    jg = {"id": "jg", "name": "Jagdgeschwader", "side": "german", "role": "fighter", "squadrons": 1,
          "region": "germany"}
    tr = {"id": "38g", "name": "38 Group", "side": "allied", "role": "transport", "squadrons": 4, "region": "england"}
    sc = scenario([unit("a", "AL", "inf", "0605"), unit("d", "GE", "weak", "0101")], air=[*AIR, jg, tr])
    st = R.initial_state(sc, {})
    cover = OrderSheet.parse({"team": "GE", "side": "german", "turn": 1, "lines": [],
                                       "air_orders": [{"mission": "air-cover", "squadrons": 1}]})
    t2, events = play(sc, st, Dice(6), air_sheet({"mission": "transport", "squadrons": 2, "target": "0606"}), cover)
    supply = next(e for e in events if e["kind"] == "resupply")
    from pbem.systems.megagame.air import RESUPPLY_POINTS_PER_SQUADRON

    assert supply["dropped"] == 1 * RESUPPLY_POINTS_PER_SQUADRON  # one squadron of two got through
    assert any("1 of 2 squadrons of supplies turned back" in line for line in team_view(sc, t2, "AL")["air"])
