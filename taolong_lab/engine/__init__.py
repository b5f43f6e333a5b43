"""The rules engine: positions, turns, notation."""

from .core import Dragon
from .geometry import cell_name, parse_cell
from .state import Result, State
from .turns import ABSORB, EXPEL, Phase, Turn, parse_turn

__all__ = [
    "ABSORB",
    "EXPEL",
    "Dragon",
    "Phase",
    "Result",
    "State",
    "Turn",
    "cell_name",
    "parse_cell",
    "parse_turn",
]
