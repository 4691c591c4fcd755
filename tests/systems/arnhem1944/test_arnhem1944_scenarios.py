"""The Vae Victis Arnhem 1944 scenarios: generated from one table, loaded by the model, and every
unit the text names in 17.1 and 17.2 (and the errata) is there, on the hex or the turn and zone the
text gives; the formations of 1.5 are complete; the data respects stacking by steps [5], the
counter rules of 1.2-1.4 and the weather of 14."""

from __future__ import annotations

import copy
import importlib.util
import json
from typing import Any

import pytest
from helpers.paths import ROOT

from pbem.engine.scenarios import load_data
from pbem.maps.hexmap import Hex, hexside
from pbem.protocol.record import RecordError
from pbem.systems.arnhem1944.model import Counter, Scenario

IDS = ("arnhem1944-historical", "arnhem1944-free-drop")


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gen_arnhem1944_scenarios", ROOT / "scenarios" / "tools" / "gen_arnhem1944_scenarios.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def sc() -> Scenario:
    return Scenario.parse(load_data("arnhem1944-historical"))


@pytest.fixture(scope="module")
def free() -> Scenario:
    return Scenario.parse(load_data("arnhem1944-free-drop"))


def named(sc: Scenario, name: str) -> list[str]:
    """Ids of the counters whose name starts with ``name``."""
    out = [c.id for c in sc.counters if c.name.startswith(name)]
    assert out, name
    return out


def test_the_checked_in_scenarios_are_the_generators_output() -> None:
    gen = _generator()
    for drop, sid in (("historic", IDS[0]), ("free", IDS[1])):
        on_disk = json.loads((ROOT / "pbem" / "scenario_data" / f"{sid}.json").read_text(encoding="utf-8"))
        assert gen.scenario(drop) == on_disk, sid


def test_17_one_set_up_two_drop_choices(sc: Scenario, free: Scenario) -> None:
    assert (sc.options.drop, free.options.drop) == ("historic", "free")
    assert sc.options.weather == free.options.weather == "historical"
    assert (sc.rule, free.rule) == ("17.3", "17.4")
    same = ("counters", "formations", "setup", "reinforcements", "para_drops", "turns", "victory")
    for field in same:  # [17] the placement is the same whatever is chosen
        assert getattr(sc, field) == getattr(free, field), field
    assert "RECONSTRUCTED" in sc.note and "17.4" in free.note


def test_17_1_german_set_up_on_the_hexes_the_text_gives(sc: Scenario) -> None:
    at = {p.unit: p.hex for p in sc.setup}
    expect = {"SS-Pz.Aufkl.Abt. 9": ["1020"], "SS-Panzer-Regiment 9": ["1405"],
              "SS-Pz.Gren.Ausb.Btl. 16": ["0604"], "Kpfgr. Weber": ["0601"],
              "Kpfgr. Henke": ["0922", "1022"]}
    for name, hexes in expect.items():
        ids = named(sc, name)
        assert sorted(at[i] for i in ids) == hexes, name
        assert all(sc.counter[i].side == "DE" for i in ids)
    german_on_map = {p.unit for p in sc.setup if sc.counter[p.unit].side == "DE"}
    assert len(german_on_map) == 6  # Henke is two units [17.1]


def test_17_1_the_1st_airborne_round_0305_without_4p(sc: Scenario) -> None:
    first = [c for c in sc.counters if c.formation == "1AB"]
    placed = {p.unit: p for p in sc.setup}
    para_4p = {u for d in sc.para_drops if d.group.endswith("(4P)") for u in d.units}
    for c in first:
        if c.id in para_4p:
            assert c.id not in placed and c.name.endswith("(4P)"), c.id
        else:  # every other element of the division is on the map [17.1]
            p = placed[c.id]
            assert (p.hex, p.within) == ("0305", 2), c.id
            assert set(p.terrain) <= {"clear", "polder"}, c.id
    clear_only = [u for u, p in placed.items() if p.terrain == ["clear"]]
    names = sorted(sc.counter[u].name for u in clear_only)
    assert len([n for n in names if n.endswith("(1A)")]) == 4  # "the four units of 1A"
    assert any(n.endswith("(GP)") for n in names) and len(names) == 5


def test_17_1_six_units_of_the_82nd_on_1126_and_1127(sc: Scenario) -> None:
    units = [c for c in sc.counters if c.formation == "82AB"]
    assert len(units) == 6
    hexes = sorted(next(p.hex for p in sc.setup if p.unit == c.id) for c in units)
    assert hexes == ["1126"] * 3 + ["1127"] * 3
    assert sc.formation["82AB"].hq is None  # [17] no EM, intentionally
    assert all(p.within == 0 for p in sc.setup if p.unit in {c.id for c in units})


GERMAN_17_2 = [  # (name as the text writes it, turn, zone)
    ("EM 9. SS-Pz.Div.", 1, "D"), ("9. SS-Pz.Jäger-Abt.", 1, "D"),
    ("1/SS-Pz.Gren.Reg. 20", 1, "E"), ("1/SS-Pz.Gren.Reg. 22", 1, "E"),
    ("Kpfgr. Möller", 1, "D"),  # errata
    ("EM Kpfgr. von Tettau", 2, "A"), ("SS-Pz.Gren.Ausb.Btl. 12", 2, "A"),
    ("SS-Gren.Ausb.Btl. 4", 2, "A"), ("Luftw. Kpfgr.", 2, "B"), ("SS-Landstorm Nederland", 2, "B"),
    ("1/SS-Pz.Gren.Reg. 19", 2, "D"), ("2/SS-Pz.Gren.Reg. 19", 2, "D"),
    ("SS-Werfer-Abt. 102", 2, "D"), ("SS-Pz.Aufkl.Abt. 10", 2, "E"), ("1/SS-Pz.Art. 10", 2, "F"),
    ("2/SS-Pz.Art. 10", 2, "F"), ("3/SS-Pz.Art. 10", 2, "G"), ("EM 10. SS-Pz.Div.", 2, "G"),
    ("1/SS-Pz.Reg. 10", 2, "G"), ("2/SS-Pz.Reg. 10", 2, "G"), ("1/SS-Pz.Gren.Reg. 21", 2, "G"),
    ("2/SS-Pz.Gren.Reg. 21", 2, "G"),
    ("Kpfgr. Bruhns", 3, "C"), ("Stu.Gesch.Brigade 280", 3, "D"), ("SS-Flak 102", 3, "D"),
    ("Flak-Kpfgr. von Swoboda", 3, "D"), ("Kpfgr. Knaust", 3, "E"),
    ("Ersatzbataillon Hermann Göring", 5, "A"), ("Kpfgr. Shorket", 5, "D"),
    ("MG-Bataillon 71", 5, "D"),
    ("schwere Pz.Abt. 506", 8, "D"),
]
GERMAN_COUNTS = {"Stu.Gesch.Brigade 280": 2, "Flak-Kpfgr. von Swoboda": 6,
                 "schwere Pz.Abt. 506": 3}


def test_17_2_german_reinforcements_turn_and_zone(sc: Scenario) -> None:
    entry = {r.unit: r for r in sc.reinforcements}
    seen: set[str] = set()
    for name, turn, zone in GERMAN_17_2:
        ids = named(sc, name)
        assert len(ids) == GERMAN_COUNTS.get(name, 1), name
        for i in ids:
            assert (entry[i].turn, entry[i].zone, entry[i].hex) == (turn, zone, None), (name, i)
        seen |= set(ids)
    german_entries = {r.unit for r in sc.reinforcements if sc.counter[r.unit].side == "DE"}
    assert german_entries == seen  # nothing the text does not list
    assert all(f"F{i}" in ids for ids in [named(sc, "Flak-Kpfgr. von Swoboda")]
               for i in range(1, 7))  # "6 units carrying the F designation"


XXX_17_2 = {
    3: ["2nd Household Cavalry", "EM Guards Armoured", "1st Coldstream", "5th Coldstream",
        "1st Welsh", "2nd Welsh", "2nd Irish", "3rd Irish"],
    4: ["1st Grenadier", "2nd Grenadier", "55th Field", "153rd Field", "XXX Corps Royal Engineers",
        "EM 43rd", "43rd Recce", "7th Hampshire", "4th Dorset", "5th Dorset"],
    5: ["5th Duke of Cornwall", "1st Worcestershire", "7th Somerset", "4th Somerset",
        "4th Wiltshire", "5th Wiltshire", "94th Field", "112th Field", "179th Field"],
}


def test_15_3_17_2_xxx_corps_by_hex_0327(sc: Scenario) -> None:
    entry = {r.unit: r for r in sc.reinforcements}
    seen: set[str] = set()
    for turn, names in XXX_17_2.items():
        for name in names:
            (uid,) = named(sc, name)
            assert (entry[uid].turn, entry[uid].hex, entry[uid].zone) == (turn, "0327", None), name
            seen.add(uid)
    assert {r.unit for r in sc.reinforcements if sc.counter[r.unit].side == "AL"} == seen
    # brigades as 17.2 groups them; the errata's designations 2WG/32/G and 4W/129/43
    assert {"2WG/32/G", "4W/129/43"} <= set(sc.counter)
    assert {c.formation for c in sc.counters if c.id in seen} == {"GA", "43"}
    assert sum(1 for u in seen if u.endswith("/130/43")) == 3
    assert sum(1 for u in seen if u.endswith("/214/43")) == 3
    assert sum(1 for u in seen if u.endswith("/129/43")) == 3


def test_17_2_airborne_reinforcements_and_15_2_drop_zones(sc: Scenario) -> None:
    drops = {d.group: d for d in sc.para_drops}
    four = drops["4th Parachute Brigade (4P)"]
    assert (four.turn, four.dz, len(four.units), four.alternative_dz) == (2, "0305", 5, False)
    pol = drops["Polish Brigade"]
    assert (pol.turn, pol.dz, len(pol.units), pol.alternative_dz) == (5, "0709", 5, True)
    assert {sc.counter[u].formation for u in pol.units} == {"Pol"}
    for d in sc.para_drops:  # [15.2] within two hexes, clear or mixed (polder) terrain
        assert d.radius == 2 and d.terrain == ["clear", "polder"]
        assert sc.map.terrain_of(Hex.parse(d.dz)) in d.terrain


def test_1_5_formations_complete(sc: Scenario) -> None:
    german = {f.name for f in sc.formations if f.side == "DE"}
    allied = {f.name for f in sc.formations if f.side == "AL"}
    assert german == {"9th SS-Panzer-Division Hohenstaufen", "10th SS-Panzer-Division Frundsberg",
                      "Kampfgruppe von Tettau"}
    assert allied == {"1st (British) Airborne Division", "82nd (U.S.) Airborne Division",
                      "1st Independent Polish Parachute Brigade", "43rd (Wessex) Infantry Division",
                      "Guards Armoured Division"}
    for f in sc.formations:
        members = [c for c in sc.counters if c.formation == f.id]
        hqs = [c.id for c in members if c.kind == "hq"]
        assert hqs == ([] if f.id == "82AB" else [f.hq]), f.id
    assert len({f.colour for f in sc.formations}) == len(sc.formations)
    count = {f.id: sum(c.formation == f.id for c in sc.counters) for f in sc.formations}
    assert (count["Pol"], count["82AB"]) == (5, 6)  # [17.2] five Polish units, [17.1] six
    # [10.1] where the HQs trace their supply roads
    s = {f.id: f.supply for f in sc.formations}
    assert s["9SS"].edges == s["10SS"].edges == ["north", "east"] and s["Tettau"].edges == ["west"]
    assert s["GA"].hexes == s["43"].hexes == s["82AB"].hexes == ["0327"]
    assert s["1AB"].drop_zones and s["Pol"].drop_zones and s["1AB"].xxx_corps_hq
    assert sc.formation["GA"].corps == sc.formation["43"].corps == "XXX"


def test_5_stacking_by_steps_at_the_start(sc: Scenario) -> None:
    limit = sc.constants.stacking_steps
    assert limit == 6
    assert all(steps <= limit for steps in sc.steps_at_start().values())
    assert sc.steps_at_start()["1126"] == sc.steps_at_start()["1127"] == 6
    # the 1st Airborne fits round its drop zone: its steps against six a hex on the hexes allowed
    dz = Hex.parse("0305")
    placed = [p for p in sc.setup if p.within]
    for terrain in (["clear"], ["clear", "polder"]):
        room = sum(limit for h in sc.map.all_hexes()
                   if h.distance(dz) <= 2 and sc.map.terrain_of(h) in terrain)
        need = sum(sc.counter[p.unit].steps for p in placed if set(p.terrain) <= set(terrain))
        assert 0 < need <= room, terrain
    # a drop group fits on its drop zone's allowed hexes too [15.2]
    for d in sc.para_drops:
        room = sum(limit for h in sc.map.all_hexes() if h.distance(Hex.parse(d.dz)) <= d.radius
                   and sc.map.terrain_of(h) in d.terrain)
        assert sum(sc.counter[u].steps for u in d.units) <= room, d.group


def test_5_12_1_the_engineer_has_no_cf_and_does_not_stack(sc: Scenario) -> None:
    (eng,) = [c for c in sc.counters if c.kind == "engineer"]
    assert eng.cf == 0 and not eng.counts_for_stacking and eng.formation == "GA"
    assert sc.constants.engineer_steps == 3
    assert all(c.counts_for_stacking for c in sc.counters if c.kind != "engineer")


def test_1_2_units_of_more_than_two_steps_have_a_second_counter(sc: Scenario) -> None:
    big = [c for c in sc.counters if c.steps > 2]
    assert {c.id for c in big} == {"Landstorm", "Knaust", "GP"}
    for c in big:
        assert c.reduced is not None and c.reduced.steps == 2 and c.reduced.cf < c.cf, c.id
    assert all(c.reduced is None for c in sc.counters if c.steps <= 2)


def test_1_4_artillery_one_step_armour_1_and_its_exceptions(sc: Scenario) -> None:
    guns = [c for c in sc.counters if c.kind == "artillery"]
    # Werfer 102, 3 of SS-Pz.Art. 10, SS-Flak 102, 6 von Swoboda, the 1st Airborne's light
    # regiment, the Guards' 55th and 153rd, the 43rd's 94th, 112th and 179th [17.2]
    assert len(guns) == 1 + 3 + 1 + 6 + 1 + 2 + 3
    for c in guns:
        assert c.steps == 1 and c.armour == sc.constants.artillery_armour == 1, c.id
        assert c.br > 0 and c.df > 0 and c.range > 0 and c.cf == 0, c.id
    werfer = sc.counter[named(sc, "SS-Werfer-Abt. 102")[0]]
    assert werfer.defence_df == 1 and werfer.df > 1  # [8.3]
    assert {c.id for c in guns if c.supports_all} == {f"F{i}" for i in range(1, 7)}  # [8.4]
    assert all(c.br == c.df == c.range == 0 for c in sc.counters if c.kind != "artillery")


def test_values_are_plausible_and_noted(sc: Scenario) -> None:
    for c in sc.counters:
        assert "RECONSTRUCTED" in c.note, c.id
        assert not (c.armour and c.antitank), c.id
        assert 1 <= c.mp <= 12 and c.cf <= 4 and c.armour <= 4 and c.antitank <= 3, c.id
        if c.kind == "hq":
            assert (c.cf, c.steps) == (1, 1), c.id
        if c.mobility == "leg":
            assert c.mp == 6, c.id
    # Tigers are the strongest armour, armoured cars the weakest
    tiger = sc.counter["506-1"]
    assert tiger.armour == max(c.armour for c in sc.counters)
    assert sc.counter["2HCR"].armour == 1
    # [7.5, errata] morale: SS panzer units and paras 8, artillery and Tettau (not SS) 6, else 7
    assert sc.counter["AA9"].morale == 8 and sc.counter["1/508"].morale == 8
    assert sc.counter["55/G"].morale == 6 and sc.counter["LwKG"].morale == 6
    assert sc.counter["Landstorm"].morale == 7 and sc.counter["5CG/32/G"].morale == 7


def test_14_turn_track_weather_table_and_effects(sc: Scenario) -> None:
    assert (sc.first_turn, sc.last_turn, len(sc.turns)) == (1, 10, 10)
    assert sc.turns[0].date == "1944-09-17" and sc.turns[-1].date == "1944-09-26"
    assert [sc.weather_table[d] for d in range(1, 7)] == [
        "clear", "cloudy", "cloudy", "overcast", "overcast", "same"]
    eff = sc.weather_effects
    assert (eff["clear"].drops, eff["clear"].air_missions) == (True, 3)
    assert (eff["cloudy"].drops, eff["cloudy"].air_missions) == (True, 1)
    assert (eff["overcast"].drops, eff["overcast"].air_missions) == (False, 0)
    # the historical drops of 17.2 fall on turns whose historical weather allows them [14.3, 17.3]
    for d in sc.para_drops:
        assert eff[sc.turns[d.turn - 1].weather].drops, d.group
    assert sc.first_player == sc.constants.first_initiative == "AL"  # [2.1]


def test_16_victory_names_the_arnhem_bridge_hexes(sc: Scenario) -> None:
    v = sc.victory
    (side,) = [ln.hexsides[0] for ln in sc.map.lines if ln.name == v.bridge]
    a, b = (Hex.parse(x) for x in side.split("/"))
    assert hexside(a, b) == hexside(*(Hex.parse(x) for x in v.bridge_hexes))
    assert v.bridgehead_steps == 12 and v.river == "Neder Rijn"
    assert sc.map.place_name(Hex.parse(v.far_bank_hex)) == "Arnhem"


# ----- the model refuses broken data (each check can fail) -----


def _broken(edit: Any) -> str:
    data = copy.deepcopy(load_data("arnhem1944-historical"))
    edit(data)
    with pytest.raises(RecordError) as err:
        Scenario.parse(data)
    return str(err.value)


def _counter(data: dict[str, Any], uid: str) -> dict[str, Any]:
    c: dict[str, Any] = next(c for c in data["counters"] if c["id"] == uid)
    return c


def test_1_2_three_steps_without_a_second_counter_is_refused() -> None:
    assert "[1.2]" in _broken(lambda d: _counter(d, "Landstorm").pop("reduced"))
    assert "[1.2]" in _broken(lambda d: _counter(d, "AA9").update(steps=3))


def test_errata_artillery_without_armour_1_is_refused() -> None:
    assert "errata" in _broken(lambda d: _counter(d, "55/G").update(armour=0))


def test_17_a_unit_placed_twice_or_never_is_refused() -> None:
    msg = _broken(lambda d: d["reinforcements"].append({"unit": "AA9", "turn": 2, "zone": "D"}))
    assert "AA9 is placed more than once" in msg
    msg = _broken(lambda d: d["setup"].pop(0))
    assert "neither set up, a reinforcement nor in a drop" in msg


def test_15_1_an_unknown_entry_zone_or_an_off_map_hex_is_refused() -> None:
    assert "reinforcements.0.zone: must be one of 'A', 'B', 'C', 'D', 'E', 'F', 'G'" in _broken(
        lambda d: d["reinforcements"].__setitem__(0, {"unit": "HQ9", "turn": 1, "zone": "H"}))
    assert "off the map" in _broken(lambda d: d["setup"][0].update(hex="2230"))


def test_1_5_an_hq_of_another_formation_is_refused() -> None:
    assert "[1.5]" in _broken(lambda d: d["formations"][0].update(hq="HQ10"))


def test_a_counter_model_alone() -> None:
    c = Counter(id="x", name="x", side="DE", formation="9SS", kind="combat", arm="infantry",
                mobility="leg", cf=3, antitank=1, steps=2, mp=6, morale=8)
    assert c.is_infantry and c.counts_for_stacking
    with pytest.raises(RecordError, match=r"\[1.1\]"):
        Counter(id="x", name="x", side="DE", formation="9SS", kind="combat", arm="armour",
                mobility="tracked", cf=3, armour=2, antitank=1, steps=2, mp=10, morale=8)
