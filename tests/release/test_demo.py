"""``make demo`` is one of the README's two commands: its script must run to its end and show what
it promises -- the example verified, a fresh game played and verified, and a megagame round whose
report a team reads (it once stopped before the report and showed nothing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers.paths import ROOT


def test_the_demo_runs_and_shows_a_megagame_report(tmp_path: Path) -> None:
    env = {**os.environ, "PBEM_DEMO_OUT": str(tmp_path / "out")}
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "demo.py")], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert out.count("\nOK\n") >= 2  # the bundled example and the fresh game, verified as a stranger
    assert "moves played: " in out
    assert "sealed order sheets" in out and "acknowledgements" in out and "Game Control's report" in out
    heard = out.split("XXX Corps hears", 1)[1].splitlines()
    assert len(heard) > 2 and heard[1].startswith("  ") and "Location:" in heard[1]
    assert (tmp_path / "out" / "bastogne-spearhead" / "turn-0000.json").is_file()
