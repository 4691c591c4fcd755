"""``pbem bot``: let the sparring bot answer a side's pending decision, and :func:`autoplay`, the
in-process bot-vs-bot driver used by the playthrough tests, ``bench/campaign.py`` and the examples.

``pbem bot GAME_DIR --side SIDE --key NAME`` asks the system's presenter (for WestWall,
:func:`pbem.systems.westwall.bot.choose_orders`) for the
orders (set-up, player-turn or the closing acknowledge) and hands them to ``pbem submit`` itself,
so they are checked, signed (with the P7 record) and adjudicated exactly like a player's orders;
the orders file lives in a temporary directory, so nothing but what ``submit`` writes appears in
GAME_DIR. ``--dry-run`` prints the orders and writes nothing.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import click

from pbem.cli._out import echo
from pbem.engine.hooks import NO_HOOKS
from pbem.errors import InputError


def _bot_for(game: Any) -> Callable[..., dict[str, Any]]:
    """The system's sparring bot (:meth:`pbem.engine.presenter.Presenter.bot_orders`)."""
    presenter = game.ruleset.presenter()

    def choose(scenario: Any, state: Any, side: str, *, seed: int = 0) -> dict[str, Any]:
        orders: dict[str, Any] = presenter.bot_orders(scenario, state, side, seed=seed)
        return orders

    return choose


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--side", required=True, help="The side the bot plays.")
@click.option("--key", "key_name", required=True, help="Your local key for that side.")
@click.option("--seed", type=int, default=0, show_default=True, help="Tie-break seed (same seed, same orders).")
@click.option("--dry-run", is_flag=True, help="Print the orders only; sign and write nothing.")
@click.pass_context
def bot(ctx: click.Context, game_dir: Path, side: str, key_name: str, seed: int, dry_run: bool) -> None:
    """Let the sparring bot write SIDE's orders and submit them with your key."""
    from pbem.cli.game import _current_decision, _open_with_seeds, submit
    from pbem.protocol.keys import KeyStore

    game, local, seeds = _open_with_seeds(game_dir)
    if side not in game.body.sides:
        raise InputError(f"no side {side!r} in this game (sides: {', '.join(game.sides)})")
    info = KeyStore().info(key_name)
    if side not in game.side_of_fingerprint(info.fingerprint):
        raise InputError(f"key {key_name} ({info.fingerprint}) does not play {side} in this game")
    rp = game.replay(seeds, local=local)
    from pbem.engine.play import owed_by, state_for

    decision = _current_decision(rp, "bot")
    if rp.current.round is not None or decision.sealed:
        owed_by(game, rp, [side])  # sealed orders: every side owes its own at once, in any order
        phase = rp.current.round.phase if rp.current.round is not None else "commit"
        if side == game.umpire:  # Game Control's bot: the engine's proposal, no judgement of its own
            from pbem.cli.game import report, rule

            if dry_run:
                echo(f"{side} owes its {phase} of the sealed round: 'pbem bot' would send it", err=True)
                return
            if phase == "ruling":
                ctx.invoke(rule, game_dir=game_dir, rulings_file=None, key_name=key_name, yes=True)
            elif phase == "report":
                ctx.invoke(report, game_dir=game_dir, key_name=key_name, yes=True)
            else:
                raise InputError(f"Game Control owes nothing in the {phase} phase: waiting for {rp.waiting}")
            return
        if rp.current.round is not None and rp.current.round.phase in ("ack", "reveal"):
            # nothing to decide: the acknowledgement or the reveal of what was committed [29]
            from pbem.cli.game import reveal

            if dry_run:
                echo(f"{side} owes its {rp.current.round.phase} of the sealed round: 'pbem bot' would send it", err=True)
                return
            ctx.invoke(reveal, game_dir=game_dir, key_name=key_name, yes=True)
            return
    elif decision.side != side:
        raise InputError(f"it is {decision.side}'s decision ({decision.label}), not {side}'s")

    # with hidden information the bot sees what the side sees: its own view, opened with its key
    orders = _bot_for(game)(game.scenario, state_for(game, rp, side, key_name), side, seed=seed)
    try:  # what is signed, in words, before it is
        words = game.ruleset.presenter().describe_orders(game.scenario, orders)
    except InputError:
        words = []
    if words:
        echo(f"the bot's orders for {side}:", err=True)
    for line in words:
        echo(f"  {line}", err=True)
    if dry_run:
        echo(json.dumps(orders, indent=2, sort_keys=True))
        return
    with tempfile.TemporaryDirectory(prefix="pbem-bot-") as tmp:
        path = Path(tmp) / "orders.json"
        path.write_text(json.dumps(orders, sort_keys=True) + "\n", encoding="utf-8")
        ctx.invoke(submit, game_dir=game_dir, orders_file=path, key_name=key_name, yes=True,
                   dry_run=False, defaults=False)


# ------------------------------------------------------------------------------------------------
# In-process bot-vs-bot play
# ------------------------------------------------------------------------------------------------


@dataclass
class Timings:
    """Seconds spent per step (``bench/campaign.py``): the bot, checking and resolving in the engine
    (``Replay.add_move``), signing and writing files."""

    bot: list[float] = field(default_factory=list)
    adjudicate: list[float] = field(default_factory=list)
    sign_write: list[float] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


Observer = Callable[[Any, Any], None]
"""Called after every step with ``(game, replay)`` (the playthrough tests check invariants here)."""


def autoplay(
    game_dir: Path | str,
    *,
    seed: int = 0,
    max_steps: int = 10_000,
    timings: Timings | None = None,
    observe: Observer | None = None,
    outputs: bool = False,
) -> Any:
    """Play every pending decision of a hot-seat game (every side's key in this ``PBEM_HOME``) with
    the bot until the archive is closed; returns the final :class:`pbem.engine.Replay`.

    Each move is built and signed as ``pbem submit`` builds it (body, reveal, P7 record) and placed
    with :meth:`Replay.add_move`, which runs every check of an archived move, then written with
    :meth:`Replay.write`. One replay serves the whole game, so a campaign costs one pass."""
    from pbem.engine.play import move_body, prepare_orders, sign_move
    from pbem.engine.replay import open_checked
    from pbem.protocol import archive, names
    from pbem.protocol.localstate import LocalGame, local_seeds, local_sides, private_key

    if outputs:
        from pbem.render import engine_hooks

        game = open_checked(game_dir, engine_hooks())
    else:
        game = open_checked(game_dir)
    local = LocalGame.of(game)
    seeds = local_seeds(game, local, derive=True)
    key_names = local_sides(game, local)
    rp = game.replay(seeds)
    rp.write()
    choose = _bot_for(game)
    keys: dict[str, Any] = {}
    for _ in range(max_steps):
        if rp.tail_open or not rp.current.pending:
            break
        decision = rp.current.pending[0]
        side = decision.side
        if side not in key_names or side not in seeds:
            raise InputError(f"no local key plays {side}: autoplay needs every side's key")
        t0 = time.perf_counter()
        orders = choose(game.scenario, rp.current.state, side, seed=seed)
        t1 = time.perf_counter()
        normalized = prepare_orders(game, rp.current.state, side, orders)
        tv = time.perf_counter()
        body = move_body(game, rp, side, normalized, seeds[side])
        step = body["step"]
        if side not in keys:
            keys[side] = private_key(key_names[side])
        env = sign_move(body, keys[side])
        local.record_signed(step, side, env)
        msg = archive.parse_move(env, names.move_name(step, side))
        t2 = time.perf_counter()
        rp.add_move(msg, authored=outputs)
        t3 = time.perf_counter()
        rp.write()
        t4 = time.perf_counter()
        if timings is not None:
            timings.labels.append(decision.label)
            timings.bot.append(t1 - t0)
            timings.adjudicate.append((tv - t1) + (t3 - t2))
            timings.sign_write.append((t2 - tv) + (t4 - t3))
        if observe is not None:
            observe(game, rp)
    return rp


def autoplay_rounds(game_dir: Path | str, *, seed: int = 0, max_messages: int = 100_000,
                    observe: Observer | None = None, outputs: bool = False) -> int:
    """Play a game of sealed rounds hot seat (every side's key, the umpire's too, in this
    ``PBEM_HOME``) until it is over; returns how many messages were signed.

    Each side's bot writes its orders from what that side may see (:func:`pbem.engine.play.state_for`:
    its own view where information is hidden) and commits them; Game Control's bot rules nothing
    (it accepts every proposal of the engine and enters no judgement); everyone reveals; Game
    Control reports (``outputs``: with the maps and email drafts). Every message goes through the library calls the commands use
    (:func:`pbem.engine.play.submit`, ``rule``, ``reveal``, ``report``), so every check runs."""
    from pbem.engine import play
    from pbem.engine.replay import open_checked
    from pbem.protocol.localstate import LocalGame, local_seeds, local_sides

    hooks = NO_HOOKS
    if outputs:  # maps and email drafts, as the commands write them
        from pbem.render import engine_hooks

        hooks = engine_hooks()
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
