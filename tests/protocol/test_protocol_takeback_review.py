"""A second reader's attacks on take-back by mutual consent (docs/protocol.md, "Take-back by mutual
consent"): each test states what the document promises and fails where the code does not keep it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from helpers.protocol import env, listing, move_body, ok, pbem, play, sign_move, start_remote

from pbem.cli._common import open_with_seeds
from pbem.engine.play import ingest as play_ingest
from pbem.errors import InputError
from protocol.test_protocol_takeback import REDO, _consent_body, _request_body, _sign


def test_a_refused_ingest_carrying_a_consent_removes_nothing(tmp_path: Path) -> None:
    """Every refusal writes nothing: A's genuine consent travels with a move B's ingest refuses
    (exit 2); B's archive must be exactly as before -- turn 2 included, not rolled back."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    shutil.copyfile(a.dir / "consent-0002-A-1.json", a.work / "consent-0002-A-1.json")
    old = move_body(b.dir / "move-0002-B.json")
    (a.work / "move-0005-B.json").write_bytes(sign_move(b, {**old, "step": 5}))  # refused: step 5 of 2
    before = listing(b.dir)
    res = b.ingest(a.work / "consent-0002-A-1.json", a.work / "move-0005-B.json")
    assert res.code == 2 and len(res.err.strip().splitlines()) == 1, res
    assert listing(b.dir) == before  # fails today: turn-0002.json was removed


def test_verify_names_a_forged_request_beside_the_genuine_one(tmp_path: Path) -> None:
    """A request signed by a key the game never registered, smuggled into an archive, is named by
    verify -- also when the genuine request of the same take-back is there (its file name sorts
    first, and scan_takebacks keeps one request per step and number, dropping the side)."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    move = (a.dir / "move-0002-B.json").read_bytes()
    mallory = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    target = tmp_path / "smuggled"
    shutil.copytree(a.dir, target)
    (target / "takeback-0002-A-1.json").write_bytes(_sign(_request_body(2, "A", move), mallory, "takeback"))
    res = pbem("verify", target, home=tmp_path / "stranger")
    assert res.code == 1 and "takeback-0002-A-1.json" in res.err, res  # fails today: exit 0, ignored


def test_verify_refuses_a_redo_identical_to_a_move_taken_back_before(tmp_path: Path) -> None:
    """"A redo identical to the move taken back is refused (a take-back withdraws one body for
    good)": ingest refuses it; verify must too, also for a withdrawn redo (take-back 2 of a redo1
    that is the original move again). Verify checks _check_redo only for the standing move."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    # ingest refuses the original as redo 1 ...
    orig = (a.dir / "move-0002-B.json").read_bytes()
    (b.work / "move-0002-B-redo1.json").write_bytes(orig)
    res = a.ingest(b.work / "move-0002-B-redo1.json")
    assert res.code == 2 and "is the very move taken back" in res.err, res
    # ... but an archive holding it as a withdrawn redo 1, taken back again, verifies
    target = tmp_path / "crafted"
    shutil.copytree(a.dir, target)
    (target / "move-0002-B-redo1.json").write_bytes(orig)
    req2 = _sign(_request_body(2, "B", orig, number=2), b.private(), "takeback")
    (target / "takeback-0002-B-2.json").write_bytes(req2)
    (target / "consent-0002-A-2.json").write_bytes(_sign(_consent_body(2, "A", req2, orig, number=2),
                                                         a.private(), "consent"))
    old = move_body(a.dir / "move-0002-B.json")
    (target / "move-0002-B-redo2.json").write_bytes(sign_move(b, {**old, "orders": REDO}))
    res = pbem("verify", target, home=tmp_path / "stranger")
    assert res.code == 1 and "move-0002-B-redo1.json" in res.err, res  # fails today: exit 0


def test_verify_names_a_forged_consent_whose_name_sorts_after_the_genuine_one(tmp_path: Path) -> None:
    """The other order: the genuine consent-0002-A-1.json sorts first, the forgery signed for B by a
    key the game never registered comes second; verify names the forgery all the same."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    move = (a.dir / "move-0002-B.json").read_bytes()
    req = (a.dir / "takeback-0002-B-1.json").read_bytes()
    mallory = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    target = tmp_path / "smuggled"
    shutil.copytree(a.dir, target)
    (target / "consent-0002-B-1.json").write_bytes(_sign(_consent_body(2, "B", req, move), mallory, "consent"))
    res = pbem("verify", target, home=tmp_path / "stranger")
    assert res.code == 1 and "consent-0002-B-1.json" in res.err, res


def test_a_refused_ingest_from_the_mailbox_removes_nothing(tmp_path: Path) -> None:
    """Fetching mail ingests one mail after another and goes on after a refusal, in no transaction
    of the command's: the ingest itself must leave the archive as it was (consent file included)."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(b.send(a, ["takeback-0002-B-1.json"]))
    ok(a.run("takeback", "consent", a.dir, a.work / "inbox" / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    old = move_body(b.dir / "move-0002-B.json")
    blobs = [("consent-0002-A-1.json", (a.dir / "consent-0002-A-1.json").read_bytes()),
             ("move-0005-B.json", sign_move(b, {**old, "step": 5}))]  # refused: step 5 of 2
    before = listing(b.dir)
    with env(PBEM_HOME=str(b.home), PBEM_PASSPHRASE=""):
        game, _local, seeds = open_with_seeds(b.dir)
        with pytest.raises(InputError):
            play_ingest(game, blobs, seeds)
    assert listing(b.dir) == before


def test_a_move_and_its_take_back_request_in_one_batch(tmp_path: Path) -> None:
    """B sends its set-up and, seeing the slip at once, the request to take it back in the same
    mail: A's ingest places the move first, then archives the request (not agreed)."""
    a, b = start_remote(tmp_path)
    play(a, b, 1)
    ok(b.submit({"kind": "setup", "side": "B", "handicap": 1}))
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    inbox = a.work / "inbox"
    inbox.mkdir(exist_ok=True)
    for n in ("takeback-0002-B-1.json", "move-0002-B.json"):  # the request given first
        shutil.copyfile(b.dir / n, inbox / n)
    res = ok(a.ingest(inbox / "takeback-0002-B-1.json", inbox / "move-0002-B.json"))
    assert (a.dir / "move-0002-B.json").is_file() and (a.dir / "takeback-0002-B-1.json").is_file()
    assert "pbem takeback consent" in res.err
    ok(a.run("takeback", "consent", a.dir, inbox / "takeback-0002-B-1.json", "--key", "alice", "--yes"))
    ok(pbem("verify", a.dir, home=tmp_path / "stranger"))


def test_a_request_that_crosses_the_opponents_next_move(tmp_path: Path) -> None:
    """docs/protocol.md, "A request that crosses the opponent's next move": B asks back its move 2
    while A, not holding the request yet, makes move 3. B takes move 3 in; A refuses the request
    (move 3 came after it); both archives verify, B's noting its request as never agreed."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(b.run("takeback", "request", b.dir, "--key", "bob"))
    ok(a.submit({"kind": "roll", "side": "A", "round": 1, "dice": 2}))
    ok(a.send(b, ["move-0003-A.json"]))
    inbox = a.work / "inbox"
    inbox.mkdir(exist_ok=True)
    shutil.copyfile(b.dir / "takeback-0002-B-1.json", inbox / "takeback-0002-B-1.json")
    before = listing(a.dir)
    res = a.ingest(inbox / "takeback-0002-B-1.json")
    assert res.code == 2 and "only the newest move can be taken back" in res.err, res
    assert listing(a.dir) == before
    ok(pbem("verify", a.dir, home=tmp_path / "stranger"))
    res = ok(pbem("verify", b.dir, home=tmp_path / "stranger"))
    assert "takeback-0002-B-1.json" in res.out and "not agreed (the game went on)" in res.out, res
