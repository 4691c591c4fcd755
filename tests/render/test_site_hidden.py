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


def _view_box(svg: str) -> tuple[float, float]:
    m = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    assert m, svg[:300]
    return float(m.group(1)), float(m.group(2))


def _whole_map_box(game_dir: Path, home: Path) -> tuple[float, float]:
    """The master map of the set-up drawn uncropped: the sheet the master maps are cut from."""
    from helpers.protocol import env

    from pbem.engine.gamedir import open_checked
    from pbem.render.svg import draw

    with env(PBEM_HOME=str(home)):
        g = open_checked(game_dir)
        state = g.ruleset.initial_state(g.scenario, g.body.options)
        view = g.ruleset.presenter().map_view(g.scenario, state, [], side=None)
    return _view_box(draw(view))


def test_game_controls_map_of_a_report_is_framed_on_the_units_that_moved_and_fought(
        game: dict[str, Player], tmp_path: Path) -> None:
    """Issue 25: Game Control's viewer drew the whole sheet with the battle in its top tenth."""
    gc = game["GC"]
    site = tmp_path / "gc"
    ok(gc.run("html", gc.dir, "-o", site))
    report = max(int(p.stem.split("-")[1]) for p in (site / "maps").iterdir())  # the turn's report
    log = ok(gc.run("log", gc.dir, "--step", str(report))).out
    moved = re.findall(r"^ {4}(\S+) moves ((?:\d{4} ?)+)", log, re.M)
    assert moved, log
    svg = (site / "maps" / f"map-{report:04d}.svg").read_text(encoding="utf-8")
    for unit, path in moved:  # every unit that moved, and every hex of its way, is in the frame
        assert f">{unit}<" in svg, unit
        for h in path.split():
            assert f">{h}<" in svg, (unit, h)
    width, height = _view_box(svg)
    whole_w, whole_h = _whole_map_box(gc.dir, gc.home)
    assert width * height < 0.5 * whole_w * whole_h, ((width, height), (whole_w, whole_h))


def test_a_teams_viewer_has_its_own_map_at_every_step_from_the_set_up_on(
        game: dict[str, Player], tmp_path: Path) -> None:
    import json

    ab1 = game["AB1"]
    site = tmp_path / "ab1"
    ok(ab1.run("html", ab1.dir, "-o", site))
    html = _steps(site)
    data = json.loads(re.search(r'<script[^>]*id="steps"[^>]*>(.*?)</script>', html, re.S).group(1))  # type: ignore[union-attr]
    assert [s["map"] for s in data][0] == "maps/map-0000-AB1.svg"  # the set-up, before any report
    assert all(s["map"] for s in data)
    svg = (site / "maps" / "map-0000-AB1.svg").read_text(encoding="utf-8")
    assert ">1Para<" in svg and ">KGKrafft<" not in svg  # its own units; the enemy only as seen
    width, height = _view_box(svg)
    whole_w, whole_h = _whole_map_box(game["GC"].dir, game["GC"].home)
    assert width * height < 0.5 * whole_w * whole_h  # cropped to its forces and the objectives near


def test_9_the_action_of_a_step_is_where_units_moved_fought_or_were_struck_not_air_missions() -> None:
    from types import SimpleNamespace

    from pbem.maps.hexmap import Hex
    from pbem.systems.megagame.mapview import action_hexes

    hexes = {Hex.parse(h) for h in ("0101", "0102", "0103", "0201", "0202", "0505", "0909")}
    sc = SimpleNamespace(map=SimpleNamespace(geo=SimpleNamespace(hexes=hexes)))
    state = SimpleNamespace(units={"a": SimpleNamespace(hex="0202"), "b": SimpleNamespace(hex=None)})
    events = [{"kind": "moved", "unit": "x", "path": ["0101", "0102"]},
              {"kind": "combat", "at": "0103", "attackers": ["a"], "defenders": ["b"]},
              {"kind": "recce", "team": "AL", "at": "0909", "die": 6, "seen": "no enemy seen"},
              {"kind": "interdiction", "team": "AL", "at": "0505", "squadrons": 2, "hits": []},
              {"kind": "note", "text": "0201"}]
    assert action_hexes(sc, state, events) == tuple(Hex.parse(h) for h in ("0101", "0102", "0103", "0202"))  # type: ignore[arg-type]
