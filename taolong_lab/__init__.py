"""taolong_lab: a laboratory for the board game *Tao Long: The Way of the Dragon*.

>>> from taolong_lab import new_game
>>> game = new_game()
>>> game.to_move
'white'
>>> len(game.legal_turns())
6

The agents play every game through the game protocol (:mod:`taolong_lab.games`): here, at the
facade, a Tao Long :class:`State` is put behind it (:func:`game_state`), for :func:`analyse`
and :func:`match` as for an agent's ``choose``.
"""

import dataclasses

from . import agents as _agents
from .agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent
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
from .games import GameState, TaoLongState, as_line
from .puzzles import Puzzle, load_puzzles, save_puzzles
from .rules import OPTIONS, Rules
from .solvers import Solution, solve
from .version import __version__


def game_state(position) -> GameState:
    """A position behind the game protocol, for the agents: a Tao Long :class:`State`
    wrapped (a :class:`~taolong_lab.games.TaoLongState`), a ``GameState`` as it is.

    >>> from taolong_lab import GreedyAgent, new_game
    >>> turn = GreedyAgent(seed=1).choose(game_state(new_game()))
    >>> turn in new_game().legal_turns()
    True
    """
    return TaoLongState(position) if isinstance(position, State) else position


def analyse(
    state,
    *,
    time_limit: float | None = None,
    nodes: int | None = None,
    depth: int = _agents.alphabeta.MAX_DEPTH,
    weights=None,
    samples: int = 8,
):
    """:func:`taolong_lab.agents.analyse` of any position, a Tao Long :class:`State` among
    them: it is analysed behind the game protocol, and its analysis holds it and a
    :class:`Line`.

    Parameters
    ----------
    state : State or GameState
        The position.
    time_limit, nodes, depth, weights, samples
        As :func:`taolong_lab.agents.analyse` takes them.

    Returns
    -------
    taolong_lab.agents.Analysis

    Raises
    ------
    taolong_lab.agents.AgentError
        A bad budget or depth, or a chance event next.

    >>> found = analyse(new_game(), nodes=2000)
    >>> len(found.turns) == len(new_game().legal_turns()), found.line.start == new_game()
    (True, True)
    """
    found = _agents.analyse(
        game_state(state),
        time_limit=time_limit,
        nodes=nodes,
        depth=depth,
        weights=weights,
        samples=samples,
    )
    if not isinstance(state, State):
        return found
    return dataclasses.replace(found, state=state, line=as_line(found.line))


def review(record, **settings):
    """:func:`taolong_lab.agents.review` of a game record: every turn's win probability before
    and after, its class, the best turn and its line, and each side's accuracy.

    Parameters
    ----------
    record : taolong_lab.agents.GameRecord, str or Path
        The record, or a ``.jsonl`` file of records (its first is reviewed).
    **settings
        The review's budget and seed (``nodes``, ``time_limit``, ``depth``, ``seed``,
        ``weights``, ``progress``), as :func:`taolong_lab.agents.review` takes them.

    Returns
    -------
    taolong_lab.agents.Review

    Raises
    ------
    taolong_lab.agents.ReviewError
        A game of more than two players, or a bad budget.
    taolong_lab.agents.RecordError
        A file that holds no good record.
    """
    if not isinstance(record, _agents.GameRecord):
        records = _agents.load_records(record)
        if not records:
            raise _agents.RecordError(str(record), [(None, "file", "no record")])
        record = records[0]
    return _agents.review(record, **settings)


def match(a, b, *, start=None, **settings):
    """:func:`taolong_lab.agents.match` from any start, a Tao Long :class:`State` among them.

    Parameters
    ----------
    a, b : agents
        The two agents.
    start : State, GameState or None
        The start (default: Tao Long's).
    **settings
        The rest of :func:`taolong_lab.agents.match`'s settings (games, seed, max_turns, ...).

    Returns
    -------
    taolong_lab.agents.MatchResult
    """
    return _agents.match(a, b, start=None if start is None else game_state(start), **settings)


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
    "game_state",
    "load_puzzles",
    "match",
    "new_game",
    "parse_turn",
    "review",
    "save_puzzles",
    "solo_game",
    "solve",
]
