"""``taolong verify FILE [--full] [--method M] [--time-limit S]``: replay and check every stored
solution of a puzzle file (:func:`taolong_lab.puzzles.verify.verify_puzzle`).

Each puzzle's result is printed, and each problem under its ``FAIL``; any problem is one error
naming the first, exit status 2.
"""

from __future__ import annotations

from ..puzzles.verify import METHODS, unsolved_bound, verify_puzzle
from .common import EXIT_OK, MAX_SECONDS, CommandError, number, puzzles_of

DESCRIPTION = (
    "Replay every stored solution (each turn legal, a win for the player in exactly the stored "
    "number of turns) and check that every certificate and difficulty field it knows agrees "
    "with the puzzle and with the others. This proves that the stored line wins in that many "
    "turns. It does not prove that no shorter win exists: the certificate's proof of that is "
    "checked for consistency, not redone. --full proves it, by re-proving each optimum with a "
    "solver."
)


def add_command(subparsers) -> None:
    """Add ``verify`` to the parser.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        What ``ArgumentParser.add_subparsers`` returned.
    """
    verify = subparsers.add_parser(
        "verify",
        help="replay and check every stored solution (--full: re-prove each optimum)",
        description=DESCRIPTION,
    )
    verify.add_argument("file", metavar="FILE")
    verify.add_argument(
        "--full", action="store_true", help="re-prove each optimum too: no shorter win exists"
    )
    verify.add_argument(
        "--method",
        default="explicit",
        choices=METHODS,
        help="the solver that re-proves (--full); other: not the one named by the certificate",
    )
    verify.add_argument("--time-limit", type=number(float, 0, MAX_SECONDS), metavar="S")
    verify.set_defaults(run=run)


def run(args, out) -> int:
    """Verify each puzzle of ``args.file`` and print its result.

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
        One for all the problems found, naming the first (each is printed under its puzzle).
    """
    failures = []
    for puzzle in puzzles_of(args.file, check_solutions=False):
        problems = verify_puzzle(
            puzzle, full=args.full, time_limit=args.time_limit, method=args.method
        )
        if problems:
            failures.extend(f"{puzzle.id}: {p}" for p in problems)
            print(f"{puzzle.id}: FAIL", file=out)
            for problem in problems:
                print(f"  {problem}", file=out)
        elif puzzle.solution is None:
            bound = unsolved_bound(puzzle)
            print(f"{puzzle.id}: ok (unsolved: no win in fewer than {bound} turns)", file=out)
        else:
            extra = ", optimum re-proved" if args.full else ""
            print(f"{puzzle.id}: ok (win in {len(puzzle.solution)}{extra})", file=out)
    if failures:
        raise CommandError(
            f"{args.file}: {len(failures)} problem(s), listed above; the first: {failures[0]}"
        )
    return EXIT_OK


__all__ = ["DESCRIPTION", "add_command", "run"]
