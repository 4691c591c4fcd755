"""Bot-vs-bot playthroughs of the SPI Arnhem scenarios to the end, each a real signed archive that
``pbem verify`` then accepts (issue 11: "random bot-vs-bot playthroughs of both scenarios").

The same harness as the Bastogne playthroughs (tests/systems/westwall/test_bastogne_playthrough.py): two local keys, a fixed
game id and chain nonce (the same dice on every run), :func:`pbem.engine.autoplay.autoplay` signing each
move as ``pbem submit`` does and placing it through every check of the engine. In the alternate
scenario the Allied drop-zone notes go through the real sealing (the Allied key's secret) and are
revealed by the Allied pbem on its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.protocol import env, example_keys, pbem

from pbem.engine.autoplay import autoplay
from pbem.engine.gamedir import Game
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.model import State

GAME_ID = "a44e1de5a44e1de5a44e1de5a44e1de5"


def _new_game(tmp_path: Path, scenario: str) -> tuple[Path, Path]:
    home = tmp_path / "home"
    example_keys(home, "allied", "german")  # fixed keys, id and nonce: the same dice every run
    g = tmp_path / "game"
    res = pbem("new", scenario, g, "--player", "AL=allied", "--player", "DE=german",
               "--game-id", GAME_ID, "--nonce", "a4" * 32, home=home)
    assert res.code == 0, res.err
    return home, g


def play(tmp_path: Path, scenario: str, seed: int) -> dict[str, Any]:
    home, g = _new_game(tmp_path, scenario)
    seen: dict[str, Any] = {"steps": 0, "rolls": set(), "weather": set(), "dz": None}

    def observe(game: Game, rp: Any) -> None:
        sc = game.scenario
        after = State.parse(rp.records[-1].turn["state"])
        board = Board.from_state(sc, after)
        stacked = board.stacked_hexes()
        for h, uids in stacked.items():  # only the engineer's passenger may share a hex [13.24]
            assert len(uids) == 2 and "Eng" in uids, (h, uids)
        for ev in rp.records[-1].turn["events"]:
            if ev["type"] == "roll":
                seen["rolls"].add(ev["rule"])
        if "weather" in after.exclusive:
            seen["weather"].add(after.exclusive["weather"])
        if after.exclusive.get("dz"):
            seen["dz"] = dict(after.exclusive["dz"])
        seen["steps"] += 1

    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        rp = autoplay(g, seed=seed, observe=observe)
        assert not rp.current.pending and not rp.tail_open
        outcome = rp.current.turn["outcome"]
        assert outcome is not None and "[17.4]" in outcome["summary"]
        summary = Game.open(g).verify()
    assert summary.outcome == outcome["summary"]
    assert summary.steps == seen["steps"]
    return {"outcome": outcome, "summary": summary, "dir": g, "home": home, "seen": seen}


def test_historical_playthrough(tmp_path: Path) -> None:
    r = play(tmp_path, "arnhem-historical", 0)
    assert set(r["outcome"]["points"]) == {"AL", "DE"}
    assert r["seen"]["dz"] == {"1": "3919", "101": "1007", "82": "2323"}  # [18.11]


@pytest.mark.slow
def test_historical_with_weather_playthrough(tmp_path: Path) -> None:
    r = play(tmp_path, "arnhem-historical-weather", 1)
    assert "16.0" in r["seen"]["rolls"]


def test_alternate_playthrough(tmp_path: Path) -> None:
    """18.2: weather on, drop zones noted in secret and revealed after the German set-up."""
    r = play(tmp_path, "arnhem-alternate", 0)
    assert "16.0" in r["seen"]["rolls"]
    assert r["seen"]["dz"] is not None and len(r["seen"]["dz"]) == 3
