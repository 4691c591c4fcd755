"""SPI Arnhem [12.11, 12.12]: a die for a bridge is rolled only "whenever the first Allied unit
moves into any hex of which the bridge forms a side". When no move of a player-turn can do that,
walking the moves with the dice is the same as walking them without, and the resolution keeps the
walk made when the orders were checked (``Arnhem.rolls_on_walk``, issue 28); these cases hold the
prediction to the rules, and the kept walk to the one walked again.

The map is one row, 0101-0801, with a rail bridge over the river on the hexside 0401/0501: only an
Allied unit entering 0401 or 0501 brings a roll (a 1 or 2 demolishes it [12.12])."""

from __future__ import annotations

from typing import Any

from helpers.westwall import state_with, tiny_scenario, unit

from pbem.protocol.dice import FixedDice
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import get_exclusive
from pbem.systems.westwall.model import MoveOrder, PlayerTurnOrders, StandingOrders
from pbem.systems.westwall.movement import walk_moves
from pbem.systems.westwall.rules import WestWallRules

RULES = WestWallRules()


def _corridor() -> Any:
    return tiny_scenario(game="arnhem", cols=(1, 8), rows=(1, 1), first_player="US",
                         lines=[("river", ["0401/0501"]), ("rail-bridge", ["0401/0501"])],
                         units=[unit("us", "US", "infantry", 2, 2, 7), unit("de", "DE", "infantry", 2, 2, 7)])


def _predicts(sc: Any, st: Any, orders: PlayerTurnOrders) -> bool:
    """``rolls_on_walk`` asked of the walk without dice, as the resolution asks it."""
    excl = get_exclusive("arnhem")
    board = Board.from_state(sc, st)
    plan = walk_moves(board, orders.side, st.game_turn, orders.moves, excl, state=st)
    assert plan.violations == []
    return excl.rolls_on_walk(sc, st, orders.side, board, plan.events)


def _resolved(sc: Any, st: Any, orders: PlayerTurnOrders, faces: list[int], checked: bool) -> Any:
    """The resolution with the walk of ``check`` handed over (as the engine does) or without it."""
    c = RULES.check(sc, st, orders.side, orders)
    assert c.violations == []
    dice = FixedDice(faces)
    res = RULES.resolve(sc, st, orders.side, orders, dice, c if checked else None)
    assert dice.remaining == 0, "every die given must have been rolled"
    return res


def test_12_11_an_allied_move_short_of_the_bridge_rolls_nothing_and_is_not_walked_again() -> None:
    """us moves 0101 -> 0201 -> 0301: neither hex borders the bridge, so no die [12.11]. The
    resolution with the checked walk kept rolls nothing (no face given) and ends as the one that
    walks again with the dice: us in 0301, no roll event."""
    sc = _corridor()
    st = state_with(sc, {"us": "0101", "de": "0801"}, phasing="US")
    orders = PlayerTurnOrders(side="US", game_turn=1, moves=[MoveOrder(unit="us", path=["0201", "0301"])])
    assert _predicts(sc, st, orders) is False
    kept = _resolved(sc, st, orders, [], checked=True)
    again = _resolved(sc, st, orders, [], checked=False)
    assert kept.state == again.state and kept.events == again.events
    assert kept.state.units["us"].hex == "0301"
    assert not [e for e in kept.events if e["type"] == "roll"]


def test_12_11_an_allied_unit_entering_a_bridge_hex_rolls() -> None:
    """us goes on into 0401, a hex of which the bridge forms a side: a die is rolled as it enters
    [12.11]; a 3 leaves the bridge intact [12.12]."""
    sc = _corridor()
    st = state_with(sc, {"us": "0101", "de": "0801"}, phasing="US")
    orders = PlayerTurnOrders(side="US", game_turn=1,
                              moves=[MoveOrder(unit="us", path=["0201", "0301", "0401"])])
    assert _predicts(sc, st, orders) is True
    res = _resolved(sc, st, orders, [3], checked=True)
    assert [(e["subject"], e["die"], e["outcome"], e["hex"]) for e in res.events if e["type"] == "roll"] == [
        ("bridge 0401/0501", 3, "intact", "0401")]


def test_12_11_a_german_unit_at_the_bridge_rolls_nothing() -> None:
    """Only the first *Allied* unit brings the roll [12.11]: the German de moving 0601 -> 0501 ->
    0401 rolls nothing."""
    sc = _corridor()
    st = state_with(sc, {"us": "0101", "de": "0601"}, phasing="DE")
    orders = PlayerTurnOrders(side="DE", game_turn=1, moves=[MoveOrder(unit="de", path=["0501", "0401"])])
    assert _predicts(sc, st, orders) is False
    assert not [e for e in _resolved(sc, st, orders, [], checked=True).events if e["type"] == "roll"]


def test_12_11_a_bridge_already_tried_is_not_tried_again() -> None:
    """The bridge was rolled for before and held (the state's decided bridges): an Allied unit
    entering 0401 rolls nothing more."""
    sc = _corridor()
    st = state_with(sc, {"us": "0101", "de": "0801"}, phasing="US",
                    exclusive={"bridges": {"0401/0501": "intact"}})
    orders = PlayerTurnOrders(side="US", game_turn=1,
                              moves=[MoveOrder(unit="us", path=["0201", "0301", "0401"])])
    assert _predicts(sc, st, orders) is False
    kept = _resolved(sc, st, orders, [], checked=True)
    assert kept == _resolved(sc, st, orders, [], checked=False)
    assert kept.state.units["us"].hex == "0401"


def test_a_spared_bridge_is_noted_without_a_die_so_the_walk_is_made_again() -> None:
    """A bridge the German player spares is noted as the Allied unit reaches it, without a die
    (its event is part of the record): the prediction says the walk differs."""
    sc = _corridor()
    st = state_with(sc, {"us": "0101", "de": "0801"}, phasing="US",
                    standing={"DE": StandingOrders(spare_bridges=["0401/0501"])})
    orders = PlayerTurnOrders(side="US", game_turn=1,
                              moves=[MoveOrder(unit="us", path=["0201", "0301", "0401"])])
    assert _predicts(sc, st, orders) is True
    res = _resolved(sc, st, orders, [], checked=True)
    assert [(e["die"], e["outcome"]) for e in res.events if e["type"] == "roll"] == [(None, "spared")]
