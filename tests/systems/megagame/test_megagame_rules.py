"""The megagame ruleset (seed 004) on a tiny 1 km map, with hand-computed cases named after the rules'
sections: the order sheet checked [5], movement together a kilometre at a time with contact,
passing distance, water and bridge capacity [6, 7], combat grouped by the engine or by Game Control,
paid in supply, fought with the dice given [9], bridges blowing on a 1 [8], and each team's view in
words, without a status number [10].

Hex geometry used below (columns are odd-high like every pbem map): 0303 touches 0302, 0402, 0403,
0304, 0203 and 0202; 0302 touches 0301, 0401, 0402, 0303, 0202 and 0201.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from pbem.maps.hexmap import Hex
from pbem.systems.megagame.battle import propose
from pbem.systems.megagame.board import Board
from pbem.systems.megagame.model import MegaScenario, MegaState, UnitState
from pbem.systems.megagame.orders import OrderSheet
from pbem.systems.megagame.rules import MegagameRules
from pbem.systems.megagame.view import team_view

R = MegagameRules()
R2 = R.at_version("2")
"""Rules version 2, which the frozen games of tests/compat/ play: its results must not change."""

TYPES: dict[str, Any] = {
    "inf": {"profile": "6-5-4-3-2-1-0", "kind": "infantry", "troops": "infantry", "size": 20},
    "weak": {"profile": "4-3-2-1-0", "kind": "infantry", "troops": "infantry", "size": 20},
    "tank": {"profile": "5-4-3-2-1-0", "kind": "armour", "troops": "tanks", "mechanised": True,
             "armoured": True, "size": 20},
    "hq": {"profile": "(2)-(1)-0", "kind": "hq", "troops": "infantry", "size": 1},
    "guns": {"profile": "[4-3-2-1-0]", "kind": "artillery", "troops": "motor-towed-artillery",
             "artillery": "field", "size": 3},
}


def scenario(units: list[dict[str, Any]], *, lines: list[dict[str, Any]] | None = None,
             terrain: dict[str, list[str]] | None = None, supply: int = 5, **extra: Any) -> MegaScenario:
    data = {
        "id": "tiny", "system": "megagame", "title": "tiny (invented)",
        "map": {"id": "tiny-map", "cols": [1, 8], "rows": [1, 8], "terrain": terrain or {},
                "lines": lines or [], "places": [{"hex": "0303", "name": "Dorp"}]},
        "teams": [{"id": "AL", "side": "allied", "name": "Allies"},
                  {"id": "GE", "side": "german", "name": "Germans"}],
        "types": TYPES, "units": units, "turns": 3,
        "supply": {"AL": supply, "GE": supply},
        "objectives": [{"hex": "0303", "name": "Dorp", "points": 5, "held_by": "german"}],
        **extra,
    }
    return R.load_scenario(data)


def unit(uid: str, team: str, type_: str, hex_: str, **more: Any) -> dict[str, Any]:
    return {"id": uid, "name": uid, "team": team, "type": type_, "formation": f"{team} division",
            "hex": hex_, **more}


def sheet(team: str, *lines: dict[str, Any], turn: int = 1) -> OrderSheet:
    return OrderSheet.parse({"team": team, "side": "allied" if team == "AL" else "german",
                                      "turn": turn, "lines": list(lines)})


class Dice:
    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.labels: list[str] = []

    def d6(self, label: str) -> int:
        self.labels.append(label)
        return self.faces.pop(0)


def prepared(st: MegaState, *uids: str) -> MegaState:
    units = {k: (UnitState(**{**v.to_json(), "prepared": True}) if k in uids else v)
             for k, v in st.units.items()}
    return st.replace(units=units)


def play(sc: MegaScenario, st: MegaState, dice: Dice, *sheets: OrderSheet,
         rulings: dict[str, Any] | None = None, rules: MegagameRules = R) -> tuple[MegaState, list[Any]]:
    by_team = {s.team: s for s in sheets}
    for team in ("AL", "GE"):
        by_team.setdefault(team, sheet(team, turn=st.turn))
        assert rules.validate(sc, st, team, by_team[team]) == []
    res = rules.resolve_round(sc, st, by_team, dice, {}, rules.load_rulings(sc, st, rulings or {}))
    return res.state, res.events


# -- [5] the order sheet ---------------------------------------------------------------------------


def test_5_sheet_for_another_turn_team_or_side_is_refused() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0305")])
    st = R.initial_state(sc, {})
    assert "turn 2" in R.validate(sc, st, "AL", sheet("AL", turn=2))[0].message
    v = R.validate(sc, st, "GE", sheet("AL"))
    assert v and all(x.rule == "5" for x in v)


def test_5_a_unit_ordered_twice_and_an_objective_off_the_map() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0305")])
    st = R.initial_state(sc, {})
    twice = sheet("AL", {"units": ["a"], "intention": "hold"}, {"units": ["a"], "intention": "prepare"})
    assert "already has orders" in R.validate(sc, st, "AL", twice)[0].message
    off = sheet("AL", {"units": ["a"], "intention": "attack", "objective": "0909"})
    assert "[5]" not in R.validate(sc, st, "AL", off)[0].message  # the rule is on the violation
    assert R.validate(sc, st, "AL", off)[0].rule == "5"


def test_5_an_enemy_unit_cannot_be_ordered() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0305")])
    st = R.initial_state(sc, {})
    v = R.validate(sc, st, "AL", sheet("AL", {"units": ["d"], "intention": "hold"}))
    assert v[0].rule == "5" and "not one of AL's units" in v[0].message


# -- [6, 7] movement --------------------------------------------------------------------------------


def test_6_an_attack_moves_on_to_contact_then_attacks_unprepared() -> None:
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("d", "GE", "weak", "0304")])
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(2), sheet("AL", {"units": ["a"], "intention": "attack",
                                                    "route": ["0302", "0303"]}))
    # 0302 is 2 km from 0304 (an attacker moves on); 0303 touches 0304: contact, it stops there.
    assert events[0]["path"] == ["0301", "0302", "0303"]
    assert events[0]["stop"].startswith("in contact with the enemy on reaching 0303")
    # 2 km of an 8 km move (at most half: it may fight [6]); unprepared: 6 - 2 = 4 against 4, die 2.
    combat = next(e for e in events if e["kind"] == "combat")
    assert (combat["attacker_score"], combat["defender_score"], combat["band"]) == (4, 4, "confused combat")
    assert new.units["a"].hex == "0303" and new.units["d"].hex == "0304"


def test_6_a_probe_advances_to_contact_and_does_not_attack() -> None:
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("d", "GE", "weak", "0304")])
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "probe",
                                                    "route": ["0302", "0303"]}))
    assert new.units["a"].hex == "0303" and not any(e["kind"] == "combat" for e in events)


def test_5_10_a_probe_that_meets_the_enemy_identifies_it_in_its_first_turn_of_contact() -> None:
    # identity comes after more than one turn in contact [10], at once for a probe [5]: the
    # probe's facts count two turns, a unit holding in contact for its first turn counts one
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("b", "AL", "inf", "0503"),
                   unit("d", "GE", "weak", "0304"), unit("e", "GE", "weak", "0504")])
    st = R.initial_state(sc, {})
    new, _ = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "probe", "route": ["0302", "0303"]},
                                        {"units": ["b"], "intention": "hold"}))
    assert new.units["a"].hex == "0303" and new.units["b"].hex == "0503"
    assert (new.facts["a"].turns_in_contact, new.facts["b"].turns_in_contact) == (2, 1)


def test_6_move_orders_stop_within_the_passing_distance() -> None:
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("d", "GE", "weak", "0304")])
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "move",
                                                    "route": ["0302", "0303"]}))
    assert new.units["a"].hex == "0302"  # 2 km from the enemy in the open: stopped short
    assert "within 2 km" in events[0]["stop"]


def test_6_passing_distance_is_1_km_in_woods() -> None:
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("d", "GE", "weak", "0304")],
                  terrain={"woods": ["0302"]})
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "move",
                                                    "route": ["0302"]}))
    assert new.units["a"].hex == "0302" and "stop" not in events[0]


def test_6_no_rubbing_past_an_enemy_in_contact() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = R.initial_state(sc, {})
    # 0402 touches 0303 too: sliding along the enemy is refused; 0301 breaks contact and is allowed.
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "move", "route": ["0402"]}))
    assert new.units["a"].hex == "0302" and "break contact" in events[0]["stop"]
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "move", "route": ["0301"]}))
    assert new.units["a"].hex == "0301"


def test_6_tanks_cannot_cross_a_canal_off_a_bridge_infantry_can() -> None:
    canal = [{"kind": "canal", "name": "canal", "hexsides": ["0302/0303"]}]
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("t", "AL", "tank", "0302"),
                   unit("d", "GE", "weak", "0808")], lines=canal)
    st = R.initial_state(sc, {})
    bad = sheet("AL", {"units": ["t"], "intention": "move", "route": ["0303"]})
    assert "cannot cross the canal" in R.validate(sc, st, "AL", bad)[0].message
    new, _ = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "move", "route": ["0303"]}))
    assert new.units["a"].hex == "0303"


def test_7_a_bridge_passes_its_capacity_in_unit_points_and_the_rest_wait() -> None:
    # A rail bridge is light: 25 unit points a phase, 50 a turn; three units of 20 points: two pass.
    water = [{"kind": "canal", "name": "canal", "hexsides": ["0302/0303"]},
             {"kind": "rail-bridge", "name": "rail bridge", "hexsides": ["0302/0303"]}]
    sc = scenario([unit(u, "AL", "inf", "0302") for u in ("a", "b", "c")] + [unit("d", "GE", "weak", "0808")],
                  lines=water)
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a", "b", "c"], "intention": "move",
                                                    "route": ["0303"]}))
    assert [new.units[u].hex for u in "abc"] == ["0303", "0303", "0302"]
    assert "rail bridge is full this turn" in events[2]["stop"]


def test_7_a_town_with_crowds_passes_its_capacity_twice_a_turn_and_the_rest_wait() -> None:
    # Dorp (0303) with cheering crowds: 25 unit points a phase, 50 a turn. Three units of 20
    # points march through it to 0304: a and b pass (40), c (60 > 50) waits in front of it; a unit
    # of 20 that only leaves the town is not counted (it does not go into it).
    sc = scenario([unit(u, "AL", "inf", "0302") for u in ("a", "b", "c")]
                  + [unit("e", "AL", "inf", "0303"), unit("d", "GE", "weak", "0808")],
                  chokes=[{"hex": "0303", "name": "Dorp", "what": "town with crowds", "capacity": 25}])
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a", "b", "c"], "intention": "move",
                                                    "route": ["0303", "0304"]},
                                             {"units": ["e"], "intention": "move", "route": ["0403"]}))
    assert [new.units[u].hex for u in "abce"] == ["0304", "0304", "0302", "0403"]
    stop = next(e for e in events if e.get("unit") == "c")["stop"]
    assert "into Dorp (town with crowds) is full this turn" in stop and stop.endswith("[7]")


def test_7_a_choke_point_off_the_map_is_named() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0808")])
    data = {**sc.to_json(),
            "chokes": [{"hex": "0909", "name": "Nowhere", "what": "main road, single lane", "capacity": 60}]}
    assert "choke point Nowhere: hex 0909 is off the map [7]" in R.scenario_problems(data)


def test_12_air_orders_in_a_scenario_without_air_forces_are_refused() -> None:
    # nothing would fly them: the sheet is refused rather than signed for nothing (a tester's
    # bombing order passed the check and was never flown)
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0808")])
    st = R.initial_state(sc, {})
    sh = OrderSheet.parse({"team": "AL", "side": "allied", "turn": 1, "lines": [],
                                    "air_orders": [{"mission": "bombing", "squadrons": 2, "target": "0808"}]})
    assert [(v.rule, "no air forces" in v.message) for v in R.validate(sc, st, "AL", sh)] == [("12", True)]


# -- [9] combat -------------------------------------------------------------------------------------


def test_9_prepared_attack_limited_success_by_hand() -> None:
    # a: status 6, prepared, open ground, no light infantry -> 6; d: status 4 -> 4.
    # 6 - 4 + die 3 = 5: Limited Success. Each loses a step; d retires 2 km (open) away from a,
    # a takes the hex; the attack costs AL one supply point.
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    dice = Dice(3, 6)
    new, events = play(sc, st, dice, sheet("AL", {"units": ["a"], "intention": "attack"}))
    combat = next(e for e in events if e["kind"] == "combat")
    assert (combat["attacker_score"], combat["defender_score"], combat["die"], combat["result"]) == (6, 4, 3, 5)
    assert combat["band"] == "limited success" and combat["losses"] == {"a": 1, "d": 1}
    assert new.units["a"].steps == 1 and new.units["d"].steps == 1
    assert new.units["a"].hex == "0303"
    assert new.units["d"].hex is not None and new.units["d"].hex != "0303"
    from pbem.maps.hexmap import Hex

    assert Hex.parse(new.units["d"].hex).distance(Hex.parse("0302")) == 3  # 1 + 2 km further away
    assert new.supply["AL"] == 5 - 1 and new.control["0303"] == "allied"
    assert dice.labels[0] == "9 combat at 0303"


def test_9_unprepared_attack_costs_two_a_unit() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = R.initial_state(sc, {})
    _, events = play(sc, st, Dice(3), sheet("AL", {"units": ["a"], "intention": "attack"}))
    combat = next(e for e in events if e["kind"] == "combat")
    assert combat["attacker_score"] == 4 and "-2: unprepared attack" in combat["attacker_lines"]
    assert combat["band"] == "confused combat"  # 4 - 4 + 3 = 3


def test_9_no_supply_no_attack() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")], supply=0)
    st = prepared(R.initial_state(sc, {}), "a")
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "attack"}))
    assert not any(e["kind"] == "combat" for e in events)
    assert "no supply left" in " ".join(new.facts["a"].events)


def test_6_a_unit_that_moved_more_than_half_its_move_cannot_attack_version_2() -> None:
    # Rules version 2: infantry moves 8 km tactically: after 5 km it may not fight this turn (4 is the half).
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0107")])
    st = R2.initial_state(sc, {})
    route = ["0102", "0103", "0104", "0105", "0106"]
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "attack", "route": route}),
                       rules=R2)
    assert new.units["a"].hex == "0106"
    assert not any(e["kind"] == "combat" for e in events)
    # the team hears why, and Game Control's log says it too
    assert "did not attack: it moved 5 km, more than half its move, and had no time left to attack [6]" \
        in new.facts["a"].events
    assert {"kind": "note", "text": "a did not attack: it moved 5 km, more than half its move, and had no "
            "time left to attack [6]"} in events


def test_9_an_attack_that_finds_no_enemy_next_to_it_says_so() -> None:
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0808")])
    new, _ = play(sc, prepared(R.initial_state(sc, {}), "a"), Dice(),
                  sheet("AL", {"units": ["a"], "intention": "attack", "route": ["0102"]}))
    assert "did not attack: no enemy was next to it when the attacks went in [9]" in new.facts["a"].events


def test_9_engine_groups_two_attackers_against_one_hex() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("b", "AL", "inf", "0402"),
                   unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a", "b")
    new, events = play(sc, st, Dice(1, 1), sheet("AL", {"units": ["a", "b"], "intention": "attack"}))
    combats = [e for e in events if e["kind"] == "combat"]
    assert len(combats) == 1 and combats[0]["attackers"] == ["a", "b"]


def test_9_game_control_grouping_replaces_the_proposal_and_cannot_add_a_unit_out_of_contact() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("b", "AL", "inf", "0402"),
                   unit("far", "AL", "inf", "0808"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a", "b", "far")
    rulings = {"groupings": [{"at": "0303", "attackers": ["a", "far"]}]}
    _, events = play(sc, st, Dice(1, 1), sheet("AL", {"units": ["a", "b", "far"], "intention": "attack"}),
                     rulings=rulings)
    combats = [e for e in events if e["kind"] == "combat"]
    assert [c["attackers"] for c in combats] == [["a"]]
    assert any(e["kind"] == "note" and "far" in e["text"] and "[9]" in e["text"] for e in events)


def test_9_game_control_advantage_adds_points_a_unit() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    rulings = {"advantage": [{"at": "0303", "side": "defender", "points": 2, "why": "dug in on the dyke"}]}
    _, events = play(sc, st, Dice(3), sheet("AL", {"units": ["a"], "intention": "attack"}), rulings=rulings)
    combat = next(e for e in events if e["kind"] == "combat")
    assert combat["defender_score"] == 4 + 2


def test_9_artillery_that_did_not_move_supports_within_range_and_pays() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("g", "AL", "guns", "0305"),
                   unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    new, events = play(sc, st, Dice(3, 6), sheet("AL", {"units": ["a"], "intention": "attack"}))
    combat = next(e for e in events if e["kind"] == "combat")
    assert combat["artillery"] == ["g"] and combat["attacker_score"] == 6 + 4
    assert new.supply["AL"] == 5 - 2  # the attack and the guns


def test_9_stand_fast_holds_at_the_cost_of_a_step() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    new, events = play(sc, st, Dice(3), sheet("AL", {"units": ["a"], "intention": "attack"}),
                       sheet("GE", {"units": ["d"], "intention": "hold", "stand_fast": True}))
    assert new.units["d"].hex == "0303" and new.units["d"].steps == 2
    assert new.units["a"].hex == "0302"
    # the attacker hears what happened -- not that the enemy was routed or driven back
    assert "the enemy held its ground at all costs" in " ".join(new.facts["a"].events)


def test_9_a_spent_unit_is_captured_at_once_version_2() -> None:
    # Rules version 2 captured a spent defender without looking for a way back (0304 is open).
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = R2.initial_state(sc, {})
    st = st.replace(units={**st.units, "d": UnitState(hex="0303", steps=4)})
    new, events = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "attack"}), rules=R2)
    assert new.units["d"].gone and new.units["a"].hex == "0303"
    assert any(e["kind"] == "captured" for e in events)


def test_8_a_bridge_fought_over_blows_on_a_1() -> None:
    water = [{"kind": "river", "name": "Waal", "hexsides": ["0303/0304"]},
             {"kind": "bridge", "name": "Waal bridge", "hexsides": ["0303/0304"]}]
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")], lines=water)
    st = prepared(R.initial_state(sc, {}), "a")
    new, events = play(sc, st, Dice(1, 1), sheet("AL", {"units": ["a"], "intention": "attack"}))
    assert new.blown == ["Waal bridge"]
    assert {"kind": "bridge", "bridge": "Waal bridge", "die": 1, "blown": True} in events
    held, _ = play(sc, st, Dice(1, 2), sheet("AL", {"units": ["a"], "intention": "attack"}))
    assert held.blown == []


def test_9_proposal_aims_at_the_hex_nearest_the_objective() -> None:
    sc = scenario([unit("a", "AL", "inf", "0303"), unit("d1", "GE", "weak", "0302"),
                   unit("d2", "GE", "weak", "0304")])
    st = prepared(R.initial_state(sc, {}), "a")
    board = Board(sc, st)
    board.units["a"].line = sheet("AL", {"units": ["a"], "intention": "attack", "objective": "0306"}).lines[0]
    assert {str(h): v for h, v in propose(board).items()} == {"0304": ["a"]}


# -- [10] what a team sees --------------------------------------------------------------------------


def test_10_a_team_sees_words_not_status_and_only_the_enemy_in_sight() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303"),
                   unit("hidden", "GE", "tank", "0808")])
    st = prepared(R.initial_state(sc, {}), "a")
    new, _ = play(sc, st, Dice(3, 6), sheet("AL", {"units": ["a"], "intention": "attack"}))
    view = R.view(sc, R.dump_state(sc, new), "AL")
    text = json.dumps(view)
    assert "0808" not in text and "hidden" not in text  # out of sight
    assert "steps" not in text and "status" not in text
    (own,) = view["units"]
    assert own["state"].startswith("battered but in good order")  # status 5 after one step: words only
    report = view["reports"][0]
    assert "Supply: used one supply point this turn." in report
    assert not re.search(r"\b[0-9]\b(?! ?km)", report.replace(own["hex"], "").replace("0303", ""))
    umpire = R.view(sc, R.dump_state(sc, new), "GC")
    assert umpire["units"]["hidden"]["hex"] == "0808"


def test_10_identity_only_after_more_than_one_turn_in_contact() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = R.initial_state(sc, {})
    one, _ = play(sc, st, Dice(), sheet("AL", {"units": ["a"], "intention": "hold"}))
    assert "identified" not in " ".join(team_view(sc, one, "AL")["reports"])
    two, _ = play(sc, one, Dice(), sheet("AL", {"units": ["a"], "intention": "hold"}, turn=2))
    assert "identified as GE division" in " ".join(team_view(sc, two, "AL")["reports"])


def test_scenario_problems_name_each_bad_entry() -> None:
    data = json.loads(json.dumps(scenario([unit("a", "AL", "inf", "0302"),
                                           unit("d", "GE", "weak", "0303")]).to_json()))
    data["units"].append(unit("x", "ZZ", "nope", "0999"))
    data["types"]["bad"] = {"profile": "3-4-0"}
    problems = R.scenario_problems(data)
    assert any("no team 'ZZ'" in p for p in problems)
    assert any("no unit type 'nope'" in p for p in problems)
    assert any("0999 is off the map" in p for p in problems)
    assert any("unit type bad" in p and "[9]" in p for p in problems)


@pytest.mark.parametrize("turn,label", [(1, "17 September 1944, morning"), (2, "17 September 1944, afternoon"),
                                        (3, "18 September 1944, morning")])
def test_3_half_day_turns(turn: int, label: str) -> None:
    from pbem.systems.megagame.board import turn_label

    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    assert turn_label(sc, turn) == label


def test_9_a_defence_only_unit_cannot_attack_and_is_not_called_worn() -> None:
    sc = scenario([unit("h", "AL", "hq", "0302"), unit("d", "GE", "weak", "0303")])
    st = R.initial_state(sc, {})
    v = R.validate(sc, st, "AL", sheet("AL", {"units": ["h"], "intention": "attack"}))
    assert v[0].rule == "9" and "defence only" in v[0].message
    (own,) = team_view(sc, st, "AL")["units"]
    assert own["state"] == "in good order (it can defend itself, not attack)"
    hit = st.replace(units={**st.units, "h": UnitState(hex="0302", steps=1)})
    assert team_view(sc, hit, "AL")["units"][0]["state"].startswith("shaken")


# -- [9, 12] the air -------------------------------------------------------------------------------

AIR = [{"id": "2tac", "name": "2nd TAF wing", "side": "allied", "role": "fighter-bomber", "squadrons": 4,
        "region": "continent"},
       {"id": "fc", "name": "Fighter Command wing", "side": "allied", "role": "fighter", "squadrons": 2,
        "region": "england"}]


def air_sheet(*orders: dict[str, Any], turn: int = 1) -> OrderSheet:
    return OrderSheet.parse({"team": "AL", "side": "allied", "turn": turn, "lines": [],
                                      "air_orders": list(orders)})


def test_12_air_orders_beyond_what_flies_in_the_weather_are_refused() -> None:
    wx = [{"turn": 1, "england": "none", "continent": "limited"}]
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0305")], air=AIR, weather=wx)
    st = R.initial_state(sc, {})
    ok_ = air_sheet({"mission": "bombing", "squadrons": 2, "target": "0305"})
    assert R.validate(sc, st, "AL", ok_) == []  # limited: half of 4 fighter-bombers fly
    v = R.validate(sc, st, "AL", air_sheet({"mission": "bombing", "squadrons": 3, "target": "0305"}))
    assert v[0].rule == "12" and "2 can fly" in v[0].message
    v = R.validate(sc, st, "AL", air_sheet({"mission": "recce", "squadrons": 1, "target": "0305"}))
    assert v[0].rule == "12" and "0 can fly" in v[0].message  # nothing leaves England


def test_9_interdiction_hits_and_pins_the_units_in_the_target_hex() -> None:
    # 4 tactical squadrons: the row of 3-4 -- a step loss on a 6, pinned down on a 4 or 5.
    sc = scenario([unit("a", "AL", "inf", "0808"), unit("d", "GE", "weak", "0305"),
                   unit("e", "GE", "weak", "0305")], air=AIR)
    st = R.initial_state(sc, {})
    move = sheet("GE", {"units": ["d", "e"], "intention": "move", "route": ["0304"]})
    new, events = play(sc, st, Dice(6, 3), air_sheet({"mission": "bombing", "squadrons": 4, "target": "0305"}), move)
    strike = next(e for e in events if e["kind"] == "interdiction")
    assert [(h["unit"], h["result"]) for h in strike["hits"]] == [("d", "step loss and immobilised"),
                                                                  ("e", "no effect")]
    assert new.units["d"].steps == 1 and new.units["d"].hex == "0305"  # pinned down: no move
    assert new.units["e"].hex == "0304"
    assert "bombing of 0305" in team_view(sc, new, "AL")["air"][0]
    new, _ = play(sc, st, Dice(4, 1), air_sheet({"mission": "bombing", "squadrons": 4, "target": "0305"}), move)
    assert new.units["d"].steps == 0 and new.units["d"].hex == "0305"


def test_12_recce_tells_only_the_team_that_flew_it() -> None:
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("t", "GE", "tank", "0707")], air=AIR)
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(6), air_sheet({"mission": "recce", "squadrons": 1, "target": "0707"}))
    # stationary vehicles, die 6: type and size -- tanks, status 5: about two battalions [12d]
    assert team_view(sc, new, "AL")["air"] == ["air recce over the zone around 0707: enemy spotted: tanks, "
                                               "about two battalions at 0707"]
    assert team_view(sc, new, "GE")["air"] == []
    assert "0707" not in json.dumps(team_view(sc, new, "AL")["enemy"])  # out of sight on the ground


def test_12_an_airborne_lift_waits_for_flying_weather_then_drops() -> None:
    wx = [{"turn": 2, "england": "none"}, {"turn": 3, "england": "good"}]
    sc = scenario([unit("p", "AL", "inf", "0606", arrives=2, by_air=True), unit("q", "AL", "inf", "0607", arrives=3,
                   by_air=True), unit("d", "GE", "weak", "0101")], air=AIR, weather=wx)
    st = R.initial_state(sc, {})
    t2, events = play(sc, st, Dice())
    assert t2.units["p"].hex is None and {"kind": "delayed", "unit": "p", "turn": 2} in events
    # turn 3: both come; p's dice 1 then 3: a loss, recovered later; q's 2: intact [12 drop table]
    t3, events = play(sc, t2, Dice(1, 3, 2, 5), sheet("AL", turn=2), sheet("GE", turn=2))
    drops = {e["unit"]: e["result"] for e in events if e["kind"] == "drop"}
    assert drops == {"p": "status loss, recovered later", "q": "intact"}
    assert (t3.units["p"].hex, t3.units["p"].steps, t3.units["p"].scattered) == ("0606", 1, 1)
    assert "1 turn late for the weather" in " ".join(t3.facts["p"].events)
    t4, _ = play(sc, t3, Dice(), sheet("AL", turn=3), sheet("GE", turn=3))
    # the turn of the drop: the scattered men are back after one clear turn, the next day [12]
    # (version 2 gave them back at the end of this turn: test_megagame_air_rules3)
    assert (t4.units["p"].steps, t4.units["p"].scattered) == (1, 1)


def test_9_game_control_sees_the_proposal_before_ruling() -> None:
    # a moves into contact with d and attacks; b prepares: the proposal is a's attack on 0304
    from pbem.systems.megagame.round import proposal

    sc = scenario([unit("a", "AL", "inf", "0301"), unit("b", "AL", "inf", "0808"), unit("d", "GE", "weak", "0304")])
    st = R.initial_state(sc, {})
    orders = {"AL": sheet("AL", {"units": ["a"], "intention": "attack", "route": ["0302", "0303"]},
                          {"units": ["b"], "intention": "prepare"})}
    assert proposal(sc, st, orders) == [("0304", ["a"], ["d"])]
    lines = R.presenter().describe_round(sc, st, {k: v.to_json() for k, v in orders.items()})
    assert lines[1] == "  at 0304: a against d"
    _, events = play(sc, st, Dice(2), *orders.values())
    assert [(e["at"], e["attackers"]) for e in events if e["kind"] == "combat"] == [("0304", ["a"])]


# -- [5] the order sheet as text -------------------------------------------------------------------


def test_5_an_order_sheet_written_as_text() -> None:
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("b", "AL", "inf", "0401"), unit("d", "GE", "weak", "0305")])
    st = R.initial_state(sc, {})
    p = R.presenter()
    text = """# turn 1
a b: attack, towards 0305, via 0302 0303, tactical, first half   # together
b: hold, stand fast
air: bombing 2 at 0305
"""
    doc = p.parse_text_orders(sc, R.skeleton(sc, st, "AL"), "AL", text)
    assert doc["lines"] == [
        {"units": ["a", "b"], "intention": "attack", "objective": "0305", "route": ["0302", "0303"],
         "posture": "tactical", "timing": "first-half"},
        {"units": ["b"], "intention": "hold", "stand_fast": True}]
    assert doc["air_orders"] == [{"mission": "bombing", "squadrons": 2, "target": "0305"}]
    sheet_ = R.load_orders(sc, doc)
    assert "already has orders" in R.validate(sc, st, "AL", sheet_)[0].message  # b twice [5]


@pytest.mark.parametrize("text,words", [
    ("a: attak", "'attak' is not a sheet clause"),
    ("a: towards 12", "'12' is not a hex"),
    ("a towards 0305", "expected 'UNITS: INTENTION"),
    ("a: via 0302", "say what a should do"),
    ("air: bombing", "how many squadrons"),
    ("a: attack, hold", "one intention a line"),
])
def test_5_text_that_is_not_an_order_sheet_is_refused_with_the_line(text: str, words: str) -> None:
    from pbem.errors import InputError

    sc = scenario([unit("a", "AL", "inf", "0301"), unit("d", "GE", "weak", "0305")])
    st = R.initial_state(sc, {})
    with pytest.raises(InputError, match="line 1") as exc:
        R.presenter().parse_text_orders(sc, R.skeleton(sc, st, "AL"), "AL", text)
    assert words in str(exc.value)


# -- [11] supplies reach a unit from its HQ within 5 km ----------------------------------------------


def test_11_a_unit_more_than_5_km_from_its_hq_cannot_attack() -> None:
    def case(hq_hex: str) -> MegaScenario:
        return scenario([unit("a", "AL", "inf", "0302", hq="h"), unit("h", "AL", "hq", hq_hex),
                         unit("d", "GE", "weak", "0303")])

    near, far = case("0307"), case("0308")  # 5 km from 0302, and 6 km
    from pbem.maps.hexmap import Hex

    assert Hex.parse("0302").distance(Hex.parse("0307")) == 5
    for sc, ok_ in ((near, True), (far, False)):
        st = prepared(R.initial_state(sc, {}), "a")
        v = R.validate(sc, st, "AL", sheet("AL", {"units": ["a"], "intention": "attack"}))
        assert (v == []) is ok_
        if not ok_:
            assert v[0].rule == "11" and "6 km away" in v[0].message
    # Game Control's adjudication says the same when the HQ moved away during the turn
    st = prepared(R.initial_state(near, {}), "a")
    new, events = play(near, st, Dice(), sheet("AL", {"units": ["a"], "intention": "attack"},
                                               {"units": ["h"], "intention": "move", "route": ["0308"]}))
    assert not any(e["kind"] == "combat" for e in events)
    assert "no supplies reach it" in " ".join(new.facts["a"].events)


def test_12_air_resupply_by_the_ready_reckoner_collected_within_5_km() -> None:
    # 2 transport squadrons drop 4 points; die 6, no factor: column 6+, 4 points land [12];
    # a's HQ-less unit 3 km away collects them [11]. With the zone contested (enemy within 1 km, -3):
    # die 6 - 3 = 3: column 3 of the 4-point row: 3 land.
    air = [*AIR, {"id": "tc", "name": "troop carriers", "side": "allied", "role": "transport", "squadrons": 2,
                  "region": "england"}]
    sc = scenario([unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0808")], air=air)
    st = R.initial_state(sc, {})
    new, events = play(sc, st, Dice(6), air_sheet({"mission": "transport", "squadrons": 2, "target": "0306"}))
    drop_ = next(e for e in events if e["kind"] == "resupply")
    assert (drop_["dropped"], drop_["landed"], drop_["collected"], drop_["factors"]) == (4, 4, True, [])
    assert new.supply["AL"] == 5 + 4
    assert "4 of 4 supply points landed, collected" in team_view(sc, new, "AL")["air"][0]
    contested = scenario([unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0307")], air=air)
    st = R.initial_state(contested, {})
    new, events = play(contested, st, Dice(6), air_sheet({"mission": "transport", "squadrons": 2, "target": "0306"}))
    drop_ = next(e for e in events if e["kind"] == "resupply")
    assert (drop_["factors"], drop_["landed"]) == (["zone contested"], 3)
    far = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0808")], air=air)
    new, _ = play(far, R.initial_state(far, {}), Dice(6),
                  air_sheet({"mission": "transport", "squadrons": 2, "target": "0707"}))
    assert new.supply["AL"] == 5 and "none of our units could reach them" in new.intel["AL"][0]


def test_12_fighters_meet_first_and_unbeaten_enemy_fighters_hurt_the_transports() -> None:
    # 2 Allied fighter squadrons against 1 German: the Allies attack at 2-1; die 6: win (the German
    # fighters are beaten and intervene nowhere); die 1 at 2-1: lose -- the Germans hold the sky and
    # the drop suffers 'enemy fighters' (-3).
    air = [*AIR, {"id": "jg", "name": "Jagdgeschwader", "side": "german", "role": "fighter", "squadrons": 1,
                  "region": "germany"},
           {"id": "tc", "name": "troop carriers", "side": "allied", "role": "transport", "squadrons": 2,
            "region": "england"}]
    sc = scenario([unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0808")], air=air)
    st = R.initial_state(sc, {})
    ge = OrderSheet.parse({"team": "GE", "side": "german", "turn": 1, "lines": [],
                                    "air_orders": [{"mission": "air-cover", "squadrons": 1}]})
    al = air_sheet({"mission": "escort", "squadrons": 2}, {"mission": "transport", "squadrons": 2, "target": "0306"})
    _, events = play(sc, st, Dice(6, 6), al, ge)
    battle = next(e for e in events if e["kind"] == "air-combat")
    assert (battle["attacker"], battle["result"]) == ("allied", "win")
    assert next(e for e in events if e["kind"] == "resupply")["factors"] == []
    _, events = play(sc, st, Dice(1, 6), al, ge)
    assert next(e for e in events if e["kind"] == "air-combat")["result"] == "lose"
    assert next(e for e in events if e["kind"] == "resupply")["factors"] == ["enemy fighters"]


def test_6_a_line_of_units_in_different_hexes_is_told_why_the_route_jumps() -> None:
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("b", "AL", "inf", "0305"), unit("d", "GE", "weak", "0808")])
    st = R.initial_state(sc, {})
    v = R.validate(sc, st, "AL", sheet("AL", {"units": ["a", "b"], "intention": "move", "route": ["0302"]}))
    assert v[0].rule == "6" and "(b is at 0305)" in v[0].message and "lines of their own" in v[0].message


def test_event_words_for_every_kind_the_adjudication_writes() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")], air=AIR)
    st = prepared(R.initial_state(sc, {}), "a")
    rulings = {"advantage": [{"at": "0303", "side": "defender", "points": 1, "why": "houses"}]}
    both = OrderSheet.parse({"team": "AL", "side": "allied", "turn": 1,
                                      "lines": [{"units": ["a"], "intention": "attack"}],
                                      "air_orders": [{"mission": "recce", "squadrons": 1, "target": "0808"}]})
    _, events = play(sc, st, Dice(3, 6, 6), both, rulings=rulings)
    assert {e["kind"] for e in events} >= {"rulings", "recce", "combat"}
    words = [R.describe_event(sc, e) for e in events]
    assert all(not w.startswith("{") for w in words), words  # none falls back to raw JSON
    assert "Game Control rules: clear tactical advantage to the defender at 0303: +1 for each of its units (houses) [9]" in words


@pytest.mark.parametrize("rules,half,allowed", [(R, "7.5", 7), (R2, "4", 4)], ids=["version-3", "version-2"])
def test_12_movement_after_landing_none_in_the_morning_half_in_the_afternoon(rules: MegagameRules, half: str,
                                                                             allowed: int) -> None:
    # turn 2 is the afternoon of the 17th: a drop then may move half of the infantry's 15 km tactical
    # move [6] (rules version 2: of 8 km); turn 3 (morning): none.
    wx = [{"turn": t, "england": "good"} for t in (1, 2, 3)]
    sc = scenario([unit("p", "AL", "inf", "0606", arrives=2, by_air=True),
                   unit("q", "AL", "inf", "0306", arrives=3, by_air=True), unit("d", "GE", "weak", "0101")],
                  air=AIR, weather=wx)
    t2, _ = play(sc, rules.initial_state(sc, {}), Dice(6, 6), rules=rules)
    assert t2.units["p"].landed
    way = ["0605", "0604", "0603", "0602", "0601", "0501", "0502", "0503"]  # 8 km, every hex next to the last
    over = way[:allowed + 1]
    v = rules.validate(sc, t2, "AL", sheet("AL", {"units": ["p"], "intention": "move", "route": over}, turn=2))
    assert v and v[0].rule == "12" and f"at most {half} km" in v[0].message
    assert rules.validate(sc, t2, "AL", sheet("AL", {"units": ["p"], "intention": "move", "route": over[:-1]},
                                             turn=2)) == []
    t3, _ = play(sc, t2, Dice(6, 6), sheet("AL", turn=2), sheet("GE", turn=2), rules=rules)
    assert t3.units["q"].landed and not t3.units["p"].landed
    v = rules.validate(sc, t3, "AL", sheet("AL", {"units": ["q"], "intention": "move", "route": ["0307"]}, turn=3))
    assert v and "no movement in the turn of the drop" in v[0].message


def test_9_counter_battery_fixes_a_battery_that_fired_and_shells_it() -> None:
    # g (German guns) is allocated to the defence of 0303 [9 Supporting Artillery]; AL's c is on
    # counter-battery within range: die 6 fixes g (first turn), then the interdiction table with one
    # battalion: 6 -> a step lost.
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("c", "AL", "guns", "0306"),
                   unit("d", "GE", "weak", "0303"), unit("g", "GE", "guns", "0308")])
    st = prepared(R.initial_state(sc, {}), "a")
    al = sheet("AL", {"units": ["a"], "intention": "attack"}, {"units": ["c"], "intention": "hold",
                                                               "counter_battery": True})
    ge = sheet("GE", {"units": ["g"], "intention": "hold", "defend": ["0303"]})
    new, events = play(sc, st, Dice(3, 6, 6), al, ge)
    combat = next(e for e in events if e["kind"] == "combat")
    assert combat["artillery"] == ["g"]  # c keeps to its counter-battery task
    cb = next(e for e in events if e["kind"] == "counter-battery")
    assert (cb["battery"], cb["fixed"], cb["result"]) == ("g", True, "step loss and immobilised")
    assert new.units["g"].steps == 1 and new.units["g"].fired == 1
    bad = sheet("AL", {"units": ["a"], "intention": "hold", "counter_battery": True})
    assert R.validate(sc, st, "AL", bad)[0].rule == "9"


def test_7_a_bridge_passes_the_scenarios_capacity_for_it() -> None:
    water = [{"kind": "canal", "name": "canal", "hexsides": ["0302/0303"]},
             {"kind": "bridge", "name": "lock bridge", "hexsides": ["0302/0303"]}]
    units = [unit(u, "AL", "inf", "0302") for u in ("a", "b", "c")] + [unit("d", "GE", "weak", "0808")]
    sc = scenario(units, lines=water, bridges=[{"name": "lock bridge", "capacity": 20}])  # 40 a turn
    st = R.initial_state(sc, {})
    new, _ = play(sc, st, Dice(), sheet("AL", {"units": ["a", "b", "c"], "intention": "move", "route": ["0303"]}))
    assert [new.units[u].hex for u in "abc"] == ["0303", "0303", "0302"]


def test_6_reach_lists_the_hexes_a_unit_may_move_to_by_the_rules_own_checks() -> None:
    # infantry moves 8 km tactically; the canal west of 0302 is crossed on foot; the enemy the team
    # sees at 0304 (2 km) stops it in contact at 0303 (listed, nothing beyond through it); the
    # enemy's hex and the unit's own are never listed. An enemy out of sight is not known: reach
    # cannot count it (the adjudication will).
    canal = [{"kind": "canal", "name": "canal", "hexsides": ["0202/0302"]}]
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("t", "AL", "tank", "0302"), unit("d", "GE", "weak", "0304")],
                  lines=canal)
    st = R.initial_state(sc, {})
    p = R.presenter()
    lines = p.reach(sc, team_view(sc, st, "AL"), "a")
    hexes = {line.split(":")[0] for line in lines}
    assert "0202" in hexes and "0303" in hexes and "0302" not in hexes and "0304" not in hexes
    assert "0303: 1 km via 0303" in lines
    from pbem.maps.hexmap import Hex

    enemy = Hex.parse("0304")
    for line in lines:  # no path goes on through a hex in contact with the enemy [6]
        through = [Hex.parse(h) for h in line.split(" via ")[1].split()][:-1]
        assert all(h.distance(enemy) > 1 for h in through), line
    tank = p.reach(sc, team_view(sc, st, "AL"), "t")
    assert "0202: 1 km via 0202" in lines  # on foot straight over the canal
    assert not any(line.startswith("0202: 1 km") for line in tank)  # tanks go round: no crossing off a bridge [6]
    assert p.unit_side(sc, "a") == "AL" and p.unit_side(sc, "zz") is None


def test_10_reach_of_a_unit_this_machine_does_not_know_says_why_it_may_not_know_it() -> None:
    """On a team's machine the enemy's units are not in its copy of the scenario [10]: 'no unit X in
    this game' read as if the unit did not exist (the trial asked reach of an enemy battlegroup)."""
    from pbem.errors import InputError

    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0304")])
    st = R.initial_state(sc, {})
    with pytest.raises(InputError, match=r"no unit 'zz' in this game as this machine knows it: a "
                                         r"team's copy of the scenario lists only its own side's units \[10\]"):
        R.presenter().reach(sc, team_view(sc, st, "AL"), "zz")


def test_6_reach_map_shades_the_hexes_reach_lists_on_the_team_s_own_map() -> None:
    # pbem reach --map: the hexes of the list, each labelled with its km, on the team's map (its
    # own units and the enemy it sees, never the master map's status numbers) [6, 10].
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0304"), unit("far", "GE", "weak", "0808")])
    st = R.initial_state(sc, {})
    p = R.presenter()
    lines = p.reach(sc, team_view(sc, st, "AL"), "a")
    view = p.reach_view(sc, team_view(sc, st, "AL"), "a")
    listed = {line.split(":")[0]: line.split(": ")[1].split(" via ")[0] for line in lines}
    assert {str(h): label for h, label in view.shaded} == listed
    assert listed["0303"] == "1 km" and view.viewer == "Allies"
    assert {c.id for c in view.counters} == {"a", "enemy-0304"}  # d seen next to it; far out of sight
    assert Hex.parse("0302") in view.focus and Hex.parse("0303") in view.focus


def test_9_units_from_another_division_cost_one_each() -> None:
    # a and b (one division) with c (another) attack d: the division leading is a's and b's, c
    # counts -1 (note 6); two brigades of one division cost nothing, as in the worked example.
    sc = scenario([unit("a", "AL", "inf", "0302", division="X"), unit("b", "AL", "inf", "0402", division="X"),
                   unit("c", "AL", "inf", "0203", division="Y"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a", "b", "c")
    _, events = play(sc, st, Dice(1, 1, 1), sheet("AL", {"units": ["a", "b", "c"], "intention": "attack"}))
    combat = next(e for e in events if e["kind"] == "combat")
    assert "-1: units from another formation" in combat["attacker_lines"]
    assert combat["attacker_score"] == 18 - 1
    same = scenario([unit("a", "AL", "inf", "0302", division="X", formation="1st Bde"),
                     unit("b", "AL", "inf", "0402", division="X", formation="2nd Bde"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(same, {}), "a", "b")
    _, events = play(same, st, Dice(1, 1, 1), sheet("AL", {"units": ["a", "b"], "intention": "attack"}))
    assert not any("another formation" in x for e in events if e["kind"] == "combat" for x in e["attacker_lines"])


def test_9_overrun_breakthrough_drives_on_through_the_defeated_enemy() -> None:
    # Two tanks (10) with Breakthrough orders against d (4; -1 unsupported infantry in the open
    # against tanks = 3): twice its status, mostly armoured. Die 6: 13, Total Success; d retires
    # 2d6 (3+3) km; the tanks drive on half their remaining move (15 km) towards 0308, the map's
    # edge of their objective, and lose no extra step.
    sc = scenario([unit("t1", "AL", "tank", "0302"), unit("t2", "AL", "tank", "0402"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "t1", "t2")
    orders = sheet("AL", {"units": ["t1", "t2"], "intention": "breakthrough", "objective": "0308"})
    new, events = play(sc, st, Dice(6, 3, 3), orders)
    overrun = next(e for e in events if e["kind"] == "overrun")
    assert overrun["moves"][0] == {"unit": "t1", "path": ["0303", "0304", "0305", "0306", "0307", "0308"]}
    assert (new.units["t1"].hex, new.units["t1"].steps) == ("0308", 1)
    # Die 1: 8, a Success: the overrun costs each tank one more step
    new, events = play(sc, st, Dice(1, 2), orders)
    assert any(e["kind"] == "overrun" for e in events) and new.units["t1"].steps == 2
    # the same fight with Attack orders takes the hex and stops there
    new, events = play(sc, st, Dice(6, 3, 3), sheet("AL", {"units": ["t1", "t2"], "intention": "attack",
                                                          "objective": "0308"}))
    assert not any(e["kind"] == "overrun" for e in events) and new.units["t1"].hex == "0303"


def test_9_the_loser_loses_supplies_even_when_it_holds_at_all_costs() -> None:
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    new, _ = play(sc, st, Dice(3), sheet("AL", {"units": ["a"], "intention": "attack"}),
                  sheet("GE", {"units": ["d"], "intention": "hold", "stand_fast": True}))
    assert new.units["d"].hex == "0303" and new.supply["GE"] == 5 - 1  # Limited Success: one a unit


def test_11_a_dump_delivers_its_lift_to_an_hq_within_reach_unless_it_moves() -> None:
    # rules version 2: what a dump delivers joins the team's one pool (version 3: the HQ's stack,
    # test_megagame_supply_and_trains.py)
    types = {**TYPES, "dump": {"profile": "(1)-0", "kind": "other", "troops": "mechanised", "mechanised": True,
                               "size": 0, "dump": True}}

    def case(hq_hex: str) -> MegaScenario:
        return scenario([unit("h", "AL", "hq", hq_hex), unit("x", "AL", "dump", "0101", stock=15, lift=10,
                                                              reach_km=5), unit("d", "GE", "weak", "0808")],
                        types=types)

    near = case("0106")  # 5 km from the dump
    st = R2.initial_state(near, {})
    t2, _ = play(near, st, Dice(), rules=R2)
    assert (t2.supply["AL"], t2.units["x"].stock) == (5 + 10, 5)
    t3, _ = play(near, t2, Dice(), sheet("AL", turn=2), sheet("GE", turn=2), rules=R2)
    assert (t3.supply["AL"], t3.units["x"].stock) == (5 + 15, 0)  # the last 5
    moving, _ = play(near, st, Dice(), sheet("AL", {"units": ["x"], "intention": "move", "route": ["0102"]}),
                     rules=R2)
    assert moving.supply["AL"] == 5 - 1 and "delivered nothing" in " ".join(moving.facts["x"].events)  # lorries burn fuel
    far = case("0107")  # 6 km
    t2, _ = play(far, R2.initial_state(far, {}), Dice(), rules=R2)
    assert t2.supply["AL"] == 5 and t2.units["x"].stock == 15


# -- [6] rail movement -----------------------------------------------------------------------------

RAIL = [{"kind": "railway", "name": "the line", "hexes": ["0101", "0201", "0301", "0401", "0501", "0601", "0701"]}]


def rail_scenario(**extra: Any) -> MegaScenario:
    data = scenario([unit("g", "GE", "weak", "0101"), unit("t", "GE", "tank", "0101"),
                     unit("a", "AL", "inf", "0808")], terrain={"town": ["0101", "0701"]},
                    trains={"german": 25}, **extra).to_json()
    data["map"]["railways"] = RAIL
    return R.load_scenario(data)


def test_6_infantry_boards_a_turn_travels_a_turn_and_is_free_after() -> None:
    # rules version 2: infantry is free the turn after its travel (version 3 gives it half a turn of
    # getting off: test_megagame_supply_and_trains.py)
    sc = rail_scenario()
    st = R2.initial_state(sc, {})
    ge = sheet("GE", {"units": ["g"], "intention": "move", "rail_to": "0601"})  # infantry: off anywhere
    t2, _ = play(sc, st, Dice(), ge, rules=R2)
    assert t2.units["g"].hex == "0101" and t2.units["g"].rail.phase == "travelling"  # type: ignore[union-attr]
    busy = R2.validate(sc, t2, "GE", sheet("GE", {"units": ["g"], "intention": "hold"}, turn=2))
    assert busy and busy[0].rule == "6" and "on the railway" in busy[0].message
    t3, events = play(sc, t2, Dice(), sheet("GE", turn=2), sheet("AL", turn=2), rules=R2)
    assert t3.units["g"].hex == "0601" and t3.units["g"].rail is None
    assert {"kind": "rail", "unit": "g", "from": "0101", "to": "0601"} in events


def test_6_vehicles_board_two_turns_and_get_off_a_turn_at_a_town() -> None:
    sc = rail_scenario()
    st = R.initial_state(sc, {})
    bad = R.validate(sc, st, "GE", sheet("GE", {"units": ["t"], "intention": "move", "rail_to": "0601"}))
    assert bad and "gets off only at a town or village" in bad[0].message
    state = st
    ge = sheet("GE", {"units": ["t"], "intention": "move", "rail_to": "0701"})
    phases = []
    for turn in (1, 2, 3):
        state, _ = play(sc, state, Dice(), ge if turn == 1 else sheet("GE", turn=turn), sheet("AL", turn=turn))
        trip = state.units["t"].rail
        phases.append((state.units["t"].hex, trip.phase if trip else None))
    assert phases == [("0101", "embarking"), ("0101", "travelling"), ("0701", "disembarking")]


def test_6_trains_limit_the_unit_points_a_turn_and_the_station_must_be_on_the_line() -> None:
    sc = rail_scenario()
    st = R.initial_state(sc, {})
    both = sheet("GE", {"units": ["g", "t"], "intention": "move", "rail_to": "0701"})
    v = R.validate(sc, st, "GE", both)  # 20 + 20 unit points, trains for 25
    assert any("trains for 25" in x.message for x in v)
    moved = st.replace(units={**st.units, "g": UnitState(hex="0102")})
    v = R.validate(sc, moved, "GE", sheet("GE", {"units": ["g"], "intention": "move", "rail_to": "0601"}))
    assert v and "town or village on the railway" in v[0].message
    allied = R.validate(sc, st, "AL", sheet("AL", {"units": ["a"], "intention": "move", "rail_to": "0601"}))
    assert any("trains for 0" in x.message for x in allied)


def test_6_a_unit_in_contact_cannot_board() -> None:
    sc = rail_scenario()
    st = R.initial_state(sc, {})
    near = st.replace(units={**st.units, "a": UnitState(hex="0102")})
    v = R.validate(sc, near, "GE", sheet("GE", {"units": ["g"], "intention": "move", "rail_to": "0601"}))
    assert v and "in contact with the enemy" in v[0].message


# -- from a second first-time user's trial -------------------------------------------------------------


def test_6_towards_without_a_route_gets_the_way_there_filled_in_before_signing() -> None:
    # 'a: move, towards 0306' used to be signed as it stood and did nothing; normalize fills in the
    # route (8 km tactical: the whole way here), unit by unit where units stand apart
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("b", "AL", "inf", "0501"), unit("d", "GE", "weak", "0808")])
    st = R.initial_state(sc, {})
    doc = sheet("AL", {"units": ["a", "b"], "intention": "move", "objective": "0305", "supply": 1})
    done = R.normalize(sc, st, "AL", doc)
    assert [(line.units, line.route[-1] if line.route else None, line.supply) for line in done.lines] == [
        (["a"], "0305", 1), (["b"], "0305", 0)]  # supply asked for once
    assert R.validate(sc, st, "AL", done) == []
    new, _ = play(sc, st, Dice(), done)
    assert new.units["a"].hex == "0305"


def test_10_a_bombing_report_tells_no_count() -> None:
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0505"), unit("e", "GE", "weak", "0505")],
                  air=AIR)
    st = R.initial_state(sc, {})
    hit, _ = play(sc, st, Dice(6, 1), air_sheet({"mission": "bombing", "squadrons": 4, "target": "0505"}))
    missed, _ = play(sc, st, Dice(1, 1), air_sheet({"mission": "bombing", "squadrons": 4, "target": "0505"}))
    empty, _ = play(sc, st, Dice(), air_sheet({"mission": "bombing", "squadrons": 4, "target": "0707"}))
    assert hit.intel["AL"] == ["bombing of 0505 (3 km from Dorp): the pilots report hits"]
    assert missed.intel["AL"][0].endswith("no result seen") and empty.intel["AL"][0].endswith("no result seen")


def test_9_game_control_is_warned_of_rulings_that_will_not_apply_before_signing() -> None:
    from pbem.systems.megagame.round import ruling_warnings

    sc = scenario([unit("a", "AL", "inf", "0302"), unit("m", "AL", "inf", "0101"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    orders = {"AL": sheet("AL", {"units": ["a"], "intention": "attack"}, {"units": ["m"], "intention": "hold"})}
    rulings = {"groupings": [{"at": "0303", "attackers": ["a", "m", "d"]}],
               "advantage": [{"at": "0707", "side": "attacker", "points": 1, "why": "x"}]}
    warnings = ruling_warnings(sc, st, orders, R.load_rulings(sc, st, rulings))
    assert [w.split(" ")[0] for w in warnings] == ["m", "d", "no"]
    lines = R.presenter().describe_round(sc, st, {k: v.to_json() for k, v in orders.items()},
                                         R.load_rulings(sc, st, rulings))
    assert sum(line.startswith("WARNING:") for line in lines) == 3


def test_9_a_grouping_with_no_attacker_able_warns_that_it_cancels_the_engines_combat() -> None:
    # Game Control groups only m (on hold) at 0303, where the engine proposes a's attack: the
    # grouping replaces the engine's for that hex [9], so nobody attacks there -- said before signing
    from pbem.systems.megagame.round import ruling_warnings

    sc = scenario([unit("a", "AL", "inf", "0302"), unit("m", "AL", "inf", "0101"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    orders = {"AL": sheet("AL", {"units": ["a"], "intention": "attack"}, {"units": ["m"], "intention": "hold"})}
    rulings = R.load_rulings(sc, st, {"groupings": [{"at": "0303", "attackers": ["m"]}], "advantage": []})
    warnings = ruling_warnings(sc, st, orders, rulings)
    assert warnings[1:] == ["the grouping at 0303 replaces the engine's (a) and leaves no attacker: there will "
                            "be no combat there [9]"]
    assert warnings[0].startswith("m cannot attack 0303 this turn")
    # with a among the attackers the grouping keeps a combat: no such warning
    kept = R.load_rulings(sc, st, {"groupings": [{"at": "0303", "attackers": ["a", "m"]}], "advantage": []})
    assert [w.split(" ")[0] for w in ruling_warnings(sc, st, orders, kept)] == ["m"]


def test_9_a_ruling_at_a_hex_off_the_map_is_named_as_such_before_signing() -> None:
    # a trial: Game Control mistyped a hex; the warning said each attacker "cannot attack" it (no
    # Attack order, not next to an enemy...), as if the hex were real. It now names the hex, once,
    # for the grouping and the advantage there together [9]
    from pbem.systems.megagame.round import ruling_warnings

    sc = scenario([unit("a", "AL", "inf", "0302"), unit("m", "AL", "inf", "0101"), unit("d", "GE", "weak", "0303")])
    st = prepared(R.initial_state(sc, {}), "a")
    orders = {"AL": sheet("AL", {"units": ["a"], "intention": "attack"}, {"units": ["m"], "intention": "hold"})}
    assert Hex.parse("3309") not in sc.map.geo.hexes
    rulings = R.load_rulings(sc, st, {"groupings": [{"at": "3309", "attackers": ["a"]}],
                                      "advantage": [{"at": "3309", "side": "attacker", "points": 1, "why": "x"}]})
    assert ruling_warnings(sc, st, orders, rulings) == [
        "3309 is not a hex of the map: the grouping or advantage ruled there will do nothing [9]"]


def test_5_a_unit_not_yet_arrived_is_said_so_and_the_idle_are_listed() -> None:
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("late", "AL", "inf", "0302", arrives=3),
                   unit("b", "AL", "inf", "0401"), unit("d", "GE", "weak", "0808")])
    st = R.initial_state(sc, {})
    v = R.validate(sc, st, "AL", sheet("AL", {"units": ["late"], "intention": "hold"}))
    assert v[0].rule == "5" and "not on the map now (due on turn 3" in v[0].message
    p = R.presenter()
    assert p.undone(sc, st, "AL", sheet("AL", {"units": ["a"], "intention": "hold"}).to_json()) == [
        "no orders for b: they stay where they are [5]"]
    template = p.orders_template(sc, st, "AL")
    assert template is not None and all(line.startswith("#") for line in template.splitlines())
    assert "0301" in template and "# a: hold, stand fast" in template and "# a: move, towards 0" in template
    doc = p.parse_text_orders(sc, R.skeleton(sc, st, "AL"), "AL", template)
    assert doc["lines"] == []  # unedited, it orders nothing


def test_5_6_towards_an_objective_via_hexes_goes_on_from_the_last_of_them() -> None:
    # 'a: move, towards 0308, via 0401': a goes by 0401 as written, then on towards 0308 by the
    # shortest way, cut where the move ends [6]; a route that already ends at its objective, and
    # a line whose units stand in two hexes, are kept as written.
    sc = scenario([unit("a", "AL", "inf", "0301"), unit("b", "AL", "inf", "0601"), unit("c", "AL", "inf", "0701"),
                   unit("e", "AL", "inf", "0702"), unit("d", "GE", "weak", "0808")])
    st = R.initial_state(sc, {})
    view = R.load_state(sc, R.view(sc, R.dump_state(sc, st), "AL"))
    sh = OrderSheet.parse({"team": "AL", "side": "allied", "turn": 1, "lines": [
        {"units": ["a"], "intention": "move", "objective": "0308", "route": ["0401"]},
        {"units": ["b"], "intention": "move", "objective": "0603", "route": ["0602", "0603"]},
        {"units": ["c", "e"], "intention": "move", "objective": "0708", "route": ["0703"]}]})
    lines = R.normalize(sc, view, "AL", sh).lines
    assert lines[0].route[0] == "0401" and len(lines[0].route) > 1
    path = ["0301", *lines[0].route]
    assert all(Hex.parse(x).distance(Hex.parse(y)) == 1 for x, y in zip(path, path[1:], strict=False))
    assert Hex.parse(lines[0].route[-1]).distance(Hex.parse("0308")) < Hex.parse("0401").distance(Hex.parse("0308"))
    assert R.validate(sc, view, "AL", sh.replace(lines=lines[:1])) == []
    assert lines[1].route == ["0602", "0603"] and lines[2].route == ["0703"]


def test_9_12_close_air_support_is_what_flew_and_heavy_bombers_count_on_their_own_row() -> None:
    # Two Allied teams share 3 fighter-bombers and 2 heavy bomber squadrons. AL's prepared attack
    # asks for cas 2, AB's for cas 2 and heavy 2. The air orders fly in team order: AB first (2 of
    # cas), then AL gets the 1 left. AL's attack: 1 ground attack squadron, ordinary (+4). AB's:
    # 2 ground attack (superior, +6) and 2 heavies (overwhelming, +8): the better level counts.
    air = [{"id": "tac", "name": "wing", "side": "allied", "role": "fighter-bomber", "squadrons": 3,
            "region": "continent"},
           {"id": "bc", "name": "Bomber Command", "side": "allied", "role": "heavy-bomber", "squadrons": 2,
            "region": "england"}]
    teams = [{"id": "AL", "side": "allied", "name": "Allies"}, {"id": "AB", "side": "allied", "name": "Airborne"},
             {"id": "GE", "side": "german", "name": "Germans"}]
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("b", "AB", "inf", "0602"),
                   unit("d", "GE", "weak", "0303"), unit("e", "GE", "weak", "0603")],
                  air=air, teams=teams)
    sc = sc.replace(supply={"AL": 5, "AB": 5, "GE": 5})
    st = prepared(R.initial_state(sc, {}), "a", "b")
    al = OrderSheet.parse({"team": "AL", "side": "allied", "turn": 1, "lines": [
        {"units": ["a"], "intention": "attack", "objective": "0303", "air": [{"mission": "cas", "squadrons": 2}]}],
        "air_orders": [{"mission": "cas", "squadrons": 2}]})
    ab = OrderSheet.parse({"team": "AB", "side": "allied", "turn": 1, "lines": [
        {"units": ["b"], "intention": "attack", "objective": "0603",
         "air": [{"mission": "cas", "squadrons": 2}, {"mission": "heavy", "squadrons": 2}]}],
        "air_orders": [{"mission": "cas", "squadrons": 2}, {"mission": "heavy", "squadrons": 2}]})
    ge = sheet("GE")
    for team, sh in (("AL", al), ("AB", ab), ("GE", ge)):
        assert R.validate(sc, st, team, sh) == [], team
    res = R.resolve_round(sc, st, {"AL": al, "AB": ab, "GE": ge}, Dice(*[3] * 12), {}, R.load_rulings(sc, st, {}))
    air_at = {e["at"]: e["air"] for e in res.events if e["kind"] == "combat"}
    assert air_at == {"0303": "ordinary", "0603": "overwhelming"}
    intel = team_view(sc, res.state, "AL")["air"]
    assert any("only 1 of 2" in line for line in intel)


def test_9_heavy_bombers_support_only_a_prepared_attack() -> None:
    air = [{"id": "bc", "name": "Bomber Command", "side": "allied", "role": "heavy-bomber", "squadrons": 2,
            "region": "england"}]
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0303")], air=air)
    st = R.initial_state(sc, {})
    sh = OrderSheet.parse({"team": "AL", "side": "allied", "turn": 1, "lines": [
        {"units": ["a"], "intention": "attack", "objective": "0303", "air": [{"mission": "heavy", "squadrons": 1}]}],
        "air_orders": [{"mission": "heavy", "squadrons": 1}, {"mission": "cab-rank", "squadrons": 1}]})
    assert any(v.rule == "9" and "heavy bombers support only a prepared attack" in v.message
               for v in R.validate(sc, st, "AL", sh))


def test_9_a_cab_rank_is_on_call_all_day_for_its_teams_attacks_and_defence() -> None:
    # AL orders a cab rank of 4 Europe-based squadrons on turn 1 (morning): 2 squadrons' worth of
    # support, Allied ground attack: superior (+6). a attacks d unprepared and gets it without
    # asking; on turn 2 (afternoon) the rank is still on call (not ordered again, its 4 squadrons
    # still in the air: a bombing of 1 is more than is left) and b, attacked by e, defends with it;
    # on turn 3 (the next morning) it is gone.
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("b", "AL", "inf", "0606"),
                   unit("d", "GE", "weak", "0303"), unit("e", "GE", "inf", "0607")], air=AIR)
    st = R.initial_state(sc, {})
    t1 = OrderSheet.parse({"team": "AL", "side": "allied", "turn": 1, "lines": [
        {"units": ["a"], "intention": "attack", "objective": "0303"}],
        "air_orders": [{"mission": "cab-rank", "squadrons": 4}]})
    t2, events = play(sc, st, Dice(*[3] * 12), t1)
    assert [(e["at"], e["air"]) for e in events if e["kind"] == "combat"] == [("0303", "superior")]
    assert t2.cab_rank["AL"].until == 2 and team_view(sc, t2, "AL")["cab_rank"] == {"squadrons": 4, "until": 2}
    assert any("cab rank: 4 squadrons on call" in line for line in team_view(sc, t2, "AL")["air"])
    view = R.load_state(sc, R.view(sc, R.dump_state(sc, t2), "AL"))
    bomb = OrderSheet.parse({"team": "AL", "side": "allied", "turn": 2, "lines": [],
                                      "air_orders": [{"mission": "bombing", "squadrons": 1, "target": "0608"}]})
    refused = R.validate(sc, view, "AL", bomb)  # the same check on either side, saying why
    assert [v.rule for v in refused] == [v.rule for v in R.validate(sc, t2, "AL", bomb)] == ["12"]
    assert "1 squadron of fighter-bomber or ground-attack asked for; 0 can fly" in refused[0].message
    assert "your cab rank keeps 4 in the air" in refused[0].message
    template = R.presenter().orders_template(sc, R.view(sc, R.dump_state(sc, t2), "AL"), "AL") or ""
    assert "Your cab rank is on call this turn too: 4 squadrons in the air" in template
    assert "0 fighter-bomber/ground-attack" in template
    attack = sheet("GE", {"units": ["e"], "intention": "attack", "objective": "0606"}, turn=2)
    t3, events = play(sc, prepared(t2, "e"), Dice(*[3] * 12), sheet("AL", turn=2), attack)
    fight = next(e for e in events if e["kind"] == "combat" and e["at"] == "0606")
    assert fight["air"] == "none" and "+6: superior air support" in fight["defender_lines"]
    assert R.describe_event(sc, fight).endswith("(air support [9, 12]: defender superior)")
    assert "with superior support from the air" in " ".join(t3.facts["b"].events)
    assert t3.cab_rank == {} and team_view(sc, t3, "AL")["cab_rank"] is None


def test_9_a_cab_rank_is_european_and_allied() -> None:
    england = [{"id": "us", "name": "P-47 group", "side": "allied", "role": "fighter-bomber", "squadrons": 3,
                "region": "england"},
               {"id": "jabo", "name": "Jabo", "side": "german", "role": "ground-attack", "squadrons": 2,
                "region": "germany"}]
    sc = scenario([unit("a", "AL", "inf", "0302"), unit("d", "GE", "weak", "0808")], air=england)
    st = R.initial_state(sc, {})
    v = R.validate(sc, st, "AL", air_sheet({"mission": "cab-rank", "squadrons": 2}))
    assert [x.rule for x in v] == ["9"] and "0 Europe-based" in v[0].message
    ge = OrderSheet.parse({"team": "GE", "side": "german", "turn": 1, "lines": [],
                                    "air_orders": [{"mission": "cab-rank", "squadrons": 2}]})
    assert any("cab rank is for the Allies" in x.message for x in R.validate(sc, st, "GE", ge))


def test_5_a_unit_resting_four_turns_out_of_contact_gets_a_step_back() -> None:
    # a (2 steps lost) rests out of contact: after turns 1, 2, 3 nothing; after turn 4 one step
    # back (1 lost), the count starts again. b rests too but d is beside it: no recovery.
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("b", "AL", "inf", "0505"), unit("d", "GE", "weak", "0506")],
                  turns=6)
    st = R.initial_state(sc, {})
    st = st.replace(units={**st.units, "a": st.units["a"].replace(steps=2),
                                         "b": st.units["b"].replace(steps=1)})
    rest = [{"units": ["a"], "intention": "hold", "posture": "rest"},
            {"units": ["b"], "intention": "hold", "posture": "rest"}]
    for turn in (1, 2, 3):
        st, _ = play(sc, st, Dice(*[3] * 6), sheet("AL", *rest, turn=turn), sheet("GE", turn=turn))
        assert (st.units["a"].steps, st.units["a"].rested, st.units["b"].rested) == (2, turn, 0)
    st, events = play(sc, st, Dice(*[3] * 6), sheet("AL", *rest, turn=4), sheet("GE", turn=4))
    assert (st.units["a"].steps, st.units["a"].rested, st.units["b"].steps) == (1, 0, 1)
    assert {"kind": "rested", "unit": "a"} in events
    assert "rested and recovered some of its fighting effectiveness" in st.facts["a"].events


def test_5_a_unit_at_rest_does_not_move_or_fight() -> None:
    sc = scenario([unit("a", "AL", "inf", "0101"), unit("d", "GE", "weak", "0808")])
    st = R.initial_state(sc, {})
    bad = sheet("AL", {"units": ["a"], "intention": "move", "posture": "rest", "route": ["0102"]})
    assert [v.rule for v in R.validate(sc, st, "AL", bad)] == ["5"]
    bad = sheet("AL", {"units": ["a"], "intention": "attack", "posture": "rest", "objective": "0808"})
    assert "5" in [v.rule for v in R.validate(sc, st, "AL", bad)]


def test_11_pbem_check_warns_of_an_attack_that_would_end_beyond_its_hqs_reach() -> None:
    # a's HQ h stands at 0301; a attacks along a route ending at 0307, 6 km from h: no supplies
    # would reach it there [11] while h holds. The same attack ending at 0306 (5 km) draws no warning,
    # nor does one whose HQ follows it, ordered or (rules version 3) left without orders.
    sc = scenario([unit("a", "AL", "inf", "0302", hq="h"), unit("h", "AL", "hq", "0301"),
                   unit("d", "GE", "weak", "0308")])
    view = R.view(sc, R.dump_state(sc, R.initial_state(sc, {})), "AL")
    p = R.presenter()

    def warn(*lines: dict[str, Any]) -> list[str]:
        return [w for w in p.undone(sc, view, "AL", {"lines": list(lines)}) if "supplies" in w]

    far = {"units": ["a"], "intention": "attack", "route": ["0303", "0304", "0305", "0306", "0307"]}
    hold = {"units": ["h"], "intention": "hold"}
    assert warn(far, hold) == ["a would end its move where no supplies reach it (its HQ (h) is 6 km away, more "
                               "than 5): it could not attack [11]"]
    assert warn({**far, "route": far["route"][:-1]}, hold) == []
    # rules version 3: h, given no orders, follows a to 0302, 5 km from 0307 [11]
    assert warn(far) == []
    assert warn(far, {"units": ["h"], "intention": "move", "route": ["0302", "0303"]}) == []


def test_9_a_bombed_road_point_strikes_every_unit_that_passes_through() -> None:
    # 4 squadrons bomb 0304, empty at the time (row 3-4: a step and pinned on a 6, pinned on 4-5).
    # d marches 0305 -> 0304 -> 0303 through it: die 6, a step lost and pinned at 0304. With a 3
    # it goes on to 0303.
    sc = scenario([unit("a", "AL", "inf", "0808"), unit("d", "GE", "weak", "0305")], air=AIR)
    st = R.initial_state(sc, {})
    march = sheet("GE", {"units": ["d"], "intention": "move", "route": ["0304", "0303"]})
    bomb = air_sheet({"mission": "bombing", "squadrons": 4, "target": "0304"})
    new, events = play(sc, st, Dice(6), bomb, march)
    assert (new.units["d"].hex, new.units["d"].steps) == ("0304", 1)
    assert {"kind": "interdiction-passing", "unit": "d", "at": "0304", "die": 6,
            "result": "step loss and immobilised"} in events
    assert "pinned down" in " ".join(new.facts["d"].events)
    new, _ = play(sc, st, Dice(3), bomb, march)
    assert (new.units["d"].hex, new.units["d"].steps) == ("0303", 0)


def test_the_log_says_a_unit_stopped_before_its_first_step_stays() -> None:
    """A unit stopped before it left its hex read 'moves 3607 and stops' in the log (a tester's
    finding, issue 27): it stays, and why."""
    from pbem.systems.megagame.words import describe_event

    stayed = {"kind": "moved", "unit": "3Para", "path": ["3607"], "stop": "in contact with the enemy [6]"}
    assert describe_event(stayed) == "3Para stays at 3607: in contact with the enemy [6]"
    moved = {"kind": "moved", "unit": "3Para", "path": ["3607", "3608"], "stop": "in contact [6]"}
    assert describe_event(moved) == "3Para moves 3607 3608 and stops: in contact [6]"
