"""Benchmark: does a command cost the same at step 300 of a campaign as at step 10?

    python bench/commands.py [--steps 300] [--early 10] [--runs 5]

Two players on two pbem homes and two game directories play a long toy game (A and B alternate
rolls, 150 rounds) through the ``pbem`` commands, exchanging only move files. At an early step and
at a late step the script times, best of ``--runs``, each on a fresh copy of both homes and
directories so that every run does the same work:

* ``status``  -- A's view (a replay from A's checkpoint);
* ``submit``  -- A signs and places the next roll;
* ``ingest``  -- B takes A's move (and resolves the turn its own reveal completes);
* ``bot``     -- the sparring bot's step in a Bastogne campaign game (WestWall: the toy game has no
  bot), at game-turn 2 against the last game-turns (``--bot-steps``).

Each command is timed twice: as a user runs it (the installed ``pbem`` in a new process: interpreter
start and imports included) and in-process (``pbem.cli.main``: only what depends on the game). The
floor of each pair is the early run: the ratio late / early should be close to 1 (target <= 1.2). ``verify`` is not here: it replays everything by design
(``bench/verify.py``). Not a test: timings depend on the machine, so nothing here asserts.
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
from collections.abc import Callable
from pathlib import Path

GAME_ID = "0123456789abcdef0123456789abcdef"


SUBPROCESS = False
"""When set, :func:`run` starts the installed ``pbem`` command as a user does (interpreter start
and imports included) instead of calling it in-process."""


def run(home: Path, *args: str | Path) -> str:
    from pbem.cli import main

    if SUBPROCESS:
        import subprocess

        exe = Path(sys.executable).with_name("pbem")
        res = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                             env={**os.environ, "PBEM_HOME": str(home), "PBEM_PASSPHRASE": ""})
        if res.returncode:
            raise RuntimeError(f"pbem {' '.join(map(str, args))} failed: {res.stderr}")
        return res.stdout
    os.environ["PBEM_HOME"] = str(home)
    os.environ["PBEM_PASSPHRASE"] = ""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            if exc.code:
                raise RuntimeError(f"pbem {' '.join(map(str, args))} failed: {err.getvalue()}") from None
    return out.getvalue()


class Duel:
    """Alice (A) and Bob (B), each with a home and a game directory."""

    def __init__(self, root: Path, rounds: int) -> None:
        self.root = root
        self.homes = {"A": root / "home-a", "B": root / "home-b"}
        self.dirs = {"A": root / "game-a", "B": root / "game-b"}
        self.keys = {"A": "alice", "B": "bob"}
        for side in "AB":
            run(self.homes[side], "key", "new", self.keys[side])
        bob_pub = root / "bob.pub"
        shutil.copyfile(self.homes["B"] / "keys" / "bob.pub", bob_pub)
        scenario = root / "toy-long.json"
        scenario.write_text(json.dumps({"id": "toy-long", "system": "toy", "rounds": rounds,
                                        "sides": [{"id": "A"}, {"id": "B"}]}))
        run(self.homes["A"], "new", scenario, self.dirs["A"], "--player", "A=alice",
            "--player", f"B={bob_pub}", "--game-id", GAME_ID)
        run(self.homes["B"], "join", self.dirs["B"], "--key", "bob", "--invitation",
            self.dirs["A"] / "genesis.json")
        run(self.homes["A"], "ingest", self.dirs["A"], self.dirs["B"] / "join-B.json")
        self.step = 0
        self.round = 1

    def orders(self, side: str) -> Path:
        if self.step < 2:
            doc: dict[str, object] = {"kind": "setup", "side": side, "handicap": 1}
        else:
            doc = {"kind": "roll", "side": side, "round": self.round, "dice": 2}
        path = self.root / f"orders-{side}.json"
        path.write_text(json.dumps(doc))
        return path

    def play_one(self) -> None:
        side = "A" if self.step % 2 == 0 else "B"
        other = "B" if side == "A" else "A"
        run(self.homes[side], "submit", "--yes", self.dirs[side], self.orders(side), "--key", self.keys[side])
        self.step += 1
        name = f"move-{self.step:04d}-{side}.json"
        run(self.homes[other], "ingest", self.dirs[other], self.dirs[side] / name)
        if self.step > 2 and side == "B":
            self.round += 1

    def play_to(self, step: int) -> None:
        while self.step < step:
            self.play_one()


def timed_on_copies(duel: Duel, runs: int, action: Callable[[Duel], None]) -> float:
    """Best of ``runs`` of ``action`` on fresh copies of both homes and directories."""
    best = float("inf")
    for i in range(runs):
        copy_root = duel.root / f"copy-{i}"
        if copy_root.exists():
            shutil.rmtree(copy_root)
        copy_root.mkdir()
        twin = Duel.__new__(Duel)
        twin.__dict__.update(duel.__dict__)
        twin.root = copy_root
        twin.homes = {s: copy_root / p.name for s, p in duel.homes.items()}
        twin.dirs = {s: copy_root / p.name for s, p in duel.dirs.items()}
        for s in "AB":
            shutil.copytree(duel.homes[s], twin.homes[s])
            shutil.copytree(duel.dirs[s], twin.dirs[s])
        t0 = time.perf_counter()
        action(twin)
        best = min(best, time.perf_counter() - t0)
        shutil.rmtree(copy_root)
    return best


def measure(duel: Duel, runs: int) -> dict[str, float]:
    """At a step where it is A's turn: status (A), submit (A), ingest (B takes A's move)."""
    assert duel.step % 2 == 0, "A's turn"
    out: dict[str, float] = {}
    out["status"] = timed_on_copies(duel, runs, lambda d: (run(d.homes["A"], "status", d.dirs["A"]), None)[1])
    out["submit"] = timed_on_copies(
        duel, runs, lambda d: (run(d.homes["A"], "submit", "--yes", d.dirs["A"], d.orders("A"), "--key", "alice"), None)[1])

    def ingest(d: Duel) -> None:
        # A's move is prepared outside the timing window of interest: time only B's ingest
        run(d.homes["A"], "submit", "--yes", d.dirs["A"], d.orders("A"), "--key", "alice")
        move = d.dirs["A"] / f"move-{d.step + 1:04d}-A.json"
        t0 = time.perf_counter()
        run(d.homes["B"], "ingest", d.dirs["B"], move)
        ingest.last = time.perf_counter() - t0  # type: ignore[attr-defined]

    best = float("inf")
    for _ in range(runs):
        timed_on_copies(duel, 1, ingest)
        best = min(best, ingest.last)  # type: ignore[attr-defined]
    out["ingest"] = best
    return out


def bot_steps(root: Path, early: int, runs: int) -> tuple[float, float, int, int]:
    """The bot's step in a hot-seat Bastogne campaign game: at game-turn 2 and at the last turns."""
    home, g = root / "home-bot", root / "game-bot"
    run(home, "key", "new", "alice")
    run(home, "key", "new", "bob")
    run(home, "new", "bastogne-campaign", g, "--player", "DE=alice", "--player", "US=bob",
        "--game-id", GAME_ID.replace("0", "1"))
    keys = {"DE": "alice", "US": "bob"}
    times: dict[int, float] = {}
    step = 0
    while True:
        st = json.loads(run(home, "status", g, "--json"))
        if not st["pending"]:
            break
        side = st["pending"][0]["side"]
        best = float("inf")
        for i in range(runs if step in (early,) or st["pending"][0]["kind"] == "player-turn" else 1):
            twin_home, twin = root / f"bh-{i}", root / f"bg-{i}"
            shutil.copytree(home, twin_home)
            shutil.copytree(g, twin)
            t0 = time.perf_counter()
            run(twin_home, "bot", twin, "--side", side, "--key", keys[side])
            best = min(best, time.perf_counter() - t0)
            shutil.rmtree(twin_home)
            shutil.rmtree(twin)
        times[step] = best
        run(home, "bot", g, "--side", side, "--key", keys[side])
        step += 1
    last = max(s for s in times if s < step - 2)  # a late player-turn (not the final acknowledge)
    return times[early], times[last], early, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300, help="the late step")
    parser.add_argument("--early", type=int, default=10, help="the early step")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="steps 60, runs 3, no bot")
    parser.add_argument("--no-bot", action="store_true", help="skip the Bastogne bot measurement")
    args = parser.parse_args()
    if args.quick:
        args.steps, args.runs = 60, 3
    rounds = args.steps // 2 + 2
    sys.setrecursionlimit(10_000)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        root = Path(tmp)
        (root / "toy").mkdir()
        duel = Duel(root / "toy", rounds)
        t0 = time.perf_counter()
        global SUBPROCESS
        duel.play_to(args.early)
        early = measure(duel, args.runs)
        SUBPROCESS = True
        early_cli = measure(duel, args.runs)
        SUBPROCESS = False
        duel.play_to(args.steps)
        late = measure(duel, args.runs)
        SUBPROCESS = True
        late_cli = measure(duel, args.runs)
        SUBPROCESS = False
        print(f"toy duel: played to step {args.steps} in {time.perf_counter() - t0:.1f} s "
              f"(two homes, moves exchanged as files)")
        worst = 0.0
        for label, e, la in (("in-process", early, late), ("as a user runs it", early_cli, late_cli)):
            print(f"  {label}:")
            for cmd in ("status", "submit", "ingest"):
                ratio = la[cmd] / e[cmd]
                worst = max(worst, ratio) if label != "in-process" else worst
                print(f"    {cmd:<7} step {args.early:>3}: {e[cmd] * 1000:7.1f} ms   step {args.steps:>3}: "
                      f"{la[cmd] * 1000:7.1f} ms   ratio {ratio:5.2f}  (target <= 1.2)")
        bot = ""
        if not (args.quick or args.no_bot):
            (root / "bot").mkdir()
            b_early, b_late, s_early, s_late = bot_steps(root / "bot", 4, args.runs)
            ratio = b_late / b_early
            worst = max(worst, ratio)
            print(f"  bot     step {s_early:>3}: {b_early * 1000:7.1f} ms   step {s_late:>3}: "
                  f"{b_late * 1000:7.1f} ms   ratio {ratio:5.2f}  (Bastogne campaign; the bot's own "
                  "thinking grows with the units on the map)")
            bot = f", bot {ratio:.2f}"
        print(f"SUMMARY commands late/early as run by a user: status "
              f"{late_cli['status'] / early_cli['status']:.2f}, submit "
              f"{late_cli['submit'] / early_cli['submit']:.2f}, ingest "
              f"{late_cli['ingest'] / early_cli['ingest']:.2f}{bot}; in-process status "
              f"{late['status'] / early['status']:.2f}, submit {late['submit'] / early['submit']:.2f}, "
              f"ingest {late['ingest'] / early['ingest']:.2f} (target <= 1.2)")


if __name__ == "__main__":
    main()
