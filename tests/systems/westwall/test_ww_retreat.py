"""Retreat and displacement [7.7, 7.8] on tiny hand-made maps.

Most cases use a one-row map (``rows=(1, 1)``): its hexes 0101-0201-0301-0401-... form a line
(each is adjacent only to the previous and the next), so every retreat path is forced and the
expected result can be read off by hand.
"""

from __future__ import annotations

from helpers.westwall import state_with, tiny_scenario, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.exclusive import Exclusive
from pbem.systems.westwall.model import (
    DisplacedEvent,
    EliminatedEvent,
    RetreatEvent,
    Scenario,
    StandingOrders,
)
from pbem.systems.westwall.retreat import retreat

H = Hex.parse
NOEX = Exclusive()


def line_board(
    positions: dict[str, str], cols: int = 7, units: list | None = None, **kw: object
) -> Board:
    us = units or [
        unit("de1", "DE", "infantry", 4, 4, 7),
        unit("de2", "DE", "infantry", 4, 4, 7),
        unit("us1", "US", "infantry", 2, 4, 7),
        unit("us2", "US", "infantry", 2, 4, 7),
        unit("us3", "US", "infantry", 2, 4, 7),
        unit("arm", "US", "armor", 4, 4, 12),
    ]
    sc: Scenario = tiny_scenario(cols=(1, cols), rows=(1, 1), units=us, **kw)  # type: ignore[arg-type]
    return Board.from_state(sc, state_with(sc, positions, phasing="DE"))


def test_line_map_is_a_line() -> None:
    # The premise of these tests: on a one-row map each hex touches only its two column neighbours.
    b = line_board({})
    assert b.neighbours(H("0301")) == (H("0401"), H("0201")) or set(b.neighbours(H("0301"))) == {
        H("0201"),
        H("0401"),
    }


def test_7_74_full_retreat() -> None:
    # us1 in 0301 attacked from 0201 retreats 2: 0401 then 0501 (each one hex farther away).
    b = line_board({"de1": "0201", "us1": "0301"})
    r = retreat(b, NOEX, "us1", 2, combat=1, away_from=[H("0201")])
    assert r.path == [H("0301"), H("0401"), H("0501")]
    assert r.eliminated is None
    assert b.unit_hex("us1") == H("0501")
    assert r.events == [RetreatEvent(unit="us1", path=["0301", "0401", "0501"], combat=1)]


def test_7_74_partial_retreat_eliminated_in_last_hex() -> None:
    # A lake in 0501 closes the way: us1 reaches 0401 (1 of 3 hexes) and is eliminated there; the
    # path of retreat ends in 0401 [7.74].
    b = line_board({"de1": "0201", "us1": "0301"}, terrain={"lake": ["0501"]})
    r = retreat(b, NOEX, "us1", 3, combat=2, away_from=[H("0201")])
    assert r.path == [H("0301"), H("0401")]
    assert r.eliminated == "7.74"
    assert b.status("us1") == "eliminated"
    elim = [e for e in r.events if isinstance(e, EliminatedEvent)]
    assert elim and elim[0].hex == "0401" and elim[0].rule == "7.74"


def test_12_12_retreat_off_the_map_eliminates() -> None:
    # Map 0101-0401: us1 in 0301 must retreat 2 but 0401 is the edge -> eliminated in 0401 [12.12].
    b = line_board({"de1": "0201", "us1": "0301"}, cols=4)
    r = retreat(b, NOEX, "us1", 2, combat=1, away_from=[H("0201")])
    assert r.path == [H("0301"), H("0401")]
    assert r.eliminated == "12.12"


def test_7_71_may_leave_but_not_enter_enemy_zoc() -> None:
    # us1 in 0301 starts in de1's zone (0201) -- leaving is fine [7.71]; de2 in 0601 controls 0501,
    # so a D2 stops at 0401 and us1 dies there.
    b = line_board({"de1": "0201", "de2": "0601", "us1": "0301"})
    r = retreat(b, NOEX, "us1", 2, combat=1, away_from=[H("0201")])
    assert r.path == [H("0301"), H("0401")]
    assert r.eliminated == "7.74"


def test_7_71_friends_do_not_negate_zoc() -> None:
    # de2 in 0501 controls 0401; us2 standing in 0401 does not help: us1 is eliminated in place.
    b = line_board({"de1": "0201", "de2": "0501", "us1": "0301", "us2": "0401"})
    r = retreat(b, NOEX, "us1", 1, combat=1, away_from=[H("0201")])
    assert r.path == [H("0301")]
    assert r.eliminated is not None
    assert b.unit_hex("us2") == H("0401")  # not displaced


def test_7_72_prohibited_hexside() -> None:
    # A hexside closed to all units (a custom "wall" kind) between 0301 and 0401.
    from pbem.systems.westwall.board import default_terrain_key

    key = default_terrain_key()
    data = key.to_json()
    data["hexsides"]["wall"] = {"prohibited": True}
    from pbem.systems.westwall.model import TerrainKey

    b = line_board(
        {"de1": "0201", "us1": "0301"},
        lines=[("wall", ["0301/0401"])],
        terrain_key=TerrainKey.parse(data),
    )
    r = retreat(b, NOEX, "us1", 1, combat=1, away_from=[H("0201")])
    assert r.path == [H("0301")] and r.eliminated == "7.74"


def test_5_24_armour_retreating_into_woods_is_eliminated() -> None:
    # arm (armour) in 0301 would have to enter woods 0401 off-road: eliminated instead [5.24].
    b = line_board({"de1": "0201", "arm": "0301"}, terrain={"woods": ["0401"]})
    r = retreat(b, NOEX, "arm", 1, combat=1, away_from=[H("0201")])
    assert r.eliminated == "5.24"
    assert r.path == [H("0301")]
    # Along a road it may go [5.24].
    b = line_board(
        {"de1": "0201", "arm": "0301"},
        terrain={"woods": ["0401"]},
        routes=[("road", ["0301", "0401"])],
    )
    r = retreat(b, NOEX, "arm", 1, combat=1, away_from=[H("0201")])
    assert r.eliminated is None and r.path == [H("0301"), H("0401")]


def test_5_24_armour_across_stream_is_eliminated() -> None:
    b = line_board({"de1": "0201", "arm": "0301"}, lines=[("stream", ["0301/0401"])])
    r = retreat(b, NOEX, "arm", 1, combat=1, away_from=[H("0201")])
    assert r.eliminated == "5.24"
    # Infantry crosses the stream [7.72 only forbids prohibited hexsides].
    b = line_board({"de1": "0201", "us1": "0301"}, lines=[("stream", ["0301/0401"])])
    assert retreat(b, NOEX, "us1", 1, combat=1, away_from=[H("0201")]).eliminated is None


def test_7_81_displacement() -> None:
    # us1 (0301) must retreat 1; the only hex, 0401, holds us2, which moves on to 0501 [7.81].
    b = line_board({"de1": "0201", "us1": "0301", "us2": "0401"})
    r = retreat(b, NOEX, "us1", 1, combat=3, away_from=[H("0201")])
    assert r.eliminated is None
    assert b.unit_hex("us1") == H("0401") and b.unit_hex("us2") == H("0501")
    assert r.events[0] == DisplacedEvent(unit="us2", path=["0401", "0501"], by="us1", combat=3)
    assert b.stacked_hexes() == {}


def test_7_82_displacement_chain() -> None:
    # us2 (0401) can only go to 0501, held by us3: us3 -> 0601, us2 -> 0501, us1 -> 0401 [7.82].
    b = line_board({"de1": "0201", "us1": "0301", "us2": "0401", "us3": "0501"})
    r = retreat(b, NOEX, "us1", 1, combat=1, away_from=[H("0201")])
    assert r.eliminated is None
    assert [b.unit_hex(u) for u in ("us1", "us2", "us3")] == [H("0401"), H("0501"), H("0601")]
    assert [(e.unit, e.by) for e in r.events if isinstance(e, DisplacedEvent)] == [
        ("us3", "us2"),
        ("us2", "us1"),
    ]


def test_7_82_displacement_that_would_eliminate_eliminates_the_retreater() -> None:
    # us2 in 0401 could only go to 0501, which de2 (0601) controls: displacing it would eliminate
    # it, so us1 is eliminated instead and us2 stays [7.82].
    b = line_board({"de1": "0201", "de2": "0601", "us1": "0301", "us2": "0401"})
    r = retreat(b, NOEX, "us1", 1, combat=1, away_from=[H("0201")])
    assert r.eliminated == "7.82"
    assert b.unit_hex("us2") == H("0401")
    assert b.status("us1") == "eliminated"


def test_7_73_vacant_hexes_first() -> None:
    # Two-row map. us1 in 0302 attacked from 0202 retreats 1; the hexes one step away that are not
    # controlled by de1 are 0401 (vacant... held by us2 here) and 0402 (vacant) and 0303 (vacant).
    # de1 in 0202 controls 0201, 0302's N neighbour 0301? (0202's neighbours: 0201 0302 0303 0203
    # 0103 0102), so 0303 is controlled. Left: 0301 (not adjacent to 0202), 0401, 0402.
    sc = tiny_scenario(
        cols=(1, 6),
        rows=(1, 4),
        units=[
            unit("de1", "DE", "infantry", 4, 4, 7),
            unit("us1", "US", "infantry", 2, 4, 7),
            unit("us2", "US", "infantry", 2, 4, 7),
            unit("us3", "US", "infantry", 2, 4, 7),
        ],
    )
    b = Board.from_state(
        sc, state_with(sc, {"de1": "0202", "us1": "0302", "us2": "0402", "us3": "0401"})
    )
    r = retreat(b, NOEX, "us1", 1, combat=1, away_from=[H("0202")])
    # 0401 and 0402 are held by friends, 0303 is controlled; 0301 is vacant, one hex away and
    # outside de1's zone -> vacant first [7.73] even though 0401/0402 lie farther from de1.
    assert r.path == [H("0302"), H("0301")]
    assert not [e for e in r.events if isinstance(e, DisplacedEvent)]


def test_7_7_default_farthest_from_attackers_then_lowest_hex() -> None:
    # us1 in 0303 attacked from 0302 (north) retreats 1. Vacant candidates outside de1's zone
    # (0302's neighbours 0301 0401 0402 0303 0202 0201 are controlled): 0304, 0403, 0203.
    # Distance to 0302: 0304 -> 2, 0403 -> 2, 0203 -> 2... all 2, so the lowest hex number: 0203.
    sc = tiny_scenario(
        units=[unit("de1", "DE", "infantry", 4, 4, 7), unit("us1", "US", "infantry", 2, 4, 7)]
    )
    b = Board.from_state(sc, state_with(sc, {"de1": "0302", "us1": "0303"}))
    assert {H("0304"), H("0403"), H("0203")} <= set(H("0303").neighbours())
    r = retreat(b, NOEX, "us1", 1, combat=1, away_from=[H("0302")])
    assert r.path == [H("0303"), H("0203")]
    # Retreating 2: hexes two from 0303 and three from 0302 (the farthest possible) are 0104,
    # 0204, 0305, 0404 and 0504 (listed by hand from the hex grid); all are reachable outside
    # de1's zone, so the lowest number, 0104 (via 0203), wins.
    b = Board.from_state(sc, state_with(sc, {"de1": "0302", "us1": "0303"}))
    r = retreat(b, NOEX, "us1", 2, combat=1, away_from=[H("0302")])
    assert r.path == [H("0303"), H("0203"), H("0104")]


def test_7_7_standing_preference() -> None:
    # The owner's standing order: us1 retreats toward 0404 -> picks 0403 over 0203.
    sc = tiny_scenario(
        units=[unit("de1", "DE", "infantry", 4, 4, 7), unit("us1", "US", "infantry", 2, 4, 7)]
    )
    b = Board.from_state(sc, state_with(sc, {"de1": "0302", "us1": "0303"}))
    prefs = StandingOrders.parse({"retreat": {"us1": ["0404"]}})
    r = retreat(b, NOEX, "us1", 1, combat=1, prefs=prefs, away_from=[H("0302")])
    # Candidates 0203, 0304, 0403: distances to 0404 are 2, 1, 1 -> 0304/0403 tie, lowest: 0304.
    assert r.path == [H("0303"), H("0304")]


class _Zone(Exclusive):
    def forced_entry_eliminates(self, scenario, board, unit_id, hex):  # type: ignore[no-untyped-def]
        return "15.26.3" if str(hex) == "0401" else None


def test_exclusive_forced_entry_eliminates() -> None:
    # A unit whose only retreat hex is in an exclusion zone is eliminated there.
    b = line_board({"de1": "0201", "us1": "0301"})
    r = retreat(b, _Zone(), "us1", 2, combat=1, away_from=[H("0201")])
    assert r.eliminated == "15.26.3"
    assert r.path == [H("0301"), H("0401")]
    assert b.status("us1") == "eliminated"


# --------------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------------

_UNITS = [unit(f"d{i}", "DE", "infantry", 3, 3, 7) for i in range(4)] + [
    unit(f"u{i}", "US", "infantry", 2, 2, 7) for i in range(5)
]
_SC = tiny_scenario(cols=(1, 5), rows=(1, 4), units=_UNITS, terrain={"lake": ["0303"]})
_HEXES = [str(h) for h in _SC.map.all_hexes() if str(h) != "0303"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_HEXES), min_size=9, max_size=9, unique=True),
    st.integers(1, 4),
    st.integers(0, 4),
)
def test_property_retreat_never_enters_enemy_zoc_and_never_stacks(
    hexes: list[str], dist: int, who: int
) -> None:
    positions = {u.id: h for u, h in zip(_UNITS, hexes, strict=True)}
    b = Board.from_state(_SC, state_with(_SC, positions))
    uid = f"u{who}"
    before = b.copy()
    r = retreat(b, NOEX, uid, dist, combat=1, away_from=[H(positions["d0"])])
    # Every hex entered after the first is outside every enemy zone [7.71] (enemies never move).
    for h in r.path[1:]:
        assert not before.enemy_zoc(h, "US")
        assert before.enemy_at(h, "US") is None
    # Each step one hex farther from the combat position [7.74].
    assert [r.path[0].distance(h) for h in r.path] == list(range(len(r.path)))
    if r.eliminated is None:
        assert len(r.path) == dist + 1
    # Displaced friends also avoid enemy zones, and nobody ends stacked [5.31].
    for _, path in r.displaced:
        assert not before.enemy_zoc(path[-1], "US")
    assert b.stacked_hexes() == {}


def test_7_82_enclosed_friends_cannot_make_way() -> None:
    # A row of US units shut in between the map edge and de2's zone: nobody in it can make way, so
    # us1 is eliminated [7.82] -- found without trying every order of pushing (the walk over the
    # friendly area finds no empty hex to end a chain in).
    b = line_board({"de1": "0201", "us1": "0301", "us2": "0401", "us3": "0501", "de2": "0701"})
    r = retreat(b, NOEX, "us1", 1, combat=1, away_from=[H("0201")])
    assert r.eliminated == "7.82"
    assert [b.unit_hex(u) for u in ("us2", "us3")] == [H("0401"), H("0501")]


_CROWD = [unit(f"d{i}", "DE", "infantry", 3, 3, 7) for i in range(3)] + [
    unit(f"u{i}", "US", "infantry", 2, 2, 7) for i in range(12)
]
_CROWD_SC = tiny_scenario(cols=(1, 5), rows=(1, 4), units=_CROWD, terrain={"lake": ["0303"]})


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(_HEXES), min_size=15, max_size=15, unique=True),
    st.integers(1, 3),
    st.integers(0, 11),
)
def test_property_7_82_pruned_search_chooses_as_the_full_search(
    hexes: list[str], dist: int, who: int
) -> None:
    # The walk that gives up on enclosed friendly areas (retreat._vacancy_reachable) only ever
    # saves work: on crowded boards the retreat, its displacements and the board after it are
    # exactly those of the search that tries every chain.
    import pbem.systems.westwall.retreat as retreat_module

    positions = {u.id: h for u, h in zip(_CROWD, hexes, strict=True)}
    uid = f"u{who}"
    away = [H(positions["d0"])]
    pruned = Board.from_state(_CROWD_SC, state_with(_CROWD_SC, positions))
    r1 = retreat(pruned, NOEX, uid, dist, combat=1, away_from=away)
    full = Board.from_state(_CROWD_SC, state_with(_CROWD_SC, positions))
    original = retreat_module._vacancy_reachable
    retreat_module._vacancy_reachable = lambda *a, **k: True  # type: ignore[assignment]
    try:
        r2 = retreat(full, NOEX, uid, dist, combat=1, away_from=away)
    finally:
        retreat_module._vacancy_reachable = original
    assert (r1.path, r1.eliminated, r1.displaced, r1.events) == (
        r2.path, r2.eliminated, r2.displaced, r2.events
    )
    assert dict(pruned.positions()) == dict(full.positions())


class _ZoneByHex(Exclusive):
    """An exclusion zone fixed by hex (as Bastogne's [15.26.3]): a retreat may keep its verdict."""

    forced_entry_by_hex = True

    def forced_entry_eliminates(self, scenario, board, unit_id, hex):  # type: ignore[no-untyped-def]
        return "15.26.3" if str(hex) in ("0104", "0204") else None


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.sampled_from(_HEXES), min_size=15, max_size=15, unique=True),
    st.integers(1, 3),
    st.integers(0, 11),
    st.booleans(),
)
def test_property_settled_step_verdicts_are_the_step_kind_definition(
    hexes: list[str], dist: int, who: int, zone: bool
) -> None:
    # Where no exclusive hook looks at where units stand, a retreat keeps each step's verdict in
    # its memo (retreat._Memo.settled) and displacements read it at once: every verdict, and the
    # whole retreat, are those of the definition (_step_kind without a memo, each time asked).
    import pbem.systems.westwall.retreat as retreat_module

    ex = _ZoneByHex() if zone else NOEX
    positions = {u.id: h for u, h in zip(_CROWD, hexes, strict=True)}
    board = Board.from_state(_CROWD_SC, state_with(_CROWD_SC, positions))
    memo = retreat_module._Memo("US", ex)
    assert memo.settled
    for uid in board.units_of("US"):
        here = board.unit_hex(uid)
        assert here is not None
        for nb in board.geo.neighbours[here]:
            for _ in range(2):  # computed, then read from the memo
                assert retreat_module._step_kind(board, ex, uid, here, nb, memo) == (
                    retreat_module._step_kind(board, ex, uid, here, nb, None)
                )
    uid = f"u{who}"
    away = [H(positions["d0"])]
    kept = Board.from_state(_CROWD_SC, state_with(_CROWD_SC, positions))
    r1 = retreat(kept, ex, uid, dist, combat=1, away_from=away)
    asked = Board.from_state(_CROWD_SC, state_with(_CROWD_SC, positions))
    original = retreat_module._Memo.__init__

    def unsettled(self: retreat_module._Memo, side: str, exclusive: Exclusive | None = None) -> None:
        original(self, side, exclusive)
        self.settled = False

    retreat_module._Memo.__init__ = unsettled  # type: ignore[method-assign]
    try:
        r2 = retreat(asked, ex, uid, dist, combat=1, away_from=away)
    finally:
        retreat_module._Memo.__init__ = original  # type: ignore[method-assign]
    assert (r1.path, r1.eliminated, r1.displaced, r1.events) == (
        r2.path, r2.eliminated, r2.displaced, r2.events
    )
    assert dict(kept.positions()) == dict(asked.positions())
