"""Receipts (quick results): the co-revealer of a move discloses at once the chain value that keys
its dice, so the mover sees the result without waiting for a whole next move. Designed within
P1-P7: a message of its own kind, bound to game, step, side and the move it answers, signed by the
co-revealer, checked against the co-revealer's chain (which has one value there, so the receipt
and the later move can never disagree). Attacked as a hostile opponent would."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers.protocol import (
    GAME_ID,
    SCRIPT,
    Player,
    move_body,
    ok,
    pbem,
    play,
    start_remote,
    written,
)


@pytest.fixture
def at_roll(tmp_path: Path) -> tuple[Player, Player]:
    """The toy duel after both set-ups; A has signed its roll (step 3) and sent it to B, who
    ingested it (B's own seed resolves it) and wrote a receipt."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(a.submit(SCRIPT[2][1]))
    res = ok(b.run("ingest", b.dir, a.dir / "move-0003-A.json", "--receipt", "bob"))
    assert "receipt-0003-B.json" in written(res)
    return a, b


def test_receipt_gives_the_mover_its_result_at_once(at_roll: tuple[Player, Player], tmp_path: Path) -> None:
    a, b = at_roll
    assert not (a.dir / "turn-0003.json").exists()  # A cannot know its dice yet
    res = ok(b.send(a, ["receipt-0003-B.json"]))
    assert "turn-0003.json" in written(res)
    assert (a.dir / "turn-0003.json").read_bytes() == (b.dir / "turn-0003.json").read_bytes()
    assert json.loads((a.dir / "turn-0003.json").read_text())["events"][0]["side"] == "A"
    # verify now checks turn 3 (its dice are known from the receipt) instead of leaving it open
    res = pbem("verify", a.dir, home=tmp_path / "stranger")
    assert res.code == 0 and "not yet" not in res.out, res.out
    # the game goes on: B's next move reveals the same value, and everything agrees to the end
    play_rest(a, b, first=4)
    assert {p.name: p.read_bytes() for p in a.dir.glob("*.json")} == \
        {p.name: p.read_bytes() for p in b.dir.glob("*.json")}
    assert pbem("verify", a.dir, home=tmp_path / "stranger").code == 0


def play_rest(a: Player, b: Player, first: int) -> None:
    players = {"A": a, "B": b}
    for step, (side, orders) in enumerate(SCRIPT, start=1):
        if step < first:
            continue
        me, other = players[side], (b if side == "A" else a)
        ok(me.submit(orders))
        ok(me.send(other, [f"move-{step:04d}-{side}.json"]))


def _receipt_body(b: Player) -> dict:
    return move_body(b.dir / "receipt-0003-B.json")


def _sign(player: Player, body: dict, key: object = None) -> bytes:
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import RECEIPT_TYPE, envelope_bytes, sign

    return envelope_bytes(sign(canonical_bytes(body), RECEIPT_TYPE, [key or player.private()]))


def _offer(a: Player, raw: bytes, name: str = "receipt-0003-B.json") -> tuple[int, str]:
    inbox = a.work / "hostile"
    inbox.mkdir(exist_ok=True)
    (inbox / name).write_bytes(raw)
    before = sorted(p.name for p in a.dir.iterdir())
    res = a.ingest(inbox / name)
    assert sorted(p.name for p in a.dir.iterdir()) == before  # nothing written
    return res.code, res.err


def test_forged_receipts_are_refused(at_roll: tuple[Player, Player]) -> None:
    from pbem.protocol.dice import reveal

    a, b = at_roll
    body = _receipt_body(b)
    # signed by A's (registered!) key instead of B's [P1]
    code, err = _offer(a, _sign(a, body))
    assert code == 2 and "not signed by B's registered key" in err
    # a made-up reveal, and B's previous value re-used, validly signed by B [P3 chain]
    for value in ("ab" * 32, move_body(b.dir / "move-0002-B.json")["reveal"]):
        code, err = _offer(a, _sign(b, {**body, "reveal": value}))
        assert code == 2 and "reveal does not hash to B's previous chain value" in err
    # bound to another move than the one waiting [P2]
    code, err = _offer(a, _sign(b, {**body, "move": "00" * 32}))
    assert code == 2 and "answers another move" in err
    # for another game, or another step [P2]
    code, err = _offer(a, _sign(b, {**body, "game": "ff" * 16}))
    assert code == 2 and "belongs to game" in err
    code, err = _offer(a, _sign(b, {**body, "step": 5}), "receipt-0005-B.json")
    assert code == 2 and "no move waits for this receipt" in err
    # the right value, a second reveal ahead (skipping one link), is refused too
    skip = reveal(b.seed(), 512, 4).hex()
    code, err = _offer(a, _sign(b, {**body, "reveal": skip}))
    assert code == 2 and "[P3 chain]" in err


def test_a_copy_of_an_archived_receipt_is_checked_before_it_is_called_archived(at_roll: tuple[Player, Player]) -> None:
    # The receipt's name was the whole check: any bytes under it were "already in the archive".
    a, b = at_roll
    ok(b.send(a, ["receipt-0003-B.json"]))
    body = _receipt_body(b)
    code, err = _offer(a, _sign(a, body))  # the same body re-signed by A's (registered!) key [P1]
    assert code == 2 and "not signed by B's registered key" in err and "[P1]" in err, err
    code, err = _offer(a, _sign(b, {**body, "reveal": "ab" * 32}))  # another body, validly signed
    assert code == 2 and "another receipt is already archived" in err, err
    code, err = _offer(a, (b.dir / "receipt-0003-B.json").read_bytes())
    assert code == 0 and "already in the archive: receipt-0003-B.json" in err


def test_a_receipt_in_the_archive_that_disagrees_is_named_by_verify(at_roll: tuple[Player, Player], tmp_path: Path) -> None:
    a, b = at_roll
    ok(b.send(a, ["receipt-0003-B.json"]))
    play_rest(a, b, first=4)
    copy = tmp_path / "doctored"
    shutil.copytree(a.dir, copy)
    body = _receipt_body(b)
    (copy / "receipt-0003-B.json").write_bytes(_sign(a, body))  # re-signed by the wrong key
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 1 and "receipt-0003-B.json" in res.err and "[P1]" in res.err
    assert GAME_ID  # (the game the fixtures use)


def test_pbem_receipt_when_none_is_due_says_why(tmp_path: Path) -> None:
    """[29] It exited 0 saying nothing; now one line, exit 2, and nothing written."""
    a, b = start_remote(tmp_path)
    res = b.run("receipt", b.dir, "--key", "bob")
    assert res.code == 2 and "no receipt is due: no move has been made yet" in res.err
    play(a, b, 1)  # A's set-up: no dice
    res = b.run("receipt", b.dir, "--key", "bob")
    assert res.code == 2 and "move-0001-A.json, rolls no dice" in res.err
    res = a.run("receipt", a.dir, "--key", "alice")
    assert res.code == 2 and "move-0001-A.json, is yours" in res.err
    play(a, b, 2)
    ok(a.submit(SCRIPT[2][1]))  # A's roll: its dice wait for B's reveal
    ok(b.ingest(a.dir / "move-0003-A.json"))
    res = ok(b.run("receipt", b.dir, "--key", "bob"))
    assert "receipt-0003-B.json" in written(res)
    after = sorted(p.name for p in b.dir.iterdir())
    res = b.run("receipt", b.dir, "--key", "bob")
    assert res.code == 2 and "receipt-0003-B.json is already written" in res.err
    assert sorted(p.name for p in b.dir.iterdir()) == after  # the refusal wrote nothing


def test_orders_while_the_newest_move_waits_name_its_step(tmp_path: Path) -> None:
    """A's second roll (step 5) waits for B's reveal: asking for the orders of the next decision
    names step 5, the move that waits, though the replay has let go of the steps before it (found in
    the 0.2.0 trial of issue 28: a Bastogne game waiting on step 5 said "step 3 is not resolved")."""
    a, b = start_remote(tmp_path)
    play(a, b, 4)
    ok(a.submit(SCRIPT[4][1]))  # step 5, A's roll: its dice wait for B's next message
    res = a.run("orders", a.dir, "--side", "A")
    assert res.code == 2, res.out
    assert "step 5 is not resolved yet" in res.err, res.err
