"""Rules as data: the constants of the game and the variants' options."""

from .data import COLOURS, ELEMENTS, GameData, data_dir, game_data, scenario_names
from .options import EDITIONS, MODES, OPTIONS, SOLO_EDITIONS, Option, Rules

__all__ = [
    "COLOURS",
    "EDITIONS",
    "ELEMENTS",
    "MODES",
    "OPTIONS",
    "SOLO_EDITIONS",
    "GameData",
    "Option",
    "Rules",
    "data_dir",
    "game_data",
    "scenario_names",
]
