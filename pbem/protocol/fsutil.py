"""Atomic, never-overwriting file writes.

Every file pbem writes into a game directory is written with :func:`write_new`: the bytes go to a
temporary file in the same directory, which is flushed to disk and then *linked* to its final name.
``os.link`` fails if the name exists, so an archived file is never overwritten, and a crash (even
``kill -9``) leaves either no file or the complete file -- never a truncated one. The directory is
fsynced afterwards so the new name itself survives a power cut.

Local private state (chain seeds, ``sides.json``) may be replaced as a whole with
:func:`write_replace`, which uses the same temp-file dance and ``os.replace``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from pathlib import Path

from pbem.errors import ArchiveError

_counter = itertools.count()


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes, mode: int) -> Path:
    tmp = path.parent / f".{path.name}.tmp-{os.getpid()}-{next(_counter)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def write_new(path: Path | str, data: bytes, *, mode: int = 0o644) -> bool:
    """Create ``path`` holding exactly ``data``; never overwrite.

    Returns ``True`` when the file was created and ``False`` when it already existed with exactly
    these bytes (so re-running an interrupted command is harmless). An existing file with other bytes
    raises :class:`ArchiveError` and is left untouched."""
    path = Path(path)
    if path.exists():
        if path.read_bytes() == data:
            return False
        raise ArchiveError(f"{path.name} already exists with different content; not overwritten")
    tmp = _write_temp(path, data, mode)
    try:
        os.link(tmp, path)
    except FileExistsError:
        if path.read_bytes() == data:
            return False
        raise ArchiveError(
            f"{path.name} already exists with different content; not overwritten"
        ) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _fsync_dir(path.parent)
    return True


def write_replace(path: Path | str, data: bytes, *, mode: int = 0o600) -> None:
    """Atomically replace ``path`` (local state only -- never used for archived files)."""
    path = Path(path)
    tmp = _write_temp(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


CRASH_ENV = "PBEM_TEST_CRASH_AFTER"
"""Test-only: when set to a crash point's name, the process kills itself (SIGKILL) right there."""


def crash_point(name: str) -> None:
    """Die abruptly at ``name`` when ``$PBEM_TEST_CRASH_AFTER`` says so (crash-safety tests)."""
    if os.environ.get(CRASH_ENV) == name:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


# ------------------------------------------------------------------------------------------------
# Reading what comes from outside
# ------------------------------------------------------------------------------------------------


def read_regular(path: Path | str, max_bytes: int, *, what: str | None = None,
                 follow_symlinks: bool = True) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``, checked before anything is read.

    The file is opened without blocking (a FIFO cannot hang the process) and, unless
    ``follow_symlinks``, without following a symbolic link; the *open* file is then checked: a FIFO,
    a device such as ``/dev/zero``, a directory or a socket is refused, and so is a size over the
    limit (a 20 GB sparse file costs one ``fstat``). At most ``max_bytes + 1`` bytes are read, so a
    file that grows meanwhile is refused too. Every refusal is one :class:`InputError` line."""
    import errno
    import stat

    from pbem.errors import InputError

    path = Path(path)
    label = what or str(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{label}: a symbolic link, refused (only plain files are read)") from None
        if exc.errno == errno.ENOENT:
            raise InputError(f"{label}: no such file") from None
        raise InputError(f"cannot read {label}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = ("a directory" if stat.S_ISDIR(info.st_mode) else "a FIFO (named pipe)"
                    if stat.S_ISFIFO(info.st_mode) else "a device" if stat.S_ISCHR(info.st_mode)
                    or stat.S_ISBLK(info.st_mode) else "a socket" if stat.S_ISSOCK(info.st_mode)
                    else "not a regular file")
            raise InputError(f"{label}: {kind}, not a regular file; refused")
        if info.st_size > max_bytes:
            raise InputError(f"{label}: {info.st_size} bytes, more than the limit of {max_bytes}")
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise InputError(f"cannot read {label}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if total > max_bytes:
        raise InputError(f"{label}: more than the limit of {max_bytes} bytes")
    return b"".join(chunks)
