"""``make demo``: check the bundled example game, then play and check a fresh one.

1. ``pbem verify examples/bastogne-spearhead`` as a stranger (an empty pbem home: no keys, no
   seeds): every signature, roll and turn file is re-derived from the archive alone.
2. A fresh Bastogne Spearhead game between two throwaway keys (a temporary ``PBEM_HOME``, deleted
   afterwards), the sparring bot playing both sides, into ``demo-out/bastogne-spearhead/``
   (git-ignored; replaced on each run), with the maps and mails the output hooks write.
3. ``pbem verify`` on that game, and where to look.
4. One turn of the Market Garden megagame (a team per corps and Game Control, every key in one
   throwaway home): each team's bot seals its orders, Game Control rules nothing and reports, and
   what one team hears is printed -- in words, without a status number.

Run with the virtual environment's python (the Makefile does): ``.venv/bin/python examples/demo.py``.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLE = HERE / "bastogne-spearhead"
OUT = Path(os.environ.get("PBEM_DEMO_OUT") or ROOT / "demo-out")
"""Where the demo writes its games (``PBEM_DEMO_OUT`` for another place: the test of the demo)."""
SCENARIO = "bastogne-spearhead"
MEGAGAME = "megagame-market-garden"


def pbem(*args: str | Path) -> None:
    """``pbem ARGS`` in-process, stopping the demo on failure (pbem has printed why)."""
    from pbem.cli import main

    try:
        main([str(a) for a in args])
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise SystemExit(f"demo: 'pbem {' '.join(str(a) for a in args)}' failed (exit {exc.code})") from None


def _shown(path: Path) -> Path:
    """``path`` as the user types it from the checkout (absolute when it lies elsewhere)."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def banner(text: str) -> None:
    print(f"\n== {text}", flush=True)


def main() -> None:
    from pbem.engine.autoplay import autoplay
    from pbem.outputs import engine_hooks

    with tempfile.TemporaryDirectory(prefix="pbem-demo-") as tmp:
        os.environ["PBEM_PASSPHRASE"] = ""
        os.environ["PBEM_HOME"] = str(Path(tmp) / "stranger")
        banner(f"1. verify the bundled example game ({EXAMPLE.relative_to(ROOT)}) as a stranger")
        pbem("verify", EXAMPLE)

        banner("2. a fresh game, the sparring bot playing both sides with throwaway keys")
        os.environ["PBEM_HOME"] = str(Path(tmp) / "players")
        pbem("key", "new", "demo-de", "--no-passphrase")
        pbem("key", "new", "demo-us", "--no-passphrase")
        game = OUT / SCENARIO
        if game.exists():
            shutil.rmtree(game)
        OUT.mkdir(exist_ok=True)
        pbem("new", SCENARIO, game, "--player", "DE=demo-de", "--player", "US=demo-us")
        rp = autoplay(game, seed=0, hooks=engine_hooks())
        outcome = rp.current.turn["outcome"]
        print(f"{len(rp.placed)} moves played: {outcome['summary'] if outcome else 'unfinished'}")
        for line in (outcome or {}).get("breakdown", []):
            print(f"  {line}")

        banner("3. verify the fresh game as a stranger")
        os.environ["PBEM_HOME"] = str(Path(tmp) / "stranger")
        pbem("verify", game)

        banner("4. one turn of the Market Garden megagame: sealed orders, Game Control, hidden reports")
        os.environ["PBEM_HOME"] = str(Path(tmp) / "megagame")
        megagame_turn(OUT / MEGAGAME)

    rel = _shown(game)
    turns = sorted(game.glob("turn-*.json"))
    maps = sorted(game.glob("map-*.svg"))
    mails = sorted(game.glob("mail-*.eml"))
    banner("where to look")
    print(f"game directory   {rel}/")
    print(f"turn files       {len(turns)}: {rel}/turn-0000.json .. {turns[-1].name}" if turns else "turn files       none")
    print(f"signed moves     {len(list(game.glob('move-*.json')))}: {rel}/move-NNNN-SIDE.json")
    print(f"map              {rel}/{maps[-1].name} (the newest; open in a browser; any step's: pbem render "
          f"{rel} --step N)" if maps else "maps             none written (no map output hook installed)")
    print(f"emails           {rel}/{mails[-1].name} (not yet answered; any move's: pbem mail draft {rel} "
          "--step N)" if mails else "emails           none written (no mail output hook installed)")
    print(f"bundled example  {EXAMPLE.relative_to(ROOT)}/ (regenerate: python examples/generate.py)")
    print(f"history          pbem log {rel}")


def megagame_turn(game: Path) -> None:
    """Create the megagame with a throwaway key per team and one for Game Control, play its first
    turn with the bots, and show what XXX Corps' team hears."""
    import contextlib
    import io
    import json

    from pbem.engine.autoplay import autoplay_rounds
    from pbem.engine.scenarios import load_data
    from pbem.outputs import engine_hooks

    teams = [t["id"] for t in load_data(MEGAGAME)["teams"]]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        for side in [*teams, "GC"]:
            pbem("key", "new", f"demo-{side.lower()}", "--no-passphrase")
    if game.exists():
        shutil.rmtree(game)
    players = [x for side in [*teams, "GC"] for x in ("--player", f"{side}=demo-{side.lower()}")]
    with contextlib.redirect_stdout(io.StringIO()):
        pbem("new", MEGAGAME, game, *players)
        # one round: the sealed commitments, the acknowledgements [29], the ruling, the reveals, the report
        signed = autoplay_rounds(game, max_messages=3 * len(teams) + 2, hooks=engine_hooks())
    print(f"{signed} signed messages: {len(teams)} sealed order sheets, {len(teams)} acknowledgements, "
          "Game Control's ruling, "
          f"{len(teams)} reveals, Game Control's report")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        pbem("status", game, "--json")
    view = json.loads(out.getvalue())["views"]["XXX"]
    print(f"XXX Corps hears ({view['date']}, {view['supply']} supply points):")
    for line in view["reports"][:4]:
        print(f"  {line}")
    rel = _shown(game)
    print(f"  ... (pbem status {rel}; Game Control's master log: pbem log {rel})")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
