"""The alternating-activation sequence of *Arnhem 1944* and one activation, carried out or
checked: after each segment who activates next or whether the turn ends [2.2], the end of a turn
(stacking [5], administration, victory [16]), the weather [14], the airborne landings [15.2],
supply, command and the initiative [2.1, 9, 10]; and :class:`Run`, one activation [3] with its
moves, entries [4.2, 6, 12, 15] and prepared positions [11] (its combat steps are
:class:`~pbem.systems.arnhem1944.fighting.Fighting`'s). The readings of the text are in
:mod:`pbem.systems.arnhem1944.rules`."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from pbem.engine.conditions import Happened, holds, parse_condition
from pbem.engine.ruleset import Dice
from pbem.errors import RuleViolation
from pbem.systems.arnhem1944 import combat as cb
from pbem.systems.arnhem1944.board import Board, side_key
from pbem.systems.arnhem1944.fighting import Bad, Fighting, Tracker
from pbem.systems.arnhem1944.model import ZONES
from pbem.systems.arnhem1944.orders import Action, Activation, Drop
from pbem.systems.arnhem1944.queries import Game, due_drops, mark_bridge, other
from pbem.systems.arnhem1944.state import Side, Standing, State


def action_words(a: Action) -> str:
    """An action named in words for a player's error ("attack on 0924", "move of 1/19")."""
    units = ", ".join(a.units)
    return {"move": f"move of {a.unit}", "enter": f"entry of {a.unit}",
            "attack": f"attack on {a.target}", "advance": f"advance of {units}",
            "bombard": f"bombardment of {a.target}",
            "prepare": f"position prepared by {units}"}[a.do]


SAME_RESOLVED = frozenset({"move", "enter", "prepare"})
"""Actions a checking walk makes as the resolution would, when under no condition and rolling
no die: moves, entries and prepared positions (issue 28)."""


def _tracker_copy(t: Tracker) -> Tracker:
    return Tracker(mp=t.mp, moves=t.moves, moved=t.moved, reopened=t.reopened,
                   attacks=list(t.attacks), stopped=t.stopped,
                   attacked_since_move=t.attacked_since_move, last_move_zoc=t.last_move_zoc)


class Prefix:
    """A checking walk of a legal activation as it stood before its first action that is not
    walked alike resolved (an attack, a bombardment, an advance or any action under a condition;
    :data:`SAME_RESOLVED`), no die rolled before it (issue 28): the action's index, a copy of the
    working state, of what happened and of each unit's tracker. A resolution with the dice
    resumes there (:meth:`Run.activation`, ``resume``) instead of walking the moves again: until
    the first die the checking and the resolving walks are one and the same."""

    __slots__ = ("at", "state", "log", "track")

    def __init__(self, at: int, state: State, log: Happened, track: dict[str, Tracker]) -> None:
        self.at = at
        self.state = state
        self.log = log
        self.track = track


class Run(Fighting):
    """Carries out (``dice`` given) or checks (``dice`` None: no roll goes against the orders)
    the actions of one activation on ``st`` (a working copy)."""

    # -- the activation [3] -------------------------------------------------------------------------
    def activation(self, orders: Activation, *, keep: list[Prefix] | None = None,
                   resume: Prefix | None = None) -> None:
        """The activation; checking, ``keep`` receives its :class:`Prefix` when it has one (moves
        first, then a fight or a condition) and no problem was found before it; resolving,
        ``resume`` is the prefix its check kept, on its own state and log (``st`` and ``log``
        are the prefix's, the standing orders of the resolution set on it)."""
        if resume is not None:
            assert not self.checking and self.st is resume.state and self.log is resume.log
            self.track = resume.track
            self._actions(orders, resume.at, None)
            return
        g, st = self.g, self.st
        units = list(orders.units)
        if len(set(units)) != len(units):
            self.violations.append(RuleViolation("3.1", "a unit is named twice in the activation"))
        for uid in units:
            c = g.sc.counter.get(uid)
            if c is None:
                self.violations.append(RuleViolation("3.1", f"{uid} is not a unit of this game",
                                                     unit=uid))
                continue
            if c.side != self.side:
                self.violations.append(RuleViolation("3.1", f"{uid} is not one of {self.side}'s units",
                                                     unit=uid))
                continue
            u = st.units[uid]
            if not u.alive:
                self.violations.append(RuleViolation("3.1", f"{uid} has been eliminated", unit=uid))
            elif u.activated:
                self.violations.append(RuleViolation("3.1", f"{uid} has already been activated this turn",
                                                     unit=uid))
            elif not g.can_activate(st, uid):
                self.violations.append(RuleViolation("15", f"{uid} is not on the map and not due to enter",
                                                     unit=uid))
        k = g.sc.constants
        simplified = st.options.simplified_sequence
        if (orders.mode == "phase") != simplified:
            self.violations.append(RuleViolation("18.1", "the simplified sequence plays whole player-turns "
                                                         "(mode 'phase')" if simplified else
                                                 "mode 'phase' belongs to the simplified sequence, which "
                                                 "this game does not use"))
        elif orders.mode == "phase":
            self._phase_order(orders)
        elif orders.mode == "general":
            if len(units) > k.general_activation:
                self.violations.append(RuleViolation("3.3", f"a general activation takes at most "
                                                            f"{k.general_activation} units, not {len(units)}"))
        else:
            self._formation_problems(orders)
        if self.violations:
            return
        for uid in units:
            self.track[uid] = Tracker(g.allowance(st, uid))
            if st.units[uid].hex is None and not any(
                    a.do == "enter" and a.unit == uid for a in orders.actions):
                self.violations.append(RuleViolation("15.1", f"{uid} is off the map: activate it with an "
                                                             "'enter' action", unit=uid))
        self._actions(orders, 0, keep)

    def _actions(self, orders: Activation, start: int, keep: list[Prefix] | None) -> None:
        """The actions from ``start`` on, then the activation's end."""
        st = self.st
        units = list(orders.units)
        cut = -1
        if keep is not None and self.checking:
            cut = next((i for i, a in enumerate(orders.actions)
                        if a.do not in SAME_RESOLVED or a.if_ is not None), -1)
            cut = -1 if cut == 0 else cut  # nothing walked before it: nothing to keep
        names = [action_words(a) for a in orders.actions]
        after_failed_attack = False
        for i in range(start, len(orders.actions)):
            action = orders.actions[i]
            if i == cut and keep is not None and not self.violations and not self.unrolled:
                keep.append(Prefix(i, st.clone(), Happened(events=list(self.log.events),
                                                           rolls=list(self.log.rolls)),
                                   {uid: _tracker_copy(t) for uid, t in self.track.items()}))
            where = names[i] + (f" (action {i + 1})" if names.count(names[i]) > 1 else "")
            if self.checking and action.do == "advance" and after_failed_attack:
                continue  # the attack's own problem is the one to report [7.6]
            if action.if_ is not None and not self.checking:
                if not holds(parse_condition(action.if_), self.log):
                    self.log.event({"kind": "skipped", "action": i + 1,
                                    "why": "its condition does not hold"})
                    continue
            for uid in action.movers():
                if uid not in self.track:
                    self.violations.append(RuleViolation("3.1", f"{where}: {uid} is not in this activation"))
            if any(uid not in self.track for uid in action.movers()):
                continue
            try:
                self._action(action, i + 1)
                if action.do in ("attack", "bombard"):
                    after_failed_attack = False
            except Bad as bad:
                after_failed_attack = after_failed_attack or action.do == "attack"
                if self.checking:
                    self.violations.append(
                        replace(bad.violation, message=f"{where}: {bad.violation.message}"))
                else:
                    self.log.event({"kind": "skipped", "action": i + 1,
                                    "why": str(bad.violation)})
        if self.checking:
            self._compulsory_combat()
        for uid in units:
            st.units[uid].activated = True
        self.log.event({"kind": "activated", "side": self.side, "mode": orders.mode,
                        "formation": orders.formation, "units": units})

    def _phase_order(self, orders: Activation) -> None:
        """[18.1] the movement phase (moves, entries, positions) comes before the combat phase
        (attacks, bombardments, advances)."""
        fighting = False
        for i, a in enumerate(orders.actions):
            if a.do in ("attack", "bombard", "advance"):
                fighting = True
            elif fighting:
                self.violations.append(RuleViolation("18.1", f"{action_words(a)} (action {i + 1}) comes "
                                                             "after the combat phase has begun"))

    def _formation_problems(self, orders: Activation) -> None:
        g, st = self.g, self.st
        k = g.sc.constants
        f = g.sc.formation.get(orders.formation or "")
        if f is None or f.side != self.side:
            self.violations.append(RuleViolation("3.2", f"{orders.formation!r} is not one of "
                                                        f"{self.side}'s formations"))
            return
        if len(orders.units) > k.formation_activation:
            self.violations.append(RuleViolation("3.2", f"a formation activation takes at most "
                                                        f"{k.formation_activation} units"))
        if f.hq is None:
            self.violations.append(RuleViolation("3.2", f"{f.id} has no HQ: its units activate only in "
                                                        "general activations"))
            return
        if not st.units[f.hq].alive:
            self.violations.append(RuleViolation("3.2", f"the HQ {f.hq} of {f.id} is destroyed"))
            return
        for uid in orders.units:
            c = g.sc.counter.get(uid)
            if c is None:
                continue
            same = c.formation == f.id or (c.kind == "engineer" and f.corps == "XXX"
                                            and g.sc.formation[c.formation].corps == "XXX")
            if not same:
                self.violations.append(RuleViolation("3.2", f"{uid} is not of {f.id}", unit=uid))
            elif st.units[uid].hex is not None and not st.units[uid].in_command:
                self.violations.append(RuleViolation("9.2", f"{uid} is out of command: it may not take "
                                                            "part in a formation activation", unit=uid))

    def _compulsory_combat(self) -> None:
        g = self.g
        for uid, t in self.track.items():
            u = self.st.units[uid]
            if not t.moved or not t.last_move_zoc or t.attacked_since_move or not u.on_map:
                continue
            assert u.hex is not None
            pdp = u.prepared
            if not cb.attack_compulsory(ended_move_in_enemy_zoc=True, terrain=g.board(self.st)
                                        .kind(u.hex), prepared_position=pdp):
                continue
            self.violations.append(RuleViolation("4.3", f"{uid} ended its move in an enemy zone of control "
                                                        f"at {u.hex} and must attack before the activation "
                                                        "ends", unit=uid))

    def _action(self, a: Action, n: int) -> None:
        for uid in a.movers():
            if not self.st.units[uid].alive:
                raise Bad("7.5", f"{uid} has been eliminated", unit=uid)
        if a.do in ("move", "enter"):
            assert a.unit is not None
            self._move(a.unit, list(a.path), enter=a.do == "enter", zone=a.zone)
        elif a.do == "attack":
            self._attack(a, n)
        elif a.do == "advance":
            self._advance(a)
        elif a.do == "bombard":
            self._bombard(a)
        else:
            self._prepare(a)

    # -- movement [4.2, 6, 12, 15] --------------------------------------------------------------------
    def _move(self, uid: str, path: list[str], *, enter: bool, zone: str | None) -> None:
        g, st = self.g, self.st
        u = st.units[uid]
        c = g.c(uid)
        t = self.track[uid]
        if c.kind == "artillery" and t.attacks:
            raise Bad("3.4", f"{uid} has fired this activation and moves no more", unit=uid)
        if t.stopped:
            raise Bad("3.4", f"{uid} made a normal or prepared attack and moves no more", unit=uid)
        if t.moves and not t.reopened:
            raise Bad("3.4", f"{uid} may not stop and then move again in the same activation "
                             "(only a mobile assault in between allows it)", unit=uid)
        board = self.board()
        zoc = g.enemy_zoc(st, self.side, board)
        enemy = g.hexes_of(st, other(self.side))
        mp0 = t.mp
        if enter:
            if u.hex is not None:
                raise Bad("15.1", f"{uid} is already on the map", unit=uid)
            first = path[0]
            self._entry_problems(uid, first, zone)
            if self._enemy_at(first):
                raise Bad("15.1", f"{uid} cannot enter at {first}: enemy units are there",
                          unit=uid, hex=first)
            cost = board.entry_halves(first)
            if t.mp < cost:
                raise Bad("6.1", f"{uid} lacks the MP to enter at {first}", unit=uid, hex=first)
            t.mp -= cost
            u.hex = first
            u.entered = True
            u.entry_turn = st.turn
            u.in_command = u.in_supply = True
            t.mp = max(t.mp, 0)
            self.log.event({"kind": "entered", "unit": uid, "hex": first})
            if self.side == "AL" and g.readings.entry_hex_demolition:
                self._demolition(first)  # [12.2] entering the map enters the entry hex
                board = self.board()
            cur = first
            rest = path[1:]
            in_zoc = first in zoc
            if in_zoc and rest:
                raise Bad("4.2", f"{uid} entered an enemy zone of control at {first} and stops",
                          unit=uid, hex=first)
        else:
            if u.hex is None:
                raise Bad("15.1", f"{uid} is not on the map: use 'enter'", unit=uid)
            cur = u.hex
            rest = path
            in_zoc = cur in zoc
        walked: list[str] = []
        start = cur
        for i, h in enumerate(rest):
            if not board.on_map(h):
                raise Bad("6.1", f"{h} is not on the map", hex=h)
            if not board.adjacent(cur, h):
                raise Bad("6.1", f"{h} is not next to {cur}", hex=h)
            if h in enemy and not self._engineer_alone(h):
                raise Bad("6.1", f"{uid} cannot enter {h}: enemy units are there", unit=uid, hex=h)
            found = board.step_halves(cur, h)
            ferried = found is None
            cost = self._engineer_cost(uid, cur, h) if found is None else found
            if i == 0 and in_zoc:
                if h in zoc:
                    raise Bad("4.2", f"{uid} cannot move from an enemy zone of control "
                                     f"straight into another ({cur} to {h})", unit=uid, hex=h)
                cost += (g.allowance(st, uid) + 1) // 2
            if t.mp < cost:
                if self.checking and i < len(rest) - 1:
                    raise Bad("6.1", self._beyond_reach(uid, rest, i, cost, mp0, board),
                              unit=uid, hex=h)
                # the words a resolution records in its 'skipped' event: unchanged [6.1]
                raise Bad("6.1", f"{uid} lacks the MP to enter {h} "
                                 f"({_mp(cost)} needed, {_mp(t.mp)} left)", unit=uid, hex=h)
            t.mp -= cost
            if ferried:
                st.engineer_steps += u.steps
                self.log.event({"kind": "ferried", "unit": uid, "from": cur, "to": h})
            cur = h
            walked.append(h)
            if self.side == "DE" and h in enemy and self._engineer_alone(h):  # AL's hexes only
                for eid in g.at(st, h, "AL"):
                    st.units[eid].steps = 0
                    self.log.event({"kind": "eliminated", "unit": eid,
                                    "why": "[12.1] the engineer alone, entered by the enemy"})
            u.hex = h
            if u.prepared:
                u.prepared = False
            if self.side == "AL":
                self._demolition(h)
                board = self.board()
            if h in zoc and i < len(rest) - 1:
                raise Bad("4.2", f"{uid} entered an enemy zone of control at {h} and must stop "
                                 "there", unit=uid, hex=h)
        t.moves += 1
        t.moved = True
        t.reopened = False
        t.attacked_since_move = False
        t.last_move_zoc = cur in zoc
        if walked:
            self.log.event({"kind": "moved", "unit": uid, "from": start, "path": walked})
        self._mark_bridge()

    def _beyond_reach(self, uid: str, rest: list[str], i: int, cost: int, mp0: int,
                      board: Board) -> str:
        """A checked move whose MP run out before its last hex [6.1]: its destination is out of
        reach this activation. Says how far the unit gets, the MP it had against the path's cost
        (when every step of the rest has a TEC cost) and the hex where the MP ran out."""
        t = self.track[uid]
        dest, h = rest[-1], rest[i]
        total: int | None = mp0 - t.mp + cost
        for a, b in pairwise(rest[i:]):
            step = board.step_halves(a, b) if board.adjacent(a, b) else None
            if step is None or total is None:
                total = None
                break
            total += step
        u = self.st.units[uid]
        cost_words = (f": the path there costs {mp_words(total)} MP and {uid} has "
                      f"{mp_words(mp0)}" if total is not None else "")
        far = (f"it gets as far as {u.hex}, then lacks the MP to enter {h}" if i > 0 else
               f"it lacks the MP to enter even {h}, the path's first hex")
        return (f"{dest} is out of {uid}'s reach this activation{cost_words}; {far} "
                f"({mp_words(cost)} MP needed, {mp_words(t.mp)} left)")

    def _enemy_at(self, h: str) -> bool:
        return bool(self.g.at(self.st, h, other(self.side)))

    def _engineer_alone(self, h: str) -> bool:
        units = self.g.at(self.st, h)
        return bool(units) and all(self.g.c(x).kind == "engineer" for x in units)

    def _entry_problems(self, uid: str, first: str, zone: str | None) -> None:
        g, st = self.g, self.st
        r = g.reinforcement(uid)
        due = g.due_turn(st, uid)
        if r is None or due is None:
            raise Bad("15", f"{uid} is not a reinforcement that enters by land", unit=uid)
        if due > st.turn:
            raise Bad("15", f"{uid} is due on turn {due}, not before", unit=uid)
        if r.hex is not None:
            if first != r.hex:
                raise Bad("15.3", f"{uid} enters by hex {r.hex}", unit=uid)
            return
        own = r.zone
        use = zone or own
        if use not in g.sc.map.entry_zones:
            raise Bad("15.1", f"there is no entry zone {use}")
        delay = st.turn - r.turn
        shift = abs(ZONES.index(use) - ZONES.index(own))
        if shift > delay * g.sc.constants.delay_zone_shift:
            raise Bad("15.1", f"{uid} may enter by zone {use} only after {shift} turns of delay "
                              f"(it is due by zone {own} on turn {r.turn})", unit=uid)
        if first not in g.sc.map.entry_zones[use].hexes:
            raise Bad("15.1", f"{first} is not in entry zone {use}", hex=first)
        held = [h for h in g.sc.map.entry_zones[use].hexes if g.at(st, h, "AL")]
        if held:
            raise Bad("15.1", f"zone {use} is in Allied hands ({', '.join(held)}): enter later "
                              "by another zone, one zone further for each turn of delay")

    def _engineer_cost(self, uid: str, a: str, b: str) -> int:
        """[12.1] the XXX Corps engineer ferries up to three infantry steps a turn."""
        g, st = self.g, self.st
        board = self.board()
        if not board.water_crossing(a, b):
            raise Bad("12.1", f"{uid} cannot cross from {a} to {b}", unit=uid)
        c = g.c(uid)
        u = st.units[uid]
        engineers = [e for e in g.at(st, a, self.side) + g.at(st, b, self.side)
                     if g.c(e).kind == "engineer"]
        if not engineers:
            raise Bad("12.1", f"only a bridge or a ferry crosses from {a} to {b}, or the "
                              "engineer in one of the two hexes")
        if not c.is_infantry or c.mobility not in ("leg", "motorized"):
            raise Bad("12.1", f"the engineer carries infantry on foot or motorized, not {uid}")
        cap = g.sc.constants.engineer_steps
        if st.engineer_steps + u.steps > cap:
            raise Bad("12.1", f"the engineer has {cap - st.engineer_steps} of its {cap} infantry "
                              f"steps left this turn; {uid} has {u.steps}")
        if c.mobility == "motorized":
            return 2 * ((c.mp + 2) // 3)
        return 0

    def _demolition(self, h: str) -> None:
        """[12.2] the first Allied unit entering a hex of a railway bridge or ferry: 1d6, 6 saves.
        Only movement calls it ("the first time an allied unit moves adjacent"): an advance after
        combat, a retreat or a landing next to a crossing rolls nothing."""
        st = self.st
        board = self.board()
        for n in board.neighbours(h):
            key = side_key(h, n)
            if key not in board.blowable or key in st.tried:
                continue
            st.tried.append(key)
            die = self.roll(f"12.2 demolition {key}", 6)
            if self.checking:
                continue
            if die == 6:
                self.log.event({"kind": "not-blown", "crossing": key, "die": die})
            else:
                st.blown.append(key)
                self.log.event({"kind": "blown", "crossing": key, "die": die})

    def _prepare(self, a: Action) -> None:
        """[11] a prepared defensive position: a third of the printed MP, rounded up."""
        g, st = self.g, self.st
        zoc = g.enemy_zoc(st, self.side)
        for uid in a.units:
            u = st.units[uid]
            if not u.on_map:
                raise Bad("11.1", f"{uid} is not on the map", unit=uid)
            if not u.in_supply:
                raise Bad("10.2", f"{uid} is out of supply and may not prepare a position",
                          unit=uid)
            if u.hex in zoc:
                raise Bad("11.1", f"{uid} is in an enemy zone of control and may not prepare "
                                  "a position [errata]", unit=uid)
            cost = 2 * ((g.c(uid).mp + 2) // 3)
            t = self.track[uid]
            if t.mp < cost:
                raise Bad("11.1", f"{uid} needs {_mp(cost)} MP to prepare a position, has "
                                  f"{_mp(t.mp)}", unit=uid)
            t.mp -= cost
            u.prepared = True
            self.log.event({"kind": "prepared", "unit": uid, "hex": u.hex})


def _mp(halves: int) -> str:
    return str(halves // 2) + ("½" if halves % 2 else "")


def mp_words(halves: int) -> str:
    """Half MP in words for a checked order's refusal and ``pbem reach``: '½', '1', '3½' (:func:`_mp`
    stays as the resolution records it in events, '0½' included)."""
    return "½" if halves == 1 else _mp(halves)


# -- the sequence of a game-turn [2] -------------------------------------------------------------


def after_segment(g: Game, st: State, me: Side, dice: Dice, log: Happened) -> None:
    """[2.2] who activates next, or the end of the turn."""
    them = other(me)
    if g.ready(st, them):
        st.to_act = them
        return
    if not g.ready(st, me):
        log.event({"kind": "turn-end", "turn": st.turn,
                   "why": "no unit is left to activate [2.1]"})
        end_turn(g, st, me, dice, log)
        return
    st.alone += 1
    st.to_act = me
    if st.alone >= 2:
        die = log.roll("2.2 turn end", dice.d6(f"2.2 turn end {st.turn} segment {st.alone}"))
        ends = die in g.sc.constants.turn_end_roll
        log.event({"kind": "turn-end-die", "turn": st.turn, "die": die, "ends": ends})
        if ends:
            log.event({"kind": "turn-end", "turn": st.turn,
                       "why": f"the turn-end die shows {die} [2.2]"})
            end_turn(g, st, me, dice, log)


def end_turn(g: Game, st: State, me: Side, dice: Dice, log: Happened) -> None:
    """End of operations (stacking [5]), administration [2.1], and the next turn's weather
    [14], drop [15.2] or supply, command and initiative [2.1, 9, 10]."""
    stacking(g, st, log)
    mark_bridge(g, st)
    for u in st.units.values():
        u.activated = False
        u.bv_used = False
        u.df_used = False
    st.joined = []
    st.landed_in_zoc = []
    st.engineer_steps = 0
    st.air_used = 0
    st.passed = None
    st.alone = 0
    if st.turn >= g.sc.last_turn:
        st.phase = "ack"
        st.ack = other(me)
        st.outcome = victory(g, st)
        log.event({"kind": "game-end", "turn": st.turn, "outcome": st.outcome})
        return
    st.turn += 1
    weather(g, st, dice, log)
    if due_drops(g.sc, st) and g.sc.weather_effects[st.weather].drops:
        st.phase = "drop"
        return
    initiative(g, st, dice, log)


def weather(g: Game, st: State, dice: Dice, log: Happened) -> None:
    """[14.1, 14.2] the turn track's weather, or 1d6 (6: as the turn before)."""
    if st.options.weather == "historical":
        st.weather = g.sc.turns[st.turn - g.sc.first_turn].weather
        log.event({"kind": "weather", "turn": st.turn, "weather": st.weather})
        return
    die = log.roll("14.2 weather", dice.d6(f"14.2 weather turn {st.turn}"))
    found = g.sc.weather_table[die]
    if found != "same":
        st.weather = found
    log.event({"kind": "weather", "turn": st.turn, "weather": st.weather, "die": die})


def land(g: Game, st: State, orders: Drop, log: Happened) -> None:
    """[15.2] the airborne landings of the turn; with rules version 4 the units landing in an
    enemy zone of control are noted (mobile assaults only this turn)."""
    due = {d.group: d for d in due_drops(g.sc, st)}
    zoc = g.enemy_zoc(st, "AL") if g.readings.mobile_only_in_enemy_zoc else frozenset()
    for grp, d in due.items():
        if grp in orders.wait:
            log.event({"kind": "drop-waits", "group": grp})
            continue
        st.dropped.append(grp)
        st.drop_zones[grp] = orders.dz.get(grp, d.dz)
    for ln in orders.landings:
        u = st.units[ln.unit]
        u.hex = ln.hex
        u.entered = True
        u.entry_turn = st.turn
        u.in_command = u.in_supply = True
        if ln.hex in zoc:
            st.landed_in_zoc.append(ln.unit)
        log.event({"kind": "dropped", "unit": ln.unit, "hex": ln.hex})
    st.phase = "operations"
    mark_bridge(g, st)


def initiative(g: Game, st: State, dice: Dice, log: Happened) -> None:
    """[2.1] supply and command, then each side's die; the Germans win ties (the simplified
    sequence has no initiative: the Allies move first [18.1])."""
    g.command_and_supply(st)
    log.event({"kind": "supply-command", "turn": st.turn,
               "out_of_supply": sorted(x for x, u in st.units.items()
                                       if u.on_map and not u.in_supply),
               "out_of_command": sorted(x for x, u in st.units.items()
                                        if u.on_map and not u.in_command)})
    if st.options.simplified_sequence:
        st.phase = "operations"
        st.to_act = "AL"
        return
    al = log.roll("2.1 initiative AL", dice.d6(f"2.1 initiative AL turn {st.turn}"))
    de = log.roll("2.1 initiative DE", dice.d6(f"2.1 initiative DE turn {st.turn}"))
    winner: Side = "AL" if al > de else "DE"
    st.initiative = winner
    log.event({"kind": "initiative", "turn": st.turn, "rolls": {"AL": al, "DE": de},
               "side": winner})
    st.phase = "operations"
    if g.ready(st, winner):
        st.to_act = winner
    elif g.ready(st, other(winner)):
        st.to_act = other(winner)
    else:
        st.to_act = winner  # nothing to activate: a pass ends the turn [2.2]


def stacking(g: Game, st: State, log: Happened) -> None:
    """[5] at the end of the operations phase, excess steps are eliminated."""
    limit = g.sc.constants.stacking_steps
    by_hex: dict[str, list[str]] = {}
    for uid, u in st.units.items():
        if u.on_map and u.hex is not None and g.c(uid).counts_for_stacking:
            by_hex.setdefault(u.hex, []).append(uid)
    for h, uids in sorted(by_hex.items()):
        excess = sum(st.units[x].steps for x in uids) - limit
        if excess <= 0:
            continue
        side = g.c(uids[0]).side
        order = (st.standing.get(side) or Standing()).stacking
        for _ in range(excess):
            alive = [x for x in uids if st.units[x].alive]
            named = [x for x in order if x in alive]
            pick = named[0] if named else sorted(
                alive, key=lambda x: (-st.units[x].steps, x))[0]
            u = st.units[pick]
            u.steps -= 1
            log.event({"kind": "step-lost", "unit": pick, "why": "stacking [5]",
                       "steps": u.steps})
            if not u.alive:
                log.event({"kind": "eliminated", "unit": pick, "hex": h})


def victory(g: Game, st: State) -> str:
    hexes = g.sc.victory.bridge_hexes
    if all(st.bridge.get(h) == "AL" for h in hexes):
        return "AL strategic"
    if g.bridgehead(st) >= g.sc.victory.bridgehead_steps:
        return "AL secondary"
    return "DE"
