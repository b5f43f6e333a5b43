"""Games behind one protocol (docs/games/protocol.md): Tao Long (``taolong/``, with its
evaluation), the sister games, and every game that implements :class:`Game` and
:class:`GameState`, for the agents, analysis, records, matches and the balance card.

>>> from taolong_lab.games import game, random_action
>>> import random
>>> state = game("taolong").new()
>>> after = state.apply(random_action(state, random.Random(0)))
>>> after.current_player()
1
"""

from .protocol import (
    CHANCE,
    MATE_BOUND,
    TERMINAL,
    WIN,
    Game,
    GameError,
    GameOption,
    GameState,
    draw_outcome,
    random_action,
    winner,
)
from .registry import game, games, register
from .taolong import TAOLONG, TaoLongGame, TaoLongState, as_line
from .trajectory import Trajectory

__all__ = [
    "CHANCE",
    "MATE_BOUND",
    "TAOLONG",
    "TERMINAL",
    "WIN",
    "Game",
    "GameError",
    "GameOption",
    "GameState",
    "TaoLongGame",
    "TaoLongState",
    "Trajectory",
    "as_line",
    "draw_outcome",
    "game",
    "games",
    "random_action",
    "register",
    "winner",
]
