"""The work of ``pbem verify`` (the command itself, and its arguments: :mod:`pbem.cli.verify`), in
a module that imports no click: every command, verify too, enters through the one click group
(:func:`pbem.cli.main`), and this module loads only what checking needs (not the other game
commands, their completion helpers and what they import)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.cli._out import echo, progress
from pbem.errors import InputError
from pbem.protocol import names

if TYPE_CHECKING:
    from pbem.engine.gamedir import Game


def run(game_dir: Path, redraw: bool) -> None:
    """Replay ``game_dir`` from the genesis and print the report (``pbem verify``)."""
    with _opening():
        from pbem.engine.gamedir import open_for_verify
        from pbem.outputs import engine_hooks
        from pbem.protocol.localstate import LocalGame, local_seeds

        game = open_for_verify(game_dir, engine_hooks())
    game.redraw = redraw
    viewer_keys: dict[str, Any] = {}
    umpire_key = None
    try:
        local = LocalGame.of(game)
        seeds = local_seeds(game, local, derive=False)
        if game.hidden:  # our own views: they open, and after the publication they are ours [P10, 29]
            from pbem.protocol.localstate import viewer_keys as local_viewer_keys

            viewer_keys, _ = local_viewer_keys(game, local, ask=(game.dir / names.PUBLICATION).exists())
            umpire_key = _umpire_key(game, local)
    except InputError:  # local state of another game with this id: verify as a stranger does
        seeds = {}
    with progress("verifying", len(game.listing.moves)) as tick:
        s = game.verify(seeds, viewer_keys, progress=tick, umpire_key=umpire_key)
    echo(f"game        {s.game}")
    echo(f"scenario    {s.scenario}")
    for side in game.sides:
        echo(f"key         {side:<6} {game.body.sides[side].fingerprint}")
    echo(f"steps       {s.steps} moves, {s.turns_checked} turn files recomputed byte for byte")
    echo(f"signatures  {s.signatures} checked")
    echo(f"rolls       {s.rolls} re-derived")
    for name in s.unchecked:
        echo(f"not yet     {name}: its dice need the next move (links checked)")
    for note in s.notes:
        echo(f"note        {note}")
    _derived_line(game)
    echo(f"outcome     {s.outcome}" if s.outcome else f"awaiting    {s.waiting}")
    echo("OK")
    _ending()


def _derived_line(game: Game) -> None:
    """How many maps and emails were checked against ``derived.sha256``, and how many it lists
    that are not kept (only the newest step's are: issue 28) -- not an error."""
    from pbem.engine import derived

    recorded = derived.read(game.dir)
    if not recorded:
        return
    present = sum(1 for n in game.listing.other if n in recorded)
    absent = len(recorded) - present
    echo(f"derived     {present} map(s) and email(s) are the files pbem wrote"
         + (f"; {absent} more listed in {names.MANIFEST}, not kept ('pbem render --step N', 'pbem mail "
            "draft --step N' draw them again)" if absent else ""))


def _umpire_key(game: Game, local: Any) -> Any:
    """On Game Control's machine mid-game (its key here, usable without asking): the umpire's key,
    so that verify opens every sealed order and recomputes every state, report and roll, as the
    publication will let anyone do after the game [29]. ``None`` elsewhere."""
    from pbem.protocol.localstate import private_key, usable_key

    umpire = game.umpire
    name = local.sides().get(umpire) if umpire is not None else None
    if umpire is None or name is None or not usable_key(name):
        return None
    # cryptography's HPKE: imported only for the umpire's own key
    from pbem.protocol.seal import x25519_private

    return x25519_private(private_key(name), game.id, umpire)


@contextmanager
def _opening() -> Iterator[None]:
    """Around importing the engine and the rules and opening the archive, when ``pbem verify`` is
    the whole process: what is made then -- the modules, the rules' records, the scenario,
    the parsed genesis and joins -- lives until the process ends, so the cyclic garbage collector
    is paused while it is made and then handed all of it for good (:func:`gc.freeze`). It then no
    longer traverses those objects in each collection during the replay nor in the one at
    interpreter exit: ~40 ms of ~330 ms for a 38-step campaign (bench/README.md). The replay then
    runs with a young generation of :data:`REPLAY_GC_THRESHOLD` objects rather than 700: it makes
    and drops many short-lived objects, nearly none of them in reference cycles (freed at once),
    so collecting them every 700 allocations was work for nothing (~4 ms); cycles, if a game's
    rules make any, are still collected. Nothing is checked differently. Not done when verify is
    called in-process (tests), where freezing would keep that process's older garbage cycles for
    good."""
    from pbem import cli

    if not cli.WHOLE_PROCESS:
        yield
        return
    import gc

    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        _, older, oldest = gc.get_threshold()
        gc.set_threshold(REPLAY_GC_THRESHOLD, older, oldest)
        gc.enable()


REPLAY_GC_THRESHOLD = 100_000
"""Allocations between two collections of the youngest generation during a whole-process
``pbem verify`` (Python's default is 700): at most some megabytes of garbage cycles wait."""


def _ending() -> None:
    """When ``pbem verify`` is the whole process and has succeeded: the replay's records die with
    the process, so they are frozen too rather than traversed by the collection at interpreter
    exit (~4 ms for a 38-step campaign)."""
    from pbem import cli

    if cli.WHOLE_PROCESS:
        import gc

        gc.freeze()
