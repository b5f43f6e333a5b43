"""``taolong solve FILE[:ID]``: the fewest turns to win each solo challenge of a file, proved.

``[--method explicit|sat|auto|race] [--json] [--time-limit S] [--max-states N] [--conflicts N]
[--checkpoint DIR [--fresh]] [--progress|--no-progress]``: the optimum, one optimal line and the
certificate of each puzzle (or the one with ``ID``); with ``--checkpoint`` each search is saved
and resumed from there (``--fresh``: started again, whatever the file holds). Exit 0 when every
puzzle was solved (optimal or proved unwinnable), 1 when a budget left one unknown.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

from ..puzzles.known import Known, combine
from ..solvers import (
    AUTO_EXPLICIT_SCENARIOS,
    AUTO_EXPLICIT_STATES,
    AUTO_EXPLICIT_STATES_NEXT_TURN,
    ExplicitCertificate,
    Method,
    SatCertificate,
    Solution,
    Status,
    solve,
)
from ..solvers.common import CheckpointError, CheckpointKeyWarning
from ..solvers.race import RACERS
from .common import (
    EXIT_OK,
    EXIT_UNKNOWN,
    MAX_COUNT,
    MAX_SECONDS,
    PROG,
    Command,
    CommandError,
    add_progress_option,
    add_puzzle_argument,
    cli_word,
    named_puzzle,
    number,
    puzzles_of,
    wants_progress,
)


def _arguments(solve_) -> None:
    """The arguments of ``solve``."""
    add_puzzle_argument(solve_, "a puzzle file (every puzzle), or FILE:ID (that one)")
    solve_.add_argument(
        "--method",
        default="explicit",
        choices=("explicit", "sat", "auto", "race"),
        help="explicit A*, incremental SAT, auto (explicit, then SAT past "
        f"{AUTO_EXPLICIT_STATES:,} positions, {AUTO_EXPLICIT_STATES_NEXT_TURN:,} under the "
        f"next-turn lookahead except in {', '.join(sorted(AUTO_EXPLICIT_SCENARIOS))}), "
        "or race (both at once on two cores, the first answer wins)",
    )
    solve_.add_argument(
        "--conflicts",
        type=number(int, 0, MAX_COUNT),
        metavar="N",
        default=None,
        help="SAT only: stop after N conflicts in all",
    )
    solve_.add_argument("--json", action="store_true", help="print JSON, one object a line")
    solve_.add_argument(
        "--time-limit",
        type=number(float, 0, MAX_SECONDS),
        metavar="S",
        help="seconds of wall clock for each puzzle, at most",
    )
    solve_.add_argument(
        "--max-states",
        type=number(int, 0, MAX_COUNT),
        metavar="N",
        help="explicit only: stop after N positions expanded",
    )
    add_progress_option(solve_)
    solve_.add_argument(
        "--checkpoint",
        metavar="DIR",
        default=None,
        help="save each search in DIR/ID.ckpt (atomically) and resume it from there",
    )
    solve_.add_argument(
        "--fresh",
        action="store_true",
        help="ignore a saved checkpoint and start the search again",
    )


def _print_key_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning (the checkpoint key's) as one line on stderr."""
    print(f"{PROG}: warning: {' '.join(str(message).split())}", file=sys.stderr)


def run(args, out) -> int:
    """``taolong solve``: solve each puzzle of ``args.puzzle`` and print what was proved.

    Returns
    -------
    int
        The exit status: 0 when every puzzle was solved, 1 when a budget left one unknown.

    Raises
    ------
    CommandError
        An option of the other solver, an id the file does not hold, a checkpoint folder that
        cannot be made.
    """
    status = EXIT_OK
    for puzzle in puzzles_of(named_puzzle(args, required=True), check_solutions=False):
        options = _solver_options(args, puzzle.id)
        saved = options.get("checkpoint")
        resumed = saved is not None and saved.exists() and not options.get("fresh")
        try:
            with warnings.catch_warnings():
                warnings.showwarning = _print_key_warning
                warnings.simplefilter("always", CheckpointKeyWarning)
                solution = solve(puzzle, method=args.method, **options)
        except CheckpointError as exc:
            raise exc.with_hint("pass --fresh to start again") from None
        known = combine(solution, puzzle)
        if solution.status == Status.UNKNOWN and (known is None or known.optimum is None):
            status = EXIT_UNKNOWN
        if args.json:
            extra = {} if known is None else {"known": known.to_json()}
            print(json.dumps({"id": puzzle.id, **solution.to_json(), **extra}), file=out)
            continue
        print(f"{puzzle.id}: {_summary(solution, known)}", file=out)
        if resumed:
            print(f"  resumed from the checkpoint {saved} (the counts add up every run)", file=out)
        answered = _answered_by(solution, args.method)
        if answered:
            print(f"  {answered}", file=out)
        if known is not None:
            print("  the stored line:", file=out)
        for i, turn in enumerate(solution.line or (known.line if known else ()), 1):
            print(f"  {i}. {turn}", file=out)
        for line in _certificate_lines(solution):
            print(f"  {line}", file=out)
    return status


def _solver_options(args, ident: str) -> dict:
    """The options of ``args.method`` from the command line; an option of the other solver
    is an error naming it."""
    method, fresh = args.method, args.fresh
    options = {"time_limit": args.time_limit, "progress": wants_progress(args)}
    explicit_only = {
        "--max-states": args.max_states,
        "--checkpoint": args.checkpoint,
        "--fresh": fresh or None,
    }
    sat_only = {"--conflicts": args.conflicts}
    wrong = {
        "sat": explicit_only,
        "explicit": sat_only,
        "auto": {**explicit_only, **sat_only},
        "race": {**explicit_only, **sat_only},
    }[method]
    for flag, value in wrong.items():
        if value is not None:
            raise CommandError(f"{flag} does not apply to the {method} solver")
    if method == Method.SAT:
        options["conflict_budget"] = args.conflicts
    elif method == Method.EXPLICIT:
        if fresh and args.checkpoint is None:
            raise CommandError("--fresh starts a checkpointed search again: add --checkpoint")
        options.update(
            max_states=args.max_states,
            checkpoint=_checkpoint_path(args.checkpoint, ident),
            fresh=fresh,
        )
    return options


def _checkpoint_path(directory, ident: str) -> Path | None:
    if directory is None:
        return None
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"--checkpoint {directory}: {exc.strerror or exc}") from None
    return path / f"{ident}.ckpt"  # puzzle ids are file-name safe (the puzzle format checks)


def _summary(solution: Solution, known: Known | None) -> str:
    if known is not None and known.optimum is not None:
        return str(known)
    if solution.status == Status.OPTIMAL:
        first = solution.optimal_first_turns
        firsts = "" if first is None else f", {first} optimal first turn{'s' * (first != 1)}"
        return f"optimal: win in {solution.optimum}{firsts}"
    if solution.status == Status.NO_WIN:
        return "no win: every reachable position was searched"
    why = solution.stop_reason(cli_word)
    if known is not None:
        return f"unknown ({why}): {known}"
    return f"unknown ({why}): no win in fewer than {solution.proved_no_win_below} turns"


def _answered_by(solution: Solution, method: str) -> str:
    """Which solver answered ``--method race`` or ``auto``; else ''."""
    race, auto = solution.stats.get("race"), solution.stats.get("auto")
    if method == Method.RACE and race is None:  # race() runs the explicit solver alone
        return (
            "answered by the explicit solver (sat: not run: SAT encodes the Grasshopper mode only)"
        )
    if race is not None:
        other = ", ".join(f"{m}: {race[m]}" for m in RACERS if m in race and m != race["winner"])
        return f"answered by the {race['winner']} solver" + (f" ({other})" if other else "")
    if auto is not None:
        return f"answered by the {auto['answered_by']} solver"
    return ""


LOOKAHEADS = {  # the solo opponent's priority 2, as docs/rules.md names the readings
    "matter": "the solo opponent counts the damage up to the player's pending Matter phase",
    "next-turn": "the solo opponent counts the damage over the player's whole next turn",
}


def _certificate_lines(solution: Solution) -> list[str]:
    cert, stats = solution.certificate, solution.stats
    lines = [
        f"certificate: {cert.method}; lookahead {cert.lookahead} "
        f"({LOOKAHEADS.get(cert.lookahead, 'the solo opponent reading it was proved under')})"
    ]
    if isinstance(cert, ExplicitCertificate):
        counts = ", ".join(f"{row.turns}:{row.positions}" for row in cert.no_win_within)
        lines.append(f"positions proved without a win (turns:positions): {counts or '-'}")
    elif isinstance(cert, SatCertificate):
        horizons = ", ".join(str(k) for k in cert.unsat_horizons) or "-"
        lines.append(f"no win within (turns, each an UNSAT answer): {horizons}")
    peak = stats.get("peak_memory_mb")
    memory = "peak memory unknown here" if peak is None else f"peak memory {peak} MB"
    if "expanded" in stats:
        lines.append(
            f"{stats['expanded']} positions expanded in {stats['seconds']} s "
            f"({stats['positions_per_second']}/s), {memory}"
        )
    else:
        lines.append(f"{stats.get('seconds')} s, {memory}")
    return lines


COMMAND = Command("solve", "prove the fewest turns to win solo challenges", run, _arguments)


__all__ = ["COMMAND", "run"]
