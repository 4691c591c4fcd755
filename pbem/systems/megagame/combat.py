"""Combat of J. Wallman's Operation Market Garden megagame: scores, factors, artillery, air support
and the results table (seed 004, "Combat Procedure", "Supporting Artillery", "Air-Ground Attacks",
the results table and its notes). Pure functions: the umpire's judgement comes in as data (a
signed ruling in play), the die as an argument; nothing here rolls, reads a file or knows a map.

The procedure: each side's score is the status of its units (supporting artillery included) plus
its factors; the result is the attacker's score less the defender's, plus one die, looked up in
the table. Every number has a line in words beside it (``Score.lines``), for the umpire's master
record; what a team hears is the report in words (ELETIS), never these numbers.

Readings (the text is an OCR scan):

* the bands of the table are 12 and more (Total Success), 8-11 (Success), 5-7 (Limited Success),
  -1 to 4 (Confused Combat; printed "4 to -1") and less than -1 (Attackers Badly Beaten);
* "holding a vital spot" or ordered to stand fast, a defender may take one more step loss and ignore
  the retreat (note 2); the worked example puts that extra loss on the unit holding;
* units in a marked city area retreat only on a Total Success (note 3);
* the light-infantry factor applies to attackers only ("if light infantry attacking"); the
  combined-arms factor to prepared attacks and (rules version 2) to defences (note 2: "attack or
  defence"); rules version 3 reads note 2's last sentence, "This can only be applied to prepared
  attacks", as leaving defences out;
* artillery that moved this turn (rules version 3) counts its status times the share of the turn
  it did not spend moving (:attr:`Artillery.ready`) ["Supporting Artillery"];
* a support unit (profile in square brackets) counts "only ... in conjunction with another unit of
  at least equal status" [9 Unit Status]: rules version 3 counts it only beside a unit of its side
  that is not itself support-only and whose status is at least its own (reading: two support units
  alone have nothing to support); version 2 counted it always;
* the "other formation" factor's line is lost; note 6 defines the units it counts (not of the
  division leading the fight: the worked example mixes brigades of one division and takes
  nothing off): read as -1 a unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from fractions import Fraction
from typing import Literal

from pbem.plain import Plain

Kind = Literal["infantry", "armour", "artillery", "antitank", "recce", "hq", "other"]
AirLevel = Literal["none", "ordinary", "superior", "overwhelming", "apocalyptic"]

AIR_FACTOR: dict[str, int] = {"none": 0, "ordinary": 4, "superior": 6, "overwhelming": 8,
                              "apocalyptic": 10}
"""Air support factor by level ("+4 for ordinary air support" ... "+10 for apocalyptic")."""

# Squadrons needed for each level: (ordinary, superior, overwhelming, apocalyptic) lower bounds;
# None where the type cannot reach that level.
AIR_SQUADRONS: dict[str, tuple[int | None, int | None, int | None, int | None]] = {
    "german-ground-attack": (1, 3, 6, 10),
    "allied-ground-attack": (1, 2, 4, 8),
    "heavy-bomber": (None, None, 1, 3),
}

ARTILLERY_RANGE_KM: dict[str, tuple[int, int | None]] = {
    "field": (8, 12),
    "medium": (12, 20),
    "rocket": (6, None),
    "infantry-gun": (6, None),
}
"""Effective and long range in km; at long range an artillery unit counts half its status."""


class Profile(Plain, frozen=True):
    """A status profile (the "Patel profiling system"): status levels from undamaged to no longer
    effective, e.g. ``5-3-2-1-0``; a step loss moves one place along it."""

    levels: tuple[int, ...]
    steps_lost: int = 0
    support_only: bool = False
    """Printed in square brackets: counts only beside a unit of at least equal status."""

    @property
    def status(self) -> int:
        return self.levels[min(self.steps_lost, len(self.levels) - 1)]

    def lose(self, steps: int) -> Profile:
        return Profile(self.levels, min(self.steps_lost + steps, len(self.levels) - 1),
                       self.support_only)

    @classmethod
    def parse(cls, text: str) -> Profile:
        """``"5-3-2-1-0"``, ``"[2-1-0]"`` (support only)."""
        t = text.strip()
        support = t.startswith("[") and t.endswith("]")
        t = t.strip("[]()")
        return cls(tuple(int(x) for x in t.split("-")), 0, support)


class CombatUnit(Plain, frozen=True):
    id: str
    profile: Profile
    kind: Kind = "infantry"
    light: bool = False
    """Light infantry (note 3): British and US paratroops, US glider troops, transport and HQ units,
    ad-hoc units, units fighting out of role."""
    mechanised: bool = False
    fuel: bool = True
    non_tactical: bool = False
    """Moving non-tactically when the combat happens."""


class Artillery(Plain, frozen=True):
    id: str
    profile: Profile
    type: Literal["field", "medium", "rocket", "infantry-gun"]
    distance_km: float
    ready: Fraction = Fraction(1)
    """The share of its effect left to a battery that moved this turn [9 Supporting Artillery]:
    "reduced in proportion to how much of the turn they spend moving" (rules version 3: one less
    the share of its move it used; 1 for a battery that did not move)."""


class CombatSide(Plain, frozen=True):
    units: tuple[CombatUnit, ...]
    artillery: tuple[Artillery, ...] = ()
    air: AirLevel = "none"
    prepared: bool = True
    """Attacker: spent the previous turn with Prepare orders (else -2 a unit); defender: its
    position (combined arms counts only if prepared)."""
    close_country: bool = False
    """Fighting in a built-up area or woods (note 4)."""
    advantage: int = 0
    """Clear tactical advantages the umpire rules (each +1 a unit): a signed ruling in play."""
    other_formation: int = 0
    """Units not of the division leading the fight (note 6): -1 each. The factor's own line is
    lost in the scan; note 6 defines it and the text's warning that units of another command
    make co-ordination harder gives its sense -- read as -1 a unit, like the other per-unit
    penalties (reconstructed)."""


class Score(Plain):
    value: int
    lines: list[str] = field(default_factory=list)


def air_level(kind: str, squadrons: int) -> AirLevel:
    """The air support level ``squadrons`` of ``kind`` give (the "Squadrons needed" table)."""
    bounds = AIR_SQUADRONS[kind]
    level: AirLevel = "none"
    for name, low in zip(("ordinary", "superior", "overwhelming", "apocalyptic"), bounds,
                         strict=True):
        if low is not None and squadrons >= low:
            level = name  # type: ignore[assignment]
    return level


def artillery_status(a: Artillery) -> Fraction:
    """The status an artillery unit adds: full within effective range, half at long range, none
    beyond ("Supporting Artillery")."""
    effective, long = ARTILLERY_RANGE_KM[a.type]
    if a.distance_km <= effective:
        return a.profile.status * a.ready
    if long is not None and a.distance_km <= long:
        return Fraction(a.profile.status, 2) * a.ready
    return Fraction(0)


def _tanks(side: CombatSide) -> bool:
    return any(u.kind == "armour" and u.profile.status > 0 for u in side.units)


def supported(units: Sequence[CombatUnit]) -> list[CombatUnit]:
    """The support-only units of ``units`` whose status counts [9 Unit Status]: "only ... in
    conjunction with another unit of at least equal status" -- a unit of the side that is not
    support-only itself (the reading of the module docstring), status at least the support unit's."""
    main = [u.profile.status for u in units if not u.profile.support_only]
    return [u for u in units if u.profile.support_only and any(m >= u.profile.status for m in main)]


def score(side: CombatSide, other: CombatSide, *, attacking: bool, support_rule: bool = True,
          arms_in_attack_only: bool = False) -> Score:
    """One side's score: status of its units and supporting artillery, plus every factor that
    applies (apply to attacker and defender alike where the text does). ``support_rule`` (rules
    version 3): a support-only unit counts only beside a unit of at least equal status
    (:func:`supported`). ``arms_in_attack_only`` (rules version 3): combined arms only for a
    prepared attack, never a defence -- note 2, "This can only be applied to prepared attacks".

    Kept whole (radon ranks it F): one condition per combat factor of [9], in the text's order, so
    that it can be read against the factor table line by line."""
    out = Score(0)
    n = len(side.units)
    alone = [u for u in side.units if u.profile.support_only and u.profile.status
             and u not in supported(side.units)] if support_rule else []
    status = sum(u.profile.status for u in side.units if u not in alone)
    art = sum((artillery_status(a) for a in side.artillery), Fraction(0))
    total = Fraction(status) + art
    out.lines.append(f"status {status}" + (f" + artillery {art}" if side.artillery else ""))
    for a in side.artillery:
        if a.ready != 1:
            out.lines.append(f"{a.id}: moved this turn, {a.ready} of its effect [9 Supporting Artillery]")
    for u in alone:
        out.lines.append(f"{u.id}: a support unit with no unit of at least its status beside it counts "
                         "nothing")
    value = total
    if side.advantage:
        value += side.advantage * n
        out.lines.append(f"+{side.advantage * n}: clear tactical advantage ({n} unit"
                         f"{'s' if n != 1 else ''})")
    inf = sum(u.profile.status for u in side.units if u.kind == "infantry")
    tank = sum(u.profile.status for u in side.units if u.kind == "armour")
    if side.prepared and side.artillery and inf and tank and 3 * tank >= inf and 3 * inf >= tank \
            and (attacking or not arms_in_attack_only):
        value += n
        out.lines.append(f"+{n}: combined arms")
    if attacking:
        light = sum(1 for u in side.units if u.light)
        if light:
            value -= light
            out.lines.append(f"-{light}: light infantry attacking")
        if not side.prepared:
            value -= 2 * n
            out.lines.append(f"-{2 * n}: unprepared attack")
    if side.close_country and _tanks(other) and not attacking:
        value += n
        out.lines.append(f"+{n}: close country against tanks")
    if not side.close_country and _tanks(other) and not side.artillery:
        bare = [u for u in side.units if u.kind == "infantry"]
        if bare and not any(u.kind in ("armour", "antitank") for u in side.units):
            value -= len(bare)
            out.lines.append(f"-{len(bare)}: unsupported infantry in the open against tanks")
    dry = sum(1 for u in side.units if u.mechanised and not u.fuel)
    if dry:
        value -= dry
        out.lines.append(f"-{dry}: mechanised without fuel")
    moving = sum(2 for u in side.units if u.non_tactical)
    if moving:
        value -= moving
        out.lines.append(f"-{moving}: moving non-tactically")
    if side.other_formation:
        value -= side.other_formation
        out.lines.append(f"-{side.other_formation}: units from another formation")
    if side.air != "none":
        value += AIR_FACTOR[side.air]
        out.lines.append(f"+{AIR_FACTOR[side.air]}: {side.air} air support")
    out.value = int(value)  # half statuses round down
    return out


Band = Literal["total success", "success", "limited success", "confused combat",
               "attackers badly beaten"]


def band(result: int) -> Band:
    """The row of the results table for ``result`` (attacker - defender + die)."""
    if result >= 12:
        return "total success"
    if result >= 8:
        return "success"
    if result >= 5:
        return "limited success"
    if result >= -1:
        return "confused combat"
    return "attackers badly beaten"


class Outcome(Plain):
    attacker_score: Score
    defender_score: Score
    die: int
    result: int
    band: Band
    losses: dict[str, int]
    """Unit id -> step losses."""
    retreat: str
    """What the defender does: ``"holds"``, ``"retires ..."``, or the attackers are thrown back."""
    profiles: dict[str, Profile]
    """Every unit's profile after the losses."""


def resolve(attacker: CombatSide, defender: CombatSide, die: int, *, hold: Sequence[str] = (),
            city: bool = False, support_rule: bool = True, arms_in_attack_only: bool = False) -> Outcome:
    """The combat with ``die`` (1-6). ``hold``: defending units ordered to stand fast or holding a
    vital spot, which take one more step loss to ignore a retreat (note 2); ``city``: the
    defenders are in a marked city area and retreat only on a Total Success (note 3);
    ``support_rule``, ``arms_in_attack_only``: :func:`score`'s (rules version 3).
    Supporting artillery takes no losses."""
    if not 1 <= die <= 6:
        raise ValueError(f"a d6 face must be 1..6, not {die}")
    a = score(attacker, defender, attacking=True, support_rule=support_rule, arms_in_attack_only=arms_in_attack_only)
    d = score(defender, attacker, attacking=False, support_rule=support_rule, arms_in_attack_only=arms_in_attack_only)
    result = a.value - d.value + die
    row = band(result)
    losses: dict[str, int] = {}
    att_loss = {"total success": 1, "success": 1, "limited success": 1, "confused combat": 1,
                "attackers badly beaten": 1}[row]
    def_loss = {"total success": 2, "success": 1, "limited success": 1, "confused combat": 1,
                "attackers badly beaten": 0}[row]
    for u in attacker.units:
        losses[u.id] = att_loss
    for u in defender.units:
        losses[u.id] = def_loss
    retire = {"total success": "retires at least 2d6 km in the open, half in woods or close country",
              "success": "retires 1d6 km in the open, half in woods or close country",
              "limited success": "retires 2 km in the open, 1 km in woods or close country",
              "confused combat": "holds (both sides stay in position)",
              "attackers badly beaten": "holds; the attackers are thrown back to their start line, "
                                        "at least 1 km"}[row]
    retreat = retire
    if row in ("total success", "success", "limited success"):
        if city and row != "total success":
            retreat = "holds: in a city area it retreats only on a Total Success (note 3)"
        elif hold:
            for uid in hold:
                losses[uid] = losses.get(uid, 0) + 1
            retreat = "holds at all costs: one more step lost instead of the retreat (note 2)"
    profiles: dict[str, Profile] = {}
    for u in (*attacker.units, *defender.units):
        profiles[u.id] = u.profile.lose(losses.get(u.id, 0))
    for art in (*attacker.artillery, *defender.artillery):
        profiles[art.id] = art.profile
    return Outcome(a, d, die, result, row, losses, retreat, profiles)
