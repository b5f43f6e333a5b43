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

METHODS = ("explicit", "sat", "auto", "race")


AUTO_EXPLICIT_STATES = 5000


def choose_method(puzzle_or_state) -> str:
    """The solver ``method="auto"`` ends with: SAT where its encoding applies (Grasshopper
    mode), the explicit solver otherwise."""
    from .explicit import _start_of

    start = _start_of(puzzle_or_state)
    return "sat" if start.rules.mode == "grasshopper" else "explicit"


def solve(puzzle_or_state, method: str = "explicit", **options) -> Solution:
    """The fewest turns to win a solo challenge, by ``method``: ``"explicit"`` (A* by turns,
    :func:`taolong_lab.solvers.explicit.solve`), ``"sat"`` (incremental SAT with CEGAR,
    :func:`taolong_lab.solvers.sat.solve`), ``"auto"`` or ``"race"``. The options go to that solver
    (``time_limit``, ``progress``; ``max_states`` and ``checkpoint`` for the explicit one,
    ``conflict_budget`` for SAT). Both return the same :class:`Solution`, whose certificate
    names the solver.

    ``"race"`` (:func:`taolong_lab.solvers.race.race`) runs the explicit solver and SAT at
    once, one process each, and returns the first exact answer: the better of the two on
    every challenge, for two cores (``time_limit`` and ``progress`` only).

    ``"auto"``: in Grasshopper mode the explicit solver with
    ``max_states=AUTO_EXPLICIT_STATES`` (about a second) and, if that does not settle it,
    SAT with the rest of the time limit; in the other modes (no SAT encoding yet) the
    explicit solver alone. Both are exact: the choice changes the time, never the answer.
    The budget was set when SAT was the faster solver from about 5 turns on. Since the
    explicit A* defers what the sharp bound rules out, it is the faster one on most measured
    challenges (all of 5-7 turns, all nine win-in-9 re-deals, The Maze) and SAT on some
    deep ones, by up to about 3x (docs/performance.md, "What auto should pick"); on two
    cores ``"race"`` is the better choice.
    """
    if method == "auto":
        return _solve_auto(puzzle_or_state, **options)
    if method == "race":
        from .race import race

        return race(puzzle_or_state, **options)
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


def _solve_auto(puzzle_or_state, time_limit=None, progress=True, **options) -> Solution:
    import time

    from .explicit import solve as explicit

    if choose_method(puzzle_or_state) == "explicit":
        return explicit(puzzle_or_state, time_limit=time_limit, progress=progress, **options)
    if options:
        raise SolverError(f"method='auto' takes time_limit and progress only, not {options}")
    t0 = time.perf_counter()
    first = explicit(
        puzzle_or_state,
        time_limit=time_limit,
        max_states=AUTO_EXPLICIT_STATES,
        progress=False,
    )
    if first.status != "unknown":
        return first
    left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t0))
    return solve(puzzle_or_state, method="sat", time_limit=left, progress=progress)


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
