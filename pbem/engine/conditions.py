"""Conditional orders: decisions a player writes in advance for what the dice may bring.

In a game of alternating activations a rule may let a player decide something *after* a roll in
the middle of their own activation ("if the defender retreats, advance with 2/21"; "if the bridge
is blown, stop in 2418"). In play-by-email the player is not there when the dice fall: their move
is signed before anyone can know the roll (``docs/protocol.md``, P3). So such decisions travel in
the orders as **conditions written in advance**, and the rules evaluate them as the dice fall,
inside :meth:`pbem.engine.ruleset.Ruleset.resolve`.

The engine offers one small condition language, the same for every system, so a player learns it
once and a presenter can put it in words. A condition is JSON:

* ``{"event": KIND, FIELD: VALUE, ...}`` -- an event of kind ``KIND`` whose fields have these values
  has happened *earlier in this resolution* (e.g. ``{"event": "retreated", "unit": "B2"}``). Which
  event kinds and fields exist is the system's business (its rules text's occasions); the
  condition only compares equal values.
* ``{"roll": LABEL, "at_least": N}`` / ``{"roll": LABEL, "at_most": N}`` -- the most recent die
  whose label starts with ``LABEL`` showed at least / at most ``N`` (false when no such die was
  rolled yet).
* ``{"all": [C, ...]}``, ``{"any": [C, ...]}``, ``{"not": C}`` -- and, or, not.

What a condition cannot see, by design: anything that has not happened yet in this resolution,
the opponent's orders, and hidden information. It is checked for form when the orders are loaded
(:func:`parse_condition`: unknown keys, wrong types and nesting deeper than :data:`MAX_DEPTH` are
refused with one line), and evaluated by :func:`holds` against a :class:`Happened` log the rules
fill as they resolve. Evaluation is a pure function of the log, so it replays identically.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from pbem.errors import InputError
from pbem.plain import Plain

MAX_DEPTH = 6
"""Deepest nesting of ``all``/``any``/``not`` accepted."""

MAX_TERMS = 32
"""Most terms in one condition (all levels counted)."""

_SCALARS = (str, int, bool, type(None))


class Condition(Plain, frozen=True):
    """A parsed condition (see the module docstring). Immutable; build with :func:`parse_condition`."""

    op: str
    """``event``, ``roll``, ``all``, ``any`` or ``not``."""
    kind: str = ""
    """The event kind (``event``) or the die label prefix (``roll``)."""
    fields: tuple[tuple[str, Any], ...] = ()
    """Field values an ``event`` must have."""
    bound: tuple[str, int] | None = None
    """``("at_least", N)`` or ``("at_most", N)`` for ``roll``."""
    parts: tuple[Condition, ...] = ()
    """Sub-conditions of ``all``/``any``/``not``."""

    def to_json(self) -> dict[str, Any]:
        if self.op == "event":
            return {"event": self.kind, **dict(self.fields)}
        if self.op == "roll":
            assert self.bound is not None
            return {"roll": self.kind, self.bound[0]: self.bound[1]}
        if self.op == "not":
            return {"not": self.parts[0].to_json()}
        return {self.op: [p.to_json() for p in self.parts]}

    def describe(self) -> str:
        """The condition in words (for orders descriptions and the log)."""
        if self.op == "event":
            what = ", ".join(f"{k} {v}" for k, v in self.fields)
            return f"{self.kind}" + (f" ({what})" if what else "")
        if self.op == "roll":
            assert self.bound is not None
            word = "at least" if self.bound[0] == "at_least" else "at most"
            return f"the {self.kind} die shows {word} {self.bound[1]}"
        if self.op == "not":
            return f"not ({self.parts[0].describe()})"
        joiner = " and " if self.op == "all" else " or "
        return "(" + joiner.join(p.describe() for p in self.parts) + ")"


class Happened(Plain):
    """What has happened so far in one resolution: its events and its dice, in order. The rules
    append to it as they resolve (:meth:`event`, :meth:`roll`) and ask :func:`holds`."""

    events: list[dict[str, Any]] = field(default_factory=list)
    rolls: list[tuple[str, int]] = field(default_factory=list)

    def event(self, event: dict[str, Any]) -> dict[str, Any]:
        self.events.append(event)
        return event

    def roll(self, label: str, value: int) -> int:
        self.rolls.append((label, value))
        return value


def parse_condition(data: Any, *, where: str = "condition") -> Condition:
    """A :class:`Condition` from its JSON form; :class:`InputError` (one line, naming ``where``)."""
    count = [0]
    return _parse(data, where, 0, count)


def _parse(data: Any, where: str, depth: int, count: list[int]) -> Condition:
    count[0] += 1
    if count[0] > MAX_TERMS:
        raise InputError(f"{where}: more than {MAX_TERMS} terms")
    if depth > MAX_DEPTH:
        raise InputError(f"{where}: nested deeper than {MAX_DEPTH}")
    if not isinstance(data, dict) or not data:
        raise InputError(f"{where}: a condition is an object such as {{\"event\": \"retreated\"}}")
    if "event" in data:
        kind = data["event"]
        if not isinstance(kind, str) or not kind:
            raise InputError(f"{where}: 'event' must name an event kind")
        fields = []
        for key in sorted(data):
            if key == "event":
                continue
            value = data[key]
            if not isinstance(value, _SCALARS):
                raise InputError(f"{where}: field {key!r} must be a string, number, true/false or null")
            fields.append((key, value))
        return Condition("event", kind=kind, fields=tuple(fields))
    if "roll" in data:
        label = data["roll"]
        bounds = [k for k in ("at_least", "at_most") if k in data]
        extra = set(data) - {"roll", "at_least", "at_most"}
        if not isinstance(label, str) or not label or len(bounds) != 1 or extra:
            raise InputError(f"{where}: write {{\"roll\": LABEL, \"at_least\": N}} or 'at_most'")
        value = data[bounds[0]]
        if not isinstance(value, int) or isinstance(value, bool):
            raise InputError(f"{where}: {bounds[0]} must be a whole number")
        return Condition("roll", kind=label, bound=(bounds[0], value))
    if len(data) != 1:
        raise InputError(f"{where}: unknown condition keys {sorted(data)}")
    (op, value), = data.items()
    if op == "not":
        return Condition("not", parts=(_parse(value, where, depth + 1, count),))
    if op in ("all", "any"):
        if not isinstance(value, list) or not value:
            raise InputError(f"{where}: {op!r} takes a non-empty list of conditions")
        return Condition(op, parts=tuple(_parse(v, where, depth + 1, count) for v in value))
    raise InputError(f"{where}: unknown condition {op!r} (event, roll, all, any, not)")


def holds(cond: Condition, happened: Happened) -> bool:
    """Whether ``cond`` is true of what has happened so far."""
    if cond.op == "event":
        return any(
            ev.get("kind") == cond.kind
            and all(k in ev and type(ev[k]) is type(v) and ev[k] == v for k, v in cond.fields)
            for ev in happened.events
        )
    if cond.op == "roll":
        assert cond.bound is not None
        for label, value in reversed(happened.rolls):
            if label.startswith(cond.kind):
                return value >= cond.bound[1] if cond.bound[0] == "at_least" else value <= cond.bound[1]
        return False
    if cond.op == "not":
        return not holds(cond.parts[0], happened)
    results = (holds(p, happened) for p in cond.parts)
    return all(results) if cond.op == "all" else any(results)
