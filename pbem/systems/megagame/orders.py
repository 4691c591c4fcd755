"""The megagame's order sheet (seed 004, section 5) as typed data, and the checks a team's orders
get before the umpire sees them: what the team can know, nothing hidden (seed 004, sections 5, 6,
9, 11, 12).

One line of the sheet orders a unit or a grouping: a general intention (Breakthrough, Attack,
Probe, Hold -- optionally "stand fast" -- Move, Prepare), a posture (tactical, non-tactical,
rest), a route (the hexes of the 1 km map it means to pass, in order), timing (first or second
half of the turn, the whole turn, at night), supply points to use, and air requests. Checked here:

* Breakthrough only by armoured units [5];
* "stand fast" only with Hold [5];
* an attack is prepared only if the line's units had Prepare orders the turn before [5, 9];
  an unprepared one is allowed (it costs -2 a unit in combat) but is said so;
* the route's length against the maximum move by troop type, ground and posture, halved at night
  [6]; a unit with no move in that posture (towed artillery off the road) is refused;
* water crossed off a bridge only by troops that may, never a major river; a light bridge never by
  tanks [6];
* supply points used no more than the team holds within 5 km of its HQ [11] (the caller gives
  what is available);
* close air support only for the Allies, only in a prepared attack (or with a cab rank), and only
  when the same request is in the air orders too [9, 12].

Every refusal names its section in brackets, e.g. ``[6]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Literal

from pbem.errors import RuleViolation
from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.protocol.record import Bool, Int, ListOf, Nested, OneOf, Record, Str, field, omit_empty
from pbem.systems.megagame.movement import (
    MAX_MOVE_KM,
    Ground,
    MoveTable,
    Posture,
    Troops,
    km_text,
    max_move_km,
    may_cross,
)

Intention = Literal["breakthrough", "attack", "probe", "hold", "move", "prepare"]

# Plain records (pbem.protocol.record), read strictly: a team's sheet is checked without pydantic [28].


class AirRequest(Record):
    mission: Literal["cas", "cab-rank", "bombing", "recce", "escort", "air-cover", "transport", "heavy"] = field(
        OneOf("cas", "cab-rank", "bombing", "recce", "escort", "air-cover", "transport", "heavy"))
    squadrons: int = field(Int(ge=1))
    target: str = field(Str(), default="")


class OrderLine(Record):
    """One line of the sheet [5]. ``defend``, ``interdict`` and ``attach`` are left out of a dump
    while empty: a sheet without them dumps as sheets did before them."""

    units: list[str] = field(ListOf(Str(), min_length=1))
    intention: Intention = field(OneOf("breakthrough", "attack", "probe", "hold", "move", "prepare"))
    stand_fast: bool = field(Bool(), default=False)
    posture: Literal["tactical", "non-tactical", "rest"] = field(OneOf("tactical", "non-tactical", "rest"),
                                                                 default="tactical")
    route: list[str] = field(ListOf(Str()), default_factory=list, description="hexes of the 1 km map, in order")
    objective: str = field(Str(), default="")
    timing: Literal["whole", "first-half", "second-half", "night"] = field(
        OneOf("whole", "first-half", "second-half", "night"), default="whole")
    supply: int = field(Int(ge=0), default=0)
    air: list[AirRequest] = field(ListOf(Nested(AirRequest)), default_factory=list)
    counter_battery: bool = field(Bool(), default=False,
                                  description="artillery given to counter-battery fire for the whole turn [9]")
    rail_to: str = field(Str(), default="", description="by rail [6]: the hex of the railway where the units get off")
    defend: list[str] = field(ListOf(Str()), default_factory=list, omit=omit_empty, description=(
        "artillery allocated to the defence of these hexes [9 Supporting Artillery]: it counts for the "
        "defenders of a combat there (rules version 3) and supports no attack"))
    interdict: str = field(Str(), default="", omit=omit_empty, description=(
        "artillery firing on this hex by the interdiction table for the turn [9 'Arty Bns per map square'] "
        "(rules version 3): it stays where it is and supports no combat"))
    attach: str = field(Str(max_length=60), default="", omit=omit_empty, description=(
        "the division the units are attached to [9 timings] (rules version 3): it takes the turn; they fight "
        "with it from the next"))


class OrderSheet(Record):
    team: str = field(Str())
    side: Literal["allied", "german"] = field(OneOf("allied", "german"))
    turn: int = field(Int(ge=1))
    lines: list[OrderLine] = field(ListOf(Nested(OrderLine)))
    air_orders: list[AirRequest] = field(ListOf(Nested(AirRequest)), default_factory=list)


class UnitInfo(Plain, frozen=True):
    """What the team knows of its own unit (the rules' own, never read from outside). Made by
    keyword only, as the dataclass it was (``kw_only``): its own constructor says so."""

    id: str
    troops: Troops
    hex: str
    armoured: bool = False

    def __init__(self, *, id: str, troops: Troops, hex: str, armoured: bool = False) -> None:
        self.__dict__.update(id=id, troops=troops, hex=hex, armoured=armoured)


Crossing = Literal["none", "canal", "minor river", "major river"]


def check_sheet(
    sheet: OrderSheet,
    units: Mapping[str, UnitInfo],
    *,
    ground_of: Callable[[Hex], Ground],
    water_between: Callable[[Hex, Hex], tuple[Crossing, Literal["none", "light", "heavy"]]],
    prepared_last_turn: frozenset[str] = frozenset(),
    supply_available: int = 0,
    cab_rank: bool = False,
    moves: MoveTable = MAX_MOVE_KM,
) -> list[RuleViolation]:
    """Every problem of ``sheet``; ``ground_of`` and ``water_between`` read the team's own map (what
    it can know), ``prepared_last_turn`` the units that had Prepare orders the turn before,
    ``cab_rank`` whether the team's cab rank ordered the turn before is still on call [9]."""
    out: list[RuleViolation] = []
    used = 0
    for line in sheet.lines:
        where = ", ".join(line.units)
        unknown = [u for u in line.units if u not in units]
        if unknown:
            out.append(RuleViolation("5", f"{where}: {', '.join(unknown)} is not one of "
                                          f"{sheet.team}'s units"))
            continue
        infos = [units[u] for u in line.units]
        if line.intention == "breakthrough" and not all(i.armoured for i in infos):
            soft = [i.id for i in infos if not i.armoured]
            out.append(RuleViolation("5", f"{where}: Breakthrough is for armoured units only "
                                          f"({', '.join(soft)} is not)"))
        if line.posture == "rest" and (line.route or line.rail_to or line.intention not in ("hold", "move")):
            out.append(RuleViolation("5", f"{where}: a unit at rest stays where it is and does not fight: "
                                          "give it Hold (or Move without a route) and no route"))
        if line.stand_fast and line.intention != "hold":
            out.append(RuleViolation("5", f"{where}: 'stand fast' goes with Hold orders"))
        if line.intention in ("attack", "breakthrough"):
            unprepared = [u for u in line.units if u not in prepared_last_turn]
            cas = [a for a in line.air if a.mission in ("cas", "heavy")]
            if cas:
                if sheet.side != "allied":
                    out.append(RuleViolation("9", f"{where}: close air support is for the Allies"))
                elif unprepared and any(a.mission == "heavy" for a in cas):
                    out.append(RuleViolation("9", f"{where}: heavy bombers support only a prepared attack "
                                                  "(no cab rank for them)"))
                elif unprepared:
                    rank = cab_rank or any(a.mission == "cab-rank" for a in sheet.air_orders)
                    out.append(RuleViolation("9", f"{where}: close air support is asked for only in a prepared "
                                                  "attack" + ("; your cab rank supports the unprepared one by itself"
                                                              if rank else " (a cab rank supports unprepared "
                                                              "attacks and defence)")))
                for a in cas:
                    if a not in sheet.air_orders:
                        out.append(RuleViolation("9", f"{where}: the close air support must be in "
                                                      "the air orders too"))
        if line.route:
            out += _route_problems(where, line, infos, ground_of, water_between, moves)
        used += line.supply
    if used > supply_available:
        out.append(RuleViolation("11", f"the sheet uses {used} supply points; {supply_available} "
                                       "are within 5 km of the HQ"))
    return out


def _route_problems(
    where: str, line: OrderLine, infos: list[UnitInfo],
    ground_of: Callable[[Hex], Ground],
    water_between: Callable[[Hex, Hex], tuple[Crossing, Literal["none", "light", "heavy"]]],
    moves: MoveTable = MAX_MOVE_KM,
) -> list[RuleViolation]:
    out: list[RuleViolation] = []
    posture: Posture = "road-column" if line.posture == "non-tactical" \
        and line.intention == "move" else ("non-tactical" if line.posture == "non-tactical"
                                           else "tactical")
    apart = len({i.hex for i in infos}) > 1
    for info in infos:
        hexes = [Hex.parse(info.hex), *(Hex.parse(h) for h in line.route)]
        for k, (a, b) in enumerate(zip(hexes, hexes[1:], strict=False)):
            if a == b:
                out.append(RuleViolation("6", f"{where}: the route starts where {info.id} is ({a}): list only "
                                              "the hexes it goes to, one km after another" if k == 0 else
                                              f"{where}: the route names {b} twice in a row"))
                return out
            if not a.is_adjacent(b):
                if k > 0:
                    why = ""
                elif apart:
                    why = (f" ({info.id} is at {a}): every unit of a line starts its route from its own hex, "
                           "so units in different hexes need lines of their own")
                else:
                    why = f" ({info.id} is at {a}): a route goes one km (one hex) at a time, the first next to it"
                out.append(RuleViolation("6", f"{where}: the route jumps from {a} to {b}{why}"))
                return out
        km = len(hexes) - 1
        grounds = [ground_of(h) for h in hexes[1:]]
        worst = min((max_move_km(info.troops, g, posture, night=line.timing == "night", moves=moves)
                     for g in set(grounds)), key=lambda v: -1 if v is None else v, default=None)
        if worst is None and grounds:
            out.append(RuleViolation("6", f"{where}: {info.id} ({info.troops}) cannot move "
                                          f"{posture} over that ground"))
            continue
        limit = worst if worst is not None else Fraction(0)
        if line.timing in ("first-half", "second-half"):
            limit = limit / 2
        if km > limit:
            out.append(RuleViolation("6", f"{where}: {info.id} ({info.troops}) may move at most "
                                          f"{km_text(limit)} km {posture.replace('-', ' ')} on that ground "
                                          f"this time; the route is {km} km"))
        for a, b in zip(hexes, hexes[1:], strict=False):
            water, bridge = water_between(a, b)
            if water != "none" and not may_cross(info.troops, water, bridge):
                what = f"the {water} between {a} and {b}"
                how = f"on a {bridge} bridge" if bridge != "none" else "without a bridge"
                out.append(RuleViolation("6", f"{where}: {info.id} ({info.troops}) cannot cross "
                                              f"{what} {how}"))
                break
    return out
