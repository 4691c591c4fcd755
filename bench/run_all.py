"""Run every benchmark script in ``bench/`` and print a summary (``make bench``).

    .venv/bin/python bench/run_all.py            # every bench/*.py with its default arguments
    .venv/bin/python bench/run_all.py --quick    # pass --quick to the scripts that accept it
    .venv/bin/python bench/run_all.py ww_turn    # only scripts whose name contains "ww_turn"

Each script runs in its own process with this interpreter; its output is shown as it comes. Scripts
whose name starts with ``_`` (helpers) and this file are skipped. ``verify.py`` needs a game
directory: ``examples/bastogne-spearhead`` when it exists, otherwise it is skipped with a note.
The summary lists each script's status and wall time, then the lines it printed starting with
``SUMMARY`` (or, if none, its last five lines of output).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
GAME_DIR = ROOT / "examples" / "bastogne-spearhead"


@dataclass
class Outcome:
    script: str
    status: str
    seconds: float = 0.0
    lines: list[str] = field(default_factory=list)


def arguments(script: Path, quick: bool) -> list[str] | str:
    """Default arguments for ``script``, or a string saying why it is skipped."""
    args: list[str] = []
    if script.name == "verify.py":
        if not GAME_DIR.is_dir():
            return (
                f"skipped: needs a GAME_DIR and {GAME_DIR.relative_to(ROOT)} does not exist "
                "(run `python bench/verify.py` by hand to time a generated toy game instead)"
            )
        args.append(str(GAME_DIR))
    if quick and "--quick" in script.read_text(encoding="utf-8"):
        args.append("--quick")
    return args


def run(script: Path, args: list[str], timeout: float) -> Outcome:
    cmd = [sys.executable, str(script), *args]
    print(f"\n=== {script.name} {' '.join(args)}".rstrip(), flush=True)
    t0 = time.perf_counter()
    out: list[str] = []
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            out.append(line.rstrip("\n"))
            if time.perf_counter() - t0 > timeout:
                proc.kill()
                break
        code = proc.wait(timeout=max(1.0, timeout - (time.perf_counter() - t0)))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        code = -9
    seconds = time.perf_counter() - t0
    if seconds > timeout:
        status = f"timed out after {timeout:.0f} s"
    elif code == 0:
        status = "ok"
    else:
        status = f"failed (exit {code})"
    summary = [ln for ln in out if ln.startswith("SUMMARY")]
    if not summary:
        summary = [ln for ln in out if ln.strip()][-5:]
    return Outcome(script.name, status, seconds, summary)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Run every bench/*.py script and summarise.")
    ap.add_argument("names", nargs="*", help="only scripts whose file name contains one of these")
    ap.add_argument("--quick", action="store_true", help="pass --quick where a script accepts it")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds per script")
    args = ap.parse_args(argv)
    scripts = sorted(
        p
        for p in BENCH.glob("*.py")
        if not p.name.startswith("_") and p.name != Path(__file__).name
    )
    if args.names:
        scripts = [p for p in scripts if any(n in p.name for n in args.names)]
    outcomes: list[Outcome] = []
    for script in scripts:
        how = arguments(script, args.quick)
        if isinstance(how, str):
            print(f"\n=== {script.name}: {how}", flush=True)
            outcomes.append(Outcome(script.name, how))
            continue
        outcomes.append(run(script, how, args.timeout))
    print("\n=== summary")
    for o in outcomes:
        took = f" in {o.seconds:.1f} s" if o.seconds else ""
        print(f"{o.script}: {o.status}{took}")
        for line in o.lines:
            print(f"    {line}")
    failed = [o for o in outcomes if o.status != "ok" and not o.status.startswith("skipped")]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
