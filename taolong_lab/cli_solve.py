"""The ``solve``, ``verify`` and ``graph`` subcommands of ``taolong``.

:func:`add_commands` adds them to the main parser's subparsers; each sets ``run`` to a
function ``run(args, out) -> exit status`` like the other commands. Failures raise
:class:`SolveCommandError` (a :class:`~taolong_lab.errors.TaoLongError`), which ``taolong``'s
``main`` prints as ``taolong: error: ...`` with a non-zero exit status.

- ``taolong solve FILE[:ID] [--method explicit] [--json] [--time-limit S] [--max-states N]
  [--checkpoint DIR]``: the optimum, one optimal line and the certificate of each puzzle (or
  the one with ``ID``); with ``--checkpoint`` each search is saved and resumed from there.
  Exit 0 when every puzzle was solved (optimal or proved unwinnable), 1 when a budget left one
  unknown.
- ``taolong verify FILE [--full]``: replays every stored solution (each turn legal, a win in
  exactly the stored optimum); ``--full`` re-proves each optimum with the explicit solver.
- ``taolong graph --puzzle FILE[:ID] --depth D --out FILE.graphml|.gexf [--max-states N]``:
  explores the state graph, solves it backwards and writes it.
"""

from __future__ import annotations

import json
from pathlib import Path

from .errors import TaoLongError

EXIT_OK, EXIT_UNKNOWN = 0, 1


class SolveCommandError(TaoLongError):
    """A ``solve`` / ``verify`` / ``graph`` failure: a missing puzzle, a wrong solution, ..."""


def add_commands(subparsers) -> None:
    """Add ``solve``, ``verify`` and ``graph`` to ``subparsers`` (from ``add_subparsers``)."""
    solve = subparsers.add_parser("solve", help="prove the fewest turns to win solo challenges")
    solve.add_argument("puzzle", metavar="FILE[:ID]", help="a puzzle file, optionally :ID")
    solve.add_argument(
        "--method",
        default="explicit",
        choices=("explicit", "sat", "auto"),
        help="explicit A*, incremental SAT, or auto (explicit for a moment, then SAT)",
    )
    solve.add_argument(
        "--conflicts", type=_non_negative(int), metavar="N", default=None,
        help="SAT only: stop after N conflicts in all",
    )
    solve.add_argument("--json", action="store_true", help="print JSON, one object a line")
    solve.add_argument("--time-limit", type=_non_negative(float), metavar="S", default=None)
    solve.add_argument("--max-states", type=_non_negative(int), metavar="N", default=None)
    solve.add_argument("--progress", action="store_true", help="show a progress bar")
    solve.add_argument(
        "--checkpoint",
        metavar="DIR",
        default=None,
        help="save each search in DIR/ID.ckpt (atomically) and resume it from there",
    )
    solve.set_defaults(run=run_solve)

    verify = subparsers.add_parser("verify", help="replay and check every stored solution")
    verify.add_argument("file", metavar="FILE")
    verify.add_argument("--full", action="store_true", help="re-prove each optimum too")
    verify.add_argument(
        "--method",
        default="explicit",
        choices=("explicit", "sat", "auto", "other"),
        help="the solver that re-proves (--full); other: not the one named by the certificate",
    )
    verify.add_argument("--time-limit", type=_non_negative(float), metavar="S", default=None)
    verify.set_defaults(run=run_verify)

    graph = subparsers.add_parser("graph", help="write the state graph of a puzzle")
    graph.add_argument("--puzzle", required=True, metavar="FILE[:ID]")
    graph.add_argument("--depth", required=True, type=_non_negative(int), metavar="D")
    graph.add_argument("--out", required=True, metavar="FILE.graphml|FILE.gexf")
    graph.add_argument("--max-states", type=_positive_int, metavar="N", default=None)
    graph.set_defaults(run=run_graph)


def _non_negative(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise _argparse_error(f"{text!r} is not a number") from None
        if value < 0:
            raise _argparse_error(f"must be >= 0, got {text}")
        return value

    return parse


def _positive_int(text):
    value = _non_negative(int)(text)
    if value < 1:
        raise _argparse_error(f"must be >= 1, got {text}")
    return value


def _argparse_error(message):
    import argparse

    return argparse.ArgumentTypeError(message)


def puzzles_of(spec: str, *, check_solutions: bool = True):
    """The puzzles named by ``FILE[:ID]``: all of the file's, or the one with that id."""
    from .puzzles import load_puzzles

    path, ident = Path(spec), None
    if not path.exists() and ":" in spec:
        head, ident = spec.rsplit(":", 1)
        path = Path(head)
    if not path.exists():
        raise SolveCommandError(f"{path}: no such puzzle file")
    puzzles = load_puzzles(path, check_solutions=check_solutions)
    if ident is not None:
        puzzles = [p for p in puzzles if p.id == ident]
        if not puzzles:
            raise SolveCommandError(f"{path}: no puzzle with id {ident!r}")
    if not puzzles:
        raise SolveCommandError(f"{path}: no puzzles in the file")
    return puzzles


def _solver_options(method: str, args, ident: str) -> dict:
    """The options of ``method`` from the command line; an option of the other solver is an
    error naming it."""
    options = {"time_limit": args.time_limit, "progress": getattr(args, "progress", False)}
    explicit_only = {"--max-states": args.max_states, "--checkpoint": args.checkpoint}
    sat_only = {"--conflicts": getattr(args, "conflicts", None)}
    wrong = {
        "sat": explicit_only,
        "explicit": sat_only,
        "auto": {**explicit_only, **sat_only},
    }[method]
    for flag, value in wrong.items():
        if value is not None:
            raise SolveCommandError(f"{flag} does not apply to the {method} solver")
    if method == "sat":
        options["conflict_budget"] = sat_only["--conflicts"]
    elif method == "explicit":
        options["max_states"] = args.max_states
        options["checkpoint"] = _checkpoint_path(args.checkpoint, ident)
    return options


def run_solve(args, out) -> int:
    from .solvers import solve

    status = EXIT_OK
    for puzzle in puzzles_of(args.puzzle, check_solutions=False):
        options = _solver_options(args.method, args, puzzle.id)
        solution = solve(puzzle, method=args.method, **options)
        if solution.status == "unknown":
            status = EXIT_UNKNOWN
        if args.json:
            print(json.dumps({"id": puzzle.id, **solution.to_json()}), file=out)
            continue
        print(f"{puzzle.id}: {_summary(solution)}", file=out)
        for i, turn in enumerate(solution.line, 1):
            print(f"  {i}. {turn}", file=out)
        for line in _certificate_lines(solution):
            print(f"  {line}", file=out)
    return status


def _checkpoint_path(directory, ident: str):
    if directory is None:
        return None
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SolveCommandError(f"--checkpoint {directory}: {exc.strerror or exc}") from None
    return path / f"{ident}.ckpt"  # puzzle ids are file-name safe (the puzzle format checks)


def _certificate_lines(solution) -> list[str]:
    cert, stats = solution.certificate, solution.stats
    method = cert.get("method", cert.get("solver"))
    lines = [f"certificate: {method}; lookahead {cert.get('lookahead')}"]
    if "no_win_within" in cert:
        counts = ", ".join(f"{c['turns']}:{c['positions']}" for c in cert["no_win_within"])
        lines.append(f"positions proved without a win (turns:positions): {counts or '-'}")
    if "unsat_horizons" in cert:
        horizons = ", ".join(str(k) for k in cert["unsat_horizons"]) or "-"
        lines.append(f"no win within (turns, each an UNSAT answer): {horizons}")
    if "expanded" in stats:
        lines.append(
            f"{stats['expanded']} positions expanded in {stats['seconds']} s "
            f"({stats['positions_per_second']}/s), peak memory {stats['peak_memory_mb']} MB"
        )
    else:
        lines.append(f"{stats.get('seconds')} s, peak memory {stats.get('peak_memory_mb')} MB")
    return lines


def _summary(solution) -> str:
    if solution.status == "optimal":
        first = solution.optimal_first_turns
        firsts = "" if first is None else f", {first} optimal first turn{'s' * (first != 1)}"
        return f"optimal: win in {solution.optimum}{firsts}"
    if solution.status == "no-win":
        return "no win: every reachable position was searched"
    why = solution.certificate.get("stopped", "budget")
    return f"unknown ({why}): no win in fewer than {solution.proved_no_win_below} turns"


def verify_puzzle(
    puzzle, *, full: bool = False, time_limit=None, method: str = "explicit"
) -> list[str]:
    """The problems with one puzzle's stored solution (empty when it checks out). ``full``
    re-proves the optimum with ``method`` (``"other"``: the solver the stored certificate
    does not name)."""
    problems = []
    if puzzle.solution is None:
        return ["no stored solution"]
    state = puzzle.start
    for i, text in enumerate(puzzle.solution, 1):
        if state.is_over():
            return [f"turn {i} ({text!r}): the game is already over"]
        try:
            state = state.play(text)
        except TaoLongError as exc:
            return [f"turn {i} ({text!r}): {exc}"]
    result = state.outcome()
    turns = len(puzzle.solution)
    if result is None or result.winner != puzzle.player:
        return [f"the solution does not win: {result or 'the game goes on'} after {turns} turns"]
    if puzzle.optimum is not None and turns != puzzle.optimum:
        problems.append(
            f"the solution wins in {turns} turns, the stored optimum is {puzzle.optimum}"
        )
    if full:
        from .solvers import solve

        method = _reproving_method(puzzle, method) if method == "other" else method
        found = solve(puzzle, method=method, time_limit=time_limit, progress=False)
        if found.status != "optimal":
            problems.append(
                f"not re-proved: {found.status}, no win in fewer than {found.proved_no_win_below}"
            )
        elif found.optimum != turns:
            problems.append(f"the optimum is {found.optimum}, the stored solution takes {turns}")
    return problems


def _reproving_method(puzzle, method: str) -> str:
    """``"other"``: SAT for a certificate of the explicit solver, explicit for one of SAT."""
    solver = str((puzzle.certificate or {}).get("solver", ""))
    return "explicit" if ".sat" in solver else "sat"


def run_verify(args, out) -> int:
    puzzles = puzzles_of(args.file, check_solutions=False)
    failures = []
    for puzzle in puzzles:
        problems = verify_puzzle(
            puzzle, full=args.full, time_limit=args.time_limit, method=args.method
        )
        if problems:
            failures.extend(f"{puzzle.id}: {p}" for p in problems)
            print(f"{puzzle.id}: FAIL", file=out)
        else:
            extra = ", optimum re-proved" if args.full else ""
            print(f"{puzzle.id}: ok (win in {len(puzzle.solution)}{extra})", file=out)
    if failures:
        raise SolveCommandError(f"{args.file}: {len(failures)} problem(s):\n" + "\n".join(failures))
    return EXIT_OK


def run_graph(args, out) -> int:
    from .solvers.graph import explore

    suffix = Path(args.out).suffix.lower()
    if suffix not in (".graphml", ".gexf"):
        raise SolveCommandError(f"--out {args.out}: use a .graphml or .gexf file")
    puzzles = puzzles_of(args.puzzle, check_solutions=False)
    graph = explore(puzzles[0].start, depth=args.depth, max_states=args.max_states)
    graph.retrograde()
    try:
        graph.write(args.out)
    except OSError as exc:
        raise SolveCommandError(f"--out {args.out}: {exc.strerror or exc}") from None
    note = " (truncated by --max-states)" if graph.truncated else ""
    print(
        f"{puzzles[0].id}: {len(graph)} positions, {graph.edge_count} turns, depth "
        f"{args.depth}{note} -> {args.out}",
        file=out,
    )
    return EXIT_OK


__all__ = [
    "SolveCommandError",
    "add_commands",
    "puzzles_of",
    "run_graph",
    "run_solve",
    "run_verify",
    "verify_puzzle",
]
