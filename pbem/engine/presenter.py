"""How a rules system is shown to people: the one interface the CLI, the mail and the log use.

A :class:`Presenter` belongs to a rules system and is handed out by its ruleset
(:meth:`pbem.engine.ruleset.Ruleset.presenter`, imported lazily so that the rules never import
presentation). The commands ask it -- never a system's own modules -- for:

* :meth:`map_view` -- the map after a step, as a system-neutral view the renderer draws;
* :meth:`narrate` -- a step's events in plain words, citing rule cases (``pbem log``, the email);
* :meth:`describe_orders` -- a move's orders in words;
* :meth:`parse_text_orders` -- orders written as text ("move 1/501 to 1418") into the JSON document;
* :meth:`bot_orders` -- the sparring bot's orders for a pending decision.

A new game gets ``pbem log``, text orders and ``pbem bot`` by implementing these; what it does not
offer raises an :class:`InputError` that says so. Every method is declared here (nothing is found
with ``getattr``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pbem.errors import InputError

if TYPE_CHECKING:
    from pbem.engine.ruleset import Ruleset
    from pbem.maps.view import MapView

JSON = Any

ScenarioT = TypeVar("ScenarioT")
StateT = TypeVar("StateT")


class Presenter(Generic[ScenarioT, StateT]):
    """The plain presenter every system has: events through the ruleset's ``describe_event``,
    no map, no email drafts, no text orders, no bot.

    Generic over its ruleset's scenario and state types (``Presenter[Scenario, State]``, handed out
    by ``Ruleset[Scenario, State, Orders].presenter()``), so the type checker holds every
    ``scenario`` argument to the system's own."""

    has_map: bool = False
    """Whether :meth:`map_view` draws maps (then pbem writes ``map-NNNN.svg`` for every turn)."""
    writes_mail: bool = False
    """Whether pbem drafts the emails of this system's games (invitation, join, each move)."""

    def __init__(self, ruleset: Ruleset[ScenarioT, StateT, Any]) -> None:
        self.ruleset = ruleset

    # -- words for people -------------------------------------------------------------------------
    def side_name(self, scenario: ScenarioT, side: str) -> str:
        """A side as players call it (the scenario's ``sides[].name`` when it has one)."""
        for s in getattr(scenario, "sides", None) or []:
            if getattr(s, "id", None) == side:
                return str(getattr(s, "name", "") or side)
        return side

    def title(self, scenario: ScenarioT) -> str:
        return str(getattr(scenario, "title", "") or getattr(scenario, "id", ""))

    def about(self, scenario: ScenarioT) -> str:
        """One line about the scenario for an invitation (length, who moves first)."""
        return self.title(scenario)

    def subtitle(self, scenario: ScenarioT, turn_state: JSON, step: int, mover: str | None) -> str:
        """Where a step leaves the game, for a map's header (``turn_state``: the turn file's dumped
        state, JSON: the map of a step is drawn from the turn file read from disk, and loading it
        for a header line would cost a parse per map drawn)."""
        after = f" · after {self.side_name(scenario, mover)}'s move" if mover else ""
        return f"step {step}{after}"

    def standing(self, scenario: ScenarioT, turn_state: JSON) -> str | None:
        """Where a game stands for victory, in words, for the email of each move; None (the
        default): the email shows the turn file's score as victory points. ``turn_state``: the turn
        file's dumped state (JSON: the email of a move is drafted from the turn file on disk)."""
        return None

    def game_turn(self, scenario: ScenarioT, turn_state: JSON) -> int | None:
        """The game-turn a state is in (email subjects say ``T3``), if the system counts them
        (``turn_state``: the turn file's dumped state, JSON, as for :meth:`standing`)."""
        return None

    @property
    def system(self) -> str:
        return self.ruleset.system

    def narrate(self, scenario: ScenarioT, events: Sequence[JSON], rolls: Sequence[Mapping[str, Any]] = (),
                *, state: StateT | JSON = None) -> list[str]:
        """The events of a step in words, one line each (``state``: the state after the step -- the
        ruleset's own object where the caller holds it, a :class:`~pbem.engine.steps.StepRecord`'s
        ``state``; the turn file's dumped state, JSON, where only the file is at hand (the email of
        a move drafted from the turn on disk) or where the machine holds no state (hidden
        information); ``rolls``: the turn file's roll log, told in a closing line)."""
        import json

        lines = []
        for ev in events:
            try:
                text = self.ruleset.describe_event(scenario, ev)
            except Exception:  # a describer must never hide the event itself
                text = json.dumps(ev, sort_keys=True, ensure_ascii=False)
            lines.append(text)
        if rolls:
            told = [f"{r.get('label', '?')}: {r.get('value', '?')}" for r in rolls]
            lines.append(f"Dice rolled ({len(told)}): " + "; ".join(told)
                         + " -- pbem verify re-derives every one")
        return lines

    def map_view(self, scenario: ScenarioT, shown: StateT | JSON, events: Sequence[JSON], *, subtitle: str = "",
                 side: str | None = None, score: Mapping[str, int] | None = None,
                 header_lines: Sequence[str] = ()) -> MapView | None:
        """The map after a step as a system-neutral :class:`~pbem.maps.view.MapView` (drawn by
        :func:`pbem.render.svg.draw`), or None for a system without a map. ``shown``: what the
        map shows -- the state as the ruleset's own object where the caller holds it (Game
        Control's master map, the map of a unit's reach); else JSON: the turn file's dumped state
        (a step's map is drawn from the turn file read from disk, and loading it would cost a parse
        per map drawn) or a side's view of a game with hidden information (JSON by design)."""
        return None

    def describe_orders(self, scenario: ScenarioT, orders: JSON) -> list[str]:
        """A move's orders in words; empty when the system has no wording (the log then shows
        the JSON)."""
        return []

    def reach_view(self, scenario: ScenarioT, state: StateT, unit: str) -> MapView | None:
        """The map with the hexes ``unit`` can reach shaded (``pbem reach --map``), or None for a
        system without a map or movement."""
        return None

    zoc_case: str = ""
    """The rule case of zones of control, cited in the legend of ``pbem render --zoc``."""

    def zones_of_control(self, scenario: ScenarioT, turn_state: JSON, side: str) -> list[Any] | None:
        """The hexes ``side``'s zones of control cover (``pbem render --zoc``), or None for a
        system without them (``turn_state``: the turn file's dumped state, JSON, as the map the
        zones shade is drawn from)."""
        return None

    def draft_line(self, verb: str, line: str) -> str:
        """The text-order line ``pbem draft VERB`` adds (``line``: the verb's line in the form of
        the WestWall text orders, e.g. ``move 1/501 to 1418``), in this system's own form; a system
        with another form translates it or raises :class:`pbem.errors.InputError` naming the form
        ``pbem draft order`` takes [27]."""
        return line

    def describe_move(self, scenario: ScenarioT, orders: JSON, *, umpire: bool = False,
                      state: StateT | None = None) -> list[str]:
        """A signed move's orders in words, sealed rounds included (:mod:`pbem.engine.sealed`): a
        commitment says only that orders were sealed; a reveal shows the orders it opens; the
        umpire's (``umpire``) sealed rulings and the orders it voids say so. With the ``state`` the
        orders answered (the turn before the move), plain orders read as the author's preview read
        them (:meth:`describe_orders_at`: a landing as a landing), so the opponent's ``pbem ingest``,
        ``pbem log`` and the email say what the author was shown [27]."""
        from pbem.engine.sealed import parse_commit, parse_reveal, split_void

        if umpire and isinstance(orders, dict):
            try:
                ruled, void = split_void(orders)
            except ValueError:
                ruled, void = orders, {}
            out = [f"voids {side}'s orders this round: the key of its sealed copy is published, the proof "
                   "that the copy does not hold what it committed to [29]" for side in sorted(void)]
            sealed = parse_commit(ruled, umpire=True)
            if sealed is not None:
                return [f"seals its rulings (commitment {sealed[:16]}…): nobody else can read them until the "
                        "publication after the game [P9, P10]", *out]
            if out:
                return [*self.describe_move(scenario, ruled, state=state), *out]
        sealed = parse_commit(orders)
        if sealed is not None:
            return [f"seals its orders (commitment {sealed[:16]}…): nobody can read them until "
                    "every side has committed [P8]"]
        sealed = parse_commit(orders, umpire=True)
        if sealed is not None:
            return [f"seals its orders (commitment {sealed[:16]}…), readable by the umpire alone [P8]"]
        sealed = parse_commit(orders, umpire=True, keyed=True)
        if sealed is not None:
            return [f"seals its orders (commitment {sealed[:16]}…), readable by the umpire alone once this "
                    "side acknowledges every commitment [P8]"]
        from pbem.engine.sealed import HIDDEN_REVEAL, parse_ack

        for umpire in (False, True):
            if parse_ack(orders, umpire=umpire) is not None:
                return ["acknowledges the commitments it holds (the same set as every side's, or the round "
                        "stops before any reveal)" + ("; releases its copy's key to the umpire" if umpire else "")
                        + " [P8]"]

        if orders == HIDDEN_REVEAL:
            return ["reveals: its chain value keys the round's dice; its orders stay sealed to the "
                    "umpire until the publication [P10]"]
        if isinstance(orders, dict) and set(orders) == {"report"} and isinstance(orders["report"], dict):
            rep = orders["report"]
            return [f"the umpire reports: state {str(rep.get('state'))[:16]}…, a view sealed to each of "
                    f"{', '.join(sorted(rep.get('views', {})))} [P10]"]
        if isinstance(orders, dict) and set(orders) == {"rulings"}:
            import json

            return ["the umpire rules, before any reveal [P9]: "
                    + json.dumps(orders["rulings"], sort_keys=True, ensure_ascii=False)[:200]]
        opened = parse_reveal(orders)
        if opened is not None:
            return ["reveals the orders it sealed:", *self.describe_orders(scenario, opened[0])]
        if state is not None:
            return self.describe_orders_at(scenario, state, orders)
        return self.describe_orders(scenario, orders)

    def describe_orders_at(self, scenario: ScenarioT, state: StateT, orders: JSON) -> list[str]:
        """:meth:`describe_orders` for the preview, which knows the state the orders answer (a
        system may then say more: a reinforcement's move as its entry, a landing as a landing).
        The default is :meth:`describe_orders`."""
        return self.describe_orders(scenario, orders)

    def cut_off(self, scenario: ScenarioT, state: StateT) -> list[str]:
        """Every unit out of supply or without a line of communication in ``state``, one line each
        with the enemy units or hex that cut it (``pbem status``) [27]. Worked out from this state
        alone, so it costs the same at any step. Empty by default (no supply rules)."""
        return []

    def score_meaning(self, scenario: ScenarioT) -> dict[str, str]:
        """Side -> what the number ``pbem status`` shows as its score counts, where it is not plain
        victory points (shown under the score line) [27]. Empty by default."""
        return {}

    def expected(self, scenario: ScenarioT, state: StateT, side: str, orders: JSON) -> list[str]:
        """What the rules will make of orders about to be signed before any die is rolled, in
        words (the preview's "Before any die is rolled"): each attack's strengths, odds or
        differential and the table column it is rolled on, computed by the rules' own code [27].
        Empty by default."""
        return []

    def describe_secret_notes(self, scenario: ScenarioT, document: JSON) -> list[str]:
        """What the secret notes of orders about to be signed hold (``document``: the orders as the
        player wrote them, before :meth:`Ruleset.conceal` seals the notes), in words for the
        preview on the author's own machine: the signed orders hold only commitments, and the
        author must see what they commit to (e.g. each drop zone's hex and Game-Turn) [27]."""
        return []

    def undone(self, scenario: ScenarioT, state: StateT, side: str, orders: JSON) -> list[str]:
        """What these orders leave undone that a player may not mean to (shown before signing):
        reinforcements that stay off the map, attacks without an advance, and the like."""
        return []

    def text_skeleton(self, scenario: ScenarioT, state: StateT, side: str) -> JSON:
        """What text orders start from: the ruleset's skeleton, less any choice it makes for the
        player (override; :meth:`with_defaults` makes them for what the orders leave out)."""
        return self.ruleset.skeleton(scenario, state, side)

    def with_defaults(self, scenario: ScenarioT, state: StateT, side: str, orders: JSON) -> JSON:
        """``--defaults``: text ``orders`` with what they leave out chosen as the skeleton would,
        around what they say (override with :meth:`text_skeleton`); here unchanged."""
        return orders

    def left_to_defaults(self, scenario: ScenarioT, state: StateT, side: str, orders: JSON) -> list[str]:
        """The units text ``orders`` leave out that ``--defaults`` would place where the skeleton
        does (see :meth:`text_skeleton`): named when the orders are refused, with the flag."""
        return []

    def orders_template(self, scenario: ScenarioT, state: StateT, side: str) -> str | None:
        """A text orders file to start from for ``side``'s pending decision (``pbem orders
        --text``, an empty ``pbem draft``): what may be ordered now and an example of each order,
        every line a comment, so that the file unedited reads as the skeleton (a pass where the
        rules allow one). None: the system has no text orders (the default)."""
        return None

    def roster(self, scenario: ScenarioT, state: StateT, side: str) -> tuple[list[str], list[list[str]]]:
        """``pbem units``: a header and one row per unit of ``side`` (the id as typed in orders
        first), reinforcements and units off the map included."""
        raise InputError(f"the {self.system} system has no roster yet")

    def unit_side(self, scenario: ScenarioT, unit: str) -> str | None:
        """The side ``unit`` belongs to (with hidden information, whose view ``pbem reach`` opens),
        or None when the system does not say."""
        return None

    def reach(self, scenario: ScenarioT, state: StateT, unit: str) -> list[str]:
        """``pbem reach``: every hex ``unit`` can reach this phase (with its cost) and why the
        hexes next to it that it cannot enter are closed, one line each."""
        raise InputError(f"the {self.system} system cannot list where a unit can go yet")

    def parse_text_orders(self, scenario: ScenarioT, skeleton: JSON, side: str, text: str) -> JSON:
        """Text orders read against the pending decision's skeleton, as the JSON document."""
        raise InputError(f"the {self.system} system has no text orders: write the orders as JSON "
                         "('pbem orders GAME --side SIDE' prints a skeleton)")

    def read_text_orders(self, scenario: ScenarioT, skeleton: JSON, side: str, text: str) -> JSON:
        """Text orders as the JSON document (every caller reads text through here): the system's
        :meth:`parse_text_orders`, except that a text whose one order line is ``pass`` means
        the decision's skeleton -- no orders -- in a system that has no ``pass`` order of its own.
        An empty text reads as the skeleton too, but ``pbem submit`` refuses an empty draft, so that
        signing nothing is always said on purpose [27]."""
        if not pass_only(text):
            return self.parse_text_orders(scenario, skeleton, side, text)
        try:
            return self.parse_text_orders(scenario, skeleton, side, text)
        except InputError:  # no 'pass' in this system's orders: the skeleton is what it means
            return self.parse_text_orders(scenario, skeleton, side, "")

    def describe_view(self, scenario: ScenarioT, view: JSON) -> list[str]:
        """A side's view of a game with hidden information in lines a player reads (``pbem status``,
        ``pbem log``); the default is its JSON on one line, cut short."""
        import json

        return [json.dumps(view, sort_keys=True, ensure_ascii=False)[:400]]

    def describe_round(self, scenario: ScenarioT, state: StateT, orders: Mapping[str, JSON],
                       rulings: JSON = None) -> list[str]:
        """What the umpire should see before ruling on a sealed round (``pbem rule``), besides
        every side's orders: e.g. the grouping of combats the engine will propose, and whatever in
        ``rulings`` (the ones about to be signed) will not apply. None by default."""
        return []

    def bot_orders(self, scenario: ScenarioT, state: StateT, side: str, *, seed: int = 0) -> JSON:
        """The sparring bot's orders for ``side``'s pending decision."""
        raise InputError(f"there is no sparring bot for the {self.system} system")


def order_lines(text: str) -> list[str]:
    """The lines of text orders that hold an order (without comments and blanks)."""
    return [line for line in (raw.split("#", 1)[0].strip() for raw in text.splitlines()) if line]


def pass_only(text: str) -> bool:
    """Whether the text's one order line is ``pass`` (:meth:`Presenter.read_text_orders`)."""
    lines = order_lines(text)
    return len(lines) == 1 and lines[0].lower() == "pass"
