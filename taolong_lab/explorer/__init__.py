"""The Explorer: play, step through and solve Tao Long positions and puzzles.

- ``builder``: :class:`TurnBuilder`, a legal turn chosen one step at a time, with the reason
  for every choice not offered; no view.
- ``session``: :class:`ExplorerSession`, a line of play with a current position, the turn
  being built there, undo and redo, the messages, the bundled puzzles and the solvers' hints;
  no view.
- ``widget``: :class:`Explorer`, the ipywidgets view of a session (JupyterLab), which only
  draws and forwards clicks.
- ``agent_panel``: :class:`AgentPanel`, the computer opponent, the evaluation bar and the best
  line of the two-player game, and game records loaded; no view. ``agent_widget``: its
  controls, added to an Explorer by ``attach``.
- ``review_panel``: :class:`ReviewPanel`, the review mode: a reviewed game stepped through
  with the evaluation bar, each turn's class and the best alternative; no view.
  ``review_widget``: its controls, added to an Explorer by ``attach_review``.
- ``game_play``: :class:`GamePlay`, a game of any registered game played by people and
  agents; no view. ``game_widget``: :class:`GameWidget`, its ipywidgets view.
- ``page``: :class:`~.page.Page`, the web page's Python side (``make site``): a session and
  the computer opponent behind JSON, for a Web Worker; no view.

Importing this package never imports ipywidgets: ``Explorer`` is loaded on first use.
"""

from .agent_panel import AgentPanel
from .builder import Choice, ExplorerError, Offer, TurnBuilder
from .game_play import GamePlay
from .review_panel import ReviewPanel
from .session import ExplorerSession, bundled_puzzles


def __getattr__(name: str):
    if name == "Explorer":
        from .widget import Explorer

        return Explorer
    if name == "GameWidget":
        from .game_widget import GameWidget

        return GameWidget
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AgentPanel",
    "Choice",
    "Explorer",
    "ExplorerError",
    "ExplorerSession",
    "GamePlay",
    "GameWidget",
    "Offer",
    "ReviewPanel",
    "TurnBuilder",
    "bundled_puzzles",
]
