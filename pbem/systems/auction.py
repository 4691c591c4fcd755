"""A toy sealed-bid game: every side bids at once, in secret, to prove sealed simultaneous orders.

It stands in for the written orders of Wallman's megagame (seed 004), without its rules: every side
hands in orders at the same time, nobody may see another's before committing its own, and the dice
that settle ties are keyed by every side's reveal. Rules, cited as ``[S1]``.. in violations:

* [S1] Two to ten sides, each starting with ``coins`` coins and no points.
* [S2] Each of ``rounds`` rounds, every side seals a bid: a whole number of coins from 0 to what it
  holds (sealed orders: committed first, revealed when all are in).
* [S3] The highest bid wins the round's ``prize`` points and pays its bid; the others keep their
  coins. Sides tied for the highest bid each roll a die (in side order) until one is highest; it
  wins. A round in which every bid is 0 has no winner.
* [S4] After the last round the most points win; equal points go to the side with more coins left;
  equal again is a draw.
* [S6] Hidden holdings (system ``auction-hidden``, always with an umpire): a side sees only its own
  coins and points, the round, and who won each round (the winner is announced, not the bids) --
  never another side's bid, coins or points until the game is over. The umpire alone resolves each round and reports to each side.
* [S5] With an umpire (Game Control, scenario ``umpire``): the bids are sealed to the umpire, who
  rules on each round *before* the bids are revealed: a ``reserve`` (bids below it are void) and
  at most one ``bonus`` point to a side for play the umpire judges outstanding -- the kind of
  judgement the megagame leaves to Game Control.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.engine.presenter import Presenter
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
from pbem.protocol.record import (
    Const,
    Int,
    ListOf,
    Maybe,
    Record,
    RecordError,
    Str,
    field,
    json_schema,
)

# Plain records (pbem.protocol.record), read strictly: a game of this system imports no pydantic
# on any command's path [28].


class AuctionScenario(Record):
    """An auction's scenario [S1]."""

    id: str = field(Str())
    system: str = field(Str(r"^(auction|auction-hidden)$"), default="auction")
    title: str = field(Str(), default="")
    sides: list[str] = field(ListOf(Str()))
    coins: int = field(Int(ge=1, le=1000), default=10)
    rounds: int = field(Int(ge=1, le=1000), default=3)
    prize: int = field(Int(ge=1, le=100), default=3)
    umpire: str | None = field(Maybe(Str(r"^[A-Z][A-Z0-9]{0,7}$")), default=None)

    def check_fields(self) -> None:
        if not 2 <= len(self.sides) <= 10:
            raise ValueError(f"two to ten sides, not {len(self.sides)} [S1]")


class Rulings(Record):
    """Game Control's rulings for a round [S5]: reserve (bids below it are void) and bonus (one
    point to a side, or null)"""

    reserve: int = field(Int(ge=0, le=1000), default=0)
    bonus: str | None = field(Maybe(Str()), default=None)


class Bid(Record):
    """A side's sealed bid for one round [S2]."""

    kind: str = field(Const("bid"), default="bid")
    side: str = field(Str())
    round: int = field(Int())
    coins: int = field(Int())


State = dict[str, Any]
Orders = dict[str, Any]


class AuctionRules(Ruleset[AuctionScenario, State, Orders]):
    """The toy sealed-bid game (module docstring)."""

    system = "auction"
    capabilities: ClassVar[Capabilities] = Capabilities(decisions="simultaneous", umpire=True)

    def load_scenario(self, data: JSON) -> AuctionScenario:
        try:
            sc = AuctionScenario.parse(data)
        except RecordError as exc:
            raise InputError(f"auction scenario: {exc.line()}") from None
        if len(set(sc.sides)) != len(sc.sides):
            raise InputError("auction scenario: side ids must be unique [S1]")
        if sc.umpire is not None and sc.umpire in sc.sides:
            raise InputError("auction scenario: the umpire is not a bidding side [S5]")
        return sc

    def sides(self, scenario: AuctionScenario) -> list[str]:
        return list(scenario.sides) + ([scenario.umpire] if scenario.umpire else [])

    def umpire(self, scenario: AuctionScenario) -> str | None:
        return scenario.umpire

    def rulings_schema(self) -> JSON:
        return json_schema(Rulings)

    def orders_schema(self) -> JSON:
        return json_schema(Bid)

    def load_rulings(self, scenario: AuctionScenario, state: State, data: JSON) -> JSON:
        try:
            rulings = Rulings.parse(data)
        except RecordError as exc:
            raise InputError(f"auction rulings: {exc.line()} [S5]") from None
        if rulings.bonus is not None and rulings.bonus not in scenario.sides:
            raise InputError(f"auction rulings: bonus for {rulings.bonus!r}, not a bidding side [S5]")
        return rulings.to_json()

    _KEYS = frozenset({"round", "rounds", "coins", "points", "over", "winners"})

    def load_state(self, scenario: AuctionScenario, data: JSON) -> State:
        if not isinstance(data, dict) or set(data) != self._KEYS:
            raise InputError("malformed auction state")
        return dict(data)

    def dump_state(self, scenario: AuctionScenario, state: State) -> JSON:
        return state

    def load_orders(self, scenario: AuctionScenario, data: JSON) -> Orders:
        try:
            return Bid.parse(data).to_json()
        except RecordError as exc:
            raise InputError(f"auction orders: {exc.line()}") from None

    def dump_orders(self, scenario: AuctionScenario, orders: Orders) -> JSON:
        return orders

    def initial_state(self, scenario: AuctionScenario, options: JSON) -> State:
        rounds = options.get("rounds", scenario.rounds) if isinstance(options, dict) else scenario.rounds
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 1000:
            raise InputError("option rounds must be an integer 1..1000")
        return {"round": 1, "rounds": rounds, "coins": {s: scenario.coins for s in scenario.sides},
                "points": {s: 0 for s in scenario.sides}, "over": False, "winners": {}}

    def pending(self, scenario: AuctionScenario, state: State) -> list[Decision]:
        if state["over"]:
            return []
        r = state["round"]
        return [Decision(s, "sealed-orders", f"Round {r}, {s} bids [S2]", sealed=True) for s in scenario.sides]

    def skeleton(self, scenario: AuctionScenario, state: State, side: str) -> JSON:
        if state["over"]:
            raise InputError("the game is over: there is nothing to order")
        if side not in scenario.sides:
            raise InputError(f"{side} is not a side of this game")
        return {"kind": "bid", "side": side, "round": state["round"], "coins": 0}

    def normalize(self, scenario: AuctionScenario, state: State, side: str, orders: Orders) -> Orders:
        return orders

    def validate(self, scenario: AuctionScenario, state: State, side: str, orders: Orders) -> list[RuleViolation]:
        if state["over"]:
            return [RuleViolation("S4", "the game is over")]
        out: list[RuleViolation] = []
        if orders["side"] != side or side not in scenario.sides:
            out.append(RuleViolation("S2", f"a bid by {orders['side']} cannot be signed for {side}"))
            return out
        if orders["round"] != state["round"]:
            out.append(RuleViolation("S2", f"the bid is for round {orders['round']}; this is round {state['round']}"))
        held = state["coins"][side]
        if not 0 <= orders["coins"] <= held:
            out.append(RuleViolation("S2", f"{side} bids {orders['coins']} coins but holds {held}"))
        return out

    def resolve(self, scenario: AuctionScenario, state: State, side: str, orders: Orders, dice: Dice,
                checked: Checked | None = None) -> Resolution:
        raise InputError("auction bids are sealed: they are resolved together [S2]")

    def resolve_round(self, scenario: AuctionScenario, state: State, orders: dict[str, Orders], dice: Dice,
                      checked: dict[str, Checked], rulings: JSON = None) -> Resolution:
        bids = {s: orders[s]["coins"] for s in scenario.sides}
        new: State = {**state, "coins": dict(state["coins"]), "points": dict(state["points"]),
                      "winners": dict(state["winners"])}
        events: list[JSON] = [{"kind": "bids", "round": state["round"], "bids": bids}]
        new["winners"][str(state["round"])] = None
        valid = dict(bids)
        if rulings:
            events.append({"kind": "rulings", **rulings})
            for s in scenario.sides:  # [S5] bids below the reserve are void
                if valid[s] < rulings["reserve"]:
                    valid[s] = 0
            if rulings["bonus"] is not None:
                new["points"][rulings["bonus"]] += 1
        top = max(valid.values())
        if top == 0:
            events.append({"kind": "no-winner", "round": state["round"]})
        else:
            tied = [s for s in scenario.sides if valid[s] == top]
            while len(tied) > 1:  # [S3] tied sides roll until one is highest
                faces = {s: dice.d6(f"S3 tie round {state['round']} {s}") for s in tied}
                events.append({"kind": "tie-roll", "rolls": faces})
                best = max(faces.values())
                tied = [s for s in tied if faces[s] == best]
            winner = tied[0]
            new["coins"][winner] -= top
            new["points"][winner] += scenario.prize
            new["winners"][str(state["round"])] = winner
            events.append({"kind": "won", "side": winner, "paid": top, "points": scenario.prize})
        if state["round"] >= state["rounds"]:
            new["over"] = True
        else:
            new["round"] = state["round"] + 1
        return Resolution(new, events)

    def score(self, scenario: AuctionScenario, state: State) -> dict[str, int]:
        return dict(state["points"])

    def outcome(self, scenario: AuctionScenario, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        ranking = sorted(scenario.sides, key=lambda s: (-state["points"][s], -state["coins"][s]))
        first = ranking[0]
        tie = len(ranking) > 1 and (state["points"][ranking[1]], state["coins"][ranking[1]]) == \
            (state["points"][first], state["coins"][first])
        winner = None if tie else first
        on_coins = not tie and len(ranking) > 1 and state["points"][ranking[1]] == state["points"][first]
        summary = (f"{winner} wins" + (" on coins left (equal points)" if on_coins else "")) if winner else "draw"
        return Outcome(winner, f"{summary} [S4]", dict(state["points"]),
                       [f"{s}: {state['points'][s]} points, {state['coins'][s]} coins" for s in ranking])

    def describe(self, scenario: AuctionScenario, state: State) -> str:
        return "game over" if state["over"] else f"round {state['round']} of {state['rounds']}"

    def describe_event(self, scenario: Any, event: JSON) -> str:
        kind = event.get("kind")
        if kind == "bids":
            return f"round {event['round']} bids: " + ", ".join(f"{s} {c}" for s, c in event["bids"].items())
        if kind == "won":
            return f"{event['side']} wins the round, pays {event['paid']} [S3]"
        if kind == "tie-roll":
            return f"tie: rolls {event['rolls']} [S3]"
        if kind == "rulings":
            bonus = f", a bonus point to {event['bonus']}" if event.get("bonus") else ""
            return f"Game Control rules: reserve {event['reserve']}{bonus} [S5]"
        return "nobody bids above the reserve [S3]"

    def presenter(self) -> Presenter[AuctionScenario, State]:
        return AuctionPresenter(self)


class HiddenAuctionRules(AuctionRules):
    """The auction with hidden holdings [S6]: the same rules, with per-side views."""

    system = "auction-hidden"
    capabilities: ClassVar[Capabilities] = Capabilities(decisions="simultaneous", information="hidden",
                                                        umpire=True)

    def load_scenario(self, data: JSON) -> AuctionScenario:
        sc = super().load_scenario(data)
        if sc.umpire is None:
            raise InputError("auction-hidden scenario: hidden holdings need an umpire [S6]")
        return sc

    def view(self, scenario: AuctionScenario, state: JSON, side: str | None) -> JSON:
        """Of the state's form, holding only ``side``'s own coins and points [S6] (the umpire, or
        anyone once the game is over, sees everything)."""
        if side is None or side == scenario.umpire or state["over"]:
            return state
        return {**state, "coins": {side: state["coins"][side]}, "points": {side: state["points"][side]}}

    def load_state(self, scenario: AuctionScenario, data: JSON) -> State:
        return super().load_state(scenario, data)


class AuctionPresenter(Presenter[AuctionScenario, State]):
    def describe_orders(self, scenario: AuctionScenario, orders: JSON) -> list[str]:
        if not isinstance(orders, dict):
            return []
        return [f"{orders.get('side')} bids {orders.get('coins')} coins in round {orders.get('round')} [S2]"]

    def bot_orders(self, scenario: AuctionScenario, state: State, side: str, *, seed: int = 0) -> JSON:
        """Bid a share of what is left, more in the last round."""
        skeleton: dict[str, Any] = self.ruleset.skeleton(scenario, state, side)
        left = state["rounds"] - state["round"] + 1
        skeleton["coins"] = state["coins"][side] // left
        return skeleton
