"""ELETIS reports (seed 004, "Hints on Reporting Combat Results"): what a team hears about one of
its formations after a turn -- Effectiveness, Location, Enemy, Type, Identity, Supply -- in words,
never a status number. Pure: the umpire's adjudication supplies the facts.

* Effectiveness: the words of :func:`pbem.systems.megagame.tables.effectiveness`.
* Enemy: battalion equivalents, as a commander would count them: several weak battalions may pass
  for fewer strong ones (the text allows the misjudgement); here every three status points of
  enemy strength count as one battalion (a full-strength battalion is about 5-6), rounded, at least
  "a small force".
* Type: tanks, artillery and air support are always named when they took part.
* Identity: the enemy formation is named only after more than one turn in contact with it.
* Supply: the supply points the formation used this turn (the text asks for the number of supply
  points: they are the team's own logistics, not a status).
"""

from __future__ import annotations

from dataclasses import field

from pbem.plain import Plain
from pbem.systems.megagame.tables import effectiveness

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else "many"


class EnemySeen(Plain, frozen=True):
    status: int
    """The enemy's total status in the fight (for the umpire's count; never reported)."""
    tanks: bool = False
    artillery: bool = False
    air: bool = False
    formation: str = ""
    turns_in_contact: int = 1


class UnitFacts(Plain, frozen=True):
    name: str
    status: int
    location: str
    enemy: EnemySeen | None = None
    supply_used: int = 0
    events: tuple[str, ...] = field(default_factory=tuple)
    """What happened, already in words ("pushed back 2 km to the bridge", "held")."""
    words: str = ""
    """Effectiveness in other words than the combat units' scale (a headquarters), if given."""


def battalions(status: int) -> str:
    """Enemy strength as a commander would put it."""
    n = (status + 1) // 3  # a third of the status, rounded half up, in integers
    if n <= 0:
        return "a small force"
    if n == 1:
        return "about one battalion"
    if n >= len(NUMBER_WORDS):
        return "more than ten battalions"
    return f"about {_count(n)} battalions"


def standing(status: int) -> str:
    """A unit's effectiveness in a few words, for a sentence about what changed it [10]: the bands
    of :func:`pbem.systems.megagame.tables.effectiveness` (below 3 low offensive power, over 5
    considerable combat power)."""
    if status <= 0:
        return "no longer an effective fighting unit"
    if status < 3:
        return "badly worn"
    if status <= 5:
        return "battered but in good order"
    return "in good heart"


def losses_words(before: int, after: int, *, measured: bool = True) -> str:
    """The losses a unit took this turn, for its own team [10 Effectiveness]: no number, only that
    it lost men and equipment and, for a fighting unit (``measured``), whether that changed its
    effectiveness ("no longer in good heart: now battered but in good order") or not ("still in
    good heart")."""
    if not measured:
        return "took losses this turn"
    if after <= 0:
        return "took such losses this turn that it is no longer an effective fighting unit"
    was, now = standing(before), standing(after)
    if was == now:
        return f"took losses this turn, but is still {now}"
    return f"took losses this turn: no longer {was}, it is now {now}"


def unit_report(f: UnitFacts) -> str:
    """One formation's paragraph of the team's report."""
    lines = [f"{f.name}: {f.words or effectiveness(f.status)}.", f"Location: {f.location}."]
    lines += [e[0].upper() + e[1:] + ("" if e.endswith(".") else ".") for e in f.events]
    if f.enemy is not None:
        e = f.enemy
        kinds = [k for k, on in (("tanks", e.tanks), ("artillery", e.artillery),
                                 ("air attack", e.air)) if on]
        seen = f"Enemy: {battalions(e.status)}"
        if kinds:
            seen += ", with " + " and ".join(kinds)
        if e.formation and e.turns_in_contact > 1:
            seen += f", identified as {e.formation}"
        lines.append(seen + ".")
    used = "no supply" if f.supply_used == 0 else f"{_count(f.supply_used)} supply point" + (
        "s" if f.supply_used != 1 else "")
    lines.append(f"Supply: used {used} this turn.")
    return " ".join(lines)
