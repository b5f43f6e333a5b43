"""The ``solve``, ``verify`` and ``graph`` subcommands of ``taolong``.

:func:`add_commands` adds them to the main parser's subparsers; each sets ``run`` to a
function ``run(args, out) -> exit status`` like the other commands. Failures raise
:class:`SolveCommandError` (a :class:`~taolong_lab.errors.TaoLongError`), which ``taolong``'s
``main`` prints as ``taolong: error: ...`` with a non-zero exit status.

- ``taolong solve FILE[:ID] [--method explicit] [--json] [--time-limit S] [--max-states N]
  [--checkpoint DIR [--fresh]]``: the optimum, one optimal line and the certificate of each
  puzzle (or the one with ``ID``); with ``--checkpoint`` each search is saved and resumed from
  there (``--fresh``: started again, whatever the file holds).
  Exit 0 when every puzzle was solved (optimal or proved unwinnable), 1 when a budget left one
  unknown.
- ``taolong verify FILE [--full] [--method M]``: replays every stored solution (each turn
  legal, a win in exactly the stored optimum) and checks every certificate / difficulty field
  it knows for consistency (:func:`certificate_problems`, no search); a puzzle with no solution
  but a proved bound verifies as "unsolved: no win in fewer than N turns". ``--full``
  re-proves each optimum (the explicit solver by default; ``--method other``: the solver the
  certificate does not name).
- ``taolong graph --puzzle FILE[:ID] --depth D --out FILE.graphml|.gexf [--max-states N]``:
  explores the state graph, solves it backwards and writes it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from .errors import TaoLongError

EXIT_OK, EXIT_UNKNOWN = 0, 1


class SolveCommandError(TaoLongError):
    """A ``solve`` / ``verify`` / ``graph`` failure: a missing puzzle, a wrong solution, ..."""


def add_commands(subparsers) -> None:
    """Add ``solve``, ``verify`` and ``graph`` to ``subparsers`` (from ``add_subparsers``)."""
    from .solvers import (
        AUTO_EXPLICIT_SCENARIOS,
        AUTO_EXPLICIT_STATES,
        AUTO_EXPLICIT_STATES_NEXT_TURN,
    )

    solve = subparsers.add_parser("solve", help="prove the fewest turns to win solo challenges")
    solve.add_argument("puzzle", metavar="FILE[:ID]", help="a puzzle file, optionally :ID")
    solve.add_argument(
        "--method",
        default="explicit",
        choices=("explicit", "sat", "auto", "race"),
        help="explicit A*, incremental SAT, auto (explicit, then SAT past "
        f"{AUTO_EXPLICIT_STATES:,} positions, {AUTO_EXPLICIT_STATES_NEXT_TURN:,} under the "
        f"next-turn lookahead except in {', '.join(sorted(AUTO_EXPLICIT_SCENARIOS))}), "
        "or race (both at once on two cores, the first answer wins)",
    )
    solve.add_argument(
        "--conflicts",
        type=_non_negative(int),
        metavar="N",
        default=None,
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
    solve.add_argument(
        "--fresh",
        action="store_true",
        help="ignore a saved checkpoint and start the search again",
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
    fresh = getattr(args, "fresh", False)
    explicit_only = {
        "--max-states": args.max_states,
        "--checkpoint": args.checkpoint,
        "--fresh": fresh or None,
    }
    sat_only = {"--conflicts": getattr(args, "conflicts", None)}
    wrong = {
        "sat": explicit_only,
        "explicit": sat_only,
        "auto": {**explicit_only, **sat_only},
        "race": {**explicit_only, **sat_only},
    }[method]
    for flag, value in wrong.items():
        if value is not None:
            raise SolveCommandError(f"{flag} does not apply to the {method} solver")
    if method == "sat":
        options["conflict_budget"] = sat_only["--conflicts"]
    elif method == "explicit":
        options["max_states"] = args.max_states
        if fresh and args.checkpoint is None:
            raise SolveCommandError("--fresh starts a checkpointed search again: add --checkpoint")
        options["checkpoint"] = _checkpoint_path(args.checkpoint, ident)
        options["fresh"] = fresh
    return options


def run_solve(args, out) -> int:
    from .solvers import solve
    from .solvers.common import CheckpointError

    status = EXIT_OK
    for puzzle in puzzles_of(args.puzzle, check_solutions=False):
        options = _solver_options(args.method, args, puzzle.id)
        try:
            solution = solve(puzzle, method=args.method, **options)
        except CheckpointError as exc:
            raise exc.with_hint("pass --fresh to start again") from None
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
    """The problems with one puzzle (empty when it checks out).

    - The stored solution replays: every turn legal, the game not over before the last one,
      a win for the player in exactly the stored optimum.
    - Every certificate and difficulty field it knows is consistent
      (:func:`certificate_problems`; cheap, no search). Unknown fields are ignored.
    - A puzzle with no solution but a certificate with ``proved_no_win_below`` (and
      ``status: "unknown"``) is a *bound-only* puzzle: its certificate is checked the same way
      against that bound.
    - ``full`` re-proves the optimum with ``method`` (``"other"``: the solver the stored
      certificate does not name); a bound-only puzzle is not re-proved.
    """
    if puzzle.solution is None:
        if unsolved_bound(puzzle) is None:
            return ["no stored solution"]
        return certificate_problems(puzzle)
    problems = _replay_problems(puzzle)
    if problems:
        return problems
    problems += certificate_problems(puzzle)
    if full:
        problems += _reprove_problems(puzzle, method, time_limit)
    return problems


def unsolved_bound(puzzle) -> int | None:
    """A bound-only puzzle's ``certificate.proved_no_win_below`` (None for a solved puzzle or
    one with no such bound)."""
    cert = puzzle.certificate or {}
    if puzzle.solution is not None or "proved_no_win_below" not in cert:
        return None
    return cert["proved_no_win_below"]


def _replay_problems(puzzle) -> list[str]:
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
        return [f"the solution wins in {turns} turns, the stored optimum is {puzzle.optimum}"]
    return []


def _reprove_problems(puzzle, method: str, time_limit) -> list[str]:
    from .solvers import solve

    turns = len(puzzle.solution)
    method = _reproving_method(puzzle, method) if method == "other" else method
    if method == WIN_WITHIN:
        return _reprove_by_win_within(puzzle, time_limit)
    found = solve(puzzle, method=method, time_limit=time_limit, progress=False)
    if found.status != "optimal":
        return [f"not re-proved: {found.status}, no win in fewer than {found.proved_no_win_below}"]
    if found.optimum != turns:
        return [f"the optimum is {found.optimum}, the stored solution takes {turns}"]
    return []


# ---- certificate consistency (no search) ----------------------------------------------------
TIERS = ((2, "novice"), (4, "intermediate"), (7, "advanced"))  # (largest optimum, tier)
LAST_TIER = "expert"


def tier_of(optimum: int) -> str:
    """The difficulty tier of an optimum: novice 1-2, intermediate 3-4, advanced 5-7,
    expert 8+."""
    return next((name for top, name in TIERS if optimum <= top), LAST_TIER)


class _Claim:
    """What a puzzle claims, for the checks: ``proved`` is the number of turns below which no
    win exists (the optimum of a solved puzzle, the bound of a bound-only one)."""

    def __init__(self, puzzle):
        from .solvers.explicit import bound_params, lower_bound

        self.puzzle = puzzle
        self.cert = puzzle.certificate or {}
        self.solved = puzzle.solution is not None
        self.optimum = (puzzle.optimum or len(puzzle.solution)) if self.solved else None
        self.proved = self.optimum if self.solved else unsolved_bound(puzzle)
        self.params = bound_params(puzzle.start)
        self.h0 = lower_bound(puzzle.start, self.params)


def certificate_problems(puzzle) -> list[str]:
    """Every inconsistency between the puzzle and the certificate / difficulty fields this
    knows (see the ``_check_*`` functions); each message starts with the field at fault."""
    claim = _Claim(puzzle)
    if not isinstance(claim.proved, int) or isinstance(claim.proved, bool) or claim.proved < 1:
        return [f"certificate.proved_no_win_below: {claim.proved!r} is not a whole number >= 1"]
    problems: list[str] = []
    for check in CHECKS:
        problems += check(claim)
    return problems


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_claim(c: _Claim) -> list[str]:
    """``optimum`` and ``proved_no_win_below`` equal the puzzle's optimum; a bound-only
    puzzle's certificate says ``status: "unknown"`` and has no optimum."""
    cert, found = c.cert, []
    if c.solved:
        for key in ("optimum", "proved_no_win_below"):
            if key in cert and cert[key] != c.optimum:
                found.append(
                    f"certificate.{key}: {cert[key]!r}, the puzzle's optimum is {c.optimum}"
                )
        if cert.get("status", "optimal") != "optimal":
            found.append(f"certificate.status: {cert['status']!r} for a solved puzzle")
        return found
    if cert.get("status") != "unknown":
        found.append(
            f"certificate.status: {cert.get('status')!r}, a puzzle with no solution needs 'unknown'"
        )
    if "optimum" in cert or c.puzzle.optimum is not None:
        found.append("certificate.optimum: an optimum is claimed but no solution is stored")
    return found


def _check_lower_bound(c: _Claim) -> list[str]:
    """``lower_bound`` and ``start_lower_bound`` equal a fresh ``bound_params`` /
    ``lower_bound`` of the start, which is at most the claim."""
    from .solvers.explicit import _json_num

    cert, found = c.cert, []
    if "lower_bound" in cert and cert["lower_bound"] != c.params.to_json():
        found.append(
            f"certificate.lower_bound: {cert['lower_bound']!r}, the start's bound "
            f"parameters are {c.params.to_json()!r}"
        )
    if "start_lower_bound" in cert and cert["start_lower_bound"] != _json_num(c.h0):
        found.append(
            f"certificate.start_lower_bound: {cert['start_lower_bound']!r}, the "
            f"start's lower bound is {_json_num(c.h0)!r}"
        )
    if c.solved and c.h0 > c.proved:
        found.append(
            f"certificate.start_lower_bound: the start's lower bound {c.h0} is above "
            f"the claimed {c.proved} turns"
        )
    return found


def _turn_rows(cert: dict, key: str) -> tuple[list | None, str | None]:
    rows = cert.get(key)
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        return None, f"certificate.{key}: not a list of objects"
    return rows, None


def _horizon_rows(c: _Claim, field: str) -> tuple[list, list[str]]:
    """The rows of ``certificate.<field>``, which must be one per horizon 0 .. claim-1 in
    order; else the problem."""
    rows, bad = _turn_rows(c.cert, field)
    if bad:
        return [], [bad]
    turns = [r.get("turns") for r in rows]
    if turns != list(range(c.proved)):
        return [], [
            f"certificate.{field}: horizons {turns}, expected 0..{c.proved - 1} with no gap"
        ]
    return rows, []


def _check_no_win_within(c: _Claim) -> list[str]:
    """The explicit solver's ``no_win_within``: one row per horizon 0 .. claim-1, in order,
    position counts never falling, and at least the start expanded from the start's bound on
    (below it the lower bound alone is the proof)."""
    if "no_win_within" not in c.cert:
        return []
    rows, bad = _horizon_rows(c, "no_win_within")
    if bad:
        return bad
    turns = [r.get("turns") for r in rows]
    counts = [r.get("positions") for r in rows]
    if not all(_is_int(n) and n >= 0 for n in counts):
        return [f"certificate.no_win_within: position counts {counts} are not whole numbers"]
    if any(b < a for a, b in itertools.pairwise(counts)):
        return [f"certificate.no_win_within: position counts {counts} fall"]
    empty = [k for k, n in zip(turns, counts, strict=True) if k >= c.h0 and n == 0]
    if empty:
        return [
            f"certificate.no_win_within: no position searched for horizon(s) {empty}, at or "
            f"above the start's lower bound {c.h0}"
        ]
    return []


def _check_no_win_below_proofs(c: _Claim) -> list[str]:
    """SAT's ``no_win_below_proofs``: one row per horizon 0 .. claim-1, ``lower-bound`` below
    the start's bound and ``sat-unsat`` (listed in ``unsat_horizons``) from there."""
    if "no_win_below_proofs" not in c.cert:
        return []
    rows, bad = _horizon_rows(c, "no_win_below_proofs")
    if bad:
        return bad
    unsat = c.cert.get("unsat_horizons")
    unsat = set(unsat) if isinstance(unsat, list) else set()
    found = []
    for row in rows:
        k, by = row["turns"], row.get("by")
        want = "lower-bound" if k < c.h0 else "sat-unsat"
        if by != want:
            found.append(
                f"certificate.no_win_below_proofs: horizon {k} proved by {by!r}, "
                f"expected {want!r} (start's lower bound {c.h0})"
            )
        elif by == "sat-unsat" and k not in unsat:
            found.append(
                f"certificate.no_win_below_proofs: horizon {k} is 'sat-unsat' but not "
                "in unsat_horizons"
            )
    return found


def _check_unsat_horizons(c: _Claim) -> list[str]:
    """``unsat_horizons``: increasing, every horizon from the start's bound to claim-1, none at
    or beyond the claim (an UNSAT there would contradict the stored win)."""
    if "unsat_horizons" not in c.cert:
        return []
    unsat = c.cert["unsat_horizons"]
    if not isinstance(unsat, list) or not all(_is_int(k) and k >= 0 for k in unsat):
        return [f"certificate.unsat_horizons: {unsat!r} is not a list of whole numbers"]
    if unsat != sorted(set(unsat)):
        return [f"certificate.unsat_horizons: {unsat} is not increasing"]
    beyond = [k for k in unsat if k >= c.proved]
    if beyond:
        return [f"certificate.unsat_horizons: {beyond} at or beyond the claimed {c.proved} turns"]
    missing = [k for k in range(max(1, int(min(c.h0, c.proved))), c.proved) if k not in unsat]
    if missing:
        return [
            f"certificate.unsat_horizons: gap, no proof for horizon(s) {missing} (from the "
            f"start's lower bound {c.h0} to {c.proved - 1})"
        ]
    return []


def _check_per_turn(c: _Claim) -> list[str]:
    """``per_turn``: rows for turns 1, 2, ... with no gap; one per turn of the optimum (a
    bound-only puzzle: at most the bound, at least its last UNSAT horizon)."""
    if "per_turn" not in c.cert:
        return []
    rows, bad = _turn_rows(c.cert, "per_turn")
    if bad:
        return [bad]
    turns = [r.get("turn") for r in rows]
    if turns != list(range(1, len(rows) + 1)):
        return [f"certificate.per_turn: turns {turns}, expected 1, 2, ... with no gap"]
    if c.solved and len(rows) != c.optimum:
        return [f"certificate.per_turn: {len(rows)} rows, expected one per turn ({c.optimum})"]
    unsat = c.cert.get("unsat_horizons") or [0]
    last = max(unsat) if all(_is_int(k) for k in unsat) else 0
    if not c.solved and not last <= len(rows) <= c.proved:
        return [f"certificate.per_turn: {len(rows)} rows, expected {last} to {c.proved}"]
    return []


def _check_first_turns(c: _Claim) -> list[str]:
    """``optimal_first_turns`` in 1 .. the number of legal first turns (and equal to
    ``difficulty.optimal_first_turns`` when both are given); ``optimal_lines`` at least 1 and,
    when ``optimal_lines_exact``, at least ``optimal_first_turns``."""
    cert, found = c.cert, []
    first = cert.get("optimal_first_turns")
    if "optimal_first_turns" in cert and first is not None:
        legal = len(c.puzzle.start.successors())
        if not _is_int(first) or not 1 <= first <= legal:
            found.append(
                f"certificate.optimal_first_turns: {first!r}, expected 1 to {legal} "
                "(the legal first turns)"
            )
    features = c.puzzle.difficulty or {}
    if first is not None and features.get("optimal_first_turns", first) != first:
        found.append(
            f"difficulty.optimal_first_turns: {features['optimal_first_turns']!r}, "
            f"the certificate says {first!r}"
        )
    if "optimal_lines" in cert:
        lines, exact = cert["optimal_lines"], cert.get("optimal_lines_exact")
        if not _is_int(lines) or lines < 1:
            found.append(f"certificate.optimal_lines: {lines!r} is not a whole number >= 1")
        elif not isinstance(exact, bool):
            found.append(f"certificate.optimal_lines_exact: {exact!r}, expected true or false")
        elif exact and _is_int(first) and lines < first:
            found.append(
                f"certificate.optimal_lines: {lines}, fewer than the {first} optimal first turns"
            )
    return found


def _check_cross_check(c: _Claim) -> list[str]:
    """``cross_check``: another solver than the primary one, with the same optimum, agreeing."""
    if "cross_check" not in c.cert:
        return []
    cross = c.cert["cross_check"]
    if not isinstance(cross, dict):
        return ["certificate.cross_check: not an object"]
    found = []
    if cross.get("optimum") != c.optimum:
        found.append(
            f"certificate.cross_check.optimum: {cross.get('optimum')!r}, the puzzle's "
            f"optimum is {c.optimum}"
        )
    if cross.get("agrees") is not True:
        found.append(f"certificate.cross_check.agrees: {cross.get('agrees')!r}, expected true")
    solver = cross.get("solver")
    if not isinstance(solver, str) or not solver or solver == c.cert.get("solver"):
        found.append(
            f"certificate.cross_check.solver: {solver!r}, expected a solver other than "
            f"{c.cert.get('solver')!r}"
        )
    return found


def _check_fair(c: _Claim) -> list[str]:
    """``fair``: true (the replay already showed the line never ends the game early)."""
    if "fair" in c.cert and c.cert["fair"] is not True:
        return [f"certificate.fair: {c.cert['fair']!r}, expected true"]
    return []


def _check_greedy(c: _Claim) -> list[str]:
    """``greedy_line``: legal turns from the start, the optimum's number of them unless the
    game ends first, and (optimum above 1) no win; ``greedy_wins_within_optimum`` (in the
    certificate or the difficulty) says what the replay shows."""
    if "greedy_line" not in c.cert:
        return []
    line = c.cert["greedy_line"]
    if not isinstance(line, list) or not all(isinstance(t, str) for t in line):
        return [f"certificate.greedy_line: {line!r} is not a list of turns"]
    if c.solved and len(line) > c.optimum:
        return [f"certificate.greedy_line: {len(line)} turns, more than the optimum {c.optimum}"]
    state = c.puzzle.start
    for i, text in enumerate(line, 1):
        if state.is_over():
            return [f"certificate.greedy_line: turn {i} ({text!r}): the game is already over"]
        try:
            state = state.play(text)
        except TaoLongError as exc:
            return [f"certificate.greedy_line: turn {i} ({text!r}): {exc}"]
    result = state.outcome()
    won = result is not None and result.winner == c.puzzle.player
    found = []
    if c.solved and result is None and len(line) < c.optimum:
        found.append(
            f"certificate.greedy_line: stops after {len(line)} turns, before the "
            f"optimum {c.optimum}, with the game going on"
        )
    if won and (c.optimum or 0) > 1:
        found.append(
            f"certificate.greedy_line: wins in {len(line)} turns (the greedy player "
            "must not win within the optimum)"
        )
    for place, fields in (("certificate", c.cert), ("difficulty", c.puzzle.difficulty or {})):
        said = fields.get("greedy_wins_within_optimum", won)
        if said != won:
            found.append(
                f"{place}.greedy_wins_within_optimum: {said!r}, the greedy line "
                f"{'wins' if won else 'does not win'}"
            )
    return found


def _check_difficulty(c: _Claim) -> list[str]:
    """``difficulty``: ``tier`` and ``grade`` are the optimum's tier (:func:`tier_of`),
    ``score`` in [optimum, optimum + 1), ``optimum`` (a feature) the optimum."""
    grade = c.puzzle.difficulty
    if not grade or not c.solved:
        return []
    tier, found = tier_of(c.optimum), []
    for key in ("tier", "grade"):
        if key in grade and grade[key] != tier:
            found.append(f"difficulty.{key}: {grade[key]!r}, a win in {c.optimum} is {tier!r}")
    score = grade.get("score")
    if "score" in grade and not (
        isinstance(score, int | float) and c.optimum <= score < c.optimum + 1
    ):
        found.append(f"difficulty.score: {score!r}, expected in [{c.optimum}, {c.optimum + 1})")
    if grade.get("optimum", c.optimum) != c.optimum:
        found.append(f"difficulty.optimum: {grade['optimum']!r}, the puzzle's is {c.optimum}")
    return found


CHECKS = (
    _check_claim,
    _check_lower_bound,
    _check_no_win_within,
    _check_no_win_below_proofs,
    _check_unsat_horizons,
    _check_per_turn,
    _check_first_turns,
    _check_cross_check,
    _check_fair,
    _check_greedy,
    _check_difficulty,
)


WIN_WITHIN = "win_within"  # the explicit solver's independent bounded depth-first search


def _reproving_method(puzzle, method: str) -> str:
    """``"other"``: the explicit solver for a certificate of SAT; for one of the explicit
    solver, SAT in Grasshopper mode (the only mode SAT encodes) and, in the other modes,
    :data:`WIN_WITHIN` (:func:`_reprove_by_win_within`)."""
    solver = str((puzzle.certificate or {}).get("solver", ""))
    if ".sat" in solver:
        return "explicit"
    return "sat" if puzzle.start.rules.mode == "grasshopper" else WIN_WITHIN


def _reprove_by_win_within(puzzle, time_limit) -> list[str]:
    """Re-prove the optimum with :func:`~taolong_lab.solvers.explicit.win_within` (exact
    bounded depth-first search, not the A* that made an explicit certificate): no win within
    optimum - 1 turns, a win within the optimum."""
    from .solvers.common import Budget
    from .solvers.explicit import OutOfBudget, bound_params, win_within

    turns, start = len(puzzle.solution), puzzle.start
    params, budget, failed = bound_params(start), Budget(time_limit, None), {}
    try:
        shorter = turns > 1 and win_within(start, turns - 1, params, budget, failed)
        within = shorter or win_within(start, turns, params, budget, failed)
    except OutOfBudget:
        return [f"not re-proved ({WIN_WITHIN}): {budget.reason}"]
    if shorter:
        return [f"the optimum is below {turns} ({WIN_WITHIN}: a win within {turns - 1} turns)"]
    if not within:
        return [f"{WIN_WITHIN} finds no win within {turns} turns"]
    return []


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
        elif puzzle.solution is None:
            bound = unsolved_bound(puzzle)
            print(f"{puzzle.id}: ok (unsolved: no win in fewer than {bound} turns)", file=out)
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
    "certificate_problems",
    "puzzles_of",
    "run_graph",
    "run_solve",
    "run_verify",
    "verify_puzzle",
]
