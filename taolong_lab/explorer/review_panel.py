"""The Explorer's review mode, with no view: a reviewed Tao Long game stepped through with the
evaluation bar, each turn's class and the best alternative to the turn played.

A :class:`ReviewPanel` loads a game record into an :class:`~.session.ExplorerSession` (its
line, at the start): an annotated record (``taolong review --out``) as it is, any other one
reviewed first (:func:`taolong_lab.agents.review`, within the panel's budget). Then, at each
position the session shows, :meth:`~ReviewPanel.bar` is white's win probability there,
:meth:`~ReviewPanel.marks` gives each turn's class for the move list, :meth:`~ReviewPanel.best`
the best turn from the position shown when the turn played there was not it (the widget draws
it on the board, as a hint), and :meth:`~ReviewPanel.summary` says it in words. The thin
ipywidgets view is :mod:`.review_widget`.

>>> from taolong_lab import game_state, new_game
>>> from taolong_lab.agents import GameRecord
>>> from .session import ExplorerSession
>>> record = GameRecord.from_actions(game_state(new_game("torus")), ["He>Fi a3+"], ("a", "b"))
>>> panel = ReviewPanel(ExplorerSession(new_game()), nodes=200)
>>> panel.load(record).notes[0].kind in ("best", "good", "inaccuracy", "mistake", "blunder")
True
>>> 0.0 <= panel.bar() <= 1.0, sorted(panel.marks())
(True, [1])
"""

from __future__ import annotations

from ..agents import Review, review
from ..agents.review import SYMBOLS
from .agent_panel import SearchPanel


class ReviewPanel(SearchPanel):
    """The review mode of an Explorer session.

    Parameters
    ----------
    session, nodes, time_limit, seed
        As :class:`~.agent_panel.SearchPanel` takes them: the session it loads the game into,
        the budget a position of a review the panel runs (default ``nodes=2000``) and the
        review's seed.

    Raises
    ------
    ExplorerError
        A bad budget, named.
    """

    DEFAULT_BUDGET = (2000, None)
    review: Review | None = None

    def load(self, record, which: int | str = 0) -> Review:
        """Load a Tao Long game into the session and review it (an annotated record keeps its
        notes). ``record``: a :class:`~taolong_lab.agents.GameRecord` or a ``.jsonl`` file, of
        which the record at index ``which`` or with that id.

        Raises
        ------
        ExplorerError
            A file that does not read, a record not found, or not a Tao Long game.
        """
        record, line = self._record_line(record, which)
        if record.annotations is not None and record.review is not None:
            found = Review.of_record(record)
        else:
            found = review(record, nodes=self.nodes, time_limit=self.time_limit, seed=self.seed)
        self.session.load(line.start, line=line.turns, quiet=True)
        self.review = found
        shown_accuracy = ", ".join(f"{s} {a:.1f}" for s, a in found.note.accuracy)
        self.session.say(f"reviewed: accuracy {shown_accuracy or '-'}", "ok")
        return found

    def _loaded(self) -> bool:
        """Whether the session still shows the reviewed game's line."""
        if self.review is None:
            return False
        turns = [str(t) for t in self.session.line]
        return turns == list(self.review.record.turns)

    def bar(self) -> float:
        """White's win probability at the position shown (0.5 without a review)."""
        if not self._loaded():
            return 0.5
        return dict(self.review.series()).get(self.session.index, 0.5)

    def marks(self) -> dict[int, str]:
        """Each reviewed turn's class by its number (from 1), for the move list."""
        if not self._loaded():
            return {}
        return {i + 1: n.kind for i, n in enumerate(self.review.notes) if n is not None}

    def best(self) -> str | None:
        """The best turn from the position shown, when the turn played there was not it."""
        if not self._loaded() or self.session.index >= len(self.review.notes):
            return None
        note = self.review.notes[self.session.index]
        return None if note is None else note.best

    def summary(self) -> str:
        """The turn played from the position shown, its class and the best turn, in words
        ("" without a review, or at the end)."""
        if not self._loaded() or self.session.index >= len(self.review.notes):
            return ""
        index = self.session.index
        note = self.review.notes[index]
        played = self.review.record.turns[index]
        if note is None:
            return f"turn {index + 1}: {played}"
        text = (
            f"turn {index + 1} ({self.review.movers[index]}): {played}, {note.kind} "
            f"{SYMBOLS[note.kind]}".rstrip()
            + f" ({note.before:.0%} -> {note.after:.0%})"
        )
        if note.best is not None:
            text += f"; best {note.best}: {' '.join(note.line)}"
        return text


__all__ = ["ReviewPanel"]
