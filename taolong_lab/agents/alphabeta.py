"""Alpha-beta search: iterative deepening, a transposition table, move ordering, quiescence.

Scores are from the side to move. A won game scores :data:`~.evaluation.WIN` less the plies
from the root to its end, so a quicker win scores higher; in the solo variant the player is
to move at every position, so a score passes to the parent unchanged instead of negated.

*Pending* positions and the quiescence step: at the end of the depth, a position is pending
when its side to move has a damaging turn (a bite, or a breath: an expel of fire or water that
hits), which the evaluation's threat feature shows. There the search goes on with the damaging
turns only, at most :data:`QUIESCENCE_PLIES` plies, and each side may instead stand on the
evaluation ("stand pat"). So a leaf is never scored in the middle of an exchange of blows.

The transposition table is keyed by :meth:`State.key` and lives for one ``choose`` (or
``analyse``) call, so a move depends only on the position, the budget and the seed. A stored
score ends the search of a position only when it was searched to the same depth, so a search
to a fixed depth without quiescence returns the plain minimax value.
"""

from __future__ import annotations

from ..engine import State, Turn
from .base import (
    AgentError,
    Budget,
    check_budget,
    check_seed,
    for_mover,
    legal_or_raise,
    position_rng,
)
from .evaluation import MATE_BOUND, WIN, Weights, default_weights, evaluate, features

QUIESCENCE_PLIES = 2
MAX_DEPTH = 64
EXACT, LOWER, UPPER = 0, 1, 2
DEFAULT_NODES = 20_000


class _OutOfBudget(Exception):
    pass


class Search:
    """One alpha-beta search from a root position (used by :class:`AlphaBetaAgent` and
    :func:`~taolong_lab.agents.analysis.analyse`)."""

    def __init__(self, weights: Weights, budget: Budget, quiescence: bool = True):
        self.weights, self.budget, self.quiescence = weights, budget, quiescence
        self.table: dict = {}  # key -> (depth, score, flag, index of the best turn)
        self.completed_depth = 0

    # ---- scores --------------------------------------------------------------------------
    def static(self, state: State) -> float:
        return for_mover(evaluate(state, self.weights), state)

    def terminal(self, state: State, ply: int) -> float:
        won = state.outcome().winner == state.to_move
        return WIN - ply if won else -(WIN - ply)

    def _children(self, state: State, depth: int, rank=None) -> list:
        """The successors, best first: the stored best turn, then by damage dealt, then (deep
        in the tree) by the evaluation; ``rank`` (index -> number) breaks the last ties."""
        pairs = state.successors()
        if self.budget.spend(len(pairs)):
            raise _OutOfBudget
        entry = self.table.get(state.key())
        first = entry[3] if entry is not None else -1
        mover, other = state.mover, 1 - state.mover
        colours = ("white", "black")
        rank = rank or range(len(pairs))

        def order(item):
            i, (_, after) = item
            if i == first:
                return (0, 0.0, rank[i])
            hurt = -after.life(colours[other]) + after.life(colours[mover])
            if after.is_over():
                won = after.outcome().winner == colours[mover]
                return (1, -1.0 if won else 1.0, rank[i])
            guess = -self.static(after) if after.mover != mover else self.static(after)
            return (2, -(hurt * 1000 + (guess if depth >= 2 else 0.0)), rank[i])

        return sorted(enumerate(pairs), key=order)

    # ---- the search ----------------------------------------------------------------------
    def search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        if state.is_over():
            return self.terminal(state, ply)
        if depth <= 0:
            return self.settle(state, alpha, beta, ply, QUIESCENCE_PLIES)
        key = state.key()
        entry = self.table.get(key)
        if entry is not None and entry[0] == depth:
            score = _from_table(entry[1], ply)
            if entry[2] == EXACT:
                return score
            if entry[2] == LOWER and score >= beta:
                return score
            if entry[2] == UPPER and score <= alpha:
                return score
        start_alpha = alpha
        best, best_index = -2 * WIN, -1
        for i, (_, after) in self._children(state, depth):
            if after.mover == state.mover:  # solo: the player moves again
                score = self.search(after, depth - 1, alpha, beta, ply + 1)
            else:
                score = -self.search(after, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_index = score, i
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, _to_table(best, ply), flag, best_index)
        return best

    def settle(self, state: State, alpha: float, beta: float, ply: int, left: int) -> float:
        """The quiescence step (see the module docstring)."""
        stand = self.static(state)
        if not self.quiescence or left == 0:
            return stand
        if features(state)["initiative"][state.mover] == 0:
            return stand  # not pending: no damaging turn
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        best = stand
        colours = ("white", "black")
        prey = colours[1 - state.mover]
        before = state.life(prey)
        pairs = state.successors()
        if self.budget.spend(len(pairs)):
            raise _OutOfBudget
        for _, after in pairs:
            if after.life(prey) >= before:
                continue
            if after.is_over():
                score = self.terminal(after, ply + 1)
                score = score if after.mover == state.mover else -score
            elif after.mover == state.mover:
                score = self.settle(after, alpha, beta, ply + 1, left - 1)
            else:
                score = -self.settle(after, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def root(self, state: State, depth: int, every: bool = False, rank=None) -> list:
        """Search the root to ``depth``: ``(index of the turn, score)`` for each turn, best
        first. The first score is exact; the others are exact with ``every`` (each turn gets a
        full window), else upper bounds. ``rank`` breaks ties in the search order."""
        alpha, beta = -2 * WIN, 2 * WIN
        scores = []
        for i, (_, after) in self._children(state, depth, rank):
            window = (-2 * WIN, 2 * WIN) if every else (alpha, beta)
            if after.mover == state.mover:
                score = self.search(after, depth - 1, window[0], window[1], 1)
            else:
                score = -self.search(after, depth - 1, -window[1], -window[0], 1)
            scores.append((i, score))
            alpha = max(alpha, score)
        scores.sort(key=lambda pair: -pair[1])  # stable: the first of equal scores is exact
        self.table[state.key()] = (depth, _to_table(scores[0][1], 0), EXACT, scores[0][0])
        return scores

    def deepen(self, state: State, max_depth: int, every: bool = False, rank=None):
        """Iterative deepening to ``max_depth`` or until the budget is spent; yields each
        completed depth and its root scores (see :meth:`root`)."""
        for depth in range(1, max_depth + 1):
            try:
                scores = self.root(state, depth, every, rank)
            except _OutOfBudget:
                return
            self.completed_depth = depth
            yield depth, scores
            if abs(scores[0][1]) > MATE_BOUND:
                return  # the shortest win, or every turn loses: deeper cannot change it

    def principal_variation(self, state: State, limit: int) -> list[Turn]:
        """The best turns stored from ``state`` on, while the table has them."""
        line, seen = [], set()
        while len(line) < limit and not state.is_over():
            entry = self.table.get(state.key())
            if entry is None or entry[3] < 0 or state.key() in seen:
                break
            seen.add(state.key())
            turn, state = state.successors()[entry[3]]
            line.append(turn)
        return line


def _to_table(score: float, ply: int) -> float:
    """A root-relative mate score as one relative to this position (and back)."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: float, ply: int) -> float:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


class AlphaBetaAgent:
    """Alpha-beta with iterative deepening, a transposition table, move ordering and a
    quiescence step (see the module docstring).

    Parameters
    ----------
    time_limit, nodes
        The budget per move: seconds and/or positions made (default ``nodes=20000`` when
        neither is given). Deterministic with ``nodes`` and no ``time_limit``.
    depth
        The deepest iteration (default :data:`MAX_DEPTH`).
    seed
        Breaks ties between equally scored turns (seeded per position).
    weights
        The evaluation's weights (default: ``data/evaluation.toml``).
    quiescence
        Whether leaves go through the quiescence step.
    """

    name = "alphabeta"

    def __init__(
        self,
        *,
        time_limit: float | None = None,
        nodes: int | None = None,
        depth: int = MAX_DEPTH,
        seed: int = 0,
        weights: Weights | None = None,
        quiescence: bool = True,
    ):
        check_budget(nodes, time_limit)
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise AgentError(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
        if time_limit is None and nodes is None:
            nodes = DEFAULT_NODES
        self.time_limit, self.nodes, self.depth = time_limit, nodes, depth
        self.seed = check_seed(seed)
        self.weights = weights or default_weights()
        self.quiescence = quiescence
        self.last_search: Search | None = None

    def search(self, state: State) -> tuple[Search, list[tuple[int, float]]]:
        """Run the search on ``state``: the :class:`Search` and the root scores of the deepest
        completed iteration (at least depth 1, whatever the budget)."""
        turns = legal_or_raise(state)
        search = Search(self.weights, Budget(self.nodes, self.time_limit), self.quiescence)
        rank = list(range(len(turns)))
        position_rng(self.seed, state).shuffle(rank)  # equal turns: a seeded pick
        scores = None
        for _, found in search.deepen(state, self.depth, rank=rank):
            scores = found
        if scores is None:  # not even depth 1 within the budget: finish it without one
            search.budget = Budget(None, None)
            scores = search.root(state, 1, rank=rank)
            search.completed_depth = 1
        self.last_search = search
        return search, scores

    def choose(self, state: State) -> Turn:
        _, scores = self.search(state)
        return state.successors()[scores[0][0]][0]

    def __repr__(self) -> str:
        budget = f"nodes={self.nodes}" if self.time_limit is None else f"time={self.time_limit}"
        return f"AlphaBetaAgent({budget}, seed={self.seed})"


__all__ = ["QUIESCENCE_PLIES", "AlphaBetaAgent", "Search"]
