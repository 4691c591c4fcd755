"""Data models of the WestWall system: scenario (map, terrain key, units), state, orders and events.

Everything here is plain data: records (:mod:`pbem.protocol.record`), each field checked as it is
read or made. The rules live in the sibling modules
(``movement``, ``combat``, ...), which take these models and never mutate their inputs.

Movement points are counted in **half-points** (``*_halves`` fields) so that road movement [5.22]
stays exact in integers: a unit with a Movement Allowance of 12 has 24 half-points.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from pbem.maps.model import HEX, MapData
from pbem.protocol.record import (
    Anything,
    Bool,
    Check,
    Const,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    OneOf,
    Record,
    RecordError,
    Str,
    Tagged,
    field,
    omit_none,
)
from pbem.systems.westwall.memo import Memo

TEXT = Str()
EDGE = OneOf("west", "east", "north", "south")
_ANY = Anything()


Side = str
SIDE = Str()


# --------------------------------------------------------------------------------------------------
# Terrain key
# --------------------------------------------------------------------------------------------------

CrtLine = str
"""The four lines of the integrated Combat Results Table [7.43, 7.61]."""
CRT_LINE = OneOf("clear", "grove", "broken", "rough")


class HexTerrain(Record):
    """What one kind of hex terrain does."""

    mp_halves: int = field(Int(ge=1), description="Movement cost to enter, in half Movement Points [5.21]")
    crt: CrtLine = field(CRT_LINE, description="CRT line a defender in this terrain uses [7.43]")
    mech_prohibited: bool = field(
        Bool(), default=False,
        description="Armour/mech/recon/SP artillery may not enter except by road or trail [5.24]",
    )
    prohibited: bool = field(Bool(), default=False, description="No unit may enter (e.g. lakes)")


class HexsideTerrain(Record):
    """What one kind of hexside feature does."""

    mp_halves: int = field(Int(ge=0), default=0,
                           description="Extra cost to cross, in half Movement Points [5.21]")
    crt: CrtLine | None = field(
        Maybe(CRT_LINE), default=None, description="CRT line if every attacker attacks across it [7.42, 7.44]"
    )
    mech_prohibited: bool = field(Bool(), default=False, description="Crossing prohibited to [5.24] types")
    prohibited: bool = field(Bool(), default=False, description="No unit may cross")
    blocks_zoc: bool = field(Bool(), default=False, description="ZOC does not extend across [6.33]")
    blocks_attack: bool = field(
        Bool(), default=False, description="Non-artillery units may not attack across [6.33]"
    )
    route: bool = field(Bool(), default=False,
                        description="A road or trail: changes the cost of the move [5.22, 5.23]")
    bridge: bool = field(Bool(), default=False, description="Carries a route over a river or stream hexside")


ResultCode = str
RESULT_CODE = OneOf("A1", "A2", "Ae", "Br", "D1", "D2", "D3", "D4", "De")


class CrtColumn(Record):
    """One column heading of a CRT line and the differentials it covers (``None``: unbounded)."""

    heading: str = field(TEXT)
    low: int | None = field(Maybe(Int()), default=None)
    high: int | None = field(Maybe(Int()), default=None)


class CrtTable(Record):
    """The Combat Results Table as data [7.43, 7.61]: four terrain lines of column headings, each
    left-aligned on the same result columns, and the result for each die (row 0 = die 1) and
    column. ``scenarios/crt.json`` holds pbem's reconstruction; a scenario may name a replacement
    (``"crt": "my-crt.json"``) typed from the printed chart."""

    note: str = field(TEXT, default="")
    lines: dict[CrtLine, list[CrtColumn]] = field(MapOf(CRT_LINE, ListOf(Nested(CrtColumn))))
    results: list[list[ResultCode]] = field(ListOf(ListOf(RESULT_CODE)))


class TerrainKey(Record):
    """Movement and combat effects of terrain. The published key is not in our sources; see
    ``scenarios/terrain-key.json`` for the documented default, which a scenario may replace."""

    note: str = field(TEXT, default="")
    hexes: dict[str, HexTerrain] = field(MapOf(TEXT, Nested(HexTerrain)))
    hexsides: dict[str, HexsideTerrain] = field(MapOf(TEXT, Nested(HexsideTerrain)))
    road_mp_halves: int = field(Int(), default=1, description="Road hex to road hex along a road hexside [5.22]")
    trail_mp_halves: int = field(Int(), default=2,
                                 description="Trail hex to trail hex along a trail hexside [5.23]")


# --------------------------------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------------------------------

UnitType = str
UNIT_TYPE = OneOf(
    "armor",
    "mech",
    "recon",
    "infantry",
    "airborne",
    "glider",
    "engineer",
    "artillery",
    "sp-artillery",
    "airborne-artillery",
)
MECH_TYPES: frozenset[str] = frozenset({"armor", "mech", "recon", "sp-artillery"})
"""Unit types restricted by [5.24]."""
ARTILLERY_TYPES: frozenset[str] = frozenset({"artillery", "sp-artillery", "airborne-artillery"})
AIRBORNE_TYPES: frozenset[str] = frozenset({"airborne", "glider", "airborne-artillery"})
"""Units that arrive by air (Arnhem [15.3], [17.32]: glider units count as airborne)."""


class UnitDef(Record):
    """A counter. Non-artillery: attack-defense-move (A-D-M). Artillery: barrage-FPF-range/defense-move
    (B-F-R/D-M) [3.0]."""

    id: str = field(Str(r"^[A-Za-z0-9][A-Za-z0-9/_.+-]*$"))
    side: Side = field(SIDE)
    designation: str = field(TEXT)
    formation: str = field(TEXT, default="")
    type: UnitType = field(UNIT_TYPE)
    size: str = field(OneOf("I", "II", "III", "X", "XX"), default="II")
    attack: int = field(Int(ge=0), default=0)
    defense: int = field(Int(ge=0))
    move: int = field(Int(ge=0), description="Movement Allowance in whole Movement Points")
    barrage: int = field(Int(ge=0), default=0)
    fpf: int = field(Int(ge=0), default=0)
    range: int = field(Int(ge=0), default=0)
    note: str = field(TEXT, default="", description="Historical identification; 'reconstructed' where we inferred it")

    @property
    def is_artillery(self) -> bool:
        return self.type in ARTILLERY_TYPES

    @property
    def is_mech(self) -> bool:
        return self.type in MECH_TYPES

    @property
    def move_halves(self) -> int:
        return self.move * 2

    def values(self) -> str:
        """Strength in the text's format: ``5-4-12`` or ``3-2-18/1-7``."""
        if self.is_artillery:
            return f"{self.barrage}-{self.fpf}-{self.range}/{self.defense}-{self.move}"
        return f"{self.attack}-{self.defense}-{self.move}"


# --------------------------------------------------------------------------------------------------
# Areas: deployment zones and entry areas
# --------------------------------------------------------------------------------------------------


class Area(Record):
    """A set of hexes described by conditions that must all hold (empty = the whole map)."""

    hexes: list[str] | None = field(Maybe(ListOf(HEX)), default=None, description="Only these hexes")
    edge: str | None = field(Maybe(EDGE), default=None, description="On this map edge")
    from_hex: str | None = field(Maybe(HEX), default=None, description="With edge: from this hex (inclusive)")
    to_hex: str | None = field(Maybe(HEX), default=None, description="With edge: to this hex (inclusive)")
    exclude_cols: list[int] = field(ListOf(Int()), default_factory=list)
    within: int | None = field(Maybe(Int()), default=None, description="Within this distance of `of` (inclusive)")
    beyond: int | None = field(Maybe(Int()), default=None,
                               description="More than this distance from every hex in `of`")
    of: list[str] = field(ListOf(HEX), default_factory=list)
    min_from_edge: dict[str, int] = field(
        MapOf(EDGE, Int()), default_factory=dict,
        description="edge -> more than this many hexes from that edge",
    )
    text: str = field(TEXT, default="", description="The condition in words, with its rule case")


class Deployment(Record):
    side: Side = field(SIDE)
    units: list[str] = field(ListOf(TEXT))
    area: list[Area] = field(ListOf(Nested(Area)), description="Alternatives: a hex in any one area qualifies")
    rule: str = field(TEXT, description="Rule case, e.g. 15.12")


class Reinforcement(Record):
    side: Side = field(SIDE)
    turn: int = field(Int(ge=1))
    units: list[str] = field(ListOf(TEXT))
    entry: list[Area] = field(ListOf(Nested(Area)), description="Alternatives: entry hexes [11.11]")
    rule: str = field(TEXT)
    airborne: bool = field(
        Bool(), default=False,
        description="Arrives by air, not over a map edge (Arnhem [15.3]): placed in any entry hex, "
        "one unit a hex, no entry cost; the exclusive rules say how far it may move on landing",
    )


# --------------------------------------------------------------------------------------------------
# Scenario
# --------------------------------------------------------------------------------------------------


class SideInfo(Record):
    id: Side = field(SIDE)
    name: str = field(TEXT)
    adjective: str = field(TEXT, default="")
    colour: str = field(TEXT, default="#888888")


class GroundSupport(Record):
    side: Side = field(SIDE)
    from_turn: int = field(Int())
    points: int = field(Int())
    rule: str = field(TEXT)


class ExitRule(Record):
    side: Side = field(SIDE)
    edges: list[str] = field(ListOf(EDGE))
    rule: str = field(TEXT, default="12.0")


class Scenario(Record, slots=False):
    """A WestWall scenario: everything needed to start a game, as data."""

    id: str = field(TEXT)
    system: str = field(Const("westwall"), default="westwall")
    title: str = field(TEXT)
    game: str = field(TEXT, description="The exclusive rules in force, e.g. 'bastogne'")
    rule: str = field(TEXT, description="Scenario case, e.g. 15.1")
    note: str = field(TEXT, default="")
    sides: list[SideInfo] = field(ListOf(Nested(SideInfo)))
    first_player: Side = field(SIDE)
    first_turn: int = field(Int(), default=1)
    last_turn: int = field(Int())
    map: MapData = field(Nested(MapData))
    terrain_key: TerrainKey = field(Nested(TerrainKey))
    crt: CrtTable | None = field(Maybe(Nested(CrtTable)), default=None,
                                 description="A replacement Combat Results Table (default: pbem's)")
    units: list[UnitDef] = field(ListOf(Nested(UnitDef)))
    deployments: list[Deployment] = field(ListOf(Nested(Deployment)), default_factory=list)
    reinforcements: list[Reinforcement] = field(ListOf(Nested(Reinforcement)), default_factory=list)
    ground_support: list[GroundSupport] = field(ListOf(Nested(GroundSupport)), default_factory=list)
    exits: list[ExitRule] = field(ListOf(Nested(ExitRule)), default_factory=list)
    artillery_limit: bool = field(Bool(), default=False,
                                  description="[14.0] artillery + support <= ground strength")
    special: dict[str, object] = field(
        MapOf(TEXT, _ANY), default_factory=dict,
        description="Exclusive-rule parameters (exclusion zones, victory)",
    )

    def check_fields(self) -> None:
        seen: set[str] = set()
        problems: list[tuple[tuple[str | int, ...], str]] = []
        for i, u in enumerate(self.units):
            if u.id in seen:
                problems.append((("units", i, "id"), f"duplicate unit id {u.id!r}"))
            seen.add(u.id)
        if problems:
            raise RecordError(problems)

    @cached_property
    def unit(self) -> dict[str, UnitDef]:
        return {u.id: u for u in self.units}

    @cached_property
    def _memo(self) -> Memo:
        """What the rules work out once for this scenario object, kept with it: no field, no
        part of its value (:mod:`pbem.systems.westwall.memo`)."""
        return Memo()

    def side_ids(self) -> list[Side]:
        return [s.id for s in self.sides]

    def other(self, side: Side) -> Side:
        return next(s.id for s in self.sides if s.id != side)


# --------------------------------------------------------------------------------------------------
# Orders (standing orders first: the state keeps them)
# --------------------------------------------------------------------------------------------------


class MoveOrder(Record):
    """Move one unit along a path. ``path`` lists every hex entered, in order (the start hex is the
    unit's current hex, or for a reinforcement the first hex of the path is its entry hex [11.11]).
    ``exit`` moves the unit off the map from the last hex [12.0]. ``to`` is a convenience that
    ``normalize`` expands into the cheapest legal path before signing."""

    unit: str = field(TEXT)
    path: list[str] = field(ListOf(HEX), default_factory=list)
    to: str | None = field(Maybe(HEX), default=None)
    exit: bool = field(Bool(), default=False)
    if_demolished: list[str] | None = field(
        Maybe(ListOf(HEX)), default=None, omit=omit_none,
        description="Arnhem [12.1]: if a bridge is demolished by a roll during this move, enter these "
        "hexes instead of the rest of the path (an empty list: stop where the roll was made). "
        "Without it the unit goes on along its path as far as it still may.",
    )


class AdvanceOrder(Record):
    """Advance after combat [7.9]: follow the path of retreat at most ``hexes`` hexes; ``follow``
    names the beaten unit whose path to take when several retreat (default: the first, in declared
    order, whose path has room)."""

    unit: str = field(TEXT)
    hexes: int = field(Int(ge=1), default=1)
    follow: str | None = field(Maybe(TEXT), default=None)


class AttackOrder(Record):
    """One combat [7.0]. ``attackers`` are adjacent ground units (and adjacent artillery [8.31]);
    ``artillery`` are barraging units [8.1]; ``support`` Ground Support Points [9.0];
    ``defenders`` the enemy units attacked (all of them in one combat [7.23])."""

    attackers: list[str] = field(ListOf(TEXT), default_factory=list)
    artillery: list[str] = field(ListOf(TEXT), default_factory=list)
    support: int = field(Int(ge=0), default=0)
    defenders: list[str] = field(ListOf(TEXT))
    advance: list[AdvanceOrder] = field(ListOf(Nested(AdvanceOrder)), default_factory=list)


def _protect_any() -> list[str]:
    return ["*"]


class FpfOrder(Record):
    """Standing order: this artillery unit gives Final Protective Fire to the first of ``protect``
    attacked (``["*"]``: any friend attacked) [8.4]."""

    artillery: str = field(TEXT)
    protect: list[str] = field(ListOf(TEXT), default_factory=_protect_any)


def _empty(v: object) -> bool:
    return not v


class StandingOrders(Record):
    """Reactive decisions for the opponent's next player-turn (protocol.md, "Reactive decisions").

    * ``fpf``: Final Protective Fire allocations [8.4]; support points used as FPF [9.0].
    * ``retreat``: unit -> preferred hexes to retreat toward, in order [7.7].
    * ``avoid_displacing``: units to keep in place if any other legal retreat exists [7.8].
    * ``pursue``: defending units that advance after combat when their attackers retreat or are
      eliminated (A1, A2, Ae) [7.62, 7.91]; by default defenders hold their ground.
    """

    fpf: list[FpfOrder] = field(ListOf(Nested(FpfOrder)), default_factory=list)
    fpf_support: int = field(Int(ge=0), default=0)
    retreat: dict[str, list[str]] = field(MapOf(TEXT, ListOf(HEX)), default_factory=dict)
    avoid_displacing: list[str] = field(ListOf(TEXT), default_factory=list)
    pursue: list[AdvanceOrder] = field(ListOf(Nested(AdvanceOrder)), default_factory=list)
    spare_bridges: list[str] = field(
        ListOf(TEXT), default_factory=list, omit=_empty,
        description="Arnhem [12.12]: bridge hexsides (XXYY/XXYY) the German player will not try to "
        "demolish; every other wired bridge is tried when the first Allied unit reaches it",
    )


# --------------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------------

UnitStatus = str
UNIT_STATUS = OneOf("waiting", "on-map", "eliminated", "exited")


class UnitState(Record):
    hex: str | None = field(Maybe(HEX), default=None)
    status: UnitStatus = field(UNIT_STATUS, default="waiting")
    fpf_turn: int | None = field(Maybe(Int()), default=None,
                                 description="Game-turn in which it last fired FPF [8.46]")
    adverse_phase: int | None = field(
        Maybe(Int()), default=None,
        description="Index of the combat phase in which it last suffered a result [8.41]",
    )
    exit_edge: str | None = field(Maybe(TEXT), default=None, description="Edge it left the map by [12.0]")
    exit_turn: int | None = field(Maybe(Int()), default=None, description="Game-turn it left the map [15.37]")


Phase = str


class State(Record):
    """Position between decisions. A whole player-turn (movement then combat) is one decision."""

    scenario: str = field(TEXT)
    game_turn: int = field(Int())
    phasing: Side = field(SIDE)
    phase: Phase = field(OneOf("setup", "player-turn", "over"))
    setup_pending: list[Side] = field(ListOf(SIDE), default_factory=list)
    combat_phase_index: int = field(Int(), default=0, description="Counts combat phases played (for [8.41])")
    units: dict[str, UnitState] = field(MapOf(TEXT, Nested(UnitState)))
    control: dict[str, Side] = field(
        MapOf(HEX, SIDE), default_factory=dict,
        description="Last side to occupy or pass through objective hexes",
    )
    ground_support_used: dict[Side, int] = field(
        MapOf(SIDE, Int()), default_factory=dict, description="Points spent this game-turn [9.14]"
    )
    ground_support_phase: dict[Side, int] = field(
        MapOf(SIDE, Int()), default_factory=dict,
        description="Player-turn (1 or 2) in which support was used [15.26.4]",
    )
    standing: dict[Side, StandingOrders] = field(MapOf(SIDE, Nested(StandingOrders)), default_factory=dict)
    finished: bool = field(Bool(), default=False)
    exclusive: dict[str, Any] = field(
        MapOf(TEXT, _ANY), default_factory=dict, omit=_empty,
        description="What a game's exclusive rules keep between player-turns (Arnhem: bridges, "
        "weather, drop zones, victory points); omitted while empty",
    )


# --------------------------------------------------------------------------------------------------
# Orders
# --------------------------------------------------------------------------------------------------


class DropZoneNote(Record):
    """Arnhem [15.36, 15.39]: where a division's drop-zone counter goes and on which game-turn."""

    division: str = field(TEXT)
    hex: str = field(HEX)
    turn: int = field(Int(ge=1), default=1)


class DropZoneReveal(DropZoneNote):
    salt: str = field(Str(r"^[0-9a-f]{64}$"), description="The salt hashed with the note")


class DropZoneCommitment(Record):
    hash: str = field(Str(r"^[0-9a-f]{64}$"), description="SHA-256 of the note and its salt")
    sealed: str = field(
        Str(r"^[0-9a-f]{2,256}$"),
        description="The note encrypted to its author alone, so that its pbem can reveal it later",
    )


def _standing() -> StandingOrders:
    return StandingOrders()


class SetupOrders(Record):
    kind: str = field(Const("setup"), default="setup")
    side: Side = field(SIDE)
    placements: dict[str, str] = field(MapOf(TEXT, HEX), description="unit id -> hex [15.12, 15.23]")
    standing: StandingOrders = field(Nested(StandingOrders), default_factory=_standing)
    dz_notes: list[DropZoneNote] | None = field(
        Maybe(ListOf(Nested(DropZoneNote))), default=None, omit=omit_none,
        description="Arnhem [15.36]: the secret drop-zone notes as written; pbem seals them into "
        "dz_commitments with the author's key before signing (never signed as they are)")
    dz_commitments: dict[str, DropZoneCommitment] | None = field(
        Maybe(MapOf(TEXT, Nested(DropZoneCommitment))), default=None, omit=omit_none,
        description="division -> commitment [15.36]")
    dz_reveal: list[DropZoneReveal] | None = field(
        Maybe(ListOf(Nested(DropZoneReveal))), default=None, omit=omit_none,
        description="notes revealed now, placed as noted [15.36]")


class PlayerTurnOrders(Record):
    kind: str = field(Const("player-turn"), default="player-turn")
    side: Side = field(SIDE)
    game_turn: int = field(Int())
    moves: list[MoveOrder] = field(ListOf(Nested(MoveOrder)), default_factory=list)
    attacks: list[AttackOrder] = field(ListOf(Nested(AttackOrder)), default_factory=list)
    standing: StandingOrders = field(Nested(StandingOrders), default_factory=_standing)
    dz_reveal: list[DropZoneReveal] | None = field(
        Maybe(ListOf(Nested(DropZoneReveal))), default=None, omit=omit_none,
        description="Arnhem [15.39]: delayed drop-zone notes revealed and placed at the start of "
        "this player-turn (pbem fills them in when they are due)")


class AcknowledgeOrders(Record):
    """The last message of a game: reveals the die key for the final player-turn."""

    kind: str = field(Const("acknowledge"), default="acknowledge")
    side: Side = field(SIDE)


Orders = SetupOrders | PlayerTurnOrders | AcknowledgeOrders
ORDERS = Tagged("kind", SetupOrders, PlayerTurnOrders, AcknowledgeOrders)
"""Any orders, told apart by ``kind``."""


# --------------------------------------------------------------------------------------------------
# Events (outcome data for the map, the report and ``pbem log``)
# --------------------------------------------------------------------------------------------------


# Events are trusted records: the rules make them in their loops without checking each field; a
# turn file's events are read by ``parse`` and checked (pbem.protocol.record.Record).
class Event(Record, trusted=True):
    type: str = field(TEXT)


class PlacedEvent(Event):
    type: str = field(Const("placed"), default="placed")
    unit: str = field(TEXT)
    hex: str = field(HEX)


class MovedEvent(Event):
    type: str = field(Const("moved"), default="moved")
    unit: str = field(TEXT)
    path: list[str] = field(ListOf(HEX), description="Start hex first, then every hex entered")
    mp_halves: int = field(Int())
    entered: bool = field(Bool(), default=False, description="A reinforcement entering the map [11.11]")
    exited: bool = field(Bool(), default=False, description="Left the map from the last hex [12.0]")


class CombatEvent(Event):
    type: str = field(Const("combat"), default="combat")
    number: int = field(Int(), description="1-based, in the attacker's declared order [7.0]")
    attackers: list[str] = field(ListOf(TEXT))
    artillery: list[str] = field(ListOf(TEXT))
    support: int = field(Int())
    defenders: list[str] = field(ListOf(TEXT))
    fpf: list[str] = field(ListOf(TEXT))
    fpf_support: int = field(Int())
    attack_strength: int = field(Int())
    defense_strength: int = field(Int())
    differential: int = field(Int())
    line: CrtLine = field(CRT_LINE)
    column: str = field(TEXT, description="The CRT column heading used, e.g. '+9-11'")
    die: int = field(Int())
    roll_index: int = field(Int())
    result: str = field(TEXT, description="A1, A2, Ae, Br, D1..D4, De, or '-' (no effect [8.15])")
    cancelled: str = field(TEXT, default="", description="Why the attack did not take place [7.82]")


class RetreatEvent(Event):
    type: str = field(Const("retreat"), default="retreat")
    unit: str = field(TEXT)
    path: list[str] = field(ListOf(HEX), description="Combat position first")
    combat: int = field(Int())


class DisplacedEvent(Event):
    type: str = field(Const("displaced"), default="displaced")
    unit: str = field(TEXT)
    path: list[str] = field(ListOf(HEX))
    by: str = field(TEXT)
    combat: int = field(Int())


class AdvanceEvent(Event):
    type: str = field(Const("advance"), default="advance")
    unit: str = field(TEXT)
    path: list[str] = field(ListOf(HEX))
    combat: int = field(Int())


class EliminatedEvent(Event):
    type: str = field(Const("eliminated"), default="eliminated")
    unit: str = field(TEXT)
    hex: str | None = field(Maybe(HEX))
    rule: str = field(TEXT)
    reason: str = field(TEXT)
    combat: int | None = field(Maybe(Int()), default=None)


class NoteEvent(Event):
    """Anything else worth reporting (ground support received, victory check, game end)."""

    type: str = field(Const("note"), default="note")
    rule: str = field(TEXT, default="")
    text: str = field(TEXT)


class RollEvent(Event):
    """A die an exclusive rule rolled outside combat (Arnhem: bridge demolition [12.12], weather
    [16.0]); ``subject`` says what for (``bridge 1104/1105``, ``weather``), ``outcome`` what came of
    it (``demolished``, ``intact``, ``spared``, ``good``, ``fair``, ``poor``)."""

    type: str = field(Const("roll"), default="roll")
    rule: str = field(TEXT)
    subject: str = field(TEXT)
    die: int | None = field(Maybe(Int()), description="None when no die was rolled (a bridge spared)")
    outcome: str = field(TEXT)
    unit: str | None = field(Maybe(TEXT), default=None, description="The unit whose move caused the roll")
    hex: str | None = field(Maybe(HEX), default=None)


EVENT = Tagged(
    "type", RollEvent, PlacedEvent, MovedEvent, CombatEvent, RetreatEvent, DisplacedEvent,
    AdvanceEvent, EliminatedEvent, NoteEvent,
)
"""Any event, told apart by ``type``."""
EVENTS: Check = ListOf(EVENT)
AnyEvent = Event
