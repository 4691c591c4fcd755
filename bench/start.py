"""Benchmark: how fast do the player commands start? Each against a process that only imports
Ed25519 from ``cryptography``.

    python bench/start.py [--runs 9] [--only status,submit] [--pbem PATH [--pbem PATH2]]

The floor is ``python -c "import cryptography.hazmat.primitives.asymmetric.ed25519"``: an
interpreter that can check a signature and nothing else. Each command runs as a user runs it (the
installed ``pbem``, a new process) and is timed by its CPU time (user + system of the child, read
with ``os.wait4``: a loaded machine disturbs it far less than wall time), alternating with the
floor, ``--runs`` pairs; the ratio of the medians is printed (target: 4x, plus the floor's work on
the files the command reads -- a few signed files from the checkpoint on, about a millisecond).

The commands, on a Bastogne Spearhead game hot seat (the two published example keys in one home),
each run on a fresh copy of the home and the game directory so that every run does the same work:

* ``status`` of the bundled example (``examples/bastogne-spearhead``, finished) as its German
  player (the example key imported, a checkpoint left by a first status), and as a stranger (an
  empty home: a replay from the genesis, 16 steps);
* ``check`` / ``submit`` of the German's orders at step 4 of a new game (the bot's orders for that
  step, written beforehand with ``bot --dry-run``);
* ``bot`` for the German at that step;
* ``ingest`` of the German's move of that step, signed in another copy, by the US player's home.

New processes run with compiled bytecode, as an installed pbem does (a private
``PYTHONPYCACHEPREFIX`` that an untimed first run of each command fills). Not a test: nothing here
asserts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
EXAMPLE = ROOT / "examples" / "bastogne-spearhead"
KEYS = ROOT / "examples" / "keys"
FLOOR = [sys.executable, "-c", "import cryptography.hazmat.primitives.asymmetric.ed25519"]


def cpu_ms(argv: list[str], env: dict[str, str], cwd: Path | None = None) -> float:
    """CPU time (user + system, ms) of one new process running ``argv``; it must succeed."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode() if proc.stderr is not None else ""
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(argv)} failed: {err.strip()}")
    return (usage.ru_utime + usage.ru_stime) * 1000


class Setup:
    """Template homes and game directories; :meth:`fresh` copies them for one run."""

    def __init__(self, root: Path, pbem: str) -> None:
        self.root = root
        self.pbem = pbem
        self.env = {**os.environ, "PBEM_PASSPHRASE": "", "PYTHONPYCACHEPREFIX": str(root / "pyc")}
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        t = root / "template"
        # the finished example, seen by its German player (a checkpoint) and by a stranger
        self.run(t / "home-de", "key", "import", KEYS / "example-de.key", "--name", "example-de", "--no-passphrase")
        shutil.copytree(EXAMPLE, t / "example")
        self.run(t / "home-de", "status", t / "example")
        (t / "stranger").mkdir()
        # a new game hot seat, the bots to step 3; then the German's orders of step 4
        hot = t / "home-hot"
        for k in ("example-de", "example-us"):
            self.run(hot, "key", "import", KEYS / f"{k}.key", "--name", k, "--no-passphrase")
        game = t / "game"
        self.run(hot, "new", "bastogne-spearhead", game, "--player", "DE=example-de", "--player",
                 "US=example-us", "--game-id", "5e1f" * 8, "--nonce", "c0" * 32)
        self.side = "DE"
        for _ in range(40):
            side = self.to_move(hot, game)
            if side == "DE" and self.steps(game) >= 3:
                break
            self.run(hot, "bot", game, "--side", side, "--key", f"example-{side.lower()}")
        orders = self.run(hot, "bot", game, "--side", "DE", "--key", "example-de", "--dry-run")
        (t / "orders.json").write_text(orders, encoding="utf-8")
        # the German's move signed in a copy: what the US player's home ingests
        shutil.copytree(hot, root / "signer-home")
        shutil.copytree(game, root / "signer-game")
        self.run(root / "signer-home", "submit", root / "signer-game", t / "orders.json", "--key", "example-de", "--yes")
        moves = sorted(p for p in (root / "signer-game").glob("move-*-DE.json") if not (game / p.name).exists())
        shutil.copyfile(moves[-1], t / moves[-1].name)
        self.move = t / moves[-1].name

    def run(self, home: Path, *args: str | Path) -> str:
        done = subprocess.run([self.pbem, *map(str, args)], capture_output=True, text=True,
                              env={**self.env, "PBEM_HOME": str(home)})
        if done.returncode:
            raise SystemExit(f"pbem {' '.join(map(str, args))}: {done.stderr.strip()}")
        return done.stdout

    def to_move(self, home: Path, game: Path) -> str:
        import json

        status = json.loads(self.run(home, "status", game, "--json"))
        return str(status["pending"][0]["side"])

    @staticmethod
    def steps(game: Path) -> int:
        return len(list(game.glob("move-*.json")))

    def fresh(self) -> Path:
        run = self.root / "run"
        if run.exists():
            shutil.rmtree(run)
        shutil.copytree(self.root / "template", run)
        return run

    def commands(self) -> dict[str, Callable[[Path], tuple[Path, list[str | Path]]]]:
        """Name -> (home, arguments) on a fresh copy ``r``."""
        return {
            "status": lambda r: (r / "home-de", ["status", r / "example"]),
            "status-stranger": lambda r: (r / "stranger", ["status", r / "example"]),
            "check": lambda r: (r / "home-hot", ["check", r / "game", r / "orders.json", "--key", "example-de"]),
            "submit": lambda r: (r / "home-hot", ["submit", r / "game", r / "orders.json", "--key", "example-de", "--yes"]),
            "bot": lambda r: (r / "home-hot", ["bot", r / "game", "--side", "DE", "--key", "example-de"]),
            "ingest": lambda r: (r / "home-hot", ["ingest", r / "game", r / self.move.name]),
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--only", default="")
    ap.add_argument("--pbem", action="append", default=[],
                    help="a pbem executable (repeat to compare builds: each is run in every round, "
                         "alternating with the floor); default: the one beside this interpreter")
    ap.add_argument("--quick", action="store_true", help="3 rounds each")
    args = ap.parse_args()
    builds = args.pbem or [str(Path(sys.executable).with_name("pbem"))]
    runs = 3 if args.quick else args.runs
    with tempfile.TemporaryDirectory(prefix="pbem-start-") as tmp:
        setup = Setup(Path(tmp), builds[-1])
        env = {**setup.env}
        summary = []
        print(f"CPU ms, medians of {runs} rounds (each: every build, then the floor); ratio to the floor")
        print(f"{'command':<16} " + " ".join(f"{'build ' + str(i + 1):>15}" for i in range(len(builds)))
              + f" {'floor':>7}")
        for name, make in setup.commands().items():
            if args.only and name not in args.only.split(","):
                continue
            times: list[list[float]] = [[] for _ in builds]
            floor: list[float] = []
            for i in range(runs + 1):  # the first round fills the bytecode cache, untimed
                for b, exe in enumerate(builds):
                    r = setup.fresh()
                    home, argv = make(r)
                    t = cpu_ms([exe, *map(str, argv)], {**env, "PBEM_HOME": str(home)})
                    if i:
                        times[b].append(t)
                f = cpu_ms(FLOOR, env)
                if i:
                    floor.append(f)
            fm = statistics.median(floor)
            cells = [f"{statistics.median(t):7.1f} {statistics.median(t) / fm:5.2f}x" for t in times]
            print(f"{name:<16} " + " ".join(f"{c:>15}" for c in cells) + f" {fm:>7.1f}", flush=True)
            summary.append(f"{name} " + " -> ".join(f"{statistics.median(t) / fm:.2f}x" for t in times))
    print("SUMMARY start-up CPU / ed25519-import floor: " + ", ".join(summary))

if __name__ == "__main__":
    main()
