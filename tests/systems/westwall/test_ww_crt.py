"""The integrated Combat Results Table [7.43, 7.61, 7.62]: lines, columns, bounds, lookups."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.paths import ROOT
from hypothesis import given
from hypothesis import strategies as st

from pbem.systems.westwall import crt


def test_7_0_worked_example_town() -> None:
    # [7.0]: 13 attacking 4 in a Town hex -> +9; Town uses the broken line, whose +9-11 column is
    # c8; die 5 row reads A2 A2 A1 A1 A1 A1 Br Br D1 ... so c8 = D1.
    diff = 13 - 4
    assert diff == 9
    assert crt.column_heading("broken", diff) == "+9-11"
    assert crt.column_index("broken", diff) == 8
    assert crt.lookup("broken", diff, 5) == "D1"


@pytest.mark.parametrize(
    ("line", "diff", "heading", "col"),
    [
        # clear line: c0 <=-7 ... c11 +12
        ("clear", -20, "<=-7", 0),
        ("clear", -7, "<=-7", 0),
        ("clear", -6, "-6,-5", 1),
        ("clear", -5, "-6,-5", 1),
        ("clear", 0, "0", 5),
        ("clear", 3, "+2,3", 7),
        ("clear", 8, "+6-8", 9),
        ("clear", 12, "+12", 11),
        ("clear", 40, "+12", 11),
        # grove line starts at <=-5 on c0, so 0 is c4
        ("grove", -5, "<=-5", 0),
        ("grove", 0, "0", 4),
        ("grove", 12, "+12", 10),
        # broken (town, woods, stream) starts at <=-3
        ("broken", -3, "<=-3", 0),
        ("broken", -2, "-2", 1),
        ("broken", 0, "0", 3),
        ("broken", 99, "+12", 9),
        # rough (and city) starts at <=-2
        ("rough", -2, "<=-2", 0),
        ("rough", 0, "0", 2),
        ("rough", 11, "+9-11", 7),
        ("rough", 12, "+12", 8),
    ],
)
def test_7_61_columns(line: crt.CrtLine, diff: int, heading: str, col: int) -> None:
    assert crt.column_heading(line, diff) == heading
    assert crt.column_index(line, diff) == col


@pytest.mark.parametrize(
    ("line", "diff", "die", "result"),
    [
        # Read off the table by hand: row = die, column from the line.
        ("clear", 12, 1, "De"),  # c11 row 1
        ("clear", 12, 6, "D2"),  # c11 row 6
        ("clear", -7, 6, "Ae"),  # c0 row 6
        ("clear", -7, 4, "A2"),  # c0 row 4
        ("clear", 0, 1, "D2"),  # c5 row 1
        ("clear", 0, 6, "A1"),  # c5 row 6
        ("clear", -2, 1, "Br"),  # c3 row 1
        ("grove", 12, 1, "D4"),  # c10 row 1
        ("grove", -1, 1, "Br"),  # c3 row 1
        ("broken", 0, 1, "Br"),  # c3 row 1
        ("broken", 12, 1, "D3"),  # c9 row 1
        ("broken", 4, 2, "D2"),  # +4,5 is c6, row 2
        ("rough", 12, 1, "D2"),  # c8 row 1
        ("rough", 0, 4, "A1"),  # c2 row 4
        ("rough", -9, 6, "Ae"),  # below lowest -> c0
        ("rough", 6, 6, "A1"),  # +6-8 is c6 on rough; row 6 c6 = A1
        ("rough", 9, 6, "Br"),  # +9-11 is c7 on rough; row 6 c7 = Br
    ],
)
def test_7_62_lookup(line: crt.CrtLine, diff: int, die: int, result: str) -> None:
    assert crt.lookup(line, diff, die) == result


def test_7_61_table_shape_and_codes() -> None:
    assert len(crt.RESULTS) == 6
    assert all(len(row) == 12 for row in crt.RESULTS)
    assert {code for row in crt.RESULTS for code in row} == set(crt.RESULT_CODES)
    # Lines are left-aligned and each ends with +12.
    assert [len(crt.LINES[line]) for line in crt.LINE_ORDER] == [12, 11, 10, 9]
    assert all(crt.LINES[line][-1][0] == "+12" for line in crt.LINE_ORDER)


def test_7_61_bad_die() -> None:
    with pytest.raises(ValueError):
        crt.lookup("clear", 0, 7)
    with pytest.raises(ValueError):
        crt.lookup("clear", 0, 0)


def test_7_44_best_line() -> None:
    # Rough behind a stream -> rough line [7.44 example].
    assert crt.best_line(["broken", "rough"]) == "rough"
    assert crt.best_line(["clear", "grove"]) == "grove"
    assert crt.best_line([]) == "clear"


def test_7_62_retreat_distances() -> None:
    assert crt.retreat_hexes("D3") == (3, 0)
    assert crt.retreat_hexes("A2") == (0, 2)
    assert crt.retreat_hexes("Br") == (1, 1)
    assert crt.retreat_hexes("De") == (0, 0)


@given(st.integers(-30, 30), st.sampled_from(crt.LINE_ORDER), st.sampled_from(crt.LINE_ORDER))
def test_7_44_better_terrain_never_helps_attacker(
    diff: int, a: crt.CrtLine, b: crt.CrtLine
) -> None:
    # A line more favourable to the defender never reads a column to the right of a less
    # favourable one at the same differential.
    if crt.line_rank(a) <= crt.line_rank(b):
        assert crt.column_index(b, diff) <= crt.column_index(a, diff)


@given(st.integers(-30, 30), st.sampled_from(crt.LINE_ORDER))
def test_7_61_columns_monotonic(diff: int, line: crt.CrtLine) -> None:
    assert crt.column_index(line, diff) <= crt.column_index(line, diff + 1)


# --------------------------------------------------------------------------------------------------
# The CRT as data: scenarios/crt.json, and a replacement typed from the printed chart [7.61]
# --------------------------------------------------------------------------------------------------


def _bundled_crt() -> dict:
    import json

    return json.loads((ROOT / "pbem" / "scenario_data" / "crt.json").read_text())


def test_7_61_bundled_crt_json_is_the_table_pbem_plays() -> None:
    from pbem.systems.westwall.model import CrtTable

    table = CrtTable.parse(_bundled_crt())
    assert crt.problems(table) == []
    assert crt.Table.of(table) == crt.DEFAULT
    assert "reconstruction" in table.note


def test_7_61_a_replacement_crt_decides_the_result() -> None:
    # +0 on the clear line, die 1: pbem's table gives D2 (test_ww_combat); a replacement whose
    # die-1 row reads De everywhere eliminates the defender instead.
    from helpers.westwall import atk, combats, game, orders, unit

    from pbem.protocol.dice import FixedDice
    from pbem.systems.westwall.board import Board
    from pbem.systems.westwall.combat import resolve_combat
    from pbem.systems.westwall.model import CrtTable

    data = _bundled_crt()
    data["results"][0] = ["De"] * 12
    sc, st_, _ = game([unit("de1", "DE", attack=4), unit("us1", "US", defense=4)],
                      {"de1": "0301", "us1": "0401"}, cols=(1, 8), rows=(1, 1))
    mine = sc.replace(**{"crt": CrtTable.parse(data)})
    b = Board.from_state(mine, st_)
    c = combats(resolve_combat(b, mine, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([1])))[0]
    assert (c.differential, c.column, c.result) == (0, "0", "De")
    assert b.status("us1") == "eliminated"
    b0 = Board.from_state(sc, st_)
    c0 = combats(resolve_combat(b0, sc, st_, orders("DE", atk(["de1"], ["us1"])), FixedDice([1])))[0]
    assert c0.result == "D2"  # the same combat with pbem's table


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["lines"]["grove"].pop(3), "column 4 ('0') must start right after column 3 ('-2')"),
        (lambda d: d["lines"]["rough"][0].update(low=-9), "the first column ('<=-2') must cover every differential below"),
        (lambda d: d["lines"].pop("broken"), "crt.lines.broken: missing"),
        (lambda d: d["results"].pop(), "5 rows; one per die face 1-6"),
        (lambda d: d["results"][2].pop(), "the row of die 3 has 11 columns; the widest line has 12"),
    ],
)
def test_7_61_a_malformed_replacement_is_refused_by_scenario_check(change: Any, words: str) -> None:
    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.rules import WestWallRules

    data = load_data("bastogne-spearhead")
    table = _bundled_crt()
    change(table)
    data["crt"] = table
    problems = WestWallRules().scenario_problems(data)
    assert any(words in p for p in problems), problems
    with pytest.raises(Exception, match="crt"):
        WestWallRules().load_scenario(data)


def test_7_61_replacement_crt_file_beside_a_scenario_through_the_cli(tmp_path: Any) -> None:
    import json
    import shutil

    from helpers.protocol import pbem

    src = ROOT / "pbem" / "scenario_data"
    for name in ("bastogne-spearhead.json", "bastogne-map.json", "terrain-key.json"):
        shutil.copyfile(src / name, tmp_path / name)
    scenario = json.loads((tmp_path / "bastogne-spearhead.json").read_text())
    scenario["crt"] = "printed-crt.json"
    (tmp_path / "bastogne-spearhead.json").write_text(json.dumps(scenario))
    table = _bundled_crt()
    (tmp_path / "printed-crt.json").write_text(json.dumps(table))
    res = pbem("scenario", "check", tmp_path / "bastogne-spearhead.json", home=tmp_path / "home")
    assert res.code == 0, res.err
    table["results"][0].pop()
    (tmp_path / "printed-crt.json").write_text(json.dumps(table))
    res = pbem("scenario", "check", tmp_path / "bastogne-spearhead.json", home=tmp_path / "home")
    assert res.code != 0 and "crt.results: the row of die 1 has 11 columns" in (res.err + res.out)
