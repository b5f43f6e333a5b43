"""What a solver's run and a puzzle's stored line prove together (:func:`combine`).

A search stopped by its budget proves only a lower bound: no win in fewer than ``b`` turns. A
stored line that replays to a win in ``n`` turns proves an upper bound. When ``b == n`` the two
prove the optimum, though neither does alone.

>>> from taolong_lab import load_puzzles, solve
>>> puzzle = load_puzzles("puzzles/field-novice.jsonl")[5]
>>> stopped = solve(puzzle, max_states=3)
>>> stopped.status, stopped.proved_no_win_below, len(puzzle.solution)
('unknown', 2, 2)
>>> print(combine(stopped, puzzle))
optimal 2 (no win below 2 proved now; the stored line wins in 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Line
from ..errors import TaoLongError
from ..solvers import Solution, Status
from .format import Puzzle


@dataclass(frozen=True)
class Known:
    """A proved lower bound and a stored winning line, together.

    ``proved_no_win_below``: no win in fewer turns (proved by this run). ``line``: the stored
    line, replayed to a win for the player. ``optimum``: ``len(line)`` when the two meet, else
    None.
    """

    proved_no_win_below: int
    line: tuple[str, ...]

    @property
    def optimum(self) -> int | None:
        """The fewest turns to win when the bound meets the line's length, else None."""
        return len(self.line) if self.proved_no_win_below == len(self.line) else None

    def __str__(self) -> str:
        bound, length = self.proved_no_win_below, len(self.line)
        proved = f"no win below {bound} proved now; the stored line wins in {length}"
        if self.optimum is not None:
            return f"optimal {length} ({proved})"
        if bound > length:
            return f"contradiction ({proved}): one of them is wrong"
        return f"between {bound} and {length} turns ({proved})"

    def to_json(self) -> dict:
        """``optimum`` (or None), ``proved_no_win_below`` and the stored ``line``."""
        return {
            "optimum": self.optimum,
            "proved_no_win_below": self.proved_no_win_below,
            "line": list(self.line),
        }


def combine(solution: Solution, puzzle: Puzzle) -> Known | None:
    """The lower bound ``solution`` proved with the line ``puzzle`` stores.

    Only an ``"unknown"`` solution (a budget stopped it) is combined, and only with a stored
    line that replays from the puzzle's start to a win for its player: any other line proves
    nothing here.

    Parameters
    ----------
    solution : Solution
        What a solver proved about ``puzzle``.
    puzzle : Puzzle
        The puzzle, its stored solution read or not.

    Returns
    -------
    Known or None
        None for a solution that is exact already, or a puzzle without a winning stored line.
    """
    if solution.status != Status.UNKNOWN or not puzzle.solution:
        return None
    try:
        end = Line(puzzle.start, puzzle.solution).end
    except TaoLongError:  # a stored line that is not legal proves nothing
        return None
    result = end.outcome()
    if result is None or result.winner != puzzle.player:
        return None
    return Known(solution.proved_no_win_below, tuple(puzzle.solution))


__all__ = ["Known", "combine"]
