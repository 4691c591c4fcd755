"""``pbem render`` (the map after a step, as SVG) and ``pbem mail draft`` (the email for a step).

The work is done by :mod:`pbem.render.outputs` (reading a step of the archive, drawing) and
:mod:`pbem.mail.compose` (drafting); this module is the click layer.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli._common import write_output
from pbem.cli._out import echo
from pbem.errors import InputError
from pbem.mail.compose import email_as_written, move_email
from pbem.render.outputs import StepView, as_written, open_game, private_svg


def _emit(data: bytes, output: Path | None, game_dir: Path) -> None:
    if output is None or str(output) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    write_output(output, data, game_dir)
    echo(str(output), err=True)


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--step", type=int, default=None,
              help="Turn file to draw (default: the newest); without the options below, the map "
                   "pbem wrote for it, byte for byte.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the SVG here instead of standard output.")
@click.option("--side", default=None, help="Draw the map as this side sees it.")
@click.option("--around", default=None, metavar="HEX", help="Crop the map around this hex.")
@click.option("--radius", type=int, default=None, help="With --around: hexes to show (default 3).")
@click.option("--zoc", default=None, metavar="SIDE", help="Shade the zones of control of SIDE's units.")
def render(game_dir: Path, step: int | None, output: Path | None, side: str | None,
           around: str | None, radius: int | None, zoc: str | None) -> None:
    """Draw the map (SVG) as it stands after a step, with what that step did.

    Only the newest step's map is kept in the game directory: this draws any step's again, and
    without --side, --around or --zoc it is the map pbem wrote then, byte for byte (checked against
    derived.sha256)."""
    if radius is not None and around is None:
        raise InputError("--radius needs --around HEX")
    game = open_game(game_dir)
    if game.hidden:  # no state in the turn files: this machine draws what its side may see [P10]
        if zoc is not None:
            raise InputError("with hidden information only your own side's map is drawn (no --zoc)")
        svg = private_svg(game, side, around=around, radius=radius, step=step)
    elif side is None and around is None and zoc is None:
        data, same = as_written(game, step)
        if same is False:
            echo("note: this map differs from the one recorded in derived.sha256 (drawn by another pbem?)",
                 err=True)
        _emit(data, output, game_dir)
        return
    else:
        svg = StepView(game, step).svg(side=side, around=around, radius=radius, zoc=zoc)
    _emit(svg.encode("utf-8"), output, game_dir)


@click.group()
def mail() -> None:
    """Turn emails."""


@mail.command("draft")
@click.argument("game_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--step", type=int, default=None, help="The move to send (default: the newest).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the .eml here instead of standard output.")
@click.option("--templates", "template_dir", default=None,
              type=click.Path(file_okay=False, path_type=Path),
              help="Your own mail templates (default: $PBEM_HOME/templates).")
@click.option("--webmail", is_flag=True,
              help="Also draw the map as a PNG inside the HTML part, as 'pbem send' does, so webmail "
                   "shows it (for sending this file by hand).")
def draft(game_dir: Path, step: int | None, output: Path | None,
          template_dir: Path | None, webmail: bool) -> None:
    """Write the email (.eml) that carries a move: what happened, the orders, the map and the files
    to attach (the move, the turn file it answers, that turn's map).

    A move's email is kept in the game directory until every other side has answered it; this
    writes any move's again, the same bytes pbem wrote then (with the same templates)."""
    game = open_game(game_dir)
    if template_dir is None:  # the email pbem wrote then (derived.sha256), drafted again
        eml, same = email_as_written(game, step)
        if same is False:
            echo("note: this email differs from the one recorded in derived.sha256 (other templates in "
                 "your pbem home, or drafted by another pbem)", err=True)
    else:
        eml = move_email(game, step, template_dir=template_dir)
    if webmail:
        import email
        import email.policy

        from pbem.mail.transport import with_inline_map

        msg = with_inline_map(email.message_from_bytes(eml, policy=email.policy.SMTP))
        eml = msg.as_bytes(policy=email.policy.SMTP)
    _emit(eml, output, game_dir)
