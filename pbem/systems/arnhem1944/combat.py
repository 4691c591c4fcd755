"""Combat in Vae Victis *Arnhem 1944* [3.4, 4.2, 4.3, 7, 10.2, 11.2, 13]: attack types, odds,
column shifts, the CRT, the split of a result, retreat and advance. Pure functions of small
typed values; the map comes in as the :class:`HexMap` protocol (five questions about hexes), the
tables as :class:`~pbem.systems.arnhem1944.tables.Crt` and ``Tec``, the die as an argument.

Readings of the text (an English translation of the French rules, OCR'd):

* [7.4] says odds are rounded "in favor of the attacker": 5:2 reads 3:1 and 4:7 reads 1:1 (the
  smallest column at or above the exact ratio). That is unusual, so the CRT file carries it
  (``odds_rounding``) for an owner whose printed rules say otherwise;
* [7.3] armour/antitank: the ratio of the attackers' summed ratings to the defenders', rounded to
  the nearest whole ratio (halves away from 1:1) and capped at 4:1 and 1:4, gives that many
  columns to the side ahead (2:1 two, 4:1 or more four); at 1:1 the side with the larger sum (if
  equal, the larger armour as against antitank rating) gets one column, an exact tie none. A side
  with ratings facing none is at the cap;
* [7.3, 10.2] a side with any unit out of supply suffers one column ("at least one" is read as
  one: [10.2] gives one), the attacker's to the left, the defender's to the right;
* [7.3] the bridge column applies when every attacker attacks over a bridge or rail bridge; a
  hexside's own shift (the TEC) likewise only when every attacker attacks across it; halving
  (the TEC's ferry) applies to each unit attacking across it, rounding up as [8.4] does;
* [13, errata] air support is one column to the right for the attacker; a defender's air support
  (allowed in prepared attacks by [7.1]) is read as one column to the left;
* [11.2] the prepared defensive position's unnamed "combat modifier" is the TEC's
  ``prepared_position_shift`` (one column left in our reconstruction); terrain is a column shift
  per hex kind (the integrated CRT, [6.3], as data);
* [7.5] "the first loss must be from an armored unit" when both sides have armour or antitank
  units: read as a unit with an armour or antitank rating;
* [3.4, 7.2] a unit that made a normal or prepared attack attacks no more and moves no further
  that activation (save its advance); mobile assaults may follow one another while MP last;
* [7.6] a retreat may enter an enemy zone of control however long it is (the translator's note;
  [4.3]), one step per such hex unless a friendly unit is there; the priorities are applied in
  order (zone free, then cheapest terrain by the TEC, then furthest from the nearest enemy unit)
  and the player chooses among the hexes equal on all three; a hex the path has already used is
  never re-entered; if no hex is open, each hex not retreated costs a step (the text is silent);
  off the map (from an edge hex, when no hex on the map is open) the stack is eliminated;
* [7.6] "stop when they enter an enemy ZdC, first hex excluded": entering a zone on the first
  (vacated) hex does not stop an advance; on any later hex it ends there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field
from fractions import Fraction
from typing import Final, Literal, Protocol

from pbem.errors import RuleViolation
from pbem.plain import Plain
from pbem.systems.arnhem1944.tables import ATTACK_TYPES, AttackType, Crt, Result, Tec

MP_COST: Final[dict[AttackType, int]] = {"M": 1, "N": 3, "P": 5}
"""Movement points an attack costs each attacking unit [7.1]."""

BRIDGES: Final = frozenset({"bridge", "rail-bridge"})
"""Crossings that are bridges for [7.3]."""

BRIDGE_SHIFT: Final = -1
"""[7.3]: one column in the defender's favour when every attacker is across a bridge."""

ARMOUR_CAP: Final = 4
"""[7.3]: the armour ratio runs from 1:4 to 4:1."""

OFF_MAP: Final = "off-map"
"""The last entry of a retreat path that leaves the map [7.6]."""

RatingKind = Literal["armour", "antitank"]


# -- attack types [3.4, 7.1, 7.2, 13] ---------------------------------------------------------------


def mp_cost_halves(attack_type: AttackType) -> int:
    """[7.1] in half movement points, as the TEC counts them."""
    return 2 * MP_COST[attack_type]


def overall_type(types: Iterable[AttackType]) -> AttackType:
    """[7.1]: attackers using different attack types make the attack the cheapest of them."""
    chosen = list(types)
    if not chosen:
        raise ValueError("an attack needs at least one attacker [7.2]")
    return min(chosen, key=lambda t: MP_COST[t])


def artillery_allowed(attack_type: AttackType) -> bool:
    """[7.1]: no artillery for either side in a mobile assault; both sides may have it in a normal
    or prepared attack."""
    return attack_type != "M"


def air_allowed(attack_type: AttackType, *, attacker: bool, exception_1ab: bool = False) -> bool:
    """[7.1, 13]: air support only in prepared attacks, for either side; 1st Airborne's two
    missions [13 exception] also in its normal attacks, never in mobile ones."""
    if attack_type == "P":
        return True
    return attacker and exception_1ab and attack_type == "N"


def attack_problems(attack_type: AttackType, mp_left_halves: int,
                    earlier: Sequence[AttackType]) -> list[RuleViolation]:
    """Why a unit may not make this attack now, given the MP it has left (halves) and the attacks
    it already made this turn [3.4, 7.1, 7.2]."""
    out: list[RuleViolation] = []
    if mp_left_halves < mp_cost_halves(attack_type):
        out.append(RuleViolation(
            "7.1", f"a {NAMES[attack_type]} costs {MP_COST[attack_type]} MP; the unit has "
                   f"{Fraction(mp_left_halves, 2)} left"))
    if any(t != "M" for t in earlier):
        out.append(RuleViolation(
            "3.4, 7.2", "a unit that made a normal or prepared attack attacks no more this turn"))
    elif earlier and attack_type != "M":
        out.append(RuleViolation(
            "3.4, 7.2", f"a {NAMES[attack_type]} must be the unit's only attack this turn; it "
                        "already made a mobile assault"))
    return out


def moves_after_combat(attack_type: AttackType) -> bool:
    """[3.4, 7.2]: only a mobile assault lets the unit move (and fight) on afterwards."""
    return attack_type == "M"


TOWNS: Final = frozenset({"town", "city"})
"""Hex kinds that are "a town, village" for [4.3] (Arnhem and Nijmegen are towns too)."""


def attack_compulsory(*, ended_move_in_enemy_zoc: bool, terrain: str,
                      prepared_position: bool = False, by_advance: bool = False) -> bool:
    """[3.4, 4.3, 11.2]: a unit that ends its movement in an enemy zone during its activation
    must attack before the activation ends, unless it is in a town or a prepared position, or
    entered the zone by advancing after combat. A unit that only began next to the enemy need
    not attack (``ended_move_in_enemy_zoc`` is false for it)."""
    if not ended_move_in_enemy_zoc or by_advance:
        return False
    return not (terrain in TOWNS or prepared_position)


NAMES: Final[dict[AttackType, str]] = {"M": "mobile assault", "N": "normal attack",
                                       "P": "prepared attack"}


# -- the combatants -------------------------------------------------------------------------------------


class CombatUnit(Plain, frozen=True):
    """A unit in a combat: its combat factor (an artillery unit attacked uses its DF [8.3]),
    its steps, its armour or antitank rating [1.1] and supply [10.2]."""

    id: str
    cf: int
    steps: int = 1
    rating: int = 0
    rating_kind: RatingKind = "antitank"
    in_supply: bool = True


class Attacker(Plain, frozen=True):
    """An attacking unit, the attack type it pays for, and the features of the hexside between it
    and the defender (``{"river", "bridge", "road"}``)."""

    unit: CombatUnit
    attack_type: AttackType
    across: frozenset[str] = frozenset()


class Attack(Plain, frozen=True):
    """One combat: the attackers, the defending stack and everything that shifts the column."""

    attackers: tuple[Attacker, ...]
    defenders: tuple[CombatUnit, ...]
    terrain: str = "clear"
    prepared_position: bool = False
    attack_support: int = 0
    """Bombardment values added by artillery [8.2] (already halved per [8.4])."""
    defence_support: int = 0
    """Defence factors added by artillery [8.2]."""
    air_attacker: bool = False
    air_defender: bool = False
    exception_1ab: bool = False
    """The attacker uses one of 1st Airborne's two missions [13]."""


class Odds(Plain, frozen=True):
    """How the column was found [7.4], with a line in words per step."""

    attack: int
    defence: int
    base: int
    shift: int
    column: int
    heading: str
    lines: tuple[str, ...] = field(default=())


def _half_up(n: int) -> int:
    return (n + 1) // 2


def combat_problems(attack: Attack, tec: Tec) -> list[RuleViolation]:
    """Why this attack cannot be made as described [7.1, 7.2, 12.1, 13]."""
    out: list[RuleViolation] = []
    if not attack.attackers:
        out.append(RuleViolation("7.2", "an attack needs at least one attacker"))
        return out
    if not attack.defenders:
        out.append(RuleViolation("7.2", "an attack needs a defender"))
    kind = overall_type(a.attack_type for a in attack.attackers)
    for a in attack.attackers:
        crossing = tec.crossing(a.across)
        if crossing is None and any(
                k in tec.data.hexsides and tec.data.hexsides[k].attack_prohibited
                for k in a.across):
            out.append(RuleViolation(
                "12.1", f"{a.unit.id} cannot attack across {', '.join(sorted(a.across))} without a "
                        "bridge or ferry", unit=a.unit.id))
    if attack.attack_support and not artillery_allowed(kind):
        out.append(RuleViolation("7.1", "a mobile assault has no artillery support"))
    if attack.defence_support and not artillery_allowed(kind):
        out.append(RuleViolation(
            "7.1", "against a mobile assault the defender has no artillery support"))
    if attack.air_attacker and not air_allowed(kind, attacker=True,
                                               exception_1ab=attack.exception_1ab):
        out.append(RuleViolation("7.1, 13", f"no air support for a {NAMES[kind]}"))
    if attack.air_defender and not air_allowed(kind, attacker=False):
        out.append(RuleViolation("7.1", f"no defensive air support against a {NAMES[kind]}"))
    return out


def attack_strength(attack: Attack, tec: Tec) -> int:
    """Attackers' combat factors plus artillery support [7.4, 8.2]; a unit attacking across a
    hexside that halves it counts half, rounded up (the TEC's ferry)."""
    total = attack.attack_support
    for a in attack.attackers:
        halves = any(_halves(tec, k) for k in _features(tec, a.across))
        total += _half_up(a.unit.cf) if halves else a.unit.cf
    return total


def defence_strength(attack: Attack) -> int:
    """Defenders' combat factors plus defensive artillery support [7.4, 8.2, 8.3]."""
    return sum(u.cf for u in attack.defenders) + attack.defence_support


def _features(tec: Tec, across: frozenset[str]) -> list[str]:
    """The features of a hexside that count in combat: the crossing alone when there is one."""
    for name in tec.data.crossings:
        if name in across:
            return [name]
    return [k for k in across if k in tec.data.hexsides]


def _halves(tec: Tec, kind: str) -> bool:
    if kind in tec.data.crossings:
        return tec.data.crossings[kind].halves_attacker
    return tec.data.hexsides[kind].halves_attacker


def _side_shift(tec: Tec, kind: str) -> int:
    if kind in tec.data.crossings:
        return tec.data.crossings[kind].combat_shift
    return tec.data.hexsides[kind].combat_shift


def odds_column(attack: int, defence: int, crt: Crt) -> int:
    """The odds column [7.4]: with ``odds_rounding == "attacker"`` (the text) the first column at
    or above the exact ratio, else the last at or below it; clamped to the table."""
    cols = crt.columns
    if defence <= 0:
        return len(cols) - 1
    ratio = Fraction(attack, defence)
    if crt.odds_rounding == "attacker":
        for i, c in enumerate(cols):
            if c >= ratio:
                return i
        return len(cols) - 1
    best = 0
    for i, c in enumerate(cols):
        if c <= ratio:
            best = i
    return best


def armour_shift(attacker: Sequence[CombatUnit], defender: Sequence[CombatUnit]) -> int:
    """Columns from the armour/antitank ratio [7.3]: positive for the attacker."""
    a = sum(u.rating for u in attacker)
    d = sum(u.rating for u in defender)
    if a == d:
        if a == 0:
            return 0
        tanks_a = sum(u.rating for u in attacker if u.rating_kind == "armour")
        tanks_d = sum(u.rating for u in defender if u.rating_kind == "armour")
        return (tanks_a > tanks_d) - (tanks_a < tanks_d)
    big, small, sign = (a, d, 1) if a > d else (d, a, -1)
    if small == 0:
        return sign * ARMOUR_CAP
    whole = min(int(Fraction(big, small) + Fraction(1, 2)), ARMOUR_CAP)
    return sign * whole  # at 1:1 (whole == 1) that is the bonus of the side ahead


def bridge_shift(attack: Attack, tec: Tec) -> int:
    """[7.3]: one column to the defender when every attacker is across a bridge."""
    if attack.attackers and all(a.across & BRIDGES for a in attack.attackers):
        return BRIDGE_SHIFT
    return 0


def hexside_shift(attack: Attack, tec: Tec) -> int:
    """The TEC's shift for attacking across hexsides: only what every attacker shares, i.e. the
    least favourable to the defender among the attackers (0 for one attacking over open ground)."""
    if not attack.attackers:
        return 0
    return max(min((_side_shift(tec, k) for k in _features(tec, a.across)), default=0)
               for a in attack.attackers)


def strength_parts(attack: Attack, tec: Tec) -> str:
    """How each side's strength is made up [7.4, 8.2]: ``a 3 + b 2 (halved across the hexside)
    + artillery 4 against g 3 + defensive fire 2``."""
    att = []
    for a in attack.attackers:
        halves = any(_halves(tec, k) for k in _features(tec, a.across))
        att.append(f"{a.unit.id} {_half_up(a.unit.cf)} (halved across the hexside)" if halves
                   else f"{a.unit.id} {a.unit.cf}")
    if attack.attack_support:
        att.append(f"artillery {attack.attack_support}")
    dfn = [f"{u.id} {u.cf}" for u in attack.defenders]
    if attack.defence_support:
        dfn.append(f"defensive fire {attack.defence_support}")
    return f"{' + '.join(att) or 'nothing'} against {' + '.join(dfn) or 'nothing'}"


def _rounding(att: int, dfn: int, base: int, crt: Crt) -> str:
    """How the ratio became a column, citing [7.4]: said only when it was not exact."""
    if dfn <= 0 or Fraction(att, dfn) == crt.columns[base]:
        return " [7.4]"
    if crt.odds_rounding == "attacker":
        return ", rounded in the attacker's favour as the text's [7.4] reads"
    return ", rounded down as the CRT file's odds_rounding says (the text's [7.4] reads up)"


def odds(attack: Attack, crt: Crt, tec: Tec) -> Odds:
    """The final CRT column of an attack [7.3, 7.4, 10.2, 11.2, 13] and how it was reached."""
    att, dfn = attack_strength(attack, tec), defence_strength(attack)
    base = odds_column(att, dfn, crt)
    lines = [f"{att} against {dfn} ({strength_parts(attack, tec)}): {crt.headings[base]}"
             f"{_rounding(att, dfn, base, crt)}"]
    shift = 0

    def add(n: int, why: str) -> None:
        nonlocal shift
        if n:
            shift += n
            lines.append(f"{n:+d} column{'s' if abs(n) != 1 else ''}: {why}")

    add(armour_shift([a.unit for a in attack.attackers], attack.defenders),
        "armour/antitank ratio [7.3]")
    add(-1 if any(not a.unit.in_supply for a in attack.attackers) else 0,
        "attacker out of supply [7.3, 10.2]")
    add(1 if any(not u.in_supply for u in attack.defenders) else 0,
        "defender out of supply [7.3, 10.2]")
    add(1 if attack.air_attacker else 0, "air support [13]")
    add(-1 if attack.air_defender else 0, "defensive air support [7.1, 13]")
    add(bridge_shift(attack, tec), "every attacker across a bridge [7.3]")
    add(hexside_shift(attack, tec), "attacking across the hexside (TEC) [6.3]")
    add(tec.hex(attack.terrain).combat_shift, f"defender in {attack.terrain} (TEC) [6.3, 7.4]")
    add(tec.data.prepared_position_shift if attack.prepared_position else 0,
        "prepared defensive position [11.2]")
    column = min(max(base + shift, 0), len(crt.columns) - 1)
    if column != base + shift:
        lines.append(f"clamped to the table's {'first' if column == 0 else 'last'} column [7.4]")
    return Odds(att, dfn, base, shift, column, crt.headings[column], tuple(lines))


def result(attack: Attack, die: int, crt: Crt, tec: Tec) -> tuple[Odds, Result]:
    """The CRT result of an attack for a die 1-6 [7.4], on the grid of its overall type [7.1]."""
    found = odds(attack, crt, tec)
    kind = overall_type(a.attack_type for a in attack.attackers)
    return found, crt.lookup(kind, found.column, die)


# -- the result's split [7.5] ------------------------------------------------------------------------


class Split(Plain, frozen=True):
    """A side's choice [7.5]: so many step losses, so many hexes of retreat."""

    steps: int
    hexes: int


def minimum_losses(res: Result, attack_type: AttackType, crt: Crt, *, attacker: bool) -> int:
    """Step losses a side must take before any retreat [7.5]: red one, green two (defender), and
    for the attacker the attack table's minimum for the attack type (capped by its result)."""
    if attacker:
        return max(res.attacker_min, min(res.attacker, crt.attack_table[attack_type]
                                          .attacker_min_losses))
    return res.defender_min


def split_problems(number: int, minimum: int, steps_available: int,
                   split: Split) -> list[RuleViolation]:
    """Why ``split`` does not divide a result ``number`` [7.5]: steps and hexes add up to it
    (hexes none once the stack is gone), and at least ``minimum`` steps come first."""
    out: list[RuleViolation] = []
    if split.steps < 0 or split.hexes < 0:
        return [RuleViolation(
            "7.5", f"step losses and hexes cannot be negative ({split.steps}, {split.hexes})")]
    if split.steps > steps_available:
        out.append(RuleViolation(
            "7.5", f"{split.steps} step losses from a stack of {steps_available} steps"))
    if split.steps == steps_available:  # the stack is gone: nothing left to retreat
        if steps_available > number:
            out.append(RuleViolation(
                "7.5", f"{split.steps} step losses exceed the result {number}"))
        if split.hexes:
            out.append(RuleViolation("7.5", "an eliminated stack does not retreat"))
        return out
    if split.steps + split.hexes != number:
        out.append(RuleViolation(
            "7.5", f"{split.steps} step losses and {split.hexes} hexes do not make the result "
                   f"{number}"))
    if split.steps < minimum:
        colour = "green" if minimum >= 2 else "red"
        out.append(RuleViolation(
            "7.5", f"this {colour} result needs at least {minimum} step loss"
                   f"{'es' if minimum != 1 else ''} before any retreat"))
    return out


def splits(number: int, minimum: int, steps_available: int) -> list[Split]:
    """Every legal split of a result [7.5], fewest step losses first."""
    if steps_available <= 0:
        return [Split(0, 0)]
    out = []
    for steps in range(min(minimum, number), number + 1):
        if steps >= steps_available:
            out.append(Split(steps_available, 0))
            break
        out.append(Split(steps, number - steps))
    return out


def first_loss_candidates(own: Sequence[CombatUnit],
                          other: Sequence[CombatUnit]) -> frozenset[str] | None:
    """[7.5]: when both sides have armour or antitank units, a side's first step loss comes from
    one of its units with such a rating; ``None``: any unit may take it."""
    mine = frozenset(u.id for u in own if u.rating > 0 and u.steps > 0)
    if mine and any(u.rating > 0 for u in other):
        return mine
    return None


def loss_order_problems(own: Sequence[CombatUnit], other: Sequence[CombatUnit],
                        losses: Sequence[str]) -> list[RuleViolation]:
    """Why this order of step losses (unit ids, one per step) breaks [7.5]."""
    out: list[RuleViolation] = []
    steps = {u.id: u.steps for u in own}
    for uid in losses:
        if uid not in steps:
            out.append(RuleViolation("7.5", f"{uid} is not in this combat", unit=uid))
            continue
        steps[uid] -= 1
        if steps[uid] < 0:
            out.append(RuleViolation("7.5", f"{uid} has no step left to lose", unit=uid))
    allowed = first_loss_candidates(own, other)
    if losses and allowed is not None and losses[0] not in allowed:
        out.append(RuleViolation(
            "7.5", f"the first loss must come from an armour or antitank unit "
                   f"({', '.join(sorted(allowed))}), not {losses[0]}"))
    return out


# -- the map, zones of control, retreat and advance [4.2, 4.3, 7.6] -------------------------------------


class HexMap(Protocol):
    """What combat needs to know of the map."""

    def neighbours(self, hex_id: str) -> Sequence[str]:
        """The hexes on the map adjacent to ``hex_id``."""
        ...

    def distance(self, a: str, b: str) -> int:
        """Hexes from ``a`` to ``b`` (``b`` counted, ``a`` not)."""
        ...

    def kind(self, hex_id: str) -> str:
        """The TEC hex kind (``"clear"``, ``"woods"``, ...)."""
        ...

    def side(self, a: str, b: str) -> frozenset[str]:
        """The features of the hexside between adjacent ``a`` and ``b`` (``{"river", "bridge"}``)."""
        ...

    def at_edge(self, hex_id: str) -> bool:
        """Does ``hex_id`` border the edge of the map?"""
        ...


def zone(hexmap: HexMap, tec: Tec, occupied: Iterable[str]) -> frozenset[str]:
    """The hexes in the zone of control of units in ``occupied`` [4.2]: every adjacent hex, but
    not across a river or canal (the TEC's ``blocks_zoc``)."""
    out: set[str] = set()
    for h in occupied:
        for n in hexmap.neighbours(h):
            if not tec.blocks_zoc(hexmap.side(h, n)):
                out.add(n)
    return frozenset(out)


class Surroundings(Plain, frozen=True):
    """Where the enemy is, for a retreat or an advance: its units' hexes and zone of control, and
    the hexes of the moving side's friends (which negate that zone for a retreat [4.2])."""

    enemy: frozenset[str]
    enemy_zoc: frozenset[str]
    friends: frozenset[str] = frozenset()

    def zoc_here(self, hex_id: str) -> bool:
        """An unnegated enemy zone for a retreat [4.2, 7.6]."""
        return hex_id in self.enemy_zoc and hex_id not in self.friends


def _key(hexmap: HexMap, tec: Tec, s: Surroundings, here: str,
         there: str) -> tuple[bool, int, int]:
    cost = tec.entry_halves(hexmap.kind(there), hexmap.side(here, there))
    far = min((hexmap.distance(there, e) for e in s.enemy), default=0)
    return (s.zoc_here(there), cost if cost is not None else 1 << 30, -far)


def retreat_choices(hexmap: HexMap, tec: Tec, s: Surroundings, path: Sequence[str]) -> list[str]:
    """The hexes the next step of a retreat may enter [7.6]: ``path`` is the defending hex then
    the hexes entered so far. Only the best by the priorities (no enemy zone, cheapest terrain,
    furthest from the enemy) are offered; ``[OFF_MAP]`` from an edge hex when nothing on the map is
    open; ``[]`` when the retreat is blocked."""
    here = path[-1]
    open_: list[str] = []
    for n in hexmap.neighbours(here):
        if n in path or n in s.enemy:
            continue
        if tec.entry_halves(hexmap.kind(n), hexmap.side(here, n)) is None:
            continue
        open_.append(n)
    if not open_:
        return [OFF_MAP] if hexmap.at_edge(here) else []
    keys = {n: _key(hexmap, tec, s, here, n) for n in open_}
    best = min(keys.values())
    return sorted(n for n in open_ if keys[n] == best)


def pick_retreat(hexmap: HexMap, choices: Sequence[str], towards: str | None = None) -> str:
    """The hex a retreat enters among ``choices`` (those the priorities of [7.6] leave equal,
    see :func:`retreat_choices`): the one nearest to ``towards`` (the retreating player's
    standing order, or the attacker's own order) and among those, or with no order, the first by
    number (the documented default)."""
    if towards is None or choices == [OFF_MAP]:
        return min(choices)
    return min(choices, key=lambda h: (hexmap.distance(h, towards) if h != OFF_MAP else 1 << 30,
                                       h))


class Retreat(Plain, frozen=True):
    """A retreat as carried out [4.3, 7.6]."""

    path: tuple[str, ...]
    """Hexes entered, in order (``OFF_MAP`` last if it left the map)."""
    zoc_losses: int
    """One step per enemy zone entered [4.3]."""
    blocked_losses: int
    """Hexes that could not be retreated, taken as steps (reading; the text is silent)."""

    @property
    def eliminated(self) -> bool:
        """Off the map [7.6]."""
        return bool(self.path) and self.path[-1] == OFF_MAP

    @property
    def losses(self) -> int:
        return self.zoc_losses + self.blocked_losses


def retreat_problems(hexmap: HexMap, tec: Tec, s: Surroundings, start: str, hexes: int,
                     path: Sequence[str]) -> list[RuleViolation]:
    """Why ``path`` (hexes entered after ``start``) is not a legal retreat of ``hexes`` [7.6]."""
    out: list[RuleViolation] = []
    walked = [start]
    for i, h in enumerate(path):
        if i >= hexes:
            out.append(RuleViolation(
                "7.6", f"the retreat runs {len(path)} hexes; the result allows {hexes}"))
            break
        choices = retreat_choices(hexmap, tec, s, walked)
        if h not in choices:
            why = ("it is blocked: the rest is taken as step losses" if not choices
                   else "the priorities allow only " + ", ".join(choices))
            out.append(RuleViolation("7.6", f"retreat hex {i + 1} may not be {h}: {why}", hex=h))
            break
        walked.append(h)
        if h == OFF_MAP:
            break
    else:
        if len(path) < hexes and (not path or path[-1] != OFF_MAP):
            left = retreat_choices(hexmap, tec, s, walked)
            if left:
                out.append(RuleViolation(
                    "7.6", f"the retreat stops after {len(path)} of {hexes} hexes; it may go on "
                           f"to {', '.join(left)}"))
    return out


def retreat_outcome(s: Surroundings, hexes: int, path: Sequence[str]) -> Retreat:
    """Losses of a legal retreat (see :func:`retreat_problems`) [4.3, 7.6]."""
    entered = [h for h in path if h != OFF_MAP]
    zoc = sum(1 for h in entered if s.zoc_here(h))
    blocked = 0 if (path and path[-1] == OFF_MAP) else hexes - len(path)
    return Retreat(tuple(path), zoc, max(blocked, 0))


def advance_problems(crt: Crt, attack_type: AttackType, s: Surroundings, vacated: Sequence[str],
                     advance: Sequence[str], *, took_retreat: bool) -> list[RuleViolation]:
    """Why an advance after combat breaks [7.6]. ``vacated``: the defender's hex then its retreat
    path (only the defender's hex if it was eliminated in place); ``advance``: the hexes the
    attacker enters in order; ``s``: the enemy after the retreat."""
    out: list[RuleViolation] = []
    if not advance:
        return out
    if took_retreat:
        out.append(RuleViolation(
            "7.6", "a unit that took any of its result as retreat may not advance"))
    trail = [h for h in vacated if h != OFF_MAP]
    limit = crt.attack_table[attack_type].advance
    if limit is not None and len(advance) > limit:
        out.append(RuleViolation(
            "7.6", f"after a {NAMES[attack_type]} the advance is at most {limit} "
                   f"hex{'es' if limit != 1 else ''}"))
    if list(advance) != trail[:len(advance)]:
        out.append(RuleViolation(
            "7.6", "an advance follows the vacated hex and then the retreat path: "
                   + (" - ".join(trail) if trail else "nothing was vacated")))
    for i, h in enumerate(advance[:-1]):
        if i >= 1 and h in s.enemy_zoc:
            out.append(RuleViolation(
                "7.6", f"the advance stops on entering the enemy zone at {h}", hex=h))
            break
    return out


# -- optional morale [7.5 optional] ----------------------------------------------------------------------

MoraleClass = Literal["elite", "artillery-tettau", "other"]

MORALE: Final[dict[MoraleClass, int]] = {"elite": 8, "artillery-tettau": 6, "other": 7}
"""[7.5 optional]: SS Panzer and paratroop units 8; artillery and KG von Tettau (its SS excepted)
6; all others (EMs included) 7. A test passes when two dice total *less* than this."""


def stack_morale(classes: Iterable[MoraleClass]) -> int:
    """A stack tests with its best morale [7.5 optional]."""
    return max((MORALE[c] for c in classes), default=MORALE["other"])


def morale_split(number: int, minimum: int, morale: int,
                 rolls: Sequence[tuple[int, int]]) -> Split:
    """[7.5 optional] The compulsory steps come first; each further point of the result is a hex
    of retreat unless the side tests (two dice per hex, in ``rolls``, one pair per point tested)
    and scores less than its morale, which turns that hex into a step loss and lets it hold.
    Reading: the side tests the remaining points one at a time and may stop testing (fewer
    rolls); the first failed test ends the testing (the stack retreats, so it no longer holds)
    and every point not converted is a hex of retreat."""
    steps = min(minimum, number)
    left = number - steps
    if len(rolls) > left:
        raise ValueError(f"{len(rolls)} morale tests for {left} hexes of retreat [7.5 optional]")
    passed = 0
    for i, (a, b) in enumerate(rolls):
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise ValueError(f"dice show 1 to 6, not {a} and {b} [7.5 optional]")
        if a + b >= morale:
            if i != len(rolls) - 1:
                raise ValueError("no further morale test after a failed one [7.5 optional]")
            break
        passed += 1
    return Split(steps + passed, left - passed)


__all__ = [
    "ATTACK_TYPES", "MP_COST", "OFF_MAP", "TOWNS", "Attack", "Attacker", "attack_compulsory", "CombatUnit", "HexMap", "Odds",
    "Retreat", "Split", "Surroundings", "advance_problems", "air_allowed", "armour_shift",
    "artillery_allowed", "attack_problems", "attack_strength", "bridge_shift", "combat_problems",
    "defence_strength", "first_loss_candidates", "hexside_shift", "loss_order_problems",
    "minimum_losses", "morale_split", "moves_after_combat", "odds", "odds_column", "overall_type",
    "pick_retreat", "result", "retreat_choices", "retreat_outcome", "retreat_problems",
    "split_problems",
    "splits", "stack_morale", "zone",
]
