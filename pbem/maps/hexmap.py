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

_DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Cube steps to the six neighbours, in the documented order N, NE, SE, S, SW, NW."""

# Memo tables (performance only; every entry is what the plain computation gives). Hexes and their
# text forms are immutable values, so entries never go stale; the tables are cleared if a process
# ever meets an absurd number of distinct hexes.
_MEMO_LIMIT = 1 << 21
_PARSED: dict[str, Hex] = {}
_TEXT: dict[tuple[int, int], str] = {}
_NEIGHBOURS: dict[tuple[int, int], tuple[Hex, ...]] = {}


class Hex(NamedTuple):
    """A hex by SPI column and row. Ordering is (column, row), so sorting is deterministic."""

    col: int
    row: int

    @classmethod
    def parse(cls, text: str | Hex) -> Hex:
        """Parse ``"1317"`` (or ``"0431"``); raises :class:`InputError` on anything else."""
        if isinstance(text, Hex):
            return text
        if type(text) is str:
            hit = _PARSED.get(text)
            if hit is not None and cls is Hex:
                return hit
        if isinstance(text, str) and text.isascii() and text.isdigit():
            h: Hex | None = None
            if len(text) == 4:
                h = cls(int(text[:2]), int(text[2:]))
            elif len(text) == 6 and (int(text[:3]) > 99 or int(text[3:]) > 99):
                h = cls(int(text[:3]), int(text[3:]))
            if h is not None:
                if cls is Hex and type(text) is str:
                    if len(_PARSED) > _MEMO_LIMIT:
                        _PARSED.clear()
                    _PARSED[text] = h
                return h
        raise InputError(f"not a hex number: {text!r} (expected four digits XXYY, e.g. 1317)")

    def __str__(self) -> str:
        text = _TEXT.get(self)
        if text is None:
            col, row = self
            if col < 100 and row < 100:
                text = f"{col:02d}{row:02d}"
            else:
                text = f"{col:03d}{row:03d}"
            if len(_TEXT) > _MEMO_LIMIT:
                _TEXT.clear()
            _TEXT[self] = text
        return text

    def __repr__(self) -> str:
        return f"Hex.parse({str(self)!r})"

    # -- cube coordinates ("even-q" offset: even columns shoved down half a hex) --
    def cube(self) -> tuple[int, int, int]:
        q, row = self
        r = row - (q + (q & 1)) // 2
        return q, r, -q - r

    @classmethod
    def from_cube(cls, q: int, r: int) -> Hex:
        return cls(q, r + (q + (q & 1)) // 2)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes (some may be off any given map), in a fixed order:
        N, NE, SE, S, SW, NW."""
        hit = _NEIGHBOURS.get(self)
        if hit is not None:
            return hit
        q, r, _ = self.cube()
        out = tuple(Hex.from_cube(q + dq, r + dr) for dq, dr in _DIRECTIONS)
        if len(_NEIGHBOURS) > _MEMO_LIMIT:
            _NEIGHBOURS.clear()
        _NEIGHBOURS[self] = out
        return out

    def is_adjacent(self, other: Hex) -> bool:
        # distance == 1, without cube coordinates: in the same column the rows differ by one; in a
        # column beside it an odd column touches rows r-1 and r, an even column rows r and r+1.
        c1, r1 = self
        c2, r2 = other
        dc = c2 - c1
        if dc == 0:
            return r2 - r1 == 1 or r1 - r2 == 1
        if dc == 1 or dc == -1:
            dr = r2 - r1
            return dr == 0 or dr == (-1 if c1 & 1 else 1)
        return False

    def distance(self, other: Hex) -> int:
        """Hexes between the two, counting the destination but not the origin [8.12]."""
        c1, r1 = self
        c2, r2 = other
        dq = c1 - c2
        dr = (r1 - (c1 + (c1 & 1)) // 2) - (r2 - (c2 + (c2 & 1)) // 2)
        ds = dq + dr
        if dq < 0:
            dq = -dq
        if dr < 0:
            dr = -dr
        if ds < 0:
            ds = -ds
        return dq if dq >= dr and dq >= ds else (dr if dr >= ds else ds)

    def within(self, radius: int) -> Iterator[Hex]:
        """Every hex at distance ``<= radius`` (including this one), in (col,row) order: column by
        column from the left, each column's rows from the top, so no sort is needed."""
        q0, r0, _ = self.cube()
        out = []
        new = tuple.__new__
        for dq in range(-radius, radius + 1):
            q = q0 + dq
            shift = r0 + (q + (q & 1)) // 2  # from_cube's row of cube r = r0 + dr
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                out.append(new(Hex, (q, shift + dr)))
        return iter(out)


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """The straight line of hexes from ``a`` to ``b``, both included (cube interpolation, nudged
    so that ties always break the same way): for drawing roads and rivers on generated maps."""
    n = a.distance(b)
    if n == 0:
        return [a]
    qa, ra, _ = a.cube()
    qb, rb, _ = b.cube()
    out: list[Hex] = []
    for i in range(n + 1):
        t = i / n
        q = qa + (qb - qa) * t + 1e-6
        r = ra + (rb - ra) * t + 2e-6
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(Hex.from_cube(rq, rr))
    return out


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
