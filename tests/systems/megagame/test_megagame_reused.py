"""A scenario's big parts (map, unit types, units) parsed once and reused (issue 28: verifying a
game with a secret set-up loads the whole scenario and every team's copy) read exactly as a fresh
parse reads them, and refuse exactly what it refuses, every time."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.engine.scenarios import load_data
from pbem.protocol.record import RecordError
from pbem.systems.megagame.model import MegaMap, MegaScenario, UnitDef, UnitType
from pbem.systems.megagame.setup import team_copy

SCENARIOS = ["megagame-arnhem", "megagame-market-garden-duel", "megagame-market-garden"]


def _fresh(data: dict[str, Any]) -> dict[str, Any]:
    """The parts as plain Nested parses them: each record parsed from its own JSON, nothing kept."""
    return {"map": MegaMap.parse(data["map"]).to_json(),
            "types": {k: UnitType.parse(v).to_json() for k, v in data["types"].items()},
            "units": [UnitDef.parse(u).to_json() for u in data["units"]]}


def _parts(sc: MegaScenario) -> dict[str, Any]:
    return {"map": sc.map.to_json(), "types": {k: t.to_json() for k, t in sc.types.items()},
            "units": [u.to_json() for u in sc.units]}


@pytest.mark.parametrize("name", SCENARIOS)
def test_whole_scenario_and_every_team_copy_read_as_a_fresh_parse(name: str) -> None:
    data = load_data(name)
    whole = MegaScenario.parse(data)
    assert _parts(whole) == _fresh(data)
    again = MegaScenario.parse(copy.deepcopy(data))  # equal JSON, other objects: the parts reused
    assert again.map is whole.map and again.units[0] is whole.units[0]
    assert again.to_json() == whole.to_json()
    for team in whole.teams:
        part = team_copy(whole, data, team.id)
        sc = MegaScenario.parse(part)
        assert _parts(sc) == _fresh(part)
        assert sc.to_json() == MegaScenario.parse(copy.deepcopy(part)).to_json()
        mine = [u for u in sc.units if u.team == team.id]
        assert mine and all(any(u is w for w in whole.units) for u in mine)


def _refusal(data: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as exc:
        MegaScenario.parse(data)
    return exc.value.line()


def test_a_value_like_one_parsed_but_of_another_type_is_still_refused() -> None:
    data = load_data("megagame-arnhem")
    MegaScenario.parse(data)  # every unit parsed and kept
    unit = data["units"][0]
    assert unit.get("by_air", False) is False
    for bad, words in (({**unit, "by_air": 0}, "expected a boolean"),  # 0 == False, not a boolean
                       ({**unit, "arrives": True}, ""),  # True == 1, not an integer
                       ({**unit, "hex": "x"}, "")):
        broken = {**data, "units": [bad, *data["units"][1:]]}
        first = _refusal(broken)
        assert first == _refusal(copy.deepcopy(broken))  # refused alike every time: nothing kept
        assert "units" in first and words in first
        with pytest.raises(RecordError):
            UnitDef.parse(bad)
    assert MegaScenario.parse(data).units[0].to_json() == UnitDef.parse(unit).to_json()


def _items(value: Any) -> Any:
    """``value`` with every dict as its list of items: equal only with the same keys in the same order."""
    if isinstance(value, dict):
        return [(k, _items(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_items(v) for v in value]
    return value


@pytest.mark.parametrize("name", SCENARIOS)
def test_state_dump_is_to_json_key_for_key(name: str) -> None:
    from pbem.systems.megagame.model import MegaState, RailTrip
    from pbem.systems.megagame.rules import MegagameRules

    rules = MegagameRules()
    sc = rules.load_scenario(load_data(name))
    st = rules.initial_state(sc, {})
    assert isinstance(st, MegaState)
    uids = sorted(st.units)
    busy = {uid: st.units[uid].replace(rail=RailTrip(to="0101", phase="travelling", left=1),
                                       contact={"x": 2}, hex=None, gone=True, steps=3)
            for uid in uids[::7]}
    busier = st.replace(units={**st.units, **busy}, blown=["a"], tested=["b"], attached={uids[0]: "d"})
    for s in (st, busier):
        dumped = s.dump()
        assert _items(dumped) == _items(s.to_json())
        assert rules.dump_state(sc, s) == dumped
        first = dumped["units"][uids[0]]
        assert first is not s.dump()["units"][uids[0]] and first["contact"] is not s.units[uids[0]].contact
    assert busier.dump()["units"][uids[0]]["rail"] == {"to": "0101", "phase": "travelling", "left": 1}


@pytest.mark.parametrize("name", SCENARIOS)
def test_geo_hexes_and_terrain_are_the_maps(name: str) -> None:
    from pbem.maps.hexmap import Hex
    from pbem.systems.megagame.model import Geo

    m = MegaMap.parse(load_data(name)["map"])
    geo = Geo.of(m)
    every = {Hex(c, r) for c in range(m.cols[0], m.cols[1] + 1) for r in range(m.rows[0], m.rows[1] + 1)}
    assert geo.hexes == every and all(type(h) is Hex for h in geo.hexes)
    listed = {Hex.parse(h): kind for kind, hexes in m.terrain.items() for h in hexes}
    assert geo.terrain == {h: listed.get(h, m.default_terrain) for h in every}
    assert set(listed.values()) - {m.default_terrain}


@pytest.mark.parametrize("name", SCENARIOS)
def test_near_worked_out_once_per_hex_says_what_looking_at_every_place_says(name: str) -> None:
    """:meth:`Geo.near` answers from its memo what :meth:`Geo.place_near` (every place looked at)
    answers, the first time and again; a place's own hex is named alone, a hex more than 3 km
    from every place by its number alone (the text's "within 3 km")."""
    from pbem.maps.hexmap import Hex
    from pbem.systems.megagame.model import Geo

    m = MegaMap.parse(load_data(name)["map"])
    geo = Geo.of(m)
    for h in sorted(geo.hexes):
        assert geo.near(h) == geo.place_near(h) == geo.near(h)
    assert len(geo.near_memo) == len(geo.hexes)
    place = m.places[0]
    assert geo.near(Hex.parse(place.hex)) in {f"{place.hex} ({p.name})" for p in m.places if p.hex == place.hex}
    far = [h for h in geo.hexes if all(h.distance(Hex.parse(p.hex)) > 3 for p in m.places)]
    assert far and all(geo.near(h) == str(h) for h in far)
    one_km = [h for h in geo.hexes if min(h.distance(Hex.parse(p.hex)) for p in m.places) == 1]
    assert one_km and all(geo.near(h).endswith(")") and " (1 km from " in geo.near(h) for h in one_km)


@pytest.mark.parametrize("name", SCENARIOS)
def test_air_pools_are_squadrons_available_for_each_missions_roles(name: str) -> None:
    """:func:`air_pools` (each air unit counted once, summed per role) is, for every side, turn and
    loss, :func:`squadrons_available` of each mission of :data:`MISSION_ROLES` [12], keyed by its
    roles in that order; turns of good, limited and no flying weather among those compared."""
    from pbem.systems.megagame.air import MISSION_ROLES, air_pools, flying, squadrons_available

    sc = MegaScenario.parse(load_data(name))
    assert sc.air
    ids = [a.id for a in sc.air]
    losses: list[dict[str, int]] = [{}, {ids[0]: 1}, dict.fromkeys(ids, 1), dict.fromkeys(ids, 3), dict.fromkeys(ids, 99)]
    kinds = set()
    for turn in range(1, sc.turns + 2):
        kinds |= {flying(sc, turn, a.region) for a in sc.air}
        for side in ("allied", "german"):
            for lost in losses:
                want: dict[tuple[str, ...], int] = {}
                for mission, roles in MISSION_ROLES.items():
                    want[roles] = squadrons_available(sc, side, turn, mission, lost)
                got = air_pools(sc, side, turn, lost)
                assert got == want and list(got) == list(want)
    assert kinds == {"good", "limited", "none"} or name != "megagame-market-garden"
