"""[7.82]: a unit is displaced more than once in a Combat Phase only when there is no other way,
westwall/4 (westwall/3 and earlier keep their choice, so their games replay as they were).

A new-user trial of a Bastogne game saw one retreat push the same U.S. unit ("20") ahead of it
three times, one hex each, although it could have stepped aside once. Each case below is on a
tiny map whose hexes are lakes except those listed (a lake closes a hex to every unit), read off
by hand from the hex grid:

* odd columns touch rows ``r-1`` and ``r`` of the columns beside them, even columns ``r`` and
  ``r+1``; every hex of a retreat is one farther from its start than the one before [7.74];
* a retreating unit goes through friends only when no vacant path exists [7.73], and a displaced
  unit moves one hex as if retreating [7.81]: by default as far as it can from the enemy units of
  the combat, then the lowest hex number.
"""

from __future__ import annotations

from typing import Any

from helpers.westwall import atk, combats, orders, state_with, tiny_scenario, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.maps.hexmap import Hex
from pbem.protocol.dice import FixedDice
from pbem.systems.westwall.attacks import validate_attacks
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.combat import resolve_combat
from pbem.systems.westwall.exclusive import Exclusive, get_exclusive
from pbem.systems.westwall.model import DisplacedEvent, Scenario
from pbem.systems.westwall.retreat import Retreat, retreat
from pbem.systems.westwall.rules import WestWallRules

H = Hex.parse
V4 = WestWallRules()
V3 = WestWallRules().at_version("3")
UNITS = [
    unit("de1", "DE", "infantry", 3, 4, 7),
    unit("de2", "DE", "infantry", 3, 4, 7),
    unit("us1", "US", "infantry", 2, 4, 7),
    unit("us2", "US", "infantry", 2, 4, 7),
    unit("us3", "US", "infantry", 2, 4, 7),
    unit("20", "US", "infantry", 2, 4, 7),
]


def _map(open_hexes: set[str], cols: int = 7, rows: int = 7) -> Scenario:
    every = {f"{c:02d}{r:02d}" for c in range(1, cols + 1) for r in range(1, rows + 1)}
    assert open_hexes <= every
    return tiny_scenario(cols=(1, cols), rows=(1, rows), units=UNITS,
                         terrain={"lake": sorted(every - open_hexes)})


def _around(h: str, open_hexes: set[str]) -> set[str]:
    """The open hexes next to ``h``."""
    return {str(n) for n in H(h).neighbours()} & open_hexes


def _retreat(version: WestWallRules, sc: Scenario, positions: dict[str, str], uid: str, hexes: int,
             enemy: str, displaced_before: frozenset[str] = frozenset()) -> tuple[Board, Retreat]:
    b = Board.from_state(sc, state_with(sc, positions, phasing="DE"))
    ex = Exclusive(version.readings)
    r = retreat(b, ex, uid, hexes, combat=1, away_from=[H(enemy)],
                displaced_before=displaced_before)
    return b, r


def _pushes(r: Retreat) -> list[tuple[str, list[str]]]:
    return [(u, [str(h) for h in p]) for u, p in r.displaced]


# -- Case A: one way on, and the friend in it may step aside -----------------------------------
# A corridor along row 2 (0102-0202-...-0702) with one side pocket, 0301, which touches only 0302
# of the open hexes (its other neighbours 0201, 0401 are lakes). de1 in 0102 beats us1 in 0202:
# D3, the only way 0302-0402-0502, and "20" stands in 0302. Pushed out of 0302 it may go to 0402
# (three hexes from de1) or to the pocket 0301 (two); it prefers 0402, right in us1's way: us1
# then pushes it on to 0502 and again to 0602, three displacements of one unit. Stepping into
# the pocket, it is displaced once and us1 goes on through vacant hexes.
OPEN_A = {f"{c:02d}02" for c in range(1, 8)} | {"0301"}
CASE_A = _map(OPEN_A)
CASE_A_AT = {"de1": "0102", "us1": "0202", "20": "0302"}


def test_case_a_premise() -> None:
    assert _around("0301", OPEN_A) == {"0302"}
    assert set(CASE_A.map.terrain["lake"]) >= {"0201", "0401"}
    assert H("0102").distance(H("0402")) == 3 and H("0102").distance(H("0301")) == 2


def test_7_82_displaced_unit_steps_aside_rather_than_be_displaced_again() -> None:
    b, r = _retreat(V4, CASE_A, CASE_A_AT, "us1", 3, "0102")
    assert r.eliminated is None
    assert [str(h) for h in r.path] == ["0202", "0302", "0402", "0502"]
    assert _pushes(r) == [("20", ["0302", "0301"])]
    assert b.unit_hex("20") == H("0301") and b.unit_hex("us1") == H("0502")
    assert r.events[0] == DisplacedEvent(unit="20", path=["0302", "0301"], by="us1", combat=1)


def test_7_82_westwall_3_keeps_the_threefold_displacement() -> None:
    # What the Bastogne trial saw, kept for the games played under westwall/3.
    b, r = _retreat(V3, CASE_A, CASE_A_AT, "us1", 3, "0102")
    assert [str(h) for h in r.path] == ["0202", "0302", "0402", "0502"]
    assert _pushes(r) == [("20", ["0302", "0402"]), ("20", ["0402", "0502"]),
                          ("20", ["0502", "0602"])]
    assert b.unit_hex("20") == H("0602")


def test_7_82_displaced_again_when_there_is_no_other_way() -> None:
    # Without the pocket the corridor leaves no choice: "20" is displaced three times, as
    # [7.82] allows when it is the only alternative (westwall/4 as westwall/3).
    sc = _map({f"{c:02d}02" for c in range(1, 8)})
    for version in (V4, V3):
        b, r = _retreat(version, sc, CASE_A_AT, "us1", 3, "0102")
        assert r.eliminated is None
        assert [u for u, _ in _pushes(r)] == ["20", "20", "20"]
        assert b.unit_hex("20") == H("0602")


# -- Case B: two ways on, the one farther from the enemy displaces a friend twice --------------
# Open: 0102 (de1), 0202 (us1), 0203 (us3), 0104, 0204, 0205. us1 retreats 2 from 0202; its only
# first hex is 0203 (0103 and 0201 are lakes), held by us3. Pushed out, us3 goes to 0204 (three
# from de1) rather than 0104 (two). us1 may then end in 0104 (vacant, two from de1) or in 0204
# (three from de1), pushing us3 a second time (on to 0205, the farthest). The default order,
# farthest from the enemy, chose 0204 (westwall/3); [7.82] wants 0104.
OPEN_B = {"0102", "0202", "0203", "0104", "0204", "0205"}
CASE_B = _map(OPEN_B)
CASE_B_AT = {"de1": "0102", "us1": "0202", "us3": "0203"}


def test_case_b_premise() -> None:
    assert _around("0202", OPEN_B) == {"0102", "0203"}
    assert _around("0203", OPEN_B) == {"0202", "0104", "0204"}
    assert _around("0204", OPEN_B) == {"0203", "0104", "0205"}
    assert [H("0102").distance(H(h)) for h in ("0104", "0204", "0205")] == [2, 3, 4]


def test_7_82_a_way_on_that_displaces_nobody_twice_comes_first() -> None:
    b, r = _retreat(V4, CASE_B, CASE_B_AT, "us1", 2, "0102")
    assert [str(h) for h in r.path] == ["0202", "0203", "0104"]
    assert _pushes(r) == [("us3", ["0203", "0204"])]
    assert b.unit_hex("us3") == H("0204")


def test_7_82_westwall_3_went_farther_and_displaced_twice() -> None:
    b, r = _retreat(V3, CASE_B, CASE_B_AT, "us1", 2, "0102")
    assert [str(h) for h in r.path] == ["0202", "0203", "0204"]
    assert _pushes(r) == [("us3", ["0203", "0204"]), ("us3", ["0204", "0205"])]


# -- Case C: two retreats of one Combat Phase ---------------------------------------------------
# Open: 0303 (de2), 0403 (us1), 0404, 0503 (us3), 0603, 0305, 0505 ("20"), 0506 (us2), 0507 (de1).
# Combat 1, de1 against us2, D1: us2's only hex is 0505, held by "20", whose only way out is 0404.
# Combat 2, de2 against us1, D1: us1 may go to 0404 ("20" again, which would go on to 0305) or
# to 0503 (us3, which would go to 0603); both are two hexes from de2 (0402 and 0304, in de2's
# zone, are lakes anyway), so the lowest hex number chose 0404 (westwall/3): "20" displaced twice
# in the phase. [7.82] wants 0503.
OPEN_C = {"0303", "0403", "0404", "0503", "0603", "0305", "0505", "0506", "0507"}
CASE_C = _map(OPEN_C)
CASE_C_AT = {"de1": "0507", "de2": "0303", "us1": "0403", "us2": "0506", "us3": "0503",
             "20": "0505"}


def test_case_c_premise() -> None:
    assert H("0303").distance(H("0404")) == H("0303").distance(H("0503")) == 2
    assert _around("0505", OPEN_C) == {"0404", "0506"}
    assert _around("0506", OPEN_C) == {"0505", "0507"}
    assert _around("0403", OPEN_C) == {"0303", "0404", "0503"}
    assert _around("0404", OPEN_C) == {"0403", "0305", "0505"}
    assert _around("0503", OPEN_C) == {"0403", "0603"}


def _phase(version: WestWallRules) -> tuple[Board, list[object]]:
    st_ = state_with(CASE_C, CASE_C_AT, phasing="DE")
    b = Board.from_state(CASE_C, st_)
    # Attack 3 against defense 4 in clear terrain, die 1: D1 (tests/systems/westwall/test_ww_combat.py).
    o = orders("DE", atk(["de1"], ["us2"]), atk(["de2"], ["us1"]))
    assert validate_attacks(b, CASE_C, st_, o) == []
    ev = resolve_combat(b, CASE_C, st_, o, FixedDice([1, 1]),
                        get_exclusive("standard", version.readings))
    assert [c.result for c in combats(ev)] == ["D1", "D1"]
    return b, list(ev)


def _displaced(ev: list[object]) -> list[tuple[str, list[str], str, int]]:
    return [(e.unit, e.path, e.by, e.combat) for e in ev if isinstance(e, DisplacedEvent)]


def test_7_82_a_unit_displaced_earlier_in_the_phase_is_not_displaced_again() -> None:
    b, ev = _phase(V4)
    assert _displaced(ev) == [("20", ["0505", "0404"], "us2", 1), ("us3", ["0503", "0603"], "us1", 2)]
    assert [b.unit_hex(u) for u in ("us1", "us2", "us3", "20")] == [
        H("0503"), H("0505"), H("0603"), H("0404")]


def test_7_82_westwall_3_displaced_it_again_in_the_second_combat() -> None:
    b, ev = _phase(V3)
    assert _displaced(ev) == [("20", ["0505", "0404"], "us2", 1), ("20", ["0404", "0305"], "us1", 2)]
    assert b.unit_hex("us1") == H("0404") and b.unit_hex("us3") == H("0503")


def test_7_82_the_retreat_alone_is_told_who_was_displaced_before() -> None:
    # Combat 2 of case C by itself, "20" already in 0404: told that "20" was displaced earlier in
    # the phase, us1 goes to 0503; told nothing, the lowest hex number, 0404, as before.
    at = dict(CASE_C_AT, us2="0505", **{"20": "0404"})
    _, r = _retreat(V4, CASE_C, at, "us1", 1, "0303", displaced_before=frozenset({"20"}))
    assert [str(h) for h in r.path] == ["0403", "0503"]
    _, r = _retreat(V4, CASE_C, at, "us1", 1, "0303")
    assert [str(h) for h in r.path] == ["0403", "0404"]
    _, r = _retreat(V3, CASE_C, at, "us1", 1, "0303", displaced_before=frozenset({"20"}))
    assert [str(h) for h in r.path] == ["0403", "0404"]


# -- Case A', the corridor closed at its end ----------------------------------------------------
# Case A with de2 in 0702: its zone closes 0602. Pushed ahead, "20" would have to leave 0502 for
# 0602 as us1 enters 0502, and cannot: westwall/3 eliminated us1 instead [7.82] (its way closed
# by a displacement that would eliminate "20"), after two hexes. Stepping aside into 0301, "20"
# lets us1 through.
CASE_A_CLOSED_AT = dict(CASE_A_AT, de2="0702")


def test_7_82_stepping_aside_saves_the_retreating_unit() -> None:
    b, r = _retreat(V4, CASE_A, CASE_A_CLOSED_AT, "us1", 3, "0102")
    assert r.eliminated is None
    assert [str(h) for h in r.path] == ["0202", "0302", "0402", "0502"]
    assert _pushes(r) == [("20", ["0302", "0301"])]


def test_7_82_westwall_3_eliminated_it() -> None:
    b, r = _retreat(V3, CASE_A, CASE_A_CLOSED_AT, "us1", 3, "0102")
    assert r.eliminated == "7.82"
    assert [str(h) for h in r.path] == ["0202", "0302", "0402"]
    assert b.status("us1") == "eliminated" and b.unit_hex("20") == H("0502")


# -- Properties on crowded boards ---------------------------------------------------------------

_CROWD = [unit(f"d{i}", "DE", "infantry", 3, 3, 7) for i in range(3)] + [
    unit(f"u{i}", "US", "infantry", 2, 2, 7) for i in range(12)
]
_CROWD_SC = tiny_scenario(cols=(1, 5), rows=(1, 4), units=_CROWD, terrain={"lake": ["0303"]})
_HEXES = sorted({f"{c:02d}{r:02d}" for c in range(1, 6) for r in range(1, 5)} - {"0303"})


def _repeats(r: Retreat, before: frozenset[str]) -> int:
    units = [u for u, _ in r.displaced]
    return len(units) - len(set(units) - before)


def _crowd(hexes: list[str], version: WestWallRules, uid: str, dist: int,
           before: frozenset[str]) -> tuple[Board, Retreat]:
    positions = {u.id: h for u, h in zip(_CROWD, hexes, strict=True)}
    b = Board.from_state(_CROWD_SC, state_with(_CROWD_SC, positions))
    r = retreat(b, Exclusive(version.readings), uid, dist, combat=1,
                away_from=[H(positions["d0"])], displaced_before=before)
    return b, r


_CROWDED = (
    st.lists(st.sampled_from(_HEXES), min_size=15, max_size=15, unique=True),
    st.integers(1, 3),
    st.integers(0, 11),
    st.sets(st.integers(0, 11), max_size=4),
)


@settings(max_examples=150, deadline=None)
@given(*_CROWDED)
def test_property_7_82_changes_only_retreats_that_displaced_a_unit_again(
    hexes: list[str], dist: int, who: int, earlier: set[int]
) -> None:
    uid = f"u{who}"
    before = frozenset(f"u{i}" for i in earlier) - {uid}
    b3, r3 = _crowd(hexes, V3, uid, dist, before)
    b4, r4 = _crowd(hexes, V4, uid, dist, before)
    # westwall/3 does not look at who was displaced before.
    _, r3_alone = _crowd(hexes, V3, uid, dist, frozenset())
    assert (r3.path, r3.displaced, r3.eliminated) == (
        r3_alone.path, r3_alone.displaced, r3_alone.eliminated)
    same = (r3.path, r3.displaced, r3.events) == (r4.path, r4.displaced, r4.events)
    if r3.eliminated is None:
        assert r4.eliminated is None
        assert _repeats(r4, before) <= _repeats(r3, before)
        if _repeats(r3, before) == 0:
            assert same and dict(b3.positions()) == dict(b4.positions())
    if not same:
        assert r3.eliminated is not None or _repeats(r4, before) < _repeats(r3, before)
    assert b4.stacked_hexes() == {}


@settings(max_examples=150, deadline=None)
@given(*_CROWDED)
def test_property_7_82_stepping_aside_searched_only_when_needed_chooses_the_same(
    hexes: list[str], dist: int, who: int, earlier: set[int]
) -> None:
    # The search where pushed units may step aside runs only when every complete retreat found
    # without it repeats a displacement (or none completes); running it every time chooses the
    # same retreat.
    import pbem.systems.westwall.retreat as retreat_module

    uid = f"u{who}"
    before = frozenset(f"u{i}" for i in earlier) - {uid}
    b1, r1 = _crowd(hexes, V4, uid, dist, before)
    original = retreat_module._search

    def always(*a: Any, **k: Any) -> Any:
        if k.get("before") is not None and k.get("displacing", True):
            k["aside"] = True
        return original(*a, **k)

    retreat_module._search = always  # type: ignore[assignment]
    try:
        b2, r2 = _crowd(hexes, V4, uid, dist, before)
    finally:
        retreat_module._search = original  # type: ignore[assignment]
    assert (r1.path, r1.eliminated, r1.displaced, r1.events) == (
        r2.path, r2.eliminated, r2.displaced, r2.events)
    assert dict(b1.positions()) == dict(b2.positions())
