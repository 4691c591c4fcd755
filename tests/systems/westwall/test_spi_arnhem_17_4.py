"""SPI Arnhem [17.4]: the levels of victory by the German-to-Allied ratio, compared exactly --
westwall/3 against westwall/2, which rounded the ratio to two decimals first (issue 26).

"3.0 or more to 1" German Strategic; "between 2.01 and 2.99 to 1" German Tactical; "2.0 to 1"
Draw; "between 1 and 1.99 to 1" Allied Tactical; "1.0 or less to 1" Allied Strategic. Read
exactly: 2.995 is not "3.0 or more" (German Tactical) and 1.995 is not "2.0" (Allied Tactical).
"""

from __future__ import annotations

import pytest
from helpers.westwall import state_with, tiny_scenario, unit

from pbem.systems.westwall import arnhem_victory as av
from pbem.systems.westwall.arnhem import Arnhem
from pbem.systems.westwall.readings import Readings
from pbem.systems.westwall.rules import WestWallRules


@pytest.mark.parametrize(("german", "allied", "level"), [
    (3, 1, "German Strategic"), (2995, 1000, "German Tactical"), (2005, 1000, "German Tactical"),
    (2001, 1000, "German Tactical"), (2, 1, "Draw"), (1995, 1000, "Allied Tactical"),
    (1005, 1000, "Allied Tactical"), (1001, 1000, "Allied Tactical"), (1, 1, "Allied Strategic"),
    (999, 1000, "Allied Strategic"), (5, 0, "German Strategic"), (0, 0, "Draw"),
])
def test_17_4_the_ratio_is_compared_exactly(german: int, allied: int, level: str) -> None:
    got, winner = av.victory_level(german, allied)
    assert got == ("Draw" if level == "Draw" else f"{level} Victory")
    assert winner == {"German": "german", "Allied": "allied", "Draw": None}[level.split()[0]]


@pytest.mark.parametrize(("german", "allied", "v3", "v2"), [
    (599, 200, "German Tactical Victory", "German Strategic Victory"),  # 2.995
    (399, 200, "Allied Tactical Victory", "Draw"),  # 1.995
    (601, 200, "German Strategic Victory", "German Strategic Victory"),  # 3.005
])
def test_17_4_the_outcome_of_a_game_by_version(german: int, allied: int, v3: str, v2: str) -> None:
    """The points kept at the ends of game-turns, nobody eliminated (no end-of-game points)."""
    sc = tiny_scenario(game="arnhem", units=[unit("g", "DE"), unit("u", "US")])
    st = state_with(sc, {"g": "0101", "u": "0808"}, exclusive={"points": {"DE": german, "US": allied}})
    st = st.replace(**{"phase": "over", "finished": True})
    for rules, level in ((WestWallRules(), v3), (WestWallRules().at_version("2"), v2)):
        result = Arnhem(Readings.of(rules.since)).outcome(sc, st)
        assert result is not None and result.summary.startswith(f"{level}:"), rules.rules_id
        assert result.points == {"DE": german, "US": allied}
