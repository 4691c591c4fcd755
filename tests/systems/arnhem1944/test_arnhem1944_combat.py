"""Arnhem 1944 combat [3.4, 4.2, 4.3, 7.1-7.6, 10.2, 11.2, 12.1, 13], each case at its boundaries,
on toy maps of a few hexes and the bundled (reconstructed) tables. Column indices of the bundled
CRT: 0 = 1:3, 1 = 1:2, 2 = 1:1, 3 = 2:1, 4 = 3:1, 5 = 4:1, 6 = 5:1, 7 = 6:1."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import RuleViolation
from pbem.systems.arnhem1944 import combat as c
from pbem.systems.arnhem1944.tables import Result, default_crt, default_tec

CRT = default_crt()
TEC = default_tec()
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def texts(problems: Sequence[RuleViolation]) -> list[str]:
    """The problems as a player reads them: ``message [case]``."""
    return [str(p) for p in problems]


class ToyMap:
    """Axial hex coordinates; hexsides default to no features."""

    def __init__(self, hexes: dict[str, tuple[int, int]], kinds: dict[str, str] | None = None,
                 sides: dict[frozenset[str], frozenset[str]] | None = None,
                 edge: Sequence[str] = ()) -> None:
        self.at = hexes
        self.by_pos = {v: k for k, v in hexes.items()}
        self.kinds = kinds or {}
        self.sides = sides or {}
        self.edge = set(edge)

    def neighbours(self, hex_id: str) -> Sequence[str]:
        q, r = self.at[hex_id]
        return [self.by_pos[(q + dq, r + dr)] for dq, dr in DIRS if (q + dq, r + dr) in self.by_pos]

    def distance(self, a: str, b: str) -> int:
        (q1, r1), (q2, r2) = self.at[a], self.at[b]
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def kind(self, hex_id: str) -> str:
        return self.kinds.get(hex_id, "clear")

    def side(self, a: str, b: str) -> frozenset[str]:
        return self.sides.get(frozenset({a, b}), frozenset())

    def at_edge(self, hex_id: str) -> bool:
        return hex_id in self.edge


# S and its six neighbours
RING = {"S": (0, 0), "a": (1, 0), "b": (-1, 0), "c": (0, 1), "d": (0, -1), "e": (1, -1),
        "f": (-1, 1)}
# a corridor west of S: S - P - Q, enemy a east of S, enemy T north of P and Q
CORRIDOR = {"S": (0, 0), "a": (1, 0), "P": (-1, 0), "Q": (-2, 0), "T": (-1, -1)}


def unit(uid: str, cf: int, **kw: object) -> c.CombatUnit:
    return c.CombatUnit(uid, cf, **kw)  # type: ignore[arg-type]


def one_on_one(att_cf: int = 6, def_cf: int = 3, kind: c.AttackType = "N",
               **kw: object) -> c.Attack:
    return c.Attack((c.Attacker(unit("A1", att_cf), kind),), (unit("D1", def_cf),),
                    **kw)  # type: ignore[arg-type]


# -- attack types ------------------------------------------------------------------------------


def test_7_1_mp_cost_mobile_1_normal_3_prepared_5() -> None:
    assert c.MP_COST == {"M": 1, "N": 3, "P": 5}
    assert [c.mp_cost_halves(t) for t in ("M", "N", "P")] == [2, 6, 10]


def test_7_1_overall_type_is_the_cheapest_used() -> None:
    assert c.overall_type(["P", "N"]) == "N"
    assert c.overall_type(["P", "M", "N"]) == "M"
    assert c.overall_type(["P"]) == "P"
    with pytest.raises(ValueError, match=r"\[7.2\]"):
        c.overall_type([])


def test_7_1_artillery_and_air_by_attack_type() -> None:
    assert not c.artillery_allowed("M")
    assert c.artillery_allowed("N") and c.artillery_allowed("P")
    assert [c.air_allowed(t, attacker=True) for t in ("M", "N", "P")] == [False, False, True]
    assert c.air_allowed("P", attacker=False)


def test_13_first_airborne_exception_any_type_but_mobile() -> None:
    assert c.air_allowed("N", attacker=True, exception_1ab=True)
    assert not c.air_allowed("M", attacker=True, exception_1ab=True)
    assert not c.air_allowed("N", attacker=False, exception_1ab=True)


def test_7_1_attack_needs_its_mp() -> None:
    assert texts(c.attack_problems("P", 10, [])) == []
    problems = texts(c.attack_problems("P", 9, []))
    assert problems == ["a prepared attack costs 5 MP; the unit has 9/2 left [7.1]"]
    assert texts(c.attack_problems("M", 2, [])) == [] and texts(c.attack_problems("M", 1, [])) != []


def test_3_4_mobile_assaults_may_follow_each_other() -> None:
    assert texts(c.attack_problems("M", 2, ["M", "M"])) == []
    assert c.moves_after_combat("M")


def test_3_4_normal_or_prepared_attack_once_a_turn() -> None:
    assert texts(c.attack_problems("M", 10, ["N"])) == [
        "a unit that made a normal or prepared attack attacks no more this turn [3.4, 7.2]"]
    assert texts(c.attack_problems("P", 10, ["P"])) != []
    assert "[3.4, 7.2]" in texts(c.attack_problems("N", 10, ["M"]))[0]
    assert not c.moves_after_combat("N") and not c.moves_after_combat("P")


def test_4_3_combat_compulsory_after_moving_into_an_enemy_zone() -> None:
    assert c.attack_compulsory(ended_move_in_enemy_zoc=True, terrain="clear")
    assert c.attack_compulsory(ended_move_in_enemy_zoc=True, terrain="woods")
    assert not c.attack_compulsory(ended_move_in_enemy_zoc=False, terrain="clear")


def test_4_3_no_compulsory_combat_in_town_position_or_after_advance() -> None:
    assert not c.attack_compulsory(ended_move_in_enemy_zoc=True, terrain="town")
    assert not c.attack_compulsory(ended_move_in_enemy_zoc=True, terrain="city")
    assert not c.attack_compulsory(ended_move_in_enemy_zoc=True, terrain="clear",
                                   prepared_position=True)
    assert not c.attack_compulsory(ended_move_in_enemy_zoc=True, terrain="clear",
                                   by_advance=True)


# -- odds [7.4] ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("att", "dfn", "col"), [
    (6, 3, 3),    # exactly 2:1
    (7, 3, 4),    # 2.33 -> 3:1
    (5, 2, 4),    # 2.5 -> 3:1
    (4, 7, 2),    # 1:1.75 -> 1:1
    (2, 5, 1),    # 1:2.5 -> 1:2
    (2, 6, 0),    # exactly 1:3
    (1, 4, 0),    # below the table: 1:3
    (30, 5, 7),   # 6:1 exactly
    (31, 5, 7),   # above the table: 6:1
    (3, 0, 7),    # no defence factor at all
])
def test_7_4_odds_rounded_in_the_attackers_favour(att: int, dfn: int, col: int) -> None:
    assert c.odds_column(att, dfn, CRT) == col


@pytest.mark.parametrize(("att", "dfn", "col"), [(5, 2, 3), (4, 7, 1), (1, 4, 0), (6, 3, 3),
                                                 (99, 1, 7)])
def test_7_4_odds_rounded_for_the_defender_when_a_table_says_so(att: int, dfn: int,
                                                                 col: int) -> None:
    crt = dataclasses.replace(CRT, odds_rounding="defender")
    assert c.odds_column(att, dfn, crt) == col


@given(st.integers(0, 60), st.integers(1, 60))
def test_7_4_more_attack_never_a_lower_column(att: int, dfn: int) -> None:
    col = c.odds_column(att, dfn, CRT)
    assert c.odds_column(att + 1, dfn, CRT) >= col
    assert c.odds_column(att, dfn + 1, CRT) <= col
    if 0 < col:  # rounded up: the column's ratio is at least the exact one, the previous's below
        assert CRT.columns[col - 1] * dfn < att
    if col < len(CRT.columns) - 1:
        assert CRT.columns[col] * dfn >= att


# -- armour [7.3] -----------------------------------------------------------------------------------


def _armour(a: int, d: int, a_kind: c.RatingKind = "antitank",
            d_kind: c.RatingKind = "antitank") -> int:
    return c.armour_shift([unit("x", 1, rating=a, rating_kind=a_kind)],
                          [unit("y", 1, rating=d, rating_kind=d_kind)])


@pytest.mark.parametrize(("a", "d", "shift"), [
    (3, 2, 2),    # 1.5 rounds to 2:1
    (5, 2, 3),    # 2.5 rounds to 3:1
    (7, 2, 4),    # 3.5 rounds to 4:1
    (9, 2, 4),    # 4.5 is capped at 4:1
    (10, 1, 4),   # 10:1 capped
    (2, 0, 4),    # ratings against none: the cap
])
def test_7_3_armour_shift_capped_at_4_to_1(a: int, d: int, shift: int) -> None:
    assert _armour(a, d) == shift


@pytest.mark.parametrize(("a", "d", "shift"), [(1, 9, -4), (0, 2, -4), (2, 7, -4), (2, 5, -3)])
def test_7_3_armour_shift_capped_at_1_to_4(a: int, d: int, shift: int) -> None:
    assert _armour(a, d) == shift


@given(st.integers(0, 30), st.integers(0, 30))
def test_7_3_armour_shift_is_the_same_from_either_side(x: int, y: int) -> None:
    assert _armour(x, y) == -_armour(y, x)
    assert -c.ARMOUR_CAP <= _armour(x, y) <= c.ARMOUR_CAP


def test_7_3_five_to_six_is_1_to_1_and_the_larger_side_gets_a_column() -> None:
    assert _armour(5, 6) == -1
    assert _armour(4, 3) == 1


def test_7_3_equal_ratings_the_armour_side_gets_the_1_to_1_bonus() -> None:
    assert _armour(2, 2, "armour", "antitank") == 1
    assert _armour(2, 2, "antitank", "armour") == -1
    assert _armour(2, 2) == 0
    assert _armour(0, 0) == 0


# -- the other shifts ------------------------------------------------------------------------------------


def test_10_2_out_of_supply_one_column_against_that_side() -> None:
    base = c.odds(one_on_one(), CRT, TEC)
    assert (base.base, base.column) == (3, 3)
    att = c.Attack((c.Attacker(unit("A1", 6, in_supply=False), "N"),), (unit("D1", 3),))
    assert c.odds(att, CRT, TEC).column == 2
    dfn = c.Attack((c.Attacker(unit("A1", 6), "N"),), (unit("D1", 3, in_supply=False),))
    assert c.odds(dfn, CRT, TEC).column == 4
    # two attackers out of supply still cost one column
    two = c.Attack((c.Attacker(unit("A1", 3, in_supply=False), "N"),
                    c.Attacker(unit("A2", 3, in_supply=False), "N")), (unit("D1", 3),))
    assert c.odds(two, CRT, TEC).column == 2


def test_13_air_support_one_column_right_and_defensive_one_left() -> None:
    assert c.odds(one_on_one(kind="P", air_attacker=True), CRT, TEC).column == 4
    assert c.odds(one_on_one(kind="P", air_defender=True), CRT, TEC).column == 2


def test_7_3_bridge_shift_only_if_every_attacker_is_across_a_bridge() -> None:
    over = frozenset({"river", "bridge", "road"})
    mixed = c.Attack((c.Attacker(unit("A1", 3), "N", over), c.Attacker(unit("A2", 3), "N")),
                     (unit("D1", 3),))
    assert c.bridge_shift(mixed, TEC) == 0 and c.odds(mixed, CRT, TEC).column == 3
    both = c.Attack((c.Attacker(unit("A1", 3), "N", over),
                     c.Attacker(unit("A2", 3), "N", frozenset({"canal", "rail-bridge"}))),
                    (unit("D1", 3),))
    assert c.bridge_shift(both, TEC) == -1 and c.odds(both, CRT, TEC).column == 2


def test_6_3_terrain_shift_from_the_tec() -> None:
    assert c.odds(one_on_one(terrain="woods"), CRT, TEC).column == 2
    assert c.odds(one_on_one(terrain="city"), CRT, TEC).column == 1
    assert c.odds(one_on_one(terrain="polder"), CRT, TEC).column == 3


def test_11_2_prepared_position_adds_its_column() -> None:
    found = c.odds(one_on_one(terrain="woods", prepared_position=True), CRT, TEC)
    assert found.column == 1 and found.shift == -2
    assert any("[11.2]" in line for line in found.lines)


def test_6_3_stream_shift_only_when_every_attacker_crosses_it() -> None:
    stream = frozenset({"stream"})
    both = c.Attack((c.Attacker(unit("A1", 3), "N", stream),
                     c.Attacker(unit("A2", 3), "N", stream)), (unit("D1", 3),))
    assert c.hexside_shift(both, TEC) == -1
    one = c.Attack((c.Attacker(unit("A1", 3), "N", stream), c.Attacker(unit("A2", 3), "N")),
                   (unit("D1", 3),))
    assert c.hexside_shift(one, TEC) == 0


def test_12_1_ferry_halves_the_attacker_rounding_up() -> None:
    attack = c.Attack((c.Attacker(unit("A1", 5), "N", frozenset({"river", "ferry"})),
                       c.Attacker(unit("A2", 2), "N")), (unit("D1", 4),))
    assert c.attack_strength(attack, TEC) == 3 + 2
    assert c.odds(attack, CRT, TEC).column == 3  # 5:4 -> 2:1, no shift for a ferry


def test_8_2_support_adds_to_both_sides() -> None:
    attack = one_on_one(6, 3, attack_support=3, defence_support=2)
    assert (c.attack_strength(attack, TEC), c.defence_strength(attack)) == (9, 5)
    assert c.odds(attack, CRT, TEC).column == 3  # 9:5 = 1.8 -> 2:1


def test_12_1_no_attack_across_a_river_without_a_crossing() -> None:
    river = c.Attack((c.Attacker(unit("A1", 6), "N", frozenset({"river"})),), (unit("D1", 3),))
    assert texts(c.combat_problems(river, TEC)) == [
        "A1 cannot attack across river without a bridge or ferry [12.1]"]
    bridged = c.Attack((c.Attacker(unit("A1", 6), "N", frozenset({"river", "bridge"})),),
                       (unit("D1", 3),))
    assert texts(c.combat_problems(bridged, TEC)) == []


def test_7_1_mobile_assault_has_no_support_of_any_kind() -> None:
    problems = texts(c.combat_problems(one_on_one(kind="M", attack_support=2, defence_support=1,
                                            air_attacker=True), TEC))
    assert problems == ["a mobile assault has no artillery support [7.1]",
                        "against a mobile assault the defender has no artillery support [7.1]",
                        "no air support for a mobile assault [7.1, 13]"]
    assert texts(c.combat_problems(one_on_one(kind="N", air_attacker=True), TEC)) == [
        "no air support for a normal attack [7.1, 13]"]
    assert texts(c.combat_problems(one_on_one(kind="N", air_attacker=True, exception_1ab=True),
                             TEC)) == []


def test_7_4_column_clamps_after_shifts() -> None:
    low = c.odds(one_on_one(1, 9, terrain="city"), CRT, TEC)
    assert (low.base, low.column, low.heading) == (0, 0, "1:3")
    assert "clamped" in low.lines[-1]
    high = c.odds(one_on_one(30, 1, kind="P", air_attacker=True), CRT, TEC)
    assert (high.column, high.heading) == (7, "6:1")


def test_7_4_result_reads_the_grid_of_the_overall_type() -> None:
    mixed = c.Attack((c.Attacker(unit("A1", 3), "P"), c.Attacker(unit("A2", 3), "M")),
                     (unit("D1", 3),))
    found, res = c.result(mixed, 6, CRT, TEC)
    assert found.column == 3 and res == Result(0, 1)  # the M grid, die 6, 2:1
    prepared = c.Attack((c.Attacker(unit("A1", 3), "P"), c.Attacker(unit("A2", 3), "P")),
                        (unit("D1", 3),))
    assert c.result(prepared, 6, CRT, TEC)[1] == Result(0, 3, 0, 1)  # "0/3r"


# -- the split [7.5] -----------------------------------------------------------------------------


def test_7_5_red_result_needs_one_step_before_retreat() -> None:
    assert texts(c.split_problems(2, 1, 4, c.Split(0, 2))) == [
        "this red result needs at least 1 step loss before any retreat [7.5]"]
    assert texts(c.split_problems(2, 1, 4, c.Split(1, 1))) == []
    assert texts(c.split_problems(2, 1, 4, c.Split(2, 0))) == []


def test_7_5_green_result_needs_two_steps_before_retreat() -> None:
    assert texts(c.split_problems(3, 2, 4, c.Split(1, 2))) == [
        "this green result needs at least 2 step losses before any retreat [7.5]"]
    assert texts(c.split_problems(3, 2, 4, c.Split(2, 1))) == []


def test_7_5_steps_and_hexes_make_the_result() -> None:
    assert texts(c.split_problems(3, 0, 4, c.Split(1, 1))) == [
        "1 step losses and 1 hexes do not make the result 3 [7.5]"]
    assert texts(c.split_problems(3, 0, 4, c.Split(0, 3))) == []
    assert texts(c.split_problems(3, 0, 4, c.Split(-1, 4))) != []


def test_7_5_elimination_ends_the_result() -> None:
    assert texts(c.split_problems(3, 2, 1, c.Split(1, 0))) == []  # green 3 on a one-step unit
    assert texts(c.split_problems(3, 2, 1, c.Split(1, 2))) == ["an eliminated stack does not retreat [7.5]"]
    assert texts(c.split_problems(2, 0, 3, c.Split(3, 0))) == ["3 step losses exceed the result 2 [7.5]"]
    assert texts(c.split_problems(2, 0, 1, c.Split(2, 0))) == ["2 step losses from a stack of 1 steps [7.5]"]


def test_7_5_every_legal_split() -> None:
    assert c.splits(3, 1, 5) == [c.Split(1, 2), c.Split(2, 1), c.Split(3, 0)]
    assert c.splits(3, 2, 2) == [c.Split(2, 0)]
    assert c.splits(2, 0, 1) == [c.Split(0, 2), c.Split(1, 0)]
    assert c.splits(0, 0, 3) == [c.Split(0, 0)]


def test_7_5_attack_table_minimum_for_a_mobile_attacker() -> None:
    assert c.minimum_losses(Result(1, 0), "M", CRT, attacker=True) == 1
    assert c.minimum_losses(Result(2, 0), "M", CRT, attacker=True) == 1
    assert c.minimum_losses(Result(1, 0), "N", CRT, attacker=True) == 0
    assert c.minimum_losses(Result(2, 0, 1, 0), "N", CRT, attacker=True) == 1
    assert c.minimum_losses(Result(0, 1), "M", CRT, attacker=True) == 0
    assert c.minimum_losses(Result(0, 3, 0, 2), "P", CRT, attacker=False) == 2


def test_7_5_first_loss_from_armour_when_both_sides_have_it() -> None:
    tank, inf = unit("tank", 4, steps=2, rating=2, rating_kind="armour"), unit("inf", 3, steps=2)
    gun = unit("pak", 1, rating=1)
    assert c.first_loss_candidates([tank, inf], [gun]) == frozenset({"tank"})
    assert texts(c.loss_order_problems([tank, inf], [gun], ["inf", "tank"])) == [
        "the first loss must come from an armour or antitank unit (tank), not inf [7.5]"]
    assert texts(c.loss_order_problems([tank, inf], [gun], ["tank", "inf"])) == []
    assert c.first_loss_candidates([tank, inf], [unit("rifles", 3)]) is None
    assert texts(c.loss_order_problems([tank, inf], [unit("rifles", 3)], ["inf"])) == []
    assert texts(c.loss_order_problems([tank, inf], [gun], ["tank", "tank", "tank"])) == [
        "tank has no step left to lose [7.5]"]
    # the case and the unit travel as fields, not inside the text
    assert c.loss_order_problems([tank, inf], [gun], ["tank", "tank", "tank"]) == [
        RuleViolation("7.5", "tank has no step left to lose", unit="tank")]
    assert c.attack_problems("N", 10, ["M"])[0].rule == "3.4, 7.2"


# -- zones, retreat, advance -----------------------------------------------------------------------


def test_4_2_no_zoc_across_river_or_canal_even_bridged() -> None:
    m = ToyMap({"X": (0, 0), "Y": (1, 0), "Z": (0, 1), "V": (-1, 1)},
               sides={frozenset({"X", "Y"}): frozenset({"river"}),
                      frozenset({"X", "Z"}): frozenset({"stream"})})
    assert c.zone(m, TEC, ["X"]) == frozenset({"Z", "V"})
    bridged = ToyMap(m.at, sides={frozenset({"X", "Y"}): frozenset({"canal", "bridge"})})
    assert c.zone(bridged, TEC, ["X"]) == frozenset({"Z", "V"})
    open_ = ToyMap(m.at)
    assert c.zone(open_, TEC, ["X"]) == frozenset({"Y", "Z", "V"})


def _ring_surroundings(m: ToyMap, friends: frozenset[str] = frozenset()) -> c.Surroundings:
    return c.Surroundings(frozenset({"e"}), c.zone(m, TEC, ["e"]), friends)


def test_7_6_retreat_priorities_zone_then_terrain_then_distance() -> None:
    m = ToyMap(RING, kinds={"b": "woods"})
    s = _ring_surroundings(m, friends=frozenset({"d"}))
    assert s.enemy_zoc == frozenset({"S", "a", "d"})
    # a: enemy zone; b: woods (4 halves); d: a friend negates the zone but it is next to e;
    # c and f: clear, two hexes from e
    assert c.retreat_choices(m, TEC, s, ["S"]) == ["c", "f"]
    assert texts(c.retreat_problems(m, TEC, s, "S", 1, ["b"])) == [
        "retreat hex 1 may not be b: the priorities allow only c, f [7.6]"]
    assert texts(c.retreat_problems(m, TEC, s, "S", 1, ["f"])) == []


def test_7_6_retreat_prefers_a_zone_free_hex_over_cheap_terrain() -> None:
    m = ToyMap({k: RING[k] for k in ("S", "a", "b", "e")}, kinds={"b": "marsh"})
    s = _ring_surroundings(m)
    assert c.retreat_choices(m, TEC, s, ["S"]) == ["b"]  # a is in e's zone


def test_7_6_no_retreat_into_an_enemy_hex_or_back_along_the_path() -> None:
    m = ToyMap(CORRIDOR)
    s = c.Surroundings(frozenset({"a", "T"}), c.zone(m, TEC, ["a", "T"]))
    assert c.retreat_choices(m, TEC, s, ["S"]) == ["P"]
    assert c.retreat_choices(m, TEC, s, ["S", "P"]) == ["Q"]  # not T, not S again


def test_4_3_one_step_per_enemy_zoc_hex_entered_on_retreat() -> None:
    m = ToyMap(CORRIDOR)
    s = c.Surroundings(frozenset({"a", "T"}), c.zone(m, TEC, ["a", "T"]))
    assert texts(c.retreat_problems(m, TEC, s, "S", 2, ["P", "Q"])) == []
    assert c.retreat_outcome(s, 2, ["P", "Q"]) == c.Retreat(("P", "Q"), 2, 0)
    with_friend = dataclasses.replace(s, friends=frozenset({"P"}))
    assert c.retreat_outcome(with_friend, 2, ["P", "Q"]).zoc_losses == 1


def test_7_6_blocked_retreat_costs_a_step_per_hex_left() -> None:
    m = ToyMap(CORRIDOR)
    s = c.Surroundings(frozenset({"a", "T"}), c.zone(m, TEC, ["a", "T"]))
    assert c.retreat_choices(m, TEC, s, ["S", "P", "Q"]) == []
    assert texts(c.retreat_problems(m, TEC, s, "S", 3, ["P", "Q"])) == []
    out = c.retreat_outcome(s, 3, ["P", "Q"])
    assert (out.zoc_losses, out.blocked_losses, out.losses, out.eliminated) == (2, 1, 3, False)


def test_7_6_retreat_may_not_stop_short_while_a_hex_is_open() -> None:
    m = ToyMap(CORRIDOR)
    s = c.Surroundings(frozenset({"a", "T"}), c.zone(m, TEC, ["a", "T"]))
    assert texts(c.retreat_problems(m, TEC, s, "S", 2, ["P"])) == [
        "the retreat stops after 1 of 2 hexes; it may go on to Q [7.6]"]
    assert texts(c.retreat_problems(m, TEC, s, "S", 1, ["P", "Q"])) == [
        "the retreat runs 2 hexes; the result allows 1 [7.6]"]


def test_7_6_retreat_off_the_map_eliminates() -> None:
    m = ToyMap(CORRIDOR, edge=["Q"])
    s = c.Surroundings(frozenset({"a", "T"}), c.zone(m, TEC, ["a", "T"]))
    assert c.retreat_choices(m, TEC, s, ["S", "P", "Q"]) == [c.OFF_MAP]
    assert texts(c.retreat_problems(m, TEC, s, "S", 3, ["P", "Q", c.OFF_MAP])) == []
    assert c.retreat_outcome(s, 3, ["P", "Q", c.OFF_MAP]).eliminated


def test_12_1_retreat_crosses_a_river_only_by_a_bridge() -> None:
    river = {frozenset({"P", "Q"}): frozenset({"river"})}
    m = ToyMap(CORRIDOR, sides=river)
    s = c.Surroundings(frozenset({"a"}), c.zone(m, TEC, ["a"]))
    assert c.retreat_choices(m, TEC, s, ["S", "P"]) == ["T"]
    bridged = ToyMap(CORRIDOR, sides={frozenset({"P", "Q"}): frozenset({"river", "bridge"})})
    assert c.retreat_choices(bridged, TEC, s, ["S", "P"]) == ["Q", "T"]


VACATED = ["S", "P", "Q"]
NO_ZONE = c.Surroundings(frozenset(), frozenset())


def test_7_6_advance_limited_by_attack_type() -> None:
    assert texts(c.advance_problems(CRT, "M", NO_ZONE, VACATED, ["S"], took_retreat=False)) == []
    assert texts(c.advance_problems(CRT, "M", NO_ZONE, VACATED, ["S", "P"], took_retreat=False)) == [
        "after a mobile assault the advance is at most 1 hex [7.6]"]
    assert texts(c.advance_problems(CRT, "N", NO_ZONE, VACATED, ["S", "P"], took_retreat=False)) == []
    assert texts(c.advance_problems(CRT, "N", NO_ZONE, VACATED, VACATED, took_retreat=False)) == [
        "after a normal attack the advance is at most 2 hexes [7.6]"]
    assert texts(c.advance_problems(CRT, "P", NO_ZONE, VACATED, VACATED, took_retreat=False)) == []


def test_7_6_advance_follows_the_vacated_hex_and_retreat_path() -> None:
    assert texts(c.advance_problems(CRT, "P", NO_ZONE, VACATED, ["P"], took_retreat=False)) == [
        "an advance follows the vacated hex and then the retreat path: S - P - Q [7.6]"]
    assert texts(c.advance_problems(CRT, "P", NO_ZONE, ["S"], ["S", "P"], took_retreat=False)) == [
        "an advance follows the vacated hex and then the retreat path: S [7.6]"]


def test_7_6_advance_stops_entering_enemy_zoc_first_hex_excluded() -> None:
    zone_sp = c.Surroundings(frozenset({"T"}), frozenset({"S", "P"}))
    assert texts(c.advance_problems(CRT, "P", zone_sp, VACATED, VACATED, took_retreat=False)) == [
        "the advance stops on entering the enemy zone at P [7.6]"]
    assert c.advance_problems(CRT, "P", zone_sp, VACATED, VACATED, took_retreat=False)[0].hex == "P"
    assert texts(c.advance_problems(CRT, "P", zone_sp, VACATED, ["S", "P"], took_retreat=False)) == []
    zone_s = c.Surroundings(frozenset({"T"}), frozenset({"S"}))
    assert texts(c.advance_problems(CRT, "P", zone_s, VACATED, VACATED, took_retreat=False)) == []


def test_7_6_attacker_that_retreated_may_not_advance() -> None:
    assert texts(c.advance_problems(CRT, "P", NO_ZONE, VACATED, ["S"], took_retreat=True)) == [
        "a unit that took any of its result as retreat may not advance [7.6]"]
    assert texts(c.advance_problems(CRT, "P", NO_ZONE, VACATED, [], took_retreat=True)) == []


# -- optional morale ----------------------------------------------------------------------------


def test_7_5_optional_morale_ratings_best_of_the_stack() -> None:
    assert c.stack_morale(["other", "elite"]) == 8
    assert c.stack_morale(["artillery-tettau"]) == 6
    assert c.stack_morale([]) == 7


def test_7_5_optional_morale_pass_turns_a_hex_into_a_step() -> None:
    assert c.morale_split(3, 1, 7, [(3, 3), (4, 2)]) == c.Split(3, 0)  # 6 < 7 twice
    assert c.morale_split(3, 1, 7, [(3, 3), (3, 4)]) == c.Split(2, 1)  # 7 is not less than 7
    assert c.morale_split(3, 1, 7, []) == c.Split(1, 2)
    assert c.morale_split(2, 2, 8, []) == c.Split(2, 0)  # compulsory steps unchanged


def test_7_5_optional_morale_no_test_after_a_failure() -> None:
    with pytest.raises(ValueError, match="after a failed one"):
        c.morale_split(3, 0, 7, [(6, 6), (1, 1)])
    with pytest.raises(ValueError, match="2 morale tests for 1 hexes"):
        c.morale_split(2, 1, 7, [(1, 1), (1, 1)])
