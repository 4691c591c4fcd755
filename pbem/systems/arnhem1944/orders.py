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

from __future__ import annotations

from typing import Any, Literal

from pbem.engine.conditions import parse_condition
from pbem.protocol.record import (
    Bool,
    Check,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    Record,
    RecordError,
    Str,
    field,
)
from pbem.systems.arnhem1944.state import SIDE, Among, HexNumber, Side, Standing

HexId = str
_HEX = HexNumber()



class Condition(Check):
    """An ``if`` condition over the activation's events (:func:`pbem.engine.conditions.parse_condition`:
    its :class:`InputError` names ``where``), or null."""

    def __init__(self, where: str) -> None:
        self.where = where

    def __call__(self, value: Any, loc: tuple[str | int, ...]) -> Any:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise RecordError([(loc, "expected an object")])
        parse_condition(value, where=self.where)
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [{"type": "object"}, {"type": "null"}]}


class Action(Record):
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

    do: Literal["move", "enter", "attack", "advance", "bombard", "prepare"] = field(
        Among("move", "enter", "attack", "advance", "bombard", "prepare"))
    unit: str | None = field(Maybe(Str()), default=None)
    units: list[str] = field(ListOf(Str(), max_length=12), default_factory=list)
    path: list[str] = field(ListOf(_HEX, max_length=40), default_factory=list)
    to: str | None = field(Maybe(_HEX), default=None, description=(
        "A destination the rules expand into the cheapest path (normalize): after ``path`` if "
        "given; for an ``enter`` without a path, from its entry zone or hex"))
    zone: str | None = field(Maybe(Str()), default=None)
    target: str | None = field(Maybe(_HEX), default=None)
    type: Literal["M", "N", "P"] | None = field(Maybe(Among("M", "N", "P")), default=None)
    support: list[str] = field(ListOf(Str(), max_length=12), default_factory=list)
    air: bool = field(Bool(), default=False)
    hold: bool = field(Bool(), default=False)
    hold_if: dict[str, Any] | None = field(Condition("attack.hold_if"), default=None)
    hexes: int | None = field(Maybe(Int(ge=1, le=20)), default=None)
    towards: str | None = field(Maybe(_HEX), default=None)
    lose: int | None = field(Maybe(Int(ge=0, le=20)), default=None)
    if_: dict[str, Any] | None = field(Condition("action.if"), default=None, alias="if")

    def check_fields(self) -> None:
        need: dict[str, tuple[str, ...]] = {
            "move": ("unit",), "enter": ("unit",),
            "attack": ("target", "units", "type"), "advance": ("units",),
            "bombard": ("target", "support"), "prepare": ("units",)}
        for name in need[self.do]:
            if not getattr(self, name):
                raise ValueError(f"a {self.do} needs {name!r}")
        if self.do in ("move", "enter") and not self.path and not self.to:
            raise ValueError(f"a {self.do} needs a 'path' or a 'to'")

    def movers(self) -> list[str]:
        """The units this action is about."""
        if self.do in ("move", "enter"):
            return [self.unit] if self.unit else []
        if self.do == "bombard":
            return list(self.support)
        return list(self.units) + list(self.support)


class Activation(Record):
    """One activation [3.2, 3.3]."""

    kind: Literal["activation"] = field(Among("activation"), default="activation")
    side: Side = field(SIDE)
    mode: Literal["formation", "general", "phase"] = field(
        Among("formation", "general", "phase"),
        description="[3.2] formation, [3.3] general, or [18.1] a whole player-turn of the "
                    "simplified sequence (movement phase, then combat phase)")
    formation: str | None = field(Maybe(Str()), default=None,
                                  description="[3.2] the formation activated")
    units: list[str] = field(ListOf(Str(), min_length=1, max_length=300))
    actions: list[Action] = field(ListOf(Nested(Action), max_length=600), default_factory=list)
    standing: Standing | None = field(Maybe(Nested(Standing)), default=None)


class Pass(Record):
    """No activation [2.1, 2.2]."""

    kind: Literal["pass"] = field(Among("pass"), default="pass")
    side: Side = field(SIDE)
    standing: Standing | None = field(Maybe(Nested(Standing)), default=None)


class Landing(Record):
    unit: str = field(Str())
    hex: str = field(_HEX)


class Drop(Record):
    """The airborne reinforcements landing this turn [15.2]: each unit's hex within two of the
    drop zone; ``dz``: the Poles' alternative drop zone in the free drop [15.2, 17.4]; in the free
    drop a group may also wait (``wait``) for a later turn [17.4]."""

    kind: Literal["drop"] = field(Among("drop"), default="drop")
    side: Side = field(SIDE, default="AL")
    landings: list[Landing] = field(ListOf(Nested(Landing), max_length=20), default_factory=list)
    dz: dict[str, str] = field(MapOf(Str(), Str()), default_factory=dict)
    wait: list[str] = field(ListOf(Str()), default_factory=list)


class Setup(Record):
    """The Allied player's placement of the units the scenario sets up round a hex (the 1st
    Airborne round its drop zone 0305 [17.1], by the drop procedure [15.2]): each named unit's
    hex; a unit not named stays where the rules' proposal put it."""

    kind: Literal["setup"] = field(Among("setup"), default="setup")
    side: Side = field(SIDE, default="AL")
    placements: list[Landing] = field(ListOf(Nested(Landing), max_length=40), default_factory=list)


class Acknowledge(Record):
    kind: Literal["acknowledge"] = field(Among("acknowledge"), default="acknowledge")
    side: Side = field(SIDE)


Orders = Activation | Pass | Drop | Setup | Acknowledge
MODELS: dict[str, type[Record]] = {"activation": Activation, "pass": Pass, "drop": Drop,
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


def explain(exc: RecordError, what: str) -> str:
    """The first problem of a :class:`RecordError` about one order (``what``: its kind, a key of
    :data:`CASES`) as one line in words, with the order's case."""
    loc_, msg = exc.problems[0] if exc.problems else ((), str(exc))
    loc = [str(x) for x in loc_ if not isinstance(x, int)]
    # a problem of one item as a whole (an action, a landing) names no field: "a attack needs
    # 'type'", not "actions: a attack needs 'type'"
    whole = len(loc_) == 2 and loc_[0] in ("actions", "landings", "placements") and isinstance(
        loc_[1], int)
    field_ = FIELDS.get(loc[-1], loc[-1]) if loc and not whole else ""
    if msg.startswith("unknown field"):
        msg = f"{loc[-1] if loc else '?'!r} is not part of this order"
    elif msg.startswith("needs at least 1 ") and msg.endswith(", got 0"):
        msg = "none given"
    head = (f"{what} order" if what in ("pass", "drop", "setup", "acknowledge", "standing")
            else what)
    return f"{head}: {field_ + ': ' if field_ else ''}{msg} [{CASES.get(what, '3')}]"
