"""ELETIS reports [seed 004, section 10]: words, never a status number."""

from __future__ import annotations

import re

from pbem.systems.megagame.report import EnemySeen, UnitFacts, battalions, unit_report


def test_effectiveness_words_below_3_and_above_5_and_no_status_number() -> None:
    for status in range(0, 11):
        text = unit_report(UnitFacts("2 Para Bn", status, "the north end of Arnhem bridge",
                                     EnemySeen(status=21, tanks=True, artillery=True,
                                               formation="9 SS Panzer Division",
                                               turns_in_contact=2),
                                     supply_used=0, events=("held its ground",)))
        bare = text.replace("2 Para Bn", "").replace("9 SS Panzer Division", "")
        assert not re.search(r"\d", bare), text  # no number but the units' own names
        if status < 3 and status > 0:
            assert "little offensive power" in text
        if status > 5:
            assert "considerable combat power" in text


def test_enemy_type_always_named_identity_only_after_a_turn_in_contact() -> None:
    facts = UnitFacts("1 Border", 5, "Oosterbeek", EnemySeen(status=9, tanks=True, air=True,
                                                            formation="KG von Tettau"))
    text = unit_report(facts)
    assert "tanks" in text and "air attack" in text and "von Tettau" not in text
    later = UnitFacts("1 Border", 5, "Oosterbeek", EnemySeen(status=9, artillery=True,
                                                            formation="KG von Tettau",
                                                            turns_in_contact=2), supply_used=2)
    text = unit_report(later)
    assert "artillery" in text and "identified as KG von Tettau" in text
    assert "used two supply points" in text


def test_battalion_equivalents_may_be_misjudged_as_the_text_allows() -> None:
    # three weak battalions (status 2 each) pass for about two; one strong one (6) for about two
    assert battalions(6) == "about two battalions"
    assert battalions(1) == "a small force" and battalions(3) == "about one battalion"
    assert battalions(31) == "about ten battalions" and battalions(32) == "more than ten battalions"
