"""The one interface through which the engine sees any rules system.

The engine (``pbem.engine.replay``) never knows what a game-turn, a unit or a combat is. It asks the ruleset:

* what the game looks like at the start (:meth:`Ruleset.initial_state`),
* which decisions are pending and whose they are (:meth:`Ruleset.pending`),
* whether a side's orders are legal (:meth:`Ruleset.validate`),
* what happens when they are carried out with a committed dice stream (:meth:`Ruleset.resolve`),
* the score and whether the game is over.

States, orders and events cross this boundary as plain JSON values (``dict``/``list``/``str``/``int``/
``bool``/``None``; never floats) so that the engine can hash and sign them with canonical JSON without
knowing their shape. Each ruleset parses them into its own pydantic models internally.

How the three kinds of game fit (see ``docs/architecture.md``):

* you-go-I-go (WestWall): one pending :class:`Decision` at a time, alternating sides;
* alternating activations (Vae Victis Arnhem 1944): one pending decision at a time, the side to act
  chosen by the state (activation chits, initiative); an activation is one message;
* simultaneous sealed orders (megagame): several decisions pending at once, ``sealed=True``; each side
  commits first and reveals afterwards, the ruleset resolves once every side has revealed, and
  :meth:`Ruleset.view` filters what each side may see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Protocol

from pbem.errors import RuleViolation

JSON = Any  # a JSON value: dict/list/str/int/bool/None (floats are never allowed in signed data)


class Dice(Protocol):
    """What a ruleset may ask of the committed dice stream (see :mod:`pbem.protocol.dice`)."""

    def d6(self, label: str) -> int:
        """The next six-sided die, 1..6. ``label`` names the rule and occasion, e.g. ``"7.6 combat 3"``."""
        ...


@dataclass(frozen=True)
class Decision:
    """A decision the game is waiting for."""

    side: str
    kind: str
    """``"setup"``, ``"player-turn"``, ``"activation"``, ``"sealed-orders"`` or ``"acknowledge"``."""
    label: str
    """Human wording, e.g. ``"Game-Turn 3, German player-turn"``."""
    random: bool = True
    """True when resolving these orders may roll dice: the engine then waits for the next reveal
    of another party before resolving (protocol.md, "When a roll becomes known")."""
    sealed: bool = False
    """True for simultaneous orders that must be committed before anyone reveals."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game."""

    winner: str | None
    """Side id, or ``None`` for a draw."""
    summary: str
    points: dict[str, int] = field(default_factory=dict)
    breakdown: list[str] = field(default_factory=list)


@dataclass
class Resolution:
    """What resolving one decision produced."""

    state: JSON
    events: list[JSON]


class Ruleset(ABC):
    """A rules system. Implementations are stateless: everything lives in ``scenario`` and ``state``."""

    system: str
    """Short id used in scenario files, e.g. ``"westwall"``."""

    version: str = "1"
    """Version of the rules' *results*. The genesis records ``system/version``; ``pbem verify``
    recomputes every turn with the rules it has, so it refuses, with a clear message, an archive
    played under another version. Bump it with every change that alters any state, event or roll
    (tests/test_examples.py then fails until the bundled example is regenerated)."""

    @property
    def rules_id(self) -> str:
        """``system/version`` as the genesis records it, e.g. ``westwall/1``."""
        return f"{self.system}/{self.version}"

    @abstractmethod
    def load_scenario(self, data: JSON) -> Any:
        """Validate scenario data (already parsed JSON, with any map merged in) into the system's model.

        Raises :class:`pbem.errors.InputError` listing every problem."""

    @abstractmethod
    def initial_state(self, scenario: Any, options: JSON) -> JSON:
        """The state before the first decision."""

    @abstractmethod
    def pending(self, scenario: Any, state: JSON) -> list[Decision]:
        """Decisions the game now waits for; empty when the game is over."""

    @abstractmethod
    def skeleton(self, scenario: Any, state: JSON, side: str) -> JSON:
        """A valid, empty-but-complete orders document for ``side``'s pending decision."""

    @abstractmethod
    def normalize(self, scenario: Any, state: JSON, side: str, orders: JSON) -> JSON:
        """Fill conveniences (e.g. a ``to`` hex expanded into a full path) into the exact orders that
        will be signed. Raises :class:`pbem.errors.InputError` for malformed orders."""

    @abstractmethod
    def validate(self, scenario: Any, state: JSON, side: str, orders: JSON) -> list[RuleViolation]:
        """Every rule the orders break (empty when legal). Never mutates ``state``."""

    @abstractmethod
    def resolve(self, scenario: Any, state: JSON, side: str, orders: JSON, dice: Dice) -> Resolution:
        """Carry out legal orders. Dice are drawn only from ``dice`` and only in a fixed order."""

    @abstractmethod
    def score(self, scenario: Any, state: JSON) -> dict[str, int]:
        """Victory points so far, per side."""

    @abstractmethod
    def outcome(self, scenario: Any, state: JSON) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def view(self, scenario: Any, state: JSON, side: str | None) -> JSON:
        """What ``side`` may see of ``state`` (``None``: the umpire). Open-information systems return
        the whole state."""
        return state

    def describe(self, scenario: Any, state: JSON) -> str:
        """One line for ``pbem status``: game-turn, player-turn, phase."""
        return ""


_SYSTEMS: dict[str, str] = {"westwall": "pbem.systems.westwall.rules:WestWallRules"}


def register_ruleset(system: str, target: str) -> None:
    """Make ``system`` resolve to ``"module:Class"`` (used by tests to plug in toy systems)."""
    _SYSTEMS[system] = target


def get_ruleset(system: str) -> Ruleset:
    """The ruleset for a scenario's ``system`` field."""
    import importlib

    from pbem.errors import InputError

    target = _SYSTEMS.get(system)
    if target is None:
        raise InputError(f"unknown rules system {system!r} (known: {', '.join(sorted(_SYSTEMS))})")
    module_name, cls_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    ruleset: Ruleset = cls()
    return ruleset
