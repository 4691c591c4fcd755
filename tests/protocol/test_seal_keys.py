"""The X25519 keys and note secrets of :mod:`pbem.protocol.seal` are derived from the Ed25519
private key's 32 raw bytes, read with ``private_bytes_raw()`` (issue 28: cryptography's
serialization module, with its OpenSSH parser, is not imported by a verify that derives no key).
Held here equal to the definition of the module's docstring, written with the serialization
module's ``Raw`` encoding, for several keys, games and sides: keys published in archives must not
change."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from pbem.protocol.canonical import canonical_bytes
from pbem.protocol.seal import notes_secret, public_hex, x25519_private


def _defined(key: Ed25519PrivateKey, salt: bytes, game: str, side: str) -> bytes:
    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return HKDF(hashes.SHA256(), 32, salt, canonical_bytes({"game": game, "side": side})).derive(raw)


@pytest.mark.parametrize("seed", [bytes(32), bytes(range(32)), b"\xff" * 32, bytes.fromhex("9d" * 32)])
@pytest.mark.parametrize(("game", "side"), [("5e1f" * 8, "GC"), ("00" * 16, "AB1"), ("g", "Ü")])
def test_keys_are_the_hkdf_of_the_raw_private_key(seed: bytes, game: str, side: str) -> None:
    ed = Ed25519PrivateKey.from_private_bytes(seed)
    x = x25519_private(ed, game, side)
    want = X25519PrivateKey.from_private_bytes(_defined(ed, b"pbem/x25519/v1", game, side))
    assert x.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()) == \
        want.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    assert public_hex(x) == want.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    assert notes_secret(ed, game, side) == _defined(ed, b"pbem/notes/v1", game, side)
    assert notes_secret(ed, game, side) != _defined(ed, b"pbem/x25519/v1", game, side)
