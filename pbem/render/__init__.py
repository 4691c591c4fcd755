"""Map snapshots (SVG) and the derived files of a game directory.

Importing this package is cheap: :mod:`pbem.render.svg` (svgwrite) and :mod:`pbem.render.outputs`
load only when used. The rules never import it.
"""

from __future__ import annotations


def register_engine_hooks() -> None:
    """Called by :func:`pbem.engine.load_plugins`: write ``map-NNNN.svg`` and ``mail-NNNN.eml``
    after each new turn file, and make ``pbem verify`` compare every map with a fresh rendering."""
    from pbem.engine import register_checker, register_output
    from pbem.render.outputs import check_maps, output_hook

    register_output(output_hook)
    register_checker(check_maps)
