"""``taolong_lab.files``: a user's file is read only when it is a regular file within the size
limit (``read_bounded``, ``check_readable``); anything else raises ``InputFileError`` naming
the file, before a byte is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from taolong_lab.errors import TaoLongError
from taolong_lab.files import (
    MAX_INPUT_BYTES,
    InputFileError,
    check_readable,
    read_bounded,
)


def test_a_regular_file_within_the_limit_is_read(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"x" * 10)
    assert read_bounded(path) == b"x" * 10
    assert read_bounded(path, limit=10) == b"x" * 10
    check_readable(path, limit=10)


def test_a_file_over_the_limit_is_refused_unread(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"x" * 11)
    for call in (read_bounded, check_readable):
        with pytest.raises(InputFileError, match=r"in\.jsonl: 11 bytes, over the 10-byte limit"):
            call(path, limit=10)
    big = tmp_path / "big.jsonl"
    with big.open("wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1)  # sparse
    with pytest.raises(InputFileError, match="over the 67,108,864-byte limit"):
        read_bounded(big)


@pytest.mark.parametrize("call", [read_bounded, check_readable])
def test_what_is_not_a_regular_file_is_refused(tmp_path, call):
    with pytest.raises(InputFileError, match="a directory, not a regular file"):
        call(tmp_path)
    if hasattr(os, "mkfifo"):  # opening a pipe for reading would wait for a writer
        os.mkfifo(tmp_path / "pipe")
        with pytest.raises(InputFileError, match="a pipe, not a regular file"):
            call(tmp_path / "pipe")
    if Path("/dev/zero").exists():
        with pytest.raises(InputFileError, match="/dev/zero: a character device"):
            call("/dev/zero")


def test_a_missing_or_impossible_name_is_an_input_file_error(tmp_path):
    with pytest.raises(InputFileError, match="absent: No such file or directory") as caught:
        read_bounded(tmp_path / "absent")
    assert isinstance(caught.value, TaoLongError)
    assert caught.value.path == str(tmp_path / "absent")
    with pytest.raises(InputFileError, match="null byte"):
        check_readable("a\0b")
    with pytest.raises(InputFileError, match=r"'a\\nb'"):  # one line, whatever the name
        check_readable("a\nb")
