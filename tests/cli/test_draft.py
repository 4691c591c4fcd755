"""A whole game-turn of Spearhead played through click's CliRunner from ``pbem new``, with only
``pbem draft``, ``pbem units`` and ``pbem reach`` to write the orders (issue 14)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import cli
from pbem.errors import IllegalOrders, InputError


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    old = {k: os.environ.get(k) for k in ("PBEM_HOME", "PBEM_PASSPHRASE")}
    os.environ["PBEM_HOME"] = str(tmp_path / "home")
    os.environ["PBEM_PASSPHRASE"] = ""
    yield tmp_path / "home"
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def run(*args: str | Path) -> Result:
    res = CliRunner().invoke(cli, [str(a) for a in args])
    assert res.exit_code == 0, (args, res.output, res.exception)
    return res


def rows(units_out: str) -> list[list[str]]:
    return [line.split(None, 6) for line in units_out.splitlines()[1:]]


def test_one_full_game_turn_with_draft_units_and_reach(home: Path, tmp_path: Path) -> None:
    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.rules import WestWallRules, default_placements

    g = tmp_path / "game"
    run("key", "new", "alice")
    run("key", "new", "bob")
    run("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob")

    # U.S. set-up: the roster names the units; a player who owns the game knows legal hexes
    us = [r for r in rows(run("units", g, "--side", "US").output) if r[-1].startswith("to set up")]
    sc = WestWallRules().load_scenario(load_data("bastogne-spearhead"))
    legal = default_placements(sc, WestWallRules().initial_state(sc, {}), "US")
    assert {r[0] for r in us} == set(legal)
    for uid, _rest in [(r[0], r) for r in us]:
        out = run("draft", "order", g, f"place {uid} at {legal[uid]}").output
    assert "Set-up" in out and "Still refused" not in out
    run("submit", g, "--key", "bob", "--yes")  # no file: the draft
    assert (g / "move-0001-US.json").exists()

    # German player-turn 1: every reinforcement due enters, to a hex 'reach' lists
    de = rows(run("units", g, "--side", "DE").output)
    due = [r[0] for r in de if "enters on Game-Turn 1" in r[-1]]
    assert due, de
    taken: set[str] = set()
    for uid in due:
        lines = run("reach", g, uid).output.splitlines()
        options = []
        for line in lines[1:]:
            parts = line.split()
            if len(parts) >= 3 and parts[1] != "the" and parts[0].isdigit() and "via" in parts:
                cost = float(parts[1].replace("½", ".5")) if parts[1] != "½" else 0.5
                path = parts[parts.index("via") + 1:] + [parts[0]]
                options.append((cost, parts[0], path))
        options.sort()
        cost, dest, path = next(o for o in options if o[1] not in taken and o[0] <= 6)
        taken.add(dest)
        shown = run("draft", "enter", g, uid, *path).output
    assert "Still refused" not in shown, shown
    assert "stay off the map" not in shown  # every reinforcement due enters
    run("draft", "show", g)
    run("submit", g, "--key", "alice", "--yes")

    # U.S. player-turn 1: hold everything. A draft of comments only is not signed by accident [27];
    # 'pbem draft pass' says it on purpose
    run("draft", "order", g, "# hold the line")
    res = CliRunner().invoke(cli, ["submit", str(g), "--key", "bob", "--yes"])
    assert isinstance(res.exception, InputError) and "holds no order" in str(res.exception)
    assert "ready" in run("draft", "pass", g).output
    run("submit", g, "--key", "bob", "--yes")

    status = run("status", g).output
    assert "Game-Turn 2" in status and "German player-turn" in status
    assert run("verify", g).output.rstrip().endswith("OK")


def test_undo_clear_and_a_line_the_game_cannot_read(home: Path, tmp_path: Path) -> None:
    g = tmp_path / "game"
    run("key", "new", "alice")
    run("key", "new", "bob")
    run("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob")
    bad = CliRunner().invoke(cli, ["draft", "order", str(g), "fly 20 to the moon"])
    assert isinstance(bad.exception, InputError) and "unknown order" in str(bad.exception)
    run("draft", "order", g, "place 20 at 1116")
    out = run("draft", "show", g).output
    assert "must be set up [15.12]" in out  # an incomplete set-up is shown, not signed
    assert "taken back: place 20 at 1116" in run("draft", "undo", g).output
    run("draft", "clear", g)
    res = CliRunner().invoke(cli, ["submit", str(g), "--key", "bob", "--yes"])
    assert isinstance(res.exception, InputError) and "holds no order" in str(res.exception)


def test_27_a_draft_line_that_cannot_be_carried_out_is_named_and_any_line_dropped(home: Path, tmp_path: Path) -> None:
    """[27] a move with no legal path is not kept (the lines before it are), a draft that cannot be
    read names its line, and 'draft drop N' takes out any line, not only the last."""
    from pbem.cli.draft import draft_path
    from pbem.engine.gamedir import open_checked
    from pbem.protocol.localstate import LocalGame

    g = tmp_path / "game"
    run("key", "new", "alice")
    run("key", "new", "bob")
    run("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob")
    us = [r[0] for r in rows(run("units", g, "--side", "US").output) if r[-1].startswith("to set up")]
    run("draft", "order", g, f"place {us[0]} at 1116")
    run("draft", "order", g, f"place {us[1]} at 1117")
    run("draft", "order", g, f"place {us[2]} at 1118")
    out = run("draft", "drop", g, "2").output
    assert f"taken out: place {us[1]} at 1117" in out
    assert f"1. place {us[0]} at 1116" in out and f"2. place {us[2]} at 1118" in out
    bad = CliRunner().invoke(cli, ["draft", "drop", str(g), "7"])
    assert isinstance(bad.exception, InputError) and "the draft has 2 lines: no line 7" in str(bad.exception)
    # a line the game can read but not carry out, written into the draft by hand: named by number
    game = open_checked(g)
    path = draft_path(game, LocalGame.of(game), "US")
    path.write_text(path.read_text() + "place nobody at 1119\n" + f"place {us[3]} at 1120\n")
    out = run("draft", "show", g).output
    assert "3. place nobody at 1119   <-- this line" in out and "Cannot be read as orders: line 3:" in out
    assert "'pbem draft drop GAME_DIR 3' takes that line out" in out


def test_shell_completion_offers_scenarios_units_and_reachable_hexes(home: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    g = tmp_path / "game"
    run("key", "new", "alice")
    run("key", "new", "bob")
    run("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob")

    def complete(*words: str) -> list[str]:
        env = {**os.environ, "COMP_WORDS": " ".join(["pbem", *words]), "COMP_CWORD": str(len(words)),
               "_PBEM_COMPLETE": "bash_complete"}
        out = subprocess.run([sys.executable, "-m", "pbem"], env=env, capture_output=True, text=True,
                             timeout=60).stdout
        return [line.split(",", 1)[1] for line in out.splitlines() if "," in line]

    assert "bastogne-spearhead" in complete("new", "bastogne-s")
    assert "draft" in complete("dr")
    us_units = complete("reach", str(g), "")  # the U.S. set-up is due: U.S. units
    assert "20" in us_units and "1/3" not in us_units
    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.rules import WestWallRules, default_placements

    sc = WestWallRules().load_scenario(load_data("bastogne-spearhead"))
    legal = default_placements(sc, WestWallRules().initial_state(sc, {}), "US")
    (tmp_path / "us.txt").write_text("\n".join(f"place {u} at {h}" for u, h in legal.items()))
    run("submit", g, tmp_path / "us.txt", "--key", "bob", "--yes")
    assert "1/3" in complete("reach", str(g), "1/")
    reachable = complete("draft", "move", str(g), "1/3", "28")
    assert "2812" in reachable and all(h.startswith("28") for h in reachable)


def test_27_check_with_no_file_checks_the_draft_as_submit_would_sign_it(home: Path, tmp_path: Path) -> None:
    """[27] 'pbem submit GAME' signs the draft; 'pbem check GAME' shows it (it asked for a file)."""
    g = tmp_path / "game"
    run("key", "new", "alice")
    run("key", "new", "bob")
    run("new", "bastogne-spearhead", g, "--player", "DE=alice", "--player", "US=bob")
    empty = CliRunner().invoke(cli, ["check", str(g)])
    assert isinstance(empty.exception, InputError) and "holds no order" in str(empty.exception)
    from pbem.engine.scenarios import load_data
    from pbem.systems.westwall.rules import WestWallRules, default_placements

    sc = WestWallRules().load_scenario(load_data("bastogne-spearhead"))
    legal = default_placements(sc, WestWallRules().initial_state(sc, {}), "US")
    first = sorted(legal)[0]
    run("draft", "order", g, f"place {first} at {legal[first]}")
    partial = CliRunner().invoke(cli, ["check", str(g)])  # the draft read: the rest must be set up
    assert isinstance(partial.exception, IllegalOrders) and "must be set up" in str(partial.exception)
    assert f"- {first} must be set up" not in str(partial.exception)
    for uid in sorted(legal)[1:]:
        run("draft", "order", g, f"place {uid} at {legal[uid]}")
    shown = run("check", g).output
    assert f"{first} at {legal[first]}" in shown and "Set-up" in shown
    assert f"{first} at {legal[first]}" in run("check", g, "--key", "bob").output
