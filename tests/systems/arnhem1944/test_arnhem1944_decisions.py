"""Arnhem 1944, issue 12: the choices a rule leaves to a player after a roll are orders written
in advance -- the defender's standing orders (retreat path [7.6], split of a result [7.5]), the
attacker's conditions in its attack -- each with its documented default. Tiny hand-built
scenarios (the map of tests/systems/arnhem1944/test_arnhem1944_rules.py) with fixed dice, hand-computed expectations."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import InputError
from pbem.protocol.dice import FixedDice
from pbem.systems.arnhem1944.state import Standing
from pbem.systems.arnhem1944.words import standing_lines
from systems.arnhem1944.test_arnhem1944_rules import RULES, A, G, act, game, unit

P = RULES.presenter()
BIG = unit("big", "AL", "1AB", cf=6)


def _retreat(res: Any, uid: str) -> list[str]:
    return next(e["path"] for e in res.events
                if e["kind"] == "retreated" and uid in e["units"])


# -- the retreat path [7.6] --------------------------------------------------------------------------


def _attack_from_0501() -> tuple[Any, Any, Any]:
    # big (CF 6) at 0501 attacks g (CF 3) at 0502 in clear: 6:3 is 2:1; die 5 on the normal
    # line gives 0/2: g takes no step (not red) and retreats two hexes [7.4, 7.5]. From 0502
    # (enemy only at 0501, its zone 0401 0402 0502 0601 0602 [4.2]) the hexes free of that zone,
    # all clear, furthest from 0501 (two hexes) are 0402, 0503 and 0602 [7.6]
    sc, st = game([(BIG, "0501"), (G, "0502")])
    orders = act(sc, "AL", ["big"], {"do": "attack", "target": "0502", "type": "N",
                                     "units": ["big"]})
    return sc, st, orders


def test_7_6_retreat_default_is_the_first_hex_by_number_among_equals() -> None:
    # default: 0402 (lowest number), then from 0402 the equals 0303 and 0403: 0303
    sc, st, orders = _attack_from_0501()
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert (combat["odds"], combat["result"]) == ("2:1", "0/2")
    assert _retreat(res, "g") == ["0402", "0303"]
    assert res.state.units["g"].hex == "0303"


def test_7_6_a_standing_retreat_order_steers_among_the_hexes_the_priorities_allow() -> None:
    # towards 0603: 0503 and 0602 are both one hex from it, 0402 two: 0503 (by number); then
    # from 0503 the equals 0403 and 0603: 0603 (distance 0) [7.6]
    sc, st, orders = _attack_from_0501()
    st.standing["DE"] = Standing(retreat={"*": "0603"})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert _retreat(res, "g") == ["0503", "0603"]
    # towards the enemy's own hex 0501: the priorities still come first -- 0501 is never entered
    # and 0401 (in big's zone) is not among the equals; of 0402 0503 0602, 0402 and 0602 are
    # one hex from 0501: 0402; then 0303 or 0403, both two from 0501: 0303
    st.standing["DE"] = Standing(retreat={"*": "0501"})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert _retreat(res, "g") == ["0402", "0303"]


def test_7_6_a_unit_order_comes_before_its_hex_order_before_the_general_one() -> None:
    sc, st, orders = _attack_from_0501()
    st.standing["DE"] = Standing(retreat={"*": "0402", "0502": "0603", "g": "0602"})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert _retreat(res, "g") == ["0602", "0603"]  # g's own order: 0602, then only 0603
    st.standing["DE"] = Standing(retreat={"*": "0402", "0502": "0603"})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert _retreat(res, "g") == ["0503", "0603"]  # the order for the stack at 0502


def test_7_6_an_attack_towards_steers_the_attackers_own_retreat() -> None:
    # a (CF 3) mobile assault on g (CF 3) at 0401: 1:1, die 1: 2/0; the attack table's minimum
    # for a mobile assault is one step: a loses 1 and retreats 1 [7.5]. From 0302 the equals are
    # 0201 0202 0303 (out of g's zone, clear or town or road at cost 1, two from 0401) [7.6]
    sc, st = game([(A, "0302"), (G, "0401")])
    plain = act(sc, "AL", ["a"], {"do": "attack", "target": "0401", "type": "M", "units": ["a"]})
    res = RULES.resolve(sc, st, "AL", plain, FixedDice([1]))
    assert _retreat(res, "a") == ["0201"]
    steered = act(sc, "AL", ["a"], {"do": "attack", "target": "0401", "type": "M",
                                    "units": ["a"], "towards": "0303"})
    res = RULES.resolve(sc, st, "AL", steered, FixedDice([1]))
    assert _retreat(res, "a") == ["0303"] and res.state.units["a"].steps == 1


def test_7_6_retreat_orders_in_text_and_in_words() -> None:
    sc, st = game([(A, "0302"), (G, "0401")])
    doc = P.parse_text_orders(sc, {"kind": "pass", "side": "AL"}, "AL",
                              "activate: a\nattack 0401 mobile with a towards 0303\n"
                              "retreat a towards 0102\nretreat 0302 towards 0103\n"
                              "retreat towards 0101\n")
    assert doc["actions"][0]["towards"] == "0303"
    assert doc["standing"]["retreat"] == {"a": "0102", "0302": "0103", "*": "0101"}
    orders = RULES.load_orders(sc, doc)
    assert RULES.validate(sc, st, "AL", orders) == []
    lines = standing_lines(doc["standing"])
    assert "a retreats towards 0102 among the hexes the priorities allow [7.6]" in lines
    assert "the stack at 0302 retreats towards 0103 among the hexes the priorities allow [7.6]" \
        in lines
    with pytest.raises(InputError, match=r"\[7\.6\]"):
        P.parse_text_orders(sc, {"kind": "pass", "side": "AL"}, "AL", "retreat a 0102\n")
    # an order for a unit not the side's own, or towards a hex off the map, is refused [7.6]
    bad = RULES.load_orders(sc, {"kind": "pass", "side": "AL",
                                 "standing": {"retreat": {"g": "0102", "a": "0909"}}})
    assert [str(v) for v in RULES.validate(sc, st, "AL", bad)] == [
        "retreat order for a: 0909 is not on the map [7.6]",
        "retreat order for g: not one of your units nor a hex of the map [7.6]"]


# -- splitting a result between step losses and retreat [7.5] ------------------------------------------


def _steps_and_path(res: Any, uid: str) -> tuple[int, list[str]]:
    path = next((e["path"] for e in res.events
                 if e["kind"] == "retreated" and uid in e["units"]), [])
    return res.state.units[uid].steps, path


def test_7_5_the_defender_default_takes_the_minimum_and_retreats_the_rest() -> None:
    sc, st, orders = _attack_from_0501()  # 0/2, not red: no compulsory step
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert _steps_and_path(res, "g") == (2, ["0402", "0303"])


def test_7_5_a_standing_lose_order_takes_up_to_n_steps_before_retreating() -> None:
    sc, st, orders = _attack_from_0501()
    st.standing["DE"] = Standing(lose=1)  # 0/2: one step, then one hex
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert _steps_and_path(res, "g") == (1, ["0402"])
    st.standing["DE"] = Standing(lose=2)  # both points as steps: g (2 steps) is eliminated
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert res.state.units["g"].steps == 0
    assert not any(e["kind"] == "retreated" for e in res.events)


def test_7_5_keep_stops_optional_losses_but_never_the_compulsory_ones() -> None:
    sc, st, orders = _attack_from_0501()
    st.standing["DE"] = Standing(defence="hold", keep=1)  # hold, but keep 1 of g's 2 steps
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5]))
    assert _steps_and_path(res, "g") == (1, ["0402"])
    # a (CF 3) with art's BV 4 against g (CF 3): 7:3 rounds up to 3:1; die 6 on N: 0/3r.
    # keep 2 would refuse every loss, but red compels one: g loses 1, retreats 2 [7.5, 8.2]
    art = unit("art", "AL", "1AB", kind="artillery", arm="artillery", mobility="motorized",
               cf=0, armour=1, steps=1, mp=4, br=4, df=2, range=3)
    sc, st = game([(A, "0302"), (art, "0201"), (G, "0401")])
    st.standing["DE"] = Standing(lose=3, keep=2)
    red = act(sc, "AL", ["a", "art"], {"do": "attack", "target": "0401", "type": "N",
                                       "units": ["a"], "support": ["art"]})
    res = RULES.resolve(sc, st, "AL", red, FixedDice([6]))
    steps, path = _steps_and_path(res, "g")
    assert next(e["result"] for e in res.events if e["kind"] == "combat") == "0/3r"
    assert steps == 1 and len(path) == 2


def test_7_5_with_morale_only_the_steps_the_order_asks_for_are_tested() -> None:
    # the optional morale rule: g's order asks for one step beyond the minimum (none) of 0/2,
    # so one test: 2+2 = 4 is less than g's morale 7: one step, then one hex [7.5 optional]
    sc, st = game([(BIG, "0501"), (G, "0502")], morale=True)
    st.standing["DE"] = Standing(lose=1)
    orders = act(sc, "AL", ["big"], {"do": "attack", "target": "0502", "type": "N",
                                     "units": ["big"]})
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([5, 2, 2]))
    morale = next(e for e in res.events if e["kind"] == "morale")
    assert (morale["rolls"], morale["steps"], morale["hexes"]) == ([[2, 2]], 1, 1)
    assert _steps_and_path(res, "g") == (1, ["0402"])


WEAK = unit("w", "AL", "1AB", cf=1)


def _weak_attack(**extra: Any) -> tuple[Any, Any, Any]:
    # w (CF 1) attacks g (CF 3) at 0401: 1:3; die 2 on the normal line: 2/0, not red, and the
    # attack table asks no minimum of a normal attack: w may retreat two hexes [7.5]
    sc, st = game([(WEAK, "0302"), (G, "0401")])
    orders = act(sc, "AL", ["w"], {"do": "attack", "target": "0401", "type": "N",
                                   "units": ["w"], **extra})
    return sc, st, orders


def test_7_5_the_attacker_default_and_its_lose_order() -> None:
    sc, st, orders = _weak_attack()
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([2]))
    assert next(e["result"] for e in res.events if e["kind"] == "combat") == "2/0"
    steps, path = _steps_and_path(res, "w")
    assert steps == 2 and len(path) == 2
    sc, st, orders = _weak_attack(lose=1)
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([2]))
    steps, path = _steps_and_path(res, "w")
    assert steps == 1 and len(path) == 1


def test_7_5_the_attackers_condition_decides_between_hold_and_its_lose_order() -> None:
    # hold_if: "if g was eliminated" -- it was not (2/0): the lose order applies (1 step, 1 hex);
    # hold_if on the combat event at 0401 holds: both points as steps, w is eliminated
    cond_no = {"event": "eliminated", "unit": "g"}
    sc, st, orders = _weak_attack(lose=1, hold_if=cond_no)
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([2]))
    assert _steps_and_path(res, "w")[0] == 1
    cond_yes = {"event": "combat", "target": "0401"}
    sc, st, orders = _weak_attack(lose=1, hold_if=cond_yes)
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([2]))
    assert res.state.units["w"].steps == 0


def test_7_5_split_orders_in_text_and_in_words() -> None:
    sc, st = game([(A, "0302"), (G, "0401")])
    doc = P.parse_text_orders(sc, {"kind": "pass", "side": "AL"}, "AL",
                              "activate: a\nattack 0401 normal with a lose 1\n"
                              "defend lose 2\ndefend keep 1\n")
    assert doc["actions"][0]["lose"] == 1
    assert doc["standing"] == {"lose": 2, "keep": 1}
    assert RULES.validate(sc, st, "AL", RULES.load_orders(sc, doc)) == []
    assert standing_lines(doc["standing"]) == [
        "when attacked, take up to 2 step losses (the compulsory ones included) and retreat for the "
        "rest of the result [7.5]",
        "but never a step loss the result does not compel that leaves a stack with fewer than 1 "
        "step [7.5]"]
    # [27] the whole standing orders (defaults included, as a preview shows them) say it once: not
    # "retreat rather than lose steps" and then "take up to 2 step losses"
    full = Standing.parse(doc["standing"]).to_json()
    assert standing_lines(full) == standing_lines(doc["standing"])
    with pytest.raises(InputError, match=r"\[7\.5\]"):
        P.parse_text_orders(sc, {"kind": "pass", "side": "AL"}, "AL", "defend lose many\n")


# -- the 1st Airborne's set-up round its drop zone [17.1, 15.2] -------------------------------------


def _dropped_setup(n: int = 4, enemy: str = "0606") -> tuple[Any, Any]:
    """``n`` 1AB units (2 steps each) set up within one hex of 0203 on clear ground (the text's
    procedure for the 1st Airborne, the radius made 1 for the tiny map); g at ``enemy``."""
    from systems.arnhem1944.test_arnhem1944_rules import scenario_data

    units = [unit(f"p{i}", "AL", "1AB") for i in range(1, n + 1)]
    data = scenario_data([*[(u, "0203") for u in units], (G, enemy)])
    for p in data["setup"]:
        if p["unit"].startswith("p"):
            p.update(within=1, terrain=["clear"])
    sc = RULES.load_scenario(data)
    return sc, RULES.initial_state(sc, {})


def test_17_1_the_set_up_is_the_allied_players_decision_before_the_first_activation() -> None:
    sc, st = _dropped_setup()
    assert st.phase == "setup"
    [d] = RULES.pending(sc, st)
    assert (d.side, d.kind, d.random) == ("AL", "setup", False)
    # the proposal: hexes within 1 of 0203 in number order, clear (0202 is a town), each filled
    # to the stacking limit of 6 steps: 0103 takes p1 p2 p3, 0104 takes p4 [15.2, 5]
    sk = RULES.skeleton(sc, st, "AL")
    assert sk["kind"] == "setup" and sk["placements"] == [
        {"unit": "p1", "hex": "0103"}, {"unit": "p2", "hex": "0103"},
        {"unit": "p3", "hex": "0103"}, {"unit": "p4", "hex": "0104"}]
    # a placement of one unit; the others stay where proposed; then AL's first activation
    orders = RULES.load_orders(sc, {"kind": "setup", "side": "AL",
                                    "placements": [{"unit": "p3", "hex": "0304"}]})
    assert RULES.validate(sc, st, "AL", orders) == []
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([]))
    assert res.state.phase == "operations"
    assert {u: res.state.units[u].hex for u in ("p1", "p2", "p3", "p4")} == {
        "p1": "0103", "p2": "0103", "p3": "0304", "p4": "0104"}
    assert [(x.side, x.kind) for x in RULES.pending(sc, res.state)] == [("AL", "activation")]
    assert res.state.owed is None  # no dice: nobody owes a pass
    # an activation is not what is due first
    first = act(sc, "AL", ["p1"], {"do": "move", "unit": "p1", "path": ["0102"]})
    assert [v.rule for v in RULES.validate(sc, st, "AL", first)] == ["2.1"]


def test_27_17_1_the_set_up_preview_names_the_placements_signed_without_being_written() -> None:
    """[17.1, 27] orders that place p3 also sign p1, p2 and p4 where pbem proposed them: the
    preview says so, with the hexes the resolution then puts them in."""
    sc, st = _dropped_setup()
    written = {"kind": "setup", "side": "AL", "placements": [{"unit": "p3", "hex": "0304"}]}
    said = RULES.presenter().undone(sc, st, "AL", written)
    assert said == ["3 other units of the set-up stay where pbem proposed, signed with these orders: "
                    "p1 at 0103, p2 at 0103, p4 at 0104 [17.1]"]
    res = RULES.resolve(sc, st, "AL", RULES.load_orders(sc, written), FixedDice([]))
    assert {u: res.state.units[u].hex for u in ("p1", "p2", "p4")} == {"p1": "0103", "p2": "0103", "p4": "0104"}


def _problems(sc: Any, st: Any, *placements: tuple[str, str]) -> list[str]:
    orders = RULES.load_orders(sc, {"kind": "setup", "side": "AL", "placements": [
        {"unit": u, "hex": h} for u, h in placements]})
    return [str(v) for v in RULES.validate(sc, st, "AL", orders)]


def test_17_1_a_set_up_is_checked_against_the_drop_procedure_and_stacking() -> None:
    sc, st = _dropped_setup(enemy="0204")
    # two hexes from 0203 [15.2]
    assert _problems(sc, st, ("p1", "0205")) == [
        "p1: 0205 is more than 1 hex from the drop zone 0203 [15.2, 17.1]"]
    # 0202 is a town, not clear (the Airlanding Brigade and the Glider Pilots: clear) [17.1]
    assert _problems(sc, st, ("p1", "0202")) == [
        "p1: 0202 is town, not clear [15.2, 17.1]"]
    # g stands at 0204, within 1 of 0203 [15.2]
    assert _problems(sc, st, ("p1", "0204")) == ["p1: enemy units are at 0204 [15.2, 17.1]"]
    # p4 (2 steps) into 0103 with p1 p2 p3 (6 steps): 8 over the limit of 6 [5]
    assert _problems(sc, st, ("p4", "0103")) == [
        "8 steps at 0103: the stacking limit is 6 (the set-up is made legal as it stands) "
        "[5, 17.1]"]
    # g is not the Allied player's to place; p1 placed twice
    assert _problems(sc, st, ("g", "0203")) == [
        "g is not placed by the player at the set-up [17.1]"]
    assert _problems(sc, st, ("p1", "0303"), ("p1", "0304")) == ["p1 is placed twice [17.1]"]
    assert _problems(sc, st, ("p1", "0303"), ("p4", "0303")) == []  # 4 steps: legal


def test_17_1_set_up_in_text_the_template_proposes_the_placement_and_the_bot_keeps_it() -> None:
    import random

    from pbem.systems.arnhem1944.bot import bot_orders

    sc, st = _dropped_setup()
    text = P.orders_template(sc, st, "AL")
    assert text is not None
    places = [x[2:].split("#")[0].strip() for x in text.splitlines() if x.startswith("# place ")]
    assert places == ["place p1 at 0103", "place p2 at 0103", "place p3 at 0103",
                      "place p4 at 0104"]
    sk = RULES.skeleton(sc, st, "AL")
    assert P.parse_text_orders(sc, sk, "AL", text) == {"kind": "setup", "side": "AL",
                                                         "placements": []}
    doc = P.parse_text_orders(sc, sk, "AL", "place p3 at 0304\nplace p4 0303\n")
    assert doc["placements"] == [{"unit": "p3", "hex": "0304"}, {"unit": "p4", "hex": "0303"}]
    assert RULES.validate(sc, st, "AL", RULES.load_orders(sc, doc)) == []
    assert P.describe_orders(sc, doc) == [
        "sets up the 1st Airborne round its drop zone [17.1, 15.2]:", "p3 at 0304", "p4 at 0303"]
    assert bot_orders(RULES, sc, st, "AL", random.Random(1)) == sk


# -- defensive artillery support shares the result when adjacent [8.2] ------------------------------


def _supported_defence(dart_hex: str) -> tuple[Any, Any, Any]:
    # big (CF 6) at 0302 attacks g (CF 3) at 0401 with a normal attack; dart (DF 4, range 3),
    # not activated and out of big's zone, adds its DF: 6 against 7 rounds for the attacker to
    # 1:1; die 6 on the normal line, column 1:1: 0/2 [7.4, 8.2]
    from systems.arnhem1944.test_arnhem1944_rules import DART

    sc, st = game([(BIG, "0302"), (G, "0401"), (DART, dart_hex)])
    orders = act(sc, "AL", ["big"], {"do": "attack", "target": "0401", "type": "N",
                                     "units": ["big"]})
    return sc, st, orders


def test_8_2_defensive_artillery_next_to_the_defender_shares_its_retreat() -> None:
    # dart at 0501, next to 0401: the default split retreats two hexes; dart goes back two from
    # its own hex (0601, 0602: out of big's zone, furthest from it), then g (0501, 0601)
    sc, st, orders = _supported_defence("0501")
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([6]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert (combat["odds"], combat["result"], combat["defence_support"]) == ("1:1", "0/2",
                                                                             ["dart"])
    assert _retreat(res, "dart") == ["0601", "0602"] and res.state.units["dart"].hex == "0602"
    assert _retreat(res, "g") == ["0501", "0601"]


def test_8_2_defensive_artillery_next_to_the_defender_shares_its_step_losses() -> None:
    # held (two steps): the first from the unit with the most steps, g (2 of them); the second
    # between g and dart (1 step each) by id: dart is eliminated, g keeps one step [7.5, 8.2]
    sc, st, orders = _supported_defence("0501")
    st.standing["DE"] = Standing(defence="hold")
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([6]))
    assert (res.state.units["g"].steps, res.state.units["dart"].steps) == (1, 0)


def test_8_2_defensive_artillery_at_range_suffers_nothing() -> None:
    # dart at 0601, two hexes from 0401: the same 0/2 held falls on g alone
    sc, st, orders = _supported_defence("0601")
    st.standing["DE"] = Standing(defence="hold")
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([6]))
    assert next(e["defence_support"] for e in res.events if e["kind"] == "combat") == ["dart"]
    assert (res.state.units["g"].steps, res.state.units["dart"].steps) == (0, 1)
    st.standing["DE"] = Standing()
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([6]))
    assert res.state.units["dart"].hex == "0601"
    assert not any(e["kind"] == "retreated" and "dart" in e["units"] for e in res.events)


# -- the bridgehead "across the Neder Rijn (to the East)" [16] -------------------------------------


def test_16_the_bridgehead_counts_only_the_far_bank_east_of_the_line() -> None:
    # the tiny map's north bank is rows 1-3; with the line at column 3, a (2 steps) at 0302
    # counts and b (2 steps) at 0202 does not: 2 of the 4 needed, no secondary victory; with b
    # at 0402 too, 4: the secondary victory [16]
    from systems.arnhem1944.test_arnhem1944_rules import B, pas, scenario_data

    def play(b_hex: str) -> Any:
        data = scenario_data([(A, "0302"), (B, b_hex), (G, "0606")])
        data["victory"]["east_of_col"] = 3
        sc = RULES.load_scenario(data)
        st = RULES.initial_state(sc, {})
        assert RULES.game(sc).bridgehead(st) == (4 if b_hex == "0402" else 2)
        st.turn = 3
        st = RULES.resolve(sc, st, "AL", pas(sc, "AL"), FixedDice([])).state
        return RULES.resolve(sc, st, "DE", pas(sc, "DE"), FixedDice([])).state.outcome

    assert play("0202") == "DE"
    assert play("0402") == "AL secondary"


def test_16_the_first_airborne_does_not_start_with_the_bridgehead() -> None:
    # the historical scenario: the 1st Airborne round 0305 (columns 1-5) has its infantry steps
    # on the north bank but west of column 10, so none count; the whole north bank would count
    # them all, past the 12 needed, before a shot [16, 17.1]
    from systems.arnhem1944.test_arnhem1944_scenarios import load_data

    sc = RULES.load_scenario(load_data("arnhem1944-historical"))
    st = RULES.initial_state(sc, {})
    game_ = RULES.game(sc)
    assert sc.victory.east_of_col == 10
    bank = game_.far_bank()
    # the north bank from column 10: the railway bridge's north end 1107 and Arnhem's 1406, not
    # Oosterbeek's 0806, nor the south ends 1007 and 1407 of the bridges
    assert {"1107", "1406", "1001"} <= bank and not {"0806", "0906", "1007", "1407"} & bank
    infantry = [uid for uid, u in st.units.items() if u.on_map and game_.c(uid).side == "AL"
                and game_.c(uid).is_infantry and game_.c(uid).formation == "1AB"]
    whole = sum(st.units[x].steps for x in infantry)
    assert whole >= 12  # the whole bank would give the secondary victory at once
    assert game_.bridgehead(st) == 0
    # one battalion of the 1st Airborne at 1306 (Arnhem, column 13) counts its steps
    st.units["1/1P"].hex = "1306"
    assert game_.bridgehead(st) == st.units["1/1P"].steps
