"""``taolong play FILE[:ID]`` with no turn: play a solo challenge turn by turn.

The game is a :class:`~taolong_lab.engine.Line` from the puzzle's start: each turn played
makes it one longer, ``undo`` one shorter.
"""

from __future__ import annotations

from ..engine import Line, State, Turn
from ..errors import TaoLongError
from ..puzzles import Puzzle
from .common import EXIT_OK, numbered_turns, puzzle_header

HELP = """\
Enter the number of a turn from the list, or the turn in notation (e.g. 'Wa>He a3,a4').
Commands:
  list   the legal turns
  board  the position
  undo   take back your last turn
  help   this text
  quit   leave (so does the end of the input)"""
COMMANDS = "list, board, undo, help, quit"
AGAIN = "Enter a number from the list, a turn, or 'help'."


class Session:
    """Play ``puzzle`` turn by turn, reading one entry a line from ``inp`` (a terminal or
    piped input) and writing to ``out``.

    A bad entry prints a message and a new prompt; nothing an entry says ends the session but
    ``quit``, the end of the input, or the end of the game. An entry longer than
    :attr:`MAX_ENTRY` characters is refused unread past that point.
    """

    MAX_ENTRY = 1000

    def __init__(self, puzzle: Puzzle, inp, out):
        self.puzzle, self.inp, self.out = puzzle, inp, out
        self.line = Line(puzzle.start)
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())  # piped: show the entry

    @property
    def state(self) -> State:
        """The position now: the end of the line."""
        return self.line.end

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit status."""
        self.say(puzzle_header(self.puzzle), "Enter 'help' for the commands.", "")
        self.show()
        while self.state.outcome() is None and self.state.legal_turns():
            try:
                entry = self.read()
                if entry is None or entry.lower() in ("quit", "exit", "q"):
                    self.say(f"You left after {_turns(len(self.line))}.")
                    return EXIT_OK
                self.handle(entry)
            except KeyboardInterrupt:
                self.say("", f"You left after {_turns(len(self.line))}.")
                return EXIT_OK
            except Exception as exc:  # never a traceback in the middle of a game
                self.say(f"internal error, please report it: {type(exc).__name__}: {exc}")
        self.finish()
        return EXIT_OK

    def read(self) -> str | None:
        """The next entry, stripped; None at the end of the input."""
        prompt = f"turn {len(self.line) + 1} {self.state.to_move}> "
        print(prompt, end="", file=self.out, flush=True)
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
                AGAIN,
            )
            return ""
        return entry

    def handle(self, entry: str) -> None:
        """Carry out one entry: a command, a turn's number or a turn in notation."""
        command = entry.lower()
        if not entry:
            return
        if command in ("help", "?", "h"):
            self.say(HELP)
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
        elif entry.isalpha():  # one word: a command mistyped, never a turn
            self.say(f"{entry!r} is not a command: {COMMANDS}.", AGAIN)
        else:
            try:
                turn = self.state.parse_turn(entry)
            except TaoLongError as exc:
                self.say(f"{exc}", AGAIN)
                return
            self.play(turn)

    def play(self, turn: Turn) -> None:
        """Play a legal turn and show where it leads."""
        before = self.state
        self.line = self.line.play(turn)
        self.say(f"{len(self.line)}. {turn}", f"   {before.describe_turn(turn)}", "")
        self.show()

    def undo(self) -> None:
        """Take back the last turn."""
        if not self.line:
            self.say("Nothing to undo.")
            return
        self.line = self.line[:-1]
        self.say(f"Took back turn {len(self.line) + 1}.", "")
        self.show()

    def show(self) -> None:
        self.say(str(self.state), "")
        if self.state.outcome() is None:
            self.list_turns()

    def list_turns(self) -> None:
        lines = numbered_turns(self.state)
        self.say(*(lines or ["No legal turns."]))

    def finish(self) -> None:
        result, played = self.state.outcome(), _turns(len(self.line))
        if result is None:
            self.say(f"No legal turns left after {played}.")
        elif result.winner == self.puzzle.player:
            self.say(f"You win in {played}.")
        else:
            self.say(f"You lose after {played}: {result.reason}.")


def _turns(count: int) -> str:
    return f"{count} turn" + ("" if count == 1 else "s")


__all__ = ["HELP", "Session"]
