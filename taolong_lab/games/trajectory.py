"""A played sequence of any game: a start position and the actions from it, chance outcomes
included, each checked where it is played (Tao Long's own is :class:`taolong_lab.Line`)."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import TaoLongError
from .protocol import GameError, GameState


class Trajectory:
    """A start position and the actions played from it, each legal where it is played.

    Actions may be given as values or in notation; each is read against its position.

    >>> from taolong_lab.games import game
    >>> start = game("taolong").new()
    >>> played = Trajectory(start, ["Wa>He a3,a4", "Ea>Wa f8x"])
    >>> len(played), played.end.current_player(), played.text()
    (2, 0, '1. Wa>He a3,a4  2. Ea>Wa f8x')
    >>> Trajectory(start, ["Zz"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    taolong_lab.games.protocol.GameError: action 1: ...
    """

    __slots__ = ("_actions", "_states")

    def __init__(self, start: GameState, actions: Iterable = ()):
        if not isinstance(start, GameState):
            raise GameError(f"a trajectory starts from a GameState, not {type(start).__name__}")
        states, played = [start], []
        for number, action in enumerate(actions, start=1):
            state = states[-1]
            try:
                if state.is_terminal():
                    raise GameError("the game is over")
                parsed = state.parse_action(action)
                states.append(state.apply(parsed))
            except TaoLongError as exc:
                raise GameError(f"action {number}: {exc}") from None
            played.append(parsed)
        self._states, self._actions = tuple(states), tuple(played)

    @property
    def start(self) -> GameState:
        return self._states[0]

    @property
    def end(self) -> GameState:
        return self._states[-1]

    @property
    def actions(self) -> tuple:
        return self._actions

    def states(self) -> list[GameState]:
        """The start, then the position after each action."""
        return list(self._states)

    def notation(self) -> list[str]:
        return [str(action) for action in self._actions]

    def text(self) -> str:
        """The actions numbered: ``1. a  2. b``."""
        return "  ".join(f"{i}. {action}" for i, action in enumerate(self.notation(), 1))

    def __len__(self) -> int:
        return len(self._actions)

    def __iter__(self):
        return iter(self._actions)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Trajectory):
            return NotImplemented
        return self.start == other.start and self.notation() == other.notation()

    def __hash__(self) -> int:
        return hash((self.start, tuple(self.notation())))

    def __repr__(self) -> str:
        return f"Trajectory({self.start!r}, {self.notation()!r})"


__all__ = ["Trajectory"]
