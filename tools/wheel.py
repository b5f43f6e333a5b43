"""Build the lab's wheel from a clean copy of the checkout's sources.

    python tools/wheel.py OUT_DIR            the wheel with the compiled kernel, where it builds
    python tools/wheel.py OUT_DIR --pure     the pure-Python wheel (TAOLONG_BUILD_PURE=1), the
                                             one the browser page runs

The sources (``setup.py``, ``pyproject.toml``, the package, ``data/``, the bundled puzzles
and ``native/``) are copied to a scratch folder first, so a stale ``build/`` in the checkout
never leaks into the wheel and the SAT proofs are never read. Prints the wheel's path.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "taolong_lab", "data")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "proofs", "*.egg-info")


def copy_sources(target: Path) -> None:
    """Copy what the wheel is built from into ``target``.

    Parameters
    ----------
    target : Path
        An empty folder.
    """
    for name in (*SOURCES, "native", "puzzles"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=SKIP)
        elif source.is_file():
            shutil.copy2(source, target / name)


def build_wheel(out: Path, *, pure: bool = True, python: str = sys.executable) -> Path:
    """Build the wheel into ``out``.

    Parameters
    ----------
    out : Path
        The folder the wheel goes to (made if missing).
    pure : bool
        Leave the compiled kernel out.
    python : str
        The interpreter whose pip builds it.

    Returns
    -------
    Path
        The wheel.

    Raises
    ------
    RuntimeError
        pip failed; its last lines are in the message.
    """
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TAOLONG_BUILD_PURE="1" if pure else "0")
    with tempfile.TemporaryDirectory(prefix="taolong-wheel-") as scratch:
        copy_sources(Path(scratch))
        done = subprocess.run(
            [python, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), scratch],
            env=env,
            capture_output=True,
            text=True,
        )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
        raise RuntimeError(f"pip wheel failed:\n{tail}")
    tag = "py3-none-any" if pure else ""
    wheels = sorted(out.glob(f"taolong_lab-*{tag}*.whl"), key=lambda p: p.stat().st_mtime)
    return wheels[-1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/wheel.py", description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--pure", action="store_true", help="without the compiled kernel")
    args = parser.parse_args(argv)
    print(build_wheel(args.out, pure=args.pure))
    return 0


if __name__ == "__main__":
    sys.exit(main())
