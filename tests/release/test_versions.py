"""Archives that outlive pbem's versions [23]: every game records the pbem release and the rules
version that wrote it; a game played under rules this pbem does not play is refused in one line
naming them and the pbem that plays them; a turn computed differently by another release says so
instead of reading like tampering; a body from a newer release says "upgrade"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.protocol import (
    GAME_ID,
    SCRIPT,
    move_body,
    ok,
    pbem,
    play,
    sign_move,
    start_remote,
)

import pbem as pbem_package
from pbem import __version__


def _genesis_body(game: Path) -> dict[str, object]:
    return move_body(game / "genesis.json")


def test_genesis_joins_and_moves_record_the_pbem_release(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 4)
    assert _genesis_body(a.dir)["pbem"] == __version__
    assert move_body(a.dir / "join-B.json")["pbem"] == __version__
    for step in range(1, 5):
        side = SCRIPT[step - 1][0]
        assert move_body(a.dir / f"move-{step:04d}-{side}.json")["pbem"] == __version__


def test_pbem_version_names_the_release_and_every_systems_rules(tmp_path: Path) -> None:
    from pbem.engine.ruleset import known_systems
    from pbem.systems.westwall.rules import WestWallRules

    res = ok(pbem("--version", home=tmp_path))
    lines = res.out.splitlines()
    assert lines[0] == f"pbem {__version__}"
    listed = {line.split()[0]: line.split()[1] for line in lines[1:]}
    assert set(listed) == set(known_systems())
    assert listed["westwall"] == WestWallRules().rules_id


def _westwall_game(tmp_path: Path, version: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Bastogne game whose genesis was signed by a pbem playing ``westwall/VERSION``."""
    from pbem.systems.westwall.rules import WestWallRules

    home = tmp_path / "home"
    ok(pbem("key", "new", "de", home=home))
    ok(pbem("key", "new", "us", home=home))
    game = tmp_path / f"game-{version}"
    with monkeypatch.context() as m:
        m.setattr(WestWallRules, "version", version)
        ok(pbem("new", "bastogne-spearhead", game, "--player", "DE=de", "--player", "US=us", home=home))
    assert _genesis_body(game)["rules"] == f"westwall/{version}"
    return game


def _one_line_refusal(game: Path, home: Path, code: int = 2) -> str:
    """``pbem verify``'s one line: exit 2 for an archive it cannot read, 1 for one that fails."""
    res = pbem("verify", game, home=home)
    assert res.code == code, (res.out, res.err)
    assert res.err.count("\n") == 1 and "Traceback" not in res.err
    return res.err


def test_a_game_under_earlier_rules_names_them_and_the_pbem_that_plays_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _westwall_game(tmp_path, "1", monkeypatch)
    err = _one_line_refusal(game, tmp_path / "stranger")
    assert "westwall/1" in err and "westwall/2" in err
    assert "1c7f7eb" in err and "ab49ce4" in err  # the development builds that played westwall/1
    assert "tamper" not in err and "changed" not in err


def test_a_game_under_unknown_newer_rules_is_refused_by_name_with_upgrade(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _westwall_game(tmp_path, "7", monkeypatch)
    err = _one_line_refusal(game, tmp_path / "stranger")
    assert "westwall/7" in err and "upgrade pbem" in err
    assert f"pbem {__version__}" in err and "newer" in err


def _diverging_toy(tmp_path: Path, writer: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A toy game written by pbem ``writer``, then verified by this pbem whose toy rules score
    every step one point higher (a rules change that forgot to bump the rules version)."""
    import pbem.engine.play.orders as move_bodies
    import pbem.engine.play.signing as sealed_bodies
    from pbem.systems.toy import ToyRules

    with monkeypatch.context() as m:
        m.setattr(move_bodies, "__version__", writer)  # where move bodies are built
        m.setattr(sealed_bodies, "__version__", writer)
        a, b = start_remote(tmp_path)
        play(a, b, 6)
    assert move_body(a.dir / "move-0003-A.json")["pbem"] == writer
    real = ToyRules.resolve

    def resolve(self: ToyRules, *args: Any, **kwargs: Any) -> Any:
        out = real(self, *args, **kwargs)
        for side in out.state["scores"]:
            out.state["scores"][side] += 1
        return out

    monkeypatch.setattr(ToyRules, "resolve", resolve)
    return a.dir


def test_a_turn_another_release_computed_differently_names_the_releases_not_tampering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _diverging_toy(tmp_path, "0.1.9", monkeypatch)
    err = _one_line_refusal(game, tmp_path / "stranger", code=1)
    assert "[P5/P6]" in err
    assert f"written by pbem 0.1.9 and this is pbem {__version__}" in err
    assert "verifies with pbem 0.1.9" in err and "not tampering" in err


def test_a_turn_this_release_computed_differently_is_a_changed_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _diverging_toy(tmp_path, __version__, monkeypatch)
    err = _one_line_refusal(game, tmp_path / "stranger", code=1)
    assert "[P5/P6]" in err and "file was changed" in err and "not tampering" not in err


def test_a_body_from_a_newer_release_says_upgrade_not_forgery(tmp_path: Path) -> None:
    from pbem.protocol.archive import parse_move

    a, b = start_remote(tmp_path)
    play(a, b, 1)
    body = move_body(a.dir / "move-0001-A.json")
    future = {**body, "step": 2, "side": "B", "pbem": "9.0.0", "deadline": "a field 9.0 added"}
    raw = sign_move(b, future)
    with pytest.raises(pbem_package.errors.InputError) as exc:
        parse_move(raw, "move-0002-B.json")
    assert "written by pbem 9.0.0, newer than this pbem" in str(exc.value) and "upgrade pbem" in str(exc.value)
    # the same unknown field from a release that is not newer stays a plain refusal
    raw = sign_move(b, {**future, "pbem": "0.0.1"})
    with pytest.raises(pbem_package.errors.InputError) as exc:
        parse_move(raw, "move-0002-B.json")
    assert "upgrade" not in str(exc.value) and "deadline" in str(exc.value)
    # a body the protocol reads, ingested by the opponent, stays readable after the field
    ok(b.ingest(a.dir / "move-0001-A.json"))
    assert json.loads((b.dir / "turn-0001.json").read_text())["game"] == GAME_ID
