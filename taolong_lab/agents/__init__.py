"""Agents that play any game of the game protocol (Tao Long among them), the evaluation they read
from each game, analysis of a position, game records, matches and ratings, the balance report
card, and the registry of the agents by name (docs/agents.md, docs/games/protocol.md).

>>> from taolong_lab.agents import GreedyAgent
>>> from taolong_lab.games import game
>>> start = game("taolong").new()
>>> GreedyAgent(seed=1).choose(start) in start.legal_actions()
True
"""

from .alphabeta import AlphaBetaAgent
from .analysis import Analysis, TurnScore, analyse
from .balance import balance_card
from .base import Agent, AgentError, GreedyAgent, RandomAgent
from .matches import MatchResult, Rating, match, play, play_game, ratings, tournament
from .mcts import MCTSAgent
from .records import GameRecord, RecordError, append_record, load_records, save_records
from .review import Review, ReviewError, review

__all__ = [
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
    "Review",
    "ReviewError",
    "TurnScore",
    "analyse",
    "append_record",
    "balance_card",
    "load_records",
    "match",
    "play",
    "play_game",
    "ratings",
    "review",
    "save_records",
    "tournament",
]
