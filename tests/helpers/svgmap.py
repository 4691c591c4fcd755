"""Reading a drawn map back in tests: which hexes it shows, where, and their terrain, whichever
drawing drew it. Drawings 1 and 2 draw each hex as a tile ``<use id="hex-NNNN">`` in a group that
carries its ``data-terrain``; drawing 3 (issue 28) draws the terrain as areas (the commonest kind
on ``board-area``, every other kind a path listing its hexes in ``data-hexes``), so the hexes shown
are read from the numbers printed on them: each sits in a column group that carries its x, under a
group that carries their common height above the centre (``translate(0,DY)``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
_TRANSLATE = re.compile(r"translate\(([-0-9.]+)(?:,([-0-9.]+))?\)")


def _shift(el: ET.Element) -> tuple[float, float]:
    m = _TRANSLATE.fullmatch(el.get("transform") or "translate(0)")
    assert m is not None, el.get("transform")
    return float(m.group(1)), float(m.group(2) or 0)


def drawing(root: ET.Element) -> int:
    return int(root.get("data-drawing") or 1)


def number_positions(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Hex number -> where its text is drawn (x, baseline y), the groups' shifts added."""
    [group] = [g for g in root.iter(f"{SVG}g") if g.get("id") == "hex-numbers"]
    gx, gy = _shift(group)
    out: dict[str, tuple[float, float]] = {}
    for col in [group, *group.findall(f"{SVG}g")]:
        cx, cy = _shift(col) if col is not group else (0.0, 0.0)
        for t in col.findall(f"{SVG}text"):
            out[t.text or ""] = (gx + cx + float(t.get("x") or 0), gy + cy + float(t.get("y") or 0))
    return out


def drawn_hexes(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Hex number -> the centre the drawing gives it: drawings 1 and 2, its tile's position;
    drawing 3, its number's position without the numbers' common shift above the centre."""
    if drawing(root) >= 3:
        [group] = [g for g in root.iter(f"{SVG}g") if g.get("id") == "hex-numbers"]
        dx, dy = _shift(group)
        return {h: (x - dx, y - dy) for h, (x, y) in number_positions(root).items()}
    out = {}
    for el in root.iter():
        hid = el.get("id") or ""
        if re.fullmatch(r"hex-\d{4}", hid):
            out[hid[4:]] = (float(el.get("x", "0")), float(el.get("y", "0")))
    return out


def terrain(root: ET.Element) -> dict[str, tuple[str, str]]:
    """Hex number -> (terrain kind, fill) of every hex shown."""
    out: dict[str, tuple[str, str]] = {}
    if drawing(root) < 3:
        for g in root.iter(f"{SVG}g"):
            kind = g.get("data-terrain")
            if kind is not None:
                for el in g:
                    out[(el.get("id") or "")[4:]] = (kind, g.get("fill") or "")
        return out
    base: tuple[str, str] | None = None
    for el in root.iter():
        kind = el.get("data-terrain")
        if kind is None:
            continue
        if el.get("data-hexes") is None:  # the area of every hex shown, in the commonest kind
            assert base is None and any(c.get("id") == "board-area" for c in el)
            base = (kind, el.get("fill") or "")
            continue
        for h in (el.get("data-hexes") or "").split():
            assert h not in out, h
            out[h] = (kind, el.get("fill") or "")
    assert base is not None
    for h in drawn_hexes(root):
        out.setdefault(h, base)
    return out


XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


def expanded(root: ET.Element, el: ET.Element) -> list[ET.Element]:
    """``el`` and everything in it, in document order, each ``<use>`` followed by what it places
    (drawing 3 draws the face of counters that look alike once, ``#face-N``, and a place name's
    halo as a ``<use>`` of the name)."""
    defs = {d.get("id"): d for d in root.iter() if d.get("id")}
    out: list[ET.Element] = []

    def walk(e: ET.Element) -> None:
        out.append(e)
        target = defs.get((e.get(XLINK_HREF) or "").removeprefix("#")) if e.tag == f"{SVG}use" else None
        for child in [target] if target is not None else e:
            walk(child)

    walk(el)
    return out


def unit_data(root: ET.Element, unit: ET.Element, name: str) -> str | None:
    """A counter's ``data-NAME`` (side, type, values): on the counter, or on the face it places
    (drawing 3)."""
    for el in expanded(root, unit):
        if el.get(name) is not None:
            return el.get(name)
    return None


def counters(root: ET.Element) -> list[tuple[str, float, float, float]]:
    """Every counter drawn: (its hex, the x and y of its centre, its side), the side read from its
    frame (the first rectangle it draws, through the face and ``#counter`` it places in drawing 3)."""
    out = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "unit":
            continue
        m = re.fullmatch(r"translate\(([-0-9.]+),([-0-9.]+)\)", g.get("transform") or "")
        assert m is not None, g.get("id")
        frame = next(e for e in expanded(root, g) if e.tag == f"{SVG}rect")
        out.append((g.get("data-hex") or "", float(m.group(1)), float(m.group(2)), float(frame.get("width") or 0)))
    return out


def place_names(root: ET.Element) -> list[tuple[str, float, float]]:
    """Every place name written (not its halo): (name, x, baseline y)."""
    [places] = [g for g in root.iter(f"{SVG}g") if g.get("id") == "places"]
    out = []
    for group in [places, *places.iter(f"{SVG}g")]:
        for t in group.findall(f"{SVG}text"):
            if t.get("class", group.get("class")) == "pn":
                out.append((t.text or "", float(t.get("x") or 0), float(t.get("y") or 0)))
    return out
