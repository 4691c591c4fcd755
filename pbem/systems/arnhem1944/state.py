"""The state of a game of Vae Victis *Arnhem 1944* between two decisions: the turn and its
weather [2.1, 14] and the choices of the game (weather, optional rules), who acts next and why (initiative [2.1], passes and the turn-end die [2.2]),
every unit (where it is, its steps, whether it has been activated this turn [3.1], its command and
supply markers [9, 10], its prepared position [11], its artillery ratings used [8]), the crossings
blown or tried [12.2], the air missions flown [13], the hexes of the Arnhem bridge held [16] and
each side's standing orders for its defence [7.5, 7.6, 8.2].

Plain pydantic data, dumped to JSON without floats (movement is counted in half points by the
rules and never stored). The rules (:mod:`pbem.systems.arnhem1944.rules`) never change a state they
are given: they work on a copy (:meth:`State.clone`).
"""

# Annotations are evaluated as written (no ``from __future__ import annotations``): pydantic would
# otherwise compile and evaluate every field's annotation string as each model class is made, a
# cost paid by every command at start-up [28 item 4] (tests/cli/test_start_imports.py).

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pbem.systems.arnhem1944.model import Choices, Weather

Side = Literal["AL", "DE"]
Phase = Literal["setup", "operations", "drop", "ack", "over"]


_setattr = object.__setattr__


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # validators made at first use [28 item 4]


class UnitState(_Model):
    """One counter's situation."""

    hex: str | None = Field(None, description="Where it is; None: not (yet) on the map")
    steps: int = Field(ge=0, description="Steps left [1.2]; 0: eliminated")
    entered: bool = Field(False, description="On the map now or earlier (set up, entered, dropped)")
    entry_turn: int | None = Field(None, description="The turn it came on the map [15, errata]")
    activated: bool = Field(False, description="The 'Activee' marker [3.1]")
    in_command: bool = Field(True, description="[9.1] as found in the command phase")
    in_supply: bool = Field(True, description="[10.1] as found in the supply phase")
    prepared: bool = Field(False, description="In a prepared defensive position [11]")
    bv_used: bool = Field(False, description="Artillery: bombardment value used this turn [8]")
    df_used: bool = Field(False, description="Artillery: defence factor used this turn [8]")

    def duplicate(self) -> "UnitState":
        """A copy: what ``model_copy()`` gives (every field is immutable, so a shallow copy is a
        full one), without pydantic's generic copy of each part (a replay copies a unit per unit
        per step)."""
        m = UnitState.__new__(UnitState)
        _setattr(m, "__dict__", self.__dict__.copy())
        _setattr(m, "__pydantic_extra__", None)  # extra="forbid": never any
        _setattr(m, "__pydantic_fields_set__", self.__pydantic_fields_set__.copy())
        _setattr(m, "__pydantic_private__", None)  # no private attributes
        return m

    @property
    def alive(self) -> bool:
        return self.steps > 0

    @property
    def on_map(self) -> bool:
        return self.steps > 0 and self.hex is not None


class Standing(_Model):
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

    defence: Literal["retreat", "hold"] = "retreat"
    hold: list[str] = Field(default_factory=list, max_length=200)
    lose: int = Field(0, ge=0, le=20)
    keep: int = Field(0, ge=0, le=20)
    fire: bool = True
    air: bool = True
    stacking: list[str] = Field(default_factory=list, max_length=200)
    retreat: dict[str, str] = Field(default_factory=dict, max_length=200)

    def duplicate(self) -> "Standing":
        """A copy sharing nothing mutable: what ``model_copy(deep=True)`` gives (its two lists and
        its dict are new, holding the same strings), without the generic deep copy."""
        m = Standing.__new__(Standing)
        d = self.__dict__.copy()
        d["hold"], d["stacking"], d["retreat"] = list(self.hold), list(self.stacking), dict(self.retreat)
        _setattr(m, "__dict__", d)
        _setattr(m, "__pydantic_extra__", None)  # extra="forbid": never any
        _setattr(m, "__pydantic_fields_set__", self.__pydantic_fields_set__.copy())
        _setattr(m, "__pydantic_private__", None)  # no private attributes
        return m

    @field_validator("retreat")
    @classmethod
    def _retreat(cls, value: dict[str, str]) -> dict[str, str]:
        for h in value.values():
            if not (len(h) == 4 and h.isascii() and h.isdigit()):
                raise ValueError(f"{h!r} is not a hex number XXYY to retreat towards")
        return value


class State(_Model):
    """Everything that changes in a game of Arnhem 1944."""

    options: Choices = Field(description="The game's choices made at pbem new [14.1, 18]")
    turn: int = Field(ge=1)
    phase: Phase = "operations"
    weather: Weather = "clear"
    initiative: Side = "AL"
    to_act: Side = "AL"
    owed: Side | None = Field(None, description="A side owing a non-random pass (see rules)")
    ack: Side | None = Field(None, description="The side that acknowledges the end [16]")
    passed: Side | None = Field(None, description="The side whose pass was the last segment [2.2]")
    alone: int = Field(0, description="Segments played since the other side had nothing left [2.2]")
    units: dict[str, UnitState]
    joined: list[str] = Field(default_factory=list, description="Units that retreated into a "
                              "friendly stack this turn: no defence there [7.6]")
    blown: list[str] = Field(default_factory=list, description="Crossings destroyed [12.2]")
    tried: list[str] = Field(default_factory=list, description="Crossings tried already [12.2]")
    engineer_steps: int = Field(0, description="Infantry steps ferried by the engineer this turn")
    air_used: int = Field(0, description="Air missions flown this turn [13, 14.3]")
    airborne_missions: int = Field(0, description="1st Airborne's missions used this game [13]")
    dropped: list[str] = Field(default_factory=list, description="Drop groups landed [15.2]")
    drop_zones: dict[str, str] = Field(default_factory=dict, description="group -> DZ used")
    landed_in_zoc: list[str] = Field(default_factory=list, description="Units that landed in an "
                                     "enemy zone of control this turn: mobile assaults only "
                                     "[15.2] (rules version 4; not written while empty)")
    bridge: dict[str, Side] = Field(default_factory=dict, description="[16] who holds each hex")
    standing: dict[str, Standing] = Field(default_factory=dict)
    outcome: str | None = None

    def clone(self, *, units: bool = True) -> "State":
        """A copy that shares nothing the rules change: what ``model_copy(deep=True)`` gives, made
        field by field (a generic deep copy was 38% of a replay, issue 28). Every unit and
        standing order is copied, every list and dict is a new one; the strings, numbers and the
        frozen :class:`Choices` are immutable and shared. A field added to the models must be
        copied here too when it holds something mutable.

        ``units=False``: the units dict is a new one but holds the same :class:`UnitState`
        objects (a pass changes no unit, and a replay passes 116 times in the Arnhem 1944 game
        of the compatibility corpus): the caller must :meth:`own_units` before it changes any."""
        fields = {name: getattr(self, name) for name in State.model_fields}
        fields.update(
            units={uid: u.duplicate() for uid, u in self.units.items()} if units else dict(self.units),
            joined=list(self.joined), blown=list(self.blown), tried=list(self.tried),
            dropped=list(self.dropped), drop_zones=dict(self.drop_zones), bridge=dict(self.bridge),
            landed_in_zoc=list(self.landed_in_zoc),
            standing={s: o.duplicate() for s, o in self.standing.items()})
        return State.model_construct(set(self.model_fields_set), **fields)

    def own_units(self) -> None:
        """Give a state cloned with ``units=False`` copies of its units of its own."""
        units = self.units
        for uid, u in units.items():
            units[uid] = u.duplicate()
