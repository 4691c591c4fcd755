"""The Market Garden megagame played to its end, unattended (issue 13): every team's sparring bot
writes its sealed orders from its own view, Game Control's bot accepts the engine's groupings and
rules nothing, the umpire reports each turn and publishes after the last; `pbem verify` by a
stranger then re-checks every sealed order, ruling, roll, state and report. Hot seat: every key in
one home (the four-homes game by files is tests/systems/megagame/test_megagame_game.py)."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.protocol import ok, pbem

from pbem.engine.scenarios import bundled_dir, load_data
from pbem.systems.megagame.rules import MegagameRules


def _play(root: Path, scenario: str) -> tuple[Path, dict[str, object]]:
    from pbem.engine.autoplay import autoplay_rounds

    home = root / "home"
    teams = [t["id"] for t in json.loads((bundled_dir() / f"{scenario}.json").read_text())["teams"]]
    for side in [*teams, "GC"]:
        ok(pbem("key", "new", side.lower(), home=home))
    game = root / "game"
    players = [x for s in [*teams, "GC"] for x in ("--player", f"{s}={s.lower()}")]
    ok(pbem("new", scenario, game, *players, home=home))
    old = os.environ.get("PBEM_HOME")
    os.environ["PBEM_HOME"] = str(home)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            signed = autoplay_rounds(game)
    finally:
        if old is None:
            os.environ.pop("PBEM_HOME")
        else:
            os.environ["PBEM_HOME"] = old
    status = json.loads(ok(pbem("status", game, "--json", home=home)).out)
    assert signed == len(list(game.glob("move-*.json")))
    ok(pbem("publish", game, "--key", "gc", home=home))
    return game, status


@pytest.mark.parametrize("scenario", ["megagame-arnhem",
                                      pytest.param("megagame-market-garden-duel", marks=pytest.mark.slow),
                                      pytest.param("megagame-market-garden", marks=pytest.mark.slow)])
def test_bots_and_the_umpire_bot_play_to_the_end_and_a_stranger_verifies(scenario: str, tmp_path: Path) -> None:
    game, status = _play(tmp_path, scenario)
    outcome = status["outcome"]
    text = json.dumps(outcome)
    assert outcome and ("wins on objectives held" in text or "draw:" in text), text
    res = pbem("verify", game, home=tmp_path / "stranger")
    assert res.code == 0, res.err
    assert "every sealed order opened, every state and report recomputed" in res.out
    turns = MegagameRules().load_scenario(load_data(scenario)).turns
    teams = len(json.loads((bundled_dir() / f"{scenario}.json").read_text())["teams"])
    assert len(list(game.glob("move-*.json"))) == turns * (3 * teams + 2)  # commit, ack, rule, reveal, report


@pytest.mark.parametrize("name", ["megagame-market-garden", "megagame-market-garden-duel"])
def test_generated_scenarios_are_the_generators_output_and_sound(name: str) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "gen", ROOT / "scenarios" / "tools" / "gen_megagame_scenarios.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    built = gen.build("duel" if name.endswith("duel") else "corps")
    assert json.loads((bundled_dir() / f"{name}.json").read_text(encoding="utf-8")) == built
    rules = MegagameRules()
    assert rules.scenario_problems(load_data(name)) == []
    sc = rules.load_scenario(load_data(name))
    assert sc.reconstructed.startswith("RECONSTRUCTED")
    units = {u.id: u for u in sc.units}
    assert units["gb-2-para"].hex == "3208" and units["gb-2-para"].arrives == 2  # DZ X, the first lift
    assert {o.name for o in sc.objectives} >= {"Arnhem road bridge, north end"}
