"""taolong_lab: a laboratory for the board game *Tao Long: The Way of the Dragon*.

>>> from taolong_lab import new_game
>>> game = new_game()
>>> game.to_move
'white'
>>> len(game.legal_turns())
6
"""

from .engine import ABSORB, EXPEL, Dragon, Phase, Result, State, Turn, parse_turn
from .errors import (
    DataError,
    IllegalTurnError,
    InvariantError,
    NotationError,
    PositionError,
    RulesError,
    TaoLongError,
)
from .rules import OPTIONS, Rules

__version__ = "0.1.0"


def new_game(scenario="field", mode="grasshopper", solo=False, edition="current", **options):
    """The start position of a game.

    ``options`` are the named rule options (see ``taolong_lab.OPTIONS`` and docs/rules.md).
    """
    from .engine.codec import start_state

    return start_state(Rules.make(scenario, mode, solo, edition, **options))


__all__ = [
    "ABSORB",
    "EXPEL",
    "OPTIONS",
    "DataError",
    "Dragon",
    "IllegalTurnError",
    "InvariantError",
    "NotationError",
    "Phase",
    "PositionError",
    "Result",
    "Rules",
    "RulesError",
    "State",
    "TaoLongError",
    "Turn",
    "__version__",
    "new_game",
    "parse_turn",
]
