"""SPI Arnhem [11.1] City hexes and retreats, westwall/3 against westwall/2 (issue 26).

"Units occupying, entering or retreating into City hexes may reduce all remaining retreat results
by two hexes ... A D3 must result in a retreat of at least one hex, and a D4 must result in a
retreat of at least two hexes." The reduction is "at the Owning Player's option".

Every position is on a corridor map, one row of eight hexes 0101-0801 (each next to the next,
the distance between two hexes the difference of their columns), all clear but the City hexes
named. The German attacker stands west of the Allied defender, so a retreat goes east.
"""

from __future__ import annotations

from typing import Any

from helpers.westwall import state_with, tiny_scenario, unit

from pbem.maps.hexmap import Hex
from pbem.protocol.dice import FixedDice
from pbem.systems.westwall import crt
from pbem.systems.westwall.arnhem import Arnhem
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.model import AttackOrder, PlayerTurnOrders, StandingOrders
from pbem.systems.westwall.readings import Readings
from pbem.systems.westwall.retreat import retreat
from pbem.systems.westwall.rules import WestWallRules

V3 = WestWallRules()
V2 = WestWallRules().at_version("2")


def _corridor(cities: list[str], attack: int) -> Any:
    return tiny_scenario(game="arnhem", first_player="DE", cols=(1, 8), rows=(1, 1),
                         terrain={"city": cities},
                         units=[unit("a", "DE", "infantry", attack, 4, 7),
                                unit("d", "US", "infantry", 2, 1, 7)])


def _fight(rules: WestWallRules, sc: Any, st: Any, die: int) -> tuple[Any, list[dict[str, Any]]]:
    orders = PlayerTurnOrders(side="DE", game_turn=1, attacks=[AttackOrder(attackers=["a"],
                                                                           defenders=["d"])])
    assert rules.validate(sc, st, "DE", orders) == []
    dice = FixedDice([die])
    res = rules.resolve(sc, st, "DE", orders, dice)
    assert dice.remaining == 0
    return rules.load_state(sc, res.state), res.events


def _retreat_path(events: list[dict[str, Any]]) -> list[str]:
    return next(e["path"] for e in events if e["type"] == "retreat")


def test_11_1_a_d4_entering_a_city_with_three_hexes_left_goes_one_more() -> None:
    """a at 0101 (10) attacks d at 0201 (1) on the clear line: +9, die 1, D4. d enters the City hex
    0301 after one hex with three left: two off the three leaves one, so it ends in 0401 -- two
    hexes in all, the least a D4 allows (it may not stop in 0301, one hex). westwall/2 reduced a
    retreat entering a City only with two or fewer hexes left: d went the four hexes to 0601."""
    sc = _corridor(["0301"], attack=10)
    st = state_with(sc, {"a": "0101", "d": "0201"}, phasing="DE")
    assert crt.lookup("clear", 10 - 1, 1, Board.from_state(sc, st).geo.crt) == "D4"
    new, events = _fight(V3, sc, st, 1)
    assert _retreat_path(events) == ["0201", "0301", "0401"]
    assert new.units["d"].hex == "0401"
    old, events = _fight(V2, sc, st, 1)
    assert _retreat_path(events) == ["0201", "0301", "0401", "0501", "0601"]
    assert old.units["d"].hex == "0601"


def test_11_1_a_d4_entering_a_city_after_two_hexes_ends_there_in_both_versions() -> None:
    """The case westwall/2 already had right: the City hex 0401 is reached after two hexes with
    two left, which the reduction cancels: d ends in 0401."""
    sc = _corridor(["0401"], attack=10)
    st = state_with(sc, {"a": "0101", "d": "0201"}, phasing="DE")
    for rules in (V3, V2):
        new, events = _fight(rules, sc, st, 1)
        assert _retreat_path(events) == ["0201", "0301", "0401"], rules.rules_id


def test_11_1_a_unit_that_took_the_reduction_in_its_city_stops_in_no_other() -> None:
    """d starts in the City hex 0301 and a D4 (four hexes) is reduced to two; 0401 is a City hex
    too. Stopping there would make the D4 a one-hex retreat, below its minimum of two: westwall/3
    goes on to 0501 although the preference names 0401. westwall/2 stopped in 0401."""
    sc = _corridor(["0301", "0401"], attack=2)
    st = state_with(sc, {"a": "0201", "d": "0301"})
    prefs = StandingOrders(retreat={"d": ["0401"]})
    v3 = Arnhem(Readings.of(V3.since))
    board = Board.from_state(sc, st)
    assert v3.retreat_hexes(sc, board, "d", 4, "D4") == 2
    r = retreat(board, v3, "d", 2, combat=1, prefs=prefs, away_from=[Hex.parse("0201")], called_for=4)
    assert [str(h) for h in r.path] == ["0301", "0401", "0501"] and r.eliminated is None
    v2 = Arnhem(Readings.of(V2.since))
    board = Board.from_state(sc, st)
    r = retreat(board, v2, "d", 2, combat=1, prefs=prefs, away_from=[Hex.parse("0201")], called_for=4)
    assert [str(h) for h in r.path] == ["0301", "0401"]


def _in_city(preference: list[str] | None) -> Any:
    """d (defence 1) in the City hex 0301, a (9) in 0201: +8 on the City's line, die 1, D2."""
    sc = _corridor(["0301"], attack=9)
    standing = {"US": StandingOrders(retreat={"d": preference})} if preference else None
    st = state_with(sc, {"a": "0201", "d": "0301"}, phasing="DE", standing=standing)
    line = sc.terrain_key.hexes["city"].crt
    assert crt.lookup(line, 9 - 1, 1, Board.from_state(sc, st).geo.crt) == "D2"
    return sc, st


def test_11_1_the_owner_may_decline_the_reduction_when_his_preference_asks_to_go_on() -> None:
    """D2 in a City hex: the reduction makes it no retreat, "at the Owning Player's option". The
    Allied preference names 0501, two hexes on: the full retreat ends there (distance 0), the
    reduced one in 0301 (distance 2), so the unit goes on. westwall/2 always took the reduction."""
    sc, st = _in_city(["0501"])
    new, events = _fight(V3, sc, st, 1)
    assert _retreat_path(events) == ["0301", "0401", "0501"]
    assert new.units["d"].hex == "0501"
    assert any(e["type"] == "note" and e["rule"] == "11.1" and "full 2 hexes" in e["text"]
               for e in events)
    old, events = _fight(V2, sc, st, 1)
    assert old.units["d"].hex == "0301"
    assert not [e for e in events if e["type"] == "retreat"]


def test_11_1_without_a_preference_or_with_the_city_first_it_keeps_the_reduction() -> None:
    """No preference: the reduction is taken (it can only help). A preference naming the City hex
    first keeps it too (distance 0 there, 2 at the end of the full retreat), whatever follows."""
    for preference in (None, ["0301", "0501"]):
        sc, st = _in_city(preference)
        new, events = _fight(V3, sc, st, 1)
        assert new.units["d"].hex == "0301", preference
        assert not [e for e in events if e["type"] == "retreat"]
