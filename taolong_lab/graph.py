"""The state graph: ``taolong_lab.graph.explore`` and the rest of
:mod:`taolong_lab.solvers.graph`, re-exported."""

from .solvers.graph import (
    Edge,
    Node,
    Retrograde,
    StateGraph,
    explore,
    iter_explore,
    retrograde,
    retrograde_two_player,
)

__all__ = [
    "Edge",
    "Node",
    "Retrograde",
    "StateGraph",
    "explore",
    "iter_explore",
    "retrograde",
    "retrograde_two_player",
]
