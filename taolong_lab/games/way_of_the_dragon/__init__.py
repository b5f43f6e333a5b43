"""Way of the Dragon (Nestor Romeral Andres, nestorgames) on the game protocol: a dice race of
2 to 5 players along five element paths (docs/games/way-of-the-dragon.md)."""

from .data import PathsData, paths_data
from .game import WAY_OF_THE_DRAGON, Settings, WayOfTheDragonGame, WayOfTheDragonState
from .keep import best_keep, best_move, element_count, keep_values

__all__ = [
    "WAY_OF_THE_DRAGON",
    "PathsData",
    "Settings",
    "WayOfTheDragonGame",
    "WayOfTheDragonState",
    "best_keep",
    "best_move",
    "element_count",
    "keep_values",
    "paths_data",
]
