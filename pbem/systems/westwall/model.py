"""Data models of the WestWall system: scenario (map, terrain key, units), state, orders and events.

Everything here is plain data validated by pydantic. The rules live in the sibling modules
(``movement``, ``combat``, ...), which take these models and never mutate their inputs.

Movement points are counted in **half-points** (``*_halves`` fields) so that road movement [5.22]
stays exact in integers: a unit with a Movement Allowance of 12 has 24 half-points.
"""

# Annotations are evaluated as written (no ``from __future__ import annotations``): pydantic would
# otherwise compile and evaluate every field's annotation string as each model class is made, a
# cost paid by every command at start-up [28 item 4] (tests/cli/test_start_imports.py).

from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator

from pbem.maps.model import HexStr, MapData, Strict, new_dict, new_list
from pbem.systems.westwall.memo import Memo

Side = str


# --------------------------------------------------------------------------------------------------
# Terrain key
# --------------------------------------------------------------------------------------------------

CrtLine = Literal["clear", "grove", "broken", "rough"]
"""The four lines of the integrated Combat Results Table [7.43, 7.61]."""


class HexTerrain(Strict):
    """What one kind of hex terrain does."""

    mp_halves: int = Field(ge=1, description="Movement cost to enter, in half Movement Points [5.21]")
    crt: CrtLine = Field(description="CRT line a defender in this terrain uses [7.43]")
    mech_prohibited: bool = Field(
        False, description="Armour/mech/recon/SP artillery may not enter except by road or trail [5.24]"
    )
    prohibited: bool = Field(False, description="No unit may enter (e.g. lakes)")


class HexsideTerrain(Strict):
    """What one kind of hexside feature does."""

    mp_halves: int = Field(0, ge=0, description="Extra cost to cross, in half Movement Points [5.21]")
    crt: CrtLine | None = Field(
        None, description="CRT line if every attacker attacks across it [7.42, 7.44]"
    )
    mech_prohibited: bool = Field(False, description="Crossing prohibited to [5.24] types")
    prohibited: bool = Field(False, description="No unit may cross")
    blocks_zoc: bool = Field(False, description="ZOC does not extend across [6.33]")
    blocks_attack: bool = Field(
        False, description="Non-artillery units may not attack across [6.33]"
    )
    route: bool = Field(False, description="A road or trail: changes the cost of the move [5.22, 5.23]")
    bridge: bool = Field(False, description="Carries a route over a river or stream hexside")


ResultCode = Literal["A1", "A2", "Ae", "Br", "D1", "D2", "D3", "D4", "De"]


class CrtColumn(Strict):
    """One column heading of a CRT line and the differentials it covers (``None``: unbounded)."""

    heading: str
    low: int | None = None
    high: int | None = None


class CrtTable(Strict):
    """The Combat Results Table as data [7.43, 7.61]: four terrain lines of column headings, each
    left-aligned on the same result columns, and the result for each die (row 0 = die 1) and
    column. ``scenarios/crt.json`` holds pbem's reconstruction; a scenario may name a replacement
    (``"crt": "my-crt.json"``) typed from the printed chart."""

    note: str = ""
    lines: dict[CrtLine, list[CrtColumn]]
    results: list[list[ResultCode]]


class TerrainKey(Strict):
    """Movement and combat effects of terrain. The published key is not in our sources; see
    ``scenarios/terrain-key.json`` for the documented default, which a scenario may replace."""

    note: str = ""
    hexes: dict[str, HexTerrain]
    hexsides: dict[str, HexsideTerrain]
    road_mp_halves: int = Field(1, description="Road hex to road hex along a road hexside [5.22]")
    trail_mp_halves: int = Field(2, description="Trail hex to trail hex along a trail hexside [5.23]")


# --------------------------------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------------------------------

UnitType = Literal[
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
]
MECH_TYPES: frozenset[str] = frozenset({"armor", "mech", "recon", "sp-artillery"})
"""Unit types restricted by [5.24]."""
ARTILLERY_TYPES: frozenset[str] = frozenset({"artillery", "sp-artillery", "airborne-artillery"})
AIRBORNE_TYPES: frozenset[str] = frozenset({"airborne", "glider", "airborne-artillery"})
"""Units that arrive by air (Arnhem [15.3], [17.32]: glider units count as airborne)."""


class UnitDef(Strict):
    """A counter. Non-artillery: attack-defense-move (A-D-M). Artillery: barrage-FPF-range/defense-move
    (B-F-R/D-M) [3.0]."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9/_.+-]*$")
    side: Side
    designation: str
    formation: str = ""
    type: UnitType
    size: Literal["I", "II", "III", "X", "XX"] = "II"
    attack: int = Field(0, ge=0)
    defense: int = Field(ge=0)
    move: int = Field(ge=0, description="Movement Allowance in whole Movement Points")
    barrage: int = Field(0, ge=0)
    fpf: int = Field(0, ge=0)
    range: int = Field(0, ge=0)
    note: str = Field("", description="Historical identification; 'reconstructed' where we inferred it")

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


class Area(Strict):
    """A set of hexes described by conditions that must all hold (empty = the whole map)."""

    hexes: list[HexStr] | None = Field(None, description="Only these hexes")
    edge: Literal["west", "east", "north", "south"] | None = Field(None, description="On this map edge")
    from_hex: HexStr | None = Field(None, description="With edge: from this hex (inclusive)")
    to_hex: HexStr | None = Field(None, description="With edge: to this hex (inclusive)")
    exclude_cols: list[int] = Field(default_factory=new_list)
    within: int | None = Field(None, description="Within this distance of `of` (inclusive)")
    beyond: int | None = Field(None, description="More than this distance from every hex in `of`")
    of: list[HexStr] = Field(default_factory=new_list)
    min_from_edge: dict[Literal["west", "east", "north", "south"], int] = Field(
        default_factory=new_dict, description="edge -> more than this many hexes from that edge"
    )
    text: str = Field("", description="The condition in words, with its rule case")


class Deployment(Strict):
    side: Side
    units: list[str]
    area: list[Area] = Field(description="Alternatives: a hex in any one area qualifies")
    rule: str = Field(description="Rule case, e.g. 15.12")


class Reinforcement(Strict):
    side: Side
    turn: int = Field(ge=1)
    units: list[str]
    entry: list[Area] = Field(description="Alternatives: entry hexes [11.11]")
    rule: str
    airborne: bool = Field(
        False,
        description="Arrives by air, not over a map edge (Arnhem [15.3]): placed in any entry hex, "
        "one unit a hex, no entry cost; the exclusive rules say how far it may move on landing",
    )


# --------------------------------------------------------------------------------------------------
# Scenario
# --------------------------------------------------------------------------------------------------


class SideInfo(Strict):
    id: Side
    name: str
    adjective: str = ""
    colour: str = "#888888"


class GroundSupport(Strict):
    side: Side
    from_turn: int
    points: int
    rule: str


class ExitRule(Strict):
    side: Side
    edges: list[Literal["west", "east", "north", "south"]]
    rule: str = "12.0"


class Scenario(Strict):
    """A WestWall scenario: everything needed to start a game, as data."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    id: str
    system: Literal["westwall"] = "westwall"
    title: str
    game: str = Field(description="The exclusive rules in force, e.g. 'bastogne'")
    rule: str = Field(description="Scenario case, e.g. 15.1")
    note: str = ""
    sides: list[SideInfo]
    first_player: Side
    first_turn: int = 1
    last_turn: int
    map: MapData
    terrain_key: TerrainKey
    crt: CrtTable | None = Field(None, description="A replacement Combat Results Table (default: pbem's)")
    units: list[UnitDef]
    deployments: list[Deployment] = Field(default_factory=new_list)
    reinforcements: list[Reinforcement] = Field(default_factory=new_list)
    ground_support: list[GroundSupport] = Field(default_factory=new_list)
    exits: list[ExitRule] = Field(default_factory=new_list)
    artillery_limit: bool = Field(False, description="[14.0] artillery + support <= ground strength")
    special: dict[str, object] = Field(
        default_factory=new_dict, description="Exclusive-rule parameters (exclusion zones, victory)"
    )

    @field_validator("units")
    @classmethod
    def _unique_ids(cls, units: list[UnitDef]) -> list[UnitDef]:
        seen: set[str] = set()
        for u in units:
            if u.id in seen:
                raise ValueError(f"duplicate unit id {u.id!r}")
            seen.add(u.id)
        return units

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
# State
# --------------------------------------------------------------------------------------------------

UnitStatus = Literal["waiting", "on-map", "eliminated", "exited"]


class UnitState(Strict):
    hex: HexStr | None = None
    status: UnitStatus = "waiting"
    fpf_turn: int | None = Field(None, description="Game-turn in which it last fired FPF [8.46]")
    adverse_phase: int | None = Field(
        None, description="Index of the combat phase in which it last suffered a result [8.41]"
    )
    exit_edge: str | None = Field(None, description="Edge it left the map by [12.0]")
    exit_turn: int | None = Field(None, description="Game-turn it left the map [15.37]")


Phase = Literal["setup", "player-turn", "over"]


class State(Strict):
    """Position between decisions. A whole player-turn (movement then combat) is one decision."""

    scenario: str
    game_turn: int
    phasing: Side
    phase: Phase
    setup_pending: list[Side] = Field(default_factory=new_list)
    combat_phase_index: int = Field(0, description="Counts combat phases played (for [8.41])")
    units: dict[str, UnitState]
    control: dict[HexStr, Side] = Field(
        default_factory=new_dict, description="Last side to occupy or pass through objective hexes"
    )
    ground_support_used: dict[Side, int] = Field(
        default_factory=new_dict, description="Points spent this game-turn [9.14]"
    )
    ground_support_phase: dict[Side, int] = Field(
        default_factory=new_dict, description="Player-turn (1 or 2) in which support was used [15.26.4]"
    )
    standing: dict[Side, "StandingOrders"] = Field(default_factory=new_dict)
    finished: bool = False
    exclusive: dict[str, Any] = Field(
        default_factory=new_dict,
        exclude_if=lambda v: not v,
        description="What a game's exclusive rules keep between player-turns (Arnhem: bridges, "
        "weather, drop zones, victory points); omitted while empty",
    )


# --------------------------------------------------------------------------------------------------
# Orders
# --------------------------------------------------------------------------------------------------


class MoveOrder(Strict):
    """Move one unit along a path. ``path`` lists every hex entered, in order (the start hex is the
    unit's current hex, or for a reinforcement the first hex of the path is its entry hex [11.11]).
    ``exit`` moves the unit off the map from the last hex [12.0]. ``to`` is a convenience that
    ``normalize`` expands into the cheapest legal path before signing."""

    unit: str
    path: list[HexStr] = Field(default_factory=new_list)
    to: HexStr | None = None
    exit: bool = False
    if_demolished: list[HexStr] | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="Arnhem [12.1]: if a bridge is demolished by a roll during this move, enter these "
        "hexes instead of the rest of the path (an empty list: stop where the roll was made). "
        "Without it the unit goes on along its path as far as it still may.",
    )


class AdvanceOrder(Strict):
    """Advance after combat [7.9]: follow the path of retreat at most ``hexes`` hexes; ``follow``
    names the beaten unit whose path to take when several retreat (default: the first, in declared
    order, whose path has room)."""

    unit: str
    hexes: int = Field(1, ge=1)
    follow: str | None = None


class AttackOrder(Strict):
    """One combat [7.0]. ``attackers`` are adjacent ground units (and adjacent artillery [8.31]);
    ``artillery`` are barraging units [8.1]; ``support`` Ground Support Points [9.0];
    ``defenders`` the enemy units attacked (all of them in one combat [7.23])."""

    attackers: list[str] = Field(default_factory=new_list)
    artillery: list[str] = Field(default_factory=new_list)
    support: int = Field(0, ge=0)
    defenders: list[str]
    advance: list[AdvanceOrder] = Field(default_factory=new_list)


class FpfOrder(Strict):
    """Standing order: this artillery unit gives Final Protective Fire to the first of ``protect``
    attacked (``["*"]``: any friend attacked) [8.4]."""

    artillery: str
    protect: list[str] = Field(default_factory=lambda: ["*"])


class StandingOrders(Strict):
    """Reactive decisions for the opponent's next player-turn (protocol.md, "Reactive decisions").

    * ``fpf``: Final Protective Fire allocations [8.4]; support points used as FPF [9.0].
    * ``retreat``: unit -> preferred hexes to retreat toward, in order [7.7].
    * ``avoid_displacing``: units to keep in place if any other legal retreat exists [7.8].
    * ``pursue``: defending units that advance after combat when their attackers retreat or are
      eliminated (A1, A2, Ae) [7.62, 7.91]; by default defenders hold their ground.
    """

    fpf: list[FpfOrder] = Field(default_factory=new_list)
    fpf_support: int = Field(0, ge=0)
    retreat: dict[str, list[HexStr]] = Field(default_factory=new_dict)
    avoid_displacing: list[str] = Field(default_factory=new_list)
    pursue: list[AdvanceOrder] = Field(default_factory=new_list)
    spare_bridges: list[str] = Field(
        default_factory=new_list,
        exclude_if=lambda v: not v,
        description="Arnhem [12.12]: bridge hexsides (XXYY/XXYY) the German player will not try to "
        "demolish; every other wired bridge is tried when the first Allied unit reaches it",
    )


class DropZoneNote(Strict):
    """Arnhem [15.36, 15.39]: where a division's drop-zone counter goes and on which game-turn."""

    division: str
    hex: HexStr
    turn: int = Field(1, ge=1)


class DropZoneReveal(DropZoneNote):
    salt: str = Field(pattern=r"^[0-9a-f]{64}$", description="The salt hashed with the note")


class DropZoneCommitment(Strict):
    hash: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the note and its salt")
    sealed: str = Field(
        pattern=r"^[0-9a-f]{2,256}$",
        description="The note encrypted to its author alone, so that its pbem can reveal it later",
    )


def _none(v: object) -> bool:
    return v is None


class SetupOrders(Strict):
    kind: Literal["setup"] = "setup"
    side: Side
    placements: dict[str, HexStr] = Field(description="unit id -> hex [15.12, 15.23]")
    standing: StandingOrders = Field(default_factory=lambda: StandingOrders())
    dz_notes: list[DropZoneNote] | None = Field(
        None, exclude_if=_none,
        description="Arnhem [15.36]: the secret drop-zone notes as written; pbem seals them into "
        "dz_commitments with the author's key before signing (never signed as they are)")
    dz_commitments: dict[str, DropZoneCommitment] | None = Field(
        None, exclude_if=_none, description="division -> commitment [15.36]")
    dz_reveal: list[DropZoneReveal] | None = Field(
        None, exclude_if=_none, description="notes revealed now, placed as noted [15.36]")


class PlayerTurnOrders(Strict):
    kind: Literal["player-turn"] = "player-turn"
    side: Side
    game_turn: int
    moves: list[MoveOrder] = Field(default_factory=new_list)
    attacks: list[AttackOrder] = Field(default_factory=new_list)
    standing: StandingOrders = Field(default_factory=lambda: StandingOrders())
    dz_reveal: list[DropZoneReveal] | None = Field(
        None, exclude_if=_none,
        description="Arnhem [15.39]: delayed drop-zone notes revealed and placed at the start of "
        "this player-turn (pbem fills them in when they are due)")


class AcknowledgeOrders(Strict):
    """The last message of a game: reveals the die key for the final player-turn."""

    kind: Literal["acknowledge"] = "acknowledge"
    side: Side


Orders = Annotated[
    SetupOrders | PlayerTurnOrders | AcknowledgeOrders, Field(discriminator="kind")
]


# --------------------------------------------------------------------------------------------------
# Events (outcome data for the map, the report and ``pbem log``)
# --------------------------------------------------------------------------------------------------


class Event(Strict):
    type: str


class PlacedEvent(Event):
    type: Literal["placed"] = "placed"
    unit: str
    hex: HexStr


class MovedEvent(Event):
    type: Literal["moved"] = "moved"
    unit: str
    path: list[HexStr] = Field(description="Start hex first, then every hex entered")
    mp_halves: int
    entered: bool = Field(False, description="A reinforcement entering the map [11.11]")
    exited: bool = Field(False, description="Left the map from the last hex [12.0]")


class CombatEvent(Event):
    type: Literal["combat"] = "combat"
    number: int = Field(description="1-based, in the attacker's declared order [7.0]")
    attackers: list[str]
    artillery: list[str]
    support: int
    defenders: list[str]
    fpf: list[str]
    fpf_support: int
    attack_strength: int
    defense_strength: int
    differential: int
    line: CrtLine
    column: str = Field(description="The CRT column heading used, e.g. '+9-11'")
    die: int
    roll_index: int
    result: str = Field(description="A1, A2, Ae, Br, D1..D4, De, or '-' (no effect [8.15])")
    cancelled: str = Field("", description="Why the attack did not take place [7.82]")


class RetreatEvent(Event):
    type: Literal["retreat"] = "retreat"
    unit: str
    path: list[HexStr] = Field(description="Combat position first")
    combat: int


class DisplacedEvent(Event):
    type: Literal["displaced"] = "displaced"
    unit: str
    path: list[HexStr]
    by: str
    combat: int


class AdvanceEvent(Event):
    type: Literal["advance"] = "advance"
    unit: str
    path: list[HexStr]
    combat: int


class EliminatedEvent(Event):
    type: Literal["eliminated"] = "eliminated"
    unit: str
    hex: HexStr | None
    rule: str
    reason: str
    combat: int | None = None


class NoteEvent(Event):
    """Anything else worth reporting (ground support received, victory check, game end)."""

    type: Literal["note"] = "note"
    rule: str = ""
    text: str


class RollEvent(Event):
    """A die an exclusive rule rolled outside combat (Arnhem: bridge demolition [12.12], weather
    [16.0]); ``subject`` says what for (``bridge 1104/1105``, ``weather``), ``outcome`` what came of
    it (``demolished``, ``intact``, ``spared``, ``good``, ``fair``, ``poor``)."""

    type: Literal["roll"] = "roll"
    rule: str
    subject: str
    die: int | None = Field(description="None when no die was rolled (a bridge spared)")
    outcome: str
    unit: str | None = Field(None, description="The unit whose move caused the roll")
    hex: HexStr | None = None


AnyEvent = Annotated[
    RollEvent
    | PlacedEvent
    | MovedEvent
    | CombatEvent
    | RetreatEvent
    | DisplacedEvent
    | AdvanceEvent
    | EliminatedEvent
    | NoteEvent,
    Field(discriminator="type"),
]
