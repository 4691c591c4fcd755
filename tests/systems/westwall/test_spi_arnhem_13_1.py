"""SPI Arnhem [13.1]: the engineer repairs a demolished canal bridge only when it stayed "free of
Enemy Zones of Control for an entire German Player-Turn" -- westwall/3 against westwall/2, which
looked only at the end of the German player-turn (issue 26).

Map: the road 0301-0302-0303 | canal bridge 0303/0304 (demolished) | 0304-0305, canals at
0203/0204 and 0403/0404. The engineer Eng stands in 0303, next to the bridge, since the end of
the Allied player-turn. 0303's neighbours are 0202, 0203, 0302, 0304, 0402 and 0403.
"""

from __future__ import annotations

from typing import Any

from helpers.westwall import state_with, tiny_scenario, unit

from pbem.maps.hexmap import Hex
from pbem.protocol.dice import FixedDice
from pbem.systems.westwall import crt
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.model import AttackOrder, MoveOrder, PlayerTurnOrders
from pbem.systems.westwall.rules import WestWallRules

V3 = WestWallRules()
V2 = WestWallRules().at_version("2")


def _scenario() -> Any:
    return tiny_scenario(
        game="arnhem", first_player="US", special={"engineer": "Eng"},
        routes=[("road", ["0301", "0302", "0303", "0304", "0305"])],
        lines=[("canal", ["0303/0304", "0203/0204", "0403/0404"])],
        units=[unit("Eng", "US", "engineer", 1, 2, 7), unit("g", "DE", "infantry", 1, 1, 7)])


def _german_turn(rules: WestWallRules, orders: PlayerTurnOrders, faces: list[int]) -> tuple[Any, Any]:
    sc = _scenario()
    st = state_with(sc, {"Eng": "0303", "g": "0201"}, phasing="DE",
                    exclusive={"bridges": {"0303/0304": "demolished"},
                               "destroyed_bridges": ["0303/0304"], "engineer_hex": "0303"})
    assert rules.validate(sc, st, "DE", orders) == []
    dice = FixedDice(faces)
    res = rules.resolve(sc, st, "DE", orders, dice)
    assert dice.remaining == 0
    return rules.load_state(sc, res.state), res.events


def test_13_1_an_enemy_that_came_adjacent_attacked_and_was_thrown_back_stops_the_repair() -> None:
    """g (1) moves from 0201 to 0302, next to the engineer (defence 2), and attacks it: -1 on the
    clear line, die 3, A1. g retreats one hex, out of the engineer's zone of control; at the end
    of the German player-turn no German unit is next to 0303. But g exerted a zone of control on
    0303 from 0302 during the player-turn: westwall/3 makes no repair. westwall/2, looking only
    at the end, repaired the bridge."""
    sc = _scenario()
    assert crt.lookup("clear", -1, 3, Board.from_state(sc, state_with(sc, {})).geo.crt) == "A1"
    orders = PlayerTurnOrders(side="DE", game_turn=1, moves=[MoveOrder(unit="g", path=["0302"])],
                              attacks=[AttackOrder(attackers=["g"], defenders=["Eng"])])
    new, events = _german_turn(V3, orders, [3])
    combat = next(e for e in events if e["type"] == "combat")
    assert combat["result"] == "A1"
    g = Hex.parse(new.units["g"].hex)
    assert g.distance(Hex.parse("0303")) == 2  # thrown back out of the zone of control
    assert new.exclusive["bridges"]["0303/0304"] == "demolished"
    assert new.exclusive["destroyed_bridges"] == ["0303/0304"]
    assert not any(e.get("rule") == "13.1" for e in events)
    old, events = _german_turn(V2, orders, [3])
    assert old.units["g"].hex == new.units["g"].hex
    assert old.exclusive["bridges"]["0303/0304"] == "repaired"
    assert any(e.get("rule") == "13.1" for e in events)


def test_13_1_a_german_player_turn_that_stays_away_lets_it_repair_in_both_versions() -> None:
    """g moves 0201 -> 0101, never next to 0303: the bridge is repaired under either version."""
    orders = PlayerTurnOrders(side="DE", game_turn=1, moves=[MoveOrder(unit="g", path=["0101"])])
    for rules in (V3, V2):
        new, _events = _german_turn(rules, orders, [])
        assert new.exclusive["bridges"]["0303/0304"] == "repaired", rules.rules_id
