"""Benchmark: ``pbem verify`` exactly as a user runs it, against its floor; ``pbem --help`` cold start.

    python bench/verify.py [GAME_DIR] [--runs N]

* verify: ``pbem verify GAME_DIR`` -- the command users run, with every check it makes (the replay,
  and every map and email draft checked against ``derived.sha256``) -- timed two ways, best of N:
  in-process (``pbem.cli.main``, the scenario cache cleared as in a fresh process) and as a new
  process (interpreter start and imports included);
* floor: what any verifier must do, measured in the same run the same two ways: read every file
  of the directory, SHA-256 it, parse every JSON file strictly, and check every Ed25519 signature --
  but no rules, no replay;
* their ratios (target <= 2);
* ``pbem --help`` in a fresh interpreter against ``python -c pass`` (best of N; target <= 150 ms).

Without GAME_DIR a long toy game (hot seat, 2 x 60 rolls) is played in a temporary directory first.
Not a test: timings depend on the machine, so nothing here asserts.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pbem.engine.ruleset import register_ruleset

register_ruleset("toy", "pbem.systems.toy:ToyRules")


def best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def verify_once(game_dir: Path) -> None:
    """``pbem verify GAME_DIR`` in-process, as a fresh process would run it."""
    from pbem.cli import main
    from pbem.engine import replay as engine

    engine._SCENARIO_CACHE.clear()  # each run pays for loading the scenario model, like a CLI run
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(["verify", str(game_dir)])
        except SystemExit as exc:
            if exc.code:
                raise RuntimeError(f"pbem verify {game_dir} failed") from None


def floor_once(game_dir: Path) -> None:
    """Read + SHA-256 + strict JSON parse of every file, Ed25519 check of every signature; no rules."""
    from pbem.protocol import archive
    from pbem.protocol.canonical import MAX_GENESIS_BYTES, MAX_MOVE_BYTES, loads_strict
    from pbem.protocol.dsse import verify
    from pbem.protocol.keys import parse_public

    listing = archive.scan(game_dir)
    assert listing.genesis is not None
    for path in sorted(game_dir.iterdir()):
        if path.is_file():
            data = path.read_bytes()
            hashlib.sha256(data).hexdigest()
            if path.suffix == ".json":
                loads_strict(data, max_bytes=1 << 24, what=path.name)
    genesis = archive.parse_genesis(archive.read_limited(listing.genesis, MAX_GENESIS_BYTES))
    keys = {e.fingerprint: parse_public(e.key) for e in genesis.body.sides.values()}
    signed = {e.fingerprint: keys[e.fingerprint] for e in genesis.body.sides.values() if e.commitment}
    verify(genesis.envelope, genesis.envelope.payloadType, signed)
    for path in listing.joins.values():
        msg = archive.parse_join(archive.read_limited(path, MAX_GENESIS_BYTES), path.name)
        fp = genesis.body.sides[msg.body.side].fingerprint
        verify(msg.envelope, msg.envelope.payloadType, {fp: keys[fp]})
    for step in sorted(listing.moves):
        path = listing.moves[step]
        msg = archive.parse_move(archive.read_limited(path, MAX_MOVE_BYTES), path.name)
        fp = genesis.body.sides[msg.body.side].fingerprint
        verify(msg.envelope, msg.envelope.payloadType, {fp: keys[fp]})


FLOOR_SCRIPT = (
    "import sys; sys.path.insert(0, {here!r}); import verify as v; from pathlib import Path; "
    "v.floor_once(Path(sys.argv[1]))"
)


def as_process(runs: int, cmd: list[str]) -> float:
    return best_of(runs, lambda: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                                                env={**os.environ, "PBEM_HOME": tempfile.mkdtemp()}))


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


def cold_start(runs: int) -> tuple[float, float]:
    exe = Path(sys.executable).with_name("pbem")
    help_cmd = [str(exe), "--help"] if exe.exists() else [sys.executable, "-m", "pbem.cli", "--help"]
    pass_cmd = [sys.executable, "-c", "pass"]

    def run(cmd: list[str]) -> Callable[[], object]:
        return lambda: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

    return best_of(runs, run(help_cmd)), best_of(runs, run(pass_cmd))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dir", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=60, help="rounds of the generated toy game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game_dir = args.game_dir or make_game(Path(tmp), args.rounds)
        files = len([p for p in game_dir.iterdir() if p.is_file()])
        size = sum(p.stat().st_size for p in game_dir.iterdir() if p.is_file())
        verify_once(game_dir)  # warm the file cache and imports for both measurements
        floor_once(game_dir)
        t_verify = best_of(args.runs, lambda: verify_once(game_dir))
        t_floor = best_of(args.runs, lambda: floor_once(game_dir))
        exe = Path(sys.executable).with_name("pbem")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pbem"]
        p_verify = as_process(args.runs, [*cmd, "verify", str(game_dir)])
        here = str(Path(__file__).resolve().parent)
        p_floor = as_process(args.runs, [sys.executable, "-c", FLOOR_SCRIPT.format(here=here), str(game_dir)])
        print(f"archive     {game_dir} ({files} files, {size / 1e6:.1f} MB)")
        print(f"in-process  verify {t_verify * 1000:8.1f} ms   floor {t_floor * 1000:8.1f} ms   "
              f"ratio {t_verify / t_floor:5.2f}  (target <= 2)")
        print(f"as a user   verify {p_verify * 1000:8.1f} ms   floor {p_floor * 1000:8.1f} ms   "
              f"ratio {p_verify / p_floor:5.2f}  (new processes: interpreter start and imports)")
        print(f"SUMMARY verify {p_verify * 1000:.0f} ms as a user runs it, {p_verify / p_floor:.2f}x "
              f"its floor ({t_verify / t_floor:.2f}x in-process; target <= 2)")
    t_help, t_pass = cold_start(args.runs)
    print(f"pbem --help {t_help * 1000:8.1f} ms  (python -c pass: {t_pass * 1000:.1f} ms; "
          f"difference {(t_help - t_pass) * 1000:.1f} ms; target <= 150 ms)")


if __name__ == "__main__":
    main()
