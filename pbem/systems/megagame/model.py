"""Data models of the megagame ruleset (seed 004): the scenario (teams, unit types with their status
profiles, units, objectives, the 1 km map), the umpire's master state, the rulings Game Control
signs, and the per-unit facts a report is written from.

Plain records (:mod:`pbem.protocol.record`), read strictly: a megagame's every command runs without
pydantic [28]. The rules live in the modules beside it (the package's docstring lists them).
Nothing here is ever shown to a team as a number: a team sees :meth:`MegagameRules.view`, which puts
status into words [10].
"""

from __future__ import annotations

import marshal
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import field as data_field
from functools import cached_property
from itertools import product, repeat
from operator import attrgetter
from typing import Any, Literal, get_args

from pbem.maps.hexmap import Hex, hexside
from pbem.plain import Plain
from pbem.protocol.record import (
    Bool,
    Check,
    Int,
    ListOf,
    Loc,
    MapOf,
    Maybe,
    Nested,
    OneOf,
    Record,
    RecordError,
    Str,
    TupleOf,
    field,
    omit_empty,
)
from pbem.systems.megagame.combat import Kind, Profile
from pbem.systems.megagame.movement import Ground, Troops, may_cross
from pbem.systems.megagame.profiles import parse_profile

SIDE_ID = r"^[A-Z][A-Z0-9]{0,7}$"
HEX = r"^\d{4}$"

# Each record is a pbem.protocol.record.Record (frozen, slotted); one with a ``cached_property`` is
# declared ``slots=False``.

SIDES = OneOf("allied", "german")



class Reused(Nested):
    """:class:`~pbem.protocol.record.Nested` for the big parts of a scenario (its map, unit types
    and units): a value exactly like one parsed before -- the same ``marshal`` serialisation, which
    tells apart every type JSON gives (``True`` is not ``1``, a list not a tuple, a subclass is
    refused) -- gives the record parsed then, unchecked again; anything else is parsed as
    ``Nested`` parses it, with the same refusals. Verifying a game with a secret set-up loads the
    whole scenario and every team's copy of it (issue 28): the copies repeat the map, the types and
    their side's units. The records are frozen, so sharing them shares nothing that changes (a
    map's cached geography, a type's parsed profile: derived once). Per-process memo of immutable
    derived data, keyed by the serialised value it is parsed from (per ``Reused``, bounded)."""

    def __init__(self, cls: type[Record], limit: int = 8192) -> None:
        super().__init__(cls)
        self.limit = limit
        """How many parsed records it keeps at most (then it starts again)."""
        self.parsed: dict[bytes, Record] = {}

    def __call__(self, value: Any, loc: Loc) -> Any:
        if type(value) is not dict:
            return super().__call__(value, loc)
        try:
            key = marshal.dumps(value, 2)
        except ValueError:  # not marshal's types: parsed every time
            return super().__call__(value, loc)
        hit = self.parsed.get(key)
        if hit is None:
            hit = super().__call__(value, loc)  # refused: raises, nothing kept
            if len(self.parsed) >= self.limit:
                self.parsed.clear()
            self.parsed[key] = hit
        return hit


def _of(literal: Any) -> OneOf:
    """The check of a ``Literal`` alias of the rules' modules (``Kind``, ``Troops``)."""
    return OneOf(*get_args(literal))


class ProfileText(Check):
    """A status profile as the counter prints it (``6-6-5-4-3-2-1-0``; ``[..]`` support only;
    ``(2)-(1)-0`` defence only) that :func:`~pbem.systems.megagame.profiles.parse_profile` reads
    ("Unit Status")."""

    def __call__(self, value: Any, loc: Loc) -> Any:
        Str()(value, loc)
        try:
            parse_profile(value)
        except ValueError as exc:
            raise RecordError([(loc, str(exc))]) from None
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string"}


# -- the map ------------------------------------------------------------------------------------


class MapLine(Record):
    """Water, bridges and ferries on hexsides (``"0129/0130"``)."""

    kind: Literal["river", "canal", "stream", "bridge", "rail-bridge", "ferry"] = field(
        OneOf("river", "canal", "stream", "bridge", "rail-bridge", "ferry"))
    name: str = field(Str())
    hexsides: list[str] = field(ListOf(Str()))


class MapRoute(Record):
    kind: Literal["road", "trail", "railway"] = field(OneOf("road", "trail", "railway"))
    name: str = field(Str())
    hexes: list[str] = field(ListOf(Str()))
    off_map: list[Literal["start", "end"]] = field(ListOf(OneOf("start", "end")), default_factory=list)


class MapPlace(Record):
    hex: str = field(Str(HEX))
    name: str = field(Str())


class MegaMap(Record, slots=False):
    """The 1 km map (``scenarios/market-garden-1km-map.json``): hexes by terrain kind, water and
    bridges on hexsides, roads, places."""

    id: str = field(Str())
    title: str = field(Str(), default="")
    reconstructed: str = field(Str(), default="")
    cols: tuple[int, int] = field(TupleOf(Int(), Int()))
    rows: tuple[int, int] = field(TupleOf(Int(), Int()))
    default_terrain: str = field(Str(), default="clear")
    terrain: dict[str, list[str]] = field(MapOf(Str(), ListOf(Str())))
    routes: list[MapRoute] = field(ListOf(Nested(MapRoute)), default_factory=list)
    railways: list[MapRoute] = field(ListOf(Nested(MapRoute)), default_factory=list,
                                     description="for rail movement [6]")
    lines: list[MapLine] = field(ListOf(Nested(MapLine)), default_factory=list)
    bridges: list[str] = field(ListOf(Str()), default_factory=list)
    places: list[MapPlace] = field(ListOf(Nested(MapPlace)), default_factory=list)

    def on_map(self, h: Hex) -> bool:
        """Within the map's bounds: one of :attr:`Geo.hexes <Geo>` (without building it)."""
        return self.cols[0] <= h.col <= self.cols[1] and self.rows[0] <= h.row <= self.rows[1]

    @cached_property
    def geo(self) -> Geo:
        """The map as the rules read it (built once per scenario object)."""
        return Geo.of(self)


MAJOR_RIVERS = frozenset({"Maas", "Waal", "Neder Rijn", "Rhine", "Rijn"})
"""Rivers no unit crosses off a bridge or ferry [6]; the other rivers count as minor ones."""

GROUND: dict[str, Ground] = {"clear": "open", "polder": "open", "mixed": "close", "woods": "wood-town",
                             "town": "wood-town", "city": "wood-town", "marsh": "marsh"}
"""Map terrain -> the ground column of the movement table [6]."""

CLOSE = frozenset({"mixed", "woods", "town", "city"})
"""Terrain that is built-up, wooded or close country (combat note 4, passing distance [6])."""


class Crossing(Plain, frozen=True):
    water: Literal["none", "canal", "minor river", "major river"]
    bridge: Literal["none", "light", "heavy"]
    bridge_name: str = ""


NO_CROSSING = Crossing("none", "none")


class Geo(Plain, frozen=True):
    """Terrain per hex and what lies on each hexside, read from a :class:`MegaMap`."""

    hexes: frozenset[Hex]
    terrain: dict[Hex, str]
    sides: dict[tuple[Hex, Hex], Crossing]
    places: dict[Hex, str]
    rails: dict[Hex, frozenset[Hex]]
    """The railway network: each railway hex and the railway hexes it joins [6]."""
    around_memo: dict[tuple[Hex, int], tuple[Hex, ...]] = data_field(
        default_factory=dict, init=False, repr=False, compare=False)
    """(hex, radius) -> :meth:`around`, filled as the rules ask (this map's own)."""
    near_memo: dict[Hex, str] = data_field(default_factory=dict, init=False, repr=False, compare=False)
    """hex -> :meth:`near`, filled as the reports ask (this map's own; its places never change)."""

    def around(self, h: Hex, radius: int) -> tuple[Hex, ...]:
        """``h.within(radius)`` (every hex within ``radius`` of ``h``, ``h`` included, in (col, row)
        order), worked out once per hex and radius for this map: the contact and flak checks ask it
        some 24,000 times a game (issue 28)."""
        hit = self.around_memo.get((h, radius))
        if hit is None:
            hit = self.around_memo[(h, radius)] = tuple(h.within(radius))
        return hit

    @classmethod
    def of(cls, m: MegaMap) -> Geo:
        # the map's 4,050 hexes made in C (Hex(c, r) without NamedTuple's constructor), the
        # terrain filled in bulk, one Crossing shared by the hexsides of one kind: ~42M -> ~32M
        # instructions of every process that checks a megagame sheet (issue 28)
        cols, rows = range(m.cols[0], m.cols[1] + 1), range(m.rows[0], m.rows[1] + 1)
        hexes = frozenset(map(tuple.__new__, repeat(Hex), product(cols, rows)))
        terrain = dict.fromkeys(hexes, m.default_terrain)
        parse = Hex.parse
        for kind, listed in m.terrain.items():
            terrain.update(dict.fromkeys(map(parse, listed), kind))
        water: dict[tuple[Hex, Hex], str] = {}
        bridges: dict[tuple[Hex, Hex], tuple[str, str]] = {}
        for line in m.lines:
            kind, major = line.kind, line.name in MAJOR_RIVERS
            for text in line.hexsides:
                x, y = text.split("/")
                side = hexside(parse(x), parse(y))
                if kind == "river":
                    water[side] = "major river" if major else "minor river"
                elif kind == "canal":
                    water[side] = "canal"
                elif kind == "stream":
                    water.setdefault(side, "minor river")
                else:
                    bridges[side] = (kind, line.name)
        for text in m.bridges:  # the roads' bridges over streams and canals, unnamed on the map
            x, y = text.split("/")
            side = hexside(parse(x), parse(y))
            bridges.setdefault(side, ("bridge", f"bridge at {side[0]}/{side[1]}"))
        sides: dict[tuple[Hex, Hex], Crossing] = {}
        made: dict[tuple[str, str, str], Crossing] = {}  # Crossings are frozen: one per kind is shared
        for side, kind in water.items():
            what, name = bridges.get(side, ("", ""))
            cls_: Literal["none", "light", "heavy"] = (
                "heavy" if what == "bridge" else "light" if what in ("rail-bridge", "ferry") else "none")
            crossing = made.get((kind, cls_, name))
            if crossing is None:
                crossing = made[(kind, cls_, name)] = Crossing(kind, cls_, name)  # type: ignore[arg-type]
            sides[side] = crossing
        places = {parse(p.hex): p.name for p in m.places}
        links: dict[Hex, set[Hex]] = {}
        for r in m.railways:
            track = [parse(x) for x in r.hexes]
            for ha, hb in zip(track, track[1:], strict=False):
                if ha.is_adjacent(hb):
                    links.setdefault(ha, set()).add(hb)
                    links.setdefault(hb, set()).add(ha)
        return cls(hexes, terrain, sides, places, {h: frozenset(v) for h, v in links.items()})

    def rail_reach(self, start: Hex, blown: frozenset[str] = frozenset()) -> set[Hex]:
        """Every railway hex a train reaches from ``start`` in one turn: the whole network joined to
        it, less what lies beyond a blown rail bridge [6, 8]."""
        if start not in self.rails:
            return set()
        seen = {start}
        todo = [start]
        while todo:
            h = todo.pop()
            for nb in self.rails[h]:
                c = self.crossing(h, nb, blown)
                if nb in seen or (c.water != "none" and c.bridge == "none"):
                    continue
                seen.add(nb)
                todo.append(nb)
        return seen

    def station(self, h: Hex) -> bool:
        """A town or village on the railway: where units embark, and vehicles get off [6]."""
        return h in self.rails and (self.terrain.get(h) in ("town", "city") or h in self.places)

    def crossing(self, a: Hex, b: Hex, blown: frozenset[str] = frozenset()) -> Crossing:
        """The water between adjacent ``a`` and ``b`` and its bridge, a blown bridge counted as
        none [8]."""
        c = self.sides.get((a, b) if a < b else (b, a), NO_CROSSING)
        if c.bridge_name and c.bridge_name in blown:
            return Crossing(c.water, "none", c.bridge_name)
        return c

    def ground(self, h: Hex) -> Ground:
        return GROUND.get(self.terrain.get(h, "clear"), "open")

    def ways(self, start: Hex, troops: Troops, blown: frozenset[str], enemy: Collection[Hex],
             arrived: Callable[[Hex], bool]) -> tuple[dict[Hex, Hex | None], Hex | None]:
        """The shortest ways out of ``start`` (breadth first, neighbours in their fixed order) over
        the map, through no hex of ``enemy``, over water only where ``troops`` may cross [6], until a
        hex where ``arrived`` holds: each hex reached with the hex it was reached from, and that hex
        (None: none reached). A marching line's route and an HQ following its units search alike."""
        prev: dict[Hex, Hex | None] = {start: None}
        todo = deque([start])
        while todo:
            h = todo.popleft()
            if arrived(h):
                return prev, h
            for nb in h.neighbours():
                if nb in prev or nb not in self.hexes or nb in enemy:
                    continue
                c = self.crossing(h, nb, blown)
                if c.water != "none" and not may_cross(troops, c.water, c.bridge):
                    continue
                prev[nb] = h
                todo.append(nb)
        return prev, None

    def close(self, h: Hex) -> bool:
        return self.terrain.get(h, "clear") in CLOSE

    def near(self, h: Hex) -> str:
        """``h`` with the nearest named place within 3 km, for reports (``4309, Arnhem``): worked
        out once per hex for this map (:meth:`place_near`; ~18 of ~890 million instructions of
        verifying megagame-acked, issue 28)."""
        hit = self.near_memo.get(h)
        if hit is None:
            hit = self.near_memo[h] = self.place_near(h)
        return hit

    def place_near(self, h: Hex) -> str:
        """:meth:`near` worked out: every place of the map looked at."""
        best = min(((h.distance(p), name) for p, name in self.places.items() if h.distance(p) <= 3),
                   default=None)
        if best is None:
            return str(h)
        return f"{h} ({best[1]})" if best[0] == 0 else f"{h} ({best[0]} km from {best[1]})"


# -- the scenario -------------------------------------------------------------------------------


class Team(Record):
    """One team: a side of the engine with its own key (e.g. a division's HQ) [2]."""

    id: str = field(Str(SIDE_ID))
    side: Literal["allied", "german"] = field(SIDES)
    name: str = field(Str())


class UnitType(Record, slots=False):
    """A unit type of Annex A: its status profile ("Patel profiling system"), what it fights as,
    how it moves [6] and how much road it takes [7]."""

    profile: str = field(ProfileText(), description="e.g. 6-6-5-4-3-2-1-0; [..] support only; (2)-(1)-0 "
                         "defence only")
    kind: Kind = field(_of(Kind), default="infantry")
    troops: Troops = field(_of(Troops), default="infantry")
    light: bool = field(Bool(), default=False)
    mechanised: bool = field(Bool(), default=False)
    armoured: bool = field(Bool(), default=False)
    size: int = field(Int(ge=0, le=50), default=1, description="unit points on roads and bridges [7]")
    artillery: Literal["field", "medium", "rocket", "infantry-gun"] | None = field(
        Maybe(OneOf("field", "medium", "rocket", "infantry-gun")), default=None)
    flak: Literal["heavy", "light"] | None = field(Maybe(OneOf("heavy", "light")), default=None,
                                                   description="fires at air serials nearby [13]")
    dump: bool = field(Bool(), default=False,
                       description="a divisional dump: delivers its stock to the HQs in reach [11]")
    afdag: bool = field(Bool(), default=False, description="an Airborne Forward Delivery Airfield Group: supplies "
                        "landed on an airstrip where it stands +5 instead of +2 [12a] (rules version 3)")
    lift: int | None = field(Maybe(Int(ge=0, le=100)), default=None, description="an HQ's carrying limit, the "
                             "supply points its stack may hold, 'marked on the counter' [11] (rules version 3); "
                             "none: the scenario sets no limit")
    note: str = field(Str(), default="")

    @cached_property
    def _parsed(self) -> tuple[tuple[int, ...], Literal["normal", "support", "defence"]]:
        return parse_profile(self.profile)

    @property
    def mode(self) -> Literal["normal", "support", "defence"]:
        """Square brackets: support only; round brackets: defence only [9, "Unit Status"]."""
        return self._parsed[1]

    @cached_property
    def profile_memo(self) -> dict[int, Profile]:
        """Steps lost -> :meth:`combat_profile`, filled as the rules ask (this type's own)."""
        return {}

    def combat_profile(self, steps_lost: int = 0) -> Profile:
        """The status profile after ``steps_lost`` [9]: an immutable value, made once per type and
        number of steps (the rules ask a unit's status some 24,000 times a game, issue 28)."""
        hit = self.profile_memo.get(steps_lost)
        if hit is None:
            levels, mode = self._parsed
            hit = self.profile_memo[steps_lost] = Profile(levels, 0, mode == "support").lose(steps_lost)
        return hit


class UnitDef(Record):
    id: str = field(Str(r"^[A-Za-z0-9][A-Za-z0-9/._-]{0,39}$"))
    name: str = field(Str())
    team: str = field(Str())
    type: str = field(Str())
    formation: str = field(Str(), description="the division or brigade a facing enemy may identify [10]")
    division: str = field(Str(), default="", description="the division it fights in (note 6); empty: its formation")
    hex: str = field(Str(HEX), description="set-up hex, or where it arrives")
    arrives: int = field(Int(ge=1), default=1, description="the turn it is first on the map (1: at the start)")
    by_air: bool = field(Bool(), default=False, description="arrives by parachute or glider on its hex: weather and "
                         "the drop table [12]")
    glider: bool = field(Bool(), default=False,
                         description="with by_air: lands by glider (a roll on marsh or polder) [12]")
    hq: str | None = field(Maybe(Str()), default=None, description="the brigade or regiment HQ whose supplies it "
                           "draws on, within 5 km [11]")
    nation: Literal["british", "us", "german"] | None = field(
        Maybe(OneOf("british", "us", "german")), default=None,
        description="whose supply counters it holds and uses [11] (rules version 3): red British, green "
        "American, blue German; none: german for the German side, british for the Allies")
    stock: int = field(Int(ge=0), default=0, description="a dump's supply points at the start; rules version 3: an "
                       "HQ's stack and a supply transport unit's load at the start, or on arrival [11]")
    lift: int = field(Int(ge=0), default=0, description="supply points a dump delivers in a turn [11]")
    reach_km: int = field(Int(ge=1, le=50), default=10, description="how far a dump delivers [11]")


class Objective(Record):
    hex: str = field(Str(HEX))
    name: str = field(Str())
    points: int = field(Int(ge=1, le=100))
    held_by: Literal["allied", "german"] = field(SIDES)


Flying = Literal["good", "limited", "none"]
Region = Literal["england", "continent", "germany"]


class AirUnit(Record):
    """An air unit by squadrons, based off the map [12]."""

    id: str = field(Str())
    name: str = field(Str())
    side: Literal["allied", "german"] = field(SIDES)
    role: Literal["fighter", "fighter-bomber", "ground-attack", "transport", "heavy-bomber"] = field(
        OneOf("fighter", "fighter-bomber", "ground-attack", "transport", "heavy-bomber"))
    squadrons: int = field(Int(ge=1, le=100))
    region: Region = field(_of(Region))


class TurnWeather(Record):
    """Flying weather of one half-day turn where the air forces are based [12]."""

    turn: int = field(Int(ge=1))
    sky: str = field(Str(), default="")
    england: Flying = field(_of(Flying), default="good")
    continent: Flying = field(_of(Flying), default="good")


class BridgeCapacity(Record):
    """Unit points a phase over one named bridge or ferry of the map [7] (two phases a turn)."""

    name: str = field(Str())
    capacity: int = field(Int(ge=1, le=500))


class Choke(Record):
    """A choke point of the umpire's map off the bridges [7] (a town full of cheering civilians, a
    single-lane main road): unit points a phase into one hex (two phases a turn)."""

    hex: str = field(Str(HEX))
    name: str = field(Str())
    what: str = field(Str(), description="the text's kind of choke: 'town with crowds', 'main road, single lane', ...")
    capacity: int = field(Int(ge=1, le=500))


class SupplyArrival(Record):
    """Supplies that reach a team's pool at the start of a turn (a dump arriving) [11]."""

    team: str = field(Str())
    turn: int = field(Int(ge=2))
    points: int = field(Int(ge=1))
    what: str = field(Str())


class MegaScenario(Record, slots=False):
    id: str = field(Str())
    system: Literal["megagame"] = field(OneOf("megagame"), default="megagame")
    title: str = field(Str(), default="")
    reconstructed: str = field(Str(), default="", description="what of this scenario is reconstructed, and how")
    map: MegaMap = field(Reused(MegaMap, limit=16))  # a map keeps its geography: a few at most
    umpire: str = field(Str(SIDE_ID), default="GC")
    teams: list[Team] = field(ListOf(Nested(Team), min_length=2, max_length=16))
    types: dict[str, UnitType] = field(MapOf(Str(), Reused(UnitType)))
    units: list[UnitDef] = field(ListOf(Reused(UnitDef), min_length=2))
    turns: int = field(Int(ge=1, le=40), description="half-day turns [3]")
    first_day: int = field(Int(ge=1, le=31), default=17, description="the date (September 1944) of turn 1")
    first_half: Literal["morning", "afternoon"] = field(OneOf("morning", "afternoon"), default="morning",
                                                        description="the half-day of turn 1 [3]")
    supply: dict[str, int] = field(MapOf(Str(), Int()), default_factory=dict,
                                   description="supply points a team starts with [11]")
    supply_per_turn: dict[str, int] = field(MapOf(Str(), Int()), default_factory=dict,
                                            description="supply points a team receives each turn [11]")
    supply_arrivals: list[SupplyArrival] = field(ListOf(Nested(SupplyArrival)), default_factory=list)
    objectives: list[Objective] = field(ListOf(Nested(Objective)), default_factory=list)
    air: list[AirUnit] = field(ListOf(Nested(AirUnit)), default_factory=list)
    airstrips: list[str] = field(ListOf(Str()), default_factory=list, description="hexes of airstrips: supplies "
                                 "landed on one +2, +5 with an AFDAG deployed there [12a] (rules version 3)")
    bridges: list[BridgeCapacity] = field(ListOf(Nested(BridgeCapacity)), default_factory=list,
                                          description="none listed: by the bridge's class [7]")
    chokes: list[Choke] = field(ListOf(Nested(Choke)), default_factory=list,
                                description="choke points off the bridges [7]")
    trains: dict[str, int] = field(MapOf(Str(), Int()), default_factory=dict,
                                   description="unit points each side may put on trains a turn [6]")
    weather: list[TurnWeather] = field(ListOf(Nested(TurnWeather)), default_factory=list,
                                       description="none listed: good flying every turn")
    victory: str = field(Str(), default="", description="how the game is won (the rules leave it to the scenario)")
    copy_for: str = field(Str(), default="", description="a team's copy of the scenario (the set-up is secret): "
                          "only its side's forces and the enemy it sees at the start (pbem.systems.megagame.setup)")

    @cached_property
    def unit(self) -> dict[str, UnitDef]:
        """Units by id (built once per scenario object)."""
        return {u.id: u for u in self.units}


# -- the umpire's master state ------------------------------------------------------------------


class RailTrip(Record):
    """A unit on the railway [6]: embarking (a turn, two with vehicles), travelling (one turn, as far
    as the network goes), disembarking (a turn with vehicles)."""

    to: str = field(Str(HEX))
    phase: Literal["embarking", "travelling", "disembarking"] = field(
        OneOf("embarking", "travelling", "disembarking"))
    left: int = field(Int(ge=0, le=2), description="turns of this phase still to go")


class CabRank(Record):
    """A cab rank [9]: Europe-based squadrons in the air on call for one formation (a team) for a
    whole day -- the turn it is ordered and the next -- two squadrons giving one squadron's cover,
    for its attacks, prepared or not, and its defence."""

    squadrons: int = field(Int(ge=1))
    until: int = field(Int(ge=1), description="the last turn it flies")

    @property
    def cover(self) -> int:
        return self.squadrons // 2


class UnitState(Record, trusted=True):
    hex: str | None = field(Maybe(Str()), default=None, description="None: not yet arrived, or gone")
    steps: int = field(Int(ge=0), default=0, description="steps lost along the status profile")
    scattered: int = field(Int(ge=0), default=0, description="steps lost in a drop that come back at the end of "
                           "the next turn [12]")
    landed: bool = field(Bool(), default=False, description="dropped at the start of this turn: movement after "
                         "landing [12]")
    fired: int = field(Int(ge=0), default=0, description="turns in a row it has fired from this hex "
                       "(counter-battery [9])")
    stock: int = field(Int(ge=0), default=0, description="a dump's supply points left [11]")
    rail: RailTrip | None = field(Maybe(Nested(RailTrip)), default=None, description="on the railway [6]")
    prepared: bool = field(Bool(), default=False, description="had Prepare orders last turn [5, 9]")
    rested: int = field(Int(ge=0), default=0, description="turns in a row it has rested out of contact [5]")
    contact: dict[str, int] = field(MapOf(Str(), Int()), default_factory=dict,
                                    description="enemy formation -> turns in contact [10]")
    gone: bool = field(Bool(), default=False, description="captured or broken up [9]")


class UnitFacts(Record, trusted=True):
    """What one unit's team hears about it after a turn [10] (turned into words by the view).
    ``path`` and ``fights`` (rules version 3's) are left out of a dump while empty: facts of rules
    version 2 dump byte for byte as they did."""

    events: list[str] = field(ListOf(Str()), default_factory=list)
    enemy_status: int = field(Int(), default=0)
    enemy_tanks: bool = field(Bool(), default=False)
    enemy_artillery: bool = field(Bool(), default=False)
    enemy_air: bool = field(Bool(), default=False)
    enemy_formation: str = field(Str(), default="")
    turns_in_contact: int = field(Int(), default=0)
    supply_used: int = field(Int(), default=0)
    path: list[str] = field(ListOf(Str()), default_factory=list, omit=omit_empty, description=(
        "rules version 3: the hexes it went through this turn, where it began first (moves, retreats, "
        "advances), for its team's map [10]"))
    fights: list[str] = field(ListOf(Str()), default_factory=list, omit=omit_empty, description=(
        "rules version 3: the hexes of the combats it fought in this turn, for its team's map [9, 10]"))


class ParkedSupply(Record):
    """Supply counters parked on the map: not a dump, they deliver nothing [11] (a dump's stock left
    behind when the dump moved, waiting for the transport units). ``nation`` (rules version 3's) is
    left out of a dump while empty: version 2's parked counters dump byte for byte as they did."""

    team: str = field(Str())
    hex: str = field(Str(HEX))
    points: int = field(Int(ge=1))
    left_by: str = field(Str(), default="", description="the dump that left them behind on moving [11]")
    nation: str = field(
        OneOf("british", "us", "german", ""), default="", omit=omit_empty, description=(
            "rules version 3: whose counters they are, the nation of whoever parked them; only a dump or "
            "transport unit of that nation takes them up [11]"))


class MegaState(Record, trusted=True):
    """The umpire's master state. Rules version 3's keys (:data:`OMIT_EMPTY`) are left out of a dump
    while empty, so that a state of rules version 2 (which never fills them) dumps byte for byte as
    it did [8, 9]."""

    turn: int = field(Int(ge=1))
    over: bool = field(Bool(), default=False)
    units: dict[str, UnitState] = field(MapOf(Str(), Nested(UnitState)))
    supply: dict[str, int] = field(MapOf(Str(), Int()))
    blown: list[str] = field(ListOf(Str()), default_factory=list, description="names of bridges blown [8]")
    control: dict[str, Literal["allied", "german"]] = field(MapOf(Str(), SIDES), default_factory=dict,
                                                            description="objective hex -> holder")
    facts: dict[str, UnitFacts] = field(MapOf(Str(), Nested(UnitFacts)), default_factory=dict,
                                        description="last turn's facts per unit [10]")
    intel: dict[str, list[str]] = field(MapOf(Str(), ListOf(Str())), default_factory=dict,
                                        description="last turn's air reports per team [12]")
    air_lost: dict[str, int] = field(MapOf(Str(), Int()), default_factory=dict,
                                     description="air unit -> squadrons lost in air combat, for good [12]")
    cab_rank: dict[str, CabRank] = field(MapOf(Str(), Nested(CabRank)), default_factory=dict,
                                         description="team -> its cab rank, on call all day [9]")
    night_drops: list[str] = field(ListOf(Str()), default_factory=list,
                                   description="units that dropped by night at the start of this turn [12]")
    stragglers: dict[str, int] = field(MapOf(Str(), Int()), default_factory=dict, description="unit -> the turn "
                                       "at whose end the men scattered in its night drop come in [12]")
    parked: list[ParkedSupply] = field(ListOf(Nested(ParkedSupply)), default_factory=list,
                                       description="supply counters parked on the map [11]")
    loads: dict[str, int] = field(MapOf(Str(), Int()), default_factory=dict,
                                  description="supply transport unit -> supply points it carries [11]")
    tested: list[str] = field(ListOf(Str()), default_factory=list, omit=omit_empty, description="bridges tested "
                              "that did not blow, no Allied unit over them since [8]")
    safe: list[str] = field(ListOf(Str()), default_factory=list, omit=omit_empty, description="bridges tested "
                            "that did not blow and passed over by an Allied unit: never tested again [8]")
    routed: list[str] = field(ListOf(Str()), default_factory=list, omit=omit_empty, description="units that "
                              "suffered a Total Success last turn: no counter-attack this turn [9]")
    attached: dict[str, str] = field(MapOf(Str(), Str()), default_factory=dict, omit=omit_empty, description=(
        "unit -> the division it has been attached to, and fights with (note 6), by an order of an earlier "
        "turn [9 timings]"))


    def dump(self) -> dict[str, Any]:
        """:meth:`to_json`, its units made field by field (a replay dumps every state it makes: the
        generic walk of the 271 units of the Market Garden scenario was most of it, issue 28):
        the same keys in the same order, every dict and list a new one."""
        units = {uid: _unit_json(u) for uid, u in self.units.items()}
        rest = self.replace(units={}).to_json()
        return {k: units if k == "units" else v for k, v in rest.items()}


_UNIT_FIELDS = tuple(name for name, _ in UnitState._spec())
_unit_values = attrgetter(*_UNIT_FIELDS)
"""A unit's fields' values in declaration order, as a tuple (read in C)."""


def _unit_json(u: UnitState) -> dict[str, Any]:
    """``u.to_json()``: every field under its name (none renamed, none left out), its railway trip
    as JSON, its contacts a new dict."""
    out = dict(zip(_UNIT_FIELDS, _unit_values(u), strict=True))
    rail = out["rail"]
    if rail is not None:
        out["rail"] = rail.to_json()
    out["contact"] = dict(out["contact"])
    return out


OMIT_EMPTY = ("tested", "safe", "routed", "attached")
""":class:`MegaState` keys left out of a dump while empty (rules version 3's)."""


# -- Game Control's rulings ---------------------------------------------------------------------


class Grouping(Record):
    """Game Control's grouping of the attack on one hex, replacing the engine's proposal [9
    "Analysing Combat"]."""

    at: str = field(Str(HEX), description="the defenders' hex")
    attackers: list[str] = field(ListOf(Str()), description="the attacking units Game Control groups against it")


class Advantage(Record):
    """A clear tactical advantage Game Control rules for one side of a combat (+points a unit) [9]."""

    at: str = field(Str(HEX))
    side: Literal["attacker", "defender"] = field(OneOf("attacker", "defender"))
    points: int = field(Int(ge=1, le=3))
    why: str = field(Str(min_length=1, max_length=200))


class MegaRulings(Record):
    """Everything Game Control may rule on a turn; empty: accept every proposal, no judgement."""

    groupings: list[Grouping] = field(ListOf(Nested(Grouping)), default_factory=list)
    advantage: list[Advantage] = field(ListOf(Nested(Advantage)), default_factory=list)


# -- a team's view (what its pbem holds and checks its orders against) ----------------------------


class SeenUnit(Record):
    id: str = field(Str())
    hex: str = field(Str())
    state: str = field(Str(), description="effectiveness in words [10]")
    prepared: bool = field(Bool())
    landed: bool = field(Bool(), default=False)
    rail: str = field(Str(), default="", description="what it is doing on the railway, in words [6]")


class FriendUnit(Record):
    id: str = field(Str())
    team: str = field(Str())
    hex: str = field(Str())


class SeenEnemy(Record):
    hex: str = field(Str())
    where: str = field(Str())
    seen: str = field(Str())


class HeldObjective(Record):
    name: str = field(Str())
    hex: str = field(Str())
    points: int = field(Int(), default=0)
    held_by: Literal["allied", "german"] = field(SIDES)


class HQStack(Record):
    """An HQ's supply stack as its team sees it [11] (rules version 3): the counters are on the map."""

    hq: str = field(Str())
    hex: str = field(Str())
    points: int = field(Int())
    lift: int | None = field(Maybe(Int()), default=None, description="the most it can carry (marked on the counter)")
    nation: str = field(Str())


class TeamView(Record):
    """A team's view [10]: the state a team's own pbem holds, checks and writes its orders against.
    ``stacks`` [11], ``moves`` and ``fights`` [10] (rules version 3) are left out of a dump while
    empty, so a version 2 view dumps as it did."""

    turn: int = field(Int())
    date: str = field(Str())
    over: bool = field(Bool())
    team: str = field(Str())
    supply: int = field(Int())
    units: list[SeenUnit] = field(ListOf(Nested(SeenUnit)))
    friends: list[FriendUnit] = field(ListOf(Nested(FriendUnit)))
    enemy: list[SeenEnemy] = field(ListOf(Nested(SeenEnemy)))
    reports: list[str] = field(ListOf(Str()))
    air: list[str] = field(ListOf(Str()), default_factory=list)
    blown: list[str] = field(ListOf(Str()))
    objectives: list[HeldObjective] = field(ListOf(Nested(HeldObjective)))
    air_lost: dict[str, int] = field(MapOf(Str(), Int()), default_factory=dict,
                                     description="squadrons the side's own air units have lost [12]")
    cab_rank: CabRank | None = field(Maybe(Nested(CabRank)), default=None,
                                     description="the team's cab rank, when one is on call this turn [9]")
    night_drops: list[str] = field(ListOf(Str()), default_factory=list,
                                   description="own units that dropped by night at the start of this turn [12]")
    stacks: list[HQStack] = field(ListOf(Nested(HQStack)), default_factory=list, omit=omit_empty, description=(
        "the supplies held at each of the team's HQs on the map [11] (rules version 3)"))
    moves: dict[str, list[str]] = field(MapOf(Str(), ListOf(Str())), default_factory=dict, omit=omit_empty,
                                        description=("rules version 3: own unit -> the hexes it went through last "
                                                     "turn, for the team's map [10]"))
    fights: list[str] = field(ListOf(Str()), default_factory=list, omit=omit_empty, description=(
        "rules version 3: the hexes where own units fought last turn, for the team's map [9, 10]"))
