"""A line of play: a start position and the turns played from it, checked as it is built."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..errors import IllegalTurnError, TaoLongError
from .state import State
from .turns import Turn


class Line:
    """A start position and the turns played from it, each legal where it is played.

    The value a solved line, a game record and the Explorer's history share. Immutable:
    :meth:`play` and slicing return new lines. Turns may be given as :class:`Turn` values or
    in notation; they are read against the position they are played in.

    >>> from taolong_lab import new_game
    >>> line = Line(new_game(), ["Wa>He a3,a4", "Ea>Wa f8x"])
    >>> len(line), line.end.to_move, line.text()
    (2, 'white', '1. Wa>He a3,a4  2. Ea>Wa f8x')
    >>> line[:1] == Line(new_game(), ["Wa>He a3,a4"])
    True
    >>> Line(new_game(), ["He>Fi a3x", "Wa>He a3"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    taolong_lab.errors.IllegalTurnError: illegal turn 'Wa>He a3': turn 2: ...
    """

    __slots__ = ("_states", "_turns")

    def __init__(self, start: State, turns: Iterable[Turn | str] = ()):
        if not isinstance(start, State):
            raise TaoLongError(f"a line starts from a State, not {type(start).__name__}")
        self._states, self._turns = _played((start,), (), turns)

    @classmethod
    def _of(cls, states: tuple[State, ...], turns: tuple[Turn, ...]) -> Line:
        line = object.__new__(cls)
        line._states, line._turns = states, turns
        return line

    @property
    def start(self) -> State:
        return self._states[0]

    @property
    def end(self) -> State:
        """The position after the last turn."""
        return self._states[-1]

    @property
    def turns(self) -> tuple[Turn, ...]:
        return self._turns

    def states(self) -> list[State]:
        """The positions along the line: the start, then the one after each turn."""
        return list(self._states)

    def play(self, turn: Turn | str) -> Line:
        """This line with one more turn (checked where it is played)."""
        return Line._of(*_played(self._states, self._turns, [turn]))

    def text(self) -> str:
        """The turns in notation, numbered: ``1. He>Fi a3x  2. ...``."""
        return "  ".join(f"{i}. {turn}" for i, turn in enumerate(self._turns, start=1))

    def notation(self) -> list[str]:
        """The turns in notation."""
        return [str(turn) for turn in self._turns]

    def __len__(self) -> int:
        return len(self._turns)

    def __iter__(self) -> Iterator[Turn]:
        return iter(self._turns)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self._turns))
            if step != 1:
                raise TaoLongError("a line is sliced without a step")
            return Line._of(self._states[start : max(start, stop) + 1], self._turns[start:stop])
        return self._turns[index]

    def __eq__(self, other) -> bool:
        if not isinstance(other, Line):
            return NotImplemented
        return self.start == other.start and self._turns == other._turns

    def __hash__(self) -> int:
        return hash((self.start, self._turns))

    def __repr__(self) -> str:
        return f"Line({self.start!r}, {self.notation()!r})"

    def _repr_svg_(self) -> str:
        """The end of the line with its last turn drawn (JupyterLab shows it)."""
        from ..pictures import svg

        return svg(self)


def _played(states: tuple, played: tuple, turns) -> tuple[tuple, tuple]:
    """``states`` and ``played`` with ``turns`` played after them, each checked where it is
    played; an illegal one raises :class:`IllegalTurnError` with its number in the line."""
    states, played = list(states), list(played)
    for number, turn in enumerate(turns, start=len(played) + 1):
        state = states[-1]
        try:
            if state.is_over():
                raise IllegalTurnError(str(turn), f"the game is over ({state.outcome()})")
            parsed = state.parse_turn(turn)
        except IllegalTurnError as exc:
            raise IllegalTurnError(exc.turn, f"turn {number}: {exc.reason}", number) from None
        except TaoLongError as exc:
            raise IllegalTurnError(str(turn), f"turn {number}: {exc}", number) from None
        played.append(parsed)
        states.append(state.play(parsed))
    return tuple(states), tuple(played)


__all__ = ["Line"]
