"""Unit types of J. Wallman's Operation Market Garden megagame (seed 004, Annex A "Typical Unit
Status Profiles", with "Unit Status", [7] "Unit Points" and [11] "Supplies"), as data.

Each type has its status profile as the counter prints it (``"6-6-5-4-3-3-0"``; ``"[2-1-0]"`` for a
support unit, whose status counts only beside a unit of at least equal status; ``"(2)-(1)-0"`` for
a defence-only unit), its size in unit points (about 50 vehicles a point: what it costs a bridge's
capacity [7]), its logistic lift (the supply points it can carry [11]), the troop type its moves
are read under [6] and its kind in combat. The table in the scan is badly garbled: the data file
``scenarios/megagame-profiles.json`` (shipped as ``pbem.scenario_data``) says for each row what was
legible and what is RECONSTRUCTED, and a player who owns the printed game may replace it.

:func:`load_profiles` reads it; :func:`profile_problems` names every bad entry (a profile that does
not fall to 0, a status above 10, an armoured kind that does not move as tanks, ...).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, get_args

from pbem.engine.scenarios import bundled_text
from pbem.protocol.record import (
    Bool,
    Int,
    ListOf,
    Maybe,
    Nested,
    OneOf,
    Record,
    RecordError,
    Str,
    field,
)
from pbem.systems.megagame.combat import Kind, Profile
from pbem.systems.megagame.movement import Troops

Nation = Literal["british", "us", "german", "any"]
ArtilleryType = Literal["field", "medium", "rocket", "infantry-gun"]
Reading = Literal["legible", "partly legible", "reconstructed", "added"]
"""How a row came to be: printed and read whole; printed with figures lost (the rest
reconstructed); printed with every figure lost; not in Annex A at all (a type the order of battle
needs)."""

MAX_STATUS = 10
"""Status levels run from 0 to 10 ("Unit Status")."""

MECHANISED_TROOPS: frozenset[str] = frozenset({"mechanised", "tanks", "recce",
                                               "motor-towed-artillery"})
"""Troop types that burn fuel: one fuel point a turn moved or in combat [11]."""

PROFILES_FILE = "megagame-profiles.json"

_TOKEN = re.compile(r"^(\()?(\d{1,2})(\))?$")


# Plain records (pbem.protocol.record): the bundled book is read without pydantic [28].


def _of(literal: Any) -> OneOf:
    return OneOf(*get_args(literal))


class UnitType(Record):
    id: str = field(Str(r"^[a-z0-9-]+$", min_length=1))
    name: str = field(Str(min_length=1), description="Annex A's 'Unit Description'")
    nation: Nation = field(_of(Nation))
    profile: str = field(Str(), description="as printed on the master-map counter")
    size: int = field(Int(ge=0), description="unit points [7]")
    lift: int = field(Int(ge=0), description="logistic lift: supply points carried [11]")
    troops: Troops = field(_of(Troops))
    kind: Kind = field(_of(Kind))
    light: bool = field(Bool(), default=False, description="light infantry, combat note 3")
    artillery: ArtilleryType | None = field(Maybe(_of(ArtilleryType)), default=None,
                                            description="range class when it supports")
    flak: Literal["heavy", "light"] | None = field(Maybe(OneOf("heavy", "light")), default=None)
    reading: Reading = field(_of(Reading))
    note: str = field(Str(), default="")

    @property
    def levels(self) -> tuple[int, ...]:
        """The status levels, undamaged first (raises ``ValueError`` on a bad profile)."""
        return parse_profile(self.profile)[0]

    @property
    def support_only(self) -> bool:
        return parse_profile(self.profile)[1] == "support"

    @property
    def defence_only(self) -> bool:
        return parse_profile(self.profile)[1] == "defence"

    @property
    def mechanised(self) -> bool:
        """Burns a fuel point each turn it moves or fights [11]."""
        return self.troops in MECHANISED_TROOPS

    def combat_profile(self, steps_lost: int = 0) -> Profile:
        """The profile as :mod:`pbem.systems.megagame.combat` uses it, ``steps_lost`` along."""
        levels, mode = parse_profile(self.profile)
        return Profile(levels, 0, mode == "support").lose(steps_lost)


class ProfileBook(Record):
    id: str = field(Str())
    title: str = field(Str())
    reconstructed: str = field(Str(min_length=1))
    types: list[UnitType] = field(ListOf(Nested(UnitType)))

    def get(self, type_id: str) -> UnitType:
        for t in self.types:
            if t.id == type_id:
                return t
        raise KeyError(f"[Annex A] no unit type {type_id!r}")

    def ids(self) -> frozenset[str]:
        return frozenset(t.id for t in self.types)


def parse_profile(text: str) -> tuple[tuple[int, ...], Literal["normal", "support", "defence"]]:
    """``"6-6-5-4-3-3-0"`` -> ((6, 6, 5, 4, 3, 3, 0), "normal"); ``"[6-3-0]"`` -> support only;
    ``"(2)-(1)-0"`` -> defence only (each level that is not 0 in round brackets). Spaces and long
    dashes, as the scan prints them, are allowed."""
    t = text.replace("\u2014", "-").replace("\u2013", "-").replace(" ", "")
    mode: Literal["normal", "support", "defence"] = "normal"
    if t.startswith("[") or t.endswith("]"):
        if not (t.startswith("[") and t.endswith("]")):
            raise ValueError(f"unbalanced square brackets in {text!r}")
        t = t[1:-1]
        mode = "support"
    levels: list[int] = []
    bracketed: list[bool] = []
    for tok in t.split("-"):
        m = _TOKEN.match(tok)
        if m is None or bool(m.group(1)) != bool(m.group(3)):
            raise ValueError(f"{tok!r} in {text!r} is not a status level")
        levels.append(int(m.group(2)))
        bracketed.append(bool(m.group(1)))
    if any(bracketed):
        if mode == "support":
            raise ValueError(f"{text!r} is both support-only and defence-only")
        if not all(b for b, lv in zip(bracketed, levels, strict=True) if lv > 0):
            raise ValueError(f"{text!r}: a defence-only profile brackets every level above 0")
        mode = "defence"
    return tuple(levels), mode


def type_problems(t: UnitType) -> list[str]:
    """What is wrong with one unit type, each naming the type."""
    out: list[str] = []
    name = f"[Annex A] {t.id} ({t.name})"
    try:
        levels, _mode = parse_profile(t.profile)
    except ValueError as e:
        return [f"{name}: {e}"]
    if len(levels) < 2:
        out.append(f"{name}: a profile needs at least an undamaged level and 0")
    if levels[0] > MAX_STATUS:
        out.append(f"{name}: status {levels[0]} is above {MAX_STATUS}")
    if levels[-1] != 0:
        out.append(f"{name}: the profile must end at 0 (no longer an effective unit)")
    if any(b > a for a, b in zip(levels, levels[1:], strict=False)):
        out.append(f"{name}: a step loss never raises the status ({t.profile})")
    if levels[0] == 0 and t.kind != "other":
        out.append(f"{name}: a fighting unit with status 0 when undamaged")
    if t.kind == "armour" and t.troops != "tanks":
        out.append(f"{name}: an armoured kind moves as tanks, not {t.troops}")
    if (t.kind == "artillery") != (t.artillery is not None):
        out.append(f"{name}: artillery, and only artillery, has a range class")
    if t.flak is not None and t.nation != "german":
        out.append(f"{name}: flak units in this game are German")
    if t.light and t.kind in ("armour", "artillery"):
        out.append(f"{name}: light infantry cannot be of kind {t.kind}")
    if t.reading != "legible" and not t.note:
        out.append(f"{name}: a row that is not wholly legible says how it was reconstructed")
    return out


def profile_problems(book: ProfileBook | Mapping[str, Any]) -> list[str]:
    """Every bad entry of a profile book (the bundled one, or one a player supplies), each naming
    the entry; ``[]`` when the book is sound."""
    if not isinstance(book, ProfileBook):
        try:
            book = ProfileBook.parse(book)
        except RecordError as e:
            return [f"[Annex A] {'.'.join(str(p) for p in loc)}: {msg}" for loc, msg in e.problems]
    out: list[str] = []
    seen: set[str] = set()
    for t in book.types:
        if t.id in seen:
            out.append(f"[Annex A] {t.id}: the id is used twice")
        seen.add(t.id)
        out += type_problems(t)
    return out


@cache
def load_profiles(name: str = PROFILES_FILE) -> ProfileBook:
    """The bundled profile book (validated; :func:`profile_problems` says what else is wrong)."""
    return ProfileBook.parse(json.loads(bundled_text(name)))
