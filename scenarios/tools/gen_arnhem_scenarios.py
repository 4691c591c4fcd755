"""Generate the three Arnhem scenarios from the orders of battle in the exclusive rules.

Run from the repository root::

    .venv/bin/python scenarios/tools/gen_arnhem_scenarios.py

writes ``scenarios/arnhem-historical.json`` [18.1] (weather rules off), ``arnhem-historical-weather.json``
[18.1 with the optional 16.0] and ``arnhem-alternate.json`` [18.2]. All three are built from one table
of counters, so they cannot drift apart.

What the text gives (18.11-18.13): the three drop-zone hexes, the seven German units set up on the
map and the Allied airborne reinforcement schedule. Everything after that is lost in our copy (the
scan stops in the middle of 18.13, and 18.14 onwards -- XXX Corps, the German reinforcements, the
scenario length, 18.2 -- is missing). Those parts are **reconstructed** from the history of
Operation Market-Garden at the scale of the printed counters (battalions of 2-4 strength points,
brigades of 5), and every such counter says so in its ``note``; every reading of a garbled line
and every reconstruction is also listed, one sentence each, in ``special.notes``.

Each counter is written ``(id, designation, type, values, formation, note)``; ``values`` is the text's
strength string (A-D-M, or B-F-R/D-M for artillery [3.0]). The text prints no unit types: they are
inferred from the values and the historical unit, and the note says so.

Hex numbers follow the Arnhem map: the first two digits run south to north (01 is the southern
edge), the last two west to east (01 is the western edge, 26 the eastern). The generator uses no
map data beyond the hexes the text names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[2] / "pbem" / "scenario_data"  # the bundled data package
R = "reconstructed"
"""Marks every counter, entry and schedule that is not in our copy of the text."""
TXT = "as printed"
"""Marks the designation and values of a counter the text gives."""

Counter = tuple[str, str, str, str, str, str]

AL = "AL"
DE = "DE"
SIDES = [
    {"id": AL, "name": "Allied", "adjective": "Allied", "colour": "#7a8b3a"},
    {"id": DE, "name": "German", "adjective": "German", "colour": "#6e7f80"},
]

HELLS_HIGHWAY = ["0105", "0106"]
"""Where the road from the Neerpelt bridgehead enters the southern edge [13.3, 17.31]."""
FIRST_TURN, LAST_TURN = 1, 9
"""One Game-Turn a day, 17 to 25 September 1944 (reconstructed; see NOTES)."""

# ---------------------------------------------------------------------------------------------------
# Allied airborne reinforcements [18.13]: as printed, except the 508th and 1/505 (see NOTES)
# ---------------------------------------------------------------------------------------------------

ORD = {1: "1st", 2: "2nd", 3: "3rd"}


def _us_para(regiment: int, battalions: tuple[int, ...], division: str, extra: str = "") -> list[Counter]:
    kind = "Glider" if regiment in (325, 327) else "Parachute"
    utype = "glider" if kind == "Glider" else "airborne"
    values = "2-3-7" if utype == "glider" else "2-2-7"
    return [(f"{b}/{regiment}", f"{b}/{regiment}", utype, values, division,
             f"{ORD[b]} Battalion, {regiment}th {kind} Infantry Regiment; {values} {TXT} [18.13]; "
             f"type {utype} from the text's grouping{extra}")
            for b in battalions]


AB_101_T1 = _us_para(502, (1, 2, 3), "101") + _us_para(506, (1, 2, 3), "101") + _us_para(
    501, (1, 2, 3), "101")
AB_82_T1_505 = _us_para(505, (2, 3), "82")
AB_82_T1_505_1 = [(
    "1/505", "1/505", "airborne", "2-2-7", "82",
    "1st Battalion, 505th Parachute Infantry Regiment; designation from the cut-off tail of 18.13, "
    f"values, Game-Turn One and the group of 2/505 and 3/505 (2023) {R} from the 505th's drop on "
    "17 September")]
AB_82_T1_504 = _us_para(504, (1, 2, 3), "82")
AB_82_T1_508 = [(
    f"{b}/508", f"{b}/508", "airborne", "2-2-7", "82",
    f"{ORD[b]} Battalion, 508th Parachute Infantry Regiment; designation and hex 2223 from the cut-off "
    f"tail of 18.13, values and Game-Turn One {R} (the 508th dropped near Groesbeek on 17 September)")
    for b in (1, 2, 3)]
AB_1_T1_PARA: list[Counter] = [
    (f"{b}/1", f"{b}/1", "airborne", "2-2-7", "1",
     f"{ORD[b]} Parachute Battalion, 1st Parachute Brigade (1st Airborne Division); 2-2-7 {TXT} "
     "[18.13]; airborne")
    for b in (1, 2, 3)
]
AB_1_T1_AIRLANDING: list[Counter] = [
    ("2S/1", "2S/1", "glider", "2-2-7", "1",
     "2nd Battalion, South Staffordshire Regiment, 1st Airlanding Brigade; 2-2-7 as printed among "
     "the parachute battalions [18.13]; type glider: the brigade came by glider"),
    ("7K/1", "7K/1", "glider", "2-2-7", "1",
     "7th Battalion, King's Own Scottish Borderers, 1st Airlanding Brigade; 2-2-7 as printed "
     "[18.13]; type glider: the brigade came by glider"),
    ("1B/1", "1B/1", "glider", "2-2-7", "1",
     "1st Battalion, Border Regiment, 1st Airlanding Brigade; 2-2-7 as printed [18.13]; type "
     "glider: the brigade came by glider"),
]


def _ab_art(uid: str, division: str, what: str) -> Counter:
    return (uid, uid, "airborne-artillery", "2-1-4/1-7", division,
            f"{what}; 2-1-4/1-7 {TXT} [18.13]; airborne-artillery")


AB_ART_T1 = [
    _ab_art("1/82", "82", "82nd Airborne Division Artillery, first parachute field artillery "
            "battalion (75 mm pack howitzers; the 376th dropped on 17 September)"),
    _ab_art("1/1Lt", "1", "1st Airlanding Light Regiment, Royal Artillery, first half (75 mm pack "
            "howitzers, by glider)"),
]
AB_1_T2_PARA: list[Counter] = [
    (f"{b}/4", f"{b}/4", "airborne", "2-2-7", "1",
     f"{n} Parachute Battalion, 4th Parachute Brigade (1st Airborne Division); 2-2-7 {TXT} [18.13]; "
     "airborne")
    for b, n in ((10, "10th"), (11, "11th"), (156, "156th"))
]
AB_ART_T2 = [_ab_art("2/1Lt", "1", "1st Airlanding Light Regiment, Royal Artillery, second half")]
AB_101_T3_GLIDER = _us_para(327, (1, 2), "101")
AB_ART_T3_101 = [
    _ab_art("1/101", "101", "101st Airborne Division Artillery, first glider field artillery "
            "battalion"),
    _ab_art("2/101", "101", "101st Airborne Division Artillery, second glider field artillery "
            "battalion"),
]
AB_ART_T3_82 = [_ab_art("2/82", "82", "82nd Airborne Division Artillery, second field artillery "
                        "battalion (by glider)")]
POL_T5: list[Counter] = [
    (f"{b}/Pol", f"{b}/Pol", "airborne", "2-2-7", "Pol",
     f"{ORD[b]} Battalion, 1st Independent Polish Parachute Brigade; 2-2-7 {TXT} [18.13]; airborne; "
     "Polish units trace no Line of Communication [17.36]")
    for b in (1, 2)
]
AB_82_T7_GLIDER = _us_para(325, (1,), "82") + _us_para(
    325, (2,), "82", "; printed '2/235', read as 2/325 (the division had no 235th regiment)")
POL_T7: list[Counter] = [(
    "3/Pol", "3/Pol", "airborne", "2-2-7", "Pol",
    f"3rd Battalion, 1st Independent Polish Parachute Brigade (the rest of the brigade, dropped near "
    f"Grave on 23 September); 2-2-7 {TXT} [18.13]; airborne; no Line of Communication [17.36]")]


def _drop(turn: int, units: list[Counter], hex_: str) -> dict[str, Any]:
    return {"side": AL, "turn": turn, "units": ids(units), "rule": "18.13",
            "entry": [{"within": 1, "of": [hex_], "text": f"within one hex of {hex_} [18.13]"}],
            "airborne": True}


def ids(group: list[Counter]) -> list[str]:
    return [c[0] for c in group]


AIRBORNE_SCHEDULE = [
    _drop(1, AB_101_T1[0:3], "1004"),
    _drop(1, AB_101_T1[3:6], "0804"),
    _drop(1, AB_101_T1[6:9], "1308"),
    _drop(1, AB_82_T1_505_1 + AB_82_T1_505, "2023"),
    _drop(1, AB_82_T1_504, "2117"),
    _drop(1, AB_82_T1_508, "2223"),
    _drop(1, AB_1_T1_PARA, "3719"),
    _drop(1, AB_1_T1_AIRLANDING, "3718"),
    _drop(1, AB_ART_T1[0:1], "2223"),
    _drop(1, AB_ART_T1[1:2], "3718"),
    _drop(2, AB_1_T2_PARA + AB_ART_T2, "3817"),
    _drop(3, AB_101_T3_GLIDER + AB_ART_T3_101, "1007"),
    _drop(3, AB_ART_T3_82, "2223"),
    _drop(5, POL_T5, "3220"),
    _drop(7, AB_82_T7_GLIDER, "2223"),
    _drop(7, POL_T7, "2118"),
]
AIRBORNE: list[Counter] = (
    AB_101_T1 + AB_82_T1_505_1 + AB_82_T1_505 + AB_82_T1_504 + AB_82_T1_508 + AB_1_T1_PARA
    + AB_1_T1_AIRLANDING + AB_ART_T1 + AB_1_T2_PARA + AB_ART_T2 + AB_101_T3_GLIDER + AB_ART_T3_101
    + AB_ART_T3_82 + POL_T5 + AB_82_T7_GLIDER + POL_T7
)

# ---------------------------------------------------------------------------------------------------
# XXX Corps [reconstructed]: enters at 0105/0106, where the road from the Neerpelt bridgehead
# ('Joe's bridge', just south of the map) comes in
# ---------------------------------------------------------------------------------------------------

GDS = "Guards Armoured Division"
W43 = "43rd (Wessex) Infantry Division"
N50 = "50th (Northumbrian) Infantry Division"
XXX = "XXX Corps"
AB8 = "8th Armoured Brigade"


def _x(uid: str, utype: str, values: str, formation: str, what: str, why: str) -> Counter:
    return (uid, uid, utype, values, formation, f"{what}; {R}: {why}")


GUARDS_T1: list[Counter] = [
    _x("HCR", "recon", "1-2-14", XXX, "Household Cavalry Regiment (armoured cars), XXX Corps' "
       "reconnaissance regiment, ahead of the Guards", "recon, values of the Bastogne reconnaissance "
       "units"),
    _x("2IG", "armor", "4-3-12", GDS, "2nd (Armoured) Battalion Irish Guards, which led the break-out "
       "on 17 September", "armor, a tank battalion's values as in Bastogne"),
    _x("3IG", "mech", "3-3-12", GDS, "3rd Battalion Irish Guards (lorried infantry, riding with the "
       "Irish Guards' tanks)", "mech, as a lorried battalion moving with its armour"),
    _x("2GG", "armor", "4-3-12", GDS, "2nd (Armoured) Battalion Grenadier Guards",
       "armor, a tank battalion's values"),
    _x("1GG", "mech", "3-3-12", GDS, "1st (Motor) Battalion Grenadier Guards", "mech"),
    _x("153", "sp-artillery", "3-2-12/2-12", GDS, "153rd (Leicestershire Yeomanry) Field Regiment "
       "RA, self-propelled 25-pounders (Sexton)", "sp-artillery, values between the Bastogne "
       "self-propelled battalions"),
    _x("Eng", "engineer", "1-1-12", XXX, "the Allied Engineer unit of [13.0], standing for the Royal "
       "Engineers of XXX Corps and the Guards (the Son and Grave bridging)", "type engineer from "
       "[13.0]; the text gives no values, so 1-1-12: it moves with the motorised columns and should "
       "not fight"),
]
GUARDS_T2: list[Counter] = [
    _x("1CG", "armor", "4-3-12", GDS, "1st (Armoured) Battalion Coldstream Guards",
       "armor, a tank battalion's values"),
    _x("5CG", "mech", "3-3-12", GDS, "5th Battalion Coldstream Guards (lorried)", "mech"),
    _x("2WG", "armor", "4-3-12", GDS, "2nd (Armoured Reconnaissance) Battalion Welsh Guards "
       "(Cromwells)", "armor: it fought as the division's fourth tank battalion"),
    _x("1WG", "mech", "3-3-12", GDS, "1st Battalion Welsh Guards (lorried)", "mech"),
    _x("55", "artillery", "3-2-12/1-7", GDS, "55th (Wessex) Field Regiment RA, towed 25-pounders",
       "artillery, towed like the Bastogne battalions (Movement 7)"),
    _x("64", "artillery", "3-2-18/1-7", XXX, "64th Medium Regiment RA (5.5-inch), whose guns later "
       "fired for the Oosterbeek perimeter", "artillery, the Bastogne medium/heavy values"),
]
XXX_T3: list[Counter] = [
    _x("AGRA", "artillery", "3-2-18/1-7", XXX, "the rest of XXX Corps' medium artillery (its Army "
       "Group Royal Artillery) as one counter", "artillery, the Bastogne medium/heavy values"),
]
W43_T4: list[Counter] = [
    _x("214", "infantry", "5-5-7", W43, "214th Infantry Brigade (7th Somerset LI, 1st Worcestershire, "
       "5th DCLI), the first of the 43rd to reach Nijmegen", "infantry brigade, about three "
       "battalions' worth of the text's 2-2-7 battalions"),
    _x("130", "infantry", "5-5-7", W43, "130th Infantry Brigade (7th Hampshire, 4th and 5th Dorset), "
       "which reached the Neder Rijn at Driel", "infantry brigade"),
    _x("43-art", "artillery", "4-2-12/1-7", W43, "43rd Division's field artillery (94th, 112th and "
       "179th Field Regiments RA, 25-pounders)", "artillery, the Bastogne light-battalion values"),
    _x("4/7DG", "armor", "4-3-12", AB8, "4th/7th Royal Dragoon Guards (Shermans)", "armor"),
    _x("13/18H", "armor", "4-3-12", AB8, "13th/18th Royal Hussars (Shermans)", "armor"),
]
W43_T5: list[Counter] = [
    _x("129", "infantry", "5-5-7", W43, "129th Infantry Brigade (4th Somerset LI, 4th and 5th "
       "Wiltshire)", "infantry brigade"),
    _x("SRY", "armor", "4-3-12", AB8, "Sherwood Rangers Yeomanry (Shermans)", "armor"),
]
N50_T6: list[Counter] = [
    _x("69", "infantry", "5-5-7", N50, "69th Infantry Brigade, sent on to the Island", "infantry "
       "brigade"),
    _x("231", "infantry", "5-5-7", N50, "231st Infantry Brigade, guarding the corridor",
       "infantry brigade"),
]
N50_T7: list[Counter] = [
    _x("151", "infantry", "5-5-7", N50, "151st Infantry Brigade", "infantry brigade"),
    _x("50-art", "artillery", "4-2-12/1-7", N50, "50th Division's field artillery (25-pounders)",
       "artillery, the Bastogne light-battalion values"),
]
XXX_SCHEDULE = [
    (1, GUARDS_T1), (2, GUARDS_T2), (3, XXX_T3), (4, W43_T4), (5, W43_T5), (6, N50_T6), (7, N50_T7)
]
"""Game-Turn of entry: the Guards on the first two days (17-18 September), the corps artillery
behind them, the 43rd from 20 September (it reached Nijmegen on the 21st-22nd), the 50th last."""
XXX_CORPS: list[Counter] = [c for _, group in XXX_SCHEDULE for c in group]

# ---------------------------------------------------------------------------------------------------
# Germany
# ---------------------------------------------------------------------------------------------------

SS9 = "9. SS-Panzer-Division 'Hohenstaufen'"
SS10 = "10. SS-Panzer-Division 'Frundsberg'"
TETTAU = "Division von Tettau"
ID59 = "59. Infanterie-Division"
ID245 = "245. Infanterie-Division"
FELDT = "Korps Feldt"
PB107 = "Panzer-Brigade 107"
WALTHER = "Kampfgruppe Walther"
CHILL = "Kampfgruppe Chill"
ID406 = "Division z.b.V. 406"

DE_INITIAL: list[tuple[Counter, str]] = [
    (("Krft", "Krft", "infantry", "3-3-7", SS9,
      "Kampfgruppe Krafft (SS-Panzergrenadier-Ausbildungs- und Ersatz-Bataillon 16), the training "
      "battalion that blocked the road from the landing zones to Arnhem on 17 September; 3-3-7 "
      f"{TXT} [18.12]; type infantry inferred from Movement 7"), "3722"),
    (("2/9S", "2/9S", "infantry", "4-4-7", SS9,
      "read as a battalion of the 9th SS Panzer Division ('9S'), part of Kampfgruppe Harzer in "
      f"Arnhem; 4-4-7 {TXT} [18.12]; type infantry inferred from Movement 7 (the division's "
      "vehicles were gone after Normandy)"), "3724"),
    (("9S", "9S", "recon", "2-2-12", SS9,
      "printed '95', read as '9S': SS-Panzer-Aufklärungs-Abteilung 9 (Gräbner), the 9th SS's "
      f"reconnaissance battalion, which drove south over the Arnhem bridge; 2-2-12 {TXT} [18.12] "
      "(the same values as Grsn); type recon inferred from Movement 12 and the unit"), "3322"),
    (("Grsn", "Grsn", "mech", "2-2-12", "Wehrmacht",
      f"designation {TXT} [18.12] and not identified; read as an abbreviation of 'garrison', the "
      "motorised rear-area troops around Eindhoven; 2-2-12 as printed; type mech inferred from "
      "Movement 12"), "0702"),
    (("1/406", "1/406", "infantry", "2-2-7", ID406,
      "a battalion of Division z.b.V. 406 (Landesschützen and replacement troops) on the "
      f"Reichswald side of Groesbeek; 2-2-7 {TXT} [18.12]; type infantry inferred from Movement 7"),
     "2325"),
    (("2/406", "2/406", "infantry", "2-2-7", ID406,
      f"a second battalion of Division z.b.V. 406; 2-2-7 {TXT} [18.12]; type infantry inferred from "
      "Movement 7"), "2025"),
    (("BrDf", "BrDf", "infantry", "2-2-7", "Wehrkreis VI",
      f"designation {TXT} [18.12], read as 'Bridge Defence': the Nijmegen bridge garrison "
      "(Kampfgruppe Henke and the Flak crews); 2-2-7 as printed; type infantry inferred from "
      "Movement 7"), "2621"),
]
DE_INITIAL_UNITS = [c for c, _ in DE_INITIAL]


def _g(uid: str, utype: str, values: str, formation: str, what: str, why: str,
       designation: str | None = None) -> Counter:
    return (uid, designation or uid, utype, values, formation, f"{what}; {R}: {why}")


FJ = "a Fallschirmjäger unit, treated as infantry [15.3]"

# Where the German groups come in (entry areas). The text gives the two stretches of 15.41/15.42
# for exits; the reinforcement edges are reconstructed on the same stretches where they fit.
WEST_1541 = {"edge": "west", "from_hex": "0601", "to_hex": "2301",
             "text": "western map edge 0601 to 2301 inclusive, the exit stretch of [15.41] "
                     "(reconstructed entry)"}
EAST_1541 = {"edge": "east", "from_hex": "0126", "to_hex": "2726",
             "text": "eastern map edge 0126 to 2726 inclusive, the exit stretch of [15.41] "
                     "(reconstructed entry)"}
EAST_ISLAND = {"edge": "east", "from_hex": "2826",
               "text": "eastern map edge north of the Waal, from 2826 (the Pannerden crossing; "
                       "reconstructed entry)"}
NORTH = {"edge": "north", "text": "any hex of the northern map edge, above Arnhem (reconstructed "
                                  "entry)"}
WEST_RHINE = {"edge": "west", "from_hex": "3801",
              "text": "western map edge north of the Neder Rijn, from 3801 (Renkum and "
                      "Wageningen; reconstructed entry)"}

DE_T1_NORTH: list[Counter] = [
    _g("Spdl", "infantry", "3-3-7", SS9, "Kampfgruppe Spindler: the 9th SS's artillery regiment "
       "fighting as infantry, the blocking line west of Arnhem", "infantry, Movement 7"),
    _g("Mllr", "infantry", "2-2-7", SS9, "Kampfgruppe Möller: SS-Panzer-Pionier-Bataillon 9",
       "infantry"),
]
DE_T1_WEST_RHINE: list[Counter] = [
    _g("Lppt", "infantry", "3-3-7", TETTAU, "Kampfgruppe Lippert (SS-Unterführerschule 'Arnheim'), "
       "attacking the landing zones from the west", "infantry"),
    _g("Hlle", "infantry", "2-2-7", TETTAU, "SS-Wach-Bataillon 3 (Helle), on Ginkel Heath on 18 "
       "September", "infantry"),
]
DE_T2_NORTH: list[Counter] = [
    _g("Brkm", "recon", "2-2-12", SS10, "Kampfgruppe Brinkmann (SS-Panzer-Aufklärungs-Abteilung 10), "
       "sent against the north end of the Arnhem bridge", "recon, the values of 9S"),
    _g("Alwd", "armor", "2-2-12", SS9, "Kampfgruppe von Allworden (SS-Panzerjäger-Abteilung 9, "
       "assault guns and anti-tank guns)", "armor, a weak self-propelled gun battalion"),
]
DE_T2_ISLAND: list[Counter] = [
    _g("Eulg", "infantry", "3-3-7", SS10, "Kampfgruppe Euling (II./SS-Panzergrenadier-Regiment 22), "
       "ferried over at Pannerden to hold Nijmegen", "infantry"),
    _g("Rnhd", "mech", "3-3-12", SS10, "Kampfgruppe Reinhold (II./SS-Panzer-Regiment 10, a few "
       "Panzer IVs and dismounted crews)", "mech, Movement 12"),
]
DE_T2_WEST: list[Counter] = [
    _g("1034", "infantry", "3-3-7", ID59, "Grenadier-Regiment 1034, attacking the 101st at Best",
       "infantry regiment, weak after the Scheldt crossing", ),
    _g("1035", "infantry", "3-3-7", ID59, "Grenadier-Regiment 1035", "infantry regiment"),
]
DE_T2_WEST_RHINE: list[Counter] = [
    _g("Sch10", "infantry", "1-2-7", TETTAU, "Schiffsstammabteilung 10 (naval recruits used as "
       "infantry)", "infantry, the weakest values in the game"),
]
DE_T3_NORTH: list[Counter] = [
    _g("Knst", "infantry", "3-3-7", SS9, "Kampfgruppe Knaust (Panzergrenadier-Ausbildungs- und "
       "Ersatz-Bataillon 'Bocholt', with a few old tanks), at the Arnhem bridge from 19 September",
       "infantry"),
    _g("191-art", "artillery", "3-2-12/1-7", "Wehrkreis VI", "Artillerie-Regiment 191 and the guns "
       "gathered under it against Oosterbeek", "artillery, the Bastogne light-battalion values",
       "191"),
]
DE_T3_EAST: list[Counter] = [
    _g("2107-pz", "armor", "5-3-12", PB107, "Panzer-Abteilung 2107 (Panthers) of Panzer-Brigade 107, "
       "which struck at the Son bridge from the east on 19 September", "armor", "2107"),
    _g("2107-pg", "mech", "4-4-12", PB107, "Panzergrenadier-Bataillon 2107 (half-tracks)", "mech",
       "2107"),
]
DE_T3_ISLAND: list[Counter] = [
    _g("10S-art", "artillery", "3-2-12/1-7", SS10, "SS-Panzer-Artillerie-Regiment 10, firing on "
       "Nijmegen and the Island", "artillery, the Bastogne light-battalion values", "10S"),
]
DE_T3_WEST: list[Counter] = [
    _g("1036", "infantry", "3-3-7", ID59, "Grenadier-Regiment 1036", "infantry regiment"),
    _g("59-art", "artillery", "3-2-12/1-7", ID59, "Artillerie-Regiment 159 of the 59th Division",
       "artillery", "59"),
]
DE_T3_WEST_RHINE: list[Counter] = [
    _g("Wrrw", "infantry", "2-2-7", TETTAU, "Bataillon Worrowski (Hermann Göring training troops)",
       "infantry"),
]
DE_T4_EAST: list[Counter] = [
    _g("Bckr", "infantry", "3-3-7", FELDT, "Kampfgruppe Becker (3rd Fallschirmjäger Division), in the "
       "attack on Mook and Groesbeek from the Reichswald on 20 September", f"{FJ}"),
    _g("Hrmn", "infantry", "3-3-7", FELDT, "Kampfgruppe Hermann (Fallschirmjäger), in the same "
       "attack", f"{FJ}"),
    _g("HG", "infantry", "2-2-7", FELDT, "Hermann Göring replacement battalions under Korps Feldt",
       "infantry"),
]
DE_T4_NORTH: list[Counter] = [
    _g("Hmml", "armor", "4-2-12", SS9, "schwere Panzer-Kompanie Hummel (Tigers), at Arnhem from "
       "20 September", "armor: few tanks, strong ones"),
    _g("Hrdr", "infantry", "2-2-7", SS9, "Kampfgruppe Harder (the 9th SS's remaining "
       "panzergrenadiers, tank crews and sailors) against Oosterbeek", "infantry"),
]
DE_T5_WEST: list[Counter] = [
    _g("935", "infantry", "3-3-7", ID245, "Grenadier-Regiment 935 of the 245th Division, arriving "
       "west of the corridor", "infantry regiment"),
    _g("936", "infantry", "3-3-7", ID245, "Grenadier-Regiment 936", "infantry regiment"),
]
DE_T6_EAST: list[Counter] = [
    _g("Hnke", "infantry", "3-3-7", WALTHER, "SS-Kampfgruppe Heinke of Kampfgruppe Walther, in the "
       "attack on Veghel from the east on 22 September", "infantry"),
    _g("559", "armor", "4-2-12", WALTHER, "schwere Panzerjäger-Abteilung 559 (Kampfgruppe Roestel; "
       "Jagdpanthers and assault guns)", "armor"),
]
DE_T6_WEST: list[Counter] = [
    _g("Hubr", "infantry", "3-3-7", ID59, "Kampfgruppe Huber (what was left of the 59th Division), "
       "attacking Veghel from the west on 22 September", "infantry"),
    _g("6FJ", "infantry", "3-3-7", CHILL, "Fallschirmjäger-Regiment 6 (von der Heydte), from "
       "Schijndel against Eerde", f"{FJ}"),
]
DE_T8_NORTH: list[Counter] = [
    _g("506", "armor", "6-3-12", "Heeresgruppe B", "schwere Panzer-Abteilung 506 (Tiger IIs), at "
       "Arnhem on 24 September and sent on to the Island", "armor, the strongest German counter"),
]
DE_T8_WEST: list[Counter] = [
    _g("Jngw", "infantry", "3-3-7", CHILL, "Kampfgruppe Jungwirth (Fallschirmjäger), which cut the "
       "road at Koevering on 24 September", f"{FJ}"),
]
DE_SCHEDULE: list[tuple[int, list[Counter], list[dict[str, Any]]]] = [
    (1, DE_T1_NORTH, [NORTH]),
    (1, DE_T1_WEST_RHINE, [WEST_RHINE]),
    (2, DE_T2_NORTH, [NORTH]),
    (2, DE_T2_ISLAND, [EAST_ISLAND]),
    (2, DE_T2_WEST, [WEST_1541]),
    (2, DE_T2_WEST_RHINE, [WEST_RHINE]),
    (3, DE_T3_NORTH, [NORTH]),
    (3, DE_T3_EAST, [EAST_1541]),
    (3, DE_T3_ISLAND, [EAST_ISLAND]),
    (3, DE_T3_WEST, [WEST_1541]),
    (3, DE_T3_WEST_RHINE, [WEST_RHINE]),
    (4, DE_T4_EAST, [EAST_1541]),
    (4, DE_T4_NORTH, [NORTH]),
    (5, DE_T5_WEST, [WEST_1541]),
    (6, DE_T6_EAST, [EAST_1541]),
    (6, DE_T6_WEST, [WEST_1541]),
    (8, DE_T8_NORTH, [NORTH]),
    (8, DE_T8_WEST, [WEST_1541]),
]
DE_REINFORCEMENTS: list[Counter] = [c for _, group, _ in DE_SCHEDULE for c in group]

# ---------------------------------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------------------------------


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
    if formation in (W43, N50) and utype == "infantry":
        out["size"] = "X"
    elif utype == "artillery" and (uid.endswith("-art") or uid in ("AGRA", "55", "64")):
        out["size"] = "III"
    elif uid in ("1034", "1035", "1036", "935", "936", "6FJ"):
        out["size"] = "III"
    out["note"] = note
    return out


DEPLOYMENTS = [
    {"side": DE, "units": [c[0]], "rule": "18.12",
     "area": [{"hexes": [h], "text": f"hex {h} [18.12]"}]}
    for c, h in DE_INITIAL
]
XXX_REINFORCEMENTS = [
    {"side": AL, "turn": turn, "units": ids(group), "rule": "18.1",
     "entry": [{"hexes": list(HELLS_HIGHWAY),
                "text": "hex 0105 or 0106, where Hell's Highway enters from the south (the hexes "
                        "of [13.3] and [17.31]; reconstructed schedule)"}]}
    for turn, group in XXX_SCHEDULE
]
DE_REINFORCEMENT_GROUPS = [
    {"side": DE, "turn": turn, "units": ids(group), "rule": "18.1", "entry": entry}
    for turn, group, entry in DE_SCHEDULE
]
EXITS = [{"side": DE, "edges": ["west", "east"], "rule": "15.41"}]

NOTES = [
    "18.12: the 2-2-12 printed '95' at 3322 is read as '9S', the 9th SS reconnaissance battalion "
    "(like '2/9S' beside it); a 95th unit fits nothing in the battle.",
    "18.12: 'Grsn' (0702) is not identified; read as a motorised garrison detachment. 'BrDf' "
    "(2621) is read as the Nijmegen bridge defence. Types of all seven are inferred from their "
    "Movement (7 infantry, 12 motorised).",
    "18.13: the turn-one line printed 'Unit Ty Type' 2277' is read as 2-2-7, the value every "
    "parachute battalion of the schedule has.",
    "18.13: 1/325 and '2/235' on Game-Turn Seven are read as 1/325 and 2/325 (325th Glider "
    "Infantry Regiment, which landed on 23 September).",
    "18.13: 2S/1, 7K/1 and 1B/1 are printed among the 2-2-7 parachute battalions; they are the "
    "glider-borne battalions of the 1st Airlanding Brigade, so their type is glider with the "
    "printed values.",
    "18.13: the tail cut off after Game-Turn Seven, '1/508, 2/508, 3/508 (2223); 1/505, ...', is "
    "reconstructed as part of Game-Turn One: the 508th and the whole 505th dropped near Groesbeek "
    "on 17 September, and a line displaced by the scan would explain why 2/505 and 3/505 stand "
    "alone at 2023. The 508th lands within one hex of 2223, 1/505 with 2/505 and 3/505 near 2023; "
    "all four are 2-2-7 airborne like the other parachute battalions.",
    "Game-Turns: one a day, 17 September (Game-Turn One) to 25 September 1944 (Game-Turn Nine). "
    "The text's length is lost; the schedule of 18.13 matches the real lifts day by day (4th "
    "Parachute Brigade 18th, 327th GIR 19th, Poles at Driel 21st, 325th GIR and the last Poles "
    "23rd), and the operation ended with the withdrawal over the Neder Rijn on the night of the "
    "25th.",
    "First player: the Allied player (reconstructed). The text does not say; the weather is rolled "
    "just before the Allied Movement Phase [16.0], Lines of Communication are judged at the end of "
    "the German Player-Turn and points at the end of each Game-Turn [17.35, 17.2], and the "
    "airborne landings open the operation, so the Allied Player-Turn comes first.",
    "No Allied ground unit starts on the map: XXX Corps stood at the Neerpelt bridgehead ('Joe's "
    "bridge'), south of the map, and enters at 0105/0106 from Game-Turn One (reconstructed).",
    "XXX Corps (reconstructed): the Guards Armoured Division's tank and infantry battalions on "
    "Game-Turns One and Two, corps medium artillery on Two and Three, the 43rd (Wessex) Division's "
    "brigades with the 8th Armoured Brigade's regiments on Four and Five, the 50th (Northumbrian) "
    "Division's brigades on Six and Seven; all at 0105/0106. Infantry brigades are 5-5-7, about "
    "three of the text's battalions.",
    "The Allied Engineer unit [13.0] is 'Eng', 1-1-12, entering with the Guards on Game-Turn One "
    "(reconstructed values and turn).",
    "German reinforcements (reconstructed): the 9th and 10th SS battle groups from the north edge "
    "above Arnhem and (10th SS) over the Pannerden crossing onto the eastern edge north of the "
    "Waal; Division von Tettau from the western edge north of the Neder Rijn; the 59th and 245th "
    "Divisions, Kampfgruppe Huber and Kampfgruppe Chill (Fallschirmjäger-Regiment 6, Jungwirth) "
    "on the western stretch 0601-2301; Panzer-Brigade 107 (19 September, Son), Korps Feldt from "
    "the Reichswald (20 September) and Kampfgruppe Walther (22 September, Veghel) on the eastern "
    "stretch 0126-2726; sPzAbt 506 on Game-Turn Eight from the north.",
    "Kampfgruppe Walther attacked Veghel from the east (Gemert), so its units enter on the eastern "
    "stretch; the attack from the west that day was Kampfgruppe Huber's.",
    "German Fallschirmjäger units are infantry [15.3]: they are typed infantry, not airborne.",
    "[16.12] is garbled ('25 Alrborneﬂuhlts' on Good, '5 Axrborne units' on Fair weather turns, "
    "none on Poor): read as 25, 5 and 0 airborne units a Game-Turn.",
    "Ground Support without the weather rules (arnhem-historical): the text ties the Allied "
    "Ground Support Points to the weather [16.2] and says nothing for play without it; "
    "reconstructed as 3 points every Game-Turn, the Fair-weather value and close to the long-run "
    "average of the weather die (about 2.6).",
    "18.2 (arnhem-alternate) is missing from our copy: reconstructed as the historical forces and "
    "schedules with the drop zones placed by the Allied player [15.35-15.39] and the weather rules "
    "in force (mandatory in that scenario [16.0]). The German set-up is kept at the hexes of "
    "18.12; the text's procedure (the German player sets up after the drop zones are noted) might "
    "mean he deployed freely there.",
    "Rivers of the victory schedule: the text names the Waal by its ends 2726-3005 [17.11.2] and "
    "the Neder Rijn by 3706 and 3424 [17.11.3]; 'north_hex' is the end with the higher first two "
    "digits, i.e. the more northerly one.",
    "Polish units (formation 'Pol') have no drop-zone counter of their own (18.11 gives 101, 82 "
    "and 1); with the weather rules [16.11] they need one to land near.",
]

SPECIAL_BASE: dict[str, Any] = {
    "weather": False,
    "drop_zones": {"101": "1007", "82": "2323", "1": "3919"},
    "dz_free": False,
    "airborne_per_weather": {"good": 25, "fair": 5, "poor": 0},
    "ground_support_per_weather": {"good": 7, "fair": 3, "poor": 0},
    "loc_hexes": list(HELLS_HIGHWAY),
    "engineer": "Eng",
    "engineer_reentry": list(HELLS_HIGHWAY),
    "waal": {"line": "Waal", "south_hex": "2726", "north_hex": "3005", "points": 5},
    "neder_rijn": {"line": "Neder Rijn", "south_hex": "3424", "north_hex": "3706", "points": 10},
    "exit_west": ["0601", "2301"],
    "exit_east": ["0126", "2726"],
    "reenter_east": ["0126", "0726"],
    "max_artillery_per_combat": 2,
    "support_range": 3,
    "drop_range": 7,
    "landing_mp": 3,
    "notes": NOTES,
}

GENERATED = ("Generated by scenarios/tools/gen_arnhem_scenarios.py from the orders of battle in the "
             "Arnhem exclusive rules (18.11-18.13) and a reconstruction of what the scan lost; do "
             "not edit by hand. ")
COMMON = (
    "Nine Game-Turns, one a day from 17 September; the Allied player moves first (both "
    "reconstructed). Three airborne divisions land on the schedule of 18.13 while XXX Corps drives "
    "up Hell's Highway from 0105/0106; the Germans hold the seven units of 18.12 and gather "
    "reinforcements from every side. Victory by the ratio of German to Allied victory points "
    "[17.4]. See special.notes for every reading and reconstruction."
)


def scenario(sid: str, title: str, rule: str, note: str, weather: bool, dz_free: bool
             ) -> dict[str, Any]:
    special = dict(SPECIAL_BASE)
    special["weather"] = weather
    special["dz_free"] = dz_free
    if dz_free:
        special["drop_zones"] = {}
    support = [] if weather else [{"side": AL, "from_turn": 1, "points": 3, "rule": "16.2"}]
    return {
        "id": sid,
        "system": "westwall",
        "title": title,
        "game": "arnhem",
        "rule": rule,
        "note": GENERATED + note + " " + COMMON,
        "sides": SIDES,
        "first_player": AL,
        "first_turn": FIRST_TURN,
        "last_turn": LAST_TURN,
        "map": "arnhem-map.json",
        "terrain_key": "arnhem-terrain-key.json",
        "units": [unit(AL, c) for c in AIRBORNE + XXX_CORPS]
        + [unit(DE, c) for c in DE_INITIAL_UNITS + DE_REINFORCEMENTS],
        "deployments": DEPLOYMENTS,
        "reinforcements": AIRBORNE_SCHEDULE + XXX_REINFORCEMENTS + DE_REINFORCEMENT_GROUPS,
        "ground_support": support,
        "exits": EXITS,
        "artillery_limit": False,
        "special": special,
    }


HISTORICAL = scenario(
    "arnhem-historical", "Arnhem: Historical Scenario (17-25 September 1944)", "18.1",
    "The drop zones stand at 1007, 2323 and 3919 [18.11]; the airborne groups land within one hex "
    "of their printed hexes [18.13]. Without the optional weather rules: every airborne group "
    "lands on its turn [15.34] and the Allied player has 3 Ground Support Points each Game-Turn "
    "(reconstructed).",
    weather=False, dz_free=False)
HISTORICAL_WEATHER = scenario(
    "arnhem-historical-weather",
    "Arnhem: Historical Scenario with Weather (17-25 September 1944)", "18.1",
    "The historical scenario with the optional weather rules [16.0]: the first Game-Turn is Good, "
    "then the Allied player rolls; airborne units land within seven hexes of their division's "
    "drop zone, as many as the weather allows, and may be held back [15.34, 16.11, 16.12]; Ground "
    "Support Points follow the weather [16.2].",
    weather=True, dz_free=False)
ALTERNATE = scenario(
    "arnhem-alternate", "Arnhem: Alternate Plan (free drop zones, weather)", "18.2",
    "The text of 18.2 is lost; reconstructed as the historical forces with the drop zones placed "
    "by the Allied player, noted secretly before the German set-up and revealed after it, at least "
    "three hexes from any City hex or bridged hexside and fourteen from each other, possibly later "
    "in the game [15.35-15.39]; the weather rules are in force [16.0].",
    weather=True, dz_free=True)
SCENARIOS = (HISTORICAL, HISTORICAL_WEATHER, ALTERNATE)


def main() -> None:
    for data in SCENARIOS:
        path = OUT / f"{data['id']}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path} ({len(data['units'])} units)")


if __name__ == "__main__":
    main()
