"""The Market Garden orders of battle for the megagame [seed 004; RECONSTRUCTED data]: sound
against the 1 km map and the Annex A types, the historical formations and the worked example's
units present, lifts and entries on the right turns, and oob_problems naming bad entries."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers.paths import ROOT

from pbem.maps.hexmap import Hex
from pbem.systems.megagame.oob import (
    OrderOfBattle,
    arrivals,
    combat_unit,
    load_oob,
    oob_problems,
    start_hex,
    supply_dump,
    supply_hq,
    supply_transport,
    teams,
    turn_label,
)
from pbem.systems.megagame.profiles import load_profiles
from pbem.systems.megagame.supply import Stock, hq_in_reach

MAP: dict[str, Any] = json.loads(
    (ROOT / "pbem" / "scenario_data" / "market-garden-1km-map.json").read_text(encoding="utf-8"))
TERRAIN = {h: k for k, hs in MAP["terrain"].items() for h in hs}


def _raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (ROOT / "pbem" / "scenario_data" / "megagame-market-garden-oob.json").read_text(encoding="utf-8"))
    return data


def _on_map(h: str) -> bool:
    x = Hex.parse(h)
    return 1 <= x.col <= 50 and 1 <= x.row <= 81


def test_oob_bundled_has_no_problems() -> None:
    oob = load_oob()
    assert oob_problems(oob) == []
    assert oob.reconstructed.startswith("RECONSTRUCTED")
    assert oob.map == "market-garden-1km-map.json"


def test_oob_is_what_the_generator_writes() -> None:
    """The data file is generated: editing it by hand would leave the script behind."""
    import sys
    sys.path.insert(0, str(ROOT / "scenarios" / "tools"))
    import gen_megagame_oob
    assert gen_megagame_oob.build() == _raw()


def test_oob_every_hex_on_the_1km_map() -> None:
    oob = load_oob()
    hexes = [start_hex(u) for u in oob.units] + [start_hex(d) for d in oob.dumps]
    hexes += [z.hex for z in oob.zones] + [e.hex for e in oob.entries]
    hexes += [u.objective.hex for u in oob.units if u.objective is not None]
    assert len(hexes) > 250
    assert [h for h in hexes if not _on_map(h)] == []


def test_annex_a_every_unit_type_known() -> None:
    ids = load_profiles().ids()
    oob = load_oob()
    assert {u.type for u in oob.units} - ids == set()
    assert {d.type for d in oob.dumps} <= ids


def test_drops_into_open_ground_only() -> None:
    """Drops must be into open areas, never woods or built-up areas: every zone hex is clear."""
    for z in load_oob().zones:
        assert TERRAIN.get(z.hex, MAP["default_terrain"]) == "clear", z


@pytest.mark.parametrize("division", [
    "gb-1-ab", "pl-1-para", "us-82-ab", "us-101-ab", "gb-gds-armd", "gb-43-inf", "gb-50-inf",
    "gb-8-armd", "gb-xxx-troops", "de-9-ss", "de-10-ss", "de-tettau", "de-406", "de-59-inf",
    "de-245-inf", "de-107-pz", "de-kg-walther", "de-6-fj", "de-fj-meindl",
])
def test_historical_formations_present(division: str) -> None:
    oob = load_oob()
    assert oob.division(division)
    assert any(u.division == division for u in oob.units)


@pytest.mark.parametrize(("division", "types", "count"), [
    ("gb-1-ab", {"gb-para-bn", "gb-airlanding-bn"}, 9),
    ("us-82-ab", {"us-para-bn", "us-glider-bn"}, 12),
    ("us-101-ab", {"us-para-bn", "us-glider-bn"}, 12),
    ("gb-43-inf", {"gb-rifle-bn"}, 10),  # nine rifle battalions and the machine-gun battalion
    ("gb-50-inf", {"gb-rifle-bn"}, 9),
    ("gb-gds-armd", {"gb-armd-regt"}, 4),
    ("gb-8-armd", {"gb-armd-regt"}, 3),
    ("pl-1-para", {"gb-para-bn"}, 3),
])
def test_historical_battalion_counts(division: str, types: set[str], count: int) -> None:
    oob = load_oob()
    assert sum(1 for u in oob.units if u.division == division and u.type in types) == count


def test_ii_ss_panzer_corps_and_kampfgruppen() -> None:
    oob = load_oob()
    ss = [u for u in oob.units if u.corps == "ii-ss-pz-corps"]
    names = " ".join(u.name for u in ss)
    for kg in ("Spindler", "Graebner", "Krafft", "Brinkmann", "Reinhold", "Euling", "Henke",
               "Knaust"):
        assert kg in names


def test_german_flak_and_allied_artillery_present() -> None:
    book = load_profiles()
    oob = load_oob()
    flak = {book.get(u.type).flak for u in oob.units if u.side == "german"}
    assert {"heavy", "light"} <= flak
    assert any(u.type == "gb-medium-regt" for u in oob.units)
    assert any(u.type == "gb-field-regt" for u in oob.units)


def test_worked_example_2nd_para_bn_at_arnhem_bridge() -> None:
    """2nd Para Bn lands on DZ X with the first lift (17 Sep pm) and is bound for the north end of
    Arnhem road bridge: the map's bridge hexside 4409/4410, 4409 in the city (a marked city area,
    combat note 3); the airlanding battery goes with it."""
    oob = load_oob()
    para = oob.unit("gb-2-para")
    assert para.arrival is not None
    assert (para.arrival.turn, para.arrival.by, para.arrival.zone) == (2, "air", "DZ X")
    assert para.objective is not None and para.objective.hex == "4409"
    arnhem = next(ln for ln in MAP["lines"] if ln["name"] == "Arnhem road bridge")
    assert arnhem["hexsides"] == ["4409/4410"]
    assert TERRAIN["4409"] == "city"
    bty = oob.unit("gb-1al-atk-bty")
    assert bty.objective is not None and bty.objective.hex == "4409"
    assert combat_unit(para).profile.status == 6 and combat_unit(para).light
    assert combat_unit(bty).profile.support_only and combat_unit(bty).profile.status == 2


def test_worked_example_german_attackers_present() -> None:
    """20 SS PzGr Bn at status 6; 9 SS PzJg Abt, Pz Abt and PzArtR fighting as infantry at 4 each,
    light infantry (three of them: the example's -3)."""
    oob = load_oob()
    pzgr = combat_unit(oob.unit("de-9ss-pzgr-20"))
    assert pzgr.profile.status == 6 and pzgr.mechanised and not pzgr.light
    light = [combat_unit(oob.unit(u)) for u in ("de-9ss-pzjg", "de-9ss-pz", "de-9ss-pzart-inf")]
    assert [u.profile.status for u in light] == [4, 4, 4]
    assert all(u.light for u in light)


def test_steps_lost_at_the_start() -> None:
    """Annex A: German units a step or two down at the start. Tiger company Hummel: the heavy
    profile 10-8-5-3-0 two steps down is 5."""
    oob = load_oob()
    assert combat_unit(oob.unit("de-tiger-hummel")).profile.status == 5
    assert combat_unit(oob.unit("de-spzabt-506")).profile.status == 10


@pytest.mark.parametrize(("uid", "turn", "zone"), [
    ("gb-1-para", 2, "DZ X"), ("gb-7-kosb", 2, "LZ S"), ("gb-156-para", 4, "DZ Y"),
    ("pl-atk-bty", 6, "LZ L"), ("pl-2-para", 10, "DZ K"), ("pl-1-para", 14, "DZ O"),
    ("us-2-504", 2, "DZ O"), ("us-1-505", 2, "DZ N"), ("us-1-508", 2, "DZ T"),
    ("us-1-325", 14, "DZ O"), ("us-1-501", 2, "DZ A-1"), ("us-2-502", 2, "DZ B"),
    ("us-1-506", 2, "DZ C"), ("us-1-327", 4, "LZ W"), ("us-1-401", 6, "LZ W"),
])
def test_lifts_historical_turns(uid: str, turn: int, zone: str) -> None:
    """First lift 17 Sep pm (turn 2), second 18 Sep pm (4), third 19 Sep pm (6), the Poles at
    Driel 21 Sep pm (10), the last lift 23 Sep pm (14)."""
    a = load_oob().unit(uid).arrival
    assert a is not None and (a.turn, a.by, a.zone) == (turn, "air", zone)


def test_xxx_corps_up_hells_highway() -> None:
    """XXX Corps enters at the map's first hex of Hell's Highway (0881), the Irish Guards group on
    17 Sep pm (turn 2); nothing of XXX Corps is on the map before."""
    oob = load_oob()
    highway = next(r for r in MAP["routes"] if r["name"].startswith("Hell's Highway"))
    assert highway["hexes"][0] == "0881"
    xxx = [u for u in oob.units if u.corps == "xxx-corps"]
    assert all(u.arrival is not None and u.arrival.by == "road" and u.arrival.hex == "0881"
               for u in xxx)
    assert min(u.arrival.turn for u in xxx if u.arrival) == 2
    assert {u.id for u in arrivals(oob, 2) if u.corps == "xxx-corps"} >= {"gb-2-ig", "gb-3-ig"}


def test_turns_are_half_days_17_to_25_september() -> None:
    oob = load_oob()
    assert len(oob.turns) == 18
    assert turn_label(oob, 1) == "17 September 1944, morning"
    assert turn_label(oob, 2) == "17 September 1944, afternoon"
    assert turn_label(oob, 18) == "25 September 1944, afternoon"
    with pytest.raises(KeyError, match=r"\[3\]"):
        turn_label(oob, 19)


def test_weather_historical() -> None:
    w = {x.turn: x for x in load_oob().weather}
    assert len(w) == 18
    assert w[2].flying_england == "good"  # the first lift
    assert w[3].flying_england == "none"  # fog holds the second lift back
    assert w[14].flying_england == "good"  # the last lift, 23 Sep pm
    assert w[18].sky == "rain"  # the withdrawal


@pytest.mark.parametrize(("mode", "team", "member"), [
    ("division", "gb-1-ab", "gb-2-para"), ("corps", "i-ab-corps", "gb-2-para"),
    ("corps", "i-ab-corps", "us-1-505"), ("division", "de-9-ss", "de-kg-krafft"),
    ("corps", "ii-ss-pz-corps", "de-10ss-euling"),
])
def test_team_option_division_or_corps(mode: str, team: str, member: str) -> None:
    t = teams(load_oob(), mode)  # type: ignore[arg-type]
    assert member in t[team]


def test_team_option_every_unit_in_one_team() -> None:
    oob = load_oob()
    for mode, n in (("division", len(oob.divisions)), ("corps", len(oob.corps))):
        t = teams(oob, mode)  # type: ignore[arg-type]
        assert len(t) == n
        members = [u for us in t.values() for u in us]
        assert sorted(members) == sorted(u.id for u in oob.units)


def test_11_units_draw_on_an_hq_of_their_division() -> None:
    """Every fighting unit names its HQ; an airborne battalion landing with its brigade HQ is
    within the 5 km of it [11]."""
    book = load_profiles()
    oob = load_oob()
    for u in oob.units:
        t = book.get(u.type)
        if t.kind != "hq" and t.lift == 0:
            assert u.hq is not None, u.id
    para, hq = oob.unit("gb-2-para"), oob.unit("gb-1-para-bde-hq")
    assert hq_in_reach(start_hex(para), start_hex(hq))


def test_11_initial_supplies_as_values_of_the_supply_module() -> None:
    oob = load_oob()
    hq = supply_hq(oob, oob.unit("gb-1-para-bde-hq"))
    assert (hq.nation, hq.lift, hq.stock, str(hq.hex)) == ("british", 4, Stock(4, 0), "3208")
    us = supply_hq(oob, oob.unit("us-505-hq"))
    assert us.nation == "us"
    dump = supply_dump(next(d for d in oob.dumps if d.id == "gb-xxx-dump"))
    assert (dump.lift, dump.reach_km, dump.stock, str(dump.hex)) == (10, 10, Stock(30, 30), "0881")
    assert {d.nation for d in oob.dumps} == {"british", "us", "german"}


@pytest.mark.parametrize(("name", "cls", "capacity", "prepared"), [
    ("Arnhem road bridge", "heavy", 120, True),
    ("Nijmegen road bridge (Waalbrug)", "heavy", 120, True),
    ("Grave bridge", "heavy", 120, True),
    ("Son bridge", "heavy", 40, True),
    ("Heumen lock bridge", "heavy", 20, True),
    ("Oosterbeek rail bridge", "light", 20, True),
    ("Driel ferry", "light", 4, False),
])
def test_bridges_class_capacity_demolition(name: str, cls: str, capacity: int,
                                           prepared: bool) -> None:
    """[6] heavy (class 40) or light (class 9); [7] capacities within the text's guide (main road
    bridge up to 120, minor road bridge 20-50, rail bridge 15-25, civilian ferry 4); [8]."""
    b = next(b for b in load_oob().bridges if b.name == name)
    assert (b.class_, b.capacity, b.prepared) == (cls, capacity, prepared)


def test_every_map_bridge_has_class_and_capacity() -> None:
    sides = set(MAP["bridges"]) | {s for ln in MAP["lines"]
                                   if ln["kind"] in ("bridge", "rail-bridge", "ferry")
                                   for s in ln["hexsides"]}
    assert {b.hexside for b in load_oob().bridges} == sides


def test_air_forces_in_squadrons_off_map() -> None:
    air = load_oob().air
    roles = {(a.side, a.role) for a in air}
    assert {("allied", "fighter"), ("allied", "fighter-bomber"), ("allied", "transport"),
            ("german", "fighter")} <= roles
    assert all(a.base.startswith("off-map") for a in air)
    assert sum(a.squadrons for a in air if a.role == "transport" and a.side == "allied") == 72


def test_12_cab_rank_only_europe_based() -> None:
    air = {a.id: a for a in load_oob().air}
    assert air["gb-124-wing"].cab_rank
    assert not air["us-56-fg"].cab_rank  # England-based
    assert not air["de-i-jg-26"].cab_rank  # German


# -- oob_problems names bad entries ----------------------------------------------------------------

def _problems(data: dict[str, Any]) -> list[str]:
    return oob_problems(OrderOfBattle.model_validate(data))


def _unit(data: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in data["units"] if u["id"] == uid)


def test_problem_hex_off_the_map() -> None:
    data = _raw()
    _unit(data, "de-kg-krafft")["setup"] = "5190"
    assert _problems(data) == ["unit de-kg-krafft: set-up hex 5190 is not on the map"]


def test_problem_unknown_type() -> None:
    data = _raw()
    _unit(data, "gb-2-para")["type"] = "gb-commando"
    assert _problems(data) == ["unit gb-2-para: unknown unit type gb-commando [Annex A]"]


def test_problem_setup_and_arrival() -> None:
    data = _raw()
    _unit(data, "gb-2-para")["setup"] = "4409"
    assert _problems(data) == [
        "unit gb-2-para: either a set-up hex or an arrival, not both or neither"]


def test_problem_drop_zone_in_woods() -> None:
    data = _raw()
    woods = MAP["terrain"]["woods"][0]
    for z in data["zones"]:
        if z["id"] == "DZ Y":
            z["hex"] = woods
    problems = _problems(data)
    assert f"zone DZ Y: hex {woods} is woods: drops go into open ground only" in problems


def test_problem_hq_of_another_division_and_supply_over_lift() -> None:
    data = _raw()
    _unit(data, "gb-2-para")["hq"] = "us-505-hq"
    _unit(data, "gb-1-para-bde-hq")["supply"] = {"ammo": 4, "fuel": 1}
    assert _problems(data) == [
        "unit gb-1-para-bde-hq: 5 supply points over its lift of 4 [11]",
        "unit gb-2-para: its HQ us-505-hq is of another division",
    ]


def test_problem_bridge_missing_and_misnamed() -> None:
    data = _raw()
    arnhem = next(b for b in data["bridges"] if b["name"] == "Arnhem road bridge")
    data["bridges"].remove(arnhem)
    grave = next(b for b in data["bridges"] if b["name"] == "Grave bridge")
    grave["name"] = "Grave"
    assert _problems(data) == [
        "bridge 3033/3034: the map names it 'Grave bridge', not 'Grave'",
        "bridge 4409/4410: a bridge of the map without class and capacity [6, 7]",
    ]


def test_problem_duplicate_id_and_wrong_corps() -> None:
    data = _raw()
    data["units"].append(dict(_unit(data, "gb-3-para")))
    _unit(data, "de-helle")["corps"] = "ii-ss-pz-corps"
    problems = _problems(data)
    assert "unit gb-3-para: the id is used twice" in problems
    assert "unit de-helle: division de-tettau is in corps wbn, not ii-ss-pz-corps" in problems
    assert len(problems) == 2


def test_problem_arrival_after_the_last_turn() -> None:
    data = _raw()
    _unit(data, "de-spzabt-506")["arrival"]["turn"] = 19
    assert _problems(data) == ["unit de-spzabt-506: arrives on turn 19, after the last (18)"]


def test_problem_type_of_another_nation() -> None:
    """An Annex A type belongs to its nation's list: a US glider battalion in a British division
    is refused (the Poles use British types, British ammunition [11])."""
    data = _raw()
    _unit(data, "gb-7-kosb")["type"] = "us-glider-bn"
    assert _problems(data) == ["unit gb-7-kosb: a us type in a british formation"]


def test_11b_transport_units_as_supply_values() -> None:
    oob = load_oob()
    rasc = supply_transport(oob, oob.unit("gb-gds-rasc"))
    assert (rasc.capacity, rasc.load, str(rasc.hex), rasc.nation) == (10, Stock(6, 4), "0881",
                                                                      "british")
    kolonne = supply_transport(oob, oob.unit("de-9ss-kolonne"))
    assert (kolonne.capacity, kolonne.nation) == (10, "german")
