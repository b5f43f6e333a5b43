"""A wheel with its modules' bytecode beside them, for the web page (``make site``).

Pyodide compiles every module from its source on the page's first import, and keeps nothing
between visits. :func:`with_bytecode` adds, for each ``.py`` of a wheel, the
``__pycache__/<name>.<tag>.pyc`` that the interpreter running it would write, as an
*unchecked-hash* pyc (PEP 552): it is used without comparing it with the source, whose text
stays for tracebacks. The RECORD is written again to list every file with its hash.

``tools/site_bytecode.mjs`` runs this module inside the site's own Pyodide, so the bytecode is
that interpreter's; under CPython the same function gives CPython's (the tests use that).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import py_compile
import tempfile
import zipfile
from pathlib import Path


def _record_row(name: str, body: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(body)}"


def _pyc(name: str, body: bytes, scratch: Path) -> tuple[str, bytes]:
    """The cache path (inside the wheel) and the unchecked-hash bytecode of module ``name``."""
    source = scratch / "module.py"
    source.write_bytes(body)
    target = scratch / "module.pyc"
    py_compile.compile(
        str(source),
        cfile=str(target),
        dfile=name,
        doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    return importlib.util.cache_from_source(name), target.read_bytes()


def with_bytecode(data: bytes) -> bytes:
    """The wheel ``data`` with the bytecode of each of its modules added.

    Parameters
    ----------
    data : bytes
        A wheel (a zip file with a ``*.dist-info/RECORD``).

    Returns
    -------
    bytes
        The new wheel: every entry of ``data``, each module's pyc, and a RECORD that lists them.

    Raises
    ------
    ValueError
        ``data`` holds no RECORD, or a module that does not compile.
    """
    wheel = zipfile.ZipFile(io.BytesIO(data))
    record = [n for n in wheel.namelist() if n.endswith(".dist-info/RECORD")]
    if len(record) != 1:
        raise ValueError("not a wheel: no single *.dist-info/RECORD")
    rows, out = [], io.BytesIO()
    with tempfile.TemporaryDirectory() as scratch, zipfile.ZipFile(out, "w") as new:
        for info in wheel.infolist():
            if info.filename == record[0] or "/__pycache__/" in info.filename:
                continue
            body = wheel.read(info)
            new.writestr(info, body, compress_type=zipfile.ZIP_DEFLATED)
            rows.append(_record_row(info.filename, body))
            if info.filename.endswith(".py"):
                try:
                    name, pyc = _pyc(info.filename, body, Path(scratch))
                except py_compile.PyCompileError as exc:
                    raise ValueError(f"{info.filename} does not compile: {exc.msg}") from None
                new.writestr(name, pyc, compress_type=zipfile.ZIP_DEFLATED)
                rows.append(_record_row(name, pyc))
        rows.append(f"{record[0]},,")
        new.writestr(record[0], "\n".join(rows) + "\n", compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()
