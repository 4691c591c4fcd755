"""A megagame order sheet with several bad lines lists every problem at once [5] (issue 25): it told
the first unreadable line and stopped, and the rules' problems of the other lines came only once
that one was mended. From a team's machine, through ``pbem check`` and ``pbem submit``."""

from __future__ import annotations

from pathlib import Path

from helpers.megagame import scenario_file, start

FLY = ("line 1: 'fly' is not a sheet clause (breakthrough, attack, probe, hold, move, prepare; stand fast; "
       "towards HEX; via HEX ...; (non-)tactical, rest; whole turn, first/second half, night; supply N; "
       "cas/heavy N; counter-battery; defend HEX ...; interdict HEX; rail to HEX; attach to DIVISION) [5]")


def test_5_every_unreadable_line_and_every_rule_a_readable_line_breaks_are_told_at_once(tmp_path: Path) -> None:
    players = start(tmp_path / "game", scenario_file(tmp_path, 2))
    ab1 = players["AB1"]
    sheet = ab1.work / "sheet.txt"
    sheet.write_text("1Para: fly, to the moon\n"            # line 1: no such clause
                     "2Para: hold, stand fast\n"             # fine
                     "air recce 1 at 3607\n"                 # line 3: no colon
                     "Ghost: attack, towards 3607\n"         # no such unit of AB1's [5]
                     "3Para: attack, towards 9999\n"         # an objective off the map [5]
                     "7KOSB: move, via 0101\n",              # a route that jumps [6]
                     encoding="utf-8")
    for args in (("check", ab1.dir, sheet, "--key", "ab1"), ("submit", ab1.dir, sheet, "--key", "ab1", "--yes")):
        res = ab1.run(*args)
        assert res.code == 2, res.err
        assert res.err.splitlines() == [
            "pbem: 5 problems with these orders:",
            f"  - {FLY}",
            "  - line 3: expected 'UNITS: INTENTION, ...' or 'air: MISSION N at HEX' [5]",
            "  - 3Para: the objective must be a hex of the map, not '9999' [5]",
            "  - Ghost: Ghost is not one of AB1's units [5]",
            "  - 7KOSB: the route jumps from 3307 to 0101 (7KOSB is at 3307): a route goes one km (one hex) "
            "at a time, the first next to it [6]",
        ]
    assert not list(ab1.dir.glob("move-*"))  # nothing signed


def test_5_one_unreadable_line_is_told_as_before(tmp_path: Path) -> None:
    players = start(tmp_path / "game", scenario_file(tmp_path, 2))
    ab1 = players["AB1"]
    sheet = ab1.work / "sheet.txt"
    sheet.write_text("1Para: fly, to the moon\n2Para: hold, stand fast\n", encoding="utf-8")
    res = ab1.run("check", ab1.dir, sheet, "--key", "ab1")
    assert res.code == 2 and res.err == f"pbem: {FLY}\n", res.err
