"""A team's copy of the scenario: the secret set-up [2, 10].

In a megagame the teams never see the master map: each knows its own forces and what its
commanders can see. The scenario (every unit's start hex, arrival turn and supplies) is Game
Control's; each team receives a copy holding only what it may know at the start
(:meth:`pbem.engine.ruleset.Ruleset.scenario_copy`; the engine commits to the whole scenario and
to every copy in the genesis and releases the whole one with the publication after the game):

- its side's units (its own and the other teams' of its side, as liaison would tell it), their
  headquarters, supplies, trains and air forces;
- the enemy it can see at the start -- on the map within 2 km of one of its side's units, the
  distance the team's view uses [6, 10] -- only as an anonymous force on each such hex, sized
  as the report puts it (about so many battalions, tanks named) and nothing else: no identity,
  unit type, formation or status;
- everything public: the map, the teams, objectives, bridges, choke points, weather, victory; of
  the unit types only those of its own side's units (a type only the enemy fields would tell what
  it faces).

A copy is a scenario of this system like any other, and the initial view a team's pbem derives
from it is the view Game Control's pbem derives from the whole scenario (tested for every bundled
scenario), which is what lets a team check its first orders before any report.
"""

from __future__ import annotations

from typing import Any

from pbem.maps.hexmap import Hex
from pbem.systems.megagame.model import MegaScenario, UnitDef
from pbem.systems.megagame.report import battalions

SIGHT_KM = 2
"""How far a side sees the enemy at the start: the team view's distance [6, 10]."""


def _strength(words_of: int) -> int:
    """The smallest status the report's words for ``words_of`` give (about n battalions: 3n)."""
    n = (words_of + 1) // 3
    return 3 * n if n > 0 else 1


def team_copy(scenario: MegaScenario, data: dict[str, Any], team: str) -> dict[str, Any]:
    """The scenario data ``team`` holds (module docstring)."""
    sides = {t.id: t.side for t in scenario.teams}
    side = sides[team]
    ours = [u for u in scenario.units if sides[u.team] == side]
    start = [Hex.parse(u.hex) for u in ours if u.arrives <= 1]
    seen: dict[Hex, list[UnitDef]] = {}
    for u in scenario.units:
        if sides[u.team] == side or u.arrives > 1:
            continue
        h = Hex.parse(u.hex)
        if any(h.distance(o) <= SIGHT_KM for o in start):
            seen.setdefault(h, []).append(u)
    enemy_team = min(t for t, s in sides.items() if s != side)
    types = dict(data["types"])
    sightings: list[dict[str, Any]] = []
    for h in sorted(seen):
        units = seen[h]
        status = sum(scenario.types[u.type].combat_profile().status for u in units)
        tanks = any(scenario.types[u.type].kind == "armour" for u in units)
        type_id = f"seen-{h}"
        types[type_id] = {"profile": f"{_strength(status)}-0", "kind": "armour" if tanks else "infantry",
                          "troops": "tanks" if tanks else "infantry", "armoured": tanks,
                          "note": f"an enemy force seen at the start: {battalions(status)}"
                                  f"{', with tanks' if tanks else ''}; nothing more is known"}
        sightings.append({"id": f"enemy-{h}", "name": "enemy force", "team": enemy_team, "type": type_id,
                          "formation": "unknown", "hex": str(h)})
    keep = {u.id for u in ours}
    own_teams = {t for t, s in sides.items() if s == side}
    out = dict(data)
    out["units"] = [u for u in data["units"] if u["id"] in keep] + sightings
    used = {u["type"] for u in out["units"]}
    out["types"] = {k: v for k, v in types.items() if k in used}  # no type only the enemy fields
    for key in ("supply", "supply_per_turn"):
        if key in data:
            out[key] = {t: v for t, v in data[key].items() if t in own_teams}
    if "supply_arrivals" in data:
        out["supply_arrivals"] = [a for a in data["supply_arrivals"] if a["team"] in own_teams]
    if "trains" in data:
        out["trains"] = {s: v for s, v in data["trains"].items() if s == side}
    if "air" in data:
        out["air"] = [a for a in data["air"] if a["side"] == side]
    out["copy_for"] = team
    return out
