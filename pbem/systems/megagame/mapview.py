"""The megagame's maps (seed 004): a team's own map and Game Control's master map, as the
system-neutral :class:`pbem.maps.view.MapView` the renderer draws.

A team's map is drawn from its view alone [10]: its own units (designation and a word for their
state, never a status number: counters show only what a player's map may show [9]), the other
teams of its side, the enemy it has seen (a grey counter saying about how many battalions, tanks
named), the objectives and who holds them, its air reports. Game Control's master map shows every
unit with its status and steps lost. Blown bridges are crossed out [8]."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine.scenarios import bundled_text
from pbem.maps.hexmap import Hex, hexside
from pbem.maps.view import (
    CombatMark,
    CounterView,
    MapView,
    Mark,
    MoveMark,
    PanelRow,
    PlaceView,
    RouteView,
    SideView,
    terrain_looks,
)
from pbem.systems.megagame.board import turn_label
from pbem.systems.megagame.model import HeldObjective, MegaScenario, MegaState, TeamView

TERRAIN_LOOK = "terrain-look.json"
"""How the map draws each terrain kind (bundled data, shared with the other bundled systems)."""

COLOURS = {"allied": "#7fa7d9", "german": "#9aa586", "enemy": "#b0b0b0"}
SYMBOL = {"infantry": "infantry", "armour": "armor", "artillery": "artillery", "antitank": "armor",
          "recce": "recon", "hq": "infantry", "other": "infantry"}
SHORT = {"in good heart": "fresh", "battered but in good order": "battered", "badly worn": "worn",
         "no longer an effective fighting unit": "spent", "in good order": "in order", "shaken": "shaken"}


def _short(words: str) -> str:
    for long, short in SHORT.items():
        if words.startswith(long):
            return short
    return words.split(":")[0][:12]


def _terrain(sc: MegaScenario) -> dict[Hex, str]:
    return dict(sc.map.geo.terrain)


def _hexsides(sc: MegaScenario) -> dict[tuple[Hex, Hex], frozenset[str]]:
    out: dict[tuple[Hex, Hex], set[str]] = {}
    for line in sc.map.lines:
        for text in line.hexsides:
            a, b = (Hex.parse(x) for x in text.split("/"))
            out.setdefault(hexside(a, b), set()).add(line.kind)
    for r in sc.map.routes:
        for ta, tb in zip(r.hexes, r.hexes[1:], strict=False):
            ha, hb = Hex.parse(ta), Hex.parse(tb)
            if ha.is_adjacent(hb) and r.kind in ("road", "trail"):
                out.setdefault(hexside(ha, hb), set()).add(r.kind)
    return {k: frozenset(v) for k, v in out.items()}


def _blown_marks(sc: MegaScenario, blown: Sequence[str]) -> tuple[tuple[Hex, Hex, str], ...]:
    out = []
    for line in sc.map.lines:
        if line.name in blown and line.kind in ("bridge", "rail-bridge", "ferry"):
            for text in line.hexsides:
                a, b = (Hex.parse(x) for x in text.split("/"))
                out.append((*hexside(a, b), "demolished"))
    return tuple(sorted(out))


FOCUS_KM = 15
"""A team's map, cropped to its forces, also holds the objectives this near one of its units."""


NOT_ACTION = frozenset({"recce", "resupply", "air-combat", "delayed", "turned-back", "note", "rulings"})
"""Events of a turn that are no unit's move or fight (air missions over a hex, the weather, Game
Control's rulings): Game Control's map is not framed on them."""


def action_hexes(sc: MegaScenario, state: MegaState, events: Sequence[Mapping[str, Any]]) -> tuple[Hex, ...]:
    """Where the units that moved or fought in a step's events did, for Game Control's master map
    to frame [9]: every hex a unit moved through, fought at, was struck from the air or dropped at,
    and where each unit named in them stands now."""
    out: set[Hex] = set()
    known = set(sc.map.geo.hexes)

    def add(text: Any) -> None:
        if isinstance(text, str):
            try:
                h = Hex.parse(text)
            except (ValueError, TypeError):
                return
            if h in known:
                out.add(h)

    def unit(uid: Any) -> None:
        s = state.units.get(uid) if isinstance(uid, str) else None
        if s is not None and s.hex is not None:
            add(s.hex)

    for e in events:
        if e.get("kind") in NOT_ACTION or (e.get("kind") == "interdiction" and not e.get("hits")):
            continue
        for key in ("at", "from", "to"):
            add(e.get(key))
        for h in e.get("path") or ():
            add(h)
        for m in e.get("moves") or ():  # an overrun's drives
            for h in m.get("path") or ():
                add(h)
        for key in ("unit", "battery"):
            unit(e.get(key))
        for key in ("attackers", "defenders", "units", "by"):
            for uid in e.get(key) or ():
                unit(uid)
    return tuple(sorted(out))


def map_view(sc: MegaScenario, state: MegaState | TeamView | Mapping[str, Any], *, subtitle: str = "",
             side: str | None = None, header_lines: Sequence[str] = (),
             events: Sequence[Mapping[str, Any]] = ()) -> MapView:
    """A team's map from its view, or Game Control's master map from the master state, its focus on
    the action of the step whose ``events`` are given (else on every unit on the map)."""
    if isinstance(state, Mapping):
        state = TeamView.parse(state) if "team" in state else MegaState.parse(state)
    teams = {t.id: t for t in sc.teams}
    units = {u.id: u for u in sc.units}
    counters: list[CounterView] = []
    notes: list[PanelRow] = []
    step_marks: list[Mark] = []
    step_legend: tuple[tuple[str, str, bool], ...] = ()
    if isinstance(state, TeamView):
        me = teams[state.team]
        for u in state.units:
            d = units[u.id]
            t = sc.types[d.type]
            marks = (("PREP", "marker-advanced"),) if u.prepared else ()
            counters.append(CounterView(u.id, Hex.parse(u.hex), me.side, SYMBOL[t.kind], "II", u.id,
                                        u.state, (_short(u.state),), marks))
        for f in state.friends:
            d = units[f.id]
            counters.append(CounterView(f.id, Hex.parse(f.hex), me.side, SYMBOL[sc.types[d.type].kind], "II",
                                        f.id, f"{f.team}", (f.team,)))
        for e in state.enemy:
            counters.append(CounterView(f"enemy-{e.hex}", Hex.parse(e.hex), "enemy",
                                        "armor" if "tanks" in e.seen else "infantry", "", "enemy", e.seen,
                                        (e.seen.replace("about ", "~").replace(" battalions", " bn")
                                         .replace(" battalion", " bn").replace(", with tanks", " +T"),)))
        held_at_hqs = sum(s.points for s in state.stacks)  # rules version 3: per HQ stack [11]
        notes += [PanelRow(f"Supply: {state.supply} points [11]") if not state.stacks else PanelRow(
            f"Supply: {held_at_hqs} points at {len(state.stacks)} HQ{'s' if len(state.stacks) != 1 else ''}"
            + (f", {state.supply} for units without an HQ" if state.supply else "") + " [11]")]
        notes += [PanelRow(f"Air: {line} [12]") for line in state.air]
        held = state.objectives
        turn, date, viewer = state.turn, state.date, me.name
        sides = (SideView(me.side, me.side.capitalize(), COLOURS[me.side]),
                 SideView("enemy", "enemy seen", COLOURS["enemy"]))
        blown = state.blown
        # last turn's own moves and fights (rules version 3's views hold them) [10]
        step_marks += [MoveMark(i, uid, tuple(Hex.parse(h) for h in path))
                       for i, (uid, path) in enumerate(sorted(state.moves.items()))]
        step_marks += [CombatMark(len(step_marks) + i, i + 1, (Hex.parse(h),), (), (), (), "fight")
                       for i, h in enumerate(state.fights)]
        if step_marks:
            step_legend = (("move", "where our units went last turn [6]", False),
                           ("attack", "where our units fought last turn [9]", False))
        own = [Hex.parse(u.hex) for u in state.units]
        focus = tuple(sorted({Hex.parse(o.hex) for o in held
                              if any(Hex.parse(o.hex).distance(h) <= FOCUS_KM for h in own)}
                             | {h for m in step_marks if isinstance(m, MoveMark) for h in m.path}
                             | {Hex.parse(h) for h in state.fights}))
        legend: tuple[str, ...] = ("own units: designation, state in a word; PREP: prepared last turn [5, 9]",
                  "other teams of the side: designation and team; enemy: about how many battalions, +T tanks")
    else:
        for d in sc.units:
            s = state.units[d.id]
            if s.hex is None or s.gone:
                continue
            t = sc.types[d.type]
            status = t.combat_profile(s.steps).status
            marks = (("PREP", "marker-advanced"),) if s.prepared else ()
            counters.append(CounterView(d.id, Hex.parse(s.hex), teams[d.team].side, SYMBOL[t.kind], "II", d.id,
                                        f"status {status}, {s.steps} steps lost", (f"{status} ({d.team})",),
                                        marks))
        held = [HeldObjective(name=o.name, hex=o.hex, points=o.points, held_by=state.control.get(o.hex, o.held_by))
                for o in sc.objectives]
        turn, date, viewer = state.turn, turn_label(sc, state.turn), "Game Control (master map)"
        sides = (SideView("allied", "Allied", COLOURS["allied"]), SideView("german", "German", COLOURS["german"]))
        blown = state.blown
        legend = ("status and team of every unit: Game Control's master map [9]",)
        # the master map is framed on what happened this step, else on the units [9]
        focus = action_hexes(sc, state, events) or tuple(sorted({c.hex for c in counters}))
    for o in held:
        notes.append(PanelRow(f"{o.name} ({o.hex}, {o.points} points): held by the {o.held_by} side"))
    notes += [PanelRow(f"Choke point {c.name} ({c.hex}): {c.what}, {c.capacity} unit points a phase [7]")
              for c in sc.chokes]
    m = sc.map
    return MapView(
        scenario_id=sc.id,
        title=sc.title,
        subtitle=subtitle or f"Turn {turn} of {sc.turns}: {date}",
        cols=m.cols,
        rows=m.rows,
        terrain=_terrain(sc),
        hexsides=_hexsides(sc),
        sides=sides,
        terrain_kinds=frozenset(set(m.terrain) | {m.default_terrain}),
        terrain_looks=terrain_looks(bundled_text(TERRAIN_LOOK)),
        routes=tuple(RouteView(r.kind, tuple(Hex.parse(x) for x in r.hexes), tuple(r.off_map))
                     for r in (*m.railways, *m.routes)),
        places=tuple(PlaceView(Hex.parse(p.hex), p.name) for p in m.places),
        counters=tuple(sorted(counters, key=lambda c: (c.hex, c.id))),
        marks=tuple(step_marks),
        step_legend=step_legend,
        notes=tuple(notes),
        header_lines=(f"{viewer} · turn {turn}, {date}", *header_lines),
        viewer=viewer,
        viewer_id=side,
        value_legend=legend,
        hexside_marks=_blown_marks(sc, blown),
        hexside_heading="Bridges blown [8]",
        focus=focus,
        shaded=tuple((Hex.parse(o.hex), f"{o.points} pts {o.held_by[0].upper()}") for o in held),
        shaded_heading="Objectives: points, held by (A)llied or (G)erman",
    )
