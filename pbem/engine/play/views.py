"""What a side may see where information is hidden: its own view, from the umpire's reports [P10]."""

from __future__ import annotations

import json
from typing import Any

from pbem.engine.gamedir import Game
from pbem.engine.replay import Replay

# pbem.protocol.seal (cryptography's HPKE: ~100 ms to import, measured with python -X importtime)
# is imported inside the functions of hidden information, so games without it never load it.
from pbem.engine.sealed import Round, open_view
from pbem.errors import InputError
from pbem.protocol import archive
from pbem.protocol.canonical import MAX_TURN_BYTES
from pbem.protocol.localstate import private_key


def my_view(game: Game, rp: Replay, side: str, key_name: str, step: int | None = None) -> Any:
    """``side``'s view of the game now, or after ``step`` (hidden information): the umpire's
    newest report by then opened with this side's key; the initial state when no round has been
    reported yet."""
    from pbem.protocol.seal import x25519_private

    # In a hidden game only the umpire's reports (and turn 0) change the state: the newest is the
    # move of the turn that opened the current round (or the current turn, after the last).
    if step is None or step == rp.current.step:
        cur = rp.current
        base = cur.round.base if cur.round is not None else cur.step
    else:
        base = _round_base(game, rp, step)
    if base == 0:  # the initial state is the scenario's: public
        rec = rp.record(0)
        state = rec.state if rec is not None else None
        if state is None:
            state = game.ruleset.initial_state(game.scenario, game.body.options)
        return game.ruleset.view(game.scenario, game.ruleset.dump_state(game.scenario, state), side)
    orders = rp.placed_move(base).body.orders
    if isinstance(orders, dict) and set(orders) == {"report"}:
        key = x25519_private(private_key(key_name), game.id, side)
        view = open_view(orders["report"], key, game=game.id, step=base, side=side, umpire=str(game.umpire))
        if view is None:
            raise InputError(f"the umpire's report has no view for {side}")
        return view
    raise InputError("no view of this game is available yet")


def _round_base(game: Game, rp: Replay, step: int) -> int:
    """The step whose state a hidden game's turn ``step`` holds: the first turn of the sealed round
    it is part of (from the public turn file), or ``step`` itself."""

    if not 0 <= step <= rp.current.step:
        raise InputError(f"no step {step} in this game yet (steps 0 to {rp.current.step})")
    rec = rp.record(step)
    if rec is not None:
        return rec.round.base if rec.round is not None else step
    path = game.listing.turns.get(step)
    if path is None:
        raise InputError(f"no turn-{step:04d}.json in {game.dir}")

    turn = json.loads(archive.read_archived(path, MAX_TURN_BYTES))
    sealed = turn.get("sealed") if isinstance(turn, dict) else None
    if isinstance(sealed, dict):
        try:
            rnd = Round.from_json(sealed)
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{path.name}: its sealed round is malformed") from None
        if not 0 <= rnd.base < step:
            raise InputError(f"{path.name}: its sealed round starts at step {rnd.base}, not before it")
        return rnd.base
    return step


def view_state(game: Game, rp: Replay, side: str, key_name: str) -> Any:
    """:func:`my_view` as the ruleset's state type (a view has the state's form, holding only what
    the side may see), to check that side's orders against."""
    return game.ruleset.load_state(game.scenario, my_view(game, rp, side, key_name))
