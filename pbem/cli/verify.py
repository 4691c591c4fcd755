"""``pbem verify``: a module of its own, so that the command users run to check a whole campaign
loads only what checking needs; the work is :func:`pbem.cli.verify_run.run`."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("game_dir", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--redraw", is_flag=True, help="Also draw every map again and compare it byte for byte.")
def verify(game_dir: Path, redraw: bool) -> None:
    """Replay the archive from the genesis, checking every signature, roll and turn file, and that
    every map and email draft is the file pbem wrote (--redraw: also draw every map again)."""
    from pbem.cli.verify_run import run

    run(game_dir, redraw)
