"""The ``taolong`` command: look at positions, list legal turns, play turns.

    taolong show                         the start position of the default game
    taolong show --edition earlier --tln the start of the earlier edition, with its TLN line
    taolong show --position TLN --json   any position, as JSON
    taolong turns [--position TLN]       the legal turns, numbered, with what each one does
    taolong play [--position TLN] TURN.. play turns (each quoted: 'Wa>He a3,a4') and show the board
    taolong scenarios                    the scenario files
    taolong --version

Every bad input prints ``taolong: error: <message>`` on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from . import __version__, new_game
from .engine import State
from .errors import RulesError, TaoLongError
from .rules import EDITIONS, MODES, Rules, scenario_names
from .rules.data import load_toml

PROG = "taolong"
EXIT_OK, EXIT_ERROR = 0, 2


class _UsageError(Exception):
    """A command line argparse rejects; reported like every other bad input."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print usage and exit by itself
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def _option_value(raw: str):
    """The value of ``--option name=value``, read like the rules field of TLN."""
    lowered = raw.lower()
    if lowered in ("true", "false", "none"):
        return {"true": True, "false": False, "none": None}[lowered]
    try:
        return int(raw)
    except ValueError:
        return raw


def _options(pairs: Sequence[str]) -> dict:
    options = {}
    for pair in pairs:
        name, eq, raw = pair.partition("=")
        if not eq or not name.strip():
            raise RulesError(f"--option {pair!r} must read name=value, e.g. bite_on_stay=false")
        options[name.strip().replace("-", "_")] = _option_value(raw.strip())
    return options


def _position(args) -> State:
    """The position named on the command line: ``--position`` or a start position."""
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
    if args.position is not None:
        if rules_given:
            raise RulesError(f"--position already names its rules; drop {', '.join(rules_given)}")
        return State.from_tln(args.position)
    # Rules checks every name and value first, so no option can clash with new_game's arguments.
    rules = Rules(
        args.scenario or "field",
        args.mode or "grasshopper",
        args.edition or "current",
        args.solo,
        tuple(_options(args.option or ()).items()),
    )
    return new_game(rules.scenario, rules.mode, rules.solo, rules.edition, **dict(rules.options))


def _print_state(state: State, args, out) -> None:
    if args.json:
        print(json.dumps(state.to_json(), indent=2), file=out)
        return
    print(state, file=out)
    if args.tln:
        print(file=out)
        print(state.to_tln(), file=out)


def _describe(state: State, turn) -> str:
    return "; then ".join(state.describe_phase(phase) for phase in turn.phases)


# ---- commands -------------------------------------------------------------------------------
def _cmd_show(args, out) -> int:
    _print_state(_position(args), args, out)
    return EXIT_OK


def _cmd_turns(args, out) -> int:
    state = _position(args)
    turns = state.legal_turns()
    if not turns:
        result = state.outcome()
        print(f"no legal turns: {result}", file=out)
        return EXIT_OK
    number_width = len(str(len(turns)))
    texts = [str(turn) for turn in turns]
    turn_width = max(len(text) for text in texts)
    for number, (turn, text) in enumerate(zip(turns, texts, strict=True), start=1):
        line = f"{number:>{number_width}}. {text:<{turn_width}}  {_describe(state, turn)}"
        print(line.rstrip(), file=out)
    return EXIT_OK


class _TurnError(TaoLongError):
    """A bad turn in ``taolong play``, with its place in the list."""

    def __init__(self, number: int, text: str, cause: Exception):
        super().__init__(f"turn {number} ({text!r}): {cause}")


def _cmd_play(args, out) -> int:
    state = _position(args)
    played = []
    for number, text in enumerate(args.turns, start=1):
        mover = state.to_move
        try:
            turn = state.parse_turn(text)
        except TaoLongError as exc:
            raise _TurnError(number, text, exc) from None
        state = state.play(turn)
        played.append(f"{number}. {mover} {turn}")
    if not args.json:
        for line in played:
            print(line, file=out)
        print(file=out)
    _print_state(state, args, out)
    return EXIT_OK


def _cmd_scenarios(args, out) -> int:
    for key in scenario_names():
        doc = load_toml(f"scenarios/{key}.toml")
        name, motto = doc.get("name", key), doc.get("motto", "")
        print(f"{key:<10} {name}" + (f" - {motto}" if motto else ""), file=out)
    return EXIT_OK


# ---- parser -----------------------------------------------------------------------------------
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
        "--option",
        metavar="NAME=VALUE",
        action="append",
        help="a rule option, e.g. bite_on_stay=false (repeatable)",
    )


def _add_output_arguments(parser: argparse.ArgumentParser) -> None:
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--tln", action="store_true", help="also print the TLN line")
    form.add_argument("--json", action="store_true", help="print the JSON form instead")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Tao Long positions and turns from the command line.",
        epilog="Turn notation and TLN: docs/notation.md.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    show = commands.add_parser("show", help="print a position (default: the start)")
    _add_position_arguments(show)
    _add_output_arguments(show)
    show.set_defaults(run=_cmd_show)

    turns = commands.add_parser("turns", help="list the legal turns of a position")
    _add_position_arguments(turns)
    turns.set_defaults(run=_cmd_turns)

    play = commands.add_parser("play", help="play turns and print the position after them")
    _add_position_arguments(play)
    _add_output_arguments(play)
    play.add_argument("turns", nargs="+", metavar="TURN", help="a turn, e.g. 'Wa>He a3,a4'")
    play.set_defaults(run=_cmd_play)

    scenarios = commands.add_parser("scenarios", help="list the scenarios")
    scenarios.set_defaults(run=_cmd_scenarios)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 2 bad input)."""
    out, err = sys.stdout, sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.run(args, out)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except (_UsageError, TaoLongError, NotImplementedError) as exc:
        print(f"{PROG}: error: {exc}", file=err)
        return EXIT_ERROR
    except BrokenPipeError:  # e.g. `taolong show --json | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
