"""The game protocol: what a game of the lab implements so that the agents, analysis, matches
and the balance card work on it (docs/games/protocol.md).

A :class:`Game` describes a game: its name, how many players, its options as data, whether it
has chance events or hidden information, and :meth:`Game.new` for a start position. A
:class:`GameState` is one position, immutable: whose turn it is (a player, :data:`CHANCE` or
:data:`TERMINAL`), the legal actions, :meth:`GameState.apply`, the chance outcomes with their
probabilities, what each player sees and a state drawn from what a player sees, the returns at
the end, a text and an SVG picture, a position string that reads back, and a key.

Actions are values (hashable, compared by value) whose ``str`` is their notation;
:meth:`GameState.parse_action` reads the notation back against the position. At a chance node
the legal actions are the chance outcomes.

A game may give its own evaluation (:meth:`Game.heuristic`, with the search hints
:meth:`Game.tactics`, :meth:`Game.pending` and :meth:`Game.noisy`) and, for its records, the
sides a record names (:meth:`GameState.sides`: a player's colour, and a side no player plays,
as the solo opponent of Tao Long) and how a game ended (:meth:`GameState.result`).

>>> from taolong_lab.games import game
>>> start = game("taolong").new()
>>> start.current_player(), start.players, start.player_names()
(0, 2, ('white', 'black'))
>>> action = start.legal_actions()[0]
>>> start.parse_action(str(action)) == action
True
>>> game("taolong").from_string(start.to_string()) == start
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import TaoLongError
from ..markup import escape
from ..rules.data import shown

CHANCE = -1
""":meth:`GameState.current_player` at a chance node: the next action is drawn by chance."""
TERMINAL = -2
""":meth:`GameState.current_player` when the game is over."""
WIN = 100_000.0
"""A won game's score in every game's evaluation (a lost one scores ``-WIN``)."""
MATE_BOUND = WIN / 2
"""Scores beyond this are proved wins or losses; a heuristic stays well within it."""


class GameError(TaoLongError):
    """A bad game name, game option, position string or action. Names the one at fault."""


@dataclass(frozen=True)
class GameOption:
    """One option of a game, as data: its name, default and the values it takes.

    ``choices`` lists the values it takes; when it is empty the option takes a whole number
    from ``low`` to ``high`` (or the default).

    >>> GameOption("players", 2, "how many play", low=2, high=5).check(6)
    Traceback (most recent call last):
      ...
    taolong_lab.games.protocol.GameError: option 'players' takes a whole number from 2 to 5, not 6
    """

    name: str
    default: Any
    doc: str
    choices: tuple = ()
    low: int | None = None
    high: int | None = None

    def check(self, value) -> None:
        """Raise :class:`GameError` naming the option unless it takes ``value``."""
        if self.choices:
            if not any(value is c or (type(value) is type(c) and value == c) for c in self.choices):
                raise GameError(
                    f"option {self.name!r} takes one of {self.choices!r}, not {shown(value)}"
                )
            return
        if value is self.default:
            return
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or (self.low is not None and value < self.low)
            or (self.high is not None and value > self.high)
        ):
            raise GameError(
                f"option {self.name!r} takes a whole number from {self.low} to {self.high}, "
                f"not {shown(value)}"
            )


class Game(ABC):
    """A game: its name, players, options and how to start or read a position.

    A game sets ``name`` (its registry name), ``title``, ``players`` (the player counts it is
    played with), ``options`` (:class:`GameOption` values), ``chance`` and ``hidden`` (whether
    it has chance events or hidden information), and implements :meth:`start` and
    :meth:`from_string`. It may give its own evaluation with :meth:`heuristic`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[int, ...]]
    options: tuple[GameOption, ...] = ()
    chance: ClassVar[bool] = False
    hidden: ClassVar[bool] = False
    heuristic_scale: ClassVar[float] = 1.0
    decision_cap: ClassVar[int] = 300  # the default cap of an agents' game, in decisions
    """The heuristic's points for odds of e to 1 (see :meth:`heuristic`)."""

    def settings(self, options: dict) -> dict:
        """Every option's value: the given ones, checked, and the defaults."""
        known = {o.name: o for o in self.options}
        for name in options:
            if name not in known:
                names = ", ".join(known) or "none"
                raise GameError(f"{self.name}: unknown option {shown(name)}; options: {names}")
        for name, value in options.items():
            known[name].check(value)
        return {o.name: options.get(o.name, o.default) for o in self.options}

    def new(self, **options) -> GameState:
        """The start position with these options (see :attr:`options`).

        Parameters
        ----------
        **options
            Option values by name; the others keep their defaults.

        Returns
        -------
        GameState

        Raises
        ------
        GameError
            An unknown option or a value it does not take, named.
        """
        return self.start(self.settings(options))

    @abstractmethod
    def start(self, settings: dict) -> GameState:
        """The start position for a full, checked set of option values."""

    @abstractmethod
    def from_string(self, text: str) -> GameState:
        """Read a position string (:meth:`GameState.to_string`); a bad one raises a
        :class:`~taolong_lab.errors.TaoLongError` naming the field at fault."""

    def variants(self) -> list[dict]:
        """The option sets a balance card plays by default: each player count and version."""
        return [{}]

    def heuristic(self, state: GameState, weights=None) -> tuple[float, ...] | None:
        """The game's own evaluation of ``state``, a position where the game goes on.

        Parameters
        ----------
        state : GameState
            A position of this game.
        weights : object or None
            The game's own tuning of its heuristic (Tao Long's
            :class:`~taolong_lab.games.taolong.Weights`); None for its defaults. A game
            without any ignores it.

        Returns
        -------
        tuple of float or None
            Each player's score in points (higher is better, :attr:`heuristic_scale` points
            for odds of e to 1, well within :data:`MATE_BOUND`), or None when the game has
            none: the agents then score positions by random playouts.
        """
        return None

    def tactics(self, state: GameState, after: GameState) -> float:
        """How much the action from ``state`` to ``after`` hurts the other side, for a
        search's move ordering (0: nothing known)."""
        return 0.0

    def pending(self, state: GameState) -> bool:
        """Whether the player to move in ``state`` has a blow to strike (a search's
        quiescence step searches on)."""
        return False

    def noisy(self, state: GameState, after: GameState) -> bool:
        """Whether the action from ``state`` to ``after`` is one a quiescence step plays."""
        return False

    def __repr__(self) -> str:
        return f"<game {self.name}>"


class GameState(ABC):
    """One position of a game, immutable: :meth:`apply` returns a new one.

    The abstract methods are what a game must write; the others have defaults for a game of
    perfect information.
    """

    __slots__ = ()

    # ---- what a game writes --------------------------------------------------------------
    @property
    @abstractmethod
    def game(self) -> Game:
        """The :class:`Game` this is a position of."""

    @property
    @abstractmethod
    def players(self) -> int:
        """How many players play this game."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to act (0 to ``players - 1``), :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> list:
        """The legal actions in a deterministic order (at a chance node, the outcomes); none
        when the game is over."""

    @abstractmethod
    def apply(self, action) -> GameState:
        """The position after ``action`` (one of :meth:`legal_actions`, or its notation); an
        action that is not legal raises a :class:`~taolong_lab.errors.TaoLongError`."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Each player's result when the game is over, from -1 (lost) to 1 (won); a draw is 0.
        Raises :class:`GameError` while the game goes on."""

    @abstractmethod
    def to_string(self) -> str:
        """The position string: :meth:`Game.from_string` reads it back to an equal position,
        options included."""

    # ---- defaults ------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node, each outcome with its probability (they sum to 1); else none."""
        return []

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def parse_action(self, text):
        """The legal action written ``text`` (an action is accepted as it is); raise
        :class:`GameError` naming it when it is not legal here."""
        legal = self.legal_actions()
        if not isinstance(text, str):
            if text in legal:
                return text
            raise GameError(f"illegal action {shown(text)}: not one of the legal actions")
        for action in legal:
            if str(action) == text:
                return action
        if not legal:
            raise GameError(f"illegal action {shown(text)}: the game is over")
        some = ", ".join(str(a) for a in legal[:8]) + (", ..." if len(legal) > 8 else "")
        raise GameError(f"illegal action {shown(text)}: the legal actions are {some}")

    def successors(self) -> list[tuple[Any, GameState]]:
        """Every legal action with the position it leads to, in the order of
        :meth:`legal_actions`."""
        return [(action, self.apply(action)) for action in self.legal_actions()]

    def key(self):
        """A hashable identity for transposition tables: equal for equal positions."""
        return self.to_string()

    def player_names(self) -> tuple[str, ...]:
        """A name for each player, for records and pictures."""
        return tuple(f"player {i + 1}" for i in range(self.players))

    # ---- sides and results, for records and analysis ---------------------------------------
    def sides(self) -> tuple[str, ...]:
        """The sides of the game a record names its players for: by default the players;
        a game may have a side no player plays (Tao Long's solo opponent)."""
        return self.player_names()

    def side_of(self, player: int) -> int:
        """The side ``player`` plays, as an index of :meth:`sides`."""
        return player

    def side_to_move(self) -> int:
        """The side the position is seen from, as an index of :meth:`sides`: the player to
        move's; at a chance node or once the game is over, the first player's unless the game
        says otherwise."""
        return self.side_of(max(self.current_player(), 0))

    def side_players(self, names) -> tuple[str, ...]:
        """Who plays each side, from who plays each player (``names``, in the players'
        order): a side no player plays names what plays it."""
        return tuple(names)

    def outcome_text(self) -> str:
        """How a finished game ended, in words: who won, or a draw."""
        best = winner(self)
        return "a draw" if best is None else f"{self.player_names()[best]} wins"

    def result(self) -> tuple[str | None, str]:
        """A finished game's result as a record holds it: the winning side's name (None for
        a draw) and how it ended."""
        best = winner(self)
        return (None if best is None else self.sides()[self.side_of(best)], self.outcome_text())

    def describe_action(self, action) -> str:
        """An action in words, for a list of the legal actions ("": its notation says all)."""
        return ""

    def observation(self, player: int) -> str:
        """What ``player`` sees: equal for two positions that differ only in what it cannot
        see. The whole position in a game of perfect information."""
        return self.to_string()

    def sample(self, player: int, rng: random.Random) -> GameState:
        """A position drawn from those ``player`` cannot tell from this one (the hidden cards
        dealt again): the result depends only on :meth:`observation` and ``rng``. In a game
        of perfect information, the position itself."""
        return self

    def problems(self) -> list[str]:
        """Every broken invariant of the position, named (the game's own checks)."""
        return []

    def text(self) -> str:
        """A text picture of the position."""
        return self.to_string()

    def text_for(self, player: int) -> str:
        """A text picture of what ``player`` sees: the text picture in a game of perfect
        information, else its observation (a game with hidden information draws its own)."""
        return self.observation(player) if self.game.hidden else self.text()

    def svg(self) -> str:
        """An SVG picture of the position (by default, the text picture)."""
        lines = self.text().splitlines() or [""]
        width = 8 * max(len(line) for line in lines) + 16
        rows = "".join(
            f'<text x="8" y="{18 * (i + 1)}" xml:space="preserve">{escape(line)}</text>'
            for i, line in enumerate(lines)
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{18 * len(lines) + 10}" font-family="monospace" font-size="13">'
            f"{rows}</svg>"
        )

    def _repr_svg_(self) -> str:
        return self.svg()

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"{self.game.name}:{self.to_string()!r}"

    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())


def draw_outcome(state: GameState, rng: random.Random):
    """One chance outcome of ``state`` drawn by its probability.

    Parameters
    ----------
    state
        A position at a chance node.
    rng
        The random source.

    Returns
    -------
    object
        One of the outcomes of ``state.chance_outcomes()``.

    Raises
    ------
    GameError
        ``state`` is not a chance node.

    >>> class Coin:
    ...     def chance_outcomes(self):
    ...         return [("heads", 0.5), ("tails", 0.5)]
    >>> draw_outcome(Coin(), random.Random(1))
    'heads'
    """
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise GameError("no chance outcome to draw: not a chance node")
    point = rng.random()
    for action, probability in outcomes:
        point -= probability
        if point < 0:
            return action
    return outcomes[-1][0]


def random_action(state: GameState, rng: random.Random):
    """A legal action at random: a chance outcome by its probability, else a uniform pick.

    Parameters
    ----------
    state
        A position where the game goes on.
    rng
        The random source.

    Returns
    -------
    object
        One of ``state.legal_actions()``.
    """
    if state.is_chance():
        return draw_outcome(state, rng)
    return rng.choice(state.legal_actions())


def winner(state: GameState) -> int | None:
    """The player whose return is strictly the highest in a finished game.

    Parameters
    ----------
    state
        Any position.

    Returns
    -------
    int or None
        That player; None for a draw, a game going on, or a one-player game lost.
    """
    if not state.is_terminal():
        return None
    values = state.returns()
    best = max(values)
    top = [p for p, value in enumerate(values) if value == best]
    return top[0] if len(top) == 1 and (len(values) > 1 or best > 0) else None


__all__ = [
    "CHANCE",
    "MATE_BOUND",
    "TERMINAL",
    "WIN",
    "Game",
    "GameError",
    "GameOption",
    "GameState",
    "draw_outcome",
    "random_action",
    "winner",
]
