"""Both solvers at once, one process each: the first exact answer wins, the other stops.

Neither solver is the faster on every challenge (docs/performance.md): the explicit solver
wins most of the shorter ones and The Maze, SAT several of the deep ones. With two free cores,
racing them costs nothing in wall-clock time against the better of the two, whichever it is.
Both are exact, so the winner never changes the answer.

>>> from taolong_lab import load_puzzles
>>> puzzle = load_puzzles("bench/solo-set.jsonl")[0]
>>> s = race(puzzle)
>>> s.status, s.optimum == puzzle.optimum, s.stats["race"]["winner"] in ("explicit", "sat")
('optimal', True, True)
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import queue as queues
import time
from dataclasses import replace

from ..processes import IN_BROWSER, end_with_parent, one_process
from .certificate import Status
from .common import Solution, SolverError, options_refused

RACERS = ("explicit", "sat")
EXACT = (Status.OPTIMAL, Status.NO_WIN)
POLL = 0.2  # seconds between checks of the workers
GRACE = 0.2  # seconds a stopped racer has to end before it is killed


def _context():
    methods = mp.get_all_start_methods()
    return mp.get_context("fork" if "fork" in methods else "spawn")


def _run(method: str, puzzle_or_state, time_limit, results, parent: int) -> None:
    """One racer (in its own process): its Solution as JSON, or its error, on ``results``."""
    from . import solve

    end_with_parent(parent)  # a killed race leaves no racer behind
    gc.freeze()  # what the fork inherited is never collected here (no copy of its pages)
    try:
        solution = solve(puzzle_or_state, method=method, time_limit=time_limit)
    except Exception as exc:  # handed to the parent, which raises it if nothing else answers
        results.put((method, "error", f"{type(exc).__name__}: {exc}"))
    else:
        results.put((method, "done", solution.to_json()))
    results.close()
    results.join_thread()  # the answer is in the pipe: end without tearing the heap down
    os._exit(0)


def race(puzzle_or_state, time_limit=None, progress: bool = False, **options) -> Solution:
    """The fewest turns to win, by the explicit solver and SAT run at once in two processes.

    The first to prove its answer (``"optimal"`` or ``"no-win"``) is returned and the other is
    stopped at once (killed if it has not ended :data:`GRACE` seconds later). If both stop on
    the ``time_limit``, the answer with the higher ``proved_no_win_below`` is returned.
    ``stats["race"]`` records the winner, its wall seconds, the seconds spent stopping the
    racers and what became of the other (``"stopped"`` or its own status).

    Parameters
    ----------
    puzzle_or_state : Puzzle or State
        A solo challenge.
    time_limit : float or None
        Seconds of wall clock, at most, for each solver.
    progress : bool
        Show what is running (tqdm); off unless asked.

    Returns
    -------
    Solution
        The winner's.

    Raises
    ------
    SolverError
        Another option, not a solo challenge, or both solvers failed (each one's error
        named).

    Notes
    -----
    In a web page (Pyodide), which starts no processes, the explicit solver runs alone in this
    process, a :class:`~taolong_lab.processes.SingleProcessWarning` says so, and
    ``stats["race"]`` records it (``"sat": "not run (no processes here)"``).
    """
    from .explicit import _start_of

    if options:
        raise options_refused("race", ("time_limit", "progress"), options)
    _start_of(puzzle_or_state)
    if IN_BROWSER:
        return _explicit_alone(puzzle_or_state, time_limit, progress)
    ctx = _context()
    results = ctx.Queue()
    parent = os.getpid()
    workers = {
        m: ctx.Process(
            target=_run, args=(m, puzzle_or_state, time_limit, results, parent), daemon=True
        )
        for m in RACERS
    }
    t0 = time.perf_counter()
    answers: dict = {}
    errors: dict = {}
    bar = _bar(progress)
    try:
        for w in workers.values():
            w.start()
        while len(answers) + len(errors) < len(workers):
            try:
                method, kind, payload = results.get(timeout=POLL)
            except queues.Empty:
                if bar is not None and time.perf_counter() - bar.last_print_t >= 1:
                    bar.refresh()
                for m, w in workers.items():
                    if m not in answers and m not in errors and not w.is_alive() and w.exitcode:
                        errors[m] = f"the {m} worker died (exit code {w.exitcode})"
                continue
            if kind == "error":
                errors[method] = payload
                continue
            answers[method] = Solution.from_json(payload)
            if answers[method].status in EXACT:
                break
    finally:
        answered = time.perf_counter()
        _stop(workers.values())
        results.close()
        results.cancel_join_thread()
        if bar is not None:
            bar.close()
    seconds = round(time.perf_counter() - t0, 3)
    stopping = round(time.perf_counter() - answered, 3)
    if not answers:
        detail = "; ".join(f"{m}: {e}" for m, e in errors.items())
        raise SolverError(f"both solvers failed: {detail}")
    winner = max(
        answers, key=lambda m: (answers[m].status in EXACT, answers[m].proved_no_win_below)
    )
    best = answers[winner]
    other = next(m for m in RACERS if m != winner)
    fate = answers[other].status if other in answers else errors.get(other, "stopped")
    return replace(
        best,
        stats={
            **best.stats,
            "race": {"winner": winner, "seconds": seconds, "stopping": stopping, other: fate},
        },
    )


def _explicit_alone(puzzle_or_state, time_limit, progress) -> Solution:
    """The explicit solver alone, in this process, where no racer can be started."""
    from . import solve

    one_process("method='race': the explicit solver runs alone")
    t0 = time.perf_counter()
    solution = solve(puzzle_or_state, method="explicit", time_limit=time_limit, progress=progress)
    seconds = round(time.perf_counter() - t0, 3)
    record = {"winner": "explicit", "seconds": seconds, "sat": "not run (no processes here)"}
    return replace(solution, stats={**solution.stats, "race": record})


def _stop(workers) -> None:
    """Stop the racers at once: SIGTERM, then SIGKILL for one still running after
    :data:`GRACE` seconds; never wait on a loser's work."""
    for w in workers:
        if w.is_alive():
            w.terminate()
    deadline = time.perf_counter() + GRACE
    for w in workers:
        w.join(max(0.0, deadline - time.perf_counter()))
        if w.is_alive():
            w.kill()
            w.join()


def _bar(progress: bool):
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(
        total=None, desc="race: explicit | sat", bar_format="{desc}, {elapsed}", mininterval=1
    )


__all__ = [
    "EXACT",
    "GRACE",
    "POLL",
    "RACERS",
    "race",
]
