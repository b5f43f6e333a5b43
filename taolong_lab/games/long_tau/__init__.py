"""Long Tau (Thomassen, 1943), a siege game for 2 or 4 players, on the game protocol
(docs/games/long-tau.md): the board (``board.py``, read from ``data/games/long-tau/``), the
rules on a plain board (``rules.py``), the game (``game.py``) and its endgame tables by
retrograde analysis (``endgames.py``)."""

from .board import AREAS, LongTauBoard, long_tau_board
from .game import LONG_TAU, PASS, LongTauGame, LongTauState, Move, Settings

__all__ = [
    "AREAS",
    "LONG_TAU",
    "PASS",
    "LongTauBoard",
    "LongTauGame",
    "LongTauState",
    "Move",
    "Settings",
    "long_tau_board",
]
