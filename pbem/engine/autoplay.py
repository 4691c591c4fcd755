"""Bot against bot, in-process: every pending decision of a hot-seat game (every side's key in this
``PBEM_HOME``) answered by the system's sparring bot, through the pipeline a player's ``pbem
submit`` uses (:func:`pbem.engine.play.sign_and_place`: checked, signed with the P7 record, placed
with every check of an archived move, written). The playthrough tests, the compatibility corpus,
the examples and ``bench/campaign.py`` play their games with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import field
from functools import partial
from pathlib import Path
from typing import Any

from pbem.engine import play
from pbem.engine.gamedir import Game, open_checked, scenario_memo
from pbem.engine.hooks import NO_HOOKS, Hooks
from pbem.engine.replay import Replay
from pbem.errors import InputError
from pbem.plain import Plain
from pbem.protocol.localstate import LocalGame, local_seeds, local_sides


class Timings(Plain):
    """Seconds spent per step (``bench/campaign.py``): the bot, checking its orders
    (:func:`pbem.engine.play.prepare_orders`), and building, signing, resolving and writing the move."""

    bot: list[float] = field(default_factory=list)
    check: list[float] = field(default_factory=list)
    submit: list[float] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


Observer = Callable[[Game, Replay], None]
"""Called after every step with ``(game, replay)`` (the playthrough tests check invariants here)."""


def autoplay(
    game_dir: Path | str,
    *,
    seed: int = 0,
    max_steps: int = 10_000,
    timings: Timings | None = None,
    observe: Observer | None = None,
    hooks: Hooks = NO_HOOKS,
) -> Replay:
    """Play a game of sequential decisions until it is over (or ``max_steps``); returns the final
    replay. ``hooks``: what to write beside the archive (:func:`pbem.render.engine_hooks`: maps
    and email drafts). One replay serves the whole game, so a campaign costs one pass."""

    game = open_checked(game_dir, hooks)
    local = LocalGame.of(game)
    seeds = local_seeds(game, local, derive=True)
    key_names = local_sides(game, local)
    rp = game.replay(seeds)
    rp.write()
    presenter = game.ruleset.presenter()
    for _ in range(max_steps):
        if rp.tail_open or not rp.current.pending:
            break
        decision = rp.current.pending[0]
        side = decision.side
        if side not in key_names or side not in seeds:
            raise InputError(f"no local key plays {side}: autoplay needs every side's key")
        t0 = time.perf_counter()
        orders = presenter.bot_orders(game.scenario, rp.current.state, side, seed=seed)
        t1 = time.perf_counter()
        checked = play.prepare_orders(game, rp.current.state, side, orders)
        t2 = time.perf_counter()
        play.sign_and_place(game, rp, local, side, checked, seeds[side], key_names[side])
        t3 = time.perf_counter()
        if timings is not None:
            timings.labels.append(decision.label)
            timings.bot.append(t1 - t0)
            timings.check.append(t2 - t1)
            timings.submit.append(t3 - t2)
        if observe is not None:
            observe(game, rp)
    return rp


def autoplay_rounds(game_dir: Path | str, *, seed: int = 0, max_messages: int = 100_000,
                    observe: Observer | None = None, hooks: Hooks = NO_HOOKS) -> int:
    """Play a game of sealed rounds hot seat (every side's key, the umpire's too, in this
    ``PBEM_HOME``) until it is over; returns how many messages were signed.

    Each side's bot writes its orders from what that side may see (:func:`pbem.engine.play.state_for`:
    its own view where information is hidden) and commits them; Game Control's bot rules nothing
    (it accepts every proposal of the engine and enters no judgement); everyone reveals; Game
    Control reports (``hooks``: with the maps and email drafts). Every message goes through the
    library calls the commands use (:func:`pbem.engine.play.submit`, ``rule``, ``reveal``,
    ``report``), so every check runs."""
    with scenario_memo():  # the game is opened again for every message: its scenario once
        return _rounds(game_dir, seed=seed, max_messages=max_messages, observe=observe, hooks=hooks)


def _rounds(game_dir: Path | str, *, seed: int, max_messages: int, observe: Observer | None,
            hooks: Hooks) -> int:

    signed = 0
    while signed < max_messages:
        game = open_checked(game_dir, hooks)
        local = LocalGame.of(game)
        key_names = local_sides(game, local)
        rp = game.replay(local_seeds(game, local, derive=True), local=local)
        if not rp.records or rp.tail_open or not rp.current.pending:
            break
        umpire = game.ruleset.umpire(game.scenario)
        owing = None
        for side in game.sides:
            try:
                play.owed_by(game, rp, [side])
            except InputError:
                continue
            owing = side
            break
        if owing is None:
            raise InputError(f"no local side owes a message: waiting for {rp.waiting}")
        key = key_names[owing]
        phase = rp.current.round.phase if rp.current.round is not None else "commit"
        if owing == umpire and phase == "ruling":
            play.rule(game, {}, key)
        elif owing == umpire and phase == "report":
            play.report(game, key)
        elif phase in ("ack", "reveal"):
            play.reveal(game, key)
        else:
            presenter = game.ruleset.presenter()
            play.submit(game, partial(_bot_document, presenter, game.scenario, seed), key)
        signed += 1
        if observe is not None:
            observe(game, rp)
    return signed


def _bot_document(presenter: Any, scenario: Any, seed: int, state: Any, side: str) -> Any:
    """The bot's orders as :func:`pbem.engine.play.submit` asks for them (``state``, ``side``)."""
    return presenter.bot_orders(scenario, state, side, seed=seed)
