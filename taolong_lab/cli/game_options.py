"""What the game commands share (``play --vs/--game``, ``tournament``, ``balance``): the game
named by ``--game`` and its ``--option`` pairs, agents named by a spec, and the options of a run
of many games.

An agent is named by a spec, ``NAME[:key=value,...]``, e.g. ``alphabeta:time=1``: the agents
and their keys are the registry's (:mod:`taolong_lab.agents.registry`, docs/agents.md).
"""

from __future__ import annotations

from ..agents import registry
from ..agents.alphabeta import MAX_DEPTH
from ..agents.base import MAX_NODES, MAX_TIME
from ..agents.matches import MAX_GAMES
from ..errors import TaoLongError
from ..games import TAOLONG, game
from ..limits import MAX_SEED, MAX_TURNS
from ..rules.data import shown
from ..runner import MAX_WORKERS, Runner
from .common import CommandError, add_progress_option, number, option_pairs
from .generate import add_cluster_options, the_runner


def agents_help() -> str:
    """The registered agents' names, for a help text."""
    return ", ".join(kind.name for kind in registry.agents())


def agent_keys_help() -> str:
    """Each registered agent's spec keys, for a help text: ``random: seed; greedy: ...``."""
    return "; ".join(f"{kind.name}: {', '.join(kind.keys)}" for kind in registry.agents())


def game_options(pairs) -> dict:
    """The game options of ``--option NAME=VALUE`` pairs (each checked by the game)."""
    return option_pairs(
        pairs, lambda pair: CommandError(f"--option {shown(pair)}: must read name=value")
    )


def the_game(args):
    """The game of ``--game`` (default: Tao Long)."""
    try:
        return game(args.game or TAOLONG.name)
    except TaoLongError as exc:
        raise CommandError(f"--game: {exc}") from None


def add_run_arguments(parser, games: int) -> None:
    """Add the options of a run of many games (``tournament``, ``balance``) to ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    games : int
        The default of ``--games``.
    """
    parser.add_argument("--game", metavar="NAME", help="a registered game (default: taolong)")
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a game option, e.g. scenario=torus (repeatable)",
    )
    parser.add_argument(
        "--games",
        metavar="N",
        type=number(int, 1, MAX_GAMES),
        default=games,
        help=f"games a pairing or a cell (default: {games})",
    )
    parser.add_argument(
        "--seed",
        metavar="S",
        type=number(int, 0, MAX_SEED),
        default=0,
        help="the seed of the games (the same seed, the same games; default: 0)",
    )
    parser.add_argument(
        "--max-turns",
        metavar="N",
        type=number(int, 1, MAX_TURNS),
        default=None,
        help="the cap, in decisions (chance does not count): a game still going there is a "
        "draw, 'capped' (default: the game's own, 'taolong games NAME' shows it)",
    )
    parser.add_argument(
        "--workers",
        metavar="K",
        type=number(int, 1, MAX_WORKERS),
        default=1,
        help="processes at once (default: 1)",
    )
    add_cluster_options(parser)
    add_progress_option(parser)


def add_search_budget(command, *, per: str, default_nodes: int, seed_help: str) -> None:
    """Add ``--nodes``, ``--time``, ``--depth`` and ``--seed``: the budget of a search made
    ``per`` position (the review's, the opening table's).

    Parameters
    ----------
    command : argparse.ArgumentParser
    per : str
        What one search is for, as the help reads it ("a position", "a first turn").
    default_nodes : int
        The command's positions a search without ``--time``.
    seed_help : str
        What the seed makes reproducible.
    """
    command.add_argument(
        "--nodes",
        metavar="N",
        type=number(int, 1, MAX_NODES),
        help=f"positions searched {per} (default: {default_nodes:,} without --time)",
    )
    command.add_argument(
        "--time", metavar="S", type=number(float, 0, MAX_TIME), help=f"seconds {per}"
    )
    command.add_argument(
        "--depth",
        metavar="D",
        type=number(int, 1, MAX_DEPTH),
        default=MAX_DEPTH,
        help="the deepest search, in plies",
    )
    command.add_argument(
        "--seed", metavar="S", type=number(int, 0, MAX_SEED), default=0, help=seed_help
    )


def games_runner(args) -> Runner:
    """The :class:`~taolong_lab.runner.Runner` of ``--workers``, ``--scheduler``, ``--tls-*``
    and ``--progress``: a bad one is refused before any game is played."""
    return the_runner(args, args.workers)


__all__ = [
    "add_run_arguments",
    "agent_keys_help",
    "agents_help",
    "game_options",
    "games_runner",
    "the_game",
]
