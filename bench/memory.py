"""Benchmark: does ``pbem verify``'s peak memory grow with the length of the game?

    python bench/memory.py [GAME_DIR ...] [--steps 50,100,200,300] [--pbem PATH] [--runs 3]

For each finished game directory (default: the longest games of the compatibility corpus,
``tests/compat/arnhem1944-historical`` and ``tests/compat/megagame-acked``) and each step N of
``--steps`` that the game reaches, a copy of the directory truncated to its first N steps (every
file named by a step after N left out: moves, turn files, receipts, maps, emails) is verified by
``pbem verify`` as a new process, and that process's peak resident set size (``ru_maxrss`` of the
child, read with ``os.wait4``) is printed, the lowest of ``--runs``. A game with hidden information
keeps its ``publication.json``: verify opens the sealed orders of the steps it replays. The last
step of the game is measured too, and the shared floor's process (``../shared/bench/verify_floor.py``:
the standard library and ``cryptography``) on the same copy for scale.

The line ``SUMMARY`` gives, per game, the peak at the last step measured over the peak at the first
(target: within 1.2x). Not a test: nothing here asserts.
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

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
GAMES = [ROOT / "tests" / "compat" / "arnhem1944-historical", ROOT / "tests" / "compat" / "megagame-acked"]
FLOOR = ROOT.parent / "shared" / "bench" / "verify_floor.py"
STEP = re.compile(r"^(?:move|turn|receipt|map|mail)-(\d{4})")


def last_step(game: Path) -> int:
    return max(int(m.group(1)) for p in game.iterdir() if (m := STEP.match(p.name)) and p.name.startswith("turn-"))


def truncate(game: Path, steps: int, out: Path) -> Path:
    """A copy of ``game`` holding only what its first ``steps`` steps wrote."""
    out.mkdir()
    for p in game.iterdir():
        m = STEP.match(p.name)
        if p.is_file() and (m is None or int(m.group(1)) <= steps):
            shutil.copyfile(p, out / p.name)
    return out


def peak_kib(argv: list[str]) -> int:
    """Peak resident set size (KiB on Linux) of one new process running ``argv``; it must succeed."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr is not None else ""
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.strip()}")
    return int(usage.ru_maxrss)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", type=Path, default=GAMES)
    ap.add_argument("--steps", default="50,100,200,300")
    ap.add_argument("--pbem", default=str(Path(sys.executable).with_name("pbem")))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one run each, steps 50 and the last")
    args = ap.parse_args()
    wanted = [int(s) for s in args.steps.split(",")]
    runs = 1 if args.quick else args.runs
    summary = []
    with tempfile.TemporaryDirectory(prefix="pbem-memory-") as tmp:
        for game in args.games:
            last = last_step(game)
            steps = sorted({s for s in wanted if s < last} | {last})
            if args.quick:
                steps = sorted({steps[0], last})
            print(f"{game.name} ({last} steps)")
            print(f"  {'steps':>6}  {'verify MiB':>10}  {'floor MiB':>9}")
            peaks = []
            for n in steps:
                copy = truncate(game, n, Path(tmp) / f"{game.name}-{n}")
                verify = min(peak_kib([args.pbem, "verify", str(copy)]) for _ in range(runs))
                floor = (min(peak_kib([sys.executable, str(FLOOR), str(copy)]) for _ in range(runs))
                         if FLOOR.is_file() else 0)
                peaks.append(verify)
                print(f"  {n:>6}  {verify / 1024:>10.1f}  {floor / 1024:>9.1f}", flush=True)
                shutil.rmtree(copy)
            summary.append(f"{game.name} {peaks[-1] / peaks[0]:.2f}x (step {steps[-1]} / step {steps[0]})")
    print("SUMMARY verify peak RSS, last / first: " + "; ".join(summary))


if __name__ == "__main__":
    main()
