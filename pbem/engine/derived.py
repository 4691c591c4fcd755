"""The record of derived files: ``derived.sha256`` in a game directory.

Maps (``map-NNNN.svg``) and email drafts (``mail-NNNN.eml``) are not part of the archive's proof:
they are drawn from turn files and can be drawn again (``pbem render``, ``pbem mail``). What the
record adds is a cheap check that each one is still the file its writer's pbem produced: every time
pbem writes a derived file it appends ``<sha256>  <name>`` -- the format of ``sha256sum``, so
``sha256sum -c derived.sha256`` checks it too. ``pbem verify`` compares every derived file present
with the newest line for its name instead of redrawing it (``pbem verify --redraw`` also redraws
every map). What this guarantees, and what not, is in ``docs/protocol.md``.

Appending one line costs the same at step 300 as at step 3. A command that fails and removes the
files it wrote may leave lines for files that are gone: a line for a missing file is ignored.

Only the newest step's derived files stay on disk (issue 28): a map is removed when the map of a
later step is drawn, a move's email once every other side has answered the move (:func:`remove`).
Their lines stay, so a map or an email drawn again (``pbem render --step N``, ``pbem mail draft
--step N``) can still be compared with the one pbem wrote then. ``pbem verify`` checks the derived
files present; a listed file that is absent is not an error (it was pruned, or never kept).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Collection
from pathlib import Path

from pbem.errors import DiskError, VerificationError
from pbem.protocol import names
from pbem.protocol.fsutil import on_rollback

MANIFEST = names.MANIFEST
MAX_MANIFEST_BYTES = 16 * 1024 * 1024
_LINE = re.compile(r"^([0-9a-f]{64})  ([A-Za-z0-9][A-Za-z0-9._-]{0,100})$")
DERIVED = re.compile(r"^(map-\d{4,}\.svg|mail-\d{4,}\.eml|board\.svg)$")
"""Names of the derived files the record covers."""
MAX_DERIVED_BYTES = 64 * 1024 * 1024
"""The most of a derived file pbem reads (the largest map it draws is far smaller)."""


def record(game_dir: Path, name: str, data: bytes) -> None:
    """Append the hash of a derived file pbem has just written."""
    line = f"{hashlib.sha256(data).hexdigest()}  {name}\n".encode("ascii")
    path = game_dir / MANIFEST
    existed = os.path.lexists(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise DiskError(f"cannot write {MANIFEST} in {game_dir}: {exc.strerror}") from None
    try:
        size = os.fstat(fd).st_size
        os.write(fd, line)
        # a failing command leaves no line (and no new record file) behind
        on_rollback((lambda: os.truncate(path, size)) if existed or size else (lambda: os.unlink(path)))
    except OSError as exc:
        raise DiskError(f"cannot write {MANIFEST} in {game_dir}: {exc.strerror}") from None
    finally:
        os.close(fd)


def remove(game_dir: Path, name: str, listed: list[str] | None = None,
           recorded: dict[str, str] | None = None) -> bool:
    """Remove the derived file ``name`` (an older step's map or email, pruned) and drop it from
    ``listed`` (the directory listing a command holds); its line in the record stays. If the
    command fails later, the file comes back byte for byte (a refusal changes nothing on disk).
    Only the file pbem wrote is removed: one whose bytes are not those of its newest line in the
    record (a map the player annotated, a file pbem did not write) stays, and so does a link or a
    directory at the name. ``recorded``: the record as :func:`read` returns it, for a caller that
    removes several files (read here otherwise). Returns whether a file was removed."""
    import stat

    from pbem.protocol.fsutil import write_replace

    if not DERIVED.fullmatch(name):  # fullmatch: '$' would also take a name ending in a newline
        raise ValueError(f"{name!r} is not a derived file")
    path = game_dir / name
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if listed is not None and name in listed:
            listed.remove(name)
        return False
    except OSError as exc:
        raise DiskError(f"cannot remove {name} in {game_dir}: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):  # a link or a directory standing there is never followed
        return False
    from pbem.errors import InputError
    from pbem.protocol.fsutil import read_regular

    try:  # no link followed, even one put there since the lstat above
        data = read_regular(path, MAX_DERIVED_BYTES, what=name, follow_symlinks=False)
    except InputError:
        return False  # not a plain file within the limit: not one pbem wrote, kept
    if hashlib.sha256(data).hexdigest() != (newest(game_dir, [name]) if recorded is None else recorded).get(name):
        return False  # not the file pbem wrote (changed by hand, or never recorded): kept
    try:
        path.unlink()
    except OSError as exc:
        raise DiskError(f"cannot remove {name} in {game_dir}: {exc.strerror}") from None
    if listed is not None and name in listed:
        listed.remove(name)
    mode = stat.S_IMODE(st.st_mode)
    on_rollback(lambda: write_replace(path, data, mode=mode))
    return True


def read(game_dir: Path) -> dict[str, str]:
    """Name -> the newest recorded hash (malformed lines, e.g. cut by a crash, are skipped)."""
    from pbem.protocol.fsutil import read_regular

    path = game_dir / MANIFEST
    if not path.exists():
        return {}
    raw = read_regular(path, MAX_MANIFEST_BYTES, what=MANIFEST, follow_symlinks=False)
    out: dict[str, str] = {}
    for line in raw.decode("ascii", errors="replace").splitlines():
        m = _LINE.match(line)
        if m:
            out[m.group(2)] = m.group(1)
    return out


TAIL_CHUNK = 16 * 1024
"""How much of the record :func:`newest` reads at a time, from its end back."""


def newest(game_dir: Path, wanted: Collection[str]) -> dict[str, str]:
    """The newest recorded hash of each name of ``wanted`` that the record holds, as :func:`read`
    gives it, but read from the end of the record back only until every wanted name is found: a
    command prunes the files of the step just before its own, whose lines are at the end, so this
    costs the same at step 300 as at step 3. A record that is not a plain file within the limit is
    refused as :func:`read` refuses it."""
    import stat

    want = set(wanted)
    path = game_dir / MANIFEST
    if not want or not os.path.lexists(path):
        return {}
    try:
        info = os.lstat(path)
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_size <= TAIL_CHUNK \
            or info.st_size > MAX_MANIFEST_BYTES:
        return {n: h for n, h in read(game_dir).items() if n in want}  # small, or refused there
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return {n: h for n, h in read(game_dir).items() if n in want}  # its refusal, in its words
    out: dict[str, str] = {}
    try:
        end = min(os.fstat(fd).st_size, MAX_MANIFEST_BYTES)
        rest = b""
        while end > 0 and want - out.keys():
            start = max(0, end - TAIL_CHUNK)
            chunk = os.pread(fd, end - start, start) + rest
            lines = chunk.split(b"\n")
            rest = lines.pop(0) if start > 0 else b""  # a line cut by the chunk's start: read with the next
            for raw in reversed(lines):
                m = _LINE.match(raw.decode("ascii", errors="replace"))
                if m and m.group(2) in want and m.group(2) not in out:
                    out[m.group(2)] = m.group(1)  # the last line of a name is its newest
            end = start
    except OSError as exc:
        raise DiskError(f"cannot read {MANIFEST} in {game_dir}: {exc.strerror}") from None
    finally:
        os.close(fd)
    return out


def received(game_dir: Path, name: str, data: bytes) -> bool:
    """Whether ``name`` (``mail-NNNN.eml``, not in the record) is the email another player's pbem
    drafted for move NNNN, saved here to be ingested: it carries that step's move file, and the
    attachment is byte for byte the move in this archive. The record covers only what pbem wrote
    here; a received email proves nothing beyond its move, which the archive holds and verify checks."""
    import email
    import email.policy

    m = re.fullmatch(r"mail-(\d{4,})\.eml", name)
    if m is None:
        return False
    try:
        msg = email.message_from_bytes(data, policy=email.policy.default)
        moves = [(part.get_filename(), part.get_payload(decode=True)) for part in msg.walk()
                 if re.fullmatch(rf"move-{m.group(1)}-[A-Za-z0-9]+\.json", part.get_filename() or "")]
    except Exception:  # an email the parser cannot read is not a received move
        return False
    from pbem.errors import InputError
    from pbem.protocol.canonical import MAX_MOVE_BYTES
    from pbem.protocol.fsutil import read_regular

    for filename, payload in moves:
        if not isinstance(payload, bytes) or len(payload) > MAX_MOVE_BYTES:
            continue
        try:  # the archive's move, read as every move is: a plain file, its size checked first
            if read_regular(game_dir / str(filename), MAX_MOVE_BYTES, follow_symlinks=False) == payload:
                return True
        except InputError:
            continue
    return False


def check(game_dir: Path, names: list[str], *, limit: int = MAX_DERIVED_BYTES) -> int:
    """Every derived file among ``names`` must hash to its newest recorded line; the first that does
    not is a :class:`VerificationError` naming it, unless it is an email :func:`received` from
    another player. Returns how many were checked."""
    from pbem.protocol.fsutil import read_regular

    wanted = sorted(n for n in names if DERIVED.fullmatch(n))
    if not wanted:
        return 0
    recorded = read(game_dir)
    for name in wanted:
        expected = recorded.get(name)
        data = read_regular(game_dir / name, limit, what=name, follow_symlinks=False)
        if expected is None:
            if received(game_dir, name, data):
                continue
            raise VerificationError(name, f"not recorded in {MANIFEST} (not written by pbem, or "
                                          "the record was removed)")
        if hashlib.sha256(data).hexdigest() != expected:
            raise VerificationError(name, f"differs from the file pbem wrote ({MANIFEST}); "
                                          "'pbem render'/'pbem mail' draw it again")
    return len(wanted)
