"""Agents that play Tao Long and any game of the game protocol, each game's evaluation, analysis
of a position, game records, matches and ratings, and the balance report card (docs/agents.md,
docs/games/protocol.md).

>>> from taolong_lab import new_game
>>> from taolong_lab.agents import GreedyAgent
>>> turn = GreedyAgent(seed=1).choose(new_game())
>>> turn in new_game().legal_turns()
True
"""

from .alphabeta import AlphaBetaAgent
from .analysis import Analysis, TurnScore, analyse
from .balance import balance_card
from .base import Agent, AgentError, GreedyAgent, RandomAgent
from .evaluation import WIN, Weights, default_weights, evaluate, features, swap_colours
from .matches import MatchResult, Rating, match, play, play_game, ratings, tournament
from .mcts import MCTSAgent
from .records import GameRecord, RecordError, append_record, load_records, save_records

__all__ = [
    "WIN",
    "Agent",
    "AgentError",
    "AlphaBetaAgent",
    "Analysis",
    "GameRecord",
    "GreedyAgent",
    "MCTSAgent",
    "MatchResult",
    "RandomAgent",
    "Rating",
    "RecordError",
    "TurnScore",
    "Weights",
    "analyse",
    "append_record",
    "balance_card",
    "default_weights",
    "evaluate",
    "features",
    "load_records",
    "match",
    "play",
    "play_game",
    "ratings",
    "save_records",
    "swap_colours",
    "tournament",
]
