"""Attacks on P1 (authenticity), P2 (one place only), the dice chain and P7 (one signature per step).

Each attack builds a message an adversary could really produce -- a forged or replayed envelope, a
body signed with the right key but the wrong content -- and checks that ingest refuses it (exit 2,
one line, nothing written) and that verify names the file when it is smuggled into the archive.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from helpers.paths import DATA
from helpers.protocol import (
    OTHER_GAME_ID,
    SCRIPT,
    Player,
    listing,
    move_body,
    ok,
    pbem,
    play,
    sign_move,
    start_remote,
)


def refused(res, *needles: str) -> None:  # type: ignore[no-untyped-def]
    assert res.code == 2, (res.code, res.err)
    assert len(res.err.strip().splitlines()) == 1, res.err
    assert "Traceback" not in res.err
    for n in needles:
        assert n in res.err, (n, res.err)


def drop(path: Path, name: str, data: bytes) -> Path:
    target = path / name
    target.write_bytes(data)
    return target


def setup_at_step3(tmp_path: Path) -> tuple[Player, Player, dict]:  # type: ignore[type-arg]
    """Steps 1-2 played; A has submitted step 3 (not yet sent). Returns A's real move-3 body."""
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(a.submit(SCRIPT[2][1]))
    return a, b, move_body(a.dir / "move-0003-A.json")


# -- P1 ------------------------------------------------------------------------------------------


def test_p1_move_signed_by_unregistered_key_refused(tmp_path: Path) -> None:
    a, b, body = setup_at_step3(tmp_path)
    mallory = Ed25519PrivateKey.generate()
    forged = drop(tmp_path, "move-0003-A.json", sign_move(a, body, key=mallory))
    before = listing(b.dir)
    refused(b.ingest(forged), "[P1]")
    assert listing(b.dir) == before
    # smuggled straight into an archive, verify names it
    shutil.copyfile(forged, b.dir / "move-0003-A.json")
    res = pbem("verify", b.dir, home=tmp_path / "nobody")
    assert res.code == 1 and res.err.startswith("pbem: move-0003-A.json:") and "[P1]" in res.err


def test_p1_flipped_signature_byte_refused(tmp_path: Path) -> None:
    a, b, _body = setup_at_step3(tmp_path)
    env = json.loads((a.dir / "move-0003-A.json").read_bytes())
    sig = bytearray(base64.b64decode(env["signatures"][0]["sig"]))
    for position in (0, 31, 63):
        flipped = bytearray(sig)
        flipped[position] ^= 0x01
        env2 = dict(env, signatures=[dict(env["signatures"][0], sig=base64.b64encode(bytes(flipped)).decode())])
        from pbem.protocol.canonical import canonical_bytes

        forged = drop(tmp_path, f"flip{position}.json", canonical_bytes(env2) + b"\n")
        refused(b.ingest(forged), "bad signature", "[P1]")
    assert not (b.dir / "move-0003-A.json").exists()
    ok(a.send(b, ["move-0003-A.json"]))  # the genuine file still goes in


def test_p1_signature_by_the_other_player_refused(tmp_path: Path) -> None:
    """B cannot write A's move, even with B's own registered key."""
    a, b, body = setup_at_step3(tmp_path)
    forged = drop(tmp_path, "move-0003-A.json", sign_move(b, body))
    refused(a.run("ingest", a.dir.parent / "game-bob", forged), "[P1]")


def altered_copies(raw: bytes, other: Player, payload_type: str) -> dict[str, bytes]:
    """Two forgeries of a signed file that keep its body: one character of its signature changed
    (a hostile trial's), and the body re-signed with ``other``'s registered key."""
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import envelope_bytes, parse_envelope, sign

    env = json.loads(raw)
    sig = env["signatures"][0]["sig"]
    env["signatures"][0]["sig"] = sig[:10] + ("A" if sig[10] != "A" else "B") + sig[11:]
    body = parse_envelope(raw, max_bytes=1 << 20, what="copy").body()
    return {"flipped": canonical_bytes(env) + b"\n",
            "re-signed": envelope_bytes(sign(body, payload_type, [other.private()]))}


def test_p1_an_altered_copy_of_an_archived_move_is_refused_not_called_archived(tmp_path: Path) -> None:
    # The body of a move is its identity, but a copy that carries other signature bytes is checked
    # as any move is before it is called the archived one: it exited 0 "already in the archive".
    from pbem.protocol.dsse import MOVE_TYPE

    a, b, _body = setup_at_step3(tmp_path)
    ok(a.send(b, ["move-0003-A.json"]))
    genuine = (a.dir / "move-0003-A.json").read_bytes()
    before = listing(b.dir)
    for what, raw in altered_copies(genuine, b, MOVE_TYPE).items():
        res = b.ingest(drop(tmp_path, f"{what}.json", raw))
        refused(res, "a copy of move-0003-A.json", "not signed by A's registered key", "[P1]")
        assert listing(b.dir) == before, what
    # the file itself, and as mail may end it (CRLF), are the archived move
    for what, raw in (("same", genuine), ("crlf", genuine.rstrip(b"\n") + b"\r\n")):
        res = ok(b.ingest(drop(tmp_path, f"{what}.json", raw)))
        assert "already in the archive: move-0003-A.json" in res.err, what
    assert listing(b.dir) == before


def test_p1_an_altered_copy_of_an_archived_join_is_refused(tmp_path: Path) -> None:
    from pbem.protocol.dsse import JOIN_TYPE

    a, b = start_remote(tmp_path)
    genuine = (b.dir / "join-B.json").read_bytes()
    before = listing(a.dir)
    for what, raw in altered_copies(genuine, a, JOIN_TYPE).items():
        refused(a.ingest(drop(tmp_path, f"{what}.json", raw)), "a copy of join-B.json", "[P1]")
        assert listing(a.dir) == before, what
    assert "already in the archive: join-B.json" in ok(a.ingest(drop(tmp_path, "same.json", genuine))).err


# -- P2 ------------------------------------------------------------------------------------------


def test_p2_move_replayed_into_another_game_refused(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path / "one")
    play(a, b, 1)
    # a second game between the same two people, with the same keys
    a2, b2 = start_remote_with_existing_keys(tmp_path / "two", a, b)
    before = listing(b2.dir)
    refused(b2.ingest(a.dir / "move-0001-A.json"), "belongs to game", "[P2]")
    assert listing(b2.dir) == before
    shutil.copyfile(a.dir / "move-0001-A.json", b2.dir / "move-0001-A.json")
    res = pbem("verify", b2.dir, home=tmp_path / "nobody")
    assert res.code == 1 and "move-0001-A.json" in res.err and "[P2]" in res.err


def start_remote_with_existing_keys(root: Path, a: Player, b: Player) -> tuple[Player, Player]:
    """A second game between the same two people (same keys), with a different game id."""
    a2, b2 = Player(root, "alice", "A"), Player(root, "bob", "B")
    for old, new in ((a, a2), (b, b2)):
        shutil.copytree(old.home / "keys", new.home / "keys")
    bob_pub = a2.work / "bob.pub"
    shutil.copyfile(b.pub, bob_pub)
    ok(a2.run("new", DATA / "toy-duel.json", a2.dir, "--player", "A=alice",
              "--player", f"B={bob_pub}", "--game-id", OTHER_GAME_ID))
    shutil.copytree(a2.dir, b2.dir)
    ok(b2.run("join", b2.dir, "--key", "bob"))
    ok(b2.send(a2, ["join-B.json"]))
    return a2, b2


def test_p2_move_replayed_into_another_step_refused(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    early = tmp_path / "early"
    shutil.copytree(b.dir, early)  # B's archive before any move
    play(a, b, 4)
    # A's step-3 move offered at step 1 of an earlier copy
    res = pbem("ingest", early, a.dir / "move-0003-A.json", home=b.home)
    refused(res, "step 3", "step 1")
    # A's step-1 move renamed into step 5's slot of a full archive
    shutil.copyfile(a.dir / "move-0001-A.json", b.dir / "move-0005-A.json")
    res = pbem("verify", b.dir, home=tmp_path / "nobody")
    assert res.code == 1 and "move-0005-A.json" in res.err and "[P2]" in res.err


def test_p2_move_by_the_side_not_to_move_refused(tmp_path: Path) -> None:
    a, b, body = setup_at_step3(tmp_path)
    # B signs orders for step 3 although it is A's decision
    from pbem.protocol.dice import reveal

    fake = dict(body, side="B", reveal=reveal(b.seed(), 512, 2).hex(),
                orders={"kind": "roll", "side": "B", "round": 1, "dice": 1})
    refused(b.ingest(drop(tmp_path, "m.json", sign_move(b, fake))), "A's decision", "[P2]")
    # and once A's move 3 is archived, B's body for step 3 cannot take its place
    ok(a.send(b, ["move-0003-A.json"]))
    refused(b.ingest(tmp_path / "m.json"), "already archived", "[P2]")


# -- the dice chain ------------------------------------------------------------------------------


def test_chain_reveal_not_hashing_to_previous_refused(tmp_path: Path) -> None:
    a, b, body = setup_at_step3(tmp_path)
    genuine = bytes.fromhex(body["reveal"])
    for bad in (hashlib.sha256(b"guess").digest(),  # any value
                hashlib.sha256(genuine).digest(),  # the previous value itself (re-use)
                ):
        forged = drop(tmp_path, "m3.json", sign_move(a, dict(body, reveal=bad.hex())))
        refused(b.ingest(forged), "previous chain value")
    # skipping one link (reveal j+1 instead of j) breaks the chain too
    from pbem.protocol.dice import reveal

    assert reveal(a.seed(), 512, 2) == genuine
    skip = reveal(a.seed(), 512, 3)  # A revealed value 1 at step 1; value 2 is due, 3 skips one
    forged = drop(tmp_path, "m3.json", sign_move(a, dict(body, reveal=skip.hex())))
    refused(b.ingest(forged), "previous chain value")
    ok(a.send(b, ["move-0003-A.json"]))


# -- P7 ------------------------------------------------------------------------------------------


def test_p7_signer_tool_refuses_second_body_for_a_step(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    spare = tmp_path / "spare"
    shutil.copytree(a.dir, spare)  # a second working copy, before step 3
    ok(a.submit(SCRIPT[2][1]))
    other_orders = a.write_orders({"kind": "roll", "side": "A", "round": 1, "dice": 1})
    before = listing(spare)
    res = a.run("submit", "--yes", spare, other_orders, "--key", "alice")
    refused(res, "you already signed other orders for step 3", "[P7]")
    assert listing(spare) == before
    # the same orders again: identical bytes, no new signature
    same = a.write_orders(SCRIPT[2][1])
    ok(a.run("submit", "--yes", spare, same, "--key", "alice"))
    assert (spare / "move-0003-A.json").read_bytes() == (a.dir / "move-0003-A.json").read_bytes()


def test_p7_ingest_refuses_second_body_for_archived_step(tmp_path: Path) -> None:
    a, b, body = setup_at_step3(tmp_path)
    ok(a.send(b, ["move-0003-A.json"]))
    # A's key (outside the tool) signs other orders for step 3
    other = dict(body, orders={"kind": "roll", "side": "A", "round": 1, "dice": 3, "cheer": ""})
    forged = drop(tmp_path, "m3b.json", sign_move(a, other))
    before = listing(b.dir)
    refused(b.ingest(forged), "already archived", "signed two different moves", "[P7]")
    assert listing(b.dir) == before
    # the identical file again is fine
    res = ok(b.ingest(a.dir / "move-0003-A.json"))
    assert "already in the archive: move-0003-A.json" in res.err
    # two move files for one step in an archive: verify refuses
    shutil.copyfile(forged, b.dir / "move-0003-B.json")
    res = pbem("verify", b.dir, home=tmp_path / "nobody")
    assert res.code in (1, 2) and "move-0003" in res.err and "[P7]" in res.err
