"""The bundled megagame played to its result by bots alone, through the command line (issue 25):
Game Control and the three teams each with a pbem home and a game directory of their own, every
message copied from the machine that wrote it to every other one. Each machine only ever runs
``pbem bot GAME --side SIDE --key KEY``: a team's bot writes its sheet from its own view, sends its
acknowledgement and its reveal; Game Control's (``--side GC``) accepts the engine's groupings,
enters no judgement factor, reports and, once the game is over, publishes. Then every team and a
stranger -- a fresh home holding no key of the game, and only the files that went by email --
verify every adjudication.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from helpers.megagame import NAMES, TEAMS, messages, scenario_file, send_all, start, status
from helpers.protocol import ok, pbem


def test_the_bundled_megagame_played_by_pbem_bot_for_every_side_published_and_verified(tmp_path: Path) -> None:
    data = json.loads(scenario_file(tmp_path).read_text(encoding="utf-8"))
    assert data["id"] == "megagame-arnhem" and data["turns"] == 5  # the whole bundled scenario
    players = start(tmp_path / "game", scenario_file(tmp_path))
    sent = 0
    for _ in range(200):  # 5 turns of 3 sheets, 3 acknowledgements, a ruling, 3 reveals, a report
        if status(players["GC"])["outcome"] is not None:
            break
        moved = False
        for side in (*TEAMS, "GC"):
            p = players[side]
            res = p.run("bot", p.dir, "--side", side, "--key", NAMES[side])
            if res.code == 2:  # nothing owed by this side now: refused in one line
                assert len(res.err.strip().splitlines()) == 1 and res.err.startswith("pbem: "), res.err
                continue
            names = send_all(players, side, ok(res))
            sent += len(names)
            moved = True
        assert moved, status(players["GC"])["waiting"]
    assert status(players["GC"])["outcome"] is not None
    assert sent == 5 * (3 + 3 + 1 + 3 + 1)  # every message of every round, once
    gc = players["GC"]
    # Game Control's ruling accepted the engine's groupings and entered no advantage [9]
    log = ok(gc.run("log", gc.dir)).out
    assert "clear tactical advantage" not in log
    for s in TEAMS:  # every team heard its reports, in words
        view = status(players[s])["views"][s]
        assert view["turn"] == 5 and view["over"] is True
    # the publication, by Game Control's bot, once the game is over
    res = ok(gc.run("bot", gc.dir, "--side", "GC", "--key", "control"))
    assert messages(res) == ["publication.json"]
    send_all(players, "GC", res)
    again = gc.run("bot", gc.dir, "--side", "GC", "--key", "control")
    assert again.code == 2 and "nothing is left for GC to send" in again.err
    for s in TEAMS:
        out = ok(players[s].run("verify", players[s].dir)).out
        assert "every sealed order opened" in out, out
    # a stranger: only the signed files that went by email, and a home with no key of the game
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    ab1 = players["AB1"].dir
    for f in sorted(ab1.iterdir()):
        if f.name in ("genesis.json", "publication.json") or f.name.startswith(("join-", "move-")):
            shutil.copyfile(f, stranger / f.name)
    shutil.copyfile(ab1 / "scenario.json", stranger / "scenario.json")  # the copy every invitation carried
    res = pbem("verify", stranger, home=tmp_path / "stranger-home")
    assert res.code == 0, res.err
    assert "every sealed order opened" in res.out, res.out
    assert not (tmp_path / "stranger-home" / "keys").exists() or not any((tmp_path / "stranger-home" / "keys").iterdir())
