"""Committed dice: hash-chain commitments, roll keys and the d6 stream (protocol.md, P3/P4).

How a roll comes to be, and why nobody can know or choose it early:

1. At game creation each player commits, inside the signed genesis (or its own signed join), to
   the *head* of a SHA-256 hash chain whose secret seed is derived from their private key, the game
   id, the side and a fresh 32-byte **nonce** the player's own tool drew and published beside the
   commitment (:func:`chain_seed`, :func:`chain_head`). The nonce is what stops an inviter who
   re-uses a game id from making the opponent's chain repeat (P3, ``docs/protocol.md``); being
   public, it costs nothing to recovery: a lost working copy never strands a game, the seed can be
   derived again from the key and the archive.
2. Each message reveals the next preimage of its author's chain (:func:`reveal`); anyone checks
   it against the previous value (:func:`check_reveal`). The chain fixes every future reveal, so a
   player cannot pick one.
3. Random events caused by message *k* are resolved with the roll key
   ``K_k = SHA-256(JCS({"ds": "pbem/roll-key/v1", "game", "step", "body", "reveals"}))``
   (:func:`roll_key`), which needs the reveal of the *next* message from another party -- unknown
   to the author of message *k* when they signed.
4. The *i*-th die of a resolution comes from ``HMAC-SHA256(K_k, JCS({"ds": "pbem/d6/v1", "i": i,
   "ctr": c}))`` for c = 0, 1, …: the first byte below 252 gives ``1 + b % 6`` (252 = 42 * 6, so
   there is no modulo bias) (:class:`DiceStream`). Every roll is logged with its label and can
   be recomputed offline from public data (:func:`verify_rolls`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.plain import Plain
from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.keys import raw_private_bytes

CHAIN_SALT = b"pbem/dice-chain/v2"
NONCE_BYTES = 32
ROLL_KEY_DS = "pbem/roll-key/v1"
D6_DS = "pbem/d6/v1"
D6_LIMIT = 252
"""Bytes at or above this are rejected: 252 is the largest multiple of 6 not above 256."""
MAX_CTR = 1 << 20
"""Safety bound on HMAC blocks per die (each block of 32 bytes fails with probability (4/256)^32)."""


# --- commitment chain -------------------------------------------------------------------------


def new_nonce() -> bytes:
    """A fresh chain nonce from the operating system's random source (the one place pbem draws
    randomness, besides a new game id)."""
    import os

    return os.urandom(NONCE_BYTES)


def chain_seed(private_key: Ed25519PrivateKey, game_id: str, side: str, nonce: bytes) -> bytes:
    """The secret 32-byte seed of ``side``'s hash chain in game ``game_id``.

    HKDF-SHA256 over the Ed25519 seed, salt ``pbem/dice-chain/v2``, info the canonical JSON of
    ``{"game": game_id, "nonce": nonce hex, "side": side}``. ``nonce`` is drawn fresh by the
    player's own tool (:func:`new_nonce`) and published in the player's own signed genesis entry or
    join; nobody else chooses it, so no game id, option or genesis another party picks can make the
    chain repeat one the player has revealed elsewhere.
    """
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
        raise ValueError(f"a chain nonce is {NONCE_BYTES} bytes")
    info = canonical_bytes({"game": game_id, "nonce": nonce.hex(), "side": side})
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=CHAIN_SALT, info=info)
    return hkdf.derive(raw_private_bytes(private_key))


def _sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _iterate(value: bytes, times: int) -> bytes:
    for _ in range(times):
        value = _sha256(value)
    return value


def chain_head(seed: bytes, length: int) -> bytes:
    """The commitment ``h_length`` where ``h_0 = seed`` and ``h_{i+1} = SHA-256(h_i)``."""
    if length < 1:
        raise ValueError(f"a dice chain needs length >= 1, not {length}")
    return _iterate(seed, length)


def reveal(seed: bytes, length: int, j: int) -> bytes:
    """The *j*-th reveal of a chain of ``length``: ``h_{length-j}`` (``reveal(0)`` is the head).

    So ``SHA-256(reveal(j)) == reveal(j - 1)``. ``j > length`` means the chain is exhausted.
    """
    if length < 1:
        raise ValueError(f"a dice chain needs length >= 1, not {length}")
    if j < 0:
        raise ValueError(f"reveal index {j} is negative")
    if j > length:
        raise ValueError(
            f"dice chain exhausted: reveal {j} asked of a chain committed for {length} reveals"
        )
    return _iterate(seed, length - j)


def check_reveal(previous: bytes, candidate: bytes) -> bool:
    """Whether ``candidate`` is the next reveal after ``previous`` (``SHA-256(candidate) ==
    previous``), compared in constant time."""
    return hmac.compare_digest(_sha256(candidate), previous)


# --- roll keys and dice -----------------------------------------------------------------------


def roll_key(game_id: str, step: int, body_hash: str, reveals: list[bytes]) -> bytes:
    """``K_k``: SHA-256 of the JCS of the game, step, body hash and reveals (lowercase hex)."""
    doc = {
        "ds": ROLL_KEY_DS,
        "game": game_id,
        "step": step,
        "body": body_hash,
        "reveals": [r.hex() for r in reveals],
    }
    return _sha256(canonical_bytes(doc))


def d6_block(key: bytes, i: int, ctr: int) -> bytes:
    """The 32 HMAC bytes that die ``i`` scans at counter ``ctr``."""
    msg = canonical_bytes({"ds": D6_DS, "i": i, "ctr": ctr})
    return hmac.new(key, msg, hashlib.sha256).digest()


def scan_faces(block: bytes) -> Iterator[int]:
    """The faces a block of bytes yields, in order: each byte ``b < 252`` gives ``1 + b % 6``."""
    for b in block:
        if b < D6_LIMIT:
            yield 1 + b % 6


def derive_d6(key: bytes, i: int) -> tuple[int, int]:
    """Die ``i`` of the stream keyed by ``key``: ``(face, ctr)`` where ``ctr`` is the block used."""
    for ctr in range(MAX_CTR):
        for face in scan_faces(d6_block(key, i, ctr)):
            return face, ctr
    raise RuntimeError("no acceptable byte found (this cannot happen with SHA-256)")


class Roll(Plain, frozen=True):
    """One die as logged: its index in the stream, its label, its face and the counter used."""

    index: int
    label: str
    value: int
    ctr: int

    def to_json(self) -> dict[str, Any]:
        return {"i": self.index, "label": self.label, "value": self.value, "ctr": self.ctr}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Roll:
        return cls(index=data["i"], label=data["label"], value=data["value"], ctr=data["ctr"])


class DiceStream(Plain):
    """The committed dice of one resolution, keyed by its roll key; records every roll."""

    key: bytes
    rolls: list[Roll] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.key, bytes) or len(self.key) == 0:
            raise ValueError("a dice stream needs a non-empty bytes key")

    def d6(self, label: str) -> int:
        """The next six-sided die (1..6); ``label`` names the rule and occasion, e.g. ``"7.6 combat 3"``."""
        index = len(self.rolls)
        face, ctr = derive_d6(self.key, index)
        self.rolls.append(Roll(index, label, face, ctr))
        return face

    def faces(self, n: int) -> list[int]:
        """``n`` faces for statistical tests only: the same byte scan as :meth:`d6`, but using every
        acceptable byte of blocks ``d6_block(key, 0, c)``, c = 0, 1, …. Not a game die; records
        nothing."""
        out: list[int] = []
        ctr = 0
        while len(out) < n:
            out.extend(scan_faces(d6_block(self.key, 0, ctr)))
            ctr += 1
        return out[:n]


class FixedDice:
    """Predetermined faces for tests (like boardgame.io's ``MockRandom``); records rolls the same way."""

    def __init__(self, faces: list[int]) -> None:
        for f in faces:
            if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
                raise ValueError(f"a d6 face must be 1..6, not {f!r}")
        self._faces = list(faces)
        self.rolls: list[Roll] = []

    def d6(self, label: str) -> int:
        index = len(self.rolls)
        if index >= len(self._faces):
            raise RuntimeError(
                f"FixedDice exhausted: roll {index} ({label}) asked, only {len(self._faces)} given"
            )
        face = self._faces[index]
        self.rolls.append(Roll(index, label, face, 0))
        return face

    @property
    def remaining(self) -> int:
        return len(self._faces) - len(self.rolls)


class NoDice:
    """For decisions that may not roll: any roll is a programming error."""

    def __init__(self) -> None:
        self.rolls: list[Roll] = []

    def d6(self, label: str) -> int:
        raise RuntimeError("this decision may not roll dice")


def verify_rolls(key: bytes, rolls: list[dict[str, Any]]) -> str | None:
    """Recompute logged rolls from ``key``; ``None`` if all match, else one line on the first
    mismatch (also for malformed entries)."""
    if not isinstance(rolls, list):
        return "the roll log is not a list"
    for position, entry in enumerate(rolls):
        if not isinstance(entry, dict) or set(entry) != {"i", "label", "value", "ctr"}:
            return f"roll {position}: malformed entry (expected keys i, label, value, ctr)"
        index, label, value, ctr = entry["i"], entry["label"], entry["value"], entry["ctr"]
        if type(index) is not int or index != position:
            return f"roll {position}: index is {index!r}, expected {position}"
        if not isinstance(label, str):
            return f"roll {position}: label is not a string"
        face, used = derive_d6(key, position)
        if value != face or type(value) is not int:
            return f"roll {position} ({label}): logged {value!r}, recomputed {face}"
        if ctr != used or type(ctr) is not int:
            return f"roll {position} ({label}): logged ctr {ctr!r}, recomputed {used}"
    return None
