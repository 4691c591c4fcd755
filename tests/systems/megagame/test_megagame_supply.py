"""Supplies of the megagame [seed 004, 11 "Supplies", "Moving a Supply Dump", the use of supplies
under "Attacking" and the results table's supply losses]: hand-computed on tiny stacks, with the
5 km and 10 km boundaries on the 1 km map."""

from __future__ import annotations

import dataclasses

import pytest

from pbem.errors import IllegalOrders
from pbem.maps.hexmap import Hex
from pbem.systems.megagame.combat import CombatSide, CombatUnit, Profile, score
from pbem.systems.megagame.supply import (
    AMMO_COLOUR,
    HQ,
    LORRY_MOVE_KM,
    Activity,
    Dump,
    Parked,
    Stock,
    Transport,
    activity,
    air_resupply_drop,
    combat_loss,
    combat_unit,
    draw,
    dump_deliver,
    dump_delivery_problems,
    hq_in_reach,
    lose,
    move_dump,
    needs,
    new_turn,
    park,
    transfer,
    transfer_problems,
)

H = Hex.parse
HQ_HEX = H("2020")


def _hq(ammo: int = 10, fuel: int = 10, lift: int = 30) -> HQ:
    return HQ("1 Bde HQ", "british", HQ_HEX, lift, Stock(ammo, fuel))


# -- 11: drawing on the HQ within 5 km -------------------------------------------------------------

@pytest.mark.parametrize(("unit_hex", "ok"), [
    ("2020", True), ("2021", True), ("2025", True), ("2026", False), ("2015", True),
    ("2014", False), ("2520", True), ("2620", False),
])
def test_11_hq_within_5_km(unit_hex: str, ok: bool) -> None:
    """2025 is 5 hexes (5 km) south of 2020: in reach; 2026, 6 km, is not. Columns likewise."""
    assert hq_in_reach(unit_hex, "2020") is ok


def test_11_unit_6_km_from_hq_draws_nothing() -> None:
    d = draw(_hq(), [Activity("A", H("2026"), attacks=1)])
    assert d.units["A"].drawn == Stock() and d.units["A"].attacks == 0
    assert d.hq.stock == Stock(10, 10)
    assert any("within 5 km" in str(p) and str(p).endswith("[11]") for p in d.units["A"].problems)


def test_11_unit_exactly_5_km_from_hq_draws() -> None:
    d = draw(_hq(), [Activity("A", H("2025"), attacks=1)])
    assert d.units["A"].attacks == 1 and d.hq.stock == Stock(9, 10)


# -- supplies used: attack 1, artillery 1, defence 0, fuel 1 per mechanised unit moved/fighting --

@pytest.mark.parametrize(("activity", "stock"), [
    (Activity("inf", HQ_HEX, attacks=1), Stock(1, 0)),
    (Activity("inf", HQ_HEX, defended=True), Stock(0, 0)),
    (Activity("inf", HQ_HEX, moved=True), Stock(0, 0)),
    (Activity("arty", HQ_HEX, fires=2), Stock(2, 0)),
    (Activity("arty", HQ_HEX, mechanised=True, fires=1), Stock(1, 0)),
    (Activity("arty", HQ_HEX, mechanised=True, fires=1, moved=True), Stock(1, 1)),
    (Activity("tanks", HQ_HEX, mechanised=True, moved=True), Stock(0, 1)),
    (Activity("tanks", HQ_HEX, mechanised=True, defended=True), Stock(0, 1)),
    (Activity("tanks", HQ_HEX, mechanised=True, attacks=1, moved=True), Stock(1, 1)),
    (Activity("tanks", HQ_HEX, mechanised=True), Stock(0, 0)),
])
def test_supplies_use_per_activity(activity: Activity, stock: Stock) -> None:
    assert needs(activity) == stock


def test_supplies_worked_example_5_ammo_1_fuel() -> None:
    """The worked example: four attacking units (one of them mechanised, 20 SS PzGr; the other
    three fighting as infantry) and one supporting artillery unit use 5 ammunition and 1 fuel; the
    defenders use none."""
    att = [Activity("20 SS PzGr", HQ_HEX, mechanised=True, attacks=1),
           Activity("9 SS PzJg", HQ_HEX, attacks=1), Activity("9 SS Pz", HQ_HEX, attacks=1),
           Activity("9 SS PzArtR", HQ_HEX, attacks=1),
           Activity("9 SS field arty", HQ_HEX, mechanised=True, fires=1)]
    ss = HQ("9 SS KG HQ", "german", HQ_HEX, 20, Stock(8, 3))
    d = draw(ss, att)
    assert d.used == Stock(5, 1)
    assert d.hq.stock == Stock(3, 2)
    para = Activity("2 Para", HQ_HEX, defended=True)
    bty = Activity("5 AL Atk Bty", HQ_HEX, defended=True)
    assert draw(_hq(), [para, bty]).used == Stock()


def test_11_cannot_attack_without_supplies_priority_in_order() -> None:
    """Two ammunition for three attacks: the first two units (the team's order) attack."""
    d = draw(_hq(ammo=2), [Activity(u, HQ_HEX, attacks=1) for u in ("A", "B", "C")])
    assert [d.units[u].attacks for u in "ABC"] == [1, 1, 0]
    assert "cannot attack without supplies" in str(d.units["C"].problems[0])
    assert d.hq.stock.ammo == 0


def test_11_artillery_without_ammunition_cannot_fire() -> None:
    d = draw(_hq(ammo=1), [Activity("A", HQ_HEX, attacks=1), Activity("G", HQ_HEX, fires=1)])
    assert d.units["A"].attacks == 1 and d.units["G"].fires == 0
    assert "no ammunition to fire" in str(d.units["G"].problems[0])


def test_11_no_fuel_connects_to_the_combat_factor() -> None:
    """One fuel for two tank units: the second has none, cannot move, and fights at -1 through
    combat.py's own factor (not recomputed here)."""
    d = draw(_hq(fuel=1), [Activity("T1", HQ_HEX, mechanised=True, moved=True),
                          Activity("T2", HQ_HEX, mechanised=True, defended=True)])
    assert d.units["T1"].fuel and not d.units["T2"].fuel
    t2 = CombatUnit("T2", Profile.parse("5-3-2-0"), "armour", mechanised=True)
    dry = combat_unit(t2, d.units["T2"])
    assert dry.fuel is False
    other = CombatSide((CombatUnit("x", Profile.parse("1-0")),))
    wet_score = score(CombatSide((t2,)), other, attacking=False).value
    dry_score = score(CombatSide((dry,)), other, attacking=False).value
    assert (wet_score, dry_score) == (5, 4)
    assert combat_unit(t2, d.units["T1"]).fuel is True
    inf = CombatUnit("I", Profile.parse("5-0"))
    assert combat_unit(inf, None) is inf


# -- results table: the defender's supply losses ---------------------------------------------------

@pytest.mark.parametrize(("band", "units", "points"), [
    ("total success", 3, 6), ("success", 3, 3), ("limited success", 2, 2),
    ("confused combat", 3, 0), ("attackers badly beaten", 3, 0),
])
def test_results_table_defender_supply_loss(band: str, units: int, points: int) -> None:
    assert combat_loss(band, units) == points  # type: ignore[arg-type]


def test_results_table_supply_loss_ammunition_first_never_below_zero() -> None:
    assert lose(_hq(ammo=3, fuel=5), 4).stock == Stock(0, 4)
    assert lose(_hq(ammo=1, fuel=1), 6).stock == Stock(0, 0)


# -- 11a: divisional dump deliveries ---------------------------------------------------------------

def _dump(**kw: object) -> Dump:
    base: dict[str, object] = {"id": "Div dump", "nation": "british", "hex": H("2030"),
                               "lift": 10, "stock": Stock(20, 20)}
    base.update(kw)
    return Dump(**base)  # type: ignore[arg-type]


def test_11a_dump_delivers_within_10_km() -> None:
    dump, hq = dump_deliver(_dump(), _hq(0, 0), Stock(4, 2))  # 2030 -> 2020: 10 km
    assert (dump.stock, dump.delivered, hq.stock) == (Stock(16, 18), 6, Stock(4, 2))


def test_11a_dump_not_beyond_its_range() -> None:
    p = dump_delivery_problems(_dump(hex=H("2031")), _hq(0, 0), Stock(1, 0))  # 11 km
    assert len(p) == 1 and "within 10 km" in str(p[0])


def test_11a_dump_lift_a_turn() -> None:
    dump, _ = dump_deliver(_dump(), _hq(0, 0), Stock(6, 0))
    assert dump_delivery_problems(dump, _hq(0, 0), Stock(4, 0)) == []
    p = dump_delivery_problems(dump, _hq(0, 0), Stock(5, 0))
    assert len(p) == 1 and "10 points a turn" in str(p[0])
    assert dump_delivery_problems(new_turn(dump), _hq(0, 0), Stock(5, 0)) == []


def test_11a_hq_lift_limits_its_stack() -> None:
    assert dump_delivery_problems(_dump(), _hq(5, 5, lift=12), Stock(2, 0)) == []
    p = dump_delivery_problems(_dump(), _hq(5, 5, lift=12), Stock(3, 0))
    assert len(p) == 1 and "can hold 12" in str(p[0])


def test_11a_dump_stock_and_nation() -> None:
    p = dump_delivery_problems(_dump(stock=Stock(1, 0)), _hq(0, 0), Stock(2, 0))
    assert len(p) == 1 and "holds 1 ammunition" in str(p[0])
    us = HQ("505 PIR HQ", "us", HQ_HEX, 20)
    p = dump_delivery_problems(_dump(), us, Stock(1, 0))
    assert len(p) == 1 and "red" in str(p[0]) and "green" in str(p[0])
    assert dump_delivery_problems(_dump(), us, Stock(0, 3)) == []  # fuel is shared
    assert AMMO_COLOUR == {"british": "red", "us": "green", "german": "blue"}


def test_11a_refused_delivery_raises_and_changes_nothing() -> None:
    dump = _dump(hex=H("2040"))
    with pytest.raises(IllegalOrders, match=r"\[11\]"):
        dump_deliver(dump, _hq(0, 0), Stock(1, 0))


# -- 11b: transport units, parked supplies, air resupply -------------------------------------------

def test_11b_transport_loads_at_the_dump_and_unloads_at_the_hq() -> None:
    rasc = Transport("250 Coy RASC", "british", H("2030"), 10)
    dump = _dump()
    dump2, rasc2 = transfer(dump, rasc, Stock(6, 4))
    assert isinstance(rasc2, Transport) and rasc2.load == Stock(6, 4)
    assert isinstance(dump2, Dump) and dump2.stock == Stock(14, 16)
    p = transfer_problems(dump2, rasc2, Stock(1, 0))
    assert len(p) == 1 and "carries 10" in str(p[0])
    moved = Transport(rasc2.id, rasc2.nation, HQ_HEX, rasc2.capacity, rasc2.load)
    far = transfer_problems(moved, HQ("2 Bde HQ", "british", H("2021"), 20), Stock(1, 0))
    assert len(far) == 1 and "one place" in str(far[0])
    t3, hq = transfer(moved, _hq(0, 0), Stock(6, 4))
    assert isinstance(hq, HQ) and hq.stock == Stock(6, 4)
    assert isinstance(t3, Transport) and t3.load == Stock()


def test_11b_stacks_do_not_move_supplies_themselves() -> None:
    p = transfer_problems(Parked("british", HQ_HEX, Stock(3, 0)), _hq(0, 0), Stock(3, 0))
    assert len(p) == 1 and "transport unit" in str(p[0])


def test_11_parked_counters_are_not_a_dump() -> None:
    rasc = Transport("RASC", "british", H("1010"), 10, Stock(3, 2))
    t, parked = park(rasc, Stock(3, 0))
    assert t.load == Stock(0, 2) and parked == Parked("british", H("1010"), Stock(3, 0))
    assert not hasattr(parked, "lift")
    with pytest.raises(IllegalOrders):
        park(t, Stock(1, 0))


def test_11_air_resupply_parks_on_the_dz() -> None:
    """8 points dropped (6 ammunition, 2 fuel), die 4, zone contested (-3): modified 1 -> column
    '1' of the row for 8: 4 arrive -- all ammunition (counted first)."""
    p = air_resupply_drop("british", H("3707"), 6, 2, 4, ("zone contested",))
    assert p == Parked("british", H("3707"), Stock(4, 0))
    full = air_resupply_drop("british", H("3707"), 6, 2, 6)
    assert full.stock == Stock(6, 2)


# -- moving a dump ---------------------------------------------------------------------------------

def test_11_moving_a_dump_leaves_its_supplies_behind() -> None:
    dump, left = move_dump(_dump(), H("2050"), 20)
    assert dump.hex == H("2050") and dump.stock == Stock() and dump.moving
    assert left == Parked("british", H("2030"), Stock(20, 20))
    p = dump_delivery_problems(dataclasses.replace(dump, stock=Stock(5, 0)),
                               HQ("x", "british", H("2050"), 20), Stock(1, 0))
    assert len(p) == 1 and "being moved" in str(p[0])
    assert not new_turn(dump).moving


def test_6_dump_moves_at_most_the_lorry_road_move() -> None:
    assert LORRY_MOVE_KM == 64
    move_dump(_dump(), H("2050"), 64)
    with pytest.raises(IllegalOrders, match=r"at most 64 km.*\[6\]"):
        move_dump(_dump(), H("2050"), 65)


def test_11_a_dump_that_delivered_cannot_move_that_turn() -> None:
    dump, _ = dump_deliver(_dump(), _hq(0, 0), Stock(1, 0))
    with pytest.raises(IllegalOrders, match="whole turn"):
        move_dump(dump, H("2050"), 10)


def test_11_empty_dump_moves_without_leaving_a_stack() -> None:
    _, left = move_dump(_dump(stock=Stock()), H("2050"), 10)
    assert left is None


def test_11_negative_stock_refused() -> None:
    with pytest.raises(ValueError, match=r"\[11\]"):
        Stock(1, 0) - Stock(2, 0)


@pytest.mark.parametrize(("intention", "posture", "combats", "moved", "stock"), [
    ("attack", "tactical", 1, True, Stock(1, 1)),
    ("breakthrough", "tactical", 2, True, Stock(2, 1)),  # fought twice in the turn
    ("probe", "tactical", 1, True, Stock(0, 1)),  # contact, no attack
    ("move", "non-tactical", 1, True, Stock(0, 1)),  # stops at the enemy, does not attack
    ("hold", "tactical", 0, False, Stock(0, 0)),
    ("prepare", "tactical", 0, True, Stock(0, 1)),  # moving up a short distance
    ("hold", "rest", 0, True, Stock(0, 0)),  # resting units do not move
])
def test_5_11_supplies_used_by_order_and_posture(intention: str, posture: str, combats: int,
                                                 moved: bool, stock: Stock) -> None:
    """A mechanised unit under each intention: ammunition only for attacks it was ordered to
    make, fuel for a turn it moved or fought."""
    a = activity("T", HQ_HEX, mechanised=True, intention=intention, posture=posture,
                 moved=moved, combats=combats)
    assert needs(a) == stock


def test_11_mechanised_unit_attacked_while_holding_burns_fuel_only() -> None:
    a = activity("T", HQ_HEX, mechanised=True, intention="hold", posture="tactical",
                 attacked=True)
    assert needs(a) == Stock(0, 1)
