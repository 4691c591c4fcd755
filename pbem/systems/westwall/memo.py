"""What the rules work out once per scenario, kept with the scenario object.

A WestWall :class:`~pbem.systems.westwall.model.Scenario` is immutable, so what is derived from it
alone (its map geometry with some bridges down, the bot's distance fields, areas of the victory
schedule, its typed ``special`` parameters) can be worked out once and kept. It is kept *on* the
scenario (``Scenario._memo``, a cached property), so it lives exactly as long as the scenario does:
no process-wide table keyed by ``id()`` to clear or to outlive its object.

The memo is no part of the scenario's value: it is not a field (``to_json`` and the JSON schema
never see it), any two memos compare equal (a scenario's ``==`` compares its fields), and a copy
or a pickle of a memo is a new, empty one. A copy that carries the
instance ``__dict__`` over (``copy.copy``) would start out holding its original's memo; :func:`memo` notices that the
memo belongs to another object (its owner is recorded by a weak reference) and gives the copy its
own, so a copy (perhaps with other fields) never reads what was worked out for the original.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pbem.systems.westwall.model import Scenario

T = TypeVar("T")


class Memo:
    """One scenario object's memo: per family of results, key -> result."""

    __slots__ = ("owner", "families")

    def __init__(self) -> None:
        self.owner: weakref.ref[Any] | None = None
        self.families: dict[str, dict[Hashable, Any]] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memo)  # what is remembered is no part of a scenario's value

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> Memo:
        return Memo()

    def __deepcopy__(self, _memo: dict[int, Any]) -> Memo:
        return Memo()

    def __reduce__(self) -> tuple[type[Memo], tuple[()]]:
        return Memo, ()


def memo(
    scenario: Scenario, family: str, key: Hashable, make: Callable[[], T], *, bound: int | None = None
) -> T:
    """``make()``, worked out once per scenario object, ``family`` and ``key``. With ``bound``,
    a family holding more than ``bound`` results is emptied before the next one is added (what
    may be asked with ever new keys)."""
    m = scenario._memo
    if m.owner is None or m.owner() is not scenario:
        if m.owner is not None:  # a copy holding its original's memo: one of its own
            m = Memo()
            scenario.__dict__["_memo"] = m
        m.owner = weakref.ref(scenario)
    results = m.families.get(family)
    if results is None:
        results = m.families[family] = {}
    try:
        return results[key]
    except KeyError:
        pass
    if bound is not None and len(results) > bound:
        results.clear()
    made = results[key] = make()
    return made
