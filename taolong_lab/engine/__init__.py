"""The rules engine: positions, turns, notation, the start of a game."""

from .core import CCW, CW, Dragon, Sown, sow
from .geometry import cell_name, parse_cell
from .line import Line
from .setup import solo_start, start_state
from .state import Board, Result, State
from .turns import ABSORB, EXPEL, Phase, Turn, parse_turn

__all__ = [
    "ABSORB",
    "CCW",
    "CW",
    "EXPEL",
    "Board",
    "Dragon",
    "Line",
    "Phase",
    "Result",
    "Sown",
    "State",
    "Turn",
    "cell_name",
    "parse_cell",
    "parse_turn",
    "solo_start",
    "sow",
    "start_state",
]
