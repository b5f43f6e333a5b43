"""The ``taolong`` command: look at positions, list legal turns, play turns.

    taolong show                         the start position of the default game
    taolong show --edition earlier --tln the start of the earlier edition, with its TLN line
    taolong show --position TLN --json   any position, as JSON
    taolong show --svg > start.svg       the picture of a position (SVG)
    taolong turns [--position TLN]       the legal turns, numbered, with what each one does
    taolong play [--position TLN] TURN.. play turns (each quoted: 'Wa>He a3,a4') and show the board
    taolong show --puzzle FILE[:ID]      a puzzle's start (default: the file's first puzzle)
    taolong play --puzzle FILE[:ID]      play a solo challenge turn by turn in the terminal
    taolong scenarios                    the scenario files
    taolong solve FILE[:ID]              the fewest turns to win a solo challenge, proved
    taolong verify FILE [--full]         replay (and re-prove) every stored solution
    taolong graph --puzzle FILE[:ID] --depth D --out G.graphml   the state graph
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
from .cli_generate import add_commands as add_generate_commands
from .cli_solve import add_commands as add_solver_commands
from .cli_solve import puzzle_spec
from .engine import State
from .errors import RulesError, TaoLongError
from .files import InputFileError
from .pictures import svg
from .puzzles import Puzzle, read_puzzles
from .rules import EDITIONS, MODES, Rules, scenario_names
from .rules.data import load_toml, shown
from .rules.options import parse_option_value

PROG = "taolong"
EXIT_OK, EXIT_ERROR = 0, 2


class _UsageError(Exception):
    """A command line argparse rejects; reported like every other bad input."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print usage and exit by itself
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def _options(pairs: Sequence[str]) -> dict:
    options = {}
    for pair in pairs:
        name, eq, raw = pair.partition("=")
        if not eq or not name.strip():
            raise RulesError(f"--option {pair!r} must read name=value, e.g. bite_on_stay=false")
        options[name.strip().replace("-", "_")] = parse_option_value(raw.strip())
    return options


class _CommandError(TaoLongError):
    """Bad input to a command that no other error names (an unknown puzzle id, ...)."""


def _puzzle(args) -> Puzzle | None:
    """The puzzle of ``--puzzle FILE[:ID]``: the one with that id, or the file's first.

    The other puzzles' problems are printed as warnings: one bad line never hides the rest.
    """
    if args.puzzle is None:
        return None
    try:
        file, ident = puzzle_spec(args.puzzle)
        puzzles, problems = read_puzzles(file, check_solutions=False)
    except InputFileError as exc:
        raise _CommandError(f"--puzzle: {exc}") from None
    except OSError as exc:
        raise _CommandError(f"--puzzle: cannot read {file}: {exc.strerror or exc}") from None
    for line, field, reason in problems:
        where = f"{file}:{line}" if line else file
        print(f"{PROG}: warning: {where}: {field}: {reason}", file=sys.stderr)
    count = len(problems)
    skipped = f" ({count} problem{'s' * (count != 1)} above)" if problems else ""
    if not puzzles:
        raise _CommandError(f"--puzzle: {file} holds no puzzle{skipped}")
    if ident is None:
        return puzzles[0]
    for puzzle in puzzles:
        if puzzle.id == ident:
            return puzzle
    ids = ", ".join(p.id for p in puzzles)
    raise _CommandError(f"--puzzle: no puzzle {ident!r} in {file}{skipped}; its ids: {ids}")


def _position(args) -> State:
    """The position named on the command line: ``--position``, ``--puzzle`` or a start
    position."""
    return _setup(args)[1]


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
        puzzle = _puzzle(args)
        return puzzle, puzzle.start
    if args.position is not None:
        if rules_given:
            raise RulesError(f"--position already names its rules; drop {', '.join(rules_given)}")
        return None, State.from_tln(args.position)
    # Rules checks every name and value first, so no option can clash with new_game's arguments.
    rules = Rules(
        args.scenario or "field",
        args.mode or "grasshopper",
        args.edition or "current",
        args.solo,
        tuple(_options(args.option or ()).items()),
    )
    return None, new_game(
        rules.scenario, rules.mode, rules.solo, rules.edition, **dict(rules.options)
    )


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


# ---- commands -------------------------------------------------------------------------------
def _puzzle_header(puzzle: Puzzle) -> str:
    return f"puzzle {puzzle.id}: {puzzle.title}\n{_goal(puzzle)}"


def _goal(puzzle: Puzzle) -> str:
    other = "black" if puzzle.player == "white" else "white"
    goal = f"You play {puzzle.player}; win by taking the {other} dragon's last segment"
    if puzzle.optimum is not None:
        goal += f" (best known: {puzzle.optimum} turns)"
    return goal + "."


def _cmd_show(args, out) -> int:
    puzzle, state = _setup(args)
    if puzzle is not None and not (args.json or args.svg):
        print(_puzzle_header(puzzle), file=out)
        print(file=out)
    _print_state(state, args, out)
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
        line = f"{number:>{number_width}}. {text:<{turn_width}}  {state.describe_turn(turn)}"
        print(line.rstrip(), file=out)
    return EXIT_OK


class _TurnError(TaoLongError):
    """A bad turn in ``taolong play``, with its place in the list."""

    def __init__(self, number: int, text: str, cause: Exception):
        super().__init__(f"turn {number} ({shown(text, 80)}): {cause}")


def _cmd_play(args, out) -> int:
    if not args.turns:
        if args.puzzle is None:
            raise _UsageError(
                "the following arguments are required: TURN (or --puzzle FILE[:ID] to play a "
                f"solo challenge turn by turn) (see '{PROG} play --help')"
            )
        return Session(_setup(args)[0], sys.stdin, out).run()
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
    if not (args.json or args.svg):
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


# ---- the interactive session -----------------------------------------------------------------
SESSION_HELP = """\
Enter the number of a turn from the list, or the turn in notation (e.g. 'Wa>He a3,a4').
Commands:
  list   the legal turns
  board  the position
  undo   take back your last turn
  help   this text
  quit   leave (so does the end of the input)"""


class Session:
    """``taolong play --puzzle FILE[:ID]``: play a solo challenge turn by turn.

    Reads one entry a line from ``inp`` (a terminal or piped input). A bad entry prints a
    message and a new prompt; nothing an entry says ends the session but ``quit``, the end of
    the input, or the end of the game. An entry longer than :attr:`MAX_ENTRY` characters is
    refused unread past that point.
    """

    MAX_ENTRY = 1000

    def __init__(self, puzzle: Puzzle, inp, out):
        self.puzzle, self.inp, self.out = puzzle, inp, out
        self.state = puzzle.start
        self.history: list[State] = []  # the position before each turn played
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())  # piped: show the entry

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def run(self) -> int:
        self.say(_puzzle_header(self.puzzle), "Enter 'help' for the commands.", "")
        self.show()
        while self.state.outcome() is None and self.state.legal_turns():
            try:
                entry = self.read()
                if entry is None or entry.lower() in ("quit", "exit", "q"):
                    self.say(f"You left after {self._turns(len(self.history))}.")
                    return EXIT_OK
                self.handle(entry)
            except KeyboardInterrupt:
                self.say("", f"You left after {self._turns(len(self.history))}.")
                return EXIT_OK
            except Exception as exc:  # never a traceback in the middle of a game
                self.say(f"internal error, please report it: {type(exc).__name__}: {exc}")
        self.finish()
        return EXIT_OK

    def read(self) -> str | None:
        print(f"turn {len(self.history) + 1}> ", end="", file=self.out, flush=True)
        line = self.inp.readline(self.MAX_ENTRY + 1)
        if not line:
            self.say("")
            return None
        entry = line.strip()
        too_long = len(line) > self.MAX_ENTRY and not line.endswith("\n")
        while line and not line.endswith("\n"):  # skip the rest, a bounded piece at a time
            line = self.inp.readline(self.MAX_ENTRY + 1)
        if self.echo:
            self.say(entry[:20] + "..." if too_long else entry)
        if too_long:
            self.say(
                f"That entry is longer than {self.MAX_ENTRY} characters.",
                "Enter a number from the list, a turn, or 'help'.",
            )
            return ""
        return entry

    def handle(self, entry: str) -> None:
        command = entry.lower()
        if not entry:
            return
        if command in ("help", "?", "h"):
            self.say(SESSION_HELP)
        elif command in ("list", "turns", "l"):
            self.list_turns()
        elif command in ("board", "b"):
            self.say(str(self.state))
        elif command in ("undo", "u"):
            self.undo()
        elif entry.isascii() and entry.isdigit():
            turns = self.state.legal_turns()
            digits = entry.lstrip("0") or "0"
            number = int(digits) if len(digits) <= len(str(len(turns))) else None
            if number is not None and 1 <= number <= len(turns):
                self.play(turns[number - 1])
            else:
                shown = entry if len(entry) <= 12 else entry[:9] + "..."
                self.say(f"There is no turn {shown}: enter 1 to {len(turns)}, or 'list'.")
        else:
            try:
                turn = self.state.parse_turn(entry)
            except TaoLongError as exc:
                self.say(f"{exc}", "Enter a number from the list, a turn, or 'help'.")
                return
            self.play(turn)

    def play(self, turn) -> None:
        before = self.state
        self.state = before.play(turn)
        self.history.append(before)
        self.say(f"{len(self.history)}. {turn}", f"   {before.describe_turn(turn)}", "")
        self.show()

    def undo(self) -> None:
        if not self.history:
            self.say("Nothing to undo.")
            return
        self.state = self.history.pop()
        self.say(f"Took back turn {len(self.history) + 1}.", "")
        self.show()

    def show(self) -> None:
        self.say(str(self.state), "")
        if self.state.outcome() is None:
            self.list_turns()

    def list_turns(self) -> None:
        turns = self.state.legal_turns()
        if not turns:
            self.say("No legal turns.")
            return
        width, texts = len(str(len(turns))), [str(turn) for turn in turns]
        turn_width = max(len(text) for text in texts)
        for number, (turn, text) in enumerate(zip(turns, texts, strict=True), start=1):
            line = f"{number:>{width}}. {text:<{turn_width}}  {self.state.describe_turn(turn)}"
            self.say(line.rstrip())

    def finish(self) -> None:
        result, played = self.state.outcome(), self._turns(len(self.history))
        if result is None:
            self.say(f"No legal turns left after {played}.")
        elif result.winner == self.puzzle.player:
            self.say(f"You win in {played}.")
        else:
            self.say(f"You lose after {played}: {result.reason}.")

    @staticmethod
    def _turns(count: int) -> str:
        return f"{count} turn" + ("" if count == 1 else "s")


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
    play.add_argument(
        "turns",
        nargs="*",
        metavar="TURN",
        help="a turn, e.g. 'Wa>He a3,a4'; with --puzzle and no TURN, an interactive session",
    )
    play.set_defaults(run=_cmd_play)

    scenarios = commands.add_parser("scenarios", help="list the scenarios")
    scenarios.set_defaults(run=_cmd_scenarios)

    add_solver_commands(commands)
    add_generate_commands(commands)
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
