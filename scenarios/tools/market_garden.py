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

GEOGRAPHY = ROOT / "pbem" / "scenario_data" / "geography" / "market-garden.json"
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
    detail: bool = True
    """Draw the roads and bridges the geography marks ``"detail": true`` (too close to others for
    a map coarser than about 1 km a hex)."""


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


def route_hexes(p: Projection, points: list[list[float]], keep: frozenset[Hex] = frozenset()
                ) -> tuple[list[Hex], list[str]]:
    """The hexes a line passes through (in order, adjacent, on the map) and which of its ends
    leave the map. The line is sampled densely; a sample stays in the hex before unless another
    is clearly nearer (so a line along the border of two hexes does not saw between them; the
    waypoints' own hexes are always taken), and
    the chain is then straightened (:func:`straighten`) without dropping a hex of ``keep`` (the
    places)."""
    grid = [p.to_grid(lat, lon) for lat, lon in points]
    raw: list[Hex] = []
    for (c0, r0), (c1, r1) in zip(grid, grid[1:], strict=False):
        steps = max(2, int(math.hypot(c1 - c0, r1 - r0) * 6))
        for i in range(steps + 1):
            t = i / steps
            c, r = c0 + (c1 - c0) * t, r0 + (r1 - r0) * t
            h = nearest(c, r)
            if 0 < i < steps and raw and h != raw[-1] and raw[-1].is_adjacent(h):
                x, y = xy(c, r)
                if math.dist(centre(raw[-1]), (x, y)) < math.dist(centre(h), (x, y)) + HYSTERESIS:
                    h = raw[-1]
            if not raw or raw[-1] != h:
                raw.append(h)
    chain: list[Hex] = []
    for h in raw:
        if chain and not chain[-1].is_adjacent(h):
            chain.extend(hex_line(chain[-1], h)[1:-1])
        if not chain or chain[-1] != h:
            chain.append(h)
    chain = straighten(chain, keep)
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


HYSTERESIS = 0.5
"""How much nearer (in hex-centre spacings of sqrt 3) another hex must be before a sampled line
leaves the hex it is in."""


def straighten(chain: list[Hex], keep: frozenset[Hex]) -> list[Hex]:
    """Remove the detours nearest-hex sampling leaves in a chain of adjacent hexes: out and back
    (A B A: B dropped, or when B is a place, the way out of it moved to a hex next to both B and
    the hex after), and corners cut short (A B C with A next to C: B dropped unless a place)."""
    out = list(chain)
    changed = True
    while changed:
        changed = False
        for i in range(1, len(out) - 1):
            a, b, c = out[i - 1], out[i], out[i + 1]
            if a == c:
                if b not in keep:
                    del out[i:i + 2]
                    changed = True
                    break
                if i + 2 < len(out):
                    d = out[i + 2]
                    via = sorted(x for x in b.neighbours() if x != a and x.is_adjacent(d))
                    if via:
                        out[i + 1] = via[0]
                        changed = True
                        break
            elif b not in keep and a.is_adjacent(c):
                del out[i]
                changed = True
                break
    return out


def mid(s: tuple[Hex, Hex]) -> tuple[float, float]:
    """The middle of a hexside (grid units)."""
    (ax, ay), (bx, by) = centre(s[0]), centre(s[1])
    return (ax + bx) / 2, (ay + by) / 2


def name_bridges(p: Projection, geo: dict[str, Any], water: dict[tuple[Hex, Hex], str],
                 lines: list[dict[str, Any]], road_bridges: set[tuple[Hex, Hex]],
                 rail_bridges: set[tuple[Hex, Hex]]) -> dict[str, tuple[tuple[Hex, Hex], str]]:
    """Each bridge the geography names (on this map) -> its hexside and kind: the bridge of that
    kind over that water nearest to where the geography puts it. Fails when there is none within
    two hexes, when its kind is not the one the water and the route make (a road over a canal is a
    canal bridge, over a river or stream a highway bridge; a railway's is a rail bridge), or when
    two names fall on one hexside."""
    over = {ln["name"]: {hexside(*(Hex.parse(x) for x in hs.split("/"))) for hs in ln["hexsides"]}
            for ln in lines}
    out: dict[str, tuple[tuple[Hex, Hex], str]] = {}
    for b in geo.get("bridges", []):
        if b.get("detail") and not p.detail:
            continue
        c, r = p.to_grid(*b["at"])
        if not on_map(p, nearest(c, r)):
            continue
        pool = rail_bridges if b["kind"] == "rail" else road_bridges
        cands = [s for s in pool & over[b["over"]]
                 if (water[s] == "canal") == (b["kind"] == "canal") or b["kind"] == "rail"]
        assert cands, f"{b['name']}: no {b['kind']} bridge over the {b['over']} on this map"
        if not cands:  # (python -O: look at the rest)
            continue
        s = min(cands, key=lambda s: (math.dist(mid(s), xy(c, r)), s))
        assert math.dist(mid(s), xy(c, r)) <= 2 * SQ3, f"{b['name']}: nearest candidate {s} too far"
        taken = next((n for n, (t, _k) in out.items() if t == s), None)
        assert taken is None, f"{b['name']} and {taken} fall on one hexside {s[0]}/{s[1]}"
        out[b["name"]] = (s, b["kind"])
    return out


def build_map(p: Projection, *, id: str, title: str, reconstructed: str, north: str = "up",
              geo: dict[str, Any] | None = None, railway_routes: bool = False) -> dict[str, Any]:
    """The game's map (a WestWall-style map document) from the geography; ``railway_routes``: the
    railways too, under ``railways`` (for a game with rail movement), not only the rail bridges they
    make."""
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
        else:  # towns and villages alike
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

    places = frozenset(place_hex.values())
    lines: list[dict[str, Any]] = []
    water: dict[tuple[Hex, Hex], str] = {}
    for wline in geo["water"]:
        sides = crossed_hexsides(p, polyline(p, wline["points"], wline["name"]))
        for s in sides:
            water.setdefault(s, wline["kind"])
        if not sides:  # not on this map
            continue
        lines.append({"kind": wline["kind"], "name": wline["name"],
                      "hexsides": sorted(f"{a}/{b}" for a, b in sides)})
    routes: list[dict[str, Any]] = []
    road_sides: set[tuple[Hex, Hex]] = set()
    for r in geo["roads"]:
        if r.get("detail") and not p.detail:
            continue
        hexes, off = route_hexes(p, r["points"], places)
        if len(hexes) < 2:
            continue
        for a, b in zip(hexes, hexes[1:], strict=False):
            road_sides.add(hexside(a, b))
        routes.append({"kind": r["kind"], "name": r["name"], "hexes": [str(h) for h in hexes],
                       "off_map": off})
    rail_bridges: set[tuple[Hex, Hex]] = set()
    railways: list[dict[str, Any]] = []
    for rail in geo["railways"]:
        hexes, off = route_hexes(p, rail["points"], places)
        if railway_routes and len(hexes) > 1:
            railways.append({"kind": "railway", "name": rail["name"], "hexes": [str(h) for h in hexes],
                             "off_map": off})
        for a, b in zip(hexes, hexes[1:], strict=False):
            s = hexside(a, b)
            if s in water and s not in road_sides:
                rail_bridges.add(s)
    bridges = sorted(f"{a}/{b}" for a, b in road_sides if (a, b) in water)
    named = name_bridges(p, geo, water, lines, road_sides & set(water), rail_bridges)
    rest = rail_bridges - {s for s, kind in named.values() if kind == "rail"}
    if rest:
        lines.append({"kind": "rail-bridge", "name": "rail bridges",
                      "hexsides": sorted(f"{a}/{b}" for a, b in rest)})
    for name, (s, kind) in named.items():
        lines.append({"kind": "rail-bridge" if kind == "rail" else "bridge", "name": name,
                      "hexsides": [f"{s[0]}/{s[1]}"]})
    for f in geo["ferries"]:
        lat, lon = f["at"]
        c, rr = p.to_grid(lat, lon)
        x, y = xy(c, rr)
        if not on_map(p, nearest(c, rr)):
            continue
        best = min((s for s, k in water.items() if k == "river"),
                   key=lambda s: math.dist(mid(s), (x, y)))
        lines.append({"kind": "ferry", "name": f["name"], "hexsides": [f"{best[0]}/{best[1]}"]})

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
    if railway_routes:
        out["railways"] = railways
    return out


