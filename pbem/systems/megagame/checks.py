"""A team's order sheet checked against the scenario and what the team knows [5, 6, 9, 11, 12]
(:func:`validate`, on the team's pbem before it signs and on Game Control's at the reveal), and
the routes filled in towards an objective before the sheet is signed (:func:`normalize`)."""

from __future__ import annotations

from typing import Any, Literal

from pbem.errors import RuleViolation
from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.systems.megagame.air import (
    MISSION_ROLES,
    air_pools,
    cab_rank_squadrons,
    is_strike,
    own_cab_rank,
)
from pbem.systems.megagame.board import (
    ATTACKING,
    FIGHTING,
    AnyState,
    detraining,
    hq_out_of_reach,
    posture_of,
    status_of,
    team_side,
    turn_label,
    unit_def,
)
from pbem.systems.megagame.combat import ARTILLERY_RANGE_KM
from pbem.systems.megagame.model import CabRank, MegaScenario, TeamView
from pbem.systems.megagame.movement import MoveTable, km_text, max_move_km, move_table
from pbem.systems.megagame.orders import AirRequest, OrderLine, OrderSheet, UnitInfo, check_sheet
from pbem.systems.megagame.tables import effectiveness, movement_after_landing
from pbem.systems.megagame.view import FRIENDS_KM, team_view


def _rail_problems(scenario: MegaScenario, k: Known, side: str, orders: OrderSheet) -> list[RuleViolation]:
    """Rail movement [6]: a unit on the railway takes no other orders; one put on a train must stand
    at a town or village of the railway, out of contact, its side must have the trains for it this
    turn, and it gets off where the network reaches (vehicles at a town or village)."""
    geo = scenario.map.geo
    out: list[RuleViolation] = []
    boarding = 0
    for line in orders.lines:
        for uid in line.units:
            if uid in k.on_rail:
                out.append(RuleViolation("6", f"{', '.join(line.units)}: {uid} is on the railway: it takes no orders until "
                                              "it has got off"))
        if not line.rail_to:
            continue
        if line.route:
            out.append(RuleViolation("6", f"{', '.join(line.units)}: a unit goes by rail or by road this turn, not both"))
        if not (line.rail_to.isdigit() and len(line.rail_to) == 4):
            out.append(RuleViolation("6", f"{', '.join(line.units)}: rail to a hex of the map, not {line.rail_to[:20]!r}"))
            continue
        to = Hex.parse(line.rail_to)
        for uid in line.units:
            info = k.units.get(uid)
            if info is None:
                continue
            here = Hex.parse(info.hex)
            boarding += scenario.types[unit_def(scenario, uid).type].size
            if not geo.station(here):
                out.append(RuleViolation("6", f"{', '.join(line.units)}: {uid} must be at a town or village on the railway to "
                                              f"board a train, not at {here}"))
            elif any(Hex.parse(e).distance(here) <= 1 for e in k.enemy):
                out.append(RuleViolation("6", f"{', '.join(line.units)}: {uid} is in contact with the enemy: it cannot board a "
                                              "train"))
            elif to not in geo.rail_reach(here, k.blown):
                out.append(RuleViolation("6", f"{', '.join(line.units)}: the railway from {here} does not reach {to}"))
            if info.troops != "infantry" and not geo.station(to):
                out.append(RuleViolation("6", f"{', '.join(line.units)}: {uid} has vehicles: it gets off only at a town or "
                                              f"village of the railway, not at {to}"))
    trains = scenario.trains.get(side, 0)
    if boarding > trains:
        out.append(RuleViolation("6", f"the sheet puts {boarding} unit points on trains; the {side} side has "
                                      f"trains for {trains} this turn"))
    return out


def march_line(scenario: MegaScenario, view: TeamView, team: str, line: OrderLine, *,
               rules3: bool = True) -> OrderLine | None:
    """``line`` (its units in one hex) with the route filled in: the shortest way towards its objective
    the team knows of (round the enemy it has seen, over water only where its troops may cross),
    cut to the longest part every rule of the sheet accepts [6]. None: no step of it is allowed."""
    geo = scenario.map.geo
    uid = line.units[0]
    mine = next((u for u in view.units if u.id == uid), None)
    if mine is None or not line.objective:
        return None
    via = [Hex.parse(h) for h in line.route]  # the hexes the player wrote: kept, then on from the last
    here, goal = via[-1] if via else Hex.parse(mine.hex), Hex.parse(line.objective)
    blown = frozenset(view.blown)
    enemy = {Hex.parse(e.hex) for e in view.enemy}
    troops = scenario.types[unit_def(scenario, uid).type].troops
    prev, _ = geo.ways(here, troops, blown, enemy,
                       lambda h: h == goal or (goal in enemy and goal in h.neighbours()))
    end = goal if goal in prev else min(prev, key=lambda x: (x.distance(goal), x))
    path: list[Hex] = []
    while end != here:
        path.append(end)
        step = prev[end]
        assert step is not None
        end = step
    path.reverse()
    path = via + path
    for n in range(len(path), max(len(via), 1) - 1, -1):  # the longest part every rule accepts
        tried = line.replace(route=[str(h) for h in path[:n]])
        sheet = OrderSheet(team=team, side=team_side(scenario, team), turn=view.turn, lines=[tried])
        if not validate(scenario, view, team, sheet, rules3=rules3):
            return tried
    return None


class Known(Plain, frozen=True):
    """What an order sheet is checked against: the team's own units and supply as it knows them."""

    turn: int
    units: dict[str, UnitInfo]
    prepared: frozenset[str]
    spent: frozenset[str]
    supply: int
    blown: frozenset[str]
    landed: frozenset[str] = frozenset()
    night_landed: frozenset[str] = frozenset()
    """Of ``landed``, those whose drop was by night [12]."""
    on_rail: frozenset[str] = frozenset()
    enemy: frozenset[str] = frozenset()
    """Hexes where the team knows the enemy is (in sight)."""
    friends: frozenset[str] = frozenset()
    """Hexes of the other teams of its side that the team's view shows (within
    :data:`~pbem.systems.megagame.view.FRIENDS_KM` of one of its units) [10]."""
    detraining: frozenset[str] = frozenset()
    """Infantry getting off its train this turn, half a turn (rules version 3) [6]: not in ``on_rail``."""


def known(scenario: MegaScenario, state: AnyState, team: str) -> Known:
    """The same facts from the master state (Game Control, at the reveal) or from the team's view
    (the team's pbem, before it signs)."""
    types = {u.id: scenario.types[u.type] for u in scenario.units}
    if isinstance(state, TeamView):
        units = {u.id: UnitInfo(id=u.id, troops=types[u.id].troops, armoured=types[u.id].armoured, hex=u.hex)
                 for u in state.units} if state.team == team else {}
        return Known(state.turn, units, frozenset(u.id for u in state.units if u.prepared),
                     frozenset(u.id for u in state.units if u.state == effectiveness(0)),
                     state.supply + sum(x.points for x in state.stacks),
                     frozenset(state.blown), frozenset(u.id for u in state.units if u.landed),
                     frozenset(state.night_drops),
                     frozenset(u.id for u in state.units if u.rail and not (
                         u.rail.startswith("disembarking") and types[u.id].troops == "infantry")),
                     frozenset(e.hex for e in state.enemy), frozenset(f.hex for f in state.friends),
                     detraining=frozenset(u.id for u in state.units if u.rail.startswith("disembarking")
                                          and types[u.id].troops == "infantry"))
    units = {}
    sides = {t.id: t.side for t in scenario.teams}  # team_side's answers (team ids are unique [2])
    for u in scenario.units:
        s = state.units[u.id]
        if u.team == team and s.hex is not None and not s.gone:
            units[u.id] = UnitInfo(id=u.id, troops=types[u.id].troops, armoured=types[u.id].armoured, hex=s.hex)
    return Known(state.turn, units, frozenset(k for k, s in state.units.items() if s.prepared),
                 frozenset(k for k in units if status_of(scenario, state, k) <= 0),
                 state.supply.get(team, 0) + sum(state.units[k].stock for k in units if types[k].kind == "hq"),
                 frozenset(state.blown),
                 frozenset(k for k, s in state.units.items() if s.landed), frozenset(state.night_drops),
                 frozenset(k for k, s in state.units.items() if s.rail is not None
                           and not detraining(s.rail, types[k])),
                 frozenset(s.hex for k, s in state.units.items() if s.hex and not s.gone
                           and sides[unit_def(scenario, k).team] != sides[team]),
                 frozenset(s.hex for k, s in state.units.items() if s.hex and not s.gone and k not in units
                           and unit_def(scenario, k).team != team and sides[unit_def(scenario, k).team] == sides[team]
                           and any(Hex.parse(s.hex).distance(Hex.parse(o.hex)) <= FRIENDS_KM
                                   for o in units.values())),
                 detraining=frozenset(k for k in units if detraining(state.units[k].rail, types[k])))


def night_lift(scenario: MegaScenario, team: str, k: Known, line: OrderLine) -> bool:
    """``line`` orders the drop of airborne units by night [12]: timing 'night', and every unit of
    it is one of ``team``'s units that come by parachute or glider and are not on the map yet. The
    drop is flown at the start of the next turn that has flying weather (the lift's arrival), by the
    night table; without such a line a lift drops by day."""
    return line.timing == "night" and all(
        uid in scenario.unit and scenario.unit[uid].team == team and scenario.unit[uid].by_air
        and uid not in k.units for uid in line.units)


def _night_drop_problems(scenario: MegaScenario, k: Known, line: OrderLine) -> list[RuleViolation]:
    """A drop by night [12] is a Move line of its own with nothing else on it, on the sheet of the
    turn before the lift is due (or of any turn while the weather keeps it waiting)."""
    out: list[RuleViolation] = []
    who = ", ".join(line.units)
    if line.intention != "move" or line.route or line.rail_to or line.objective or line.supply or line.air \
            or line.counter_battery or line.stand_fast:
        out.append(RuleViolation("12", f"{who}: still to drop: the drop by night is all the line may order "
                                       "('move' with timing 'night', nothing else)"))
    for uid in line.units:
        due = scenario.unit[uid].arrives
        if due > k.turn + 1:
            out.append(RuleViolation("12", f"{who}: {uid} is due on turn {due}: its drop by night goes on the "
                                           f"sheet of turn {due - 1}"))
    return out


def normalize(scenario: MegaScenario, state: AnyState, side: str, orders: OrderSheet, *,
              rules3: bool = True) -> OrderSheet:
    """A line that names an objective but no route gets one, unit by unit: the way towards the
    objective as far as this turn's move allows (:func:`march_line`), so that what is signed
    says where each unit goes [5, 6]; one with a route that stops short of its objective ('towards
    4409, via 3508 3608') goes on from its last hex the same way. A unit already next to the
    enemy it aims at keeps its line."""
    def wanted(line: OrderLine) -> bool:  # no route, or one that stops short of the objective
        return bool(line.objective) and not line.rail_to and line.intention in ATTACKING + ("move",) \
            and (not line.route or (line.objective.isdigit() and line.route[-1] != line.objective))

    if side not in {t.id for t in scenario.teams} or not any(wanted(line) for line in orders.lines):
        return orders
    view = state if isinstance(state, TeamView) else TeamView.parse(team_view(scenario, state, side, rules3=rules3))
    lines: list[OrderLine] = []
    for line in orders.lines:
        if not wanted(line):
            lines.append(line)
            continue
        where = {u.id: u.hex for u in view.units}
        if line.route:  # 'towards X, via A B': on from B towards X, when the units march together
            together = len({where.get(uid, "") for uid in line.units}) == 1
            lines.append((march_line(scenario, view, side, line, rules3=rules3) if together else None) or line)
            continue
        groups: dict[str, list[str]] = {}
        for uid in line.units:  # units in one hex share a route; others get lines of their own
            groups.setdefault(where.get(uid, ""), []).append(uid)
        for i, (_hex, uids) in enumerate(sorted(groups.items(), key=lambda g: line.units.index(g[1][0]))):
            part = line.replace(units=uids) if i == 0 else line.replace(units=uids, air=[], supply=0)  # asked for once
            routed = march_line(scenario, view, side, part, rules3=rules3) if line.objective.isdigit() else None
            lines.append(routed if routed is not None else part)
    return orders.replace(lines=lines)


def validate(scenario: MegaScenario, state: AnyState, side: str, orders: OrderSheet, *,
             rules3: bool = True) -> list[RuleViolation]:
    """The rule cases ``orders`` breaks, ``side``'s sheet for this turn [5, 6, 9, 11, 12]: whose sheet
    for which turn, then each line on its own, then the units not on the map (night drops), then
    the sheet as a whole (rail, counter-battery, movement after landing, the order sheet's checks,
    air orders); each stage only when the ones before found nothing. ``rules3`` (rules version 3): the
    bomb line, and heavy bombers given a target bomb it (:func:`_air_order_problems`)."""
    if state.over:
        return [RuleViolation("3", "the game is over")]
    teams = {t.id: t for t in scenario.teams}
    if side not in teams:
        return [RuleViolation("5", f"{side} is not a team: only teams send order sheets")]
    out = _heading_problems(scenario, state, side, teams[side].side, orders)
    if out:
        return out
    geo = scenario.map.geo
    k = known(scenario, state, side)
    out = _line_problems(scenario, k, orders)
    if out:  # the other lines are still checked, so that a sheet's every problem is told at once
        bad = {id(line) for line in orders.lines if _line_problems(scenario, k, orders, only=line)}
        orders = orders.replace(lines=[x for x in orders.lines if id(x) not in bad])
    lifts = [line for line in orders.lines if night_lift(scenario, side, k, line)]
    arrivals = _arrival_problems(scenario, k, side, orders, lifts)
    if arrivals:
        return out + arrivals
    if lifts:  # the rest of the sheet is checked as if the lifts were not on it
        orders = orders.replace(lines=[x for x in orders.lines if not any(x is y for y in lifts)])
    out += _rail_problems(scenario, k, teams[side].side, orders)
    out += _attach_problems(scenario, teams[side].side, orders, rules3=rules3)
    moves = move_table(shared_infantry_row=rules3)
    out += _landing_problems(scenario, k, orders, moves)
    out += _interdiction_problems(scenario, k, orders, rules3=rules3)

    def water(a: Hex, b: Hex) -> tuple[Any, Any]:
        c = geo.crossing(a, b, k.blown)
        return c.water, c.bridge

    cab = own_cab_rank(state, side)
    out += check_sheet(orders, k.units, ground_of=geo.ground, water_between=water,
                       prepared_last_turn=k.prepared, supply_available=k.supply, cab_rank=cab is not None,
                       moves=moves)
    return out + _air_order_problems(scenario, state, teams[side].side, k, orders, cab, rules3=rules3)


def _heading_problems(scenario: MegaScenario, state: AnyState, side: str, fights_for: str,
                      orders: OrderSheet) -> list[RuleViolation]:
    """Whose sheet, of which side, for which turn [5]."""
    out: list[RuleViolation] = []
    if orders.team != side:
        out.append(RuleViolation("5", f"the sheet is {orders.team}'s; it cannot be signed for {side}"))
    if orders.side != fights_for:
        out.append(RuleViolation("5", f"{side} fights on the {fights_for} side, not {orders.side}"))
    if orders.turn != state.turn:
        out.append(RuleViolation("5", f"the sheet is for turn {orders.turn}; this is turn {state.turn} "
                                      f"({turn_label(scenario, state.turn)})"))
    return out


def _line_problems(scenario: MegaScenario, k: Known, orders: OrderSheet,
                   only: OrderLine | None = None) -> list[RuleViolation]:
    """Each line on its own: a unit ordered twice, hexes off the map, attacks by units that draw no
    supplies, count in defence only or are spent [5, 6, 9, 11]. ``only``: the problems of that line
    alone (a unit it orders that an earlier line ordered too is its problem)."""
    geo = scenario.map.geo
    out: list[RuleViolation] = []
    ordered: set[str] = set()
    for line in orders.lines:
        if only is not None and line is not only:
            ordered.update(line.units)  # the lines after ``only`` come too late to count for it
            continue
        for uid in line.units:
            if uid in ordered:
                out.append(RuleViolation("5", f"{', '.join(line.units)}: {uid} already has orders on this sheet"))
            ordered.add(uid)
        for h in line.route:
            if Hex.parse(h) not in geo.hexes:
                out.append(RuleViolation("6", f"{', '.join(line.units)}: route hex {h} is off the map"))
        for h in line.defend:
            if not (h.isdigit() and len(h) == 4 and Hex.parse(h) in geo.hexes):
                out.append(RuleViolation("9", f"{', '.join(line.units)}: artillery defends hexes of the map, not "
                                              f"{h[:20]!r}"))
        if line.interdict and not (line.interdict.isdigit() and len(line.interdict) == 4
                                   and Hex.parse(line.interdict) in geo.hexes):
            out.append(RuleViolation("9", f"{', '.join(line.units)}: artillery interdicts a hex of the map, not "
                                          f"{line.interdict[:20]!r}"))
        if line.objective and (not line.objective.isdigit() or Hex.parse(line.objective) not in geo.hexes):
            out.append(RuleViolation("5", f"{', '.join(line.units)}: the objective must be a hex of the map, not "
                                          f"{line.objective[:40]!r}"))
        if line.intention in FIGHTING:
            where = {uid: Hex.parse(info.hex) for uid, info in k.units.items()}
            for uid in line.units:
                far = hq_out_of_reach(scenario, uid, where) if uid in k.units else None
                if far is not None:
                    out.append(RuleViolation("11", f"{', '.join(line.units)}: {uid} draws no supplies ({far.removesuffix(' [11]')}): "
                                                   "it cannot attack"))
                if uid in k.units and scenario.types[unit_def(scenario, uid).type].mode == "defence":
                    out.append(RuleViolation("9", f"{', '.join(line.units)}: {uid} counts in defence only (its status "
                                                  "profile is in round brackets): it cannot attack"))
                if uid in k.spent:
                    out.append(RuleViolation("9", f"{', '.join(line.units)}: {uid} is no longer an effective "
                                                  "fighting unit and cannot attack"))
    return out


def _arrival_problems(scenario: MegaScenario, k: Known, side: str, orders: OrderSheet,
                      lifts: list[OrderLine]) -> list[RuleViolation]:
    """Lines for units not on the map: only a drop by night, on a line of its own [5, 12]."""
    out: list[RuleViolation] = []
    arriving = {u.id: u.arrives for u in scenario.units if u.team == side and u.id not in k.units}
    for line in orders.lines:
        if any(line is x for x in lifts):
            out += _night_drop_problems(scenario, k, line)
            continue
        late = [uid for uid in line.units if uid in arriving]
        if late:
            airborne = [uid for uid in late if unit_def(scenario, uid).by_air]
            out.append(RuleViolation("5", f"{', '.join(late)}: not on the map now (due on turn "
                                          f"{arriving[late[0]]}, or lost): no orders yet"
                                     + (f" (but {airborne[0]} may be given its drop by night: a line of its own, "
                                        "'move' with timing 'night' [12])" if airborne else "")))
    return out


def _interdiction_problems(scenario: MegaScenario, k: Known, orders: OrderSheet, *,
                           rules3: bool = True) -> list[RuleViolation]:
    """Artillery on the interdiction table [9] ("Arty Bns per map square", rules version 3): only
    artillery, staying where it is, not also on counter-battery or allocated to a defence, on a hex
    within its range (its long range where it has one) [9 Supporting Artillery]."""
    out: list[RuleViolation] = []
    for line in orders.lines:
        if not line.interdict:
            continue
        who = ", ".join(line.units)
        if not rules3:
            out.append(RuleViolation("9", f"{who}: artillery fires on the interdiction table from rules version 3 "
                                          "on; this game plays version 2"))
            continue
        if line.route or line.rail_to or line.counter_battery or line.defend or line.intention in FIGHTING:
            out.append(RuleViolation("9", f"{who}: artillery interdicting a hex stays where it is and does nothing "
                                          "else that turn (no route, attack, counter-battery or defence)"))
        target = Hex.parse(line.interdict)
        for uid in line.units:
            if uid not in k.units:
                continue
            kind = scenario.types[unit_def(scenario, uid).type].artillery
            if kind is None:
                out.append(RuleViolation("9", f"{who}: only artillery fires on the interdiction table, not {uid}"))
                continue
            eff, long = ARTILLERY_RANGE_KM[kind]
            km = Hex.parse(k.units[uid].hex).distance(target)
            if km > (long or eff):
                out.append(RuleViolation("9", f"{who}: {line.interdict} is {km} km from {uid}, beyond its range of "
                                              f"{long or eff} km"))
    return out


def _landing_problems(scenario: MegaScenario, k: Known, orders: OrderSheet, moves: MoveTable) -> list[RuleViolation]:
    """Counter-battery by artillery that stays put [9]; the move of units that dropped this turn
    (movement after landing [12])."""
    geo = scenario.map.geo
    out: list[RuleViolation] = []
    half: Literal["morning", "afternoon"] = "afternoon" if turn_label(scenario, k.turn).endswith("afternoon") \
        else "morning"
    for line in orders.lines:
        if line.counter_battery:
            if line.route:
                out.append(RuleViolation("9", f"{', '.join(line.units)}: artillery on counter-battery stays for the whole turn"))
            for uid in line.units:
                if uid in k.units and scenario.types[unit_def(scenario, uid).type].artillery is None:
                    out.append(RuleViolation("9", f"{', '.join(line.units)}: only artillery fires counter-battery, not {uid}"))
        if line.defend:  # allocated to the defence [9 Supporting Artillery]
            if line.counter_battery:
                out.append(RuleViolation("9", f"{', '.join(line.units)}: artillery on counter-battery is given to it for "
                                              "the whole turn: it cannot be allocated to a defence too"))
            for uid in line.units:
                if uid in k.units and scenario.types[unit_def(scenario, uid).type].artillery is None:
                    out.append(RuleViolation("9", f"{', '.join(line.units)}: only artillery is allocated to a defence, "
                                                  f"not {uid}"))
        if not line.route:
            continue
        out += _detraining_problems(scenario, k, line, moves)
        for uid in line.units:
            if uid not in k.landed or uid not in k.units:
                continue
            share = movement_after_landing(half, uid in k.night_landed)  # by the drop's time [12]
            info = k.units[uid]
            if share == 0:
                out.append(RuleViolation("12", f"{', '.join(line.units)}: {uid} dropped this {half}"
                                               f"{' by night' if uid in k.night_landed else ''}: no movement in "
                                               "the turn of the drop (movement after landing)"))
                continue
            full = max_move_km(info.troops, geo.ground(Hex.parse(info.hex)), posture_of(line),
                               night=line.timing == "night", moves=moves)
            if full is not None and len(line.route) > full * share:
                out.append(RuleViolation("12", f"{', '.join(line.units)}: {uid} dropped this {half}: at most {km_text(full * share)} "
                                               f"km in the turn of the drop, the route is {len(line.route)} km"))
    return out


def _attach_problems(scenario: MegaScenario, side: str, orders: OrderSheet, *, rules3: bool) -> list[RuleViolation]:
    """Attaching to another division [9 timings] (rules version 3): to a division of the side's own
    forces, as the scenario names them (a unit's ``division``, else its ``formation``)."""
    out: list[RuleViolation] = []
    divisions = {u.division or u.formation for u in scenario.units if team_side(scenario, u.team) == side}
    for line in orders.lines:
        if not line.attach:
            continue
        if not rules3:
            out.append(RuleViolation("9", f"{', '.join(line.units)}: attaching to another division is not in this "
                                          "game's rules version"))
        elif line.attach not in divisions:
            out.append(RuleViolation("9", f"{', '.join(line.units)}: no division {line.attach[:60]!r} on our side "
                                          f"(one of: {', '.join(sorted(divisions))})"))
    return out


def _detraining_problems(scenario: MegaScenario, k: Known, line: OrderLine, moves: MoveTable) -> list[RuleViolation]:
    """Infantry getting off its train (rules version 3) [6]: "It takes half a turn to disembark an
    infantry unit": the half turn left, at most half its move, and no rail journey on top."""
    geo = scenario.map.geo
    out: list[RuleViolation] = []
    for uid in line.units:
        info = k.units.get(uid)
        if uid not in k.detraining or info is None:
            continue
        full = max_move_km(info.troops, geo.ground(Hex.parse(info.hex)), posture_of(line),
                           night=line.timing == "night", moves=moves)
        if full is not None and len(line.route) > full / 2:
            out.append(RuleViolation("6", f"{', '.join(line.units)}: {uid} takes half a turn to get off its train: "
                                          f"at most {km_text(full / 2)} km this turn, the route is {len(line.route)} km"))
    return out


BOMB_LINE_KM = 2
"""[12c] "The bomb line is normally at least 2 km from the nearest friendly troops": a bombing
target closer than this to a friendly unit is refused (rules version 3; reading: "normally" is
the rule the engine keeps, Game Control has no exception to grant)."""


def _bomb_line(k: Known, a: AirRequest) -> list[RuleViolation]:
    """The bomb line [12c]: ``a`` (a bombing order) refused if friendly troops are within
    :data:`BOMB_LINE_KM` of its target, else nothing."""
    target = Hex.parse(a.target)
    near = sorted((target.distance(Hex.parse(h)), h) for h in (*(u.hex for u in k.units.values()), *k.friends)
                  if target.distance(Hex.parse(h)) < BOMB_LINE_KM)
    if not near:
        return []
    km, h = near[0]
    return [RuleViolation("12", f"air orders: {a.mission} of {a.target} is {km} km from friendly troops at {h}; "
                                f"the bomb line is at least {BOMB_LINE_KM} km from them")]


def _air_order_problems(scenario: MegaScenario, state: AnyState, fights_for: str, k: Known,
                        orders: OrderSheet, cab: CabRank | None, *, rules3: bool = True) -> list[RuleViolation]:
    """The air orders against the squadrons that can fly [9, 12]: a cab rank (the Allies' only,
    less the team's rank still on call), targets on the map, no more than fly of each kind; rules
    version 3 (``rules3``): heavy bombers given a target bomb it [9], and no bombing within 2 km of
    friendly troops, the bomb line [12c] (the team's own units and the other teams' its view shows:
    the team's pbem and Game Control's check the same sheet alike)."""
    geo = scenario.map.geo
    out: list[RuleViolation] = []
    ranks = sum(a.squadrons for a in orders.air_orders if a.mission == "cab-rank")
    if ranks and fights_for != "allied":
        out.append(RuleViolation("9", "air orders: a cab rank is for the Allies"))
    elif ranks and scenario.air:
        europe = cab_rank_squadrons(scenario, fights_for, k.turn, state.air_lost) - (cab.squadrons if cab else 0)
        if ranks > europe:
            busy = f" (your cab rank of the turn before keeps {cab.squadrons} in the air)" if cab else ""
            out.append(RuleViolation("9", f"air orders: a cab rank of {ranks} squadrons asked for; "
                                          f"{max(europe, 0)} Europe-based ground attack squadrons can fly it "
                                          f"on {turn_label(scenario, k.turn)}{busy}"))
    if orders.air_orders and not scenario.air:
        out.append(RuleViolation("12", "air orders: this scenario has no air forces (its scenario file lists "
                                       "no squadrons), so nothing would fly"))
    if scenario.air:
        wanted: dict[tuple[str, ...], int] = {}
        for a in orders.air_orders:
            roles = MISSION_ROLES[a.mission]
            wanted[roles] = wanted.get(roles, 0) + a.squadrons
            if (a.mission in ("bombing", "recce", "transport") or is_strike(a, rules3=rules3)) and not (
                    a.target.isdigit() and len(a.target) == 4 and Hex.parse(a.target) in geo.hexes):
                out.append(RuleViolation("12", f"air orders: {a.mission} needs a target hex of the map, "
                                               f"not {a.target[:40]!r}"))
            elif rules3 and is_strike(a, rules3=rules3):
                out += _bomb_line(k, a)
        pools = air_pools(scenario, fights_for, k.turn, state.air_lost)
        if cab is not None:  # the team's cab rank of the turn before is still in the air [9]
            pools[MISSION_ROLES["cab-rank"]] -= cab.squadrons
        for roles, n in sorted(wanted.items()):
            if n > pools[roles]:
                busy = (f" (your cab rank keeps {cab.squadrons} in the air)"
                        if cab is not None and roles == MISSION_ROLES["cab-rank"] else "")
                out.append(RuleViolation("12", f"air orders: {n} squadron{'s' if n != 1 else ''} of "
                                               f"{' or '.join(roles)} asked for; {max(pools[roles], 0)} can fly "
                                               f"on {turn_label(scenario, k.turn)}{busy}"))
    return out
