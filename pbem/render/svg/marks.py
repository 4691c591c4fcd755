"""What a step did, drawn over the board and the counters: movement arrows, retreats,
displacements and advances, combats with their label placed clear of the counters, eliminations,
placements; and the marks a view asks for beside them (shaded hexes, hexside marks)."""

from __future__ import annotations

import math
from typing import Any

import svgwrite
from svgwrite.container import Group

from pbem.maps.hexmap import Hex
from pbem.maps.view import CombatMark, EliminatedMark, MoveMark, PlacedMark, TrailMark
from pbem.render.svg.canvas import Canvas, _n, polyline, xml_id


def draw_shaded(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    """The hexes of :attr:`MapView.shaded`, tinted, each with its label low in the hex."""
    g = dwg.g(id="shaded", fill=cv.col["reach"], fill_opacity="0.38")
    labels = dwg.g(id="shaded-labels", class_="pl")
    visible = set(cv.visible)
    for h, text in cv.v.shaded:
        if h not in visible:
            continue
        x, y = cv.c(h)
        g.add(dwg.use("#hex", x=_n(x), y=_n(y), id=f"shaded-{h}"))
        if text:
            labels.add(dwg.text(text, insert=(_n(x), _n(y + 0.62 * cv.s)), text_anchor="middle",
                                fill=cv.col["reach-text"]))
    layer.add(g)
    layer.add(labels)


def draw_zones(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    """The zones of :attr:`MapView.zones` (drawing 2): their hexes tinted in the zone kind's colour
    (a drop zone also outlined, dashed), a one-hex zone's tag low in its hex."""
    if not cv.v.zones:
        return
    g = dwg.g(id="zones")
    for k, zone in enumerate(cv.v.zones, start=1):
        hexes = [h for h in zone.hexes if h in cv.visible_set]
        if not hexes:
            continue
        colour = cv.col.get(zone.kind, cv.col["objective-area"])
        zg = dwg.g(id=f"zone-{k}", class_="zone", fill=colour,
                   fill_opacity="0.32" if zone.kind == "drop-zone" else "0.14")
        zg["data-kind"] = zone.kind
        zg["data-side"] = zone.side
        zg["data-hexes"] = " ".join(str(h) for h in sorted(zone.hexes))
        for h in sorted(hexes):
            x, y = cv.c(h)
            el = dwg.use("#hex", x=_n(x), y=_n(y))
            if zone.kind == "drop-zone":
                el["stroke"] = colour
                el["stroke-width"] = _n(0.1 * cv.s)
                el["stroke-dasharray"] = f"{_n(0.2 * cv.s)},{_n(0.1 * cv.s)}"
            zg.add(el)
        if len(zone.hexes) == 1 and zone.tag:
            x, y = cv.c(zone.hexes[0])
            w, hgt = (0.15 * len(zone.tag) + 0.2) * cv.s, 0.3 * cv.s
            tag = dwg.g(class_="zone-tag", fill_opacity="1")
            tag.add(dwg.rect(insert=(_n(x - w / 2), _n(y + 0.52 * cv.s)), size=(_n(w), _n(hgt)),
                             rx=_n(0.06 * cv.s), fill=colour, stroke="#000000", stroke_width=_n(0.02 * cv.s)))
            tag.add(dwg.text(zone.tag, insert=(_n(x), _n(y + 0.74 * cv.s)), class_="mk", fill="#ffffff"))
            zg.add(tag)
        g.add(zg)
    layer.add(g)


def draw_objectives(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    """The objectives of :attr:`MapView.objectives` (drawing 2): a thick outline of the hex and,
    when a side holds it, a disc of that side's colour at its right corner."""
    if not cv.v.objectives:
        return
    g = dwg.g(id="objectives")
    colour = cv.col["objective"]
    for ob in cv.v.objectives:
        if ob.hex not in cv.visible_set:
            continue
        x, y = cv.c(ob.hex)
        og = dwg.g(id=f"objective-{ob.hex}", class_="objective")
        og["data-hex"] = str(ob.hex)
        og["data-holder"] = ob.holder
        og.add(dwg.use("#hex", x=_n(x), y=_n(y), fill="none", stroke=colour,
                       stroke_width=_n(0.16 * cv.s)))
        dx = 0.74 * cv.s
        og.add(dwg.circle(center=(_n(x + dx), _n(y)), r=_n(0.2 * cv.s),
                          fill=cv.side_colour.get(ob.holder, "#ffffff") if ob.holder else "#ffffff",
                          stroke=colour, stroke_width=_n(0.06 * cv.s)))
        og.add(dwg.text(ob.tag, insert=(_n(x + dx), _n(y + 0.06 * cv.s)), class_="mk",
                        style=f"font-size:{_n(0.15 * cv.s)}px"))
        og.set_desc(title=ob.text + (f" (held by {ob.holder})" if ob.holder else ""))
        g.add(og)
    layer.add(g)


def draw_unsupplied(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    """The units of :attr:`MapView.unsupplied` (drawing 2): their hex ringed, dashed, and a tag at
    the counter's lower right naming how many there are in the hex."""
    where: dict[Hex, list[str]] = {}
    cut = set(cv.v.unsupplied)
    for c in cv.v.counters:
        if c.id in cut and c.hex in cv.visible_set:
            where.setdefault(c.hex, []).append(c.id)
    if not where:
        return
    g = dwg.g(id="unsupplied")
    colour = cv.col["unsupplied"]
    s = cv.cs
    defined: set[str] = set()
    for h in sorted(where):
        x, y = cv.c(h)
        ids = where[h]
        ug = dwg.g(id=xml_id("unsupplied-", str(h)), class_="unsupplied")
        ug["data-hex"] = str(h)
        ug["data-units"] = " ".join(ids)
        text = cv.v.unsupplied_tag + (f"×{len(ids)}" if len(ids) > 1 else "")
        # drawing 3: the ring and tag drawn once for each text (``#cut-TEXT``), placed on each hex [28]
        ox, oy = (0.0, 0.0) if cv.drawing >= 3 else (x, y)
        mark = dwg.g(id=xml_id("cut-", text)) if cv.drawing >= 3 else ug
        mark.add(dwg.circle(center=(_n(ox), _n(oy)), r=_n(0.8 * cv.s), fill="none", stroke=colour,
                            stroke_width=_n(0.08 * cv.s), stroke_dasharray=f"{_n(0.16 * cv.s)},{_n(0.1 * cv.s)}"))
        w = (0.13 * len(text) + 0.12) * s
        # at the counter's lower right corner, half beyond it (the count of a stack is at its left)
        tx, ty = ox + 0.5 * s - w / 2 + 0.25 * s, oy + 0.42 * s
        mark.add(dwg.rect(insert=(_n(tx - w / 2), _n(ty)), size=(_n(w), _n(0.3 * s)),
                          fill=colour, stroke="#000000", stroke_width=_n(0.02 * s)))
        mark.add(dwg.text(text, insert=(_n(tx), _n(ty + 0.23 * s)), class_="mk", fill="#ffffff"))
        if mark is not ug:
            if mark["id"] not in defined:
                defined.add(mark["id"])
                dwg.defs.add(mark)
            ug.add(dwg.use(f"#{mark['id']}", x=_n(x), y=_n(y)))
        ug.set_desc(title=f"{', '.join(ids)}: {cv.v.unsupplied_text}")
        g.add(ug)
    layer.add(g)


def hexside_mark(cv: Canvas, dwg: svgwrite.Drawing, x: float, y: float, kind: str) -> list[Any]:
    s = cv.s
    if kind == "demolished":
        d = 0.28 * s
        return [dwg.line(start=(_n(x - d), _n(y - d)), end=(_n(x + d), _n(y + d)),
                         stroke="#c0392b", stroke_width=_n(0.12 * s)),
                dwg.line(start=(_n(x - d), _n(y + d)), end=(_n(x + d), _n(y - d)),
                         stroke="#c0392b", stroke_width=_n(0.12 * s))]
    return [dwg.circle(center=(_n(x), _n(y)), r=_n(0.2 * s), fill="none", stroke="#1e8449",
                       stroke_width=_n(0.08 * s))]


def draw_hexside_marks(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    """The hexsides of :attr:`MapView.hexside_marks`, marked at their middle."""
    g = dwg.g(id="hexside-marks")
    visible = set(cv.visible)
    s = cv.s
    shapes: dict[str, list[str]] = {}
    for a, b, kind in cv.v.hexside_marks:
        if a not in visible and b not in visible:
            continue
        (ax, ay), (bx, by) = cv.c(a), cv.c(b)
        x, y = (ax + bx) / 2, (ay + by) / 2
        if cv.drawing >= 3:  # the marks of a kind as one path [28]: a cross (demolished), a ring
            d, r = 0.28 * s, 0.2 * s
            shapes.setdefault(kind, []).append(
                f"M{_n(x - d)},{_n(y - d)}l{_n(2 * d)},{_n(2 * d)}m0,{_n(-2 * d)}l{_n(-2 * d)},{_n(2 * d)}"
                if kind == "demolished" else
                f"M{_n(x - r)},{_n(y)}a{_n(r)},{_n(r)} 0 1 0 {_n(2 * r)},0a{_n(r)},{_n(r)} 0 1 0 {_n(-2 * r)},0")
            continue
        for el in hexside_mark(cv, dwg, x, y, kind):
            g.add(el)
    for kind, parts in shapes.items():
        if kind == "demolished":
            g.add(dwg.path(d="".join(parts), stroke="#c0392b", stroke_width=_n(0.12 * s)))
        else:
            g.add(dwg.path(d="".join(parts), fill="none", stroke="#1e8449", stroke_width=_n(0.08 * s)))
    layer.add(g)


def arrow(cv: Canvas, dwg: svgwrite.Drawing, pts: list[tuple[float, float]], colour: str,
           width: float, *, dashed: bool = False, head: float = 1.0, marker: bool = True) -> list[Any]:
    """A polyline with a filled arrowhead at its last point (drawing 3: a path in relative steps,
    its head a marker shared by the arrows of its colour and size, unless ``marker`` is false: the
    legend's samples, one of each)."""
    s = cv.s
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
    if cv.drawing >= 3 and marker:  # the line in relative steps to the head's base, the head a marker [28]
        line = dwg.path(d=polyline([*pts[:-1], (bx, by)]), class_="ar", stroke=colour, stroke_width=_n(width), **attrs)
        line["marker-end"] = f"url(#{arrowhead(cv, dwg, colour, hl, hw)})"
        return [line]
    if cv.drawing >= 3:  # no fill, round joins and caps: the class ``ar`` (the style sheet) [28]
        attrs["class_"] = "ar"
    else:
        attrs.update(fill="none", stroke_linejoin="round", stroke_linecap="round")
    out: list[Any] = [
        dwg.polyline(points=[(_n(x), _n(y)) for x, y in line_pts], stroke=colour, stroke_width=_n(width),
                     **attrs),
        dwg.polygon(points=[(_n(x2), _n(y2)), (_n(bx - uy * hw), _n(by + ux * hw)),
                            (_n(bx + uy * hw), _n(by - ux * hw))], fill=colour),
    ]
    return out


def arrowhead(cv: Canvas, dwg: svgwrite.Drawing, colour: str, length: float, half_width: float) -> str:
    """Drawing 3: the id of an arrowhead marker (``ah-N``, defined the first time it is used): a
    filled triangle ``length`` long and twice ``half_width`` wide, its base's middle on the end of
    the line it ends, pointing along the line's last step [28]."""
    key = (colour, _n(length), _n(half_width))
    known = cv.heads.get(key)
    if known is not None:
        return known
    ident = cv.heads[key] = f"ah-{len(cv.heads) + 1}"
    w, h = _n(length), _n(2 * half_width)
    marker = dwg.marker(insert=(0, _n(half_width)), size=(w, h), orient="auto", id=ident)
    marker["markerUnits"] = "userSpaceOnUse"
    marker.add(dwg.path(d=f"M0,0L{w},{_n(half_width)}L0,{h}z", fill=colour))
    dwg.defs.add(marker)
    return ident


def trim_end(cv: Canvas, pts: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """Shorten the last segment so an arrowhead stops at a counter's edge, not under it."""
    if len(pts) < 2:
        return pts
    (x1, y1), (x2, y2) = pts[-2], pts[-1]
    d = math.hypot(x2 - x1, y2 - y1)
    if d <= by:
        return pts
    return [*pts[:-1], (x2 - (x2 - x1) / d * by, y2 - (y2 - y1) / d * by)]


def draw_events(cv: Canvas, dwg: svgwrite.Drawing, paths: Group, combats: Group) -> None:
    s = cv.s
    for mark in cv.v.marks:
        eid = f"event-{mark.index}"
        if isinstance(mark, MoveMark):
            pts = [cv.c(h) for h in mark.path]
            if mark.entered and mark.path:
                pts.insert(0, cv.off_map_point(mark.path[0]))
            if mark.exited and mark.path:
                pts.append(cv.off_map_point(mark.path[-1]))
            elif len(pts) >= 2:
                pts = trim_end(cv, pts, 0.62 * s)
            g = dwg.g(id=eid, class_="event")
            g["data-type"] = "moved"
            g["data-unit"] = mark.unit
            colour = cv.col["move"]
            for el in arrow(cv, dwg, pts, colour, 0.09 * s):
                el["opacity"] = "0.8"
                g.add(el)
            if len(mark.path) == 1 and not (mark.entered or mark.exited):
                x, y = pts[0]
                g.add(dwg.circle(center=(_n(x), _n(y)), r=_n(0.7 * s), fill="none",
                                 stroke=colour, stroke_width=_n(0.06 * s)))
            paths.add(g)
        elif isinstance(mark, TrailMark):
            colour = cv.col[mark.kind]
            pts = trim_end(cv, [cv.c(h) for h in mark.path], 0.62 * s)
            g = dwg.g(id=eid, class_="event")
            g["data-type"] = mark.kind
            g["data-unit"] = mark.unit
            for el in arrow(cv, dwg, pts, colour, 0.1 * s, dashed=True):
                g.add(el)
            if len(pts) < 2 and mark.path:  # no hexes moved: a dashed ring
                x, y = pts[0]
                g.add(dwg.circle(center=(_n(x), _n(y)), r=_n(0.75 * s), fill="none",
                                 stroke=colour, stroke_width=_n(0.08 * s),
                                 stroke_dasharray=f"{_n(0.2 * s)},{_n(0.1 * s)}"))
            combats.add(g)
        elif isinstance(mark, CombatMark):
            combats.add(combat(cv, dwg, mark, eid))
        elif isinstance(mark, EliminatedMark):
            g = dwg.g(id=eid, class_="event")
            g["data-type"] = "eliminated"
            g["data-unit"] = mark.unit
            if mark.hex is not None:
                x, y = cv.c(mark.hex)
                r = 0.45 * s
                g.add(dwg.path(d=f"M{_n(x - r)},{_n(y - r)}L{_n(x + r)},{_n(y + r)}"
                                 f"M{_n(x - r)},{_n(y + r)}L{_n(x + r)},{_n(y - r)}",
                               stroke=cv.col["eliminated"], stroke_width=_n(0.14 * s),
                               stroke_linecap="round", opacity="0.85"))
                g["data-hex"] = str(mark.hex)
            combats.add(g)
        elif isinstance(mark, PlacedMark):
            x, y = cv.c(mark.hex)
            g = dwg.g(id=eid, class_="event")
            g["data-type"] = "placed"
            g["data-unit"] = mark.unit
            g.add(dwg.circle(center=(_n(x), _n(y)), r=_n(0.8 * s), fill="none",
                             stroke=cv.col["placed"], stroke_width=_n(0.06 * s)))
            paths.add(g)
        # notes are listed in the side panel (see _panel).


def combat(cv: Canvas, dwg: svgwrite.Drawing, ev: CombatMark, eid: str) -> Group:
    s = cv.s
    g = dwg.g(id=eid, class_="event")
    g["data-type"] = "combat"
    g["data-number"] = str(ev.number)
    dhexes = list(ev.defenders)
    if not dhexes:
        return g
    tx = sum(cv.c(h)[0] for h in dhexes) / len(dhexes)
    ty = sum(cv.c(h)[1] for h in dhexes) / len(dhexes)
    g["data-hex"] = " ".join(str(h) for h in dhexes)
    adjacent, barrage, fpf = ev.attackers, ev.barrage, ev.fpf
    colour = cv.col["attack"]

    def toward(h: Hex, start: float, end: float) -> list[tuple[float, float]]:
        x, y = cv.c(h)
        d = math.hypot(tx - x, ty - y) or 1.0
        return [(x + (tx - x) * start / d, y + (ty - y) * start / d),
                (tx - (tx - x) * end / d, ty - (ty - y) * end / d)]

    for h in adjacent:
        for el in arrow(cv, dwg, toward(h, 0.3 * s, 0.35 * s), colour, 0.13 * s, head=1.1):
            g.add(el)
    for h in barrage:
        for el in arrow(cv, dwg, toward(h, 0.65 * s, 0.55 * s), cv.col["barrage"],
                              0.07 * s, dashed=True):
            g.add(el)
    for h in fpf:
        x, y = cv.c(h)
        g.add(dwg.line(start=(_n(x), _n(y)), end=(_n(tx), _n(ty)), stroke=cv.col["fpf"],
                       stroke_width=_n(0.06 * s),
                       stroke_dasharray=f"{_n(0.08 * s)},{_n(0.1 * s)}"))
    text = ev.label
    w = (0.2 * len(text) + 0.3) * s
    hgt = 0.46 * s
    lx, ly = label_spot(cv, tx, ty, w, hgt)
    g.add(dwg.rect(insert=(_n(lx - w / 2), _n(ly - hgt / 2)), size=(_n(w), _n(hgt)),
                   rx=_n(0.1 * s), fill=cv.col["label-bg"], stroke=colour,
                   stroke_width=_n(0.05 * s), opacity="0.95"))
    g.add(dwg.text(text, insert=(_n(lx), _n(ly + 0.11 * s)), class_="lb", fill=colour))
    return g


def label_spot(cv: Canvas, tx: float, ty: float, w: float, hgt: float) -> tuple[float, float]:
    """Where a combat's label goes: the first of a fixed list of spots around the combat
    (above, below, left, right, the diagonals, then twice and three times as far) whose box
    covers no counter and no label placed before; when none is free, the one that covers
    least."""
    s, half = cv.s, cv.cs / 2
    if cv.boxes is None:
        cv.boxes = []
        for c in cv.v.counters:
            if c.hex in cv.visible_set:
                cx, cy = cv.c(c.hex)
                cv.boxes.append((cx - half, cy - half, cx + half, cy + half))
    boxes = cv.boxes
    vy = half + 0.1 * s + hgt / 2
    vx = w / 2 + half + 0.1 * s
    spots = []
    for k in (1.0, 2.2, 3.4):
        spots += [(0.0, -vy * k), (0.0, vy * k), (-vx * k, 0.0), (vx * k, 0.0),
                  (-vx * k, -vy * k), (vx * k, -vy * k), (-vx * k, vy * k), (vx * k, vy * k)]

    if cv.label_bounds is None or not cv.visible:  # the hexes drawn: the same for every label
        xs = [cv.c(h)[0] for h in cv.visible] or [tx]
        ys = [cv.c(h)[1] for h in cv.visible] or [ty]
        cv.label_bounds = (min(xs) - 0.5 * s, min(ys) - 0.5 * s, max(xs) + 0.5 * s, max(ys) + 0.5 * s)
    bx0, by0, bx1, by1 = cv.label_bounds

    def on_hexes(box: tuple[float, float, float, float]) -> bool:
        """Whether the whole box lies on the hexes drawn (points along its edges a quarter hex
        apart): a cropped map clips what does not."""
        for k in range(int((box[2] - box[0]) / (0.25 * s)) + 2):
            x = min(box[0] + k * 0.25 * s, box[2])
            if not (cv.inside(x, box[1]) and cv.inside(x, box[3])):
                return False
        for k in range(int((box[3] - box[1]) / (0.25 * s)) + 2):
            y = min(box[1] + k * 0.25 * s, box[3])
            if not (cv.inside(box[0], y) and cv.inside(box[2], y)):
                return False
        return True

    def covered(box: tuple[float, float, float, float]) -> float:
        # a spot off the hexes drawn (a cropped map clips it) counts as covering everything
        area = 0.0 if bx0 <= box[0] and box[2] <= bx1 and by0 <= box[1] and box[3] <= by1 else 1e12
        if not area and cv.cropped and cv.drawing >= 2 and not on_hexes(box):
            area = 1e12
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
