"""Arnhem 1944's text orders as a first-time player meets them: the commented file to start from
(``pbem orders --text``), the natural forms of each order, and errors that name the line and the
case. The tiny map of tests/systems/arnhem1944/test_arnhem1944_rules.py."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import InputError
from systems.arnhem1944.test_arnhem1944_rules import RULES, A, FixedDice, G, game, unit

P = RULES.presenter()


def _uncomment(template: str, starts: str) -> str:
    """The template's example line beginning with ``starts``, '#' and explanation taken off."""
    line = next(x for x in template.splitlines() if x.startswith("# " + starts))
    return line[2:].split("#", 1)[0].strip()


def test_2_2_the_text_template_lists_what_may_be_activated_and_unedited_is_a_pass() -> None:
    p82 = unit("p82", "AL", "82AB")
    sc, st = game([(A, "0102"), (p82, "0105"), (G, "0606")])
    text = P.orders_template(sc, st, "AL")
    assert text is not None
    lines = text.splitlines()
    assert all(x.startswith("#") for x in lines)
    assert "#   1AB (1AB), HQ HQAL at 0101: up to 6 units in command [3.2]" in lines
    assert "#     in command: a HQAL" in lines
    assert "#   82AB (82AB), no HQ: general activations only [3.2, 3.3]: p82" in lines
    assert "# Any 3 of them in a general activation, in command or not [3.3]." in lines
    # unedited, the file is the skeleton: a pass [2.2]
    skeleton = RULES.skeleton(sc, st, "AL")
    assert skeleton == {"kind": "pass", "side": "AL"}
    assert P.parse_text_orders(sc, skeleton, "AL", text) == skeleton
    # its examples are orders of this game: the general activation and the move are legal
    general = _uncomment(text, "activate: ")
    move = _uncomment(text, "move a to ")
    assert general == "activate: a p82 HQAL"  # combat units first, then HQs
    # the farthest 'a' reaches with its 6 MP outside g's zone of control (0605 is in it [4.2]):
    # 0202 town 1, 0303 1, the road 0304 0305 ½ each, 0405 0505 0604 clear 1 each [6.3]
    assert move == "move a to 0604"
    doc = P.parse_text_orders(sc, skeleton, "AL", f"{general}\n{move}\n")
    orders = RULES.normalize(sc, st, "AL", RULES.load_orders(sc, doc))
    assert RULES.validate(sc, st, "AL", orders) == []


def test_15_1_the_text_template_names_the_entry_zone_of_a_reinforcement_due() -> None:
    r = unit("r", "DE", "9SS")
    sc, st = game([(A, "0102"), (G, "0606"), (r, None)],
                  reinforcements=[{"unit": "r", "turn": 1, "zone": "D"}])
    st.to_act = "DE"
    text: Any = P.orders_template(sc, st, "DE")
    assert "#     off the map, may enter now [15]: r (zone D)" in text.splitlines()
    # r activated on its own enters at zone D's first hex, 0401, or goes on from there to the
    # lowest-numbered of its neighbours, 0301 (0400 is off the map) [15.1]
    lines = text.splitlines()
    at = lines.index(next(x for x in lines if x.startswith("# activate: r ")))
    assert [x[2:].split("#", 1)[0].strip() for x in lines[at:at + 3]] == [
        "activate: r", "enter r at 0401", "enter r at 0401 to 0301"]
    for line in ("enter r at 0401", "enter r at 0401 to 0301"):
        orders = RULES.normalize(sc, st, "DE", RULES.load_orders(sc, _read(sc, "DE", f"activate: r\n{line}\n")))
        assert RULES.validate(sc, st, "DE", orders) == [], line


def test_7_2_8_1_8_4_the_attack_and_bombardment_examples_are_accepted_as_written() -> None:
    """[7.2, 8.1, 8.2, 8.4, 27] a stands next to g at 0401, the gun art of a's formation within
    its range of 3: the template attacks g from where a stands, supported by art, and bombards
    0401 with art (a spotting it), each accepted after the first activation line, which names
    them; a in g's zone may not prepare a position (the errata to [11.1]): its form only."""
    from systems.arnhem1944.test_arnhem1944_rules import ART

    sc, st = game([(A, "0302"), (ART, "0201"), (G, "0401")])
    text: Any = P.orders_template(sc, st, "AL")
    first = _uncomment(text, "activate ")
    assert first.startswith("activate 1AB: ") and {"a", "art"} <= set(first.split()[2:])
    attack = _uncomment(text, "attack ")
    bombard = _uncomment(text, "bombard ")
    assert attack == "attack 0401 normal with a support art"
    assert _uncomment(text, "if vacated") == "if vacated 0401: advance a"
    assert bombard == "bombard 0401 with art"
    assert "\n#   prepare UNIT " in text and "\n# prepare" not in text
    for lines in ([attack, "if vacated 0401: advance a"], [bombard]):
        doc = _read(sc, "AL", "\n".join([first, *lines]) + "\n")
        orders = RULES.normalize(sc, st, "AL", RULES.load_orders(sc, doc))
        assert RULES.validate(sc, st, "AL", orders) == [], lines


def _read(sc: Any, side: str, text: str) -> Any:
    return P.parse_text_orders(sc, {"kind": "pass", "side": side}, side, text)


def _entry_game() -> tuple[Any, Any]:
    r = unit("r", "DE", "9SS")
    q = unit("q", "DE", "9SS")
    sc, st = game([(A, "0102"), (G, "0606"), (r, None), (q, None)],
                  reinforcements=[{"unit": "r", "turn": 1, "zone": "D"},
                                  {"unit": "q", "turn": 1, "zone": "C"}])
    st.to_act = "DE"
    return sc, st


def test_15_1_enter_to_hex_is_the_cheapest_way_in_from_the_entry_zone() -> None:
    sc, st = _entry_game()
    doc = _read(sc, "DE", "activate: r\nenter r to 0402\n")
    assert doc["actions"] == [{"do": "enter", "unit": "r", "to": "0402"}]
    orders = RULES.normalize(sc, st, "DE", RULES.load_orders(sc, doc))
    # zone D is 0401 and 0501, clear, 1 MP to enter; 0402 is next to 0401 only: 2 MP [6.3, 15.1]
    assert orders.actions[0].path == ["0401", "0402"]
    assert RULES.validate(sc, st, "DE", orders) == []
    # 'at' names the entry hex; 'via' (or nothing) the hexes one by one; 'at HEX to HEX' both
    assert _read(sc, "DE", "activate: r\nenter r at 0501\n")["actions"][0]["path"] == ["0501"]
    assert _read(sc, "DE", "activate: r\nenter r via 0401 0402\n")["actions"][0]["path"] == [
        "0401", "0402"]
    both = _read(sc, "DE", "activate: r\nenter r at 0501 to 0503\n")
    orders = RULES.normalize(sc, st, "DE", RULES.load_orders(sc, both))
    assert orders.actions[0].path == ["0501", "0502", "0503"]


def test_15_1_enter_to_hex_that_no_path_reaches_says_the_path_form() -> None:
    """Zone C (0101, 0201) lies in the zone of control of 'a' at 0102: a unit entering there
    stops [4.2], so 'to 0301' has no path; the error gives the form that has."""
    sc, st = _entry_game()
    doc = _read(sc, "DE", "activate: q\nenter q to 0301\n")
    with pytest.raises(InputError) as exc:
        RULES.normalize(sc, st, "DE", RULES.load_orders(sc, doc))
    assert str(exc.value) == ("[6.1] no path for q from its entry zone C [15.1] to 0301: give the "
                              "path instead: 'enter q HEX HEX...', its entry hex first")


def test_15_2_land_unit_at_hex_and_the_bare_form() -> None:
    sc, _st = game([(A, "0302"), (G, "0606")])
    drop = {"kind": "drop", "side": "AL", "landings": []}
    assert P.parse_text_orders(sc, drop, "AL", "land a at 0305\nland b 0306\n")["landings"] == [
        {"unit": "a", "hex": "0305"}, {"unit": "b", "hex": "0306"}]
    with pytest.raises(InputError) as exc:
        P.parse_text_orders(sc, drop, "AL", "land a at 0305\nland b at DZ\n")
    assert str(exc.value) == "line 2: landing: the hex: 'DZ' is not a hex number XXYY [15.2]"


def test_6_move_via_hexes_and_via_then_to() -> None:
    sc, st = game([(A, "0102"), (G, "0606")])
    doc = _read(sc, "AL", "activate: a\nmove a via 0202 0302\n")
    assert doc["actions"] == [{"do": "move", "unit": "a", "path": ["0202", "0302"]}]
    doc = _read(sc, "AL", "activate: a\nmove a via 0202 to 0303\n")
    orders = RULES.normalize(sc, st, "AL", RULES.load_orders(sc, doc))
    assert orders.actions[0].path == ["0202", "0303"]
    with pytest.raises(InputError) as exc:
        _read(sc, "AL", "activate: a\nmove a via\n")
    assert str(exc.value) == ("line 2: say where a goes: 'move a to HEX' (the cheapest path) or "
                              "'move a via HEX HEX...' (the hexes in order) [6]")


def test_3_2_activate_without_the_colon_and_without_units() -> None:
    sc, _st = game([(A, "0102"), (G, "0606")])
    assert _read(sc, "AL", "activate 1AB a HQAL")["formation"] == "1AB"
    assert _read(sc, "AL", "activate a HQAL")["mode"] == "general"
    with pytest.raises(InputError) as exc:
        _read(sc, "AL", "activate 1AB")
    assert str(exc.value) == ("line 1: name the units activated: 'activate 1AB: UNIT UNIT...' (a "
                              "formation [3.2]) or 'activate: a b c' (a general activation [3.3])")


def test_7_1_a_malformed_order_names_its_line_and_case_not_the_field() -> None:
    sc, _st = game([(A, "0102"), (G, "0606")])
    with pytest.raises(InputError) as exc:
        _read(sc, "AL", "activate: a\n# next\nattack 06O1 normal with a\n")
    assert str(exc.value) == "line 3: attack: the hex attacked: '06O1' is not a hex number XXYY [7.1]"
    with pytest.raises(InputError) as exc:
        _read(sc, "AL", "defend sometimes\n")
    assert str(exc.value) == ("line 1: standing order: 'defend': 'sometimes': it is 'retreat' or "
                              "'hold' [7.5]")


def test_15_1_reach_and_units_say_when_and_where_a_unit_to_come_arrives() -> None:
    sc, st = _entry_game()
    assert P.reach(sc, st, "r") == [
        "r is not on the map: it may enter from turn 1 (due now) by entry zone D (hexes 0401 "
        "0501), or by the next zone for each turn it waits [15.1]: 'enter r to HEX' or 'enter r "
        "via HEX HEX...' (its entry hex first)"]
    _head, rows = P.roster(sc, st, "DE")
    assert next(row for row in rows if row[0] == "r")[-1] == "to come: turn 1 (due now), zone D [15.1]"


def test_6_json_orders_with_a_bad_path_name_the_action_and_case() -> None:
    sc, _st = game([(A, "0102"), (G, "0606")])
    with pytest.raises(InputError) as exc:
        RULES.load_orders(sc, {"kind": "activation", "side": "AL", "mode": "general",
                               "units": ["a"], "actions": [{"do": "move", "unit": "a",
                                                            "path": ["0202", "via"]}]})
    assert str(exc.value) == ("arnhem1944 orders: action 1: move: the path: 'via' is not a hex "
                              "number XXYY [6]")


def test_7_6_an_advance_after_an_illegal_attack_reports_only_the_attack_named_in_words() -> None:
    sc, st = game([(A, "0102"), (G, "0606")])
    doc = _read(sc, "AL", "activate: a\nattack 0606 normal with a\nif vacated 0606: advance a\n")
    found = RULES.validate(sc, st, "AL", RULES.load_orders(sc, doc))
    assert [(v.rule, v.message) for v in found] == [
        ("7.2", "attack on 0606: a at 0102 is not next to 0606")]


def test_6_1_two_moves_of_one_unit_are_told_apart_by_their_number() -> None:
    sc, st = game([(A, "0102"), (G, "0606")])
    doc = _read(sc, "AL", "activate: a\nmove a 0202\nmove a 0302\n")
    found = RULES.validate(sc, st, "AL", RULES.load_orders(sc, doc))
    assert [(v.rule, v.message) for v in found] == [
        ("3.4", "move of a (action 2): a may not stop and then move again in the same activation "
                "(only a mobile assault in between allows it)")]


def test_7_4_the_odds_line_says_how_each_strength_is_made_up_and_whose_rounding() -> None:
    from pbem.protocol.dice import FixedDice
    from systems.arnhem1944.test_arnhem1944_rules import ART

    # a (CF 3) with art's BV 4 against g (CF 3): 7 against 3 lies between 2:1 and 3:1; the
    # text's [7.4] rounds for the attacker: 3:1
    sc, st = game([(A, "0302"), (ART, "0201"), (G, "0401")])
    doc = _read(sc, "AL", "activate: a art\nattack 0401 normal with a support art\n")
    res = RULES.resolve(sc, st, "AL", RULES.load_orders(sc, doc), FixedDice([6]))
    combat = next(e for e in res.events if e["kind"] == "combat")
    assert combat["lines"][0] == ("7 against 3 (a 3 + artillery 4 against g 3): 3:1, rounded in "
                                  "the attacker's favour as the text's [7.4] reads")
    told = P.narrate(sc, res.events)[1]
    assert "die 6 → 0/3r [7.4]: nothing for the attacker; the defender 3, each a step loss or a " \
        "hex of retreat, the first step loss (red) [7.5]" in told


def test_7_5_a_result_in_words_steps_retreat_and_the_red_or_green_minimum() -> None:
    from pbem.systems.arnhem1944.words import _result_words

    assert _result_words("0/3g") == ("nothing for the attacker; the defender 3, each a step loss "
                                     "or a hex of retreat, the first 2 step losses (green)")
    assert _result_words("1r/1") == ("the attacker 1, a step loss (red); the defender 1, a step "
                                     "loss or a hex of retreat")
    assert _result_words("0/0") == "nothing for the attacker; nothing for the defender"


def test_7_5_standing_orders_are_echoed_and_say_what_stays_in_force() -> None:
    from systems.arnhem1944.test_arnhem1944_rules import Standing

    sc, st = game([(A, "0102"), (G, "0606")])
    hold = _read(sc, "AL", "defend hold\n")
    assert P.describe_orders(sc, hold) == [
        "passes [2.2]",
        "standing order from now on: when attacked, take every result as step losses, no "
        "retreat [7.5]"]
    goes_on = "turn 1 goes on: German acts next, and a pass of its own then ends the turn [2.2]"  # a pass
    assert P.undone(sc, st, "AL", hold) == [goes_on]  # no standing orders given before
    st.standing["AL"] = Standing(hold=["0102"])
    assert P.undone(sc, st, "AL", _read(sc, "AL", "pass\n")) == [
        "no new standing orders: those given earlier stay in force (when attacked, retreat "
        "rather than lose steps where the result allows [7.5]; hold (step losses, no retreat) "
        "at 0102 [7.5])", goes_on]
    assert P.undone(sc, st, "AL", hold) == [
        "these standing orders replace every one in force until now (when attacked, retreat "
        "rather than lose steps where the result allows [7.5]; hold (step losses, no retreat) "
        "at 0102 [7.5])", goes_on]


def test_18_1_with_the_simplified_sequence_activate_in_text_is_the_player_turn() -> None:
    from systems.arnhem1944.test_arnhem1944_rules import B, C, D

    sc, st = game([(A, "0102"), (B, "0103"), (C, "0104"), (D, "0105"), (G, "0606")],
                  simplified=True)
    text: Any = P.orders_template(sc, st, "AL")
    assert "every unit that moves or fights this player-turn [18.1]" in text
    assert "# activate 1AB:" not in text  # no formation activations in this sequence
    doc = _read(sc, "AL", "activate: a b c d\nmove a 0202\n")  # four: more than [3.3]'s three
    orders = RULES.normalize(sc, st, "AL", RULES.load_orders(sc, doc))
    assert orders.mode == "phase"
    assert RULES.validate(sc, st, "AL", orders) == []


def test_8_1_a_bombardment_result_is_told_in_words_too() -> None:
    from pbem.systems.arnhem1944.words import event_text

    ev = {"kind": "bombardment", "target": "0401", "artillery": ["art"], "odds": "2:1", "die": 4,
          "result": "0/1r", "lines": []}
    assert event_text(ev) == ("Bombardment of 0401 by art: 2:1, die 4 → 0/1r [8.1]: nothing for "
                              "the attacker; the defender 1, a step loss (red) [7.5]")


def test_7_6_a_retreat_off_the_map_edge_is_told_and_does_not_stop_the_narration() -> None:
    # a retreat may leave the map from an edge hex [7.6]: its path ends in "off-map", which
    # was read as a hex number and stopped 'pbem ingest', 'log' and 'html' with an error
    from pbem.systems.arnhem1944.words import event_text, narrate

    sc, _st = game([(G, "0201")])
    ev = {"kind": "retreated", "units": ["g"], "from": "0201", "path": ["0101", "off-map"]}
    assert event_text(ev, sc) == "g retreated 0201 → 0101 → off the map [7.6]"
    assert narrate(sc, [ev]) == ["G retreated 0201 → 0101 → off the map [7.6]"]


def test_6_a_move_in_words_names_where_it_ends_and_the_hexes_on_the_way_not_a_start() -> None:
    # the path of a move holds the hexes entered [6]: its first hex is not where the unit starts,
    # so the preview says "to 0505 via 0203, 0304" (it read "moves 0203 → 0304 → 0505", which the
    # result, "moved 0104 → 0203 → 0304 → 0505", contradicted at first sight)
    from pbem.systems.arnhem1944.words import action_text

    assert action_text({"do": "move", "unit": "a", "path": ["0203", "0304", "0505"]}) == \
        "a moves to 0505 via 0203, 0304 [6]"
    assert action_text({"do": "move", "unit": "a", "path": ["0204"]}) == "a moves to 0204 [6]"


def test_6_1_a_move_to_a_hex_beyond_reach_says_so_how_far_and_the_mp_against_the_cost() -> None:
    """'move s to 0604' with 4 MP: the cheapest path is 0202 town 1, 0303 clear 1, the road 0304
    0305 ½ each, 0405 1 (4 MP spent), then 0505 and 0604 clear 1 each: 6 MP in all [6.1, 6.3].
    The refusal names the destination out of reach, the cost against the MP, how far s gets and
    the hex where its MP run out; the resolution's 'skipped' event keeps its words (no rules
    version)."""
    s = unit("s", "AL", "1AB", mp=4)
    sc, st = game([(s, "0102"), (G, "0606")])
    doc = _read(sc, "AL", "activate: s\nmove s to 0604\n")
    orders = RULES.normalize(sc, st, "AL", RULES.load_orders(sc, doc))
    assert orders.actions[0].path == ["0202", "0303", "0304", "0305", "0405", "0505", "0604"]
    [v] = RULES.validate(sc, st, "AL", orders)
    assert (v.rule, v.unit, v.hex) == ("6.1", "s", "0505")
    assert v.message == ("move of s: 0604 is out of s's reach this activation: the path there "
                         "costs 6 MP and s has 4; it gets as far as 0405, then lacks the MP to "
                         "enter 0505 (1 MP needed, 0 left)")
    res = RULES.resolve(sc, st, "AL", orders, FixedDice([]))
    assert [e["why"] for e in res.events if e["kind"] == "skipped"] == [
        "s lacks the MP to enter 0505 (1 needed, 0 left) [6.1]"]
    # the path's last hex out of reach is told as before: that hex is the destination
    doc = _read(sc, "AL", "activate: s\nmove s via 0202 0303 0304 0305 0405 0505\n")
    [v] = RULES.validate(sc, st, "AL", RULES.load_orders(sc, doc))
    assert v.message == "move of s: s lacks the MP to enter 0505 (1 needed, 0 left)"
