"""A team hears its own losses [seed 004, section 10, ELETIS "Effectiveness"] (issue 25): Game
Control's log read "d passes the bombed point 0304 (die 6): step loss and immobilised" while the
team's report said only "pinned down", its unit still "in good heart". From rules version 3 each
unit's report says that it took losses this turn and what they did to its effectiveness, in the
text's words ("low offensive power" below 3, "considerable combat power" over 5), never a number;
and a unit stopped before its first kilometre hears that it stayed, not that it "moved 0 km".
Version 2, which the frozen games of tests/compat/ were played under, keeps its words.

The tiny map and the dice are those of test_megagame_rules (interdiction with 4 tactical squadrons:
the table's 3-4 row, a step lost and pinned on a 6, pinned on a 4 or 5 [9]).
"""

from __future__ import annotations

import re
from typing import Any

from pbem.systems.megagame.model import MegaScenario, MegaState, UnitState
from pbem.systems.megagame.report import losses_words
from pbem.systems.megagame.rules import MegagameRules
from pbem.systems.megagame.view import team_view
from systems.megagame.test_megagame_rules import AIR, TYPES, Dice, air_sheet, scenario, sheet, unit

V3 = MegagameRules()
V2 = MegagameRules().at_version("2")

MORE_TYPES: dict[str, Any] = {
    **TYPES,
    "para": {"profile": "6-6-5-4-3-2-1-0", "kind": "infantry", "troops": "infantry", "size": 20},
}


def tiny(*units: dict[str, Any]) -> MegaScenario:
    return scenario(list(units), air=AIR, types=MORE_TYPES)


def play(rules: MegagameRules, sc: MegaScenario, st: MegaState, dice: Dice, *sheets: Any) -> MegaState:
    by_team = {s.team: s for s in sheets}
    for team in ("AL", "GE"):
        by_team.setdefault(team, sheet(team, turn=st.turn))
        assert rules.validate(sc, st, team, by_team[team]) == []
    return rules.resolve_round(sc, st, by_team, dice, {}, rules.load_rulings(sc, st, {})).state


def report_of(sc: MegaScenario, st: MegaState, team: str, uid: str) -> str:
    return next(r for r in team_view(sc, st, team)["reports"] if r.startswith(f"{uid} ({uid})"))


MARCH = {"units": ["d"], "intention": "move", "route": ["0304", "0303"]}
BOMB_ROAD = {"mission": "bombing", "squadrons": 4, "target": "0304"}


def test_10_a_unit_pinned_passing_a_bombed_point_hears_its_losses_and_its_new_effectiveness() -> None:
    # d (6-5-4-...: status 6, "considerable combat power") marches 0305 -> 0304 -> 0303 through the
    # point bombed at 0304: die 6, a step lost (status 5: "capable of limited offensive action")
    # and pinned at 0304.
    sc = tiny(unit("a", "AL", "inf", "0808"), unit("d", "GE", "inf", "0305"))
    st = V3.initial_state(sc, {})
    new = play(V3, sc, st, Dice(6), air_sheet(BOMB_ROAD), sheet("GE", MARCH))
    assert (new.units["d"].hex, new.units["d"].steps) == ("0304", 1)
    text = report_of(sc, new, "GE", "d")
    assert text.startswith("d (d): battered but in good order: capable of limited offensive action.")
    assert ("Moved 1 km to 0304 (1 km from Dorp) and stopped: attacked from the air passing 0304: "
            "losses, and pinned down.") in text
    assert "Took losses this turn: no longer in good heart, it is now battered but in good order." in text
    assert "in good heart:" not in text  # its effectiveness is the new one, not the old


def test_10_losses_that_leave_the_effectiveness_where_it_was_are_still_told() -> None:
    # d (6-6-5-...: a step lost leaves status 6) is bombed where it stands: die 6 [9].
    sc = tiny(unit("a", "AL", "inf", "0808"), unit("d", "GE", "para", "0305"))
    st = V3.initial_state(sc, {})
    new = play(V3, sc, st, Dice(6), air_sheet({**BOMB_ROAD, "target": "0305"}))
    assert new.units["d"].steps == 1
    text = report_of(sc, new, "GE", "d")
    assert text.startswith("d (d): in good heart: considerable combat power")
    assert "Was attacked from the air at 0305 (2 km from Dorp): losses, and pinned down." in text
    assert "Took losses this turn, but is still in good heart." in text
    # no status number anywhere in what the team hears [10]
    assert not re.search(r"\d", text.replace("0305", "").replace("(2 km", ""))


def test_10_a_unit_brought_to_nothing_is_told_it_is_no_longer_an_effective_fighting_unit() -> None:
    # d (4-3-2-1-0) has lost three steps already (status 1, "little offensive power"); die 6 takes
    # the last.
    sc = tiny(unit("a", "AL", "inf", "0808"), unit("d", "GE", "weak", "0305"))
    st = V3.initial_state(sc, {})
    st = st.replace(units={**st.units, "d": UnitState(**{**st.units["d"].to_json(), "steps": 3})})
    new = play(V3, sc, st, Dice(6), air_sheet({**BOMB_ROAD, "target": "0305"}))
    assert new.units["d"].steps == 4
    text = report_of(sc, new, "GE", "d")
    assert "Took such losses this turn that it is no longer an effective fighting unit." in text


def test_10_no_losses_no_sentence_and_a_pinned_unit_without_losses_is_only_pinned() -> None:
    # die 4: pinned at 0304, no step lost.
    sc = tiny(unit("a", "AL", "inf", "0808"), unit("d", "GE", "inf", "0305"))
    st = V3.initial_state(sc, {})
    new = play(V3, sc, st, Dice(4), air_sheet(BOMB_ROAD), sheet("GE", MARCH))
    text = report_of(sc, new, "GE", "d")
    assert "stopped: attacked from the air passing 0304: pinned down." in text
    assert "losses" not in text.lower()


def test_10_a_unit_stopped_before_its_first_kilometre_hears_that_it_stayed() -> None:
    # a (0303) touches d (0304); 0403 touches d too: in contact, it must break contact first [6].
    sc = tiny(unit("a", "AL", "inf", "0303"), unit("d", "GE", "weak", "0304"))
    st = V3.initial_state(sc, {})
    sidestep = sheet("AL", {"units": ["a"], "intention": "move", "route": ["0403"]})
    text = report_of(sc, play(V3, sc, st, Dice(), sidestep), "AL", "a")
    assert ("Stayed at 0303 (Dorp): in contact with the enemy: it must break contact before moving on."
            in text)
    assert "0 km" not in text
    old = report_of(sc, play(V2, sc, st, Dice(), sidestep), "AL", "a")
    assert "Moved 0 km to 0303 (Dorp) and stopped: in contact with the enemy" in old


def test_10_version_2_games_keep_their_words() -> None:
    """The frozen megagame of tests/compat/ was played under version 2: its reports are sealed in
    the umpire's reports and recomputed by verify, so version 2 must write them as it did."""
    sc = tiny(unit("a", "AL", "inf", "0808"), unit("d", "GE", "inf", "0305"))
    st = V2.initial_state(sc, {})
    new = play(V2, sc, st, Dice(6), air_sheet(BOMB_ROAD), sheet("GE", MARCH))
    assert new.units["d"].steps == 1  # the same adjudication
    assert new.facts["d"].events == ["moved 1 km to 0304 (1 km from Dorp) and stopped: attacked from the air "
                                     "passing 0304: pinned down"]
    assert V2.version == "2" and V3.version == "3" and not V2.since("3") and V3.since("3")


def test_10_the_words_of_losses_by_effectiveness_band() -> None:
    # the bands of section 10: below 3 low offensive power, over 5 considerable combat power
    assert losses_words(6, 6) == "took losses this turn, but is still in good heart"
    assert losses_words(6, 5) == "took losses this turn: no longer in good heart, it is now battered but in good order"
    assert losses_words(3, 2) == "took losses this turn: no longer battered but in good order, it is now badly worn"
    assert losses_words(2, 0) == "took such losses this turn that it is no longer an effective fighting unit"
    assert losses_words(2, 1, measured=False) == "took losses this turn"
