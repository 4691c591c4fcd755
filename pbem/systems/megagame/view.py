"""A team's view of a megagame [10]: what its commanders know, in words (no status number
anywhere): its own units, the friends near them, the enemy in sight, its units' reports, its
supplies."""

from __future__ import annotations

from typing import Any

from pbem.engine.ruleset import JSON
from pbem.maps.hexmap import Hex
from pbem.systems.megagame.board import nation_of, status_of, team_side, turn_label, unit_def
from pbem.systems.megagame.model import MegaScenario, MegaState, UnitDef
from pbem.systems.megagame.report import EnemySeen, battalions, unit_report
from pbem.systems.megagame.report import UnitFacts as Facts
from pbem.systems.megagame.tables import effectiveness

FRIENDS_KM = 10
"""How near another team's unit must be to one of a team's own to be in its view [10]."""


def state_words(scenario: MegaScenario, state: MegaState, uid: str) -> str:
    """A unit's effectiveness in words [10]; a defence-only unit (a headquarters, a supply column:
    its profile in round brackets) is not measured on the fighting units' scale."""
    t = scenario.types[unit_def(scenario, uid).type]
    status = status_of(scenario, state, uid)
    if t.mode != "defence" or status <= 0:
        return effectiveness(status)
    if status >= t.combat_profile().levels[0]:
        return "in good order (it can defend itself, not attack)"
    return "shaken (it can defend itself, not attack)"


def team_view(scenario: MegaScenario, state: MegaState, team: str, *, rules3: bool = True) -> JSON:
    """What ``team`` knows [10], as JSON: no status number anywhere. ``rules3`` (rules version 3):
    the supplies held at each of its HQs on the map, ``stacks`` (left out when it has none) [11]."""
    side = team_side(scenario, team)
    own, friends, ours = _own_and_friends(scenario, state, team)
    enemy = _enemy_seen(scenario, state, side, ours)
    reports = _reports(scenario, state, team)
    stacks = _stacks(scenario, state, team) if rules3 else []
    view: dict[str, Any] = {
        "turn": state.turn, "date": turn_label(scenario, state.turn), "over": state.over, "team": team,
        "supply": state.supply.get(team, 0), "units": own, "friends": friends, "enemy": enemy,
        "reports": reports, "air": list(state.intel.get(team, [])), "blown": list(state.blown),
        "air_lost": {a.id: state.air_lost[a.id] for a in scenario.air
                     if a.side == side and state.air_lost.get(a.id)},
        "night_drops": [uid for uid in state.night_drops if unit_def(scenario, uid).team == team],
        "cab_rank": (state.cab_rank[team].to_json()
                     if team in state.cab_rank and state.cab_rank[team].until >= state.turn else None),
        "objectives": [{"name": o.name, "hex": o.hex, "points": o.points,
                        "held_by": state.control.get(o.hex, o.held_by)} for o in scenario.objectives]}
    if stacks:
        view["stacks"] = stacks
    view.update(_marks(scenario, state, team))
    return view


def _marks(scenario: MegaScenario, state: MegaState, team: str) -> dict[str, Any]:
    """What the team's map draws of last turn (rules version 3, whose facts hold it): where each of
    its units went, and the hexes where they fought [10]; nothing (no key) when there is none."""
    moves = {u.id: list(f.path) for u in scenario.units
             if u.team == team and (f := state.facts.get(u.id)) is not None and len(f.path) > 1}
    fights = sorted({h for u in scenario.units if u.team == team and (f := state.facts.get(u.id)) is not None
                     for h in f.fights})
    out: dict[str, Any] = {}
    if moves:
        out["moves"] = moves
    if fights:
        out["fights"] = fights
    return out


def _stacks(scenario: MegaScenario, state: MegaState, team: str) -> list[dict[str, Any]]:
    """The supply stack of each of ``team``'s HQs on the map [11]: its points, the most it can carry,
    whose counters (the supply counters are on the map for the players to see)."""
    side = team_side(scenario, team)
    out: list[dict[str, Any]] = []
    for u in scenario.units:
        s = state.units[u.id]
        t = scenario.types[u.type]
        if u.team == team and t.kind == "hq" and s.hex is not None and not s.gone:
            out.append({"hq": u.id, "hex": s.hex, "points": s.stock, "lift": t.lift, "nation": nation_of(u, side)})
    return out


def _own_and_friends(scenario: MegaScenario, state: MegaState,
                     team: str) -> tuple[list[dict[str, Any]], list[dict[str, str]], list[Hex]]:
    """The team's units on the map in words, the other teams' units near enough to matter, and
    every hex its side holds (where it sees from)."""
    side = team_side(scenario, team)
    sides = {t.id: t.side for t in scenario.teams}
    own: list[dict[str, Any]] = []
    friends: list[dict[str, str]] = []
    ours: list[Hex] = []
    for u in scenario.units:
        s = state.units[u.id]
        if s.hex is None or s.gone:
            continue
        if u.team == team:
            own.append({"id": u.id, "hex": s.hex, "state": state_words(scenario, state, u.id),
                        "prepared": s.prepared, "landed": s.landed,
                        "rail": f"{s.rail.phase} (for {s.rail.to})" if s.rail else ""})
        if sides[u.team] == side:
            ours.append(Hex.parse(s.hex))
            if u.team != team:
                friends.append({"id": u.id, "team": u.team, "hex": s.hex})
    mine = [Hex.parse(o["hex"]) for o in own]
    # the other teams of the side: those near enough to matter (10 km of one of ours), as liaison
    # officers would report them -- a corps' whole order of battle would swell every report
    friends = [f for f in friends if any(Hex.parse(f["hex"]).distance(m) <= FRIENDS_KM for m in mine)]
    return own, friends, ours


def _enemy_seen(scenario: MegaScenario, state: MegaState, side: str, ours: list[Hex]) -> list[dict[str, str]]:
    """The enemy in contact or in sight of ``side`` (2 km of a hex it holds), hex by hex, in words:
    how many battalions, tanks named [6, 10]."""
    geo = scenario.map.geo
    sides = {t.id: t.side for t in scenario.teams}
    seen: dict[Hex, list[UnitDef]] = {}
    for u in scenario.units:
        s = state.units[u.id]
        if s.hex is None or s.gone or sides[u.team] == side:
            continue
        h = Hex.parse(s.hex)
        if any(h.distance(o) <= 2 for o in ours):  # in contact or within sight [6, 10]
            seen.setdefault(h, []).append(u)
    enemy = []
    for h in sorted(seen):
        units = seen[h]
        strength = sum(status_of(scenario, state, u.id) for u in units)
        tanks = any(scenario.types[u.type].kind == "armour" for u in units)
        enemy.append({"hex": str(h), "where": geo.near(h),
                      "seen": battalions(strength) + (", with tanks" if tanks else "")})
    return enemy


def _reports(scenario: MegaScenario, state: MegaState, team: str) -> list[str]:
    """The turn's report of each of the team's units that did something or met the enemy [10]."""
    geo = scenario.map.geo
    reports = []
    for u in scenario.units:
        f = state.facts.get(u.id)
        s = state.units[u.id]
        if u.team != team or f is None or not (f.events or f.enemy_status or f.enemy_tanks or f.supply_used):
            continue  # nothing to report of a unit that did nothing and met nobody
        facing = None
        if f.enemy_status or f.enemy_tanks:
            facing = EnemySeen(status=f.enemy_status, tanks=f.enemy_tanks, artillery=f.enemy_artillery,
                               air=f.enemy_air, formation=f.enemy_formation,
                               turns_in_contact=f.turns_in_contact)
        location = "lost" if s.gone else geo.near(Hex.parse(s.hex)) if s.hex else "not yet arrived"
        reports.append(unit_report(Facts(name=f"{u.name} ({u.id})", status=status_of(scenario, state, u.id),
                                         location=location, enemy=facing, supply_used=f.supply_used,
                                         events=tuple(f.events), words=state_words(scenario, state, u.id))))
    return reports
