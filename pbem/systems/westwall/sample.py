"""A synthetic WestWall scenario and step for looking at the renderer and for ``bench/render.py``.

It is not a real map: the terrain is laid out by a fixed arithmetic rule (no randomness), with
every terrain kind, every hexside kind, named places, reinforcement entry areas, about sixty units
and one step's worth of events, so the drawing exercises everything a real game can show.
"""

from __future__ import annotations

from typing import Any

from pbem.maps.hexmap import Hex, hexside


def _chain(start: str, steps: list[int], n: int) -> list[str]:
    """Hexes of a line walked from ``start`` taking neighbour directions ``steps`` cyclically."""
    h = Hex.parse(start)
    out = [str(h)]
    for i in range(n):
        h = h.neighbours()[steps[i % len(steps)]]
        out.append(str(h))
    return out


def sample_scenario_data(cols: int = 29, rows: int = 31) -> dict[str, Any]:
    """Merged scenario JSON (map and terrain key inlined) for a ``cols`` x ``rows`` map.

    Kept whole (radon ranks it F): it draws one synthetic map for the renderer's tests and
    benchmark, a terrain kind a branch, and reads as the picture it makes; no rule lives here."""
    kinds = ["clear", "mixed", "grove", "broken", "woods", "rough"]
    terrain: dict[str, list[str]] = {}
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            v = (c * 7 + r * 3 + (c * r) % 5) % 23
            kind = "clear" if v < 9 else kinds[v % len(kinds)]
            if kind != "clear":
                terrain.setdefault(kind, []).append(f"{c:02d}{r:02d}")
    towns = {"1317": "Bastogne", "1416": "Bastogne", "0905": "Noville", "2212": "Longvilly",
             "0624": "Sibret", "1928": "Marvie", "0414": "Flamierge"}
    town_hexes = sorted(h for h in towns if Hex.parse(h).col <= cols and Hex.parse(h).row <= rows)
    for kind in list(terrain):
        terrain[kind] = [h for h in terrain[kind] if h not in town_hexes and h not in ("2003",)]
    terrain["town"] = [h for h in town_hexes if h not in ("1317", "1416")]
    terrain["city"] = [h for h in ("1317", "1416") if h in town_hexes]
    terrain["lake"] = ["2003"] if cols >= 20 else []
    road_a = _chain("0116", [2, 1], min(cols - 2, 26))
    road_b = _chain("1301", [3], min(rows - 1, 30))
    trail = _chain("0230", [1, 0, 0], min(rows - 5, 22))

    def clip(hexes: list[str]) -> list[str]:
        return [h for h in hexes if 1 <= Hex.parse(h).col <= cols and 1 <= Hex.parse(h).row <= rows]

    road_a, road_b, trail = clip(road_a), clip(road_b), clip(trail)
    # a river running down the east hexsides of column 17 (north-east then south-east sides)
    river_col = min(17, cols - 1)
    river_sides = []
    for r in range(1, rows + 1):
        h = Hex(river_col, r)
        for n in (h.neighbours()[1], h.neighbours()[2]):
            if 1 <= n.row <= rows:
                river_sides.append(f"{h}/{n}")
    stream_path = clip(_chain("0108", [2, 3], 14))
    stream_sides = [f"{a}/{b}" for a, b in
                    ((Hex.parse(x), Hex.parse(x).neighbours()[3]) for x in stream_path)
                    if 1 <= b.col <= cols and 1 <= b.row <= rows]
    # keep the two kinds of water on different hexsides
    river_set = {hexside(*(Hex.parse(p) for p in s.split("/"))) for s in river_sides}
    stream_sides = [s for s in stream_sides
                    if hexside(*(Hex.parse(p) for p in s.split("/"))) not in river_set]
    lines: list[dict[str, Any]] = [
        {"kind": "river", "name": "Ourthe (synthetic)", "hexsides": river_sides},
        {"kind": "stream", "name": "brook", "hexsides": stream_sides},
    ]
    if cols >= 29 and rows >= 31:
        lines += [
            {"kind": "canal", "hexsides": ["2520/2620", "2620/2720", "2720/2820"]},
            {"kind": "rail-bridge", "hexsides": ["2620/2720"]},
            {"kind": "ferry", "hexsides": ["2520/2620"]},
            {"kind": "destroyed-bridge", "hexsides": ["2720/2820"]},
        ]
    units: list[dict[str, Any]] = []
    types = ["armor", "mech", "recon", "infantry", "airborne", "engineer", "artillery",
             "sp-artillery"]
    for side, count in (("DE", 34), ("US", 26)):
        for i in range(count):
            t = types[(i * 3 + (1 if side == "US" else 0)) % len(types)]
            art = t in ("artillery", "sp-artillery")
            units.append({
                "id": f"{side.lower()}-{i + 1}",
                "side": side,
                "designation": f"{i % 3 + 1}/{(i * 7) % 90 + 10}",
                "type": t,
                "size": "II" if i % 4 else "III",
                "attack": 0 if art else 2 + i % 6,
                "defense": 1 + i % 5,
                "move": 8 + (i % 3) * 4,
                "barrage": 3 + i % 4 if art else 0,
                "fpf": 2 if art else 0,
                "range": 18 if art else 0,
            })
    return {
        "id": "sample-synthetic",
        "system": "westwall",
        "title": "Synthetic test map (not Bastogne)",
        "game": "bastogne",
        "rule": "15.1",
        "sides": [
            {"id": "DE", "name": "German", "adjective": "German", "colour": "#9aa5b1"},
            {"id": "US", "name": "American", "adjective": "American", "colour": "#a9c46c"},
        ],
        "first_player": "DE",
        "last_turn": 12,
        "map": {
            "id": "sample-map",
            "cols": [1, cols],
            "rows": [1, rows],
            "terrain": terrain,
            "routes": [
                {"kind": "road", "name": "N4", "hexes": road_a, "off_map": ["start", "end"]},
                {"kind": "road", "name": "N30", "hexes": road_b, "off_map": ["start"]},
                {"kind": "trail", "hexes": trail},
            ],
            "lines": lines,
            "places": [{"hex": h, "name": n} for h, n in sorted(towns.items()) if h in town_hexes],
        },
        "terrain_key": {
            "hexes": {k: {"mp_halves": 2, "crt": "clear"} for k in
                      ("clear", "mixed", "grove", "town", "broken", "woods", "rough", "city",
                       "lake")},
            "hexsides": {},
        },
        "units": units,
        "reinforcements": [
            {"side": "US", "turn": 2, "units": ["us-26"], "entry": [{"edge": "west"}],
             "rule": "15.14"},
            {"side": "DE", "turn": 1, "units": ["de-34"],
             "entry": [{"edge": "east", "from_hex": f"{cols:02d}05", "to_hex": f"{cols:02d}12"}],
             "rule": "15.15"},
        ],
    }


def sample_step(cols: int = 29, rows: int = 31) -> tuple[dict[str, Any], dict[str, Any],
                                                          list[dict[str, Any]]]:
    """(scenario data, state JSON, events JSON) with units spread over the map and one step of
    events: moves, an entry, combats with retreat, advance, displacement and elimination."""
    data = sample_scenario_data(cols, rows)
    lake = set(data["map"]["terrain"].get("lake", []))
    free = [Hex(c, r) for r in range(2, rows, 3) for c in range(2, cols, 2)
            if f"{c:02d}{r:02d}" not in lake]
    units: dict[str, Any] = {}
    placed: list[tuple[str, Hex]] = []
    k = 0
    for u in data["units"]:
        if u["id"] in ("us-26", "de-34"):
            units[u["id"]] = {"status": "waiting"}
            continue
        h = free[(k * 5) % len(free)]
        k += 1
        if any(h == p for _, p in placed):
            h = free[(k * 5 + 1) % len(free)]
        units[u["id"]] = {"hex": str(h), "status": "on-map"}
        placed.append((u["id"], h))
    events: list[dict[str, Any]] = []
    # a German attack scene around Bastogne (1317/1416) when the map is large enough
    if cols >= 16 and rows >= 20:
        scene = {"de-1": "1215", "de-2": "1115", "de-7": "1114", "us-2": "1316",
                 "us-4": "1317", "de-4": "1516", "us-6": "1419", "de-9": "1720", "us-8": "1618"}
        taken = set(scene.values()) | {"1316", "1417", "1420"}
        for uid, us in units.items():
            if us.get("hex") in taken and uid not in scene:
                us["status"] = "waiting"
                us.pop("hex")
        for uid, where in scene.items():
            units[uid] = {"hex": where, "status": "on-map"}
        units["de-7"]["fpf_turn"] = 3
        units["us-2"] = {"hex": "1417", "status": "on-map"}  # retreated 1316 -> 1417
        units["de-1"] = {"hex": "1316", "status": "on-map"}  # advanced 1215 -> 1316
        units["us-8"] = {"status": "eliminated"}
        units["us-6"] = {"hex": "1420", "status": "on-map"}  # displaced 1419 -> 1420
        events = [
            {"type": "moved", "unit": "de-1", "path": ["1011", "1112", "1113", "1214", "1215"],
             "mp_halves": 8},
            {"type": "moved", "unit": "de-2", "path": ["0812", "0913", "1014", "1115"],
             "mp_halves": 6},
            {"type": "moved", "unit": "de-4", "path": [f"{cols:02d}09", "1913", "1814", "1715",
                                                       "1615", "1516"][-4:],
             "mp_halves": 7},
            {"type": "combat", "number": 1, "attackers": ["de-1", "de-2"], "artillery": ["de-7"],
             "support": 0, "defenders": ["us-2"], "fpf": [], "fpf_support": 0,
             "attack_strength": 12, "defense_strength": 3, "differential": 9, "line": "broken",
             "column": "+9-11", "die": 5, "roll_index": 0, "result": "D1"},
            {"type": "retreat", "unit": "us-2", "path": ["1316", "1417"], "combat": 1},
            {"type": "advance", "unit": "de-1", "path": ["1215", "1316"], "combat": 1},
            {"type": "combat", "number": 2, "attackers": ["de-9"], "artillery": [],
             "support": 0, "defenders": ["us-8"], "fpf": ["us-6"], "fpf_support": 0,
             "attack_strength": 7, "defense_strength": 4, "differential": 3, "line": "clear",
             "column": "+3", "die": 2, "roll_index": 1, "result": "De"},
            {"type": "eliminated", "unit": "us-8", "hex": "1618", "rule": "7.62",
             "reason": "De", "combat": 2},
            {"type": "displaced", "unit": "us-6", "path": ["1419", "1420"], "by": "us-2",
             "combat": 1},
            {"type": "note", "rule": "9.14", "text": "Germans receive 2 Ground Support Points"},
        ]
    state = {
        "scenario": data["id"],
        "game_turn": 3,
        "phasing": "DE",
        "phase": "player-turn",
        "units": units,
    }
    return data, state, events
