"""The one interface through which the engine sees any rules system.

The engine (:mod:`pbem.engine.replay`) never knows what a game-turn, a unit or a combat is. It asks
the ruleset:

* what the game looks like at the start (:meth:`Ruleset.initial_state`),
* which decisions are pending, whose they are, and who reveals the dice of a random one
  (:meth:`Ruleset.pending`, :attr:`Decision.revealer`),
* whether a side's orders are legal (:meth:`Ruleset.check` / :meth:`Ruleset.validate`),
* what happens when they are carried out with a committed dice stream (:meth:`Ruleset.resolve`),
* the score and whether the game is over.

**Typed, parsed once.** A ruleset is generic over its own scenario, state and orders types. JSON
crosses the boundary only at :meth:`load_state` / :meth:`dump_state` and :meth:`load_orders` /
:meth:`dump_orders`: the engine parses a move's orders once, carries the state object from step to
step and serialises it once per turn file. No ruleset needs a parse cache. The contract that makes
this safe: **no method changes a state or orders object it is given**; :meth:`resolve` returns a
new state. States and orders dumped to JSON hold no floats (half movement points are counted in
halves), so they hash and sign as canonical JSON.

**What a ruleset declares** (:class:`Capabilities`, OpenSpiel's ``GameType``): sequential or
simultaneous decisions, open or hidden information, whether an umpire takes part. The engine refuses
at load what it cannot run, not mid-game.

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
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar

from pbem.errors import InputError, RuleViolation
from pbem.plain import Plain

if TYPE_CHECKING:
    from pbem.engine.presenter import Presenter

JSON = Any  # a JSON value: dict/list/str/int/bool/None (floats are never allowed in signed data)


class Dice(Protocol):
    """What a ruleset may ask of the committed dice stream (see :mod:`pbem.protocol.dice`)."""

    def d6(self, label: str) -> int:
        """The next six-sided die, 1..6. ``label`` names the rule and occasion, e.g. ``"7.6 combat 3"``."""
        ...


class Decision(Plain, frozen=True):
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
    revealer: str | None = None
    """For a random decision: the side whose next message reveals the chain value that keys its
    dice (protocol.md, "When a roll becomes known"). The ruleset names it and must make that side's
    decision the next one; the engine checks both. Not written to turn files."""


class Capabilities(Plain, frozen=True):
    """What kind of game a ruleset plays; the engine refuses at load what it cannot run."""

    decisions: Literal["sequential", "simultaneous"] = "sequential"
    """One pending decision at a time (you-go-I-go, activations) or several (sealed orders)."""
    information: Literal["open", "hidden"] = "open"
    """Every side sees the whole state, or :meth:`Ruleset.view` hides parts of it."""
    umpire: bool = False
    """Whether an umpire side takes part (its rulings are messages of their own)."""


class Checked(Plain):
    """What :meth:`Ruleset.check` found: the violations, and (for a legal move) whatever the rules
    worked out while checking that :meth:`Ruleset.resolve` may reuse instead of redoing it (e.g.
    the board after the movement phase). It travels explicitly from ``check`` to ``resolve``; no
    ruleset keeps it anywhere else."""

    violations: list[RuleViolation]
    prepared: Any = None


class Outcome(Plain, frozen=True):
    """The end of a game."""

    winner: str | None
    """Side id, or ``None`` for a draw."""
    summary: str
    points: dict[str, int] = field(default_factory=dict)
    breakdown: list[str] = field(default_factory=list)


class Resolution(Plain):
    """What resolving one decision produced."""

    state: Any
    """The new state (the ruleset's state type)."""
    events: list[JSON]


ScenarioT = TypeVar("ScenarioT")
StateT = TypeVar("StateT")
OrdersT = TypeVar("OrdersT")


class Ruleset(ABC, Generic[ScenarioT, StateT, OrdersT]):
    """A rules system. Implementations are stateless: everything lives in ``scenario`` and ``state``,
    and no method changes an object it is given."""

    system: str
    """Short id used in scenario files, e.g. ``"westwall"``."""

    capabilities: ClassVar[Capabilities] = Capabilities()

    version: str = "1"
    """Version of the rules' *results*. The genesis records ``system/version``; ``pbem verify``
    recomputes every turn with the rules it has, so it refuses, with a clear message, an archive
    played under a version it does not play. Bump it with every change that alters any state, event
    or roll, keeping the old version in :attr:`plays` (tests/compat's frozen games were played under
    it) and gating the change on :meth:`since` (tests/release/test_examples.py then fails until the
    bundled example is regenerated)."""

    earlier: ClassVar[dict[str, str]] = {}
    """Earlier versions of these rules -> the pbem that plays them, for the one-line refusal of an
    archive played under them (``CHANGELOG.md`` lists the same). When ``version`` is bumped, the
    old one goes here with the last release that played it [23]."""

    plays: ClassVar[tuple[str, ...]] = ()
    """Earlier versions of these rules this pbem still plays, results exactly as they were: a game
    whose genesis records one of them goes on under it (:meth:`at_version`) -- its archive verifies
    and it can be finished -- while new games get :attr:`version`. When a fix changes results, the
    version is bumped and the old one stays here, the rules gating the fix on :meth:`since`; only a
    version dropped from here goes to :attr:`earlier`."""

    def at_version(self, version: str) -> Ruleset[ScenarioT, StateT, OrdersT]:
        """This ruleset playing rules ``version`` (the newest or one it :attr:`plays`): a copy whose
        :attr:`version` (and :attr:`rules_id`) is ``version``. :class:`InputError` for any other."""
        import copy

        if version == self.version:
            return self
        if version != type(self).version and version not in self.plays:
            raise InputError(f"{self.system} rules version {version!r} is not played by this pbem "
                             f"(it plays {', '.join(self.played_versions())})")
        other = copy.copy(self)
        other.version = version
        return other

    def played_versions(self) -> list[str]:
        """Every version this pbem plays, newest first (``westwall/3``, ``westwall/2``)."""
        from pbem.protocol.archive import version_key

        newest = type(self).version
        return [f"{self.system}/{v}" for v in sorted({newest, *self.plays}, key=version_key, reverse=True)]

    def since(self, version: str) -> bool:
        """Whether this instance plays rules ``version`` or a later one: how a rule fixed in
        ``version`` keeps the earlier result for games that began under an earlier one."""
        from pbem.protocol.archive import version_key

        return version_key(self.version) >= version_key(version)

    @property
    def rules_id(self) -> str:
        """``system/version`` as the genesis records it, e.g. ``westwall/2``."""
        return f"{self.system}/{self.version}"

    # -- scenario and boundary ---------------------------------------------------------------------
    @abstractmethod
    def load_scenario(self, data: JSON) -> ScenarioT:
        """Validate scenario data (already parsed JSON, with any map merged in) into the system's
        model. Raises :class:`pbem.errors.InputError` listing every problem."""

    def load_checked_scenario(self, data: JSON) -> ScenarioT:
        """The scenario :meth:`load_scenario` makes of ``data``, for data pbem's own tests check in
        full: a bundled scenario read from files byte for byte those the manifest lists
        (:func:`pbem.engine.scenarios.is_checked`; a game opens it at every command). A system may
        build its records without checking them again (:meth:`pbem.protocol.record.Record.built`);
        its tests then hold what it builds equal to what :meth:`load_scenario` makes, for every
        bundled scenario. By default, checked again."""
        return self.load_scenario(data)

    def scenario_problems(self, data: JSON) -> list[str]:
        """Every problem of merged scenario data, one line each (empty when sound): what ``pbem
        scenario check`` reports. :meth:`load_scenario` must refuse exactly the data this finds
        problems in (override both from one set of checks)."""
        from pbem.errors import InputError

        try:
            self.load_scenario(data)
        except InputError as exc:
            return str(exc).splitlines()
        return []

    def orders_schema(self) -> JSON:
        """The JSON Schema of this system's orders documents (``pbem schema orders``)."""
        return {"title": f"{self.system} orders", "type": "object"}

    def scenario_summary(self, scenario: ScenarioT) -> str:
        """One line about a sound scenario (``pbem scenario check``)."""
        return str(getattr(scenario, "id", ""))

    @abstractmethod
    def sides(self, scenario: ScenarioT) -> list[str]:
        """The sides in the scenario's order (the genesis registers a key for each)."""

    def umpire(self, scenario: ScenarioT) -> str | None:
        """The umpire's side id (one of :meth:`sides`), or ``None`` when no umpire takes part. The
        umpire has its own key and dice chain; its rulings are sealed-round messages of their own
        (:mod:`pbem.engine.sealed`)."""
        return None

    def sealed_size(self, scenario: ScenarioT, side: str) -> int:
        """Bytes every sealed copy of ``side``'s orders (the umpire's: its rulings) in this game is
        padded to, so that the length of a sheet tells nothing, not even that it grew between turns
        (0: :data:`pbem.protocol.seal.PAD_TO` and powers of two above it). A system whose sheets
        grow with the forces gives a bound from the scenario [29]."""
        return 0

    def needs_encryption(self, scenario: ScenarioT) -> bool:
        """Whether sides publish an X25519 key (orders sealed to an umpire, hidden reports)."""
        return self.umpire(scenario) is not None or self.capabilities.information == "hidden"

    def rulings_schema(self) -> JSON:
        """The JSON Schema of this system's umpire rulings (``pbem schema rulings``)."""
        return {"title": f"{self.system} rulings (none: this system has no umpire)", "type": "object",
                "maxProperties": 0}

    def load_rulings(self, scenario: ScenarioT, state: StateT, data: JSON) -> JSON:
        """Check the umpire's rulings for a sealed round (the judgements the rules leave to Game
        Control); :class:`InputError` (one line) when malformed. Returns them as JSON."""
        if data not in ({}, None):
            raise InputError(f"{self.system} has no umpire rulings")
        return {}

    @abstractmethod
    def load_state(self, scenario: ScenarioT, data: JSON) -> StateT:
        """A state from its JSON form (a turn file's ``state``); :class:`InputError` if malformed."""

    @abstractmethod
    def dump_state(self, scenario: ScenarioT, state: StateT) -> JSON:
        """The JSON form of a state, as turn files hold it (no floats)."""

    @abstractmethod
    def load_orders(self, scenario: ScenarioT, data: JSON) -> OrdersT:
        """Orders from their JSON form; :class:`InputError` (one line) if malformed."""

    @abstractmethod
    def dump_orders(self, scenario: ScenarioT, orders: OrdersT) -> JSON:
        """The JSON form of orders, exactly as a move file signs them (no floats)."""

    # -- the game ---------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, scenario: ScenarioT, options: JSON) -> StateT:
        """The state before the first decision (:class:`InputError` for bad options)."""

    @abstractmethod
    def pending(self, scenario: ScenarioT, state: StateT) -> list[Decision]:
        """Decisions the game now waits for; empty when the game is over. A random decision names
        its :attr:`Decision.revealer`."""

    @abstractmethod
    def skeleton(self, scenario: ScenarioT, state: StateT, side: str) -> JSON:
        """A valid, empty-but-complete orders document (JSON) for ``side``'s pending decision."""

    @abstractmethod
    def normalize(self, scenario: ScenarioT, state: StateT, side: str, orders: OrdersT) -> OrdersT:
        """Fill conveniences (e.g. a ``to`` hex expanded into a full path) into the exact orders that
        will be signed. Raises :class:`pbem.errors.InputError` for orders that cannot be read."""

    def uses_secret_notes(self, scenario: ScenarioT) -> bool:
        """True when some orders hold notes the author keeps secret until later (Arnhem drop zones
        [15.36]): :meth:`conceal` then needs the author's per-game secret."""
        return False

    def conceal(
        self, scenario: ScenarioT, state: StateT, side: str, orders: OrdersT, secret: bytes | None
    ) -> OrdersT:
        """Turn secret notes in the orders into what may be signed and published (commitments now,
        reveals when due), with ``secret`` (:func:`pbem.protocol.seal.notes_secret`: only the author
        can derive it). The default has no secret notes."""
        return orders

    def own_notes(self, scenario: ScenarioT, state: StateT, side: str, secret: bytes) -> StateT:
        """``state`` as ``side``'s own next orders will find it, for the words its author reads on
        its own machine (``pbem units``, ``pbem orders --text``): the secret notes :meth:`conceal`
        would reveal with them placed, those due later said with their hex and turn [15.39, 27].
        Never signed, stored or resolved. The default has no secret notes."""
        return state

    @abstractmethod
    def validate(self, scenario: ScenarioT, state: StateT, side: str, orders: OrdersT) -> list[RuleViolation]:
        """Every rule the orders break (empty when legal)."""

    def check(self, scenario: ScenarioT, state: StateT, side: str, orders: OrdersT) -> Checked:
        """:meth:`validate`, keeping what :meth:`resolve` may reuse (override to fill
        :attr:`Checked.prepared`)."""
        return Checked(self.validate(scenario, state, side, orders))

    @abstractmethod
    def resolve(
        self, scenario: ScenarioT, state: StateT, side: str, orders: OrdersT, dice: Dice,
        checked: Checked | None = None,
    ) -> Resolution:
        """Carry out legal orders (``checked``: what :meth:`check` returned for exactly these
        arguments, or ``None``). Dice are drawn only from ``dice`` and only in a fixed order. The
        result's ``state`` is a new object of the state type; ``events`` are JSON."""

    def resolve_round(
        self, scenario: ScenarioT, state: StateT, orders: dict[str, OrdersT], dice: Dice,
        checked: dict[str, Checked], rulings: JSON = None,
    ) -> Resolution:
        """Carry out every side's revealed orders of a sealed round together (simultaneous
        rulesets only; ``orders`` and ``checked`` by side; ``rulings``: the umpire's, when the game
        has one). The dice are keyed by every side's reveal (:mod:`pbem.engine.sealed`), so no
        side knew them when it committed and the umpire did not know them when it ruled."""
        raise NotImplementedError(f"{self.system} declares no simultaneous decisions")

    @abstractmethod
    def score(self, scenario: ScenarioT, state: StateT) -> dict[str, int]:
        """Victory points so far, per side."""

    @abstractmethod
    def outcome(self, scenario: ScenarioT, state: StateT) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    # -- what players see -------------------------------------------------------------------------
    def presenter(self) -> Presenter[ScenarioT, StateT]:
        """How this system is shown to people (:mod:`pbem.engine.presenter`): override to return
        the system's own, imported here lazily so the rules never import presentation."""
        from pbem.engine.presenter import Presenter

        return Presenter(self)

    def scenario_copy(self, scenario: ScenarioT, data: JSON, side: str) -> JSON | None:
        """A secret set-up (hidden information): the scenario data ``side`` may hold -- a valid
        scenario of this system with only what that side knows at the start (its own forces, what
        it can see of the enemy) -- or ``None`` when every side holds the whole scenario (the
        default). Game Control keeps the whole one; the genesis commits to it and to every copy,
        and to the hash of the initial state, which a side cannot compute from its copy. A system
        that returns copies must make the first pending decisions and the outcome (none) of the
        initial state independent of what a copy leaves out, and ``view`` of the initial state of
        a copy equal to ``view`` of the whole one for that side; the engine checks the first two."""
        return None

    def view(self, scenario: ScenarioT, state: JSON, side: str | None) -> JSON:
        """What ``side`` may see of a dumped state (``None``: the umpire). Open-information systems
        return the whole state."""
        return state

    def describe(self, scenario: ScenarioT, state: StateT) -> str:
        """One line for ``pbem status``: game-turn, player-turn, phase."""
        return ""

    def describe_event(self, scenario: ScenarioT, event: JSON) -> str:
        """One readable line for an event (``pbem log``); compact JSON unless overridden."""
        import json

        return json.dumps(event, sort_keys=True, ensure_ascii=False)


ENTRY_POINT_GROUP = "pbem.systems"
BUNDLED_SYSTEMS: Mapping[str, str] = MappingProxyType({
    "westwall": "pbem.systems.westwall.rules:WestWallRules",
    "toy": "pbem.systems.toy:ToyRules",
    "skirmish": "pbem.systems.skirmish:SkirmishRules",
    "auction": "pbem.systems.auction:AuctionRules",
    "auction-hidden": "pbem.systems.auction:HiddenAuctionRules",
    "megagame": "pbem.systems.megagame.rules:MegagameRules",
    "arnhem1944": "pbem.systems.arnhem1944.rules:Arnhem1944Rules",
})
"""The systems pbem ships, as pyproject.toml declares them under :data:`ENTRY_POINT_GROUP`
(a test holds the two equal): :func:`get_ruleset` finds these without reading every installed
distribution's entry points (~12 ms a call; ``pbem verify`` loads the scenario several times)."""
"""Installed packages add rules systems under this entry-point group (``name = "module:Class"``),
so a club can ship its own game as a separate package; pbem's own are declared in pyproject.toml."""

_EXTRA: list[dict[str, str]] = []
"""Systems added for the length of a :func:`extra_rulesets` block (tests' own toy systems)."""


@contextmanager
def extra_rulesets(systems: dict[str, str]) -> Iterator[None]:
    """Resolve ``systems`` (system id -> ``"module:Class"``) too while the block runs: how tests
    plug in toy systems of their own (``tests/conftest.py``); pbem's own systems, and a club's,
    are entry points."""
    added = dict(systems)
    _EXTRA.append(added)
    try:
        yield
    finally:  # by identity: two blocks may add equal tables
        del _EXTRA[next(i for i, m in enumerate(_EXTRA) if m is added)]


def known_systems() -> dict[str, str]:
    """System id -> ``"module:Class"``: the installed entry points (pbem's own systems are declared
    in pyproject.toml), then any :func:`extra_rulesets` block."""
    from importlib.metadata import entry_points

    out = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    for extra in _EXTRA:
        out.update(extra)
    return out


def rules_versions() -> dict[str, str]:
    """Every known system -> the rules version this pbem plays (``system/version``, as a genesis
    records it), or why it cannot be loaded (``pbem --version``)."""
    out: dict[str, str] = {}
    for system in sorted(known_systems()):
        try:
            ruleset = get_ruleset(system)
            older = ruleset.played_versions()[1:]
            out[system] = ruleset.rules_id + (f" (also plays {', '.join(older)})" if older else "")
        except Exception as exc:  # a broken plug-in is named, not fatal, in a version listing
            out[system] = f"cannot be loaded ({type(exc).__name__}: {exc})"[:200]
    return out


def get_ruleset(system: str) -> Ruleset[Any, Any, Any]:
    """The ruleset for a scenario's ``system`` field."""
    import importlib

    from pbem.errors import InputError

    target = next((extra[system] for extra in reversed(_EXTRA) if system in extra), None)
    if target is None:
        target = BUNDLED_SYSTEMS.get(system)
    if target is None:
        systems = known_systems()
        target = systems.get(system)
    if target is None:
        raise InputError(f"unknown rules system {system!r} (known: {', '.join(sorted(systems))})")
    module_name, cls_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    ruleset: Ruleset[Any, Any, Any] = cls()
    return ruleset
