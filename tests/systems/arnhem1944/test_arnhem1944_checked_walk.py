"""Issue 28: the resolution of a legal activation that only moves, enters and prepares positions,
under no condition and with no die to roll, takes the walk its check made (``Checked.prepared``)
instead of walking the actions again; one that moves first and then fights (or has an action
under a condition) resumes the check's walk where its moves end, no die rolled before -- and
either comes out exactly as a walk of its own would: every step of the frozen Arnhem 1944 game of
the compatibility corpus is resolved both ways."""

from __future__ import annotations

from pathlib import Path

from pbem.engine.gamedir import Game
from pbem.protocol.dice import DiceStream, NoDice
from pbem.systems.arnhem1944.orders import Activation
from pbem.systems.arnhem1944.rules import Arnhem1944Rules, _Resumed, _Walked

GAME = Path(__file__).resolve().parents[2] / "compat" / "arnhem1944-historical"


def _dice(key: str | None) -> DiceStream | NoDice:
    return DiceStream(bytes.fromhex(key)) if key else NoDice()


def test_resolving_with_the_checked_walk_is_resolving_without_it() -> None:
    game = Game.open(GAME)
    rules = game.ruleset
    assert isinstance(rules, Arnhem1944Rules)
    sc = game.scenario
    rp = game.replay()
    kept = resumed = walked_again = 0
    for k, move in enumerate(rp.placed, start=1):
        state = rp.records[k - 1].state
        before = rules.dump_state(sc, state)
        orders = rules.load_orders(sc, move.body.orders)
        side = move.body.side
        key = rp.records[k].turn["roll_key"]
        checked = rules.check(sc, state, side, orders)
        assert checked.violations == []
        walk = checked.prepared
        if isinstance(walk, _Walked):
            assert isinstance(orders, Activation)
            assert all(a.do in ("move", "enter", "prepare") and a.if_ is None for a in orders.actions)
            kept += 1
        elif isinstance(walk, _Resumed):
            # moves first, then the first action that may roll or is under a condition
            assert isinstance(orders, Activation)
            at = walk.prefix.at
            assert 0 < at < len(orders.actions)
            assert all(a.do in ("move", "enter", "prepare") and a.if_ is None
                       for a in orders.actions[:at])
            assert orders.actions[at].do not in ("move", "enter", "prepare") or orders.actions[at].if_
            assert walk.prefix.state is not state and walk.prefix.log.rolls == []
            resumed += 1
        else:
            assert walk is None
            if isinstance(orders, Activation):
                walked_again += 1
        took, own = _dice(key), _dice(key)
        a = rules.resolve(sc, state, side, orders, took, checked)
        b = rules.resolve(sc, state, side, orders, own, None)
        assert rules.dump_state(sc, a.state) == rules.dump_state(sc, b.state) == rp.records[k].turn["state"]
        assert a.events == b.events == rp.records[k].turn["events"]
        assert [r.to_json() for r in took.rolls] == [r.to_json() for r in own.rolls]
        if isinstance(walk, _Resumed):
            assert walk.taken
            assert a.state is walk.prefix.state  # resumed on the prefix's own copy
            again = rules.resolve(sc, state, side, orders, _dice(key), checked)  # taken once
            assert again.state is not a.state
            assert rules.dump_state(sc, again.state) == rules.dump_state(sc, a.state)
            assert again.events == a.events
        if isinstance(walk, _Walked):
            assert walk.taken
            # taken once: resolving again with the same check walks again, with the same result
            again = rules.resolve(sc, state, side, orders, _dice(key), checked)
            assert again.state is not a.state
            assert rules.dump_state(sc, again.state) == rules.dump_state(sc, a.state)
        assert rules.dump_state(sc, state) == before  # the rules never change a state they are given
    # the game has all three kinds: activations of moves only, activations that move then fight
    # (resumed after their moves), and activations that fight first (or roll for a
    # demolition while moving) walked again
    assert kept > 0 and resumed > 0 and walked_again > 0


def test_a_walk_checked_for_other_orders_or_another_state_is_not_taken() -> None:
    game = Game.open(GAME)
    rules = game.ruleset
    sc = game.scenario
    rp = game.replay()
    k, move = next((k, m) for k, m in enumerate(rp.placed, start=1)
                   if isinstance(rules.check(sc, rp.records[k - 1].state, m.body.side,
                                  rules.load_orders(sc, m.body.orders)).prepared, _Walked))
    state = rp.records[k - 1].state
    orders = rules.load_orders(sc, move.body.orders)
    checked = rules.check(sc, state, move.body.side, orders)
    other_orders = rules.load_orders(sc, move.body.orders)  # equal, another object
    rules.resolve(sc, state, move.body.side, other_orders, NoDice(), checked)
    rules.resolve(sc, state.clone(), move.body.side, orders, NoDice(), checked)
    assert isinstance(checked.prepared, _Walked) and not checked.prepared.taken


def test_a_move_that_rolls_for_a_demolition_walks_again() -> None:
    # Step 20 of the game rolls for the railway bridge 0724/0725 as an Allied unit moves next to it
    # [12.2]; each of its moves alone, as an activation of its own: those that roll keep no
    # walk (checked, the die is taken as favourable), and is resolved with its die.
    game = Game.open(GAME)
    rules = game.ruleset
    sc = game.scenario
    rp = game.replay()
    state = rp.records[19].state
    move = rp.placed[19]
    key = rp.records[20].turn["roll_key"]
    rolled = 0
    for action in move.body.orders["actions"]:
        if action["do"] != "move":
            continue
        orders = rules.load_orders(sc, {**move.body.orders, "actions": [action]})
        checked = rules.check(sc, state, move.body.side, orders)
        if checked.violations:
            continue
        took, own = _dice(key), _dice(key)
        a = rules.resolve(sc, state, move.body.side, orders, took, checked)
        b = rules.resolve(sc, state, move.body.side, orders, own, None)
        demolition = [e for e in a.events if e["kind"] in ("blown", "not-blown")]
        if demolition:
            rolled += 1
            assert checked.prepared is None
        assert rules.dump_state(sc, a.state) == rules.dump_state(sc, b.state)
        assert a.events == b.events
    assert rolled > 0


def test_a_move_under_a_condition_walks_again() -> None:
    # A checking walk takes every action; the resolution only those whose condition holds: a move
    # made only "if something retreated" (nothing has, in an activation of moves) is skipped.
    game = Game.open(GAME)
    rules = game.ruleset
    sc = game.scenario
    rp = game.replay()
    for k, move in enumerate(rp.placed, start=1):
        state = rp.records[k - 1].state
        plain = rules.load_orders(sc, move.body.orders)
        if not isinstance(rules.check(sc, state, move.body.side, plain).prepared, _Walked):
            continue
        first, *rest = move.body.orders["actions"]
        orders = rules.load_orders(sc, {**move.body.orders,
                                        "actions": [{**first, "if": {"event": "retreated"}}, *rest]})
        checked = rules.check(sc, state, move.body.side, orders)
        if checked.violations:
            continue
        assert checked.prepared is None
        key = rp.records[k].turn["roll_key"]
        a = rules.resolve(sc, state, move.body.side, orders, _dice(key), checked)
        b = rules.resolve(sc, state, move.body.side, orders, _dice(key), None)
        assert a.events[0] == {"kind": "skipped", "action": 1, "why": "its condition does not hold"}
        assert a.events == b.events
        assert rules.dump_state(sc, a.state) == rules.dump_state(sc, b.state)
        return
    raise AssertionError("no activation of moves to try")


def test_a_prefix_checked_for_other_orders_or_another_state_is_not_taken() -> None:
    game = Game.open(GAME)
    rules = game.ruleset
    sc = game.scenario
    rp = game.replay()
    k, move = next((k, m) for k, m in enumerate(rp.placed, start=1)
                   if isinstance(rules.check(sc, rp.records[k - 1].state, m.body.side,
                                             rules.load_orders(sc, m.body.orders)).prepared,
                                 _Resumed))
    state = rp.records[k - 1].state
    orders = rules.load_orders(sc, move.body.orders)
    checked = rules.check(sc, state, move.body.side, orders)
    key = rp.records[k].turn["roll_key"]
    other_orders = rules.load_orders(sc, move.body.orders)  # equal, another object
    a = rules.resolve(sc, state, move.body.side, other_orders, _dice(key), checked)
    b = rules.resolve(sc, state.clone(), move.body.side, orders, _dice(key), checked)
    assert isinstance(checked.prepared, _Resumed) and not checked.prepared.taken
    assert a.state is not checked.prepared.prefix.state and b.state is not checked.prepared.prefix.state
    assert a.events == b.events == rp.records[k].turn["events"]
