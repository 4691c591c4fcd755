"""Records in tests: equality of types all the way down, and trusted records held to what the
checking constructor makes of the same values."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pbem.protocol.record import Record


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types all the way down (a tuple is not a list here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, Record):
        return all(same(getattr(a, n), getattr(b, n)) for n in a._info().names)
    return bool(a == b)


def hold_trusted_records_to_the_checks(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """From now on (until ``monkeypatch`` undoes it), every trusted record the rules make is also
    built by the checking constructor from the same values: it must pass the checks (a
    :class:`~pbem.protocol.record.RecordError` otherwise), be :func:`same` as the trusted one, and
    keep the same objects where a check keeps a value itself. Returns the count made, by class."""
    made: Counter[str] = Counter()
    plain_init = Record.__init__

    def both(self: Record, **values: Any) -> None:
        plain_init(self, **values)
        if type(self)._trusted:
            checked = type(self).__new__(type(self))
            checked._assign(dict(values))
            checked.__post_init__()  # raises RecordError if the rules made a value the checks refuse
            assert same(self, checked), (self, checked)
            for name, value in values.items():
                assert (getattr(self, name) is value) == (getattr(checked, name) is value), name
            made[type(self).__name__] += 1

    monkeypatch.setattr(Record, "__init__", both)
    return made
