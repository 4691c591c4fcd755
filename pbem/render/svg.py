"""The turn snapshot as an SVG map: a pure function, like ``chess.svg.board``.

:func:`draw` draws a system-neutral :class:`~pbem.maps.view.MapView` -- terrain, hexside features,
hex numbers, place names, map edges and reinforcement entry areas, the units as counters (side
colour, NATO symbol, designation, values as printed) and what the last step did: movement paths,
attacks labelled with their result, retreats, displacements, advances and eliminations, with a
header and a legend. It imports no rules system: a system's presenter builds the view (for
WestWall, :func:`pbem.systems.westwall.mapview.map_view`).

Geometry (SPI ``XXYY``, flat-topped hexes in vertical columns, even columns half a hex lower): the
centre of a hex with centre-to-corner size ``s`` is ``x = 1.5·s·col``, ``y = √3·s·(row + ½·[col
even])`` in the SVG's user units; margins, header and legend are placed around that by the
``viewBox``, so the centre of a hex can be computed by hand from its number.

Output is deterministic: coordinates are rounded to two decimals, every element is emitted in a
fixed order, every id is explicit (svgwrite's automatic ids are never used), so the same inputs give
the same bytes. Elements carry ids and data attributes for tools and tests: ``id="hex-1317"``,
``id="unit-1/501" data-hex="1418"``, ``id="event-3" data-type="combat"`` (events are numbered from
1 in the order of the step's event list).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import svgwrite
from svgwrite.container import Group

from pbem.maps.hexmap import Hex
from pbem.maps.view import (
    CombatMark,
    CounterView,
    EliminatedMark,
    MapView,
    MoveMark,
    PlacedMark,
    TrailMark,
)

SQRT3 = math.sqrt(3.0)

DEFAULT_HEX_SIZE = 32.0
"""Centre-to-corner distance of a hex, in SVG user units (pixels at 100 %)."""

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
MAX_FAN = 4
"""Counters a stack fans out to at most; a bigger one is squeezed into the same fan and counted."""

DEFAULT_COLORS: dict[str, str] = {
    # page
    "background": "#f7f5ee",
    "text": "#1d1d1d",
    "muted": "#5d5d5d",
    "panel": "#ffffff",
    "reach": "#2f8f4e",
    "reach-text": "#0d3b1d",
    "panel-border": "#b9b4a4",
    # hexes
    "hex-outline": "#8f8a78",
    "hex-number": "#4a4638",
    "map-edge": "#2b2b2b",
    "place-name": "#1d1d1d",
    "place-halo": "#ffffff",
    "terrain-clear": "#efe9cc",
    "terrain-mixed": "#dfe3b0",
    "terrain-grove": "#c3dd9f",
    "terrain-town": "#d9c7b4",
    "terrain-broken": "#d4b98a",
    "terrain-woods": "#79ad5e",
    "terrain-rough": "#b0916a",
    "terrain-city": "#b9a596",
    "terrain-lake": "#8fc0ea",
    "terrain-polder": "#dcebb8",
    "terrain-marsh": "#b9d6c4",
    "terrain-unknown": "#e0e0e0",
    # pattern ink on top of the fills
    "ink-grove": "#6f9a4c",
    "ink-woods": "#3d6e2c",
    "ink-broken": "#8c6d3f",
    "ink-rough": "#6b4f2e",
    "ink-town": "#5b4636",
    "ink-city": "#3e3028",
    "ink-mixed": "#9da86a",
    "ink-lake": "#4f8fc8",
    "ink-polder": "#7eaed3",
    "ink-marsh": "#2f6f6a",
    # hexsides
    "river": "#1e5fc4",
    "stream": "#3f8fe6",
    "canal": "#17408f",
    "ferry": "#1e5fc4",
    "road": "#b5352a",
    "trail": "#7b5535",
    "railway": "#262626",
    "railway-tie": "#ffffff",
    "bridge": "#2b2b2b",
    "bridge-deck": "#f2f2f2",
    "destroyed": "#d01010",
    # what the step did
    "move": "#222222",
    "attack": "#d0141b",
    "barrage": "#d0141b",
    "fpf": "#1c5fd0",
    "retreat": "#e07a00",
    "displaced": "#a05ad0",
    "advance": "#138a36",
    "placed": "#6a2c91",
    "eliminated": "#d0141b",
    "label-bg": "#ffffff",
    # markers on counters
    "marker-fpf": "#ffd83a",
    "marker-advanced": "#b9f0c4",
    "marker-retreated": "#ffd0a0",
}
"""Colour of every drawn thing; pass ``colors={...}`` to override any of them. A side's counter
colour comes from the scenario (``sides[].colour``) unless ``colors["side-<ID>"]`` overrides it."""

TERRAIN_ORDER = ("clear", "mixed", "grove", "town", "broken", "woods", "rough", "city", "lake",
                 "polder", "marsh")
WATER_KINDS = ("river", "stream", "canal")
HEXSIDE_ORDER = (
    "river", "stream", "canal", "road", "trail", "railway", "bridge", "rail-bridge", "ferry",
    "destroyed-bridge"
)
NATO_TYPES = (
    "armor", "mech", "recon", "infantry", "airborne", "engineer", "artillery", "sp-artillery"
)
EXTRA_NATO_TYPES = ("glider", "airborne-artillery", "antitank", "hq")
"""Symbols defined (and listed in the legend) only on maps that show such a counter, so maps of
games without them stay byte for byte as they were."""


def xml_id(prefix: str, name: str) -> str:
    """An XML-valid id for ``name`` (a unit id such as ``2/501``): characters other than letters,
    digits, ``.`` and ``-`` become ``_HH_`` (their code in hex), so ``unit-2/501`` is
    ``unit-2_2f_501``; the name itself is in ``data-unit``."""
    return prefix + "".join(c if c.isascii() and (c.isalnum() or c in ".-") else f"_{ord(c):x}_"
                            for c in name)


def _n(v: float) -> str:
    """A coordinate as short deterministic text (one decimal -- a tenth of a pixel at the default
    hex size -- no trailing zeros)."""
    text = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pts(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _luminance(colour: str) -> float:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        r, g, b = (int(c[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
    except ValueError:
        return 0.5
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def hex_center(h: Hex, hex_size: float = DEFAULT_HEX_SIZE) -> tuple[float, float]:
    """Centre of hex ``h`` in the map's user units (before any viewBox offset)."""
    return (1.5 * hex_size * h.col, SQRT3 * hex_size * (h.row + (0.5 if h.col % 2 == 0 else 0.0)))


@dataclass(frozen=True)
class _Frame:
    """Where the map, header and side panel sit in user units."""

    map_x0: float
    map_y0: float
    map_x1: float
    map_y1: float
    header_y0: float
    panel_x0: float
    panel_w: float
    view: tuple[float, float, float, float]


class _Renderer:
    def __init__(
        self,
        view: MapView,
        *,
        around: Hex | None,
        radius: int | None,
        hex_size: float,
        colors: Mapping[str, str] | None,
        show_hex_numbers: bool,
        board: str | None = None,
    ) -> None:
        self.v = view
        self.board = board
        self.title = view.title
        self.subtitle = view.subtitle
        self.side = view.viewer_id
        self.s = float(hex_size)
        self.col = dict(DEFAULT_COLORS)
        self.side_colour = {si.id: si.colour for si in view.sides}
        for key, value in (colors or {}).items():
            if key.startswith("side-"):
                self.side_colour[key[5:]] = value
            else:
                self.col[key] = value
        self.show_numbers = show_hex_numbers
        self.turned = view.north == "right"
        self._turn_x = 1.5 * self.s * (view.cols[1] + view.cols[0])
        self.score = list(view.score) if view.score else None
        self.header_lines = list(view.header_lines)
        all_hexes = view.all_hexes()
        if around is not None:
            r = 3 if radius is None else radius
            self.visible = [h for h in around.within(r) if view.on_map(h)]
            self.cropped = True
        else:
            self.visible = all_hexes
            self.cropped = False
        self.visible_set = frozenset(self.visible)
        # counter side: a counter spans 0.5 hex either side of the centre, clear of the hex number
        # above it (-0.64 to -0.88) and a place name below it (+0.52 to +0.82) [readability]
        self.cs = 1.0 * self.s
        self._boxes: list[tuple[float, float, float, float]] | None = None
        """Counters and combat labels placed so far (``_label_spot``)."""

    # -- geometry ---------------------------------------------------------------------------------
    def c(self, h: Hex) -> tuple[float, float]:
        x, y = hex_center(h, self.s)
        if self.turned:  # north to the right of the raw grid: turn a quarter left, north up
            return y, self._turn_x - x
        return x, y

    def side_segment(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
        """End points of the hexside between adjacent hexes ``a`` and ``b``."""
        ax, ay = self.c(a)
        bx, by = self.c(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        d = math.hypot(bx - ax, by - ay) or 1.0
        px, py = -(by - ay) / d * self.s / 2, (bx - ax) / d * self.s / 2
        return (mx + px, my + py), (mx - px, my - py)

    def frame(self) -> _Frame:
        """Map box and header; the total height is settled after the panel is drawn."""
        s = self.s
        xs = [self.c(h)[0] for h in self.visible] or [0.0]
        ys = [self.c(h)[1] for h in self.visible] or [0.0]
        pad = 0.9 * s  # room for entry-area labels outside the map edge
        padx = 2.3 * s  # horizontal entry tags beside the west and east edges
        mx0, mx1 = min(xs) - s - padx, max(xs) + s + padx
        my0, my1 = min(ys) - SQRT3 / 2 * s - pad, max(ys) + SQRT3 / 2 * s + pad
        n_header = 2 + (1 if self.score else 0) + len(self.header_lines)
        header_h = 0.55 * s * n_header + 0.6 * s
        panel_w = max(9.0 * s, self._legend_width())
        gap = 0.4 * s
        y0 = my0 - header_h
        w = (mx1 - mx0) + gap + panel_w + 0.3 * s
        return _Frame(mx0, my0, mx1, my1, y0, mx1 + gap, panel_w, (mx0, y0, w, my1 - y0))

    # -- data -------------------------------------------------------------------------------------
    def _terrain_kinds(self) -> list[str]:
        used = set(self.v.terrain_kinds)
        ordered = [k for k in TERRAIN_ORDER if k in used]
        return ordered + sorted(used - set(TERRAIN_ORDER))

    def _hexside_kinds(self) -> list[str]:
        used: set[str] = {r.kind for r in self.v.routes}  # every route kind has a legend line
        for kinds in self.v.hexsides.values():
            used |= kinds
        ordered = [k for k in HEXSIDE_ORDER if k in used]
        return ordered + sorted(used - set(HEXSIDE_ORDER))

    def _legend_width(self) -> float:
        """Room the legend's longest line needs (legend text is 0.3 hex high; a character of the
        sans-serif face averages under 0.6 of its height), so that no line runs past the panel."""
        s = self.s
        v = self.v
        rows: list[tuple[str, float]] = [(f"{si.name} ({si.id})", 1.3) for si in v.sides]
        rows += [(text, 1.3) for _key, text, _dashed in v.step_legend]
        rows += [(text, 0.0) for text in v.value_legend]
        rows += [(f"{side} GT {', '.join(str(t) for t in turns)}: {'; '.join(texts)}", 0.0)
                 for side, _hexes, turns, texts in self._entry_areas()]
        rows += [(r.text, 0.0) for r in (*v.eliminated, *v.notes)] + [(t, 0.0) for t in v.exited]
        if v.shaded:
            rows.append((v.shaded_heading, 1.3))
        rows += [(meaning, 1.3) for _t, _k, meaning in v.marker_legend]
        rows += [("dashed ring: stayed in its hex (its colour says why)", 1.3)]
        need = max((dx * s + 0.3 * s * 0.58 * len(text) for text, dx in rows), default=0.0)
        return need + 0.9 * s

    def _entry_areas(self) -> list[tuple[str, list[Hex], list[int], list[str]]]:
        """Reinforcement entry areas: (side, hexes, game-turns, descriptions), one per distinct
        set of visible hexes, so turns sharing an edge share one band and one tag."""
        groups: dict[tuple[str, tuple[Hex, ...]], tuple[list[int], list[str]]] = {}
        for entry in self.v.entries:
            hexes = tuple(h for h in entry.hexes if h in self.visible_set)
            if not hexes:
                continue
            turns, texts = groups.setdefault((entry.side, hexes), ([], []))
            if entry.turn not in turns:
                turns.append(entry.turn)
            if entry.text not in texts:
                texts.append(entry.text)
        return [(side, list(hexes), sorted(turns), texts)
                for (side, hexes), (turns, texts) in groups.items()]

    # -- drawing ----------------------------------------------------------------------------------
    def render(self) -> str:
        fr = self.frame()
        dwg = svgwrite.Drawing(profile="full", debug=False)
        dwg["font-family"] = FONT
        dwg["data-scenario"] = self.v.scenario_id
        dwg["data-hex-size"] = _n(self.s)
        if self.side is not None:
            dwg["data-side"] = self.side
        dwg.add(dwg.style(self._css()))
        self._defs(dwg, fr)
        background = dwg.rect(fill=self.col["background"], id="background")
        dwg.add(background)
        layer = dwg.g(id="map")
        if self.cropped:
            layer["clip-path"] = "url(#map-clip)"
        dwg.add(layer)
        if self.board is not None and not self.cropped:  # the board drawn once per game, beside
            img = dwg.image(self.board, insert=(_n(fr.map_x0), _n(fr.map_y0)),
                            size=(_n(fr.map_x1 - fr.map_x0), _n(fr.map_y1 - fr.map_y0)), id="board")
            img["preserveAspectRatio"] = "none"
            layer.add(img)
        else:
            self._board_layers(dwg, layer, fr)
        if self.v.shaded:
            self._shaded(dwg, layer)
        if self.v.hexside_marks:
            self._hexside_marks(dwg, layer)
        paths = dwg.g(id="paths")
        layer.add(paths)
        units = dwg.g(id="units")
        layer.add(units)
        combats = dwg.g(id="combats")
        layer.add(combats)
        self._events(dwg, paths, combats)
        self._units(dwg, units)
        self._header(dwg, fr)
        bottom = self._panel(dwg, fr)
        vx, vy, vw, vh = fr.view
        vh = max(vh, bottom + 0.4 * self.s - vy)
        dwg["viewBox"] = " ".join(_n(v) for v in (vx, vy, vw, vh))
        dwg["width"] = _n(vw)
        dwg["height"] = _n(vh)
        background["x"], background["y"] = _n(vx), _n(vy)
        background["width"], background["height"] = _n(vw), _n(vh)
        return str(dwg.tostring())

    def _board_layers(self, dwg: svgwrite.Drawing, layer: Group, fr: _Frame) -> None:
        """What never changes in a game: terrain, water, roads, bridges, edges and entry areas,
        hex numbers and place names."""
        self._terrain(dwg, layer)
        self._water(dwg, layer)
        self._routes(dwg, layer)
        self._bridges(dwg, layer)
        self._edges(dwg, layer, fr)
        self._labels(dwg, layer)

    def render_board(self) -> str:
        """The board alone, its view box exactly the map box of :meth:`render` (which places it
        with ``<image href=...>``)."""
        fr = self.frame()
        dwg = svgwrite.Drawing(profile="full", debug=False)
        dwg["font-family"] = FONT
        dwg["data-scenario"] = self.v.scenario_id
        dwg["data-hex-size"] = _n(self.s)
        dwg.add(dwg.style(self._css()))
        self._defs(dwg, fr, symbols=False)
        layer = dwg.g(id="map")
        dwg.add(layer)
        self._board_layers(dwg, layer, fr)
        box = (fr.map_x0, fr.map_y0, fr.map_x1 - fr.map_x0, fr.map_y1 - fr.map_y0)
        dwg["viewBox"] = " ".join(_n(v) for v in box)
        dwg["width"] = _n(box[2])
        dwg["height"] = _n(box[3])
        return str(dwg.tostring())

    def _css(self) -> str:
        s = self.s
        return (
            f".hn{{font-size:{_n(0.24 * s)}px;fill:{self.col['hex-number']};text-anchor:middle}}"
            f".pn{{font-size:{_n(0.3 * s)}px;font-weight:bold;fill:{self.col['place-name']};"
            f"text-anchor:middle}}"
            f".ph{{font-size:{_n(0.3 * s)}px;font-weight:bold;fill:none;"
            f"stroke:{self.col['place-halo']};stroke-width:{_n(0.12 * s)};stroke-linejoin:round;"
            f"text-anchor:middle}}"
            f".cd{{font-size:{_n(0.21 * self.cs)}px;text-anchor:middle}}"
            f".cv{{font-weight:bold;text-anchor:middle}}"
            f".mk{{font-size:{_n(0.17 * self.cs)}px;font-weight:bold;text-anchor:middle;fill:#000}}"
            f".lb{{font-size:{_n(0.3 * s)}px;font-weight:bold;text-anchor:middle}}"
            f".t1{{font-size:{_n(0.62 * s)}px;font-weight:bold;fill:{self.col['text']}}}"
            f".t2{{font-size:{_n(0.42 * s)}px;fill:{self.col['text']}}}"
            f".pt{{font-size:{_n(0.36 * s)}px;font-weight:bold;fill:{self.col['text']}}}"
            f".pl{{font-size:{_n(0.3 * s)}px;fill:{self.col['text']}}}"
        )

    def _nato_kinds(self) -> tuple[str, ...]:
        used = {c.symbol for c in self.v.counters}
        return NATO_TYPES + tuple(k for k in EXTRA_NATO_TYPES if k in used)

    def _defs(self, dwg: svgwrite.Drawing, fr: _Frame, *, symbols: bool = True) -> None:
        s = self.s
        first = 30 if self.turned else 0  # a turned map has pointy-topped hexes
        corners = [(s * math.cos(math.radians(a)), s * math.sin(math.radians(a)))
                   for a in range(first, 360 + first, 60)]
        dwg.defs.add(dwg.polygon(points=[(_n(x), _n(y)) for x, y in corners], id="hex"))
        # Terrain patterns: a fill colour plus a little ink so kinds differ without colour vision.
        t = 1.5 * s  # pattern tile
        ink: dict[str, list[Any]] = {
            "grove": [dwg.circle(center=(_n(0.25 * t), _n(0.3 * t)), r=_n(0.07 * t)),
                      dwg.circle(center=(_n(0.75 * t), _n(0.8 * t)), r=_n(0.07 * t))],
            "woods": [dwg.circle(center=(_n(x * t), _n(y * t)), r=_n(0.085 * t))
                      for x, y in ((0.2, 0.22), (0.7, 0.2), (0.45, 0.55), (0.15, 0.85),
                                   (0.8, 0.75))],
            "broken": [dwg.path(d=f"M{_n(0.1 * t)},{_n(0.35 * t)} l{_n(0.12 * t)},{_n(-0.1 * t)} "
                                  f"l{_n(0.12 * t)},{_n(0.1 * t)} M{_n(0.55 * t)},{_n(0.85 * t)} "
                                  f"l{_n(0.12 * t)},{_n(-0.1 * t)} l{_n(0.12 * t)},{_n(0.1 * t)}",
                                fill="none", stroke_width=_n(0.03 * t))],
            "rough": [dwg.path(d=f"M{_n(0.05 * t)},{_n(0.4 * t)} l{_n(0.15 * t)},{_n(-0.2 * t)} "
                                 f"l{_n(0.15 * t)},{_n(0.2 * t)} M{_n(0.5 * t)},{_n(0.9 * t)} "
                                 f"l{_n(0.15 * t)},{_n(-0.2 * t)} l{_n(0.15 * t)},{_n(0.2 * t)}",
                               fill="none", stroke_width=_n(0.045 * t))],
            "town": [dwg.rect(insert=(_n(x * t), _n(y * t)), size=(_n(0.13 * t), _n(0.1 * t)))
                     for x, y in ((0.08, 0.1), (0.6, 0.3), (0.3, 0.62))],
            "city": [dwg.rect(insert=(_n(x * t), _n(y * t)), size=(_n(0.2 * t), _n(0.16 * t)))
                     for x, y in ((0.05, 0.05), (0.55, 0.25), (0.25, 0.6), (0.75, 0.75))],
            "mixed": [dwg.circle(center=(_n(0.5 * t), _n(0.5 * t)), r=_n(0.04 * t))],
            # polder: flat grass cut by straight drainage ditches (short, so that hex numbers
            # stay legible)
            "polder": [dwg.path(d=f"M{_n(0.05 * t)},{_n(0.3 * t)} h{_n(0.3 * t)} "
                                  f"M{_n(0.55 * t)},{_n(0.8 * t)} h{_n(0.3 * t)}",
                                fill="none", stroke_width=_n(0.025 * t))],
            # marsh: tufts of reeds over standing water
            "marsh": [dwg.path(d="".join(
                f"M{_n(x * t)},{_n(y * t)} l{_n(-0.06 * t)},{_n(-0.12 * t)} "
                f"M{_n(x * t)},{_n(y * t)} v{_n(-0.14 * t)} "
                f"M{_n(x * t)},{_n(y * t)} l{_n(0.06 * t)},{_n(-0.12 * t)} "
                f"M{_n((x - 0.1) * t)},{_n(y * t)} h{_n(0.2 * t)} "
                for x, y in ((0.25, 0.35), (0.72, 0.85))),
                fill="none", stroke_width=_n(0.025 * t))],
            "lake": [dwg.path(d=f"M{_n(0.1 * t)},{_n(0.3 * t)} q{_n(0.1 * t)},{_n(-0.08 * t)} "
                                f"{_n(0.2 * t)},0 M{_n(0.55 * t)},{_n(0.75 * t)} "
                                f"q{_n(0.1 * t)},{_n(-0.08 * t)} {_n(0.2 * t)},0",
                              fill="none", stroke_width=_n(0.03 * t))],
        }
        for kind in self._terrain_kinds():
            base = self.col.get(f"terrain-{kind}", self.col["terrain-unknown"])
            marks = ink.get(kind)
            if not marks:
                continue
            pat = dwg.pattern(id=f"t-{kind}", insert=(0, 0), size=(_n(t), _n(t)),
                              patternUnits="userSpaceOnUse")
            pat.add(dwg.rect(insert=(0, 0), size=(_n(t), _n(t)), fill=base))
            colour = self.col.get(f"ink-{kind}", "#000000")
            g = dwg.g(fill=colour, stroke=colour)
            for mark in marks:
                g.add(mark)
            pat.add(g)
            dwg.defs.add(pat)
        # NATO symbols, drawn in the counter's ink colour (inherited from <use>).
        w, h = 0.56 * self.cs, 0.34 * self.cs
        x0, y0, x1, y1 = -w / 2, -h / 2, w / 2, h / 2
        sw = _n(0.035 * self.cs)

        def box() -> Any:
            return dwg.rect(insert=(_n(x0), _n(y0)), size=(_n(w), _n(h)), fill="none")

        def cross() -> list[Any]:
            return [dwg.line(start=(_n(x0), _n(y0)), end=(_n(x1), _n(y1))),
                    dwg.line(start=(_n(x0), _n(y1)), end=(_n(x1), _n(y0)))]

        def oval() -> Any:
            return dwg.ellipse(center=(0, 0), r=(_n(0.3 * w), _n(0.28 * h)), fill="none")

        def dot() -> Any:
            return dwg.circle(center=(0, 0), r=_n(0.14 * h), stroke="none")

        chute = dwg.path(d=f"M{_n(-0.22 * w)},{_n(y0)} A{_n(0.22 * w)},{_n(0.3 * h)} 0 0 1 "
                           f"{_n(0.22 * w)},{_n(y0)}", fill="none")
        eng = dwg.path(d=f"M{_n(-0.3 * w)},{_n(0.2 * h)} v{_n(-0.35 * h)} h{_n(0.6 * w)} "
                         f"v{_n(0.35 * h)} M0,{_n(-0.15 * h)} v{_n(0.35 * h)}", fill="none")
        parts: dict[str, list[Any]] = {
            "infantry": cross(),
            "armor": [oval()],
            "mech": [*cross(), oval()],
            "airborne": [*cross(), chute],
            "recon": [dwg.line(start=(_n(x0), _n(y1)), end=(_n(x1), _n(y0)))],
            "artillery": [dot()],
            "sp-artillery": [dot(), oval()],
            "engineer": [eng],
            "glider": [*cross(), dwg.line(start=(_n(x0), _n(0.3 * h)), end=(_n(x1), _n(0.3 * h)))],
            "airborne-artillery": [dot(), chute],
            # anti-tank: an inverted V from the lower corners to the top edge's middle
            "antitank": [dwg.path(d=f"M{_n(x0)},{_n(y1)} L0,{_n(y0)} L{_n(x1)},{_n(y1)}",
                                  fill="none")],
            # headquarters: the staff down from the frame's left side, and the letters
            "hq": [dwg.line(start=(_n(x0), _n(y1)), end=(_n(x0), _n(y1 + 0.45 * h))),
                   dwg.text("HQ", insert=(0, _n(0.3 * h)), stroke="none",
                            style=f"font-size:{_n(0.78 * h)}px;font-weight:bold;"
                                  "text-anchor:middle")],
        }
        for kind in self._nato_kinds() if symbols else ():
            g = dwg.g(id=f"nato-{kind}", stroke_width=sw)
            g.add(box())
            for p in parts[kind]:
                g.add(p)
            dwg.defs.add(g)
        if self.cropped:  # the drawing stops at the outline of the hexes shown
            clip = dwg.clipPath(id="map-clip")
            for vh in self.visible:
                x, y = self.c(vh)
                clip.add(dwg.use("#hex", x=_n(x), y=_n(y)))
            dwg.defs.add(clip)

    def _shaded(self, dwg: svgwrite.Drawing, layer: Group) -> None:
        """The hexes of :attr:`MapView.shaded`, tinted, each with its label low in the hex."""
        g = dwg.g(id="shaded", fill=self.col["reach"], fill_opacity="0.38")
        labels = dwg.g(id="shaded-labels", class_="pl")
        visible = set(self.visible)
        for h, text in self.v.shaded:
            if h not in visible:
                continue
            x, y = self.c(h)
            g.add(dwg.use("#hex", x=_n(x), y=_n(y), id=f"shaded-{h}"))
            if text:
                labels.add(dwg.text(text, insert=(_n(x), _n(y + 0.62 * self.s)), text_anchor="middle",
                                    fill=self.col["reach-text"]))
        layer.add(g)
        layer.add(labels)

    def _hexside_mark(self, dwg: svgwrite.Drawing, x: float, y: float, kind: str) -> list[Any]:
        s = self.s
        if kind == "demolished":
            d = 0.28 * s
            return [dwg.line(start=(_n(x - d), _n(y - d)), end=(_n(x + d), _n(y + d)),
                             stroke="#c0392b", stroke_width=_n(0.12 * s)),
                    dwg.line(start=(_n(x - d), _n(y + d)), end=(_n(x + d), _n(y - d)),
                             stroke="#c0392b", stroke_width=_n(0.12 * s))]
        return [dwg.circle(center=(_n(x), _n(y)), r=_n(0.2 * s), fill="none", stroke="#1e8449",
                           stroke_width=_n(0.08 * s))]

    def _hexside_marks(self, dwg: svgwrite.Drawing, layer: Group) -> None:
        """The hexsides of :attr:`MapView.hexside_marks`, marked at their middle."""
        g = dwg.g(id="hexside-marks")
        visible = set(self.visible)
        for a, b, kind in self.v.hexside_marks:
            if a not in visible and b not in visible:
                continue
            (ax, ay), (bx, by) = self.c(a), self.c(b)
            for el in self._hexside_mark(dwg, (ax + bx) / 2, (ay + by) / 2, kind):
                g.add(el)
        layer.add(g)

    def _fill(self, kind: str) -> str:
        if kind in ("clear",) or kind not in TERRAIN_ORDER:
            return self.col.get(f"terrain-{kind}", self.col["terrain-unknown"])
        return f"url(#t-{kind})"

    def _terrain(self, dwg: svgwrite.Drawing, layer: Group) -> None:
        m = self.v
        g = dwg.g(id="terrain", stroke=self.col["hex-outline"], stroke_width=_n(0.03 * self.s))
        # one group per terrain kind carries the fill and the kind, so each hex is a bare <use>
        by_kind: dict[str, list[Hex]] = {}
        for h in self.visible:
            by_kind.setdefault(m.terrain_of(h), []).append(h)
        order = [k for k in TERRAIN_ORDER if k in by_kind] + sorted(set(by_kind) - set(TERRAIN_ORDER))
        for kind in order:
            kg = dwg.g(fill=self._fill(kind))
            kg["data-terrain"] = kind
            for h in by_kind[kind]:
                x, y = self.c(h)
                kg.add(dwg.use("#hex", x=_n(x), y=_n(y), id=f"hex-{h}"))
            g.add(kg)
        layer.add(g)

    def _sides_of(self, kinds: Iterable[str]) -> list[tuple[Hex, Hex]]:
        wanted = set(kinds)
        return sorted(
            side for side, feats in self.v.hexsides.items()
            if feats & wanted and (side[0] in self.visible_set or side[1] in self.visible_set)
        )

    def _water(self, dwg: svgwrite.Drawing, layer: Group) -> None:
        s = self.s
        g = dwg.g(id="water", fill="none", stroke_linecap="round")
        widths = {"river": 0.2, "canal": 0.2, "stream": 0.11, "ferry": 0.2}
        for kind in ("stream", "river", "canal", "ferry"):
            sides = self._sides_of([kind])
            if not sides:
                continue
            if kind == "ferry":
                # a ferry is a river crossing without a bridge [6.33]: water plus a dashed link
                d = []
                for a, b in sides:
                    (x1, y1), (x2, y2) = self.c(a), self.c(b)
                    d.append(f"M{_n(x1 + (x2 - x1) * 0.3)},{_n(y1 + (y2 - y1) * 0.3)}"
                             f"L{_n(x1 + (x2 - x1) * 0.7)},{_n(y1 + (y2 - y1) * 0.7)}")
                g.add(dwg.path(d="".join(d), stroke=self.col["ferry"], stroke_width=_n(0.07 * s),
                               stroke_dasharray=f"{_n(0.12 * s)},{_n(0.08 * s)}", id="hs-ferry"))
                continue
            d = []
            for a, b in sides:
                p, q = self.side_segment(a, b)
                d.append(f"M{_n(p[0])},{_n(p[1])}L{_n(q[0])},{_n(q[1])}")
            g.add(dwg.path(d="".join(d), stroke=self.col[kind], stroke_width=_n(widths[kind] * s),
                           id=f"hs-{kind}"))
            if kind == "canal":
                g.add(dwg.path(d="".join(d), stroke=self.col["terrain-lake"],
                               stroke_width=_n(0.06 * s), id="hs-canal-core"))
        layer.add(g)

    def _routes(self, dwg: svgwrite.Drawing, layer: Group) -> None:
        s = self.s
        g = dwg.g(id="routes", fill="none", stroke_linecap="round", stroke_linejoin="round")
        destroyed = {side for side, f in self.v.hexsides.items() if "destroyed-bridge" in f}
        for kind in ("railway", "trail", "road"):
            d: list[str] = []
            for route in self.v.routes:
                if route.kind != kind:
                    continue
                hexes = list(route.hexes)
                runs: list[list[Hex]] = [[hexes[0]]] if hexes else []
                for a, b in zip(hexes, hexes[1:], strict=False):
                    if (min(a, b), max(a, b)) in destroyed:
                        runs.append([b])  # the road is cut where its bridge is gone
                    else:
                        runs[-1].append(b)
                for i, run in enumerate(runs):
                    pts = [self.c(h) for h in run]
                    if i == 0 and "start" in route.off_map:
                        pts.insert(0, self._off_map_point(run[0]))
                    if i == len(runs) - 1 and "end" in route.off_map:
                        pts.append(self._off_map_point(run[-1]))
                    if len(pts) >= 2:
                        d.append("M" + "L".join(f"{_n(x)},{_n(y)}" for x, y in pts))
            if d and kind == "railway":
                # a dark line with white ties: a railway, whatever the colours of the roads
                g.add(dwg.path(d="".join(d), stroke=self.col["railway"],
                               stroke_width=_n(0.11 * s), id="hs-railway"))
                g.add(dwg.path(d="".join(d), stroke=self.col["railway-tie"],
                               stroke_width=_n(0.05 * s), stroke_linecap="butt",
                               stroke_dasharray=f"{_n(0.12 * s)},{_n(0.12 * s)}",
                               id="hs-railway-ties"))
            elif d:
                attrs: dict[str, str] = {}
                if kind == "trail":
                    attrs["stroke_dasharray"] = f"{_n(0.18 * s)},{_n(0.1 * s)}"
                g.add(dwg.path(d="".join(d), stroke=self.col[kind],
                               stroke_width=_n((0.13 if kind == "road" else 0.08) * s),
                               id=f"hs-{kind}", **attrs))
        layer.add(g)

    def _off_map_point(self, h: Hex) -> tuple[float, float]:
        """A point just beyond the map edge next to edge hex ``h`` (for roads leading off-map)."""
        x, y = self.c(h)
        dx = dy = 0.0
        for n in h.neighbours():
            if not self.v.on_map(n):
                nx, ny = self.c(n)
                dx += nx - x
                dy += ny - y
        d = math.hypot(dx, dy)
        if d == 0:
            return x, y
        return x + dx / d * 1.1 * self.s, y + dy / d * 1.1 * self.s

    def _bridges(self, dwg: svgwrite.Drawing, layer: Group) -> None:
        s = self.s
        g = dwg.g(id="bridges")
        m = self.v
        for a, b in self._sides_of(["bridge", "rail-bridge", "destroyed-bridge", "road", "trail"]):
            feats = m.features(a, b)
            if not _is_bridge(feats):
                continue
            destroyed = "destroyed-bridge" in feats
            (ax, ay), (bx, by) = self.c(a), self.c(b)
            mx, my = (ax + bx) / 2, (ay + by) / 2
            ang = math.degrees(math.atan2(by - ay, bx - ax))
            ln, wd = 0.5 * s, 0.3 * s
            kind = "destroyed-bridge" if destroyed else (
                "rail-bridge" if "rail-bridge" in feats else "bridge")
            br = dwg.g(transform=f"translate({_n(mx)},{_n(my)}) rotate({_n(ang)})",
                       id=f"bridge-{a}-{b}")
            br["data-kind"] = kind
            br.add(dwg.rect(insert=(_n(-ln / 2), _n(-wd / 2)), size=(_n(ln), _n(wd)),
                            fill=self.col["bridge-deck"], stroke=self.col["bridge"],
                            stroke_width=_n(0.05 * s)))
            if kind == "rail-bridge":
                br.add(dwg.line(start=(_n(-ln / 2), 0), end=(_n(ln / 2), 0),
                                stroke=self.col["bridge"], stroke_width=_n(0.06 * s),
                                stroke_dasharray=f"{_n(0.06 * s)},{_n(0.04 * s)}"))
            if destroyed:
                r = 0.2 * s
                br.add(dwg.path(d=f"M{_n(-r)},{_n(-r)}L{_n(r)},{_n(r)}M{_n(-r)},{_n(r)}"
                                  f"L{_n(r)},{_n(-r)}",
                                stroke=self.col["destroyed"], stroke_width=_n(0.08 * s)))
            g.add(br)
        layer.add(g)

    def _edges(self, dwg: svgwrite.Drawing, layer: Group, fr: _Frame) -> None:
        """The map's outer edge, and each reinforcement entry area [11.11] in its side's colour."""
        s = self.s
        m = self.v
        d: list[str] = []
        for h in self.visible:
            for n in h.neighbours():
                if not m.on_map(n):
                    p, q = self.side_segment(h, n)
                    d.append(f"M{_n(p[0])},{_n(p[1])}L{_n(q[0])},{_n(q[1])}")
        g = dwg.g(id="edges", fill="none", stroke_linecap="round")
        if d:
            g.add(dwg.path(d="".join(d), stroke=self.col["map-edge"], stroke_width=_n(0.08 * s),
                           id="map-edge"))
        for i, (side, hexes, turns, _texts) in enumerate(self._entry_areas(), start=1):
            colour = self.side_colour.get(side, "#888888")
            segs: list[str] = []
            marks: list[str] = []
            out_x = out_y = 0.0
            for h in hexes:
                x, y = self.c(h)
                off = [n for n in h.neighbours() if not m.on_map(n)]
                for n in off:
                    p, q = self.side_segment(h, n)
                    nx, ny = self.c(n)
                    ox, oy = (nx - x) * 0.06, (ny - y) * 0.06  # just outside the edge
                    out_x += nx - x
                    out_y += ny - y
                    segs.append(f"M{_n(p[0] + ox)},{_n(p[1] + oy)}L{_n(q[0] + ox)},{_n(q[1] + oy)}")
                if not off:  # an entry hex inside the map: a ring
                    marks.append(f"M{_n(x - 0.5 * s)},{_n(y)}a{_n(0.5 * s)},{_n(0.5 * s)} 0 1 0 "
                                 f"{_n(s)},0a{_n(0.5 * s)},{_n(0.5 * s)} 0 1 0 {_n(-s)},0")
            eg = dwg.g(id=f"entry-{i}")
            eg["data-side"] = side
            eg["data-turn"] = " ".join(str(t) for t in turns)
            eg["data-hexes"] = " ".join(str(h) for h in hexes)
            if segs:
                eg.add(dwg.path(d="".join(segs), stroke=colour, stroke_width=_n(0.22 * s)))
            if marks:
                eg.add(dwg.path(d="".join(marks), stroke=colour, stroke_width=_n(0.1 * s)))
            # a short tag just outside the middle of the area; the legend has the details
            mid = hexes[len(hexes) // 2]
            lx, ly = self.c(mid)
            od = math.hypot(out_x, out_y)
            tag = f"{side} GT {', '.join(str(t) for t in turns)}"
            label = dwg.text(tag, class_="lb", fill=colour)
            if od:
                ux, uy = out_x / od, out_y / od
                along_side = abs(ux) > abs(uy)
                if along_side and len(hexes) > 2:  # long area on a side edge: text along it
                    lx, ly = lx + ux * 1.45 * s, ly + uy * 1.45 * s
                    label["transform"] = f"rotate({-90 if ux < 0 else 90},{_n(lx)},{_n(ly)})"
                elif along_side:
                    lx, ly = lx + ux * 1.15 * s, ly + 0.1 * s
                    label["style"] = f"text-anchor:{'end' if ux < 0 else 'start'}"
                else:
                    lx, ly = lx + ux * 1.2 * s, ly + uy * 1.2 * s + 0.1 * s
            label["x"], label["y"] = _n(lx), _n(ly)
            eg.add(label)
            g.add(eg)
        layer.add(g)

    def _labels(self, dwg: svgwrite.Drawing, layer: Group) -> None:
        s = self.s
        if self.show_numbers:
            g = dwg.g(id="hex-numbers", class_="hn")  # the style is inherited by every number
            for h in self.visible:
                x, y = self.c(h)
                g.add(dwg.text(str(h), insert=(_n(x), _n(y - 0.64 * s))))
            layer.add(g)
        g = dwg.g(id="places")
        for p in self.v.places:
            h = p.hex
            if h not in self.visible_set:
                continue
            x, y = self.c(h)
            pos = (_n(x), _n(y + self._place_dy(x, y, p.name)))
            g.add(dwg.text(p.name, insert=pos, class_="ph"))
            g.add(dwg.text(p.name, insert=pos, class_="pn"))
        layer.add(g)

    def _place_dy(self, x: float, y: float, name: str) -> float:
        """Where a place name sits below its hex centre: low in the hex, over the hexside below
        it, unless a bridge is there (a bridge is what a player looks for); then above the hex
        number, if no bridge is there either."""
        s = self.s
        half = 0.3 * s * 0.58 * len(name) / 2 + 0.25 * s  # the text, and half a bridge deck
        bridges = self._bridge_points()

        def covers(dy: float) -> bool:  # the text spans 0.3 hex above its baseline
            return any(abs(bx - x) <= half and dy - 0.45 * s <= by - y <= dy + 0.15 * s
                       for bx, by in bridges)

        if not self.v.names_clear_bridges:
            return 0.82 * s
        for dy in (0.82 * s, -0.92 * s):
            if not covers(dy):
                return dy
        return 0.82 * s

    def _bridge_points(self) -> list[tuple[float, float]]:
        """The middle of every bridge drawn (:meth:`_bridges`)."""
        out = []
        for a, b in self._sides_of(["bridge", "rail-bridge", "destroyed-bridge", "road", "trail"]):
            if _is_bridge(self.v.features(a, b)):
                (ax, ay), (bx, by) = self.c(a), self.c(b)
                out.append(((ax + bx) / 2, (ay + by) / 2))
        return out

    # -- units ------------------------------------------------------------------------------------
    def _units(self, dwg: svgwrite.Drawing, layer: Group) -> None:
        by_hex: dict[Hex, list[CounterView]] = {}
        for c in self.v.counters:
            if c.hex in self.visible_set:
                by_hex.setdefault(c.hex, []).append(c)
        for h in sorted(by_hex):
            stack = by_hex[h]
            n = len(stack)
            # a stack fans out, within its hex: of a big one (a megagame's brigade in a town) the
            # top four fan out, the others lie under the lowest of them, and its top counter says
            # how many there are
            for k, c in enumerate(stack):
                shown = self.v.stack_text or k == n - 1
                marks = [(text, self.col[key]) for text, key in c.markers] if shown else []
                g = self._counter(dwg, c, h, 0.14 * self.cs * max(0, k - max(0, n - MAX_FAN)), marks, legible=shown)
                if n > MAX_FAN and k == n - 1:
                    cs = self.cs
                    g.add(dwg.rect(insert=(_n(-0.62 * cs), _n(0.2 * cs)), size=(_n(0.5 * cs), _n(0.3 * cs)),
                                   fill="#ffffff", stroke="#000000", stroke_width=_n(0.02 * cs)))
                    count = dwg.text(f"{n}", insert=(_n(-0.37 * cs), _n(0.43 * cs)), class_="mk", fill="#000000")
                    count.set_desc(title=f"{n} units in this hex")
                    g.add(count)
                layer.add(g)

    def _counter(self, dwg: svgwrite.Drawing, u: CounterView, h: Hex, off: float,
                 marks: list[tuple[str, str]], *, legible: bool = True) -> Group:
        cs = self.cs
        x, y = self.c(h)
        fill = self.side_colour.get(u.side, "#888888")
        ink = "#000000" if _luminance(fill) > 0.4 else "#ffffff"
        g = dwg.g(id=xml_id("unit-", u.id), transform=f"translate({_n(x + off)},{_n(y - off)})",
                  class_="unit")
        g["data-unit"] = u.id
        g["data-hex"] = str(h)
        g["data-side"] = u.side
        g["data-type"] = u.symbol
        g.add(dwg.rect(insert=(_n(-cs / 2), _n(-cs / 2)), size=(_n(cs), _n(cs)),
                       rx=_n(0.07 * cs), fill=fill, stroke="#000000",
                       stroke_width=_n(0.035 * cs)))
        g["data-values"] = u.values
        if not legible:  # under another counter: its edge only
            return g
        g.add(dwg.text(u.size, insert=(0, _n(-0.39 * cs)), class_="mk", fill=ink))
        g.add(dwg.use(f"#nato-{u.symbol}", x=0, y=_n(-0.2 * cs), stroke=ink, fill=ink))
        if len(u.value_lines) > 1:
            # two lines of values (artillery: barrage-FPF-range over defense-move) [2.31]
            g.add(dwg.text(u.designation, insert=(0, _n(0.13 * cs)), class_="cd", fill=ink,
                           style=f"font-size:{_n(0.17 * cs)}px"))
            lines = list(zip(u.value_lines, (0.31, 0.47), strict=False))
            base = 0.19
        else:
            g.add(dwg.text(u.designation, insert=(0, _n(0.17 * cs)), class_="cd", fill=ink))
            lines = [(u.value_lines[0] if u.value_lines else u.values, 0.44)]
            base = 0.27
        for text, ty in lines:
            size = min(base * cs, 0.96 * cs / (0.62 * max(len(text), 1)))
            g.add(dwg.text(text, insert=(0, _n(ty * cs)), class_="cv", fill=ink,
                           style=f"font-size:{_n(size)}px"))
        for i, (text, colour) in enumerate(marks):
            mw, mh = 0.42 * cs, 0.22 * cs
            mx, my = cs / 2 - mw * 0.6, -cs / 2 - mh * 0.4 + i * mh * 1.05
            g.add(dwg.rect(insert=(_n(mx), _n(my)), size=(_n(mw), _n(mh)), fill=colour,
                           stroke="#000000", stroke_width=_n(0.02 * cs)))
            g.add(dwg.text(text, insert=(_n(mx + mw / 2), _n(my + mh * 0.78)), class_="mk"))
        return g

    # -- events -----------------------------------------------------------------------------------
    def _arrow(self, dwg: svgwrite.Drawing, pts: list[tuple[float, float]], colour: str,
               width: float, *, dashed: bool = False, head: float = 1.0) -> list[Any]:
        """A polyline with a filled arrowhead at its last point."""
        s = self.s
        if len(pts) < 2:
            return []
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        d = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        hl, hw = 0.42 * s * head, 0.22 * s * head
        bx, by = x2 - ux * hl, y2 - uy * hl
        line_pts = [*pts[:-1], (bx + ux * 0.05 * s, by + uy * 0.05 * s)]
        attrs: dict[str, str] = {}
        if dashed:
            attrs["stroke_dasharray"] = f"{_n(0.22 * s)},{_n(0.12 * s)}"
        out: list[Any] = [
            dwg.polyline(points=[(_n(x), _n(y)) for x, y in line_pts], fill="none", stroke=colour,
                         stroke_width=_n(width), stroke_linejoin="round", stroke_linecap="round",
                         **attrs),
            dwg.polygon(points=[(_n(x2), _n(y2)), (_n(bx - uy * hw), _n(by + ux * hw)),
                                (_n(bx + uy * hw), _n(by - ux * hw))], fill=colour),
        ]
        return out

    def _trim_end(self, pts: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
        """Shorten the last segment so an arrowhead stops at a counter's edge, not under it."""
        if len(pts) < 2:
            return pts
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        d = math.hypot(x2 - x1, y2 - y1)
        if d <= by:
            return pts
        return [*pts[:-1], (x2 - (x2 - x1) / d * by, y2 - (y2 - y1) / d * by)]

    def _events(self, dwg: svgwrite.Drawing, paths: Group, combats: Group) -> None:
        s = self.s
        for mark in self.v.marks:
            eid = f"event-{mark.index}"
            if isinstance(mark, MoveMark):
                pts = [self.c(h) for h in mark.path]
                if mark.entered and mark.path:
                    pts.insert(0, self._off_map_point(mark.path[0]))
                if mark.exited and mark.path:
                    pts.append(self._off_map_point(mark.path[-1]))
                elif len(pts) >= 2:
                    pts = self._trim_end(pts, 0.62 * s)
                g = dwg.g(id=eid, class_="event")
                g["data-type"] = "moved"
                g["data-unit"] = mark.unit
                colour = self.col["move"]
                for el in self._arrow(dwg, pts, colour, 0.09 * s):
                    el["opacity"] = "0.8"
                    g.add(el)
                if len(mark.path) == 1 and not (mark.entered or mark.exited):
                    x, y = pts[0]
                    g.add(dwg.circle(center=(_n(x), _n(y)), r=_n(0.7 * s), fill="none",
                                     stroke=colour, stroke_width=_n(0.06 * s)))
                paths.add(g)
            elif isinstance(mark, TrailMark):
                colour = self.col[mark.kind]
                pts = self._trim_end([self.c(h) for h in mark.path], 0.62 * s)
                g = dwg.g(id=eid, class_="event")
                g["data-type"] = mark.kind
                g["data-unit"] = mark.unit
                for el in self._arrow(dwg, pts, colour, 0.1 * s, dashed=True):
                    g.add(el)
                if len(pts) < 2 and mark.path:  # no hexes moved: a dashed ring
                    x, y = pts[0]
                    g.add(dwg.circle(center=(_n(x), _n(y)), r=_n(0.75 * s), fill="none",
                                     stroke=colour, stroke_width=_n(0.08 * s),
                                     stroke_dasharray=f"{_n(0.2 * s)},{_n(0.1 * s)}"))
                combats.add(g)
            elif isinstance(mark, CombatMark):
                combats.add(self._combat(dwg, mark, eid))
            elif isinstance(mark, EliminatedMark):
                g = dwg.g(id=eid, class_="event")
                g["data-type"] = "eliminated"
                g["data-unit"] = mark.unit
                if mark.hex is not None:
                    x, y = self.c(mark.hex)
                    r = 0.45 * s
                    g.add(dwg.path(d=f"M{_n(x - r)},{_n(y - r)}L{_n(x + r)},{_n(y + r)}"
                                     f"M{_n(x - r)},{_n(y + r)}L{_n(x + r)},{_n(y - r)}",
                                   stroke=self.col["eliminated"], stroke_width=_n(0.14 * s),
                                   stroke_linecap="round", opacity="0.85"))
                    g["data-hex"] = str(mark.hex)
                combats.add(g)
            elif isinstance(mark, PlacedMark):
                x, y = self.c(mark.hex)
                g = dwg.g(id=eid, class_="event")
                g["data-type"] = "placed"
                g["data-unit"] = mark.unit
                g.add(dwg.circle(center=(_n(x), _n(y)), r=_n(0.8 * s), fill="none",
                                 stroke=self.col["placed"], stroke_width=_n(0.06 * s)))
                paths.add(g)
            # notes are listed in the side panel (see _panel).

    def _combat(self, dwg: svgwrite.Drawing, ev: CombatMark, eid: str) -> Group:
        s = self.s
        g = dwg.g(id=eid, class_="event")
        g["data-type"] = "combat"
        g["data-number"] = str(ev.number)
        dhexes = list(ev.defenders)
        if not dhexes:
            return g
        tx = sum(self.c(h)[0] for h in dhexes) / len(dhexes)
        ty = sum(self.c(h)[1] for h in dhexes) / len(dhexes)
        g["data-hex"] = " ".join(str(h) for h in dhexes)
        adjacent, barrage, fpf = ev.attackers, ev.barrage, ev.fpf
        colour = self.col["attack"]

        def toward(h: Hex, start: float, end: float) -> list[tuple[float, float]]:
            x, y = self.c(h)
            d = math.hypot(tx - x, ty - y) or 1.0
            return [(x + (tx - x) * start / d, y + (ty - y) * start / d),
                    (tx - (tx - x) * end / d, ty - (ty - y) * end / d)]

        for h in adjacent:
            for el in self._arrow(dwg, toward(h, 0.3 * s, 0.35 * s), colour, 0.13 * s, head=1.1):
                g.add(el)
        for h in barrage:
            for el in self._arrow(dwg, toward(h, 0.65 * s, 0.55 * s), self.col["barrage"],
                                  0.07 * s, dashed=True):
                g.add(el)
        for h in fpf:
            x, y = self.c(h)
            g.add(dwg.line(start=(_n(x), _n(y)), end=(_n(tx), _n(ty)), stroke=self.col["fpf"],
                           stroke_width=_n(0.06 * s),
                           stroke_dasharray=f"{_n(0.08 * s)},{_n(0.1 * s)}"))
        text = ev.label
        w = (0.2 * len(text) + 0.3) * s
        hgt = 0.46 * s
        lx, ly = self._label_spot(tx, ty, w, hgt)
        g.add(dwg.rect(insert=(_n(lx - w / 2), _n(ly - hgt / 2)), size=(_n(w), _n(hgt)),
                       rx=_n(0.1 * s), fill=self.col["label-bg"], stroke=colour,
                       stroke_width=_n(0.05 * s), opacity="0.95"))
        g.add(dwg.text(text, insert=(_n(lx), _n(ly + 0.11 * s)), class_="lb", fill=colour))
        return g

    def _label_spot(self, tx: float, ty: float, w: float, hgt: float) -> tuple[float, float]:
        """Where a combat's label goes: the first of a fixed list of spots around the combat
        (above, below, left, right, the diagonals, then twice and three times as far) whose box
        covers no counter and no label placed before; when none is free, the one that covers
        least."""
        s, half = self.s, self.cs / 2
        if self._boxes is None:
            self._boxes = []
            for c in self.v.counters:
                if c.hex in self.visible_set:
                    cx, cy = self.c(c.hex)
                    self._boxes.append((cx - half, cy - half, cx + half, cy + half))
        boxes = self._boxes
        vy = half + 0.1 * s + hgt / 2
        vx = w / 2 + half + 0.1 * s
        spots = []
        for k in (1.0, 2.2, 3.4):
            spots += [(0.0, -vy * k), (0.0, vy * k), (-vx * k, 0.0), (vx * k, 0.0),
                      (-vx * k, -vy * k), (vx * k, -vy * k), (-vx * k, vy * k), (vx * k, vy * k)]

        xs = [self.c(h)[0] for h in self.visible] or [tx]
        ys = [self.c(h)[1] for h in self.visible] or [ty]
        bx0, by0, bx1, by1 = min(xs) - 0.5 * s, min(ys) - 0.5 * s, max(xs) + 0.5 * s, max(ys) + 0.5 * s

        def covered(box: tuple[float, float, float, float]) -> float:
            # a spot off the hexes drawn (a cropped map clips it) counts as covering everything
            area = 0.0 if bx0 <= box[0] and box[2] <= bx1 and by0 <= box[1] and box[3] <= by1 else 1e12
            for b in boxes:
                dx = min(box[2], b[2]) - max(box[0], b[0])
                dy = min(box[3], b[3]) - max(box[1], b[1])
                if dx > 0 and dy > 0:
                    area += dx * dy
            return area

        best: tuple[float, float, float] | None = None
        for dx, dy in spots:
            box = (tx + dx - w / 2, ty + dy - hgt / 2, tx + dx + w / 2, ty + dy + hgt / 2)
            area = covered(box)
            if best is None or area < best[0]:
                best = (area, dx, dy)
            if area == 0:
                break
        assert best is not None
        _, dx, dy = best
        boxes.append((tx + dx - w / 2, ty + dy - hgt / 2, tx + dx + w / 2, ty + dy + hgt / 2))
        return tx + dx, ty + dy

    # -- header and panel -------------------------------------------------------------------------
    def _header(self, dwg: svgwrite.Drawing, fr: _Frame) -> None:
        s = self.s
        g = dwg.g(id="header")
        x = fr.view[0] + 0.5 * s
        y = fr.header_y0 + 0.8 * s
        g.add(dwg.text(self.title, insert=(_n(x), _n(y)), class_="t1"))
        y += 0.58 * s
        sub = self.subtitle
        if self.v.viewer is not None:
            sub += f" · view of {self.v.viewer}"
        g.add(dwg.text(sub, insert=(_n(x), _n(y)), class_="t2", id="subtitle"))
        if self.score:
            y += 0.55 * s
            vp = " · ".join(f"{name} {v}" for name, v in self.score)
            g.add(dwg.text(f"Victory points: {vp}", insert=(_n(x), _n(y)), class_="t2",
                           id="score"))
        for line in self.header_lines:
            y += 0.55 * s
            g.add(dwg.text(line, insert=(_n(x), _n(y)), class_="t2"))
        dwg.add(g)

    def _panel(self, dwg: svgwrite.Drawing, fr: _Frame) -> float:
        """The legend and the step's lists, beside the map; returns the panel's bottom."""
        s = self.s
        x0 = fr.panel_x0
        y = fr.map_y0 + 0.2 * s
        g = dwg.g(id="legend")
        top = y
        box = dwg.rect(insert=(_n(x0), _n(y)), fill=self.col["panel"],
                       stroke=self.col["panel-border"], stroke_width=_n(0.04 * s))
        g.add(box)
        x = x0 + 0.4 * s
        row = 0.62 * s

        def heading(text: str) -> None:
            nonlocal y
            y += row * 1.4
            g.add(dwg.text(text, insert=(_n(x), _n(y)), class_="pt"))

        def label(text: str, dx: float = 1.3, **extra: str) -> None:
            g.add(dwg.text(text, insert=(_n(x + dx * s), _n(y + 0.1 * s)), class_="pl", **extra))

        heading("Sides")
        for si in self.v.sides:
            y += row
            g.add(dwg.rect(insert=(_n(x), _n(y - 0.22 * s)), size=(_n(0.9 * s), _n(0.44 * s)),
                           fill=self.side_colour.get(si.id, si.colour), stroke="#000000",
                           stroke_width=_n(0.03 * s)))
            label(f"{si.name} ({si.id})")
        heading("Terrain")
        hexsc = 0.3
        for kind in self._terrain_kinds():
            y += row
            g.add(dwg.use("#hex", x=_n(x + 0.45 * s), y=_n(y), fill=self._fill(kind),
                          stroke=self.col["hex-outline"], stroke_width=_n(0.03 * s),
                          transform=f"translate({_n((x + 0.45 * s) * (1 - hexsc))},"
                                    f"{_n(y * (1 - hexsc))}) scale({hexsc})"))
            label(kind)
        hs_kinds = self._hexside_kinds()
        if hs_kinds:
            heading("Hexsides")
        for kind in hs_kinds:
            y += row
            colour = self.col.get(kind, self.col["bridge"])
            if kind == "railway":
                g.add(dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)), stroke=colour,
                               stroke_width=_n(0.11 * s)))
                g.add(dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)),
                               stroke=self.col["railway-tie"], stroke_width=_n(0.05 * s),
                               stroke_dasharray=f"{_n(0.12 * s)},{_n(0.12 * s)}"))
            elif kind in ("road", "trail"):
                extra = {"stroke_dasharray": f"{_n(0.18 * s)},{_n(0.1 * s)}"} if kind == "trail" \
                    else {}
                g.add(dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)), stroke=colour,
                               stroke_width=_n((0.13 if kind == "road" else 0.08) * s), **extra))
            elif kind in ("bridge", "rail-bridge", "destroyed-bridge"):
                g.add(dwg.rect(insert=(_n(x + 0.2 * s), _n(y - 0.15 * s)),
                               size=(_n(0.5 * s), _n(0.3 * s)), fill=self.col["bridge-deck"],
                               stroke=self.col["bridge"], stroke_width=_n(0.05 * s)))
                if kind == "destroyed-bridge":
                    g.add(dwg.path(d=f"M{_n(x + 0.25 * s)},{_n(y - 0.2 * s)}l{_n(0.4 * s)},"
                                     f"{_n(0.4 * s)}m0,{_n(-0.4 * s)}l{_n(-0.4 * s)},{_n(0.4 * s)}",
                                   stroke=self.col["destroyed"], stroke_width=_n(0.08 * s)))
            elif kind == "ferry":
                g.add(dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)), stroke=colour,
                               stroke_width=_n(0.07 * s),
                               stroke_dasharray=f"{_n(0.12 * s)},{_n(0.08 * s)}"))
            else:
                width = 0.11 if kind == "stream" else 0.2
                g.add(dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)), stroke=colour,
                               stroke_width=_n(width * s)))
            label(kind)
        heading("Units")
        for kind in self._nato_kinds():
            y += row * 1.3
            g.add(dwg.use(f"#nato-{kind}", x=_n(x + 0.45 * s), y=_n(y), stroke="#000000",
                          fill="#000000"))
            label(kind)
        for text in self.v.value_legend:
            y += row
            label(text, dx=0)
        if self.v.shaded:
            heading("Shaded")
            y += row
            g.add(dwg.rect(insert=(_n(x), _n(y - 0.22 * s)), size=(_n(0.9 * s), _n(0.44 * s)),
                           fill=self.col["reach"], fill_opacity="0.38", stroke=self.col["hex-outline"],
                           stroke_width=_n(0.03 * s)))
            label(self.v.shaded_heading or "marked hexes")
        if self.v.hexside_marks:
            heading(self.v.hexside_heading or "Hexsides")
            for kind in sorted({k for _a, _b, k in self.v.hexside_marks}):
                y += row
                for el in self._hexside_mark(dwg, x + 0.45 * s, y, kind):
                    g.add(el)
                label({"demolished": "bridge demolished", "safe": "bridge stands for good"}
                      .get(kind, kind))
        heading("This step")
        for key, text, dashed in self.v.step_legend:
            y += row
            for el in self._arrow(dwg, [(x, y), (x + 0.95 * s, y)], self.col[key], 0.09 * s,
                                  dashed=dashed, head=0.7):
                g.add(el)
            label(text)
        kinds = {type(m).__name__ for m in self.v.marks}
        if "PlacedMark" in kinds:
            y += row
            g.add(dwg.circle(center=(_n(x + 0.45 * s), _n(y)), r=_n(0.25 * s), fill="none",
                             stroke=self.col["placed"], stroke_width=_n(0.05 * s)))
            label("ring: placed this step (set-up)")
        if any(isinstance(m, MoveMark | TrailMark) and len(m.path) == 1 for m in self.v.marks):
            y += row
            g.add(dwg.circle(center=(_n(x + 0.45 * s), _n(y)), r=_n(0.25 * s), fill="none",
                             stroke=self.col["text"], stroke_width=_n(0.05 * s),
                             stroke_dasharray=f"{_n(0.1 * s)},{_n(0.06 * s)}"))
            label("dashed ring: stayed in its hex (its colour says why)")
        if "EliminatedMark" in kinds:
            y += row
            r = 0.2 * s
            g.add(dwg.path(d=f"M{_n(x + 0.45 * s - r)},{_n(y - r)}l{_n(2 * r)},{_n(2 * r)}"
                             f"m0,{_n(-2 * r)}l{_n(-2 * r)},{_n(2 * r)}",
                           stroke=self.col["eliminated"], stroke_width=_n(0.07 * s)))
            label("cross: eliminated here")
        tags = {t for c in self.v.counters for t, _k in c.markers}
        shown = [(t, k, meaning) for t, k, meaning in self.v.marker_legend if t in tags]
        if shown:
            heading("Counter tags")
            for text, key, meaning in shown:
                y += row
                mw, mh = 0.5 * s, 0.3 * s
                g.add(dwg.rect(insert=(_n(x + 0.2 * s), _n(y - mh / 2)), size=(_n(mw), _n(mh)),
                               fill=self.col[key], stroke="#000000", stroke_width=_n(0.02 * s)))
                g.add(dwg.text(text, insert=(_n(x + 0.2 * s + mw / 2), _n(y + 0.08 * s)), class_="mk"))
                label(meaning)
        entries = self._entry_areas()
        if entries:
            heading(self.v.entry_heading)
            for side, _hexes, turns, texts in entries:
                y += row
                label(f"{side} GT {', '.join(str(t) for t in turns)}: {'; '.join(texts)}", dx=0,
                      fill=self.side_colour.get(side, "#888888"))
        if self.v.eliminated:
            heading("Eliminated")
            for erow in self.v.eliminated:
                y += row
                extra = {"id": f"{erow.id}-text"} if erow.id else {}
                label(erow.text, dx=0, fill=self.col.get(erow.colour, self.col["text"]), **extra)
        if self.v.exited:
            heading(self.v.exited_heading)
            for text in self.v.exited:
                y += row
                label(text, dx=0)
        if self.v.notes:
            heading("Notes")
            for nrow in self.v.notes:
                eid, text = nrow.id, nrow.text
                y += row
                note = dwg.g(id=eid, class_="event")
                note["data-type"] = "note"
                note.add(dwg.text(text, insert=(_n(x), _n(y + 0.1 * s)), class_="pl"))
                g.add(note)
        bottom = max(y + row, fr.map_y1 - 0.2 * s)
        box["width"] = _n(fr.panel_w)
        box["height"] = _n(bottom - top)
        dwg.add(g)
        return bottom


def _is_bridge(feats: frozenset[str]) -> bool:
    """A hexside drawn as a bridge: a bridge (standing or destroyed), or a road or trail over
    water where no ferry is."""
    water = feats & set(WATER_KINDS)
    return bool(feats & {"bridge", "rail-bridge", "destroyed-bridge"}) or (
        bool(feats & {"road", "trail"}) and bool(water) and "ferry" not in feats)


def draw(
    view: MapView,
    *,
    around: Hex | str | None = None,
    radius: int | None = None,
    hex_size: float = DEFAULT_HEX_SIZE,
    colors: Mapping[str, str] | None = None,
    show_hex_numbers: bool = True,
    board: str | None = None,
) -> str:
    """A :class:`~pbem.maps.view.MapView` as SVG text (a pure function of its arguments).

    ``board``: a whole map (no ``around``) places the board drawn by :func:`draw_board` from this
    file name (``<image href>``) instead of drawing it again.

    ``around`` and ``radius`` (default 3) crop the drawing to the hexes within ``radius`` of
    ``around``. ``colors`` overrides any of :data:`DEFAULT_COLORS`, or a side's counter colour with
    ``"side-<ID>"``."""
    from pbem.errors import InputError

    centre = Hex.parse(around) if isinstance(around, str) else around
    if centre is not None and not view.on_map(centre):
        raise InputError(f"hex {centre} is off the map (columns {view.cols[0]:02d}-{view.cols[1]:02d}, "
                         f"rows {view.rows[0]:02d}-{view.rows[1]:02d}): nothing to draw around it")
    if radius is not None and radius < 0:
        raise InputError(f"radius must be 0 or more, not {radius}")
    if hex_size <= 0:
        raise InputError(f"hex size must be positive, not {hex_size}")
    return _Renderer(view, around=centre, radius=radius, hex_size=hex_size, colors=colors,
                     show_hex_numbers=show_hex_numbers, board=board).render()


def draw_board(view: MapView, *, hex_size: float = DEFAULT_HEX_SIZE,
               colors: Mapping[str, str] | None = None, show_hex_numbers: bool = True) -> str:
    """The part of a whole map that never changes in a game (terrain, water, roads, bridges,
    edges, entry areas, hex numbers, place names), to be drawn once per game and placed by every
    map drawn with ``draw(view, board=HREF)``."""
    return _Renderer(view, around=None, radius=None, hex_size=hex_size, colors=colors,
                     show_hex_numbers=show_hex_numbers).render_board()
