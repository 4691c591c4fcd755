"""``pbem bot``: let the sparring bot answer a side's pending decision (bot against bot in-process,
for tests, benchmarks and the examples: :mod:`pbem.engine.autoplay`).

In a sealed round a team's bot sends what the round asks of it: its sheet, its acknowledgement, its
reveal. Game Control's bot (``--side GC``) is the umpire with no judgement of its own: it accepts
the engine's groupings and enters no tactical advantage (``pbem rule`` with no rulings file),
reports (``pbem report``) and, once the game is over, publishes every sealed order
(``pbem publish``).

``pbem bot GAME_DIR --side SIDE --key NAME`` asks the system's presenter (for WestWall,
:func:`pbem.systems.westwall.bot.choose_orders`) for the
orders (set-up, player-turn or the closing acknowledge) and hands them to what ``pbem submit`` does (through the game it opened to choose them),
so they are checked, signed (with the P7 record) and adjudicated exactly like a player's orders;
the orders file lives in a temporary directory, so nothing but what ``submit`` writes appears in
GAME_DIR. ``--dry-run`` prints the orders and writes nothing.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli._out import echo
from pbem.errors import InputError

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game


def _bot_for(game: Game) -> Callable[..., dict[str, Any]]:
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
    from pbem.cli._common import open_with_seeds, pending_decision
    from pbem.cli.play import sign_orders
    from pbem.protocol.keys import KeyStore

    game, local, seeds = open_with_seeds(game_dir)
    if side not in game.body.sides:
        raise InputError(f"no side {side!r} in this game (sides: {', '.join(game.sides)})")
    info = KeyStore().info(key_name)
    if side not in game.side_of_fingerprint(info.fingerprint):
        raise InputError(f"key {key_name} ({info.fingerprint}) does not play {side} in this game")
    rp = game.replay(seeds, local=local)
    from pbem.engine.play import check_owner, owed_by, state_for

    if side == game.umpire and rp.closed and game.hidden:  # Game Control's last act: the publication
        from pbem.cli.umpire import publish
        from pbem.protocol import names

        if (game_dir / names.PUBLICATION).exists():
            raise InputError(f"the game is over and {names.PUBLICATION} is written: nothing is left for "
                             f"{side} to send (send {names.PUBLICATION_MAIL} to every player)")
        if dry_run:
            echo(f"the game is over: 'pbem bot' would publish every sealed order for {side}", err=True)
            return
        ctx.invoke(publish, game_dir=game_dir, key_name=key_name)
        return
    decision = pending_decision(rp, "bot")
    if rp.current.round is not None or decision.sealed:
        owed_by(game, rp, [side])  # sealed orders: every side owes its own at once, in any order
        phase = rp.current.round.phase if rp.current.round is not None else "commit"
        if side == game.umpire:  # Game Control's bot: the engine's proposal, no judgement of its own
            from pbem.cli.umpire import report, rule

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
            from pbem.cli.play import reveal

            if dry_run:
                echo(f"{side} owes its {rp.current.round.phase} of the sealed round: 'pbem bot' would send it", err=True)
                return
            ctx.invoke(reveal, game_dir=game_dir, key_name=key_name, yes=True)
            return
    else:
        check_owner(decision, side=side)

    # with hidden information the bot sees what the side sees: its own view, opened with its key
    state = state_for(game, rp, side, key_name)
    orders = _bot_for(game)(game.scenario, state, side, seed=seed)
    try:  # what is signed, in words, before it is, as the preview says it (a landing as a landing)
        words = game.ruleset.presenter().describe_orders_at(game.scenario, state, orders)
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
        sign_orders(game, path, key_name, yes=True)  # the game opened above: not read and checked again
