"""The values of *Arnhem 1944* and questions about a position: a scenario with the tables it
plays with (:class:`Game`) -- who stands where, zones of control, movement allowances and paths,
the units still to activate, command and supply [9, 10], the far bank and the bridgehead [16] --
and :func:`mark_bridge`, which records who holds the Arnhem bridge. The readings of the text
are in :mod:`pbem.systems.arnhem1944.rules`."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import Any, cast

from pbem.engine.ruleset import Ruleset
from pbem.plain import Plain
from pbem.systems.arnhem1944.board import Board
from pbem.systems.arnhem1944.model import Counter, Formation, Scenario
from pbem.systems.arnhem1944.state import Side, State, UnitState
from pbem.systems.arnhem1944.tables import Crt, Tec, default_crt, default_tec

SIDES: tuple[Side, Side] = ("AL", "DE")
PARACHUTE = frozenset({"1AB", "82AB", "Pol"})
"""Parachute formations: XXX Corps artillery may support them [8.4]."""
AIRBORNE_1AB = "1AB"


def other(side: str) -> Side:
    return "DE" if side == "AL" else "AL"


# -- the game's values -----------------------------------------------------------------------------


class Values(Plain, frozen=True):
    cf: int
    armour: int
    antitank: int
    mp: int


def values(c: Counter, steps: int) -> Values:
    """A counter's printed values, from its second counter once reduced to it [1.2]."""
    r = c.reduced
    if r is not None and steps <= r.steps:
        return Values(r.cf, r.armour, r.antitank, r.mp)
    return Values(c.cf, c.armour, c.antitank, c.mp)


class Readings(Plain, frozen=True):
    """What the rules version a game plays decides, where a later version changed a result (issue
    26): built once from the ruleset (:meth:`of`) and passed down inside :class:`Game`. The
    defaults are the newest version's. Each field names its case; the quotes and the reasons are in
    ``docs/arnhem1944.md``."""

    entry_hex_demolition: bool = True
    """[12.2] "the moment an allied unit enters a hex adjacent": a reinforcement entering the map
    on a hex of a railway bridge or ferry rolls for it, as every other hex a move enters does
    (version 3: only the hexes after the entry hex). Only movement rolls, in every version: not an
    advance after combat, a retreat or a landing."""
    own_positions: bool = True
    """[11.1] "PDPs are not transferable between units": a defending stack is in a prepared position
    only when every unit defending in it prepared its own (version 3: when any one had)."""
    artillery_zoc: bool = False
    """[4.2] "All combat units and EMs exert a ZdC": artillery does not (version 3: it did)."""
    first_turn_weather_die: bool = True
    """[2.1, 14.1] with random weather the die decides turn 1 too, rolled with the Allied set-up
    (version 3: the turn track's weather on turn 1)."""
    mobile_only_in_enemy_zoc: bool = True
    """[15.2] "units may drop in enemy ZdC, and may attack the enemy during its activation but may
    only use mobile combat": only units that landed in an enemy zone are held to mobile assaults
    on the turn they drop (version 3: every unit dropped that turn)."""

    @classmethod
    def of(cls, rules: Ruleset[Any, Any, Any]) -> Readings:
        """The readings of ``rules`` (an :class:`~pbem.engine.ruleset.Ruleset` at its version)."""
        v4 = bool(rules.since("4"))
        return cls(entry_hex_demolition=v4, own_positions=v4, artillery_zoc=not v4,
                   first_turn_weather_die=v4, mobile_only_in_enemy_zoc=v4)


class Game:
    """A scenario with the tables it plays with, the readings of the rules version the game plays
    (:class:`Readings`), and questions about a state."""

    def __init__(self, sc: Scenario, crt: Crt | None = None, tec: Tec | None = None, *,
                 readings: Readings | None = None) -> None:
        self.sc = sc
        self.crt = crt or default_crt()
        self.tec = tec or default_tec()
        self.readings = readings or Readings()
        self._edges: dict[tuple[str, ...], frozenset[str]] = {}
        """Map edges -> their hex numbers (:meth:`edge_ids`): derived from the scenario's map."""
        self._roads = frozenset(str(h) for h in sc.map.route_hexes.get("road", frozenset()))
        """The road hexes' numbers [10.1]."""
        self._supply_order = tuple(sorted(sc.formations, key=lambda f: (f.supply.xxx_corps_hq, f.id)))
        """The formations in the order of the supply phase: XXX Corps' HQs, which may supply the
        airborne, first [10.1]."""
        self._ids = frozenset(sc.counter)
        self._units_of: dict[str, tuple[str, ...]] = {s: tuple(c.id for c in sc.counters if c.side == s) for s in SIDES}
        """Each side's units (the scenario's counters), read instead of every unit's counter when
        a state holds exactly the scenario's units (:meth:`_members`)."""
        self._zoc_units_of: dict[str, tuple[str, ...]] = {s: tuple(c.id for c in sc.counters if c.side == s and not (
            c.kind == "engineer" or (c.kind == "artillery" and not self.readings.artillery_zoc)))
            for s in SIDES}
        """The same, less those that exert no zone of control [4.2, 12.1] (artillery: see
        :class:`Readings`)."""

    def board(self, st: State) -> Board:
        return Board(self.sc.map, self.tec, st.blown)

    def edge_ids(self, edges: Iterable[str]) -> frozenset[str]:
        """:meth:`Board.edge_hexes`, worked out once per tuple of edges."""
        key = tuple(edges)
        hit = self._edges.get(key)
        if hit is None:
            hit = self._edges[key] = frozenset(str(h) for e in key for h in self.sc.map.edge_hexes(e))
        return hit

    def c(self, uid: str) -> Counter:
        return self.sc.counter[uid]

    def _members(self, st: State, side: str, zoc_only: bool = False) -> tuple[str, ...] | None:
        """``side``'s units (those that exert a zone of control with ``zoc_only``) when ``st``
        holds exactly the scenario's units, as every state the rules make does; else None (the
        callers then ask each unit's counter)."""
        members = (self._zoc_units_of if zoc_only else self._units_of).get(side)
        return members if members is not None and st.units.keys() == self._ids else None

    def hexes_of(self, st: State, side: str, *, zoc_only: bool = False) -> set[str]:
        """The hexes of ``side``'s units on the map (only those exerting a zone of control with
        ``zoc_only`` [4.2])."""
        members = self._members(st, side, zoc_only)
        if members is None:
            return self._hexes_of_each(st, side, zoc_only)
        units = st.units
        out = set()
        for uid in members:  # a move asks at every step: the side's units only, no counters
            u = units[uid]
            h = u.hex
            if h is not None and u.steps > 0:
                out.add(h)
        return out

    def _hexes_of_each(self, st: State, side: str, zoc_only: bool) -> set[str]:
        """:meth:`hexes_of` by each unit's counter."""
        out = set()
        counter = self.sc.counter
        for uid, u in st.units.items():
            if u.hex is None or u.steps <= 0:  # not on the map
                continue
            c = counter[uid]
            if c.side == side:
                if zoc_only and (c.kind == "engineer" or (
                        c.kind == "artillery" and not self.readings.artillery_zoc)):
                    continue  # [4.2, 12.1] no CF, no zone (artillery: see Readings)
                out.add(u.hex)
        return out

    def enemy_zoc(self, st: State, side: str, board: Board | None = None) -> frozenset[str]:
        """Hexes in the zone of control of ``side``'s enemy [4.2]."""
        b = board or self.board(st)
        return b.zone(self.hexes_of(st, other(side), zoc_only=True))

    def at(self, st: State, h: str, side: str | None = None) -> list[str]:
        """The units at ``h`` (``side``'s only, when given), by id."""
        units = st.units
        if side is None:
            return sorted(uid for uid, u in units.items() if u.hex == h and u.steps > 0)
        members = self._members(st, side)
        if members is None:
            counter = self.sc.counter
            return sorted(uid for uid, u in units.items()
                          if u.hex == h and u.steps > 0 and counter[uid].side == side)
        return sorted(uid for uid in members if units[uid].hex == h and units[uid].steps > 0)

    def allowance(self, st: State, uid: str) -> int:
        """Movement allowance in half MP [6.1, 9.2, 10.2, 15.1, errata]."""
        u = st.units[uid]
        c = self.c(uid)
        full = 2 * values(c, u.steps).mp
        if u.entry_turn == st.turn:
            return full
        form = self.sc.formation[c.formation]
        ooc = not u.in_command and form.hq is not None
        oos = not u.in_supply and c.mobility != "leg"
        return full // 2 if (ooc or oos) else full

    def reinforcement(self, uid: str) -> Any:
        return self.sc.reinforcement_of.get(uid)

    def due_turn(self, st: State, uid: str) -> int | None:
        r = self.reinforcement(uid)
        if r is None:
            return None
        if r.hex is not None and st.options.xxx_corps_early:
            return max(1, r.turn - 1)  # [15.3] optional
        return int(r.turn)

    def can_activate(self, st: State, uid: str) -> bool:
        u = st.units[uid]
        if not u.alive or u.activated:
            return False
        if u.hex is not None:
            return True
        due = self.due_turn(st, uid)
        return due is not None and due <= st.turn and not u.entered

    def pass_ends_turn(self, st: State, side: str) -> str | None:
        """[2.2] whether ``side`` passing now ends the turn (the operations phase of the full
        sequence), and why: ``"both"`` after the other side's pass (two in a row), ``"alone"`` when the
        other side has no unit left to activate; ``None``: the turn goes on, the other side to act.
        The rules resolve a pass by it, and the pass's preview says the same."""
        them = other(side)
        if st.passed == them:
            return "both"
        if not self.ready(st, them):
            return "alone"
        return None

    def ready(self, st: State, side: str) -> list[str]:
        """[2.2] the side's units still to activate this turn (:meth:`can_activate`, written out
        over the side's units: asked after every segment)."""
        members = self._members(st, side)
        if members is None:
            counter = self.sc.counter
            return sorted(uid for uid in st.units
                          if counter[uid].side == side and self.can_activate(st, uid))
        units = st.units
        out = []
        for uid in members:
            u = units[uid]
            if u.steps <= 0 or u.activated:
                continue
            if u.hex is not None:
                out.append(uid)
                continue
            due = self.due_turn(st, uid)
            if due is not None and due <= st.turn and not u.entered:
                out.append(uid)
        out.sort()
        return out

    def cheapest_path(self, st: State, side: Side, start: str, dest: str) -> list[str] | None:
        """The cheapest path from ``start`` to ``dest`` by the TEC [6.3], entering no enemy unit
        and no enemy zone of control before its last hex [4.2] (ties: the first by hex number)."""
        if start == dest:
            return None
        path = self._cheapest(st, side, {start: 0}, dest, entering=False)
        return path[1:] if path else None

    def cheapest_entry(self, st: State, side: Side, entries: Iterable[str],
                       dest: str) -> list[str] | None:
        """The cheapest way onto the map to ``dest`` for a reinforcement [15.1, 15.3, 6.3]: one
        of ``entries`` (its entry hex, whose TEC cost is paid), then the path; it stops in the
        first enemy zone of control it enters, the entry hex included [4.2]. The hexes from the
        entry hex to ``dest``, or None."""
        board = self.board(st)
        enemy = self.hexes_of(st, other(side))
        starts = {e: board.entry_halves(e) for e in entries
                  if board.on_map(e) and e not in enemy}
        return self._cheapest(st, side, starts, dest, entering=True)

    def _cheapest(self, st: State, side: Side, starts: dict[str, int], dest: str, *,
                  entering: bool) -> list[str] | None:
        board = self.board(st)
        zoc = self.enemy_zoc(st, side, board)
        enemy = self.hexes_of(st, other(side))
        best: dict[str, int] = dict(starts)
        prev: dict[str, str] = {}
        heap: list[tuple[int, str]] = [(c, h) for h, c in sorted(starts.items())]
        heapq.heapify(heap)
        while heap:
            cost, h = heapq.heappop(heap)
            if h == dest:
                break
            if cost > best.get(h, 1 << 30) or (h in zoc and (entering or h not in starts)):
                continue
            for n in board.neighbours(h):
                step = board.step_halves(h, n)
                if step is None or n in enemy or (h in starts and h in zoc and n in zoc):
                    continue
                c = cost + step
                if c < best.get(n, 1 << 30):
                    best[n] = c
                    prev[n] = h
                    heapq.heappush(heap, (c, n))
        if dest not in best:
            return None
        path = [dest]
        while path[-1] in prev:
            path.append(prev[path[-1]])
        return path[::-1]

    def reachable(self, st: State, uid: str) -> dict[str, int]:
        """Every hex ``uid`` can reach with its whole allowance this activation, with its cost
        in half MP [4.2, 6, 9.2, 10.2] (the engineer's crossings [12.1] left out)."""
        u = st.units[uid]
        if u.hex is None:
            return {}
        side = self.c(uid).side
        board = self.board(st)
        zoc = self.enemy_zoc(st, side, board)
        enemy = self.hexes_of(st, other(side))
        allowance = self.allowance(st, uid)
        start = u.hex
        best: dict[str, int] = {start: 0}
        heap: list[tuple[int, str]] = [(0, start)]
        while heap:
            cost, h = heapq.heappop(heap)
            if cost > best.get(h, 1 << 30) or (h != start and h in zoc):
                continue
            for n in board.neighbours(h):
                step = board.step_halves(h, n)
                if step is None or n in enemy:
                    continue
                if h == start and start in zoc:
                    if n in zoc:
                        continue
                    step += (allowance + 1) // 2
                c = cost + step
                if c <= allowance and c < best.get(n, 1 << 30):
                    best[n] = c
                    heapq.heappush(heap, (c, n))
        return best

    # -- command and supply [9, 10] -------------------------------------------------------------
    def _reach(self, occupied: dict[str, set[str]], board: Board, side: str, starts: Iterable[str],
               limit: int, zoc: frozenset[str]) -> dict[str, int]:
        """Hexes within ``limit`` of ``starts`` by paths entering no enemy unit and no unnegated
        enemy zone [4.2, 9.1, 10.1] (the starts themselves count, distance 0). ``occupied``: each
        side's hexes (:meth:`hexes_of`; no unit moves in the supply and command phase)."""
        enemy = occupied[other(side)]
        # a hex a path may not enter: an enemy unit's, or in an enemy zone with no friend in it
        blocked = enemy | (zoc - occupied[side])
        table = board.map.neighbour_table
        dist: dict[str, int] = {}
        frontier = []
        for s in starts:
            if s not in enemy and s not in dist:
                dist[s] = 0
                frontier.append(s)
        d = 0
        while frontier and d < limit:  # breadth first: every hex of the frontier is at d
            d += 1
            nxt = []
            for h in frontier:
                around = table.get(h)
                for n in around if around is not None else board.neighbours(h):
                    if n in dist or n in blocked:
                        continue
                    dist[n] = d
                    nxt.append(n)
            frontier = nxt
        return dist

    def _near(self, occupied: dict[str, set[str]], board: Board, side: str, starts: set[str],
              limit: int, zoc: frozenset[str]) -> _Near | dict[str, int]:
        """What :meth:`_reach` answers about a hex (``h in ...``), found from that hex back towards
        the starts (:class:`_Near`): the supply phase asks about a few units' hexes within the
        supply range of a formation's sources, a road net of up to hundreds of hexes [10.1], and
        searching out from every source was most of the phase (issue 28). :meth:`_reach` itself
        when a start is not a hex of the map's neighbour table (there its neighbours need not
        answer back)."""
        table = board.map.neighbour_table
        enemy = occupied[other(side)]
        kept = starts - enemy
        if not kept <= table.keys():
            return self._reach(occupied, board, side, kept, limit, zoc)
        return _Near(table, kept, enemy | (zoc - occupied[side]), limit)

    def _road_net(self, occupied: dict[str, set[str]], board: Board, side: str, terminals: set[str],
                  zoc: frozenset[str], road: set[str]) -> set[str]:
        """Road hexes (``road``) joined by road to ``terminals`` through hexes free of enemy units
        and unnegated zones [10.1]."""
        # a hex is clear when free of enemy units and of unnegated enemy zones
        open_road = road - occupied[other(side)] - (zoc - occupied[side])
        links = board.map.road_links  # a road along the hexside (Board.side keeps "road" when blown)
        seen = {h for h in terminals if h in open_road}
        frontier = list(seen)
        while frontier:
            h = frontier.pop()
            joined = links.get(h)
            if joined is None:  # not a hex of the map's table
                joined = tuple(n for n in board.neighbours(h) if "road" in board.side(h, n))
            for n in joined:
                if n not in seen and n in open_road:
                    seen.add(n)
                    frontier.append(n)
        return seen

    def command_and_supply(self, st: State) -> None:
        """The supply and command phase [2.1, 9.1, 10.1 with errata], in place on ``st``: each
        formation's road net [10.1], then its HQ's supply (XXX Corps' HQs first, since a
        supplied one supplies the airborne [10.1]), then its units' supply and command [9.1]."""
        board = self.board(st)
        zoc = {s: self.enemy_zoc(st, s, board) for s in SIDES}
        occupied: dict[str, set[str]] = {s: self.hexes_of(st, s) for s in SIDES}  # no unit moves now
        road = set(self._roads)
        hq_supplied: dict[str, bool] = {}
        order = self._supply_order
        xxx_hqs: list[str] = []
        nets: dict[str, set[str]] = {}
        made: dict[tuple[str, frozenset[str]], set[str]] = {}  # formations of a side sharing terminals
        for f in order:
            terminals = frozenset(f.supply.hexes) | self.edge_ids(f.supply.edges)
            net = made.get((f.side, terminals))
            if net is None:
                net = made[(f.side, terminals)] = self._road_net(occupied, board, f.side, set(terminals),
                                                                 zoc[f.side], road)
            nets[f.id] = net
        members: dict[str, list[tuple[str, UnitState]]] = {f.id: [] for f in order}
        counter = self.sc.counter
        for uid, u in st.units.items():  # each formation's units on the map, in the units' order
            if u.on_map:
                of = members.get(counter[uid].formation)
                if of is not None:
                    of.append((uid, u))
        for f in order:
            sources = self._sources(st, f, nets[f.id], xxx_hqs)
            self._hq_supply(st, occupied, board, f, sources, zoc[f.side], hq_supplied, xxx_hqs)
        for f in order:
            sources = self._sources(st, f, nets[f.id], xxx_hqs)
            self._units_supply(st, occupied, board, f, sources, zoc[f.side], hq_supplied.get(f.id),
                               members[f.id])

    def _sources(self, st: State, f: Formation, net: set[str], xxx_hqs: list[str]) -> set[str]:
        """[10.1] where a formation's supply is traced from: its road net, the map edges for the
        Germans, the drop zones and XXX Corps' supplied HQs for the airborne."""
        sources = set(net)
        if f.side == "DE":
            sources |= self.edge_ids(f.supply.edges)
        if f.supply.drop_zones:
            sources |= self._drop_zones(st)
            sources |= set(xxx_hqs)
        return sources

    def _hq_supply(self, st: State, occupied: dict[str, set[str]], board: Board, f: Formation,
                   sources: set[str], zoc: frozenset[str], hq_supplied: dict[str, bool],
                   xxx_hqs: list[str]) -> None:
        """[10.1] a formation's HQ on the map is in supply within the supply range of a source
        (or on the turn it enters); a supplied XXX Corps HQ becomes a source for the airborne."""
        reach = self._near(occupied, board, f.side, sources, self.sc.constants.supply_range, zoc)
        hq = f.hq
        if hq is not None and st.units[hq].on_map:
            hq_hex = st.units[hq].hex
            ok = hq_hex in reach or st.units[hq].entry_turn == st.turn
            hq_supplied[f.id] = ok
            st.units[hq].in_supply = ok
            if ok and f.corps == "XXX" and hq_hex is not None:
                xxx_hqs.append(hq_hex)

    def _units_supply(self, st: State, occupied: dict[str, set[str]], board: Board, f: Formation,
                      sources: set[str], zoc: frozenset[str], hq_supplied: bool | None,
                      members: list[tuple[str, UnitState]]) -> None:
        """[9.1, 10.1] a formation's units (``members``: those on the map): in supply within the
        supply range of a source or of its supplied HQ, in command within the command range of
        its HQ (the engineer of either XXX Corps HQ [12.1]); units entering this turn (and the
        Germans on turn 1) are both."""
        k = self.sc.constants
        side = f.side
        hq = f.hq
        hq_hex = st.units[hq].hex if hq is not None and st.units[hq].on_map else None
        if hq_hex is not None and hq_supplied:
            sources.add(hq_hex)
        supply = self._near(occupied, board, side, sources, k.supply_range, zoc)
        command = (self._reach(occupied, board, side, [hq_hex], k.command_range, zoc)
                   if hq_hex is not None else {})
        hqs = [hq_hex] if hq_hex is not None else []
        counter = self.sc.counter
        for uid, u in members:
            if uid == hq:
                continue
            c = counter[uid]
            fresh = u.entry_turn == st.turn or (st.turn == 1 and side == "DE")
            if c.kind == "engineer":  # [12.1] commanded by both XXX Corps HQs
                hqs2 = [st.units[g.hq].hex for g in self.sc.formations
                        if g.corps == "XXX" and g.hq and st.units[g.hq].on_map]
                cmd = self._reach(occupied, board, side, [h for h in hqs2 if h], k.command_range, zoc)
                u.in_command = fresh or u.hex in cmd
            else:
                u.in_command = fresh or f.hq is None or (bool(hqs) and u.hex in command)
            u.in_supply = fresh or u.hex in supply
        if hq is not None and st.units[hq].on_map:
            st.units[hq].in_command = True
            if st.units[hq].entry_turn == st.turn or (st.turn == 1 and side == "DE"):
                st.units[hq].in_supply = True

    def drop_zones(self, st: State) -> set[str]:
        """[10.1, 15.2] the drop zones in use: those of the set-up and of every group landed."""
        return self._drop_zones(st)

    def _drop_zones(self, st: State) -> set[str]:
        zones = {p.hex for p in self.sc.setup if p.within}
        for d in self.sc.para_drops:
            if d.group in st.dropped:
                zones.add(st.drop_zones.get(d.group, d.dz))
        return zones

    # -- victory [16] -------------------------------------------------------------------------------
    def far_bank(self) -> frozenset[str]:
        """[16] the far bank of the river (the scenario's, worked out once)."""
        return self.sc.far_bank

    def bridgehead(self, st: State) -> int:
        bank = self.far_bank()
        infantry = self.sc.allied_infantry
        return sum(u.steps for uid, u in st.units.items()
                   if u.steps > 0 and u.hex in bank and uid in infantry)  # on the map, over the river


class _Near:
    """Whether a hex is within ``limit`` of ``starts`` by a path entering no ``blocked`` hex (an
    enemy unit's, or an enemy zone no friend negates) [4.2, 9.1, 10.1]: :meth:`Game._reach`'s
    answer, searched from the hex asked about back towards the starts, breadth first to ``limit``
    (a path's hexes after its start are unblocked, the start itself may be blocked), each answer
    kept. Correct where the neighbours answer back (a hex of ``table`` is a neighbour of each of
    its neighbours: adjacency on the map) and every start is a hex of ``table``: the caller's
    (:meth:`Game._near`) to see to. ``starts`` holds no enemy unit's hex."""

    __slots__ = ("table", "starts", "blocked", "limit", "known")

    def __init__(self, table: dict[str, tuple[str, ...]], starts: set[str], blocked: set[str],
                 limit: int) -> None:
        self.table = table
        self.starts = starts
        self.blocked = blocked
        self.limit = limit
        self.known: dict[str, bool] = {}

    def __contains__(self, h: object) -> bool:
        if not isinstance(h, str):
            return False
        hit = self.known.get(h)
        if hit is None:
            hit = self.known[h] = self._search(h)
        return hit

    def _search(self, h: str) -> bool:
        starts, blocked, table = self.starts, self.blocked, self.table
        if h in starts:
            return True  # a start is at distance 0, blocked or not
        if h in blocked or h not in table:
            return False  # entered by a step: never a blocked hex; off the table: no path to it
        seen = {h}
        frontier = [h]
        d = 0
        while frontier and d < self.limit:
            d += 1
            nxt = []
            for x in frontier:
                for n in table[x]:
                    if n in starts:
                        return True  # a start next to a hex d - 1 steps from h
                    if n in seen or n in blocked:
                        continue
                    seen.add(n)
                    nxt.append(n)
            frontier = nxt
        return False


def mark_bridge(g: Game, st: State) -> None:
    """[16] the side that last had a unit on each hex of the Arnhem bridge holds it."""
    bridge = g.sc.victory.bridge_hexes
    sides: dict[str, set[str]] = {h: set() for h in bridge}
    counter = g.sc.counter
    for uid, u in st.units.items():  # one pass over the units (a move asks after every step)
        if u.hex in sides and u.steps > 0:
            sides[u.hex].add(counter[uid].side)
    for h in bridge:
        if len(sides[h]) == 1:
            st.bridge[h] = cast(Side, sides[h].pop())


def due_drops(sc: Scenario, st: State) -> list[Any]:
    """Drop groups that may land this turn [15.2, 17.3, 17.4]."""
    return [d for d in sc.para_drops if d.group not in st.dropped and d.turn <= st.turn]
