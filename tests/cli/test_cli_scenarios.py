"""``pbem scenarios`` and ``pbem scenario check`` (every problem of a broken file, one per line)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers.paths import ROOT

from pbem.cli import cli, main
from pbem.engine.scenarios import load_data


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_scenarios_lists_the_bundled_ones() -> None:
    res = run("scenarios")
    assert res.exit_code == 0, res.output
    lines = {line.split()[0]: line for line in res.stdout.splitlines()}
    assert set(lines) >= {"bastogne-spearhead", "bastogne-relief", "bastogne-campaign"}
    assert "7 game-turns, turns 1-7; DE first" in lines["bastogne-spearhead"]
    assert "9 game-turns, turns 9-17; US first" in lines["bastogne-relief"]
    assert "18 game-turns, turns 1-18; DE first" in lines["bastogne-campaign"]


def test_scenarios_json() -> None:
    res = run("scenarios", "--json")
    rows = {r["id"]: r for r in json.loads(res.output)}
    assert rows["bastogne-relief"]["sides"] == ["DE", "US"]
    assert (rows["bastogne-relief"]["length"], rows["bastogne-relief"]["first_player"]) == (9, "US")


@pytest.mark.parametrize("sid", ["bastogne-spearhead", "bastogne-relief", "bastogne-campaign"])
def test_bundled_scenarios_check_ok(sid: str) -> None:
    res = run("scenario", "check", sid)
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"ok: {sid} ")


def _write(tmp_path: Path, data: dict[str, Any], name: str = "mine.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture()
def relief() -> dict[str, Any]:
    return copy.deepcopy(load_data("bastogne-relief"))


def test_check_a_file_referring_to_the_bundled_map(tmp_path: Path) -> None:
    data = json.loads((ROOT / "pbem/scenario_data/bastogne-relief.json")
                      .read_text("utf-8"))
    data["id"] = "my-relief"
    res = run("scenario", "check", _write(tmp_path, data))
    assert res.exit_code == 0 and res.output.startswith("ok: my-relief "), res.output


def test_check_reports_every_problem(tmp_path: Path, relief: dict[str, Any]) -> None:
    relief["units"][1]["id"] = relief["units"][0]["id"]  # duplicate id "8"
    relief["units"][2]["move"] = "fast"  # schema error
    relief["reinforcements"][0]["units"].append("999")  # unknown unit id
    listed = {h for hexes in relief["map"]["terrain"].values() for h in hexes}
    clear = next(f"{c:02d}{r:02d}" for c in range(1, 30) for r in range(1, 32)
                 if f"{c:02d}{r:02d}" not in listed)
    relief["map"]["terrain"]["swamp"] = [clear]  # unknown terrain kind
    relief["map"]["terrain"]["woods"].append("3040")  # off the map
    relief["map"]["routes"][0]["hexes"].insert(1, "2020")  # non-adjacent hexes
    relief["reinforcements"][1]["entry"][0]["from_hex"] = "3301"  # off the map
    relief["special"]["victory"]["to_hexes"] = ["1119", "4444"]  # off the map
    res = run("scenario", "check", _write(tmp_path, relief))
    assert res.exit_code == 2
    lines = res.stdout.splitlines()
    out = "\n".join(lines)
    assert "mine.json: units.2.move: expected an integer" in out
    assert "mine.json: units: duplicate unit id '8' (2 units)" in out
    assert "mine.json: reinforcements.0.units.13: unknown unit id '999'" in out
    assert "mine.json: reinforcements.0.units.1: unknown unit id '35'" in out  # renamed above
    assert "map.terrain.swamp: unknown terrain kind 'swamp'" in out
    assert "map.terrain.woods." in out and "hex 3040 is off the map" in out
    assert "map.routes.0.hexes.1: 1416 and 2020 are not adjacent" in out
    assert "map.routes.0.hexes.2: 2020 and 1415 are not adjacent" in out
    assert "reinforcements.1.entry.0.from_hex: hex 3301 is off the map" in out
    # No problem hides another; special data is checked only once the schema holds.
    assert len(lines) == 9, out
    assert res.stderr.strip().startswith("9 problem(s) in ")


def test_check_prints_each_problem_on_one_cut_line_without_control_characters(
        tmp_path: Path, relief: dict[str, Any]) -> None:
    from pbem.errors import MAX_ERROR_LINE

    relief["units"][0]["x" * 5000 + "\x1b[2J\n"] = 1  # an unknown field named at length
    res = run("scenario", "check", _write(tmp_path, relief))
    assert res.exit_code == 2
    lines = res.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mine.json: units.0.xxx"), lines
    assert len(lines[0]) <= MAX_ERROR_LINE and "\x1b" not in lines[0] and "more characters" in lines[0]


def test_check_special_data_when_schema_holds(tmp_path: Path, relief: dict[str, Any]) -> None:
    relief["special"]["victory"]["to_hexes"] = ["1119", "4444"]
    relief["special"]["exclusion"]["side"] = "FR"
    res = run("scenario", "check", _write(tmp_path, relief))
    assert res.exit_code == 2
    assert res.stdout.splitlines() == [
        "mine.json: special.victory.to_hexes: hex 4444 is off the map",
        "mine.json: special.exclusion.side: unknown side 'FR'",
    ]


def test_check_unit_listed_twice_and_never(tmp_path: Path, relief: dict[str, Any]) -> None:
    relief["reinforcements"][1]["units"].append("8")  # "8" already arrives on Game-Turn 9
    relief["reinforcements"][2]["units"] = []  # "6" never arrives
    relief["reinforcements"][3]["turn"] = 30
    res = run("scenario", "check", _write(tmp_path, relief))
    assert res.exit_code == 2
    assert res.stdout.splitlines() == [
        "mine.json: reinforcements.1.units.2: 8 is already listed in reinforcements.0",
        "mine.json: reinforcements.3.turn: Game-Turn 30 is outside the game (9-17)",
        "mine.json: units: 6 is neither deployed nor scheduled as a reinforcement",
    ]


def test_check_area_distance_from_an_unknown_edge(tmp_path: Path, relief: dict[str, Any]) -> None:
    """An area's ``min_from_edge`` names compass edges; another name is a one-line refusal (it
    used to end in a traceback when the area was looked at)."""
    relief["deployments"][0]["area"][0]["min_from_edge"] = {"up": 1}
    res = run("scenario", "check", _write(tmp_path, relief))
    assert res.exit_code == 2
    (line,) = res.stdout.splitlines()
    assert line.startswith("mine.json: deployments.0.area.0.min_from_edge.up.[key]: must be one of ")
    assert "'west', 'east', 'north', 'south'" in line


def test_check_empty_area_and_missing_map_file(tmp_path: Path, relief: dict[str, Any]) -> None:
    relief["deployments"][0]["area"] = [{"within": 1, "of": ["0101"], "beyond": 3}]
    res = run("scenario", "check", _write(tmp_path, relief))
    assert res.exit_code == 2
    assert res.stdout.splitlines() == ["mine.json: deployments.0.area: no hex of the map is in this area"]
    relief["map"] = "no-such-map.json"
    res = run("scenario", "check", _write(tmp_path, relief))
    assert res.exit_code == 2
    assert res.stdout.splitlines()[0] == (
        "mine.json: map: file 'no-such-map.json' not found next to the scenario nor bundled")


def test_check_unreadable_json_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"id": "x", "id": "y"}', encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["scenario", "check", str(path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pbem: ") and "duplicate" in err[0]


def test_new_refuses_exactly_what_check_reports(tmp_path: Path, relief: dict[str, Any]) -> None:
    """One copy of the scenario checks: ``pbem new`` names the same problems as ``scenario check``
    (before, a deployment area with no hex passed ``pbem new`` and failed ``scenario check``)."""
    import os

    relief["deployments"][0]["area"] = [{"within": 1, "of": ["0101"], "beyond": 3}]
    relief["units"][2]["move"] = "fast"
    path = _write(tmp_path, relief)
    checked = run("scenario", "check", path)
    assert checked.exit_code == 2
    reported = [line.split(": ", 1)[1] for line in checked.stdout.splitlines()]
    home = tmp_path / "home"
    os.environ["PBEM_HOME"], os.environ["PBEM_PASSPHRASE"] = str(home), ""
    try:
        assert run("key", "new", "alice").exit_code == 0
        res = CliRunner().invoke(cli, ["new", path, str(tmp_path / "g"), "--player", "DE=alice",
                                       "--player", "US=alice"], standalone_mode=False)
    finally:
        del os.environ["PBEM_HOME"], os.environ["PBEM_PASSPHRASE"]
    assert res.exception is not None
    text = str(res.exception)
    assert text.startswith("invalid scenario:")
    assert text.splitlines()[1:] == reported
    assert not (tmp_path / "g").exists()


def test_scenario_copy_gives_a_file_of_your_own_and_never_overwrites(tmp_path: Path) -> None:
    from helpers.protocol import pbem

    home = tmp_path / "home"
    mine = tmp_path / "mine.json"
    res = pbem("scenario", "copy", "megagame-arnhem", mine, home=home)
    assert res.code == 0 and "pbem scenario check" in res.err
    data = json.loads(mine.read_text(encoding="utf-8"))
    assert data == json.loads((ROOT / "pbem" / "scenario_data" / "megagame-arnhem.json").read_text())
    data["units"][0]["hex"] = "3307"  # edited: still a sound scenario, its map found among pbem's data
    mine.write_text(json.dumps(data), encoding="utf-8")
    assert pbem("scenario", "check", mine, home=home).code == 0
    again = pbem("scenario", "copy", "megagame-arnhem", mine, home=home)
    assert again.code == 2 and "never overwrites" in again.err
    assert json.loads(mine.read_text(encoding="utf-8"))["units"][0]["hex"] == "3307"
    other = pbem("scenario", "copy", mine, tmp_path / "m2.json", home=home)
    assert other.code == 2 and "not a bundled scenario" in other.err and not (tmp_path / "m2.json").exists()


def test_24_scenario_check_refuses_a_scenario_without_a_system(tmp_path: Path) -> None:
    """It was checked as WestWall while pbem new refused it; now both refuse it."""
    import json

    data = json.loads((ROOT / "pbem/scenario_data/bastogne-relief.json")
                      .read_text(encoding="utf-8"))
    del data["system"]
    path = tmp_path / "nosystem.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    res = run("scenario", "check", str(path))
    assert res.exit_code != 0 and "system: missing" in res.output and "westwall" in res.output


def test_an_unknown_scenario_suggests_the_close_ids_in_one_whole_line(tmp_path: Path) -> None:
    """The refusal listed every bundled id and was cut mid-word by the one-line limit (a tester's
    finding, issue 27): it names the close ids and the command that lists them all."""
    from pbem.errors import InputError

    with pytest.raises(InputError) as typo:
        load_data("bastogne-spearhed")
    text = str(typo.value)
    assert "did you mean bastogne-spearhead" in text and "'pbem scenarios' lists the bundled ones" in text
    assert len(text) < 300 and "…" not in text
    with pytest.raises(InputError) as unknown:
        load_data("auction")
    assert "did you mean" not in str(unknown.value)


def test_check_a_value_of_the_wrong_kind_where_the_cross_checks_look(tmp_path: Path, relief: dict[str, Any]) -> None:
    """An object where a unit id is due, a list where a side is due: the checks across fields
    (duplicate ids, sides) read them too; the refusal names the fields, exit 2, no traceback."""
    relief["units"][1]["id"] = {}
    relief["units"][2]["side"] = ["DE"]
    res = run("scenario", "check", _write(tmp_path, relief))
    assert res.exit_code == 2, res.output
    out = res.stdout
    assert "mine.json: units.1.id: expected a string, got an object" in out
    assert "mine.json: units.2.side: " in out
    assert "Traceback" not in res.output
