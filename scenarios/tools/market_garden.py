"""Shared by the map generators of the Market Garden games: project the one description of the
ground (``scenarios/geography/market-garden.json``) onto a game's hexes.

A :class:`Projection` says how latitude and longitude become fractional hex coordinates (column,
row) for that game -- piecewise through anchors for SPI Arnhem, a plain 1 km grid for others -- and
back, which rivers are pinned where a game's rules put them, and the map's extent. :func:`build_map`
does the rest the same way for every game: places and cities, woods and orchards, water on
hexsides (a hexside is crossed when the line passes between the two hex centres, so no path slips
through), roads and trails through the hexes their line passes, bridges where roads cross water,
rail bridges where railways do, ferries. Deterministic: sorted output, no clock.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pbem.maps.hexmap import Hex, hex_line, hexside  # noqa: E402

GEOGRAPHY = ROOT / "scenarios" / "geography" / "market-garden.json"
SQ3 = math.sqrt(3.0)


@dataclass
class Projection:
    cols: tuple[int, int]
    rows: tuple[int, int]
    to_grid: Callable[[float, float], tuple[float, float]]
    """(latitude, longitude) -> (column, row) in fractional hex units."""
    from_grid: Callable[[float, float], tuple[float, float]]
    """(column, row) -> (latitude, longitude)."""
    pins: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)
    """(water line name, point index) -> (column, row): where a game's rules put a river."""
    trim: dict[str, int] = field(default_factory=dict)
    """Lines cut after this many points before their end pin."""
    nudge: tuple[float, float] = (0.0137, 0.0071)
    """Added to every water line point so that no line runs exactly through hex centres."""


def load_geography() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GEOGRAPHY.read_text(encoding="utf-8"))
    return data


def centre(h: Hex) -> tuple[float, float]:
    return 1.5 * h.col, SQ3 * (h.row + (0.5 if h.col % 2 == 0 else 0.0))


def xy(col: float, row: float) -> tuple[float, float]:
    return 1.5 * col, SQ3 * row


def nearest(col: float, row: float) -> Hex:
    x, y = xy(col, row)
    best: Hex | None = None
    bd = 1e18
    for c in range(math.floor(col) - 1, math.floor(col) + 3):
        for r in range(math.floor(row) - 2, math.floor(row) + 3):
            h = Hex(c, r)
            cx, cy = centre(h)
            d = (cx - x) ** 2 + (cy - y) ** 2
            if d < bd - 1e-12 or (abs(d - bd) <= 1e-12 and best is not None and h < best):
                best, bd = h, d
    assert best is not None
    return best


def on_map(p: Projection, h: Hex) -> bool:
    return p.cols[0] <= h.col <= p.cols[1] and p.rows[0] <= h.row <= p.rows[1]


def polyline(p: Projection, points: list[list[float]], name: str = "") -> list[tuple[float, float]]:
    grid = [p.to_grid(lat, lon) for lat, lon in points]
    if name in p.trim:
        grid = grid[: p.trim[name]] + [grid[-1]]
    for (line, end), pin in p.pins.items():
        if line == name:
            grid[end] = pin
    return [xy(c + p.nudge[0], r + p.nudge[1]) for c, r in grid]


def _cross(p: tuple[float, float], q: tuple[float, float], a: tuple[float, float],
           b: tuple[float, float]) -> bool:
    def orient(u: tuple[float, float], v: tuple[float, float], w: tuple[float, float]) -> float:
        return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])

    d1, d2 = orient(a, b, p), orient(a, b, q)
    d3, d4 = orient(p, q, a), orient(p, q, b)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def crossed_hexsides(proj: Projection, line: list[tuple[float, float]]) -> set[tuple[Hex, Hex]]:
    """Every on-map hexside whose centre-to-centre segment crosses the line."""
    out: set[tuple[Hex, Hex]] = set()
    xs = [p[0] for p in line]
    ys = [p[1] for p in line]
    c0 = max(proj.cols[0], math.floor(min(xs) / 1.5) - 2)
    c1 = min(proj.cols[1], math.ceil(max(xs) / 1.5) + 2)
    r0 = max(proj.rows[0], math.floor(min(ys) / SQ3) - 2)
    r1 = min(proj.rows[1], math.ceil(max(ys) / SQ3) + 2)
    for c in range(c0, c1 + 1):
        for r in range(r0, r1 + 1):
            h = Hex(c, r)
            for n in h.neighbours():
                if not on_map(proj, n) or n < h:
                    continue
                p, q = centre(h), centre(n)
                if any(_cross(p, q, a, b) for a, b in zip(line, line[1:], strict=False)):
                    out.add(hexside(h, n))
    return out


def route_hexes(p: Projection, points: list[list[float]]) -> tuple[list[Hex], list[str]]:
    """The hexes a line passes through (in order, adjacent, on the map) and which of its ends
    leave the map."""
    grid = [p.to_grid(lat, lon) for lat, lon in points]
    raw: list[Hex] = []
    for (c0, r0), (c1, r1) in zip(grid, grid[1:], strict=False):
        steps = max(2, int(math.hypot(c1 - c0, r1 - r0) * 6))
        for i in range(steps + 1):
            t = i / steps
            h = nearest(c0 + (c1 - c0) * t, r0 + (r1 - r0) * t)
            if not raw or raw[-1] != h:
                raw.append(h)
    chain: list[Hex] = []
    for h in raw:
        if chain and not chain[-1].is_adjacent(h):
            chain.extend(hex_line(chain[-1], h)[1:-1])
        if not chain or chain[-1] != h:
            chain.append(h)
    off: list[str] = []
    if not on_map(p, chain[0]):
        off.append("start")
    if not on_map(p, chain[-1]):
        off.append("end")
    inside = [h for h in chain if on_map(p, h)]
    # keep one stretch on the map (lines here leave it at most at their ends)
    for a, b in zip(inside, inside[1:], strict=False):
        assert a.is_adjacent(b), (a, b)
    return inside, off


def build_map(p: Projection, *, id: str, title: str, reconstructed: str, north: str = "up",
              geo: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game's map (a WestWall-style map document) from the geography."""
    geo = geo if geo is not None else load_geography()
    COLS, ROWS = p.cols, p.rows
    place_hex: dict[str, Hex] = {}
    terrain: dict[str, set[Hex]] = {"city": set(), "town": set(), "woods": set(), "mixed": set()}
    for pl in geo["places"]:
        h = nearest(*p.to_grid(*pl["at"]))
        if not on_map(p, h):
            continue
        other = next((n for n, x in place_hex.items() if x == h), None)
        assert other is None, f"{pl['name']} and {other} both at {h}"
        place_hex[pl["name"]] = h
        if pl["kind"] == "city":
            terrain["city"] |= {x for x in (h, *h.neighbours()) if on_map(p, x)}
        else:
            terrain["town"].add(h)
    all_hexes = [Hex(c, r) for c in range(COLS[0], COLS[1] + 1) for r in range(ROWS[0], ROWS[1] + 1)]
    lat_km = 111.2
    lon_km = 111.2 * math.cos(math.radians(51.7))
    inverse: dict[Hex, tuple[float, float]] = {}
    for h in all_hexes:  # the latitude/longitude of each hex centre, for areas
        col = h.col
        row = h.row + (0.5 if h.col % 2 == 0 else 0.0)
        inverse[h] = p.from_grid(col, row)
    for w in geo["woods"]:
        lat, lon = w["at"]
        for h, (hl, ho) in inverse.items():
            if math.hypot((hl - lat) * lat_km, (ho - lon) * lon_km) <= w["radius_km"]:
                terrain["woods"].add(h)
    for o in geo["orchards"]:
        (s, w_), (n, e) = o["south_west"], o["north_east"]
        for h, (hl, ho) in inverse.items():
            if s <= hl <= n and w_ <= ho <= e:
                terrain["mixed"].add(h)

    lines: list[dict[str, Any]] = []
    water: dict[tuple[Hex, Hex], str] = {}
    for wline in geo["water"]:
        sides = crossed_hexsides(p, polyline(p, wline["points"], wline["name"]))
        for s in sides:
            water.setdefault(s, wline["kind"])
        lines.append({"kind": wline["kind"], "name": wline["name"],
                      "hexsides": sorted(f"{a}/{b}" for a, b in sides)})
    routes: list[dict[str, Any]] = []
    road_sides: set[tuple[Hex, Hex]] = set()
    for r in geo["roads"]:
        hexes, off = route_hexes(p, r["points"])
        if len(hexes) < 2:
            continue
        for a, b in zip(hexes, hexes[1:], strict=False):
            road_sides.add(hexside(a, b))
        routes.append({"kind": r["kind"], "name": r["name"], "hexes": [str(h) for h in hexes],
                       "off_map": off})
    rail_bridges: set[tuple[Hex, Hex]] = set()
    for rail in geo["railways"]:
        hexes, _off = route_hexes(p, rail["points"])
        for a, b in zip(hexes, hexes[1:], strict=False):
            s = hexside(a, b)
            if s in water and s not in road_sides:
                rail_bridges.add(s)
    if rail_bridges:
        lines.append({"kind": "rail-bridge", "name": "rail bridges",
                      "hexsides": sorted(f"{a}/{b}" for a, b in rail_bridges)})
    ferries: set[tuple[Hex, Hex]] = set()
    for f in geo["ferries"]:
        lat, lon = f["at"]
        c, rr = p.to_grid(lat, lon)
        x, y = xy(c, rr)
        best = min((s for s, k in water.items() if k == "river"),
                   key=lambda s: math.dist(((centre(s[0])[0] + centre(s[1])[0]) / 2,
                                            (centre(s[0])[1] + centre(s[1])[1]) / 2), (x, y)))
        ferries.add(best)
    if ferries:
        lines.append({"kind": "ferry", "name": "Driel ferry",
                      "hexsides": sorted(f"{a}/{b}" for a, b in ferries)})
    bridges = sorted(f"{a}/{b}" for a, b in road_sides if a is not None and (a, b) in water)

    taken: set[Hex] = set()
    final: dict[str, list[str]] = {}
    for kind in ("city", "town", "woods", "mixed"):
        claimed = terrain[kind] - taken
        taken |= claimed
        final[kind] = sorted(str(h) for h in claimed)
    places = [{"hex": str(h), "name": n} for n, h in sorted(place_hex.items(),
                                                           key=lambda kv: (kv[1], kv[0]))]
    out: dict[str, Any] = {
        "id": id,
        "title": title,
        "reconstructed": reconstructed,
    }
    if north != "up":
        out["north"] = north
    out.update({
        "cols": list(COLS),
        "rows": list(ROWS),
        "default_terrain": "clear",
        "terrain": final,
        "routes": routes,
        "lines": lines,
        "bridges": bridges,
        "places": places,
    })
    return out


