"""What the commands of ``taolong`` share: the program's name and exit statuses, the parser that
reports a bad command line like any other bad input, bounded number options, the puzzles named
by ``FILE[:ID]``, and the texts of a puzzle's goal and of a position's legal turns."""

from __future__ import annotations

import argparse
import math
import os
import re
from pathlib import Path

from ..engine import State
from ..errors import TaoLongError
from ..files import InputFileError, check_readable
from ..puzzles import Puzzle, load_puzzles
from ..rules.data import shown

PROG = "taolong"
EXIT_OK, EXIT_UNKNOWN, EXIT_ERROR = 0, 1, 2  # 1: a budget left a puzzle unknown
MAX_COUNT = 10**12  # --max-states, --conflicts: far past what memory or time allows
MAX_SECONDS = 10**7  # --time-limit: about 115 days


class CommandError(TaoLongError):
    """Bad input to a command that no other error names: an unknown puzzle id, an option
    that does not apply, a file that cannot be written, ..."""


class UsageError(CommandError):
    """A command line the parser rejects."""


class Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` instead of printing its usage and
    exiting: ``main`` reports it on one line like every other bad input."""

    def error(self, message: str):
        raise UsageError(f"{message} (see '{self.prog} --help')")


def number(kind, low, high):
    """An argparse type: a ``kind`` (int or float) from ``low`` to ``high``.

    Refuses nan, inf and non-ASCII digits; a whole number longer than ``high`` is out of range
    unconverted.

    Parameters
    ----------
    kind : type
        ``int`` or ``float``.
    low, high : int
        The range, both ends included.

    Returns
    -------
    callable
        ``text -> number``, raising ``argparse.ArgumentTypeError`` (which the parser turns
        into a :class:`UsageError` naming the option).
    """

    def parse(text):
        value = _whole(text) if kind is int else _finite(text)
        if value is None:
            raise argparse.ArgumentTypeError(
                f"{shown(text, 24)} is not a {'whole ' * (kind is int)}number"
            )
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be from {low:,} to {high:,}, got {shown(text, 24)}"
            )
        return value

    return parse


def _whole(text: str) -> int | float | None:
    """The whole number ``text`` writes in ASCII digits (an infinity when it has more than
    20 of them), else None."""
    match = re.fullmatch(r"\s*([+-]?)0*([0-9]+)\s*", text)
    if match is None:
        return None
    sign = -1 if match[1] == "-" else 1
    return sign * (int(match[2]) if len(match[2]) <= 20 else math.inf)


def _finite(text: str) -> float | None:
    """The finite number ``text`` writes in ASCII, or an infinity; None for anything else
    (nan too)."""
    try:
        value = float(text) if text.isascii() else math.nan
    except ValueError:
        return None
    return None if math.isnan(value) else value


def puzzle_spec(spec: str) -> tuple[Path, str | None]:
    """The file and the id of ``FILE[:ID]``.

    A file whose name holds a ':' is taken whole. The file is checked before anything reads it
    (:func:`~taolong_lab.files.check_readable`).

    Parameters
    ----------
    spec : str
        ``FILE`` or ``FILE:ID``.

    Returns
    -------
    tuple
        The path and the id (None: every puzzle).

    Raises
    ------
    InputFileError
        A missing file, a directory, a device or a file over the size limit.
    """
    file, ident = spec, None
    if not os.path.exists(spec) and ":" in spec:
        file, _, ident = spec.rpartition(":")
    check_readable(file)
    return Path(file), ident


def puzzles_of(spec: str, *, check_solutions: bool = True) -> list[Puzzle]:
    """The puzzles named by ``FILE[:ID]``: all of the file's, or the one with that id.

    Parameters
    ----------
    spec : str
        ``FILE`` or ``FILE:ID``.
    check_solutions : bool
        Replay the stored solutions while reading.

    Returns
    -------
    list of Puzzle
        At least one.

    Raises
    ------
    InputFileError
        The file cannot be read (:func:`puzzle_spec`).
    PuzzleError
        The file does not hold puzzles.
    CommandError
        No puzzle with that id, or none at all.
    """
    path, ident = puzzle_spec(spec)
    try:
        puzzles = load_puzzles(path, check_solutions=check_solutions)
    except OSError as exc:
        raise InputFileError(path, exc.strerror or str(exc)) from None
    if ident is not None:
        puzzles = [p for p in puzzles if p.id == ident]
        if not puzzles:
            raise CommandError(f"{path}: no puzzle with id {ident!r}")
    if not puzzles:
        raise CommandError(f"{path}: no puzzles in the file")
    return puzzles


def puzzle_header(puzzle: Puzzle) -> str:
    """The puzzle's id, title and goal, on two lines.

    Parameters
    ----------
    puzzle : Puzzle

    Returns
    -------
    str
    """
    other = "black" if puzzle.player == "white" else "white"
    goal = f"You play {puzzle.player}; win by taking the {other} dragon's last segment"
    if puzzle.optimum is not None:
        goal += f" (best known: {puzzle.optimum} turns)"
    return f"puzzle {puzzle.id}: {puzzle.title}\n{goal}."


def numbered_turns(state: State) -> list[str]:
    """The legal turns of ``state``, one line each: the number, the notation and the turn in
    words (:meth:`~taolong_lab.engine.State.describe_turn`).

    Parameters
    ----------
    state : State

    Returns
    -------
    list of str
        Empty when there is no legal turn.
    """
    turns = state.legal_turns()
    texts = [str(turn) for turn in turns]
    number_width, turn_width = len(str(len(turns))), max(map(len, texts), default=0)
    return [
        f"{number:>{number_width}}. {text:<{turn_width}}  {state.describe_turn(turn)}".rstrip()
        for number, (turn, text) in enumerate(zip(turns, texts, strict=True), start=1)
    ]


__all__ = [
    "EXIT_ERROR",
    "EXIT_OK",
    "EXIT_UNKNOWN",
    "MAX_COUNT",
    "MAX_SECONDS",
    "PROG",
    "CommandError",
    "Parser",
    "UsageError",
    "number",
    "numbered_turns",
    "puzzle_header",
    "puzzle_spec",
    "puzzles_of",
]
