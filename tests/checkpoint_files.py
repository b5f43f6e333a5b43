"""Reading and rewriting solver checkpoint files in tests: the header, the body, and a
signature made with this user's key (or not)."""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json

import pytest

from taolong_lab.solvers.common import checkpoint_key


@pytest.fixture(autouse=True)
def own_key(tmp_path, monkeypatch):
    """Each test signs with a key of its own, never the user's."""
    path = tmp_path / "keys" / "checkpoint.key"
    monkeypatch.setenv("TAOLONG_LAB_KEY", str(path))
    return path


def read(path) -> tuple[dict, dict]:
    """The header and the body of a checkpoint file."""
    head, _, body = gzip.decompress(path.read_bytes()).partition(b"\n")
    return json.loads(head), json.loads(body)


def write(path, header: dict, body, *, sign: bool = True, raw: bytes | None = None) -> None:
    """Write a checkpoint: ``body`` as JSON (or the bytes ``raw``), signed with this user's key
    when ``sign``, else keeping the header's signature."""
    text = raw if raw is not None else json.dumps(body, separators=(",", ":")).encode()
    header = dict(header)
    if sign:
        header.pop("signature", None)
        signed = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
        mac = hmac.new(checkpoint_key(), signed + b"\n" + text, hashlib.sha256)
        header["signature"] = mac.hexdigest()
    path.write_bytes(gzip.compress(json.dumps(header).encode() + b"\n" + text))
