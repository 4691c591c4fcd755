"""Alternating activations with conditional orders (issue: every way a wargame is played).

The toy game ``skirmish`` (:mod:`pbem.systems.skirmish`, rules [K1]..[K7]) stands in for the
activation system of *Arnhem 1944*; the condition language is :mod:`pbem.engine.conditions`.
Hand-computed cases use :class:`FixedDice`; the end-to-end game is played by two players with
their own homes and directories, exchanging only move files, and verified by a stranger.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import DATA
from helpers.protocol import GAME_ID, NONCE_A, NONCE_B, Player, ok, pbem, written

from pbem.engine.conditions import Happened, holds, parse_condition
from pbem.errors import InputError
from pbem.protocol.dice import FixedDice
from pbem.systems.skirmish import SkirmishRules

SCENARIO = DATA / "skirmish.json"
RULES = SkirmishRules()


SMALL = {
    "id": "skirmish-small", "system": "skirmish", "sides": ["A", "B"], "first": "A", "turns": 3,
    "units": [{"id": "a1", "side": "A", "strength": 2}, {"id": "a2", "side": "A", "strength": 1},
              {"id": "b1", "side": "B", "strength": 2}],
}
"""Two A units against one B unit: the hand-computed cases."""


def scenario() -> Any:
    return RULES.load_scenario(SMALL)


def activation(side: str, unit: str, target: str, *then: tuple[dict[str, Any], str]) -> dict[str, Any]:
    orders = {"kind": "activation", "side": side, "unit": unit, "target": target,
              "then": [{"if": cond, "do": do} for cond, do in then]}
    return RULES.load_orders(scenario(), orders)


# -- the condition language ------------------------------------------------------------------------


def test_conditions_event_fields_roll_and_combinators() -> None:
    log = Happened()
    log.roll("K3 attack", 5)
    log.event({"kind": "retreated", "unit": "b1"})
    assert holds(parse_condition({"event": "retreated", "unit": "b1"}), log)
    assert not holds(parse_condition({"event": "retreated", "unit": "a1"}), log)
    assert not holds(parse_condition({"event": "eliminated"}), log)
    assert holds(parse_condition({"roll": "K3", "at_least": 5}), log)
    assert not holds(parse_condition({"roll": "K3", "at_most": 4}), log)
    assert not holds(parse_condition({"roll": "K6", "at_least": 1}), log)  # not rolled yet
    both = {"all": [{"event": "retreated"}, {"not": {"roll": "K3", "at_most": 4}}]}
    assert holds(parse_condition(both), log)
    assert not holds(parse_condition({"any": [{"event": "hit"}, {"not": {"event": "retreated"}}]}), log)


def test_conditions_compare_types_exactly() -> None:
    # true is not 1: a condition on a count is not met by a flag (JSON types are kept apart).
    log = Happened([{"kind": "hit", "steps": 1, "fatal": True}])
    assert holds(parse_condition({"event": "hit", "steps": 1}), log)
    assert not holds(parse_condition({"event": "hit", "fatal": 1}), log)
    assert not holds(parse_condition({"event": "hit", "steps": True}), log)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "is an object"),
        ({"when": "x"}, "unknown condition 'when'"),
        ({"event": ""}, "must name an event kind"),
        ({"event": "hit", "unit": ["b1"]}, "field 'unit'"),
        ({"roll": "K3", "at_least": 4, "at_most": 5}, "at_least"),
        ({"roll": "K3", "at_least": "4"}, "whole number"),
        ({"all": []}, "non-empty list"),
        ({"not": {"not": {"not": {"not": {"not": {"not": {"not": {"event": "x"}}}}}}}}, "deeper"),
        ({"any": [{"event": "x"}] * 40}, "more than 32 terms"),
    ],
)
def test_conditions_malformed_are_refused_in_one_line(data: Any, words: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_condition(data)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_k4_malformed_condition_in_orders_is_refused_when_loaded() -> None:
    with pytest.raises(InputError, match="then"):
        activation("A", "a1", "b1", ({"roll": "K3"}, "advance"))


# -- the rules, hand-computed ----------------------------------------------------------------------


def test_k3_k4_hit_and_retreat_then_conditional_advance() -> None:
    sc = scenario()
    st = RULES.initial_state(sc, {})
    orders = activation("A", "a1", "b1",
                        ({"event": "eliminated", "unit": "b1"}, "fall-back"),
                        ({"event": "retreated", "unit": "b1"}, "advance"))
    res = RULES.resolve(sc, st, "A", orders, FixedDice([5]))
    # 5: hit (b1 2 -> 1 step) and retreat (ground -1); the first rule fails, the second advances a1
    assert res.state["units"]["b1"] == {"steps": 1, "ground": -1}
    assert res.state["units"]["a1"] == {"steps": 2, "ground": 1}
    assert [e["kind"] for e in res.events] == ["attacked", "hit", "retreated", "advanced"]
    assert res.events[-1]["rule"] == 2
    assert st["units"]["a1"] == {"steps": 2, "ground": 0}  # the state given is not changed


def test_k4_roll_condition_falls_back_on_a_miss_and_only_first_match_counts() -> None:
    sc = scenario()
    st = RULES.initial_state(sc, {})
    orders = activation("A", "a2", "b1",
                        ({"roll": "K3 attack", "at_most": 2}, "fall-back"),
                        ({"not": {"event": "hit"}}, "advance"))
    res = RULES.resolve(sc, st, "A", orders, FixedDice([2]))
    assert res.state["units"]["a2"]["ground"] == -1  # rule 1 only, though rule 2 holds too
    assert [e["kind"] for e in res.events] == ["attacked", "fell-back"]


def test_k5_side_that_rolled_never_acts_next_it_passes_first() -> None:
    # Turn 1: A (a1) -> B (b1) -> A (a2): B has nothing left, so A's next decision would follow
    # A's own roll; the rules insert B's pass so that B's message reveals the dice of a2's attack.
    sc = scenario()
    st = RULES.initial_state(sc, {})
    st = RULES.resolve(sc, st, "A", activation("A", "a1", "b1"), FixedDice([1])).state
    assert [(d.side, d.kind, d.revealer) for d in RULES.pending(sc, st)] == [("B", "activation", "A")]
    st = RULES.resolve(sc, st, "B", activation("B", "b1", "a1"), FixedDice([1])).state
    assert [(d.side, d.kind) for d in RULES.pending(sc, st)] == [("A", "activation")]
    # a2 attacks; every unit has activated: turn 2's initiative rolled in the same resolution
    # (no end die in turn 1 [K6]): A 6, B 3 -> A first again, so B owes a pass [K2, K5].
    res = RULES.resolve(sc, st, "A", activation("A", "a2", "b1"), FixedDice([1, 6, 3]))
    assert res.events[-1] == {"kind": "initiative", "turn": 2, "rolls": {"A": 6, "B": 3}, "side": "A"}
    pend = RULES.pending(sc, res.state)
    assert [(d.side, d.kind, d.random) for d in pend] == [("B", "pass", False)]
    st = RULES.resolve(sc, res.state, "B", {"kind": "pass", "side": "B"}, FixedDice([])).state
    assert [(d.side, d.kind) for d in RULES.pending(sc, st)] == [("A", "activation")]


def test_k2_initiative_ties_are_rolled_again_and_k6_end_die() -> None:
    sc = scenario()
    st = {**RULES.initial_state(sc, {}), "activated": ["a1", "b1"]}
    res = RULES.resolve(sc, st, "A", activation("A", "a2", "b1"), FixedDice([1, 4, 4, 2, 5]))
    assert res.events[-1]["rolls"] == {"A": 2, "B": 5} and res.state["to_act"] == "B"
    assert res.state["owed"] is None
    # From turn 2 on, an end-of-turn 1 ends the game; B (who did not roll) acknowledges [K6, K7].
    st2 = {**st, "turn": 2}
    res = RULES.resolve(sc, st2, "A", activation("A", "a2", "b1"), FixedDice([1, 1]))
    assert res.events[-1]["kind"] == "sudden-end"
    assert [(d.side, d.kind) for d in RULES.pending(sc, res.state)] == [("B", "acknowledge")]


def test_k3_violations_name_the_rule() -> None:
    sc = scenario()
    st = {**RULES.initial_state(sc, {}), "activated": ["a1"]}
    bad = RULES.validate(sc, st, "A", activation("A", "a1", "a2"))
    assert [v.rule for v in bad] == ["K3", "K3"]
    assert "already activated" in str(bad[0]) and "not an enemy" in str(bad[1])
    wrong_side = RULES.validate(sc, st, "B", activation("B", "b1", "a2"))
    assert wrong_side and wrong_side[0].rule == "K5"


# -- end to end: two players, two homes, only files between them -----------------------------------


def test_activation_game_by_two_players_end_to_end(tmp_path: Path) -> None:
    a, b = Player(tmp_path, "alice", "A"), Player(tmp_path, "bob", "B")
    a.new_key()
    b.new_key()
    bob_pub = a.work / "bob.pub"
    bob_pub.write_bytes(b.pub.read_bytes())
    ok(a.run("new", SCENARIO, a.dir, "--player", "A=alice", "--player", f"B={bob_pub}",
             "--game-id", GAME_ID, "--nonce", NONCE_A))
    import shutil

    shutil.copytree(a.dir, b.dir)
    ok(b.run("join", b.dir, "--key", "bob", "--nonce", NONCE_B))
    ok(b.send(a, ["join-B.json"]))
    players = {"A": a, "B": b}
    kinds: list[str] = []
    current = a  # whoever received the last message holds the newest turn
    for step in range(1, 60):
        turn = json.loads(sorted(current.dir.glob("turn-*.json"))[-1].read_text())
        if not turn["pending"]:
            break
        side = turn["pending"][0]["side"]
        me, other = players[side], players["B" if side == "A" else "A"]
        res = ok(me.run("bot", me.dir, "--side", side, "--key", me.name))
        name = f"move-{step:04d}-{side}.json"
        assert name in written(res)
        kinds.append(turn["pending"][0]["kind"])
        ok(me.send(other, [name]))
        current = other
    assert kinds[-1] == "acknowledge" and "activation" in kinds
    assert "pass" in kinds, kinds  # [K5] B (two units against four) runs out in every turn
    # The bot's then-rules were evaluated as its dice fell [K4]: after every attack, a roll of 1-2
    # made the attacker fall back, a roll of 5-6 that did not eliminate made it advance, else
    # neither (the keys, so the dice, differ on every run; this holds for every roll).
    events = _turn_events(a.dir)
    attacks = [i for i, e in enumerate(events) if e["kind"] == "attacked"]
    assert attacks
    for i in attacks:
        roll, unit = events[i]["roll"], events[i]["unit"]
        after = events[i + 1 : next((j for j in attacks if j > i), len(events))]
        kinds_after = [e["kind"] for e in after if e.get("unit") == unit]
        eliminated = any(e["kind"] == "eliminated" for e in after)
        if roll <= 2:
            assert kinds_after == ["fell-back"], (roll, after)
        elif roll >= 5 and not eliminated:
            assert kinds_after == ["advanced"], (roll, after)
        else:
            assert kinds_after == [], (roll, after)
    # both archives byte-identical, and a stranger verifies every roll and every condition
    files_a = {p.name: p.read_bytes() for p in a.dir.glob("*.json")}
    files_b = {p.name: p.read_bytes() for p in b.dir.glob("*.json")}
    assert files_a == files_b
    res = pbem("verify", a.dir, home=tmp_path / "stranger")
    assert res.code == 0, res.err
    assert res.out.strip().endswith("OK")


def _turn_events(game_dir: Path) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for path in sorted(game_dir.glob("turn-*.json")):
        events += json.loads(path.read_text())["events"]
    return events


def test_activation_decided_after_the_roll_is_impossible_conditions_are_signed_before(tmp_path: Path) -> None:
    # The conditional rules travel in the signed move; the move whose dice they react to is the
    # same move: changing a then-rule after seeing the roll means a second body for the step,
    # which the tool refuses [P7].
    a = Player(tmp_path, "alice", "A")
    a.new_key()
    ok(a.run("key", "new", "bob"))  # hot seat: both keys on one machine, no join needed
    ok(a.run("new", SCENARIO, a.dir, "--player", "A=alice", "--player", "B=bob", "--game-id", GAME_ID))
    import shutil

    copy = tmp_path / "second-copy"
    shutil.copytree(a.dir, copy)  # a second working copy of the game, as a cheat would keep
    first = {"kind": "activation", "side": "A", "unit": "a1", "target": "b1",
             "then": [{"if": {"event": "retreated", "unit": "b1"}, "do": "advance"}]}
    ok(a.submit(first))
    second = {**first, "then": [{"if": {"event": "hit", "unit": "b1"}, "do": "fall-back"}]}
    res = a.run("submit", "--yes", copy, a.write_orders(second), "--key", "alice")
    assert res.code == 2 and "already signed" in (res.err + res.out)
    assert written(res) == []
