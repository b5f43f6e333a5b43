"""Search over positions: the state graph and retrograde analysis (``graph``), the explicit
shortest-win solver (``explicit``) and the SAT solver (``sat``) for solo challenges.

>>> from taolong_lab import solo_game
>>> from taolong_lab.solvers import explore
>>> g = explore(solo_game(), depth=1)
>>> g.depth[0], g.expanded[0], len(g) > 1
(0, True, True)
"""

from .common import Solution, SolverError
from .explicit import lower_bound, replay
from .graph import Edge, Node, Retrograde, StateGraph, explore, iter_explore, retrograde

METHODS = ("explicit", "sat", "auto")


def choose_method(puzzle_or_state) -> str:
    """What ``method="auto"`` runs: the SAT solver where it applies (Grasshopper mode), the
    explicit solver otherwise (the SAT encoding covers Grasshopper only)."""
    from .explicit import _start_of

    start = _start_of(puzzle_or_state)
    return "sat" if start.rules.mode == "grasshopper" else "explicit"


def solve(puzzle_or_state, method: str = "explicit", **options) -> Solution:
    """The fewest turns to win a solo challenge, by ``method``: ``"explicit"`` (A* by turns,
    :func:`taolong_lab.solvers.explicit.solve`), ``"sat"`` (incremental SAT with CEGAR,
    :func:`taolong_lab.solvers.sat.solve`) or ``"auto"`` (:func:`choose_method`). The
    options go to that solver (``time_limit``, ``progress``, and ``max_states`` /
    ``checkpoint`` for the explicit one, ``conflict_budget`` for SAT). Both return the same
    :class:`Solution`; its certificate names the solver."""
    if method == "auto":
        method = choose_method(puzzle_or_state)
    if method == "explicit":
        from .explicit import solve as run
    elif method == "sat":
        try:
            from .sat import solve as run
        except ImportError as exc:  # python-sat missing from this installation
            raise SolverError(f"the SAT solver cannot run here: {exc}") from None
    else:
        raise SolverError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    return run(puzzle_or_state, **options)


__all__ = [
    "METHODS",
    "Edge",
    "Node",
    "Retrograde",
    "Solution",
    "SolverError",
    "StateGraph",
    "choose_method",
    "explore",
    "iter_explore",
    "lower_bound",
    "replay",
    "retrograde",
    "solve",
]
