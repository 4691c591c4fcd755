"""The air phase of a megagame turn [9, 12, 13]: which squadrons fly (weather, losses for good,
cab ranks), the fighters of both sides meeting, bombing, recce, air resupply, the support of
attacks, airborne drops and the flak that meets them."""

from __future__ import annotations

from collections.abc import Mapping
from math import atan2, degrees, sqrt
from typing import Any, Literal

from pbem.engine.ruleset import JSON, Dice
from pbem.maps.hexmap import Hex
from pbem.systems.megagame import combat as cbt
from pbem.systems.megagame.board import AnyState, Board, BoardUnit, team_side, turn_label
from pbem.systems.megagame.model import AirUnit, CabRank, MegaScenario, TeamView
from pbem.systems.megagame.orders import AirRequest, OrderSheet
from pbem.systems.megagame.report import battalions
from pbem.systems.megagame.supply import HQ_REACH_KM
from pbem.systems.megagame.tables import (
    ReconTarget,
    air_resupply,
    drop,
    flak,
    glider_poor_terrain,
    interdiction,
    recce,
)
from pbem.systems.megagame.tables import fighters as air_combat

MISSION_ROLES: dict[str, tuple[str, ...]] = {
    "cas": ("fighter-bomber", "ground-attack"), "cab-rank": ("fighter-bomber", "ground-attack"),
    "bombing": ("fighter-bomber", "ground-attack"), "recce": ("fighter",), "escort": ("fighter",),
    "air-cover": ("fighter",), "transport": ("transport",), "heavy": ("heavy-bomber",),
}
"""Which squadrons fly each mission of the air orders [9, 12]."""


def flying(scenario: MegaScenario, turn: int, region: str) -> Literal["good", "limited", "none"]:
    """The flying weather of ``turn`` where ``region``'s squadrons are based [12] (bases in Germany
    share the continent's weather)."""
    for w in scenario.weather:
        if w.turn == turn:
            return w.england if region == "england" else w.continent
    return "good"


def _flying_squadrons(scenario: MegaScenario, unit: AirUnit, turn: int, lost: Mapping[str, int]) -> int:
    """Squadrons of one air unit that fly on ``turn``: those not lost in air combat [12, fighter
    against fighter], all of them in good weather, half (rounded down) in limited, none when
    nothing flies [12]."""
    left = max(0, unit.squadrons - lost.get(unit.id, 0))
    wx = flying(scenario, turn, unit.region)
    return left if wx == "good" else left // 2 if wx == "limited" else 0


def squadrons_available(scenario: MegaScenario, side: str, turn: int, mission: str,
                        lost: Mapping[str, int] | None = None) -> int:
    """Squadrons of ``side`` able to fly ``mission`` on ``turn``, less the squadrons ``lost`` (air
    unit -> squadrons) in the air combats of earlier turns [12]."""
    return sum(_flying_squadrons(scenario, a, turn, lost or {}) for a in scenario.air
               if a.side == side and a.role in MISSION_ROLES[mission])


def own_cab_rank(state: AnyState, team: str) -> CabRank | None:
    """``team``'s cab rank on call this turn [9], from the master state or the team's own view."""
    if isinstance(state, TeamView):
        return state.cab_rank if state.team == team else None
    cab = state.cab_rank.get(team)
    return cab if cab is not None and cab.until >= state.turn else None


def cab_rank_squadrons(scenario: MegaScenario, side: str, turn: int, lost: Mapping[str, int] | None = None) -> int:
    """Squadrons of ``side`` that may fly a cab rank on ``turn``: Europe-based ground attack only
    [9] (the Allies' alone: the Germans' are refused by the sheet check)."""
    return sum(_flying_squadrons(scenario, a, turn, lost or {}) for a in scenario.air
               if a.side == side and a.role in MISSION_ROLES["cab-rank"] and a.region == "continent")


def air_pools(scenario: MegaScenario, side: str, turn: int,
              lost: Mapping[str, int] | None = None) -> dict[tuple[str, ...], int]:
    """:func:`squadrons_available` for each mission's roles (in :data:`MISSION_ROLES`' order):
    each air unit's flying squadrons counted once and summed per role, not once per unit and
    mission (issue 28; the tests hold it to :func:`squadrons_available`)."""
    lost = lost or {}
    by_role: dict[str, int] = {}
    for a in scenario.air:
        if a.side == side:
            by_role[a.role] = by_role.get(a.role, 0) + _flying_squadrons(scenario, a, turn, lost)
    pools: dict[tuple[str, ...], int] = {}
    for roles in MISSION_ROLES.values():
        if roles not in pools:
            pools[roles] = sum(by_role.get(role, 0) for role in roles)
    return pools


def fighter_losses(scenario: MegaScenario, side: str, turn: int, lost: Mapping[str, int],
                   squadrons: int, role: str = "fighter") -> dict[str, int]:
    """Which of ``side``'s fighter units (or units of another ``role``: transports hit by flak) lose
    the ``squadrons`` shot down [12, 13]: those units in the scenario's order, each up to the
    squadrons it has flying today (one side's squadrons of a kind are pooled; which unit flew
    which is not told apart)."""
    out: dict[str, int] = {}
    for a in scenario.air:
        if squadrons <= 0:
            break
        if a.side != side or a.role != role:
            continue
        n = min(squadrons, _flying_squadrons(scenario, a, turn, lost))
        if n:
            out[a.id] = n
            squadrons -= n
    return out


def loss_words(lost: int, flew: int) -> str:
    """How a side hears of its own or the enemy's losses in an air combat: "light" or "heavy"
    losses, never a number ([12]: the umpires report light or heavy losses). Read: heavy when the
    squadrons lost are a fifth or more of those that flew (the table's heavier rate), else light."""
    return "heavy" if lost and 5 * lost >= flew else "light"


RESUPPLY_POINTS_PER_SQUADRON = 2
"""Supply points one transport squadron drops (RECONSTRUCTED: the text leaves the lift "to the
plan"; a squadron of C-47s or Stirlings is read as two points)."""


def air_phase(scenario: MegaScenario, turn: int, board: Board, orders: dict[str, OrderSheet], dice: Dice,
              intel: dict[str, list[str]]) -> list[JSON]:
    """The air orders before anything moves [9, 12]: each side's squadrons go to its teams' requests
    in team order while they last (a request beyond what flies is noted, not flown); the fighters
    of both sides (escort, air cover) meet first, the side with more squadrons attacking on the
    fighter table, and fighters that are not beaten intervene against the other side's transports
    and drops; bombing interdicts every enemy unit in the target hex [9] (rules version 3: heavy
    bombers given a target too, and every bombing before the transports, flak it pins down
    suppressed [13]); recce reports on the
    target hex to the team that asked; air transport drops supplies on a hex by the ready reckoner,
    collected by the team if one of its units is within 5 km [11, 12]. Close air support is flown
    in the combat it was asked for."""
    events: list[JSON] = []
    if not scenario.air:
        return events
    geo = board.geo
    flights = _flights(scenario, turn, board, orders, intel)
    lost_now = _air_to_air(scenario, turn, board, flights, dice, intel, events)
    for side_, other in (("allied", "german"), ("german", "allied")):
        # fighters on air cover that hold the sky break through to the other side's transports:
        # one serial out of action a squadron [12, "Fighter Vs Transport Aircraft"]
        cover = sum(n for _, s_, a, n in flights if s_ == side_ and a.mission == "air-cover")
        if cover and side_ in board.fighters_over and other not in board.fighters_over:
            board.stream_attack[other] = max(0, cover - lost_now.get(side_, 0))
    if board.rules3:  # the bombing (flak suppression among it) goes in before the transports [12c, 13]
        flights = sorted(flights, key=lambda f: not is_strike(f[2], rules3=True))  # stable: else in order
    for team, side, a, flown in flights:
        if a.mission not in ("recce", "transport") and not is_strike(a, rules3=board.rules3):
            continue
        if a.mission == "transport" and board.stream_attack.get(side):
            out = min(flown, board.stream_attack[side])
            board.stream_attack[side] -= out
            flown -= out
            intel.setdefault(team, []).append(
                f"enemy fighters broke through to our transports: {out} of {out + flown} squadron"
                f"{'s' if out + flown != 1 else ''} of supplies turned back")
            if not flown:
                continue
        target = Hex.parse(a.target)
        enemies = [u for u in board.at(target) if u.side != side]
        where = geo.near(target)
        if a.mission in ("bombing", "heavy"):  # heavy: its own column of the table [9] (version 3)
            heavy = a.mission == "heavy"
            events.append(_bombing(board, team, side, target, 0 if heavy else flown, enemies, dice, intel,
                                   heavy=flown if heavy else 0))
        elif a.mission == "recce" and board.rules3:
            board.recce_flights.append((team, side, a, flown))  # flown over the zone during the turn [12d]
        elif a.mission == "recce":
            die = dice.d6(f"12 recce {target} {team}")
            seen = _recce_words(scenario, board, enemies, target, die)
            events.append({"kind": "recce", "team": team, "at": str(target), "die": die, "seen": seen})
            intel.setdefault(team, []).append(f"air recce over {where}: {seen}")
        else:
            events.append(_resupply(board, team, side, target, flown, dice, intel))
    return events


Flight = tuple[str, str, AirRequest, int]
"""An air order flown: the team, its side, the order, the squadrons that flew it."""


def is_strike(a: AirRequest, *, rules3: bool) -> bool:
    """``a`` bombs a map square [9, 12c]: a bombing order, or (rules version 3) heavy bombers given
    a target hex on the air orders -- the interdiction table's "Heavy Squadrons per map square"
    column; heavy bombers with no target fly in support of the attacks that ask for them [9]."""
    return a.mission == "bombing" or (rules3 and a.mission == "heavy" and bool(a.target))


def _flights(scenario: MegaScenario, turn: int, board: Board, orders: dict[str, OrderSheet],
             intel: dict[str, list[str]]) -> list[Flight]:
    """Each side's squadrons given to its teams' air orders in team order while they last, the
    squadrons of a cab rank still on call from the turn before kept in the air [9, 12]; cab ranks
    and close air support noted on the board."""
    pools = {side: air_pools(scenario, side, turn, board.air_lost) for side in ("allied", "german")}
    europe = {side: cab_rank_squadrons(scenario, side, turn, board.air_lost) for side in ("allied", "german")}
    for team, cab in sorted(board.cab.items()):  # on call since the turn before: still in the air [9]
        side_of = team_side(scenario, team)
        pools[side_of][MISSION_ROLES["cab-rank"]] -= min(cab.squadrons, pools[side_of][MISSION_ROLES["cab-rank"]])
        europe[side_of] -= min(cab.squadrons, europe[side_of])
    flights: list[Flight] = []
    for team in sorted(orders):
        side: str = team_side(scenario, team)
        for a in orders[team].air_orders:
            roles = MISSION_ROLES[a.mission]
            flown = min(a.squadrons, pools[side][roles], europe[side] if a.mission == "cab-rank" else a.squadrons)
            if a.mission == "cab-rank":
                europe[side] -= flown
                if flown:
                    before = board.cab.get(team)
                    board.cab[team] = CabRank(squadrons=flown + (before.squadrons if before else 0), until=turn + 1)
                    cab = board.cab[team]
                    intel.setdefault(team, []).append(
                        f"cab rank: {cab.squadrons} squadrons on call for your attacks and defence, "
                        f"{cab.cover} squadron{'s' if cab.cover != 1 else ''}' worth of support, until the end of "
                        f"{turn_label(scenario, turn + 1)}")
            pools[side][roles] -= flown
            if flown < a.squadrons:
                intel.setdefault(team, []).append(
                    f"{a.mission}: only {flown} of {a.squadrons} squadron{'s' if a.squadrons != 1 else ''} "
                    "could be found to fly")
            if flown:
                flights.append((team, side, a, flown))
                if a.mission in SUPPORT and not is_strike(a, rules3=board.rules3):  # flown in the attacks of
                    # the team's lines that asked for it
                    board.support[(team, a.mission)] = board.support.get((team, a.mission), 0) + flown
    return flights


def _air_to_air(scenario: MegaScenario, turn: int, board: Board, flights: list[Flight], dice: Dice,
                intel: dict[str, list[str]], events: list[JSON]) -> dict[str, int]:
    """The fighters of both sides (escort, air cover) meet when both fly [12]: the larger force
    attacks on the fighter table, the beaten side's fighters no longer hold the sky, squadrons shot
    down are lost for good, each team told in words. Returns the squadrons each side lost (none
    when no air combat)."""
    fighters = {side: sum(n for _, s, a, n in flights if s == side and a.mission in ("escort", "air-cover"))
                for side in ("allied", "german")}
    board.fighters_over = {side for side, n in fighters.items() if n}
    if all(fighters.values()):  # air to air [12]: the larger force attacks
        big = max(fighters, key=lambda s: (fighters[s], s == "allied"))
        small = "german" if big == "allied" else "allied"
        die = dice.d6("12 air to air")
        fight = air_combat(fighters[big], fighters[small], die)
        beaten = small if fight.result == "win" else big if fight.result == "lose" else None
        if beaten is not None:
            board.fighters_over.discard(beaten)
        # no side loses more squadrons than it flew; the losses are for good [12]
        losses = {big: min(fight.attacker_losses, fighters[big]),
                  small: min(fight.defender_losses, fighters[small])}
        shot_down: dict[str, int] = {}
        for side_ in (big, small):
            shot_down.update(fighter_losses(scenario, side_, turn, board.air_lost, losses[side_]))
        for uid, n in shot_down.items():
            board.air_lost[uid] = board.air_lost.get(uid, 0) + n
        events.append({"kind": "air-combat", "attacker": big, "die": die, "result": fight.result,
                       "losses": losses, "units": shot_down})
        for team, flew, a, _ in flights:
            if a.mission in ("escort", "air-cover"):
                won = beaten is not None and beaten != flew
                them = small if flew == big else big
                intel.setdefault(team, []).append(
                    "our fighters met the enemy's: " + ("they held the sky" if won else
                                                        "the enemy held the sky" if beaten == flew else
                                                        "neither side gave way")
                    + f" (our losses {loss_words(losses[flew], fighters[flew])}, the enemy's "
                      f"{loss_words(losses[them], fighters[them])})")
        return losses
    return {}


def _bombing(board: Board, team: str, side: str, target: Hex, flown: int, enemies: list[BoardUnit], dice: Dice,
             intel: dict[str, list[str]], *, heavy: int = 0) -> JSON:
    """Bombing interdicts every enemy unit in ``target`` and stays on the hex for the turn [9]:
    ``flown`` tactical squadrons, ``heavy`` heavy ones (each kind its column of the table). Rules
    version 3: a flak unit it damages or immobilises is suppressed for the turn [13, 12c]."""
    where = board.geo.near(target)
    hit = []
    for u in enemies:
        die = dice.d6(f"9 interdiction {target} {u.d.id}")
        result = interdiction(flown, heavy, die)
        if result != "no effect":
            u.immobilised = True
            u.pinned_by = "from the air"
            if board.rules3 and u.t.flak is not None:
                # "If a flak unit is the victim of a flak suppression mission -- and it takes damage or
                # is immobilised ... then it is also suppressed for that turn" [13]
                board.suppressed.add(u.d.id)
            if result.startswith("step loss"):
                u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
            u.events.append(f"was attacked from the air at {where}: "
                            + ("losses, and pinned down" if result.startswith("step") else "pinned down"))
            u.enemy_air = True
        hit.append({"unit": u.d.id, "die": die, "result": result})
    # the strike stays on the hex: every enemy unit that tries to pass through it meets it [9]
    earlier = board.interdicted.get(target)
    same = earlier is not None and earlier[0] == side
    board.interdicted[target] = (side, flown + (earlier[1] if earlier and same else 0),
                                 heavy + (earlier[2] if earlier and same else 0))
    board.interdicted_by[target] = (board.interdicted_by.get(target, set()) if same else set()) | {"air"}
    # what the pilots can tell, not a count: an empty hex and a missed one read alike [10]
    intel.setdefault(team, []).append(
        f"{'heavy ' if heavy else ''}bombing of {where}: " + ("the pilots report hits" if any(h["result"] != "no effect" for h in hit)
                                   else "no result seen"))
    ev: dict[str, Any] = {"kind": "interdiction", "team": team, "at": str(target), "squadrons": flown or heavy,
                          "hits": hit}
    if heavy:
        ev["heavy"] = True
    return ev


def _resupply(board: Board, team: str, side: str, at: Hex, squadrons: int, dice: Dice,
              intel: dict[str, list[str]]) -> JSON:
    """Supplies dropped from the air on ``at`` [12 "Air Resupply"]: the ready reckoner with its
    factors (poor terrain, the zone contested by the enemy within 1 km, enemy fighters over the
    battle, enemy flak within 4 km not suppressed; rules version 3: polder poor terrain, airstrips
    and AFDAG); what lands joins the team's supplies if one of its units is
    within 5 km to collect it [11], else it is lost."""
    geo = board.geo
    factors = []
    strip = board.rules3 and str(at) in board.sc.airstrips
    # rules version 3: polder is poor ground here as for gliders ("poor terrain (e.g. marsh /
    # polder)" [12]), and supplies landed on an airstrip +2, +5 with an AFDAG deployed on it [12a]
    good = ("clear",) if board.rules3 else ("clear", "polder")
    if not strip and geo.terrain.get(at, "clear") not in good:
        factors.append("poor terrain")
    if strip:
        afdag = any(u.t.afdag and u.side == side and u.status > 0 for u in board.at(at))
        factors.append("airstrip with AFDAG" if afdag else "airstrip")
    if board.enemies_near(at, side, 1):
        factors.append("zone contested")
    if any(s != side for s in board.fighters_over):
        factors.append("enemy fighters")
    if any(e.t.flak is not None and e.d.id not in board.suppressed for e in board.enemies_near(at, side, 4)):
        factors.append("enemy flak")
    dropped = squadrons * RESUPPLY_POINTS_PER_SQUADRON
    for n in range(squadrons):  # each squadron a serial under the flak table [13]: air damage (the
        _, damage, _ = _flak_fire(board, side, at, f"resupply {team} {n + 1}", dice)  # reckoner has
        board.transport_damage[side] = board.transport_damage.get(side, 0) + damage   # flak's factor)
    die = dice.d6(f"12 air resupply {at} {team}")
    landed = air_resupply(dropped, die, tuple(factors))
    near = [u for g in board.geo.around(at, HQ_REACH_KM) for u in board.where.get(g, ()) if u.d.team == team]
    if board.rules3 and landed:
        collected, words = _collect(board, team, at, landed, near)
    else:
        collected = landed > 0 and bool(near)
        if collected:
            board.supply[team] = board.supply.get(team, 0) + landed
        words = "" if not landed else ", collected" if collected else ", but none of our units could reach them"
    where = geo.near(at)
    intel.setdefault(team, []).append(f"air resupply on {where}: {landed} of {dropped} supply points landed" + words)
    return {"kind": "resupply", "team": team, "at": str(at), "dropped": dropped, "die": die,
            "factors": factors, "landed": landed, "collected": collected}


def _collect(board: Board, team: str, at: Hex, landed: int, near: list[BoardUnit]) -> tuple[bool, str]:
    """Rules version 3 [11]: supplies landed go to the stacks of the team's HQs within 5 km of the
    drop, the nearest first, each as far as its lift leaves room; what is left to the team's own
    supplies if one of its units that draw on them (a unit the scenario gives no HQ) is within 5 km,
    else it is lost. Returns (collected at all, the air report's words)."""
    filled = board.fill(sorted({u.d.id: u for u in near if u.t.kind == "hq"}.values(), key=lambda u: u.d.id),
                        landed, at)
    left = landed - sum(n for _, n in filled)
    pool = left > 0 and any(board.stack_of(u) is None for u in near)
    if pool:
        board.supply[team] = board.supply.get(team, 0) + left
    parts = [f"{n} to {h.d.name}" for h, n in filled] + ([f"{left} to our units without an HQ"] if pool else [])
    if not parts:
        return False, (", but none of our HQs in reach could carry more" if near
                       else ", but none of our units could reach them")
    lost = "" if pool or not left else f"; {left} lost: no HQ of ours in reach could carry more"
    return True, ", collected: " + ", ".join(parts) + lost


def _recce_words(scenario: MegaScenario, board: Board, enemies: list[BoardUnit], at: Hex, die: int) -> str:
    """What a recce flight reports of a hex [12], in words (rules version 2, which flies it before
    anything moves; version 3: :func:`recce_phase`)."""
    if not enemies:
        return "no enemy seen"
    vehicles = all(u.t.mechanised for u in enemies)
    moving = any(u.km for u in enemies)
    target: Any = ("vehicles moving" if moving else "vehicles stationary") if vehicles else "infantry moving"
    if not vehicles and not moving:
        return "no report (infantry keeps still under cover)"
    cover = board.geo.close(at) and not (vehicles and board.geo.terrain.get(at) in ("town", "city"))
    got = recce(target, die, crowded=len(enemies) > 3, in_cover=cover)
    if got == "no report":
        return "no report"
    tanks = any(u.t.kind == "armour" for u in enemies)
    parts = []
    if "type" in got:
        parts.append("tanks" if tanks else "vehicles" if vehicles else "infantry")
    if "size" in got:
        parts.append(battalions(sum(u.status for u in enemies)))
    if "direction" in got:
        parts.append("on the move")
    return "enemy spotted" + (": " + ", ".join(parts) if parts else "")


AIR_ZONE_KM = 15
"""[12] "The map is divide up into air zones - each around 30km across"; a recce squadron reports
on "an air zone per squadron/move" [12d]: rules version 3 reads the zone as the hexes within 15 km
of the target hex the air orders give (30 km across, centred where the team asks)."""

COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")


def heading(start: Hex, end: Hex) -> str:
    """The main direction from ``start`` to ``end`` as a point of the compass (north up: the map's
    rows run north to south) -- the recce table's "Direction" [12d]."""
    (q0, r0, _), (q1, r1, _) = start.cube(), end.cube()
    dx = 1.5 * (q1 - q0)
    dy = sqrt(3) * ((r1 - r0) + (q1 - q0) / 2)
    return COMPASS[round(degrees(atan2(-dy, dx)) / 45) % 8]


def recce_target(board: Board, at: Hex, enemies: list[BoardUnit]) -> ReconTarget | None:
    """The recce table's column for the enemy in one hex [12d] (rules version 3), None when they
    are in cover ("Units in cover have a vanishing small chance of being spotted, so we ignore it
    here"; "Armoured and mechanised units in built up areas cannot claim cover"). Vehicles when
    every unit there is mechanised; moving when one of them moved this turn (the recce flies during
    the turn and sees the columns on the road). Infantry moving has its column; infantry standing
    still in the open, not in cover, is read on the stationary column of the table ("Vehicles
    stationary in open"): a target standing in the open, with no direction to report."""
    vehicles = all(u.t.mechanised for u in enemies)
    if board.geo.close(at) and not (vehicles and board.geo.terrain.get(at) in ("town", "city")):
        return None
    moving = any(u.km for u in enemies)
    if vehicles:
        return "vehicles moving" if moving else "vehicles stationary"
    return "infantry moving" if moving else "vehicles stationary"


def recce_phase(board: Board, dice: Dice, intel: dict[str, list[str]]) -> list[JSON]:
    """Air recce in rules version 3 [12d], after the movement it watches (version 2 flew it before
    anything moved, so no unit was ever seen moving): each recce order looks over the air zone of
    its target (:data:`AIR_ZONE_KM`); every hex of the zone with enemy not in cover is a target, one
    die each in hex order, read on its column (:func:`recce_target`), +1 with more than three units
    there. The team hears only the sightings, each near its place: the type (tanks, vehicles,
    infantry), the size (in battalions), the direction of the move; nothing else -- a zone with
    nothing seen reads "no report", empty or not. The enemy's supply counters parked in the open
    (not in woods or built-up areas) are a target of their own, read on the table's "Supplies
    stationary in open" column (6: type -- "supplies"; 5: enemy spotted; less: no report), after the
    units of their hex."""
    geo = board.geo
    events: list[JSON] = []
    for team, side, a, _flown in board.recce_flights:
        centre = Hex.parse(a.target)
        looks: list[JSON] = []
        seen: list[str] = []
        for h in sorted(geo.around(centre, AIR_ZONE_KM)):
            enemies = [u for u in board.at(h) if u.side != side]
            target = recce_target(board, h, enemies) if enemies else None
            if target is not None:
                die = dice.d6(f"12 recce {h} {team}")
                got = recce(target, die, crowded=len(enemies) > 3)
                words = "no report" if got == "no report" else "enemy spotted" + _sighting(board, enemies, got)
                looks.append({"hex": str(h), "die": die, "target": target, "seen": words})
                if got != "no report":
                    seen.append(f"{words} at {geo.near(h)}")
            if not geo.close(h) and any(p.hex == str(h) and team_side(board.sc, p.team) != side
                                        for p in board.parked):
                # the table's "Supplies stationary in open": the enemy's parked counters are a target of
                # their own, one die more (+1 with more than three units in the square, as for units)
                die = dice.d6(f"12 recce {h} {team} supplies")
                got = recce("supplies stationary", die, crowded=len(enemies) > 3)
                words = {"type": "enemy spotted: supplies", "enemy spotted": "enemy spotted"}.get(got, "no report")
                looks.append({"hex": str(h), "die": die, "target": "supplies stationary", "seen": words})
                if got != "no report":
                    seen.append(f"{words} at {geo.near(h)}")
        events.append({"kind": "recce", "team": team, "at": str(centre), "zone_km": AIR_ZONE_KM, "looks": looks})
        intel.setdefault(team, []).append(f"air recce over the zone around {geo.near(centre)}: "
                                          + ("; ".join(seen) or "no report"))
    board.recce_flights = []
    return events


def _sighting(board: Board, enemies: list[BoardUnit], got: str) -> str:
    """The details of a sighting the die gives [12d]: type, size, direction, as far as ``got`` says."""
    parts = []
    if "type" in got:
        vehicles = all(u.t.mechanised for u in enemies)
        parts.append("tanks" if any(u.t.kind == "armour" for u in enemies) else "vehicles" if vehicles
                     else "infantry")
    if "size" in got:
        parts.append(battalions(sum(u.status for u in enemies)))
    if "direction" in got:
        mover = next(u for u in enemies if u.km)
        start = board.start.get(mover.d.id)
        parts.append(f"moving {heading(start, mover.hex)}" if start is not None and mover.hex is not None
                     and start != mover.hex else "on the move")
    return ": " + ", ".join(parts) if parts else ""


SUPPORT = ("cas", "heavy")
"""Air missions flown in support of an attack: ground attack squadrons, heavy bombers [9, 12]."""


def support_level(board: Board, attackers: list[BoardUnit], side: str) -> cbt.AirLevel:
    """The air support of an attack [9]: the squadrons its lines asked for, as far as they flew
    (a team's requests beyond what its side could fly are cut in the air orders; what flew is spent
    attack by attack), each kind on its own row of the table -- ground attack, heavy bombers -- and
    the better level of the two counts (reading: the text gives no rule for both at once)."""
    asked: dict[tuple[str, str], int] = {}
    for u in attackers:
        for a in (u.line.air if u.line else []):
            if a.mission in SUPPORT:
                asked[(u.d.team, a.mission)] = asked.get((u.d.team, a.mission), 0) + a.squadrons
    flown = {"cas": 0, "heavy": 0}
    for (team, mission), n in sorted(asked.items()):
        got = min(n, board.support.get((team, mission), 0))
        board.support[(team, mission)] = board.support.get((team, mission), 0) - got
        flown[mission] += got
    flown["cas"] += cab_cover(board, attackers)
    levels = [cbt.air_level("allied-ground-attack" if side == "allied" else "german-ground-attack", flown["cas"])
              if flown["cas"] else "none",
              cbt.air_level("heavy-bomber", flown["heavy"]) if flown["heavy"] else "none"]
    return max(levels, key=lambda lv: cbt.AIR_FACTOR[lv])


def cab_cover(board: Board, units: list[BoardUnit]) -> int:
    """The squadrons of cover the cab ranks of ``units``' teams give a combat they fight in [9]:
    on call, each rank answers every combat of its formation that turn (a reading)."""
    return sum(board.cab[t].cover for t in sorted({u.d.team for u in units}) if t in board.cab)


def airborne_drop(scenario: MegaScenario, board: Board, u: BoardUnit, turn: int, dice: Dice, *, night: bool = False) -> JSON:
    """One unit delivered by parachute or glider [12]: the drop table with the enemy on the drop
    zone (an enemy unit within 1 km) and flak within 4 km as modifiers, and by day unbeaten enemy
    fighters over the battle; a loss is a step. By day a lost step is lost for good on a second 1,
    else it comes back after one clear turn, "i.e. the next day": at the end of the turn after the
    drop's (rules version 3; version 2: at the end of the turn of the drop). By night (ordered with
    :func:`night_lift`) the night table: a loss on a 1 or 2, for good on a second 1 or 2, else the
    scattered men come in after 1d6 turns, the turn of the drop the first of them (a 1: as by
    day). A unit landing by glider (``UnitDef.glider``) on marsh or polder rolls once more: a 1 is
    a permanent status loss."""
    at = Hex.parse(u.d.hex)
    enemy_on_dz = bool(board.enemies_near(at, u.side, 1))
    flak_near = any(e.t.flak is not None and e.d.id not in board.suppressed
                    for e in board.enemies_near(at, u.side, 4))
    first, second = dice.d6(f"12 drop {u.d.id} (1)"), dice.d6(f"12 drop {u.d.id} (2)")
    fighters = any(s != u.side for s in board.fighters_over)
    result = drop(first, second, night=night, fighters=fighters, flak=flak_near, enemy_on_dz=enemy_on_dz)
    words = {"intact": "landed together", "status loss, recovered later": "landed scattered",
             "permanent status loss": "suffered heavy losses landing"}[result]
    ev: dict[str, Any] = {"kind": "drop", "unit": u.d.id, "dice": [first, second], "enemy_on_dz": enemy_on_dz,
                          "flak": flak_near, "fighters": fighters, "result": result, "turn": turn}
    if result != "intact":
        u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
        if result == "status loss, recovered later":
            u.scattered += 1
            if not night and board.rules3:
                # "the lost status is recovered the after 1 clear turn (i.e the next day)" [12]: the
                # turn of the drop, then one clear turn; back at the end of that turn (rules version 3;
                # version 2 gave it back at the end of the turn of the drop)
                board.stragglers[u.d.id] = turn + 1
            if night:
                wait = dice.d6(f"12 night drop {u.d.id} stragglers")
                board.stragglers[u.d.id] = turn + wait - 1
                ev["stragglers_die"] = wait
    if u.d.glider and board.geo.terrain.get(at) in POOR_LANDING:  # gliders on marsh or polder [12]
        die = dice.d6(f"12 glider landing {u.d.id}")
        ev["glider_die"] = die
        if glider_poor_terrain(die):
            u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
            words += ", and gliders broke up landing on the soft ground"
    hit, damage, fired = _flak_fire(board, u.side, at, u.d.id, dice)
    if fired:  # the flak table, in addition to the drop table's dispersal [13]
        ev["flak_dice"] = fired
        if hit:
            u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
            words += ", and flak brought down some of the aircraft carrying it"
        board.transport_damage[u.side] = board.transport_damage.get(u.side, 0) + damage
    if night:
        ev["night"] = True
    u.events.append(("dropped by night and " if night else "") + words)
    return ev


def _flak_fire(board: Board, side: str, at: Hex, serial: str, dice: Dice) -> tuple[bool, int, list[int]]:
    """The flak table [13] on one air serial dropping or landing on ``at``: every enemy flak unit
    within 4 km that can still fight rolls once (a reading: the text gives a die per serial and a
    row per kind of flak), on the column of a drop within 2 km or within 4 km. Returns whether the
    serial's load took a loss (a status), the air damage done (two damage are a squadron lost, over
    the whole turn) and the dice."""
    loss, damage, rolled = False, 0, []
    for f in sorted(board.enemies_near(at, side, 4), key=lambda e: e.d.id):
        if f.t.flak is None or f.status <= 0 or f.hex is None or f.d.id in board.suppressed:
            continue  # suppressed: a bombing damaged or pinned it down this turn [13]
        target: Literal["landing within 2 km", "landing within 4 km"] = \
            "landing within 2 km" if f.hex.distance(at) <= 2 else "landing within 4 km"
        die = dice.d6(f"13 flak {f.d.id} on {serial}")
        rolled.append(die)
        result = flak(f.t.flak, target, die)
        loss = loss or result == "loss"
        damage += result != "no effect"
    return loss, damage, rolled


POOR_LANDING = ("marsh", "polder")
"""Terrain where gliders risk breaking up on landing [12]."""
