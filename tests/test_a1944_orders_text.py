"""Arnhem 1944's text orders as a first-time player meets them: the commented file to start from
(``pbem orders --text``), the natural forms of each order, and errors that name the line and the
case. The tiny map of tests/test_a1944_rules.py."""

from __future__ import annotations

from typing import Any

from test_a1944_rules import RULES, A, G, game, unit

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
    assert _uncomment(text, "enter r ") == "enter r 0401"
