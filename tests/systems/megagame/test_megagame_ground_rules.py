"""Rules version 3's ground rules of the megagame (issue 25, seed 004), each with chosen dice and
values worked out from the text, and each beside the result rules version 2 keeps (the frozen games
of tests/compat/ play version 2): the infantry row of the movement table [6], a bridge safe once
tested and crossed [8], beaten attackers back to their start line [9], retreats straight back
[9 note 1], the non-tactical -2 for units that moved [9], support units [9 Unit Status], spent units
retreating [9 Supplies], no counter-attack after a Total Success [9], artillery allocated to a
defence [9 Supporting Artillery].

The tiny map of :mod:`test_megagame_rules`: columns and rows 1-8, odd columns high; 0303 touches
0302 (north), 0304 (south), 0202, 0203, 0402 and 0403.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.systems.megagame import combat as cbt
from pbem.systems.megagame.model import MegaScenario, MegaState, UnitState
from pbem.systems.megagame.orders import OrderLine
from pbem.systems.megagame.rules import MegagameRules
from systems.megagame.test_megagame_rules import (
    R2,
    TYPES,
    Dice,
    R,
    play,
    prepared,
    scenario,
    sheet,
    unit,
)


def _steps(st: MegaState, **steps: int) -> MegaState:
    return st.replace(units={k: (UnitState(**{**v.to_json(), "steps": steps[k]}) if k in steps else v)
                                           for k, v in st.units.items()})


def _combat(events: list[Any]) -> dict[str, Any]:
    return next(e for e in events if e["kind"] == "combat")


# -- [6] the movement table -----------------------------------------------------------------------

SNAKE = ["0102", "0103", "0104", "0105", "0106", "0107", "0108", "0208", "0207", "0206", "0205", "0204", "0203",
         "0202", "0201", "0301"]
"""From 0101: 16 hexes, each next to the one before (0108-0208 and 0201-0301 touch)."""


def test_6_infantry_moves_15_km_tactical_the_horse_drawn_row() -> None:
    # "Horse drawn All terrain 15 25 30 Possible" / "Infantry &" / "Paras.": one row -> 15 km tactical
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0808")])
    st = R.initial_state(sc, {})
    too_far = sheet("AL", {"units": ["a"], "intention": "move", "route": SNAKE})
    v = R.validate(sc, st, "AL", too_far)
    assert [x.rule for x in v] == ["6"] and "at most 15 km tactical" in v[0].message
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "move", "route": SNAKE[:15]}))
    assert new.units["a"].hex == "0201" and events[0]["path"][-1] == "0201"


def test_6_version_2_keeps_the_8_km_infantry_row() -> None:
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0808")])
    st = R2.initial_state(sc, {})
    v = R2.validate(sc, st, "AL", sheet("AL", {"units": ["a"], "intention": "move", "route": SNAKE[:9]}))
    assert [x.rule for x in v] == ["6"] and "at most 8 km tactical" in v[0].message
    assert R2.validate(sc, st, "AL", sheet("AL", {"units": ["a"], "intention": "move", "route": SNAKE[:8]})) == []


def test_6_half_the_move_is_7_5_km_before_an_attack() -> None:
    # 15 km tactical: a unit that moved 8 km may not fight (more than half); one that moved 7 km may.
    # 0208 touches 0308; 0207 touches 0307; no hex before them on the way touches the enemy.
    eight = SNAKE[:7] + ["0208"]
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0308")])
    new, events = play(sc, R.initial_state(sc, {}), Dice(),
                       sheet("AL", {"units": ["a"], "intention": "attack", "route": eight}))
    assert new.units["a"].hex == "0208" and not any(e["kind"] == "combat" for e in events)
    assert "did not attack: it moved 8 km, more than half its move, and had no time left to attack [6]" \
        in new.facts["a"].events
    seven = SNAKE[:6] + ["0207"]
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0307")])
    # unprepared: 6 - 2 = 4 against 4, die 2 -> 2, confused combat
    _, events = play(sc, R.initial_state(sc, {}), Dice(2),
                     sheet("AL", {"units": ["a"], "intention": "attack", "route": seven}))
    assert (_combat(events)["attacker_score"], _combat(events)["result"]) == (4, 2)


# -- [8] blowing bridges --------------------------------------------------------------------------

BRIDGE = [{"kind": "canal", "name": "Kanaal", "hexsides": ["0303/0304"]},
          {"kind": "bridge", "name": "Brug", "hexsides": ["0303/0304"]}]


def _bridge_fight(rules: MegagameRules, *dice: int) -> tuple[MegaScenario, MegaState, list[Any]]:
    # a (inf 6, prepared) attacks d (weak 4) over the bridge: 6 - 4 + 6 = 8, a Success; d retires
    # 1d6 = 1 km straight back to 0302; the bridge is tested (die 2: it holds); a takes 0303, over it.
    sc = scenario([unit("a", "AL", "inf", "0304"), unit("d", "GE", "weak", "0303")], lines=BRIDGE)
    st = prepared(rules.initial_state(sc, {}), "a")
    new, events = play(sc, st, Dice(*dice), sheet("AL", {"units": ["a"], "intention": "attack"}), rules=rules)
    return sc, new, events


def test_8_a_bridge_tested_and_crossed_by_an_allied_unit_is_safe() -> None:
    sc, t2, events = _bridge_fight(R, 6, 1, 2)
    assert _combat(events)["band"] == "success"
    assert {"kind": "bridge", "bridge": "Brug", "die": 2, "blown": False} in events
    assert (t2.units["a"].hex, t2.units["d"].hex, t2.safe, t2.tested, t2.blown) == ("0303", "0302", ["Brug"], [], [])
    # d (3 left) counter-attacks 0303 next to the bridge: one die, the combat's; no second test
    t3, events = play(sc, t2, Dice(6), sheet("GE", {"units": ["d"], "intention": "attack"}, turn=2))
    assert _combat(events)["attackers"] == ["d"]
    assert not any(e["kind"] == "bridge" for e in events) and t3.safe == ["Brug"]


def test_8_a_bridge_tested_that_no_allied_unit_crossed_is_tested_again() -> None:
    # a attacks d over the bridge and does not take the hex (confused combat: 6 - 4 + 1 = 3)
    sc = scenario([unit("a", "AL", "inf", "0304"), unit("d", "GE", "weak", "0303")], lines=BRIDGE)
    st = prepared(R.initial_state(sc, {}), "a")
    t2, events = play(sc, st, Dice(1, 2), sheet("AL", {"units": ["a"], "intention": "attack"}))
    assert (t2.tested, t2.safe) == (["Brug"], [])
    _, events = play(sc, prepared(t2, "a"), Dice(1, 3), sheet("AL", {"units": ["a"], "intention": "attack"}, turn=2))
    assert {"kind": "bridge", "bridge": "Brug", "die": 3, "blown": False} in events


def test_8_version_2_tests_the_bridge_again_and_keeps_its_state_keys() -> None:
    sc, t2, _ = _bridge_fight(R2, 6, 1, 2)
    assert "safe" not in R2.dump_state(sc, t2) and "tested" not in R2.dump_state(sc, t2)
    _, events = play(sc, t2, Dice(6, 4), sheet("GE", {"units": ["d"], "intention": "attack"}, turn=2), rules=R2)
    assert {"kind": "bridge", "bridge": "Brug", "die": 4, "blown": False} in events


# -- [9] attackers badly beaten -------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "back_to"), [(R, "0301"), (R2, "0202")], ids=["version-3", "version-2"])
def test_9_attackers_badly_beaten_go_back_to_their_start_line(rules: MegagameRules, back_to: str) -> None:
    # a (weak 4) moves 2 km, 0301 -> 0303, and attacks d (inf 6) unprepared: 4 - 2 - 6 + 1 = -3, badly
    # beaten: "thrown back to start line or at least 1 km whichever is greater" -> 0301, 2 km
    # (version 2: 1 km, to the lowest of 0302, 0202 and 0402, each 2 km from d: 0202)
    sc = scenario([unit("a", "AL", "weak", "0301"), unit("d", "GE", "inf", "0304")])
    new, events = play(sc, rules.initial_state(sc, {}), Dice(1),
                       sheet("AL", {"units": ["a"], "intention": "attack", "route": ["0302", "0303"]}), rules=rules)
    assert (_combat(events)["result"], _combat(events)["band"]) == (-3, "attackers badly beaten")
    assert new.units["a"].hex == back_to and new.units["a"].steps == 1 and new.units["d"].hex == "0304"


def test_9_attackers_badly_beaten_from_where_they_stood_go_back_at_least_1_km() -> None:
    # a (weak, 2 steps lost: status 2, prepared) attacks d (inf 6) from 0302: 2 - 6 + 1 = -3; its start
    # line is where it is: 1 km straight back from 0303, to 0301
    sc = scenario([unit("a", "AL", "weak", "0302"), unit("d", "GE", "inf", "0303")])
    st = _steps(prepared(R.initial_state(sc, {}), "a"), a=2)
    new, events = play(sc, st, Dice(1), sheet("AL", {"units": ["a"], "intention": "attack"}))
    assert _combat(events)["result"] == -3 and new.units["a"].hex == "0301"


# -- [9 note 1] straight back ---------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "path"), [(R, ("0304", "0305")), (R2, ("0203", "0104"))],
                         ids=["version-3", "version-2"])
def test_9_note_1_a_defender_retires_straight_back(rules: MegagameRules, path: tuple[str, str]) -> None:
    # a (inf 6, prepared) at 0302 attacks d (weak 4) at 0303 from the north: 6 - 4 + 3 = 5, Limited
    # Success, 2 km. Straight back is due south: 0304, 0305. (Version 2 broke the tie between 0304,
    # 0203 and 0403 -- each 2 km from a -- by the lowest hex, 0203, then between 0104 and 0204, 0104.)
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    new, events = play(sc, prepared(rules.initial_state(sc, {}), "a"), Dice(3),
                       sheet("AL", {"units": ["a"], "intention": "attack"}), rules=rules)
    assert _combat(events)["band"] == "limited success"
    assert new.units["d"].hex == path[1]
    assert f"fell back 2 km to {path[1]}" in " ".join(new.facts["d"].events)


# -- [9] moving non-tactically --------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "defender", "band"), [(R, 4, "confused combat"), (R2, 2, "limited success")],
                         ids=["version-3", "version-2"])
def test_9_the_non_tactical_minus_2_only_for_units_that_moved(rules: MegagameRules, defender: int,
                                                              band: str) -> None:
    # a (inf 6, prepared) moves 1 km non-tactically and attacks: 6 - 2 = 4; d (weak 4) holds in a
    # non-tactical posture without moving: 4 (version 2: 4 - 2 = 2). Die 3: 4 - 4 + 3 = 3.
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("d", "GE", "weak", "0303")])
    st = prepared(rules.initial_state(sc, {}), "a")
    _, events = play(sc, st, Dice(3),
                     sheet("AL", {"units": ["a"], "intention": "attack", "posture": "non-tactical", "route": ["0302"]}),
                     sheet("GE", {"units": ["d"], "intention": "hold", "posture": "non-tactical"}), rules=rules)
    c = _combat(events)
    assert (c["attacker_score"], c["defender_score"], c["band"]) == (4, defender, band)
    assert "-2: moving non-tactically" in c["attacker_lines"]


# -- [9 Unit Status] support units ----------------------------------------------------------------

SUPPORT = {**TYPES, "atb": {"profile": "[2-1-0]", "kind": "antitank", "troops": "infantry", "size": 1}}


@pytest.mark.parametrize(("rules", "d_steps", "defender"), [(R, 0, 6), (R, 3, 1), (R2, 3, 3)],
                         ids=["beside-status-4", "beside-status-1", "version-2"])
def test_9_a_support_unit_counts_only_beside_a_unit_of_at_least_its_status(
        rules: MegagameRules, d_steps: int, defender: int) -> None:
    # b ([2-1-0], status 2) defends 0303 with d (weak 4-3-2-1-0): beside d at 4 it counts, 4 + 2 = 6;
    # beside d at 1 (3 steps lost) it does not: 1 (version 2: 1 + 2 = 3). g (inf 6) attacks, prepared.
    sc = scenario([unit("g", "GE", "inf", "0302"), unit("d", "AL", "weak", "0303"), unit("b", "AL", "atb", "0303")],
                  types=SUPPORT)
    st = _steps(prepared(rules.initial_state(sc, {}), "g"), d=d_steps)
    _, events = play(sc, st, Dice(1), sheet("GE", {"units": ["g"], "intention": "attack"}), rules=rules)
    c = _combat(events)
    assert (c["attacker_score"], c["defender_score"], c["result"]) == (6, defender, 6 - defender + 1)


def test_9_two_support_units_alone_count_nothing() -> None:
    # the reading: "another unit of at least equal status" is one that is not support-only itself
    two = (cbt.CombatUnit("b1", cbt.Profile.parse("[2-1-0]"), kind="antitank"),
           cbt.CombatUnit("b2", cbt.Profile.parse("[3-2-0]"), kind="antitank"))
    other = cbt.CombatSide(units=(cbt.CombatUnit("g", cbt.Profile.parse("6-5-0")),))
    assert cbt.score(cbt.CombatSide(units=two), other, attacking=False).value == 0
    assert cbt.score(cbt.CombatSide(units=two), other, attacking=False, support_rule=False).value == 5
    assert cbt.supported((*two, cbt.CombatUnit("i", cbt.Profile.parse("3-2-0")))) == list(two)  # 3 >= 2 and 3


# -- [9 Supplies] a unit below status 1 ------------------------------------------------------------


def test_9_supplies_a_spent_unit_with_a_way_back_retreats_and_is_not_captured() -> None:
    # d has no status left (4 steps of 4-3-2-1-0): no fight and no die; it falls back 1 km straight
    # back from a, to 0304, and a takes 0303
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = _steps(R.initial_state(sc, {}), d=4)
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "attack"}))
    assert {"kind": "fell-back", "at": "0303", "units": {"d": "0304"}} in events
    assert not any(e["kind"] in ("captured", "combat") for e in events)
    assert (new.units["d"].hex, new.units["d"].gone, new.units["a"].hex) == ("0304", False, "0303")
    assert new.supply["AL"] == 5 - 1  # the attack was paid for


def test_9_supplies_a_spent_unit_that_cannot_retreat_is_captured() -> None:
    # d at 0308, on the map's south edge, attacked from 0307, 0207 and 0407: 0208 and 0408 are as
    # near the attackers as 0308 is, 0309 is off the map -- no way back: captured
    sc = scenario([unit("a1", "AL", "inf", "0307"), unit("a2", "AL", "inf", "0207"), unit("a3", "AL", "inf", "0407"),
                   unit("d", "GE", "weak", "0308")])
    st = _steps(R.initial_state(sc, {}), d=4)
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a1", "a2", "a3"], "intention": "attack"}))
    assert {"kind": "captured", "at": "0308", "units": ["d"]} in events
    assert new.units["d"].gone and new.units["a1"].hex == "0308"


# -- [9 results] no counter-attack after a Total Success ------------------------------------------


def _routed(rules: MegagameRules) -> tuple[MegaScenario, MegaState]:
    # a1 and a2 (inf 6 each, prepared) attack d (weak 4), which stands fast: 12 - 4 + 4 = 12, a Total
    # Success; d holds at all costs (2 + 1 steps lost: status 1) and stays next to a1
    sc = scenario([unit("a1", "AL", "inf", "0302"), unit("a2", "AL", "inf", "0402"), unit("d", "GE", "weak", "0303")])
    st = prepared(rules.initial_state(sc, {}), "a1", "a2")
    t2, events = play(sc, st, Dice(4), sheet("AL", {"units": ["a1", "a2"], "intention": "attack"}),
                      sheet("GE", {"units": ["d"], "intention": "hold", "stand_fast": True}), rules=rules)
    assert _combat(events)["band"] == "total success" and t2.units["d"].hex == "0303"
    return sc, t2


def test_9_results_no_counter_attack_the_turn_after_a_total_success() -> None:
    sc, t2 = _routed(R)
    assert t2.routed == ["d"]
    attack = sheet("GE", {"units": ["d"], "intention": "attack", "objective": "0302"}, turn=2)
    t3, events = play(sc, t2, Dice(), attack)
    assert not any(e["kind"] == "combat" for e in events)
    assert "did not attack: routed by the enemy's Total Success last turn, it may not counter-attack this turn [9]" \
        in t3.facts["d"].events
    assert t3.routed == []  # the turn after next it may attack again
    _, events = play(sc, t3, Dice(6), sheet("GE", {"units": ["d"], "intention": "attack", "objective": "0302"},
                                             turn=3))
    assert _combat(events)["attackers"] == ["d"]


def test_9_results_version_2_lets_the_routed_unit_attack_the_next_turn() -> None:
    sc, t2 = _routed(R2)
    assert "routed" not in R2.dump_state(sc, t2)
    _, events = play(sc, t2, Dice(6), sheet("GE", {"units": ["d"], "intention": "attack", "objective": "0302"},
                                             turn=2), rules=R2)
    assert _combat(events)["attackers"] == ["d"]


# -- [9 Supporting Artillery] allocated to the defence --------------------------------------------


@pytest.mark.parametrize(("rules", "defend", "artillery", "defender"), [
    (R, ["0303"], ["g"], 8), (R, ["0304"], [], 4), (R, [], [], 4), (R2, [], ["g"], 8)],
    ids=["allocated-here", "allocated-elsewhere", "not-allocated", "version-2"])
def test_9_only_artillery_allocated_to_the_defence_counts_in_it(rules: MegagameRules, defend: list[str],
                                                                  artillery: list[str], defender: int) -> None:
    # a (inf 6, prepared) attacks d (weak 4); g (German field guns [4-3-2-1-0], 3 km away, in range)
    # counts 4 for the defence only where its line allocates it to 0303 (version 2: always)
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303"), unit("g", "GE", "guns", "0306")])
    st = prepared(rules.initial_state(sc, {}), "a")
    ge = sheet("GE", {"units": ["g"], "intention": "hold", **({"defend": defend} if defend else {})})
    new, events = play(sc, st, Dice(3), sheet("AL", {"units": ["a"], "intention": "attack"}), ge, rules=rules)
    c = _combat(events)
    assert (c["artillery"], c["defender_score"], c["result"]) == (artillery, defender, 6 - defender + 3)
    assert new.facts["g"].supply_used == (1 if artillery else 0)  # its ammunition [9]


def test_9_artillery_allocated_to_a_defence_supports_no_attack() -> None:
    # c (AL guns, 4) is kept for the defence of 0302: a's attack on 0303 counts 6, not 10
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("c", "AL", "guns", "0305"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    al = sheet("AL", {"units": ["a"], "intention": "attack"}, {"units": ["c"], "intention": "hold", "defend": ["0302"]})
    _, events = play(sc, st, Dice(3), al)
    assert (_combat(events)["artillery"], _combat(events)["attacker_score"]) == ([], 6)
    _, events = play(sc, st, Dice(3, 2), al, rules=R2)  # version 2 ignores the allocation: 10 - 4 + 3, a Success
    assert (_combat(events)["artillery"], _combat(events)["attacker_score"]) == (["c"], 10)


def test_9_the_sheet_allocates_artillery_to_a_defence_in_text_and_json() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("c", "AL", "guns", "0305"), unit("d", "GE", "weak", "0308")])
    st = R.initial_state(sc, {})
    doc = R.presenter().parse_text_orders(sc, R.skeleton(sc, st, "AL"), "AL", "c: hold, defend 0302 0303\n")
    assert doc["lines"] == [{"units": ["c"], "intention": "hold", "defend": ["0302", "0303"]}]
    assert R.validate(sc, st, "AL", R.load_orders(sc, doc)) == []
    assert "c: hold, in the defence of 0302 0303 [9], tactical, whole turn [5]" in R.presenter().describe_orders(sc, doc)
    # an old sheet (no defend) dumps as it always did; the key is written only when used
    assert "defend" not in OrderLine(units=["a"], intention="hold").to_json()
    bad = [({"units": ["a"], "intention": "hold", "defend": ["0302"]}, "only artillery"),
           ({"units": ["c"], "intention": "hold", "defend": ["0909"]}, "hexes of the map"),
           ({"units": ["c"], "intention": "hold", "defend": ["0302"], "counter_battery": True}, "counter-battery")]
    for line, words in bad:
        v = R.validate(sc, st, "AL", sheet("AL", line))
        assert [x.rule for x in v] == ["9"] and words in v[0].message, v
