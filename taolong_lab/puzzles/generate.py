"""The puzzle generator's run: candidates drawn (:mod:`.sources`), proved and checked
(:mod:`.analysis`), graded (:mod:`.grade`) and appended to a file, resumably.

:func:`generate` draws candidate positions, proves each one's optimum with the explicit solver,
re-checks it with a second method, and keeps the ones that make good puzzles. Everything about
one candidate is derived from ``(seed, index)`` alone, so the same seed gives the same puzzles
whatever the number of workers. ``docs/puzzles.md`` ("Generating puzzles") is the reference.

Crash safety and resuming
-------------------------
With ``out`` (a ``.jsonl`` file), the sidecar ``out + ".state.json"`` records (atomically) the
run's parameters, the next candidate index, the reasons counted, the kept positions and what
the run wrote: the file's size after its last whole append, the SHA-256 of those bytes and,
while a puzzle is being appended, that line. Each kept puzzle is appended with one write
(:func:`~taolong_lab.files.append_bytes`) between two saves of the sidecar. A rerun
with the same ``out`` and parameters resumes at the next index; positions already in the file
are never kept twice (the keys are rebuilt from the file itself).

The file is never shortened but by :func:`repair_tail`, and only by the bytes a crash tore:
those past the recorded size when the recorded bytes are unchanged and the rest begins the line
being appended (warned about). Any other file (no sidecar, or one the file no longer matches)
is left whole: a last line without its newline that reads as a puzzle gets its newline before
the first append, and a file that does not read as puzzles is refused, untouched.
"""

from __future__ import annotations

import hashlib
import json
import operator
import os
import re
import time
import warnings
from contextlib import closing, nullcontext
from pathlib import Path

from ..errors import TaoLongError
from ..files import append_bytes, output_lock, write_atomic
from ..rules import MODES, scenario_names
from ..runner import Runner, as_runner
from ..solvers import Status, solve
from ..solvers.bounds import lower_bound
from ..version import __version__
from .analysis import (
    MAX_STATES,
    cross_check,
    greedy_line,
    line_is_fair,
    optimal_counts,
    wins_within,
)
from .format import Puzzle, puzzles_text, read_puzzles
from .grade import GREEDY_HORIZON, difficulty, win_in_1_ok
from .sources import SOURCE_NAMES, SOURCES, candidate, position_key

GENERATOR = "taolong_lab.puzzles.generate"
GENERATOR_VERSION = "2"
STATE_FORMAT = "taolong-generate-state"
STATE_VERSION = 3  # version 2 had no record of the bytes written
MAX_COUNT = 1_000_000  # puzzles wanted in one file
SEED_LIMIT = 2**64  # seeds are 0 .. 2**64 - 1
INDEX_LIMIT = 2**63  # candidate indices
MAX_ASKED_TURNS = 100  # the deepest puzzle asked for
MAX_TIME_LIMIT = 86_400  # seconds per candidate: a day
MAX_CANDIDATES_PER_PUZZLE = 500


class GenerateError(TaoLongError):
    """Bad input to :func:`generate`, or an ``out`` file that belongs to another run."""


class CrossCheckWarning(UserWarning):
    """The two methods disagree on a candidate's optimum: a bug in one of the solvers."""


def evaluate(job: dict) -> dict:
    """Decide one candidate (runs in a worker). Never raises: an exception is a rejection
    with reason ``error: ...``. Returns ``{"index", "key", "kept", "reason", "puzzle"}``
    (plus ``"detail"`` for a cross-check that does not agree)."""
    out = _blank(job["index"])
    try:
        state, drawn = candidate(
            job["seed"],
            job["index"],
            job["scenarios"],
            job["modes"],
            job.get("sources", SOURCES),
            job["turns"],
        )
        _judge(state, drawn, job, out)
    except Exception as exc:  # a worker exception loses only this candidate
        out["kept"], out["puzzle"] = False, None
        out["reason"] = f"error: {type(exc).__name__}: {exc}"
    return out


def _evaluate_state(state, drawn: dict, job: dict) -> dict:
    """:func:`evaluate` for a given position (``drawn`` its provenance); raises."""
    out = _blank(job["index"])
    _judge(state, drawn, job, out)
    return out


def _blank(index: int) -> dict:
    return {"index": index, "key": None, "kept": False, "reason": None, "puzzle": None}


def _prove(state, job: dict, failed: dict):
    """The explicit solution when the optimum is within ``job["turns"]``, else the reason
    (``failed``: the ``win_within`` memo, shared with the line count)."""
    low, high = job["turns"]
    if lower_bound(state) > high:
        return None, "lower bound above the turns"
    within = wins_within(state, high, job["max_states"], failed, job["time_limit"])
    if not within:
        return None, "too long" if within is False else "unknown (budget)"
    solution = solve(
        state,
        method="explicit",
        time_limit=job["time_limit"],
        max_states=job["max_states"],
        count_first_turns=False,  # counted with the lines, sharing the pre-check's memo
    )
    if solution.status != Status.OPTIMAL:
        beyond = solution.status == Status.NO_WIN or solution.proved_no_win_below > high
        return None, "too long" if beyond else "unknown (budget)"
    if not low <= solution.optimum <= high:
        return None, "too long" if solution.optimum > high else "too short"
    return solution, None


def _judge(state, drawn: dict, job: dict, out: dict) -> None:
    """Run the checks on one candidate, filling ``out`` (see the module docstring)."""
    seed, index = job["seed"], job["index"]
    out["key"] = position_key(state)
    if out["key"] in job.get("skip", ()):
        out["reason"] = "duplicate"
        return
    if state.is_over():
        out["reason"] = "over"
        return
    failed: dict = {}
    solution, reason = _prove(state, job, failed)
    if reason is not None:
        out["reason"] = reason
        return
    optimum = solution.optimum
    if not line_is_fair(solution.line):
        out["reason"] = "unfair"
        return
    branching = len(state.successors())
    greedy, greedy_won = greedy_line(state, optimum + GREEDY_HORIZON)
    greedy_turns = len(greedy) if greedy_won else None
    greedy_within = greedy_turns is not None and greedy_turns <= optimum
    if optimum > 1 and greedy_within:
        out["reason"] = "trivial (greedy wins)"
        return
    counts = optimal_counts(
        state, optimum, max_states=job["max_states"], failed=failed, time_limit=job["time_limit"]
    )
    lines, exact, first, first_exact = counts
    first = max(first, 1)  # the stored line's first turn is optimal, counted or not
    if optimum == 1 and not win_in_1_ok(first, branching):
        out["reason"] = "win-in-1 too easy"
        return
    check = cross_check(state, optimum, job["time_limit"], job["max_states"])
    if check["agrees"] is not True:
        unknown = check["agrees"] is None
        out["reason"] = "cross-check unknown" if unknown else "cross-check disagrees"
        out["detail"] = check
        return
    facts = {  # what the grade rests on, kept in the certificate too
        "optimal_first_turns": first,
        "optimal_lines": lines,
        "optimal_lines_exact": exact,
        "greedy_wins_within_optimum": greedy_within,
    }
    expanded = solution.stats["expanded"]
    grade = difficulty(
        optimum=optimum, branching=branching, expanded=expanded, greedy_turns=greedy_turns, **facts
    )
    certificate = solution.certificate.to_json()
    certificate.update(
        facts,
        optimal_first_turns_exact=first_exact,
        cross_check=check,
        fair=True,
        greedy_line=greedy[:optimum],
        greedy_turns_to_win=greedy_turns,
    )
    puzzle = _puzzle(
        state,
        seed=seed,
        index=index,
        solution=solution,
        certificate=certificate,
        grade=grade,
        drawn=drawn,
    )
    out["kept"], out["reason"], out["puzzle"] = True, "kept", puzzle.to_json()


def _puzzle(state, *, seed, index, solution, certificate, grade, drawn) -> Puzzle:
    rules = state.rules
    village = f", village of {drawn['village']}" if drawn.get("village") else ""
    return Puzzle.from_state(
        f"gen-{seed}-{index}",
        f"{rules.scenario} ({rules.mode}{village}), {state.to_move} to win in {solution.optimum}",
        state,
        optimum=solution.optimum,
        solution=solution.line.notation(),
        certificate=certificate,
        difficulty=grade,
        provenance={
            "generator": GENERATOR,
            "version": f"{__version__}/{GENERATOR_VERSION}",
            "seed": seed,
            "candidate": index,
            "rules": rules.token(),
            **drawn,
        },
    )


# ---- the run --------------------------------------------------------------------------------
def _names(field: str, given, known, every=None) -> tuple[str, ...]:
    names = tuple(every or known) if given == "all" else tuple(given)
    if not names:
        raise GenerateError(f"{field}: give at least one")
    for name in names:
        if name not in known:
            raise GenerateError(
                f"{field}: unknown {name!r}; choose from {', '.join(known)}, or all"
            )
    return names


def _whole(field: str, value, low: int, high: int) -> int:
    """``value`` as an int if it is a whole number from ``low`` to ``high``."""
    try:
        number = operator.index(value)
    except TypeError:
        number = None
    if number is None or isinstance(value, bool):
        raise GenerateError(f"{field} must be a whole number, got a {type(value).__name__}")
    if not low <= number <= high:
        shown = f"{number}" if number.bit_length() <= 64 else "a number of 20 digits or more"
        raise GenerateError(f"{field} must be from {low} to {high}, got {shown}")
    return number


def _check(count, *, scenarios, modes, sources, turns, seed, time_limit, out, budgets):
    _whole("count", count, 0, MAX_COUNT)
    scenarios = _names("scenario", scenarios, tuple(scenario_names()))
    modes = _names("mode", modes, tuple(MODES))
    sources = _names("source", sources, tuple(SOURCE_NAMES), SOURCES)
    try:
        low, high = turns
    except (TypeError, ValueError):
        raise GenerateError(f"turns must be (min, max), got a {type(turns).__name__}") from None
    low, high = (
        _whole("turns min", low, 1, MAX_ASKED_TURNS),
        _whole("turns max", high, 1, MAX_ASKED_TURNS),
    )
    if low > high:
        raise GenerateError(f"turns must satisfy 1 <= min <= max, got {low}..{high}")
    _whole("seed", seed, 0, SEED_LIMIT - 1)
    if isinstance(time_limit, int) and not isinstance(time_limit, bool):
        _whole("time_limit", time_limit, 1, MAX_TIME_LIMIT)
    elif time_limit is not None and not (
        isinstance(time_limit, float) and 0 < time_limit <= MAX_TIME_LIMIT
    ):
        shown = repr(time_limit) if isinstance(time_limit, float) else type(time_limit).__name__
        raise GenerateError(
            f"time_limit must be seconds, more than 0 and at most {MAX_TIME_LIMIT} (a day), or "
            f"None for no limit; got {shown}"
        )
    for name, value in budgets.items():
        if value is not None:
            _whole(name, value, 1 if name == "max_states" else 0, INDEX_LIMIT)
    if out is not None and Path(out).suffix.lower() != ".jsonl":
        raise GenerateError(f"out: {out} must be a .jsonl file")
    return scenarios, modes, sources, (low, high)


def generate(
    count: int,
    *,
    scenarios=("field",),
    modes=("grasshopper",),
    sources=SOURCES,
    turns=(1, 4),
    seed: int = 0,
    out=None,
    time_limit: float | None = 10.0,
    max_states: int | None = MAX_STATES,
    max_candidates: int | None = None,
    runner: Runner | None = None,
    stats: dict | None = None,
) -> list[Puzzle]:
    """Generate puzzles until ``count`` are kept (with ``out``: until the file holds
    ``count``), and return them all in candidate order. See the module docstring for
    resuming, :mod:`.sources`, :mod:`.analysis` and :mod:`.grade` for the rest. Everything is
    checked before ``out`` is read. A cross-check that disagrees is warned about
    (:class:`CrossCheckWarning`) and counted under its reason in the sidecar.

    Parameters
    ----------
    count : int
        The puzzles wanted.
    scenarios, modes, sources : list of str or "all"
        What candidates are drawn from (sources: ``"random"``, ``"played"``,
        ``"backward"``, ``"line"``, ``"deep"``).
    turns : tuple of int
        The least and most optimum kept.
    seed : int
        The run's seed.
    out : str or Path or None
        The ``.jsonl`` file the puzzles are appended to, with its sidecar.
    time_limit : float or None
        Seconds per candidate.
    max_states : int or None
        Positions the explicit solver expands per candidate, at most.
    max_candidates : int or None
        Candidates tried in this call (default :data:`MAX_CANDIDATES_PER_PUZZLE` times
        ``count``).
    runner : Runner or None
        Where the candidates are proved and whether a bar shows the puzzles kept
        (:class:`taolong_lab.runner.Runner`; a cluster is trusted code). Default: one after
        the other in this process, no bar.
    stats : dict or None
        Receives the candidates of this call counted by reason (``kept``, ``too long``...).

    Returns
    -------
    list of Puzzle

    Raises
    ------
    GenerateError
        A bad argument, naming it, or an ``out`` file of another run or that does not read
        as puzzles (left as it is).
    RunnerError
        ``runner`` is not a Runner.
    """
    budgets = {"max_states": max_states, "max_candidates": max_candidates}
    scenarios, modes, sources, turns = _check(
        count,
        scenarios=scenarios,
        modes=modes,
        sources=sources,
        turns=turns,
        seed=seed,
        time_limit=time_limit,
        out=out,
        budgets=budgets,
    )
    runner = as_runner(runner)
    params = {
        "generator_version": GENERATOR_VERSION,
        "sources": list(sources),
        "seed": seed,
        "scenarios": list(scenarios),
        "modes": list(modes),
        "turns": list(turns),
        "max_states": max_states,
    }
    base = {
        "seed": seed,
        "scenarios": scenarios,
        "modes": modes,
        "sources": sources,
        "turns": turns,
        "time_limit": time_limit,
        "max_states": max_states,
    }
    with output_lock(out) if out is not None else nullcontext():
        run = _Run(count, params, out)
        return _generate(run, base, max_candidates, runner, stats)


def _generate(run, base: dict, max_candidates, runner: Runner, stats) -> list:
    """:func:`generate`'s candidates tried until ``run`` is done, on ``runner``, once the
    arguments are checked and the file is locked."""
    count = run.count

    def jobs():
        start = run.next_index
        cap = max_candidates
        if cap is None:
            cap = MAX_CANDIDATES_PER_PUZZLE * max(count, 1)
        for index in range(start, start + cap):
            yield {**base, "index": index, "skip": frozenset(run.keys)}

    bar = runner.bar(count, initial=len(run.kept), desc="puzzles kept", unit="puzzle", leave=True)
    try:
        if not run.done():
            results = _results(jobs(), runner, run.done)
            with closing(results):
                for result in results:
                    run.record(result, bar)
                    if run.done():
                        break
    finally:
        run.save_state()
        if bar is not None:
            bar.close()
        if stats is not None:
            stats.update(run.call_stats)
    return run.kept


class _Run:
    """One call's bookkeeping: the puzzles kept, their keys, the reasons counted, the file,
    what this run wrote to it (its size, the digest of its bytes, the line being appended)
    and the sidecar."""

    def __init__(self, count: int, params: dict, out):
        self.count, self.params = count, params
        self.kept: list[Puzzle] = []
        self.next_index, self.stats = 0, {}
        self.out = self.side = None
        data = b""
        if out is not None:
            self.out = Path(out)
            self.side = Path(str(out) + ".state.json")
            self.kept, self.next_index, self.stats, data = _resume(self.out, self.side, params)
        self.size, self.digest, self.appending = len(data), hashlib.sha256(data), None
        self.newline_first = bool(data) and not data.endswith(b"\n")
        self.keys = {position_key(p.start) for p in self.kept}
        self.tried, self.new, self.t0 = 0, 0, time.perf_counter()
        self.call_stats: dict[str, int] = {}
        self.last_save = self.t0

    def done(self) -> bool:
        return len(self.kept) >= self.count

    def record(self, result: dict, bar) -> None:
        reason = result["reason"]
        if result["kept"] and result["key"] in self.keys:
            reason = "duplicate"
        if reason == "kept":
            puzzle = Puzzle.from_json(result["puzzle"], check_solutions=False)
            if self.out is not None:
                self.append(puzzle)
            self.kept.append(puzzle)
            self.keys.add(result["key"])
            self.new += 1
        elif reason == "cross-check disagrees":
            warnings.warn(
                f"candidate {result['index']}: the cross-check disagrees with the explicit "
                f"solver: {json.dumps(result.get('detail'))}",
                CrossCheckWarning,
                stacklevel=2,
            )
        self.stats[reason] = self.stats.get(reason, 0) + 1
        self.call_stats[reason] = self.call_stats.get(reason, 0) + 1
        self.next_index, self.tried = result["index"] + 1, self.tried + 1
        now = time.perf_counter()
        if reason == "kept" or now - self.last_save > 2.0:
            self.save_state()
            self.last_save = now
        if bar is not None:
            bar.update(1 if reason == "kept" else 0)
            bar.set_postfix(self.rates(now), refresh=False)

    def append(self, puzzle: Puzzle) -> None:
        """Append ``puzzle`` to the file, the sidecar saying meanwhile what is being written."""
        data = puzzles_text([puzzle], "jsonl").encode("utf-8")
        if self.newline_first:  # the file's last line had no newline: it is kept whole
            data = b"\n" + data
        self.appending = data
        self.save_state()
        append_bytes(self.out, data)
        self.size += len(data)
        self.digest.update(data)
        self.appending, self.newline_first = None, False

    def rates(self, now: float | None = None) -> dict:
        """The progress bar's postfix: kept, tried, candidates/s, puzzles/min (this call)."""
        seconds = max((now or time.perf_counter()) - self.t0, 1e-9)
        return {
            "kept": len(self.kept),
            "tried": self.tried,
            "cand_per_s": f"{self.tried / seconds:.1f}",
            "puzzles_per_min": f"{60 * self.new / seconds:.1f}",
        }

    def save_state(self) -> None:
        if self.side is None:
            return
        appending = None if self.appending is None else self.appending.decode("utf-8")
        state = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "params": self.params,
            "next_index": self.next_index,
            "kept": len(self.kept),
            "reasons": dict(sorted(self.stats.items())),
            "file": {"size": self.size, "sha256": self.digest.hexdigest(), "appending": appending},
            "keys": sorted(self.keys),
        }
        write_atomic(self.side, (json.dumps(state, indent=1) + "\n").encode("utf-8"))


def _error_result(index: int, message: str) -> dict:
    return {**_blank(index), "reason": f"error: {message}"}


def _results(jobs, runner: Runner, done):
    """The candidates' results, in candidate order, until ``done()``. An exception or a dead
    worker process loses only its own candidate (reason ``error: ...``; see
    :mod:`taolong_lab.runner`)."""
    pairs = runner.map(evaluate, jobs, stop=done)
    with closing(pairs):
        for job, result in pairs:
            if "error" in result and "index" not in result:
                result = _error_result(job["index"], result["error"])
            yield result


def repair_tail(path, written: dict | None) -> int:
    """Cut away the torn end of the line a crashed run was appending to the ``.jsonl`` file
    ``path``, and nothing else.

    ``written`` is what the run's sidecar recorded (None: nothing): ``size``, the file's size
    after the run's last whole append, ``sha256``, the digest of those bytes, and
    ``appending``, the text it was appending then (or None). The bytes past ``size`` are cut
    only when the first ``size`` bytes still have that digest and the bytes past them are a
    strict beginning of ``appending``. Returns the number of lines cut (0 or 1).
    """
    if not written or written.get("appending") is None:
        return 0
    data = Path(path).read_bytes()
    size, appending = written["size"], written["appending"].encode("utf-8")
    torn = data[size:]
    if not (0 < len(torn) < len(appending) and appending.startswith(torn)):
        return 0
    if hashlib.sha256(data[:size]).hexdigest() != written["sha256"]:
        return 0
    with open(path, "r+b") as handle:
        handle.truncate(size)
        handle.flush()
        os.fsync(handle.fileno())
    return 1


def _resume(out: Path, side: Path, params: dict):
    """The puzzles already in ``out``, the next candidate index, the reasons counted and the
    file's bytes, once the file is checked (a torn append of this run cut away first)."""
    next_index, stats, written = 0, {}, None
    if side.exists():
        saved = _read_state(side, out, params)
        next_index, stats, written = saved["next_index"], saved["reasons"], saved.get("file")
    if not out.exists():
        return [], next_index, stats, b""
    if not out.is_file():
        raise GenerateError(f"{out}: not a regular file")
    if repair_tail(out, written):
        warnings.warn(f"{out}: cut away the torn line this run was appending", stacklevel=4)
        stats["torn line repaired"] = stats.get("torn line repaired", 0) + 1
    puzzles, problems = read_puzzles(out, check_solutions=False)
    if problems:
        line, field, reason = problems[0]
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        where = f"{out}:{line}" if line else f"{out}"
        raise GenerateError(
            f"{where}: {field}: {reason}{more}; the file is left as it is: fix it or write to "
            "another file"
        )
    for puzzle in puzzles:  # a crash after the file was written but before the sidecar
        prov = puzzle.provenance or {}
        index = prov.get("candidate")
        if (
            prov.get("generator") == GENERATOR
            and prov.get("seed") == params["seed"]
            and type(index) is int
            and 0 <= index < INDEX_LIMIT
        ):
            next_index = max(next_index, index + 1)
    return puzzles, next_index, stats, out.read_bytes()


def _read_state(side: Path, out: Path, params: dict) -> dict:
    """The sidecar's contents, checked: a GenerateError if it is not a generator state file
    or was written for other parameters."""
    try:
        if not side.is_file():
            raise ValueError("not a regular file")
        saved = json.loads(side.read_bytes().decode("utf-8"))
        _check_state(saved)
    except (OSError, ValueError, RecursionError) as exc:
        raise GenerateError(f"{side}: not a generator state file ({exc})") from None
    if saved["params"] != params:
        changed = sorted(k for k in params if saved["params"].get(k) != params[k])
        raise GenerateError(
            f"{out} was generated with other parameters ({', '.join(changed)}); "
            "use another --out file or the same parameters"
        )
    return saved


def _check_state(saved) -> None:
    """A ValueError naming the first field of the sidecar ``saved`` that is wrong."""

    def whole(value) -> bool:
        return type(value) is int and 0 <= value < INDEX_LIMIT

    if not isinstance(saved, dict) or saved.get("format") != STATE_FORMAT:
        raise ValueError(f"format: not {STATE_FORMAT!r}")
    if saved.get("version") not in (2, STATE_VERSION):
        raise ValueError(f"version: not 2 or {STATE_VERSION}")
    if not isinstance(saved.get("params"), dict):
        raise ValueError("params: not an object")
    if not whole(saved.get("next_index")):
        raise ValueError(f"next_index: not a whole number below {INDEX_LIMIT}")
    reasons = saved.get("reasons", {})
    if not isinstance(reasons, dict) or not all(whole(n) for n in reasons.values()):
        raise ValueError("reasons: not an object of whole numbers")
    saved["reasons"] = dict(reasons)
    if saved["version"] == 2:
        return  # no record of the bytes written: the file is left whole
    file = saved.get("file")
    if not (
        isinstance(file, dict)
        and whole(file.get("size"))
        and isinstance(file.get("sha256"), str)
        and re.fullmatch(r"[0-9a-f]{64}", file["sha256"])
        and isinstance(file.get("appending"), (str, type(None)))
    ):
        raise ValueError("file: not {size, sha256, appending}")


__all__ = [
    "GENERATOR",
    "GENERATOR_VERSION",
    "MAX_CANDIDATES_PER_PUZZLE",
    "CrossCheckWarning",
    "GenerateError",
    "evaluate",
    "generate",
    "repair_tail",
]
