"""The Explorer's review mode: a thin ipywidgets view of a
:class:`~.review_panel.ReviewPanel`, added to an :class:`~.widget.Explorer` by
:func:`attach_review`.

Load a record (a ``.jsonl`` file and the record's index; an annotated record keeps its notes,
any other is reviewed within the budget), then step through it with the Explorer's buttons:
the evaluation bar shows white's win probability at the position shown, the move list each
turn's class, and the board the best alternative to the turn played from there.

>>> from taolong_lab import game_state, new_game
>>> from taolong_lab.agents import GameRecord
>>> from taolong_lab.explorer.widget import Explorer
>>> ex = Explorer()
>>> controls = attach_review(ex, nodes=200)
>>> record = GameRecord.from_actions(game_state(new_game("torus")), ["He>Fi a3+"], ("a", "b"))
>>> _ = controls.panel.load(record); ex._refresh()
>>> 'data-class="' in ex.moves.value, "data-share" in controls.bar.value
(True, True)
"""

from __future__ import annotations

import html

import ipywidgets as w

from .agent_panel import bar_html
from .review_panel import ReviewPanel
from .widget import Explorer


class ReviewControls(w.VBox):
    """A record to load and review, the evaluation bar and the turn played in words.

    Parameters
    ----------
    explorer : Explorer
        The Explorer it reviews in.
    nodes, time_limit, seed
        As :class:`~.review_panel.ReviewPanel` takes them.
    """

    def __init__(self, explorer: Explorer, *, nodes=None, time_limit=None, seed: int = 0):
        super().__init__()
        self.explorer = explorer
        self.panel = ReviewPanel(explorer.session, nodes=nodes, time_limit=time_limit, seed=seed)
        self.record_path = w.Text(placeholder="games.jsonl", description="review")
        self.record_index = w.BoundedIntText(value=0, min=0, max=10**6, layout={"width": "80px"})
        self.load_button = w.Button(description="load and review")
        self.load_button.on_click(explorer._guarded(lambda _b: self.load()))
        self.bar = w.HTML()
        self.bar.add_class("taolong-review-bar")
        self.turn = w.HTML()
        self.children = [
            w.HBox([self.record_path, self.record_index, self.load_button]),
            self.bar,
            self.turn,
        ]
        explorer.refresh_hooks.append(self.refresh)
        self.refresh()

    def load(self) -> None:
        self.panel.load(self.record_path.value, self.record_index.value)
        self.explorer._refresh()

    def refresh(self) -> None:
        """After each redraw: the classes in the move list, the best alternative on the
        board, the bar and the turn in words."""
        explorer, session = self.explorer, self.explorer.session
        marks = self.panel.marks()
        if marks != explorer.move_marks:
            explorer.move_marks = marks
            explorer.moves.value = explorer._moves_html()
        best = self.panel.best()
        if best is not None and not session.picked and session.hint_turn != best:
            session.hint_turn = best
            explorer.board.value = explorer.svg()
        self.bar.value = bar_html(self.panel.bar())
        self.turn.value = html.escape(self.panel.summary()) or "<i>no review loaded</i>"


def attach_review(explorer: Explorer, **budget) -> ReviewControls:
    """Add the review mode to ``explorer`` (``nodes=``, ``time_limit=``, ``seed=`` as
    :class:`ReviewControls` takes them); returns its controls."""
    controls = ReviewControls(explorer, **budget)
    explorer.children = (*explorer.children, controls)
    return controls


__all__ = ["ReviewControls", "attach_review"]
