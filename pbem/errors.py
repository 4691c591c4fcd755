"""Error types, split by cause (as python-chess splits InvalidMoveError from IllegalMoveError).

* :class:`InputError` -- the input is malformed (bad JSON, wrong types, oversize, unknown names).
  The CLI prints one line and exits with code 2; nothing is written.
* :class:`RuleViolation` / :class:`IllegalOrders` -- well-formed orders that break the rules.
  Every violation names its rule case, e.g. ``[5.14]``.
* :class:`SignatureError` -- a signature or key does not verify (also exit code 2 on input).
* :class:`VerificationError` -- the archive fails replay; names the first bad file (exit code 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field


class PbemError(Exception):
    """Base class for every error pbem reports to a user."""

    exit_code = 2


class InputError(PbemError):
    """Malformed input: syntax, types, size, unknown identifiers."""


class SignatureError(PbemError):
    """A signature, key or envelope does not verify."""


class ArchiveError(PbemError):
    """The archive cannot take this file (wrong game, wrong step, already there with other bytes)."""


@dataclass(frozen=True)
class RuleViolation:
    """One breach of the rules, with the case number that forbids it."""

    rule: str
    message: str
    unit: str | None = None
    hex: str | None = None

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"


@dataclass
class IllegalOrders(PbemError):
    """Orders that are well formed but break the rules; carries every violation found."""

    violations: list[RuleViolation] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __str__(self) -> str:
        if len(self.violations) == 1:
            return str(self.violations[0])
        lines = [f"{len(self.violations)} problems with these orders:"]
        lines += [f"  - {v}" for v in self.violations]
        return "\n".join(lines)


class VerificationError(PbemError):
    """Replay of the archive failed; ``path`` names the first bad file."""

    exit_code = 1

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
