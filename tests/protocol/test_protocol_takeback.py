"""Take-back by mutual consent (docs/protocol.md, "Take-back by mutual consent"), end to end
through the CLI between two homes and two game directories (files travel only by
:meth:`Player.send`), and attacked as a hostile opponent would: every forged or late message is
refused by ``pbem ingest`` (one line, exit 2, nothing written) and, smuggled into an archive, by
``pbem verify`` (exit 1, naming the file).

The toy game (tests/data/toy-duel.json, :data:`SCRIPT`): steps 1-2 are set-ups (no dice), steps
3-6 roll dice keyed by the next side's reveal, step 7 is A's acknowledgement, whose chain value
keys B's dice of step 6."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from helpers.protocol import (
    GAME_ID,
    OTHER_GAME_ID,
    SCRIPT,
    Player,
    bastogne_set_up,
    listing,
    move_body,
    ok,
    pbem,
    play,
    sign_move,
    start_remote,
    written,
)

REDO = {"kind": "setup", "side": "B", "handicap": 2}
"""B's corrected set-up (the slip was a handicap of 1) [T2]."""


def _sign(body: dict[str, Any], key: Any, payload: str) -> bytes:
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import CONSENT_TYPE, TAKEBACK_TYPE, envelope_bytes, sign

    kind = {"takeback": TAKEBACK_TYPE, "consent": CONSENT_TYPE}[payload]
    return envelope_bytes(sign(canonical_bytes(body), kind, [key]))


def _hash(raw: bytes) -> str:
    from pbem.protocol.canonical import sha256_hex
    from pbem.protocol.dsse import parse_envelope

    return sha256_hex(parse_envelope(raw, max_bytes=1 << 20, what="x").body())


def _request_body(step: int, side: str, move: bytes, number: int = 1, game: str = GAME_ID) -> dict[str, Any]:
    return {"ds": "pbem/takeback/v1", "game": game, "step": step, "side": side, "number": number,
            "move": _hash(move)}


def _consent_body(step: int, side: str, request: bytes, move: bytes, number: int = 1,
                  game: str = GAME_ID) -> dict[str, Any]:
    return {"ds": "pbem/takeback-consent/v1", "game": game, "step": step, "side": side, "number": number,
            "request": _hash(request), "move": _hash(move)}


def _take_back_step2(a: Player, b: Player) -> None:
    """B asks to take back its set-up (step 2); A reads the preview and agrees; B redoes it."""
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    ok(a.send(b, ["consent-0002-A-1.json"]))
    ok(b.submit(REDO))
    ok(b.send(a, ["move-0002-B-redo1.json"]))


def _refused(player: Player, path: Path, what: str) -> None:
    """``player`` ingests ``path``: exit 2, one line naming ``what``, nothing written."""
    before = listing(player.dir)
    res = player.ingest(path)
    assert res.code == 2, res
    assert what in res.err and len(res.err.strip().splitlines()) == 1, res.err
    assert listing(player.dir) == before


def _verify_names(tmp_path: Path, source: Path, extra: dict[str, bytes], name: str, what: str) -> None:
    """A copy of ``source`` with ``extra`` files smuggled in: verify exits 1 naming ``name``."""
    target = tmp_path / f"smuggled-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(source, target)
    for n, raw in extra.items():
        (target / n).write_bytes(raw)
    res = pbem("verify", target, home=tmp_path / "nobody")
    assert res.code == 1, res
    assert name in res.err and what in res.err and len(res.err.strip().splitlines()) == 1, res.err


# the whole exchange ---------------------------------------------------------------------------


def test_take_back_then_play_on_both_archives_verify(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    # B's request changes nothing yet, on either machine; A's ingest shows exactly what is undone
    res = ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    assert written(res) == ["takeback-0002-B-1.json"]
    res = ok(b.send(a, ["takeback-0002-B-1.json"]))
    assert written(res) == ["takeback-0002-B-1.json"]
    assert "B takes a handicap of 1" in res.err and "pbem takeback consent" in res.err
    status = json.loads(ok(a.run("status", a.dir, "--json")).out)
    assert status["pending"][0]["side"] == "A"  # not automatic: move 2 still stands
    # A agrees: the consent is written, turn 2 (computed from the withdrawn move) goes
    res = ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json",
                   "--key", "alice", "--yes"))
    assert written(res) == ["consent-0002-A-1.json"]
    assert "handicap of 1" in res.err and "removed turn-0002.json" in res.err
    assert not (a.dir / "turn-0002.json").exists() and (a.dir / "move-0002-B.json").exists()
    res = ok(a.send(b, ["consent-0002-A-1.json"]))
    assert written(res) == ["consent-0002-A-1.json"]
    for p in (a, b):  # both back at the turn before B's set-up
        status = json.loads(ok(p.run("status", p.dir, "--json")).out)
        assert status["pending"][0]["side"] == "B" and status["pending"][0]["kind"] == "setup"
    # the redo: the same step, the same chain value, other orders
    assert written(ok(b.submit(REDO))) == ["move-0002-B-redo1.json", "turn-0002.json"]
    assert move_body(b.dir / "move-0002-B-redo1.json")["reveal"] == move_body(b.dir / "move-0002-B.json")["reveal"]
    assert written(ok(b.send(a, ["move-0002-B-redo1.json"]))) == ["move-0002-B-redo1.json", "turn-0002.json"]
    t2 = json.loads((a.dir / "turn-0002.json").read_bytes())
    assert t2["state"]["scores"] == {"A": 2, "B": 2}  # the handicaps are added to the scores [T2]
    # play on to the end (the script's own orders from step 3)
    players = {"A": a, "B": b}
    for step, (side, orders) in enumerate(SCRIPT[2:], start=3):
        me = players[side]
        ok(me.submit(orders))
        ok(me.send(b if me is a else a, [f"move-{step:04d}-{side}.json"]))
    assert listing(a.dir).keys() == listing(b.dir).keys()
    for name in listing(a.dir):
        if not name.startswith(("mail-", "map-", "derived", "board")):
            assert (a.dir / name).read_bytes() == (b.dir / name).read_bytes(), name
    for p in (a, b):
        res = ok(pbem("verify", p.dir, home=tmp_path / "stranger"))
        assert "7 moves" in res.out
        assert ("step 2: B asked to take back move-0002-B.json (takeback-0002-B-1.json) and A agreed "
                "(consent-0002-A-1.json)") in res.out
        ok(p.run("verify", p.dir))  # and each player's own pbem
    # a stranger holding all the files (only the signed ones: turns are recomputed)
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in listing(a.dir):
        if name.startswith(("genesis", "scenario", "join-", "move-", "takeback-", "consent-")):
            shutil.copyfile(a.dir / name, bare / name)
    assert "A agreed" in ok(pbem("verify", bare, home=tmp_path / "stranger")).out


def test_take_back_of_a_move_that_revealed_the_value_keying_the_opponents_dice(tmp_path: Path) -> None:
    """A's acknowledgement (step 7) reveals the chain value that keyed B's dice of step 6: after
    the take-back B's turn 6 stands, byte for byte, on both machines; a redo can only carry the
    same value, and the tool refuses to re-sign the very move taken back."""
    a, b = start_remote(tmp_path)
    play(a, b, 7)
    turn6 = (b.dir / "turn-0006.json").read_bytes()
    ok(a.run("takeback", "request", a.dir, "--key", "alice", "--step", "7"))
    ok(a.send(b, ["takeback-0007-A-1.json"]))
    ok(b.run("takeback", "consent", b.dir, b.work / "inbox" / "takeback-0007-A-1.json", "--key", "bob", "--yes"))
    ok(b.send(a, ["consent-0007-B-1.json"]))
    for p in (a, b):
        assert (p.dir / "turn-0006.json").read_bytes() == turn6
        assert not (p.dir / "turn-0007.json").exists()
        ok(pbem("verify", p.dir, home=tmp_path / "stranger"))
    # the same acknowledgement again is the move taken back: refused, nothing written
    before = listing(a.dir)
    res = a.submit(SCRIPT[6][1])
    assert res.code == 2 and "orders taken back at step 7" in res.err
    assert listing(a.dir) == before


# attacks ---------------------------------------------------------------------------------------


def test_a_take_back_without_consent_is_refused(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    # B's own pbem will not sign a second move for step 2 without A's consent
    res = b.submit(REDO)
    assert res.code == 2 and "it is A's decision" in res.err and "move-0002-B.json is signed already" in res.err
    res = b.run("retract", b.dir, "--yes")  # nor discard a move it asked to take back (it was sent)
    assert res.code == 2 and "only the opponent's consent undoes it" in res.err
    # B signs one outside the tool, named as a redo: A's ingest refuses it
    old = move_body(b.dir / "move-0002-B.json")
    forged = sign_move(b, {**old, "orders": REDO})
    (b.work / "move-0002-B-redo1.json").write_bytes(forged)
    _refused(a, b.work / "move-0002-B-redo1.json", "signed two different moves for step 2")
    # smuggled into A's archive beside the request: verify names it
    _verify_names(tmp_path, a.dir, {"move-0002-B-redo1.json": forged}, "move-0002-B-redo1.json",
                  "no take-back of step 2 agreed by both sides")


def test_consents_from_the_wrong_key_side_step_or_game_are_refused(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    req = (b.dir / "takeback-0002-B-1.json").read_bytes()
    move = (b.dir / "move-0002-B.json").read_bytes()
    mallory = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))  # a key the game never registered
    cases = [
        # (why, consent file name, body, signing key, what ingest says)
        ("the requester's own key", "consent-0002-A-1.json", _consent_body(2, "A", req, move), b.private(),
         "not signed by A's registered key [P1]"),
        ("a third party", "consent-0002-A-1.json", _consent_body(2, "A", req, move), mallory,
         "not signed by A's registered key [P1]"),
        ("B agreeing to itself", "consent-0002-B-1.json", _consent_body(2, "B", req, move), b.private(),
         "only A, B's opponent, can agree"),
        ("another step", "consent-0001-A-1.json", _consent_body(1, "A", req, move), a.private(),
         "nobody asked for"),
        ("another game", "consent-0002-A-1.json", _consent_body(2, "A", req, move, game=OTHER_GAME_ID), a.private(),
         "belongs to game"),
        ("another request", "consent-0002-A-1.json", _consent_body(2, "A", move, move), a.private(),
         "agrees to another request or move"),
    ]
    for why, name, body, key, what in cases:
        raw = _sign(body, key, "consent")
        (a.work / name).write_bytes(raw)
        _refused(b, a.work / name, what)
        extra = {name: raw}
        if name.startswith("consent-0001"):
            what = "agrees to a take-back nobody asked for"
        elif "game" in why:
            what = "belongs to game"
        _verify_names(tmp_path, b.dir, extra, name, what)
    # and the genuine consent still works after all that
    ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    ok(a.send(b, ["consent-0002-A-1.json"]))


def test_a_replayed_consent_undoes_nothing_more(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    _take_back_step2(a, b)
    consent = (a.dir / "consent-0002-A-1.json").read_bytes()
    # sent again after the redo (a mail fetched twice, or on purpose): refused, nothing undone
    (a.work / "again.json").write_bytes(consent)
    _refused(b, a.work / "again.json", "agreed and done already")
    # renamed to pass for the consent to a second take-back (of the redo): verify names it
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    _verify_names(tmp_path, b.dir, {"consent-0002-A-2.json": consent}, "consent-0002-A-2.json",
                  "the file name or the request beside it")


def test_no_take_back_after_a_roll(tmp_path: Path) -> None:
    """A's step 3 rolls dice keyed by B's next reveal: B's tool computes them when it reads the move,
    so a consent after that would be B choosing whether A's dice stand [P3]."""
    a, b = start_remote(tmp_path)
    play(a, b, 3)
    res = a.run("takeback", "request", a.dir, "--key", "alice")
    assert res.code == 2 and "refused after a roll" in res.err
    assert not list(a.dir.glob("takeback-*"))
    # A signs the request outside the tool, B signs a consent outside its tool: both refused
    move = (a.dir / "move-0003-A.json").read_bytes()
    req = _sign(_request_body(3, "A", move), a.private(), "takeback")
    (a.work / "takeback-0003-A-1.json").write_bytes(req)
    _refused(b, a.work / "takeback-0003-A-1.json", "refused after a roll")
    con = _sign(_consent_body(3, "B", req, move), b.private(), "consent")
    _verify_names(tmp_path, b.dir, {"takeback-0003-A-1.json": req, "consent-0003-B-1.json": con},
                  "move-0003-A.json", "refused after a roll")
    # once B's move 4 revealed the value, move 3 is no longer the newest either
    play_on = SCRIPT[3][1]
    ok(b.submit(play_on))
    ok(b.send(a, ["move-0004-B.json"]))
    _refused(b, a.work / "takeback-0003-A-1.json", "only the newest move can be taken back")


def test_a_redo_that_changes_a_revealed_die_is_refused(tmp_path: Path) -> None:
    """After the take-back of A's step 7 (whose chain value keyed B's dice of step 6), a redo
    signed outside the tool with another chain value: refused by ingest and by verify [P3 chain]."""
    a, b = start_remote(tmp_path)
    play(a, b, 7)
    ok(a.run("takeback", "request", a.dir, "--key", "alice"))
    ok(a.send(b, ["takeback-0007-A-1.json"]))
    ok(b.run("takeback", "consent", b.dir, b.work / "inbox" / "takeback-0007-A-1.json", "--key", "bob", "--yes"))
    ok(b.send(a, ["consent-0007-B-1.json"]))
    old = move_body(a.dir / "move-0007-A.json")
    forged = sign_move(a, {**old, "reveal": "00" * 32})
    (a.work / "move-0007-A-redo1.json").write_bytes(forged)
    _refused(b, a.work / "move-0007-A-redo1.json", "reveal does not hash to A's previous chain value")
    _verify_names(tmp_path, b.dir, {"move-0007-A-redo1.json": forged}, "move-0007-A-redo1.json",
                  "reveal does not hash to A's previous chain value")
    # the move taken back, sent again as its own redo: refused (a take-back withdraws it for good)
    same = (a.dir / "move-0007-A.json").read_bytes()
    (a.work / "move-0007-A-redo1.json").write_bytes(same)
    _refused(b, a.work / "move-0007-A-redo1.json", "is the very move taken back at step 7")
    _verify_names(tmp_path, b.dir, {"move-0007-A-redo1.json": same}, "move-0007-A-redo1.json",
                  "is the very move taken back at step 7")
    # the withdrawn move itself, edited to another value and re-signed: verify names it
    _verify_names(tmp_path, b.dir, {"move-0007-A.json": forged}, "move-0007-A.json",
                  "reveal does not hash to A's previous chain value")


def test_only_the_author_may_ask(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    res = a.run("takeback", "request", a.dir, "--key", "alice")
    assert res.code == 2 and "written by B: only its author may ask" in res.err
    res = a.run("takeback", "request", a.dir, "--key", "alice", "--step", "1")
    assert res.code == 2 and "only the newest move can be taken back" in res.err
    move = (a.dir / "move-0002-B.json").read_bytes()
    req = _sign(_request_body(2, "A", move), a.private(), "takeback")
    (a.work / "takeback-0002-A-1.json").write_bytes(req)
    _refused(b, a.work / "takeback-0002-A-1.json", "only its author may ask")
    con = _sign(_consent_body(2, "B", req, move), b.private(), "consent")
    _verify_names(tmp_path, b.dir, {"takeback-0002-A-1.json": req, "consent-0002-B-1.json": con},
                  "takeback-0002-A-1.json", "only its author may ask")
    # B's request signed by A's key
    forged = _sign(_request_body(2, "B", move), a.private(), "takeback")
    (a.work / "takeback-0002-B-1.json").write_bytes(forged)
    _refused(a, a.work / "takeback-0002-B-1.json", "not signed by B's registered key [P1]")


def test_westwall_set_up_taken_back_maps_and_mail_redrawn(tmp_path: Path) -> None:
    """Bastogne: the U.S. set-up (no dice [9.1]) is taken back and redone -- its map and email
    drawn again, the redo carried by its email -- while the German player-turn that follows
    (movement and combat, one random decision) cannot be [P3]."""
    a, b = bastogne_set_up(tmp_path)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0001-US-1.json"]))
    res = ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0001-US-1.json", "--key", "alice",
                   "--yes"))
    assert "removed map-0001.svg" in res.err
    ok(a.send(b, ["consent-0001-DE-1.json"]))
    assert not (b.dir / "mail-0001.eml").exists() and not (b.dir / "map-0001.svg").exists()
    # the bot would sign the same set-up again: that is the move taken back, refused
    res = b.run("bot", b.dir, "--side", "US", "--key", "bob")
    assert res.code == 2 and "orders taken back at step 1" in res.err
    orders = move_body(b.dir / "move-0001-US.json")["orders"]
    units = sorted(orders["placements"])
    orders["placements"][units[0]], orders["placements"][units[1]] = \
        orders["placements"][units[1]], orders["placements"][units[0]]  # two units change hexes
    assert written(ok(b.submit(orders)))[:4] == ["move-0001-US-redo1.json", "turn-0001.json", "map-0001.svg",
                                                  "mail-0001.eml"]
    ok(b.send(a, ["mail-0001.eml"]))  # the redo travels in its email
    ok(a.run("bot", a.dir, "--side", "DE", "--key", "alice"))
    res = a.run("takeback", "request", a.dir, "--key", "alice")
    assert res.code == 2 and "refused after a roll" in res.err
    ok(a.send(b, ["move-0002-DE.json"]))
    for p in (a, b):
        res = ok(pbem("verify", "--redraw", p.dir, home=p.home))
        assert "US asked to take back move-0001-US.json" in res.out and "DE agreed" in res.out


def test_27_status_shows_a_request_waiting_for_consent_on_both_machines(tmp_path: Path) -> None:
    """[27] a pending request is said by `pbem status` (only verify said it), on the asker's machine
    and the opponent's, with the command that agrees; once agreed it is gone from status."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    for p in (a, b):
        out = ok(p.run("status", p.dir)).out
        assert "takeback  takeback-0002-B-1.json asks to take back move-0002-B.json, not agreed yet" in out
        assert "pbem takeback consent GAME_DIR takeback-0002-B-1.json --key KEY" in out
    ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    assert "takeback " not in ok(a.run("status", a.dir)).out
