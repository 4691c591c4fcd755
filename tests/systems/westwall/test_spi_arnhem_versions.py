"""westwall/4 is the newest WestWall rules version; westwall/3 and westwall/2 are still played.
Each of the SPI Arnhem corrections (issue 26) is a reading of :class:`Readings`, on from version 3,
off for 2; the [7.82] displacement reading is on from version 4 only (test_ww_displacement_7_82.py).
The ruleset hands them to the exclusive rules (the cases: test_spi_arnhem_11_1.py, _12_11, _13_1,
_13_21, _14_11, _17_4)."""

from __future__ import annotations

from dataclasses import fields

from helpers.westwall import tiny_scenario

from pbem.engine.ruleset import get_ruleset
from pbem.systems.westwall.exclusive import get_exclusive
from pbem.systems.westwall.readings import NEWEST, Readings
from pbem.systems.westwall.rules import WestWallRules


def test_westwall_4_is_newest_and_3_and_2_are_still_played() -> None:
    rules = get_ruleset("westwall")
    assert rules.rules_id == "westwall/4"
    assert rules.played_versions() == ["westwall/4", "westwall/3", "westwall/2"]
    assert rules.at_version("3").rules_id == "westwall/3"
    assert rules.at_version("2").rules_id == "westwall/2"
    assert "1" in WestWallRules.earlier and not {"2", "3"} & set(WestWallRules.earlier)


def test_each_version_hands_its_readings_to_the_exclusive_rules() -> None:
    names = [f.name for f in fields(Readings)]
    assert len(names) == 12
    v4, v3, v2 = WestWallRules(), WestWallRules().at_version("3"), WestWallRules().at_version("2")
    assert v4.readings == NEWEST == Readings(**dict.fromkeys(names, True))
    assert v3.readings == Readings(**{**dict.fromkeys(names, True), "displace_once": False,
                                                  "spare_checked": False})
    assert v2.readings == Readings(**dict.fromkeys(names, False))
    sc = tiny_scenario(game="arnhem")
    assert v2._exclusive(sc).readings == v2.readings and v4._exclusive(sc).readings == NEWEST
    assert v3._exclusive(sc).readings == v3.readings
    assert get_exclusive("standard", v2.readings).readings == v2.readings
