"""The megagame as a ruleset (seed 004): teams send sealed written orders, Game Control rules where
the rules ask for judgement before any die is known, the engine adjudicates every number, and each
team sees only what its commanders would know, in words.

One turn (half a day [3]) is one sealed round of the engine (:mod:`pbem.engine.sealed`): every team
commits its order sheet [5], Game Control signs its rulings (groupings of combat and clear tactical
advantages [9]), every team reveals, and :meth:`MegagameRules.resolve_round` adjudicates it all at
once, in this order:

1. **Air** [9, 12]: each side's squadrons fly its teams' air orders while they last (weather and
   the squadrons lost in earlier air combats count); the fighters of both sides meet first, the
   side with more squadrons attacking on the fighter table, and squadrons shot down are lost for
   good, each side told of light or heavy losses; bombing interdicts the units in its target hex;
   recce reports to the team that flew it; transports drop supplies by the ready reckoner.
2. **Movement** [6, 7], all units together a kilometre (one hex) at a time: a unit stops where its
   route ends, in front of an enemy-held hex, when it comes into contact (an enemy adjacent), and --
   unless it is attacking -- when an enemy is within the passing distance (2 km, 1 km in close
   country or at night) [6]; a unit in contact moves only to break contact ("no rubbing past") [6];
   water off a bridge only for troops that may cross it [6]; every bridge passes at most its
   capacity in unit points a turn (two phases), the rest wait on the near bank [7]; a unit pinned
   down from the air does not move [9]; rail moves board, travel and get off turn by turn [6].
3. **Combat** [9]: the engine proposes a grouping -- each unit with Attack or Breakthrough orders
   that is in contact, paid for (1 supply point a unit) and has not moved more than half its move
   [6], attacks the adjacent enemy hex nearest its objective (a Probe stops in contact and does
   not attack [5]); every such unit against one hex is one combat -- and Game Control's
   signed grouping replaces it where it gives one. Artillery that did not move supports the first
   combat of its side within range (1 supply point) [9]; close air support by squadrons [9, 12];
   prepared attacks, stand fast, city areas, close country and every factor of
   :mod:`pbem.systems.megagame.combat`. Defenders retire the distance the result gives, away from
   the attackers; attackers badly beaten fall back 1 km; a vacated hex is taken by the attacker; a
   unit with no status left that cannot retire is captured [9]. Armour with Breakthrough orders
   that overruns drives on through the beaten enemy and, after a Total Success or a Success, makes
   an unprepared further attack on more enemy it meets [results table]. A bridge fought over blows
   on a 1 [8]. Counter-battery fire follows [9].
4. **Supply** [9, 11]: attacks and artillery cost 1 point a unit, mechanised units 1 fuel point a
   turn they move or fight; losers of a Limited Success or a Success lose 1 point a unit, of a
   Total Success 2; a dump that moved leaves its stock parked where it stood, transport units load
   parked counters and unload them at a dump or HQ of their team, and every dump that stood still
   delivers up to its lift to the HQs in its reach; each team then receives its turn's supply.
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
row gets a step back; caught resting it fights as non-tactical.
Flak [13]: every enemy flak unit within 4 km of a drop or an air resupply fires on each serial
(a unit dropping; a squadron of supplies) on the flak table: a loss costs the dropping unit a
status, damage hits the transports (two damage a squadron lost for good).
Fighters on air cover that hold the sky (unopposed, or winning the air combat) put one of the
other side's transport serials out of action a squadron: an airborne unit comes a turn later, a
squadron of supplies is turned back [12].
Bombing [9] strikes the enemy in the target hex before movement and every enemy unit that passes
through it during the turn. Heavy bombers fly only in support of attacks.
Not built: flak on overflights and fighters against bombers (no fly-in routes) [12, 13]; the
turn it takes to attach a battalion to another division [9]; supplies held per HQ stack and by
nation (a team's supplies are one pool, drawn within 5 km of the unit's HQ) [11].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import ceil
from typing import Any, ClassVar, Literal

from pydantic import ValidationError

from pbem.engine.ruleset import (
    JSON,
    Capabilities,
    Checked,
    Decision,
    Dice,
    Outcome,
    Resolution,
    Ruleset,
)
from pbem.errors import InputError, RuleViolation
from pbem.maps.hexmap import Hex
from pbem.protocol.archive import one_line
from pbem.systems.megagame import combat as cbt
from pbem.systems.megagame.model import (
    AirUnit,
    CabRank,
    Geo,
    MegaRulings,
    MegaScenario,
    MegaState,
    ParkedSupply,
    RailTrip,
    TeamView,
    UnitDef,
    UnitFacts,
    UnitState,
    UnitType,
)
from pbem.systems.megagame.movement import (
    CAPACITY,
    Posture,
    bridge_blows,
    max_move_km,
    may_cross,
    passing_distance_km,
)
from pbem.systems.megagame.orders import OrderLine, OrderSheet, UnitInfo, check_sheet
from pbem.systems.megagame.supply import HQ_REACH_KM, LOSS_PER_UNIT, hq_in_reach
from pbem.systems.megagame.tables import (
    air_resupply,
    counter_battery_fix,
    drop,
    effectiveness,
    flak,
    glider_poor_terrain,
    interdiction,
    movement_after_landing,
    recce,
)
from pbem.systems.megagame.tables import fighters as air_combat

ATTACKING = ("attack", "probe", "breakthrough")
"""Intentions that close with the enemy: they move on past the passing distance until contact [6]."""
FIGHTING = ("attack", "breakthrough")
"""Intentions that attack once in contact; a Probe conforms to the enemy and identifies it [5]."""

BRIDGE_POINTS = {"heavy": CAPACITY["main road bridge"][1], "light": CAPACITY["light military bridge"][1]}
"""Unit points a phase over a bridge of each class [7] (a turn has two phases)."""


def turn_label(scenario: MegaScenario, turn: int) -> str:
    """``18 September, morning`` for turn 3 of a game starting on the 17th [3]."""
    n = turn - 1 + (1 if scenario.first_half == "afternoon" else 0)
    return f"{scenario.first_day + n // 2} September 1944, {'afternoon' if n % 2 else 'morning'}"


MISSION_ROLES: dict[str, tuple[str, ...]] = {
    "cas": ("fighter-bomber", "ground-attack"), "cab-rank": ("fighter-bomber", "ground-attack"),
    "bombing": ("fighter-bomber", "ground-attack"), "recce": ("fighter",), "escort": ("fighter",),
    "air-cover": ("fighter",), "transport": ("transport",), "heavy": ("heavy-bomber",),
}
"""Which squadrons fly each mission of the air orders [9, 12]."""


def flying(scenario: MegaScenario, turn: int, region: str) -> Literal["good", "limited", "none"]:
    """The flying weather of ``turn`` where ``region``'s squadrons are based [12] (bases in Germany
    share the continent's weather)."""
    for w in scenario.weather:
        if w.turn == turn:
            return w.england if region == "england" else w.continent
    return "good"


def _flying_squadrons(scenario: MegaScenario, unit: AirUnit, turn: int, lost: Mapping[str, int]) -> int:
    """Squadrons of one air unit that fly on ``turn``: those not lost in air combat [12, fighter
    against fighter], all of them in good weather, half (rounded down) in limited, none when
    nothing flies [12]."""
    left = max(0, unit.squadrons - lost.get(unit.id, 0))
    wx = flying(scenario, turn, unit.region)
    return left if wx == "good" else left // 2 if wx == "limited" else 0


def squadrons_available(scenario: MegaScenario, side: str, turn: int, mission: str,
                        lost: Mapping[str, int] | None = None) -> int:
    """Squadrons of ``side`` able to fly ``mission`` on ``turn``, less the squadrons ``lost`` (air
    unit -> squadrons) in the air combats of earlier turns [12]."""
    return sum(_flying_squadrons(scenario, a, turn, lost or {}) for a in scenario.air
               if a.side == side and a.role in MISSION_ROLES[mission])


def own_cab_rank(state: AnyState, team: str) -> CabRank | None:
    """``team``'s cab rank on call this turn [9], from the master state or the team's own view."""
    if isinstance(state, TeamView):
        return state.cab_rank if state.team == team else None
    cab = state.cab_rank.get(team)
    return cab if cab is not None and cab.until >= state.turn else None


def cab_rank_squadrons(scenario: MegaScenario, side: str, turn: int, lost: Mapping[str, int] | None = None) -> int:
    """Squadrons of ``side`` that may fly a cab rank on ``turn``: Europe-based ground attack only
    [9] (the Allies' alone: the Germans' are refused by the sheet check)."""
    return sum(_flying_squadrons(scenario, a, turn, lost or {}) for a in scenario.air
               if a.side == side and a.role in MISSION_ROLES["cab-rank"] and a.region == "continent")


def _air_pools(scenario: MegaScenario, side: str, turn: int,
               lost: Mapping[str, int] | None = None) -> dict[tuple[str, ...], int]:
    pools: dict[tuple[str, ...], int] = {}
    for mission, roles in MISSION_ROLES.items():
        pools[roles] = squadrons_available(scenario, side, turn, mission, lost)
    return pools


def _fighter_losses(scenario: MegaScenario, side: str, turn: int, lost: Mapping[str, int],
                    squadrons: int, role: str = "fighter") -> dict[str, int]:
    """Which of ``side``'s fighter units (or units of another ``role``: transports hit by flak) lose
    the ``squadrons`` shot down [12, 13]: those units in the scenario's order, each up to the
    squadrons it has flying today (one side's squadrons of a kind are pooled; which unit flew
    which is not told apart)."""
    out: dict[str, int] = {}
    for a in scenario.air:
        if squadrons <= 0:
            break
        if a.side != side or a.role != role:
            continue
        n = min(squadrons, _flying_squadrons(scenario, a, turn, lost))
        if n:
            out[a.id] = n
            squadrons -= n
    return out


def loss_words(lost: int, flew: int) -> str:
    """How a side hears of its own or the enemy's losses in an air combat: "light" or "heavy"
    losses, never a number ([12]: the umpires report light or heavy losses). Read: heavy when the
    squadrons lost are a fifth or more of those that flew (the table's heavier rate), else light."""
    return "heavy" if lost and 5 * lost >= flew else "light"


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
            boarding += scenario.types[_unit(scenario, uid).type].size
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


def march_line(scenario: MegaScenario, view: TeamView, team: str, line: OrderLine) -> OrderLine | None:
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
    troops = scenario.types[_unit(scenario, uid).type].troops
    prev: dict[Hex, Hex | None] = {here: None}
    todo = [here]
    while todo:
        h = todo.pop(0)
        if h == goal or (goal in enemy and goal in h.neighbours()):
            break
        for nb in h.neighbours():
            if nb in prev or nb not in geo.hexes or nb in enemy:
                continue
            c = geo.crossing(h, nb, blown)
            if c.water != "none" and not may_cross(troops, c.water, c.bridge):
                continue
            prev[nb] = h
            todo.append(nb)
    end = goal if goal in prev else min(prev, key=lambda x: (x.distance(goal), x))
    path: list[Hex] = []
    while end != here:
        path.append(end)
        step = prev[end]
        assert step is not None
        end = step
    path.reverse()
    path = via + path
    rules = MegagameRules()
    for n in range(len(path), max(len(via), 1) - 1, -1):  # the longest part every rule accepts
        tried = line.model_copy(update={"route": [str(h) for h in path[:n]]})
        sheet = OrderSheet(team=team, side=team_side(scenario, team), turn=view.turn, lines=[tried])
        if not rules.validate(scenario, view, team, sheet):
            return tried
    return None


def hq_out_of_reach(scenario: MegaScenario, uid: str, where: Mapping[str, Hex | None]) -> str | None:
    """Why ``uid`` cannot draw supplies from its HQ [11] (``where``: unit -> hex, None when off the
    map or gone), or None when it can: the HQ is on the map within 5 km, or the unit has none."""
    d = _unit(scenario, uid)
    if d.hq is None or d.hq == uid:
        return None
    here, hq = where.get(uid), where.get(d.hq)
    if hq is None:
        return f"its HQ ({d.hq}) is not on the map"
    if here is not None and not hq_in_reach(here, hq):
        return f"its HQ ({d.hq}) is {here.distance(hq)} km away, more than {HQ_REACH_KM} [11]"
    return None


def profile_of(scenario: MegaScenario, unit: UnitDef, steps: int) -> cbt.Profile:
    return scenario.types[unit.type].combat_profile(steps)


def status_of(scenario: MegaScenario, state: MegaState, uid: str) -> int:
    return profile_of(scenario, _unit(scenario, uid), state.units[uid].steps).status


def _unit(scenario: MegaScenario, uid: str) -> UnitDef:
    return scenario.unit[uid]


def team_side(scenario: MegaScenario, team: str) -> Literal["allied", "german"]:
    for t in scenario.teams:
        if t.id == team:
            return t.side
    raise KeyError(team)


@dataclass
class _Unit:
    """A unit during adjudication (mutable working copy)."""

    d: UnitDef
    t: UnitType
    side: Literal["allied", "german"]
    hex: Hex | None
    steps: int
    prepared: bool
    contact: dict[str, int]
    gone: bool
    line: OrderLine | None = None
    km: int = 0
    fought: bool = False
    attacks: int = 0
    """Attacks it made this turn (a second only after an overrun [9])."""
    supply_used: int = 0
    events: list[str] = field(default_factory=list)
    enemy_artillery: bool = False
    enemy_air: bool = False
    identified: bool = False
    immobilised: bool = False
    scattered: int = 0
    fired_before: int = 0
    fired: bool = False
    landed: bool = False
    stock: int = 0
    rail: RailTrip | None = None

    @property
    def status(self) -> int:
        return self.t.combat_profile(self.steps).status

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.gone


class _Board:
    """Where everyone is while a turn is adjudicated."""

    def __init__(self, scenario: MegaScenario, state: MegaState) -> None:
        self.sc = scenario
        self.geo: Geo = scenario.map.geo
        self.blown = frozenset(state.blown)
        self.units: dict[str, _Unit] = {}
        sides = {t.id: t.side for t in scenario.teams}
        for d in scenario.units:
            s = state.units[d.id]
            self.units[d.id] = _Unit(d, scenario.types[d.type], sides[d.team],
                                     Hex.parse(s.hex) if s.hex else None, s.steps, s.prepared,
                                     dict(s.contact), s.gone, scattered=s.scattered, fired_before=s.fired,
                                     stock=s.stock, rail=s.rail)
        self.supply = dict(state.supply)
        self.air_lost = dict(state.air_lost)
        """Squadrons each air unit has lost in air combat, this turn's included [12]."""
        self.onward: list[tuple[_Unit, frozenset[str]]] = []
        """Units whose overrun brought them into contact with more enemy: they may attack again [9]."""
        self.night_lift: set[str] = set()
        """Airborne units ordered to drop by night at the start of the next turn [12]."""
        self.stragglers = dict(state.stragglers)
        self.parked: list[ParkedSupply] = list(state.parked)
        """Supply counters parked on the map [11]."""
        self.loads = dict(state.loads)
        """Supply points each transport unit carries [11]."""
        self.start: dict[str, Hex | None] = {uid: u.hex for uid, u in self.units.items()}
        """Where each unit stood at the start of the turn."""
        """Unit -> the turn at whose end the men scattered in its night drop come in [12]."""
        self.capacity = {b.name: b.capacity for b in scenario.bridges}
        self.chokes = {Hex.parse(c.hex): c for c in scenario.chokes}
        """Unit points a phase over each named bridge [7]."""
        self.fighters_over: set[str] = set()
        self.cab: dict[str, CabRank] = {t: c for t, c in state.cab_rank.items() if c.until >= state.turn}
        """Cab ranks on call this turn, by team [9]: those ordered the turn before, then this turn's."""
        self.interdicted: dict[Hex, tuple[str, int]] = {}
        """Hexes bombed this turn -> (the bombing side, squadrons): units passing through meet it [9]."""
        self.stream_attack: dict[str, int] = {}
        """Side -> its transport serials enemy fighters can still put out of action this turn [12]."""
        self.transport_damage: dict[str, int] = {}
        """Side -> air damage flak did to its transports this turn [13]: two are a squadron lost."""
        self.support: dict[tuple[str, str], int] = {}
        """(team, 'cas' or 'heavy') -> squadrons that flew for its attacks this turn and are not yet
        spent on one [9, 12]."""
        """The sides whose fighters hold or contest the sky this turn [12]."""
        self.where: dict[Hex, list[_Unit]] = {}
        """Units on the map by hex (kept by :meth:`move` and :meth:`remove`)."""
        for u in self.units.values():
            if u.on_map and u.hex is not None:
                self.where.setdefault(u.hex, []).append(u)

    def move(self, u: _Unit, h: Hex) -> None:
        if u.hex is not None and u in self.where.get(u.hex, []):
            self.where[u.hex].remove(u)
        u.hex = h
        self.where.setdefault(h, []).append(u)

    def remove(self, u: _Unit) -> None:
        """Captured or broken up: off the board, its last hex kept for the reports."""
        if u.hex is not None and u in self.where.get(u.hex, []):
            self.where[u.hex].remove(u)
        u.gone = True

    def at(self, h: Hex) -> list[_Unit]:
        return sorted(self.where.get(h, []), key=lambda u: u.d.id)

    def enemies_near(self, h: Hex, side: str, within: int) -> list[_Unit]:
        out: list[_Unit] = []
        for g in h.within(within):
            out += [u for u in self.where.get(g, ()) if u.side != side]
        return sorted(out, key=lambda u: u.d.id)

    def enemy_held(self, h: Hex, side: str) -> bool:
        return any(u.side != side for u in self.where.get(h, ()))


    def positions(self) -> dict[str, Hex | None]:
        return {uid: u.hex if u.on_map else None for uid, u in self.units.items()}

    def pay(self, team: str, points: int) -> bool:
        if self.supply.get(team, 0) < points:
            return False
        self.supply[team] -= points
        return True


AnyState = MegaState | TeamView
"""Game Control's master state, or a team's own view (its pbem never holds more) [10]."""


@dataclass(frozen=True)
class Known:
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


def known(scenario: MegaScenario, state: AnyState, team: str) -> Known:
    """The same facts from the master state (Game Control, at the reveal) or from the team's view
    (the team's pbem, before it signs)."""
    types = {u.id: scenario.types[u.type] for u in scenario.units}
    if isinstance(state, TeamView):
        units = {u.id: UnitInfo(id=u.id, troops=types[u.id].troops, armoured=types[u.id].armoured, hex=u.hex)
                 for u in state.units} if state.team == team else {}
        return Known(state.turn, units, frozenset(u.id for u in state.units if u.prepared),
                     frozenset(u.id for u in state.units if u.state == effectiveness(0)), state.supply,
                     frozenset(state.blown), frozenset(u.id for u in state.units if u.landed),
                     frozenset(state.night_drops), frozenset(u.id for u in state.units if u.rail),
                     frozenset(e.hex for e in state.enemy))
    units = {}
    for u in scenario.units:
        s = state.units[u.id]
        if u.team == team and s.hex is not None and not s.gone:
            units[u.id] = UnitInfo(id=u.id, troops=types[u.id].troops, armoured=types[u.id].armoured, hex=s.hex)
    return Known(state.turn, units, frozenset(k for k, s in state.units.items() if s.prepared),
                 frozenset(k for k in units if status_of(scenario, state, k) <= 0),
                 state.supply.get(team, 0), frozenset(state.blown),
                 frozenset(k for k, s in state.units.items() if s.landed), frozenset(state.night_drops),
                 frozenset(k for k, s in state.units.items() if s.rail is not None),
                 frozenset(s.hex for k, s in state.units.items() if s.hex and not s.gone
                           and team_side(scenario, _unit(scenario, k).team) != team_side(scenario, team)))


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


class MegagameRules(Ruleset[MegaScenario, AnyState, OrderSheet]):
    """Wallman's operational megagame (module docstring)."""

    system = "megagame"
    version = "2"
    """2: fighter squadrons lost in air combat are lost for good; drops by night [12]; the further
    attack after an overrun [9]; a moving dump leaves its supplies parked for the transport units
    [11]."""
    earlier = {
        "1": "pbem development builds from commit 2377d44 to the one before ab6965f (no release)",
    }
    capabilities: ClassVar[Capabilities] = Capabilities(decisions="simultaneous", information="hidden",
                                                        umpire=True)

    # -- scenario and boundary -----------------------------------------------------------------
    def scenario_problems(self, data: JSON) -> list[str]:
        try:
            sc = MegaScenario.model_validate(data)
        except ValidationError as exc:
            return [f"megagame scenario: {one_line(exc)}"]
        out: list[str] = []
        teams = [t.id for t in sc.teams]
        if len(set(teams)) != len(teams):
            out.append("megagame scenario: team ids must be unique [2]")
        if sc.umpire in teams:
            out.append(f"megagame scenario: Game Control ({sc.umpire}) is not a team [2]")
        if {t.side for t in sc.teams} != {"allied", "german"}:
            out.append("megagame scenario: both sides need at least one team [2]")
        geo = sc.map.geo
        seen: set[str] = set()
        for u in sc.units:
            if u.id in seen:
                out.append(f"unit {u.id}: listed twice")
            seen.add(u.id)
            if u.team not in teams:
                out.append(f"unit {u.id}: no team {u.team!r}")
            if u.type not in sc.types:
                out.append(f"unit {u.id}: no unit type {u.type!r} (Annex A)")
            if Hex.parse(u.hex) not in geo.hexes:
                out.append(f"unit {u.id}: hex {u.hex} is off the map")
            if u.arrives > sc.turns:
                out.append(f"unit {u.id}: arrives on turn {u.arrives}, after the last turn ({sc.turns})")
        for u in sc.units:
            if sc.types.get(u.type) is not None and sc.types[u.type].dump and u.lift <= 0:
                out.append(f"unit {u.id}: a dump delivers up to its lift a turn; give it one [11]")
        by_id = {u.id: u for u in sc.units}
        for u in sc.units:
            if u.hq is not None and (u.hq not in by_id or by_id[u.hq].team != u.team):
                out.append(f"unit {u.id}: its HQ {u.hq!r} is not a unit of team {u.team} [11]")
        for name, t in sc.types.items():
            levels = t.combat_profile().levels
            if list(levels) != sorted(levels, reverse=True) or levels[-1] != 0:
                out.append(f"unit type {name}: a status profile falls step by step to 0 [9], not {t.profile}")
            if t.kind == "artillery" and t.artillery is None:
                out.append(f"unit type {name}: artillery needs its kind (field, medium, rocket, infantry-gun) [9]")
        for o in sc.objectives:
            if Hex.parse(o.hex) not in geo.hexes:
                out.append(f"objective {o.name}: hex {o.hex} is off the map")
        chokes = [c.hex for c in sc.chokes]
        for c in sc.chokes:
            if Hex.parse(c.hex) not in geo.hexes:
                out.append(f"choke point {c.name}: hex {c.hex} is off the map [7]")
            if chokes.count(c.hex) > 1:
                out.append(f"choke point {c.name}: hex {c.hex} is given twice [7]")
        for team in (*sc.supply, *sc.supply_per_turn, *(a.team for a in sc.supply_arrivals)):
            if team not in teams:
                out.append(f"supply: no team {team!r} [11]")
        for a in sc.supply_arrivals:
            if a.turn > sc.turns:
                out.append(f"supply: {a.what} arrives on turn {a.turn}, after the last turn [11]")
        return out

    def load_scenario(self, data: JSON) -> MegaScenario:
        problems = self.scenario_problems(data)
        if problems:
            raise InputError("; ".join(problems))
        return MegaScenario.model_validate(data)

    def scenario_summary(self, scenario: MegaScenario) -> str:
        teams = ", ".join(f"{t.id} ({t.name})" for t in scenario.teams)
        return (f"{scenario.id}: {len(scenario.units)} units, {scenario.turns} half-day turns from "
                f"{turn_label(scenario, 1)}; teams {teams}; Game Control {scenario.umpire}")

    def scenario_copy(self, scenario: MegaScenario, data: JSON, side: str) -> JSON | None:
        """The set-up is secret [2, 10]: a team holds only its side's forces and the enemy it sees
        at the start (:mod:`pbem.systems.megagame.setup`); Game Control the whole scenario."""
        from pbem.systems.megagame.setup import team_copy

        if side == scenario.umpire or scenario.copy_for:
            return None
        return team_copy(scenario, data, side)

    def sides(self, scenario: MegaScenario) -> list[str]:
        return [t.id for t in scenario.teams] + [scenario.umpire]

    def umpire(self, scenario: MegaScenario) -> str | None:
        return scenario.umpire

    SEALED_BASE = 2048
    SEALED_PER_UNIT = 192
    """A sheet's sealed size [5, 29]: room for an order line of its own for every unit the team will
    ever command (a route of a dozen hexes and an air request each), a power of two; Game Control's
    rulings get the same for every unit of the game. The same size every turn, so that a sheet's
    length tells neither its lines nor that the team's forces grew."""

    def sealed_size(self, scenario: MegaScenario, side: str) -> int:
        from pbem.protocol.seal import padded_length

        n = sum(1 for u in scenario.units if u.team == side or side == scenario.umpire)
        return padded_length(self.SEALED_BASE + self.SEALED_PER_UNIT * n)

    def orders_schema(self) -> JSON:
        schema: dict[str, Any] = OrderSheet.model_json_schema()
        return schema

    def rulings_schema(self) -> JSON:
        schema: dict[str, Any] = MegaRulings.model_json_schema()
        schema["description"] = ("Game Control's rulings for a turn [9]: groupings replace the engine's "
                                 "proposed attackers against a hex; advantage adds points a unit")
        return schema

    def load_rulings(self, scenario: MegaScenario, state: AnyState, data: JSON) -> JSON:
        try:
            rulings = MegaRulings.model_validate(data or {})
        except ValidationError as exc:
            raise InputError(f"megagame rulings: {one_line(exc)} [9]") from None
        known = {u.id for u in scenario.units}
        for g in rulings.groupings:
            unknown = [a for a in g.attackers if a not in known]
            if unknown:
                raise InputError(f"megagame rulings: no unit {unknown[0]!r} to group at {g.at} [9]")
        out: dict[str, Any] = rulings.model_dump(mode="json")
        return out

    def load_state(self, scenario: MegaScenario, data: JSON) -> AnyState:
        try:
            if isinstance(data, dict) and "team" in data:
                return TeamView.model_validate(data)
            return MegaState.model_validate(data)
        except ValidationError as exc:
            raise InputError(f"megagame state: {one_line(exc)}") from None

    def dump_state(self, scenario: MegaScenario, state: AnyState) -> JSON:
        return state.model_dump(mode="json")

    def load_orders(self, scenario: MegaScenario, data: JSON) -> OrderSheet:
        try:
            return OrderSheet.model_validate(data)
        except ValidationError as exc:
            raise InputError(f"megagame order sheet: {one_line(exc)} [5]") from None

    def dump_orders(self, scenario: MegaScenario, orders: OrderSheet) -> JSON:
        return orders.model_dump(mode="json")

    # -- the game -----------------------------------------------------------------------------
    def initial_state(self, scenario: MegaScenario, options: JSON) -> MegaState:
        if options not in ({}, None):
            raise InputError("the megagame takes no options (the number of teams is the scenario's)")
        units = {u.id: UnitState(hex=u.hex if u.arrives <= 1 else None, stock=u.stock) for u in scenario.units}
        supply = {t.id: scenario.supply.get(t.id, 0) for t in scenario.teams}
        control = {o.hex: o.held_by for o in scenario.objectives}
        return MegaState(turn=1, units=units, supply=supply, control=control)

    def pending(self, scenario: MegaScenario, state: AnyState) -> list[Decision]:
        if state.over:
            return []
        label = turn_label(scenario, state.turn)
        return [Decision(t.id, "sealed-orders", f"Turn {state.turn}, {label}: {t.name}'s orders [5]",
                         sealed=True) for t in scenario.teams]

    def skeleton(self, scenario: MegaScenario, state: AnyState, side: str) -> JSON:
        if state.over:
            raise InputError("the game is over: there is nothing to order")
        if side not in {t.id for t in scenario.teams}:
            raise InputError(f"{side} is not a team of this game (Game Control rules, it sends no orders)")
        return {"team": side, "side": team_side(scenario, side), "turn": state.turn, "lines": [],
                "air_orders": []}

    def normalize(self, scenario: MegaScenario, state: AnyState, side: str, orders: OrderSheet) -> OrderSheet:
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
        view = state if isinstance(state, TeamView) else TeamView.model_validate(team_view(scenario, state, side))
        lines: list[OrderLine] = []
        for line in orders.lines:
            if not wanted(line):
                lines.append(line)
                continue
            where = {u.id: u.hex for u in view.units}
            if line.route:  # 'towards X, via A B': on from B towards X, when the units march together
                together = len({where.get(uid, "") for uid in line.units}) == 1
                lines.append((march_line(scenario, view, side, line) if together else None) or line)
                continue
            groups: dict[str, list[str]] = {}
            for uid in line.units:  # units in one hex share a route; others get lines of their own
                groups.setdefault(where.get(uid, ""), []).append(uid)
            for i, (_hex, uids) in enumerate(sorted(groups.items(), key=lambda g: line.units.index(g[1][0]))):
                part = line.model_copy(update={"units": uids} if i == 0 else
                                       {"units": uids, "air": [], "supply": 0})  # asked for once
                routed = march_line(scenario, view, side, part) if line.objective.isdigit() else None
                lines.append(routed if routed is not None else part)
        return orders.model_copy(update={"lines": lines})

    def validate(self, scenario: MegaScenario, state: AnyState, side: str,
                 orders: OrderSheet) -> list[RuleViolation]:
        if state.over:
            return [RuleViolation("3", "the game is over")]
        teams = {t.id: t for t in scenario.teams}
        if side not in teams:
            return [RuleViolation("5", f"{side} is not a team: only teams send order sheets")]
        out: list[RuleViolation] = []
        if orders.team != side:
            out.append(RuleViolation("5", f"the sheet is {orders.team}'s; it cannot be signed for {side}"))
        if orders.side != teams[side].side:
            out.append(RuleViolation("5", f"{side} fights on the {teams[side].side} side, not {orders.side}"))
        if orders.turn != state.turn:
            out.append(RuleViolation("5", f"the sheet is for turn {orders.turn}; this is turn {state.turn} "
                                          f"({turn_label(scenario, state.turn)})"))
        if out:
            return out
        geo = scenario.map.geo
        k = known(scenario, state, side)
        ordered: set[str] = set()
        for line in orders.lines:
            for uid in line.units:
                if uid in ordered:
                    out.append(RuleViolation("5", f"{', '.join(line.units)}: {uid} already has orders on this sheet"))
                ordered.add(uid)
            for h in line.route:
                if Hex.parse(h) not in geo.hexes:
                    out.append(RuleViolation("6", f"{', '.join(line.units)}: route hex {h} is off the map"))
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
                    if uid in k.units and scenario.types[_unit(scenario, uid).type].mode == "defence":
                        out.append(RuleViolation("9", f"{', '.join(line.units)}: {uid} counts in defence only (its status "
                                                      "profile is in round brackets): it cannot attack"))
                    if uid in k.spent:
                        out.append(RuleViolation("9", f"{', '.join(line.units)}: {uid} is no longer an effective "
                                                      "fighting unit and cannot attack"))
        if out:
            return out

        arriving = {u.id: u.arrives for u in scenario.units if u.team == side and u.id not in k.units}
        lifts = [line for line in orders.lines if night_lift(scenario, side, k, line)]
        for line in orders.lines:
            if any(line is x for x in lifts):
                out += _night_drop_problems(scenario, k, line)
                continue
            late = [uid for uid in line.units if uid in arriving]
            if late:
                airborne = [uid for uid in late if _unit(scenario, uid).by_air]
                out.append(RuleViolation("5", f"{', '.join(late)}: not on the map now (due on turn "
                                              f"{arriving[late[0]]}, or lost): no orders yet"
                                         + (f" (but {airborne[0]} may be given its drop by night: a line of its own, "
                                            "'move' with timing 'night' [12])" if airborne else "")))
        if out:
            return out
        if lifts:  # the rest of the sheet is checked as if the lifts were not on it
            orders = orders.model_copy(update={"lines": [x for x in orders.lines if not any(x is y for y in lifts)]})
        out += _rail_problems(scenario, k, teams[side].side, orders)
        half: Literal["morning", "afternoon"] = "afternoon" if turn_label(scenario, k.turn).endswith("afternoon") \
            else "morning"
        for line in orders.lines:
            if line.counter_battery:
                if line.route:
                    out.append(RuleViolation("9", f"{', '.join(line.units)}: artillery on counter-battery stays for the whole turn"))
                for uid in line.units:
                    if uid in k.units and scenario.types[_unit(scenario, uid).type].artillery is None:
                        out.append(RuleViolation("9", f"{', '.join(line.units)}: only artillery fires counter-battery, not {uid}"))
            if not line.route:
                continue
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
                full = max_move_km(info.troops, geo.ground(Hex.parse(info.hex)), _posture(line),
                                   night=line.timing == "night")
                if full is not None and len(line.route) > full * share:
                    out.append(RuleViolation("12", f"{', '.join(line.units)}: {uid} dropped this {half}: at most {full * share} "
                                                   f"km in the turn of the drop, the route is {len(line.route)} km"))

        def water(a: Hex, b: Hex) -> tuple[Any, Any]:
            c = geo.crossing(a, b, k.blown)
            return c.water, c.bridge

        cab = own_cab_rank(state, side)
        out += check_sheet(orders, k.units, ground_of=geo.ground, water_between=water,
                           prepared_last_turn=k.prepared, supply_available=k.supply, cab_rank=cab is not None)
        ranks = sum(a.squadrons for a in orders.air_orders if a.mission == "cab-rank")
        if ranks and teams[side].side != "allied":
            out.append(RuleViolation("9", "air orders: a cab rank is for the Allies"))
        elif ranks and scenario.air:
            europe = cab_rank_squadrons(scenario, teams[side].side, k.turn, state.air_lost) - (cab.squadrons if cab else 0)
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
                if a.mission in ("bombing", "recce", "transport") and not (a.target.isdigit() and len(a.target) == 4
                                                                and Hex.parse(a.target) in geo.hexes):
                    out.append(RuleViolation("12", f"air orders: {a.mission} needs a target hex of the map, "
                                                   f"not {a.target[:40]!r}"))
            pools = _air_pools(scenario, teams[side].side, k.turn, state.air_lost)
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

    def resolve(self, scenario: MegaScenario, state: AnyState, side: str, orders: OrderSheet,
                dice: Dice, checked: Checked | None = None) -> Resolution:
        raise InputError("megagame orders are sealed: Game Control resolves them together [5]")

    def resolve_round(self, scenario: MegaScenario, state: AnyState, orders: dict[str, OrderSheet],
                      dice: Dice, checked: dict[str, Checked], rulings: JSON = None) -> Resolution:
        if not isinstance(state, MegaState):
            raise InputError("only Game Control, holding the master map, adjudicates a turn [2]")
        ruled = MegaRulings.model_validate(rulings or {})
        board = _Board(scenario, state)
        events: list[JSON] = []
        for _team, sheet in sorted(orders.items()):
            for line in sheet.lines:
                for uid in line.units:
                    u = board.units[uid]
                    if u.rail is not None:
                        continue  # on the railway: no orders [6]
                    if line.rail_to:  # boarding a train: a turn, two with vehicles [6]
                        u.rail = RailTrip(to=line.rail_to, phase="embarking",
                                          left=1 if u.t.troops == "infantry" else 2)
                        u.events.append(f"began boarding a train for {board.geo.near(Hex.parse(line.rail_to))}")
                        continue
                    if u.hex is None and not u.gone and u.d.by_air and line.timing == "night":
                        board.night_lift.add(uid)  # its drop, by night [12]
                        continue
                    u.line = line
        if ruled.groupings or ruled.advantage:
            events.append({"kind": "rulings", **ruled.model_dump(mode="json")})
        blown = set(state.blown)
        intel: dict[str, list[str]] = {}
        events += _air(scenario, state.turn, board, orders, dice, intel)
        events += _movement(board, dice)
        events += _combat(board, ruled, dice, blown)
        events += _counter_battery(board, dice)
        _supply_and_contact(board, scenario)
        new = _next_state(scenario, state, board, blown, dice, events)
        if intel:
            new = new.model_copy(update={"intel": intel})
        return Resolution(new, events)

    def score(self, scenario: MegaScenario, state: AnyState) -> dict[str, int]:
        return {}

    def points(self, scenario: MegaScenario, state: MegaState) -> dict[str, int]:
        """Objective points each side holds (the scenario's victory conditions)."""
        out = {"allied": 0, "german": 0}
        for o in scenario.objectives:
            out[state.control.get(o.hex, o.held_by)] += o.points
        return out

    def outcome(self, scenario: MegaScenario, state: AnyState) -> Outcome | None:
        if not state.over or not isinstance(state, MegaState):
            return None
        pts = self.points(scenario, state)
        held = [f"{o.name} ({o.hex}, {o.points} points): {state.control.get(o.hex, o.held_by)}"
                for o in scenario.objectives]
        if pts["allied"] == pts["german"]:
            return Outcome(None, f"draw: {pts['allied']} objective points each", pts, held)
        winner = max(pts, key=lambda s: pts[s])
        return Outcome(winner, f"the {winner} side wins on objectives held, {pts[winner]} to "
                               f"{min(pts.values())}", pts, held)

    # -- what people see ------------------------------------------------------------------------
    def view(self, scenario: MegaScenario, state: JSON, side: str | None) -> JSON:
        """What a team knows [10]: its own units (effectiveness in words, never a status number),
        the other teams of its side where they are, the enemy in sight of its side (how many
        battalions, tanks named), its units' reports, its supply points. Game Control (``None`` or
        the umpire) sees the master state; after the game the umpire's publication gives it to
        everyone (``pbem publish``), so the last report need not carry it to each team."""
        if side is None or side == scenario.umpire:
            return state
        st = MegaState.model_validate(state)
        return team_view(scenario, st, side)

    def describe(self, scenario: MegaScenario, state: AnyState) -> str:
        if state.over:
            return "game over"
        return f"turn {state.turn} of {scenario.turns}: {turn_label(scenario, state.turn)}"

    def describe_event(self, scenario: MegaScenario, event: JSON) -> str:
        kind = event.get("kind")
        if kind == "interdiction-passing":
            return f"{event['unit']} passes the bombed point {event['at']} (die {event['die']}): {event['result']} [9]"
        if kind == "turned-back":
            return f"enemy fighters put {event['unit']}'s serial out of action: it does not land this turn [12]"
        if kind == "rested":
            return f"{event['unit']} has rested {REST_TURNS} turns out of contact: one step back [5]"
        if kind == "moved":
            return f"{event['unit']} moves {' '.join(event['path'])}" + (
                f" and stops: {event['stop']}" if event.get("stop") else "")
        if kind == "combat":
            again = ", a further attack after an overrun, unprepared" if event.get("further") else ""
            return (f"combat at {event['at']} [9{again}]: {', '.join(event['attackers'])} against "
                    f"{', '.join(event['defenders'])}: {event['attacker_score']} - {event['defender_score']} "
                    f"+ die {event['die']} = {event['result']}, {event['band']}; {event['retreat']}"
                    + _air_words(event))
        if kind == "bridge":
            return f"the {event['bridge']} {'blows' if event['blown'] else 'holds'} (die {event['die']}) [8]"
        if kind == "rulings":
            parts = [f"attackers at {g['at']}: {', '.join(g['attackers'])}" for g in event.get("groupings", [])]
            parts += [f"clear tactical advantage to the {a['side']} at {a['at']}: +{a['points']} for each of its "
                      f"units ({a['why']})"
                      for a in event.get("advantage", [])]
            return "Game Control rules: " + ("; ".join(parts) or "nothing") + " [9]"
        if kind == "note":
            return str(event["text"])
        if kind == "captured":
            return f"at {event['at']} {', '.join(event['units'])} could not fight or get away: captured [9]"
        if kind == "interdiction":
            hits = ", ".join(f"{h['unit']} die {h['die']}: {h['result']}" for h in event["hits"]) or "no target"
            n = event["squadrons"]
            return f"{event['team']} bombs {event['at']} with {n} squadron{'' if n == 1 else 's'}: {hits} [9]"
        if kind == "recce":
            return f"{event['team']}'s air recce over {event['at']} (die {event['die']}): {event['seen']} [12]"
        if kind == "resupply":
            factors = f", {', '.join(event['factors'])}" if event["factors"] else ""
            return (f"{event['team']}'s air resupply on {event['at']}: {event['landed']} of {event['dropped']} "
                    f"points land (die {event['die']}{factors})"
                    + (", collected" if event["collected"] else ", not collected") + " [11, 12]")
        if kind == "air-combat":
            losses = ", ".join(f"{s} {n}" for s, n in sorted(event["losses"].items()))
            return (f"air combat, the {event['attacker']} fighters attacking (die {event['die']}): "
                    f"{event['result']}; squadrons lost: {losses} [12]")
        if kind == "drop":
            night = " by night" if event.get("night") else ""
            back = (f", the scattered men back after {event['stragglers_die']} turn"
                    f"{'s' if event['stragglers_die'] > 1 else ''}" if "stragglers_die" in event else "")
            return (f"{event['unit']} drops{night} (dice {event['dice'][0]}, {event['dice'][1]}): "
                    f"{event['result']}{back} [12]")
        if kind == "rail":
            return f"{event['unit']} goes by rail from {event['from']} to {event['to']} [6]"
        if kind == "overrun":
            moves = "; ".join(f"{m['unit']} {' '.join(m['path'])}" for m in event["moves"])
            return f"overrun at {event['at']} ({event['band']}): {moves} [results table]"
        if kind == "counter-battery":
            found = (f"fixed, fire die {event['fire']}: {event['result']}" if event["fixed"] else "not found")
            return (f"counter-battery by {', '.join(event['by'])} on {event['battery']} (die {event['die']}, "
                    f"firing from there {event['turns']} turn{'s' if event['turns'] > 1 else ''}): {found} [9]")
        if kind == "delayed":
            return f"{event['unit']} cannot fly from England in this weather: its lift waits [12]"
        return super().describe_event(scenario, event)

    def presenter(self) -> Any:
        from pbem.systems.megagame.presenter import MegagamePresenter

        return MegagamePresenter(self)


# -- adjudication ---------------------------------------------------------------------------------


def _posture(line: OrderLine) -> Posture:
    if line.posture == "non-tactical":
        return "road-column" if line.intention == "move" else "non-tactical"
    return "tactical"


REST_TURNS = 4
"""Half-day turns of rest in a row, out of contact, that give back one step [5]: the text's "several
days before any improvement is felt", read as two days (RECONSTRUCTED reading)."""

FRIENDS_KM = 10
"""How near another team's unit must be to one of a team's own to be in its view [10]."""

RESUPPLY_POINTS_PER_SQUADRON = 2
"""Supply points one transport squadron drops (RECONSTRUCTED: the text leaves the lift "to the
plan"; a squadron of C-47s or Stirlings is read as two points)."""


def _air(scenario: MegaScenario, turn: int, board: _Board, orders: dict[str, OrderSheet], dice: Dice,
         intel: dict[str, list[str]]) -> list[JSON]:
    """The air orders before anything moves [9, 12]: each side's squadrons go to its teams' requests
    in team order while they last (a request beyond what flies is noted, not flown); the fighters
    of both sides (escort, air cover) meet first, the side with more squadrons attacking on the
    fighter table, and fighters that are not beaten intervene against the other side's transports
    and drops; bombing interdicts every enemy unit in the target hex [9]; recce reports on the
    target hex to the team that asked; air transport drops supplies on a hex by the ready reckoner,
    collected by the team if one of its units is within 5 km [11, 12]. Close air support is flown
    in the combat it was asked for."""
    events: list[JSON] = []
    if not scenario.air:
        return events
    geo = board.geo
    pools = {side: _air_pools(scenario, side, turn, board.air_lost) for side in ("allied", "german")}
    europe = {side: cab_rank_squadrons(scenario, side, turn, board.air_lost) for side in ("allied", "german")}
    for team, cab in sorted(board.cab.items()):  # on call since the turn before: still in the air [9]
        side_of = team_side(scenario, team)
        pools[side_of][MISSION_ROLES["cab-rank"]] -= min(cab.squadrons, pools[side_of][MISSION_ROLES["cab-rank"]])
        europe[side_of] -= min(cab.squadrons, europe[side_of])
    flights: list[tuple[str, str, Any, int]] = []  # team, side, request, squadrons flown
    for team in sorted(orders):
        side: str = team_side(scenario, team)
        for a in orders[team].air_orders:
            roles = MISSION_ROLES[a.mission]
            flown = min(a.squadrons, pools[side][roles], europe[side] if a.mission == "cab-rank" else a.squadrons)
            if a.mission == "cab-rank":
                europe[side] -= flown
                if flown:
                    before = board.cab.get(team)
                    board.cab[team] = CabRank(squadrons=flown + (before.squadrons if before else 0), until=turn + 1)
                    cab = board.cab[team]
                    intel.setdefault(team, []).append(
                        f"cab rank: {cab.squadrons} squadrons on call for your attacks and defence, "
                        f"{cab.cover} squadron{'s' if cab.cover != 1 else ''}' worth of support, until the end of "
                        f"{turn_label(scenario, turn + 1)}")
            pools[side][roles] -= flown
            if flown < a.squadrons:
                intel.setdefault(team, []).append(
                    f"{a.mission}: only {flown} of {a.squadrons} squadron{'s' if a.squadrons != 1 else ''} "
                    "could be found to fly")
            if flown:
                flights.append((team, side, a, flown))
                if a.mission in SUPPORT:  # flown in the attacks of the team's lines that asked for it
                    board.support[(team, a.mission)] = board.support.get((team, a.mission), 0) + flown
    fighters = {side: sum(n for _, s, a, n in flights if s == side and a.mission in ("escort", "air-cover"))
                for side in ("allied", "german")}
    board.fighters_over = {side for side, n in fighters.items() if n}
    if all(fighters.values()):  # air to air [12]: the larger force attacks
        big = max(fighters, key=lambda s: (fighters[s], s == "allied"))
        small = "german" if big == "allied" else "allied"
        die = dice.d6("12 air to air")
        fight = air_combat(fighters[big], fighters[small], die)
        beaten = small if fight.result == "win" else big if fight.result == "lose" else None
        if beaten is not None:
            board.fighters_over.discard(beaten)
        # no side loses more squadrons than it flew; the losses are for good [12]
        losses = {big: min(fight.attacker_losses, fighters[big]),
                  small: min(fight.defender_losses, fighters[small])}
        shot_down: dict[str, int] = {}
        for side_ in (big, small):
            shot_down.update(_fighter_losses(scenario, side_, turn, board.air_lost, losses[side_]))
        for uid, n in shot_down.items():
            board.air_lost[uid] = board.air_lost.get(uid, 0) + n
        events.append({"kind": "air-combat", "attacker": big, "die": die, "result": fight.result,
                       "losses": losses, "units": shot_down})
        for team, flew, a, _ in flights:
            if a.mission in ("escort", "air-cover"):
                won = beaten is not None and beaten != flew
                them = small if flew == big else big
                intel.setdefault(team, []).append(
                    "our fighters met the enemy's: " + ("they held the sky" if won else
                                                        "the enemy held the sky" if beaten == flew else
                                                        "neither side gave way")
                    + f" (our losses {loss_words(losses[flew], fighters[flew])}, the enemy's "
                      f"{loss_words(losses[them], fighters[them])})")
    lost_now = losses if all(fighters.values()) else {}
    for side_, other in (("allied", "german"), ("german", "allied")):
        # fighters on air cover that hold the sky break through to the other side's transports:
        # one serial out of action a squadron [12, "Fighter Vs Transport Aircraft"]
        cover = sum(n for _, s_, a, n in flights if s_ == side_ and a.mission == "air-cover")
        if cover and side_ in board.fighters_over and other not in board.fighters_over:
            board.stream_attack[other] = max(0, cover - lost_now.get(side_, 0))
    for team, side, a, flown in flights:
        if a.mission not in ("bombing", "recce", "transport"):
            continue
        if a.mission == "transport" and board.stream_attack.get(side):
            out = min(flown, board.stream_attack[side])
            board.stream_attack[side] -= out
            flown -= out
            intel.setdefault(team, []).append(
                f"enemy fighters broke through to our transports: {out} of {out + flown} squadron"
                f"{'s' if out + flown != 1 else ''} of supplies turned back")
            if not flown:
                continue
        target = Hex.parse(a.target)
        enemies = [u for u in board.at(target) if u.side != side]
        where = geo.near(target)
        if a.mission == "bombing":
            hit = []
            for u in enemies:
                die = dice.d6(f"9 interdiction {target} {u.d.id}")
                result = interdiction(flown, 0, die)
                if result != "no effect":
                    u.immobilised = True
                    if result.startswith("step loss"):
                        u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
                    u.events.append(f"was attacked from the air at {where}: "
                                    + ("losses, and pinned down" if result.startswith("step") else "pinned down"))
                    u.enemy_air = True
                hit.append({"unit": u.d.id, "die": die, "result": result})
            events.append({"kind": "interdiction", "team": team, "at": str(target), "squadrons": flown,
                           "hits": hit})
            # the strike stays on the hex: every enemy unit that tries to pass through it meets it [9]
            earlier = board.interdicted.get(target)
            board.interdicted[target] = (side, flown + (earlier[1] if earlier and earlier[0] == side else 0))
            # what the pilots can tell, not a count: an empty hex and a missed one read alike [10]
            intel.setdefault(team, []).append(
                f"bombing of {where}: " + ("the pilots report hits" if any(h["result"] != "no effect" for h in hit)
                                           else "no result seen"))
        elif a.mission == "recce":
            die = dice.d6(f"12 recce {target} {team}")
            seen = _recce_words(scenario, board, enemies, target, die)
            events.append({"kind": "recce", "team": team, "at": str(target), "die": die, "seen": seen})
            intel.setdefault(team, []).append(f"air recce over {where}: {seen}")
        else:
            events.append(_resupply(board, team, side, target, flown, dice, intel))
    return events


def _resupply(board: _Board, team: str, side: str, at: Hex, squadrons: int, dice: Dice,
              intel: dict[str, list[str]]) -> JSON:
    """Supplies dropped from the air on ``at`` [12 "Air Resupply"]: the ready reckoner with its
    factors (poor terrain, the zone contested by the enemy within 1 km, enemy fighters over the
    battle, enemy flak within 4 km); what lands joins the team's supplies if one of its units is
    within 5 km to collect it [11], else it is lost."""
    geo = board.geo
    factors = []
    if geo.terrain.get(at, "clear") not in ("clear", "polder"):
        factors.append("poor terrain")
    if board.enemies_near(at, side, 1):
        factors.append("zone contested")
    if any(s != side for s in board.fighters_over):
        factors.append("enemy fighters")
    if any(e.t.flak is not None for e in board.enemies_near(at, side, 4)):
        factors.append("enemy flak")
    dropped = squadrons * RESUPPLY_POINTS_PER_SQUADRON
    for n in range(squadrons):  # each squadron a serial under the flak table [13]: air damage (the
        _, damage, _ = _flak_fire(board, side, at, f"resupply {team} {n + 1}", dice)  # reckoner has
        board.transport_damage[side] = board.transport_damage.get(side, 0) + damage   # flak's factor)
    die = dice.d6(f"12 air resupply {at} {team}")
    landed = air_resupply(dropped, die, tuple(factors))
    collected = landed > 0 and any(u.d.team == team for g in at.within(HQ_REACH_KM)
                                   for u in board.where.get(g, ()))
    if collected:
        board.supply[team] = board.supply.get(team, 0) + landed
    where = geo.near(at)
    intel.setdefault(team, []).append(
        f"air resupply on {where}: {landed} of {dropped} supply points landed"
        + ("" if not landed else ", collected" if collected else ", but none of our units could reach them"))
    return {"kind": "resupply", "team": team, "at": str(at), "dropped": dropped, "die": die,
            "factors": factors, "landed": landed, "collected": collected}


def _recce_words(scenario: MegaScenario, board: _Board, enemies: list[_Unit], at: Hex, die: int) -> str:
    """What a recce flight reports of a hex [12], in words."""
    from pbem.systems.megagame.report import battalions

    if not enemies:
        return "no enemy seen"
    vehicles = all(u.t.mechanised for u in enemies)
    moving = any(u.km for u in enemies)
    target: Any = ("vehicles moving" if moving else "vehicles stationary") if vehicles else "infantry moving"
    if not vehicles and not moving:
        return "no report (infantry keeps still under cover)"
    cover = board.geo.close(at) and not (vehicles and board.geo.terrain.get(at) in ("town", "city"))
    got = recce(target, die, crowded=len(enemies) > 3, in_cover=cover)
    if got == "no report":
        return "no report"
    tanks = any(u.t.kind == "armour" for u in enemies)
    parts = []
    if "type" in got:
        parts.append("tanks" if tanks else "vehicles" if vehicles else "infantry")
    if "size" in got:
        parts.append(battalions(sum(u.status for u in enemies)))
    if "direction" in got:
        parts.append("on the move")
    return "enemy spotted" + (": " + ", ".join(parts) if parts else "")


def _movement(board: _Board, board_dice: Dice | None = None) -> list[JSON]:
    """Every route, one kilometre at a time for all units together [6, 7]; a unit passing through a
    hex bombed this turn meets the strike (``board_dice``: the turn's dice; none in the engine's
    dry runs for Game Control, where nothing is bombed yet) [9]."""
    geo = board.geo
    events_out: list[JSON] = []
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
                result = interdiction(strike[1], 0, die)
                events_out.append({"kind": "interdiction-passing", "unit": uid, "at": str(nxt), "die": die,
                                   "result": result})
                if result != "no effect":
                    u.immobilised = True
                    u.enemy_air = True
                    if result.startswith("step loss"):
                        u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
                    stops[uid] = f"attacked from the air passing {nxt}: pinned down [9]"
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
            u.events.append(f"moved {len(path) - 1} km to {geo.near(Hex.parse(path[-1]))}"
                            + (f" and stopped: {_words(stops[u.d.id])}" if u.d.id in stops else ""))
    return events + events_out


def _words(text: str) -> str:
    """A reason without its rule reference, for a team's report."""
    return text.split(" [")[0]


def _objective(u: _Unit) -> Hex | None:
    line = u.line
    if line is None:
        return None
    if line.objective:
        return Hex.parse(line.objective)
    if line.route:
        return Hex.parse(line.route[-1])
    return None


def _may_attack(board: _Board, u: _Unit) -> bool:
    """In contact, with Attack or Breakthrough orders, any status left, not moved more than half its
    move this turn [6]."""
    if not u.on_map or u.line is None or u.line.intention not in FIGHTING or u.status <= 0 \
            or u.t.mode == "defence":
        return False
    return not _moved_too_far_to_attack(board, u)


def _moved_too_far_to_attack(board: _Board, u: _Unit) -> bool:
    """More than half its move this turn: no time left to attack [6]."""
    assert u.hex is not None and u.line is not None
    limit = max_move_km(u.t.troops, board.geo.ground(u.hex), _posture(u.line), night=u.line.timing == "night")
    return limit is not None and u.km > limit / 2


def propose(board: _Board) -> dict[Hex, list[str]]:
    """The engine's grouping [9 "Analysing Combat"]: each unit able to attack (:func:`_may_attack`) goes for the adjacent
    enemy hex nearest its objective (then the lowest hex); one combat per hex attacked."""
    out: dict[Hex, list[str]] = {}
    for u in sorted(board.units.values(), key=lambda x: x.d.id):
        if not _may_attack(board, u):
            continue
        assert u.hex is not None
        targets = sorted({e.hex for e in board.enemies_near(u.hex, u.side, 1) if e.hex is not None})
        if not targets:
            continue
        aim = _objective(u)
        target = min(targets, key=lambda h: (h.distance(aim) if aim else 0, h))
        out.setdefault(target, []).append(u.d.id)
    return out


def proposal(scenario: MegaScenario, state: AnyState, orders: dict[str, OrderSheet]) -> list[tuple[str, list[str], list[str]]]:
    """The combats the engine would propose after this turn's movement, for Game Control before it
    rules [9]: (hex, attackers, defenders). Movement rolls no die; air interdiction, which does, is
    left out (a pinned-down unit may not reach its fight)."""
    if not isinstance(state, MegaState):
        raise InputError("only Game Control, holding the master map, sees the proposal [9]")
    board = _Board(scenario, state)
    for sheet in orders.values():
        for line in sheet.lines:
            for uid in line.units:
                if uid in board.units:
                    board.units[uid].line = line
    _movement(board)
    out = []
    for at, attackers in sorted(propose(board).items()):
        side = board.units[attackers[0]].side
        defenders = [u.d.id for u in board.at(at) if u.side != side]
        out.append((str(at), attackers, defenders))
    return out


def ruling_warnings(scenario: MegaScenario, state: AnyState, orders: dict[str, OrderSheet],
                    rulings: JSON) -> list[str]:
    """What in Game Control's rulings will not apply as the orders stand (no die is rolled: air
    interdiction is left out) -- told before the ruling is signed, not after [9]: a grouped unit
    that cannot attack that hex this turn, an advantage where no combat is proposed or grouped."""
    if not rulings or not isinstance(state, MegaState):
        return []
    ruled = MegaRulings.model_validate(rulings)
    board = _Board(scenario, state)
    for sheet in orders.values():
        for line in sheet.lines:
            for uid in line.units:
                if uid in board.units and board.units[uid].rail is None and not line.rail_to:
                    board.units[uid].line = line
    _movement(board)
    fights = {str(h) for h in propose(board)} | {g.at for g in ruled.groupings}
    out = []
    for g in ruled.groupings:
        at = Hex.parse(g.at)
        for uid in g.attackers:
            u = board.units[uid]
            if not (_may_attack(board, u) and u.hex is not None and u.hex.distance(at) == 1
                    and board.enemy_held(at, u.side)):
                out.append(f"{uid} cannot attack {g.at} this turn as the orders stand (no Attack or "
                           "Breakthrough order, not next to an enemy there after moving, or no status left): "
                           "it will be left out [9]")
    for a in ruled.advantage:
        if a.at not in fights:
            out.append(f"no combat is proposed or grouped at {a.at}: the advantage there will not count [9]")
    return out


def _retire(board: _Board, u: _Unit, km: int, away: list[Hex]) -> int:
    """Move ``u`` up to ``km`` hexes away from ``away`` (straight back [9 note 1]): each step to the
    neighbour farthest from the nearest of them, never into or past the enemy, never across water it
    may not cross; returns the kilometres gone."""
    geo = board.geo
    gone = 0
    for _ in range(km):
        assert u.hex is not None
        here = u.hex
        best: tuple[int, int, Hex] | None = None
        for nb in here.neighbours():
            if nb not in geo.hexes or board.enemy_held(nb, u.side):
                continue
            c = geo.crossing(here, nb, board.blown)
            if c.water != "none" and not may_cross(u.t.troops, c.water, c.bridge):
                continue
            near = min(nb.distance(a) for a in away)
            if near <= min(here.distance(a) for a in away):
                continue
            key = (-near, -sum(nb.distance(a) for a in away), nb)
            if best is None or key < best:
                best = key
        if best is None:
            break
        board.move(u, best[2])
        gone += 1
    return gone


def _artillery_for(board: _Board, side: str, at: Hex, used: set[str]) -> list[_Unit]:
    """Artillery of ``side`` able to support a combat at ``at``: on the map, not moved, status
    left, within long range, not used yet this turn, its supply point paid [9]."""
    out: list[_Unit] = []
    for a in sorted(board.units.values(), key=lambda x: x.d.id):
        if a.side != side or not a.on_map or a.t.artillery is None or a.d.id in used or a.km or a.status <= 0 \
                or (a.line is not None and a.line.counter_battery):
            continue
        assert a.hex is not None
        eff, long = cbt.ARTILLERY_RANGE_KM[a.t.artillery]
        if a.hex.distance(at) > (long or eff) or a.hex == at:
            continue
        if hq_out_of_reach(board.sc, a.d.id, board.positions()) is not None or not board.pay(a.d.team, 1):
            continue  # no shells: its HQ is out of reach [11], or nothing left
        used.add(a.d.id)
        a.fired = True
        a.supply_used += 1
        out.append(a)
    return out


def _combat_unit(u: _Unit, *, fuel: bool) -> cbt.CombatUnit:
    return cbt.CombatUnit(id=u.d.id, profile=u.t.combat_profile(u.steps), kind=u.t.kind,
                          light=u.t.light, mechanised=u.t.mechanised, fuel=fuel,
                          non_tactical=u.line is not None and u.line.posture in ("non-tactical", "rest"))


def _combat(board: _Board, ruled: MegaRulings, dice: Dice, blown: set[str]) -> list[JSON]:
    """Every combat of the turn [9], hex by hex in order, each followed by the further attacks of
    the units that overran into more enemy."""
    groups = propose(board)
    events: list[JSON] = []
    for g in ruled.groupings:  # Game Control's grouping replaces the proposal for its hex [9]
        at = Hex.parse(g.at)
        fit: list[str] = []
        for uid in g.attackers:
            u = board.units[uid]
            if _may_attack(board, u) and u.hex is not None and u.hex.distance(at) == 1 \
                    and board.enemy_held(at, u.side):
                fit.append(uid)
            else:
                events.append({"kind": "note", "text": f"Game Control groups {uid} against {at}, which "
                                                       "it cannot attack this turn: left out [9]"})
        for other in groups.values():
            for uid in fit:
                if uid in other:
                    other.remove(uid)
        groups[at] = fit
    used_art: set[str] = set()
    advantage: dict[tuple[str, str], int] = {(a.at, a.side): a.points for a in ruled.advantage}
    for at in sorted(groups):
        attackers = [board.units[uid] for uid in groups[at] if board.units[uid].hex is not None
                     and board.units[uid].hex.distance(at) == 1]  # type: ignore[union-attr]
        events += _fight(board, at, attackers, dice, blown, used_art, advantage)
        events += _further_attacks(board, dice, blown, used_art, advantage)
    grouped = {uid for uids in groups.values() for uid in uids}
    for uid, u in sorted(board.units.items()):  # an attack ordered and not made: say why [9]
        if u.on_map and u.line is not None and u.line.intention in ("attack", "breakthrough") and not u.attacks \
                and not any(e.startswith("could not attack") for e in u.events):
            why = _why_no_attack(board, u, uid in grouped)
            u.events.append(f"did not attack: {why}")
            events.append({"kind": "note", "text": f"{uid} did not attack: {why}"})
    return events


def _why_no_attack(board: _Board, u: _Unit, grouped: bool) -> str:
    """Why a unit with Attack or Breakthrough orders made no attack this turn, in words with the case."""
    if u.t.mode == "defence":
        return "it can defend itself, not attack [9]"
    if u.status <= 0:
        return "it has no fight left in it [9]"
    if _moved_too_far_to_attack(board, u):
        return f"it moved {u.km} km, more than half its move, and had no time left to attack [6]"
    assert u.hex is not None
    if not board.enemies_near(u.hex, u.side, 1):
        return "no enemy was next to it when the attacks went in [9]"
    if grouped:
        return "the enemy it was to attack had gone from the hex [9]"
    return "Game Control's grouping of the combats left it out [9]"


def _fight(board: _Board, at: Hex, attackers: list[_Unit], dice: Dice, blown: set[str], used_art: set[str],
           advantage: Mapping[tuple[str, str], int], *, further: bool = False) -> list[JSON]:
    """One combat against the enemy in ``at`` [9 "Combat Procedure"]; ``further``: the unprepared
    attack of units that overran into more enemy (:func:`_further_attacks`)."""
    geo = board.geo
    events: list[JSON] = []
    defenders = [u for u in board.at(at)]
    if not attackers or not defenders:
        return events
    side = attackers[0].side
    defenders = [u for u in defenders if u.side != side]
    attackers = [u for u in attackers if u.side == side]
    where = board.positions()
    paid = []
    for u in attackers:  # an attack costs 1 point a unit [9], drawn from its HQ within 5 km [11]
        far = hq_out_of_reach(board.sc, u.d.id, where)
        if far is not None:
            u.events.append(f"could not attack {geo.near(at)}: no supplies reach it ({far.removesuffix(' [11]')})")
        elif board.pay(u.d.team, 1):
            paid.append(u)
        else:
            u.events.append(f"could not attack {geo.near(at)}: no supply left")
    attackers = paid
    if not attackers or not defenders:
        return events
    for u in attackers:
        u.supply_used += 1
        u.attacks += 1
    if all(d.status <= 0 for d in defenders):  # no fight left in them: captured [9]
        for d in defenders:
            board.remove(d)
            d.events.append(f"overrun at {geo.near(at)} and captured: large numbers of prisoners")
        for u in attackers:
            u.fought = True
            u.events.append(f"overran the enemy at {geo.near(at)}: large numbers of prisoners taken")
        _advance(board, attackers, at)
        events.append({"kind": "captured", "at": str(at), "units": [d.d.id for d in defenders]})
        return events
    att_art = _artillery_for(board, side, at, used_art)
    def_art = _artillery_for(board, defenders[0].side, at, used_art)
    air = "none" if further else _support_level(board, attackers, side)
    close = geo.close(at)
    a_side = cbt.CombatSide(
        units=tuple(_combat_unit(u, fuel=board.supply.get(u.d.team, 0) > 0) for u in attackers),
        artillery=tuple(cbt.Artillery(a.d.id, a.t.combat_profile(a.steps),
                                      a.t.artillery or "field", a.hex.distance(at) if a.hex else 99)
                        for a in att_art),
        air=air, prepared=not further and all(u.prepared for u in attackers), close_country=close,
        advantage=advantage.get((str(at), "attacker"), 0), other_formation=_strays(attackers))
    d_side = cbt.CombatSide(
        units=tuple(_combat_unit(u, fuel=board.supply.get(u.d.team, 0) > 0) for u in defenders),
        artillery=tuple(cbt.Artillery(a.d.id, a.t.combat_profile(a.steps),
                                      a.t.artillery or "field", a.hex.distance(at) if a.hex else 99)
                        for a in def_art),
        air=cbt.air_level("allied-ground-attack", cover) if (cover := _cab_cover(board, defenders)) else "none",
        prepared=True, close_country=close, advantage=advantage.get((str(at), "defender"), 0),
        other_formation=_strays(defenders))
    hold = [d.d.id for d in defenders if d.line and d.line.intention == "hold" and d.line.stand_fast
            and d.status > 0]  # a spent unit cannot hold at all costs [9]
    before = (sum(u.status for u in attackers), sum(d.status for d in defenders))
    die = dice.d6(f"9 further attack at {at}" if further else f"9 combat at {at}")
    result = cbt.resolve(a_side, d_side, die, hold=hold, city=geo.terrain.get(at) == "city")
    for u in (*attackers, *defenders):
        u.steps = result.profiles[u.d.id].steps_lost
        u.fought = True
    for u in attackers:
        u.enemy_artillery = u.enemy_artillery or bool(def_art)
        if u.line and u.line.intention == "probe":
            u.identified = True  # a probe identifies the facing units [5]
    for d in defenders:
        d.enemy_artillery = d.enemy_artillery or bool(att_art)
        d.enemy_air = d.enemy_air or air != "none"
    ev: dict[str, Any] = {
        "kind": "combat", "at": str(at), "attackers": [u.d.id for u in attackers],
        "defenders": [d.d.id for d in defenders], "artillery": [a.d.id for a in att_art + def_art],
        "air": air, "defender_air": d_side.air, "attacker_score": result.attacker_score.value,
        "defender_score": result.defender_score.value, "attacker_lines": result.attacker_score.lines,
        "defender_lines": result.defender_score.lines, "die": die, "result": result.result,
        "band": result.band, "losses": result.losses, "retreat": result.retreat}
    if further:
        ev["further"] = True
    events.append(ev)
    events += _after_combat(board, result, attackers, defenders, at, dice, blown, before)
    for units, level in ((attackers, air), (defenders, d_side.air)):  # what the team's own air did [9]
        if level != "none":
            for u in units:
                if u.events:
                    u.events[-1] += f", with {level} support from the air"
    return events


def _further_attacks(board: _Board, dice: Dice, blown: set[str], used_art: set[str],
                     advantage: Mapping[tuple[str, str], int]) -> list[JSON]:
    """The unprepared attack after a successful overrun [results table, special results]: units
    whose overrun after a Total Success or a Success brought them into contact with more enemy --
    not the enemy they have just beaten, which may have retired no farther than next to them --
    attack again in the same turn, unprepared (-2 a unit, no close air support: it flew in the
    attack it was asked for), each against the adjacent enemy hex nearest its objective, those
    against one hex in one combat, paying their supply point as any attack [9, 11]. The text leaves
    the attack to the player's discretion: the Breakthrough order is that choice, made when the
    sheet is written ("the units fight more than one action during the turn" [5]). A unit makes at
    most one further attack a turn ("no more than one attack per turn ... except overrun attacks"
    [9]); should that attack overrun again, the unit drives on but attacks no more."""
    onward, board.onward = board.onward, []
    events: list[JSON] = []
    groups: dict[Hex, list[_Unit]] = {}
    for u, beaten in onward:
        if not u.on_map or u.hex is None or u.status <= 0 or u.attacks != 1:
            continue
        targets = sorted({e.hex for e in board.enemies_near(u.hex, u.side, 1)
                          if e.hex is not None and e.d.id not in beaten})
        if not targets:
            continue
        aim = _objective(u)
        target = min(targets, key=lambda h: (h.distance(aim) if aim else 0, h))
        groups.setdefault(target, []).append(u)
    for at in sorted(groups):
        events += _fight(board, at, groups[at], dice, blown, used_art, advantage, further=True)
    board.onward = []  # an overrun of the further attack drives on, and attacks no more
    return events


def _counter_battery(board: _Board, dice: Dice) -> list[JSON]:
    """Counter-battery fire [9]: every enemy battery that fired this turn within range of artillery
    given to counter-battery is looked for -- a 6 fixes it, +1 for each turn after the first that it
    has fired from the same place -- and a fixed battery is shelled on the interdiction table, the
    counter-battery battalions in range counting as the force."""
    events: list[JSON] = []
    hunters = [u for u in sorted(board.units.values(), key=lambda x: x.d.id)
               if u.on_map and u.line is not None and u.line.counter_battery and u.t.artillery is not None
               and u.status > 0]
    for target in sorted((u for u in board.units.values() if u.fired and u.on_map), key=lambda x: x.d.id):
        assert target.hex is not None
        guns = [h for h in hunters if h.side != target.side and h.hex is not None
                and h.hex.distance(target.hex) <= max(x for x in cbt.ARTILLERY_RANGE_KM[h.t.artillery or "field"]
                                                      if x is not None)]
        if not guns:
            continue
        same_place = target.fired_before + 1 if not target.km else 1
        die = dice.d6(f"9 counter-battery fix {target.d.id}")
        ev: dict[str, Any] = {"kind": "counter-battery", "battery": target.d.id, "by": [g.d.id for g in guns],
                              "die": die, "turns": same_place, "fixed": counter_battery_fix(die, same_place)}
        if ev["fixed"]:
            hit = dice.d6(f"9 counter-battery fire {target.d.id}")
            result = interdiction(len(guns), 0, hit)
            ev["fire"], ev["result"] = hit, result
            if result.startswith("step loss"):
                target.steps = target.t.combat_profile(target.steps).lose(1).steps_lost
            if result != "no effect":
                target.events.append("came under counter-battery fire" + (" and lost guns" if result.startswith("step")
                                                                          else ""))
                target.enemy_artillery = True
        events.append(ev)
    return events


def _strays(units: list[_Unit]) -> int:
    """Units not of the division leading the fight, the one with most units in it (note 6)."""
    divisions = sorted(u.d.division or u.d.formation for u in units)
    lead = max(divisions, key=lambda name: (divisions.count(name), name)) if divisions else ""
    return sum(1 for name in divisions if name != lead)


def _advance(board: _Board, attackers: list[_Unit], at: Hex) -> None:
    """The attacker takes a vacated hex (the first attacker with Attack or Breakthrough orders)."""
    if board.at(at):
        return
    for u in attackers:
        if u.line and u.line.intention in ("attack", "breakthrough") and u.status > 0:
            board.move(u, at)
            u.events.append(f"took {board.geo.near(at)}")
            return


def _overrun(board: _Board, result: cbt.Outcome, attackers: list[_Unit], defenders: list[_Unit], at: Hex,
             status: tuple[int, int]) -> list[JSON]:
    """A successful overrun [results table, special results]: attackers mostly armoured, with twice
    the defenders' status (before the fight) and Breakthrough orders, go on through the defeated
    enemy towards their objective -- half their remaining move after a Total Success or a Success,
    a quarter after a Limited Success -- and halt on meeting more enemy; after anything less than a
    Total Success each takes one more step loss. After a Total Success or a Success a unit that
    ends its move in contact with more enemy may attack again, unprepared (:func:`_further_attacks`);
    after a Limited Success it halts there."""
    band = result.band
    armour = sum(1 for u in attackers if u.t.kind == "armour")
    if 2 * armour <= len(attackers) or status[0] < 2 * status[1] or not all(
            u.line is not None and u.line.intention == "breakthrough" for u in attackers):
        return []
    share = Fraction(1, 4) if band == "limited success" else Fraction(1, 2)
    geo = board.geo
    moved: list[JSON] = []
    for u in attackers:
        if not u.on_map or u.line is None or u.hex is None:
            continue
        if band != "total success":
            u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
        full = max_move_km(u.t.troops, geo.ground(u.hex), _posture(u.line)) or Fraction(0)
        km = int(max(Fraction(0), full - u.km) * share)
        goal = _objective(u)
        path = [str(u.hex)]
        for _ in range(km):
            if goal is None or u.hex == goal or board.enemies_near(u.hex, u.side, 1):
                break
            here = u.hex
            steps = [nb for nb in sorted(here.neighbours(), key=lambda h: (h.distance(goal), h))
                     if nb in geo.hexes and not board.enemy_held(nb, u.side)
                     and nb.distance(goal) < here.distance(goal)]
            steps = [nb for nb in steps if (c := geo.crossing(here, nb, board.blown)).water == "none"
                     or may_cross(u.t.troops, c.water, c.bridge)]
            if not steps:
                break
            board.move(u, steps[0])
            u.km += 1
            path.append(str(steps[0]))
        u.events.append(f"broke through at {geo.near(at)}" + (f" and drove on {len(path) - 1} km to "
                                                                f"{geo.near(u.hex)}" if len(path) > 1 else ""))
        moved.append({"unit": u.d.id, "path": path})
        beaten = frozenset(d.d.id for d in defenders)
        if band != "limited success" and any(e.d.id not in beaten for e in board.enemies_near(u.hex, u.side, 1)):
            board.onward.append((u, beaten))  # in contact with more enemy than it beat
    return [{"kind": "overrun", "at": str(at), "band": band, "moves": moved}]


def _after_combat(board: _Board, result: cbt.Outcome, attackers: list[_Unit], defenders: list[_Unit],
                  at: Hex, dice: Dice, blown: set[str], status: tuple[int, int] = (0, 0)) -> list[JSON]:
    geo = board.geo
    events: list[JSON] = []
    where = geo.near(at)
    band = result.band
    words = {"total success": "the enemy was routed", "success": "the enemy was driven back",
             "limited success": "the enemy gave ground", "confused combat": "the fighting was confused: "
             "both sides hold", "attackers badly beaten": "the attack was thrown back"}[band]
    retires = result.retreat.startswith("retires")
    if not retires and band in ("total success", "success", "limited success"):
        # the defenders stood fast (or a city held them): beaten, they did not give ground [9]
        words = "the enemy held its ground at all costs, and paid for it"
    km = 0
    if retires:
        if band == "total success":
            km = dice.d6(f"9 retreat at {at} (1)") + dice.d6(f"9 retreat at {at} (2)")
        elif band == "success":
            km = dice.d6(f"9 retreat at {at}")
        else:
            km = 2
        if geo.close(at):
            km = max(1, ceil(Fraction(km, 2)))
    for u in attackers:
        u.events.append(f"attacked the enemy at {where}: {words}")
    for d in defenders:
        if band in ("attackers badly beaten",):
            d.events.append(f"held {where} and threw the attack back")
        elif retires:
            gone = _retire(board, d, km, [a.hex for a in attackers if a.hex is not None])
            if gone == 0 and d.status <= 0:
                board.remove(d)
                d.events.append(f"was overrun at {where} and could not get away: captured")
            else:
                d.events.append(f"was attacked at {where} and fell back {gone} km to "
                                f"{geo.near(d.hex) if d.hex else where}")
        elif d.status <= 0:  # spent: it falls back if it can, else it is captured [9]
            if _retire(board, d, 1, [a.hex for a in attackers if a.hex is not None]) == 0:
                board.remove(d)
                d.events.append(f"was attacked at {where}, no longer able to fight, and could not get "
                                "away: captured")
            else:
                d.events.append(f"was attacked at {where}, no longer able to fight, and fell back to "
                                f"{geo.near(d.hex) if d.hex else where}")
        else:
            d.events.append(f"was attacked at {where} and held: {result.retreat.split(':')[0]}")
    if band == "attackers badly beaten":
        for u in attackers:
            _retire(board, u, 1, [at])
    if retires:
        _advance(board, attackers, at)
        if not board.at(at) or all(u.side == attackers[0].side for u in board.at(at)):
            events += _overrun(board, result, attackers, defenders, at, status)
    lost = LOSS_PER_UNIT[band]
    for d in defenders:  # the loser's supplies, whether it retires or holds [results table]
        if lost:
            taken = min(lost, board.supply.get(d.d.team, 0))
            board.supply[d.d.team] = board.supply.get(d.d.team, 0) - taken
    # A bridge fought over blows on a 1 [8].
    for nb in at.neighbours():
        c = geo.crossing(at, nb, frozenset(blown))
        if c.bridge != "none" and c.bridge_name and c.bridge_name not in blown:
            die = dice.d6(f"8 bridge {c.bridge_name}")
            if bridge_blows(die):
                blown.add(c.bridge_name)
                board.blown = frozenset(blown)
            events.append({"kind": "bridge", "bridge": c.bridge_name, "die": die,
                           "blown": c.bridge_name in blown})
    return events


def _air_words(event: JSON) -> str:
    """The air support a combat had, in the log's words (close air support, cab rank, heavies)."""
    parts = [f"{who} {event.get(key)}" for who, key in (("attacker", "air"), ("defender", "defender_air"))
             if event.get(key, "none") != "none"]
    return f" (air support [9, 12]: {', '.join(parts)})" if parts else ""


SUPPORT = ("cas", "heavy")
"""Air missions flown in support of an attack: ground attack squadrons, heavy bombers [9, 12]."""


def _support_level(board: _Board, attackers: list[_Unit], side: str) -> cbt.AirLevel:
    """The air support of an attack [9]: the squadrons its lines asked for, as far as they flew
    (a team's requests beyond what its side could fly are cut in the air orders; what flew is spent
    attack by attack), each kind on its own row of the table -- ground attack, heavy bombers -- and
    the better level of the two counts (reading: the text gives no rule for both at once)."""
    asked: dict[tuple[str, str], int] = {}
    for u in attackers:
        for a in (u.line.air if u.line else []):
            if a.mission in SUPPORT:
                asked[(u.d.team, a.mission)] = asked.get((u.d.team, a.mission), 0) + a.squadrons
    flown = {"cas": 0, "heavy": 0}
    for (team, mission), n in sorted(asked.items()):
        got = min(n, board.support.get((team, mission), 0))
        board.support[(team, mission)] = board.support.get((team, mission), 0) - got
        flown[mission] += got
    flown["cas"] += _cab_cover(board, attackers)
    levels = [cbt.air_level("allied-ground-attack" if side == "allied" else "german-ground-attack", flown["cas"])
              if flown["cas"] else "none",
              cbt.air_level("heavy-bomber", flown["heavy"]) if flown["heavy"] else "none"]
    return max(levels, key=lambda lv: cbt.AIR_FACTOR[lv])


def _cab_cover(board: _Board, units: list[_Unit]) -> int:
    """The squadrons of cover the cab ranks of ``units``' teams give a combat they fight in [9]:
    on call, each rank answers every combat of its formation that turn (a reading)."""
    return sum(board.cab[t].cover for t in sorted({u.d.team for u in units}) if t in board.cab)


def _drop(scenario: MegaScenario, board: _Board, u: _Unit, turn: int, dice: Dice, *, night: bool = False) -> JSON:
    """One unit delivered by parachute or glider [12]: the drop table with the enemy on the drop
    zone (an enemy unit within 1 km) and flak within 4 km as modifiers, and by day unbeaten enemy
    fighters over the battle; a loss is a step. By day a lost step is lost for good on a second 1,
    else it comes back at the end of the turn of the drop (one clear turn). By night (ordered with
    :func:`night_lift`) the night table: a loss on a 1 or 2, for good on a second 1 or 2, else the
    scattered men come in after 1d6 turns, the turn of the drop the first of them (a 1: as by
    day). A unit landing by glider (``UnitDef.glider``) on marsh or polder rolls once more: a 1 is
    a permanent status loss."""
    at = Hex.parse(u.d.hex)
    enemy_on_dz = bool(board.enemies_near(at, u.side, 1))
    flak_near = any(e.t.flak is not None for e in board.enemies_near(at, u.side, 4))
    first, second = dice.d6(f"12 drop {u.d.id} (1)"), dice.d6(f"12 drop {u.d.id} (2)")
    fighters = any(s != u.side for s in board.fighters_over)
    result = drop(first, second, night=night, fighters=fighters, flak=flak_near, enemy_on_dz=enemy_on_dz)
    words = {"intact": "landed together", "status loss, recovered later": "landed scattered",
             "permanent status loss": "suffered heavy losses landing"}[result]
    ev: dict[str, Any] = {"kind": "drop", "unit": u.d.id, "dice": [first, second], "enemy_on_dz": enemy_on_dz,
                          "flak": flak_near, "fighters": fighters, "result": result, "turn": turn}
    if result != "intact":
        u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
        if result == "status loss, recovered later":
            u.scattered += 1
            if night:
                wait = dice.d6(f"12 night drop {u.d.id} stragglers")
                board.stragglers[u.d.id] = turn + wait - 1
                ev["stragglers_die"] = wait
    if u.d.glider and board.geo.terrain.get(at) in POOR_LANDING:  # gliders on marsh or polder [12]
        die = dice.d6(f"12 glider landing {u.d.id}")
        ev["glider_die"] = die
        if glider_poor_terrain(die):
            u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
            words += ", and gliders broke up landing on the soft ground"
    hit, damage, fired = _flak_fire(board, u.side, at, u.d.id, dice)
    if fired:  # the flak table, in addition to the drop table's dispersal [13]
        ev["flak_dice"] = fired
        if hit:
            u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
            words += ", and flak brought down some of the aircraft carrying it"
        board.transport_damage[u.side] = board.transport_damage.get(u.side, 0) + damage
    if night:
        ev["night"] = True
    u.events.append(("dropped by night and " if night else "") + words)
    return ev


def _flak_fire(board: _Board, side: str, at: Hex, serial: str, dice: Dice) -> tuple[bool, int, list[int]]:
    """The flak table [13] on one air serial dropping or landing on ``at``: every enemy flak unit
    within 4 km that can still fight rolls once (a reading: the text gives a die per serial and a
    row per kind of flak), on the column of a drop within 2 km or within 4 km. Returns whether the
    serial's load took a loss (a status), the air damage done (two damage are a squadron lost, over
    the whole turn) and the dice."""
    loss, damage, rolled = False, 0, []
    for f in sorted(board.enemies_near(at, side, 4), key=lambda e: e.d.id):
        if f.t.flak is None or f.status <= 0 or f.hex is None:
            continue
        target: Literal["landing within 2 km", "landing within 4 km"] = \
            "landing within 2 km" if f.hex.distance(at) <= 2 else "landing within 4 km"
        die = dice.d6(f"13 flak {f.d.id} on {serial}")
        rolled.append(die)
        result = flak(f.t.flak, target, die)
        loss = loss or result == "loss"
        damage += result != "no effect"
    return loss, damage, rolled


POOR_LANDING = ("marsh", "polder")
"""Terrain where gliders risk breaking up on landing [12]."""


TRANSPORT_LIFT: dict[str, int] = {"horse-drawn": 4}
"""Supply points a supply transport unit carries [11b], by its troops; 10 for lorries (Annex A: the
RASC company's and the supply unit's logistics lift of 10, the Fahrkolonne's 4 as read in
scenarios/megagame-profiles.json; the scenario's unit types do not carry the lift)."""
LORRY_LIFT = 10


def is_transport(t: UnitType) -> bool:
    """A supply transport unit [11b] (a RASC company, a Kolonne): a unit of kind "other" that is
    not a dump (reading: the scenario's unit types mark dumps, not transports)."""
    return t.kind == "other" and not t.dump


def _park(board: _Board, team: str, at: Hex, points: int, left_by: str = "") -> None:
    for i, p in enumerate(board.parked):
        if p.team == team and p.hex == str(at):
            board.parked[i] = p.model_copy(update={"points": p.points + points})
            return
    board.parked.append(ParkedSupply(team=team, hex=str(at), points=points, left_by=left_by))


def _parked_here(board: _Board, team: str, at: Hex) -> ParkedSupply | None:
    return next((p for p in board.parked if p.team == team and p.hex == str(at)), None)


def _take_parked(board: _Board, p: ParkedSupply, points: int) -> None:
    board.parked.remove(p)
    if p.points > points:
        board.parked.append(p.model_copy(update={"points": p.points - points}))


def _supply_moves(board: _Board) -> None:
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
            _park(board, u.d.team, start, u.stock, u.d.id)
            u.events.append(f"moved without its supply counters: {u.stock} supply points left parked at "
                            f"{geo.near(start)} for the transport units to bring on")
            u.stock = 0
    for p in list(board.parked):
        at = Hex.parse(p.hex)
        here = board.at(at)
        if here and all(x.side != team_side(board.sc, p.team) for x in here):
            board.parked.remove(p)  # the enemy holds the hex alone: the counters are lost
            continue
        dump = next((x for x in here if x.d.team == p.team and x.t.dump), None)
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
            dump = next((x for x in board.at(u.hex) if x.d.team == u.d.team and x.t.dump), None)
            hq = next((x for x in board.at(u.hex) if x.d.team == u.d.team and x.t.kind == "hq"), None)
            if dump is not None:
                dump.stock += load
                u.events.append(f"unloaded {load} supply points into {dump.d.name}")
                load = 0
            elif hq is not None:
                board.supply[u.d.team] = board.supply.get(u.d.team, 0) + load
                u.events.append(f"unloaded {load} supply points at {hq.d.name}")
                load = 0
        stack = _parked_here(board, u.d.team, u.hex)
        room = TRANSPORT_LIFT.get(u.t.troops, LORRY_LIFT) - load
        if stack is not None and room > 0:
            taken = min(room, stack.points)
            _take_parked(board, stack, taken)
            load += taken
            u.events.append(f"loaded {taken} parked supply points at {geo.near(u.hex)}")
        if load:
            board.loads[u.d.id] = load
    board.parked.sort(key=lambda x: (x.team, x.hex))


def _deliveries(board: _Board) -> None:
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
               and h.hex is not None and h.hex.distance(u.hex) <= u.d.reach_km]
        if not hqs:
            u.events.append(f"no HQ of ours within {u.d.reach_km} km: it delivered nothing")
            continue
        given = min(u.d.lift, u.stock)
        u.stock -= given
        board.supply[u.d.team] = board.supply.get(u.d.team, 0) + given
        u.events.append(f"delivered {given} supply points to the HQs ({u.stock} left)")


def _rail_turn(board: _Board, u: _Unit, events: list[JSON]) -> str:
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
        u.rail = RailTrip(to=trip.to, phase="disembarking", left=1) if vehicles else None
        return str(u.hex)
    u.rail = None  # got off [6]
    return str(u.hex)


def _supply_and_contact(board: _Board, scenario: MegaScenario) -> None:
    """Dumps deliver to their HQs [11]; fuel for mechanised units that moved or fought [9];
    contact with enemy formations, counted per turn for identification [10]."""
    _deliveries(board)
    for u in sorted(board.units.values(), key=lambda x: x.d.id):
        if not u.on_map:
            continue
        if u.t.mechanised and (u.km or u.fought) and board.pay(u.d.team, 1):
            u.supply_used += 1
        assert u.hex is not None
        facing = {e.d.formation for e in board.enemies_near(u.hex, u.side, 1)}
        u.contact = {f: u.contact.get(f, 0) + 1 for f in sorted(facing)}


def _next_state(scenario: MegaScenario, state: MegaState, board: _Board, blown: set[str], dice: Dice,
                events: list[JSON]) -> MegaState:
    turn = state.turn + 1
    over = turn > scenario.turns
    units: dict[str, UnitState] = {}
    facts: dict[str, UnitFacts] = {}
    night_drops: list[str] = []
    for d in scenario.units:
        u = board.units[d.id]
        if u.scattered and u.on_map and board.stragglers.get(d.id, 0) <= state.turn:
            # stragglers of a drop rejoin at the end of its turn; of a night drop, after 1d6 turns [12]
            u.steps = max(0, u.steps - u.scattered)
            u.scattered = 0
            board.stragglers.pop(d.id, None)
            u.events.append("its scattered men have come in")
        hex_: str | None = str(u.hex) if u.hex is not None else None
        if hex_ is None and not u.gone and not over and (
                d.arrives == turn if not d.by_air else d.arrives <= turn):
            if d.by_air and flying(scenario, turn, "england") == "none":
                if d.arrives == turn:
                    events.append({"kind": "delayed", "unit": d.id, "turn": turn})
            elif d.by_air and d.id not in board.night_lift and board.stream_attack.get(u.side):
                # its serial out of action [12] (by day: the night table counts no fighters)
                board.stream_attack[u.side] -= 1
                events.append({"kind": "turned-back", "unit": d.id, "turn": turn})
                u.events.append("its aircraft were turned back by enemy fighters: it comes with the next lift")
            else:
                hex_ = d.hex  # reinforcements arrive at the start of their turn
                if d.by_air:
                    night = d.id in board.night_lift
                    events.append(_drop(scenario, board, u, turn, dice, night=night))
                    u.landed = True
                    if night:
                        night_drops.append(d.id)
                u.events.append(f"arrived at {board.geo.near(Hex.parse(d.hex))}"
                                + (f", {turn - d.arrives} turn{'s' if turn - d.arrives > 1 else ''} late "
                                   "for the weather" if turn > d.arrives else ""))
        if u.rail is not None and not u.gone and hex_ is not None:
            hex_ = _rail_turn(board, u, events)
        rested = 0
        if u.hex is not None and not u.gone and u.line is not None and u.line.posture == "rest" and not u.km \
                and not u.fought and not board.enemies_near(u.hex, u.side, 1):  # rest, out of contact [5]
            rested = state.units[d.id].rested + 1
            if rested >= REST_TURNS:
                rested = 0
                if u.steps > 0:
                    u.steps -= 1
                    u.events.append("rested and recovered some of its fighting effectiveness")
                    events.append({"kind": "rested", "unit": d.id})
        units[d.id] = UnitState(hex=hex_, steps=u.steps, gone=u.gone, scattered=u.scattered, landed=u.landed,
                                rail=u.rail, rested=rested,
                                stock=u.stock,
                                prepared=u.line is not None and u.line.intention == "prepare",
                                contact=u.contact,
                                fired=(u.fired_before + 1 if not u.km else 1) if u.fired else 0)
        if hex_ is None and not u.events:
            continue
        enemy = board.enemies_near(u.hex, u.side, 1) if u.hex is not None and not u.gone else []
        formation = enemy[0].d.formation if enemy else ""
        turns = u.contact.get(formation, 0)
        if enemy and u.line is not None and u.line.intention == "probe":
            u.identified = True  # a probe that meets the enemy identifies it [5], fighting or not
        facts[d.id] = UnitFacts(
            events=u.events, enemy_status=sum(e.status for e in enemy),
            enemy_tanks=any(e.t.kind == "armour" and e.status > 0 for e in enemy),
            enemy_artillery=u.enemy_artillery, enemy_air=u.enemy_air, enemy_formation=formation,
            turns_in_contact=max(turns, 2) if u.identified and turns else turns, supply_used=u.supply_used)
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
        for uid, n in _fighter_losses(scenario, side_, state.turn, board.air_lost, damage // 2,
                                      role="transport").items():
            board.air_lost[uid] = board.air_lost.get(uid, 0) + n
    return MegaState(turn=min(turn, scenario.turns) if over else turn, over=over, units=units, supply=supply,
                     blown=sorted(blown), control=control, facts=facts,
                     air_lost={k: v for k, v in sorted(board.air_lost.items()) if v}, night_drops=night_drops,
                     cab_rank={t: c for t, c in sorted(board.cab.items()) if c.until >= turn and not over},
                     stragglers=dict(sorted(board.stragglers.items())), parked=board.parked,
                     loads=dict(sorted(board.loads.items())))


# -- a team's view --------------------------------------------------------------------------------


def state_words(scenario: MegaScenario, state: MegaState, uid: str) -> str:
    """A unit's effectiveness in words [10]; a defence-only unit (a headquarters, a supply column:
    its profile in round brackets) is not measured on the fighting units' scale."""
    t = scenario.types[_unit(scenario, uid).type]
    status = status_of(scenario, state, uid)
    if t.mode != "defence" or status <= 0:
        return effectiveness(status)
    if status >= t.combat_profile().levels[0]:
        return "in good order (it can defend itself, not attack)"
    return "shaken (it can defend itself, not attack)"


def team_view(scenario: MegaScenario, state: MegaState, team: str) -> JSON:
    """What ``team`` knows [10], as JSON: no status number anywhere."""
    from pbem.systems.megagame.report import EnemySeen, unit_report
    from pbem.systems.megagame.report import UnitFacts as Facts

    geo = scenario.map.geo
    side = team_side(scenario, team)
    sides = {t.id: t.side for t in scenario.teams}
    own: list[dict[str, Any]] = []
    friends: list[dict[str, str]] = []
    ours: list[Hex] = []
    for u in scenario.units:
        s = state.units[u.id]
        if s.hex is None or s.gone:
            continue
        if u.team == team:
            own.append({"id": u.id, "hex": s.hex, "state": state_words(scenario, state, u.id),
                        "prepared": s.prepared, "landed": s.landed,
                        "rail": f"{s.rail.phase} (for {s.rail.to})" if s.rail else ""})
        if sides[u.team] == side:
            ours.append(Hex.parse(s.hex))
            if u.team != team:
                friends.append({"id": u.id, "team": u.team, "hex": s.hex})
    mine = [Hex.parse(o["hex"]) for o in own]
    # the other teams of the side: those near enough to matter (10 km of one of ours), as liaison
    # officers would report them -- a corps' whole order of battle would swell every report
    friends = [f for f in friends if any(Hex.parse(f["hex"]).distance(m) <= FRIENDS_KM for m in mine)]
    seen: dict[Hex, list[UnitDef]] = {}
    for u in scenario.units:
        s = state.units[u.id]
        if s.hex is None or s.gone or sides[u.team] == side:
            continue
        h = Hex.parse(s.hex)
        if any(h.distance(o) <= 2 for o in ours):  # in contact or within sight [6, 10]
            seen.setdefault(h, []).append(u)
    from pbem.systems.megagame.report import battalions

    enemy = []
    for h in sorted(seen):
        units = seen[h]
        strength = sum(status_of(scenario, state, u.id) for u in units)
        tanks = any(scenario.types[u.type].kind == "armour" for u in units)
        enemy.append({"hex": str(h), "where": geo.near(h),
                      "seen": battalions(strength) + (", with tanks" if tanks else "")})
    reports = []
    for u in scenario.units:
        f = state.facts.get(u.id)
        s = state.units[u.id]
        if u.team != team or f is None or not (f.events or f.enemy_status or f.enemy_tanks or f.supply_used):
            continue  # nothing to report of a unit that did nothing and met nobody
        facing = None
        if f.enemy_status or f.enemy_tanks:
            facing = EnemySeen(status=f.enemy_status, tanks=f.enemy_tanks, artillery=f.enemy_artillery,
                               air=f.enemy_air, formation=f.enemy_formation,
                               turns_in_contact=f.turns_in_contact)
        location = "lost" if s.gone else geo.near(Hex.parse(s.hex)) if s.hex else "not yet arrived"
        reports.append(unit_report(Facts(name=f"{u.name} ({u.id})", status=status_of(scenario, state, u.id),
                                         location=location, enemy=facing, supply_used=f.supply_used,
                                         events=tuple(f.events), words=state_words(scenario, state, u.id))))
    return {"turn": state.turn, "date": turn_label(scenario, state.turn), "over": state.over, "team": team,
            "supply": state.supply.get(team, 0), "units": own, "friends": friends, "enemy": enemy,
            "reports": reports, "air": list(state.intel.get(team, [])), "blown": list(state.blown),
            "air_lost": {a.id: state.air_lost[a.id] for a in scenario.air
                         if a.side == side and state.air_lost.get(a.id)},
            "night_drops": [uid for uid in state.night_drops if _unit(scenario, uid).team == team],
            "cab_rank": (state.cab_rank[team].model_dump(mode="json")
                         if team in state.cab_rank and state.cab_rank[team].until >= state.turn else None),
            "objectives": [{"name": o.name, "hex": o.hex, "points": o.points,
                            "held_by": state.control.get(o.hex, o.held_by)} for o in scenario.objectives]}
