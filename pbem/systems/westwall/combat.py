"""The WestWall combat phase: which units must attack, checking the declared attacks, and resolving
them one after another with the committed dice [7.0-9.14, 14.0].

Two entry points, both called by ``rules.py`` with the board as it stands after the movement phase:

* :func:`validate_attacks` -- every rule the declared attacks break (never mutates anything), in
  :mod:`pbem.systems.westwall.attacks`;
* :func:`resolve_combat` -- resolves the attacks in the declared order, each result applied before
  the next [7.0]; mutates the board and returns the events. :func:`combat_state_changes` gives the
  :class:`~pbem.systems.westwall.model.State` fields that are not on the board (ground support spent, the
  combat phase counter) for ``board.to_state(state, **changes)``.

Terms used below. In one combat, *ground attackers* are the units in ``attack.attackers``: adjacent
non-artillery units and adjacent artillery [8.31] (which attacks with its Barrage Strength and
suffers the results [8.33]). *Barraging artillery* are the units in ``attack.artillery``: not
adjacent to any enemy, or adjacent only across rivers [8.34]; they never suffer results [8.14].
An attack is *solely artillery* when it has no non-artillery attacker [8.15, 8.45, 8.62].

Combat phase numbering: the combat phase being resolved is number ``state.combat_phase_index + 1``;
a unit that suffers a result gets ``adverse_phase`` set to that number, and artillery that fired
FPF gets ``fpf_turn`` = the game-turn [8.41, 8.46].

Reactive decisions of the defender (protocol.md) come from ``state.standing[defender]``; the
documented defaults are in ``docs/westwall.md`` ("Combat") and repeated on each function.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field

from pbem.engine.ruleset import Dice
from pbem.maps.hexmap import Hex
from pbem.plain import Plain
from pbem.systems.westwall import crt
from pbem.systems.westwall.attacks import (
    SOLELY_ARTILLERY_RESULTS,
    can_attack_across,
    engaged_enemies,
    ground_support_available,
    player_turn_number,
    support_phase_blocked,
    unit_hex_of,
)
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Exclusive, get_exclusive
from pbem.systems.westwall.model import (
    AdvanceEvent,
    AdvanceOrder,
    AttackOrder,
    CombatEvent,
    CrtLine,
    DisplacedEvent,
    EliminatedEvent,
    Event,
    FpfOrder,
    NoteEvent,
    PlayerTurnOrders,
    RetreatEvent,
    Scenario,
    StandingOrders,
    State,
)
from pbem.systems.westwall.retreat import Enter, Retreat, retreat


class _Phase(Plain):
    """Bookkeeping across the combats of one combat phase."""

    scenario: Scenario
    state: State
    board: Board
    exclusive: Exclusive
    attacker: str
    defender: str
    phase_no: int
    advanced: set[str] = field(default_factory=set)
    displaced: set[str] = field(default_factory=set)
    fired: set[str] = field(default_factory=set)
    hit: set[str] = field(default_factory=set)
    fpf_support_left: int = 0
    fpf_support_used: int = 0
    support_used: int = 0
    dice_drawn: int = 0
    dice: Dice | None = None
    """The phase's dice, for the rolls the exclusive rules make as units reach hexes in a retreat
    or an advance (Arnhem [12.11], westwall/3)."""

    _artillery: list[str] | None = None

    @property
    def standing(self) -> StandingOrders | None:
        return self.state.standing.get(self.defender)

    def defending_artillery(self) -> list[str]:
        """The defender's artillery on the map at the start of the phase, by id: the default FPF
        candidates [8.4]. Built once per phase; units only leave the map or move during it, and
        :func:`_fpf_eligible` skips those no longer on it."""
        if self._artillery is None:
            unit = self.scenario.unit
            self._artillery = [
                u for u in self.board.units_of(self.defender) if unit[u].is_artillery
            ]
        return self._artillery


def line_for(board: Board, attackers: Sequence[str], defenders: Sequence[str]) -> CrtLine:
    """The CRT line of a combat [7.41-7.45, 8.62].

    Each defender benefits from its hex's line, and from a hexside line only when the combat has
    non-artillery attackers and *every* one of them attacks across a hexside with a CRT line
    (stream [7.42], bridge); when their hexsides give different lines the least favourable of them
    applies (every attacker crosses at least that). Solely artillery/support: hex terrain only
    [8.62]. All defenders use the most favourable line among them [7.44, 7.45]."""
    unit = board.scenario.unit
    nonart = [a for a in attackers if not unit[a].is_artillery]
    lines: list[CrtLine] = []
    for d in defenders:
        dh = unit_hex_of(board, d)
        best: CrtLine = board.terrain(dh).crt
        if nonart:
            side_lines = [board.crossing(unit_hex_of(board, a), dh).crt for a in nonart]
            known = [x for x in side_lines if x is not None]
            if len(known) == len(side_lines):
                least = min(known, key=crt.line_rank)
                best = crt.best_line([best, least])
        lines.append(best)
    return crt.best_line(lines)


def _fpf_eligible(ph: _Phase, art: str, defenders: Sequence[str]) -> bool:
    """[8.41, 8.42, 8.46]: may ``art`` give FPF to a combat against ``defenders`` right now?"""
    b = ph.board
    u = ph.scenario.unit[art]
    h = b.unit_hex(art)
    if h is None or not u.is_artillery or u.fpf <= 0 or art in defenders:
        return False
    us = b.units.get(art)
    if us is None:
        return False
    if us.fpf_turn == ph.state.game_turn:  # [8.46]
        return False
    if us.adverse_phase is not None and us.adverse_phase >= ph.phase_no - 1:  # [8.41]
        return False
    if art in ph.hit or art in ph.displaced:  # [8.41]
        return False
    if not any(h.distance(unit_hex_of(b, d)) <= u.range for d in defenders):  # [8.42]
        return False
    return not engaged_enemies(b, art, ph.attacker)  # [8.41] adjacent except across a river


def _allocate_fpf(ph: _Phase, defenders: Sequence[str], cap: int | None) -> tuple[list[str], int]:
    """FPF artillery (and support points) for one combat [8.4, 9.0, 14.0].

    Standing orders ``fpf`` non-empty: each listed artillery unit fires for the first combat that
    attacks one of its ``protect`` units (``"*"``: any); ``protect: []`` holds it back; units not
    listed do not fire. Empty ``fpf`` (or no standing orders): the default -- every eligible
    artillery unit, by unit id, fires for the first attacked friendly unit in range. Under [14.0]
    (``cap`` not None) a unit fires only while its whole FPF fits under the cap.

    Support points: ``fpf_support`` of the standing orders is a budget for the opponent's
    player-turn, spent on the first eligible combats up to the [14.0] cap (default 0)."""
    orders = ph.standing
    chosen: list[str] = []
    total = 0
    candidates: list[str]
    if orders is not None and orders.fpf:
        candidates = []
        for fo in orders.fpf:
            if _protects(fo, defenders) and fo.artillery not in candidates:
                candidates.append(fo.artillery)
    else:
        candidates = ph.defending_artillery()
    for art in candidates:
        if ph.scenario.unit[art].side != ph.defender or not _fpf_eligible(ph, art, defenders):
            continue
        pts = ph.scenario.unit[art].fpf
        if cap is not None and total + pts > cap:
            continue
        most = ph.exclusive.max_artillery(ph.scenario)
        if most is not None and len(chosen) >= most:
            break  # e.g. Arnhem [14.12]: the first ones in the order given fire
        chosen.append(art)
        total += pts
    support = ph.fpf_support_left
    if support and not ph.exclusive.fpf_support_allowed(ph.scenario, ph.board, ph.defender, defenders):
        support = 0  # e.g. Arnhem [14.11]: kept for a later combat where it may be used
    if cap is not None:
        support = min(support, max(0, cap - total))
    return chosen, support


def _protects(fo: FpfOrder, defenders: Sequence[str]) -> bool:
    return "*" in fo.protect or any(d in fo.protect for d in defenders)


def resolve_combat(
    board: Board,
    scenario: Scenario,
    state: State,
    orders: PlayerTurnOrders,
    dice: Dice,
    exclusive: Exclusive | None = None,
) -> list[Event]:
    """Resolve ``orders.attacks`` in their declared order on ``board`` (mutated) [7.0].

    One die per combat, ``dice.d6(f"7.6 combat {n}")``, in the declared order; no die for a
    cancelled combat. Cancelled before rolling (a ``CombatEvent`` with ``cancelled`` set, plus a
    ``NoteEvent``): a combat involving a unit that advanced earlier in the phase [7.96]; a barrage
    alone on a defender displaced earlier [7.82]; a combat whose ground attackers are no longer
    adjacent to all defenders [7.23]; a combat left with no attacking strength. Displaced artillery
    that had not fired is withdrawn from later combats [7.82], as is barraging artillery no longer
    in range of any defender [8.11].
    """
    ph = _phase(board, scenario, state, orders, exclusive, dice)
    events: list[Event] = []
    for n, att in enumerate(orders.attacks, start=1):
        events += _resolve_one(ph, n, att, dice)
    return events


def _phase(board: Board, scenario: Scenario, state: State, orders: PlayerTurnOrders,
           exclusive: Exclusive | None, dice: Dice | None) -> _Phase:
    """The combat phase's bookkeeping at its start: the defender's FPF support budget [9.0]."""
    ex = exclusive or get_exclusive(scenario.game)
    attacker = orders.side
    defender = scenario.other(attacker)
    ph = _Phase(scenario, state, board, ex, attacker, defender, state.combat_phase_index + 1, dice=dice)
    standing = ph.standing
    if standing is not None and standing.fpf_support:
        if not support_phase_blocked(
            scenario, state, defender, player_turn_number(scenario, state)
        ):
            ph.fpf_support_left = min(
                standing.fpf_support, ground_support_available(scenario, state, defender)
            )
    return ph


class ExpectedCombat(Plain, frozen=True):
    """One attack as the combat phase starts (:func:`odds_before_dice`)."""

    number: int
    attack: int
    defense: int
    fpf: tuple[str, ...]
    fpf_support: int
    line: CrtLine
    column: str

    @property
    def differential(self) -> int:
        return self.attack - self.defense


def odds_before_dice(board: Board, scenario: Scenario, state: State, orders: PlayerTurnOrders,
                     exclusive: Exclusive | None = None) -> list[ExpectedCombat]:
    """Each attack's strengths, the defender's FPF, the CRT line and column [7.3-7.6, 8.4] as the
    combat phase starting on ``board`` (the position after movement; copied, not changed) gives
    them when no earlier result changes the position: the same computation :func:`resolve_combat`
    makes before each die (FPF spent by earlier combats included), for the preview of orders."""
    ph = _phase(board.copy(), scenario, state, orders, exclusive, None)
    out: list[ExpectedCombat] = []
    for n, att in enumerate(orders.attacks, start=1):
        attackers, artillery = _taking_part(ph, n, att, [])
        if not attackers and not artillery and att.support == 0:
            continue
        odds = _odds(ph, att, attackers, artillery)
        line = _crt_line(ph, att, attackers)
        out.append(ExpectedCombat(n, odds.attack, odds.defense, tuple(odds.fpf), odds.fpf_support, line,
                                  crt.column_heading(line, odds.diff, ph.board.geo.crt)))
        _spend(ph, attackers, artillery, odds, att.support)
    return out


def _cancel(n: int, att: AttackOrder, rule: str, why: str) -> list[Event]:
    return [
        CombatEvent(
            number=n,
            attackers=list(att.attackers),
            artillery=list(att.artillery),
            support=att.support,
            defenders=list(att.defenders),
            fpf=[],
            fpf_support=0,
            attack_strength=0,
            defense_strength=0,
            differential=0,
            line="clear",
            column="",
            die=0,
            roll_index=-1,
            result="-",
            cancelled=f"{why} [{rule}]",
        ),
        NoteEvent(rule=rule, text=f"attack {n} cancelled: {why}"),
    ]


def _resolve_one(ph: _Phase, n: int, att: AttackOrder, dice: Dice) -> list[Event]:
    """Attack number ``n``: cancelled when earlier results broke it (:func:`_broken`); else the
    units still able to take part (:func:`_taking_part`), the strengths with the defender's FPF
    (:func:`_odds`), the CRT line (:func:`_crt_line`), the die [7.6], the combat's event and any
    note on a result without effect (:func:`_no_effect`), what was spent (:func:`_spend`), the
    result (:func:`_apply_result`), and the rolls the exclusive rules make along the paths the
    result caused (:func:`_rolls_on_paths`)."""
    broken = _broken(ph, n, att)
    if broken is not None:
        return broken
    events: list[Event] = []
    attackers, artillery = _taking_part(ph, n, att, events)
    if not attackers and not artillery and att.support == 0:
        return events + _cancel(n, att, "7.0", "nothing is left to attack with")
    b = ph.board
    odds = _odds(ph, att, attackers, artillery)
    line = _crt_line(ph, att, attackers)
    heading = crt.column_heading(line, odds.diff, b.geo.crt)
    rolls = getattr(dice, "rolls", None)
    roll_index = len(rolls) if isinstance(rolls, list) else ph.dice_drawn
    ph.dice_drawn += 1
    die = dice.d6(f"7.6 combat {n}")
    table = crt.lookup(line, odds.diff, die, b.geo.crt)
    # [8.15]: an attack solely by artillery/support affects the defender only on D2-D4/De;
    # adjacent artillery among the attackers still suffers A1/A2/Ae/Br [8.33].
    suffering = _suffering_attackers(ph, attackers)
    hit_def = table in ("D1", "D2", "D3", "D4", "De", "Br") and (
        not odds.solely_art or table in SOLELY_ARTILLERY_RESULTS
    )
    hit_att = table in ("A1", "A2", "Ae", "Br") and bool(suffering)
    result = table if hit_def or hit_att else "-"
    events.append(
        CombatEvent(
            number=n,
            attackers=list(attackers),
            artillery=artillery,
            support=att.support,
            defenders=list(att.defenders),
            fpf=odds.fpf,
            fpf_support=odds.fpf_support,
            attack_strength=odds.attack,
            defense_strength=odds.defense,
            differential=odds.diff,
            line=line,
            column=heading,
            die=die,
            roll_index=roll_index,
            result=result,
            cancelled="",
        )
    )
    events += _no_effect(n, table, result, hit_def, odds.solely_art)
    _spend(ph, attackers, artillery, odds, att.support)
    events += _apply_result(ph, n, att, attackers, table, hit_def, hit_att)
    if ph.exclusive.rolls_in_movement and not ph.exclusive.readings.demolition_on_reaching:
        _rolls_on_paths(ph, dice, events)  # westwall/2: after the paths (westwall/3: as reached)
    return events


def _broken(ph: _Phase, n: int, att: AttackOrder) -> list[Event] | None:
    """The cancelled combat when earlier results in the phase broke the attack, else ``None``: a
    unit of it advanced after combat [7.96]; an attacker or defender left the map [7.0]; a
    barrage's defender was displaced out of the hex [7.82]; an attacker is no longer adjacent to a
    defender [7.23]."""
    b = ph.board
    involved = [*att.attackers, *att.artillery, *att.defenders]
    moved = [u for u in involved if u in ph.advanced]
    if moved:
        return _cancel(
            n, att, "7.96", f"{', '.join(moved)} advanced after combat earlier in this phase"
        )
    gone = [u for u in [*att.attackers, *att.defenders] if b.unit_hex(u) is None]
    if gone:
        return _cancel(n, att, "7.0", f"{', '.join(gone)} no longer on the map")
    if not att.attackers and any(d in ph.displaced for d in att.defenders):
        shifted = [d for d in att.defenders if d in ph.displaced]
        return _cancel(
            n, att, "7.82", f"{', '.join(shifted)} was displaced out of the barraged hex"
        )
    for a in att.attackers:
        for d in att.defenders:
            if not can_attack_across(b, unit_hex_of(b, a), unit_hex_of(b, d)) and ph.exclusive.attack_across(
                    ph.scenario, b, a, unit_hex_of(b, a), unit_hex_of(b, d)) is None:
                return _cancel(
                    n, att, "7.23", f"{a} is no longer adjacent to {d} after earlier results"
                )
    return None


def _taking_part(
    ph: _Phase, n: int, att: AttackOrder, events: list[Event]
) -> tuple[list[str], list[str]]:
    """The attackers and barraging artillery that still take part (a note added for each that
    does not): artillery displaced before it fired cannot fire [7.82]; barraging artillery no
    longer on the map [7.0] or out of range of every defender [8.11] drops out."""
    b = ph.board
    unit = ph.scenario.unit
    artillery: list[str] = []
    for a in att.artillery:
        ah = b.unit_hex(a)
        if a in ph.displaced and a not in ph.fired:
            events.append(
                NoteEvent(rule="7.82", text=f"{a} was displaced and cannot fire in attack {n}")
            )
        elif ah is None:
            events.append(NoteEvent(rule="7.0", text=f"{a} is no longer on the map (attack {n})"))
        elif not any(ah.distance(unit_hex_of(b, d)) <= unit[a].range for d in att.defenders):
            events.append(
                NoteEvent(rule="8.11", text=f"{a} is now out of range of attack {n}'s defenders")
            )
        else:
            artillery.append(a)
    attackers = list(att.attackers)
    dropped_adjacent = [
        a for a in attackers if unit[a].is_artillery and a in ph.displaced and a not in ph.fired
    ]
    for a in dropped_adjacent:
        events.append(
            NoteEvent(rule="7.82", text=f"{a} was displaced and cannot fire in attack {n}")
        )
        attackers.remove(a)
    return attackers, artillery


class _Odds(Plain):
    """The strengths of one combat [7.3]: the defender's FPF [8.4] included."""

    fpf: list[str]
    fpf_support: int
    attack: int
    defense: int
    solely_art: bool
    """No non-artillery attacker [8.15, 8.45, 8.62]."""

    @property
    def diff(self) -> int:
        """The combat differential [7.5]."""
        return self.attack - self.defense


def _odds(ph: _Phase, att: AttackOrder, attackers: list[str], artillery: list[str]) -> _Odds:
    """Attack strength (non-artillery attack, artillery barrage, support) against defense
    strength (every defender's defense [8.5], plus FPF artillery and support [8.4]; none against
    an attack solely by artillery/support [8.45]; under [14.0] capped by the non-artillery
    defenders' defense)."""
    unit = ph.scenario.unit
    nonart = [a for a in attackers if not unit[a].is_artillery]
    solely_art = not nonart
    # FPF [8.4]: not against an attack made solely by artillery/support [8.45].
    fpf: list[str] = []
    fpf_support = 0
    if not solely_art:
        cap = None
        if ph.scenario.artillery_limit:
            cap = sum(unit[d].defense for d in att.defenders if not unit[d].is_artillery)
        fpf, fpf_support = _allocate_fpf(ph, att.defenders, cap)
    attack_strength = (
        sum(unit[a].attack for a in nonart)
        + sum(unit[a].barrage for a in attackers if unit[a].is_artillery)
        + sum(unit[a].barrage for a in artillery)
        + att.support
    )
    defense_strength = (
        sum(unit[d].defense for d in att.defenders)  # artillery defends with defense [8.5]
        + sum(unit[f].fpf for f in fpf)
        + fpf_support
    )
    return _Odds(fpf, fpf_support, attack_strength, defense_strength, solely_art)


def _crt_line(ph: _Phase, att: AttackOrder, attackers: list[str]) -> CrtLine:
    """The CRT line (:func:`line_for`), unless every non-artillery attack across a hexside that
    forbids it is one the exclusive rules allow: then the best of their lines (Arnhem [13.24])."""
    b = ph.board
    unit = ph.scenario.unit
    line = line_for(b, attackers, att.defenders)
    special = [ph.exclusive.attack_across(ph.scenario, b, a, unit_hex_of(b, a), unit_hex_of(b, d))
               for a in attackers if not unit[a].is_artillery for d in att.defenders
               if not can_attack_across(b, unit_hex_of(b, a), unit_hex_of(b, d))]
    if special and all(x is not None for x in special):
        line = crt.best_line([x for x in special if x is not None])  # e.g. Arnhem [13.24]
    return line


def _no_effect(n: int, table: str, result: str, hit_def: bool, solely_art: bool) -> list[Event]:
    """The note when the table's result does not apply: to a defender attacked solely by
    artillery/support [8.15], or to nobody (barraging artillery and support never suffer [8.14])."""
    if solely_art and not hit_def and (table[0] == "D" or table == "Br"):
        return [
            NoteEvent(
                rule="8.15",
                text=f"attack {n} was made solely by artillery/support: the table's {table} "
                "does not affect the defender (only D2, D3, D4 and De do)",
            )
        ]
    if result == "-":
        return [
            NoteEvent(
                rule="8.14",
                text=f"attack {n}: the table's {table} has no effect, barraging artillery and "
                "support never suffer combat results",
            )
        ]
    return []


def _spend(ph: _Phase, attackers: list[str], artillery: list[str], odds: _Odds, support: int) -> None:
    """Bookkeeping of what was spent: artillery that fired, FPF artillery's game-turn [8.46]
    (unaffected by the result [8.44]), FPF and attack support points."""
    unit = ph.scenario.unit
    for a in [*attackers, *artillery]:
        if unit[a].is_artillery:
            ph.fired.add(a)
    for f in odds.fpf:
        ph.board.update_unit(f, fpf_turn=ph.state.game_turn)  # [8.46]; unaffected by the result [8.44]
    ph.fpf_support_left -= odds.fpf_support
    ph.fpf_support_used += odds.fpf_support
    ph.support_used += support


def _rolls_on_paths(ph: _Phase, dice: Dice, events: list[Event]) -> None:
    """westwall/2: hexes entered by retreats, displacements and advances count too (Arnhem: a
    bridge is tried whatever the phase [12.11]), rolled once the paths were made, so the rest of a
    path was not judged against the result (westwall/3 rolls as each hex is reached:
    :func:`_enter`)."""
    for ev in list(events):
        if isinstance(ev, RetreatEvent | DisplacedEvent | AdvanceEvent):
            for h in ev.path[1:]:
                ph.exclusive.on_enter(ph.scenario, ph.board, ph.state, ev.unit, Hex.parse(h), dice,
                                      events)


def _enter(ph: _Phase) -> Enter | None:
    """westwall/3, games whose exclusive rules roll as units reach hexes (Arnhem [12.11]): what a
    retreat or an advance calls as a unit enters a hex -- the rolls are made then, and the rest of
    it is judged against the result [12.13]. ``None`` otherwise."""
    ex, dice = ph.exclusive, ph.dice
    if not ex.rolls_in_movement or not ex.readings.demolition_on_reaching or dice is None:
        return None

    def enter(uid: str, h: Hex, events: list[Event]) -> bool:
        return ex.on_enter(ph.scenario, ph.board, ph.state, uid, h, dice, events)

    return enter


def _suffering_attackers(ph: _Phase, attackers: Sequence[str]) -> list[str]:
    """Ground attackers take the results [8.33]; barraging artillery never does [8.14] (and
    artillery across a river is always barraging [8.34])."""
    return [a for a in attackers if ph.board.unit_hex(a) is not None]


def _apply_result(
    ph: _Phase,
    n: int,
    att: AttackOrder,
    attackers: Sequence[str],
    result: str,
    hit_def: bool,
    hit_att: bool,
) -> list[Event]:
    """Apply a CRT result [7.62]: to the defenders when ``hit_def``, to the ground attackers when
    ``hit_att``. In order: De eliminates the defenders, Ae the attackers; the defenders retreat,
    then (Br) the attackers [7.7]; the units hit note an adverse result [8.41]; the side that
    stayed may advance after combat [7.9]."""
    b = ph.board
    events: list[Event] = []
    d_hexes = {d: unit_hex_of(b, d) for d in att.defenders}
    a_hexes = [unit_hex_of(b, a) for a in attackers] or [unit_hex_of(b, a) for a in att.artillery]
    suffering = _suffering_attackers(ph, attackers) if hit_att else []
    d_hits, a_hits = crt.retreat_hexes(result)
    if not hit_def:
        d_hits = 0
        result_def = ""
    else:
        result_def = result
    paths: dict[str, list[Hex]] = {}
    if result_def == "De":
        paths.update({d: [d_hexes[d]] for d in att.defenders})
        events += _eliminate(ph, n, att.defenders, "defender eliminated (De)")
    a_hexes_before = {a: unit_hex_of(b, a) for a in suffering}
    if result == "Ae":
        events += _eliminate(ph, n, suffering, "attacker eliminated (Ae)")
    if d_hits:
        events += _retreats(ph, n, att.defenders, d_hits, result, ph.defender, a_hexes, paths)
    a_origin = {a: unit_hex_of(b, a) for a in suffering if b.unit_hex(a) is not None}
    a_paths: dict[str, list[Hex]] = {}
    if result == "Ae":
        for a in suffering:
            a_paths[a] = [a_hexes_before[a]]
    if a_hits:
        away = [unit_hex_of(b, d) for d in att.defenders if b.unit_hex(d) is not None] or list(
            d_hexes.values()
        )
        events += _retreats(ph, n, suffering, a_hits, result, ph.attacker, away, a_paths)
    # Adverse results [8.41].
    losers: list[str] = []
    if result_def in ("D1", "D2", "D3", "D4", "De", "Br"):
        losers += list(att.defenders)
        ph.hit.update(att.defenders)
    if result in ("A1", "A2", "Ae", "Br"):
        losers += list(suffering)
    for u in losers:
        b.update_unit(u, adverse_phase=ph.phase_no)
    # Advance after combat [7.9]: only after the defender retreated or died and the attacker stayed.
    if result_def in ("D1", "D2", "D3", "D4", "De"):
        events += _advance(ph, n, att.advance, attackers, d_hexes, paths)
    if hit_att and result in ("A1", "A2", "Ae"):
        events += _pursuit(ph, n, att, a_paths, {**a_origin, **a_hexes_before})
    return events


def _pursuit(
    ph: _Phase, n: int, att: AttackOrder, a_paths: dict[str, list[Hex]], a_hexes: dict[str, Hex]
) -> list[Event]:
    """The defender's advance when the attackers retreated or died (A1, A2, Ae [7.62, 7.91]): its
    own standing ``pursue`` orders, given before this player-turn; by default it holds.
    ``a_hexes``: where each attacker stood before the result."""
    standing = ph.state.standing.get(ph.defender)
    if standing is None or not standing.pursue:
        return []
    wanted = [p for p in standing.pursue if p.unit in att.defenders]
    origin = {a: a_hexes.get(a) for a in a_paths}
    return _advance(ph, n, wanted, list(att.defenders),
                    {a: h for a, h in origin.items() if h is not None}, a_paths)


def _eliminate(ph: _Phase, n: int, units: Sequence[str], reason: str) -> list[Event]:
    """De or Ae: ``units`` eliminated in their hexes [7.62]."""
    b = ph.board
    events: list[Event] = []
    for u in units:
        h = unit_hex_of(b, u)
        b.eliminate(u)
        events.append(
            EliminatedEvent(unit=u, hex=str(h), rule="7.62", reason=reason, combat=n)
        )
    return events


def _retreats(
    ph: _Phase, n: int, units: Sequence[str], hexes: int, result: str, side: str,
    away_from: list[Hex], paths: dict[str, list[Hex]],
) -> list[Event]:
    """Each of ``units`` still on the map retreats ``hexes`` hexes [7.7], by its side's standing
    retreat preferences, away from ``away_from`` (fewer from a City hex, Arnhem [11.1]); its path
    goes into ``paths`` and the units it displaced [7.8] into the phase's record, which the
    retreats after it are given (westwall/4 displaces those again only when it must [7.82])."""
    b = ph.board
    prefs = ph.state.standing.get(side)
    events: list[Event] = []
    enter = _enter(ph)
    for u in units:
        if b.unit_hex(u) is None:
            continue
        hits = ph.exclusive.retreat_hexes(ph.scenario, b, u, hexes, result)
        if hits < hexes and ph.exclusive.readings.city_retreat_optional and _declines(
                ph, u, hits, hexes, prefs, away_from):
            events.append(NoteEvent(rule="11.1", text=f"{u} in a City hex retreats the full "
                                    f"{hexes} hex{'es' if hexes != 1 else ''}, as its owner's "
                                    "retreat preference asks"))
            hits = hexes
        elif hits < hexes:
            events.append(NoteEvent(rule="11.1", text=f"{u} in a City hex retreats {hits} "
                                    f"hex{'es' if hits != 1 else ''} instead of {hexes}"))
        r: Retreat = retreat(b, ph.exclusive, u, hits, combat=n, prefs=prefs, away_from=away_from,
                             called_for=hexes, enter=enter, displaced_before=ph.displaced)
        paths[u] = r.path
        events += r.events
        for moved, _ in r.displaced:
            ph.displaced.add(moved)
    return events


def _declines(
    ph: _Phase, uid: str, reduced: int, full: int, prefs: StandingOrders | None,
    away_from: list[Hex],
) -> bool:
    """Whether the owner of ``uid`` declines a reduction of its retreat (Arnhem [11.1]: "at the
    Owning Player's option", westwall/3): only when its standing ``retreat`` preference for the
    unit is better served by the full retreat -- it completes and ends nearer the preferred hexes
    (first the first, then the second...) than the reduced one -- or the reduced one cannot be
    completed. Without a preference the unit keeps the reduction. Both retreats are tried on
    copies of the board, without rolling."""
    wanted = prefs.retreat.get(uid) if prefs is not None else None
    if not wanted:
        return False
    goals = [Hex.parse(w) for w in wanted]
    short = retreat(ph.board.copy(), ph.exclusive, uid, reduced, combat=0, prefs=prefs,
                    away_from=away_from, called_for=full, displaced_before=ph.displaced)
    long = retreat(ph.board.copy(), ph.exclusive, uid, full, combat=0, prefs=prefs,
                   away_from=away_from, called_for=full, displaced_before=ph.displaced)
    if long.eliminated is not None:
        return False
    if short.eliminated is not None:
        return True
    return [long.path[-1].distance(g) for g in goals] < [short.path[-1].distance(g) for g in goals]


def _advance(
    ph: _Phase,
    n: int,
    orders: Sequence[AdvanceOrder],
    victors: Sequence[str],
    losers_hexes: dict[str, Hex],
    paths: dict[str, list[Hex]],
) -> list[Event]:
    """Advance after combat [7.91-7.96], by the attacker (its ``advance`` orders) or by the
    defender (its standing ``pursue`` orders) -- whichever side's units stayed while the other's
    retreated or died.

    Each ``AdvanceOrder`` in order: the unit must be a victorious ground unit of this combat still
    on the map (adjacent and participating [7.94]). It follows the Path of Retreat of the first
    loser (declared order) whose path has room: the loser's combat hex, then the hexes it retreated
    through, up to ``hexes`` hexes and never beyond the path's end [7.92, 7.95]. Zones of control
    are ignored [7.93]; terrain closed to the unit stops it before that hex. It stops short of a
    hex another unit holds at the end (no stacking [5.31]). Advanced units take no further part in
    the phase [7.96]."""
    b = ph.board
    events: list[Event] = []
    enter = _enter(ph)
    for adv in orders:
        uid = adv.unit
        start = b.unit_hex(uid)
        if uid not in victors or start is None:
            events.append(NoteEvent(rule="7.94", text=f"{uid} cannot advance after attack {n}"))
            continue
        udef = b.unit_def(uid)
        best: list[Hex] = []
        for d, d_hex in losers_hexes.items():
            if adv.follow is not None and d != adv.follow:
                continue
            path = paths.get(d)
            if not path:
                continue
            if not start.is_adjacent(d_hex):
                continue
            route = [start]
            for h in path[: adv.hexes]:
                if b.crossing_prohibited_for(udef, route[-1], h) is not None:
                    break
                if not ph.exclusive.may_advance(ph.scenario, b, uid, route[-1], h):
                    break
                route.append(h)
            while len(route) > 1 and any(o != uid for o in b.occupants(route[-1])):
                route.pop()
            if len(route) > len(best):
                best = route
            if len(route) - 1 == min(adv.hexes, len(path)):
                break
        if len(best) < 2:
            events.append(
                NoteEvent(
                    rule="7.95",
                    text=f"{uid} has no vacant hex on the path of retreat to advance into",
                )
            )
            continue
        if enter is not None:
            events += _advance_stepwise(ph, n, uid, best, enter)
            continue
        for h in best[1:]:
            b.note_passage(uid, h)
        b.move_unit(uid, best[-1])
        ph.advanced.add(uid)
        events.append(AdvanceEvent(unit=uid, path=[str(h) for h in best], combat=n))
    return events


def _advance_stepwise(ph: _Phase, n: int, uid: str, route: list[Hex], enter: Enter) -> list[Event]:
    """westwall/3: the advance along ``route`` made hex by hex, ``enter`` called as the unit reaches
    each (Arnhem: a bridge is tried then [12.11]); each next step is judged against the terrain as
    it is by then [12.13]: where it is no longer allowed the unit stops, at the last vacant hex it
    reached [7.92, 5.31]."""
    b = ph.board
    udef = b.unit_def(uid)
    rolls: list[Event] = []
    walked = [route[0]]
    stopped: Hex | None = None
    for h in route[1:]:
        here = walked[-1]
        if len(walked) > 1 and (b.crossing_prohibited_for(udef, here, h) is not None
                                or not ph.exclusive.may_advance(ph.scenario, b, uid, here, h)):
            stopped = here
            break
        b.move_unit(uid, h)
        walked.append(h)
        enter(uid, h, rolls)
    while len(walked) > 1 and any(o != uid for o in b.occupants(walked[-1])):
        walked.pop()
    b.move_unit(uid, walked[-1])
    out: list[Event] = []
    if len(walked) > 1:
        ph.advanced.add(uid)
        out.append(AdvanceEvent(unit=uid, path=[str(h) for h in walked], combat=n))
    out += rolls
    if stopped is not None:
        out.append(NoteEvent(rule="12.13", text=f"{uid} stops its advance in {walked[-1]}: the way "
                             f"on from {stopped} is closed now"))
    return out


def combat_state_changes(
    scenario: Scenario, state: State, orders: PlayerTurnOrders, events: Iterable[Event]
) -> dict[str, object]:
    """State fields outside the board after a combat phase, for ``board.to_state(state, **...)``:
    ground support spent by both sides this game-turn [9.14] (and in which player-turn, for
    [15.26.4]) and ``combat_phase_index`` advanced by one [8.41]."""
    spent: dict[str, int] = {}
    attacker = orders.side
    defender = scenario.other(attacker)
    for ev in events:
        if isinstance(ev, CombatEvent) and not ev.cancelled:
            spent[attacker] = spent.get(attacker, 0) + ev.support
            spent[defender] = spent.get(defender, 0) + ev.fpf_support
    used = dict(state.ground_support_used)
    phase = dict(state.ground_support_phase)
    pt = player_turn_number(scenario, state)
    for side, pts in spent.items():
        if pts:
            used[side] = used.get(side, 0) + pts
            phase.setdefault(side, pt)
    return {
        "ground_support_used": dict(sorted(used.items())),
        "ground_support_phase": dict(sorted(phase.items())),
        "combat_phase_index": state.combat_phase_index + 1,
    }
