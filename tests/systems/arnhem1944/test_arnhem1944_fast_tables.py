"""The tables the replay reads instead of asking the board hex by hex (issue 28) equal the slow
definitions they replace, on the bundled map: each hex's zone of control [4.2], its neighbours on
the map, its road links [10.1], and the searches for supply and command [9.1, 10.1] built on them."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from pbem.engine.gamedir import Game as GameDir
from pbem.engine.scenarios import load_data
from pbem.systems.arnhem1944 import combat as cb
from pbem.systems.arnhem1944.board import Board
from pbem.systems.arnhem1944.model import Formation, Scenario
from pbem.systems.arnhem1944.queries import SIDES, Game, other
from pbem.systems.arnhem1944.rules import Arnhem1944Rules
from pbem.systems.arnhem1944.state import State

COMPAT = Path(__file__).resolve().parents[2] / "compat" / "arnhem1944-historical"


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


def _command_and_supply_reference(g: Game, st: State) -> None:
    """The supply and command phase [9.1, 10.1] as written before the searches from each unit's hex
    (issue 28): every formation's road net, its HQ's supply and its units' supply and command, each
    a search out from every source."""
    board = g.board(st)
    zoc = {s: cb.zone(board, g.tec, g.hexes_of(st, other(s), zoc_only=True)) for s in SIDES}
    occupied = {s: g.hexes_of(st, s) for s in SIDES}
    road = {str(h) for h in g.sc.map.route_hexes["road"]}
    k = g.sc.constants
    hq_supplied: dict[str, bool] = {}
    order = sorted(g.sc.formations, key=lambda f: (f.supply.xxx_corps_hq, f.id))
    xxx_hqs: list[str] = []
    nets = {f.id: _road_net_reference(occupied, board, f.side,
                                      set(f.supply.hexes) | board.edge_hexes(f.supply.edges),
                                      zoc[f.side], road) for f in order}

    def sources(f: Formation) -> set[str]:
        out = set(nets[f.id])
        if f.side == "DE":
            out |= board.edge_hexes(f.supply.edges)
        if f.supply.drop_zones:
            out |= g.drop_zones(st) | set(xxx_hqs)
        return out

    for f in order:
        reach = _reach_reference(occupied, board, f.side, sources(f), k.supply_range, zoc[f.side])
        if f.hq is not None and st.units[f.hq].on_map:
            hq_hex = st.units[f.hq].hex
            ok = hq_hex in reach or st.units[f.hq].entry_turn == st.turn
            hq_supplied[f.id] = ok
            st.units[f.hq].in_supply = ok
            if ok and f.corps == "XXX" and hq_hex is not None:
                xxx_hqs.append(hq_hex)
    for f in order:
        srcs = sources(f)
        hq = f.hq
        hq_hex = st.units[hq].hex if hq is not None and st.units[hq].on_map else None
        if hq_hex is not None and hq_supplied.get(f.id):
            srcs.add(hq_hex)
        supply = _reach_reference(occupied, board, f.side, srcs, k.supply_range, zoc[f.side])
        command = (_reach_reference(occupied, board, f.side, [hq_hex], k.command_range, zoc[f.side])
                   if hq_hex is not None else {})
        for uid, u in st.units.items():
            c = g.c(uid)
            if c.formation != f.id or not u.on_map or uid == hq:
                continue
            fresh = u.entry_turn == st.turn or (st.turn == 1 and f.side == "DE")
            if c.kind == "engineer":
                hqs2 = [st.units[x.hq].hex for x in g.sc.formations
                        if x.corps == "XXX" and x.hq and st.units[x.hq].on_map]
                cmd = _reach_reference(occupied, board, f.side, [h for h in hqs2 if h], k.command_range,
                                       zoc[f.side])
                u.in_command = fresh or u.hex in cmd
            else:
                u.in_command = fresh or hq is None or (hq_hex is not None and u.hex in command)
            u.in_supply = fresh or u.hex in supply
        if hq is not None and st.units[hq].on_map:
            st.units[hq].in_command = True
            if st.units[hq].entry_turn == st.turn or (st.turn == 1 and f.side == "DE"):
                st.units[hq].in_supply = True


def _flags(st: State) -> dict[str, tuple[bool, bool]]:
    return {uid: (u.in_supply, u.in_command) for uid, u in st.units.items()}


@pytest.fixture(scope="module")
def corpus() -> tuple[Arnhem1944Rules, Game, list[State]]:
    """The rules, their game and every state of the frozen Arnhem 1944 game of the compatibility
    corpus."""
    game = GameDir.open(COMPAT)
    rules = game.ruleset
    assert isinstance(rules, Arnhem1944Rules)
    states = [r.state for r in game.replay().records]
    assert len(states) > 200
    return rules, rules.game(game.scenario), states


def test_9_1_10_1_the_phase_equals_its_reference_on_every_state_of_a_game(
        corpus: tuple[Arnhem1944Rules, Game, list[State]]) -> None:
    """Every third position of the frozen Arnhem 1944 game of the compatibility corpus, as it
    stands and with every railway bridge and ferry blown [12.2]; and in a few of them the searches
    from a unit's hex answer as the search out from the sources for every hex of the map, every
    formation, ranges 0 to 3 (the supply range is 2)."""
    rules, g, states = corpus
    hexes = sorted(g.sc.map.neighbour_table) + ["9999"]
    differ = searched = 0
    for i, state in enumerate(states[::3]):
        for blow in (False, True):
            st = state.clone()
            if blow:
                st.blown = sorted(g.sc.map.blowable)
            fast, slow = st.clone(), st.clone()
            g.command_and_supply(fast)
            _command_and_supply_reference(g, slow)
            assert rules.dump_state(g.sc, fast) == rules.dump_state(g.sc, slow), (i, blow)
            differ += _flags(fast) != _flags(st)
            if i % 40:
                continue
            board = g.board(st)
            occupied = {s: g.hexes_of(st, s) for s in SIDES}
            for f in g.sc.formations:
                zoc = cb.zone(board, g.tec, g.hexes_of(st, other(f.side), zoc_only=True))
                for starts in (g._sources(st, f, g._road_net(occupied, board, f.side, set(
                        f.supply.hexes) | board.edge_hexes(f.supply.edges), zoc,
                        {str(h) for h in g.sc.map.route_hexes["road"]}), []),
                        set(sorted(occupied[f.side])[:3]), set()):
                    for limit in (0, 1, g.sc.constants.supply_range, 3):
                        near = g._near(occupied, board, f.side, starts, limit, zoc)
                        ref = _reach_reference(occupied, board, f.side, starts, limit, zoc)
                        assert {h for h in hexes if h in near} == set(ref), (i, f.id, limit)
                        searched += len(ref)
    assert differ > 0 and searched > 0  # the phase changed flags; the searches found hexes


def test_2_2_4_2_units_by_side_equal_asking_each_units_counter(
        corpus: tuple[Arnhem1944Rules, Game, list[State]]) -> None:
    """Who stands where, whose zone it is [4.2] and who may still activate [2.2], read from each
    side's list of units, equal the same questions asked of every unit's counter, on every state
    of the game, in rules version 3 (artillery exerts a zone) and 4; a state with a unit less or
    more is asked unit by unit."""
    rules, g, states = corpus
    g3 = rules.at_version("3").game(g.sc)
    g4 = rules.at_version("4").game(g.sc)
    assert g3.readings.artillery_zoc and not g4.readings.artillery_zoc
    counter = g4.sc.counter
    asked = 0
    for g in (g3, g4):
        for st in states:
            for side in SIDES:
                assert g._members(st, side) is not None
                for zoc_only in (False, True):
                    assert g.hexes_of(st, side, zoc_only=zoc_only) == g._hexes_of_each(st, side, zoc_only)
                assert g.ready(st, side) == sorted(
                    uid for uid in st.units if counter[uid].side == side and g.can_activate(st, uid))
                for h in {u.hex for u in st.units.values() if u.hex is not None}:
                    assert g.at(st, h, side) == sorted(
                        uid for uid, u in st.units.items()
                        if u.hex == h and u.steps > 0 and counter[uid].side == side)
                    asked += 1
    assert asked > 1000
    st = states[-1].clone()
    gone = next(iter(st.units))
    del st.units[gone]
    assert g4._members(st, "AL") is None
    assert g4.hexes_of(st, counter[gone].side) == g4._hexes_of_each(st, counter[gone].side, False)
