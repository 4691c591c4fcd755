"""A whole Bastogne Campaign Game (15.3: 18 Game-Turns, 38 signed moves) played bot against bot,
signed, written and verified; target under 60 s on a 2-core machine.

    .venv/bin/python bench/campaign.py               # the full campaign
    .venv/bin/python bench/campaign.py --outputs     # also write maps/mails (output hooks)
    .venv/bin/python bench/campaign.py --quick       # the first 8 moves only
    .venv/bin/python bench/campaign.py --seed 3

Prints the cost of every step split into: the bot choosing orders (``bot``), the engine checking and
resolving them (``adjudicate``: normalize, validate, ``Replay.add_move``), signing and writing the
move and turn files (``sign+write``, plus maps and mails with ``--outputs``); then the final
``verify`` (a stranger's full replay) and the totals. Keys live in a temporary ``PBEM_HOME``; the
game directory is created in a temporary directory and deleted (``--keep DIR`` to keep it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 60.0
GAME_ID = "ca3ca1a9ca3ca1a9ca3ca1a9ca3ca1a9"


def pbem_subprocess(*args: str | Path) -> None:
    """``pbem ARGS`` in a child process (so this process loads no output hooks unless asked)."""
    cmd = [sys.executable, "-c", "from pbem.cli import main; main()", *[str(a) for a in args]]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise SystemExit(f"pbem {' '.join(str(a) for a in args)} failed: {res.stderr.strip()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="only the first 8 moves")
    ap.add_argument("--outputs", action="store_true", help="write maps and mails too")
    ap.add_argument("--keep", type=Path, default=None, help="copy the finished game here")
    ap.add_argument("--scenario", default="bastogne-campaign")
    args = ap.parse_args()

    sys.path.insert(0, str(ROOT))
    from pbem.engine.autoplay import Timings, autoplay
    from pbem.engine.gamedir import Game
    from pbem.engine.hooks import NO_HOOKS
    from pbem.outputs import engine_hooks

    with tempfile.TemporaryDirectory(prefix="pbem-bench-campaign-") as tmp:
        os.environ["PBEM_HOME"] = str(Path(tmp) / "home")
        os.environ["PBEM_PASSPHRASE"] = ""
        t0 = time.perf_counter()
        for name in ("bench-de", "bench-us"):
            pbem_subprocess("key", "new", name, "--no-passphrase")
        game = Path(tmp) / "game"
        pbem_subprocess("new", args.scenario, game, "--player", "DE=bench-de", "--player", "US=bench-us",
                        "--game-id", GAME_ID)
        setup_s = time.perf_counter() - t0

        tm = Timings()
        t1 = time.perf_counter()
        autoplay(game, seed=args.seed, timings=tm, hooks=engine_hooks() if args.outputs else NO_HOOKS,
                 max_steps=8 if args.quick else 10_000)
        play_s = time.perf_counter() - t1

        os.environ["PBEM_HOME"] = str(Path(tmp) / "stranger")
        t2 = time.perf_counter()
        summary = Game.open(game).verify()
        verify_s = time.perf_counter() - t2
        if args.keep is not None:
            if args.keep.exists():
                shutil.rmtree(args.keep)
            shutil.copytree(game, args.keep)

    print(f"{'step':>4}  {'decision':<42} {'bot':>7} {'check':>7} {'submit':>7}")
    for i, label in enumerate(tm.labels):
        print(f"{i + 1:>4}  {label[:42]:<42} {tm.bot[i]:7.3f} {tm.check[i]:7.3f} {tm.submit[i]:7.3f}")
    bot, adj, sw = sum(tm.bot), sum(tm.check), sum(tm.submit)
    total = play_s + verify_s
    print()
    print(f"keys + genesis (subprocesses, not counted)  {setup_s:7.2f} s")
    print(f"bot                                          {bot:7.2f} s")
    print(f"check the orders                             {adj:7.2f} s")
    print(f"sign + resolve + write{' (+ maps/mails)' if args.outputs else '':<23}{sw:7.2f} s")
    print(f"verify (stranger, full replay)               {verify_s:7.2f} s")
    print(f"total (play + verify)                        {total:7.2f} s   target < {TARGET_S:.0f} s")
    print(f"moves {summary.steps}, rolls {summary.rolls}, signatures {summary.signatures}, "
          f"outcome: {summary.outcome or summary.waiting}")
    n = max(1, len(tm.labels))
    print(f"SUMMARY campaign {args.scenario} {summary.steps} moves: total {total:.2f} s "
          f"(bot {bot:.2f}, check {adj:.2f}, sign+resolve+write {sw:.2f}, verify {verify_s:.2f}); "
          f"{total / n * 1000:.0f} ms per move; {'OK' if total < TARGET_S else 'OVER'} vs {TARGET_S:.0f} s")


if __name__ == "__main__":
    main()
