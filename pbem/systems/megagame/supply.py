"""Supplies of J. Wallman's Operation Market Garden megagame (seed 004, [11] "Supplies", "Moving a
Supply Dump", the use of supplies under "Attacking", and the supply losses of the results table).
Pure functions on small frozen values; the map is only hex numbers of the 1 km map (one hex, one
kilometre), the umpire's judgement comes in as arguments.

The rules as read:

* counters: ammunition of each nation (red British -- the Poles too --, green American, blue
  German) and fuel (yellow, for all); an ammunition counter serves only its own nation's units;
* a brigade's or regiment's supplies sit with its HQ, up to the HQ's lift (marked on the counter:
  the unit type's ``lift``); its units draw on that stack when within 5 km of the HQ: 5 hexes on
  the 1 km map, 6 is too far;
* use: an attack costs 1 ammunition point a unit, artillery firing 1 a unit each time it fires,
  defending nothing; a mechanised unit burns 1 fuel point each turn it moves or fights (attack or
  defence; supporting artillery fire is not fighting, as the worked example's count shows).
  Without ammunition a unit cannot attack and artillery cannot fire; without fuel a
  mechanised unit still moves (the text charges fuel for moving but forbids nothing without it)
  and fights with the "-1 per mechanised unit with no fuel" factor,
  which :mod:`pbem.systems.megagame.combat` applies (:func:`combat_unit` sets its flag);
* delivery to an HQ: (a) by a divisional dump to HQs within its range (about 10 km, marked on the
  counter) and up to its lift (the counters it can move; read as *a turn*); (b) by a supply
  transport unit, up to its capacity, loading and unloading where it stands; (c) the third way is
  lost in the scan: read as air resupply (the air transport rules), whose delivered points lie
  parked on the drop zone. Supplies may be parked anywhere: a parked stack delivers nothing;
* a dump moves only on the division's order: the counter alone goes, at most the lorries' road
  move (64 km, [6]), and that takes the turn (it delivers nothing while moving); its supplies stay
  behind, parked, for the transport units to bring on;
* combat: a defender that loses the fight loses supply points from its HQ's stack, two a unit on a
  Total Success, one a unit on a Success or Limited Success; taken from the ammunition first, then
  from the fuel (reading: the table says only "supply points").

Every refusal names its case, ``[11]`` (or ``[6]`` for the dump's move).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from pbem.errors import IllegalOrders, RuleViolation
from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.systems.megagame.combat import Band, CombatUnit
from pbem.systems.megagame.movement import max_move_km
from pbem.systems.megagame.tables import air_resupply

Nation = Literal["british", "us", "german"]

AMMO_COLOUR: dict[str, str] = {"british": "red", "us": "green", "german": "blue"}
"""The colour of each nation's ammunition counters [11]; the Polish brigade draws British."""
FUEL_COLOUR = "yellow"

HQ_REACH_KM = 5
"""Units draw on their Bde/Regt HQ's stack within 5 km [11]: 5 hexes on the 1 km map."""
DUMP_REACH_KM = 10
"""A divisional dump delivers locally to about 10 km [11] (each dump counter may say otherwise)."""

LOSS_PER_UNIT: dict[str, int] = {"total success": 2, "success": 1, "limited success": 1,
                                 "confused combat": 0, "attackers badly beaten": 0}
"""Supply points a defender loses for each of its units, by result (results table)."""


class Stock(Plain, frozen=True):
    """Supply points: ammunition (of the holder's nation) and fuel."""

    ammo: int = 0
    fuel: int = 0

    def __post_init__(self) -> None:
        if self.ammo < 0 or self.fuel < 0:
            raise ValueError(f"[11] supply points cannot be negative ({self.ammo}, {self.fuel})")

    @property
    def points(self) -> int:
        return self.ammo + self.fuel

    def __add__(self, other: Stock) -> Stock:
        return Stock(self.ammo + other.ammo, self.fuel + other.fuel)

    def __sub__(self, other: Stock) -> Stock:
        return Stock(self.ammo - other.ammo, self.fuel - other.fuel)

    def covers(self, other: Stock) -> bool:
        return self.ammo >= other.ammo and self.fuel >= other.fuel


class HQ(Plain, frozen=True):
    """A Bde/Regt HQ with its brigade's supply stack; ``lift`` is the most it may hold."""

    id: str
    nation: Nation
    hex: Hex
    lift: int
    stock: Stock = Stock()


class Dump(Plain, frozen=True):
    """A divisional dump: ``lift`` counters delivered a turn, to HQs within ``reach_km``."""

    id: str
    nation: Nation
    hex: Hex
    lift: int
    stock: Stock = Stock()
    reach_km: int = DUMP_REACH_KM
    delivered: int = 0
    """Points delivered so far this turn."""
    moving: bool = False
    """Being moved this turn: it delivers nothing."""


class Transport(Plain, frozen=True):
    """A supply transport unit (RASC company, Kolonne, ...): carries up to ``capacity`` points."""

    id: str
    nation: Nation
    hex: Hex
    capacity: int
    load: Stock = Stock()


class Parked(Plain, frozen=True):
    """Supply counters parked on the map: not a dump, no delivery of their own [11]."""

    nation: Nation
    hex: Hex
    stock: Stock


Holder = HQ | Dump | Transport | Parked


def hq_in_reach(unit_hex: Hex | str, hq_hex: Hex | str) -> bool:
    """A unit may draw on its HQ's stack when the HQ is within 5 km (hexes) of it [11]."""
    return Hex.parse(unit_hex).distance(Hex.parse(hq_hex)) <= HQ_REACH_KM


# -- use -------------------------------------------------------------------------------------------

class Activity(Plain, frozen=True):
    """What one unit does in a turn, as far as supplies go."""

    unit: str
    hex: Hex
    mechanised: bool = False
    attacks: int = 0
    """Attacks it makes (one a turn as a rule, more on an overrun)."""
    fires: int = 0
    """Times it fires as artillery (support in attack or defence, counter-battery, interdiction)."""
    moved: bool = False
    defended: bool = False
    """Was attacked (costs a mechanised unit its fuel, no ammunition)."""


def needs(a: Activity) -> Stock:
    """Supply points the activity costs [11]: 1 ammunition an attack, 1 each time artillery fires,
    nothing to defend; 1 fuel for a mechanised unit that moved or fought this turn. Artillery
    firing in support is not "in combat" for its fuel: in the worked example the attackers use 5
    ammunition (4 units and the artillery) and 1 fuel (the one mechanised unit)."""
    fought = a.attacks > 0 or a.defended
    fuel = 1 if a.mechanised and (a.moved or fought) else 0
    return Stock(a.attacks + a.fires, fuel)


def activity(unit: str, hex: Hex, *, mechanised: bool, intention: str, posture: str,
             moved: bool = False, combats: int = 0, attacked: bool = False,
             fires: int = 0) -> Activity:
    """The supply side of one order-sheet line's outcome [5, 11]: ``combats`` counts as attacks
    only under Attack or Breakthrough orders (Probe and Move stop at the enemy, Hold and Prepare
    do not attack); a unit at Rest does not move; ``attacked``: the enemy attacked it."""
    attacks = combats if intention in ("attack", "breakthrough") else 0
    return Activity(unit, hex, mechanised, attacks, fires, moved and posture != "rest", attacked)


class UnitSupply(Plain, frozen=True):
    """What a unit got from its HQ this turn and what follows from it."""

    unit: str
    drawn: Stock
    attacks: int
    """Attacks it may make (supplied)."""
    fires: int
    """Times it may fire (supplied)."""
    fuel: bool
    """A mechanised unit has its fuel: it may move, and fights without the no-fuel factor."""
    problems: tuple[RuleViolation, ...] = ()


class Draw(Plain, frozen=True):
    hq: HQ
    units: dict[str, UnitSupply]

    @property
    def used(self) -> Stock:
        """Supply used this turn (the ELETIS "Supply" line)."""
        total = Stock()
        for u in self.units.values():
            total = total + u.drawn
        return total


def draw(hq: HQ, activities: Sequence[Activity]) -> Draw:
    """The units of ``hq``'s brigade draw what their activity needs, in the order given (the
    team's priority); a unit more than 5 km from the HQ draws nothing [11]. Artillery fire and
    attacks are granted one at a time while ammunition lasts: attacks first, then fire."""
    stock = hq.stock
    out: dict[str, UnitSupply] = {}
    for a in activities:
        need = needs(a)
        problems: list[RuleViolation] = []
        if not hq_in_reach(a.hex, hq.hex):
            got = Stock()
            if need.points:
                problems.append(RuleViolation(
                    "11", f"{a.unit} at {a.hex} is {Hex.parse(a.hex).distance(hq.hex)} km from "
                          f"{hq.id} at {hq.hex}: it draws supplies only within {HQ_REACH_KM} km",
                    unit=a.unit, hex=str(a.hex)))
        else:
            attacks = min(a.attacks, stock.ammo)
            fires = min(a.fires, stock.ammo - attacks)
            fuel = min(need.fuel, stock.fuel)
            got = Stock(attacks + fires, fuel)
        attacks = min(a.attacks, got.ammo)
        fires = got.ammo - attacks
        if attacks < a.attacks:
            problems.append(RuleViolation("11", f"{a.unit} has no ammunition for "
                                                f"{a.attacks - attacks} attack(s): units cannot "
                                                "attack without supplies", unit=a.unit))
        if fires < a.fires:
            problems.append(RuleViolation("11", f"{a.unit} has no ammunition to fire "
                                                f"{a.fires - fires} more time(s)", unit=a.unit))
        if got.fuel < need.fuel:
            problems.append(RuleViolation("11", f"{a.unit} has no fuel: it fights at -1 "
                                                "(mechanised unit with no fuel)",
                                          unit=a.unit))
        stock = stock - got
        out[a.unit] = UnitSupply(a.unit, got, attacks, fires,
                                 fuel=got.fuel >= need.fuel, problems=tuple(problems))
    return Draw(dataclasses.replace(hq, stock=stock), out)


def combat_unit(unit: CombatUnit, supply: UnitSupply | None) -> CombatUnit:
    """The combat unit with its fuel as drawn: a mechanised unit that drew no fuel fights with
    the no-fuel factor of :func:`pbem.systems.megagame.combat.score`; anything else unchanged."""
    if not unit.mechanised:
        return unit
    return dataclasses.replace(unit, fuel=supply is not None and supply.fuel)


def combat_loss(band: Band, defenders: int) -> int:
    """Supply points the defending side loses after a combat: per unit by result."""
    return LOSS_PER_UNIT[band] * defenders


def lose(hq: HQ, points: int) -> HQ:
    """Take ``points`` from the HQ's stack, ammunition first, then fuel; no stack goes below 0."""
    ammo = min(points, hq.stock.ammo)
    fuel = min(points - ammo, hq.stock.fuel)
    return dataclasses.replace(hq, stock=hq.stock - Stock(ammo, fuel))


# -- delivery --------------------------------------------------------------------------------------

def _nation_problem(src: Holder, dst: Holder, stock: Stock) -> list[RuleViolation]:
    if stock.ammo and src.nation != dst.nation:
        return [RuleViolation("11", f"{AMMO_COLOUR[src.nation]} ammunition counters are "
                                    f"{src.nation}: {_name(dst)} uses {AMMO_COLOUR[dst.nation]} "
                                    "(fuel is shared)")]
    return []


def _name(h: Holder) -> str:
    return h.id if not isinstance(h, Parked) else f"the supplies parked at {h.hex}"


def dump_delivery_problems(dump: Dump, hq: HQ, stock: Stock) -> list[RuleViolation]:
    """Why the dump cannot deliver ``stock`` to ``hq`` this turn ([] when it can) [11a]."""
    out: list[RuleViolation] = []
    d = dump.hex.distance(hq.hex)
    if dump.moving:
        out.append(RuleViolation("11", f"{dump.id} is being moved this turn and delivers nothing"))
    if d > dump.reach_km:
        out.append(RuleViolation("11", f"{hq.id} is {d} km from {dump.id}: the dump delivers "
                                       f"within {dump.reach_km} km"))
    if dump.delivered + stock.points > dump.lift:
        out.append(RuleViolation("11", f"{dump.id} can move {dump.lift} points a turn; "
                                       f"{dump.delivered} already gone, {stock.points} asked"))
    if not dump.stock.covers(stock):
        out.append(RuleViolation("11", f"{dump.id} holds {dump.stock.ammo} ammunition and "
                                       f"{dump.stock.fuel} fuel"))
    if (hq.stock + stock).points > hq.lift:
        out.append(RuleViolation("11", f"{hq.id} can hold {hq.lift} points; it has "
                                       f"{hq.stock.points}"))
    return out + _nation_problem(dump, hq, stock)


def dump_deliver(dump: Dump, hq: HQ, stock: Stock) -> tuple[Dump, HQ]:
    """Deliver from the dump to the HQ; raises :class:`IllegalOrders` if it cannot [11a]."""
    problems = dump_delivery_problems(dump, hq, stock)
    if problems:
        raise IllegalOrders(problems)
    return (dataclasses.replace(dump, stock=dump.stock - stock,
                                delivered=dump.delivered + stock.points),
            dataclasses.replace(hq, stock=hq.stock + stock))


def transfer_problems(src: Holder, dst: Holder, stock: Stock) -> list[RuleViolation]:
    """Why ``stock`` cannot pass from ``src`` to ``dst`` by a transport unit loading or unloading
    ([] when it can) [11b]: one of them is the transport, both stand in the same hex, the
    transport's capacity and an HQ's lift are respected. (A dump's own deliveries are
    :func:`dump_delivery_problems`.)"""
    out: list[RuleViolation] = []
    if not (isinstance(src, Transport) or isinstance(dst, Transport)):
        out.append(RuleViolation("11", "supplies move between stacks only by a transport unit "
                                       "or a dump's delivery"))
    if src.hex != dst.hex:
        out.append(RuleViolation("11", f"{_name(src)} at {src.hex} and {_name(dst)} at "
                                       f"{dst.hex}: loading and unloading are done in one place"))
    have = _stock(src)
    if not have.covers(stock):
        out.append(RuleViolation("11", f"{_name(src)} holds {have.ammo} ammunition and "
                                       f"{have.fuel} fuel"))
    if isinstance(dst, Transport) and (dst.load + stock).points > dst.capacity:
        out.append(RuleViolation("11", f"{dst.id} carries {dst.capacity} points; it has "
                                       f"{dst.load.points}"))
    if isinstance(dst, HQ) and (dst.stock + stock).points > dst.lift:
        out.append(RuleViolation("11", f"{dst.id} can hold {dst.lift} points; it has "
                                       f"{dst.stock.points}"))
    return out + _nation_problem(src, dst, stock)


def _stock(h: Holder) -> Stock:
    return h.load if isinstance(h, Transport) else h.stock


def _with_stock(h: Holder, stock: Stock) -> Holder:
    if isinstance(h, Transport):
        return dataclasses.replace(h, load=stock)
    return dataclasses.replace(h, stock=stock)


def transfer(src: Holder, dst: Holder, stock: Stock) -> tuple[Holder, Holder]:
    """Load or unload a transport unit; raises :class:`IllegalOrders` if it cannot [11b]."""
    problems = transfer_problems(src, dst, stock)
    if problems:
        raise IllegalOrders(problems)
    return _with_stock(src, _stock(src) - stock), _with_stock(dst, _stock(dst) + stock)


def park(t: Transport, stock: Stock) -> tuple[Transport, Parked]:
    """Unload on open ground: the counters lie parked, no dump [11]."""
    if not t.load.covers(stock):
        raise IllegalOrders([RuleViolation("11", f"{t.id} carries {t.load.ammo} ammunition and "
                                                 f"{t.load.fuel} fuel")])
    return dataclasses.replace(t, load=t.load - stock), Parked(t.nation, t.hex, stock)


def air_resupply_drop(nation: Nation, dz: Hex, ammo: int, fuel: int, die: int,
                      factors: tuple[str, ...] = ()) -> Parked:
    """Supplies dropped by air on ``dz`` (the third way of delivery, as read): what arrives, by
    the air resupply table (:func:`pbem.systems.megagame.tables.air_resupply`, one roll for the
    drop, ammunition counted first), lies parked on the drop zone for the HQ to collect."""
    arrived = air_resupply(ammo + fuel, die, factors)
    got_ammo = min(ammo, arrived)
    return Parked(nation, dz, Stock(got_ammo, arrived - got_ammo))


# -- moving a dump ---------------------------------------------------------------------------------

LORRY_MOVE_KM: Fraction = max_move_km("mechanised", "open", "road-column") or Fraction(0)
"""The most a dump counter moves in its turn of moving: the lorries' road column move [6]."""


def move_dump_problems(dump: Dump, road_km: int) -> list[RuleViolation]:
    out: list[RuleViolation] = []
    if road_km > LORRY_MOVE_KM:
        out.append(RuleViolation("6", f"{dump.id} moves at most {LORRY_MOVE_KM} km by road in a "
                                      f"turn (lorries); {road_km} km asked"))
    if dump.moving:
        out.append(RuleViolation("11", f"{dump.id} is already moving this turn"))
    if dump.delivered:
        out.append(RuleViolation("11", f"{dump.id} has delivered this turn: moving it takes the "
                                       "whole turn"))
    return out


def move_dump(dump: Dump, to: Hex, road_km: int) -> tuple[Dump, Parked | None]:
    """The division moves its dump to ``to`` (``road_km`` by road): the counter goes alone,
    taking the turn (``moving``: no deliveries); its supplies stay at the old place, parked, to be
    brought on by transport units [11]. Raises :class:`IllegalOrders` if it cannot."""
    problems = move_dump_problems(dump, road_km)
    if problems:
        raise IllegalOrders(problems)
    left = Parked(dump.nation, dump.hex, dump.stock) if dump.stock.points else None
    return dataclasses.replace(dump, hex=to, stock=Stock(), moving=True), left


def new_turn(dump: Dump) -> Dump:
    """A dump at the start of a turn: its lift is fresh and a move is finished."""
    return dataclasses.replace(dump, delivered=0, moving=False)
