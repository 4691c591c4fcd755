"""Rules version 3 of the megagame (issue 25, seed 004): air recce over an air zone, flown over the
turn's movement [12d]; artillery that moved gives reduced support, and none to an attack that went
in before it stopped [9 Supporting Artillery]; combined arms only in prepared attacks [9 note 2];
artillery on the interdiction table [9]; a team's map of its own moves and fights [10]. Each with chosen dice and values worked out from the text,
beside what rules version 2 (the frozen games of tests/compat/) keeps.

The tiny 8x8 map of test_megagame_rules (1 km hexes, Dorp at 0303): every hex of it is within the
15 km of a recce's air zone.
"""

from __future__ import annotations

from typing import Any

from pbem.maps.hexmap import Hex
from pbem.systems.megagame.mapview import map_view
from pbem.systems.megagame.model import MegaState, UnitState
from pbem.systems.megagame.rules import MegagameRules
from pbem.systems.megagame.view import team_view
from systems.megagame.test_megagame_air_rules3 import of_kind, play, tiny
from systems.megagame.test_megagame_rules import Dice, air_sheet, sheet, unit

V3 = MegagameRules()
V2 = MegagameRules().at_version("2")
RECCE = {"mission": "recce", "squadrons": 1, "target": "0808"}


def _prepared(st: MegaState, *uids: str) -> MegaState:
    return st.replace(units={k: UnitState(**{**v.to_json(), "prepared": k in uids})
                                           for k, v in st.units.items()})


def _combat(events: list[Any]) -> dict[str, Any]:
    return of_kind(events, "combat")[0]


# -- [12d] recce ---------------------------------------------------------------------------------------


def test_12d_recce_sees_the_moving_column_moving() -> None:
    # German tanks drive 3 km north, 0808 -> 0805. A recce over 0808, die 5. Version 3 flies it over
    # the movement: "Vehicles moving", 5 = "Direction and type": tanks, moving north, where they are
    # now. Version 2 flew before anything moved: tanks standing at 0808, "Vehicles stationary", 5 =
    # "Type reported".
    sc = tiny(unit("a", "AL", "inf", "0101"), unit("t", "GE", "tank", "0808"))
    drive = sheet("GE", {"units": ["t"], "intention": "move", "route": ["0807", "0806", "0805"]})
    new, events = play(V3, sc, V3.initial_state(sc, {}), Dice(5), air_sheet(RECCE), drive)
    assert of_kind(events, "recce") == [{"kind": "recce", "team": "AL", "at": "0808", "zone_km": 15, "looks": [
        {"hex": "0805", "die": 5, "target": "vehicles moving", "seen": "enemy spotted: tanks, moving north"}]}]
    assert new.intel["AL"] == ["air recce over the zone around 0808: enemy spotted: tanks, moving north at 0805"]
    old, _ = play(V2, sc, V2.initial_state(sc, {}), Dice(5), air_sheet(RECCE), drive)
    assert old.intel["AL"] == ["air recce over 0808: enemy spotted: tanks"]


def test_12d_infantry_standing_in_the_open_can_be_reported() -> None:
    # Not in cover, so not ignored; read on the stationary column: a 6 gives type and size
    # (status 6: about two battalions), a 3 nothing (the moving-infantry column would have said
    # "Enemy spotted" on a 3). In woods: cover, no die at all. Version 2: never reported.
    sc = tiny(unit("a", "AL", "inf", "0101"), unit("d", "GE", "inf", "0606"))
    st = V3.initial_state(sc, {})
    heard = []
    for die in (6, 3):
        new, _ = play(V3, sc, st, Dice(die), air_sheet(RECCE))
        heard.append(new.intel["AL"][0])
    assert heard == ["air recce over the zone around 0808: enemy spotted: infantry, about two battalions at 0606",
                     "air recce over the zone around 0808: no report"]
    sc_woods = tiny(unit("a", "AL", "inf", "0101"), unit("d", "GE", "inf", "0606"), terrain={"woods": ["0606"]})
    new, events = play(V3, sc_woods, V3.initial_state(sc_woods, {}), Dice(), air_sheet(RECCE))
    assert of_kind(events, "recce")[0]["looks"] == []
    sc2 = tiny(unit("a", "AL", "inf", "0101"), unit("d", "GE", "inf", "0808"))
    old, _ = play(V2, sc2, V2.initial_state(sc2, {}), Dice(6), air_sheet(RECCE))
    assert old.intel["AL"] == ["air recce over 0808: no report (infantry keeps still under cover)"]


# -- [9 Supporting Artillery] artillery that moved -----------------------------------------------------


def _gun_attack(gun_route: list[str], a_route: list[str] | None, a_hex: str = "0302") -> tuple[Any, Any]:
    """a (inf 6, prepared) attacks d (weak 4) at 0304; AL's guns (field, status 4, 8 km effective)
    drive down column 08 in road column (towed artillery: 75 km a turn), ending 5 km from 0304."""
    sc = tiny(unit("a", "AL", "inf", a_hex), unit("g", "AL", "guns", "0808"), unit("d", "GE", "weak", "0304"))
    st = _prepared(V3.initial_state(sc, {}), "a")
    attack: dict[str, Any] = {"units": ["a"], "intention": "attack", "objective": "0304"}
    if a_route:
        attack["route"] = a_route
    orders = sheet("AL", attack, {"units": ["g"], "intention": "move", "posture": "non-tactical", "route": gun_route})
    return sc, (st, orders)


def test_9_artillery_that_moved_gives_its_status_reduced_in_proportion() -> None:
    # a moves 1 km of its 15 (1/15 of the turn) and attacks; the guns moved 5 km of 75 (1/15): they
    # stopped as the attack went in and give 4 x 70/75 = 3.73..; 6 + 3.73 = 9.73, rounded down 9,
    # against 4; die 1: 6, a Limited Success. Version 2: a battery that moved gives nothing, 6 - 4 + 1
    # = 3, Confused Combat.
    sc, (st, orders) = _gun_attack(["0807", "0806", "0805", "0804", "0803"], ["0303"])
    new, events = play(V3, sc, st, Dice(1), orders)
    fight = _combat(events)
    assert (fight["artillery"], fight["attacker_score"], fight["defender_score"], fight["band"]) == \
        (["g"], 9, 4, "limited success")
    assert "g: moved this turn, 14/15 of its effect [9 Supporting Artillery]" in fight["attacker_lines"]
    assert new.supply["AL"] == 5 - 2  # the attack and the guns, a point each
    sc, (st2, orders) = _gun_attack(["0807", "0806", "0805", "0804", "0803"], ["0303"])
    old, events = play(V2, sc, V2.initial_state(sc, {}).replace(units=st2.units), Dice(1), orders)
    fight = _combat(events)
    assert (fight["artillery"], fight["attacker_score"], fight["band"]) == ([], 6, "confused combat")


def test_9_artillery_still_moving_when_the_attack_goes_in_gives_nothing() -> None:
    # 6 km of 75 (2/25 of the turn) is more than a's 1/15: the guns were still on the road. And the
    # text's example: an attack from where the attackers stood goes in at the start of the turn, so
    # the guns moving up give nothing either. Neither pays for shells: 6 - 4 + die 1 = 3.
    for gun_route, a_route, a_hex in ((["0807", "0806", "0805", "0804", "0803", "0802"], ["0303"], "0302"),
                                      (["0807", "0806", "0805"], None, "0303")):
        sc, (st, orders) = _gun_attack(gun_route, a_route, a_hex)
        new, events = play(V3, sc, st, Dice(1), orders)
        fight = _combat(events)
        assert (fight["artillery"], fight["attacker_score"], fight["band"]) == ([], 6, "confused combat")
        assert new.supply["AL"] == 5 - 1


# -- [9 note 2] combined arms ---------------------------------------------------------------------------


def test_9_combined_arms_only_in_prepared_attacks_not_in_defence() -> None:
    # g (inf 6) and t (tanks 5) hold 0303 with their guns (4) allocated to it, 3 km off: 15. Version 2
    # counted every battery in range and combined arms in defence too: +1 for each of the two, 17.
    # a (inf 6, prepared) in the open against tanks with no artillery: -1, 5; die 6.
    sc = tiny(unit("a", "AL", "inf", "0302"), unit("g", "GE", "inf", "0303"), unit("t", "GE", "tank", "0303"),
              unit("b", "GE", "guns", "0306"))
    attack = sheet("AL", {"units": ["a"], "intention": "attack", "objective": "0303"})
    hold = sheet("GE", {"units": ["b"], "intention": "hold", "defend": ["0303"]})
    scores = {}
    for rules in (V3, V2):
        _, events = play(rules, sc, _prepared(rules.initial_state(sc, {}), "a"), Dice(6), attack, hold)
        fight = _combat(events)
        scores[rules.version] = (fight["attacker_score"], fight["defender_score"],
                                 any("combined arms" in x for x in fight["defender_lines"]))
    assert scores == {"3": (5, 15, False), "2": (5, 17, True)}


# -- [9 interdiction table] artillery battalions on a map square ------------------------------------------


def test_9_interdiction_artillery_battalions_per_map_square() -> None:
    # One battery on 0606: the "1-2" row, a step lost and immobilised on 6, immobilised on 5, no
    # effect on 4; three batteries: the "3-4" row, immobilised on 4. Each pays its supply point.
    for guns, die, result in ((["g1"], 6, "step loss and immobilised"), (["g1"], 4, "no effect"),
                              (["g1", "g2", "g3"], 4, "immobilised")):
        sc = tiny(unit("g1", "AL", "guns", "0101"), unit("g2", "AL", "guns", "0102"), unit("g3", "AL", "guns", "0103"),
                  unit("d", "GE", "inf", "0606"))
        new, events = play(V3, sc, V3.initial_state(sc, {}), Dice(die),
                           sheet("AL", {"units": guns, "intention": "hold", "interdict": "0606"}),
                           sheet("GE", {"units": ["d"], "intention": "move", "route": ["0607", "0608"]}))
        hit = of_kind(events, "interdiction")[0]
        assert (hit["by"], hit["battalions"], hit["hits"]) == ("artillery", len(guns),
                                                             [{"unit": "d", "die": die, "result": result}])
        assert new.supply["AL"] == 5 - len(guns)
        assert new.units["d"].hex == ("0608" if result == "no effect" else "0606")  # pinned down: no move
        assert new.units["d"].steps == (1 if result.startswith("step") else 0)


def test_9_interdiction_artillery_fire_stays_on_the_hex_for_units_passing() -> None:
    # "The effect is therefore on every unit that tries to pass through": e drives through 0706,
    # shelled by one battery (7 km off); die 5 on the 1-2 row: immobilised, it stops there.
    sc = tiny(unit("g1", "AL", "guns", "0101"), unit("a", "AL", "inf", "0102"), unit("e", "GE", "inf", "0708"))
    new, events = play(V3, sc, V3.initial_state(sc, {}), Dice(5),
                       sheet("AL", {"units": ["g1"], "intention": "hold", "interdict": "0706"}),
                       sheet("GE", {"units": ["e"], "intention": "move", "route": ["0707", "0706", "0705"]}))
    assert of_kind(events, "interdiction")[0]["hits"] == []
    assert of_kind(events, "interdiction-passing") == [{"kind": "interdiction-passing", "unit": "e", "at": "0706",
                                                        "die": 5, "result": "immobilised"}]
    assert new.units["e"].hex == "0706"
    # what struck the hex is what the unit hears: artillery, not air power ("Tanks, artillery and air
    # power MUST be mentioned" [10]; it read "attacked from the air" before)
    (moved,) = [e for e in of_kind(events, "moved") if e["unit"] == "e"]
    assert moved["stop"] == "came under artillery fire passing 0706: pinned down [9]"
    assert not any("from the air" in line for line in new.facts["e"].events)
    assert any("artillery" in line for line in new.facts["e"].events)


def test_9_interdiction_by_artillery_is_checked_on_the_sheet() -> None:
    sc = tiny(unit("g1", "AL", "guns", "0101"), unit("a", "AL", "inf", "0102"), unit("d", "GE", "inf", "0808"))
    st = V3.initial_state(sc, {})

    def refused(rules: MegagameRules, line: dict[str, Any]) -> list[str]:
        return [f"{v.rule}: {v.message}" for v in rules.validate(sc, st, "AL", sheet("AL", line))]

    assert refused(V3, {"units": ["g1"], "intention": "hold", "interdict": "0808"}) == []  # 7 km: in range
    assert refused(V3, {"units": ["a"], "intention": "hold", "interdict": "0808"}) == [
        "9: a: only artillery fires on the interdiction table, not a"]
    assert refused(V3, {"units": ["g1"], "intention": "move", "posture": "non-tactical", "route": ["0201"],
                      "interdict": "0808"}) == [
        "9: g1: artillery interdicting a hex stays where it is and does nothing else that turn (no route, attack, "
        "counter-battery or defence)"]
    assert refused(V3, {"units": ["g1"], "intention": "hold", "interdict": "0909"}) == [
        "9: g1: artillery interdicts a hex of the map, not '0909'"]
    assert refused(V2, {"units": ["g1"], "intention": "hold", "interdict": "0808"}) == [
        "9: g1: artillery fires on the interdiction table from rules version 3 on; this game plays version 2"]
    doc = V3.presenter().parse_text_orders(sc, V3.skeleton(sc, st, "AL"), "AL", "g1: hold, interdict 0808\n")
    assert doc["lines"][0]["interdict"] == "0808"


# -- [10] a team's map: its own moves and fights of last turn ------------------------------------------------


def test_10_a_team_s_map_shows_where_its_units_went_and_fought_last_turn() -> None:
    # a marches 0301 -> 0302 -> 0303 and attacks d at 0304, unprepared: 6 - 2 = 4 against 4, die 2:
    # Confused Combat, both stay. AL's next view holds a's way and the fight at 0304; GE's the fight
    # (d did not move). Version 2's views and facts keep neither key.
    sc = tiny(unit("a", "AL", "inf", "0301"), unit("d", "GE", "weak", "0304"))
    attack = sheet("AL", {"units": ["a"], "intention": "attack", "route": ["0302", "0303"]})
    new, events = play(V3, sc, V3.initial_state(sc, {}), Dice(2), attack)
    assert _combat(events)["band"] == "confused combat"
    al, ge = team_view(sc, new, "AL"), team_view(sc, new, "GE")
    assert (al["moves"], al["fights"]) == ({"a": ["0301", "0302", "0303"]}, ["0304"])
    assert "moves" not in ge and ge["fights"] == ["0304"]
    drawn = map_view(sc, al, side="AL")
    assert [(type(m).__name__, getattr(m, "path", getattr(m, "defenders", None))) for m in drawn.marks] == [
        ("MoveMark", (Hex.parse("0301"), Hex.parse("0302"), Hex.parse("0303"))), ("CombatMark", (Hex.parse("0304"),))]
    old, _ = play(V2, sc, V2.initial_state(sc, {}), Dice(2), attack)
    assert "moves" not in team_view(sc, old, "AL") and "fights" not in team_view(sc, old, "AL")
    assert "path" not in old.facts["a"].to_json() and map_view(sc, team_view(sc, old, "AL"), side="AL").marks == ()
