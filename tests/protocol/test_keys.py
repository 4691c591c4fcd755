"""The Ed25519 key store and OpenSSH-compatible public forms (protocol.md: keys)."""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import InputError
from pbem.protocol.keys import (
    KeyStore,
    fingerprint,
    home,
    load_public_file,
    parse_public,
    passphrase_for,
    private_file_encrypted,
    public_line,
    raw_private_bytes,
)

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen not installed")

# RFC 8032 section 7.1, TEST 1: secret key and its public key.
RFC8032_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC8032_PUBLIC = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
# What OpenSSH 9 prints for that public key (checked once with ssh-keygen -lf).
RFC8032_LINE = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea"
RFC8032_FINGERPRINT = "SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8"


@pytest.fixture
def store(tmp_path: Path) -> KeyStore:
    return KeyStore(tmp_path / "home")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def rfc8032_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(RFC8032_SEED)


def openssh_private(key: Ed25519PrivateKey | ec.EllipticCurvePrivateKey,
                    passphrase: bytes | None) -> bytes:
    enc: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase) if passphrase
        else serialization.NoEncryption()
    )
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, enc
    )


# --- public forms ---------------------------------------------------------------------------


def test_public_forms_of_rfc8032_vector() -> None:
    pub = rfc8032_key().public_key()
    assert pub.public_bytes_raw() == RFC8032_PUBLIC
    assert public_line(pub) == RFC8032_LINE
    assert public_line(pub, "alice") == RFC8032_LINE + " alice"
    assert fingerprint(pub) == RFC8032_FINGERPRINT


def test_public_line_matches_cryptography_openssh_encoding() -> None:
    pub = Ed25519PrivateKey.generate().public_key()
    theirs = pub.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    assert public_line(pub) == theirs.decode("ascii")


@needs_ssh_keygen
def test_fingerprint_matches_ssh_keygen(tmp_path: Path) -> None:
    path = tmp_path / "v1.pub"
    path.write_text(RFC8032_LINE + " vector\n")
    out = subprocess.run(
        [str(SSH_KEYGEN), "-lf", str(path)], check=True, capture_output=True, text=True
    ).stdout.split()
    assert out[1] == RFC8032_FINGERPRINT
    # And for a key ssh-keygen made itself.
    subprocess.run(
        [str(SSH_KEYGEN), "-q", "-t", "ed25519", "-N", "", "-C", "c", "-f", str(tmp_path / "k")],
        check=True,
    )
    out = subprocess.run(
        [str(SSH_KEYGEN), "-lf", str(tmp_path / "k.pub")], check=True, capture_output=True,
        text=True,
    ).stdout.split()
    assert fingerprint(load_public_file(tmp_path / "k.pub")) == out[1]
    assert public_line(load_public_file(tmp_path / "k.pub"), "c") == (
        (tmp_path / "k.pub").read_text().strip()
    )


def test_parse_public_accepts_ssh_line_and_pem() -> None:
    pub = rfc8032_key().public_key()
    assert parse_public(RFC8032_LINE).public_bytes_raw() == RFC8032_PUBLIC
    assert parse_public("# bob's key\n\n" + RFC8032_LINE + " bob@home\n").public_bytes_raw() == (
        RFC8032_PUBLIC
    )
    pem = pub.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()
    assert parse_public(pem).public_bytes_raw() == RFC8032_PUBLIC


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("ssh-ed25519", "expected"),
        ("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 x", "not ssh-ed25519"),
        ("ssh-ed25519 not*base64", "malformed"),
        # Valid base64 of a truncated blob, and of a blob with a trailing byte.
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3", "blob"),
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1EaAA==",
         "blob"),
        # An ssh-ed25519 label on an ecdsa blob.
        ("ssh-ed25519 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTY=", "blob"),
        ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----", "PEM"),
    ],
)
def test_parse_public_rejects(text: str, fragment: str) -> None:
    with pytest.raises(InputError, match=fragment):
        parse_public(text)


def test_parse_public_rejects_non_ed25519_pem() -> None:
    pem = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()
    with pytest.raises(InputError, match="not an Ed25519 key"):
        parse_public(pem)


def test_load_public_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_public_file(tmp_path / "missing.pub")
    bad = tmp_path / "bad.pub"
    bad.write_text("ssh-dss AAAA x\n")
    with pytest.raises(InputError, match="bad.pub"):
        load_public_file(bad)


def test_raw_private_bytes_is_the_seed() -> None:
    assert raw_private_bytes(rfc8032_key()) == RFC8032_SEED


def test_home_honours_pbem_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "h"))
    assert home() == tmp_path / "h"
    assert KeyStore().dir == tmp_path / "h" / "keys"
    monkeypatch.delenv("PBEM_HOME")
    assert home() != tmp_path / "h"


# --- the store ------------------------------------------------------------------------------


def test_new_key_with_passphrase(store: KeyStore) -> None:
    info = store.new("alice", b"correct horse")
    assert info.name == "alice" and info.encrypted
    key_file, pub_file = store.dir / "alice.key", store.dir / "alice.pub"
    assert mode(key_file) == 0o600
    assert mode(store.dir) == 0o700
    assert key_file.read_bytes().startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert pub_file.read_text() == info.public_line + "\n"
    assert info.public_line.startswith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5") and (
        info.public_line.endswith(" alice")
    )
    assert info.fingerprint == fingerprint(store.public("alice"))
    assert store.info("alice") == info
    priv = store.private("alice", b"correct horse")
    assert fingerprint(priv.public_key()) == info.fingerprint
    # No temporary files are left behind.
    assert sorted(p.name for p in store.dir.iterdir()) == ["alice.key", "alice.pub"]


def test_private_needs_the_right_passphrase(store: KeyStore) -> None:
    store.new("alice", b"pw")
    with pytest.raises(InputError, match="^wrong passphrase for key alice$"):
        store.private("alice", b"PW")
    with pytest.raises(InputError, match="protected by a passphrase"):
        store.private("alice", None)


def test_new_key_without_passphrase(store: KeyStore) -> None:
    info = store.new("bob", None)
    assert not info.encrypted
    assert (store.dir / "bob.key").read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert mode(store.dir / "bob.key") == 0o600
    # A passphrase given for an unencrypted key is simply not needed.
    assert fingerprint(store.private("bob", None).public_key()) == info.fingerprint
    assert fingerprint(store.private("bob", b"x").public_key()) == info.fingerprint


def test_keys_are_never_overwritten(store: KeyStore) -> None:
    store.new("alice", None)
    before = (store.dir / "alice.key").read_bytes()
    with pytest.raises(InputError, match="already exists"):
        store.new("alice", None)
    assert (store.dir / "alice.key").read_bytes() == before
    # A stray public file also blocks the name.
    (store.dir / "carol.pub").write_text("x\n")
    with pytest.raises(InputError, match="already exists"):
        store.new("carol", None)
    assert not (store.dir / "carol.key").exists()


@pytest.mark.parametrize("name", ["", ".hidden", "-x", "a/b", "../evil", "a b", "é", "x" * 65])
def test_invalid_names(store: KeyStore, name: str) -> None:
    with pytest.raises(InputError, match="invalid key name"):
        store.new(name, None)


def test_list_has_and_missing(store: KeyStore) -> None:
    assert store.list() == []
    store.new("zed", None)
    store.new("Amy", b"pw")
    store.new("bob", None)
    assert [i.name for i in store.list()] == ["Amy", "bob", "zed"]
    assert [i.encrypted for i in store.list()] == [True, False, False]
    assert store.has("bob") and not store.has("carol")
    with pytest.raises(InputError, match="no key named 'carol'"):
        store.info("carol")
    with pytest.raises(InputError, match="no key named 'carol'"):
        store.private("carol", None)


def test_mismatched_pub_file_is_detected(store: KeyStore) -> None:
    store.new("alice", None)
    (store.dir / "alice.pub").write_text(RFC8032_LINE + " alice\n")
    with pytest.raises(InputError, match="do not match"):
        store.private("alice", None)


def test_resolve_public(store: KeyStore, tmp_path: Path) -> None:
    info = store.new("alice", b"pw")
    assert fingerprint(store.resolve_public("alice")) == info.fingerprint
    path = tmp_path / "bob.pub"
    path.write_text(RFC8032_LINE + " bob\n")
    assert fingerprint(store.resolve_public(str(path))) == RFC8032_FINGERPRINT
    with pytest.raises(InputError, match="neither"):
        store.resolve_public("nobody")


# --- import ---------------------------------------------------------------------------------


@pytest.mark.parametrize("source_pass", [None, b"ssh-secret"])
def test_import_cryptography_openssh_key(
    store: KeyStore, tmp_path: Path, source_pass: bytes | None
) -> None:
    src = tmp_path / "id_ed25519"
    src.write_bytes(openssh_private(rfc8032_key(), source_pass))
    assert private_file_encrypted(src) is (source_pass is not None)
    info = store.import_ssh(src, None, source_pass, b"store-pw")
    assert info.name == "id_ed25519"
    assert info.fingerprint == RFC8032_FINGERPRINT
    assert info.public_line == RFC8032_LINE + " id_ed25519"
    assert info.encrypted
    assert mode(store.dir / "id_ed25519.key") == 0o600
    # The stored copy is re-encrypted: the store passphrase opens it, the source one does not.
    assert raw_private_bytes(store.private("id_ed25519", b"store-pw")) == RFC8032_SEED
    if source_pass:
        with pytest.raises(InputError, match="wrong passphrase"):
            store.private("id_ed25519", source_pass)


def test_import_wrong_or_missing_source_passphrase(store: KeyStore, tmp_path: Path) -> None:
    src = tmp_path / "k"
    src.write_bytes(openssh_private(rfc8032_key(), b"right"))
    with pytest.raises(InputError, match="wrong passphrase"):
        store.import_ssh(src, "k", b"wrong", None)
    with pytest.raises(InputError, match="protected by a passphrase"):
        store.import_ssh(src, "k", None, None)
    assert not store.has("k")


def test_import_pkcs8_pem(store: KeyStore, tmp_path: Path) -> None:
    src = tmp_path / "mine.pem"
    src.write_bytes(rfc8032_key().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"p8"),
    ))
    assert private_file_encrypted(src)
    info = store.import_ssh(src, "vec", b"p8", None)
    assert not info.encrypted and info.fingerprint == RFC8032_FINGERPRINT
    assert raw_private_bytes(store.private("vec", None)) == RFC8032_SEED


def test_import_refuses_non_ed25519_and_garbage(store: KeyStore, tmp_path: Path) -> None:
    ecdsa = tmp_path / "id_ecdsa"
    ecdsa.write_bytes(openssh_private(ec.generate_private_key(ec.SECP256R1()), None))
    with pytest.raises(InputError, match="Ed25519"):
        store.import_ssh(ecdsa, None, None, None)
    garbage = tmp_path / "junk"
    garbage.write_bytes(b"hello\n")
    with pytest.raises(InputError, match="not a private key file"):
        store.import_ssh(garbage, None, None, None)
    with pytest.raises(InputError, match="no such file"):
        store.import_ssh(tmp_path / "absent", None, None, None)
    assert store.list() == []


@needs_ssh_keygen
@pytest.mark.parametrize("source_pass", ["", "kg-secret"])
def test_import_ssh_keygen_key(store: KeyStore, tmp_path: Path, source_pass: str) -> None:
    src = tmp_path / "id_ed25519"
    subprocess.run(
        [str(SSH_KEYGEN), "-q", "-t", "ed25519", "-a", "4", "-N", source_pass, "-C", "me",
         "-f", str(src)],
        check=True,
    )
    expected = subprocess.run(
        [str(SSH_KEYGEN), "-lf", str(src) + ".pub"], check=True, capture_output=True, text=True
    ).stdout.split()[1]
    assert private_file_encrypted(src) is bool(source_pass)
    info = store.import_ssh(src, "me", source_pass.encode() or None, None)
    assert info.fingerprint == expected
    assert fingerprint(store.private("me", None).public_key()) == expected


# --- passphrases ----------------------------------------------------------------------------


def test_passphrase_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_PASSPHRASE", "sésame")
    assert passphrase_for("alice") == "sésame".encode()
    monkeypatch.setenv("PBEM_PASSPHRASE", "")
    assert passphrase_for("alice") is None


def test_passphrase_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    asked: list[tuple[str, bool, bool]] = []

    def fake_prompt(text: str, *, hide_input: bool, confirmation_prompt: bool, err: bool) -> str:
        asked.append((text, hide_input, confirmation_prompt))
        return "typed"

    monkeypatch.setattr("click.prompt", fake_prompt)
    monkeypatch.setattr("pbem.protocol.keys._terminal", lambda: True)  # asked only on a terminal
    assert passphrase_for("alice", confirm=True) == b"typed"
    assert asked == [("Passphrase for key alice", True, True)]


def test_a_plain_pkcs8_key_read_without_cryptography_s_loader_is_the_same_key() -> None:
    """A key file without a passphrase in the PKCS#8 form pbem writes is read by hand (no import
    of cryptography's serialization package on a signing command's path [28]); the key is the one
    cryptography's loader reads, and any other form still goes to that loader."""
    from pbem.protocol.keys import _load_private, _plain_pkcs8_seed

    for i in range(64):
        key = Ed25519PrivateKey.from_private_bytes(bytes([i]) * 16 + bytes(range(16)))
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        for text in (pem, pem.replace(b"\n", b"\r\n"), b"\n  " + pem + b"\n\n"):
            seed = _plain_pkcs8_seed(text.lstrip())
            assert seed == key.private_bytes_raw()
            read = serialization.load_pem_private_key(text.strip(), password=None)
            assert isinstance(read, Ed25519PrivateKey)
            assert _load_private(text, None, "k").private_bytes_raw() == read.private_bytes_raw()
    pem = Ed25519PrivateKey.from_private_bytes(bytes(32)).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    head, body, foot = pem.strip().split(b"\n")
    other = [head + b" \n" + body + b"\n" + foot,  # not the exact lines
             head + b"\n" + body + b"\n" + foot + b"\ntrailing",
             head + b"\n" + body.replace(b"M", b"N", 1) + b"\n" + foot]  # not that DER
    for text in other:
        assert _plain_pkcs8_seed(text) is None
    with pytest.raises(InputError, match="malformed private key"):
        _load_private(other[2], None, "k")
    ec_pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    assert _plain_pkcs8_seed(ec_pem) is None
    with pytest.raises(InputError, match="not an Ed25519 key"):
        _load_private(ec_pem, None, "k")
