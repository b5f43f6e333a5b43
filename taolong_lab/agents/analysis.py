"""Analysis of a position: its score, the best line and a score for every legal action.

:func:`analyse` runs the alpha-beta search with a full window on every action at the root, so
each action's score is exact at the depth reached. Proved results are marked: a score past
:data:`~.evaluation.MATE_BOUND` is a win or a loss in a known number of plies, found by the search
itself; in Tao Long's solo variant the shortest-win solver (:func:`taolong_lab.solve`) is asked
first, within the same budget, and its optimum, when it proves one, is the position's result.

It analyses a position of any game of one or two players (a Tao Long ``State`` or a
:class:`~taolong_lab.games.GameState`). In a game with hidden information each action's score
is its mean over positions drawn from what the player to move sees; nothing is marked proved
there, and the line is the best action alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Line, State
from ..games import GameState, TaoLongState, Trajectory
from .alphabeta import MAX_DEPTH, Search
from .base import AgentError, Budget, check_budget, check_samples, game_state, position_rng, worlds
from .evaluation import MATE_BOUND, WIN, Weights

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

    ``score``: from the player to move (positive: it stands better), ``player`` its name;
    ``white_score`` the same from the first player's side (white's in Tao Long). ``proved``:
    ``"win"`` or ``"loss"`` for the player to move when proved, in ``plies`` plies (turns, in
    the solo variant), else None. ``line``: the principal variation, a
    :class:`~taolong_lab.Line` from a Tao Long position, else a
    :class:`~taolong_lab.games.Trajectory`. ``turns``: every legal action's
    :class:`TurnScore`, best first. ``depth``: the plies searched; ``nodes``: positions made;
    ``source``: ``"search"``, ``"solver"`` (the solo solver proved the result) or ``"rules"``
    (the game is over).
    """

    state: State | GameState
    score: float
    white_score: float
    proved: str | None
    plies: int | None
    line: Line
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
    weights: Weights | None = None,
    samples: int = 8,
) -> Analysis:
    """Analyse ``state``: the score, the principal variation and every legal action's score.

    Parameters
    ----------
    state
        A Tao Long position of any scenario, mode and edition, two-player or solo, or a
        position of another game of one or two players.
    time_limit, nodes
        The budget: seconds and/or positions made (default ``nodes=20000`` when neither is
        given); the result of the deepest completed depth is returned.
    depth
        The deepest search, in plies.
    weights
        Tao Long's evaluation weights (default: ``data/evaluation.toml``).
    samples
        Positions drawn from what the player sees, in a game with hidden information.

    Returns
    -------
    Analysis

    Raises
    ------
    AgentError
        On a bad budget or depth, or when a chance event is next.

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
    check_samples(samples)
    if time_limit is None and nodes is None:
        nodes = DEFAULT_NODES
    played = game_state(state)
    viewer = _viewer(played)
    if isinstance(played, TaoLongState):  # the colour to move, in the solo variant too
        name, sign = played.state.to_move, 1 if played.state.mover == 0 else -1
    else:
        name, sign = played.player_names()[viewer], 1 if viewer == 0 else -1
    if played.is_terminal():
        won = played.returns()[viewer] >= 1
        score = WIN if won else -WIN
        proved = "win" if won else "loss"
        line = _line(played, [])
        return Analysis(state, score, sign * score, proved, 0, line, (), 0, 0, "rules", name)
    if played.is_chance():
        raise AgentError("a chance event is next: analyse the position after one of its outcomes")
    if played.game.hidden:
        return _analyse_hidden(
            state, played, sign, name, time_limit, nodes, depth, weights, samples
        )
    raw = played.state if isinstance(played, TaoLongState) else None
    solved = _solo_solution(raw, time_limit, nodes) if raw is not None and raw.rules.solo else None
    search = Search(weights, Budget(nodes, time_limit))
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
    line = _line(played, search.principal_variation(played, search.completed_depth))
    source = "search"
    if solved is not None:
        proved, plies, source = "win", solved.optimum, "solver"
        line = Line(raw, solved.line)
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
        name,
    )


def _viewer(state: GameState) -> int:
    """The player the scores are for: the player to move (in Tao Long, the side to move; the
    first player once another game is over)."""
    if isinstance(state, TaoLongState):
        return 0 if state.players == 1 else state.state.mover
    return max(state.current_player(), 0)


def _line(start: GameState, actions: list):
    """The line from ``start``: a Tao Long ``Line``, else a ``Trajectory``."""
    if isinstance(start, TaoLongState):
        return Line(start.state, actions)
    return Trajectory(start, actions)


def _analyse_hidden(state, played, sign, name, time_limit, nodes, depth, weights, samples):
    """Each action's mean score over positions drawn from what the player to move sees."""
    drawn = worlds(played, position_rng(0, played), samples)
    legal = played.legal_actions()
    totals = {str(action): 0.0 for action in legal}
    reached, used = MAX_DEPTH, 0
    for world in drawn:
        share_nodes = None if nodes is None else max(1, nodes // len(drawn))
        share_time = None if time_limit is None else time_limit / len(drawn)
        search = Search(weights, Budget(share_nodes, share_time))
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
        reached, used = min(reached, search.completed_depth), used + search.budget.used
    ranked = sorted(legal, key=lambda action: -totals[str(action)])
    turns = tuple(TurnScore(action, totals[str(action)], None, None) for action in ranked)
    best = turns[0].score
    line = _line(played, [ranked[0]])
    return Analysis(
        state, best, sign * best, None, None, line, turns, reached, used, "search", name
    )


def _solo_solution(state: State, time_limit, nodes):
    """The solo solver's optimal solution within the budget, or None."""
    from ..solvers import solve

    solution = solve(state, time_limit=time_limit, max_states=nodes, progress=False)
    return solution if solution.status == "optimal" else None


__all__ = ["Analysis", "TurnScore", "analyse"]
