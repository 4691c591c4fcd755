"""Plain records: the archive's bodies and the rules' data as frozen, slotted classes, each field checked by hand.

Every command reads signed files, and most read nothing else: what they are once read must cost
little to make and nothing to import. A record is a dataclass whose fields each carry a *check*
(:func:`field`): the rule its value must satisfy, written once and used both ways -- to check a
value read from outside (:meth:`Record.parse`, strictly: no coercion, unknown keys refused) or
built in code (the constructor checks the same), and to describe the field in JSON Schema
(:func:`json_schema`, for ``pbem schema``). A problem is a :class:`RecordError` listing each
field at fault by its path (``sides.DE.nonce: ...``); :meth:`RecordError.line` is one line of
the first few.

This replaces pydantic models on the commands' paths (issue 28: pydantic's import and its first
model cost a player command about 150 ms, twice the whole floor of ``pbem verify``): the archive,
the shared map and every system's scenarios, states, orders and events are records.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self, dataclass_transform, get_origin

Loc = tuple[str | int, ...]


class RecordError(ValueError):
    """Values that do not fit a record: ``problems`` is a list of (path, what is wrong)."""

    def __init__(self, problems: list[tuple[Loc, str]]) -> None:
        self.problems = problems
        super().__init__(self.line())

    def line(self, limit: int = 4) -> str:
        """The first ``limit`` problems on one line, ``path: what``; ``(top)`` for the record. A
        path's part that came from outside (a key) is shown escaped and cut when it holds a line
        break, a control character or more than 80 characters: one line, whatever was sent."""
        parts = [f"{'.'.join(_part(p) for p in loc) or '(top)'}: {msg}" for loc, msg in self.problems[:limit]]
        more = len(self.problems) - limit
        return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _part(p: str | int) -> str:
    text = str(p)
    return text if len(text) <= 80 and text.isprintable() else ascii(text[:80])[1:-1] + ("..." if len(text) > 80 else "")


def quoted(value: Any) -> str:
    """A value from outside as an error message may quote it: a string ``repr``'d and cut to 80
    characters, escaped; any other value by its kind (a list or an object is never printed whole:
    it may be huge or nested a thousand deep)."""
    if isinstance(value, str):
        return ascii(value[:80]) + ("..." if len(value) > 80 else "")
    if isinstance(value, bool | int | float) or value is None:
        return repr(value)[:80]
    return _kind(value)


class Check:
    """A rule a value must meet. :meth:`__call__` returns the value to keep (a nested record
    parsed from its object) or raises :class:`RecordError`; :meth:`schema` describes it;
    :meth:`kept` is what it keeps of a value the rules made, unchecked (a trusted record's
    constructor)."""

    same: ClassVar[bool] = False
    """The check keeps a valid value itself (no copy, no conversion): :meth:`kept` is the value.
    Not inherited by a subclass that checks in its own way (its own ``__call__``) unless it says so."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__call__" in cls.__dict__ and "same" not in cls.__dict__:
            cls.same = False

    def __call__(self, value: Any, loc: Loc) -> Any:
        raise NotImplementedError

    def kept(self, value: Any) -> Any:
        """What :meth:`__call__` keeps of ``value``, without checking it: the same object for a
        check that keeps a valid value itself, the same copy (a list of the items' values, a nested
        record parsed from its object) otherwise. For the rules' own values only (a trusted
        record, :class:`Record`): a value from outside is checked. By default, the check itself."""
        return self(value, ())

    def built(self, value: Any) -> Any:
        """What :meth:`__call__` keeps of ``value``, a valid JSON value of data pbem's own tests
        checked in full (a bundled scenario: :meth:`Record.built`), without checking it: as
        :meth:`kept`, and a nested record's object built unchecked too. Never for input from outside."""
        return value if self.same else self.kept(value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError


def _fail(loc: Loc, msg: str) -> RecordError:
    return RecordError([(loc, msg)])


def _kind(value: Any) -> str:
    """What a wrong value is, in JSON's words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


class Str(Check):
    """A string; ``pattern`` (searched, anchor it), ``max_length`` in characters."""

    same = True

    def __init__(self, pattern: str | None = None, max_length: int | None = None, min_length: int = 0) -> None:
        self.pattern = pattern
        self.max_length = max_length
        self.min_length = min_length
        self._re: re.Pattern[str] | None = None
        """``pattern`` compiled, on the first value checked (:meth:`compiled`): most of a command's
        records never meet a value of most of their patterns, and compiling one costs about half a
        million instructions (tests/protocol/test_lazy_re.py compiles every record's)."""
        # ``$`` ends the text, as in the JSON Schema's (and pydantic's) regular expressions, not
        # before a final newline as Python's would let it: "DE\n" is no side name
        self._to_end = pattern is not None and pattern.endswith("$") and not pattern.endswith("\\$")

    def __call__(self, value: Any, loc: Loc) -> Any:
        if type(value) is not str:
            raise _fail(loc, f"expected a string, got {_kind(value)}")
        if self.max_length is not None and len(value) > self.max_length:
            raise _fail(loc, f"at most {self.max_length} characters")
        if len(value) < self.min_length:
            raise _fail(loc, f"at least {self.min_length} character{'s' if self.min_length > 1 else ''}")
        if self.pattern is not None:
            m = (self._re or self.compiled()).search(value)
            if m is None or (self._to_end and m.end() != len(value)):
                raise _fail(loc, f"does not match {self.pattern}")
        return value

    def compiled(self) -> re.Pattern[str]:
        """``pattern`` compiled (kept on the check: derived from its fixed pattern)."""
        if self._re is None:
            assert self.pattern is not None
            self._re = re.compile(self.pattern)
        return self._re

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "string"}
        if self.max_length is not None:
            out["maxLength"] = self.max_length
        if self.min_length:
            out["minLength"] = self.min_length
        if self.pattern is not None:
            out["pattern"] = self.pattern
        return out


class Int(Check):
    """An integer (not a boolean, not a float), ``ge <= value <= le`` where given."""

    same = True

    def __init__(self, ge: int | None = None, le: int | None = None) -> None:
        self.ge = ge
        self.le = le

    def __call__(self, value: Any, loc: Loc) -> Any:
        if type(value) is not int:
            raise _fail(loc, f"expected an integer, got {_kind(value)}")
        if (self.ge is not None and value < self.ge) or (self.le is not None and value > self.le):
            low = "" if self.ge is None else f"{self.ge} <= "
            high = "" if self.le is None else f" <= {self.le}"
            raise _fail(loc, f"must be {low}n{high}, got {value}")
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer"}
        if self.ge is not None:
            out["minimum"] = self.ge
        if self.le is not None:
            out["maximum"] = self.le
        return out


class Bool(Check):
    """``true`` or ``false``."""

    same = True

    def __call__(self, value: Any, loc: Loc) -> Any:
        if type(value) is not bool:
            raise _fail(loc, f"expected a boolean, got {_kind(value)}")
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "boolean"}


class Const(Check):
    """Exactly this string or integer (a body's ``ds``, a layout number)."""

    same = True

    def __init__(self, value: str | int) -> None:
        self.value = value

    def __call__(self, value: Any, loc: Loc) -> Any:
        if type(value) is not type(self.value) or value != self.value:
            raise _fail(loc, f"must be {self.value!r}")
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"const": self.value, "type": "string" if isinstance(self.value, str) else "integer"}


class OneOf(Check):
    """One of a few strings or integers (a ``Literal`` of several)."""

    same = True

    def __init__(self, *values: str | int) -> None:
        self.values = values

    def __call__(self, value: Any, loc: Loc) -> Any:
        for v in self.values:
            if type(value) is type(v) and value == v:
                return value
        raise _fail(loc, f"must be one of {', '.join(repr(v) for v in self.values)}")

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        kinds = {type(v) for v in self.values}
        out: dict[str, Any] = {"enum": list(self.values)}
        if kinds == {str}:
            out["type"] = "string"
        elif kinds == {int}:
            out["type"] = "integer"
        return out


class Either(Check):
    """What the first of ``checks`` to accept it keeps (``int | str``, tried in order)."""

    def __init__(self, *checks: Check) -> None:
        self.checks = checks

    def __call__(self, value: Any, loc: Loc) -> Any:
        first: RecordError | None = None
        for check in self.checks:
            try:
                return check(value, loc)
            except RecordError as exc:
                first = first or exc
        assert first is not None
        raise first

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [c.schema(defs) for c in self.checks]}


class Tagged(Check):
    """A record chosen by the value of its ``tag`` member (a tagged union: ``kind``, ``type``)."""

    def __init__(self, tag: str, *classes: type[Record]) -> None:
        self.tag = tag
        self.classes: dict[Any, type[Record]] = {}
        for cls in classes:
            check = cls.__dataclass_fields__[tag].metadata[_CHECK]  # type: ignore[attr-defined]
            for v in check.values if isinstance(check, OneOf) else (check.value,):
                self.classes[v] = cls

    def __call__(self, value: Any, loc: Loc) -> Any:
        if isinstance(value, tuple(self.classes.values())):
            return value
        if not isinstance(value, dict):
            raise _fail(loc, f"expected an object, got {_kind(value)}")
        tag = value.get(self.tag)
        cls = self.classes.get(tag) if isinstance(tag, str | int) and not isinstance(tag, bool) else None
        if cls is None:
            raise _fail((*loc, self.tag), f"must be one of {', '.join(repr(v) for v in self.classes)}")
        return cls._parse(value, loc)

    def built(self, value: Any) -> Any:
        if type(value) is dict:
            return self.classes[value[self.tag]].built(value)
        return self(value, ())

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        refs = []
        for cls in dict.fromkeys(self.classes.values()):
            refs.append(Nested(cls).schema(defs))
        return {"oneOf": refs, "discriminator": {"propertyName": self.tag}}


class IntKey(Check):
    """An object key that names an integer (``"3"``): the integer. JSON keys are strings; a table
    keyed by numbers is read this way."""

    def __init__(self, ge: int | None = None, le: int | None = None) -> None:
        self.int = Int(ge, le)

    def __call__(self, value: Any, loc: Loc) -> Any:
        if type(value) is str:
            if re.fullmatch(_INT_KEY, value):
                value = int(value)
            elif re.fullmatch(r"[-+]?[0-9]{1,9}", value):
                # "01" and "1" (or "-0" and "0") would name the same entry, the later silently
                # replacing the earlier: only the plain decimal form is read
                raise _fail(loc, f"write the number in its plain form ({int(value)}), without a sign "
                                 "or leading zeros")
        return self.int(value, loc)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^(?:{_INT_KEY})$"}


_INT_KEY = r"-?[1-9][0-9]{0,8}|0"
"""An integer key as JSON writes it: decimal, no leading zeros, no plus sign, no "-0"."""


class TupleOf(Check):
    """A fixed number of items, each checked by its own check; kept as a tuple (a JSON list)."""

    def __init__(self, *items: Check) -> None:
        self.items = items

    def __call__(self, value: Any, loc: Loc) -> Any:
        if not isinstance(value, list | tuple):
            raise _fail(loc, f"expected a list, got {_kind(value)}")
        if len(value) != len(self.items):
            raise _fail(loc, f"expected {len(self.items)} items, got {len(value)}")
        out: list[Any] = []
        problems: list[tuple[Loc, str]] = []
        for i, (check, v) in enumerate(zip(self.items, value, strict=True)):
            try:
                out.append(check(v, (*loc, i)))
            except RecordError as exc:
                _collect(problems, exc)
        if problems:
            raise RecordError(problems)
        return tuple(out)

    def kept(self, value: Any) -> Any:
        return tuple(check.kept(v) for check, v in zip(self.items, value, strict=True))

    def built(self, value: Any) -> Any:
        return tuple(check.built(v) for check, v in zip(self.items, value, strict=True))

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "array", "prefixItems": [c.schema(defs) for c in self.items],
                "minItems": len(self.items), "maxItems": len(self.items)}


class Num(Check):
    """A number, integer or not (not a boolean), ``ge <= value <= le`` where given."""

    same = True

    def __init__(self, ge: float | None = None, le: float | None = None) -> None:
        self.ge = ge
        self.le = le

    def __call__(self, value: Any, loc: Loc) -> Any:
        if type(value) not in (int, float):
            raise _fail(loc, f"expected a number, got {_kind(value)}")
        if (self.ge is not None and value < self.ge) or (self.le is not None and value > self.le):
            raise _fail(loc, f"must be within {self.ge} .. {self.le}, got {value}")
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "number"}
        if self.ge is not None:
            out["minimum"] = self.ge
        if self.le is not None:
            out["maximum"] = self.le
        return out


class Anything(Check):
    """Any value JSON can hold (the strict reader has checked it is JSON); ``kind``: ``object``
    for a JSON object only."""

    same = True

    def __init__(self, kind: str | None = None) -> None:
        self.kind = kind

    def __call__(self, value: Any, loc: Loc) -> Any:
        if self.kind == "object" and not isinstance(value, dict):
            raise _fail(loc, f"expected an object, got {_kind(value)}")
        return value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object"} if self.kind == "object" else {}


class Maybe(Check):
    """``null``, or what ``inner`` accepts."""

    def __init__(self, inner: Check) -> None:
        self.inner = inner

    def __call__(self, value: Any, loc: Loc) -> Any:
        return None if value is None else self.inner(value, loc)

    def kept(self, value: Any) -> Any:
        return None if value is None else self.inner.kept(value)

    def built(self, value: Any) -> Any:
        return None if value is None else self.inner.built(value)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [self.inner.schema(defs), {"type": "null"}]}


def _collect(problems: list[tuple[Loc, str]], exc: RecordError) -> None:
    problems.extend(exc.problems)


class ListOf(Check):
    """A list whose every item ``item`` accepts (a tuple is taken as a list: built in code), of
    ``min_length`` to ``max_length`` items; ``as_tuple``: kept as a tuple."""

    def __init__(self, item: Check, min_length: int = 0, max_length: int | None = None,
                 as_tuple: bool = False) -> None:
        self.item = item
        self.min_length = min_length
        self.max_length = max_length
        self.as_tuple = as_tuple

    def __call__(self, value: Any, loc: Loc) -> Any:
        if not isinstance(value, list | tuple):
            raise _fail(loc, f"expected a list, got {_kind(value)}")
        if len(value) < self.min_length or (self.max_length is not None and len(value) > self.max_length):
            most = "" if self.max_length is None else f" and at most {self.max_length}"
            raise _fail(loc, f"needs at least {self.min_length}{most} items, got {len(value)}")
        out: list[Any] = []
        problems: list[tuple[Loc, str]] = []
        for i, v in enumerate(value):
            try:
                out.append(self.item(v, (*loc, i)))
            except RecordError as exc:
                _collect(problems, exc)
        if problems:
            raise RecordError(problems)
        return tuple(out) if self.as_tuple else out

    def kept(self, value: Any) -> Any:
        return self._keep(value, self.item.kept)

    def built(self, value: Any) -> Any:
        return self._keep(value, self.item.built)

    def _keep(self, value: Any, keep: Callable[[Any], Any]) -> Any:
        out = list(value) if self.item.same else [keep(v) for v in value]
        return tuple(out) if self.as_tuple else out

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.schema(defs)}
        if self.min_length:
            out["minItems"] = self.min_length
        if self.max_length is not None:
            out["maxItems"] = self.max_length
        return out


class MapOf(Check):
    """An object whose keys ``key`` and values ``value`` accept, at least ``min_length`` of them."""

    def __init__(self, key: Check, value: Check, min_length: int = 0) -> None:
        self.key = key
        self.value = value
        self.min_length = min_length

    def __call__(self, value: Any, loc: Loc) -> Any:
        if not isinstance(value, dict):
            raise _fail(loc, f"expected an object, got {_kind(value)}")
        if len(value) < self.min_length:
            raise _fail(loc, f"needs at least {self.min_length} entr{'y' if self.min_length == 1 else 'ies'}")
        out: dict[Any, Any] = {}
        problems: list[tuple[Loc, str]] = []
        for k, v in value.items():
            try:
                key = self.key(k, (*loc, k, "[key]"))
                if key in out:  # two keys read as one: neither is silently dropped
                    raise _fail((*loc, k, "[key]"), "names the same entry as another key")
                out[key] = self.value(v, (*loc, k))
            except RecordError as exc:
                _collect(problems, exc)
        if problems:
            raise RecordError(problems)
        return out

    def kept(self, value: Any) -> Any:
        return self._keep(value, self.key.kept, self.value.kept)

    def built(self, value: Any) -> Any:
        return self._keep(value, self.key.built, self.value.built)

    def _keep(self, value: Any, key: Callable[[Any], Any], item: Callable[[Any], Any]) -> Any:
        if self.key.same and self.value.same:
            return dict(value)
        return {key(k): item(v) for k, v in value.items()}

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", "additionalProperties": self.value.schema(defs)}
        key = self.key.schema(defs)
        if key.get("pattern"):
            out["propertyNames"] = {"pattern": key["pattern"]}
        if self.min_length:
            out["minProperties"] = self.min_length
        return out


class Nested(Check):
    """A record of class ``cls``: its object is parsed (:meth:`Record.parse`), an instance kept."""

    def __init__(self, cls: type[Record]) -> None:
        self.cls = cls

    def __call__(self, value: Any, loc: Loc) -> Any:
        if isinstance(value, self.cls):
            return value
        return self.cls._parse(value, loc)

    def kept(self, value: Any) -> Any:
        return value if isinstance(value, self.cls) else self(value, ())

    def built(self, value: Any) -> Any:
        return self.cls.built(value) if type(value) is dict else value

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        name = self.cls.__name__
        if name not in defs:
            defs[name] = {}  # a record that holds itself refers to its own entry
            defs[name] = _object_schema(self.cls, defs)
        return {"$ref": f"#/$defs/{name}"}


_CHECK = "pbem.check"
_DESCRIPTION = "pbem.description"
_ALIAS = "pbem.alias"
_OMIT = "pbem.omit"

Omit = Callable[[Any], bool]
"""When a field is left out of :meth:`Record.to_json`: a test of its value."""


def omit_none(value: Any) -> bool:
    """Leave the field out while it is ``None``."""
    return value is None


def omit_empty(value: Any) -> bool:
    """Leave the field out while it is ``None`` or empty (``""``, ``[]``, ``{}``)."""
    return value is None or (isinstance(value, str | list | tuple | dict) and not value)


def field(check: Check, *, default: Any = dataclasses.MISSING, default_factory: Any = dataclasses.MISSING,
          description: str = "", alias: str | None = None, omit: Omit | None = None) -> Any:
    """A record's field: the ``check`` its value must pass, its default (or a ``default_factory``
    that makes one; neither: required), the words ``pbem schema`` prints for it, the ``alias`` it
    has in JSON (a Python keyword: ``if``) and when :meth:`Record.to_json` leaves it out
    (``omit``: :func:`omit_none`, :func:`omit_empty` or a test of the value)."""
    meta = {_CHECK: check, _DESCRIPTION: description, _ALIAS: alias, _OMIT: omit}
    if default_factory is not dataclasses.MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


class _Spec:
    """What a record class's fields are, worked out once per class."""

    __slots__ = ("names", "checks", "converted", "by_json_name", "required", "defaults", "factories", "dump")

    def __init__(self, fields: list[dataclasses.Field[Any]]) -> None:
        self.names = tuple(f.name for f in fields)
        self.checks: tuple[tuple[str, Check], ...] = tuple((f.name, f.metadata[_CHECK]) for f in fields)
        self.converted = tuple((name, check) for name, check in self.checks if not check.same)
        """The fields whose check keeps a copy or a conversion of a valid value (a list's items, a
        nested record): what a trusted record's constructor still works out (:meth:`Check.kept`)."""
        self.by_json_name = {f.metadata[_ALIAS] or f.name: f.name for f in fields}
        self.required = tuple(f.metadata[_ALIAS] or f.name for f in fields
                              if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
        self.defaults: dict[str, Any] = {}
        self.factories: dict[str, Callable[[], Any]] = {}
        for f in fields:
            if f.default is not dataclasses.MISSING:
                self.defaults[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                self.factories[f.name] = f.default_factory
                self.defaults[f.name] = f.default_factory()
        _none = object()
        self.dump: tuple[tuple[str, str, Omit | None, Any], ...] = tuple(
            (f.name, f.metadata[_ALIAS] or f.name, f.metadata[_OMIT], self.defaults.get(f.name, _none))
            for f in fields)
        """Per field, what :meth:`Record.to_json` needs: name, JSON name, omit test, default
        (a private sentinel when there is none)."""


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):  # under ``from __future__ import annotations``
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    # not the annotation's repr, which typing builds in Python (~3 us a field, ~1 ms of every
    # process that imports the megagame's records)
    return annotation is ClassVar or get_origin(annotation) is ClassVar


class _RecordType(type):
    """Makes a record class as it is declared, without generating code: its fields from the
    annotations (each given by :func:`field`, inherited fields first), ``__slots__`` for them
    unless ``slots=False``, and one shared ``__init__``, ``__eq__``, ``__hash__`` and
    ``__repr__``; ``frozen=False`` for a record the rules change in place. ``dataclasses``
    made the same classes, at about a millisecond of every process's start-up per class."""

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any], *, frozen: bool = True,
                slots: bool = True, trusted: bool | None = None) -> _RecordType:
        inherited: dict[str, dataclasses.Field[Any]] = {}
        for base in reversed(bases):
            inherited.update(getattr(base, "__dataclass_fields__", {}))
        own: dict[str, dataclasses.Field[Any]] = {}
        for fname, annotation in ns.get("__annotations__", {}).items():
            if _is_classvar(annotation):
                continue
            f = ns.pop(fname, None)
            if not isinstance(f, dataclasses.Field) or _CHECK not in f.metadata:
                raise TypeError(f"{name}.{fname}: a record's field is declared with record.field(check)")
            f.name, f.type = fname, annotation
            f._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # dataclasses.fields() lists it
            own[fname] = f
        if slots:
            ns["__slots__"] = tuple(own)
        cls = super().__new__(mcs, name, bases, ns)
        fields = {**inherited, **own}
        cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
        cls._record_spec = _Spec(list(fields.values()))  # type: ignore[attr-defined]
        cls._frozen = frozen  # type: ignore[attr-defined]
        if trusted is not None:
            cls._trusted = trusted  # type: ignore[attr-defined]  # else as its base
        return cls


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
class Record(metaclass=_RecordType):
    """Base of a record class: declare its fields with :func:`field` (keyword arguments only;
    ``class R(Record, slots=False)`` for a record that caches derived values in
    ``cached_property``, ``frozen=False`` for one the rules change in place). Construction
    checks every field (:meth:`__post_init__`); a class adds checks across fields in
    :meth:`check_fields` (raise :class:`ValueError`). ``dataclasses.fields`` lists a record's
    fields.

    ``class R(Record, trusted=True)`` (and its subclasses) is a record only the rules make, in
    their loops (WestWall's events): its constructor does not check, it keeps what the checks
    would keep of valid values (a copy of a list, :meth:`Check.kept`), and no more; reading one
    from outside (:meth:`parse`, a nested field of a record being parsed) checks it as any
    other record. The tests hold every trusted record the rules make in the bundled games to
    what the checking constructor makes of the same values."""

    __slots__ = ()
    _frozen: ClassVar[bool] = True
    _trusted: ClassVar[bool] = False

    def __init__(self, **values: Any) -> None:
        self._assign(values)
        if self._trusted:
            for name, check in self._record_spec.converted:  # type: ignore[attr-defined]
                value = getattr(self, name)
                kept = check.kept(value)
                if kept is not value:
                    object.__setattr__(self, name, kept)
        else:
            self.__post_init__()

    def _assign(self, values: dict[str, Any]) -> None:
        """Each field from ``values``, its default or its factory; unchecked."""
        info: _Spec = self._record_spec  # type: ignore[attr-defined]
        used = 0
        setter = object.__setattr__
        for name in info.names:
            if name in values:
                setter(self, name, values[name])
                used += 1
            elif name in info.factories:
                setter(self, name, info.factories[name]())
            elif name in info.defaults:
                setter(self, name, info.defaults[name])
            else:
                raise TypeError(f"{type(self).__name__}() missing keyword argument {name!r}")
        if used != len(values):
            unknown = sorted(set(values) - set(info.names))
            raise TypeError(f"{type(self).__name__}() got unexpected keyword argument(s) {unknown}")

    def __setattr__(self, name: str, value: Any) -> None:
        if self._frozen:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self._frozen:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._record_spec.names)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        if not self._frozen:
            raise TypeError(f"unhashable record: {type(self).__name__}")
        return hash(tuple(getattr(self, n) for n in self._record_spec.names))  # type: ignore[attr-defined]

    def __getstate__(self) -> dict[str, Any]:
        """The fields (copy, deepcopy, pickle; derived values cached on a record are left out)."""
        return {n: getattr(self, n) for n in self._record_spec.names}  # type: ignore[attr-defined]

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        inside = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._record_spec.names)  # type: ignore[attr-defined]
        return f"{type(self).__qualname__}({inside})"

    @classmethod
    def _info(cls) -> _Spec:
        return cls._record_spec  # type: ignore[attr-defined]


    @classmethod
    def _spec(cls) -> tuple[tuple[str, Check], ...]:
        return cls._info().checks

    def __post_init__(self) -> None:
        problems: list[tuple[Loc, str]] = []
        for name, check in self._info().checks:
            value = getattr(self, name)
            try:
                kept = check(value, (name,))
            except RecordError as exc:
                _collect(problems, exc)
                continue
            if kept is not value:  # a nested record parsed from its object, a tuple made a list
                object.__setattr__(self, name, kept)
        if problems:
            raise RecordError(problems)
        try:
            self.check_fields()
        except ValueError as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError([((), str(exc))]) from None

    def check_fields(self) -> None:
        """Checks across fields, after each field passed its own (none by default)."""

    @classmethod
    def _parse(cls, value: Any, loc: Loc) -> Self:
        if not isinstance(value, dict):
            raise _fail(loc, f"expected an object, got {_kind(value)}")
        info = cls._info()
        problems: list[tuple[Loc, str]] = []
        names = info.by_json_name
        for key in value:
            if key not in names:
                problems.append(((*loc, key), "unknown field (extra inputs are not permitted)"))
        for f in info.required:
            if f not in value:
                problems.append(((*loc, f), "field required"))
        if problems:
            raise RecordError(problems)
        try:
            new = cls.__new__(cls)
            new._assign({names[k]: v for k, v in value.items()})
            new.__post_init__()  # checked, whether or not the class is trusted
            return new
        except RecordError as exc:
            if not loc:
                raise
            raise RecordError([((*loc, *p), m) for p, m in exc.problems]) from None

    @classmethod
    def built(cls, value: dict[str, Any]) -> Self:
        """The record :meth:`parse` makes of ``value``, built without its checks: for data pbem's
        own tests checked in full (a bundled scenario, :func:`pbem.engine.scenarios.is_checked`),
        never for anything read from outside. Each field gets what its check keeps of a valid
        value (:meth:`Check.built`: the same value, a copy of a list or a map, a tuple, a nested
        record built the same way, a table's integer keys); a check that converts otherwise (a
        choice between kinds, a system's own check) runs as :meth:`parse` runs it. Tests hold what
        this builds equal to what :meth:`parse` makes, for every bundled scenario."""
        info = cls._info()
        checks = dict(info.checks)
        names = info.by_json_name
        given = {names[k]: checks[names[k]].built(v) for k, v in value.items()}
        new = cls.__new__(cls)
        new._assign(given)
        for name, check in info.converted:  # defaults and factories, as the checks keep them
            if name not in given:
                default = getattr(new, name)
                kept = check.built(default)
                if kept is not default:
                    object.__setattr__(new, name, kept)
        return new

    @classmethod
    def parse(cls, value: Any) -> Self:
        """The record ``value`` (a JSON object read from outside) describes, checked strictly:
        every field known, every required field present, every value of the right kind and in
        range; :class:`RecordError` otherwise."""
        return cls._parse(value, ())

    def to_json(self, *, omit_none: bool = False, omit_defaults: bool = False) -> dict[str, Any]:
        """The record as JSON values, every field in declaration order under its JSON name,
        nested records too; a field is left out where its ``omit`` says, and (through the
        nested records too) while ``None`` with ``omit_none``, while equal to its default with
        ``omit_defaults``."""
        out: dict[str, Any] = {}
        for name, key, omit, default in self._record_spec.dump:  # type: ignore[attr-defined]
            value = getattr(self, name)
            if omit is not None and omit(value):
                continue
            if omit_none and value is None:
                continue
            if omit_defaults and value == default:
                continue
            out[key] = value if type(value) in _PLAIN else _json(value, omit_none, omit_defaults)
        return out

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes``, unchecked: the rules' own values on their hot paths (as
        pydantic's ``model_copy(update=...)``); outside input goes through :meth:`parse`."""
        new = object.__new__(type(self))
        for name, _ in self._info().checks:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        return new


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""The types a JSON value keeps as it is (checked by ``type(...) in``: the commonest case first)."""


def _json(value: Any, omit_none: bool = False, omit_defaults: bool = False) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Record):
        return value.to_json(omit_none=omit_none, omit_defaults=omit_defaults)
    if isinstance(value, list | tuple):
        return [v if type(v) in _PLAIN else _json(v, omit_none, omit_defaults) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _PLAIN else _json(v, omit_none, omit_defaults) for k, v in value.items()}
    return value


def _object_schema(cls: type[Record], defs: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    required: list[str] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        check: Check = f.metadata[_CHECK]
        key = f.metadata[_ALIAS] or f.name
        prop = check.schema(defs)
        if f.metadata[_DESCRIPTION]:
            prop = {**prop, "description": f.metadata[_DESCRIPTION]}
        if f.default is not dataclasses.MISSING:
            prop = {**prop, "default": _json(f.default)}
        elif f.default_factory is dataclasses.MISSING:
            required.append(key)
        props[key] = prop
    out: dict[str, Any] = {"title": cls.__name__, "type": "object", "properties": props,
                           "required": required, "additionalProperties": False}
    doc = " ".join((cls.__doc__ or "").split())
    if doc and not doc.startswith(f"{cls.__name__}("):  # not the signature dataclass writes
        out["description"] = doc
    return out


def json_schema(cls: type[Record]) -> dict[str, Any]:
    """The JSON Schema of ``cls``'s object, as :meth:`Record.parse` checks it (the checks across
    fields are in the description's words only)."""
    defs: dict[str, Any] = {}
    out = _object_schema(cls, defs)
    if defs:
        out["$defs"] = defs
    return out


def fields_of(cls: type[Record]) -> Mapping[str, Check]:
    """Each field's check, by name, in declaration order."""
    return dict(cls._spec())
