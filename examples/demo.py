"""``make demo``: check the bundled example game, then play and check a fresh one.

1. ``pbem verify examples/bastogne-spearhead`` as a stranger (an empty pbem home: no keys, no
   seeds): every signature, roll and turn file is re-derived from the archive alone.
2. A fresh Bastogne Spearhead game between two throwaway keys (a temporary ``PBEM_HOME``, deleted
   afterwards), the sparring bot playing both sides, into ``demo-out/bastogne-spearhead/``
   (git-ignored; replaced on each run), with the maps and mails the output hooks write.
3. ``pbem verify`` on that game, and where to look.

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
OUT = ROOT / "demo-out"
SCENARIO = "bastogne-spearhead"


def pbem(*args: str | Path) -> None:
    """``pbem ARGS`` in-process, stopping the demo on failure (pbem has printed why)."""
    from pbem.cli import main

    try:
        main([str(a) for a in args])
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise SystemExit(f"demo: 'pbem {' '.join(str(a) for a in args)}' failed (exit {exc.code})") from None


def banner(text: str) -> None:
    print(f"\n== {text}", flush=True)


def main() -> None:
    from pbem.cli.bot import autoplay

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
        rp = autoplay(game, seed=0, outputs=True)
        outcome = rp.current.turn["outcome"]
        print(f"{len(rp.placed)} moves played: {outcome['summary'] if outcome else 'unfinished'}")
        for line in (outcome or {}).get("breakdown", []):
            print(f"  {line}")

        banner("3. verify the fresh game as a stranger")
        os.environ["PBEM_HOME"] = str(Path(tmp) / "stranger")
        pbem("verify", game)

    rel = game.relative_to(ROOT)
    turns = sorted(game.glob("turn-*.json"))
    maps = sorted(game.glob("map-*.svg"))
    mails = sorted(game.glob("mail-*.eml"))
    banner("where to look")
    print(f"game directory   {rel}/")
    print(f"turn files       {len(turns)}: {rel}/turn-0000.json .. {turns[-1].name}" if turns else "turn files       none")
    print(f"signed moves     {len(list(game.glob('move-*.json')))}: {rel}/move-NNNN-SIDE.json")
    print(f"maps             {len(maps)}: {rel}/{maps[-1].name} (open in a browser)" if maps
          else "maps             none written (no map output hook installed)")
    print(f"emails           {len(mails)}: {rel}/{mails[-1].name}" if mails
          else "emails           none written (no mail output hook installed)")
    print(f"bundled example  {EXAMPLE.relative_to(ROOT)}/ (regenerate: python examples/generate.py)")
    print(f"history          pbem log {rel}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
