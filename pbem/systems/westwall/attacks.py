"""The WestWall combat phase, first half: which units must attack, and every rule the declared
attacks break [7.0-7.3, 8.1-8.6, 9.0, 14.0] (:func:`validate_attacks`, which never mutates
anything). Resolving them is :mod:`pbem.systems.westwall.combat`'s; the terms and the phase
numbering are explained there."""

from __future__ import annotations

from pbem.errors import InputError, RuleViolation
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import get_exclusive
from pbem.systems.westwall.model import (
    AttackOrder,
    PlayerTurnOrders,
    Scenario,
    State,
    UnitDef,
)

SOLELY_ARTILLERY_RESULTS = frozenset({"D2", "D3", "D4", "De"})
"""Results that affect a defender attacked solely by artillery and/or ground support [8.15]."""


def can_attack_across(board: Board, a: Hex, b: Hex) -> bool:
    """Adjacent and not across a non-bridge river or a hexside closed to all [6.33]."""
    if not a.is_adjacent(b):
        return False
    c = board.crossing(a, b)
    return not (c.blocks_attack or c.prohibited)


def _engaged(board: Board, a: Hex, b: Hex) -> bool:
    """Adjacent in the sense that obliges combat [7.11, 7.12, 8.31]: across any hexside through
    which attacks may be made (not a non-bridge river [6.33, 8.34])."""
    return can_attack_across(board, a, b)


def ground_support_available(scenario: Scenario, state: State, side: str) -> int:
    """Ground Support Points ``side`` may still spend this game-turn [9.0, 9.14].

    The allotment is the scenario entry for ``side`` with the latest ``from_turn`` not after the
    current game-turn; points spent this game-turn (``state.ground_support_used``) are deducted.
    Nothing carries over: ``rules.py`` clears ``ground_support_used`` at each new game-turn [9.14]."""
    allot = get_exclusive(scenario.game).ground_support(scenario, state, side)
    if allot is None:
        entries = [
            g for g in scenario.ground_support if g.side == side and g.from_turn <= state.game_turn
        ]
        if not entries:
            return 0
        allot = max(entries, key=lambda g: g.from_turn).points
    return max(0, allot - state.ground_support_used.get(side, 0))


def player_turn_number(scenario: Scenario, state: State) -> int:
    """1 in the first player's player-turn, 2 in the second's."""
    return 1 if state.phasing == scenario.first_player else 2


def support_phase_blocked(scenario: Scenario, state: State, side: str, player_turn: int) -> bool:
    """When ``scenario.special["ground_support_one_phase"]`` is true (Bastogne [15.26.4]) support
    may be used in only one combat phase of a game-turn."""
    if not scenario.special.get("ground_support_one_phase"):
        return False
    used_in = state.ground_support_phase.get(side)
    return used_in is not None and used_in != player_turn


def _barrage(u: UnitDef) -> int:
    return u.barrage if u.is_artillery else u.attack


def _check_ids(board: Board, orders: PlayerTurnOrders) -> None:
    unknown: list[str] = []
    for att in orders.attacks:
        for uid in [*att.attackers, *att.artillery, *att.defenders, *(a.unit for a in att.advance)]:
            if uid not in board.scenario.unit and uid not in unknown:
                unknown.append(uid)
    if unknown:
        raise InputError(f"unknown unit(s) in attacks: {', '.join(unknown)}")


def validate_attacks(
    board: Board, scenario: Scenario, state: State, orders: PlayerTurnOrders
) -> list[RuleViolation]:
    """Every rule broken by ``orders.attacks`` on ``board`` (the position after movement).

    Checked: [7.0] units exist on the map and belong to the right side; [7.11] every enemy unit
    adjacent to a phasing unit is attacked (adjacent across a hexside attacks may cross); [7.12,
    8.31] every phasing unit in an enemy zone of control attacks (artillery among ``attackers``);
    [7.21] a unit in several enemy zones covers every adjacent enemy no other unit engages; [7.14]
    no unit attacks or is attacked twice; [7.3] no unit listed twice in one combat; [7.15, 7.22,
    7.23] every ground attacker adjacent to every defender; [6.33] no non-artillery attack across a
    non-bridge river ([8.34] artillery across a river barrages instead); [6.32] [5.24] types may
    attack into terrain they may not enter (no check needed); [8.11, 8.12] barraging artillery in
    range of a defender, [8.13] a barrage alone targets one hex, [8.22] combined: in range of one
    defender suffices, [8.32] artillery adjacent to an enemy may not barrage elsewhere; [9.0,
    9.12-9.14, 15.26.4] ground support within this game-turn's points; [14.0] artillery and support
    within the attack strength of the non-artillery attackers; [7.94] only ground attackers advance.

    [7.52] (no voluntary lowering of a differential) holds by construction: strengths are unitary
    and always counted in full [7.3], orders cannot state a differential, and no defender may be
    added that the ground attackers are not all adjacent to [7.23]; the only other lever, adding
    a defender to a pure barrage, is refused by [8.13].

    Each attack is checked in the order declared (:meth:`_AttackCheck.attack`), then the ground
    support of them all, then the obligations to attack.
    """
    _check_ids(board, orders)
    check = _AttackCheck(board, scenario, orders.side)
    for n, att in enumerate(orders.attacks, start=1):
        check.attack(n, att)
    support_total = sum(att.support for att in orders.attacks)
    check.ground_support(state, support_total)
    check.obligations(orders)
    return check.out


class _AttackCheck:
    """The checks of :func:`validate_attacks`, one method per group of rule cases, adding to
    ``out``; ``attacking``/``attacked`` remember which attack each unit was first listed in."""

    def __init__(self, board: Board, scenario: Scenario, side: str) -> None:
        self.board, self.scenario, self.side = board, scenario, side
        self.unit = scenario.unit
        self.out: list[RuleViolation] = []
        self.attacking: dict[str, int] = {}
        self.attacked: dict[str, int] = {}

    def hex_of(self, uid: str) -> Hex | None:
        return self.board.unit_hex(uid)

    def attack(self, n: int, att: AttackOrder) -> None:
        """One declared attack, number ``n``."""
        label = f"attack {n}"
        self._listing(label, att)
        self._once(n, label, att)
        d_hexes = [h for h in (self.hex_of(d) for d in att.defenders) if h is not None]
        self._adjacent(label, att)
        self._barrages(label, att, d_hexes)
        self._artillery_limit(label, att)
        self._advances(label, att)

    def _listing(self, label: str, att: AttackOrder) -> None:
        """[7.3] nobody listed twice; [7.0] defenders and attackers (or support) named, attackers
        the side's own and defenders the enemy's, on the map; [7.15] only artillery attacks from
        a distance."""
        out, unit, side, hex_of = self.out, self.unit, self.side, self.hex_of
        listed = [*att.attackers, *att.artillery]
        seen: set[str] = set()
        for uid in [*listed, *att.defenders]:
            if uid in seen:
                out.append(
                    RuleViolation("7.3", f"{uid} is listed twice in {label}", uid, _s(hex_of(uid)))
                )
            seen.add(uid)
        if not att.defenders:
            out.append(RuleViolation("7.0", f"{label} names no defending unit"))
        if not att.attackers and not att.artillery and att.support == 0:
            out.append(RuleViolation("7.0", f"{label} has no attacking unit or support"))
        # Sides and presence.
        for uid in listed:
            if unit[uid].side != side:
                out.append(RuleViolation("7.0", f"{uid} is not a {side} unit ({label})", uid))
            elif hex_of(uid) is None:
                out.append(RuleViolation("7.0", f"{uid} is not on the map ({label})", uid))
        for uid in att.defenders:
            if unit[uid].side == side:
                out.append(RuleViolation("7.0", f"{uid} is a friendly unit ({label})", uid))
            elif hex_of(uid) is None:
                out.append(RuleViolation("7.0", f"{uid} is not on the map ({label})", uid))
        for uid in att.artillery:
            if not unit[uid].is_artillery:
                out.append(
                    RuleViolation(
                        "7.15",
                        f"{uid} is not artillery and cannot attack from a distance ({label})",
                        uid,
                        _s(hex_of(uid)),
                    )
                )

    def _once(self, n: int, label: str, att: AttackOrder) -> None:
        """[7.14] a unit attacks, and is attacked, once per combat phase."""
        out, hex_of, attacking, attacked = self.out, self.hex_of, self.attacking, self.attacked
        for uid in [*att.attackers, *att.artillery]:
            if uid in attacking and attacking[uid] != n:
                out.append(
                    RuleViolation(
                        "7.14",
                        f"{uid} attacks in both attack {attacking[uid]} and {label}",
                        uid,
                        _s(hex_of(uid)),
                    )
                )
            attacking.setdefault(uid, n)
        for uid in att.defenders:
            if uid in attacked and attacked[uid] != n:
                out.append(
                    RuleViolation(
                        "7.14",
                        f"{uid} is attacked in both attack {attacked[uid]} and {label}",
                        uid,
                        _s(hex_of(uid)),
                    )
                )
            attacked.setdefault(uid, n)

    def _adjacent(self, label: str, att: AttackOrder) -> None:
        """[7.15, 7.23, 6.33] every ground attacker adjacent to every defender, not across a
        non-bridge river ([8.34] artillery there barrages instead; the exclusive rules may allow
        such an attack, Arnhem [13.24])."""
        out, unit, side, hex_of = self.out, self.unit, self.side, self.hex_of
        board, scenario = self.board, self.scenario
        for uid in att.attackers:
            h = hex_of(uid)
            if h is None or unit[uid].side != side:
                continue
            for d in att.defenders:
                dh = hex_of(d)
                if dh is None:
                    continue
                if not h.is_adjacent(dh):
                    rule = "7.23" if len(att.defenders) > 1 else "7.15"
                    out.append(
                        RuleViolation(
                            rule,
                            f"{uid} in {h} is not adjacent to {d} in {dh} ({label}); "
                            "units attacking from a distance must be artillery listed as barraging",
                            uid,
                            str(h),
                        )
                    )
                elif not can_attack_across(board, h, dh) and (
                        unit[uid].is_artillery
                        or get_exclusive(scenario.game).attack_across(scenario, board, uid, h, dh)
                        is None):
                    if unit[uid].is_artillery:
                        out.append(
                            RuleViolation(
                                "8.34",
                                f"{uid} in {h} faces {d} in {dh} across a river: list it among "
                                f"the barraging artillery, not the attackers ({label})",
                                uid,
                                str(h),
                            )
                        )
                    else:
                        out.append(
                            RuleViolation(
                                "6.33",
                                f"{uid} in {h} cannot attack {d} in {dh} across a non-bridge "
                                f"river hexside ({label})",
                                uid,
                                str(h),
                            )
                        )

    def _barrages(self, label: str, att: AttackOrder, d_hexes: list[Hex]) -> None:
        """Barraging artillery: [8.13] a barrage alone targets one hex; [8.32] artillery adjacent
        to an enemy may not barrage; [8.11, 8.12] in range of a defender ([8.22] combined: of
        one of them)."""
        out, unit, side, hex_of = self.out, self.unit, self.side, self.hex_of
        if not att.attackers and len(set(d_hexes)) > 1:
            out.append(
                RuleViolation(
                    "8.13",
                    f"{label} is a barrage alone and may target only one hex, not "
                    f"{', '.join(sorted(str(h) for h in set(d_hexes)))}",
                )
            )
        for uid in att.artillery:
            h = hex_of(uid)
            u = unit[uid]
            if h is None or not u.is_artillery or u.side != side:
                continue
            enemies_adjacent = engaged_enemies(self.board, uid, self.scenario.other(side))
            if enemies_adjacent:
                out.append(
                    RuleViolation(
                        "8.32",
                        f"{uid} in {h} is adjacent to {', '.join(enemies_adjacent)}: it must attack "
                        f"adjacent units from its hex and cannot barrage ({label})",
                        uid,
                        str(h),
                    )
                )
            if d_hexes and not any(h.distance(dh) <= u.range for dh in d_hexes):
                nearest = min(h.distance(dh) for dh in d_hexes)
                rule = "8.22" if len(set(d_hexes)) > 1 else "8.11"
                out.append(
                    RuleViolation(
                        rule,
                        f"{uid} in {h} (range {u.range}) is {nearest} hexes from the nearest "
                        f"defender ({label}) [8.12]",
                        uid,
                        str(h),
                    )
                )

    def _artillery_limit(self, label: str, att: AttackOrder) -> None:
        """[14.0] artillery limit: barrage and support added to a combat in which ground units
        take part may not exceed their attack strength, and artillery attacking from an adjacent
        hex counts against the limit too ("both adjacent and non-adjacent artillery units count").
        A combat with no ground attacker is exempt. Our ruling for the case the rules leave open:
        adjacent artillery obliged to attack [8.31] may exceed the limit on its own (otherwise
        some positions would have no legal orders), but then nothing more may be added
        (docs/westwall.md)."""
        unit = self.unit
        ground_nonart = [u for u in att.attackers if not unit[u].is_artillery]
        if not (self.scenario.artillery_limit and ground_nonart):
            return
        adjacent_points = sum(_barrage(unit[u]) for u in att.attackers if unit[u].is_artillery)
        art_points = sum(_barrage(unit[u]) for u in att.artillery if unit[u].is_artillery)
        ground_points = sum(unit[u].attack for u in ground_nonart)
        added = art_points + att.support
        if added and adjacent_points + added > ground_points:
            self.out.append(
                RuleViolation(
                    "14.0",
                    f"{label} adds {art_points} artillery and {att.support} support points to "
                    f"{adjacent_points} of adjacent artillery, but its non-artillery attackers "
                    f"have only {ground_points} attack points",
                )
            )

    def _advances(self, label: str, att: AttackOrder) -> None:
        """[7.94] only participating ground attackers may advance; [7.95] along a defender's
        path."""
        out = self.out
        for adv in att.advance:
            if adv.follow is not None and adv.follow not in att.defenders:
                out.append(
                    RuleViolation(
                        "7.95",
                        f"{adv.unit} cannot follow {adv.follow} after {label}: it is not a "
                        "defender in it",
                        adv.unit,
                    )
                )
            if adv.unit not in att.attackers:
                why = (
                    "barraging artillery never advances"
                    if adv.unit in att.artillery
                    else "it is not an adjacent attacker in it"
                )
                out.append(
                    RuleViolation(
                        "7.94",
                        f"{adv.unit} cannot advance after {label}: {why}",
                        adv.unit,
                        _s(self.hex_of(adv.unit)),
                    )
                )

    def ground_support(self, state: State, support_total: int) -> None:
        """[9.x] the attacks' ground support within the points left this game-turn [9.14], in one
        combat phase of it where the scenario says so (Bastogne [15.26.4])."""
        if not support_total:
            return
        scenario, side = self.scenario, self.side
        avail = ground_support_available(scenario, state, side)
        if support_phase_blocked(scenario, state, side, player_turn_number(scenario, state)):
            self.out.append(
                RuleViolation(
                    "15.26.4",
                    f"{side} already used ground support in the other combat phase of this "
                    "game-turn",
                )
            )
        elif support_total > avail:
            self.out.append(
                RuleViolation(
                    "9.14",
                    f"the attacks use {support_total} ground support points but only {avail} "
                    f"are available to {side} in game-turn {state.game_turn}",
                )
            )

    def obligations(self, orders: PlayerTurnOrders) -> None:
        """Obligations: [7.11] every engaged enemy unit is attacked ([7.21] by a unit in several
        enemy zones of control when no other engages it); [8.31] adjacent artillery and [7.12]
        every other unit in an enemy zone of control attack."""
        board, side, out, unit = self.board, self.side, self.out, self.unit
        enemy = self.scenario.other(side)
        for e in board.units_of(enemy):
            eh = unit_hex_of(board, e)
            if e in self.attacked:
                continue
            adj = _engaged_units(board, eh, side)
            if not adj:
                continue
            multi = [u for u in adj if len(engaged_enemies(board, u, enemy)) > 1]
            if multi:
                out.append(
                    RuleViolation(
                        "7.21",
                        f"{e} in {eh} is not attacked: {', '.join(multi)} in several enemy zones of "
                        "control must attack every adjacent enemy no other unit engages",
                        e,
                        str(eh),
                    )
                )
            else:
                out.append(
                    RuleViolation(
                        "7.11",
                        f"{e} in {eh} is adjacent to {', '.join(adj)} and must be attacked",
                        e,
                        str(eh),
                    )
                )
        ground = _all_attackers(orders)
        for own in board.units_of(side):
            if own in ground:
                continue
            oh = unit_hex_of(board, own)
            if unit[own].is_artillery:
                if engaged_enemies(board, own, enemy):
                    out.append(
                        RuleViolation(
                            "8.31",
                            f"{own} in {oh} is adjacent to an enemy unit and must attack it",
                            own,
                            str(oh),
                        )
                    )
            elif board.enemy_zoc(oh, side):
                out.append(
                    RuleViolation(
                        "7.12",
                        f"{own} in {oh} is in an enemy zone of control and must attack",
                        own,
                        str(oh),
                    )
                )


def _all_attackers(orders: PlayerTurnOrders) -> set[str]:
    return {u for att in orders.attacks for u in att.attackers}


def _engaged_units(board: Board, h: Hex, side: str) -> list[str]:
    """``side``'s units engaged with hex ``h`` [7.11, 8.31], sorted by id. Only the six hexes
    around ``h`` can hold one, so only they are looked at."""
    geo = board.geo
    side_of = geo.side_of
    at = board._at
    out: list[str] = []
    if h in geo.hexes:
        # The geometry lists the neighbours across whose hexsides attacks may be made.
        for n in geo.attack_to[h]:
            occupants = at.get(n)
            if occupants:
                for u in occupants:
                    if side_of[u] == side:
                        out.append(u)
    else:
        for n in h.neighbours():
            occupants = at.get(n)
            if occupants and _engaged(board, h, n):
                out.extend(u for u in occupants if side_of[u] == side)
    out.sort()
    return out


def engaged_enemies(board: Board, uid: str, enemy: str) -> list[str]:
    return _engaged_units(board, unit_hex_of(board, uid), enemy)


def unit_hex_of(board: Board, uid: str) -> Hex:
    h = board.unit_hex(uid)
    assert h is not None, uid
    return h


def _s(h: Hex | None) -> str | None:
    return None if h is None else str(h)
