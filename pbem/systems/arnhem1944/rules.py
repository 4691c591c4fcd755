"""The rules of Vae Victis *Arnhem 1944* (seed 003) as a pbem ruleset: system id ``arnhem1944``.

A game-turn [2.1]: weather [14], airborne reinforcements [15.2], supply and command [9, 10],
initiative (the Allies on turn 1, the Germans on ties), operations (alternating activations [3]),
administration. One activation, or one pass, is one move file. Rolls belong to the resolution of
the activation before them (the initiative, weather and turn-end dice of a turn's end; combat,
bombardment and demolition dice inside an activation), so they are keyed by the other side's next
reveal; whenever the rules would give the next decision to the side that just rolled, the other
side first owes a non-random pass (``docs/architecture.md``, "Alternating activations").

Decisions taken after a roll in one's own activation are written in advance (every action's
``if``, an attack's ``hold``/``hold_if``/``lose`` for its split and ``towards`` for its retreat;
see :mod:`pbem.systems.arnhem1944.orders`); the defender's are its standing orders
(:class:`~pbem.systems.arnhem1944.state.Standing`: ``defence``/``hold``/``lose``/``keep`` for
the split [7.5], ``retreat`` for the path [7.6], ``fire`` [8.2]). Documented defaults: the least
step losses a result allows, the rest as retreat; among the hexes the priorities of [7.6] leave
equal, the first by number.

Readings of the text, beyond those of ``combat.py`` and ``artillery.py``:

* [2.2] a turn ends when both sides pass one after the other, when neither has a unit left to
  activate, when the side still activating passes, or on a 5-6 of the die the still-active side
  rolls after its second and every later segment played alone; "units to activate" are the
  side's living units not yet activated, on the map or due to enter this turn;
* [3.4] a unit moves once per activation: a second ``move`` needs a mobile assault in between; a
  normal or prepared attack ends its movement (its advance apart);
* [4.2] "half of its MPs to leave": half its movement allowance for the activation (after any
  halving), rounded up, added to the first hex it enters; the engineer has no CF and exerts no
  zone; HQs and artillery do;
* [4.3] a unit that moved in this activation and ends its last move in an enemy zone must attack
  after that move, unless in a town, a city or a prepared position;
* [5] stacking is checked at the end of the operations phase; excess steps go in the order of
  the owner's standing ``stacking`` list, then from the units with the most steps;
* [6.1, 9.2, 10.2] the allowance is halved once if the unit is out of command or (motorized,
  mechanized or tracked) out of supply; units entering (or set up) are in command and supply on
  their turn of entry [errata] and use all their MP [15.1]; a formation without an HQ (the 82nd
  Airborne [17]) never uses a formation activation but is not halved for want of one;
* [3.4, 8] an activated artillery unit may move and then fire (support or bombard), not fire and
  then move;
* [7.1] an attack action names one attack type, which every unit in it pays; attackers wanting
  another type make an attack of their own;
* [15.2] units dropped this turn make only mobile assaults, wherever they landed;
* [15.1] a zone is "allied controlled" when an Allied unit stands on one of its hexes: no German
  unit enters by it;
* [7.5] losses in a stack fall first on an armour/antitank unit when both sides have one, then on
  the unit with the most steps (then by id); attacking units retreat hex by hex from their own
  hexes; a retreat follows the priorities of [7.6] and, among the hexes they leave equal, goes towards
  the hex of the side's order (the defender's standing ``retreat``, the attack's ``towards``),
  else the first hex by number; supporting artillery next to the defender shares the result of
  the side it supports [8.2]: the attacker's ("does not suffer the effects of combat if firing
  at range") and the defender's ("do not suffer ill effects unless adjacent", read as adjacent to
  the unit under attack, as the attack support's range is measured): its steps are among those
  the losses fall on, and it retreats from its own hex as many hexes as the side it supports;
* [8.4] artillery of a XXX Corps formation is corps artillery (it supports XXX Corps and the
  parachute formations); other artillery supports its own formation; artillery must be among the
  activated units to add its BV and in command [3.2];
* [9.1, 10.1 errata] command: a path of at most 5 hexes from the HQ, not entering enemy units or
  unnegated enemy zones; supply: within 2 hexes (same kind of path) of the formation's road net --
  the roads connected, through hexes free of enemy units and unnegated zones, to its supply edges
  or hexes -- or of a friendly edge (Germans), or of its HQ if that HQ is in supply; parachute
  formations also of a drop zone or a XXX Corps HQ in supply;
* [12.1] the engineer's crossing replaces the cost of the hex entered: a third of the unit's
  printed MP (rounded up) if motorized, nothing if on foot;
* [12.2] "a hex adjacent to the bridge": either hex of the hexside it spans; the Germans always
  try (a standing decision in their interest), the roll is made as the Allied unit enters and the
  move goes on unless its next hex crosses the blown crossing (then it stops there);
* [14.1, 18] the weather (historical or random) and the optional rules are the players' choices
  at ``pbem new`` (``--option weather=random``; the scenario's ``options`` are the defaults, the
  drop is the scenario's [17]), kept in ``State.options``; with random weather the first turn
  still has the turn track's weather (the game starts set up, the 1st Airborne landed [17.1]),
  the die decides from turn 2;
* [15.2, 17.3] a historic drop lands on its turn, or on the first later turn the weather allows;
  a drop is the Allied decision between the weather and the initiative;
* [16] "in Allied hands": the last side to have a unit on the hex; the Germans hold the bridge
  at the start. The bridgehead counts the Allied infantry steps on the bank of
  ``victory.far_bank_hex`` (hexes reached without crossing the Neder Rijn) and, for "(to the
  East)", in the map column ``victory.east_of_col`` or east of it. Read as the whole north bank,
  the condition would be met before a shot is fired (the 1st Airborne is set up with 15
  infantry steps round its drop zone 0305 [17.1], and 4P and the Poles add more), so the
  Germans would have to destroy the airborne to win and the historical end -- the perimeter at
  Oosterbeek evacuated, the bridge lost -- would be an Allied victory. "Across to the south
  bank" does not fit "remain", which speaks of a foothold kept on the far bank. A bridgehead is
  held "to the East" of the landing grounds, towards the bridge it is for ("holding a bridge or
  not"): the scenarios draw the line at column 10, just east of Oosterbeek (0806) where the
  railway bridge (1007/1107) crosses, so the drop zones and the Oosterbeek perimeter (columns
  1-9) do not count and the railway bridge, Arnhem and its road bridge (1406) do: 12 steps must fight their way there and stay, as the
  2nd Parachute Battalion's few did not. The column is data (``east_of_col``), None for the
  whole bank;
* [17.1] the 1st Airborne's placement round its DZ 0305 is the Allied player's set-up decision
  (a ``setup`` order, before the first activation): the text gives the hex and the procedure of
  [15.2] (within two hexes, clear or mixed terrain; the Airlanding Brigade and the Glider Pilots
  on clear), not each unit's hex. What the rules propose (the skeleton, ``pbem orders --text``,
  the bot) is the old automatic placement: the allowed hexes in number order, each filled up to
  the stacking limit, which a set-up may not exceed [5].
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from pydantic import ValidationError

from pbem.engine.conditions import Happened, holds, parse_condition
from pbem.engine.ruleset import JSON, Checked, Decision, Dice, Outcome, Resolution, Ruleset
from pbem.errors import InputError, RuleViolation
from pbem.maps.hexmap import Hex
from pbem.protocol.archive import one_line
from pbem.systems.arnhem1944 import artillery as art_rules
from pbem.systems.arnhem1944 import combat as cb
from pbem.systems.arnhem1944.board import Board, side_key
from pbem.systems.arnhem1944.model import ZONES, Counter, Scenario, choose
from pbem.systems.arnhem1944.orders import (
    MODELS,
    Acknowledge,
    Action,
    Activation,
    Drop,
    Orders,
    Pass,
    Setup,
    explain,
)
from pbem.systems.arnhem1944.state import Side, Standing, State, UnitState
from pbem.systems.arnhem1944.tables import Crt, Tec, default_crt, default_tec

SIDES: tuple[Side, Side] = ("AL", "DE")
PARACHUTE = frozenset({"1AB", "82AB", "Pol"})
"""Parachute formations: XXX Corps artillery may support them [8.4]."""
AIRBORNE_1AB = "1AB"


def other(side: str) -> Side:
    return "DE" if side == "AL" else "AL"


_CASE = re.compile(r"\s*\[([0-9][0-9.,a-z ]*)\]$")


def _v(rule: str, text: str) -> RuleViolation:
    """A violation citing its case (``str()`` shows ``text [rule]``); a text that already ends
    with its case (the combat and artillery modules' problems) gives its own."""
    m = _CASE.search(text)
    if m:
        return RuleViolation(m.group(1), text[:m.start()])
    return RuleViolation(rule, text)


def action_words(a: Action) -> str:
    """An action named in words for a player's error ("attack on 0924", "move of 1/19")."""
    units = ", ".join(a.units)
    return {"move": f"move of {a.unit}", "enter": f"entry of {a.unit}",
            "attack": f"attack on {a.target}", "advance": f"advance of {units}",
            "bombard": f"bombardment of {a.target}",
            "prepare": f"position prepared by {units}"}[a.do]


class _Bad(Exception):
    """An action that cannot be carried out (a violation when checking; skipped when resolving)."""

    def __init__(self, rule: str, text: str) -> None:
        super().__init__(text)
        self.violation = _v(rule, text)


# -- the game's values -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Values:
    cf: int
    armour: int
    antitank: int
    mp: int


def values(c: Counter, steps: int) -> Values:
    """A counter's printed values, from its second counter once reduced to it [1.2]."""
    r = c.reduced
    if r is not None and steps <= r.steps:
        return Values(r.cf, r.armour, r.antitank, r.mp)
    return Values(c.cf, c.armour, c.antitank, c.mp)


class Game:
    """A scenario with the tables it plays with, and questions about a state."""

    def __init__(self, sc: Scenario, crt: Crt | None = None, tec: Tec | None = None) -> None:
        self.sc = sc
        self.crt = crt or default_crt()
        self.tec = tec or default_tec()

    def board(self, st: State) -> Board:
        return Board(self.sc.map, self.tec, st.blown)

    def c(self, uid: str) -> Counter:
        return self.sc.counter[uid]

    def hexes_of(self, st: State, side: str, *, zoc_only: bool = False) -> set[str]:
        out = set()
        for uid, u in st.units.items():
            c = self.c(uid)
            if c.side == side and u.on_map and u.hex is not None:
                if zoc_only and c.kind == "engineer":
                    continue
                out.add(u.hex)
        return out

    def enemy_zoc(self, st: State, side: str, board: Board | None = None) -> frozenset[str]:
        """Hexes in the zone of control of ``side``'s enemy [4.2]."""
        b = board or self.board(st)
        return cb.zone(b, self.tec, self.hexes_of(st, other(side), zoc_only=True))

    def at(self, st: State, h: str, side: str | None = None) -> list[str]:
        return sorted(uid for uid, u in st.units.items()
                      if u.on_map and u.hex == h and (side is None or self.c(uid).side == side))

    def allowance(self, st: State, uid: str) -> int:
        """Movement allowance in half MP [6.1, 9.2, 10.2, 15.1, errata]."""
        u = st.units[uid]
        c = self.c(uid)
        full = 2 * values(c, u.steps).mp
        if u.entry_turn == st.turn:
            return full
        form = self.sc.formation[c.formation]
        ooc = not u.in_command and form.hq is not None
        oos = not u.in_supply and c.mobility != "leg"
        return full // 2 if (ooc or oos) else full

    def reinforcement(self, uid: str) -> Any:
        for r in self.sc.reinforcements:
            if r.unit == uid:
                return r
        return None

    def due_turn(self, st: State, uid: str) -> int | None:
        r = self.reinforcement(uid)
        if r is None:
            return None
        if r.hex is not None and st.options.xxx_corps_early:
            return max(1, r.turn - 1)  # [15.3] optional
        return int(r.turn)

    def can_activate(self, st: State, uid: str) -> bool:
        u = st.units[uid]
        if not u.alive or u.activated:
            return False
        if u.hex is not None:
            return True
        due = self.due_turn(st, uid)
        return due is not None and due <= st.turn and not u.entered

    def ready(self, st: State, side: str) -> list[str]:
        """[2.2] the side's units still to activate this turn."""
        return sorted(uid for uid in st.units
                      if self.c(uid).side == side and self.can_activate(st, uid))

    def cheapest_path(self, st: State, side: Side, start: str, dest: str) -> list[str] | None:
        """The cheapest path from ``start`` to ``dest`` by the TEC [6.3], entering no enemy unit
        and no enemy zone of control before its last hex [4.2] (ties: the first by hex number)."""
        if start == dest:
            return None
        path = self._cheapest(st, side, {start: 0}, dest, entering=False)
        return path[1:] if path else None

    def cheapest_entry(self, st: State, side: Side, entries: Iterable[str],
                       dest: str) -> list[str] | None:
        """The cheapest way onto the map to ``dest`` for a reinforcement [15.1, 15.3, 6.3]: one
        of ``entries`` (its entry hex, whose TEC cost is paid), then the path; it stops in the
        first enemy zone of control it enters, the entry hex included [4.2]. The hexes from the
        entry hex to ``dest``, or None."""
        board = self.board(st)
        enemy = self.hexes_of(st, other(side))
        starts = {e: board.entry_halves(e) for e in entries
                  if board.on_map(e) and e not in enemy}
        return self._cheapest(st, side, starts, dest, entering=True)

    def _cheapest(self, st: State, side: Side, starts: dict[str, int], dest: str, *,
                  entering: bool) -> list[str] | None:
        import heapq

        board = self.board(st)
        zoc = self.enemy_zoc(st, side, board)
        enemy = self.hexes_of(st, other(side))
        best: dict[str, int] = dict(starts)
        prev: dict[str, str] = {}
        heap: list[tuple[int, str]] = [(c, h) for h, c in sorted(starts.items())]
        heapq.heapify(heap)
        while heap:
            cost, h = heapq.heappop(heap)
            if h == dest:
                break
            if cost > best.get(h, 1 << 30) or (h in zoc and (entering or h not in starts)):
                continue
            for n in board.neighbours(h):
                step = board.step_halves(h, n)
                if step is None or n in enemy or (h in starts and h in zoc and n in zoc):
                    continue
                c = cost + step
                if c < best.get(n, 1 << 30):
                    best[n] = c
                    prev[n] = h
                    heapq.heappush(heap, (c, n))
        if dest not in best:
            return None
        path = [dest]
        while path[-1] in prev:
            path.append(prev[path[-1]])
        return path[::-1]

    def reachable(self, st: State, uid: str) -> dict[str, int]:
        """Every hex ``uid`` can reach with its whole allowance this activation, with its cost
        in half MP [4.2, 6, 9.2, 10.2] (the engineer's crossings [12.1] left out)."""
        import heapq

        u = st.units[uid]
        if u.hex is None:
            return {}
        side = self.c(uid).side
        board = self.board(st)
        zoc = self.enemy_zoc(st, side, board)
        enemy = self.hexes_of(st, other(side))
        allowance = self.allowance(st, uid)
        start = u.hex
        best: dict[str, int] = {start: 0}
        heap: list[tuple[int, str]] = [(0, start)]
        while heap:
            cost, h = heapq.heappop(heap)
            if cost > best.get(h, 1 << 30) or (h != start and h in zoc):
                continue
            for n in board.neighbours(h):
                step = board.step_halves(h, n)
                if step is None or n in enemy:
                    continue
                if h == start and start in zoc:
                    if n in zoc:
                        continue
                    step += (allowance + 1) // 2
                c = cost + step
                if c <= allowance and c < best.get(n, 1 << 30):
                    best[n] = c
                    heapq.heappush(heap, (c, n))
        return best

    # -- command and supply [9, 10] -------------------------------------------------------------
    def _reach(self, st: State, board: Board, side: str, starts: Iterable[str], limit: int,
               zoc: frozenset[str]) -> dict[str, int]:
        """Hexes within ``limit`` of ``starts`` by paths entering no enemy unit and no unnegated
        enemy zone [4.2, 9.1, 10.1] (the starts themselves count, distance 0)."""
        enemy = self.hexes_of(st, other(side))
        friends = self.hexes_of(st, side)
        dist: dict[str, int] = {}
        frontier = []
        for s in starts:
            if s not in enemy and s not in dist:
                dist[s] = 0
                frontier.append(s)
        while frontier:
            nxt = []
            for h in frontier:
                if dist[h] >= limit:
                    continue
                for n in board.neighbours(h):
                    if n in dist or n in enemy:
                        continue
                    if n in zoc and n not in friends:
                        continue
                    dist[n] = dist[h] + 1
                    nxt.append(n)
            frontier = nxt
        return dist

    def _road_net(self, st: State, board: Board, side: str, terminals: set[str],
                  zoc: frozenset[str]) -> set[str]:
        """Road hexes joined by road to ``terminals`` through hexes free of enemy units and
        unnegated zones [10.1]."""
        enemy = self.hexes_of(st, other(side))
        friends = self.hexes_of(st, side)
        road = {str(h) for h in self.sc.map.route_hexes.get("road", frozenset())}

        def clear(h: str) -> bool:
            return h not in enemy and (h not in zoc or h in friends)

        seen = {h for h in terminals if h in road and clear(h)}
        frontier = list(seen)
        while frontier:
            h = frontier.pop()
            for n in board.neighbours(h):
                if n not in seen and n in road and "road" in board.side(h, n) and clear(n):
                    seen.add(n)
                    frontier.append(n)
        return seen

    def command_and_supply(self, st: State) -> None:
        """The supply and command phase [2.1, 9.1, 10.1 with errata], in place on ``st``."""
        board = self.board(st)
        k = self.sc.constants
        zoc = {s: self.enemy_zoc(st, s, board) for s in SIDES}
        hq_supplied: dict[str, bool] = {}
        nets: dict[str, set[str]] = {}
        order = sorted(self.sc.formations, key=lambda f: (f.supply.xxx_corps_hq, f.id))
        xxx_hqs: list[str] = []
        for f in order:
            side = f.side
            terminals = set(f.supply.hexes) | board.edge_hexes(f.supply.edges)
            nets[f.id] = self._road_net(st, board, side, terminals, zoc[side])
        for f in order:
            side = f.side
            sources = set(nets[f.id])
            if side == "DE":
                sources |= board.edge_hexes(f.supply.edges)
            if f.supply.drop_zones:
                sources |= self._drop_zones(st)
                sources |= set(xxx_hqs)
            reach = self._reach(st, board, side, sources, k.supply_range, zoc[side])
            hq = f.hq
            if hq is not None and st.units[hq].on_map:
                hq_hex = st.units[hq].hex
                ok = hq_hex in reach or st.units[hq].entry_turn == st.turn
                hq_supplied[f.id] = ok
                st.units[hq].in_supply = ok
                if ok and f.corps == "XXX" and hq_hex is not None:
                    xxx_hqs.append(hq_hex)
        for f in order:
            side = f.side
            sources = set(nets[f.id])
            if side == "DE":
                sources |= board.edge_hexes(f.supply.edges)
            if f.supply.drop_zones:
                sources |= self._drop_zones(st) | set(xxx_hqs)
            hq = f.hq
            hq_hex = st.units[hq].hex if hq is not None and st.units[hq].on_map else None
            if hq_hex is not None and hq_supplied.get(f.id):
                sources.add(hq_hex)
            supply = self._reach(st, board, side, sources, k.supply_range, zoc[side])
            command = (self._reach(st, board, side, [hq_hex], k.command_range, zoc[side])
                       if hq_hex is not None else {})
            hqs = [hq_hex] if hq_hex is not None else []
            for uid, u in st.units.items():
                c = self.c(uid)
                if c.formation != f.id or not u.on_map or uid == hq:
                    continue
                fresh = u.entry_turn == st.turn or (st.turn == 1 and side == "DE")
                if c.kind == "engineer":  # [12.1] commanded by both XXX Corps HQs
                    hqs2 = [st.units[g.hq].hex for g in self.sc.formations
                            if g.corps == "XXX" and g.hq and st.units[g.hq].on_map]
                    cmd = self._reach(st, board, side, [h for h in hqs2 if h], k.command_range,
                                      zoc[side])
                    u.in_command = fresh or u.hex in cmd
                else:
                    u.in_command = fresh or f.hq is None or (bool(hqs) and u.hex in command)
                u.in_supply = fresh or u.hex in supply
            if hq is not None and st.units[hq].on_map:
                st.units[hq].in_command = True
                if st.units[hq].entry_turn == st.turn or (st.turn == 1 and side == "DE"):
                    st.units[hq].in_supply = True

    def _drop_zones(self, st: State) -> set[str]:
        zones = {p.hex for p in self.sc.setup if p.within}
        for d in self.sc.para_drops:
            if d.group in st.dropped:
                zones.add(st.drop_zones.get(d.group, d.dz))
        return zones

    # -- victory [16] -------------------------------------------------------------------------------
    def far_bank(self) -> set[str]:
        v = self.sc.victory
        river = next(ln for ln in self.sc.map.lines if ln.name == v.river)
        cut = set(river.hexsides)
        board = Board(self.sc.map, self.tec)
        seen = {v.far_bank_hex}
        frontier = [v.far_bank_hex]
        while frontier:
            h = frontier.pop()
            for n in board.neighbours(h):
                if n not in seen and side_key(h, n) not in cut:
                    seen.add(n)
                    frontier.append(n)
        if v.east_of_col is not None:  # [16] "(to the East)"
            east = v.east_of_col
            return {h for h in seen if Hex.parse(h).col >= east}
        return seen

    def bridgehead(self, st: State) -> int:
        bank = self.far_bank()
        return sum(u.steps for uid, u in st.units.items()
                   if u.on_map and u.hex in bank and self.c(uid).side == "AL"
                   and self.c(uid).is_infantry)


# -- one activation, carried out or checked ----------------------------------------------------------


@dataclass
class _Tracker:
    mp: int
    moves: int = 0
    moved: bool = False
    reopened: bool = True
    attacks: list[str] = field(default_factory=list)
    stopped: bool = False
    attacked_since_move: bool = False
    last_move_zoc: bool = False


@dataclass
class _LastCombat:
    kind: str
    attackers: list[str]
    retreated: set[str]
    trail: list[str]


class _Run:
    """Carries out (``dice`` given) or checks (``dice`` None: no roll goes against the orders)
    the actions of one activation on ``st`` (a working copy)."""

    def __init__(self, game: Game, st: State, side: Side, dice: Dice | None,
                 log: Happened) -> None:
        self.g = game
        self.st = st
        self.side = side
        self.dice = dice
        self.log = log
        self.violations: list[RuleViolation] = []
        self.track: dict[str, _Tracker] = {}
        self.last: _LastCombat | None = None

    @property
    def checking(self) -> bool:
        return self.dice is None

    def roll(self, label: str, favourable: int) -> int:
        if self.dice is None:
            return favourable
        return self.log.roll(label, self.dice.d6(label))

    def board(self) -> Board:
        return self.g.board(self.st)

    # -- the activation [3] -------------------------------------------------------------------------
    def activation(self, orders: Activation) -> None:
        g, st = self.g, self.st
        units = list(orders.units)
        if len(set(units)) != len(units):
            self.violations.append(_v("3.1", "a unit is named twice in the activation"))
        for uid in units:
            c = g.sc.counter.get(uid)
            if c is None:
                self.violations.append(_v("3.1", f"{uid} is not a unit of this game"))
                continue
            if c.side != self.side:
                self.violations.append(_v("3.1", f"{uid} is not one of {self.side}'s units"))
                continue
            u = st.units[uid]
            if not u.alive:
                self.violations.append(_v("3.1", f"{uid} has been eliminated"))
            elif u.activated:
                self.violations.append(_v("3.1", f"{uid} has already been activated this turn"))
            elif not g.can_activate(st, uid):
                self.violations.append(_v("15", f"{uid} is not on the map and not due to enter"))
        k = g.sc.constants
        simplified = st.options.simplified_sequence
        if (orders.mode == "phase") != simplified:
            self.violations.append(_v("18.1", "the simplified sequence plays whole player-turns "
                                              "(mode 'phase')" if simplified else
                                      "mode 'phase' belongs to the simplified sequence, which "
                                      "this game does not use"))
        elif orders.mode == "phase":
            self._phase_order(orders)
        elif orders.mode == "general":
            if len(units) > k.general_activation:
                self.violations.append(_v("3.3", f"a general activation takes at most "
                                                 f"{k.general_activation} units, not {len(units)}"))
        else:
            self._formation_problems(orders)
        if self.violations:
            return
        for uid in units:
            self.track[uid] = _Tracker(g.allowance(st, uid))
            if st.units[uid].hex is None and not any(
                    a.do == "enter" and a.unit == uid for a in orders.actions):
                self.violations.append(_v("15.1", f"{uid} is off the map: activate it with an "
                                                  "'enter' action"))
        names = [action_words(a) for a in orders.actions]
        after_failed_attack = False
        for i, action in enumerate(orders.actions):
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
                    self.violations.append(_v("3.1", f"{where}: {uid} is not in this activation"))
            if any(uid not in self.track for uid in action.movers()):
                continue
            try:
                self._action(action, i + 1)
                if action.do in ("attack", "bombard"):
                    after_failed_attack = False
            except _Bad as bad:
                after_failed_attack = after_failed_attack or action.do == "attack"
                if self.checking:
                    self.violations.append(RuleViolation(
                        bad.violation.rule, f"{where}: {bad.violation.message}"))
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
                self.violations.append(_v("18.1", f"{action_words(a)} (action {i + 1}) comes "
                                                  "after the combat phase has begun"))

    def _formation_problems(self, orders: Activation) -> None:
        g, st = self.g, self.st
        k = g.sc.constants
        f = g.sc.formation.get(orders.formation or "")
        if f is None or f.side != self.side:
            self.violations.append(_v("3.2", f"{orders.formation!r} is not one of "
                                             f"{self.side}'s formations"))
            return
        if len(orders.units) > k.formation_activation:
            self.violations.append(_v("3.2", f"a formation activation takes at most "
                                             f"{k.formation_activation} units"))
        if f.hq is None:
            self.violations.append(_v("3.2", f"{f.id} has no HQ: its units activate only in "
                                             "general activations"))
            return
        if not st.units[f.hq].alive:
            self.violations.append(_v("3.2", f"the HQ {f.hq} of {f.id} is destroyed"))
            return
        for uid in orders.units:
            c = g.sc.counter.get(uid)
            if c is None:
                continue
            same = c.formation == f.id or (c.kind == "engineer" and f.corps == "XXX"
                                            and g.sc.formation[c.formation].corps == "XXX")
            if not same:
                self.violations.append(_v("3.2", f"{uid} is not of {f.id}"))
            elif st.units[uid].hex is not None and not st.units[uid].in_command:
                self.violations.append(_v("9.2", f"{uid} is out of command: it may not take "
                                                 "part in a formation activation"))

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
            self.violations.append(_v("4.3", f"{uid} ended its move in an enemy zone of control "
                                             f"at {u.hex} and must attack before the activation "
                                             "ends"))

    def _action(self, a: Action, n: int) -> None:
        for uid in a.movers():
            if not self.st.units[uid].alive:
                raise _Bad("7.5", f"{uid} has been eliminated")
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
            raise _Bad("3.4", f"{uid} has fired this activation and moves no more")
        if t.stopped:
            raise _Bad("3.4", f"{uid} made a normal or prepared attack and moves no more")
        if t.moves and not t.reopened:
            raise _Bad("3.4", f"{uid} may not stop and then move again in the same activation "
                              "(only a mobile assault in between allows it)")
        board = self.board()
        zoc = g.enemy_zoc(st, self.side, board)
        enemy = g.hexes_of(st, other(self.side))
        if enter:
            if u.hex is not None:
                raise _Bad("15.1", f"{uid} is already on the map")
            first = path[0]
            self._entry_problems(uid, first, zone)
            if self._enemy_at(first):
                raise _Bad("15.1", f"{uid} cannot enter at {first}: enemy units are there")
            cost = board.entry_halves(first)
            if t.mp < cost:
                raise _Bad("6.1", f"{uid} lacks the MP to enter at {first}")
            t.mp -= cost
            u.hex = first
            u.entered = True
            u.entry_turn = st.turn
            u.in_command = u.in_supply = True
            t.mp = max(t.mp, 0)
            self.log.event({"kind": "entered", "unit": uid, "hex": first})
            cur = first
            rest = path[1:]
            in_zoc = first in zoc
            if in_zoc and rest:
                raise _Bad("4.2", f"{uid} entered an enemy zone of control at {first} and stops")
        else:
            if u.hex is None:
                raise _Bad("15.1", f"{uid} is not on the map: use 'enter'")
            cur = u.hex
            rest = path
            in_zoc = cur in zoc
        walked: list[str] = []
        start = cur
        for i, h in enumerate(rest):
            if not board.on_map(h):
                raise _Bad("6.1", f"{h} is not on the map")
            if not board.adjacent(cur, h):
                raise _Bad("6.1", f"{h} is not next to {cur}")
            if h in enemy and not self._engineer_alone(h):
                raise _Bad("6.1", f"{uid} cannot enter {h}: enemy units are there")
            found = board.step_halves(cur, h)
            ferried = found is None
            cost = self._engineer_cost(uid, cur, h) if found is None else found
            if i == 0 and in_zoc:
                if h in zoc:
                    raise _Bad("4.2", f"{uid} cannot move from an enemy zone of control "
                                      f"straight into another ({cur} to {h})")
                cost += (g.allowance(st, uid) + 1) // 2
            if t.mp < cost:
                raise _Bad("6.1", f"{uid} lacks the MP to enter {h} "
                                  f"({_mp(cost)} needed, {_mp(t.mp)} left)")
            t.mp -= cost
            if ferried:
                st.engineer_steps += u.steps
                self.log.event({"kind": "ferried", "unit": uid, "from": cur, "to": h})
            cur = h
            walked.append(h)
            if self._engineer_alone(h) and self.side == "DE":
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
                raise _Bad("4.2", f"{uid} entered an enemy zone of control at {h} and must stop "
                                  "there")
        t.moves += 1
        t.moved = True
        t.reopened = False
        t.attacked_since_move = False
        t.last_move_zoc = cur in zoc
        if walked:
            self.log.event({"kind": "moved", "unit": uid, "from": start, "path": walked})
        self._mark_bridge()

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
            raise _Bad("15", f"{uid} is not a reinforcement that enters by land")
        if due > st.turn:
            raise _Bad("15", f"{uid} is due on turn {due}, not before")
        if r.hex is not None:
            if first != r.hex:
                raise _Bad("15.3", f"{uid} enters by hex {r.hex}")
            return
        own = r.zone
        use = zone or own
        if use not in g.sc.map.entry_zones:
            raise _Bad("15.1", f"there is no entry zone {use}")
        delay = st.turn - r.turn
        shift = abs(ZONES.index(use) - ZONES.index(own))
        if shift > delay * g.sc.constants.delay_zone_shift:
            raise _Bad("15.1", f"{uid} may enter by zone {use} only after {shift} turns of delay "
                               f"(it is due by zone {own} on turn {r.turn})")
        if first not in g.sc.map.entry_zones[use].hexes:
            raise _Bad("15.1", f"{first} is not in entry zone {use}")
        held = [h for h in g.sc.map.entry_zones[use].hexes if g.at(st, h, "AL")]
        if held:
            raise _Bad("15.1", f"zone {use} is in Allied hands ({', '.join(held)}): enter later "
                               "by another zone, one zone further for each turn of delay")

    def _engineer_cost(self, uid: str, a: str, b: str) -> int:
        """[12.1] the XXX Corps engineer ferries up to three infantry steps a turn."""
        g, st = self.g, self.st
        board = self.board()
        if not board.water_crossing(a, b):
            raise _Bad("12.1", f"{uid} cannot cross from {a} to {b}")
        c = g.c(uid)
        u = st.units[uid]
        engineers = [e for e in g.at(st, a, self.side) + g.at(st, b, self.side)
                     if g.c(e).kind == "engineer"]
        if not engineers:
            raise _Bad("12.1", f"only a bridge or a ferry crosses from {a} to {b}, or the "
                               "engineer in one of the two hexes")
        if not c.is_infantry or c.mobility not in ("leg", "motorized"):
            raise _Bad("12.1", f"the engineer carries infantry on foot or motorized, not {uid}")
        cap = g.sc.constants.engineer_steps
        if st.engineer_steps + u.steps > cap:
            raise _Bad("12.1", f"the engineer has {cap - st.engineer_steps} of its {cap} infantry "
                               f"steps left this turn; {uid} has {u.steps}")
        if c.mobility == "motorized":
            return 2 * ((c.mp + 2) // 3)
        return 0

    def _demolition(self, h: str) -> None:
        """[12.2] the first Allied unit entering a hex of a railway bridge or ferry: 1d6, 6 saves."""
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
        g, st = self.g, self.st
        assert a.target is not None and a.type is not None
        kind = cast(cb.AttackType, a.type)
        target = a.target
        board = self.board()
        defenders = [x for x in g.at(st, target, other(self.side)) if g.c(x).kind != "engineer"]
        if not defenders:
            raise _Bad("7.2", f"there is no enemy unit to attack at {target}")
        attackers: list[cb.Attacker] = []
        for uid in a.units:
            u = st.units[uid]
            c = g.c(uid)
            t = self.track[uid]
            if not u.on_map or u.hex is None:
                raise _Bad("7.2", f"{uid} is not on the map")
            if c.kind in ("artillery", "engineer"):
                raise _Bad("7.1", f"{uid} does not attack; artillery supports or bombards [8]")
            if not board.adjacent(u.hex, target):
                raise _Bad("7.2", f"{uid} at {u.hex} is not next to {target}")
            for p in cb.attack_problems(kind, t.mp, cast(Sequence[cb.AttackType], t.attacks)):
                raise _Bad("7.1", f"{uid}: {p}")
            if kind != "M" and self._dropped_now(uid):
                raise _Bad("15.2", f"{uid} dropped this turn and may make only mobile assaults")
            attackers.append(cb.Attacker(self._combat_unit(uid), kind,
                                         board.side(u.hex, target)))
        dunits = self._defending(defenders)
        terrain = board.kind(target)
        pdp = any(st.units[x].prepared for x in defenders)
        arts = []
        for aid in a.support:
            if g.c(aid).kind != "artillery" or not st.units[aid].on_map:
                raise _Bad("8.2", f"{aid} is not artillery on the map")
            art = self._artillery(aid)
            probs = art_rules.attack_support_problems(
                art, board, target, kind, [self._affiliation(x) for x in a.units])
            if probs:
                raise _Bad("8.2", f"{aid}: {probs[0]}")
            arts.append(art)
        halved = art_rules.protected(g.tec, terrain, pdp)
        support = art_rules.attack_support(arts, halved)
        air_a, exception = self._air(a, kind)
        dsupport, darts = self._defence_support(target, kind, defenders)
        air_d = self._defence_air(kind, defenders)
        attack = cb.Attack(tuple(attackers), tuple(dunits), terrain, pdp, support, dsupport,
                           air_a, air_d, exception)
        probs = cb.combat_problems(attack, g.tec)
        if probs:
            raise _Bad("7.1", probs[0])
        # the attack is made: costs and markers [7.1, 8, 13]
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
        die = self.roll(f"7.4 combat at {target}", 0)
        if self.checking:
            self.last = _LastCombat(kind, list(a.units), set(), [])
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
        amin = cb.minimum_losses(res, kind, g.crt, attacker=True)
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
        self.last = _LastCombat(kind, list(a.units), retreated, trail)
        self._mark_bridge()

    def _defending(self, defenders: list[str]) -> list[cb.CombatUnit]:
        """The defending stack [7.4]; units that retreated into it this turn add no combat
        factor while a unit that was there before stands with them, but share its losses [7.6]."""
        units = [self._combat_unit(x) for x in defenders]
        if any(x not in self.st.joined for x in defenders):
            from dataclasses import replace

            units = [replace(u, cf=0) if u.id in self.st.joined else u for u in units]
        return units

    def _dropped_now(self, uid: str) -> bool:
        u = self.st.units[uid]
        return u.entry_turn == self.st.turn and any(uid in d.units for d in self.g.sc.para_drops)

    def _air(self, a: Action, kind: cb.AttackType) -> tuple[bool, bool]:
        """[13, 14.3] the attacker's air support: prepared attacks by units in command, as many a
        turn as the weather gives; 1st Airborne's two missions of the game also in normal attacks
        and out of command."""
        if not a.air:
            return False, False
        g, st = self.g, self.st
        if self.side != "AL":
            raise _Bad("13", "only the Allied player has air support")
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
            raise _Bad("13", f"air support only in prepared attacks ({cb.NAMES[kind]})")
        if st.air_used >= missions:
            raise _Bad("14.3", f"no air mission left this turn ({st.weather}: {missions})")
        raise _Bad("13", "only units in command receive air support")

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
        s = cb.Surroundings(enemy, cb.zone(board, g.tec, g.hexes_of(st, other(side),
                                                                      zoc_only=True)),
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
            raise _Bad("7.6", "an advance follows an attack")
        for uid in a.units:
            if uid not in last.attackers:
                raise _Bad("7.6", f"{uid} did not take part in the last combat")
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
            raise _Bad("8.1", f"there is no enemy unit to bombard at {target}")
        arts = []
        for aid in a.support:
            if g.c(aid).kind != "artillery" or not st.units[aid].on_map:
                raise _Bad("8.1", f"{aid} is not artillery on the map")
            if self.track[aid].attacks:
                raise _Bad("8", f"{aid} has used its BV this turn")
            arts.append(self._artillery(aid))
        terrain = board.kind(target)
        pdp = any(st.units[x].prepared for x in defenders)
        halved = art_rules.protected(g.tec, terrain, pdp)
        dunits = [self._combat_unit(x) for x in defenders]
        friends = [(st.units[x].hex or "", self._affiliation(x)) for x in st.units
                   if g.c(x).side == self.side and st.units[x].on_map
                   and g.c(x).kind not in ("artillery", "engineer")]
        probs = art_rules.bombardment_problems(arts, board, g.crt, target,
                                               sum(u.cf for u in dunits), halved, friends)
        if probs:
            raise _Bad("8.1", probs[0])
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

    def _prepare(self, a: Action) -> None:
        """[11] a prepared defensive position: a third of the printed MP, rounded up."""
        g, st = self.g, self.st
        zoc = g.enemy_zoc(st, self.side)
        for uid in a.units:
            u = st.units[uid]
            if not u.on_map:
                raise _Bad("11.1", f"{uid} is not on the map")
            if not u.in_supply:
                raise _Bad("10.2", f"{uid} is out of supply and may not prepare a position")
            if u.hex in zoc:
                raise _Bad("11.1", f"{uid} is in an enemy zone of control and may not prepare "
                                   "a position [errata]")
            cost = 2 * ((g.c(uid).mp + 2) // 3)
            t = self.track[uid]
            if t.mp < cost:
                raise _Bad("11.1", f"{uid} needs {_mp(cost)} MP to prepare a position, has "
                                   f"{_mp(t.mp)}")
            t.mp -= cost
            u.prepared = True
            self.log.event({"kind": "prepared", "unit": uid, "hex": u.hex})


def _mp(halves: int) -> str:
    return str(halves // 2) + ("½" if halves % 2 else "")


def mark_bridge(g: Game, st: State) -> None:
    """[16] the side that last had a unit on each hex of the Arnhem bridge holds it."""
    for h in g.sc.victory.bridge_hexes:
        here = g.at(st, h)
        sides = {g.c(x).side for x in here}
        if len(sides) == 1:
            st.bridge[h] = cast(Side, sides.pop())


# -- the ruleset ------------------------------------------------------------------------------------


class Arnhem1944Rules(Ruleset[Scenario, State, Orders]):
    """Vae Victis *Arnhem 1944* (module docstring)."""

    system = "arnhem1944"
    version = "3"
    """2: a combat's odds line says how each side's strength was made up [7.4]. 3 (issue 12): the
    1st Airborne's set-up is the Allied player's first decision [17.1]; retreat and split orders
    written in advance [7.5, 7.6]; defensive artillery next to the defender shares its result
    [8.2]; the bridgehead counts east of the scenario's column only [16]."""
    earlier = {
        "1": "pbem development builds from commit ffd54a4 to the one before c6309a9 (no release)",
        "2": "pbem development builds from commit c6309a9 to the one before f5758a6 (no release)",
    }

    def load_scenario(self, data: JSON) -> Scenario:
        try:
            return Scenario.model_validate(data)
        except ValidationError as exc:
            raise InputError(f"arnhem1944 scenario: {one_line(exc)}") from None

    def scenario_summary(self, scenario: Scenario) -> str:
        o = scenario.options
        rules = [k for k in ("xxx_corps_early", "simplified_sequence", "morale")
                 if getattr(o, k)]
        return (f"{scenario.id}: {len(scenario.counters)} units, turns "
                f"{scenario.first_turn}-{scenario.last_turn}, {o.drop} drop, {o.weather} "
                f"weather, optional rules: {', '.join(rules) or 'none'} (pbem new --option "
                "weather=random|historical, xxx_corps_early=true, simplified_sequence=true, "
                "morale=true)")

    def sides(self, scenario: Scenario) -> list[str]:
        return [s["id"] for s in scenario.sides]

    def load_state(self, scenario: Scenario, data: JSON) -> State:
        try:
            return State.model_validate(data)
        except ValidationError as exc:
            raise InputError(f"arnhem1944 state: {one_line(exc)}") from None

    def dump_state(self, scenario: Scenario, state: State) -> JSON:
        return state.model_dump(mode="json")

    def load_orders(self, scenario: Scenario, data: JSON) -> Orders:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise InputError("arnhem1944 orders must be an object with a 'kind'")
        model = MODELS.get(data["kind"])
        if model is None:
            raise InputError(f"unknown order kind {data['kind']!r} (activation, pass, drop, "
                             "setup, acknowledge)")
        try:
            return cast(Orders, model.model_validate(data))
        except ValidationError as exc:
            loc = exc.errors()[0]["loc"] if exc.errors() else ()
            what, where = str(data["kind"]), ""
            if len(loc) >= 2 and loc[0] in ("actions", "landings") and isinstance(loc[1], int):
                items = data.get(str(loc[0]))
                item = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else {}
                what = str(item.get("do", "activation")) if loc[0] == "actions" and isinstance(
                    item, dict) else "landing"
                where = f"{'action' if loc[0] == 'actions' else 'landing'} {loc[1] + 1}: "
            elif loc and loc[0] == "standing":
                what = "standing"
            raise InputError(f"arnhem1944 orders: {where}{explain(exc, what)}") from None

    def dump_orders(self, scenario: Scenario, orders: Orders) -> JSON:
        out: dict[str, Any] = orders.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        out["kind"] = orders.kind
        out["side"] = orders.side
        return out

    def game(self, scenario: Scenario) -> Game:
        return Game(scenario, *scenario.tables)

    # -- the start [17] ---------------------------------------------------------------------------
    def initial_state(self, scenario: Scenario, options: JSON) -> State:
        if options is not None and not isinstance(options, dict):
            raise InputError("arnhem1944 options must be an object")
        try:
            choices = choose(scenario.options, options)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        g = self.game(scenario)
        units = {c.id: UnitState(steps=c.steps) for c in scenario.counters}
        board = Board(scenario.map, g.tec)
        filled: dict[str, int] = {}
        limit = scenario.constants.stacking_steps
        for p in scenario.setup:
            c = scenario.counter[p.unit]
            h = p.hex
            if p.within:
                ring = [str(x) for x in Hex.parse(p.hex).within(p.within)
                        if board.on_map(str(x))
                        and (not p.terrain or board.kind(str(x)) in p.terrain)]
                h = next((x for x in ring if filled.get(x, 0) + c.steps <= limit), p.hex)
            filled[h] = filled.get(h, 0) + (c.steps if c.counts_for_stacking else 0)
            units[p.unit] = UnitState(hex=h, steps=c.steps, entered=True,
                                      entry_turn=scenario.first_turn)
        st = State(options=choices, turn=scenario.first_turn, weather=scenario.turns[0].weather,
                   initiative=scenario.constants.first_initiative,
                   to_act=scenario.constants.first_initiative, units=units,
                   bridge={h: "DE" for h in scenario.victory.bridge_hexes})
        if any(p.within for p in scenario.setup):
            st.phase = "setup"  # [17.1] the Allied player places the 1st Airborne first
        mark_bridge(g, st)
        g.command_and_supply(st)
        return st

    def free_setup(self, scenario: Scenario) -> list[Any]:
        """The placements the player decides [17.1, 15.2]: those round a hex (``within``)."""
        return [p for p in scenario.setup if p.within]

    def _standing_problems(self, scenario: Scenario, side: Side,
                           standing: Standing) -> list[RuleViolation]:
        """[7.6] a standing retreat order names one of the side's units, a hex of the map or
        ``*``, and a hex of the map to retreat towards."""
        board = Board(scenario.map, self.game(scenario).tec)
        out: list[RuleViolation] = []
        for who, h in sorted(standing.retreat.items()):
            c = scenario.counter.get(who)
            if who != "*" and not board.on_map(who) and (c is None or c.side != side):
                out.append(_v("7.6", f"retreat order for {who}: not one of your units nor a hex "
                                     "of the map"))
            if not board.on_map(h):
                out.append(_v("7.6", f"retreat order for {who}: {h} is not on the map"))
        return out

    def _setup_problems(self, scenario: Scenario, state: State,
                        orders: Setup) -> list[RuleViolation]:
        """[17.1, 15.2, 5] each unit within its placement's distance of the drop zone, on the
        terrain listed (clear for the Airlanding Brigade and the Glider Pilots, clear or mixed for
        the others), not on an enemy unit, named once; no hex over the stacking limit."""
        g = self.game(scenario)
        board = g.board(state)
        free = {p.unit: p for p in self.free_setup(scenario)}
        out: list[RuleViolation] = []
        seen: set[str] = set()
        for ln in orders.placements:
            p = free.get(ln.unit)
            if p is None or g.c(ln.unit).side != orders.side:
                out.append(_v("17.1", f"{ln.unit} is not placed by the player at the set-up"))
                continue
            if ln.unit in seen:
                out.append(_v("17.1", f"{ln.unit} is placed twice"))
            seen.add(ln.unit)
            h = ln.hex
            if not board.on_map(h) or board.distance(h, p.hex) > p.within:
                out.append(_v("17.1", f"{ln.unit}: {h} is more than {p.within} "
                                      f"hex{'es' if p.within != 1 else ''} from the drop zone "
                                      f"{p.hex} [15.2, 17.1]"))
            elif p.terrain and board.kind(h) not in p.terrain:
                out.append(_v("17.1", f"{ln.unit}: {h} is {board.kind(h)}, not "
                                      f"{' or '.join(p.terrain)} [15.2, 17.1]"))
            elif any(g.c(x).side != orders.side for x in g.at(state, h)):
                out.append(_v("17.1", f"{ln.unit}: enemy units are at {h} [15.2, 17.1]"))
        if out:
            return out
        placed = self._placed(scenario, state, orders)
        limit = scenario.constants.stacking_steps
        steps: dict[str, int] = {}
        for uid, u in placed.units.items():
            if u.on_map and u.hex is not None and g.c(uid).counts_for_stacking:
                steps[u.hex] = steps.get(u.hex, 0) + u.steps
        for h, n in sorted(steps.items()):
            if n > limit and any(ln.hex == h for ln in orders.placements):
                out.append(_v("5", f"{n} steps at {h}: the stacking limit is {limit} (the set-up "
                                   "is made legal as it stands) [5, 17.1]"))
        return out

    def _placed(self, scenario: Scenario, state: State, orders: Setup) -> State:
        st = state.model_copy(deep=True)
        for ln in orders.placements:
            st.units[ln.unit].hex = ln.hex
        return st

    # -- whose decision -------------------------------------------------------------------------------
    def pending(self, scenario: Scenario, state: State) -> list[Decision]:
        t = state.turn
        if state.phase == "over":
            return []
        if state.owed is not None:
            return [Decision(state.owed, "pass", f"Turn {t}: {state.owed} passes so that its "
                             "reveal keys the dice before [2.1]", random=False)]
        if state.phase == "ack":
            side = state.ack or "DE"
            return [Decision(side, "acknowledge", f"{side} acknowledges the end of the game [16]",
                             random=False)]
        if state.phase == "drop":
            return [Decision("AL", "drop", f"Turn {t}: Allied airborne reinforcements [15.2]",
                             revealer="DE")]
        if state.phase == "setup":
            side = scenario.counter[self.free_setup(scenario)[0].unit].side
            return [Decision(side, "setup", "Set-up: the Allied player places the 1st Airborne "
                             "round its drop zone [17.1, 15.2]", random=False)]
        side = state.to_act
        if state.options.simplified_sequence:
            return [Decision(side, "player-turn", f"Turn {t}: {side} movement and combat phases "
                             "[18.1]", revealer=other(side))]
        return [Decision(side, "activation", f"Turn {t}: {side} activates or passes [2.1, 3]",
                         revealer=other(side))]

    def skeleton(self, scenario: Scenario, state: State, side: str) -> JSON:
        pend = self.pending(scenario, state)
        if not pend:
            raise InputError("the game is over: there is nothing to order")
        d = pend[0]
        if d.side != side:
            raise InputError(f"it is {d.side}'s decision, not {side}'s")
        if d.kind in ("pass", "activation", "player-turn"):
            return {"kind": "pass", "side": side}
        if d.kind == "drop":
            return {"kind": "drop", "side": side, "landings": self.default_landings(
                scenario, state)}
        if d.kind == "setup":
            return {"kind": "setup", "side": side, "placements": [
                {"unit": p.unit, "hex": state.units[p.unit].hex}
                for p in self.free_setup(scenario)]}
        return {"kind": "acknowledge", "side": side}

    def normalize(self, scenario: Scenario, state: State, side: str, orders: Orders) -> Orders:
        """A move's ``to`` becomes the cheapest path there [6.3, 4.2] (from where the unit will
        be after the actions before it, when those are moves), an entry's the cheapest way in
        [15.1, 15.3]; with the simplified sequence a general activation is the player-turn
        [18.1]."""
        if not isinstance(orders, Activation):
            return orders
        if state.options.simplified_sequence and orders.mode == "general":
            # [18.1] text orders say 'activate: UNITS': in this game that is the player-turn
            orders = orders.model_copy(update={"mode": "phase"})
        if not any(a.to for a in orders.actions):
            return orders
        g = self.game(scenario)
        where = {uid: u.hex for uid, u in state.units.items()}
        actions = []
        for a in orders.actions:
            if a.do == "move" and a.to and a.unit in where:
                start = a.path[-1] if a.path else where[a.unit]
                path = g.cheapest_path(state, cast(Side, side), start, a.to) if start else None
                if path is None:
                    raise InputError(f"[6.1] no path for {a.unit} to {a.to}")
                a = a.model_copy(update={"path": [*a.path, *path], "to": None})
            elif a.do == "enter" and a.to and a.unit in where:
                a = a.model_copy(update={"path": self._entry_path(g, state, side, a), "to": None})
            if a.do in ("move", "enter") and a.path and a.unit:
                where[a.unit] = a.path[-1]
            actions.append(a)
        return orders.model_copy(update={"actions": actions})

    def _entry_path(self, g: Game, state: State, side: str, a: Action) -> list[str]:
        """``enter UNIT to HEX`` (after the entry hex given, if any): the cheapest way from its
        entry hex or zone [15.1, 15.3] (the zone of the action when it names one)."""
        assert a.unit is not None and a.to is not None
        form = f"give the path instead: 'enter {a.unit} HEX HEX...', its entry hex first"
        if a.path:
            rest = g.cheapest_path(state, cast(Side, side), a.path[-1], a.to)
            if rest is None:
                raise InputError(f"[6.1] no path for {a.unit} from {a.path[-1]} to {a.to}: "
                                 f"{form}")
            return [*a.path, *rest]
        r = g.reinforcement(a.unit)
        if r is None:
            raise InputError(f"[15] {a.unit} does not enter by land")
        zone = a.zone or r.zone
        if r.hex is not None and not a.zone:
            entries, where = [r.hex], f"hex {r.hex} [15.3]"
        elif zone in g.sc.map.entry_zones:
            entries, where = list(g.sc.map.entry_zones[zone].hexes), f"zone {zone} [15.1]"
        else:
            raise InputError(f"[15.1] there is no entry zone {zone}")
        path = g.cheapest_entry(state, cast(Side, side), entries, a.to)
        if path is None:
            raise InputError(f"[6.1] no path for {a.unit} from its entry {where} to {a.to}: "
                             f"{form}")
        return path

    def due_drops(self, scenario: Scenario, state: State) -> list[Any]:
        """Drop groups that may land this turn [15.2, 17.3, 17.4]."""
        return [d for d in scenario.para_drops
                if d.group not in state.dropped and d.turn <= state.turn]

    def default_landings(self, scenario: Scenario, state: State) -> list[dict[str, str]]:
        """Landings filling the allowed hexes round each due DZ in number order, up to the
        stacking limit, off enemy units."""
        g = self.game(scenario)
        board = g.board(state)
        enemy = g.hexes_of(state, "DE")
        filled: dict[str, int] = {}
        for u in state.units.values():
            if u.on_map and u.hex is not None:
                filled[u.hex] = filled.get(u.hex, 0) + u.steps
        out = []
        for d in self.due_drops(scenario, state):
            ring = [str(x) for x in Hex.parse(d.dz).within(d.radius) if board.on_map(str(x))
                    and board.kind(str(x)) in d.terrain and str(x) not in enemy]
            for uid in d.units:
                steps = state.units[uid].steps
                h = next((x for x in ring if filled.get(x, 0) + steps
                          <= scenario.constants.stacking_steps), ring[0] if ring else d.dz)
                filled[h] = filled.get(h, 0) + steps
                out.append({"unit": uid, "hex": h})
        return out

    # -- checking -------------------------------------------------------------------------------------
    def validate(self, scenario: Scenario, state: State, side: str,
                 orders: Orders) -> list[RuleViolation]:
        pend = self.pending(scenario, state)
        if not pend:
            return [_v("16", "the game is over")]
        d = pend[0]
        if d.side != side or orders.side != side:
            return [_v("2.1", f"it is {d.side}'s decision, not {side}'s")]
        expected = {"activation": ("activation", "pass"), "player-turn": ("activation", "pass"),
                    "pass": ("pass",), "drop": ("drop",), "setup": ("setup",),
                    "acknowledge": ("acknowledge",)}[d.kind]
        if orders.kind not in expected:
            return [_v("2.1", f"a {d.kind} is due, not a {orders.kind}")]
        if isinstance(orders, Pass) and d.kind == "pass" and orders.standing is not None:
            return [_v("2.1", "this pass only reveals the dice before it: standing orders go "
                              "with your own activations and passes")]
        standing = getattr(orders, "standing", None)
        if standing is not None:
            probs = self._standing_problems(scenario, cast(Side, side), standing)
            if probs:
                return probs
        if isinstance(orders, Drop):
            return self._drop_problems(scenario, state, orders)
        if isinstance(orders, Setup):
            return self._setup_problems(scenario, state, orders)
        if isinstance(orders, Activation):
            g = self.game(scenario)
            st = state.model_copy(deep=True)
            run = _Run(g, st, cast(Side, side), None, Happened())
            run.activation(orders)
            return run.violations
        return []

    def _drop_problems(self, scenario: Scenario, state: State, orders: Drop) -> list[RuleViolation]:
        g = self.game(scenario)
        board = g.board(state)
        enemy = g.hexes_of(state, "DE")
        out: list[RuleViolation] = []
        due = {d.group: d for d in self.due_drops(scenario, state)}
        for grp in orders.wait:
            if grp not in due:
                out.append(_v("15.2", f"{grp} is not due to drop"))
            elif scenario.options.drop == "historic":
                out.append(_v("17.3", f"{grp} drops on its historic turn"))
        landed = {ln.unit: ln.hex for ln in orders.landings}
        for grp, dz in orders.dz.items():
            d = due.get(grp)
            if d is None or not d.alternative_dz or scenario.options.drop != "free":
                out.append(_v("15.2", f"{grp} may not choose another drop zone"))
            elif (not board.on_map(dz) or dz in enemy or board.kind(dz) not in d.terrain):
                out.append(_v("15.2", f"drop zone {dz}: on the map, free of the enemy, in "
                                      f"{' or '.join(d.terrain)} terrain"))
        for grp, d in due.items():
            if grp in orders.wait:
                continue
            dz = orders.dz.get(grp, d.dz)
            for uid in d.units:
                h = landed.get(uid)
                if h is None:
                    out.append(_v("15.2", f"{uid} of {grp} has no landing hex"))
                    continue
                if not board.on_map(h) or board.distance(h, dz) > d.radius:
                    out.append(_v("15.2", f"{uid}: {h} is more than {d.radius} hexes from the "
                                          f"drop zone {dz}"))
                elif board.kind(h) not in d.terrain:
                    out.append(_v("15.2", f"{uid}: {h} is {board.kind(h)}, not "
                                          f"{' or '.join(d.terrain)}"))
                elif h in enemy:
                    out.append(_v("15.2", f"{uid}: enemy units are at {h}"))
        for uid in landed:
            if not any(uid in d.units for g_, d in due.items() if g_ not in orders.wait):
                out.append(_v("15.2", f"{uid} is not in a group dropping now"))
        return out

    # -- resolution -------------------------------------------------------------------------------------
    def resolve(self, scenario: Scenario, state: State, side: str, orders: Orders, dice: Dice,
                checked: Checked | None = None) -> Resolution:
        g = self.game(scenario)
        st = state.model_copy(deep=True)
        log = Happened()
        me = cast(Side, side)
        if isinstance(orders, Acknowledge):
            st.phase = "over"
            log.event({"kind": "acknowledged", "side": me})
            return Resolution(st, log.events)
        if isinstance(orders, Setup):
            st = self._placed(scenario, state, orders)
            st.phase = "operations"
            log.event({"kind": "set-up", "side": me,
                       "units": {p.unit: st.units[p.unit].hex or ""
                                 for p in self.free_setup(scenario)}})
            mark_bridge(g, st)
            g.command_and_supply(st)
            return Resolution(st, log.events)  # no dice: the first activation follows [17.1]
        if isinstance(orders, Pass) and state.owed == me:
            st.owed = None
            log.event({"kind": "passed", "side": me, "owed": True})
            return Resolution(st, log.events)
        if isinstance(orders, Drop):
            self._land(g, st, orders, log)
            self._initiative(g, st, dice, log)
        elif st.options.simplified_sequence:
            if orders.standing is not None:
                st.standing[me] = orders.standing
            if isinstance(orders, Activation):
                _Run(g, st, me, dice, log).activation(orders)
            else:
                log.event({"kind": "passed", "side": me})
            self._stacking(g, st, log)  # [5, 18.1] at the end of the combat phase
            if me == "AL":
                st.to_act = "DE"
            else:
                log.event({"kind": "turn-end", "turn": st.turn,
                           "why": "both player-turns are over [18.1]"})
                self._end_turn(g, st, me, dice, log)
        elif isinstance(orders, Pass):
            if orders.standing is not None:
                st.standing[me] = orders.standing
            log.event({"kind": "passed", "side": me})
            if st.passed == other(me) or not g.ready(st, other(me)):
                log.event({"kind": "turn-end", "turn": st.turn,
                           "why": "both sides passed in a row [2.2]"
                           if st.passed == other(me) else "the side still active passed [2.2]"})
                self._end_turn(g, st, me, dice, log)
            else:
                st.passed = me
                st.to_act = other(me)
        else:
            assert isinstance(orders, Activation)
            if orders.standing is not None:
                st.standing[me] = orders.standing
            run = _Run(g, st, me, dice, log)
            run.activation(orders)
            st.passed = None
            self._after_segment(g, st, me, dice, log)
        if st.phase != "over":
            nxt = self.pending(scenario, st)
            if nxt and nxt[0].side == me:
                st.owed = other(me)  # the revealer of these dice decides next
        return Resolution(st, log.events)

    def _after_segment(self, g: Game, st: State, me: Side, dice: Dice, log: Happened) -> None:
        """[2.2] who activates next, or the end of the turn."""
        them = other(me)
        if g.ready(st, them):
            st.to_act = them
            return
        if not g.ready(st, me):
            log.event({"kind": "turn-end", "turn": st.turn,
                       "why": "no unit is left to activate [2.1]"})
            self._end_turn(g, st, me, dice, log)
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
                self._end_turn(g, st, me, dice, log)

    def _end_turn(self, g: Game, st: State, me: Side, dice: Dice, log: Happened) -> None:
        """End of operations (stacking [5]), administration [2.1], and the next turn's weather
        [14], drop [15.2] or supply, command and initiative [2.1, 9, 10]."""
        self._stacking(g, st, log)
        mark_bridge(g, st)
        for u in st.units.values():
            u.activated = False
            u.bv_used = False
            u.df_used = False
        st.joined = []
        st.engineer_steps = 0
        st.air_used = 0
        st.passed = None
        st.alone = 0
        if st.turn >= g.sc.last_turn:
            st.phase = "ack"
            st.ack = other(me)
            st.outcome = self._victory(g, st)
            log.event({"kind": "game-end", "turn": st.turn, "outcome": st.outcome})
            return
        st.turn += 1
        self._weather(g, st, dice, log)
        if self.due_drops(g.sc, st) and g.sc.weather_effects[st.weather].drops:
            st.phase = "drop"
            return
        self._initiative(g, st, dice, log)

    def _weather(self, g: Game, st: State, dice: Dice, log: Happened) -> None:
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

    def _land(self, g: Game, st: State, orders: Drop, log: Happened) -> None:
        due = {d.group: d for d in self.due_drops(g.sc, st)}
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
            log.event({"kind": "dropped", "unit": ln.unit, "hex": ln.hex})
        st.phase = "operations"
        mark_bridge(g, st)

    def _initiative(self, g: Game, st: State, dice: Dice, log: Happened) -> None:
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

    def _stacking(self, g: Game, st: State, log: Happened) -> None:
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

    # -- victory [16] -------------------------------------------------------------------------------------
    def _victory(self, g: Game, st: State) -> str:
        hexes = g.sc.victory.bridge_hexes
        if all(st.bridge.get(h) == "AL" for h in hexes):
            return "AL strategic"
        if g.bridgehead(st) >= g.sc.victory.bridgehead_steps:
            return "AL secondary"
        return "DE"

    def score(self, scenario: Scenario, state: State) -> dict[str, int]:
        g = self.game(scenario)
        held = sum(1 for h in scenario.victory.bridge_hexes if state.bridge.get(h) == "AL")
        return {"AL": g.bridgehead(state), "DE": len(scenario.victory.bridge_hexes) - held}

    def outcome(self, scenario: Scenario, state: State) -> Outcome | None:
        if state.phase != "over" or state.outcome is None:
            return None
        pts = self.score(scenario, state)
        words = {"AL strategic": "Allied strategic victory: the Arnhem bridge is in Allied "
                                 "hands [16]",
                 "AL secondary": f"Allied secondary victory: a bridgehead of {pts['AL']} "
                                 "infantry steps over the Neder Rijn [16]",
                 "DE": "German victory: no Allied bridge and no bridgehead of "
                       f"{scenario.victory.bridgehead_steps} steps [16]"}
        winner = "DE" if state.outcome == "DE" else "AL"
        return Outcome(winner, words[state.outcome], pts,
                       [f"Allied infantry steps over the Neder Rijn: {pts['AL']}",
                        f"Arnhem bridge hexes not in Allied hands: {pts['DE']}"])

    # -- words ----------------------------------------------------------------------------------------------
    def describe(self, scenario: Scenario, state: State) -> str:
        if state.phase == "over":
            return f"game over: {state.outcome}"
        o = state.options
        chosen = [w for w, on in (("random weather [14.2]", o.weather == "random"),
                                  ("XXX Corps early [15.3]", o.xxx_corps_early),
                                  ("simplified sequence [18.1]", o.simplified_sequence),
                                  ("morale [7.5]", o.morale)) if on]
        extra = f"; {', '.join(chosen)}" if chosen else ""
        return (f"turn {state.turn} of {scenario.last_turn} ({state.weather}{extra}), "
                f"{state.phase}, {state.to_act} to act")

    def describe_event(self, scenario: Scenario, event: JSON) -> str:
        from pbem.systems.arnhem1944.presenter import event_text

        return event_text(event, scenario)

    def presenter(self) -> Any:
        from pbem.systems.arnhem1944.presenter import Arnhem1944Presenter

        return Arnhem1944Presenter(self)
