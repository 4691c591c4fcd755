"""SPI hex numbering and adjacency (WestWall standard rules: map, [8.12] range counting)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import InputError
from pbem.maps.hexmap import Hex, hexside, parse_hexside


def test_bastogne_town_hexes_are_adjacent() -> None:
    # Bastogne occupies 1317 and 1416 (Bastogne exclusive rules 15.17): they must touch.
    assert Hex.parse("1317").is_adjacent(Hex.parse("1416"))


def test_even_columns_sit_half_a_hex_lower() -> None:
    # Odd column 13, row 17 touches rows 16 and 17 of the even columns beside it.
    assert {str(h) for h in Hex.parse("1317").neighbours()} == {
        "1316", "1318", "1216", "1217", "1416", "1417"}
    # Even column 14, row 16 touches rows 16 and 17 of the odd columns beside it.
    assert {str(h) for h in Hex.parse("1416").neighbours()} == {
        "1415", "1417", "1316", "1317", "1516", "1517"}


def test_distance_counts_target_not_origin_8_12() -> None:
    a = Hex.parse("1010")
    assert a.distance(a) == 0
    assert a.distance(Hex.parse("1013")) == 3
    # Diagonal along the columns: 1010 -> 1110 -> 1211 -> 1311 is three hexes.
    assert a.distance(Hex.parse("1311")) == 3


def test_wide_maps_use_six_digits_beyond_99_and_never_collide() -> None:
    assert str(Hex(150, 7)) == "150007" and Hex.parse("150007") == Hex(150, 7)
    assert str(Hex(99, 99)) == "9999"
    # a six-digit form of a hex that has a four-digit one is refused: one hex, one spelling
    with pytest.raises(InputError):
        Hex.parse("013017")


@pytest.mark.parametrize("text", ["", "131", "13170", "ab12", "１３１７", 1317, "0130170"])
def test_parse_rejects_malformed(text: object) -> None:
    with pytest.raises(InputError):
        Hex.parse(text)  # type: ignore[arg-type]


def test_hexside_is_unordered_and_requires_adjacency() -> None:
    a, b = Hex.parse("1317"), Hex.parse("1416")
    assert hexside(a, b) == hexside(b, a) == parse_hexside("1416/1317")
    with pytest.raises(InputError):
        parse_hexside("1317/1319")


hexes = st.builds(Hex, st.integers(1, 250), st.integers(1, 250))


@given(hexes)
def test_text_round_trip(h: Hex) -> None:
    assert Hex.parse(str(h)) == h


@given(hexes)
def test_neighbours_are_at_distance_one_and_symmetric(h: Hex) -> None:
    ns = h.neighbours()
    assert len(set(ns)) == 6
    for n in ns:
        assert h.distance(n) == 1
        assert h in n.neighbours()


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, st.integers(0, 4))
def test_within_matches_distance(h: Hex, radius: int) -> None:
    ring = list(h.within(radius))
    assert len(ring) == 1 + 3 * radius * (radius + 1)
    assert all(h.distance(x) <= radius for x in ring)
    # exactly the hexes of the surrounding box within the radius, as Hex values, in (col, row) order
    box = [Hex(c, r) for c in range(h.col - radius, h.col + radius + 1)
           for r in range(h.row - radius - 1, h.row + radius + 2) if h.distance(Hex(c, r)) <= radius]
    assert ring == sorted(box)
    assert all(type(x) is Hex for x in ring)
