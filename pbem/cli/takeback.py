"""``pbem takeback request|consent``: take back the newest move by mutual consent.

Thin click wrappers over :mod:`pbem.engine.play.takeback`; the rule is in docs/protocol.md,
"Take-back by mutual consent"."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli._common import confirmer, echo_files, next_steps, read_input
from pbem.cli._out import echo
from pbem.errors import InputError
from pbem.outputs import engine_hooks


@click.group()
def takeback() -> None:
    """Take back the newest move by mutual consent (a slip, not a second roll).

    The author of the newest move asks ('request'); the opponent reads exactly what would be undone
    and signs its consent ('consent'); both archives then go back to the turn before that move, and
    the author makes it again. A move whose dice may already be known to anybody cannot be taken
    back. The request, the consent and the withdrawn move stay in the archive; 'pbem verify' shows
    who asked and who agreed."""


@takeback.command("request")
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your local key (the author of the move).")
@click.option("--step", type=int, default=None, help="The step to take back (default: your newest move).")
def request(game_dir: Path, key_name: str, step: int | None) -> None:
    """Ask to take back your newest move: signs takeback-NNNN-SIDE-R.json for your opponent."""
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play.takeback import request as play_request
    from pbem.mail.compose import write_takeback_mail

    game = open_checked(game_dir, engine_hooks())
    written = play_request(game, key_name, step)
    mails = [m for p in written for m in write_takeback_mail(
        game, p, [f"{p.name} asks to take back move {p.name[9:13].lstrip('0') or '0'} by mutual consent; "
                  "no die of it has been rolled, so nothing else changes [take-back]"])]
    echo_files([*written, *mails])
    name = mails[0].name if mails else written[0].name if written else "the takeback file"
    echo(f"send {name} to your opponent; nothing changes until they agree ('pbem takeback consent')",
         err=True)


@takeback.command("consent")
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--key", "key_name", required=True, help="Your local key (the opponent of the asker).")
@click.option("--yes", is_flag=True, help="Agree without asking (for scripts).")
def consent(game_dir: Path, file: Path, key_name: str, yes: bool) -> None:
    """Agree to your opponent's request (FILE, or an .eml carrying it; a bare name is also looked
    for in GAME_DIR, where 'pbem ingest' put it), after a preview of exactly what is undone: signs consent-NNNN-SIDE-R.json and goes back to the turn before that move."""
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play.takeback import consent as play_consent
    from pbem.protocol import names

    if not file.exists() and not file.is_absolute() and (game_dir / file).is_file():
        file = game_dir / file  # a request already ingested, named as 'pbem status' names it
    blobs = [(n, r) for n, r in read_input(file, 1 << 20) if names.TAKEBACK_RE.match(n) or n == file.name]
    # a mail client may rename the file: the request is told apart by content, then named by its body
    if len(blobs) != 1:
        raise InputError(f"{file}: expected one take-back request (takeback-NNNN-SIDE-R.json)")
    name, raw = blobs[0]
    game = open_checked(game_dir, engine_hooks())
    result = play_consent(game, name, raw, key_name, confirm=confirmer(yes, "Agree to take it back?",
                                                                           show_always=True))
    from pbem.mail.compose import write_takeback_mail

    signed = [p for p in result.written if p.name.startswith("consent-")]
    mails = [m for p in signed for m in write_takeback_mail(game, p, result.notes)]
    echo_files([*result.written, *mails])
    for note in result.notes:
        echo(note, err=True)
    for removed in result.removed:
        echo(f"removed {removed} (recomputed from the signed files)", err=True)
    consent_name = (mails[0].name if mails else
                    next((p.name for p in result.written if p.name.startswith("consent-")), "the consent file"))
    echo(f"send {consent_name} to your opponent", err=True)
    if result.replay is not None:
        next_steps(open_checked(game_dir, engine_hooks()), result.replay, result.written, authored=False)
