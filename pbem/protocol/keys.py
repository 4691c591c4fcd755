"""Ed25519 signing keys: a small key store plus OpenSSH-compatible public forms.

Players compare keys over the phone, so public keys are shown exactly as OpenSSH shows them: a
``ssh-ed25519 AAAA… comment`` line and a ``SHA256:…`` fingerprint identical to ``ssh-keygen -lf``.
The fingerprint is also the DSSE ``keyid`` (:mod:`pbem.protocol.dsse`).

The store lives in ``$PBEM_HOME/keys/`` (else ``click.get_app_dir("pbem")/keys/``), mode 0700:

* ``NAME.key`` -- the private key, PKCS#8 PEM, encrypted with the passphrase when there is one;
  written atomically with mode 0600 and never overwritten;
* ``NAME.pub`` -- its one-line OpenSSH public key, with ``NAME`` as the comment.

Existing OpenSSH ed25519 keys (also passphrase-protected ones) and PKCS#8 PEM keys can be imported;
the stored copy is re-encrypted under the store passphrase.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import struct
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.errors import InputError
from pbem.lazy_re import LazyPattern
from pbem.plain import Plain

if TYPE_CHECKING:  # imported where used: reading public keys and signatures needs neither
    from cryptography.hazmat.primitives import serialization

NAME_RE = LazyPattern(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")  # compiled when a key is named (not by verify)
"""Valid key names: a letter or digit, then up to 63 letters, digits, ``_``, ``.`` or ``-``."""

PASSPHRASE_ENV = "PBEM_PASSPHRASE"
"""Environment variable that, when set, supplies every passphrase instead of a prompt."""

MAX_KEY_FILE_BYTES = 64 * 1024

_OPENSSH_PRIVATE_HEADER = b"-----BEGIN OPENSSH PRIVATE KEY-----"
_PKCS8_HEADER = b"-----BEGIN PRIVATE KEY-----"
_PKCS8_ENCRYPTED_HEADER = b"-----BEGIN ENCRYPTED PRIVATE KEY-----"


def home() -> Path:
    """pbem's per-user directory: ``$PBEM_HOME`` if set, else click's application directory."""
    env = os.environ.get("PBEM_HOME")
    if env:
        return Path(env)
    import click  # only here and for a prompt: checking signatures needs no CLI library

    return Path(click.get_app_dir("pbem"))


def check_name(name: str) -> str:
    """Return ``name`` if it is a valid key name, else raise :class:`InputError`."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise InputError(
            f"invalid key name {name!r}: use 1-64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )
    return name


# --- public forms -----------------------------------------------------------------------------


def _ssh_string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def wire_blob(pub: Ed25519PublicKey) -> bytes:
    """The OpenSSH wire encoding of a public key: ``string "ssh-ed25519" || string key``."""
    raw = pub.public_bytes_raw()
    return _ssh_string(b"ssh-ed25519") + _ssh_string(raw)


def public_line(pub: Ed25519PublicKey, comment: str = "") -> str:
    """``ssh-ed25519 AAAA… comment`` exactly as OpenSSH writes it (no comment: two fields)."""
    line = "ssh-ed25519 " + base64.b64encode(wire_blob(pub)).decode("ascii")
    if comment:
        line += " " + comment
    return line


def fingerprint(pub: Ed25519PublicKey) -> str:
    """``SHA256:`` + unpadded base64 of SHA-256 of the wire blob, as ``ssh-keygen -lf`` prints."""
    digest = hashlib.sha256(wire_blob(pub)).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def parse_public(text: str) -> Ed25519PublicKey:
    """Read an Ed25519 public key from an ``ssh-ed25519`` line or a PEM ``PUBLIC KEY`` block.

    Blank lines and ``#`` comment lines before an OpenSSH line are ignored.
    """
    if not isinstance(text, str):
        raise InputError("public key: expected text")
    stripped = text.strip()
    if stripped.startswith("-----BEGIN PUBLIC KEY-----"):
        from cryptography.hazmat.primitives import serialization

        try:
            key = serialization.load_pem_public_key(stripped.encode("ascii"))
        except (ValueError, UnicodeEncodeError, UnsupportedAlgorithm):
            raise InputError("public key: malformed PEM public key") from None
        if not isinstance(key, Ed25519PublicKey):
            raise InputError("public key: not an Ed25519 key (pbem uses Ed25519 only)")
        return key
    lines = [ln.strip() for ln in stripped.splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    if not lines:
        raise InputError("public key: empty")
    fields = lines[0].split()
    if len(fields) < 2:
        raise InputError("public key: expected 'ssh-ed25519 AAAA… [comment]' or a PEM public key")
    if fields[0] != "ssh-ed25519":
        raise InputError(
            f"public key: type {fields[0][:40]!r} is not ssh-ed25519 (pbem uses Ed25519 only)"
        )
    try:
        blob = base64.b64decode(fields[1], validate=True)
    except (binascii.Error, ValueError):
        raise InputError("public key: the base64 part is malformed") from None
    # Check the blob ourselves so that trailing bytes or a type mismatch cannot slip through.
    if len(blob) != 4 + 11 + 4 + 32 or not blob.startswith(_ssh_string(b"ssh-ed25519")):
        raise InputError("public key: the base64 part is not an ssh-ed25519 key blob")
    if blob[15:19] != struct.pack(">I", 32):
        raise InputError("public key: the base64 part is not an ssh-ed25519 key blob")
    try:
        return Ed25519PublicKey.from_public_bytes(blob[19:])
    except ValueError:
        raise InputError("public key: invalid Ed25519 public key") from None


def load_public_file(path: Path) -> Ed25519PublicKey:
    """Read a ``.pub`` file (OpenSSH line or PEM) -- :class:`InputError` if missing or malformed."""
    path = Path(path)
    data = _read_small(path, "public key file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file") from None
    try:
        return parse_public(text)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


def raw_private_bytes(priv: Ed25519PrivateKey) -> bytes:
    """The 32-byte Ed25519 seed (input keying material for :func:`pbem.protocol.dice.chain_seed`)."""
    return priv.private_bytes_raw()


# --- private key files ------------------------------------------------------------------------


def _read_small(path: Path, what: str) -> bytes:
    from pbem.protocol.fsutil import read_regular

    return read_regular(path, MAX_KEY_FILE_BYTES, what=f"{path} ({what})")


def _openssh_cipher(data: bytes) -> str:
    """The cipher name inside an ``OPENSSH PRIVATE KEY`` block (``"none"`` when unencrypted)."""
    text = data.decode("ascii", errors="replace")
    body = "".join(
        ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("-----")
    )
    try:
        blob = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise InputError("malformed OpenSSH private key") from None
    magic = b"openssh-key-v1\x00"
    if not blob.startswith(magic) or len(blob) < len(magic) + 4:
        raise InputError("malformed OpenSSH private key")
    (n,) = struct.unpack(">I", blob[len(magic) : len(magic) + 4])
    name = blob[len(magic) + 4 : len(magic) + 4 + n]
    if len(name) != n:
        raise InputError("malformed OpenSSH private key")
    return name.decode("ascii", errors="replace")


def private_data_encrypted(data: bytes) -> bool:
    """Whether private key file bytes (OpenSSH or PKCS#8 PEM) are protected by a passphrase."""
    head = data.lstrip()
    if head.startswith(_OPENSSH_PRIVATE_HEADER):
        return _openssh_cipher(head) != "none"
    if head.startswith(_PKCS8_ENCRYPTED_HEADER):
        return True
    if head.startswith(_PKCS8_HEADER):
        return False
    raise InputError(
        "not a private key file pbem understands (OpenSSH ed25519 or PKCS#8 PEM expected)"
    )


def private_file_encrypted(path: Path) -> bool:
    """Whether the private key file at ``path`` needs a passphrase (the CLI asks only then)."""
    path = Path(path)
    data = _read_small(path, "private key file")
    try:
        return private_data_encrypted(data)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


_PKCS8_ED25519_DER = bytes.fromhex("302e020100300506032b657004220420")
"""The DER of an unencrypted PKCS#8 Ed25519 private key before its 32-byte seed, in the one form
RFC 8410 gives it (version 0, the algorithm without parameters, no attributes, no public key):
what :meth:`KeyStore.new` and ``import`` write for a key without a passphrase."""


def _plain_pkcs8_seed(head: bytes) -> bytes | None:
    """The seed of an unencrypted PKCS#8 Ed25519 key written in that one form between its PEM
    lines (LF or CRLF line breaks), else ``None``: any other form is read by
    cryptography's loader. Reading the key a command signs with this way spares every signing
    command the import of cryptography's serialization package (its OpenSSH reader brings the
    ciphers, bcrypt, RSA, DSA and EC modules; issue 28)."""
    lines = [ln[:-1] if ln.endswith(b"\r") else ln for ln in head.strip().split(b"\n")]
    if len(lines) < 3 or lines[0] != _PKCS8_HEADER or lines[-1] != b"-----END PRIVATE KEY-----":
        return None
    try:
        der = base64.b64decode(b"".join(lines[1:-1]), validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(der) != len(_PKCS8_ED25519_DER) + 32 or not der.startswith(_PKCS8_ED25519_DER):
        return None
    return der[len(_PKCS8_ED25519_DER):]


def _load_private(data: bytes, passphrase: bytes | None, what: str) -> Ed25519PrivateKey:
    encrypted = private_data_encrypted(data)
    if encrypted and not passphrase:
        raise InputError(f"{what} is protected by a passphrase and none was given")
    password = passphrase if encrypted else None
    head = data.lstrip()
    seed = None if encrypted else _plain_pkcs8_seed(head)
    if seed is not None:
        return Ed25519PrivateKey.from_private_bytes(seed)
    from cryptography.hazmat.primitives import serialization

    key: object
    try:
        if head.startswith(_OPENSSH_PRIVATE_HEADER):
            key = serialization.load_ssh_private_key(head, password=password)
        else:
            key = serialization.load_pem_private_key(head, password=password)
    except UnsupportedAlgorithm:
        raise InputError(f"{what}: unsupported key type (pbem uses Ed25519 only)") from None
    except (ValueError, TypeError):
        if encrypted:
            raise InputError(f"wrong passphrase for {what}") from None
        raise InputError(f"{what}: malformed private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise InputError(f"{what}: not an Ed25519 key (pbem uses Ed25519 only)")
    return key


def _encryption(passphrase: bytes | None) -> serialization.KeySerializationEncryption:
    from cryptography.hazmat.primitives import serialization

    if passphrase:
        return serialization.BestAvailableEncryption(passphrase)
    return serialization.NoEncryption()


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_new_file(path: Path, data: bytes, mode: int) -> None:
    """Write ``data`` to ``path`` atomically with ``mode``; refuse (InputError) if it exists.

    The bytes go to a temporary file in the same directory (created 0600 by ``mkstemp``), are
    synced, then linked into place -- ``os.link`` fails rather than overwrite an existing file.
    """
    import tempfile

    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise InputError(f"{path} already exists; pbem never overwrites a key") from None
        except OSError:
            # File systems without hard links: fall back to replace after a final check.
            if path.exists():
                raise InputError(f"{path} already exists; pbem never overwrites a key") from None
            os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    _fsync_dir(path.parent)


class KeyInfo(Plain, frozen=True):
    """What the store can say about a key without its passphrase."""

    name: str
    public_line: str
    """``ssh-ed25519 AAAA… NAME``."""
    fingerprint: str
    """``SHA256:…`` (also the DSSE keyid)."""
    encrypted: bool
    """True when the private key file is protected by a passphrase."""


class KeyStore:
    """The directory ``ROOT/keys/`` holding ``NAME.key`` / ``NAME.pub`` pairs.

    ``root`` is pbem's home directory (default :func:`home`); the keys live in ``root / "keys"``.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else home()
        self.dir = self.root / "keys"

    def __repr__(self) -> str:
        return f"KeyStore({str(self.root)!r})"

    # paths

    def key_path(self, name: str) -> Path:
        return self.dir / f"{check_name(name)}.key"

    def pub_path(self, name: str) -> Path:
        return self.dir / f"{check_name(name)}.pub"

    def _ensure_dir(self) -> None:
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.dir.mkdir(mode=0o700, exist_ok=True)
            os.chmod(self.dir, 0o700)
        except OSError as exc:
            raise InputError(f"cannot create key directory {self.dir}: {exc.strerror}") from None

    # queries

    def has(self, name: str) -> bool:
        """Whether a private key called ``name`` is in the store."""
        return self.key_path(name).is_file()

    def _require(self, name: str) -> None:
        if not self.has(name):
            raise InputError(f"no key named {name!r} in {self.dir} (see 'pbem key list')")

    def info(self, name: str) -> KeyInfo:
        """Name, public line, fingerprint and whether a passphrase is needed."""
        self._require(name)
        pub = self.public(name)
        data = _read_small(self.key_path(name), "private key file")
        try:
            encrypted = private_data_encrypted(data)
        except InputError as exc:
            raise InputError(f"{self.key_path(name)}: {exc}") from None
        return KeyInfo(name, self._public_text(name) or public_line(pub, name), fingerprint(pub), encrypted)

    def _public_text(self, name: str) -> str | None:
        """The stored public line as written (it keeps an imported key's own comment)."""
        try:
            text = _read_small(self.pub_path(name), "public key file").decode("utf-8")
        except (InputError, UnicodeDecodeError):
            return None
        line = next((x.strip() for x in text.splitlines() if x.startswith("ssh-ed25519 ")), None)
        return line

    def survey(self) -> tuple[list[KeyInfo], list[str]]:
        """Every readable key in the store sorted by name, and a line for each one that cannot be
        read (its public file missing, a damaged file...), so that one bad pair hides no other."""
        if not self.dir.is_dir():
            return [], []
        names = sorted(
            p.stem for p in self.dir.glob("*.key") if p.is_file() and NAME_RE.match(p.stem)
        )
        infos: list[KeyInfo] = []
        problems: list[str] = []
        for n in names:
            try:
                infos.append(self.info(n))
            except InputError as exc:
                problems.append(f"key {n}: {exc}")
        return infos, problems

    def list(self) -> list[KeyInfo]:
        """Every key in the store, sorted by name (:class:`InputError` at the first unreadable one)."""
        infos, problems = self.survey()
        if problems:
            raise InputError(problems[0])
        return infos

    def public(self, name: str) -> Ed25519PublicKey:
        """The public half of key ``name``."""
        self._require(name)
        return load_public_file(self.pub_path(name))

    def private(self, name: str, passphrase: bytes | None) -> Ed25519PrivateKey:
        """Decrypt key ``name``. A wrong or missing passphrase raises :class:`InputError`."""
        self._require(name)
        path = self.key_path(name)
        data = _read_small(path, "private key file")
        try:
            key = _load_private(data, passphrase, f"key {name}")
        except InputError as exc:
            raise InputError(f"{exc}") from None
        if fingerprint(key.public_key()) != fingerprint(self.public(name)):
            raise InputError(f"key {name}: {path.name} and {name}.pub do not match")
        return key

    def resolve_public(self, spec: str) -> Ed25519PublicKey:
        """A public key named by ``spec``: a key in this store, else a ``.pub``/PEM file path."""
        if NAME_RE.match(spec) and self.has(spec):
            return self.public(spec)
        path = Path(spec)
        if path.is_file():
            return load_public_file(path)
        raise InputError(f"{spec!r} is neither a key in {self.dir} nor a public key file")

    # changes

    def _store(self, name: str, key: Ed25519PrivateKey, passphrase: bytes | None,
               comment: str | None = None) -> KeyInfo:
        check_name(name)
        self._ensure_dir()
        key_path, pub_path = self.key_path(name), self.pub_path(name)
        for p in (key_path, pub_path):
            if p.exists():
                raise InputError(f"{p} already exists; pbem never overwrites a key")
        from cryptography.hazmat.primitives import serialization

        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, _encryption(passphrase)
        )
        pub = key.public_key()
        line = public_line(pub, comment or name)
        _write_new_file(pub_path, (line + "\n").encode("utf-8"), 0o644)
        try:
            _write_new_file(key_path, pem, 0o600)
        except BaseException:
            with contextlib.suppress(OSError):
                pub_path.unlink()
            raise
        return KeyInfo(name, line, fingerprint(pub), bool(passphrase))

    def new(self, name: str, passphrase: bytes | None) -> KeyInfo:
        """Generate a fresh Ed25519 key called ``name`` (refused if the name is taken)."""
        check_name(name)
        if self.key_path(name).exists() or self.pub_path(name).exists():
            raise InputError(f"a key named {name!r} already exists in {self.dir}")
        return self._store(name, Ed25519PrivateKey.generate(), passphrase)

    def import_ssh(
        self,
        path: Path,
        name: str | None,
        passphrase: bytes | None,
        new_passphrase: bytes | None,
    ) -> KeyInfo:
        """Copy an existing OpenSSH ed25519 (or PKCS#8 PEM) private key into the store.

        ``passphrase`` opens the source file (ignored when it is not encrypted); the stored copy
        is encrypted with ``new_passphrase`` (``None``: stored unencrypted). The default name is
        the file's stem (``id_ed25519`` for ``~/.ssh/id_ed25519``).
        """
        path = Path(path)
        name = check_name(name if name is not None else path.stem)
        if self.key_path(name).exists() or self.pub_path(name).exists():
            raise InputError(f"a key named {name!r} already exists in {self.dir}")
        data = _read_small(path, "private key file")
        try:
            key = _load_private(data, passphrase, str(path))
        except InputError as exc:
            text = str(exc)
            raise InputError(text if str(path) in text else f"{path}: {text}") from None
        return self._store(name, key, new_passphrase, _comment_beside(path, key))


def _comment_beside(path: Path, key: Ed25519PrivateKey) -> str | None:
    """The comment of the OpenSSH public key file beside an imported private key
    (``id_ed25519.pub`` next to ``id_ed25519``), when it holds the same key: ``pbem key show``
    then shows ``bob@example.org`` as ``ssh-keygen`` does."""
    beside = path.with_name(path.name + ".pub")
    if not beside.is_file():
        return None
    try:
        text = _read_small(beside, "public key file").decode("utf-8")
    except (InputError, UnicodeDecodeError):
        return None
    for line in text.splitlines():
        fields = line.split(None, 2)
        if len(fields) == 3 and fields[0] == "ssh-ed25519":
            try:
                pub = parse_public(" ".join(fields[:2]))
            except InputError:
                return None
            comment = fields[2].strip()
            if fingerprint(pub) == fingerprint(key.public_key()) and comment.isprintable():
                return comment[:200]
    return None


def passphrase_for(name: str, *, confirm: bool = False, prompt: str | None = None) -> bytes | None:
    """The passphrase for ``name``: ``$PBEM_PASSPHRASE`` if set, else asked on the terminal.

    An empty ``$PBEM_PASSPHRASE`` means "no passphrase" (``None``). ``confirm`` asks twice (for a
    new passphrase). The CLI calls this only when a passphrase is actually needed.
    """
    env = os.environ.get(PASSPHRASE_ENV)
    if env is not None:
        return env.encode("utf-8") if env else None
    refusal = (f"key {name} needs a passphrase and none was given: type it at a terminal, or set "
               f"{PASSPHRASE_ENV}" + (", or make the key with --no-passphrase" if confirm else ""))
    if not _terminal():  # nothing to hide the typing on: what standard input holds, if anything
        return _piped_passphrase(confirm, refusal)
    import warnings

    import click

    try:
        with warnings.catch_warnings():  # getpass's warning when reading a pipe, not a terminal
            warnings.simplefilter("ignore")
            text: str = click.prompt(
                prompt or f"Passphrase for key {name}",
                hide_input=True,
                confirmation_prompt=confirm,
                err=True,
            )
    except click.exceptions.Abort:  # the input ended: say what to do instead of "Aborted."
        raise InputError(refusal) from None
    return text.encode("utf-8") if text else None


def _terminal() -> bool:
    """Whether a passphrase can be typed unseen: standard input is a terminal, or the process has
    a controlling terminal (``/dev/tty``, where getpass asks when standard input is a pipe)."""
    stdin = sys.stdin
    if stdin is not None and stdin.isatty():
        return True
    if os.name != "posix":
        return False
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True


def _piped_passphrase(confirm: bool, refusal: str) -> bytes:
    """The passphrase from standard input when there is no terminal: its first non-empty line (and
    the next one, equal to it, for a new passphrase), read without a prompt or getpass's "may be
    echoed" warning (nobody is there to read them); input that ends first is ``refusal``."""

    def line() -> str:
        for raw in sys.stdin if sys.stdin is not None else ():
            text = raw.rstrip("\r\n")
            if text:
                return text
        raise InputError(refusal)

    first = line()
    if confirm and line() != first:
        raise InputError("the two passphrases given on standard input differ")
    return first.encode("utf-8")
