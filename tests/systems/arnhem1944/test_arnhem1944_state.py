"""State.clone: the rules' copy of a state is what pydantic's deep copy gives, sharing nothing the
rules change (issue 28: it replaced ``model_copy(deep=True)``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from pbem.engine.scenarios import load_data
from pbem.systems.arnhem1944.model import Scenario
from pbem.systems.arnhem1944.rules import Arnhem1944Rules
from pbem.systems.arnhem1944.state import Standing, State


def _state() -> State:
    rules = Arnhem1944Rules()
    sc = rules.load_scenario(load_data("arnhem1944-historical"))
    assert isinstance(sc, Scenario)
    st = rules.initial_state(sc, {})
    st.joined.append("x")
    st.blown.append("1406/1407")
    st.tried.append("1406/1407")
    st.dropped.append("g1")
    st.drop_zones["g1"] = "1010"
    st.standing["AL"] = Standing(hold=["1010"], stacking=["a"], retreat={"*": "1011"})
    return st


def _mutable(value: Any, path: str = "state") -> list[tuple[str, Any]]:
    """Every mutable object inside ``value`` (itself included), with where it is."""
    out: list[tuple[str, Any]] = []
    if isinstance(value, BaseModel):
        if not value.model_config.get("frozen"):
            out.append((path, value))
        for name in type(value).model_fields:
            out += _mutable(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, dict):
        out.append((path, value))
        for k, v in value.items():
            out += _mutable(v, f"{path}[{k!r}]")
    elif isinstance(value, (list, set)):
        out.append((path, value))
        for i, v in enumerate(value):
            out += _mutable(v, f"{path}[{i}]")
    return out


def test_clone_is_the_deep_copy() -> None:
    st = _state()
    deep, clone = st.model_copy(deep=True), st.clone()
    assert clone == deep
    assert clone.model_dump(mode="json") == deep.model_dump(mode="json")
    assert clone.model_fields_set == deep.model_fields_set
    assert all(c.model_fields_set == d.model_fields_set
               for c, d in zip(clone.units.values(), deep.units.values(), strict=True))


def test_clone_shares_nothing_mutable() -> None:
    """A field added to State (or to a unit's state, or to standing orders) that holds a list, a
    dict or a model must be copied by State.clone too: this test finds it shared."""
    st = _state()
    clone = st.clone()
    original = {id(v) for _, v in _mutable(st)}
    shared = [path for path, v in _mutable(clone) if id(v) in original]
    assert shared == []


def test_a_units_duplicate_is_its_model_copy() -> None:
    """UnitState.duplicate (what State.clone copies each unit with) is pydantic's copy: equal, the
    same fields set, a new object whose changes do not reach the original."""
    st = _state()
    for u in st.units.values():
        d, c = u.duplicate(), u.model_copy()
        assert d == c and d is not u
        assert d.model_fields_set == c.model_fields_set and d.model_fields_set is not u.model_fields_set
        assert d.model_dump(mode="json") == c.model_dump(mode="json")
        d.steps += 1
        assert d.steps == u.steps + 1


def test_standing_orders_duplicate_is_their_deep_copy() -> None:
    """Standing.duplicate (what State.clone copies standing orders with) is pydantic's deep copy:
    equal, the same fields set, and new lists and dict (a change to the copy's leaves the
    original's as it was)."""
    o = Standing(defence="hold", hold=["1010"], lose=2, stacking=["a", "b"], retreat={"*": "1011"})
    d, deep = o.duplicate(), o.model_copy(deep=True)
    assert d == deep and d.model_fields_set == deep.model_fields_set
    d.hold.append("1111")
    d.stacking.clear()
    d.retreat["a"] = "1212"
    assert (o.hold, o.stacking, o.retreat) == (["1010"], ["a", "b"], {"*": "1011"})


def test_clone_sharing_units_then_owning_them() -> None:
    """A pass's copy (``clone(units=False)``) holds the very units of the state it copies, and
    nothing else mutable of it; after ``own_units`` it shares nothing mutable, and is still the
    deep copy."""
    st = _state()
    light = st.clone(units=False)
    assert light.units is not st.units
    assert all(light.units[uid] is u for uid, u in st.units.items())
    units = {id(u) for u in st.units.values()}
    original = {id(v) for _, v in _mutable(st)} - units
    assert [p for p, v in _mutable(light) if id(v) in original] == []
    light.own_units()
    assert [p for p, v in _mutable(light) if id(v) in {id(v) for _, v in _mutable(st)}] == []
    assert light.model_dump(mode="json") == st.model_copy(deep=True).model_dump(mode="json")
