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
so a search to a fixed depth without quiescence (and without late-move reductions) returns the
plain minimax value.

The usual refinements of alpha-beta, each one of :data:`IMPROVEMENTS` (docs/agents.md gives
the match that measured each; :data:`DEFAULT_IMPROVEMENTS` are those kept):

``pvs``
    principal-variation search: after the first action, each action is searched with a null
    window first, and again with the full window only when it beats the best so far; the root
    searches within an aspiration window around the last iteration's score (half the
    evaluation's scale either side), and again with the full window when the score falls
    outside it;
``killers``
    the move ordering puts, after the actions that deal damage, the two actions that last
    cut the search off at the same ply (killers), then the others by their history (the
    cut-offs they caused, weighted by the depth squared);
``lmr``
    late-move reductions: from the fourth action on, at a depth of at least three, an action
    that deals no damage is first searched one ply shallower with a null window, and at full
    depth only when that beats the best so far (with or without ``pvs``);
``quiescence``
    a deeper and ordered quiescence step: up to :data:`DEEP_QUIESCENCE_PLIES` plies instead
    of :data:`QUIESCENCE_PLIES`, the blows that win or harm most tried first.

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
DEEP_QUIESCENCE_PLIES = 4
MAX_DEPTH = 64
EXACT, LOWER, UPPER = 0, 1, 2
DEFAULT_NODES = 20_000
IMPROVEMENTS = ("pvs", "killers", "lmr", "quiescence")
"""The refinements of the search, in the order they were measured (see the module docstring)."""
DEFAULT_IMPROVEMENTS = ("killers",)
"""The refinements an agent uses unless told otherwise: those their matches kept (each scored
above 50 % against the search without it; docs/agents.md, "The refinements of the search")."""
NULL = 1e-6
"""The width of a null window, in points."""
LMR_AFTER, LMR_DEPTH = 3, 3


class _OutOfBudget(Exception):
    pass


class Search:
    """One alpha-beta search from a root position (used by :class:`AlphaBetaAgent` and
    :func:`~taolong_lab.agents.analysis.analyse`).

    ``evaluation`` is an :class:`~.scoring.Evaluation`, or the weights of the game's own (Tao
    Long's ``Weights``; None: its defaults); ``improvements`` the refinements it uses (of
    :data:`IMPROVEMENTS`).
    """

    def __init__(
        self,
        evaluation,
        budget: Budget,
        quiescence: bool = True,
        improvements=DEFAULT_IMPROVEMENTS,
    ):
        self.evaluation, self.budget, self.quiescence = evaluation, budget, quiescence
        self.use = check_improvements(improvements)
        self.table: dict = {}  # key -> (depth, score, flag, index of the best action)
        self.killers: dict = {}  # ply -> the last two actions that cut the search off
        self.history: dict = {}  # (player, action) -> the cut-offs it caused, by depth squared
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

    def _children(self, state: GameState, depth: int, rank=None, ply: int = 0) -> list:
        """The successors, best first, as ``(index, (action, position), quiet)``: the stored
        best action, then the ends of the game (wins first), then by the harm done (the
        evaluation's tactics); with ``killers``, the actions that deal no damage come after
        those that do, killers first, then by history; deeper in the tree, by the evaluation.
        ``rank`` (index -> number) breaks the last ties."""
        pairs = state.successors()
        if self.budget.spend(len(pairs)):
            raise _OutOfBudget
        entry = self.table.get(state.key())
        first = entry[3] if entry is not None else -1
        me = state.current_player()
        rank = rank or range(len(pairs))
        tactics, noisy = self.evaluation.tactics, self.evaluation.noisy
        killers = self.killers.get(ply, ()) if "killers" in self.use else None
        history = self.history
        asks = killers is not None or "lmr" in self.use  # whether an action's quietness counts
        keyed = []
        for i, (action, after) in enumerate(pairs):
            quiet = asks and not after.is_terminal() and not noisy(state, after)
            if i == first:
                key = (0, 0.0, 0.0, rank[i])
            elif after.is_terminal():
                key = (1, -1.0 if after.returns()[me] >= 1 else 1.0, 0.0, rank[i])
            else:
                guess = self.static(after, me) if depth >= 2 else 0.0
                harm = -(tactics(state, after) * 1000 + guess)
                if killers is None or not quiet:
                    key = (2, harm, 0.0, rank[i])
                elif action in killers:
                    key = (3, float(killers.index(action)), 0.0, rank[i])
                else:
                    key = (4, -history.get((me, action), 0), -guess, rank[i])
            keyed.append((key, i, action, after, quiet))
        keyed.sort(key=lambda item: item[0])
        return [(i, (action, after), quiet) for _, i, action, after, quiet in keyed]

    def _cut_off(self, state: GameState, action, depth: int, ply: int) -> None:
        """Remember a quiet action that cut the search off (killers and history)."""
        if "killers" not in self.use:
            return
        killers = self.killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        key = (state.current_player(), action)
        self.history[key] = self.history.get(key, 0) + depth * depth

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

    def _probe(self, key, depth: int, alpha: float, beta: float, ply: int):
        """The stored score that settles this search, or None."""
        entry = self.table.get(key)
        if entry is None or entry[0] != depth:
            return None
        score = _from_table(entry[1], ply)
        if entry[2] == EXACT:
            return score
        if entry[2] == LOWER and score >= beta:
            return score
        if entry[2] == UPPER and score <= alpha:
            return score
        return None

    def search(self, state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The score of ``state``, a position where a player is to move, for that player."""
        if depth <= 0:
            return self.settle(state, alpha, beta, ply, self._quiescence_plies())
        key = state.key()
        stored = self._probe(key, depth, alpha, beta, ply)
        if stored is not None:
            return stored
        me = state.current_player()
        start_alpha = alpha
        best, best_index = -2 * WIN, -1
        for n, (i, (action, after), quiet) in enumerate(self._children(state, depth, ply=ply)):
            score = self._child(after, depth, alpha, beta, ply, me, n, quiet)
            if score > best:
                best, best_index = score, i
            alpha = max(alpha, score)
            if alpha >= beta:
                if quiet:
                    self._cut_off(state, action, depth, ply)
                break
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, _to_table(best, ply), flag, best_index)
        return best

    def _child(self, after, depth, alpha, beta, ply, me, n: int, quiet: bool) -> float:
        """The score of the ``n``-th child (from 0). The first gets the full window. With
        ``lmr`` a late quiet action is first searched one ply shallower with a null window,
        and no further when it does not beat ``alpha``. With ``pvs`` the others get a null
        window first, and the full window only when they beat ``alpha``."""
        if n == 0:
            return self.value(after, depth - 1, alpha, beta, ply + 1, me)
        if "lmr" in self.use and quiet and n >= LMR_AFTER and depth >= LMR_DEPTH:
            score = self.value(after, depth - 2, alpha, alpha + NULL, ply + 1, me)
            if score <= alpha:
                return score
        if "pvs" not in self.use:
            return self.value(after, depth - 1, alpha, beta, ply + 1, me)
        score = self.value(after, depth - 1, alpha, alpha + NULL, ply + 1, me)
        if alpha < score < beta:
            score = self.value(after, depth - 1, alpha, beta, ply + 1, me)
        return score

    def _quiescence_plies(self) -> int:
        return DEEP_QUIESCENCE_PLIES if "quiescence" in self.use else QUIESCENCE_PLIES

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
        blows = [after for _, after in pairs if self.evaluation.noisy(state, after)]
        if "quiescence" in self.use:
            blows.sort(key=lambda after: self._blow_order(state, after, me))
        for after in blows:
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

    def _blow_order(self, state: GameState, after: GameState, me: int) -> tuple:
        """A blow's place in the ordered quiescence step: a won game first, then the most
        harm done."""
        if after.is_terminal():
            return (0 if after.returns()[me] >= 1 else 2, 0.0)
        return (1, -self.evaluation.tactics(state, after))

    def root(self, state, depth: int, every: bool = False, rank=None, guess=None) -> list:
        """Search the root to ``depth``: ``(index of the action, score)`` for each action,
        best first. The first score is exact; the others are exact with ``every`` (each
        action gets a full window), else upper bounds. ``rank`` breaks ties in the search
        order; ``guess`` (the last iteration's score) centres the aspiration window of
        ``pvs``."""
        state = self._prepare(state)
        wide = (-2 * WIN, 2 * WIN)
        if every or guess is None or "pvs" not in self.use or abs(guess) > MATE_BOUND:
            scores = self._root(state, depth, every, rank, wide)
        else:
            half = self.evaluation.scale / 2
            scores = self._root(state, depth, every, rank, (guess - half, guess + half))
            if not guess - half < scores[0][1] < guess + half:
                scores = self._root(state, depth, every, rank, wide)
        self.table[state.key()] = (depth, _to_table(scores[0][1], 0), EXACT, scores[0][0])
        return scores

    def _root(self, state, depth: int, every: bool, rank, window) -> list:
        me = state.current_player()
        alpha, beta = window
        scores = []
        for n, (i, (_, after), quiet) in enumerate(self._children(state, depth, rank)):
            if every:
                score = self.value(after, depth - 1, -2 * WIN, 2 * WIN, 1, me)
            else:
                score = self._child(after, depth, alpha, beta, 0, me, n, quiet)
            scores.append((i, score))
            alpha = max(alpha, score)
            if alpha >= beta and not every:
                break
        scores.sort(key=lambda pair: -pair[1])  # stable: the first of equal scores is exact
        return scores

    def deepen(self, state, max_depth: int, every: bool = False, rank=None):
        """Iterative deepening to ``max_depth`` or until the budget is spent; yields each
        completed depth and its root scores (see :meth:`root`)."""
        state = self._prepare(state)
        guess = None
        for depth in range(1, max_depth + 1):
            try:
                scores = self.root(state, depth, every, rank, guess)
            except _OutOfBudget:
                return
            self.completed_depth = depth
            guess = scores[0][1]
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


def check_improvements(improvements) -> frozenset:
    """``improvements`` as a set, each one of :data:`IMPROVEMENTS`; :class:`AgentError`
    names one that is not."""
    if isinstance(improvements, str) or not isinstance(
        improvements, tuple | list | frozenset | set
    ):
        raise AgentError(f"improvements must be a tuple of names, not {improvements!r}")
    for name in improvements:
        if name not in IMPROVEMENTS:
            known = ", ".join(IMPROVEMENTS)
            raise AgentError(f"unknown search improvement {name!r} (known: {known})")
    return frozenset(improvements)


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
    improvements
        The refinements of the search (of :data:`IMPROVEMENTS`; default
        :data:`DEFAULT_IMPROVEMENTS`).
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
        improvements=DEFAULT_IMPROVEMENTS,
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
        self.improvements = check_improvements(improvements)
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
        search = Search(self.weights, Budget(time_limit, nodes), self.quiescence, self.improvements)
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
                "improvements": _shown_improvements(self.improvements),
                "samples": None if self.samples == SAMPLES else self.samples,
                "seed": self.seed,
            },
        )


def _shown_improvements(used: frozenset):
    """The improvements for a repr: None when they are the default, else in measured order."""
    if used == frozenset(DEFAULT_IMPROVEMENTS):
        return None
    return tuple(name for name in IMPROVEMENTS if name in used)


__all__ = [
    "DEEP_QUIESCENCE_PLIES",
    "DEFAULT_IMPROVEMENTS",
    "IMPROVEMENTS",
    "QUIESCENCE_PLIES",
    "AlphaBetaAgent",
    "Search",
    "check_improvements",
]
