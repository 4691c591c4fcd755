"""A dump's stock when the dump moves (seed 004 [11], "Moving a Supply Dump"): the dump counter
goes to its new place alone, taking the turn, and its supply counters stay parked where it stood;
the supply transport units bring them on in the normal way -- loading where the counters lie,
unloading where a dump (or an HQ) of their team stands [11b]. Parked counters deliver nothing.
Played under rules version 2, where what reaches an HQ joins the team's one pool; version 3's
stacks per HQ are tests/systems/megagame/test_megagame_supply_and_trains.py.

The tiny map of tests/systems/megagame/test_megagame_rules.py: HQ h at 0106, dump x at 0101 (15 points, lift 10,
reach 5 km; 0102 is 4 km from h), the German d far off at 0808.
"""

from __future__ import annotations

from typing import Any

from pbem.systems.megagame.model import MegaScenario, MegaState, ParkedSupply
from pbem.systems.megagame.orders import OrderSheet
from systems.megagame.test_megagame_rules import R2 as R
from systems.megagame.test_megagame_rules import TYPES, Dice, scenario, sheet, unit
from systems.megagame.test_megagame_rules import play as play_any

MORE: dict[str, Any] = {
    **TYPES,
    "dump": {"profile": "(1)-0", "kind": "other", "troops": "mechanised", "mechanised": True, "size": 0, "dump": True},
    "rasc": {"profile": "(2)-(1)-0", "kind": "other", "troops": "mechanised", "mechanised": True, "size": 4},
    "kolonne": {"profile": "(1)-0", "kind": "other", "troops": "horse-drawn", "size": 1},
}


def dumps(*more: dict[str, Any]) -> MegaScenario:
    return scenario([unit("h", "AL", "hq", "0106"), unit("x", "AL", "dump", "0101", stock=15, lift=10, reach_km=5),
                     unit("d", "GE", "weak", "0808"), *more], types=MORE)


def play(sc: MegaScenario, st: MegaState, dice: Dice, *sheets: OrderSheet) -> tuple[MegaState, list[Any]]:
    return play_any(sc, st, dice, *sheets, rules=R)


def move(uid: str, *route: str) -> dict[str, Any]:
    return {"units": [uid], "intention": "move", "route": list(route)}


def test_11_a_moving_dump_leaves_its_supplies_parked_where_it_stood() -> None:
    sc = dumps()
    st = R.initial_state(sc, {})
    t2, _ = play(sc, st, Dice(), sheet("AL", move("x", "0102")))
    assert (t2.units["x"].hex, t2.units["x"].stock) == ("0102", 0)
    assert t2.parked == [ParkedSupply(team="AL", hex="0101", points=15, left_by="x")]
    assert t2.supply["AL"] == 5 - 1  # the dump's lorries burn their fuel; nothing delivered
    assert any("15 supply points left parked at 0101" in e for e in t2.facts["x"].events)
    # the next turn it stands, 4 km from h, but has nothing to deliver: parked counters deliver nothing
    t3, _ = play(sc, t2, Dice(), sheet("AL", turn=2), sheet("GE", turn=2))
    assert (t3.supply["AL"], t3.units["x"].stock, t3.parked[0].points) == (4, 0, 15)
    assert "has no supplies: 15 points wait parked at 0101 (3 km from Dorp)" in t3.facts["x"].events


def test_11b_a_transport_unit_brings_the_parked_supplies_to_the_new_dump() -> None:
    # turn 1: x moves to 0102; r, a lorry company standing at 0101, loads 10 of the 15 left there.
    # turn 2: r drives to 0102 and unloads its 10 into x, which stood still and delivers them to h
    # (4 km): 4 + 10, less r's fuel, 13. turn 3: r goes back to 0101 for the last 5.
    sc = dumps(unit("r", "AL", "rasc", "0101"))
    st = R.initial_state(sc, {})
    t2, _ = play(sc, st, Dice(), sheet("AL", move("x", "0102")))
    assert (t2.loads, [p.points for p in t2.parked], t2.supply["AL"]) == ({"r": 10}, [5], 4)
    t3, _ = play(sc, t2, Dice(), sheet("AL", move("r", "0102"), turn=2), sheet("GE", turn=2))
    assert (t3.loads, t3.units["x"].stock, t3.supply["AL"]) == ({}, 0, 4 + 10 - 1)
    assert "unloaded 10 supply points into x" in t3.facts["r"].events
    assert "delivered 10 supply points to the HQs (0 left)" in t3.facts["x"].events
    t4, _ = play(sc, t3, Dice(), sheet("AL", move("r", "0101"), turn=3), sheet("GE", turn=3))
    assert (t4.loads, t4.parked) == ({"r": 5}, [])


def test_11b_a_horse_drawn_column_carries_4_and_unloads_at_an_hq_where_no_dump_is() -> None:
    sc = dumps(unit("k", "AL", "kolonne", "0101"))
    st = R.initial_state(sc, {})
    t2, _ = play(sc, st, Dice(), sheet("AL", move("x", "0102")))
    assert (t2.loads, t2.parked[0].points) == ({"k": 4}, 11)
    t3, _ = play(sc, t2, Dice(), sheet("AL", move("k", "0102", "0103", "0104", "0105", "0106"), turn=2),
                 sheet("GE", turn=2))
    assert t3.units["k"].hex == "0106" and t3.loads == {}
    assert t3.supply["AL"] == 4 + 4  # into the supplies held at the HQs (a column burns no fuel)


def test_11_a_dump_back_where_its_counters_lie_has_them_again() -> None:
    sc = dumps()
    st = R.initial_state(sc, {})
    t2, _ = play(sc, st, Dice(), sheet("AL", move("x", "0102")))
    t3, _ = play(sc, t2, Dice(), sheet("AL", move("x", "0101"), turn=2), sheet("GE", turn=2))
    assert (t3.units["x"].hex, t3.units["x"].stock, t3.parked) == ("0101", 15, [])
    assert t3.supply["AL"] == 4 - 1  # moving again: fuel, no delivery


def test_11_parked_counters_in_a_hex_the_enemy_holds_are_lost_and_a_lost_transport_loses_its_load() -> None:
    sc = dumps(unit("r", "AL", "rasc", "0404"))
    st = R.initial_state(sc, {})
    gone = {**st.units, "r": st.units["r"].replace(gone=True)}
    st = st.replace(units=gone, loads={"r": 10}, parked=[
        ParkedSupply(team="AL", hex="0808", points=6, left_by="x"),  # d stands there
        ParkedSupply(team="AL", hex="0505", points=3, left_by="x")])  # nobody there: they wait
    t2, _ = play(sc, st, Dice())
    assert t2.parked == [ParkedSupply(team="AL", hex="0505", points=3, left_by="x")] and t2.loads == {}


def test_11_12_states_written_before_these_fields_still_load() -> None:
    sc = dumps()
    data = R.initial_state(sc, {}).to_json()
    for k in ("parked", "loads", "air_lost", "night_drops", "stragglers"):
        data.pop(k)
    st = R.load_state(sc, data)
    assert isinstance(st, MegaState) and st.parked == [] and st.loads == {} and st.air_lost == {}
