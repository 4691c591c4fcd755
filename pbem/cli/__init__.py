"""The ``pbem`` command: a thin click group whose subcommands load lazily.

``pbem --help`` must start fast (the brief's target is 150 ms), so no subcommand module -- and
therefore neither pydantic, cryptography, svgwrite nor jinja2 -- is imported until a command runs.
Each entry of :data:`COMMANDS` names the module and attribute that implement it, with its one-line
help shown by ``pbem --help``.

User errors (:class:`pbem.errors.PbemError`) become one line on stderr and the error's exit code
(2 for bad input, 1 for a failed verification); no traceback, no terminal control characters, and
no more than a few hundred characters of any line (:func:`pbem.errors.error_text`).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

COMMANDS: dict[str, tuple[str, str]] = {
    # name: ("module:attribute", "short help")
    "key": ("pbem.cli.keys:key", "Create, import, show and list signing keys."),
    "new": ("pbem.cli.game:new", "Start a game: write the genesis (or an invitation)."),
    "join": ("pbem.cli.game:join", "Accept an invitation: add your dice commitment and signature."),
    "status": ("pbem.cli.game:status", "Game, turn, phase, whose move it is, score."),
    "orders": ("pbem.cli.game:orders", "Print a JSON skeleton of the pending decision."),
    "check": ("pbem.cli.game:check", "Show exactly what your orders would sign; sign nothing."),
    "submit": ("pbem.cli.game:submit", "Check, sign and adjudicate your orders."),
    "units": ("pbem.cli.game:units", "Your forces: ids, counters, hexes, values, state."),
    "reach": ("pbem.cli.game:reach", "Where a unit can move this phase, and what is closed."),
    "retract": ("pbem.cli.game:retract", "Discard your newest move when it was never sent."),
    "ingest": ("pbem.cli.game:ingest", "Take the opponent's move files (or .eml) and adjudicate."),
    "verify": ("pbem.cli.game:verify", "Replay the archive, checking every signature, roll and state."),
    "log": ("pbem.cli.game:log", "Readable history, every roll with its label and inputs."),
    "schema": ("pbem.cli.game:schema", "JSON Schema of orders, move, turn or genesis files."),
    "scenarios": ("pbem.cli.scenarios:scenarios", "List the bundled scenarios."),
    "scenario": ("pbem.cli.scenarios:scenario", "Check a scenario file you wrote."),
    "render": ("pbem.cli.render:render", "Draw the map (SVG) as it stands after a step."),
    "mail": ("pbem.cli.render:mail", "Write the email (.eml) for a step."),
    "bot": ("pbem.cli.bot:bot", "Let the sparring bot write and submit orders for a side."),
}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand is invoked."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        target, _help = entry
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None  # not built yet
            raise
        command: click.Command = getattr(module, attr)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup)
@click.version_option(package_name="pbem")
def cli() -> None:
    """pbem: play hex-and-counter wargames by email, with signed moves and dice nobody can fix.

    \b
    Typical game:
      pbem key new alice
      pbem new bastogne-spearhead game/ --player DE=alice --player US=bob.pub
      pbem orders game/ --side DE > my-orders.json     (edit it)
      pbem submit game/ my-orders.json --key alice     (email the files it names)
      pbem ingest game/ reply.eml                       (the opponent's answer)
      pbem verify game/
    """


def main(argv: list[str] | None = None) -> Any:
    """Console entry point: run the group, turning pbem errors into one line and an exit code."""
    from pbem.errors import PbemError
    from pbem.protocol.fsutil import transaction

    try:
        with transaction():  # a command that fails removes the files it created
            return cli.main(args=argv, prog_name="pbem", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.exceptions.UsageError as exc:
        # one line, like every other refusal: what is wrong and where the help is
        from pbem.errors import error_text

        where = exc.ctx.command_path if exc.ctx is not None else "pbem"
        click.echo(f"pbem: {error_text(exc.format_message())} (see '{where} --help')", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except PbemError as exc:
        from pbem.errors import error_text

        click.echo(f"pbem: {error_text(str(exc))}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("Interrupted; nothing half-written was kept.", err=True)
        sys.exit(130)
    except OSError as exc:  # a disk fault not met by a write pbem guards: still one line
        from pbem.errors import error_text

        where = f": {exc.filename}" if exc.filename else ""
        click.echo(f"pbem: {error_text((exc.strerror or str(exc)) + str(where))}", err=True)
        sys.exit(2)
