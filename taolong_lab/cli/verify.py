"""``taolong verify FILE... [--full] [--method M] [--time-limit S] [--proof]
[--progress|--no-progress]``: replay and check every stored solution of each puzzle file
(:func:`taolong_lab.puzzles.verify.verify_puzzle`), and with ``--proof`` every stored SAT proof
(:func:`taolong_lab.puzzles.proofs.check_stored`).

Each puzzle's result is printed, and each problem under its ``FAIL``; with several files, each
file's results follow its name, and a file that cannot be read is reported and skipped. Any
problem is one error naming the first, exit status 2. With ``--proof``, each proof's result
follows its puzzle's (what each horizon's claim rests on under a checked one, each problem
under a failed one), and a summary line ends the output: the proofs checked, missing, failed,
not checked (a budget) and the puzzles with none stored. A proof that was asked for and could
not be checked (missing, failed, over a budget) makes the exit status 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tqdm.auto import tqdm

from ..errors import TaoLongError
from ..puzzles.proofs import (
    CHECKED,
    FAILED,
    NO_PROOF,
    NO_PROOF_SENTENCE,
    NOT_PRESENT,
    UNCHECKED,
    stored_report,
)
from ..puzzles.verify import METHODS, unsolved_bound, verify_puzzle
from .common import (
    EXIT_OK,
    EXIT_UNKNOWN,
    MAX_SECONDS,
    PROG,
    Command,
    CommandError,
    add_progress_option,
    number,
    puzzles_of,
    wants_progress,
)

EXIT_PROOF_FAILED = EXIT_UNKNOWN  # 1: a result (a proof that does not check), not bad input
SUMMARY = ((CHECKED, "checked"), (NOT_PRESENT, "missing"), (FAILED, "failed"))
SUMMARY += ((UNCHECKED, "not checked (over a budget)"), (NO_PROOF, "puzzles with none stored"))

DESCRIPTION = (
    "Replay every stored solution (each turn legal, a win for the player in exactly the stored "
    "number of turns) and check that every certificate and difficulty field it knows agrees "
    "with the puzzle and with the others. This proves that the stored line wins in that many "
    "turns. It does not prove that no shorter win exists: the certificate's proof of that is "
    "checked for consistency, not redone. --full proves it, by re-proving each optimum with a "
    "solver."
)


def _arguments(verify) -> None:
    """The arguments of ``verify``."""
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
        help=(
            "check each stored SAT proof too (docs/proofs.md): exit 1 if one fails or cannot "
            "be checked (missing, over a budget)"
        ),
    )
    add_progress_option(verify)


def run(args, out) -> int:
    """``taolong verify``: verify each puzzle of each file of ``args.files`` and print its
    result.

    Returns
    -------
    int
        The exit status: 0, or 1 if a stored proof fails its check or cannot be checked
        (``--proof``).

    Raises
    ------
    CommandError
        One for all the problems found, naming the first (each is printed under its puzzle,
        and each file that cannot be read on stderr).
    TaoLongError
        The one file given cannot be read.
    """
    several = len(args.files) > 1
    failures, counts = [], dict.fromkeys([status for status, _ in SUMMARY], 0)
    for file in args.files:
        if several:
            print(f"{file}:", file=out)
        try:
            problems = _verify_file(file, args, out, counts)
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
    if args.proof:
        print("proofs: " + ", ".join(f"{counts[s]} {name}" for s, name in SUMMARY), file=out)
    if failures and not several:
        raise CommandError(failures[0])
    if failures:
        raise CommandError(
            f"{len(failures)} of {len(args.files)} files failed; the first: {failures[0]}"
        )
    if several:
        print(f"{len(args.files)} files: all ok", file=out)
    unchecked = counts[FAILED] + counts[NOT_PRESENT] + counts[UNCHECKED]
    return EXIT_PROOF_FAILED if unchecked else EXIT_OK


def _verify_file(file: str, args, out, counts: dict) -> list[str]:
    """Verify the puzzles of one file and print each one's result (a bar over the puzzles on
    stderr, if wanted); its problems. ``counts`` gets each proof's status (``--proof``)."""
    failures = []
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
            found = stored_report(puzzle, Path(file).parent)
            counts[found.status] += 1
            lines += _proof_lines(puzzle.id, found)
        for line in lines:
            bar.write(line, file=out)  # the bar, if shown, is drawn again under the line
    return failures


def _proof_lines(ident: str, found) -> list[str]:
    """What ``--proof`` prints of one puzzle's proof (a :class:`~..puzzles.proofs.ProofReport`)."""
    if found.status == NO_PROOF:
        return [f"{ident}: {NO_PROOF_SENTENCE}"]
    if found.status == NOT_PRESENT:
        return [f"{ident}: proof {NOT_PRESENT}"]
    if found.status != CHECKED:
        return [f"{ident}: proof {found.status}", *(f"  {problem}" for problem in found.problems)]
    lines = [f"{ident}: proof checked"]
    if found.checker:
        lines[0] += f" by {found.checker}, {found.lines} engine-legal lines forced into its CNF"
    groups: list[list] = []
    for turns, basis, why in found.horizons:
        if groups and groups[-1][1:] == [basis, why] and groups[-1][0][-1] == turns - 1:
            groups[-1][0].append(turns)
        else:
            groups.append([[turns], basis, why])
    for turns, basis, why in groups:
        span = f"horizon {turns[0]}" if len(turns) == 1 else f"horizons {turns[0]}-{turns[-1]}"
        lines.append(f"  {span}: rests on {basis} ({why})")
    return lines


COMMAND = Command(
    "verify",
    "replay and check every stored solution (--full: re-prove each optimum)",
    run,
    _arguments,
    DESCRIPTION,
)


__all__ = ["COMMAND", "DESCRIPTION", "EXIT_PROOF_FAILED", "run"]
