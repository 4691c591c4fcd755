"""A tiny dice game used to test the protocol and the engine without the WestWall rules.

Rules of the toy game (cited as ``[T1]``.. in violations, like a real rules text):

* [T1] Two or more sides, listed in the scenario, act in the listed order.
* [T2] Set-up: each side in turn picks a ``handicap`` of 0..3 points, added to its score (no dice).
* [T3] Rounds: in each of ``rounds`` rounds every side in turn rolls 1..3 dice. The roll scores
  the sum of the dice, but nothing at all if any die shows a 1 ("bust").
* [T4] ``standing`` orders: a side may set ``cheer`` (a short string) that is shown in the events of
  the *next* side's roll -- a stand-in for the reactive orders of real games, kept in the state.
* [T5] After the last roll the next side in order acknowledges (no dice); the highest score wins,
  equal scores draw.

The game alternates sides after every roll, which is what the engine's dice protocol needs: the die
key of a roll is fixed by the *next* side's reveal.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.presenter import Presenter
from pbem.engine.ruleset import JSON, Checked, Decision, Dice, Outcome, Resolution, Ruleset
from pbem.errors import InputError, RuleViolation
from pbem.protocol.record import Const, Int, ListOf, Nested, Record, RecordError, Str, field

# Plain records (pbem.protocol.record), read strictly: no pydantic on a toy game's path [28].


class ToySide(Record):
    """A side of the toy game [T1]."""

    id: str = field(Str(r"^[A-Z][A-Z0-9]{0,7}$"))
    name: str = field(Str(), default="")


class ToyScenario(Record):
    """The toy game's scenario [T1]."""

    id: str = field(Str())
    system: str = field(Const("toy"), default="toy")
    title: str = field(Str(), default="")
    sides: list[ToySide] = field(ListOf(Nested(ToySide), min_length=2))
    rounds: int = field(Int(ge=1, le=1000), default=2)

    def side_ids(self) -> list[str]:
        return [s.id for s in self.sides]


class ToySetup(Record):
    """A side's set-up [T2]."""

    kind: str = field(Const("setup"), default="setup")
    side: str = field(Str())
    handicap: int = field(Int(), default=0)


class ToyRoll(Record):
    """A side's roll [T3]."""

    kind: str = field(Const("roll"), default="roll")
    side: str = field(Str())
    round: int = field(Int())
    dice: int = field(Int(), default=1)
    cheer: str = field(Str(max_length=40), default="")


class ToyAck(Record):
    """A side's acknowledgement of a result [T5]."""

    kind: str = field(Const("acknowledge"), default="acknowledge")
    side: str = field(Str())


_MODELS: dict[str, type[Record]] = {"setup": ToySetup, "roll": ToyRoll, "acknowledge": ToyAck}


ToyState = dict[str, Any]
ToyOrders = dict[str, Any]


class ToyRules(Ruleset[ToyScenario, ToyState, ToyOrders]):
    """The toy dice game (see the module docstring). States and orders are plain dicts (never
    changed in place: :meth:`resolve` builds a new one)."""

    system = "toy"

    def load_scenario(self, data: JSON) -> ToyScenario:
        try:
            return ToyScenario.parse(data)
        except RecordError as exc:
            raise InputError(f"toy scenario: {exc.line()}") from None

    def sides(self, scenario: ToyScenario) -> list[str]:
        return scenario.side_ids()

    _STATE_KEYS = frozenset({"phase", "index", "round", "rounds", "scores", "cheer"})

    def load_state(self, scenario: ToyScenario, data: JSON) -> ToyState:
        if not isinstance(data, dict) or set(data) != self._STATE_KEYS:
            raise InputError("malformed toy state")
        return dict(data)

    def dump_state(self, scenario: ToyScenario, state: ToyState) -> JSON:
        return state

    def load_orders(self, scenario: ToyScenario, data: JSON) -> ToyOrders:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise InputError("toy orders must be an object with a 'kind'")
        model = _MODELS.get(data["kind"])
        if model is None:
            raise InputError(f"unknown toy order kind {data['kind']!r}")
        try:
            return model.parse(data).to_json()
        except RecordError as exc:
            raise InputError(f"toy orders: {exc.line()}") from None

    def dump_orders(self, scenario: ToyScenario, orders: ToyOrders) -> JSON:
        return orders

    def initial_state(self, scenario: ToyScenario, options: JSON) -> ToyState:
        rounds = options.get("rounds", scenario.rounds) if isinstance(options, dict) else scenario.rounds
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 1000:
            raise InputError("option rounds must be an integer 1..1000")
        return {
            "phase": "setup",
            "index": 0,
            "round": 1,
            "rounds": rounds,
            "scores": {s: 0 for s in scenario.side_ids()},
            "cheer": {},
        }

    def _side_at(self, scenario: ToyScenario, state: JSON) -> str:
        return scenario.side_ids()[state["index"] % len(scenario.sides)]

    def pending(self, scenario: ToyScenario, state: JSON) -> list[Decision]:
        phase = state["phase"]
        side = self._side_at(scenario, state)
        if phase == "setup":
            return [Decision(side, "setup", f"{side} set-up [T2]", random=False)]
        if phase == "roll":
            nxt = scenario.side_ids()[(state["index"] + 1) % len(scenario.sides)]
            return [Decision(side, "player-turn", f"Round {state['round']}, {side} rolls [T3]",
                             revealer=nxt)]
        if phase == "ack":
            return [Decision(side, "acknowledge", f"{side} acknowledges the result [T5]", random=False)]
        return []

    def skeleton(self, scenario: ToyScenario, state: JSON, side: str) -> JSON:
        kind = self._kind(scenario, state, side)
        if kind == "setup":
            return {"kind": "setup", "side": side, "handicap": 0}
        if kind == "roll":
            return {"kind": "roll", "side": side, "round": state["round"], "dice": 1, "cheer": ""}
        return {"kind": "acknowledge", "side": side}

    def _kind(self, scenario: ToyScenario, state: JSON, side: str) -> str:
        pend = self.pending(scenario, state)
        if not pend:
            raise InputError("the game is over: there is nothing to order")
        if pend[0].side != side:
            raise InputError(f"it is {pend[0].side}'s decision, not {side}'s")
        return {"setup": "setup", "player-turn": "roll", "acknowledge": "acknowledge"}[pend[0].kind]

    def normalize(self, scenario: ToyScenario, state: ToyState, side: str, orders: ToyOrders) -> ToyOrders:
        return orders

    def validate(self, scenario: ToyScenario, state: JSON, side: str, orders: JSON) -> list[RuleViolation]:
        out: list[RuleViolation] = []
        pend = self.pending(scenario, state)
        if not pend:
            return [RuleViolation("T5", "the game is over")]
        want = {"setup": "setup", "player-turn": "roll", "acknowledge": "acknowledge"}[pend[0].kind]
        if orders.get("side") != side or pend[0].side != side:
            out.append(RuleViolation("T1", f"{side} may not act now: it is {pend[0].side}'s decision"))
        if orders.get("kind") != want:
            out.append(RuleViolation("T1", f"a {want} order is due, not {orders.get('kind')!r}"))
            return out
        if want == "setup" and not 0 <= orders["handicap"] <= 3:
            out.append(RuleViolation("T2", f"handicap {orders['handicap']} is outside 0..3"))
        if want == "roll":
            if orders["round"] != state["round"]:
                out.append(RuleViolation("T3", f"orders are for round {orders['round']}, this is round {state['round']}"))
            if not 1 <= orders["dice"] <= 3:
                out.append(RuleViolation("T3", f"{orders['dice']} dice: roll 1 to 3 dice"))
        return out

    def resolve(self, scenario: ToyScenario, state: ToyState, side: str, orders: ToyOrders, dice: Dice,
                checked: Checked | None = None) -> Resolution:
        new = {**state, "scores": dict(state["scores"]), "cheer": dict(state["cheer"])}
        events: list[JSON] = []
        n = len(scenario.sides)
        kind = orders["kind"]
        if kind == "setup":
            new["scores"][side] += orders["handicap"]
            events.append({"kind": "handicap", "side": side, "points": orders["handicap"]})
            new["index"] += 1
            if new["index"] == n:
                new["phase"], new["index"] = "roll", 0
        elif kind == "roll":
            faces = [dice.d6(f"T3 {side} round {state['round']} die {i + 1}") for i in range(orders["dice"])]
            points = 0 if 1 in faces else sum(faces)
            new["scores"][side] += points
            ev: dict[str, Any] = {"kind": "roll", "side": side, "faces": faces, "points": points}
            prev_side = scenario.side_ids()[(state["index"] - 1) % n]
            if state["cheer"].get(prev_side):
                ev["cheered_by"] = {prev_side: state["cheer"][prev_side]}
            events.append(ev)
            new["cheer"][side] = orders["cheer"]
            new["index"] += 1
            if new["index"] == n:
                new["index"] = 0
                new["round"] += 1
                if new["round"] > state["rounds"]:
                    new["phase"] = "ack"
            # in the ack phase the index points at the next side, who acknowledges
        else:
            new["phase"] = "over"
            events.append({"kind": "acknowledged", "side": side})
        return Resolution(state=new, events=events)

    def score(self, scenario: ToyScenario, state: JSON) -> dict[str, int]:
        return dict(state["scores"])

    def outcome(self, scenario: ToyScenario, state: JSON) -> Outcome | None:
        if state["phase"] != "over":
            return None
        scores: dict[str, int] = state["scores"]
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        winner = leaders[0] if len(leaders) == 1 else None
        summary = f"{winner} wins" if winner else "draw"
        return Outcome(winner, f"{summary} [T5]", dict(scores), [f"{s}: {v}" for s, v in scores.items()])

    def describe(self, scenario: ToyScenario, state: JSON) -> str:
        if state["phase"] == "setup":
            return "set-up"
        if state["phase"] == "roll":
            return f"round {state['round']} of {state['rounds']}"
        return "final acknowledgement" if state["phase"] == "ack" else "game over"

    def presenter(self) -> Presenter[ToyScenario, ToyState]:
        return ToyPresenter(self)

    def describe_event(self, scenario: Any, event: JSON) -> str:
        if event.get("kind") == "roll":
            faces = ", ".join(str(f) for f in event["faces"])
            return f"{event['side']} rolls {faces}: {event['points']} points"
        if event.get("kind") == "handicap":
            return f"{event['side']} takes a handicap of {event['points']}"
        return f"{event.get('side')} acknowledges"


class ToyPresenter(Presenter[ToyScenario, ToyState]):
    """The toy's presenter: orders in words, text orders ("roll 2 dice", "handicap 1",
    "acknowledge", "cheer go") and a sparring bot -- what any new system provides to get ``pbem
    log``, text orders and ``pbem bot`` without a line changed in the engine or the CLI."""

    def describe_orders(self, scenario: ToyScenario, orders: JSON) -> list[str]:
        if not isinstance(orders, dict):
            return []
        side, kind = orders.get("side"), orders.get("kind")
        if kind == "setup":
            return [f"{side} takes a handicap of {orders.get('handicap')} [T2]"]
        if kind == "roll":
            cheer = f", cheering {orders['cheer']!r}" if orders.get("cheer") else ""
            return [f"{side} rolls {orders.get('dice')} dice in round {orders.get('round')}{cheer} [T3]"]
        return [f"{side} acknowledges the result [T5]"]

    def parse_text_orders(self, scenario: ToyScenario, skeleton: JSON, side: str, text: str) -> JSON:
        orders = dict(skeleton)
        for number, raw in enumerate(text.splitlines(), 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            verb, args = words[0].lower(), words[1:]
            try:
                if verb == "roll" and orders.get("kind") == "roll" and len(args) in (1, 2):
                    orders["dice"] = int(args[0])
                elif verb == "handicap" and orders.get("kind") == "setup" and len(args) == 1:
                    orders["handicap"] = int(args[0])
                elif verb == "cheer" and orders.get("kind") == "roll":
                    orders["cheer"] = " ".join(args)
                elif verb == "acknowledge" and orders.get("kind") == "acknowledge" and not args:
                    pass
                else:
                    raise ValueError
            except ValueError:
                raise InputError(f"line {number}: {raw.strip()[:80]!r} is not an order for this "
                                 f"decision (expected: {_TEXT_HELP[str(orders.get('kind'))]})") from None
        return orders

    def bot_orders(self, scenario: ToyScenario, state: ToyState, side: str, *, seed: int = 0) -> JSON:
        """Set up with a handicap of 1; roll two dice (three when behind); acknowledge."""
        skeleton: dict[str, Any] = self.ruleset.skeleton(scenario, state, side)
        if skeleton["kind"] == "setup":
            skeleton["handicap"] = 1
        elif skeleton["kind"] == "roll":
            scores = state["scores"]
            skeleton["dice"] = 3 if scores[side] < max(scores.values()) else 2
        return skeleton


_TEXT_HELP = {"setup": "'handicap N'", "roll": "'roll N' and 'cheer WORDS'", "acknowledge": "'acknowledge'"}
