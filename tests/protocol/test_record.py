"""Plain records (:mod:`pbem.protocol.record`): the archive's bodies read strictly, by hand, without
pydantic [28 item 4]. Each test is a hostile or careless body a modified client could sign."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, ClassVar, Literal

import pytest
from helpers.paths import ROOT

from pbem.protocol import archive
from pbem.protocol.archive import GenesisBody, MoveBody, SideEntry, TurnFile
from pbem.protocol.dsse import parse_envelope
from pbem.protocol.record import (
    Check,
    Const,
    Either,
    Int,
    IntKey,
    ListOf,
    MapOf,
    Maybe,
    Nested,
    Num,
    OneOf,
    Record,
    RecordError,
    Str,
    Tagged,
    TupleOf,
    field,
    json_schema,
    omit_empty,
    omit_none,
)

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"
H = "ab" * 32


def move(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"ds": "pbem/move/v1", "game": "5e1f" * 8, "step": 3, "side": "DE",
                            "answers": H, "reveal": H, "orders": {"moves": []}, "pbem": "0.2.0"}
    body.update(changes)
    return {k: v for k, v in body.items() if v is not ...}


def without_nulls(value: Any) -> Any:
    """A JSON value with every null member dropped (a record lists its absent defaults as null)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def problems(model: type[Any], value: Any) -> list[tuple[str, str]]:
    with pytest.raises(RecordError) as info:
        model.parse(value)
    return [(".".join(map(str, loc)), msg) for loc, msg in info.value.problems]


def test_a_well_formed_move_reads_back_to_the_same_json() -> None:
    body = MoveBody.parse(move())
    assert body.step == 3 and body.orders == {"moves": []}
    assert body.to_json() == move()


@pytest.mark.parametrize(("changes", "where", "fragment"), [
    ({"step": True}, "step", "expected an integer, got a boolean"),  # JSON true is no step number
    ({"step": 3.0}, "step", "expected an integer"),
    ({"step": "3"}, "step", "expected an integer, got a string"),  # no coercion
    ({"step": 0}, "step", "must be 1 <= n <= 9999, got 0"),
    ({"step": 10_000}, "step", "<= 9999"),
    ({"side": "DE\n"}, "side", "does not match"),  # `$` ends the text, not before a newline
    ({"side": "D E"}, "side", "does not match"),
    ({"answers": H.upper()}, "answers", "does not match"),
    ({"ds": "pbem/move/v2"}, "ds", "must be 'pbem/move/v1'"),
    ({"orders": []}, "orders", "expected an object, got a list"),
    ({"pbem": "0.2.0" + "a" * 40}, "pbem", "at most 40 characters"),
    ({"extra": 1}, "extra", "unknown field"),
    ({"reveal": ...}, "reveal", "field required"),
])
def test_a_move_body_out_of_shape_is_refused_naming_the_field(changes: dict[str, Any], where: str,
                                                              fragment: str) -> None:
    found = problems(MoveBody, move(**changes))
    assert len(found) == 1 and found[0][0] == where and fragment in found[0][1], found


def test_nested_problems_name_their_path_and_a_line_holds_four_of_them() -> None:
    with open(EXAMPLE / "genesis.json", "rb") as f:
        env = parse_envelope(f.read(), max_bytes=1 << 20, what="genesis.json")
    value = json.loads(env.body())
    assert without_nulls(GenesisBody.parse(value).to_json()) == without_nulls(value)
    de = value["sides"]["DE"]
    value["sides"]["DE"] = {**de, "nonce": None, "spare": 1}
    assert problems(GenesisBody, value) == [("sides.DE.spare", "unknown field (extra inputs are not permitted)")]
    value["sides"]["DE"] = {**de, "nonce": None}  # a commitment without its nonce: a check across fields
    assert problems(GenesisBody, value) == [("sides.DE", "a side has a nonce exactly when it has a commitment "
                                                         "(an invited side publishes both in its own join)")]
    value["sides"]["DE"] = de
    value.update(game="x", chain_length=1, salted="yes", rules="WestWall", time_control={"hours": 0})
    with pytest.raises(RecordError) as info:
        GenesisBody.parse(value)
    assert [".".join(map(str, p)) for p, _ in info.value.problems] == \
        ["game", "rules", "chain_length", "salted", "time_control.extensions", "time_control.extension_hours"]
    line = info.value.line()
    assert line.startswith("game: does not match ^[0-9a-f]{32}$; rules: ") and line.endswith(" (and 2 more)")
    assert line.count(";") == 3 and "\n" not in line


def test_the_constructor_checks_as_parsing_does() -> None:
    with pytest.raises(RecordError, match="step: must be 1 <= n"):
        MoveBody(**{**move(), "step": 0})
    with pytest.raises(RecordError, match=r"\(top\): a side has a nonce"):
        SideEntry(key="k", fingerprint="SHA256:" + "A" * 43, commitment=H, nonce=None)


def test_a_turn_file_of_the_example_reads_back_to_its_own_bytes() -> None:
    for name in ("turn-0000.json", "turn-0016.json"):
        data = (EXAMPLE / name).read_bytes()
        turn = TurnFile.parse(json.loads(data))
        assert without_nulls(turn.to_json()) == without_nulls(json.loads(data))
        assert turn.state == json.loads(data)["state"]
    value = json.loads((EXAMPLE / "turn-0016.json").read_bytes())
    value["pending"] = [{"side": "DE", "kind": "move"}]
    value["score"] = {"DE": "8"}
    assert problems(TurnFile, value) == [("score.DE", "expected an integer, got a string"),
                                         ("pending.0.label", "field required")]


def test_pbem_schema_describes_every_field_the_record_checks() -> None:
    for body in (archive.GenesisBody, archive.JoinBody, archive.MoveBody, archive.ReceiptBody,
                 archive.TakebackBody, archive.ConsentBody, archive.TurnFile):
        doc = json_schema(body)
        fields = list(body.__dataclass_fields__)
        assert list(doc["properties"]) == fields and doc["additionalProperties"] is False
        assert set(doc["required"]) <= set(fields)
    doc = json_schema(MoveBody)
    assert doc["properties"]["step"] == {"type": "integer", "minimum": 1, "maximum": 9999}
    assert doc["properties"]["ds"] == {"const": "pbem/move/v1", "type": "string"}
    assert doc["required"] == ["ds", "game", "step", "side", "answers", "reveal", "orders"]
    genesis = json_schema(GenesisBody)
    assert genesis["properties"]["sides"]["additionalProperties"] == {"$ref": "#/$defs/SideEntry"}
    assert "nonce" in genesis["$defs"]["SideEntry"]["properties"]


def test_reading_the_archive_imports_no_pydantic() -> None:
    code = ("import sys, pbem.protocol.archive, pbem.protocol.dsse, pbem.engine.replay, pbem.engine.checkpoint; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# -- the checks the rules' own records use (scenarios, states, orders) -------------------------------



class Leg(Record):
    """A leg of a move."""

    kind: str = field(Const("leg"), default="leg")
    to: str = field(Str(r"^\d{4}$"))
    cost: int = field(Int(ge=0), default=0)


class Halt(Record):
    """A halt."""

    kind: str = field(OneOf("halt", "stop"))
    why: str | None = field(Maybe(Str()), default=None, omit=omit_none)


class Plan(Record):
    """A plan with an alias, omissions, a union, a numeric-keyed table and a pair."""

    if_: str | None = field(Maybe(Str()), default=None, alias="if", omit=omit_none)
    steps: list[Leg | Halt] = field(ListOf(Tagged("kind", Leg, Halt), max_length=3), default_factory=list,
                                    omit=omit_empty)
    table: dict[int, str] = field(MapOf(IntKey(ge=1, le=6), Str()), default_factory=dict)
    span: tuple[int, int] = field(TupleOf(Int(), Int()), default=(1, 2))
    odds: float | str = field(Either(Num(ge=0), Str("^even$")), default=0.5)


def test_a_tagged_union_picks_its_record_by_the_tag() -> None:
    plan = Plan.parse({"if": "rain", "steps": [{"kind": "leg", "to": "0101"}, {"kind": "halt"}, {"kind": "stop", "why": "x"}],
                       "table": {"1": "a", "6": "b"}, "span": [3, 4], "odds": "even"})
    assert plan.if_ == "rain" and plan.table == {1: "a", 6: "b"} and plan.span == (3, 4)
    assert [type(s).__name__ for s in plan.steps] == ["Leg", "Halt", "Halt"]
    assert plan.to_json() == {"if": "rain", "steps": [{"kind": "leg", "to": "0101", "cost": 0}, {"kind": "halt"},
                                                      {"kind": "stop", "why": "x"}],
                              "table": {1: "a", 6: "b"}, "span": [3, 4], "odds": "even"}
    assert Plan().to_json() == {"table": {}, "span": [1, 2], "odds": 0.5}  # omitted while empty / None
    assert Plan(odds=0.5, span=(1, 2)).to_json(omit_defaults=True) == {}
    assert Plan.parse({"steps": [{"kind": "leg", "to": "0101", "cost": 0}]}).to_json(omit_defaults=True) == \
        {"steps": [{"to": "0101"}]}  # defaults left out through the nested records too


@pytest.mark.parametrize(("value", "where", "fragment"), [
    ({"steps": [{"kind": "fly"}]}, "steps.0.kind", "must be one of 'leg', 'halt', 'stop'"),
    ({"steps": [{"to": "0101"}]}, "steps.0.kind", "must be one of"),  # the tag is not guessed
    ({"steps": [{"kind": "leg", "to": "0101", "cost": -1}]}, "steps.0.cost", "must be 0 <= n"),
    ({"steps": [{"kind": "halt", "to": "0101"}]}, "steps.0.to", "unknown field"),
    ({"steps": [{"kind": "halt"}] * 4}, "steps", "at most 3 items, got 4"),
    ({"table": {"7": "a"}}, "table.7.[key]", "must be 1 <= n <= 6"),
    ({"table": {"one": "a"}}, "table.one.[key]", "expected an integer, got a string"),
    ({"span": [1]}, "span", "expected 2 items, got 1"),
    ({"span": [1, True]}, "span.1", "expected an integer, got a boolean"),
    ({"odds": -1}, "odds", "must be within 0"),
    ({"odds": True}, "odds", "expected a number, got a boolean"),
    ({"if_": "rain"}, "if_", "unknown field"),  # the JSON name is the alias
])
def test_the_rules_checks_refuse_and_name_the_field(value: dict[str, Any], where: str, fragment: str) -> None:
    found = problems(Plan, value)
    assert found[0][0] == where and fragment in found[0][1], found


@pytest.mark.parametrize("key", ["01", "+1", "-0", "007"])
def test_an_integer_key_in_another_form_than_plain_decimal_is_refused(key: str) -> None:
    # "01" and "1" would read as the same entry, the later silently replacing the earlier
    found = problems(Plan, {"table": {"1": "a", key: "b"}})
    assert found[0][0] == f"table.{key}.[key]" and "plain form" in found[0][1], found


def test_two_keys_that_read_as_one_entry_are_refused_by_the_table() -> None:
    class Loose(Check):  # a key check that, unlike IntKey, reads two spellings as one
        def __call__(self, value: Any, loc: tuple[Any, ...]) -> Any:
            return value.lower()

    with pytest.raises(RecordError, match=r"t\.b\.\[key\]: names the same entry as another key"):
        MapOf(Loose(), Str())({"a": "x", "B": "y", "b": "z"}, ("t",))


def test_the_schema_of_an_integer_key_accepts_exactly_what_the_check_accepts() -> None:
    import re

    pattern = IntKey().schema({})["pattern"]
    for key in ["0", "1", "-3", "123456789", "01", "+1", "-0", "1234567890", "1a", ""]:
        try:
            IntKey()(key, ())
            accepted = True
        except RecordError:
            accepted = False
        assert (re.search(pattern, key) is not None) == accepted, key


def test_replace_copies_unchecked_and_schema_uses_json_names() -> None:
    plan = Plan.parse({"span": [1, 2]})
    moved = plan.replace(span=(5, 6))
    assert moved.span == (5, 6) and plan.span == (1, 2) and moved.table is plan.table
    doc = json_schema(Plan)
    assert list(doc["properties"]) == ["if", "steps", "table", "span", "odds"] and doc["required"] == []
    assert doc["properties"]["steps"]["items"]["oneOf"] == [{"$ref": "#/$defs/Leg"}, {"$ref": "#/$defs/Halt"}]
    assert doc["properties"]["span"]["default"] == [1, 2]


class Counter(Record, frozen=False, slots=False):
    """A record the rules change in place, with a cached value (no slots)."""

    hex: str = field(Str(r"^\d{4}$"))
    steps: int = field(Int(ge=0), default=2)


def test_a_record_class_is_made_without_generated_code_and_behaves_as_a_frozen_dataclass() -> None:
    import dataclasses

    leg = Leg(to="0101")
    assert leg == Leg(to="0101", cost=0) and hash(leg) == hash(Leg(to="0101")) and leg != Leg(to="0102")
    assert repr(leg) == "Leg(kind='leg', to='0101', cost=0)" and Leg.__slots__ == ("kind", "to", "cost")
    assert [f.name for f in dataclasses.fields(Leg)] == ["kind", "to", "cost"]
    assert dataclasses.replace(leg, cost=3).cost == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        leg.cost = 1  # type: ignore[misc]
    with pytest.raises(TypeError, match="missing keyword argument 'to'"):
        Leg()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['too'\]"):
        Leg(to="0101", too=1)  # type: ignore[call-arg]
    unit = Counter(hex="0101")
    unit.steps = 1  # changed in place by the rules
    assert unit.steps == 1 and hasattr(unit, "__dict__")
    with pytest.raises(TypeError, match="unhashable"):
        hash(unit)
    with pytest.raises(TypeError, match="declared with record.field"):
        class Bare(Record):
            x: int = 3


def test_a_hostile_key_or_value_stays_one_short_line() -> None:
    """A key sent from outside is part of the path a refusal names: a line break, an escape
    sequence or ten thousand characters in it must not make the message two lines, paint the
    terminal or flood it; a value is quoted cut, a list or object by its kind only (a list nested
    a thousand deep cannot even be printed)."""
    from pbem.protocol.record import quoted

    evil = "evil\nFAKE: all signatures OK\x1b[2J" + "k" * 10_000
    line = RecordError([(("sides", evil), "unknown field")]).line()
    assert "\n" not in line and "\x1b" not in line and len(line) < 200
    assert line.startswith("sides.evil\\nFAKE: all signatures OK\\x1b[2J") and line.endswith("...: unknown field")
    assert RecordError([(("units", "Ärger-1"), "x")]).line() == "units.Ärger-1: x"  # printable: as written
    deep: Any = "0104"
    for _ in range(2_000):
        deep = [deep]
    assert quoted(deep) == "a list" and quoted({"a": deep}) == "an object"
    assert quoted("x" * 500) == "'" + "x" * 80 + "'..." and quoted("DZ") == "'DZ'" and quoted(None) == "None"


class _Step(Record):
    to: str = field(Str(r"^[0-9]{4}$"))


class _Made(Record, trusted=True):
    """A record only the rules make (as WestWall's events): its constructor does not check."""

    kind: str = field(Const("made"), default="made")
    path: list[str] = field(ListOf(Str(r"^[0-9]{4}$")))
    steps: list[_Step] = field(ListOf(Nested(_Step)), default_factory=list)
    by_turn: dict[int, list[str]] = field(MapOf(IntKey(), ListOf(Str())), default_factory=dict)
    pair: tuple[int, str] | None = field(Maybe(TupleOf(Int(), Str())), default=None)


class _MadeToo(_Made):
    extra: int = field(Int(ge=0), default=0)


class _Holder(Record):
    made: list[_Made] = field(ListOf(Tagged("kind", _Made)))


def test_a_trusted_record_is_read_from_outside_as_strictly_as_any_other() -> None:
    """The rules' own records skip their checks when the rules make them; a hostile turn file's
    copy of one is checked field by field, alone, nested, in a tagged union, in a subclass."""
    for bad, where in (({"path": ["0101x"]}, "path.0"), ({"path": ["0101"], "hex": "0101"}, "hex"),
                       ({"path": "0101"}, "path"), ({}, "path"), ({"path": [], "by_turn": {"x": []}}, "by_turn.x"),
                       ({"path": [], "steps": [{"to": "01"}]}, "steps.0.to"),
                       ({"path": [], "pair": [1, 2]}, "pair.1")):
        with pytest.raises(RecordError) as exc:
            _Made.parse(bad)
        assert exc.value.problems[0][0][: len(where.split("."))] == tuple(
            int(p) if p.isdigit() else p for p in where.split(".")), (bad, exc.value.line())
        with pytest.raises(RecordError):
            _Holder.parse({"made": [{"kind": "made", **bad}]})
    with pytest.raises(RecordError, match="extra"):
        _MadeToo.parse({"path": [], "extra": -1})
    assert _MadeToo._trusted and not _Holder._trusted and not _Step._trusted


def test_a_trusted_record_keeps_what_the_checks_keep_of_valid_values() -> None:
    path, steps = ["0101", "0102"], [_Step(to="0103")]
    made = _Made(path=path, steps=steps, by_turn={1: ["a"]}, pair=(1, "x"))
    read = _Made.parse({"path": path, "steps": [{"to": "0103"}], "by_turn": {"1": ["a"]}, "pair": [1, "x"]})
    assert made == read and made.to_json() == read.to_json()
    assert made.path is not path and made.steps is not steps and type(made.pair) is tuple  # copies, as checked
    assert _Made(path=("0101",)).path == ["0101"]  # a tuple kept as the list the check makes
    assert _Made(path=["nonsense"]).path == ["nonsense"]  # not checked: the rules' own values


@pytest.mark.parametrize(("check", "value"), [
    (Str(r"^a+$"), "aa"), (Int(ge=0), 3), (Num(), 2.5), (Const("x"), "x"), (OneOf("a", "b"), "b"),
    (Maybe(Int()), None), (Maybe(ListOf(Str())), ("a",)), (ListOf(Int(), as_tuple=True), [1, 2]),
    (ListOf(ListOf(Str())), [("a",), ["b"]]), (MapOf(Str(), Int()), {"a": 1}), (MapOf(IntKey(), Str()), {"7": "x"}),
    (TupleOf(Int(), Str()), [1, "x"]), (Nested(_Step), {"to": "0101"}), (Nested(_Step), _Step(to="0101")),
    (Either(Int(), Str()), "3"), (Tagged("kind", _Made), {"kind": "made", "path": []}),
])
def test_kept_is_what_the_check_returns_for_a_valid_value(check: Any, value: Any) -> None:
    checked, kept = check(value, ()), check.kept(value)
    assert kept == checked and type(kept) is type(checked)
    assert (kept is value) == (checked is value)
    built = check.built(value)  # the unchecked build of data pbem's tests checked (a bundled scenario)
    assert built == checked and type(built) is type(checked)
    assert (built is value) == (checked is value)


@pytest.mark.parametrize(("annotation", "classvar"), [
    ("ClassVar[int]", True), ("typing.ClassVar[str]", True), ("int", False), ("list[ClassVar]", False),
    (ClassVar, True), (ClassVar[int], True), (ClassVar[dict[str, int]], True), (int, False), (list[str], False),
    (Literal["a", "b"], False), (dict[str, list[int]] | None, False), (Any, False),
])
def test_a_class_variable_is_told_from_a_field_as_by_its_repr(annotation: Any, classvar: bool) -> None:
    """A record's class variables are not fields, written as a string (``from __future__ import
    annotations``) or not; the test once read the annotation's repr."""
    from pbem.protocol.record import _is_classvar

    text = annotation if isinstance(annotation, str) else repr(annotation)
    assert _is_classvar(annotation) is classvar is text.startswith(("ClassVar", "typing.ClassVar"))


def test_built_does_not_check_a_nested_object_where_kept_does() -> None:
    """``built`` is for data pbem's own tests checked in full (a bundled scenario): a nested
    record's object is built as it stands; ``kept`` (the rules' own values) parses it."""
    assert type(Nested(_Step).built({"to": "nonsense"})) is _Step
    assert ListOf(Nested(_Step)).built([{"to": "nonsense"}])[0].to == "nonsense"
    with pytest.raises(RecordError):
        Nested(_Step).kept({"to": "nonsense"})
