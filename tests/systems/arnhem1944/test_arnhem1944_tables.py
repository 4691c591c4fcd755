"""Arnhem 1944's reconstructed CRT and TEC as data [6.3, 7.1, 7.4, 7.5, 8.1, 8.4, 12.1]: the
bundled files load, say they are reconstructions, and a broken replacement is named entry by
entry."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import ROOT

from pbem.errors import InputError
from pbem.systems.arnhem1944 import tables as t

SCENARIO_DATA = ROOT / "pbem" / "scenario_data"


def _raw(name: str) -> Any:
    return json.loads((SCENARIO_DATA / name).read_text(encoding="utf-8"))


def test_bundled_files_are_marked_reconstructed_and_have_no_problems() -> None:
    for name, kind in ((t.CRT_FILE, "crt"), (t.TEC_FILE, "tec")):
        data = _raw(name)
        assert data["reconstructed"] is True and "RECONSTRUCTED" in data["note"]
        assert t.table_problems(data, kind) == []  # type: ignore[arg-type]


def test_7_4_columns_are_exact_increasing_ratios() -> None:
    crt = t.default_crt()
    assert crt.headings[0] == "1:3" and crt.columns[0] == Fraction(1, 3)
    assert crt.columns[-1] == 6
    assert all(a < b for a, b in zip(crt.columns, crt.columns[1:], strict=False))
    assert crt.odds_rounding == "attacker"


def _at_least_as_good(x: t.Result, y: t.Result) -> bool:
    """``y`` is no worse for the attacker than ``x``."""
    return (y.attacker <= x.attacker and (y.attacker_min <= x.attacker_min or y.attacker < x.attacker)
            and (y.defender, y.defender_min) >= (x.defender, x.defender_min))


def test_7_1_reconstruction_better_rightwards_downwards_and_from_m_to_p() -> None:
    """The reconstructed grids never get worse for the attacker with a higher die or odds, and a
    prepared attack is never worse than a normal one, nor a normal than a mobile one [7.1]."""
    crt = t.default_crt()
    for grid in crt.results.values():
        for r in range(6):
            for col in range(len(crt.columns)):
                if r < 5:
                    assert _at_least_as_good(grid[r][col], grid[r + 1][col])
                if col < len(crt.columns) - 1:
                    assert _at_least_as_good(grid[r][col], grid[r][col + 1])
    for r in range(6):
        for col in range(len(crt.columns)):
            m, n, p = (crt.results[k][r][col] for k in t.ATTACK_TYPES)
            assert m.defender <= n.defender <= p.defender
            assert m.attacker >= n.attacker >= p.attacker


@pytest.mark.parametrize(("text", "expected"), [
    ("0/1", t.Result(0, 1)), ("2r/0", t.Result(2, 0, 1, 0)), ("0/3g", t.Result(0, 3, 0, 2)),
    ("1r/2r", t.Result(1, 2, 1, 1)),
])
def test_7_5_cells_parse_with_red_and_green_minima(text: str, expected: t.Result) -> None:
    assert t.Result.parse(text) == expected
    assert str(expected) == text


@pytest.mark.parametrize("bad", ["0/1g", "0r/1", "1g/2", "1/", "x/2", "10/1", "1/2 "])
def test_7_5_bad_cells_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match=r"\[7.5\]"):
        t.Result.parse(bad)


def test_7_5_green_needs_two_and_red_one() -> None:
    with pytest.raises(ValueError, match="larger than the result"):
        t.Result.parse("0/1g")
    with pytest.raises(ValueError, match="larger than the result"):
        t.Result.parse("0r/1")


def test_7_4_lookup_by_die_and_column_on_each_attack_type() -> None:
    crt = t.default_crt()
    # the 3:1 column (index 4), die 4, per the bundled file
    assert crt.lookup("M", 4, 4) == t.Result(0, 1)
    assert crt.lookup("N", 4, 4) == t.Result(0, 2)
    assert crt.lookup("P", 4, 4) == t.Result(0, 2, 0, 1)
    assert crt.lookup("P", 7, 6) == t.Result(0, 5, 0, 2)  # 6:1, die 6: green 5


def test_7_4_lookup_clamps_columns_at_both_ends() -> None:
    crt = t.default_crt()
    assert crt.lookup("N", -3, 1) == crt.lookup("N", 0, 1)
    assert crt.lookup("N", 99, 6) == crt.lookup("N", 7, 6)


@pytest.mark.parametrize("die", [0, 7])
def test_7_4_die_outside_1_to_6_refused(die: int) -> None:
    with pytest.raises(ValueError, match=r"1 to 6"):
        t.default_crt().lookup("N", 2, die)


def test_7_1_attack_table_and_8_1_bombardment_minimum() -> None:
    crt = t.default_crt()
    assert crt.attack_table["M"].advance == 1 and crt.attack_table["M"].attacker_min_losses == 1
    assert crt.attack_table["P"].advance is None
    assert crt.bombard_min == 1 and crt.bombard_table == "N"


def test_replaced_crt_file_changes_the_result_exactly_as_its_table_says(tmp_path: Path) -> None:
    data = _raw(t.CRT_FILE)
    data["results"]["N"][2][3] = "3r/4g"  # die 3 on 2:1
    data["attack_table"]["N"]["advance"] = 5
    path = tmp_path / "my-crt.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    mine = t.load_crt(path)
    assert mine.lookup("N", 3, 3) == t.Result(3, 4, 1, 2)
    assert t.default_crt().lookup("N", 3, 3) == t.Result(1, 1)
    assert mine.lookup("N", 3, 2) == t.default_crt().lookup("N", 3, 2)  # the rest unchanged
    assert mine.attack_table["N"].advance == 5


def test_table_problems_names_each_broken_crt_entry() -> None:
    data = _raw(t.CRT_FILE)
    data["results"]["P"][4][2] = "0/1g"
    data["results"]["M"].pop()
    data["results"]["N"][0].append("0/1")
    data["columns"][3] = "2:0"
    data["bombardment"]["min_ratio"] = "one to one"
    problems = t.table_problems(data, "crt")
    joined = "\n".join(problems)
    assert "crt.results.P[4][2] (die 5, 1:1)" in joined and "[7.5]" in joined
    assert "crt.results.M: 5 rows" in joined
    assert "crt.results.N[0] (die 1): 9 cells for 8 columns" in joined
    assert "crt.columns[3]" in joined
    assert "crt.bombardment.min_ratio" in joined and "[8.1]" in joined
    assert len(problems) == 5


def test_table_problems_columns_out_of_order_and_missing_attack_type() -> None:
    data = _raw(t.CRT_FILE)
    data["columns"][2], data["columns"][3] = data["columns"][3], data["columns"][2]
    del data["results"]["P"]
    data["attack_table"]["X"] = {"advance": 0}
    problems = t.table_problems(data, "crt")
    assert any("crt.columns[3]: '1:1' does not follow '2:1'" in p for p in problems)
    assert any(p.startswith("crt.results.P: missing") for p in problems)
    assert any(p.startswith("crt.attack_table.X: not an attack type") for p in problems)
    assert any(p.startswith("crt.attack_table.X.advance: 0") for p in problems)


def test_table_problems_reports_type_errors_by_path() -> None:
    data = _raw(t.CRT_FILE)
    data["results"]["N"][1][1] = 3
    data["surprise"] = True
    problems = t.table_problems(data, "crt")
    assert any(p.startswith("crt.results.N[1][1]:") for p in problems)
    assert any(p.startswith("crt.surprise:") for p in problems)


def test_load_crt_refuses_a_broken_replacement(tmp_path: Path) -> None:
    data = _raw(t.CRT_FILE)
    data["results"]["M"][0][0] = "2/0x"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError, match=r"crt.results.M\[0\]\[0\] \(die 1, 1:3\)"):
        t.load_crt(path)


# -- the TEC -----------------------------------------------------------------------------------


def test_6_3_tec_has_every_shared_terrain_id() -> None:
    tec = t.default_tec().data
    assert set(t.HEX_KINDS) <= set(tec.hexes)
    assert set(t.HEXSIDE_KINDS) <= set(tec.hexsides)
    assert set(t.ROUTE_KINDS) <= set(tec.routes)
    assert set(t.CROSSING_KINDS) <= set(tec.crossings)


def test_4_2_rivers_and_canals_block_zoc_streams_do_not() -> None:
    tec = t.default_tec()
    assert tec.blocks_zoc(frozenset({"river"})) and tec.blocks_zoc(frozenset({"canal"}))
    assert tec.blocks_zoc(frozenset({"river", "bridge", "road"}))  # no exception for bridges
    assert not tec.blocks_zoc(frozenset({"stream"})) and not tec.blocks_zoc(frozenset())


def test_12_1_rivers_cross_only_over_bridges_and_ferries() -> None:
    tec = t.default_tec()
    assert tec.entry_halves("clear", frozenset({"river"})) is None
    assert tec.entry_halves("clear", frozenset({"canal"}), route="road") is None
    assert tec.entry_halves("town", frozenset({"river", "bridge", "road"}), route="road") == 1
    assert tec.entry_halves("clear", frozenset({"river", "ferry"})) == 2 + 6
    assert tec.entry_halves("clear", frozenset({"river", "rail-bridge"}), route="railway") == 2


def test_6_3_movement_costs_in_halves() -> None:
    tec = t.default_tec()
    assert tec.entry_halves("clear") == 2 and tec.entry_halves("marsh") == 6
    assert tec.entry_halves("woods", frozenset({"stream"})) == 4 + 2
    assert tec.entry_halves("woods", frozenset({"road"}), route="road") == 1


def test_8_4_wood_or_built_up() -> None:
    tec = t.default_tec()
    assert [k for k in t.HEX_KINDS if tec.wood_or_built_up(k)] == ["woods", "town", "city"]


def test_6_3_unknown_terrain_is_an_input_error_citing_the_case() -> None:
    with pytest.raises(InputError, match=r"'dunes' is not on the TEC \[6.3\]"):
        t.default_tec().hex("dunes")


def test_table_problems_names_each_broken_tec_entry() -> None:
    data = _raw(t.TEC_FILE)
    del data["hexes"]["polder"]
    data["hexsides"]["river"]["blocks_zoc"] = False
    data["hexsides"]["canal"]["mp_halves"] = 4
    data["routes"]["stream"] = {"mp_halves": 1}
    data["crossings"]["ferry"]["mp_halves"] = -2
    data["hexes"]["clear"]["mp_halves"] = 0
    problems = t.table_problems(data, "tec")
    assert any(p.startswith("tec.hexes.clear.mp_halves:") for p in problems)
    # a type error stops there; fix it and the rest is named
    data["hexes"]["clear"]["mp_halves"] = 2
    problems = t.table_problems(data, "tec")
    assert sorted(problems) == sorted([
        "tec.hexes.polder: missing (the map uses it) [6.3]",
        "tec.hexsides.river.blocks_zoc: must be true (no zone of control across rivers or "
        "canals [4.2])",
        "tec.hexsides.canal.mp_halves: must be null (only bridges and ferries cross rivers and "
        "canals [12.1])",
        "tec.routes.stream: also defined under hexsides",
        "tec.crossings.ferry.mp_halves: -2 is negative [6.3]",
    ])


def test_replaced_tec_file_changes_costs(tmp_path: Path) -> None:
    data = copy.deepcopy(_raw(t.TEC_FILE))
    data["hexes"]["polder"]["mp_halves"] = 3
    path = tmp_path / "tec.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert t.load_tec(path).entry_halves("polder") == 3
    assert t.default_tec().entry_halves("polder") == 4


def test_missing_or_oversized_replacement_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot be read"):
        t.load_crt(tmp_path / "absent.json")
    big = tmp_path / "big.json"
    big.write_text(" " * (t.MAX_BYTES + 1), encoding="utf-8")
    with pytest.raises(InputError, match="larger than"):
        t.load_tec(big)
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match="not JSON"):
        t.load_crt(bad)
