"""DSSE envelopes (in-toto's Dead Simple Signing Envelope) signed with Ed25519.

An envelope carries a body (canonical JSON bytes), a ``payloadType`` naming what the body is, and
one or more signatures, each over ``PAE(payloadType, body)`` -- never over the JSON of the
envelope, so no re-serialisation can change what was signed. A signature's ``keyid`` is the
OpenSSH ``SHA256:`` fingerprint of the signing key (:func:`pbem.protocol.keys.fingerprint`).

The identity of a message is the SHA-256 of its *body* (:func:`body_sha256`), never of a signature.
Ed25519 (RFC 8032) is deterministic, so signing the same body with the same key gives the same
envelope bytes: resending a move resends the same file (protocol property P7).
"""

from __future__ import annotations

import base64
import binascii

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.errors import InputError, SignatureError
from pbem.protocol.canonical import canonical_bytes, loads_strict, sha256_hex
from pbem.protocol.keys import fingerprint
from pbem.protocol.record import ListOf, Nested, Record, RecordError, Str, field

GENESIS_TYPE = "application/vnd.pbem.genesis+json; version=1"
JOIN_TYPE = "application/vnd.pbem.join+json; version=1"
MOVE_TYPE = "application/vnd.pbem.move+json; version=1"
RECEIPT_TYPE = "application/vnd.pbem.receipt+json; version=1"
TAKEBACK_TYPE = "application/vnd.pbem.takeback+json; version=1"
CONSENT_TYPE = "application/vnd.pbem.consent+json; version=1"

SIGNATURE_BYTES = 64


def b64encode(data: bytes) -> str:
    """Standard base64 with padding (the DSSE encoding)."""
    return base64.b64encode(data).decode("ascii")


def b64decode_strict(text: str, what: str) -> bytes:
    """Decode standard padded base64, refusing other alphabets, whitespace and non-canonical forms.

    Canonical means ``b64encode(data) == text``. The strict decode (``validate=True``) has refused
    every character outside the alphabet, padding anywhere but at the end and a length that is
    not whole groups of four, and a group of four characters without padding is the one encoding
    of its three bytes; so of two texts of the same length only a final padded group can differ,
    in the bits its last character carries beyond the bytes (``AB==`` decodes as ``AA==``). That
    group is encoded again, not the whole text (a move's payload is up to a megabyte: issue 28).
    tests/protocol/test_dsse.py holds this to the whole re-encoding on every kind of last group."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        raise InputError(f"{what}: not valid base64") from None
    tail = len(data) % 3
    if len(text) != (len(data) + 2) // 3 * 4 or (tail and b64encode(data[-tail:]) != text[-4:]):
        raise InputError(f"{what}: not canonical base64")
    return data


def pae(payload_type: str, body: bytes) -> bytes:
    """DSSE pre-authentication encoding: ``DSSEv1 SP len(type) SP type SP len(body) SP body``.

    Lengths are ASCII decimal counts of UTF-8 bytes.
    """
    type_bytes = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(type_bytes), type_bytes, len(body), body)


class Signature(Record):
    """One signature: the signer's fingerprint and the base64 Ed25519 signature over PAE."""

    keyid: str = field(Str())
    sig: str = field(Str())


class Envelope(Record):
    """A DSSE envelope, field names as in the DSSE specification (a plain record,
    :mod:`pbem.protocol.record`: strictly checked as read, unknown fields refused)."""

    payloadType: str = field(Str())  # noqa: N815 (DSSE's own name)
    payload: str = field(Str())
    signatures: list[Signature] = field(ListOf(Nested(Signature)))

    def body(self) -> bytes:
        """The decoded payload bytes (strict base64; :class:`InputError` on garbage)."""
        return b64decode_strict(self.payload, "envelope payload")

    def keyids(self) -> list[str]:
        """The keyids of the signatures, in order."""
        return [s.keyid for s in self.signatures]


def body_sha256(env: Envelope) -> str:
    """The message identity: lowercase hex SHA-256 of the body bytes."""
    return sha256_hex(env.body())


def _signature(body: bytes, payload_type: str, key: Ed25519PrivateKey) -> Signature:
    sig = key.sign(pae(payload_type, body))
    return Signature(keyid=fingerprint(key.public_key()), sig=b64encode(sig))


def sign(body: bytes, payload_type: str, keys: list[Ed25519PrivateKey]) -> Envelope:
    """Envelope ``body`` as ``payload_type`` with one signature per key (at least one key)."""
    if not keys:
        raise ValueError("sign() needs at least one key")
    signatures: list[Signature] = []
    for key in keys:
        s = _signature(body, payload_type, key)
        if any(s.keyid == other.keyid for other in signatures):
            raise ValueError(f"key {s.keyid} given twice")
        signatures.append(s)
    return Envelope(payloadType=payload_type, payload=b64encode(body), signatures=signatures)


def add_signature(env: Envelope, key: Ed25519PrivateKey) -> Envelope:
    """A new envelope with ``key``'s signature appended (e.g. a co-signed genesis).

    Raises :class:`SignatureError` if that key has already signed.
    """
    s = _signature(env.body(), env.payloadType, key)
    if s.keyid in env.keyids():
        raise SignatureError(f"envelope already carries a signature by {s.keyid}")
    return Envelope(
        payloadType=env.payloadType, payload=env.payload, signatures=[*env.signatures, s]
    )


def verify(env: Envelope, payload_type: str, keys: dict[str, Ed25519PublicKey], *,
           body: bytes | None = None) -> bytes:
    """Check ``env`` and return its body bytes.

    The payload type must equal ``payload_type``; every key in ``keys`` (keyid -> public key) must
    have exactly one valid signature over PAE; a signature by any other keyid is refused. Every
    failure is a one-line :class:`SignatureError` naming the keyid concerned. ``body``: ``env.body()``
    where the caller decoded it from this envelope already (a replay: once per message, not once
    per use).
    """
    if not keys:
        raise SignatureError("no keys to verify the envelope against")
    if env.payloadType != payload_type:
        raise SignatureError(
            f"envelope payload type is {env.payloadType[:80]!r}, expected {payload_type!r}"
        )
    if body is None:
        body = env.body()
    message = pae(payload_type, body)
    seen: set[str] = set()
    for s in env.signatures:
        if s.keyid in seen:
            raise SignatureError(f"two signatures by {s.keyid[:80]}")
        seen.add(s.keyid)
        if s.keyid not in keys:
            raise SignatureError(f"unexpected signature by unknown key {s.keyid[:80]}")
        try:
            raw = b64decode_strict(s.sig, f"signature by {s.keyid}")
        except InputError as exc:
            raise SignatureError(str(exc)) from None
        if len(raw) != SIGNATURE_BYTES:
            raise SignatureError(f"signature by {s.keyid} has {len(raw)} bytes, not 64")
        try:
            keys[s.keyid].verify(raw, message)
        except InvalidSignature:
            raise SignatureError(f"bad signature by {s.keyid}") from None
    for keyid in keys:
        if keyid not in seen:
            raise SignatureError(f"missing signature by {keyid}")
    return body


_PAYLOAD_FIRST = b'{"payload":""'
"""How an envelope's canonical JSON begins when its payload is empty: ``payload`` is the first of
its keys in JCS order."""


def envelope_bytes(env: Envelope) -> bytes:
    """The file bytes of an envelope: its canonical JSON and a newline (deterministic).

    An ASCII payload without a control character, quote or backslash (base64 always is) is its own
    JSON text between quotes, so it is put in as it is and only the rest is encoded: the same bytes,
    without encoding again the payload of every move a replay reads (up to a megabyte; JSON's
    string encoder reads each character twice: ~16 M instructions for a finished megagame's 55
    moves, issue 28). tests/protocol/test_dsse.py holds this to the whole encoding."""
    payload = env.payload
    if type(payload) is str and payload.isascii():
        raw = payload.encode("ascii")
        if len(raw.translate(None, _ESCAPED)) == len(raw):  # nothing JSON escapes (in C, a pass)
            rest = canonical_bytes({**env.to_json(), "payload": ""}, what="envelope")
            if rest.startswith(_PAYLOAD_FIRST):
                return b'{"payload":"' + raw + rest[len(_PAYLOAD_FIRST) - 1:] + b"\n"
    return canonical_bytes(env.to_json(), what="envelope") + b"\n"


_ESCAPED = bytes(range(0x20)) + b'"\\'
"""The ASCII characters a JSON string escapes: the control characters, quote and backslash."""


def parse_envelope(data: bytes, *, max_bytes: int, what: str) -> Envelope:
    """Read an envelope file strictly (:func:`pbem.protocol.canonical.loads_strict`, then the model).

    The payload and every signature must be valid base64; any problem is one :class:`InputError`.
    Signatures are *not* checked here (see :func:`verify`).
    """
    return parse_envelope_body(data, max_bytes=max_bytes, what=what)[0]


def parse_envelope_body(data: bytes, *, max_bytes: int, what: str) -> tuple[Envelope, bytes]:
    """:func:`parse_envelope`, with the payload it decoded (``env.body()``)."""
    value = loads_strict(data, max_bytes=max_bytes, what=what)
    try:
        env = Envelope.parse(value)
    except RecordError as exc:
        where, what_is_wrong = exc.problems[0]
        loc = ascii(".".join(str(p) for p in where))[1:-1][:80] or "envelope"
        msg = (what_is_wrong.splitlines() or ["invalid"])[0]
        raise InputError(f"{what}: not a DSSE envelope: {loc}: {msg}") from None
    try:
        body = env.body()
    except InputError as exc:
        raise InputError(f"{what}: {exc}") from None
    if not env.signatures:
        raise InputError(f"{what}: the envelope carries no signature")
    for s in env.signatures:
        try:
            b64decode_strict(s.sig, f"signature by {s.keyid[:80]}")
        except InputError as exc:
            raise InputError(f"{what}: {exc}") from None
    return env, body
