"""Shell completion for what players type: scenario ids, unit ids of the side to move, hexes.

Click completes commands and options by itself (``eval "$(_PBEM_COMPLETE=bash_source pbem)"``;
``zsh_source``, ``fish_source`` likewise); these callbacks complete arguments from the game: they
read the game directory named earlier on the command line and never write, and any problem simply
offers nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # imported where a completion runs: a command that only runs never loads it [28]
    from click.shell_completion import CompletionItem


def scenario_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from click.shell_completion import CompletionItem

    try:
        from pbem.engine.scenarios import bundled_ids

        return [CompletionItem(i) for i in bundled_ids() if i.startswith(incomplete)]
    except Exception:
        return []


def _replay(ctx: click.Context) -> Any:
    from pbem.cli._common import open_with_seeds

    game_dir = ctx.params.get("game_dir")
    if game_dir is None:
        return None, None
    game, local, seeds = open_with_seeds(Path(game_dir), derive=False)
    return game, game.replay(seeds, local=local)


def unit_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Units of the side whose decision it is (the ids orders take)."""
    from click.shell_completion import CompletionItem

    try:
        game, rp = _replay(ctx)
        if game is None or not rp.records or not rp.current.pending:
            return []
        side = rp.current.pending[0].side
        _header, rows = game.ruleset.presenter().roster(game.scenario, rp.current.state, side)
        return [CompletionItem(r[0], help=f"{r[2]} {r[3]} {r[4]}") for r in rows
                if str(r[0]).startswith(incomplete)]
    except Exception:
        return []


def hexes(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Hexes the unit named before can reach this phase (every hex of the map otherwise)."""
    from click.shell_completion import CompletionItem

    try:
        game, rp = _replay(ctx)
        if game is None or not rp.records:
            return []
        unit = ctx.params.get("unit")
        if unit:
            lines = game.ruleset.presenter().reach(game.scenario, rp.current.state, unit)
            found = [line.split()[0] for line in lines[1:] if line.startswith("  ") and line.split()[0].isdigit()]
        else:
            cur = rp.current
            view = game.ruleset.presenter().map_view(
                game.scenario, cur.turn["state"] if cur.state is None else cur.state, [])
            found = [str(h) for h in view.all_hexes()] if view is not None else []
        return [CompletionItem(h) for h in found if h.startswith(incomplete)]
    except Exception:
        return []
