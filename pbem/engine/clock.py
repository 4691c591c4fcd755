"""Time control: "72 hours a move, 2 extensions of 24 hours", agreed in the genesis.

What an email-only system can and cannot prove about time (docs/protocol.md, "Time"): nothing pbem
signs carries a date, because no player's clock can be trusted and a signed date proves only what
its signer chose to write. pbem therefore *shows* the clock -- since when a message is owed (the
newest archive file's modification time on this machine: when this machine received or wrote it)
and how much of the agreed time is left -- and drafts a polite reminder; it never decides a game
on time. Whether a late move forfeits, and which extensions were used, is for the players (and
their mail timestamps) to settle.

Everything here is arithmetic on numbers given to it: no wall clock is read, so tests run on a
fixed clock.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.errors import InputError
from pbem.plain import Plain

_SPEC = re.compile(r"^(\d{1,4})h(?:,(\d{1,2})x(\d{1,4})h)?$")


class TimeControl(Plain, frozen=True):
    hours: int
    """Hours a side has for each message it owes."""
    extensions: int = 0
    """How many extensions each side may take in the game."""
    extension_hours: int = 0
    """Hours one extension adds."""

    def to_json(self) -> dict[str, int]:
        return {"hours": self.hours, "extensions": self.extensions, "extension_hours": self.extension_hours}

    @classmethod
    def of(cls, clock: Any) -> TimeControl:
        """From a genesis's checked ``time_control`` (:class:`pbem.protocol.archive.Clock`)."""
        return cls(clock.hours, clock.extensions, clock.extension_hours)

    def describe(self) -> str:
        ext = (f", {self.extensions} extension{'s' if self.extensions != 1 else ''} of "
               f"{self.extension_hours} h each" if self.extensions else "")
        return f"{self.hours} h a move{ext}"


def parse(text: str) -> TimeControl:
    """``72h`` or ``72h,2x24h`` (72 hours a move, two extensions of 24 hours)."""
    m = _SPEC.match(text.strip().lower())
    if m is None:
        raise InputError(f"--time-control {text[:40]!r}: write HOURSh or HOURSh,NxHOURSh (e.g. 72h,2x24h)")
    hours = int(m.group(1))
    if hours == 0:
        raise InputError("--time-control: a move needs more than 0 hours")
    n, ext = (int(m.group(2)), int(m.group(3))) if m.group(2) else (0, 0)
    if n and not ext:
        raise InputError("--time-control: an extension needs more than 0 hours")
    return TimeControl(hours, n, ext)


class Standing(Plain, frozen=True):
    """Where the clock of the side that owes a message stands."""

    elapsed: int
    """Seconds since the message became owed."""
    left: int
    """Seconds left of the agreed time (negative: overdue)."""
    extensions_needed: int
    """Extensions it would take to cover the time used so far (0 while on time)."""
    out_of_time: bool
    """Overdue beyond every extension the side has."""

    def describe(self, control: TimeControl) -> str:
        if self.left >= 0:
            return f"{_span(self.left)} left of {control.hours} h"
        late = f"overdue by {_span(-self.left)}"
        if self.out_of_time:
            return f"{late}: beyond all {control.extensions} extension(s) the players agreed"
        if self.extensions_needed:
            return f"{late}: {self.extensions_needed} of {control.extensions} extension(s) would cover it"
        return late


def standing(control: TimeControl, since: float, now: float, extensions_used: int = 0) -> Standing:
    """The clock ``now`` (seconds since the epoch, given by the caller) for a message owed since
    ``since``; ``extensions_used`` earlier in the game by the same side."""
    elapsed = max(0, int(now - since))
    allowed = control.hours * 3600
    left = allowed - elapsed
    needed = 0
    if left < 0 and control.extension_hours:
        over, block = -left, control.extension_hours * 3600
        needed = (over + block - 1) // block  # whole extensions to cover the overrun
    remaining = control.extensions - extensions_used
    out = left < 0 and (needed > remaining or control.extension_hours == 0)
    return Standing(elapsed, left, needed, out)


def _span(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes = rest // 60
    if hours >= 48:
        return f"{hours // 24} d {hours % 24} h"
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
