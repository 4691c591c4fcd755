"""[28] ``pbem bot`` reads and checks the game once: the orders it chooses are signed through the
game it opened to choose them (opening again re-read and re-checked the scenario and the whole
archive, about a tenth of the command). What it signs is what ``pbem submit`` signs of the same
orders: the same move file, byte for byte, in two copies of one game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.protocol import Player, bastogne_set_up, ok

from pbem.engine.gamedir import Game


def test_28_bot_opens_the_game_once_and_signs_what_submit_signs(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    a, _b = bastogne_set_up(tmp_path)  # the German to set up, in alice's home
    twin = Player(tmp_path, "twin", "DE")
    shutil.copytree(a.home, twin.home)
    shutil.copytree(a.dir, twin.dir)
    twin.name = "alice"  # the same key, under the same name, in a copy of the home

    orders = ok(a.run("bot", a.dir, "--side", "DE", "--key", "alice", "--dry-run")).out
    opened: list[Path] = []
    real_open = Game.open.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Game], game_dir: Path | str, *args: object, **kwargs: object) -> Game:
        opened.append(Path(game_dir))
        return real_open(cls, game_dir, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Game, "open", classmethod(counting))
    ok(a.run("bot", a.dir, "--side", "DE", "--key", "alice"))
    assert opened == [a.dir]
    monkeypatch.undo()

    ok(twin.submit(orders))
    moves = sorted(p.name for p in a.dir.glob("move-*-DE.json"))
    assert moves == sorted(p.name for p in twin.dir.glob("move-*-DE.json")) != []
    for name in moves:
        assert (a.dir / name).read_bytes() == (twin.dir / name).read_bytes(), name
