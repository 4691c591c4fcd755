"""Arnhem 1944's Combat Results Table and Terrain Effects Chart as data [0.2, 6.3, 7.1, 7.4, 7.5].

The rule text (seed 003) names both charts but prints neither. ``scenarios/arnhem1944-crt.json``
and ``scenarios/arnhem1944-tec.json`` hold pbem's RECONSTRUCTION (each file says so in its
``note``); an owner of the printed game can type the printed charts into copies of them and load
those instead (:func:`load_crt`, :func:`load_tec`), checked by :func:`table_problems`.

The CRT file
    ``columns``: odds headings ``"a:b"``, left to right, strictly increasing [7.4];
    ``results``: one grid per attack type ``M``/``N``/``P`` (mobile, normal, prepared [7.1]), six
    rows (die 1 to 6) of one cell per column. A cell is ``"A/D"``: the attacker's and the
    defender's result numbers [7.5], each optionally followed by ``r`` (printed red: at least one
    step loss before any retreat) or, for the defender only, ``g`` (printed green: at least two);
    ``attack_table``: per attack type, how far the attacker may advance along the retreat path
    (``null``: all of it) and the least step losses the attacker's own result costs [7.5, 7.6]
    (the text's "attack table" of page 38, also missing);
    ``bombardment``: the minimum BV:CF ratio [8.1] and the attack type whose grid it reads;
    ``odds_rounding``: ``"attacker"`` as [7.4] says (``"defender"`` if a printed copy says so).

The TEC file
    ``hexes``: cost to enter in half movement points, the column shift a defender there gets
    (negative: towards the defender), and whether it is "wood or built up" for artillery [8.4];
    ``hexsides``: the extra cost to cross (``null``: only over a crossing [12.1]), whether it
    stops zones of control [4.2], forbids attacks across it, shifts or halves attacks across it;
    ``routes``: cost per hex moved along the route; ``crossings``: bridges and ferries;
    ``prepared_position_shift``: the combat modifier of a prepared defensive position [11.2].

Readings: terrain is "integrated" in the printed CRT [6.3, 7.4]; we express it as a column shift
per terrain kind, which is what a terrain line of an integrated table amounts to. The text gives
green minima to the defender only [7.5]; red minima are allowed on either side.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, Literal

from pbem.errors import InputError
from pbem.plain import Plain
from pbem.protocol.record import (
    Bool,
    Int,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    OneOf,
    Record,
    RecordError,
    Str,
    fields_of,
)
from pbem.protocol.record import field as rfield

AttackType = Literal["M", "N", "P"]
ATTACK_TYPES: Final[tuple[AttackType, ...]] = ("M", "N", "P")

CRT_FILE: Final = "arnhem1944-crt.json"
TEC_FILE: Final = "arnhem1944-tec.json"

HEX_KINDS: Final = ("clear", "polder", "woods", "town", "city", "marsh")
HEXSIDE_KINDS: Final = ("river", "canal", "stream")
ROUTE_KINDS: Final = ("road", "railway")
CROSSING_KINDS: Final = ("bridge", "rail-bridge", "ferry")
"""The terrain ids the map and the rules share; every TEC file must define them all."""

MAX_BYTES: Final = 256 * 1024

_RATIO = re.compile(r"^([1-9][0-9]{0,2}):([1-9][0-9]{0,2})$")
_CELL = re.compile(r"^([0-9])(r?)/([0-9])([rg]?)$")




# -- the CRT ---------------------------------------------------------------------------------------


class AttackRow(Record):
    """One line of the attack table [7.1, 7.5, 7.6]."""

    advance: int | None = rfield(Maybe(Int()), description=(
        "Hexes the attacker may advance along the retreat path, the vacated hex "
        "included (null: the whole path) [7.6]"))
    attacker_min_losses: int = rfield(
        Int(ge=0), default=0, description="Least step losses a non-zero attacker result costs [7.5]")
    note: str = rfield(Str(), default="")


class BombardmentRow(Record):
    min_ratio: str = rfield(Str(), description="Least BV:CF ratio allowing a bombardment [8.1]")
    table: AttackType = rfield(OneOf(*ATTACK_TYPES), default="N",
                               description="The attack type grid a bombardment reads")
    note: str = rfield(Str(), default="")


class CrtFile(Record):
    """The Combat Results Table file, as typed."""

    note: str = rfield(Str())
    reconstructed: bool = rfield(Bool())
    odds_rounding: Literal["attacker", "defender"] = rfield(OneOf("attacker", "defender"),
                                                            default="attacker")
    columns: list[str] = rfield(ListOf(Str()))
    results: dict[str, list[list[str]]] = rfield(MapOf(Str(), ListOf(ListOf(Str()))))
    attack_table: dict[str, AttackRow] = rfield(MapOf(Str(), Nested(AttackRow)))
    bombardment: BombardmentRow = rfield(Nested(BombardmentRow))


# -- the TEC ---------------------------------------------------------------------------------------


class HexKind(Record):
    mp_halves: int = rfield(Int(ge=1), description="Half movement points to enter [6.3]")
    combat_shift: int = rfield(Int(), default=0,
                               description="Columns for a defender here; negative favours it")
    wood_or_built_up: bool = rfield(Bool(), default=False,
                                    description="Halves bombardment values [8.4]")
    note: str = rfield(Str(), default="")


class HexsideKind(Record):
    mp_halves: int | None = rfield(Maybe(Int()), description=(
        "Extra half movement points to cross; null: only over a crossing [12.1]"))
    blocks_zoc: bool = rfield(Bool(), default=False, description="No zone of control across it [4.2]")
    attack_prohibited: bool = rfield(Bool(), default=False,
                                     description="No attack across it except over a crossing")
    combat_shift: int = rfield(Int(), default=0,
                               description="Columns when every attacker attacks across it")
    halves_attacker: bool = rfield(Bool(), default=False,
                                   description="Each unit attacking across it is halved")
    note: str = rfield(Str(), default="")


class RouteKind(Record):
    mp_halves: int = rfield(Int(ge=1), description="Half movement points per hex along the route [6.3]")
    note: str = rfield(Str(), default="")


class CrossingKind(Record):
    mp_halves: int | None = rfield(Maybe(Int()), description=(
        "Half movement points to cross; null: the cost of the route it carries"))
    combat_shift: int = rfield(Int(), default=0,
                               description="Columns when every attacker attacks over it [7.3]")
    halves_attacker: bool = rfield(Bool(), default=False,
                                   description="Each unit attacking over it is halved")
    note: str = rfield(Str(), default="")


class TecFile(Record):
    """The Terrain Effects Chart file, as typed."""

    note: str = rfield(Str())
    reconstructed: bool = rfield(Bool())
    hexes: dict[str, HexKind] = rfield(MapOf(Str(), Nested(HexKind)))
    hexsides: dict[str, HexsideKind] = rfield(MapOf(Str(), Nested(HexsideKind)))
    routes: dict[str, RouteKind] = rfield(MapOf(Str(), Nested(RouteKind)))
    crossings: dict[str, CrossingKind] = rfield(MapOf(Str(), Nested(CrossingKind)))
    prepared_position_shift: int = rfield(Int(), default=-1, description=(
        "Columns for a defender in a prepared defensive position [11.2]"))


# -- parsed values -----------------------------------------------------------------------------------


def parse_ratio(text: str) -> Fraction:
    """``"3:2"`` -> ``Fraction(3, 2)``; a :class:`ValueError` names the case [7.4]."""
    m = _RATIO.match(text)
    if not m:
        raise ValueError(f"{text!r} is not an odds ratio such as '3:1' or '1:2' [7.4]")
    return Fraction(int(m.group(1)), int(m.group(2)))


class Result(Plain, frozen=True):
    """One CRT cell [7.5]: each side's result number and the step losses it must take first."""

    attacker: int
    defender: int
    attacker_min: int = 0
    defender_min: int = 0

    @classmethod
    def parse(cls, text: str) -> Result:
        """``"1/2g"``: attacker 1, defender 2 with at least two step losses (green)."""
        m = _CELL.match(text)
        if not m:
            raise ValueError(f"{text!r} is not a result such as '1/2', '0/3r' or '1r/4g' [7.5]")
        a, d = int(m.group(1)), int(m.group(3))
        a_min = 1 if m.group(2) == "r" else 0
        d_min = {"": 0, "r": 1, "g": 2}[m.group(4)]
        if a_min > a or d_min > d:
            raise ValueError(f"{text!r}: a red (g: green) minimum of step losses larger than the "
                             "result itself [7.5]")
        return cls(a, d, a_min, d_min)

    def __str__(self) -> str:
        mark = {0: "", 1: "r", 2: "g"}
        return f"{self.attacker}{mark[self.attacker_min]}/{self.defender}{mark[self.defender_min]}"


class Crt(Plain, frozen=True):
    """The table a game plays with, parsed: columns as exact ratios, cells as :class:`Result`."""

    headings: tuple[str, ...]
    columns: tuple[Fraction, ...]
    results: Mapping[AttackType, tuple[tuple[Result, ...], ...]]
    attack_table: Mapping[AttackType, AttackRow]
    odds_rounding: Literal["attacker", "defender"]
    bombard_min: Fraction
    bombard_table: AttackType
    note: str

    @classmethod
    def of(cls, data: CrtFile) -> Crt:
        """Parse a typed file; raises :class:`InputError` listing every problem."""
        problems = _crt_problems(data)
        if problems:
            raise InputError("; ".join(problems))
        return cls(
            tuple(data.columns),
            tuple(parse_ratio(c) for c in data.columns),
            {t: tuple(tuple(Result.parse(c) for c in row) for row in data.results[t])
             for t in ATTACK_TYPES},
            {t: data.attack_table[t] for t in ATTACK_TYPES},
            data.odds_rounding,
            parse_ratio(data.bombardment.min_ratio),
            data.bombardment.table,
            data.note,
        )

    def lookup(self, attack_type: AttackType, column: int, die: int) -> Result:
        """The cell for a die 1-6 in a column; columns beyond either end read the end column
        (the text gives no odds beyond its table; we clamp, as the shifts of [7.3] may run off)."""
        if not 1 <= die <= 6:
            raise ValueError(f"a die shows 1 to 6, not {die} [7.4]")
        col = min(max(column, 0), len(self.columns) - 1)
        return self.results[attack_type][die - 1][col]


class Tec(Plain, frozen=True):
    """The terrain chart a game plays with."""

    data: TecFile
    zoc_memo: dict[frozenset[str], bool] = field(default_factory=dict, init=False, repr=False,
                                                 compare=False)
    """Hexside features -> :meth:`blocks_zoc`, filled as asked (a few distinct sets a map)."""

    @classmethod
    def of(cls, data: TecFile) -> Tec:
        problems = _tec_problems(data)
        if problems:
            raise InputError("; ".join(problems))
        return cls(data)

    def hex(self, kind: str) -> HexKind:
        try:
            return self.data.hexes[kind]
        except KeyError:
            raise InputError(f"terrain {kind!r} is not on the TEC [6.3]") from None

    def crossing(self, kinds: frozenset[str]) -> CrossingKind | None:
        """The crossing among a hexside's features, if any (the first in TEC order)."""
        for name, c in self.data.crossings.items():
            if name in kinds:
                return c
        return None

    def blocks_zoc(self, kinds: frozenset[str]) -> bool:
        """No zone of control across a hexside with these features [4.2] (a crossing does not
        lift it: the text makes no exception for bridges)."""
        hit = self.zoc_memo.get(kinds)
        if hit is None:
            hexsides = self.data.hexsides
            hit = self.zoc_memo[kinds] = any(k in hexsides and hexsides[k].blocks_zoc for k in kinds)
        return hit

    def passable(self, kinds: frozenset[str]) -> bool:
        """Can a unit cross a hexside with these features [12.1]?"""
        if self.crossing(kinds) is not None:
            return True
        return all(self.data.hexsides[k].mp_halves is not None
                   for k in kinds if k in self.data.hexsides)

    def entry_halves(self, hex_kind: str, side_kinds: frozenset[str] = frozenset(),
                     route: str | None = None) -> int | None:
        """Half movement points to enter a hex of ``hex_kind`` across a hexside with
        ``side_kinds``; ``route``: moving along that route (its cost replaces the terrain's, and
        a crossing carrying it costs nothing more unless it has a cost of its own). ``None``: the
        hexside cannot be crossed [12.1]."""
        if not self.passable(side_kinds):
            return None
        crossing = self.crossing(side_kinds)
        if route is not None:
            if route not in self.data.routes:
                raise InputError(f"route {route!r} is not on the TEC [6.3]")
            cost = self.data.routes[route].mp_halves
            if crossing is not None and crossing.mp_halves is not None:
                cost = max(cost, crossing.mp_halves)
            return cost
        cost = self.hex(hex_kind).mp_halves
        if crossing is not None:
            return cost + (crossing.mp_halves or 0)
        return cost + sum(self.data.hexsides[k].mp_halves or 0
                          for k in side_kinds if k in self.data.hexsides)

    def wood_or_built_up(self, hex_kind: str) -> bool:
        """[8.4]: bombardment values are halved against this terrain."""
        return self.hex(hex_kind).wood_or_built_up


# -- problems ------------------------------------------------------------------------------------------


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _crt_problems(data: CrtFile) -> list[str]:
    out: list[str] = []
    ratios: list[Fraction | None] = []
    for i, heading in enumerate(data.columns):
        try:
            ratios.append(parse_ratio(heading))
        except ValueError as e:
            out.append(f"crt.columns[{i}]: {e}")
            ratios.append(None)
    if not data.columns:
        out.append("crt.columns: no odds columns [7.4]")
    for i in range(1, len(ratios)):
        a, b = ratios[i - 1], ratios[i]
        if a is not None and b is not None and b <= a:
            out.append(f"crt.columns[{i}]: {data.columns[i]!r} does not follow "
                       f"{data.columns[i - 1]!r} in increasing odds [7.4]")
    width = len(data.columns)
    for t in ATTACK_TYPES:
        if t not in data.results:
            out.append(f"crt.results.{t}: missing (one grid per attack type M, N, P [7.1])")
        if t not in data.attack_table:
            out.append(f"crt.attack_table.{t}: missing (one line per attack type [7.1])")
    for name in data.results:
        if name not in ATTACK_TYPES:
            out.append(f"crt.results.{name}: not an attack type (M, N or P [7.1])")
    for name in data.attack_table:
        if name not in ATTACK_TYPES:
            out.append(f"crt.attack_table.{name}: not an attack type (M, N or P [7.1])")
    for name, grid in data.results.items():
        if len(grid) != 6:
            out.append(f"crt.results.{name}: {len(grid)} rows; one per die face 1-6 is needed "
                       "[7.4]")
        for r, row in enumerate(grid):
            if len(row) != width:
                out.append(f"crt.results.{name}[{r}] (die {r + 1}): {len(row)} cells for "
                           f"{width} columns [7.4]")
            for c, cell in enumerate(row):
                try:
                    Result.parse(cell)
                except ValueError as e:
                    out.append(f"crt.results.{name}[{r}][{c}] (die {r + 1}, "
                               f"{data.columns[c] if c < width else 'extra column'}): {e}")
    for name, row_ in data.attack_table.items():
        if row_.advance is not None and row_.advance < 1:
            out.append(f"crt.attack_table.{name}.advance: {row_.advance}; at least the vacated hex "
                       "(1) or null for the whole path [7.6]")
    try:
        parse_ratio(data.bombardment.min_ratio)
    except ValueError as e:
        out.append(f"crt.bombardment.min_ratio: {e} [8.1]")
    return out


def _tec_problems(data: TecFile) -> list[str]:
    out: list[str] = []
    for layer, kinds, table in (("hexes", HEX_KINDS, data.hexes),
                                ("hexsides", HEXSIDE_KINDS, data.hexsides),
                                ("routes", ROUTE_KINDS, data.routes),
                                ("crossings", CROSSING_KINDS, data.crossings)):
        for k in kinds:
            if k not in table:
                out.append(f"tec.{layer}.{k}: missing (the map uses it) [6.3]")
    names: dict[str, str] = {}
    for layer, table_ in (("hexes", data.hexes), ("hexsides", data.hexsides),
                          ("routes", data.routes), ("crossings", data.crossings)):
        for k in table_:
            if k in names:
                out.append(f"tec.{layer}.{k}: also defined under {names[k]}")
            names[k] = layer
    for k in ("river", "canal"):
        side = data.hexsides.get(k)
        if side is not None and not side.blocks_zoc:
            out.append(f"tec.hexsides.{k}.blocks_zoc: must be true (no zone of control across "
                       "rivers or canals [4.2])")
        if side is not None and side.mp_halves is not None:
            out.append(f"tec.hexsides.{k}.mp_halves: must be null (only bridges and ferries cross "
                       "rivers and canals [12.1])")
    for k, side in data.hexsides.items():
        if side.mp_halves is not None and side.mp_halves < 0:
            out.append(f"tec.hexsides.{k}.mp_halves: {side.mp_halves} is negative [6.3]")
    for k, crossing in data.crossings.items():
        if crossing.mp_halves is not None and crossing.mp_halves < 0:
            out.append(f"tec.crossings.{k}.mp_halves: {crossing.mp_halves} is negative [6.3]")
    return out


def table_problems(data: object, kind: Literal["crt", "tec"]) -> list[str]:
    """Every problem of a replacement CRT (``kind="crt"``) or TEC (``"tec"``) file's JSON data,
    each naming the entry (``crt.results.N[2][4] (die 3, 3:1): ...``); empty if it can be used."""
    model: type[CrtFile] | type[TecFile] = CrtFile if kind == "crt" else TecFile
    try:
        parsed = model.parse(data)
    except RecordError as e:
        problems = list(e.problems)
        if isinstance(data, dict) and not data.keys() <= fields_of(model).keys():
            try:  # the values of the fields it knows, too: every problem at once
                model.parse({k: v for k, v in data.items() if k in fields_of(model)})
            except RecordError as known:
                problems += [p for p in known.problems if p not in problems]
        return [f"{kind}.{_where(loc)}: {msg}" if loc else f"{kind}: {msg}" for loc, msg in problems]
    if isinstance(parsed, CrtFile):
        return _crt_problems(parsed)
    return _tec_problems(parsed)


# -- loading -----------------------------------------------------------------------------------------------


def _read(path: Path | None, name: str) -> Any:
    if path is None:
        from pbem.engine.scenarios import bundled_text

        text = bundled_text(name)
    else:
        try:
            if path.stat().st_size > MAX_BYTES:
                raise InputError(f"{path}: larger than {MAX_BYTES} bytes")
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"{path}: cannot be read ({e})") from None
    try:
        return json.loads(text)
    except ValueError as e:
        raise InputError(f"{path or name}: not JSON ({e})") from None


def _checked(data: object, kind: Literal["crt", "tec"], where: str) -> None:
    problems = table_problems(data, kind)
    if problems:
        raise InputError(f"{where}: " + "; ".join(problems))


def load_crt(path: Path | None = None) -> Crt:
    """The CRT in ``path``, else pbem's reconstruction (``scenarios/arnhem1944-crt.json``)."""
    data = _read(path, CRT_FILE)
    _checked(data, "crt", str(path or CRT_FILE))
    return Crt.of(CrtFile.parse(data))


def load_tec(path: Path | None = None) -> Tec:
    """The TEC in ``path``, else pbem's reconstruction (``scenarios/arnhem1944-tec.json``)."""
    data = _read(path, TEC_FILE)
    _checked(data, "tec", str(path or TEC_FILE))
    return Tec.of(TecFile.parse(data))


@functools.cache
def default_crt() -> Crt:
    """pbem's reconstructed CRT, read once."""
    return load_crt()


@functools.cache
def default_tec() -> Tec:
    """pbem's reconstructed TEC, read once."""
    return load_tec()
