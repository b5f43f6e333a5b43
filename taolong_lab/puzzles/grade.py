"""The grade of a generated puzzle: its tier by the optimum (:data:`TIERS`, the one tier
table, which the ``verify`` command reads too) and a score within the tier (:func:`difficulty`).

``tier``/``grade`` by the optimum: novice 1-2, intermediate 3-4, advanced 5-7, expert 8+.
``score = optimum + hardness``, ``hardness = 1 - exp(-x)`` in [0, 1) (floored to 3 places,
at most 0.999), ``x = 0.15 * log2(branching / optimal_first_turns) + 0.3 / optimal_lines +
0.1 * log10(1 + expanded) + 0.1 * greedy_shortfall``: the score orders puzzles within a tier
and never crosses tiers.
"""

from __future__ import annotations

import math

from ..errors import TaoLongError

# (largest optimum, tier), easiest first
TIERS = ((2, "novice"), (4, "intermediate"), (7, "advanced"), (math.inf, "expert"))
WEIGHTS = {"rarity": 0.15, "uniqueness": 0.3, "effort": 0.1, "greedy_shortfall": 0.1}
FORMULA = (
    "score = optimum + hardness; hardness = 1 - exp(-x), floored to 3 places, <= 0.999; "
    "x = 0.15*log2(branching/optimal_first_turns) + 0.3/optimal_lines "
    "+ 0.1*log10(1+expanded) + 0.1*greedy_shortfall"
)
GREEDY_HORIZON = 4  # the greedy player is followed up to optimum + 4 turns
WIN_IN_1_MIN_TURNS = 8


class GradeError(TaoLongError):
    """A number the grade cannot take (an optimum below 1); names it."""


def tier_of(optimum: int) -> str:
    """The tier of a puzzle by its optimum (:data:`TIERS`).

    Parameters
    ----------
    optimum : int
        The fewest turns to win, at least 1.

    Returns
    -------
    str
        ``"novice"``, ``"intermediate"``, ``"advanced"`` or ``"expert"``.

    Raises
    ------
    GradeError
        An optimum that is not a whole number of at least 1.

    >>> [tier_of(n) for n in (1, 3, 5, 8)]
    ['novice', 'intermediate', 'advanced', 'expert']
    """
    if isinstance(optimum, bool) or not isinstance(optimum, int) or optimum < 1:
        raise GradeError(f"optimum must be a whole number >= 1, got {optimum!r}")
    return next(name for limit, name in TIERS if optimum <= limit)


def greedy_shortfall(greedy_turns: int | None, optimum: int) -> int:
    """How many turns beyond the optimum the greedy player needs to win, or
    ``GREEDY_HORIZON + 1`` when it does not win within ``optimum + GREEDY_HORIZON``."""
    if greedy_turns is None:
        return GREEDY_HORIZON + 1
    return max(0, greedy_turns - optimum)


def difficulty(
    optimum: int,
    optimal_first_turns: int,
    branching: int,
    expanded: int,
    optimal_lines: int = 1,
    greedy_turns: int | None = None,
    **features,
) -> dict:
    """The documented grade (:data:`FORMULA`, see the module docstring) and every feature it
    is made of.

    Parameters
    ----------
    optimum : int
        The fewest turns to win.
    optimal_first_turns : int
        The first turns that start an optimal line.
    branching : int
        The legal turns at the start.
    expanded : int
        The positions the explicit solver expanded to prove the optimum.
    optimal_lines : int
        The optimal lines.
    greedy_turns : int or None
        The turns the greedy player needs to win (None: not within
        ``optimum + GREEDY_HORIZON``).
    **features
        Recorded as given.

    Returns
    -------
    dict
        ``tier``, ``grade``, ``score``, ``hardness``, the formula and every term.

    Raises
    ------
    GradeError
        An optimum that is not a whole number of at least 1.
    """
    shortfall = greedy_shortfall(greedy_turns, optimum)
    terms = {
        "rarity": math.log2(max(branching, 1) / max(optimal_first_turns, 1)),
        "uniqueness": 1 / max(optimal_lines, 1),
        "effort": math.log10(1 + max(expanded, 0)),
        "greedy_shortfall": shortfall,
    }
    x = sum(WEIGHTS[name] * value for name, value in terms.items())
    hardness = min(math.floor((1 - math.exp(-x)) * 1000) / 1000, 0.999)
    tier = tier_of(optimum)
    return {
        "tier": tier,
        "grade": tier,
        "score": round(optimum + hardness, 3),
        "hardness": hardness,
        "formula": FORMULA,
        "optimum": optimum,
        "optimal_first_turns": optimal_first_turns,
        "branching": branching,
        "optimal_lines": optimal_lines,
        "expanded": expanded,
        "greedy_turns_to_win": greedy_turns,
        "greedy_shortfall": shortfall,
        "rarity": round(terms["rarity"], 4),
        **features,
    }


def win_in_1_ok(optimal_first_turns: int, branching: int) -> bool:
    """The win-in-1 exception to the greedy rule: kept only when at most a quarter of the
    legal turns win and at least :data:`WIN_IN_1_MIN_TURNS` turns are legal."""
    return branching >= WIN_IN_1_MIN_TURNS and 4 * optimal_first_turns <= branching


__all__ = [
    "FORMULA",
    "GREEDY_HORIZON",
    "TIERS",
    "WEIGHTS",
    "WIN_IN_1_MIN_TURNS",
    "GradeError",
    "difficulty",
    "greedy_shortfall",
    "tier_of",
    "win_in_1_ok",
]
