"""State.clone: the rules' copy of a state is what a generic deep copy gives, sharing nothing the
rules change (issue 28: it replaced a generic deep copy, 38% of a replay)."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

from pbem.engine.gamedir import Game
from pbem.engine.scenarios import load_data
from pbem.protocol.record import Record
from pbem.systems.arnhem1944.model import Scenario
from pbem.systems.arnhem1944.rules import Arnhem1944Rules
from pbem.systems.arnhem1944.state import Standing, State, UnitState


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


def _deep(st: State) -> State:
    """A deep copy made another way: the state read back from its JSON (checked, sharing nothing)."""
    return State.parse(st.to_json())


def _mutable(value: Any, path: str = "state") -> list[tuple[str, Any]]:
    """Every mutable object inside ``value`` (itself included), with where it is."""
    out: list[tuple[str, Any]] = []
    if isinstance(value, Record):
        if not type(value)._frozen:
            out.append((path, value))
        for f in dataclasses.fields(value):  # type: ignore[arg-type]
            out += _mutable(getattr(value, f.name), f"{path}.{f.name}")
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
    deep, clone = _deep(st), st.clone()
    assert clone == deep and type(clone) is State
    assert clone.to_json() == deep.to_json()
    assert all(type(c) is type(d) and c == d
               for c, d in zip(clone.units.values(), deep.units.values(), strict=True))
    assert clone.standing == deep.standing


def test_clone_shares_nothing_mutable() -> None:
    """A field added to State (or to a unit's state, or to standing orders) that holds a list, a
    dict or a record must be copied by State.clone too: this test finds it shared."""
    st = _state()
    clone = st.clone()
    original = {id(v) for _, v in _mutable(st)}
    shared = [path for path, v in _mutable(clone) if id(v) in original]
    assert shared == []


def test_a_units_duplicate_is_its_copy() -> None:
    """UnitState.duplicate (what State.clone copies each unit with) is a copy: equal to the
    generic one, every field the same, a new object whose changes do not reach the original."""
    st = _state()
    for u in st.units.values():
        d, c = u.duplicate(), copy.copy(u)
        assert d == c and d is not u and type(d) is type(u)
        assert d.to_json() == c.to_json() == u.to_json()
        # the fields, and nothing else, in a dict of its own (duplicate copies the __dict__)
        assert vars(d) is not vars(u) and list(vars(d)) == [n for n, _ in UnitState._spec()]
        d.steps += 1
        assert d.steps == u.steps + 1
    for light in (st.clone(), st.clone(units=False)):
        light.own_units()
        assert all(vars(light.units[uid]) is not vars(u) and light.units[uid] == u
                   for uid, u in st.units.items())


def test_standing_orders_duplicate_is_their_deep_copy() -> None:
    """Standing.duplicate (what State.clone copies standing orders with) is the deep copy: equal,
    every field the same, and new lists and dict (a change to the copy's leaves the
    original's as it was)."""
    o = Standing(defence="hold", hold=["1010"], lose=2, stacking=["a", "b"], retreat={"*": "1011"})
    d, deep = o.duplicate(), copy.deepcopy(o)
    assert d == deep and d.to_json() == deep.to_json() == o.to_json()
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
    assert light.to_json() == _deep(st).to_json()


def test_dump_is_to_json_and_shares_nothing() -> None:
    """State.dump (what the rules write to a turn file) is the generic ``to_json``, field by field
    and in order, ``landed_in_zoc`` left out while empty [15.2], and holds no list or dict of the
    state itself."""
    st = _state()
    assert list(st.dump().items()) == list(st.to_json().items())
    assert "landed_in_zoc" not in st.dump()
    st.landed_in_zoc.append("x")
    assert list(st.dump().items()) == list(st.to_json().items())
    assert st.dump()["landed_in_zoc"] == ["x"]
    original = {id(v) for _, v in _mutable(st)}
    assert [p for p, v in _mutable(st.dump()) if id(v) in original] == []


def test_dump_is_to_json_on_every_state_of_the_corpus() -> None:
    """State.dump writes each unit as a copy of its own ``__dict__`` (issue 28): on every state of
    the frozen Arnhem 1944 game it is still the generic ``to_json`` byte for byte (keys in order,
    ``true`` never written as ``1``), no two dumps share a unit's dict, and a change to a dump
    reaches neither the state nor a later dump. A unit with anything else set on it is written
    field by field."""
    game = Game.open(Path(__file__).resolve().parents[2] / "compat" / "arnhem1944-historical")
    rp = game.replay()
    assert len(rp.records) > 200
    for rec in rp.records:
        st = rec.state
        assert isinstance(st, State)
        assert json.dumps(st.dump()) == json.dumps(st.to_json())
        a, b = st.dump(), st.dump()
        assert all(a["units"][uid] is not b["units"][uid] for uid in a["units"])
        assert all(a["units"][uid] is not vars(u) for uid, u in st.units.items())
        a["units"][next(iter(a["units"]))]["steps"] = -1  # a caller's change reaches no later dump
        assert json.dumps(st.dump()) == json.dumps(st.to_json())
    st = rp.records[-1].state.clone()
    u = next(iter(st.units.values()))
    object.__setattr__(u, "note", "not a field")
    assert json.dumps(st.dump()) == json.dumps(st.to_json())
    assert "note" not in json.dumps(st.dump())
