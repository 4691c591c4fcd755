"""Error types, split by cause (as python-chess splits InvalidMoveError from IllegalMoveError).

* :class:`InputError` -- the input is malformed (bad JSON, wrong types, oversize, unknown names).
  The CLI prints one line and exits with code 2; nothing is written.
* :class:`RuleViolation` / :class:`IllegalOrders` -- well-formed orders that break the rules.
  Every violation names its rule case, e.g. ``[5.14]``.
* :class:`SignatureError` -- a signature or key does not verify (also exit code 2 on input).
* :class:`VerificationError` -- the archive fails replay; names the first bad file (exit code 1).
"""

from __future__ import annotations

from dataclasses import field

from pbem.lazy_re import LazyPattern
from pbem.plain import Plain


class PbemError(Exception):
    """Base class for every error pbem reports to a user."""

    exit_code = 2


class InputError(PbemError):
    """Malformed input: syntax, types, size, unknown identifiers."""


class UnreadableOrders(InputError):
    """Text orders with lines that cannot be read: every such line's problem at once, and the
    orders the other lines make (``readable``), so that what the rules refuse in them can be told
    in the same breath (:func:`pbem.cli.play._orders_reader`)."""

    def __init__(self, problems: list[str], readable: object = None) -> None:
        self.problems = list(problems)
        self.readable = readable
        super().__init__(str(self))

    def __str__(self) -> str:
        return problem_list(self.problems)


def problem_list(problems: list[str]) -> str:
    """One problem as it is; several as the list :class:`IllegalOrders` prints."""
    if len(problems) == 1:
        return problems[0]
    return "\n".join([f"{len(problems)} problems with these orders:", *(f"  - {p}" for p in problems)])


class SignatureError(PbemError):
    """A signature, key or envelope does not verify."""


class DiskError(PbemError):
    """The disk refused a write (read-only, full, no permission): one line naming the file."""


class ArchiveError(PbemError):
    """The archive cannot take this file (wrong game, wrong step, already there with other bytes)."""


class RuleViolation(Plain, frozen=True):
    """One breach of the rules, with the case number that forbids it."""

    rule: str
    message: str
    unit: str | None = None
    hex: str | None = None

    def __str__(self) -> str:
        """The message citing its case once [27]: not again when the message already cites it
        (an entry area's own text, say), and in one bracket with the cases the message ends with
        ("... defender [8.12]" under 8.11 reads "... defender [8.11, 8.12]")."""
        message, rule = self.message, self.rule
        if f"[{rule}]" in message:
            return message
        tail = _cited_tail(message)
        if tail is None:
            return f"{message} [{rule}]"
        head, cases = tail
        return f"{head} [{', '.join([rule, *(c for c in cases if c != rule)])}]"


def _cited_tail(message: str) -> tuple[str, list[str]] | None:
    """``("text", ["8.12"])`` for a message ending in a bracket of case numbers (``text [8.12]``),
    else None."""
    if not message.endswith("]") or " [" not in message:
        return None
    head, _, inside = message[:-1].rpartition(" [")
    cases = [c.strip() for c in inside.split(",")]
    if not cases or not all(c and c[0].isdigit() and all(ch.isdigit() or ch == "." for ch in c) for c in cases):
        return None
    return head, cases


class IllegalOrders(PbemError, Plain):
    """Orders that are well formed but break the rules; carries every violation found."""

    violations: list[RuleViolation] = field(default_factory=list)
    note: str = ""
    """What the player can do about them, said after the list (not a violation)."""

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __str__(self) -> str:
        listed = problem_list([str(v) for v in self.violations])
        return f"{listed}\n{self.note}" if self.note else listed


class VerificationError(PbemError):
    """Replay of the archive failed; ``path`` names the first bad file."""

    exit_code = 1

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


# ------------------------------------------------------------------------------------------------
# What reaches a terminal
# ------------------------------------------------------------------------------------------------

MAX_ERROR_LINE = 300
"""Characters of one error line shown at most (the rest is cut with a note): user data quoted in a
message can never flood the terminal."""
MAX_ERROR_LINES = 40


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _unsafe(ch: str) -> bool:
    code = ord(ch)
    return (
        (code < 0x20 and ch not in "\n\t")
        or 0x7F <= code < 0xA0  # DEL and the C1 controls (CSI is 0x9b)
        or 0x200E <= code <= 0x200F  # direction marks
        or 0x202A <= code <= 0x202E  # embeddings and overrides
        or 0x2066 <= code <= 0x2069  # isolates
        or code in (0xFEFF, 0x061C)
    )


_UNSAFE = LazyPattern("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\u061c]")
"""The characters :func:`_unsafe` names, as one character class: a text of many lines (which
``str.isprintable`` refuses for its line breaks) is searched once instead of a call a character;
compiled on first use (only text that is not printable needs it: :mod:`pbem.lazy_re`)."""


def terminal_safe(text: str) -> str:
    """``text`` with every terminal control character (ESC sequences, C1 controls, carriage
    returns, bidirectional overrides) shown as an escape (``\\x1b``) instead of obeyed."""
    if text.isprintable() or _UNSAFE.search(text) is None:
        return text
    return "".join(_escape(c) if _unsafe(c) else c for c in text)


def error_text(text: str) -> str:
    """An error message as printed: terminal-safe, each line at most :data:`MAX_ERROR_LINE`
    characters and at most :data:`MAX_ERROR_LINES` lines."""
    lines = terminal_safe(text).split("\n")
    out = []
    for line in lines[:MAX_ERROR_LINES]:
        if len(line) > MAX_ERROR_LINE:
            line = line[: MAX_ERROR_LINE - 30] + f"… ({len(line) - MAX_ERROR_LINE + 30} more characters)"
        out.append(line)
    if len(lines) > MAX_ERROR_LINES:
        out.append(f"… and {len(lines) - MAX_ERROR_LINES} more lines")
    return "\n".join(out)
