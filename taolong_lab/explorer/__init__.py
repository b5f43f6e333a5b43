"""The Explorer: play, step through and solve Tao Long positions and puzzles.

- ``builder``: :class:`TurnBuilder`, a legal turn chosen one step at a time, with the reason
  for every choice not offered; no view.
- ``session``: :class:`ExplorerSession`, a line of play with a current position, the turn
  being built there, undo and redo, the messages, the bundled puzzles and the solvers' hints;
  no view.
- ``widget``: :class:`Explorer`, the ipywidgets view of a session (JupyterLab), which only
  draws and forwards clicks.

Importing this package never imports ipywidgets: ``Explorer`` is loaded on first use.
"""

from .builder import Choice, ExplorerError, Offer, TurnBuilder
from .session import ExplorerSession, bundled_puzzles


def __getattr__(name: str):
    if name == "Explorer":
        from .widget import Explorer

        return Explorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Choice",
    "Explorer",
    "ExplorerError",
    "ExplorerSession",
    "Offer",
    "TurnBuilder",
    "bundled_puzzles",
]
