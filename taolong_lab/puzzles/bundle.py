"""The puzzle files that ship with the lab: the rulebook's challenges, the bundled sets and
the solo atlas, and a bundled puzzle named without a path.

In a git checkout they are the repository's ``puzzles/``; an installed lab reads the copy in
the package (``taolong_lab/_puzzles``, through :mod:`importlib.resources`). Each file is a
*set* with a name: ``rulebook`` (``rulebook-solo.jsonl``), ``{scenario}-{tier}`` (the
generated sets) and ``atlas-{scenario}`` (``atlas/{scenario}.jsonl``). A bundled puzzle is
``SET:ID``, or its id alone where no other set has it (:func:`locate`).

How the generated sets are made, and ``puzzles/README.md``, is maintainer tooling:
``tools/bundle.py``.

>>> path, ident = locate("rulebook:torus-white")
>>> path.name, ident
('rulebook-solo.jsonl', 'torus-white')
>>> locate("torus-white") == (path, ident)
True
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
from pathlib import Path

from ..errors import TaoLongError
from ..files import read_bounded

RULEBOOK = "rulebook"  # the set of rulebook-solo.jsonl
ATLAS = "atlas"  # the atlas's sets are atlas-{scenario}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,80}")  # a set's name or a puzzle's id


class BundleError(TaoLongError):
    """No bundled set of that name."""


def folder() -> Path:
    """The folder of the bundled puzzle files.

    Returns
    -------
    Path
        The repository's ``puzzles/`` in a git checkout, else the package's ``_puzzles``
        (missing from an install without its puzzles: :func:`sets` is then empty, and a read
        of a file names it).
    """
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "puzzles").is_dir():
        return checkout / "puzzles"
    return Path(str(importlib.resources.files("taolong_lab").joinpath("_puzzles")))


def rulebook_file() -> Path:
    """The rulebook's challenges, ``rulebook-solo.jsonl``.

    Returns
    -------
    Path
    """
    return folder() / "rulebook-solo.jsonl"


def atlas_folder() -> Path:
    """The solo atlas, one file per scenario.

    Returns
    -------
    Path
    """
    return folder() / ATLAS


def set_name(path: Path) -> str:
    """The set name of a bundled file.

    Parameters
    ----------
    path : Path

    Returns
    -------
    str

    >>> set_name(Path("puzzles/rulebook-solo.jsonl")), set_name(Path("puzzles/atlas/mist.jsonl"))
    ('rulebook', 'atlas-mist')
    """
    if path.name == "rulebook-solo.jsonl":
        return RULEBOOK
    if path.parent.name == ATLAS:
        return f"{ATLAS}-{path.stem}"
    return path.stem


def sets() -> dict[str, Path]:
    """Every bundled set: the rulebook's first, then the generated sets, then the atlas.

    Returns
    -------
    dict
        ``{name: path}``; empty when the files are missing.
    """
    root = folder()
    files = [root / "rulebook-solo.jsonl"]
    files += sorted(p for p in root.glob("*.jsonl") if p.name != "rulebook-solo.jsonl")
    files += sorted((root / ATLAS).glob("*.jsonl"))
    return {set_name(p): p for p in files if p.is_file()}


@functools.cache
def _entries(path: Path) -> tuple[tuple[str, str, int | None], ...]:
    """The id, title and optimum of each puzzle of a bundled file, read without checking the
    puzzles (a line that does not read is left out)."""
    found = []
    for line in read_bounded(path).decode("utf-8").splitlines():
        if line.strip()[:1] != "{":
            continue
        try:
            doc = json.loads(line)
        except (ValueError, RecursionError):
            continue
        ident, title, optimum = doc.get("id"), doc.get("title"), doc.get("optimum")
        if isinstance(ident, str):
            optimum = optimum if type(optimum) is int else None
            found.append((ident, title if isinstance(title, str) else "", optimum))
    return tuple(found)


def _ids(path: Path) -> tuple[str, ...]:
    return tuple(ident for ident, _title, _optimum in _entries(path))


def entries(name: str) -> list[dict]:
    """The puzzles of one bundled set as a listing: id, title and optimum (None when not
    proved), in file order, read without checking the puzzles.

    Parameters
    ----------
    name : str
        A set of :func:`sets`.

    Returns
    -------
    list of dict

    Raises
    ------
    BundleError
        No such set.

    >>> entries("rulebook")[0]["id"], entries("rulebook")[0]["optimum"]
    ('cave-white', 7)
    """
    ids(name)  # the set exists
    return [
        {"id": ident, "title": title, "optimum": optimum}
        for ident, title, optimum in _entries(sets()[name])
    ]


def ids(name: str) -> tuple[str, ...]:
    """The puzzle ids of one bundled set, in file order.

    Parameters
    ----------
    name : str
        A set of :func:`sets`.

    Returns
    -------
    tuple of str

    Raises
    ------
    BundleError
        No such set.
    """
    path = sets().get(name)
    if path is None:
        raise BundleError(f"no bundled set {name!r}; the sets: {', '.join(sets())}")
    return _ids(path)


def locate(spec: str) -> tuple[Path, str | None] | None:
    """The file and the id a bundled name means: ``SET:ID``, ``SET`` (the whole set), or an
    ``ID`` that one set alone holds.

    Parameters
    ----------
    spec : str

    Returns
    -------
    tuple or None
        ``(path, id)`` (id None for a whole set), or None when it names nothing bundled.
    """
    name, colon, ident = str(spec).partition(":")
    if not _NAME.fullmatch(name) or (colon and not _NAME.fullmatch(ident)):
        return None
    found = sets()
    if name in found:
        return found[name], (ident if colon else None)
    if colon:
        return None
    holders = [path for path in found.values() if name in _ids(path)]
    return (holders[0], name) if len(holders) == 1 else None


__all__ = [
    "ATLAS",
    "RULEBOOK",
    "BundleError",
    "atlas_folder",
    "entries",
    "folder",
    "ids",
    "locate",
    "rulebook_file",
    "set_name",
    "sets",
]
