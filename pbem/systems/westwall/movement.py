"""The Movement Phase [5.0, 6.0, 11.0, 12.0]: checking and carrying out a player's moves.

Orders are :class:`~pbem.systems.westwall.model.MoveOrder`\\ s taken one at a time in the order given [5.15]:
each unit at most once, each a full path, hex by hex. Costs are in half Movement Points.

* A unit on the map starts in its hex; ``path`` lists the hexes it enters (a leading copy of the start
  hex is tolerated). A waiting reinforcement's first path hex is its entry hex [11.11].
* Every step is checked: on the map and adjacent, terrain open to the unit [5.21, 5.24], no enemy
  unit in it [5.12], enough Movement Points left [5.13, 5.25], not leaving an enemy-controlled hex
  [5.14, 6.13] (a unit that starts in an enemy zone of control cannot move; one that enters an enemy
  zone of control stops there [6.0]).
* Reinforcements [11.11-11.23] enter on a scheduled turn or later (withholding is allowed [11.22]),
  through an entry hex of their schedule, paying that hex's cost or the road/trail rate where a
  road/trail leads off the map there [11.12], never into an enemy-occupied hex [11.21].
* ``exit: true`` leaves the map from the last hex, which must lie on an edge the scenario lets the side
  exit by; it costs as much as entering a hex like the last one (the road/trail rate if a route leads
  off the map there) [12.0]. Exited units never return [12.11].
* At the end no two friendly units may share a hex [5.31].

The exclusive rules add restrictions through :meth:`Exclusive.movement_violations` (e.g. [15.26.3]).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.errors import InputError, RuleViolation

if TYPE_CHECKING:
    from pbem.engine.ruleset import Dice
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Exclusive, get_exclusive
from pbem.systems.westwall.model import (
    MECH_TYPES,
    Area,
    Event,
    MovedEvent,
    MoveOrder,
    NoteEvent,
    Scenario,
    State,
    UnitDef,
)


def fmt_mp(halves: int) -> str:
    """Half-points as Movement Points for messages: ``7`` -> ``"3½"``."""
    whole, half = divmod(halves, 2)
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


# --------------------------------------------------------------------------------------------------
# Areas (deployment zones, entry hexes)
# --------------------------------------------------------------------------------------------------


def edge_axis(scenario: Scenario, edge: str) -> tuple[str, bool]:
    """Which hex coordinate a compass ``edge`` of the map fixes, and whether at its highest value.

    Edges are geographic. On most maps the first two digits of a hex number run west to east and
    the last two north to south; on a map whose ``north`` is ``"right"`` (Arnhem: the first two
    digits run south to north [15.41, 17.31]) the first two run south to north and the last two
    west to east."""
    north = getattr(scenario.map, "north", "up")
    if north == "right":
        return {"south": ("col", False), "north": ("col", True),
                "west": ("row", False), "east": ("row", True)}[edge]
    return {"west": ("col", False), "east": ("col", True),
            "north": ("row", False), "south": ("row", True)}[edge]


def edge_distance(scenario: Scenario, h: Hex, edge: str) -> int:
    """Hexes from ``h`` to a map edge, the edge hexes themselves being at 0."""
    axis, high = edge_axis(scenario, edge)
    lo, hi = scenario.map.cols if axis == "col" else scenario.map.rows
    v = h.col if axis == "col" else h.row
    return hi - v if high else v - lo


def _along(scenario: Scenario, edge: str, h: Hex) -> int:
    """Position of ``h`` along ``edge`` (the coordinate the edge does not fix)."""
    axis, _high = edge_axis(scenario, edge)
    return h.row if axis == "col" else h.col


def in_area(scenario: Scenario, area: Area, h: Hex) -> bool:
    """Whether hex ``h`` satisfies every condition of ``area`` (see :class:`Area`).

    ``edge`` with ``from_hex``/``to_hex``: the edge hexes between the two, inclusive (either bound
    may be omitted). ``within``: at most that many hexes from some hex of ``of``; ``beyond``: more
    than that many from every hex of ``of``; ``min_from_edge``: more than that many hexes from the
    edge (edge hexes count 0)."""
    m = scenario.map
    if not m.on_map(h):
        return False
    if area.hexes is not None and str(h) not in area.hexes:
        return False
    if area.edge is not None:
        if edge_distance(scenario, h, area.edge) != 0:
            return False
        along = _along(scenario, area.edge, h)
        if area.from_hex is not None and along < _along(scenario, area.edge, Hex.parse(area.from_hex)):
            return False
        if area.to_hex is not None and along > _along(scenario, area.edge, Hex.parse(area.to_hex)):
            return False
    if h.col in area.exclude_cols:
        return False
    of = [Hex.parse(x) for x in area.of]
    if area.within is not None and not any(h.distance(o) <= area.within for o in of):
        return False
    if area.beyond is not None and any(h.distance(o) <= area.beyond for o in of):
        return False
    for edge, n in area.min_from_edge.items():
        if edge_distance(scenario, h, edge) <= n:
            return False
    return True


def in_any_area(scenario: Scenario, areas: Iterable[Area], h: Hex) -> bool:
    return any(in_area(scenario, a, h) for a in areas)


def _candidates(scenario: Scenario, area: Area) -> Iterable[Hex]:
    """A superset of the hexes of ``area``, small where the area says where to look: its listed
    hexes, its map edge, or the neighbourhood it is ``within`` of (every hex otherwise)."""
    m = scenario.map
    if area.hexes is not None:
        return (Hex.parse(x) for x in area.hexes)
    if area.edge is not None:
        c0, c1 = m.cols
        r0, r1 = m.rows
        axis, high = edge_axis(scenario, area.edge)
        if axis == "col":
            col = c1 if high else c0
            return (Hex(col, r) for r in range(r0, r1 + 1))
        row = r1 if high else r0
        return (Hex(c, row) for c in range(c0, c1 + 1))
    if area.within is not None:
        return {h for o in area.of for h in Hex.parse(o).within(area.within)}
    return m.all_hexes()


def area_hexes(scenario: Scenario, areas: Iterable[Area]) -> list[Hex]:
    """Every on-map hex in any of ``areas``, sorted: the one definition of an area's hexes (the
    rules check placements and entries with :func:`in_area`; the map draws these)."""
    found: set[Hex] = set()
    for area in areas:
        found.update(h for h in _candidates(scenario, area) if in_area(scenario, area, h))
    return sorted(found)


def describe_areas(areas: Iterable[Area]) -> str:
    texts = [a.text for a in areas if a.text]
    return "; or ".join(texts) if texts else "the scheduled hexes"


# --------------------------------------------------------------------------------------------------
# Reinforcements and exits
# --------------------------------------------------------------------------------------------------


def reinforcement_entries(
    scenario: Scenario, uid: str, game_turn: int
) -> tuple[list[Area], str, int | None]:
    """Entry areas open to waiting unit ``uid`` on ``game_turn`` [11.11, 11.22], the rule case of its
    schedule and its earliest turn (``None`` when it is not a reinforcement)."""
    areas: list[Area] = []
    rule = "11.11"
    first: int | None = None
    for r in scenario.reinforcements:
        if uid in r.units:
            first = r.turn if first is None else min(first, r.turn)
            if r.turn <= game_turn:
                areas.extend(r.entry)
                rule = r.rule
    return areas, rule, first


def exit_edges(scenario: Scenario, side: str) -> list[str]:
    out: list[str] = []
    for rule in scenario.exits:
        if rule.side == side:
            out.extend(e for e in rule.edges if e not in out)
    return out


# --------------------------------------------------------------------------------------------------
# Checking and applying moves
# --------------------------------------------------------------------------------------------------


@dataclass
class MovePlan:
    """The outcome of walking a list of moves on a board."""

    violations: list[RuleViolation] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    """A :class:`MovedEvent` per unit moved; notes and rolls where the exclusive rules made some."""


def _unit(board: Board, uid: str) -> UnitDef:
    u = board.scenario.unit.get(uid)
    if u is None:
        raise InputError(f"unknown unit {uid!r} in the moves")
    return u


def walk_moves(
    board: Board,
    side: str,
    game_turn: int,
    moves: list[MoveOrder],
    exclusive: Exclusive | None = None,
    *,
    dice: Dice | None = None,
    state: State | None = None,
) -> MovePlan:
    """Walk ``moves`` on ``board`` (mutated: units end where their orders put them, as far as their
    paths could be followed), collecting every violation and a :class:`MovedEvent` per move.

    With ``dice`` (resolution of orders already checked without them), the exclusive rules may
    roll as units enter hexes (Arnhem bridge demolition [12.11]); a step that a roll has made
    illegal is not a violation then: the unit stops where it is (or follows its ``if_demolished``
    hexes when the roll came during its own move) and a note says why."""
    scenario = board.scenario
    excl = exclusive if exclusive is not None else get_exclusive(scenario.game)
    plan = MovePlan()
    out = plan.violations
    seen: set[str] = set()
    rolling = dice is not None and state is not None and excl.rolls_in_movement
    queued: dict[Hex, int] = {}  # units that entered through each hex so far this phase [Arnhem 15.13]
    # Only ``side``'s units move in this walk, so whether a hex is in an enemy zone of control, and
    # which enemy unit is in it, stay as they were -- unless the exclusive rules roll as units
    # enter hexes (a demolished bridge changes the zones of control [6.33]): then nothing is kept.
    in_zoc: dict[Hex, bool] = {}
    enemy_in: dict[Hex, str | None] = {}
    hex_at = board.geo.hex_at
    # Legal steps met before cost what the geometry recorded (``Board.enter_check``; not when
    # a roll may demolish a bridge and so change the geometry), and the exclusive rules are asked
    # for crossing relief only when they give any.
    known_steps = board.geo.scenario is scenario and not rolling
    relief = type(excl).crossing_relief is not Exclusive.crossing_relief
    for order in moves:
        uid = order.unit
        u = _unit(board, uid)
        if u.side != side:
            out.append(
                RuleViolation(
                    "5.11", f"{uid} is not one of your units: it belongs to {u.side}", uid
                )
            )
            continue
        if uid in seen:
            out.append(
                RuleViolation("5.15", f"{uid} is ordered to move twice: each unit moves once", uid)
            )
            continue
        seen.add(uid)
        if order.to is not None and not order.path:
            raise InputError(
                f"move of {uid}: 'to' was not expanded into a path (normalize the orders)"
            )
        texts = order.path
        path = [hex_at[x] for x in texts]
        skip = 0  # leading copy of the start hex dropped from ``path``
        status = board.status(uid)
        start = board.unit_hex(uid)
        entering = False
        spent = 0
        allowance = u.move_halves
        special = (
            excl.entry_areas(scenario, state, uid, game_turn) if state is not None else None
        )
        if status == "eliminated" and special is None:
            out.append(RuleViolation("5.0", f"{uid} has been eliminated and cannot move", uid))
            continue
        if status == "exited" and special is None:
            out.append(RuleViolation("12.11", f"{uid} has left the map and may not return", uid))
            continue
        if status in ("waiting", "eliminated", "exited") or start is None:
            if not path:
                continue  # a withheld reinforcement [11.22]
            first: int | None
            if special is not None:
                areas, rule = special
                first = game_turn
            else:
                areas, rule, first = reinforcement_entries(scenario, uid, game_turn)
            if first is None:
                out.append(
                    RuleViolation(
                        "11.0", f"{uid} is not on the map and is not a reinforcement", uid
                    )
                )
                continue
            if not areas:
                out.append(
                    RuleViolation(
                        "11.0",
                        f"{uid} arrives on Game-Turn {first}, not before (now {game_turn})",
                        uid,
                    )
                )
                continue
            entry = path[0]
            if not in_any_area(scenario, areas, entry):
                out.append(
                    RuleViolation(
                        "11.11",
                        f"{uid} cannot enter at {entry}: not one of its entry hexes ({describe_areas(areas)}) [{rule}]",
                        uid,
                        str(entry),
                    )
                )
                continue
            enemy = board.enemy_at(entry, side)
            if enemy is not None:
                out.append(
                    RuleViolation(
                        "11.21",
                        f"{uid} cannot enter at {entry}: enemy unit {enemy} is there",
                        uid,
                        str(entry),
                    )
                )
                continue
            left = excl.landing(scenario, state, uid) if state is not None else None
            if left is not None:  # arriving by air (Arnhem [15.31-15.33])
                bad = excl.landing_violation(scenario, board, uid, entry)
                if bad is not None:
                    out.append(bad)
                    continue
                entry_cost = max(0, allowance - left)
            else:
                cost0, why = board.entry_check(u, entry)
                if cost0 is None:
                    assert why is not None
                    out.append(why)
                    continue
                cost0 += excl.column_cost(scenario, board, entry, queued.get(entry, 0))
                queued[entry] = queued.get(entry, 0) + 1
                if cost0 > allowance:
                    out.append(_mp_violation(uid, entry, cost0, allowance, allowance))
                    continue
                entry_cost = cost0
            entering = True
            spent = entry_cost
            trail = [entry]
            rest = path[1:]
        else:
            if path and path[0] == start:
                path = path[1:]
                skip = 1
            trail = [start]
            rest = path
            if (rest or order.exit) and board.enemy_zoc(start, side):
                src = ", ".join(board.zoc_sources(start, side))
                out.append(
                    RuleViolation(
                        "5.14",
                        f"{uid} cannot leave {start}: it starts in an enemy zone of control (of {src})",
                        uid,
                        str(start),
                    )
                )
                continue
        full = list(trail) + rest
        steps = board.geo.step_cost[u.type in MECH_TYPES] if known_steps else {}
        out.extend(excl.movement_violations(scenario, board, uid, full))
        ok = True
        stopped: RuleViolation | None = None  # resolution only: a roll made the next step illegal
        bad_before = len(out)
        if rolling and entering:
            assert dice is not None and state is not None
            if excl.on_enter(scenario, board, state, uid, trail[-1], dice, plan.events) \
                    and order.if_demolished is not None:
                rest = [Hex.parse(x) for x in order.if_demolished]
        i = 0
        while i < len(rest):
            nxt = rest[i]
            i += 1
            cur = trail[-1]
            if entering or cur != start:
                zoc = in_zoc.get(cur)
                if zoc is None:
                    zoc = board.enemy_zoc(cur, side)
                    if not rolling:
                        in_zoc[cur] = zoc
            else:
                zoc = False
            if zoc:
                out.append(
                    RuleViolation(
                        "6.0",
                        f"{uid} cannot continue from {cur} to {nxt}: it entered an enemy zone of control "
                        "and must stop there",
                        uid,
                        str(cur),
                    )
                )
                ok = False
                break
            cost = steps.get((cur, nxt))
            if cost is None:
                cost, why = board.enter_check(u, cur, nxt)
                if cost is None:
                    assert why is not None
                    out.append(why)
                    ok = False
                    break
            if relief:
                cost -= excl.crossing_relief(scenario, board, uid, cur, nxt, moves)
            if nxt in enemy_in:
                enemy = enemy_in[nxt]
            else:
                enemy = board.enemy_at(nxt, side)
                if not rolling:
                    enemy_in[nxt] = enemy
            if enemy is not None:
                out.append(
                    RuleViolation(
                        "5.12",
                        f"{uid} cannot enter {nxt}: enemy unit {enemy} is there",
                        uid,
                        str(nxt),
                    )
                )
                ok = False
                break
            if spent + cost > allowance:
                out.append(_mp_violation(uid, nxt, cost, allowance - spent, allowance))
                ok = False
                break
            spent += cost
            trail.append(nxt)
            if rolling:
                assert dice is not None and state is not None
                if excl.on_enter(scenario, board, state, uid, nxt, dice, plan.events) \
                        and order.if_demolished is not None:
                    rest, i = [Hex.parse(x) for x in order.if_demolished], 0
        if rolling and len(out) > bad_before:
            # Checked legal before the dice: only a demolition can have made this step illegal.
            stopped = out.pop()
            del out[bad_before:]
            ok = True
        if rolling and board.decided:
            # After a demolition, a unit stopped short may stand where a later one was to end:
            # never end stacked with a friend [5.31] (the later one halts before that hex).
            while len(trail) > 1 and any(
                x != uid and board.side_of(x) == side for x in board.occupants(trail[-1])
            ) and not excl.may_stack(scenario, board, [uid, *board.occupants(trail[-1])]):
                trail.pop()
        if stopped is not None:
            spent = min(spent, allowance)
            plan.events.append(
                NoteEvent(
                    rule="12.13",
                    text=f"{uid} stops in {trail[-1]}: {stopped.message} after the bridge was "
                    "demolished",
                )
            )
        exited = False
        last = trail[-1]
        if ok and order.exit and stopped is None:
            edges = [e for e in board.edges_of(last) if e in exit_edges(scenario, side)]
            if not exit_edges(scenario, side):
                out.append(
                    RuleViolation(
                        "12.0",
                        f"{uid} cannot leave the map: this scenario lets no {side} unit exit",
                        uid,
                        str(last),
                    )
                )
                ok = False
            elif not edges:
                allowed = ", ".join(exit_edges(scenario, side))
                out.append(
                    RuleViolation(
                        "12.0",
                        f"{uid} cannot leave the map from {last}: exits only by the {allowed} edge",
                        uid,
                        str(last),
                    )
                )
                ok = False
            elif (len(trail) > 1 or entering) and board.enemy_zoc(last, side):
                out.append(
                    RuleViolation(
                        "6.0",
                        f"{uid} cannot leave the map from {last}: it entered an enemy zone of control there",
                        uid,
                        str(last),
                    )
                )
                ok = False
            else:
                cost, why = board.exit_check(u, last)
                if cost is None:
                    assert why is not None
                    out.append(
                        RuleViolation(
                            "12.0",
                            why.message.replace("enter at", "leave the map from"),
                            uid,
                            str(last),
                        )
                    )
                    ok = False
                elif spent + cost > allowance:
                    out.append(
                        RuleViolation(
                            "12.0",
                            f"{uid} cannot leave the map from {last}: it needs {fmt_mp(cost)} MP and has "
                            f"{fmt_mp(allowance - spent)} of its {fmt_mp(allowance)} MP left [5.25]",
                            uid,
                            str(last),
                        )
                    )
                    ok = False
                else:
                    spent += cost
                    exited = True
        if len(trail) == 1 and not entering and not exited:
            continue
        # Objective control changes in every hex passed through; the unit itself is moved once,
        # to its last hex (the same end state as moving it hex by hex).
        passed = trail if entering else trail[1:]
        if passed:
            for h in passed[:-1]:
                board.note_passage(uid, h)
            board.move_unit(uid, passed[-1])
        if exited:
            edge = next(e for e in board.edges_of(last) if e in exit_edges(scenario, side))
            board.exit_unit(uid, edge, game_turn)
        if rolling:
            names = [str(h) for h in trail]
        elif entering:  # ``trail`` is the start of ``path``, and ``str(Hex.parse(x)) == x``
            names = list(texts[: len(trail)])
        else:
            names = [str(start), *texts[skip : skip + len(trail) - 1]]
        plan.events.append(
            MovedEvent(
                unit=uid,
                path=names,
                mp_halves=spent,
                entered=entering,
                exited=exited,
            )
        )
    for h, uids in sorted(board.stacked_hexes().items()):
        mine = [x for x in uids if scenario.unit[x].side == side]
        if len(mine) > 1 and not excl.may_stack(scenario, board, mine):
            out.append(
                RuleViolation(
                    "5.31",
                    f"{' and '.join(mine)} would end the Movement Phase stacked in {h}",
                    mine[-1],
                    str(h),
                )
            )
    return plan


def _mp_violation(uid: str, h: Hex, cost: int, left: int, allowance: int) -> RuleViolation:
    return RuleViolation(
        "5.25",
        f"{uid} cannot enter {h}: it costs {fmt_mp(cost)} MP and only {fmt_mp(left)} of its "
        f"{fmt_mp(allowance)} MP are left",
        uid,
        str(h),
    )


def validate_moves(
    board: Board,
    side: str,
    game_turn: int,
    moves: list[MoveOrder],
    exclusive: Exclusive | None = None,
) -> list[RuleViolation]:
    """Every movement rule ``moves`` break; ``board`` is not changed."""
    return walk_moves(board.copy(), side, game_turn, moves, exclusive).violations


def apply_moves(
    board: Board,
    side: str,
    game_turn: int,
    moves: list[MoveOrder],
    exclusive: Exclusive | None = None,
) -> list[Event]:
    """Carry out legal ``moves`` on ``board`` (mutated), returning one event per unit moved. Objective
    control hexes entered or passed through change hands on the way (:meth:`Board.move_unit`)."""
    plan = walk_moves(board, side, game_turn, moves, exclusive)
    if plan.violations:
        from pbem.errors import IllegalOrders

        raise IllegalOrders(plan.violations)
    return plan.events


# --------------------------------------------------------------------------------------------------
# Search: reachable hexes and cheapest paths
# --------------------------------------------------------------------------------------------------


_NO_PREV = Hex(-1, -1)


def _search(
    board: Board, uid: str, game_turn: int, exclusive: Exclusive | None = None,
    entry: Hex | None = None,
) -> tuple[dict[Hex, int], dict[Hex, Hex | None]]:
    """Dijkstra over half-points from the unit's hex (or its entry hexes; only ``entry`` when
    given). Returns cost and predecessor per reachable hex. Enemy-controlled hexes are entered but
    never left (except the start hex, which pins the unit if controlled [5.14])."""
    scenario = board.scenario
    u = scenario.unit[uid]
    side = u.side
    excl = exclusive if exclusive is not None else get_exclusive(scenario.game)
    allowance = u.move_halves
    cost: dict[Hex, int] = {}
    prev: dict[Hex, Hex | None] = {}
    # Heap entries (cost, hex, predecessor); _NO_PREV stands for "none" so entries always compare.
    heap: list[tuple[int, Hex, Hex]] = []
    start = board.unit_hex(uid)
    status = board.status(uid)
    pinned_start: Hex | None = None
    if status == "on-map" and start is not None:
        heapq.heappush(heap, (0, start, _NO_PREV))
        if board.enemy_zoc(start, side):
            pinned_start = start
    elif status == "waiting":
        st = board.source
        special = excl.entry_areas(scenario, st, uid, game_turn) if st is not None else None
        if special is not None:
            areas = special[0]
        else:
            areas, _rule, _first = reinforcement_entries(scenario, uid, game_turn)
        left = excl.landing(scenario, st, uid) if st is not None else None
        for h in area_hexes(scenario, areas):
            if entry is not None and h != entry:
                continue
            if board.enemy_at(h, side) is not None:
                continue
            c: int | None
            if left is not None:  # arriving by air (Arnhem [15.31-15.33])
                if excl.landing_violation(scenario, board, uid, h) is not None:
                    continue
                c = max(0, allowance - left)
            else:
                c, _why = board.entry_check(u, h)
            if c is None or c > allowance:
                continue
            if excl.movement_violations(scenario, board, uid, [h]):
                continue
            heapq.heappush(heap, (c, h, _NO_PREV))
    barred: dict[Hex, bool] = {}
    while heap:
        c, h, p = heapq.heappop(heap)
        if h in cost:
            continue
        cost[h] = c
        prev[h] = None if p == _NO_PREV else p
        if h == pinned_start:
            continue
        if (h != start or status != "on-map") and board.enemy_zoc(h, side):
            continue
        for n in board.neighbours(h):
            if n in cost:
                continue
            step, _why = board.enter_check(u, h, n)
            if step is None or c + step > allowance:
                continue
            if board.enemy_at(n, side) is not None:
                continue
            if n not in barred:
                barred[n] = bool(excl.movement_violations(scenario, board, uid, [h, n]))
            if barred[n]:
                continue
            heapq.heappush(heap, (c + step, n, h))
    return cost, prev


def reachable(
    board: Board, uid: str, game_turn: int = 0, exclusive: Exclusive | None = None
) -> dict[Hex, int]:
    """Every hex ``uid`` can reach this Movement Phase, with the cheapest cost in half-points
    (its own hex at 0; for a waiting reinforcement, from its entry hexes open on ``game_turn``).
    Includes hexes holding friends, which a unit may pass but not end in [5.31]."""
    return _search(board, uid, game_turn, exclusive)[0]


def cheapest_path(
    board: Board, uid: str, target: Hex, game_turn: int = 0, exclusive: Exclusive | None = None,
    entry: Hex | None = None,
) -> list[Hex] | None:
    """The cheapest legal path to ``target`` as the list of hexes entered (for a reinforcement, its
    entry hex first: ``entry`` when given), or ``None`` if ``target`` cannot be reached. Ties break
    by hex number."""
    cost, prev = _search(board, uid, game_turn, exclusive, entry)
    if target not in cost:
        return None
    path: list[Hex] = []
    h: Hex | None = target
    while h is not None:
        path.append(h)
        h = prev[h]
    path.reverse()
    if board.status(uid) == "on-map":
        path = path[1:]
    return path


def exit_options(board: Board, uid: str, game_turn: int = 0) -> list[tuple[Hex, int]]:
    """Hexes from which ``uid`` can leave the map this phase [12.0] with the total cost."""
    scenario = board.scenario
    u = scenario.unit[uid]
    edges = exit_edges(scenario, u.side)
    if not edges:
        return []
    out: list[tuple[Hex, int]] = []
    for h, c in sorted(reachable(board, uid, game_turn).items()):
        if not any(e in edges for e in board.edges_of(h)):
            continue
        if board.enemy_zoc(h, u.side):
            continue  # pinned [5.14] or stopped on entering [6.0]
        x, _why = board.exit_check(u, h)
        if x is not None and c + x <= u.move_halves:
            out.append((h, c + x))
    return out
