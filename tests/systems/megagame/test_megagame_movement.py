"""The megagame's movement and traffic tables [seed 004, 6-8], at their boundaries."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pbem.systems.megagame import movement as m


@pytest.mark.parametrize(("troops", "ground", "posture", "km"), [
    ("horse-drawn", "open", "tactical", 15), ("horse-drawn", "marsh", "road-column", 30),
    ("mechanised", "close", "tactical", 18), ("mechanised", "open", "non-tactical", 32),
    ("mechanised", "wood-town", "tactical", 18),
    ("tanks", "marsh", "tactical", 8), ("tanks", "marsh", "non-tactical", 18),
    ("tanks", "open", "road-column", 64), ("tanks", "close", "tactical", 18),
    ("motor-towed-artillery", "open", "road-column", 75),
    ("motor-towed-artillery", "open", "tactical", None),
    ("recce", "open", "non-tactical", 35), ("recce", "close", "road-column", 100),
    ("mechanised", "marsh", "tactical", None),
])
def test_maximum_moves(troops: str, ground: str, posture: str, km: int | None) -> None:
    got = m.max_move_km(troops, ground, posture)  # type: ignore[arg-type]
    assert got == (Fraction(km) if km is not None else None)


@pytest.mark.parametrize(("posture", "km"), [("tactical", 15), ("non-tactical", 25), ("road-column", 30)])
def test_6_infantry_and_paras_share_the_horse_drawn_row(posture: str, km: int) -> None:
    # [6]: "Horse drawn All terrain 15 25 30 Possible" with "Infantry & / Paras." below it, the label
    # wrapped as "Mech. or / motorised" is: one row, on any ground
    for ground in ("open", "close", "wood-town", "marsh"):
        assert m.max_move_km("infantry", ground, posture) == km  # type: ignore[arg-type]
        assert m.max_move_km("infantry", ground, posture, moves=m.move_table()) == km  # type: ignore[arg-type]


@pytest.mark.parametrize(("posture", "km"), [("tactical", 8), ("non-tactical", 12), ("road-column", 20)])
def test_6_the_infantry_row_of_rules_version_2(posture: str, km: int) -> None:
    table = m.move_table(shared_infantry_row=False)
    assert m.max_move_km("infantry", "open", posture, moves=table) == km  # type: ignore[arg-type]
    assert m.max_move_km("tanks", "open", posture, moves=table) == m.max_move_km("tanks", "open", posture)  # type: ignore[arg-type]


def test_night_movement_ceiling() -> None:
    assert m.max_move_km("tanks", "open", "tactical", night=True) == 15


def test_river_crossing_and_bridge_classes() -> None:
    assert m.may_cross("infantry", "canal", "none") and not m.may_cross("infantry", "major river",
                                                                        "none")
    assert not m.may_cross("tanks", "canal", "none") and not m.may_cross("mechanised", "minor river",
                                                                         "none")
    assert m.may_cross("recce", "minor river", "none")
    assert m.may_cross("infantry", "major river", "light") and not m.may_cross("tanks", "major river",
                                                                               "light")
    assert m.may_cross("tanks", "major river", "heavy")


def test_traffic_through_a_choke_point() -> None:
    assert m.through_capacity([2, 3, 4, 1], 5) == ([2, 3], [4, 1])  # order kept: no overtaking
    assert m.through_capacity([5], 5) == ([5], [])
    assert m.through_capacity([6], 5) == ([], [6])
    assert m.CAPACITY["bailey bridge"] == (40, 40) and m.CAPACITY["civilian ferry"] == (4, 4)


def test_passing_the_enemy_and_blowing_bridges() -> None:
    assert m.passing_distance_km(woods_or_night=False) == 2
    assert m.passing_distance_km(woods_or_night=True) == 1
    assert m.bridge_blows(1) and not any(m.bridge_blows(d) for d in range(2, 7))
