"""Files in and out.

:func:`write_atomic`: a reader, or the next run after a crash, sees the old file or the new
one, never a part. Used by every long job that writes results (puzzle files, checkpoints,
state graphs, bench sets).

:func:`read_bounded`, :func:`read_chunks` and :func:`check_readable`: a file a user hands in is
read only when it is a regular file (not a directory, a device or a pipe) of at most
:data:`MAX_INPUT_BYTES`.

:func:`output_lock`: one writer per output. A long job holds an advisory lock on the file or
folder it writes; a second run gets an :class:`OutputLockedError` naming the first one's
process id, and the first thing a run does under the lock is remove the temporary files an
earlier run killed in :func:`write_atomic` left behind.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from .errors import TaoLongError

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no advisory locks
    fcntl = None

MAX_INPUT_BYTES = 64 * 2**20
"""The largest file read as input (64 MiB): a bigger one is refused before it is read."""


def write_atomic(path, data: bytes | Callable[[Path], None]) -> None:
    """Replace ``path`` by ``data`` (bytes, or a function that writes the file it is given)
    through a temporary file in the same folder, synced, then renamed over ``path``. The file
    keeps its permissions (a new one gets the usual ones, after the umask); on any error the
    temporary file is removed and ``path`` is untouched.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "out.txt"
    >>> write_atomic(target, b"one")
    >>> write_atomic(target, lambda tmp: tmp.write_text("two"))
    >>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
    ('two', ['out.txt'])
    """
    path = Path(path)
    directory = path.parent
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    tmp = directory / f".{path.name}.{uuid.uuid4().hex[:12]}.tmp"
    try:
        if callable(data):
            data(tmp)
            _fsync(tmp)
        else:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
            with os.fdopen(os.open(tmp, flags, 0o666), "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable, where the OS allows
        _fsync(directory)


def _fsync(path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def append_bytes(path, data: bytes) -> None:
    """Append ``data`` to the file ``path`` (created if missing) by a single ``os.write`` on a
    descriptor opened with ``O_APPEND``, then flush the file to disk (``fsync``). A short
    write raises ``OSError``."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o666)
    try:
        written = os.write(fd, data)
        if written != len(data):
            raise OSError(f"{path}: short write ({written} of {len(data)} bytes)")
        os.fsync(fd)
    finally:
        os.close(fd)


# ---- reading a user's file ------------------------------------------------------------------
class InputFileError(TaoLongError):
    """A file handed in to read is missing, unreadable, not a regular file, or too big.
    Names the file."""

    def __init__(self, path, reason: str):
        self.path, self.reason = str(path), reason
        shown = self.path if self.path.isprintable() else repr(self.path)
        super().__init__(f"cannot read {shown}: {reason}")


_NOT_REGULAR = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a pipe"),
    (stat.S_ISSOCK, "a socket"),
)


def _open_checked(path, limit: int) -> int:
    """A read-only descriptor of ``path`` once it is known to be a regular file of at most
    ``limit`` bytes. Opening does not block (a pipe is refused, not waited on)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise InputFileError(path, getattr(exc, "strerror", None) or str(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next(
                (name for test, name in _NOT_REGULAR if test(info.st_mode)), "a special file"
            )
            raise InputFileError(path, f"{kind}, not a regular file")
        if info.st_size > limit:
            raise InputFileError(path, f"{info.st_size:,} bytes, over the {limit:,}-byte limit")
    except BaseException:
        os.close(fd)
        raise
    return fd


def check_readable(path, *, limit: int = MAX_INPUT_BYTES) -> None:
    """Raise :class:`InputFileError` unless ``path`` can be opened and is a regular file of at
    most ``limit`` bytes. Nothing is read.

    >>> import tempfile
    >>> check_readable(tempfile.gettempdir())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    taolong_lab.files.InputFileError: cannot read ...: a directory, not a regular file
    """
    os.close(_open_checked(path, limit))


def read_chunks(path, *, limit: int = MAX_INPUT_BYTES, size: int = 1 << 20):
    """The bytes of ``path`` in pieces of at most ``size``, checked as :func:`check_readable`
    does before anything is read; a file that grows past ``limit`` while it is read is
    refused too. Never more than one piece is held.

    Parameters
    ----------
    path : path
        The file.
    limit : int
        Its most bytes.
    size : int
        The most bytes of one piece.

    Returns
    -------
    iterator of bytes

    Raises
    ------
    InputFileError
        A file that is missing, not a regular file, or over ``limit``.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "in.txt"
    >>> write_atomic(target, b"some text")
    >>> list(read_chunks(target, size=4))
    [b'some', b' tex', b't']
    """
    with os.fdopen(_open_checked(path, limit), "rb") as handle:
        total = 0
        while piece := handle.read(size):
            total += len(piece)
            if total > limit:
                raise InputFileError(path, f"over the {limit:,}-byte limit")
            yield piece


def read_bounded(path, *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``path``, checked as :func:`check_readable` does before anything is read;
    a file that grows past ``limit`` while it is read is refused too.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "in.txt"
    >>> write_atomic(target, b"some text")
    >>> read_bounded(target)
    b'some text'
    >>> read_bounded(target, limit=4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    taolong_lab.files.InputFileError: cannot read ...: 9 bytes, over the 4-byte limit
    """
    with os.fdopen(_open_checked(path, limit), "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputFileError(path, f"over the {limit:,}-byte limit")
    return data


# ---- one writer per output -------------------------------------------------------------------
class OutputLockedError(TaoLongError):
    """Another run is writing the same output: names it and that run's process id."""

    def __init__(self, path, pid: int | None):
        self.path, self.pid = str(path), pid
        who = f"pid {pid}" if pid else "its pid not written yet"
        super().__init__(
            f"{self.path}: another run ({who}) is writing it; wait for it to end, or write "
            "to another file"
        )


def lock_file(path, *, folder: bool = False) -> Path:
    """The lock file of the output ``path``: ``.<name>.lock`` beside a file, ``.lock`` inside
    a folder.

    Parameters
    ----------
    path : path
        The output.
    folder : bool
        Whether it is a folder.

    Returns
    -------
    Path
    """
    path = Path(path)
    return path / ".lock" if folder else path.parent / f".{path.name}.lock"


@contextlib.contextmanager
def output_lock(path, *, folder: bool = False) -> Iterator[None]:
    """Hold the advisory lock (``fcntl.flock``) of the output ``path`` (a file, or with
    ``folder`` a folder that exists) for the block, its lock file holding this process's id;
    then remove the stale temporary files of :func:`write_atomic` there
    (:func:`remove_stale_temporaries`).

    Parameters
    ----------
    path : path
        The output.
    folder : bool
        Whether it is a folder.

    Raises
    ------
    OutputLockedError
        Another process holds the lock (the error names its process id).
    TaoLongError
        The lock file cannot be opened.

    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "out.jsonl"
    >>> with output_lock(target):
    ...     with output_lock(target):
    ...         pass  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    taolong_lab.files.OutputLockedError: .../out.jsonl: another run (pid ...) is writing it; ...
    """
    lock = lock_file(path, folder=folder)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise TaoLongError(f"{lock}: cannot open the lock file ({exc.strerror or exc})") from None
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                raise OutputLockedError(path, int(text) if text.isdigit() else None) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        remove_stale_temporaries(path, folder=folder)
        yield
    finally:
        os.close(fd)  # releases the lock


_TEMPORARY = re.compile(r"\.(.+)\.[0-9a-f]{12}\.tmp")


def remove_stale_temporaries(path, *, folder: bool = False) -> int:
    """Remove the temporary files :func:`write_atomic` left beside ``path`` (or in the folder
    ``path``, for any of its files) when a run was killed mid-write: ``.<name>.<hex>.tmp``.
    Only safe under :func:`output_lock`.

    Parameters
    ----------
    path : path
        The output.
    folder : bool
        Whether it is a folder.

    Returns
    -------
    int
        How many files were removed.
    """
    path = Path(path)
    where = path if folder else path.parent
    gone = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(where):
            found = _TEMPORARY.fullmatch(entry.name)
            if found is None or not entry.is_file(follow_symlinks=False):
                continue
            if folder or found.group(1) == path.name or found.group(1).startswith(path.name + "."):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
                    gone += 1
    return gone
