"""Verify for every party at every moment [29]: in the middle of a megagame (hidden information,
salted state hashes, a secret set-up) every team's machine and a stranger holding Game Control's
directory verify what they can -- signatures, chains, commitments, reveals, the scenario copies --
exit 0, and say what waits for Game Control's publication."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers.protocol import ok, pbem
from systems.megagame.test_megagame_game import TEAMS, play_turn, start


def test_every_party_verifies_a_megagame_mid_game_and_is_told_what_waits(tmp_path: Path) -> None:
    players = start(tmp_path)
    play_turn(players)
    for s in TEAMS:
        res = ok(players[s].run("verify", players[s].dir))
        assert res.out.rstrip().endswith("OK") and "signatures" in res.out
        assert "checked once the umpire publishes the orders after the game" in res.out
    # a stranger with Game Control's directory (the whole scenario, but not the umpire's salt)
    copy = tmp_path / "gc-copy"
    shutil.copytree(players["GC"].dir, copy)
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 0, res.err
    assert "the initial state's salted hash in the genesis is checked once the umpire publishes" in res.out
    assert res.out.rstrip().endswith("OK")


def test_game_controls_verify_mid_game_recomputes_everything_with_its_key(tmp_path: Path) -> None:
    """A tester saw 'rolls 0 re-derived' on Game Control's machine, which holds everything."""
    players = start(tmp_path)
    play_turn(players)
    gc = players["GC"]
    res = ok(gc.run("verify", gc.dir))
    assert "with Game Control's key: every sealed order opened, every state, report and roll recomputed" in res.out
    rolls = next(line for line in res.out.splitlines() if line.startswith("rolls"))
    assert int(rolls.split()[1]) > 0, rolls
    assert res.out.rstrip().endswith("OK")
