"""What the commands of ``taolong`` share: the program's name and exit statuses, the parser that
reports a bad command line like any other bad input, bounded number options, the puzzles named
by ``FILE[:ID]``, and the texts of a puzzle's goal and of a position's legal turns."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..engine import State
from ..errors import NAMED, Arg, TaoLongError, python_spelling
from ..files import InputFileError, check_readable, write_atomic
from ..limits import MAX_SEED
from ..puzzles import Puzzle, PuzzleError, bundle, read_puzzles
from ..puzzles.grade import TIERS
from ..rules.data import shown
from ..rules.options import parse_option_value

TIER_NAMES = tuple(name for _, name in TIERS)

PROG = "taolong"
EXIT_OK, EXIT_UNKNOWN, EXIT_ERROR = 0, 1, 2  # 1: a budget left a puzzle unknown
MAX_COUNT = 10**12  # --max-states, --conflicts: far past what memory or time allows
MAX_SECONDS = 10**7  # --time-limit: about 115 days
MAX_IDS_SHOWN = 20  # an unknown id lists at most this many of the file's ids
MAX_ENTRY = 1000  # an interactive entry longer than this is refused unread past it


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


class Command(NamedTuple):
    """A command of ``taolong``, as :func:`~.parser.build_parser` adds it.

    ``run(args, out)`` runs the command on the parsed command line ``args``
    (an ``argparse.Namespace``), prints its results to the text file ``out`` and returns the
    exit status: :data:`EXIT_OK` unless its docstring names others. Bad input raises a
    :class:`~taolong_lab.errors.TaoLongError` (most often a :class:`CommandError`), which
    :func:`~.parser.main` reports on one line.

    >>> Command("doctor", "what this install runs on", run=lambda args, out: EXIT_OK).name
    'doctor'
    """

    name: str
    help: str  # the line of ``taolong --help``
    run: Callable
    arguments: Callable | None = None  # ``arguments(parser)`` adds the command's arguments
    description: str | None = None  # the text of ``taolong NAME --help``, if more than ``help``


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
    """The file and the id of ``FILE[:ID]``, or of a bundled puzzle named without a path
    (``SET:ID``, ``SET``, or an id that one bundled set alone holds:
    :func:`~taolong_lab.puzzles.bundle.locate`) when no such file exists.

    A file whose name holds a ':' is taken whole. The file is checked before anything reads it
    (:func:`~taolong_lab.files.check_readable`).

    Parameters
    ----------
    spec : str
        ``FILE``, ``FILE:ID``, ``SET:ID``, ``SET`` or ``ID``.

    Returns
    -------
    tuple
        The path and the id (None: every puzzle).

    Raises
    ------
    InputFileError
        A missing file that names no bundled puzzle either, a directory, a device or a file
        over the size limit.
    """
    file, ident = split_puzzle_spec(spec)
    if not os.path.exists(file):
        found = bundle.locate(spec)
        if found is not None:
            file, ident = found
    check_readable(file)
    return Path(file), ident


def split_puzzle_spec(spec: str) -> tuple[str, str | None]:
    """The file and the id of ``FILE[:ID]``, unchecked (a file whose name holds a ':' and
    exists is taken whole).

    Parameters
    ----------
    spec : str

    Returns
    -------
    tuple
        The file name and the id (None: no id).

    >>> split_puzzle_spec("no-such-file.jsonl:p1")
    ('no-such-file.jsonl', 'p1')
    """
    if not os.path.exists(spec) and ":" in spec:
        file, _, ident = spec.rpartition(":")
        return file, ident
    return spec, None


def names_a_puzzle_file(word: str) -> bool:
    """Whether ``word`` reads as ``FILE[:ID]`` rather than a turn: its file has a ``.jsonl`` or
    ``.json`` name, or exists, or it names a bundled puzzle (``SET:ID``, ``SET`` or ``ID``).

    Parameters
    ----------
    word : str

    Returns
    -------
    bool

    >>> names_a_puzzle_file("puzzles/field-novice.jsonl:field-novice-01")
    True
    >>> names_a_puzzle_file("rulebook:torus-white"), names_a_puzzle_file("torus-white")
    (True, True)
    >>> names_a_puzzle_file("Wa>He a3,a4")
    False
    """
    file = split_puzzle_spec(word)[0]
    if file.lower().endswith((".jsonl", ".json")) or os.path.exists(file):
        return True
    return bundle.locate(word) is not None


def add_puzzle_argument(parser, what: str) -> None:
    """Add the puzzle argument ``FILE[:ID]`` and its alias ``--puzzle FILE[:ID]``
    (read back by :func:`named_puzzle`).

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
    what : str
        The help text of ``FILE[:ID]``.
    """
    parser.add_argument("puzzle", nargs="?", metavar="FILE[:ID]", help=what)
    parser.add_argument(
        "--puzzle",
        dest="puzzle_alias",
        metavar="FILE[:ID]",
        help="the same as the FILE[:ID] argument",
    )


def named_puzzle(args, *, required: bool = False) -> str | None:
    """The ``FILE[:ID]`` of the command line (the argument or ``--puzzle``), or None.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed with :func:`add_puzzle_argument`.
    required : bool
        The command needs a puzzle.

    Returns
    -------
    str or None

    Raises
    ------
    UsageError
        Both the argument and ``--puzzle``, or neither when ``required``.
    """
    given = [spec for spec in (args.puzzle, args.puzzle_alias) if spec is not None]
    if len(given) > 1:
        raise UsageError("FILE[:ID] and --puzzle both name a puzzle; give one")
    if not given and required:
        raise UsageError(f"the following arguments are required: FILE[:ID] (see '{PROG} --help')")
    return given[0] if given else None


def puzzles_of(spec: str, *, check_solutions: bool = True, strict: bool = True) -> list[Puzzle]:
    """The puzzles named by ``FILE[:ID]``: all of the file's, or the one with that id.

    Parameters
    ----------
    spec : str
        ``FILE`` or ``FILE:ID``.
    check_solutions : bool
        Replay the stored solutions while reading.
    strict : bool
        A problem anywhere in the file is an error; else each is printed as a warning
        (``taolong: warning: FILE:LINE: field: reason`` on stderr) and the good puzzles are
        kept: one bad line never hides the rest.

    Returns
    -------
    list of Puzzle
        At least one.

    Raises
    ------
    InputFileError
        The file cannot be read (:func:`puzzle_spec`).
    PuzzleError
        The file does not hold puzzles, or (``strict``) a problem in the file.
    CommandError
        No puzzle with that id (the message lists the file's ids), or none at all.
    """
    path, ident = puzzle_spec(spec)
    try:
        puzzles, problems = read_puzzles(path, check_solutions=check_solutions)
    except OSError as exc:
        raise InputFileError(path, exc.strerror or str(exc)) from None
    if problems and strict:
        raise PuzzleError(str(path), problems)
    for line, field, reason in problems:
        where = f"{path}:{line}" if line else path
        print(f"{PROG}: warning: {where}: {field}: {reason}", file=sys.stderr)
    count = len(problems)
    skipped = f" ({count} problem{'s' * (count != 1)} above)" if problems else ""
    if not puzzles:
        raise CommandError(f"{path}: no puzzles in the file{skipped}")
    if ident is None:
        return puzzles
    chosen = [p for p in puzzles if p.id == ident]
    if not chosen:
        ids = [p.id for p in puzzles]
        listed = ", ".join(ids[:MAX_IDS_SHOWN])
        if len(ids) > MAX_IDS_SHOWN:
            listed += f", ... ({len(ids)} in all)"
        raise CommandError(f"{path}: no puzzle {shown(ident, 60)}{skipped}; its ids: {listed}")
    return chosen


# the library's keyword arguments that messages name, and the options that set them
OPTION_OF = {
    "method": "--method",
    "time_limit": "--time-limit",
    "max_states": "--max-states",
    "conflict_budget": "--conflicts",
    "fresh": "--fresh",
    "checkpoint": "--checkpoint",
    "workers": "--workers",
    "scheduler": "--scheduler",
    "security": "--tls-ca-file, --tls-cert and --tls-key",
    "progress": "--progress",
    "depth": "--depth",
}


def cli_word(arg: Arg) -> str:
    """An argument a library message names (:class:`~taolong_lab.errors.Arg`) as the command
    line spells it: the option that sets it, with its value unless the option is a switch.

    Parameters
    ----------
    arg : Arg
        A keyword of the library; one no option sets is spelled as Python spells it.

    Returns
    -------
    str
        The option, then its value unless the option is a switch.

    >>> cli_word(Arg("max_states", 3)), cli_word(Arg("checkpoint")), cli_word(Arg("fresh", True))
    ('--max-states 3', '--checkpoint', '--fresh')
    >>> cli_word(Arg("ahead", 2)), cli_word(Arg("time_limit", 2.0))
    ('ahead=2', '--time-limit 2')
    """
    option = OPTION_OF.get(arg.name)
    if option is None:
        return python_spelling(arg)
    if arg.value is NAMED or arg.value is True:
        return option
    if isinstance(arg.value, float):
        return f"{option} {arg.value:g}"
    short = isinstance(arg.value, str) and len(arg.value) <= 200
    return f"{option} {arg.value if short else shown(arg.value, 60)}"


def worded(exc: TaoLongError) -> str:
    """A library error's message as the command line says it: the arguments it names spelled
    by :func:`cli_word`.

    Parameters
    ----------
    exc : TaoLongError

    Returns
    -------
    str
    """
    return exc.worded(cli_word)


def add_progress_option(parser) -> None:
    """Add ``--progress/--no-progress`` (read back by :func:`wants_progress`): the one progress
    convention of the long commands.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
    """
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr, or not (default: when stderr is a terminal)",
    )


def wants_progress(args) -> bool:
    """Whether to show progress: ``--progress``/``--no-progress`` if given, else whether
    stderr is a terminal.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed with :func:`add_progress_option`.

    Returns
    -------
    bool
    """
    return sys.stderr.isatty() if args.progress is None else args.progress


def add_tier_argument(parser, what: str) -> None:
    """Add ``--tier T``, one of the tiers of :data:`~taolong_lab.puzzles.grade.TIERS`.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
    what : str
        Its help text.
    """
    parser.add_argument(
        "--tier", choices=TIER_NAMES, metavar="T", help=f"{what}: {', '.join(TIER_NAMES)}"
    )


def of_tier(puzzles: list[Puzzle], tier: str | None) -> list[Puzzle]:
    """The puzzles of ``tier`` (:attr:`~taolong_lab.puzzles.Puzzle.tier`); all for None.

    Parameters
    ----------
    puzzles : list of Puzzle
    tier : str or None

    Returns
    -------
    list of Puzzle
    """
    return [p for p in puzzles if tier is None or p.tier == tier]


def option_pairs(pairs, refuse) -> dict:
    """The ``name=value`` words of ``--option`` as a dict (a ``-`` in a name read as ``_``,
    each value by :func:`~taolong_lab.rules.options.parse_option_value`).

    Parameters
    ----------
    pairs : iterable of str or None
    refuse : callable
        Given a word that does not read ``name=value``, the exception to raise.

    Returns
    -------
    dict
    """
    options = {}
    for pair in pairs or ():
        name, eq, raw = pair.partition("=")
        if not eq or not name.strip():
            raise refuse(pair)
        options[name.strip().replace("-", "_")] = parse_option_value(raw.strip())
    return options


def check_output(flag: str, path: str, suffix: str | None = None) -> None:
    """Refuse an output file (``flag path``) whose name does not end in ``suffix`` or whose
    folder does not exist, before any work is done.

    Parameters
    ----------
    flag : str
        The option that names the file, as messages name it.
    path : str
    suffix : str or None
        The ending the name needs (".json"); None: any.

    Raises
    ------
    CommandError
        Naming the option and the file.
    """
    if suffix is not None and not path.endswith(suffix):
        raise CommandError(f"{flag} {shown(path)}: must be a {suffix} file")
    if not Path(path).resolve().parent.is_dir():
        raise CommandError(f"{flag} {shown(path)}: no such folder")


def write_json(path: str, doc) -> None:
    """Write ``doc`` to ``path`` as indented UTF-8 JSON, atomically
    (:func:`~taolong_lab.files.write_atomic`).

    Parameters
    ----------
    path : str
    doc : dict or list
        Plain JSON values; a nan or an infinity is refused (``ValueError``).
    """
    text = json.dumps(doc, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
    write_atomic(Path(path), text.encode("utf-8"))


def puzzle_header(puzzle: Puzzle) -> str:
    """The puzzle's id, title and goal, on two lines.

    Parameters
    ----------
    puzzle : Puzzle
        Its player and best known optimum make the goal.

    Returns
    -------
    str
        ``puzzle ID: TITLE``, then the goal: the dragon to play and the one to take.
    """
    other = "black" if puzzle.player == "white" else "white"
    goal = f"You play {puzzle.player}; win by taking the {other} dragon's last segment"
    if puzzle.optimum is not None:
        goal += f" (best known: {puzzle.optimum} turn{'s' * (puzzle.optimum != 1)})"
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
    return numbered(state.legal_turns(), state.describe_turn)


def numbered(actions: list, describe) -> list[str]:
    """Actions one line each: the number, the notation and ``describe(action)``, the action
    in words ("" for none).

    Parameters
    ----------
    actions : list
        The actions, in their order.
    describe : callable
        ``action -> str``.

    Returns
    -------
    list of str

    >>> numbered(["a", "bb"], lambda action: "")
    ['1. a', '2. bb']
    """
    texts = [str(action) for action in actions]
    number_width, text_width = len(str(len(actions))), max(map(len, texts), default=0)
    return [
        f"{number:>{number_width}}. {text:<{text_width}}  {describe(action)}".rstrip()
        for number, (action, text) in enumerate(zip(actions, texts, strict=True), start=1)
    ]


def read_entry(inp, out, prompt: str, echo: bool) -> str | None:
    """One entry of an interactive command, stripped and bounded.

    Parameters
    ----------
    inp, out : text files
        Where the entry is read and the prompt written.
    prompt : str
        Printed before the entry.
    echo : bool
        Print the entry back (piped input).

    Returns
    -------
    str or None
        The entry (empty when longer than :data:`MAX_ENTRY` characters); None at the end of
        the input.
    """
    print(prompt, end="", file=out, flush=True)
    line = inp.readline(MAX_ENTRY + 1)
    if not line:
        print(file=out)
        return None
    entry = line.strip()
    too_long = len(line) > MAX_ENTRY and not line.endswith("\n")
    while line and not line.endswith("\n"):
        line = inp.readline(MAX_ENTRY + 1)
    if echo:
        print(entry[:20] + "..." if too_long else entry, file=out)
    return "" if too_long else entry


__all__ = [
    "EXIT_ERROR",
    "EXIT_OK",
    "EXIT_UNKNOWN",
    "MAX_COUNT",
    "MAX_ENTRY",
    "MAX_IDS_SHOWN",
    "MAX_SECONDS",
    "MAX_SEED",
    "OPTION_OF",
    "PROG",
    "TIER_NAMES",
    "Command",
    "CommandError",
    "Parser",
    "UsageError",
    "add_progress_option",
    "add_puzzle_argument",
    "add_tier_argument",
    "check_output",
    "cli_word",
    "named_puzzle",
    "names_a_puzzle_file",
    "number",
    "numbered",
    "numbered_turns",
    "of_tier",
    "option_pairs",
    "puzzle_header",
    "puzzle_spec",
    "puzzles_of",
    "read_entry",
    "split_puzzle_spec",
    "wants_progress",
    "worded",
    "write_json",
]
