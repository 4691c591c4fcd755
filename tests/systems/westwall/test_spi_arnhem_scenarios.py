"""The bundled Arnhem scenarios against the exclusive rules' text [18.11-18.13].

The expected orders of battle below are transcribed by hand from the rules (designation, the text's
strength string and hex), independently of the generator that writes the scenario files. What the
scan lost (XXX Corps, the German reinforcements, the length, 18.2) is reconstructed by the generator;
here it is only required to say so.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from types import ModuleType
from typing import Any

import pytest
from helpers.paths import ROOT

from pbem.engine.scenarios import bundled_dir

REPO = ROOT
IDS = ("arnhem-historical", "arnhem-historical-weather", "arnhem-alternate")
MAP = bundled_dir() / "arnhem-map.json"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_arnhem_scenarios", REPO / "scenarios/tools/gen_arnhem_scenarios.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GEN = _generator()
BY_ID: dict[str, dict[str, Any]] = {d["id"]: d for d in GEN.SCENARIOS}


@pytest.fixture(params=IDS)
def sc(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Each scenario as written on disk."""
    return json.loads((bundled_dir() / f"{request.param}.json").read_text("utf-8"))


def _values(u: dict[str, Any]) -> str:
    if u["type"] in ("artillery", "sp-artillery", "airborne-artillery"):
        return f"{u['barrage']}-{u['fpf']}-{u['range']}/{u['defense']}-{u['move']}"
    return f"{u['attack']}-{u['defense']}-{u['move']}"


def _units(sc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["id"]: u for u in sc["units"]}


def _drops(sc: dict[str, Any]) -> dict[tuple[int, str], set[tuple[str, str]]]:
    """(turn, hex) -> {(designation, values)} of the airborne groups (within one hex of hex)."""
    units = _units(sc)
    out: dict[tuple[int, str], set[tuple[str, str]]] = {}
    for r in sc["reinforcements"]:
        if not r.get("airborne"):
            continue
        assert r["side"] == "AL" and r["rule"] == "18.13"
        assert len(r["entry"]) == 1 and r["entry"][0]["within"] == 1
        (h,) = r["entry"][0]["of"]
        out.setdefault((r["turn"], h), set()).update(
            (units[u]["designation"], _values(units[u])) for u in r["units"])
    return out


def _deployed(sc: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """German unit designation -> (values, the one hex it must be set up in)."""
    units = _units(sc)
    out = {}
    for d in sc["deployments"]:
        assert d["side"] == "DE" and d["rule"] == "18.12"
        (uid,) = d["units"]
        (area,) = d["area"]
        (h,) = area["hexes"]
        out[units[uid]["designation"]] = (_values(units[uid]), h)
    return out


def _has(sc: dict[str, Any], turn: int, h: str, values: str, *designations: str) -> None:
    got = _drops(sc).get((turn, h), set())
    for d in designations:
        assert (d, values) in got, f"{d} ({values}) within one hex of {h} on Game-Turn {turn}"


# --- the text, case by case -----------------------------------------------------------------------


def test_18_11_drop_zone_counters(sc: dict[str, Any]) -> None:
    sp = sc["special"]
    if sc["id"] == "arnhem-alternate":
        assert sp["drop_zones"] == {} and sp["dz_free"] is True  # [15.35, 15.37]
    else:
        assert sp["drop_zones"] == {"101": "1007", "82": "2323", "1": "3919"}
        assert sp["dz_free"] is False


def test_18_12_german_3_3_7(sc: dict[str, Any]) -> None:
    assert _deployed(sc)["Krft"] == ("3-3-7", "3722")


def test_18_12_german_4_4_7(sc: dict[str, Any]) -> None:
    assert _deployed(sc)["2/9S"] == ("4-4-7", "3724")


def test_18_12_german_2_2_12(sc: dict[str, Any]) -> None:
    d = _deployed(sc)
    assert d["9S"] == ("2-2-12", "3322")  # printed "95"
    assert d["Grsn"] == ("2-2-12", "0702")


def test_18_12_german_2_2_7(sc: dict[str, Any]) -> None:
    d = _deployed(sc)
    assert d["1/406"] == ("2-2-7", "2325")
    assert d["2/406"] == ("2-2-7", "2025")
    assert d["BrDf"] == ("2-2-7", "2621")


def test_18_12_nothing_else_starts_on_the_map(sc: dict[str, Any]) -> None:
    assert set(_deployed(sc)) == {"Krft", "2/9S", "9S", "Grsn", "1/406", "2/406", "BrDf"}


def test_18_13_turn_one_2_2_7(sc: dict[str, Any]) -> None:
    _has(sc, 1, "1004", "2-2-7", "1/502", "2/502", "3/502")
    _has(sc, 1, "0804", "2-2-7", "1/506", "2/506", "3/506")
    _has(sc, 1, "1308", "2-2-7", "1/501", "2/501", "3/501")
    _has(sc, 1, "2023", "2-2-7", "2/505", "3/505")
    _has(sc, 1, "2117", "2-2-7", "1/504", "2/504", "3/504")
    _has(sc, 1, "3719", "2-2-7", "1/1", "2/1", "3/1")
    _has(sc, 1, "3718", "2-2-7", "2S/1", "7K/1", "1B/1")


def test_18_13_turn_one_2_1_4_1_7(sc: dict[str, Any]) -> None:
    _has(sc, 1, "2223", "2-1-4/1-7", "1/82")
    _has(sc, 1, "3718", "2-1-4/1-7", "1/1Lt")


def test_18_13_turn_two_2_2_7(sc: dict[str, Any]) -> None:
    _has(sc, 2, "3817", "2-2-7", "10/4", "11/4", "156/4")


def test_18_13_turn_two_2_1_4_1_7(sc: dict[str, Any]) -> None:
    _has(sc, 2, "3817", "2-1-4/1-7", "2/1Lt")


def test_18_13_turn_three_2_3_7(sc: dict[str, Any]) -> None:
    _has(sc, 3, "1007", "2-3-7", "1/327", "2/327")


def test_18_13_turn_three_2_1_4_1_7(sc: dict[str, Any]) -> None:
    _has(sc, 3, "1007", "2-1-4/1-7", "1/101", "2/101")
    _has(sc, 3, "2223", "2-1-4/1-7", "2/82")


def test_18_13_turn_five_2_2_7(sc: dict[str, Any]) -> None:
    _has(sc, 5, "3220", "2-2-7", "1/Pol", "2/Pol")


def test_18_13_turn_seven_2_3_7(sc: dict[str, Any]) -> None:
    _has(sc, 7, "2223", "2-3-7", "1/325", "2/325")  # printed "2/235"


def test_18_13_turn_seven_2_2_7(sc: dict[str, Any]) -> None:
    _has(sc, 7, "2118", "2-2-7", "3/Pol")


def test_18_13_cut_off_tail_reconstructed_as_turn_one(sc: dict[str, Any]) -> None:
    """'1/508, 2/508, 3/508 (2223); 1/505, ...': the 508th and the 505th dropped on 17 September."""
    _has(sc, 1, "2223", "2-2-7", "1/508", "2/508", "3/508")
    _has(sc, 1, "2023", "2-2-7", "1/505")
    units = _units(sc)
    for uid in ("1/508", "2/508", "3/508", "1/505"):
        assert "reconstructed" in units[uid]["note"]


def test_18_13_all_airborne_groups() -> None:
    """Nothing lands that the text (or its cut-off tail) does not name."""
    drops = _drops(BY_ID["arnhem-historical"])
    assert sum(len(v) for v in drops.values()) == 40
    assert {t for t, _ in drops} == {1, 2, 3, 5, 7}


# --- types, formations, ids -----------------------------------------------------------------------

AIRBORNE_TYPES = {
    "airborne": {"1/502", "2/502", "3/502", "1/506", "2/506", "3/506", "1/501", "2/501", "3/501",
                 "1/505", "2/505", "3/505", "1/504", "2/504", "3/504", "1/508", "2/508", "3/508",
                 "1/1", "2/1", "3/1", "10/4", "11/4", "156/4", "1/Pol", "2/Pol", "3/Pol"},
    "glider": {"2S/1", "7K/1", "1B/1", "1/327", "2/327", "1/325", "2/325"},
    "airborne-artillery": {"1/82", "2/82", "1/101", "2/101", "1/1Lt", "2/1Lt"},
}


def test_airborne_types_and_divisions(sc: dict[str, Any]) -> None:
    units = _units(sc)
    for utype, uids in AIRBORNE_TYPES.items():
        for uid in uids:
            assert units[uid]["type"] == utype, uid
    airborne = set().union(*AIRBORNE_TYPES.values())
    assert {u["id"] for u in sc["units"] if u["type"] in AIRBORNE_TYPES} == airborne
    for uid in airborne:
        regiment = uid.split("/")[1]
        want = {"501": "101", "502": "101", "506": "101", "327": "101", "101": "101",
                "504": "82", "505": "82", "508": "82", "325": "82", "82": "82",
                "Pol": "Pol"}.get(regiment, "1")
        assert units[uid]["formation"] == want, uid


def test_every_unit_not_in_the_text_is_marked_reconstructed(sc: dict[str, Any]) -> None:
    printed = set().union(*AIRBORNE_TYPES.values()) - {"1/508", "2/508", "3/508", "1/505"}
    printed |= {"Krft", "2/9S", "9S", "Grsn", "1/406", "2/406", "BrDf"}
    for u in sc["units"]:
        if u["id"] not in printed:
            assert "reconstructed" in u["note"], u["id"]
        else:
            assert "18.1" in u["note"], u["id"]  # cites the case it comes from


def test_ids_unique_and_every_unit_listed_once(sc: dict[str, Any]) -> None:
    ids = [u["id"] for u in sc["units"]]
    assert len(ids) == len(set(ids))
    listed = [u for d in sc["deployments"] for u in d["units"]] + [
        u for r in sc["reinforcements"] for u in r["units"]]
    assert Counter(listed) == Counter(ids)
    side = {u["id"]: u["side"] for u in sc["units"]}
    for group in sc["deployments"] + sc["reinforcements"]:
        assert {side[u] for u in group["units"]} == {group["side"]}


def test_xxx_corps_enters_at_hells_highway(sc: dict[str, Any]) -> None:
    units = _units(sc)
    ground = [r for r in sc["reinforcements"] if r["side"] == "AL" and not r.get("airborne")]
    assert ground and min(r["turn"] for r in ground) == 1  # no Allied unit starts on the map
    for r in ground:
        assert [a["hexes"] for a in r["entry"]] == [["0105", "0106"]]
    xxx = [units[u] for r in ground for u in r["units"]]
    assert not any(u["type"] in AIRBORNE_TYPES for u in xxx)
    engineers = [u for u in sc["units"] if u["type"] == "engineer"]
    assert [u["id"] for u in engineers] == ["Eng"] and engineers[0]["side"] == "AL"
    assert sc["special"]["engineer"] == "Eng"
    assert sc["special"]["engineer_reentry"] == ["0105", "0106"]  # [13.3]


def test_german_reinforcements_come_in_over_map_edges(sc: dict[str, Any]) -> None:
    groups = [r for r in sc["reinforcements"] if r["side"] == "DE"]
    assert groups
    for r in groups:
        assert not r.get("airborne")  # [15.3] only the Allies drop
        for a in r["entry"]:
            assert a["edge"] in ("west", "east", "north") and "reconstructed" in a["text"]
            if a["edge"] == "west" and a.get("to_hex"):
                assert (a["from_hex"], a["to_hex"]) == ("0601", "2301")  # [15.41]
            if a["edge"] == "east" and a.get("to_hex"):
                assert (a["from_hex"], a["to_hex"]) == ("0126", "2726")  # [15.41]
    artillery = [u for u in sc["units"] if u["side"] == "DE" and u["type"] == "artillery"]
    assert 2 <= len(artillery) <= 5


# --- scenario parameters --------------------------------------------------------------------------


def test_length_sides_and_rules(sc: dict[str, Any]) -> None:
    assert sc["game"] == "arnhem" and sc["system"] == "westwall"
    assert sc["rule"] == ("18.2" if sc["id"] == "arnhem-alternate" else "18.1")
    assert (sc["first_turn"], sc["last_turn"]) == (1, 9)
    assert [s["id"] for s in sc["sides"]] == ["AL", "DE"]
    assert [s["name"] for s in sc["sides"]] == ["Allied", "German"]
    assert sc["first_player"] == "AL"
    assert sc["map"] == "arnhem-map.json"
    assert sc["terrain_key"] == "arnhem-terrain-key.json"  # City defends on the Town line [11.2]
    assert sc["artillery_limit"] is False  # [14.12] replaces Bastogne's [14.0]
    assert sc["exits"] == [{"side": "DE", "edges": ["west", "east"], "rule": "15.41"}]


def test_special_parameters(sc: dict[str, Any]) -> None:
    sp = sc["special"]
    weather = sc["id"] != "arnhem-historical"
    assert sp["weather"] is weather  # [16.0] optional in 18.1, mandatory in 18.2
    assert sp["airborne_per_weather"] == {"good": 25, "fair": 5, "poor": 0}  # [16.12]
    assert sp["ground_support_per_weather"] == {"good": 7, "fair": 3, "poor": 0}  # [16.2]
    assert sp["loc_hexes"] == ["0105", "0106"]  # [17.31]
    assert sp["waal"] == {"line": "Waal", "south_hex": "2726", "north_hex": "3005", "points": 5}
    assert sp["neder_rijn"] == {"line": "Neder Rijn", "south_hex": "3424", "north_hex": "3706",
                                "points": 10}  # [17.11]
    assert (sp["exit_west"], sp["exit_east"]) == (["0601", "2301"], ["0126", "2726"])  # [15.41]
    assert sp["reenter_east"] == ["0126", "0726"]  # [15.42]
    assert sp["max_artillery_per_combat"] == 2  # [14.12]
    assert sp["support_range"] == 3  # [14.11]
    assert sp["drop_range"] == 7 and sp["landing_mp"] == 3  # [16.11, 15.32]
    assert all(isinstance(n, str) and n for n in sp["notes"])
    if weather:
        assert sc["ground_support"] == []  # the weather decides [16.2]
    else:
        assert sc["ground_support"] == [{"side": "AL", "from_turn": 1, "points": 3, "rule": "16.2"}]


def test_special_is_what_the_arnhem_rules_read(sc: dict[str, Any]) -> None:
    from pbem.systems.westwall.arnhem import ArnhemSpecial

    parsed = ArnhemSpecial.parse(sc["special"])
    assert parsed.to_json() == sc["special"]


# --- generated and loadable -----------------------------------------------------------------------


def test_generated_files_are_up_to_date() -> None:
    """The checked-in JSON is what the generator writes (the table stays the source)."""
    for sid, data in BY_ID.items():
        on_disk = json.loads((bundled_dir() / f"{sid}.json").read_text("utf-8"))
        assert on_disk == json.loads(json.dumps(data)), sid


@pytest.mark.skipif(not MAP.exists(), reason="pbem/scenario_data/arnhem-map.json is not written yet")
@pytest.mark.parametrize("sid", IDS)
def test_scenario_check_passes_and_the_game_starts(sid: str) -> None:
    from pbem.cli.scenarios import check_scenario
    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.scenarios import load_data

    problems, summary = check_scenario(bundled_dir() / f"{sid}.json")
    assert problems == [] and summary.startswith(f"ok: {sid} ")
    rules = get_ruleset("westwall")
    scenario = rules.load_scenario(load_data(sid))
    state = rules.initial_state(scenario, {})
    assert state.phase == "setup" and "DE" in state.setup_pending  # [18.12]
