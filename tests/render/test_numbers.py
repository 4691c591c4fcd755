"""How a drawing writes numbers (issue 28): :func:`_tenths` rounds ``v * 10`` where it is not near
a tie and :func:`_t` writes whole tenths by their digits; with :func:`_n` they must give exactly what
their definitions give (``f"{v:.1f}"`` without trailing zeros; its digits without the point;
``_n(t / 10)``) on every
value: random coordinates of every size and sign, exact halves of tenths, values a few units in the
last place from them, and large, tiny and non-finite ones."""

from __future__ import annotations

import math
import random

from pbem.render.svg.canvas import _n, _t, _tenths


def text_n(v: float) -> str:
    text = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text_tenths(v: float) -> int:
    return int(f"{v:.1f}".replace(".", ""))


def _values() -> list[float]:
    rng = random.Random(28)  # a fixed seed: the same values every run
    out: list[float] = [0.0, -0.0, 0.04, -0.04, 0.05, -0.05, 0.25, -0.25, 0.35, 2.5, 1e-300, -1e-300,
                        5e11, -5e11, 1e11 + 0.05, 1e13, -1e13, 1e20, 123456789.95]
    for scale in (1.0, 10.0, 100.0, 1000.0, 5000.0, 1e6):
        out += [rng.uniform(-scale, scale) for _ in range(20000)]
    for _ in range(20000):  # halves of a tenth and their float neighbours
        half = (rng.randrange(-200000, 200000) + 0.5) / 10
        v = half
        for _ in range(3):
            out += [v, -v]
            v = math.nextafter(v, math.inf)
        v = half
        for _ in range(3):
            v = math.nextafter(v, -math.inf)
            out += [v, -v]
    for _ in range(20000):  # sums the drawing makes: centre plus corner offsets
        s = rng.choice([32.0, 27.3, 10.0])
        x = 1.5 * s * rng.randrange(0, 60)
        out.append(x + s * math.cos(math.radians(60 * rng.randrange(0, 7))))
        out.append(math.sqrt(3.0) * s * (rng.randrange(0, 60) + 0.5) + s * math.sin(math.radians(30 + 60 * rng.randrange(0, 7))))
    return out


def test_numbers_are_written_as_their_definitions() -> None:
    values = _values()
    assert len(values) > 200000
    for v in values:
        assert _n(v) == text_n(v), v
        assert _tenths(v) == text_tenths(v), v
        t = text_tenths(v)
        if abs(t) < 10**12:
            assert _t(t) == text_n(t / 10), t


def test_non_finite_numbers_are_written_as_before() -> None:
    for v in (math.inf, -math.inf, math.nan):
        assert _n(v) == text_n(v)


def test_by_hand() -> None:
    assert [_n(v) for v in (12.0, 10.0, 100.0, -0.04, 0.25, 0.35, -1.0, 3.14159, -2.96)] == \
        ["12", "10", "100", "0", "0.2", "0.3", "-1", "3.1", "-3"]
    assert [_tenths(v) for v in (0.25, 0.35, -2.96, 17.3205)] == [2, 3, -30, 173]
    assert [_t(t) for t in (0, 5, -5, 10, -10, 173, -87)] == ["0", "0.5", "-0.5", "1", "-1", "17.3", "-8.7"]
