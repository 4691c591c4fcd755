"""The megagame's combat procedure [seed 004, "Combat Procedure" and its tables]: the text's worked
example to the letter, and each table at its boundaries."""

from __future__ import annotations

import pytest

from pbem.systems.megagame.combat import (
    Artillery,
    CombatSide,
    CombatUnit,
    Profile,
    air_level,
    artillery_status,
    band,
    resolve,
    score,
)


def test_the_worked_example_2nd_para_bn_at_arnhem_bridge() -> None:
    """Defender: 2 Para Bn (status 6) with 5 AL Atk Bty (2) in a built-up area, a day in position
    (tactical advantage, +1 a unit): 10. Attacker: 20 SS PzGr Bn (6), 9 SS PzJg Abt, Pz Abt and
    PzArtR fighting as infantry (4 each, light infantry), field artillery in effective range (6),
    prepared: 24 - 3 = 21. 21 - 10 + die 2 = +13: Total Success; holding at all costs, the Para Bn
    takes one more step instead of retreating: Para Bn to 3, the battery to 0; each attacking unit
    one step, the artillery none."""
    para = CombatUnit("2 Para", Profile.parse("6-5-4-3-2-1-0"), "infantry", light=True)
    bty = CombatUnit("5 AL Atk Bty", Profile.parse("[2-1-0]"), "antitank")
    defender = CombatSide((para, bty), close_country=True, advantage=1)
    attackers = (
        CombatUnit("20 SS PzGr", Profile.parse("6-5-4-3-2-1-0"), "infantry", mechanised=True),
        CombatUnit("9 SS PzJg", Profile.parse("4-3-2-1-0"), "infantry", light=True),
        CombatUnit("9 SS Pz", Profile.parse("4-3-2-1-0"), "infantry", light=True),
        CombatUnit("9 SS PzArtR", Profile.parse("4-3-2-1-0"), "infantry", light=True),
    )
    guns = (Artillery("9 SS field arty", Profile.parse("6-3-0"), "field", 6.0),)
    attacker = CombatSide(attackers, guns, prepared=True)
    assert score(defender, attacker, attacking=False).value == 10
    assert score(attacker, defender, attacking=True).value == 21
    out = resolve(attacker, defender, 2, hold=["2 Para"])
    assert (out.result, out.band) == (13, "total success")
    assert out.profiles["2 Para"].status == 3
    assert out.profiles["5 AL Atk Bty"].status == 0
    assert {u.id: out.losses[u.id] for u in attackers} == dict.fromkeys(
        (u.id for u in attackers), 1)
    assert out.profiles["9 SS field arty"].status == 6  # supporting artillery takes no loss
    assert "holds at all costs" in out.retreat


@pytest.mark.parametrize(("result", "expected"), [
    (20, "total success"), (12, "total success"), (11, "success"), (8, "success"),
    (7, "limited success"), (5, "limited success"), (4, "confused combat"),
    (-1, "confused combat"), (-2, "attackers badly beaten"), (-9, "attackers badly beaten"),
])
def test_results_table_bands(result: int, expected: str) -> None:
    assert band(result) == expected


@pytest.mark.parametrize(("kind", "squadrons", "level"), [
    ("german-ground-attack", 0, "none"), ("german-ground-attack", 1, "ordinary"),
    ("german-ground-attack", 2, "ordinary"), ("german-ground-attack", 3, "superior"),
    ("german-ground-attack", 5, "superior"), ("german-ground-attack", 6, "overwhelming"),
    ("german-ground-attack", 9, "overwhelming"), ("german-ground-attack", 10, "apocalyptic"),
    ("allied-ground-attack", 1, "ordinary"), ("allied-ground-attack", 2, "superior"),
    ("allied-ground-attack", 3, "superior"), ("allied-ground-attack", 4, "overwhelming"),
    ("allied-ground-attack", 7, "overwhelming"), ("allied-ground-attack", 8, "apocalyptic"),
    ("heavy-bomber", 1, "overwhelming"), ("heavy-bomber", 2, "overwhelming"),
    ("heavy-bomber", 3, "apocalyptic"),
])
def test_air_support_levels_by_squadrons(kind: str, squadrons: int, level: str) -> None:
    assert air_level(kind, squadrons) == level


@pytest.mark.parametrize(("type_", "km", "status"), [
    ("field", 8, 6), ("field", 8.1, 3), ("field", 12, 3), ("field", 12.1, 0),
    ("medium", 12, 6), ("medium", 20, 3), ("medium", 20.5, 0),
    ("rocket", 6, 6), ("rocket", 6.5, 0), ("infantry-gun", 6, 6), ("infantry-gun", 7, 0),
])
def test_artillery_range_full_half_none(type_: str, km: float, status: int) -> None:
    a = Artillery("a", Profile.parse("6-3-0"), type_, km)  # type: ignore[arg-type]
    assert artillery_status(a) == status


def _inf(uid: str, s: int = 4, **kw: object) -> CombatUnit:
    return CombatUnit(uid, Profile((s, s - 1, 0)), "infantry", **kw)  # type: ignore[arg-type]


def _tank(uid: str, s: int = 4) -> CombatUnit:
    return CombatUnit(uid, Profile((s, s - 1, 0)), "armour", mechanised=True)


def test_factors_each_as_the_text_gives_it() -> None:
    none = CombatSide((_inf("x"),))
    tanks = CombatSide((_tank("t"),))
    assert score(CombatSide((_inf("a"), _inf("b")), prepared=False), none,
                 attacking=True).value == 8 - 4  # unprepared: -2 a unit
    assert score(CombatSide((_inf("a"),), close_country=True), tanks,
                 attacking=False).value == 4 + 1  # close country against tanks
    assert score(CombatSide((_inf("a"), _inf("b"))), tanks,
                 attacking=False).value == 8 - 2  # unsupported infantry in the open
    dry = CombatUnit("m", Profile((4, 3, 0)), "armour", mechanised=True, fuel=False)
    assert score(CombatSide((dry,)), none, attacking=True).value == 4 - 1
    moving = CombatUnit("n", Profile((4, 3, 0)), "infantry", non_tactical=True)
    assert score(CombatSide((moving,)), none, attacking=False).value == 4 - 2
    combined = CombatSide((_inf("i", 6), _tank("t", 2)),
                          (Artillery("g", Profile((2, 0)), "field", 3),), prepared=True)
    assert score(combined, none, attacking=True).value == 6 + 2 + 2 + 2  # +1 a unit
    lopsided = CombatSide((_inf("i", 7), _tank("t", 2)),
                          (Artillery("g", Profile((2, 0)), "field", 3),), prepared=True)
    assert score(lopsided, none, attacking=True).value == 7 + 2 + 2  # 7 > 3 x 2: no balance
    assert score(CombatSide((_inf("a"),), air="superior"), none, attacking=True).value == 4 + 6


def test_city_areas_retreat_only_on_a_total_success() -> None:
    attacker = CombatSide((_inf("a", 9),))
    defender = CombatSide((_inf("d", 2),))
    out = resolve(attacker, defender, 1, city=True)  # 9 - 2 + 1 = 8: Success
    assert out.band == "success" and out.retreat.startswith("holds: in a city")
    out = resolve(CombatSide((_inf("a", 9), _inf("b", 9))), defender, 1, city=True)
    assert out.band == "total success" and out.retreat.startswith("retires")


def test_profiles_step_along_and_stop_at_the_end() -> None:
    p = Profile.parse("5-3-2-1-0")
    assert [p.lose(n).status for n in range(7)] == [5, 3, 2, 1, 0, 0, 0]
    assert Profile.parse("[2-1-0]").support_only
    with pytest.raises(ValueError):
        resolve(CombatSide((_inf("a"),)), CombatSide((_inf("d"),)), 7)
