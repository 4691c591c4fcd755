"""Orders of Vae Victis *Arnhem 1944*: one activation (or pass) is one move file [2.1, 3].

* :class:`Activation` -- a formation activation (up to six units of one formation in command of
  its HQ [3.2]) or a general activation (any three [3.3]), and what they do, in order
  (:class:`Action`): ``move`` along a path [6], ``enter`` the map as a reinforcement [15.1, 15.3],
  ``attack`` a hex [7], ``advance`` after it [7.6], ``bombard`` [8.1], ``prepare`` a defensive
  position [11];
* :class:`Pass` -- no activation [2.2] (also the non-random pass the rules insert so that the side
  that reveals a roll decides next);
* :class:`Drop` -- the airborne reinforcements of the turn [15.2, 17.3, 17.4];
* :class:`Setup` -- the Allied set-up of the 1st Airborne round its drop zone [17.1, 15.2];
* :class:`Acknowledge` -- the end of the game [16].

**Decisions after a roll** are written in advance [docs/architecture.md]: every action may carry an
``if`` condition (:mod:`pbem.engine.conditions`) over what happened earlier in the activation; the
action is carried out only when it holds. The events a condition may name are the rules' events
(``combat``, ``retreated``, ``vacated``, ``eliminated``, ``step-lost``, ``blown``...) with their
fields. Documented defaults: an action without ``if`` is always carried out; an attacker takes
the least step losses its result allows and retreats the rest unless the attack says ``hold``
(or its ``hold_if`` holds: every point as a step) or ``lose`` (up to so many steps, the rest as
retreat) [7.5]; a unit advances only when an ``advance`` action says so [7.6]; a
mobile assault continues only with the actions written after it [3.4].

Every activation or pass may also replace the side's standing orders (:class:`Standing`), which
decide for its units while the other side acts [7.5, 7.6, 8.2].
"""

# Annotations are evaluated as written (no ``from __future__ import annotations``): pydantic would
# otherwise compile and evaluate every field's annotation string as each model class is made, a
# cost paid by every command at start-up [28 item 4] (tests/cli/test_start_imports.py).

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from pbem.engine.conditions import parse_condition
from pbem.systems.arnhem1944.state import Side, Standing

HexId = str
_HEX = r"^\d{4}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)  # validators made at first use [28 item 4]


def _condition(value: dict[str, Any] | None, where: str) -> dict[str, Any] | None:
    if value is not None:
        parse_condition(value, where=where)
    return value


class Action(_Strict):
    """One thing an activation does [3.4]. Which fields a kind uses:

    * ``move``: ``unit``, ``path`` (hexes entered, in order) [6];
    * ``enter``: ``unit``, ``path`` (its first hex on the entry zone [15.1] or hex 0327 [15.3])
      and/or ``to`` (the cheapest way there from its entry zone or hex, or from the path's end),
      ``zone`` for a German reinforcement entering by another zone than its own [15.1];
    * ``attack``: ``target``, ``units``, ``type`` (``M``/``N``/``P`` [7.1]), ``support``
      (activated artillery [8.2]), ``air`` [13], ``hold`` / ``hold_if`` / ``lose`` (the
      attacker's own split [7.5]: every point as steps, every point when a condition holds, up to so many
      steps before hexes), ``towards`` (the hex the attackers retreat towards, among the hexes the
      priorities of [7.6] leave equal; default the first by number);
    * ``advance``: ``units``, ``hexes`` (along the path the last combat vacated [7.6]);
    * ``bombard``: ``target``, ``support`` (the artillery) [8.1];
    * ``prepare``: ``units`` (a prepared defensive position [11]).
    """

    do: Literal["move", "enter", "attack", "advance", "bombard", "prepare"]
    unit: str | None = None
    units: list[str] = Field(default_factory=list, max_length=12)
    path: list[str] = Field(default_factory=list, max_length=40)
    to: str | None = Field(None, pattern=_HEX, description="A destination the rules expand "
                           "into the cheapest path (normalize): after ``path`` if given; for "
                           "an ``enter`` without a path, from its entry zone or hex")
    zone: str | None = None
    target: str | None = Field(None, pattern=_HEX)
    type: Literal["M", "N", "P"] | None = None
    support: list[str] = Field(default_factory=list, max_length=12)
    air: bool = False
    hold: bool = False
    hold_if: dict[str, Any] | None = None
    hexes: int | None = Field(None, ge=1, le=20)
    towards: str | None = Field(None, pattern=_HEX)
    lose: int | None = Field(None, ge=0, le=20)
    if_: dict[str, Any] | None = Field(None, alias="if")

    @field_validator("if_")
    @classmethod
    def _if(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return _condition(value, "action.if")

    @field_validator("hold_if")
    @classmethod
    def _hold_if(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return _condition(value, "attack.hold_if")

    @field_validator("path")
    @classmethod
    def _path(cls, value: list[str]) -> list[str]:
        for h in value:
            if not (len(h) == 4 and h.isascii() and h.isdigit()):
                raise ValueError(f"{h!r} is not a hex number XXYY")
        return value

    @model_validator(mode="after")
    def _fields(self) -> "Action":
        need: dict[str, tuple[str, ...]] = {
            "move": ("unit",), "enter": ("unit",),
            "attack": ("target", "units", "type"), "advance": ("units",),
            "bombard": ("target", "support"), "prepare": ("units",)}
        for name in need[self.do]:
            if not getattr(self, name):
                raise ValueError(f"a {self.do} needs {name!r}")
        if self.do in ("move", "enter") and not self.path and not self.to:
            raise ValueError(f"a {self.do} needs a 'path' or a 'to'")
        return self

    def movers(self) -> list[str]:
        """The units this action is about."""
        if self.do in ("move", "enter"):
            return [self.unit] if self.unit else []
        if self.do == "bombard":
            return list(self.support)
        return list(self.units) + list(self.support)


class Activation(_Strict):
    """One activation [3.2, 3.3]."""

    kind: Literal["activation"] = "activation"
    side: Side
    mode: Literal["formation", "general", "phase"] = Field(
        description="[3.2] formation, [3.3] general, or [18.1] a whole player-turn of the "
                    "simplified sequence (movement phase, then combat phase)")
    formation: str | None = Field(None, description="[3.2] the formation activated")
    units: list[str] = Field(min_length=1, max_length=300)
    actions: list[Action] = Field(default_factory=list, max_length=600)
    standing: Standing | None = None


class Pass(_Strict):
    """No activation [2.1, 2.2]."""

    kind: Literal["pass"] = "pass"
    side: Side
    standing: Standing | None = None


class Landing(_Strict):
    unit: str
    hex: str = Field(pattern=_HEX)


class Drop(_Strict):
    """The airborne reinforcements landing this turn [15.2]: each unit's hex within two of the
    drop zone; ``dz``: the Poles' alternative drop zone in the free drop [15.2, 17.4]; in the free
    drop a group may also wait (``wait``) for a later turn [17.4]."""

    kind: Literal["drop"] = "drop"
    side: Side = "AL"
    landings: list[Landing] = Field(default_factory=list, max_length=20)
    dz: dict[str, str] = Field(default_factory=dict)
    wait: list[str] = Field(default_factory=list)


class Setup(_Strict):
    """The Allied player's placement of the units the scenario sets up round a hex (the 1st
    Airborne round its drop zone 0305 [17.1], by the drop procedure [15.2]): each named unit's
    hex; a unit not named stays where the rules' proposal put it."""

    kind: Literal["setup"] = "setup"
    side: Side = "AL"
    placements: list[Landing] = Field(default_factory=list, max_length=40)


class Acknowledge(_Strict):
    kind: Literal["acknowledge"] = "acknowledge"
    side: Side


Orders = Activation | Pass | Drop | Setup | Acknowledge
MODELS: dict[str, type[_Strict]] = {"activation": Activation, "pass": Pass, "drop": Drop,
                                    "setup": Setup, "acknowledge": Acknowledge}


CASES = {"move": "6", "enter": "15", "attack": "7.1", "advance": "7.6", "bombard": "8.1",
         "prepare": "11", "landing": "15.2", "standing": "7.5", "activation": "3", "pass": "2.2",
         "drop": "15.2", "setup": "17.1", "placement": "17.1", "acknowledge": "16"}
"""The case each kind of order comes from, for errors about its form."""

FIELDS = {"path": "the path", "to": "the destination", "target": "the hex attacked",
          "hex": "the hex", "units": "the units", "unit": "the unit", "support": "the artillery",
          "hexes": "the hexes of advance", "type": "the attack's type", "zone": "the entry zone",
          "defence": "'defend'", "hold": "'hold'", "stacking": "'stacking'",
          "retreat": "'retreat'", "towards": "the hex to retreat towards",
          "lose": "'lose'", "keep": "'keep'"}


def explain(exc: Any, what: str) -> str:
    """The first problem of a pydantic ``ValidationError`` about one order (``what``: its kind,
    a key of :data:`CASES`) as one line in words, with the order's case."""
    errors = exc.errors()
    err = errors[0] if errors else {"loc": (), "msg": str(exc), "type": ""}
    loc = [str(x) for x in err.get("loc", ()) if not isinstance(x, int)]
    field = FIELDS.get(loc[-1], loc[-1]) if loc else ""
    msg = str(err.get("msg", "")).removeprefix("Value error, ")
    value = err.get("input")
    if err.get("type") == "string_pattern_mismatch":
        msg = f"{value!r} is not a hex number XXYY"
    elif err.get("type") == "too_short":
        msg = "none given"
    elif err.get("type") == "literal_error":
        msg = msg.replace("Input should be", f"{value!r}: it is")
    elif err.get("type") == "extra_forbidden":
        msg = f"{loc[-1] if loc else '?'!r} is not part of this order"
    head = (f"{what} order" if what in ("pass", "drop", "setup", "acknowledge", "standing")
            else what)
    return f"{head}: {field + ': ' if field else ''}{msg} [{CASES.get(what, '3')}]"
