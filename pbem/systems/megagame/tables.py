"""The megagame's other tables (seed 004): interdiction and counter-battery, air resupply, parachute
and glider drops, movement after landing, air recce, flak, fighter against fighter, and the words
of an ELETIS report for a unit's effectiveness. Pure functions of the numbers the umpire's
adjudication supplies and of the dice; nothing here rolls.

Readings of the OCR'd tables (each also said where it is used):

* interdiction: the fifth row's force is printed "10-12" after "7-8": read as 9-12, and the last
  row "12+" as 13+ (so that every force has a row); with both tactical and heavy squadrons the
  row is the higher of the two;
* air resupply: the columns are the modified roll 6+, 5, 4, ... -4 (or less); a drop of more than
  ten supply points is resolved in lots of ten and a remainder;
* movement after landing: the two night/afternoon fractions are printed as a garbled symbol; read
  as one half;
* flak: the heavy-flak row reads Loss 6 / Damage 5 / no effect 1-4 on an overflight, 5-6 / 3-4 /
  1-2 within 2 km of a landing, 6 / 5 / 1-4 within 4 km; light flak never causes a Loss on an
  overflight or within 4 km;
* fighters: the odds are the larger number of squadrons to the smaller, rounded down, 6-1 and
  more in the last column; losses are rounded to the nearest squadron, halves up.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pbem.plain import Plain

# -- interdiction and counter-battery ---------------------------------------------------------------

InterdictionResult = Literal["step loss and immobilised", "immobilised", "no effect"]

# (lowest tactical squadrons or artillery battalions, lowest heavy squadrons or None,
#  lowest die for a step loss, lowest die for immobilised)
_INTERDICTION: list[tuple[int, int | None, int, int]] = [
    (1, None, 6, 5),
    (3, 1, 6, 4),
    (5, 2, 5, 3),
    (7, 4, 5, 2),
    (9, 6, 4, 2),
    (13, 8, 3, 2),
]


def interdiction_row(tactical: int = 0, heavy: int = 0) -> int | None:
    """Row (0-5) of the interdiction table for the force used on one map square, ``None`` when
    there is no force."""
    row: int | None = None
    for i, (t_low, h_low, _s, _i) in enumerate(_INTERDICTION):
        if tactical >= t_low or (h_low is not None and heavy >= h_low):
            row = i
    return row


def interdiction(tactical: int, heavy: int, die: int) -> InterdictionResult:
    """One unit in an interdicted square, one die."""
    row = interdiction_row(tactical, heavy)
    if row is None:
        return "no effect"
    _t, _h, step, immob = _INTERDICTION[row]
    if die >= step:
        return "step loss and immobilised"
    if die >= immob:
        return "immobilised"
    return "no effect"


def counter_battery_fix(die: int, turns_same_place: int = 1) -> bool:
    """Counter-battery: a 6 fixes the enemy battery, +1 for every turn after the first that it has
    fired from the same place; the fix is then resolved on the interdiction table."""
    return die + max(0, turns_same_place - 1) >= 6


# -- air resupply -----------------------------------------------------------------------------------

_RESUPPLY: dict[int, tuple[int, ...]] = {  # points dropped -> delivered for 6+, 5, ..., -4
    10: (10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
    9: (9, 8, 7, 6, 6, 5, 4, 3, 2, 1, 0),
    8: (8, 7, 6, 6, 5, 4, 3, 2, 2, 1, 0),
    7: (7, 6, 6, 5, 4, 4, 3, 2, 1, 1, 0),
    6: (6, 5, 5, 4, 4, 3, 2, 2, 1, 1, 0),
    5: (5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0),
    4: (4, 4, 3, 3, 2, 2, 2, 1, 1, 0, 0),
    3: (3, 3, 2, 2, 2, 2, 1, 1, 1, 0, 0),
    2: (2, 2, 2, 1, 1, 1, 1, 1, 0, 0, 0),
    1: (1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0),
}
RESUPPLY_FACTORS: dict[str, int] = {
    "poor terrain": -1,
    "zone contested": -3,
    "airstrip": 2,
    "airstrip with AFDAG": 5,
    "enemy fighters": -3,
    "enemy flak": -2,
}


def air_resupply(points: int, die: int, factors: tuple[str, ...] = ()) -> int:
    """Supply points that arrive of ``points`` dropped, with the die and the factors that apply."""
    roll = die + sum(RESUPPLY_FACTORS[f] for f in factors)
    col = min(10, max(0, 6 - roll))
    delivered = 0
    left = points
    while left > 0:
        lot = min(10, left)
        delivered += _RESUPPLY[lot][col]
        left -= lot
    return delivered


# -- drops ------------------------------------------------------------------------------------------

DropResult = Literal["intact", "status loss, recovered later", "permanent status loss"]


def drop(first_die: int, second_die: int, *, night: bool = False, fighters: bool = False,
         flak: bool = False, enemy_on_dz: bool = False) -> DropResult:
    """One unit delivered by parachute or glider: the first die for a loss, the second for it to
    be permanent (day: 1; night: 1 or 2; modified as the text says)."""
    worst = 2 if night else 1
    both = (-1 if night else -2) * (int(flak) + int(enemy_on_dz))
    first = first_die + both + (-2 if fighters and not night else 0)
    if first > worst:
        return "intact"
    second = second_die + both
    return "permanent status loss" if second <= worst else "status loss, recovered later"


def glider_poor_terrain(die: int) -> bool:
    """A glider unit landing on marsh or polder: a 1 is a permanent status loss."""
    return die == 1


def movement_after_landing(time: Literal["morning", "afternoon"], night: bool) -> Fraction:
    """Share of a full move allowed in the turn of the drop."""
    if not night:
        return Fraction(0) if time == "morning" else Fraction(1, 2)
    return Fraction(1, 2) if time == "morning" else Fraction(0)


# -- recce ------------------------------------------------------------------------------------------

ReconTarget = Literal["vehicles moving", "vehicles stationary", "supplies stationary",
                      "infantry moving"]
_RECCE: dict[int, tuple[str, str, str, str]] = {
    6: ("direction, type and size", "type and size", "type", "direction, type and size"),
    5: ("direction and type", "type", "enemy spotted", "direction and type"),
    4: ("direction", "enemy spotted", "no report", "enemy spotted"),
    3: ("direction", "no report", "no report", "enemy spotted"),
    2: ("enemy spotted", "no report", "no report", "no report"),
    1: ("no report", "no report", "no report", "no report"),
}
_TARGETS: tuple[ReconTarget, ...] = ("vehicles moving", "vehicles stationary",
                                     "supplies stationary", "infantry moving")


def recce(target: ReconTarget, die: int, *, crowded: bool = False, in_cover: bool = False) -> str:
    """What a recce squadron reports of a target in the open (+1 with more than three units in
    the grid square); units in cover are not seen (armour and mechanised units in built-up areas
    are not in cover)."""
    if in_cover:
        return "no report"
    roll = min(6, die + (1 if crowded else 0))
    return _RECCE[roll][_TARGETS.index(target)]


# -- flak -------------------------------------------------------------------------------------------

FlakResult = Literal["loss", "damage", "no effect"]
# (lowest die for a loss or None, lowest die for damage)
_FLAK: dict[tuple[str, str], tuple[int | None, int]] = {
    ("heavy", "overflight"): (6, 5),
    ("heavy", "landing within 2 km"): (5, 3),
    ("heavy", "landing within 4 km"): (6, 5),
    ("light", "overflight"): (None, 6),
    ("light", "landing within 2 km"): (5, 4),
    ("light", "landing within 4 km"): (None, 6),
}


def flak(kind: Literal["heavy", "light"],
         target: Literal["overflight", "landing within 2 km", "landing within 4 km"],
         die: int) -> FlakResult:
    """One die per target air serial (not against fighters)."""
    loss, dam = _FLAK[(kind, target)]
    if loss is not None and die >= loss:
        return "loss"
    if die >= dam:
        return "damage"
    return "no effect"


# -- fighter against fighter ------------------------------------------------------------------------

_FIGHTERS: dict[int, tuple[str, str, str, str, str, str]] = {
    1: ("lose", "lose", "draw", "draw", "draw", "win"),
    2: ("draw", "draw", "draw", "draw", "win", "win"),
    3: ("draw", "draw", "draw", "win", "win", "win"),
    4: ("draw", "draw", "win", "win", "win", "win"),
    5: ("draw", "win", "win", "win", "win", "win"),
    6: ("win", "win", "win", "win", "win", "win"),
}


class AirCombat(Plain, frozen=True):
    result: Literal["win", "draw", "lose"]
    attacker_losses: int
    defender_losses: int


def _round_half_up(x: Fraction) -> int:
    return int(x + Fraction(1, 2))


def fighters(attacker: int, defender: int, die: int) -> AirCombat:
    """The side with more squadrons attacks and rolls; ``attacker >= defender``."""
    if attacker < defender or defender <= 0:
        raise ValueError("the attacker is the side with more squadrons, against at least one")
    odds = min(6, attacker // defender)
    result = _FIGHTERS[die][odds - 1]
    tenth, fifth = Fraction(1, 10), Fraction(1, 5)
    if result == "win":
        a, d = defender * tenth, attacker * fifth
    elif result == "draw":
        a, d = defender * tenth, attacker * tenth
    else:
        a, d = defender * fifth, attacker * tenth
    return AirCombat(result, _round_half_up(a), _round_half_up(d))  # type: ignore[arg-type]


# -- ELETIS: effectiveness in words -----------------------------------------------------------------

def effectiveness(status: int) -> str:
    """How a team hears of its unit's combat power (ELETIS "Effectiveness"): words only, never
    the status number. Below 3: low offensive power; over 5: considerable combat power."""
    if status <= 0:
        return "no longer an effective fighting unit"
    if status < 3:
        return "badly worn: little offensive power left, fit to hold at best"
    if status <= 5:
        return "battered but in good order: capable of limited offensive action"
    return "in good heart: considerable combat power, fully capable of further offensive action"
