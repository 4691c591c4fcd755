"""The ``pbem`` command: a thin click group whose subcommands load lazily.

``pbem --help`` must start fast (the brief's target is 150 ms), so no subcommand module -- and
therefore neither cryptography, svgwrite nor jinja2 -- is imported until a command runs.
Each entry of :data:`COMMANDS` names the module and attribute that implement it, with its one-line
help shown by ``pbem --help``.

User errors (:class:`pbem.errors.PbemError`) become one line on stderr and the error's exit code
(2 for bad input, 1 for a failed verification; a bug in pbem itself, 70); no traceback, no terminal control characters, and
no more than a few hundred characters of any line (:func:`pbem.errors.error_text`).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

COMMANDS: dict[str, tuple[str, str]] = {
    # name: ("module:attribute", "short help")
    "key": ("pbem.cli.keys:key", "Create, import, show and list signing keys."),
    "new": ("pbem.cli.setup:new", "Start a game: write the genesis (or an invitation)."),
    "join": ("pbem.cli.setup:join", "Accept an invitation: add your dice commitment and signature."),
    "status": ("pbem.cli.look:status", "Game, turn, phase, whose move it is, score."),
    "orders": ("pbem.cli.look:orders", "Print a JSON skeleton of the pending decision."),
    "draft": ("pbem.cli.draft:draft", "Build your orders one at a time, each checked; sign later."),
    "check": ("pbem.cli.play:check", "Show exactly what your orders would sign; sign nothing."),
    "submit": ("pbem.cli.play:submit", "Check, sign and adjudicate your orders."),
    "reveal": ("pbem.cli.play:reveal", "Reveal your sealed orders once every side has committed."),
    "rule": ("pbem.cli.umpire:rule", "Umpire: read the sealed orders and sign your rulings."),
    "send": ("pbem.cli.mailbox:send", "Send this game's drafted emails over SMTP (mail.toml)."),
    "fetch": ("pbem.cli.mailbox:fetch", "Read this game's emails over IMAP and ingest them."),
    "remind": ("pbem.cli.mailbox:remind", "Draft a polite reminder to whoever owes a message."),
    "receipt": ("pbem.cli.play:receipt", "Send the reveal your opponent's move waits for (quick results)."),
    "html": ("pbem.cli.look:html", "Write a static site to step through the game in a browser."),
    "report": ("pbem.cli.umpire:report", "Umpire: resolve a hidden round and report to each side."),
    "publish": ("pbem.cli.umpire:publish", "Umpire: publish every sealed order after the game."),
    "units": ("pbem.cli.look:units", "Your forces: ids, counters, hexes, values, state."),
    "reach": ("pbem.cli.look:reach", "Where a unit can move this phase, and what is closed."),
    "retract": ("pbem.cli.play:retract", "Discard your newest move when it was never sent."),
    "takeback": ("pbem.cli.takeback:takeback", "Take back your newest move with your opponent's consent."),
    "ingest": ("pbem.cli.play:ingest", "Take the opponent's move files (or .eml) and adjudicate."),
    "verify": ("pbem.cli.verify:verify", "Replay the archive, checking every signature, roll and state."),
    "log": ("pbem.cli.look:log", "Readable history, every roll with its label and inputs."),
    "schema": ("pbem.cli.look:schema", "JSON Schema of orders, rulings, move, receipt, turn or genesis files."),
    "scenarios": ("pbem.cli.scenarios:scenarios", "List the bundled scenarios."),
    "scenario": ("pbem.cli.scenarios:scenario", "Copy a bundled scenario to edit; check a scenario file."),
    "render": ("pbem.cli.render:render", "Draw the map (SVG) as it stands after a step."),
    "mail": ("pbem.cli.render:mail", "Write the email (.eml) for a step."),
    "bot": ("pbem.cli.bot:bot", "Let the sparring bot write and submit orders for a side."),
    "case": ("pbem.cli.cases:case", "Run numbered rules cases of the case book; write a book's index."),
}


EXAMPLES: dict[str, str] = {
    # command path (after "pbem") -> an example, shown at the end of its --help
    "key": "pbem key new alice",
    "key new": "pbem key new alice",
    "key import": "pbem key import ~/.ssh/id_ed25519 --name alice",
    "key show": "pbem key show alice          # read the fingerprint to your opponent",
    "key list": "pbem key list",
    "new": "pbem new bastogne-spearhead game/ --player DE=alice --player US=bob.pub",
    "join": "pbem join game/ --key bob --invitation mail-invite-US.eml --expect DE=SHA256:...",
    "status": "pbem status game/",
    "orders": "pbem orders game/ --side US > my-orders.json   # or --text: a commented text file",
    "units": "pbem units game/ --side DE",
    "reach": "pbem reach game/ 1/501 --map reach.svg",
    "check": "pbem check game/ my-orders.txt --key bob",
    "submit": "pbem submit game/ my-orders.txt --key bob",
    "reveal": "pbem reveal game/ --key bob",
    "rule": "pbem rule game/ rulings.json --key control",
    "send": "pbem send game/",
    "fetch": "pbem fetch game/",
    "remind": "pbem remind game/",
    "receipt": "pbem receipt game/ --key bob",
    "html": "pbem html game/ -o site/",
    "report": "pbem report game/ --key control",
    "publish": "pbem publish game/ --key control",
    "retract": "pbem retract game/",
    "ingest": "pbem ingest game/ mail-0002.eml",
    "takeback": "pbem takeback request game/ --key alice",
    "takeback request": "pbem takeback request game/ --key alice",
    "takeback consent": "pbem takeback consent game/ takeback-0005-DE-1.json --key bob",
    "verify": "pbem verify game/",
    "log": "pbem log game/ --step 3",
    "schema": "pbem schema orders --system westwall > orders.schema.json",
    "scenarios": "pbem scenarios",
    "scenario": "pbem scenario check my-scenario.json",
    "scenario check": "pbem scenario check my-scenario.json",
    "render": "pbem render game/ -o now.svg --around 1317 --radius 4",
    "mail": "pbem mail draft game/ --step 2 -o mail-0002.eml",
    "mail draft": "pbem mail draft game/ --step 2 -o mail-0002.eml",
    "bot": "pbem bot game/ --side DE --key alice",
    "case": "pbem case run cases/westwall/900-crt-de-elim.json",
    "case run": "pbem case run cases/westwall/900-crt-de-elim.json",
    "case index": "pbem case index cases/westwall --out docs/cases/westwall.md",
    "draft": "pbem draft move game/ 1/501 1418",
    "draft move": "pbem draft move game/ 1/501 1418",
    "draft enter": "pbem draft enter game/ 1/3 2913 2812 2712",
    "draft exit": "pbem draft exit game/ 1/901 0214 0114",
    "draft attack": "pbem draft attack game/ 20 --with 1/3 --with 2/3 --advance 1/3 1",
    "draft order": "pbem draft order game/ 'fpf 755 protects 1/501'",
    "draft show": "pbem draft show game/",
    "draft undo": "pbem draft undo game/",
    "draft clear": "pbem draft clear game/",
}


WHOLE_PROCESS = False
"""Whether :func:`main` runs as the process's own command (the console script: ``argv`` is
``None``) rather than called in-process (tests, benchmarks). A command may then make process-wide
choices that only pay off in a process that ends with it (``pbem verify``: :func:`gc.freeze`)."""


WHOLE_PROCESS_GC_THRESHOLD = 100_000
"""Allocations between two collections of the youngest generation when a command is the whole
process (Python's default is 700)."""


def main(argv: list[str] | None = None) -> Any:
    """Console entry point: run the group, turning pbem errors into one line and an exit code.

    As the whole process (the console script), the cyclic garbage collector collects the young
    generation every :data:`WHOLE_PROCESS_GC_THRESHOLD` allocations instead of 700: importing
    the engine, the archive and the rules' records makes hundreds of thousands of objects that live
    until the process ends, and collecting every 700 of them traversed that growing heap again and
    again (~10% of a ``pbem status``, bench/README.md). Garbage cycles are still collected, later.
    When the command has succeeded, everything still alive is handed to :func:`gc.freeze`: the
    process ends now, and the collection at interpreter exit then no longer traverses the modules
    and models (another ~10%), as ``pbem verify`` already did. Called in-process (tests, benchmarks)
    the collector is left alone."""
    global WHOLE_PROCESS
    if argv is None:
        WHOLE_PROCESS = True
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(WHOLE_PROCESS_GC_THRESHOLD, older, oldest)
        try:
            result = _run_group(argv)
        except Exception as exc:  # a bug in pbem: one line, as for every refusal (SystemExit passes)
            if os.environ.get(TRACEBACK_ENV):
                raise
            _internal_error(exc)
        gc.freeze()
        return result
    return _run_group(argv)


TRACEBACK_ENV = "PBEM_TRACEBACK"
"""Set (to anything) in the environment: an internal error shows Python's traceback."""

INTERNAL_ERROR_EXIT = 70
"""The exit code of a bug in pbem (``EX_SOFTWARE``): not the user's input (2), not a failed
verification (1)."""


def _internal_error(exc: Exception) -> NoReturn:
    """A bug in pbem met by the console command: one line naming the exception and where it was
    raised, not a traceback a player cannot act on; the files the command created were already
    removed (:func:`pbem.protocol.fsutil.transaction`). Exit :data:`INTERNAL_ERROR_EXIT`."""
    import traceback

    from pbem.errors import error_text

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    detail = error_text(f"{type(exc).__name__}{where}: {exc}".replace("\n", " "))
    sys.stderr.write(f"pbem: internal error ({detail}). This is a bug in pbem, not in your files; "
                     f"the files this command had begun to write were removed. Please report it with "
                     f"the command you ran "
                     f"({TRACEBACK_ENV}=1 shows the traceback).\n")
    sys.exit(INTERNAL_ERROR_EXIT)


def __getattr__(name: str) -> Any:
    """``pbem.cli.cli`` (the click group) and its helpers, imported when first asked for."""
    if name in ("cli", "LazyGroup", "_with_examples"):
        from pbem.cli import _group

        return getattr(_group, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _run_group(argv: list[str] | None) -> Any:
    import click

    from pbem.cli._group import cli
    from pbem.errors import error_text

    def say(text: str) -> None:
        click.echo(text, err=True)

    try:
        with _one_line_errors(say):
            result = cli.main(args=argv, prog_name="pbem", standalone_mode=False)
    except click.exceptions.Abort:
        say("Aborted.")
        sys.exit(1)
    except click.exceptions.UsageError as exc:
        # one line, like every other refusal: what is wrong and where the help is
        where = exc.ctx.command_path if exc.ctx is not None else "pbem"
        say(f"pbem: {error_text(exc.format_message())} (see '{where} --help')")
        sys.exit(exc.exit_code)
    except click.exceptions.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)

    if isinstance(result, int) and result != 0:  # a command that ended with ctx.exit(code)
        sys.exit(result)
    return result


@contextmanager
def _one_line_errors(say: Callable[[str], None]) -> Iterator[None]:
    """Around a command: the files it created are removed if it fails; a pbem error, an
    interruption or a disk fault becomes one line (``say``) and an exit code."""
    from pbem.errors import PbemError, error_text
    from pbem.protocol.fsutil import transaction

    try:
        with transaction():  # a command that fails removes the files it created
            yield
    except PbemError as exc:
        say(f"pbem: {error_text(str(exc))}")
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        say("Interrupted; nothing half-written was kept.")
        sys.exit(130)
    except OSError as exc:  # a disk fault not met by a write pbem guards: still one line
        where = f": {exc.filename}" if exc.filename else ""
        say(f"pbem: {error_text((exc.strerror or str(exc)) + str(where))}")
        sys.exit(2)
