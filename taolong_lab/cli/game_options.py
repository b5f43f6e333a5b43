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
from .common import CommandError, add_progress_option, number, option_pairs, wants_progress
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
    counts = (  # flag, metavar, the range, the default, the help
        ("--games", "N", (1, MAX_GAMES), games, f"games a pairing or a cell (default: {games})"),
        (
            "--seed",
            "S",
            (0, MAX_SEED),
            0,
            "the seed of the games (the same seed, the same games; default: 0)",
        ),
        (
            "--max-turns",
            "N",
            (1, MAX_TURNS),
            None,
            "the cap, in decisions (chance does not count): a game still going there is a "
            "draw, 'capped' (default: the game's own, 'taolong games NAME' shows it)",
        ),
        ("--workers", "K", (1, MAX_WORKERS), 1, "processes at once (default: 1)"),
    )
    for flag, metavar, (low, high), default, what in counts:
        parser.add_argument(
            flag, metavar=metavar, type=number(int, low, high), default=default, help=what
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


def search_budget(args) -> dict:
    """The budget of :func:`add_search_budget`'s options as keyword arguments: ``nodes``,
    ``time_limit``, ``depth``, ``seed`` and ``progress`` (:func:`~.common.wants_progress`).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed with :func:`add_search_budget` and :func:`~.common.add_progress_option`.

    Returns
    -------
    dict

    Raises
    ------
    CommandError
        ``--time`` 0.
    """
    if args.time is not None and args.time <= 0:
        raise CommandError("--time: must be above 0 seconds")
    return {
        "nodes": args.nodes,
        "time_limit": args.time,
        "depth": args.depth,
        "seed": args.seed,
        "progress": wants_progress(args),
    }


def say_resumed(before: int, where: str, out) -> None:
    """Say, if ``before`` is not 0, that an earlier run played that many of the games (kept
    in ``where``).

    Parameters
    ----------
    before : int
    where : str
        The file or the folder of the games.
    out : text file
    """
    if before:
        print(f"resumed: {before} of the games were played by an earlier run ({where})", file=out)


def games_runner(args) -> Runner:
    """The :class:`~taolong_lab.runner.Runner` of ``--workers``, ``--scheduler``, ``--tls-*``
    and ``--progress``: a bad one is refused before any game is played."""
    return the_runner(args, args.workers)


__all__ = [
    "add_run_arguments",
    "add_search_budget",
    "agent_keys_help",
    "agents_help",
    "game_options",
    "games_runner",
    "say_resumed",
    "search_budget",
    "the_game",
]
