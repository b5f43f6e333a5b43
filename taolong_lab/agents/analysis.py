"""Analysis of a position: its score, the best line and a score for every legal turn.

:func:`analyse` runs the alpha-beta search with a full window on every turn at the root, so each
turn's score is exact at the depth reached. Proved results are marked: a score past
:data:`~.evaluation.MATE_BOUND` is a win or a loss in a known number of plies, found by the search
itself; in the solo variant the shortest-win solver (:func:`taolong_lab.solve`) is asked first,
within the same budget, and its optimum, when it proves one, is the position's result.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Line, State, Turn
from .alphabeta import MAX_DEPTH, Search
from .base import AgentError, Budget, check_budget
from .evaluation import MATE_BOUND, WIN, Weights, default_weights

DEFAULT_NODES = 20_000


@dataclass(frozen=True)
class TurnScore:
    """One legal turn's score, from the side to move; ``proved`` is ``"win"``, ``"loss"`` or
    None, and ``plies`` the plies to that end when proved."""

    turn: Turn
    score: float
    proved: str | None
    plies: int | None


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found.

    ``score``: from the side to move (positive: it stands better); ``white_score`` the same
    from white's side. ``proved``: ``"win"`` or ``"loss"`` for the side to move when proved,
    in ``plies`` plies (turns, in the solo variant), else None. ``line``: the principal
    variation, a :class:`~taolong_lab.Line` from the position. ``turns``: every legal turn's
    :class:`TurnScore`, best first. ``depth``: the plies searched; ``nodes``: positions made;
    ``source``: ``"search"`` or ``"solver"`` (the solo solver proved the result).
    """

    state: State
    score: float
    white_score: float
    proved: str | None
    plies: int | None
    line: Line
    turns: tuple[TurnScore, ...]
    depth: int
    nodes: int
    source: str

    def __str__(self) -> str:
        head = (
            f"{self.proved} in {self.plies}"
            if self.proved
            else f"{self.score:+.1f} for {self.state.to_move}"
        )
        return f"{head} (depth {self.depth}): {self.line.text() or '(no turn)'}"


def _proof(score: float) -> tuple[str | None, int | None]:
    if score > MATE_BOUND:
        return "win", int(WIN - score)
    if score < -MATE_BOUND:
        return "loss", int(WIN + score)
    return None, None


def analyse(
    state: State,
    *,
    time_limit: float | None = None,
    nodes: int | None = None,
    depth: int = MAX_DEPTH,
    weights: Weights | None = None,
) -> Analysis:
    """Analyse ``state``: the score, the principal variation and every legal turn's score.

    Parameters
    ----------
    state
        A position of any scenario, mode and edition, two-player or solo.
    time_limit, nodes
        The budget: seconds and/or positions made (default ``nodes=20000`` when neither is
        given); the result of the deepest completed depth is returned.
    depth
        The deepest search, in plies.
    weights
        The evaluation's weights (default: ``data/evaluation.toml``).

    Returns
    -------
    Analysis

    Raises
    ------
    AgentError
        On a bad budget or depth.

    Examples
    --------
    >>> from taolong_lab import new_game
    >>> found = analyse(new_game(), nodes=2000)
    >>> len(found.turns) == len(new_game().legal_turns()), found.line.start == new_game()
    (True, True)
    """
    check_budget(nodes, time_limit)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise AgentError(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
    if time_limit is None and nodes is None:
        nodes = DEFAULT_NODES
    weights = weights or default_weights()
    sign = 1 if state.mover == 0 else -1
    result = state.outcome()
    if result is not None:
        won = result.winner == state.to_move
        score = WIN if won else -WIN
        return Analysis(
            state, score, sign * score, "win" if won else "loss", 0, Line(state), (), 0, 0, "rules"
        )
    solved = _solo_solution(state, time_limit, nodes) if state.rules.solo else None
    search = Search(weights, Budget(nodes, time_limit))
    scores = None
    for _, found in search.deepen(state, depth, every=True):
        scores = found
    if scores is None:  # not even depth 1 within the budget: finish it without one
        search.budget = Budget(None, None)
        scores = search.root(state, 1, every=True)
        search.completed_depth = 1
    pairs = state.successors()
    turns = tuple(TurnScore(pairs[i][0], score, *_proof(score)) for i, score in scores)
    best = turns[0].score
    proved, plies = _proof(best)
    line = Line(state, search.principal_variation(state, search.completed_depth))
    source = "search"
    if solved is not None:
        proved, plies, source = "win", solved.optimum, "solver"
        line = Line(state, solved.line)
        best = max(best, WIN - plies)
    return Analysis(
        state,
        best,
        sign * best,
        proved,
        plies,
        line,
        turns,
        search.completed_depth,
        search.budget.used,
        source,
    )


def _solo_solution(state: State, time_limit, nodes):
    """The solo solver's optimal solution within the budget, or None."""
    from ..solvers import solve

    solution = solve(state, time_limit=time_limit, max_states=nodes, progress=False)
    return solution if solution.status == "optimal" else None


__all__ = ["Analysis", "TurnScore", "analyse"]
