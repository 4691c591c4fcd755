"""The megagame's data as plain records (issue 28): what it reads from outside -- scenario files,
Game Control's rulings, states from turn files, a team's order sheet -- is refused with the field
at fault named (and the rule's section where the reader cites one), the rules' version 3 keys stay
out of a dump while empty, and a megagame archive verifies without importing pydantic."""

from __future__ import annotations

import copy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import ROOT

from pbem.errors import InputError
from pbem.protocol.record import RecordError
from pbem.systems.megagame.model import (
    MegaScenario,
    MegaState,
    ParkedSupply,
    TeamView,
    UnitFacts,
    UnitType,
)
from pbem.systems.megagame.orders import OrderLine
from pbem.systems.megagame.rules import MegagameRules

R = MegagameRules()

SCENARIO: dict[str, Any] = {
    "id": "tiny", "map": {"id": "m", "cols": [1, 8], "rows": [1, 8], "terrain": {}},
    "teams": [{"id": "AL", "side": "allied", "name": "Allies"}, {"id": "GE", "side": "german", "name": "Germans"}],
    "types": {"inf": {"profile": "6-5-4-3-2-1-0"}},
    "units": [{"id": "a", "name": "a", "team": "AL", "type": "inf", "formation": "A", "hex": "0303"},
              {"id": "d", "name": "d", "team": "GE", "type": "inf", "formation": "D", "hex": "0606"}],
    "turns": 3,
}


def hostile(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(SCENARIO)
    at: Any = data
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    return data


def test_the_sound_scenario_loads() -> None:
    sc = R.load_scenario(SCENARIO)
    assert sc.types["inf"].combat_profile(2).status == 4  # 6-5-4-...: two steps lost, status 4
    assert sc.map.cols == (1, 8) and isinstance(sc.map.cols, tuple)
    assert R.scenario_problems(SCENARIO) == []


@pytest.mark.parametrize(("path", "value", "named"), [
    (("types", "inf", "profile"), "6-5-x-0", "types.inf.profile: 'x' in '6-5-x-0' is not a status level"),
    (("types", "inf", "size"), 51, "types.inf.size: must be 0 <= n <= 50, got 51"),  # unit points [7]
    (("units", 0, "hex"), "303", "units.0.hex: does not match"),
    (("units", 0, "arrives"), 0, "units.0.arrives: must be 1 <= n, got 0"),
    (("teams", 0, "side"), "british", "teams.0.side: must be one of 'allied', 'german'"),
    (("teams", 0, "id"), "AL\n", "teams.0.id: does not match"),
    (("turns",), 41, "turns: must be 1 <= n <= 40, got 41"),  # half-day turns [3]
    (("map", "cols"), [1, 8, 9], "map.cols: expected 2 items, got 3"),
    (("units", 1, "reach"), 10, "units.1.reach: unknown field"),
])
def test_a_hostile_scenario_is_refused_naming_the_field(path: tuple[str | int, ...], value: Any, named: str) -> None:
    with pytest.raises(InputError) as exc:
        R.load_scenario(hostile(path, value))
    message = str(exc.value)
    assert named in message and "\n" not in message
    assert R.scenario_problems(hostile(path, value))[0].startswith(f"megagame scenario: {named}")


def test_a_support_and_defence_profile_at_once_is_no_profile() -> None:
    """"Unit Status": square brackets are support only, round ones defence only; never both."""
    with pytest.raises(RecordError) as exc:
        UnitType(profile="[(2)-(1)-0]")
    assert exc.value.problems == [(("profile",), "'[(2)-(1)-0]' is both support-only and defence-only")]


def test_a_hostile_state_or_sheet_or_ruling_is_refused() -> None:
    sc = R.load_scenario(SCENARIO)
    state = R.dump_state(sc, R.initial_state(sc, {}))
    state["units"]["a"]["steps"] = -1
    with pytest.raises(InputError, match=r"^megagame state: units\.a\.steps: must be 0 <= n, got -1$"):
        R.load_state(sc, state)
    sheet = {"team": "AL", "side": "allied", "turn": 1,
             "lines": [{"units": [], "intention": "hold"}, {"units": ["a"], "intention": "retire"}]}
    with pytest.raises(InputError) as exc:
        R.load_orders(sc, sheet)
    assert str(exc.value) == ("megagame order sheet: lines.0.units: needs at least 1 items, got 0; lines.1.intention: "
                              "must be one of 'breakthrough', 'attack', 'probe', 'hold', 'move', 'prepare' [5]")
    with pytest.raises(InputError, match=r"advantage\.0\.points: must be 1 <= n <= 3, got 4 \[9\]$"):
        R.load_rulings(sc, R.initial_state(sc, {}), {"advantage": [{"at": "0303", "side": "attacker",
                                                                     "points": 4, "why": "high ground"}]})


def test_rules_version_3_keys_stay_out_of_a_dump_while_empty() -> None:
    assert OrderLine(units=["a"], intention="hold").to_json() == {
        "units": ["a"], "intention": "hold", "stand_fast": False, "posture": "tactical", "route": [],
        "objective": "", "timing": "whole", "supply": 0, "air": [], "counter_battery": False, "rail_to": ""}
    assert OrderLine(units=["a"], intention="hold", attach="1 Div").to_json()["attach"] == "1 Div"
    assert "path" not in UnitFacts().to_json() and UnitFacts(path=["0303"]).to_json()["path"] == ["0303"]
    assert ParkedSupply(team="AL", hex="0303", points=2).to_json() == {"team": "AL", "hex": "0303", "points": 2,
                                                                       "left_by": ""}
    st = MegaState(turn=1, units={}, supply={})
    assert not {"tested", "safe", "routed", "attached"} & set(st.to_json())
    assert st.replace(routed=["a"]).to_json()["routed"] == ["a"]
    view = TeamView(turn=1, date="", over=False, team="AL", supply=0, units=[], friends=[], enemy=[], reports=[],
                    blown=[], objectives=[])
    assert not {"stacks", "moves", "fights"} & set(view.to_json())


def test_the_scenario_record_caches_its_unit_index() -> None:
    sc = MegaScenario.parse(SCENARIO)
    assert sc.unit is sc.unit and sorted(sc.unit) == ["a", "d"]


def test_verifying_a_megagame_archive_imports_no_pydantic(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(ROOT / "tests" / "compat" / "megagame", game)
    code = ("import sys; from pbem.cli import main; sys.argv = ['pbem', 'verify', sys.argv[1]]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))")
    done = subprocess.run([sys.executable, "-c", code, str(game)], capture_output=True, text=True, timeout=600,
                          env={"PBEM_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
