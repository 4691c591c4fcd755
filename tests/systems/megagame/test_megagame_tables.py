"""The megagame's tables [seed 004], each at its boundaries."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from pbem.systems.megagame import tables as t


@pytest.mark.parametrize(("tac", "heavy", "die", "expected"), [
    (0, 0, 6, "no effect"),
    (1, 0, 6, "step loss and immobilised"), (2, 0, 5, "immobilised"), (2, 0, 4, "no effect"),
    (3, 0, 6, "step loss and immobilised"), (4, 0, 4, "immobilised"), (4, 0, 3, "no effect"),
    (0, 1, 4, "immobilised"),
    (5, 0, 5, "step loss and immobilised"), (6, 0, 3, "immobilised"), (6, 0, 2, "no effect"),
    (0, 3, 5, "step loss and immobilised"),
    (7, 0, 2, "immobilised"), (8, 0, 1, "no effect"), (0, 5, 5, "step loss and immobilised"),
    (9, 0, 4, "step loss and immobilised"), (12, 0, 3, "immobilised"), (0, 7, 2, "immobilised"),
    (13, 0, 3, "step loss and immobilised"), (0, 8, 2, "immobilised"), (40, 0, 1, "no effect"),
])
def test_interdiction_table(tac: int, heavy: int, die: int, expected: str) -> None:
    assert t.interdiction(tac, heavy, die) == expected


def test_counter_battery_fix_on_a_six_plus_one_a_turn_in_the_same_place() -> None:
    assert not t.counter_battery_fix(5) and t.counter_battery_fix(6)
    assert t.counter_battery_fix(5, turns_same_place=2) and not t.counter_battery_fix(4, 2)
    assert t.counter_battery_fix(3, turns_same_place=4)


@pytest.mark.parametrize(("points", "die", "factors", "arrive"), [
    (10, 6, (), 10), (10, 5, (), 9), (10, 1, (), 5), (10, 2, ("zone contested", "enemy flak"), 1),
    (10, 1, ("zone contested", "enemy fighters"), 0), (6, 6, ("airstrip",), 6),
    (6, 1, ("airstrip with AFDAG",), 6), (4, 3, ("poor terrain",), 2), (1, 1, (), 1),
    (1, 1, ("poor terrain",), 0), (15, 6, (), 15), (15, 1, (), 5 + 3),
])
def test_air_resupply_ready_reckoner(points: int, die: int, factors: tuple[str, ...],
                                     arrive: int) -> None:
    assert t.air_resupply(points, die, factors) == arrive


def test_drops_day_night_and_their_modifiers() -> None:
    assert t.drop(2, 1) == "intact"
    assert t.drop(1, 1) == "permanent status loss"
    assert t.drop(1, 2) == "status loss, recovered later"
    assert t.drop(3, 6, fighters=True) == "status loss, recovered later"  # -2 on the first die
    assert t.drop(3, 3, flak=True) == "permanent status loss"  # -2 on both
    assert t.drop(3, 2, night=True) == "intact"
    assert t.drop(2, 3, night=True) == "status loss, recovered later"
    assert t.drop(3, 3, night=True, enemy_on_dz=True) == "permanent status loss"  # -1 on both
    assert t.glider_poor_terrain(1) and not t.glider_poor_terrain(2)
    assert t.movement_after_landing("morning", False) == 0
    assert t.movement_after_landing("afternoon", False) == Fraction(1, 2)
    assert t.movement_after_landing("morning", True) == Fraction(1, 2)
    assert t.movement_after_landing("afternoon", True) == 0


def test_recce_table() -> None:
    assert t.recce("vehicles moving", 6) == "direction, type and size"
    assert t.recce("vehicles moving", 2) == "enemy spotted"
    assert t.recce("vehicles stationary", 5) == "type"
    assert t.recce("vehicles stationary", 4, crowded=True) == "type"  # +1, more than 3 units
    assert t.recce("supplies stationary", 5) == "enemy spotted"
    assert t.recce("infantry moving", 3) == "enemy spotted"
    assert t.recce("infantry moving", 6, crowded=True) == "direction, type and size"
    assert t.recce("vehicles moving", 6, in_cover=True) == "no report"
    assert t.recce("vehicles moving", 1) == "no report"


@pytest.mark.parametrize(("kind", "target", "die", "expected"), [
    ("heavy", "overflight", 6, "loss"), ("heavy", "overflight", 5, "damage"),
    ("heavy", "overflight", 4, "no effect"),
    ("heavy", "landing within 2 km", 5, "loss"), ("heavy", "landing within 2 km", 3, "damage"),
    ("heavy", "landing within 2 km", 2, "no effect"),
    ("heavy", "landing within 4 km", 6, "loss"), ("heavy", "landing within 4 km", 4, "no effect"),
    ("light", "overflight", 6, "damage"), ("light", "overflight", 5, "no effect"),
    ("light", "landing within 2 km", 5, "loss"), ("light", "landing within 2 km", 4, "damage"),
    ("light", "landing within 2 km", 3, "no effect"), ("light", "landing within 4 km", 6, "damage"),
])
def test_flak_table(kind: str, target: str, die: int, expected: str) -> None:
    assert t.flak(kind, target, die) == expected  # type: ignore[arg-type]


def test_fighter_odds_table_and_losses() -> None:
    assert t.fighters(4, 4, 1).result == "lose"
    assert t.fighters(5, 4, 6).result == "win"
    assert t.fighters(8, 4, 1).result == "lose" and t.fighters(8, 4, 5).result == "win"
    assert t.fighters(12, 4, 3).result == "draw" and t.fighters(12, 4, 4).result == "win"
    assert t.fighters(30, 5, 1).result == "win"  # 6-1 and more
    win = t.fighters(10, 5, 6)  # attacker loses 10% of 5, defender 20% of 10
    assert (win.attacker_losses, win.defender_losses) == (1, 2)
    lose = t.fighters(10, 10, 1)  # attacker loses 20% of 10, defender 10% of 10
    assert (lose.attacker_losses, lose.defender_losses) == (2, 1)
    draw = t.fighters(14, 14, 2)
    assert (draw.attacker_losses, draw.defender_losses) == (1, 1)
    with pytest.raises(ValueError):
        t.fighters(2, 3, 1)


def test_eletis_effectiveness_in_words_never_numbers() -> None:
    low = {t.effectiveness(s) for s in (1, 2)}
    high = {t.effectiveness(s) for s in (6, 7, 10)}
    assert len(low) == 1 and "little offensive power" in low.pop()
    assert len(high) == 1 and "considerable combat power" in high.pop()
    for s in range(0, 11):
        assert not re.search(r"\d", t.effectiveness(s)), s
