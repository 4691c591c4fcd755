"""westwall/3 is the newest WestWall rules version and westwall/2 is still played (issue 26): each
of the SPI Arnhem corrections is a reading of :class:`Readings`, on for version 3, off for 2,
handed by the ruleset to the exclusive rules (the cases: test_spi_arnhem_11_1.py, _12_11, _13_1,
_13_21, _14_11, _17_4)."""

from __future__ import annotations

from dataclasses import fields

from helpers.westwall import tiny_scenario

from pbem.engine.ruleset import get_ruleset
from pbem.systems.westwall.exclusive import get_exclusive
from pbem.systems.westwall.readings import NEWEST, Readings
from pbem.systems.westwall.rules import WestWallRules


def test_westwall_3_is_newest_and_2_is_still_played() -> None:
    rules = get_ruleset("westwall")
    assert rules.rules_id == "westwall/3"
    assert rules.played_versions() == ["westwall/3", "westwall/2"]
    assert rules.at_version("2").rules_id == "westwall/2"
    assert "1" in WestWallRules.earlier and "2" not in WestWallRules.earlier


def test_each_version_hands_its_readings_to_the_exclusive_rules() -> None:
    names = [f.name for f in fields(Readings)]
    assert len(names) == 10
    v3, v2 = WestWallRules(), WestWallRules().at_version("2")
    assert v3.readings == NEWEST == Readings(**dict.fromkeys(names, True))
    assert v2.readings == Readings(**dict.fromkeys(names, False))
    sc = tiny_scenario(game="arnhem")
    assert v2._exclusive(sc).readings == v2.readings and v3._exclusive(sc).readings == NEWEST
    assert get_exclusive("standard", v2.readings).readings == v2.readings
