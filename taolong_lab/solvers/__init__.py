"""Search over positions: the state graph and retrograde analysis (``graph``), and for solo
challenges the explicit shortest-win solver (``explicit``), the SAT solver (``sat``), the two
raced (``race``), the bounds they share (``bounds``) and what they return (``certificate``,
``common``).

>>> from taolong_lab import solo_game
>>> from taolong_lab.solvers import explore
>>> g = explore(solo_game(), depth=1)
>>> g.depth[0], g.expanded[0], len(g) > 1
(0, True, True)
"""

from enum import StrEnum

from .bounds import lower_bound
from .certificate import ExplicitCertificate, SatCertificate, Status
from .common import Solution, SolverError, options_refused
from .explicit import replay
from .graph import Edge, Node, Retrograde, StateGraph, explore, iter_explore, retrograde


class Method(StrEnum):
    """A way :func:`solve` proves an optimum; each member equals its name as a string.

    >>> Method("sat") is Method.SAT, Method.AUTO == "auto"
    (True, True)
    """

    EXPLICIT = "explicit"
    SAT = "sat"
    AUTO = "auto"
    RACE = "race"

    def __repr__(self) -> str:
        return repr(self.value)  # shown as the string it stands for, in choices too


METHODS = tuple(method.value for method in Method)


# method="auto": the explicit solver first, for up to this many positions expanded (its
# memory grows with them), then SAT, whose memory stays flat (docs/performance.md)
AUTO_EXPLICIT_STATES = 500_000
# ... under solo_lookahead="next-turn", where each expansion is much dearer and SAT is mostly
# the faster solver
AUTO_EXPLICIT_STATES_NEXT_TURN = 500
# ... except in these scenarios, where the explicit solver is the faster one under either
# reading
AUTO_EXPLICIT_SCENARIOS = frozenset({"maze"})
# ... and when the compiled kernel runs the search, under either reading: its positions cost
# a few hundred bytes each, and it is the faster solver on every challenge measured
AUTO_KERNEL_STATES = 10_000_000


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

    ``"auto"``: the explicit solver, the faster one on most challenges and in total
    (docs/performance.md has the figures). Once it has expanded ``AUTO_EXPLICIT_STATES``
    positions without an answer (its memory grows with them, SAT's does not), SAT takes over
    with the rest of the time limit. Under
    ``solo_lookahead="next-turn"`` SAT takes over after ``AUTO_EXPLICIT_STATES_NEXT_TURN``
    positions: there the policy's lookahead makes each expansion much dearer and SAT is
    mostly the faster; not in the scenarios of ``AUTO_EXPLICIT_SCENARIOS`` (The Maze), where
    the explicit solver is faster under both readings (:func:`auto_explicit_states`). Both
    are exact: the choice changes the time and the memory, never the answer. An optimum whose
    first-turn count ran out of those positions is counted again with the time alone.
    ``stats["auto"]`` records what the explicit run did and which solver answered.

    Parameters
    ----------
    puzzle_or_state : Puzzle or State
        A solo challenge.
    method : str
        One of :data:`METHODS`.
    **options
        For the solver (see above).

    Returns
    -------
    Solution

    Raises
    ------
    SolverError
        An unknown method or option, a bad budget, a checkpoint that cannot be resumed
        (:class:`~.common.CheckpointError`), not a solo challenge; the SAT solver missing.
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


def _solve_auto(
    puzzle_or_state, time_limit=None, progress=False, count_first_turns=True, **options
) -> Solution:
    import time
    from dataclasses import replace

    from .explicit import _start_of
    from .explicit import count_first_turns as count_optimal_first_turns
    from .explicit import solve as explicit

    start = _start_of(puzzle_or_state)
    if options:
        raise options_refused("auto", ("time_limit", "progress", "count_first_turns"), options)
    t0 = time.perf_counter()
    first = explicit(
        puzzle_or_state,
        time_limit=time_limit,
        max_states=auto_explicit_states(start),
        progress=progress,
        count_first_turns=count_first_turns,
    )
    record = {
        "explicit_status": first.status.value,
        "explicit_seconds": first.stats["seconds"],
        "explicit_expanded": first.stats["expanded"],
        "explicit_proved_no_win_below": first.proved_no_win_below,
        "answered_by": "explicit",
    }
    left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
    time_left = left is None or left > 0
    recount = count_first_turns and first.optimal_first_turns is None and time_left
    if first.status == Status.OPTIMAL and recount:
        # the count ran out of positions, not of time: count again, bounded by time only
        count = count_optimal_first_turns(start, first.optimum, time_limit=left, progress=progress)
        first = replace(first, optimal_first_turns=count)
        record["recounted_first_turns"] = True
    if first.status != Status.UNKNOWN or not time_left:
        return _with_stats(first, auto=record)
    second = solve(
        puzzle_or_state,
        method="sat",
        time_limit=left,
        progress=progress,
        count_first_turns=count_first_turns,
    )
    if second.status == Status.UNKNOWN and second.proved_no_win_below < first.proved_no_win_below:
        return _with_stats(first, auto=record)  # the explicit run proved more
    return _with_stats(second, auto={**record, "answered_by": "sat"})


def auto_explicit_states(puzzle_or_state) -> int:
    """The positions ``method="auto"`` lets the explicit solver expand before SAT takes over:
    :data:`AUTO_KERNEL_STATES` when the compiled kernel runs the search, else
    :data:`AUTO_EXPLICIT_STATES`, or :data:`AUTO_EXPLICIT_STATES_NEXT_TURN` under the
    ``"next-turn"`` lookahead outside the scenarios of :data:`AUTO_EXPLICIT_SCENARIOS`.

    Parameters
    ----------
    puzzle_or_state : Puzzle or State
        A solo challenge.

    Returns
    -------
    int

    Raises
    ------
    SolverError
        Not a Puzzle or a State, or not a solo position.

    >>> from taolong_lab import solo_game
    >>> from taolong_lab.solvers import kernel
    >>> auto_explicit_states(solo_game("field", "monk")), auto_explicit_states(
    ...     solo_game("field", "monk", solo_lookahead="next-turn"))
    (500000, 500)
    >>> auto_explicit_states(solo_game("maze", "monk", solo_lookahead="next-turn"))
    500000
    >>> auto_explicit_states(solo_game()) == (
    ...     AUTO_KERNEL_STATES if kernel.available() else AUTO_EXPLICIT_STATES)
    True
    """
    from . import kernel
    from .explicit import _start_of

    start = _start_of(puzzle_or_state)
    if kernel.usable(start):
        return AUTO_KERNEL_STATES
    next_turn = start.rules.option("solo_lookahead") == "next-turn"
    if next_turn and start.rules.scenario not in AUTO_EXPLICIT_SCENARIOS:
        return AUTO_EXPLICIT_STATES_NEXT_TURN
    return AUTO_EXPLICIT_STATES


def _with_stats(solution: Solution, **more) -> Solution:
    solution.stats.update(more)
    return solution


__all__ = [
    "METHODS",
    "Edge",
    "ExplicitCertificate",
    "Method",
    "Node",
    "Retrograde",
    "SatCertificate",
    "Solution",
    "SolverError",
    "StateGraph",
    "Status",
    "auto_explicit_states",
    "explore",
    "iter_explore",
    "lower_bound",
    "replay",
    "retrograde",
    "solve",
]
