"""The megagame's movement and traffic tables (seed 004, sections 6-8): the absolute maximum move
by troop type, ground and posture, who may cross rivers off the bridges, bridge classes, traffic
capacity of crossings and choke points in unit points per phase, passing by the enemy, night
movement, and the die for blowing a bridge. Pure data and functions.

Readings of the OCR'd table: the night-movement ceiling is printed as a garbled fraction: read as
one half of the maximum. The row label "Infantry & Paras." stands on the lines below "Horse drawn
All terrain 15 25 30 Possible" with no numbers of its own: in rules version 3 the label wraps over
those lines exactly as "Mech. or / motorised" and "Tanks or / SPGs" do, so infantry and paratroops
share the horse-drawn row, 15 / 25 / 30 km (:data:`MAX_MOVE_KM`); rules version 2 read the row as
lost and reconstructed it as 8 / 12 / 20 km (:data:`MAX_MOVE_KM_2`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Literal

Troops = Literal["horse-drawn", "infantry", "mechanised", "tanks", "motor-towed-artillery", "recce"]
Ground = Literal["open", "close", "wood-town", "marsh", "all"]
Posture = Literal["tactical", "non-tactical", "road-column"]

MoveTable = Mapping[str, Mapping[str, tuple[int | None, int | None, int | None]]]
"""troops -> ground -> (tactical, non-tactical, road column) km; None: not allowed."""

MAX_MOVE_KM: MoveTable = {
    "horse-drawn": {"all": (15, 25, 30)},
    # [6] "Horse drawn All terrain 15 25 30 Possible / Infantry & / Paras.": the label wraps over
    # two lines as "Mech. or / motorised" does -- one row for horse-drawn troops, infantry and paras
    "infantry": {"all": (15, 25, 30)},
    "mechanised": {"close": (18, 28, 64), "open": (30, 32, 64)},
    "tanks": {"wood-town": (18, 28, 64), "marsh": (8, 18, 64), "open": (30, 32, 64)},
    "motor-towed-artillery": {"all": (None, None, 75)},
    "recce": {"close": (18, 28, 100), "open": (30, 35, 100)},
}
CROSSES_RIVERS_OFF_BRIDGES: dict[str, bool] = {
    "horse-drawn": True, "infantry": True, "mechanised": False, "tanks": False,
    "motor-towed-artillery": False, "recce": True,
}
"""'River crossing: possible/impossible': who may cross canals and minor rivers without a marked
bridge (never a major river)."""

CAPACITY: dict[str, tuple[int, int]] = {
    "civilian ferry": (4, 4),
    "main road bridge": (0, 120),
    "minor road bridge": (20, 50),
    "bailey bridge": (40, 40),
    "rail bridge": (15, 25),
    "light military bridge": (5, 25),
    "military ferry": (5, 5),
    "town with crowds": (50, 50),
    "main road, double lane": (0, 120),
    "main road, single lane": (0, 60),
}
"""Unit points a phase through a crossing or choke point: (low, high) of the text's guide (the map
gives each one its own value within it)."""


MAX_MOVE_KM_2: MoveTable = {**MAX_MOVE_KM, "infantry": {"all": (8, 12, 20)}}
"""The table of rules version 2: the infantry row read as lost and reconstructed as 8 / 12 / 20 km."""


def move_table(*, shared_infantry_row: bool = True) -> MoveTable:
    """The movement table a rules version plays [6]: :data:`MAX_MOVE_KM` (version 3: infantry and
    paratroops on the horse-drawn row) or :data:`MAX_MOVE_KM_2`."""
    return MAX_MOVE_KM if shared_infantry_row else MAX_MOVE_KM_2


def max_move_km(troops: Troops, ground: Ground, posture: Posture, *, night: bool = False,
                moves: MoveTable = MAX_MOVE_KM) -> Fraction | None:
    """The uninterrupted maximum move in km, ``None`` when the move is not allowed; ``moves``: the
    table of the rules version played (:func:`move_table`)."""
    table = moves[troops]
    row = table.get(ground) or table.get("all")
    if row is None and ground == "close":
        row = table.get("wood-town")
    if row is None and ground == "wood-town":
        row = table.get("close")
    if row is None:
        return None
    value = row[("tactical", "non-tactical", "road-column").index(posture)]
    if value is None:
        return None
    return Fraction(value, 2) if night else Fraction(value)


def km_text(km: Fraction) -> str:
    """A distance for a message: ``7.5``, ``4`` (never ``15/2``)."""
    return str(km.numerator) if km.denominator == 1 else f"{float(km):g}"


def may_cross(troops: Troops, water: Literal["canal", "minor river", "major river"],
              bridge: Literal["none", "light", "heavy"]) -> bool:
    """Crossing water: on a heavy bridge or ferry anyone; on a light one (class 9) only infantry and
    transport, never tanks or vehicles that need class 40; without a marked bridge only the troops
    that may cross off the bridges, and never a major river."""
    if bridge == "heavy":
        return True
    if bridge == "light":
        return troops in ("infantry", "horse-drawn", "motor-towed-artillery", "recce")
    return water != "major river" and CROSSES_RIVERS_OFF_BRIDGES[troops]


def through_capacity(unit_points: list[int], capacity: int) -> tuple[list[int], list[int]]:
    """Which units (their unit points, in the order they arrive) pass a choke point this phase,
    and which wait: each passes whole while the capacity lasts."""
    passed: list[int] = []
    waiting: list[int] = []
    left = capacity
    for p in unit_points:
        if not waiting and p <= left:
            passed.append(p)
            left -= p
        else:
            waiting.append(p)
    return passed, waiting


def passing_distance_km(*, woods_or_night: bool) -> int:
    """How close a unit may pass an enemy unit before it is stopped as if it had run into it: 2 km
    in the open, 1 km through woods or at night."""
    return 1 if woods_or_night else 2


def bridge_blows(die: int) -> bool:
    """A bridge fought over (or tested at Control's discretion) blows on a 1 [8]."""
    return die == 1
