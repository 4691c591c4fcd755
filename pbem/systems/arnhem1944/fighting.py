"""The combat steps of one activation of *Arnhem 1944* [7, 8, 13], applied to a working copy of
the state: attacks with their support, air and odds, bombardments, the split of a result into
step losses and retreat, losses, retreats and advances. :class:`Fighting` holds the activation's
working state (the state, the side, the dice or none when checking, the log, what each unit has
done); :class:`pbem.systems.arnhem1944.activation.Run` adds the activation itself and movement.
The pure combat and artillery rules it applies are :mod:`~pbem.systems.arnhem1944.combat` and
:mod:`~pbem.systems.arnhem1944.artillery`; the readings of the text are in
:mod:`pbem.systems.arnhem1944.rules`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field, replace
from typing import cast

from pbem.engine.conditions import Happened, holds, parse_condition
from pbem.engine.ruleset import Dice
from pbem.errors import RuleViolation
from pbem.plain import Plain
from pbem.systems.arnhem1944 import artillery as art_rules
from pbem.systems.arnhem1944 import combat as cb
from pbem.systems.arnhem1944.board import Board
from pbem.systems.arnhem1944.orders import Action
from pbem.systems.arnhem1944.queries import (
    AIRBORNE_1AB,
    PARACHUTE,
    Game,
    mark_bridge,
    other,
    values,
)
from pbem.systems.arnhem1944.state import Side, Standing, State
from pbem.systems.arnhem1944.tables import Result


class Bad(Exception):
    """An action that cannot be carried out (a violation when checking; skipped when resolving):
    the case, the message, and the unit and hex it concerns when there is one."""

    def __init__(self, rule: str, message: str, *, unit: str | None = None,
                 hex: str | None = None) -> None:
        self.violation = RuleViolation(rule, message, unit, hex)
        super().__init__(str(self.violation))

    @classmethod
    def of(cls, v: RuleViolation) -> Bad:
        """The violation found by the combat or artillery rules, as it stands."""
        return cls(v.rule, v.message, unit=v.unit, hex=v.hex)


class Tracker(Plain):
    mp: int
    moves: int = 0
    moved: bool = False
    reopened: bool = True
    attacks: list[str] = field(default_factory=list)
    stopped: bool = False
    attacked_since_move: bool = False
    last_move_zoc: bool = False


class LastCombat(Plain):
    kind: str
    attackers: list[str]
    retreated: set[str]
    trail: list[str]


class Fighting:
    """The working state of one activation, carried out (``dice`` given) or checked (``dice``
    None: no roll goes against the orders) on ``st`` (a working copy), and its combat steps."""

    def __init__(self, game: Game, st: State, side: Side, dice: Dice | None,
                 log: Happened) -> None:
        self.g = game
        self.st = st
        self.side = side
        self.dice = dice
        self.log = log
        self.violations: list[RuleViolation] = []
        self.unrolled = 0
        """Checking: the dice the walk would have rolled (each taken as favourable)."""
        self.track: dict[str, Tracker] = {}
        self.last: LastCombat | None = None
        self.expected: list[tuple[int, str, str, cb.Odds]] = []
        """Checking: each attack's (action number, target, type, odds) as its die would be rolled,
        for the preview [7.3, 7.4, 27]."""

    @property
    def checking(self) -> bool:
        return self.dice is None

    def roll(self, label: str, favourable: int) -> int:
        if self.dice is None:
            self.unrolled += 1
            return favourable
        return self.log.roll(label, self.dice.d6(label))

    def board(self) -> Board:
        return self.g.board(self.st)

    def _mark_bridge(self) -> None:
        mark_bridge(self.g, self.st)

    # -- combat [7, 8, 13] --------------------------------------------------------------------------------
    def _combat_unit(self, uid: str) -> cb.CombatUnit:
        g, st = self.g, self.st
        c = g.c(uid)
        u = st.units[uid]
        if c.kind == "artillery":
            return art_rules.as_defender(self._artillery(uid), in_supply=u.in_supply)
        v = values(c, u.steps)
        rating, kind = (v.armour, "armour") if v.armour else (v.antitank, "antitank")
        return cb.CombatUnit(uid, v.cf, u.steps, rating, cast(cb.RatingKind, kind), u.in_supply)

    def _affiliation(self, uid: str) -> art_rules.Affiliation:
        c = self.g.c(uid)
        f = self.g.sc.formation[c.formation]
        return art_rules.Affiliation(c.side, f.corps or None, f.id, f.id in PARACHUTE)

    def _artillery(self, uid: str) -> art_rules.Artillery:
        g, st = self.g, self.st
        c = g.c(uid)
        u = st.units[uid]
        f = g.sc.formation[c.formation]
        corps = f.corps == "XXX"
        aff = art_rules.Affiliation(c.side, f.corps or None, None if corps else f.id,
                                    f.id in PARACHUTE)
        assert u.hex is not None
        in_zoc = u.hex in g.enemy_zoc(st, c.side)
        return art_rules.Artillery(uid, u.hex, c.br, c.df, c.range, aff,
                                   supports_parachute=corps, supports_side=c.supports_all,
                                   df_when_attacked=c.defence_df,
                                   activated=uid in self.track or u.activated,
                                   bv_used=u.bv_used, df_used=u.df_used,
                                   in_command=u.in_command, in_enemy_zoc=in_zoc)

    def _attack(self, a: Action, n: int) -> None:
        """An attack [7]: the attackers [7.1, 7.2, 15.2] and their support [8.2, 13], the
        defenders' [8.2, 13], the odds checked [7.3]; then its costs and markers, the die [7.4]
        and the result, the defender's first [7.5]."""
        g, st = self.g, self.st
        assert a.target is not None and a.type is not None
        kind = cast(cb.AttackType, a.type)
        target = a.target
        board = self.board()
        defenders = [x for x in g.at(st, target, other(self.side)) if g.c(x).kind != "engineer"]
        if not defenders:
            raise Bad("7.2", f"there is no enemy unit to attack at {target}", hex=target)
        attackers = [self._attacker(uid, kind, target, board) for uid in a.units]
        dunits = self._defending(defenders)
        terrain = board.kind(target)
        pdp = self._in_position(defenders)
        arts = [self._supporting(aid, a, kind, target, board) for aid in a.support]
        halved = art_rules.protected(g.tec, terrain, pdp)
        support = art_rules.attack_support(arts, halved)
        air_a, exception = self._air(a, kind)
        dsupport, darts = self._defence_support(target, kind, defenders)
        air_d = self._defence_air(kind, defenders)
        attack = cb.Attack(tuple(attackers), tuple(dunits), terrain, pdp, support, dsupport,
                           air_a, air_d, exception)
        probs = cb.combat_problems(attack, g.tec)
        if probs:
            raise Bad.of(probs[0])
        self._attack_made(a, kind, arts, darts, air_a=air_a, exception=exception, air_d=air_d)
        die = self.roll(f"7.4 combat at {target}", 0)
        if self.checking:
            self.expected.append((n, target, kind, cb.odds(attack, g.crt, g.tec)))
            self.last = LastCombat(kind, list(a.units), set(), [])
            return
        odds, res = cb.result(attack, die, g.crt, g.tec)
        self.log.event({"kind": "combat", "action": n, "target": target, "type": kind,
                        "attackers": list(a.units), "defenders": defenders,
                        "from": sorted({st.units[x].hex or "" for x in a.units}),
                        "support_from": sorted({x.hex for x in arts}),
                        "defence_from": sorted({st.units[x].hex or "" for x in darts}),
                        "support": [x.id for x in arts], "defence_support": darts,
                        "air": air_a, "air_defence": air_d, "odds": odds.heading, "die": die,
                        "result": str(res), "lines": list(odds.lines)})
        # the defender first [7.5]
        dmin = cb.minimum_losses(res, kind, g.crt, attacker=False)
        dexposed = [d for d in darts if board.distance(st.units[d].hex or "", target) <= 1]
        trail = self._apply_result(defenders, target, res.defender, dmin, self._wanted(
            other(self.side), target, defenders + dexposed, res.defender), by=list(a.units),
            others=[x.unit for x in attackers], exposed=dexposed)
        # then the attacker (with any supporting artillery next to the target [8.2])
        retreated = self._attacker_result(a, kind, target, res, arts, dunits, board)
        self.last = LastCombat(kind, list(a.units), retreated, trail)
        self._mark_bridge()

    def _attacker(self, uid: str, kind: cb.AttackType, target: str, board: Board) -> cb.Attacker:
        """One attacking unit: on the map, next to the target [7.2], no artillery or engineer
        [8], its MP and earlier attacks allowing this one [7.1], a mobile assault only when it
        dropped this turn (in an enemy zone of control, rules version 4) [15.2]."""
        u = self.st.units[uid]
        c = self.g.c(uid)
        t = self.track[uid]
        if not u.on_map or u.hex is None:
            raise Bad("7.2", f"{uid} is not on the map", unit=uid)
        if c.kind in ("artillery", "engineer"):
            raise Bad("8", f"{uid} does not attack; artillery supports or bombards", unit=uid)
        if not board.adjacent(u.hex, target):
            raise Bad("7.2", f"{uid} at {u.hex} is not next to {target}", unit=uid, hex=target)
        for p in cb.attack_problems(kind, t.mp, cast(Sequence[cb.AttackType], t.attacks)):
            raise Bad(p.rule, f"{uid}: {p.message}", unit=uid, hex=p.hex)
        if kind != "M" and self._dropped_now(uid):
            where = (" in an enemy zone of control" if self.g.readings.mobile_only_in_enemy_zoc
                     else "")
            raise Bad("15.2", f"{uid} dropped{where} this turn and may make only mobile assaults",
                      unit=uid)
        return cb.Attacker(self._combat_unit(uid), kind, board.side(u.hex, target))

    def _supporting(self, aid: str, a: Action, kind: cb.AttackType, target: str,
                    board: Board) -> art_rules.Artillery:
        """[8.2] one artillery unit supporting the attack: artillery on the map, in range, of
        an affiliation that may support the attackers."""
        if self.g.c(aid).kind != "artillery" or not self.st.units[aid].on_map:
            raise Bad("8.2", f"{aid} is not artillery on the map", unit=aid)
        art = self._artillery(aid)
        probs = art_rules.attack_support_problems(
            art, board, target, kind, [self._affiliation(x) for x in a.units])
        if probs:
            raise Bad(probs[0].rule, f"{aid}: {probs[0].message}", unit=aid, hex=probs[0].hex)
        return art

    def _attack_made(self, a: Action, kind: cb.AttackType, arts: list[art_rules.Artillery],
                     darts: list[str], *, air_a: bool, exception: bool, air_d: bool) -> None:
        """The attack is made: its costs and markers [7.1, 8, 13] -- the attackers' MP and
        attacks, the artillery's barrage and defensive fire used, the air missions flown
        (the attacker's, one of the 1st Airborne's own when ``exception``, the defender's)."""
        st = self.st
        for uid in a.units:
            t = self.track[uid]
            t.mp -= cb.mp_cost_halves(kind)
            t.attacks.append(kind)
            t.attacked_since_move = True
            if cb.moves_after_combat(kind):
                t.reopened = True
            else:
                t.stopped = True
        for art in arts:
            st.units[art.id].bv_used = True
            self.track[art.id].attacks.append(kind)
        for d in darts:
            st.units[d].df_used = True
        if air_a:
            if exception:
                st.airborne_missions += 1
            else:
                st.air_used += 1
        if air_d:
            st.air_used += 1

    def _attacker_result(self, a: Action, kind: cb.AttackType, target: str, res: Result,
                         arts: list[art_rules.Artillery], dunits: list[cb.CombatUnit],
                         board: Board) -> set[str]:
        """[7.5, 8.2] the attacker's part of the result, shared with any supporting artillery
        next to the target: the compulsory minimum, the steps its orders take (all of it when it
        holds), the rest as hexes of retreat, each hex's stack on its own [7.6]; the units that
        retreated."""
        st = self.st
        amin = cb.minimum_losses(res, kind, self.g.crt, attacker=True)
        hold = a.hold or (a.hold_if is not None and holds(parse_condition(a.hold_if), self.log))
        exposed = [x.id for x in arts if art_rules.exposed(board, x, target)]
        retreated: set[str] = set()
        if res.attacker:
            groups: dict[str, list[str]] = {}
            for uid in list(a.units) + exposed:
                h = st.units[uid].hex
                if h is not None:
                    groups.setdefault(h, []).append(uid)
            losers = list(a.units) + exposed
            want = res.attacker if hold else (a.lose or 0)
            steps, hexes = self._split(losers, res.attacker, amin, want)
            self._take_losses(losers, steps, dunits, "combat")
            if hexes:
                for h, group in sorted(groups.items()):
                    alive = [x for x in group if st.units[x].alive]
                    if alive:
                        self._retreat(alive, h, hexes, a.towards)
                        retreated.update(alive)
        return retreated

    def _defending(self, defenders: list[str]) -> list[cb.CombatUnit]:
        """The defending stack [7.4]; units that retreated into it this turn add no combat
        factor while a unit that was there before stands with them, but share its losses [7.6]."""
        units = [self._combat_unit(x) for x in defenders]
        if any(x not in self.st.joined for x in defenders):
            units = [replace(u, cf=0) if u.id in self.st.joined else u for u in units]
        return units

    def _dropped_now(self, uid: str) -> bool:
        """[15.2] whether ``uid`` is held to mobile assaults this turn: it landed in an enemy zone
        of control this turn (rules version 4), or it dropped this turn at all (version 3)."""
        if self.g.readings.mobile_only_in_enemy_zoc:
            return uid in self.st.landed_in_zoc
        u = self.st.units[uid]
        return u.entry_turn == self.st.turn and any(uid in d.units for d in self.g.sc.para_drops)

    def _in_position(self, defenders: list[str]) -> bool:
        """[11.1, 11.2, 8.4] whether the defending stack is in a prepared position (the column
        shift, the halved bombardment values). Rules version 4: "PDPs are not transferable
        between units. If a stack of units wishes to place a PDP, all units expend the necessary
        MP" -- only when every unit defending there prepared its own (units that retreated in
        this turn do not defend there [7.6] and are not asked). Version 3: when any one had."""
        st = self.st
        if not self.g.readings.own_positions:
            return any(st.units[x].prepared for x in defenders)
        defending = [x for x in defenders if x not in st.joined] or defenders
        return all(st.units[x].prepared for x in defending)

    def _air(self, a: Action, kind: cb.AttackType) -> tuple[bool, bool]:
        """[13, 14.3] the attacker's air support: prepared attacks by units in command, as many a
        turn as the weather gives; 1st Airborne's two missions of the game also in normal attacks
        and out of command."""
        if not a.air:
            return False, False
        g, st = self.g, self.st
        if self.side != "AL":
            raise Bad("13", "only the Allied player has air support")
        missions = g.sc.weather_effects[st.weather].air_missions
        first_ab = all(g.c(x).formation == AIRBORNE_1AB for x in a.units)
        normal_ok = kind == "P" and st.air_used < missions and all(
            st.units[x].in_command for x in a.units)
        if normal_ok:
            return True, False
        left = g.sc.constants.first_airborne_air_missions - st.airborne_missions
        if first_ab and kind != "M" and missions > 0 and left > 0:
            return True, True
        if kind != "P":
            raise Bad("13", f"air support only in prepared attacks ({cb.NAMES[kind]})")
        if st.air_used >= missions:
            raise Bad("14.3", f"no air mission left this turn ({st.weather}: {missions})")
        raise Bad("13", "only units in command receive air support")

    def _defence_support(self, target: str, kind: cb.AttackType,
                         defenders: list[str]) -> tuple[int, list[str]]:
        """[8.2] the defender's artillery not yet activated, by its standing orders."""
        g, st = self.g, self.st
        dside = other(self.side)
        if kind == "M" or not self._standing(dside).fire:
            return 0, []
        board = self.board()
        affs = [self._affiliation(x) for x in defenders]
        used: list[str] = []
        for uid in sorted(st.units):
            c = g.c(uid)
            if c.side != dside or c.kind != "artillery" or not st.units[uid].on_map:
                continue
            if uid in defenders:
                continue
            art = self._artillery(uid)
            if not art_rules.defence_support_problems(art, board, target, kind, affs):
                used.append(uid)
        return art_rules.defence_support([self._artillery(x) for x in used]), used

    def _defence_air(self, kind: cb.AttackType, defenders: list[str]) -> bool:
        g, st = self.g, self.st
        dside = other(self.side)
        if dside != "AL" or kind != "P" or not self._standing(dside).air:
            return False
        missions = g.sc.weather_effects[st.weather].air_missions
        return st.air_used < missions and all(st.units[x].in_command for x in defenders)

    def _standing(self, side: str) -> Standing:
        return self.st.standing.get(side) or Standing()

    def _wanted(self, side: str, h: str, units: list[str], number: int) -> int:
        """[7.5] the step losses the defender's standing orders will take of a result of
        ``number`` at ``h`` before any hex of retreat: all of it when it holds (``defence`` hold
        or ``h`` in ``hold``), else up to ``lose``; never so many that the stack keeps fewer
        than ``keep`` steps (the compulsory minimum is applied afterwards, whatever ``keep``)."""
        s = self._standing(side)
        want = number if (s.defence == "hold" or h in s.hold) else s.lose
        if s.keep:
            have = sum(self.st.units[x].steps for x in units)
            want = min(want, max(have - s.keep, 0))
        return want

    def _split(self, units: list[str], number: int, minimum: int, want: int) -> tuple[int, int]:
        """[7.5] steps and hexes of a result: the compulsory minimum, then up to ``want`` steps
        in all (the side's order written in advance), the rest as hexes of retreat; with the
        optional morale rule [7.5 errata] each step beyond the minimum is earned: two dice per
        point scoring less than the stack's best morale turn it into a step loss, and the first
        failed test sends the rest back as retreat."""
        have = sum(self.st.units[x].steps for x in units)
        first = min(minimum, number)
        want = max(first, min(want, number))
        if want > first and self.st.options.morale and not self.checking:
            morale = max(self.g.c(x).morale for x in units)
            rolls: list[tuple[int, int]] = []
            for _ in range(want - first):
                if first + len(rolls) >= have:
                    break
                pair = (self.roll("7.5 morale", 1), self.roll("7.5 morale", 1))
                rolls.append(pair)
                if sum(pair) >= morale:
                    break
            split = cb.morale_split(number, minimum, morale, rolls)
            self.log.event({"kind": "morale", "units": list(units), "morale": morale,
                            "rolls": [list(r) for r in rolls], "steps": split.steps,
                            "hexes": split.hexes})
            if split.steps >= have:
                return have, 0
            return split.steps, split.hexes
        if want >= have:
            return have, 0
        return want, number - want

    def _take_losses(self, units: list[str], steps: int, opposing: Sequence[cb.CombatUnit],
                     why: str) -> None:
        """[7.5] step losses spread over ``units``: first an armour/antitank unit when both
        sides have one, then the unit with the most steps (then by id)."""
        st = self.st
        first = cb.first_loss_candidates([self._combat_unit(x) for x in units
                                          if st.units[x].alive], opposing)
        for i in range(steps):
            alive = [x for x in units if st.units[x].alive]
            if not alive:
                return
            pool = [x for x in alive if first is not None and x in first] if i == 0 else []
            pick = sorted(pool or alive, key=lambda x: (-st.units[x].steps, x))[0]
            self._lose(pick, why)

    def _lose(self, uid: str, why: str) -> None:
        u = self.st.units[uid]
        u.steps -= 1
        self.log.event({"kind": "step-lost", "unit": uid, "why": why, "steps": u.steps})
        if u.steps == 0:
            h = u.hex
            u.prepared = False
            self.log.event({"kind": "eliminated", "unit": uid, "hex": h})
            if h is not None:
                self._engineer_left(h)

    def _engineer_left(self, h: str) -> None:
        """[12.1] the engineer is eliminated with the last unit stacked with it."""
        g, st = self.g, self.st
        here = g.at(st, h)
        if here and all(g.c(x).kind == "engineer" for x in here):
            for e in here:
                st.units[e].steps = 0
                self.log.event({"kind": "eliminated", "unit": e, "hex": h,
                                "why": "[12.1] every unit stacked with the engineer is gone"})

    def _apply_result(self, units: list[str], h: str, number: int, minimum: int, want: int,
                      *, by: list[str], others: Sequence[cb.CombatUnit],
                      exposed: Sequence[str] = ()) -> list[str]:
        """The defender's part of a result [7.5, 7.6]; returns the path it vacated. ``exposed``:
        artillery next to ``h`` that gave defensive support: it shares the result [8.2] -- its
        steps are among those the losses fall on, and a retreat takes it back from its own hex
        as many hexes as the defenders."""
        st = self.st
        if number == 0:
            return []
        losers = list(units) + list(exposed)
        steps, hexes = self._split(losers, number, minimum, want)
        self._take_losses(losers, steps, others, "combat")
        if hexes:
            side = other(self.side)
            groups: dict[str, list[str]] = {}
            for x in exposed:
                if st.units[x].alive and st.units[x].hex is not None:
                    groups.setdefault(st.units[x].hex or "", []).append(x)
            for where, group in sorted(groups.items()):
                self._retreat(group, where, hexes, self._towards(side, group, where))
        alive = [x for x in units if st.units[x].alive]
        if alive and hexes:
            engineers = [x for x in self.g.at(st, h) if self.g.c(x).kind == "engineer"]
            path = self._retreat(alive + engineers, h, hexes,
                                 self._towards(other(self.side), alive, h))
            gone = set(self.g.hexes_of(st, other(self.side)))
            trail = [h] + [x for x in path if x != cb.OFF_MAP and x not in gone]
        elif not alive:
            trail = [h]
        else:
            return []
        if h in self.g.hexes_of(st, other(self.side)):
            return []
        self.log.event({"kind": "vacated", "hex": h, "path": trail})
        return trail

    def _towards(self, side: str, units: list[str], h: str) -> str | None:
        """[7.6] the hex a defending stack retreats towards, by its side's standing orders: the
        first of its units (by id) with an order, else the order for its hex, else ``"*"``."""
        orders = self._standing(side).retreat
        for key in [*sorted(units), h, "*"]:
            if key in orders:
                return orders[key]
        return None

    def _retreat(self, units: list[str], start: str, hexes: int,
                 towards: str | None = None) -> list[str]:
        """[4.3, 7.6] a retreat by the priorities, losses for enemy zones and blocked hexes;
        among equal hexes the one nearest ``towards``, else the first by number."""
        g, st = self.g, self.st
        side = g.c(units[0]).side
        board = self.board()
        enemy = frozenset(g.hexes_of(st, other(side)))
        s = cb.Surroundings(enemy, board.zone(g.hexes_of(st, other(side), zoc_only=True)),
                            frozenset(g.hexes_of(st, side) - {start}))
        path: list[str] = []
        walked = [start]
        for _ in range(hexes):
            choices = cb.retreat_choices(board, g.tec, s, walked)
            if not choices:
                break
            pick = cb.pick_retreat(board, choices, towards)
            path.append(pick)
            walked.append(pick)
            if pick == cb.OFF_MAP:
                break
        out = cb.retreat_outcome(s, hexes, path)
        self.log.event({"kind": "retreated", "units": units, "from": start, "path": path})
        combatants = [x for x in units if g.c(x).kind != "engineer"]
        for _ in range(out.losses):
            alive = [x for x in combatants if st.units[x].alive]
            if alive:
                pick = sorted(alive, key=lambda x: (-st.units[x].steps, x))[0]
                self._lose(pick, "retreat")
        end = [x for x in path if x != cb.OFF_MAP]
        joined = bool(end) and any(g.c(y).side == side and y not in units
                                   for y in g.at(st, end[-1]))
        for x in units:
            u = st.units[x]
            if not u.alive:
                continue
            if joined and not out.eliminated and x not in st.joined:
                st.joined.append(x)  # [7.6] adds nothing to that hex's defence this turn
            if out.eliminated:
                u.steps = 0
                self.log.event({"kind": "eliminated", "unit": x, "hex": start,
                                "why": "[7.6] retreated off the map"})
                continue
            if end:
                u.hex = end[-1]
                u.prepared = False
        if end:
            self._engineer_left(start)
        return path

    def _advance(self, a: Action) -> None:
        g, st = self.g, self.st
        last = self.last
        if last is None:
            raise Bad("7.6", "an advance follows an attack")
        for uid in a.units:
            if uid not in last.attackers:
                raise Bad("7.6", f"{uid} did not take part in the last combat", unit=uid)
        if self.checking:
            return
        alive = [x for x in a.units if st.units[x].alive]
        if not last.trail or not alive:
            self.log.event({"kind": "no-advance", "units": list(a.units),
                            "why": "the defender's hex was not vacated"})
            return
        limit = g.crt.attack_table[cast(cb.AttackType, last.kind)].advance
        n = len(last.trail) if limit is None else min(limit, len(last.trail))
        if a.hexes is not None:
            n = min(n, a.hexes)
        board = self.board()
        zoc = g.enemy_zoc(st, self.side, board)
        route: list[str] = []
        for i, h in enumerate(last.trail[:n]):
            route.append(h)
            if i >= 1 and h in zoc:
                break
        for uid in alive:
            if uid in last.retreated:
                self.log.event({"kind": "no-advance", "units": [uid],
                                "why": "[7.6] it took part of its result as a retreat"})
                continue
            here = st.units[uid].hex
            st.units[uid].hex = route[-1]
            st.units[uid].prepared = False
            self.log.event({"kind": "advanced", "unit": uid, "from": here, "path": route})
        self._mark_bridge()

    def _bombard(self, a: Action) -> None:
        """[8.1] a bombardment by activated artillery."""
        g, st = self.g, self.st
        assert a.target is not None
        target = a.target
        board = self.board()
        defenders = [x for x in g.at(st, target, other(self.side)) if g.c(x).kind != "engineer"]
        if not defenders:
            raise Bad("8.1", f"there is no enemy unit to bombard at {target}", hex=target)
        arts = []
        for aid in a.support:
            if g.c(aid).kind != "artillery" or not st.units[aid].on_map:
                raise Bad("8.1", f"{aid} is not artillery on the map", unit=aid)
            if self.track[aid].attacks:
                raise Bad("8", f"{aid} has used its BV this turn", unit=aid)
            arts.append(self._artillery(aid))
        terrain = board.kind(target)
        pdp = self._in_position(defenders)
        halved = art_rules.protected(g.tec, terrain, pdp)
        dunits = [self._combat_unit(x) for x in defenders]
        friends = [(st.units[x].hex or "", self._affiliation(x)) for x in st.units
                   if g.c(x).side == self.side and st.units[x].on_map
                   and g.c(x).kind not in ("artillery", "engineer")]
        probs = art_rules.bombardment_problems(arts, board, g.crt, target,
                                               sum(u.cf for u in dunits), halved, friends)
        if probs:
            raise Bad.of(probs[0])
        for art in arts:
            st.units[art.id].bv_used = True
            self.track[art.id].attacks.append("B")
        die = self.roll(f"8.1 bombardment of {target}", 0)
        if self.checking:
            return
        b = art_rules.bombard(arts, dunits, terrain, pdp, die, g.crt, g.tec)
        self.log.event({"kind": "bombardment", "target": target, "artillery": list(a.support),
                        "from": sorted({x.hex for x in arts}),
                        "odds": b.heading, "die": die, "result": str(b.result),
                        "lines": list(b.lines)})
        self._apply_result(defenders, target, b.result.defender, b.result.defender_min,
                           self._wanted(other(self.side), target, defenders, b.result.defender),
                           by=list(a.support), others=[])
        self.last = None
