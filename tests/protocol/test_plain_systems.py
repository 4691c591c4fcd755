"""The Arnhem 1944, megagame, map-view and renderer classes made plain [28] (see
``tests/protocol/test_plain.py``, which holds every plain class against the dataclass of its
fields): they are found there, and the one with a constructor of its own (megagame's
``UnitInfo``, a keyword-only dataclass before) takes what that dataclass took and refuses what it
refused."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pbem.maps import view
from pbem.plain import Plain
from pbem.render.svg import canvas
from pbem.systems.arnhem1944 import artillery, combat, fighting, queries, rules, tables
from pbem.systems.megagame import board, checks, model, orders, report, supply
from pbem.systems.megagame import combat as mcombat
from pbem.systems.megagame import tables as mtables

# (module, the classes that were dataclasses before [28], frozen or not)
CONVERTED: list[tuple[Any, list[str], bool]] = [
    (queries, ["Values", "Readings"], True),
    (fighting, ["Tracker", "LastCombat"], False),
    (rules, ["_Walked"], False),
    (tables, ["Result", "Crt", "Tec"], True),
    (combat, ["CombatUnit", "Attacker", "Attack", "Odds", "Split", "Surroundings", "Retreat"], True),
    (artillery, ["Affiliation", "Artillery", "Bombardment"], True),
    (model, ["Crossing", "Geo"], True),
    (report, ["EnemySeen", "UnitFacts"], True),
    (board, ["BoardUnit"], False),
    (mtables, ["AirCombat"], True),
    (mcombat, ["Profile", "CombatUnit", "Artillery", "CombatSide"], True),
    (mcombat, ["Score", "Outcome"], False),
    (supply, ["Stock", "HQ", "Dump", "Transport", "Parked", "Activity", "UnitSupply", "Draw"], True),
    (checks, ["Known"], True),
    (orders, ["UnitInfo"], True),
    (view, ["InkMark", "TerrainLook", "SideView", "RouteView", "PlaceView", "EntryView", "CounterView",
            "MoveMark", "TrailMark", "CombatMark", "EliminatedMark", "PlacedMark", "ObjectiveView",
            "ZoneView", "PanelRow", "MapView"], True),
    (canvas, ["Frame"], True),
]


@pytest.mark.parametrize(("module", "names", "frozen"), CONVERTED, ids=lambda x: getattr(x, "__name__", ""))
def test_the_converted_classes_are_plain_and_keep_their_frozenness(module: Any, names: list[str], frozen: bool) -> None:
    for name in names:
        cls = getattr(module, name)
        assert issubclass(cls, Plain), name
        assert (cls.__hash__ is not None) is frozen, name
        assert (cls.__setattr__ is not object.__setattr__) is frozen, name


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class _UnitInfoBefore:  # the declaration UnitInfo had before [28]
    id: str
    troops: Any
    armoured: bool = False
    hex: str


def _made(make: Any, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    try:
        obj = make(*args, **kwargs)
    except TypeError:
        return ("TypeError", None)
    return ("made", {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)})


def test_unit_info_is_made_by_keyword_only_as_the_dataclass_it_was() -> None:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((), {"id": "u1", "troops": "infantry", "hex": "0101"}),
        ((), {"id": "u1", "troops": "tanks", "hex": "0101", "armoured": True}),
        ((), {"hex": "0202", "armoured": False, "troops": "infantry", "id": "u2"}),
        (("u1", "infantry", "0101"), {}),  # by position: refused
        (("u1",), {"troops": "infantry", "hex": "0101"}),
        ((), {"id": "u1", "troops": "infantry"}),  # hex missing
        ((), {"id": "u1", "troops": "infantry", "hex": "0101", "other": 1}),
    ]
    for args, kwargs in calls:
        assert _made(orders.UnitInfo, *args, **kwargs) == _made(_UnitInfoBefore, *args, **kwargs), (args, kwargs)
    one = orders.UnitInfo(id="u1", troops="infantry", hex="0101")
    assert one == orders.UnitInfo(id="u1", troops="infantry", hex="0101", armoured=False)
    assert one != orders.UnitInfo(id="u1", troops="infantry", hex="0102")
    assert hash(one) == hash(orders.UnitInfo(id="u1", troops="infantry", hex="0101"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.hex = "0102"  # type: ignore[misc]
    assert dataclasses.replace(one, hex="0303").hex == "0303"
