"""SPI Arnhem [12.11, 12.13] with [13.25]: a bridge is tried the moment an Allied unit reaches it,
in a retreat or an advance after combat too, and the rest of the retreat or advance is judged
against the result -- westwall/3 against westwall/2 (issue 26).

"A die is rolled for demolition immediately, no matter what the Phase, whenever the first Allied
unit moves into any hex of which the bridge forms a side" [12.11]; after a successful roll "the
hexside is treated as if it were a normal Canal or River hexside ... effective immediately"
[12.13]; "Allied units may never retreat after combat through any River hexside ... (they are
eliminated instead)" [13.25].

Reading (westwall/3): a retreat is made hex by hex [7.74]; when a roll changes a hexside as the unit
reaches a hex, the rest of the retreat is chosen again from that hex, by the same order as every
retreat, against the terrain as it now is: another way on when there is one, else the unit is
eliminated where it stands [7.74], citing [13.25] when the river closed the way. An advance goes
on only as far as each next step is still allowed and stops where it is not [7.92]. westwall/2
made the whole path first and rolled after, so a unit could end across a river whose bridge it
had blown.

The rail bridge over a river is the hexside 0401/0501 (both hexes border it); a die of 1 or 2
demolishes it [12.12].
"""

from __future__ import annotations

from typing import Any

from helpers.westwall import state_with, tiny_scenario, unit

from pbem.protocol.dice import FixedDice
from pbem.systems.westwall import crt
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.model import AdvanceOrder, AttackOrder, PlayerTurnOrders, StandingOrders
from pbem.systems.westwall.rules import WestWallRules

V3 = WestWallRules()
V2 = WestWallRules().at_version("2")


def _fight(rules: WestWallRules, sc: Any, st: Any, orders: PlayerTurnOrders,
           faces: list[int]) -> tuple[Any, list[dict[str, Any]]]:
    assert rules.validate(sc, st, orders.side, orders) == []
    dice = FixedDice(faces)
    res = rules.resolve(sc, st, orders.side, orders, dice)
    assert dice.remaining == 0, "every die given must have been rolled"
    return rules.load_state(sc, res.state), res.events


def _of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def _corridor(**kw: Any) -> Any:
    """One row of hexes 0101-0801, the rail bridge over the river at 0401/0501."""
    return tiny_scenario(game="arnhem", cols=(1, 8), rows=(1, 1),
                         lines=[("river", ["0401/0501"]), ("rail-bridge", ["0401/0501"])], **kw)


def test_12_11_13_25_a_retreat_that_blows_the_bridge_ahead_ends_before_the_river() -> None:
    """German a (4) at 0201 attacks the Allied d (1) at 0301 on the clear line: +3, die 1, D2. The
    only retreat is 0401, 0501, over the bridge. Entering 0401 rolls for it: die 1, demolished.
    The way on crosses a river now, which an Allied unit may never retreat through [13.25]: d is
    eliminated in 0401, having retreated one of its two hexes. westwall/2 took it to 0501, across
    the river, and rolled afterwards."""
    sc = _corridor(first_player="DE", units=[unit("a", "DE", "infantry", 4, 4, 7),
                                             unit("d", "US", "infantry", 2, 1, 7)])
    st = state_with(sc, {"a": "0201", "d": "0301"}, phasing="DE")
    assert crt.lookup("clear", 3, 1, Board.from_state(sc, st).geo.crt) == "D2"
    orders = PlayerTurnOrders(side="DE", game_turn=1,
                              attacks=[AttackOrder(attackers=["a"], defenders=["d"])])
    new, events = _fight(V3, sc, st, orders, [1, 1])
    assert [e["path"] for e in _of(events, "retreat")] == [["0301", "0401"]]
    assert [(r["subject"], r["die"], r["outcome"], r["hex"]) for r in _of(events, "roll")] == [
        ("bridge 0401/0501", 1, "demolished", "0401")]
    assert [(e["unit"], e["hex"], e["rule"]) for e in _of(events, "eliminated")] == [("d", "0401", "13.25")]
    assert new.units["d"].status == "eliminated"
    assert new.exclusive["bridges"] == {"0401/0501": "demolished"}
    old, events = _fight(V2, sc, st, orders, [1, 1])
    assert [e["path"] for e in _of(events, "retreat")] == [["0301", "0401", "0501"]]
    assert [(r["die"], r["outcome"]) for r in _of(events, "roll")] == [(1, "demolished")]
    assert old.units["d"].hex == "0501" and old.exclusive["bridges"] == {"0401/0501": "demolished"}


def test_12_13_a_retreat_that_blows_the_bridge_takes_another_way_on() -> None:
    """On the 8x8 map, the river and its rail bridge at 0405/0406 only. German a (4) at 0403
    attacks d (1) at 0404: D2 (die 1, as above). d may not enter 0304 or 0504 (a's zone of
    control [7.71]); its owner prefers 0406, then 0506: the chosen retreat is 0405-0406. Entering
    0405 rolls for the bridge: die 2, demolished. From 0405 the hexes two from 0404 are 0306,
    0406 (across the river now [13.25]) and 0506; 0506 is the second preference: d ends there.
    westwall/2 ended it in 0406, across the river."""
    sc = tiny_scenario(game="arnhem", first_player="DE",
                       lines=[("river", ["0405/0406"]), ("rail-bridge", ["0405/0406"])],
                       units=[unit("a", "DE", "infantry", 4, 4, 7), unit("d", "US", "infantry", 2, 1, 7)])
    prefs = {"US": StandingOrders(retreat={"d": ["0406", "0506"]})}
    st = state_with(sc, {"a": "0403", "d": "0404"}, phasing="DE", standing=prefs)
    orders = PlayerTurnOrders(side="DE", game_turn=1,
                              attacks=[AttackOrder(attackers=["a"], defenders=["d"])])
    new, events = _fight(V3, sc, st, orders, [1, 2])
    assert [e["path"] for e in _of(events, "retreat")] == [["0404", "0405", "0506"]]
    assert [(r["die"], r["outcome"], r["hex"]) for r in _of(events, "roll")] == [(2, "demolished", "0405")]
    assert any(e["type"] == "note" and e["rule"] == "12.13" for e in events)
    assert new.units["d"].hex == "0506" and not _of(events, "eliminated")
    old, events = _fight(V2, sc, st, orders, [1, 2])
    assert [e["path"] for e in _of(events, "retreat")] == [["0404", "0405", "0406"]]
    assert old.units["d"].hex == "0406"


def test_12_11_12_13_an_advance_stops_where_the_blown_bridge_closes_the_way() -> None:
    """Allied armour tk (6) at 0301 attacks the German d (1) at 0401: +5, die 1, D2. d retreats
    0501, 0601 over the bridge (German units roll nothing). tk advances two hexes along d's path:
    entering 0401 rolls for the bridge, die 2, demolished; the next step crosses a river now,
    which armour may not cross [5.24]: tk stops in 0401. westwall/2 advanced it to 0501 first."""
    sc = _corridor(first_player="US", units=[unit("tk", "US", "armor", 6, 4, 12),
                                             unit("d", "DE", "infantry", 1, 1, 7)])
    st = state_with(sc, {"tk": "0301", "d": "0401"}, phasing="US")
    assert crt.lookup("clear", 5, 1, Board.from_state(sc, st).geo.crt) == "D2"
    orders = PlayerTurnOrders(side="US", game_turn=1, attacks=[AttackOrder(
        attackers=["tk"], defenders=["d"], advance=[AdvanceOrder(unit="tk", hexes=2)])])
    new, events = _fight(V3, sc, st, orders, [1, 2])
    assert [e["path"] for e in _of(events, "retreat")] == [["0401", "0501", "0601"]]
    assert [e["path"] for e in _of(events, "advance")] == [["0301", "0401"]]
    assert [(r["die"], r["outcome"], r["hex"]) for r in _of(events, "roll")] == [(2, "demolished", "0401")]
    assert new.units["tk"].hex == "0401"
    old, events = _fight(V2, sc, st, orders, [1, 2])
    assert [e["path"] for e in _of(events, "advance")] == [["0301", "0401", "0501"]]
    assert old.units["tk"].hex == "0501"


def test_12_14_an_intact_bridge_lets_the_retreat_go_on_in_both_versions() -> None:
    """The first case with a die of 3: the bridge is intact for good [12.14], and d completes its
    retreat over it to 0501."""
    sc = _corridor(first_player="DE", units=[unit("a", "DE", "infantry", 4, 4, 7),
                                             unit("d", "US", "infantry", 2, 1, 7)])
    st = state_with(sc, {"a": "0201", "d": "0301"}, phasing="DE")
    orders = PlayerTurnOrders(side="DE", game_turn=1,
                              attacks=[AttackOrder(attackers=["a"], defenders=["d"])])
    for rules in (V3, V2):
        new, events = _fight(rules, sc, st, orders, [1, 3])
        assert new.units["d"].hex == "0501", rules.rules_id
        assert new.exclusive["bridges"] == {"0401/0501": "intact"}


def test_28_the_table_of_wired_bridges_is_the_printed_map_read_hex_by_hex() -> None:
    """Which neighbours of a hex lie across a canal or rail bridge [12.0, 12.15] -- the bridges a
    unit entering the hex makes the German player try [12.11, 12.12] -- come from a table of the
    map made once (issue 28): on the bundled Arnhem map, for every hex, exactly the on-map
    neighbours in hex order whose hexside :func:`bridge_kind` calls ``canal`` or ``rail``; and
    there are such bridges of both kinds."""
    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.arnhem import bridge_kind, wired_beside

    sc = WestWallRules().load_scenario(load_data("arnhem-historical"))
    board = Board.from_state(sc, state_with(sc, {}))
    kinds: set[str | None] = set()
    for h in sorted(sc.map.all_hexes()):
        plain = [n for n in sorted(h.neighbours())
                 if board.on_map(n) and bridge_kind(board, h, n) in ("canal", "rail")]
        assert list(wired_beside(board, h)) == plain, h
        kinds.update(bridge_kind(board, h, n) for n in plain)
    assert kinds == {"canal", "rail"}
