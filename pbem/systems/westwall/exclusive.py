"""Hooks for a game's exclusive rules.

The WestWall standard rules (1.0-9.14) are the same for every game of the system; each game adds
exclusive rules (Bastogne 10.0-16.2, Arnhem 10.0-18.x). Generic mechanisms configured by scenario data
(reinforcements [11.0], exits [12.0], ground support [9.0], the artillery limit [14.0], objective
control by last passage) live in the engine. Anything else plugs in here: a subclass of
:class:`Exclusive` named by the scenario's ``game`` field.

The base class does nothing: no extra movement restriction, nobody eliminated by entering a hex, no
points, no early end: the standard rules, for a scenario whose ``game`` is ``"standard"``. Any
other name must be exclusive rules pbem knows: a misspelt one is refused by name when the scenario
is checked, never taken for the standard rules [24].

Which class a ``game`` names: the bundled exclusive rules are a static table
(:data:`BUNDLED_GAMES`, ``game`` -> ``"module:Class"``); an installed package adds its own under the
entry-point group :data:`ENTRY_POINT_GROUP`. Nothing registers itself at import and nothing is
kept in the process: :func:`get_exclusive` imports the class a name stands for and makes one.

Where the engine checks a mechanism for the exclusive rules (a reinforcement's entry hex, who may
exit and where, a unit forced off the map by combat), it cites the case of the exclusive rules in
play: each game declares them once, in its :attr:`Exclusive.citations` (:class:`Citations`).

A game's ``special`` parameters are typed by its model (:attr:`Exclusive.special_model`), parsed
once when the ruleset loads the scenario and kept with the scenario object (:func:`parse_special`).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from pbem.engine.ruleset import Outcome
from pbem.errors import InputError, RuleViolation
from pbem.plain import Plain
from pbem.protocol.record import Record, RecordError
from pbem.systems.westwall.memo import memo
from pbem.systems.westwall.readings import NEWEST, Readings

if TYPE_CHECKING:
    from pbem.engine.ruleset import Dice
    from pbem.maps.hexmap import Hex
    from pbem.systems.westwall.board import Board
    from pbem.systems.westwall.model import (
        Area,
        CrtLine,
        Event,
        MoveOrder,
        PlayerTurnOrders,
        Scenario,
        SetupOrders,
        State,
    )


class Citations(Plain, frozen=True):
    """The case numbers the standard engine cites when it checks, on behalf of a game's exclusive
    rules, the mechanisms they configure by scenario data: reinforcements and exits
    (:mod:`~pbem.systems.westwall.movement`), a unit forced off the map by combat
    (:mod:`~pbem.systems.westwall.retreat`). The defaults are the cases of the Bastogne exclusive
    rules [11.0-12.12], whose text those mechanisms follow; another game declares its own
    (:attr:`Exclusive.citations`), so that an Arnhem player is never sent to a Bastogne case."""

    reinforcements: str = "11.0"
    """A unit off the map that is not a reinforcement, or is not due yet."""
    entry_hexes: str | None = "11.11"
    """A reinforcement entering elsewhere than at one of its entry hexes. ``None``: the case its
    schedule (:attr:`~pbem.systems.westwall.model.Reinforcement.rule`) or the exclusive rules'
    entry area (:meth:`Exclusive.entry_areas`) names (see :meth:`Exclusive.entry_case`)."""
    entry_terrain: str = "11.11"
    """An entry hex whose terrain the unit may not enter (terrain restrictions apply to it)."""
    entry_enemy: str = "11.21"
    """An entry hex occupied by an enemy unit."""
    no_return: str = "12.11"
    """An exited unit ordered back onto the map when the rules do not bring it back."""
    who_may_exit: str = "12.0"
    """A unit of a side that may not exit the map."""
    exit_edges: str = "12.0"
    """An exit by a map edge the side may not exit by."""
    exit_cost: str = "12.0"
    """An exit the unit cannot pay for (the imaginary hex beyond the edge)."""
    off_map_by_combat: str = "12.12"
    entry: str = "11.11"
    """Where the words a player reads (map legends, narration, the template, ``pbem units``) say how a
    reinforcement comes onto the map [27]."""
    withhold: str = "11.22"
    """A reinforcement due and kept off the map on purpose (said before signing) [27]."""
    exited: str = "12.0"
    """A unit that left the map by an edge, in the words a player reads [27]."""
    """A unit forced off the map by combat is eliminated (the event's ``rule``: see
    :meth:`Exclusive.off_map_case`)."""


STANDARD_CITATIONS = Citations()
"""The cases the engine cited before each game declared its own (and what the base class cites):
the events of westwall/2 keep them (:attr:`Readings.own_case_numbers`)."""


class Exclusive:
    """A game's exclusive rules. Every method has a harmless default.

    An instance plays the :class:`Readings` it is made with: the ruleset makes it with those of the
    rules version the game is played under (:func:`get_exclusive`)."""

    game: str = ""

    def __init__(self, readings: Readings = NEWEST) -> None:
        self.readings = readings
        self.walked: tuple[State, PlayerTurnOrders, Board] | None = None
        """Set by the ruleset's check while it asks :meth:`turn_violations`: the board after the
        orders' moves walked without dice from that state (the very objects), which the exclusive
        rules may read instead of walking the moves again; never to be changed."""

    citations: Citations = STANDARD_CITATIONS
    """The cases the engine cites when it checks a mechanism for these rules (see
    :class:`Citations`)."""

    def entry_case(self, named: str) -> str:
        """The case a refused entry hex cites: :attr:`Citations.entry_hexes`, or ``named`` (the
        case of the unit's schedule or entry area) when the game cites those."""
        return self.citations.entry_hexes or named

    def no_return(self, scenario: Scenario, state: State, uid: str, game_turn: int) -> str:
        """Why exited unit ``uid`` may not come back on ``game_turn`` (the refusal's words; its case
        is :attr:`Citations.no_return`): here, never [12.11]."""
        return f"{uid} has left the map and may not return"

    def off_map_case(self) -> str:
        """The ``rule`` of the elimination of a unit forced off the map by combat: the game's own
        case (westwall/3), or the one every game cited before (westwall/2, whose events are kept
        byte for byte)."""
        table = self.citations if self.readings.own_case_numbers else STANDARD_CITATIONS
        return table.off_map_by_combat

    special_model: type[Record] | None = None
    """The model of the scenario's ``special`` parameters: the ruleset parses them with it when
    it loads the scenario (:func:`parse_special`); ``None``: the game reads none."""

    rolls_in_movement: bool = False
    """True when a die may be rolled during the Movement Phase (Arnhem bridge demolition [12.11]):
    the moves are then walked again, with the dice, when the player-turn is resolved."""

    def special_problems(self, scenario: Scenario) -> list[str]:
        """Problems of the scenario's ``special`` parameters, one line each: what ``pbem scenario
        check`` reports and the ruleset refuses to load (:mod:`~pbem.systems.westwall.scenario_check`)."""
        return []

    def prepare_state(self, scenario: Scenario, state: State) -> State:
        """The initial state with the exclusive rules' own records (e.g. fixed drop zones)."""
        return state

    def setup_label(self, scenario: Scenario, state: State, side: str) -> str | None:
        """What the pending set-up step is, in words, when it is not a deployment."""
        return None

    def setup_violations(
        self, scenario: Scenario, state: State, orders: SetupOrders
    ) -> list[RuleViolation]:
        """Extra checks of a set-up (e.g. drop-zone notes and their reveal)."""
        return []

    def after_setup(self, scenario: Scenario, state: State, orders: SetupOrders) -> State:
        """The state after a set-up, with whatever the exclusive rules record from it."""
        return state

    def uses_secret_notes(self, scenario: Scenario) -> bool:
        """Whether orders of this game hold notes kept secret until later (Arnhem [15.36])."""
        return False

    def conceal(
        self, scenario: Scenario, state: State, orders: SetupOrders | PlayerTurnOrders,
        secret: bytes | None,
    ) -> SetupOrders | PlayerTurnOrders:
        """Secret notes turned into commitments, and due reveals filled in (see
        :meth:`pbem.engine.ruleset.Ruleset.conceal`)."""
        return orders

    def own_notes(self, scenario: Scenario, state: State, side: str, secret: bytes) -> State:
        """The state as ``side``'s own orders will find it (see
        :meth:`pbem.engine.ruleset.Ruleset.own_notes`): here, as it is."""
        return state

    def arrival_turn(self, scenario: Scenario, state: State, uid: str, scheduled: int) -> int | None:
        """The Game-Turn waiting unit ``uid`` (scheduled for ``scheduled``) may come onto the map
        from, in the words a player reads: ``None`` when nobody but its owner can know (Arnhem: the
        drop zone of its division held back to a turn noted in secret [15.39])."""
        return scheduled

    def turn_start(self, scenario: Scenario, state: State, orders: PlayerTurnOrders) -> State:
        """The state at the start of a player-turn once its orders are known (e.g. drop zones
        revealed and placed before anything moves [15.39]); checked by :meth:`turn_violations`."""
        return state

    def turn_violations(
        self, scenario: Scenario, board: Board, state: State, orders: PlayerTurnOrders
    ) -> list[RuleViolation]:
        """Extra checks of a whole player-turn's orders; ``board`` is the position before the
        moves (e.g. how many airborne units may land, at most two artillery units a combat)."""
        return []

    def entry_areas(
        self, scenario: Scenario, state: State, uid: str, game_turn: int
    ) -> tuple[list[Area], str] | None:
        """Where a unit that is not waiting on the schedule may come (back) onto the map this
        player-turn (exited units re-entering, a replaced unit), or where a scheduled one may come
        instead of its schedule; ``None``: the schedule applies."""
        return None

    def column_cost(self, scenario: Scenario, board: Board, entry: Hex, ahead: int) -> int:
        """Extra half Movement Points for a reinforcement entering at ``entry`` behind ``ahead``
        units that entered there earlier this phase (Arnhem's column [15.13]; none by default:
        WestWall [11.13])."""
        return 0

    def landing(self, scenario: Scenario, state: State, uid: str) -> int | None:
        """For a unit arriving by air: the half Movement Points it has left after landing;
        ``None`` for a unit that enters over a map edge."""
        return None

    def landing_cap(self, scenario: Scenario, state: State) -> int | None:
        """How many units may arrive by air this player-turn (Arnhem [16.12]); ``None``: all."""
        return None

    def landing_violation(
        self, scenario: Scenario, board: Board, uid: str, h: Hex
    ) -> RuleViolation | None:
        """Why a unit arriving by air may not land in ``h``."""
        return None

    def on_enter(
        self, scenario: Scenario, board: Board, state: State, uid: str, h: Hex, dice: Dice,
        events: list[Event],
    ) -> bool:
        """Called in resolution (with the dice) each time a unit enters a hex during movement.
        Returns True when the terrain changed (a bridge was demolished [12.11])."""
        return False

    def rolls_on_walk(
        self, scenario: Scenario, state: State, side: str, board: Board, events: Sequence[Event]
    ) -> bool:
        """Whether walking a player-turn's moves again with the dice (:attr:`rolls_in_movement`)
        could differ from their walk without: whether :meth:`on_enter` would roll, record or change
        anything as ``side``'s units enter the hexes of ``events`` (the :class:`MovedEvent` s of the
        walk without dice, ``board`` the position after it). When it would not, the resolution
        keeps that walk instead of walking again. True by default (always walk again)."""
        return True

    def attack_across(
        self, scenario: Scenario, board: Board, uid: str, a: Hex, b: Hex
    ) -> CrtLine | None:
        """The CRT line when ``uid`` in ``a`` may attack into ``b`` across a hexside that normally
        forbids it (Arnhem: an airborne unit stacked with the engineer, on the Stream line
        [13.24]); ``None``: the standard rules apply."""
        return None

    def may_stack(self, scenario: Scenario, board: Board, uids: list[str]) -> bool:
        """Whether these friendly units may end the Movement Phase in one hex (the standard rules:
        never [5.31]; Arnhem: an airborne unit with the engineer [13.24])."""
        return False

    def max_artillery(self, scenario: Scenario) -> int | None:
        """At most this many artillery units in one combat, barrage or FPF (Arnhem [14.12])."""
        return None

    def crossing_relief(
        self, scenario: Scenario, board: Board, uid: str, a: Hex, b: Hex, moves: list[MoveOrder]
    ) -> int:
        """Half Movement Points taken off the cost of moving ``a`` -> ``b`` (Arnhem: the engineer
        lets airborne units cross a river for the hex's cost alone [13.22]); ``moves`` are the
        player-turn's orders (the engineer must not move [13.21])."""
        return 0

    def retreat_crossing(
        self, scenario: Scenario, board: Board, uid: str, a: Hex, b: Hex
    ) -> str | None:
        """The rule case when ``uid`` may not retreat from ``a`` into ``b`` and is eliminated
        instead (Arnhem [13.25]), else ``None``."""
        return None

    def may_advance(self, scenario: Scenario, board: Board, uid: str, a: Hex, b: Hex) -> bool:
        """Whether ``uid`` may advance after combat from ``a`` into ``b`` (Arnhem [13.25])."""
        return True

    def retreat_hexes(
        self, scenario: Scenario, board: Board, uid: str, hexes: int, result: str
    ) -> int:
        """How many hexes ``uid`` must retreat for ``result`` (e.g. the City reduction [11.1])."""
        return hexes

    def retreat_may_end(
        self, scenario: Scenario, board: Board, uid: str, done: int, total: int,
        path: Sequence[Hex] = (), called_for: int = 0,
    ) -> bool:
        """Whether ``uid``, retreating ``total`` hexes and now ``done`` hexes along ``path`` (its
        combat position first; ``board`` shows it where it is), may stop here; ``called_for``: the
        hexes the combat result called for before any reduction (0: ``total``) (Arnhem:
        retreating into a City hex [11.1])."""
        return False

    def fpf_support_allowed(
        self, scenario: Scenario, board: Board, side: str, defenders: Sequence[str]
    ) -> bool:
        """Whether ``side`` may add Ground Support Points as FPF to a combat against ``defenders``
        (Arnhem: within three hexes of an Allied non-airborne unit [14.11])."""
        return True

    def ground_support(self, scenario: Scenario, state: State, side: str) -> int | None:
        """Ground Support Points ``side`` has this game-turn; ``None``: the scenario's schedule."""
        return None

    def end_of_player_turn(
        self, scenario: Scenario, board: Board, state: State, events: list[Event], dice: Dice
    ) -> tuple[State, list[Event]]:
        """After a player-turn's combat, before the next player-turn: records, weather rolls,
        points. ``state`` is the position now; return it changed and any events to add."""
        return state, []

    def unit_notes(self, scenario: Scenario, state: State, board: Board) -> dict[str, list[str]]:
        """What the exclusive rules say of the units on the map now, by unit, for ``pbem units``
        (e.g. Arnhem: no line of communication, and which enemy units cut it [17.35]); worked out
        once for the whole board. None by default."""
        return {}

    def lost_if_left_off(self, scenario: Scenario, state: State, unit_id: str) -> str | None:
        """The rule case when a reinforcement still off the map at the end of this player-turn
        (``state``: at its start) is eliminated then (Arnhem's airborne units [15.33]), else
        ``None``: it waits [11.22]. The end of the player-turn and the preview both ask this."""
        return None

    def movement_violations(
        self, scenario: Scenario, board: Board, unit_id: str, path: list[Hex]
    ) -> list[RuleViolation]:
        """Extra restrictions on a move (e.g. the German exclusion zone [15.26.3]). ``path`` is every
        hex the unit occupies in order, its start hex first (for a reinforcement, the entry hex
        first); ``board`` is the position before the move."""
        return []

    def forced_entry_eliminates(
        self, scenario: Scenario, board: Board, unit_id: str, hex: Hex
    ) -> str | None:
        """The rule case (e.g. ``"15.26.3"``) if a unit forced into ``hex`` by a retreat or
        displacement is eliminated there, else ``None``."""
        return None

    forced_entry_by_hex: bool = False
    """True when :meth:`forced_entry_eliminates` depends on the scenario, the unit and the hex
    only, never on where units stand (Bastogne's exclusion zone [15.26.3]): a retreat may then
    ask it once per unit and hex (``retreat.py``)."""

    def score(self, scenario: Scenario, state: State) -> dict[str, int]:
        """Victory points per side (the base: zero for everyone)."""
        return {s: 0 for s in scenario.side_ids()}

    def outcome(self, scenario: Scenario, state: State) -> Outcome | None:
        """Checked after every player-turn. A result ends the game at once (e.g. [15.27]); ``None``
        lets it go on. After the last game-turn the engine calls it with ``state.finished`` set:
        then return the final result (the base compares :meth:`score`)."""
        if not state.finished:
            return None
        points = self.score(scenario, state)
        ranked = sorted(points.items(), key=lambda kv: (-kv[1], kv[0]))
        if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
            return Outcome(
                None, "draw: equal victory points", points, self.describe_victory(scenario, state)
            )
        winner = ranked[0][0] if ranked else None
        return Outcome(
            winner,
            f"{winner} wins on victory points" if winner else "draw",
            points,
            self.describe_victory(scenario, state),
        )

    def describe_victory(self, scenario: Scenario, state: State) -> list[str]:
        """Readable lines explaining the score."""
        return []


_M = TypeVar("_M", bound=Record)


def parse_special(scenario: Scenario, model: type[_M]) -> _M:
    """A scenario's ``special`` parameters validated by a game's ``model``: parsed once per
    scenario object and kept with it (:func:`~pbem.systems.westwall.memo.memo`). The ruleset does
    it when it loads a scenario (:meth:`~pbem.systems.westwall.rules.WestWallRules.load_scenario`),
    so later calls only return the typed model; a scenario made otherwise (tests) is parsed at its
    first call. Raises :class:`InputError` when they are malformed."""
    return memo(scenario, "special", model, lambda: _validated(scenario, model))


def _validated(scenario: Scenario, model: type[_M]) -> _M:
    try:
        return model.parse(scenario.special)
    except RecordError as exc:
        raise InputError(f"scenario {scenario.id}: bad 'special' data: {exc.line()}") from None


STANDARD = "standard"
"""``"game": "standard"``: the standard rules alone, no exclusive rules."""
BUNDLED_GAMES: Mapping[str, str] = MappingProxyType({
    "bastogne": "pbem.systems.westwall.bastogne:Bastogne",
    "arnhem": "pbem.systems.westwall.arnhem:Arnhem",
})
"""The exclusive rules pbem ships: ``game`` -> ``"module:Class"`` (imported when first asked for)."""
ENTRY_POINT_GROUP = "pbem.westwall.games"
"""Installed packages add exclusive rules under this entry-point group (``game = "module:Class"``,
a subclass of :class:`Exclusive`), as systems are added under ``pbem.systems``
(:func:`pbem.engine.ruleset.known_systems`). A bundled game's name is not theirs to take."""


def installed_games() -> dict[str, str]:
    """``game`` -> ``"module:Class"`` of the exclusive rules other installed packages declare
    (``importlib.metadata`` imported here: a game of the bundled rules never reads entry points)."""
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def known_games() -> list[str]:
    """Every ``game`` a WestWall scenario may name: the standard rules, the bundled exclusive
    rules and any an installed package declares."""
    return sorted({STANDARD, *BUNDLED_GAMES, *installed_games()})


def game_problem(game: Any) -> str | None:
    """Why ``game`` names no exclusive rules pbem knows (a scenario's ``game`` field), or ``None``:
    an unknown name was taken silently for the standard rules alone, so a misspelt
    ``"bastogn"`` started a game without Bastogne's victory rules [24]."""
    if not isinstance(game, str):
        return None  # the schema names it
    if game == STANDARD:
        return None
    try:
        get_exclusive(game)
    except LookupError:
        return f"game: unknown exclusive rules {game[:40]!r} (known: {', '.join(known_games())})"
    return None


def get_exclusive(game: str, readings: Readings = NEWEST) -> Exclusive:
    """The exclusive rules for ``game`` (the no-op :class:`Exclusive` for ``"standard"``), playing
    ``readings`` (the ruleset passes those of the game's rules version); ``LookupError`` for a
    name pbem does not know. The bundled games are looked up in :data:`BUNDLED_GAMES`; the
    installed entry points are read only for another name."""
    if game == STANDARD:
        return Exclusive(readings)
    target = BUNDLED_GAMES.get(game)
    if target is None:
        target = installed_games().get(game)
    if target is None:
        raise LookupError(game)
    module_name, _, cls_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    instance = cls(readings)
    if not isinstance(instance, Exclusive):
        raise TypeError(f"exclusive rules for {game!r} must subclass Exclusive")
    return instance
