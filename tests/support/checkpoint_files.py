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
    """The header and the body of a checkpoint file (a JSON line, then the body gzipped)."""
    head, _, packed = path.read_bytes().partition(b"\n")
    return json.loads(head), json.loads(gzip.decompress(packed))


def write(
    path,
    header: dict,
    body,
    *,
    sign: bool = True,
    raw: bytes | None = None,
    packed: bytes | None = None,
    size: int | None = None,
) -> None:
    """Write a checkpoint: ``body`` as JSON (or the bytes ``raw``, or the gzip bytes
    ``packed``), its header declaring its unpacked ``size`` (by default the real one), signed
    over the compressed bytes with this user's key when ``sign``, else keeping the header's
    signature."""
    text = raw if raw is not None else json.dumps(body, separators=(",", ":")).encode()
    if packed is None:
        packed = gzip.compress(text)
    header = dict(header, size=len(text) if size is None else size)
    if sign:
        header.pop("signature", None)
        signed = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
        mac = hmac.new(checkpoint_key(), signed + b"\n" + packed, hashlib.sha256)
        header["signature"] = mac.hexdigest()
    path.write_bytes(json.dumps(header).encode() + b"\n" + packed)
