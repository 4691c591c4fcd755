"""Issue 28: a finished game's directory holds at most 40 KiB a step for WestWall and Arnhem 1944
games -- its signed and recomputed files and the derived files of the newest step only -- and
every older map or email is drawn again on demand as pbem wrote it."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import env

PLAYERS = {"DE": "example-de", "US": "example-us", "AL": "example-us"}


@pytest.mark.slow  # a whole game bot against bot, every map and email drawn: about a minute (Arnhem 1944 more)
@pytest.mark.parametrize("scenario", ["bastogne-spearhead", "arnhem1944-historical"])
def test_a_finished_game_keeps_at_most_40_kib_a_step(tmp_path: Path, scenario: str) -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    from generate import generate  # type: ignore[import-not-found]

    from pbem.engine import derived
    from pbem.engine.scenarios import load_data
    from pbem.render.outputs import as_written, open_game

    sides = [s["id"] for s in load_data(scenario)["sides"]]
    with env(PBEM_HOME=None, PBEM_PASSPHRASE=None):
        g = generate(tmp_path / "g", scenario=scenario, players={s: PLAYERS[s] for s in sides}, restore=False)
    steps = len(list(g.glob("move-*.json")))
    total = sum(p.stat().st_size for p in g.iterdir() if p.is_file())
    assert steps > 10 and total / steps <= 40 * 1024, f"{total / steps / 1024:.1f} KiB a step"
    newest = max(int(p.name[5:9]) for p in g.glob("turn-*.json"))
    assert sorted(p.name for p in g.glob("map-*.svg")) == [f"map-{newest:04d}.svg"]
    assert not (g / "board.svg").exists()
    # both sides are played here: the last move's email waits for the other side, every other is gone
    last = max(int(p.name[5:9]) for p in g.glob("move-*.json"))
    assert sorted(p.name for p in g.glob("mail-*.eml")) == [f"mail-{last:04d}.eml"]
    recorded = derived.read(g)
    assert len([n for n in recorded if n.startswith("map-")]) == newest + 1
    game = open_game(g)
    for step in (0, newest // 2, newest - 1):
        data, same = as_written(game, step)
        assert same and hashlib.sha256(data).hexdigest() == recorded[f"map-{step:04d}.svg"]
