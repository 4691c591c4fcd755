"""Helpers shared by the map renderer and the email narrative (presentation only).

* :func:`coerce_scenario`, :func:`coerce_state`, :func:`coerce_events` accept either the WestWall
  records or the plain JSON values found in turn files, so callers can pass whichever they
  hold.
* the hexes of an area are the rules' own (:func:`pbem.systems.westwall.movement.area_hexes`): the
  map draws exactly the entry hexes the rules accept [11.11].
* :func:`positions_before` replays the step's events backwards from the final state, so each event
  can be drawn (or told) where it happened: a combat is shown from the hexes the attackers held
  when it was resolved, not from where they ended after advancing [7.9].

Nothing here imports a rules module beyond the data models, and the rules never import this.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.protocol.record import RecordError
from pbem.systems.westwall.model import (
    EVENTS,
    AdvanceEvent,
    DisplacedEvent,
    EliminatedEvent,
    Event,
    MovedEvent,
    PlacedEvent,
    RetreatEvent,
    Scenario,
    State,
)


def coerce_scenario(scenario: Scenario | Mapping[str, Any]) -> Scenario:
    """A :class:`Scenario` from the model itself or merged scenario JSON."""
    if isinstance(scenario, Scenario):
        return scenario
    try:
        return Scenario.parse(scenario)
    except RecordError as exc:
        raise InputError(f"scenario does not validate: {exc.problems[0][1]}") from None


def coerce_state(state: State | Mapping[str, Any]) -> State:
    """A :class:`State` from the model itself or the ``state`` value of a turn file."""
    if isinstance(state, State):
        return state
    try:
        return State.parse(state)
    except RecordError as exc:
        raise InputError(f"state does not validate: {exc.problems[0][1]}") from None


def coerce_events(events: Iterable[Event | Mapping[str, Any]]) -> list[Event]:
    """Event models from models or the ``events`` list of a turn file (order kept)."""
    items = list(events)
    if all(isinstance(e, Event) for e in items):
        return [e for e in items if isinstance(e, Event)]
    try:
        parsed: list[Event] = EVENTS(items, ())
    except RecordError as exc:
        raise InputError(f"events do not validate: {exc.problems[0][1]}") from None
    return parsed


def positions_before(state: State, events: Sequence[Event]) -> list[dict[str, Hex]]:
    """``result[i]`` maps unit id -> hex just before ``events[i]`` happened.

    Computed backwards from ``state`` (the position after the last event): undoing a move, retreat,
    displacement or advance puts the unit back on the first hex of its path; undoing an elimination
    puts it back where it was eliminated; undoing an entry [11.11] or a placement takes it off the
    map.
    """
    pos: dict[str, Hex] = {
        uid: Hex.parse(us.hex)
        for uid, us in state.units.items()
        if us.status == "on-map" and us.hex is not None
    }
    out: list[dict[str, Hex]] = [{} for _ in events]
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        if isinstance(ev, MovedEvent):
            if ev.entered:
                pos.pop(ev.unit, None)
            elif ev.path:
                pos[ev.unit] = Hex.parse(ev.path[0])
        elif isinstance(ev, RetreatEvent | DisplacedEvent | AdvanceEvent):
            if ev.path:
                pos[ev.unit] = Hex.parse(ev.path[0])
        elif isinstance(ev, EliminatedEvent):
            if ev.hex is not None:
                pos[ev.unit] = Hex.parse(ev.hex)
        elif isinstance(ev, PlacedEvent):
            pos.pop(ev.unit, None)
        out[i] = dict(pos)
    return out


def cases(scenario: Scenario) -> Any:
    """The :class:`~pbem.systems.westwall.exclusive.Citations` of the scenario's game: the words a
    player reads cite its own case for a mechanism the standard engine runs (SPI Arnhem's [15.11]
    for an entry, not Bastogne's [11.11]) [27]."""
    from pbem.systems.westwall.exclusive import get_exclusive

    return get_exclusive(scenario.game).citations


def unit_label(scenario: Scenario, unit_id: str) -> str:
    """How a unit is named to players: its printed designation where that is unique on its side
    (``1/501``), else its id (``5-hvy`` and ``5-art`` are both printed "5")."""
    u = scenario.unit.get(unit_id)
    if u is None or not u.designation:
        return unit_id
    return u.designation if _designation_unique(scenario, u.side, u.designation) else unit_id


def _designation_unique(scenario: Scenario, side: str, designation: str) -> bool:
    counts: dict[tuple[str, str], int] | None = getattr(scenario, "_pbem_designations", None)
    if counts is None:
        counts = {}
        for x in scenario.units:
            counts[(x.side, x.designation)] = counts.get((x.side, x.designation), 0) + 1
        object.__setattr__(scenario, "_pbem_designations", counts)
    return counts.get((side, designation), 0) <= 1


def side_name(scenario: Scenario, side: str) -> str:
    for s in scenario.sides:
        if s.id == side:
            return s.name
    return side


def side_adjective(scenario: Scenario, side: str) -> str:
    for s in scenario.sides:
        if s.id == side:
            return s.adjective or s.name
    return side


def mp_text(halves: int) -> str:
    """Movement points from half-points: ``12`` -> ``"6"``, ``13`` -> ``"6½"`` [5.22]."""
    whole, half = divmod(halves, 2)
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)
