"""The board: what never changes in a game -- terrain (fills and patterns), water on hexsides,
roads, trails and railways, bridges, the map edge and reinforcement entry areas, hex numbers and
place names. Drawn into every map, or once per game (:func:`pbem.render.svg.draw_board`)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

import svgwrite
from svgwrite.container import Group

from pbem.maps.hexmap import Hex
from pbem.maps.view import InkMark
from pbem.render.svg.canvas import SQRT3, Canvas, Frame, _n, chained

WATER_KINDS = ("river", "stream", "canal")
HEXSIDE_ORDER = (
    "river", "stream", "canal", "road", "trail", "railway", "bridge", "rail-bridge", "ferry",
    "destroyed-bridge"
)


def _in_look_order(cv: Canvas, used: set[str]) -> list[str]:
    """Terrain kinds in the order of the view's looks, then kinds without a look by name."""
    ordered = [k for k in cv.looks if k in used]
    return ordered + sorted(used - set(cv.looks))


def terrain_kinds(cv: Canvas) -> list[str]:
    """The terrain kinds the legend lists, in order."""
    return _in_look_order(cv, set(cv.v.terrain_kinds))


def hexside_kinds(cv: Canvas) -> list[str]:
    used: set[str] = {r.kind for r in cv.v.routes}  # every route kind has a legend line
    for kinds in cv.v.hexsides.values():
        used |= kinds
    ordered = [k for k in HEXSIDE_ORDER if k in used]
    return ordered + sorted(used - set(HEXSIDE_ORDER))


def terrain_fill(cv: Canvas, kind: str) -> str:
    """A kind's pattern (:func:`terrain_patterns`) if its look has marks, else its colour."""
    look = cv.looks.get(kind)
    if look is None or not look.marks:
        return cv.col.get(f"terrain-{kind}", cv.col["terrain-unknown"])
    return f"url(#t-{kind})"


def terrain_patterns(cv: Canvas, dwg: svgwrite.Drawing) -> None:
    """The pattern of every terrain kind the legend lists (``url(#t-KIND)``)."""
    s = cv.s
    t = 1.5 * s  # pattern tile
    for kind in terrain_kinds(cv):
        base = cv.col.get(f"terrain-{kind}", cv.col["terrain-unknown"])
        look = cv.looks.get(kind)
        if look is None or not look.marks:
            continue
        pat = dwg.pattern(id=f"t-{kind}", insert=(0, 0), size=(_n(t), _n(t)),
                          patternUnits="userSpaceOnUse")
        pat.add(dwg.rect(insert=(0, 0), size=(_n(t), _n(t)), fill=base))
        colour = cv.col.get(f"ink-{kind}", "#000000")
        g = dwg.g(fill=colour, stroke=colour)
        for mark in look.marks:
            g.add(_ink_mark(dwg, mark, t))
        pat.add(g)
        dwg.defs.add(pat)


_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def _ink_mark(dwg: svgwrite.Drawing, mark: InkMark, t: float) -> Any:
    """One mark of a terrain pattern drawn on a tile of side ``t`` (its numbers are fractions of
    the tile)."""
    if mark.shape == "circle":
        x, y, r = mark.at
        return dwg.circle(center=(_n(x * t), _n(y * t)), r=_n(r * t))
    if mark.shape == "rect":
        x, y, w, h = mark.at
        return dwg.rect(insert=(_n(x * t), _n(y * t)), size=(_n(w * t), _n(h * t)))
    return dwg.path(d=_NUMBER.sub(lambda m: _n(float(m.group()) * t), mark.d), fill="none",
                    stroke_width=_n(mark.width * t))


def board_layers(cv: Canvas, dwg: svgwrite.Drawing, layer: Group, fr: Frame) -> None:
    """What never changes in a game: terrain, water, roads, bridges, edges and entry areas,
    hex numbers and place names."""
    draw_terrain(cv, dwg, layer)
    if cv.drawing >= 3:  # entry areas under the water and roads, which their outlines follow [28]
        draw_edges(cv, dwg, layer, fr)
    draw_water(cv, dwg, layer)
    draw_routes(cv, dwg, layer)
    draw_bridges(cv, dwg, layer)
    if cv.drawing < 3:
        draw_edges(cv, dwg, layer, fr)
    draw_labels(cv, dwg, layer)


def draw_terrain(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    if cv.drawing >= 3:
        _terrain_areas(cv, dwg, layer)
        return
    m = cv.v
    g = dwg.g(id="terrain", stroke=cv.col["hex-outline"], stroke_width=_n(0.03 * cv.s))
    # one group per terrain kind carries the fill and the kind, so each hex is a bare <use>
    by_kind: dict[str, list[Hex]] = {}
    for h in cv.visible:
        by_kind.setdefault(m.terrain_of(h), []).append(h)
    for kind in _in_look_order(cv, set(by_kind)):
        kg = dwg.g(fill=terrain_fill(cv, kind))
        kg["data-terrain"] = kind
        for h in by_kind[kind]:
            x, y = cv.c(h)
            kg.add(dwg.use("#hex", x=_n(x), y=_n(y), id=f"hex-{h}"))
        g.add(kg)
    layer.add(g)


def _terrain_areas(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    """Drawing 3's terrain [28]: the hexes shown as one area (``id="board-area"``) filled with the
    commonest kind, each other kind as one path along the outline of its hexes (their numbers in
    ``data-hexes``; the commonest kind's group lists none: it is every hex shown not listed in
    another), and the hex grid over them as a pattern (``#grid``) filling the area again -- instead
    of a ``<use>`` per hex (~57 bytes each)."""
    by_kind: dict[str, list[Hex]] = {}
    for h in cv.visible:
        by_kind.setdefault(cv.v.terrain_of(h), []).append(h)
    g = dwg.g(id="terrain")
    if not by_kind:
        layer.add(g)
        return
    kinds = _in_look_order(cv, set(by_kind))
    base = max(kinds, key=lambda k: len(by_kind[k]))  # the first of the commonest, in look order
    bg = dwg.g(fill=terrain_fill(cv, base))
    bg["data-terrain"] = base
    bg.add(dwg.path(d=hex_outline(cv, cv.visible), id="board-area", fill_rule="evenodd"))
    g.add(bg)
    for kind in kinds:
        if kind == base:
            continue
        area = dwg.path(d=hex_outline(cv, by_kind[kind]), fill=terrain_fill(cv, kind), fill_rule="evenodd")
        area["data-terrain"] = kind
        area["data-hexes"] = " ".join(str(h) for h in by_kind[kind])
        g.add(area)
    g.add(dwg.use("#board-area", fill="url(#grid)"))
    layer.add(g)


def hex_outline(cv: Canvas, hexes: Iterable[Hex]) -> str:
    """The outline of a set of hexes as path data in relative steps (:func:`chained`): every side
    of one of them whose neighbour across it is not in the set. Three hexes meet at each corner, so
    the sides join into closed loops that do not touch; filled with ``fill-rule="evenodd"`` they
    cover exactly the set (a hole in it stays empty)."""
    inside = set(hexes)
    corners = cv.corner_offsets()  # corner k of a hex: its centre plus corners[k] (k = 0..6)
    across = cv.side_neighbours()  # side k faces the hex neighbours()[across[k]]
    c = cv.c
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    add = segments.append
    for h in sorted(inside):  # each side once, in the order of the hexes and their sides
        near = h.neighbours()
        x, y = c(h)
        for k in range(6):
            if near[across[k]] not in inside:
                (ax, ay), (bx, by) = corners[k], corners[k + 1]
                add(((x + ax, y + ay), (x + bx, y + by)))
    return chained(segments)


def grid_pattern(cv: Canvas, dwg: svgwrite.Drawing) -> None:
    """Drawing 3's hex grid as a pattern (``url(#grid)``): a tile of the plane's hex outlines two
    hex-widths wide, anchored so that its hexes are the map's (a hex's corner at the tile's edge, no
    side along it). Its size is written to a thousandth so that the grid stays on the hexes across
    the whole map."""
    s = cv.s
    w, h = SQRT3 * s, 3 * s  # a tile of pointy-topped hexes; a turned map draws them
    if not cv.turned:
        w, h = h, w
    ox, oy = cv.c(cv.visible[0]) if cv.visible else (0.0, 0.0)
    # the tile starts a quarter of a tile before a hex's centre: no side of a hex lies along its edge
    px, py = (ox - w / 4, oy) if cv.turned else (ox, oy - h / 4)
    segs: list[tuple[tuple[float, float], tuple[float, float]]] = []
    pointy = 30 if cv.turned else 0
    corners = [(s * math.cos(math.radians(a)), s * math.sin(math.radians(a))) for a in range(pointy, 360 + pointy, 60)]
    for i in (-1, 0, 1, 2):
        for j in (-1, 0, 1, 2):
            for cx, cy in ((i * w, j * h), (i * w + w / 2, j * h + h / 2)):
                cx, cy = cx + ox - px, cy + oy - py
                if -s <= cx <= w + s and -s <= cy <= h + s:
                    for k in range(6):
                        a, b = corners[k], corners[(k + 1) % 6]
                        segs.append(((cx + a[0], cy + a[1]), (cx + b[0], cy + b[1])))
    pat = dwg.pattern(id="grid", insert=(f"{px:.3f}", f"{py:.3f}"), size=(f"{w:.3f}", f"{h:.3f}"),
                      patternUnits="userSpaceOnUse")
    pat.add(dwg.path(d=chained(_unique(segs)), fill="none", stroke=cv.col["hex-outline"],
                     stroke_width=_n(0.03 * cv.s)))
    dwg.defs.add(pat)


def _unique(segs: list[tuple[tuple[float, float], tuple[float, float]]]
            ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Segments without repeats (the side two hexes share, drawn once), as :func:`_n` writes them."""
    seen: set[tuple[str, ...]] = set()
    out = []
    for a, b in segs:
        key = tuple(sorted([(_n(a[0]), _n(a[1])), (_n(b[0]), _n(b[1]))]))
        flat = (key[0][0], key[0][1], key[1][0], key[1][1])
        if flat not in seen:
            seen.add(flat)
            out.append((a, b))
    return out


def sides_of(cv: Canvas, kinds: Iterable[str]) -> list[tuple[Hex, Hex]]:
    wanted = set(kinds)
    return sorted(
        side for side, feats in cv.v.hexsides.items()
        if feats & wanted and (side[0] in cv.visible_set or side[1] in cv.visible_set)
    )


def draw_water(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    s = cv.s
    g = dwg.g(id="water", fill="none", stroke_linecap="round")
    if cv.drawing >= 3:  # chained lines join where segments met with round caps: the same look
        g["stroke-linejoin"] = "round"
    widths = {"river": 0.2, "canal": 0.2, "stream": 0.11, "ferry": 0.2}
    for kind in ("stream", "river", "canal", "ferry"):
        sides = sides_of(cv, [kind])
        if not sides:
            continue
        if kind == "ferry":
            # a ferry is a river crossing without a bridge [6.33]: water plus a dashed link
            d = []
            for a, b in sides:
                (x1, y1), (x2, y2) = cv.c(a), cv.c(b)
                d.append(f"M{_n(x1 + (x2 - x1) * 0.3)},{_n(y1 + (y2 - y1) * 0.3)}"
                         f"L{_n(x1 + (x2 - x1) * 0.7)},{_n(y1 + (y2 - y1) * 0.7)}")
            g.add(dwg.path(d="".join(d), stroke=cv.col["ferry"], stroke_width=_n(0.07 * s),
                           stroke_dasharray=f"{_n(0.12 * s)},{_n(0.08 * s)}", id="hs-ferry"))
            continue
        d = []
        if cv.drawing >= 3:  # chained lines in relative steps [28]
            d.append(chained([cv.side_segment(a, b) for a, b in sides]))
        else:
            for a, b in sides:
                p, q = cv.side_segment(a, b)
                d.append(f"M{_n(p[0])},{_n(p[1])}L{_n(q[0])},{_n(q[1])}")
        if kind == "canal" and cv.drawing >= 3:  # the core a <use> of the canal's line [28]
            wrap = dwg.g(stroke=cv.col[kind], stroke_width=_n(widths[kind] * s))
            wrap.add(dwg.path(d="".join(d), id="hs-canal"))
            g.add(wrap)
            g.add(dwg.use("#hs-canal", stroke=cv.col["canal-core"], stroke_width=_n(0.06 * s), id="hs-canal-core"))
            continue
        g.add(dwg.path(d="".join(d), stroke=cv.col[kind], stroke_width=_n(widths[kind] * s),
                       id=f"hs-{kind}"))
        if kind == "canal":
            g.add(dwg.path(d="".join(d), stroke=cv.col["canal-core"],
                           stroke_width=_n(0.06 * s), id="hs-canal-core"))
    layer.add(g)


def draw_routes(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    s = cv.s
    g = dwg.g(id="routes", fill="none", stroke_linecap="round", stroke_linejoin="round")
    destroyed = {side for side, f in cv.v.hexsides.items() if "destroyed-bridge" in f}
    for kind in ("railway", "trail", "road"):
        d: list[str] = []
        segs: list[tuple[tuple[float, float], tuple[float, float]]] = []
        for route in cv.v.routes:
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
                pts = [cv.c(h) for h in run]
                if i == 0 and "start" in route.off_map:
                    pts.insert(0, cv.off_map_point(run[0]))
                if i == len(runs) - 1 and "end" in route.off_map:
                    pts.append(cv.off_map_point(run[-1]))
                if len(pts) >= 2 and cv.drawing >= 3:  # chained lines in relative steps [28]
                    segs.extend(zip(pts, pts[1:], strict=False))
                elif len(pts) >= 2:
                    d.append("M" + "L".join(f"{_n(x)},{_n(y)}" for x, y in pts))
        if segs:
            d.append(chained(segs))
        if d and kind == "railway":
            # a dark line with white ties: a railway, whatever the colours of the roads
            g.add(dwg.path(d="".join(d), stroke=cv.col["railway"],
                           stroke_width=_n(0.11 * s), id="hs-railway"))
            g.add(dwg.path(d="".join(d), stroke=cv.col["railway-tie"],
                           stroke_width=_n(0.05 * s), stroke_linecap="butt",
                           stroke_dasharray=f"{_n(0.12 * s)},{_n(0.12 * s)}",
                           id="hs-railway-ties"))
        elif d:
            attrs: dict[str, str] = {}
            if kind == "trail":
                attrs["stroke_dasharray"] = f"{_n(0.18 * s)},{_n(0.1 * s)}"
            g.add(dwg.path(d="".join(d), stroke=cv.col[kind],
                           stroke_width=_n((0.13 if kind == "road" else 0.08) * s),
                           id=f"hs-{kind}", **attrs))
    layer.add(g)


def draw_bridges(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    s = cv.s
    g = dwg.g(id="bridges")
    m = cv.v
    decked = False
    for a, b in sides_of(cv, ["bridge", "rail-bridge", "destroyed-bridge", "road", "trail"]):
        feats = m.features(a, b)
        if not is_bridge(feats):
            continue
        destroyed = "destroyed-bridge" in feats
        (ax, ay), (bx, by) = cv.c(a), cv.c(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        ang = math.degrees(math.atan2(by - ay, bx - ax))
        ln, wd = 0.5 * s, 0.3 * s
        kind = "destroyed-bridge" if destroyed else (
            "rail-bridge" if "rail-bridge" in feats else "bridge")
        br = dwg.g(transform=f"translate({_n(mx)},{_n(my)}) rotate({_n(ang)})",
                   id=f"bridge-{a}-{b}")
        br["data-kind"] = kind
        deck = dwg.rect(insert=(_n(-ln / 2), _n(-wd / 2)), size=(_n(ln), _n(wd)),
                        fill=cv.col["bridge-deck"], stroke=cv.col["bridge"], stroke_width=_n(0.05 * s))
        if cv.drawing >= 3:  # the deck drawn once (``#deck``) [28]
            if not decked:
                deck["id"] = "deck"
                dwg.defs.add(deck)
                decked = True
            deck = dwg.use("#deck")
        br.add(deck)
        if kind == "rail-bridge":
            br.add(dwg.line(start=(_n(-ln / 2), 0), end=(_n(ln / 2), 0),
                            stroke=cv.col["bridge"], stroke_width=_n(0.06 * s),
                            stroke_dasharray=f"{_n(0.06 * s)},{_n(0.04 * s)}"))
        if destroyed:
            r = 0.2 * s
            br.add(dwg.path(d=f"M{_n(-r)},{_n(-r)}L{_n(r)},{_n(r)}M{_n(-r)},{_n(r)}"
                              f"L{_n(r)},{_n(-r)}",
                            stroke=cv.col["destroyed"], stroke_width=_n(0.08 * s)))
        g.add(br)
    layer.add(g)


def draw_edges(cv: Canvas, dwg: svgwrite.Drawing, layer: Group, fr: Frame) -> None:
    """The map's outer edge, and each reinforcement entry area [11.11] in its side's colour."""
    s = cv.s
    m = cv.v
    outer = [cv.side_segment(h, n) for h in cv.visible for n in h.neighbours() if not m.on_map(n)]
    if cv.drawing >= 3:  # chained lines in relative steps [28]
        d = [chained(outer)] if outer else []
    else:
        d = [f"M{_n(p[0])},{_n(p[1])}L{_n(q[0])},{_n(q[1])}" for p, q in outer]
    g = dwg.g(id="edges", fill="none", stroke_linecap="round")
    if cv.drawing >= 3:
        g["stroke-linejoin"] = "round"
    if d and cv.drawing >= 3 and not cv.cropped:  # the edge of a whole map is the outline of its area
        edge = dwg.use("#board-area", stroke=cv.col["map-edge"], stroke_width=_n(0.08 * s), id="map-edge")
        edge["fill"] = "none"
        g.add(edge)
    elif d:
        g.add(dwg.path(d="".join(d), stroke=cv.col["map-edge"], stroke_width=_n(0.08 * s),
                       id="map-edge"))
    for i, (side, hexes, turns, _texts) in enumerate(cv.entry_areas(), start=1):
        colour = cv.side_colour.get(side, "#888888")
        segs: list[str] = []
        lines: list[tuple[tuple[float, float], tuple[float, float]]] = []
        marks: list[str] = []
        out_x = out_y = 0.0
        last: tuple[float, float] | None = None
        for h in hexes:
            x, y = cv.c(h)
            off = [n for n in h.neighbours() if not m.on_map(n)]
            for n in off:
                p, q = cv.side_segment(h, n)
                nx, ny = cv.c(n)
                ox, oy = (nx - x) * 0.06, (ny - y) * 0.06  # just outside the edge
                out_x += nx - x
                out_y += ny - y
                lines.append(((p[0] + ox, p[1] + oy), (q[0] + ox, q[1] + oy)))
                segs.append(f"M{_n(p[0] + ox)},{_n(p[1] + oy)}L{_n(q[0] + ox)},{_n(q[1] + oy)}")
            if not off and cv.drawing >= 3:  # each ring a relative step from the last [28]
                start = (x - 0.5 * s, y)
                move = f"M{_n(start[0])},{_n(start[1])}" if last is None else \
                    f"m{_n(start[0] - last[0])},{_n(start[1] - last[1])}"
                marks.append(f"{move}a{_n(0.5 * s)},{_n(0.5 * s)} 0 1 0 {_n(s)},0a{_n(0.5 * s)},{_n(0.5 * s)} 0 1 0 "
                             f"{_n(-s)},0")
                last = (float(_n(start[0])), float(_n(start[1])))
            elif not off:  # an entry hex inside the map: a ring
                marks.append(f"M{_n(x - 0.5 * s)},{_n(y)}a{_n(0.5 * s)},{_n(0.5 * s)} 0 1 0 "
                             f"{_n(s)},0a{_n(0.5 * s)},{_n(0.5 * s)} 0 1 0 {_n(-s)},0")
        if cv.drawing >= 3:  # one band along the edge, the hexes inside the map outlined [28]
            segs = [_offset_band(cv, hexes)] if lines else []
            inside = [h for h in hexes if all(m.on_map(n) for n in h.neighbours())]
            marks = [hex_outline(cv, inside)] if inside else []
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
        lx, ly = cv.c(mid)
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


def _offset_band(cv: Canvas, hexes: list[Hex]) -> str:
    """Drawing 3's band of an entry area along the map edge [28]: the hexsides of its hexes that
    face off the map, each moved just outside (0.06 of the way to the hex beyond, as drawings 1 and
    2 move each), joined where they meet -- a corner moved along both sides' directions so that
    the two meet (a mitre) -- and chained in relative steps (:func:`chained`)."""
    sides: list[tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = []
    for h in hexes:
        x, y = cv.c(h)
        for n in h.neighbours():
            if not cv.v.on_map(n):
                p, q = cv.side_segment(h, n)
                nx, ny = cv.c(n)
                sides.append((p, q, ((nx - x) * 0.06, (ny - y) * 0.06)))

    def key(pt: tuple[float, float]) -> tuple[float, float]:
        return round(pt[0], 3), round(pt[1], 3)

    moves: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for p, q, o in sides:
        moves.setdefault(key(p), []).append(o)
        moves.setdefault(key(q), []).append(o)

    def moved(pt: tuple[float, float]) -> tuple[float, float]:
        os = moves[key(pt)]
        if len(os) != 2:
            return pt[0] + os[0][0], pt[1] + os[0][1]
        (ax, ay), (bx, by) = os
        k = 1 + (ax * bx + ay * by) / (ax * ax + ay * ay)  # the mitre of two moves of equal length
        return pt[0] + (ax + bx) / k, pt[1] + (ay + by) / k

    return chained([(moved(p), moved(q)) for p, q, _o in sides])


def draw_labels(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    s = cv.s
    if cv.show_numbers:
        g = dwg.g(id="hex-numbers", class_="hn")  # the style is inherited by every number
        if cv.drawing >= 3:  # a group per column of numbers carries their x [28]
            # and their height above the hex centre, which a turned map places on whole units
            g["transform"] = f"translate(0,{_n(-0.64 * s)})"
            columns: dict[str, list[tuple[Hex, float]]] = {}
            for h in cv.visible:
                x, y = cv.c(h)
                columns.setdefault(_n(x), []).append((h, y))
            for x_text, hexes in columns.items():
                col = dwg.g(transform=f"translate({x_text})")
                for h, y in hexes:
                    col.add(dwg.text(str(h), y=[_n(y)]))
                g.add(col)
        else:
            for h in cv.visible:
                x, y = cv.c(h)
                g.add(dwg.text(str(h), insert=(_n(x), _n(y - 0.64 * s))))
        layer.add(g)
    g = dwg.g(id="places")
    # drawing 3: each name written once, its halo a <use> of it under all the names [28]
    halos, names = (dwg.g(class_="ph"), dwg.g(class_="pn")) if cv.drawing >= 3 else (g, g)
    for i, p in enumerate(cv.v.places):
        h = p.hex
        if h not in cv.visible_set:
            continue
        x, y = cv.c(h)
        pos = (_n(x), _n(y + place_dy(cv, x, y, p.name)))
        if cv.drawing >= 3:
            halos.add(dwg.use(f"#place-{i}"))
            names.add(dwg.text(p.name, insert=pos, id=f"place-{i}"))
        else:
            g.add(dwg.text(p.name, insert=pos, class_="ph"))
            g.add(dwg.text(p.name, insert=pos, class_="pn"))
    if cv.drawing >= 3:
        g.add(halos)
        g.add(names)
    layer.add(g)


def place_dy(cv: Canvas, x: float, y: float, name: str) -> float:
    """Where a place name sits below its hex centre: low in the hex, over the hexside below
    it, unless a bridge is there (a bridge is what a player looks for); then above the hex
    number, if no bridge is there either."""
    s = cv.s
    half = 0.3 * s * 0.58 * len(name) / 2 + 0.25 * s  # the text, and half a bridge deck
    bridges = bridge_points(cv)

    def covers(dy: float) -> bool:  # the text spans 0.3 hex above its baseline
        return any(abs(bx - x) <= half and dy - 0.45 * s <= by - y <= dy + 0.15 * s
                   for bx, by in bridges)

    if not cv.v.names_clear_bridges:
        return 0.82 * s
    for dy in (0.82 * s, -0.92 * s):
        if not covers(dy):
            return dy
    return 0.82 * s


def bridge_points(cv: Canvas) -> list[tuple[float, float]]:
    """The middle of every bridge drawn (:meth:`_bridges`), found once per drawing."""
    if cv.bridge_points is not None:
        return cv.bridge_points
    out = []
    for a, b in sides_of(cv, ["bridge", "rail-bridge", "destroyed-bridge", "road", "trail"]):
        if is_bridge(cv.v.features(a, b)):
            (ax, ay), (bx, by) = cv.c(a), cv.c(b)
            out.append(((ax + bx) / 2, (ay + by) / 2))
    cv.bridge_points = out
    return out


def is_bridge(feats: frozenset[str]) -> bool:
    """A hexside drawn as a bridge: a bridge (standing or destroyed), or a road or trail over
    water where no ferry is."""
    water = feats & set(WATER_KINDS)
    return bool(feats & {"bridge", "rail-bridge", "destroyed-bridge"}) or (
        bool(feats & {"road", "trail"}) and bool(water) and "ferry" not in feats)
