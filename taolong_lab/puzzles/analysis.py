"""What the generator proves about a candidate: the greedy player (:func:`greedy_line`), a
win within the turns asked for (:func:`wins_within`), a fair line (:func:`line_is_fair`), the
optimal lines and first turns (:func:`optimal_counts`) and the second method's check of the
optimum (:func:`cross_check`).

A candidate is checked in this order, the first check that fails being the rejection's reason
(:mod:`.generate` runs them): 1. not a duplicate (canonical position: the TLN without its turn
counter, rules included), not over; 2. the lower bound is at most ``turns[1]`` and a win within
``turns[1]`` exists; 3. the explicit solver proves the optimum, within ``turns``;
4. **fairness**: the stored line never loses; 5. **non-triviality**: the greedy player does not
win within the optimum; 6. the optimal lines and first turns are counted (lines exact or "at
least"); win-in-1 (which the greedy player always finds) is kept only as
:func:`~.grade.win_in_1_ok` says; 7. the **cross-check**: SAT re-proves a Grasshopper optimum,
the explicit solver's bounded depth-first search the others (a disagreement is a bug).
"""

from __future__ import annotations

import time
from typing import NamedTuple

from ..engine import Line, State, Turn
from ..solvers import Status
from ..solvers.bounds import bound_params, lower_bound
from ..solvers.certificate import SatCertificate
from ..solvers.common import Budget
from ..solvers.explicit import OutOfBudget, win_within

MAX_STATES = 20000  # a deterministic budget per candidate, besides the time limit
LINE_CAP = 10_000  # optimal lines counted, at most
SAT_SOLVER = SatCertificate.SOLVER
EXPLICIT_CHECK = "taolong_lab.solvers.explicit.win_within"


def opponent_of(player: str) -> str:
    """The other colour."""
    return "black" if player == "white" else "white"


def greedy_turn(state: State, successors=None) -> tuple[Turn, State] | None:
    """The greedy player's turn: the ``(turn, after)`` taking the most of the opponent's life
    now, ties by engine order (None without a legal turn). ``successors``: the position's
    :meth:`~taolong_lab.engine.State.successors`, when already at hand."""
    opponent = opponent_of(state.to_move)
    life = state.life(opponent)
    best = None
    for turn, after in state.successors() if successors is None else successors:
        damage = life - after.life(opponent)
        if best is None or damage > best[0]:
            best = (damage, turn, after)
    return None if best is None else best[1:]


def greedy_line(state, turns: int) -> tuple[list[str], bool]:
    """The greedy player's first ``turns`` turns (fewer if the game ends): always the turn
    that takes the most of the opponent's life now, ties by engine order. Returns the turns
    played (notation) and whether the player won."""
    player = state.to_move
    line = []
    for _ in range(turns):
        if state.is_over():
            break
        best = greedy_turn(state)
        if best is None:
            break
        line.append(str(best[0]))
        state = best[1]
    result = state.outcome()
    return line, result is not None and result.winner == player


def wins_within(
    state,
    turns: int,
    max_states: int | None = None,
    failed: dict | None = None,
    time_limit: float | None = None,
) -> bool | None:
    """Whether the player can win within ``turns`` turns (the explicit solver's exact
    :func:`~taolong_lab.solvers.explicit.win_within`, sharing what it proved through
    ``failed``); None when ``max_states`` expansions or ``time_limit`` seconds did not
    settle it."""
    budget = Budget(time_limit, max_states)
    try:
        return win_within(state, turns, bound_params(state), budget, failed)
    except OutOfBudget:
        return None


def line_is_fair(line: Line) -> bool:
    """The line never loses: no turn but the last ends the game, and the last wins."""
    states = line.states()
    if any(state.is_over() for state in states[:-1]):
        return False
    result = states[-1].outcome()
    return result is not None and result.winner == line.start.to_move


class OptimalCounts(NamedTuple):
    """What :func:`optimal_counts` found: the optimal lines and the optimal first turns, each
    exact or, when a budget ran out, "at least" (``exact``, ``first_turns_exact`` False)."""

    lines: int
    exact: bool
    first_turns: int
    first_turns_exact: bool = True


def count_optimal_lines(
    state,
    optimum: int,
    cap: int = LINE_CAP,
    max_states: int | None = MAX_STATES,
    failed: dict | None = None,
) -> tuple[int, bool]:
    """The number of winning lines of exactly ``optimum`` turns from ``state`` (sequences of
    the engine's turns, distinct texts; two turns to the same position count twice; a line
    wins at its last turn only), and whether the count is exact. See :func:`optimal_counts`."""
    counts = optimal_counts(state, optimum, cap, max_states, failed)
    return counts.lines, counts.exact


def optimal_counts(
    state,
    optimum: int,
    cap: int = LINE_CAP,
    max_states: int | None = MAX_STATES,
    failed: dict | None = None,
    time_limit: float | None = None,
) -> OptimalCounts:
    """The optimal lines from ``state`` (see :func:`count_optimal_lines`) and the optimal first
    turns (the turns that start one).

    A depth-first search pruned by the lower bound and by
    :func:`~taolong_lab.solvers.explicit.win_within`, memoised on ``(State.key(), turns
    left)``. ``exact`` is False when the count reached ``cap`` (the count is then ``cap``)
    or ``max_states`` expansions ran out (the lines counted so far): "at least this many".
    Past the cap, the remaining first turns are decided by ``win_within`` alone. When
    ``max_states`` or ``time_limit`` runs out, both counts are what was counted so far ("at
    least").
    ``failed``: a ``win_within`` memo to share (what an earlier search proved).
    """
    params = bound_params(state)
    budget = Budget(time_limit, max_states)
    failed = {} if failed is None else failed
    memo: dict = {}

    def lines(st: State, r: int) -> int:
        h = lower_bound(st, params)
        if h == 0 or r == 0 or h > r:
            return 1 if h == 0 and r == 0 else 0
        k = (st.key(), r)
        if k not in memo:
            if not win_within(st, r, params, budget, failed):
                memo[k] = 0
                return 0
            if budget.spent():
                raise OutOfBudget
            budget.expanded += 1
            total = 0
            for _, after in st.iter_successors():
                total += lines(after, r - 1)
                if total >= cap:
                    break
            memo[k] = min(total, cap)
        return memo[k]

    if state.is_over() or optimum == 0:
        return OptimalCounts(lines(state, optimum), True, 0)
    total, first, exact = 0, 0, True
    try:
        for _, after in state.iter_successors():
            if total < cap:
                found = lines(after, optimum - 1)
                total += found
                first += found > 0
            else:
                exact = False
                first += win_within(after, optimum - 1, params, budget, failed)
    except OutOfBudget:
        return OptimalCounts(total, False, first, False)
    if total >= cap:
        return OptimalCounts(cap, False, first)
    return OptimalCounts(total, exact, first)


def cross_check(state, optimum: int, time_limit: float | None, max_states: int | None) -> dict:
    """Re-prove ``optimum`` by a second method: the SAT solver in Grasshopper (it must return
    status optimal with the same optimum; optimum 1 needs no search: a win needs a turn); in
    the other modes the explicit solver's bounded depth-first search
    :func:`~taolong_lab.solvers.explicit.win_within` (no win within ``optimum - 1``, a win
    within ``optimum``). ``agrees``: True, False (a disagreement: a bug) or None (a
    budget ran out)."""
    t0 = time.perf_counter()
    if state.rules.mode == "grasshopper":
        check = _sat_check(state, optimum, time_limit)
    else:
        check = _explicit_check(state, optimum, time_limit, max_states)
    check["seconds"] = round(time.perf_counter() - t0, 3)
    return check


def _sat_check(state, optimum: int, time_limit: float | None) -> dict:
    from ..solvers.sat.solver import SatEncodingError, solve  # python-sat: only when needed

    check = {"solver": SAT_SOLVER, "optimum": None, "agrees": None}
    if optimum == 1:
        check.update(method="optimum 1: no win exists in 0 turns", optimum=1, agrees=True)
        return check
    check["method"] = f"incremental SAT by turns up to max_horizon={optimum}"
    try:
        sol = solve(
            state,
            time_limit=time_limit,
            max_horizon=optimum,
            count_first_turns=False,  # the generator counts them itself
        )
    except SatEncodingError as exc:
        check.update(agrees=False, error=str(exc))
        return check
    check["status"], check["proved_no_win_below"] = sol.status, sol.proved_no_win_below
    check["conflicts"] = sol.certificate.conflicts
    if sol.status == Status.OPTIMAL:
        check["optimum"], check["agrees"] = sol.optimum, sol.optimum == optimum
    elif sol.status == Status.NO_WIN or sol.proved_no_win_below > optimum:
        check["agrees"] = False  # SAT proves no win within the claimed optimum
    return check


def _explicit_check(state, optimum: int, time_limit, max_states) -> dict:
    check = {
        "solver": EXPLICIT_CHECK,
        "method": f"bounded depth-first search: no win within {optimum - 1}, a win within "
        f"{optimum}",
        "optimum": None,
        "agrees": None,
    }
    params, budget = bound_params(state), Budget(time_limit, max_states)
    try:
        shorter = win_within(state, optimum - 1, params, budget)
        within = win_within(state, optimum, params, budget)
    except OutOfBudget:
        return check
    check["win_within_optimum_minus_1"], check["win_within_optimum"] = shorter, within
    check["agrees"] = within and not shorter
    check["optimum"] = optimum if check["agrees"] else None
    return check


__all__ = [
    "EXPLICIT_CHECK",
    "LINE_CAP",
    "MAX_STATES",
    "SAT_SOLVER",
    "OptimalCounts",
    "count_optimal_lines",
    "cross_check",
    "greedy_line",
    "greedy_turn",
    "line_is_fair",
    "opponent_of",
    "optimal_counts",
    "wins_within",
]
