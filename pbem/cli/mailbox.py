"""The game's email: ``send`` (SMTP), ``fetch`` (IMAP) and ``remind``.

Thin click wrappers: the work is the engine's (:mod:`pbem.engine.play`, :mod:`pbem.engine.status`,
:mod:`pbem.engine.history`); bad input is an :class:`InputError` (one line, exit 2, nothing
written)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import click

from pbem.cli._common import echo_files, open_with_seeds
from pbem.cli._out import echo
from pbem.cli._out import progress as _progress
from pbem.cli.play import write_receipt
from pbem.errors import InputError
from pbem.protocol import names


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
def send(game_dir: Path) -> None:
    """Send this game's drafted emails (mail-*.eml) that you have not sent yet, over SMTP.

    The server comes from mail.toml in your pbem home (or PBEM_SMTP_* variables); the password
    from its password_command, never the command line. Safe to run again and from cron: a mail is
    sent once, and what could not be sent is tried next time. See 'pbem fetch' for the other half.
    """
    from pbem.engine.gamedir import open_checked
    from pbem.mail.transport import load_config
    from pbem.mail.transport import send as smtp_send
    from pbem.protocol.keys import home as pbem_home
    from pbem.protocol.localstate import LocalGame

    game = open_checked(game_dir)
    local = LocalGame.of(game)
    mine = {s for s in local.sides() if s in game.sides}
    if not mine:
        raise InputError("this machine plays no side of this game: nothing of yours to send")
    server = load_config(pbem_home(), "smtp")
    result = smtp_send(game.dir, local.dir, mine, server, extra=unsent_drafts(game, local, mine),
                       redraft=partial(own_move_email, game, local, mine))
    for name in result.sent:
        echo(f"sent {name}")
    if not result.sent:
        # only the drafts still here are counted: answered move emails are removed [28]
        n = len(result.already)
        echo("nothing new to send" + (f" (the {n} email{'' if n == 1 else 's'} still here "
                                      f"{'was' if n == 1 else 'were'} sent before)" if n else ""), err=True)


def _signed_here(game: Any, local: Any, mine: set[str], step: int) -> bool:
    """Whether the move of ``step`` was signed on this machine for a side played here: its email
    is this player's to send."""
    from pbem.mail.compose import move_side

    side = move_side(game.listing.moves.name(step))
    return side in mine and local.signed(step, side, game.redo_number(step)) is not None


def unsent_drafts(game: Any, local: Any, mine: set[str]) -> dict[str, Callable[[], bytes]]:
    """The emails of moves signed here that are not on disk (only the newest step's derived files
    are kept) although a side has not answered the move yet: each drafted again when sent, the way
    ``derived.sha256`` records it was drafted (an earlier pbem's drawing: the email its author saw)."""
    from pbem.mail.compose import delivered, email_as_written

    def as_written(step: int) -> bytes:
        return email_as_written(game, step)[0]

    if not game.ruleset.presenter().writes_mail:
        return {}
    out: dict[str, Callable[[], bytes]] = {}
    for step in sorted(game.listing.moves):
        name = names.mail_name(step)
        if name in game.listing.other or delivered(game, step) or not _signed_here(game, local, mine, step):
            continue
        out[name] = partial(as_written, step)
    return out


def own_move_email(game: Any, local: Any, mine: set[str], name: str) -> list[bytes]:
    """The email of the move ``name`` (``mail-NNNN.eml``) as pbem drafts it again from the archive,
    each way of drawing it (the one an earlier pbem used among them), when that move was signed
    here for a side played here; else none. A draft an earlier pbem wrote before drafts were
    recorded is sent when it is byte for byte one of these [28]."""
    from pbem.mail.compose import move_email
    from pbem.render.svg import DRAWING

    m = names.MOVE_MAIL_RE.match(name)
    step = int(m.group(1)) if m else None
    if step is None or step not in game.listing.moves or not game.ruleset.presenter().writes_mail \
            or not _signed_here(game, local, mine, step):
        return []
    return [move_email(game, step, drawing=d) for d in range(DRAWING, 0, -1)]


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--receipt", "receipt_key", default=None, metavar="KEY",
              help="Sign receipts with KEY for moves whose dice your reveal keys (quick results).")
def fetch(game_dir: Path, receipt_key: str | None) -> None:
    """Read this game's emails from your IMAP mailbox and ingest every new one.

    Each mail is reported: ingested (and what it did), already in the archive, or not ingested and
    why (corrupted, another game's, a forgery...). Nothing is deleted from the mailbox, and a mail
    that could not be ingested is looked at again once the archive moves on. Server settings: mail.toml in your
    pbem home (or PBEM_IMAP_* variables).
    """
    from pbem.engine.gamedir import open_checked
    from pbem.engine.play import ingest as play_ingest
    from pbem.mail.draft import extract_attachments
    from pbem.mail.transport import fetch as imap_fetch
    from pbem.mail.transport import load_config
    from pbem.protocol.keys import home as pbem_home
    from pbem.protocol.localstate import LocalGame

    first = open_checked(game_dir)
    local = LocalGame.of(first)
    server = load_config(pbem_home(), "imap")

    def ingest_one(raw: bytes, label: str) -> str:
        game, _local, seeds = open_with_seeds(game_dir)
        blobs = extract_attachments(raw)
        result = play_ingest(game, blobs, seeds)
        moves = [p.name for p in result.written if p.name.startswith(("move-", "join-"))]
        if moves:
            return "ingested " + ", ".join(moves) + (f"; now waiting for {result.replay.waiting}"
                                                    if result.replay.waiting else "")
        return "; ".join(result.notes[:2]) or "nothing new"

    def position() -> str:  # what a refused mail waits for to change: the archive's signed files
        from pbem.protocol import archive as arch

        listing = arch.scan(game_dir)
        return (f"moves {max(listing.moves, default=0)} {len(listing.moves)} joins {len(listing.joins)} "
                f"receipts {sum(1 for n in listing.other if n.startswith('receipt-'))} "
                f"publication {int('publication.json' in listing.other)}")

    with _progress("fetching") as tick:
        result = imap_fetch(first.id, local.dir, server, ingest_one, progress=tick, position=position)
    for line in result.reports:
        echo(line)
    if not result.reports:
        echo("no new mail for this game", err=True)
    if receipt_key is not None:
        write_receipt(game_dir, receipt_key)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
def remind(game_dir: Path) -> None:
    """Draft a polite reminder to whoever owes a message, with the agreed clock (see status).

    Writes mail-remind-STEP-SIDE-N.eml beside the game's other drafts ('pbem send' sends it). pbem
    shows the clock; it never decides a game on time: no date it could sign would prove anything.
    """
    from pbem.engine.clock import TimeControl, standing
    from pbem.mail.compose import reminder_email, write_mail

    game, local, seeds = open_with_seeds(game_dir)
    rp = game.replay(seeds, local=local)
    if not rp.records or rp.closed:
        raise InputError("nobody owes a message: " + ("the game is over" if rp.closed else f"waiting for {rp.waiting}"))
    mine = [s for s in local.sides() if s in game.sides]
    owing = rp.owing()
    if not owing:
        raise InputError(f"waiting for {rp.waiting}: nothing to remind of yet")
    owing = [s for s in owing if s not in mine]
    if not mine or not owing:
        raise InputError("the message owed is yours: nothing to remind anyone of")
    clock_text = "no clock was agreed for this game"
    if game.body.time_control is not None:
        control = TimeControl.of(game.body.time_control)
        clock_text = f"{control.describe()}; {standing(control, game.newest_mtime(), time.time()).describe(control)}"
    step = rp.placed_count
    written = []
    for side in owing:
        raw = reminder_email(game, mine[0], side, clock_text, str(rp.waiting), step)
        n = 1
        while os.path.lexists(game.dir / names.remind_mail_name(step, side, n)):
            n += 1
        written += write_mail(game, game.dir / names.remind_mail_name(step, side, n), raw)
    echo_files(written)
    echo(f"clock: {clock_text}", err=True)
