"""The ``pbem`` click group (imported by :func:`pbem.cli.main` when a command needs click: every
command but the plain ``pbem verify GAME_DIR``)."""

from __future__ import annotations

import importlib

import click

from pbem.cli import COMMANDS, EXAMPLES


def _with_examples(command: click.Command, path: str) -> click.Command:
    """Every command's --help ends with an example (set once, also on subcommands)."""
    example = EXAMPLES.get(path)
    if example is not None and not command.epilog:
        command.epilog = "\b\nExample:\n  " + example
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            _with_examples(sub, f"{path} {name}")
    return command


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
        return _with_examples(command, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``pbem --version``: pbem's release and the rules version of every system it plays (what a
    genesis records, so players can tell whether their pbems play the same rules) [23]."""
    if not value or ctx.resilient_parsing:
        return
    from pbem import __version__
    from pbem.engine.ruleset import rules_versions

    click.echo(f"pbem {__version__}")
    for system, rules in rules_versions().items():
        click.echo(f"  {system:<16}{rules}")
    ctx.exit()


@click.group(cls=LazyGroup)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show pbem's version and the rules version of each system, and exit.")
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
