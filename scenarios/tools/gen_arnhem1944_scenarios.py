"""Generate the Vae Victis *Arnhem 1944* scenarios from the orders of battle of 17.1 and 17.2.

Run from the repository root::

    .venv/bin/python scenarios/tools/gen_arnhem1944_scenarios.py

writes ``scenarios/arnhem1944-historical.json`` (historic para drop [17.3]) and
``scenarios/arnhem1944-free-drop.json`` (free para drop [17.4]), both from one table of counters so
they cannot drift apart.

**Why two files and not one with an option.** The text has one set-up whatever is chosen [17];
the Allied player chooses, before play, a historic or a free drop and historical or random
weather [14.1, 17]. A game is created from one scenario file and the genesis records that file's
hash, so a choice that changes how the game is played must be in the file both players sign. The
drop is the choice that changes the scenario's data (when and where the airborne reinforcements
arrive), so each drop is a file; the weather is an ``options.weather`` field of either file
(``"historical"`` as written; set ``"random"`` in a copy to roll on the table of 14.2), as are the
optional rules (``xxx_corps_early`` [15.3], ``simplified_sequence`` [18.1], ``morale`` [7.5]).

What the text gives: every unit's designation, formation where it names one, set-up hex or
entry turn and zone [17.1, 17.2, errata]. What it does not give -- the printed values of the
counters -- is **reconstructed** from the historical units at the scale of the game (battalions
and Kampfgruppen of 1-3 steps, six steps to a hex [5]), and every counter says how in its
``note``. The scale used:

- CF: a full-strength battalion of good infantry 4 (British and American parachute battalions,
  the larger airlanding battalions, Kampfgruppe Knaust, the Landstorm Nederland's three
  battalions), ordinary infantry 3 (SS panzergrenadier battalions, which were weak in September
  1944, the 43rd's and the Guards' infantry), scratch units 2 (training and Luftwaffe battalions,
  engineers fighting as infantry); tank battalions 3-4; HQs 1 [1.3]; artillery 0 (it defends with
  its DF [8.3]); the engineer none [12.1].
- armour: Tiger II companies 4, Sherman battalions and assault guns 3, Cromwells, the 9th SS's
  half-tracks and the few tanks of the 9th and 10th SS 2, armoured cars 1; artillery 1 (errata).
  Antitank: self-propelled and towed antitank guns 3, infantry with PIATs, bazookas or
  Panzerfausts 1, airlanding battalions (with their own 6-pounder platoons) 2.
- steps: battalions 2, companies and small Kampfgruppen 1, three for the Glider Pilot Regiment, the
  Landstorm Nederland and Kampfgruppe Knaust (each with its second counter [1.2]), HQs and
  artillery 1 [1.4].
- MP (a 24-hour turn [0.1], attacks cost 1, 3 or 5 MP [7.1]): on foot 6, lorried 8, tanks,
  half-tracks and self-propelled guns 10 (Tigers 8), armoured cars and jeeps 12.
- artillery: a field regiment of 25-pounders or a German battalion of 10.5 cm howitzers BR 3-4,
  DF 2-3, range the gun's range in kilometres (25-pounder 12, leFH 10, 75 mm pack howitzer 8,
  Nebelwerfer 6, flak in the ground role 6); the Werfer-Abt. 102 defends with DF 1 [8.3];
  Flak-Kampfgruppe von Swoboda supports every German unit [8.4].
- morale (optional 7.5, errata): SS panzer units and paratroops 8, artillery and the non-SS units
  of von Tettau 6, every other unit 7 (HQs as their formation).

Readings of the text: ``2/@@-Pz.Gren.Reg. 19`` is 2/SS-Pz.Gren.Reg. 19; ``Frunsberg`` is
Frundsberg; ``DZ 305``, ``DZ 709``, ``hex 327`` and ``922`` are 0305, 0709, 0327 and 0922;
Kampfgruppe Möller (errata) enters on turn 1 by zone D; the ``clear or mixed`` terrain of 15.2 is
clear or polder on this map (the Betuwe's orchards and polder are its mixed ground; the Polish drop
zone 0709 lies in it); "the four units of 1A and GP" of 17.1 are the three battalions and the
anti-tank battery of the 1st Airlanding Brigade and the Glider Pilot Regiment.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[2] / "pbem" / "scenario_data"  # the bundled data package
R = "RECONSTRUCTED"
AL, DE = "AL", "DE"
SIDES = [
    {"id": AL, "name": "Allied", "adjective": "Allied", "colour": "#7a8b3a"},
    {"id": DE, "name": "German", "adjective": "German", "colour": "#6e7f80"},
]
FIRST_TURN, LAST_TURN = 1, 10
XXX_ENTRY = "0327"
DZ_1AB, DZ_POL = "0305", "0709"
DROP_TERRAIN = ["clear", "polder"]
"""[15.2] 'clear or mixed' terrain: on this map clear or polder (see the module docstring)."""

# --------------------------------------------------------------------------------------------------
# Formations [1.5]
# --------------------------------------------------------------------------------------------------

FORMATIONS: list[dict[str, Any]] = [
    {"id": "9SS", "name": "9th SS-Panzer-Division Hohenstaufen", "side": DE, "hq": "HQ9",
     "colour": "#b22222", "supply": {"edges": ["north", "east"]},
     "note": "[1.5, 10.1]; colour RECONSTRUCTED (the counters' colours are not in our text). Units "
             "the text does not assign (Weber, Bruhns, StuG-Brigade 280, SS-Flak 102, von Swoboda, "
             "Shorket, MG-Bataillon 71) were given to the division they fought under: Harzer's "
             "9th SS held the line round Oosterbeek."},
    {"id": "10SS", "name": "10th SS-Panzer-Division Frundsberg", "side": DE, "hq": "HQ10",
     "colour": "#1f4e9c", "supply": {"edges": ["north", "east"]},
     "note": "[1.5, 10.1]; printed 'Frunsberg'; colour RECONSTRUCTED. Kampfgruppe Henke "
             "(Nijmegen), Kampfgruppe Knaust and the schwere Panzer-Abteilung 506 fought under "
             "Harmel's 10th SS at Nijmegen and Elst."},
    {"id": "Tettau", "name": "Kampfgruppe von Tettau", "side": DE, "hq": "HQTettau",
     "colour": "#d4a017", "supply": {"edges": ["west"]},
     "note": "[1.5, 10.1]; colour RECONSTRUCTED. Generalleutnant von Tettau's scratch division of "
             "SS, Luftwaffe, Kriegsmarine and training units west of Oosterbeek."},
    {"id": "1AB", "name": "1st (British) Airborne Division", "side": AL, "hq": "HQ1AB",
     "colour": "#7b1e3a", "supply": {"drop_zones": True, "xxx_corps_hq": True},
     "note": "[1.5, 10.1]; maroon (the airborne beret) RECONSTRUCTED."},
    {"id": "82AB", "name": "82nd (U.S.) Airborne Division", "side": AL, "hq": None,
     "colour": "#4b6f44", "supply": {"hexes": [XXX_ENTRY]},
     "note": "[17] no HQ (EM), intentionally; [10.1] traces supply by road to hex 0327. Colour "
             "RECONSTRUCTED."},
    {"id": "Pol", "name": "1st Independent Polish Parachute Brigade", "side": AL, "hq": "HQPol",
     "colour": "#c0c0c0", "supply": {"drop_zones": True, "xxx_corps_hq": True},
     "note": "[1.5, 10.1]; colour RECONSTRUCTED."},
    {"id": "43", "name": "43rd (Wessex) Infantry Division", "side": AL, "hq": "HQ43",
     "colour": "#2e8b57", "corps": "XXX", "supply": {"hexes": [XXX_ENTRY]},
     "note": "[1.5, 10.1]; XXX Corps; colour RECONSTRUCTED."},
    {"id": "GA", "name": "Guards Armoured Division", "side": AL, "hq": "HQGA",
     "colour": "#1c39bb", "corps": "XXX", "supply": {"hexes": [XXX_ENTRY]},
     "note": "[1.5, 10.1]; XXX Corps; colour RECONSTRUCTED. The 2nd Household Cavalry (corps "
             "troops, with the Guards) and the XXX Corps engineer (commanded by both XXX Corps "
             "HQs [12.1]) are carried here."},
]

# --------------------------------------------------------------------------------------------------
# Counters: (id, name, formation, kind, arm, mobility, cf, armour, antitank, steps, mp,
#            artillery (br, df, range) or None,
#            reduced (id, steps, cf, armour, antitank, mp) or None,
#            tag, note).  tag: "SS" a Waffen-SS unit, "para" paratroops, "" otherwise (morale 7.5).
# --------------------------------------------------------------------------------------------------

Art = tuple[int, int, int] | None
Red = tuple[str, int, int, int, int, int] | None
Row = tuple[str, str, str, str, str, str, int, int, int, int, int, Art, Red, str, str]


def inf(uid: str, name: str, form: str, cf: int, at: int, steps: int, mp: int, tag: str,
        note: str, mobility: str = "leg", red: Red = None) -> Row:
    return (uid, name, form, "combat", "infantry", mobility, cf, 0, at, steps, mp, None, red, tag,
            note)


def tank(uid: str, name: str, form: str, cf: int, armour: int, steps: int, mp: int, tag: str,
         note: str, arm: str = "armour", mobility: str = "tracked") -> Row:
    return (uid, name, form, "combat", arm, mobility, cf, armour, 0, steps, mp, None, None, tag,
            note)


def atk(uid: str, name: str, form: str, cf: int, at: int, steps: int, mp: int, tag: str,
        mobility: str, note: str) -> Row:
    return (uid, name, form, "combat", "antitank", mobility, cf, 0, at, steps, mp, None, None,
            tag, note)


def hq(uid: str, name: str, form: str, mp: int, mobility: str, tag: str, note: str) -> Row:
    return (uid, name, form, "hq", "hq", mobility, 1, 0, 0, 1, mp, None, None, tag,
            f"[1.3] {note}; CF 1, one step, MP {mp} {R}")


def art(uid: str, name: str, form: str, br: int, df: int, rng: int, mp: int, mobility: str,
        note: str) -> Row:
    return (uid, name, form, "artillery", "artillery", mobility, 0, 1, 0, 1, mp, (br, df, rng),
            None, "",
            f"[1.4] {note}; BR {br}, DF {df}, range {rng}, MP {mp} {R}; armour 1 (errata)")


GERMAN: list[Row] = [
    # --- set up [17.1]
    tank("AA9", "SS-Pz.Aufkl.Abt. 9", "9SS", 4, 2, 2, 12, "SS",
         f"Gräbner's reconnaissance battalion of the 9th SS (half-tracks and armoured cars), sent "
         f"over the Arnhem bridge towards Nijmegen on 17 September; hex 1020 [17.1]; CF 4, "
         f"armour 2, 2 steps, MP 12 {R}", arm="recce", mobility="mechanized"),
    tank("PzR9", "SS-Panzer-Regiment 9", "9SS", 3, 2, 2, 10, "SS",
         f"the 9th SS's tank regiment, down to a handful of Panthers and assault guns after "
         f"Normandy; hex 1405 [17.1]; CF 3, armour 2, 2 steps, MP 10 {R}"),
    inf("Ausb16", "SS-Pz.Gren.Ausb.Btl. 16", "9SS", 3, 1, 2, 6, "SS",
        f"Krafft's training and replacement battalion (about 435 men) by Wolfheze, the first to "
        f"block the 1st Airborne; hex 0604 [17.1]; CF 3, antitank 1, 2 steps, MP 6 {R}"),
    inf("Weber", "Kpfgr. Weber", "Tettau", 2, 0, 1, 6, "",
        f"a Kampfgruppe the text names only; not identified in our sources, taken as a small "
        f"group of rear-area (Luftwaffe) troops north of Wolfheze; hex 0601 [17.1]; formation "
        f"(von Tettau, who had the Luftwaffe units west of Arnhem), CF 2, 1 step, MP 6 {R}"),
    inf("Henke-1", "Kpfgr. Henke (1)", "10SS", 3, 1, 2, 6, "para",
        f"Oberst Henke's Fallschirmjäger training units holding Nijmegen and its bridges, first of "
        f"two counters; hex 0922 [17.1]; formation 10th SS (Harmel took over Nijmegen), CF 3, "
        f"antitank 1, 2 steps, MP 6 {R}"),
    inf("Henke-2", "Kpfgr. Henke (2)", "10SS", 3, 1, 2, 6, "para",
        f"Kampfgruppe Henke, second counter; hex 1022 [17.1]; values as Henke (1) {R}"),
    # --- turn 1 [17.2, errata]
    hq("HQ9", "EM 9. SS-Pz.Div.", "9SS", 8, "motorized", "SS",
       "Harzer's divisional HQ; turn 1, zone D [17.2]"),
    atk("PzJg9", "9. SS-Pz.Jäger-Abt.", "9SS", 2, 3, 2, 10, "SS", "mechanized",
        f"the 9th SS's tank-destroyer battalion (Jagdpanzer IV and towed guns); turn 1, zone D "
        f"[17.2]; CF 2, antitank 3, 2 steps, MP 10 {R}"),
    inf("1/20", "1/SS-Pz.Gren.Reg. 20", "9SS", 3, 1, 2, 8, "SS",
        f"first battalion, SS-Panzergrenadier-Regiment 20 (9th SS); turn 1, zone E [17.2]; CF 3, "
        f"antitank 1, 2 steps, MP 8 (lorried) {R}", mobility="motorized"),
    inf("1/22", "1/SS-Pz.Gren.Reg. 22", "10SS", 3, 1, 2, 8, "SS",
        f"first battalion, SS-Panzergrenadier-Regiment 22 (10th SS: the errata reprints this "
        f"counter in the right colour); turn 1, zone E [17.2]; CF 3, antitank 1, 2 steps, MP 8 "
        f"{R}", mobility="motorized"),
    inf("Moller", "Kpfgr. Möller", "9SS", 2, 1, 1, 6, "SS",
        f"Möller's SS-Panzer-Pionier-Bataillon 9 fighting as infantry in Oosterbeek; turn 1, zone "
        f"D (errata to 17.2); CF 2, antitank 1, 1 step, MP 6 {R}"),
    # --- turn 2
    hq("HQTettau", "EM Kpfgr. von Tettau", "Tettau", 8, "motorized", "",
       "von Tettau's HQ (from Grebbeberg); turn 2, zone A [17.2]"),
    inf("Ausb12", "SS-Pz.Gren.Ausb.Btl. 12", "Tettau", 3, 1, 2, 6, "SS",
        f"SS panzergrenadier training and replacement battalion under von Tettau; turn 2, zone A "
        f"[17.2]; CF 3, antitank 1, 2 steps, MP 6 {R}"),
    inf("Ausb4", "SS-Gren.Ausb.Btl. 4", "Tettau", 2, 1, 2, 6, "SS",
        f"SS grenadier training and replacement battalion under von Tettau; turn 2, "
        f"zone A [17.2]; CF 2, antitank 1, 2 steps, MP 6 {R}"),
    inf("LwKG", "Luftw. Kpfgr.", "Tettau", 2, 0, 2, 6, "",
        f"Luftwaffe airfield and signals personnel formed into battalions; turn 2, zone B [17.2]; "
        f"CF 2, 2 steps, MP 6 {R}"),
    inf("Landstorm", "SS-Landstorm Nederland", "Tettau", 4, 1, 3, 6, "SS",
        f"the Dutch SS Landstorm Nederland (three battalions), which attacked over the Ginkel "
        f"heath; turn 2, zone B [17.2]; CF 4, antitank 1, 3 steps with a second counter of 2 "
        f"steps CF 3 [1.2], MP 6 {R}", red=("Landstorm-r", 2, 3, 0, 1, 6)),
    inf("1/19", "1/SS-Pz.Gren.Reg. 19", "9SS", 3, 1, 2, 8, "SS",
        f"first battalion, SS-Panzergrenadier-Regiment 19 (9th SS); turn 2, zone D [17.2]; CF 3, "
        f"antitank 1, 2 steps, MP 8 {R}", mobility="motorized"),
    inf("2/19", "2/SS-Pz.Gren.Reg. 19", "9SS", 3, 1, 2, 8, "SS",
        f"second battalion, SS-Panzergrenadier-Regiment 19; printed '2/@@-Pz.Gren.Reg. 19'; "
        f"turn 2, zone D [17.2]; values as 1/19 {R}", mobility="motorized"),
    art("Werfer102", "SS-Werfer-Abt. 102", "9SS", 4, 3, 6, 8, "motorized",
        "II SS-Panzerkorps rocket-launcher battalion (Nebelwerfer) at Oosterbeek; turn 2, zone D "
        "[17.2]; defends with DF 1 when attacked or bombarded [8.3]"),
    tank("AA10", "SS-Pz.Aufkl.Abt. 10", "10SS", 3, 2, 2, 12, "SS",
         f"Brinkmann's reconnaissance battalion of the 10th SS, which came in from the east and "
         f"fought Frost at the Arnhem bridge; turn 2, zone E "
         f"[17.2]; CF 3, armour 2, 2 steps, MP 12 {R}", arm="recce", mobility="mechanized"),
    art("1/Art10", "1/SS-Pz.Art. 10", "10SS", 3, 2, 10, 10, "mechanized",
        "first battalion, SS-Panzer-Artillerie-Regiment 10 (self-propelled howitzers), firing "
        "from the Betuwe; turn 2, zone F [17.2]"),
    art("2/Art10", "2/SS-Pz.Art. 10", "10SS", 3, 2, 10, 8, "motorized",
        "second battalion, SS-Panzer-Artillerie-Regiment 10 (10.5 cm howitzers); turn 2, zone F "
        "[17.2]"),
    art("3/Art10", "3/SS-Pz.Art. 10", "10SS", 4, 2, 12, 8, "motorized",
        "third battalion, SS-Panzer-Artillerie-Regiment 10 (15 cm howitzers); turn 2, zone G "
        "[17.2]"),
    hq("HQ10", "EM 10. SS-Pz.Div.", "10SS", 8, "motorized", "SS",
       "Harmel's divisional HQ; turn 2, zone G [17.2]"),
    tank("1/PzR10", "1/SS-Pz.Reg. 10", "10SS", 3, 3, 2, 10, "SS",
         f"first battalion, SS-Panzer-Regiment 10 (the division's Panzer IVs), ferried over at "
         f"Pannerden; turn 2, zone G [17.2]; CF 3, armour 3, 2 steps, MP 10 {R}"),
    tank("2/PzR10", "2/SS-Pz.Reg. 10", "10SS", 3, 2, 2, 10, "SS",
         f"second battalion, SS-Panzer-Regiment 10 (assault guns and a few tanks); turn 2, zone G "
         f"[17.2]; CF 3, armour 2, 2 steps, MP 10 {R}"),
    inf("1/21", "1/SS-Pz.Gren.Reg. 21", "10SS", 3, 1, 2, 8, "SS",
        f"first battalion, SS-Panzergrenadier-Regiment 21 (10th SS; reprinted in the errata); "
        f"turn 2, zone G [17.2]; CF 3, antitank 1, 2 steps, MP 8 {R}", mobility="motorized"),
    inf("2/21", "2/SS-Pz.Gren.Reg. 21", "10SS", 3, 1, 2, 8, "SS",
        f"second battalion, SS-Panzergrenadier-Regiment 21 (reprinted in the errata); turn 2, "
        f"zone G [17.2]; values as 1/21 {R}", mobility="motorized"),
    # --- turn 3
    inf("Bruhns", "Kpfgr. Bruhns", "9SS", 3, 1, 2, 6, "",
        f"a Kampfgruppe the text names only; identification uncertain (an army battalion sent "
        f"to the 9th SS's line round Oosterbeek); turn 3, zone C [17.2]; formation, CF 3, "
        f"antitank 1, 2 steps, MP 6 {R}"),
    tank("StuG280-1", "Stu.Gesch.Brigade 280 (1)", "9SS", 3, 3, 1, 10, "",
         f"army assault-gun brigade 280, which reached Arnhem on 18 September and fought at the "
         f"bridge and Oosterbeek, first of two counters; turn 3, zone D [17.2]; formation, CF 3, "
         f"armour 3, 1 step, MP 10 {R}"),
    tank("StuG280-2", "Stu.Gesch.Brigade 280 (2)", "9SS", 3, 3, 1, 10, "",
         f"Sturmgeschütz-Brigade 280, second counter; turn 3, zone D [17.2]; values as (1) {R}"),
    art("Flak102", "SS-Flak 102", "9SS", 2, 2, 6, 8, "motorized",
        "II SS-Panzerkorps flak battalion (8.8 cm and 2 cm guns in the ground role); turn 3, zone "
        "D [17.2]; formation RECONSTRUCTED"),
    *[art(f"F{i}", f"Flak-Kpfgr. von Swoboda F{i}", "9SS", b, d, r, 8, "motorized",
          f"Flak-Kampfgruppe von Swoboda, counter {i} of the six marked F [17.2] "
          f"({'8.8 cm' if i <= 4 else '2 and 3.7 cm'} Luftwaffe flak in the ground role); turn 3, "
          f"zone D; may support every German unit [8.4]; formation RECONSTRUCTED")
      for i, (b, d, r) in enumerate([(2, 2, 6)] * 4 + [(1, 2, 3)] * 2, start=1)],
    inf("Knaust", "Kpfgr. Knaust", "10SS", 4, 1, 3, 8, "",
        f"Major Knaust's army training battalion from Bocholt with a few old tanks, at the Arnhem "
        f"bridge and then Elst; turn 3, zone E [17.2]; formation 10th SS, CF 4, antitank 1, "
        f"3 steps with a second counter of 2 steps CF 3 [1.2], MP 8 {R}", mobility="motorized",
        red=("Knaust-r", 2, 3, 0, 1, 8)),
    # --- turn 5
    inf("ErsHG", "Ersatzbataillon Hermann Göring", "Tettau", 3, 1, 2, 6, "",
        f"Hermann Göring replacement battalion (Luftwaffe) under von Tettau; turn 5, zone A "
        f"[17.2]; CF 3, antitank 1, 2 steps, MP 6 {R}"),
    inf("Shorket", "Kpfgr. Shorket", "9SS", 2, 1, 2, 6, "",
        f"a late-arriving Kampfgruppe, name as printed (not identified); turn 5, zone D [17.2]; "
        f"formation, CF 2, antitank 1, 2 steps, MP 6 {R}"),
    inf("MG71", "MG-Bataillon 71", "9SS", 3, 0, 2, 6, "",
        f"an army machine-gun battalion, as the text designates it (not identified further); "
        f"turn 5, zone D [17.2]; "
        f"formation, CF 3, 2 steps, MP 6 {R}"),
    # --- turn 8
    *[tank(f"506-{i}", f"schwere Pz.Abt. 506 ({i})", "10SS", 4, 4, 2, 8, "",
           f"heavy tank battalion 506 (Tiger II), which reached the Betuwe and Oosterbeek on 24 "
           f"September, company {i} of 3 [17.2]; turn 8, zone D; formation 10th SS (most of it "
           f"fought at Elst), CF 4, armour 4, 2 steps, MP 8 {R}") for i in (1, 2, 3)],
]


def para(uid: str, name: str, form: str, note: str, cf: int = 4, at: int = 1) -> Row:
    return inf(uid, name, form, cf, at, 2, 6, "para",
               f"{note}; CF {cf}, antitank {at}, 2 steps, MP 6 {R}")


ALLIED: list[Row] = [
    # --- 1st Airborne, set up round DZ 0305 [17.1]
    hq("HQ1AB", "EM 1st Airborne Div.", "1AB", 6, "leg", "para",
       "Urquhart's divisional HQ, at the Hartenstein in Oosterbeek; set up at DZ 0305 [17.1]"),
    para("1/1P", "1st Parachute Bn (1P)", "1AB", "1st Parachute Brigade [17.1]"),
    para("2/1P", "2nd Parachute Bn (1P)", "1AB",
         "1st Parachute Brigade; Frost's battalion, which held the north end of the Arnhem bridge "
         "[17.1]"),
    para("3/1P", "3rd Parachute Bn (1P)", "1AB", "1st Parachute Brigade [17.1]"),
    para("1Bdr/1A", "1st Border (1A)", "1AB",
         "1st Airlanding Brigade, one of the four 1A units placed in clear terrain [17.1]", at=2),
    para("7KOSB/1A", "7th KOSB (1A)", "1AB",
         "7th King's Own Scottish Borderers, 1st Airlanding Brigade (1A) [17.1]", at=2),
    para("2SS/1A", "2nd South Staffords (1A)", "1AB",
         "2nd South Staffordshire, 1st Airlanding Brigade (1A); half landed on the 17th, the rest "
         "on the 18th [17.1]", cf=3, at=2),
    atk("AT1/1A", "1st Airlanding AT Bty (1A)", "1AB", 1, 3, 1, 6, "para", "motorized",
        f"1st Airlanding Anti-Tank Battery RA (6- and 17-pounders), the fourth 1A unit [17.1]; "
        f"CF 1, antitank 3, 1 step, MP 6 {R}"),
    inf("GP", "Glider Pilot Regiment (GP)", "1AB", 3, 0, 3, 6, "para",
        f"No. 1 and No. 2 Wings, the Glider Pilot Regiment, fighting as infantry once down; placed "
        f"in clear terrain [17.1]; CF 3, 3 steps with a second counter of 2 steps CF 2 [1.2], MP 6 "
        f"{R}", red=("GP-r", 2, 2, 0, 0, 6)),
    tank("Rec1AB", "1st Airborne Recce Sqn", "1AB", 2, 0, 1, 12, "para",
         f"1st Airborne Reconnaissance Squadron (armed jeeps) [17.1]; CF 2, 1 step, MP 12 {R}",
         arm="recce", mobility="motorized"),
    art("1LtRA", "1st Airlanding Light Regt RA", "1AB", 3, 2, 8, 6, "motorized",
        "1st Airlanding Light Regiment RA (75 mm pack howitzers) in Oosterbeek [17.1]"),
    # --- 82nd Airborne, set up at 1126 and 1127 [17.1]
    para("1/508", "1/508 PIR", "82AB",
         "1st Battalion, 508th Parachute Infantry, which pushed into Nijmegen on the night of the "
         "17th; one of the six 82nd units [17.1]"),
    para("2/508", "2/508 PIR", "82AB", "2nd Battalion, 508th Parachute Infantry [17.1]"),
    para("3/508", "3/508 PIR", "82AB", "3rd Battalion, 508th Parachute Infantry [17.1]"),
    para("1/504", "1/504 PIR", "82AB",
         "1st Battalion, 504th Parachute Infantry, which crossed the Waal on 20 September [17.1]"),
    para("3/504", "3/504 PIR", "82AB",
         "3rd Battalion, 504th Parachute Infantry (Cook's assault crossing of the Waal) [17.1]"),
    para("2/505", "2/505 PIR", "82AB",
         "2nd Battalion, 505th Parachute Infantry, which fought into Nijmegen with the Guards "
         "[17.1]"),
    # --- airborne reinforcements [17.2]
    para("10/4P", "10th Parachute Bn (4P)", "1AB", "4th Parachute Brigade, turn 2, DZ 0305 [17.2]"),
    para("11/4P", "11th Parachute Bn (4P)", "1AB", "4th Parachute Brigade, turn 2 [17.2]"),
    para("156/4P", "156th Parachute Bn (4P)", "1AB", "4th Parachute Brigade, turn 2 [17.2]"),
    inf("4RE/4P", "4th Para Sqn RE (4P)", "1AB", 1, 1, 1, 6, "para",
        f"4th Parachute Squadron RE, the 4th Parachute Brigade's sappers; turn 2 [17.2]; CF 1, "
        f"antitank 1, 1 step, MP 6 {R}"),
    atk("AT2/4P", "2nd Airlanding AT Bty (4P)", "1AB", 1, 3, 1, 6, "para", "motorized",
        f"2nd (Oban) Airlanding Anti-Tank Battery RA, landed with the 4th Parachute Brigade's "
        f"lift; turn 2 [17.2]; CF 1, antitank 3, 1 step, MP 6 {R}"),
    hq("HQPol", "EM Polish Brigade", "Pol", 6, "leg", "para",
       "Sosabowski's brigade HQ; turn 5, DZ 0709 [17.2]"),
    para("1/Pol", "1st Polish Para Bn", "Pol",
         "1st Battalion, Polish brigade (part dropped at Grave on the 23rd); turn 5 [17.2]", cf=3),
    para("2/Pol", "2nd Polish Para Bn", "Pol", "2nd Battalion, Polish brigade; turn 5 [17.2]",
         cf=3),
    para("3/Pol", "3rd Polish Para Bn", "Pol", "3rd Battalion, Polish brigade; turn 5 [17.2]",
         cf=3),
    inf("EngPol", "Polish Para Engineer Coy", "Pol", 1, 1, 1, 6, "para",
        f"the brigade's engineer company, which tried to ferry men over the Neder Rijn; turn 5 "
        f"[17.2]; CF 1, antitank 1, 1 step, MP 6 {R}"),
    # --- XXX Corps by hex 0327 [15.3, 17.2]: turn 3
    tank("2HCR", "2nd Household Cavalry", "GA", 2, 1, 2, 12, "",
         f"2nd Household Cavalry Regiment (armoured cars), XXX Corps' reconnaissance, the first "
         f"to reach the Poles at Driel; turn 3 [17.2]; CF 2, armour 1, 2 steps, MP 12 {R}",
         arm="recce", mobility="mechanized"),
    hq("HQGA", "EM Guards Armoured Div.", "GA", 10, "mechanized", "",
       "Adair's divisional HQ; turn 3 [17.2]"),
    tank("1CG/5/G", "1st Coldstream Guards", "GA", 4, 3, 2, 10, "",
         f"1st (Armoured) Battalion Coldstream Guards (Shermans), 5th Guards Armoured Brigade; "
         f"turn 3 [17.2]; CF 4, armour 3, 2 steps, MP 10 {R}"),
    inf("5CG/32/G", "5th Coldstream Guards", "GA", 3, 1, 2, 8, "",
        f"5th Battalion Coldstream Guards, 32nd Guards Brigade; turn 3 [17.2]; CF 3, antitank 1, "
        f"2 steps, MP 8 (lorried) {R}", mobility="motorized"),
    inf("1WG/32/G", "1st Welsh Guards", "GA", 3, 1, 2, 8, "",
        f"1st Battalion Welsh Guards, 32nd Guards Brigade; turn 3 [17.2]; CF 3, antitank 1, "
        f"2 steps, MP 8 {R}", mobility="motorized"),
    tank("2WG/32/G", "2nd Welsh Guards", "GA", 3, 2, 2, 12, "",
         f"2nd (Armoured Reconnaissance) Battalion Welsh Guards (Cromwells: the errata reprints "
         f"this counter, printed with a Sherman); id as the errata writes it; turn 3 [17.2]; CF 3, "
         f"armour 2, 2 steps, MP 12 {R}"),
    tank("2IG/5/G", "2nd Irish Guards", "GA", 4, 3, 2, 10, "",
         f"2nd (Armoured) Battalion Irish Guards (Shermans), which led the advance; turn 3 "
         f"[17.2]; CF 4, armour 3, 2 steps, MP 10 {R}"),
    inf("3IG/32/G", "3rd Irish Guards", "GA", 3, 1, 2, 8, "",
        f"3rd Battalion Irish Guards; turn 3 [17.2]; CF 3, antitank 1, 2 steps, MP 8 {R}",
        mobility="motorized"),
    # turn 4
    inf("1GG/5/G", "1st Grenadier Guards", "GA", 3, 1, 2, 10, "",
        f"1st (Motor) Battalion Grenadier Guards (in carriers and half-tracks), which fought for "
        f"the Nijmegen road bridge; turn 4 [17.2]; CF 3, antitank 1, 2 steps, MP 10 {R}",
        mobility="mechanized"),
    tank("2GG/5/G", "2nd Grenadier Guards", "GA", 4, 3, 2, 10, "",
         f"2nd (Armoured) Battalion Grenadier Guards (Shermans), first over the Waal bridge; turn "
         f"4 [17.2]; CF 4, armour 3, 2 steps, MP 10 {R}"),
    art("55/G", "55th Field Regt RA", "GA", 4, 3, 12, 8, "motorized",
        "55th (Wessex) Field Regiment RA (25-pounders), Guards Armoured Division; turn 4 [17.2]"),
    art("153/G", "153rd Field Regt RA", "GA", 4, 3, 12, 10, "mechanized",
        "153rd (Leicestershire Yeomanry) Field Regiment RA (self-propelled 25-pounders), Guards "
        "Armoured Division; turn 4 [17.2]"),
    ("RE30", "XXX Corps Royal Engineers", "GA", "engineer", "engineer", "motorized", 0, 0, 0, 1,
     8, None, None, "",
     f"XXX Corps' engineers with their assault boats and bridging [12.1]: no CF, ferry three "
     f"infantry steps a turn over a river or canal, not counted for stacking [5]; commanded by "
     f"both XXX Corps HQs [12.1]; turn 4 [17.2]; 1 step, MP 8 {R}"),
    hq("HQ43", "EM 43rd Division", "43", 8, "motorized", "",
       "Thomas's divisional HQ; turn 4 [17.2]"),
    tank("43Rec", "43rd Recce Regt", "43", 2, 1, 2, 12, "",
         f"43rd Reconnaissance Regiment (armoured cars and carriers); turn 4 [17.2]; CF 2, "
         f"armour 1, 2 steps, MP 12 {R}", arm="recce", mobility="mechanized"),
]


def wessex(uid: str, name: str, bde: str, turn: int, extra: str = "") -> Row:
    return inf(uid, name, "43", 3, 1, 2, 8, "",
               f"{name}, {bde} Brigade, 43rd (Wessex) Division; turn {turn} [17.2]{extra}; CF 3, "
               f"antitank 1, 2 steps, MP 8 (lorried) {R}", mobility="motorized")


ALLIED += [
    wessex("7H/130/43", "7th Hampshire", "130th", 4),
    wessex("4D/130/43", "4th Dorset", "130th", 4, " (crossed to Oosterbeek on 24 September)"),
    wessex("5D/130/43", "5th Dorset", "130th", 4),
    wessex("5DCLI/214/43", "5th Duke of Cornwall's Light Infantry", "214th", 5,
           " (reached Driel on 22 September)"),
    wessex("1Wo/214/43", "1st Worcestershire", "214th", 5, " (printed 'Worcester Rifles')"),
    wessex("7SLI/214/43", "7th Somerset Light Infantry", "214th", 5),
    wessex("4SLI/129/43", "4th Somerset Light Infantry", "129th", 5),
    wessex("4W/129/43", "4th Wiltshire", "129th", 5,
           " (the errata reprints this counter, printed with the wrong designation)"),
    wessex("5W/129/43", "5th Wiltshire", "129th", 5),
    art("94/43", "94th Field Regt RA", "43", 4, 3, 12, 8, "motorized",
        "94th Field Regiment RA (25-pounders), 43rd Division; turn 5 [17.2]"),
    art("112/43", "112th Field Regt RA", "43", 4, 3, 12, 8, "motorized",
        "112th Field Regiment RA (25-pounders), 43rd Division; turn 5 [17.2]"),
    art("179/43", "179th Field Regt RA", "43", 4, 3, 12, 8, "motorized",
        "179th Field Regiment RA (25-pounders), 43rd Division; turn 5 [17.2]"),
]

# --------------------------------------------------------------------------------------------------
# Where and when [17.1, 17.2]
# --------------------------------------------------------------------------------------------------

GERMAN_SETUP = {"AA9": "1020", "PzR9": "1405", "Ausb16": "0604", "Weber": "0601",
                "Henke-1": "0922", "Henke-2": "1022"}
AIRBORNE_82 = {"1/508": "1126", "2/508": "1126", "3/508": "1126",
               "1/504": "1127", "3/504": "1127", "2/505": "1127"}
"""[17.1] six units on 1126 and 1127 (placement hexes, not a drop zone); three a hex keeps each
hex at six steps [5]."""
CLEAR_ONLY = ("1Bdr/1A", "7KOSB/1A", "2SS/1A", "AT1/1A", "GP")
"""[17.1] the four 1A units and GP are placed in clear terrain."""

GERMAN_ENTRY: dict[int, list[tuple[str, str]]] = {
    1: [("HQ9", "D"), ("PzJg9", "D"), ("1/20", "E"), ("1/22", "E"), ("Moller", "D")],
    2: [("HQTettau", "A"), ("Ausb12", "A"), ("Ausb4", "A"), ("LwKG", "B"), ("Landstorm", "B"),
        ("1/19", "D"), ("2/19", "D"), ("Werfer102", "D"), ("AA10", "E"), ("1/Art10", "F"),
        ("2/Art10", "F"), ("3/Art10", "G"), ("HQ10", "G"), ("1/PzR10", "G"), ("2/PzR10", "G"),
        ("1/21", "G"), ("2/21", "G")],
    3: [("Bruhns", "C"), ("StuG280-1", "D"), ("StuG280-2", "D"), ("Flak102", "D"),
        *[(f"F{i}", "D") for i in range(1, 7)], ("Knaust", "E")],
    5: [("ErsHG", "A"), ("Shorket", "D"), ("MG71", "D")],
    8: [("506-1", "D"), ("506-2", "D"), ("506-3", "D")],
}
XXX_CORPS: dict[int, list[str]] = {
    3: ["2HCR", "HQGA", "1CG/5/G", "5CG/32/G", "1WG/32/G", "2WG/32/G", "2IG/5/G", "3IG/32/G"],
    4: ["1GG/5/G", "2GG/5/G", "55/G", "153/G", "RE30", "HQ43", "43Rec", "7H/130/43",
        "4D/130/43", "5D/130/43"],
    5: ["5DCLI/214/43", "1Wo/214/43", "7SLI/214/43", "4SLI/129/43", "4W/129/43", "5W/129/43",
        "94/43", "112/43", "179/43"],
}
DROPS = [
    {"group": "4th Parachute Brigade (4P)", "units": ["10/4P", "11/4P", "156/4P", "4RE/4P",
                                                      "AT2/4P"],
     "turn": 2, "dz": DZ_1AB, "radius": 2, "terrain": DROP_TERRAIN, "alternative_dz": False},
    {"group": "Polish Brigade", "units": ["HQPol", "1/Pol", "2/Pol", "3/Pol", "EngPol"],
     "turn": 5, "dz": DZ_POL, "radius": 2, "terrain": DROP_TERRAIN, "alternative_dz": True},
]

TURNS = [
    (1, "1944-09-17", "clear", "the first lift flew in fine weather"),
    (2, "1944-09-18", "cloudy", "fog in England held the second lift until the afternoon"),
    (3, "1944-09-19", "overcast", "fog: the Polish parachute lift was called off"),
    (4, "1944-09-20", "overcast", "the Poles held back again"),
    (5, "1944-09-21", "cloudy", "the Poles dropped by Driel in the afternoon"),
    (6, "1944-09-22", "overcast", "low cloud and rain, little flying"),
    (7, "1944-09-23", "cloudy", "better: resupply and the rest of the Poles flew"),
    (8, "1944-09-24", "overcast", "rain"),
    (9, "1944-09-25", "cloudy", "Typhoons over the perimeter; the evacuation that night"),
    (10, "1944-09-26", "overcast", "rain; the last men came back over the river"),
]
"""[14.1] 'historical weather is on the turn track': the track is not in our text, so it is
RECONSTRUCTED from the histories (one turn a day from Sunday 17 September [0.1]); the drop turns
of 17.2 (2 and 5) allow drops [14.3]."""

NOTES = [
    "RECONSTRUCTED: every counter's values (CF, armour or antitank, steps, MP, BR/DF/range): the "
    "text prints none; see each counter's note and the generator's docstring for the scale.",
    "RECONSTRUCTED: the formation of the units the text does not assign (Weber, Henke, Bruhns, "
    "StuG-Brigade 280, SS-Flak 102, von Swoboda, Knaust, Shorket, MG-Bataillon 71, schwere "
    "Panzer-Abteilung 506), from the division they fought under; the formation colours.",
    "RECONSTRUCTED: the 1st Airborne's units other than 1P, 1A, GP and 4P (the HQ, the "
    "reconnaissance squadron, the light regiment), the fourth 1A unit (the anti-tank battery), the "
    "five units of 4P and of the Polish brigade, and which six battalions of the 82nd stand on "
    "1126 and 1127 (those that fought for Nijmegen: the 508th, 1/504 and 3/504, 2/505).",
    "RECONSTRUCTED: the historical weather of the turn track (from the histories).",
    "READING: 'clear or mixed' terrain for a drop [15.2] is clear or polder on this map.",
    "READING: the bridgehead of 16 is on the far (north) bank of the Neder Rijn and '(to the "
    "East)' of the landing grounds: from hex column 10 (just east of Oosterbeek, where the "
    "railway bridge 1007/1107 crosses) east, so the drop zones and the Oosterbeek perimeter do "
    "not count and Arnhem does (victory.east_of_col; see the rules' docstring).",
    "READING: 'Kpfgr. Shorket' and 'MG-Bataillon 71' are kept as printed.",
]


def morale(row: Row) -> int:
    """[7.5, errata] SS panzer units and paratroops 8; artillery and von Tettau's non-SS units 6;
    every other unit 7 (an HQ as its units)."""
    kind, form, tag = row[3], row[2], row[13]
    if kind == "artillery":
        return 6
    if form == "Tettau" and tag != "SS":
        return 6
    if (tag == "SS" and form in ("9SS", "10SS")) or tag == "para":
        return 8
    return 7


def counter(row: Row, side: str) -> dict[str, Any]:
    (uid, name, form, kind, arm, mobility, cf, armour, at, steps, mp, artv, red, _tag,
     note) = row
    out: dict[str, Any] = {"id": uid, "name": name, "side": side, "formation": form, "kind": kind,
                           "arm": arm, "mobility": mobility, "cf": cf, "armour": armour,
                           "antitank": at, "steps": steps, "mp": mp}
    if artv is not None:
        out.update(br=artv[0], df=artv[1], range=artv[2])
        if uid == "Werfer102":
            out["defence_df"] = 1  # [8.3]
        if uid.startswith("F") and uid[1:].isdigit():
            out["supports_all"] = True  # [8.4]
    if red is not None:
        rid, rsteps, rcf, rarm, rat, rmp = red
        out["reduced"] = {"id": rid, "steps": rsteps, "cf": rcf, "armour": rarm, "antitank": rat,
                          "mp": rmp}
    out["morale"] = morale(row)
    out["note"] = note
    return out


def setup() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"unit": u, "hex": h} for u, h in GERMAN_SETUP.items()]
    for row in ALLIED:
        if row[2] == "1AB" and not row[0].endswith("/4P"):
            terrain = ["clear"] if row[0] in CLEAR_ONLY else DROP_TERRAIN
            out.append({"unit": row[0], "hex": DZ_1AB, "within": 2, "terrain": terrain})
    out += [{"unit": u, "hex": h} for u, h in AIRBORNE_82.items()]
    return out


def reinforcements() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for turn, entries in GERMAN_ENTRY.items():
        out += [{"unit": u, "turn": turn, "zone": z} for u, z in entries]
    for turn, units in XXX_CORPS.items():
        out += [{"unit": u, "turn": turn, "hex": XXX_ENTRY} for u in units]
    return out


def scenario(drop: str) -> dict[str, Any]:
    free = drop == "free"
    sid = "arnhem1944-free-drop" if free else "arnhem1944-historical"
    return {
        "id": sid,
        "system": "arnhem1944",
        "game": "arnhem1944",
        "title": ("Arnhem 1944: free para drop" if free else "Arnhem 1944: historic para drop"),
        "rule": "17.4" if free else "17.3",
        "note": (
            "Vae Victis Arnhem 1944, the one scenario of 17 with the Allied player's choice of "
            + ("the free para drop [17.4]: the airborne reinforcements drop on the first turn "
               "from the one listed that the weather allows, the Poles on any drop zone that "
               "fits 15.2. " if free else
               "the historic para drop [17.3]: the airborne reinforcements drop on the turns "
               "and drop zones of 17.2. ")
            + "Generated by scenarios/tools/gen_arnhem1944_scenarios.py (the other drop is "
            "arnhem1944-" + ("historical" if free else "free-drop") + ".json, from the same "
            "table); do not edit by hand. Weather: options.weather, 'historical' (the turn "
            "track) or 'random' [14.1]. " + " ".join(NOTES)),
        "sides": SIDES,
        "first_player": AL,
        "first_turn": FIRST_TURN,
        "last_turn": LAST_TURN,
        "map": "arnhem1944-map.json",
        "options": {"drop": drop, "weather": "historical", "xxx_corps_early": False,
                    "simplified_sequence": False, "morale": False},
        "constants": {"stacking_steps": 6, "formation_activation": 6, "general_activation": 3,
                      "command_range": 5, "supply_range": 2, "engineer_steps": 3,
                      "first_initiative": AL, "turn_end_roll": [5, 6],
                      "first_airborne_air_missions": 2, "artillery_armour": 1,
                      "delay_zone_shift": 1},
        "turns": [{"turn": t, "date": d, "weather": w, "note": f"{why} (RECONSTRUCTED)"}
                  for t, d, w, why in TURNS],
        "weather_table": {"1": "clear", "2": "cloudy", "3": "cloudy", "4": "overcast",
                          "5": "overcast", "6": "same"},
        "weather_effects": {"clear": {"drops": True, "air_missions": 3},
                            "cloudy": {"drops": True, "air_missions": 1},
                            "overcast": {"drops": False, "air_missions": 0}},
        "formations": [dict(f, corps=f.get("corps", "")) for f in FORMATIONS],
        "counters": [counter(r, DE) for r in GERMAN] + [counter(r, AL) for r in ALLIED],
        "setup": setup(),
        "reinforcements": reinforcements(),
        "para_drops": DROPS,
        "victory": {"bridge": "Arnhem road bridge", "bridge_hexes": ["1406", "1407"],
                    "river": "Neder Rijn", "far_bank_hex": "1406", "bridgehead_steps": 12,
                    "east_of_col": 10,
                    "note": "[16] strategic: both hexes of the Arnhem road bridge in Allied "
                            "hands; secondary: 12 infantry steps north of the Neder Rijn, bridge "
                            "or not, from hex column 10 east (READING of '(to the East)': east "
                            "of Oosterbeek, from the railway bridge 1007/1107 on); otherwise "
                            "German. "
                            "1406/1407 are the map's bridge hexes."},
    }


def main() -> None:
    for drop, name in (("historic", "arnhem1944-historical.json"),
                       ("free", "arnhem1944-free-drop.json")):
        text = json.dumps(scenario(drop), ensure_ascii=False, indent=1) + "\n"
        (OUT / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
