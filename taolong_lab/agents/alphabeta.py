"""Alpha-beta search: iterative deepening, a transposition table, move ordering, quiescence;
expectation nodes for chance, and positions drawn from what the player sees for hidden
information.

Scores are from the player to move. A won game scores :data:`~taolong_lab.games.WIN` less the plies
from the root to its end, so a quicker win scores higher. The search is negamax: it plays games
of two players whose returns add up to zero, and games of one player (Tao Long's solo
variant), where the player moves at every position and a score passes to the parent unchanged.

At a chance node the score is the mean of its outcomes' scores weighted by their probabilities
(an expectation node, each outcome searched with a full window); a chance event is not a ply.

*Pending* positions and the quiescence step: at the end of the depth, a position is pending
when the game's evaluation says its player to move has a blow to strike (in Tao Long, a bite,
or a breath: an expel of fire or water that hits, which the evaluation's threat feature shows).
There the search goes on with those actions only, at most :data:`QUIESCENCE_PLIES` plies, and
each side may instead stand on the evaluation ("stand pat"). So a leaf is never scored in the
middle of an exchange of blows.

The transposition table is keyed by :meth:`~taolong_lab.games.GameState.key` and lives for one
``choose`` (or ``analyse``) call, so a move depends only on the position, the budget and the
seed. A stored score ends the search of a position only when it was searched to the same depth,
so a search to a fixed depth without quiescence returns the plain minimax value.

In a game with hidden information the agent searches ``samples`` positions drawn from what the
player to move sees, each with its share of the budget, and plays the action with the best
total score (determinisation; docs/games/protocol.md says why).
"""

from __future__ import annotations

from ..games import MATE_BOUND, WIN, GameState
from .base import (
    SAMPLES,
    AgentError,
    Budget,
    agent_repr,
    check_budget,
    check_samples,
    check_seed,
    evaluation_of,
    game_state,
    legal_or_raise,
    position_rng,
    worlds,
)
from .scoring import Evaluation

QUIESCENCE_PLIES = 2
MAX_DEPTH = 64
EXACT, LOWER, UPPER = 0, 1, 2
DEFAULT_NODES = 20_000


class _OutOfBudget(Exception):
    pass


class Search:
    """One alpha-beta search from a root position (used by :class:`AlphaBetaAgent` and
    :func:`~taolong_lab.agents.analysis.analyse`).

    ``evaluation`` is an :class:`~.scoring.Evaluation`, or the weights of the game's own (Tao
    Long's ``Weights``; None: its defaults).
    """

    def __init__(self, evaluation, budget: Budget, quiescence: bool = True):
        self.evaluation, self.budget, self.quiescence = evaluation, budget, quiescence
        self.table: dict = {}  # key -> (depth, score, flag, index of the best action)
        self.completed_depth = 0

    def _prepare(self, state) -> GameState:
        state = game_state(state)
        if not isinstance(self.evaluation, Evaluation):
            self.evaluation = evaluation_of(state, self.evaluation)
        if state.players > 2:
            raise AgentError(
                f"alpha-beta plays games of one or two players, not {state.players}: use MCTSAgent"
            )
        return state

    # ---- scores --------------------------------------------------------------------------
    def static(self, state: GameState, player: int) -> float:
        return self.evaluation.scores(state, self.budget)[player]

    def terminal(self, state: GameState, ply: int, player: int) -> float:
        value = state.returns()[player]
        if value >= 1:
            return WIN - ply
        if value <= -1:
            return -(WIN - ply)
        return self.static(state, player)

    def _children(self, state: GameState, depth: int, rank=None) -> list:
        """The successors, best first: the stored best action, then by the harm done (the
        evaluation's tactics), then (deep in the tree) by the evaluation; ``rank`` (index ->
        number) breaks the last ties."""
        pairs = state.successors()
        if self.budget.spend(len(pairs)):
            raise _OutOfBudget
        entry = self.table.get(state.key())
        first = entry[3] if entry is not None else -1
        me = state.current_player()
        rank = rank or range(len(pairs))
        tactics = self.evaluation.tactics

        def order(item):
            i, (_, after) = item
            if i == first:
                return (0, 0.0, rank[i])
            if after.is_terminal():
                won = after.returns()[me] >= 1
                return (1, -1.0 if won else 1.0, rank[i])
            guess = self.static(after, me) if depth >= 2 else 0.0
            return (2, -(tactics(state, after) * 1000 + guess), rank[i])

        return sorted(enumerate(pairs), key=order)

    # ---- the search ----------------------------------------------------------------------
    def value(
        self, state: GameState, depth: int, alpha: float, beta: float, ply: int, me: int
    ) -> float:
        """The score of ``state`` for player ``me``, searched within (``alpha``, ``beta``)."""
        if state.is_terminal():
            return self.terminal(state, ply, me)
        player = state.current_player()
        if player < 0:
            return self.expectation(state, depth, ply, me)
        if player == me:
            return self.search(state, depth, alpha, beta, ply)
        return -self.search(state, depth, -beta, -alpha, ply)

    def expectation(self, state: GameState, depth: int, ply: int, me: int) -> float:
        """A chance node: its outcomes' scores for ``me`` weighted by their probabilities."""
        outcomes = state.chance_outcomes()
        if self.budget.spend(len(outcomes)):
            raise _OutOfBudget
        return sum(
            probability * self.value(state.apply(outcome), depth, -2 * WIN, 2 * WIN, ply, me)
            for outcome, probability in outcomes
        )

    def search(self, state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The score of ``state``, a position where a player is to move, for that player."""
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
        me = state.current_player()
        start_alpha = alpha
        best, best_index = -2 * WIN, -1
        for i, (_, after) in self._children(state, depth):
            score = self.value(after, depth - 1, alpha, beta, ply + 1, me)
            if score > best:
                best, best_index = score, i
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, _to_table(best, ply), flag, best_index)
        return best

    def settle(self, state: GameState, alpha: float, beta: float, ply: int, left: int) -> float:
        """The quiescence step (see the module docstring)."""
        me = state.current_player()
        stand = self.static(state, me)
        if not self.quiescence or left == 0:
            return stand
        if not self.evaluation.pending(state):
            return stand  # not pending: no blow to strike
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        best = stand
        pairs = state.successors()
        if self.budget.spend(len(pairs)):
            raise _OutOfBudget
        for _, after in pairs:
            if not self.evaluation.noisy(state, after):
                continue
            if after.is_terminal():
                score = self.terminal(after, ply + 1, me)
            elif after.is_chance():
                score = self.static(after, me)
            elif after.current_player() == me:
                score = self.settle(after, alpha, beta, ply + 1, left - 1)
            else:
                score = -self.settle(after, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def root(self, state, depth: int, every: bool = False, rank=None) -> list:
        """Search the root to ``depth``: ``(index of the action, score)`` for each action,
        best first. The first score is exact; the others are exact with ``every`` (each
        action gets a full window), else upper bounds. ``rank`` breaks ties in the search
        order."""
        state = self._prepare(state)
        me = state.current_player()
        alpha, beta = -2 * WIN, 2 * WIN
        scores = []
        for i, (_, after) in self._children(state, depth, rank):
            window = (-2 * WIN, 2 * WIN) if every else (alpha, beta)
            scores.append((i, self.value(after, depth - 1, window[0], window[1], 1, me)))
            alpha = max(alpha, scores[-1][1])
        scores.sort(key=lambda pair: -pair[1])  # stable: the first of equal scores is exact
        self.table[state.key()] = (depth, _to_table(scores[0][1], 0), EXACT, scores[0][0])
        return scores

    def deepen(self, state, max_depth: int, every: bool = False, rank=None):
        """Iterative deepening to ``max_depth`` or until the budget is spent; yields each
        completed depth and its root scores (see :meth:`root`)."""
        state = self._prepare(state)
        for depth in range(1, max_depth + 1):
            try:
                scores = self.root(state, depth, every, rank)
            except _OutOfBudget:
                return
            self.completed_depth = depth
            yield depth, scores
            if abs(scores[0][1]) > MATE_BOUND:
                return  # the shortest win, or every action loses: deeper cannot change it

    def principal_variation(self, state, limit: int) -> list:
        """The best actions stored from ``state`` on, while the table has them (up to a
        chance event)."""
        state = game_state(state)
        line, seen = [], set()
        while len(line) < limit and not state.is_terminal() and not state.is_chance():
            entry = self.table.get(state.key())
            if entry is None or entry[3] < 0 or state.key() in seen:
                break
            seen.add(state.key())
            action = state.legal_actions()[entry[3]]
            line.append(action)
            state = state.apply(action)
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
    """Alpha-beta with iterative deepening, a transposition table, move ordering, a
    quiescence step and expectation nodes (see the module docstring).

    Parameters
    ----------
    time_limit, nodes
        The budget per move: seconds and/or positions made (default ``nodes=20000`` when
        neither is given). Deterministic with ``nodes`` and no ``time_limit``.
    depth
        The deepest iteration (default :data:`MAX_DEPTH`).
    seed
        Breaks ties between equally scored actions (seeded per position).
    weights
        The game's tuning of its heuristic (Tao Long's
        :class:`~taolong_lab.games.taolong.Weights`, default ``data/evaluation.toml``); a
        game without any ignores it (see :mod:`.scoring`).
    quiescence
        Whether leaves go through the quiescence step.
    samples
        Positions drawn from what the player sees, in a game with hidden information.
    """

    name = "alphabeta"

    def __init__(
        self,
        *,
        time_limit: float | None = None,
        nodes: int | None = None,
        depth: int = MAX_DEPTH,
        seed: int = 0,
        weights=None,
        quiescence: bool = True,
        samples: int = SAMPLES,
    ):
        check_budget(nodes, time_limit)
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise AgentError(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
        if time_limit is None and nodes is None:
            nodes = DEFAULT_NODES
        self.time_limit, self.nodes, self.depth = time_limit, nodes, depth
        self.seed = check_seed(seed)
        self.weights = weights
        self.quiescence = quiescence
        self.samples = check_samples(samples)
        self.last_search: Search | None = None

    def search(self, state, share: int = 1, every: bool = False):
        """Run the search on ``state``: the :class:`Search` and the root scores of the deepest
        completed iteration (at least depth 1, whatever the budget); ``share`` divides the
        budget, ``every`` makes every root score exact."""
        legal_or_raise(state)
        state = game_state(state)
        nodes = None if self.nodes is None else max(1, self.nodes // share)
        time_limit = None if self.time_limit is None else self.time_limit / share
        search = Search(self.weights, Budget(nodes, time_limit), self.quiescence)
        rank = list(range(len(state.legal_actions())))
        position_rng(self.seed, state).shuffle(rank)  # equal actions: a seeded pick
        scores = None
        for _, found in search.deepen(state, self.depth, every, rank=rank):
            scores = found
        if scores is None:  # not even depth 1 within the budget: finish it without one
            search.budget = Budget(None, None)
            scores = search.root(state, 1, every, rank=rank)
            search.completed_depth = 1
        self.last_search = search
        return search, scores

    def choose(self, state):
        legal = legal_or_raise(state)
        state = game_state(state)
        if not state.game.hidden:
            _, scores = self.search(state)
            return state.legal_actions()[scores[0][0]]
        totals = {str(action): 0.0 for action in legal}
        rng = position_rng(self.seed, state)
        drawn = worlds(state, rng, self.samples)
        for world in drawn:
            _, scores = self.search(world, share=len(drawn), every=True)
            actions = world.legal_actions()
            for index, score in scores:
                totals[str(actions[index])] += score
        best = max(totals.values())
        return rng.choice([action for action in legal if totals[str(action)] == best])

    def __repr__(self) -> str:
        return agent_repr(
            "AlphaBetaAgent",
            {
                "time": self.time_limit,
                "nodes": self.nodes,
                "depth": None if self.depth == MAX_DEPTH else self.depth,
                "samples": None if self.samples == SAMPLES else self.samples,
                "seed": self.seed,
            },
        )


__all__ = ["QUIESCENCE_PLIES", "AlphaBetaAgent", "Search"]
