"""Arnhem 1944 through the command line, hot seat: a game made with ``pbem new``, activations
and passes written as text orders and signed with ``pbem submit`` [2.1, 3], ``pbem units`` and
``pbem reach`` [6], ``pbem log`` telling the events with their cases, ``pbem verify`` accepting
the archive."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from helpers.protocol import GAME_ID, Player, ok, pbem

from pbem.systems.arnhem1944.rules import Arnhem1944Rules


def _text(p: Player, text: str) -> Path:
    p.counter += 1
    path = p.work / f"orders-{p.counter}.txt"
    path.write_text(text, encoding="utf-8")
    return path


def _set_up(a: Player) -> None:
    """[17.1] the Allied set-up of the 1st Airborne first: as ``pbem orders --text`` proposes,
    its first line taken out of its comment (a file of comments only would keep the proposal
    too, but would read as the same orders as an unedited pass after it)."""
    text = ok(a.run("orders", a.dir, "--side", "AL", "--text")).out
    first = next(x for x in text.splitlines() if x.startswith("# place "))
    ok(a.run("submit", "--yes", a.dir, _text(a, first[2:].split("#")[0] + "\n"),
             "--key", "allied"))


def test_2_1_text_orders_through_the_cli_and_verify(tmp_path: Path) -> None:
    a = _hot_seat(tmp_path)
    units = ok(a.run("units", a.dir, "--side", "AL")).out
    assert "1/1P" in units and "0104" in units
    reach = ok(a.run("reach", a.dir, "1/1P")).out
    assert "0303:" in reach
    ok(a.run("submit", "--yes", a.dir, _text(a, "activate: 1/1P\nmove 1/1P to 0303\n"),
             "--key", "allied"))
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "german"))
    # an illegal activation is refused with its case, nothing written
    bad = a.run("submit", "--yes", a.dir, _text(a, "activate: 1/1P\n"), "--key", "allied")
    assert bad.code != 0 and "[3.1]" in (bad.err + bad.out)
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "allied"))
    # two passes in a row: turn 2 [2.2]; its initiative dice are keyed by the German reveal
    log = ok(a.run("log", a.dir)).out
    # 'to 0303' became the cheapest path (0203 1 MP, 0303 2 more: 3 of 1/1P's MP) [6.3]
    assert "1. 1/1P moves to 0303 via 0203 [6]" in log and "1/1P moved 0104 → 0203 → 0303 [6]" in log
    assert "End of turn 1: both sides passed in a row [2.2]" in log
    # the map view drawn after every step, only the newest kept (issue 28)
    newest = max(int(p.name[5:9]) for p in a.dir.glob("turn-*.json"))
    assert sorted(p.name for p in a.dir.glob("map-*.svg")) == [f"map-{newest:04d}.svg"] and newest >= 3
    status = ok(a.run("status", a.dir)).out
    assert "DE passes so that its reveal keys the dice before [2.1]" in status  # 4P drops [15.2]
    res = pbem("verify", a.dir, home=tmp_path / "stranger")
    assert res.code == 0, res.err


def _random_weather_game(tmp_path: Path) -> Player:
    a = Player(tmp_path, "allied", "AL")
    a.new_key()
    ok(a.run("key", "new", "german"))
    ok(a.run("new", "arnhem1944-historical", a.dir, "--player", "AL=allied",
             "--player", "DE=german", "--game-id", GAME_ID, "--option", "weather=random"))
    return a


def _genesis(a: Player) -> dict[str, Any]:
    envelope = json.loads((a.dir / "genesis.json").read_text(encoding="utf-8"))
    body: dict[str, Any] = json.loads(base64.b64decode(envelope["payload"]))
    return body


def test_14_1_option_weather_random_at_new_rolls_the_weather_die(tmp_path: Path) -> None:
    a = _random_weather_game(tmp_path)
    body = _genesis(a)
    assert body["options"] == {"weather": "random"}  # signed with the genesis
    assert body["rules"] == "arnhem1944/4"
    turn0 = json.loads((a.dir / "turn-0000.json").read_text(encoding="utf-8"))
    assert turn0["state"]["options"]["weather"] == "random"
    _set_up(a)  # [2.1, 14.1] turn 1's weather die goes with the set-up (rules version 4) ...
    status = ok(a.run("status", a.dir)).out
    assert "DE passes so that its reveal keys the dice before [2.1]" in status
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "german"))  # ... revealed here
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "allied"))
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "german"))
    log = ok(a.run("log", a.dir)).out  # the German pass's dice: the Allies' seed is here
    assert "Turn 1 weather: " in log and "Turn 2 weather: " in log
    assert log.count(", random weather [14.2])") == 2  # not the track
    res = pbem("verify", a.dir, home=tmp_path / "stranger")
    assert res.code == 0, res.err


def test_14_1_a_random_weather_game_begun_under_version_3_goes_on_without_the_turn_1_die(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An archive of arnhem1944/3 (the release before version 4 started it) goes on under 3."""
    with monkeypatch.context() as m:
        m.setattr(Arnhem1944Rules, "version", "3")
        m.setattr(Arnhem1944Rules, "plays", ())
        a = _random_weather_game(tmp_path)
    assert _genesis(a)["rules"] == "arnhem1944/3"
    _set_up(a)  # no die: the Allies activate (or pass) next
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "allied"))
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "german"))
    log = ok(a.run("log", a.dir)).out
    assert "Turn 1 weather" not in log and "Turn 2 weather: " in log
    res = pbem("verify", a.dir, home=tmp_path / "stranger")
    assert res.code == 0, res.err


def test_14_1_an_unknown_option_or_value_at_new_is_refused_and_nothing_written(
        tmp_path: Path) -> None:
    a = Player(tmp_path, "allied", "AL")
    a.new_key()
    ok(a.run("key", "new", "german"))
    for option, words in (("fog=thick", "no option 'fog'"),
                          ("weather=sunny", "[14.1] option weather is historical or random"),
                          ("drop=free", "[17] the drop is the scenario's")):
        res = a.run("new", "arnhem1944-historical", a.dir, "--player", "AL=allied",
                    "--player", "DE=german", "--game-id", GAME_ID, "--option", option)
        assert res.code == 2 and words in res.err and len(res.err.strip().splitlines()) == 1
        assert not a.dir.exists()
        assert not (a.home / "games").exists() or not any((a.home / "games").iterdir())


def _hot_seat(tmp_path: Path, *, set_up: bool = True) -> Player:
    a = Player(tmp_path, "allied", "AL")
    a.new_key()
    ok(a.run("key", "new", "german"))
    ok(a.run("new", "arnhem1944-historical", a.dir, "--player", "AL=allied",
             "--player", "DE=german", "--game-id", GAME_ID))
    if set_up:
        _set_up(a)
    return a


def test_3_pbem_draft_builds_one_activation_line_by_line(tmp_path: Path) -> None:
    """[3.3, 6] 'pbem draft' reads each new line with the lines before it: the actions after the
    draft's 'activate' line belong to that activation, and the whole draft is signed."""
    a = _hot_seat(tmp_path)
    ok(a.run("draft", "order", a.dir, "activate: 1/1P 2/1P"))
    shown = ok(a.run("draft", "move", a.dir, "1/1P", "0303")).out
    assert "1. 1/1P moves to 0303 via 0203 [6]" in shown  # 1 MP + 2 MP [6.3]
    shown = ok(a.run("draft", "order", a.dir, "move 2/1P 0204")).out
    assert "2. 2/1P moves to 0204 [6]" in shown and "Still refused" not in shown
    # a line the game cannot read is refused and the draft keeps its two lines
    bad = a.run("draft", "order", a.dir, "fly 2/1P to 0204")
    assert bad.code != 0 and "not added to the draft (3 lines kept)" in bad.err
    ok(a.run("submit", "--yes", a.dir, "--key", "allied"))
    log = ok(a.run("log", a.dir)).out
    assert "1/1P moved 0104 → 0203 → 0303 [6]" in log and "2/1P moved 0104 → 0204 [6]" in log


def test_2_2_an_empty_draft_means_the_same_in_draft_show_and_submit(tmp_path: Path) -> None:
    """[2.2, 27] an empty draft (or one of comments only) is not 'ready': 'draft show' says submit
    will not sign it and what a pass would mean, and 'submit' refuses it in the same words;
    'pbem draft pass' makes the pass explicit, and that is what is signed."""
    a = _hot_seat(tmp_path)
    before = sorted(q.name for q in a.dir.iterdir())
    shown = ok(a.run("draft", "show", a.dir))
    assert "ready" not in shown.err
    assert "the draft holds no order: 'pbem submit' does not sign it" in shown.err
    assert "As it stands it means: passes [2.2]. To sign that, 'pbem draft pass GAME_DIR'" in shown.err
    shown = ok(a.run("draft", "order", a.dir, "# not yet"))
    assert "ready" not in shown.err and "holds no order, only comments" in shown.err
    refused = a.run("submit", "--yes", a.dir, "--key", "allied")
    assert refused.code == 2 and "holds no order" in refused.err and "'pbem draft pass" in refused.err
    assert sorted(q.name for q in a.dir.iterdir()) == before
    shown = a.run("draft", "pass", a.dir)
    assert shown.code == 0 and "ready: 'pbem submit GAME_DIR --key KEY' signs exactly this" in shown.err
    ok(a.run("submit", "--yes", a.dir, "--key", "allied"))
    assert "passes" in ok(a.run("log", a.dir)).out


def test_27_the_templates_example_lines_taken_as_they_are_are_signed_as_written(tmp_path: Path) -> None:
    """[3.2, 6.3, 7.5, 27] the template's examples use the side's own units and hexes legal now:
    the formation activation, the move and the standing order, uncommented and nothing else
    changed, are accepted and signed, and the log tells what they said."""
    a = _hot_seat(tmp_path)
    text = ok(a.run("orders", a.dir, "--side", "AL", "--text")).out
    wanted = ("activate 1AB:", "move 1/1P to", "defend lose 1")
    lines = [next(x[2:].split("#")[0].strip() for x in text.splitlines() if x.startswith("# " + w))
             for w in wanted]  # the first of each (a second 'move 1/1P to' leads to an attack)
    assert [line.split(" ")[0] for line in lines] == ["activate", "move", "defend"], lines
    ok(a.run("submit", "--yes", a.dir, _text(a, "\n".join(lines) + "\n"), "--key", "allied"))
    log = ok(a.run("log", a.dir)).out
    target = lines[1].split(" to ")[1]
    assert "1/1P moved" in log and target in log


def test_2_2_pbem_orders_text_gives_a_template_that_unedited_signs_a_pass(tmp_path: Path) -> None:
    """[2.2, 3] 'pbem orders --side AL' points to the text form; '--text' lists the units that
    may be activated with an example of each order, all comments: submitted unedited, a pass."""
    a = _hot_seat(tmp_path)
    plain = ok(a.run("orders", a.dir, "--side", "AL"))
    assert '"kind": "pass"' in plain.out and "--side AL --text' lists what you may" in plain.err
    text = ok(a.run("orders", a.dir, "--side", "AL", "--text")).out
    assert "#     in command: HQ1AB 1/1P 2/1P 3/1P" in text
    assert "#   82AB (82nd (U.S.) Airborne Division), no HQ: general activations only" in text
    for verb in ("activate 1AB:", "activate:", "move 1/1P to", "move 1/1P via", "attack",
                 "if vacated", "prepare", "defend hold", "defend lose 1",
                 "retreat 1/1P towards", "pass"):
        assert f"\n# {verb}" in text, verb
    # no German unit is next to a unit of 1LtRA's formation [8.4]: the bombardment's form only
    assert "\n#   bombard HEX with ARTILLERY " in text and "\n# bombard" not in text
    ok(a.run("submit", "--yes", a.dir, _text(a, text), "--key", "allied"))
    assert "Allied passed [2.2]" in ok(a.run("log", a.dir)).out
    # the draft, empty, shows the same list
    assert "#     in command:" in ok(a.run("draft", "show", a.dir)).out


def test_2_1_pbem_status_counts_one_move_in_the_singular(tmp_path: Path) -> None:
    a = _hot_seat(tmp_path, set_up=False)
    assert "step      0 moves archived;" in ok(a.run("status", a.dir)).out
    _set_up(a)
    assert "step      1 move archived;" in ok(a.run("status", a.dir)).out


def test_27_16_pbem_status_says_what_each_score_counts(tmp_path: Path) -> None:
    """[16, 27] 'score AL 0, DE 2' is no victory-point total: status says what each number counts
    (the historic scenario: a bridgehead of 12 steps, 2 Arnhem bridge hexes)."""
    a = _hot_seat(tmp_path)
    out = ok(a.run("status", a.dir)).out
    assert "score     AL 0, DE 2" in out
    assert "          AL: Allied infantry steps over the Neder Rijn (a bridgehead of 12 at the end" in out
    assert "          DE: Arnhem bridge hexes not in Allied hands (of 2;" in out


def test_pbem_scenarios_asks_the_ruleset_when_the_file_does_not_say_turns_and_sides(
        tmp_path: Path) -> None:
    """The megagame's file has teams and half-day turns, not 'sides' and 'last_turn': the line
    is its ruleset's scenario_summary, never '[; ?, turns 1-?; ? first]'."""
    out = ok(pbem("scenarios", home=tmp_path / "home")).out
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert "?" not in lines["megagame-arnhem"]
    assert "[AB1/SS9/SS10/GC; 19 units, 5 half-day turns from 17 September 1944" in \
        lines["megagame-arnhem"]
    assert "[AL/DE; 10 game-turns, turns 1-10; AL first]" in lines["arnhem1944-historical"]


def test_15_2_a_drop_drafted_line_by_line_from_the_template(tmp_path: Path) -> None:
    """[15.2, 17.3] turn 2: the empty draft of the drop is refused (no landing) and lists the
    landings pbem would choose, commented; drafted as 'land UNIT at HEX' they are signed."""
    a = _hot_seat(tmp_path)
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "allied"))
    ok(a.run("submit", "--yes", a.dir, _text(a, "pass\n"), "--key", "german"))
    shown = ok(a.run("draft", "show", a.dir)).out
    assert "Still refused by the rules:" in shown and "10/4P of " in shown
    lands = [line[2:].split("#")[0].strip() for line in shown.splitlines()
             if line.startswith("# land ")]
    assert lands[0] == "land 10/4P at 0204" and len(lands) == 5  # the five units of 4P [17.3]
    for line in lands:
        ok(a.run("draft", "order", a.dir, line))
    ok(a.run("submit", "--yes", a.dir, "--key", "allied"))
    assert "Airborne landings: 10/4P at 0204; " in ok(a.run("log", a.dir)).out


def test_17_1_a_set_up_of_comments_only_then_a_pass_of_comments_only_are_two_moves(tmp_path: Path) -> None:
    # The Allies decide twice in a row (set-up, then the first activation): the same comment-only
    # text means the proposed set-up first and a pass next. pbem used to answer the second with
    # "already in the archive" (it read the text against the state before the set-up).
    a = _hot_seat(tmp_path, set_up=False)
    first = ok(a.run("submit", "--yes", a.dir, _text(a, "# keep the proposal\n"), "--key", "allied"))
    assert "move-0001-AL.json" in first.out
    second = ok(a.run("submit", "--yes", a.dir, _text(a, "# nothing this time\n"), "--key", "allied"))
    assert "move-0002-AL.json" in second.out and "already" not in second.out + second.err
    # sending the same file again, now that it is the German decision, signs nothing [P7]
    again = ok(a.run("submit", "--yes", a.dir, _text(a, "# nothing this time\n"), "--key", "allied"))
    assert "move-0003" not in again.out
