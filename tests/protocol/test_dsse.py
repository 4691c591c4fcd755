"""DSSE envelopes: PAE, signing, verification and strict parsing (protocol.md P1, P7)."""

from __future__ import annotations

import base64
import json
import re

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import InputError, SignatureError
from pbem.protocol.canonical import canonical_bytes, sha256_hex
from pbem.protocol.dsse import (
    GENESIS_TYPE,
    JOIN_TYPE,
    MOVE_TYPE,
    Envelope,
    Signature,
    add_signature,
    b64decode_strict,
    body_sha256,
    envelope_bytes,
    pae,
    parse_envelope,
    parse_envelope_body,
    sign,
    verify,
)
from pbem.protocol.keys import fingerprint

ALICE = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
BOB = Ed25519PrivateKey.from_private_bytes(bytes(range(32, 64)))
MALLORY = Ed25519PrivateKey.from_private_bytes(bytes(range(64, 96)))
BODY = canonical_bytes({"game": "g1", "step": 3, "side": "DE", "orders": {"moves": []}})


def keyring(*keys: Ed25519PrivateKey) -> dict[str, Ed25519PublicKey]:
    return {fingerprint(k.public_key()): k.public_key() for k in keys}


def kid(key: Ed25519PrivateKey) -> str:
    return fingerprint(key.public_key())


def test_payload_types() -> None:
    assert GENESIS_TYPE == "application/vnd.pbem.genesis+json; version=1"
    assert JOIN_TYPE == "application/vnd.pbem.join+json; version=1"
    assert MOVE_TYPE == "application/vnd.pbem.move+json; version=1"


def test_pae_matches_the_dsse_spec_example() -> None:
    # The example from the DSSE protocol document.
    assert pae("http://example.com/HelloWorld", b"hello world") == (
        b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"
    )


def test_pae_counts_utf8_bytes_not_characters() -> None:
    assert pae("t\u00e9", "\u00e9".encode()) == b"DSSEv1 3 t\xc3\xa9 2 \xc3\xa9"
    assert pae("", b"") == b"DSSEv1 0  0 "


def test_sign_and_verify_round_trip() -> None:
    env = sign(BODY, MOVE_TYPE, [ALICE])
    assert env.payloadType == MOVE_TYPE
    assert base64.b64decode(env.payload) == BODY
    assert [s.keyid for s in env.signatures] == [kid(ALICE)]
    # The signature is over PAE, checkable with the bare public key.
    ALICE.public_key().verify(base64.b64decode(env.signatures[0].sig), pae(MOVE_TYPE, BODY))
    assert verify(env, MOVE_TYPE, keyring(ALICE)) == BODY
    assert body_sha256(env) == sha256_hex(BODY)


def test_the_body_decoded_once_serves_verify() -> None:
    # A replay decodes each message's payload once (parse_envelope_body) and hands it to verify;
    # a body that is not the envelope's is a bad signature, as a changed payload is.
    env = sign(BODY, MOVE_TYPE, [ALICE])
    parsed, body = parse_envelope_body(envelope_bytes(env), max_bytes=4096, what="move.json")
    assert parsed == env and body == BODY
    assert parse_envelope(envelope_bytes(env), max_bytes=4096, what="move.json") == env
    assert verify(env, MOVE_TYPE, keyring(ALICE), body=body) == BODY
    with pytest.raises(SignatureError, match="bad signature"):
        verify(env, MOVE_TYPE, keyring(ALICE), body=BODY + b" ")


def test_signing_is_deterministic_so_resends_are_identical() -> None:
    # P7 relies on RFC 8032 determinism: same key and body => same file bytes.
    first = envelope_bytes(sign(BODY, MOVE_TYPE, [ALICE]))
    second = envelope_bytes(sign(BODY, MOVE_TYPE, [ALICE]))
    assert first == second
    assert envelope_bytes(sign(BODY + b" ", MOVE_TYPE, [ALICE])) != first


def test_envelope_bytes_are_canonical_json_with_newline() -> None:
    env = sign(b"{}", MOVE_TYPE, [ALICE])
    data = envelope_bytes(env)
    assert data.endswith(b"}\n") and data.count(b"\n") == 1
    assert data.startswith(b'{"payload":"e30=","payloadType":"application/vnd.pbem.move+json; ')
    assert parse_envelope(data, max_bytes=10_000, what="move") == env


def test_wrong_payload_type_is_refused() -> None:
    env = sign(BODY, GENESIS_TYPE, [ALICE])
    with pytest.raises(SignatureError, match="payload type"):
        verify(env, MOVE_TYPE, keyring(ALICE))
    # Relabelling the envelope does not help: the signature covers the type through PAE.
    relabelled = Envelope(payloadType=MOVE_TYPE, payload=env.payload, signatures=env.signatures)
    with pytest.raises(SignatureError, match=f"^bad signature by {re.escape(kid(ALICE))}$"):
        verify(relabelled, MOVE_TYPE, keyring(ALICE))


def test_tampered_payload_is_refused() -> None:
    env = sign(BODY, MOVE_TYPE, [ALICE])
    forged = BODY.replace(b'"step":3', b'"step":4')
    assert forged != BODY
    bad = Envelope(
        payloadType=MOVE_TYPE,
        payload=base64.b64encode(forged).decode(),
        signatures=env.signatures,
    )
    with pytest.raises(SignatureError, match="bad signature"):
        verify(bad, MOVE_TYPE, keyring(ALICE))


def test_signature_by_another_key_under_a_claimed_keyid() -> None:
    real = sign(BODY, MOVE_TYPE, [MALLORY]).signatures[0]
    forged = Envelope(
        payloadType=MOVE_TYPE,
        payload=base64.b64encode(BODY).decode(),
        signatures=[Signature(keyid=kid(ALICE), sig=real.sig)],
    )
    with pytest.raises(SignatureError, match=f"^bad signature by {re.escape(kid(ALICE))}$"):
        verify(forged, MOVE_TYPE, keyring(ALICE))


def test_unknown_signer_is_refused() -> None:
    with pytest.raises(SignatureError, match=f"unexpected signature by unknown key {re.escape(kid(MALLORY))}"):
        verify(sign(BODY, MOVE_TYPE, [MALLORY]), MOVE_TYPE, keyring(ALICE))
    # An extra, valid-looking signature beside the right one is refused too.
    env = add_signature(sign(BODY, MOVE_TYPE, [ALICE]), MALLORY)
    with pytest.raises(SignatureError, match="unknown key"):
        verify(env, MOVE_TYPE, keyring(ALICE))


def test_every_required_key_must_sign() -> None:
    env = sign(BODY, GENESIS_TYPE, [ALICE])
    with pytest.raises(SignatureError, match=f"^missing signature by {re.escape(kid(BOB))}$"):
        verify(env, GENESIS_TYPE, keyring(ALICE, BOB))
    both = add_signature(env, BOB)
    assert both.keyids() == [kid(ALICE), kid(BOB)]
    assert env.keyids() == [kid(ALICE)]  # add_signature returned a new object
    assert verify(both, GENESIS_TYPE, keyring(ALICE, BOB)) == BODY
    assert sign(BODY, GENESIS_TYPE, [ALICE, BOB]) == both


def test_duplicate_signatures_are_refused() -> None:
    env = sign(BODY, MOVE_TYPE, [ALICE])
    with pytest.raises(SignatureError, match="already carries"):
        add_signature(env, ALICE)
    doubled = Envelope(
        payloadType=MOVE_TYPE, payload=env.payload, signatures=[*env.signatures, *env.signatures]
    )
    with pytest.raises(SignatureError, match="two signatures"):
        verify(doubled, MOVE_TYPE, keyring(ALICE))
    with pytest.raises(ValueError):
        sign(BODY, MOVE_TYPE, [ALICE, ALICE])
    with pytest.raises(ValueError):
        sign(BODY, MOVE_TYPE, [])


def test_verify_needs_keys_and_well_formed_signatures() -> None:
    env = sign(BODY, MOVE_TYPE, [ALICE])
    with pytest.raises(SignatureError, match="no keys"):
        verify(env, MOVE_TYPE, {})
    short = Envelope(
        payloadType=MOVE_TYPE, payload=env.payload,
        signatures=[Signature(keyid=kid(ALICE), sig=base64.b64encode(b"x" * 63).decode())],
    )
    with pytest.raises(SignatureError, match="63 bytes"):
        verify(short, MOVE_TYPE, keyring(ALICE))
    garbage = Envelope(
        payloadType=MOVE_TYPE, payload=env.payload,
        signatures=[Signature(keyid=kid(ALICE), sig="@@@@")],
    )
    with pytest.raises(SignatureError, match="base64"):
        verify(garbage, MOVE_TYPE, keyring(ALICE))


def _file(**changes: object) -> bytes:
    doc = json.loads(envelope_bytes(sign(BODY, MOVE_TYPE, [ALICE])))
    doc.update(changes)
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (_file(extra=1), "extra: unknown field"),
        (_file(payload=5), "payload"),
        (_file(signatures={}), "signatures"),
        (_file(signatures=[]), "no signature"),
        (_file(signatures=[{"keyid": "k", "sig": "AA==", "x": 1}]), "signatures.0.x: unknown field"),
        (_file(signatures=[{"keyid": "k"}]), "sig"),
        (_file(signatures=[{"keyid": "k", "sig": "AB=="}]), "canonical base64"),
        (_file(payload="e30"), "base64"),  # missing padding
        (_file(payload="e3 0="), "base64"),
        (_file(payload="e3-_"), "base64"),  # URL-safe alphabet
        (b"[]", "not a DSSE envelope"),
        (b'{"payload": "e30=", "payload": "e30="}', "duplicate"),
    ],
)
def test_parse_envelope_rejects(data: bytes, fragment: str) -> None:
    with pytest.raises(InputError, match=fragment) as info:
        parse_envelope(data, max_bytes=10_000, what="move-0003.json")
    assert str(info.value).startswith("move-0003.json: ")
    assert "\n" not in str(info.value)


def test_parse_envelope_checks_size_first() -> None:
    data = envelope_bytes(sign(BODY, MOVE_TYPE, [ALICE]))
    with pytest.raises(InputError, match="file too large"):
        parse_envelope(data, max_bytes=len(data) - 1, what="m")
    assert parse_envelope(data, max_bytes=len(data), what="m").body() == BODY


def test_body_rejects_garbage_payload() -> None:
    env = Envelope(payloadType=MOVE_TYPE, payload="!!", signatures=[])
    with pytest.raises(InputError, match="base64"):
        env.body()


ENVELOPE_FILE = envelope_bytes(sign(BODY, MOVE_TYPE, [ALICE]))


# Every byte of the canonical JSON (the final newline is only whitespace to a JSON reader).
@given(st.integers(min_value=0, max_value=len(ENVELOPE_FILE) - 2), st.integers(1, 255))
@settings(max_examples=400)
def test_any_changed_byte_is_caught(position: int, xor: int) -> None:
    """Flipping any bits of any byte of a signed move file never yields a verified envelope."""
    data = bytearray(ENVELOPE_FILE)
    data[position] ^= xor
    try:
        env = parse_envelope(bytes(data), max_bytes=10_000, what="m")
        verify(env, MOVE_TYPE, keyring(ALICE))
    except (InputError, SignatureError):
        return
    pytest.fail(f"byte {position} ^ {xor} went unnoticed")


def _canonical_by_reencoding(text: str) -> bytes | None:
    """The definition b64decode_strict keeps: strictly decoded, and encoded again it is the text."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        return None
    return data if base64.b64encode(data).decode("ascii") == text else None


def _strict_or_none(text: str) -> bytes | None:
    try:
        return b64decode_strict(text, "x")
    except InputError:
        return None


def test_canonical_base64_is_the_whole_reencoding_on_every_short_text() -> None:
    """Every text of up to 8 characters (two groups) from letters that differ in the bits a padded
    last character carries beyond its bytes (A=0, Q=16: none set; /=63: all set), padding, and a
    character outside the alphabet: refused or decoded exactly as when the whole text is encoded
    again (the check encodes only the final group)."""
    import itertools

    letters = "AQ/=-"
    for n in range(9):
        for chars in itertools.product(letters, repeat=n):
            text = "".join(chars)
            assert _strict_or_none(text) == _canonical_by_reencoding(text), text


@given(st.binary(max_size=64), st.integers(min_value=0, max_value=63), st.integers(min_value=1, max_value=4))
@settings(max_examples=300, deadline=None)
def test_canonical_base64_refuses_any_other_last_character(data: bytes, value: int, back: int) -> None:
    """Attack: a payload's encoding with one of its last four characters replaced by any letter of
    the alphabet decodes only when it is the canonical encoding of what it decodes to."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    text = base64.b64encode(data).decode("ascii")
    if len(text) < back:
        return
    forged = text[:-back] + alphabet[value] + text[len(text) - back + 1:]
    assert _strict_or_none(forged) == _canonical_by_reencoding(forged)
    assert _strict_or_none(text) == data


@pytest.mark.parametrize("payload", ["", "e30=", "a/b+c==", 'a"b', "a\\b", "a\nb", "\x7f", "é", "\u2028", "\ud800"])
def test_envelope_bytes_is_the_canonical_json_of_the_whole_envelope(payload: str) -> None:
    """envelope_bytes puts a plain payload in as it is: the bytes are those of the whole envelope
    encoded (a payload that needs escaping, or cannot be encoded, goes the whole way)."""
    env = Envelope(payloadType=MOVE_TYPE, payload=payload, signatures=[Signature(keyid="k", sig="AA==")])
    try:
        whole = canonical_bytes(env.to_json()) + b"\n"
    except InputError:
        with pytest.raises(InputError):
            envelope_bytes(env)
        return
    assert envelope_bytes(env) == whole


@given(st.text(max_size=40), st.text(max_size=10))
@settings(max_examples=200, deadline=None)
def test_envelope_bytes_of_any_payload_and_keyid(payload: str, keyid: str) -> None:
    env = Envelope(payloadType=MOVE_TYPE, payload=payload, signatures=[Signature(keyid=keyid, sig="AA==")])
    try:
        whole = canonical_bytes(env.to_json()) + b"\n"
    except InputError:
        return
    assert envelope_bytes(env) == whole
