"""Terminal output of the commands: everything printed goes through :func:`echo`, which shows
control characters found in game data (scenario names, signed orders) as escapes instead of letting
them reach the terminal (:func:`pbem.errors.terminal_safe`)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

from pbem.errors import terminal_safe


def echo(message: Any = None, *, err: bool = False, nl: bool = True) -> None:
    """Print text that may hold data from files (as :func:`click.echo` would: flushed at once)."""
    if isinstance(message, bytes):
        import click

        click.echo(message, err=err, nl=nl)
        return
    text = "" if message is None else terminal_safe(str(message))
    plain_write(text + "\n" if nl else text, err=err)


def plain_write(text: str, *, err: bool = False) -> None:
    """Write ``text`` to stdout (stderr) and flush. Where the stream's encoding cannot hold a
    character: a stream that says ASCII gets UTF-8, as click writes to it (a terminal that
    misreports its encoding); any other gets the text with escapes rather than a traceback."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    try:
        stream.write(text)
    except UnicodeEncodeError:
        import codecs

        encoding = getattr(stream, "encoding", None) or "utf-8"
        buffer = getattr(stream, "buffer", None)
        if buffer is not None and codecs.lookup(encoding).name == "ascii":
            stream.flush()
            buffer.write(text.encode("utf-8"))
        else:
            stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
    stream.flush()


@contextlib.contextmanager
def progress(label: str, total: int | None = None) -> Iterator[Any]:
    """A progress bar on the terminal's stderr for a long command: yields ``tick(done, total)``;
    the bar appears once a tick (or ``total``) says the job has 40 steps or more, and never when
    stderr is not a terminal."""
    import sys

    state: dict[str, Any] = {"bar": None, "seen": 0}

    def tick(done: int, of: int) -> None:
        if state["bar"] is None:
            if of < 40 or not sys.stderr.isatty():
                return
            import click

            bar: Any = click.progressbar(length=of, label=label, file=sys.stderr, show_pos=True)
            bar.__enter__()
            state["bar"] = bar
        if done > state["seen"]:
            state["bar"].update(done - state["seen"])
            state["seen"] = done

    try:
        yield tick
    finally:
        if state["bar"] is not None:
            state["bar"].__exit__(None, None, None)
