"""A toy game of alternating activations with conditional orders, to prove that mode end to end.

It stands in for the activation system of Vae Victis' *Arnhem 1944* (seed 003) without its rules:
the shape is the same (initiative roll, one unit activated at a time, sides alternating, a die at
the end of each turn, decisions after a roll written in advance as conditions), the numbers are
made up. Rules, cited as ``[K1]``.. in violations:

* [K1] Two sides, each with a few units (``strength`` 1..3, two ``steps``, ``ground`` 0). The
  scenario names the side with the initiative in turn 1.
* [K2] Initiative: at the end of each turn but the last, each side rolls a die (first side first);
  the higher activates first in the next turn; ties are rolled again.
* [K3] Activation: the side to act picks one of its units not yet activated this turn and an enemy
  unit as target, and rolls a die: ``4`` or more hits (the target loses a step; with none left it is
  eliminated); ``5`` or more also makes the target retreat (its ground falls by one).
* [K4] Conditional orders: the activation may list ``then`` rules, ``{"if": CONDITION, "do":
  "advance" | "fall-back"}`` (conditions: :mod:`pbem.engine.conditions`), evaluated in order once
  the attack is resolved; the first whose condition holds is carried out (``advance``: the active
  unit's ground rises by one; ``fall-back``: it falls by one).
* [K5] Sides alternate activations; a side with no unit left to activate passes, and so does the
  side that just rolled when the other is to act again at once (initiative): a pass is a message
  with no decision in it, which reveals the dice of the activation before it.
* [K6] When every unit has activated the turn ends; when a side has no unit left the game ends. From turn 2 on, an end-of-turn die of ``1``
  ends the game at once; otherwise, after turn ``turns`` it ends anyway.
* [K7] Score: each unit's ground plus two points per enemy unit eliminated; the side that did not
  make the last activation acknowledges the result; the higher score wins, equal is a draw.

The dice protocol needs the side that reveals a random decision's dice to decide next ([K5] is how
this game keeps that promise; ``docs/architecture.md``, "Alternating activations").
"""

from __future__ import annotations

from typing import Any

from pbem.engine.conditions import Happened, holds, parse_condition
from pbem.engine.presenter import Presenter
from pbem.engine.ruleset import JSON, Checked, Decision, Dice, Outcome, Resolution, Ruleset
from pbem.errors import InputError, RuleViolation
from pbem.protocol.record import (
    Anything,
    Const,
    Int,
    ListOf,
    Nested,
    OneOf,
    Record,
    RecordError,
    Str,
    field,
)

# Plain records (pbem.protocol.record), read strictly: no pydantic on a skirmish game's path [28].


class SkirmishUnit(Record):
    """A unit [K1]."""

    id: str = field(Str(r"^[a-z][a-z0-9-]{0,11}$"))
    side: str = field(Str())
    strength: int = field(Int(ge=1, le=3))


class SkirmishScenario(Record):
    """The skirmish's scenario [K1]."""

    id: str = field(Str())
    system: str = field(Const("skirmish"), default="skirmish")
    title: str = field(Str(), default="")
    sides: list[str] = field(ListOf(Str(), min_length=2, max_length=2))
    units: list[SkirmishUnit] = field(ListOf(Nested(SkirmishUnit), min_length=2))
    first: str = field(Str())
    turns: int = field(Int(ge=1, le=100), default=3)

    def unit(self, uid: str) -> SkirmishUnit | None:
        for u in self.units:
            if u.id == uid:
                return u
        return None

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]


class ThenRule(Record):
    """A standing rule of an activation: if the condition holds, advance or fall back [K4]."""

    if_: dict[str, Any] = field(Anything("object"), alias="if")
    do: str = field(OneOf("advance", "fall-back"))

    def check_fields(self) -> None:
        parse_condition(self.if_, where="then.if")


class Activation(Record):
    """A unit's activation [K3, K4]."""

    kind: str = field(Const("activation"), default="activation")
    side: str = field(Str())
    unit: str = field(Str())
    target: str = field(Str())
    then: list[ThenRule] = field(ListOf(Nested(ThenRule), max_length=8), default_factory=list)


class Pass(Record):
    """A pass [K5]."""

    kind: str = field(Const("pass"), default="pass")
    side: str = field(Str())


class Acknowledge(Record):
    """The acknowledgement of the result [K7]."""

    kind: str = field(Const("acknowledge"), default="acknowledge")
    side: str = field(Str())


_MODELS: dict[str, type[Record]] = {"activation": Activation, "pass": Pass, "acknowledge": Acknowledge}

State = dict[str, Any]
Orders = dict[str, Any]


class SkirmishRules(Ruleset[SkirmishScenario, State, Orders]):
    """The toy activation game (module docstring). States and orders are plain JSON dicts, never
    changed in place."""

    system = "skirmish"

    def load_scenario(self, data: JSON) -> SkirmishScenario:
        try:
            sc = SkirmishScenario.parse(data)
        except RecordError as exc:
            raise InputError(f"skirmish scenario: {exc.line()}") from None
        ids = [u.id for u in sc.units]
        if len(set(ids)) != len(ids):
            raise InputError("skirmish scenario: unit ids must be unique [K1]")
        for u in sc.units:
            if u.side not in sc.sides:
                raise InputError(f"skirmish scenario: unit {u.id} has unknown side {u.side!r} [K1]")
        if sc.first not in sc.sides:
            raise InputError(f"skirmish scenario: first side {sc.first!r} is not a side [K1]")
        for side in sc.sides:
            if not any(u.side == side for u in sc.units):
                raise InputError(f"skirmish scenario: side {side} has no unit [K1]")
        return sc

    def sides(self, scenario: SkirmishScenario) -> list[str]:
        return list(scenario.sides)

    _KEYS = frozenset({"phase", "turn", "turns", "to_act", "owed", "activated", "units", "last"})

    def load_state(self, scenario: SkirmishScenario, data: JSON) -> State:
        if not isinstance(data, dict) or set(data) != self._KEYS:
            raise InputError("malformed skirmish state")
        return dict(data)

    def dump_state(self, scenario: SkirmishScenario, state: State) -> JSON:
        return state

    def load_orders(self, scenario: SkirmishScenario, data: JSON) -> Orders:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise InputError("skirmish orders must be an object with a 'kind'")
        model = _MODELS.get(data["kind"])
        if model is None:
            raise InputError(f"unknown skirmish order kind {data['kind']!r} (activation, pass, acknowledge)")
        try:
            return model.parse(data).to_json()
        except RecordError as exc:
            raise InputError(f"skirmish orders: {exc.line()}") from None

    def dump_orders(self, scenario: SkirmishScenario, orders: Orders) -> JSON:
        return orders

    def initial_state(self, scenario: SkirmishScenario, options: JSON) -> State:
        turns = options.get("turns", scenario.turns) if isinstance(options, dict) else scenario.turns
        if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 100:
            raise InputError("option turns must be an integer 1..100")
        return {
            "phase": "play",
            "turn": 1,
            "turns": turns,
            "to_act": scenario.first,
            "owed": None,
            "activated": [],
            "units": {u.id: {"steps": 2, "ground": 0} for u in scenario.units},
            "last": None,
        }

    # -- whose decision ---------------------------------------------------------------------------
    def _ready(self, scenario: SkirmishScenario, state: State, side: str) -> list[str]:
        """``side``'s units still to activate this turn (alive, not yet activated) [K3]."""
        return [u.id for u in scenario.units
                if u.side == side and state["units"][u.id]["steps"] > 0 and u.id not in state["activated"]]

    def pending(self, scenario: SkirmishScenario, state: State) -> list[Decision]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "ack":
            side = scenario.other(state["last"]) if state["last"] else scenario.sides[1]
            return [Decision(side, "acknowledge", f"{side} acknowledges the result [K7]", random=False)]
        if state["owed"]:
            side = state["owed"]
            return [Decision(side, "pass", f"Turn {state['turn']}, {side} passes [K5]", random=False)]
        side = state["to_act"]
        return [Decision(side, "activation", f"Turn {state['turn']}, {side} activates a unit [K3]",
                         revealer=scenario.other(side))]

    def skeleton(self, scenario: SkirmishScenario, state: State, side: str) -> JSON:
        pend = self.pending(scenario, state)
        if not pend:
            raise InputError("the game is over: there is nothing to order")
        if pend[0].side != side:
            raise InputError(f"it is {pend[0].side}'s decision, not {side}'s")
        kind = pend[0].kind
        if kind == "activation":
            ready = self._ready(scenario, state, side)
            enemies = self._ready_targets(scenario, state, side)
            return {"kind": "activation", "side": side, "unit": ready[0], "target": enemies[0], "then": []}
        return {"kind": kind, "side": side}

    def _ready_targets(self, scenario: SkirmishScenario, state: State, side: str) -> list[str]:
        return [u.id for u in scenario.units if u.side != side and state["units"][u.id]["steps"] > 0]

    def normalize(self, scenario: SkirmishScenario, state: State, side: str, orders: Orders) -> Orders:
        return orders

    def validate(self, scenario: SkirmishScenario, state: State, side: str, orders: Orders) -> list[RuleViolation]:
        pend = self.pending(scenario, state)
        if not pend:
            return [RuleViolation("K7", "the game is over")]
        d = pend[0]
        out: list[RuleViolation] = []
        if d.side != side or orders.get("side") != side:
            out.append(RuleViolation("K5", f"{side} may not act now: it is {d.side}'s decision"))
        if orders.get("kind") != d.kind:
            out.append(RuleViolation("K5", f"a {d.kind} is due, not a {orders.get('kind')}"))
            return out
        if d.kind != "activation":
            return out
        uid, target = orders["unit"], orders["target"]
        u, t = scenario.unit(uid), scenario.unit(target)
        if u is None or u.side != side:
            out.append(RuleViolation("K3", f"{uid} is not one of {side}'s units"))
        elif uid not in self._ready(scenario, state, side):
            why = "is eliminated" if state["units"][uid]["steps"] == 0 else "has already activated this turn"
            out.append(RuleViolation("K3", f"{uid} {why}"))
        if t is None or t.side == side:
            out.append(RuleViolation("K3", f"target {target} is not an enemy unit"))
        elif state["units"][target]["steps"] == 0:
            out.append(RuleViolation("K3", f"target {target} is already eliminated"))
        return out

    # -- resolution -------------------------------------------------------------------------------
    def resolve(self, scenario: SkirmishScenario, state: State, side: str, orders: Orders, dice: Dice,
                checked: Checked | None = None) -> Resolution:
        new: State = {**state, "units": {k: dict(v) for k, v in state["units"].items()},
                      "activated": list(state["activated"])}
        log = Happened()
        kind = orders["kind"]
        if kind == "acknowledge":
            new["phase"] = "over"
            log.event({"kind": "acknowledged", "side": side})
            return Resolution(new, log.events)
        if kind == "pass":
            new["owed"] = None
            log.event({"kind": "passed", "side": side})
            return Resolution(new, log.events)
        uid, target = orders["unit"], orders["target"]
        unit = scenario.unit(uid)
        assert unit is not None
        roll = log.roll("K3 attack", dice.d6(f"K3 attack {uid} on {target}"))
        log.event({"kind": "attacked", "unit": uid, "target": target, "roll": roll})
        tgt = new["units"][target]
        if roll >= 4:
            tgt["steps"] -= 1
            log.event({"kind": "hit", "unit": target, "by": uid})
            if tgt["steps"] == 0:
                log.event({"kind": "eliminated", "unit": target})
            elif roll >= 5:
                tgt["ground"] -= 1
                log.event({"kind": "retreated", "unit": target})
        for i, rule in enumerate(orders["then"]):  # [K4]: the first rule whose condition holds
            if holds(parse_condition(rule["if"]), log):
                step = 1 if rule["do"] == "advance" else -1
                new["units"][uid]["ground"] += step
                log.event({"kind": "advanced" if step > 0 else "fell-back", "unit": uid, "rule": i + 1})
                break
        new["activated"].append(uid)
        new["last"] = side
        other = scenario.other(side)
        if not self._ready_targets(scenario, new, side):
            log.event({"kind": "wiped-out", "side": other})  # nothing left to fight [K6]
            new["phase"] = "ack"
        elif self._ready(scenario, new, other):
            new["to_act"] = other
        elif self._ready(scenario, new, side):
            new["to_act"] = side
        else:
            self._end_turn(scenario, new, dice, log)
        if new["phase"] == "play" and new["to_act"] == side:
            new["owed"] = other  # [K5]: the revealer of these dice decides next
        return Resolution(new, log.events)

    def _end_turn(self, scenario: SkirmishScenario, new: State, dice: Dice, log: Happened) -> None:
        turn = new["turn"]
        if turn >= 2:
            die = log.roll("K6 end", dice.d6(f"K6 end of turn {turn}"))
            if die == 1:
                log.event({"kind": "sudden-end", "turn": turn, "roll": die})
                new["phase"] = "ack"
                return
        if turn >= new["turns"]:
            new["phase"] = "ack"
            log.event({"kind": "last-turn-over", "turn": turn})
            return
        first, second = scenario.sides
        while True:  # [K2] ties are rolled again
            a = dice.d6(f"K2 initiative {first} turn {turn + 1}")
            b = dice.d6(f"K2 initiative {second} turn {turn + 1}")
            if a != b:
                break
        winner = first if a > b else second
        log.event({"kind": "initiative", "turn": turn + 1, "rolls": {first: a, second: b}, "side": winner})
        new["turn"] = turn + 1
        new["activated"] = []
        new["to_act"] = winner

    def score(self, scenario: SkirmishScenario, state: State) -> dict[str, int]:
        out = {s: 0 for s in scenario.sides}
        for u in scenario.units:
            us = state["units"][u.id]
            out[u.side] += us["ground"]
            if us["steps"] == 0:
                out[scenario.other(u.side)] += 2
        return out

    def outcome(self, scenario: SkirmishScenario, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        scores = self.score(scenario, state)
        a, b = scenario.sides
        winner = a if scores[a] > scores[b] else b if scores[b] > scores[a] else None
        summary = f"{winner} wins" if winner else "draw"
        return Outcome(winner, f"{summary} [K7]", scores, [f"{s}: {v}" for s, v in scores.items()])

    def describe(self, scenario: SkirmishScenario, state: State) -> str:
        if state["phase"] == "play":
            return f"turn {state['turn']} of {state['turns']}"
        return "final acknowledgement" if state["phase"] == "ack" else "game over"

    def describe_event(self, scenario: Any, event: JSON) -> str:
        kind = event.get("kind")
        if kind == "attacked":
            return f"{event['unit']} attacks {event['target']}: rolls {event['roll']} [K3]"
        if kind in ("hit", "eliminated", "retreated"):
            return f"{event['unit']} is {'hit' if kind == 'hit' else kind} [K3]"
        if kind in ("advanced", "fell-back"):
            return f"{event['unit']} {'advances' if kind == 'advanced' else 'falls back'} (then-rule {event['rule']}) [K4]"
        if kind == "initiative":
            return f"turn {event['turn']}: {event['side']} has the initiative {event['rolls']} [K2]"
        if kind == "sudden-end":
            return f"end-of-turn die {event['roll']}: the game ends [K6]"
        return f"{event.get('side', '')} {kind}".strip()

    def presenter(self) -> Presenter[SkirmishScenario, State]:
        return SkirmishPresenter(self)


class SkirmishPresenter(Presenter[SkirmishScenario, State]):
    """Orders in words and a sparring bot (the bot writes a conditional advance)."""

    def describe_orders(self, scenario: SkirmishScenario, orders: JSON) -> list[str]:
        if not isinstance(orders, dict):
            return []
        if orders.get("kind") != "activation":
            return [f"{orders.get('side')}: {orders.get('kind')} [K5/K7]"]
        lines = [f"{orders['side']} activates {orders['unit']} against {orders['target']} [K3]"]
        for i, rule in enumerate(orders.get("then", []), 1):
            cond = parse_condition(rule["if"]).describe()
            lines.append(f"  then-rule {i}: if {cond}, {rule['do']} [K4]")
        return lines

    def bot_orders(self, scenario: SkirmishScenario, state: State, side: str, *, seed: int = 0) -> JSON:
        skeleton: dict[str, Any] = self.ruleset.skeleton(scenario, state, side)
        if skeleton["kind"] == "activation":
            target = skeleton["target"]
            skeleton["then"] = [
                {"if": {"event": "retreated", "unit": target}, "do": "advance"},
                {"if": {"roll": "K3 attack", "at_most": 2}, "do": "fall-back"},
            ]
        return skeleton
