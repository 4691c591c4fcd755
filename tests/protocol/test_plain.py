"""Plain internal classes (:mod:`pbem.plain`): a dataclass's behaviour without generated code [28].

Every plain class pbem declares is held against the dataclass ``dataclasses`` makes from the same
fields: the same constructor (positional and keyword arguments, defaults, factories, the same
refusals), the same instance dictionary in the same order, equality, hashing, ``repr`` and
frozenness; ``dataclasses.fields``/``replace``/``asdict`` work on them."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from dataclasses import field
from typing import Any

import pytest

import pbem
from pbem.plain import Plain


def _all_plain() -> list[type]:
    for info in pkgutil.walk_packages(pbem.__path__, "pbem."):
        if info.name == "pbem.systems.megagame.oob":  # the order-of-battle tooling (pydantic), no plain class
            continue
        if info.name.startswith("pbem.templates.precompiled."):  # Jinja2's compiled templates: run by Jinja2 only
            continue
        importlib.import_module(info.name)
    out: list[type] = []
    todo = list(Plain.__subclasses__())
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo.extend(cls.__subclasses__())
    return sorted(out, key=lambda c: (c.__module__, c.__qualname__))


PLAIN = _all_plain()


def _twins(cls: type) -> tuple[type, type]:
    """A plain class and a dataclass declared with ``cls``'s fields alone (its own methods, such
    as ``__post_init__``, left out), frozen as ``cls`` is."""
    frozen = cls.__setattr__ is not object.__setattr__
    spec = []
    ns: dict[str, Any] = {"__annotations__": {}}
    for f in dataclasses.fields(cls):
        kw: dict[str, Any] = {"init": f.init, "repr": f.repr, "compare": f.compare, "hash": f.hash}
        if f.default is not dataclasses.MISSING:
            kw["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            kw["default_factory"] = f.default_factory
        spec.append((f.name, Any, field(**kw)))
        ns["__annotations__"][f.name] = "Any"
        ns[f.name] = field(**kw)
    ref = dataclasses.make_dataclass(cls.__name__, spec, frozen=frozen)
    ref.__qualname__ = cls.__qualname__
    twin = type(cls.__name__, (Plain,), ns, frozen=frozen)
    twin.__qualname__ = cls.__qualname__
    return twin, ref


def _outcome(make: Any, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    try:
        obj = make(*args, **kwargs)
    except TypeError:
        return ("TypeError", None)
    return ("made", list(vars(obj).items()))


def test_every_plain_class_is_found() -> None:
    names = {f"{c.__module__}.{c.__qualname__}" for c in PLAIN}
    # the classes of the commands' path that were dataclasses before [28]
    for name in ("pbem.errors.RuleViolation", "pbem.errors.IllegalOrders", "pbem.systems.westwall.board.Board",
                 "pbem.systems.westwall.movement._Leg", "pbem.engine.status.GameStatus", "pbem.protocol.dice.Roll"):
        assert name in names


@pytest.mark.parametrize("cls", PLAIN, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_a_plain_class_behaves_as_the_dataclass_of_its_fields(cls: type) -> None:
    twin, ref = _twins(cls)
    fields = dataclasses.fields(ref)
    init = [f for f in fields if f.init]
    required = [f for f in init if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    # the class's own constructor is the builder's (same parameters as the dataclass's), unless
    # the class writes its own
    if "__init__" not in vars(cls) or vars(cls)["__init__"].__qualname__ == f"{cls.__qualname__}.__init__":
        assert [f.name for f in dataclasses.fields(cls) if f.init] == [f.name for f in init]
    assert list(inspect.signature(ref).parameters) == [f.name for f in init]
    values = [(i, f.name) for i, f in enumerate(init)]  # distinct, hashable values
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        (tuple(values), {}),  # all by position
        ((), {f.name: v for f, v in zip(init, values, strict=True)}),  # all by keyword
        ((), {f.name: v for f, v in zip(required, values, strict=False)}),  # defaults and factories
        (tuple(values[: len(required)]), {}),
        (tuple(values[:1]), {f.name: v for f, v in zip(init[1:], values[1:], strict=True)}),
        # refused: one too many, a name twice, an unknown name, one required missing
        ((*values, "extra"), {}),
        (tuple(values[:1]), {init[0].name: 1} if init else {"x": 1}),
        ((), {"no_such_field": 1}),
        (tuple(values[: len(required) - 1]), {}) if required else ((), {"no_such_field": 2}),
    ]
    for args, kwargs in calls:
        assert _outcome(twin, *args, **kwargs) == _outcome(ref, *args, **kwargs), (args, kwargs)
    a, b = twin(*values), ref(*values)
    assert repr(a) == repr(b)
    assert a == twin(*values) and not (a != twin(*values))
    assert (a == object()) is False and a != b  # another class: not equal, as a dataclass
    for f in init:
        other = [v if g is not f else ("other", v) for g, v in zip(init, values, strict=True)]
        assert (a == twin(*other)) == (ref(*values) == ref(*other)) == (not f.compare)
    if ref.__hash__ is None:
        assert twin.__hash__ is None
        with pytest.raises(TypeError):
            hash(a)
    else:
        assert hash(a) == hash(b)
        name = fields[0].name
        for obj in (a, b):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(obj, name, 1)
    assert [f.name for f in dataclasses.fields(a)] == [f.name for f in fields]
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    if init:
        changed = dataclasses.replace(a, **{init[-1].name: "changed"})
        assert list(vars(changed).items()) == list(vars(dataclasses.replace(b, **{init[-1].name: "changed"})).items())


def test_the_class_s_own_methods_are_kept_and_post_init_runs() -> None:
    class Counted(Plain, frozen=True):
        a: int
        b: list[int] = field(default_factory=list, compare=False)

        def __repr__(self) -> str:
            return "mine"

        def __post_init__(self) -> None:
            object.__setattr__(self, "a", self.a * 2)

    one = Counted(2)
    assert (one.a, one.b, repr(one)) == (4, [], "mine")
    assert one.b is not Counted(2).b  # a factory per instance
    assert one == Counted(2, [1]) and hash(one) == hash(Counted(2, [9]))
    assert {Counted(1): "x"}[Counted(1)] == "x"
    assert Counted.__match_args__ == ("a", "b")
    with pytest.raises(dataclasses.FrozenInstanceError):
        del one.a


def test_declarations_a_dataclass_refuses_are_refused() -> None:
    with pytest.raises(TypeError):
        class Misordered(Plain):  # noqa: F841
            a: int = 1
            b: int
    with pytest.raises(TypeError):
        class Slotted(Plain):  # noqa: F841
            __slots__ = ("a",)
            a: int
