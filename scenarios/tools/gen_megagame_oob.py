"""Generate ``scenarios/megagame-market-garden-oob.json``: the orders of battle of Operation Market
Garden, 17-25 September 1944, at battalion level, for J. Wallman's megagame (seed 004) on the 1 km
map (``scenarios/market-garden-1km-map.json``).

    .venv/bin/python scenarios/tools/gen_megagame_oob.py > pbem/scenario_data/megagame-market-garden-oob.json

RECONSTRUCTED from the published histories (formations, their battalions, drop zones, lifts and the
days they came into the fight are historical; strengths are read into the Annex A unit types of
``scenarios/megagame-profiles.json``; set-up hexes are the places the histories name, rounded to
the 1 km grid; initial supplies, dumps and the air order of battle are plausible, not documented).
Places are given here by latitude and longitude or by map hex; the script turns them into hexes of
the 1 km map with the map's own projection, so the data always agrees with the map. Deterministic:
no clock, no randomness.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_market_garden_1km_map import to_grid  # noqa: E402
from market_garden import ROOT, nearest  # noqa: E402

MAP = json.loads((ROOT / "pbem" / "scenario_data" / "market-garden-1km-map.json").read_text(encoding="utf-8"))
TERRAIN = {h: k for k, hs in MAP["terrain"].items() for h in hs}


def at(lat: float, lon: float) -> str:
    """The 1 km map's hex for a place."""
    return str(nearest(*to_grid(lat, lon)))


def open_hex(lat: float, lon: float) -> str:
    """The nearest open ('clear') hex to a place: drops go into open ground, never woods or towns
    [seed 004, "Parachute and Glider Drops"]; the map's woods are circles, so a historical zone on
    a heath beside a wood may fall on a wood hex and is moved to the nearest open one."""
    h = nearest(*to_grid(lat, lon))
    best = None
    for r in range(0, 4):
        for c in h.within(r) if r else [h]:
            s = str(c)
            if TERRAIN.get(s, MAP["default_terrain"]) == "clear":
                d = h.distance(c)
                if best is None or (d, s) < best:
                    best = (d, s)
        if best is not None:
            return best[1]
    raise ValueError(f"no open hex near {lat}, {lon}")


# -- turns and weather -----------------------------------------------------------------------------

DAYS = list(range(17, 26))


def turn(day: int, half: str) -> int:
    """Turn number: 17 Sep am is turn 1, 17 Sep pm turn 2, ... 25 Sep pm turn 18."""
    return (day - 17) * 2 + (1 if half == "am" else 2)


WEATHER: list[tuple[int, str, str, str, str, str]] = [
    # (day, half, sky over the battlefield, flying from England, flying on the continent, note)
    (17, "am", "fair", "good", "good",
     "a fine Sunday after early haze; the bombers strike flak and barracks before the lift"),
    (17, "pm", "fair", "good", "good", "the first lift lands in near-perfect conditions"),
    (18, "am", "overcast", "none", "limited", "fog and low cloud over the English bases hold the "
                                             "second lift back"),
    (18, "pm", "fair", "good", "good", "the second lift lands some four hours late"),
    (19, "am", "overcast", "none", "limited", "fog in England again"),
    (19, "pm", "overcast", "limited", "limited", "third lift: part of the gliders turn back, the "
                                                 "Polish drop is postponed; resupply falls mostly "
                                                 "to the Germans"),
    (20, "am", "rain", "none", "limited", "low cloud and showers"),
    (20, "pm", "overcast", "limited", "limited", "resupply flown in poor weather"),
    (21, "am", "overcast", "none", "limited", "English fighter bases fogbound"),
    (21, "pm", "fair", "limited", "good", "the Polish brigade drops at Driel; Allied escort thin, "
                                         "the Luftwaffe active"),
    (22, "am", "rain", "none", "none", "low cloud and rain; no air supply"),
    (22, "pm", "rain", "none", "limited", "rain"),
    (23, "am", "overcast", "limited", "limited", "cloud lifting"),
    (23, "pm", "fair", "good", "good",
     "the last glider lift: 325th Glider Infantry and the rest of the Poles near Grave"),
    (24, "am", "rain", "none", "limited", "rain"),
    (24, "pm", "rain", "none", "limited", "rain and low cloud"),
    (25, "am", "rain", "none", "limited", "rain"),
    (25, "pm", "rain", "none", "none",
     "heavy rain covers the night withdrawal over the Neder Rijn"),
]

# -- formations ------------------------------------------------------------------------------------

CORPS: list[dict[str, str]] = [
    {"id": "i-ab-corps", "side": "allied", "name": "I British Airborne Corps (Browning)"},
    {"id": "xxx-corps", "side": "allied", "name": "XXX Corps (Horrocks)"},
    {"id": "ii-ss-pz-corps", "side": "german", "name": "II SS-Panzerkorps (Bittrich)"},
    {"id": "wbn", "side": "german",
     "name": "Wehrmachtbefehlshaber Niederlande (Christiansen): Division von Tettau"},
    {"id": "korps-feldt", "side": "german", "name": "Korps Feldt"},
    {"id": "lxxxvi-corps", "side": "german", "name": "LXXXVI Armeekorps (von Obstfelder)"},
    {"id": "lxxxviii-corps", "side": "german", "name": "LXXXVIII Armeekorps (Reinhard)"},
]

DIVISIONS: list[dict[str, str]] = [
    {"id": "gb-1-ab", "corps": "i-ab-corps", "nation": "british",
     "name": "1st British Airborne Division (Urquhart)"},
    {"id": "pl-1-para", "corps": "i-ab-corps", "nation": "british",
     "name": "1st Polish Independent Parachute Brigade (Sosabowski)"},
    {"id": "gb-i-ab-troops", "corps": "i-ab-corps", "nation": "british",
     "name": "I Airborne Corps HQ and troops (Browning)"},
    {"id": "us-82-ab", "corps": "i-ab-corps", "nation": "us",
     "name": "82nd US Airborne Division (Gavin)"},
    {"id": "us-101-ab", "corps": "i-ab-corps", "nation": "us",
     "name": "101st US Airborne Division (Taylor)"},
    {"id": "gb-gds-armd", "corps": "xxx-corps", "nation": "british",
     "name": "Guards Armoured Division (Adair)"},
    {"id": "gb-43-inf", "corps": "xxx-corps", "nation": "british",
     "name": "43rd (Wessex) Infantry Division (Thomas)"},
    {"id": "gb-50-inf", "corps": "xxx-corps", "nation": "british",
     "name": "50th (Northumbrian) Infantry Division (Graham)"},
    {"id": "gb-8-armd", "corps": "xxx-corps", "nation": "british",
     "name": "8th Armoured Brigade (Prior-Palmer)"},
    {"id": "gb-xxx-troops", "corps": "xxx-corps", "nation": "british",
     "name": "XXX Corps troops (AGRA, Household Cavalry, RASC, bridging)"},
    {"id": "de-9-ss", "corps": "ii-ss-pz-corps", "nation": "german",
     "name": "9. SS-Panzer-Division 'Hohenstaufen' (KG Harzer)"},
    {"id": "de-10-ss", "corps": "ii-ss-pz-corps", "nation": "german",
     "name": "10. SS-Panzer-Division 'Frundsberg' (KG Harmel)"},
    {"id": "de-tettau", "corps": "wbn", "nation": "german",
     "name": "Kampfgruppe (Division) von Tettau"},
    {"id": "de-406", "corps": "korps-feldt", "nation": "german",
     "name": "Division z.b.V. 406 (Scherbening)"},
    {"id": "de-fj-meindl", "corps": "korps-feldt", "nation": "german",
     "name": "II. Fallschirmkorps Kampfgruppen (Regimenter Hermann and Becker)"},
    {"id": "de-kg-walther", "corps": "lxxxvi-corps", "nation": "german",
     "name": "Kampfgruppe Walther (Fallschirmjaeger, SS and s.Pz.Jg.Abt 559)"},
    {"id": "de-107-pz", "corps": "lxxxvi-corps", "nation": "german",
     "name": "Panzer-Brigade 107 (von Maltzahn)"},
    {"id": "de-59-inf", "corps": "lxxxviii-corps", "nation": "german",
     "name": "59. Infanterie-Division (Poppe)"},
    {"id": "de-245-inf", "corps": "lxxxviii-corps", "nation": "german",
     "name": "245. Infanterie-Division (Sander)"},
    {"id": "de-6-fj", "corps": "lxxxviii-corps", "nation": "german",
     "name": "Fallschirmjaeger-Regiment 6 (von der Heydte)"},
]
DIV = {d["id"]: d for d in DIVISIONS}
SIDE = {c["id"]: c["side"] for c in CORPS}

# -- drop and landing zones, road entries ----------------------------------------------------------

ZONES: list[tuple[str, str, float, float, str]] = [
    ("DZ X", "Renkum heath (1st Para Bde)", 51.993, 5.757, "gb-1-ab"),
    ("LZ Z", "Renkum heath, north (divisional troops)", 51.997, 5.772, "gb-1-ab"),
    ("LZ S", "Reijerscamp (1st Airlanding Bde)", 52.012, 5.79, "gb-1-ab"),
    ("DZ Y", "Ginkel heath (4th Para Bde)", 52.037, 5.718, "gb-1-ab"),
    ("LZ L", "Johannahoeve (Polish gliders)", 52.003, 5.835, "pl-1-para"),
    ("DZ K", "Driel polder (Polish brigade)", 51.962, 5.815, "pl-1-para"),
    ("DZ N", "Groesbeek heights, south (505th, HQs, gliders)", 51.767, 5.952, "us-82-ab"),
    ("DZ T", "Groesbeek, north-east (508th)", 51.787, 5.968, "us-82-ab"),
    ("DZ O", "Overasselt (504th; later 325th and Polish)", 51.763, 5.775, "us-82-ab"),
    ("DZ A", "Eerde (501st, 2nd and 3rd Bns)", 51.607, 5.5, "us-101-ab"),
    ("DZ A-1", "Kameren (501st, 1st Bn)", 51.63, 5.545, "us-101-ab"),
    ("DZ B", "north of the Sonse Bos (502nd)", 51.545, 5.465, "us-101-ab"),
    ("DZ C", "north of the Sonse Bos (506th)", 51.528, 5.5, "us-101-ab"),
    ("LZ W", "between DZ B and DZ C (101st gliders)", 51.536, 5.49, "us-101-ab"),
]
ZONE_HEX = {z[0]: open_hex(z[2], z[3]) for z in ZONES}

ENTRIES: dict[str, tuple[str, str]] = {
    # id: (hex, what)
    "joes-bridge": ("0881", "Hell's Highway from Joe's bridge (Neerpelt), south edge"),
    "boxtel": ("0162", "road from Boxtel, west edge"),
    "den-bosch": ("0147", "road from 's-Hertogenbosch via Schijndel, west edge"),
    "oss": ("0135", "road from 's-Hertogenbosch via Oss, west edge"),
    "apeldoorn": ("4501", "road from Apeldoorn, north edge"),
    "ede": ("2301", "road from Ede and the Grebbe line, north edge"),
    "zevenaar": ("5008", "road from Zevenaar and Emmerich, east edge"),
    "pannerden": ("5018", "the Pannerden ferry onto the Island, east edge"),
    "venlo": ("5072", "road from Venlo via Helmond, east edge"),
    "kleve-groesbeek": ("5032", "road from Kleve via Groesbeek, east edge (Reichswald)"),
    "kleve-beek": ("5027", "road from Kleve via Wyler and Beek, east edge"),
    "gennep": ("5044", "road from Gennep and Venlo, east bank of the Maas"),
}

# -- units -----------------------------------------------------------------------------------------

UNITS: list[dict[str, Any]] = []

HQ_SUPPLY: dict[str, tuple[int, int]] = {
    # type -> (ammunition, fuel) held at the start (never above the type's lift)
    "gb-div-hq": (2, 2), "gb-bde-hq": (4, 2), "gb-armd-bde-hq": (4, 4),
    "gb-airborne-div-hq": (2, 0), "gb-airborne-bde-hq": (4, 0),
    "us-airborne-div-hq": (2, 0), "us-airborne-regt-hq": (4, 0),
    "de-div-hq": (2, 2), "de-regt-hq": (3, 2),
    "gb-rasc-coy": (6, 4), "de-skw-kolonne": (5, 5), "de-fahrkolonne": (4, 0),
}


def unit(uid: str, name: str, type_: str, div: str, hq: str | None, where: dict[str, Any], *,
         steps: int = 0, note: str = "", objective: tuple[str, str] | None = None,
         ad_hoc: bool = False) -> None:
    d = DIV[div]
    u: dict[str, Any] = {"id": uid, "name": name, "type": type_, "side": SIDE[d["corps"]],
                         "division": div, "corps": d["corps"]}
    if hq is not None:
        u["hq"] = hq
    u.update(where)
    if steps:
        u["steps_lost"] = steps
    if ad_hoc:
        u["ad_hoc"] = True
    if type_ in HQ_SUPPLY:
        a, f = HQ_SUPPLY[type_]
        u["supply"] = {"ammo": a, "fuel": f}
    if objective is not None:
        u["objective"] = {"hex": objective[0], "what": objective[1]}
    if note:
        u["note"] = note
    UNITS.append(u)


def setup(hex_: str) -> dict[str, Any]:
    return {"setup": hex_}


def air(t: int, zone: str) -> dict[str, Any]:
    return {"arrival": {"turn": t, "by": "air", "zone": zone, "hex": ZONE_HEX[zone]}}


def road(t: int, entry: str) -> dict[str, Any]:
    return {"arrival": {"turn": t, "by": "road", "entry": entry, "hex": ENTRIES[entry][0]}}


T1, T2, T3, T4, T5, T6, T7 = 1, 2, 3, 4, 5, 6, 7
ARNHEM_BRIDGE_N = "4409"


def allied() -> None:
    # 1st British Airborne Division: first lift 17 Sep pm, second 18 Sep pm (late), third 19 pm
    div = "gb-1-ab"
    unit("gb-1ab-hq", "HQ 1st Airborne Division", "gb-airborne-div-hq", div, None, air(T2, "LZ Z"))
    unit("gb-1-para-bde-hq", "HQ 1st Parachute Brigade", "gb-airborne-bde-hq", div, None,
         air(T2, "DZ X"))
    for n, obj in ((1, ("4206", "the high ground north of Arnhem")),
                   (2, (ARNHEM_BRIDGE_N, "Arnhem road bridge, north end")),
                   (3, (ARNHEM_BRIDGE_N, "Arnhem road bridge, by the Utrechtseweg"))):
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}[n]
        unit(f"gb-{n}-para", f"{ordinal} Parachute Battalion", "gb-para-bn", div,
             "gb-1-para-bde-hq", air(T2, "DZ X"), objective=obj,
             note=("the worked example's defender of the north end of Arnhem bridge"
                   if n == 2 else ""))
    unit("gb-1al-atk-bty", "1st Airlanding Anti-Tank Battery RA", "gb-al-atk-bty", div,
         "gb-1-para-bde-hq", air(T2, "LZ Z"), objective=(ARNHEM_BRIDGE_N, "with 2nd Para Bn"),
         note="the worked example's airlanding anti-tank battery beside 2nd Para Bn at the bridge "
              "(printed '5 AL Atk Bty' in the scan)")
    unit("gb-1-al-bde-hq", "HQ 1st Airlanding Brigade", "gb-airborne-bde-hq", div, None,
         air(T2, "LZ S"))
    for uid, name, zone in (("gb-1-border", "1st Bn Border Regiment", "LZ S"),
                            ("gb-7-kosb", "7th Bn King's Own Scottish Borderers", "LZ S"),
                            ("gb-2-staffords", "2nd Bn South Staffordshire Regiment", "LZ S")):
        unit(uid, name, "gb-airlanding-bn", div, "gb-1-al-bde-hq", air(T2, zone),
             note="half of 2nd South Staffords came with the second lift; counted with the first"
             if uid == "gb-2-staffords" else "")
    unit("gb-4-para-bde-hq", "HQ 4th Parachute Brigade", "gb-airborne-bde-hq", div, None,
         air(T4, "DZ Y"))
    for uid, name in (("gb-10-para", "10th Parachute Battalion"),
                      ("gb-11-para", "11th Parachute Battalion"),
                      ("gb-156-para", "156th Parachute Battalion")):
        unit(uid, name, "gb-para-bn", div, "gb-4-para-bde-hq", air(T4, "DZ Y"))
    unit("gb-1al-lt-regt", "1st Airlanding Light Regiment RA", "gb-al-light-regt", div, "gb-1ab-hq",
         air(T2, "LZ Z"))
    unit("gb-2al-atk-bty", "2nd Airlanding Anti-Tank Battery RA", "gb-al-atk-bty", div,
         "gb-4-para-bde-hq", air(T4, "LZ S"))
    unit("gb-1ab-recce", "1st Airborne Reconnaissance Squadron", "gb-airborne-recce-sqn", div,
         "gb-1ab-hq", air(T2, "LZ Z"))
    unit("gb-1ab-re", "1st Airborne Division Royal Engineers (1st, 4th Para Sqns, 9th Fd Coy)",
         "engineer-bn", div, "gb-1ab-hq", air(T2, "LZ Z"))
    # 1st Polish Independent Parachute Brigade: gliders 19 pm, drop at Driel 21 pm, rest 23 pm
    div = "pl-1-para"
    unit("pl-bde-hq", "HQ 1st Polish Independent Parachute Brigade", "gb-airborne-bde-hq", div,
         None, air(10, "DZ K"))
    unit("pl-atk-bty", "Polish Airlanding Anti-Tank Battery", "gb-al-atk-bty", div, "pl-bde-hq",
         air(T6, "LZ L"), steps=1,
         note="landed under fire on LZ L; one step lost on landing, as the histories tell it")
    unit("pl-1-para", "1st Polish Parachute Battalion", "gb-para-bn", div, "pl-bde-hq",
         air(14, "DZ O"), note="the master-map counter example ('1 Pol'); dropped near Grave on "
                               "23 Sep with part of the 3rd")
    unit("pl-2-para", "2nd Polish Parachute Battalion", "gb-para-bn", div, "pl-bde-hq",
         air(10, "DZ K"))
    unit("pl-3-para", "3rd Polish Parachute Battalion", "gb-para-bn", div, "pl-bde-hq",
         air(10, "DZ K"), steps=1, note="part of the battalion turned back on 21 Sep")
    # I Airborne Corps HQ landed with the 82nd
    unit("gb-i-ab-corps-hq", "HQ I Airborne Corps (Browning)", "gb-airborne-div-hq",
         "gb-i-ab-troops", None, air(T2, "DZ N"),
         note="corps HQ, landed by glider at Groesbeek with the 82nd")
    # 82nd Airborne Division
    div = "us-82-ab"
    unit("us-82-hq", "HQ 82nd Airborne Division", "us-airborne-div-hq", div, None, air(T2, "DZ N"))
    for regt, zone, objs in (
        ("504", "DZ O", ((3033, "Grave bridge"), (3833, "Heumen lock bridge"),
                         (3628, "Hatert and Honinghutje bridges"))),
        ("505", "DZ N", ((4632, "Groesbeek"), (4530, "Groesbeek heights"),
                         (4134, "Mook and the Maas-Waal canal"))),
        ("508", "DZ T", ((4024, "Nijmegen road bridge"), (4527, "Berg en Dal heights"),
                         (4628, "Wyler and the Reichswald edge"))),
    ):
        unit(f"us-{regt}-hq", f"HQ {regt}th Parachute Infantry Regiment", "us-airborne-regt-hq",
             div, None, air(T2, zone))
        for i, (ohex, what) in enumerate(objs, 1):
            ordinal = {1: "1st", 2: "2nd", 3: "3rd"}[i]
            unit(f"us-{i}-{regt}", f"{ordinal} Bn, {regt}th PIR", "us-para-bn", div,
                 f"us-{regt}-hq", air(T2, zone), objective=(f"{ohex:04d}", what))
    unit("us-325-hq", "HQ 325th Glider Infantry Regiment", "us-airborne-regt-hq", div, None,
         air(14, "DZ O"))
    for uid, name in (("us-1-325", "1st Bn, 325th GIR"), ("us-2-325", "2nd Bn, 325th GIR"),
                      ("us-2-401", "2nd Bn, 401st GIR (3rd Bn of the 325th)")):
        unit(uid, name, "us-glider-bn", div, "us-325-hq", air(14, "DZ O"),
             note="delayed by weather from 19 to 23 Sep")
    unit("us-376-pfab", "376th Parachute Field Artillery Bn", "us-airborne-arty-bn", div,
         "us-82-hq", air(T2, "DZ N"))
    unit("us-319-gfab", "319th Glider Field Artillery Bn", "us-airborne-arty-bn", div, "us-82-hq",
         air(T4, "DZ N"))
    unit("us-320-gfab", "320th Glider Field Artillery Bn", "us-airborne-arty-bn", div, "us-82-hq",
         air(T4, "DZ N"))
    unit("us-456-pfab", "456th Parachute Field Artillery Bn", "us-airborne-arty-bn", div,
         "us-82-hq", air(T6, "DZ N"))
    unit("us-80-aa", "80th Airborne AA (Anti-Tank) Bn", "us-airborne-at-bn", div, "us-82-hq",
         air(T4, "DZ N"))
    unit("us-307-eng", "307th Airborne Engineer Bn", "engineer-bn", div, "us-82-hq",
         air(T2, "DZ N"))
    # 101st Airborne Division
    div = "us-101-ab"
    unit("us-101-hq", "HQ 101st Airborne Division", "us-airborne-div-hq", div, None,
         air(T2, "DZ C"))
    unit("us-501-hq", "HQ 501st Parachute Infantry Regiment", "us-airborne-regt-hq", div, None,
         air(T2, "DZ A"))
    unit("us-1-501", "1st Bn, 501st PIR", "us-para-bn", div, "us-501-hq", air(T2, "DZ A-1"),
         objective=("1550", "Veghel bridges"))
    unit("us-2-501", "2nd Bn, 501st PIR", "us-para-bn", div, "us-501-hq", air(T2, "DZ A"),
         objective=("1550", "Veghel bridges"))
    unit("us-3-501", "3rd Bn, 501st PIR", "us-para-bn", div, "us-501-hq", air(T2, "DZ A"),
         objective=("1151", "Eerde and the highway"))
    unit("us-502-hq", "HQ 502nd Parachute Infantry Regiment", "us-airborne-regt-hq", div, None,
         air(T2, "DZ B"))
    unit("us-1-502", "1st Bn, 502nd PIR", "us-para-bn", div, "us-502-hq", air(T2, "DZ B"),
         objective=("0855", "Sint-Oedenrode"))
    unit("us-2-502", "2nd Bn, 502nd PIR", "us-para-bn", div, "us-502-hq", air(T2, "DZ B"))
    unit("us-3-502", "3rd Bn, 502nd PIR", "us-para-bn", div, "us-502-hq", air(T2, "DZ B"),
         objective=("0463", "Best bridge"))
    unit("us-506-hq", "HQ 506th Parachute Infantry Regiment", "us-airborne-regt-hq", div, None,
         air(T2, "DZ C"))
    for i in (1, 2, 3):
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}[i]
        unit(f"us-{i}-506", f"{ordinal} Bn, 506th PIR", "us-para-bn", div, "us-506-hq",
             air(T2, "DZ C"), objective=("1162", "Son bridge") if i < 3 else
             ("1069", "Eindhoven"))
    unit("us-327-hq", "HQ 327th Glider Infantry Regiment", "us-airborne-regt-hq", div, None,
         air(T4, "LZ W"))
    for uid, name, t in (("us-1-327", "1st Bn, 327th GIR", T4),
                         ("us-2-327", "2nd Bn, 327th GIR", T4),
                         ("us-1-401", "1st Bn, 401st GIR (3rd Bn of the 327th)", T6)):
        unit(uid, name, "us-glider-bn", div, "us-327-hq", air(t, "LZ W"),
             note="the split of the glider infantry between the 18 and 19 Sep lifts is a "
                  "judgement where the histories differ")
    unit("us-377-pfab", "377th Parachute Field Artillery Bn", "us-airborne-arty-bn", div,
         "us-101-hq", air(T6, "LZ W"))
    unit("us-321-gfab", "321st Glider Field Artillery Bn", "us-airborne-arty-bn", div,
         "us-101-hq", air(T6, "LZ W"))
    unit("us-907-gfab", "907th Glider Field Artillery Bn", "us-airborne-arty-bn", div,
         "us-101-hq", air(T6, "LZ W"), steps=1,
         note="part of the 19 Sep glider lift turned back or was lost")
    unit("us-81-aa", "81st Airborne AA (Anti-Tank) Bn", "us-airborne-at-bn", div, "us-101-hq",
         air(T4, "LZ W"))
    unit("us-326-eng", "326th Airborne Engineer Bn", "engineer-bn", div, "us-101-hq",
         air(T2, "LZ W"))

    # XXX Corps: up Hell's Highway from Joe's bridge
    div = "gb-gds-armd"
    unit("gb-gds-hq", "HQ Guards Armoured Division", "gb-div-hq", div, None,
         road(T2, "joes-bridge"))
    unit("gb-5-gds-bde-hq", "HQ 5th Guards Armoured Brigade", "gb-armd-bde-hq", div, None,
         road(T2, "joes-bridge"))
    unit("gb-2-ig", "2nd (Armoured) Bn Irish Guards", "gb-armd-regt", div, "gb-5-gds-bde-hq",
         road(T2, "joes-bridge"), note="the Irish Guards group led the break-out at 14.35")
    unit("gb-2-gg", "2nd (Armoured) Bn Grenadier Guards", "gb-armd-regt", div, "gb-5-gds-bde-hq",
         road(T3, "joes-bridge"))
    unit("gb-1-cg", "1st (Armoured) Bn Coldstream Guards", "gb-armd-regt", div, "gb-5-gds-bde-hq",
         road(T3, "joes-bridge"))
    unit("gb-1-gg", "1st (Motor) Bn Grenadier Guards", "gb-motor-bn", div, "gb-5-gds-bde-hq",
         road(T3, "joes-bridge"))
    unit("gb-32-gds-bde-hq", "HQ 32nd Guards Brigade", "gb-bde-hq", div, None,
         road(T3, "joes-bridge"))
    unit("gb-3-ig", "3rd Bn Irish Guards", "gb-rifle-bn", div, "gb-32-gds-bde-hq",
         road(T2, "joes-bridge"), note="with the Irish Guards group")
    unit("gb-5-cg", "5th Bn Coldstream Guards", "gb-rifle-bn", div, "gb-32-gds-bde-hq",
         road(T3, "joes-bridge"))
    unit("gb-1-wg", "1st Bn Welsh Guards", "gb-rifle-bn", div, "gb-32-gds-bde-hq",
         road(T4, "joes-bridge"))
    unit("gb-2-wg", "2nd (Armoured Reconnaissance) Bn Welsh Guards", "gb-armd-regt", div,
         "gb-32-gds-bde-hq", road(T4, "joes-bridge"))
    unit("gb-55-fd", "55th Field Regiment RA", "gb-field-regt", div, "gb-gds-hq",
         road(T2, "joes-bridge"))
    unit("gb-153-fd", "153rd (Leicestershire Yeomanry) Field Regiment RA", "gb-field-regt", div,
         "gb-gds-hq", road(T3, "joes-bridge"))
    unit("gb-21-atk", "21st Anti-Tank Regiment RA", "gb-at-regt", div, "gb-gds-hq",
         road(T3, "joes-bridge"))
    unit("gb-gds-re", "Guards Armoured Division Royal Engineers", "engineer-bn", div, "gb-gds-hq",
         road(T3, "joes-bridge"), note="bridged the Wilhelmina canal at Son on the night of 18/19")
    unit("gb-gds-rasc", "Guards Armoured Division RASC", "gb-rasc-coy", div, None,
         road(T4, "joes-bridge"))
    div = "gb-xxx-troops"
    unit("gb-xxx-hq", "HQ XXX Corps", "gb-div-hq", div, None, road(T3, "joes-bridge"))
    unit("gb-2-hcr", "2nd Household Cavalry Regiment", "gb-recce-regt", div, "gb-xxx-hq",
         road(T3, "joes-bridge"), note="its armoured cars were first to reach the airborne "
                                       "(Son, Grave, and Driel on 22 Sep)")
    unit("gb-agra-hq", "HQ 3rd Army Group Royal Artillery", "gb-bde-hq", div, None,
         road(T3, "joes-bridge"))
    for uid, name, t in (("gb-7-med", "7th Medium Regiment RA", T3),
                         ("gb-64-med", "64th Medium Regiment RA", T4),
                         ("gb-84-med", "84th Medium Regiment RA", T5)):
        unit(uid, name, "gb-medium-regt", div, "gb-agra-hq", road(t, "joes-bridge"))
    for i, t in ((1, T3), (2, T5), (3, T7)):
        unit(f"gb-xxx-rasc-{i}", f"XXX Corps Troops RASC, No. {i} Company", "gb-rasc-coy", div,
             None, road(t, "joes-bridge"))
    unit("gb-xxx-bridging", "XXX Corps bridging column RE", "engineer-bn", div, "gb-xxx-hq",
         road(T4, "joes-bridge"), note="the Bailey bridging column held back for the canals")
    # 43rd (Wessex) Division
    div = "gb-43-inf"
    unit("gb-43-hq", "HQ 43rd (Wessex) Infantry Division", "gb-div-hq", div, None,
         road(T6, "joes-bridge"))
    for bde, t, bns in (
        ("129", T6, (("gb-4-somli", "4th Bn Somerset Light Infantry"),
                     ("gb-4-wilts", "4th Bn Wiltshire Regiment"),
                     ("gb-5-wilts", "5th Bn Wiltshire Regiment"))),
        ("130", T7, (("gb-7-hamps", "7th Bn Hampshire Regiment"),
                     ("gb-4-dorset", "4th Bn Dorsetshire Regiment"),
                     ("gb-5-dorset", "5th Bn Dorsetshire Regiment"))),
        ("214", T7, (("gb-7-somli", "7th Bn Somerset Light Infantry"),
                     ("gb-1-worc", "1st Bn Worcestershire Regiment"),
                     ("gb-5-dcli", "5th Bn Duke of Cornwall's Light Infantry"))),
    ):
        unit(f"gb-{bde}-bde-hq", f"HQ {bde}th Infantry Brigade", "gb-bde-hq", div, None,
             road(t, "joes-bridge"))
        for uid, name in bns:
            unit(uid, name, "gb-rifle-bn", div, f"gb-{bde}-bde-hq", road(t, "joes-bridge"))
    for uid, name, type_ in (("gb-43-recce", "43rd Reconnaissance Regiment", "gb-recce-regt"),
                             ("gb-94-fd", "94th Field Regiment RA", "gb-field-regt"),
                             ("gb-112-fd", "112th Field Regiment RA", "gb-field-regt"),
                             ("gb-179-fd", "179th Field Regiment RA", "gb-field-regt"),
                             ("gb-59-atk", "59th Anti-Tank Regiment RA", "gb-at-regt"),
                             ("gb-8-mx", "8th Bn Middlesex Regiment (machine guns)",
                              "gb-rifle-bn"),
                             ("gb-43-re", "43rd Division Royal Engineers", "engineer-bn")):
        unit(uid, name, type_, div, "gb-43-hq", road(T7, "joes-bridge"))
    unit("gb-43-rasc", "43rd Division RASC", "gb-rasc-coy", div, None, road(T7, "joes-bridge"))
    # 8th Armoured Brigade
    div = "gb-8-armd"
    unit("gb-8-armd-hq", "HQ 8th Armoured Brigade", "gb-armd-bde-hq", div, None,
         road(T6, "joes-bridge"))
    for uid, name, type_, t in (
        ("gb-4-7-dg", "4th/7th Royal Dragoon Guards", "gb-armd-regt", T6),
        ("gb-13-18-h", "13th/18th Royal Hussars", "gb-armd-regt", T7),
        ("gb-sry", "Nottinghamshire (Sherwood Rangers) Yeomanry", "gb-armd-regt", 8),
        ("gb-12-krrc", "12th Bn King's Royal Rifle Corps (motor)", "gb-motor-bn", T7),
        ("gb-147-fd", "147th (Essex Yeomanry) Field Regiment RA", "gb-field-regt", T7),
    ):
        unit(uid, name, type_, div, "gb-8-armd-hq", road(t, "joes-bridge"))
    # 50th (Northumbrian) Division: the corridor's flanks, late
    div = "gb-50-inf"
    unit("gb-50-hq", "HQ 50th (Northumbrian) Infantry Division", "gb-div-hq", div, None,
         road(9, "joes-bridge"))
    for bde, t, bns in (
        ("69", 9, (("gb-5-ey", "5th Bn East Yorkshire Regiment"),
                   ("gb-6-gh", "6th Bn Green Howards"), ("gb-7-gh", "7th Bn Green Howards"))),
        ("151", 10, (("gb-6-dli", "6th Bn Durham Light Infantry"),
                     ("gb-8-dli", "8th Bn Durham Light Infantry"),
                     ("gb-9-dli", "9th Bn Durham Light Infantry"))),
        ("231", 11, (("gb-2-devon", "2nd Bn Devonshire Regiment"),
                     ("gb-1-hamps", "1st Bn Hampshire Regiment"),
                     ("gb-1-dorset", "1st Bn Dorsetshire Regiment"))),
    ):
        unit(f"gb-{bde}-bde-hq", f"HQ {bde}th Infantry Brigade", "gb-bde-hq", div, None,
             road(t, "joes-bridge"))
        for uid, name in bns:
            unit(uid, name, "gb-rifle-bn", div, f"gb-{bde}-bde-hq", road(t, "joes-bridge"))
    for uid, name, type_ in (("gb-61-recce", "61st Reconnaissance Regiment", "gb-recce-regt"),
                             ("gb-74-fd", "74th Field Regiment RA", "gb-field-regt"),
                             ("gb-90-fd", "90th Field Regiment RA", "gb-field-regt"),
                             ("gb-124-fd", "124th Field Regiment RA", "gb-field-regt"),
                             ("gb-102-atk", "102nd Anti-Tank Regiment RA", "gb-at-regt")):
        unit(uid, name, type_, div, "gb-50-hq", road(10, "joes-bridge"))
    unit("gb-50-rasc", "50th Division RASC", "gb-rasc-coy", div, None, road(10, "joes-bridge"))


def german() -> None:
    # 9. SS: north and east of Arnhem on 17 Sep, refitting; Alarm units formed the same day
    div = "de-9-ss"
    unit("de-9ss-hq", "Stab 9. SS-Pz.Div. (Harzer)", "de-div-hq", div, None, setup(at(52.05, 5.93)))
    unit("de-kg-spindler-hq", "Stab KG Spindler", "de-regt-hq", div, None, setup(at(52.0, 5.88)))
    unit("de-kg-graebner-hq", "Stab KG Graebner (SS-Pz.Aufkl.Abt. 9)", "de-regt-hq", div, None,
         setup(at(52.045, 5.9)))
    unit("de-9ss-pzgr-19", "Btl SS-Pz.Gren.Rgt. 19", "de-weak-pzgren-bn", div, "de-kg-spindler-hq",
         setup(at(52.025, 5.915)))
    unit("de-9ss-pzgr-20", "Btl SS-Pz.Gren.Rgt. 20 ('20 SS PzGR Bn')", "de-weak-pzgren-bn", div,
         "de-kg-spindler-hq", setup(at(52.015, 5.925)),
         note="the worked example's attacker at status 6 (Weak PzGren, undamaged)")
    for uid, name, lat, lon in (
        ("de-9ss-pzjg", "SS-Pz.Jg.Abt. 9 (as infantry)", 52.02, 5.895),
        ("de-9ss-pz", "SS-Pz.Rgt. 9 (as infantry)", 52.035, 5.905),
        ("de-9ss-pzart-inf", "SS-Pz.Art.Rgt. 9 (as infantry)", 52.005, 5.9),
    ):
        unit(uid, name, "de-ad-hoc-bn", div, "de-kg-spindler-hq", setup(at(lat, lon)), ad_hoc=True,
             note="the worked example: fighting as infantry, status 4, light infantry (note 3)")
    unit("de-9ss-art", "I./SS-Pz.Art.Rgt. 9", "de-field-arty-bn", div, "de-9ss-hq",
         setup(at(52.04, 5.92)), steps=1, note="the regiment's remaining guns")
    unit("de-9ss-aufkl", "SS-Pz.Aufkl.Abt. 9 (Graebner)", "de-pz-recce", div, "de-kg-graebner-hq",
         setup(at(52.045, 5.905)), note="crossed Arnhem bridge southward on 17 Sep, and came back "
                                        "against it on the 18th")
    unit("de-9ss-pi", "SS-Pz.Pi.Btl. 9 (KG Moeller)", "engineer-bn", div, "de-kg-graebner-hq",
         setup(at(52.03, 5.93)))
    unit("de-9ss-flak", "SS-Flak-Abt. 9", "de-light-flak", div, "de-9ss-hq",
         setup(at(52.035, 5.925)))
    unit("de-kg-krafft", "SS-Pz.Gren.Ausb.u.Ers.Btl. 16 (KG Krafft)", "de-weak-gren-bn", div,
         "de-kg-spindler-hq", setup(at(52.0, 5.805)),
         note="at Wolfheze on 17 Sep: blocked 1st Para Bde's northern route")
    unit("de-flak-swoboda", "Flak-Kampfgruppe Swoboda (Luftwaffe, Arnhem)", "de-heavy-flak", div,
         "de-9ss-hq", setup(at(51.985, 5.89)), note="Luftwaffe flak of the Arnhem defences, under "
                                                    "9. SS in the battle")
    unit("de-flak-arnhem-light", "le. Flak-Abt. (Arnhem)", "de-light-flak", div, "de-9ss-hq",
         setup(at(51.99, 5.92)))
    unit("de-9ss-kolonne", "Kraftwagenkolonne 9. SS", "de-skw-kolonne", div, None,
         setup(at(52.055, 5.93)))
    # 10. SS: east of the IJssel; over the Neder Rijn by the Pannerden ferry
    div = "de-10-ss"
    unit("de-10ss-hq", "Stab 10. SS-Pz.Div. (Harmel)", "de-div-hq", div, None, road(T3, "zevenaar"))
    unit("de-kg-brinkmann-hq", "Stab KG Brinkmann", "de-regt-hq", div, None, road(T3, "zevenaar"))
    unit("de-10ss-aufkl", "SS-Pz.Aufkl.Abt. 10 (Brinkmann)", "de-weak-pz-recce", div,
         "de-kg-brinkmann-hq", road(T3, "zevenaar"),
         note="closed the ring on the bridge from the east")
    unit("de-10ss-pzgr-21", "Btl SS-Pz.Gren.Rgt. 21", "de-weak-pzgren-bn", div,
         "de-kg-brinkmann-hq", road(T3, "zevenaar"))
    unit("de-kg-knaust", "Pz.Gren.Ausb.u.Ers.Btl. Bocholt (KG Knaust)", "de-weak-gren-bn", div,
         "de-kg-brinkmann-hq", road(T5, "zevenaar"))
    unit("de-pzkp-mielke", "Pz.Kp. Mielke (Pz III and IV)", "de-weak-pz-bn", div,
         "de-kg-brinkmann-hq", road(T5, "zevenaar"))
    unit("de-tiger-hummel", "s.Pz.Kp. Hummel (Tigers)", "de-heavy-pz-bn", div,
         "de-kg-brinkmann-hq", road(T6, "zevenaar"), steps=2,
         note="a company of the heavy battalion's profile, two steps down")
    unit("de-kg-reinhold-hq", "Stab KG Reinhold", "de-regt-hq", div, None, road(T4, "pannerden"))
    unit("de-10ss-euling", "SS-Btl. Euling", "de-weak-pzgren-bn", div, "de-kg-reinhold-hq",
         road(T4, "pannerden"),
         note="held the Valkhof and Hunner Park at the south end of the Waal bridge; a "
              "Hohenstaufen panzergrenadier battalion under KG Reinhold in the battle (the "
              "sources differ on its parent regiment), so in the 10. SS team here")
    unit("de-10ss-pz", "II./SS-Pz.Rgt. 10 (Pz IV)", "de-weak-pz-bn", div, "de-kg-reinhold-hq",
         road(T5, "pannerden"))
    unit("de-10ss-pi", "SS-Pz.Pi.Btl. 10", "engineer-bn", div, "de-kg-reinhold-hq",
         road(T5, "pannerden"))
    unit("de-10ss-art-1", "I./SS-Pz.Art.Rgt. 10", "de-field-arty-bn", div, "de-10ss-hq",
         road(T5, "pannerden"))
    unit("de-10ss-art-2", "II./SS-Pz.Art.Rgt. 10", "de-field-arty-bn", div, "de-10ss-hq",
         road(T6, "zevenaar"))
    unit("de-10ss-pzgr-22", "I./SS-Pz.Gren.Rgt. 22", "de-weak-pzgren-bn", div, "de-kg-reinhold-hq",
         road(T6, "pannerden"), note="the Island: Elst and the Betuwe")
    unit("de-kg-henke", "Fs.-Ausb.Rgt. Henke (KG Henke, Nijmegen)", "de-fj-bn", div,
         "de-kg-reinhold-hq", setup(at(51.842, 5.86)), steps=2,
         note="the Nijmegen garrison of 17 Sep: training troops, under KG Reinhold in the battle")
    unit("de-flak-nijmegen", "Flak-Abt. (Nijmegen bridges)", "de-heavy-flak", div,
         "de-kg-reinhold-hq", setup(at(51.848, 5.868)))
    unit("de-flak-nijmegen-light", "le. Flak (Nijmegen road bridge)", "de-light-flak", div,
         "de-kg-reinhold-hq", setup("4024"))
    unit("de-spzabt-506", "s.Pz.Abt. 506 (Koenigstiger)", "de-heavy-pz-bn", div,
         "de-kg-reinhold-hq", road(15, "pannerden"), note="reached the Island on 24 Sep")
    unit("de-10ss-kolonne", "Kraftwagenkolonne 10. SS", "de-skw-kolonne", div, None,
         road(T3, "zevenaar"))
    # Division von Tettau: a collection of training, naval, Luftwaffe and Dutch SS units
    div = "de-tettau"
    unit("de-tettau-hq", "Stab Division von Tettau", "de-div-hq", div, None, road(T2, "ede"))
    unit("de-lippert-hq", "Stab SS-Unterfuehrerschule Arnheim (Lippert)", "de-regt-hq", div, None,
         setup(at(51.99, 5.69)))
    unit("de-lippert-1", "SS-Uffz.Schule Arnheim, I. Btl", "de-weak-gren-bn", div, "de-lippert-hq",
         setup(at(51.99, 5.7)))
    unit("de-lippert-2", "SS-Uffz.Schule Arnheim, II. Btl", "de-weak-gren-bn", div,
         "de-lippert-hq", setup(at(51.98, 5.68)))
    unit("de-helle", "SS-Wach-Btl. 3 (Helle)", "de-weak-gren-bn", div, "de-lippert-hq",
         setup("2403"), steps=1, note="Dutch SS guard battalion: on Ginkel heath before 4th Para "
                                      "Bde landed")
    unit("de-tettau-west-hq", "Stab Rgt. Tettau-West (Schiffsstammabteilung and Luftwaffe)",
         "de-regt-hq", div, None, road(T3, "ede"))
    unit("de-ssa-10", "Schiffsstammabteilung 10 (Kriegsmarine)", "de-weak-gren-bn", div,
         "de-tettau-west-hq", road(T3, "ede"), steps=1)
    unit("de-eberwein", "SS-Btl. Eberwein", "de-weak-gren-bn", div, "de-tettau-west-hq",
         road(T3, "ede"))
    unit("de-fliegerhorst-2", "Fliegerhorst-Btl. 2 (Deelen)", "de-festungs-bn", div,
         "de-tettau-west-hq", setup(at(52.05, 5.87)))
    unit("de-landstorm", "SS-Landstorm Nederland (Btl)", "de-festungs-bn", div, "de-tettau-west-hq",
         setup("2411"))
    unit("de-pzkp-224", "Pz.Kp. 224 (captured French tanks)", "de-weak-pz-bn", div,
         "de-tettau-west-hq", road(T3, "ede"), steps=1)
    unit("de-art-184", "Art.Rgt. 184 (I. Abt)", "de-field-arty-bn-horse", div, "de-tettau-hq",
         road(T4, "ede"))
    unit("de-tettau-kolonne", "Fahrkolonne (Tettau)", "de-fahrkolonne", div, None, road(T3, "ede"))
    # Division z.b.V. 406: from the Reichswald against the 82nd
    div = "de-406"
    unit("de-406-hq", "Stab Div. z.b.V. 406 (Scherbening)", "de-div-hq", div, None,
         road(T3, "kleve-groesbeek"))
    unit("de-406-rgt-a-hq", "Stab Rgt. z.b.V. (Groesbeek)", "de-regt-hq", div, None,
         road(T3, "kleve-groesbeek"))
    unit("de-406-rgt-b-hq", "Stab Rgt. z.b.V. (Mook)", "de-regt-hq", div, None, road(T3, "gennep"))
    for i, (entry, hq) in enumerate((("kleve-groesbeek", "a"), ("kleve-groesbeek", "a"),
                                     ("kleve-beek", "a"), ("gennep", "b"), ("gennep", "b")), 1):
        unit(f"de-406-ls-{i}", f"Landesschuetzen-Btl. (406) No. {i}", "de-weak-gren-bn", div,
             f"de-406-rgt-{hq}-hq", road(T3, entry), steps=1,
             note="over-age home-defence troops; the names of the 406th's battalions vary in the "
                  "sources: numbered here")
    unit("de-406-ers", "Ersatz-Btl. (Wehrkreis VI)", "de-festungs-bn", div, "de-406-rgt-b-hq",
         road(T4, "gennep"))
    unit("de-406-art", "Art.Abt. (406)", "de-field-arty-bn-horse", div, "de-406-hq",
         road(T4, "kleve-groesbeek"), steps=1)
    unit("de-406-kolonne", "Fahrkolonne (406)", "de-fahrkolonne", div, None,
         road(T3, "kleve-groesbeek"))
    div = "de-fj-meindl"
    unit("de-fj-hermann-hq", "Stab Fs.Rgt. Hermann", "de-regt-hq", div, None,
         road(7, "kleve-beek"))
    for i, entry in ((1, "kleve-beek"), (2, "kleve-groesbeek"), (3, "kleve-groesbeek")):
        unit(f"de-fj-hermann-{i}", f"{'I' * i}./Fs.Rgt. Hermann", "de-fj-bn", div,
             "de-fj-hermann-hq", road(7, entry), steps=1)
    unit("de-fj-becker-hq", "Stab KG Becker (3. Fs.Jg.Div.)", "de-regt-hq", div, None,
         road(7, "gennep"))
    for i in (1, 2):
        unit(f"de-fj-becker-{i}", f"{'I' * i}./KG Becker", "de-fj-bn", div, "de-fj-becker-hq",
             road(7, "gennep"), steps=1, note="attacked Mook and Riethorst on 20 Sep")
    # Kampfgruppe Walther: facing XXX Corps at the Neerpelt bridgehead on 17 Sep
    div = "de-kg-walther"
    unit("de-walther-hq", "Stab KG Walther", "de-div-hq", div, None, setup(at(51.38, 5.47)))
    unit("de-hoffmann-hq", "Stab Fs.Rgt. von Hoffmann", "de-regt-hq", div, None,
         setup(at(51.36, 5.455)))
    for i, lon in ((1, 5.44), (2, 5.46), (3, 5.48)):
        unit(f"de-hoffmann-{i}", f"{'I' * i}./Fs.Rgt. von Hoffmann", "de-fj-bn", div,
             "de-hoffmann-hq", setup(at(51.345, lon)), steps=1)
    unit("de-heinke-hq", "Stab SS-KG Heinke", "de-regt-hq", div, None, setup(at(51.36, 5.5)))
    unit("de-ss-segler", "SS-Btl. Segler", "de-weak-gren-bn", div, "de-heinke-hq",
         setup(at(51.35, 5.5)))
    unit("de-ss-richter", "SS-Btl. Richter", "de-weak-gren-bn", div, "de-heinke-hq",
         setup(at(51.35, 5.42)))
    unit("de-559-kp", "1./s.Pz.Jg.Abt. 559 (StuG and Jagdpanther)", "de-weak-jgpz-bn", div,
         "de-hoffmann-hq", setup(at(51.355, 5.462)))
    unit("de-559", "s.Pz.Jg.Abt. 559 (main body)", "de-heavy-jgpz-bn", div, "de-hoffmann-hq",
         road(11, "venlo"), steps=1, note="with the attacks on Veghel from the east, 22-24 Sep")
    unit("de-walther-art", "Art.Abt. (KG Walther)", "de-field-arty-bn", div, "de-walther-hq",
         setup(at(51.375, 5.46)), steps=1)
    unit("de-walther-flak", "le. Flak-Abt. (Eindhoven)", "de-light-flak", div, "de-walther-hq",
         setup("1069"))
    unit("de-walther-kolonne", "Kraftwagenkolonne (KG Walther)", "de-skw-kolonne", div, None,
         setup(at(51.4, 5.5)))
    # Panzer-Brigade 107: from the east against Son (19 Sep) and Veghel (22 Sep)
    div = "de-107-pz"
    unit("de-107-hq", "Stab Pz.Brig. 107", "de-regt-hq", div, None, road(T5, "venlo"))
    unit("de-107-pz", "Pz.Abt. 2107 (Panther)", "de-pz-bn", div, "de-107-hq", road(T5, "venlo"))
    unit("de-107-pzgr", "Pz.Gren.Btl. 2107", "de-pzgren-bn", div, "de-107-hq", road(T5, "venlo"))
    unit("de-107-pi", "Pz.Pi.Kp. 2107 and Brigade troops", "de-weak-pzgren-bn", div, "de-107-hq",
         road(T6, "venlo"))
    unit("de-107-kolonne", "Kraftwagenkolonne 107", "de-skw-kolonne", div, None, road(T5, "venlo"))
    # 59. Infanterie-Division: from Tilburg to Best
    div = "de-59-inf"
    unit("de-59-hq", "Stab 59. Inf.Div.", "de-div-hq", div, None, road(T3, "boxtel"))
    for rgt, t in (("1034", T3), ("1035", T4), ("1036", T5)):
        unit(f"de-gr-{rgt}-hq", f"Stab Gren.Rgt. {rgt}", "de-regt-hq", div, None,
             road(t, "boxtel"))
        for i in (1, 2):
            unit(f"de-gr-{rgt}-{i}", f"{'I' * i}./Gren.Rgt. {rgt}", "de-weak-gren-bn", div,
                 f"de-gr-{rgt}-hq", road(t, "boxtel"))
    unit("de-59-art-1", "I./Art.Rgt. 159", "de-field-arty-bn-horse", div, "de-59-hq",
         road(T4, "boxtel"))
    unit("de-59-art-2", "II./Art.Rgt. 159", "de-field-arty-bn-horse", div, "de-59-hq",
         road(T5, "boxtel"))
    unit("de-59-ig", "Inf.Gesch. (59. Inf.Div.)", "de-inf-gun-bn", div, "de-59-hq",
         road(T4, "boxtel"))
    unit("de-59-flak", "Flak (Best)", "de-heavy-flak", div, "de-59-hq", road(T4, "boxtel"),
         note="88s that fought the 502nd at Best")
    unit("de-59-kolonne", "Fahrkolonne 159", "de-fahrkolonne", div, None, road(T3, "boxtel"))
    # 245. Infanterie-Division: the western flank, from 21 Sep
    div = "de-245-inf"
    unit("de-245-hq", "Stab 245. Inf.Div.", "de-div-hq", div, None, road(9, "den-bosch"))
    for rgt, t, entry in (("935", 9, "den-bosch"), ("936", 10, "oss"), ("937", 11, "den-bosch")):
        unit(f"de-gr-{rgt}-hq", f"Stab Gren.Rgt. {rgt}", "de-regt-hq", div, None, road(t, entry))
        for i in (1, 2):
            unit(f"de-gr-{rgt}-{i}", f"{'I' * i}./Gren.Rgt. {rgt}", "de-weak-gren-bn", div,
                 f"de-gr-{rgt}-hq", road(t, entry))
    unit("de-245-art", "Art.Rgt. 245 (I. Abt)", "de-field-arty-bn-horse", div, "de-245-hq",
         road(10, "den-bosch"))
    unit("de-245-kolonne", "Fahrkolonne 245", "de-fahrkolonne", div, None, road(9, "den-bosch"))
    # Fallschirmjaeger-Regiment 6
    div = "de-6-fj"
    unit("de-6fj-hq", "Stab Fs.Jg.Rgt. 6 (von der Heydte)", "de-regt-hq", div, None,
         road(9, "den-bosch"))
    for i in (1, 2, 3):
        unit(f"de-6fj-{i}", f"{'I' * i}./Fs.Jg.Rgt. 6", "de-fj-bn", div, "de-6fj-hq",
             road(9, "den-bosch"), steps=0 if i == 1 else 1,
             note="with 245. Inf.Div. against Sint-Oedenrode and Koevering, 22-25 Sep")
    unit("de-6fj-rocket", "Werfer-Abt. (with Fs.Jg.Rgt. 6)", "de-rocket-bn", div, "de-6fj-hq",
         road(11, "den-bosch"))


# -- dumps, air, bridges ---------------------------------------------------------------------------

DUMPS: list[dict[str, Any]] = []


def dump(did: str, name: str, div: str, where: dict[str, Any], ammo: int, fuel: int,
         note: str = "") -> None:
    d = DIV[div]
    out: dict[str, Any] = {"id": did, "name": name, "side": SIDE[d["corps"]],
                           "nation": d["nation"], "division": div, "corps": d["corps"],
                           "type": "div-dump", "lift": 10, "reach_km": 10}
    out.update(where)
    out["stock"] = {"ammo": ammo, "fuel": fuel}
    if note:
        out["note"] = note
    DUMPS.append(out)


def dumps() -> None:
    dump("gb-1ab-dump", "1st Airborne Division maintenance area", "gb-1-ab", air(T2, "LZ Z"), 8, 0,
         "what the gliders brought: thereafter by air resupply, mostly lost to the Germans")
    dump("us-82-dump", "82nd Airborne Division supply point", "us-82-ab", air(T2, "DZ N"), 10, 0)
    dump("us-101-dump", "101st Airborne Division supply point", "us-101-ab", air(T2, "LZ W"), 10, 0)
    dump("gb-gds-dump", "Guards Armoured Division dump", "gb-gds-armd", road(T3, "joes-bridge"),
         20, 20)
    dump("gb-xxx-dump", "XXX Corps forward maintenance dump", "gb-xxx-troops",
         road(T4, "joes-bridge"), 30, 30)
    dump("gb-43-dump", "43rd Division dump", "gb-43-inf", road(T7, "joes-bridge"), 20, 10)
    dump("gb-50-dump", "50th Division dump", "gb-50-inf", road(10, "joes-bridge"), 20, 10)
    dump("de-9ss-dump", "Versorgung 9. SS (Arnhem-Nord)", "de-9-ss", setup(at(52.05, 5.915)),
         15, 10)
    dump("de-10ss-dump", "Versorgung 10. SS", "de-10-ss", road(T3, "zevenaar"), 15, 10)
    dump("de-tettau-dump", "Versorgung Div. von Tettau", "de-tettau", road(T3, "ede"), 10, 2)
    dump("de-406-dump", "Versorgung Div. 406", "de-406", road(T3, "kleve-groesbeek"), 10, 2)
    dump("de-walther-dump", "Versorgung KG Walther", "de-kg-walther", setup(at(51.41, 5.49)),
         10, 5)
    dump("de-59-dump", "Versorgung 59. Inf.Div.", "de-59-inf", road(T3, "boxtel"), 12, 2)
    dump("de-245-dump", "Versorgung 245. Inf.Div.", "de-245-inf", road(9, "den-bosch"), 12, 2)


AIR: list[dict[str, Any]] = []


def squadrons(aid: str, name: str, side: str, role: str, aircraft: str, n: int, base: str,
              region: str, note: str = "") -> None:
    out: dict[str, Any] = {"id": aid, "name": name, "side": side, "role": role,
                           "aircraft": aircraft, "squadrons": n, "base": base, "region": region}
    if note:
        out["note"] = note
    AIR.append(out)


def air_forces() -> None:
    eng, cont, reich = "england", "continent", "germany"
    for grp, base in (("439", "Balderton"), ("440", "Fulbeck"), ("441", "Langar"),
                      ("442", "Fulbeck"), ("61", "Barkston Heath"), ("313", "Folkingham"),
                      ("314", "Saltby"), ("315", "Spanhoe"), ("316", "Cottesmore"),
                      ("434", "Aldermaston"), ("435", "Welford"), ("436", "Membury"),
                      ("437", "Ramsbury"), ("438", "Greenham Common")):
        squadrons(f"us-{grp}-tcg", f"{grp}th Troop Carrier Group", "allied", "transport", "C-47",
                  4, f"off-map: {base}, England", eng)
    squadrons("gb-38-group", "No. 38 Group RAF", "allied", "transport",
              "Stirling, Halifax, Albemarle (glider tugs and supply)", 10,
              "off-map: Keevil, Fairford, Harwell, Tarrant Rushton, England", eng)
    squadrons("gb-46-group", "No. 46 Group RAF", "allied", "transport", "Dakota", 6,
              "off-map: Down Ampney, Broadwell, Blakehill Farm, England", eng,
              "flew most of the Arnhem resupply")
    for wing, n, sq in (("121", 4, "174, 175, 184, 245"), ("124", 4, "137, 181, 182, 247"),
                        ("143", 3, "438, 439, 440 RCAF"), ("146", 5, "193, 197, 257, 263, 266")):
        squadrons(f"gb-{wing}-wing", f"No. {wing} Wing RAF (Sqns {sq})", "allied",
                  "fighter-bomber", "Typhoon", n,
                  "off-map: Belgian airfields (Antwerp-Deurne, Brussels-Melsbroek; 124 Wing to "
                  "Eindhoven from 22 Sep)", cont,
                  "2nd TAF: Europe-based, so it may fly Cab Rank [12]")
    squadrons("gb-126-wing", "No. 126 Wing RCAF (Sqns 401, 411, 412, 442)", "allied", "fighter",
              "Spitfire IX", 4, "off-map: Belgian airfields (Le Culot, Brussels)", cont,
              "2nd TAF cover over the corridor")
    squadrons("gb-adgb-spitfire", "ADGB Spitfire and Tempest wings", "allied", "fighter",
              "Spitfire IX, Tempest V", 18, "off-map: East Anglia and Kent, England", eng,
              "escort and cover of the lifts; grounded when England is fogbound")
    for fg, n, ac in (("20", 3, "P-51"), ("55", 3, "P-51"), ("339", 3, "P-51"), ("352", 3, "P-51"),
                      ("357", 3, "P-51"), ("359", 3, "P-51"), ("361", 3, "P-51"),
                      ("364", 3, "P-51"), ("479", 3, "P-38 / P-51")):
        squadrons(f"us-{fg}-fg", f"{fg}th Fighter Group (8th AF)", "allied", "fighter", ac, n,
                  "off-map: East Anglia, England", eng)
    for fg in ("56", "78", "353"):
        squadrons(f"us-{fg}-fg", f"{fg}th Fighter Group (8th AF)", "allied", "fighter-bomber",
                  "P-47", 3, "off-map: East Anglia, England", eng,
                  "flak suppression along the fly-in routes")
    squadrons("gb-bomber-command", "RAF Bomber Command (Lancaster, Mosquito)", "allied",
              "heavy-bomber", "Lancaster", 6, "off-map: Lincolnshire, England", eng,
              "struck flak positions and the Arnhem barracks before the first lift, 17 Sep am")
    squadrons("us-8af-b17", "8th Air Force B-17 groups", "allied", "heavy-bomber", "B-17", 12,
              "off-map: East Anglia, England", eng, "flak suppression, 17 Sep am")
    for grp, n, ac in (("i-jg-26", 4, "Fw 190A"), ("ii-jg-26", 4, "Fw 190A"),
                       ("iii-jg-26", 4, "Bf 109G"), ("i-jg-27", 4, "Bf 109G"),
                       ("iii-jg-27", 4, "Bf 109G"), ("ii-jg-11", 4, "Bf 109G"),
                       ("iii-jg-11", 4, "Fw 190A"), ("iii-jg-3", 4, "Bf 109G"),
                       ("iii-jg-54", 4, "Fw 190A"), ("ii-jg-2", 4, "Fw 190A")):
        roman, jg = grp.split("-jg-")
        squadrons(f"de-{grp}", f"{roman.upper()}./JG {jg}", "german", "fighter", ac, n,
                  "off-map: airfields between the Rhine and the Ems (Rheine, Hopsten, "
                  "Plantluenne, Muenster)", reich, "a Gruppe of four Staffeln")
    squadrons("de-jabo", "Jabo-Staffeln of II. Jagdkorps", "german", "ground-attack",
              "Fw 190 (bombs)", 2, "off-map: Rhineland airfields", reich,
              "fighter-bombers against the bridges and the corridor")


def bridges() -> list[dict[str, Any]]:
    """Every bridge and ferry of the map, by its line name and hexside: class (light: class 9,
    infantry and transport only; heavy: class 40 and up) [6], capacity in unit points a phase [7],
    prepared for demolition (it dice to blow when fought over [8]; histories say which)."""
    spec: dict[str, tuple[str, int, bool, str]] = {
        "Best bridge": ("heavy", 30, True, "minor road bridge; blown by the Germans on 18 Sep"),
        "Son bridge": ("heavy", 40, True, "blown in the 506th's face on 17 Sep; Bailey bridge "
                                          "built 18/19 Sep"),
        "Sint-Oedenrode Dommel bridge": ("heavy", 40, False, "minor road bridge, taken intact"),
        "Veghel Aa bridge": ("heavy", 60, True, "main road, single lane; taken intact"),
        "Veghel canal bridge": ("heavy", 60, True, "main road, single lane; taken intact"),
        "Veghel rail bridge (Aa)": ("light", 15, False, "rail bridge: infantry only"),
        "Veghel rail bridge (Zuid-Willemsvaart)": ("light", 15, False, "rail bridge"),
        "Grave bridge": ("heavy", 120, True, "the great Maas bridge: taken intact by E Company, "
                                             "504th"),
        "Heumen lock bridge": ("heavy", 20, True, "narrow lock bridge, taken intact: XXX Corps' "
                                                  "way over the canal"),
        "Malden bridge": ("heavy", 30, True, "blown on 17 Sep"),
        "Hatert bridge": ("heavy", 30, True, "blown on 17 Sep"),
        "Honinghutje bridge": ("light", 20, True, "damaged by demolition: light traffic only"),
        "Nijmegen road bridge (Waalbrug)": ("heavy", 120, True, "main road bridge; taken 20 Sep, "
                                                                "never blown"),
        "Nijmegen rail bridge": ("light", 20, True, "rail bridge"),
        "Arnhem road bridge": ("heavy", 120, True, "main road bridge; the charges' leads were cut "
                                                   "and it was never blown"),
        "Oosterbeek rail bridge": ("light", 20, True, "blown in 2nd Para Bn's face on 17 Sep"),
        "Gennep rail bridge": ("light", 15, True, "rail bridge over the Maas"),
        "rail bridges": ("light", 15, False, "rail bridge"),
        "Driel ferry": ("light", 4, False, "civilian cable ferry (Heveadorp-Driel); lost 21 Sep"),
    }
    names: dict[str, tuple[str, str]] = {}
    for line in MAP["lines"]:
        if line["kind"] in ("bridge", "rail-bridge", "ferry"):
            for side in line["hexsides"]:
                names[side] = (line["name"], line["kind"])
    out: list[dict[str, Any]] = []
    for side in sorted(set(MAP["bridges"]) | set(names)):
        name, kind = names.get(side, ("", "bridge"))
        if name:
            cls, cap, prepared, note = spec[name]
        else:
            cls, cap, prepared, note = ("heavy", 30, False,
                                        "unnamed minor road bridge of the map (stream or canal)")
        out.append({"hexside": side, "name": name, "kind": kind, "class": cls, "capacity": cap,
                    "prepared": prepared, "note": note})
    return out


CHOKES_NOTE = (
    "RECONSTRUCTED: choke points off the bridges on Hell's Highway [7], the values of the text's "
    "guide: the towns where crowds of cheering civilians slowed XXX Corps (Valkenswaard, Eindhoven, "
    "Veghel, 50 a phase) and the single-lane stretches of the one main road north (Sint-Oedenrode, "
    "Uden, 60 a phase). Replace or drop them as data."
)
CHOKES = [  # hex, place, the text's kind, unit points a phase [7]
    ("0879", "Valkenswaard", "town with crowds", 50),
    ("1069", "Eindhoven", "town with crowds", 50),
    ("0855", "Sint-Oedenrode", "main road, single lane", 60),
    ("1550", "Veghel", "town with crowds", 50),
    ("2145", "Uden", "main road, single lane", 60),
]


RECONSTRUCTED = (
    "RECONSTRUCTED from the published histories of Operation Market Garden, 17-25 September "
    "1944; not from the printed megagame, whose order of battle the scan does not contain. "
    "Historical: the formations and their battalions, the drop and landing zones and the lift "
    "each unit came with, the days the German Kampfgruppen and the XXX Corps divisions came into "
    "the fight, the bridges and what became of them, the weather. Judged: each battalion's Annex A "
    "type (German units mostly 'weak' types or a step or two down, as Annex A advises); set-up "
    "hexes (places the histories name, rounded to the 1 km map; drop zones moved to the nearest "
    "open hex where the map's circular woods cover the heath); road entry turns within a half-day; "
    "the numbering of the 406th's battalions; the lift of each airborne artillery and glider "
    "unit where the histories differ; initial supplies, dumps and their stocks; the air "
    "order of battle (units that flew over the corridor, strengths in squadrons; German Gruppen as "
    "four Staffeln). Generated by scenarios/tools/gen_megagame_oob.py: edit the script, not this "
    "file. A player who owns the printed game may replace it."
)


def build() -> dict[str, Any]:
    UNITS.clear()
    DUMPS.clear()
    AIR.clear()
    allied()
    german()
    dumps()
    air_forces()
    return {
        "id": "megagame-market-garden-oob",
        "title": "Operation Market Garden, 17-25 September 1944: orders of battle for the megagame",
        "reconstructed": RECONSTRUCTED,
        "map": "market-garden-1km-map.json",
        "profiles": "megagame-profiles.json",
        "turns": [{"turn": turn(day, half), "date": f"1944-09-{day}", "half": half}
                  for day in DAYS for half in ("am", "pm")],
        "team_options": {
            "division": "one team per division (or independent brigade)",
            "corps": "one team per corps",
        },
        "corps": CORPS,
        "divisions": DIVISIONS,
        "zones": [{"id": z[0], "name": z[1], "hex": ZONE_HEX[z[0]], "division": z[4]}
                  for z in ZONES],
        "entries": [{"id": k, "hex": v[0], "name": v[1]} for k, v in ENTRIES.items()],
        "units": UNITS,
        "dumps": DUMPS,
        "air": AIR,
        "bridges": bridges(),
        "chokes_note": CHOKES_NOTE,
        "chokes": [{"hex": h, "name": n, "what": w, "capacity": c} for h, n, w, c in CHOKES],
        "weather": [{"turn": turn(day, half), "date": f"1944-09-{day}", "half": half, "sky": sky,
                     "flying_england": eng, "flying_continent": cont, "note": note}
                    for day, half, sky, eng, cont, note in WEATHER],
    }


if __name__ == "__main__":
    print(json.dumps(build(), ensure_ascii=False, indent=1))
