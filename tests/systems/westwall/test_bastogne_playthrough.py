"""Bot-vs-bot playthroughs of every Bastogne scenario (OpenSpiel-style random playthrough checks).

Each game is a real signed archive: two local keys, ``pbem new`` with a fixed game id, then
:func:`pbem.engine.autoplay.autoplay` (the bot's orders signed like ``pbem submit`` and placed through the
engine's checks). After every step the invariants hold; deliberately illegal orders are refused
with their rule case; the game ends with an outcome and ``verify`` passes on the archive. One
game also goes through the command line (``pbem bot``, an illegal ``pbem submit``, ``pbem verify``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.protocol import env, example_keys, pbem

from pbem.engine.autoplay import autoplay
from pbem.engine.gamedir import Game
from pbem.errors import ArchiveError
from pbem.maps.hexmap import Hex
from pbem.systems.westwall.board import Board
from pbem.systems.westwall.bot import choose_orders
from pbem.systems.westwall.model import Scenario, State

GAME_ID = "0badc0de0badc0de0badc0de0badc0de"


def _new_game(tmp_path: Path, scenario: str) -> tuple[Path, Path]:
    home = tmp_path / "home"
    example_keys(home, "alice", "bob")  # fixed keys, id and nonce: the same dice every run
    g = tmp_path / "game"
    # fixed game id and chain nonce: the same dice on every run, so a playthrough is reproducible
    res = pbem("new", scenario, g, "--player", "DE=alice", "--player", "US=bob", "--game-id", GAME_ID,
               "--nonce", "c3" * 32, home=home)
    assert res.code == 0, res.err
    return home, g


# --------------------------------------------------------------------------------------------------
# Invariants between two consecutive states
# --------------------------------------------------------------------------------------------------


def check_step(sc: Scenario, before: State, after: State, events: list[dict[str, Any]]) -> None:
    """What may change in one step, and only through the events that say so."""
    board = Board.from_state(sc, after)
    # no two units in one hex [5.31]; no unit off the map or on closed terrain [5.21, 5.24]
    assert board.stacked_hexes() == {}
    for uid, h in board.positions():
        assert board.on_map(h)
        t = board.terrain(h)
        assert not t.prohibited, f"{uid} in {h}"
        if sc.unit[uid].is_mech and t.mech_prohibited:
            assert h in board.geo.road_hexes or h in board.geo.trail_hexes, f"{uid} in {h} [5.24]"
    # the German exclusion zone [15.26.3]
    ex = sc.special.get("exclusion")
    if isinstance(ex, dict):
        for uid, h in board.positions():
            if sc.unit[uid].side == ex["side"]:
                assert all(h.distance(Hex.parse(c)) > ex["within"] for c in ex["of"]), uid
    named: dict[str, set[str]] = {}
    for ev in events:
        if "unit" in ev:
            named.setdefault(ev["type"], set()).add(ev["unit"])
    eliminated = named.get("eliminated", set())
    moved_units = set().union(*(named.get(k, set()) for k in ("moved", "retreat", "displaced", "advance",
                                                             "placed")))
    exited = {ev["unit"] for ev in events if ev["type"] == "moved" and ev.get("exited")}
    for uid, old in before.units.items():
        new = after.units[uid]
        # units leave play only by a result or an exit [7.62, 12.0]; they never come back [12.11]
        if old.status in ("eliminated", "exited"):
            assert new == old, uid
            continue
        if new.status == "eliminated":
            assert uid in eliminated, f"{uid} disappeared without an elimination event"
        elif new.status == "exited":
            assert uid in exited, uid
        elif new.hex != old.hex:
            assert uid in moved_units, f"{uid} moved {old.hex}->{new.hex} with no event"
    assert set(before.units) == set(after.units)


def _illegal_variants(sc: Scenario, st: State, side: str, good: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """Orders that break one rule each, with the case the refusal must cite."""
    out: list[tuple[dict[str, Any], str]] = []
    board = Board.from_state(sc, st)
    other = sc.other(side)
    theirs = board.units_of(other)
    if theirs:
        uid = theirs[0]
        h = board.unit_hex(uid)
        assert h is not None
        n = next(iter(board.neighbours(h)))
        out.append(({**good, "moves": [{"unit": uid, "path": [str(n)], "exit": False}]}, "5.11"))
    out.append(({**good, "game_turn": st.game_turn + 1}, "4.1"))
    for uid in board.units_of(side):
        h = board.unit_hex(uid)
        assert h is not None
        if board.enemy_zoc(h, side):
            free = [n for n in board.neighbours(h) if not board.occupants(n) and not board.terrain(n).prohibited]
            if free:
                out.append(({**good, "moves": [{"unit": uid, "path": [str(free[0])], "exit": False}]}, "5.14"))
                break
    if good["attacks"]:
        out.append(({**good, "attacks": []}, "7.1"))  # 7.11 or 7.12 (or 7.21, 8.31): see below
    return out


def _cites(text: str, rule: str) -> bool:
    """Whether a refusal cites its case: ``[7.11]`` alone, or among the cases of one bracket
    (``... [8.11, 8.12]``: a message citing a case of its own is cited once, in one bracket [27])."""
    return any(rule in (c.strip() for c in inside.split(","))
               for inside in re.findall(r"\[([\d., ]+)\]", text))


# --------------------------------------------------------------------------------------------------
# The playthroughs
# --------------------------------------------------------------------------------------------------


def play(tmp_path: Path, scenario: str, seed: int, *, illegal_every: int = 3) -> dict[str, Any]:
    home, g = _new_game(tmp_path, scenario)
    seen = {"steps": 0, "refused": 0, "rules": set()}

    def observe(game: Game, rp: Any) -> None:
        sc = game.scenario
        before = State.parse(rp.records[-2].turn["state"])
        after = State.parse(rp.records[-1].turn["state"])
        check_step(sc, before, after, rp.records[-1].turn["events"])
        seen["steps"] += 1
        if not rp.current.pending or seen["steps"] % illegal_every:
            return
        decision = rp.current.pending[0]
        if decision.kind != "player-turn":
            return
        good = choose_orders(sc, after.to_json(), decision.side, seed=seed)
        for orders, rule in _illegal_variants(sc, after, decision.side, good):
            bad = game.ruleset.validate(sc, rp.current.state, decision.side, orders)
            assert bad, f"illegal orders accepted (expected [{rule}…])"
            # removing every attack breaks one of the compulsory-attack rules: 7.11/7.12, or 7.21 for
            # a unit in several zones, or 8.31 for adjacent artillery -- which one depends on where
            # the dice have put the units
            accepted = ("7.1", "7.2", "8.31") if rule == "7.1" else (rule,)
            assert any(v.rule.startswith(accepted) for v in bad), (rule, [str(v) for v in bad])
            assert all(_cites(str(v), v.rule) for v in bad), [str(v) for v in bad]
            seen["refused"] += 1
            seen["rules"].add(rule)

    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        rp = autoplay(g, seed=seed, observe=observe)
        assert not rp.current.pending and not rp.tail_open
        outcome = rp.current.turn["outcome"]
        assert outcome is not None and outcome["summary"]
        summary = Game.open(g).verify()
    assert summary.outcome == outcome["summary"]
    assert summary.steps == seen["steps"]
    assert seen["refused"] > 0
    return {"outcome": outcome, "summary": summary, "dir": g, "home": home, "seen": seen}


@pytest.mark.parametrize("seed", [0, 1])
def test_spearhead_playthrough(tmp_path: Path, seed: int) -> None:
    r = play(tmp_path, "bastogne-spearhead", seed)
    # setup + 7 game-turns of two player-turns + the closing acknowledge [15.16]
    assert r["summary"].steps == 1 + 7 * 2 + 1
    assert {"5.11", "4.1", "7.1"} <= r["seen"]["rules"]
    assert set(r["outcome"]["points"]) == {"DE", "US"}


def test_relief_playthrough(tmp_path: Path) -> None:
    r = play(tmp_path, "bastogne-relief", 0)
    # the game ends at the end of a game-turn with a LOC, or after Game-Turn 17 [15.27]
    assert r["outcome"]["winner"] in ("US", "DE")
    assert "[15.27]" in r["outcome"]["summary"]
    assert r["summary"].steps <= 1 + 9 * 2 + 1


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_spearhead_more_seeds(tmp_path: Path, seed: int) -> None:
    play(tmp_path, "bastogne-spearhead", seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_relief_more_seeds(tmp_path: Path, seed: int) -> None:
    play(tmp_path, "bastogne-relief", seed)


@pytest.mark.slow
def test_campaign_playthrough(tmp_path: Path) -> None:
    r = play(tmp_path, "bastogne-campaign", 0, illegal_every=5)
    assert r["summary"].steps == 1 + 18 * 2 + 1
    assert "[15.37]" in " ".join(r["outcome"]["breakdown"])


# --------------------------------------------------------------------------------------------------
# One round trip through the command line
# --------------------------------------------------------------------------------------------------


def test_cli_round_trip_with_two_local_keys(tmp_path: Path) -> None:
    home, g = _new_game(tmp_path, "bastogne-spearhead")
    # the wrong side, and a key that does not play the side: one line, exit 2
    res = pbem("bot", g, "--side", "DE", "--key", "alice", home=home)
    assert res.code == 2 and "it is US's decision" in res.err and len(res.err.strip().splitlines()) == 1
    res = pbem("bot", g, "--side", "US", "--key", "alice", home=home)
    assert res.code == 2 and "does not play US" in res.err
    # --dry-run prints the orders and writes nothing
    before = sorted(p.name for p in g.iterdir())
    res = pbem("bot", g, "--side", "US", "--key", "bob", "--dry-run", home=home)
    assert res.code == 0
    dry = json.loads(res.out)
    assert dry["kind"] == "setup" and sorted(p.name for p in g.iterdir()) == before
    # set-up, then two player-turns, through 'pbem bot' (= pbem submit)
    res = pbem("bot", g, "--side", "US", "--key", "bob", home=home)
    assert res.code == 0, res.err
    assert "move-0001-US.json" in res.out and "turn-0001.json" in res.out
    move = json.loads((g / "move-0001-US.json").read_bytes())
    assert move["payloadType"].startswith("application/vnd.pbem.move+json")
    for side, key in (("DE", "alice"), ("US", "bob")):
        res = pbem("bot", g, "--side", side, "--key", key, home=home)
        assert res.code == 0, res.err
    # an illegal order through 'pbem submit' is refused with its rule case, nothing written
    from pbem.protocol.localstate import LocalGame, local_seeds

    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        game = Game.open(g)
        rp = game.replay(local_seeds(game, LocalGame.of(game), derive=True))
    st = rp.current.turn["state"]
    assert rp.current.pending[0].side == "DE"
    where = Hex.parse(st["units"]["20"]["hex"])  # a U.S. unit, ordered by the German player
    bad = {"kind": "player-turn", "side": "DE", "game_turn": st["game_turn"],
           "moves": [{"unit": "20", "path": [str(where.neighbours()[0])]}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    before = sorted(p.name for p in g.iterdir())
    res = pbem("submit", "--yes", g, path, "--key", "alice", home=home)
    assert res.code == 2 and "[5.11]" in res.err
    assert sorted(p.name for p in g.iterdir()) == before
    # the rest in-process, then a stranger verifies the archive
    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        end = autoplay(g, seed=0)
    assert end.current.turn["outcome"] is not None
    res = pbem("verify", g, home=tmp_path / "stranger")
    assert res.code == 0 and "OK" in res.out and "16 moves" in res.out


def test_engine_refuses_a_signed_illegal_move(tmp_path: Path) -> None:
    """A move whose orders break a rule never enters the archive, even when validly signed."""
    from pbem.protocol import archive
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dice import reveal
    from pbem.protocol.dsse import MOVE_TYPE, envelope_bytes, sign
    from pbem.protocol.localstate import LocalGame, local_seeds, private_key

    home, g = _new_game(tmp_path, "bastogne-spearhead")
    with env(PBEM_HOME=str(home), PBEM_PASSPHRASE=""):
        game = Game.open(g)
        seeds = local_seeds(game, LocalGame.of(game), derive=True)
        rp = game.replay(seeds)
        placements = choose_orders(game.scenario, rp.current.state, "US")["placements"]
        placements["20"] = "2913"  # outside its area [15.12]
        body = {"ds": archive.MOVE_DS, "game": game.id, "step": 1, "side": "US",
                "answers": rp.current.turn_hash,
                "reveal": reveal(seeds["US"], game.chain_length, 1).hex(),
                "orders": {"kind": "setup", "side": "US", "placements": placements}}
        env_bytes = envelope_bytes(sign(canonical_bytes(body), MOVE_TYPE, [private_key("bob")]))
        with pytest.raises(ArchiveError, match=r"illegal orders: .*\[15\.12\]"):
            rp.add_move(archive.parse_move(env_bytes, "move-0001-US.json"))
    assert not (g / "move-0001-US.json").exists()
