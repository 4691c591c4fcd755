"""Regular expressions compiled on first use (issue 28: start-up) are still held by a test: every
one compiles, a :class:`LazyPattern`'s literal prefix is the start of its pattern, and it answers as
the compiled pattern does; every record's string pattern compiles."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator

import pytest

import pbem
from pbem.lazy_re import LazyPattern
from pbem.protocol import names
from pbem.protocol.record import (
    Check,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    Record,
    RecordError,
    Str,
    TupleOf,
    fields_of,
)

_SKIP = ("pbem.templates.precompiled.",)  # Jinja2's module code, run by its loader, not imported


def _modules() -> list[str]:
    found = []
    for info in pkgutil.walk_packages(pbem.__path__, "pbem."):
        if not info.name.startswith(_SKIP):
            importlib.import_module(info.name)
            found.append(info.name)
    return found


def _lazy_patterns() -> list[tuple[str, LazyPattern]]:
    out = []
    for name in _modules():
        for attr, value in vars(importlib.import_module(name)).items():
            if isinstance(value, LazyPattern):
                out.append((f"{name}.{attr}", value))
    return out


LAZY = _lazy_patterns()

NAMES = [
    "genesis.json", "join-DE.json", "join-.json", "join-DE.json\n", "join-ABCDEFGHIJKLMNOPQ.json",
    "move-0004-DE.json", "move-004-DE.json", "move-0004-DE.json\n", "move-0004-DE-redo1.json",
    "move-0004-DE-redo0.json", "move-0004-DE-redo1000.json", "move-\u0660\u0661\u0662\u0663-DE.json",
    "turn-0016.json", "turn-0016.json.tmp", "turn-16.json", "receipt-0003-US.json", "receipt-0003-US.jso",
    "takeback-0005-DE-1.json", "takeback-0005-DE-0.json", "consent-0005-US-2.json", "consent-0005-US-.json",
    "map-0000.svg", "map-12345.svg", "map-0000-around-1317.svg", "map-0004-DE.svg", "mail-0002.eml",
    "mail-invite-DE.eml", "mail-0002.eml.txt", "derived.sha256", "", "m", "move-", "Move-0004-DE.json",
    ".turn-0003.json.tmp-4711-0", ".turn-0003.json.tmp-4711-", "x.tmp-1-2", "{\"a\": \"\\ud800\"}", "\\uDC00",
    "0123456789abcdef" * 4, "0123456789abcdef" * 4 + "\n", "0123456789ABCDEF" * 4,
]


def test_lazy_patterns_are_found() -> None:
    found = {name for name, _ in LAZY}
    assert {"pbem.protocol.names.MOVE_RE", "pbem.protocol.names.TURN_RE", "pbem.errors._UNSAFE",
            "pbem.protocol.fsutil.TEMP_RE", "pbem.protocol.canonical._SURROGATE_ESCAPE", "pbem.engine.sealed._HEX64"} <= found


@pytest.mark.parametrize(("where", "lazy"), LAZY, ids=[name for name, _ in LAZY])
def test_a_lazy_pattern_compiles_and_its_prefix_starts_it(where: str, lazy: LazyPattern) -> None:
    assert isinstance(lazy.compiled, re.Pattern)
    if lazy.prefix:
        # a literal text right after the anchor: as written (no character a pattern reads
        # specially) or escaped
        plain = not set(lazy.prefix) & set(".^$*+?{}[]\\|()") and lazy.pattern.startswith("^" + lazy.prefix)
        assert plain or lazy.pattern.startswith("^" + re.escape(lazy.prefix)), where


def _groups(m: re.Match[str] | None) -> tuple[str | None, ...] | None:
    return None if m is None else (m.group(0), *m.groups())


@pytest.mark.parametrize(("where", "lazy"), LAZY, ids=[name for name, _ in LAZY])
def test_a_lazy_pattern_answers_as_the_compiled_one(where: str, lazy: LazyPattern) -> None:
    plain = re.compile(lazy.pattern)
    for text in NAMES:
        assert _groups(lazy.match(text)) == _groups(plain.match(text)), (where, text)
        assert _groups(lazy.fullmatch(text)) == _groups(plain.fullmatch(text)), (where, text)
        assert _groups(lazy.search(text)) == _groups(plain.search(text)), (where, text)


def test_the_file_name_patterns_read_what_the_names_write() -> None:
    # by hand: each name function's output is read back by its pattern, the numbers as written
    assert names.MOVE_RE.match(names.move_name(4, "DE")).groups() == ("0004", "DE")  # type: ignore[union-attr]
    assert names.TURN_RE.match(names.turn_name(16)).groups() == ("0016",)  # type: ignore[union-attr]
    assert names.JOIN_RE.match(names.join_name("US")).groups() == ("US",)  # type: ignore[union-attr]
    assert names.RECEIPT_RE.match(names.receipt_name(3, "US")).groups() == ("0003", "US")  # type: ignore[union-attr]
    assert names.REDO_RE.match(names.redo_name(5, "DE", 2)).groups() == ("0005", "DE", "2")  # type: ignore[union-attr]
    assert names.TAKEBACK_RE.match(names.takeback_name(5, "DE", 1)).groups() == ("0005", "DE", "1")  # type: ignore[union-attr]
    assert names.CONSENT_RE.match(names.consent_name(5, "US", 1)).groups() == ("0005", "US", "1")  # type: ignore[union-attr]
    assert names.MAP_RE.fullmatch(names.map_name(7)).groups() == ("0007",)  # type: ignore[union-attr]
    assert names.MOVE_MAIL_RE.fullmatch(names.mail_name(7)).groups() == ("0007",)  # type: ignore[union-attr]
    assert names.MOVE_RE.match(names.redo_name(5, "DE", 2)) is None  # a redo is no first move
    assert names.MAP_RE.fullmatch(names.map_around_name(7, "1317")) is None


def _strs(check: Check, seen: set[type[Record]]) -> Iterator[Str]:
    if isinstance(check, Str):
        yield check
    elif isinstance(check, Maybe):
        yield from _strs(check.inner, seen)
    elif isinstance(check, ListOf):
        yield from _strs(check.item, seen)
    elif isinstance(check, MapOf):
        yield from _strs(check.key, seen)
        yield from _strs(check.value, seen)
    elif isinstance(check, TupleOf):
        for item in check.items:
            yield from _strs(item, seen)
    elif isinstance(check, Nested) and check.cls not in seen:
        seen.add(check.cls)
        for inner in fields_of(check.cls).values():
            yield from _strs(inner, seen)


def _records() -> list[type[Record]]:
    _modules()
    out: list[type[Record]] = []
    todo = [Record]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            out.append(sub)
            todo.append(sub)
    return out


def test_every_record_pattern_compiles_and_is_checked() -> None:
    patterns: dict[str, Str] = {}
    seen: set[type[Record]] = set()
    for cls in _records():
        for check in fields_of(cls).values():
            for s in _strs(check, seen):
                if s.pattern is not None:
                    patterns.setdefault(s.pattern, s)
    assert len(patterns) >= 12  # the archive's, the rules' (ids, hashes, colours, dates...)
    assert r"^SHA256:[A-Za-z0-9+/]{43}$" in patterns  # a key's fingerprint (archive.SideEntry)
    for pattern, s in patterns.items():
        assert s.compiled().pattern == pattern
        assert isinstance(s.compiled(), re.Pattern)


def test_a_string_pattern_is_checked_on_first_use_as_before() -> None:
    s = Str(r"^[A-Z]{2}$")
    assert s._re is None  # nothing compiled until a value is checked
    assert s("DE", ("side",)) == "DE"

    for bad in ("de", "DEU", "DE\n", ""):
        with pytest.raises(RecordError, match="does not match"):
            s(bad, ("side",))
