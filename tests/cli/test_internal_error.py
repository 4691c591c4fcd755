"""A bug in pbem met by the console command (an exception that is not a refusal of the user's
input): one line naming the exception and where, exit 70, no traceback and no terminal control
characters; ``PBEM_TRACEBACK=1`` shows the traceback. Run as the console script runs: a whole
process entering through :func:`pbem.cli.main` without arguments."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# the process breaks one function the command calls, then runs pbem as its console script does
_SCRIPT = """
import sys
import pbem.engine.scenarios as scenarios

def broken():
    raise RuntimeError("\\x1b[31m" + "x" * 2000)

scenarios.bundled_ids = broken
sys.argv = ["pbem", "scenarios"]
from pbem.cli import main
main()
"""


def _run(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "PBEM_TRACEBACK"}
    return subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                          env={**base, **env}, timeout=120)


def test_an_internal_error_is_one_line_and_exit_70() -> None:
    result = _run()
    assert result.returncode == 70, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("pbem: internal error (RuntimeError at <string>:6: "), line  # the raising line
    assert "Traceback" not in line and "\x1b" not in line
    assert len(line) < 700  # the 2,000-character message cut as every error is
    assert "PBEM_TRACEBACK=1" in line


def test_pbem_traceback_shows_the_traceback() -> None:
    result = _run(PBEM_TRACEBACK="1")
    assert result.returncode == 1
    assert "Traceback (most recent call last)" in result.stderr and "RuntimeError" in result.stderr


def test_in_process_callers_get_the_exception_itself() -> None:
    """Tests and embedding code call ``main(argv)``: the exception reaches them unchanged."""
    import pbem.engine.scenarios as scenarios
    from pbem.cli import main

    def broken() -> list[str]:
        raise KeyError("boom")

    saved = scenarios.bundled_ids
    scenarios.bundled_ids = broken  # type: ignore[assignment]
    try:
        with pytest.raises(KeyError, match="boom"):
            main(["scenarios"])
    finally:
        scenarios.bundled_ids = saved  # type: ignore[assignment]
