"""The header above the map (title, subtitle, score, status lines) and the side panel beside it
(the legend of sides, terrain, hexsides, units, tags and the step's marks, then the step's lists:
entry areas, eliminated and exited units, notes)."""

from __future__ import annotations

from typing import Any

import svgwrite

from pbem.maps.view import MoveMark, TrailMark
from pbem.render.svg.board import hexside_kinds, terrain_fill, terrain_kinds
from pbem.render.svg.canvas import Canvas, Frame, _n
from pbem.render.svg.counters import nato_kinds
from pbem.render.svg.marks import arrow, hexside_mark


def legend_width(cv: Canvas) -> float:
    """Room the legend's longest line needs (legend text is 0.3 hex high; a character of the
    sans-serif face averages under 0.6 of its height), so that no line runs past the panel."""
    s = cv.s
    v = cv.v
    rows: list[tuple[str, float]] = [(f"{si.name} ({si.id})", 1.3) for si in v.sides]
    rows += [(text, 1.3) for _key, text, _dashed in v.step_legend]
    rows += [(text, 0.0) for text in v.value_legend]
    rows += [(f"{side} GT {', '.join(str(t) for t in turns)}: {'; '.join(texts)}", 0.0)
             for side, _hexes, turns, texts in cv.entry_areas()]
    rows += [(r.text, 0.0) for r in (*v.eliminated, *v.notes)] + [(t, 0.0) for t in v.exited]
    if v.shaded:
        rows.append((v.shaded_heading, 1.3))
    rows += [(meaning, 1.3) for _t, _k, meaning in v.marker_legend]
    rows += [("dashed ring: stayed in its hex (its colour says why)", 1.3)]
    if cv.drawing >= 2:
        rows += [(text, 1.3) for text in _situation_rows(cv)]
    need = max((dx * s + 0.3 * s * 0.58 * len(text) for text, dx in rows), default=0.0)
    return need + 0.9 * s


def _situation_rows(cv: Canvas) -> list[str]:
    """The legend's words for what the rules say of hexes and units now (drawing 2)."""
    v = cv.v
    rows = [ob.text for ob in _unique_objectives(cv)]
    rows += [z.text for z in _unique_zones(cv)]
    if _unsupplied_shown(cv):
        rows.append(f"{v.unsupplied_tag}: {v.unsupplied_text}")
    if _stacks_shown(cv):
        rows.append("stack: its top counter, the count of its units")
    return rows


def _unique_objectives(cv: Canvas) -> list[Any]:
    seen: set[str] = set()
    out = []
    for ob in cv.v.objectives:
        if ob.hex in cv.visible_set and ob.text not in seen:
            seen.add(ob.text)
            out.append(ob)
    return out


def _unique_zones(cv: Canvas) -> list[Any]:
    """The zones the map shows, one per legend line (drop zones share theirs)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for z in cv.v.zones:
        if any(h in cv.visible_set for h in z.hexes) and (z.kind, z.text) not in seen:
            seen.add((z.kind, z.text))
            out.append(z)
    return out


def _unsupplied_shown(cv: Canvas) -> bool:
    cut = set(cv.v.unsupplied)
    return any(c.id in cut and c.hex in cv.visible_set for c in cv.v.counters)


def _stacks_shown(cv: Canvas) -> bool:
    hexes = [c.hex for c in cv.v.counters if c.hex in cv.visible_set]
    return len(hexes) != len(set(hexes))


def draw_header(cv: Canvas, dwg: svgwrite.Drawing, fr: Frame) -> None:
    s = cv.s
    g = dwg.g(id="header")
    x = fr.view[0] + 0.5 * s
    y = fr.header_y0 + 0.8 * s
    g.add(dwg.text(cv.title, insert=(_n(x), _n(y)), class_="t1"))
    y += 0.58 * s
    sub = cv.subtitle
    if cv.v.viewer is not None:
        sub += f" · view of {cv.v.viewer}"
    g.add(dwg.text(sub, insert=(_n(x), _n(y)), class_="t2", id="subtitle"))
    if cv.score:
        y += 0.55 * s
        vp = " · ".join(f"{name} {v}" for name, v in cv.score)
        g.add(dwg.text(f"Victory points: {vp}", insert=(_n(x), _n(y)), class_="t2",
                       id="score"))
    for line in cv.header_lines:
        y += 0.55 * s
        g.add(dwg.text(line, insert=(_n(x), _n(y)), class_="t2"))
    dwg.add(g)


def draw_panel(cv: Canvas, dwg: svgwrite.Drawing, fr: Frame) -> float:
    """The legend and the step's lists, beside the map; returns the panel's bottom."""
    p = _Panel(cv, dwg, fr)
    p.sides()
    p.terrain()
    p.hexsides()
    p.units()
    p.shaded()
    p.hexside_marks()
    if cv.drawing >= 2:
        p.situation()
    p.step_legend()
    p.step_rings()
    p.counter_tags()
    p.entries()
    p.eliminated()
    p.exited()
    p.notes()
    return p.close()


class _Panel:
    """The panel being drawn, section by section, top down: its group, its box (sized once the
    last row is known), the left edge ``x``, the current row's ``y`` and a row's height."""

    def __init__(self, cv: Canvas, dwg: svgwrite.Drawing, fr: Frame) -> None:
        self.cv = cv
        self.dwg = dwg
        self.fr = fr
        s = self.s = cv.s
        self.y = fr.map_y0 + 0.2 * s
        self.g = dwg.g(id="legend")
        self.top = self.y
        self.x = fr.panel_x0 + 0.4 * s
        left = fr.panel_x0
        if cv.drawing >= 3:  # the panel placed by its group: every x in it counts from its rows' left [28]
            self.g["transform"] = f"translate({_n(self.x)})"
            left, self.x = fr.panel_x0 - self.x, 0.0
        self.box = dwg.rect(insert=(_n(left), _n(self.y)), fill=cv.col["panel"],
                            stroke=cv.col["panel-border"], stroke_width=_n(0.04 * s))
        self.g.add(self.box)
        self.row = 0.62 * s
        self.run: tuple[tuple[str, ...], Any] | None = None
        """Drawing 3: the group of the rows being drawn that share their look (:meth:`row_text`)."""

    def heading(self, text: str) -> None:
        self.y += self.row * 1.4
        self.g.add(self.dwg.text(text, insert=(_n(self.x), _n(self.y)), class_="pt"))

    def label(self, text: str, dx: float = 1.3, **extra: str) -> None:
        self.g.add(self.dwg.text(text, insert=(_n(self.x + dx * self.s), _n(self.y + 0.1 * self.s)),
                                 class_="pl", **extra))

    def list_row(self, text: str, fill: str | None = None, ident: str | None = None) -> None:
        """A row of one of the step's lists (entry areas, eliminated and exited units) at the panel's
        left. Drawing 3 draws the rows of a list that share their colour in one group that carries
        it, each row a bare ``<text>`` [28]."""
        if self.cv.drawing < 3:
            extra = {"fill": fill} if fill is not None else {}
            self.label(text, dx=0, **extra, **({"id": ident} if ident else {}))
            return
        look = (fill or "",)
        if self.run is None or self.run[0] != look:
            # the colour as a style: the class's own fill would win over a fill attribute
            group = self.dwg.g(class_="pl", **({"style": f"fill:{fill}"} if fill is not None else {}))
            self.g.add(group)
            self.run = (look, group)
        row = self.dwg.text(text, y=[_n(self.y + 0.1 * self.s)], **({"id": ident} if ident else {}))
        self.run[1].add(row)

    def end_list(self) -> None:
        self.run = None

    def close(self) -> float:
        """Size the box to the rows drawn and add the panel; its bottom."""
        bottom = max(self.y + self.row, self.fr.map_y1 - 0.2 * self.s)
        self.box["width"] = _n(self.fr.panel_w)
        self.box["height"] = _n(bottom - self.top)
        self.dwg.add(self.g)
        return bottom

    # -- the legend --------------------------------------------------------------------------------------
    def sides(self) -> None:
        cv, dwg, s, x = self.cv, self.dwg, self.s, self.x
        self.heading("Sides")
        for si in cv.v.sides:
            self.y += self.row
            self.g.add(dwg.rect(insert=(_n(x), _n(self.y - 0.22 * s)), size=(_n(0.9 * s), _n(0.44 * s)),
                                fill=cv.side_colour.get(si.id, si.colour), stroke="#000000",
                                stroke_width=_n(0.03 * s)))
            self.label(f"{si.name} ({si.id})")

    def terrain(self) -> None:
        cv, dwg, s, x = self.cv, self.dwg, self.s, self.x
        self.heading("Terrain")
        hexsc = 0.3
        for kind in terrain_kinds(cv):
            self.y += self.row
            y = self.y
            self.g.add(dwg.use("#hex", x=_n(x + 0.45 * s), y=_n(y), fill=terrain_fill(cv, kind),
                               stroke=cv.col["hex-outline"], stroke_width=_n(0.03 * s),
                               transform=f"translate({_n((x + 0.45 * s) * (1 - hexsc))},"
                                         f"{_n(y * (1 - hexsc))}) scale({hexsc})"))
            self.label(kind)

    def hexsides(self) -> None:
        hs_kinds = hexside_kinds(self.cv)
        if hs_kinds:
            self.heading("Hexsides")
        for kind in hs_kinds:
            self.y += self.row
            for el in self._hexside_sample(kind):
                self.g.add(el)
            self.label(kind)

    def _hexside_sample(self, kind: str) -> list[Any]:
        """A short stretch of a hexside feature: railway, road or trail, a bridge (crossed out
        when destroyed), a ferry, else water (a stream thinner than a river)."""
        cv, dwg, s, x, y = self.cv, self.dwg, self.s, self.x, self.y
        colour = cv.col.get(kind, cv.col["bridge"])
        if kind == "railway":
            return [dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)), stroke=colour,
                             stroke_width=_n(0.11 * s)),
                    dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)),
                             stroke=cv.col["railway-tie"], stroke_width=_n(0.05 * s),
                             stroke_dasharray=f"{_n(0.12 * s)},{_n(0.12 * s)}")]
        if kind in ("road", "trail"):
            extra = {"stroke_dasharray": f"{_n(0.18 * s)},{_n(0.1 * s)}"} if kind == "trail" \
                else {}
            return [dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)), stroke=colour,
                             stroke_width=_n((0.13 if kind == "road" else 0.08) * s), **extra)]
        if kind in ("bridge", "rail-bridge", "destroyed-bridge"):
            out = [dwg.rect(insert=(_n(x + 0.2 * s), _n(y - 0.15 * s)),
                            size=(_n(0.5 * s), _n(0.3 * s)), fill=cv.col["bridge-deck"],
                            stroke=cv.col["bridge"], stroke_width=_n(0.05 * s))]
            if kind == "destroyed-bridge":
                out.append(dwg.path(d=f"M{_n(x + 0.25 * s)},{_n(y - 0.2 * s)}l{_n(0.4 * s)},"
                                      f"{_n(0.4 * s)}m0,{_n(-0.4 * s)}l{_n(-0.4 * s)},{_n(0.4 * s)}",
                                    stroke=cv.col["destroyed"], stroke_width=_n(0.08 * s)))
            return out
        if kind == "ferry":
            return [dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)), stroke=colour,
                             stroke_width=_n(0.07 * s),
                             stroke_dasharray=f"{_n(0.12 * s)},{_n(0.08 * s)}")]
        width = 0.11 if kind == "stream" else 0.2
        return [dwg.line(start=(_n(x), _n(y)), end=(_n(x + 0.9 * s), _n(y)), stroke=colour,
                         stroke_width=_n(width * s))]

    def units(self) -> None:
        cv, dwg, s, x = self.cv, self.dwg, self.s, self.x
        self.heading("Units")
        for kind in nato_kinds(cv):
            self.y += self.row * 1.3
            self.g.add(dwg.use(f"#nato-{kind}", x=_n(x + 0.45 * s), y=_n(self.y), stroke="#000000",
                               fill="#000000"))
            self.label(kind)
        for text in cv.v.value_legend:
            self.y += self.row
            self.label(text, dx=0)

    def shaded(self) -> None:
        cv, dwg, s, x = self.cv, self.dwg, self.s, self.x
        if not cv.v.shaded:
            return
        self.heading("Shaded")
        self.y += self.row
        self.g.add(dwg.rect(insert=(_n(x), _n(self.y - 0.22 * s)), size=(_n(0.9 * s), _n(0.44 * s)),
                            fill=cv.col["reach"], fill_opacity="0.38", stroke=cv.col["hex-outline"],
                            stroke_width=_n(0.03 * s)))
        self.label(cv.v.shaded_heading or "marked hexes")

    def hexside_marks(self) -> None:
        cv = self.cv
        if not cv.v.hexside_marks:
            return
        self.heading(cv.v.hexside_heading or "Hexsides")
        for kind in sorted({k for _a, _b, k in cv.v.hexside_marks}):
            self.y += self.row
            for el in hexside_mark(cv, self.dwg, self.x + 0.45 * self.s, self.y, kind):
                self.g.add(el)
            self.label({"demolished": "bridge demolished", "safe": "bridge stands for good"}
                       .get(kind, kind))

    def situation(self) -> None:
        """Objectives, zones, units out of supply and stacks, those the map shows (drawing 2)."""
        cv, dwg, s, x = self.cv, self.dwg, self.s, self.x
        objectives = _unique_objectives(cv)
        zones = _unique_zones(cv)
        unsupplied, stacks = _unsupplied_shown(cv), _stacks_shown(cv)
        if not (objectives or zones or unsupplied or stacks):
            return
        self.heading("Now")
        for ob in objectives:
            self.y += self.row
            self.g.add(dwg.circle(center=(_n(x + 0.45 * s), _n(self.y)), r=_n(0.22 * s), fill="#ffffff",
                                  stroke=cv.col["objective"], stroke_width=_n(0.08 * s)))
            self.g.add(dwg.text(ob.tag, insert=(_n(x + 0.45 * s), _n(self.y + 0.06 * s)), class_="mk",
                                style=f"font-size:{_n(0.15 * s)}px"))
            self.label(ob.text)
        for z in zones:
            self.y += self.row
            colour = cv.col.get(z.kind, cv.col["objective-area"])
            self.g.add(dwg.rect(insert=(_n(x), _n(self.y - 0.22 * s)), size=(_n(0.9 * s), _n(0.44 * s)),
                                fill=colour, fill_opacity="0.32" if z.kind == "drop-zone" else "0.14",
                                stroke=colour, stroke_width=_n(0.04 * s)))
            self.label(z.text)
        if unsupplied:
            self.y += self.row
            self.g.add(dwg.rect(insert=(_n(x + 0.1 * s), _n(self.y - 0.15 * s)), size=(_n(0.7 * s), _n(0.3 * s)),
                                fill=cv.col["unsupplied"], stroke="#000000", stroke_width=_n(0.02 * s)))
            self.g.add(dwg.text(cv.v.unsupplied_tag, insert=(_n(x + 0.45 * s), _n(self.y + 0.08 * s)),
                                class_="mk", fill="#ffffff"))
            self.label(f"{cv.v.unsupplied_tag}: {cv.v.unsupplied_text}")
        if stacks:
            self.y += self.row
            self.g.add(dwg.rect(insert=(_n(x + 0.2 * s), _n(self.y - 0.15 * s)), size=(_n(0.5 * s), _n(0.3 * s)),
                                fill="#ffffff", stroke="#000000", stroke_width=_n(0.02 * s)))
            self.g.add(dwg.text("3", insert=(_n(x + 0.45 * s), _n(self.y + 0.08 * s)), class_="mk"))
            self.label("stack: its top counter, the count of its units")

    # -- this step ---------------------------------------------------------------------------------------
    def step_legend(self) -> None:
        cv, s, x = self.cv, self.s, self.x
        self.heading("This step")
        for key, text, dashed in cv.v.step_legend:
            self.y += self.row
            y = self.y
            for el in arrow(cv, self.dwg, [(x, y), (x + 0.95 * s, y)], cv.col[key], 0.09 * s, marker=False,
                            dashed=dashed, head=0.7):
                self.g.add(el)
            self.label(text)

    def step_rings(self) -> None:
        """The marks of this step other than arrows, those it has: placed, stayed, eliminated."""
        cv, dwg, s, x = self.cv, self.dwg, self.s, self.x
        kinds = {type(m).__name__ for m in cv.v.marks}
        if "PlacedMark" in kinds:
            self.y += self.row
            self.g.add(dwg.circle(center=(_n(x + 0.45 * s), _n(self.y)), r=_n(0.25 * s), fill="none",
                                  stroke=cv.col["placed"], stroke_width=_n(0.05 * s)))
            self.label("ring: placed this step (set-up)")
        if any(isinstance(m, MoveMark | TrailMark) and len(m.path) == 1 for m in cv.v.marks):
            self.y += self.row
            self.g.add(dwg.circle(center=(_n(x + 0.45 * s), _n(self.y)), r=_n(0.25 * s), fill="none",
                                  stroke=cv.col["text"], stroke_width=_n(0.05 * s),
                                  stroke_dasharray=f"{_n(0.1 * s)},{_n(0.06 * s)}"))
            self.label("dashed ring: stayed in its hex (its colour says why)")
        if "EliminatedMark" in kinds:
            self.y += self.row
            y = self.y
            r = 0.2 * s
            self.g.add(dwg.path(d=f"M{_n(x + 0.45 * s - r)},{_n(y - r)}l{_n(2 * r)},{_n(2 * r)}"
                                  f"m0,{_n(-2 * r)}l{_n(-2 * r)},{_n(2 * r)}",
                                stroke=cv.col["eliminated"], stroke_width=_n(0.07 * s)))
            self.label("cross: eliminated here")

    def counter_tags(self) -> None:
        cv, dwg, s, x = self.cv, self.dwg, self.s, self.x
        tags = {t for c in cv.v.counters for t, _k in c.markers}
        shown = [(t, k, meaning) for t, k, meaning in cv.v.marker_legend if t in tags]
        if not shown:
            return
        self.heading("Counter tags")
        for text, key, meaning in shown:
            self.y += self.row
            y = self.y
            mw, mh = 0.5 * s, 0.3 * s
            self.g.add(dwg.rect(insert=(_n(x + 0.2 * s), _n(y - mh / 2)), size=(_n(mw), _n(mh)),
                                fill=cv.col[key], stroke="#000000", stroke_width=_n(0.02 * s)))
            self.g.add(dwg.text(text, insert=(_n(x + 0.2 * s + mw / 2), _n(y + 0.08 * s)), class_="mk"))
            self.label(meaning)

    # -- the step's lists --------------------------------------------------------------------------------
    def entries(self) -> None:
        cv = self.cv
        entries = cv.entry_areas()
        if not entries:
            return
        own = cv.v.own_entry_heading if cv.drawing >= 3 else None
        self.heading(own or cv.v.entry_heading)
        for side, _hexes, turns, texts in entries:
            self.y += self.row
            self.list_row(f"{side} GT {', '.join(str(t) for t in turns)}: {'; '.join(texts)}",
                          fill=cv.side_colour.get(side, "#888888"))
        self.end_list()

    def eliminated(self) -> None:
        cv = self.cv
        if not cv.v.eliminated:
            return
        self.heading("Eliminated")
        for erow in cv.v.eliminated:
            self.y += self.row
            self.list_row(erow.text, fill=cv.col.get(erow.colour, cv.col["text"]),
                          ident=f"{erow.id}-text" if erow.id else None)
        self.end_list()

    def exited(self) -> None:
        if not self.cv.v.exited:
            return
        own = self.cv.v.own_exited_heading if self.cv.drawing >= 3 else None
        self.heading(own or self.cv.v.exited_heading)
        for text in self.cv.v.exited:
            self.y += self.row
            self.list_row(text)
        self.end_list()

    def notes(self) -> None:
        cv, dwg = self.cv, self.dwg
        if not cv.v.notes:
            return
        self.heading("Notes")
        for nrow in cv.v.notes:
            eid, text = nrow.id, nrow.text
            self.y += self.row
            note = dwg.g(id=eid, class_="event")
            note["data-type"] = "note"
            note.add(dwg.text(text, insert=(_n(self.x), _n(self.y + 0.1 * self.s)), class_="pl"))
            self.g.add(note)
