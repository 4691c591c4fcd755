"""Encryption to one side: HPKE (RFC 9180) with X25519, HKDF-SHA256 and ChaCha20-Poly1305.

Used where only one party may read something: a player's sealed orders for the umpire, and each
side's report of what it can see (``docs/protocol.md``, P10).

**Keys.** A side's X25519 key for a game is derived from its Ed25519 private key
(``HKDF-SHA256(ikm = the 32 private-key bytes, salt = "pbem/x25519/v1", info = JCS({game, side}))``),
so nothing new has to be kept or backed up and a lost home recovers it from the key alone; its
public half is published in the side's signed genesis entry or join (``x25519``). A key per game
and side means a report of one game can never be opened with another game's key material.

**Binding.** Every ciphertext's HPKE ``info`` is ``JCS({"ds": "pbem/hpke/v1", game, step, from,
to, what})``: a ciphertext moved to another game, step, sender, recipient or purpose does not
decrypt. The ciphertext travels as base64 inside a signed body, so its author is authenticated by
the signature around it.

HPKE encryption draws a fresh ephemeral key: ciphertexts are the one thing pbem signs that is not
a function of its inputs. Each sits inside a message its author signs once (the P7 record re-sends
the same bytes), and nothing recomputes it: what is recomputed is the plaintext (``verify`` after
the umpire's publication).
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import Any

from cryptography.hazmat.primitives import hashes, hpke
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.errors import InputError
from pbem.protocol.canonical import canonical_bytes

HPKE_DS = "pbem/hpke/v1"
_SUITE = hpke.Suite(hpke.KEM.X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)
MAX_SEALED_BYTES = 1 << 20


def x25519_private(ed25519_private: Any, game: str, side: str) -> X25519PrivateKey:
    """The X25519 key ``side`` uses in ``game``, derived from its Ed25519 private key."""
    raw = ed25519_private.private_bytes_raw()
    okm = HKDF(hashes.SHA256(), 32, b"pbem/x25519/v1",
               canonical_bytes({"game": game, "side": side})).derive(raw)
    return X25519PrivateKey.from_private_bytes(okm)


def notes_secret(ed25519_private: Any, game: str, side: str) -> bytes:
    """A 32-byte secret only ``side``'s key holder can derive, for the notes it commits to in
    ``game`` and reveals later (salts and the sealed copy it keeps in its own commitment)."""
    raw = ed25519_private.private_bytes_raw()
    return HKDF(hashes.SHA256(), 32, b"pbem/notes/v1",
                canonical_bytes({"game": game, "side": side})).derive(raw)


def public_hex(key: X25519PrivateKey) -> str:
    return key.public_key().public_bytes_raw().hex()


def public_from_hex(value: str) -> X25519PublicKey:
    try:
        return X25519PublicKey.from_public_bytes(bytes.fromhex(value))
    except ValueError:
        raise InputError("not an X25519 public key") from None


def _info(game: str, step: int, sender: str, recipient: str, what: str) -> bytes:
    return canonical_bytes({"ds": HPKE_DS, "game": game, "step": step, "from": sender,
                            "to": recipient, "what": what})


PAD_TO = 4096
"""Plaintexts are padded with spaces (JSON whitespace) to at least this many bytes, and beyond it
to the next power of two, so that a ciphertext's length does not tell a bid of 2 from one of 10, a
side that lost coins from one that did not, or an order sheet of four lines from one of five: the
length tells only its bucket (4 KiB, 8 KiB, 16 KiB, ...)."""


def padded_length(n: int) -> int:
    """The length a plaintext of ``n`` bytes is padded to (:data:`PAD_TO`)."""
    size = PAD_TO
    while size < n:
        size *= 2
    return size


def plaintext(value: Any, *, compress: bool = False) -> bytes:
    """What :func:`seal` encrypts before padding: ``value``'s canonical JSON, or with ``compress``
    that JSON deflated (zlib, level 9: a stream begins with ``x``, which no JSON text does)."""
    data = canonical_bytes(value)
    return zlib.compress(data, 9) if compress else data


def seal(value: Any, recipient: X25519PublicKey, *, game: str, step: int, sender: str, to: str,
         what: str, pad_to: int = 0, compress: bool = False) -> str:
    """``value`` (JSON) encrypted to ``recipient``, as base64 (padded: :data:`PAD_TO`, or to
    ``pad_to`` bytes when that is more: several plaintexts sealed together made one length).
    ``compress``: the JSON deflated first (:func:`plaintext`; a side's report, issue 28: the padding
    then hides the deflated length, which is what travels)."""
    data = plaintext(value, compress=compress)
    data += b" " * (max(padded_length(len(data)), pad_to) - len(data))
    return base64.b64encode(_SUITE.encrypt(data, recipient, _info(game, step, sender, to, what))).decode("ascii")


def open_sealed(text: str, key: X25519PrivateKey, *, game: str, step: int, sender: str, to: str,
                what: str) -> Any:
    """The JSON value sealed with :func:`seal`; :class:`InputError` if it does not open (another
    recipient, another binding, or a changed byte)."""
    from pbem.protocol.canonical import loads_strict

    if not isinstance(text, str) or len(text) > MAX_SEALED_BYTES * 2:
        raise InputError(f"{what} from {sender}: not a sealed value")
    try:
        ct = base64.b64decode(text.encode("ascii"), validate=True)
        data = _SUITE.decrypt(ct, key, _info(game, step, sender, to, what))
    except (binascii.Error, ValueError, UnicodeEncodeError):
        raise InputError(f"{what} from {sender} for {to} at step {step} does not open with this key") from None
    except Exception as exc:  # cryptography raises InvalidTag for a bad ciphertext
        if type(exc).__name__ in ("InvalidTag", "InvalidKey"):
            raise InputError(f"{what} from {sender} for {to} at step {step} does not open with this key") from None
        raise
    if data[:1] == b"x":  # deflated (:func:`plaintext`), then padded with spaces
        inflate = zlib.decompressobj()
        try:
            json_text = inflate.decompress(data, MAX_SEALED_BYTES + 1)
        except zlib.error:
            raise InputError(f"{what} from {sender}: not a sealed value") from None
        if len(json_text) > MAX_SEALED_BYTES or not inflate.eof or inflate.unused_data.strip(b" "):
            raise InputError(f"{what} from {sender}: not a sealed value")
        return loads_strict(json_text, max_bytes=MAX_SEALED_BYTES, what=f"{what} from {sender}")
    return loads_strict(data.rstrip(b" "), max_bytes=MAX_SEALED_BYTES, what=f"{what} from {sender}")
