"""Progress reports of the long commands (verify, html): the callback behind the terminal's bar
is told every step in order, and the bar is drawn only for a terminal and a long job."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers.paths import ROOT

from pbem.engine.gamedir import Game
from pbem.render.site import write_site

EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


def test_verify_and_html_report_every_step_in_order(tmp_path: Path) -> None:
    game_dir = tmp_path / "g"
    shutil.copytree(EXAMPLE, game_dir)
    seen: list[tuple[int, int]] = []
    game = Game.open(game_dir)
    game.verify(progress=lambda done, total: seen.append((done, total)))
    last = max(int(p.name[5:9]) for p in game_dir.glob("move-*.json"))
    assert seen == [(k, last) for k in range(1, last + 1)]
    seen.clear()
    write_site(Game.open(game_dir), tmp_path / "site", progress=lambda done, total: seen.append((done, total)))
    assert seen == [(k, last) for k in range(0, last + 1)]


def test_no_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    from helpers.protocol import pbem

    res = pbem("verify", EXAMPLE, home=tmp_path / "home")
    assert res.code == 0 and "verifying" not in res.err


def test_the_bar_is_drawn_on_a_terminal_for_a_long_job(monkeypatch: object) -> None:
    import io
    import sys

    from pbem.cli.look import _progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    monkeypatch.setattr(sys, "stderr", out)  # type: ignore[attr-defined]
    with _progress("fetching") as tick:
        for n in range(1, 51):
            tick(n, 50)
    assert "fetching" in out.getvalue() and "50/50" in out.getvalue()
    short = Terminal()
    monkeypatch.setattr(sys, "stderr", short)  # type: ignore[attr-defined]
    with _progress("verifying") as tick:
        for n in range(1, 6):
            tick(n, 5)
    assert short.getvalue() == ""  # five steps: no bar
