"""taolong_lab: a laboratory for the board game *Tao Long: The Way of the Dragon*.

>>> from taolong_lab import new_game
>>> game = new_game()
>>> game.to_move
'white'
>>> len(game.legal_turns())
6
"""

from .agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent, analyse, match
from .engine import (
    ABSORB,
    EXPEL,
    Board,
    Dragon,
    Line,
    Phase,
    Result,
    State,
    Turn,
    parse_turn,
    solo_start,
    start_state,
)
from .errors import (
    DataError,
    IllegalTurnError,
    InvariantError,
    NotationError,
    PositionError,
    PuzzleError,
    RulesError,
    TaoLongError,
)
from .puzzles import Puzzle, load_puzzles, save_puzzles
from .rules import OPTIONS, Rules
from .solvers import Solution, solve
from .version import __version__


def new_game(scenario="field", mode="grasshopper", solo=False, edition="current", **options):
    """The start position of a game.

    ``options`` are the named rule options (see ``taolong_lab.OPTIONS`` and docs/rules.md).
    """
    return start_state(Rules.make(scenario, mode, solo, edition, **options))


def solo_game(
    scenario="field",
    mode="grasshopper",
    *,
    player="white",
    segments=3,
    water=4,
    bagua="standard",
    seed=None,
    edition="current",
    **options,
):
    """The start of a solo challenge: the player's dragon is always to move.

    ``segments`` (1-3) and ``water`` (1-4) are an int or a dict by colour; ``bagua`` is
    ``"standard"``, ``"shuffled"`` (stacks of two on the main spaces) or ``"random"``, drawn
    once from ``seed`` and stored in the position.

    >>> game = solo_game(player="black", segments={"black": 1})
    >>> game.player, len(game.dragon("black").cells)
    ('black', 2)
    >>> solo_game(bagua="shuffled", seed=7).bagua
    ('WB', '', 'BB', '', 'WW', '', 'WB', '')
    """
    rules = Rules.make(scenario, mode, True, edition, **options)
    return solo_start(rules, player, segments, water, bagua, seed)


def __getattr__(name: str):
    # Views are imported on demand: importing taolong_lab never imports ipywidgets.
    if name == "Explorer":
        from .explorer.widget import Explorer

        return Explorer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ABSORB",
    "EXPEL",
    "OPTIONS",
    "AlphaBetaAgent",
    "Board",
    "DataError",
    "Dragon",
    "GreedyAgent",
    "IllegalTurnError",
    "InvariantError",
    "Line",
    "MCTSAgent",
    "NotationError",
    "Phase",
    "PositionError",
    "Puzzle",
    "PuzzleError",
    "RandomAgent",
    "Result",
    "Rules",
    "RulesError",
    "Solution",
    "State",
    "TaoLongError",
    "Turn",
    "__version__",
    "analyse",
    "load_puzzles",
    "match",
    "new_game",
    "parse_turn",
    "save_puzzles",
    "solo_game",
    "solve",
]
