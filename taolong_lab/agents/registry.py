"""The agents by name: each one's class, the keys of its spec and a line of help, for the
command line (``taolong play --vs``, ``tournament``, ``balance``), the Explorer's game widget,
the benchmarks and the docs' table (docs/agents.md).

An agent is named by a spec, ``NAME[:key=value,...]``, e.g. ``alphabeta:time=1,depth=3``:
the keys are :data:`KEYS` (``time`` is seconds a move, the class's ``time_limit``).

>>> [kind.name for kind in agents()]
['random', 'greedy', 'alphabeta', 'mcts']
>>> agent_from_spec("alphabeta:nodes=500,depth=3,seed=2")
AlphaBetaAgent(nodes=500, depth=3, seed=2)
>>> agent_from_spec("greedy", time=1.0)  # a budget goes to the agents that take one
GreedyAgent(seed=0)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import TaoLongError
from ..rules.data import shown
from .alphabeta import AlphaBetaAgent
from .base import AgentError, GreedyAgent, RandomAgent
from .mcts import MCTSAgent

KEYS = {
    "time": "seconds a move",
    "nodes": "positions a move",
    "seed": "the random seed",
    "depth": "the deepest search, in plies",
    "samples": "positions drawn from what the player sees (hidden information)",
}
"""Every key of a spec, with what it sets."""
BUDGET = ("time", "nodes")
"""The keys of a move's budget."""
MAX_SPEC = 200
"""The longest spec read."""


@dataclass(frozen=True)
class AgentKind:
    """A registered agent: its ``name`` in a spec, its class (``make``), the keys of its spec
    (of :data:`KEYS`) and a line of ``help``."""

    name: str
    make: type
    keys: tuple[str, ...]
    help: str

    def takes_budget(self) -> bool:
        """Whether it takes a move's budget (``time``, ``nodes``): a search agent."""
        return any(key in self.keys for key in BUDGET)


_AGENTS = {
    kind.name: kind
    for kind in (
        AgentKind("random", RandomAgent, ("seed",), "a legal action at random"),
        AgentKind(
            "greedy",
            GreedyAgent,
            ("seed", "samples"),
            "the action whose position the game's evaluation scores best, one action ahead",
        ),
        AgentKind(
            "alphabeta",
            AlphaBetaAgent,
            ("time", "nodes", "seed", "depth", "samples"),
            "alpha-beta search: iterative deepening, quiescence, expectation nodes",
        ),
        AgentKind(
            "mcts",
            MCTSAgent,
            ("time", "nodes", "seed"),
            "Monte Carlo tree search: UCT with evaluated playouts and MCTS-Solver proofs",
        ),
    )
}


def agents() -> tuple[AgentKind, ...]:
    """Every registered agent, in the order the docs list them.

    Returns
    -------
    tuple of AgentKind
    """
    return tuple(_AGENTS.values())


def agent_kind(name: str) -> AgentKind:
    """The registered agent called ``name``.

    Parameters
    ----------
    name : str
        E.g. ``"alphabeta"``.

    Returns
    -------
    AgentKind

    Raises
    ------
    AgentError
        No agent has that name (the message lists them).
    """
    found = _AGENTS.get(name) if isinstance(name, str) else None
    if found is None:
        raise AgentError(f"unknown agent {shown(name)}; agents: {', '.join(_AGENTS)}")
    return found


def agent_from_spec(
    spec: str, *, time: float | None = None, nodes: int | None = None, seed: int | None = None
):
    """The agent a spec names: ``NAME[:key=value,...]``.

    Parameters
    ----------
    spec : str
        E.g. ``"alphabeta:time=1"`` or ``"mcts:nodes=2000,seed=3"``.
    time, nodes : float, int or None
        A budget a move for an agent that takes one and whose spec gives none.
    seed : int or None
        The seed, when the spec gives none.

    Returns
    -------
    object
        The agent.

    Raises
    ------
    AgentError
        An unknown agent or key, or a bad value, naming the spec.
    """
    if not isinstance(spec, str) or len(spec) > MAX_SPEC:
        raise AgentError(f"agent {shown(spec)}: a spec is NAME[:key=value,...]")
    name, _, rest = spec.strip().partition(":")
    try:
        kind = agent_kind(name)
    except AgentError as exc:
        raise AgentError(f"agent {shown(spec)}: {exc}") from None
    given = _keys(spec, kind, rest)
    if kind.takes_budget() and not any(key in given for key in BUDGET):
        given.update({k: v for k, v in (("time", time), ("nodes", nodes)) if v is not None})
    if seed is not None:
        given.setdefault("seed", seed)
    arguments = {("time_limit" if key == "time" else key): value for key, value in given.items()}
    try:
        return kind.make(**arguments)
    except TaoLongError as exc:
        raise AgentError(f"agent {shown(spec)}: {exc}") from None


def _keys(spec: str, kind: AgentKind, rest: str) -> dict:
    """The ``key=value`` pairs of a spec, each a key of ``kind`` with a number."""
    given: dict = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = pair.partition("=")
        if not eq or key not in kind.keys:
            keys = ", ".join(kind.keys)
            raise AgentError(
                f"agent {shown(spec)}: {shown(pair)}: {kind.name} takes key=value with the "
                f"keys {keys}"
            )
        try:
            given[key] = float(raw) if key == "time" else int(raw)
        except ValueError:
            raise AgentError(f"agent {shown(spec)}: {key}: not a number: {shown(raw)}") from None
    return given


__all__ = ["BUDGET", "KEYS", "AgentKind", "agent_from_spec", "agent_kind", "agents"]
