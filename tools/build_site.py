"""Build the lab's static web page (``make site``): a folder any static host serves.

    python tools/build_site.py [OUT]      build into OUT (default: build/site)

What goes in:

- ``pyodide/``: the Pyodide core, from the npm package pinned in ``site/package-lock.json``
  (``npm ci`` in ``site/`` installs it);
- ``wheels/``: the lab's pure-Python wheel (``TAOLONG_BUILD_PURE=1``; the bundled puzzle sets
  and the atlas ship inside it) and the few wheels the page needs besides (:data:`WHEELS`),
  listed in ``wheels.json``, each with its modules' bytecode compiled by that Pyodide
  (``tools/site_bytecode.py``: the page's imports then compile nothing);
- ``index.html``, ``app.js``, ``worker.js`` and ``style.css`` from ``site/src/``.

Nothing of it is committed: only its sources are. ``python -m http.server -b 127.0.0.1 -d
build/site`` serves it (``make site-serve``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from wheel import build_wheel  # noqa: E402  (tools/wheel.py)

SITE = ROOT / "site"
OUT = ROOT / "build" / "site"
# the Pyodide core files the page loads (the rest of the npm package is for Node and docs)
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
# what the lab imports in the page besides the standard library: the puzzle schema's checker
# (the rest of its dependencies are for the notebooks, SAT, plots and progress bars)
WHEELS = ("fastjsonschema",)


class SiteError(RuntimeError):
    """A step of the build failed; the message says which and why."""


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-12:])
        raise SiteError(f"{' '.join(command)} failed in {cwd}:\n{tail}")


def pyodide_folder() -> Path:
    """The pinned Pyodide package, installed by ``npm ci`` when missing or out of date.

    Returns
    -------
    Path
        ``site/node_modules/pyodide``.
    """
    package = SITE / "node_modules" / "pyodide"
    lock = json.loads((SITE / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/pyodide"]["version"]
    installed = package / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != pinned:
        if shutil.which("npm") is None:
            raise SiteError("npm is missing: it installs the pinned Pyodide (apt-get install npm)")
        _run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], SITE)
    return package


def extra_wheels(out: Path) -> list[Path]:
    """The wheels of :data:`WHEELS`, at the versions installed here, into ``out``.

    Parameters
    ----------
    out : Path

    Returns
    -------
    list of Path
    """
    found = []
    for name in WHEELS:
        version = importlib.metadata.version(name)
        before = set(out.glob("*.whl"))
        pip = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "--only-binary=:all:"]
        _run([*pip, "-d", str(out), f"{name}=={version}"], ROOT)
        new = set(out.glob("*.whl")) - before
        found += sorted(new) or sorted(out.glob(f"{name}-{version}-*.whl"))
    return found


def add_bytecode(out: Path) -> None:
    """Each wheel of ``out/wheels.json`` with its modules' bytecode, compiled by the site's own
    Pyodide under Node (``tools/site_bytecode.mjs``): the page then imports without compiling.

    Raises
    ------
    SiteError
        Node is missing, or the compilation failed.
    """
    node = shutil.which("node")
    if node is None:
        raise SiteError(
            "node is missing: it compiles the wheels' bytecode (apt-get install nodejs)"
        )
    _run([node, str(ROOT / "tools" / "site_bytecode.mjs"), str(out)], ROOT)


def build(out: Path = OUT) -> Path:
    """Build the site into ``out`` (emptied first).

    Parameters
    ----------
    out : Path

    Returns
    -------
    Path
        ``out``.

    Raises
    ------
    SiteError
        npm or pip failed, or npm is missing.
    """
    out = Path(out).resolve()
    package = pyodide_folder()
    if out.exists():
        shutil.rmtree(out)
    (out / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(package / name, out / "pyodide" / name)
    wheels = out / "wheels"
    lab = build_wheel(wheels, pure=True)
    others = extra_wheels(wheels)
    names = [lab.name, *(w.name for w in others)]
    (out / "wheels.json").write_text(json.dumps({"wheels": names}, indent=1) + "\n")
    add_bytecode(out)
    for source in sorted((SITE / "src").iterdir()):
        shutil.copy2(source, out / source.name)
    return out


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on a free port of 127.0.0.1 for the block (the tests and the bench).

    Parameters
    ----------
    folder : Path

    Yields
    ------
    str
        The address, ``http://127.0.0.1:PORT/``.
    """
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "-b", "127.0.0.1", "-d", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):  # up to 10 s for the server to listen
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=10)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/build_site.py", description=__doc__)
    parser.add_argument("out", nargs="?", type=Path, default=OUT)
    args = parser.parse_args(argv)
    try:
        out = build(args.out)
    except SiteError as exc:
        print(f"site: {exc}", file=sys.stderr)
        return 2
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"built {out} ({size / 1e6:.1f} MB); serve it with: make site-serve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
