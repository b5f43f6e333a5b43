"""The certificate verifier: what ``taolong verify`` checks in a puzzle, with no search unless
asked.

:func:`verify_puzzle` replays the stored solution (every turn legal, a win for the player in
exactly the stored optimum) and runs :func:`certificate_problems`: every certificate and
difficulty field it knows must agree with the puzzle and with the others (the ``_check_*``
functions of :data:`CHECKS`, one a field). A puzzle with no solution but a proved bound
(:func:`unsolved_bound`) is checked against that bound. This proves that the stored line wins
in the stored number of turns, not that no shorter win exists: ``full=True`` proves that too,
by re-proving the optimum with a solver (:func:`reproving_method` picks it for ``"other"``).

A problem is one line of text starting with the field at fault; any JSON value in any field
gives a problem or none, never an exception.

>>> from taolong_lab import State
>>> from taolong_lab.puzzles import Puzzle
>>> start = State("field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
...     "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1")
>>> verify_puzzle(Puzzle.from_state("one", "win in 1", start, optimum=1, solution=["Ea>Mo ="]))
[]
>>> verify_puzzle(Puzzle.from_state("two", "win in 2?", start, optimum=2, solution=["Ea>Mo ="]))
['the solution wins in 1 turn, the stored optimum is 2']
"""

from __future__ import annotations

import itertools
import math

from ..engine import Line
from ..errors import IllegalTurnError, TaoLongError
from ..limits import MAX_PUZZLE_TURNS
from ..rules.data import shown
from ..solvers import Method, Status, kernel, solve
from ..solvers.bounds import bound_params, lower_bound
from ..solvers.certificate import SatCertificate
from .format import Puzzle
from .grade import tier_of

OTHER = "other"  # the solver that did not make the certificate
METHODS = (Method.EXPLICIT, Method.SAT, Method.AUTO, OTHER)  # what re-proves an optimum


class VerifyError(TaoLongError):
    """A bad argument to the verifier (not a problem with the puzzle: those are returned)."""


def verify_puzzle(
    puzzle: Puzzle, *, full: bool = False, time_limit: float | None = None, method="explicit"
) -> list[str]:
    """The problems with one puzzle (empty when it checks out).

    - The stored solution replays: every turn legal, the game not over before the last one,
      a win for the player in exactly the stored optimum.
    - Every certificate and difficulty field it knows is consistent
      (:func:`certificate_problems`; no search). Unknown fields are ignored.
    - A puzzle with no solution but a certificate with ``proved_no_win_below`` (and
      ``status: "unknown"``) is a *bound-only* puzzle: its certificate is checked the same way
      against that bound, and it is not re-proved.
    - ``full`` re-proves the optimum with ``method``, in the pure-Python engine (the judge,
      whichever path found it).

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle, read with or without its solution checked.
    full : bool
        Re-prove the optimum too: no shorter win exists.
    time_limit : float or None
        Seconds for the re-proof, at most.
    method : str
        The solver that re-proves: ``"explicit"``, ``"sat"``, ``"auto"`` or ``"other"``
        (the one the stored certificate does not name, :func:`reproving_method`).

    Returns
    -------
    list of str
        One line a problem, each starting with the field at fault.

    Raises
    ------
    VerifyError
        An unknown ``method``.
    """
    if method not in METHODS:
        raise VerifyError(f"method: {shown(method)} is not one of {', '.join(METHODS)}")
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


def unsolved_bound(puzzle: Puzzle):
    """A bound-only puzzle's ``certificate.proved_no_win_below`` as stored.

    Parameters
    ----------
    puzzle : Puzzle

    Returns
    -------
    object
        The value as the file holds it (:func:`certificate_problems` checks it); None for a
        solved puzzle or one with no such bound.
    """
    cert = puzzle.certificate or {}
    if puzzle.solution is not None or "proved_no_win_below" not in cert:
        return None
    return cert["proved_no_win_below"]


def reproving_method(puzzle: Puzzle, method: str) -> str:
    """The solver that re-proves ``puzzle``'s optimum when asked for ``method``.

    ``"other"`` is the solver the stored certificate does not name: the explicit solver for a
    certificate of SAT, SAT for any other, in every mode.

    Parameters
    ----------
    puzzle : Puzzle
    method : str
        One of :data:`METHODS`.

    Returns
    -------
    str
        ``method`` itself unless it is ``"other"``.
    """
    if method != OTHER:
        return method
    if (puzzle.certificate or {}).get("solver") == SatCertificate.SOLVER:
        return Method.EXPLICIT
    return Method.SAT


def _replay_problems(puzzle: Puzzle) -> list[str]:
    turns = len(puzzle.solution)
    if turns > MAX_PUZZLE_TURNS:
        return [f"solution: {turns} turns, more than the {MAX_PUZZLE_TURNS} a puzzle may have"]
    try:
        end = Line(puzzle.start, puzzle.solution).end
    except IllegalTurnError as exc:
        return [f"solution: {exc}"]
    result = end.outcome()
    if result is None or result.winner != puzzle.player:
        return [f"the solution does not win: {result or 'the game goes on'} after {turns} turns"]
    if puzzle.optimum is not None and turns != puzzle.optimum:
        return [
            f"the solution wins in {turns} turn{'s' * (turns != 1)}, the stored optimum is "
            f"{shown(puzzle.optimum)}"
        ]
    return []


def _reprove_problems(puzzle: Puzzle, method: str, time_limit) -> list[str]:
    turns = len(puzzle.solution)
    method = reproving_method(puzzle, method)
    # the optimum is re-proved, not the count of optimal first turns
    no_count = {"count_first_turns": False} if method in (Method.EXPLICIT, Method.SAT) else {}
    with kernel.pure():  # the judge is the Python engine, whoever found the optimum
        found = solve(puzzle, method=method, time_limit=time_limit, **no_count)
    if found.status != Status.OPTIMAL:
        return [f"not re-proved: {found.status}, no win in fewer than {found.proved_no_win_below}"]
    if found.optimum != turns:
        return [f"the optimum is {found.optimum}, the stored solution takes {turns}"]
    return []


# ---- certificate consistency (no search) ----------------------------------------------------
class _Claim:
    """What a puzzle claims, for the checks: ``proved`` is the number of turns below which no
    win exists (the optimum of a solved puzzle, the bound of a bound-only one); ``h0`` the
    start's lower bound."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.cert = puzzle.certificate or {}
        self.solved = puzzle.solution is not None
        self.optimum = (puzzle.optimum or len(puzzle.solution)) if self.solved else None
        self.proved = self.optimum if self.solved else unsolved_bound(puzzle)
        self.params = bound_params(puzzle.start)
        self.h0 = lower_bound(puzzle.start, self.params)


def certificate_problems(puzzle: Puzzle) -> list[str]:
    """Every inconsistency between the puzzle and the certificate and difficulty fields this
    knows (the checks of :data:`CHECKS`).

    Every field is checked for its type and range before it is used, and a number of turns is
    at most :data:`~taolong_lab.limits.MAX_PUZZLE_TURNS`: any JSON value gives a problem or
    none, never an exception.

    Parameters
    ----------
    puzzle : Puzzle

    Returns
    -------
    list of str
        One line a problem, each starting with the field at fault.
    """
    claim = _Claim(puzzle)
    if not _is_turns(claim.proved, low=1):
        field = "optimum" if claim.solved else "certificate.proved_no_win_below"
        return [
            f"{field}: {shown(claim.proved)} is not a whole number from 1 to {MAX_PUZZLE_TURNS}"
        ]
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
    """``value`` is a whole number of turns from ``low`` to :data:`MAX_PUZZLE_TURNS`."""
    return _is_int(value) and low <= value <= MAX_PUZZLE_TURNS


def _check_claim(c: _Claim) -> list[str]:
    """``optimum`` and ``proved_no_win_below`` equal the puzzle's optimum; a bound-only
    puzzle's certificate says ``status: "unknown"`` and has no optimum."""
    cert, found = c.cert, []
    if c.solved:
        for key in ("optimum", "proved_no_win_below"):
            if key in cert and not _same(cert[key], c.optimum):
                found.append(
                    f"certificate.{key}: {shown(cert[key])}, the puzzle's optimum is {c.optimum}"
                )
        if cert.get("status", Status.OPTIMAL) != Status.OPTIMAL:
            found.append(f"certificate.status: {shown(cert['status'])} for a solved puzzle")
        return found
    if cert.get("status") != Status.UNKNOWN:
        found.append(
            f"certificate.status: {shown(cert.get('status'))}, a puzzle with no solution needs "
            "'unknown'"
        )
    if "optimum" in cert or c.puzzle.optimum is not None:
        found.append("certificate.optimum: an optimum is claimed but no solution is stored")
    return found


def _check_lower_bound(c: _Claim) -> list[str]:
    """``lower_bound`` and ``start_lower_bound`` equal a fresh ``bound_params`` /
    ``lower_bound`` of the start (null for no bound), which is at most the claim."""
    cert, found = c.cert, []
    if "lower_bound" in cert and cert["lower_bound"] != c.params.to_json():
        found.append(
            f"certificate.lower_bound: {shown(cert['lower_bound'])}, the start's bound "
            f"parameters are {c.params.to_json()!r}"
        )
    start = None if c.h0 == math.inf else c.h0
    if "start_lower_bound" in cert and cert["start_lower_bound"] != start:
        found.append(
            f"certificate.start_lower_bound: {shown(cert['start_lower_bound'])}, the "
            f"start's lower bound is {start!r}"
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
            f"certificate.{key}: {number} {shown(values)} are not whole numbers from 0 to "
            f"{MAX_PUZZLE_TURNS}"
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
            f"certificate.{field}: horizons {shown(turns)}, expected 0..{c.proved - 1} with no gap"
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
        return [f"certificate.no_win_within: position counts {shown(counts)} are not whole numbers"]
    if any(b < a for a, b in itertools.pairwise(counts)):
        return [f"certificate.no_win_within: position counts {shown(counts)} fall"]
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
                f"certificate.no_win_below_proofs: horizon {k} proved by {shown(by)}, "
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
            f"certificate.unsat_horizons: {shown(c.cert['unsat_horizons'])} is not a list of "
            f"whole numbers from 0 to {MAX_PUZZLE_TURNS}"
        ]
    if unsat != sorted(set(unsat)):
        return [f"certificate.unsat_horizons: {shown(unsat)} is not increasing"]
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
        return [f"certificate.per_turn: turns {shown(turns)}, expected 1, 2, ... with no gap"]
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
                f"certificate.optimal_first_turns: {shown(first)}, expected 1 to {legal} "
                "(the legal first turns)"
            )
    features = c.puzzle.difficulty or {}
    if first is not None and features.get("optimal_first_turns", first) != first:
        found.append(
            f"difficulty.optimal_first_turns: {shown(features['optimal_first_turns'])}, "
            f"the certificate says {shown(first)}"
        )
    if "optimal_lines" in cert:
        lines, exact = cert["optimal_lines"], cert.get("optimal_lines_exact")
        if not _is_int(lines) or lines < 1:
            found.append(f"certificate.optimal_lines: {shown(lines)} is not a whole number >= 1")
        elif not isinstance(exact, bool):
            found.append(f"certificate.optimal_lines_exact: {shown(exact)}, expected true or false")
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
            f"certificate.cross_check.optimum: {shown(optimum)}, the puzzle's optimum is "
            f"{c.optimum}"
        )
    if cross.get("agrees") is not True:
        found.append(f"certificate.cross_check.agrees: {shown(cross.get('agrees'))}, expected true")
    solver, primary = cross.get("solver"), c.cert.get("solver")
    if not isinstance(solver, str) or not solver or solver == primary:
        found.append(
            f"certificate.cross_check.solver: {shown(solver)}, expected a solver other than "
            f"{shown(primary)}"
        )
    return found


def _check_fair(c: _Claim) -> list[str]:
    """``fair``: true (the replay already showed the line never ends the game early)."""
    if "fair" in c.cert and c.cert["fair"] is not True:
        return [f"certificate.fair: {shown(c.cert['fair'])}, expected true"]
    return []


def _check_greedy(c: _Claim) -> list[str]:
    """``greedy_line``: legal turns from the start, the optimum's number of them unless the
    game ends first, and (optimum above 1) no win; ``greedy_wins_within_optimum`` (in the
    certificate or the difficulty) says what the replay shows."""
    if "greedy_line" not in c.cert:
        return []
    line = c.cert["greedy_line"]
    if not isinstance(line, list) or not all(isinstance(t, str) for t in line):
        return [f"certificate.greedy_line: {shown(line)} is not a list of turns"]
    longest = c.optimum if c.solved else MAX_PUZZLE_TURNS
    if len(line) > longest:
        return [
            f"certificate.greedy_line: {len(line)} turns, more than "
            + (f"the optimum {c.optimum}" if c.solved else f"{MAX_PUZZLE_TURNS}")
        ]
    try:
        end = Line(c.puzzle.start, line).end
    except IllegalTurnError as exc:
        return [f"certificate.greedy_line: {exc}"]
    result = end.outcome()
    won = result is not None and result.winner == c.puzzle.player
    found = []
    if c.solved and result is None and len(line) < c.optimum:
        found.append(
            f"certificate.greedy_line: stops after {len(line)} turns, before the "
            f"optimum {c.optimum}, with the game going on"
        )
    if won and (c.optimum or 0) > 1:
        found.append(
            f"certificate.greedy_line: wins in {len(line)} turn{'s' * (len(line) != 1)} "
            "(the greedy player must not win within the optimum)"
        )
    for place, fields in (("certificate", c.cert), ("difficulty", c.puzzle.difficulty or {})):
        said = fields.get("greedy_wins_within_optimum", won)
        if said is not won:
            found.append(
                f"{place}.greedy_wins_within_optimum: {shown(said)}, the greedy line "
                f"{'wins' if won else 'does not win'}"
            )
    return found


def _check_difficulty(c: _Claim) -> list[str]:
    """``difficulty``: ``tier`` and ``grade`` are the optimum's tier (:func:`~.grade.tier_of`),
    ``score`` in [optimum, optimum + 1), ``optimum`` (a feature) the optimum."""
    grade = c.puzzle.difficulty
    if not grade or not c.solved:
        return []
    tier, found = tier_of(c.optimum), []
    for key in ("tier", "grade"):
        if key in grade and grade[key] != tier:
            found.append(f"difficulty.{key}: {shown(grade[key])}, a win in {c.optimum} is {tier!r}")
    score = grade.get("score")
    if "score" in grade and not (
        isinstance(score, int | float)
        and not isinstance(score, bool)
        and c.optimum <= score < c.optimum + 1
    ):
        found.append(
            f"difficulty.score: {shown(score)}, expected in [{c.optimum}, {c.optimum + 1})"
        )
    optimum = grade.get("optimum", c.optimum)
    if not _same(optimum, c.optimum):
        found.append(f"difficulty.optimum: {shown(optimum)}, the puzzle's is {c.optimum}")
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

__all__ = [
    "CHECKS",
    "METHODS",
    "VerifyError",
    "certificate_problems",
    "reproving_method",
    "unsolved_bound",
    "verify_puzzle",
]
