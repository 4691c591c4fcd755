"""The integrated WestWall Combat Results Table [7.43, 7.61].

The table in our source is an OCR scan; ``pbem/scenario_data/crt.json`` holds our reconstruction
(checked against the worked example of [7.0]: thirteen points attacking four in a Town hex is a differential of +9, read on
the ``+9-11`` column of the Town line, and a die of 5 there gives ``D1``).

Terrain effects on combat are built into the table: each of the four terrain *lines* (``clear``,
``grove``, ``broken``, ``rough``) maps combat differentials onto the same twelve result columns
``c0..c11``, starting at ``c0``. A line for stronger defensive terrain has fewer, lower columns, so
the same differential lands further left, where results favour the defender. Differentials below a
line's first heading use its first column; above ``+12`` use the ``+12`` column [7.61 note].

Everything here is pure and integer-only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from pbem.plain import Plain
from pbem.systems.westwall.model import CrtLine, CrtTable

RESULT_CODES: Final = ("A1", "A2", "Ae", "Br", "D1", "D2", "D3", "D4", "De")
"""Every result the table can give [7.62]."""

# A column heading and the inclusive differential range it covers (None = unbounded).
_Heading = tuple[str, int | None, int | None]

def _bundled() -> tuple[dict[str, tuple[_Heading, ...]], tuple[tuple[str, ...], ...]]:
    """pbem's reconstruction, from the one place it is written: ``pbem/scenario_data/crt.json``
    (the file a player copies to type the printed chart into). Plain JSON, read once per process;
    ``tests/systems/westwall/test_ww_crt.py`` checks it with :func:`problems` and against the worked example [7.0]."""
    import json

    from pbem.engine.scenarios import bundled_text

    data = json.loads(bundled_text("crt.json"))
    lines = {line: tuple((c["heading"], c.get("low"), c.get("high")) for c in cols)
             for line, cols in data["lines"].items()}
    return lines, tuple(tuple(row) for row in data["results"])


_TABLE = _bundled()
LINES: Final[dict[str, tuple[_Heading, ...]]] = _TABLE[0]
RESULTS: Final[tuple[tuple[str, ...], ...]] = _TABLE[1]
"""Column headings of each terrain line, left-aligned on the result columns, and the result by die
(row 0 = die 1) and result column c0..c11 [7.61]."""

LINE_ORDER: Final[tuple[CrtLine, ...]] = ("clear", "grove", "broken", "rough")
"""Lines from least to most favourable to the defender: at any differential a later line reads a
column at or left of an earlier one, and results only get better for the defender leftwards."""


def line_rank(line: CrtLine) -> int:
    """0 for ``clear`` up to 3 for ``rough``; higher favours the defender more [7.44]."""
    return LINE_ORDER.index(line)


def best_line(lines: Iterable[CrtLine]) -> CrtLine:
    """The line most favourable to the defender among ``lines`` [7.44, 7.45]; ``clear`` if empty."""
    best: CrtLine = "clear"
    for line in lines:
        if line_rank(line) > line_rank(best):
            best = line
    return best


class Table(Plain, frozen=True):
    """A Combat Results Table: headings per line, results by die and column."""

    lines: dict[str, tuple[_Heading, ...]]
    results: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, data: CrtTable | None) -> Table:
        """The table a scenario plays with: its own (``crt``), else pbem's reconstruction."""
        if data is None:
            return DEFAULT
        return cls({line: tuple((c.heading, c.low, c.high) for c in cols) for line, cols in data.lines.items()},
                   tuple(tuple(row) for row in data.results))


DEFAULT: Final = Table(dict(LINES), RESULTS)


def problems(data: CrtTable) -> list[str]:
    """Every problem of a replacement table, one line each: each line's headings must cover every
    differential exactly once, left to right, and every column must have a result for each die."""
    out: list[str] = []
    for line in LINE_ORDER:
        cols = data.lines.get(line)
        if not cols:
            out.append(f"crt.lines.{line}: missing (every terrain line needs its headings [7.43])")
            continue
        if cols[0].low is not None:
            out.append(f"crt.lines.{line}: the first column ({cols[0].heading!r}) must cover every "
                       "differential below it (no 'low')")
        if cols[-1].high is not None:
            out.append(f"crt.lines.{line}: the last column ({cols[-1].heading!r}) must cover every "
                       "differential above it (no 'high')")
        for i, (a, b) in enumerate(zip(cols, cols[1:], strict=False)):
            if a.high is None or b.low is None or b.low != a.high + 1:
                out.append(f"crt.lines.{line}: column {i + 2} ({b.heading!r}) must start right after "
                           f"column {i + 1} ({a.heading!r}) ends")
        for c in cols:
            if c.low is not None and c.high is not None and c.low > c.high:
                out.append(f"crt.lines.{line}: column {c.heading!r} runs from {c.low} down to {c.high}")
    if len(data.results) != 6:
        out.append(f"crt.results: {len(data.results)} rows; one per die face 1-6 is needed [7.61]")
    width = max((len(cols) for cols in data.lines.values()), default=0)
    for i, row in enumerate(data.results):
        if len(row) < width:
            out.append(f"crt.results: the row of die {i + 1} has {len(row)} columns; the widest line has {width}")
    return out


def column_index(line: CrtLine, differential: int, table: Table = DEFAULT) -> int:
    """Result column ``c0..c11`` used for ``differential`` on ``line`` [7.61].

    Differentials below the first heading use the first column; above ``+12`` the ``+12`` column."""
    headings = table.lines[line]
    for i, (_, lo, hi) in enumerate(headings):
        if (lo is None or differential >= lo) and (hi is None or differential <= hi):
            return i
    raise AssertionError(f"no column for {differential} on {line}")  # headings cover all ints


def column_heading(line: CrtLine, differential: int, table: Table = DEFAULT) -> str:
    """The printed heading of the column used, e.g. ``"+9-11"``."""
    return table.lines[line][column_index(line, differential, table)][0]


def lookup(line: CrtLine, differential: int, die: int, table: Table = DEFAULT) -> str:
    """The combat result for a differential on a terrain line and a die roll 1..6 [7.61, 7.62]."""
    if not 1 <= die <= 6:
        raise ValueError(f"a die shows 1..6, not {die}")
    return table.results[die - 1][column_index(line, differential, table)]


def retreat_hexes(result: str) -> tuple[int, int]:
    """(defender hexes, attacker hexes) to retreat for a result [7.62]; eliminations are handled
    separately (``Ae``/``De`` give ``(0, 0)``)."""
    table = {
        "A1": (0, 1),
        "A2": (0, 2),
        "Br": (1, 1),
        "D1": (1, 0),
        "D2": (2, 0),
        "D3": (3, 0),
        "D4": (4, 0),
    }
    return table.get(result, (0, 0))
