"""Sealed rounds after the commitments: acknowledgements and reveals, Game Control's rulings
and reports, and its publication after the game [P10]."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pbem.engine.gamedir import Game
from pbem.engine.play.orders import Confirm, Preview, my_sealed_side, prepare_orders, refuse_umpire
from pbem.engine.play.signing import Submitted, open_as, place_signed, sealed_body, sign_body
from pbem.engine.replay import Replay

# pbem.protocol.seal (cryptography's HPKE: ~100 ms to import, measured with python -X importtime)
# is imported inside the functions of hidden information, so games without it never load it.
from pbem.engine.sealed import (
    HIDDEN_REVEAL,
    PUBLICATION_TYPE,
    ack_orders,
    commit_orders,
    commitment,
    copy_key,
    derive_salt,
    open_sealed_key,
    open_side_copy,
    parse_commit,
    parse_rulings,
    publication_body,
    reveal_orders,
    split_void,
    void_proof,
)
from pbem.engine.steps import decision_json, outcome_json
from pbem.errors import InputError, PbemError
from pbem.protocol import names
from pbem.protocol.canonical import MAX_MOVE_BYTES, canonical_bytes
from pbem.protocol.dsse import envelope_bytes, sign
from pbem.protocol.fsutil import kept, write_new
from pbem.protocol.keys import KeyStore
from pbem.protocol.localstate import LocalGame, local_seeds, private_key, seed_for


def _umpire_phase(game: Game, key_name: str, phase: str, why: str) -> tuple[Any, Replay, Any, dict[str, bytes], Submitted]:
    """The umpire's machine at a phase of a sealed round that is the umpire's: ``(local state,
    replay, round, seeds, result so far)``; :class:`InputError` when ``key_name`` is not the
    umpire's or nothing of that phase is due."""

    if game.umpire is None:
        raise InputError("this game has no umpire")
    info = KeyStore().info(key_name)
    if game.umpire not in game.side_of_fingerprint(info.fingerprint):
        raise InputError(f"key {key_name} is not the umpire's ({game.umpire}) in this game")
    local = LocalGame.of(game)
    seed_for(game, local, game.umpire, key_name, derive=True)
    seeds = local_seeds(game, local)
    rp = game.replay(seeds, local=local)
    with kept():  # finish what a crash left behind, kept even if this command is refused later
        result = Submitted(rp, rp.write())
    rnd = rp.current.round if rp.records and not rp.tail_open else None
    if rnd is None or rnd.phase != phase:
        raise InputError(f"no {phase} is due now: waiting for {rp.waiting or 'nothing'} {why}".rstrip())
    return local, rp, rnd, seeds, result


def report(game: Game, key_name: str, *, confirm: Confirm | None = None) -> Submitted:
    """The umpire resolves a round of hidden information and reports: the new state's hash, what is
    pending, the outcome, and each side's view sealed to that side alone [P10]."""
    from pbem.protocol.seal import seal

    if game.umpire is None or not game.hidden:
        raise InputError("only the umpire of a game with hidden information reports")
    local, rp, rnd, seeds, result = _umpire_phase(game, key_name, "report", "[P10]")
    assert game.umpire is not None
    step = rnd.slot(game.umpire)
    resolution, _, _, _ = rp.hidden_resolution(rnd, rp.current, step)
    rules, sc = game.ruleset, game.scenario
    dumped = rules.dump_state(sc, resolution.state)
    plain = {side: rules.view(sc, dumped, side) for side in rnd.sides}
    # every view of a report sealed at one length, the longest one's bucket, so that no side can
    # tell from the ciphertexts whose turn was busy [P10] -- unless that would pass the size of a
    # move, when each keeps its own bucket. Each view is deflated before it is padded (issue 28:
    # the padding hid the length of a JSON text several times longer than what it says); the
    # bucket is then that of the longest deflated view, still a power of two
    from pbem.protocol.seal import padded_length, plaintext

    pad_to = max(padded_length(len(plaintext(v, compress=True))) for v in plain.values())
    if len(plain) * (pad_to * 4 // 3 + 1024) > MAX_MOVE_BYTES * 3 // 4:
        pad_to = 0
    views = {side: seal(view, game.x25519(side), game=game.id, step=step, sender=game.umpire, to=side,
                        what="report", pad_to=pad_to, compress=True) for side, view in plain.items()}
    body_orders = {"report": {
        "state": rp.hidden_hash(dumped, step),
        "pending": [decision_json(d) for d in rules.pending(sc, resolution.state)],
        "outcome": outcome_json(rules.outcome(sc, resolution.state)),
        "views": views,
    }}
    lines = [rules.describe_event(sc, e) for e in resolution.events]
    shown = Preview(game.umpire, step, "Report of the round (each side sees only its own view) [P10]",
                    body_orders["report"]["pending"], lines, [])
    if local.signed(step, game.umpire) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    recorded = local.signed(step, game.umpire)
    if recorded is not None:  # re-send what was signed (its ciphertexts cannot be made again) [P7]
        return place_signed(game, rp, local, result, recorded, step, game.umpire, fresh=False)
    body = sealed_body(game, rp, game.umpire, step, rp.current.turn_hash, body_orders, seeds[game.umpire])
    return sign_body(game, rp, local, result, body, key_name)


def publish(game: Game, key_name: str) -> Path:
    """After a game with hidden information: the umpire signs and writes ``publication.json``,
    every sealed order with its salt, so that ``pbem verify`` re-checks every commitment, state and
    report [P10]."""
    from pbem.protocol.seal import x25519_private

    if game.umpire is None or not game.hidden:
        raise InputError("only the umpire of a game with hidden information publishes")
    info = KeyStore().info(key_name)
    if game.umpire not in game.side_of_fingerprint(info.fingerprint):
        raise InputError(f"key {key_name} is not the umpire's ({game.umpire}) in this game")
    local = LocalGame.of(game)
    rp = game.replay(local_seeds(game, local), local=local)
    if not rp.closed:
        raise InputError("the game is not over: the orders are published after the last report [P10]")
    key = x25519_private(private_key(key_name), game.id, game.umpire)
    opened: dict[int, tuple[Any, bytes]] = {}
    steps = sorted(game.moves)
    for i, step in enumerate(steps):
        msg = game.moves[step]
        sealed_orders = split_void(msg.body.orders)[0]
        keyed = parse_commit(sealed_orders, umpire=True, keyed=True) is not None
        if not keyed and parse_commit(sealed_orders, umpire=True) is None:
            continue
        ack = None
        if keyed:  # an acknowledged round: the side's next message is its acknowledgement [29]
            ack = next(m for m in (game.moves[t] for t in steps[i + 1:]) if m.body.side == msg.body.side)
        try:
            value, copy_salt = open_side_copy(sealed_orders, ack.body.orders if ack else None, key, game=game.id,
                                              commit_step=step, ack_step=ack.body.step if ack else 0,
                                              side=msg.body.side, umpire=str(game.umpire))
        except (PbemError, KeyError, TypeError, ValueError, StopIteration) as exc:
            if keyed:  # a copy that lied, voided by the ruling with its key: nothing to publish [29]
                continue
            raise InputError(f"{msg.name}: its sealed copy cannot be opened ({exc})") from None
        if keyed and commitment(value, copy_salt) != sealed_orders["sealed"]:
            continue  # the same: voided, its key published with the ruling
        opened[step] = (value, copy_salt)
    whole = game.scenario_data if game.body.scenario.copies is not None else None
    if whole is not None and game.copy_of is not None:
        raise InputError("this directory holds a team's copy of the scenario, not Game Control's whole one")
    salt = rp.state_salt if game.salted else None
    if game.salted and salt is None:
        raise InputError("the salt of this game's state hashes is not on this machine (Game Control's chain seed)")
    body = canonical_bytes(publication_body(game.id, opened, whole, salt))
    path = game.path(names.PUBLICATION)
    env = envelope_bytes(sign(body, PUBLICATION_TYPE, [private_key(key_name)]))
    if path.exists():
        raise InputError(f"{names.PUBLICATION} exists already; pbem never overwrites it")
    write_new(path, env)
    return path


def sealed_orders_for_umpire(game: Game, rp: Replay, rnd: Any, umpire_key: Any,
                             void: dict[str, str] | None = None) -> dict[str, Any]:
    """Every side's orders of the round, opened with the umpire's key and checked against its
    commitment: side -> orders JSON. In an acknowledged round a side whose copy (opened with the
    key it released, the one its commitment names) lies -- does not open, or holds other orders
    than it committed to -- goes into ``void`` with that key, the proof the ruling publishes [29];
    otherwise :class:`InputError` names a side whose sealed copy cannot be read [P8]."""

    out: dict[str, Any] = {}
    for side in rnd.sides:
        msg = rp.placed_move(rnd.slot(side, "commit"))
        ack = rp.placed_move(rnd.slot(side, "ack")) if rnd.acks else None
        sealed = parse_commit(msg.body.orders, umpire=True, keyed=rnd.acks)
        if ack is not None and void is not None:
            try:
                released = open_sealed_key(ack.body.orders, umpire_key, game=game.id, step=ack.body.step,
                                           side=side, umpire=str(rnd.umpire))
            except (PbemError, ValueError, KeyError, TypeError):
                released = None
            if released is not None and void_proof(msg.body.orders, released.hex(), game=game.id,
                                                   commit_step=msg.body.step, side=side):
                void[side] = released.hex()
                continue
        try:
            orders, salt = open_side_copy(msg.body.orders, ack.body.orders if ack else None, umpire_key,
                                          game=game.id, commit_step=msg.body.step,
                                          ack_step=ack.body.step if ack else 0, side=side, umpire=str(rnd.umpire))
        except (PbemError, KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{msg.name}: {side}'s orders sealed to the umpire cannot be read ({exc}); "
                             "rule on them as void, or ask the player [P8]") from None
        if commitment(orders, salt) != sealed:
            raise InputError(f"{msg.name}: {side}'s orders sealed to the umpire do not match its "
                             "commitment [P8]")
        out[side] = orders
    return out


def rule(game: Game, rulings: Any, key_name: str, *, confirm: Confirm | None = None,
         dry_run: bool = False) -> Submitted:
    """The umpire's ruling on a sealed round: signed after every commitment and before any reveal,
    so it cannot depend on the dice, which the reveals key [P9]. ``dry_run``: ``confirm`` is shown
    what would be signed (its answer is not asked for) and nothing is signed."""
    from pbem.protocol.seal import x25519_private

    local, rp, rnd, seeds, result = _umpire_phase(game, key_name, "ruling", "[P9]")
    assert game.umpire is not None
    step = rnd.slot(game.umpire)
    void: dict[str, str] = {}
    orders = sealed_orders_for_umpire(game, rp, rnd, x25519_private(private_key(key_name), game.id, game.umpire),
                                      void)
    for side in void:  # as the rules say for missing orders: none [29]
        orders[side] = game.ruleset.skeleton(game.scenario, rp.current.state, side)
    checked = game.ruleset.load_rulings(game.scenario, rp.current.state, rulings)
    presenter = game.ruleset.presenter()
    sealed_note = " (sealed: everyone gets a commitment, only you can open the copy, published after the game)"
    lines = [f"SIGNED: rulings {json.dumps(checked, sort_keys=True)}{sealed_note if game.hidden else ''}",
             "read, not signed -- the sealed orders, each checked against its commitment:"]
    lines += [f"  {side}: {line}" for side, o in orders.items() if side not in void
              for line in presenter.describe_orders(game.scenario, o)]
    lines += [f"  {side}: its sealed copy does not hold the orders it committed to: its orders are void this "
              "round (no orders), and the key of the copy is published with the ruling, the proof anyone can "
              "check [P8, 29]" for side in sorted(void)]
    try:
        lines += presenter.describe_round(game.scenario, rp.current.state, orders, checked)
    except PbemError:
        pass  # orders that break the rules are named below; there is no proposal to show
    for side, o in orders.items():
        try:
            prepare_orders(game, rp.current.state, side, o)
        except PbemError as exc:
            lines.append(f"  {side}'s orders break the rules: {exc}")
    shown = Preview(game.umpire, step, "Rulings before the reveals [P9]", {"rulings": checked}, lines, [])
    if dry_run:
        if confirm is not None:
            confirm(shown)
        return result
    if local.signed(step, game.umpire) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    parse_rulings({"rulings": checked})
    assert rnd.commits_turn is not None
    signed: Any = {"rulings": checked}
    if game.hidden:
        # Hidden information: the rulings name units and hexes of every side, so they are sealed
        # like orders -- a commitment everyone holds, a copy only the umpire opens -- and published
        # with them after the game, when verify checks them against the commitment [P9, P10].
        from pbem.protocol.seal import seal

        salt = derive_salt(seeds[game.umpire], game.id, step, game.umpire)
        copy = seal({"orders": checked, "salt": salt.hex()}, game.x25519(game.umpire), game=game.id,
                    step=step, sender=game.umpire, to=game.umpire, what="sealed orders",
                    pad_to=game.ruleset.sealed_size(game.scenario, str(game.umpire)))
        signed = commit_orders(commitment(checked, salt), copy)
    if void:
        signed = {**signed, "void": dict(sorted(void.items()))}
    body = sealed_body(game, rp, game.umpire, step, rnd.commits_turn, signed, seeds[game.umpire])
    return sign_body(game, rp, local, result, body, key_name)


def reveal(game: Game, key_name: str, *, confirm: Confirm | None = None) -> Submitted:
    """Reveal the sealed orders this machine committed, once every side has committed [P8]: the
    reveal signs exactly the orders and salt the commitment hashed, nothing new. In an acknowledged
    round the first call acknowledges the commitments this machine holds (releasing the key of the
    copy for the umpire), and the reveal comes once every side has acknowledged them [29]."""

    my_sides, local, seeds, rp, result = open_as(game, key_name)
    rnd = rp.current.round if rp.records and not rp.tail_open else None
    if rnd is None:
        raise InputError("there is no sealed round to reveal: nothing was signed")
    refuse_umpire(rp, my_sides, "neither acknowledges nor reveals")
    if rnd.phase == "commit":
        raise InputError(f"not every side has committed yet: waiting for {rp.waiting}; reveal "
                         "when the last commitment has arrived [P8]")
    if rnd.phase == "ack":
        return _acknowledge(game, rp, rnd, key_name, my_sides, local, seeds, confirm, result)
    if rnd.phase == "ruling":
        raise InputError(f"the umpire has not ruled yet: waiting for {rp.waiting}; reveal when "
                         "its ruling has arrived (it rules before anyone reveals) [P9]")
    if rnd.phase == "report":  # every side has revealed; the umpire reports, it reveals nothing
        told = " ('pbem report' signs it)" if rnd.umpire in my_sides else ""
        raise InputError(f"every side has revealed; waiting for {rp.waiting}{told}")
    side = my_sealed_side(rp, rnd, my_sides)
    if side is None:
        raise InputError(f"your sealed orders are revealed already; waiting for {rp.waiting}")
    commit_step = rnd.slot(side, "commit")
    orders_json = local.sealed(commit_step, side)
    if orders_json is None:
        raise InputError(f"the orders {side} committed at step {commit_step} are not on this machine "
                         f"({local.dir}): reveal from the machine that committed them")
    step = rnd.slot(side)
    presenter = game.ruleset.presenter()
    if rnd.report:  # hidden information: only the chain value is signed; the orders stay sealed
        label = (f"{rnd.labels[rnd.sides.index(side)]} -- signs only the reveal that keys the round's "
                 f"dice; the orders committed at step {commit_step} stay sealed to the umpire until "
                 "the publication")
    else:
        label = f"{rnd.labels[rnd.sides.index(side)]} -- reveal the orders committed at step {commit_step}"
    shown = Preview(side, step, label, orders_json, presenter.describe_orders(game.scenario, orders_json), [])
    if local.signed(step, side) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    salt = derive_salt(seeds[side], game.id, commit_step, side)
    assert rnd.commits_turn is not None
    opened: Any = reveal_orders(orders_json, salt)
    if rnd.report:  # hidden information: the orders stay with the umpire; the reveal keys the dice

        opened = dict(HIDDEN_REVEAL)
    body = sealed_body(game, rp, side, step, rnd.commits_turn, opened, seeds[side])
    return sign_body(game, rp, local, result, body, key_name)


def _acknowledge(game: Game, rp: Replay, rnd: Any, key_name: str, my_sides: list[str], local: Any,
                 seeds: dict[str, bytes], confirm: Confirm | None, result: Submitted) -> Submitted:
    """Acknowledge the commitments this machine holds: the acknowledgement answers the turn of the
    last commitment (which hashes every one), so a side that split its commitments between players
    is caught before anyone reveals; with an umpire it releases to it the key of this side's copy,
    so the umpire reads no sheet before every side has committed [P8, 29]."""

    side = my_sealed_side(rp, rnd, my_sides)
    if side is None:
        raise InputError(f"you have acknowledged the commitments already; waiting for {rp.waiting}")
    step = rnd.slot(side)
    commit_step = rnd.slot(side, "commit")
    label = (f"{rnd.labels[rnd.sides.index(side)]} -- acknowledge the commitments of steps {rnd.base + 1}"
             f"-{rnd.base + rnd.n}" + (" and release to the umpire the key of the orders you sealed for it"
                                       if rnd.umpire else ""))
    committed = local.sealed(commit_step, side)
    then = ("the umpire rules once every side has acknowledged, and then everyone reveals"
            + (" (your orders stay sealed to the umpire)" if rnd.report else "") if rnd.umpire else
            "everyone reveals once every side has acknowledged")
    lines = [f"signs no orders: your orders stay as you committed them at step {commit_step}; {then}"]
    if committed is not None:
        lines += [f"committed: {line}" for line in game.ruleset.presenter().describe_orders(game.scenario, committed)]
    shown = Preview(side, step, label, {"ack": "commitments"}, lines, [])
    if local.signed(step, side) is None and confirm is not None and not confirm(shown):
        raise InputError("not signed: nothing was written")
    sealed_key = None
    if rnd.umpire is not None:
        from pbem.protocol.seal import seal

        key = copy_key(seeds[side], game.id, commit_step, side)
        sealed_key = seal(key.hex(), game.x25519(rnd.umpire), game=game.id, step=step, sender=side,
                          to=rnd.umpire, what="copy key")
    assert rnd.commits_turn is not None
    recorded = local.signed(step, side)
    if recorded is not None:  # re-send exactly what was signed [P7]
        return place_signed(game, rp, local, result, recorded, step, side, fresh=False)
    body = sealed_body(game, rp, side, step, rnd.commits_turn, ack_orders(sealed_key), seeds[side])
    return sign_body(game, rp, local, result, body, key_name)
