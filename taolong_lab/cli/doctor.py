"""``taolong doctor``: what this install of the lab runs on, a line each: the version, Python,
the solo search (the compiled kernel or the pure-Python path, and what the kernel covers),
the DRAT proof checker (the compiled one or dratify), the bundled puzzles and the optional parts
(JupyterLab, the Dask runner)."""

from __future__ import annotations

import importlib.util
import platform

from ..puzzles import bundle
from ..solvers import kernel
from ..solvers.sat import drat
from ..version import __version__
from .common import EXIT_OK, PROG, Command

OPTIONAL = (
    ("jupyterlab", "JupyterLab and the Explorer (pip install '.[lab]')"),
    ("distributed", "generate --scheduler on a Dask cluster (pip install '.[dask]')"),
)


def lines() -> list[str]:
    """The report, a line each.

    Returns
    -------
    list of str
    """
    found = [
        f"{PROG} {__version__}",
        f"python: {platform.python_implementation()} {platform.python_version()}",
        f"solo search: {kernel.status()}",
        f"DRAT proof checker: {drat.status()}",
        f"bundled puzzles: {_bundled()}",
    ]
    for module, what in OPTIONAL:
        there = importlib.util.find_spec(module) is not None
        found.append(f"{module}: {'installed' if there else 'not installed'}: {what}")
    return found


def _bundled() -> str:
    found = bundle.sets()
    if not found:
        return "missing from this install"
    return f"{len(found)} sets in {bundle.folder()} (taolong puzzles lists them)"


def run(args, out) -> int:
    """``taolong doctor``: print the report."""
    for line in lines():
        print(line, file=out)
    return EXIT_OK


COMMAND = Command("doctor", "what this install runs on, a line each", run)
