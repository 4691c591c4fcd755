"""A unit's move options come from one search (issue 28): :func:`enumerate.unit_options` finds the
exits [12.0] from the costs of the search it made for the destinations instead of searching again
through :func:`movement.exit_options`. On positions the sparring bot reaches in bundled games (exits
off the map, reinforcements entering, airborne landings), the exits and the whole options must be
exactly those of the two searches."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from pbem.engine.scenarios import load_data
from pbem.protocol.dice import DiceStream
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.bot import choose_orders
from pbem.systems.westwall.enumerate import movers, unit_options
from pbem.systems.westwall.exclusive import get_exclusive
from pbem.systems.westwall.movement import _search, exit_options
from pbem.systems.westwall.readings import Readings
from pbem.systems.westwall.rules import WestWallRules, parse_state

RULES = WestWallRules()


def _positions(scenario_id: str, steps: int) -> list[tuple[Any, Any]]:
    """(scenario, state) at each player-turn of the bot's game of ``scenario_id``, ``steps`` steps."""
    sc = RULES.load_scenario(load_data(scenario_id))
    state: Any = RULES.initial_state(sc, {})
    out = []
    for step in range(steps):
        pend = RULES.pending(sc, state)
        if not pend:
            break
        st = parse_state(state)
        if st.phase == "player-turn":
            out.append((sc, st))
        side = pend[0].side
        orders = choose_orders(sc, state, side, seed=1)
        dice = DiceStream(hashlib.sha256(f"{scenario_id}/{step}".encode()).digest())
        state = RULES.resolve(sc, state, side, orders, dice).state
    return out


@pytest.mark.parametrize("scenario_id", ["bastogne-spearhead", "arnhem-historical"])
def test_options_from_one_search_equal_those_of_two(scenario_id: str) -> None:
    exits_seen = units_seen = 0
    for sc, st in _positions(scenario_id, 9):
        board = Board.from_state(sc, st)
        ex = get_exclusive(sc.game)
        for side in sc.side_ids():
            for uid in movers(board, side, st.game_turn):
                cost, prev = _search(board, uid, st.game_turn, ex)
                slow_exits = exit_options(board, uid, st.game_turn)
                assert exit_options(board, uid, st.game_turn, cost) == slow_exits, (scenario_id, uid)
                fast = unit_options(board, uid, st.game_turn, ex)
                assert fast.exits == slow_exits
                assert fast._prev == prev
                assert fast.destinations == dict(sorted(
                    (h, c) for h, c in cost.items() if h == board.unit_hex(uid) or board.occupant(h) is None))
                exits_seen += len(slow_exits)
                units_seen += 1
    assert units_seen > 20
    if scenario_id == "bastogne-spearhead":
        assert exits_seen > 0  # the German's exits off the west edge [12.0] were compared


def test_other_readings_search_the_exits_again() -> None:
    """An exclusive at other readings than the newest finds its exits through
    :func:`exit_options` (which searches with the newest): the options do not change."""
    sc, st = _positions("bastogne-spearhead", 6)[-1]
    board = Board.from_state(sc, st)
    older = get_exclusive(sc.game, Readings(exact_victory_ratio=False))
    for uid in movers(board, st.phasing, st.game_turn):
        assert unit_options(board, uid, st.game_turn, older).exits == exit_options(board, uid, st.game_turn)
