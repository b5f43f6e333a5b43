"""``taolong graph FILE[:ID] --depth D --out FILE.graphml|.gexf [--max-states N]
[--progress|--no-progress]``: explore a puzzle's state graph (at most
:data:`~taolong_lab.solvers.graph.MAX_STATES` positions unless told otherwise), solve it
backwards and write it."""

from __future__ import annotations

from pathlib import Path

from ..solvers.graph import MAX_DEPTH, MAX_STATES, explore
from .common import (
    EXIT_OK,
    MAX_COUNT,
    Command,
    CommandError,
    add_progress_option,
    add_puzzle_argument,
    named_puzzle,
    number,
    puzzles_of,
    wants_progress,
)


def _arguments(graph) -> None:
    """The arguments of ``graph``."""
    add_puzzle_argument(graph, "a puzzle file (its first puzzle), or FILE:ID")
    graph.add_argument(
        "--depth",
        required=True,
        type=number(int, 0, MAX_DEPTH),
        metavar="D",
        help=f"turns from the start, at most {MAX_DEPTH:,}",
    )
    graph.add_argument(
        "--out",
        required=True,
        metavar="FILE.graphml|FILE.gexf",
        help="the file to write, GraphML or GEXF by its name",
    )
    graph.add_argument(
        "--max-states",
        type=number(int, 1, MAX_COUNT),
        metavar="N",
        default=MAX_STATES,
        help=f"stop at N positions (default {MAX_STATES:,})",
    )
    add_progress_option(graph)


def run(args, out) -> int:
    """``taolong graph``: explore the puzzle's graph, solve it backwards, write it and say
    what was written.

    Raises
    ------
    CommandError
        An output that is not .graphml or .gexf or cannot be written, a puzzle file that cannot
        be read.
    """
    suffix = Path(args.out).suffix.lower()
    if suffix not in (".graphml", ".gexf"):
        raise CommandError(f"--out {args.out}: use a .graphml or .gexf file")
    puzzle = puzzles_of(named_puzzle(args, required=True), check_solutions=False, strict=False)[0]
    graph = explore(
        puzzle.start, depth=args.depth, max_states=args.max_states, progress=wants_progress(args)
    )
    graph.retrograde()
    try:
        graph.write(args.out)
    except OSError as exc:
        raise CommandError(f"--out {args.out}: {exc.strerror or exc}") from None
    note = f" (stopped at --max-states {args.max_states:,})" if graph.truncated else ""
    print(
        f"{puzzle.id}: {len(graph)} positions, {graph.edge_count} turns, depth "
        f"{args.depth}{note} -> {args.out}",
        file=out,
    )
    return EXIT_OK


COMMAND = Command("graph", "write the state graph of a puzzle", run, _arguments)


__all__ = ["COMMAND", "run"]
