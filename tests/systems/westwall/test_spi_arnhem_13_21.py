"""SPI Arnhem [13.21]: the engineer helps airborne units across the river "provided the Engineer
expends no additional Movement Points during that Allied Player-Turn" -- westwall/3 against
westwall/2 (issue 26).

Reading (westwall/3): "additional" is read as written: the engineer may move up to the river in
the Allied movement phase and stop; from then on it spends nothing more, and the units that move
after it (moves are made in the order given) cross with its help. A move of its own after a
crossing unit's spends more, so that unit crosses without it. westwall/2 withdrew the help for any
move of the engineer that player-turn.

Map: the river at 0303/0304, all clear; the engineer starts in 0203 (a neighbour of 0303), the
airborne para in 0302.
"""

from __future__ import annotations

from helpers.westwall import state_with, tiny_scenario, unit

from pbem.protocol.dice import FixedDice
from pbem.systems.westwall.model import MoveOrder, PlayerTurnOrders
from pbem.systems.westwall.rules import WestWallRules

V3 = WestWallRules()
V2 = WestWallRules().at_version("2")


def _costs(rules: WestWallRules, moves: list[MoveOrder]) -> dict[str, int]:
    """Half Movement Points each unit spent."""
    sc = tiny_scenario(game="arnhem", first_player="US", special={"engineer": "Eng"},
                       lines=[("river", ["0303/0304"])],
                       units=[unit("Eng", "US", "engineer", 1, 2, 7),
                              unit("para", "US", "airborne", 2, 2, 7), unit("g", "DE")])
    st = state_with(sc, {"Eng": "0203", "para": "0302", "g": "0808"}, phasing="US")
    orders = PlayerTurnOrders(side="US", game_turn=1, moves=moves)
    assert rules.validate(sc, st, "US", orders) == []
    res = rules.resolve(sc, st, "US", orders, FixedDice([]))
    return {e["unit"]: e["mp_halves"] for e in res.events if e["type"] == "moved"}


ENGINEER = MoveOrder(unit="Eng", path=["0303"])
CROSSING = MoveOrder(unit="para", path=["0303", "0304"])


def test_13_21_the_engineer_may_move_up_to_the_river_and_then_help() -> None:
    """The engineer moves 0203 -> 0303 (clear: 2 half-MP), then para goes 0302 -> 0303 -> 0304:
    two clear hexes, 2 + 2 half-MP, the river's 4 waived [13.22] = 4. westwall/2: 2 + 2 + 4 = 8."""
    assert _costs(V3, [ENGINEER, CROSSING]) == {"Eng": 2, "para": 4}
    assert _costs(V2, [ENGINEER, CROSSING]) == {"Eng": 2, "para": 8}


def test_13_21_a_move_of_the_engineer_after_the_crossing_helps_nobody() -> None:
    """Orders the other way round: when para crosses the engineer is still in 0203, away from the
    river (no help, 8), and it moves after: 8 in both versions."""
    assert _costs(V3, [CROSSING, ENGINEER]) == {"para": 8, "Eng": 2}
    assert _costs(V2, [CROSSING, ENGINEER]) == {"para": 8, "Eng": 2}
