"""Generate ``scenarios/arnhem1944-map.json`` (Vae Victis *Arnhem 1944*) from the shared Market
Garden geography.

Run from the repository root::

    .venv/bin/python scenarios/tools/gen_arnhem1944_map.py > pbem/scenario_data/arnhem1944-map.json
    .venv/bin/python scenarios/tools/gen_arnhem1944_map.py --ascii     # a rough picture, north up

The game is played at one kilometre a hex [0.1] over the ground between Nijmegen and Arnhem [0.2].
The printed map is not in our sources; the hexes the text names are (17.1, 17.2, 10.1, 15.3), and
they fit a plain one-kilometre grid, north up, numbered ``XXYY`` with the columns ``XX`` running
west to east and the rows ``YY`` north to south, once hex 0305 (the 1st Airborne's drop zone
[17.1]) is put on the Renkum heath west of Wolfheze: 0709 (the Polish drop zone [17.2]) then falls
by Driel, 0604 (SS-Pz.Gren.Ausb.Btl. 16 [17.1]) by Wolfheze towards Oosterbeek, 0922 and 1022
(Kampfgruppe Henke [17.1]) in Nijmegen at the south end of the Waal bridges, 1020 (the 9th SS
reconnaissance battalion [17.1]) at Lent on their north end, 1405 (SS-Panzer-Regiment 9 [17.1]) in
Arnhem, 1126 and 1127 (the 82nd Airborne [17.1]) in the woods below the Groesbeek heights and 0327
(XXX Corps' way in [15.3, 17.2]) on the Grave road where it leaves the map's southern edge. No
anchor bends the ground: the choices are where 0305 lies, a turn of the grid by one degree
(``TURN_DEG``: without it the Grave road leaves by 0227) and how far the map reaches.

On top of the shared geography (``market_garden.py``, unchanged) this tool adds what a map at this
scale needs and the shared description leaves out (``EXTRA``): the Linge (a stream across the
Betuwe), marshy river foreland, more railways and the minor roads the Germans came in by. It turns
the result into this game's terrain: the Betuwe and the Ooijpolder are ``polder``, the Betuwe
orchard rectangle of the shared file is not used; roads are ``road`` routes (the Driel ferry track
is dropped: the ferry is a hexside of its own), railways are ``railway`` routes of their own
(``railways``), and the entry zones A-G of 15.1 and 17.2 are named runs of edge hexes
(``entry_zones``). The document is the WestWall map format plus those two keys; it loads with
:class:`pbem.systems.arnhem1944.model.A1944Map`. Deterministic: sorted output, no clock.
"""

from __future__ import annotations

import copy
import json
import math
import sys
from collections import deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from market_garden import (  # noqa: E402
    Projection,
    build_map,
    load_geography,
    on_map,
    route_hexes,
)

from pbem.maps.hexmap import Hex, hexside  # noqa: E402

COLS = (1, 21)  # west -> east
ROWS = (1, 27)  # north -> south

LAT0, LON0 = 52.001, 5.766
"""The centre of hex 0305: the Renkum heath between Heelsum and Wolfheze, among the 1st Airborne's
landing zones X, Z and S of 17 September."""
KM_LAT = 111.2
KM_LON = 111.2 * math.cos(math.radians(51.9))
COL_KM = math.sqrt(3.0) / 2  # flat-topped hexes 1 km apart: columns 0.866 km, rows 1 km


TURN_DEG = 1.0
"""The grid's columns are turned this many degrees clockwise from true north."""


def to_grid(lat: float, lon: float) -> tuple[float, float]:
    """(column, row) in fractional hex units: 1 km a hex, 0305 at (LAT0, LON0)."""
    east, south = (lon - LON0) * KM_LON, (LAT0 - lat) * KM_LAT
    c, s = math.cos(math.radians(TURN_DEG)), math.sin(math.radians(TURN_DEG))
    x, y = east * c + south * s, south * c - east * s
    return 3.0 + x / COL_KM, 5.0 + y


def from_grid(col: float, row: float) -> tuple[float, float]:
    x, y = (col - 3.0) * COL_KM, row - 5.0
    c, s = math.cos(math.radians(TURN_DEG)), math.sin(math.radians(TURN_DEG))
    east, south = x * c - y * s, y * c + x * s
    return LAT0 - south / KM_LAT, LON0 + east / KM_LON


PROJECTION = Projection(COLS, ROWS, to_grid, from_grid)
PROJECTION_HEXES = [Hex(c, r) for c in range(COLS[0], COLS[1] + 1)
                    for r in range(ROWS[0], ROWS[1] + 1)]

EXTRA: dict[str, list[dict[str, Any]]] = {
    "places": [
        {"name": "Heelsum", "kind": "village", "at": [51.985, 5.752]},
        {"name": "Heveadorp", "kind": "village", "at": [51.977, 5.805]},
        {"name": "Valburg", "kind": "village", "at": [51.911, 5.790]},
        {"name": "Oosterhout", "kind": "village", "at": [51.879, 5.823]},
        {"name": "Berg en Dal", "kind": "village", "at": [51.822, 5.918]},
    ],
    "water": [
        {"name": "Linge", "kind": "stream",
         "points": [[51.889, 6.045], [51.898, 5.965], [51.914, 5.900], [51.911, 5.860],
                    [51.906, 5.800], [51.905, 5.740], [51.900, 5.600]]},
    ],
    "roads": [
        {"name": "Arnhem - Schaarsbergen - Otterlo", "kind": "road",
         "points": [[51.985, 5.899], [52.010, 5.880], [52.040, 5.850], [52.080, 5.820]]},
        {"name": "Huissen - Malburgen - Arnhem road bridge", "kind": "road",
         "points": [[51.937, 5.940], [51.955, 5.920], [51.967, 5.914]]},
        {"name": "Huissen - Angeren - Doornenburg", "kind": "road",
         "points": [[51.937, 5.940], [51.920, 5.990], [51.895, 6.045]]},
        {"name": "Bemmel - Haalderen - Gendt - Pannerden", "kind": "road",
         "points": [[51.893, 5.896], [51.885, 5.960], [51.875, 6.050]]},
        {"name": "Nijmegen - Ubbergen - Beek", "kind": "road",
         "points": [[51.842, 5.853], [51.838, 5.900], [51.829, 5.932]]},
    ],
    "woods": [
        {"name": "Heumensoord and the Jonkerbos", "at": [51.803, 5.872], "radius_km": 1.6},
    ],
    "railways": [
        {"name": "Arnhem - Oosterbeek - Wolfheze - Ede (the Utrecht line)",
         "points": [[51.985, 5.899], [51.990, 5.850], [52.002, 5.791], [52.030, 5.680]]},
        {"name": "Arnhem - Velp - Dieren",
         "points": [[51.985, 5.899], [51.998, 5.975], [52.05, 6.10]]},
        {"name": "Arnhem - Westervoort - Zevenaar (over the IJssel)",
         "points": [[51.985, 5.899], [51.965, 5.965], [51.963, 6.030]]},
        {"name": "Nijmegen - Wijchen - 's-Hertogenbosch", "points": [[51.843, 5.853],
                                                                      [51.820, 5.800],
                                                                      [51.805, 5.725],
                                                                      [51.78, 5.60]]},
        {"name": "Nijmegen - Mook - Venlo", "points": [[51.843, 5.853], [51.810, 5.865],
                                                        [51.760, 5.880], [51.70, 5.96]]},
        {"name": "Nijmegen - Kranenburg - Kleve", "points": [[51.843, 5.853], [51.835, 5.900],
                                                              [51.810, 5.960], [51.79, 6.10]]},
    ],
}
"""Added to the shared geography for this map only (RECONSTRUCTED from real geography, a handful of
points each): villages the game's fighting passed through (Heveadorp by the Driel ferry, Oosterhout
and Valburg on the Guards' way to Driel, Berg en Dal on the Groesbeek heights, Heelsum by the
landing zones). The Linge rises by Doornenburg and runs west across the Betuwe south of Elst; the
roads are those the 10th SS took from the Pannerden crossing towards Elst and Nijmegen and the
northern approaches of Arnhem; the railways are the lines out of Arnhem and Nijmegen in 1944."""

MARSH: list[tuple[str, float, float, float]] = [
    ("Renkum and Heveadorp foreland", 51.972, 5.755, 0.8),
    ("Meinerswijk (the foreland opposite Arnhem)", 51.973, 5.878, 0.7),
    ("the Oude Waal and the Groenlanden (Ooijpolder)", 51.858, 5.905, 0.9),
    ("Wylermeer", 51.815, 5.955, 0.8),
]
"""(name, latitude, longitude, radius in km): low, wet river foreland and old river arms, drawn as
marsh (RECONSTRUCTED: the extent is a circle around each)."""

OOIJPOLDER = ((51.835, 5.875), (51.875, 6.05))
"""(south-west, north-east): the polder between the Waal and the Groesbeek heights east of
Nijmegen; the Betuwe (the Island between the Waal and the Neder Rijn) is found from the rivers."""

ENTRY_ZONES: dict[str, tuple[str, str, int, int]] = {
    "A": ("west", "the Utrechtseweg from Renkum and Wageningen", 5, 8),
    "B": ("west", "the Ede road and the Utrecht railway from Ede", 1, 4),
    "C": ("north", "the Otterlo road by Schaarsbergen", 6, 10),
    "D": ("north", "the Apeldoorn road and Deelen", 11, 21),
    "E": ("east", "the Velp and Zevenaar roads", 2, 8),
    "F": ("east", "the Betuwe from Angeren and Doornenburg (the Pannerden crossing)", 10, 14),
    "G": ("east", "the Betuwe from Gendt (the Pannerden crossing), along the Waal", 15, 18),
}
"""Zone letter -> (edge, what it covers, first and last row (west, east) or column (north) of its
run of edge hexes). RECONSTRUCTED: the text names the zones [15.1, 17.2] but not their hexes; each
is put where its German units came from in September 1944 (Division von Tettau from the west, A
and B; the 9th SS from the north and north-east, C and D; the 10th SS and the Kampfgruppen from
Germany by the east, E-G), and 10.1 has the SS trace supply to the north or east edge, von Tettau
to the west edge."""

NAMED_HEXES: dict[str, str] = {
    "0305": "1st Airborne drop zone [17.1, 17.2]",
    "0327": "XXX Corps' entry hex and the 82nd Airborne's supply road [10.1, 15.3, 17.2]",
    "0709": "Polish Brigade drop zone [17.2]",
    "0604": "SS-Pz.Gren.Ausb.Btl. 16 [17.1]",
    "0601": "Kampfgruppe Weber [17.1]",
    "0922": "Kampfgruppe Henke [17.1]",
    "1022": "Kampfgruppe Henke [17.1]",
    "1020": "SS-Pz.Aufkl.Abt. 9 [17.1]",
    "1405": "SS-Panzer-Regiment 9 [17.1]",
    "1126": "82nd Airborne [17.1]",
    "1127": "82nd Airborne [17.1]",
}
"""Every hex the text names, with what it puts there (the text's three-digit forms 305, 327, 709
and 922 are these hexes with the leading zero dropped)."""

RECONSTRUCTED = (
    "RECONSTRUCTED. Generated by scenarios/tools/gen_arnhem1944_map.py from "
    "scenarios/geography/market-garden.json (the shared Market Garden geography, itself a "
    "reconstruction from real geography) and the additions listed in the tool; do not edit by "
    "hand. The Vae Victis map is not in our sources. Grid: one kilometre between hex centres "
    "[0.1], north up, flat-topped hexes in columns, even columns half a hex lower; hex numbers "
    "XXYY with the column XX running west to east and the row YY north to south, the grid turned "
    "one degree clockwise from true north (so that the Grave road leaves the map by 0327 rather "
    "than 0227). The hexes the text names fix the grid without any bending: with 0305 (the 1st "
    "Airborne drop zone, 17.1) "
    "on the Renkum heath between Heelsum and Wolfheze, 0709 (the Polish drop zone, 17.2) falls "
    "by Driel, 0604 (SS-Pz.Gren.Ausb.Btl. 16) by Wolfheze towards Oosterbeek, 0601 (Kampfgruppe "
    "Weber) on the northern edge above it, 0922 and 1022 (Kampfgruppe Henke) in Nijmegen at the "
    "south end of the Waal bridges, 1020 (SS-Pz.Aufkl.Abt. 9) by Lent at their north end, 1405 "
    "(SS-Panzer-Regiment 9) in Arnhem, 1126 and 1127 (82nd Airborne) in the woods under the "
    "Groesbeek heights, and 0327 (XXX Corps, 15.3) on the Grave road where it leaves the "
    "southern edge; the map reaches from Renkum to Velp and Westervoort (columns 01-21) and from "
    "north of Wolfheze to the Grave road south of the Maas-Waal canal (rows 01-27), so Grave, "
    "Groesbeek village and the Grave and Heumen bridges lie just off the south edge. Terrain: the "
    "Betuwe (between the Waal and the Neder Rijn) and the Ooijpolder are polder; river foreland "
    "and "
    "old river arms by Renkum, Meinerswijk, the Oude Waal and the Wylermeer are marsh (circles); "
    "woods are circles; cities (Nijmegen, Arnhem) are the centre hex and its six neighbours; towns "
    "and villages one hex. Added for this map: the villages of Heelsum, Heveadorp, Valburg, "
    "Oosterhout and Berg en Dal, the Linge (a stream), the roads from Pannerden, "
    "Angeren, Schaarsbergen and Ubbergen, the railways out of Arnhem and Nijmegen. Water lies on "
    "hexsides; a road over water is a bridge (named bridges are lines of their own: bridge, "
    "rail-bridge, ferry), the Driel ferry carries no road. Entry zones A-G (15.1, 17.2) are runs "
    "of "
    "edge hexes placed where the German units came from in 1944 (the text names the zones, not "
    "their hexes)."
)


def _hexsides_of(data: dict[str, Any], name: str) -> set[tuple[Hex, Hex]]:
    return {hexside(*(Hex.parse(x) for x in s.split("/")))
            for ln in data["lines"] if ln["name"] == name for s in ln["hexsides"]}


def _island(data: dict[str, Any], start: Hex) -> set[Hex]:
    """The hexes reached from ``start`` without crossing the Waal or the Neder Rijn."""
    cut = _hexsides_of(data, "Waal") | _hexsides_of(data, "Neder Rijn")
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in h.neighbours():
            if n not in seen and on_map(PROJECTION, n) and hexside(h, n) not in cut:
                seen.add(n)
                todo.append(n)
    return seen


def _centre_latlon(h: Hex) -> tuple[float, float]:
    return from_grid(h.col, h.row + (0.5 if h.col % 2 == 0 else 0.0))


def _zone_hexes(edge: str, first: int, last: int) -> list[str]:
    if edge == "west":
        return [str(Hex(COLS[0], r)) for r in range(first, last + 1)]
    if edge == "east":
        return [str(Hex(COLS[1], r)) for r in range(first, last + 1)]
    if edge == "north":
        return [str(Hex(c, ROWS[0])) for c in range(first, last + 1)]
    return [str(Hex(c, ROWS[1])) for c in range(first, last + 1)]


def build() -> dict[str, Any]:
    geo = copy.deepcopy(load_geography())
    geo["places"] += EXTRA["places"]
    geo["water"] += EXTRA["water"]
    geo["roads"] = [r for r in geo["roads"] if r["kind"] == "road"] + EXTRA["roads"]
    geo["railways"] += EXTRA["railways"]
    geo["woods"] += EXTRA["woods"]
    geo["orchards"] = []
    data = build_map(PROJECTION, id="arnhem1944",
                     title="Arnhem 1944: Nijmegen to Arnhem, September 1944 (Vae Victis)",
                     reconstructed=RECONSTRUCTED, geo=geo)
    places = {p["name"]: Hex.parse(p["hex"]) for p in data["places"]}
    island = _island(data, places["Elst"])
    # a city is its centre hex and the neighbours on the centre's own bank (Arnhem stood north of
    # the Neder Rijn, Nijmegen south of the Waal; the far ends of their bridges were open ground)
    data["terrain"]["city"] = [h for h in data["terrain"]["city"] if not any(
        (Hex.parse(h) in island) != (places[c] in island) for c in ("Arnhem", "Nijmegen")
        if Hex.parse(h).distance(places[c]) <= 1)]
    built = {Hex.parse(h) for k in ("city", "town", "woods") for h in data["terrain"][k]}
    polder = set(island)
    (s, w), (n, e) = OOIJPOLDER
    for h in PROJECTION_HEXES:
        lat, lon = _centre_latlon(h)
        if s <= lat <= n and w <= lon <= e:
            polder.add(h)
    marsh: set[Hex] = set()
    for _name, mlat, mlon, radius in MARSH:
        for h in PROJECTION_HEXES:
            lat, lon = _centre_latlon(h)
            if math.hypot((lat - mlat) * KM_LAT, (lon - mlon) * KM_LON) <= radius:
                marsh.add(h)
    marsh -= built
    polder -= built | marsh
    terrain = {k: data["terrain"][k] for k in ("city", "town", "woods")}
    terrain["polder"] = sorted(str(h) for h in polder)
    terrain["marsh"] = sorted(str(h) for h in marsh)
    data["terrain"] = terrain
    railways = []
    keep = frozenset(places.values())
    for rail in geo["railways"]:
        hexes, off = route_hexes(PROJECTION, rail["points"], keep)
        if len(hexes) >= 2:
            railways.append({"kind": "railway", "name": rail["name"],
                             "hexes": [str(h) for h in hexes], "off_map": off})
    data["railways"] = railways
    data["entry_zones"] = {z: {"edge": edge, "name": what, "hexes": _zone_hexes(edge, a, b)}
                           for z, (edge, what, a, b) in ENTRY_ZONES.items()}
    return data


def ascii_map(data: dict[str, Any]) -> str:
    """A rough picture, north up, one character per hex: C city, T town, # woods, p polder,
    ~ marsh, = road, + railway, letters for the entry zones; the hexes the text names as *."""
    kind_of = {h: k for k, hs in data["terrain"].items() for h in hs}
    road = {h for r in data["routes"] for h in r["hexes"]}
    rail = {h for r in data["railways"] for h in r["hexes"]}
    zone = {h: z for z, v in data["entry_zones"].items() for h in v["hexes"]}
    sym = {"city": "C", "town": "T", "woods": "#", "polder": "p", "marsh": "~"}
    out = []
    for row in range(ROWS[0], ROWS[1] + 1):
        for half in (0, 1):  # odd columns on the first line of a row, even ones half a hex lower
            line = f"{row:02d} " if half == 0 else "   "
            for col in range(COLS[0], COLS[1] + 1):
                if col % 2 == (1 if half == 0 else 0):
                    h = f"{col:02d}{row:02d}"
                    c = "*" if h in NAMED_HEXES else zone.get(h) or sym.get(
                        kind_of.get(h, ""), "=" if h in road else "+" if h in rail else ".")
                    line += c
                else:
                    line += " "
            out.append(line)
    return "\n".join(out)


def main() -> None:
    data = build()
    if "--ascii" in sys.argv:
        print(ascii_map(data))
        return
    print(json.dumps(data, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
