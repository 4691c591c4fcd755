"""Data models of the megagame ruleset (seed 004): the scenario (teams, unit types with their status
profiles, units, objectives, the 1 km map), the umpire's master state, the rulings Game Control
signs, and the per-unit facts a report is written from.

Plain data validated by pydantic; the rules live in the modules beside it (the package's docstring
lists them). Nothing here is ever shown to a team as a number: a team sees
:meth:`MegagameRules.view`, which puts status into words [10].
"""

# Annotations are evaluated as written (no ``from __future__ import annotations``): pydantic would
# otherwise compile and evaluate every field's annotation string as each model class is made, a
# cost paid by every command at start-up [28 item 4] (tests/cli/test_start_imports.py).

from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
)

from pbem.maps.hexmap import Hex, hexside
from pbem.systems.megagame.combat import Kind, Profile
from pbem.systems.megagame.movement import Ground, Troops, may_cross
from pbem.systems.megagame.profiles import parse_profile

SIDE_ID = r"^[A-Z][A-Z0-9]{0,7}$"
HEX = r"^\d{4}$"


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # validators made at first use [28 item 4]


# -- the map ------------------------------------------------------------------------------------


class MapLine(_Data):
    """Water, bridges and ferries on hexsides (``"0129/0130"``)."""

    kind: Literal["river", "canal", "stream", "bridge", "rail-bridge", "ferry"]
    name: str
    hexsides: list[str]


class MapRoute(_Data):
    kind: Literal["road", "trail", "railway"]
    name: str
    hexes: list[str]
    off_map: list[Literal["start", "end"]] = Field(default_factory=list)


class MapPlace(_Data):
    hex: str = Field(pattern=HEX)
    name: str


class MegaMap(_Data):
    """The 1 km map (``scenarios/market-garden-1km-map.json``): hexes by terrain kind, water and
    bridges on hexsides, roads, places."""

    id: str
    title: str = ""
    reconstructed: str = ""
    cols: tuple[int, int]
    rows: tuple[int, int]
    default_terrain: str = "clear"
    terrain: dict[str, list[str]]
    routes: list[MapRoute] = Field(default_factory=list)
    railways: list[MapRoute] = Field(default_factory=list, description="for rail movement [6]")
    lines: list[MapLine] = Field(default_factory=list)
    bridges: list[str] = Field(default_factory=list)
    places: list[MapPlace] = Field(default_factory=list)

    def on_map(self, h: Hex) -> bool:
        """Within the map's bounds: one of :attr:`Geo.hexes <Geo>` (without building it)."""
        return self.cols[0] <= h.col <= self.cols[1] and self.rows[0] <= h.row <= self.rows[1]

    @cached_property
    def geo(self) -> "Geo":
        """The map as the rules read it (built once per scenario object)."""
        return Geo.of(self)


MAJOR_RIVERS = frozenset({"Maas", "Waal", "Neder Rijn", "Rhine", "Rijn"})
"""Rivers no unit crosses off a bridge or ferry [6]; the other rivers count as minor ones."""

GROUND: dict[str, Ground] = {"clear": "open", "polder": "open", "mixed": "close", "woods": "wood-town",
                             "town": "wood-town", "city": "wood-town", "marsh": "marsh"}
"""Map terrain -> the ground column of the movement table [6]."""

CLOSE = frozenset({"mixed", "woods", "town", "city"})
"""Terrain that is built-up, wooded or close country (combat note 4, passing distance [6])."""


@dataclass(frozen=True)
class Crossing:
    water: Literal["none", "canal", "minor river", "major river"]
    bridge: Literal["none", "light", "heavy"]
    bridge_name: str = ""


NO_CROSSING = Crossing("none", "none")


@dataclass(frozen=True)
class Geo:
    """Terrain per hex and what lies on each hexside, read from a :class:`MegaMap`."""

    hexes: frozenset[Hex]
    terrain: dict[Hex, str]
    sides: dict[tuple[Hex, Hex], Crossing]
    places: dict[Hex, str]
    rails: dict[Hex, frozenset[Hex]]
    """The railway network: each railway hex and the railway hexes it joins [6]."""
    around_memo: dict[tuple[Hex, int], tuple[Hex, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    """(hex, radius) -> :meth:`around`, filled as the rules ask (this map's own)."""

    def around(self, h: Hex, radius: int) -> tuple[Hex, ...]:
        """``h.within(radius)`` (every hex within ``radius`` of ``h``, ``h`` included, in (col, row)
        order), worked out once per hex and radius for this map: the contact and flak checks ask it
        some 24,000 times a game (issue 28)."""
        hit = self.around_memo.get((h, radius))
        if hit is None:
            hit = self.around_memo[(h, radius)] = tuple(h.within(radius))
        return hit

    @classmethod
    def of(cls, m: MegaMap) -> "Geo":
        hexes = frozenset(Hex(c, r) for c in range(m.cols[0], m.cols[1] + 1)
                          for r in range(m.rows[0], m.rows[1] + 1))
        terrain = {h: m.default_terrain for h in hexes}
        for kind, listed in m.terrain.items():
            for text in listed:
                terrain[Hex.parse(text)] = kind
        water: dict[tuple[Hex, Hex], str] = {}
        bridges: dict[tuple[Hex, Hex], tuple[str, str]] = {}
        for line in m.lines:
            for text in line.hexsides:
                a, b = (Hex.parse(x) for x in text.split("/"))
                side = hexside(a, b)
                if line.kind == "river":
                    water[side] = "major river" if line.name in MAJOR_RIVERS else "minor river"
                elif line.kind == "canal":
                    water[side] = "canal"
                elif line.kind == "stream":
                    water.setdefault(side, "minor river")
                else:
                    bridges[side] = (line.kind, line.name)
        for text in m.bridges:  # the roads' bridges over streams and canals, unnamed on the map
            a, b = (Hex.parse(x) for x in text.split("/"))
            side = hexside(a, b)
            bridges.setdefault(side, ("bridge", f"bridge at {side[0]}/{side[1]}"))
        sides: dict[tuple[Hex, Hex], Crossing] = {}
        for side, kind in water.items():
            what, name = bridges.get(side, ("", ""))
            cls_: Literal["none", "light", "heavy"] = (
                "heavy" if what == "bridge" else "light" if what in ("rail-bridge", "ferry") else "none")
            sides[side] = Crossing(kind, cls_, name)  # type: ignore[arg-type]
        places = {Hex.parse(p.hex): p.name for p in m.places}
        links: dict[Hex, set[Hex]] = {}
        for r in m.railways:
            track = [Hex.parse(x) for x in r.hexes]
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
        """``h`` with the nearest named place within 3 km, for reports (``4309, Arnhem``)."""
        best = min(((h.distance(p), name) for p, name in self.places.items() if h.distance(p) <= 3),
                   default=None)
        if best is None:
            return str(h)
        return f"{h} ({best[1]})" if best[0] == 0 else f"{h} ({best[0]} km from {best[1]})"


# -- the scenario -------------------------------------------------------------------------------


class Team(_Data):
    """One team: a side of the engine with its own key (e.g. a division's HQ) [2]."""

    id: str = Field(pattern=SIDE_ID)
    side: Literal["allied", "german"]
    name: str


class UnitType(_Data):
    """A unit type of Annex A: its status profile ("Patel profiling system"), what it fights as,
    how it moves [6] and how much road it takes [7]."""

    profile: str = Field(description="e.g. 6-6-5-4-3-2-1-0; [..] support only; (2)-(1)-0 defence only")
    kind: Kind = "infantry"
    troops: Troops = "infantry"
    light: bool = False
    mechanised: bool = False
    armoured: bool = False
    size: int = Field(1, ge=0, le=50, description="unit points on roads and bridges [7]")
    artillery: Literal["field", "medium", "rocket", "infantry-gun"] | None = None
    flak: Literal["heavy", "light"] | None = Field(None, description="fires at air serials nearby [13]")
    dump: bool = Field(False, description="a divisional dump: delivers its stock to the HQs in reach [11]")
    afdag: bool = Field(False, description="an Airborne Forward Delivery Airfield Group: supplies landed on an "
                        "airstrip where it stands +5 instead of +2 [12a] (rules version 3)")
    lift: int | None = Field(None, ge=0, le=100, description="an HQ's carrying limit, the supply points its stack may "
                             "hold, 'marked on the counter' [11] (rules version 3); none: the scenario sets no limit")
    note: str = ""

    @field_validator("profile")
    @classmethod
    def _readable(cls, v: str) -> str:
        parse_profile(v)  # ValueError names what is wrong
        return v

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


class UnitDef(_Data):
    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9/._-]{0,39}$")
    name: str
    team: str
    type: str
    formation: str = Field(description="the division or brigade a facing enemy may identify [10]")
    division: str = Field("", description="the division it fights in (note 6); empty: its formation")
    hex: str = Field(pattern=HEX, description="set-up hex, or where it arrives")
    arrives: int = Field(1, ge=1, description="the turn it is first on the map (1: at the start)")
    by_air: bool = Field(False, description="arrives by parachute or glider on its hex: weather and the drop table [12]")
    glider: bool = Field(False, description="with by_air: lands by glider (a roll on marsh or polder) [12]")
    hq: str | None = Field(None, description="the brigade or regiment HQ whose supplies it draws on, within 5 km [11]")
    nation: Literal["british", "us", "german"] | None = Field(
        None, description="whose supply counters it holds and uses [11] (rules version 3): red British, green "
        "American, blue German; none: german for the German side, british for the Allies")
    stock: int = Field(0, ge=0, description="a dump's supply points at the start; rules version 3: an HQ's stack "
                       "and a supply transport unit's load at the start, or on arrival [11]")
    lift: int = Field(0, ge=0, description="supply points a dump delivers in a turn [11]")
    reach_km: int = Field(10, ge=1, le=50, description="how far a dump delivers [11]")


class Objective(_Data):
    hex: str = Field(pattern=HEX)
    name: str
    points: int = Field(ge=1, le=100)
    held_by: Literal["allied", "german"]


Flying = Literal["good", "limited", "none"]
Region = Literal["england", "continent", "germany"]


class AirUnit(_Data):
    """An air unit by squadrons, based off the map [12]."""

    id: str
    name: str
    side: Literal["allied", "german"]
    role: Literal["fighter", "fighter-bomber", "ground-attack", "transport", "heavy-bomber"]
    squadrons: int = Field(ge=1, le=100)
    region: Region


class TurnWeather(_Data):
    """Flying weather of one half-day turn where the air forces are based [12]."""

    turn: int = Field(ge=1)
    sky: str = ""
    england: Flying = "good"
    continent: Flying = "good"


class BridgeCapacity(_Data):
    """Unit points a phase over one named bridge or ferry of the map [7] (two phases a turn)."""

    name: str
    capacity: int = Field(ge=1, le=500)


class Choke(_Data):
    """A choke point of the umpire's map off the bridges [7] (a town full of cheering civilians, a
    single-lane main road): unit points a phase into one hex (two phases a turn)."""

    hex: str = Field(pattern=HEX)
    name: str
    what: str = Field(description="the text's kind of choke: 'town with crowds', 'main road, single lane', ...")
    capacity: int = Field(ge=1, le=500)


class SupplyArrival(_Data):
    """Supplies that reach a team's pool at the start of a turn (a dump arriving) [11]."""

    team: str
    turn: int = Field(ge=2)
    points: int = Field(ge=1)
    what: str


class MegaScenario(_Data):
    id: str
    system: Literal["megagame"] = "megagame"
    title: str = ""
    reconstructed: str = Field("", description="what of this scenario is reconstructed, and how")
    map: MegaMap
    umpire: str = Field("GC", pattern=SIDE_ID)
    teams: list[Team] = Field(min_length=2, max_length=16)
    types: dict[str, UnitType]
    units: list[UnitDef] = Field(min_length=2)
    turns: int = Field(ge=1, le=40, description="half-day turns [3]")
    first_day: int = Field(17, ge=1, le=31, description="the date (September 1944) of turn 1")
    first_half: Literal["morning", "afternoon"] = Field("morning", description="the half-day of turn 1 [3]")
    supply: dict[str, int] = Field(default_factory=dict, description="supply points a team starts with [11]")
    supply_per_turn: dict[str, int] = Field(default_factory=dict, description="supply points a team receives each turn [11]")
    supply_arrivals: list[SupplyArrival] = Field(default_factory=list)
    objectives: list[Objective] = Field(default_factory=list)
    air: list[AirUnit] = Field(default_factory=list)
    airstrips: list[str] = Field(default_factory=list, description="hexes of airstrips: supplies landed on one +2, "
                                 "+5 with an AFDAG deployed there [12a] (rules version 3)")
    bridges: list[BridgeCapacity] = Field(default_factory=list, description="none listed: by the bridge's class [7]")
    chokes: list[Choke] = Field(default_factory=list, description="choke points off the bridges [7]")
    trains: dict[str, int] = Field(default_factory=dict, description="unit points each side may put on trains a turn [6]")
    weather: list[TurnWeather] = Field(default_factory=list, description="none listed: good flying every turn")
    victory: str = Field("", description="how the game is won (the rules leave it to the scenario)")
    copy_for: str = Field("", description="a team's copy of the scenario (the set-up is secret): only "
                          "its side's forces and the enemy it sees at the start (pbem.systems.megagame.setup)")

    @cached_property
    def unit(self) -> dict[str, UnitDef]:
        """Units by id (built once per scenario object)."""
        return {u.id: u for u in self.units}


# -- the umpire's master state ------------------------------------------------------------------


class RailTrip(_Data):
    """A unit on the railway [6]: embarking (a turn, two with vehicles), travelling (one turn, as far
    as the network goes), disembarking (a turn with vehicles)."""

    to: str = Field(pattern=HEX)
    phase: Literal["embarking", "travelling", "disembarking"]
    left: int = Field(ge=0, le=2, description="turns of this phase still to go")


class CabRank(_Data):
    """A cab rank [9]: Europe-based squadrons in the air on call for one formation (a team) for a
    whole day -- the turn it is ordered and the next -- two squadrons giving one squadron's cover,
    for its attacks, prepared or not, and its defence."""

    squadrons: int = Field(ge=1)
    until: int = Field(ge=1, description="the last turn it flies")

    @property
    def cover(self) -> int:
        return self.squadrons // 2


class UnitState(_Data):
    hex: str | None = Field(None, description="None: not yet arrived, or gone")
    steps: int = Field(0, ge=0, description="steps lost along the status profile")
    scattered: int = Field(0, ge=0, description="steps lost in a drop that come back at the end of the next turn [12]")
    landed: bool = Field(False, description="dropped at the start of this turn: movement after landing [12]")
    fired: int = Field(0, ge=0, description="turns in a row it has fired from this hex (counter-battery [9])")
    stock: int = Field(0, ge=0, description="a dump's supply points left [11]")
    rail: RailTrip | None = Field(None, description="on the railway [6]")
    prepared: bool = Field(False, description="had Prepare orders last turn [5, 9]")
    rested: int = Field(0, ge=0, description="turns in a row it has rested out of contact [5]")
    contact: dict[str, int] = Field(default_factory=dict, description="enemy formation -> turns in contact [10]")
    gone: bool = Field(False, description="captured or broken up [9]")


class UnitFacts(_Data):
    """What one unit's team hears about it after a turn [10] (turned into words by the view)."""

    events: list[str] = Field(default_factory=list)
    enemy_status: int = 0
    enemy_tanks: bool = False
    enemy_artillery: bool = False
    enemy_air: bool = False
    enemy_formation: str = ""
    turns_in_contact: int = 0
    supply_used: int = 0
    path: list[str] = Field(default_factory=list, description=(
        "rules version 3: the hexes it went through this turn, where it began first (moves, retreats, "
        "advances), for its team's map [10]"))
    fights: list[str] = Field(default_factory=list, description=(
        "rules version 3: the hexes of the combats it fought in this turn, for its team's map [9, 10]"))

    @model_serializer(mode="wrap")
    def _omit_empty(self, handler: SerializerFunctionWrapHandler) -> Any:
        """``path`` and ``fights`` (rules version 3's) are left out while empty: facts of rules version
        2 dump byte for byte as they did."""
        return _without_empty(handler(self), ("path", "fights"))


def _without_empty(data: Any, keys: tuple[str, ...]) -> Any:
    """``data`` (a model's dump) without those of ``keys`` whose value is empty."""
    if isinstance(data, dict):
        for key in keys:
            if key in data and not data[key]:
                del data[key]
    return data


class ParkedSupply(_Data):
    """Supply counters parked on the map: not a dump, they deliver nothing [11] (a dump's stock left
    behind when the dump moved, waiting for the transport units)."""

    team: str
    hex: str = Field(pattern=HEX)
    points: int = Field(ge=1)
    left_by: str = Field("", description="the dump that left them behind on moving [11]")
    nation: Literal["british", "us", "german", ""] = Field("", description=(
        "rules version 3: whose counters they are, the nation of whoever parked them; only a dump or "
        "transport unit of that nation takes them up [11]"))

    @model_serializer(mode="wrap")
    def _omit_empty(self, handler: SerializerFunctionWrapHandler) -> Any:
        """``nation`` (rules version 3's) is left out while empty: version 2's parked counters dump
        byte for byte as they did."""
        return _without_empty(handler(self), ("nation",))


class MegaState(_Data):
    turn: int = Field(ge=1)
    over: bool = False
    units: dict[str, UnitState]
    supply: dict[str, int]
    blown: list[str] = Field(default_factory=list, description="names of bridges blown [8]")
    control: dict[str, Literal["allied", "german"]] = Field(default_factory=dict, description="objective hex -> holder")
    facts: dict[str, UnitFacts] = Field(default_factory=dict, description="last turn's facts per unit [10]")
    intel: dict[str, list[str]] = Field(default_factory=dict, description="last turn's air reports per team [12]")
    air_lost: dict[str, int] = Field(default_factory=dict, description="air unit -> squadrons lost in air combat, for good [12]")
    cab_rank: dict[str, CabRank] = Field(default_factory=dict, description="team -> its cab rank, on call all day [9]")
    night_drops: list[str] = Field(default_factory=list, description="units that dropped by night at the start of this turn [12]")
    stragglers: dict[str, int] = Field(default_factory=dict, description="unit -> the turn at whose end the men scattered in its night drop come in [12]")
    parked: list[ParkedSupply] = Field(default_factory=list, description="supply counters parked on the map [11]")
    loads: dict[str, int] = Field(default_factory=dict, description="supply transport unit -> supply points it carries [11]")
    tested: list[str] = Field(default_factory=list, description="bridges tested that did not blow, no Allied unit over them since [8]")
    safe: list[str] = Field(default_factory=list, description="bridges tested that did not blow and passed over by an Allied unit: never tested again [8]")
    routed: list[str] = Field(default_factory=list, description="units that suffered a Total Success last turn: no counter-attack this turn [9]")
    attached: dict[str, str] = Field(default_factory=dict, description="unit -> the division it has been attached to, "
                                     "and fights with (note 6), by an order of an earlier turn [9 timings]")

    @model_serializer(mode="wrap")
    def _omit_empty(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Rules version 3's keys are left out while empty, so that a state of rules version 2 (which
        never fills them) dumps byte for byte as it did [8, 9]."""
        data = handler(self)
        if isinstance(data, dict):
            for key in OMIT_EMPTY:
                if key in data and not data[key]:
                    del data[key]
        return data


OMIT_EMPTY = ("tested", "safe", "routed", "attached")
""":class:`MegaState` keys left out of a dump while empty (rules version 3's)."""


# -- Game Control's rulings ---------------------------------------------------------------------


class Grouping(_Data):
    """Game Control's grouping of the attack on one hex, replacing the engine's proposal [9
    "Analysing Combat"]."""

    at: str = Field(pattern=HEX, description="the defenders' hex")
    attackers: list[str] = Field(description="the attacking units Game Control groups against it")


class Advantage(_Data):
    """A clear tactical advantage Game Control rules for one side of a combat (+points a unit) [9]."""

    at: str = Field(pattern=HEX)
    side: Literal["attacker", "defender"]
    points: int = Field(ge=1, le=3)
    why: str = Field(min_length=1, max_length=200)


class MegaRulings(_Data):
    """Everything Game Control may rule on a turn; empty: accept every proposal, no judgement."""

    groupings: list[Grouping] = Field(default_factory=list)
    advantage: list[Advantage] = Field(default_factory=list)


# -- a team's view (what its pbem holds and checks its orders against) ----------------------------


class SeenUnit(_Data):
    id: str
    hex: str
    state: str = Field(description="effectiveness in words [10]")
    prepared: bool
    landed: bool = False
    rail: str = Field("", description="what it is doing on the railway, in words [6]")


class FriendUnit(_Data):
    id: str
    team: str
    hex: str


class SeenEnemy(_Data):
    hex: str
    where: str
    seen: str


class HeldObjective(_Data):
    name: str
    hex: str
    points: int = 0
    held_by: Literal["allied", "german"]


class HQStack(_Data):
    """An HQ's supply stack as its team sees it [11] (rules version 3): the counters are on the map."""

    hq: str
    hex: str
    points: int
    lift: int | None = Field(None, description="the most it can carry (marked on the counter)")
    nation: str


class TeamView(_Data):
    """A team's view [10]: the state a team's own pbem holds, checks and writes its orders against."""

    turn: int
    date: str
    over: bool
    team: str
    supply: int
    units: list[SeenUnit]
    friends: list[FriendUnit]
    enemy: list[SeenEnemy]
    reports: list[str]
    air: list[str] = Field(default_factory=list)
    blown: list[str]
    objectives: list[HeldObjective]
    air_lost: dict[str, int] = Field(default_factory=dict, description="squadrons the side's own air units have lost [12]")
    cab_rank: CabRank | None = Field(None, description="the team's cab rank, when one is on call this turn [9]")
    night_drops: list[str] = Field(default_factory=list, description="own units that dropped by night at the start of this turn [12]")
    stacks: list[HQStack] = Field(default_factory=list, description="the supplies held at each of the team's HQs "
                                  "on the map [11] (rules version 3)")
    moves: dict[str, list[str]] = Field(default_factory=dict, description=(
        "rules version 3: own unit -> the hexes it went through last turn, for the team's map [10]"))
    fights: list[str] = Field(default_factory=list, description=(
        "rules version 3: the hexes where own units fought last turn, for the team's map [9, 10]"))

    @model_serializer(mode="wrap")
    def _omit_empty(self, handler: SerializerFunctionWrapHandler) -> Any:
        """``stacks`` [11], ``moves`` and ``fights`` [10] (rules version 3) are left out while empty, so
        a version 2 view dumps as it did."""
        return _without_empty(handler(self), ("stacks", "moves", "fights"))
