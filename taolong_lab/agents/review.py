"""A game review like a chess site's: every position of a game record analysed, each turn
scored and classed, each side's accuracy.

:func:`review` runs :func:`~.analysis.analyse` on the position before each turn (a game of one
or two players of the protocol, with its own evaluation or the default one; chance outcomes
are not turns and are skipped). The analysis gives every legal turn a score from the same
search, so each turn gets, from the mover's side:

- ``before``: the win probability with the best turn, ``after``: with the turn played. A score
  becomes a probability on the evaluation's own logistic scale, ``1 / (1 + exp(-score /
  scale))`` (Tao Long: 40 points for odds of e to 1; a proved win is 1, a proved loss 0);
- the class, by the probability lost (``before - after``) against :data:`THRESHOLDS`:
  ``best`` (the best turn, or one as good), ``good`` (less than an inaccuracy loses),
  ``inaccuracy``, ``mistake``, ``blunder``;
- the best turn and its line when it is not the one played, and a result the search proved;
- an accuracy (see :func:`move_accuracy` and :func:`side_accuracy`).

The thresholds and the accuracy follow lichess (``lila``, ``modules/analyse``: ``Advice.scala``
for the classes, ``AccuracyPercent.scala`` for the accuracy; the formulas are on
https://lichess.org/page/accuracy), moved from lichess's win percentage of a centipawn score to
the evaluation's own logistic scale. docs/review.md says where the lab
differs: the loss is measured within one search (the best turn against the turn played), not
between the evaluations of two positions.

With ``nodes`` and no ``time_limit`` a review depends only on the record, the budget and the
seed: two runs give the same review, byte for byte.

>>> from taolong_lab.agents import GameRecord
>>> from taolong_lab.games import TAOLONG
>>> record = GameRecord.from_actions(TAOLONG.new(scenario="torus"), [], ("me", "you"))
>>> review(record, nodes=100).notes
()
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from ..errors import TaoLongError
from ..games import MATE_BOUND
from .analysis import Analysis, AnalysisSettings
from .annotations import CLASSES, Annotation, ReviewNote
from .records import GameRecord
from .scoring import evaluation_for

THRESHOLDS = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
"""The win probability a turn loses at least, for each class worse than ``good`` (lichess's:
0.3, 0.2 and 0.1 of its winning chances, which run from -1 to 1, so half of each here)."""
DEFAULT_NODES = 10_000
"""A review's budget a position when none is given."""
SYMBOLS = {"best": "", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The chess sign of each class, for the text report."""


class ReviewError(TaoLongError):
    """A record that cannot be reviewed (a game of more than two players), or a bad budget."""


def win_probability(score: float, scale: float) -> float:
    """A score in the evaluation's points as a win probability: ``1 / (1 + exp(-score /
    scale))``, exactly 1 or 0 for a proved win or loss.

    Parameters
    ----------
    score : float
        From the mover's side.
    scale : float
        The evaluation's points for odds of e to 1.

    Returns
    -------
    float

    >>> win_probability(0.0, 40.0), round(win_probability(40.0, 40.0), 4)
    (0.5, 0.7311)
    """
    if score > MATE_BOUND:
        return 1.0
    if score < -MATE_BOUND:
        return 0.0
    return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, score / scale))))


def classify(loss: float, best: bool) -> str:
    """The class of a turn that loses ``loss`` win probability (``best``: it is the best turn,
    or scores as well).

    >>> classify(0.0, True), classify(0.04, False), classify(0.12, False), classify(0.2, False)
    ('best', 'good', 'mistake', 'blunder')
    """
    if best:
        return "best"
    for name, least in THRESHOLDS:
        if loss >= least:
            return name
    return "good"


def move_accuracy(before: float, after: float) -> float:
    """A turn's accuracy, 0 to 100, from the mover's win probability before and after it:
    lichess's curve ``103.1668 exp(-0.04354 d) - 3.1669`` of the win percentage lost ``d``, with
    its bonus of 1 for an imperfect analysis; 100 when nothing is lost.

    >>> move_accuracy(0.6, 0.6), round(move_accuracy(0.6, 0.45), 1)
    (100.0, 51.5)
    """
    if after >= before:
        return 100.0
    lost = 100.0 * (before - after)
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * lost) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1.0))


def volatility_weights(series: list[float]) -> list[float]:
    """Each turn's weight in a side's accuracy (lichess's): the standard deviation of the
    first player's win percentage over a window of positions around it, from 0.5 to 12. The
    window is a tenth of the game's turns, from 2 to 8 positions; the first turns share the
    first window. ``series`` is the first player's win probability before each turn, then at
    the end: one weight a turn.

    >>> volatility_weights([0.5, 0.5, 0.5])
    [0.5, 0.5]
    """
    percents = [100.0 * p for p in series]
    size = min(max((len(percents) - 1) // 10, 2), 8)
    windows = [percents[:size]] * (min(size, len(percents)) - 2)
    if len(percents) < size:
        windows.append(percents)
    else:
        windows += [percents[i : i + size] for i in range(len(percents) - size + 1)]
    return [min(12.0, max(0.5, _deviation(window))) for window in windows]


def _deviation(values: list[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def side_accuracy(accuracies: list[float], weights: list[float]) -> float:
    """A side's accuracy, 0 to 100 (lichess's game accuracy): the mean of its turns'
    accuracies weighted by volatility and their harmonic mean, averaged. A turn of accuracy 0
    makes the harmonic mean 0.

    >>> side_accuracy([100.0, 50.0], [1.0, 3.0])
    64.58333333333334
    """
    weighted = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / sum(weights)
    harmonic = 0.0 if min(accuracies) <= 0 else len(accuracies) / sum(1 / a for a in accuracies)
    return (weighted + harmonic) / 2


def note_for(found: Analysis, action, scale: float) -> Annotation:
    """The note of the turn ``action`` played in the position ``found`` analysed.

    Parameters
    ----------
    found : Analysis
        The position's analysis, every legal turn scored.
    action
        The turn played there.
    scale : float
        The evaluation's points for odds of e to 1.

    Returns
    -------
    Annotation
    """
    played = next(t for t in found.turns if str(t.turn) == str(action))
    best = found.line.actions[0] if len(found.line) else found.turns[0].turn
    before = win_probability(found.score, scale)
    after = win_probability(played.score, scale)
    is_best = str(best) == str(action) or played.score >= found.score
    line = () if is_best else tuple(found.line.notation()) or (str(best),)
    return Annotation(
        classify(max(0.0, before - after), is_best),
        before,
        after,
        found.score,
        played.score,
        None if is_best else str(best),
        line,
        found.proved,
        found.plies,
        move_accuracy(before, after),
        found.depth,
    )


@dataclass(frozen=True)
class Review:
    """A reviewed game: ``record``, ``notes`` (one :class:`~.annotations.Annotation` an
    action, None for a chance outcome), ``movers`` (the side name of each action's mover,
    None for a chance outcome) and ``note`` (the budget, the seed, the scale and each side's
    accuracy)."""

    record: GameRecord
    notes: tuple[Annotation | None, ...]
    movers: tuple[str | None, ...]
    note: ReviewNote

    @property
    def accuracy(self) -> dict[str, float]:
        """Each side's accuracy, 0 to 100, for the sides that moved."""
        return dict(self.note.accuracy)

    def counts(self) -> dict[str, dict[str, int]]:
        """How many turns of each class each side played."""
        out = {side: dict.fromkeys(CLASSES, 0) for side, _ in self.note.accuracy}
        for side, note in zip(self.movers, self.notes, strict=True):
            if note is not None:
                out[side][note.kind] += 1
        return out

    def series(self) -> list[tuple[int, float]]:
        """The first side's win probability at each position reviewed and at the end, as
        ``(actions played, probability)``: the evaluation graph."""
        return _series(self.record, self.notes, self.movers)

    def annotated(self) -> GameRecord:
        """The record with the notes: the same format, with the optional fields
        ``annotations`` and ``review``."""
        notes = tuple(None if n is None else n.rounded() for n in self.notes)
        return dataclasses.replace(self.record, annotations=notes, review=self.note.rounded())

    @classmethod
    def of_record(cls, record: GameRecord) -> Review:
        """The review an annotated record holds (:meth:`annotated`).

        Raises
        ------
        ReviewError
            The record holds no review.
        """
        if record.annotations is None or record.review is None:
            raise ReviewError("the record holds no review: make one with review()")
        return cls(record, record.annotations, _movers(record), record.review)

    def text(self) -> str:
        """The report: a line a turn, then each side's accuracy and mistakes."""
        from .review_text import report

        return report(self)

    def plot(self, ax=None):
        """The evaluation graph (matplotlib): the first side's win probability by turn, the
        mistakes and blunders marked. Returns the figure."""
        from .review_text import plot

        return plot(self, ax)

    def __str__(self) -> str:
        return self.text()


def _movers(record: GameRecord) -> tuple[str | None, ...]:
    sides = record.sides
    return tuple(
        None if state.current_player() < 0 else sides[state.side_to_move()]
        for state in record.states()[:-1]
    )


def _series(record, notes, movers) -> list[tuple[int, float]]:
    first = record.sides[0]
    points = []
    for index, (note, side) in enumerate(zip(notes, movers, strict=True)):
        if note is not None:
            points.append((index, note.before if side == first else 1.0 - note.before))
    end = record.trajectory().end
    if end.is_terminal():
        winner = record.winner
        points.append((len(notes), 0.5 if winner is None else float(winner == first)))
    elif points:
        last = max(i for i, n in enumerate(notes) if n is not None)
        after = notes[last].after
        points.append((last + 1, after if movers[last] == first else 1.0 - after))
    return points


def review(record: GameRecord, *, progress: bool = False, **settings) -> Review:
    """Review a game: analyse the position before each turn and note the turn played.

    Parameters
    ----------
    record : GameRecord
        A game of one or two players (Tao Long, a sister game, any game of the protocol).
    progress
        Show a progress bar (one step a position).
    **settings
        How each position is analysed: ``nodes``, ``time_limit`` (the budget a position,
        default ``nodes=10000``), ``depth``, ``seed`` (the positions drawn in a game with
        hidden information) and ``weights``, the fields of
        :class:`~.analysis.AnalysisSettings`.

    Returns
    -------
    Review

    Raises
    ------
    ReviewError
        A game of more than two players, or a bad budget or seed.
    """
    search = AnalysisSettings(**settings).checked(ReviewError, DEFAULT_NODES)
    played = record.trajectory()
    states = played.states()
    if states[0].players > 2:
        raise ReviewError(f"a review analyses games of one or two players, not {states[0].players}")
    scale = evaluation_for(states[0], search.weights).scale
    movers = _movers(record)
    notes = []
    with _bar(sum(m is not None for m in movers), progress) as bar:
        for state, action, side in zip(states, played.actions, movers, strict=False):
            if side is None:
                notes.append(None)
                continue
            notes.append(note_for(search.analyse(state), action, scale))
            bar.update(1)
    accuracy = _accuracies(record, notes, movers)
    note = ReviewNote(search.nodes, search.time_limit, search.seed, scale, accuracy)
    return Review(record, tuple(notes), movers, note)


def _accuracies(record, notes, movers) -> tuple[tuple[str, float], ...]:
    """Each side's accuracy, in the order of the record's sides."""
    series = [p for _, p in _series(record, notes, movers)]
    reviewed = [(side, note) for side, note in zip(movers, notes, strict=True) if note]
    weights = volatility_weights(series) if reviewed else []
    out = []
    for side in record.sides:
        mine = [(n.accuracy, w) for (s, n), w in zip(reviewed, weights, strict=True) if s == side]
        if mine:
            out.append((side, side_accuracy([a for a, _ in mine], [w for _, w in mine])))
    return tuple(out)


class _bar:
    """A tqdm progress bar, or nothing."""

    def __init__(self, total: int, shown: bool):
        self.bar = None
        if shown:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, desc="review", unit="position", leave=False)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()

    def update(self, count: int) -> None:
        if self.bar is not None:
            self.bar.update(count)


__all__ = [
    "DEFAULT_NODES",
    "SYMBOLS",
    "THRESHOLDS",
    "Review",
    "ReviewError",
    "classify",
    "move_accuracy",
    "note_for",
    "review",
    "side_accuracy",
    "volatility_weights",
    "win_probability",
]
