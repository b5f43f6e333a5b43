"""Analysis of a position: its score, the best line and a score for every legal action.

:func:`analyse` runs the alpha-beta search with a full window on every action at the root, so
each action's score is exact at the depth reached. Proved results are marked: a score past
:data:`~taolong_lab.games.MATE_BOUND` is a win or a loss in a known number of plies, found by
the search itself; in Tao Long's solo variant the shortest-win solver
(:func:`taolong_lab.solve`) is asked first, within the same budget, and its optimum, when it
proves one, is the position's result.

It analyses a position of any game of one or two players (a
:class:`~taolong_lab.games.GameState`; :func:`taolong_lab.analyse` takes a Tao Long ``State``
too). The scores are from the side to move (:meth:`~taolong_lab.games.GameState.side_to_move`:
in Tao Long the colour to move, in the solo variant too). In a game with hidden information
each action's score is its mean over positions drawn from what the player to move sees;
nothing is marked proved there, and the line is the best action alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import TaoLongError
from ..games import MATE_BOUND, TAOLONG, WIN, GameState, Trajectory
from .alphabeta import MAX_DEPTH, Search
from .base import (
    AgentError,
    Budget,
    check_budget,
    check_samples,
    check_seed,
    game_state,
    position_rng,
    worlds,
)

DEFAULT_NODES = 20_000


@dataclass(frozen=True)
class TurnScore:
    """One legal action's score, from the player to move; ``proved`` is ``"win"``, ``"loss"``
    or None, and ``plies`` the plies to that end when proved."""

    turn: object
    score: float
    proved: str | None
    plies: int | None


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found.

    ``score``: from the side to move (positive: it stands better), ``player`` its name;
    ``white_score`` the same from the first side's (white's in Tao Long). ``proved``:
    ``"win"`` or ``"loss"`` for the side to move when proved, in ``plies`` plies (turns, in
    the solo variant), else None. ``line``: the principal variation, a
    :class:`~taolong_lab.games.Trajectory` (a :class:`~taolong_lab.Line` from
    :func:`taolong_lab.analyse` of a Tao Long ``State``). ``turns``: every legal action's
    :class:`TurnScore`, best first. ``depth``: the plies searched; ``nodes``: positions made;
    ``source``: ``"search"``, ``"solver"`` (the solo solver proved the result) or ``"rules"``
    (the game is over).
    """

    state: GameState
    score: float
    white_score: float
    proved: str | None
    plies: int | None
    line: Trajectory
    turns: tuple[TurnScore, ...]
    depth: int
    nodes: int
    source: str
    player: str = ""

    def __str__(self) -> str:
        head = f"{self.proved} in {self.plies}" if self.proved else f"{self.score:+.1f}"
        head += "" if self.proved or not self.player else f" for {self.player}"
        return f"{head} (depth {self.depth}): {self.line.text() or '(no turn)'}"


def _proof(score: float) -> tuple[str | None, int | None]:
    if score > MATE_BOUND:
        return "win", int(WIN - score)
    if score < -MATE_BOUND:
        return "loss", int(WIN + score)
    return None, None


def analyse(
    state,
    *,
    time_limit: float | None = None,
    nodes: int | None = None,
    depth: int = MAX_DEPTH,
    weights=None,
    samples: int = 8,
    seed: int = 0,
) -> Analysis:
    """Analyse ``state``: the score, the principal variation and every legal action's score.

    Parameters
    ----------
    state : GameState
        A position of a game of one or two players: Tao Long's of any scenario, mode and
        edition, two-player or solo (a :class:`~taolong_lab.games.TaoLongState`), or
        another game's.
    time_limit, nodes
        The budget: seconds and/or positions made (default ``nodes=20000`` when neither is
        given); the result of the deepest completed depth is returned.
    depth
        The deepest search, in plies.
    weights
        The game's tuning of its heuristic (Tao Long's ``Weights``; default: its own).
    samples
        Positions drawn from what the player sees, in a game with hidden information.
    seed
        The seed of those draws. With ``nodes`` and no ``time_limit`` the analysis depends
        only on the position, the budget and the seed.

    Returns
    -------
    Analysis

    Raises
    ------
    AgentError
        On a bad budget or depth, or when a chance event is next.

    Examples
    --------
    >>> from taolong_lab.games import game
    >>> start = game("taolong").new()
    >>> found = analyse(start, nodes=2000)
    >>> len(found.turns) == len(start.legal_actions()), found.line.start == start
    (True, True)
    """
    _check_arguments(nodes, time_limit, depth, samples, seed)
    if time_limit is None and nodes is None:
        nodes = DEFAULT_NODES
    played = game_state(state)
    side = played.side_to_move()
    name, sign = played.sides()[side], 1 if side == 0 else -1
    if played.is_terminal():
        return _at_the_end(played, side, sign, name)
    if played.is_chance():
        raise AgentError("a chance event is next: analyse the position after one of its outcomes")
    if played.game.hidden:
        budget = (time_limit, nodes, depth)
        return _analyse_hidden(played, sign, name, budget, weights, samples, seed)
    solved = _solo_solution(played, time_limit, nodes)
    search = Search(weights, Budget(time_limit, nodes))
    scores = None
    for _, found in search.deepen(played, depth, every=True):
        scores = found
    if scores is None:  # not even depth 1 within the budget: finish it without one
        search.budget = Budget(None, None)
        scores = search.root(played, 1, every=True)
        search.completed_depth = 1
    actions = played.legal_actions()
    turns = tuple(TurnScore(actions[i], score, *_proof(score)) for i, score in scores)
    best = turns[0].score
    proved, plies = _proof(best)
    line = Trajectory(played, search.principal_variation(played, search.completed_depth))
    source = "search"
    if solved is not None:
        proved, plies, source = "win", solved.optimum, "solver"
        line = Trajectory(played, solved.line)
        best = max(best, WIN - plies)
    return Analysis(
        played,
        best,
        sign * best,
        proved,
        plies,
        line,
        turns,
        search.completed_depth,
        search.budget.expanded,
        source,
        name,
    )


@dataclass(frozen=True)
class AnalysisSettings:
    """How :func:`analyse` runs on each position of a series (a review's, an opening
    table's): the budget a position (``nodes`` positions and/or ``time_limit`` seconds), the
    deepest search in plies (``depth``), the ``seed`` and the game's tuning of its heuristic
    (``weights``).

    >>> AnalysisSettings().checked(AgentError, 500).nodes
    500
    """

    nodes: int | None = None
    time_limit: float | None = None
    depth: int = MAX_DEPTH
    seed: int = 0
    weights: object = None

    def checked(self, error: type[TaoLongError], default_nodes: int) -> AnalysisSettings:
        """These settings, their budget and seed checked, with ``nodes=default_nodes`` when
        no budget is given.

        Parameters
        ----------
        error : type
            The error a bad budget or seed raises, with the reason.
        default_nodes : int
            The positions searched a position when neither ``nodes`` nor ``time_limit`` is
            given.

        Returns
        -------
        AnalysisSettings

        Raises
        ------
        TaoLongError
            ``error``: a bad budget or seed.
        """
        try:
            check_budget(self.nodes, self.time_limit)
            check_seed(self.seed)
        except TaoLongError as exc:
            raise error(str(exc)) from None
        if self.nodes is None and self.time_limit is None:
            return replace(self, nodes=default_nodes)
        return self

    def analyse(self, state: GameState) -> Analysis:
        """:func:`analyse` of ``state`` with these settings."""
        return analyse(
            state,
            nodes=self.nodes,
            time_limit=self.time_limit,
            depth=self.depth,
            seed=self.seed,
            weights=self.weights,
        )


def _check_arguments(nodes, time_limit, depth, samples, seed) -> None:
    check_budget(nodes, time_limit)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise AgentError(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
    check_samples(samples)
    check_seed(seed)


def _at_the_end(played, side: int, sign: int, name: str) -> Analysis:
    """The analysis of a finished game: the rules' result, nothing searched."""
    viewer = next((p for p in range(played.players) if played.side_of(p) == side), 0)
    won = played.returns()[viewer] >= 1
    score = WIN if won else -WIN
    proved = "win" if won else "loss"
    return Analysis(
        played, score, sign * score, proved, 0, Trajectory(played), (), 0, 0, "rules", name
    )


def _analyse_hidden(played, sign, name, budget, weights, samples, seed):
    """Each action's mean score over positions drawn from what the player to move sees."""
    time_limit, nodes, depth = budget
    drawn = worlds(played, position_rng(seed, played), samples)
    legal = played.legal_actions()
    totals = {str(action): 0.0 for action in legal}
    reached, used = MAX_DEPTH, 0
    for world in drawn:
        share_nodes = None if nodes is None else max(1, nodes // len(drawn))
        share_time = None if time_limit is None else time_limit / len(drawn)
        search = Search(weights, Budget(share_time, share_nodes))
        scores = None
        for _, found in search.deepen(world, depth, every=True):
            scores = found
        if scores is None:
            search.budget = Budget(None, None)
            scores = search.root(world, 1, every=True)
            search.completed_depth = 1
        actions = world.legal_actions()
        for index, score in scores:
            totals[str(actions[index])] += score / len(drawn)
        reached, used = min(reached, search.completed_depth), used + search.budget.expanded
    ranked = sorted(legal, key=lambda action: -totals[str(action)])
    turns = tuple(TurnScore(action, totals[str(action)], None, None) for action in ranked)
    best = turns[0].score
    line = Trajectory(played, [ranked[0]])
    return Analysis(
        played, best, sign * best, None, None, line, turns, reached, used, "search", name
    )


def _solo_solution(played: GameState, time_limit, nodes):
    """In Tao Long's solo variant, the shortest-win solver's optimal solution within the
    budget; else None (no other game has a solver)."""
    if played.game is not TAOLONG or played.players != 1:
        return None
    from ..solvers import Status, solve

    solution = solve(played.state, time_limit=time_limit, max_states=nodes)
    return solution if solution.status == Status.OPTIMAL else None


__all__ = ["Analysis", "AnalysisSettings", "TurnScore", "analyse"]
