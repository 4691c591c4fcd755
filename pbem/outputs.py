"""The derived files a command writes beside the archive, handed to the engine as its hooks: the
maps (:mod:`pbem.render`) and the email drafts (:mod:`pbem.mail.compose`). The engine knows
neither; commands that write or verify an archive open the game with :func:`engine_hooks`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from pbem.engine.gamedir import Game
    from pbem.engine.hooks import Hooks
    from pbem.engine.replay import Replay
    from pbem.engine.steps import StepRecord
    from pbem.protocol.archive import Message


def engine_hooks() -> Hooks:
    """Write ``map-NNNN.svg`` after each new turn file and ``mail-NNNN.eml`` after each move signed
    here (and a receipt's email), and make ``pbem verify`` check every map and draft against
    ``derived.sha256`` (``--redraw``: draw every map again). Importing this module is cheap, and so
    is calling this: the renderer and the mail code load when a hook first runs, so a command that
    writes nothing derived (``status``, ``check``) never imports them [28 item 4]."""
    from pbem.engine.hooks import Hooks

    return Hooks(checkers=(_check_maps,), outputs=(_output_hook,), move_outputs=(_move_output_hook,),
                 receipt_outputs=(_receipt_output_hook,))


def _check_maps(game: Game, rp: Replay) -> None:
    """Every map and email draft present is the file pbem wrote (its hash in ``derived.sha256``);
    with ``--redraw`` every map is drawn again too (the renderer loads only then)."""
    from pbem.engine import derived

    derived.check(game.dir, list(game.listing.other))
    if game.redraw:
        from pbem.render.outputs import check_redrawn

        check_redrawn(game, rp)


def _output_hook(game: Game, rp: Replay, record: StepRecord) -> list[Path]:
    from pbem.render.outputs import output_hook

    return output_hook(game, rp, record)


def _move_output_hook(game: Game, rp: Replay, message: Message) -> list[Path]:
    from pbem.mail.compose import move_output_hook

    return move_output_hook(game, rp, message)


def _receipt_output_hook(game: Game, rp: Replay, name: str, raw: bytes) -> list[Path]:
    from pbem.mail.compose import receipt_output_hook

    return receipt_output_hook(game, rp, name, raw)
