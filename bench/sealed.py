"""Benchmark: a 10-side sealed round with an umpire and hidden information, early and late in a game.

    python bench/sealed.py [--sides 10] [--late 12] [--runs 3] [--quick]

A hot-seat game of the toy ``auction-hidden`` (10 bidders and Game Control, one pbem home holding
every key, so every command runs on the umpire's machine, which knows everything) is played
through the ``pbem`` commands in-process. In round 2 and in round ``--late`` the script times,
best of ``--runs`` on fresh copies of the home and directory:

* ``round``  -- the whole sealed round: 10 commitments (each sealed for the umpire), 10 acknowledgements, the ruling,
  10 reveals and the umpire's report (resolution, 10 views sealed to their sides, files written);
* ``report`` -- the umpire's report alone (target: under 1 s).

The floor of each pair is the early round: late / early should stay close to 1 (a round's cost
must not grow with the length of the game; the checkpoint keeps the umpire's full state
privately). Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GAME_ID = "0123456789abcdef0123456789abcdef"


def run(home: Path, *args: str | Path) -> str:
    from pbem.cli import main

    os.environ["PBEM_HOME"] = str(home)
    os.environ["PBEM_PASSPHRASE"] = ""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            if exc.code:
                raise RuntimeError(f"pbem {' '.join(map(str, args[:2]))} failed: {err.getvalue()}") from None
    return out.getvalue()


class Game:
    def __init__(self, root: Path, sides: int, rounds: int) -> None:
        self.root, self.home, self.dir = root, root / "home", root / "game"
        self.sides = [f"S{i}" for i in range(sides)]
        scenario = root / "auction-10.json"
        scenario.write_text(json.dumps({"id": "auction-bench", "system": "auction-hidden", "sides": self.sides,
                                        "umpire": "GC", "coins": 1000, "rounds": rounds, "prize": 1}))
        players: list[str | Path] = []
        for s in [*self.sides, "GC"]:
            run(self.home, "key", "new", s.lower())
            players += ["--player", f"{s}={s.lower()}"]
        run(self.home, "new", scenario, self.dir, *players, "--game-id", GAME_ID)
        self.round = 1

    def play_round(self, only_report: bool = False) -> float:
        """Play one round; returns the seconds the report took."""
        if not only_report:
            for i, s in enumerate(self.sides):
                path = self.root / f"bid-{s}.json"
                path.write_text(json.dumps({"kind": "bid", "side": s, "round": self.round, "coins": (i * 7 + self.round) % 9}))
                run(self.home, "submit", "--yes", self.dir, path, "--key", s.lower())
            for s in self.sides:  # the acknowledgements of an acknowledged round
                run(self.home, "reveal", self.dir, "--key", s.lower(), "--yes")
            run(self.home, "rule", self.dir, "--key", "gc", "--yes")
            for s in self.sides:
                run(self.home, "reveal", self.dir, "--key", s.lower(), "--yes")
        t0 = time.perf_counter()
        run(self.home, "report", self.dir, "--key", "gc", "--yes")
        self.round += 1
        return time.perf_counter() - t0


def timed(game: Game, runs: int) -> tuple[float, float]:
    """Best of ``runs``: (whole round, report alone), each on a fresh copy."""
    best_round = best_report = float("inf")
    for i in range(runs):
        copy = game.root / f"copy-{i}"
        shutil.copytree(game.home, copy / "home")
        shutil.copytree(game.dir, copy / "game")
        twin = Game.__new__(Game)
        twin.__dict__.update(game.__dict__)
        twin.root, twin.home, twin.dir = copy, copy / "home", copy / "game"
        t0 = time.perf_counter()
        report = twin.play_round()
        best_round = min(best_round, time.perf_counter() - t0)
        best_report = min(best_report, report)
        shutil.rmtree(copy)
    return best_round, best_report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sides", type=int, default=10)
    ap.add_argument("--late", type=int, default=12, help="the late round measured")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="late round 4, one run")
    args = ap.parse_args()
    late = 4 if args.quick else args.late
    runs = 1 if args.quick else args.runs
    with tempfile.TemporaryDirectory(prefix="pbem-bench-sealed-") as tmp:
        game = Game(Path(tmp), args.sides, late + 1)
        game.play_round()
        early_round, early_report = timed(game, runs)
        while game.round < late:
            game.play_round()
        late_round, late_report = timed(game, runs)
        steps = (late - 1) * (2 * args.sides + 2)
    print(f"{args.sides} sides + umpire, hidden information; round 2 and round {late} (step ~{steps})")
    print(f"whole round   early {early_round:6.2f} s   late {late_round:6.2f} s   ratio {late_round / early_round:5.2f}")
    print(f"report alone  early {early_report:6.3f} s   late {late_report:6.3f} s   ratio {late_report / early_report:5.2f}"
          f"   target < 1 s: {'met' if max(early_report, late_report) < 1 else 'MISSED'}")
    print(f"SUMMARY sealed {args.sides}-side round with umpire: report {late_report:.3f} s (target < 1 s), "
          f"round {late_round:.2f} s; late/early {late_round / early_round:.2f} (round), "
          f"{late_report / early_report:.2f} (report)")


if __name__ == "__main__":
    main()
