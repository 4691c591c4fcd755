"""Generate the whole-operation megagame scenarios (seed 004) from the orders of battle and the
Annex A unit types:

    .venv/bin/python scenarios/tools/gen_megagame_scenarios.py

writes ``scenarios/megagame-market-garden.json`` (a team per corps, as the megagame was run) and
``scenarios/megagame-market-garden-duel.json`` (one team a side, for two players and Game Control).
The number of teams decides which keys sign the genesis, so it is a scenario of its own rather than
an option given to ``pbem new``.

From ``megagame-market-garden-oob.json`` (units, set-up, arrivals by air and road, dumps, corps) and
``megagame-profiles.json`` (status profiles, sizes, troop types). RECONSTRUCTED where the ruleset
is simpler than the data: each HQ's stack starts with the HQ's own supplies, each transport unit
with its load (rules version 3 [11]; version 2 kept them as one pool a team); the divisional dumps are units that move like lorries and deliver up to their
lift a turn to the team's HQs within their reach; the Germans may put 10 unit points a turn on trains (the
text's "typically around 5-10"), the Allies none; the objectives and their points are this scenario's own (the rules leave
victory to the umpire): the north ends of the bridges the operation was mounted to take, Arnhem
worth most, so that holding everything but Arnhem is not enough -- as in September 1944.
Deterministic: no clock, no randomness.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "pbem" / "scenario_data"

TEAM_OF_CORPS = {"i-ab-corps": "IAB", "xxx-corps": "XXX", "ii-ss-pz-corps": "IISS", "wbn": "WBN",
                 "korps-feldt": "FELDT", "lxxxvi-corps": "LXXXVI", "lxxxviii-corps": "LXXXVIII"}
"""Engine side ids (capital letters and digits, at most eight) for the corps of the OOB."""

OBJECTIVES = [
    ("4409", "Arnhem road bridge, north end", 15),
    ("4023", "Nijmegen road bridge, north end (Lent)", 5),
    ("3033", "Grave bridge, north end", 3),
    ("1550", "Veghel bridges", 2),
    ("1162", "Son bridge", 2),
    ("1069", "Eindhoven", 1),
]


GLIDER_TYPES = {"gb-airlanding-bn", "gb-al-atk-bty", "gb-al-light-regt", "gb-airborne-recce-sqn", "us-glider-bn",
                "us-airborne-at-bn"}
"""Unit types that landed by glider (the airlanding and glider infantry, the airlanding artillery and
anti-tank, the recce squadron's jeeps); the US airborne artillery battalions, some of which came by
parachute and some by glider, count as parachute units (reconstructed)."""


def load(name: str) -> Any:
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def unit_types(book: dict[str, Any], used: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for t in book["types"]:
        if t["id"] not in used:
            continue
        entry: dict[str, Any] = {"profile": t["profile"], "kind": t["kind"], "troops": t["troops"],
                                 "light": t.get("light", False),
                                 "mechanised": t["troops"] in ("mechanised", "tanks", "motor-towed-artillery"),
                                 "armoured": t["kind"] == "armour", "size": t["size"]}
        if t.get("artillery"):
            entry["artillery"] = t["artillery"]
        if t.get("flak"):
            entry["flak"] = t["flak"]
        if t["id"] == "div-dump":
            entry["dump"] = True
        if t["kind"] == "hq":  # the most its stack may hold, "marked on the counter" [11] (rules version 3)
            entry["lift"] = t["lift"]
        entry["note"] = f"Annex A: {t['name']} ({t['reading']})"
        out[t["id"]] = entry
    return out


def build(mode: str) -> dict[str, Any]:
    oob = load("megagame-market-garden-oob.json")
    book = load("megagame-profiles.json")
    corps = {c["id"]: c for c in oob["corps"]}
    divisions = {d["id"]: d for d in oob["divisions"]}

    def team(side: str, corps_id: str) -> str:
        if mode == "duel":
            return "ALLIES" if side == "allied" else "GERMANS"
        return TEAM_OF_CORPS[corps_id]

    if mode == "duel":
        teams = [{"id": "ALLIES", "side": "allied", "name": "First Allied Airborne Army and XXX Corps"},
                 {"id": "GERMANS", "side": "german", "name": "Heeresgruppe B (Model)"}]
    else:
        teams = [{"id": TEAM_OF_CORPS[c["id"]], "side": c["side"], "name": c["name"]} for c in oob["corps"]]
    units = []
    ids = {u["id"] for u in oob["units"]}
    corps_of = {u["id"]: u["corps"] for u in oob["units"]}
    supply: dict[str, int] = {t["id"]: 0 for t in teams}
    kinds = {t["id"]: t["kind"] for t in book["types"]}
    arrivals: list[dict[str, Any]] = []
    for u in oob["units"]:
        where = u.get("setup") or u["arrival"]["hex"]
        arrives = 1 if u.get("setup") else u["arrival"]["turn"]
        tid = team(u["side"], u["corps"])
        entry = {"id": u["id"], "name": u["name"], "team": tid, "type": u["type"],
                 "formation": divisions[u["division"]]["name"], "division": u["division"], "hex": where,
                 "arrives": arrives, "nation": divisions[u["division"]]["nation"]}
        if not u.get("setup") and u["arrival"]["by"] == "air":
            entry["by_air"] = True
            if u["type"] in GLIDER_TYPES:
                entry["glider"] = True
        if u.get("hq") and u["hq"] in ids and team(u["side"], corps_of[u["hq"]]) == tid:
            entry["hq"] = u["hq"]
        stock = u.get("supply") or {}
        points = stock.get("ammo", 0) + stock.get("fuel", 0)
        if points and kinds[u["type"]] in ("hq", "other"):  # an HQ's stack, a transport's load [11]
            entry["stock"] = points
        elif points and arrives == 1:
            supply[tid] += points
        elif points:
            arrivals.append({"team": tid, "turn": arrives, "points": points, "what": f"{u['name']}'s own supplies"})
        units.append(entry)
    for d in oob["dumps"]:  # a dump is a unit: it moves like lorries and delivers to its HQs [11]
        tid = team(d["side"], d["corps"])
        where = d.get("setup") or d["arrival"]["hex"]
        units.append({"id": d["id"], "name": d["name"], "team": tid, "type": d["type"],
                      "formation": divisions[d["division"]]["name"], "division": d["division"], "hex": where,
                      "arrives": 1 if d.get("setup") else d["arrival"]["turn"], "nation": d["nation"],
                      "stock": d["stock"]["ammo"] + d["stock"]["fuel"], "lift": d["lift"], "reach_km": d["reach_km"]})
    arrivals.sort(key=lambda a: (a["turn"], a["team"], a["what"]))
    title = ("Operation Market Garden megagame, 17-25 September 1944: "
             + ("one team a side" if mode == "duel" else "a team per corps"))
    return {
        "id": "megagame-market-garden" + ("-duel" if mode == "duel" else ""),
        "system": "megagame",
        "title": title,
        "reconstructed": (
            "RECONSTRUCTED: generated by scenarios/tools/gen_megagame_scenarios.py from "
            "megagame-market-garden-oob.json and megagame-profiles.json (see their own notes). Supplies [11]: "
            "each HQ's stack starts with the HQ's own supplies of the order of battle (an HQ arriving later brings "
            "them), each supply transport unit loaded with its own, each unit's nation its division's (the Polish "
            "brigade's British); an HQ type's lift (what its stack may hold) is Annex A's logistics lift as read in "
            "megagame-profiles.json; no unit holds supplies outside an HQ or a transport, so the teams' own "
            "supplies start at 0 (rules version 2 kept these points as one pool a team). The divisional dumps are "
            "units that deliver up to their lift a turn to the HQs of their nation within their reach. Gliders: the airlanding and glider infantry, airlanding artillery "
            "and anti-tank and the recce squadron land by glider (the US airborne artillery as parachute units). "
            "Choke points: " + oob.get("chokes_note", "none") + " Objectives "
            "and their points are "
            "this scenario's own. Corps: " + ", ".join(f"{v} = {corps[k]['name']}" for k, v in TEAM_OF_CORPS.items())),
        "map": "market-garden-1km-map.json",
        "umpire": "GC",
        "teams": teams,
        "types": unit_types(book, {u["type"] for u in oob["units"]} | {d["type"] for d in oob["dumps"]}),
        "units": units,
        "turns": len(oob["turns"]),
        "first_day": 17,
        "first_half": "morning",
        "supply": supply,
        "supply_arrivals": arrivals,
        "objectives": [{"hex": h, "name": n, "points": p, "held_by": "german"} for h, n, p in OBJECTIVES],
        "air": [{"id": a["id"], "name": a["name"], "side": a["side"], "role": a["role"],
                 "squadrons": a["squadrons"], "region": a["region"]} for a in oob["air"]],
        "trains": {"german": 10},
        "bridges": [{"name": b["name"] or f"bridge at {b['hexside']}", "capacity": b["capacity"]}
                    for b in oob["bridges"]],
        "chokes": oob.get("chokes", []),
        "weather": [{"turn": w["turn"], "sky": w["sky"], "england": w["flying_england"],
                     "continent": w["flying_continent"]} for w in oob["weather"]],
        "victory": ("After the last turn each objective belongs to the side that last held it alone; the side "
                    "with more objective points wins (Arnhem bridge 15 of 28), equal is a draw."),
    }


def main() -> None:
    for mode, name in (("corps", "megagame-market-garden.json"), ("duel", "megagame-market-garden-duel.json")):
        text = json.dumps(build(mode), indent=1, ensure_ascii=False) + "\n"
        (SCENARIOS / name).write_text(text, encoding="utf-8")
        print(f"wrote scenarios/{name}")


if __name__ == "__main__":
    main()
