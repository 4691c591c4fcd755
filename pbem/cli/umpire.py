"""Game Control's commands: ``rule``, ``report`` and ``publish``.

Thin click wrappers: the work is the engine's (:mod:`pbem.engine.play`, :mod:`pbem.engine.status`,
:mod:`pbem.engine.history`); bad input is an :class:`InputError` (one line, exit 2, nothing
written)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbem.cli._common import confirmer, echo_files, next_steps
from pbem.cli._out import echo
from pbem.outputs import engine_hooks
from pbem.protocol import archive


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("rulings_file", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=False)
@click.option("--key", "key_name", required=True, help="The umpire's local key.")
@click.option("--yes", is_flag=True, help="Sign without asking (for scripts).")
@click.option("--dry-run", is_flag=True, help="Only show the sealed orders and what would be signed.")
def rule(game_dir: Path, rulings_file: Path | None, key_name: str, yes: bool, dry_run: bool) -> None:
    """Umpire: read every side's sealed orders and sign your rulings for the round.

    Once every side has committed, the umpire's pbem opens the orders sealed to it (each checked
    against its side's commitment) and shows them; RULINGS_FILE (JSON; none: no rulings) holds the
    judgements the rules leave to the umpire ('pbem schema rulings --system SYSTEM' shows their form). The ruling is signed before any side reveals, so it
    cannot depend on the dice, which the reveals key [P9]. --dry-run: show the orders, the
    proposal and any warning about the rulings, and stop.
    """
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play import rule as play_rule
    from pbem.protocol.canonical import MAX_MOVE_BYTES, loads_strict

    rulings: Any = {}
    if rulings_file is not None:
        rulings = loads_strict(archive.read_limited(rulings_file, MAX_MOVE_BYTES), max_bytes=MAX_MOVE_BYTES,
                               what=str(rulings_file))
    game = open_checked(game_dir, engine_hooks())
    if dry_run:
        def show(shown: Any) -> bool:
            echo(shown.text())
            return False

        play_rule(game, rulings, key_name, confirm=show, dry_run=True)
        echo("dry run: nothing was signed", err=True)
        return
    result = play_rule(game, rulings, key_name,
                       confirm=confirmer(yes, "Sign these rulings?", show_always=True))
    echo_files(result.written)
    next_steps(game, result.replay, result.written)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="The umpire's local key.")
@click.option("--yes", is_flag=True, help="Sign without asking (for scripts).")
def report(game_dir: Path, key_name: str, yes: bool) -> None:
    """Umpire: resolve a round of hidden information and report to each side.

    Once every side has revealed, the umpire's pbem resolves the round from the sealed orders and
    the dice, and signs a report: the hash of the new state, what is pending, and each side's view
    sealed to that side alone [P10].
    """
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play import report as play_report

    game = open_checked(game_dir, engine_hooks())
    result = play_report(game, key_name, confirm=confirmer(yes, "Sign this report?", show_always=True))
    echo_files(result.written)
    next_steps(game, result.replay, result.written)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="The umpire's local key.")
def publish(game_dir: Path, key_name: str) -> None:
    """Umpire: after the game, publish every sealed order so anyone can check every ruling.

    Writes publication.json (signed by the umpire): every side's orders with their salts. With it
    beside the archive, 'pbem verify' opens every commitment, recomputes every state and report,
    and checks each against the hashes the turn files hold [P10].
    """
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play import publish as play_publish
    from pbem.engine.sealed import MAX_PUBLICATION_BYTES
    from pbem.mail.compose import write_publication_mail

    game = open_checked(game_dir)
    path = play_publish(game, key_name)
    echo(str(path))
    mails = write_publication_mail(game, archive.read_archived(path, MAX_PUBLICATION_BYTES))
    for mail in mails:
        echo(str(mail))
    what = mails[0].name if mails else "publication.json"
    echo(f"send {what} to every player; they run 'pbem ingest GAME_DIR {what}', "
         "and 'pbem verify GAME_DIR' then checks every ruling, state and report", err=True)
