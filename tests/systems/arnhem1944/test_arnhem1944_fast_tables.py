"""The tables the replay reads instead of asking the board hex by hex (issue 28) equal the slow
definitions they replace, on the bundled map: each hex's zone of control [4.2], its neighbours on
the map, its road links [10.1], and the searches for supply and command [9.1, 10.1] built on them."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from pbem.engine.scenarios import load_data
from pbem.systems.arnhem1944 import combat as cb
from pbem.systems.arnhem1944.board import Board
from pbem.systems.arnhem1944.model import Scenario
from pbem.systems.arnhem1944.queries import SIDES, Game, other
from pbem.systems.arnhem1944.rules import Arnhem1944Rules
from pbem.systems.arnhem1944.state import State


@pytest.fixture(scope="module")
def game() -> tuple[Game, State]:
    rules = Arnhem1944Rules()
    sc = rules.load_scenario(load_data("arnhem1944-historical"))
    assert isinstance(sc, Scenario)
    return rules.game(sc), rules.initial_state(sc, {})


def _boards(g: Game) -> list[Board]:
    """The board as made, and with every railway bridge and ferry blown [12.2]."""
    return [Board(g.sc.map, g.tec), Board(g.sc.map, g.tec, sorted(g.sc.map.blowable))]


def test_4_2_each_hex_zone_from_the_table_is_the_combat_zone(game: tuple[Game, State]) -> None:
    g, st = game
    hexes = sorted(g.sc.map.neighbour_table)
    for board in _boards(g):
        for h in hexes:
            assert board.zone([h]) == cb.zone(board, g.tec, [h]), h
        for side in SIDES:
            occupied = g.hexes_of(st, side, zoc_only=True)
            assert occupied
            assert board.zone(occupied) == cb.zone(board, g.tec, occupied)
    # a river hexside stops a zone [4.2]: the table is not every neighbour everywhere
    board = _boards(g)[0]
    assert any(len(board.zone([h])) < len(board.neighbours(h)) for h in hexes)


def test_neighbour_table_and_road_links_are_the_boards_answers(game: tuple[Game, State]) -> None:
    g, _ = game
    m = g.sc.map
    assert len(m.neighbour_table) == len(m.all_hexes())
    for board in _boards(g):
        for h, around in m.neighbour_table.items():
            assert around == tuple(board.neighbours(h))
            assert m.road_links.get(h, ()) == tuple(n for n in around if "road" in board.side(h, n))
    assert sum(len(v) for v in m.road_links.values()) > 0


# -- the searches of the supply and command phase, as written before the tables ---------------------


def _reach_reference(occupied: dict[str, set[str]], board: Board, side: str, starts: Iterable[str],
                     limit: int, zoc: frozenset[str]) -> dict[str, int]:
    enemy, friends = occupied[other(side)], occupied[side]
    dist: dict[str, int] = {}
    frontier = []
    for s in starts:
        if s not in enemy and s not in dist:
            dist[s] = 0
            frontier.append(s)
    while frontier:
        nxt = []
        for h in frontier:
            if dist[h] >= limit:
                continue
            for n in board.neighbours(h):
                if n in dist or n in enemy or (n in zoc and n not in friends):
                    continue
                dist[n] = dist[h] + 1
                nxt.append(n)
        frontier = nxt
    return dist


def _road_net_reference(occupied: dict[str, set[str]], board: Board, side: str, terminals: set[str],
                        zoc: frozenset[str], road: set[str]) -> set[str]:
    enemy, friends = occupied[other(side)], occupied[side]

    def clear(h: str) -> bool:
        return h not in enemy and (h not in zoc or h in friends)

    seen = {h for h in terminals if h in road and clear(h)}
    frontier = list(seen)
    while frontier:
        h = frontier.pop()
        for n in board.neighbours(h):
            if n not in seen and n in road and "road" in board.side(h, n) and clear(n):
                seen.add(n)
                frontier.append(n)
    return seen


def test_9_1_10_1_supply_and_command_searches_equal_their_reference(game: tuple[Game, State]) -> None:
    g, st = game
    road = {str(h) for h in g.sc.map.route_hexes["road"]}
    occupied: dict[str, set[str]] = {s: g.hexes_of(st, s) for s in SIDES}
    k = g.sc.constants
    compared = 0
    for board in _boards(g):
        zoc = {s: cb.zone(board, g.tec, g.hexes_of(st, other(s), zoc_only=True)) for s in SIDES}
        for f in g.sc.formations:
            terminals = set(f.supply.hexes) | board.edge_hexes(f.supply.edges)
            net = g._road_net(occupied, board, f.side, terminals, zoc[f.side], road)
            assert net == _road_net_reference(occupied, board, f.side, terminals, zoc[f.side], road)
            for starts in (net | terminals, sorted(occupied[f.side])):
                for limit in (0, 1, k.command_range, k.supply_range):
                    got = g._reach(occupied, board, f.side, starts, limit, zoc[f.side])
                    assert got == _reach_reference(occupied, board, f.side, starts, limit, zoc[f.side])
                    compared += bool(got)
    assert compared > 0
