"""The megagame as a ruleset (seed 004): teams send sealed written orders, Game Control rules where
the rules ask for judgement before any die is known, the engine adjudicates every number, and each
team sees only what its commanders would know, in words.

The ruleset is the adapter between the engine and the megagame's modules: the order of a turn and
its phases are :mod:`pbem.systems.megagame.round` (with :mod:`~pbem.systems.megagame.air` and
:mod:`~pbem.systems.megagame.battle`) on the working board of :mod:`pbem.systems.megagame.board`;
a team's sheet is checked by :mod:`pbem.systems.megagame.checks`, its view written by
:mod:`pbem.systems.megagame.view` and the log's words by :mod:`pbem.systems.megagame.words`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pbem.engine.ruleset import (
    JSON,
    Capabilities,
    Checked,
    Decision,
    Dice,
    Outcome,
    Resolution,
    Ruleset,
)
from pbem.errors import InputError, RuleViolation
from pbem.maps.hexmap import Hex
from pbem.protocol.record import RecordError, json_schema
from pbem.systems.megagame.board import AnyState, nation_of, team_side, turn_label
from pbem.systems.megagame.checks import normalize, validate
from pbem.systems.megagame.model import (
    MegaRulings,
    MegaScenario,
    MegaState,
    TeamView,
    UnitDef,
    UnitState,
)
from pbem.systems.megagame.orders import OrderSheet
from pbem.systems.megagame.round import is_transport, resolve_round
from pbem.systems.megagame.setup import team_copy
from pbem.systems.megagame.view import team_view

if TYPE_CHECKING:
    from pbem.engine.presenter import Presenter

NO_DROP = ("woods", "town", "city")
"""Map terrain no airborne unit may drop into [12a]: "woods or built up areas"."""


def _stack_problems(sc: MegaScenario, by_id: dict[str, UnitDef]) -> list[str]:
    """Rules version 3's supplies per HQ stack and nation [11]: a unit's HQ is an HQ of its nation,
    and an HQ starts with no more than its lift."""
    out: list[str] = []
    sides = {t.id: t.side for t in sc.teams}
    for u in sc.units:
        t = sc.types.get(u.type)
        hq = by_id.get(u.hq) if u.hq is not None else None
        if hq is not None and hq.id != u.id and u.team in sides and hq.team == u.team:
            if sc.types.get(hq.type) is not None and sc.types[hq.type].kind != "hq":
                out.append(f"unit {u.id}: {hq.id} is not an HQ: it holds no supplies to draw on [11]")
            elif nation_of(hq, sides[u.team]) != nation_of(u, sides[u.team]):
                out.append(f"unit {u.id}: its HQ {hq.id} holds {nation_of(hq, sides[u.team])} supplies, the unit "
                           f"uses {nation_of(u, sides[u.team])} [11]")
        if t is not None and t.kind == "hq" and t.lift is not None and u.stock > t.lift:
            out.append(f"unit {u.id}: {u.stock} supply points, more than the {t.lift} its HQ can carry [11]")
    return out


class MegagameRules(Ruleset[MegaScenario, AnyState, OrderSheet]):
    """Wallman's operational megagame (module docstring)."""

    system = "megagame"
    version = "3"
    """3: a team's report states the losses each of its units took this turn and what they did to
    its effectiveness, in words; a unit pinned down passing a bombed point hears of its losses; a
    unit stopped before its first kilometre hears that it stayed, not that it "moved 0 km" [10].
    The ground rules, as the text has them (docs/megagame.md): infantry and paratroops move on the
    horse-drawn row, 15 / 25 / 30 km [6]; a bridge tested that did not blow is safe once an Allied
    unit has passed over it [8]; attackers badly beaten go back to their start line, at least 1 km
    [9]; a unit that retires goes straight back from the attackers [9 note 1]; the -2 for moving
    non-tactically only for units that moved so [9]; a support unit ([..]) counts only beside a unit
    of at least its status [9 Unit Status]; a unit below status 1 retreats if it can and is
    captured only if it cannot [9 Supplies]; no counter-attack the turn after a Total Success [9];
    only artillery allocated to a defence ('defend HEX') counts in it [9 Supporting Artillery].
    And issue 25's air, supply and report readings (docs/megagame.md): heavy bombers given a target
    bomb it on the interdiction table's Heavy Squadrons column [9]; no bombing within 2 km of
    friendly troops, the bomb line [12c]; a day drop's scattered men back after one clear turn, the
    next day [12]; polder poor terrain for air resupply, airstrips +2 and +5 with an AFDAG [12a]; no
    drop zone in woods or built-up areas (a scenario problem) [12a]; flak a bombing damages or
    immobilises suppressed for the turn [13, 12c]; a failed recce reads "no report" whatever is
    below [12d]; air recce flies over an air zone (15 km round its target) after the movement, so
    that moving columns are seen moving, and infantry standing in the open can be seen [12d];
    artillery that moved gives support reduced by the share of the turn it spent moving, and none
    to an attack that went in before it stopped; combined arms only in prepared attacks; artillery
    fires on the interdiction table ('interdict HEX') [9]; a report names the tanks, artillery and
    air power that acted on the unit, and counts the supply lost to the enemy's success as used
    [10 ELETIS]. Supplies held per HQ stack, up to the HQ's lift, and by nation, a unit drawing on
    its own HQ's within 5 km [11]; infantry off a train in half a turn [6]; attaching to another
    division takes the turn [9 timings].
    2: fighter squadrons lost in air combat are lost for good; drops by night [12]; the further
    attack after an overrun [9]; a moving dump leaves its supplies parked for the transport units
    [11]."""
    plays = ("2",)
    earlier = {
        "1": "pbem development builds from commit 2377d44 to the one before ab6965f (no release)",
    }
    capabilities: ClassVar[Capabilities] = Capabilities(decisions="simultaneous", information="hidden",
                                                        umpire=True)

    # -- scenario and boundary -----------------------------------------------------------------
    def scenario_problems(self, data: JSON) -> list[str]:
        try:
            sc = MegaScenario.parse(data)
        except RecordError as exc:
            return [f"megagame scenario: {exc.line()}"]
        return self._problems(sc)

    def _problems(self, sc: MegaScenario) -> list[str]:
        """What :meth:`scenario_problems` finds in a scenario that validates."""
        out: list[str] = []
        teams = [t.id for t in sc.teams]
        if len(set(teams)) != len(teams):
            out.append("megagame scenario: team ids must be unique [2]")
        if sc.umpire in teams:
            out.append(f"megagame scenario: Game Control ({sc.umpire}) is not a team [2]")
        if {t.side for t in sc.teams} != {"allied", "german"}:
            out.append("megagame scenario: both sides need at least one team [2]")
        on_map = sc.map.on_map  # the map's bounds: no Geo built for this check (issue 28)
        seen: set[str] = set()
        for u in sc.units:
            if u.id in seen:
                out.append(f"unit {u.id}: listed twice")
            seen.add(u.id)
            if u.team not in teams:
                out.append(f"unit {u.id}: no team {u.team!r}")
            if u.type not in sc.types:
                out.append(f"unit {u.id}: no unit type {u.type!r} (Annex A)")
            if not on_map(Hex.parse(u.hex)):
                out.append(f"unit {u.id}: hex {u.hex} is off the map")
            if u.arrives > sc.turns:
                out.append(f"unit {u.id}: arrives on turn {u.arrives}, after the last turn ({sc.turns})")
        for u in sc.units:
            if sc.types.get(u.type) is not None and sc.types[u.type].dump and u.lift <= 0:
                out.append(f"unit {u.id}: a dump delivers up to its lift a turn; give it one [11]")
        by_id = {u.id: u for u in sc.units}
        for u in sc.units:
            if u.hq is not None and (u.hq not in by_id or by_id[u.hq].team != u.team):
                out.append(f"unit {u.id}: its HQ {u.hq!r} is not a unit of team {u.team} [11]")
        if self.since("3"):
            out += _stack_problems(sc, by_id)
        for name, t in sc.types.items():
            levels = t.combat_profile().levels
            if list(levels) != sorted(levels, reverse=True) or levels[-1] != 0:
                out.append(f"unit type {name}: a status profile falls step by step to 0 [9], not {t.profile}")
            if t.kind == "artillery" and t.artillery is None:
                out.append(f"unit type {name}: artillery needs its kind (field, medium, rocket, infantry-gun) [9]")
        drops = [u for u in sc.units if u.by_air]
        if drops and self.since("3"):  # "Drops may not be made into woods or built up areas" [12a]
            listed = [(kind, set(hexes)) for kind, hexes in sc.map.terrain.items()]
            for u in drops:  # the hex's terrain as Geo reads it: the last kind listing it, else the default
                kind = next((k for k, hexes in reversed(listed) if u.hex in hexes), sc.map.default_terrain)
                if kind in NO_DROP:
                    out.append(f"unit {u.id}: its drop zone {u.hex} is {kind}; drops may not be made into woods or "
                               "built up areas [12a]")
        for h in sc.airstrips:
            if not (h.isdigit() and len(h) == 4 and on_map(Hex.parse(h))):
                out.append(f"airstrip {h[:20]!r}: not a hex of the map [12a]")
        for o in sc.objectives:
            if not on_map(Hex.parse(o.hex)):
                out.append(f"objective {o.name}: hex {o.hex} is off the map")
        chokes = [c.hex for c in sc.chokes]
        for c in sc.chokes:
            if not on_map(Hex.parse(c.hex)):
                out.append(f"choke point {c.name}: hex {c.hex} is off the map [7]")
            if chokes.count(c.hex) > 1:
                out.append(f"choke point {c.name}: hex {c.hex} is given twice [7]")
        for team in (*sc.supply, *sc.supply_per_turn, *(a.team for a in sc.supply_arrivals)):
            if team not in teams:
                out.append(f"supply: no team {team!r} [11]")
        for a in sc.supply_arrivals:
            if a.turn > sc.turns:
                out.append(f"supply: {a.what} arrives on turn {a.turn}, after the last turn [11]")
        return out

    def load_scenario(self, data: JSON) -> MegaScenario:
        try:
            sc = MegaScenario.parse(data)
        except RecordError as exc:
            raise InputError(f"megagame scenario: {exc.line()}") from None
        problems = self._problems(sc)
        if problems:
            raise InputError("; ".join(problems))
        return sc

    def scenario_summary(self, scenario: MegaScenario) -> str:
        teams = ", ".join(f"{t.id} ({t.name})" for t in scenario.teams)
        return (f"{scenario.id}: {len(scenario.units)} units, {scenario.turns} half-day turns from "
                f"{turn_label(scenario, 1)}; teams {teams}; Game Control {scenario.umpire}")

    def scenario_copy(self, scenario: MegaScenario, data: JSON, side: str) -> JSON | None:
        """The set-up is secret [2, 10]: a team holds only its side's forces and the enemy it sees
        at the start (:mod:`pbem.systems.megagame.setup`); Game Control the whole scenario."""
        if side == scenario.umpire or scenario.copy_for:
            return None
        return team_copy(scenario, data, side)

    def sides(self, scenario: MegaScenario) -> list[str]:
        return [t.id for t in scenario.teams] + [scenario.umpire]

    def umpire(self, scenario: MegaScenario) -> str | None:
        return scenario.umpire

    SEALED_BASE = 2048
    SEALED_PER_UNIT = 192
    """A sheet's sealed size [5, 29]: room for an order line of its own for every unit the team will
    ever command (a route of a dozen hexes and an air request each), a power of two; Game Control's
    rulings get the same for every unit of the game. The same size every turn, so that a sheet's
    length tells neither its lines nor that the team's forces grew."""

    def sealed_size(self, scenario: MegaScenario, side: str) -> int:
        # imported here: it loads cryptography's HPKE (70-100 ms measured), which the rules need
        # for this alone
        from pbem.protocol.seal import padded_length

        n = sum(1 for u in scenario.units if u.team == side or side == scenario.umpire)
        return padded_length(self.SEALED_BASE + self.SEALED_PER_UNIT * n)

    def orders_schema(self) -> JSON:
        schema: dict[str, Any] = json_schema(OrderSheet)
        return schema

    def rulings_schema(self) -> JSON:
        schema: dict[str, Any] = json_schema(MegaRulings)
        schema["description"] = ("Game Control's rulings for a turn [9]: groupings replace the engine's "
                                 "proposed attackers against a hex; advantage adds points a unit")
        return schema

    def load_rulings(self, scenario: MegaScenario, state: AnyState, data: JSON) -> JSON:
        try:
            rulings = MegaRulings.parse(data or {})
        except RecordError as exc:
            raise InputError(f"megagame rulings: {exc.line()} [9]") from None
        known = {u.id for u in scenario.units}
        for g in rulings.groupings:
            unknown = [a for a in g.attackers if a not in known]
            if unknown:
                raise InputError(f"megagame rulings: no unit {unknown[0]!r} to group at {g.at} [9]")
        out: dict[str, Any] = rulings.to_json()
        return out

    def load_state(self, scenario: MegaScenario, data: JSON) -> AnyState:
        try:
            if isinstance(data, dict) and "team" in data:
                return TeamView.parse(data)
            return MegaState.parse(data)
        except RecordError as exc:
            raise InputError(f"megagame state: {exc.line()}") from None

    _dumped: tuple[AnyState, JSON] | None = None
    """The state this ruleset dumped last and its dump (:meth:`dump_state`)."""

    def dump_state(self, scenario: MegaScenario, state: AnyState) -> JSON:
        """``state``'s JSON (:meth:`MegaState.dump`). The same state object -- states are frozen
        records, never changed once made -- gives the same JSON object again, which callers only
        read: a sealed round's commitments, acknowledgements, ruling and reveals carry the state
        of the turn before them through five or more turn files, and dumping it anew for each was
        ~60 of ~900 million instructions of verifying megagame-acked (issue 28). One state is
        kept, on this ruleset (a game's own), keyed by identity while it holds it."""
        last = self._dumped
        if last is not None and last[0] is state:
            return last[1]
        out = state.dump() if type(state) is MegaState else state.to_json()
        self._dumped = (state, out)
        return out

    def load_orders(self, scenario: MegaScenario, data: JSON) -> OrderSheet:
        try:
            return OrderSheet.parse(data)
        except RecordError as exc:
            raise InputError(f"megagame order sheet: {exc.line()} [5]") from None

    def dump_orders(self, scenario: MegaScenario, orders: OrderSheet) -> JSON:
        return orders.to_json()

    # -- the game -----------------------------------------------------------------------------
    def initial_state(self, scenario: MegaScenario, options: JSON) -> MegaState:
        if options not in ({}, None):
            raise InputError("the megagame takes no options (the number of teams is the scenario's)")
        # rules version 3: a supply transport unit's stock is its load [11b] (an HQ's is its stack [11])
        loads = {u.id: u.stock for u in scenario.units if u.stock and self.since("3")
                 and is_transport(scenario.types[u.type])}
        units = {u.id: UnitState(hex=u.hex if u.arrives <= 1 else None, stock=0 if u.id in loads else u.stock)
                 for u in scenario.units}
        supply = {t.id: scenario.supply.get(t.id, 0) for t in scenario.teams}
        control = {o.hex: o.held_by for o in scenario.objectives}
        return MegaState(turn=1, units=units, supply=supply, control=control, loads=loads)

    def pending(self, scenario: MegaScenario, state: AnyState) -> list[Decision]:
        if state.over:
            return []
        label = turn_label(scenario, state.turn)
        return [Decision(t.id, "sealed-orders", f"Turn {state.turn}, {label}: {t.name}'s orders [5]",
                         sealed=True) for t in scenario.teams]

    def skeleton(self, scenario: MegaScenario, state: AnyState, side: str) -> JSON:
        if state.over:
            raise InputError("the game is over: there is nothing to order")
        if side not in {t.id for t in scenario.teams}:
            raise InputError(f"{side} is not a team of this game (Game Control rules, it sends no orders)")
        return {"team": side, "side": team_side(scenario, side), "turn": state.turn, "lines": [],
                "air_orders": []}

    def normalize(self, scenario: MegaScenario, state: AnyState, side: str, orders: OrderSheet) -> OrderSheet:
        """Routes filled in towards each objective (:func:`pbem.systems.megagame.checks.normalize`)."""
        return normalize(scenario, state, side, orders, rules3=self.since("3"))

    def validate(self, scenario: MegaScenario, state: AnyState, side: str,
                 orders: OrderSheet) -> list[RuleViolation]:
        return validate(scenario, state, side, orders, rules3=self.since("3"))

    def resolve(self, scenario: MegaScenario, state: AnyState, side: str, orders: OrderSheet,
                dice: Dice, checked: Checked | None = None) -> Resolution:
        raise InputError("megagame orders are sealed: Game Control resolves them together [5]")

    def resolve_round(self, scenario: MegaScenario, state: AnyState, orders: dict[str, OrderSheet],
                      dice: Dice, checked: dict[str, Checked], rulings: JSON = None) -> Resolution:
        return resolve_round(scenario, state, orders, dice, rulings, tell_losses=self.since("3"),
                             rules3=self.since("3"))

    def score(self, scenario: MegaScenario, state: AnyState) -> dict[str, int]:
        return {}

    def points(self, scenario: MegaScenario, state: MegaState) -> dict[str, int]:
        """Objective points each side holds (the scenario's victory conditions)."""
        out = {"allied": 0, "german": 0}
        for o in scenario.objectives:
            out[state.control.get(o.hex, o.held_by)] += o.points
        return out

    def outcome(self, scenario: MegaScenario, state: AnyState) -> Outcome | None:
        if not state.over or not isinstance(state, MegaState):
            return None
        pts = self.points(scenario, state)
        held = [f"{o.name} ({o.hex}, {o.points} points): {state.control.get(o.hex, o.held_by)}"
                for o in scenario.objectives]
        if pts["allied"] == pts["german"]:
            return Outcome(None, f"draw: {pts['allied']} objective points each", pts, held)
        winner = max(pts, key=lambda s: pts[s])
        return Outcome(winner, f"the {winner} side wins on objectives held, {pts[winner]} to "
                               f"{min(pts.values())}", pts, held)

    # -- what people see ------------------------------------------------------------------------
    def view(self, scenario: MegaScenario, state: JSON, side: str | None) -> JSON:
        """What a team knows [10]: its own units (effectiveness in words, never a status number),
        the other teams of its side where they are, the enemy in sight of its side (how many
        battalions, tanks named), its units' reports, its supply points. Game Control (``None`` or
        the umpire) sees the master state; after the game the umpire's publication gives it to
        everyone (``pbem publish``), so the last report need not carry it to each team."""
        if side is None or side == scenario.umpire:
            return state
        st = MegaState.parse(state)
        return team_view(scenario, st, side, rules3=self.since("3"))

    def describe(self, scenario: MegaScenario, state: AnyState) -> str:
        if state.over:
            return "game over"
        return f"turn {state.turn} of {scenario.turns}: {turn_label(scenario, state.turn)}"

    def describe_event(self, scenario: MegaScenario, event: JSON) -> str:
        # imported here: the log's words are read by `pbem log` and the drafts, never by a replay
        from pbem.systems.megagame.words import describe_event

        words = describe_event(event)
        return words if words is not None else super().describe_event(scenario, event)

    def presenter(self) -> Presenter[MegaScenario, AnyState]:
        # imported here: the rules never import their presentation (pbem.engine.presenter)
        from pbem.systems.megagame.presenter import MegagamePresenter

        return MegagamePresenter(self)
