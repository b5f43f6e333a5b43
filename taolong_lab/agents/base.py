"""The agent protocol, the move budget, and the two simple agents.

An agent is an object with ``choose(state)``: one of the legal actions of the player to move.
``state`` is a position of any game of the protocol (:class:`taolong_lab.games.GameState`; a
Tao Long :class:`~taolong_lab.State` is wrapped as a :class:`~taolong_lab.games.TaoLongState`
first, whose actions are its :class:`~taolong_lab.Turn` values). Each agent takes a budget per
move, ``time_limit=`` (seconds) and/or ``nodes=`` (positions made), and a ``seed``. With a node
budget and no time limit an agent is deterministic: the same position gives the same action.

In a game with hidden information an agent looks only at what the player to move sees: it
plays on positions drawn from that (:meth:`~taolong_lab.games.GameState.sample`), and its
random source is seeded from the player's observation, never from the hidden part.

>>> from taolong_lab.games import game
>>> agent, start = RandomAgent(seed=3), game("taolong").new()
>>> agent.choose(start) == agent.choose(start)
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..errors import TaoLongError
from ..games import GameState
from ..limits import MAX_SEED
from ..solvers.common import Budget
from .scoring import Evaluation, evaluation_for

MAX_NODES = 100_000_000
MAX_TIME = 24 * 3600.0
SAMPLES = 8
"""Positions drawn from what the player sees, by default, in a game with hidden information."""


class AgentError(TaoLongError):
    """A bad agent argument (budget, seed, depth, name) or a position with no turn to play.
    Names the argument at fault."""


@runtime_checkable
class Agent(Protocol):
    """What every agent is: a name and ``choose``."""

    name: str

    def choose(self, state):
        """The action to play in ``state``, a :class:`~taolong_lab.games.GameState`: one of
        its legal actions."""


def check_budget(nodes, time_limit) -> None:
    """Raise :class:`AgentError` unless ``nodes`` is None or a whole number from 1 to
    :data:`MAX_NODES` and ``time_limit`` None or a number of seconds from 0 to :data:`MAX_TIME`."""
    if nodes is not None and (
        isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= MAX_NODES
    ):
        raise AgentError(f"nodes must be a whole number from 1 to {MAX_NODES:,}, not {nodes!r}")
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not 0 < time_limit <= MAX_TIME
    ):
        raise AgentError(f"time_limit must be seconds from 0 to {MAX_TIME:g}, not {time_limit!r}")


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise AgentError(f"seed must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    return seed


def game_state(state) -> GameState:
    """``state``, checked to be a position of the game protocol.

    Parameters
    ----------
    state : GameState
        A position of any game.

    Returns
    -------
    GameState
        ``state``.

    Raises
    ------
    AgentError
        Anything else (a Tao Long ``State`` is wrapped first:
        ``taolong_lab.games.TaoLongState(state)``).
    """
    if isinstance(state, GameState):
        return state
    raise AgentError(
        f"an agent plays a GameState, not {type(state).__name__}"
        " (wrap a Tao Long State: taolong_lab.games.TaoLongState(state))"
    )


def position_rng(seed: int, state) -> random.Random:
    """A random source for one move: the same for the same seed and what the player to move
    sees (in a game of perfect information, the position), in any process."""
    state = game_state(state)
    player = state.current_player()
    view = state.observation(player) if player >= 0 else state.to_string()
    return random.Random(f"{seed}:{view}")


def legal_or_raise(state) -> list:
    """The legal actions of the player to move; :class:`AgentError` when the game is over or
    a chance event is next."""
    state = game_state(state)
    if state.is_terminal():
        raise AgentError(f"no turn to choose: the game is over ({state.outcome_text()})")
    if state.is_chance():
        raise AgentError("no turn to choose: a chance event is next (one of chance_outcomes())")
    return state.legal_actions()


def evaluation_of(state: GameState, evaluation) -> Evaluation:
    """The evaluation an agent uses: ``evaluation`` when it is an :class:`~.scoring.Evaluation`,
    else the game's, with ``evaluation`` as its weights (Tao Long's ``Weights``, or None for
    the game's defaults; see :mod:`.scoring`)."""
    if isinstance(evaluation, Evaluation):
        return evaluation
    return evaluation_for(state, evaluation)


def worlds(state: GameState, rng: random.Random, count: int) -> list[GameState]:
    """The positions an agent plays on: ``state`` itself in a game of perfect information,
    else ``count`` positions drawn from what the player to move sees."""
    if not state.game.hidden:
        return [state]
    player = state.current_player()
    return [state.sample(player, rng) for _ in range(count)]


def expected_score(evaluation: Evaluation, state: GameState, player: int) -> float:
    """``player``'s score of ``state``; at a chance node, the mean over the outcomes weighted
    by their probabilities."""
    if state.is_chance():
        return sum(
            probability * expected_score(evaluation, state.apply(outcome), player)
            for outcome, probability in state.chance_outcomes()
        )
    return evaluation.scores(state)[player]


def agent_repr(name: str, keys: dict) -> str:
    """An agent's repr: its class, the keys its spec takes that differ from the defaults
    (None: not given), then its seed (last, so that a record's description drops it).

    >>> agent_repr("AlphaBetaAgent", {"nodes": 500, "depth": None, "seed": 2})
    'AlphaBetaAgent(nodes=500, seed=2)'
    """
    shown = ", ".join(f"{key}={value!r}" for key, value in keys.items() if value is not None)
    return f"{name}({shown})"


def check_samples(samples) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 1000:
        raise AgentError(f"samples must be a whole number from 1 to 1000, not {samples!r}")
    return samples


class RandomAgent:
    """Plays a legal action drawn at random (seeded per position).

    Parameters
    ----------
    seed
        The random seed.
    """

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = check_seed(seed)

    def choose(self, state):
        actions = legal_or_raise(state)
        return position_rng(self.seed, state).choice(actions)

    def __repr__(self) -> str:
        return agent_repr("RandomAgent", {"seed": self.seed})


class GreedyAgent:
    """Plays the action whose position scores best by the game's evaluation, one action ahead
    (the mean over the chance outcomes that follow it, and over ``samples`` positions drawn
    from what the player sees when the game hides information); ties are broken at random
    (seeded per position).

    Parameters
    ----------
    seed
        The random seed for ties.
    weights
        The game's tuning of its heuristic (Tao Long's
        :class:`~taolong_lab.games.taolong.Weights`, default ``data/evaluation.toml``); a
        game without any ignores it (see :mod:`.scoring`).
    samples
        Positions drawn from what the player sees, in a game with hidden information.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, weights=None, samples: int = SAMPLES):
        self.seed = check_seed(seed)
        self.weights = weights
        self.samples = check_samples(samples)

    def choose(self, state):
        actions = legal_or_raise(state)
        state = game_state(state)
        player = state.current_player()
        evaluation = evaluation_of(state, self.weights)
        rng = position_rng(self.seed, state)
        if state.game.hidden:  # the same actions in every world drawn: summed by notation
            totals: dict[str, float] = {}
            for world in worlds(state, rng, self.samples):
                for action, after in world.successors():
                    score = expected_score(evaluation, after, player)
                    totals[str(action)] = totals.get(str(action), 0.0) + score
            scored = [(action, totals[str(action)]) for action in actions]
        else:
            scored = [
                (action, expected_score(evaluation, after, player))
                for action, after in state.successors()
            ]
        best, best_score = [], None
        for action, score in scored:
            if best_score is None or score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[0] if len(best) == 1 else rng.choice(best)

    def __repr__(self) -> str:
        samples = None if self.samples == SAMPLES else self.samples
        return agent_repr("GreedyAgent", {"samples": samples, "seed": self.seed})


__all__ = [
    "SAMPLES",
    "Agent",
    "AgentError",
    "Budget",
    "GreedyAgent",
    "RandomAgent",
    "agent_repr",
    "check_budget",
    "check_samples",
    "check_seed",
    "evaluation_of",
    "expected_score",
    "game_state",
    "legal_or_raise",
    "position_rng",
    "worlds",
]
