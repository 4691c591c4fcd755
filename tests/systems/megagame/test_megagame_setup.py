"""The megagame's secret set-up [2, 10]: each team holds a copy of the scenario with only its
side's forces and the enemy it sees at the start, anonymous (``pbem.systems.megagame.setup``); the
genesis commits to the whole scenario, to every copy and to the initial state
(``pbem.engine.ruleset.Ruleset.scenario_copy``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.engine.gamedir import load_scenario
from pbem.engine.scenarios import content_hash, load_data
from pbem.systems.megagame.model import MegaScenario
from pbem.systems.megagame.rules import MegagameRules
from pbem.systems.megagame.setup import team_copy
from systems.megagame.test_megagame_rules import scenario, unit

R = MegagameRules()


def _data(sc: MegaScenario) -> dict[str, Any]:
    return sc.to_json()


def _view(sc: MegaScenario, team: str) -> Any:
    return R.view(sc, R.dump_state(sc, R.initial_state(sc, {})), team)


def test_10_the_enemy_within_2_km_at_the_start_is_an_anonymous_force_farther_nothing() -> None:
    # AL's infantry at 0303; German infantry (status 6) and tanks (5) together at 0305, 2 km
    # away: one force, 11 -> "about four battalions" ((11 + 1) // 3), with tanks; a German
    # battalion at 0306 (3 km) and one arriving on turn 2 beside AL are not in the copy at all.
    sc = scenario([unit("a1", "AL", "inf", "0303"),
                   unit("g1", "GE", "inf", "0305"), unit("g2", "GE", "tank", "0305"),
                   unit("g3", "GE", "inf", "0306"), unit("g4", "GE", "weak", "0304", arrives=2)])
    copy = team_copy(sc, _data(sc), "AL")
    assert [u["id"] for u in copy["units"]] == ["a1", "enemy-0305"]
    force = copy["units"][1]
    assert force["team"] == "GE" and force["formation"] == "unknown" and force["name"] == "enemy force"
    kind = copy["types"][force["type"]]
    assert kind["profile"] == "12-0" and kind["kind"] == "armour"  # the least status the words allow
    assert "about four battalions, with tanks" in kind["note"]
    assert copy["copy_for"] == "AL" and copy["supply"] == {"AL": 5}
    mine = R.load_scenario(copy)
    assert _view(mine, "AL") == _view(sc, "AL")
    assert _view(mine, "AL")["enemy"] == [{"hex": "0305", "where": _view(sc, "AL")["enemy"][0]["where"],
                                           "seen": "about four battalions, with tanks"}]


def test_10_a_small_force_stays_a_small_force_in_the_copy() -> None:
    # a headquarters alone (status 2 -> (2 + 1) // 3 = 1: "about one battalion"); a status of 1
    # would be "a small force", which the copy keeps as a status of 1
    sc = scenario([unit("a1", "AL", "inf", "0303"), unit("ghq", "GE", "hq", "0404"),
                   unit("g1", "GE", "inf", "0808")])
    copy = team_copy(sc, _data(sc), "AL")
    assert copy["types"]["seen-0404"]["profile"] == "3-0"
    assert _view(R.load_scenario(copy), "AL") == _view(sc, "AL")


@pytest.mark.parametrize("sid", ["megagame-arnhem", "megagame-market-garden", "megagame-market-garden-duel"])
def test_10_every_teams_copy_of_a_bundled_scenario_gives_the_view_game_control_gives(sid: str) -> None:
    data = load_data(sid)
    rules, whole = load_scenario(data, content_hash(data))
    assert isinstance(rules, MegagameRules)
    sides = {t.id: t.side for t in whole.teams}
    for t in whole.teams:
        copy = rules.scenario_copy(whole, data, t.id)
        assert copy is not None and rules.scenario_problems(copy) == []
        mine = rules.load_scenario(copy)
        assert _view(mine, t.id) == _view(whole, t.id), t.id
        others = {u.id for u in whole.units if sides[u.team] != t.side}
        assert others and not others & {u.id for u in mine.units}
        assert rules.pending(mine, rules.initial_state(mine, {})) == rules.pending(whole, rules.initial_state(whole, {}))
        assert rules.scenario_copy(mine, copy, t.id) is None  # a copy is not copied again
    assert rules.scenario_copy(whole, data, whole.umpire) is None  # Game Control holds it whole


def test_p10_a_genesis_that_commits_to_another_initial_state_is_refused(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # Game Control's pbem checks what its genesis commits to: a doctored initial state (one
    # German battalion elsewhere) is named, not played.
    from helpers.protocol import env, ok, pbem

    from pbem.engine.gamedir import open_checked
    from pbem.engine.play import new_game
    from pbem.errors import ArchiveError

    home = tmp_path / "home"
    for name in ("control", "ab1", "ss9", "ss10"):
        ok(pbem("key", "new", name, home=home))
    real = MegagameRules.initial_state

    def doctored(self: MegagameRules, sc: MegaScenario, options: Any) -> Any:
        st = real(self, sc, options)
        uid = next((u.id for u in sc.units if u.team == "SS9" and u.arrives <= 1), None)
        if uid is None:  # a copy without SS9's units
            return st
        return st.replace(units={**st.units, uid: st.units[uid].replace(hex="0101")})

    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        monkeypatch.setattr(MegagameRules, "initial_state", doctored)
        game, _ = new_game("megagame-arnhem", tmp_path / "g", {"GC": "control", "AB1": "ab1", "SS9": "ss9",
                                                               "SS10": "ss10"}, {},
                           game_id="0123456789abcdef0123456789abcdef", nonce=b"\x01" * 32)
        monkeypatch.setattr(MegagameRules, "initial_state", real)
        from pbem.protocol.localstate import LocalGame, local_seeds

        opened = open_checked(tmp_path / "g")
        with pytest.raises(ArchiveError, match="initial state it commits to is not the whole scenario"):
            opened.replay(local_seeds(opened, LocalGame.of(opened)))


def test_2_a_secret_set_up_is_created_by_game_control(tmp_path: Path) -> None:
    from helpers.protocol import ok, pbem

    home = tmp_path / "home"
    ok(pbem("key", "new", "ab1", home=home))
    pubs = {}
    for name in ("control", "ss9", "ss10"):
        ok(pbem("key", "new", name, home=tmp_path / name))
        pubs[name] = tmp_path / f"{name}.pub"
        pubs[name].write_bytes((tmp_path / name / "keys" / f"{name}.pub").read_bytes())
    res = pbem("new", "megagame-arnhem", tmp_path / "g", "--player", f"GC={pubs['control']}", "--player",
               "AB1=ab1", "--player", f"SS9={pubs['ss9']}", "--player", f"SS10={pubs['ss10']}", home=home)
    assert res.code == 2 and "set-up is secret" in res.err and "Game Control creates the game" in res.err
    assert not (tmp_path / "g").exists()
