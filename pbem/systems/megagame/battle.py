"""The combat phase of a megagame turn [9]: the engine's grouping of the attacks, each combat by
the arithmetic of :mod:`pbem.systems.megagame.combat` with its artillery and air support, what
follows it (retirement, capture, advance, overrun and the further attack, supplies lost, bridges
blown) and counter-battery fire."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import ceil
from typing import Any

from pbem.engine.ruleset import JSON, Dice
from pbem.maps.hexmap import Hex
from pbem.systems.megagame import combat as cbt
from pbem.systems.megagame.air import cab_cover, support_level
from pbem.systems.megagame.board import FIGHTING, Board, BoardUnit, hq_out_of_reach, posture_of
from pbem.systems.megagame.model import MegaRulings
from pbem.systems.megagame.movement import bridge_blows, max_move_km, may_cross
from pbem.systems.megagame.supply import LOSS_PER_UNIT
from pbem.systems.megagame.tables import counter_battery_fix, interdiction


def _objective(u: BoardUnit) -> Hex | None:
    line = u.line
    if line is None:
        return None
    if line.objective:
        return Hex.parse(line.objective)
    if line.route:
        return Hex.parse(line.route[-1])
    return None


def may_attack(board: Board, u: BoardUnit) -> bool:
    """In contact, with Attack or Breakthrough orders, any status left, not moved more than half its
    move this turn [6]."""
    if not u.on_map or u.line is None or u.line.intention not in FIGHTING or u.status <= 0 \
            or u.t.mode == "defence" or u.d.id in board.routed:
        return False  # board.routed: "may not counter-attack next turn" after a Total Success [9]
    return not _moved_too_far_to_attack(board, u)


def _moved_too_far_to_attack(board: Board, u: BoardUnit) -> bool:
    """More than half its move this turn: no time left to attack [6]."""
    assert u.hex is not None and u.line is not None
    limit = max_move_km(u.t.troops, board.geo.ground(u.hex), posture_of(u.line), night=u.line.timing == "night",
                        moves=board.moves)
    return limit is not None and u.km > limit / 2


def propose(board: Board) -> dict[Hex, list[str]]:
    """The engine's grouping [9 "Analysing Combat"]: each unit able to attack (:func:`may_attack`) goes for the adjacent
    enemy hex nearest its objective (then the lowest hex); one combat per hex attacked."""
    out: dict[Hex, list[str]] = {}
    for u in sorted(board.units.values(), key=lambda x: x.d.id):
        if not may_attack(board, u):
            continue
        assert u.hex is not None
        targets = sorted({e.hex for e in board.enemies_near(u.hex, u.side, 1) if e.hex is not None})
        if not targets:
            continue
        aim = _objective(u)
        target = min(targets, key=lambda h: (h.distance(aim) if aim else 0, h))
        out.setdefault(target, []).append(u.d.id)
    return out


def _pixel(h: Hex) -> tuple[int, int]:
    """``h``'s centre on the page in units where a hex step is exact integers: (q, 2r + q) of its
    cube coordinates, x to be weighed 3 times y in a dot product (flat-topped hexes)."""
    q, r, _ = h.cube()
    return q, 2 * r + q


def _straightness(here: Hex, nb: Hex, line: tuple[int, int]) -> int:
    """How nearly the step ``here`` -> ``nb`` follows ``line`` (a direction in :func:`_pixel`'s
    units): the dot product of the two, scaled to integers (every step is as long as another)."""
    (x0, y0), (x1, y1) = _pixel(here), _pixel(nb)
    return 3 * (x1 - x0) * line[0] + (y1 - y0) * line[1]


def _retire(board: Board, u: BoardUnit, km: int, away: list[Hex]) -> int:
    """Move ``u`` up to ``km`` hexes away from ``away`` (straight back [9 note 1]): each step to the
    neighbour farthest from the nearest of them, never into or past the enemy, never across water it
    may not cross; returns the kilometres gone. Between neighbours as far from the enemy, rules
    version 3 keeps to the line from the attackers (their centre) through the hex the unit retires
    from -- "straight back usually" [9 note 1] -- where version 2 took the lowest hex number."""
    geo = board.geo
    gone = 0
    line = (0, 0)
    if board.rules3 and away and u.hex is not None:
        px, py = _pixel(u.hex)
        line = (len(away) * px - sum(_pixel(a)[0] for a in away), len(away) * py - sum(_pixel(a)[1] for a in away))
    for _ in range(km):
        assert u.hex is not None
        here = u.hex
        best: tuple[int, int, int, Hex] | None = None
        for nb in here.neighbours():
            if nb not in geo.hexes or board.enemy_held(nb, u.side):
                continue
            c = geo.crossing(here, nb, board.blown)
            if c.water != "none" and not may_cross(u.t.troops, c.water, c.bridge):
                continue
            near = min(nb.distance(a) for a in away)
            if near <= min(here.distance(a) for a in away):
                continue
            key = (-near, -_straightness(here, nb, line), -sum(nb.distance(a) for a in away), nb)
            if best is None or key < best:
                best = key
        if best is None:
            break
        board.move(u, best[3])
        gone += 1
    return gone


def _moved_share(board: Board, u: BoardUnit) -> Fraction:
    """The share of the turn ``u`` spent moving: the kilometres it went over its maximum move in
    the posture it moved in, on the ground where it stands [6]; 1 when it has no move there."""
    if not u.km:
        return Fraction(0)
    assert u.hex is not None and u.line is not None
    full = max_move_km(u.t.troops, board.geo.ground(u.hex), posture_of(u.line), night=u.line.timing == "night",
                       moves=board.moves)
    return min(Fraction(1), Fraction(u.km) / full) if full else Fraction(1)


def _commences(board: Board, attackers: list[BoardUnit]) -> Fraction:
    """When an attack goes in, as a share of the turn: once the last of its units is up (the
    greatest share of the turn an attacker spent moving; 0 for an attack from where they stood)."""
    return max((_moved_share(board, u) for u in attackers), default=Fraction(0))


def _artillery_for(board: Board, side: str, at: Hex, used: set[str], *, defence: bool = False,
                   commences: Fraction = Fraction(0)) -> list[tuple[BoardUnit, Fraction]]:
    """Artillery of ``side`` able to support a combat at ``at``, each with the share of its effect
    it gives: on the map, status left, within long range, not used yet this turn, its supply point
    paid [9]. In rules version 3 "Defending artillery specifically allocated to the task" alone
    counts for the defenders (``defence``): a battery whose line allocates it to the defence of
    ``at`` (``defend``); such a battery is kept for that task and supports no attack; a battery
    firing on the interdiction table (``interdict``) supports no combat. Version 2: a battery that
    moved gives nothing; version 3: "reduced in proportion to how much of the turn they spend
    moving and what part of the turn they move in" [9 Supporting Artillery] -- everything moves
    from the start of the turn, so a battery supports an attack that goes in (``commences``, a
    share of the turn: :func:`_commences`) once it has stopped, with the share of the turn it did
    not spend moving (the text's example: moving up in the first half, it cannot support an attack
    made at the start of the turn)."""
    out: list[tuple[BoardUnit, Fraction]] = []
    for a in sorted(board.units.values(), key=lambda x: x.d.id):
        if a.side != side or not a.on_map or a.t.artillery is None or a.d.id in used or a.status <= 0 \
                or (a.line is not None and a.line.counter_battery) or (a.km and not board.rules3):
            continue
        if board.rules3:
            allocated = a.line.defend if a.line is not None else []
            if (str(at) not in allocated) if defence else bool(allocated):
                continue  # not allocated to this defence, or kept for it [9 Supporting Artillery]
            if a.line is not None and a.line.interdict:
                continue  # firing on the interdiction table this turn [9]
        moved = _moved_share(board, a)
        if moved and (moved > commences or moved >= 1):
            continue  # still on the move when the attack went in [9 Supporting Artillery]
        assert a.hex is not None
        eff, long = cbt.ARTILLERY_RANGE_KM[a.t.artillery]
        if a.hex.distance(at) > (long or eff) or a.hex == at:
            continue
        if hq_out_of_reach(board.sc, a.d.id, board.positions()) is not None or not board.pay_for(a, 1):
            continue  # no shells: its HQ is out of reach [11], or nothing left
        used.add(a.d.id)
        a.fired = True
        a.supply_used += 1
        out.append((a, 1 - moved))
    return out


def _combat_unit(u: BoardUnit, *, fuel: bool, moving_only: bool = False) -> cbt.CombatUnit:
    """``moving_only`` (rules version 3): the -2 "if moving non-tactically" [9] only for a unit in a
    non-tactical posture that moved this turn; version 2 took it off any unit in a non-tactical or
    rest posture, moving or not."""
    return cbt.CombatUnit(id=u.d.id, profile=u.t.combat_profile(u.steps), kind=u.t.kind,
                          light=u.t.light, mechanised=u.t.mechanised, fuel=fuel,
                          non_tactical=u.line is not None and (u.line.posture == "non-tactical" and u.km > 0
                                                               if moving_only else
                                                               u.line.posture in ("non-tactical", "rest")))


def combat_phase(board: Board, ruled: MegaRulings, dice: Dice, blown: set[str]) -> list[JSON]:
    """Every combat of the turn [9], hex by hex in order, each followed by the further attacks of
    the units that overran into more enemy."""
    groups = propose(board)
    events: list[JSON] = []
    for g in ruled.groupings:  # Game Control's grouping replaces the proposal for its hex [9]
        at = Hex.parse(g.at)
        fit: list[str] = []
        for uid in g.attackers:
            u = board.units[uid]
            if may_attack(board, u) and u.hex is not None and u.hex.distance(at) == 1 \
                    and board.enemy_held(at, u.side):
                fit.append(uid)
            else:
                events.append({"kind": "note", "text": f"Game Control groups {uid} against {at}, which "
                                                       "it cannot attack this turn: left out [9]"})
        for other in groups.values():
            for uid in fit:
                if uid in other:
                    other.remove(uid)
        groups[at] = fit
    used_art: set[str] = set()
    advantage: dict[tuple[str, str], int] = {(a.at, a.side): a.points for a in ruled.advantage}
    for at in sorted(groups):
        attackers = [board.units[uid] for uid in groups[at] if board.units[uid].hex is not None
                     and board.units[uid].hex.distance(at) == 1]  # type: ignore[union-attr]
        events += _fight(board, at, attackers, dice, blown, used_art, advantage)
        events += _further_attacks(board, dice, blown, used_art, advantage)
    grouped = {uid for uids in groups.values() for uid in uids}
    for uid, u in sorted(board.units.items()):  # an attack ordered and not made: say why [9]
        if u.on_map and u.line is not None and u.line.intention in ("attack", "breakthrough") and not u.attacks \
                and not any(e.startswith("could not attack") for e in u.events):
            why = _why_no_attack(board, u, uid in grouped)
            u.events.append(f"did not attack: {why}")
            events.append({"kind": "note", "text": f"{uid} did not attack: {why}"})
    return events


def _why_no_attack(board: Board, u: BoardUnit, grouped: bool) -> str:
    """Why a unit with Attack or Breakthrough orders made no attack this turn, in words with the case."""
    if u.t.mode == "defence":
        return "it can defend itself, not attack [9]"
    if u.status <= 0:
        return "it has no fight left in it [9]"
    if u.d.id in board.routed:
        return "routed by the enemy's Total Success last turn, it may not counter-attack this turn [9]"
    if _moved_too_far_to_attack(board, u):
        return f"it moved {u.km} km, more than half its move, and had no time left to attack [6]"
    assert u.hex is not None
    if not board.enemies_near(u.hex, u.side, 1):
        if board.rules3 and u.pinned_by:  # the pin is why, and ELETIS names the air or the artillery [10]
            return f"pinned down {u.pinned_by} before it reached the enemy [9]"
        return "no enemy was next to it when the attacks went in [9]"
    if grouped:
        return "the enemy it was to attack had gone from the hex [9]"
    return "Game Control's grouping of the combats left it out [9]"


def _fight(board: Board, at: Hex, attackers: list[BoardUnit], dice: Dice, blown: set[str], used_art: set[str],
           advantage: Mapping[tuple[str, str], int], *, further: bool = False) -> list[JSON]:
    """One combat against the enemy in ``at`` [9 "Combat Procedure"]; ``further``: the unprepared
    attack of units that overran into more enemy (:func:`_further_attacks`)."""
    geo = board.geo
    events: list[JSON] = []
    defenders = [u for u in board.at(at)]
    if not attackers or not defenders:
        return events
    side = attackers[0].side
    defenders = [u for u in defenders if u.side != side]
    attackers = _paid(board, at, [u for u in attackers if u.side == side])
    if not attackers or not defenders:
        return events
    for u in attackers:
        u.supply_used += 1
        u.attacks += 1
    if all(d.status <= 0 for d in defenders):  # no fight left in them [9 Supplies]
        if board.rules3:
            return _spent_fall_back(board, at, attackers, defenders)
        return [_captured(board, at, attackers, defenders)]
    commences = _commences(board, attackers)
    att_guns = _artillery_for(board, side, at, used_art, commences=commences)
    def_guns = _artillery_for(board, defenders[0].side, at, used_art, defence=True, commences=commences)
    att_art, def_art = [a for a, _ in att_guns], [a for a, _ in def_guns]
    air = "none" if further else support_level(board, attackers, side)
    close = geo.close(at)
    a_side = cbt.CombatSide(
        units=_combat_units(board, attackers), artillery=_guns(att_guns, at),
        air=air, prepared=not further and all(u.prepared for u in attackers), close_country=close,
        advantage=advantage.get((str(at), "attacker"), 0), other_formation=_strays(attackers))
    d_side = cbt.CombatSide(
        units=_combat_units(board, defenders), artillery=_guns(def_guns, at),
        air=cbt.air_level("allied-ground-attack", cover) if (cover := cab_cover(board, defenders)) else "none",
        prepared=True, close_country=close, advantage=advantage.get((str(at), "defender"), 0),
        other_formation=_strays(defenders))
    hold = [d.d.id for d in defenders if d.line and d.line.intention == "hold" and d.line.stand_fast
            and d.status > 0]  # a spent unit cannot hold at all costs [9]
    before = (sum(u.status for u in attackers), sum(d.status for d in defenders))
    die = dice.d6(f"9 further attack at {at}" if further else f"9 combat at {at}")
    result = cbt.resolve(a_side, d_side, die, hold=hold, city=geo.terrain.get(at) == "city",
                         support_rule=board.rules3, arms_in_attack_only=board.rules3)
    for u in (*attackers, *defenders):
        u.steps = result.profiles[u.d.id].steps_lost
        u.fought = True
        u.fought_at.append(at)
    for u in attackers:
        u.enemy_artillery = u.enemy_artillery or bool(def_art)
        if u.line and u.line.intention == "probe":
            u.identified = True  # a probe identifies the facing units [5]
    for d in defenders:
        d.enemy_artillery = d.enemy_artillery or bool(att_art)
        d.enemy_air = d.enemy_air or air != "none"
    for units, enemy, their_air in ((attackers, defenders, d_side.air), (defenders, attackers, air)):
        for u in units:  # what fought it, for its report wherever it ends the turn [10 ELETIS]
            u.met_status = max(u.met_status, before[1] if units is attackers else before[0])
            u.met_tanks = u.met_tanks or any(e.t.kind == "armour" for e in enemy)
            u.met_air = u.met_air or their_air != "none"
    events.append(_combat_event(at, attackers, defenders, att_art + def_art, air, d_side.air, die, result,
                                further=further))
    events += _after_combat(board, result, attackers, defenders, at, dice, blown, before)
    for units, level in ((attackers, air), (defenders, d_side.air)):  # what the team's own air did [9]
        if level != "none":
            for u in units:
                if u.events:
                    u.events[-1] += f", with {level} support from the air"
    return events


def _paid(board: Board, at: Hex, attackers: list[BoardUnit]) -> list[BoardUnit]:
    """The attackers whose attack is paid for: 1 point a unit [9], drawn from its HQ within 5 km
    [11]; the others say why they could not attack."""
    geo = board.geo
    where = board.positions()
    paid = []
    for u in attackers:
        far = hq_out_of_reach(board.sc, u.d.id, where)
        if far is not None:
            u.events.append(f"could not attack {geo.near(at)}: no supplies reach it ({far.removesuffix(' [11]')})")
        elif board.pay_for(u, 1):
            paid.append(u)
        else:
            u.events.append(f"could not attack {geo.near(at)}: no supply left")
    return paid


def _captured(board: Board, at: Hex, attackers: list[BoardUnit], defenders: list[BoardUnit]) -> JSON:
    """Defenders with no fight left in them are captured without a fight [9]; the attackers take
    the hex."""
    geo = board.geo
    for d in defenders:
        board.remove(d)
        d.events.append(f"overrun at {geo.near(at)} and captured: large numbers of prisoners")
    for u in attackers:
        u.fought = True
        u.events.append(f"overran the enemy at {geo.near(at)}: large numbers of prisoners taken")
    _advance(board, attackers, at)
    return {"kind": "captured", "at": str(at), "units": [d.d.id for d in defenders]}


def _spent_fall_back(board: Board, at: Hex, attackers: list[BoardUnit], defenders: list[BoardUnit]) -> list[JSON]:
    """Rules version 3: defenders with no fight left in them do not fight; each "will retreat if at
    all possible. If unable to retreat then it is, in effect, captured" [9 Supplies] -- 1 km away
    from the attackers (reading: the distance is not given; the same kilometre a spent unit gives
    after any combat), captured where no way back is open. The attackers take the hex if it is
    empty. (Version 2 captured them at once.)"""
    geo = board.geo
    away = [a.hex for a in attackers if a.hex is not None]
    fell_back: dict[str, str] = {}
    taken: list[BoardUnit] = []
    for d in defenders:
        if _retire(board, d, 1, away):
            fell_back[d.d.id] = str(d.hex)
            d.events.append(f"was attacked at {geo.near(at)}, no longer able to fight, and fell back to "
                            f"{geo.near(d.hex) if d.hex else at}")
        else:
            taken.append(d)
    events: list[JSON] = []
    if fell_back:
        events.append({"kind": "fell-back", "at": str(at), "units": fell_back})
    if taken:
        events.append(_captured(board, at, attackers, taken))
        return events
    for u in attackers:
        u.fought = True
        u.events.append(f"attacked the enemy at {geo.near(at)}: it fell back without a fight")
    _advance(board, attackers, at)
    return events


def _combat_units(board: Board, units: list[BoardUnit]) -> tuple[cbt.CombatUnit, ...]:
    """A side's units for the combat arithmetic, each with fuel while its team has supplies [9]."""
    return tuple(_combat_unit(u, fuel=board.has_supply(u), moving_only=board.rules3) for u in units)


def _guns(artillery: list[tuple[BoardUnit, Fraction]], at: Hex) -> tuple[cbt.Artillery, ...]:
    """A side's supporting artillery for the combat arithmetic, each at its range to ``at`` and with
    the share of its effect left after moving [9]."""
    return tuple(cbt.Artillery(a.d.id, a.t.combat_profile(a.steps),
                               a.t.artillery or "field", a.hex.distance(at) if a.hex else 99, ready)
                 for a, ready in artillery)


def _combat_event(at: Hex, attackers: list[BoardUnit], defenders: list[BoardUnit], artillery: list[BoardUnit],
                  air: str, defender_air: str, die: int, result: cbt.Outcome, *, further: bool) -> JSON:
    """A combat for the log: who fought, the scores line by line, the die, the result [9]."""
    ev: dict[str, Any] = {
        "kind": "combat", "at": str(at), "attackers": [u.d.id for u in attackers],
        "defenders": [d.d.id for d in defenders], "artillery": [a.d.id for a in artillery],
        "air": air, "defender_air": defender_air, "attacker_score": result.attacker_score.value,
        "defender_score": result.defender_score.value, "attacker_lines": result.attacker_score.lines,
        "defender_lines": result.defender_score.lines, "die": die, "result": result.result,
        "band": result.band, "losses": result.losses, "retreat": result.retreat}
    if further:
        ev["further"] = True
    return ev


def _further_attacks(board: Board, dice: Dice, blown: set[str], used_art: set[str],
                     advantage: Mapping[tuple[str, str], int]) -> list[JSON]:
    """The unprepared attack after a successful overrun [results table, special results]: units
    whose overrun after a Total Success or a Success brought them into contact with more enemy --
    not the enemy they have just beaten, which may have retired no farther than next to them --
    attack again in the same turn, unprepared (-2 a unit, no close air support: it flew in the
    attack it was asked for), each against the adjacent enemy hex nearest its objective, those
    against one hex in one combat, paying their supply point as any attack [9, 11]. The text leaves
    the attack to the player's discretion: the Breakthrough order is that choice, made when the
    sheet is written ("the units fight more than one action during the turn" [5]). A unit makes at
    most one further attack a turn ("no more than one attack per turn ... except overrun attacks"
    [9]); should that attack overrun again, the unit drives on but attacks no more."""
    onward, board.onward = board.onward, []
    events: list[JSON] = []
    groups: dict[Hex, list[BoardUnit]] = {}
    for u, beaten in onward:
        if not u.on_map or u.hex is None or u.status <= 0 or u.attacks != 1:
            continue
        targets = sorted({e.hex for e in board.enemies_near(u.hex, u.side, 1)
                          if e.hex is not None and e.d.id not in beaten})
        if not targets:
            continue
        aim = _objective(u)
        target = min(targets, key=lambda h: (h.distance(aim) if aim else 0, h))
        groups.setdefault(target, []).append(u)
    for at in sorted(groups):
        events += _fight(board, at, groups[at], dice, blown, used_art, advantage, further=True)
    board.onward = []  # an overrun of the further attack drives on, and attacks no more
    return events


def artillery_interdiction(board: Board, dice: Dice, intel: dict[str, list[str]]) -> list[JSON]:
    """Artillery on the interdiction table (rules version 3) [9]: "When carrying out interdiction
    attacks or flak suppression either by aircraft or long range artillery ... use the following
    table", whose first column counts "Tactical Sqns or Arty Bns per map square". Each battery
    whose line names a hex to interdict (``interdict``) -- on the map, status left, its HQ in reach
    and 1 supply point paid, as any artillery that fires [9, 11] -- is one battalion on that hex;
    the batteries of a side on one hex fire together, one die for every enemy unit there, before
    anything moves; the fire stays on the hex for the turn, so that every enemy unit passing
    through meets it, as a bombing does (a bombing of the same hex by the same side adds its
    squadrons on the same column for those passing). A flak unit it damages or pins down is
    suppressed for the turn [13, 12c]. A battery that fired is one counter-battery can look for."""
    if not board.rules3:
        return []
    geo = board.geo
    fire: dict[tuple[str, Hex], list[BoardUnit]] = {}
    for a in sorted(board.units.values(), key=lambda x: x.d.id):
        if a.line is None or not a.line.interdict or a.t.artillery is None or not a.on_map or a.status <= 0:
            continue
        target = Hex.parse(a.line.interdict)
        far = hq_out_of_reach(board.sc, a.d.id, board.positions())
        if far is not None or not board.pay_for(a, 1):
            a.events.append(f"could not fire on {geo.near(target)}: "
                            + (f"no shells reach it ({far.removesuffix(' [11]')})" if far else "no supply left"))
            continue
        a.fired = True
        a.supply_used += 1
        fire.setdefault((a.d.team, target), []).append(a)
    events: list[JSON] = []
    for (team, target), guns in sorted(fire.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        side = guns[0].side
        where = geo.near(target)
        hits = []
        for u in [x for x in board.at(target) if x.side != side]:
            die = dice.d6(f"9 artillery interdiction {target} {u.d.id}")
            result = interdiction(len(guns), 0, die)
            if result != "no effect":
                u.immobilised = True
                u.pinned_by = "by artillery fire"
                if u.t.flak is not None:  # flak suppression by long range artillery [13]
                    board.suppressed.add(u.d.id)
                if result.startswith("step loss"):
                    u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
                u.events.append(f"came under artillery fire at {where}: "
                                + ("losses, and pinned down" if result.startswith("step") else "pinned down"))
                u.enemy_artillery = True
            hits.append({"unit": u.d.id, "die": die, "result": result})
        earlier = board.interdicted.get(target)
        same = earlier is not None and earlier[0] == side
        board.interdicted[target] = (side, len(guns) + (earlier[1] if earlier and same else 0),
                                     earlier[2] if earlier and same else 0)
        board.interdicted_by[target] = ((board.interdicted_by.get(target, set()) if same else set())
                                        | {"artillery"})
        for a in guns:
            a.events.append(f"fired on {where} to interdict it")
        intel.setdefault(team, []).append(
            f"artillery fire on {where}: " + ("the observers report hits" if any(h["result"] != "no effect"
                                                                                 for h in hits)
                                              else "no result seen"))
        events.append({"kind": "interdiction", "team": team, "at": str(target), "by": "artillery",
                       "battalions": len(guns), "units": [a.d.id for a in guns], "hits": hits})
    return events


def counter_battery_fire(board: Board, dice: Dice) -> list[JSON]:
    """Counter-battery fire [9]: every enemy battery that fired this turn within range of artillery
    given to counter-battery is looked for -- a 6 fixes it, +1 for each turn after the first that it
    has fired from the same place -- and a fixed battery is shelled on the interdiction table, the
    counter-battery battalions in range counting as the force."""
    events: list[JSON] = []
    hunters = [u for u in sorted(board.units.values(), key=lambda x: x.d.id)
               if u.on_map and u.line is not None and u.line.counter_battery and u.t.artillery is not None
               and u.status > 0]
    for target in sorted((u for u in board.units.values() if u.fired and u.on_map), key=lambda x: x.d.id):
        assert target.hex is not None
        guns = [h for h in hunters if h.side != target.side and h.hex is not None
                and h.hex.distance(target.hex) <= max(x for x in cbt.ARTILLERY_RANGE_KM[h.t.artillery or "field"]
                                                      if x is not None)]
        if not guns:
            continue
        same_place = target.fired_before + 1 if not target.km else 1
        die = dice.d6(f"9 counter-battery fix {target.d.id}")
        ev: dict[str, Any] = {"kind": "counter-battery", "battery": target.d.id, "by": [g.d.id for g in guns],
                              "die": die, "turns": same_place, "fixed": counter_battery_fix(die, same_place)}
        if ev["fixed"]:
            hit = dice.d6(f"9 counter-battery fire {target.d.id}")
            result = interdiction(len(guns), 0, hit)
            ev["fire"], ev["result"] = hit, result
            if result.startswith("step loss"):
                target.steps = target.t.combat_profile(target.steps).lose(1).steps_lost
            if result != "no effect":
                target.events.append("came under counter-battery fire" + (" and lost guns" if result.startswith("step")
                                                                          else ""))
                target.enemy_artillery = True
        events.append(ev)
    return events


def _strays(units: list[BoardUnit]) -> int:
    """Units not of the division leading the fight, the one with most units in it (note 6)."""
    divisions = sorted(u.division for u in units)
    lead = max(divisions, key=lambda name: (divisions.count(name), name)) if divisions else ""
    return sum(1 for name in divisions if name != lead)


def _advance(board: Board, attackers: list[BoardUnit], at: Hex) -> None:
    """The attacker takes a vacated hex (the first attacker with Attack or Breakthrough orders)."""
    if board.at(at):
        return
    for u in attackers:
        if u.line and u.line.intention in ("attack", "breakthrough") and u.status > 0:
            board.move(u, at)
            u.events.append(f"took {board.geo.near(at)}")
            return


def _overrun(board: Board, result: cbt.Outcome, attackers: list[BoardUnit], defenders: list[BoardUnit], at: Hex,
             status: tuple[int, int]) -> list[JSON]:
    """A successful overrun [results table, special results]: attackers mostly armoured, with twice
    the defenders' status (before the fight) and Breakthrough orders, go on through the defeated
    enemy towards their objective -- half their remaining move after a Total Success or a Success,
    a quarter after a Limited Success -- and halt on meeting more enemy; after anything less than a
    Total Success each takes one more step loss. After a Total Success or a Success a unit that
    ends its move in contact with more enemy may attack again, unprepared (:func:`_further_attacks`);
    after a Limited Success it halts there."""
    band = result.band
    armour = sum(1 for u in attackers if u.t.kind == "armour")
    if 2 * armour <= len(attackers) or status[0] < 2 * status[1] or not all(
            u.line is not None and u.line.intention == "breakthrough" for u in attackers):
        return []
    share = Fraction(1, 4) if band == "limited success" else Fraction(1, 2)
    geo = board.geo
    moved: list[JSON] = []
    for u in attackers:
        if not u.on_map or u.line is None or u.hex is None:
            continue
        if band != "total success":
            u.steps = u.t.combat_profile(u.steps).lose(1).steps_lost
        full = max_move_km(u.t.troops, geo.ground(u.hex), posture_of(u.line), moves=board.moves) or Fraction(0)
        km = int(max(Fraction(0), full - u.km) * share)
        goal = _objective(u)
        path = [str(u.hex)]
        for _ in range(km):
            if goal is None or u.hex == goal or board.enemies_near(u.hex, u.side, 1):
                break
            here = u.hex
            steps = [nb for nb in sorted(here.neighbours(), key=lambda h: (h.distance(goal), h))
                     if nb in geo.hexes and not board.enemy_held(nb, u.side)
                     and nb.distance(goal) < here.distance(goal)]
            steps = [nb for nb in steps if (c := geo.crossing(here, nb, board.blown)).water == "none"
                     or may_cross(u.t.troops, c.water, c.bridge)]
            if not steps:
                break
            board.move(u, steps[0])
            u.km += 1
            path.append(str(steps[0]))
        u.events.append(f"broke through at {geo.near(at)}" + (f" and drove on {len(path) - 1} km to "
                                                                f"{geo.near(u.hex)}" if len(path) > 1 else ""))
        moved.append({"unit": u.d.id, "path": path})
        beaten = frozenset(d.d.id for d in defenders)
        if band != "limited success" and any(e.d.id not in beaten for e in board.enemies_near(u.hex, u.side, 1)):
            board.onward.append((u, beaten))  # in contact with more enemy than it beat
    return [{"kind": "overrun", "at": str(at), "band": band, "moves": moved}]


def _after_combat(board: Board, result: cbt.Outcome, attackers: list[BoardUnit], defenders: list[BoardUnit],
                  at: Hex, dice: Dice, blown: set[str], status: tuple[int, int] = (0, 0)) -> list[JSON]:
    geo = board.geo
    events: list[JSON] = []
    where = geo.near(at)
    band = result.band
    board.crossed.clear()  # the bridges Allied units pass over from here on [8]
    words = {"total success": "the enemy was routed", "success": "the enemy was driven back",
             "limited success": "the enemy gave ground", "confused combat": "the fighting was confused: "
             "both sides hold", "attackers badly beaten": "the attack was thrown back"}[band]
    retires = result.retreat.startswith("retires")
    if not retires and band in ("total success", "success", "limited success"):
        # the defenders stood fast (or a city held them): beaten, they did not give ground [9]
        words = "the enemy held its ground at all costs, and paid for it"
    km = 0
    if retires:
        if band == "total success":
            km = dice.d6(f"9 retreat at {at} (1)") + dice.d6(f"9 retreat at {at} (2)")
        elif band == "success":
            km = dice.d6(f"9 retreat at {at}")
        else:
            km = 2
        if geo.close(at):
            km = max(1, ceil(Fraction(km, 2)))
    for u in attackers:
        u.events.append(f"attacked the enemy at {where}: {words}")
    for d in defenders:
        if band in ("attackers badly beaten",):
            d.events.append(f"held {where} and threw the attack back")
        elif retires:
            gone = _retire(board, d, km, [a.hex for a in attackers if a.hex is not None])
            if gone == 0 and d.status <= 0:
                board.remove(d)
                d.events.append(f"was overrun at {where} and could not get away: captured")
            else:
                d.events.append(f"was attacked at {where} and fell back {gone} km to "
                                f"{geo.near(d.hex) if d.hex else where}")
        elif d.status <= 0:  # spent: it falls back if it can, else it is captured [9]
            if _retire(board, d, 1, [a.hex for a in attackers if a.hex is not None]) == 0:
                board.remove(d)
                d.events.append(f"was attacked at {where}, no longer able to fight, and could not get "
                                "away: captured")
            else:
                d.events.append(f"was attacked at {where}, no longer able to fight, and fell back to "
                                f"{geo.near(d.hex) if d.hex else where}")
        else:
            d.events.append(f"was attacked at {where} and held: {result.retreat.split(':')[0]}")
    if band == "attackers badly beaten":
        for u in attackers:
            if board.rules3:
                _thrown_back(board, u, at)
            else:
                _retire(board, u, 1, [at])
    if board.rules3 and band == "total success":
        board.routed_now.update(d.d.id for d in defenders)  # no counter-attack next turn [9]
    if retires:
        _advance(board, attackers, at)
        if not board.at(at) or all(u.side == attackers[0].side for u in board.at(at)):
            events += _overrun(board, result, attackers, defenders, at, status)
    lost = LOSS_PER_UNIT[band]
    for d in defenders:  # the loser's supplies, whether it retires or holds [results table]
        if lost:
            taken = board.lose_supply(d, lost)  # version 3: from the HQ stack it draws on [11]
            d.supply_lost += taken  # "used up ... due to ... enemy action" [10 ELETIS]
    # A bridge fought over blows on a 1 [8]; in rules version 3 one tested that did not blow is safe
    # once an Allied unit has passed over it (this fight's advance included), and is not tested again.
    for nb in at.neighbours():
        c = geo.crossing(at, nb, frozenset(blown))
        if c.bridge != "none" and c.bridge_name and c.bridge_name not in blown and c.bridge_name not in board.safe:
            die = dice.d6(f"8 bridge {c.bridge_name}")
            if bridge_blows(die):
                blown.add(c.bridge_name)
                board.blown = frozenset(blown)
                board.tested.discard(c.bridge_name)
            elif board.rules3:
                (board.safe if c.bridge_name in board.crossed else board.tested).add(c.bridge_name)
            events.append({"kind": "bridge", "bridge": c.bridge_name, "die": die,
                           "blown": c.bridge_name in blown})
    return events


def _thrown_back(board: Board, u: BoardUnit, at: Hex) -> None:
    """Attackers badly beaten are "thrown back to start line or at least 1 km whichever is greater"
    [9 results table] (rules version 3): back to the hex where the unit began the turn when that is
    not where it is now and the enemy does not hold it, else 1 km straight back from ``at``."""
    start = board.start.get(u.d.id)
    if u.hex is None or start is None or start == u.hex or board.enemy_held(start, u.side):
        _retire(board, u, 1, [at])
        return
    board.move(u, start)
    u.events.append(f"was thrown back to its start line at {board.geo.near(start)}")
