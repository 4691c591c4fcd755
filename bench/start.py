"""Benchmark: how fast do the player commands start? Each against a process that only imports
Ed25519 from ``cryptography``.

    python bench/start.py [--runs 9] [--only status,submit] [--pbem PATH [--pbem PATH2]]
                          [--wheel [REV] [--wheel REV2]]

The floor is ``python -c "import cryptography.hazmat.primitives.asymmetric.ed25519"``: an
interpreter that can check a signature and nothing else. Each command runs as a user runs it (the
installed ``pbem``, a new process) and is timed by its CPU time (user + system of the child, read
with ``os.wait4``: a loaded machine disturbs it far less than wall time), alternating with the
floor run by the same build's interpreter (a venv with an editable install pays for its import
finder even in the floor), ``--runs`` pairs; the ratio of the medians is printed (target: 4x, plus the floor's work on
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

``--wheel`` measures pbem as a player installs it: a wheel built (pypa ``build``) from the
checkout's tracked files -- as they are in the working tree, or at git revision ``REV`` -- and
installed alone in a fresh venv outside the checkout (its dependencies at ``constraints.txt``),
whose ``pbem`` then runs in the same rounds as the other builds. The editable install of a checkout
(``pip install -e``) pays for its import finder at every start (~20 ms); a wheel does not. With
``--wheel`` and no ``--pbem``, the editable ``pbem`` beside this interpreter is the first build, so
one run reports both.

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
_ONE_MODEL = ("\nclass M(BaseModel):\n    x: int\n\nM.model_validate({'x': 1})")
LADDER: dict[str, tuple[str, dict[str, str]]] = {
    # what "pydantic on the path" costs by itself, each step on top of the floor's import
    "+click": (f"{FLOOR[2]}; import click", {}),
    "+pydantic": (f"{FLOOR[2]}; import click; from pydantic import BaseModel", {}),
    "+1 model": (f"{FLOOR[2]}; import click; from pydantic import BaseModel{_ONE_MODEL}", {}),
    "+1 model noplug": (f"{FLOOR[2]}; import click; from pydantic import BaseModel{_ONE_MODEL}",
                        {"PYDANTIC_DISABLE_PLUGINS": "__all__"}),
}
"""The floor of a process that validates with pydantic, step by step (rows after the commands):
``click``; ``pydantic``'s import; one one-field model built and validated (its first validator
imports pydantic's schema generation and plugin loader, which scans every installed distribution's
entry points); the same with that scan turned off (``PYDANTIC_DISABLE_PLUGINS``)."""


def checkout_copy(rev: str | None, src: Path) -> None:
    """The checkout's tracked files into ``src``: at git revision ``rev``, else as they are in the
    working tree (so a stale ``build/`` or an untracked file cannot leak into the wheel)."""
    if rev is not None:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], capture_output=True,
                             check=True).stdout
        src.mkdir(parents=True)
        subprocess.run(["tar", "-x", "-C", str(src)], input=tar, check=True)
        return
    names = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                           check=True).stdout.decode("utf-8").split("\0")
    for name in names:
        if name and (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)


def install_wheel(rev: str | None, where: Path) -> str:
    """Build pbem's wheel from the tracked files (at ``rev``, else the working tree), install it in
    a fresh venv under ``where`` with its dependencies at ``constraints.txt``; its ``pbem``."""
    src = where / "src"
    checkout_copy(rev, src)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(where / "dist"),
                    str(src)], check=True, capture_output=True, env=env, cwd=where)
    wheel, = (where / "dist").glob("pbem-*.whl")
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-c",
                           str(src / "constraints.txt"), str(wheel)], capture_output=True, text=True,
                          env=env, cwd=where)
    if done.returncode:
        raise SystemExit(f"installing {wheel.name} failed: {done.stderr[-2000:]}")
    shutil.rmtree(src)
    return str(venv / "bin" / "pbem")


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
    ap.add_argument("--wheel", action="append", nargs="?", const="", default=[], metavar="REV",
                    help="a build installed from its wheel in a fresh venv: the working tree's tracked "
                         "files, or git revision REV (repeat to compare); without --pbem the editable "
                         "pbem beside this interpreter runs too")
    ap.add_argument("--quick", action="store_true", help="3 rounds each")
    args = ap.parse_args()
    builds = args.pbem or [str(Path(sys.executable).with_name("pbem"))]
    names = list(builds)
    runs = 3 if args.quick else args.runs
    with tempfile.TemporaryDirectory(prefix="pbem-start-") as tmp:
        for i, rev in enumerate(args.wheel):
            builds.append(install_wheel(rev or None, Path(tmp) / f"wheel-{i}"))
            names.append(f"wheel of {rev or 'the working tree'}")
        for i, name in enumerate(names):
            print(f"build {i + 1}: {name}")
        setup = Setup(Path(tmp), builds[-1])
        env = {**setup.env}
        pythons = [str(Path(exe).with_name("python")) for exe in builds]
        summary: list[str] = []
        minima: list[str] = []
        print(f"CPU ms, medians of {runs} rounds (each round: every build, each followed by the floor run by "
              "its own interpreter); ratio to that floor")
        print(f"{'command':<16} " + " ".join(f"{'build ' + str(i + 1) + ', ratio, floor':>22}" for i in range(len(builds))))
        rows: list[tuple[str, Callable[[int], tuple[list[str], dict[str, str]]]]] = []
        for name, make in setup.commands().items():
            def command(b: int, make: Callable[[Path], tuple[Path, list[str | Path]]] = make
                        ) -> tuple[list[str], dict[str, str]]:
                home, argv = make(setup.fresh())
                return [builds[b], *map(str, argv)], {**env, "PBEM_HOME": str(home)}
            rows.append((name, command))
        for name, (code, extra) in LADDER.items():
            def step(b: int, code: str = code, extra: dict[str, str] = extra
                     ) -> tuple[list[str], dict[str, str]]:
                return [pythons[b], "-c", code], {**env, **extra}
            rows.append((name, step))
        for name, row in rows:
            if args.only and name not in args.only.split(","):
                continue
            times: list[list[float]] = [[] for _ in builds]
            floors: list[list[float]] = [[] for _ in builds]
            for i in range(runs + 1):  # the first round fills the bytecode cache, untimed
                for b in range(len(builds)):
                    argv, run_env = row(b)
                    t = cpu_ms(argv, run_env)
                    f = cpu_ms([pythons[b], *FLOOR[1:]], env)
                    if i:
                        times[b].append(t)
                        floors[b].append(f)
            ratios = [statistics.median(t) / statistics.median(f) for t, f in zip(times, floors, strict=True)]
            cells = [f"{statistics.median(t):7.1f} {x:5.2f}x {statistics.median(f):6.1f}"
                     for t, f, x in zip(times, floors, ratios, strict=True)]
            print(f"{name:<16} " + " ".join(f"{c:>22}" for c in cells), flush=True)
            summary.append(f"{name} " + " -> ".join(f"{x:.2f}x" for x in ratios))
            lows = [min(t) / min(f) for t, f in zip(times, floors, strict=True)]
            minima.append(f"{name:<16} " + " ".join(f"{f'{min(t):7.1f} {x:5.2f}x {min(f):6.1f}':>22}"
                                                    for t, f, x in zip(times, floors, lows, strict=True)))
    print("The same rounds, minima (steadier on a loaded machine: contention adds CPU time, never removes it):")
    print("\n".join(minima))
    print("SUMMARY start-up CPU / ed25519-import floor: " + ", ".join(summary))


if __name__ == "__main__":
    main()
