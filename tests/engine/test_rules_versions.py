"""Archives that outlive rules versions: a game begun under an earlier version of a system's rules
goes on under it (verify, status, submit), new games get the newest, and a version the ruleset no
longer plays is refused in one line (:meth:`pbem.engine.ruleset.Ruleset.at_version`)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import DATA
from helpers.protocol import GAME_ID, ok, pbem

from pbem.engine.ruleset import Checked, Dice, Resolution, get_ruleset
from pbem.errors import InputError
from pbem.systems.toy import ToyRules, ToyScenario, ToyState


class VersionedRules(ToyRules):
    """The toy game whose version 2 changed a rule: every roll scores a bonus point. Version 1 (no
    bonus) is still played; version 0 is not."""

    system = "toy-versioned"
    version = "2"
    plays = ("1",)
    earlier = {"0": "pbem development builds before version 1 (no release)"}

    def load_scenario(self, data: Any) -> ToyScenario:
        return super().load_scenario(dict(data, system="toy"))

    def resolve(self, scenario: ToyScenario, state: ToyState, side: str, orders: Any, dice: Dice,
                checked: Checked | None = None) -> Resolution:
        res = super().resolve(scenario, state, side, orders, dice, checked)
        rolled = [e for e in res.events if e["kind"] == "roll"]
        if self.since("2") and rolled:
            res.state["scores"][side] += 1
            res.events.append({"kind": "bonus", "side": side})
        return res


KEYS = {"A": "alice", "B": "bob"}
ORDERS = [
    ("alice", {"kind": "setup", "side": "A", "handicap": 0}),
    ("bob", {"kind": "setup", "side": "B", "handicap": 0}),
    ("alice", {"kind": "roll", "side": "A", "round": 1, "dice": 3}),
    ("bob", {"kind": "roll", "side": "B", "round": 1, "dice": 3}),
]


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    data = json.loads((DATA / "toy-duel.json").read_text())
    data["system"] = "toy-versioned"
    path = tmp_path / "toy-versioned.json"
    path.write_text(json.dumps(data))
    return path


@contextmanager
def release_playing(version: str) -> Iterator[None]:
    """This pbem as an older release was: playing only rules ``version``, for the block."""
    saved = VersionedRules.version, VersionedRules.plays
    VersionedRules.version, VersionedRules.plays = version, ()
    try:
        yield
    finally:
        VersionedRules.version, VersionedRules.plays = saved


def start(tmp_path: Path, scenario: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    for name in sorted(set(KEYS.values())):
        ok(pbem("key", "new", name, home=home))
    g = tmp_path / "g"
    players = [x for side, name in KEYS.items() for x in ("--player", f"{side}={name}")]
    ok(pbem("new", scenario, g, *players, "--game-id", GAME_ID, home=home))
    return home, g


def play(tmp_path: Path, home: Path, g: Path, steps: list[tuple[str, dict[str, Any]]]) -> None:
    for key, orders in steps:
        path = tmp_path / "o.json"
        path.write_text(json.dumps(orders))
        ok(pbem("submit", "--yes", g, path, "--key", key, home=home))


def genesis_rules(g: Path) -> str:
    envelope = json.loads((g / "genesis.json").read_text())
    rules: str = json.loads(base64.b64decode(envelope["payload"]))["rules"]
    return rules


def rolls_and_bonuses(g: Path) -> tuple[list[int], int]:
    """Points of every roll in the archive's turn files, and how many bonus events."""
    points, bonuses = [], 0
    for turn in sorted(g.glob("turn-*.json")):
        for e in json.loads(turn.read_text()).get("events", []):
            if e.get("kind") == "roll":
                points.append(e["points"])
            bonuses += e.get("kind") == "bonus"
    return points, bonuses


def test_at_version_and_since() -> None:
    rules = get_ruleset("toy-versioned")
    assert rules.rules_id == "toy-versioned/2" and rules.since("2") and rules.since("1")
    old = rules.at_version("1")
    assert old.rules_id == "toy-versioned/1" and not old.since("2") and old.since("1")
    assert rules.version == "2" and rules.at_version("2") is rules  # the newest is itself, unchanged
    assert rules.played_versions() == ["toy-versioned/2", "toy-versioned/1"]
    with pytest.raises(InputError, match=r"version '0' is not played by this pbem \(it plays toy-versioned/2, "
                                          r"toy-versioned/1\)"):
        rules.at_version("0")


def test_a_new_game_gets_the_newest_rules(tmp_path: Path, scenario: Path) -> None:
    home, g = start(tmp_path, scenario)
    assert genesis_rules(g) == "toy-versioned/2"


def test_a_game_begun_under_version_1_verifies_and_goes_on_under_it(tmp_path: Path, scenario: Path) -> None:
    with release_playing("1"):  # an older release starts the game and plays up to A's roll
        home, g = start(tmp_path, scenario)
        play(tmp_path, home, g, ORDERS[:3])
    assert genesis_rules(g) == "toy-versioned/1"
    ok(pbem("verify", g, home=home))  # this release: version 2 newest, still plays 1
    play(tmp_path, home, g, ORDERS[3:])  # the game goes on under version 1: no bonus, ever
    ok(pbem("verify", g, home=home))
    points, bonuses = rolls_and_bonuses(g)
    assert len(points) == 2 and bonuses == 0


def test_the_same_rolls_under_version_2_score_the_bonus(tmp_path: Path, scenario: Path) -> None:
    """The control of the test above: the same game and orders under version 2 score the bonus."""
    home, g = start(tmp_path, scenario)
    play(tmp_path, home, g, ORDERS)
    ok(pbem("verify", g, home=home))
    points, bonuses = rolls_and_bonuses(g)
    assert len(points) == 2 and bonuses == 2


def test_a_version_no_longer_played_is_refused_in_one_line(tmp_path: Path, scenario: Path) -> None:
    with release_playing("0"):
        home, g = start(tmp_path, scenario)
    res = pbem("status", g, home=home)
    assert res.code == 2 and "toy-versioned/0" in res.err and "pbem development builds before version 1" in res.err
    assert len(res.err.strip().splitlines()) == 1


def test_version_listing_names_what_is_still_played(tmp_path: Path) -> None:
    res = ok(pbem("--version", home=tmp_path))
    assert "toy-versioned/2 (also plays toy-versioned/1)" in res.out
