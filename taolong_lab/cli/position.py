"""The position commands of ``taolong``: ``show`` a position, list its legal ``turns``,
``play`` turns from it (or, with a puzzle and no turn, an interactive session; ``--random``
picks the puzzle), and list the ``scenarios``.

The position is ``--position TLN``, the start of a puzzle ``FILE[:ID]`` (or ``--puzzle
FILE[:ID]``), or the start of a game picked with ``--scenario``, ``--mode``, ``--edition``,
``--solo`` and ``--option``. ``play`` reads its first word as a puzzle when it names one
(:func:`~.common.names_a_puzzle_file`), else as the first turn.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence

from ..engine import Line, State, start_state
from ..errors import RulesError, TaoLongError
from ..pictures import svg
from ..puzzles import Puzzle
from ..rules import EDITIONS, MODES, Rules, scenario_names
from ..rules.data import load_toml, shown
from .common import (
    EXIT_OK,
    MAX_SEED,
    PROG,
    Command,
    CommandError,
    UsageError,
    add_puzzle_argument,
    add_tier_argument,
    named_puzzle,
    names_a_puzzle_file,
    number,
    numbered_turns,
    of_tier,
    option_pairs,
    puzzle_header,
    puzzles_of,
    split_puzzle_spec,
)
from .play_game import add_play_arguments, run_play_game, wants_game
from .session import Session


def _show_arguments(show: argparse.ArgumentParser) -> None:
    _add_position_arguments(show)
    _add_output_arguments(show)


def _play_arguments(play: argparse.ArgumentParser) -> None:
    _show_arguments(play)
    play.add_argument(
        "turns",
        nargs="*",
        metavar="TURN",
        help="a turn, e.g. 'Wa>He a3,a4'; with a puzzle and no TURN, an interactive session",
    )
    pick = play.add_argument_group("a random puzzle of the file")
    pick.add_argument(
        "--random", action="store_true", help="play a puzzle of FILE picked at random"
    )
    add_tier_argument(pick, "with --random: pick among the puzzles of this tier")
    pick.add_argument(
        "--seed",
        type=number(int, 0, MAX_SEED),
        metavar="N",
        help="with --random: the seed of the pick (the same seed, the same puzzle); in a game "
        "(--vs, --game): the agents' and the chance events' seed (default 0)",
    )
    add_play_arguments(play)


def _add_position_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_argument_group("position (default: the start of the default game)")
    where.add_argument(
        "--position", metavar="TLN", help="a position in TLN (quote it: it has spaces)"
    )
    where.add_argument(
        "--scenario",
        metavar="S",
        help=f"start position of scenario S: {', '.join(scenario_names())} (default: field)",
    )
    where.add_argument("--mode", metavar="M", help=f"game mode: {', '.join(MODES)}")
    where.add_argument("--edition", metavar="E", help=f"rulebook edition: {', '.join(EDITIONS)}")
    where.add_argument("--solo", action="store_true", help="the solo variant")
    add_puzzle_argument(
        where, "the start of a puzzle in a .jsonl or .json file (default: its first puzzle)"
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
    return option_pairs(
        pairs,
        lambda pair: RulesError(f"--option {pair!r} must read name=value, e.g. bite_on_stay=false"),
    )


def _first(puzzles: list[Puzzle]) -> Puzzle:
    return puzzles[0]


def _setup(args, choose=_first) -> tuple[Puzzle | None, State]:
    """The puzzle named by ``FILE[:ID]`` (``choose`` picks one of the file's; None without a
    puzzle) and the position the command starts from."""
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
    spec = named_puzzle(args)
    if args.position is not None and spec is not None:
        raise RulesError("--position and the puzzle FILE[:ID] both name a position; give one")
    if spec is not None:
        if rules_given:
            raise RulesError(f"a puzzle already names its rules; drop {', '.join(rules_given)}")
        puzzle = choose(puzzles_of(spec, check_solutions=False, strict=False))
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
    """``taolong show``: the position, as a board, TLN, JSON or SVG."""
    puzzle, state = _setup(args)
    if puzzle is not None and not (args.json or args.svg):
        print(puzzle_header(puzzle), file=out)
        print(file=out)
    _print_state(state, args, out)
    return EXIT_OK


def run_turns(args, out) -> int:
    """``taolong turns``: the legal turns, numbered, each in words."""
    state = _setup(args)[1]
    lines = numbered_turns(state)
    print(*(lines or [f"no legal turns: {state.outcome()}"]), sep="\n", file=out)
    return EXIT_OK


def run_play(args, out) -> int:
    """``taolong play``: the turns played, then the position after them; with ``--puzzle``
    and no turn, a :class:`~.session.Session`.

    Raises
    ------
    CommandError
        A turn that cannot be read or played, named by its number.
    """
    if wants_game(args):
        return run_play_game(args, out)
    if args.puzzle is not None and not names_a_puzzle_file(args.puzzle):
        args.turns, args.puzzle = [args.puzzle, *args.turns], None  # a turn, not a file
    randomly = args.random or args.tier is not None or args.seed is not None
    if randomly and not args.random:
        raise UsageError("--tier and --seed pick a puzzle with --random: add it")
    spec = named_puzzle(args)
    if randomly and (spec is None or split_puzzle_spec(spec)[1] is not None):
        raise UsageError("--random picks a puzzle of a FILE: give the file without an :ID")
    puzzle, state = _setup(args, _random_choice(args) if randomly else _first)
    if not args.turns:
        if puzzle is None:
            raise UsageError(
                "the following arguments are required: TURN (or a puzzle FILE[:ID] to play a "
                f"solo challenge turn by turn) (see '{PROG} play --help')"
            )
        return Session(puzzle, sys.stdin, out).run()
    line = Line(state)
    for index, text in enumerate(args.turns, start=1):
        try:
            turn = line.end.parse_turn(text)
        except TaoLongError as exc:
            raise CommandError(f"turn {index} ({shown(text, 80)}): {exc}") from None
        line = line.play(turn)
    if not (args.json or args.svg):
        for number, (before, turn) in enumerate(zip(line.states(), line, strict=False), 1):
            print(f"{number}. {before.to_move} {turn}", file=out)
        print(file=out)
    _print_state(line.end, args, out)
    return EXIT_OK


def _random_choice(args):
    """Pick one of a file's puzzles at random (``--random``), of ``--tier`` if given, by the
    generator seeded with ``--seed``."""

    def choose(puzzles: list[Puzzle]) -> Puzzle:
        pool = of_tier(puzzles, args.tier)
        if not pool:
            raise CommandError(f"--tier {args.tier}: no puzzle of that tier in the file")
        return random.Random(args.seed).choice(pool)

    return choose


def run_scenarios(args, out) -> int:
    """``taolong scenarios``: each scenario's key, name and motto."""
    for key in scenario_names():
        doc = load_toml(f"scenarios/{key}.toml")
        name, motto = doc.get("name", key), doc.get("motto", "")
        print(f"{key:<10} {name}" + (f" - {motto}" if motto else ""), file=out)
    return EXIT_OK


COMMANDS = (
    Command("show", "print a position (default: the start)", run_show, _show_arguments),
    Command("turns", "list the legal turns of a position", run_turns, _add_position_arguments),
    Command(
        "play",
        "play turns and print the position after them, or play a puzzle turn by turn",
        run_play,
        _play_arguments,
    ),
    Command("scenarios", "list the scenarios", run_scenarios),
)


__all__ = ["COMMANDS", "run_play", "run_scenarios", "run_show", "run_turns"]
