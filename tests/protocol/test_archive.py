"""Archive files: atomic never-overwriting writes, directory listing, strict message parsing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.errors import ArchiveError, InputError
from pbem.protocol import archive, names
from pbem.protocol.fsutil import write_new, write_replace


def test_write_new_creates_and_never_overwrites(tmp_path: Path) -> None:
    p = tmp_path / "turn-0001.json"
    assert write_new(p, b"one\n") is True
    assert p.read_bytes() == b"one\n"
    assert write_new(p, b"one\n") is False  # identical: harmless re-run
    with pytest.raises(ArchiveError, match="already exists"):
        write_new(p, b"two\n")
    assert p.read_bytes() == b"one\n"
    assert sorted(os.listdir(tmp_path)) == ["turn-0001.json"]  # no temp file left behind


def test_write_replace_is_for_local_state(tmp_path: Path) -> None:
    p = tmp_path / "sides.json"
    write_replace(p, b"{}")
    write_replace(p, b'{"A": "alice"}')
    assert p.read_bytes() == b'{"A": "alice"}'
    assert p.stat().st_mode & 0o777 == 0o600
    assert sorted(os.listdir(tmp_path)) == ["sides.json"]


def test_28_a_transaction_syncs_each_directory_once_after_its_files(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file's bytes are synced before its name is linked; the directories that got names are
    synced once when the command's transaction ends well (not after each file), and not at all when
    it fails (its files are removed)."""
    from pbem.protocol import fsutil

    synced: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(fsutil, "_fsync_dir", lambda d: synced.append((d.name, sorted(os.listdir(d)))))
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    with fsutil.transaction():
        for name in ("move-0001-A.json", "turn-0001.json", "map-0001.svg"):
            write_new(a / name, b"x")
        write_new(b / "mail.eml", b"y")
        assert synced == []
    assert synced == [("a", ["map-0001.svg", "move-0001-A.json", "turn-0001.json"]), ("b", ["mail.eml"])]
    synced.clear()
    with pytest.raises(InputError), fsutil.transaction():
        write_new(a / "turn-0002.json", b"x")
        raise InputError("late refusal")
    assert synced == [] and not (a / "turn-0002.json").exists()
    write_new(a / "turn-0003.json", b"x")  # outside any transaction: at once
    assert synced == [("a", ["map-0001.svg", "move-0001-A.json", "turn-0001.json", "turn-0003.json"])]


def test_nested_transactions_unwind_their_own_journals(tmp_path: Path) -> None:
    from pbem.protocol import fsutil

    with fsutil.transaction() as outer:
        with pytest.raises(InputError), fsutil.transaction() as inner:
            write_new(tmp_path / "inner.json", b"x")
            raise InputError("inner fails")
        assert inner == [tmp_path / "inner.json"] and not (tmp_path / "inner.json").exists()
        write_new(tmp_path / "outer.json", b"x")
    assert outer == [tmp_path / "inner.json", tmp_path / "outer.json"] and (tmp_path / "outer.json").exists()


def test_names_and_scan(tmp_path: Path) -> None:
    assert names.move_name(7, "US") == "move-0007-US.json"
    assert names.turn_name(12) == "turn-0012.json"
    for name in ("genesis.json", "join-B.json", "move-0001-A.json", "turn-0000.json", "map-0001.svg",
                 ".hidden"):
        (tmp_path / name).write_text("x")
    listing = archive.scan(tmp_path)
    assert listing.genesis == tmp_path / "genesis.json"
    assert listing.joins == {"B": tmp_path / "join-B.json"}
    assert listing.moves == {1: tmp_path / "move-0001-A.json"}
    assert listing.turns == {0: tmp_path / "turn-0000.json"}
    assert listing.other == ["map-0001.svg"]
    (tmp_path / "move-0001-B.json").write_text("x")
    with pytest.raises(InputError, match=r"two move files for step 1.*\[P7\]"):
        archive.scan(tmp_path)


def _signed(body: bytes, payload_type: str) -> bytes:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from pbem.protocol.dsse import envelope_bytes, sign

    return envelope_bytes(sign(body, payload_type, [Ed25519PrivateKey.generate()]))


GOOD = {
    "ds": "pbem/move/v1", "game": "0" * 32, "step": 1, "side": "A", "answers": "a" * 64,
    "reveal": "b" * 64, "orders": {"kind": "setup"},
}


def test_parse_move_accepts_canonical_body() -> None:
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import MOVE_TYPE

    msg = archive.parse_move(_signed(canonical_bytes(GOOD), MOVE_TYPE), "m.json")
    assert msg.body.step == 1 and msg.body_bytes == canonical_bytes(GOOD)
    import hashlib

    assert msg.body_hash == hashlib.sha256(canonical_bytes(GOOD)).hexdigest()


@pytest.mark.parametrize(
    ("body", "payload", "match"),
    [
        (b'{"ds": "pbem/move/v1"}', "move", "not canonical"),
        (None, "join", "payload type"),
        ("extra", "move", "extra"),
        ("step0", "move", "step"),
        ("badhex", "move", "answers"),
    ],
)
def test_parse_move_refuses(body: object, payload: str, match: str) -> None:
    from pbem.protocol.canonical import canonical_bytes
    from pbem.protocol.dsse import JOIN_TYPE, MOVE_TYPE

    if body is None:
        raw = canonical_bytes(GOOD)
    elif body == "extra":
        raw = canonical_bytes(dict(GOOD, extra=1))
    elif body == "step0":
        raw = canonical_bytes(dict(GOOD, step=0))
    elif body == "badhex":
        raw = canonical_bytes(dict(GOOD, answers="A" * 64))
    else:
        assert isinstance(body, bytes)
        raw = body
    data = _signed(raw, JOIN_TYPE if payload == "join" else MOVE_TYPE)
    with pytest.raises(InputError, match=match):
        archive.parse_move(data, "m.json")


def test_read_limited_refuses_before_reading(tmp_path: Path) -> None:
    p = tmp_path / "big.json"
    p.write_bytes(b"x" * 101)
    with pytest.raises(InputError, match="limit of 100"):
        archive.read_limited(p, 100)
    assert archive.read_limited(p, 101) == b"x" * 101
