"""Bundled scenarios checked once, by these tests, not at every command [28]: a game of a bundled
scenario whose bytes are those listed in :mod:`pbem.engine.scenarios_checked` builds its records
without checking them again (:meth:`pbem.protocol.record.Record.built`). The manifest is held up to date
here (every bundled scenario checked in full, as its files read it and as a game directory's
canonical copy reads it), what the unchecked build makes is held equal to what the checks make, and
a scenario changed by one byte is checked in full."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import ROOT
from helpers.records import same

import pbem.engine.scenarios_checked as manifest
from pbem.engine import gamedir, scenarios
from pbem.engine.gamedir import Game
from pbem.engine.ruleset import get_ruleset
from pbem.errors import InputError
from pbem.protocol.canonical import canonical_bytes, loads_strict
from pbem.protocol.record import (
    Int,
    IntKey,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    OneOf,
    Record,
    Str,
    Tagged,
    TupleOf,
    field,
)
from pbem.systems.westwall import scenario_check
from pbem.systems.westwall.exclusive import parse_special
from pbem.systems.westwall.rules import WestWallRules

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


def test_the_manifest_lists_every_bundled_scenario_as_checked_now() -> None:
    """``python -m pbem.engine.scenarios`` rewrites the manifest when this fails (a bundled scenario
    or one of its map files changed): each scenario is checked in full by its rules, from its files
    and from its canonical bytes, before its hashes are listed."""
    text = scenarios.checked_module_text(scenarios.checked_manifest())
    assert scenarios.CHECKED_MODULE.read_text(encoding="utf-8") == text
    assert set(manifest.CHECKED) == set(scenarios.bundled_ids())


@pytest.mark.parametrize("sid", scenarios.bundled_ids())
def test_the_unchecked_build_is_what_the_checks_make(sid: str) -> None:
    """For every bundled scenario, read from its files and from a game directory's canonical copy:
    the records built unchecked are, field by field and type by type, those the checks make (the
    same scenario :meth:`load_scenario` returns), WestWall's exclusive-rule parameters too."""
    data, files = scenarios.load_bundled(sid)
    content, listed = manifest.CHECKED[sid]
    assert files == listed and scenarios.is_checked(files=files)
    body = canonical_bytes(data)
    assert scenarios.is_checked(content=scenarios.copy_digest(body + b"\n")) and content == scenarios.content_hash(data)
    ruleset = get_ruleset(data["system"])
    for form in (data, loads_strict(body, max_bytes=scenarios.MAX_SCENARIO_BYTES, what=sid)):
        full, unchecked = ruleset.load_scenario(form), ruleset.load_checked_scenario(form)
        assert unchecked is not full and same(unchecked, full)
        assert unchecked.to_json() == full.to_json()
        if isinstance(ruleset, WestWallRules):
            model = ruleset._exclusive(full).special_model
            if model is not None:
                assert same(parse_special(unchecked, model), parse_special(full, model))


class _Leaf(Record):
    kind: str = field(OneOf("leaf"))
    n: int = field(Int(ge=0))


class _Other(Record):
    kind: str = field(OneOf("other"))
    names: tuple[str, ...] = field(ListOf(Str(), as_tuple=True), default_factory=tuple)


class _Tree(Record):
    name: str = field(Str(r"^[a-z]+$"))
    pair: tuple[int, str] = field(TupleOf(Int(), Str()))
    by_turn: dict[int, list[_Leaf]] = field(MapOf(IntKey(), ListOf(Nested(_Leaf))), default_factory=dict)
    maybe: _Leaf | None = field(Maybe(Nested(_Leaf)), default=None)
    parts: list[_Leaf | _Other] = field(ListOf(Tagged("kind", _Leaf, _Other)), default_factory=list)
    tags: tuple[str, ...] = field(ListOf(Str(), as_tuple=True), default_factory=list)


def test_the_unchecked_build_keeps_what_each_kind_of_check_keeps() -> None:
    """Each kind of check a scenario's records use: a tuple from a pair, integer keys from a
    table's strings, nested and tagged records, a default a check turns into a tuple."""
    value = {"name": "oak", "pair": [3, "x"], "by_turn": {"2": [{"kind": "leaf", "n": 1}]},
             "maybe": {"kind": "leaf", "n": 0}, "parts": [{"kind": "other", "names": ["a"]}, {"kind": "leaf", "n": 5}]}
    built, parsed = _Tree.built(value), _Tree.parse(value)
    assert same(built, parsed)
    assert built.by_turn == {2: [_Leaf(kind="leaf", n=1)]} and built.pair == (3, "x") and built.tags == ()
    assert type(built.parts[0].names) is tuple
    assert same(_Tree.built({"name": "elm", "pair": [1, "y"]}), _Tree.parse({"name": "elm", "pair": [1, "y"]}))


def _bundled_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: bytes, new: bytes) -> Path:
    """The bundled scenarios copied to ``tmp_path`` and read from there, ``bastogne-spearhead.json``
    with ``old`` replaced by ``new`` (once)."""
    data_dir = tmp_path / "scenario_data"
    shutil.copytree(scenarios.bundled_dir(), data_dir)
    path = data_dir / "bastogne-spearhead.json"
    raw = path.read_bytes()
    assert raw.count(old) >= 1
    path.write_bytes(raw.replace(old, new, 1))
    monkeypatch.setattr(scenarios, "_BUNDLED_DIR", data_dir)
    return path


def _count_full_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    full = scenario_check.checked_scenario

    def counted(data: Any) -> Any:
        calls.append(1)
        return full(data)

    monkeypatch.setattr(scenario_check, "checked_scenario", counted)
    return calls


def test_a_bundled_file_changed_by_one_byte_is_checked_in_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One byte more in a bundled file -- a space, the same merged data and content hash -- and the
    files are no longer those the tests checked: the scenario goes through the full check. One byte
    changed so that the scenario is unsound (a side no scenario has moves first): refused by it."""
    calls = _count_full_checks(monkeypatch)
    _, files = scenarios.load_bundled("bastogne-spearhead")
    # each load under a digest of its own: a test's memo of scenarios (tests/conftest.py) keeps none
    gamedir.load_scenario(*scenarios.load_bundled("bastogne-spearhead")[:1], "a", checked=scenarios.is_checked(files=files))
    assert calls == []

    _bundled_copy(tmp_path, monkeypatch, b'"first_player"', b' "first_player"')
    data, files = scenarios.load_bundled("bastogne-spearhead")
    assert not scenarios.is_checked(files=files) and scenarios.content_hash(data) == manifest.CHECKED["bastogne-spearhead"][0]
    gamedir.load_scenario(data, "b", checked=scenarios.is_checked(files=files))
    assert calls == [1]

    _bundled_copy(tmp_path / "2", monkeypatch, b'"first_player": "DE"', b'"first_player": "DX"')
    data, files = scenarios.load_bundled("bastogne-spearhead")
    assert not scenarios.is_checked(files=files)
    with pytest.raises(InputError, match="first_player"):
        gamedir.load_scenario(data, "c", checked=scenarios.is_checked(files=files))


def test_a_game_copy_is_trusted_only_with_the_checked_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example's ``scenario.json`` is the canonical copy of a bundled scenario: opened without
    checking it again, to the scenario the full check makes. Its bytes are compared with the
    genesis before anything else (one byte changed: refused); a copy whose bytes are not a checked
    scenario's (here: the manifest without it) is checked in full."""
    calls = _count_full_checks(monkeypatch)
    with gamedir.scenario_memo():  # a memo of its own: the test's (tests/conftest.py) may hold the scenario
        game = Game.open(EXAMPLE)
    assert calls == []
    monkeypatch.setattr(manifest, "CHECKED", {})
    with gamedir.scenario_memo():
        again = Game.open(EXAMPLE)
    assert calls == [1] and same(game.scenario, again.scenario)

    copy = tmp_path / "game"
    shutil.copytree(EXAMPLE, copy)
    raw = (copy / "scenario.json").read_bytes()
    (copy / "scenario.json").write_bytes(raw.replace(b'"first_player":"DE"', b'"first_player":"DX"', 1))
    with pytest.raises(gamedir.Bad, match="content hash"):
        Game.open(copy)
