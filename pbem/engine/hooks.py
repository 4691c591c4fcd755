"""Visitors of a game directory: what a command asks the engine to do beside the rules.

The engine knows no renderer and no mail. A command that writes or verifies an archive hands the
game its :class:`Hooks` when it opens it (``Game.open(dir, hooks=...)``, python-chess's way of
passing visitors rather than registering them in the process): :func:`pbem.render.engine_hooks`
gives the maps and the email drafts; tests hand their own. Nothing is held between two games.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.plain import Plain

if TYPE_CHECKING:  # the hooks' arguments; the engine modules import this one
    from pbem.engine.gamedir import Game
    from pbem.engine.replay import Replay
    from pbem.engine.steps import StepRecord
    from pbem.protocol.archive import Message

Checker = Callable[["Game", "Replay"], None]
"""A derived-file checker run at the end of :meth:`Game.verify`: raise
:class:`pbem.errors.VerificationError` naming the first bad derived file."""

Output = Callable[["Game", "Replay", "StepRecord"], list[Path]]
"""Called by :meth:`Replay.write` for every turn the replay holds (new or archived): writes the
derived files (the map) that are missing -- cheaply skipping those already there, so a map a killed
process never wrote is drawn by the next command -- and returns the paths it created."""

MoveOutput = Callable[["Game", "Replay", "Message"], list[Path]]
"""Called after a move signed on this machine is written (and every turn it made resolvable);
writes what the player sends (the email draft) and returns the paths."""

ReceiptOutput = Callable[["Game", "Replay", str, bytes], list[Path]]
"""Called after a receipt is signed here, with its file name and bytes; writes what the player
sends (the receipt's email draft) and returns the paths."""


class Hooks(Plain, frozen=True):
    """The visitors of one opened game (each tuple run in order)."""

    checkers: tuple[Checker, ...] = ()
    outputs: tuple[Output, ...] = ()
    move_outputs: tuple[MoveOutput, ...] = ()
    receipt_outputs: tuple[ReceiptOutput, ...] = ()


NO_HOOKS = Hooks()
"""The rules and the archive only: nothing derived is written or checked."""
