"""A command run as the whole process (the console script) collects its young objects rarely and
freezes what is alive once it has succeeded (``pbem.cli.main``): that must change nothing a user
sees -- the same output, the same refusals and exit codes -- and must not happen in-process, where
the caller's collector is not pbem's to tune."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers.paths import ROOT
from helpers.protocol import Result
from helpers.protocol import pbem as run_pbem

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


def _whole_process(*args: str | Path, home: Path) -> Result:
    """``pbem ARGS`` through the console entry point (``main()`` without arguments)."""
    code = "import sys; from pbem.cli import main; sys.argv[0] = 'pbem'; main()"
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_PASSPHRASE": ""}
    done = subprocess.run([sys.executable, "-c", code, *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=300)
    return Result(done.returncode, done.stdout, done.stderr)


def test_a_command_in_process_leaves_the_collector_as_it_found_it(tmp_path: Path) -> None:
    before = gc.get_freeze_count(), gc.isenabled(), gc.get_threshold()
    r = run_pbem("status", EXAMPLE, home=tmp_path / "home")
    assert r.code == 0, r.err
    assert (gc.get_freeze_count(), gc.isenabled(), gc.get_threshold()) == before


def test_status_as_a_whole_process_says_what_it_says_in_process(tmp_path: Path) -> None:
    alone = _whole_process("status", EXAMPLE, "--json", home=tmp_path / "a")
    inside = run_pbem("status", EXAMPLE, "--json", home=tmp_path / "b")
    assert alone.code == inside.code == 0, alone.err
    assert alone.out == inside.out
    assert '"step": 16' in alone.out


def test_a_refusal_as_a_whole_process_is_the_one_in_process(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(EXAMPLE, game)
    (game / "move-0007-DE.json").write_bytes(b"{}")
    alone = _whole_process("status", game, home=tmp_path / "a")
    inside = run_pbem("status", game, home=tmp_path / "b")
    assert alone.code == inside.code == 2
    assert alone.err == inside.err and "move-0007-DE.json" in alone.err


def test_the_collector_is_tuned_only_in_a_whole_process(tmp_path: Path) -> None:
    """What a whole process runs with: the young generation collected every 100,000 allocations,
    and everything alive frozen after the command succeeded (so at exit nothing is traversed)."""
    code = ("import atexit, gc, sys; from pbem.cli import main; sys.argv[0] = 'pbem'; "
            "atexit.register(lambda: print(gc.get_threshold()[0], gc.get_freeze_count() > 0, gc.isenabled(), "
            "file=sys.stderr)); main()")
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home"), "PBEM_PASSPHRASE": ""}
    done = subprocess.run([sys.executable, "-c", code, "status", str(EXAMPLE)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.split() == ["100000", "True", "True"]
