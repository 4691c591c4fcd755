"""Issue 27, the megagame's preview against the resolution (seed 004): what a team sees before it
signs its sheet (the preview's order lines, "Before any die is rolled" and "Left undone") is what
Game Control's adjudication of the same sheet then does to the team's own units, for everything
that depends on no die and on no enemy:

* [6] a move ends at the last hex of its route, a kilometre a hex of the 1 km map; a train takes
  "a turn" to board for infantry;
* [5] a unit that rests out of contact and does not move counts a turn of rest;
* [9] "Attach a battalion to a different division takes 1 turn.";
* [9, 11] "ANY ARTILLERY USE 1 Supply point per unit", a mechanised unit 1 fuel point a turn it
  moves, drawn from its HQ's stack "provided it is within 5km" (rules version 3), else from the
  team's supplies (version 2, and units without an HQ);
* [5] a unit without a line stays where it is.

The tiny 1 km map of test_megagame_rules.py: in one column the distance is the difference of the
rows. The enemy (d at 0808) is 5 km and more from every Allied unit all turn: no contact, and no
die is rolled (the dice given are empty: any roll would fail the test).
"""

from __future__ import annotations

import re
from typing import Any

from pbem.engine.play.orders import Preview
from pbem.systems.megagame.model import MegaScenario, MegaState, TeamView
from pbem.systems.megagame.orders import OrderSheet
from pbem.systems.megagame.view import team_view
from systems.megagame.test_megagame_rules import R2, Dice, R, play, scenario, sheet, unit
from systems.megagame.test_megagame_supply_and_trains import STACK_TYPES, rail

RAIL = [{"kind": "railway", "name": "the line", "hexes": ["0101", "0201", "0301", "0401", "0501", "0601", "0701"]}]


def desk() -> MegaScenario:
    """h (HQ, lift 4, holding 3) at 0301; a (infantry) and t (tanks) at 0302 under h; t2 (tanks) at
    0306 under h; g (field guns) at 0201 under h; r (no HQ, of 2 Div) at 0105; b (under h) at 0104;
    e (infantry, no HQ) on the railway at 0501; trains for 25 unit points a turn [6]."""
    units = [unit("h", "AL", "hq4", "0301", stock=3), unit("a", "AL", "inf", "0302", hq="h"),
             unit("t", "AL", "tank", "0302", hq="h"), unit("t2", "AL", "tank", "0306", hq="h"),
             unit("g", "AL", "guns", "0201", hq="h"), unit("r", "AL", "inf", "0105", division="2 Div"),
             unit("b", "AL", "inf", "0104", hq="h"), unit("e", "AL", "inf", "0501"),
             unit("d", "GE", "weak", "0808")]
    data = scenario(units, types=STACK_TYPES, trains={"allied": 25},
                    terrain={"town": ["0501", "0701"]}).to_json()
    data["map"]["railways"] = RAIL
    return R.load_scenario(data)


LINES: list[dict[str, Any]] = [
    {"units": ["a", "t"], "intention": "move", "route": ["0303", "0304"]},
    {"units": ["t2"], "intention": "move", "route": ["0307"]},
    {"units": ["g"], "intention": "hold", "interdict": "0606"},
    {"units": ["r"], "intention": "hold", "posture": "rest"},
    {"units": ["b"], "intention": "hold", "attach": "2 Div"},
    {"units": ["e"], "intention": "move", "rail_to": "0701"},
]


def team_preview(rules: Any, sc: MegaScenario, lines: list[dict[str, Any]], st: MegaState | None = None,
                 team: str = "AL") -> tuple[OrderSheet, Preview]:
    """The preview ``team``'s pbem shows (``pbem check``, ``submit``), from the team's view of ``st``
    (the first turn's by default)."""
    st = st if st is not None else rules.initial_state(sc, {})
    view = TeamView.parse(team_view(sc, st, team, rules3=rules.since("3")))
    orders = sheet(team, *lines, turn=st.turn)
    assert rules.validate(sc, view, team, orders) == []
    doc = orders.to_json()
    p = rules.presenter()
    return orders, Preview(team, st.turn, "orders", doc, p.describe_orders_at(sc, view, doc),
                           p.undone(sc, view, team, doc), p.expected(sc, view, team, doc))


def test_27_the_megagame_preview_states_what_the_round_then_does_to_the_teams_units() -> None:
    sc = desk()
    orders, preview = team_preview(R, sc, LINES)
    # every line of the sheet as it is signed [5]
    assert preview.lines == [
        "a, t: move, tactical via 0303 0304, whole turn [5]",
        "t2: move, tactical via 0307, whole turn [5]",
        "g: hold, interdicting 0606 [9], tactical, whole turn [5]",
        "r: hold, rest, whole turn [5]",
        "b: hold, attached to 2 Div (it takes the turn) [9], tactical, whole turn [5]",
        "e: move, tactical, by rail to 0701 [6], whole turn [5]",
    ]
    # before any die: a and t go 0302 -> 0303 -> 0304, 2 km; t2 1 km. h at 0301 is 3 km from 0304
    # (t's fuel) and 1 km from g at 0201 (g's shell): 2 points of the 3 it holds, 1 left. t2 ends at 0307,
    # 6 km from h: no fuel reaches it. e is infantry: one turn boarding.
    assert preview.expected == [
        "a, t move 2 km, via 0303 0304, ending at 0304 unless the enemy is met on the way [6]",
        "t2 moves 1 km, via 0307, ending at 0307 unless the enemy is met on the way [6]",
        "r rests: a turn of rest that counts towards recovering, if out of contact and not fighting [5]",
        "b fights with its own division this turn, with 2 Div from the next [9]",
        "e spends this turn boarding a train for 0701: aboard at its end, travelling the next turn [6]",
        "2 supply points from h's stack, which holds 3: t (fuel for its move), g (shelling 0606) [9, 11]",
        "t2 draws nothing for fuel for its move: its HQ (h) is 6 km away, more than 5; it moves, and fights "
        "as a mechanised unit with no fuel if it fights [9, 11]",
    ]
    assert preview.undone == ["no orders for h: they stay where they are [5]"]
    text = preview.text()
    assert "Before any die is rolled:" in text and "Left undone:" in text
    # [10] no status number: the profiles' figures (6-5-4..., 4-3-2...) and the word never appear
    assert "status" not in text and not re.search(r"\d-\d", text)

    # Game Control adjudicates the same sheet; no die may be needed (Dice() is empty)
    dice = Dice()
    new, events = play(sc, R.initial_state(sc, {}), dice, orders)
    assert dice.labels == [] and not any(e["kind"] == "combat" for e in events)
    moves = {e["unit"]: e["path"] for e in events if e["kind"] == "moved"}
    assert moves["a"] == moves["t"] == ["0302", "0303", "0304"] and moves["t2"] == ["0306", "0307"]
    assert [new.units[u].hex for u in ("a", "t", "t2", "h", "g", "r", "b", "e")] == [
        "0304", "0304", "0307", "0301", "0201", "0105", "0104", "0501"]
    # t's fuel and g's shell from h, none for t2 (out of reach though h has a point left), none from the team
    assert new.units["h"].stock == 1 and new.supply["AL"] == 5
    assert new.units["g"].fired == 1
    assert new.units["r"].rested == 1
    assert new.attached == {"b": "2 Div"}
    rail = new.units["e"].rail
    assert rail is not None and rail.phase == "travelling" and rail.to == "0701"


def test_27_version_2_previews_every_draw_from_the_teams_supplies_as_it_resolves() -> None:
    # version 2 (the frozen games): no HQ stacks, no interdiction; t's and t2's fuel both come off the
    # team's 5 points, whatever the distance to h: 5 - 2 = 3.
    sc = desk()
    lines = LINES[:2]
    orders, preview = team_preview(R2, sc, lines)
    assert preview.expected == [
        "a, t move 2 km, via 0303 0304, ending at 0304 unless the enemy is met on the way [6]",
        "t2 moves 1 km, via 0307, ending at 0307 unless the enemy is met on the way [6]",
        "2 supply points from the team's own supplies, which holds 5: t (fuel for its move), "
        "t2 (fuel for its move) [9, 11]",
    ]
    dice = Dice()
    new, _ = play(sc, R2.initial_state(sc, {}), dice, orders, rules=R2)
    assert dice.labels == [] and new.supply["AL"] == 3
    assert (new.units["t"].hex, new.units["t2"].hex) == ("0304", "0307")


def test_27_an_attack_previews_its_point_from_where_it_is_drawn() -> None:
    # a (under h, 1 km from it) attacks d in contact; c (no HQ) attacks f in contact: up to 1 point
    # from h's stack and up to 1 from the team's own supplies [9, 11]. Resolved: both attacks go in
    # (one die each), h 2 - 1 = 1 and the team 5 - 1 = 4 -- unless the loser's results take more, which
    # a confused combat does not [9 results table].
    sc = scenario([unit("h", "AL", "hq4", "0301", stock=2), unit("a", "AL", "inf", "0302", hq="h"),
                   unit("c", "AL", "inf", "0306"), unit("d", "GE", "weak", "0303"),
                   unit("f", "GE", "weak", "0307")], types=STACK_TYPES)
    lines: list[dict[str, Any]] = [{"units": ["a"], "intention": "attack"}, {"units": ["c"], "intention": "attack"}]
    orders, preview = team_preview(R, sc, lines)
    assert preview.expected == [
        "up to 1 supply point from h's stack, which holds 2: a (its attack, if it goes in) [9, 11]",
        "up to 1 supply point from the team's own supplies, which holds 5: c (its attack, if it goes in) [9, 11]",
    ]
    # unprepared, 6 - 2 = 4 against 4 each: die 2 on both, a confused combat [9]
    new, events = play(sc, R.initial_state(sc, {}), Dice(2, 2), orders)
    assert [e["band"] for e in events if e["kind"] == "combat"] == ["confused combat"] * 2
    assert (new.units["h"].stock, new.supply["AL"]) == (1, 4)


def test_27_an_attack_that_meets_nobody_draws_nothing_as_its_preview_says() -> None:
    # k (tanks, under h, 1 km from it) is ordered to attack with no enemy in contact: its preview gives
    # its attack point and its fuel "if it goes in" / "if it fights"; no combat, so h keeps its 2 [9, 11].
    sc = scenario([unit("h", "AL", "hq4", "0301", stock=2), unit("k", "AL", "tank", "0302", hq="h"),
                   unit("d", "GE", "weak", "0808")], types=STACK_TYPES)
    orders, preview = team_preview(R, sc, [{"units": ["k"], "intention": "attack"}])
    assert preview.expected == ["up to 2 supply points from h's stack, which holds 2: k (its attack, if it goes "
                                "in), k (fuel, if it fights) [9, 11]"]
    dice = Dice()
    new, events = play(sc, R.initial_state(sc, {}), dice, orders)
    assert dice.labels == [] and not any(e["kind"] == "combat" for e in events)
    assert (new.units["k"].hex, new.units["h"].stock) == ("0302", 2)


def test_27_a_train_journey_previewed_turn_by_turn_as_it_goes() -> None:
    # The line 0101-0701 (towns at both ends); g, German infantry, at 0101 [6]. Turn 1 it boards for
    # 0601 (infantry: a turn); turn 2 it travels; turn 3 it gets off in the first half (version 3) and
    # moves at most half its 15 km tactical move: 4 km to 0605 [6]. Each turn's preview says so, and
    # the round then does it. No enemy within reach (a at 0105 is 5 km and more from 0601 ... 0605, five
    # columns away), and no die.
    sc = rail()
    orders, preview = team_preview(R, sc, [{"units": ["g"], "intention": "move", "rail_to": "0601"}], team="GE")
    assert preview.expected == ["g spends this turn boarding a train for 0601: aboard at its end, "
                                "travelling the next turn [6]"]
    t2, _ = play(sc, R.initial_state(sc, {}), Dice(), orders)
    _, preview = team_preview(R, sc, [], t2, team="GE")
    assert preview.expected == ["g travels by rail to 0601 this turn if the line there is open and not in the "
                                "enemy's hands (else it stays where it boarded): no orders this turn [6]"]
    assert preview.undone == []  # a unit on the railway takes no orders: nothing left undone
    t3, events = play(sc, t2, Dice(), sheet("GE", turn=2))
    assert t3.units["g"].hex == "0601" and {"kind": "rail", "unit": "g", "from": "0101", "to": "0601"} in events
    route = ["0602", "0603", "0604", "0605"]
    orders, preview = team_preview(R, sc, [{"units": ["g"], "intention": "move", "route": route}], t3, team="GE")
    assert preview.expected == [
        "g gets off its train in the first half of this turn: the second half is its own, at most half its move [6]",
        "g moves 4 km, via 0602 0603 0604 0605, ending at 0605 unless the enemy is met on the way [6]",
    ]
    t4, _ = play(sc, t3, Dice(), orders)
    assert (t4.units["g"].hex, t4.units["g"].rail) == ("0605", None)
