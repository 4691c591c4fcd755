"""Which case a refusal or an elimination cites when the standard engine checks a mechanism for the
exclusive rules in play (:class:`~pbem.systems.westwall.exclusive.Citations`): Bastogne's own
[11.0-12.12] in a Bastogne game, Arnhem's own [15.0-15.43] in an Arnhem game (Arnhem's 11.x and
12.x are its City and bridge rules), never the other game's numbers.

The same 8 x 8 position for both games (default compass: column 01 is the west edge, column 08
the east edge): a U.S. reinforcement due on Game-Turn 2 at the east edge 0803-0805 (its schedule:
case "18.1"), German units that may exit by the west edge only.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.westwall import area, state_with, tiny_scenario, unit

from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import STANDARD_CITATIONS, Exclusive, get_exclusive
from pbem.systems.westwall.model import MoveOrder, PlayerTurnOrders, Scenario, State
from pbem.systems.westwall.readings import NEWEST
from pbem.systems.westwall.retreat import retreat
from pbem.systems.westwall.rules import WestWallRules

H = Hex.parse
R = WestWallRules()
V2 = R.at_version("2").readings


def _scenario(game: str, exit_rule: str, **kw: Any) -> Scenario:
    special: dict[str, object] = {}
    if game == "arnhem":  # the exit stretches of [15.41] on this small map: the whole west edge
        special = {"exit_west": ["0101", "0108"], "exit_east": ["0801", "0808"],
                   "reenter_east": ["0801", "0808"]}
    return tiny_scenario(
        game=game,
        first_player="US",
        units=[unit("r", "US", move=2), unit("tk", "US", "armor", 5, 4, 12), unit("u", "US"),
               unit("g", "DE", move=2), unit("h", "DE"), unit("e", "DE")],
        reinforcements=[{"side": "US", "turn": 2, "units": ["r", "tk"], "rule": "18.1",
                         "entry": [area(edge="east", from_hex="0803", to_hex="0805",
                                        text="east edge 0803-0805")]}],
        exits=[{"side": "DE", "edges": ["west"], "rule": exit_rule}],
        special=special,
        **kw,
    )


def _rules(sc: Scenario, st: State, side: str, *moves: MoveOrder) -> list[str]:
    orders = PlayerTurnOrders(side=side, game_turn=st.game_turn, moves=list(moves))
    return sorted(v.rule for v in R.validate(sc, st, side, orders))


def _refusals(game: str, exit_rule: str) -> dict[str, list[str]]:
    """What each refused order cites in ``game``."""
    sc = _scenario(game, exit_rule)
    woods = _scenario(game, exit_rule, terrain={"woods": ["0804", "0102"]})
    us = state_with(sc, {"u": "0105", "g": "0707", "h": "0303"}, phasing="US", game_turn=2)
    de = state_with(sc, {"u": "0505", "g": "0102", "h": "0303"}, phasing="DE", game_turn=2,
                    exited=["e"])
    de = de.replace(**{"units": {**de.units, "e": de.units["e"].replace(**{"exit_edge": "west", "exit_turn": 2})}})
    held = state_with(sc, {"u": "0405", "g": "0804", "h": "0303"}, phasing="US", game_turn=2)
    early = state_with(sc, {"u": "0405", "g": "0707", "h": "0303"}, phasing="US", game_turn=1)
    return {
        "not yet due": _rules(sc, early, "US", MoveOrder(unit="r", path=["0804"])),
        "not an entry hex": _rules(sc, us, "US", MoveOrder(unit="r", path=["0802"])),
        "entry hex held": _rules(sc, held, "US", MoveOrder(unit="r", path=["0804"])),
        "entry terrain": _rules(woods, state_with(woods, {"u": "0405", "g": "0707", "h": "0303"},
                                                  phasing="US", game_turn=2),
                                "US", MoveOrder(unit="tk", path=["0804"])),
        "U.S. exit": _rules(sc, us, "US", MoveOrder(unit="u", exit=True)),  # from 0105, west
        "wrong edge": _rules(sc, de, "DE", MoveOrder(unit="h", path=["0203"], exit=True)),
        "exit cost": _rules(woods, de, "DE", MoveOrder(unit="g", exit=True)),
        "back the same turn": _rules(sc, de, "DE", MoveOrder(unit="e", path=["0101"])),
    }


def test_the_same_position_is_legal_in_both_games() -> None:
    # The premise of the two tests below: the orders they refuse differ from legal ones only in
    # what they break (the right entry hex, a German exit by the west edge).
    for game in ("bastogne", "arnhem"):
        sc = _scenario(game, "15.41")
        us = state_with(sc, {"u": "0105", "g": "0707", "h": "0303"}, phasing="US", game_turn=2)
        assert _rules(sc, us, "US", MoveOrder(unit="r", path=["0804"])) == []
        de = state_with(sc, {"u": "0505", "g": "0102", "h": "0303"}, phasing="DE", game_turn=2)
        assert _rules(sc, de, "DE", MoveOrder(unit="g", exit=True)) == []


def test_bastogne_cites_bastogne() -> None:
    assert _refusals("bastogne", "15.17") == {
        "not yet due": ["11.0"],
        "not an entry hex": ["11.11"],  # the schedule names where; 11.11 says it must be there
        "entry hex held": ["11.21"],
        "entry terrain": ["11.11"],  # "All terrain restrictions apply to entry hexes."
        "U.S. exit": ["12.12"],  # "Units may only exit the map during the German ... Phase."
        "wrong edge": ["12.0"],
        "exit cost": ["12.0"],  # the woods beyond woods 0102 cost 3 MP; g has 2
        "back the same turn": ["12.11"],
    }


def test_arnhem_cites_arnhem() -> None:
    assert _refusals("arnhem", "15.41") == {
        "not yet due": ["15.0"],
        "not an entry hex": ["18.1"],  # its scheduled hex or alternate [15.24]: the schedule's
        "entry hex held": ["15.21"],
        "entry terrain": ["15.11"],
        "U.S. exit": ["15.4"],  # "Only the Geman Player may exit his units from the map."
        # the engine's edge check and Arnhem's own stretch check [15.41] both refuse it
        "wrong edge": ["15.41", "15.41"],
        "exit cost": ["15.4"],
        "back the same turn": ["15.42"],  # "on any subsequent Game-Turn"
    }


def test_the_bastogne_exit_refusal_names_the_scenario_rule_of_the_edge() -> None:
    sc = _scenario("bastogne", "15.17")
    de = state_with(sc, {"u": "0505", "g": "0102", "h": "0303"}, phasing="DE", game_turn=2)
    orders = PlayerTurnOrders(side="DE", game_turn=2,
                              moves=[MoveOrder(unit="h", path=["0203"], exit=True)])
    (v,) = R.validate(sc, de, "DE", orders)
    assert str(v) == "h cannot leave the map from 0203: exits only by the west edge [12.0, 15.17]"


def test_the_tables() -> None:
    assert get_exclusive("standard").citations == STANDARD_CITATIONS
    assert Exclusive().entry_case("18.1") == "11.11"
    assert get_exclusive("arnhem").entry_case("18.1") == "18.1"
    assert get_exclusive("bastogne").citations.who_may_exit == "12.12"
    assert STANDARD_CITATIONS.who_may_exit == "12.0"  # a standard game: the scenario decides


# -- forced off the map by combat --------------------------------------------------------------------

def _edge_board(game: str, positions: dict[str, str]) -> Board:
    """A one-row map 0101-0401 (each hex touches only its column neighbours)."""
    sc = tiny_scenario(game=game, cols=(1, 4), rows=(1, 1),
                       units=[unit("de1", "DE", "infantry", 4, 4, 7), unit("us1", "US")])
    return Board.from_state(sc, state_with(sc, positions, phasing="DE"))


@pytest.mark.parametrize(("game", "v3", "v2"), [("standard", "12.12", "12.12"),
                                                ("bastogne", "12.12", "12.12"),
                                                ("arnhem", "15.43", "12.12")])
def test_a_unit_forced_off_the_map_by_combat(game: str, v3: str, v2: str) -> None:
    # us1 in 0301 attacked from 0201 must retreat 2: 0401, then only off the map -> eliminated
    # in 0401 (Bastogne 12.12, Arnhem 15.43). westwall/2 cited 12.12 in every game.
    for readings, case in ((NEWEST, v3), (V2, v2)):
        b = _edge_board(game, {"de1": "0201", "us1": "0301"})
        r = retreat(b, get_exclusive(game, readings), "us1", 2, combat=1, away_from=[H("0201")])
        assert r.path == [H("0301"), H("0401")] and r.eliminated == case
        assert r.events[-1].rule == case  # type: ignore[union-attr]


@pytest.mark.parametrize(("game", "v3"), [("bastogne", "12.12"), ("arnhem", "15.43")])
def test_the_only_other_way_on_is_into_the_attacker(game: str, v3: str) -> None:
    # us1 in 0401 at the end of the row, attacked from 0301: its one hex on the map is the
    # attacker's, which no unit may enter [5.12]; every other way leaves the map. westwall/3:
    # forced off the map; westwall/2: unable to retreat [7.74].
    for readings, case in ((NEWEST, v3), (V2, "7.74")):
        b = _edge_board(game, {"de1": "0301", "us1": "0401"})
        r = retreat(b, get_exclusive(game, readings), "us1", 1, combat=1, away_from=[H("0301")])
        assert r.path == [H("0401")] and r.eliminated == case
