"""The case runner (:mod:`pbem.engine.cases`) and ``pbem case``, attacked: a wrong expectation is a
disagreement, never a pass; dice too many or too few fail; a case file that is malformed, huge,
escapes its folder or points nowhere is refused in one line (exit 2); ``engine_disagrees`` is
strict both ways.

The cases below are variations of the seed case WW-7.61-900 (cases/westwall/900-crt-above-12.json):
a20 (attack 20) in 0301 attacks d4 (defence 4) in 0401 on a row of clear hexes; +16 is resolved on
the +12 column [7.61] and a die of 1 there is De (the CRT's clear line, row 1, last column)."""

from __future__ import annotations

import copy
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers.paths import ROOT

from pbem.cli import cli, main
from pbem.engine.cases import (
    MAX_CASE_BYTES,
    CaseResult,
    ScriptedDice,
    book_index,
    json_equal,
    load_case,
    merge_patch,
    parse_case,
    resolve_pointer,
    run_case,
    scenario_data,
)
from pbem.engine.cases import DiceOverrun as Overrun
from pbem.engine.scenarios import load_data, load_parts
from pbem.errors import InputError

SEED = ROOT / "cases" / "westwall" / "900-crt-above-12.json"
BASE = ROOT / "cases" / "westwall" / "_line.json"


@pytest.fixture
def case() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SEED.read_text(encoding="utf-8"))
    return data


@pytest.fixture
def book(tmp_path: Path) -> Path:
    folder = tmp_path / "westwall"
    folder.mkdir()
    shutil.copy(BASE, folder / BASE.name)
    return folder


def write(book: Path, data: Any, name: str = "001-test.json") -> Path:
    path = book / name
    path.write_text(json.dumps(data, indent=2) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def run(book: Path, data: Any) -> CaseResult:
    return run_case(load_case(write(book, data)))


def cli_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``pbem ARGS`` as the console runs it (one-line errors, exit codes)."""
    code = 0
    try:
        main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def failed(result: CaseResult) -> list[tuple[str, str]]:
    return [(p.what, p.detail) for p in result.disagreements]


# -- agreement and disagreement ---------------------------------------------------------------------


def test_the_seed_case_agrees_point_by_point(book: Path, case: dict[str, Any]) -> None:
    result = run(book, case)
    assert result.agrees and result.as_recorded and result.verdict == "agrees"
    (step,) = result.steps
    assert step.rolls == [("7.6 combat 1", 1)]
    assert [p.what for p in step.points] == ["violations", "event 1", "event 2", "state /units/d4/status",
                                             "state /units/a20/hex"]


def test_a_wrong_expected_value_disagrees_and_says_both(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["expect"]["state"]["/units/d4/status"] = "on-map"  # wrong: De eliminates it
    result = run(book, case)
    assert not result.agrees and not result.as_recorded
    assert failed(result) == [("state /units/d4/status", 'expected "on-map", engine "eliminated"')]
    assert result.verdict == "DISAGREES (1 point)"


def test_a_wrong_event_value_disagrees(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["expect"]["events"][0]["result"] = "D4"  # the die of 2 would give D4, not 1
    result = run(book, case)
    assert [w for w, _ in failed(result)] == ["event 1"]
    assert failed(result)[0][1].endswith('engine has no such event; nearest, event #1, has result "De"')


def test_events_must_come_in_the_listed_order(book: Path, case: dict[str, Any]) -> None:
    events = case["steps"][0]["expect"]["events"]
    events.reverse()  # the elimination before the combat that caused it
    result = run(book, case)
    assert [w for w, _ in failed(result)] == ["event 2"]
    assert "out of order" in failed(result)[0][1]


def test_no_events_catches_an_event_that_happened(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["expect"]["no_events"] = [{"type": "eliminated", "unit": "d4"}]
    assert [w for w, _ in failed(run(book, case))] == ["no event"]


def test_violations_compare_as_a_multiset(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["orders"]["attacks"] = []  # a20 next to d4, no attack: [7.11] and [7.12]
    case["steps"][0]["dice"] = []
    case["steps"][0]["expect"] = {"violations": ["7.11"]}
    result = run(book, case)
    assert failed(result)[0][0] == "violations" and '["7.11", "7.12"]' in failed(result)[0][1]
    case["steps"][0]["expect"] = {"violations": ["7.12", "7.11"]}
    assert run(book, case).agrees


def test_an_unexpected_refusal_disagrees_even_when_the_state_matches(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["orders"]["attacks"] = []
    case["steps"][0]["dice"] = []
    case["steps"][0]["expect"] = {"state": {"/units/d4/hex": "0401"}}  # true: nothing was resolved
    result = run(book, case)
    assert [w for w, _ in failed(result)] == ["violations"]


def test_true_is_not_1_and_an_absent_pointer_is_not_null(book: Path, case: dict[str, Any]) -> None:
    assert not json_equal(True, 1) and not json_equal([1], [True]) and json_equal({"a": [1]}, {"a": [1]})
    case["steps"][0]["expect"]["state"] = {"/units/d4/fpf_turn": None, "/units/d4/nothing": None,
                                            "/units/d4/gone": {"absent": True}}
    assert [w for w, _ in failed(run(book, case))] == ["state /units/d4/nothing"]


def test_a_side_with_no_pending_decision_disagrees(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["side"] = "US"
    result = run(book, case)
    assert failed(result)[0][0] == "decision of US" and "waits for DE" in failed(result)[0][1]


def test_a_failed_step_leaves_the_later_steps_not_run(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["side"] = "US"
    case["steps"].append(copy.deepcopy(case["steps"][0]))
    result = run(book, case)
    assert [w for w, _ in failed(result)] == ["decision of US", "step"]


# -- dice -------------------------------------------------------------------------------------------


def test_too_few_dice_listed_is_a_failure_naming_the_die(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["dice"] = []
    result = run(book, case)
    assert ("dice", "the engine rolled a 1st die: 7.6 combat 1") in failed(result)


def test_dice_left_unused_are_a_failure(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["dice"] = [1, 6]
    result = run(book, case)
    assert failed(result) == [("dice", "1 listed face left unused (6): the engine rolled 1 of 2")]


def test_dice_listed_for_a_refused_step_are_unused(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["orders"]["attacks"] = []
    case["steps"][0]["expect"] = {"violations": ["7.11", "7.12"]}
    assert [w for w, _ in failed(run(book, case))] == ["dice"]


def test_scripted_dice_record_labels_and_refuse_one_more() -> None:
    dice = ScriptedDice([4, 2])
    assert (dice.d6("a"), dice.d6("b")) == (4, 2)
    with pytest.raises(Overrun):
        dice.d6("third")
    assert dice.drawn == [("a", 4), ("b", 2)] and dice.overrun == "the engine rolled a 3rd die: third"


# -- engine_disagrees -------------------------------------------------------------------------------


def test_engine_disagrees_expects_a_disagreement(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["expect"]["state"]["/units/d4/status"] = "on-map"
    case["engine_disagrees"] = "the text says so (a test of the runner)"
    result = run(book, case)
    assert not result.agrees and result.as_recorded
    assert result.verdict.startswith("disagrees as the case records")


def test_engine_disagrees_on_a_case_that_agrees_is_reported(book: Path, case: dict[str, Any]) -> None:
    case["engine_disagrees"] = "a fix has landed (a test of the runner)"
    result = run(book, case)
    assert result.agrees and not result.as_recorded and result.verdict.startswith("AGREES")


# -- the case file is refused in one line -----------------------------------------------------------


@pytest.mark.parametrize(("change", "words"), [
    (lambda c: c.update(extra=1), "unknown key 'extra'"),
    (lambda c: c.pop("quote"), "missing quote"),
    (lambda c: c.update(id="WW-7.61"), "is not <PREFIX>-<rule>-<n>"),
    (lambda c: c.update(id="SA-7.61-900"), "starting WW-"),
    (lambda c: c["steps"][0]["expect"]["state"].update({"units/d4/hex": "0401"}), "is not a JSON pointer"),
    (lambda c: c["steps"][0]["expect"]["state"].update({"/units/d4~2": "0401"}), "'~' must be followed by 0 or 1"),
    (lambda c: c["steps"][0].update(dice=[7]), "integers 1..6"),
    (lambda c: c["steps"][0].update(expect={}), "expect at least one of"),
    (lambda c: c["steps"][0]["expect"].update(when="now"), "unknown key 'when'"),
    (lambda c: c["scenario"].update(bundled="bastogne-spearhead"), "exactly one of bundled, base, inline"),
    (lambda c: c.update(scenario={"base": "../westwall/_line.json"}), "no directories"),
    (lambda c: c.update(scenario={"base": "/etc/passwd"}), "no directories"),
    (lambda c: c.update(scenario={"bundled": "no-such-scenario"}), "no bundled scenario"),
    (lambda c: c.update(state={"inline": {}, "patch": {}}), "only with 'initial'"),
    (lambda c: c.update(steps=[]), "steps: must be a non-empty list"),
    (lambda c: c["steps"][0].update(round={"DE": {}}), "not both"),
])
def test_a_bad_case_file_is_one_input_error(book: Path, case: dict[str, Any], change: Any, words: str) -> None:
    change(case)
    with pytest.raises(InputError) as exc:
        run_case(load_case(write(book, case)))
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_a_base_file_linked_from_outside_the_folder_is_refused(book: Path, case: dict[str, Any],
                                                              tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.json"
    shutil.copy(BASE, outside)
    (book / "_evil.json").symlink_to(outside)
    case["scenario"] = {"base": "_evil.json"}
    with pytest.raises(InputError, match="is not a plain file in"):
        run_case(load_case(write(book, case)))


def test_a_huge_file_is_refused_before_it_is_read(book: Path) -> None:
    path = book / "001-huge.json"
    with path.open("wb") as f:  # sparse: nothing of it is ever read
        f.truncate(MAX_CASE_BYTES + 1)
    with pytest.raises(InputError, match="more than the limit"):
        load_case(path)


def test_a_scenario_the_engine_refuses_is_one_line(book: Path, case: dict[str, Any]) -> None:
    case["scenario"]["patch"] = {"units": [], "first_player": "XX"}
    with pytest.raises(InputError) as exc:
        run_case(load_case(write(book, case)))
    assert str(exc.value).startswith(f"{book / '001-test.json'}: scenario:") and "\n" not in str(exc.value)


# -- the command ------------------------------------------------------------------------------------


def test_case_run_exit_codes(book: Path, case: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    good = write(book, case, "001-good.json")
    code, out, _ = cli_main(capsys, "case", "run", str(good))
    assert code == 0 and out.splitlines()[-1] == "case WW-7.61-900: agrees"
    assert "dice: 1 [7.6 combat 1]" in out

    case["steps"][0]["expect"]["state"]["/units/d4/status"] = "on-map"
    bad = write(book, case, "002-bad.json")
    code, out, err = cli_main(capsys, "case", "run", str(good), str(bad))
    assert code == 1
    assert 'DIFF state /units/d4/status: expected "on-map", engine "eliminated"' in out
    assert out.splitlines()[-1] == "case WW-7.61-900: DISAGREES (1 point)"
    assert err.strip() == "1 of 2 cases as recorded"


def test_case_run_a_bad_json_file_is_exit_2_one_line(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(book, '{"id": "WW-1.0-1", "id": "WW-1.0-2"}')
    code, out, err = cli_main(capsys, "case", "run", str(path))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("pbem: ") and "duplicate" in err
    path = write(book, "{not json")
    code, _, err = cli_main(capsys, "case", "run", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "invalid JSON" in err


def test_case_run_a_missing_file_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli_main(capsys, "case", "run", str(tmp_path / "nope.json"))
    assert code == 2 and "no such file" in err


def test_case_run_of_the_books_folder_runs_every_book_and_an_empty_folder_is_refused(
        book: Path, case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(book, case, "001-good.json")
    code, out, _ = cli_main(capsys, "case", "run", str(book.parent))  # cases/ -> every cases/<book>/
    assert code == 0 and out.splitlines()[-1] == "case WW-7.61-900: agrees"
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = cli_main(capsys, "case", "run", str(empty))
    assert code == 2 and out == "" and "no case files in this folder" in err  # not "nothing ran: all well"


def test_case_index_prints_or_writes_the_book_index(book: Path, case: dict[str, Any], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    write(book, case, "001-good.json")
    code, out, _ = cli_main(capsys, "case", "index", str(book))
    assert code == 0 and out == book_index(book)
    assert "## WW-7.61-900" in out and "> Attacks at greater than +12 are resolved as +12 attacks." in out
    assert "- Step 1: DE's orders, dice 1; expected:" in out and "refused" not in out
    target = tmp_path / "index.md"
    code, _, _ = cli_main(capsys, "case", "index", str(book), "--out", str(target))
    assert code == 0 and target.read_text(encoding="utf-8") == out


def test_a_book_file_named_otherwise_is_refused(book: Path, case: dict[str, Any],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    write(book, case, "my case.json")
    code, _, err = cli_main(capsys, "case", "index", str(book))
    assert code == 2 and "NNN-short-name.json" in err


def test_pbem_help_lists_case() -> None:
    res = CliRunner().invoke(cli, ["--help"])
    assert res.exit_code == 0 and "\n  case " in res.output


# -- JSON helpers -----------------------------------------------------------------------------------


def test_merge_patch_follows_rfc_7386() -> None:
    # the RFC's appendix A examples, a few of them
    assert merge_patch({"a": "b"}, {"a": "c"}) == {"a": "c"}
    assert merge_patch({"a": "b"}, {"b": "c"}) == {"a": "b", "b": "c"}
    assert merge_patch({"a": "b", "b": "c"}, {"a": None}) == {"b": "c"}
    assert merge_patch({"a": ["b"]}, {"a": "c"}) == {"a": "c"}
    assert merge_patch({"a": [{"b": "c"}]}, {"a": [1]}) == {"a": [1]}
    assert merge_patch({"e": None}, {"a": 1}) == {"e": None, "a": 1}
    assert merge_patch([1, 2], {"a": "b", "c": None}) == {"a": "b"}
    assert merge_patch({}, {"a": {"bb": {"ccc": None}}}) == {"a": {"bb": {}}}
    target = {"a": {"b": 1}}
    merge_patch(target, {"a": {"b": 2}})
    assert target == {"a": {"b": 1}}  # never changed in place


def test_pointers_follow_rfc_6901() -> None:
    doc = {"foo": ["bar", "baz"], "": 0, "a/b": 1, "m~n": 8, "k": {"0": 5}}
    assert resolve_pointer(doc, "") == doc
    assert resolve_pointer(doc, "/foo/1") == "baz"
    assert resolve_pointer(doc, "/") == 0
    assert resolve_pointer(doc, "/a~1b") == 1 and resolve_pointer(doc, "/m~0n") == 8
    assert resolve_pointer(doc, "/k/0") == 5
    missing = resolve_pointer(doc, "/nothing")
    for pointer in ("/foo/2", "/foo/01", "/foo/-", "/foo/x", "/foo/0/deeper"):
        assert resolve_pointer(doc, pointer) is missing


def test_a_case_file_is_read_only_as_a_regular_file(book: Path) -> None:
    fifo = book / "001-fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="FIFO"):
        load_case(fifo)


def test_a_round_for_a_sequential_decision_disagrees(book: Path, case: dict[str, Any]) -> None:
    step = case["steps"][0]
    case["steps"][0] = {"round": {"DE": step["orders"]}, "dice": step["dice"], "expect": step["expect"]}
    result = run(book, case)
    assert failed(result)[0] == ("decision of DE", "DE's decision (Game-Turn 1, German player-turn) is "
                                                   "not sealed: write the step as 'side' and 'orders'")


def test_a_round_must_give_every_waiting_side_its_orders() -> None:
    seed = json.loads((ROOT / "cases" / "megagame" / "900-unprepared-attack-confused.json").read_text("utf-8"))
    del seed["steps"][0]["round"]["GE"]
    result = run_case(load_case_from(seed, ROOT / "cases" / "megagame"))
    assert failed(result) == [("round", "no orders for GE, whose orders the round waits for")]


def load_case_from(data: dict[str, Any], folder: Path) -> Any:
    """A case parsed as if it were a file of ``folder`` (its base files), without writing there."""
    return parse_case(folder / "999-not-written.json", data)


def test_an_expected_refusal_that_never_comes_is_shown_beside_the_dice(book: Path, case: dict[str, Any]) -> None:
    case["steps"][0]["dice"] = []
    case["steps"][0]["expect"] = {"violations": ["7.11"]}  # the attack is legal: the engine resolves it
    result = run(book, case)
    assert failed(result) == [("dice", "the engine rolled a 1st die: 7.6 combat 1"),
                              ("violations", 'expected ["7.11"], engine []')]


def test_scenario_sources_bundled_base_and_inline(book: Path, case: dict[str, Any]) -> None:
    case["scenario"] = {"bundled": "bastogne-spearhead", "patch": {"title": "patched", "note": None}}
    bundled = scenario_data(load_case(write(book, case)))
    expected = load_data("bastogne-spearhead")  # as a game loads it: its map merged in
    assert isinstance(expected["map"], dict) and "note" in expected
    expected["title"] = "patched"
    del expected["note"]
    assert bundled == expected
    merged, problems = load_parts(book / "_line.json")
    assert problems == [] and isinstance(merged["terrain_key"], dict)
    case["scenario"] = {"inline": merged}
    inline = load_case(write(book, case))
    assert scenario_data(inline) == merged
    assert run_case(inline).agrees  # the seed case, its base given inline
