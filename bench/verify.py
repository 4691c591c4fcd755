"""Benchmark: ``pbem verify`` exactly as a user runs it, against its floor; ``pbem --help`` cold start.

    python bench/verify.py [GAME_DIR] [--runs N] [--no-bytecode-cache]

* verify: ``pbem verify GAME_DIR`` -- the command users run, with every check it makes (the replay,
  and every map and email draft checked against ``derived.sha256``) -- timed two ways: in-process
  (``pbem.cli.main``, the scenario cache cleared as in a fresh process) and as a new process
  (``.venv/bin/pbem verify GAME_DIR``: interpreter start and imports included);
* floor: what any verifier must do (``bench/_floor.py``): read every file of the directory once,
  SHA-256 it, parse every JSON file strictly (the signed messages through pbem's archive models)
  and check every Ed25519 signature -- no rules, no replay -- timed the same two ways, the new
  process importing only what that needs;
* the floor again as a new process with the garbage-collector treatment ``pbem verify`` gives
  itself (``_floor.py --gc-tuned``): the stricter ratio;
* their ratios (target <= 2): the median of N runs of each, verify and floor runs interleaved so
  that the load of the machine falls on both alike (the best of N is printed too);
* ``pbem --help`` in a fresh interpreter against ``python -c pass`` (best of N; target <= 150 ms).

New processes run as an installed pbem does: with its compiled bytecode (``.pyc``), kept here in a
private ``PYTHONPYCACHEPREFIX`` that a first, untimed run of each command fills. A pip install
compiles the bytecode, and a checkout writes it on its first run -- unless
``PYTHONDONTWRITEBYTECODE`` is set, as on some build machines, which makes every process compile
pbem's sources again: ``--no-bytecode-cache`` measures that case (it costs verify more than the
floor, which imports fewer of pbem's modules).

Without GAME_DIR a long toy game (hot seat, 2 x 60 rolls) is played in a temporary directory first.
Not a test: timings depend on the machine, so nothing here asserts.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from _floor import floor  # noqa: E402


def verify_once(game_dir: Path) -> None:
    """``pbem verify GAME_DIR`` in-process, as a fresh process would run it."""
    from pbem.cli import main
    # each run pays for loading the scenario model, like a CLI run (nothing is kept between games
    # outside a pbem.engine.gamedir.scenario_memo block)
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(["verify", str(game_dir)])
        except SystemExit as exc:
            if exc.code:
                raise RuntimeError(f"pbem verify {game_dir} failed") from None


def floor_once(game_dir: Path) -> None:
    """The floor in-process (``bench/_floor.py``)."""
    floor(game_dir)


def process_env(bytecode_cache: bool, cache_dir: str) -> dict[str, str]:
    """The environment of the timed processes (each with a fresh, empty ``PBEM_HOME``)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    if bytecode_cache:
        env["PYTHONPYCACHEPREFIX"] = cache_dir
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_process(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env={**env, "PBEM_HOME": tempfile.mkdtemp()})
    return time.perf_counter() - t0


def interleaved(runs: int, cmds: list[list[str]], env: dict[str, str]) -> list[list[float]]:
    """Each command once untimed (fills the bytecode cache), then ``runs`` rounds of each in turn."""
    for cmd in cmds:
        run_process(cmd, env)
    times: list[list[float]] = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            times[i].append(run_process(cmd, env))
    return times


def make_game(root: Path, rounds: int) -> Path:
    from pbem.cli import main

    os.environ["PBEM_HOME"] = str(root / "home")
    os.environ["PBEM_PASSPHRASE"] = ""
    scenario = root / "toy-long.json"
    scenario.write_text(json.dumps({"id": "toy-long", "system": "toy", "rounds": rounds,
                                    "sides": [{"id": "A"}, {"id": "B"}]}))
    g = root / "game"

    def run(*args: str) -> None:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                main(list(args))
            except SystemExit as exc:
                if exc.code:
                    raise RuntimeError(f"pbem {' '.join(args)} failed") from None

    run("key", "new", "alice")
    run("key", "new", "bob")
    run("new", str(scenario), str(g), "--player", "A=alice", "--player", "B=bob",
        "--game-id", "0123456789abcdef0123456789abcdef")
    orders = root / "o.json"
    key = {"A": "alice", "B": "bob"}

    def submit(doc: dict[str, object]) -> None:
        orders.write_text(json.dumps(doc))
        run("submit", "--yes", str(g), str(orders), "--key", key[str(doc["side"])])

    for side in "AB":
        submit({"kind": "setup", "side": side, "handicap": 1})
    for r in range(1, rounds + 1):
        for side in "AB":
            submit({"kind": "roll", "side": side, "round": r, "dice": 3})
    submit({"kind": "acknowledge", "side": "A"})
    return g


def cold_start(runs: int, env: dict[str, str]) -> tuple[float, float]:
    exe = Path(sys.executable).with_name("pbem")
    help_cmd = [str(exe), "--help"] if exe.exists() else [sys.executable, "-m", "pbem.cli", "--help"]
    pass_cmd = [sys.executable, "-c", "pass"]
    t_help, t_pass = interleaved(runs, [help_cmd, pass_cmd], env)
    return min(t_help), min(t_pass)


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.1f} ms (best {min(values) * 1000:6.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dir", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=60, help="rounds of the generated toy game")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="new processes compile pbem's sources every time (PYTHONDONTWRITEBYTECODE=1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game_dir = args.game_dir or make_game(Path(tmp), args.rounds)
        files = len([p for p in game_dir.iterdir() if p.is_file()])
        size = sum(p.stat().st_size for p in game_dir.iterdir() if p.is_file())
        verify_once(game_dir)  # warm the file cache and imports for both measurements
        floor_once(game_dir)
        t_verify: list[float] = []
        t_floor: list[float] = []
        for _ in range(args.runs):
            for fn, out in ((verify_once, t_verify), (floor_once, t_floor)):
                t0 = time.perf_counter()
                fn(game_dir)
                out.append(time.perf_counter() - t0)
        env = process_env(not args.no_bytecode_cache, str(Path(tmp) / "pycache"))
        exe = Path(sys.executable).with_name("pbem")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pbem"]
        floor_cmd = [sys.executable, str(BENCH / "_floor.py"), str(game_dir)]
        p_verify, p_floor, p_tuned = interleaved(
            args.runs, [[*cmd, "verify", str(game_dir)], floor_cmd, [*floor_cmd, "--gc-tuned"]], env
        )
        ratio = statistics.median(t_verify) / statistics.median(t_floor)
        p_ratio = statistics.median(p_verify) / statistics.median(p_floor)
        t_ratio = statistics.median(p_verify) / statistics.median(p_tuned)
        how = "no bytecode cache: every process compiles pbem" if args.no_bytecode_cache else "compiled bytecode, as installed"
        print(f"archive     {game_dir} ({files} files, {size / 1e6:.1f} MB); median of {args.runs} interleaved runs")
        print(f"in-process  verify {ms(t_verify)}   floor {ms(t_floor)}   ratio {ratio:5.2f}")
        print(f"as a user   verify {ms(p_verify)}   floor {ms(p_floor)}   ratio {p_ratio:5.2f}  "
              f"(target <= 2; new processes, {how})")
        print(f"            floor with verify's collector treatment {ms(p_tuned)}   ratio {t_ratio:5.2f}  "
              f"(the stricter ratio: _floor.py --gc-tuned)")
        print(f"SUMMARY verify {statistics.median(p_verify) * 1000:.0f} ms as a user runs it, {p_ratio:.2f}x "
              f"its floor ({t_ratio:.2f}x of the floor with the same collector treatment; {ratio:.2f}x in-process; "
              f"target <= 2)")
        t_help, t_pass = cold_start(args.runs, env)
    print(f"pbem --help {t_help * 1000:8.1f} ms  (python -c pass: {t_pass * 1000:.1f} ms; "
          f"difference {(t_help - t_pass) * 1000:.1f} ms; target <= 150 ms)")


if __name__ == "__main__":
    main()
