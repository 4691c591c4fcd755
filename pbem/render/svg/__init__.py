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

Output is deterministic: coordinates are rounded to one decimal, every element is emitted in a
fixed order, every id is explicit (svgwrite's automatic ids are never used), so the same inputs give
the same bytes. Elements carry ids and data attributes for tools and tests: ``id="unit-1/501"
data-hex="1418"``, ``id="event-3" data-type="combat"`` (events are numbered from 1 in the order of
the step's event list); drawings 1 and 2 draw each hex as a tile ``id="hex-1317"``, drawing 3 draws
the terrain as areas whose ``data-hexes`` list their hexes (the hexes shown are those numbered) and
puts a counter's ``data-side``, ``data-type`` and ``data-values`` on the face it places.

The package is cut along the drawing's layers: :mod:`.canvas` (what one drawing shares: the view,
the colours in use, the hexes shown, geometry, number format), :mod:`.palette` (colours and font),
:mod:`.board` (terrain, water, routes, bridges, edges and entry areas, hex numbers and place names:
what :func:`draw_board` draws once per game), :mod:`.counters` (units and stacks, NATO symbols),
:mod:`.marks` (what the step did: arrows, combats and their labels, eliminations, placements,
shaded hexes, hexside marks) and :mod:`.panel` (header and side panel); this module lays out the
page and calls them in a fixed order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import svgwrite

from pbem.errors import InputError
from pbem.maps.hexmap import Hex
from pbem.maps.view import MapView
from pbem.render.svg.board import board_layers, grid_pattern, terrain_patterns
from pbem.render.svg.canvas import DEFAULT_HEX_SIZE, DRAWING, SQRT3, Canvas, Frame, _n, seven_bit
from pbem.render.svg.counters import draw_units, nato_symbols
from pbem.render.svg.marks import (
    draw_events,
    draw_hexside_marks,
    draw_objectives,
    draw_shaded,
    draw_unsupplied,
    draw_zones,
)
from pbem.render.svg.palette import FONT
from pbem.render.svg.panel import draw_header, draw_panel, legend_width


def draw(
    view: MapView,
    *,
    around: Hex | str | None = None,
    radius: int | None = None,
    hex_size: float = DEFAULT_HEX_SIZE,
    colors: Mapping[str, str] | None = None,
    show_hex_numbers: bool = True,
    board: str | None = None,
    drawing: int = DRAWING,
    box: tuple[tuple[int, int], tuple[int, int]] | None = None,
) -> str:
    """A :class:`~pbem.maps.view.MapView` as SVG text (a pure function of its arguments).

    ``drawing``: which way of drawing (:data:`~pbem.render.svg.canvas.DRAWING`, the newest, or an
    older one, to draw again a map an older pbem wrote). ``box``: crop to a rectangle of the grid,
    ((first, last column), (first, last row)), instead of ``around``.

    ``board``: a whole map (no ``around``) places the board drawn by :func:`draw_board` from this
    file name (``<image href>``) instead of drawing it again.

    ``around`` and ``radius`` (default 3) crop the drawing to the hexes within ``radius`` of
    ``around``. ``colors`` overrides any of :data:`DEFAULT_COLORS`, or a side's counter colour with
    ``"side-<ID>"``."""

    centre = Hex.parse(around) if isinstance(around, str) else around
    if centre is not None and not view.on_map(centre):
        raise InputError(f"hex {centre} is off the map (columns {view.cols[0]:02d}-{view.cols[1]:02d}, "
                         f"rows {view.rows[0]:02d}-{view.rows[1]:02d}): nothing to draw around it")
    if radius is not None and radius < 0:
        raise InputError(f"radius must be 0 or more, not {radius}")
    if hex_size <= 0:
        raise InputError(f"hex size must be positive, not {hex_size}")
    if not 1 <= drawing <= DRAWING:
        raise InputError(f"drawing {drawing} is not one this pbem knows (1 to {DRAWING}): a newer "
                         "pbem drew this map")
    return _render(Canvas(view, around=centre, radius=radius, hex_size=hex_size, colors=colors,
                         show_hex_numbers=show_hex_numbers, board=board, drawing=drawing, box=box))


def draw_board(view: MapView, *, hex_size: float = DEFAULT_HEX_SIZE,
               colors: Mapping[str, str] | None = None, show_hex_numbers: bool = True) -> str:
    """The part of a whole map that never changes in a game (terrain, water, roads, bridges,
    edges, entry areas, hex numbers, place names), to be drawn once per game and placed by every
    map drawn with ``draw(view, board=HREF)``. Drawn as drawing 2 drew it (the last to place a
    board: the games of an older pbem keep it); drawing 3's lighter board layers are never placed."""
    return _render_board(Canvas(view, around=None, radius=None, hex_size=hex_size, colors=colors,
                               show_hex_numbers=show_hex_numbers, drawing=2))


def _render(cv: Canvas) -> str:
    fr = _frame(cv)
    dwg = svgwrite.Drawing(profile="full", debug=False)
    dwg["font-family"] = FONT
    dwg["data-scenario"] = cv.v.scenario_id
    dwg["data-hex-size"] = _n(cv.s)
    if cv.side is not None:
        dwg["data-side"] = cv.side
    if cv.drawing >= 2:
        dwg["data-drawing"] = str(cv.drawing)
    dwg.add(dwg.style(_css(cv)))
    _defs(cv, dwg)
    background = dwg.rect(fill=cv.col["background"], id="background")
    dwg.add(background)
    layer = dwg.g(id="map")
    if cv.cropped:
        layer["clip-path"] = "url(#map-clip)"
    dwg.add(layer)
    if cv.board is not None and not cv.cropped:  # the board drawn once per game, beside
        img = dwg.image(cv.board, insert=(_n(fr.map_x0), _n(fr.map_y0)),
                        size=(_n(fr.map_x1 - fr.map_x0), _n(fr.map_y1 - fr.map_y0)), id="board")
        img["preserveAspectRatio"] = "none"
        layer.add(img)
    else:
        board_layers(cv, dwg, layer, fr)
    if cv.v.shaded:
        draw_shaded(cv, dwg, layer)
    if cv.v.hexside_marks:
        draw_hexside_marks(cv, dwg, layer)
    if cv.drawing >= 2:
        draw_zones(cv, dwg, layer)
        draw_objectives(cv, dwg, layer)
    paths = dwg.g(id="paths")
    layer.add(paths)
    units = dwg.g(id="units")
    layer.add(units)
    combats = dwg.g(id="combats")
    layer.add(combats)
    draw_events(cv, dwg, paths, combats)
    draw_units(cv, dwg, units)
    if cv.drawing >= 2:
        draw_unsupplied(cv, dwg, units)
    draw_header(cv, dwg, fr)
    bottom = draw_panel(cv, dwg, fr)
    vx, vy, vw, vh = fr.view
    vh = max(vh, bottom + 0.4 * cv.s - vy)
    dwg["viewBox"] = " ".join(_n(v) for v in (vx, vy, vw, vh))
    dwg["width"] = _n(vw)
    dwg["height"] = _n(vh)
    background["x"], background["y"] = _n(vx), _n(vy)
    background["width"], background["height"] = _n(vw), _n(vh)
    return seven_bit(str(dwg.tostring())) if cv.drawing >= 3 else str(dwg.tostring())


def _render_board(cv: Canvas) -> str:
    """The board alone, its view box exactly the map box of :func:`draw` (which places it
    with ``<image href=...>``)."""
    fr = _frame(cv)
    dwg = svgwrite.Drawing(profile="full", debug=False)
    dwg["font-family"] = FONT
    dwg["data-scenario"] = cv.v.scenario_id
    dwg["data-hex-size"] = _n(cv.s)
    dwg.add(dwg.style(_css(cv)))
    _defs(cv, dwg, symbols=False)
    layer = dwg.g(id="map")
    dwg.add(layer)
    board_layers(cv, dwg, layer, fr)
    box = (fr.map_x0, fr.map_y0, fr.map_x1 - fr.map_x0, fr.map_y1 - fr.map_y0)
    dwg["viewBox"] = " ".join(_n(v) for v in box)
    dwg["width"] = _n(box[2])
    dwg["height"] = _n(box[3])
    return str(dwg.tostring())


def _frame(cv: Canvas) -> Frame:
    """Map box and header; the total height is settled after the panel is drawn."""
    s = cv.s
    xs = [cv.c(h)[0] for h in cv.visible] or [0.0]
    ys = [cv.c(h)[1] for h in cv.visible] or [0.0]
    pad = 0.9 * s  # room for entry-area labels outside the map edge
    padx = 2.3 * s  # horizontal entry tags beside the west and east edges
    mx0, mx1 = min(xs) - s - padx, max(xs) + s + padx
    my0, my1 = min(ys) - SQRT3 / 2 * s - pad, max(ys) + SQRT3 / 2 * s + pad
    n_header = 2 + (1 if cv.score else 0) + len(cv.header_lines)
    header_h = 0.55 * s * n_header + 0.6 * s
    panel_w = max(9.0 * s, legend_width(cv))
    gap = 0.4 * s
    y0 = my0 - header_h
    w = (mx1 - mx0) + gap + panel_w + 0.3 * s
    return Frame(mx0, my0, mx1, my1, y0, mx1 + gap, panel_w, (mx0, y0, w, my1 - y0))


def _css(cv: Canvas) -> str:
    s = cv.s
    return (
        f".hn{{font-size:{_n(0.24 * s)}px;fill:{cv.col['hex-number']};text-anchor:middle}}"
        f".pn{{font-size:{_n(0.3 * s)}px;font-weight:bold;fill:{cv.col['place-name']};"
        f"text-anchor:middle}}"
        f".ph{{font-size:{_n(0.3 * s)}px;font-weight:bold;fill:none;"
        f"stroke:{cv.col['place-halo']};stroke-width:{_n(0.12 * s)};stroke-linejoin:round;"
        f"text-anchor:middle}}"
        f".cd{{font-size:{_n(0.21 * cv.cs)}px;text-anchor:middle}}"
        f".cv{{font-weight:bold;text-anchor:middle}}"
        f".mk{{font-size:{_n(0.17 * cv.cs)}px;font-weight:bold;text-anchor:middle;fill:#000}}"
        f".lb{{font-size:{_n(0.3 * s)}px;font-weight:bold;text-anchor:middle}}"
        f".t1{{font-size:{_n(0.62 * s)}px;font-weight:bold;fill:{cv.col['text']}}}"
        f".t2{{font-size:{_n(0.42 * s)}px;fill:{cv.col['text']}}}"
        f".pt{{font-size:{_n(0.36 * s)}px;font-weight:bold;fill:{cv.col['text']}}}"
        f".pl{{font-size:{_n(0.3 * s)}px;fill:{cv.col['text']}}}"
        + (".ar{fill:none;stroke-linejoin:round;stroke-linecap:round}"
           f".unit{{font-size:{_n(0.21 * cv.cs)}px;text-anchor:middle}}" if cv.drawing >= 3 else "")
    )


def _defs(cv: Canvas, dwg: svgwrite.Drawing, *, symbols: bool = True) -> None:
    s = cv.s
    first = 30 if cv.turned else 0  # a turned map has pointy-topped hexes
    corners = [(s * math.cos(math.radians(a)), s * math.sin(math.radians(a)))
               for a in range(first, 360 + first, 60)]
    dwg.defs.add(dwg.polygon(points=[(_n(x), _n(y)) for x, y in corners], id="hex"))
    terrain_patterns(cv, dwg)
    if cv.drawing >= 3:
        grid_pattern(cv, dwg)
    if symbols:
        nato_symbols(cv, dwg)
    if cv.cropped:  # the drawing stops at the outline of the hexes shown
        clip = dwg.clipPath(id="map-clip")
        if cv.drawing >= 3:  # the outline of the hexes shown: the terrain's area [28]
            area = dwg.use("#board-area")
            area["clip-rule"] = "evenodd"
            clip.add(area)
        else:
            for vh in cv.visible:
                x, y = cv.c(vh)
                clip.add(dwg.use("#hex", x=_n(x), y=_n(y)))
        dwg.defs.add(clip)
