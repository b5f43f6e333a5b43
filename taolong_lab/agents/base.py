"""The agent protocol, the move budget, and the two simple agents.

An agent is an object with ``choose(state) -> Turn``: one of ``state.legal_turns()``, for the
side to move (in the solo variant, the player). Each agent takes a budget per move,
``time_limit=`` (seconds) and/or ``nodes=`` (positions made), and a ``seed``. With a node
budget and no time limit an agent is deterministic: the same position gives the same turn.

>>> from taolong_lab import new_game
>>> agent = RandomAgent(seed=3)
>>> agent.choose(new_game()) == agent.choose(new_game())
True
"""

from __future__ import annotations

import random
import time
from typing import Protocol, runtime_checkable

from ..engine import State, Turn
from ..errors import TaoLongError
from .evaluation import Weights, default_weights, evaluate

MAX_NODES = 100_000_000
MAX_TIME = 24 * 3600.0
MAX_SEED = 2**63


class AgentError(TaoLongError):
    """A bad agent argument (budget, seed, depth, name) or a position with no turn to play.
    Names the argument at fault."""


@runtime_checkable
class Agent(Protocol):
    """What every agent is: a name and ``choose``."""

    name: str

    def choose(self, state: State) -> Turn:
        """The turn to play in ``state`` (one of ``state.legal_turns()``)."""


class Budget:
    """A move's budget: positions made and seconds spent, either or both bounded.

    ``spend()`` counts one position and says whether the budget is spent; the clock is read
    every few positions only.
    """

    __slots__ = ("deadline", "limit", "used")

    def __init__(self, nodes: int | None, time_limit: float | None):
        self.limit = nodes
        self.used = 0
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit

    def spend(self, count: int = 1) -> bool:
        self.used += count
        if self.limit is not None and self.used >= self.limit:
            return True
        return self.deadline is not None and (
            self.used % 64 < count and time.perf_counter() >= self.deadline
        )

    @property
    def spent(self) -> bool:
        if self.limit is not None and self.used >= self.limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


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
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise AgentError(f"seed must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    return seed


def position_rng(seed: int, state: State) -> random.Random:
    """A random source for one move: the same for the same seed and position, in any process."""
    return random.Random(f"{seed}:{state.to_tln()}")


def legal_or_raise(state: State) -> list[Turn]:
    turns = state.legal_turns()
    if not turns:
        raise AgentError(f"no turn to choose: the game is over ({state.outcome()})")
    return turns


def for_mover(score: float, state: State) -> float:
    """A score from white's side seen from the side to move."""
    return score if state.mover == 0 else -score


class RandomAgent:
    """Plays a legal turn drawn at random (seeded per position).

    Parameters
    ----------
    seed
        The random seed.
    """

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = check_seed(seed)

    def choose(self, state: State) -> Turn:
        turns = legal_or_raise(state)
        return position_rng(self.seed, state).choice(turns)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"


class GreedyAgent:
    """Plays the turn whose position scores best by the evaluation, one turn ahead; ties are
    broken at random (seeded per position).

    Parameters
    ----------
    seed
        The random seed for ties.
    weights
        The evaluation's weights (default: ``data/evaluation.toml``).
    """

    name = "greedy"

    def __init__(self, seed: int = 0, weights: Weights | None = None):
        self.seed = check_seed(seed)
        self.weights = weights or default_weights()

    def choose(self, state: State) -> Turn:
        legal_or_raise(state)
        mover = state.mover
        best, best_score = [], None
        for turn, after in state.iter_successors():
            score = evaluate(after, self.weights)
            score = score if mover == 0 else -score
            if best_score is None or score > best_score:
                best, best_score = [turn], score
            elif score == best_score:
                best.append(turn)
        return best[0] if len(best) == 1 else position_rng(self.seed, state).choice(best)

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed})"


__all__ = [
    "Agent",
    "AgentError",
    "Budget",
    "GreedyAgent",
    "RandomAgent",
    "check_budget",
    "check_seed",
    "for_mover",
    "legal_or_raise",
    "position_rng",
]
