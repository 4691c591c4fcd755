"""Every command on every machine of a megagame [issue 25]: Game Control and each team, each with
its own pbem home and game directory, only files copied between them. At several points of a round
(before any sheet, waiting for the acknowledgements, for Game Control's ruling, for the reveals,
for the report, the next turn, the game over, after the publication) every command a user can type
(``pbem --help`` and each group's help) is run on a copy of each machine, with sensible arguments:
each either works (exit 0) or refuses in one line (exit 2), with no traceback and no control
character. The copies keep the real machines untouched, so a command that signs (submit, reveal,
rule, report, publish, bot...) is tried at every point without playing it.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from helpers.megagame import NAMES, TEAMS, bot_step, scenario_file, start, status
from helpers.protocol import Player, Result, ok

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
"""Control characters a terminal would act on (tab and newline are text)."""

UNIT = {"GC": "1Para", "AB1": "1Para", "SS9": "KGKrafft", "SS10": "SSRecce10"}
"""A unit each machine may name: its own (Game Control: any; SS10's arrive on turn 2)."""
OTHER = {"GC": "AB1", "AB1": "SS9", "SS9": "AB1", "SS10": "SS9"}
"""Another side, which the machine does not play."""


def looking(p: Player, work: Path) -> list[tuple[str | Path, ...]]:
    """The commands a user of this machine can type that sign nothing, with sensible arguments."""
    d, side, key, unit, other = p.dir, p.side, p.name, UNIT[p.side], OTHER[p.side]
    bad = work / "bad-sheet.txt"
    bad.write_text(f"{unit}: fly, to the moon\nNoSuchUnit: attack, towards 9999\n{unit}: hold, towards\n",
                   encoding="utf-8")
    return [
        ("--version",), ("scenarios",), ("key", "list"), ("key", "show", key), ("key", "new", "spare"),
        ("new", "megagame-arnhem", d, "--player", f"{side}={key}"),  # over a game: refused
        ("scenario", "check", "megagame-arnhem"),
        ("schema", "orders", "--system", "megagame"), ("schema", "rulings", "--system", "megagame"),
        ("status", d), ("status", d, "--json"),
        ("units", d), ("units", d, "--side", side), ("units", d, "--side", other),
        ("orders", d, "--side", side), ("orders", d, "--side", side, "--text"),
        ("orders", d, "--side", other, "--text"),
        ("reach", d, unit), ("reach", d, unit, "--map", work / "reach.svg"), ("reach", d, "NoSuchUnit"),
        ("log", d), ("log", d, "--step", "1"),
        ("html", d, "-o", work / "site"),
        ("render", d, "-o", work / "map.svg"),
        ("render", d, "--side", side, "-o", work / "map-side.svg"),
        ("render", d, "--side", other, "-o", work / "map-other.svg"),
        ("render", d, "--step", "1", "-o", work / "map-1.svg"),
        ("render", d, "--around", "3407", "--radius", "2", "-o", work / "map-crop.svg"),
        ("mail", "draft", d, "-o", work / "mail.eml"),
        ("mail", "draft", d, "--step", "1", "-o", work / "mail-1.eml"),
        ("verify", d), ("remind", d),
        ("draft", "show", d), ("draft", "show", d, "--side", side),
        ("draft", "order", d, f"{unit}: hold, stand fast"),
        ("draft", "move", d, unit, "3508", "--side", side),
        ("draft", "attack", d, "3607", "--with", unit),
        ("draft", "enter", d, unit, "3508"), ("draft", "exit", d, unit, "3508"),
        ("draft", "undo", d), ("draft", "clear", d),
        ("draft", "order", d, f"{unit}: hold, stand fast", "--side", other),
        ("check", d, bad, "--key", key),
        ("bot", d, "--side", side, "--key", key, "--dry-run"),
        ("send", d), ("fetch", d),
        ("join", d, "--key", key),
        ("ingest", d, d / "genesis.json"),
    ]


def signing(p: Player, work: Path) -> list[tuple[str | Path, ...]]:
    """The commands that sign (each tried on a copy of its own)."""
    d, side, key, unit, other = p.dir, p.side, p.name, UNIT[p.side], OTHER[p.side]
    sheet, rulings = work / "sheet.json", work / "rulings.json"
    return [
        ("check", d, sheet, "--key", key),
        ("submit", d, sheet, "--key", key, "--dry-run"),
        ("submit", d, sheet, "--key", key, "--yes"),
        ("submit", d, "--key", key, "--yes"),  # no file: the draft (there is none)
        ("draft+submit", d, f"{unit}: hold, stand fast"),  # a draft line, then submit signs it
        ("retract", d, "--yes"),
        ("reveal", d, "--key", key, "--yes"),
        ("receipt", d, "--key", key),
        ("rule", d, rulings, "--key", key, "--yes"),
        ("rule", d, "--key", key, "--yes"),
        ("report", d, "--key", key, "--yes"),
        ("bot", d, "--side", side, "--key", key),
        ("bot", d, "--side", other, "--key", key),
        ("publish", d, "--key", key),
        ("submit+retract", d, sheet),  # a commitment signed, retracted (never sent), then another one
    ]


def name(args: tuple[str | Path, ...]) -> str:
    """A command as the expectations below name it: its words, the game directory left out."""
    return " ".join(a.name if isinstance(a, Path) and a.suffix else str(a) for a in args
                    if not (isinstance(a, Path) and not a.suffix))


def _copy(p: Player, root: Path) -> Player:
    q = Player(root, p.name, p.side)
    shutil.copytree(p.dir, q.dir)
    shutil.copytree(p.home, q.home)
    return q


def _judge(args: tuple[str | Path, ...], res: Result, where: str) -> None:
    said = f"{where}: pbem {name(args)} -> exit {res.code}\n{res.err}{res.out[:2000]}"
    assert "Traceback" not in res.err + res.out, said
    assert res.code in (0, 2), said
    assert not CONTROL.search(res.err), said
    if res.code == 2:  # one line, or the list of every problem of the orders given
        first, *more = res.err.strip().splitlines()
        assert first.startswith("pbem: "), said
        assert not more or (re.fullmatch(r"pbem: \d+ problems with these orders:", first)
                            and all(line.startswith("  - ") for line in more)), said


def _run(q: Player, args: tuple[str | Path, ...]) -> Result:
    if args[0] == "draft+submit":  # a draft, then 'pbem submit' with no file signs it
        first = q.run("draft", "order", args[1], str(args[2]))
        if first.code != 0:
            return first
        return q.run("submit", args[1], "--key", q.name, "--yes")
    if args[0] == "submit+retract":
        first = q.run("submit", args[1], args[2], "--key", q.name, "--yes")
        if first.code != 0:
            return first
        ok(q.run("retract", args[1], "--yes"))
        return q.run("submit", args[1], "--key", q.name, "--yes", args[2].with_name("other.json"))
    return q.run(*args)


def run_everything(players: dict[str, Player], root: Path, point: str) -> dict[str, dict[str, Result]]:
    """Every command on copies of every machine at this point of the game (the looking ones on one
    copy, each signing one on a copy of its own); the results by machine and command."""
    results: dict[str, dict[str, Result]] = {}
    for side, p in players.items():
        q = _copy(p, root / point / side / "look")
        results[side] = {}
        for args in looking(q, q.work):
            res = q.run(*args)
            _judge(args, res, f"{point}, {side}'s machine")
            if args[0] != "schema":
                assert not CONTROL.search(res.out), (point, side, name(args), res.out[:300])
            results[side][name(args)] = res
        sheet = results[side][f"bot --side {side} --key {q.name} --dry-run"].out.strip() or "{}"
        for n, args in enumerate(signing(p, root)):
            r = _copy(p, root / point / side / f"sign-{n}")
            (r.work / "sheet.json").write_text(sheet, encoding="utf-8")
            (r.work / "other.json").write_text(_another(sheet), encoding="utf-8")
            (r.work / "rulings.json").write_text('{"groupings": [], "advantage": []}\n', encoding="utf-8")
            args = tuple(r.work / a.name if isinstance(a, Path) and a.suffix else r.dir if a == p.dir else a
                         for a in args)
            res = _run(r, args)
            _judge(args, res, f"{point}, {side}'s machine")
            results[side][name(args)] = res
    return results


def _another(sheet: str) -> str:
    """Other orders than the sheet's: its first line dropped (or the sheet itself if it has none)."""
    data = json.loads(sheet)
    if isinstance(data, dict) and data.get("groups"):
        data = {**data, "groups": data["groups"][1:]}
    return json.dumps(data)


ALWAYS = ["--version", "scenarios", "key list", "key new spare", "scenario check megagame-arnhem",
          "schema orders --system megagame", "schema rulings --system megagame", "status",
          "status --json", "units", "log", "html -o", "render -o map.svg",
          "render --around 3407 --radius 2 -o map-crop.svg", "verify"]
"""What works on every machine at every point of the game."""


def expected(point: str, side: str) -> list[str]:
    """The commands that must work (exit 0) on SIDE's machine at POINT; the others may refuse."""
    key, unit = NAMES[side], UNIT[side]
    out = [*ALWAYS, f"key show {key}", f"units --side {side}"]
    if side == "GC":
        out += ["units --side AB1", f"reach {unit}", "render --side GC -o map-side.svg"]
        out += {"ruling": ["rule rulings.json --key control --yes", "rule --key control --yes",
                           "bot --side GC --key control", "bot --side GC --key control --dry-run"],
                "report": ["report --key control --yes", "bot --side GC --key control",
                           "bot --side GC --key control --dry-run"],
                "over": ["publish --key control", "bot --side GC --key control"]}.get(point, [])
        return out
    out += [f"render --side {side} -o map-side.svg"]
    if point in ("commit", "turn2"):
        if side != "SS10" or point == "turn2":  # SS10's units arrive on turn 2
            out += [f"reach {unit}", f"draft order {unit}: hold, stand fast",
                    f"draft move {unit} 3508 --side {side}", f"draft+submit {unit}: hold, stand fast"]
        out += [f"orders --side {side}", f"orders --side {side} --text", "draft show",
                f"draft show --side {side}", "draft undo", "draft clear",
                f"bot --side {side} --key {key} --dry-run", f"check sheet.json --key {key}",
                f"submit sheet.json --key {key} --dry-run", f"submit sheet.json --key {key} --yes",
                f"bot --side {side} --key {key}", "submit+retract sheet.json"]
    if point in ("ack", "reveal"):
        out += [f"reveal --key {key} --yes", f"bot --side {side} --key {key}"]
    return out


POINTS = ("commit", "ack", "ruling", "reveal", "report", "turn2", "over", "published")


def _check(players: dict[str, Player], root: Path, point: str) -> None:
    results = run_everything(players, root, point)
    for side in players:
        failed = {c: results[side][c].err.strip() for c in expected(point, side) if results[side][c].code != 0}
        assert not failed, (point, side, failed)


@pytest.mark.slow
def test_every_command_on_every_machine_works_or_refuses_in_one_line(tmp_path: Path) -> None:
    players = start(tmp_path / "game", scenario_file(tmp_path, 2))
    _check(players, tmp_path, "commit")
    for s in TEAMS:
        bot_step(players, s)
    _check(players, tmp_path, "ack")
    for s in TEAMS:
        bot_step(players, s)
    _check(players, tmp_path, "ruling")
    bot_step(players, "GC")
    _check(players, tmp_path, "reveal")
    for s in TEAMS:
        bot_step(players, s)
    _check(players, tmp_path, "report")
    bot_step(players, "GC")
    assert status(players["AB1"])["views"]["AB1"]["turn"] == 2
    _check(players, tmp_path, "turn2")
    for _ in range(2):  # the rest of turn 2 (the commitments, the acknowledgements)
        for s in TEAMS:
            bot_step(players, s)
    bot_step(players, "GC")  # the ruling
    for s in TEAMS:
        bot_step(players, s)  # the reveals
    bot_step(players, "GC")  # the report, the last of the game
    assert status(players["GC"])["outcome"] is not None
    _check(players, tmp_path, "over")
    bot_step(players, "GC")  # the publication
    _check(players, tmp_path, "published")
