"""P3: when A signs a move whose dice are rolled, nothing A holds determines those dice.

We collect A's entire view at the moment A signed move 3 (a random decision): every file in A's
game directory, A's pbem home (private key, chain seed, P7 records, sides.json) and A's orders
files. The die key K_3 needs B's next reveal r (carried later by move 4). We show:

* r and K_3 appear nowhere in the view -- not as raw bytes, hex or base64;
* every 32-byte value the view holds (and A's whole own chain) gives a different K_3, and none
  of them is r;
* the only relation the view holds about r is ``SHA-256(r) == B's last revealed value``: learning r
  from the view means inverting SHA-256.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

from helpers.protocol import GAME_ID, SCRIPT, move_body, ok, play, start_remote

from pbem.protocol.dice import reveal, roll_key


def view_bytes(*roots: Path) -> list[bytes]:
    out = []
    for root in roots:
        for p in sorted(root.rglob("*")):
            if p.is_file():
                out.append(p.read_bytes())
    return out


def forms(value: bytes) -> list[bytes]:
    return [
        value,
        value.hex().encode(),
        value.hex().upper().encode(),
        base64.b64encode(value),
        base64.b64encode(value).rstrip(b"="),
        base64.urlsafe_b64encode(value).rstrip(b"="),
    ]


def candidates(view: list[bytes]) -> set[bytes]:
    """Every 32-byte value written in the view as hex or base64, plus raw 32-byte windows of
    small binary files."""
    found: set[bytes] = set()
    for data in view:
        text = data.decode("latin-1")
        for m in re.finditer(r"[0-9a-fA-F]{64}", text):
            found.add(bytes.fromhex(m.group(0)))
        for m in re.finditer(r"[A-Za-z0-9+/_-]{43}=?", text):
            token = m.group(0).rstrip("=") + "="
            try:
                raw = base64.b64decode(token.replace("-", "+").replace("_", "/"))
            except ValueError:
                continue
            if len(raw) == 32:
                found.add(raw)
    # and inside any base64 payloads (DSSE bodies): decode them and scan again
    for data in view:
        try:
            env = json.loads(data)
        except ValueError:
            continue
        if isinstance(env, dict) and isinstance(env.get("payload"), str):
            body = base64.b64decode(env["payload"]).decode("utf-8")
            for m in re.finditer(r"[0-9a-f]{64}", body):
                found.add(bytes.fromhex(m.group(0)))
    return found


def test_p3_decider_view_does_not_determine_the_roll_key(tmp_path: Path) -> None:
    a, b = start_remote(tmp_path)
    play(a, b, 2)
    ok(a.submit(SCRIPT[2][1]))  # A signs move 3: two dice, resolved by B's next reveal
    view = view_bytes(a.dir, a.home, a.work)
    m3 = move_body(a.dir / "move-0003-A.json")
    ok(a.send(b, ["move-0003-A.json"]))
    ok(b.submit(SCRIPT[3][1]))  # B answers: move 4 carries r
    m4 = move_body(b.dir / "move-0004-B.json")
    r = bytes.fromhex(m4["reveal"])
    assert r == reveal(b.seed(), 512, 2)
    turn3 = json.loads((b.dir / "turn-0003.json").read_bytes())
    k3 = bytes.fromhex(turn3["roll_key"])
    from pbem.protocol.canonical import canonical_bytes

    m3_hash = hashlib.sha256(canonical_bytes(m3)).hexdigest()
    rA = bytes.fromhex(m3["reveal"])
    assert roll_key(GAME_ID, 3, m3_hash, [rA, r]) == k3

    # 1. neither r nor K_3 is anywhere in A's view, in any encoding
    for secret in (r, k3):
        for form in forms(secret):
            assert not any(form in data for data in view), form

    # 2. every value in the view, and A's whole chain, is a wrong guess
    seen = candidates(view)
    assert rA in seen  # the scan does find 32-byte values (A's own reveal, hashes, ...)
    a_chain = {reveal(a.seed(), 512, j) for j in range(0, 20)}
    for c in seen | a_chain:
        assert c != r
        assert roll_key(GAME_ID, 3, m3_hash, [rA, c]) != k3

    # 3. the one relation the view holds: SHA-256(r) is B's previous value (move 2's reveal)
    b_last = bytes.fromhex(move_body(a.dir / "move-0002-B.json")["reveal"])
    assert hashlib.sha256(r).digest() == b_last
    assert b_last in seen
    assert not any(hashlib.sha256(c).digest() == b_last for c in seen | a_chain)


def test_p3_the_author_of_the_next_move_cannot_choose_it(tmp_path: Path) -> None:
    """B's reveal in move 4 is fixed by B's commitment: the only value accepted is the chain's."""
    a, b = start_remote(tmp_path)
    play(a, b, 3)
    commitment = bytes.fromhex(move_body(b.dir / "join-B.json")["commitment"])
    r = reveal(b.seed(), 512, 2)
    # fixed since B joined: two hashing steps lead from r to B's signed commitment
    assert hashlib.sha256(hashlib.sha256(r).digest()).digest() == commitment
    b_last = bytes.fromhex(move_body(a.dir / "move-0002-B.json")["reveal"])
    from pbem.protocol.dice import check_reveal

    assert check_reveal(b_last, r)
    for other in (hashlib.sha256(r).digest(), bytes(32), r[:-1] + bytes([r[-1] ^ 1])):
        assert not check_reveal(b_last, other)
