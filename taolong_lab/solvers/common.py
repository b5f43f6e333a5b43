"""What every solver shares: the :class:`Solution` value, :class:`SolverError`, budgets,
peak-memory measurement and crash-safe checkpoint files.

A checkpoint is one file per search, replaced atomically (a temporary file, ``fsync``, then
``os.replace``), so at every moment it holds either the previous or the new snapshot, never a
torn one. Snapshots are pickles: only load checkpoints you wrote yourself.
"""

from __future__ import annotations

import contextlib
import gc
import pickle
import re
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import TaoLongError
from ..files import write_atomic

CHECKPOINT_FORMAT = 1


class SolverError(TaoLongError):
    """The solver cannot work on this input (not a solo position, a bad budget, a checkpoint
    for another position, ...)."""


@dataclass(frozen=True)
class Solution:
    """What a solver proved.

    ``status``: ``"optimal"`` (``optimum`` turns is the fewest, ``line`` one such line),
    ``"unknown"`` (a budget or an interrupt stopped the search: no win in fewer than
    ``proved_no_win_below`` turns), ``"no-win"`` (every reachable position was searched: the
    player cannot win). ``optimal_first_turns``: how many first turns start an optimal line
    (None if the budget ran out while counting them). ``certificate``: plain JSON (it fits the
    puzzle format's ``certificate``). ``stats``: positions expanded and generated, seconds (wall
    and CPU), positions per second, peak memory (MB, the peak resident set during this solve
    on Linux).
    """

    status: str
    optimum: int | None
    line: tuple[str, ...]
    optimal_first_turns: int | None
    certificate: dict = field(hash=False)
    stats: dict = field(hash=False)
    proved_no_win_below: int
    start: str = ""

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "optimum": self.optimum,
            "line": list(self.line),
            "optimal_first_turns": self.optimal_first_turns,
            "proved_no_win_below": self.proved_no_win_below,
            "certificate": self.certificate,
            "stats": self.stats,
            "start": self.start,
        }

    @classmethod
    def from_json(cls, data: dict) -> Solution:
        """The inverse of :meth:`to_json`."""
        return cls(
            data["status"],
            data["optimum"],
            tuple(data["line"]),
            data["optimal_first_turns"],
            data["certificate"],
            data["stats"],
            data["proved_no_win_below"],
            data.get("start", ""),
        )


def solo_start(puzzle_or_state, solver: str):
    """The start position of a puzzle (or a State), checked to be a solo position; ``solver``
    names the solver in the error."""
    from ..engine import State

    if isinstance(puzzle_or_state, State):
        state = puzzle_or_state
    elif isinstance(getattr(puzzle_or_state, "start", None), State):
        state = puzzle_or_state.start
    else:
        raise SolverError(f"solve needs a Puzzle or a State, not {type(puzzle_or_state).__name__}")
    if not state.rules.solo:
        raise SolverError(
            f"the {solver} solver is for solo challenges; {state.rules.token()!r} is a "
            "two-player position (explore() and retrograde_two_player() work on those)"
        )
    return state


# ---- the garbage collector ---------------------------------------------------------------
@contextlib.contextmanager
def paused_gc():
    """The cyclic garbage collector off for the block (or the decorated call), then restored
    as it was.

    The solvers build millions of small acyclic objects (positions, gates, clauses) that
    live to the end of the search, and each of the collector's full passes walks them all:
    a third of the explicit solver's time and of the SAT encoder's (docs/performance.md).
    Reference counting still frees everything acyclic; the few cycles wait for the first
    collection after the block."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# ---- peak memory ---------------------------------------------------------------------------
_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


def reset_peak_memory() -> bool:
    """Reset the process's peak resident set (Linux: ``5 > /proc/self/clear_refs``), so the
    next :func:`peak_memory_mb` measures from now. False where that is not possible."""
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


def peak_memory_mb() -> float:
    """The peak resident set in MB: since the last :func:`reset_peak_memory` on Linux, else the
    process's lifetime peak (``ru_maxrss``)."""
    with contextlib.suppress(OSError):
        found = re.search(r"VmHWM:\s+(\d+)\s+kB", _STATUS.read_text())
        if found:
            return round(int(found.group(1)) / 1024, 1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


# ---- budgets -------------------------------------------------------------------------------
class Budget:
    """A time limit (seconds of wall clock) and a cap on positions expanded, checked between
    expansions. ``earlier`` seconds and expansions (from a resumed checkpoint) count too."""

    def __init__(self, time_limit, max_states, *, earlier_seconds=0.0, earlier_expanded=0):
        if time_limit is not None and time_limit < 0:
            raise SolverError(f"time_limit must be >= 0 seconds, got {time_limit}")
        if max_states is not None and max_states < 0:
            raise SolverError(f"max_states must be >= 0, got {max_states}")
        self.t0 = time.perf_counter()
        self.cpu0 = time.process_time()
        self.deadline = None if time_limit is None else self.t0 + time_limit
        self.max_states = max_states
        self.expanded = earlier_expanded
        self.generated = 0
        self.earlier_seconds = earlier_seconds
        self.reason: str | None = None

    def spent(self) -> bool:
        if self.max_states is not None and self.expanded >= self.max_states:
            self.reason = f"max_states={self.max_states} positions expanded"
            return True
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            self.reason = "time_limit reached"
            return True
        return False

    def seconds(self) -> float:
        """Wall-clock seconds of this run (a resumed run's earlier seconds not included)."""
        return time.perf_counter() - self.t0

    def cpu_seconds(self) -> float:
        return time.process_time() - self.cpu0


# ---- checkpoints ---------------------------------------------------------------------------
class Checkpoint:
    """A solver's snapshot file: :meth:`load` what an earlier run saved for the same position
    and solver, :meth:`save` (atomically) a dict of plain data. Periodic saves (:meth:`due`)
    come every ``every`` seconds, or every ``OVERHEAD`` times the last save's duration if
    that is longer: a big search never spends more than about 1/``OVERHEAD`` of its time
    saving."""

    OVERHEAD = 10

    def __init__(self, path, *, solver: str, start: str, every: float = 60.0):
        self.path = Path(path)
        self.solver, self.start, self.every = solver, start, every
        self.last = time.perf_counter()
        self.duration = 0.0
        self.saves = 0

    def load(self) -> dict | None:
        """The saved snapshot, or None when there is no file. Raises :class:`SolverError`
        naming the file and the field when it is not a snapshot of this position."""
        if not self.path.exists():
            return None
        try:
            data = pickle.loads(self.path.read_bytes())
        except Exception as exc:  # a foreign or damaged file
            raise SolverError(f"checkpoint {self.path}: not a solver checkpoint ({exc})") from None
        if not isinstance(data, dict):
            raise SolverError(f"checkpoint {self.path}: not a solver checkpoint")
        for name, want in (
            ("format", CHECKPOINT_FORMAT),
            ("solver", self.solver),
            ("start", self.start),
        ):
            if data.get(name) != want:
                raise SolverError(
                    f"checkpoint {self.path}: field {name!r} is {data.get(name)!r}, this search "
                    f"needs {want!r}; delete the file or pass another checkpoint path"
                )
        return data

    def due(self) -> bool:
        return time.perf_counter() - self.last >= max(self.every, self.OVERHEAD * self.duration)

    def save(self, snapshot: dict) -> None:
        began = time.perf_counter()
        data = {"format": CHECKPOINT_FORMAT, "solver": self.solver, "start": self.start}
        data.update(snapshot)
        write_atomic(self.path, pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
        self.last = time.perf_counter()
        self.duration = self.last - began
        self.saves += 1


__all__ = [
    "Budget",
    "Checkpoint",
    "Solution",
    "SolverError",
    "peak_memory_mb",
    "reset_peak_memory",
    "solo_start",
]


def sow_table(bagua, opp_stone: str) -> dict:
    """The Grasshopper solo sowings of ``bagua`` (counter-clockwise, the element where the last
    stone lands, the opponent's group where its stones land): ``{space: (new bagua, group,
    element)}``.

    >>> sow_table(("", "WB", "", "", "", "", "", ""), "B")
    {1: (('', '', 'W', 'B', '', '', '', ''), (3,), 3)}
    """
    n = len(bagua)
    out = {}
    for space in range(n):
        stack = bagua[space]
        if not stack:
            continue
        new = list(bagua)
        new[space] = ""
        group = []
        i = space
        for stone in stack:
            i = (i + 1) % n
            new[i] += stone
            if stone == opp_stone:
                group.append(i)
        out[space] = (tuple(new), tuple(group), i)
    return out
