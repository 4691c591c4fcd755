"""SPI Arnhem victory: lines of communication [17.3], victory points [17.1, 17.2] and the levels of
victory [17.4]. Pure functions of the scenario and a position; no dice, no I/O.

* **Ground LOC** [17.31]: a non-airborne Allied unit traces a chain of adjacent hexes off the
  southern edge at one of ``special.loc_hexes`` (0105/0106; the chain ends in that hex, which is on
  the edge, and leaves the map from it). Cross-country at first; once the chain enters a trail hex,
  every later step follows a road or trail hexside; once it enters a road hex, every later step
  follows a road hexside. The unit's own hex is the first hex of the chain: a unit standing on a
  road traces along the road from where it stands.
* **Airborne LOC** [17.32]: airborne, glider and airborne artillery units (not the Poles [17.36])
  trace at most seven hexes to their division's drop-zone counter, over any terrain. The seven
  count the hexes entered after the unit's own, the drop-zone hex included: a unit seven hexes from
  its drop zone can trace, one eight hexes away cannot. A drop zone held by a German
  unit (overrun [15.35]) gives no line; a unit whose division has no counter placed has none.
* Both: never into or through an enemy unit or an enemy zone of control, but a hex holding a
  friendly unit is free of enemy zones of control for the line [17.33]; never across a river,
  canal or stream hexside that has no bridge (a demolished bridge has none) [17.34]. German units
  and the Poles trace none [17.36].
* **Points**: at the end of each game-turn (the end of the German player-turn) the German player
  scores 3 for each Allied unit on the map without its line [17.12.2, 17.35], the Allied player 5
  for each non-airborne unit north of the Waal with its line [17.11.2]; at the end of the game the
  Allied player scores 10 for each non-airborne unit north of the Neder Rijn with its line
  [17.11.3], 1 for each German unit eliminated [17.11.1], and the German player 5 for each Allied
  unit destroyed [17.12.1] (the engineer each time it is [13.3]).
* **Levels** [17.4]: German points to Allied points as an exact ratio (a fraction, no floats, no
  rounding; westwall/3): 3 or more German Strategic; above 2 and below 3 German Tactical; exactly
  2 a Draw; above 1 and below 2 Allied Tactical; 1 or less Allied Strategic. The text's bands
  "between 2.01 and 2.99" and "between 1 and 1.99" are read as the open intervals they name, so
  2.995 is not "3.0 or more" and 1.995 is not "2.0". westwall/2 rounded the ratio half-up to two
  decimals first. With no Allied points the ratio is infinite (German Strategic) unless the
  German player has none either (Draw).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from pbem.maps.hexmap import Hex, hexside
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.memo import memo
from pbem.systems.westwall.model import AIRBORNE_TYPES

if TYPE_CHECKING:
    from pbem.systems.westwall.model import Scenario, State, UnitDef

WATER = frozenset({"river", "canal", "stream"})
AIRBORNE = AIRBORNE_TYPES
"""Unit types that trace the airborne line [17.3]: glider and airborne artillery count as airborne."""


def _sides(scenario: Scenario) -> tuple[str, str]:
    from pbem.systems.westwall.arnhem import allied_side, german_side

    return allied_side(scenario), german_side(scenario)


def needs_loc(unit: UnitDef, allied: str | None = None) -> str | None:
    """``"airborne"``, ``"ground"`` or ``None`` (German units; the Polish brigade) [17.3, 17.36].
    Given the Allied side id ``allied``, any other side's unit is exempt; without it the caller
    knows the sides and this looks at the unit's type and formation only."""
    if allied is not None and unit.side != allied:
        return None
    if unit.formation.lower() in ("pol", "polish"):
        return None
    return "airborne" if unit.type in AIRBORNE else "ground"


def north_of(scenario: Scenario, line_name: str, north_hex: str, south_hex: str | None = None
             ) -> frozenset[Hex]:
    """The hexes on ``north_hex``'s side of the map line named ``line_name``: everything reachable
    from it without crossing one of the line's hexsides. ``ValueError`` when ``south_hex`` is
    reachable too (the line does not cut the map)."""
    cut: set[tuple[Hex, Hex]] = set()
    found = False
    for line in scenario.map.lines:
        if line.name == line_name:
            found = True
            for s in line.hexsides:
                a, b = s.split("/")
                cut.add(hexside(Hex.parse(a), Hex.parse(b)))
    if not found:
        raise ValueError(f"the map has no line named {line_name!r}")
    m = scenario.map
    start = Hex.parse(north_hex)
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n not in seen and m.on_map(n) and hexside(h, n) not in cut:
                seen.add(n)
                todo.append(n)
    if south_hex is not None and Hex.parse(south_hex) in seen:
        raise ValueError(f"the line {line_name!r} does not separate {north_hex} from {south_hex}")
    return frozenset(seen)


def _open(board: Board, side: str, a: Hex, b: Hex, enemies: bool = True) -> bool:
    """May a line of communication step from ``a`` into ``b`` [17.33, 17.34]? (``enemies`` False:
    as if there were no enemy units, to find which ones cut it: :func:`loc_cut_by`.)"""
    if not board.on_map(b):
        return False
    if WATER & set(board.crossing(a, b).water):
        return False
    if not enemies:
        return True
    if board.enemy_at(b, side) is not None:
        return False
    friendly = any(board.side_of(x) == side for x in board.occupants(b))
    return friendly or not board.enemy_zoc(b, side)


def ground_loc(board: Board, uid: str, exit_hexes: Iterable[str], enemies: bool = True) -> list[Hex] | None:
    """The shortest Line of Communication of a non-airborne unit off the map at one of
    ``exit_hexes`` [17.31]: its hexes from the unit's own to the exit hex, or ``None``.

    A breadth-first search over (hex, mode) with neighbours in sorted order, so the path is the
    shortest in hexes and the same every time. The mode only goes up (cross-country, trails, roads)
    and is set by the hexes entered, the unit's own hex included [17.31]; every step is checked
    against enemy units, zones of control and unbridged water [17.33, 17.34]."""
    start = board.unit_hex(uid)
    if start is None:
        return None
    side = board.side_of(uid)
    geo = board.geo
    exits = {Hex.parse(h) for h in exit_hexes}

    def mode_of(h: Hex, mode: int) -> int:
        # 0: cross-country; 1: on the trails (trail or road hexsides); 2: on the roads
        if h in geo.road_hexes:
            return 2
        if h in geo.trail_hexes:
            return max(mode, 1)
        return mode

    first = (start, mode_of(start, 0))
    prev: dict[tuple[Hex, int], tuple[Hex, int] | None] = {first: None}
    todo = deque([first])
    while todo:
        here, mode = todo.popleft()
        if here in exits:
            path = [here]
            node = prev[(here, mode)]
            while node is not None:
                path.append(node[0])
                node = prev[node]
            return path[::-1]
        for n in sorted(here.neighbours()):
            if not _open(board, side, here, n, enemies):
                continue
            route = board.crossing(here, n).route
            if mode == 2 and route != "road":
                continue
            if mode == 1 and route not in ("road", "trail"):
                continue
            state = (n, mode_of(n, mode))
            if state not in prev:
                prev[state] = (here, mode)
                todo.append(state)
    return None


def airborne_loc(board: Board, uid: str, dz_hex: str | None, limit: int = 7,
                 enemies: bool = True) -> list[Hex] | None:
    """The shortest line of an airborne unit to its division's drop-zone counter at ``dz_hex``, at
    most ``limit`` hexes entered (the drop-zone hex counts, the unit's own does not) over any
    terrain [17.32], or ``None``: no counter placed, the counter overrun by an enemy unit [15.35],
    or no such line past enemy units and zones and unbridged water [17.33, 17.34]."""
    start = board.unit_hex(uid)
    if start is None or dz_hex is None:
        return None
    side = board.side_of(uid)
    goal = Hex.parse(dz_hex)
    if enemies and board.enemy_at(goal, side) is not None:
        return None  # the drop zone is overrun [15.35]
    prev: dict[Hex, Hex | None] = {start: None}
    todo = deque([(start, 0)])
    while todo:
        here, d = todo.popleft()
        if here == goal:
            path = [here]
            node = prev[here]
            while node is not None:
                path.append(node)
                node = prev[node]
            return path[::-1]
        if d == limit:
            continue
        for n in sorted(here.neighbours()):
            if n not in prev and _open(board, side, here, n, enemies):
                prev[n] = here
                todo.append((n, d + 1))
    return None


def has_loc(scenario: Scenario, board: Board, state: State, uid: str) -> bool:
    """Can ``uid`` trace the line its kind needs [17.31, 17.32]? Exempt units always can [17.36].
    The drop zones are read from ``state.exclusive["dz"]`` (division -> hex)."""
    from pbem.systems.westwall.arnhem import special_of

    kind = needs_loc(scenario.unit[uid], _sides(scenario)[0])
    if kind is None:
        return True
    if kind == "airborne":
        dz = state.exclusive.get("dz", {}).get(scenario.unit[uid].formation)
        return airborne_loc(board, uid, dz) is not None
    return ground_loc(board, uid, special_of(scenario).loc_hexes) is not None


def loc_cut_by(scenario: Scenario, board: Board, state: State, uid: str) -> tuple[list[str], Hex | None]:
    """Why ``uid`` has no line of communication [17.33, 17.34]: the enemy units that stand on, or
    hold in their zones of control, the line it would trace were they not there (the shortest such
    line, as :func:`has_loc` searches), and the first hex where they cut it; ``([], None)`` when
    even with no enemy on the map there is no line (water, distance, no drop-zone counter)."""
    from pbem.systems.westwall.arnhem import special_of

    kind = needs_loc(scenario.unit[uid], _sides(scenario)[0])
    if kind is None:
        return [], None
    if kind == "airborne":
        dz = state.exclusive.get("dz", {}).get(scenario.unit[uid].formation)
        path = airborne_loc(board, uid, dz, enemies=False)
    else:
        path = ground_loc(board, uid, special_of(scenario).loc_hexes, enemies=False)
    if path is None:
        return [], None
    side = board.side_of(uid)
    who: list[str] = []
    first: Hex | None = None
    for h in path[1:]:
        here = [x for x in board.occupants(h) if board.side_of(x) != side]
        if not here and not any(board.side_of(x) == side for x in board.occupants(h)) and board.enemy_zoc(h, side):
            here = list(board.zoc_sources(h, side))
        if here:
            first = first or h
            who += [x for x in here if x not in who]
    return who, first


def _closed_hexes(board: Board, side: str) -> set[Hex]:
    """The hexes a line of ``side`` may not enter [17.33]: enemy units' hexes, and the hexes in
    enemy zones of control that no friendly unit holds -- :func:`_open`'s test of the hex entered,
    made once for the whole map. Zones reach the adjacent hexes only [6.0], so only enemy hexes
    and their neighbours can be closed: a neighbour ``h`` of an enemy hex ``e`` is in that
    enemy's zone exactly when ``e`` is among the hexes a zone reaches ``h`` from
    (:attr:`Geometry.zoc_from`, what :meth:`Board.enemy_zoc` reads)."""
    geo = board.geo
    side_of = geo.side_of
    enemy: set[Hex] = set()
    friendly: set[Hex] = set()
    for h, there in board._at.items():  # the units in each occupied hex
        for uid in there:
            (friendly if side_of[uid] == side else enemy).add(h)
    closed = set(enemy)
    neighbours, zoc_from = geo.neighbours, geo.zoc_from
    for e in enemy:
        if e not in geo.hexes:
            continue
        for h in neighbours[e]:
            if h not in closed and h not in friendly and e in zoc_from[h]:
                closed.add(h)
    return closed


_DryIn = dict[Hex, tuple[tuple[Hex, str | None], ...]]


def _dry_steps_in(board: Board) -> _DryIn:
    """Per hex of ``board``'s map, filled as it is asked for: the neighbours from which a step into
    it crosses no unbridged water [17.34] (:func:`_open`'s test of the hexside), in
    :attr:`Geometry.neighbours` order, each with the route of the hexside. It depends on the map
    and the bridges down alone (what the geometry is made of), so one table serves every search
    of every turn with those bridges: kept with the scenario
    (:func:`~pbem.systems.westwall.memo.memo`), per set of demolished bridges."""
    geo = board.geo
    return memo(geo.scenario, "loc-dry-steps-in", geo.destroyed, dict, bound=64)


def _dry_in(board: Board, table: _DryIn, here: Hex) -> tuple[tuple[Hex, str | None], ...]:
    ins = table.get(here)
    if ins is None:
        geo = board.geo
        out = []
        for p in geo.neighbours[here]:
            crossing = geo.crossing(p, here)
            if WATER.isdisjoint(crossing.water):
                out.append((p, crossing.route))
        ins = table[here] = tuple(out)
    return ins


_GroundIn = dict[tuple[Hex, int], tuple[tuple[Hex, int], ...]]


def _ground_steps_in(board: Board) -> _GroundIn:
    """Per (hex, mode) of a ground line [17.31], filled as it is asked for: the (hex, mode) states
    from which one step lands in it -- a neighbour whose step in crosses no unbridged water
    [17.34] (:func:`_dry_in`), in every mode whose route rule the hexside allows and that the hex
    entered turns into this one. Like :func:`_dry_steps_in` it depends on the map and the bridges
    down alone: kept with the scenario, per set of demolished bridges, and shared by every search
    of every turn (only the closed hexes differ from search to search)."""
    geo = board.geo
    return memo(geo.scenario, "loc-ground-steps-in", geo.destroyed, dict, bound=64)


def _ground_in(board: Board, table: _GroundIn, state: tuple[Hex, int]) -> tuple[tuple[Hex, int], ...]:
    here, mode = state
    geo = board.geo
    if here in geo.road_hexes:
        landing: tuple[int, ...] = (0, 1, 2) if mode == 2 else ()
    elif here in geo.trail_hexes:
        landing = (0, 1) if mode == 1 else (2,) if mode == 2 else ()
    else:
        landing = (mode,)  # modes at p that land in ``mode`` (cross-country keeps the mode)
    out = []
    for p, route in _dry_in(board, _dry_steps_in(board), here):
        for m in landing:
            if (m == 2 and route != "road") or (m == 1 and route not in ("road", "trail")):
                continue
            out.append((p, m))
    ins = table[state] = tuple(out)
    return ins


def _ground_reaching(board: Board, side: str, exit_hexes: Iterable[str],
                     closed: set[Hex], targets: set[tuple[Hex, int]] | None = None,
                     ) -> set[tuple[Hex, int]]:
    """Every (hex, mode) from which a ground line of ``side`` reaches an exit hex [17.31, 17.33,
    17.34]: :func:`ground_loc`'s search run once backwards from the exits for all units, instead
    of once forwards per unit. A unit at ``h`` has a line exactly when ``(h, mode of h)`` is in
    it (the forward search starts in that state; the steps allowed are the same, reversed).
    ``closed``: :func:`_closed_hexes` of ``board`` and ``side``. The steps back from each state
    come from a table per map and bridges down (:func:`_ground_steps_in`).

    ``targets``: the states asked about, when only they matter; the search then stops as soon as
    it has reached them all, so the set returned may lack states no one asked about (a target is
    in it exactly when it is in the whole set)."""
    left = set(targets) if targets is not None else None
    found: set[tuple[Hex, int]] = set()
    todo: deque[tuple[Hex, int]] = deque()
    for h in sorted(Hex.parse(x) for x in exit_hexes):
        for m in (0, 1, 2):
            if (h, m) not in found:
                found.add((h, m))
                todo.append((h, m))
    if left is not None:
        left -= found
        if not left:
            return found
    steps_in = _ground_steps_in(board)
    hexes = board.geo.hexes
    pop, push, add = todo.popleft, todo.append, found.add
    while todo:
        state = pop()
        here = state[0]
        if here not in hexes or here in closed:
            continue  # no line enters it (an exit hex off the map or closed: reached by no step)
        ins = steps_in.get(state)
        if ins is None:
            ins = _ground_in(board, steps_in, state)
        for q in ins:
            if q not in found:
                add(q)
                push(q)
                if left is not None and q in left:
                    left.discard(q)
                    if not left:
                        return found  # every state asked about is reached
    return found


def loc_holders(scenario: Scenario, board: Board, state: State) -> set[str]:
    """The Allied units on the map that can trace their line now [17.31, 17.32]: the same answer
    as :func:`has_loc` for each (exempt units included [17.36]), with one backward search for every
    ground line and one bounded search per drop-zone counter."""
    from pbem.systems.westwall.arnhem import special_of

    allied, _german = _sides(scenario)
    geo = board.geo
    ground: set[tuple[Hex, int]] | None = None
    closed: set[Hex] | None = None  # the hexes no line of the Allied side enters [17.33], found once
    by_dz: dict[str | None, set[Hex]] = {}
    dzs = state.exclusive.get("dz", {})
    out: set[str] = set()
    # The states the ground search is asked about: it may stop once it has reached them all.
    wanted: set[tuple[Hex, int]] = set()
    for uid in board.units_of(allied):
        kind = needs_loc(scenario.unit[uid], allied)
        h = board.unit_hex(uid)
        if kind is not None and kind != "airborne" and h is not None:
            wanted.add((h, 2 if h in geo.road_hexes else 1 if h in geo.trail_hexes else 0))
    for uid in board.units_of(allied):
        kind = needs_loc(scenario.unit[uid], allied)
        h = board.unit_hex(uid)
        if kind is None:
            out.add(uid)
        elif h is None:
            continue
        elif kind == "airborne":
            dz = dzs.get(scenario.unit[uid].formation)
            if dz not in by_dz:
                if closed is None:
                    closed = _closed_hexes(board, allied)
                by_dz[dz] = _airborne_reaching(board, allied, dz, closed)
            if h in by_dz[dz]:
                out.add(uid)
        else:
            if ground is None:
                if closed is None:
                    closed = _closed_hexes(board, allied)
                ground = _ground_reaching(board, allied, special_of(scenario).loc_hexes, closed,
                                          wanted)
            start_mode = 2 if h in geo.road_hexes else 1 if h in geo.trail_hexes else 0
            if (h, start_mode) in ground:
                out.add(uid)
    return out


def _airborne_reaching(board: Board, side: str, dz_hex: str | None, closed: set[Hex],
                       limit: int = 7) -> set[Hex]:
    """Every hex from which an airborne line of ``side`` reaches the drop-zone counter at
    ``dz_hex`` in at most ``limit`` hexes entered [17.32]: :func:`airborne_loc` run backwards once.
    ``closed``: :func:`_closed_hexes` of ``board`` and ``side``."""
    if dz_hex is None:
        return set()
    goal = Hex.parse(dz_hex)
    if board.enemy_at(goal, side) is not None:
        return set()  # the drop zone is overrun [15.35]
    hexes = board.geo.hexes
    steps_into = _dry_steps_in(board)  # the neighbours a step in from which is not wet [17.34]
    found = {goal}
    layer = [goal]
    for _d in range(limit):  # the hexes reached in one more hex entered than the layer before
        nxt: list[Hex] = []
        for here in layer:
            if here not in hexes or here in closed:
                continue  # a hex no line enters is reached by no step (the goal: only from itself)
            ins = steps_into.get(here)
            if ins is None:
                ins = _dry_in(board, steps_into, here)
            for p, _route in ins:
                if p not in found:
                    found.add(p)
                    nxt.append(p)
        if not nxt:
            break
        layer = nxt
    return found


def loc_failures(scenario: Scenario, board: Board, state: State) -> list[str]:
    """Allied units on the map that cannot trace their line [17.35]."""
    allied, _german = _sides(scenario)
    holders = loc_holders(scenario, board, state)
    return [uid for uid in sorted(board.units_of(allied)) if uid not in holders]


def _north(scenario: Scenario, which: str) -> frozenset[Hex]:
    from pbem.systems.westwall.arnhem import special_of

    r = getattr(special_of(scenario), which)
    if r is None:
        return frozenset()
    return memo(scenario, "north", which, lambda: north_of(scenario, r.line, r.north_hex, r.south_hex))


def _ground_north_with_loc(scenario: Scenario, board: Board | None, state: State, which: str,
                           holders: set[str] | None = None) -> list[str]:
    """The ground units north of the line ``which`` names that trace their line [17.11];
    ``holders``: :func:`loc_holders` of this very position when the caller has it already.
    ``board`` None: made from ``state`` only when some Allied ground unit stands north of the line
    (read from the state's units as :meth:`Board.from_state` places them: on the map, with a hex),
    since with none there is nothing to trace."""
    allied, _german = _sides(scenario)
    area = _north(scenario, which)
    if board is None:
        if not any(us.status == "on-map" and us.hex is not None and Hex.parse(us.hex) in area
                   and scenario.unit[uid].side == allied and scenario.unit[uid].type not in AIRBORNE
                   for uid, us in state.units.items()):
            return []
        board = Board.from_state(scenario, state)
    candidates = [uid for uid in sorted(board.units_of(allied))
                  if scenario.unit[uid].type not in AIRBORNE and board.unit_hex(uid) in area]
    if not candidates:
        return []
    if holders is None:
        holders = loc_holders(scenario, board, state)
    return [uid for uid in candidates if uid in holders]


def turn_points(scenario: Scenario, board: Board, state: State,
                name_all: bool = True) -> tuple[dict[str, int], list[str]]:
    """Points scored at the end of a game-turn [17.11.2, 17.12.2, 17.35], and the lines saying why
    (``name_all`` False: westwall/2's note, naming the first eight units cut off)."""
    from pbem.systems.westwall.arnhem import special_of

    allied, german = _sides(scenario)
    sp = special_of(scenario)
    lines: list[str] = []
    holders = loc_holders(scenario, board, state)  # once for both counts: the same position
    cut = [uid for uid in sorted(board.units_of(allied)) if uid not in holders]  # loc_failures
    german_pts = 3 * len(cut)
    if cut:
        named = cut if name_all else cut[:8]
        lines.append(f"{len(cut)} Allied unit{'s' if len(cut) > 1 else ''} without a line of "
                     f"communication ({', '.join(named)}{'...' if len(cut) > len(named) else ''}): "
                     f"{german_pts} points to the German player [17.12, 17.35]")
    allied_pts = 0
    if sp.waal is not None:
        north = _ground_north_with_loc(scenario, board, state, "waal", holders)
        allied_pts = sp.waal.points * len(north)
        if north:
            lines.append(f"{len(north)} ground unit{'s' if len(north) > 1 else ''} north of the "
                         f"{sp.waal.line} with a line of communication: {allied_pts} points to the "
                         "Allied player [17.11]")
    return {allied: allied_pts, german: german_pts}, lines


def final_points(scenario: Scenario, board: Board | None, state: State,
                 eliminated: Mapping[str, int] | None = None) -> tuple[dict[str, int], list[str]]:
    """Points scored only at the end of the game [17.11.1, 17.11.3, 17.12.1]. ``eliminated`` is the
    tally of units lost by each side (side id -> count, a unit counted each time it is destroyed:
    the engineer can come back and fall again [13.3]); by default ``state.exclusive["eliminated"]``.
    ``board`` None: the position of ``state``, made only if a line must be traced."""
    from pbem.systems.westwall.arnhem import special_of

    allied, german = _sides(scenario)
    sp = special_of(scenario)
    lost = state.exclusive.get("eliminated", {}) if eliminated is None else eliminated
    german_lost, allied_lost = int(lost.get(german, 0)), int(lost.get(allied, 0))
    pts = {allied: german_lost, german: 5 * allied_lost}
    lines = [f"German units eliminated: {german_lost} -> {german_lost} Allied points [17.11]",
             f"Allied units destroyed: {allied_lost} -> {5 * allied_lost} German points [17.12]"]
    if sp.neder_rijn is not None:
        north = _ground_north_with_loc(scenario, board, state, "neder_rijn")
        pts[allied] += sp.neder_rijn.points * len(north)
        lines.append(f"ground units north of the {sp.neder_rijn.line} with a line of "
                     f"communication at the end: {len(north)} -> "
                     f"{sp.neder_rijn.points * len(north)} Allied points [17.11]")
    return pts, lines


def score(scenario: Scenario, state: State) -> dict[str, int]:
    """Points so far (``state.exclusive["points"]``) plus those the end of the game would add now."""
    allied, german = _sides(scenario)
    kept = state.exclusive.get("points", {})
    end, _lines = final_points(scenario, None, state)  # a board only if a line must be traced
    return {s: int(kept.get(s, 0)) + end.get(s, 0) for s in (allied, german)}


def describe(scenario: Scenario, state: State) -> list[str]:
    allied, german = _sides(scenario)
    kept = state.exclusive.get("points", {})
    _end, lines = final_points(scenario, None, state)
    head = [f"points scored at the ends of game-turns: Allied {kept.get(allied, 0)}, German "
            f"{kept.get(german, 0)} [17.1]"]
    return head + lines


def victory_level(german: int, allied: int, *, german_side: str = "german",
                  allied_side: str = "allied", exact: bool = True) -> tuple[str, str | None]:
    """The level of victory [17.4] for ``german`` to ``allied`` points, and who wins it
    (``german_side``, ``allied_side`` or ``None`` for a draw).

    ``exact`` (westwall/3): the ratio itself, as a fraction, against the schedule's bounds: "3.0
    or more to 1" German Strategic; above 2 and below 3 ("between 2.01 and 2.99") German Tactical;
    exactly 2 a Draw; above 1 and below 2 ("between 1 and 1.99") Allied Tactical; "1.0 or less"
    Allied Strategic. So 2.995 is a German Tactical Victory, not "3.0 or more", and 1.995 an
    Allied Tactical one, not "2.0". No rounding, no float.

    Not ``exact`` (westwall/2): the ratio rounded half-up to two decimals first (2.995 German
    Strategic, 2.005 German Tactical, 1.995 a Draw, 1.005 Allied Tactical).

    No Allied points: German Strategic, or a Draw when neither player has any."""
    if allied <= 0:
        if german <= 0:
            return "Draw", None
        return "German Strategic Victory", german_side
    ratio = Fraction(german, allied)
    if exact:
        if ratio >= 3:
            return "German Strategic Victory", german_side
        if ratio > 2:
            return "German Tactical Victory", german_side
        if ratio == 2:
            return "Draw", None
        if ratio > 1:
            return "Allied Tactical Victory", allied_side
        return "Allied Strategic Victory", allied_side
    hundredths = (ratio * 100 + Fraction(1, 2)).__floor__()  # half-up to two decimals
    if hundredths >= 300:
        return "German Strategic Victory", german_side
    if hundredths >= 201:
        return "German Tactical Victory", german_side
    if hundredths == 200:
        return "Draw", None
    if hundredths >= 101:
        return "Allied Tactical Victory", allied_side
    return "Allied Strategic Victory", allied_side
