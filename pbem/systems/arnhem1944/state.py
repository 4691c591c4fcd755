"""The state of a game of Vae Victis *Arnhem 1944* between two decisions: the turn and its
weather [2.1, 14] and the choices of the game (weather, optional rules), who acts next and why (initiative [2.1], passes and the turn-end die [2.2]),
every unit (where it is, its steps, whether it has been activated this turn [3.1], its command and
supply markers [9, 10], its prepared position [11], its artillery ratings used [8]), the crossings
blown or tried [12.2], the air missions flown [13], the hexes of the Arnhem bridge held [16] and
each side's standing orders for its defence [7.5, 7.6, 8.2].

Plain records (:mod:`pbem.protocol.record`), changed in place by the rules, dumped to JSON without
floats (movement is counted in half points by the rules and never stored). The rules
(:mod:`pbem.systems.arnhem1944.rules`) never change a state they are given: they work on a copy
(:meth:`State.clone`).
"""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter
from typing import Any, Literal

from pbem.protocol.record import (
    Bool,
    Check,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    OneOf,
    Record,
    RecordError,
    Str,
    field,
    omit_empty,
    quoted,
)
from pbem.systems.arnhem1944.model import WEATHERS, Choices, Weather

Side = Literal["AL", "DE"]
Phase = Literal["setup", "operations", "drop", "ack", "over"]

_new = object.__new__
_set = object.__setattr__


class Among(OneOf):
    """One of a few strings (a ``Literal``), refused in the words a player reads: ``'sometimes':
    it is 'retreat' or 'hold'``."""

    def __call__(self, value: Any, loc: tuple[str | int, ...]) -> Any:
        for v in self.values:
            if type(value) is type(v) and value == v:
                return value
        words = [repr(v) for v in self.values]
        allowed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
        raise RecordError([(loc, f"{quoted(value)}: it is {allowed}")])


class HexNumber(Check):
    """A hex number ``XXYY`` (four ASCII digits), refused as ``'DZ' is not a hex number XXYY``
    (``then``: words after it)."""

    def __init__(self, then: str = "") -> None:
        self.then = then

    def __call__(self, value: Any, loc: tuple[str | int, ...]) -> Any:
        if not (type(value) is str and len(value) == 4 and value.isascii() and value.isdigit()):
            raise RecordError([(loc, f"{quoted(value)} is not a hex number XXYY{self.then}")])
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string", "pattern": r"^\d{4}$"}


class RetreatOrders(Check):
    """Standing retreat orders: at most 200 of ``who -> hex`` (a unit id, a hex or ``"*"`` -> a
    hex number ``XXYY``) [7.6]; a problem is the whole field's, as a player wrote it in one line."""

    def __call__(self, value: Any, loc: tuple[str | int, ...]) -> Any:
        if not isinstance(value, dict):
            raise RecordError([(loc, "expected an object")])
        if len(value) > 200:
            raise RecordError([(loc, f"at most 200 entries, got {len(value)}")])
        for k, h in value.items():
            if type(k) is not str:
                raise RecordError([(loc, f"{quoted(k)} is not a unit, a hex or '*'")])
            HexNumber(" to retreat towards")(h, loc)
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": HexNumber().schema(defs), "maxProperties": 200}


SIDE = Among("AL", "DE")


class UnitState(Record, frozen=False, slots=False):  # the rules change states in place
    """One counter's situation. Its fields live in the instance's ``__dict__`` (not slots): a
    replay copies a unit per unit per state it clones, and one copy of that dict is about five
    times cheaper than ten slot writes (issue 28)."""

    hex: str | None = field(Maybe(Str()), default=None,
                            description="Where it is; None: not (yet) on the map")
    steps: int = field(Int(ge=0), description="Steps left [1.2]; 0: eliminated")
    entered: bool = field(Bool(), default=False,
                          description="On the map now or earlier (set up, entered, dropped)")
    entry_turn: int | None = field(Maybe(Int()), default=None,
                                   description="The turn it came on the map [15, errata]")
    activated: bool = field(Bool(), default=False, description="The 'Activee' marker [3.1]")
    in_command: bool = field(Bool(), default=True, description="[9.1] as found in the command phase")
    in_supply: bool = field(Bool(), default=True, description="[10.1] as found in the supply phase")
    prepared: bool = field(Bool(), default=False,
                           description="In a prepared defensive position [11]")
    bv_used: bool = field(Bool(), default=False,
                          description="Artillery: bombardment value used this turn [8]")
    df_used: bool = field(Bool(), default=False,
                          description="Artillery: defence factor used this turn [8]")

    def duplicate(self) -> UnitState:
        """A copy (every field is immutable, so a shallow copy is a full one), unchecked: a replay
        copies a unit per unit per step. The fields are the instance's ``__dict__``, copied whole
        (the record sets nothing else on a unit)."""
        m: UnitState = _new(UnitState)
        _set(m, "__dict__", self.__dict__.copy())
        return m

    @property
    def alive(self) -> bool:
        return self.steps > 0

    @property
    def on_map(self) -> bool:
        return self.steps > 0 and self.hex is not None


_UNIT_FIELDS = tuple(name for name, _ in UnitState._spec())
_unit_values = attrgetter(*_UNIT_FIELDS)
"""A unit's fields' values in order, as a tuple."""


def unit_json(u: UnitState) -> dict[str, Any]:
    """``u.to_json()``, a new dict: the fields in order (every field is written, each a string, an
    integer, a boolean or None, written as it is). A unit's ``__dict__`` is exactly that: every way
    a unit is made (:meth:`~pbem.protocol.record.Record.parse`, its constructor, ``replace``,
    :meth:`UnitState.duplicate`) sets the fields in their order and nothing else, and a change of a
    field keeps its place; so it is copied (a replay dumps every unit of every state, issue 28),
    field by field only should anything else have been set on the unit."""
    d = u.__dict__
    if len(d) == len(_UNIT_FIELDS):
        return d.copy()
    return dict(zip(_UNIT_FIELDS, _unit_values(u), strict=True))


class Standing(Record, frozen=False):
    """A side's standing orders for the other side's activations, given with its own latest
    activation or pass (the defender is not there when the dice fall) [7.5, 7.6, 8.2, 13].

    * ``defence``: how its units split a result they receive [7.5]: ``"retreat"`` (the least
      step losses the result allows, the rest as hexes of retreat; the default) or ``"hold"``
      (every point as a step loss);
    * ``hold``: hexes whose defenders hold whatever ``defence`` says;
    * ``lose``: with ``"retreat"``, take up to this many step losses of a result (its red or
      green minimum included) rather than hexes of retreat (default 0: the minimum only);
    * ``keep``: never take a step loss the result does not compel when it would leave the stack
      with fewer than this many steps: the point is a hex of retreat instead (default 0);
    * ``fire``: give defensive artillery support whenever the rules allow it [8.2] (default yes);
    * ``air``: ask for air support in defence against prepared attacks [7.1, 13] (default yes);
    * ``stacking``: unit ids, in the order their steps go when a hex is overstacked at the end of
      the operations phase [5] (units not named lose theirs afterwards, most steps first);
    * ``retreat``: where its units retreat [7.6]: a unit id, a hex (the stack defending there)
      or ``"*"`` (any) -> the hex to retreat towards. Among the hexes the priorities of [7.6]
      leave equal, each hex of the retreat is the one nearest to it (then the first by number);
      the first unit of a retreating stack (by id) with an order decides, then its hex's order,
      then ``"*"``; without any, the first hex by number (the default)."""

    defence: Literal["retreat", "hold"] = field(Among("retreat", "hold"), default="retreat")
    hold: list[str] = field(ListOf(Str(), max_length=200), default_factory=list)
    lose: int = field(Int(ge=0, le=20), default=0)
    keep: int = field(Int(ge=0, le=20), default=0)
    fire: bool = field(Bool(), default=True)
    air: bool = field(Bool(), default=True)
    stacking: list[str] = field(ListOf(Str(), max_length=200), default_factory=list)
    retreat: dict[str, str] = field(RetreatOrders(), default_factory=dict)

    def duplicate(self) -> Standing:
        """A copy sharing nothing mutable (its two lists and its dict are new, holding the same
        strings), unchecked."""
        return self.replace(hold=list(self.hold), stacking=list(self.stacking),
                            retreat=dict(self.retreat))


class State(Record, frozen=False):
    """Everything that changes in a game of Arnhem 1944."""

    options: Choices = field(Nested(Choices),
                             description="The game's choices made at pbem new [14.1, 18]")
    turn: int = field(Int(ge=1))
    phase: Phase = field(OneOf("setup", "operations", "drop", "ack", "over"), default="operations")
    weather: Weather = field(OneOf(*WEATHERS), default="clear")
    initiative: Side = field(SIDE, default="AL")
    to_act: Side = field(SIDE, default="AL")
    owed: Side | None = field(Maybe(SIDE), default=None,
                              description="A side owing a non-random pass (see rules)")
    ack: Side | None = field(Maybe(SIDE), default=None,
                             description="The side that acknowledges the end [16]")
    passed: Side | None = field(Maybe(SIDE), default=None,
                                description="The side whose pass was the last segment [2.2]")
    alone: int = field(Int(), default=0,
                       description="Segments played since the other side had nothing left [2.2]")
    units: dict[str, UnitState] = field(MapOf(Str(), Nested(UnitState)))
    joined: list[str] = field(ListOf(Str()), default_factory=list, description=(
        "Units that retreated into a friendly stack this turn: no defence there [7.6]"))
    blown: list[str] = field(ListOf(Str()), default_factory=list,
                             description="Crossings destroyed [12.2]")
    tried: list[str] = field(ListOf(Str()), default_factory=list,
                             description="Crossings tried already [12.2]")
    engineer_steps: int = field(Int(), default=0,
                                description="Infantry steps ferried by the engineer this turn")
    air_used: int = field(Int(), default=0, description="Air missions flown this turn [13, 14.3]")
    airborne_missions: int = field(Int(), default=0,
                                   description="1st Airborne's missions used this game [13]")
    dropped: list[str] = field(ListOf(Str()), default_factory=list,
                               description="Drop groups landed [15.2]")
    drop_zones: dict[str, str] = field(MapOf(Str(), Str()), default_factory=dict,
                                       description="group -> DZ used")
    landed_in_zoc: list[str] = field(ListOf(Str()), default_factory=list, omit=omit_empty, description=(
        "Units that landed in an enemy zone of control this turn: mobile assaults only [15.2] "
        "(rules version 4; not written while empty)"))
    bridge: dict[str, Side] = field(MapOf(Str(), SIDE), default_factory=dict,
                                    description="[16] who holds each hex")
    standing: dict[str, Standing] = field(MapOf(Str(), Nested(Standing)), default_factory=dict)
    outcome: str | None = field(Maybe(Str()), default=None)

    def clone(self, *, units: bool = True) -> State:
        """A copy that shares nothing the rules change, unchecked and made field by field (a
        generic deep copy was 38% of a replay, issue 28). Every unit and standing order is
        copied, every list and dict is a new one; the strings, numbers and the frozen
        :class:`Choices` are immutable and shared. A field added to the record must be copied
        here too when it holds something mutable.

        ``units=False``: the units dict is a new one but holds the same :class:`UnitState`
        objects (a pass changes no unit, and a replay passes 116 times in the Arnhem 1944 game
        of the compatibility corpus): the caller must :meth:`own_units` before it changes any."""
        return self.replace(
            units=_copy_units(self.units) if units else dict(self.units),
            joined=list(self.joined), blown=list(self.blown), tried=list(self.tried),
            dropped=list(self.dropped), drop_zones=dict(self.drop_zones), bridge=dict(self.bridge),
            landed_in_zoc=list(self.landed_in_zoc),
            standing={s: o.duplicate() for s, o in self.standing.items()})

    def dump(self) -> dict[str, Any]:
        """:meth:`to_json`, made field by field (a replay dumps every state it makes: the generic
        walk was 30% of verifying the Arnhem 1944 game of the compatibility corpus): every field
        in order, ``landed_in_zoc`` only while there are any, every list and dict a new one."""
        out: dict[str, Any] = {}
        for name in _STATE_FIELDS:
            value = getattr(self, name)
            if name == "units":
                value = _units_json(value)
            elif name == "standing":
                value = {side: o.to_json() for side, o in value.items()}
            elif name == "options":
                value = value.to_json()
            elif name == "landed_in_zoc" and not value:
                continue
            elif isinstance(value, list):
                value = list(value)
            elif isinstance(value, dict):
                value = dict(value)
            out[name] = value
        return out

    def own_units(self) -> None:
        """Give a state cloned with ``units=False`` copies of its units of its own."""
        self.units = _copy_units(self.units)


def _copy_units(units: dict[str, UnitState]) -> dict[str, UnitState]:
    """A new dict of :meth:`UnitState.duplicate` of each unit, in the same order: each unit's
    ``__dict__`` copied into a new unit, by ``map`` over the units (no Python call per unit: a
    replay copies ~18,000 units, issue 28)."""
    made = list(map(_new, repeat(UnitState, len(units))))
    any(map(_set, made, repeat("__dict__"), map(dict.copy, map(_fields_of, units.values()))))  # each None
    return dict(zip(units, made, strict=True))


def _units_json(units: dict[str, UnitState]) -> dict[str, dict[str, Any]]:
    """``{uid: unit_json(u)}``: when every unit's ``__dict__`` holds exactly its fields (as every
    way a unit is made leaves it, see :func:`unit_json`), a copy of each, by ``map`` (no Python
    call per unit: a replay dumps ~24,000 units); otherwise unit by unit."""
    dicts = list(map(_fields_of, units.values()))
    if set(map(len, dicts)) <= _ONLY_FIELDS:
        return dict(zip(units, map(dict.copy, dicts), strict=True))
    return {uid: unit_json(u) for uid, u in units.items()}


_fields_of = attrgetter("__dict__")
_ONLY_FIELDS = frozenset({len(_UNIT_FIELDS)})


_STATE_FIELDS = tuple(name for name, _ in State._spec())
