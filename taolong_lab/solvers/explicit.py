"""The explicit shortest-win solver for solo challenges, with a certificate and budgets.

A solo challenge is a single-agent, deterministic search: the player picks every turn (the
opponent's tie choices are part of the player's turns, R15.5) and the engine computes the
opponent. :func:`solve` finds the fewest player turns to a position where the opponent's
dragon is defeated, by best-first search (A*) over positions keyed by :meth:`State.key`, ordered
by ``f = g + h``: ``g`` the turns played, ``h`` the admissible :func:`lower_bound`.

Why the answer is optimal, and what the certificate says
---------------------------------------------------------
Every edge costs one turn and ``h`` never exceeds the true number of turns to win (proved in
:func:`lower_bound`). The search keeps, for each position, the fewest turns it was reached in,
and re-opens a position reached in fewer turns, so the A* lemma holds: while no win has been
taken from the open list, every shortest winning line has a position ``p`` on the open list
reached along it in its optimal ``g``, and ``g + h(p)`` is at most the line's length. So the
smallest ``f`` on the open list, ``k``, proves **no win in fewer than k turns**; the search
takes positions in increasing ``f`` and stops at the first win it generates from a position of
``f = k``: that win has ``g + 1 <= k`` turns, hence exactly ``k``, the optimum.

A position taken with ``h = f - g`` of at most :data:`SHARP_TURNS` is first checked by the
Ba Gua-aware :func:`may_win_within` (for ``h = 1`` the exact :func:`may_win_now`): when it
rules out a win within ``h`` turns, the position's true distance is at least ``h + 1``, so it
goes back on the open list at ``f + 1``, unexpanded (*deferred*). Its entry stays a lower
bound, so the lemma above still holds; only the last turns' expansions are saved.

The certificate records, for each ``k`` below the optimum (or below the bound proved when a
budget stops the search), the number of distinct positions expanded or deferred with
``f <= k``: each was not won, and each, being reached in ``g`` turns, has no win within
``k - g`` turns (else the start would have one within ``k``). With the lower bound's
parameters, this is what a checker needs to re-run the proof.

Budgets (``time_limit`` seconds, ``max_states`` positions expanded) are checked between
expansions; when one runs out, or on ``KeyboardInterrupt``, :func:`solve` returns status
``"unknown"`` with ``proved_no_win_below`` the ``k`` proved so far. ``"no-win"``: the whole
reachable graph was exhausted without a win.

>>> from taolong_lab import State
>>> s = solve(State("field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
...     "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"))
>>> s.status, s.optimum, s.line.notation(), s.optimal_first_turns
('optimal', 1, ['Ea>Mo ='], 1)
"""

from __future__ import annotations

import time
from collections import Counter

from ..engine import Line, State
from ..errors import Arg
from . import kernel
from .bounds import (
    BOUND_NAME,
    INF,
    SHARP_TURNS,
    BoundParams,
    bound_params,
    lower_bound,
    may_win_now,
    may_win_within,
)
from .certificate import ExplicitCertificate, Status
from .common import (
    Budget,
    Checkpoint,
    CheckpointError,
    Solution,
    SolverError,
    build_solution,
    paused_gc,
    peak_memory_mb,
    progress_bar,
    reset_peak_memory,
    solo_start,
)
from .snapshot import (
    _COUNTERS,
    _certificate,
    _check_line,
    _line,
    _position,
    _saved_result,
    _SnapshotReader,
)

SOLVER = ExplicitCertificate.SOLVER


# ---- the search ----------------------------------------------------------------------------
def _start_of(puzzle_or_state) -> State:
    return solo_start(puzzle_or_state, "explicit")


class _Search:
    """The A* search's state: everything a checkpoint keeps to resume it.

    ``info[key] = (g, parent key, move)`` for every position generated (the fewest turns it
    was reached in, and the number of its turn among the parent's legal turns);
    ``closed[key] = f`` when first expanded; ``buckets[f]`` the open list of ``(g, position)``;
    no win exists in fewer than ``proved`` turns; ``found`` is the key of the won position
    once generated. ``expanded``, ``generated`` and ``seconds`` add up every run of a resumed
    search.
    """

    def __init__(self, start: State, params: BoundParams):
        self.start, self.params = start, params
        self.info: dict = {start.key(): (0, None, None)}
        self.closed: dict = {}
        self.buckets: dict[int, list] = {lower_bound(start, params): [(0, start)]}
        self.proved = 0
        self.found = None
        self.expanded = 0
        self.generated = 0
        self.deferred = 0
        self.seconds = 0.0
        self.current = None

    def snapshot(self, seconds: float) -> dict:
        """The search as plain JSON data: ``positions`` (TLN) in the order of ``info``, whose
        rows are ``[g, parent index, move]``; ``closed`` rows ``[index, f]``; ``open`` rows
        ``[f, g, index]``, each bucket in its order; ``found`` an index or None."""
        index = {key: i for i, key in enumerate(self.info)}
        positions, rows = [], []
        for key, (g, parent, move) in self.info.items():
            positions.append(_position(self.start, key, g).to_tln())
            rows.append([g, index.get(parent), move])
        entries = ((f, g, state) for f, bucket in self.buckets.items() for g, state in bucket)
        return {
            "positions": positions,
            "info": rows,
            "closed": [[index[key], f] for key, f in self.closed.items()],
            "open": [[f, g, index[state.key()]] for f, g, state in entries],
            "proved": self.proved,
            "found": None if self.found is None else index[self.found],
            **{name: getattr(self, name) for name in _COUNTERS},
            "seconds": self.seconds + seconds,
        }

    def restore(self, saved: dict, path) -> None:
        """Take up the search :meth:`snapshot` saved, once it is checked to be one: raises
        :class:`CheckpointError` naming ``path`` and the field at fault."""
        read = _SnapshotReader(saved, self.start, self.params, path)
        read.check_search()
        self.info, self.closed, self.buckets = read.info(), read.closed, read.buckets
        self.proved, self.seconds = read.proved, read.seconds
        self.found = None if read.found is None else read.keys[read.found]
        for name, value in read.counters.items():
            setattr(self, name, value)

    def requeue(self) -> None:
        """Put the position whose expansion was cut short back on the open list (the
        successors it already pushed stay there: they are sound open entries)."""
        if self.current is not None:
            f, g, state = self.current
            self.buckets.setdefault(f, []).append((g, state))
            self.current = None

    def open_count(self) -> int:
        return sum(len(bucket) for bucket in self.buckets.values())

    @property
    def stored(self) -> int:
        """Positions in the table (every position generated and kept)."""
        return len(self.info)

    def closed_counts(self) -> dict[int, int]:
        """How many positions were first closed (expanded or deferred) at each ``f``."""
        return dict(Counter(self.closed.values()))

    def line(self) -> list[str]:
        """The turns from the start to the win found."""
        return _line(self.start, self.info, self.found)

    def count_first_turns(self, optimum: int, budget: Budget, bar) -> int | None:
        """:func:`_count_first_turns` from the start, on the search's budget."""
        return _count_first_turns(self.start, optimum, self.params, budget, bar)

    def run(self, budget: Budget, bar, on_progress) -> bool:
        """Expand positions in increasing ``f`` until a win is generated (True), or the open
        list empties or the budget runs out (False). ``on_progress(bound_rose)`` is called
        when the proved bound rises and every 256 expansions."""
        info, closed, buckets, params = self.info, self.closed, self.buckets, self.params
        while buckets:
            f = min(buckets)
            if f > self.proved:
                self.proved = f
                on_progress(True)
            if budget.spent():  # before the pop: a resumed search finds the open list whole
                return False
            bucket = buckets[f]
            g, state = bucket[-1]
            self.current = (f, g, state)  # put back by requeue() if the expansion is cut short
            bucket.pop()
            if not bucket:
                del buckets[f]
            key = state.key()
            if info[key][0] != g:  # stale: reached in fewer turns since
                self.current = None
                continue
            h = f - g
            if h <= SHARP_TURNS and not (
                may_win_now(state, params) if h == 1 else may_win_within(state, h, params)
            ):  # no win within h turns from here: back on the open list one bound higher
                buckets.setdefault(f + 1, []).append((g, state))
                closed.setdefault(key, f)
                self.deferred += 1
                self.current = None
                continue
            found = None
            for move, (_, after) in enumerate(state.iter_successors()):
                budget.generated += 1
                self.generated += 1
                k = after.key()
                seen = info.get(k)
                if seen is not None and seen[0] <= g + 1:
                    continue
                h = lower_bound(after, params)
                if h == INF:
                    continue
                info[k] = (g + 1, key, move)
                if h == 0:  # a win in g + 1 <= f turns, and none exists in fewer than f
                    found = k
                    break
                buckets.setdefault(g + 1 + h, []).append((g + 1, after))
            budget.expanded += 1
            self.expanded += 1
            closed.setdefault(key, f)
            self.current = None
            if found is not None:
                self.found = found
                return True
            if budget.expanded % 256 == 0:
                if bar is not None:
                    bar.update(256)
                    bar.set_postfix(bound=f, depth=g, frontier=self.open_count(), refresh=False)
                on_progress(False)
        return False


@paused_gc()
def solve(
    puzzle_or_state,
    *,
    time_limit: float | None = None,
    max_states: int | None = None,
    progress=False,
    checkpoint=None,
    checkpoint_every: float = 60.0,
    count_first_turns: bool = True,
    fresh: bool = False,
) -> Solution:
    """The fewest turns to win a solo challenge (a :class:`~taolong_lab.puzzles.Puzzle` or a
    solo :class:`State`), one optimal line and a certificate. See the module docstring for
    the search and the proof; :func:`lower_bound` for the bound. Never hangs: with a budget it
    returns status ``"unknown"`` and the number of turns below which no win exists.

    ``checkpoint``: a file path. The search is saved there atomically whenever the proved
    bound rises, every ``checkpoint_every`` seconds, and when it stops for any reason (a
    budget, Ctrl-C, an exception); the finished result is saved too. Calling :func:`solve`
    again with the same file resumes the search where it stopped (the budgets count this run
    only), or returns the saved result. The file is checked first (:class:`.common.Checkpoint`:
    its signature, its size, the position and solver it was saved for; then the search it
    holds, and a saved or resumed answer is replayed from the start): one that does not pass
    raises :class:`CheckpointError` and is left as it is. ``fresh=True`` ignores the file
    and starts the search again, replacing it at the first save.

    ``count_first_turns=False`` skips counting the optimal first turns (the solution's
    ``optimal_first_turns`` is then None), for callers that count them their own way.

    Parameters
    ----------
    puzzle_or_state : Puzzle or State
        A solo challenge.
    time_limit : float or None
        Seconds of wall clock, at most.
    max_states : int or None
        Positions expanded, at most.
    progress : bool or callable
        Show a progress bar (tqdm), or report to this function
        (:class:`~.common.ProgressCallback`); nothing is drawn unless asked.
    checkpoint : str or Path or None
        The checkpoint file.
    checkpoint_every : float
        Seconds between periodic saves, at least.
    count_first_turns : bool
        Count the optimal first turns.
    fresh : bool
        Start a checkpointed search again.

    Returns
    -------
    Solution
        With an :class:`~.certificate.ExplicitCertificate`.

    Raises
    ------
    SolverError
        Not a solo challenge, a bad budget, ``fresh`` without ``checkpoint``.
    CheckpointError
        A checkpoint file that cannot be resumed (left as it is).
    """
    if fresh and checkpoint is None:
        raise SolverError.naming(
            Arg("fresh", True),
            " starts a checkpointed search again: pass ",
            Arg("checkpoint"),
            " too",
        )
    run = _Run(_start_of(puzzle_or_state), Budget(time_limit, max_states), checkpoint)
    result = run.start.outcome()
    if result is not None:  # nothing to search, nor to save
        if result.winner == run.start.to_move:
            return run.finish(Status.OPTIMAL, (), 0)
        return run.finish(Status.NO_WIN, (), None)
    saved = None
    if checkpoint is not None:
        saved = run.resume(checkpoint, checkpoint_every, fresh)
    if saved is not None and "result" in saved:
        done = _saved_result(saved["result"], run.search, run.store.path)
        if done.status != Status.OPTIMAL or done.optimal_first_turns is not None:
            return done  # else: count the optimal first turns again, with this run's budget
    bar = _progress(progress)
    try:
        return _search_and_count(run, bar, saved is not None, count_first_turns)
    finally:
        if bar is not None:
            bar.close()


class _Run:
    """One call of :func:`solve`: the start, its search (in the compiled kernel when there is
    no checkpoint and the kernel takes the position), the budget, the checkpoint file; and
    :meth:`finish`, which makes the :class:`Solution` and saves it."""

    def __init__(self, start: State, budget: Budget, checkpoint=None):
        self.start, self.budget = start, budget
        reset_peak_memory()
        self.params = bound_params(start)
        if checkpoint is None and kernel.usable(start):
            self.search = kernel.KernelSearch(start, budget)
        else:
            self.search = _Search(start, self.params)
        self.store: Checkpoint | None = None

    def resume(self, checkpoint, every: float, fresh: bool) -> dict | None:
        """Open the checkpoint file and restore the search it holds (unless ``fresh``): the
        saved body, or None."""
        solver = f"{SOLVER}/{BOUND_NAME}"
        self.store = Checkpoint(checkpoint, solver=solver, start=self.start, every=every)
        saved = None if fresh else self.store.load()
        if saved is not None:
            self.search.restore(saved, self.store.path)
        return saved

    def on_progress(self, bound_rose: bool) -> None:
        """Save the search when the proved bound rose or a periodic save is due."""
        store, budget = self.store, self.budget
        if store is None or not (bound_rose or store.due()):
            return
        near_stop = budget.deadline is not None and (
            budget.deadline - time.perf_counter() < store.duration
        )
        if near_stop and not bound_rose:
            return  # the save at the stop is near: do not overrun the time limit for it
        store.save(self.search.snapshot(budget.seconds()))

    def save_stop(self) -> None:
        """Save the search as it stands, when an error stops it."""
        if self.store is not None:
            self.store.save(self.search.snapshot(self.budget.seconds()))

    def _stats(self, seconds: float, counted: int, count_s: float) -> dict:
        search, budget = self.search, self.budget
        stats = {
            "expanded": search.expanded + counted,
            "search_expanded": search.expanded,
            "count_expanded": counted,
            "count_seconds": round(count_s, 3),
            "generated": search.generated,
            "deferred": search.deferred,
            "stored": search.stored,
            "seconds": round(seconds, 3),
            "cpu_seconds": round(budget.cpu_seconds(), 3),
            "positions_per_second": round(budget.expanded / seconds, 1) if seconds > 0 else 0.0,
            "peak_memory_mb": peak_memory_mb(),
        }
        if isinstance(search, kernel.KernelSearch):
            stats["kernel_bytes"] = search.bytes
        if search.seconds:
            stats["earlier_runs_seconds"] = round(search.seconds, 3)
        return stats

    def finish(self, status, line, first, interrupted=False, counted=0, count_s=0.0) -> Solution:
        """The Solution (:func:`.common.build_solution`), saved with the search when there is
        a checkpoint (a proved answer as the search's result)."""
        search = self.search
        optimum = len(line) if status == Status.OPTIMAL else None
        proved = optimum if optimum is not None else search.proved
        stop = ("interrupted",) if interrupted else self.budget.stop
        certificate = _certificate(self.start, self.params, search.closed_counts(), proved, optimum)
        seconds = self.budget.seconds()
        stats = self._stats(seconds, counted, count_s)
        solution = build_solution(self.start, status, line, certificate, stats, first, stop)
        if self.store is not None:
            snapshot = search.snapshot(seconds)
            if status != Status.UNKNOWN:
                snapshot["result"] = solution.to_json()
            self.store.save(snapshot)
        return solution


def _search_and_count(run: _Run, bar, resumed: bool, count: bool) -> Solution:
    """The search of :func:`solve`, then (``count``) the count of the optimal first turns,
    both shown on ``bar``; ``run.finish`` makes the Solution."""
    search, budget = run.search, run.budget
    interrupted = False
    try:
        won = search.found is not None or search.run(budget, bar, run.on_progress)
    except KeyboardInterrupt:
        search.requeue()
        won, interrupted = False, True
    except BaseException:
        search.requeue()
        run.save_stop()  # keep what was proved, then let the error through
        raise
    if won:
        try:
            line = search.line()
        except LookupError as exc:  # only a resumed search can hold a move that is not there
            raise CheckpointError(run.store.path, "info", str(exc)) from None
        if resumed:
            _check_line(line, run.start, run.store.path, "info")
        if not count or interrupted:
            return run.finish(Status.OPTIMAL, line, None, interrupted)
        before, t_count = budget.expanded, time.perf_counter()
        first = None
        try:
            first = search.count_first_turns(len(line), budget, bar)
        except KeyboardInterrupt:
            interrupted = True
        counted, count_s = budget.expanded - before, time.perf_counter() - t_count
        return run.finish(Status.OPTIMAL, line, first, interrupted, counted, count_s)
    if not search.buckets and not interrupted and budget.reason is None:
        return run.finish(Status.NO_WIN, (), None)
    return run.finish(Status.UNKNOWN, (), None, interrupted)


class OutOfBudget(Exception):
    """A :class:`Budget` ran out during :func:`win_within`."""


def win_within(
    state: State, turns: int, params: BoundParams, budget: Budget | None = None, failed=None
) -> bool:
    """Whether the player can win from ``state`` within ``turns`` turns: an exact depth-first
    search pruned by :func:`lower_bound` and, in the last :data:`SHARP_TURNS` turns, by
    :func:`may_win_within` (the last turn by :func:`may_win_now`).

    Parameters
    ----------
    state : State
        A solo position.
    turns : int
        The turns the player has.
    params : BoundParams
        :func:`~.bounds.bound_params` of ``state``.
    budget : Budget or None
        Expansions and time, at most.
    failed : dict or None
        What the search proved (position key -> the most turns with no win); pass one dict
        to share it between calls.

    Returns
    -------
    bool

    Raises
    ------
    OutOfBudget
        ``budget`` ran out.
    """
    return win_line_within(state, turns, params, budget, failed) is not None


def win_line_within(
    state: State, turns: int, params: BoundParams, budget: Budget | None = None, failed=None
) -> list | None:
    """:func:`win_within`'s search, returning the winning line it found.

    Parameters
    ----------
    state, turns, params, budget, failed
        As :func:`win_within`'s.

    Returns
    -------
    list of Turn or None
        The turns, at most ``turns`` of them (``[]`` when the player has already won), or
        None when there is no win within ``turns``.

    Raises
    ------
    OutOfBudget
        ``budget`` ran out.

    >>> from taolong_lab import solo_game
    >>> start = solo_game(segments={"black": 1}, water={"black": 1})
    >>> win_line_within(start, 3, bound_params(start)) is None  # its optimum is 4
    True
    >>> line = win_line_within(start, 4, bound_params(start))
    >>> from functools import reduce
    >>> end = reduce(lambda state, turn: state.play(turn), line, start)
    >>> len(line), end.outcome().winner == start.to_move
    (4, True)
    """
    failed = {} if failed is None else failed
    if kernel.usable(state):
        return _kernel_win_line(state, turns, budget, failed)

    def search(state: State, r: int) -> list | None:
        h = lower_bound(state, params)
        if h == 0:
            return []
        if h > r or (r <= SHARP_TURNS and not may_win_within(state, r, params)):
            return None
        k = state.key()
        if failed.get(k, -1) >= r:
            return None
        if budget is not None:
            if budget.spent():
                raise OutOfBudget
            budget.expanded += 1
        if r == 1 and not may_win_now(state, params):
            failed[k] = 1
            return None
        for turn, after in state.iter_successors():
            if budget is not None:
                budget.generated += 1
            line = search(after, r - 1)
            if line is not None:
                line.append(turn)  # built from the end; reversed once at the top
                return line
        failed[k] = r
        return None

    line = search(state, turns)
    return None if line is None else line[::-1]


def _kernel_win_line(state: State, turns: int, budget, failed) -> list | None:
    """:func:`win_line_within` in the kernel, its line replayed in the engine."""
    found, moves = kernel.win_moves(state, turns, budget, failed)
    if found == "spent":
        raise OutOfBudget
    if moves is None:
        return None
    line, at = [], state
    for move in moves:
        turn = at.legal_turns()[move]
        line.append(turn)
        at = at.play(turn)
    if lower_bound(at) != 0:
        raise kernel.KernelMismatchError("the kernel's winning line does not win in the engine")
    return line


def count_first_turns(
    state: State,
    optimum: int,
    *,
    time_limit: float | None = None,
    max_states: int | None = None,
    progress: bool = False,
) -> int | None:
    """How many of ``state``'s turns start a win in ``optimum`` turns, ``optimum`` being the
    proved fewest: the :class:`Solution`'s ``optimal_first_turns``, counted on its own (by
    :func:`win_within`).

    Parameters
    ----------
    state : State
        A solo position.
    optimum : int
        Its proved fewest turns to win.
    time_limit : float or None
        Seconds, at most.
    max_states : int or None
        Positions expanded, at most.
    progress : bool
        Show a progress bar (tqdm), one step a first turn.

    Returns
    -------
    int or None
        None when a budget runs out.

    Raises
    ------
    SolverError
        A bad budget.

    >>> from taolong_lab import solo_game
    >>> start = solo_game(segments={"black": 1}, water={"black": 1})
    >>> count_first_turns(start, 4) == solve(start).optimal_first_turns > 0
    True
    """
    budget = Budget(time_limit, max_states)
    bar = _progress(progress)
    try:
        return _count_first_turns(state, optimum, bound_params(state), budget, bar)
    finally:
        if bar is not None:
            bar.close()


def _count_first_turns(start: State, optimum: int, params, budget, bar=None) -> int | None:
    """How many of the start's turns lead to a win in ``optimum - 1`` more turns
    (:func:`win_within`, sharing what it proved between them), each one shown on ``bar``.
    None if the budget runs out."""
    failed: dict = {}
    afters = [after for _, after in start.iter_successors()]
    if bar is not None:
        bar.reset(total=len(afters))
        bar.unit = "turn"
        bar.set_description("optimal first turns")
    wins = 0
    try:
        for after in afters:
            wins += win_within(after, optimum - 1, params, budget, failed)
            if bar is not None:
                bar.update(1)
    except OutOfBudget:
        return None
    return wins


def _progress(enabled):
    return progress_bar(enabled, desc="positions", unit="pos", leave=False)


# ---- replay --------------------------------------------------------------------------------
def replay(solution: Solution, start: State | None = None) -> list[State]:
    """The positions along the solution's line (:class:`~taolong_lab.engine.Line`).

    Parameters
    ----------
    solution : Solution
    start : State or None
        Where the line starts; by default the position the solution was found from.

    Returns
    -------
    list of State
        ``[start, after turn 1, ...]``.

    Raises
    ------
    IllegalTurnError
        A turn that is not legal where it is played (a solution for another position).
    """
    return _line_of(solution, start).states()


def _line_of(solution: Solution, start: State | None) -> Line:
    return solution.line if start is None else Line(start, solution.line)


def replay_text(solution: Solution, start: State | None = None) -> str:
    """A text replay: each turn in notation and in words (the opponent's responses
    included), then the board after it. ``start`` and the errors as :func:`replay`'s."""
    line = _line_of(solution, start)
    states = line.states()
    parts = [f"start\n{states[0]}"]
    for i, (text, turn) in enumerate(zip(solution.line, line.turns, strict=True)):
        words = states[i].describe_turn(turn)
        parts.append(f"turn {i + 1}: {text}\n  {words}\n{states[i + 1]}")
    result = states[-1].outcome()
    if result is not None:
        parts.append(str(result))
    return "\n\n".join(parts)


__all__ = [
    "SOLVER",
    "CheckpointError",
    "OutOfBudget",
    "Solution",
    "SolverError",
    "count_first_turns",
    "replay",
    "replay_text",
    "solve",
    "win_line_within",
    "win_within",
]
