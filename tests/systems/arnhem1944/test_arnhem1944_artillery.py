"""Arnhem 1944 artillery [3.2, 7.1, 8, 8.1-8.4, errata] at its boundaries, on a row of hexes
H0..H6 (distance = difference of the numbers) and the bundled (reconstructed) tables."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from pbem.errors import RuleViolation
from pbem.systems.arnhem1944 import artillery as a
from pbem.systems.arnhem1944.combat import CombatUnit
from pbem.systems.arnhem1944.tables import Result, default_crt, default_tec

CRT = default_crt()
TEC = default_tec()


def texts(problems: Sequence[RuleViolation]) -> list[str]:
    """The problems as a player reads them: ``message [case]``."""
    return [str(p) for p in problems]


class Row:
    """Hexes H0..H6 in a row."""

    def neighbours(self, hex_id: str) -> Sequence[str]:
        i = int(hex_id[1:])
        return [f"H{j}" for j in (i - 1, i + 1) if 0 <= j <= 6]

    def distance(self, x: str, y: str) -> int:
        return abs(int(x[1:]) - int(y[1:]))

    def kind(self, hex_id: str) -> str:
        return "clear"

    def side(self, x: str, y: str) -> frozenset[str]:
        return frozenset()

    def at_edge(self, hex_id: str) -> bool:
        return hex_id in ("H0", "H6")


ROW = Row()
SS9 = a.Affiliation("german", "II SS", "9SS")
SS10 = a.Affiliation("german", "II SS", "10SS")
GUARDS = a.Affiliation("allied", "XXX", "Guards")
PARA = a.Affiliation("allied", "I AB", "1AB", parachute=True)
GERMAN_9SS_GUNS = a.Artillery("9SS-art", "H0", bv=5, df=3, range=3, affiliation=SS9,
                              activated=True)


def test_8_range_counts_the_target_not_the_artillery_hex() -> None:
    assert a.in_range(ROW, GERMAN_9SS_GUNS, "H3")
    assert not a.in_range(ROW, GERMAN_9SS_GUNS, "H4")
    assert a.in_range(ROW, GERMAN_9SS_GUNS, "H1")


def test_8_2_artillery_next_to_the_target_shares_the_results() -> None:
    assert a.exposed(ROW, GERMAN_9SS_GUNS, "H1")
    assert not a.exposed(ROW, GERMAN_9SS_GUNS, "H2")


def test_8_4_bv_halved_round_up_against_prepared_wood_built_up() -> None:
    assert [a.bombardment_value(dataclasses.replace(GERMAN_9SS_GUNS, bv=bv), True)
            for bv in (5, 4, 1)] == [3, 2, 1]
    assert a.bombardment_value(GERMAN_9SS_GUNS, False) == 5
    assert [k for k in ("clear", "polder", "woods", "town", "city", "marsh")
            if a.protected(TEC, k, False)] == ["woods", "town", "city"]
    assert a.protected(TEC, "clear", True)


def test_8_4_each_unit_halved_on_its_own_and_df_never() -> None:
    guns = [dataclasses.replace(GERMAN_9SS_GUNS, bv=3), dataclasses.replace(GERMAN_9SS_GUNS, bv=3)]
    assert a.attack_support(guns, True) == 2 + 2  # not (3 + 3) / 2
    assert a.attack_support(guns, False) == 6
    assert a.defence_support(guns) == 6


def test_8_4_divisional_integrity() -> None:
    assert a.may_support(GERMAN_9SS_GUNS, SS9)
    assert not a.may_support(GERMAN_9SS_GUNS, SS10)
    corps = a.Artillery("xxx-art", "H0", 4, 2, 4, a.Affiliation("allied", "XXX"))
    assert a.may_support(corps, GUARDS)
    assert not a.may_support(corps, PARA)
    assert not a.may_support(corps, SS9)


def test_8_4_xxx_corps_supports_parachute_units() -> None:
    xxx = a.Artillery("64-med", "H0", 4, 2, 4, a.Affiliation("allied", "XXX"),
                      supports_parachute=True)
    assert a.may_support(xxx, PARA)
    assert not a.may_support(xxx, a.Affiliation("allied", "I AB", "1AB"))  # 1AB, not parachute


def test_8_4_swoboda_supports_every_german_unit() -> None:
    flak = a.Artillery("swoboda", "H0", 2, 2, 2, a.Affiliation("german", None, "Swoboda"),
                       supports_side=True)
    assert a.may_support(flak, SS10) and a.may_support(flak, a.Affiliation("german"))
    assert not a.may_support(flak, GUARDS)


def test_8_2_attack_support_when_activated_in_range_and_affiliated() -> None:
    assert texts(a.attack_support_problems(GERMAN_9SS_GUNS, ROW, "H3", "N", [SS10, SS9])) == []
    assert texts(a.attack_support_problems(GERMAN_9SS_GUNS, ROW, "H3", "P", [SS9])) == []


def test_7_1_no_artillery_in_a_mobile_assault() -> None:
    assert texts(a.attack_support_problems(GERMAN_9SS_GUNS, ROW, "H3", "M", [SS9])) == [
        "a mobile assault has no artillery support [7.1]"]


def test_8_2_attack_support_refusals_each_name_the_case() -> None:
    idle = dataclasses.replace(GERMAN_9SS_GUNS, activated=False)
    assert texts(a.attack_support_problems(idle, ROW, "H3", "N", [SS9])) == [
        "9SS-art must be activated to support an attack [8.2]"]
    used = dataclasses.replace(GERMAN_9SS_GUNS, bv_used=True)
    assert texts(a.attack_support_problems(used, ROW, "H3", "N", [SS9])) == [
        "9SS-art has used its BV this turn [8]"]
    assert texts(a.attack_support_problems(GERMAN_9SS_GUNS, ROW, "H4", "N", [SS9])) == [
        "9SS-art is 4 hexes from H4; its range is 3 [8]"]
    ooc = dataclasses.replace(GERMAN_9SS_GUNS, in_command=False)
    assert texts(a.attack_support_problems(ooc, ROW, "H3", "N", [SS9])) == [
        "9SS-art is out of command and gives no support [3.2]"]
    assert texts(a.attack_support_problems(GERMAN_9SS_GUNS, ROW, "H3", "N", [SS10])) == [
        "9SS-art may not support these units (divisional integrity) [8.4]"]


def test_8_2_defensive_support_only_before_activation_and_outside_enemy_zoc() -> None:
    idle = dataclasses.replace(GERMAN_9SS_GUNS, activated=False)
    assert texts(a.defence_support_problems(idle, ROW, "H2", "N", [SS9])) == []
    assert texts(a.defence_support_problems(GERMAN_9SS_GUNS, ROW, "H2", "N", [SS9])) == [
        "9SS-art has been activated this turn; only artillery not yet activated gives defensive "
        "support [8, 8.2]"]
    assert texts(a.defence_support_problems(dataclasses.replace(idle, in_enemy_zoc=True), ROW, "H2",
                                      "P", [SS9])) == [
        "9SS-art is in an enemy zone of control [8.2, 8.4]"]
    assert texts(a.defence_support_problems(dataclasses.replace(idle, df_used=True), ROW, "H2", "N",
                                      [SS9])) == ["9SS-art has used its DF this turn [8]"]


def test_8_2_no_fire_support_against_bombardment_or_mobile_assault() -> None:
    idle = dataclasses.replace(GERMAN_9SS_GUNS, activated=False)
    assert texts(a.defence_support_problems(idle, ROW, "H2", None, [SS9])) == [
        "no fire support for units being bombarded [8.2]"]
    assert texts(a.defence_support_problems(idle, ROW, "H2", "M", [SS9])) == [
        "against a mobile assault the defender has no artillery support [7.1]"]


def test_8_3_artillery_attacked_uses_its_df_and_armour_1() -> None:
    assert a.as_defender(GERMAN_9SS_GUNS) == CombatUnit("9SS-art", 3, 1, 1, "armour", True)
    werfer = a.Artillery("werfer-102", "H0", 6, 4, 4, SS10, df_when_attacked=1)
    assert a.defence_factor(werfer) == 1 and a.as_defender(werfer).cf == 1
    assert a.defence_support([werfer]) == 4  # its DF in support is the printed one


FRIEND_NEXT = [("H4", SS9)]


def test_8_1_bombardment_minimum_ratio() -> None:
    guns = dataclasses.replace(GERMAN_9SS_GUNS, hex="H2", bv=4)
    assert texts(a.bombardment_problems([guns], ROW, CRT, "H5", 4, False, FRIEND_NEXT)) == []
    weak = dataclasses.replace(guns, bv=3)
    assert texts(a.bombardment_problems([weak], ROW, CRT, "H5", 4, False, FRIEND_NEXT)) == [
        "a bombardment of 3 against 4 is below the minimum 1:1 [8.1]"]
    six = dataclasses.replace(guns, bv=6)  # halved to 3 in woods
    assert texts(a.bombardment_problems([six], ROW, CRT, "H5", 4, True, FRIEND_NEXT)) != []
    assert texts(a.bombardment_problems([six], ROW, CRT, "H5", 3, True, FRIEND_NEXT)) == []


def test_8_1_bombardment_needs_an_adjacent_unit_of_the_formation() -> None:
    guns = dataclasses.replace(GERMAN_9SS_GUNS, hex="H2")
    assert texts(a.bombardment_problems([guns], ROW, CRT, "H5", 2, False, [("H6", SS9)])) == []
    assert texts(a.bombardment_problems([guns], ROW, CRT, "H5", 2, False, [("H3", SS9)])) == [
        "9SS-art: no unit of its formation is adjacent to H5 [8.1, 8.4]"]
    assert texts(a.bombardment_problems([guns], ROW, CRT, "H5", 2, False, [("H4", SS10)])) == [
        "9SS-art: no unit of its formation is adjacent to H5 [8.1, 8.4]"]


def test_8_1_bombardment_needs_activation_range_and_unused_bv() -> None:
    guns = dataclasses.replace(GERMAN_9SS_GUNS, activated=False, bv_used=True)
    assert texts(a.bombardment_problems([guns], ROW, CRT, "H4", 2, False, [("H5", SS9)])) == [
        "9SS-art must be activated to bombard [8.1]", "9SS-art has used its BV this turn [8]",
        "9SS-art is 4 hexes from H4; its range is 3 [8]"]
    assert texts(a.bombardment_problems([], ROW, CRT, "H4", 2, False, [])) == [
        "a bombardment needs at least one artillery unit [8.1]"]


def test_8_1_bombardment_result_is_the_defenders_part_only() -> None:
    guns = dataclasses.replace(GERMAN_9SS_GUNS, bv=6)
    target = [CombatUnit("para", 3, 2)]
    low = a.bombard([guns], target, "clear", False, 1, CRT, TEC)  # 2:1, N grid die 1: "1/0"
    assert (low.column, low.heading, low.result) == (3, "2:1", Result(0, 0))
    high = a.bombard([guns], target, "clear", False, 6, CRT, TEC)  # "0/2r"
    assert high.result == Result(0, 2, 0, 1)


def test_8_4_bombardment_in_woods_halved_and_shifted() -> None:
    guns = dataclasses.replace(GERMAN_9SS_GUNS, bv=6)
    target = [CombatUnit("para", 3, 2)]
    found = a.bombard([guns], target, "woods", False, 6, CRT, TEC)  # 3:3 -> 1:1, woods -1 -> 1:2
    assert (found.bv, found.cf, found.heading, found.result) == (3, 3, "1:2", Result(0, 1))
    dug_in = a.bombard([guns], target, "clear", True, 6, CRT, TEC)  # halved, and -1 [11.2]
    assert (dug_in.bv, dug_in.heading) == (3, "1:2")
    unsupplied = a.bombard([guns], [CombatUnit("para", 3, 2, in_supply=False)], "clear", False,
                           6, CRT, TEC)
    assert unsupplied.heading == "3:1"
