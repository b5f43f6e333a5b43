"""The opening table: every first turn of a start scored by a deep search at a fixed budget.

:func:`opening_table` plays each legal first turn and analyses the position it leads to
(:func:`~.analysis.analyse`, ``nodes`` positions each), so every first turn gets its own score
and principal variation, from the first player's side (the reply's score negated), and a win
probability on the evaluation's scale (:func:`~.review.win_probability`). The spread is the
best first turn's probability less the worst's. :func:`opening_starts` are the starts of
docs/review.md's table: the 8 scenarios of the Grasshopper mode in the current edition, and
The Field of the earlier edition.

>>> from taolong_lab.games import TAOLONG
>>> table = opening_table(TAOLONG.new(scenario="torus"), nodes=200)
>>> len(table.rows) == len(TAOLONG.new(scenario="torus").legal_actions())
True
>>> 0.0 <= table.spread <= 1.0
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import TaoLongError
from ..games import TAOLONG, WIN, GameState, winner
from ..rules import scenario_names
from .analysis import AnalysisSettings
from .review import _bar, win_probability
from .scoring import evaluation_for

DEFAULT_NODES = 100_000
"""The positions searched after each first turn when no budget is given."""
TABLE_NODES = 500_000
"""The budget of docs/review.md's table."""


class OpeningError(TaoLongError):
    """A start whose first turns cannot be tabled (not a game of two players), or a bad
    budget."""


@dataclass(frozen=True)
class OpeningRow:
    """One first turn: ``turn`` (notation), ``score`` (points, first player's side; a proved
    result past :data:`~taolong_lab.games.MATE_BOUND`), ``probability`` (the first player's
    win probability), ``proved`` (``"win"``/``"loss"`` for the first player, or None) and
    ``plies`` (to it, the first turn included), ``line`` (the turn, then the reply's principal
    variation) and ``depth`` (the plies the reply's search reached)."""

    turn: str
    score: float
    probability: float
    proved: str | None
    plies: int | None
    line: tuple[str, ...]
    depth: int


@dataclass(frozen=True)
class OpeningTable:
    """Every first turn of ``start`` (:class:`OpeningRow`, best first), searched with
    ``nodes`` positions each."""

    start: GameState
    nodes: int | None
    time: float | None
    rows: tuple[OpeningRow, ...]

    @property
    def spread(self) -> float:
        """The best first turn's win probability less the worst's."""
        return self.rows[0].probability - self.rows[-1].probability if self.rows else 0.0

    def to_json(self) -> dict:
        return {
            "start": self.start.to_string(),
            "nodes": self.nodes,
            "time": self.time,
            "spread": self.spread,
            "rows": [row.__dict__ | {"line": list(row.line)} for row in self.rows],
        }


def opening_starts(scenarios=None, editions=None) -> list[GameState]:
    """The starts of the opening table: each scenario's in the Grasshopper mode, current
    edition, and The Field's in the earlier edition (``scenarios`` and ``editions`` pick some;
    the earlier edition builds only The Field and The Valley, and the table keeps The Field).

    >>> [s.state.rules.scenario for s in opening_starts(["field"])]
    ['field', 'field']
    """
    starts = []
    for edition in editions or ("current", "earlier"):
        for scenario in scenarios or scenario_names():
            if edition == "earlier" and scenario != "field":
                continue
            starts.append(TAOLONG.new(scenario=scenario, edition=edition))
    return starts


def opening_table(start: GameState, *, progress: bool = False, **settings) -> OpeningTable:
    """Score every first turn of ``start`` (see the module docstring).

    Parameters
    ----------
    start : GameState
        A position of a game of two players, the first player to move.
    progress
        Show a progress bar (one step a first turn).
    **settings
        How the position after each first turn is analysed: ``nodes``, ``time_limit`` (the
        budget, default ``nodes=100000``), ``depth``, ``seed`` and ``weights``, the fields of
        :class:`~.analysis.AnalysisSettings`.

    Returns
    -------
    OpeningTable

    Raises
    ------
    OpeningError
        Not a game of two players, a chance event next, or a bad budget.
    """
    search = AnalysisSettings(**settings).checked(OpeningError, DEFAULT_NODES)
    if start.players != 2 or start.current_player() < 0:
        raise OpeningError("the opening table is for a game of two players, a player to move")
    scale = evaluation_for(start, search.weights).scale
    me = start.current_player()
    rows = []
    pairs = start.successors()
    with _bar(len(pairs), progress) as bar:
        for action, after in pairs:
            rows.append(_row(action, after, me, scale, search))
            bar.update(1)
    rows.sort(key=lambda row: -row.score)
    return OpeningTable(start, search.nodes, search.time_limit, tuple(rows))


def _row(action, after, me, scale, search: AnalysisSettings) -> OpeningRow:
    """A first turn's row: the position after it analysed, its score seen from ``me``."""
    if after.is_terminal():
        won = winner(after) == me
        proved, score = ("win", WIN - 1) if won else ("loss", -(WIN - 1))
        return OpeningRow(str(action), score, float(won), proved, 1, (str(action),), 0)
    found = search.analyse(after)
    same = after.current_player() == me
    score, proved, plies = (found.score if same else -found.score), None, None
    if found.proved is not None:
        plies = found.plies + 1  # the first turn is a ply too
        proved = found.proved if same else ("loss" if found.proved == "win" else "win")
        score = WIN - plies if proved == "win" else -(WIN - plies)
    line = (str(action), *found.line.notation())
    return OpeningRow(
        str(action), score, win_probability(score, scale), proved, plies, line, found.depth
    )


__all__ = [
    "DEFAULT_NODES",
    "TABLE_NODES",
    "OpeningError",
    "OpeningRow",
    "OpeningTable",
    "opening_starts",
    "opening_table",
]
