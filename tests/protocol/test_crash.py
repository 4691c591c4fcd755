"""Crash safety: ``pbem submit`` killed with SIGKILL after the move file is written but before the
turn file leaves a valid archive, and running the same command again finishes the job with the
same bytes an uninterrupted run writes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.protocol import GAME_ID, SCRIPT, TOY, Result, listing, ok, pbem, written

RUN = (
    "import sys; from pbem.cli import main; main(sys.argv[1:])"
)


def hot_seat(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    ok(pbem("key", "new", "alice", home=home))
    ok(pbem("key", "new", "bob", home=home))
    g = tmp_path / "g"
    ok(pbem("new", TOY, g, "--player", "A=alice", "--player", "B=bob", "--game-id", GAME_ID, home=home))
    return home, g


def orders_file(tmp_path: Path, step: int) -> Path:
    path = tmp_path / f"orders-{step}.json"
    path.write_text(json.dumps(SCRIPT[step - 1][1]))
    return path


def submit(home: Path, g: Path, path: Path, key: str) -> Result:
    return pbem("submit", "--yes", g, path, "--key", key, home=home)


@pytest.mark.parametrize("step", [1, 3])  # a set-up (no dice) and a roll (dice)
def test_kill_after_move_then_rerun_finishes(tmp_path: Path, step: int) -> None:
    home, g = hot_seat(tmp_path)
    keys = {"A": "alice", "B": "bob"}
    for s in range(1, step):
        ok(submit(home, g, orders_file(tmp_path, s), keys[SCRIPT[s - 1][0]]))
    twin = tmp_path / "twin"
    shutil.copytree(g, twin)
    path = orders_file(tmp_path, step)
    key = keys[SCRIPT[step - 1][0]]
    env = dict(os.environ, PBEM_HOME=str(home), PBEM_PASSPHRASE="", PBEM_TEST_CRASH_AFTER="move")
    proc = subprocess.run([sys.executable, "-c", RUN, "submit", "--yes", str(g), str(path), "--key", key],
                          env=env, capture_output=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    move = f"move-{step:04d}-{SCRIPT[step - 1][0]}.json"
    turn = f"turn-{step:04d}.json"
    assert (g / move).exists() and not (g / turn).exists()
    assert not [p.name for p in g.iterdir() if p.name.startswith(".")]  # no temp file left
    # the interrupted archive is valid as it stands
    ok(pbem("verify", g, home=tmp_path / "nobody"))
    # the same command again completes it
    res = ok(submit(home, g, path, key))
    assert "already in the archive" in res.err and turn in written(res)
    # and the result equals an uninterrupted run
    ok(submit(home, twin, path, key))
    assert listing(g) == listing(twin)
    ok(pbem("verify", g, home=home))


def test_advance_by_ingest_after_crash(tmp_path: Path) -> None:
    """Any command that replays (here: ingest of an already archived file) finishes the turn."""
    home, g = hot_seat(tmp_path)
    path = orders_file(tmp_path, 1)
    env = dict(os.environ, PBEM_HOME=str(home), PBEM_PASSPHRASE="", PBEM_TEST_CRASH_AFTER="move")
    proc = subprocess.run([sys.executable, "-c", RUN, "submit", "--yes", str(g), str(path), "--key", "alice"],
                          env=env, capture_output=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL
    saved = tmp_path / "move-0001-A.json"
    shutil.copyfile(g / "move-0001-A.json", saved)
    res = ok(pbem("ingest", g, saved, home=home))
    assert written(res) == ["turn-0001.json"]


def test_a_sealed_commitment_killed_before_its_email_is_finished_by_the_refused_rerun(tmp_path: Path) -> None:
    """[P8] a hostile-input trial: a megagame team's `pbem submit` killed between the move file and
    its email left no email; running it again is refused (the orders are committed) and the
    refusal took away what the run had finished of the crash's leftovers, so the email appeared
    only at the next ingest. The refused rerun now keeps them: the turn file and the email to send."""
    from helpers import megagame as helpers_megagame

    players = helpers_megagame.start(tmp_path, helpers_megagame.scenario_file(tmp_path, 2))
    ab1 = players["AB1"]
    sheet = tmp_path / "sheet.json"
    sheet.write_text(ok(ab1.run("orders", ab1.dir, "--side", "AB1")).out)
    env = dict(os.environ, PBEM_HOME=str(ab1.home), PBEM_PASSPHRASE="", PBEM_TEST_CRASH_AFTER="move")
    proc = subprocess.run([sys.executable, "-c", RUN, "submit", "--yes", str(ab1.dir), str(sheet),
                           "--key", ab1.name], env=env, capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert (ab1.dir / "move-0001-AB1.json").exists() and not (ab1.dir / "mail-0001.eml").exists()
    res = ab1.run("submit", ab1.dir, sheet, "--key", ab1.name, "--yes")
    assert res.code == 2 and "committed already" in res.err, res.err
    assert (ab1.dir / "mail-0001.eml").exists() and (ab1.dir / "turn-0001.json").exists()
    ok(pbem("verify", ab1.dir, home=ab1.home))
