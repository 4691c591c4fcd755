"""The units: a counter per unit as printed (side colour, NATO symbol, size, designation, values,
tags), stacks fanned out within their hex."""

from __future__ import annotations

from typing import Any

import svgwrite
from svgwrite.container import Group

from pbem.maps.hexmap import Hex
from pbem.maps.view import CounterView
from pbem.render.svg.canvas import Canvas, _n, xml_id
from pbem.render.svg.palette import luminance

MAX_FAN = 4
"""Counters a stack fans out to at most; a bigger one is squeezed into the same fan and counted."""
NATO_TYPES = (
    "armor", "mech", "recon", "infantry", "airborne", "engineer", "artillery", "sp-artillery"
)
EXTRA_NATO_TYPES = ("glider", "airborne-artillery", "antitank", "hq")
"""Symbols defined (and listed in the legend) only on maps that show such a counter, so maps of
games without them stay byte for byte as they were."""


def nato_kinds(cv: Canvas) -> tuple[str, ...]:
    used = {c.symbol for c in cv.v.counters}
    return NATO_TYPES + tuple(k for k in EXTRA_NATO_TYPES if k in used)


def nato_symbols(cv: Canvas, dwg: svgwrite.Drawing) -> None:
    """The NATO symbols the counters and the legend use (``#nato-KIND``)."""
    # NATO symbols, drawn in the counter's ink colour (inherited from <use>).
    w, h = 0.56 * cv.cs, 0.34 * cv.cs
    x0, y0, x1, y1 = -w / 2, -h / 2, w / 2, h / 2
    sw = _n(0.035 * cv.cs)

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
    if cv.drawing >= 3:
        dwg.defs.add(counter_rect(cv, dwg, id="counter"))
    for kind in nato_kinds(cv):
        g = dwg.g(id=f"nato-{kind}", stroke_width=sw)
        g.add(box())
        for p in parts[kind]:
            g.add(p)
        dwg.defs.add(g)


def draw_units(cv: Canvas, dwg: svgwrite.Drawing, layer: Group) -> None:
    by_hex: dict[Hex, list[CounterView]] = {}
    for c in cv.v.counters:
        if c.hex in cv.visible_set:
            by_hex.setdefault(c.hex, []).append(c)
    for h in sorted(by_hex):
        stack = by_hex[h]
        n = len(stack)
        # a stack fans out, within its hex: of a big one (a megagame's brigade in a town) the
        # top four fan out, the others lie under the lowest of them, and its top counter says
        # how many there are; from drawing 2, every stack is its top counter, legible, over the
        # edges of the others, with the count of the units in it
        counted = n > MAX_FAN or (cv.drawing >= 2 and n > 1)
        for k, c in enumerate(stack):
            shown = (cv.v.stack_text and cv.drawing < 2) or k == n - 1
            marks = [(text, cv.col[key]) for text, key in c.markers] if shown else []
            g = counter(cv, dwg, c, h, 0.14 * cv.cs * max(0, k - max(0, n - MAX_FAN)), marks, legible=shown)
            if counted and k == n - 1:
                cs = cv.cs
                badge = g if cv.drawing < 2 else dwg.g(class_="stack-count")
                if badge is not g:
                    badge["data-count"] = str(n)
                    badge["data-units"] = " ".join(u.id for u in stack)
                    g.add(badge)
                badge.add(dwg.rect(insert=(_n(-0.62 * cs), _n(0.2 * cs)), size=(_n(0.5 * cs), _n(0.3 * cs)),
                                   fill="#ffffff", stroke="#000000", stroke_width=_n(0.02 * cs)))
                count = dwg.text(f"{n}", insert=(_n(-0.37 * cs), _n(0.43 * cs)), class_="mk", fill="#000000")
                if cv.drawing < 2:
                    count.set_desc(title=f"{n} units in this hex")
                else:
                    count.set_desc(title=f"{n} units in this hex: " + "; ".join(
                        f"{u.designation} {u.values}".strip() for u in reversed(stack)))
                badge.add(count)
            layer.add(g)


def counter_rect(cv: Canvas, dwg: svgwrite.Drawing, **attrs: str) -> Any:
    """A counter's frame, centred on the origin."""
    cs = cv.cs
    return dwg.rect(insert=(_n(-cs / 2), _n(-cs / 2)), size=(_n(cs), _n(cs)), rx=_n(0.07 * cs),
                    stroke="#000000", stroke_width=_n(0.035 * cs), **attrs)


def value_lines(cv: Canvas, u: CounterView) -> list[tuple[str, float, float]]:
    """The lines of a counter's values: (text, height in counter sides, font size), two lines for
    artillery (barrage-FPF-range over defense-move) [2.31], each as large as fits the counter."""
    cs = cv.cs
    if len(u.value_lines) > 1:
        lines, base = list(zip(u.value_lines, (0.31, 0.47), strict=False)), 0.19
    else:
        lines, base = [(u.value_lines[0] if u.value_lines else u.values, 0.44)], 0.27
    return [(text, ty, min(base * cs, 0.96 * cs / (0.62 * max(len(text), 1)))) for text, ty in lines]


def face(cv: Canvas, dwg: svgwrite.Drawing, u: CounterView, fill: str, ink: str,
         marks: list[tuple[str, str]]) -> str:
    """Drawing 3: the id of the face of a legible counter in the defs -- its frame in its side's
    colour, size, NATO symbol, values and tags, all but its name -- drawn there the first time a
    counter shows it (``face-N`` in order of appearance) [28]. Its words take the ink of the
    counter placing it; it carries what tools read of them: ``data-side``, ``data-type`` and
    ``data-values``."""
    lines = value_lines(cv, u)
    key = (u.side, u.values, fill, ink, u.size, u.symbol, *(f"{t}@{ty}@{size}" for t, ty, size in lines),
           *(f"{t}@{c}" for t, c in marks))
    known = cv.faces.get(key)
    if known is not None:
        return known
    cs = cv.cs
    ident = cv.faces[key] = f"face-{len(cv.faces) + 1}"
    g = dwg.g(id=ident)
    g["data-side"] = u.side
    g["data-type"] = u.symbol
    g["data-values"] = u.values
    g.add(dwg.use("#counter", fill=fill))
    g.add(dwg.text(u.size, class_="mk", y=[_n(-0.39 * cs)]))
    g.add(dwg.use(f"#nato-{u.symbol}", y=_n(-0.2 * cs), stroke=ink))
    for text, ty, size in lines:
        g.add(dwg.text(text, class_="cv", style=f"font-size:{_n(size)}px", y=[_n(ty * cs)]))
    for el in tag_marks(cv, dwg, marks):
        g.add(el)
    dwg.defs.add(g)
    return ident


def counter(cv: Canvas, dwg: svgwrite.Drawing, u: CounterView, h: Hex, off: float,
             marks: list[tuple[str, str]], *, legible: bool = True) -> Group:
    cs = cv.cs
    x, y = cv.c(h)
    fill = cv.side_colour.get(u.side, "#888888")
    ink = "#000000" if luminance(fill) > 0.4 else "#ffffff"
    g = dwg.g(id=xml_id("unit-", u.id), transform=f"translate({_n(x + off)},{_n(y - off)})",
              class_="unit")
    g["data-unit"] = u.id
    g["data-hex"] = str(h)
    if cv.drawing < 3 or not legible:  # a face carries these (drawing 3) [28]
        g["data-side"] = u.side
        g["data-type"] = u.symbol
    if cv.drawing < 3 or not legible:
        g["data-values"] = u.values
    if cv.drawing >= 3 and legible:  # one face for all counters that look alike but for their name [28]
        g.add(dwg.use(f"#{face(cv, dwg, u, fill, ink, marks)}"))
    elif cv.drawing >= 3:  # the counter's frame defined once (``#counter``) [28]
        g.add(dwg.use("#counter", fill=fill))
    else:
        g.add(counter_rect(cv, dwg, fill=fill))
    if not legible:  # under another counter: its edge only (from drawing 2, its name on hover)
        if cv.drawing >= 2:
            g.set_desc(title=u.designation)
        return g
    # the ink of the counter's words and symbol: on each (drawings 1 and 2), or once on the
    # counter, which they inherit (drawing 3 [28]; the rect and marks carry their own fills)
    inked: dict[str, str] = {"fill": ink}
    if cv.drawing >= 3:
        if ink != "#000000":  # black is every element's own fill
            g["fill"] = ink
        inked = {}
    if cv.drawing >= 3:  # the face holds the rest
        two = len(u.value_lines) > 1
        # its size and anchor from the counter's class (``.unit``, the style sheet)
        g.add(dwg.text(u.designation, y=[_n((0.13 if two else 0.17) * cs)],
                       **({"style": f"font-size:{_n(0.17 * cs)}px"} if two else {})))
    else:
        g.add(dwg.text(u.size, insert=(0, _n(-0.39 * cs)), class_="mk", **inked))
        g.add(dwg.use(f"#nato-{u.symbol}", x=0, y=_n(-0.2 * cs), stroke=ink, **inked))
        if len(u.value_lines) > 1:
            # two lines of values (artillery: barrage-FPF-range over defense-move) [2.31]
            g.add(dwg.text(u.designation, insert=(0, _n(0.13 * cs)), class_="cd",
                           style=f"font-size:{_n(0.17 * cs)}px", **inked))
        else:
            g.add(dwg.text(u.designation, insert=(0, _n(0.17 * cs)), class_="cd", **inked))
        for text, ty, size in value_lines(cv, u):
            g.add(dwg.text(text, insert=(0, _n(ty * cs)), class_="cv", style=f"font-size:{_n(size)}px",
                           **inked))
        for el in tag_marks(cv, dwg, marks):
            g.add(el)
    return g


def tag_marks(cv: Canvas, dwg: svgwrite.Drawing, marks: list[tuple[str, str]]) -> list[Any]:
    """A counter's tags (FPF, ADV, ...) down its upper right corner, each a coloured box and its text."""
    cs = cv.cs
    out: list[Any] = []
    for i, (text, colour) in enumerate(marks):
        mw, mh = 0.42 * cs, 0.22 * cs
        mx, my = cs / 2 - mw * 0.6, -cs / 2 - mh * 0.4 + i * mh * 1.05
        out.append(dwg.rect(insert=(_n(mx), _n(my)), size=(_n(mw), _n(mh)), fill=colour,
                            stroke="#000000", stroke_width=_n(0.02 * cs)))
        out.append(dwg.text(text, insert=(_n(mx + mw / 2), _n(my + mh * 0.78)), class_="mk"))
    return out
