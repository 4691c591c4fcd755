"""Signing and placing a side's orders (``pbem submit``, and the bots), sealed commitments
included, and taking back a move never sent (``pbem retract``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from pbem import __version__
from pbem.engine.gamedir import Game
from pbem.engine.play.orders import (
    Confirm,
    OrdersSource,
    Preview,
    check_owner,
    current_decision,
    move_body,
    my_sealed_side,
    prepare_orders,
    preview,
    refuse_umpire,
    sign_move,
)
from pbem.engine.play.views import view_state
from pbem.engine.replay import Replay, run_move_outputs

# pbem.protocol.seal (cryptography's HPKE: ~100 ms to import, measured with python -X importtime)
# is imported inside the functions of hidden information, so games without it never load it.
from pbem.engine.sealed import commit_orders, commitment, copy_key, derive_salt, key_hash, seal_copy
from pbem.errors import ArchiveError, InputError, PbemError
from pbem.plain import Plain
from pbem.protocol import archive, names
from pbem.protocol.archive import Message
from pbem.protocol.canonical import canonical_bytes, sha256_hex
from pbem.protocol.dice import reveal
from pbem.protocol.fsutil import kept
from pbem.protocol.keys import KeyStore
from pbem.protocol.localstate import LocalGame, local_seeds, private_key, seed_for


class Submitted(Plain):
    replay: Replay
    written: list[Path] = field(default_factory=list)
    move: Message | None = None
    """The move signed (or re-sent from the P7 record) for this call."""
    already: str | None = None
    """Set when these orders were archived before: the name of that move file."""


def open_as(game: Game, key_name: str) -> tuple[list[str], Any, dict[str, bytes], Replay, Submitted]:
    """The sides ``key_name`` plays here, this machine's state of the game, its seeds (a lost one
    re-derived), and a replay that has finished anything a crash left behind."""

    info = KeyStore().info(key_name)
    my_sides = game.side_of_fingerprint(info.fingerprint)
    if not my_sides:
        raise InputError(f"key {key_name} ({info.fingerprint}) plays no side in this game")
    local = LocalGame.of(game)
    for side in my_sides:
        if game.commitment(side) is not None:
            seed_for(game, local, side, key_name, derive=True)
    seeds = local_seeds(game, local)
    rp = game.replay(seeds, local=local)
    with kept():  # finish what a crash left behind, kept even if this command is refused later
        written = rp.write()
    return my_sides, local, seeds, rp, Submitted(rp, written)


def submit(game: Game, orders: OrdersSource, key_name: str, *, confirm: Confirm | None = None) -> Submitted:
    """Sign and place the orders of the side ``key_name`` plays whose decision is pending.

    ``confirm`` is asked with the :class:`Preview` of what would be signed before anything is
    signed (not when the same bytes were signed before and are only re-sent). Re-submitting orders
    already archived signs nothing (and finishes any output a crash left undone); orders different
    from a move already signed for this step are refused [P7]."""
    my_sides, local, seeds, rp, result = open_as(game, key_name)

    # the same orders re-submitted after they were archived: nothing new to sign
    last = next((m for m in reversed(rp.recent_moves()) if m.body.side in my_sides), None)
    sealed_now = rp.records and not rp.tail_open and rp.current.round is not None
    before = rp.record(last.body.step - 1) if last is not None and not sealed_now else None
    # ... unless they are a sound move for a decision of ours that is pending now (one side may
    # decide twice in a row, e.g. a set-up then a first activation: the same text can mean both)
    fits_now = False
    if (last is not None and rp.records and not rp.tail_open and not sealed_now and rp.current.pending
            and rp.current.pending[0].side in my_sides and rp.current.state is not None):
        side_now = rp.current.pending[0].side
        try:
            prepare_orders(game, rp.current.state, side_now, orders(rp.current.state, side_now))
            fits_now = True
        except PbemError:
            fits_now = False
    if last is not None and before is not None and before.state is not None and not fits_now:
        try:
            same = prepare_orders(game, before.state, last.body.side,
                                  orders(before.state, last.body.side)) == last.body.orders
        except PbemError:
            same = False
        if same and (rp.tail_open or not rp.current.pending or rp.current.pending[0].side not in my_sides
                     or last.body.step == rp.placed_count):
            result.already = last.name
            result.written += run_move_outputs(game, rp, last)  # e.g. the email a crash did not write
            return result

    rnd = rp.current.round if rp.records and not rp.tail_open else None
    if rnd is not None:
        return _submit_sealed(game, rp, rnd, orders, key_name, my_sides, local, seeds, confirm, result)
    decision = current_decision(rp)
    hint = ""
    if last is not None and last.body.step == rp.placed_count:
        hint = (f"; your {last.name} is signed already -- if you never sent it, "
                "'pbem retract GAME_DIR' discards it")
    check_owner(decision, key_name=key_name, mine=my_sides, hint=hint)
    side = decision.side
    shown = preview(game, rp, side, orders(rp.current.state, side))
    normalized = shown.orders
    if local.signed(rp.next_step, side, game.redo_number(rp.next_step)) is None and confirm is not None \
            and not confirm(shown):
        raise InputError("not signed: nothing was written")
    return sign_and_place(game, rp, local, side, normalized, seeds[side], key_name, result)


def sign_and_place(game: Game, rp: Replay, local: Any, side: str, orders: Any, seed: bytes, key_name: str,
                   result: Submitted | None = None) -> Submitted:
    """The end of every submit, a player's or a bot's: build the move body of ``side``'s checked
    ``orders`` (:func:`prepare_orders`), sign it with ``key_name`` (or re-use the bytes signed for
    its step before; other bytes are refused [P7]), place it in ``rp`` (every check of an archived
    move) and write; a move signed here whose file does not stay is forgotten again."""
    body = move_body(game, rp, side, orders, seed)
    return sign_body(game, rp, local, result if result is not None else Submitted(rp), body, key_name)


def sign_body(game: Game, rp: Replay, local: Any, result: Submitted, body: dict[str, Any],
              key_name: str, *, sealed: Any = None) -> Submitted:
    """Sign ``body`` (or re-use the bytes signed for its step before [P7]), place it and write.
    ``sealed``: the orders behind the commitment ``body`` signs, kept on this machine for the
    reveal -- written after the signature is made (a refused passphrase leaves nothing) and before
    the P7 record, so a commitment that may have left always has its orders here; removed with the
    record when the move file does not stay written."""

    step, side = body["step"], body["side"]
    version = game.redo_number(step)  # a redo after a take-back agreed by both has its own record
    body_bytes = canonical_bytes(body)
    if version and sha256_hex(body_bytes) in rp.withdrawn_at(step):
        raise InputError(f"these are the orders taken back at step {step}: a redo must be other orders "
                         "(nothing was signed)")
    record = local.signed(step, side, version)
    if record is not None:
        previous = archive.parse_move(record, f"local record of step {step}")
        if previous.body_bytes != body_bytes:
            raise ArchiveError(
                f"you already signed other orders for step {step} as {side} (body sha256 "
                f"{previous.body_hash[:16]}…); pbem never signs two different moves for one step [P7]. "
                f"Re-send the move you signed: {local._record_path(step, side, version)}"
            )
        if sealed is not None:  # the same commitment: its orders, should this machine have lost them
            local.save_sealed(step, side, sealed)
        return place_signed(game, rp, local, result, record, step, side, fresh=False)
    env_bytes = sign_move(body, private_key(key_name))
    # no P7 record of this step: sealed orders kept here belong to no signature (unsigned=True)
    undo_sealed = local.save_sealed(step, side, sealed, unsigned=True) if sealed is not None else None
    try:
        local.record_signed(step, side, env_bytes, version)
    except PbemError:  # nothing was signed for keeps: the sealed orders go again
        _quietly(undo_sealed)
        raise
    return place_signed(game, rp, local, result, env_bytes, step, side, fresh=True, undo=undo_sealed)


def _quietly(undo: Callable[[], None] | None) -> None:
    """Run a clean-up inside an error's handler: a disk that refuses it does not hide that error."""
    if undo is not None:
        with contextlib.suppress(OSError, PbemError):
            undo()


def place_signed(game: Game, rp: Replay, local: Any, result: Submitted, env_bytes: bytes, step: int,
                  side: str, *, fresh: bool, undo: Callable[[], None] | None = None) -> Submitted:
    """Place signed envelope bytes as this machine's move and write (``fresh``: signed by this
    very call, so its P7 record goes if its file does not stay, and ``undo`` is run: it removes
    the sealed orders the call kept for the commitment)."""
    msg = archive.parse_move(env_bytes, game.move_file(step, side))
    result.move = msg
    try:
        rp.add_move(msg, authored=True)
        result.written += rp.write()
    except PbemError:
        # signed by this very call, and its file is not staying: it never left this machine
        if fresh and local.forget_unsent(step, side, game.path(msg.name), game.redo_number(step)):
            _quietly(undo)
        raise
    return result


def sealed_body(game: Game, rp: Replay, side: str, step: int, answers: str, orders: Any,
                 seed: bytes) -> dict[str, Any]:

    j = rp.next_reveal_index(side)
    if j > game.chain_length:
        raise InputError(f"{side}'s dice chain is exhausted ({game.chain_length} reveals)")
    return {"ds": archive.MOVE_DS, "game": game.id, "step": step, "side": side, "answers": answers,
            "reveal": reveal(seed, game.chain_length, j).hex(), "orders": orders, "pbem": __version__}


def _submit_sealed(game: Game, rp: Replay, rnd: Any, orders: OrdersSource, key_name: str,
                   my_sides: list[str], local: Any, seeds: dict[str, bytes], confirm: Confirm | None,
                   result: Submitted) -> Submitted:
    """Commit to sealed orders: only their hash (with a secret salt) is signed and sent now; the
    orders stay on this machine until every side has committed (``pbem reveal``) [P8]."""

    refuse_umpire(rp, my_sides)
    if rnd.phase in ("ack", "reveal"):
        raise InputError("every side has committed its sealed orders: " + (
            "acknowledge the commitments" if rnd.phase == "ack" else "reveal yours") +
            " with 'pbem reveal GAME_DIR --key KEY' (orders cannot change now) [P8]")
    side = my_sealed_side(rp, rnd, my_sides)
    if side is None:
        raise InputError(f"your sealed orders for this round are committed already; waiting for "
                         f"{rp.waiting} [P8]")
    step = rnd.slot(side)
    state = rp.current.state
    if state is None:  # hidden information: what this side may see, from the umpire's last report
        state = view_state(game, rp, side, key_name)
    orders_json = prepare_orders(game, state, side, orders(state, side))
    presenter = game.ruleset.presenter()
    label = rnd.labels[rnd.sides.index(side)]
    shown = Preview(side, step, f"{label} -- sealed: only a commitment is sent now", orders_json,
                    presenter.describe_orders(game.scenario, orders_json),
                    presenter.undone(game.scenario, state, side, orders_json))
    if local.signed(step, side) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    salt = derive_salt(seeds[side], game.id, step, side)
    kept = local.sealed(step, side)
    recorded = local.signed(step, side)
    # orders kept without a P7 record were never signed (a process killed between the two writes)
    if recorded is not None and kept is not None and kept != orders_json:
        raise ArchiveError(f"you already committed other sealed orders for step {step} as {side}; "
                           "a commitment fixes them [P7]")
    if recorded is not None and kept == orders_json:  # re-send exactly what was signed [P7]
        return place_signed(game, rp, local, result, recorded, step, side, fresh=False)
    for_umpire = None
    signed_orders: dict[str, str]
    copy = {"orders": orders_json, "salt": salt.hex()}
    pad = game.ruleset.sealed_size(game.scenario, side)
    if rnd.umpire is not None and rnd.acks:
        # only the umpire can read them, and only once this side acknowledges every commitment:
        # the copy is sealed under a key of its own, released in the acknowledgement [P8, 29]
        key = copy_key(seeds[side], game.id, step, side)
        signed_orders = {**commit_orders(commitment(orders_json, salt),
                                         seal_copy(copy, key, game=game.id, step=step, side=side, pad_to=pad)),
                         "key": key_hash(key)}
    else:
        if rnd.umpire is not None:  # only the umpire can read them before the reveal [P8, P9]
            from pbem.protocol.seal import seal

            for_umpire = seal(copy, game.x25519(rnd.umpire), game=game.id, step=step, sender=side,
                              to=rnd.umpire, what="sealed orders", pad_to=pad)
        signed_orders = commit_orders(commitment(orders_json, salt), for_umpire)
    body = sealed_body(game, rp, side, step, rnd.base_turn, signed_orders, seeds[side])
    return sign_body(game, rp, local, result, body, key_name, sealed=orders_json)


def retractable(game: Game) -> Message:
    """The newest move of the game, when it was signed on this machine (only its author may take
    it back, and only the newest: later turns depend on it); otherwise :class:`InputError`."""

    if not game.listing.moves:
        raise InputError("no move to retract: the game has none yet")
    step = max(game.listing.moves)
    path = game.listing.moves[step]
    msg = game.moves[step]
    local = LocalGame.of(game)
    record = local.signed(step, msg.body.side, game.redo_number(step))
    if record is None or archive.parse_move(record, path.name).body_hash != msg.body_hash:
        raise InputError(f"{path.name} was not signed on this machine: only its author can retract it")
    tb = game.takebacks.get(step)
    if tb is not None and game.redo_number(step) + 1 in tb.requests:
        raise InputError(f"{path.name} was sent (you asked to take it back: "
                         f"{tb.requests[game.redo_number(step) + 1]}): only the opponent's consent undoes it")
    return msg


def retract(game: Game, msg: Message) -> list[str]:
    """Discard ``msg`` (:func:`retractable`): its move file, its email draft, the turn files and
    maps computed from it, this machine's record of the signature and its checkpoint, so that
    other orders can be signed for that step. Returns the names of the files removed."""

    step, side = msg.body.step, msg.body.side
    later = [names.turn_name(s) for s in game.listing.turns if s >= step]
    later += [names.map_name(s) for s in game.listing.turns if s >= step]
    removed: list[str] = []
    for name in [msg.name, names.mail_name(step), *later]:
        target = game.dir / name
        if target.is_file():
            target.unlink()
            removed.append(name)
    local = LocalGame.of(game)
    local.forget_signed(step, side, game.redo_number(step))
    checkpoint = local.dir / names.CHECKPOINT
    if checkpoint.is_file():
        checkpoint.unlink()  # it may name a turn just removed (it would be ignored anyway)
    return removed
