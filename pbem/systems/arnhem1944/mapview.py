"""The Arnhem 1944 map view: a scenario, a state and a step's events as the system-neutral
:class:`pbem.maps.view.MapView` the renderer draws: the counters as printed (CF, armour or antitank
rating, steps, MP [1.1]; artillery BR-DF-range and MP [1.4]) with their markers (activated [3.1],
out of command [9], out of supply [10], prepared position [11]), the German entry zones and the
XXX Corps entry hex [15.1, 15.3], what the step did (moves, combats with odds, die and result
[7.4], retreats and advances [7.6], eliminations, landings and entries [15]) and the crossings
blown or saved [12.2].

Symbols: anti-tank units with the anti-tank symbol, HQs with the HQ symbol and size XX, parachute
infantry as airborne; railways are routes of their own kind, drawn under the roads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from pbem.systems.arnhem1944.model import Counter, Scenario
from pbem.systems.arnhem1944.queries import Game
from pbem.systems.arnhem1944.state import State
from pbem.systems.arnhem1944.words import event_text

TERRAIN_LOOK = "terrain-look.json"
"""How the map draws each terrain kind (bundled data, shared with the other bundled systems)."""

PARACHUTE = frozenset({"1AB", "82AB", "Pol"})

STEP_LEGEND = (("move", "movement [6]", False),
               ("attack", "attack: odds · die · result [7.4]", False),
               ("retreat", "retreat [7.6]", True),
               ("advance", "advance after combat [7.6]", True))

MARKER_LEGEND = (("ACT", "marker-advanced", "activated this turn [3.1]"),
                 ("OOC", "marker-retreated", "out of command [9]"),
                 ("OOS", "marker-fpf", "out of supply [10]"),
                 ("PDP", "marker-advanced", "prepared defensive position [11]"))


def _symbol(c: Counter) -> tuple[str, str]:
    if c.kind == "hq":
        return "hq", "XX"
    if c.kind == "engineer":
        return "engineer", "II"
    if c.kind == "artillery":
        return ("sp-artillery" if c.mobility in ("mechanized", "tracked") else "artillery"), "II"
    if c.arm == "antitank":
        return "antitank", "II"
    if c.arm == "armour":
        return "armor", "II"
    if c.arm == "recce":
        return "recon", "II"
    return ("airborne" if c.formation in PARACHUTE else "infantry"), "II"


def counter_values(c: Counter, steps: int) -> tuple[str, ...]:
    """The values as printed [1.1, 1.4]: ``CF-rating-MP`` and the steps, or ``BR-DF-range`` and
    the MP for artillery (the second counter's once reduced to it [1.2])."""
    if c.kind == "artillery":
        return (f"{c.br}-{c.df}-{c.range}", f"{c.mp}")
    r = c.reduced
    cf, armour, antitank, mp = c.cf, c.armour, c.antitank, c.mp
    if r is not None and steps <= r.steps:
        cf, armour, antitank, mp = r.cf, r.armour, r.antitank, r.mp
    rating = f"{armour}a" if armour else f"{antitank}t" if antitank else "0"
    return (f"{cf}-{rating}-{mp}", f"{steps} step{'s' if steps != 1 else ''}")


def map_view(sc: Scenario, state: State | Mapping[str, Any], events: Sequence[Any] = (), *,
             subtitle: str = "", side: str | None = None,
             score: Mapping[str, int] | None = None,
             header_lines: Sequence[str] = ()) -> MapView:
    """The map after a step: the counters with their markers, the entries [15.1, 15.3], what
    ``events`` did, the crossings tried [12.2] and where victory stands [16] (``score``)."""
    st = state if isinstance(state, State) else State.parse(state)
    m = sc.map
    names = {s["id"]: s.get("name", s["id"]) for s in sc.sides}
    counters = _counters(sc, st)
    entries = _entries(sc)
    marks, eliminated, notes = _event_marks(sc, events)
    for uid, u in sorted(st.units.items()):
        if not u.alive and not any(isinstance(x, EliminatedMark) and x.unit == uid
                                   for x in marks):
            eliminated.append(PanelRow(f"{uid} (earlier)", "muted"))
    hexside_marks = tuple(
        (Hex.parse(key.split("/")[0]), Hex.parse(key.split("/")[1]),
         "demolished" if key in st.blown else "safe")
        for key in sorted(st.tried))
    status = (f"Turn {st.turn} of {sc.last_turn} · {st.weather} · initiative "
              f"{names.get(st.initiative, st.initiative)}")
    return MapView(
        scenario_id=sc.id,
        title=sc.title,
        subtitle=subtitle or status,
        cols=m.cols,
        rows=m.rows,
        terrain={h: m.terrain_of(h) for h in m.all_hexes()},
        hexsides=dict(m.hexside_features),
        sides=tuple(SideView(s["id"], s.get("name", s["id"]), s.get("colour", "#808080"))
                    for s in sc.sides),
        terrain_kinds=frozenset(set(m.terrain) | {m.default_terrain}),
        terrain_looks=terrain_looks(bundled_text(TERRAIN_LOOK)),
        routes=tuple(RouteView(kind, tuple(Hex.parse(x) for x in hexes), tuple(off))
                     for kind, hexes, off in [*((r.kind, r.hexes, r.off_map) for r in m.railways),
                                              *((r.kind, r.hexes, r.off_map) for r in m.routes)]),
        places=tuple(PlaceView(Hex.parse(p.hex), p.name) for p in m.places),
        entries=entries,
        entry_heading="Reinforcement entry [15.1, 15.3]",
        counters=counters,
        marks=tuple(marks),
        eliminated=tuple(eliminated),
        notes=tuple(notes),
        score=None,
        header_lines=(*_victory_line(sc, st, score), status if not subtitle else
                      f"initiative {names.get(st.initiative, st.initiative)} [2.1]",
                      *header_lines),
        viewer=names.get(side, side) if side is not None else None,
        viewer_id=side,
        value_legend=("values: CF-rating-MP (a armour, t antitank) and steps,",
                      "artillery BR-DF-range and MP"),
        step_legend=STEP_LEGEND,
        marker_legend=MARKER_LEGEND,
        north=m.north,
        names_clear_bridges=True,  # "Arnhem" would cover the Arnhem road bridge [16]
        stack_text=False,  # up to six steps a hex [5]: stacks of two or three are the rule
        hexside_marks=hexside_marks,
        hexside_heading="Crossings tried by the Germans [12.2]",
        objectives=tuple(ObjectiveView(Hex.parse(h), "VP", f"VP: {sc.victory.bridge} hex, Allied strategic "
                                       "victory if both are Allied [16]", st.bridge.get(h, ""))
                         for h in sc.victory.bridge_hexes),
        zones=(ZoneView("objective-area", "AL", tuple(sorted(Hex.parse(h) for h in sc.far_bank)), "",
                        f"over the {sc.victory.river}: {sc.victory.bridgehead_steps} Allied infantry steps "
                        "make a bridgehead [16]"),
               *(ZoneView("drop-zone", "AL", (Hex.parse(h),), "DZ",
                          "DZ: a drop zone in use, where the airborne trace supply [10.1, 15.2]")
                 for h in sorted(Game(sc).drop_zones(st)))),
        # the supply the rules established at the last supply check [10] (the state's own flag)
        unsupplied=tuple(uid for uid, u in sorted(st.units.items())
                         if u.on_map and u.hex is not None and not u.in_supply),
        unsupplied_tag="OOS",
        unsupplied_text="out of supply [10]",
    )


def _counters(sc: Scenario, st: State) -> tuple[CounterView, ...]:
    """The units on the map as printed [1.1, 1.4], with their markers: activated [3.1], out of
    command [9], out of supply [10], prepared position [11]."""
    counters: list[CounterView] = []
    for uid, u in sorted(st.units.items()):
        if not u.on_map or u.hex is None:
            continue
        c = sc.counter[uid]
        symbol, size = _symbol(c)
        marks: list[tuple[str, str]] = []
        if u.activated:
            marks.append(("ACT", "marker-advanced"))
        if not u.in_command:
            marks.append(("OOC", "marker-retreated"))
        if not u.in_supply:
            marks.append(("OOS", "marker-fpf"))
        if u.prepared:
            marks.append(("PDP", "marker-advanced"))
        lines = counter_values(c, u.steps)
        counters.append(CounterView(uid, Hex.parse(u.hex), c.side, symbol, size, uid,
                                    " ".join(lines), lines, tuple(marks)))
    return tuple(counters)


def _entries(sc: Scenario) -> tuple[EntryView, ...]:
    """Where and when reinforcements enter: the German entry zones [15.1], the XXX Corps entry
    hex [15.3]; each zone or hex once a turn."""
    entries: list[EntryView] = []
    seen: set[tuple[str, int]] = set()
    for r in sc.reinforcements:
        key = (r.zone or r.hex or "", r.turn)
        if key in seen:
            continue
        seen.add(key)
        if r.zone is not None:
            zone = sc.map.entry_zones[r.zone]
            entries.append(EntryView("DE", r.turn, tuple(Hex.parse(h) for h in zone.hexes),
                                     f"zone {r.zone}: {zone.name} [15.1]"))
        elif r.hex is not None:
            entries.append(EntryView("AL", r.turn, (Hex.parse(r.hex),),
                                     f"XXX Corps by {r.hex} [15.3]"))
    return tuple(entries)


NOTED = ("initiative", "weather", "turn-end", "turn-end-die", "blown", "not-blown", "game-end")
"""Events listed in the panel's notes, in words."""


def _event_marks(sc: Scenario, events: Sequence[Any]
                 ) -> tuple[list[Mark], list[PanelRow], list[PanelRow]]:
    """What the step did, drawn on the map (moves [6], landings and entries [15], retreats and
    advances [7.6], combats and bombardments numbered with odds, die and result [7.4, 8.1],
    eliminations) and listed in the panel (the eliminated, the notes)."""
    marks: list[Mark] = []
    eliminated: list[PanelRow] = []
    notes: list[PanelRow] = []
    number = 0
    for i, ev in enumerate(events, start=1):
        k = ev.get("kind") if isinstance(ev, Mapping) else None
        if k in ("combat", "bombardment"):
            number += 1
            marks.append(_combat_mark(i, number, ev))
        elif k == "eliminated":
            h = ev.get("hex")
            marks.append(EliminatedMark(i, ev["unit"], Hex.parse(h) if h else None))
            eliminated.append(PanelRow(f"{ev['unit']}{' in ' + h if h else ''} [7.5]",
                                       "eliminated", f"event-{i}"))
        elif k in NOTED:
            notes.append(PanelRow(event_text(ev, sc), "", f"event-{i}"))
        else:
            marks += _path_marks(i, k, ev)
    return marks, eliminated, notes


def _path_marks(i: int, k: Any, ev: Any) -> list[Mark]:
    """Event ``i``'s marks if it moved a unit: a move [6], a landing or entry [15], a retreat
    (off the map: its last hex on it) or an advance [7.6]; none for any other event."""
    if k == "moved":
        path = (Hex.parse(ev["from"]), *(Hex.parse(h) for h in ev["path"]))
        return [MoveMark(i, ev["unit"], path)]
    if k in ("dropped", "entered"):
        return [PlacedMark(i, ev["unit"], Hex.parse(ev["hex"]))]
    if k == "retreated":
        path = (Hex.parse(ev["from"]), *(Hex.parse(h) for h in ev["path"] if h != "off-map"))
        return [TrailMark(i, "retreat", uid, path) for uid in ev["units"]]
    if k == "advanced":
        path = (Hex.parse(ev["from"]), *(Hex.parse(h) for h in ev["path"]))
        return [TrailMark(i, "advance", ev["unit"], path)]
    return []


def _combat_mark(i: int, number: int, ev: Any) -> CombatMark:
    """Combat ``number`` (event ``i``): the attackers' and the supporting artillery's hexes
    (a bombardment has artillery only [8.1]), the defensive fire's, odds, die and result [7.4]."""
    attackers = tuple(Hex.parse(h) for h in ev.get("from", []) if h)
    support = tuple(Hex.parse(h) for h in ev.get("support_from", []) if h)
    if ev.get("kind") == "bombardment":
        attackers, support = (), attackers
    fire = tuple(Hex.parse(h) for h in ev.get("defence_from", []) if h)
    label = f"#{number}  {ev['odds']} · {ev['die']} · {ev['result']}"
    return CombatMark(i, number, (Hex.parse(ev["target"]),), attackers, support, fire, label)


def _victory_line(sc: Scenario, st: State, score: Mapping[str, int] | None) -> tuple[str, ...]:
    """Where victory stands [16], when the step has a score: it counts no victory points, so
    say what it counts."""
    if not score:
        return ()
    v = sc.victory
    held = sum(1 for h in v.bridge_hexes if st.bridge.get(h) == "AL")
    east = f" from column {v.east_of_col:02d} east" if v.east_of_col else ""
    return (f"Victory [16]: {score.get('AL', 0)} Allied infantry steps over the "
            f"{v.river}{east} ({v.bridgehead_steps} needed) · {held} of "
            f"{len(v.bridge_hexes)} Arnhem bridge hexes Allied",)
