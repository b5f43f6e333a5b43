"""``taolong play --replay FILE[:N]``: step through the N-th record of a file (or the one with
id N), position by position. Only that record is read and replayed
(:func:`~taolong_lab.agents.records.read_record_at`)."""

from __future__ import annotations

from ..agents import RecordError
from ..agents.records import read_record_at
from ..errors import TaoLongError
from ..games import CHANCE
from .common import EXIT_OK, CommandError, puzzle_spec, read_entry

REPLAY_HELP = "Enter: next; p: previous; a number: go to that action; q: quit."


def record_of(spec: str):
    """The record ``--replay FILE[:N]`` names: the one with id N, or the N-th of the file
    (default: the first), read alone: the file's other records are not replayed."""
    try:
        path, ident = puzzle_spec(spec)
    except TaoLongError as exc:
        raise CommandError(f"--replay: {exc}") from None
    try:
        return read_record_at(path, ident)
    except RecordError as exc:
        line, field, reason = exc.problems[0]
        more = f" (and {len(exc.problems) - 1} more problems)" if len(exc.problems) > 1 else ""
        if line is None:  # the file as a whole, or no such record
            raise CommandError(f"--replay: {path} {reason}") from None
        raise CommandError(f"--replay: {path}:{line}: {field}: {reason}{more}") from None


class Replay:
    """``play --replay``: step through a record's positions."""

    def __init__(self, record, inp, out):
        self.record, self.inp, self.out = record, inp, out
        self.states = record.states()
        self.index = 0
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def run(self) -> int:
        r = self.record
        sides = ", ".join(f"{s}: {p}" for s, p in zip(r.sides, r.players, strict=False))
        self.say(f"{r.start.game.title}, {r.date}: {sides}.", REPLAY_HELP, "")
        self.show()
        try:
            while True:
                entry = read_entry(self.inp, self.out, f"{self.index}/{len(r.turns)}> ", self.echo)
                if entry is None or entry.lower() in ("q", "quit", "exit"):
                    break
                self.handle(entry.lower())
        except KeyboardInterrupt:
            self.say("")
        return EXIT_OK

    def handle(self, entry: str) -> None:
        last = len(self.record.turns)
        if entry in ("", "n", "next"):
            target = self.index + 1
        elif entry in ("p", "prev", "previous"):
            target = self.index - 1
        elif entry.isascii() and entry.isdigit() and len(entry) <= 6:
            target = int(entry)
        else:
            self.say(REPLAY_HELP)
            return
        if not 0 <= target <= last:
            self.say(f"No position {target}: 0 to {last}.")
            return
        self.index = target
        self.show()

    def show(self) -> None:
        if self.index:
            before = self.states[self.index - 1]
            mover = before.current_player()
            who = "chance" if mover == CHANCE else before.player_names()[mover]
            self.say(f"{self.index}. {who} {self.record.turns[self.index - 1]}")
        self.say(self.states[self.index].text(), "")
        if self.index == len(self.record.turns):
            winner = self.record.winner or "nobody"
            self.say(f"The end: {self.record.reason} (winner: {winner}).")


__all__ = ["Replay", "record_of"]
