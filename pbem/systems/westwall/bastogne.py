"""The Bastogne exclusive rules (WestWall Bastogne, cases 10.0-16.2) that are not generic engine data.

Reinforcements [11.0], exits [12.0], airborne units as infantry [13.0], the artillery limit [14.0],
ground support [15.26.4] and objective control by last passage are configured by scenario data and
carried out by the engine. This module adds, through the :class:`~pbem.systems.westwall.exclusive.Exclusive`
hook:

* the German exclusion zone of the Relief scenario [15.26.3]: no German unit may move into a hex
  within four hexes of either Bastogne hex, and one forced into such a hex is eliminated;
* the victory conditions of Spearhead [15.17] and of the Campaign Game [15.37] (points for exiting
  the listed German units off the western edge, and for Bastogne);
* the victory condition of the Relief [15.27]: an American road Line of Communication.

Every parameter (which units count, the Bastogne hexes, the LOC end hexes, the exclusion radius, the
exit deadline) comes from the scenario's ``special`` object, validated by :class:`BastogneSpecial`;
nothing here names a hex or a unit.
"""

from __future__ import annotations

from collections import deque
from functools import cached_property

from pbem.engine.ruleset import Outcome
from pbem.errors import RuleViolation
from pbem.maps.hexmap import Hex
from pbem.protocol.record import (
    Bool,
    Const,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    Record,
    RecordError,
    Str,
    Tagged,
    field,
)
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Citations, Exclusive, parse_special
from pbem.systems.westwall.model import EDGE, HEX, Scenario, State

# --------------------------------------------------------------------------------------------------
# Scenario parameters (``special``)
# --------------------------------------------------------------------------------------------------


class ExitVictory(Record):
    """Victory by exiting units and holding Bastogne [15.17] (with a deadline: [15.37])."""

    kind: str = field(Const("exit-and-bastogne"))
    rule: str = field(Str(), default="15.17")
    exit_side: str = field(Str(), description="The side that scores for exiting units")
    exit_units: list[str] = field(ListOf(Str()), description="The units that count [15.17]")
    exit_edge: str = field(EDGE, default="west")
    exit_vp: int = field(Int(ge=0), default=1, description="Points per listed unit exited off exit_edge")
    fail_vp: int = field(Int(ge=0), default=3,
                         description="Points to the other side per listed unit that fails")
    exit_by_turn: int | None = field(
        Maybe(Int()), default=None, description="Exits count only up to the end of this Game-Turn [15.37]"
    )
    control_vp: dict[str, int] = field(
        MapOf(Str(), Int()), default_factory=dict,
        description="side -> points if that side controls Bastogne",
    )
    neither_vp: dict[str, int] = field(
        MapOf(Str(), Int()), default_factory=dict,
        description="side -> points if neither side controls Bastogne",
    )


class LocVictory(Record):
    """Victory by a road Line of Communication at the end of a Game-Turn [15.27]."""

    kind: str = field(Const("line-of-communication"))
    rule: str = field(Str(), default="15.27")
    side: str = field(Str(), description="The side that wins with a Line of Communication")
    from_hexes: list[str] = field(ListOf(HEX))
    to_hexes: list[str] = field(ListOf(HEX))
    otherwise: str = field(Str(), description="The side that wins if no LOC by the end of the game")


class Exclusion(Record, slots=False):
    """Hexes a side may not enter [15.26.3]."""

    side: str = field(Str())
    of: list[str] = field(ListOf(HEX))
    within: int = field(Int(ge=0))
    rule: str = field(Str(), default="15.26.3")

    @cached_property
    def centres(self) -> tuple[Hex, ...]:
        """The hexes of ``of``, parsed once."""
        return tuple(Hex.parse(c) for c in self.of)


Victory = ExitVictory | LocVictory


class BastogneSpecial(Record):
    """The ``special`` object of a Bastogne scenario."""

    control_hexes: list[str] = field(
        ListOf(HEX), default_factory=list,
        description="Bastogne: the engine records last passage here [15.17]",
    )
    initial_control: dict[str, str] = field(
        MapOf(HEX, Str()), default_factory=dict,
        description="Who holds each control hex before anyone has moved",
    )
    victory: Victory | None = field(Maybe(Tagged("kind", ExitVictory, LocVictory)), default=None)
    exclusion: Exclusion | None = field(Maybe(Nested(Exclusion)), default=None)
    ground_support_one_phase: bool = field(
        Bool(), default=False,
        description="Support points usable in one combat phase of a game-turn only [15.26.4] "
        "(read by the combat rules)",
    )


def special_of(scenario: Scenario) -> BastogneSpecial:
    """The typed ``special`` parameters of ``scenario``, parsed when the ruleset loaded it and kept
    with it (:func:`parse_special`)."""
    return parse_special(scenario, BastogneSpecial)


def special_problems(scenario: Scenario) -> list[str]:
    """Consistency problems of a scenario's ``special`` data (for ``pbem scenario check``): unknown
    sides and units, hexes off the map."""
    try:
        sp = BastogneSpecial.parse(scenario.special)
    except RecordError as exc:
        return [f"special.{'.'.join(str(p) for p in loc)}: {msg}" for loc, msg in exc.problems]
    sides = set(scenario.side_ids())
    out: list[str] = []

    def hexes(where: str, items: list[str]) -> None:
        for h in items:
            if not scenario.map.on_map(Hex.parse(h)):
                out.append(f"{where}: hex {h} is off the map")

    def side(where: str, s: str) -> None:
        if s not in sides:
            out.append(f"{where}: unknown side {s!r}")

    hexes("special.control_hexes", sp.control_hexes)
    hexes("special.initial_control", list(sp.initial_control))
    for s in sp.initial_control.values():
        side("special.initial_control", s)
    v = sp.victory
    if isinstance(v, ExitVictory):
        side("special.victory.exit_side", v.exit_side)
        for s in list(v.control_vp) + list(v.neither_vp):
            side("special.victory", s)
        for uid in v.exit_units:
            if uid not in scenario.unit:
                out.append(f"special.victory.exit_units: unknown unit id {uid!r}")
            elif scenario.unit[uid].side != v.exit_side:
                out.append(f"special.victory.exit_units: {uid} is not a {v.exit_side} unit")
        if not sp.control_hexes and (v.control_vp or v.neither_vp):
            out.append("special.victory: points for Bastogne but no special.control_hexes")
    elif isinstance(v, LocVictory):
        side("special.victory.side", v.side)
        side("special.victory.otherwise", v.otherwise)
        hexes("special.victory.from_hexes", v.from_hexes)
        hexes("special.victory.to_hexes", v.to_hexes)
    if sp.exclusion is not None:
        side("special.exclusion.side", sp.exclusion.side)
        hexes("special.exclusion.of", sp.exclusion.of)
    return out


# --------------------------------------------------------------------------------------------------
# Bastogne control [15.17]
# --------------------------------------------------------------------------------------------------


def hex_holder(scenario: Scenario, state: State, h: str) -> str | None:
    """Who holds one control hex [15.17]: the side whose units occupy it or were the last to pass
    through it (``state.control``), else who held it before anyone moved (``initial_control``)."""
    return state.control.get(h) or special_of(scenario).initial_control.get(h)


def controller(scenario: Scenario, state: State) -> str | None:
    """The side controlling Bastogne: the one whose units occupy, or were the last to pass through,
    *every* control hex [15.17]; ``None`` if the hexes are split or never entered. The engine
    records passage in ``state.control``; a hex nobody has entered keeps ``initial_control``.
    Zones of control play no part [15.17]."""
    sp = special_of(scenario)
    if not sp.control_hexes:
        return None
    holders = {hex_holder(scenario, state, h) for h in sp.control_hexes}
    if len(holders) == 1:
        (only,) = holders
        return only
    return None


# --------------------------------------------------------------------------------------------------
# Line of Communication [15.27]
# --------------------------------------------------------------------------------------------------


def line_of_communication(
    scenario: Scenario,
    state: State,
    *,
    side: str | None = None,
    from_hexes: list[str] | None = None,
    to_hexes: list[str] | None = None,
) -> list[str] | None:
    """A shortest Line of Communication for ``side`` (default: the scenario's [15.27] side), as hex
    numbers from a start hex to an end hex, or ``None`` if there is none.

    A Line of Communication is a chain of road hexes, each joined to the next by a road hexside (a
    destroyed bridge cuts it), none of them occupied by an enemy unit or in an enemy zone of control
    [15.27, 6.0, 6.33]. Ties between equally short lines are broken by hex order, so the answer is
    deterministic."""
    sp = special_of(scenario)
    v = sp.victory
    if side is None or from_hexes is None or to_hexes is None:
        if not isinstance(v, LocVictory):
            raise ValueError(f"scenario {scenario.id} has no Line of Communication condition")
        side = side if side is not None else v.side
        from_hexes = from_hexes if from_hexes is not None else v.from_hexes
        to_hexes = to_hexes if to_hexes is not None else v.to_hexes
    board = Board.from_state(scenario, state)
    roads = board.geo.road_hexes

    def open_hex(h: Hex) -> bool:
        return (
            h in roads
            and board.on_map(h)
            and board.enemy_at(h, side) is None
            and not board.enemy_zoc(h, side)
        )

    goals = {Hex.parse(h) for h in to_hexes}
    starts = sorted(Hex.parse(h) for h in from_hexes)
    came: dict[Hex, Hex | None] = {}
    queue: deque[Hex] = deque()
    for s in starts:
        if s not in came and open_hex(s):
            came[s] = None
            queue.append(s)
    while queue:
        h = queue.popleft()
        if h in goals:
            path: list[str] = []
            cur: Hex | None = h
            while cur is not None:
                path.append(str(cur))
                cur = came[cur]
            return path[::-1]
        for n in sorted(board.neighbours(h)):
            if n not in came and board.route_between(h, n) == "road" and open_hex(n):
                came[n] = h
                queue.append(n)
    return None


# --------------------------------------------------------------------------------------------------
# The hook
# --------------------------------------------------------------------------------------------------


def _at_game_turn_end(scenario: Scenario, state: State) -> bool:
    """Whether ``state`` is the position at the end of a Game-Turn. The engine asks
    :meth:`Bastogne.outcome` with the state just after a player-turn has been resolved (the phasing
    side is still the one that played): a Game-Turn ends when the Second Player's turn does [4.1],
    and at the end of the game."""
    if state.finished or state.phase == "over":
        return True
    return state.phase == "player-turn" and state.phasing != scenario.first_player


def _within_exclusion(ex: Exclusion | None, side: str, h: Hex) -> Exclusion | None:
    """``ex`` when ``h`` lies in it for a unit of ``side`` [15.26.3], else ``None``."""
    if ex is None or ex.side != side:
        return None
    within = ex.within
    for c in ex.centres:
        if h.distance(c) <= within:
            return ex
    return None


class Bastogne(Exclusive):
    """WestWall Bastogne exclusive rules [15.17, 15.26.3, 15.27, 15.37]."""

    game = "bastogne"
    special_model = BastogneSpecial
    citations = Citations(
        # "Units may only exit the map during the German Player's Movement Phase."
        who_may_exit="12.12",
    )
    """Where the engine acts for Bastogne it cites Bastogne's cases: the defaults of
    :class:`Citations` are its [11.0-12.12] (the scenario's edge and schedule cases [15.14-15.37]
    are named in the messages); a standard game cites [12.0] for who may exit, as its scenario
    decides who does."""

    def special_problems(self, scenario: Scenario) -> list[str]:
        return special_problems(scenario)

    # -- exclusion zone [15.26.3] -------------------------------------------------------------
    def _zone(self, scenario: Scenario) -> Exclusion | None:
        """The scenario's exclusion zone, looked up once for the scenario last met (asked for
        every hex a retreat or displacement considers)."""
        met = self._zone_of
        if met is None or met[0] is not scenario:
            met = self._zone_of = (scenario, special_of(scenario).exclusion)
        return met[1]

    _zone_of: tuple[Scenario, Exclusion | None] | None = None

    def _excluded(self, scenario: Scenario, side: str, h: Hex) -> Exclusion | None:
        return _within_exclusion(self._zone(scenario), side, h)

    def movement_violations(
        self, scenario: Scenario, board: Board, unit_id: str, path: list[Hex]
    ) -> list[RuleViolation]:
        """A German unit may not move into any hex within four hexes of a Bastogne hex [15.26.3].
        The start hex is checked only for a reinforcement (its first hex is its entry hex)."""
        side = scenario.unit[unit_id].side
        entering = board.status(unit_id) == "waiting"
        entered = path if entering else path[1:]
        if not entered:
            return []
        zone = self._zone(scenario)
        if zone is None or zone.side != side:
            return []  # the zone binds one side only
        for h in entered:
            ex = _within_exclusion(zone, side, h)
            if ex is not None:
                names = " or ".join(ex.of)
                return [
                    RuleViolation(
                        ex.rule,
                        f"{unit_id} cannot enter {h}: it is within {ex.within} hexes of {names}",
                        unit_id,
                        str(h),
                    )
                ]
        return []

    forced_entry_by_hex = True  # the zone is fixed [15.26.3]: only the unit's side and the hex

    def forced_entry_eliminates(
        self, scenario: Scenario, board: Board, unit_id: str, hex: Hex
    ) -> str | None:
        """A German unit retreated or displaced into the exclusion zone is eliminated [15.26.3]."""
        ex = self._excluded(scenario, scenario.unit[unit_id].side, hex)
        return ex.rule if ex is not None else None

    # -- victory ------------------------------------------------------------------------------
    def _exits(self, scenario: Scenario, state: State, v: ExitVictory) -> tuple[list[str], list[str]]:
        """The listed units that count as exited [15.17, 15.37], and those that failed."""
        done: list[str] = []
        failed: list[str] = []
        for uid in v.exit_units:
            us = state.units.get(uid)
            ok = (
                us is not None
                and us.status == "exited"
                and us.exit_edge == v.exit_edge
                and (v.exit_by_turn is None or (us.exit_turn or 0) <= v.exit_by_turn)
            )
            (done if ok else failed).append(uid)
        return done, failed

    def _exit_points(
        self, scenario: Scenario, state: State, v: ExitVictory
    ) -> tuple[dict[str, int], list[str]]:
        points = {s: 0 for s in scenario.side_ids()}
        lines: list[str] = []
        other = scenario.other(v.exit_side)
        done, failed = self._exits(scenario, state, v)
        deadline = f" by the end of Game-Turn {v.exit_by_turn}" if v.exit_by_turn else ""
        points[v.exit_side] += v.exit_vp * len(done)
        lines.append(
            f"{v.exit_side}: {len(done)} listed unit(s) exited off the {v.exit_edge} edge{deadline}"
            f" x {v.exit_vp} = {v.exit_vp * len(done)}"
            + (f" ({', '.join(done)})" if done else "")
            + f" [{v.rule}]"
        )
        points[other] += v.fail_vp * len(failed)
        lines.append(
            f"{other}: {len(failed)} listed unit(s) not exited{deadline} x {v.fail_vp} = "
            f"{v.fail_vp * len(failed)} [{v.rule}]"
        )
        holder = controller(scenario, state)
        if holder is not None:
            vp = v.control_vp.get(holder, 0)
            points[holder] = points.get(holder, 0) + vp
            lines.append(f"{holder}: controls Bastogne = {vp} [{v.rule}]")
        else:
            lines.append(f"nobody controls Bastogne [{v.rule}]")
            for s, vp in sorted(v.neither_vp.items()):
                points[s] = points.get(s, 0) + vp
                lines.append(f"{s}: neither side controls Bastogne = {vp} [{v.rule}]")
        return points, lines

    def score(self, scenario: Scenario, state: State) -> dict[str, int]:
        """Victory points as they would stand if the game ended now [15.17, 15.37]: listed units
        not (yet) exited count as failures. The Line of Communication game [15.27] has no points."""
        v = special_of(scenario).victory
        if isinstance(v, ExitVictory):
            return self._exit_points(scenario, state, v)[0]
        return {s: 0 for s in scenario.side_ids()}

    def describe_victory(self, scenario: Scenario, state: State) -> list[str]:
        v = special_of(scenario).victory
        if isinstance(v, ExitVictory):
            return self._exit_points(scenario, state, v)[1]
        if isinstance(v, LocVictory):
            loc = line_of_communication(scenario, state)
            ends = f"{' or '.join(v.from_hexes)} to {' or '.join(v.to_hexes)}"
            if loc is None:
                return [f"{v.side}: no Line of Communication from {ends} [{v.rule}]"]
            return [f"{v.side}: Line of Communication open: {'-'.join(loc)} [{v.rule}]"]
        return []

    def outcome(self, scenario: Scenario, state: State) -> Outcome | None:
        """The result, or ``None`` while the game goes on.

        * [15.17]/[15.37]: decided after the last Game-Turn. The text gives both sides points but
          does not say how they decide the game; we compare them: more points wins, equal points is
          a draw.
        * [15.27]: the LOC side wins as soon as a Line of Communication exists at the end of a
          Game-Turn (the game stops there); if none exists when the last Game-Turn ends, the other
          side wins.
        """
        v = special_of(scenario).victory
        if isinstance(v, LocVictory):
            if not _at_game_turn_end(scenario, state):
                return None
            loc = line_of_communication(scenario, state)
            lines = self.describe_victory(scenario, state)
            points = {s: 0 for s in scenario.side_ids()}
            if loc is not None:
                turn = min(state.game_turn, scenario.last_turn)
                return Outcome(
                    v.side,
                    f"{v.side} wins: Line of Communication {loc[0]}-{loc[-1]} open at the end of "
                    f"Game-Turn {turn} [{v.rule}]",
                    points,
                    lines,
                )
            if state.finished:
                return Outcome(
                    v.otherwise,
                    f"{v.otherwise} wins: no {v.side} Line of Communication by the end of "
                    f"Game-Turn {scenario.last_turn} [{v.rule}]",
                    points,
                    lines,
                )
            return None
        return super().outcome(scenario, state)
