"""Data models of a Vae Victis *Arnhem 1944* scenario: the map, the counters and formations, the
set-up, the reinforcements and parachute drops, the turn track with its weather, the options and
the victory conditions. Plain data, checked as it is read (:mod:`pbem.protocol.record`); the rules
that use it live elsewhere.

The game's vocabulary, with the cases that define it:

- a counter has a combat value (CF), an armour or an antitank rating, combat steps and movement
  points [1.1]; a unit of more than two steps has a second counter that replaces it once it is
  down to two steps or fewer [1.2]; an HQ (EM) is a counter like the others [1.3]; artillery
  has a bombardment value (BR), a defence factor (DF), a range and movement points, and one
  step [1.4]; artillery has an armour value of 1 (errata); the XXX Corps engineer has no CF and
  does not count for stacking [5, 12.1];
- formations have an HQ and a colour [1.5] (the 82nd Airborne has no HQ [17]) and trace supply
  to map edges, a hex or drop zones [10.1];
- German reinforcements enter by a zone A-G on a turn and may be delayed, shifting zone by one
  for each turn of delay [15.1]; XXX Corps enters by hex 0327 [15.3]; airborne reinforcements
  drop within two hexes of a drop zone [15.2], historically or when the weather allows [17.3,
  17.4], the Poles anywhere that fits 15.2 in the free drop;
- ten turns of 24 hours [0.1, 2], historical or random weather [14];
- victory: 12 infantry steps across the Neder Rijn, or both hexes of the Arnhem bridge [16].

Hex numbers are ``XXYY`` as the text writes them (its ``305``, ``709``, ``922`` and ``327`` are
``0305``, ``0709``, ``0922`` and ``0327``).
"""

from __future__ import annotations

# Every class here is a plain record (:mod:`pbem.protocol.record`), the map too [28].
from functools import cached_property
from typing import Any, Literal

from pbem.maps.hexmap import Hex, hexside, hexside_str
from pbem.maps.model import HEX, MapData
from pbem.protocol.record import (
    Anything,
    Bool,
    Const,
    Int,
    IntKey,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    OneOf,
    Record,
    Str,
    TupleOf,
    field,
)
from pbem.systems.arnhem1944.tables import (
    Crt,
    CrtFile,
    Tec,
    TecFile,
    default_crt,
    default_tec,
    table_problems,
)

Side = Literal["AL", "DE"]
ZoneId = Literal["A", "B", "C", "D", "E", "F", "G"]
ZONES: tuple[ZoneId, ...] = ("A", "B", "C", "D", "E", "F", "G")
"""In order round the map edge, so that 'one zone further' [15.1] is the next letter either way."""
Edge = Literal["north", "east", "south", "west"]
Weather = Literal["clear", "cloudy", "overcast"]

SIDE = OneOf("AL", "DE")
WEATHERS = ("clear", "cloudy", "overcast")
_ID = r"^[A-Za-z0-9][A-Za-z0-9/_.+-]*$"

HEX_TERRAIN = ("clear", "polder", "woods", "town", "city", "marsh")
"""The hex terrain ids of this game's map (the TEC is keyed on them)."""
HEXSIDE_TERRAIN = ("river", "canal", "stream", "bridge", "rail-bridge", "ferry")
ROUTE_KINDS = ("road", "railway")


# --------------------------------------------------------------------------------------------------
# Map
# --------------------------------------------------------------------------------------------------


class Railway(Record):
    """A railway drawn as a chain of adjacent hexes (a route of its own kind)."""

    kind: str = field(Const("railway"), default="railway")
    name: str = field(Str(), default="")
    hexes: list[str] = field(ListOf(HEX))
    off_map: list[str] = field(ListOf(OneOf("start", "end")), default_factory=list)


class EntryZone(Record):
    """A reinforcement entry zone: a run of edge hexes [15.1, 17.2]."""

    edge: str = field(OneOf("north", "east", "south", "west"))
    name: str = field(Str(), default="")
    hexes: list[str] = field(ListOf(HEX, min_length=1))


BLOWABLE = frozenset({"rail-bridge", "ferry"})
"""[12.2]: only railway bridges and ferries may be destroyed (not the road bridges)."""


class A1944Map(MapData, slots=False):
    """The shared map document (:class:`pbem.maps.model.MapData`: terrain, roads, water on
    hexsides, bridges, places) with this game's railways and entry zones A-G. Roads are the
    ``routes`` (kind ``road``)."""

    railways: list[Railway] = field(ListOf(Nested(Railway)), default_factory=list)
    entry_zones: dict[ZoneId, EntryZone] = field(MapOf(OneOf(*ZONES), Nested(EntryZone)), default_factory=dict)

    def check_fields(self) -> None:
        for z, zone in self.entry_zones.items():
            edge = set(self.edge_hexes(zone.edge))
            for h in zone.hexes:
                if Hex.parse(h) not in edge:
                    raise ValueError(f"[15.1] entry zone {z}: {h} is not on the {zone.edge} edge")

    @cached_property
    def blowable(self) -> dict[str, str]:
        """Hexside -> crossing kind, for every railway bridge and ferry [12.2]."""
        out: dict[str, str] = {}
        for (a, b), feats in self.hexside_features.items():
            for k in BLOWABLE & feats:
                out[hexside_str((a, b))] = k
        return out

    @cached_property
    def hexside_features(self) -> dict[tuple[Hex, Hex], frozenset[str]]:
        """As the shared map's, with ``railway`` on the hexsides a railway runs along."""
        acc = {k: set(v) for k, v in super().hexside_features.items()}
        for rail in self.railways:
            hs = [Hex.parse(h) for h in rail.hexes]
            for a, b in zip(hs, hs[1:], strict=False):
                acc.setdefault(hexside(a, b), set()).add("railway")
        return {k: frozenset(v) for k, v in acc.items()}

    @cached_property
    def zoc_tables(self) -> dict[tuple[int, frozenset[str]], tuple[Any, dict[str, tuple[str, ...]]]]:
        """(TEC's id, crossings blown) -> (that TEC, hex number -> the hexes its zone of control
        covers), filled
        as the rules ask (:meth:`pbem.systems.arnhem1944.board.Board.zone`): this map's own,
        derived data of immutable inputs."""
        return {}

    @cached_property
    def neighbour_table(self) -> dict[str, tuple[str, ...]]:
        """Every hex number on the map -> :meth:`neighbours_on_map`, made once (the searches for
        supply and command read it directly)."""
        return {str(h): self.neighbours_on_map(str(h)) for h in self.all_hexes()}

    @cached_property
    def road_links(self) -> dict[str, tuple[str, ...]]:
        """Every hex number of a road on the map -> its neighbours (in the order of
        :attr:`neighbour_table`) across a hexside the road crosses, as :meth:`features_between`
        has it: "road" on the hexside of two hexes one after the other along a road (no crossing
        blown takes a road off a hexside [12.2]). A hex no road leaves is not listed."""
        joined: set[tuple[str, str]] = set()
        for route in self.routes:
            if route.kind == "road":
                for a, b in zip(route.hexes, route.hexes[1:], strict=False):
                    joined.add((str(Hex.parse(a)), str(Hex.parse(b))))
                    joined.add((str(Hex.parse(b)), str(Hex.parse(a))))
        table = self.neighbour_table
        return {h: tuple(n for n in table[h] if (h, n) in joined)
                for h in sorted({a for a, _ in joined}) if h in table}

    def landing_hexes(self, dz: Hex, radius: int, terrain: list[str]) -> list[Hex]:
        """The hexes within ``radius`` of ``dz`` whose terrain is listed [15.2]."""
        return [h for h in self.all_hexes()
                if h.distance(dz) <= radius and self.terrain_of(h) in terrain]

    def zone_of(self, h: Hex) -> ZoneId | None:
        for z, zone in self.entry_zones.items():
            if str(h) in zone.hexes:
                return z
        return None


def zones_within(zone: ZoneId, shift: int) -> tuple[ZoneId, ...]:
    """The zones a German reinforcement may enter by after ``shift`` turns of delay: its own and
    those up to ``shift`` zones further along the edge either way [15.1]."""
    i = ZONES.index(zone)
    return ZONES[max(0, i - shift):i + shift + 1]


# --------------------------------------------------------------------------------------------------
# Counters and formations
# --------------------------------------------------------------------------------------------------

Kind = Literal["combat", "hq", "artillery", "engineer"]
Arm = Literal["infantry", "armour", "recce", "antitank", "hq", "artillery", "engineer"]
Mobility = Literal["leg", "motorized", "mechanized", "tracked"]
"""How a unit moves: out of supply, motorized, mechanized and tracked units halve their MP
[10.2]; the engineer carries leg and motorized infantry [12.1]."""


class ReducedCounter(Record):
    """The second counter of a unit of more than two steps, in play instead of the first once the
    unit is down to ``steps`` steps [1.2]."""

    id: str = field(Str(_ID))
    steps: int = field(Int(ge=1, le=2))
    cf: int = field(Int(ge=0))
    armour: int = field(Int(ge=0), default=0)
    antitank: int = field(Int(ge=0), default=0)
    mp: int = field(Int(ge=0))


class Counter(Record):
    """One unit [1.1-1.4]."""

    id: str = field(Str(_ID))
    name: str = field(Str())
    side: Side = field(SIDE)
    formation: str = field(Str())
    kind: Kind = field(OneOf("combat", "hq", "artillery", "engineer"))
    arm: Arm = field(OneOf("infantry", "armour", "recce", "antitank", "hq", "artillery", "engineer"))
    mobility: Mobility = field(OneOf("leg", "motorized", "mechanized", "tracked"))
    cf: int = field(
        Int(ge=0), description="Combat value [1.1]; 0 for artillery (DF when attacked [8.3])")
    armour: int = field(Int(ge=0), default=0, description="Armour rating [1.1, 7.3]")
    antitank: int = field(Int(ge=0), default=0, description="Antitank rating [1.1, 7.3]")
    steps: int = field(Int(ge=1, le=4), description="Combat steps [1.2]")
    mp: int = field(Int(ge=1), description="Movement points [1.1]")
    br: int = field(Int(ge=0), default=0, description="Bombardment value (artillery) [1.4, 8.1]")
    df: int = field(Int(ge=0), default=0, description="Defence factor (artillery) [1.4, 8.2]")
    range: int = field(Int(ge=0), default=0,
                       description="Range in hexes, target counted (artillery) [1.4, 8]")
    defence_df: int | None = field(
        Maybe(Int(ge=0)), default=None,
        description="DF when attacked or bombarded, if not the printed DF [8.3]")
    supports_all: bool = field(
        Bool(), default=False, description="Artillery that may support every unit of its side [8.4]")
    reduced: ReducedCounter | None = field(Maybe(Nested(ReducedCounter)), default=None,
                                           description="The second counter [1.2]")
    morale: int = field(Int(ge=2, le=12), description="Morale rating of optional rule 7.5")
    note: str = field(Str(), default="")

    def check_fields(self) -> None:
        if (self.steps > 2) != (self.reduced is not None):
            raise ValueError(
                f"[1.2] {self.id}: a second counter exactly when it has more than 2 steps")
        if self.reduced is not None and self.reduced.steps >= self.steps:
            raise ValueError(f"[1.2] {self.id}: the second counter must have fewer steps")
        if self.armour and self.antitank:
            raise ValueError(f"[1.1] {self.id}: an armour or an antitank rating, not both")
        arms = {"hq": {"hq"}, "artillery": {"artillery"}, "engineer": {"engineer"},
                "combat": {"infantry", "armour", "recce", "antitank"}}
        if self.arm not in arms[self.kind]:
            raise ValueError(f"{self.id}: arm {self.arm} does not fit kind {self.kind}")
        if self.kind == "artillery":
            if self.steps != 1 or not (self.br and self.df and self.range):
                raise ValueError(f"[1.4] {self.id}: artillery has one step, a BR, a DF and a range")
            if self.armour != 1:
                raise ValueError(f"[errata] {self.id}: artillery has an armour value of 1")
        elif self.br or self.df or self.range or self.defence_df is not None or self.supports_all:
            raise ValueError(f"[1.4] {self.id}: only artillery has BR, DF and range")
        if self.kind == "engineer" and self.cf:
            raise ValueError(f"[12.1] {self.id}: the engineer has no CF")

    @property
    def counts_for_stacking(self) -> bool:
        """[5] the XXX Corps engineers do not count."""
        return self.kind != "engineer"

    @property
    def is_infantry(self) -> bool:
        """Infantry steps count for the bridgehead [16] and cross with the engineer [12.1]."""
        return self.arm == "infantry"


class SupplySource(Record):
    """Where a formation's HQ traces its supply road [10.1]."""

    edges: list[Edge] = field(ListOf(OneOf("north", "east", "south", "west")), default_factory=list)
    hexes: list[str] = field(ListOf(HEX), default_factory=list)
    drop_zones: bool = field(Bool(), default=False,
                             description="Units may trace to a drop zone (British, Poles)")
    xxx_corps_hq: bool = field(Bool(), default=False,
                               description="Units may trace to a XXX Corps HQ [10.1]")


class Formation(Record):
    """A formation and its HQ (EM) [1.5]."""

    id: str = field(Str())
    name: str = field(Str())
    side: Side = field(SIDE)
    hq: str | None = field(Maybe(Str()), description="The HQ counter; None for the 82nd Airborne [17]")
    colour: str = field(Str(r"^#[0-9a-f]{6}$"))
    corps: str = field(Str(), default="",
                       description="Corps it belongs to (XXX Corps: artillery support [8.4])")
    supply: SupplySource = field(Nested(SupplySource))
    note: str = field(Str(), default="")


# --------------------------------------------------------------------------------------------------
# Set-up, reinforcements, drops
# --------------------------------------------------------------------------------------------------


class Placement(Record):
    """A unit on the map at the start [17.1]: on ``hex``, or within ``within`` hexes of it on the
    terrain listed (the 1st Airborne is placed by the drop procedure round its drop zone [15.2])."""

    unit: str = field(Str())
    hex: str = field(HEX)
    within: int = field(Int(ge=0, le=2), default=0)
    terrain: list[str] = field(ListOf(Str()), default_factory=list,
                               description="Allowed terrain; empty: any")


class Reinforcement(Record):
    """A unit entering on a turn by an entry zone (German [15.1]) or a hex (XXX Corps [15.3])."""

    unit: str = field(Str())
    turn: int = field(Int(ge=1))
    zone: ZoneId | None = field(Maybe(OneOf(*ZONES)), default=None)
    hex: str | None = field(Maybe(HEX), default=None)

    def check_fields(self) -> None:
        if (self.zone is None) == (self.hex is None):
            raise ValueError(f"{self.unit}: a zone or a hex of entry, exactly one")


class ParaDrop(Record):
    """An airborne reinforcement group [15.2, 17.2-17.4]."""

    group: str = field(Str())
    units: list[str] = field(ListOf(Str(), min_length=1))
    turn: int = field(Int(ge=1),
                      description="The historical turn [17.2]; the earliest in a free drop")
    dz: str = field(HEX)
    radius: int = field(Int(ge=0), default=2,
                        description="Units land within this many hexes of the DZ [15.2]")
    terrain: list[str] = field(ListOf(Str()), description="Terrain a unit may land on [15.2]")
    alternative_dz: bool = field(
        Bool(), default=False, description="In the free drop the DZ may be moved to any hex free "
        "of the enemy in allowed terrain (the Poles only) [15.2, 17.4]")


# --------------------------------------------------------------------------------------------------
# Turns, weather, options, victory
# --------------------------------------------------------------------------------------------------


class Turn(Record):
    turn: int = field(Int(ge=1))
    date: str = field(Str(r"^1944-09-\d\d$"))
    weather: Weather = field(OneOf(*WEATHERS),
                             description="The historical weather of the turn track [14.1]")
    note: str = field(Str(), default="")


class WeatherEffect(Record):
    """[14.3]"""

    drops: bool = field(Bool())
    air_missions: int = field(Int(ge=0))


class Choices(Record):
    """What the players choose for one game [2, 14.1, 17]: the weather and the optional rules.
    A scenario's ``options`` give the defaults; ``pbem new ... --option weather=random`` (checked
    by :func:`choose`) overrides them, and the game's choices are kept in its state, so that they
    are signed with the genesis and replayed alike by every pbem."""

    weather: Literal["historical", "random"] = field(
        OneOf("historical", "random"), description="[14.1] turn track or 1d6 [14.2]")
    xxx_corps_early: bool = field(Bool(), default=False,
                                  description="[15.3] XXX Corps arrives one turn earlier")
    simplified_sequence: bool = field(Bool(), default=False, description="[18.1]")
    morale: bool = field(Bool(), default=False, description="[7.5] morale checks (errata)")


class Options(Choices):
    """The scenario's options: the drop it plays [17.3, 17.4] (one scenario file each) and the
    default choices of a game."""

    drop: Literal["historic", "free"] = field(
        OneOf("historic", "free"), description="[17.3] historic, [17.4] free para drop")


CHOICE_CASES = {"weather": "14.1", "xxx_corps_early": "15.3", "simplified_sequence": "18.1",
                "morale": "7.5"}
"""Each choice at ``pbem new`` with the case that offers it."""


def choose(options: Options, given: dict[str, object] | None) -> Choices:
    """The game's choices: the scenario's ``options`` with the ``--option`` values ``given``
    [14.1, 15.3, 18.1, 7.5]. An unknown name or a value not allowed is a one-line error naming
    what is allowed (the drop is the scenario's: a file per drop [17])."""
    out = {k: getattr(options, k) for k in CHOICE_CASES}
    for name, value in (given or {}).items():
        if name == "drop":
            raise ValueError(f"[17] the drop is the scenario's ({options.drop}): play "
                             "arnhem1944-historical or arnhem1944-free-drop")
        case = CHOICE_CASES.get(name)
        if case is None:
            raise ValueError(f"arnhem1944 has no option {name!r} (options: "
                             f"{', '.join(CHOICE_CASES)}; and chain_length)")
        allowed: tuple[object, ...] = ("historical", "random") if name == "weather" else (
            True, False)
        if value not in allowed or isinstance(value, bool) != isinstance(allowed[0], bool):
            words = " or ".join(str(a).lower() for a in allowed)
            raise ValueError(f"[{case}] option {name} is {words}, not {value!r}")
        out[name] = value
    return Choices.parse(out)


class Victory(Record):
    """[16] Allied strategic victory: both hexes of the Arnhem road bridge in Allied hands;
    secondary: a bridgehead of ``bridgehead_steps`` infantry steps beyond the Neder Rijn, east of
    the map column ``east_of_col`` when given; otherwise the Germans win."""

    bridge: str = field(Str(), description="The map line naming the Arnhem road bridge")
    bridge_hexes: tuple[str, str] = field(TupleOf(HEX, HEX))
    river: str = field(Str(), description="The map line of the Neder Rijn")
    far_bank_hex: str = field(HEX, description="A hex on the bank the bridgehead must hold")
    bridgehead_steps: int = field(Int(ge=1))
    east_of_col: int | None = field(Maybe(Int(ge=1)), default=None, description=(
        "[16] '(to the East)': only the far-bank hexes in this map column or east of it count; "
        "None: the whole bank"))
    note: str = field(Str(), default="")


class Constants(Record):
    """Numbers the rules state, kept with the data so that each is written once."""

    stacking_steps: int = field(Int(), description="[5]")
    formation_activation: int = field(Int(), description="[1.5, 3.2] units of one formation in command")
    general_activation: int = field(Int(), description="[1.5, 3.3] any units")
    command_range: int = field(Int(), description="[9.1]")
    supply_range: int = field(Int(), description="[10.1] hexes to a DZ, an HQ or the road")
    engineer_steps: int = field(Int(), description="[12.1] infantry steps the engineer ferries a turn")
    first_initiative: Side = field(SIDE, description="[2.1] the Allies have it on turn 1")
    turn_end_roll: list[int] = field(ListOf(Int()),
                                     description="[2.2] a die showing one of these ends the turn")
    first_airborne_air_missions: int = field(Int(), description="[13] for the whole game")
    artillery_armour: int = field(Int(), description="[errata] artillery's armour value")
    delay_zone_shift: int = field(Int(), description=(
        "[15.1] zones a German reinforcement may move for each turn it is delayed"))


class Scenario(Record, slots=False):  # not slotted: its derived tables are cached on it
    """An Arnhem 1944 scenario: everything needed to start a game, as data."""

    id: str = field(Str())
    system: Literal["arnhem1944"] = field(OneOf("arnhem1944"), default="arnhem1944")
    title: str = field(Str())
    game: Literal["arnhem1944"] = field(OneOf("arnhem1944"), default="arnhem1944")
    rule: str = field(Str())
    note: str = field(Str(), default="")
    sides: list[dict[str, str]] = field(ListOf(MapOf(Str(), Str())))
    first_player: Side = field(SIDE)
    first_turn: int = field(Int(ge=0, le=999), default=1)
    last_turn: int = field(Int(ge=0, le=999))
    map: A1944Map = field(Nested(A1944Map))
    options: Options = field(Nested(Options))
    constants: Constants = field(Nested(Constants))
    turns: list[Turn] = field(ListOf(Nested(Turn)))
    weather_table: dict[int, Weather | Literal["same"]] = field(MapOf(IntKey(), OneOf(*WEATHERS, "same")),
                                          description="[14.2] die -> weather")
    weather_effects: dict[Weather, WeatherEffect] = field(
        MapOf(OneOf(*WEATHERS), Nested(WeatherEffect)))
    formations: list[Formation] = field(ListOf(Nested(Formation)))
    counters: list[Counter] = field(ListOf(Nested(Counter)))
    setup: list[Placement] = field(ListOf(Nested(Placement)))
    reinforcements: list[Reinforcement] = field(ListOf(Nested(Reinforcement)))
    para_drops: list[ParaDrop] = field(ListOf(Nested(ParaDrop)))
    victory: Victory = field(Nested(Victory))
    crt: dict[str, Any] | None = field(Maybe(Anything("object")), default=None, description=(
        "a Combat Results Table replacing pbem's reconstruction: 'crt': 'FILE.json' beside the "
        "scenario, merged in [7.4]"))
    tec: dict[str, Any] | None = field(Maybe(Anything("object")), default=None, description=(
        "a Terrain Effects Chart replacing pbem's reconstruction: 'tec': 'FILE.json' beside the "
        "scenario, merged in [6.3]"))

    @cached_property
    def games(self) -> dict[tuple[type, str], Any]:
        """(Rules class, rules version) -> the :class:`~pbem.systems.arnhem1944.queries.Game` the rules make of
        this scenario at that version (:meth:`~pbem.systems.arnhem1944.rules.Arnhem1944Rules.game`:
        nothing in it changes; every check and resolution asks for it)."""
        return {}

    @cached_property
    def tables(self) -> tuple[Crt, Tec]:
        """The CRT and TEC this scenario plays with: its own replacements, else pbem's."""
        crt = Crt.of(CrtFile.parse(self.crt)) if self.crt is not None else default_crt()
        tec = Tec.of(TecFile.parse(self.tec)) if self.tec is not None else default_tec()
        return crt, tec

    @cached_property
    def far_bank(self) -> frozenset[str]:
        """[16] the hexes reached from ``victory.far_bank_hex`` without crossing the river's
        hexsides (only those in ``victory.east_of_col`` or east of it, when given): a fact of the
        scenario, worked out once (it was 22% of a replay when recomputed every turn, issue 28)."""
        v = self.victory
        river = next(ln for ln in self.map.lines if ln.name == v.river)
        cut = set(river.hexsides)
        seen = {v.far_bank_hex}
        frontier = [v.far_bank_hex]
        while frontier:
            h = frontier.pop()
            for n in self.map.neighbours_on_map(h):
                if n not in seen and hexside_str(hexside(Hex.parse(h), Hex.parse(n))) not in cut:
                    seen.add(n)
                    frontier.append(n)
        if v.east_of_col is not None:  # [16] "(to the East)"
            east = v.east_of_col
            return frozenset(h for h in seen if Hex.parse(h).col >= east)
        return frozenset(seen)

    @cached_property
    def counter(self) -> dict[str, Counter]:
        return {c.id: c for c in self.counters}

    @cached_property
    def allied_infantry(self) -> frozenset[str]:
        """The Allied infantry units: their steps over the river make the bridgehead [16]."""
        return frozenset(c.id for c in self.counters if c.side == "AL" and c.is_infantry)

    @cached_property
    def reinforcement_of(self) -> dict[str, Reinforcement]:
        """Unit -> its (first) entry in the reinforcement schedule [15]."""
        out: dict[str, Reinforcement] = {}
        for r in self.reinforcements:
            out.setdefault(r.unit, r)
        return out

    @cached_property
    def formation(self) -> dict[str, Formation]:
        return {f.id: f for f in self.formations}

    def check_fields(self) -> None:
        problems = self.problems()
        if problems:
            raise ValueError("; ".join(problems))

    def problems(self) -> list[str]:
        """Every inconsistency of the data, each with its rule case: the tables, the counters
        and formations [1.3, 1.5], the turn track and weather [2, 14.2], where each unit comes
        from [15, 17], the hexes named [10.1, 17], the drops [15.2] and the victory lines [16]."""
        out: list[str] = []
        if self.crt is not None:
            out += table_problems(self.crt, "crt")
        if self.tec is not None:
            out += table_problems(self.tec, "tec")
        ids = [c.id for c in self.counters]
        reduced = [c.reduced.id for c in self.counters if c.reduced is not None]
        dup = sorted({i for i in ids + reduced if (ids + reduced).count(i) > 1})
        if dup:
            out.append(f"counter ids repeated: {', '.join(dup)}")
        counters = {c.id: c for c in self.counters}
        if [t.turn for t in self.turns] != list(range(self.first_turn, self.last_turn + 1)):
            out.append(f"[2] the turn track must run {self.first_turn}-{self.last_turn}")
        if sorted(self.weather_table) != [1, 2, 3, 4, 5, 6]:
            out.append("[14.2] the weather table has one entry per die face")
        out += self._formation_problems(counters)
        out += self._placement_problems(counters)
        out += self._hex_problems()
        for d in self.para_drops:
            for uid in d.units:
                unit = counters.get(uid)
                if unit is not None and unit.side != "AL":
                    out.append(f"[15.2] {d.group}: {uid} is not Allied")
        names = {ln.name for ln in self.map.lines}
        for name in (self.victory.bridge, self.victory.river):
            if name not in names:
                out.append(f"[16] the map has no line {name!r}")
        return out

    def _formation_problems(self, counters: dict[str, Counter]) -> list[str]:
        """[1.3, 1.5] each HQ the HQ counter of its formation, each counter in a known formation
        of its side, each HQ counter named by its formation."""
        out: list[str] = []
        forms = {f.id: f for f in self.formations}
        for f in self.formations:
            if f.hq is not None:
                hq = counters.get(f.hq)
                if hq is None or hq.kind != "hq" or hq.formation != f.id:
                    out.append(f"[1.5] {f.id}: HQ {f.hq} is not an HQ counter of the formation")
        for c in self.counters:
            form = forms.get(c.formation)
            if form is None:
                out.append(f"[1.5] {c.id}: unknown formation {c.formation}")
            elif form.side != c.side:
                out.append(f"[1.5] {c.id}: side {c.side} differs from its formation's")
            if c.kind == "hq" and (form is None or form.hq != c.id):
                out.append(f"[1.3] {c.id}: an HQ counter its formation does not name")
        return out

    def _placement_problems(self, counters: dict[str, Counter]) -> list[str]:
        """[17] every counter set up, a reinforcement or in a drop, once; [15, 15.1] each
        reinforcement on the turn track, by an entry zone of the map."""
        out: list[str] = []
        placed: list[str] = [p.unit for p in self.setup]
        placed += [r.unit for r in self.reinforcements]
        placed += [u for d in self.para_drops for u in d.units]
        for uid in sorted(set(placed) - set(counters)):
            out.append(f"[17] unknown unit {uid}")
        for uid in sorted(set(counters) - set(placed)):
            out.append(f"[17] {uid} is neither set up, a reinforcement nor in a drop")
        for uid in sorted({u for u in placed if placed.count(u) > 1}):
            out.append(f"[17] {uid} is placed more than once")
        for r in self.reinforcements:
            if not self.first_turn <= r.turn <= self.last_turn:
                out.append(f"[15] {r.unit}: turn {r.turn} is off the turn track")
            if r.zone is not None and r.zone not in self.map.entry_zones:
                out.append(f"[15.1] {r.unit}: the map has no entry zone {r.zone}")
        return out

    def _hex_problems(self) -> list[str]:
        """[17] the hexes of the set-up, the reinforcements, the drops and victory on the map;
        [10.1] each formation's supply hexes too."""
        out: list[str] = []
        hexes = [(p.unit, p.hex) for p in self.setup] + [
            (r.unit, r.hex) for r in self.reinforcements if r.hex is not None] + [
            (d.group, d.dz) for d in self.para_drops] + [
            ("victory", h) for h in self.victory.bridge_hexes] + [
            ("victory", self.victory.far_bank_hex)]
        for what, h in hexes:
            if not self.map.on_map(Hex.parse(h)):
                out.append(f"[17] {what}: hex {h} is off the map")
        for f in self.formations:
            for h in f.supply.hexes:
                if not self.map.on_map(Hex.parse(h)):
                    out.append(f"[10.1] {f.id}: supply hex {h} is off the map")
        return out

    def steps_at_start(self) -> dict[str, int]:
        """Steps placed on each set-up hex that takes units exactly (``within`` 0) [5]."""
        out: dict[str, int] = {}
        for p in self.setup:
            c = self.counter[p.unit]
            if p.within == 0 and c.counts_for_stacking:
                out[p.hex] = out.get(p.hex, 0) + c.steps
        return out
