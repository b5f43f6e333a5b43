"""One typed exception per kind of failure. All are ``ValueError`` subclasses."""

from __future__ import annotations


class TaoLongError(ValueError):
    """Base class of every error taolong_lab raises on bad input."""


class RulesError(TaoLongError):
    """An unknown scenario, mode, edition or option, or a bad option value."""


class DataError(TaoLongError):
    """A data file under ``data/`` is malformed. Names the file and the field."""

    def __init__(self, file: str, field: str, reason: str):
        self.file, self.field, self.reason = file, field, reason
        super().__init__(f"{file}: {field}: {reason}")


class PositionError(TaoLongError):
    """A malformed position (TLN or JSON). Names the field at fault and why."""

    def __init__(self, field: str, reason: str, text: str | None = None):
        self.field, self.reason, self.text = field, reason, text
        super().__init__(f"bad position: {field}: {reason}")


class InvariantError(PositionError):
    """A well-formed position that breaks one or more invariants of the game."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("invariants", "; ".join(self.problems))


class NotationError(TaoLongError):
    """Turn notation that cannot be parsed. Names the part at fault."""


class IllegalTurnError(TaoLongError):
    """A well-formed turn that is not legal in the position. Says why; ``number`` is the
    turn's place in a line (1 for the first), when it was played in one."""

    def __init__(self, turn: str, reason: str, number: int | None = None):
        self.turn, self.reason, self.number = turn, reason, number
        super().__init__(f"illegal turn {turn!r}: {reason}")


class PuzzleError(TaoLongError):
    """A malformed puzzle or puzzle file. Names the file, the line and the field at fault.

    ``problems`` lists every ``(line, field, reason)`` found; one bad line never hides the
    others.
    """

    def __init__(self, file: str, problems: list[tuple[int | None, str, str]]):
        self.file, self.problems = file, list(problems)
        lines = [
            f"{file}:{line}: {field}: {reason}" if line else f"{file}: {field}: {reason}"
            for line, field, reason in self.problems
        ]
        super().__init__("\n".join(lines) if lines else f"{file}: bad puzzle file")
