"""The position commands of ``taolong``: ``show`` a position, list its legal ``turns``,
``play`` turns from it (or, with ``--puzzle`` and no turn, an interactive session), and list
the ``scenarios``.

The position is ``--position TLN``, the start of ``--puzzle FILE[:ID]``, or the start of a
game picked with ``--scenario``, ``--mode``, ``--edition``, ``--solo`` and ``--option``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ..engine import Line, State, start_state
from ..errors import RulesError, TaoLongError
from ..files import InputFileError
from ..pictures import svg
from ..puzzles import Puzzle, read_puzzles
from ..rules import EDITIONS, MODES, Rules, scenario_names
from ..rules.data import load_toml, shown
from ..rules.options import parse_option_value
from .common import (
    EXIT_OK,
    PROG,
    CommandError,
    UsageError,
    numbered_turns,
    puzzle_header,
    puzzle_spec,
)
from .session import Session


def add_commands(subparsers) -> None:
    """Add ``show``, ``turns``, ``play`` and ``scenarios`` to the parser.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        What ``ArgumentParser.add_subparsers`` returned.
    """
    show = subparsers.add_parser("show", help="print a position (default: the start)")
    _add_position_arguments(show)
    _add_output_arguments(show)
    show.set_defaults(run=run_show)

    turns = subparsers.add_parser("turns", help="list the legal turns of a position")
    _add_position_arguments(turns)
    turns.set_defaults(run=run_turns)

    play = subparsers.add_parser("play", help="play turns and print the position after them")
    _add_position_arguments(play)
    _add_output_arguments(play)
    play.add_argument(
        "turns",
        nargs="*",
        metavar="TURN",
        help="a turn, e.g. 'Wa>He a3,a4'; with --puzzle and no TURN, an interactive session",
    )
    play.set_defaults(run=run_play)

    scenarios = subparsers.add_parser("scenarios", help="list the scenarios")
    scenarios.set_defaults(run=run_scenarios)


def _add_position_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_argument_group("position (default: the start of the default game)")
    where.add_argument(
        "--position", metavar="TLN", help="a position in TLN (quote it: it has spaces)"
    )
    where.add_argument("--scenario", metavar="S", help="start position of scenario S (field)")
    where.add_argument("--mode", metavar="M", help=f"game mode: {', '.join(MODES)}")
    where.add_argument("--edition", metavar="E", help=f"rulebook edition: {', '.join(EDITIONS)}")
    where.add_argument("--solo", action="store_true", help="the solo variant")
    where.add_argument(
        "--puzzle",
        metavar="FILE[:ID]",
        help="the start of a puzzle in a .jsonl or .json file (default: its first puzzle)",
    )
    where.add_argument(
        "--option",
        metavar="NAME=VALUE",
        action="append",
        help="a rule option, e.g. bite_on_stay=false (repeatable)",
    )


def _add_output_arguments(parser: argparse.ArgumentParser) -> None:
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--tln", action="store_true", help="also print the TLN line")
    form.add_argument("--json", action="store_true", help="print the JSON form instead")
    form.add_argument("--svg", action="store_true", help="print the SVG picture instead")


# ---- the position named on the command line ---------------------------------------------------
def _options(pairs: Sequence[str]) -> dict:
    options = {}
    for pair in pairs:
        name, eq, raw = pair.partition("=")
        if not eq or not name.strip():
            raise RulesError(f"--option {pair!r} must read name=value, e.g. bite_on_stay=false")
        options[name.strip().replace("-", "_")] = parse_option_value(raw.strip())
    return options


def _puzzle(spec: str) -> Puzzle:
    """The puzzle of ``--puzzle FILE[:ID]``: the one with that id, or the file's first.

    The other puzzles' problems are printed as warnings: one bad line never hides the rest.
    """
    try:
        file, ident = puzzle_spec(spec)
        puzzles, problems = read_puzzles(file, check_solutions=False)
    except InputFileError as exc:
        raise CommandError(f"--puzzle: {exc}") from None
    except OSError as exc:
        raise CommandError(f"--puzzle: cannot read {file}: {exc.strerror or exc}") from None
    for line, field, reason in problems:
        where = f"{file}:{line}" if line else file
        print(f"{PROG}: warning: {where}: {field}: {reason}", file=sys.stderr)
    count = len(problems)
    skipped = f" ({count} problem{'s' * (count != 1)} above)" if problems else ""
    if not puzzles:
        raise CommandError(f"--puzzle: {file} holds no puzzle{skipped}")
    if ident is None:
        return puzzles[0]
    for puzzle in puzzles:
        if puzzle.id == ident:
            return puzzle
    ids = ", ".join(p.id for p in puzzles)
    raise CommandError(f"--puzzle: no puzzle {ident!r} in {file}{skipped}; its ids: {ids}")


def _setup(args) -> tuple[Puzzle | None, State]:
    """The puzzle named by ``--puzzle`` (or None) and the position the command starts from."""
    rules_given = [
        flag
        for flag, value in (
            ("--scenario", args.scenario),
            ("--mode", args.mode),
            ("--edition", args.edition),
            ("--option", args.option),
            ("--solo", args.solo),
        )
        if value
    ]
    if args.position is not None and args.puzzle is not None:
        raise RulesError("--position and --puzzle both name a position; give one")
    if args.puzzle is not None:
        if rules_given:
            raise RulesError(f"--puzzle already names its rules; drop {', '.join(rules_given)}")
        puzzle = _puzzle(args.puzzle)
        return puzzle, puzzle.start
    if args.position is not None:
        if rules_given:
            raise RulesError(f"--position already names its rules; drop {', '.join(rules_given)}")
        return None, State.from_tln(args.position)
    rules = Rules(
        args.scenario or "field",
        args.mode or "grasshopper",
        args.edition or "current",
        args.solo,
        tuple(_options(args.option or ()).items()),
    )
    return None, start_state(rules)


def _print_state(state: State, args, out) -> None:
    if args.json:
        print(json.dumps(state.to_json(), indent=2), file=out)
        return
    if args.svg:
        out.write(svg(state))
        return
    print(state, file=out)
    if args.tln:
        print(file=out)
        print(state.to_tln(), file=out)


# ---- the commands -----------------------------------------------------------------------------
def run_show(args, out) -> int:
    """``taolong show``: the position, as a board, TLN, JSON or SVG.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    out : text file
        Where the results are printed.

    Returns
    -------
    int
        The exit status: 0.
    """
    puzzle, state = _setup(args)
    if puzzle is not None and not (args.json or args.svg):
        print(puzzle_header(puzzle), file=out)
        print(file=out)
    _print_state(state, args, out)
    return EXIT_OK


def run_turns(args, out) -> int:
    """``taolong turns``: the legal turns, numbered, each in words.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    out : text file
        Where the results are printed.

    Returns
    -------
    int
        The exit status: 0.
    """
    state = _setup(args)[1]
    lines = numbered_turns(state)
    print(*(lines or [f"no legal turns: {state.outcome()}"]), sep="\n", file=out)
    return EXIT_OK


def run_play(args, out) -> int:
    """``taolong play``: the turns played, then the position after them; with ``--puzzle``
    and no turn, a :class:`~.session.Session`.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    out : text file
        Where the results are printed.

    Returns
    -------
    int
        The exit status: 0.

    Raises
    ------
    CommandError
        A turn that cannot be read or played, named by its number.
    """
    puzzle, state = _setup(args)
    if not args.turns:
        if puzzle is None:
            raise UsageError(
                "the following arguments are required: TURN (or --puzzle FILE[:ID] to play a "
                f"solo challenge turn by turn) (see '{PROG} play --help')"
            )
        return Session(puzzle, sys.stdin, out).run()
    line = Line(state)
    for number, text in enumerate(args.turns, start=1):
        try:
            turn = line.end.parse_turn(text)
        except TaoLongError as exc:
            raise CommandError(f"turn {number} ({shown(text, 80)}): {exc}") from None
        line = line.play(turn)
    if not (args.json or args.svg):
        for number, (before, turn) in enumerate(zip(line.states(), line, strict=False), 1):
            print(f"{number}. {before.to_move} {turn}", file=out)
        print(file=out)
    _print_state(line.end, args, out)
    return EXIT_OK


def run_scenarios(args, out) -> int:
    """``taolong scenarios``: each scenario's key, name and motto.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    out : text file
        Where the results are printed.

    Returns
    -------
    int
        The exit status: 0.
    """
    for key in scenario_names():
        doc = load_toml(f"scenarios/{key}.toml")
        name, motto = doc.get("name", key), doc.get("motto", "")
        print(f"{key:<10} {name}" + (f" - {motto}" if motto else ""), file=out)
    return EXIT_OK


__all__ = ["add_commands", "run_play", "run_scenarios", "run_show", "run_turns"]
