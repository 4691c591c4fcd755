"""``pbem verify`` run as the whole process tunes the cyclic garbage collector (it pauses it while
the engine and rules are imported and the archive opened, then freezes what lives until the end:
``pbem.cli.verify_run._opening``). That must change nothing a user sees -- the same report, the same
refusal of a tampered archive, the same exit codes -- and must not happen when verify is called
in-process, where freezing would keep the caller's garbage for good."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import Result
from helpers.protocol import pbem as run_pbem

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


def _whole_process(*args: str | Path, home: Path) -> Result:
    """``pbem ARGS`` in a new interpreter, through the console entry point (``main()`` with no
    argument, as the installed ``pbem`` script calls it)."""
    code = "import sys; from pbem.cli import main; sys.argv[0] = 'pbem'; main()"
    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_PASSPHRASE": ""}
    done = subprocess.run([sys.executable, "-c", code, *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=300)
    return Result(done.returncode, done.stdout, done.stderr)


def test_verify_in_process_leaves_the_collector_as_it_found_it(tmp_path: Path) -> None:
    before = gc.get_freeze_count(), gc.isenabled(), gc.get_threshold()
    r = run_pbem("verify", EXAMPLE, home=tmp_path / "home")
    assert r.code == 0, r.err
    assert (gc.get_freeze_count(), gc.isenabled(), gc.get_threshold()) == before


def test_a_westwall_replay_leaves_no_garbage_cycles(tmp_path: Path) -> None:
    """Why a whole-process verify may collect its young objects rarely (``REPLAY_GC_THRESHOLD``):
    the replay's objects are freed as soon as they are dropped. (The retreat search's recursive
    closure was a cycle holding a board per retreat.)"""
    run_pbem("verify", EXAMPLE, home=tmp_path / "warm")  # modules, caches and tables made first
    gc.collect()
    gc.disable()
    try:
        r = run_pbem("verify", EXAMPLE, home=tmp_path / "home")
        assert r.code == 0, r.err
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_verify_as_a_whole_process_reports_what_it_reports_in_process(tmp_path: Path) -> None:
    alone = _whole_process("verify", EXAMPLE, home=tmp_path / "a")
    inside = run_pbem("verify", EXAMPLE, home=tmp_path / "b")
    assert alone.code == inside.code == 0, alone.err
    assert alone.out == inside.out
    assert "16 moves, 17 turn files recomputed byte for byte" in alone.out


def test_verify_as_a_whole_process_refuses_a_changed_turn_file_as_in_process(
    tmp_path: Path,
) -> None:
    game = tmp_path / "game"
    shutil.copytree(EXAMPLE, game)
    turn = game / "turn-0005.json"
    turn.write_bytes(turn.read_bytes().replace(b'"step":5', b'"step":5 ', 1))
    alone = _whole_process("verify", game, home=tmp_path / "a")
    inside = run_pbem("verify", game, home=tmp_path / "b")
    assert alone.code == inside.code == 1
    assert alone.err == inside.err and "turn-0005.json" in alone.err


def test_verify_as_a_whole_process_runs_exit_hooks_and_flushes_its_report(tmp_path: Path) -> None:
    """A whole-process verify ends the usual way: an atexit hook still runs, and the report is
    whole, to a pipe too."""
    code = ("import atexit, sys; atexit.register(lambda: print('hook ran', file=sys.stderr)); "
            "from pbem.cli import main; sys.argv[0] = 'pbem'; main()")
    env = {**os.environ, "PBEM_HOME": str(tmp_path), "PBEM_PASSPHRASE": ""}
    done = subprocess.run([sys.executable, "-c", code, "verify", str(EXAMPLE)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stderr) == (0, "hook ran\n")
    assert done.stdout.endswith("OK\n")
    redraw = subprocess.run([sys.executable, "-c", code, "verify", str(EXAMPLE), "--redraw"], env=env,
                            capture_output=True, text=True, timeout=300)
    assert (redraw.returncode, redraw.stdout) == (0, done.stdout)  # one entry path, one report


def test_verify_refuses_odd_paths_in_one_line(tmp_path: Path) -> None:
    """An empty argument and a name too long for the system: refused in one line."""
    empty = _whole_process("verify", "", home=tmp_path / "a")
    assert (empty.code, empty.err) == (
        2, "pbem: Invalid value for 'GAME_DIR': Directory '' does not exist. (see 'pbem verify --help')\n")
    long = _whole_process("verify", "a" * 300, home=tmp_path / "b")
    assert long.code == 2 and long.err.startswith("pbem: Invalid value for 'GAME_DIR': Directory 'aaaa")
    assert long.err.count("\n") == 1 and "Traceback" not in long.err


@pytest.mark.parametrize(("raised", "code", "err"), [
    ("KeyboardInterrupt", 1, "\nAborted.\n"),  # what click makes of Ctrl-C
    ("EOFError", 1, "\nAborted.\n"),
    ("BrokenPipeError(32, 'Broken pipe')", 1, ""),  # the reader went away: a silent exit 1
    ("OSError(28, 'No space left on device')", 2, "pbem: No space left on device\n"),
])
def test_verify_ends_as_the_click_group_would(tmp_path: Path, raised: str, code: int,
                                                   err: str) -> None:
    via_click = (f"import sys, pbem.cli.verify_run as v\ndef boom(*a, **k): raise {raised}\n"
                 "v.run = boom\nfrom pbem.cli import main\nsys.argv[0] = 'pbem'\nmain()")
    env = {**os.environ, "PBEM_HOME": str(tmp_path), "PBEM_PASSPHRASE": ""}
    for extra in ([], ["--redraw"]):
        done = subprocess.run([sys.executable, "-c", via_click, "verify", str(EXAMPLE), *extra],
                              env=env, capture_output=True, text=True, timeout=300)
        assert (done.returncode, done.stderr, done.stdout) == (code, err, ""), extra


@pytest.mark.parametrize(("encoding", "expected"), [
    ("ascii", "Bastogne \u2013 Noville\n".encode()),  # a stream that says ASCII gets UTF-8, as click gives it
    ("latin-1", b"Bastogne \\u2013 Noville\n"),  # otherwise escapes, not a traceback
])
def test_output_that_the_stream_cannot_encode(encoding: str, expected: bytes) -> None:
    import io

    from pbem.cli._out import echo

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding)
    saved, sys.stdout = sys.stdout, stream
    try:
        echo("Bastogne \u2013 Noville")
    finally:
        sys.stdout = saved
    assert raw.getvalue() == expected
