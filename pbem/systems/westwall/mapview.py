"""WestWall's map view: a scenario, a state and a step's events as the system-neutral
:class:`pbem.maps.view.MapView` the renderer draws (counters as printed [2.31], entry areas
[11.11], combats with differential, die and result [7.6], retreats [7.7], displacements [7.8],
advances [7.9], eliminations, final protective fire [8.4])."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem.engine.scenarios import bundled_text
from pbem.maps.hexmap import Hex
from pbem.maps.view import (
    CombatMark,
    CounterView,
    EliminatedMark,
    EntryView,
    MapView,
    Mark,
    MoveMark,
    ObjectiveView,
    PanelRow,
    PlacedMark,
    PlaceView,
    RouteView,
    SideView,
    TrailMark,
    ZoneView,
    terrain_looks,
)
from pbem.systems.westwall.display import (
    cases,
    coerce_events,
    coerce_scenario,
    coerce_state,
    positions_before,
    side_name,
)
from pbem.systems.westwall.model import (
    AdvanceEvent,
    CombatEvent,
    DisplacedEvent,
    EliminatedEvent,
    MovedEvent,
    NoteEvent,
    PlacedEvent,
    RetreatEvent,
    Scenario,
    State,
    UnitDef,
)
from pbem.systems.westwall.movement import area_hexes

TERRAIN_LOOK = "terrain-look.json"
"""How the map draws each terrain kind (bundled data, shared with the other bundled systems)."""

STEP_LEGEND = (("move", "movement [5.0]", False),
               ("attack", "attack: diff · die · result [7.6]", False),
               ("retreat", "retreat [7.7]", True),
               ("displaced", "displaced [7.8]", True),
               ("advance", "advance after combat [7.9]", True),
               ("fpf", "final protective fire [8.4]", True))


MARKER_LEGEND = (("FPF", "marker-fpf", "fired final protective fire this game-turn [8.4, 8.46]"),
                 ("ADV", "marker-advanced", "advanced after combat this step [7.9]"),
                 ("RET", "marker-retreated", "retreated or was displaced this step [7.7, 7.8]"))


def unit_text(sc: Scenario, uid: str) -> str:
    u = sc.unit.get(uid)
    if u is None:
        return uid
    return f"{u.designation} {u.values()} ({u.side})"


def default_subtitle(sc: Scenario, st: State) -> str:
    if st.phase == "setup":
        return f"Set-up (waiting for {', '.join(st.setup_pending) or 'nobody'})"
    if st.phase == "over" or st.finished:
        return f"Game over after Game-Turn {st.game_turn} of {sc.last_turn}"
    return (f"Game-Turn {st.game_turn} of {sc.last_turn} · "
            f"{side_name(sc, st.phasing)} player-turn")


def _counter(u: UnitDef, h: Hex, markers: list[tuple[str, str]]) -> CounterView:
    if u.is_artillery:  # barrage-FPF-range over defense-move: "3-2-18/1-7" on two lines [2.31]
        lines: tuple[str, ...] = (f"{u.barrage}-{u.fpf}-{u.range}", f"{u.defense}-{u.move}")
    else:
        lines = (u.values(),)
    return CounterView(id=u.id, hex=h, side=u.side, symbol=u.type, size=u.size,
                       designation=u.designation, values=u.values(), value_lines=lines,
                       markers=tuple(markers))


def map_view(
    scenario: Scenario | Mapping[str, Any],
    state: State | Mapping[str, Any],
    events: Iterable[Any] = (),
    *,
    title: str = "",
    subtitle: str = "",
    side: str | None = None,
    score: Mapping[str, int] | None = None,
    header_lines: Sequence[str] = (),
) -> MapView:
    """The map after a step: ``events`` (models or turn-file JSON) are shown over the state they
    led to. WestWall is open information: ``side`` only names the viewer."""
    sc = coerce_scenario(scenario)
    st = coerce_state(state)
    evs = coerce_events(events)
    m = sc.map
    before = positions_before(st, evs)
    old_header_lines = None
    if sc.game == "arnhem":
        from pbem.systems.westwall.arnhem import status_lines

        status, old_status = status_lines(sc, st), status_lines(sc, st, old_words=True)
        if old_status != status:  # the maps of drawings 1-3 keep their words [17.1]
            old_header_lines = (*header_lines, *old_status)
        header_lines = (*header_lines, *status)
    zones, cut = _arnhem_situation(sc, st) if sc.game == "arnhem" else ((), ())
    objectives = _bastogne_objectives(sc, st) if sc.game == "bastogne" else ()
    entries = _entries(sc)
    counters = _counters(sc, st, evs)
    mark_list, eliminated, notes = _event_marks(sc, evs, before)
    now = {ev.unit for ev in evs if isinstance(ev, EliminatedEvent)}
    for uid, us in sorted(st.units.items()):
        if us.status == "eliminated" and uid not in now:
            eliminated.append(PanelRow(f"{unit_text(sc, uid)} (earlier)", "muted"))
    exited = tuple(f"{unit_text(sc, uid)} via {us.exit_edge or '?'} edge"
                   for uid, us in sorted(st.units.items()) if us.status == "exited")

    return MapView(
        scenario_id=sc.id,
        title=title or sc.title,
        subtitle=subtitle or default_subtitle(sc, st),
        cols=m.cols,
        rows=m.rows,
        terrain={h: m.terrain_of(h) for h in m.all_hexes()},
        hexsides=dict(m.hexside_features),
        sides=tuple(SideView(s.id, s.name, s.colour) for s in sc.sides),
        terrain_kinds=frozenset(set(m.terrain) | {m.default_terrain}),
        terrain_looks=terrain_looks(bundled_text(TERRAIN_LOOK)),
        routes=tuple(RouteView(r.kind, tuple(Hex.parse(x) for x in r.hexes), tuple(r.off_map))
                     for r in m.routes),
        places=tuple(PlaceView(Hex.parse(p.hex), p.name) for p in m.places),
        entries=entries,
        entry_heading="Reinforcement entry [11.11]",
        own_entry_heading=f"Reinforcement entry [{cases(sc).entry}]",
        counters=counters,
        marks=tuple(mark_list),
        eliminated=tuple(eliminated),
        exited_heading="Exited [12.0]",
        own_exited_heading=f"Exited [{cases(sc).exited}]",
        exited=exited,
        notes=tuple(notes),
        score=(tuple((side_name(sc, k), v) for k, v in sorted(score.items()))
               if score else None),
        header_lines=tuple(header_lines),
        old_header_lines=old_header_lines,
        viewer=side_name(sc, side) if side is not None else None,
        viewer_id=side,
        value_legend=("values: attack-defense-move,", "artillery barrage-FPF-range/defense-move"),
        step_legend=STEP_LEGEND,
        marker_legend=MARKER_LEGEND,
        north=m.north,
        hexside_marks=_bridge_marks(st),
        hexside_heading="Bridges [12.13, 12.14]",
        zones=zones,
        objectives=objectives,
        unsupplied=cut,
        unsupplied_tag="LOC",
        unsupplied_text="no line of communication [17.31, 17.32, 17.35]",
    )


def _bastogne_objectives(sc: Scenario, st: State) -> tuple[ObjectiveView, ...]:
    """The Bastogne control hexes and who holds each now [15.17] (``bastogne.hex_holder``)."""
    from pbem.systems.westwall.bastogne import hex_holder, special_of

    hexes = special_of(sc).control_hexes
    return tuple(ObjectiveView(Hex.parse(h), "VP", "VP: a Bastogne hex, control of both counts "
                               "(occupied or last passed through) [15.17]", hex_holder(sc, st, h) or "")
                 for h in hexes)


def _arnhem_situation(sc: Scenario, st: State) -> tuple[tuple[ZoneView, ...], tuple[str, ...]]:
    """SPI Arnhem: the drop zones placed (as printed [18.11], or revealed [15.36]: a secret one
    is in the state only once revealed) and the Allied units the rules find without a line of
    communication now [17.35] (``arnhem_victory.loc_failures``, as the end of a game-turn counts
    them)."""
    from pbem.systems.westwall.arnhem import allied_side
    from pbem.systems.westwall.arnhem_victory import loc_failures
    from pbem.systems.westwall.board import Board

    allied = allied_side(sc)
    zones = tuple(ZoneView("drop-zone", allied, (Hex.parse(h),), f"DZ {div}",
                           f"DZ {div}: drop zone of the {div} airborne division [15.35]")
                  for div, h in sorted((st.exclusive.get("dz") or {}).items()))
    if st.phase == "setup":
        return zones, ()
    return zones, tuple(loc_failures(sc, Board.from_state(sc, st), st))


def _entries(sc: Scenario) -> tuple[EntryView, ...]:
    """Each reinforcement's entry areas [11.11]."""
    entries: list[EntryView] = []
    for rf in sc.reinforcements:
        for area in rf.entry:
            hexes = tuple(area_hexes(sc, [area]))
            entries.append(EntryView(rf.side, rf.turn, hexes, area.text or f"{len(hexes)} hexes [{rf.rule}]"))
    return tuple(entries)


def _counters(sc: Scenario, st: State, evs: Sequence[Any]) -> tuple[CounterView, ...]:
    """The units on the map as printed [2.31], tagged: final protective fire this game-turn
    [8.4, 8.46], advanced [7.9], retreated or displaced [7.7, 7.8] this step."""
    advanced = {ev.unit for ev in evs if isinstance(ev, AdvanceEvent)}
    retreated = {ev.unit for ev in evs if isinstance(ev, RetreatEvent | DisplacedEvent)}
    counters: list[CounterView] = []
    for uid, us in sorted(st.units.items()):
        u = sc.unit.get(uid)
        if us.status != "on-map" or us.hex is None or u is None:
            continue
        marks: list[tuple[str, str]] = []
        if u.is_artillery and us.fpf_turn is not None and us.fpf_turn == st.game_turn:
            marks.append(("FPF", "marker-fpf"))
        if uid in advanced:
            marks.append(("ADV", "marker-advanced"))
        if uid in retreated:
            marks.append(("RET", "marker-retreated"))
        counters.append(_counter(u, Hex.parse(us.hex), marks))
    return tuple(counters)


def _event_marks(sc: Scenario, evs: Sequence[Any], before: Sequence[Mapping[str, Hex]]
                 ) -> tuple[list[Mark], list[PanelRow], list[PanelRow]]:
    """What the step did, drawn on the map (moves [5.0], retreats [7.7], displacements [7.8],
    advances [7.9], combats [7.6], eliminations, placements) and listed in the panel (the
    eliminated, the notes); ``before``: where each unit stood before each event."""
    mark_list: list[Mark] = []
    eliminated: list[PanelRow] = []
    notes: list[PanelRow] = []
    for i, ev in enumerate(evs, start=1):
        if isinstance(ev, MovedEvent):
            mark_list.append(MoveMark(i, ev.unit, tuple(Hex.parse(h) for h in ev.path), ev.entered, ev.exited))
        elif isinstance(ev, RetreatEvent | DisplacedEvent | AdvanceEvent):
            mark_list.append(TrailMark(i, ev.type, ev.unit, tuple(Hex.parse(h) for h in ev.path)))
        elif isinstance(ev, CombatEvent):
            mark_list.append(_combat_mark(i, ev, before[i - 1]))
        elif isinstance(ev, EliminatedEvent):
            mark_list.append(EliminatedMark(i, ev.unit, Hex.parse(ev.hex) if ev.hex else None))
            where = f" in {ev.hex}" if ev.hex else ""
            eliminated.append(PanelRow(f"{unit_text(sc, ev.unit)}{where} [{ev.rule}]", "eliminated",
                                       f"event-{i}"))
        elif isinstance(ev, PlacedEvent):
            mark_list.append(PlacedMark(i, ev.unit, Hex.parse(ev.hex)))
        elif isinstance(ev, NoteEvent):
            rule = f" [{ev.rule}]" if ev.rule else ""
            notes.append(PanelRow(f"{ev.text}{rule}", "", f"event-{i}"))
    return mark_list, eliminated, notes


def _combat_mark(i: int, ev: CombatEvent, pos: Mapping[str, Hex]) -> CombatMark:
    """A combat [7.6] where its units stood before it (``pos``): the defenders' hexes, the
    attackers', the barrage's from farther off, the final protective fire's [8.4]; the
    differential, die and result, or cancelled."""
    dhexes = tuple(sorted({pos[u] for u in ev.defenders if u in pos}))
    adjacent = sorted({pos[u] for u in ev.attackers if u in pos})
    barrage = sorted({pos[u] for u in ev.artillery if u in pos} - set(adjacent))
    fpf = sorted({pos[u] for u in ev.fpf if u in pos})
    label = (f"#{ev.number} cancelled" if ev.cancelled else
             f"#{ev.number}  {ev.differential:+d} · {ev.die} · {ev.result}")
    return CombatMark(i, ev.number, dhexes, tuple(adjacent), tuple(barrage), tuple(fpf), label)


def _bridge_marks(st: State) -> tuple[tuple[Hex, Hex, str], ...]:
    """Bridges decided in play (Arnhem [12.1]): demolished ones crossed out, the others ringed."""
    out: list[tuple[Hex, Hex, str]] = []
    for key, what in sorted((st.exclusive.get("bridges") or {}).items()):
        a, _sep, b = key.partition("/")
        kind = "demolished" if what == "demolished" else "safe"
        out.append((Hex.parse(a), Hex.parse(b), kind))
    return tuple(out)

