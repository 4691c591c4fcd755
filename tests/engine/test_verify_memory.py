"""``pbem verify`` keeps what later steps look back to and drops the rest (issue 28, flat memory):
the newest turn, and in a sealed round the turns and messages since the round opened. Its memory
then does not grow with the game; every check and the report stay what they were
(``Replay.forget_checked``). The peak memory itself is measured by ``bench/memory.py``."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from helpers.paths import ROOT
from helpers.protocol import pbem as run_pbem

from pbem.engine.gamedir import Game
from pbem.engine.replay import Replay
from pbem.engine.steps import VerifySummary
from pbem.outputs import engine_hooks
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.dsse import envelope_bytes, sign

COMPAT = ROOT / "tests" / "compat"
EXAMPLE = ROOT / "examples" / "bastogne-spearhead"


def _replay(game_dir: Path, *, flat: bool) -> tuple[Replay, list[tuple[int, int, int]]]:
    """A strict replay of ``game_dir`` as verify makes it, and what it held as it reached each
    archived move: (records, placed moves, parsed move files)."""
    game = Game.open(game_dir, engine_hooks())
    rp = Replay(game, {}, strict=True, publication=game.publication() if game.hidden else None, flat=flat)
    held: list[tuple[int, int, int]] = []
    rp.progress = lambda step, total: held.append((len(rp.records), len(rp.placed), len(game.moves._parsed)))
    rp.run()
    return rp, held


def _summary(rp: Replay) -> VerifySummary:
    return rp.summary()


def test_a_sequential_game_holds_one_turn_whatever_its_length() -> None:
    """The example (16 moves, one decision at a time): when the walk reaches a move, the replay
    holds the newest turn and at most the one move whose dice wait for this move's reveal -- the
    same at move 16 as at move 2."""
    rp, held = _replay(EXAMPLE, flat=True)
    assert len(held) == 16
    assert set(held) == {(1, 0, 0), (1, 1, 1)}
    assert (len(rp.records), len(rp.placed), len(rp.game.moves._parsed)) == (1, 0, 0)
    assert rp.current.step == 16 and rp.base == 16


def test_flat_and_full_replays_report_alike() -> None:
    for game_dir in (EXAMPLE, COMPAT / "receipts", COMPAT / "megagame-acked", COMPAT / "auction-sealed-acked"):
        flat, _ = _replay(game_dir, flat=True)
        full, _ = _replay(game_dir, flat=False)
        assert _summary(flat) == _summary(full), game_dir.name
        assert flat.current.turn_bytes == full.current.turn_bytes
        assert len(full.records) == full.summary().turns_checked  # the full one holds every turn


def test_a_sealed_round_keeps_its_messages_until_it_is_resolved() -> None:
    """megagame-acked: Game Control and three teams; a round is 3 commitments, 3 acknowledgements,
    Game Control's ruling, 3 reveals and its report: 11 messages, 55 moves in 5 rounds. Met at a
    message of a round, the replay holds the turn that opened the round and one per message of it
    placed so far -- never more than 11 turns and 10 messages."""
    rp, held = _replay(COMPAT / "megagame-acked", flat=True)
    assert len(held) == 55
    for i, (records, placed, parsed) in enumerate(held):
        in_round = i % 11  # messages of this round placed before move i + 1
        assert (records, placed, parsed) == (in_round + 1, in_round, in_round), i + 1
    assert (len(rp.records), len(rp.placed)) == (1, 0)


def test_a_receipt_of_a_dropped_step_is_still_held_to_its_move(tmp_path: Path) -> None:
    """The receipts case: B's receipt for move 3 is checked after the walk, against the move and
    the reveal that resolved step 3, whose record a flat verify dropped long before. A receipt
    signed by B's key (the published example key the corpus was written with) that discloses
    another value is refused by name."""
    game = tmp_path / "game"
    shutil.copytree(COMPAT / "receipts", game)
    env = json.loads((game / "receipt-0003-B.json").read_bytes())
    body = json.loads(base64.b64decode(env["payload"]))
    body["reveal"] = "00" * 32
    key = load_pem_private_key((ROOT / "examples" / "keys" / "example-us.key").read_bytes(), None)
    forged = sign(canonical_bytes(body), env["payloadType"], [key])  # type: ignore[list-item]
    (game / "receipt-0003-B.json").write_bytes(envelope_bytes(forged))
    r = run_pbem("verify", game, home=tmp_path / "home")
    assert r.code == 1
    assert "receipt-0003-B.json" in r.err
    assert "does not match the move and reveal that resolved step 3 [P2]" in r.err


@pytest.mark.parametrize("name", ["receipts", "auction-umpired-acked"])
def test_verify_reports_every_turn_it_recomputed(name: str, tmp_path: Path) -> None:
    """The report's count of turn files covers the dropped records: one per turn file."""
    turns = len(list((COMPAT / name).glob("turn-*.json")))
    r = run_pbem("verify", COMPAT / name, home=tmp_path / "home")
    assert r.code == 0, r.err
    assert f"{turns - 1} moves, {turns} turn files recomputed byte for byte" in r.out
