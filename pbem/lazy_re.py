"""A regular expression compiled when first used, not when its module is imported.

Compiling a pattern costs about half a million instructions (``re``'s parser and compiler are
Python); the file-name patterns of :mod:`pbem.protocol.names` and the like were compiled by every
command at import, most of them for files a game seldom holds (take-backs, receipts, maps' names).
A :class:`LazyPattern` compiles on its first ``match``/``fullmatch``/``search`` and keeps the
compiled pattern on itself (a per-object cache of immutable derived data: the pattern is fixed).

``prefix``: a literal text every match starts with (the pattern begins ``^`` and that text). A name
that does not start with it is answered ``None`` at once, as the pattern would, without compiling.
tests/protocol/test_lazy_re.py holds every pattern declared with a prefix to that promise and to the
compiled pattern's answers.
"""

from __future__ import annotations

import re


class LazyPattern:
    """``re.compile(pattern)``, compiled on first use; ``prefix`` as the module says."""

    __slots__ = ("_compiled", "pattern", "prefix")

    def __init__(self, pattern: str, prefix: str = "") -> None:
        self.pattern = pattern
        self.prefix = prefix
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        rx = self._compiled
        if rx is None:
            rx = self._compiled = re.compile(self.pattern)
        return rx

    def match(self, text: str) -> re.Match[str] | None:
        if not text.startswith(self.prefix):
            return None
        return self.compiled.match(text)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        if not text.startswith(self.prefix):
            return None
        return self.compiled.fullmatch(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"
