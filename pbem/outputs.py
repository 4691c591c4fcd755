"""The derived files a command writes beside the archive, handed to the engine as its hooks: the
maps (:mod:`pbem.render`) and the email drafts (:mod:`pbem.mail.compose`). The engine knows
neither; commands that write or verify an archive open the game with :func:`engine_hooks`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.engine.hooks import Hooks


def engine_hooks() -> Hooks:
    """Write ``map-NNNN.svg`` after each new turn file and ``mail-NNNN.eml`` after each move signed
    here (and a receipt's email), and make ``pbem verify`` check every map and draft against
    ``derived.sha256`` (``--redraw``: draw every map again). Importing this module is cheap: the
    renderer and the mail code load here, when a command asks for them."""
    from pbem.engine.hooks import Hooks
    from pbem.mail.compose import move_output_hook, receipt_output_hook
    from pbem.render.outputs import check_maps, output_hook

    return Hooks(checkers=(check_maps,), outputs=(output_hook,), move_outputs=(move_output_hook,),
                 receipt_outputs=(receipt_output_hook,))
