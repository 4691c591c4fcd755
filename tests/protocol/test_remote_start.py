"""Two players start a game on two machines from the emails between them alone (P1, P2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.protocol import GAME_ID, Player, start_remote


@pytest.fixture
def duel(tmp_path: Path) -> tuple[Player, Player]:
    return start_remote(tmp_path)


def test_remote_start_gives_both_players_the_same_turn_zero(duel: tuple[Player, Player]) -> None:
    a, b = duel
    assert (a.dir / "turn-0000.json").read_bytes() == (b.dir / "turn-0000.json").read_bytes()
    # seeds stay in the private homes, never in the game directory
    assert not any(p.suffix == ".seed" for p in a.dir.iterdir())
    assert (a.home / "games" / GAME_ID / "A.seed").stat().st_mode & 0o777 == 0o600
