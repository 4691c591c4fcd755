"""Benchmark: ``pbem verify`` of a finished game of every system against the shared floor.

    python bench/floor.py [--runs 9] [--games bastogne-campaign,arnhem-historical,...]

For each game of the compatibility corpus (``tests/compat/``: WestWall's Bastogne campaign, SPI
Arnhem, Arnhem 1944, the megagame; each copied to a temporary directory first), this runs the
project's yardstick, ``../shared/bench/verify_floor.py --compare GAME_DIR`` (the standard library
and ``cryptography`` only: read, SHA-256, JSON, Ed25519 of every signature), which times ``pbem
verify`` and the floor as whole processes, alternating, CPU time, and prints the median ratio.
The table it prints is what ``bench/README.md`` records (issue 28's target: 1.5x).

New processes run with compiled bytecode kept in a private ``PYTHONPYCACHEPREFIX`` (as an
installed pbem has), ``PYTHONDONTWRITEBYTECODE`` removed from their environment. Not a test:
nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = ROOT.parent / "shared" / "bench" / "verify_floor.py"
GAMES = ["bastogne-campaign", "arnhem-historical", "arnhem1944-historical", "megagame-acked"]
"""One finished game of each system in tests/compat/ (README there says how each was made)."""


def steps(game: Path) -> int:
    return len(list(game.glob("move-*.json")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated folders of tests/compat/")
    o = ap.parse_args()
    if not FLOOR.is_file():
        sys.exit(f"the shared floor is not at {FLOOR} (../shared/ must sit beside the checkout)")
    pbem = str(Path(sys.executable).parent / "pbem")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="pbem-pyc-")
    print("| archive | steps | pbem verify CPU | floor CPU | ratio (median; min-max) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="pbem-floor-") as tmp:
        for name in o.games.split(","):
            game = Path(tmp) / name
            shutil.copytree(ROOT / "tests" / "compat" / name, game)
            out = subprocess.run([sys.executable, str(FLOOR), "--compare", str(game), "--runs", str(o.runs),
                                  "--pbem", pbem, "--python", sys.executable],
                                 capture_output=True, text=True, env=env, check=True).stdout
            m = re.search(r"pbem verify CPU (\d+) ms, floor CPU (\d+) ms; ratios min ([\d.]+) median ([\d.]+) "
                          r"max ([\d.]+)", out)
            if m is None:
                sys.exit(f"{name}: unexpected output from the floor: {out!r}")
            v, f, lo, med, hi = m.groups()
            print(f"| tests/compat/{name} | {steps(game)} | {v} ms | {f} ms | {med}x ({lo}-{hi}) |", flush=True)


if __name__ == "__main__":
    main()
