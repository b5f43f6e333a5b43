"""Search over positions: the state graph and retrograde analysis (``graph``), and the
explicit shortest-win solver for solo challenges (``explicit``).

>>> from taolong_lab import solo_game
>>> from taolong_lab.solvers import explore
>>> g = explore(solo_game(), depth=1)
>>> g.depth[0], g.expanded[0], len(g) > 1
(0, True, True)
"""

from .explicit import Solution, lower_bound, replay, solve
from .graph import Edge, Node, Retrograde, StateGraph, explore, iter_explore, retrograde

__all__ = [
    "Edge",
    "Node",
    "Retrograde",
    "Solution",
    "StateGraph",
    "explore",
    "iter_explore",
    "lower_bound",
    "replay",
    "retrograde",
    "solve",
]
