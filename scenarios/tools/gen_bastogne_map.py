"""Generate ``scenarios/bastogne-map.json`` from the compact description below.

Run from the repository root::

    .venv/bin/python scenarios/tools/gen_bastogne_map.py > pbem/scenario_data/bastogne-map.json

The published WestWall Bastogne map is not in our sources, so the map is reconstructed from real
geography. Places are given as kilometres east/north of Bastogne (read off modern maps, rounded to
the nearest few hundred metres) and converted to SPI hex numbers at the game's scale of about
850 metres a hex [10.0]: hexes are flat-topped in vertical columns, so rows are 850 m apart and
columns 850 * sqrt(3)/2 ~ 736 m apart. Bastogne sits between 1317 and 1416, the two town hexes the
rules name [15.17]. Where the rules name a hex (2913, 2001, 0431, 1231, 1119, 1419), the road net is
bent to pass through it; those adjustments and every invented feature are listed in ``RECONSTRUCTED``.

Roads are drawn through waypoints and filled with the straight hex line between them; rivers and
streams are drawn as a chain of hexes on one bank plus the side the water runs on. Bridges are every
hexside shared by a road and a river/stream. The output is deterministic (sorted lists, no clock).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.maps.hexmap import Hex, hex_line, hexside  # noqa: E402

COLS = (1, 29)
ROWS = (1, 31)
COL_KM = 0.85 * 3**0.5 / 2
ROW_KM = 0.85
ORIGIN_COL = 13.5  # midway between columns 13 and 14
ORIGIN_Y = 16.75  # midway between 1317 (y 17) and 1416 (y 16.5)

# name: (km east, km north) of Bastogne.
PLACES: dict[str, tuple[float, float]] = {
    "Noville": (3.3, 6.3),
    "Foy": (1.6, 3.7),
    "Recogne": (0.2, 3.3),
    "Cobru": (3.9, 5.1),
    "Bourcy": (7.7, 7.0),
    "Bizory": (3.1, 1.8),
    "Arloncourt": (5.4, 3.3),
    "Moinet": (10.9, 4.4),
    "Allerborn": (10.5, 3.2),
    "Longvilly": (8.6, 2.0),
    "Mageret": (4.5, 0.7),
    "Neffe": (2.5, 0.3),
    "Wardin": (5.0, -1.1),
    "Marvie": (2.9, -1.7),
    "Bras": (7.7, -4.7),
    "Doncols": (10.5, -5.6),
    "Lutrebois": (5.0, -5.5),
    "Lutremange": (5.4, -7.4),
    "Villers-la-Bonne-Eau": (7.3, -7.4),
    "Harlange": (9.5, -9.0),
    "Remoifosse": (-0.2, -2.8),
    "Assenois": (-1.1, -4.4),
    "Hompré": (-1.8, -6.7),
    "Clochimont": (-3.2, -5.5),
    "Remichampagne": (-4.3, -7.2),
    "Chaumont": (-2.9, -8.3),
    "Burnon": (-3.9, -10.0),
    "Livarchamps": (-0.4, -9.4),
    "Hollange": (-0.7, -12.2),
    "Sibret": (-6.1, -3.3),
    "Villeroux": (-3.9, -1.7),
    "Senonchamps": (-3.2, -0.6),
    "Chenogne": (-7.4, -1.5),
    "Hemroulle": (-2.1, 1.4),
    "Savy": (-1.4, 2.4),
    "Champs": (-4.3, 2.8),
    "Mande-Saint-Étienne": (-6.4, 2.8),
    "Flamierge": (-7.5, 5.0),
    "Longchamps": (-2.1, 5.0),
    "Bertogne": (-3.2, 9.4),
    "Compogne": (-5.4, 7.2),
}

# Places pulled to a hex other than their true position (reason in RECONSTRUCTED).
PLACE_OVERRIDES: dict[str, str] = {
    "Tillet": "0117",  # ~12.5 km west: beyond the west edge (~9.2 km); pulled in to the edge.
    "Hollange": "1231",  # the Arlon road's exit hex named by [15.27]; true position rounds here too.
}


def to_hex(east: float, north: float) -> Hex:
    col = int(ORIGIN_COL + east / COL_KM + 0.5)
    y = ORIGIN_Y - north / ROW_KM - (0.5 if col % 2 == 0 else 0.0)
    return Hex(col, int(y + 0.5))


def place_hex(name: str) -> Hex:
    if name in PLACE_OVERRIDES:
        return Hex.parse(PLACE_OVERRIDES[name])
    return to_hex(*PLACES[name])


def resolve(point: str) -> Hex:
    """A waypoint: a four-digit hex number or a place name."""
    if point.isdigit():
        return Hex.parse(point)
    return place_hex(point)


def chain(points: list[str]) -> list[Hex]:
    hexes: list[Hex] = []
    for a, b in zip(points, points[1:], strict=False):
        seg = hex_line(resolve(a), resolve(b))
        hexes.extend(seg if not hexes else seg[1:])
    if len(points) == 1:
        hexes = [resolve(points[0])]
    for x, y in zip(hexes, hexes[1:], strict=False):
        assert x.is_adjacent(y), (x, y)
    return hexes


# kind, name, waypoints, off-map ends.
ROUTES: list[tuple[str, str, list[str], list[str]]] = [
    ("road", "N30 Bastogne - Noville - Houffalize",
     ["1416", "1415", "Foy", "Noville", "2001"], ["end"]),
    ("road", "Noville - Bourcy - Gouvy", ["Noville", "Bourcy", "2906"], ["end"]),
    ("road", "Foy - Recogne - Longchamps", ["Foy", "Recogne", "Longchamps"], []),
    ("road", "Noville - Cobru - Arloncourt", ["Noville", "Cobru", "Arloncourt"], []),
    ("road", "N874 Bastogne - Bizory - Arloncourt - Bourcy",
     ["1416", "Bizory", "Arloncourt", "Bourcy"], []),
    ("road", "N874 Bastogne - Neffe - Mageret - Longvilly - Clervaux",
     ["1416", "Neffe", "Mageret", "Longvilly", "Allerborn", "2913"], ["end"]),
    ("road", "Longvilly - Moinet", ["Longvilly", "Moinet", "2910"], ["end"]),
    ("road", "N84 Bastogne - Wardin - Bras - Wiltz",
     ["1416", "1617", "Wardin", "Bras", "Doncols", "2924"], ["end"]),
    ("road", "Bastogne - Marvie - Lutrebois - Villers-la-Bonne-Eau - Harlange",
     ["1417", "Marvie", "Lutrebois", "Villers-la-Bonne-Eau", "Harlange", "2928"], ["end"]),
    ("road", "Bras - Lutremange - Livarchamps", ["Bras", "Lutremange", "Livarchamps"], []),
    ("road", "N4 Bastogne - Remoifosse - Arlon",
     ["1416", "1417", "1418", "1419", "Remoifosse", "Livarchamps", "Hollange"], ["end"]),
    ("road", "Bastogne - Assenois - Hompré - Chaumont - Burnon",
     ["1317", "1318", "Assenois", "Hompré", "Chaumont", "Burnon", "0731"], ["end"]),
    ("road", "Assenois - Clochimont - Remichampagne",
     ["Assenois", "Clochimont", "Remichampagne", "0631"], ["end"]),
    ("road", "N85 Bastogne - Sibret - Neufchâteau",
     ["1317", "1318", "1218", "1119", "0920", "Sibret", "0431"], ["end"]),
    ("road", "Bastogne - Senonchamps - Chenogne - Tillet",
     ["1317", "1217", "Senonchamps", "Chenogne", "Tillet"], ["end"]),
    ("road", "Senonchamps - Villeroux - Sibret", ["Senonchamps", "Villeroux", "Sibret"], []),
    ("road", "N4 Bastogne - Mande-Saint-Étienne - Marche",
     ["1317", "1216", "Mande-Saint-Étienne", "0112"], ["end"]),
    ("road", "Bastogne - Hemroulle - Champs - Flamierge",
     ["1317", "Hemroulle", "Champs", "Flamierge"], []),
    ("road", "Bastogne - Savy - Longchamps - Bertogne - La Roche",
     ["1317", "1316", "Savy", "Longchamps", "Bertogne", "0801"], ["end"]),
    ("road", "Mande-Saint-Étienne - Flamierge - Compogne - Bertogne",
     ["Mande-Saint-Étienne", "Flamierge", "Compogne", "Bertogne"], []),
    ("road", "Flamierge - Marche", ["Flamierge", "0109"], ["end"]),
    ("trail", "Bois Jacques track", ["Recogne", "Bizory"], []),
    ("trail", "Champs - Longchamps track", ["Champs", "Longchamps"], []),
    ("trail", "Wardin - Lutremange track", ["Wardin", "Lutrebois"], []),
    ("trail", "Sibret - Clochimont track", ["Sibret", "Clochimont"], []),
    ("trail", "Bourcy - Moinet track", ["Bourcy", "Moinet"], []),
]

# kind, name, bank waypoints, side of the bank the water lies on.
WATER: list[tuple[str, str, list[str], str]] = [
    ("river", "Sûre (upper course)", ["0124", "0327", "0531", ], "east"),
    ("river", "Ourthe occidentale", ["0101", "0107", ], "east"),
    ("stream", "Laval brook (Ourthe tributary)", ["0707", "0510", "0311", "0212"], "south"),
    ("stream", "Ourthe orientale tributaries (Noville brook)", ["1403", "1705", "2005", "2305"], "south"),
    ("stream", "Wiltz", ["1918", "2120", "2422", "2624", "2926"], "east"),
    ("stream", "Bourcy brook", ["2109", "2411", "2612", "2914"], "south"),
    ("stream", "Villers brook (Sûre tributary)", ["2024", "2227", "2430", "2631"], "west"),
    ("stream", "Assenois brook", ["1322", "1025", "0827", "0629"], "south"),
    ("stream", "Sibret brook", ["0921", "0721", "0523", "0225"], "north"),
]


def water_hexsides(bank: list[Hex], side: str) -> set[tuple[Hex, Hex]]:
    dirs = {"north": (5, 0, 1), "south": (2, 3, 4), "east": (1, 2), "west": (4, 5)}[side]
    bank_set = set(bank)
    out: set[tuple[Hex, Hex]] = set()
    for h in bank:
        nbrs = h.neighbours()
        for d in dirs:
            n = nbrs[d]
            if n not in bank_set and on_map(n):
                out.add(hexside(h, n))
    return out


def on_map(h: Hex) -> bool:
    return COLS[0] <= h.col <= COLS[1] and ROWS[0] <= h.row <= ROWS[1]


def disk(centre: str, radius: int) -> set[Hex]:
    return {h for h in resolve(centre).within(radius) if on_map(h)}


# Woods as discs (centre, radius) and strips (waypoints, half-width 0 or 1).
WOODS_DISCS: list[tuple[str, str, int]] = [
    ("Bois Jacques", "1713", 1),
    ("Bois Jacques (east)", "1812", 1),
    ("Bois de Fazone", "2124", 1),
    ("Bois de Herbaimont (NW forest)", "0405", 2),
    ("Bois de Fragotte (NW forest)", "0208", 1),
    ("Bois de Bertogne", "1104", 1),
    ("Bois de Niblamont", "2106", 1),
    ("Bois de Wardin", "2220", 1),
    ("Bois d'Assenois", "1424", 1),
    ("Bois de Chaumont", "0929", 1),
    ("Bois de Sibret", "0324", 1),
    ("forest of the Wiltz and Sûre valleys (SE)", "2729", 2),
    ("Bois de Moinet", "2708", 1),
    ("Bois de Lutrebois", "1828", 1),
]
GROVES: list[str] = [
    "1214", "1514", "1019", "1620", "0815", "0619", "1507", "2516", "2217", "1126", "0627",
    "1623", "2610", "0903", "1909", "2319", "0412", "1830",
]
BROKEN_DISCS: list[tuple[str, str, int]] = [
    ("Wiltz valley", "2523", 1),
    ("Wiltz valley", "2825", 1),
    ("Sûre valley", "0428", 1),
    ("Ourthe valley", "0203", 1),
    ("Clerve heights", "2915", 1),
    ("Villers valley", "2328", 1),
]
ROUGH_DISCS: list[tuple[str, str, int]] = [
    ("Sûre gorge (SE corner)", "2831", 1),
    ("Ourthe gorge (NW corner)", "0101", 1),
]
MIXED: list[str] = [
    "1514", "1115", "1019", "1220", "1518", "1614", "1013", "1119",
]

RECONSTRUCTED = (
    "Generated by scenarios/tools/gen_bastogne_map.py from a compact description; do not edit by "
    "hand. The published WestWall Bastogne map is not in our sources. Villages, roads, woods and "
    "water are placed from real geography (positions in km from Bastogne read off modern maps, "
    "converted at ~850 m a hex with Bastogne between 1317 and 1416). Adjusted to fit the hex numbers "
    "the rules name: the N30 Houffalize road leaves the north edge at 2001 [15.25]; the Clervaux "
    "road through Longvilly leaves the east edge at 2913 [15.15]; the Arlon road runs 1419-"
    "Remoifosse-Hollange and leaves the south edge at 1231, and the Neufchâteau road runs 1119-"
    "Sibret and leaves at 0431 [15.27] (the real N85 leaves further west; it is bent south so the "
    "rules' LOC hex is on it). Tillet (~12.5 km west, off the map) is pulled in to the west edge. "
    "Invented or approximate: the exact shape of every wood, the terrain class of each hex (grove, "
    "mixed, broken, rough are judgement calls from relief and land use), the courses of the small "
    "brooks (named after the nearest village where no name is known), the trails, and the course "
    "of the upper Sûre and Ourthe, which are shifted to lie on the map edges. Rivers: the Sûre and "
    "the Ourthe occidentale; every other water line is a stream."
)


def build() -> dict[str, object]:
    place_hexes: dict[str, Hex] = {}
    for name in list(PLACES) + list(PLACE_OVERRIDES):
        h = place_hex(name)
        assert on_map(h), (name, h)
        other = next((n for n, x in place_hexes.items() if x == h and n != name), None)
        assert other is None, f"{name} and {other} both at {h}"
        place_hexes[name] = h
    place_hexes["Bastogne"] = Hex.parse("1317")

    routes = []
    route_sides: set[tuple[Hex, Hex]] = set()
    for kind, name, points, off in ROUTES:
        hexes = chain(points)
        assert all(on_map(h) for h in hexes), (name, [str(h) for h in hexes if not on_map(h)])
        for a, b in zip(hexes, hexes[1:], strict=False):
            route_sides.add(hexside(a, b))
        routes.append({"kind": kind, "name": name, "hexes": [str(h) for h in hexes], "off_map": off})

    lines = []
    water_sides: set[tuple[Hex, Hex]] = set()
    for kind, name, points, side in WATER:
        sides = water_hexsides(chain(points), side)
        water_sides |= sides
        lines.append({"kind": kind, "name": name,
                      "hexsides": sorted(f"{a}/{b}" for a, b in sides)})
    bridges = sorted(f"{a}/{b}" for a, b in route_sides & water_sides)

    terrain: dict[str, set[Hex]] = {k: set() for k in ("town", "woods", "broken", "rough", "grove",
                                                       "mixed")}
    terrain["town"] = set(place_hexes.values()) | {Hex.parse("1416")}
    for _name, centre, radius in WOODS_DISCS:
        terrain["woods"] |= disk(centre, radius)
    for _name, centre, radius in BROKEN_DISCS:
        terrain["broken"] |= disk(centre, radius)
    for _name, centre, radius in ROUGH_DISCS:
        terrain["rough"] |= disk(centre, radius)
    terrain["grove"] = {Hex.parse(h) for h in GROVES}
    terrain["mixed"] = {Hex.parse(h) for h in MIXED}
    # Priority: a hex keeps the first kind that claims it.
    taken: set[Hex] = set()
    final: dict[str, list[str]] = {}
    for kind in ("town", "rough", "broken", "woods", "grove", "mixed"):
        hexes = terrain[kind] - taken
        taken |= hexes
        final[kind] = sorted(str(h) for h in hexes)

    places = [{"hex": str(h), "name": n} for n, h in sorted(place_hexes.items(),
                                                           key=lambda kv: (kv[1], kv[0]))]
    places.insert(0, {"hex": "1416", "name": "Bastogne"})
    return {
        "id": "bastogne",
        "title": "Bastogne, December 1944 (WestWall)",
        "reconstructed": RECONSTRUCTED,
        "cols": list(COLS),
        "rows": list(ROWS),
        "default_terrain": "clear",
        "terrain": final,
        "routes": routes,
        "lines": lines,
        "bridges": bridges,
        "places": places,
    }


def ascii_map(data: dict[str, object]) -> str:
    """A rough text picture for checking the description by eye (``--ascii``)."""
    terrain = data["terrain"]
    assert isinstance(terrain, dict)
    sym = {"town": "T", "woods": "#", "broken": "b", "rough": "R", "grove": "g", "mixed": "m"}
    kind_of = {h: k for k, hs in terrain.items() for h in hs}
    road = {h for r in data["routes"] for h in r["hexes"] if r["kind"] == "road"}  # type: ignore[attr-defined]
    out = []
    for row in range(ROWS[0], ROWS[1] + 1):
        for half in (0, 1):
            line = f"{row:02d}{'ab'[half]} "
            for col in range(COLS[0], COLS[1] + 1):
                if (col % 2 == 0) != bool(half):
                    line += "   "
                    continue
                h = f"{col:02d}{row:02d}"
                c = sym.get(kind_of.get(h, ""), ".")
                line += f" {c}{'=' if h in road else ' '}"
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
