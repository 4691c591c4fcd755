"""The megagame's :meth:`MegagameRules.dump_state` gives the same JSON object again for the same
state object (a sealed round carries one state through five or more turn files, issue 28): held
here equal to the generic dump (:meth:`Record.to_json`) for every state a replay of a frozen game
makes, and a state equal but not the same dumped anew."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers.paths import ROOT

from pbem.engine.gamedir import Game
from pbem.engine.replay import Replay
from pbem.systems.megagame.model import MegaState


def test_every_state_of_a_replay_dumps_as_its_record_does(tmp_path: Path) -> None:
    game_dir = tmp_path / "megagame-acked"
    shutil.copytree(ROOT / "tests" / "compat" / "megagame-acked", game_dir)
    game = Game.open(game_dir)
    rp = Replay(game, {}, strict=True, publication=game.publication())
    rp.run()
    full = [r for r in rp.records if r.full_turn is not None and r.state is not None]
    assert len(full) == len(rp.records) == 56  # the genesis' turn and one for each of 55 moves
    shared = 0
    for before, rec in zip(full, full[1:], strict=False):
        assert rec.full_turn is not None
        assert rec.full_turn["state"] == rec.state.to_json()
        if rec.state is before.state:
            shared += 1
    assert shared == 55 - 5  # every step but the five that resolve a round keeps the state
    rules, sc = game.ruleset, game.scenario
    last = rp.records[-1].state
    assert rules.dump_state(sc, last) is rules.dump_state(sc, last)
    again = MegaState.parse(last.to_json())
    assert again is not last
    fresh = rules.dump_state(sc, again)
    assert fresh == last.to_json() and fresh is not rules.dump_state(sc, last)
