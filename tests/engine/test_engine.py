"""The engine with toy rulesets: hooks, more than two sides, chain exhaustion, a ruleset that
breaks the alternation guarantee, idempotent advance."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import DATA
from helpers.protocol import GAME_ID, SCRIPT, TOY, env, listing, ok, pbem

from pbem.engine.gamedir import Game, open_checked, open_for_verify
from pbem.engine.replay import Replay
from pbem.engine.ruleset import Decision
from pbem.engine.steps import StepRecord
from pbem.errors import VerificationError
from pbem.systems.toy import ToyRules, ToyScenario


class SoloRules(ToyRules):
    """Broken on purpose: after A's roll it is A's decision again."""

    system = "toy-solo"

    def load_scenario(self, data: Any) -> ToyScenario:
        return super().load_scenario(dict(data, system="toy"))

    def pending(self, scenario: ToyScenario, state: Any) -> list[Decision]:
        if state["phase"] == "roll":
            return [Decision("A", "player-turn", "A rolls again", revealer="B")]
        return super().pending(scenario, state)


class SilentRules(ToyRules):
    """Broken on purpose: a random decision that names nobody to reveal its dice."""

    system = "toy-silent"

    def load_scenario(self, data: Any) -> ToyScenario:
        return super().load_scenario(dict(data, system="toy"))

    def pending(self, scenario: ToyScenario, state: Any) -> list[Decision]:
        return [Decision(d.side, d.kind, d.label, random=d.random) for d in super().pending(scenario, state)]




def hot_seat(tmp_path: Path, scenario: Path, keys: dict[str, str], *options: str) -> tuple[Path, Path]:
    home = tmp_path / "home"
    for name in sorted(set(keys.values())):
        ok(pbem("key", "new", name, home=home))
    g = tmp_path / "g"
    players = [x for side, name in keys.items() for x in ("--player", f"{side}={name}")]
    opts = [x for o in options for x in ("--option", o)]
    ok(pbem("new", scenario, g, *players, *opts, "--game-id", GAME_ID, home=home))
    return home, g


def submit(tmp_path: Path, home: Path, g: Path, orders: dict[str, Any], key: str) -> Any:
    path = tmp_path / "o.json"
    path.write_text(json.dumps(orders))
    return pbem("submit", "--yes", g, path, "--key", key, home=home)


def test_output_hook_runs_once_per_new_turn_and_checker_names_derived_file(tmp_path: Path) -> None:
    """Visitors are handed to the game when it is opened (no process-wide registry): the output
    hook writes what is missing once per turn, and verify's checker names a bad derived file."""
    from pbem.engine import play
    from pbem.engine.hooks import Hooks

    calls: list[str] = []

    def notes(game: Game, rp: Replay, rec: StepRecord) -> list[Path]:
        path = game.dir / f"notes-{rec.step:04d}.txt"
        if path.exists():  # the contract: write what is missing, skip the rest
            return []
        path.write_text(f"{rec.turn_hash}\n")
        calls.append(rec.name)
        return [path]

    def check_notes(game: Game, rp: Replay) -> None:
        for rec in rp.records:
            path = game.dir / f"notes-{rec.step:04d}.txt"
            if path.exists() and path.read_text() != f"{rec.turn_hash}\n":
                raise VerificationError(path.name, "does not match its turn")

    hooks = Hooks(checkers=(check_notes,), outputs=(notes,))
    keys = {"A": "alice", "B": "bob"}
    home, g = hot_seat(tmp_path, TOY, keys)
    assert not list(g.glob("notes-*")) and calls == []  # 'pbem new' hands the engine its own hooks only

    def orders(step: int) -> Any:
        return lambda state, side: SCRIPT[step][1]

    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        assert [p.name for p in open_checked(g, hooks).advance({})] == ["notes-0000.txt"]
        assert open_checked(g, hooks).advance({}) == []  # written once
        res = play.submit(open_checked(g, hooks), orders(0), "alice")
        assert [p.name for p in res.written] == ["move-0001-A.json", "turn-0001.json", "notes-0001.txt"]
        assert calls == ["turn-0000.json", "turn-0001.json"]
        open_for_verify(g, hooks).verify()
        (g / "notes-0001.txt").write_text("tampered\n")
        with pytest.raises(VerificationError, match="notes-0001.txt"):
            open_for_verify(g, hooks).verify()
        open_for_verify(g).verify()  # a game opened without the checker does not look
        # a derived file a killed process never wrote is written by the next command that writes
        (g / "notes-0001.txt").unlink()
        res = play.submit(open_checked(g, hooks), orders(1), "bob")
        assert {"notes-0001.txt", "notes-0002.txt"} <= {p.name for p in res.written}
    ok(pbem("verify", g, home=home))  # the command's own hooks know nothing of notes


def test_advance_is_idempotent(tmp_path: Path) -> None:
    keys = {"A": "alice", "B": "bob"}
    home, g = hot_seat(tmp_path, TOY, keys)
    for side, orders in SCRIPT[:4]:
        ok(submit(tmp_path, home, g, orders, keys[side]))
    before = listing(g)
    game = Game.open(g)
    assert game.advance({}) == []
    assert listing(g) == before


def test_three_sides_dice_keyed_by_the_next_side(tmp_path: Path) -> None:
    keys = {"A": "alice", "B": "bob", "C": "carol"}
    home, g = hot_seat(tmp_path, DATA / "toy-trio.json", keys)
    script = [
        ("A", {"kind": "setup", "side": "A", "handicap": 0}),
        ("B", {"kind": "setup", "side": "B", "handicap": 1}),
        ("C", {"kind": "setup", "side": "C", "handicap": 2}),
        ("A", {"kind": "roll", "side": "A", "round": 1, "dice": 1}),
        ("B", {"kind": "roll", "side": "B", "round": 1, "dice": 1}),
        ("C", {"kind": "roll", "side": "C", "round": 1, "dice": 1}),
        ("A", {"kind": "acknowledge", "side": "A"}),
    ]
    for side, orders in script:
        ok(submit(tmp_path, home, g, orders, keys[side]))
    ok(pbem("verify", g, home=tmp_path / "nobody"))
    t4 = json.loads((g / "turn-0004.json").read_bytes())
    m5 = json.loads(__import__("base64").b64decode(json.loads((g / "move-0005-B.json").read_bytes())["payload"]))
    assert t4["reveals"][1] == m5["reveal"]  # A's roll keyed by B's reveal (next side in order)
    t6 = json.loads((g / "turn-0006.json").read_bytes())
    m7 = json.loads(__import__("base64").b64decode(json.loads((g / "move-0007-A.json").read_bytes())["payload"]))
    assert t6["reveals"][1] == m7["reveal"]  # C's roll keyed by A's reveal (cyclic)


def test_chain_exhaustion_is_a_clear_refusal(tmp_path: Path) -> None:
    keys = {"A": "alice", "B": "bob"}
    # A sends 4 messages in SCRIPT (set-up, two rolls, acknowledgement); a chain of 3 runs out.
    # B's last roll (step 6) needs A's 4th reveal: the hot-seat tool sees it when B submits.
    home, g = hot_seat(tmp_path, TOY, keys, "chain_length=3")
    for side, orders in SCRIPT[:5]:
        ok(submit(tmp_path, home, g, orders, keys[side]))
    before = listing(g)
    res = submit(tmp_path, home, g, SCRIPT[5][1], "bob")
    assert res.code == 2 and "A's dice chain is exhausted (3 reveals)" in res.err
    assert listing(g) == before


def test_ruleset_breaking_alternation_is_caught(tmp_path: Path) -> None:
    keys = {"A": "alice", "B": "bob"}
    home, g = hot_seat(tmp_path, DATA / "toy-solo.json", keys)
    ok(submit(tmp_path, home, g, {"kind": "setup", "side": "A", "handicap": 0}, "alice"))
    ok(submit(tmp_path, home, g, {"kind": "setup", "side": "B", "handicap": 0}, "bob"))
    before = listing(g)
    res = submit(tmp_path, home, g, {"kind": "roll", "side": "A", "round": 1, "dice": 1}, "alice")
    assert res.code == 2 and "ruleset error" in res.err and "must be B's" in res.err
    assert listing(g) == before


def test_a_random_decision_must_name_its_revealer(tmp_path: Path) -> None:
    keys = {"A": "alice", "B": "bob"}
    data = json.loads((DATA / "toy-solo.json").read_text())
    data["system"] = "toy-silent"
    (tmp_path / "toy-silent.json").write_text(json.dumps(data))
    home, g = hot_seat(tmp_path, tmp_path / "toy-silent.json", keys)
    ok(submit(tmp_path, home, g, {"kind": "setup", "side": "A", "handicap": 0}, "alice"))
    before = listing(g)
    res = submit(tmp_path, home, g, {"kind": "setup", "side": "B", "handicap": 0}, "bob")
    assert res.code == 2 and "names no other side to reveal its dice" in res.err
    assert listing(g) == before


def test_scenario_copy_must_match_genesis(tmp_path: Path) -> None:
    keys = {"A": "alice", "B": "bob"}
    home, g = hot_seat(tmp_path, TOY, keys)
    data = json.loads((g / "scenario.json").read_bytes())
    data["rounds"] = 3
    from pbem.protocol.canonical import canonical_bytes

    (g / "scenario.json").write_bytes(canonical_bytes(data) + b"\n")
    res = pbem("verify", g, home=home)
    assert res.code == 1 and res.err.startswith("pbem: scenario.json: content hash")
    res = pbem("status", g, home=home)
    assert res.code == 2 and "scenario.json" in res.err


def test_scenario_memo_blocks_nest_and_unwind_by_identity() -> None:
    """A memo is reused only inside its block; nested blocks with equal (empty) memos unwind the
    right one (the first version removed by equality and broke the outer block)."""
    from pbem.engine import gamedir
    from pbem.engine.scenarios import content_hash, load_data

    data = load_data(str(TOY))
    digest = content_hash(data)
    depth = len(gamedir._MEMOS)
    with gamedir.scenario_memo():
        outer = gamedir._MEMOS[-1]
        with gamedir.scenario_memo():  # empty, equal to nothing yet
            inner = gamedir._MEMOS[-1]
            first = gamedir.load_scenario(data, digest)
            assert gamedir.load_scenario(data, digest) is first  # reused inside the block
        assert gamedir._MEMOS[-1] is outer and all(m is not inner for m in gamedir._MEMOS)
        assert gamedir.load_scenario(data, digest) is not first  # the inner block's memo is gone
    assert len(gamedir._MEMOS) == depth
