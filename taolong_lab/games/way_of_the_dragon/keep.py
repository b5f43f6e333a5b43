"""The best dice to keep, by exact expectimax over the rolls left in the turn.

At a choice of dice (the phase ``keep``) the player stops, or keeps some dice and rolls the
others again. :func:`keep_values` gives every choice its expected value under an objective
that scores the dice the player ends with (a function of the position in the phase ``move``);
:func:`best_keep` the best one. The value of a roll with ``n`` rolls left is the objective when
``n`` is 0, else the better of stopping and the best keep, whose value is the mean over the
rolls of the other dice (as multisets, with their exact probabilities) of the value with
``n - 1`` left. The eye of the tiger (a fourth roll) is not counted.

Two objectives: :func:`element_count` (how many dice show one element: a move's length on its
path) and :func:`best_move` (the player's best action after the rolls, by the game's
heuristic: :func:`~taolong_lab.games.way_of_the_dragon.game.progress` of the player less the
best of the others).

>>> from taolong_lab.games import game
>>> state = game("way-of-the-dragon").new().apply("roll WWFMD")
>>> action, value = best_keep(state, element_count(0))
>>> action, str(value)
('keep WW', '35/12')
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from ..protocol import GameError
from .dice import DICE, Dice, add, dice_text, keeps, rolls
from .game import PATHS, ROLLS, WayOfTheDragonState, progress

Objective = Callable[[WayOfTheDragonState], float]
TIE = 1e-9
"""Values this close to the best tie (exact values tie only when equal)."""


def element_count(element: int) -> Objective:
    """The objective: how many dice show ``element`` (0 water to 4 wood).

    Parameters
    ----------
    element
        The element's index in path order.

    Returns
    -------
    callable
        Position -> count.
    """
    if not isinstance(element, int) or not 0 <= element < PATHS:
        raise GameError(f"element: a path index from 0 to {PATHS - 1}, not {element!r}")
    return lambda state: state.dice[element]


def best_move(state: WayOfTheDragonState) -> float:
    """The objective: the player's best action in the phase ``move``, by the heuristic (its
    progress less the best other player's, after the action)."""
    me = state.player
    values = []
    for _, after in state.successors():
        own = progress(after, me)
        values.append(own - max(progress(after, s) for s in range(state.players) if s != me))
    return max(values)


def keep_values(state: WayOfTheDragonState, objective: Objective) -> list[tuple[str, Fraction]]:
    """Every choice of dice at ``state`` with its expected objective, in the order of the legal
    actions (``stop``, then each keep).

    Parameters
    ----------
    state
        A position where the player chooses dice to keep (phase ``keep``).
    objective
        Scores a position in the phase ``move`` (the dice the player ends with).

    Returns
    -------
    list of (action, value)
        Exact fractions when the objective gives whole numbers or fractions.

    Raises
    ------
    GameError
        ``state`` is not a choice of dice.
    """
    if not isinstance(state, WayOfTheDragonState) or state.phase != "keep" or state.is_terminal():
        raise GameError("keep values: the position must be a choice of dice to keep")
    left = max(ROLLS - state.rolls, 0)
    scores: dict[Dice, float] = {}
    values: dict[tuple[Dice, int], Fraction] = {}

    def score(dice: Dice):
        if dice not in scores:
            scores[dice] = objective(state._with(dice=dice, phase="move"))
        return scores[dice]

    def kept_value(kept: Dice, left: int):
        return sum(p * value(add(kept, roll), left - 1) for roll, p in rolls(DICE - sum(kept)))

    def value(dice: Dice, left: int):
        if (dice, left) not in values:
            best = score(dice)
            if left:
                best = max(best, *(kept_value(kept, left) for kept in keeps(dice)))
            values[dice, left] = best
        return values[dice, left]

    found = [("stop", score(state.dice))]
    if left:
        found += [(f"keep {dice_text(kept)}", kept_value(kept, left)) for kept in keeps(state.dice)]
    return found


def best_keep(state: WayOfTheDragonState, objective: Objective) -> tuple[str, Fraction]:
    """The choice of dice with the highest expected objective and its value; on a tie (within
    rounding, for an objective in floating point) the first in the order of the legal actions.

    Parameters
    ----------
    state, objective
        As for :func:`keep_values`.

    Returns
    -------
    (str, value)
        The action (``"stop"`` or ``"keep ..."``) and its expected objective.
    """
    found = keep_values(state, objective)
    best = max(value for _, value in found)
    return next((action, value) for action, value in found if value >= best - TIE)


__all__ = ["best_keep", "best_move", "element_count", "keep_values"]
