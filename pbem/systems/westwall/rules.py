"""The WestWall rules system behind :class:`pbem.engine.ruleset.Ruleset` (system ``"westwall"``).

The sequence of play [3.0, 4.0] as decisions:

1. **Set-up**: each side listed in ``state.setup_pending`` (sides with a deployment, in the order the
   scenario lists them) places its units: a non-random ``"setup"`` decision answered by
   :class:`~pbem.systems.westwall.model.SetupOrders`, checked against the deployment areas (the scenario's
   rule case, e.g. [15.12]) and stacking [5.31].
2. **Player-turns**: from ``first_turn`` to ``last_turn``, the first player then the other [4.1]. A
   whole player-turn -- Movement Phase then Combat Phase -- is one ``"player-turn"`` decision
   (:class:`~pbem.systems.westwall.model.PlayerTurnOrders`): moves, attacks in the order they are to be
   resolved, and standing orders for the opponent's next player-turn (kept in ``state.standing``).
   Ground support spent is forgotten at each new game-turn [9.14].
3. **End**: after the last player-turn, or as soon as the exclusive rules declare a result after a
   player-turn (e.g. [15.27]), the game is over: the other side sends a non-random ``"acknowledge"``
   whose reveal keys the dice of the final player-turn (protocol.md). Then nothing is pending.

States, orders and events cross the boundary as JSON (``to_json()``). Combat checks
and resolution are in :mod:`pbem.systems.westwall.combat`; movement in :mod:`pbem.systems.westwall.movement`.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from typing import Any

from pbem.engine.presenter import Presenter
from pbem.engine.ruleset import JSON, Checked, Decision, Dice, Outcome, Resolution, Ruleset
from pbem.errors import IllegalOrders, InputError, RuleViolation
from pbem.maps.hexmap import Hex
from pbem.protocol.record import RecordError
from pbem.systems.westwall import scenario_check
from pbem.systems.westwall.attacks import validate_attacks
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.combat import (
    ExpectedCombat,
    combat_state_changes,
    odds_before_dice,
    resolve_combat,
)
from pbem.systems.westwall.exclusive import Exclusive, get_exclusive, parse_special
from pbem.systems.westwall.memo import memo
from pbem.systems.westwall.model import (
    ORDERS,
    AcknowledgeOrders,
    Area,
    Event,
    MoveOrder,
    NoteEvent,
    PlacedEvent,
    PlayerTurnOrders,
    Scenario,
    SetupOrders,
    StandingOrders,
    State,
    UnitDef,
    UnitState,
)
from pbem.systems.westwall.movement import (
    MovePlan,
    cheapest_path,
    describe_areas,
    in_any_area,
    no_path_reason,
    validate_moves,
    walk_moves,
)
from pbem.systems.westwall.readings import Readings


def _errors_line(exc: RecordError, what: str) -> str:
    return f"{what}: " + exc.line(limit=len(exc.problems))


def parse_orders(orders: JSON) -> SetupOrders | PlayerTurnOrders | AcknowledgeOrders:
    """Orders JSON -> model (models pass through); :class:`InputError` (one line, every field
    problem) if malformed."""
    if isinstance(orders, SetupOrders | PlayerTurnOrders | AcknowledgeOrders):
        return orders
    try:
        parsed: SetupOrders | PlayerTurnOrders | AcknowledgeOrders = ORDERS(orders, ())
        return parsed
    except RecordError as exc:
        raise InputError(_errors_line(exc, "malformed orders")) from None


def parse_state(state: JSON) -> State:
    """State JSON -> model (a :class:`State` passes through)."""
    if isinstance(state, State):
        return state
    try:
        return State.parse(state)
    except RecordError as exc:
        raise InputError(_errors_line(exc, "malformed state")) from None


def _walked(
    scenario: Scenario, st: State, o: PlayerTurnOrders, exclusive: Exclusive
) -> tuple[Board, MovePlan]:
    """A fresh board with ``o.moves`` walked on it, and the walk's :class:`MovePlan`."""
    board = Board.from_state(scenario, st)
    plan = walk_moves(board, o.side, st.game_turn, o.moves, exclusive, state=st)
    return board, plan


def _on_map_not_entry(uid: str, at: str | None, form: str, dest: str, case: str, *,
                      first: str | None = None) -> str:
    """The words for an entry ordered for a unit already on the map (``form``: the 'enter ... at
    HEX to HEX' or the 'enter ... via HEX...' form; ``first``: the path's first hex when it is
    not next to the unit): what is wrong, the entry's case and what to write."""
    if first is not None:  # 'move ... via' or 'enter ... via': the same order once read [5.0]
        return (f"{uid} is on the map already (in {at}), and {first}, where its path begins, is not next "
                f"to it: a move's path goes hex by hex from the unit [5.0], and 'enter ... {form} HEX' is "
                f"for a reinforcement off the map [{case}]; write 'move {uid} to {dest}'")
    return (f"{uid} is on the map already (in {at}): 'enter ... {form} HEX' is for a "
            f"reinforcement off the map [{case}]; write 'move {uid} to {dest}'")


def side_name(scenario: Scenario, side: str) -> str:
    for s in scenario.sides:
        if s.id == side:
            return s.adjective or s.name
    return side


def _dump(events: list[Event]) -> list[JSON]:
    return [e.to_json() for e in events]


Orders_ = SetupOrders | PlayerTurnOrders | AcknowledgeOrders


class _Walked:
    """The board after walking a player-turn's moves: made by ``check``, handed explicitly to
    ``resolve`` (:class:`pbem.engine.ruleset.Checked`), used only for the very state and orders it
    was made from, and copied before use so that it is never changed."""

    __slots__ = ("state", "orders", "board", "plan")

    def __init__(self, state: State, orders: PlayerTurnOrders, board: Board, plan: MovePlan) -> None:
        self.state, self.orders, self.board, self.plan = state, orders, board, plan

    def fits(self, state: State, orders: PlayerTurnOrders) -> bool:
        return state is self.state and orders is self.orders


class WestWallRules(Ruleset[Scenario, State, Orders_]):
    """SPI WestWall standard rules (1.0-9.14) with a game's exclusive rules plugged in.

    States are :class:`State` and orders the :data:`Orders` models; for convenience (tests, the
    bot) every method also accepts their JSON form."""

    system = "westwall"
    version = "4"
    """4: [7.82] a unit is displaced more than once in a Combat Phase only when no complete
    retreat avoids it: a retreat that displaces a unit again (one it displaced already, or one
    displaced earlier in the phase) comes after every one that does not, before the owner's
    preferences, and a unit pushed out of the retreating unit's way steps aside rather than into
    its next hex when that spares a second displacement or lets the retreat be completed
    (readings flag ``displace_once``; the Bastogne trial's retreat that pushed one U.S. unit
    ahead of it three times). Bastogne and Arnhem alike. And [12.12, 12.15] a standing order sparing
    a bridge is refused unless it is the German player's, in Arnhem, naming a printed canal or rail
    bridge by its hexside (readings flag ``spare_checked``; only the text reader checked it, and
    a JSON order sparing anything else was signed and did nothing).

    3: the SPI Arnhem corrections of issue 26, one :class:`~pbem.systems.westwall.readings.Readings`
    flag each (westwall/2 keeps the earlier result of each):

    * [11.1] a unit entering a City hex has the rest of its retreat cut by two with three or more
      hexes left too, never below the result's minimum (D3 one hex, D4 two);
    * [11.1] a unit starting in a City hex goes the full retreat when its owner's retreat
      preference asks for it ("at the Owning Player's option");
    * [12.11, 12.13] a bridge is tried as a retreating, displaced or advancing unit reaches it and
      the rest is judged against the result, so no unit ends across a river whose bridge it blew
      [13.25];
    * [13.1] the engineer repairs only when free of enemy zones of control through the whole
      German player-turn;
    * [13.21] the engineer may move up to the river and then help the units that move after it;
    * [14.11] Allied support used as FPF needs an Allied non-airborne unit within three hexes;
    * [17.4] the victory ratio is compared exactly (2.995 is not "3.0 or more").

    2: [14.0] counts adjacent artillery against the limit and exempts combats with no ground
    attacker (westwall/1 counted only artillery added to a combat)."""
    plays = ("3", "2")
    """westwall/3 and westwall/2 are still played, results exactly as they were (tests/compat's
    games, the bundled examples before westwall/4, the archives of 0.2.0): the version-3 and
    version-4 corrections are gated on :meth:`since` through :attr:`readings`."""
    earlier = {
        "1": "pbem development builds from commit 1c7f7eb to the one before ab49ce4 (no release)",
    }

    @property
    def readings(self) -> Readings:
        """The readings of the version this instance plays, handed down to the exclusive rules.
        Kept on the instance with the version they were made for (a copy made by ``at_version``
        carries the original's over, and then makes its own)."""
        kept: tuple[str, Readings] | None = self.__dict__.get("_readings")
        if kept is None or kept[0] != self.version:
            kept = self.__dict__["_readings"] = (self.version, Readings.of(self.since))
        return kept[1]

    def _exclusive(self, scenario: Scenario) -> Exclusive:
        """The scenario's exclusive rules playing this version's readings."""
        return get_exclusive(scenario.game, self.readings)

    def presenter(self) -> Presenter[Scenario, State]:
        from pbem.systems.westwall.presenter import WestWallPresenter

        return WestWallPresenter(self)

    # -- scenario ---------------------------------------------------------------------------------
    def load_scenario(self, data: JSON) -> Scenario:
        """Validate merged scenario data. Every problem goes into ONE :class:`InputError`, one per
        line, each with its field path (:func:`scenario_check.scenario_problems`, the checks of
        ``pbem scenario check``)."""
        if isinstance(data, Scenario):
            return data
        problems, scenario = scenario_check.checked_scenario(data)
        if problems or scenario is None:
            raise InputError("invalid scenario:\n" + "\n".join(problems))
        model = self._exclusive(scenario).special_model
        if model is not None:  # typed once, kept with the scenario (checked sound just above)
            parse_special(scenario, model)
        return scenario

    def load_checked_scenario(self, data: JSON) -> Scenario:
        """A bundled scenario pbem's tests check in full (:func:`pbem.engine.scenarios.is_checked`):
        built without the checks of :meth:`load_scenario` (tests/engine/test_scenarios_checked.py
        holds the two equal), its exclusive-rule parameters typed as there."""
        if isinstance(data, Scenario):
            return data
        scenario = Scenario.built(data)
        model = self._exclusive(scenario).special_model
        if model is not None:
            parse_special(scenario, model)
        return scenario

    def uses_secret_notes(self, scenario: Scenario) -> bool:
        return self._exclusive(scenario).uses_secret_notes(scenario)

    def conceal(
        self, scenario: Scenario, state: JSON, side: str, orders: JSON, secret: bytes | None
    ) -> Orders_:
        o = parse_orders(orders)
        if isinstance(o, SetupOrders | PlayerTurnOrders):
            return self._exclusive(scenario).conceal(scenario, parse_state(state), o, secret)
        return o

    def own_notes(self, scenario: Scenario, state: JSON, side: str, secret: bytes) -> State:
        return self._exclusive(scenario).own_notes(scenario, parse_state(state), side, secret)

    def scenario_problems(self, data: JSON) -> list[str]:
        return scenario_check.scenario_problems(data)

    def orders_schema(self) -> JSON:
        defs: dict[str, JSON] = {}
        out: dict[str, JSON] = ORDERS.schema(defs)
        return {**out, "$defs": defs}

    def scenario_summary(self, scenario: Scenario) -> str:
        return scenario_check.scenario_summary(scenario)

    def sides(self, scenario: Scenario) -> list[str]:
        return scenario.side_ids()

    def load_state(self, scenario: Scenario, data: JSON) -> State:
        return parse_state(data)

    def dump_state(self, scenario: Scenario, state: State) -> JSON:
        """``state.to_json()``. A replay dumps one state after another, most units unchanged (the
        same :class:`UnitState` objects: frozen, scalar fields): the JSON of each unit of the
        previous dump is kept with the scenario, by the unit object, and copied for the units
        still there instead of being made again."""
        st = parse_state(state)
        units = st.units
        kept: list[dict[int, tuple[UnitState, dict[str, Any]]]] = memo(
            scenario, "unit-json", None, lambda: [{}])
        before = kept[0]
        now: dict[int, tuple[UnitState, dict[str, Any]]] = {}
        dumped: dict[str, Any] = {}
        for uid, u in units.items():
            if type(u) is not UnitState:
                return st.to_json()
            hit = before.get(id(u))
            if hit is None or hit[0] is not u:
                hit = (u, u.to_json())
            now[id(u)] = hit
            dumped[uid] = dict(hit[1])
        kept[0] = now
        out = st.replace(units={}).to_json()
        out["units"] = dumped
        return out

    def load_orders(self, scenario: Scenario, data: JSON) -> Orders_:
        return parse_orders(data)

    def dump_orders(self, scenario: Scenario, orders: Orders_) -> JSON:
        return parse_orders(orders).to_json(omit_none=True)

    def initial_state(self, scenario: Scenario, options: JSON) -> State:
        """Every unit waiting; sides with a deployment must set up first [3.0]."""
        pending: list[str] = []
        for d in scenario.deployments:
            if d.side not in pending:
                pending.append(d.side)
        waiting = UnitState()
        state = State(
            scenario=scenario.id,
            game_turn=scenario.first_turn,
            phasing=pending[0] if pending else scenario.first_player,
            phase="setup" if pending else "player-turn",
            setup_pending=pending,
            units={u.id: waiting for u in scenario.units},
        )
        return self._exclusive(scenario).prepare_state(scenario, state)

    # -- decisions --------------------------------------------------------------------------------
    def pending(self, scenario: Scenario, state: JSON) -> list[Decision]:
        st = parse_state(state)
        if st.phase == "setup" and st.setup_pending:
            side = st.setup_pending[0]
            label = self._exclusive(scenario).setup_label(scenario, st, side)
            return [
                Decision(
                    side, "setup", label or f"Set-up: {side_name(scenario, side)} deployment",
                    random=False,
                )
            ]
        if st.phase == "player-turn":
            return [
                Decision(
                    st.phasing,
                    "player-turn",
                    f"Game-Turn {st.game_turn}, {side_name(scenario, st.phasing)} player-turn",
                    random=True,
                    # the opponent moves next [4.1] (or acknowledges the end): its reveal keys the dice
                    revealer=scenario.other(st.phasing),
                )
            ]
        if st.phase == "over" and not st.finished:
            return [
                Decision(
                    st.phasing,
                    "acknowledge",
                    f"{side_name(scenario, st.phasing)} acknowledges the end of the game",
                    random=False,
                )
            ]
        return []

    def skeleton(self, scenario: Scenario, state: JSON, side: str) -> JSON:
        st = parse_state(state)
        pend = self.pending(scenario, st)
        if not pend or pend[0].side != side:
            raise InputError(f"no decision of {side} is pending")
        kind = pend[0].kind
        if kind == "setup":
            return SetupOrders(
                side=side, placements=default_placements(scenario, st, side)
            ).to_json()
        if kind == "player-turn":
            standing = st.standing.get(side) or StandingOrders()
            return PlayerTurnOrders(
                side=side, game_turn=st.game_turn, standing=standing
            ).to_json(omit_none=True)
        return AcknowledgeOrders(side=side).to_json()

    def normalize(self, scenario: Scenario, state: JSON, side: str, orders: JSON) -> Orders_:
        """Expand every move given with ``to`` (and no path) into the cheapest legal path."""
        st = parse_state(state)
        o = parse_orders(orders)
        if isinstance(o, PlayerTurnOrders):
            board: Board | None = None  # built only when a move needs a path
            moves: list[MoveOrder] = []
            for m in o.moves:
                if m.unit not in scenario.unit:
                    raise InputError(f"unknown unit {m.unit!r} in the moves")
                if m.to is not None and not m.path:
                    if board is None:
                        board = Board.from_state(scenario, st)
                    target = Hex.parse(m.to)
                    path = cheapest_path(board, m.unit, target, st.game_turn, self._exclusive(scenario))
                    if path is None:
                        why = no_path_reason(board, m.unit, target, st.game_turn, self._exclusive(scenario))
                        raise InputError(f"move of {m.unit}: no legal path to {target} this movement phase: {why}")
                    m = m.replace(path=[str(h) for h in path], to=None)
                elif m.to is not None and len(m.path) == 1 and m.path[0] != m.to \
                        and (m.unit not in st.units or st.units[m.unit].status == "waiting"):
                    # a reinforcement's entry hex and its destination: the cheapest path between [11.11]
                    if board is None:
                        board = Board.from_state(scenario, st)
                    entry, target = Hex.parse(m.path[0]), Hex.parse(m.to)
                    excl = self._exclusive(scenario)
                    path = cheapest_path(board, m.unit, target, st.game_turn, excl, entry=entry)
                    if path is None:  # the real reason: the entry hex, or the destination [27]
                        why = no_path_reason(board, m.unit, target, st.game_turn, excl, entry=entry)
                        raise InputError(f"entry of {m.unit}: no legal path from {entry} to {target} "
                                         f"this movement phase: {why}")
                    m = m.replace(path=[str(h) for h in path], to=None)
                elif m.to is not None:
                    if len(m.path) == 1 and m.path[0] != m.to and m.unit in st.units \
                            and st.units[m.unit].status == "on-map":
                        # 'enter UNIT at HEX to HEX' for a unit on the map: it read "'to' is not the end
                        # of its path", naming neither the reason nor the case
                        raise InputError(_on_map_not_entry(m.unit, st.units[m.unit].hex, "at", m.to,
                                                           self._exclusive(scenario).citations.entry))
                    if not m.path or m.path[-1] != m.to:
                        raise InputError(
                            f"move of {m.unit}: 'to' {m.to} is not the end of its path"
                        )
                    m = m.replace(to=None)
                elif m.path and not m.exit and m.unit in st.units \
                        and st.units[m.unit].status == "on-map":
                    at = st.units[m.unit].hex
                    first = Hex.parse(m.path[0])
                    if at is not None and first != Hex.parse(at) and not first.is_adjacent(Hex.parse(at)):
                        # 'enter UNIT via HEX HEX...' for a unit on the map read as a move from its hex,
                        # refused by the first hex's problem ("cannot leave 1315 [5.14]"); a path that
                        # starts away from the unit is refused whatever the verb [5.0]
                        raise InputError(_on_map_not_entry(
                            m.unit, at, "via", m.path[-1], self._exclusive(scenario).citations.entry,
                            first=m.path[0]))
                moves.append(m)
            o = o.replace(moves=moves)
        return o

    # -- checking ---------------------------------------------------------------------------------
    def validate(
        self, scenario: Scenario, state: JSON, side: str, orders: JSON
    ) -> list[RuleViolation]:
        return self.check(scenario, state, side, orders).violations

    def check(self, scenario: Scenario, state: JSON, side: str, orders: JSON) -> Checked:
        """The violations; for player-turn orders also the board after the movement phase, which
        :meth:`resolve` then starts from instead of walking the moves again."""
        st = parse_state(state)
        o = parse_orders(orders)
        pend = self.pending(scenario, st)
        if not pend:
            return Checked([RuleViolation("4.0", "the game is over: no orders are expected")])
        d = pend[0]
        if o.side != side:
            return Checked([RuleViolation("4.1", f"these orders are for {o.side}, not {side}")])
        if d.side != side:
            return Checked([
                RuleViolation(
                    "5.11", f"it is not {side}'s turn: the game waits for {d.side} ({d.label})"
                )
            ])
        if o.kind != d.kind:
            return Checked([RuleViolation("4.1", f"expected {d.kind} orders ({d.label}), got {o.kind}")])
        if isinstance(o, SetupOrders):
            return Checked(
                setup_violations(scenario, st, o)
                + self._exclusive(scenario).setup_violations(scenario, st, o)
            )
        if isinstance(o, PlayerTurnOrders):
            return self._check_turn(scenario, st, o)
        return Checked([])

    def _check_turn(self, scenario: Scenario, st: State, o: PlayerTurnOrders) -> Checked:
        if o.game_turn != st.game_turn:
            return Checked([
                RuleViolation(
                    "4.1",
                    f"these orders are for Game-Turn {o.game_turn}, but it is Game-Turn {st.game_turn}",
                )
            ])
        exclusive = self._exclusive(scenario)
        started = exclusive.turn_start(scenario, st, o)  # ignores what turn_violations refuses
        board, plan = _walked(scenario, started, o, exclusive)
        if type(exclusive).turn_violations is Exclusive.turn_violations:
            out: list[RuleViolation] = []  # the base checks nothing: no board to build for it
        else:
            # The walk above is the exclusive rules' own position after the moves when it starts
            # from the same state (no drop zone revealed [Arnhem 15.39]): lent for the checks.
            exclusive.walked = (st, o, board) if started is st else None
            try:
                out = exclusive.turn_violations(scenario, Board.from_state(scenario, st), st, o)
            finally:
                exclusive.walked = None
        st = started
        # The attack checks only read the board, and resolve works on a copy of it.
        walked = _Walked(st, o, board, plan)
        out += plan.violations
        out += standing_violations(scenario, o.side, o.standing)
        if o.standing.spare_bridges and self.readings.spare_checked:
            from pbem.systems.westwall.arnhem import spare_violations

            out += spare_violations(scenario, o.side, o.standing.spare_bridges)
        out += validate_attacks(board, scenario, board.to_state(st), o)
        return Checked(out, walked if not out else None)

    def expected_combats(self, scenario: Scenario, state: JSON, orders: JSON) -> list[ExpectedCombat]:
        """Each attack of legal player-turn orders as the combat phase will start: strengths, FPF,
        CRT line and column (:func:`pbem.systems.westwall.combat.odds_before_dice`), on the
        position the moves leave when no die changes it (a bridge blown mid-move would)."""
        st, o = parse_state(state), parse_orders(orders)
        if not isinstance(o, PlayerTurnOrders) or not o.attacks:
            return []
        exclusive = self._exclusive(scenario)
        st = exclusive.turn_start(scenario, st, o)
        board, _plan = _walked(scenario, st, o, exclusive)
        return odds_before_dice(board, scenario, board.to_state(st), o, exclusive)

    # -- resolving --------------------------------------------------------------------------------
    def resolve(
        self, scenario: Scenario, state: JSON, side: str, orders: JSON, dice: Dice,
        checked: Checked | None = None,
    ) -> Resolution:
        # Orders reach here only after ``validate`` returned nothing (the engine checks every move,
        # archived or new, before resolving it), so they are not checked a second time: that
        # doubled the cost of ``pbem verify``. A caller that skips ``validate`` gets undefined
        # results, as the Ruleset contract says.
        st = parse_state(state)
        o = parse_orders(orders)
        if o.side != side:
            raise IllegalOrders([RuleViolation("4.1", f"these orders are for {o.side}, not {side}")])
        if isinstance(o, SetupOrders):
            new, events = self._resolve_setup(scenario, st, o)
        elif isinstance(o, PlayerTurnOrders):
            prepared = checked.prepared if checked is not None else None
            walked = prepared if isinstance(prepared, _Walked) and prepared.fits(st, o) else None
            new, events = self._resolve_turn(scenario, st, o, dice, walked)
        else:
            new = st.replace(finished=True, phase="over")
            result = self.outcome(scenario, new)
            text = result.summary if result else "game over"
            events = [NoteEvent(rule="4.0", text=f"{side} acknowledges: {text}")]
        return Resolution(new, _dump(events))

    def _resolve_setup(
        self, scenario: Scenario, st: State, o: SetupOrders
    ) -> tuple[State, list[Event]]:
        board = Board.from_state(scenario, st)
        events: list[Event] = []
        for uid, h in sorted(o.placements.items()):
            board.move_unit(uid, Hex.parse(h))
            events.append(PlacedEvent(unit=uid, hex=h))
        rest = list(st.setup_pending)
        if o.side in rest:
            rest.remove(o.side)  # its first turn to set up (Arnhem has the Allied player twice)
        standing = dict(st.standing)
        standing[o.side] = o.standing
        changes: dict[str, object] = {
            "setup_pending": rest,
            "standing": dict(sorted(standing.items())),
        }
        if not rest:
            changes.update(
                phase="player-turn", phasing=scenario.first_player, game_turn=scenario.first_turn
            )
        else:
            changes.update(phasing=rest[0])
        new = self._exclusive(scenario).after_setup(scenario, board.to_state(st, **changes), o)
        return new, events

    def _resolve_turn(
        self, scenario: Scenario, st: State, o: PlayerTurnOrders, dice: Dice,
        walked: _Walked | None,
    ) -> tuple[State, list[Event]]:
        exclusive = self._exclusive(scenario)
        st = exclusive.turn_start(scenario, st, o)
        if exclusive.rolls_in_movement and (walked is None or exclusive.rolls_on_walk(
                scenario, st, o.side, walked.board, walked.plan.events)):
            # A die may be rolled in the middle of a move [Arnhem 12.11]: walk again, rolling.
            board = Board.from_state(scenario, st)
            plan = walk_moves(board, o.side, st.game_turn, o.moves, exclusive, dice=dice, state=st)
        elif walked is not None:
            board, plan = walked.board.copy(), walked.plan
        else:
            board, plan = _walked(scenario, st, o, exclusive)
        events: list[Event] = list(plan.events)
        after_moves = board.to_state(st)
        fought = list(resolve_combat(board, scenario, after_moves, o, dice, exclusive))
        events += fought
        changes: dict[str, object] = dict(combat_state_changes(scenario, after_moves, o, fought))
        standing = dict(st.standing)
        standing[o.side] = o.standing
        changes["standing"] = dict(sorted(standing.items()))
        new = board.to_state(st, **changes)
        new, more = exclusive.end_of_player_turn(scenario, board, new, events, dice)
        events += more
        return self._advance(scenario, new, exclusive, events)

    def _advance(
        self, scenario: Scenario, st: State, exclusive: Exclusive, events: list[Event]
    ) -> tuple[State, list[Event]]:
        """Next player-turn [4.1]; a new game-turn clears ground support spent [9.14]; the game ends
        after the last player-turn or when the exclusive rules declare a result."""
        other = scenario.other(st.phasing)
        if st.phasing == scenario.first_player:
            nxt = st.replace(phasing=other)
        else:
            nxt = st.replace(
                phasing=scenario.first_player,
                game_turn=st.game_turn + 1,
                ground_support_used={},
                ground_support_phase={},
            )
        early = exclusive.outcome(scenario, st)
        if early is not None or nxt.game_turn > scenario.last_turn:
            over = st.replace(phase="over", phasing=other)
            result = self.outcome(scenario, over)
            why = (
                "the last player-turn has been played [4.0]"
                if early is None
                else "victory condition met"
            )
            summary = result.summary if result else ""
            events.append(NoteEvent(rule="4.0", text=f"Game over: {why}. {summary}".strip()))
            return over, events
        return nxt, events

    # -- results ----------------------------------------------------------------------------------
    def score(self, scenario: Scenario, state: JSON) -> dict[str, int]:
        return self._exclusive(scenario).score(scenario, parse_state(state))

    def outcome(self, scenario: Scenario, state: JSON) -> Outcome | None:
        """The result once the game is over (phase ``over``): the exclusive rules' verdict, asked
        with ``finished`` set; if they give none, the side with more victory points wins."""
        st = parse_state(state)
        if st.phase != "over":
            return None
        final = st.replace(finished=True)
        exclusive = self._exclusive(scenario)
        result = exclusive.outcome(scenario, final)
        if result is None:
            result = Exclusive.outcome(exclusive, scenario, final)
        return result

    def describe(self, scenario: Scenario, state: JSON) -> str:
        st = parse_state(state)
        if st.phase == "setup" and st.setup_pending:
            return f"Set-up: {side_name(scenario, st.setup_pending[0])} player deploys"
        if st.phase == "player-turn":
            return (
                f"Game-Turn {st.game_turn} of {scenario.last_turn}, "
                f"{side_name(scenario, st.phasing)} player-turn"
            )
        result = self.outcome(scenario, st)
        tail = f": {result.summary}" if result else ""
        if not st.finished:
            return f"Game over{tail} (awaiting {side_name(scenario, st.phasing)} acknowledgement)"
        return f"Game over{tail}"

    def describe_event(self, scenario: Scenario, event: JSON) -> str:
        """One readable line for an event (``pbem log``)."""
        t = event.get("type") if isinstance(event, dict) else None
        if t == "moved":
            how = " (entering the map)" if event.get("entered") else ""
            how += " and leaves the map" if event.get("exited") else ""
            from pbem.systems.westwall.movement import fmt_mp

            return f"{event['unit']} moves {'-'.join(event['path'])}{how}, {fmt_mp(event['mp_halves'])} MP"
        if t == "placed":
            return f"{event['unit']} set up in {event['hex']}"
        if t == "roll":
            die = f"die {event['die']}: " if event.get("die") is not None else ""
            who = f" ({event['unit']} entering {event['hex']})" if event.get("unit") else ""
            return f"{event['subject']}{who}: {die}{event['outcome']} [{event['rule']}]"
        if t == "note":
            rule = f" [{event['rule']}]" if event.get("rule") else ""
            return f"{event['text']}{rule}"
        if t == "combat":
            if event.get("cancelled"):
                return f"combat {event['number']} cancelled: {event['cancelled']}"
            return (
                f"combat {event['number']}: {'+'.join(event['attackers'] + event['artillery'])} vs "
                f"{'+'.join(event['defenders'])}: {event['attack_strength']}-{event['defense_strength']} = "
                f"{event['differential']:+d} on the {event['line']} line, column {event['column']}, "
                f"die {event['die']}: {event['result']}"
            )
        if t in ("retreat", "displaced", "advance"):
            return f"{event['unit']} {t} {'-'.join(event['path'])}"
        if t == "eliminated":
            return (
                f"{event['unit']} eliminated: {event.get('reason', '')} [{event.get('rule', '')}]"
            )
        return str(event)


# --------------------------------------------------------------------------------------------------
# Scenario and set-up checks
# --------------------------------------------------------------------------------------------------


def default_placements(scenario: Scenario, st: State, side: str,
                       fixed: Mapping[str, str] | None = None) -> dict[str, str]:
    """pbem's proposed set-up for ``side`` (skeletons, the orders template, ``--defaults``; never a
    rules result): the sparring bot's (seed 0: the strongest units on the best defensive terrain
    nearest what the side must hold or block, artillery just behind), when it is legal [5.12,
    5.31] and every unit it places has room to move (below); else :func:`first_free_placements`.
    ``fixed``: the placements a player wrote (``--defaults``), kept, the rest placed around them."""
    from pbem.systems.westwall.bot import proposed_setup

    fixed = dict(fixed or {})
    board = Board.from_state(scenario, st)
    need = sum(len(d.units) for d in scenario.deployments if d.side == side)
    proposal = proposed_setup(scenario, st, side, fixed)
    if proposal is not None and not setup_violations(scenario, st, SetupOrders(side=side, placements=proposal)) \
            and all(_room_to_move(board, scenario.unit[uid], Hex.parse(h), need)
                    for uid, h in proposal.items() if uid not in fixed):
        return proposal
    return first_free_placements(scenario, st, side, fixed)


def first_free_placements(scenario: Scenario, st: State, side: str,
                          fixed: Mapping[str, str] | None = None) -> dict[str, str]:
    """A legal set-up for ``side`` found without judgement (``fixed`` kept, their hexes taken): each
    unit in the first free hex of its area, in hex order, from which it has room to move -- on
    the terrain alone it reaches, in one Movement Phase, at least as many other hexes as the side
    sets up units, so that its own side can never fill every way out (friendly units are passed
    through [5.31]) and an armored unit is not proposed where rough or broken terrain all round
    holds it for the whole game [5.24] -- else, when its area has no such hex free, the first free
    hex of it."""
    board = Board.from_state(scenario, st)
    out: dict[str, str] = {}
    out.update(fixed or {})
    taken = {h for _uid, h in board.positions()} | {Hex.parse(where) for where in out.values()}
    hexes = scenario.map.all_hexes()
    mine = [d for d in scenario.deployments if d.side == side]
    need = sum(len(d.units) for d in mine)
    for d in mine:
        for uid in d.units:
            if uid in out:
                continue
            unit = scenario.unit[uid]
            first: Hex | None = None
            roomy: Hex | None = None
            for h in hexes:
                if h in taken or board.geo.terrain[h].prohibited or not in_any_area(scenario, d.area, h):
                    continue
                first = h if first is None else first
                if _room_to_move(board, unit, h, need):
                    roomy = h
                    break
            pick = roomy if roomy is not None else first
            if pick is not None:
                taken.add(pick)
                out[uid] = str(pick)
    return out


def _room_to_move(board: Board, unit: UnitDef, start: Hex, need: int) -> bool:
    """Whether ``unit`` at ``start`` reaches at least ``need`` other hexes in one Movement Phase,
    on the terrain and hexsides alone [5.2] (no unit, no zone of control)."""
    cost = {start: 0}
    heap = [(0, start)]
    seen = 0
    while heap:
        c, h = heapq.heappop(heap)
        if c > cost.get(h, c):
            continue
        if h != start:
            seen += 1
            if seen >= need:
                return True
        for n in board.neighbours(h):
            step, _why = board.enter_check(unit, h, n)
            if step is None or c + step > unit.move_halves or c + step >= cost.get(n, c + step + 1):
                continue
            cost[n] = c + step
            heapq.heappush(heap, (c + step, n))
    return False


def setup_violations(scenario: Scenario, st: State, o: SetupOrders) -> list[RuleViolation]:
    """Set-up checks: every unit of the side's deployments placed once, in its area (the scenario's
    rule case), on open terrain, not on an enemy unit [5.12], no two in one hex [5.31]."""
    out: list[RuleViolation] = []
    board = Board.from_state(scenario, st)
    where: dict[str, tuple[list[Area], str]] = {}
    for d in scenario.deployments:
        if d.side == o.side:
            for uid in d.units:
                where[uid] = (d.area, d.rule)
    for uid in o.placements:
        if uid not in scenario.unit:
            raise InputError(f"unknown unit {uid!r} in the set-up")
    for uid in sorted(set(where) - set(o.placements)):
        out.append(RuleViolation(where[uid][1], f"{uid} must be set up", uid))
    used: dict[Hex, str] = {}
    for uid, hs in sorted(o.placements.items()):
        if uid not in where:
            out.append(
                RuleViolation(
                    "3.0", f"{uid} is not part of the {o.side} initial deployment", uid, hs
                )
            )
            continue
        h = Hex.parse(hs)
        areas, rule = where[uid]
        if not board.on_map(h):
            out.append(
                RuleViolation(rule, f"{uid} cannot set up in {h}: it is off the map", uid, hs)
            )
            continue
        if not in_any_area(scenario, areas, h):
            out.append(
                RuleViolation(
                    rule,
                    f"{uid} cannot set up in {h}: outside its area ({describe_areas(areas)})",
                    uid,
                    hs,
                )
            )
        if board.geo.terrain[h].prohibited:
            out.append(
                RuleViolation("5.21", f"{uid} cannot set up in {h}: closed to all units", uid, hs)
            )
        enemy = board.enemy_at(h, o.side)
        if enemy is not None:
            out.append(
                RuleViolation(
                    "5.12", f"{uid} cannot set up in {h}: enemy unit {enemy} is there", uid, hs
                )
            )
        if h in used or (board.occupant(h) is not None and enemy is None):
            other = used.get(h) or board.occupant(h)
            out.append(
                RuleViolation("5.31", f"{uid} and {other} cannot both set up in {h}", uid, hs)
            )
        used.setdefault(h, uid)
    return out


def standing_violations(
    scenario: Scenario, side: str, standing: StandingOrders
) -> list[RuleViolation]:
    """Standing orders must name the side's own units: FPF by its artillery [8.4], retreat
    preferences and displacement wishes for its units [7.7, 7.8]."""
    out: list[RuleViolation] = []
    ids = (
        [f.artillery for f in standing.fpf]
        + list(standing.retreat)
        + list(standing.avoid_displacing)
        + [p.unit for p in standing.pursue]
    )
    ids += [p.follow for p in standing.pursue if p.follow is not None]
    for uid in ids:
        if uid not in scenario.unit:
            raise InputError(f"unknown unit {uid!r} in the standing orders")
    for f in standing.fpf:
        u = scenario.unit[f.artillery]
        if u.side != side or not u.is_artillery:
            out.append(
                RuleViolation(
                    "8.4",
                    f"{f.artillery} cannot be given FPF orders: not one of your artillery units",
                    f.artillery,
                )
            )
    for uid in list(standing.retreat) + list(standing.avoid_displacing):
        if scenario.unit[uid].side != side:
            out.append(
                RuleViolation("7.7", f"{uid} is not one of your units (standing orders)", uid)
            )
    for p in standing.pursue:
        u = scenario.unit[p.unit]
        if u.side != side:
            out.append(
                RuleViolation(
                    "7.94",
                    f"{p.unit} cannot be ordered to advance after combat: not one of your units",
                    p.unit,
                )
            )
    return out


__all__ = ["WestWallRules", "parse_orders", "parse_state", "setup_violations", "validate_moves"]
