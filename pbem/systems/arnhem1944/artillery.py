"""Artillery in Vae Victis *Arnhem 1944* [1.4, 3.2, 7.1, 8, errata]: range, bombardment, attack
and defensive fire support, artillery attacked, and divisional integrity. Pure functions; the map
is :class:`~pbem.systems.arnhem1944.combat.HexMap`, the die an argument.

Readings of the text (an English translation, OCR'd):

* [8] range counts the target hex and not the artillery's own: the plain hex distance, so a
  range of 3 reaches a hex three hexes away;
* [8] each rating once a turn: the BV when the unit is activated (a bombardment or one attack
  support), the DF only while it is not yet activated; having given its DF it may still be
  activated later for its BV;
* [8.1] the minimum ratio compares the exact BV:CF ratio with the CRT's ``bombardment.min_ratio``
  (not the rounded odds); a bombardment is read on the CRT like an attack (the odds rounded as
  [7.4] says, the defender's terrain, prepared position and supply) with no armour shift and no
  result for the artillery; "one unit of the same formation" adjacent to the target is read, for
  each bombarding unit, as a unit it could support under [8.4];
* [8.2] attack support needs at least one attacking unit the artillery may support [8.4] (the
  text names no stricter test for mixed attacks); artillery adjacent to the defender shares the
  attack's results, artillery at range never does;
* [8.4] "half the BV (round up)": each artillery unit's BV is halved and rounded up on its own,
  whenever the target hex is a prepared position or "wood or built up" on the TEC; DFs are never
  halved;
* [8.4] integrity: artillery of a division supports that division; artillery without a division
  (corps artillery) supports its corps; the OOB marks XXX Corps artillery as also supporting
  parachute units and KG von Swoboda's as supporting every unit of its side;
* [3.2] support also needs the artillery to be in command (a flag here, worked out by the
  command rules [9]);
* errata: an artillery unit defends with an armour rating of 1 and its DF as its combat
  factor [8.3] (the Werfer-Abt SS 102's DF is 1 when attacked or bombarded).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from fractions import Fraction
from typing import Final

from pbem.errors import RuleViolation
from pbem.plain import Plain
from pbem.systems.arnhem1944.combat import CombatUnit, HexMap, odds_column
from pbem.systems.arnhem1944.tables import AttackType, Crt, Result, Tec

ARTILLERY_RATING: Final = 1
"""Errata: artillery units have an armour value of 1."""


class Affiliation(Plain, frozen=True):
    """Whom a unit belongs to, for [8.1] and [8.4]."""

    side: str
    corps: str | None = None
    division: str | None = None
    """``None``: corps troops."""
    parachute: bool = False


class Artillery(Plain, frozen=True):
    """An artillery unit as combat sees it [1.4]."""

    id: str
    hex: str
    bv: int
    df: int
    range: int
    affiliation: Affiliation
    supports_parachute: bool = False
    """XXX Corps artillery [8.4]."""
    supports_side: bool = False
    """KG (Falk) von Swoboda [8.4]."""
    df_when_attacked: int | None = None
    """Werfer-Abt SS 102 [8.3]."""
    activated: bool = False
    bv_used: bool = False
    df_used: bool = False
    in_command: bool = True
    in_enemy_zoc: bool = False


def in_range(hexmap: HexMap, art: Artillery, target: str) -> bool:
    """[8]: the target hex counted, the artillery's hex not."""
    return hexmap.distance(art.hex, target) <= art.range


def exposed(hexmap: HexMap, art: Artillery, target: str) -> bool:
    """[8.2]: artillery firing from next to the target shares the combat's results."""
    return hexmap.distance(art.hex, target) <= 1


def may_support(art: Artillery, unit: Affiliation) -> bool:
    """Divisional integrity [8.4]."""
    mine = art.affiliation
    if unit.side != mine.side:
        return False
    if art.supports_side:
        return True
    if art.supports_parachute and unit.parachute:
        return True
    if mine.division is not None:
        return unit.division == mine.division
    return mine.corps is not None and unit.corps == mine.corps


def protected(tec: Tec, terrain: str, prepared_position: bool) -> bool:
    """[8.4]: a prepared position, or wood or built-up terrain, halves bombardment values."""
    return prepared_position or tec.wood_or_built_up(terrain)


def bombardment_value(art: Artillery, halved: bool) -> int:
    """[8.4]: the BV, halved and rounded up against a protected hex."""
    return (art.bv + 1) // 2 if halved else art.bv


def defence_factor(art: Artillery) -> int:
    """[8.3]: the DF is the artillery's combat factor when it is attacked or bombarded."""
    return art.df if art.df_when_attacked is None else art.df_when_attacked


def as_defender(art: Artillery, *, in_supply: bool = True) -> CombatUnit:
    """An artillery unit attacked [8.3, errata]: its DF, one step [1.4], armour rating 1."""
    return CombatUnit(art.id, defence_factor(art), 1, ARTILLERY_RATING, "armour", in_supply)


def _common(art: Artillery, hexmap: HexMap, target: str) -> list[RuleViolation]:
    out: list[RuleViolation] = []
    if not in_range(hexmap, art, target):
        out.append(RuleViolation(
            "8", f"{art.id} is {hexmap.distance(art.hex, target)} hexes from {target}; its "
                 f"range is {art.range}", unit=art.id))
    if not art.in_command:
        out.append(RuleViolation(
            "3.2", f"{art.id} is out of command and gives no support", unit=art.id))
    return out


def attack_support_problems(art: Artillery, hexmap: HexMap, target: str,
                            attack_type: AttackType,
                            attackers: Sequence[Affiliation]) -> list[RuleViolation]:
    """Why ``art`` may not add its BV to an attack on ``target`` [7.1, 8, 8.2, 8.4]."""
    out: list[RuleViolation] = []
    if attack_type == "M":
        out.append(RuleViolation("7.1", "a mobile assault has no artillery support"))
    if not art.activated:
        out.append(RuleViolation(
            "8.2", f"{art.id} must be activated to support an attack", unit=art.id))
    if art.bv_used:
        out.append(RuleViolation("8", f"{art.id} has used its BV this turn", unit=art.id))
    out += _common(art, hexmap, target)
    if not any(may_support(art, a) for a in attackers):
        out.append(RuleViolation(
            "8.4", f"{art.id} may not support these units (divisional integrity)", unit=art.id))
    return out


def defence_support_problems(art: Artillery, hexmap: HexMap, target: str,
                             attack_type: AttackType | None,
                             defenders: Sequence[Affiliation]) -> list[RuleViolation]:
    """Why ``art`` may not add its DF to the defence of ``target`` [7.1, 8, 8.2, 8.4];
    ``attack_type`` ``None``: a bombardment (no fire support against it [8.2])."""
    out: list[RuleViolation] = []
    if attack_type is None:
        out.append(RuleViolation("8.2", "no fire support for units being bombarded"))
    elif attack_type == "M":
        out.append(RuleViolation(
            "7.1", "against a mobile assault the defender has no artillery support"))
    if art.activated:
        out.append(RuleViolation(
            "8, 8.2", f"{art.id} has been activated this turn; only artillery not yet activated "
                      "gives defensive support", unit=art.id))
    if art.df_used:
        out.append(RuleViolation("8", f"{art.id} has used its DF this turn", unit=art.id))
    if art.in_enemy_zoc:
        out.append(RuleViolation(
            "8.2, 8.4", f"{art.id} is in an enemy zone of control", unit=art.id))
    out += _common(art, hexmap, target)
    if not any(may_support(art, d) for d in defenders):
        out.append(RuleViolation(
            "8.4", f"{art.id} may not support these units (divisional integrity)", unit=art.id))
    return out


def attack_support(arts: Sequence[Artillery], halved: bool) -> int:
    """Sum of the BVs added to an attack [8.2], each halved per [8.4]."""
    return sum(bombardment_value(a, halved) for a in arts)


def defence_support(arts: Sequence[Artillery]) -> int:
    """Sum of the DFs added to a defence [8.2] (never halved [8.4])."""
    return sum(a.df for a in arts)


# -- bombardment [8.1] -------------------------------------------------------------------------------


def bombardment_problems(arts: Sequence[Artillery], hexmap: HexMap, crt: Crt, target: str,
                         target_cf: int, halved: bool,
                         friends: Sequence[tuple[str, Affiliation]]) -> list[RuleViolation]:
    """Why ``arts`` may not bombard ``target`` [8, 8.1, 8.4]. ``friends``: the hexes and
    affiliations of the bombarding side's other (non-artillery) units."""
    out: list[RuleViolation] = []
    if not arts:
        return [RuleViolation("8.1", "a bombardment needs at least one artillery unit")]
    for art in arts:
        if not art.activated:
            out.append(RuleViolation("8.1", f"{art.id} must be activated to bombard", unit=art.id))
        if art.bv_used:
            out.append(RuleViolation("8", f"{art.id} has used its BV this turn", unit=art.id))
        out += _common(art, hexmap, target)
        if not any(hexmap.distance(h, target) == 1 and may_support(art, aff)
                   for h, aff in friends):
            out.append(RuleViolation(
                "8.1, 8.4", f"{art.id}: no unit of its formation is adjacent to {target}",
                unit=art.id))
    bv = attack_support(arts, halved)
    if target_cf > 0 and Fraction(bv, target_cf) < crt.bombard_min:
        low = crt.bombard_min
        out.append(RuleViolation(
            "8.1", f"a bombardment of {bv} against {target_cf} is below the minimum "
                   f"{low.numerator}:{low.denominator}"))
    return out


class Bombardment(Plain, frozen=True):
    """A bombardment's reading of the CRT [8.1]: the defender's part of the result only."""

    bv: int
    cf: int
    column: int
    heading: str
    result: Result
    lines: tuple[str, ...] = field(default=())


def bombard(arts: Sequence[Artillery], target_units: Sequence[CombatUnit], terrain: str,
            prepared_position: bool, die: int, crt: Crt, tec: Tec) -> Bombardment:
    """Resolve a legal bombardment (see :func:`bombardment_problems`) [8.1, 8.4, 10.2]."""
    halved = protected(tec, terrain, prepared_position)
    bv = attack_support(arts, halved)
    cf = sum(u.cf for u in target_units)
    base = odds_column(bv, cf, crt)
    lines = [f"BV {bv}{' (halved, [8.4])' if halved else ''} against CF {cf}: "
             f"{crt.headings[base]} [7.4, 8.1]"]
    shift = tec.hex(terrain).combat_shift
    if shift:
        lines.append(f"{shift:+d}: target in {terrain} (TEC) [6.3]")
    if prepared_position:
        shift += tec.data.prepared_position_shift
        lines.append(f"{tec.data.prepared_position_shift:+d}: prepared position [11.2]")
    if any(not u.in_supply for u in target_units):
        shift += 1
        lines.append("+1: target out of supply [10.2]")
    column = min(max(base + shift, 0), len(crt.columns) - 1)
    cell = crt.lookup(crt.bombard_table, column, die)
    return Bombardment(bv, cf, column, crt.headings[column],
                       Result(0, cell.defender, 0, cell.defender_min), tuple(lines))
