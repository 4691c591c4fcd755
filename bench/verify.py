"""Benchmark: ``pbem verify`` against its floor, and ``pbem --help`` cold start.

    python bench/verify.py [GAME_DIR] [--runs N]

* verify: wall time of opening the archive and replaying it with every check (best of N);
* floor: the same files read, parsed strictly, hashed and their signatures checked -- everything
  a verifier cannot avoid, but no rules (best of N, measured in the same run);
* their ratio (target <= 2);
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
    from pbem.engine import replay as engine

    engine._SCENARIO_CACHE.clear()  # each run pays for loading the scenario model, like a CLI run
    game = engine.open_for_verify(game_dir)
    game.verify({})


def floor_once(game_dir: Path) -> None:
    """Parse + hash + signature checks of every archive file, no rules."""
    from pbem.engine.scenarios import content_hash, load_data
    from pbem.protocol import archive
    from pbem.protocol.canonical import (
        MAX_GENESIS_BYTES,
        MAX_MOVE_BYTES,
        MAX_TURN_BYTES,
        loads_strict,
    )
    from pbem.protocol.dsse import verify
    from pbem.protocol.keys import parse_public

    listing = archive.scan(game_dir)
    assert listing.genesis is not None
    genesis = archive.parse_genesis(archive.read_limited(listing.genesis, MAX_GENESIS_BYTES))
    keys = {e.fingerprint: parse_public(e.key) for e in genesis.body.sides.values()}
    signed = {e.fingerprint: keys[e.fingerprint] for e in genesis.body.sides.values() if e.commitment}
    verify(genesis.envelope, genesis.envelope.payloadType, signed)
    content_hash(load_data(str(game_dir / "scenario.json")))
    for path in listing.joins.values():
        msg = archive.parse_join(archive.read_limited(path, MAX_GENESIS_BYTES), path.name)
        fp = genesis.body.sides[msg.body.side].fingerprint
        verify(msg.envelope, msg.envelope.payloadType, {fp: keys[fp]})
    for path in listing.moves.values():
        msg = archive.parse_move(archive.read_limited(path, MAX_MOVE_BYTES), path.name)
        fp = genesis.body.sides[msg.body.side].fingerprint
        verify(msg.envelope, msg.envelope.payloadType, {fp: keys[fp]})
    for path in listing.turns.values():
        data = archive.read_limited(path, MAX_TURN_BYTES)
        loads_strict(data, max_bytes=MAX_TURN_BYTES, what=path.name)
        hashlib.sha256(data).hexdigest()


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
        run("submit", str(g), str(orders), "--key", key[str(doc["side"])])

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
        verify_once(game_dir)  # warm the file cache and imports for both measurements
        floor_once(game_dir)
        t_verify = best_of(args.runs, lambda: verify_once(game_dir))
        t_floor = best_of(args.runs, lambda: floor_once(game_dir))
        print(f"archive     {game_dir} ({files} files)")
        print(f"verify      {t_verify * 1000:8.1f} ms")
        print(f"floor       {t_floor * 1000:8.1f} ms  (parse + hash + signatures, no rules)")
        print(f"ratio       {t_verify / t_floor:8.2f}    (target <= 2)")
    t_help, t_pass = cold_start(args.runs)
    print(f"pbem --help {t_help * 1000:8.1f} ms  (python -c pass: {t_pass * 1000:.1f} ms; "
          f"difference {(t_help - t_pass) * 1000:.1f} ms; target <= 150 ms)")


if __name__ == "__main__":
    main()
