"""Regenerate ``examples/bastogne-spearhead/`` and ``examples/arnhem-historical/``.

The Arnhem example is the opening of an SPI Arnhem historical game (the German set-up and three
game-turns, the archive left open), played the same way.

``examples/bastogne-spearhead/``: a complete, signed Bastogne Spearhead game between
the two EXAMPLE keys in ``examples/keys/`` (never use them for a real game), played by the
sparring bot on both sides -- the U.S. set-up, all seven Game-Turns and the closing acknowledge.

The archive (scenario, genesis, moves, turn files) is kept with its derived files: a map per turn
(``map-NNNN.svg``) and the email each player sent with each move (``mail-NNNN.eml``). A player's
directory keeps only the newest step's (pbem removes an older map when it draws a later one, and a
move's email once it is answered); the example keeps them all, each drawn again afterwards the way
``pbem render --step N`` and ``pbem mail draft --step N`` do, and ``pbem verify`` checks every one of
them against the hash ``derived.sha256`` recorded when it was first written. Everything
is fixed (the keys, the game id, the bot's seed; Ed25519 signatures, the committed dice, the maps and
the mails are deterministic), so running it again gives the same files byte for byte -- as long as
the rules, the bot and the renderer are unchanged. ``pbem verify`` recomputes every turn file and
re-renders every map, so after a change to any of them ``tests/release/test_examples.py`` fails until you
run this again and commit the result::

    .venv/bin/python examples/generate.py && git status examples/
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEYS = HERE / "keys"
SCENARIO = "bastogne-spearhead"
GAME_ID = "e8a3b1e0c0dedeadbeef0123456789ab"
NONCE = "5eed" * 16
"""The chain nonce of both sides (pbem draws a fresh one for every real game)."""
SEED = 0
PLAYERS = {"DE": "example-de", "US": "example-us"}


def run(*args: str | Path) -> None:
    """``pbem ARGS`` in-process; any failure stops the script with pbem's message."""
    from pbem.cli import main

    try:
        main([str(a) for a in args])
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise SystemExit(f"pbem {' '.join(str(a) for a in args)} failed ({exc.code})") from None


ARNHEM = "arnhem-historical"
ARNHEM_GAME_ID = "a4a4a4a4e8a3b1e0c0dedeadbeef0144"
ARNHEM_PLAYERS = {"AL": "example-us", "DE": "example-de"}
ARNHEM_STEPS = 1 + 3 * 2
"""The Arnhem example stops after the German set-up and three game-turns (an open archive)."""


def restore_derived(game_dir: Path) -> None:
    """Write again every map and email ``derived.sha256`` lists that the game directory no longer
    holds (pbem keeps the newest step's only), each checked against its recorded hash."""
    import hashlib

    from pbem.engine import derived
    from pbem.mail.compose import move_email
    from pbem.protocol import names
    from pbem.protocol.fsutil import write_new
    from pbem.render.outputs import as_written, open_game

    game = open_game(game_dir)
    for name, digest in sorted(derived.read(game_dir).items()):
        if (game_dir / name).exists():
            continue
        if m := names.MAP_RE.match(name):
            data, _ = as_written(game, int(m.group(1)))
        elif m := names.MOVE_MAIL_RE.match(name):
            data = move_email(game, int(m.group(1)))
        else:
            continue
        if hashlib.sha256(data).hexdigest() != digest:
            raise SystemExit(f"{name} drawn again differs from the file pbem wrote")
        write_new(game_dir / name, data)


def generate(out: Path, *, game_id: str = GAME_ID, seed: int = SEED, scenario: str = SCENARIO,
             players: dict[str, str] | None = None, max_steps: int = 10_000, restore: bool = True) -> Path:
    """Play the example game into ``out`` (replaced) with a throwaway pbem home (``restore``: and
    write again every older map and email, which a player's directory does not keep)."""
    from pbem.engine.autoplay import autoplay
    from pbem.outputs import engine_hooks

    if out.exists():
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory(prefix="pbem-example-home-") as home:
        os.environ["PBEM_HOME"] = home
        os.environ["PBEM_PASSPHRASE"] = ""
        who = players or PLAYERS
        for name in sorted(set(who.values())):
            run("key", "import", KEYS / f"{name}.key", "--name", name, "--no-passphrase")
        run("new", scenario, out, *[x for side, k in who.items() for x in ("--player", f"{side}={k}")],
            "--game-id", game_id, "--nonce", NONCE)
        rp = autoplay(out, seed=seed, hooks=engine_hooks(), max_steps=max_steps)
        if restore:
            restore_derived(out)
        os.environ.pop("PBEM_HOME")
    outcome = rp.current.turn["outcome"]
    print(f"{out}: {len(rp.placed)} moves, {outcome['summary'] if outcome else 'unfinished'}")
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    if len(sys.argv) > 1:
        generate(Path(sys.argv[1]))
    else:
        generate(HERE / SCENARIO)
        generate(HERE / ARNHEM, game_id=ARNHEM_GAME_ID, scenario=ARNHEM, players=ARNHEM_PLAYERS,
                 max_steps=ARNHEM_STEPS)
