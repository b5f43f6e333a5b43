"""Atomic writes (``taolong_lab.files``): what every long job's results go through."""

from __future__ import annotations

import os
import stat

import pytest

from taolong_lab.files import write_atomic


def test_write_atomic_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "f.bin"
    write_atomic(path, b"one")
    write_atomic(path, b"two")
    assert path.read_bytes() == b"two" and [p.name for p in tmp_path.iterdir()] == ["f.bin"]


def test_a_failed_atomic_write_leaves_the_old_file(tmp_path):
    """A writer that fails part-way (the state graph's exports pass one) leaves the old
    file whole, its permissions kept, and no temporary file."""
    path = tmp_path / "g.graphml"
    write_atomic(path, b"old")
    os.chmod(path, 0o640)

    def half_then_fail(tmp):
        tmp.write_bytes(b"ne")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomic(path, half_then_fail)
    assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["g.graphml"]
    write_atomic(path, lambda tmp: tmp.write_bytes(b"new"))
    assert path.read_bytes() == b"new" and stat.S_IMODE(os.stat(path).st_mode) == 0o640
