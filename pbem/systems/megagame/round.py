"""A megagame turn adjudicated: :func:`resolve_round`.

One turn (half a day [3]) is one sealed round of the engine (:mod:`pbem.engine.sealed`): every team
commits its order sheet [5], Game Control signs its rulings (groupings of combat and clear tactical
advantages [9]), every team reveals, and :meth:`MegagameRules.resolve_round` adjudicates it all at
once, in this order:

1. **Air** [9, 12]: each side's squadrons fly its teams' air orders while they last (weather and
   the squadrons lost in earlier air combats count); the fighters of both sides meet first, the
   side with more squadrons attacking on the fighter table, and squadrons shot down are lost for
   good, each side told of light or heavy losses; bombing interdicts the units in its target hex;
   recce reports to the team that flew it (rules version 3: over its air zone, after the
   movement); transports drop supplies by the ready reckoner. Rules version 3: artillery given
   ``interdict`` shells its hex on the interdiction table [9].
2. **Movement** [6, 7], all units together a kilometre (one hex) at a time: a unit stops where its
   route ends, in front of an enemy-held hex, when it comes into contact (an enemy adjacent), and --
   unless it is attacking -- when an enemy is within the passing distance (2 km, 1 km in close
   country or at night) [6]; a unit in contact moves only to break contact ("no rubbing past") [6];
   water off a bridge only for troops that may cross it [6]; every bridge passes at most its
   capacity in unit points a turn (two phases), the rest wait on the near bank [7]; a unit pinned
   down from the air does not move [9]; rail moves board, travel and get off turn by turn [6].
   Rules version 3: an HQ left without orders moves up behind its units (:func:`hqs_follow`) [11].
3. **Combat** [9]: the engine proposes a grouping -- each unit with Attack or Breakthrough orders
   that is in contact, paid for (1 supply point a unit) and has not moved more than half its move
   [6], attacks the adjacent enemy hex nearest its objective (a Probe stops in contact and does
   not attack [5]); every such unit against one hex is one combat -- and Game Control's
   signed grouping replaces it where it gives one. Artillery that did not move (version 3: or that
   stopped before the attack went in, in proportion to the turn it did not spend moving) supports
   the first combat of its side within range (1 supply point) -- in defence only artillery
   allocated to the defence of that hex (rules version 3) [9]; close air support by squadrons [9, 12];
   prepared attacks, stand fast, city areas, close country and every factor of
   :mod:`pbem.systems.megagame.combat`. Defenders retire the distance the result gives, away from
   the attackers (version 3: straight back); attackers badly beaten fall back 1 km (version 3: to
   their start line, at least 1 km); a vacated hex is taken by the attacker; a unit with no status
   left that cannot retire is captured (version 3: one that can retires without a fight) [9]; a unit
   routed by a Total Success attacks no more the next turn (version 3). Armour with Breakthrough orders
   that overruns drives on through the beaten enemy and, after a Total Success or a Success, makes
   an unprepared further attack on more enemy it meets [results table]. A bridge fought over blows
   on a 1 [8] (version 3: not once it has failed a test and an Allied unit has passed over it).
   Counter-battery fire follows [9].
4. **Supply** [9, 11]: attacks and artillery cost 1 point a unit, mechanised units 1 fuel point a
   turn they move or fight; losers of a Limited Success or a Success lose 1 point a unit, of a
   Total Success 2; a dump that moved leaves its stock parked where it stood, transport units load
   parked counters and unload them at a dump or HQ of their team, and every dump that stood still
   delivers up to its lift to the HQs in its reach (version 3: into the stacks of HQs of its
   nation, each up to its lift); each team then receives its turn's supply.
5. **Arrivals** [6, 12] at the start of the next turn: reinforcements, and airborne lifts by the
   day or (ordered so) the night drop table, when the weather lets them fly.
6. **Reports** [10]: the facts each team's report is written from (its units' fights, the enemy in
   contact, the supply used); :meth:`MegagameRules.view` puts them into words.

What the text leaves to the scenario (victory) is the scenario's, reconstructed and said so there.
A cab rank (Allied, Europe-based squadrons) is on call for its team the turn it is ordered and
the next, two squadrons giving one squadron's worth of support to every combat of the team, attack
(prepared or not, without asking) or defence [9]; pre-planned close air support and heavy bombers
are asked for on the lines of prepared attacks and counted as far as they flew.
Rest [5]: a unit that rests (posture rest, no move, no fight) out of contact for four turns in a
row gets a step back; caught resting it fights as non-tactical (rules version 2; version 3 takes the
-2 off units that moved non-tactically only).
Flak [13]: every enemy flak unit within 4 km of a drop or an air resupply fires on each serial
(a unit dropping; a squadron of supplies) on the flak table: a loss costs the dropping unit a
status, damage hits the transports (two damage a squadron lost for good).
Fighters on air cover that hold the sky (unopposed, or winning the air combat) put one of the
other side's transport serials out of action a squadron: an airborne unit comes a turn later, a
squadron of supplies is turned back [12].
Bombing [9] strikes the enemy in the target hex before movement and every enemy unit that passes
through it during the turn. Heavy bombers fly in support of attacks; given a target hex they bomb
it on their own column of the interdiction table (rules version 3).
Supplies (rules version 3) [11]: held per HQ stack, up to the HQ's lift, and by nation; a unit
draws on its HQ's stack within 5 km, a unit without an HQ on its team's supplies (version 2: one
pool a team for every unit). Trains (version 3) [6]: infantry gets off in half a turn and has the
other half. Attaching a battalion to another division takes the turn (version 3) [9 timings].
Not built: flak on overflights and fighters against bombers (no fly-in routes) [12, 13].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.engine.ruleset import JSON, Dice, Resolution
from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.systems.megagame.air import air_phase, airborne_drop, fighter_losses, flying, recce_phase
from pbem.systems.megagame.battle import (
    artillery_interdiction,
    combat_phase,
    counter_battery_fire,
    may_attack,
    propose,
)
from pbem.systems.megagame.board import ATTACKING, AnyState, Board, BoardUnit, detraining, team_side
from pbem.systems.megagame.model import (
    Geo,
    MegaRulings,
    MegaScenario,
    MegaState,
    ParkedSupply,
    RailTrip,
    UnitFacts,
    UnitState,
    UnitType,
)
from pbem.systems.megagame.movement import (
    CAPACITY,
    MoveTable,
    Troops,
    max_move_km,
    may_cross,
    passing_distance_km,
)
from pbem.systems.megagame.orders import OrderLine, OrderSheet
from pbem.systems.megagame.report import losses_words
from pbem.systems.megagame.supply import HQ_REACH_KM
from pbem.systems.megagame.tables import interdiction

BRIDGE_POINTS = {"heavy": CAPACITY["main road bridge"][1], "light": CAPACITY["light military bridge"][1]}
"""Unit points a phase over a bridge of each class [7] (a turn has two phases)."""

REST_TURNS = 4
"""Half-day turns of rest in a row, out of contact, that give back one step [5]: the text's "several
days before any improvement is felt", read as two days (RECONSTRUCTED reading)."""


def resolve_round(scenario: MegaScenario, state: AnyState, orders: dict[str, OrderSheet],
                  dice: Dice, rulings: JSON = None, *, tell_losses: bool = True, rules3: bool = True) -> Resolution:
    """The turn's sealed orders and Game Control's rulings adjudicated together, phase by phase
    (the module docstring). ``tell_losses`` (rules version 3): each unit's report states the losses
    it took this turn and what they did to its effectiveness, a unit pinned down passing a bombed
    point hears of its losses, and a unit stopped before its first kilometre hears that it stayed
    (version 2 said "moved 0 km") [10]. ``rules3``: rules version 3's ground rules (:attr:`Board.rules3`)."""
    if not isinstance(state, MegaState):
        raise InputError("only Game Control, holding the master map, adjudicates a turn [2]")
    ruled = MegaRulings.parse(rulings or {})
    board = Board(scenario, state, rules3=rules3)
    events: list[JSON] = []
    for _team, sheet in sorted(orders.items()):
        for line in sheet.lines:
            for uid in line.units:
                u = board.units[uid]
                if u.rail is not None and not (rules3 and detraining(u.rail, u.t)):
                    continue  # on the railway: no orders [6] (version 3: infantry getting off has half a turn)
                if line.rail_to:  # boarding a train: a turn, two with vehicles [6]
                    u.rail = RailTrip(to=line.rail_to, phase="embarking",
                                      left=1 if u.t.troops == "infantry" else 2)
                    u.events.append(f"began boarding a train for {board.geo.near(Hex.parse(line.rail_to))}")
                    continue
                if u.hex is None and not u.gone and u.d.by_air and line.timing == "night":
                    board.night_lift.add(uid)  # its drop, by night [12]
                    continue
                u.line = line
    if rules3:
        events += hqs_follow(board, _dropped(state))  # [11] Game Control's assumption for an HQ left without orders
    if ruled.groupings or ruled.advantage:
        events.append({"kind": "rulings", **ruled.to_json()})
    blown = set(state.blown)
    intel: dict[str, list[str]] = {}
    events += air_phase(scenario, state.turn, board, orders, dice, intel)
    events += artillery_interdiction(board, dice, intel)  # rules version 3 [9]
    events += _movement(board, dice, tell_losses=tell_losses)
    events += recce_phase(board, dice, intel)  # rules version 3: over the moves it watches [12d]
    events += combat_phase(board, ruled, dice, blown)
    events += counter_battery_fire(board, dice)
    _supply_and_contact(board, scenario)
    new = _next_state(scenario, state, board, blown, dice, events, tell_losses=tell_losses)
    if intel:
        new = new.replace(intel=intel)
    return Resolution(new, events)


def _dropped(state: MegaState) -> frozenset[str]:
    """Units that dropped at the start of this turn: their move is the table's [12]."""
    return frozenset(k for k, s in state.units.items() if s.landed)


def hqs_follow(board: Board, dropped: frozenset[str] = frozenset()) -> list[JSON]:
    """[11] "In normal circumstances Game Control should assume the HQ unit follows the main units
    during an advance and positions itself appropriately to be able to supply its sub units -- even
    if players forget to issue specific orders for the HQ." Rules version 3 gives each HQ on the map
    that has no line of its own this turn, is not in contact with the enemy and has units (those
    that name it their HQ) ordered to move, attack or break through along a route, the line Game
    Control assumes: a tactical move towards where its main units go -- the last hex of the route
    most of them share (a tie: the route of the first of them by id) -- along the
    shortest way its troops may go (round the enemy, over water only where they may cross), no
    farther than the first hex within 5 km of that hex (:data:`HQ_REACH_KM`: from there it supplies
    them) and no farther than its move on its ground [6]. It moves with everyone else, one kilometre
    at a time, and stops short of the enemy as any unit that is not attacking does [6]. An HQ
    already within 5 km of that hex stays; so does one that is pinned down, on a train or in the
    turn of its drop (``dropped``: movement after landing is the drop's [12]). Version 2 left an HQ
    without orders where it stood."""
    geo = board.geo
    events: list[JSON] = []
    for hq in sorted(board.units.values(), key=lambda x: x.d.id):
        if (hq.t.kind != "hq" or not hq.on_map or hq.hex is None or hq.line is not None or hq.rail is not None
                or hq.immobilised or hq.d.id in dropped or hq.status <= 0):
            continue
        if board.enemies_near(hq.hex, hq.side, 1):
            continue  # in contact: not the "normal circumstances" of an advance
        going = sorted((u for u in board.units.values() if u.d.hq == hq.d.id and u.on_map and u.line is not None
                        and u.line.route and u.line.intention in ("move", *ATTACKING)), key=lambda x: x.d.id)
        enemy = frozenset(x.hex for x in board.units.values() if x.side != hq.side and x.on_map and x.hex is not None)
        route, goal, followed = hq_follow_route(geo, hq.hex, hq.t.troops, [list(u.line.route) for u in going if u.line],
                                                enemy, frozenset(board.blown), board.moves)
        if not route or goal is None:
            continue
        hq.line = OrderLine(units=[hq.d.id], intention="move", route=[str(h) for h in route])
        text = (f"had no orders: Game Control moved it up behind its units ({followed} going to "
                f"{geo.near(goal)}) to supply them [11]")
        hq.events.append(text)
        events.append({"kind": "note", "text": f"{hq.d.id} {text}"})
    return events


def hq_follow_route(geo: Geo, start: Hex, troops: Troops, routes: Sequence[Sequence[str]], enemy: frozenset[Hex],
                    blown: frozenset[str], moves: MoveTable) -> tuple[list[Hex], Hex | None, int]:
    """Where an HQ without orders goes behind its units [11] (:func:`hqs_follow`; the preview of a
    team's sheet asks the same of its view): ``routes``, the routes of its units going this turn, by
    unit id. Returns the HQ's route ([] when it stays), the hex its main units go to -- the last of
    the route most of them share, a tie the first's -- and how many of them share it. The way is
    the shortest (breadth first, neighbours in their fixed order) over the map, through no hex of
    ``enemy``, over water only where its troops may cross [6], to the first hex within
    :data:`HQ_REACH_KM` of that hex, cut to the HQ's tactical move on its ground [6]."""
    if not routes:
        return [], None, 0
    keys = [tuple(r) for r in routes]
    main = max(keys, key=lambda k: (keys.count(k), -keys.index(k)))
    goal = Hex.parse(main[-1])
    full = max_move_km(troops, geo.ground(start), "tactical", moves=moves)
    if start.distance(goal) <= HQ_REACH_KM or not full:
        return [], goal, keys.count(main)
    prev, end = geo.ways(start, troops, blown, enemy, lambda h: h.distance(goal) <= HQ_REACH_KM)
    path: list[Hex] = []
    while end is not None and end != start:
        path.append(end)
        end = prev[end]
    return path[::-1][:int(full)], goal, keys.count(main)


def _movement(board: Board, board_dice: Dice | None = None, *, tell_losses: bool = True) -> list[JSON]:
    """Every route, one kilometre at a time for all units together [6, 7]; a unit passing through a
    hex bombed this turn meets the strike (``board_dice``: the turn's dice; none in the engine's
    dry runs for Game Control, where nothing is bombed yet) [9]. ``tell_losses``: the words of the
    units' reports of rules version 3 (:func:`resolve_round`)."""
    geo = board.geo
    events_out: list[JSON] = []
    told: dict[str, str] = {}  # what a unit's report says of its stop, where not the log's reason
    movers = sorted((u for u in board.units.values() if u.on_map and u.line and u.line.route
                     and not u.immobilised), key=lambda u: u.d.id)
    paths: dict[str, list[str]] = {u.d.id: [str(u.hex)] for u in movers}
    stops: dict[str, str] = {}
    used: dict[str, int] = {}
    longest = max((len(u.line.route) for u in movers if u.line), default=0)
    for k in range(longest):
        for u in movers:
            assert u.line is not None and u.hex is not None
            uid = u.d.id
            if uid in stops or k >= len(u.line.route):
                continue
            here, nxt = u.hex, Hex.parse(u.line.route[k])
            night = u.line.timing == "night"
            if board.enemy_held(nxt, u.side):
                stops[uid] = f"the enemy holds {nxt} [6]"
                continue
            in_contact = board.enemies_near(here, u.side, 1)
            if in_contact and board.enemies_near(nxt, u.side, 1):
                stops[uid] = "in contact with the enemy: it must break contact before moving on [6]"
                continue
            c = geo.crossing(here, nxt, board.blown)
            if c.water != "none" and not may_cross(u.t.troops, c.water, c.bridge):
                stops[uid] = f"it cannot cross the {c.water} at {here}/{nxt} [6]"
                continue
            if c.bridge != "none":
                cap = 2 * board.capacity.get(c.bridge_name, BRIDGE_POINTS[c.bridge])
                if used.get(c.bridge_name, 0) + u.t.size > cap:
                    stops[uid] = f"the {c.bridge_name or 'bridge'} is full this turn: it waits [7]"
                    continue
                used[c.bridge_name] = used.get(c.bridge_name, 0) + u.t.size
            choke = board.chokes.get(nxt)
            if choke is not None:  # a choke point off the bridges: its capacity twice a turn [7]
                key = f"choke {nxt}"
                if used.get(key, 0) + u.t.size > 2 * choke.capacity:
                    stops[uid] = f"the way into {choke.name} ({choke.what}) is full this turn: it waits [7]"
                    continue
                used[key] = used.get(key, 0) + u.t.size
            board.move(u, nxt)
            u.km += 1
            paths[uid].append(str(nxt))
            strike = board.interdicted.get(nxt)
            if strike is not None and strike[0] != u.side and board_dice is not None:  # a bombed point [9]
                die = board_dice.d6(f"9 interdiction {nxt} {uid} passing")
                result = interdiction(strike[1], strike[2], die)
                events_out.append({"kind": "interdiction-passing", "unit": uid, "at": str(nxt), "die": die,
                                   "result": result})
                if result != "no effect":
                    # what struck the hex is named [10]: air power, artillery (megagame/3's
                    # 'interdict HEX'), or both; air alone reads as it always did
                    by = board.interdicted_by.get(nxt, {"air"})
                    u.immobilised = True
                    u.pinned_by = "from the air" if "air" in by else "by artillery fire"
                    u.enemy_air = u.enemy_air or "air" in by
                    if "artillery" in by:
                        u.enemy_artillery = True
                    met = {frozenset({"air"}): "attacked from the air",
                           frozenset({"artillery"}): "came under artillery fire",
                           }.get(frozenset(by), "attacked from the air and under artillery fire")
                    if result.startswith("step loss"):
                        u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
                        told[uid] = f"{met} passing {nxt}: losses, and pinned down"
                    stops[uid] = f"{met} passing {nxt}: pinned down [9]"
                    continue
            if board.enemies_near(nxt, u.side, 1):
                stops[uid] = f"in contact with the enemy on reaching {nxt} [6]"
            elif u.line.intention not in ATTACKING:
                reach = passing_distance_km(woods_or_night=night or geo.close(nxt))
                if board.enemies_near(nxt, u.side, reach):
                    stops[uid] = f"enemy within {reach} km: it stops short [6]"
    events: list[JSON] = []
    for u in movers:
        path = paths[u.d.id]
        if len(path) > 1 or u.d.id in stops:
            ev: dict[str, Any] = {"kind": "moved", "unit": u.d.id, "path": path}
            if u.d.id in stops:
                ev["stop"] = stops[u.d.id]
            events.append(ev)
            why = _words(stops[u.d.id]) if u.d.id in stops else ""
            if not tell_losses:  # rules version 2
                u.events.append(f"moved {len(path) - 1} km to {geo.near(Hex.parse(path[-1]))}"
                                + (f" and stopped: {why}" if why else ""))
            elif len(path) == 1:  # stopped before its first kilometre: it stayed [10 Location]
                u.events.append(f"stayed at {geo.near(Hex.parse(path[0]))}: {told.get(u.d.id, why)}")
            else:
                u.events.append(f"moved {len(path) - 1} km to {geo.near(Hex.parse(path[-1]))}"
                                + (f" and stopped: {told.get(u.d.id, why)}" if why else ""))
    return events + events_out


def _words(text: str) -> str:
    """A reason without its rule reference, for a team's report."""
    return text.split(" [")[0]


def proposal(scenario: MegaScenario, state: AnyState, orders: dict[str, OrderSheet], *,
             rules3: bool = True) -> list[tuple[str, list[str], list[str]]]:
    """The combats the engine would propose after this turn's movement, for Game Control before it
    rules [9]: (hex, attackers, defenders). Movement rolls no die; air interdiction, which does, is
    left out (a pinned-down unit may not reach its fight)."""
    if not isinstance(state, MegaState):
        raise InputError("only Game Control, holding the master map, sees the proposal [9]")
    board = Board(scenario, state, rules3=rules3)
    for sheet in orders.values():
        for line in sheet.lines:
            for uid in line.units:
                if uid in board.units:
                    board.units[uid].line = line
    if rules3:
        hqs_follow(board, _dropped(state))
    _movement(board)
    out = []
    for at, attackers in sorted(propose(board).items()):
        side = board.units[attackers[0]].side
        defenders = [u.d.id for u in board.at(at) if u.side != side]
        out.append((str(at), attackers, defenders))
    return out


def ruling_warnings(scenario: MegaScenario, state: AnyState, orders: dict[str, OrderSheet],
                    rulings: JSON, *, rules3: bool = True) -> list[str]:
    """What in Game Control's rulings will not apply as the orders stand (no die is rolled: air
    interdiction is left out) -- told before the ruling is signed, not after [9]: a grouped unit
    that cannot attack that hex this turn, an advantage where no combat is proposed or grouped."""
    if not rulings or not isinstance(state, MegaState):
        return []
    ruled = MegaRulings.parse(rulings)
    board = Board(scenario, state, rules3=rules3)
    for sheet in orders.values():
        for line in sheet.lines:
            for uid in line.units:
                if uid in board.units and board.units[uid].rail is None and not line.rail_to:
                    board.units[uid].line = line
    if rules3:
        hqs_follow(board, _dropped(state))
    _movement(board)
    proposed = propose(board)
    fights = {str(h) for h in proposed} | {g.at for g in ruled.groupings}
    out = []
    off = sorted({h for h in [*(g.at for g in ruled.groupings), *(a.at for a in ruled.advantage)]
                  if Hex.parse(h) not in board.geo.hexes})
    for h in off:  # a mistyped hex: the ruling there does nothing
        out.append(f"{h} is not a hex of the map: the grouping or advantage ruled there will do nothing [9]")
    for g in ruled.groupings:
        if g.at in off:
            continue
        at = Hex.parse(g.at)
        left = 0
        for uid in g.attackers:
            u = board.units[uid]
            if not (may_attack(board, u) and u.hex is not None and u.hex.distance(at) == 1
                    and board.enemy_held(at, u.side)):
                left += 1
                out.append(f"{uid} cannot attack {g.at} this turn as the orders stand (no Attack or "
                           "Breakthrough order, not next to an enemy there after moving, or no status left): "
                           "it will be left out [9]")
        engine = proposed.get(at, [])
        if left == len(g.attackers) and engine:
            # a grouping replaces the engine's for its hex: with no attacker left, no combat there
            out.append(f"the grouping at {g.at} replaces the engine's ({', '.join(engine)}) and leaves no "
                       "attacker: there will be no combat there [9]")
    for a in ruled.advantage:
        if a.at not in fights and a.at not in off:
            out.append(f"no combat is proposed or grouped at {a.at}: the advantage there will not count [9]")
    return out


TRANSPORT_LIFT: dict[str, int] = {"horse-drawn": 4}
"""Supply points a supply transport unit carries [11b], by its troops; 10 for lorries (Annex A: the
RASC company's and the supply unit's logistics lift of 10, the Fahrkolonne's 4 as read in
scenarios/megagame-profiles.json; the scenario's unit types do not carry the lift)."""
LORRY_LIFT = 10


def is_transport(t: UnitType) -> bool:
    """A supply transport unit [11b] (a RASC company, a Kolonne): a unit of kind "other" that is
    not a dump (reading: the scenario's unit types mark dumps, not transports)."""
    return t.kind == "other" and not t.dump


def _park(board: Board, team: str, at: Hex, points: int, left_by: str = "", nation: str = "") -> None:
    for i, p in enumerate(board.parked):
        if p.team == team and p.hex == str(at) and p.nation == nation:
            board.parked[i] = p.replace(points=p.points + points)
            return
    board.parked.append(ParkedSupply(team=team, hex=str(at), points=points, left_by=left_by, nation=nation))


def _theirs(board: Board, p: ParkedSupply, u: BoardUnit) -> bool:
    """Parked counters ``p`` are for unit ``u`` to take up: its team's and, in rules version 3, its
    nation's (counters parked with no nation, version 2's, are any nation's) [11]."""
    return p.team == u.d.team and (not board.rules3 or not p.nation or p.nation == board.nation(u))


def _parked_here(board: Board, u: BoardUnit, at: Hex) -> ParkedSupply | None:
    return next((p for p in board.parked if p.hex == str(at) and _theirs(board, p, u)), None)


def _take_parked(board: Board, p: ParkedSupply, points: int) -> None:
    board.parked.remove(p)
    if p.points > points:
        board.parked.append(p.replace(points=p.points - points))


def _supply_moves(board: Board) -> None:
    """Moving a supply dump [11]: a dump ordered to a new place goes there without its supply
    counters, which stay parked where it stood; they deliver nothing until they reach a dump (or an
    HQ) again, carried by the supply transport units "in the normal way": a transport unit standing
    at the end of the turn where its team's supplies are parked loads what it can carry
    (:data:`TRANSPORT_LIFT`), and one standing with a load where a dump of its team is unloads into
    the dump's stock -- or, where an HQ of its team is and no dump, into the supplies held at the
    HQs [11b]. Counters parked where a dump of their team stands join its stock again; counters in
    a hex the enemy holds alone are lost to it (reading: the text leaves a captured stack to Game
    Control), as is the load of a transport that is captured or broken up."""
    geo = board.geo
    units = sorted(board.units.values(), key=lambda x: x.d.id)
    for u in units:  # the dump counter goes alone [11]
        start = board.start.get(u.d.id)
        if u.t.dump and u.on_map and u.km and u.stock > 0 and start is not None and start != u.hex:
            _park(board, u.d.team, start, u.stock, u.d.id, board.nation(u) if board.rules3 else "")
            u.events.append(f"moved without its supply counters: {u.stock} supply points left parked at "
                            f"{geo.near(start)} for the transport units to bring on")
            u.stock = 0
    for p in list(board.parked):
        at = Hex.parse(p.hex)
        here = board.at(at)
        if here and all(x.side != team_side(board.sc, p.team) for x in here):
            board.parked.remove(p)  # the enemy holds the hex alone: the counters are lost
            continue
        dump = next((x for x in here if x.t.dump and _theirs(board, p, x)), None)
        if dump is not None:
            board.parked.remove(p)
            dump.stock += p.points
            dump.events.append(f"has its {p.points} parked supply points back in its stock")
    for u in units:
        if not is_transport(u.t):
            continue
        load = board.loads.pop(u.d.id, 0)
        if not u.on_map or u.status <= 0 or u.hex is None:
            continue  # captured, broken up or not on the map: its load is lost with it
        if load:
            ours = [x for x in board.at(u.hex) if x.d.team == u.d.team
                    and (not board.rules3 or board.nation(x) == board.nation(u))]  # version 3: its nation's [11]
            dump = next((x for x in ours if x.t.dump), None)
            hq = next((x for x in ours if x.t.kind == "hq"), None)
            if dump is not None:
                dump.stock += load
                u.events.append(f"unloaded {load} supply points into {dump.d.name}")
                load = 0
            elif hq is not None and board.rules3:  # into the HQ's stack, as far as it has room [11]
                given = sum(n for _, n in board.fill([hq], load, u.hex))
                if given:
                    u.events.append(f"unloaded {given} supply points at {hq.d.name}")
                if given < load:
                    u.events.append(f"kept {load - given} supply points loaded: {hq.d.name} can carry no more")
                load -= given
            elif hq is not None:
                board.supply[u.d.team] = board.supply.get(u.d.team, 0) + load
                u.events.append(f"unloaded {load} supply points at {hq.d.name}")
                load = 0
        stack = _parked_here(board, u, u.hex)
        room = TRANSPORT_LIFT.get(u.t.troops, LORRY_LIFT) - load
        if stack is not None and room > 0:
            taken = min(room, stack.points)
            _take_parked(board, stack, taken)
            load += taken
            u.events.append(f"loaded {taken} parked supply points at {geo.near(u.hex)}")
        if load:
            board.loads[u.d.id] = load
    board.parked.sort(key=lambda x: (x.team, x.hex, x.nation))


def _deliveries(board: Board) -> None:
    """Each divisional dump on the map that did not move this turn delivers up to its lift to its
    team's HQs, if one is within its reach (about 10 km) [11]; a dump on the move delivers nothing
    (the lorries are on the road), and what it held stays behind (:func:`_supply_moves`). What is
    delivered joins the team's supplies held at its HQs. A dump with nothing in stock says where its
    parked supplies wait."""
    _supply_moves(board)
    for u in sorted(board.units.values(), key=lambda x: x.d.id):
        if not u.t.dump or not u.on_map or u.hex is None:
            continue
        if u.km:
            u.events.append("was on the move: it delivered nothing this turn")
            continue
        if u.stock <= 0:
            waiting = [p for p in board.parked if p.left_by == u.d.id]
            if waiting:
                u.events.append("has no supplies: " + ", ".join(
                    f"{p.points} points wait parked at {board.geo.near(Hex.parse(p.hex))}" for p in waiting))
            continue
        hqs = [h for h in board.units.values() if h.d.team == u.d.team and h.t.kind == "hq" and h.on_map
               and h.hex is not None and h.hex.distance(u.hex) <= u.d.reach_km
               and (not board.rules3 or board.nation(h) == board.nation(u))]  # version 3: its nation's [11]
        if not hqs:
            u.events.append(f"no HQ of ours{' using its supplies' if board.rules3 else ''} within "
                            f"{u.d.reach_km} km: it delivered nothing")
            continue
        given = min(u.d.lift, u.stock)
        if board.rules3:  # into the HQs' stacks, nearest first, each as far as it has room [11]
            filled = board.fill(hqs, given, u.hex)
            given = sum(n for _, n in filled)
            u.stock -= given
            u.events.append(f"delivered {given} supply points to " + ", ".join(
                f"{h.d.name} ({n})" for h, n in filled) + f" ({u.stock} left)" if filled else
                "delivered nothing: the HQs in its reach can carry no more")
            continue
        u.stock -= given
        board.supply[u.d.team] = board.supply.get(u.d.team, 0) + given
        u.events.append(f"delivered {given} supply points to the HQs ({u.stock} left)")


def _rail_turn(board: Board, u: BoardUnit, events: list[JSON]) -> str:
    """One turn of a rail move [6]: boarding counts down; the turn of travel ends where the unit
    gets off (as far as the network still goes, out of the enemy's hands -- else it stays where it
    is); getting off takes a turn with vehicles. Returns the unit's hex after the turn."""
    trip = u.rail
    assert trip is not None and u.hex is not None
    left = trip.left - 1
    if trip.phase == "embarking":
        u.rail = RailTrip(to=trip.to, phase="embarking", left=left) if left > 0 else \
            RailTrip(to=trip.to, phase="travelling", left=1)
        if left <= 0:
            u.events.append("is aboard its train")
        return str(u.hex)
    if trip.phase == "travelling":
        to = Hex.parse(trip.to)
        if to in board.geo.rail_reach(u.hex, board.blown) and not board.enemy_held(to, u.side):
            events.append({"kind": "rail", "unit": u.d.id, "from": str(u.hex), "to": trip.to})
            board.move(u, to)
            u.events.append(f"went by rail to {board.geo.near(to)}")
        else:
            u.events.append("found the line cut: it stays where it boarded")
        vehicles = u.t.troops != "infantry"
        # "It takes half a turn to disembark an infantry unit, or a whole turn for others" [6]: version 3
        # gives infantry its half turn of getting off (:func:`detraining`); version 2 none
        u.rail = RailTrip(to=trip.to, phase="disembarking", left=1) if vehicles or board.rules3 else None
        return str(u.hex)
    u.rail = None  # got off [6]
    return str(u.hex)


def _supply_and_contact(board: Board, scenario: MegaScenario) -> None:
    """Dumps deliver to their HQs [11]; fuel for mechanised units that moved or fought [9];
    contact with enemy formations, counted per turn for identification [10]."""
    _deliveries(board)
    for u in sorted(board.units.values(), key=lambda x: x.d.id):
        if not u.on_map:
            continue
        if u.t.mechanised and (u.km or u.fought) and board.pay_for(u, 1):
            u.supply_used += 1
        assert u.hex is not None
        facing = {e.d.formation for e in board.enemies_near(u.hex, u.side, 1)}
        u.contact = {f: u.contact.get(f, 0) + 1 for f in sorted(facing)}


def _next_state(scenario: MegaScenario, state: MegaState, board: Board, blown: set[str], dice: Dice,
                events: list[JSON], *, tell_losses: bool = True) -> MegaState:
    """The state the next turn starts from: each unit's (stragglers back, arrivals and their drops,
    a turn of rail travel, rest) and the facts its team's report is written from [10]; the teams'
    supplies, the objectives held, the transports lost to flak."""
    turn = state.turn + 1
    over = turn > scenario.turns
    units: dict[str, UnitState] = {}
    facts: dict[str, UnitFacts] = {}
    night_drops: list[str] = []
    attached = _attachments(board)
    for d in scenario.units:
        u = board.units[d.id]
        _stragglers(board, u, state.turn)
        hex_: str | None = str(u.hex) if u.hex is not None else None
        if hex_ is None and not u.gone and not over and (
                d.arrives == turn if not d.by_air else d.arrives <= turn):
            hex_ = _arrival(scenario, board, u, turn, dice, events, night_drops)
        if u.rail is not None and not u.gone and hex_ is not None:
            hex_ = _rail_turn(board, u, events)
        rested = _rest(board, u, state.units[d.id].rested, events)
        if tell_losses:
            _losses(u, state.units[d.id])
        units[d.id] = UnitState(hex=hex_, steps=u.steps, gone=u.gone, scattered=u.scattered, landed=u.landed,
                                rail=u.rail, rested=rested,
                                stock=u.stock,
                                prepared=u.line is not None and u.line.intention == "prepare",
                                contact=u.contact,
                                fired=(u.fired_before + 1 if not u.km else 1) if u.fired else 0)
        if hex_ is None and not u.events:
            continue
        facts[d.id] = _facts(board, u)
    supply = {t: board.supply.get(t, 0) + scenario.supply_per_turn.get(t, 0) for t in board.supply}
    for a in scenario.supply_arrivals:  # a dump arriving: its stock joins the team's pool [11]
        if a.turn == turn and not over:
            supply[a.team] += a.points
    control = dict(state.control)
    for o in scenario.objectives:
        holders = {u.side for u in board.at(Hex.parse(o.hex))}
        if len(holders) == 1:
            control[o.hex] = holders.pop()
    for side_, damage in sorted(board.transport_damage.items()):  # 2 damage = a squadron lost [13]
        for uid, n in fighter_losses(scenario, side_, state.turn, board.air_lost, damage // 2,
                                     role="transport").items():
            board.air_lost[uid] = board.air_lost.get(uid, 0) + n
    return MegaState(turn=min(turn, scenario.turns) if over else turn, over=over, units=units, supply=supply,
                     blown=sorted(blown), control=control, facts=facts,
                     air_lost={k: v for k, v in sorted(board.air_lost.items()) if v}, night_drops=night_drops,
                     cab_rank={t: c for t, c in sorted(board.cab.items()) if c.until >= turn and not over},
                     stragglers=dict(sorted(board.stragglers.items())), parked=board.parked,
                     loads=dict(sorted(board.loads.items())), tested=sorted(board.tested), safe=sorted(board.safe),
                     routed=sorted(board.routed_now), attached=attached)


def _attachments(board: Board) -> dict[str, str]:
    """Rules version 3 [9 timings]: "Attach a battalion to a different division takes 1 turn." A unit
    whose line attaches it to another division spends the turn on it and fights with that division
    (note 6) from the next turn; until then it counts with its own. Returns unit -> the division it
    is attached to, for the next turn (empty in version 2)."""
    if not board.rules3:
        return {}
    out = {u.d.id: u.attached for u in board.units.values() if u.attached and not u.gone}
    for u in sorted(board.units.values(), key=lambda x: x.d.id):
        if u.line is None or not u.line.attach or not u.on_map:
            continue
        if u.line.attach == u.division:
            u.events.append(f"already fights with {u.line.attach}")
            continue
        out[u.d.id] = u.line.attach
        u.events.append(f"is attached to {u.line.attach}: it fights with it from the next turn")
    return dict(sorted(out.items()))


def _stragglers(board: Board, u: BoardUnit, turn: int) -> None:
    """The stragglers of a drop rejoin when due: by day at the end of the turn of the drop (rules
    version 2) or of the clear turn after it (version 3); of a night drop, after 1d6 turns [12]."""
    if u.scattered and u.on_map and board.stragglers.get(u.d.id, 0) <= turn:
        u.steps = max(0, u.steps - u.scattered)
        u.scattered = 0
        board.stragglers.pop(u.d.id, None)
        u.events.append("its scattered men have come in")


def _arrival(scenario: MegaScenario, board: Board, u: BoardUnit, turn: int, dice: Dice, events: list[JSON],
             night_drops: list[str]) -> str | None:
    """A unit due on ``turn`` (by air: due by then) arrives, or waits: an airborne lift for weather
    that lets it fly, or with its serial put out of action by enemy fighters [6, 12]. Returns its hex,
    None while it waits."""
    d = u.d
    if d.by_air and flying(scenario, turn, "england") == "none":
        if d.arrives == turn:
            events.append({"kind": "delayed", "unit": d.id, "turn": turn})
        return None
    if d.by_air and d.id not in board.night_lift and board.stream_attack.get(u.side):
        # its serial out of action [12] (by day: the night table counts no fighters)
        board.stream_attack[u.side] -= 1
        events.append({"kind": "turned-back", "unit": d.id, "turn": turn})
        u.events.append("its aircraft were turned back by enemy fighters: it comes with the next lift")
        return None
    if d.by_air:
        night = d.id in board.night_lift
        events.append(airborne_drop(scenario, board, u, turn, dice, night=night))
        u.landed = True
        if night:
            night_drops.append(d.id)
    u.events.append(f"arrived at {board.geo.near(Hex.parse(d.hex))}"
                    + (f", {turn - d.arrives} turn{'s' if turn - d.arrives > 1 else ''} late "
                       "for the weather" if turn > d.arrives else ""))
    return d.hex  # reinforcements arrive at the start of their turn


def _rest(board: Board, u: BoardUnit, rested_before: int, events: list[JSON]) -> int:
    """Turns of rest in a row [5]: a unit that rests out of contact, without moving or fighting,
    gets a step back after :data:`REST_TURNS` of them. Returns the count it carries on with."""
    if u.hex is None or u.gone or u.line is None or u.line.posture != "rest" or u.km or u.fought \
            or board.enemies_near(u.hex, u.side, 1):  # rest, out of contact [5]
        return 0
    rested = rested_before + 1
    if rested >= REST_TURNS:
        rested = 0
        if u.steps > 0:
            u.steps -= 1
            u.events.append("rested and recovered some of its fighting effectiveness")
            events.append({"kind": "rested", "unit": u.d.id})
    return rested


def _losses(u: BoardUnit, before: UnitState) -> None:
    """What the turn's losses did to the unit, in its report [10 Effectiveness]: the status lost for
    good this turn (men scattered in a drop are not lost: they come in later), told in the words of
    its effectiveness before and after, never as a number. A unit lost altogether is told by the
    event that took it (captured)."""
    lost = (u.steps - u.scattered) - (before.steps - before.scattered)
    if lost <= 0 or u.gone or u.hex is None:
        return
    was = u.t.combat_profile(before.steps - before.scattered).status
    u.events.append(losses_words(was, u.t.combat_profile(u.steps - u.scattered).status,
                                 measured=u.t.mode != "defence"))


def _facts(board: Board, u: BoardUnit) -> UnitFacts:
    """What the unit's report is written from [10]: its events, the enemy in contact (a probe that
    meets it identifies it [5], fighting or not), the supply it used."""
    enemy = board.enemies_near(u.hex, u.side, 1) if u.hex is not None and not u.gone else []
    formation = enemy[0].d.formation if enemy else ""
    turns = u.contact.get(formation, 0)
    if enemy and u.line is not None and u.line.intention == "probe":
        u.identified = True  # a probe that meets the enemy identifies it [5], fighting or not
    status, tanks = sum(e.status for e in enemy), any(e.t.kind == "armour" and e.status > 0 for e in enemy)
    if board.rules3:  # [10 ELETIS] what fought it counts wherever it ended up; supply lost to the enemy is used
        status, tanks = max(status, u.met_status), tanks or u.met_tanks
    start = board.start.get(u.d.id)
    return UnitFacts(
        events=u.events, enemy_status=status, enemy_tanks=tanks,
        enemy_artillery=u.enemy_artillery, enemy_air=u.enemy_air or (board.rules3 and u.met_air),
        enemy_formation=formation, turns_in_contact=max(turns, 2) if u.identified and turns else turns,
        supply_used=u.supply_used + (u.supply_lost if board.rules3 else 0),
        # rules version 3: where it went and fought, for its team's map [10]
        path=[str(h) for h in [start, *u.trail]] if board.rules3 and u.trail and start is not None else [],
        fights=sorted({str(h) for h in u.fought_at}) if board.rules3 else [])
