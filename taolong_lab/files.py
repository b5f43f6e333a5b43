"""Atomic file writes: a reader, or the next run after a crash, sees the old file or the new
one, never a part. Used by every long job that writes results (puzzle files, checkpoints,
state graphs, bench sets)."""

from __future__ import annotations

import contextlib
import os
import stat
import uuid
from collections.abc import Callable
from pathlib import Path


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
