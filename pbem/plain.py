"""Plain internal classes: what ``@dataclass`` gives, made without generating code.

``dataclasses`` writes the source of each class's ``__init__``, ``__eq__``, ``__repr__`` (and
``__hash__``, ``__setattr__``, ``__delattr__`` of a frozen class) and compiles it: about a
millisecond a class, paid by every process that imports the class, and the rules' working classes
(the board, a combat phase, a retreat's plan...) are on every command's path (issue 28). A class
deriving from :class:`Plain` gets the same methods as shared functions closed over its fields,
worked out once when the class is made (some tens of microseconds):

    class Crossing(Plain, frozen=True):
        route: str | None = None
        water: tuple[str, ...] = ()
        seen: dict[str, int] = field(default_factory=dict, compare=False)   # dataclasses.field

Fields are the class's annotated names in order (``ClassVar`` left out), after those of its bases;
a default is the value given in the class body or by :func:`dataclasses.field` (``default``,
``default_factory``, ``init``, ``repr``, ``compare``, ``hash``). The constructor takes them by
position or keyword as a dataclass's does, calls ``__post_init__`` when the class has one, and
checks nothing: these classes hold the rules' own values (outside input is read by
:mod:`pbem.protocol.record`). ``==`` compares the ``compare`` fields of two instances of the same
class; a ``frozen`` class refuses assignment and hashes those fields, another is unhashable (as a
dataclass with ``eq``); ``repr`` is a dataclass's. A method the class body defines itself is kept.
``__dataclass_fields__`` is set, so :func:`dataclasses.fields`, :func:`dataclasses.replace` and
:func:`dataclasses.asdict` work on them. Not supported (no class here uses them): ``order``,
``__slots__``, ``kw_only``, ``InitVar``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, dataclass_transform

_MISSING = dataclasses.MISSING


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the tuple of ``names``' values of an object (one name: still a tuple)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    if not names:
        return lambda obj: ()
    return attrgetter(*names)


def _make_init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """The constructor: the values (positional ones first) and the defaults put in the instance's
    ``__dict__`` at once, in the fields' order, each factory called for a value not given; the
    required fields come first (as a dataclass's), so a count and a few dictionary operations
    check the arguments."""
    init_names = tuple(f.name for f in fields if f.init)
    accepted = frozenset(init_names)
    count = len(init_names)
    required = tuple(f.name for f in fields if f.init and f.default is _MISSING and f.default_factory is _MISSING)
    if init_names[: len(required)] != required:
        raise TypeError(f"{cls.__name__}: a field without a default follows one with a default")
    n_required = len(required)
    # the fields in order, each with its default or a placeholder the arguments or a factory replace
    template = {f.name: f.default for f in fields if f.init or f.default is not _MISSING
                or f.default_factory is not _MISSING}
    # (name, its position among the arguments, -1 when not an argument, the factory)
    factories = tuple((f.name, init_names.index(f.name) if f.init else -1, f.default_factory)
                      for f in fields if f.default_factory is not _MISSING)
    post_init = hasattr(cls, "__post_init__")
    qualname = cls.__qualname__
    # every field an argument and none made by a factory when all are given: a call giving every
    # one, all by position or all by keyword, needs neither the template nor the checks below
    direct = len(init_names) == len(template) and all(position >= 0 for _name, position, _f in factories)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        n = len(args)
        if direct:
            if n == count and not kwargs:
                self.__dict__.update(zip(init_names, args, strict=False))  # n == count
                if post_init:
                    self.__post_init__()
                return
            if not n and len(kwargs) == count and kwargs.keys() == accepted:
                self.__dict__.update([(name, kwargs[name]) for name in init_names])  # the fields' order
                if post_init:
                    self.__post_init__()
                return
        if n > count:
            raise TypeError(f"{qualname}() takes {count} positional arguments but {n} were given")
        values = template.copy()  # updating a key keeps its place: the fields' order
        if n:
            values.update(zip(init_names, args, strict=False))  # the first n
        if kwargs:
            if not kwargs.keys() <= accepted:
                raise TypeError(f"{qualname}() got unexpected keyword argument(s) {sorted(kwargs.keys() - accepted)}")
            if n and not kwargs.keys().isdisjoint(init_names[:n]):
                raise TypeError(f"{qualname}() got multiple values for {sorted(kwargs.keys() & set(init_names[:n]))}")
            values.update(kwargs)
        if n < n_required:
            missing = [name for name in required[n:] if name not in kwargs]
            if missing:
                raise TypeError(f"{qualname}() missing required argument(s) {missing}")
        for name, position, factory in factories:
            if position < 0 or (position >= n and name not in kwargs):
                values[name] = factory()
        self.__dict__.update(values)
        if post_init:
            self.__post_init__()

    return __init__


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


@dataclass_transform(field_specifiers=(dataclasses.field,))
class Plain:
    """Base of a plain internal class (see the module's words); ``class C(Plain, frozen=True)``
    for an immutable, hashable one."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]] = {}

    def __init_subclass__(cls, *, frozen: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "__slots__" in own:
            raise TypeError(f"{cls.__name__}: a plain class keeps its fields in the instance's __dict__")
        fields: dict[str, dataclasses.Field[Any]] = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(base.__dict__.get("__dataclass_fields__", {}))
        for name, annotation in own.get("__annotations__", {}).items():
            if _is_classvar(annotation):
                continue
            value = own.get(name, _MISSING)
            f = value if isinstance(value, dataclasses.Field) else dataclasses.field(default=value)
            if f.default is not _MISSING and f.default_factory is not _MISSING:
                raise ValueError(f"{cls.__name__}.{name}: both a default and a default_factory")
            f.name, f.type = name, annotation
            f._field_type = dataclasses._FIELD  # type: ignore[attr-defined,union-attr]  # dataclasses.fields() lists it
            fields[name] = f
            if f.default is not _MISSING:
                setattr(cls, name, f.default)
            elif name in own:
                delattr(cls, name)
        cls.__dataclass_fields__ = fields
        listed = tuple(fields.values())
        repr_names = tuple(f.name for f in listed if f.repr)
        compared = _getter(tuple(f.name for f in listed if f.compare))
        hashed = _getter(tuple(f.name for f in listed if (f.compare if f.hash is None else f.hash)))

        def __eq__(self: Any, other: object) -> bool:
            if other.__class__ is self.__class__:
                return bool(compared(self) == compared(other))
            return NotImplemented

        def __repr__(self: Any) -> str:
            inside = ", ".join(f"{n}={getattr(self, n)!r}" for n in repr_names)
            return f"{self.__class__.__qualname__}({inside})"

        def __hash__(self: Any) -> int:
            return hash(hashed(self))

        methods: dict[str, Any] = {
            "__init__": _make_init(cls, listed),
            "__repr__": __repr__,
            "__eq__": __eq__,
            "__match_args__": tuple(f.name for f in listed if f.init),
        }
        explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        if not explicit_hash:
            # as a dataclass with eq: a frozen class hashes its compared fields, another has none
            cls.__hash__ = __hash__ if frozen else None  # type: ignore[method-assign,assignment]
        if frozen:
            methods["__setattr__"] = _frozen_setattr
            methods["__delattr__"] = _frozen_delattr
        for name, method in methods.items():
            if name not in own:
                if callable(method):
                    method.__qualname__ = f"{cls.__qualname__}.{name}"
                setattr(cls, name, method)
