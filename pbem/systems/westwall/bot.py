"""The sparring bot: legal, sensible (not strong) WestWall orders for any pending decision.

:func:`choose_orders` answers the decision pending in a position with an orders document exactly
as ``pbem orders`` / ``pbem submit`` take it, and always one that
:meth:`~pbem.systems.westwall.rules.WestWallRules.validate` accepts: it proposes, validates and repairs
(dropping the moves of units named in violations, re-planning attacks), and as a last resort keeps
every unit in place and makes only the attacks the rules require [7.11, 7.12, 7.21, 8.31].

How it plays (Bastogne parameters come from the scenario's ``special`` data, never from names):

* **Set-up** [15.12, 15.23]: the U.S. rings the Bastogne hexes, strongest units in them; the German
  relief force blocks the road Line of Communication [15.27] outside the exclusion zone
  [15.26.3], placing units greedily on the current shortest LOC until none is left.
* **Movement** [5.0, 6.0, 11.0, 12.0]: every unit has a role. German units listed for exiting
  [15.17] head west and leave the map as soon as they can (until the deadline [15.37]), avoiding
  enemy zones of control that would pin them [5.14]; other attackers head for Bastogne; U.S.
  defenders hold a ring around it; the U.S. relief pushes along roads to the LOC end hexes; the
  German relief keeps the LOC blocked; artillery follows but never ends next to an enemy.
  Before that, attack opportunities are planned: movers are sent into contact with an enemy unit
  only where the expected CRT result of the grouped attack is good.
* **Combat** [7.0-9.14, 14.0]: the units in contact are partitioned into stars (one defender with
  several attackers, or one attacker against several defenders [7.22]) so that every adjacent
  enemy is attacked and every engaged unit attacks exactly once; attackers are then moved between
  combats where that improves the expected result, barraging artillery in range [8.1] and ground
  support [9.0] are added within the artillery limit [14.0], and one attacker per successful
  combat advances [7.9].
* **Standing orders**: every artillery unit gives Final Protective Fire to any attacked friend
  [8.4]; retreat preferences point toward friendly lines [7.7].

Randomness: a ``random.Random(seed)`` only breaks ties, so the same position, side and seed give
the same orders.

Why one module of some 1,100 lines (issue 24 asks for a reason above ~900): the planner's steps
share one context (:class:`_Ctx`: the board, the roles, the distance fields) and run in the order
above -- set-up, movement, combat, standing orders -- each a function named for its step; cut into
modules they would pass that context across every seam for no reader's gain.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Any

from pbem.errors import RuleViolation
from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.systems.westwall import crt
from pbem.systems.westwall.attacks import ground_support_available, player_turn_number
from pbem.systems.westwall.board import Board, geometry
from pbem.systems.westwall.enumerate import UnitOptions, movers, unit_options
from pbem.systems.westwall.exclusive import get_exclusive
from pbem.systems.westwall.memo import memo
from pbem.systems.westwall.model import (
    AcknowledgeOrders,
    AdvanceOrder,
    AttackOrder,
    CrtLine,
    FpfOrder,
    MoveOrder,
    PlayerTurnOrders,
    Scenario,
    SetupOrders,
    StandingOrders,
    State,
    UnitDef,
)
from pbem.systems.westwall.movement import (
    area_hexes,
    exit_edges,
    in_any_area,
    reinforcement_entries,
)
from pbem.systems.westwall.rules import WestWallRules, parse_state

JSON = Any

# Value of each CRT result for the attacker, in halves (expected values stay integers).
_RESULT_VALUE: dict[str, int] = {
    "De": 10, "D4": 8, "D3": 6, "D2": 5, "D1": 3, "Br": 0, "A1": -3, "A2": -5, "Ae": -10,
}
GOOD_ODDS = 6
"""Expected value (sum over the six faces, halves) a voluntary attack must reach."""
PUSH_ODDS = 0
"""Lower bar for a side that must break through (the LOC side [15.27])."""
BIG = 10_000


def expected_value(line: CrtLine, differential: int, *, solely_artillery: bool = False,
                   table: crt.Table = crt.DEFAULT) -> int:
    """Sum over the six faces of the attacker's value of the CRT result [7.61, 7.62]; against
    an attack made solely by artillery only D2-De count [8.15]."""
    total = 0
    for die in range(1, 7):
        r = crt.lookup(line, differential, die, table)
        if solely_artillery and r in ("D1", "Br"):
            continue
        total += _RESULT_VALUE[r]
    return total


# --------------------------------------------------------------------------------------------------
# Scenario parameters the bot reads (Bastogne special data, when present)
# --------------------------------------------------------------------------------------------------


class _Plan(Plain, frozen=True):
    """What each side is trying to do in a scenario."""

    control: tuple[Hex, ...] = ()
    """Objective hexes to hold or take [15.17]."""
    exit_side: str | None = None
    exit_units: frozenset[str] = frozenset()
    exit_edge: str = "west"
    exit_by: int | None = None
    loc_side: str | None = None
    loc_from: tuple[Hex, ...] = ()
    loc_to: tuple[Hex, ...] = ()
    excluded_side: str | None = None
    excluded_of: tuple[Hex, ...] = ()
    excluded_within: int = -1


def _plan_of(scenario: Scenario) -> _Plan:
    if scenario.game == "arnhem":
        return _arnhem_plan(scenario)
    try:
        from pbem.systems.westwall.bastogne import ExitVictory, LocVictory, special_of

        sp = special_of(scenario)
    except Exception:  # not Bastogne data: a plain standard-rules game
        return _Plan()
    kw: dict[str, Any] = {"control": tuple(Hex.parse(h) for h in sp.control_hexes)}
    v = sp.victory
    if isinstance(v, ExitVictory):
        kw.update(exit_side=v.exit_side, exit_units=frozenset(v.exit_units), exit_edge=v.exit_edge,
                  exit_by=v.exit_by_turn)
    elif isinstance(v, LocVictory):
        kw.update(loc_side=v.side, loc_from=tuple(Hex.parse(h) for h in v.from_hexes),
                  loc_to=tuple(Hex.parse(h) for h in v.to_hexes))
    if sp.exclusion is not None:
        kw.update(excluded_side=sp.exclusion.side,
                  excluded_of=tuple(Hex.parse(h) for h in sp.exclusion.of),
                  excluded_within=sp.exclusion.within)
        if not kw["control"]:
            kw["control"] = kw["excluded_of"]
    return _Plan(**kw)


def _arnhem_allied(scenario: Scenario) -> str:
    from pbem.systems.westwall.arnhem import allied_side

    return allied_side(scenario)


def _arnhem_plan(scenario: Scenario) -> _Plan:
    """Arnhem: both sides make for the crossings the victory points are about [17.11]: the far
    banks of the Waal and the Neder Rijn (the Allied player to reach them, the German to hold
    them)."""
    from pbem.systems.westwall.arnhem import special_of

    sp = special_of(scenario)
    goal = [r.north_hex for r in (sp.neder_rijn, sp.waal) if r is not None]
    return _Plan(control=tuple(Hex.parse(h) for h in goal))


def _loc_areas(ctx: _Ctx, board: Board) -> dict[str, frozenset[Hex]]:
    """Arnhem: for each airborne division, the hexes from which a unit could trace its line of
    communication to the drop zone now (at most seven hexes, no enemy zone, no unbridged water
    [17.32-17.34]): one search back from each drop zone. Empty for every other game."""
    if ctx.scenario.game != "arnhem":
        return {}
    from pbem.systems.westwall.arnhem_victory import _open

    out: dict[str, frozenset[Hex]] = {}
    for div, dz in sorted(ctx.state.exclusive.get("dz", {}).items()):
        goal = Hex.parse(dz)
        if board.enemy_at(goal, ctx.side) is not None:
            out[div] = frozenset()
            continue
        seen = {goal: 0}
        frontier = [goal]
        for d in range(1, 8):
            nxt = []
            for h in frontier:
                for n in board.neighbours(h):
                    if n not in seen and _open(board, ctx.side, n, h):
                        seen[n] = d
                        nxt.append(n)
            frontier = nxt
        out[div] = frozenset(seen)
    return out


def _tethered(ctx: _Ctx, uid: str, areas: dict[str, frozenset[Hex]]) -> frozenset[Hex] | None:
    """Where an Arnhem airborne unit keeps its line of communication, or ``None`` (no tether)."""
    if not areas:
        return None
    from pbem.systems.westwall.arnhem_victory import needs_loc

    u = ctx.unit[uid]
    if needs_loc(u) != "airborne":
        return None
    return areas.get(u.formation)


def _landings(ctx: _Ctx, board: Board) -> list[_Move]:
    """Units arriving by air this player-turn (Arnhem [15.31-15.34]): every one that is due (as many
    as the weather allows), each in an empty hex of its area, away from the enemy if it can be,
    nearest the goal; placed on ``board``."""
    ex = ctx.exclusive
    st = ctx.state
    cap = ex.landing_cap(ctx.scenario, st)
    out: list[_Move] = []
    goal = ctx.goal_hexes()
    for uid in sorted(board.scenario.unit, key=lambda u: (ctx.tiebreak[u], u)):
        if cap is not None and len(out) >= cap:
            break
        if ctx.unit[uid].side != ctx.side or board.status(uid) != "waiting":
            continue
        if ex.landing(ctx.scenario, st, uid) is None:
            continue
        special = ex.entry_areas(ctx.scenario, st, uid, ctx.turn)
        if special is not None:
            areas = special[0]
        else:
            areas, _rule, _first = reinforcement_entries(ctx.scenario, uid, ctx.turn)
        cands = [h for h in area_hexes(ctx.scenario, areas)
                 if ex.landing_violation(ctx.scenario, board, uid, h) is None
                 and board.enemy_at(h, ctx.side) is None]
        if not cands:
            continue

        def score(h: Hex) -> tuple[int, int, Hex]:
            near_enemy = any(board.enemy_at(n, ctx.side) is not None for n in board.neighbours(h))
            return (1 if near_enemy else 0, min((h.distance(g) for g in goal), default=0), h)

        best = min(cands, key=score)
        board.move_unit(uid, best)
        out.append(_Move(uid, best, [best]))
    return out


# --------------------------------------------------------------------------------------------------
# Distance fields (movement cost to a set of hexes, ignoring units)
# --------------------------------------------------------------------------------------------------

def _representative(scenario: Scenario, mech: bool) -> UnitDef | None:
    for u in scenario.units:
        if u.is_mech == mech:
            return u
    return None


def distance_field(scenario: Scenario, targets: Iterable[Hex], *, mech: bool) -> dict[Hex, int]:
    """Half Movement Points from each hex to the nearest of ``targets`` for a [5.24] type
    (``mech``) or a foot unit, by terrain alone [5.21-5.24] (units and zones of control ignored).
    Hexes that cannot reach a target are absent. Kept with the scenario object
    (:func:`~pbem.systems.westwall.memo.memo`)."""
    goal = frozenset(targets)
    return memo(scenario, "distance", (goal, mech), lambda: _distances(scenario, goal, mech),
                bound=256)


def _distances(scenario: Scenario, goal: frozenset[Hex], mech: bool) -> dict[Hex, int]:
    """:func:`distance_field` worked out."""
    geo = geometry(scenario)
    board = Board(scenario, geo, {}, {})
    unit = _representative(scenario, mech) or scenario.units[0]
    dist: dict[Hex, int] = {}
    heap: list[tuple[int, Hex]] = [(0, h) for h in sorted(goal) if h in geo.hexes]
    heapq.heapify(heap)
    while heap:
        d, h = heapq.heappop(heap)
        if h in dist:
            continue
        dist[h] = d
        for n in geo.neighbours[h]:
            if n in dist:
                continue
            step = board.enter_cost(unit, n, h)
            if step is not None:
                heapq.heappush(heap, (d + step, n))
    return dist


# --------------------------------------------------------------------------------------------------
# Combat arithmetic
# --------------------------------------------------------------------------------------------------


def _can_attack(board: Board, a: Hex, b: Hex) -> bool:
    """Adjacent across a hexside attacks may cross [6.33]."""
    if not a.is_adjacent(b):
        return False
    c = board.crossing(a, b)
    return not (c.blocks_attack or c.prohibited)


def _line(board: Board, attacker_hexes: list[Hex], defender_hexes: list[Hex]) -> CrtLine:
    """The CRT line for ground attackers in ``attacker_hexes`` (non-artillery) [7.41-7.45]."""
    lines: list[CrtLine] = []
    for dh in defender_hexes:
        best: CrtLine = board.terrain(dh).crt
        if attacker_hexes:
            side_lines = [board.crossing(a, dh).crt for a in attacker_hexes]
            known = [x for x in side_lines if x is not None]
            if len(known) == len(side_lines):
                best = crt.best_line([best, min(known, key=crt.line_rank)])
        lines.append(best)
    return crt.best_line(lines)


class _Combat(Plain):
    defenders: list[str]
    attackers: list[str] = field(default_factory=list)
    artillery: list[str] = field(default_factory=list)
    support: int = 0


class _Ctx:
    """Everything one decision needs, computed once."""

    def __init__(self, scenario: Scenario, state: State, side: str, seed: int) -> None:
        self.scenario = scenario
        self.state = state
        self.side = side
        self.enemy = scenario.other(side)
        self.rng = random.Random(seed)
        self.plan = _plan_of(scenario)
        self.exclusive = get_exclusive(scenario.game)
        self.turn = state.game_turn
        self.unit = scenario.unit
        self.tiebreak: dict[str, int] = {u.id: self.rng.randrange(1 << 30) for u in scenario.units}

    # roles ---------------------------------------------------------------------------------
    def exiting(self, uid: str) -> bool:
        p = self.plan
        return (
            p.exit_side == self.side
            and uid in p.exit_units
            and (p.exit_by is None or self.turn <= p.exit_by)
            and p.exit_edge in exit_edges(self.scenario, self.side)
        )

    def goal_hexes(self) -> tuple[Hex, ...]:
        p = self.plan
        if p.loc_side == self.side and p.loc_to:
            return p.loc_to
        if p.control:
            return p.control
        # no objective: the enemy's units
        return ()

    def blocking(self) -> bool:
        """The side that keeps a Line of Communication closed [15.27]."""
        p = self.plan
        return p.loc_side is not None and p.loc_side != self.side

    def defending(self) -> bool:
        """The side that holds the objective hexes (it holds them at the start) [15.17]."""
        if not self.plan.control or self.plan.loc_side is not None:
            return False
        return self.plan.exit_side is not None and self.plan.exit_side != self.side

    def defense_of(self, board: Board, enemies: list[str], nonart_attack: int) -> int:
        """Defense strength plus an estimate of the FPF the defender may add [8.4, 14.0]."""
        d = sum(self.unit[e].defense for e in enemies)
        hexes = [board.unit_hex(e) for e in enemies]
        fpf = 0
        for uid in board.units_of(self.enemy):
            u = self.unit[uid]
            if not u.is_artillery or u.fpf <= 0 or uid in enemies:
                continue
            us = board.units.get(uid)
            if us is not None and us.fpf_turn == self.turn:
                continue
            ah = board.unit_hex(uid)
            if ah is None or any(_can_attack(board, ah, x) for x in self._own_hexes(board)):
                continue
            if any(h is not None and ah.distance(h) <= u.range for h in hexes):
                fpf += u.fpf
        if self.scenario.artillery_limit:
            cap = sum(self.unit[e].defense for e in enemies if not self.unit[e].is_artillery)
            fpf = min(fpf, cap)
        return d + fpf

    def _own_hexes(self, board: Board) -> list[Hex]:
        return [h for _u, h in board.positions() if self.unit[_u].side == self.side]

    def combat_value(self, board: Board, c: _Combat, hexes: dict[str, Hex] | None = None) -> int:
        """Expected value of a combat as grouped (``hexes`` overrides attacker positions)."""
        def where(uid: str) -> Hex:
            if hexes is not None and uid in hexes:
                return hexes[uid]
            h = board.unit_hex(uid)
            assert h is not None
            return h

        nonart = [a for a in c.attackers if not self.unit[a].is_artillery]
        attack = (
            sum(self.unit[a].attack for a in nonart)
            + sum(self.unit[a].barrage for a in c.attackers if self.unit[a].is_artillery)
            + sum(self.unit[a].barrage for a in c.artillery)
            + c.support
        )
        nonart_attack = sum(self.unit[a].attack for a in nonart)
        defense = self.defense_of(board, c.defenders, nonart_attack) if nonart else sum(
            self.unit[e].defense for e in c.defenders
        )
        line = _line(board, [where(a) for a in nonart], [where(d) for d in c.defenders])
        return expected_value(line, attack - defense, solely_artillery=not nonart, table=board.geo.crt)

    def art_room(self, c: _Combat) -> int:
        """Barrage and support points still allowed in a combat [14.0]: adjacent artillery counts
        against the limit, as ``combat.validate_attacks`` reads it; a combat with no ground
        attacker has no limit."""
        if not self.scenario.artillery_limit:
            return BIG
        ground = sum(self.unit[a].attack for a in c.attackers if not self.unit[a].is_artillery)
        if not any(not self.unit[a].is_artillery for a in c.attackers):
            return BIG
        adjacent = sum(self.unit[a].barrage for a in c.attackers if self.unit[a].is_artillery)
        used = adjacent + sum(self.unit[a].barrage for a in c.artillery) + c.support
        return ground - used


# --------------------------------------------------------------------------------------------------
# Set-up
# --------------------------------------------------------------------------------------------------


def _setup(ctx: _Ctx, fixed: Mapping[str, str] | None = None) -> SetupOrders:
    """The bot's set-up; ``fixed``: placements already made (a player's own), kept as they are,
    their hexes taken."""
    sc, st = ctx.scenario, ctx.state
    board = Board.from_state(sc, st)
    taken: set[Hex] = {h for _u, h in board.positions()}
    placements: dict[str, str] = dict(fixed or {})
    taken |= {Hex.parse(h) for h in placements.values()}
    groups = [d for d in sc.deployments if d.side == ctx.side]
    focus = ctx.plan.control or ctx.plan.excluded_of
    if ctx.blocking():
        _setup_block(ctx, groups, taken, placements)
    for d in groups:
        allowed = [h for h in area_hexes(sc, d.area) if not board.geo.terrain[h].prohibited]
        units = sorted(
            (u for u in d.units if u not in placements),
            key=lambda u: (-sc.unit[u].defense, -sc.unit[u].attack, ctx.tiebreak[u], u),
        )
        arty = [u for u in units if sc.unit[u].is_artillery]
        units = [u for u in units if not sc.unit[u].is_artillery] + arty

        def rank(h: Hex, artillery: bool) -> tuple[int, int, int, Hex]:
            dist = min((h.distance(f) for f in focus), default=0)
            if artillery:
                dist = abs(dist - 2)  # artillery just behind the ring
            elif ctx.blocking():
                dist = min((h.distance(f) for f in ctx.plan.loc_to), default=dist)
            defend = crt.line_rank(board.geo.terrain[h].crt)
            road = 0 if h in board.geo.road_hexes else 1
            return (dist, -defend, road, h)

        for uid in units:
            u = sc.unit[uid]
            free = [h for h in allowed if h not in taken and not (u.is_mech and board.geo.terrain[h].mech_prohibited)]
            if not free:
                free = [h for h in allowed if h not in taken]
            if not free:
                continue
            best = min(free, key=lambda h: rank(h, u.is_artillery))
            placements[uid] = str(best)
            taken.add(best)
    return SetupOrders(side=ctx.side, placements=dict(sorted(placements.items())),
                       standing=_standing(ctx, board))


def proposed_setup(sc: Scenario, st: State, side: str, fixed: Mapping[str, str] | None = None) -> dict[str, str] | None:
    """The set-up this bot would sign for ``side`` with seed 0 (pbem's proposal in the orders
    template and for ``--defaults``: see ``rules.default_placements``) around the ``fixed``
    placements, or None if it leaves a unit out."""
    placements = _setup(_Ctx(sc, st, side, 0), fixed).placements
    due = {uid for d in sc.deployments if d.side == side for uid in d.units}
    return dict(placements) if set(placements) == due else None


def _setup_block(ctx: _Ctx, groups: list[Any], taken: set[Hex], placements: dict[str, str]) -> None:
    """Greedy LOC blocking [15.27]: while the LOC side has a road line, put the strongest unplaced
    unit on the hex of that line (or next to it) closest to its end, inside the deployment area."""
    from pbem.systems.westwall.bastogne import line_of_communication

    sc, st = ctx.scenario, ctx.state
    pool: list[tuple[str, Any]] = []
    for d in groups:
        for uid in d.units:
            if not sc.unit[uid].is_artillery and uid not in placements:
                pool.append((uid, d))
    pool.sort(key=lambda x: (-sc.unit[x[0]].defense, ctx.tiebreak[x[0]], x[0]))
    board = Board.from_state(sc, st)
    for _ in range(len(pool)):
        units = dict(st.units)
        for placed, where in placements.items():
            units[placed] = units[placed].replace(hex=where, status="on-map")
        loc = line_of_communication(sc, st.replace(units=units))
        if loc is None or not pool:
            return
        path = [Hex.parse(h) for h in loc]
        uid, d = pool.pop(0)
        u = sc.unit[uid]
        choice: Hex | None = None
        for h in reversed(path):
            cands = [h] + sorted(board.neighbours(h))
            for c in cands:
                if (
                    c not in taken
                    and in_any_area(sc, d.area, c)
                    and not board.geo.terrain[c].prohibited
                    and not (u.is_mech and board.geo.terrain[c].mech_prohibited)
                ):
                    choice = c
                    break
            if choice is not None:
                break
        if choice is None:
            pool.insert(0, (uid, d))
            return
        placements[uid] = str(choice)
        taken.add(choice)


# --------------------------------------------------------------------------------------------------
# Movement
# --------------------------------------------------------------------------------------------------


class _Move(Plain):
    unit: str
    target: Hex
    path: list[Hex]
    exit: bool = False


def _contact_enemies(ctx: _Ctx, board: Board, h: Hex) -> list[str]:
    out: list[str] = []
    for n in board.neighbours(h):
        e = board.enemy_at(n, ctx.side)
        if e is not None and _can_attack(board, h, n):
            out.extend(x for x in board.occupants(n) if ctx.unit[x].side == ctx.enemy)
    return out


def _plan_moves(ctx: _Ctx, board: Board) -> list[_Move]:
    """Choose a destination per mover; ``board`` is updated as moves are decided. Airborne units
    land first (:func:`_landings`); then, in this order: 1. exits [12.0, 15.17]; 2. blocking the
    Line of Communication [15.27] (Arnhem: cutting the corridor [17.31]); 3. attack
    opportunities; 4. everyone else by role (:func:`_plan_rest`)."""
    sc = ctx.scenario
    landed = _landings(ctx, board)
    opts = _move_options(ctx, board, _loc_areas(ctx, board))
    decided: list[_Move] = list(landed)
    done: set[str] = {m.unit for m in landed}

    def commit(uid: str, target: Hex, exit: bool = False) -> None:
        done.add(uid)
        o = opts[uid]
        start = board.unit_hex(uid)
        if exit:
            board.exit_unit(uid, ctx.plan.exit_edge, ctx.turn)
            decided.append(_Move(uid, target, o.path_to(target), True))
            return
        if start == target:
            return
        board.move_unit(uid, target)
        decided.append(_Move(uid, target, o.path_to(target)))

    def free(uid: str, h: Hex) -> bool:
        occ = board.occupants(h)
        return not occ or occ == [uid]

    # 1. exits [12.0, 15.17]
    for uid in sorted(opts, key=lambda u: (ctx.tiebreak[u], u)):
        if ctx.exiting(uid) and opts[uid].exits:
            h, _c = min(opts[uid].exits, key=lambda x: (x[1], x[0]))
            commit(uid, h, exit=True)

    # 2. blocking the Line of Communication [15.27]; Arnhem: cutting the corridor [17.31]
    if ctx.blocking():
        _plan_block(ctx, board, opts, done, commit, free)
    elif sc.game == "arnhem" and ctx.side != _arnhem_allied(sc):
        _plan_block(ctx, board, opts, done, commit, free, loc_of=_arnhem_loc, limit=3)

    # 3. attack opportunities
    targeted: set[str] = set()
    if not ctx.blocking():
        targeted = _plan_attacks(ctx, board, opts, done, commit, free)

    # 4. everyone else by role
    _plan_rest(ctx, board, opts, done, targeted, commit, free)
    return decided


def _move_options(
    ctx: _Ctx, board: Board, loc_areas: dict[str, frozenset[Hex]]
) -> dict[str, UnitOptions]:
    """Where each mover may go: not units arriving by air (they have landed), nor units pinned in
    an enemy zone of control [5.14]; an airborne unit only where its line of communication holds
    (Arnhem [17.32]). Units with nowhere to go are left out."""
    sc = ctx.scenario
    ids = [u for u in movers(board, ctx.side, ctx.turn)
           if not (board.status(u) == "waiting" and ctx.exclusive.landing(sc, ctx.state, u) is not None)]
    opts: dict[str, UnitOptions] = {}
    for uid in ids:
        start = board.unit_hex(uid)
        if start is not None and board.enemy_zoc(start, ctx.side):
            continue  # pinned [5.14]
        o = unit_options(board, uid, ctx.turn, ctx.exclusive)
        keep = _tethered(ctx, uid, loc_areas)
        if keep:  # an airborne unit stays where its line of communication holds (Arnhem [17.32])
            start_hex = board.unit_hex(uid)
            o.destinations = {h: c for h, c in o.destinations.items()
                              if h in keep or h == start_hex}
        if o.destinations or o.exits:
            opts[uid] = o
    return opts


def _plan_rest(
    ctx: _Ctx, board: Board, opts: dict[str, UnitOptions], done: set[str], targeted: set[str],
    commit: Any, free: Any,
) -> None:
    """Everyone not yet decided, by role: exiting units first, toward the exit edge; the others
    toward the goal hexes; defenders hold their posts in the ring, blockers stay put; each to the
    free destination :func:`_dest_score` likes best (staying put included)."""
    sc = ctx.scenario
    goal = ctx.goal_hexes()
    rest = [u for u in opts if u not in done]
    rest.sort(key=lambda u: (0 if ctx.exiting(u) else 1, ctx.tiebreak[u], u))
    objective = set(goal) | set(ctx.plan.control)
    contacts: dict[Hex, list[str]] = {}  # only own units move while the plan is made: the enemies stay
    for uid in rest:
        o = opts[uid]
        u = ctx.unit[uid]
        start = board.unit_hex(uid)
        if ctx.exiting(uid):
            fld = distance_field(sc, sc.map.edge_hexes(ctx.plan.exit_edge), mech=u.is_mech)
        elif goal:
            fld = distance_field(sc, goal, mech=u.is_mech)
        else:
            fld = {}
        if ctx.defending() and start is not None and not u.is_artillery:
            if min(start.distance(c) for c in ctx.plan.control) <= 2:
                done.add(uid)
                continue  # holds its post in the ring
        if ctx.blocking() and start is not None:
            done.add(uid)
            continue
        enemies_at = [board.unit_hex(e) for e in board.units_of(ctx.enemy)]
        enemy_hexes = [h for h in enemies_at if h is not None]

        cands = [(h, c) for h, c in o.destinations.items() if free(uid, h)]
        if not cands:
            continue
        if start is not None and (start, 0) not in cands:
            cands.append((start, 0))
        look = _Look(uid, fld, enemy_hexes, objective, targeted, contacts)
        best, _cost = min(cands, key=lambda x: _dest_score(ctx, board, look, x[0], x[1]))
        commit(uid, best)


class _Look(Plain):
    """What a mover's destination is judged by."""

    uid: str
    field: dict[Hex, int]
    enemy_hexes: list[Hex]
    objective: set[Hex]
    targeted: set[str]
    contacts: dict[Hex, list[str]]
    """:func:`_contact_enemies` of each hex judged so far (the enemy units do not move while the
    bot plans its moves)."""


def _dest_score(ctx: _Ctx, board: Board, look: _Look, h: Hex, cost: int) -> tuple[int, int, int, Hex]:
    """Lower is better: distance to the unit's goal, with penalties for artillery next to an enemy,
    an exiting unit entering an enemy zone of control (it would be pinned [5.14]) and contact with
    enemies no planned attack takes on (unless the hex is an objective)."""
    u = ctx.unit[look.uid]
    s = look.field.get(h, BIG)
    contact = look.contacts.get(h)
    if contact is None:
        contact = look.contacts[h] = _contact_enemies(ctx, board, h)
    if u.is_artillery:
        if contact or board.enemy_zoc(h, ctx.side):
            s += BIG * 4
        if min((h.distance(e) for e in look.enemy_hexes), default=9) <= 1:
            s += BIG
    elif ctx.exiting(look.uid):
        if board.enemy_zoc(h, ctx.side):
            s += BIG
    elif contact and not set(contact) <= look.targeted and h not in look.objective:
        s += BIG
    elif board.enemy_zoc(h, ctx.side) and h not in look.objective and not contact:
        s += BIG // 2
    return (s, cost, ctx.tiebreak[look.uid], h)


def _bastogne_loc(ctx: _Ctx, board: Board) -> list[Hex] | None:
    from pbem.systems.westwall.bastogne import line_of_communication

    loc = line_of_communication(ctx.scenario, board.to_state(ctx.state))
    return [Hex.parse(h) for h in loc] if loc is not None else None


def _arnhem_loc(ctx: _Ctx, board: Board) -> list[Hex] | None:
    """The road line of communication of the Allied ground unit furthest north [17.31] (its own
    hex left out): what the German bot tries to cut."""
    from pbem.systems.westwall.arnhem import special_of
    from pbem.systems.westwall.arnhem_victory import ground_loc, needs_loc

    sp = special_of(ctx.scenario)
    ground = [u for u in board.units_of(ctx.enemy) if needs_loc(ctx.unit[u]) == "ground"]
    for uid in sorted(ground, key=lambda u: (-(board.unit_hex(u) or Hex(0, 0)).col, u)):
        path = ground_loc(board, uid, sp.loc_hexes)
        if path is not None and len(path) > 1:
            return path[1:]
    return None


def _plan_block(ctx: _Ctx, board: Board, opts: dict[str, UnitOptions], done: set[str],
                commit: Any, free: Any, loc_of: Any = None, limit: int | None = None) -> None:
    """Keep the enemy's road Line of Communication closed (Bastogne [15.27]; Arnhem [17.31]): while
    one exists on the board as planned, send the mover that can reach it closest to its end there
    (or next to it); at most ``limit`` movers."""
    find = loc_of or _bastogne_loc
    for _ in range(min(len(opts), limit if limit is not None else len(opts))):
        path = find(ctx, board)
        if path is None:
            return
        best: tuple[int, int, int, str, Hex] | None = None
        for uid, o in opts.items():
            if uid in done:
                continue
            for i, h in enumerate(reversed(path)):
                for c in [h, *board.neighbours(h)]:
                    if c in o.destinations and free(uid, c) and not _contact_enemies(ctx, board, c):
                        key = (i, 0 if c == h else 1, o.destinations[c], uid, c)
                        if best is None or key < best:
                            best = key
        if best is None:
            return
        commit(best[3], best[4])


def _plan_attacks(ctx: _Ctx, board: Board, opts: dict[str, UnitOptions], done: set[str],
                  commit: Any, free: Any) -> set[str]:
    """Send movers into contact with an enemy unit when the grouped attack is worth it; enemy units
    next to our pinned artillery come first (their attack needs ground strength [14.0])."""
    targeted: set[str] = set()
    enemies = board.units_of(ctx.enemy)
    bar = PUSH_ODDS if ctx.plan.loc_side == ctx.side else GOOD_ODDS
    objective = set(ctx.plan.control) | set(ctx.goal_hexes())

    def urgency(e: str) -> tuple[int, int, int, str]:
        eh = board.unit_hex(e)
        assert eh is not None
        art_next = any(
            ctx.unit[x].is_artillery and ctx.unit[x].side == ctx.side
            for n in board.neighbours(eh) for x in board.occupants(n)
        )
        near_goal = min((eh.distance(g) for g in objective), default=0)
        return (0 if art_next else 1, near_goal, ctx.unit[e].defense, e)

    for e in sorted(enemies, key=urgency):
        eh = board.unit_hex(e)
        assert eh is not None
        if e in targeted:
            continue
        group = _Combat([e])
        present = [
            x for n in board.neighbours(eh) if _can_attack(board, n, eh)
            for x in board.occupants(n) if ctx.unit[x].side == ctx.side
        ]
        group.attackers = [x for x in present if board.enemy_zoc(board.unit_hex(x) or eh, ctx.side)]
        # contact hexes engaging only this enemy
        spots = [
            n for n in board.neighbours(eh)
            if _can_attack(board, n, eh) and not board.occupants(n)
            and set(_contact_enemies(ctx, board, n)) <= {e}
        ]
        chosen: dict[str, Hex] = {}
        cands = sorted(
            (u for u in opts if u not in done and not ctx.exiting(u) and not ctx.unit[u].is_artillery
             and ctx.unit[u].attack > 0),
            key=lambda u: (-ctx.unit[u].attack, ctx.tiebreak[u], u),
        )
        value = ctx.combat_value(board, group) if group.attackers else -BIG
        for uid in cands:
            if value >= bar:
                break
            reach = [s for s in spots if s in opts[uid].destinations and s not in chosen.values()
                     and free(uid, s)]
            if not reach:
                continue
            s = min(reach, key=lambda x: (opts[uid].destinations[x], x))
            chosen[uid] = s
            group.attackers.append(uid)
            value = ctx.combat_value(board, group, hexes=chosen)
        if value >= bar or (eh in objective and value >= PUSH_ODDS and chosen):
            for uid, s in chosen.items():
                commit(uid, s)
            targeted.add(e)
    return targeted


# --------------------------------------------------------------------------------------------------
# Combat planning
# --------------------------------------------------------------------------------------------------


def _engaged_graph(ctx: _Ctx, board: Board) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    own_adj: dict[str, list[str]] = {}
    enemy_adj: dict[str, list[str]] = {}
    for a in board.units_of(ctx.side):
        ah = board.unit_hex(a)
        assert ah is not None
        for e in board.units_of(ctx.enemy):
            eh = board.unit_hex(e)
            assert eh is not None
            if _can_attack(board, ah, eh):
                own_adj.setdefault(a, []).append(e)
                enemy_adj.setdefault(e, []).append(a)
    return own_adj, enemy_adj


def _plan_combat(ctx: _Ctx, board: Board, *, extras: bool = True) -> list[_Combat]:
    """Every required attack [7.11, 7.12, 7.21, 8.31] grouped into stars, then improved."""
    unit = ctx.unit
    own_adj, enemy_adj = _engaged_graph(ctx, board)
    if not enemy_adj:
        return []
    by_def: dict[str, _Combat] = {e: _Combat([e]) for e in sorted(enemy_adj)}
    multi: list[_Combat] = []  # one attacker against several defenders [7.22]
    home: dict[str, _Combat] = {}
    ground = sorted((a for a in own_adj if not unit[a].is_artillery),
                    key=lambda a: (len(own_adj[a]), -unit[a].attack, ctx.tiebreak[a], a))
    arty = sorted((a for a in own_adj if unit[a].is_artillery), key=lambda a: (ctx.tiebreak[a], a))

    for a in ground:
        best = min(own_adj[a], key=lambda e: (len(by_def[e].attackers) > 0,
                                              ctx.combat_value(board, by_def[e]) if by_def[e].attackers else 0,
                                              unit[e].defense, e))
        by_def[best].attackers.append(a)
        home[a] = by_def[best]
    # artillery joins the combat with the most room under [14.0]
    for a in arty:
        options = [by_def[e] for e in own_adj[a] if by_def[e].attackers]
        options.sort(key=lambda c: (-ctx.art_room(c), c.defenders[0]))
        target = options[0] if options else by_def[own_adj[a][0]]
        target.attackers.append(a)
        home[a] = target
    # defenders nobody attacks yet
    for e in sorted(by_def):
        c = by_def[e]
        if c.attackers:
            continue
        adj = enemy_adj[e]
        donor = None
        for a in sorted(adj, key=lambda a: (unit[a].is_artillery, ctx.tiebreak[a], a)):
            h = home[a]
            others = [x for x in h.attackers if x != a]
            if others and any(not unit[x].is_artillery for x in others) and len(h.defenders) == 1:
                donor = a
                break
        if donor is not None:
            home[donor].attackers.remove(donor)
            c.attackers.append(donor)
            home[donor] = c
            continue
        # a lone attacker takes this defender on as well [7.22]
        a = sorted(adj, key=lambda a: (unit[a].is_artillery, ctx.tiebreak[a], a))[0]
        h = home[a]
        if len(h.attackers) == 1:
            h.defenders.append(e)
            if h not in multi and len(h.defenders) > 1:
                multi.append(h)
        else:  # shared combat with several defenders: move a alone onto e
            h.attackers.remove(a)
            c.attackers.append(a)
            home[a] = c
    combats = [c for c in by_def.values() if c.attackers and c.defenders and len(c.defenders) == 1
               and c.defenders[0] in by_def and by_def[c.defenders[0]] is c]
    combats += [c for c in multi if c not in combats]
    combats = [c for c in combats if c.attackers]
    # make sure multi-defender stars have an attacker adjacent to every defender
    _improve(ctx, board, combats, home, own_adj)
    if extras:
        _add_artillery(ctx, board, combats, set(own_adj))
        _add_support(ctx, board, combats)
    combats.sort(key=lambda c: (-ctx.combat_value(board, c), c.defenders[0]))
    return combats


def _improve(ctx: _Ctx, board: Board, combats: list[_Combat], home: dict[str, _Combat],
             own_adj: dict[str, list[str]]) -> None:
    """Move ground attackers between single-defender combats when the total value rises."""
    unit = ctx.unit
    single = {c.defenders[0]: c for c in combats if len(c.defenders) == 1}
    for _round in range(3):
        changed = False
        for a in sorted(home, key=lambda x: (ctx.tiebreak[x], x)):
            src = home[a]
            if unit[a].is_artillery or len(src.defenders) != 1 or len(src.attackers) < 2:
                continue
            rest = [x for x in src.attackers if x != a]
            if not any(not unit[x].is_artillery for x in rest):
                continue
            before_src = ctx.combat_value(board, src)
            after_src = ctx.combat_value(board, _Combat(src.defenders, rest, src.artillery, src.support))
            if ctx.scenario.artillery_limit and (src.artillery or src.support) and \
                    ctx.art_room(_Combat(src.defenders, rest, src.artillery, src.support)) < 0:
                continue  # what was added to src would break [14.0] without this attacker
            for e in own_adj[a]:
                dst = single.get(e)
                if dst is None or dst is src:
                    continue
                gain = (ctx.combat_value(board, _Combat(dst.defenders, [*dst.attackers, a]))
                        - ctx.combat_value(board, dst))
                if gain + after_src - before_src > 0:
                    src.attackers.remove(a)
                    dst.attackers.append(a)
                    home[a] = dst
                    changed = True
                    break
        if not changed:
            return


def _add_artillery(ctx: _Ctx, board: Board, combats: list[_Combat], engaged: set[str]) -> None:
    """Barraging artillery in range [8.1, 8.11] (not next to an enemy [8.32]) within [14.0]."""
    unit = ctx.unit
    for a in board.units_of(ctx.side):
        u = unit[a]
        if not u.is_artillery or a in engaged or u.barrage <= 0:
            continue
        ah = board.unit_hex(a)
        assert ah is not None
        best: tuple[int, int, _Combat] | None = None
        for i, c in enumerate(combats):
            if not any(not unit[x].is_artillery for x in c.attackers):
                continue
            if ctx.art_room(c) < u.barrage:
                continue
            if not any(ah.distance(board.unit_hex(d) or ah) <= u.range for d in c.defenders):
                continue
            gain = ctx.combat_value(board, _Combat(c.defenders, c.attackers, [*c.artillery, a], c.support)) \
                - ctx.combat_value(board, c)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, i, c)
        if best is not None:
            best[2].artillery.append(a)


def _add_support(ctx: _Ctx, board: Board, combats: list[_Combat]) -> None:
    """Ground Support Points [9.0, 9.14] one at a time where they help most, within [14.0] and
    not in both combat phases of a game-turn [15.26.4]."""
    sc, st = ctx.scenario, ctx.state
    avail = ground_support_available(sc, st, ctx.side)
    if avail <= 0:
        return
    if sc.special.get("ground_support_one_phase"):
        used_in = st.ground_support_phase.get(ctx.side)
        if used_in is not None and used_in != player_turn_number(sc, st):
            return
    for _ in range(avail):
        best: tuple[int, _Combat] | None = None
        for c in combats:
            if not any(not ctx.unit[x].is_artillery for x in c.attackers) or ctx.art_room(c) < 1:
                continue
            gain = ctx.combat_value(board, _Combat(c.defenders, c.attackers, c.artillery, c.support + 1)) \
                - ctx.combat_value(board, c)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, c)
        if best is None:
            return
        best[1].support += 1


def _attack_orders(ctx: _Ctx, board: Board, combats: list[_Combat]) -> list[AttackOrder]:
    out: list[AttackOrder] = []
    for c in combats:
        advance: list[AdvanceOrder] = []
        nonart = [a for a in c.attackers if not ctx.unit[a].is_artillery and not ctx.exiting(a)]
        if nonart and ctx.combat_value(board, c) > 0 and not ctx.blocking():
            mover = max(nonart, key=lambda a: (ctx.unit[a].defense, ctx.tiebreak[a], a))
            advance.append(AdvanceOrder(unit=mover, hexes=1))
        out.append(AttackOrder(attackers=list(c.attackers), artillery=list(c.artillery),
                               support=c.support, defenders=list(c.defenders), advance=advance))
    return out


# --------------------------------------------------------------------------------------------------
# Standing orders
# --------------------------------------------------------------------------------------------------


def _standing(ctx: _Ctx, board: Board) -> StandingOrders:
    """FPF from every artillery unit for any attacked friend [8.4]; retreat toward friendly lines:
    the neighbours farther from the enemy, nearest the side's rear first [7.7]."""
    sc = ctx.scenario
    fpf = [
        FpfOrder(artillery=u.id, protect=["*"])
        for u in sc.units
        if u.side == ctx.side and u.is_artillery and board.status(u.id) in ("on-map", "waiting")
    ]
    enemy_hexes = [h for _u, h in board.positions() if ctx.unit[_u].side == ctx.enemy]
    retreat: dict[str, list[str]] = {}
    if enemy_hexes:
        for uid in board.units_of(ctx.side):
            h = board.unit_hex(uid)
            assert h is not None
            here = min(h.distance(e) for e in enemy_hexes)
            prefs = sorted(
                (n for n in board.neighbours(h) if min(n.distance(e) for e in enemy_hexes) > here),
                key=lambda n: (-min(n.distance(e) for e in enemy_hexes), n),
            )
            if prefs:
                retreat[uid] = [str(n) for n in prefs[:2]]
    return StandingOrders(fpf=fpf, retreat=dict(sorted(retreat.items())))


# --------------------------------------------------------------------------------------------------
# Player-turn and the repair loop
# --------------------------------------------------------------------------------------------------


def _turn_orders(ctx: _Ctx, moves: list[_Move], *, extras: bool) -> PlayerTurnOrders:
    """Orders for ``moves`` (applied to a fresh board) with combats planned on the result."""
    sc, st = ctx.scenario, ctx.state
    board = Board.from_state(sc, st)
    orders = [MoveOrder(unit=m.unit, path=[str(h) for h in m.path], exit=m.exit) for m in moves]
    from pbem.systems.westwall.movement import walk_moves

    walk_moves(board, ctx.side, ctx.turn, orders, ctx.exclusive)
    combats = _plan_combat(ctx, board, extras=extras)
    return PlayerTurnOrders(
        side=ctx.side,
        game_turn=ctx.turn,
        moves=orders,
        attacks=_attack_orders(ctx, board, combats) if extras else [
            AttackOrder(attackers=list(c.attackers), defenders=list(c.defenders)) for c in combats
        ],
        standing=_standing(ctx, board),
    )


def _player_turn(ctx: _Ctx, rules: WestWallRules) -> tuple[PlayerTurnOrders, list[RuleViolation]]:
    sc, st = ctx.scenario, ctx.state
    board = Board.from_state(sc, st)
    moves = _plan_moves(ctx, board)
    last: tuple[PlayerTurnOrders, list[RuleViolation]] | None = None
    for extras in (True, False):
        current = list(moves)
        while True:
            o = _turn_orders(ctx, current, extras=extras)
            bad = rules.validate(sc, st, ctx.side, o.to_json(omit_none=True))
            if not bad:
                return o, []
            last = (o, bad)
            if not current:
                break
            if extras and any(v.unit is None and v.rule != "15.34" for v in bad):
                break  # a problem of the attacks as a whole (support, artillery): plain attacks
            named = {v.unit for v in bad if v.unit and v.rule != "15.34"}
            keep = [m for m in current if m.unit not in named]
            if len(keep) == len(current):
                # attack problems that name no mover: drop moves into contact, then every move
                keep = [m for m in current if m.exit or not _move_contacts(ctx, m)]
                if len(keep) == len(current):
                    keep = []
            current = keep
    assert last is not None
    return last


def _move_contacts(ctx: _Ctx, m: _Move) -> bool:
    board = Board.from_state(ctx.scenario, ctx.state)
    return bool(_contact_enemies(ctx, board, m.target))


def choose_orders(scenario: Scenario | JSON, state_json: JSON, side: str, *, seed: int = 0) -> dict[str, Any]:
    """Orders for ``side``'s pending decision in ``state_json``, as JSON (what ``pbem orders``
    prints and ``pbem submit`` takes), legal under :meth:`WestWallRules.validate`.

    ``scenario`` is the validated model (or its merged JSON). ``seed`` only breaks ties: the same
    inputs always give the same orders. Raises :class:`pbem.errors.InputError` when no decision of
    ``side`` is pending."""
    from pbem.errors import InputError

    rules = WestWallRules()
    sc: Scenario = scenario if isinstance(scenario, Scenario) else rules.load_scenario(scenario)
    st = parse_state(state_json)
    pend = rules.pending(sc, st)
    if not pend or pend[0].side != side:
        raise InputError(f"no decision of {side} is pending")
    ctx = _Ctx(sc, st, side, seed)
    kind = pend[0].kind
    if kind == "acknowledge":
        return AcknowledgeOrders(side=side).to_json()
    if kind == "setup":
        setup = _setup(ctx)
        if sc.game == "arnhem":
            from pbem.systems.westwall.arnhem import bot_drop_zone_notes

            notes = bot_drop_zone_notes(sc, st, side)
            if notes is not None:
                setup = setup.replace(dz_notes=notes)
        data = setup.to_json(omit_none=True)
        checked = rules.conceal(sc, st, side, data, bytes(32)) if setup.dz_notes else data
        if rules.validate(sc, st, side, checked):
            skel = rules.skeleton(sc, st, side)
            assert isinstance(skel, dict)
            return skel
        return data
    orders, _bad = _player_turn(ctx, rules)
    return orders.to_json(omit_none=True)


__all__ = ["choose_orders", "distance_field", "expected_value"]
