"""Generate the three Bastogne scenarios from the orders of battle in the exclusive rules.

Run from the repository root::

    .venv/bin/python scenarios/tools/gen_bastogne_scenarios.py

writes ``scenarios/bastogne-spearhead.json`` [15.1], ``bastogne-relief.json`` [15.2] and
``bastogne-campaign.json`` [15.3]. The Campaign Game's orders of battle are, as the text says, those
of the two scenarios joined (15.32-15.35) plus the US Game-Turn Eighteen group, so generating all three
from one table keeps them consistent.

Each counter is written ``(id, designation, type, values, formation, note)``; ``values`` is the text's
strength string (A-D-M, or B-F-R/D-M for artillery [3.0]). Unit types are not printed in the text's
orders of battle; they are reconstructed from the historical unit, and the note says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[2] / "pbem" / "scenario_data"  # the bundled data package
BASTOGNE = ["1317", "1416"]
R = "reconstructed from the historical unit"

Counter = tuple[str, str, str, str, str, str]

# ---------------------------------------------------------------------------------------------------
# United States
# ---------------------------------------------------------------------------------------------------

US_1512_ANY: list[Counter] = [
    ("52", "52", "mech", "4-4-12", "9th Armored Division",
     f"52nd Armored Infantry Battalion (CCR, 9th Armored Division); mech {R}"),
    ("2", "2", "armor", "4-3-12", "9th Armored Division",
     f"2nd Tank Battalion (CCR, 9th Armored Division); armor {R}"),
    ("811", "811", "armor", "5-4-12", "VIII Corps",
     f"811th Tank Destroyer Battalion; armor {R}"),
    ("73", "73", "sp-artillery", "1-2-12/2-12", "9th Armored Division",
     f"73rd Armored Field Artillery Battalion (105 mm self-propelled); sp-artillery {R}"),
    ("58", "58", "sp-artillery", "1-2-12/2-12", "VIII Corps",
     f"58th Armored Field Artillery Battalion (105 mm self-propelled); sp-artillery {R}"),
]
US_1512_NEAR: list[Counter] = [
    ("20", "20", "mech", "4-4-12", "10th Armored Division",
     f"20th Armored Infantry Battalion (CCB, 10th Armored Division); mech {R}"),
    ("3", "3", "armor", "4-3-12", "10th Armored Division",
     f"3rd Tank Battalion (CCB, 10th Armored Division); armor {R}"),
    ("90", "90", "recon", "1-3-12", "10th Armored Division",
     f"90th Cavalry Reconnaissance Squadron (mechanized); recon {R}"),
    ("420", "420", "sp-artillery", "1-2-12/2-12", "10th Armored Division",
     f"420th Armored Field Artillery Battalion (105 mm self-propelled); sp-artillery {R}"),
]
US_1514_T2: list[Counter] = [
    (f"{b}/{r}", f"{b}/{r}", "airborne", "2-4-7", "101st Airborne Division",
     f"{['1st', '2nd', '3rd'][b - 1]} Battalion, {r}th "
     f"{'Glider' if r == 327 else 'Parachute'} Infantry Regiment; airborne, treated as infantry "
     "[13.0]")
    for r in (501, 502, 506, 327) for b in (1, 2, 3)
] + [
    ("101", "101", "artillery", "1-2-12/2-7", "101st Airborne Division",
     f"101st Airborne Division Artillery (towed pack and glider howitzers); artillery {R}"),
]
US_1514_T3: list[Counter] = [
    ("705", "705", "armor", "5-4-12", "VIII Corps",
     f"705th Tank Destroyer Battalion; armor {R}"),
    ("755", "755", "artillery", "3-2-18/1-7", "VIII Corps",
     f"755th Field Artillery Battalion (155 mm, towed); artillery {R}"),
    ("969", "969", "artillery", "3-2-18/1-7", "VIII Corps",
     f"969th Field Artillery Battalion (155 mm, towed); artillery {R}"),
]
US_1524_T9: list[Counter] = [
    ("8", "8", "armor", "4-3-12", "4th Armored Division", f"8th Tank Battalion; armor {R}"),
    ("35", "35", "armor", "4-3-12", "4th Armored Division", f"35th Tank Battalion; armor {R}"),
    ("37", "37", "armor", "5-3-12", "4th Armored Division", f"37th Tank Battalion; armor {R}"),
    ("10", "10", "mech", "5-5-12", "4th Armored Division",
     f"10th Armored Infantry Battalion; mech {R}"),
    ("51", "51", "mech", "5-5-12", "4th Armored Division",
     f"51st Armored Infantry Battalion; mech {R}"),
    ("53", "53", "mech", "5-5-12", "4th Armored Division",
     f"53rd Armored Infantry Battalion; mech {R}"),
    ("25", "25", "recon", "1-3-12", "4th Armored Division",
     f"25th Cavalry Reconnaissance Squadron (mechanized); recon {R}"),
    ("704", "704", "armor", "5-4-12", "4th Armored Division",
     f"704th Tank Destroyer Battalion; armor {R}"),
    ("22", "22", "sp-artillery", "1-2-12/2-12", "4th Armored Division",
     f"22nd Armored Field Artillery Battalion (105 mm self-propelled); sp-artillery {R}"),
    ("94", "94", "sp-artillery", "1-2-12/2-12", "4th Armored Division",
     f"94th Armored Field Artillery Battalion (105 mm self-propelled); sp-artillery {R}"),
    ("253", "253", "sp-artillery", "1-2-12/2-12", "III Corps",
     f"253rd Armored Field Artillery Battalion (105 mm self-propelled); sp-artillery {R}"),
    ("177", "177", "artillery", "3-2-18/1-7", "III Corps",
     f"177th Field Artillery Battalion (155 mm, towed); artillery {R}"),
    ("776", "776", "artillery", "3-2-18/1-7", "III Corps",
     f"776th Field Artillery Battalion (155 mm, towed); artillery {R}"),
]
US_1524_T14: list[Counter] = [
    (f"{b}/318", f"{b}/318", "infantry", "2-3-7", "80th Infantry Division",
     f"{['1st', '2nd'][b - 1]} Battalion, 318th Infantry Regiment; infantry {R}")
    for b in (1, 2)
]
US_1524_T16: list[Counter] = [
    ("6", "6", "recon", "1-3-12", "III Corps",
     f"6th Cavalry Group (a mechanized cavalry squadron); recon {R}"),
]
US_1534_T18: list[Counter] = [
    (f"{b}/{r}", f"{b}/{r}", "infantry", "2-3-7", "35th Infantry Division",
     f"{['1st', '2nd', '3rd'][b - 1]} Battalion, {r}th Infantry Regiment; infantry {R}")
    for r in (134, 137, 320) for b in (1, 2, 3)
] + [
    ("19", "19", "armor", "4-3-12", "9th Armored Division",
     f"19th Tank Battalion (CCA, 9th Armored Division); armor {R}"),
    ("60", "60", "mech", "5-5-12", "9th Armored Division",
     f"60th Armored Infantry Battalion (CCA, 9th Armored Division); mech {R}"),
]

# ---------------------------------------------------------------------------------------------------
# Germany
# ---------------------------------------------------------------------------------------------------

DE_1515_T1: list[Counter] = [
    (f"{b}/3", f"{b}/3", "armor", "6-4-12", "2. Panzer-Division",
     f"{['I', 'II'][b - 1]} Abteilung, Panzer-Regiment 3 (the text's '3rd Panzer Regiment "
     "armor battalions' [15.17]); armor")
    for b in (1, 2)
] + [
    (f"{b}/304", f"{b}/304", "mech", "5-5-12", "2. Panzer-Division",
     f"{['I', 'II'][b - 1]} Bataillon, Panzergrenadier-Regiment 304; mech {R}")
    for b in (1, 2)
] + [
    (f"{b}/902", f"{b}/902", "mech", "5-5-12", "Panzer-Lehr-Division",
     f"{['I', 'II'][b - 1]} Bataillon, Panzergrenadier-Lehr-Regiment 902 (the text calls the "
     "Lehr battalions mechanized [15.17]); mech")
    for b in (1, 2)
] + [
    ("2-rcn", "2", "recon", "2-3-14", "2. Panzer-Division",
     f"Panzer-Aufklärungs-Abteilung 2; recon {R}"),
]
DE_1515_T2: list[Counter] = [
    ("1/2", "1/2", "mech", "5-5-12", "2. Panzer-Division",
     f"I Bataillon, Panzergrenadier-Regiment 2 (half-tracked); mech {R}"),
] + [
    (f"{b}/903", f"{b}/903", "mech", "4-4-12", "Panzer-Lehr-Division",
     f"{['I', 'II'][b - 1]} Bataillon '903' as the text designates it; Panzer Lehr had no 903rd "
     "regiment (probably a Kampfgruppe or the division's attached battalions), but [15.17] "
     "counts it among the Lehr mechanized battalions; mech")
    for b in (1, 2)
] + [
    ("2/2", "2/2", "infantry", "4-4-7", "2. Panzer-Division",
     f"II Bataillon, Panzergrenadier-Regiment 2; a Movement Allowance of 7 marks a "
     f"non-motorised battalion, so infantry {R}"),
    ("Lehr-rcn", "Lehr", "recon", "2-3-14", "Panzer-Lehr-Division",
     "Panzer-Aufklärungs-Lehr-Abteilung 130 (the text's Lehr reconnaissance battalion "
     "[15.17]); recon"),
] + [
    (f"{b}/{r}", f"{b}/{r}", "infantry", "3-3-7", "26. Volksgrenadier-Division",
     f"{['I', 'II', 'III'][b - 1]} Bataillon, Volksgrenadier-Regiment {r}; infantry {R}")
    for r in (77, 78) for b in (1, 2, 3)
] + [
    ("2-hvy", "2", "artillery", "3-2-18/1-12", "2. Panzer-Division",
     f"Panzer-Artillerie-Regiment 74, heavy (15 cm, motor-towed) battalion; artillery {R}"),
    ("2-art", "2", "sp-artillery", "4-2-12/2-12", "2. Panzer-Division",
     f"Panzer-Artillerie-Regiment 74, self-propelled (Wespe/Hummel) battalion; sp-artillery "
     f"{R}: its Defense 2 and Movement 12 match the Lehr self-propelled battalions"),
]
DE_1515_T4: list[Counter] = [
    (f"{b}/901", f"{b}/901", "mech", "5-5-12", "Panzer-Lehr-Division",
     f"{['I', 'II'][b - 1]} Bataillon, Panzergrenadier-Lehr-Regiment 901 (mechanized per "
     "[15.17]); mech")
    for b in (1, 2)
] + [
    (f"{b}/39", f"{b}/39", "infantry", "3-3-7", "26. Volksgrenadier-Division",
     f"{['I', 'II', 'III'][b - 1]} Bataillon, Füsilier-Regiment 39; infantry {R}")
    for b in (1, 2, 3)
] + [
    ("26-rcn", "26", "recon", "1-3-12", "26. Volksgrenadier-Division",
     f"Divisional reconnaissance (Füsilier/Panzerjäger-Abteilung 26); recon {R}: same values "
     "as the US cavalry squadrons"),
    ("26-hvy", "26", "artillery", "3-2-18/1-7", "26. Volksgrenadier-Division",
     f"Artillerie-Regiment 26, heavy (15 cm) battalion, horse-drawn; artillery {R}"),
    ("26-art", "26", "artillery", "4-2-12/1-7", "26. Volksgrenadier-Division",
     f"Artillerie-Regiment 26, light (10.5 cm) battalions, horse-drawn; artillery {R}"),
    ("Lehr-hvy", "Lehr", "sp-artillery", "3-2-18/2-12", "Panzer-Lehr-Division",
     "Panzer-Artillerie-Regiment 130, heavy battalion; self-propelled per [15.17]"),
    ("Lehr-art", "Lehr", "sp-artillery", "4-2-12/2-12", "Panzer-Lehr-Division",
     "Panzer-Artillerie-Regiment 130, light battalion; self-propelled per [15.17]"),
]
DE_1515_T7: list[Counter] = [
    (f"{b}/{r}", f"{b}/{r}", "airborne", "3-3-7", "5. Fallschirmjäger-Division",
     f"{['I', 'II'][b - 1]} Bataillon, Fallschirmjäger-Regiment {r}; airborne, treated as "
     "infantry [13.0]")
    for r in (13, 14) for b in (1, 2)
] + [
    (f"{b}/15", f"{b}/15", "airborne", "3-3-12", "5. Fallschirmjäger-Division",
     f"{['I', 'II'][b - 1]} Bataillon, Fallschirmjäger-Regiment 15 (motorised, hence "
     "Movement 12); airborne, treated as infantry [13.0]")
    for b in (1, 2)
] + [
    ("5-hvy", "5", "artillery", "3-2-18/1-7", "5. Fallschirmjäger-Division",
     f"Fallschirm-Artillerie-Regiment 5, heavy battalion (towed); artillery {R}"),
    ("5-art", "5", "artillery", "4-2-12/1-7", "5. Fallschirmjäger-Division",
     f"Fallschirm-Artillerie-Regiment 5, light battalions (towed); artillery {R}"),
]
DE_1525_T10: list[Counter] = [
    ("11", "11", "armor", "3-2-12", "Fifth Panzer Army",
     f"Sturmgeschütz-Brigade 11 (assault guns); armor {R}"),
]
DE_1525_T12: list[Counter] = [
    (f"{b}/115", f"{b}/115", "mech", "4-4-12", "15. Panzergrenadier-Division",
     f"{['I', 'II', 'III'][b - 1]} Bataillon, Panzergrenadier-Regiment 115; mech {R}")
    for b in (1, 2, 3)
]
DE_1525_T16: list[Counter] = [
    (f"{b}/104", f"{b}/104", "mech", "4-4-12", "15. Panzergrenadier-Division",
     f"{['I', 'II', 'III'][b - 1]} Bataillon, Panzergrenadier-Regiment 104; mech {R}")
    for b in (1, 2, 3)
] + [
    ("15-art", "15", "artillery", "4-2-12/1-7", "15. Panzergrenadier-Division",
     f"Artillerie-Regiment 15, light battalions (towed); artillery {R}"),
    ("15-hvy", "15", "artillery", "3-2-18/1-7", "15. Panzergrenadier-Division",
     f"Artillerie-Regiment 15, heavy battalion (towed); artillery {R}"),
]

EXIT_UNITS = ["1/3", "2/3", "1/901", "2/901", "1/902", "2/902", "1/903", "2/903", "Lehr-rcn",
              "Lehr-hvy", "Lehr-art"]
"""The units [15.17] counts: 3rd Panzer Regiment, Lehr mechanized, reconnaissance and SP artillery."""

SIDES = [
    {"id": "DE", "name": "German", "adjective": "German", "colour": "#6e7f80"},
    {"id": "US", "name": "United States", "adjective": "U.S.", "colour": "#7a8b3a"},
]


def unit(side: str, c: Counter) -> dict[str, Any]:
    uid, designation, utype, values, formation, note = c
    out: dict[str, Any] = {"id": uid, "side": side, "designation": designation,
                           "formation": formation, "type": utype}
    if "/" in values and values.count("-") == 3:
        bfr, dm = values.split("/")
        b, f, r = (int(x) for x in bfr.split("-"))
        d, m = (int(x) for x in dm.split("-"))
        out.update(barrage=b, fpf=f, range=r, defense=d, move=m)
    else:
        a, d, m = (int(x) for x in values.split("-"))
        out.update(attack=a, defense=d, move=m)
    if uid == "101":
        out["size"] = "III"
    out["note"] = note
    return out


def ids(group: list[Counter]) -> list[str]:
    return [c[0] for c in group]


def edge(name: str, text: str, frm: str | None = None, to: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"edge": name}
    if frm:
        out["from_hex"] = frm
    if to:
        out["to_hex"] = to
    out["text"] = text
    return out


US_1512_DEPLOY = [
    {"side": "US", "units": ids(US_1512_ANY), "rule": "15.12",
     "area": [{"exclude_cols": [28, 29], "text": "any hex except hexrows 2800 and 2900 [15.12]"}]},
    {"side": "US", "units": ids(US_1512_NEAR), "rule": "15.12",
     "area": [{"within": 2, "of": BASTOGNE,
               "text": "within two hexes of a Bastogne hex, inclusive [15.12]"}]},
]
US_1514 = [
    {"side": "US", "turn": 2, "units": ids(US_1514_T2), "rule": "15.14",
     "entry": [edge("west", "any hex of the western map edge [15.14]")]},
    {"side": "US", "turn": 3, "units": ids(US_1514_T3), "rule": "15.14",
     "entry": [edge("west", "any hex of the western map edge [15.14]"),
               edge("south", "any hex of the southern map edge [15.14]")]},
]
US_1524 = [
    {"side": "US", "turn": 9, "units": ids(US_1524_T9), "rule": "15.24",
     "entry": [edge("south", "any hex of the southern map edge [15.24]")]},
    {"side": "US", "turn": 14, "units": ids(US_1524_T14), "rule": "15.24",
     "entry": [edge("south", "any hex of the southern map edge [15.24]")]},
    {"side": "US", "turn": 16, "units": ids(US_1524_T16), "rule": "15.24",
     "entry": [edge("south", "any hex of the southern map edge [15.24]")]},
]
US_1534_T18_REINF = [
    {"side": "US", "turn": 18, "units": ids(US_1534_T18), "rule": "15.34",
     "entry": [edge("south", "any hex of the southern map edge [15.34]")]},
]
DE_1515 = [
    {"side": "DE", "turn": 1, "units": ids(DE_1515_T1), "rule": "15.15",
     "entry": [{"hexes": ["2913"], "text": "hex 2913 [15.15]"}]},
    {"side": "DE", "turn": 2, "units": ids(DE_1515_T2), "rule": "15.15",
     "entry": [edge("east", "eastern map edge, 2908 to 2915 inclusive [15.15]", "2908", "2915")]},
    {"side": "DE", "turn": 4, "units": ids(DE_1515_T4), "rule": "15.15",
     "entry": [edge("east", "map edge hexes 2908 to 2921 inclusive [15.15]", "2908", "2921")]},
    {"side": "DE", "turn": 7, "units": ids(DE_1515_T7), "rule": "15.15",
     "entry": [edge("east", "eastern map edge south of 2918, inclusive [15.15]", "2918", "2931")]},
]
DE_1525 = [
    {"side": "DE", "turn": 10, "units": ids(DE_1525_T10), "rule": "15.25",
     "entry": [edge("east", "any hex of the eastern map edge [15.25]")]},
    {"side": "DE", "turn": 12, "units": ids(DE_1525_T12), "rule": "15.25",
     "entry": [edge("east", "eastern map edge north of 2918, inclusive [15.25]", "2901", "2918")]},
    {"side": "DE", "turn": 16, "units": ids(DE_1525_T16), "rule": "15.25",
     "entry": [edge("east", "eastern map edge north of 2915, inclusive [15.25]", "2901", "2915"),
               edge("north", "northern map edge east of 2001, inclusive [15.25]", "2001", "2901")]},
]
DE_1523_DEPLOY = [
    {"side": "DE", "units": ids(DE_1515_T7), "rule": "15.23",
     "area": [{"beyond": 4, "of": BASTOGNE, "min_from_edge": {"south": 2},
               "text": "more than two hexes from the southern map edge and more than four hexes "
                       "from both Bastogne hexes [15.23]"}]},
]

SPEARHEAD_SPECIAL: dict[str, Any] = {
    "control_hexes": BASTOGNE,
    "initial_control": {"1317": "US", "1416": "US"},
    "victory": {
        "kind": "exit-and-bastogne",
        "rule": "15.17",
        "exit_side": "DE",
        "exit_units": EXIT_UNITS,
        "exit_edge": "west",
        "exit_vp": 1,
        "fail_vp": 3,
        "exit_by_turn": None,
        "control_vp": {"DE": 10, "US": 12},
        "neither_vp": {"US": 6},
    },
}
RELIEF_SPECIAL: dict[str, Any] = {
    "victory": {
        "kind": "line-of-communication",
        "rule": "15.27",
        "side": "US",
        "from_hexes": ["0431", "1231"],
        "to_hexes": ["1119", "1419"],
        "otherwise": "DE",
    },
    "exclusion": {"side": "DE", "of": BASTOGNE, "within": 4, "rule": "15.26.3"},
    # [15.26.4] the five points may be used in either combat phase of a game-turn, not both.
    "ground_support_one_phase": True,
}
CAMPAIGN_SPECIAL: dict[str, Any] = json.loads(json.dumps(SPEARHEAD_SPECIAL))
CAMPAIGN_SPECIAL["victory"]["rule"] = "15.37"
CAMPAIGN_SPECIAL["victory"]["exit_by_turn"] = 8
CAMPAIGN_SPECIAL["ground_support_one_phase"] = True  # [15.36.3] refers to 15.26 nr. 4

NOTE_CONTROL = (
    "Bastogne starts under U.S. control (special.initial_control): the text gives the town to no "
    "one at the start, but the Americans hold it [15.11] and 15.17 pays the U.S. for being 'the last "
    "to occupy' it, so an untouched Bastogne counts as American."
)


def scenario(sid: str, title: str, rule: str, note: str, first: str, first_turn: int, last: int,
             groups: list[tuple[str, list[Counter]]], deployments: list[dict[str, Any]],
             reinforcements: list[dict[str, Any]], support: list[dict[str, Any]],
             exits: list[dict[str, Any]], special: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": sid,
        "system": "westwall",
        "title": title,
        "game": "bastogne",
        "rule": rule,
        "note": note,
        "sides": SIDES,
        "first_player": first,
        "first_turn": first_turn,
        "last_turn": last,
        "map": "bastogne-map.json",
        "terrain_key": "terrain-key.json",
        "units": [unit(side, c) for side, group in groups for c in group],
        "deployments": deployments,
        "reinforcements": reinforcements,
        "ground_support": support,
        "exits": exits,
        "artillery_limit": True,
        "special": special,
    }


GENERATED = "Generated by scenarios/tools/gen_bastogne_scenarios.py from the orders of battle in the " \
    "Bastogne exclusive rules; do not edit by hand. "
EXITS = [{"side": "DE", "edges": ["west"], "rule": "15.17"}]

SPEARHEAD = scenario(
    "bastogne-spearhead", "Bastogne: Spearhead (18-21 December 1944)", "15.1",
    GENERATED + "Seven Game-Turns, German first [15.16]. The German player scores for exiting the "
    "3rd Panzer Regiment and the Panzer Lehr units off the western edge and for holding Bastogne "
    "[15.17]; exits by any other edge are not allowed (they would score nothing). " + NOTE_CONTROL,
    "DE", 1, 7,
    [("US", US_1512_ANY + US_1512_NEAR + US_1514_T2 + US_1514_T3),
     ("DE", DE_1515_T1 + DE_1515_T2 + DE_1515_T4 + DE_1515_T7)],
    US_1512_DEPLOY, US_1514 + DE_1515, [], EXITS, SPEARHEAD_SPECIAL)

RELIEF = scenario(
    "bastogne-relief", "Bastogne: The Relief of Bastogne (21-26 December 1944)", "15.2",
    GENERATED + "Game-Turns Nine to Seventeen, U.S. first [15.26]. The Germans may not come within "
    "four hexes of Bastogne [15.26.3]; the U.S. wins at the end of any Game-Turn with a road Line of "
    "Communication from 0431 or 1231 to 1119 or 1419 free of German units and zones of control, "
    "else the German wins [15.27].",
    "US", 9, 17,
    [("US", US_1524_T9 + US_1524_T14 + US_1524_T16),
     ("DE", DE_1515_T7 + DE_1525_T10 + DE_1525_T12 + DE_1525_T16)],
    DE_1523_DEPLOY, US_1524 + DE_1525,
    [{"side": "US", "from_turn": 10, "points": 5, "rule": "15.26.4"}], [], RELIEF_SPECIAL)

CAMPAIGN = scenario(
    "bastogne-campaign", "Bastogne: Campaign Game (18-26 December 1944)", "15.3",
    GENERATED + "Eighteen Game-Turns, German first [15.36]. Victory as in Spearhead, but only units "
    "exited by the end of Game-Turn Eight score for the German player, and the U.S. player scores "
    "for every specified unit not exited by then [15.37]. " + NOTE_CONTROL,
    "DE", 1, 18,
    [("US", US_1512_ANY + US_1512_NEAR + US_1514_T2 + US_1514_T3 + US_1524_T9 + US_1524_T14
      + US_1524_T16 + US_1534_T18),
     ("DE", DE_1515_T1 + DE_1515_T2 + DE_1515_T4 + DE_1515_T7 + DE_1525_T10 + DE_1525_T12
      + DE_1525_T16)],
    [{**d, "rule": "15.32"} for d in US_1512_DEPLOY],
    [{**r, "rule": "15.34"} for r in US_1514 + US_1524] + US_1534_T18_REINF
    + [{**r, "rule": "15.35"} for r in DE_1515 + DE_1525],
    [{"side": "US", "from_turn": 10, "points": 5, "rule": "15.36.3"}],
    [{"side": "DE", "edges": ["west"], "rule": "15.37"}], CAMPAIGN_SPECIAL)


def main() -> None:
    for data in (SPEARHEAD, RELIEF, CAMPAIGN):
        path = OUT / f"{data['id']}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path} ({len(data['units'])} units)")


if __name__ == "__main__":
    main()
