"""What the game commands share: opening a game with this machine's seeds, the current decision,
the files written, what to do next, and asking before signing.

Thin click wrappers: the work is the engine's (:mod:`pbem.engine.play`, :mod:`pbem.engine.status`,
:mod:`pbem.engine.history`); bad input is an :class:`InputError` (one line, exit 2, nothing
written)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli._out import echo
from pbem.errors import InputError
from pbem.outputs import engine_hooks
from pbem.protocol import archive

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game


def echo_files(paths: list[Path]) -> None:
    for p in paths:
        echo(str(p))


def open_with_seeds(game_dir: Path, *, derive: bool = True) -> tuple[Any, Any, dict[str, bytes]]:
    """Open a game with the chain seeds of the sides this machine plays; ``derive`` (the default)
    re-derives a lost seed file from the private key and the published nonce."""
    from pbem.engine.gamedir import open_checked
    from pbem.protocol.localstate import LocalGame, local_seeds

    game = open_checked(game_dir, engine_hooks())
    local = LocalGame.of(game)
    return game, local, local_seeds(game, local, derive=derive)


def pending_decision(rp: Any, name: str) -> Any:
    from pbem.engine.play import current_decision

    return current_decision(rp)


def next_steps(game: Game, rp: Any, written: list[Path], *, authored: bool = True) -> None:
    """Tell the player what to send and what happens next (stderr)."""
    from pbem.engine.play import next_actions

    for action in next_actions(game, rp, written, authored=authored):
        echo(action.text, err=True)


def write_output(output: Path, data: bytes, game_dir: Path) -> None:
    """Write what a command was asked to write to a file (``-o``, ``--map``), atomically; never over
    a file of the game itself: an archive file, an email (``pbem send`` sends only the drafts pbem
    recorded writing), or a map unless ``data`` is exactly that map as ``derived.sha256`` records
    it (a pruned map written back)."""
    import hashlib

    from pbem.protocol import names
    from pbem.protocol.fsutil import write_replace

    try:
        inside = output.resolve().parent == game_dir.resolve()
    except OSError:
        inside = False
    if inside and names.is_game_file(output.name):
        from pbem.engine import derived

        restorable = output.name == names.BOARD or names.MAP_RE.match(output.name) is not None
        recorded = derived.read(game_dir).get(output.name) if restorable else None
        if recorded is None or hashlib.sha256(data).hexdigest() != recorded:
            raise InputError(f"{output}: a file of the game itself; write this elsewhere (nothing was written)")
    write_replace(output, data, mode=0o644)


def confirmer(yes: bool, question: str, *, show_always: bool = False) -> Any:
    """The ``confirm`` callback of a signing command: show what would be signed and ask on a
    terminal (``--yes``: sign without asking; a pipe without ``--yes``: refuse, naming the flag)."""
    import sys

    def confirm(shown: Any) -> bool:
        if show_always or not yes:
            echo(shown.text(), err=True)
        if yes:
            return True
        if not sys.stdin.isatty():
            raise InputError("not signed: confirm on a terminal, or give --yes")
        return bool(click.confirm(question, default=False, err=True))

    return confirm


def read_input(path: Path, max_json_bytes: int) -> list[tuple[str, bytes]]:
    """A file another player sent: a pbem JSON file (``(its name, bytes)``) or an email (its
    pbem attachments), told apart by content, whatever the file is called (mail clients save
    ``reply.txt``, ``Re: your move``, ``mail-0002.eml.txt``...)."""
    from pbem.engine.play import UTF8_BOM
    from pbem.mail import MAX_EML_BYTES

    raw = archive.read_limited(path, max(max_json_bytes, MAX_EML_BYTES))
    if raw.removeprefix(UTF8_BOM).lstrip()[:1] == b"{":  # a byte-order mark an editor added [29]
        if len(raw) > max_json_bytes:
            raise InputError(f"{path.name}: {len(raw)} bytes, more than the limit of {max_json_bytes}")
        return [(path.name, raw)]
    from pbem.mail.draft import extract_attachments

    return extract_attachments(raw)


def extract_from_eml(path: Path) -> list[tuple[str, bytes]]:
    """The archive attachments (``move-*.json``, ``join-*.json``) of an email file.

    Hook point for :mod:`pbem.mail.draft`: when it provides ``extract_attachments(path) -> list[(name,
    bytes)]`` it is used; until then an ``.eml`` is refused with a clear message."""
    try:
        from pbem.mail import draft as mail
    except ImportError:
        raise InputError(f"{path.name}: reading .eml files needs pbem.mail.draft (not installed yet); "
                         "save the attached move file and ingest that") from None
    fn = getattr(mail, "extract_attachments", None)
    if fn is None:
        raise InputError(f"{path.name}: pbem.mail.draft cannot extract attachments yet")
    result: list[tuple[str, bytes]] = fn(path)
    return result
