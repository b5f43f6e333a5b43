"""Each game's evaluation, as the agents read it: every player's score of a position.

:func:`evaluation_for` picks a game's evaluation: a game that gives its own
(:meth:`taolong_lab.games.Game.heuristic`; Tao Long's is
:func:`~taolong_lab.games.taolong.evaluate`, white's score, black's its negation) is scored by
it; any other game by the mean returns of a few random playouts (:class:`PlayoutEvaluation`).
In every game a finished game scores :data:`~taolong_lab.games.WIN` for a return of 1 (a win),
``-WIN`` for -1 (a loss), and its return times half of :data:`~taolong_lab.games.MATE_BOUND`
for a partial result, so that one is never taken for a proved win or loss.

An evaluation also tells the alpha-beta search what its move ordering and quiescence step need:
how much an action hurts the other side (:meth:`Evaluation.tactics`), whether a position is in
the middle of an exchange (:meth:`Evaluation.pending`) and which actions go on with it
(:meth:`Evaluation.noisy`): the game's own search hints (:meth:`taolong_lab.games.Game.tactics`
and the rest; only Tao Long's say anything there).

>>> from taolong_lab.games import game
>>> start = game("taolong").new(solo=True, segments=1)
>>> evaluation_for(start).scale, evaluation_for(start).scores(start)
(40.0, (0.0,))
"""

from __future__ import annotations

import random

from ..games import MATE_BOUND, WIN, Game, GameState, random_action

PLAYOUTS = 8
PLAYOUT_ACTIONS = 200


class Evaluation:
    """A game's evaluation: each player's score, in points (higher is better), with
    :attr:`scale` points for odds of e to 1 (the agents squash a score with it)."""

    scale = 1.0

    def scores(self, state: GameState, budget=None) -> tuple[float, ...]:
        """Each player's score of ``state``; ``budget`` (a :class:`~.base.Budget`) is charged
        for the positions the evaluation makes."""
        if state.is_terminal():
            return tuple(_finished(value) for value in state.returns())
        return self.points(state, budget)

    def points(self, state: GameState, budget) -> tuple[float, ...]:
        raise NotImplementedError

    def tactics(self, state: GameState, after: GameState) -> float:
        """How much the action from ``state`` to ``after`` hurts the other side, for the
        search's move ordering (0: nothing known)."""
        return 0.0

    def pending(self, state: GameState) -> bool:
        """Whether the player to move in ``state`` has a blow to strike (the quiescence step
        searches on)."""
        return False

    def noisy(self, state: GameState, after: GameState) -> bool:
        """Whether the action from ``state`` to ``after`` is one the quiescence step plays."""
        return False


def _finished(value: float) -> float:
    """A finished game's score for a return (see the module docstring)."""
    return WIN * value if abs(value) == 1 else value * MATE_BOUND / 2


class HeuristicEvaluation(Evaluation):
    """A game's own evaluation (:meth:`taolong_lab.games.Game.heuristic`, with ``weights``,
    the game's tuning of it, None for its defaults) and its search hints."""

    def __init__(self, game: Game, weights=None):
        self.game, self.weights = game, weights
        self.scale = float(game.heuristic_scale)

    def points(self, state: GameState, budget) -> tuple[float, ...]:
        return tuple(self.game.heuristic(state, self.weights))

    def tactics(self, state: GameState, after: GameState) -> float:
        return self.game.tactics(state, after)

    def pending(self, state: GameState) -> bool:
        return self.game.pending(state)

    def noisy(self, state: GameState, after: GameState) -> bool:
        return self.game.noisy(state, after)


class PlayoutEvaluation(Evaluation):
    """The default: each player's mean return over ``playouts`` random playouts of at most
    ``actions`` actions each (an unfinished one counts 0), drawn from a random source seeded by
    the position, so the same position always scores the same.

    >>> from taolong_lab.games import game
    >>> start = game("taolong").new()
    >>> PlayoutEvaluation(2).scores(start) == PlayoutEvaluation(2).scores(start)
    True
    """

    scale = 0.5

    def __init__(self, playouts: int = PLAYOUTS, actions: int = PLAYOUT_ACTIONS):
        self.playouts, self.actions = playouts, actions

    def points(self, state: GameState, budget) -> tuple[float, ...]:
        rng = random.Random(f"playout:{state.to_string()}")
        totals = [0.0] * state.players
        for _ in range(self.playouts):
            end = state
            for _ in range(self.actions):
                if end.is_terminal():
                    break
                end = end.apply(random_action(end, rng))
                if budget is not None:
                    budget.spend()
            if end.is_terminal():
                for player, value in enumerate(end.returns()):
                    totals[player] += value
        return tuple(total / self.playouts for total in totals)


def evaluation_for(state: GameState, weights=None) -> Evaluation:
    """The evaluation of ``state``'s game (see the module docstring).

    Parameters
    ----------
    state
        A position of the game.
    weights
        The game's tuning of its heuristic (Tao Long's
        :class:`~taolong_lab.games.taolong.Weights`; default: ``data/evaluation.toml``);
        a game without any ignores it.

    Returns
    -------
    Evaluation
    """
    if type(state.game).heuristic is not Game.heuristic:
        return HeuristicEvaluation(state.game, weights)
    return PlayoutEvaluation()


__all__ = [
    "Evaluation",
    "HeuristicEvaluation",
    "PlayoutEvaluation",
    "evaluation_for",
]
