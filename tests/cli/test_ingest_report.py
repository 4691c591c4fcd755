"""Ingesting Game Control's report tells the team what it hears, in words [P10; issue 27]: it
printed only the report's hash, and the email said to run 'pbem status'."""

from __future__ import annotations

from pathlib import Path

from helpers.protocol import ok, written
from systems.megagame.test_megagame_game import TEAMS, send_all, start


def test_a_team_ingesting_the_report_reads_its_own_view_and_nobody_elses(tmp_path: Path) -> None:
    players = start(tmp_path)
    for s in TEAMS:
        p = players[s]
        send_all(players, s, ok(p.run("bot", p.dir, "--side", s, "--key", p.name)))
    for s in TEAMS:
        p = players[s]
        send_all(players, s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))
    gc = players["GC"]
    send_all(players, "GC", ok(gc.run("rule", gc.dir, "--key", "control", "--yes")))
    for s in TEAMS:
        p = players[s]
        send_all(players, s, ok(p.run("reveal", p.dir, "--key", p.name, "--yes")))
    report = ok(gc.run("report", gc.dir, "--key", "control", "--yes"))
    [name] = [n for n in written(report) if n.startswith("move-")]
    heard = ok(gc.send(players["AB1"], [name]))
    status = ok(players["AB1"].run("status", players["AB1"].dir)).out
    first = next(line for line in status.splitlines() if line.startswith("view      AB1 sees: "))
    assert f"  AB1 hears: {first[len('view      AB1 sees: '):]}" in heard.err  # what status says, at once
    assert "SS9 hears" not in heard.err and "SS10 hears" not in heard.err
