"""``pbem html`` of a game with hidden information [P10; issue 25]: a team's viewer shows the team's
own map and its reports in words (it showed no map and raw JSON cut mid-word); Game Control's shows
the master map; neither shows what the other may not see."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.protocol import Player, ok
from systems.megagame.test_megagame_game import play_turn, start


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Player]:
    players = start(tmp_path_factory.mktemp("hidden-site"))
    play_turn(players)
    return players


def _steps(site: Path) -> str:
    return (site / "index.html").read_text(encoding="utf-8")


def test_a_team_sees_its_own_map_and_its_report_in_words(game: dict[str, Player], tmp_path: Path) -> None:
    ab1 = game["AB1"]
    site = tmp_path / "ab1"
    ok(ab1.run("html", ab1.dir, "-o", site))
    maps = sorted(p.name for p in (site / "maps").iterdir())
    assert maps and all(re.fullmatch(r"map-\d{4}-AB1\.svg", name) for name in maps), maps
    html = _steps(site)
    assert '"map": "maps/map-' in html or '"map":"maps/map-' in html
    assert "sees: {" not in html  # words, not a JSON dump
    assert re.search(r"sees: [A-Z0-9]", html)
    for other in ("SS9", "SS10"):  # another team's view never reaches this machine
        assert not any(other in name for name in maps)


def test_game_control_sees_the_master_map_of_every_step(game: dict[str, Player], tmp_path: Path) -> None:
    gc = game["GC"]
    site = tmp_path / "gc"
    ok(gc.run("html", gc.dir, "-o", site))
    maps = sorted(p.name for p in (site / "maps").iterdir())
    steps = len(list(gc.dir.glob("turn-*.json")))
    assert maps == [f"map-{i:04d}.svg" for i in range(steps)]
    svg = (site / "maps" / maps[-1]).read_text(encoding="utf-8")
    assert svg.startswith("<?xml") or svg.startswith("<svg")
