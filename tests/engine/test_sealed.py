"""Sealed simultaneous orders (P8): commit, then reveal, then one resolution keyed by every reveal.

The toy ``auction`` system (:mod:`pbem.engine.sealed`, :mod:`pbem.systems.auction`, rules [S1]..
[S4]) is played by three players, each with their own pbem home and game directory, exchanging
only move files -- in any order. Attacks are made as a player with a modified client would: signing
bodies outside the tool, revealing other orders than committed, revealing early, committing in
plain text, and reading everything a player holds before committing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import DATA
from helpers.protocol import (
    GAME_ID,
    Player,
    move_body,
    ok,
    pbem,
    sign_move,
    written,
)

from pbem.engine.sealed import commitment, derive_salt
from pbem.protocol.dice import roll_key

SCENARIO = DATA / "auction.json"
NONCES = {"A": "a1" * 32, "B": "b2" * 32, "C": "c3" * 32}


def bid(side: str, coins: int, round_: int = 1) -> dict[str, Any]:
    return {"kind": "bid", "side": side, "round": round_, "coins": coins}


def start(root: Path) -> dict[str, Player]:
    """A invites B and C by public key; both join; every join reaches everyone."""
    players = {s: Player(root, n, s) for s, n in (("A", "alice"), ("B", "bob"), ("C", "carol"))}
    for p in players.values():
        p.new_key()
    a = players["A"]
    args: list[str | Path] = ["new", SCENARIO, a.dir, "--player", "A=alice", "--game-id", GAME_ID,
                              "--nonce", NONCES["A"]]
    for s in ("B", "C"):
        pub = a.work / f"{s}.pub"
        shutil.copyfile(players[s].pub, pub)
        args += ["--player", f"{s}={pub}"]
    ok(a.run(*args))
    for s in ("B", "C"):
        shutil.copytree(a.dir, players[s].dir)
        ok(players[s].run("join", players[s].dir, "--key", players[s].name, "--nonce", NONCES[s]))
    for s in ("B", "C"):
        for t in players:
            if t != s:
                ok(players[s].send(players[t], [f"join-{s}.json"]))
    return players


def broadcast(players: dict[str, Player], sender: str, name: str, order: list[str] | None = None) -> None:
    for t in order or [t for t in players if t != sender]:
        ok(players[sender].send(players[t], [name]))


def commit(p: Player, coins: int, round_: int = 1) -> str:
    res = ok(p.submit(bid(p.side, coins, round_)))
    names = [n for n in written(res) if n.startswith("move-")]
    assert len(names) == 1
    return names[0]


def reveal(p: Player) -> str:
    res = ok(p.run("reveal", p.dir, "--key", p.name, "--yes"))
    names = [n for n in written(res) if n.startswith("move-")]
    assert len(names) == 1
    return names[0]


def files(p: Player) -> dict[str, bytes]:
    return {q.name: q.read_bytes() for q in sorted(p.dir.iterdir()) if q.is_file() and q.suffix == ".json"}


@pytest.fixture
def three(tmp_path: Path) -> dict[str, Player]:
    return start(tmp_path)


def acknowledge_all(players: dict[str, Player], order: list[str],
                    deliver: dict[str, list[str]] | None = None) -> dict[str, str]:
    """Every side acknowledges the commitments it holds (``pbem reveal`` in the acknowledgement
    phase of a round of three sides [29]) and sends it."""
    names = {s: reveal(players[s]) for s in order}
    for s in order:
        broadcast(players, s, names[s], (deliver or {}).get(s))
    return names


def play_round(players: dict[str, Player], bids: dict[str, int], round_: int,
               commit_order: list[str], deliver: dict[str, list[str]] | None = None) -> None:
    """Everyone commits (in ``commit_order``) and sends; everyone acknowledges the commitments and
    sends; then everyone reveals and sends."""
    names = {s: commit(players[s], bids[s], round_) for s in commit_order}
    for s in commit_order:
        broadcast(players, s, names[s], (deliver or {}).get(s))
    acknowledge_all(players, commit_order, deliver)
    names = {s: reveal(players[s]) for s in commit_order}
    for s in commit_order:
        broadcast(players, s, names[s], (deliver or {}).get(s))


def test_s2_three_players_any_order_byte_identical_and_verified(three: dict[str, Player], tmp_path: Path) -> None:
    a, b, c = three["A"], three["B"], three["C"]
    # Round 1: C commits first, then A, then B; B hears C before A. Slots follow side order
    # (A 1, B 2, C 3) whatever the arrival order: a later slot waits for the earlier ones.
    assert commit(c, 4) == "move-0003-C.json"
    res = ok(c.send(b, ["move-0003-C.json"]))
    assert "move-0003-C.json" in written(res) and "turn-0003.json" not in written(res)
    assert commit(a, 2) == "move-0001-A.json"
    broadcast(three, "A", "move-0001-A.json")
    ok(c.send(a, ["move-0003-C.json"]))
    assert commit(b, 2) == "move-0002-B.json"
    broadcast(three, "B", "move-0002-B.json")
    for p in (a, b, c):  # now every commitment is in everywhere: turns 1-3 exist
        assert {"turn-0001.json", "turn-0002.json", "turn-0003.json"} <= set(files(p))
    # Acknowledgements of the same three commitments [29], then reveals, also out of order; the
    # last reveal resolves the round.
    assert acknowledge_all(three, ["C", "A", "B"]) == {"A": "move-0004-A.json", "B": "move-0005-B.json",
                                                       "C": "move-0006-C.json"}
    names = {s: reveal(three[s]) for s in ("B", "C", "A")}
    assert names == {"A": "move-0007-A.json", "B": "move-0008-B.json", "C": "move-0009-C.json"}
    for s in ("B", "C", "A"):
        broadcast(three, s, names[s])
    turn6 = json.loads((a.dir / "turn-0009.json").read_text())
    assert turn6["events"][0] == {"kind": "bids", "round": 1, "bids": {"A": 2, "B": 2, "C": 4}}
    assert turn6["events"][-1]["side"] == "C"  # [S3] highest bid wins and pays
    assert turn6["state"]["coins"] == {"A": 10, "B": 10, "C": 6}
    # Two more rounds, with a tie [S3] in round 2 (A and B bid 5).
    play_round(three, {"A": 5, "B": 5, "C": 1}, 2, ["A", "B", "C"])
    play_round(three, {"A": 0, "B": 0, "C": 0}, 3, ["B", "A", "C"])
    assert files(a) == files(b) == files(c)
    last = json.loads((a.dir / "turn-0027.json").read_text())
    assert last["pending"] == [] and last["outcome"] is not None
    tie = [e for e in json.loads((a.dir / "turn-0018.json").read_text())["events"] if e["kind"] == "tie-roll"]
    assert tie and set(tie[0]["rolls"]) == {"A", "B"}
    res = pbem("verify", a.dir, home=tmp_path / "stranger")
    assert res.code == 0, res.err


def test_p8_roll_key_uses_every_reveal_in_slot_order(three: dict[str, Player]) -> None:
    play_round(three, {"A": 3, "B": 3, "C": 3}, 1, ["A", "B", "C"])  # a three-way tie: dice
    a = three["A"]
    turn = json.loads((a.dir / "turn-0009.json").read_text())
    reveals = [move_body(a.dir / f"move-000{k}-{s}.json") for k, s in ((7, "A"), (8, "B"), (9, "C"))]
    hashes = [hashlib.sha256(_body_bytes(a.dir / f"move-000{k}-{s}.json")).hexdigest()
              for k, s in ((7, "A"), (8, "B"), (9, "C"))]
    from pbem.protocol.canonical import canonical_bytes

    expected = roll_key(GAME_ID, 9, hashlib.sha256(canonical_bytes(hashes)).hexdigest(),
                        [bytes.fromhex(r["reveal"]) for r in reveals])
    assert turn["roll_key"] == expected.hex()
    assert turn["reveals"] == [r["reveal"] for r in reveals]
    assert turn["rolls"]  # the tie was rolled


def _body_bytes(path: Path) -> bytes:
    from pbem.protocol.dsse import parse_envelope

    return parse_envelope(path.read_bytes(), max_bytes=1 << 20, what=path.name).body()


# -- P8 attacks ------------------------------------------------------------------------------------


def test_p8_nothing_b_holds_before_committing_reveals_a_bid(three: dict[str, Player]) -> None:
    # A commits a bid of 7 and sends it. Everything B holds before its own commitment -- its game
    # directory and its private pbem home -- is searched for A's orders, A's salt, and for any
    # value that, as a salt, opens A's commitment to one of the eleven possible bids.
    a, b = three["A"], three["B"]
    name = commit(a, 7)
    broadcast(three, "A", name)
    sealed = move_body(a.dir / name)["orders"]["sealed"]
    from pbem.protocol.canonical import canonical_bytes

    a_orders = bid("A", 7)
    salt = derive_salt(a.seed(), GAME_ID, 1, "A")
    assert commitment(a_orders, salt) == sealed  # the attack's sanity check: this pair opens it
    view = b"".join(p.read_bytes() for root in (b.dir, b.home) for p in sorted(root.rglob("*")) if p.is_file())
    for needle in (canonical_bytes(a_orders), salt, salt.hex().encode(), base64.b64encode(salt)):
        assert needle not in view
    assert b'"coins":7' not in view and b'"coins": 7' not in view
    # Every 32-byte window of the view, and every 64-hex-digit string in it, tried as the salt
    # of each possible bid: none opens the commitment.
    candidates = {view[i:i + 32] for i in range(len(view) - 31)}
    candidates |= {bytes.fromhex(t) for t in _hex64(view)}
    assert len(candidates) > 3_000  # the home (keys, seed, records) and the directory
    for coins in range(11):
        opens = _opener(bid("A", coins))
        assert opens(salt) == commitment(bid("A", coins), salt)  # the fast form is the real one
        assert not any(opens(cand) == sealed for cand in candidates), coins


def _opener(orders: dict[str, Any]) -> Any:
    """``salt -> commitment(orders, salt)``, hashing the fixed prefix once (the canonical form puts
    the keys in the order ds, orders, salt)."""
    from pbem.protocol.canonical import canonical_bytes

    prefix = hashlib.sha256(b'{"ds":"pbem/sealed/v1","orders":' + canonical_bytes(orders) + b',"salt":"')

    def opens(salt: bytes) -> str:
        h = prefix.copy()
        h.update(salt.hex().encode() + b'"}')
        return h.hexdigest()

    return opens


def _hex64(data: bytes) -> set[str]:
    import re

    return {m.decode() for m in re.findall(rb"[0-9a-f]{64}", data)}


def test_p8_reveal_that_does_not_match_its_commitment_is_named(three: dict[str, Player], tmp_path: Path) -> None:
    a, b, c = three["A"], three["B"], three["C"]
    for s, coins in (("A", 1), ("B", 2), ("C", 3)):
        broadcast(three, s, commit(three[s], coins))
    acknowledge_all(three, ["A", "B", "C"])
    # A's modified client reveals a bid of 9 with the right salt, validly signed.
    body = move_body(a.dir / "move-0001-A.json")
    turn6 = hashlib.sha256((a.dir / "turn-0006.json").read_bytes()).hexdigest()
    from pbem.protocol.dice import reveal as chain_reveal

    seed = a.seed()
    salt = derive_salt(seed, GAME_ID, 1, "A")
    forged = {**body, "step": 7, "answers": turn6, "reveal": chain_reveal(seed, 512, 3).hex(),
              "orders": {"orders": bid("A", 9), "salt": salt.hex()}}
    raw = sign_move(a, forged)
    inbox = b.work / "forged"
    inbox.mkdir()
    (inbox / "move-0007-A.json").write_bytes(raw)
    before = files(b)
    res = b.ingest(inbox / "move-0007-A.json")
    assert res.code != 0 and "do not match its commitment in move-0001-A.json [P8]" in res.err
    assert files(b) == before
    # smuggled into a copy of the archive, verify names the file and the side
    copy = tmp_path / "smuggled"
    shutil.copytree(b.dir, copy)
    (copy / "move-0007-A.json").write_bytes(raw)
    res = pbem("verify", copy, home=tmp_path / "stranger")
    assert res.code == 1 and "move-0007-A.json" in res.err and "[P8]" in res.err
    assert "orders revealed by A" in res.err
    _ = c


def test_p8_reveal_before_every_commitment_is_refused(three: dict[str, Player]) -> None:
    a, b = three["A"], three["B"]
    broadcast(three, "A", commit(a, 1))
    broadcast(three, "B", commit(b, 2))
    # C has not committed: no reveal is possible, by the tool ...
    res = a.run("reveal", a.dir, "--key", "alice", "--yes")
    assert res.code == 2 and "not every side has committed" in res.err
    # ... nor by a modified client: a reveal signed for slot 4 now answers no turn that exists
    # with every commitment in, so it cannot be placed.
    body = move_body(a.dir / "move-0001-A.json")
    seed = a.seed()
    from pbem.protocol.dice import reveal as chain_reveal

    early = {**body, "step": 4, "reveal": chain_reveal(seed, 512, 2).hex(),
             "orders": {"orders": bid("A", 1), "salt": derive_salt(seed, GAME_ID, 1, "A").hex()}}
    inbox = b.work / "early"
    inbox.mkdir()
    (inbox / "move-0004-A.json").write_bytes(sign_move(a, early))
    before = files(b)
    res = b.ingest(inbox / "move-0004-A.json")
    assert res.code != 0 and "step 3" in res.err
    assert files(b) == before


def test_p8_commitment_in_plain_text_is_refused(three: dict[str, Player]) -> None:
    a, b = three["A"], three["B"]
    turn0 = hashlib.sha256((a.dir / "turn-0000.json").read_bytes()).hexdigest()
    from pbem.protocol.dice import reveal as chain_reveal

    plain = {"ds": "pbem/move/v1", "game": GAME_ID, "step": 1, "side": "A", "answers": turn0,
             "reveal": chain_reveal(a.seed(), 512, 1).hex(), "orders": bid("A", 5)}
    inbox = b.work / "plain"
    inbox.mkdir()
    (inbox / "move-0001-A.json").write_bytes(sign_move(a, plain))
    res = b.ingest(inbox / "move-0001-A.json")
    assert res.code != 0 and '{"sealed": SHA-256 hex}' in res.err and "[P8]" in res.err


def test_p8_a_commitment_cannot_be_changed_after_others_committed(three: dict[str, Player], tmp_path: Path) -> None:
    # A commits 1, sees the others' commitments arrive, and tries to commit 9 instead from a
    # second copy of its game directory: the tool refuses [P7]; signed outside the tool, every
    # other pbem refuses a second body for step 1.
    a, b = three["A"], three["B"]
    copy = tmp_path / "a-copy"
    shutil.copytree(a.dir, copy)
    broadcast(three, "A", commit(a, 1))
    res = a.run("submit", "--yes", copy, a.write_orders(bid("A", 9)), "--key", "alice")
    assert res.code == 2 and ("already" in res.err)
    body = move_body(a.dir / "move-0001-A.json")
    seed = a.seed()
    salt = derive_salt(seed, GAME_ID, 1, "A")
    other = {**body, "orders": {"sealed": commitment(bid("A", 9), salt)}}
    inbox = b.work / "second"
    inbox.mkdir()
    (inbox / "move-0001-A.json").write_bytes(sign_move(a, other))
    res = b.ingest(inbox / "move-0001-A.json")
    assert res.code != 0 and "[P7]" in res.err


def test_p8_no_side_can_compute_the_dice_before_the_last_commitment(three: dict[str, Player]) -> None:
    # The dice are keyed by the chain values the three reveal moves disclose. When the last
    # commitment is made, each player's whole view lacks the other players' next chain values
    # (each the preimage of a value that player published), so nobody can compute the key.
    for s, coins in (("A", 4), ("B", 4), ("C", 4)):
        broadcast(three, s, commit(three[s], coins))
    views = {s: b"".join(q.read_bytes() for root in (p.dir, p.home) for q in sorted(root.rglob("*"))
                         if q.is_file()) for s, p in three.items()}
    nxt = {}
    from pbem.protocol.dice import reveal as chain_reveal

    for s, p in three.items():
        nxt[s] = chain_reveal(p.seed(), 512, 2)
        # published so far: its value after one reveal, whose preimage nxt[s] is
        assert hashlib.sha256(nxt[s]).hexdigest() == move_body(p.dir / f"move-000{'ABC'.index(s) + 1}-{s}.json")["reveal"]
    for viewer, view in views.items():
        for s in three:
            if s != viewer:
                for form in (nxt[s], nxt[s].hex().encode(), base64.b64encode(nxt[s])):
                    assert form not in view, (viewer, s)


def test_p1_an_altered_copy_of_a_commitment_waiting_for_earlier_slots_is_refused(three: dict[str, Player],
                                                                                 tmp_path: Path) -> None:
    # C commits first: A archives it to wait for A's and B's slots (Replay.held). A copy of it with
    # other signature bytes is checked before it is called the one waiting [P1].
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import MOVE_TYPE, envelope_bytes, sign

    a, c = three["A"], three["C"]
    name = commit(c, 2)
    ok(c.send(a, [name]))
    genuine = (c.dir / name).read_bytes()
    env = json.loads(genuine)
    sig = env["signatures"][0]["sig"]
    env["signatures"][0]["sig"] = sig[:10] + ("A" if sig[10] != "A" else "B") + sig[11:]
    copies = {"flipped": canonical_bytes(env) + b"\n",
              "re-signed": envelope_bytes(sign(canonical_bytes(move_body(c.dir / name)), MOVE_TYPE, [a.private()]))}
    before = files(a)
    for what, raw in copies.items():
        (tmp_path / f"{what}.json").write_bytes(raw)
        res = a.ingest(tmp_path / f"{what}.json")
        assert res.code == 2 and len(res.err.strip().splitlines()) == 1, res.err
        assert f"a copy of {name}" in res.err and "not signed by C's registered key" in res.err, res.err
        assert files(a) == before
    res = ok(a.ingest(c.dir / name))
    assert f"already in the archive: {name} (waiting for earlier slots)" in res.err


# -- P7 and disk faults: a commitment whose move file was never written ------------------------------


def tree(root: Path) -> dict[str, bytes]:
    """Every file and directory under ``root``, with the bytes of each file."""
    return {str(q.relative_to(root)): b"(dir)" if q.is_dir() else q.read_bytes() for q in sorted(root.rglob("*"))}


def one_line_refusal(res: Any, needle: str) -> None:
    assert res.code == 2, (res.code, res.err)
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: ") and "Traceback" not in res.err, res.err
    assert needle in lines[0], lines[0]


def fail_link(monkeypatch: pytest.MonkeyPatch, matches: Any) -> None:
    """The disk is full when a file whose name ``matches`` gets its name (the last step of every write
    pbem makes, :func:`pbem.protocol.fsutil.write_new`)."""
    import errno
    import os

    real = os.link

    def link(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        if matches(Path(dst)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dst))
        real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "link", link)


def committed_to(p: Player, name: str) -> str:
    sealed: str = move_body(p.dir / name)["orders"]["sealed"]
    return sealed


def test_p7_a_commitment_into_an_immutable_game_directory_fixes_no_orders(three: dict[str, Player],
                                                                         tmp_path: Path) -> None:
    # The game directory made immutable (chattr +i, as a hostile trial did): the commitment cannot be
    # written, so it never left this machine; nothing stays in the home either, and other orders can
    # be committed afterwards. Once one is written, it fixes the orders [P7].
    import subprocess

    a = three["A"]
    spare = tmp_path / "a-spare"
    shutil.copytree(a.dir, spare)
    before = (tree(a.dir), tree(a.home))
    locked = subprocess.run(["chattr", "+i", str(a.dir)], capture_output=True, text=True)
    if locked.returncode != 0:
        pytest.skip(f"chattr +i is not available here ({locked.stderr.strip()}): "
                    "test_p7_a_commitment_refused_by_a_full_disk_fixes_no_orders attacks the same path")
    try:
        res = a.submit(bid("A", 1))
    finally:
        subprocess.run(["chattr", "-i", str(a.dir)], check=True)
    one_line_refusal(res, "cannot write move-0001-A.json")
    assert (tree(a.dir), tree(a.home)) == before
    name = commit(a, 9)  # other orders than the refused ones
    assert committed_to(a, name) == commitment(bid("A", 9), derive_salt(a.seed(), GAME_ID, 1, "A"))
    # the commitment written fixes them: a second copy of the directory cannot commit other orders
    res = a.run("submit", "--yes", spare, a.write_orders(bid("A", 1)), "--key", "alice")
    one_line_refusal(res, "a commitment fixes them [P7]")
    ok(a.run("submit", "--yes", spare, a.write_orders(bid("A", 9)), "--key", "alice"))
    assert (spare / name).read_bytes() == (a.dir / name).read_bytes()  # the same bytes re-sent


def test_p7_a_commitment_refused_by_a_full_disk_fixes_no_orders(three: dict[str, Player],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The disk fills when the move file gets its name (after the orders and the P7 record were kept
    # in the home): both go again, and the team commits other orders, which then stand [P7].
    a = three["A"]
    before = (tree(a.dir), tree(a.home))
    with monkeypatch.context() as m:
        fail_link(m, lambda p: p.name == "move-0001-A.json")
        res = a.submit(bid("A", 1))
    one_line_refusal(res, "No space left on device")
    assert (tree(a.dir), tree(a.home)) == before
    name = commit(a, 2)
    assert committed_to(a, name) == commitment(bid("A", 2), derive_salt(a.seed(), GAME_ID, 1, "A"))
    records = sorted(q.name for q in a.home.glob("games/*/signed/*"))
    assert records == ["0001-A.json", "0001-A.sealed.json"]
    # the orders behind it are the ones revealed: the round plays out and verifies
    for s, coins in (("B", 3), ("C", 4)):
        broadcast(three, s, commit(three[s], coins))
    broadcast(three, "A", name)
    acknowledge_all(three, ["A", "B", "C"])
    for s in ("A", "B", "C"):
        broadcast(three, s, reveal(three[s]))
    opened = [move_body(q)["orders"] for q in sorted(a.dir.glob("move-*-A.json"))][-1]
    assert opened["orders"] == bid("A", 2)
    assert pbem("verify", a.dir, home=a.work / "stranger").code == 0


def test_p7_a_commitment_whose_record_cannot_be_written_leaves_no_orders_behind(
        three: dict[str, Player], monkeypatch: pytest.MonkeyPatch) -> None:
    # The home fills between the sealed orders and the P7 record: nothing was signed for keeps, so
    # the sealed orders go again and the game directory never saw the move.
    a = three["A"]
    before = (tree(a.dir), tree(a.home))
    with monkeypatch.context() as m:
        fail_link(m, lambda p: p.name == "0001-A.json" and p.parent.name == "signed")
        res = a.submit(bid("A", 1))
    one_line_refusal(res, "No space left on device")
    assert (tree(a.dir), tree(a.home)) == before
    commit(a, 5)


def test_p7_sealed_orders_kept_without_a_record_were_never_signed_and_give_way(three: dict[str, Player]) -> None:
    # What a process killed between the sealed orders and the P7 record leaves (and what an earlier
    # pbem left when the move file could not be written): orders in the home, no record, no move.
    # Nothing was signed, so other orders may be committed; they replace the orders kept.
    a = three["A"]
    signed = next(a.home.glob("games/*/signed"))
    (signed / "0001-A.sealed.json").write_bytes(json.dumps(bid("A", 1), sort_keys=True,
                                                           separators=(",", ":")).encode() + b"\n")
    name = commit(a, 7)
    assert committed_to(a, name) == commitment(bid("A", 7), derive_salt(a.seed(), GAME_ID, 1, "A"))
    assert json.loads((signed / "0001-A.sealed.json").read_bytes()) == bid("A", 7)
