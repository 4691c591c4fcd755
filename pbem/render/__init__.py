"""Map snapshots (SVG) and the derived files of a game directory.

Importing this package is cheap: :mod:`pbem.render.svg` (svgwrite) and :mod:`pbem.render.outputs`
load only when used. The rules never import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.engine.hooks import Hooks


def engine_hooks() -> Hooks:
    """The visitors a command that writes or verifies an archive hands the engine: write
    ``map-NNNN.svg`` after each new turn file and ``mail-NNNN.eml`` after each move signed here (and a receipt's email),
    and make ``pbem verify`` compare every map with a fresh rendering."""
    from pbem.engine.hooks import Hooks
    from pbem.render.outputs import check_maps, move_output_hook, output_hook, receipt_output_hook

    return Hooks(checkers=(check_maps,), outputs=(output_hook,), move_outputs=(move_output_hook,),
                 receipt_outputs=(receipt_output_hook,))
