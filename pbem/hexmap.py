"""SPI hex geometry.

Hexes are numbered ``XXYY``: ``XX`` is the column (left to right) and ``YY`` the position down the
column. Hexes are flat-topped and stand in vertical columns; even-numbered columns sit half a hex
lower than odd ones, so ``1317`` and ``1416`` are adjacent (WestWall Bastogne's two town hexes).

Internally a hex is converted to cube coordinates for distance. ``Hex`` is a small immutable value
with a text form: ``Hex.parse("1317")`` and ``str(hex)`` round-trip.

Maps wider or longer than 99 hexes (no SPI map is; our scaling benchmarks are) use six digits,
``XXXYYY``, for every hex beyond column or row 99; hexes within ``0101``-``9999`` always keep the
four-digit form, so the two never collide (a four-digit string is always ``XXYY``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from pbem.errors import InputError


class Hex(NamedTuple):
    """A hex by SPI column and row. Ordering is (column, row), so sorting is deterministic."""

    col: int
    row: int

    @classmethod
    def parse(cls, text: str | Hex) -> Hex:
        """Parse ``"1317"`` (or ``"0431"``); raises :class:`InputError` on anything else."""
        if isinstance(text, Hex):
            return text
        if isinstance(text, str) and text.isascii() and text.isdigit():
            if len(text) == 4:
                return cls(int(text[:2]), int(text[2:]))
            if len(text) == 6 and (int(text[:3]) > 99 or int(text[3:]) > 99):
                return cls(int(text[:3]), int(text[3:]))
        raise InputError(f"not a hex number: {text!r} (expected four digits XXYY, e.g. 1317)")

    def __str__(self) -> str:
        if self.col < 100 and self.row < 100:
            return f"{self.col:02d}{self.row:02d}"
        return f"{self.col:03d}{self.row:03d}"

    def __repr__(self) -> str:
        return f"Hex.parse({str(self)!r})"

    # -- cube coordinates ("even-q" offset: even columns shoved down half a hex) --
    def cube(self) -> tuple[int, int, int]:
        q = self.col
        r = self.row - (self.col + (self.col & 1)) // 2
        return q, r, -q - r

    @classmethod
    def from_cube(cls, q: int, r: int) -> Hex:
        return cls(q, r + (q + (q & 1)) // 2)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes (some may be off any given map), in a fixed order:
        N, NE, SE, S, SW, NW."""
        q, r, _ = self.cube()
        return tuple(
            Hex.from_cube(q + dq, r + dr)
            for dq, dr in ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
        )

    def is_adjacent(self, other: Hex) -> bool:
        return self.distance(other) == 1

    def distance(self, other: Hex) -> int:
        """Hexes between the two, counting the destination but not the origin [8.12]."""
        q1, r1, s1 = self.cube()
        q2, r2, s2 = other.cube()
        return max(abs(q1 - q2), abs(r1 - r2), abs(s1 - s2))

    def within(self, radius: int) -> Iterator[Hex]:
        """Every hex at distance ``<= radius`` (including this one), in (col,row) order."""
        q0, r0, _ = self.cube()
        out = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                out.append(Hex.from_cube(q0 + dq, r0 + dr))
        return iter(sorted(out))


def hexside(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The hexside between two adjacent hexes as an ordered pair (smaller hex first)."""
    if not a.is_adjacent(b):
        raise ValueError(f"{a} and {b} are not adjacent")
    return (a, b) if a < b else (b, a)


def parse_hexside(text: str) -> tuple[Hex, Hex]:
    """Parse ``"1317/1416"`` into a hexside."""
    parts = text.split("/")
    if len(parts) != 2:
        raise InputError(f"not a hexside: {text!r} (expected XXYY/XXYY)")
    a, b = Hex.parse(parts[0]), Hex.parse(parts[1])
    if not a.is_adjacent(b):
        raise InputError(f"not a hexside: {a} and {b} are not adjacent")
    return hexside(a, b)


def hexside_str(side: tuple[Hex, Hex]) -> str:
    return f"{side[0]}/{side[1]}"
