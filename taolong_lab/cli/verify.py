"""``taolong verify FILE... [--full] [--method M] [--time-limit S] [--proof]
[--progress|--no-progress]``: replay and check every stored solution of each puzzle file
(:func:`taolong_lab.puzzles.verify.verify_puzzle`), and with ``--proof`` every stored SAT proof
(:func:`taolong_lab.puzzles.proofs.check_stored`).

Each puzzle's result is printed, and each problem under its ``FAIL``; with several files, each
file's results follow its name, and a file that cannot be read is reported and skipped. Any
problem is one error naming the first, exit status 2. A proof that fails its check is printed
with its problems, one a line, exit status 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tqdm.auto import tqdm

from ..errors import TaoLongError
from ..puzzles.proofs import FAILED, check_stored
from ..puzzles.verify import METHODS, unsolved_bound, verify_puzzle
from .common import (
    EXIT_OK,
    EXIT_UNKNOWN,
    MAX_SECONDS,
    PROG,
    CommandError,
    add_progress_option,
    number,
    puzzles_of,
    wants_progress,
)

EXIT_PROOF_FAILED = EXIT_UNKNOWN  # 1: a result (a proof that does not check), not bad input

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
    verify.add_argument(
        "files", nargs="+", metavar="FILE", help="puzzle files (.jsonl or .json), one or more"
    )
    verify.add_argument(
        "--full", action="store_true", help="re-prove each optimum too: no shorter win exists"
    )
    verify.add_argument(
        "--method",
        default="explicit",
        choices=METHODS,
        help="the solver that re-proves (--full); other: not the one named by the certificate",
    )
    verify.add_argument(
        "--time-limit",
        type=number(float, 0, MAX_SECONDS),
        metavar="S",
        help="--full: seconds for each re-proof, at most",
    )
    verify.add_argument(
        "--proof",
        action="store_true",
        help="check each stored SAT proof too (docs/proofs.md): exit 1 if one fails",
    )
    add_progress_option(verify)
    verify.set_defaults(run=run)


def run(args, out) -> int:
    """Verify each puzzle of each file of ``args.files`` and print its result.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    out : text file
        Where the results are printed.

    Returns
    -------
    int
        The exit status: 0, or 1 if a stored proof fails its check (``--proof``).

    Raises
    ------
    CommandError
        One for all the problems found, naming the first (each is printed under its puzzle,
        and each file that cannot be read on stderr).
    TaoLongError
        The one file given cannot be read.
    """
    several = len(args.files) > 1
    failures, failed_proofs = [], 0
    for file in args.files:
        if several:
            print(f"{file}:", file=out)
        try:
            problems, failed = _verify_file(file, args, out)
            failed_proofs += failed
        except TaoLongError as exc:
            if not several:
                raise
            print(f"{PROG}: error: {exc}", file=sys.stderr)
            failures.append(str(exc))
            continue
        if problems:
            failures.append(
                f"{file}: {len(problems)} problem(s), listed above; the first: {problems[0]}"
            )
    if failures and not several:
        raise CommandError(failures[0])
    if failures:
        raise CommandError(
            f"{len(failures)} of {len(args.files)} files failed; the first: {failures[0]}"
        )
    if several:
        print(f"{len(args.files)} files: all ok", file=out)
    return EXIT_PROOF_FAILED if failed_proofs else EXIT_OK


def _verify_file(file: str, args, out) -> tuple[list[str], int]:
    """Verify the puzzles of one file and print each one's result (a bar over the puzzles on
    stderr, if wanted); its problems, and how many of its stored proofs failed (``--proof``)."""
    failures, failed_proofs = [], 0
    puzzles = puzzles_of(file, check_solutions=False)
    bar = tqdm(puzzles, desc=file, unit="puzzle", leave=False, disable=not wants_progress(args))
    for puzzle in bar:
        problems = verify_puzzle(
            puzzle, full=args.full, time_limit=args.time_limit, method=args.method
        )
        if problems:
            failures.extend(f"{puzzle.id}: {p}" for p in problems)
            lines = [f"{puzzle.id}: FAIL", *(f"  {problem}" for problem in problems)]
        elif puzzle.solution is None:
            bound = unsolved_bound(puzzle)
            lines = [f"{puzzle.id}: ok (unsolved: no win in fewer than {bound} turns)"]
        else:
            extra = ", optimum re-proved" if args.full else ""
            lines = [f"{puzzle.id}: ok (win in {len(puzzle.solution)}{extra})"]
        if args.proof:
            status, found = check_stored(puzzle, Path(file).parent, progress=False)
            lines += [f"{puzzle.id}: proof {status}", *(f"  {problem}" for problem in found)]
            failed_proofs += status == FAILED
        for line in lines:
            bar.write(line, file=out)  # the bar, if shown, is drawn again under the line
    return failures, failed_proofs


__all__ = ["DESCRIPTION", "EXIT_PROOF_FAILED", "add_command", "run"]
