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
  but a proved bound verifies as "unsolved: no win in fewer than N turns". This proves that
  the stored line wins in the stored number of turns, not that no shorter win exists: only
  ``--full`` proves that, by re-proving each optimum (the explicit solver by default;
  ``--method other``: the solver the certificate does not name).
- ``taolong graph --puzzle FILE[:ID] --depth D --out FILE.graphml|.gexf [--max-states N]
  [--progress]``: explores the state graph (at most :data:`~.solvers.graph.MAX_STATES`
  positions unless told otherwise), solves it backwards and writes it.

A file is read only when it is a regular file of at most
:data:`~taolong_lab.files.MAX_INPUT_BYTES` (:func:`~taolong_lab.files.check_readable`);
number options are bounded (:data:`MAX_COUNT`, :data:`MAX_SECONDS`).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import sys
from pathlib import Path

from .errors import TaoLongError
from .files import InputFileError, check_readable
from .puzzles.format import MAX_TURNS, _show
from .puzzles.grade import tier_of

EXIT_OK, EXIT_UNKNOWN = 0, 1
MAX_COUNT = 10**12  # --max-states, --conflicts: far past what memory or time allows
MAX_SECONDS = 10**7  # --time-limit: about 115 days

VERIFY_DESCRIPTION = (
    "Replay every stored solution (each turn legal, a win for the player in exactly the stored "
    "number of turns) and check that every certificate and difficulty field it knows agrees "
    "with the puzzle and with the others. This proves that the stored line wins in that many "
    "turns. It does not prove that no shorter win exists: the certificate's proof of that is "
    "checked for consistency, not redone. --full proves it, by re-proving each optimum with a "
    "solver."
)


class SolveCommandError(TaoLongError):
    """A ``solve`` / ``verify`` / ``graph`` failure: a missing puzzle, a wrong solution, ..."""


def add_commands(subparsers) -> None:
    """Add ``solve``, ``verify`` and ``graph`` to ``subparsers`` (from ``add_subparsers``)."""
    from .solvers import (
        AUTO_EXPLICIT_SCENARIOS,
        AUTO_EXPLICIT_STATES,
        AUTO_EXPLICIT_STATES_NEXT_TURN,
    )
    from .solvers.graph import MAX_DEPTH
    from .solvers.graph import MAX_STATES as GRAPH_STATES

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
        type=_non_negative(int, MAX_COUNT),
        metavar="N",
        default=None,
        help="SAT only: stop after N conflicts in all",
    )
    solve.add_argument("--json", action="store_true", help="print JSON, one object a line")
    solve.add_argument(
        "--time-limit", type=_non_negative(float, MAX_SECONDS), metavar="S", default=None
    )
    solve.add_argument(
        "--max-states", type=_non_negative(int, MAX_COUNT), metavar="N", default=None
    )
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

    verify = subparsers.add_parser(
        "verify",
        help="replay and check every stored solution (--full: re-prove each optimum)",
        description=VERIFY_DESCRIPTION,
    )
    verify.add_argument("file", metavar="FILE")
    verify.add_argument(
        "--full", action="store_true", help="re-prove each optimum too: no shorter win exists"
    )
    verify.add_argument(
        "--method",
        default="explicit",
        choices=("explicit", "sat", "auto", "other"),
        help="the solver that re-proves (--full); other: not the one named by the certificate",
    )
    verify.add_argument(
        "--time-limit", type=_non_negative(float, MAX_SECONDS), metavar="S", default=None
    )
    verify.set_defaults(run=run_verify)

    graph = subparsers.add_parser("graph", help="write the state graph of a puzzle")
    graph.add_argument("--puzzle", required=True, metavar="FILE[:ID]")
    graph.add_argument(
        "--depth",
        required=True,
        type=_non_negative(int, MAX_DEPTH),
        metavar="D",
        help=f"turns from the start, at most {MAX_DEPTH:,}",
    )
    graph.add_argument("--out", required=True, metavar="FILE.graphml|FILE.gexf")
    graph.add_argument(
        "--max-states",
        type=_number(int, 1, MAX_COUNT),
        metavar="N",
        default=GRAPH_STATES,
        help=f"stop at N positions (default {GRAPH_STATES:,})",
    )
    graph.add_argument(
        "--progress",
        action="store_true",
        help="show a progress bar (shown anyway when stderr is a terminal)",
    )
    graph.set_defaults(run=run_graph)


def _number(kind, low, high):
    """An argparse type: a ``kind`` (int or float) from ``low`` to ``high``. Refuses nan, inf
    and non-ASCII digits; a whole number longer than ``high`` is out of range unconverted."""

    def parse(text):
        value = _whole(text) if kind is int else _finite(text)
        if value is None:
            raise _argparse_error(f"{_shown(text)} is not a {'whole ' * (kind is int)}number")
        if not low <= value <= high:
            raise _argparse_error(f"must be from {low:,} to {high:,}, got {_shown(text)}")
        return value

    return parse


def _non_negative(kind, high):
    return _number(kind, 0, high)


def _whole(text: str) -> int | float | None:
    """The whole number ``text`` writes in ASCII digits (an infinity when it has more than
    20 of them), else None."""
    match = re.fullmatch(r"\s*([+-]?)0*([0-9]+)\s*", text)
    if match is None:
        return None
    sign = -1 if match[1] == "-" else 1
    return sign * (int(match[2]) if len(match[2]) <= 20 else math.inf)


def _finite(text: str) -> float | None:
    """The finite number ``text`` writes in ASCII, or an infinity; None for anything else
    (nan too)."""
    try:
        value = float(text) if text.isascii() else math.nan
    except ValueError:
        return None
    return None if math.isnan(value) else value


def _shown(text: str, width: int = 24) -> str:
    return repr(text if len(text) <= width else text[: width - 3] + "...")


def _argparse_error(message):
    import argparse

    return argparse.ArgumentTypeError(message)


def puzzle_spec(spec: str) -> tuple[Path, str | None]:
    """The file and the id (None: every puzzle) of ``FILE[:ID]``; a file whose name holds a
    ':' is taken whole. The file is checked before anything reads it
    (:func:`~taolong_lab.files.check_readable`: a missing file, a directory, a device or a
    file over the size limit raises :class:`~taolong_lab.files.InputFileError`)."""
    file, ident = spec, None
    if not os.path.exists(spec) and ":" in spec:
        file, _, ident = spec.rpartition(":")
    check_readable(file)
    return Path(file), ident


def puzzles_of(spec: str, *, check_solutions: bool = True):
    """The puzzles named by ``FILE[:ID]``: all of the file's, or the one with that id."""
    from .puzzles import load_puzzles

    path, ident = puzzle_spec(spec)
    try:
        puzzles = load_puzzles(path, check_solutions=check_solutions)
    except OSError as exc:
        raise InputFileError(path, exc.strerror or str(exc)) from None
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
    cert, stats = solution.certificate.to_json(), solution.stats
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
    why = solution.certificate.stopped or "budget"
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

    Without ``full`` this proves that the stored line wins in the stored number of turns, not
    that no shorter win exists: a certificate's proof of that is checked, not redone.
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


def unsolved_bound(puzzle):
    """A bound-only puzzle's ``certificate.proved_no_win_below`` as stored (None for a solved
    puzzle or one with no such bound); :func:`certificate_problems` checks it."""
    cert = puzzle.certificate or {}
    if puzzle.solution is not None or "proved_no_win_below" not in cert:
        return None
    return cert["proved_no_win_below"]


def _replay_problems(puzzle) -> list[str]:
    turns = len(puzzle.solution)
    if turns > MAX_TURNS:
        return [f"solution: {turns} turns, more than the {MAX_TURNS} a puzzle may have"]
    state = puzzle.start
    for i, text in enumerate(puzzle.solution, 1):
        if state.is_over():
            return [f"turn {i} ({text!r}): the game is already over"]
        try:
            state = state.play(text)
        except TaoLongError as exc:
            return [f"turn {i} ({text!r}): {exc}"]
    result = state.outcome()
    if result is None or result.winner != puzzle.player:
        return [f"the solution does not win: {result or 'the game goes on'} after {turns} turns"]
    if puzzle.optimum is not None and turns != puzzle.optimum:
        return [
            f"the solution wins in {turns} turns, the stored optimum is {_show(puzzle.optimum)}"
        ]
    return []


def _reprove_problems(puzzle, method: str, time_limit) -> list[str]:
    from .solvers import solve

    turns = len(puzzle.solution)
    method = _reproving_method(puzzle, method) if method == "other" else method
    if method == WIN_WITHIN:
        return _reprove_by_win_within(puzzle, time_limit)
    # the optimum is re-proved, not the count of optimal first turns
    no_count = {"count_first_turns": False} if method in ("explicit", "sat") else {}
    found = solve(puzzle, method=method, time_limit=time_limit, progress=False, **no_count)
    if found.status != "optimal":
        return [f"not re-proved: {found.status}, no win in fewer than {found.proved_no_win_below}"]
    if found.optimum != turns:
        return [f"the optimum is {found.optimum}, the stored solution takes {turns}"]
    return []


# ---- certificate consistency (no search) ----------------------------------------------------
class _Claim:
    """What a puzzle claims, for the checks: ``proved`` is the number of turns below which no
    win exists (the optimum of a solved puzzle, the bound of a bound-only one)."""

    def __init__(self, puzzle):
        from .solvers.bounds import bound_params, lower_bound

        self.puzzle = puzzle
        self.cert = puzzle.certificate or {}
        self.solved = puzzle.solution is not None
        self.optimum = (puzzle.optimum or len(puzzle.solution)) if self.solved else None
        self.proved = self.optimum if self.solved else unsolved_bound(puzzle)
        self.params = bound_params(puzzle.start)
        self.h0 = lower_bound(puzzle.start, self.params)


def certificate_problems(puzzle) -> list[str]:
    """Every inconsistency between the puzzle and the certificate / difficulty fields this
    knows (see the ``_check_*`` functions); each message starts with the field at fault.

    Any JSON value in any field gives a problem or none, never an exception: every field is
    checked for its type and range before it is used, and a number of turns is at most
    :data:`~taolong_lab.puzzles.format.MAX_TURNS`."""
    claim = _Claim(puzzle)
    if not _is_turns(claim.proved, low=1):
        field = "optimum" if claim.solved else "certificate.proved_no_win_below"
        return [f"{field}: {_show(claim.proved)} is not a whole number from 1 to {MAX_TURNS}"]
    problems: list[str] = []
    for check in CHECKS:
        problems += check(claim)
    return problems


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _same(value, expected) -> bool:
    """``value`` equals ``expected`` and is of its type (``true`` is not 1, nor ``7.0`` 7)."""
    return type(value) is type(expected) and value == expected


def _is_turns(value, low: int = 0) -> bool:
    """``value`` is a whole number of turns from ``low`` to :data:`MAX_TURNS`."""
    return _is_int(value) and low <= value <= MAX_TURNS


def _check_claim(c: _Claim) -> list[str]:
    """``optimum`` and ``proved_no_win_below`` equal the puzzle's optimum; a bound-only
    puzzle's certificate says ``status: "unknown"`` and has no optimum."""
    cert, found = c.cert, []
    if c.solved:
        for key in ("optimum", "proved_no_win_below"):
            if key in cert and not _same(cert[key], c.optimum):
                found.append(
                    f"certificate.{key}: {_show(cert[key])}, the puzzle's optimum is {c.optimum}"
                )
        if cert.get("status", "optimal") != "optimal":
            found.append(f"certificate.status: {_show(cert['status'])} for a solved puzzle")
        return found
    if cert.get("status") != "unknown":
        found.append(
            f"certificate.status: {_show(cert.get('status'))}, a puzzle with no solution needs "
            "'unknown'"
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
            f"certificate.lower_bound: {_show(cert['lower_bound'])}, the start's bound "
            f"parameters are {c.params.to_json()!r}"
        )
    if "start_lower_bound" in cert and cert["start_lower_bound"] != _json_num(c.h0):
        found.append(
            f"certificate.start_lower_bound: {_show(cert['start_lower_bound'])}, the "
            f"start's lower bound is {_json_num(c.h0)!r}"
        )
    if c.solved and c.h0 > c.proved:
        found.append(
            f"certificate.start_lower_bound: the start's lower bound {c.h0} is above "
            f"the claimed {c.proved} turns"
        )
    return found


def _turn_rows(cert: dict, key: str, number: str) -> tuple[list, list[str]]:
    """The rows of ``certificate.<key>`` (a list of objects) and the values of their
    ``number`` field (each a whole number of turns); else the problem."""
    rows = cert.get(key)
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        return [], [f"certificate.{key}: not a list of objects"]
    values = [r.get(number) for r in rows]
    if not all(_is_turns(v) for v in values):
        return [], [
            f"certificate.{key}: {number} {_show(values)} are not whole numbers from 0 to "
            f"{MAX_TURNS}"
        ]
    return rows, []


def _horizon_rows(c: _Claim, field: str) -> tuple[list, list[str]]:
    """The rows of ``certificate.<field>``, which must be one per horizon 0 .. claim-1 in
    order; else the problem."""
    rows, bad = _turn_rows(c.cert, field, "turns")
    if bad:
        return [], bad
    turns = [r["turns"] for r in rows]
    if turns != list(range(c.proved)):
        return [], [
            f"certificate.{field}: horizons {_show(turns)}, expected 0..{c.proved - 1} with no gap"
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
    turns = [r["turns"] for r in rows]
    counts = [r.get("positions") for r in rows]
    if not all(_is_int(n) and n >= 0 for n in counts):
        return [f"certificate.no_win_within: position counts {_show(counts)} are not whole numbers"]
    if any(b < a for a, b in itertools.pairwise(counts)):
        return [f"certificate.no_win_within: position counts {_show(counts)} fall"]
    empty = [k for k, n in zip(turns, counts, strict=True) if k >= c.h0 and n == 0]
    if empty:
        return [
            f"certificate.no_win_within: no position searched for horizon(s) {empty}, at or "
            f"above the start's lower bound {c.h0}"
        ]
    return []


def _unsat_horizons(c: _Claim) -> list[int] | None:
    """``certificate.unsat_horizons`` when it is a list of whole numbers of turns, else None
    (:func:`_check_unsat_horizons` says why)."""
    unsat = c.cert.get("unsat_horizons")
    if isinstance(unsat, list) and all(_is_turns(k) for k in unsat):
        return unsat
    return None


def _check_no_win_below_proofs(c: _Claim) -> list[str]:
    """SAT's ``no_win_below_proofs``: one row per horizon 0 .. claim-1, ``lower-bound`` below
    the start's bound and ``sat-unsat`` (listed in ``unsat_horizons``) from there."""
    if "no_win_below_proofs" not in c.cert:
        return []
    rows, bad = _horizon_rows(c, "no_win_below_proofs")
    if bad:
        return bad
    unsat = set(_unsat_horizons(c) or ())
    found = []
    for row in rows:
        k, by = row["turns"], row.get("by")
        want = "lower-bound" if k < c.h0 else "sat-unsat"
        if by != want:
            found.append(
                f"certificate.no_win_below_proofs: horizon {k} proved by {_show(by)}, "
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
    unsat = _unsat_horizons(c)
    if unsat is None:
        return [
            f"certificate.unsat_horizons: {_show(c.cert['unsat_horizons'])} is not a list of "
            f"whole numbers from 0 to {MAX_TURNS}"
        ]
    if unsat != sorted(set(unsat)):
        return [f"certificate.unsat_horizons: {_show(unsat)} is not increasing"]
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
    rows, bad = _turn_rows(c.cert, "per_turn", "turn")
    if bad:
        return bad
    turns = [r["turn"] for r in rows]
    if turns != list(range(1, len(rows) + 1)):
        return [f"certificate.per_turn: turns {_show(turns)}, expected 1, 2, ... with no gap"]
    if c.solved and len(rows) != c.optimum:
        return [f"certificate.per_turn: {len(rows)} rows, expected one per turn ({c.optimum})"]
    last = max(_unsat_horizons(c) or [0])
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
                f"certificate.optimal_first_turns: {_show(first)}, expected 1 to {legal} "
                "(the legal first turns)"
            )
    features = c.puzzle.difficulty or {}
    if first is not None and features.get("optimal_first_turns", first) != first:
        found.append(
            f"difficulty.optimal_first_turns: {_show(features['optimal_first_turns'])}, "
            f"the certificate says {_show(first)}"
        )
    if "optimal_lines" in cert:
        lines, exact = cert["optimal_lines"], cert.get("optimal_lines_exact")
        if not _is_int(lines) or lines < 1:
            found.append(f"certificate.optimal_lines: {_show(lines)} is not a whole number >= 1")
        elif not isinstance(exact, bool):
            found.append(f"certificate.optimal_lines_exact: {_show(exact)}, expected true or false")
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
    optimum = cross.get("optimum")
    if not _same(optimum, c.optimum):
        found.append(
            f"certificate.cross_check.optimum: {_show(optimum)}, the puzzle's optimum is "
            f"{c.optimum}"
        )
    if cross.get("agrees") is not True:
        found.append(f"certificate.cross_check.agrees: {_show(cross.get('agrees'))}, expected true")
    solver, primary = cross.get("solver"), c.cert.get("solver")
    if not isinstance(solver, str) or not solver or solver == primary:
        found.append(
            f"certificate.cross_check.solver: {_show(solver)}, expected a solver other than "
            f"{_show(primary)}"
        )
    return found


def _check_fair(c: _Claim) -> list[str]:
    """``fair``: true (the replay already showed the line never ends the game early)."""
    if "fair" in c.cert and c.cert["fair"] is not True:
        return [f"certificate.fair: {_show(c.cert['fair'])}, expected true"]
    return []


def _check_greedy(c: _Claim) -> list[str]:
    """``greedy_line``: legal turns from the start, the optimum's number of them unless the
    game ends first, and (optimum above 1) no win; ``greedy_wins_within_optimum`` (in the
    certificate or the difficulty) says what the replay shows."""
    if "greedy_line" not in c.cert:
        return []
    line = c.cert["greedy_line"]
    if not isinstance(line, list) or not all(isinstance(t, str) for t in line):
        return [f"certificate.greedy_line: {_show(line)} is not a list of turns"]
    longest = c.optimum if c.solved else MAX_TURNS
    if len(line) > longest:
        return [
            f"certificate.greedy_line: {len(line)} turns, more than "
            + (f"the optimum {c.optimum}" if c.solved else f"{MAX_TURNS}")
        ]
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
        if said is not won:
            found.append(
                f"{place}.greedy_wins_within_optimum: {_show(said)}, the greedy line "
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
            found.append(f"difficulty.{key}: {_show(grade[key])}, a win in {c.optimum} is {tier!r}")
    score = grade.get("score")
    if "score" in grade and not (
        isinstance(score, int | float)
        and not isinstance(score, bool)
        and c.optimum <= score < c.optimum + 1
    ):
        found.append(
            f"difficulty.score: {_show(score)}, expected in [{c.optimum}, {c.optimum + 1})"
        )
    optimum = grade.get("optimum", c.optimum)
    if not _same(optimum, c.optimum):
        found.append(f"difficulty.optimum: {_show(optimum)}, the puzzle's is {c.optimum}")
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
    from .solvers.bounds import bound_params
    from .solvers.common import Budget
    from .solvers.explicit import OutOfBudget, win_within

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
    """Print each puzzle's result, and each problem under its ``FAIL``; any problem raises
    one :class:`SolveCommandError` naming the first."""
    puzzles = puzzles_of(args.file, check_solutions=False)
    failures = []
    for puzzle in puzzles:
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
        raise SolveCommandError(
            f"{args.file}: {len(failures)} problem(s), listed above; the first: {failures[0]}"
        )
    return EXIT_OK


def run_graph(args, out) -> int:
    from .solvers.graph import explore

    suffix = Path(args.out).suffix.lower()
    if suffix not in (".graphml", ".gexf"):
        raise SolveCommandError(f"--out {args.out}: use a .graphml or .gexf file")
    try:
        puzzles = puzzles_of(args.puzzle, check_solutions=False)
    except InputFileError as exc:
        raise SolveCommandError(f"--puzzle: {exc}") from None
    progress = args.progress or sys.stderr.isatty()
    graph = explore(
        puzzles[0].start, depth=args.depth, max_states=args.max_states, progress=progress
    )
    graph.retrograde()
    try:
        graph.write(args.out)
    except OSError as exc:
        raise SolveCommandError(f"--out {args.out}: {exc.strerror or exc}") from None
    note = f" (stopped at --max-states {args.max_states:,})" if graph.truncated else ""
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
