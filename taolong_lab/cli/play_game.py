"""``taolong play --vs/--game/--replay``: a game of any registered game between people and
agents in the terminal, or a record stepped through (:mod:`.replay`).

    taolong play --vs alphabeta --time 2 [--colour black] [--scenario S --mode M --edition E]
    taolong play --game NAME [--option k=v ...] [--vs SPEC|human] [--record FILE.jsonl]
    taolong play --replay FILE[:N]       step through the N-th record of a file (or its id)

Everything goes through the game protocol, so every registered game plays here; an agent is
named by a spec (:mod:`.game_options`).
"""

from __future__ import annotations

import argparse
import re
import sys

from ..agents import RecordError, append_record
from ..agents.base import MAX_NODES
from ..agents.records import record_file_problem
from ..agents.registry import agent_from_spec
from ..errors import TaoLongError
from ..explorer.game_play import GamePlay
from ..games import CHANCE, TAOLONG, GameState
from ..rules.data import shown
from .common import (
    EXIT_OK,
    MAX_SECONDS,
    CommandError,
    check_output,
    number,
    numbered,
    read_entry,
)
from .game_options import agent_keys_help, agents_help, game_options, the_game
from .replay import Replay, record_of

HUMAN = "human"

PLAY_HELP = """\
Enter the number of {a} from the list, or the {word} in notation{example}.
Commands:
  list   the legal {word}s
  board  the position
  undo   take back your last {word} (and the replies to it)
  help   this text
  quit   leave (so does the end of the input, or Ctrl-C)"""
COMMANDS = "list, board, undo, help, quit"
GROUP_OVER = 12  # more legal actions than this, none described: grouped by kind, several a line
LINE_WIDTH = 78


def add_play_arguments(play: argparse.ArgumentParser) -> None:
    """Add the options of a game against an agent (or a person) to ``play``.

    Parameters
    ----------
    play : argparse.ArgumentParser
        The ``play`` command's parser.
    """
    vs = play.add_argument_group("a game against the computer or a person (no TURN)")
    vs.add_argument(
        "--vs",
        metavar="AGENT|human",
        help=f"the other side: {agents_help()} or human; an agent takes NAME:key=value,... "
        f"with the keys {agent_keys_help()}",
    )
    vs.add_argument(
        "--time",
        metavar="S",
        type=number(float, 0, MAX_SECONDS),
        help="seconds a move for a search agent (default: 2)",
    )
    vs.add_argument(
        "--nodes",
        metavar="N",
        type=number(int, 1, MAX_NODES),
        help="positions a move instead of --time",
    )
    vs.add_argument(
        "--colour",
        "--color",
        metavar="SIDE",
        help="your side: a player's name (white, black, ...) or number from 1",
    )
    vs.add_argument("--game", metavar="NAME", help="a registered game (taolong games)")
    vs.add_argument("--record", metavar="FILE.jsonl", help="append the game's record to FILE")
    vs.add_argument(
        "--replay",
        metavar="FILE[:N]",
        help="step through the N-th record of a file (or the one with id N)",
    )


def wants_game(args) -> bool:
    """Whether ``play`` was asked for a game (``--vs``, ``--game`` or ``--replay``)."""
    return any(getattr(args, name, None) is not None for name in ("vs", "game", "replay"))


def run_play_game(args, out, inp=None) -> int:
    """``taolong play --vs/--game/--replay``: an interactive game or a replay.

    Parameters
    ----------
    args, out
        As a :class:`~.common.Command`'s run takes them: the game is printed to ``out``.
    inp : text file or None
        Where the entries are read (default: standard input).

    Raises
    ------
    CommandError
        A bad option, named.
    """
    inp = sys.stdin if inp is None else inp
    if args.turns or args.puzzle is not None:
        raise CommandError("--vs, --game and --replay play a game: drop the TURNs and --puzzle")
    if args.replay is not None:
        if args.vs is not None or args.game is not None or args.record is not None:
            raise CommandError("--replay steps through a record: drop --vs, --game and --record")
        return Replay(record_of(args.replay), inp, out).run()
    played = the_game(args)
    start = _start(played, args)
    if args.time is not None and args.nodes is not None:
        raise CommandError("--time and --nodes: give one budget")
    time = 2.0 if args.time is None and args.nodes is None else args.time
    spec = args.vs or HUMAN
    opponent = None if spec == HUMAN else agent_from_spec(spec, time=time, nodes=args.nodes)
    names = start.player_names()
    you = _side(args.colour, names) if opponent is not None or args.colour else 0
    seats = [None if p == you or opponent is None else opponent for p in range(start.players)]
    if args.record is not None:
        check_output("--record", args.record, ".jsonl")
    if args.record is not None:
        problem = record_file_problem(args.record)
        if problem is not None:
            line, field, reason = problem
            where = f"{args.record}:{line}" if line else args.record
            raise CommandError(f"--record {where}: {field}: {reason}")
    play = GamePlay(start, seats=seats, seed=args.seed or 0)  # play's --seed, None unless given
    return GameSession(play, inp, out, record=args.record).run()


def _side(colour, names) -> int:
    if colour is None:
        return 0
    if colour in names:
        return names.index(colour)
    if colour.isascii() and colour.isdigit() and 1 <= int(colour) <= len(names):
        return int(colour) - 1
    raise CommandError(
        f"--colour {shown(colour)}: one of {', '.join(names)} (or 1 to {len(names)})"
    )


def _start(played, args) -> GameState:
    """The start of ``play --vs/--game``: ``--position`` read by the game, else ``new``
    with the options (Tao Long's --scenario, --mode, --edition and --solo among them)."""
    options = game_options(args.option)
    rules = {"scenario": args.scenario, "mode": args.mode, "edition": args.edition}
    rules = {k: v for k, v in rules.items() if v}
    if args.solo:
        rules["solo"] = True
    if rules and played is not TAOLONG:
        flags = ", ".join(f"--{k}" for k in rules)
        raise CommandError(f"{flags}: Tao Long's; {played.name} takes --option NAME=VALUE")
    if args.position is not None:
        if rules or options:
            raise CommandError("--position already names its rules; drop --option and the rest")
        return played.from_string(args.position)
    both = sorted(set(rules) & set(options))
    if both:
        raise CommandError(f"--{both[0]} and --option {both[0]}=...: give it once")
    return played.new(**rules, **options)


class GameSession:
    """``play --vs``: people enter their actions, agents and chance answer; the position
    is printed after each action. Leaves on ``quit``, the end of the input or Ctrl-C; a bad
    entry prints the reason and asks again."""

    def __init__(self, play: GamePlay, inp, out, *, record: str | None = None):
        self.play, self.inp, self.out, self.record = play, inp, out, record
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())
        self.taolong = play.start.game is TAOLONG
        self.word = "turn" if self.taolong else "action"  # a Tao Long action is a whole turn
        self.hidden_chance = 0  # chance outcomes not told yet (a game with hidden cards)

    def help_text(self) -> str:
        a = "a turn" if self.taolong else "an action"
        example = " (e.g. 'Wa>He a3,a4')" if self.taolong else ""
        return PLAY_HELP.format(a=a, word=self.word, example=example)

    def count(self, n: int) -> str:
        """``n`` turns or actions, in words."""
        return f"{n} {self.word}{'s' * (n != 1)}"

    def again(self) -> str:
        """What to say after an entry that is not understood."""
        a = "a turn" if self.taolong else "an action"
        return f"Enter a number from the list, {a}, or 'help'."

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def run(self) -> int:
        play = self.play
        names = play.start.player_names()
        sides = [
            f"{names[p]}: {'you' if seat is None else play.players()[p]}"
            for p, seat in enumerate(play.seats)
        ]
        self.say(
            f"{play.start.game.title}: {'; '.join(sides)}.", "Enter 'help' for the commands.", ""
        )
        if not (play.state.is_chance() and play.hidden()):  # a hidden deal: shown once dealt
            self.show()
        try:
            while True:
                self.answer()
                if play.over():
                    break
                entry = read_entry(self.inp, self.out, self.prompt(), self.echo)
                if entry is None or entry.lower() in ("quit", "exit", "q"):
                    self.say(f"You left after {self.count(len(play.actions))}.")
                    break
                self.handle(entry)
        except KeyboardInterrupt:
            self.say("", f"You left after {self.count(len(play.actions))}.")
        if play.over():
            self.say(f"Game over: {play.result()}.")
        self.save()
        return EXIT_OK

    def prompt(self) -> str:
        mover = self.play.state.current_player()
        return f"{self.word} {len(self.play.actions) + 1} {self.play.player_name(mover)}> "

    def answer(self) -> None:
        """Let chance and the agents play until a person is to move; the hidden chance
        outcomes (cards dealt face down) are told as one line, by their count."""
        for mover, action in self.play.advance():
            who = self.play.player_name(mover)
            text = self.play.action_text(mover, action)
            if mover == CHANCE and self.play.hidden():
                self.hidden_chance += 1
                continue
            self.tell_hidden()
            if mover == CHANCE:
                self.say(f"{len(self.play.actions)}. chance: {text}")
            else:
                self.say(
                    f"{len(self.play.actions)}. {who} ({self.play.players()[mover]}) plays {text}"
                )
            self.say("")
            self.show()
        if self.tell_hidden():
            self.say("")
            self.show()

    def tell_hidden(self) -> bool:
        """Say how many hidden chance outcomes came since the last line; whether any did."""
        count, self.hidden_chance = self.hidden_chance, 0
        if count:
            self.say(f"chance: {count} hidden draw{'s' * (count != 1)} (cards dealt face down)")
        return bool(count)

    def handle(self, entry: str) -> None:
        command = entry.lower()
        if not entry:
            return
        if command in ("help", "?", "h"):
            self.say(self.help_text())
        elif command in ("list", "l"):
            self.list_actions()
        elif command in ("board", "b"):
            self.show()
        elif command in ("undo", "u"):
            try:
                gone = self.play.undo()
            except TaoLongError as exc:
                self.say(f"{exc}.")
                return
            self.say(f"Took back {self.count(gone)}.", "")
            self.show()
        else:
            mover = self.play.state.current_player()
            if self.taolong and entry.isalpha():  # a word: a command mistyped, not a turn
                self.say(f"{entry!r} is not a command: {COMMANDS}.", self.again())
                return
            try:
                action = self.play.play(entry)
            except TaoLongError as exc:
                self.say(str(exc), self.again())
                return
            self.say(f"{len(self.play.actions)}. {self.play.player_name(mover)} {action}", "")
            self.show()

    def show(self) -> None:
        self.say(self.play.view(), "")
        if self.play.human_to_move():
            self.list_actions()

    def list_actions(self) -> None:
        state = self.play.state
        actions = state.legal_actions()
        if len(actions) > GROUP_OVER and not any(state.describe_action(a) for a in actions):
            lines = numbered_actions([str(a) for a in actions])
        else:
            lines = numbered(actions, state.describe_action)
        self.say(*(lines or [f"No legal {self.word}s."]))

    def save(self) -> None:
        if self.record is None or not self.play.actions:
            return
        try:
            append_record(self.record, self.play.record())
        except OSError as exc:
            raise CommandError(f"--record {self.record}: {exc.strerror or exc}") from None
        except RecordError as exc:
            line, field, reason = exc.problems[0]
            where = f"{self.record}:{line}" if line else self.record
            raise CommandError(f"--record {where}: {field}: {reason}") from None
        self.say(f"The game's record is appended to {self.record}.")


def numbered_actions(actions: list[str]) -> list[str]:
    """The actions numbered from 1, grouped by their kind (the first word, or the square a
    pawn leaves), several a line.

    >>> swaps = [f"swap 1 {i}" for i in range(2, 9)]
    >>> for line in numbered_actions(swaps + [f"draw {i}" for i in range(1, 7)]):
    ...     print(line)
    swap:  1. swap 1 2    2. swap 1 3    3. swap 1 4    4. swap 1 5
           5. swap 1 6    6. swap 1 7    7. swap 1 8
    draw:  8. draw 1    9. draw 2   10. draw 3   11. draw 4   12. draw 5
          13. draw 6
    """
    width = len(str(len(actions)))
    items = [f"{i:>{width}}. {a}" for i, a in enumerate(actions, 1)]
    groups: dict[str, list[str]] = {}
    for item, action in zip(items, actions, strict=True):
        groups.setdefault(re.split(r"[ -]", action, maxsplit=1)[0], []).append(item)
    label = max(len(kind) for kind in groups) + 2
    lines = []
    for kind, members in groups.items():
        line = f"{kind + ':':<{label}}"
        for member in members:
            if len(line) + len(member) + 3 > LINE_WIDTH and line.strip() != kind + ":":
                lines.append(line.rstrip())
                line = " " * label
            line += member + "   "
        lines.append(line.rstrip())
    return lines


__all__ = ["GameSession", "add_play_arguments", "numbered_actions", "run_play_game", "wants_game"]
