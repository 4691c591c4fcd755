"""The bundled Bastogne map and scenarios against the exclusive rules' text [15.1-15.37].

The expected orders of battle below are transcribed by hand from the rules (designation and the
text's strength string), independently of the generator that wrote the scenario files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from helpers.paths import ROOT
from helpers.westwall import state_with

from pbem.engine.scenarios import bundled_dir, load_data
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.bastogne import line_of_communication
from pbem.systems.westwall.board import geometry
from pbem.systems.westwall.model import Scenario
from pbem.systems.westwall.movement import area_hexes

H = Hex.parse
REPO = ROOT


@pytest.fixture(scope="module")
def spearhead() -> Scenario:
    return Scenario.parse(load_data("bastogne-spearhead"))


@pytest.fixture(scope="module")
def relief() -> Scenario:
    return Scenario.parse(load_data("bastogne-relief"))


@pytest.fixture(scope="module")
def campaign() -> Scenario:
    return Scenario.parse(load_data("bastogne-campaign"))


def _n(regiments: tuple[int, ...], battalions: int, values: str) -> list[tuple[str, str]]:
    """Battalions 1..n of each regiment, e.g. 1/77 2/77 3/77."""
    return [(f"{b}/{r}", values) for r in regiments for b in range(1, battalions + 1)]


# --- the text's orders of battle, by hand ---------------------------------------------------------
US_1512_ANY = [("52", "4-4-12"), ("2", "4-3-12"), ("811", "5-4-12"), ("73", "1-2-12/2-12"),
               ("58", "1-2-12/2-12")]
US_1512_NEAR = [("20", "4-4-12"), ("3", "4-3-12"), ("90", "1-3-12"), ("420", "1-2-12/2-12")]
US_T2 = _n((501, 502, 506, 327), 3, "2-4-7") + [("101", "1-2-12/2-7")]
US_T3 = [("705", "5-4-12"), ("755", "3-2-18/1-7"), ("969", "3-2-18/1-7")]
DE_T1 = [("1/3", "6-4-12"), ("2/3", "6-4-12"), ("1/304", "5-5-12"), ("2/304", "5-5-12"),
         ("1/902", "5-5-12"), ("2/902", "5-5-12"), ("2", "2-3-14")]
DE_T2 = [("1/2", "5-5-12"), ("1/903", "4-4-12"), ("2/903", "4-4-12"), ("2/2", "4-4-7"),
         ("Lehr", "2-3-14")] + _n((77, 78), 3, "3-3-7") + [("2", "3-2-18/1-12"),
                                                              ("2", "4-2-12/2-12")]
DE_T4 = [("1/901", "5-5-12"), ("2/901", "5-5-12")] + _n((39,), 3, "3-3-7") + [
    ("26", "1-3-12"), ("26", "3-2-18/1-7"), ("26", "4-2-12/1-7"), ("Lehr", "3-2-18/2-12"),
    ("Lehr", "4-2-12/2-12")]
DE_T7 = _n((13, 14), 2, "3-3-7") + _n((15,), 2, "3-3-12") + [
    ("5", "3-2-18/1-7"), ("5", "4-2-12/1-7")]
US_T9 = [("8", "4-3-12"), ("35", "4-3-12"), ("37", "5-3-12"), ("10", "5-5-12"), ("51", "5-5-12"),
         ("53", "5-5-12"), ("25", "1-3-12"), ("704", "5-4-12"), ("22", "1-2-12/2-12"),
         ("94", "1-2-12/2-12"), ("253", "1-2-12/2-12"), ("177", "3-2-18/1-7"),
         ("776", "3-2-18/1-7")]
US_T14 = [("1/318", "2-3-7"), ("2/318", "2-3-7")]
US_T16 = [("6", "1-3-12")]
US_T18 = _n((134, 137, 320), 3, "2-3-7") + [("19", "4-3-12"), ("60", "5-5-12")]
DE_T10 = [("11", "3-2-12")]
DE_T12 = _n((115,), 3, "4-4-12")
DE_T16 = _n((104,), 3, "4-4-12") + [("15", "4-2-12/1-7"), ("15", "3-2-18/1-7")]

ALL_ROWS = range(1, 32)
WEST = {f"01{r:02d}" for r in ALL_ROWS}
SOUTH = {f"{c:02d}31" for c in range(1, 30)}
EAST = {f"29{r:02d}" for r in ALL_ROWS}


def east(a: int, b: int) -> set[str]:
    return {f"29{r:02d}" for r in range(a, b + 1)}


def _groups(sc: Scenario) -> dict[tuple[str, int | str], list[tuple[str, str]]]:
    out: dict[tuple[str, int | str], list[tuple[str, str]]] = {}
    for i, d in enumerate(sc.deployments):
        out[(d.side, f"deploy{i}")] = [(sc.unit[u].designation, sc.unit[u].values()) for u in d.units]
    for r in sc.reinforcements:
        out[(r.side, r.turn)] = [(sc.unit[u].designation, sc.unit[u].values()) for u in r.units]
    return out


def _entries(sc: Scenario) -> dict[tuple[str, int], set[str]]:
    return {(r.side, r.turn): {str(h) for h in area_hexes(sc, r.entry)} for r in sc.reinforcements}


def _listed_once(sc: Scenario) -> None:
    listed = [u for d in sc.deployments for u in d.units] + [
        u for r in sc.reinforcements for u in r.units]
    assert Counter(listed) == Counter(u.id for u in sc.units), "every unit listed exactly once"
    for d in sc.deployments:
        assert {sc.unit[u].side for u in d.units} == {d.side}
    for r in sc.reinforcements:
        assert {sc.unit[u].side for u in r.units} == {r.side}


# --- Spearhead [15.1] -----------------------------------------------------------------------------


def test_spearhead_orders_of_battle_match_15_12_to_15_15(spearhead: Scenario) -> None:
    g = _groups(spearhead)
    assert set(g) == {("US", "deploy0"), ("US", "deploy1"), ("US", 2), ("US", 3), ("DE", 1),
                      ("DE", 2), ("DE", 4), ("DE", 7)}
    assert Counter(g[("US", "deploy0")]) == Counter(US_1512_ANY)
    assert Counter(g[("US", "deploy1")]) == Counter(US_1512_NEAR)
    assert Counter(g[("US", 2)]) == Counter(US_T2) and len(US_T2) == 13
    assert Counter(g[("US", 3)]) == Counter(US_T3)
    assert Counter(g[("DE", 1)]) == Counter(DE_T1)
    assert Counter(g[("DE", 2)]) == Counter(DE_T2) and len(DE_T2) == 13
    assert Counter(g[("DE", 4)]) == Counter(DE_T4)
    assert Counter(g[("DE", 7)]) == Counter(DE_T7)
    assert len(spearhead.units) == 25 + 38
    _listed_once(spearhead)


def test_spearhead_length_first_player_and_areas(spearhead: Scenario) -> None:
    assert (spearhead.first_player, spearhead.first_turn, spearhead.last_turn) == ("DE", 1, 7)
    anywhere, near = (set(map(str, area_hexes(spearhead, d.area))) for d in spearhead.deployments)
    # [15.12] any hex but hexrows 2800 and 2900: 27 columns of 31 hexes.
    assert len(anywhere) == 27 * 31 and not any(h[:2] in ("28", "29") for h in anywhere)
    # Within two hexes of 1317 or 1416: two radius-2 hexagons (19 each) overlapping in 14.
    assert len(near) == 24 and {"1317", "1416", "1315", "1319", "1615"} <= near and "1614" not in near
    assert "1320" not in near  # three hexes below 1317
    e = _entries(spearhead)
    assert e[("DE", 1)] == {"2913"}
    assert e[("DE", 2)] == east(8, 15)
    assert e[("DE", 4)] == east(8, 21)
    assert e[("DE", 7)] == east(18, 31)
    assert e[("US", 2)] == WEST
    assert e[("US", 3)] == WEST | SOUTH
    assert [(x.side, x.edges) for x in spearhead.exits] == [("DE", ["west"])]
    assert spearhead.artillery_limit and not spearhead.ground_support


def test_types_for_5_24_are_reconstructed_from_the_historical_units(campaign: Scenario) -> None:
    u = campaign.unit
    assert u["811"].type == "armor" and u["705"].type == "armor" and u["704"].type == "armor"
    assert u["73"].type == u["58"].type == u["420"].type == "sp-artillery"
    assert u["101"].type == "artillery" and u["755"].type == "artillery"
    assert u["1/3"].type == u["2/3"].type == "armor"
    assert {u[x].type for x in ("1/304", "2/304", "1/902", "2/902", "1/901", "1/903")} == {"mech"}
    assert u["1/77"].type == "infantry" and u["1/39"].type == "infantry"
    assert u["1/13"].type == "airborne" and u["1/501"].type == "airborne"
    assert u["Lehr-hvy"].type == u["Lehr-art"].type == "sp-artillery"  # [15.17]
    assert u["2-rcn"].type == u["Lehr-rcn"].type == "recon"
    assert all(x.note for x in campaign.units)
    assert all("reconstructed" in x.note or "[15.17]" in x.note or "[13.0]" in x.note
               for x in campaign.units)


# --- Relief [15.2] --------------------------------------------------------------------------------


def test_relief_orders_of_battle_match_15_22_to_15_25(relief: Scenario) -> None:
    g = _groups(relief)
    assert set(g) == {("DE", "deploy0"), ("US", 9), ("US", 14), ("US", 16), ("DE", 10),
                      ("DE", 12), ("DE", 16)}
    assert Counter(g[("DE", "deploy0")]) == Counter(DE_T7)
    assert Counter(g[("US", 9)]) == Counter(US_T9) and len(US_T9) == 13
    assert Counter(g[("US", 14)]) == Counter(US_T14)
    assert Counter(g[("US", 16)]) == Counter(US_T16)
    assert Counter(g[("DE", 10)]) == Counter(DE_T10)
    assert Counter(g[("DE", 12)]) == Counter(DE_T12)
    assert Counter(g[("DE", 16)]) == Counter(DE_T16)
    _listed_once(relief)
    assert (relief.first_player, relief.first_turn, relief.last_turn) == ("US", 9, 17)
    assert [(s.side, s.from_turn, s.points) for s in relief.ground_support] == [("US", 10, 5)]
    assert not relief.exits


def test_relief_areas_match_15_23_to_15_25(relief: Scenario) -> None:
    deploy = {str(h) for h in area_hexes(relief, relief.deployments[0].area)}
    assert "0928" in deploy and "0929" not in deploy  # more than two hexes from row 31
    assert "1321" not in deploy and "1322" in deploy  # 1321 is four below 1317; 1322 five (six from 1416)
    for h in map(H, deploy):
        assert h.row <= 28 and h.distance(H("1317")) > 4 and h.distance(H("1416")) > 4
    e = _entries(relief)
    assert e[("US", 9)] == e[("US", 14)] == e[("US", 16)] == SOUTH
    assert e[("DE", 10)] == EAST
    assert e[("DE", 12)] == east(1, 18)
    assert e[("DE", 16)] == east(1, 15) | {f"{c:02d}01" for c in range(20, 30)}


# --- Campaign [15.3] ------------------------------------------------------------------------------


def test_campaign_joins_both_scenarios_plus_turn_18(campaign: Scenario) -> None:
    g = _groups(campaign)
    assert Counter(g[("US", "deploy0")]) == Counter(US_1512_ANY)
    assert Counter(g[("US", "deploy1")]) == Counter(US_1512_NEAR)
    expected = {("US", 2): US_T2, ("US", 3): US_T3, ("US", 9): US_T9, ("US", 14): US_T14,
                ("US", 16): US_T16, ("US", 18): US_T18, ("DE", 1): DE_T1, ("DE", 2): DE_T2,
                ("DE", 4): DE_T4, ("DE", 7): DE_T7, ("DE", 10): DE_T10, ("DE", 12): DE_T12,
                ("DE", 16): DE_T16}
    assert set(g) == set(expected) | {("US", "deploy0"), ("US", "deploy1")}
    for k, v in expected.items():
        assert Counter(g[k]) == Counter(v), k
    assert len(US_T18) == 11
    _listed_once(campaign)
    assert (campaign.first_player, campaign.first_turn, campaign.last_turn) == ("DE", 1, 18)
    assert [(s.side, s.from_turn, s.points) for s in campaign.ground_support] == [("US", 10, 5)]
    victory = campaign.special["victory"]
    assert isinstance(victory, dict) and victory["exit_by_turn"] == 8


def test_ids_are_cli_friendly_and_designation_based(campaign: Scenario) -> None:
    for u in campaign.units:
        assert u.id == u.designation or u.id.startswith(u.designation + "-")
        assert " " not in u.id
    # Plain designation exactly where it is unique within its side.
    per_side = Counter((u.side, u.designation) for u in campaign.units)
    for u in campaign.units:
        assert (u.id == u.designation) == (per_side[(u.side, u.designation)] == 1)


# --- map --------------------------------------------------------------------------------------------


def test_map_hexes_named_by_the_rules(spearhead: Scenario) -> None:
    m = spearhead.map
    assert (m.cols, m.rows) == ((1, 29), (1, 31))
    assert m.terrain_of(H("1317")) == m.terrain_of(H("1416")) == "town"
    assert "reconstructed" in m.reconstructed.lower() or "not in our sources" in m.reconstructed
    off = m.off_map_routes
    for h in ("2913", "2001", "0431", "1231"):
        assert off.get(H(h)) == frozenset({"road"}), h
    roads = m.route_hexes["road"]
    assert {H("1119"), H("1419")} <= roads
    names = {p.name: H(p.hex) for p in m.places}
    for village in ("Noville", "Foy", "Recogne", "Longvilly", "Mageret", "Neffe", "Wardin",
                    "Marvie", "Bras", "Villers-la-Bonne-Eau", "Assenois", "Sibret", "Villeroux",
                    "Senonchamps", "Champs", "Hemroulle", "Flamierge", "Mande-Saint-Étienne",
                    "Longchamps", "Bourcy", "Tillet", "Chaumont", "Hompré", "Clochimont",
                    "Lutrebois", "Moinet"):
        assert m.terrain_of(names[village]) == "town", village
        assert names[village] in roads, village
    # Rough real distances at 850 m a hex.
    bastogne = H("1416")
    assert 7 <= names["Noville"].distance(bastogne) <= 10  # ~7 km
    assert 9 <= names["Longvilly"].distance(bastogne) <= 12  # ~9 km
    assert 4 <= names["Assenois"].distance(H("1317")) <= 7  # ~5 km
    assert 6 <= names["Sibret"].distance(H("1317")) <= 9  # ~7 km


def test_bridges_are_exactly_where_roads_cross_water(spearhead: Scenario) -> None:
    m = spearhead.map
    water = {k for k, f in m.hexside_features.items() if f & {"stream", "river"}}
    route = {k for k, f in m.hexside_features.items() if f & {"road", "trail"}}
    bridges = {k for k, f in m.hexside_features.items() if "bridge" in f}
    assert bridges and bridges == water & route


def test_relief_loc_road_path_exists_on_the_empty_map_15_27(relief: Scenario) -> None:
    st = state_with(relief, {}, phasing="US", game_turn=9)
    geo = geometry(relief)
    for start, goal in (("0431", "1119"), ("1231", "1419"), ("0431", "1419"), ("1231", "1119")):
        path = line_of_communication(relief, st, side="US", from_hexes=[start], to_hexes=[goal])
        assert path is not None and path[0] == start and path[-1] == goal
        for a, b in zip(path, path[1:], strict=False):
            assert geo.crossing(H(a), H(b)).route == "road"


def test_relief_loc_blocked_by_german_units_and_zoc_15_27(relief: Scenario) -> None:
    # 1219 touches 1119, 1319 touches 1419: their zones of control close both LOC end hexes.
    st = state_with(relief, {"1/13": "1219"}, phasing="US", game_turn=10)
    path = line_of_communication(relief, st)
    assert path is not None and path[-1] == "1419"
    st = state_with(relief, {"1/13": "1219", "2/13": "1319"}, phasing="US", game_turn=10)
    assert line_of_communication(relief, st) is None
    # American units in the same hexes block nothing.
    st = state_with(relief, {"8": "1219", "35": "1319"}, phasing="US", game_turn=10)
    assert line_of_communication(relief, st) is not None


def test_generated_files_are_up_to_date(tmp_path: Path) -> None:
    """The checked-in JSON is what the generators write (so the description stays the source)."""
    out = subprocess.run([sys.executable, str(REPO / "scenarios/tools/gen_bastogne_map.py")],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == json.loads((bundled_dir() / "bastogne-map.json").read_text("utf-8"))
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "gen_bastogne_scenarios", REPO / "scenarios/tools/gen_bastogne_scenarios.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for data in (mod.SPEARHEAD, mod.RELIEF, mod.CAMPAIGN):
        on_disk = json.loads((bundled_dir() / f"{data['id']}.json").read_text("utf-8"))
        assert on_disk == json.loads(json.dumps(data)), data["id"]
