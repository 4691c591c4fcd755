"""Legal-move enumeration for the sparring bot and the benchmarks.

For the phasing side of a position, per unit that may move this Movement Phase (on the map, or a
waiting reinforcement whose turn has come [11.22]):

* ``destinations``: every hex it can end its move in, with the cheapest cost in half-points -- reachable
  [5.13, 5.25], honouring zones of control [5.14, 6.0] and exclusive restrictions, and vacant on the
  current board (it may pass through friends but not stop on them [5.31]);
* ``exits``: edge hexes it can leave the map from this phase, with the total cost [12.0].

Each option is turned into a signed-ready :class:`~pbem.systems.westwall.model.MoveOrder` by
:func:`move_order`. Options are computed against the board as it stands: moving one unit can free
or fill a hex for the next, so a bot should re-enumerate (or re-check with
:func:`pbem.systems.westwall.movement.validate_moves`) after choosing each move.
"""

from __future__ import annotations

from dataclasses import field

from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Exclusive, get_exclusive
from pbem.systems.westwall.model import MoveOrder, Scenario, State
from pbem.systems.westwall.movement import (
    _search,
    exit_options,
    reinforcement_entries,
)


class UnitOptions(Plain):
    unit: str
    entering: bool
    destinations: dict[Hex, int] = field(default_factory=dict)
    exits: list[tuple[Hex, int]] = field(default_factory=list)
    _prev: dict[Hex, Hex | None] = field(default_factory=dict, repr=False)

    def path_to(self, target: Hex) -> list[Hex]:
        """Hexes entered on the cheapest way to ``target`` (for a reinforcement, entry hex first)."""
        path: list[Hex] = []
        h: Hex | None = target
        while h is not None:
            path.append(h)
            h = self._prev[h]
        path.reverse()
        return path if self.entering else path[1:]


def movers(board: Board, side: str, game_turn: int) -> list[str]:
    """Units of ``side`` that may move: on the map, or reinforcements due by ``game_turn``."""
    out = board.units_of(side)
    for u in board.scenario.units:
        if u.side == side and board.status(u.id) == "waiting":
            areas, _rule, _first = reinforcement_entries(board.scenario, u.id, game_turn)
            if areas:
                out.append(u.id)
    return sorted(out)


def unit_options(
    board: Board, uid: str, game_turn: int, exclusive: Exclusive | None = None
) -> UnitOptions:
    cost, prev = _search(board, uid, game_turn, exclusive)
    start = board.unit_hex(uid)
    entering = board.status(uid) == "waiting"
    dests = {h: c for h, c in cost.items() if h == start or board.occupant(h) is None}
    # the exits [12.0] are found from the hexes the unit reaches with the rules' own exclusive
    # rules: from this search when it played those (one search a unit instead of two)
    exits = exit_options(board, uid, game_turn, cost if _plays_default(board, exclusive) else None)
    return UnitOptions(uid, entering, dict(sorted(dests.items())), exits, prev)


def _plays_default(board: Board, exclusive: Exclusive | None) -> bool:
    """Whether a search with ``exclusive`` finds what :func:`exit_options`' own search (the game's
    exclusive rules at the newest readings) finds: the same rules, the same readings, nothing
    walked."""
    if exclusive is None:
        return True
    default = get_exclusive(board.scenario.game)
    return (type(exclusive) is type(default) and exclusive.readings == default.readings
            and exclusive.walked is None)


def legal_moves(
    scenario: Scenario, state: State, side: str | None = None
) -> dict[str, UnitOptions]:
    """Options per unit for ``side`` (default: the phasing side) in ``state``."""
    board = Board.from_state(scenario, state)
    who = side or state.phasing
    ex = get_exclusive(scenario.game)
    return {
        uid: unit_options(board, uid, state.game_turn, ex)
        for uid in movers(board, who, state.game_turn)
    }


def move_order(options: UnitOptions, target: Hex, exit: bool = False) -> MoveOrder:
    """The :class:`MoveOrder` taking the unit to ``target`` (and off the map with ``exit``)."""
    if target not in options.destinations and not (
        exit and any(h == target for h, _ in options.exits)
    ):
        raise ValueError(f"{options.unit} cannot end its move in {target}")
    return MoveOrder(unit=options.unit, path=[str(h) for h in options.path_to(target)], exit=exit)


def count_options(scenario: Scenario, state: State) -> int:
    """Total number of single-unit move choices (destinations + exits) for the phasing side; a
    cheap size measure for benchmarks."""
    return sum(len(o.destinations) + len(o.exits) for o in legal_moves(scenario, state).values())
