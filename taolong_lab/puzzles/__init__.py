"""Solo challenges: the puzzle file format (``format``), its certificate verifier (``verify``),
the rulebook's own set (``rulebook``) and the generator (``sources`` of candidates, their
``analysis``, their ``grade``, the run in ``generate``, over :mod:`taolong_lab.runner`; the
bundled sets in ``bundle``).

``load_puzzles("puzzles/rulebook-solo.jsonl")`` reads a puzzle file; docs/puzzles.md describes
the format.
"""

from ..errors import PuzzleError
from .format import (
    FORMAT,
    MIGRATIONS,
    VERSION,
    Problem,
    Puzzle,
    load_puzzles,
    read_puzzles,
    save_puzzles,
)

__all__ = [
    "FORMAT",
    "MIGRATIONS",
    "VERSION",
    "Problem",
    "Puzzle",
    "PuzzleError",
    "load_puzzles",
    "read_puzzles",
    "save_puzzles",
]
