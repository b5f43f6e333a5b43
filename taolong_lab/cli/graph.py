"""``taolong graph --puzzle FILE[:ID] --depth D --out FILE.graphml|.gexf [--max-states N]
[--progress]``: explore a puzzle's state graph (at most
:data:`~taolong_lab.solvers.graph.MAX_STATES` positions unless told otherwise), solve it
backwards and write it."""

from __future__ import annotations

import sys
from pathlib import Path

from ..files import InputFileError
from ..solvers.graph import MAX_DEPTH, MAX_STATES, explore
from .common import EXIT_OK, MAX_COUNT, CommandError, number, puzzles_of


def add_command(subparsers) -> None:
    """Add ``graph`` to the parser.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        What ``ArgumentParser.add_subparsers`` returned.
    """
    graph = subparsers.add_parser("graph", help="write the state graph of a puzzle")
    graph.add_argument("--puzzle", required=True, metavar="FILE[:ID]")
    graph.add_argument(
        "--depth",
        required=True,
        type=number(int, 0, MAX_DEPTH),
        metavar="D",
        help=f"turns from the start, at most {MAX_DEPTH:,}",
    )
    graph.add_argument("--out", required=True, metavar="FILE.graphml|FILE.gexf")
    graph.add_argument(
        "--max-states",
        type=number(int, 1, MAX_COUNT),
        metavar="N",
        default=MAX_STATES,
        help=f"stop at N positions (default {MAX_STATES:,})",
    )
    graph.add_argument(
        "--progress",
        action="store_true",
        help="show a progress bar (shown anyway when stderr is a terminal)",
    )
    graph.set_defaults(run=run)


def run(args, out) -> int:
    """Explore the puzzle's graph, solve it backwards, write it and say what was written.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    out : text file
        Where the results are printed.

    Returns
    -------
    int
        The exit status: 0.

    Raises
    ------
    CommandError
        An output that is not .graphml or .gexf or cannot be written, a puzzle file that cannot
        be read.
    """
    suffix = Path(args.out).suffix.lower()
    if suffix not in (".graphml", ".gexf"):
        raise CommandError(f"--out {args.out}: use a .graphml or .gexf file")
    try:
        puzzle = puzzles_of(args.puzzle, check_solutions=False)[0]
    except InputFileError as exc:
        raise CommandError(f"--puzzle: {exc}") from None
    progress = args.progress or sys.stderr.isatty()
    graph = explore(puzzle.start, depth=args.depth, max_states=args.max_states, progress=progress)
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


__all__ = ["add_command", "run"]
