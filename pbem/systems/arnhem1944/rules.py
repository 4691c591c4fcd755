"""The rules of Vae Victis *Arnhem 1944* (seed 003) as a pbem ruleset: system id ``arnhem1944``.

A game-turn [2.1]: weather [14], airborne reinforcements [15.2], supply and command [9, 10],
initiative (the Allies on turn 1, the Germans on ties), operations (alternating activations [3]),
administration. One activation, or one pass, is one move file. Rolls belong to the resolution of
the activation before them (the initiative, weather and turn-end dice of a turn's end; combat,
bombardment and demolition dice inside an activation), so they are keyed by the other side's next
reveal; whenever the rules would give the next decision to the side that just rolled, the other
side first owes a non-random pass (``docs/architecture.md``, "Alternating activations").

Decisions taken after a roll in one's own activation are written in advance (every action's
``if``, an attack's ``hold``/``hold_if``/``lose`` for its split and ``towards`` for its retreat;
see :mod:`pbem.systems.arnhem1944.orders`); the defender's are its standing orders
(:class:`~pbem.systems.arnhem1944.state.Standing`: ``defence``/``hold``/``lose``/``keep`` for
the split [7.5], ``retreat`` for the path [7.6], ``fire`` [8.2]). Documented defaults: the least
step losses a result allows, the rest as retreat; among the hexes the priorities of [7.6] leave
equal, the first by number.

Readings of the text, beyond those of ``combat.py`` and ``artillery.py``:

* [2.2] a turn ends when both sides pass one after the other, when neither has a unit left to
  activate, when the side still activating passes, or on a 5-6 of the die the still-active side
  rolls after its second and every later segment played alone; "units to activate" are the
  side's living units not yet activated, on the map or due to enter this turn;
* [3.4] a unit moves once per activation: a second ``move`` needs a mobile assault in between; a
  normal or prepared attack ends its movement (its advance apart);
* [4.2] "half of its MPs to leave": half its movement allowance for the activation (after any
  halving), rounded up, added to the first hex it enters. "All combat units and EMs exert a ZdC":
  the engineer has no CF and exerts no zone; HQs (the EMs) do; artillery does not from rules
  version 4 -- it is neither: the text sets it apart from the units that fight ([1.1] against
  [1.4]; [3.3] "Artillery units may also be activated"), it has no CF ([1.4]; its DF serves "as
  its combat factor if attacked" [8.3]) and never attacks, and [4.2] names the EMs although they
  have a CF, so "combat units" is a role, not a rating (version 3: artillery exerted a zone);
* [4.3] a unit that moved in this activation and ends its last move in an enemy zone must attack
  after that move, unless in a town, a city or a prepared position;
* [5] stacking is checked at the end of the operations phase; excess steps go in the order of
  the owner's standing ``stacking`` list, then from the units with the most steps;
* [6.1, 9.2, 10.2] the allowance is halved once if the unit is out of command or (motorized,
  mechanized or tracked) out of supply; units entering (or set up) are in command and supply on
  their turn of entry [errata] and use all their MP [15.1]; a formation without an HQ (the 82nd
  Airborne [17]) never uses a formation activation but is not halved for want of one;
* [3.4, 8] an activated artillery unit may move and then fire (support or bombard), not fire and
  then move;
* [7.1] an attack action names one attack type, which every unit in it pays; attackers wanting
  another type make an attack of their own;
* [15.2] "units may drop in enemy ZdC, and may attack the enemy during its activation but may
  only use mobile combat": the limit belongs to the units that drop in an enemy zone, the enemy
  being the one whose zone it is; from rules version 4 only a unit that landed in an enemy zone
  of control (as the German units stood at the landing) makes only mobile assaults, all that
  turn (version 3: every unit dropped that turn, wherever it landed);
* [11.1] "PDPs are not transferable between units. If a stack of units wishes to place a PDP,
  all units expend the necessary MP": from rules version 4 a defending stack is in a prepared
  position (its column [11.2], the halved bombardment values [8.4]) only when every unit
  defending there prepared its own; a unit that moved, advanced or dropped in afterwards, without
  paying, takes it away from the stack while it stays (units that retreated in this turn do not
  defend there [7.6] and are not asked); the unit that paid keeps its marker. Not having to
  attack the zone's units [11.2] was always the paying unit's alone (version 3: one unit's
  position gave the stack its column);
* [15.1] a zone is "allied controlled" when an Allied unit stands on one of its hexes: no German
  unit enters by it;
* [7.5] losses in a stack fall first on an armour/antitank unit when both sides have one, then on
  the unit with the most steps (then by id); attacking units retreat hex by hex from their own
  hexes; a retreat follows the priorities of [7.6] and, among the hexes they leave equal, goes towards
  the hex of the side's order (the defender's standing ``retreat``, the attack's ``towards``),
  else the first hex by number; supporting artillery next to the defender shares the result of
  the side it supports [8.2]: the attacker's ("does not suffer the effects of combat if firing
  at range") and the defender's ("do not suffer ill effects unless adjacent", read as adjacent to
  the unit under attack, as the attack support's range is measured): its steps are among those
  the losses fall on, and it retreats from its own hex as many hexes as the side it supports;
* [8.4] artillery of a XXX Corps formation is corps artillery (it supports XXX Corps and the
  parachute formations); other artillery supports its own formation; artillery must be among the
  activated units to add its BV and in command [3.2];
* [9.1, 10.1 errata] command: a path of at most 5 hexes from the HQ, not entering enemy units or
  unnegated enemy zones; supply: within 2 hexes (same kind of path) of the formation's road net --
  the roads connected, through hexes free of enemy units and unnegated zones, to its supply edges
  or hexes -- or of a friendly edge (Germans), or of its HQ if that HQ is in supply; parachute
  formations also of a drop zone or a XXX Corps HQ in supply;
* [12.1] the engineer's crossing replaces the cost of the hex entered: a third of the unit's
  printed MP (rounded up) if motorized, nothing if on foot;
* [12.2] "a hex adjacent to the bridge": either hex of the hexside it spans; the Germans always
  try (a standing decision in their interest), the roll is made as the Allied unit enters and the
  move goes on unless its next hex crosses the blown crossing (then it stops there). "The moment
  an allied unit enters a hex adjacent ... the first time an allied unit moves adjacent": only
  movement rolls -- every hex a move enters, and from rules version 4 the entry hex of a
  reinforcement coming onto the map too (version 3 skipped it); an advance after combat, a
  retreat or a landing next to a crossing rolls nothing (in every version);
* [14.1, 18] the weather (historical or random) and the optional rules are the players' choices
  at ``pbem new`` (``--option weather=random``; the scenario's ``options`` are the defaults, the
  drop is the scenario's [17]), kept in ``State.options``. With random weather, "Throw 1d6
  during the weather phase" [14.1] and every turn's sequence begins with that phase [2.1]: from
  rules version 4 turn 1 has its die too, rolled as the Allied set-up is resolved [17.1] (the
  only decision before the first activation; the German owed pass reveals it, so the weather is
  known before the Allies activate) -- a 6, "same as previous turn", keeps the turn track's
  weather of turn 1, the weather the game starts with; a scenario without a set-up keeps the
  turn track's weather on turn 1. Version 3 gave turn 1 the turn track's weather always;
* [15.2, 17.3] a historic drop lands on its turn, or on the first later turn the weather allows;
  a drop is the Allied decision between the weather and the initiative;
* [16] "in Allied hands": the last side to have a unit on the hex; the Germans hold the bridge
  at the start. The bridgehead counts the Allied infantry steps on the bank of
  ``victory.far_bank_hex`` (hexes reached without crossing the Neder Rijn) and, for "(to the
  East)", in the map column ``victory.east_of_col`` or east of it. Read as the whole north bank,
  the condition would be met before a shot is fired (the 1st Airborne is set up with 15
  infantry steps round its drop zone 0305 [17.1], and 4P and the Poles add more), so the
  Germans would have to destroy the airborne to win and the historical end -- the perimeter at
  Oosterbeek evacuated, the bridge lost -- would be an Allied victory. "Across to the south
  bank" does not fit "remain", which speaks of a foothold kept on the far bank. A bridgehead is
  held "to the East" of the landing grounds, towards the bridge it is for ("holding a bridge or
  not"): the scenarios draw the line at column 10, just east of Oosterbeek (0806) where the
  railway bridge (1007/1107) crosses, so the drop zones and the Oosterbeek perimeter (columns
  1-9) do not count and the railway bridge, Arnhem and its road bridge (1406) do: 12 steps must fight their way there and stay, as the
  2nd Parachute Battalion's few did not. The column is data (``east_of_col``), None for the
  whole bank;
* [17.1] the 1st Airborne's placement round its DZ 0305 is the Allied player's set-up decision
  (a ``setup`` order, before the first activation): the text gives the hex and the procedure of
  [15.2] (within two hexes, clear or mixed terrain; the Airlanding Brigade and the Glider Pilots
  on clear), not each unit's hex. What the rules propose (the skeleton, ``pbem orders --text``,
  the bot) is the old automatic placement: the allowed hexes in number order, each filled up to
  the stacking limit, which a set-up may not exceed [5].
"""

from __future__ import annotations

from typing import Any, cast

from pbem.engine.conditions import Happened
from pbem.engine.ruleset import JSON, Checked, Decision, Dice, Outcome, Resolution, Ruleset
from pbem.errors import InputError, RuleViolation
from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.protocol.record import RecordError
from pbem.systems.arnhem1944.activation import (
    SAME_RESOLVED,
    Prefix,
    Run,
    after_segment,
    end_turn,
    initiative,
    land,
    stacking,
    weather,
)
from pbem.systems.arnhem1944.board import Board
from pbem.systems.arnhem1944.model import Scenario, choose
from pbem.systems.arnhem1944.orders import (
    MODELS,
    Acknowledge,
    Action,
    Activation,
    Drop,
    Orders,
    Pass,
    Setup,
    explain,
)
from pbem.systems.arnhem1944.queries import Game, Readings, due_drops, mark_bridge, other
from pbem.systems.arnhem1944.state import Side, Standing, State, UnitState
from pbem.systems.arnhem1944.words import event_text


class _Walked(Plain):
    """The checking walk of a legal activation that comes out the same resolved: it moves, enters
    and prepares positions only, under no condition (``if``), and no die would have been rolled in
    it (no demolition [12.2] came up) -- so the resolution's walk, with the dice, would make the
    same state and events, its standing orders apart (set before the walk, read only in combat
    [7.5, 7.6, 8.2]). :meth:`Arnhem1944Rules.resolve` takes it once instead of walking again, for
    exactly the state and orders it was checked with (the engine's contract for ``checked``)."""

    state: State
    """The state checked (compared by identity)."""
    orders: Activation
    walked: State
    log: Happened
    taken: bool = False


class _Resumed:
    """The :class:`~pbem.systems.arnhem1944.activation.Prefix` the check of a legal activation
    kept, for :meth:`Arnhem1944Rules.resolve` to resume from with the dice, once, for exactly the
    state and orders it was checked with (as :class:`_Walked`; issue 28)."""

    __slots__ = ("state", "orders", "prefix", "taken")

    def __init__(self, state: State, orders: Activation, prefix: Prefix) -> None:
        self.state = state
        self.orders = orders
        self.prefix = prefix
        self.taken = False


_SAME_RESOLVED = SAME_RESOLVED


class Arnhem1944Rules(Ruleset[Scenario, State, Orders]):
    """Vae Victis *Arnhem 1944* (module docstring)."""

    system = "arnhem1944"
    version = "4"
    """2: a combat's odds line says how each side's strength was made up [7.4]. 3 (issue 12): the
    1st Airborne's set-up is the Allied player's first decision [17.1]; retreat and split orders
    written in advance [7.5, 7.6]; defensive artillery next to the defender shares its result
    [8.2]; the bridgehead counts east of the scenario's column only [16]. 4 (issue 26; 3 is still
    played, :class:`~pbem.systems.arnhem1944.queries.Readings` holds what differs): a prepared
    position shields only the units that paid for it -- a defending stack has it when every unit
    defending there prepared its own [11.1]; a reinforcement entering the map on a hex next to a
    railway bridge or ferry rolls for its demolition as any move does, and only movement rolls
    [12.2]; artillery exerts no zone of control, not being among "combat units and EMs" [4.2];
    with random weather turn 1 has its weather die too, rolled with the Allied set-up [2.1, 14.1];
    only units that landed in an enemy zone of control are held to mobile assaults on their drop
    turn [15.2]."""
    plays = ("3",)
    earlier = {
        "1": "pbem development builds from commit ffd54a4 to the one before c6309a9 (no release)",
        "2": "pbem development builds from commit c6309a9 to the one before f5758a6 (no release)",
    }

    def load_scenario(self, data: JSON) -> Scenario:
        try:
            return Scenario.parse(data)
        except RecordError as exc:
            raise InputError(f"arnhem1944 scenario: {exc.line()}") from None

    def load_checked_scenario(self, data: JSON) -> Scenario:
        """A bundled scenario pbem's tests check in full (:func:`pbem.engine.scenarios.is_checked`):
        built without the checks of :meth:`load_scenario` (tests/engine/test_scenarios_checked.py
        holds the two equal)."""
        return Scenario.built(data)

    def scenario_summary(self, scenario: Scenario) -> str:
        o = scenario.options
        rules = [k for k in ("xxx_corps_early", "simplified_sequence", "morale")
                 if getattr(o, k)]
        return (f"{scenario.id}: {len(scenario.counters)} units, turns "
                f"{scenario.first_turn}-{scenario.last_turn}, {o.drop} drop, {o.weather} "
                f"weather, optional rules: {', '.join(rules) or 'none'} (pbem new --option "
                "weather=random|historical, xxx_corps_early=true, simplified_sequence=true, "
                "morale=true)")

    def sides(self, scenario: Scenario) -> list[str]:
        return [s["id"] for s in scenario.sides]

    def load_state(self, scenario: Scenario, data: JSON) -> State:
        try:
            return State.parse(data)
        except RecordError as exc:
            raise InputError(f"arnhem1944 state: {exc.line()}") from None

    def dump_state(self, scenario: Scenario, state: State) -> JSON:
        # version 4's landings in an enemy zone [15.2] are written only while there are any
        # (the field's ``omit``): a version 3 state dumps byte for byte as it did
        return state.dump()

    def load_orders(self, scenario: Scenario, data: JSON) -> Orders:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise InputError("arnhem1944 orders must be an object with a 'kind'")
        model = MODELS.get(data["kind"])
        if model is None:
            raise InputError(f"unknown order kind {data['kind']!r} (activation, pass, drop, "
                             "setup, acknowledge)")
        try:
            return cast(Orders, model.parse(data))
        except RecordError as exc:
            loc = exc.problems[0][0] if exc.problems else ()
            what, where = str(data["kind"]), ""
            if len(loc) >= 2 and loc[0] in ("actions", "landings") and isinstance(loc[1], int):
                items = data.get(str(loc[0]))
                item = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else {}
                what = str(item.get("do", "activation")) if loc[0] == "actions" and isinstance(
                    item, dict) else "landing"
                where = f"{'action' if loc[0] == 'actions' else 'landing'} {loc[1] + 1}: "
            elif loc and loc[0] == "standing":
                what = "standing"
            raise InputError(f"arnhem1944 orders: {where}{explain(exc, what)}") from None

    def dump_orders(self, scenario: Scenario, orders: Orders) -> JSON:
        out: dict[str, Any] = orders.to_json(omit_defaults=True)
        out["kind"] = orders.kind
        out["side"] = orders.side
        return out

    def game(self, scenario: Scenario) -> Game:
        """The scenario with its tables and the readings of the version this instance plays."""
        key = (type(self), self.version)
        hit = scenario.games.get(key)
        if hit is None:  # made once per scenario object and version (the scenario keeps it)
            hit = scenario.games[key] = Game(scenario, *scenario.tables, readings=Readings.of(self))
        return cast(Game, hit)

    # -- the start [17] ---------------------------------------------------------------------------
    def initial_state(self, scenario: Scenario, options: JSON) -> State:
        if options is not None and not isinstance(options, dict):
            raise InputError("arnhem1944 options must be an object")
        try:
            choices = choose(scenario.options, options)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        g = self.game(scenario)
        units = {c.id: UnitState(steps=c.steps) for c in scenario.counters}
        board = Board(scenario.map, g.tec)
        filled: dict[str, int] = {}
        limit = scenario.constants.stacking_steps
        for p in scenario.setup:
            c = scenario.counter[p.unit]
            h = p.hex
            if p.within:
                ring = [str(x) for x in Hex.parse(p.hex).within(p.within)
                        if board.on_map(str(x))
                        and (not p.terrain or board.kind(str(x)) in p.terrain)]
                h = next((x for x in ring if filled.get(x, 0) + c.steps <= limit), p.hex)
            filled[h] = filled.get(h, 0) + (c.steps if c.counts_for_stacking else 0)
            units[p.unit] = UnitState(hex=h, steps=c.steps, entered=True,
                                      entry_turn=scenario.first_turn)
        st = State(options=choices, turn=scenario.first_turn, weather=scenario.turns[0].weather,
                   initiative=scenario.constants.first_initiative,
                   to_act=scenario.constants.first_initiative, units=units,
                   bridge={h: "DE" for h in scenario.victory.bridge_hexes})
        if any(p.within for p in scenario.setup):
            st.phase = "setup"  # [17.1] the Allied player places the 1st Airborne first
        mark_bridge(g, st)
        g.command_and_supply(st)
        return st

    def _first_weather_die(self, scenario: Scenario, state: State) -> bool:
        """[2.1, 14.1] whether turn 1's weather is rolled at the set-up: random weather, rules
        version 4 (3: the turn track's weather on turn 1). The set-up is the only decision before
        the first activation that can carry the die (the German player's next message reveals
        it); a scenario without a set-up keeps the turn track's weather on turn 1."""
        return (state.options.weather == "random" and state.turn == scenario.first_turn
                and self.game(scenario).readings.first_turn_weather_die)

    def free_setup(self, scenario: Scenario) -> list[Any]:
        """The placements the player decides [17.1, 15.2]: those round a hex (``within``)."""
        return [p for p in scenario.setup if p.within]

    def _standing_problems(self, scenario: Scenario, side: Side,
                           standing: Standing) -> list[RuleViolation]:
        """[7.6] a standing retreat order names one of the side's units, a hex of the map or
        ``*``, and a hex of the map to retreat towards."""
        board = Board(scenario.map, self.game(scenario).tec)
        out: list[RuleViolation] = []
        for who, h in sorted(standing.retreat.items()):
            c = scenario.counter.get(who)
            if who != "*" and not board.on_map(who) and (c is None or c.side != side):
                out.append(RuleViolation("7.6", f"retreat order for {who}: not one of your units nor a hex "
                                                "of the map"))
            if not board.on_map(h):
                out.append(RuleViolation("7.6", f"retreat order for {who}: {h} is not on the map",
                                         hex=h))
        return out

    def _setup_problems(self, scenario: Scenario, state: State,
                        orders: Setup) -> list[RuleViolation]:
        """[17.1, 15.2, 5] each unit within its placement's distance of the drop zone, on the
        terrain listed (clear for the Airlanding Brigade and the Glider Pilots, clear or mixed for
        the others), not on an enemy unit, named once; no hex over the stacking limit."""
        g = self.game(scenario)
        board = g.board(state)
        free = {p.unit: p for p in self.free_setup(scenario)}
        out: list[RuleViolation] = []
        seen: set[str] = set()
        for ln in orders.placements:
            p = free.get(ln.unit)
            if p is None or g.c(ln.unit).side != orders.side:
                out.append(RuleViolation("17.1", f"{ln.unit} is not placed by the player at the set-up",
                                         unit=ln.unit))
                continue
            if ln.unit in seen:
                out.append(RuleViolation("17.1", f"{ln.unit} is placed twice", unit=ln.unit))
            seen.add(ln.unit)
            h = ln.hex
            if not board.on_map(h) or board.distance(h, p.hex) > p.within:
                out.append(RuleViolation("15.2, 17.1", f"{ln.unit}: {h} is more than {p.within} "
                                                       f"hex{'es' if p.within != 1 else ''} from the drop "
                                                       f"zone {p.hex}", unit=ln.unit, hex=h))
            elif p.terrain and board.kind(h) not in p.terrain:
                out.append(RuleViolation("15.2, 17.1", f"{ln.unit}: {h} is {board.kind(h)}, not "
                                                       f"{' or '.join(p.terrain)}",
                                         unit=ln.unit, hex=h))
            elif any(g.c(x).side != orders.side for x in g.at(state, h)):
                out.append(RuleViolation("15.2, 17.1", f"{ln.unit}: enemy units are at {h}",
                                         unit=ln.unit, hex=h))
        if out:
            return out
        placed = self._placed(scenario, state, orders)
        limit = scenario.constants.stacking_steps
        steps: dict[str, int] = {}
        for uid, u in placed.units.items():
            if u.on_map and u.hex is not None and g.c(uid).counts_for_stacking:
                steps[u.hex] = steps.get(u.hex, 0) + u.steps
        for h, n in sorted(steps.items()):
            if n > limit and any(ln.hex == h for ln in orders.placements):
                out.append(RuleViolation("5, 17.1", f"{n} steps at {h}: the stacking limit is {limit} (the "
                                                    "set-up is made legal as it stands)", hex=h))
        return out

    def _placed(self, scenario: Scenario, state: State, orders: Setup) -> State:
        st = state.clone()
        for ln in orders.placements:
            st.units[ln.unit].hex = ln.hex
        return st

    # -- whose decision -------------------------------------------------------------------------------
    def pending(self, scenario: Scenario, state: State) -> list[Decision]:
        t = state.turn
        if state.phase == "over":
            return []
        if state.owed is not None:
            return [Decision(state.owed, "pass", f"Turn {t}: {state.owed} passes so that its "
                             "reveal keys the dice before [2.1]", random=False)]
        if state.phase == "ack":
            side = state.ack or "DE"
            return [Decision(side, "acknowledge", f"{side} acknowledges the end of the game [16]",
                             random=False)]
        if state.phase == "drop":
            return [Decision("AL", "drop", f"Turn {t}: Allied airborne reinforcements [15.2]",
                             revealer="DE")]
        if state.phase == "setup":
            side = scenario.counter[self.free_setup(scenario)[0].unit].side
            if self._first_weather_die(scenario, state):
                return [Decision(side, "setup", "Set-up: the Allied player places the 1st Airborne "
                                 "round its drop zone [17.1, 15.2]; turn 1's weather die follows "
                                 "[2.1, 14.1]", revealer=other(side))]
            return [Decision(side, "setup", "Set-up: the Allied player places the 1st Airborne "
                             "round its drop zone [17.1, 15.2]", random=False)]
        side = state.to_act
        if state.options.simplified_sequence:
            return [Decision(side, "player-turn", f"Turn {t}: {side} movement and combat phases "
                             "[18.1]", revealer=other(side))]
        return [Decision(side, "activation", f"Turn {t}: {side} activates or passes [2.1, 3]",
                         revealer=other(side))]

    def skeleton(self, scenario: Scenario, state: State, side: str) -> JSON:
        pend = self.pending(scenario, state)
        if not pend:
            raise InputError("the game is over: there is nothing to order")
        d = pend[0]
        if d.side != side:
            raise InputError(f"it is {d.side}'s decision, not {side}'s")
        if d.kind in ("pass", "activation", "player-turn"):
            return {"kind": "pass", "side": side}
        if d.kind == "drop":
            return {"kind": "drop", "side": side, "landings": self.default_landings(
                scenario, state)}
        if d.kind == "setup":
            return {"kind": "setup", "side": side, "placements": [
                {"unit": p.unit, "hex": state.units[p.unit].hex}
                for p in self.free_setup(scenario)]}
        return {"kind": "acknowledge", "side": side}

    def normalize(self, scenario: Scenario, state: State, side: str, orders: Orders) -> Orders:
        """A move's ``to`` becomes the cheapest path there [6.3, 4.2] (from where the unit will
        be after the actions before it, when those are moves), an entry's the cheapest way in
        [15.1, 15.3]; with the simplified sequence a general activation is the player-turn
        [18.1]."""
        if not isinstance(orders, Activation):
            return orders
        if state.options.simplified_sequence and orders.mode == "general":
            # [18.1] text orders say 'activate: UNITS': in this game that is the player-turn
            orders = orders.replace(mode="phase")
        if not any(a.to for a in orders.actions):
            return orders
        g = self.game(scenario)
        where = {uid: u.hex for uid, u in state.units.items()}
        actions = []
        for a in orders.actions:
            if a.do == "move" and a.to and a.unit in where:
                start = a.path[-1] if a.path else where[a.unit]
                path = g.cheapest_path(state, cast(Side, side), start, a.to) if start else None
                if path is None:
                    raise InputError(f"[6.1] no path for {a.unit} to {a.to}")
                a = a.replace(path=[*a.path, *path], to=None)
            elif a.do == "enter" and a.to and a.unit in where:
                a = a.replace(path=self._entry_path(g, state, side, a), to=None)
            if a.do in ("move", "enter") and a.path and a.unit:
                where[a.unit] = a.path[-1]
            actions.append(a)
        return orders.replace(actions=actions)

    def _entry_path(self, g: Game, state: State, side: str, a: Action) -> list[str]:
        """``enter UNIT to HEX`` (after the entry hex given, if any): the cheapest way from its
        entry hex or zone [15.1, 15.3] (the zone of the action when it names one)."""
        assert a.unit is not None and a.to is not None
        form = f"give the path instead: 'enter {a.unit} HEX HEX...', its entry hex first"
        if a.path:
            rest = g.cheapest_path(state, cast(Side, side), a.path[-1], a.to)
            if rest is None:
                raise InputError(f"[6.1] no path for {a.unit} from {a.path[-1]} to {a.to}: "
                                 f"{form}")
            return [*a.path, *rest]
        r = g.reinforcement(a.unit)
        if r is None:
            raise InputError(f"[15] {a.unit} does not enter by land")
        zone = a.zone or r.zone
        if r.hex is not None and not a.zone:
            entries, where = [r.hex], f"hex {r.hex} [15.3]"
        elif zone in g.sc.map.entry_zones:
            entries, where = list(g.sc.map.entry_zones[zone].hexes), f"zone {zone} [15.1]"
        else:
            raise InputError(f"[15.1] there is no entry zone {zone}")
        path = g.cheapest_entry(state, cast(Side, side), entries, a.to)
        if path is None:
            raise InputError(f"[6.1] no path for {a.unit} from its entry {where} to {a.to}: "
                             f"{form}")
        return path

    def due_drops(self, scenario: Scenario, state: State) -> list[Any]:
        """Drop groups that may land this turn [15.2, 17.3, 17.4]."""
        return [d for d in scenario.para_drops
                if d.group not in state.dropped and d.turn <= state.turn]

    def default_landings(self, scenario: Scenario, state: State) -> list[dict[str, str]]:
        """Landings filling the allowed hexes round each due DZ in number order, up to the
        stacking limit, off enemy units."""
        g = self.game(scenario)
        board = g.board(state)
        enemy = g.hexes_of(state, "DE")
        filled: dict[str, int] = {}
        for u in state.units.values():
            if u.on_map and u.hex is not None:
                filled[u.hex] = filled.get(u.hex, 0) + u.steps
        out = []
        for d in due_drops(scenario, state):
            ring = [str(x) for x in Hex.parse(d.dz).within(d.radius) if board.on_map(str(x))
                    and board.kind(str(x)) in d.terrain and str(x) not in enemy]
            for uid in d.units:
                steps = state.units[uid].steps
                h = next((x for x in ring if filled.get(x, 0) + steps
                          <= scenario.constants.stacking_steps), ring[0] if ring else d.dz)
                filled[h] = filled.get(h, 0) + steps
                out.append({"unit": uid, "hex": h})
        return out

    # -- checking -------------------------------------------------------------------------------------
    def validate(self, scenario: Scenario, state: State, side: str,
                 orders: Orders) -> list[RuleViolation]:
        return self._violations(scenario, state, side, orders)

    def check(self, scenario: Scenario, state: State, side: str, orders: Orders) -> Checked:
        """:meth:`validate`, keeping for :meth:`resolve` the walk of a legal activation that
        resolves the same (:class:`_Walked`), or else the part of it before its first fight or
        condition (:class:`_Resumed`)."""
        kept: list[_Walked | _Resumed] = []
        problems = self._violations(scenario, state, side, orders, kept)
        return Checked(problems, kept[0] if kept and not problems else None)

    def _violations(self, scenario: Scenario, state: State, side: str, orders: Orders,
                    kept: list[_Walked | _Resumed] | None = None) -> list[RuleViolation]:
        pend = self.pending(scenario, state)
        if not pend:
            return [RuleViolation("16", "the game is over")]
        d = pend[0]
        if d.side != side or orders.side != side:
            return [RuleViolation("2.1", f"it is {d.side}'s decision, not {side}'s")]
        expected = {"activation": ("activation", "pass"), "player-turn": ("activation", "pass"),
                    "pass": ("pass",), "drop": ("drop",), "setup": ("setup",),
                    "acknowledge": ("acknowledge",)}[d.kind]
        if orders.kind not in expected:
            return [RuleViolation("2.1", f"a {d.kind} is due, not a {orders.kind}")]
        if isinstance(orders, Pass) and d.kind == "pass" and orders.standing is not None:
            return [RuleViolation("2.1", "this pass only reveals the dice before it: standing orders go "
                                         "with your own activations and passes")]
        standing = getattr(orders, "standing", None)
        if standing is not None:
            probs = self._standing_problems(scenario, cast(Side, side), standing)
            if probs:
                return probs
        if isinstance(orders, Drop):
            return self._drop_problems(scenario, state, orders)
        if isinstance(orders, Setup):
            return self._setup_problems(scenario, state, orders)
        if isinstance(orders, Activation):
            for a in orders.actions:
                if a.to is not None:  # normalize makes it a path before anything is signed
                    return [RuleViolation(
                        "15.1" if a.do == "enter" else "6.1",
                        f"{a.unit}: the destination {a.to} is not spelled out hex by hex: orders are "
                        "signed with the path the unit takes ('pbem check' shows it), never a bare "
                        "destination", unit=a.unit, hex=a.to)]
            g = self.game(scenario)
            st = state.clone()
            log = Happened()
            run = Run(g, st, cast(Side, side), None, log)
            prefix: list[Prefix] | None = [] if kept is not None else None
            run.activation(orders, keep=prefix)
            if kept is not None and not run.violations:
                if not run.unrolled and all(a.do in _SAME_RESOLVED and a.if_ is None
                                            for a in orders.actions):
                    kept.append(_Walked(state, orders, st, log))
                elif prefix:
                    kept.append(_Resumed(state, orders, prefix[0]))
            return run.violations
        return []

    def expected_attacks(self, scenario: Scenario, state: State, side: str,
                         orders: Orders) -> list[tuple[int, str, str, Any]]:
        """Each attack of a legal activation as its die will be rolled: (action number, target,
        attack type, :class:`~pbem.systems.arnhem1944.combat.Odds`) -- the checking walk of the
        activation, which moves units as written and applies no result [7.3, 7.4]."""
        if not isinstance(orders, Activation):
            return []
        run = Run(self.game(scenario), state.clone(), cast(Side, side), None, Happened())
        run.activation(orders)
        return [] if run.violations else run.expected

    def _drop_problems(self, scenario: Scenario, state: State, orders: Drop) -> list[RuleViolation]:
        g = self.game(scenario)
        board = g.board(state)
        enemy = g.hexes_of(state, "DE")
        out: list[RuleViolation] = []
        due = {d.group: d for d in due_drops(scenario, state)}
        for grp in orders.wait:
            if grp not in due:
                out.append(RuleViolation("15.2", f"{grp} is not due to drop"))
            elif scenario.options.drop == "historic":
                out.append(RuleViolation("17.3", f"{grp} drops on its historic turn"))
        landed = {ln.unit: ln.hex for ln in orders.landings}
        for grp, dz in orders.dz.items():
            d = due.get(grp)
            if d is None or not d.alternative_dz or scenario.options.drop != "free":
                out.append(RuleViolation("15.2", f"{grp} may not choose another drop zone"))
            elif (not board.on_map(dz) or dz in enemy or board.kind(dz) not in d.terrain):
                out.append(RuleViolation("15.2", f"drop zone {dz}: on the map, free of the enemy, in "
                                                 f"{' or '.join(d.terrain)} terrain"))
        for grp, d in due.items():
            if grp in orders.wait:
                continue
            dz = orders.dz.get(grp, d.dz)
            for uid in d.units:
                h = landed.get(uid)
                if h is None:
                    out.append(RuleViolation("15.2", f"{uid} of {grp} has no landing hex", unit=uid))
                    continue
                if not board.on_map(h) or board.distance(h, dz) > d.radius:
                    out.append(RuleViolation("15.2", f"{uid}: {h} is more than {d.radius} hexes from the "
                                                     f"drop zone {dz}", unit=uid, hex=h))
                elif board.kind(h) not in d.terrain:
                    out.append(RuleViolation("15.2", f"{uid}: {h} is {board.kind(h)}, not "
                                                     f"{' or '.join(d.terrain)}", unit=uid, hex=h))
                elif h in enemy:
                    out.append(RuleViolation("15.2", f"{uid}: enemy units are at {h}", unit=uid, hex=h))
        for uid in landed:
            if not any(uid in d.units for g_, d in due.items() if g_ not in orders.wait):
                out.append(RuleViolation("15.2", f"{uid} is not in a group dropping now", unit=uid))
        return out

    # -- resolution -------------------------------------------------------------------------------------
    def resolve(self, scenario: Scenario, state: State, side: str, orders: Orders, dice: Dice,
                checked: Checked | None = None) -> Resolution:
        g = self.game(scenario)
        walked = checked.prepared if checked is not None else None
        resumed: Prefix | None = None
        if (isinstance(walked, _Walked) and not walked.taken and walked.state is state
                and walked.orders is orders):
            walked.taken = True  # the check's own copy: taken once
            st, log = walked.walked, walked.log
        elif (isinstance(walked, _Resumed) and not walked.taken and walked.state is state
                and walked.orders is orders):
            walked.taken = True  # as above; the walk goes on from the prefix, with the dice
            resumed = walked.prefix
            st, log = resumed.state, resumed.log
            walked = None
        else:
            walked = None
            # a pass of the standard sequence changes no unit unless the turn ends (then its
            # units are copied first): the units stay shared until then
            passing = isinstance(orders, Pass) and not state.options.simplified_sequence
            st = state.clone(units=not passing)
            log = Happened()
        me = cast(Side, side)
        if isinstance(orders, Acknowledge):
            st.phase = "over"
            log.event({"kind": "acknowledged", "side": me})
            return Resolution(st, log.events)
        if isinstance(orders, Setup):
            st = self._placed(scenario, state, orders)
            st.phase = "operations"
            log.event({"kind": "set-up", "side": me,
                       "units": {p.unit: st.units[p.unit].hex or ""
                                 for p in self.free_setup(scenario)}})
            mark_bridge(g, st)
            g.command_and_supply(st)
            if not self._first_weather_die(scenario, state):
                return Resolution(st, log.events)  # no dice: the first activation follows [17.1]
            weather(g, st, dice, log)  # [2.1, 14.1] turn 1's weather phase, random weather
            nxt = self.pending(scenario, st)
            if nxt and nxt[0].side == me:
                st.owed = other(me)  # the revealer of the die decides next
            return Resolution(st, log.events)
        if isinstance(orders, Pass) and state.owed == me:
            st.owed = None
            log.event({"kind": "passed", "side": me, "owed": True})
            return Resolution(st, log.events)
        if isinstance(orders, Drop):
            land(g, st, orders, log)
            initiative(g, st, dice, log)
        elif st.options.simplified_sequence:
            if orders.standing is not None:
                st.standing[me] = orders.standing
            if isinstance(orders, Activation):
                if walked is None:
                    Run(g, st, me, dice, log).activation(orders, resume=resumed)
            else:
                log.event({"kind": "passed", "side": me})
            stacking(g, st, log)  # [5, 18.1] at the end of the combat phase
            if me == "AL":
                st.to_act = "DE"
            else:
                log.event({"kind": "turn-end", "turn": st.turn,
                           "why": "both player-turns are over [18.1]"})
                end_turn(g, st, me, dice, log)
        elif isinstance(orders, Pass):
            if orders.standing is not None:
                st.standing[me] = orders.standing
            log.event({"kind": "passed", "side": me})
            ends = g.pass_ends_turn(st, me)
            if ends is not None:
                log.event({"kind": "turn-end", "turn": st.turn,
                           "why": "both sides passed in a row [2.2]"
                           if ends == "both" else "the side still active passed [2.2]"})
                st.own_units()
                end_turn(g, st, me, dice, log)
            else:
                st.passed = me
                st.to_act = other(me)
        else:
            assert isinstance(orders, Activation)
            if orders.standing is not None:
                st.standing[me] = orders.standing
            if walked is None:
                Run(g, st, me, dice, log).activation(orders, resume=resumed)
            st.passed = None
            after_segment(g, st, me, dice, log)
        if st.phase != "over":
            nxt = self.pending(scenario, st)
            if nxt and nxt[0].side == me:
                st.owed = other(me)  # the revealer of these dice decides next
        return Resolution(st, log.events)

    def score(self, scenario: Scenario, state: State) -> dict[str, int]:
        g = self.game(scenario)
        held = sum(1 for h in scenario.victory.bridge_hexes if state.bridge.get(h) == "AL")
        return {"AL": g.bridgehead(state), "DE": len(scenario.victory.bridge_hexes) - held}

    def outcome(self, scenario: Scenario, state: State) -> Outcome | None:
        if state.phase != "over" or state.outcome is None:
            return None
        pts = self.score(scenario, state)
        words = {"AL strategic": "Allied strategic victory: the Arnhem bridge is in Allied "
                                 "hands [16]",
                 "AL secondary": f"Allied secondary victory: a bridgehead of {pts['AL']} "
                                 "infantry steps over the Neder Rijn [16]",
                 "DE": "German victory: no Allied bridge and no bridgehead of "
                       f"{scenario.victory.bridgehead_steps} steps [16]"}
        winner = "DE" if state.outcome == "DE" else "AL"
        return Outcome(winner, words[state.outcome], pts,
                       [f"Allied infantry steps over the Neder Rijn: {pts['AL']}",
                        f"Arnhem bridge hexes not in Allied hands: {pts['DE']}"])

    # -- words ----------------------------------------------------------------------------------------------
    def describe(self, scenario: Scenario, state: State) -> str:
        if state.phase == "over":
            return f"game over: {state.outcome}"
        o = state.options
        chosen = [w for w, on in (("random weather [14.2]", o.weather == "random"),
                                  ("XXX Corps early [15.3]", o.xxx_corps_early),
                                  ("simplified sequence [18.1]", o.simplified_sequence),
                                  ("morale [7.5]", o.morale)) if on]
        extra = f"; {', '.join(chosen)}" if chosen else ""
        return (f"turn {state.turn} of {scenario.last_turn} ({state.weather}{extra}), "
                f"{state.phase}, {state.to_act} to act")

    def describe_event(self, scenario: Scenario, event: JSON) -> str:
        return event_text(event, scenario)

    def presenter(self) -> Any:
        # imported here, not at the top: the rules load without presentation (pbem verify, the
        # engine), as every system's do (pbem.engine.ruleset.Ruleset.presenter)
        from pbem.systems.arnhem1944.presenter import Arnhem1944Presenter

        return Arnhem1944Presenter(self)
