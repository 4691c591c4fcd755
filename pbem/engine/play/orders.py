"""Building a move: whose decision it is, the state its orders are written against, the orders
checked and normalised, the body signed, and the preview of what would be signed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import Any

# pbem.protocol.seal (cryptography's HPKE: ~100 ms to import, measured with python -X importtime)
# is imported inside the functions of hidden information, so games without it never load it.
from pbem import __version__
from pbem.engine.gamedir import Game
from pbem.engine.play.views import view_state
from pbem.engine.replay import Replay
from pbem.errors import IllegalOrders, InputError
from pbem.plain import Plain
from pbem.protocol import archive
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.dice import reveal
from pbem.protocol.dsse import MOVE_TYPE, envelope_bytes, sign
from pbem.protocol.localstate import LocalGame, private_key

OrdersSource = Callable[[Any, str], Any]
"""``(state, side) -> orders document (JSON)``: JSON as written, or text orders read against the
decision they answer."""


def current_decision(rp: Replay) -> Any:
    """The decision the game waits for now, or an :class:`InputError` saying why there is none."""
    if not rp.records:
        raise InputError(f"the game has not started: waiting for {rp.waiting}")
    if rp.tail_open:
        raise InputError(f"step {rp.placed_count} is not resolved yet: waiting for {rp.waiting}")
    if not rp.current.pending:
        raise InputError("the game is over; the archive is closed")
    return rp.current.pending[0]


def check_owner(decision: Any, *, side: str | None = None, key_name: str | None = None,
                mine: list[str] | None = None, hint: str = "") -> None:
    """The one check that a decision is ours to make: ``side``'s (when given), and one of the sides
    ``mine`` that ``key_name`` plays (when given); else an :class:`InputError` naming whose it is."""
    if mine is not None and decision.side not in mine:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}); key {key_name} "
                         f"plays {', '.join(mine) or 'no side of this game'}{hint}")
    if side is not None and side != decision.side:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}), not {side}'s")


def my_sealed_side(rp: Replay, rnd: Any, my_sides: list[str]) -> str | None:
    """The side of ``my_sides`` that owes this phase's message and has not sent it (held moves
    included), or ``None`` when every one of them has."""
    for side in rnd.owed():
        if side in my_sides and rnd.slot(side) not in rp.held:
            return str(side)
    return None


def refuse_umpire(rp: Replay, sides: list[str], what: str = "signs no orders of its own") -> None:
    """An :class:`InputError` when ``sides`` are only the umpire's: in a sealed round Game Control
    commits, acknowledges and reveals nothing; it rules, reports and, after the game, publishes."""
    rnd = rp.current.round if rp.records else None
    if rnd is not None and rnd.umpire is not None and sides and set(sides) <= {rnd.umpire}:
        raise InputError(f"{rnd.umpire} is the umpire: it {what}; it rules ('pbem rule'), reports "
                         f"('pbem report') and after the game publishes ('pbem publish'); waiting for "
                         f"{rp.waiting}")


def owed_by(game: Game, rp: Replay, sides: list[str]) -> Any:
    """The decision one of ``sides`` owes now (sealed rounds: several sides owe one at once;
    a message of ours already held for its slot counts as sent), or an :class:`InputError`."""
    decision = current_decision(rp)
    rnd = rp.current.round
    if rnd is None:
        return decision
    side = my_sealed_side(rp, rnd, sides)
    if side is not None:
        return next(d for d in rp.current.pending if d.side == side)
    mine = [d.side for d in rp.current.pending if d.side in sides]
    if mine:
        raise InputError(f"{', '.join(mine)} has sent its {rnd.phase} message for this round already; "
                         f"waiting for {rp.waiting}")
    raise InputError(f"nothing is owed by {', '.join(sides) or 'this key'} now: waiting for {rp.waiting}")


def decision_of(game: Game, rp: Replay, side: str | None, mine: list[str], key_name: str | None = None) -> Any:
    """The decision ``side`` (default: a side of ``mine``, the sides this machine plays) owes now,
    for a command that writes orders for it (a draft, a draft signed): in a sealed round every side
    owes its own at once, so the first pending decision is not the machine's; otherwise the one
    pending decision, which must be ``side``'s (when given) and one of ``mine``."""
    decision = current_decision(rp)
    if rp.current.round is not None or decision.sealed:
        if side is not None and side not in mine:
            raise InputError(f"this machine does not play {side} (it plays {', '.join(sorted(mine)) or 'no side'})")
        refuse_umpire(rp, [side] if side is not None else mine)
        rnd = rp.current.round
        if rnd is not None and rnd.phase != "commit":
            raise InputError(f"the orders of this round are committed ({rnd.phase} phase): waiting for "
                             f"{rp.waiting}")
        return owed_by(game, rp, [side] if side is not None else mine)
    if key_name is not None:  # the key's sides
        check_owner(decision, side=side, key_name=key_name, mine=mine)
        return decision
    who = side or decision.side
    if who not in mine:
        raise InputError(f"this machine does not play {who} (it plays {', '.join(sorted(mine)) or 'no side'})")
    check_owner(decision, side=who)
    return decision


def state_for(game: Game, rp: Replay, side: str, key_name: str | None) -> Any:
    """The state ``side``'s orders are written and checked against: the current one, or with
    hidden information the side's own view (its key needed to open it)."""
    state = rp.current.state
    if state is None:
        mine: dict[str, str] = {}
        if key_name is None:
            mine = LocalGame.of(game).sides()
            key_name = mine.get(side)
        if key_name is None:
            plays = f"it plays {', '.join(sorted(mine))}" if mine else "it plays no side of this game"
            raise InputError(f"{side}'s view is hidden from this machine ({plays}): only {side}'s own pbem, "
                             "with its key, opens it [P10]")
        state = view_state(game, rp, side, key_name)
    return state


def prepare_orders(game: Game, state: Any, side: str, document: Any) -> Any:
    """Parse, normalise and check ``side``'s orders against ``state``; returns the JSON
    that will be signed. :class:`IllegalOrders` lists every violation."""
    rules, sc = game.ruleset, game.scenario
    parsed = rules.normalize(sc, state, side, rules.load_orders(sc, document))
    if rules.uses_secret_notes(sc):
        parsed = rules.conceal(sc, state, side, parsed, _notes_secret(game, side))
    violations = rules.validate(sc, state, side, parsed)
    if violations:
        raise IllegalOrders(violations)
    return rules.dump_orders(sc, parsed)


def own_state(game: Game, state: Any, side: str) -> Any:
    """``state`` as ``side``'s own next orders will find it, on this machine, for the words it reads
    (``pbem units``, ``pbem orders --text``, a draft's template): with the secret notes its key
    opens (:meth:`~pbem.engine.ruleset.Ruleset.own_notes`: a drop zone held back says where and
    when [15.39]). Another side's, or a game without secret notes: ``state`` itself. Only for
    words: orders are checked against ``state`` [27]."""
    rules, sc = game.ruleset, game.scenario
    if state is None or not rules.uses_secret_notes(sc):
        return state
    secret = _notes_secret(game, side)
    return state if secret is None else rules.own_notes(sc, state, side, secret)


def _notes_secret(game: Game, side: str) -> bytes | None:
    """``side``'s secret for its sealed notes, when this machine holds its key (else ``None``)."""
    from pbem.protocol.seal import notes_secret

    key_name = LocalGame.of(game).sides().get(side)
    if key_name is None:
        return None
    return notes_secret(private_key(key_name), game.id, side)


def move_body(game: Game, rp: Replay, side: str, orders: Any, seed: bytes) -> dict[str, Any]:
    """The body of ``side``'s next move: placed at the next step, answering the current turn,
    revealing the side's next chain value."""

    j = rp.next_reveal_index(side)
    if j > game.chain_length:
        raise InputError(f"{side}'s dice chain is exhausted ({game.chain_length} reveals); "
                         "start with a longer chain_length")
    return {
        "ds": archive.MOVE_DS,
        "game": game.id,
        "step": rp.next_step,
        "side": side,
        "answers": rp.current.turn_hash,
        "reveal": reveal(seed, game.chain_length, j).hex(),
        "orders": orders,
        "pbem": __version__,
    }


def sign_move(body: dict[str, Any], private_key: Any) -> bytes:
    return envelope_bytes(sign(canonical_bytes(body), MOVE_TYPE, [private_key]))


class Preview(Plain):
    """Exactly what would be signed, in the game's words (``pbem check``, ``submit --dry-run``, and
    what ``submit`` shows before it asks)."""

    side: str
    step: int
    label: str
    orders: Any
    """The JSON document that would be signed (defaults filled in)."""
    lines: list[str]
    """Every order in words."""
    undone: list[str]
    """What the orders leave undone."""
    expected: list[str] = field(default_factory=list)
    """What the rules will make of them before any die is rolled (e.g. each attack's strengths,
    table line and column) [27]."""
    then: list[str] = field(default_factory=list)
    """What signing them leads to: when their dice are rolled, and who sees the results first [P3]."""

    def text(self) -> str:
        out = [f"Step {self.step}: {self.label} -- what would be signed for {self.side}:"]
        out += [f"  . {line}" for line in self.lines] or ["  . (no orders)"]
        if self.expected:
            out.append("Before any die is rolled:")
            out += [f"  = {line}" for line in self.expected]
        if self.undone:
            out.append("Left undone:")
            out += [f"  - {line}" for line in self.undone]
        if self.then:
            out.append("Once signed:")
            out += [f"  > {line}" for line in self.then]
        return "\n".join(out)


def preview(game: Game, rp: Replay, side: str, document: Any, *, key_name: str | None = None) -> Preview:
    """The orders ``side`` would sign now, checked (:class:`IllegalOrders` lists every violation)
    and described."""
    refuse_umpire(rp, [side])
    decision = owed_by(game, rp, [side])
    state = state_for(game, rp, side, key_name)
    orders = prepare_orders(game, state, side, document)
    presenter = game.ruleset.presenter()
    rnd = rp.current.round
    step = rnd.slot(side) if rnd is not None else rp.next_step
    label = decision.label + (" -- sealed: only a commitment is signed now" if rnd is not None else "")
    lines = presenter.describe_orders_at(game.scenario, state, orders)
    if game.ruleset.uses_secret_notes(game.scenario):  # what the sealed notes hold: said here only
        lines += presenter.describe_secret_notes(game.scenario, document)
    # what is left undone, as these orders will find the game: with the notes they reveal (a drop zone
    # placed now, its division due now) [15.39, 27]
    seen = own_state(game, state, side)
    then = []
    if rnd is None and decision.random and decision.revealer not in (None, side):
        # protocol.md, "When a roll becomes known": the co-revealer's next reveal keys these dice
        co = decision.revealer
        if rp.local_seeds.get(co) is not None:  # hot seat: its next reveal is known here
            then.append(f"{co} is played here too: any die these orders roll is rolled as you sign them [P3]")
        else:
            then.append(f"any die these orders roll is keyed by {co}'s next reveal: {co}'s pbem rolls it on taking "
                        f"in your move, and yours when {co}'s next message (or a receipt) arrives [P3]")
    return Preview(side, step, label, orders, lines, presenter.undone(game.scenario, seen, side, orders),
                   presenter.expected(game.scenario, state, side, orders), then)


Confirm = Callable[[Preview], bool]
"""Asked with what would be signed, before anything is signed; False: sign nothing."""
