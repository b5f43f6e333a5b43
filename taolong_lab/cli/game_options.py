"""What the game commands share (``play --vs/--game``, ``tournament``, ``balance``): the game
named by ``--game`` and its ``--option`` pairs, agents named by a spec, and the options of a run
of many games.

An agent is named by a spec, ``NAME[:key=value,...]``: ``random``, ``greedy``, ``alphabeta``
or ``mcts``, with ``time`` (seconds a move), ``nodes`` (positions a move), ``seed``, and
``depth`` (alpha-beta) or ``samples`` (greedy, alpha-beta), e.g. ``alphabeta:time=1``.
"""

from __future__ import annotations

from ..agents.base import MAX_SEED
from ..agents.matches import MAX_GAMES, MAX_TURNS
from ..errors import TaoLongError
from ..explorer.game_play import AGENTS
from ..games import TAOLONG, game
from ..rules.data import shown
from ..runner import MAX_WORKERS, RunnerError
from ..runner import check_scheduler as check_cluster
from .common import CommandError, add_progress_option, number, option_pairs
from .generate import _security, add_cluster_options

SPEC_KEYS = {
    "random": ("seed",),
    "greedy": ("seed", "samples"),
    "alphabeta": ("time", "nodes", "seed", "depth", "samples"),
    "mcts": ("time", "nodes", "seed"),
}


def agent_from_spec(spec: str, *, time: float | None = None, nodes: int | None = None):
    """The agent a spec names: ``NAME[:key=value,...]`` (see the module docstring).

    Parameters
    ----------
    spec : str
        E.g. ``"alphabeta:time=1"`` or ``"mcts:nodes=2000,seed=3"``.
    time, nodes : float, int or None
        A budget a move for a search agent that its spec does not give.

    Returns
    -------
    object
        The agent.

    Raises
    ------
    CommandError
        An unknown agent or key, or a bad value, naming the spec.

    >>> agent_from_spec("alphabeta:nodes=500,seed=2")
    AlphaBetaAgent(nodes=500, seed=2)
    """
    name, _, rest = spec.strip().partition(":")
    if name not in AGENTS:
        raise CommandError(
            f"agent {shown(spec)}: unknown agent {shown(name)}; agents: {', '.join(AGENTS)}"
        )
    given: dict = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = pair.partition("=")
        if not eq or key not in SPEC_KEYS[name]:
            keys = ", ".join(SPEC_KEYS[name])
            raise CommandError(
                f"agent {shown(spec)}: {shown(pair)}: {name} takes key=value with the keys {keys}"
            )
        try:
            value = float(raw) if key == "time" else int(raw)
        except ValueError:
            raise CommandError(f"agent {shown(spec)}: {key}: not a number: {shown(raw)}") from None
        given["time_limit" if key == "time" else key] = value
    if "time" in SPEC_KEYS[name] and "time_limit" not in given and "nodes" not in given:
        if time is not None:
            given["time_limit"] = time
        if nodes is not None:
            given["nodes"] = nodes
    try:
        return AGENTS[name](**given)
    except TaoLongError as exc:
        raise CommandError(f"agent {shown(spec)}: {exc}") from None


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
        type=number(int, 0, MAX_SEED - 1),
        default=0,
        help="the seed of the games (the same seed, the same games; default: 0)",
    )
    parser.add_argument(
        "--max-turns",
        metavar="N",
        type=number(int, 1, MAX_TURNS),
        default=300,
        help="the turn cap: a game still going is a draw",
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


def check_scheduler(args) -> None:
    """Refuse a bad ``--scheduler`` and ``--tls-*`` before any game is played."""
    try:
        check_cluster(args.scheduler, _security(args))
    except RunnerError as exc:
        raise CommandError(str(exc)) from None


__all__ = [
    "SPEC_KEYS",
    "add_run_arguments",
    "agent_from_spec",
    "check_scheduler",
    "game_options",
    "the_game",
]
