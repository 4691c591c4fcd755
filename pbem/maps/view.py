"""A system-neutral map view: everything the renderer draws, in the words of any hex wargame.

A system's presenter builds a :class:`MapView` from its own scenario, state and events
(:meth:`pbem.engine.presenter.Presenter.map_view`); :func:`pbem.render.svg.draw` turns it into SVG
without knowing the system. The vocabulary is the hobby's, not one game's: hexes with a terrain
kind (and how each kind looks, :class:`TerrainLook`: the system's data, so the renderer knows no
terrain name), hexside features (``river``, ``stream``, ``canal``, ``ferry``, ``bridge``,
``rail-bridge``, ``destroyed-bridge``, ``road``, ``trail``), roads, trails and railways as routes,
named places, reinforcement entry areas, counters with a NATO symbol, a size, a designation and
their printed values, markers on counters, and marks for what the step did (moves, retreats,
displacements, advances, combats, eliminations, placements), plus the lines of the side panel.

Everything is immutable and ordered, so the same view always draws the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import field

from pbem.maps.hexmap import Hex
from pbem.plain import Plain


class InkMark(Plain, frozen=True):
    """One mark of a terrain pattern, in fractions of the pattern's square tile: a ``circle``
    (``at`` = x, y, r), a ``rect`` (``at`` = x, y, width, height) or a ``path`` (``d``: SVG path
    data whose numbers are tile fractions, drawn with a stroke ``width``)."""

    shape: str
    at: tuple[float, ...] = ()
    d: str = ""
    width: float = 0.0


class TerrainLook(Plain, frozen=True):
    """How maps draw one terrain kind: a fill colour and, over it, marks in an ink colour, so that
    kinds differ without colour vision (no marks: the plain fill)."""

    kind: str
    fill: str
    """``#rrggbb``."""
    ink: str = "#000000"
    marks: tuple[InkMark, ...] = ()


def terrain_looks(text: str) -> tuple[TerrainLook, ...]:
    """The looks of a terrain look file (``pbem/scenario_data/terrain-look.json`` documents the
    form), in its order; ``ValueError`` names what is wrong."""
    data = json.loads(text)
    kinds = data.get("kinds") if isinstance(data, dict) else None
    if not isinstance(kinds, list):
        raise ValueError("a terrain look file is an object with a list of kinds")
    out = []
    for entry in kinds:
        if not (isinstance(entry, dict) and isinstance(entry.get("kind"), str)
                and isinstance(entry.get("fill"), str) and isinstance(entry.get("ink", ""), str)
                and set(entry) <= {"kind", "fill", "ink", "marks", "about"}):
            raise ValueError(f"terrain look {entry!r}: kind, fill, ink, marks, about")
        marks = []
        for m in entry.get("marks", []):
            if isinstance(m, dict) and set(m) in ({"circle"}, {"rect"}) and all(
                    isinstance(v, int | float) for v in next(iter(m.values()))):
                shape, at = next(iter(m.items()))
                if len(at) != (3 if shape == "circle" else 4):
                    raise ValueError(f"terrain look {entry['kind']!r}: {shape} {at!r}")
                marks.append(InkMark(shape, tuple(float(v) for v in at)))
            elif isinstance(m, dict) and set(m) == {"path", "width"} and isinstance(m["path"], str) \
                    and isinstance(m["width"], int | float):
                marks.append(InkMark("path", d=m["path"], width=float(m["width"])))
            else:
                raise ValueError(f"terrain look {entry['kind']!r}: mark {m!r}")
        out.append(TerrainLook(entry["kind"], entry["fill"], entry.get("ink", "#000000"),
                               tuple(marks)))
    return tuple(out)


class SideView(Plain, frozen=True):
    id: str
    name: str
    colour: str
    """Counter colour, ``#rrggbb``."""


class RouteView(Plain, frozen=True):
    kind: str
    """``road``, ``trail`` or ``railway``."""
    hexes: tuple[Hex, ...]
    off_map: tuple[str, ...] = ()
    """``start`` and/or ``end``: the route leads off the map there."""


class PlaceView(Plain, frozen=True):
    hex: Hex
    name: str


class EntryView(Plain, frozen=True):
    """One reinforcement entry area of one game-turn (the renderer groups turns sharing hexes)."""

    side: str
    turn: int
    hexes: tuple[Hex, ...]
    text: str
    """The area in words with its rule case, for the legend."""


class CounterView(Plain, frozen=True):
    id: str
    hex: Hex
    side: str
    symbol: str
    """NATO symbol: ``infantry``, ``armor``, ``mech``, ``recon``, ``airborne``, ``engineer``,
    ``artillery``, ``sp-artillery``; also ``glider``, ``airborne-artillery``, ``antitank`` and
    ``hq`` (defined in a drawing only when a counter uses them)."""
    size: str
    """Unit size mark: ``I``, ``II``, ``III``, ``X``, ``XX``."""
    designation: str
    values: str
    """The printed values as one string (``data-values``)."""
    value_lines: tuple[str, ...]
    """The values as printed on the counter, one or two lines."""
    markers: tuple[tuple[str, str], ...] = ()
    """(text, colour key), e.g. ``("FPF", "marker-fpf")``."""


class MoveMark(Plain, frozen=True):
    index: int
    unit: str
    path: tuple[Hex, ...]
    entered: bool = False
    exited: bool = False


class TrailMark(Plain, frozen=True):
    """A retreat, a displacement or an advance after combat: a dashed arrow."""

    index: int
    kind: str
    """``retreat``, ``displaced`` or ``advance`` (also the colour key)."""
    unit: str
    path: tuple[Hex, ...]


class CombatMark(Plain, frozen=True):
    index: int
    number: int
    defenders: tuple[Hex, ...]
    """Where the defenders stood when the combat was resolved (empty: nothing to draw)."""
    attackers: tuple[Hex, ...]
    barrage: tuple[Hex, ...]
    fpf: tuple[Hex, ...]
    label: str


class EliminatedMark(Plain, frozen=True):
    index: int
    unit: str
    hex: Hex | None


class PlacedMark(Plain, frozen=True):
    index: int
    unit: str
    hex: Hex


Mark = MoveMark | TrailMark | CombatMark | EliminatedMark | PlacedMark


class ObjectiveView(Plain, frozen=True):
    """A hex the victory conditions name (e.g. a bridge that must be held), drawn as a ring with a
    short tag; ``holder``: the side the rules count as holding it now, or empty."""

    hex: Hex
    tag: str
    text: str
    """What it is, with its rule case, for the legend."""
    holder: str = ""


class ZoneView(Plain, frozen=True):
    """Hexes the rules give a meaning during play: a drop zone once it is revealed (``kind``
    ``drop-zone``), the area a victory condition counts (``objective-area``); one hex zones carry
    their ``tag`` on the map, every zone its ``text`` in the legend."""

    kind: str
    side: str
    hexes: tuple[Hex, ...]
    tag: str
    text: str


class PanelRow(Plain, frozen=True):
    text: str
    colour: str = ""
    """A colour key of the renderer's palette (``eliminated``, ``muted``) or empty for text."""
    id: str = ""


class MapView(Plain, frozen=True):
    """What one map shows."""

    scenario_id: str
    title: str
    subtitle: str
    cols: tuple[int, int]
    rows: tuple[int, int]
    terrain: Mapping[Hex, str]
    """Terrain kind of every hex of the map."""
    hexsides: Mapping[tuple[Hex, Hex], frozenset[str]]
    """Hexside (smaller hex first) -> its features."""
    sides: tuple[SideView, ...]
    terrain_kinds: frozenset[str] = frozenset()
    """The terrain kinds the legend lists (in the order of ``terrain_looks``, then by name)."""
    terrain_looks: tuple[TerrainLook, ...] = ()
    """How each terrain kind is drawn, in the legend's order (the system's data, e.g.
    ``terrain-look.json``); a kind without a look is drawn plain in the renderer's
    ``terrain-unknown`` colour."""
    routes: tuple[RouteView, ...] = ()
    places: tuple[PlaceView, ...] = ()
    entries: tuple[EntryView, ...] = ()
    entry_heading: str = "Reinforcement entry"
    own_entry_heading: str | None = None
    """From drawing 3: the entry areas' heading citing the game's own case (a game whose exclusive
    rules number it otherwise than the heading drawings 1 and 2 drew); None: ``entry_heading``."""
    counters: tuple[CounterView, ...] = ()
    marks: tuple[Mark, ...] = ()
    eliminated: tuple[PanelRow, ...] = ()
    exited_heading: str = "Exited"
    own_exited_heading: str | None = None
    """From drawing 3: the exited units' heading citing the game's own case; None: ``exited_heading``."""
    exited: tuple[str, ...] = ()
    notes: tuple[PanelRow, ...] = ()
    score: tuple[tuple[str, int], ...] | None = None
    """(side name, points), in the order to show."""
    header_lines: tuple[str, ...] = ()
    old_header_lines: tuple[str, ...] | None = None
    """The header lines as drawings 1 to 3 worded them, where that differs from ``header_lines``
    (SPI Arnhem's "Points so far" [17.1]): maps an older pbem wrote redraw byte for byte; None: the
    same lines. From drawing 4: ``header_lines``."""
    viewer: str | None = None
    """The side whose view this is (its name), or None."""
    viewer_id: str | None = None
    value_legend: tuple[str, ...] = ()
    """Lines under the unit symbols in the legend (how to read the printed values)."""
    step_legend: tuple[tuple[str, str, bool], ...] = field(default_factory=tuple)
    """(colour key, text, dashed) for the "This step" part of the legend."""
    marker_legend: tuple[tuple[str, str, str], ...] = ()
    """(tag, colour key, meaning) of the tags a counter may carry (``CounterView.markers``)."""
    shaded: tuple[tuple[Hex, str], ...] = ()
    """Hexes to shade, each with a short label (e.g. the movement points it costs to get there):
    what ``pbem reach --map`` shows."""
    shaded_heading: str = ""
    """What the shading means, for the legend."""
    hexside_marks: tuple[tuple[Hex, Hex, str], ...] = ()
    """Hexsides whose state changed during play, with a kind: ``"demolished"`` (a bridge that is
    gone: a red cross over it) or ``"safe"`` (a bridge that will stand: a green ring); drawn over
    the board on each map, listed in the legend."""
    hexside_heading: str = ""
    """What the hexside marks are about, for the legend (e.g. "Bridges [12.17]")."""
    stack_text: bool = True
    """Whether a counter under another one in a stack shows its printed text and tags (True, as
    for games where stacks are short-lived), or only its edge, which tells how many lie beneath
    (False: games whose stacks of two or three are the rule, so the top counter stays legible)."""
    focus: tuple[Hex, ...] = ()
    """Hexes a map cropped to one side's forces should also hold (the objectives near them); on a
    map of everything (an umpire's master map, ``viewer_id`` None), where the step's action is: the
    map of a game with hidden information is cropped to them (:func:`pbem.render.outputs.crop`)."""
    names_clear_bridges: bool = False
    """Whether a place name that would cover a bridge (names sit low in their hex, over the
    hexside below) moves above its hex number instead (False: where earlier maps had them)."""
    objectives: tuple[ObjectiveView, ...] = ()
    zones: tuple[ZoneView, ...] = ()
    unsupplied: tuple[str, ...] = ()
    """Ids of the units on the map the rules find out of supply or without their line of
    communication (the rules' own verdict, not the renderer's): their hexes are ringed."""
    unsupplied_tag: str = "OOS"
    unsupplied_text: str = "out of supply"
    """The legend's words for :attr:`unsupplied`, with the rule case."""
    north: str = "up"
    """Where north lies on the raw grid (columns across, rows down): ``"up"``, or ``"right"`` for
    a map numbered south to north in its first two digits (Arnhem), which is drawn turned a
    quarter to the left so that north is up."""

    def on_map(self, h: Hex) -> bool:
        return self.cols[0] <= h.col <= self.cols[1] and self.rows[0] <= h.row <= self.rows[1]

    def all_hexes(self) -> list[Hex]:
        return [Hex(c, r) for c in range(self.cols[0], self.cols[1] + 1)
                for r in range(self.rows[0], self.rows[1] + 1)]

    def terrain_of(self, h: Hex) -> str:
        return self.terrain.get(h, "clear")

    def features(self, a: Hex, b: Hex) -> frozenset[str]:
        return self.hexsides.get((a, b) if a < b else (b, a), frozenset())
