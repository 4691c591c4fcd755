"""Map snapshots (SVG) and the derived files of a game directory.

Importing this package is cheap: :mod:`pbem.render.svg` (svgwrite) and :mod:`pbem.render.outputs`
load only when used. The rules never import it.
"""

from __future__ import annotations


def register_engine_hooks() -> None:
    """Called by :func:`pbem.engine.load_plugins`: write ``map-NNNN.svg`` after each new turn file
    and ``mail-NNNN.eml`` after each move signed here, and make ``pbem verify`` compare every map
    with a fresh rendering."""
    from pbem.engine.replay import register_checker, register_move_output, register_output
    from pbem.render.outputs import check_maps, move_output_hook, output_hook

    register_output(output_hook)
    register_move_output(move_output_hook)
    register_checker(check_maps)
