"""Tao Long on the game protocol: the game (``game.py``, a thin view of the engine's
:class:`~taolong_lab.State`) and its evaluation (``evaluation.py``, the weights in
``data/evaluation.toml``), which the game gives the agents as its heuristic."""

from .evaluation import Weights, default_weights, evaluate, features, swap_colours, weights_from
from .game import (
    SOLO_OPPONENT,
    TAOLONG,
    TaoLongGame,
    TaoLongState,
    as_line,
    two_player_rules,
)

__all__ = [
    "SOLO_OPPONENT",
    "TAOLONG",
    "TaoLongGame",
    "TaoLongState",
    "Weights",
    "as_line",
    "default_weights",
    "evaluate",
    "features",
    "swap_colours",
    "two_player_rules",
    "weights_from",
]
