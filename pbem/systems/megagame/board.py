"""The board of a megagame turn: the working copy of every unit while a turn is adjudicated
(:class:`Board`, :class:`BoardUnit`) and the queries of the scenario that every phase, the order
sheet's checks and the views share (a team's side, a unit's status, the turn's date, an HQ in
reach) [2, 3, 9, 11]."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Literal

from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.systems.megagame import combat as cbt
from pbem.systems.megagame.model import (
    CabRank,
    Crossing,
    Geo,
    MegaScenario,
    MegaState,
    ParkedSupply,
    RailTrip,
    TeamView,
    UnitDef,
    UnitType,
)
from pbem.systems.megagame.movement import MoveTable, Posture, move_table
from pbem.systems.megagame.orders import AirRequest, OrderLine
from pbem.systems.megagame.supply import HQ_REACH_KM, hq_in_reach

ATTACKING = ("attack", "probe", "breakthrough")
"""Intentions that close with the enemy: they move on past the passing distance until contact [6]."""
FIGHTING = ("attack", "breakthrough")
"""Intentions that attack once in contact; a Probe conforms to the enemy and identifies it [5]."""


def bridge_between(crossing: Crossing) -> str:
    """The name of the bridge of a hexside's crossing, "" for none (or an unnamed one: only named
    bridges are marked blown, or safe [8])."""
    return crossing.bridge_name if crossing.bridge != "none" and crossing.bridge_name else ""


def turn_label(scenario: MegaScenario, turn: int) -> str:
    """``18 September, morning`` for turn 3 of a game starting on the 17th [3]."""
    n = turn - 1 + (1 if scenario.first_half == "afternoon" else 0)
    return f"{scenario.first_day + n // 2} September 1944, {'afternoon' if n % 2 else 'morning'}"


def hq_out_of_reach(scenario: MegaScenario, uid: str, where: Mapping[str, Hex | None]) -> str | None:
    """Why ``uid`` cannot draw supplies from its HQ [11] (``where``: unit -> hex, None when off the
    map or gone), or None when it can: the HQ is on the map within 5 km, or the unit has none."""
    d = unit_def(scenario, uid)
    if d.hq is None or d.hq == uid:
        return None
    here, hq = where.get(uid), where.get(d.hq)
    if hq is None:
        return f"its HQ ({d.hq}) is not on the map"
    if here is not None and not hq_in_reach(here, hq):
        return f"its HQ ({d.hq}) is {here.distance(hq)} km away, more than {HQ_REACH_KM} [11]"
    return None


def nation_of(unit: UnitDef, side: str) -> str:
    """Whose supply counters a unit holds and uses [11]: the scenario's ``nation``, else German for
    the German side and British for the Allies (reading: a scenario that names no nation fights
    with one kind of ammunition a side)."""
    return unit.nation or ("german" if side == "german" else "british")


def profile_of(scenario: MegaScenario, unit: UnitDef, steps: int) -> cbt.Profile:
    return scenario.types[unit.type].combat_profile(steps)


def status_of(scenario: MegaScenario, state: MegaState, uid: str) -> int:
    return profile_of(scenario, unit_def(scenario, uid), state.units[uid].steps).status


def unit_def(scenario: MegaScenario, uid: str) -> UnitDef:
    return scenario.unit[uid]


def team_side(scenario: MegaScenario, team: str) -> Literal["allied", "german"]:
    for t in scenario.teams:
        if t.id == team:
            return t.side
    raise KeyError(team)


class BoardUnit(Plain):
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
    pinned_by: str = ""
    """What pinned it down this turn, in ELETIS words ("from the air", "by artillery fire") [9, 10]."""
    scattered: int = 0
    fired_before: int = 0
    fired: bool = False
    landed: bool = False
    stock: int = 0
    rail: RailTrip | None = None
    met_status: int = 0
    """The enemy's strength (status) in the fights it fought this turn, the greatest [10 ELETIS]."""
    met_tanks: bool = False
    """Enemy tanks fought it this turn [10 ELETIS: Type]."""
    met_air: bool = False
    """Enemy air power acted on it this turn: support of the enemy's side in a fight [10 ELETIS: Type]."""
    supply_lost: int = 0
    """Supply points its team lost to the enemy's success against it this turn [9 results, 10 ELETIS]."""
    trail: list[Hex] = field(default_factory=list)
    """Every hex it entered this turn, in order (moves, retreats, advances, rail) [10: its team's map]."""
    fought_at: list[Hex] = field(default_factory=list)
    """The hexes of the combats it fought in this turn [9, 10: its team's map]."""
    attached: str = ""
    """The division it was attached to by an earlier turn's order (rules version 3) [9 timings]."""

    @property
    def division(self) -> str:
        """The division it fights in (note 6): the one it is attached to, else its own."""
        return self.attached or self.d.division or self.d.formation

    @property
    def status(self) -> int:
        return self.t.combat_profile(self.steps).status

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.gone


def _by_id(u: BoardUnit) -> str:
    return u.d.id


class Board:
    """Where everyone is while a turn is adjudicated."""

    def __init__(self, scenario: MegaScenario, state: MegaState, *, rules3: bool = True) -> None:
        self.sc = scenario
        self.geo: Geo = scenario.map.geo
        self.rules3 = rules3
        """Rules version 3 (:class:`~pbem.systems.megagame.rules.MegagameRules`): the ground rules
        [6, 8, 9] and issue 25's air, supply and report readings -- heavy bombing on the
        interdiction table, a day drop's stragglers back after one clear turn, polder poor ground and
        airstrips for air resupply, flak suppressed by a bombing that hits it, a failed recce that
        reads the same whatever lies below, and reports naming what acted on a unit [9, 10, 12, 13].
        False: version 2's results, byte for byte."""
        self.moves: MoveTable = move_table(shared_infantry_row=rules3)
        """The movement table of the rules version played [6]."""
        self.blown = frozenset(state.blown)
        self.tested: set[str] = set(state.tested) if rules3 else set()
        """Bridges tested that did not blow, no Allied unit over them since [8]."""
        self.safe: set[str] = set(state.safe) if rules3 else set()
        """Bridges tested that did not blow and passed over by an Allied unit since: safe [8]."""
        self.routed: frozenset[str] = frozenset(state.routed) if rules3 else frozenset()
        """Units that suffered a Total Success last turn: no counter-attack this turn [9]."""
        self.crossed: set[str] = set()
        """Bridges Allied units passed over since the last combat began (version 3) [8]."""
        self.routed_now: set[str] = set()
        """Units that suffer a Total Success this turn (:attr:`routed` of the next turn) [9]."""
        self.units: dict[str, BoardUnit] = {}
        sides = {t.id: t.side for t in scenario.teams}
        for d in scenario.units:
            s = state.units[d.id]
            self.units[d.id] = BoardUnit(d, scenario.types[d.type], sides[d.team],
                                     Hex.parse(s.hex) if s.hex else None, s.steps, s.prepared,
                                     dict(s.contact), s.gone, scattered=s.scattered, fired_before=s.fired,
                                     stock=s.stock, rail=s.rail)
        for uid, division in state.attached.items():
            if rules3 and uid in self.units:
                self.units[uid].attached = division
        self.supply = dict(state.supply)
        self.air_lost = dict(state.air_lost)
        """Squadrons each air unit has lost in air combat, this turn's included [12]."""
        self.onward: list[tuple[BoardUnit, frozenset[str]]] = []
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
        self.interdicted: dict[Hex, tuple[str, int, int]] = {}
        """Hexes bombed this turn -> (the bombing side, tactical squadrons, heavy squadrons): units
        passing through meet it [9]."""
        self.interdicted_by: dict[Hex, set[str]] = {}
        """What struck each hex of :attr:`interdicted` ("air", "artillery"), so that a unit passing
        through hears what it met: air power and artillery MUST be mentioned [10]."""
        self.suppressed: set[str] = set()
        """Flak units a bombing (flak suppression) damaged or immobilised this turn: they neither fire
        nor count against drops and air resupply [13, 12c] (rules version 3)."""
        self.recce_flights: list[tuple[str, str, AirRequest, int]] = []
        """Recce orders flown this turn (team, side, order, squadrons), reported after the movement
        they watch [12d] (rules version 3)."""
        self.stream_attack: dict[str, int] = {}
        """Side -> its transport serials enemy fighters can still put out of action this turn [12]."""
        self.transport_damage: dict[str, int] = {}
        """Side -> air damage flak did to its transports this turn [13]: two are a squadron lost."""
        self.support: dict[tuple[str, str], int] = {}
        """(team, 'cas' or 'heavy') -> squadrons that flew for its attacks this turn and are not yet
        spent on one [9, 12]."""
        """The sides whose fighters hold or contest the sky this turn [12]."""
        self.where: dict[Hex, list[BoardUnit]] = {}
        """Units on the map by hex (kept by :meth:`move` and :meth:`remove`)."""
        for u in self.units.values():
            if u.on_map and u.hex is not None:
                self.where.setdefault(u.hex, []).append(u)

    def move(self, u: BoardUnit, h: Hex) -> None:
        if u.hex is not None and u in self.where.get(u.hex, []):
            self.where[u.hex].remove(u)
        if self.rules3 and u.side == "allied" and u.hex is not None and u.hex.is_adjacent(h):
            name = bridge_between(self.geo.crossing(u.hex, h, self.blown))
            if name:
                self.crossed.add(name)
            if name in self.tested:  # tested, did not blow, and an Allied unit passes over it [8]
                self.tested.discard(name)
                self.safe.add(name)
        u.hex = h
        u.trail.append(h)
        self.where.setdefault(h, []).append(u)

    def remove(self, u: BoardUnit) -> None:
        """Captured or broken up: off the board, its last hex kept for the reports."""
        if u.hex is not None and u in self.where.get(u.hex, []):
            self.where[u.hex].remove(u)
        u.gone = True

    def at(self, h: Hex) -> list[BoardUnit]:
        return sorted(self.where.get(h, []), key=lambda u: u.d.id)

    def enemies_near(self, h: Hex, side: str, within: int) -> list[BoardUnit]:
        where = self.where
        out = [u for g in self.geo.around(h, within) if g in where for u in where[g] if u.side != side]
        return sorted(out, key=_by_id)

    def enemy_held(self, h: Hex, side: str) -> bool:
        return any(u.side != side for u in self.where.get(h, ()))


    def positions(self) -> dict[str, Hex | None]:
        return {uid: u.hex if u.on_map else None for uid, u in self.units.items()}

    def pay(self, team: str, points: int) -> bool:
        if self.supply.get(team, 0) < points:
            return False
        self.supply[team] -= points
        return True

    # -- supplies held per HQ stack (rules version 3) [11] ---------------------------------------

    def stack_of(self, u: BoardUnit) -> BoardUnit | None:
        """The HQ whose stack ``u`` draws on in rules version 3 [11]: an HQ its own, a unit with an
        HQ that HQ; None for a unit the scenario gives no HQ, which draws on its team's supplies
        (:attr:`supply`), as every unit does in version 2."""
        if not self.rules3:
            return None
        if u.t.kind == "hq":
            return u
        return self.units.get(u.d.hq) if u.d.hq is not None else None

    def _stack_reached(self, u: BoardUnit) -> BoardUnit | None:
        hq = self.stack_of(u)
        if hq is None or not hq.on_map or u.hex is None or hq.hex is None:
            return None
        return hq if hq_in_reach(u.hex, hq.hex) else None

    def pay_for(self, u: BoardUnit, points: int) -> bool:
        """``u`` draws ``points`` for an attack, a shoot or its fuel [9, 11]. Version 2: from its
        team's supplies. Version 3: from its HQ's stack when the HQ is on the map within 5 km ("Units
        can therefore draw on any supplies from their Bde/Regt HQ 'stack' provided it is within
        5km"); a unit without an HQ from its team's supplies."""
        if self.stack_of(u) is None:
            return self.pay(u.d.team, points)
        hq = self._stack_reached(u)
        if hq is None or hq.stock < points:
            return False
        hq.stock -= points
        return True

    def has_supply(self, u: BoardUnit) -> bool:
        """Something left for ``u`` to draw on: fuel for a mechanised unit in combat [9]."""
        if self.stack_of(u) is None:
            return self.supply.get(u.d.team, 0) > 0
        hq = self._stack_reached(u)
        return hq is not None and hq.stock > 0

    def lose_supply(self, u: BoardUnit, points: int) -> int:
        """The supply points ``u``'s side loses for it after a lost fight (results table), from the
        stack it draws on -- its HQ's, wherever the HQ is, in version 3 -- never below nothing.
        Returns what was taken."""
        hq = self.stack_of(u)
        if hq is None:
            taken = min(points, self.supply.get(u.d.team, 0))
            self.supply[u.d.team] = self.supply.get(u.d.team, 0) - taken
            return taken
        taken = min(points, hq.stock)
        hq.stock -= taken
        return taken

    def room(self, hq: BoardUnit) -> int:
        """Supply points an HQ's stack may still take: its lift less what it holds [11] ("The HQ unit
        has a limit to the number of supply counters is can carry about"); no lift set, no limit."""
        if hq.t.lift is None:
            return 1 << 30
        return max(0, hq.t.lift - hq.stock)

    def nation(self, u: BoardUnit) -> str:
        return nation_of(u.d, u.side)

    def fill(self, hqs: list[BoardUnit], points: int, near: Hex) -> list[tuple[BoardUnit, int]]:
        """``points`` given to ``hqs`` (rules version 3) [11]: the nearest to ``near`` first (then by
        id), each up to its room. Returns (hq, points) for each that took some; what none had room
        for is not given."""
        out = []
        for hq in sorted(hqs, key=lambda h: (h.hex.distance(near) if h.hex is not None else 0, h.d.id)):
            take = min(points, self.room(hq))
            if take > 0:
                hq.stock += take
                points -= take
                out.append((hq, take))
        return out


AnyState = MegaState | TeamView
"""Game Control's master state, or a team's own view (its pbem never holds more) [10]."""



def detraining(trip: RailTrip | None, t: UnitType) -> bool:
    """Infantry getting off its train (rules version 3) [6]: "It takes half a turn to disembark an
    infantry unit, or a whole turn for others." The turn after its turn of travel the first half goes
    in getting off; the second is its own: it takes orders, and moves at most half its move
    (reading: the half turn left; at most half its move, it may fight that turn [6]). Vehicles take
    the whole turn and no orders."""
    return trip is not None and trip.phase == "disembarking" and t.troops == "infantry"


def posture_of(line: OrderLine) -> Posture:
    if line.posture == "non-tactical":
        return "road-column" if line.intention == "move" else "non-tactical"
    return "tactical"

