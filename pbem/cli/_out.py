"""Terminal output of the commands: everything printed goes through :func:`echo`, which shows
control characters found in game data (scenario names, signed orders) as escapes instead of letting
them reach the terminal (:func:`pbem.errors.terminal_safe`)."""

from __future__ import annotations

from typing import Any

import click

from pbem.errors import terminal_safe


def echo(message: Any = None, *, err: bool = False, nl: bool = True) -> None:
    """:func:`click.echo` for text that may hold data from files."""
    if message is not None and not isinstance(message, bytes):
        message = terminal_safe(str(message))
    click.echo(message, err=err, nl=nl)
