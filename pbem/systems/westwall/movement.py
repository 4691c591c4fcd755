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
The cases above are Bastogne's; a refusal of the reinforcement and exit checks cites those of the
exclusive rules in play (:attr:`Exclusive.citations`: Arnhem's [15.0-15.43]).
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable
from dataclasses import field
from typing import TYPE_CHECKING

from pbem.errors import InputError, RuleViolation
from pbem.plain import Plain

if TYPE_CHECKING:
    from pbem.engine.ruleset import Dice
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Exclusive, get_exclusive
from pbem.systems.westwall.memo import memo
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
        found.update(_hexes_of(scenario, area))
    return sorted(found)


def _hexes_of(scenario: Scenario, area: Area) -> frozenset[Hex]:
    """The on-map hexes of one area, worked out once per scenario and area (by its JSON: areas
    equal in every field are one): the scenario's check reads every entry area, and SPI Arnhem
    every waiting unit's at each walk [15.22]."""
    key = json.dumps(area.to_json(), sort_keys=True, separators=(",", ":"))
    return memo(scenario, "area-hexes", key, lambda: frozenset(
        h for h in _candidates(scenario, area) if in_area(scenario, area, h)), bound=1024)


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
    schedule (``""`` when none is open) and its earliest turn (``None`` when it is not a
    reinforcement)."""
    areas: list[Area] = []
    rule = ""
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


class MovePlan(Plain):
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
    hexes when the roll came during its own move) and a note says why.

    The orders are taken one at a time in the order given [5.15] (:meth:`_Walk.move`), then the
    stacks are checked [5.31]."""
    walk = _Walk(board, side, game_turn, moves, exclusive, dice, state)
    for order in moves:
        walk.move(order)
    walk.stacking()
    return walk.plan


class _Leg(Plain):
    """One unit's move as it is walked: where it stands (``trail``: its start or entry hex, then
    each hex entered) and the hexes still to enter (``rest``)."""

    order: MoveOrder
    unit: UnitDef
    start: Hex | None
    """Its hex before the move (``None`` off the map)."""
    entering: bool
    """Coming onto the map this move (a reinforcement [11.0], or back by the exclusive rules)."""
    spent: int
    trail: list[Hex]
    rest: list[Hex]
    skip: int = 0
    """1 when the path's leading copy of the start hex was dropped."""


class _Walk:
    """One walk of a player's moves (:func:`walk_moves`): what it keeps from one order to the next,
    and its steps, in the order the rules take them."""

    def __init__(
        self, board: Board, side: str, game_turn: int, moves: list[MoveOrder],
        exclusive: Exclusive | None, dice: Dice | None, state: State | None,
    ) -> None:
        scenario = board.scenario
        excl = exclusive if exclusive is not None else get_exclusive(scenario.game)
        self.board, self.scenario, self.side, self.game_turn = board, scenario, side, game_turn
        self.moves, self.excl, self.dice, self.state = moves, excl, dice, state
        self.plan = MovePlan()
        self.out = self.plan.violations
        self.seen: set[str] = set()
        self.rolling = dice is not None and state is not None and excl.rolls_in_movement
        self.queued: dict[Hex, int] = {}  # units that entered through each hex so far this phase [Arnhem 15.13]
        # Only ``side``'s units move in this walk, so whether a hex is in an enemy zone of control, and
        # which enemy unit is in it, stay as they were -- unless the exclusive rules roll as units
        # enter hexes (a demolished bridge changes the zones of control [6.33]): then nothing is kept.
        self.in_zoc: dict[Hex, bool] = {}
        self.enemy_in: dict[Hex, str | None] = {}
        self.hex_at = board.geo.hex_at
        # Legal steps met before cost what the geometry recorded (``Board.enter_check``; not when
        # a roll may demolish a bridge and so change the geometry), and the exclusive rules are asked
        # for crossing relief only when they give any.
        self.known_steps = board.geo.scenario is scenario and not self.rolling
        self.relief = type(excl).crossing_relief is not Exclusive.crossing_relief

    def move(self, order: MoveOrder) -> None:
        """One order: where it starts, each hex entered, the exit if ordered, and the result."""
        leg = self._begin(order)
        if leg is None:
            return
        ok, stopped = self._walk_leg(leg)
        exited = False
        if ok and order.exit and stopped is None:
            exited = self._exit(leg)
        if len(leg.trail) == 1 and not leg.entering and not exited:
            return
        self._record(leg, exited)

    # -- where a move starts ----------------------------------------------------------------------
    def _begin(self, order: MoveOrder) -> _Leg | None:
        """The unit is the player's own [5.11] and moves once [5.15]; an eliminated unit does not
        move [5.0] nor an exited one return [12.11] (unless the exclusive rules bring it back);
        then where the move starts. ``None`` when it does not move."""
        uid = order.unit
        u = _unit(self.board, uid)
        out = self.out
        if u.side != self.side:
            out.append(
                RuleViolation(
                    "5.11", f"{uid} is not one of your units: it belongs to {u.side}", uid
                )
            )
            return None
        if uid in self.seen:
            out.append(
                RuleViolation("5.15", f"{uid} is ordered to move twice: each unit moves once", uid)
            )
            return None
        self.seen.add(uid)
        if order.to is not None and not order.path:
            raise InputError(
                f"move of {uid}: 'to' was not expanded into a path (normalize the orders)"
            )
        hex_at = self.hex_at
        path = [hex_at[x] for x in order.path]
        status = self.board.status(uid)
        start = self.board.unit_hex(uid)
        special = (
            self.excl.entry_areas(self.scenario, self.state, uid, self.game_turn)
            if self.state is not None else None
        )
        if status == "eliminated" and special is None:
            out.append(RuleViolation("5.0", f"{uid} has been eliminated and cannot move", uid))
            return None
        if status == "exited" and special is None:
            why = (self.excl.no_return(self.scenario, self.state, uid, self.game_turn)
                   if self.state is not None else f"{uid} has left the map and may not return")
            out.append(RuleViolation(self.excl.citations.no_return, why, uid))
            return None
        if status in ("waiting", "eliminated", "exited") or start is None:
            if not path:
                return None  # a withheld reinforcement [11.22]
            return self._enter(order, u, start, path, special)
        return self._leave(order, u, start, path)

    def _enter(
        self, order: MoveOrder, u: UnitDef, start: Hex | None, path: list[Hex],
        special: tuple[list[Area], str] | None,
    ) -> _Leg | None:
        """A unit coming onto the map [11.0]: due this Game-Turn, not into an enemy unit [11.21],
        through one of its entry hexes [11.11]; by air where the exclusive rules allow (Arnhem
        [15.31-15.33]), else paying the entry hex's cost (and the column's [15.13]) within its
        Movement Allowance [11.12]. Each refusal cites the case of the exclusive rules in play
        (:class:`~pbem.systems.westwall.exclusive.Citations`)."""
        scenario, uid, out = self.scenario, order.unit, self.out
        cite = self.excl.citations
        first: int | None
        if special is not None:
            areas, rule = special
            first = self.game_turn
        else:
            areas, rule, first = reinforcement_entries(scenario, uid, self.game_turn)
        if first is None:
            out.append(
                RuleViolation(
                    cite.reinforcements, f"{uid} is not on the map and is not a reinforcement", uid
                )
            )
            return None
        if not areas:
            out.append(
                RuleViolation(
                    cite.reinforcements,
                    f"{uid} arrives on Game-Turn {first}, not before (now {self.game_turn})",
                    uid,
                )
            )
            return None
        entry = path[0]
        listed = in_any_area(scenario, areas, entry)
        described = describe_areas(areas)
        # An enemy unit in the hex bars it whatever the hex (Arnhem: its scheduled hex, held by the
        # enemy, is replaced by the alternate [15.22], yet the refusal is that the enemy holds it).
        enemy = self.board.enemy_at(entry, self.side)
        if enemy is not None:
            out.append(
                RuleViolation(
                    cite.entry_enemy,
                    f"{uid} cannot enter at {entry}: enemy unit {enemy} is there"
                    + ("" if listed else f" (its entry hexes: {described})"),
                    uid,
                    str(entry),
                )
            )
            return None
        if not listed:
            case = self.excl.entry_case(rule)
            named = "" if rule == case or f"[{rule}]" in described else f" [{rule}]"
            out.append(
                RuleViolation(
                    case,
                    f"{uid} cannot enter at {entry}: not one of its entry hexes ({described}){named}",
                    uid,
                    str(entry),
                )
            )
            return None
        entry_cost = self._entry_cost(u, entry)
        if entry_cost is None:
            return None
        return _Leg(order, u, start, True, entry_cost, [entry], path[1:])

    def _entry_cost(self, u: UnitDef, entry: Hex) -> int | None:
        """What entering at ``entry`` costs [11.12], or what an air landing leaves (Arnhem
        [15.32]); ``None`` when it may not (the violation added)."""
        scenario, board, excl, state, uid = self.scenario, self.board, self.excl, self.state, u.id
        allowance = u.move_halves
        left = excl.landing(scenario, state, uid) if state is not None else None
        if left is not None:  # arriving by air (Arnhem [15.31-15.33])
            bad = excl.landing_violation(scenario, board, uid, entry)
            if bad is not None:
                self.out.append(bad)
                return None
            return max(0, allowance - left)
        cost0, why = board.entry_check(u, entry)
        if cost0 is None:
            assert why is not None
            self.out.append(RuleViolation(self.excl.citations.entry_terrain,
                                          f"{uid} cannot enter at {entry}: {why}", uid, str(entry)))
            return None
        queued = self.queued
        cost0 += excl.column_cost(scenario, board, entry, queued.get(entry, 0))
        queued[entry] = queued.get(entry, 0) + 1
        if cost0 > allowance:
            self.out.append(_mp_violation(uid, entry, cost0, allowance, allowance))
            return None
        return cost0

    def _leave(self, order: MoveOrder, u: UnitDef, start: Hex, path: list[Hex]) -> _Leg | None:
        """A unit on the map starts in its hex (a leading copy of it in the path is dropped); one
        that starts in an enemy zone of control may not leave it [5.14]."""
        skip = 0
        if path and path[0] == start:
            path = path[1:]
            skip = 1
        if (path or order.exit) and self.board.enemy_zoc(start, self.side):
            uid = order.unit
            src = ", ".join(self.board.zoc_sources(start, self.side))
            self.out.append(
                RuleViolation(
                    "5.14",
                    f"{uid} cannot leave {start}: it starts in an enemy zone of control (of {src})",
                    uid,
                    str(start),
                )
            )
            return None
        return _Leg(order, u, start, False, 0, [start], path, skip)

    # -- hex by hex -------------------------------------------------------------------------------
    def _walk_leg(self, leg: _Leg) -> tuple[bool, RuleViolation | None]:
        """The exclusive rules' restrictions on the whole path (e.g. [15.26.3]), then each hex
        entered in turn (:meth:`_follow`). With dice, a roll as the unit enters a hex may demolish
        a bridge (Arnhem [12.11]): a step it made illegal stops the unit instead (returned, the
        note added). Returns whether every step was legal, and that stop."""
        scenario, board, excl, uid = self.scenario, self.board, self.excl, leg.order.unit
        out = self.out
        full = list(leg.trail) + leg.rest
        out.extend(excl.movement_violations(scenario, board, uid, full))
        bad_before = len(out)
        rest = leg.rest
        if self.rolling and leg.entering:
            assert self.dice is not None and self.state is not None
            if excl.on_enter(scenario, board, self.state, uid, leg.trail[-1], self.dice,
                             self.plan.events) and leg.order.if_demolished is not None:
                rest = [Hex.parse(x) for x in leg.order.if_demolished]
        ok = self._follow(leg, rest)
        if not self.rolling:
            return ok, None
        stopped: RuleViolation | None = None  # a roll made the next step illegal
        if len(out) > bad_before:
            # Checked legal before the dice: only a demolition can have made this step illegal.
            stopped = out.pop()
            del out[bad_before:]
            ok = True
        trail = leg.trail
        if board.decided:
            # After a demolition, a unit stopped short may stand where a later one was to end:
            # never end stacked with a friend [5.31] (the later one halts before that hex).
            while len(trail) > 1 and any(
                x != uid and board.side_of(x) == self.side for x in board.occupants(trail[-1])
            ) and not excl.may_stack(scenario, board, [uid, *board.occupants(trail[-1])]):
                trail.pop()
        if stopped is not None:
            leg.spent = min(leg.spent, leg.unit.move_halves)
            self.plan.events.append(
                NoteEvent(
                    rule="12.13",
                    text=f"{uid} stops in {trail[-1]}: {stopped.message} after the bridge was "
                    "demolished",
                )
            )
        return ok, stopped

    def _follow(self, leg: _Leg, rest: list[Hex]) -> bool:
        """Each hex of ``rest`` entered in turn, until one may not be: not on from a hex in an
        enemy zone of control the unit entered [6.0]; terrain open to it [5.21, 5.24] (less any
        crossing relief of the exclusive rules, Arnhem [13.22]); no enemy unit in it [5.12];
        enough Movement Points left [5.13, 5.25]. Returns False at the first step refused (its
        violation added)."""
        board, side, out, rolling, u = self.board, self.side, self.out, self.rolling, leg.unit
        uid, start, entering, trail = leg.order.unit, leg.start, leg.entering, leg.trail
        in_zoc, enemy_in = self.in_zoc, self.enemy_in
        steps = board.geo.step_cost[u.type in MECH_TYPES] if self.known_steps else {}
        allowance = u.move_halves
        spent = leg.spent
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
                leg.spent = spent
                return False
            cost = steps.get((cur, nxt))
            if cost is None:
                cost, why = board.enter_check(u, cur, nxt)
                if cost is None:
                    assert why is not None
                    out.append(why)
                    leg.spent = spent
                    return False
            if self.relief:
                cost -= self.excl.crossing_relief(self.scenario, board, uid, cur, nxt, self.moves)
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
                leg.spent = spent
                return False
            if spent + cost > allowance:
                out.append(_mp_violation(uid, nxt, cost, allowance - spent, allowance))
                leg.spent = spent
                return False
            spent += cost
            trail.append(nxt)
            if rolling:
                assert self.dice is not None and self.state is not None
                if self.excl.on_enter(self.scenario, board, self.state, uid, nxt, self.dice,
                                      self.plan.events) and leg.order.if_demolished is not None:
                    rest, i = [Hex.parse(x) for x in leg.order.if_demolished], 0
        leg.spent = spent
        return True

    # -- off the map [12.0] -----------------------------------------------------------------------
    def _exit(self, leg: _Leg) -> bool:
        """Leaving the map from the last hex [12.0]: the scenario lets the side exit, by an edge
        that hex lies on, not from an enemy zone of control it entered [6.0], paying the cost of
        an imaginary hex like it within the allowance [5.25]. Returns whether it left (the cost
        added to ``leg.spent``), else adds the violation."""
        scenario, board, side, u = self.scenario, self.board, self.side, leg.unit
        uid, trail, last = leg.order.unit, leg.trail, leg.trail[-1]
        cite = self.excl.citations
        allowance = u.move_halves
        edges = [e for e in board.edges_of(last) if e in exit_edges(scenario, side)]
        why: RuleViolation | None
        if not exit_edges(scenario, side):
            why = RuleViolation(
                cite.who_may_exit,
                f"{uid} cannot leave the map: this scenario lets no {side} unit exit",
                uid,
                str(last),
            )
        elif not edges:
            allowed = ", ".join(exit_edges(scenario, side))
            named = sorted({r.rule for r in scenario.exits if r.side == side} - {cite.exit_edges})
            why = RuleViolation(
                cite.exit_edges,
                f"{uid} cannot leave the map from {last}: exits only by the {allowed} edge"
                + "".join(f" [{r}]" for r in named),
                uid,
                str(last),
            )
        elif (len(trail) > 1 or leg.entering) and board.enemy_zoc(last, side):
            why = RuleViolation(
                "6.0",
                f"{uid} cannot leave the map from {last}: it entered an enemy zone of control there",
                uid,
                str(last),
            )
        else:
            cost, refused = board.exit_check(u, last)
            if cost is None:
                assert refused is not None
                why = RuleViolation(
                    cite.exit_cost,
                    f"{uid} cannot leave the map from {last}: {refused}",
                    uid,
                    str(last),
                )
            elif leg.spent + cost > allowance:
                why = RuleViolation(
                    cite.exit_cost,
                    f"{uid} cannot leave the map from {last}: it needs {fmt_mp(cost)} MP and has "
                    f"{fmt_mp(allowance - leg.spent)} of its {fmt_mp(allowance)} MP left [5.25]",
                    uid,
                    str(last),
                )
            else:
                leg.spent += cost
                return True
        self.out.append(why)
        return False

    # -- the result -------------------------------------------------------------------------------
    def _record(self, leg: _Leg, exited: bool) -> None:
        """The unit moved on the board and its :class:`MovedEvent`. Objective control changes in
        every hex passed through; the unit itself is moved once, to its last hex (the same end
        state as moving it hex by hex)."""
        board, uid, trail = self.board, leg.order.unit, leg.trail
        passed = trail if leg.entering else trail[1:]
        if passed:
            for h in passed[:-1]:
                board.note_passage(uid, h)
            board.move_unit(uid, passed[-1])
        if exited:
            last = trail[-1]
            edge = next(e for e in board.edges_of(last) if e in exit_edges(self.scenario, self.side))
            board.exit_unit(uid, edge, self.game_turn)
        texts = leg.order.path
        if self.rolling:
            names = [str(h) for h in trail]
        elif leg.entering:  # ``trail`` is the start of ``path``, and ``str(Hex.parse(x)) == x``
            names = list(texts[: len(trail)])
        else:
            names = [str(leg.start), *texts[leg.skip : leg.skip + len(trail) - 1]]
        self.plan.events.append(
            MovedEvent(
                unit=uid,
                path=names,
                mp_halves=leg.spent,
                entered=leg.entering,
                exited=exited,
            )
        )

    def stacking(self) -> None:
        """No two friendly units end the Movement Phase in one hex [5.31] (unless the exclusive
        rules let them, Arnhem [13.24])."""
        scenario, side, excl, board = self.scenario, self.side, self.excl, self.board
        for h, uids in sorted(board.stacked_hexes().items()):
            mine = [x for x in uids if scenario.unit[x].side == side]
            if len(mine) > 1 and not excl.may_stack(scenario, board, mine):
                self.out.append(
                    RuleViolation(
                        "5.31",
                        f"{' and '.join(mine)} would end the Movement Phase stacked in {h}",
                        mine[-1],
                        str(h),
                    )
                )


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
                c, _refused = board.entry_check(u, h)
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


def no_path_reason(
    board: Board, uid: str, target: Hex, game_turn: int = 0, exclusive: Exclusive | None = None,
    entry: Hex | None = None,
) -> str:
    """Why :func:`cheapest_path` finds no path to ``target``, in words naming the hex and the case
    (as ``pbem reach`` says why a hex is closed) [27]: a unit pinned in an enemy zone of control
    [5.14], a reinforcement not due or not at one of its entry hexes (the game's own cases), an
    enemy unit in the hex [5.12], a hexside or terrain it may not cross, or else a hex beyond its
    reach this phase, with the nearest hex it can reach."""
    scenario = board.scenario
    u = scenario.unit[uid]
    side = u.side
    excl = exclusive if exclusive is not None else get_exclusive(scenario.game)
    cite = excl.citations
    if not board.on_map(target):
        return f"{target} is not on the map [2.1]"
    origin = board.unit_hex(uid)
    if board.status(uid) == "on-map" and origin is not None:
        if board.enemy_zoc(origin, side):
            return (f"it starts in an enemy zone of control in {origin} (of "
                    f"{', '.join(board.zoc_sources(origin, side))}) and may not leave it [5.14]")
    else:
        st = board.source
        special = excl.entry_areas(scenario, st, uid, game_turn) if st is not None else None
        first: int | None = game_turn
        if special is not None:
            areas, rule = special
        else:
            areas, rule, first = reinforcement_entries(scenario, uid, game_turn)
        described = describe_areas(areas) or "none"
        if first is None:
            return str(RuleViolation(cite.reinforcements, "it is not on the map and is not a reinforcement"))
        if not areas:
            return str(RuleViolation(cite.reinforcements, f"it arrives on Game-Turn {first}, not before"))
        if not any(a.hexes or a.edge or a.within is not None or a.beyond is not None for a in areas):
            return str(RuleViolation(rule or cite.reinforcements, f"it cannot come onto the map on "
                                                                  f"Game-Turn {game_turn}: {described}"))
        if entry is not None:
            if not in_any_area(scenario, areas, entry):
                return str(RuleViolation(excl.entry_case(rule),
                                         f"{entry} is not one of its entry hexes ({described})"))
            enemy = board.enemy_at(entry, side)
            if enemy is not None:
                return str(RuleViolation(cite.entry_enemy, f"enemy unit {enemy} is in its entry hex {entry}"))
            landing = excl.landing(scenario, st, uid) if st is not None else None
            if landing is not None:
                bad = excl.landing_violation(scenario, board, uid, entry)
                if bad is not None:
                    return str(bad)
            else:
                cost0, why = board.entry_check(u, entry)
                if cost0 is None:
                    return str(RuleViolation(cite.entry_terrain, f"it cannot enter at {entry}: {why}"))
            origin = entry
    enemy = board.enemy_at(target, side)
    if enemy is not None:
        return f"enemy unit {enemy} is in {target} [5.12]"
    if origin is not None and origin != target and origin.is_adjacent(target):
        _cost, refused = board.enter_check(u, origin, target)
        if refused is not None:
            return str(refused)
    cost, _prev = _search(board, uid, game_turn, excl, entry)
    here = [(h, c) for h, c in cost.items() if board.occupant(h) is None or h == board.unit_hex(uid)]
    tail = ""
    if here:
        near, c = min(here, key=lambda hc: (hc[0].distance(target), hc[1], hc[0]))
        tail = f"; the nearest hex it can reach is {near} ({fmt_mp(c)} MP)"
    start = f" from {origin}" if origin is not None else ""
    return (f"{target} is beyond its reach{start} this Movement Phase ({fmt_mp(u.move_halves)} MP; a unit "
            f"stops in the first enemy zone of control it enters) [5.13, 6.0]{tail}")


def exit_options(board: Board, uid: str, game_turn: int = 0,
                 cost: dict[Hex, int] | None = None) -> list[tuple[Hex, int]]:
    """Hexes from which ``uid`` can leave the map this phase [12.0] with the total cost: each hex it
    reaches on one of its side's exit edges, not in an enemy zone of control, whose exit cost fits
    its allowance. ``cost``: the costs of a search already made with the game's exclusive rules at
    the newest readings (what :func:`reachable` finds), instead of searching again."""
    scenario = board.scenario
    u = scenario.unit[uid]
    edges = exit_edges(scenario, u.side)
    if not edges:
        return []
    out: list[tuple[Hex, int]] = []
    for h, c in sorted((reachable(board, uid, game_turn) if cost is None else cost).items()):
        if not any(e in edges for e in board.edges_of(h)):
            continue
        if board.enemy_zoc(h, u.side):
            continue  # pinned [5.14] or stopped on entering [6.0]
        x, _why = board.exit_check(u, h)
        if x is not None and c + x <= u.move_halves:
            out.append((h, c + x))
    return out
