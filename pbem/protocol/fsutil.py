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
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from pbem.errors import ArchiveError, DiskError, PbemError
from pbem.lazy_re import LazyPattern

_counter = itertools.count()

TEMP_RE = LazyPattern(r"^\..+\.tmp-(\d+)-\d+$", ".")
"""Names of the temporary files :func:`write_new` and :func:`write_replace` write before linking."""


def _describe(path: Path, exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    return f"cannot write {path.name} in {path.parent}: {reason}"


# ------------------------------------------------------------------------------------------------
# Transactions: a command that fails removes the files it created
# ------------------------------------------------------------------------------------------------

_journals: list[list[Path]] = []
_undos: list[list[Callable[[], None]]] = []
_dirs_to_sync: list[set[Path]] = []


@contextlib.contextmanager
def transaction() -> Iterator[list[Path]]:
    """Every file :func:`write_new` creates inside the block is recorded; if the block raises, those
    files are removed again, newest first, so a command that fails (a full disk while maps are
    written, a read-only directory, a bad input found late) leaves the directories as they were.
    Files written with ``journal=False`` (a P7 record of what was signed) are kept.

    Each new file's bytes reach the disk before its name is linked (so no name ever shows a
    truncated file); the directories that got new names are synced once, when the block ends
    well, not after every file: a power cut before then loses names the command had not finished
    writing, as a crash would, never a file's bytes."""
    journal: list[Path] = []
    undo: list[Callable[[], None]] = []
    dirs: set[Path] = set()
    _journals.append(journal)
    _undos.append(undo)
    _dirs_to_sync.append(dirs)
    try:
        yield journal
        for directory in sorted(dirs):
            _fsync_dir(directory)
    except BaseException as exc:
        success = getattr(exc, "exit_code", None) == 0 or (
            isinstance(exc, SystemExit) and exc.code in (0, None))
        if not success:
            for path in reversed(journal):
                with contextlib.suppress(OSError):
                    os.unlink(path)
            for fn in reversed(undo):  # a restore the disk refuses (DiskError) stops none of the others
                with contextlib.suppress(OSError, PbemError):
                    fn()
        raise
    finally:  # by identity: two blocks may hold equal (empty) lists
        for stack, mine in ((_journals, journal), (_undos, undo), (_dirs_to_sync, dirs)):
            del stack[next(i for i, x in enumerate(stack) if x is mine)]


@contextlib.contextmanager
def kept() -> Iterator[None]:
    """Files written inside the block stay if the surrounding :func:`transaction` fails, and their
    directories are synced at once: for finishing what an earlier command a crash stopped left
    undone (the turn files and emails of moves already in the archive), which belongs to the
    archive as it stands, not to this command's input -- a command refused afterwards must not
    take it away again."""
    journals, dirs = _journals[:], _dirs_to_sync[:]
    _journals.clear()
    _dirs_to_sync.clear()
    try:
        yield
    finally:
        _journals[:] = journals
        _dirs_to_sync[:] = dirs


def on_rollback(fn: Callable[[], None]) -> None:
    """Run ``fn`` if the current :func:`transaction` fails (e.g. cut an appended line off again)."""
    for undo in _undos:
        undo.append(fn)


def will_be_undone(path: Path) -> bool:
    """Whether ``path`` was created inside the current :func:`transaction` (so a failure removes it)."""
    return any(path == p for journal in _journals for p in journal)


def _record(path: Path) -> None:
    for journal in _journals:
        journal.append(path)


# ------------------------------------------------------------------------------------------------
# Writing
# ------------------------------------------------------------------------------------------------


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
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except OSError as exc:
        raise DiskError(_describe(path, exc)) from None
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
            crash_point("temp")  # test-only: die with a temp file half written
        os.fsync(fd)
    except BaseException as exc:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise DiskError(_describe(path, exc)) from None
        raise
    os.close(fd)
    return tmp


def _existing(path: Path) -> str | None:
    """What stands at ``path`` already: None (nothing), "file", or a refusal naming what it is."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DiskError(_describe(path, exc)) from None
    if stat.S_ISREG(info.st_mode):
        return "file"
    what = ("a symbolic link" if stat.S_ISLNK(info.st_mode) else "a directory"
            if stat.S_ISDIR(info.st_mode) else "a special file")
    raise ArchiveError(f"{path.name}: {what} stands where pbem writes this file in {path.parent}; "
                       "refused (move it away and run the command again)")


def plain_file(path: Path) -> bool:
    """Whether a regular file stands at ``path`` itself: a symbolic link is not followed (a link
    to a file is not one), so a writer that skips a name "written already" never skips a link."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _same(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and read_regular(path, len(data), follow_symlinks=False) == data
    except (OSError, PbemError):
        return False


def write_new(path: Path | str, data: bytes, *, mode: int = 0o644, journal: bool = True) -> bool:
    """Create ``path`` holding exactly ``data``; never overwrite.

    Returns ``True`` when the file was created and ``False`` when it already existed with exactly
    these bytes (so re-running an interrupted command is harmless). An existing file with other bytes
    raises :class:`ArchiveError` and is left untouched; so does a link, a directory or a special
    file at that name. A disk fault (read-only, full, no permission) is a :class:`DiskError` (one
    line, exit 2) and leaves no file behind. Inside a :func:`transaction` the new file is recorded
    (unless ``journal`` is False) so a failing command removes it again."""
    path = Path(path)
    if _existing(path) == "file":
        if _same(path, data):
            return False
        raise ArchiveError(f"{path.name} already exists with different content; not overwritten")
    tmp = _write_temp(path, data, mode)
    try:
        os.link(tmp, path)
    except FileExistsError:
        if _existing(path) == "file" and _same(path, data):
            return False
        raise ArchiveError(
            f"{path.name} already exists with different content; not overwritten"
        ) from None
    except OSError as exc:
        raise DiskError(_describe(path, exc)) from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    if journal:
        _record(path)
    if _dirs_to_sync:  # synced once when the command's transaction ends
        _dirs_to_sync[-1].add(path.parent)
    else:
        _fsync_dir(path.parent)
    return True


def write_replace(path: Path | str, data: bytes, *, mode: int = 0o600) -> None:
    """Atomically replace ``path`` (local state only -- never used for archived files)."""
    path = Path(path)
    tmp = _write_temp(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise DiskError(_describe(path, exc)) from None
        raise
    _fsync_dir(path.parent)


def clean_stale_temps(directory: Path) -> list[str]:
    """Remove the temporary files a killed pbem left in ``directory`` (their process is gone);
    returns their names. A temp file of a process still running is left alone."""
    removed: list[str] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        m = TEMP_RE.match(name)
        if m is None:
            continue
        pid = int(m.group(1))
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, 0)
            continue  # still running
        except ProcessLookupError:
            pass
        except PermissionError:
            continue  # someone else's live process
        with contextlib.suppress(OSError):
            os.unlink(directory / name)
            removed.append(name)
    return removed


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
