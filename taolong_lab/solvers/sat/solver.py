"""Shortest solo wins by incremental SAT: deepening on the number of turns, CEGAR for the
opponent's policy, every answer checked in the engine.

The loop: one incremental solver, one hand-written layer of gates a turn, the opponent's policy
left out of the layers and put back by refinement (counterexample-guided abstraction
refinement, CEGAR):

1. One PySAT solver for the whole search. Layer ``t`` (:meth:`.encode.Encoder.add_layer`) is
   one turn: the Ba Gua (factored: each space's stack one-hot over the contents some reachable
   configuration gives it, the sowing a circuit over the chosen space; from Monk on one-hot
   over whole configurations, then the Focus and Balance effects, :mod:`.monk`, the
   opponent's Focus with every execution), the opponent's group
   with **every legal option** (a relaxation of its policy), the player's Matter phase (or
   the penalty, admitted whenever the sown element is impossible and its cheap necessary
   conditions hold: another relaxation), the village. ``won_t`` is the latched "the opponent
   is defeated by turn t"; the player's dragon may not die before it. Each layer reaches the
   solver with its own gates removed by bounded variable elimination (:func:`eliminate`:
   CaDiCaL's preprocessor, everything a later clause reads frozen), which keeps its models on
   what is left and makes each conflict cheaper.
2. ``k`` starts at the explicit solver's admissible :func:`~..bounds.lower_bound` (every
   ``k`` below it is proved by that bound) and grows by one. ``solve(assumptions=[won_k])``:
   UNSAT proves **no win in k turns** even for the relaxed opponent, hence for the real one.
   Each horizon adds its **damage budget** under ``won_k``
   (:meth:`.encode.Encoder.damage_budget`): after every turn the opponent's life is at most
   what the elements sown in the turns left can deal, a fact of every real win (the bound
   of :func:`~..bounds.may_win_within`), so it prunes without losing a line.
3. SAT gives a candidate line. Each turn is checked in the engine: if the line's state after
   the turn is one of the engine's successors, the turn is real. Otherwise either the
   opponent's group ended where the policy would not (``solo.choose_group``): a refinement
   clause ``state = w and signature = (group, element) [and Ba Gua after = b] -> the group
   ends in one of T`` is added at every layer (the policy is a function of exactly these,
   so the clause holds in the real game at every turn; from Monk on ``state`` is the one
   after the effects, and the opponent's Focus gets the same clause, a ``"focus"``
   refinement, with its space as a group of one); or the player took a penalty while
   some choice was possible: the clause ``not (state = w and Ba Gua = b and penalty)`` is
   added. Anything else is an encoding error: :class:`SatEncodingError`, never an answer.
   Near the end of the line (``r = k - t + 1 <= 4`` turns left from the position before a
   spurious turn ``t``; a search ``r`` turns deep that runs out of budget lowers the depth
   to ``r - 1``, down to 2) a short real search (the explicit solver's depth-first
   :func:`~..explicit.win_line_within`: pruned by :func:`~..bounds.lower_bound` and
   :func:`~..bounds.may_win_within`, the last turn decided by
   :func:`~..bounds.may_win_now` before it is expanded; a budget of expansions, what it
   proved kept for the whole search) is run from that position: if the line so far
   was real and the search wins, prefix + suffix is a real line of ``k`` turns; if it proves
   no win within ``r`` turns, the **dead-end nogood** ``state_j = w and Ba Gua_j = b and not
   won_j -> not won_{j+r}`` is added at every layer ``j`` (a fact of the real game at every
   turn, so sound for the relaxation too; Steinmetz & Hoffmann's state nogoods). When the
   line was real up to that position, its ancestors on the line are searched too, nearest
   first, each one turn deeper (:meth:`SatSearch.lift`: an ancestor once it is above
   :attr:`~SatSearch.LIFT_AFTER` dead ends, :attr:`~SatSearch.LIFT_BUDGET` expansions a
   search): each one proved adds its own dead-end nogood, which cuts every candidate through
   it; one that wins gives a real line of ``k``. Under ``solo_lookahead="next-turn"`` there
   are no short searches and no lifts (:attr:`~SatSearch.SEARCHES`): the policy's lookahead
   makes every expansion much dearer, and refinements alone are faster.
4. A candidate whose every turn is real is a real line, won in ``k`` turns, and no shorter
   win exists: it is replayed with ``State.play`` (a win in exactly ``k``) and returned.
5. ``optimal_first_turns`` (:meth:`SatSearch.count_first_turns`): the explicit solver's
   exact bounded search settles what first positions it can in a share of the optimum's time
   (:data:`COUNT_EXPLICIT_SHARE`; :data:`COUNT_EXPLICIT_SHARE_NEXT_TURN`, none, under the
   next-turn lookahead); the first positions known to start a win in ``k``, or known
   not to, are blocked at layer 1 under an activation literal and the CEGAR loop asks again;
   each real line adds its first position, UNSAT ends the count (sound for the same reason
   as 2). The count is the number of the start's turns that lead to one of the winning
   positions, as the explicit solver counts them.

Budgets: ``time_limit`` (seconds, checked between layers and between solver calls, each
call run in conflict chunks) and ``conflict_budget`` (total conflicts) stop the search with
status ``"unknown"`` and ``proved_no_win_below``; so do ``max_horizon`` and, from Monk on, a
turn with more ways to sow than :data:`.monk.TRANSITION_LIMIT`.

The Ba Gua is held as a position's ``config`` (:meth:`.encode.Encoder.config_of`): its stacks,
and from Monk on the flux coin after them.
"""

from __future__ import annotations

from ...engine import State
from ...errors import Arg
from ..bounds import bound_params, lower_bound
from ..certificate import HorizonRecord, Lift, NoWinProof, SatCertificate, Status
from ..common import (
    Budget,
    Solution,
    SolverError,
    build_solution,
    paused_gc,
    peak_memory_mb,
    reset_peak_memory,
    solo_start,
)
from . import monk
from .proof import ProofLog
from .search import (
    CHUNK,
    ELIMINATE_OPTIONS,
    SatEncodingError,
    SatSearch,
    _Model,
    eliminate,
)

SOLVER = SatCertificate.SOLVER
# the first-turn count tries the explicit bounded search first, for this share of the time the
# optimum took (at least 1 s; 0: SAT alone), then SAT settles the first positions it did not
COUNT_EXPLICIT_SHARE = 10.0
# ... under solo_lookahead="next-turn", where the explicit search is much dearer an expansion
# and SAT alone counts faster
COUNT_EXPLICIT_SHARE_NEXT_TURN = 0.0


def _start_of(puzzle_or_state) -> State:
    return solo_start(puzzle_or_state, "SAT")


@paused_gc()
def solve(
    puzzle_or_state,
    *,
    time_limit: float | None = None,
    conflict_budget: int | None = None,
    max_horizon: int | None = None,
    progress: bool = False,
    solver_name: str = "g4",
    count_first_turns: bool = True,
    proof=None,
) -> Solution:
    """The fewest turns to win a solo challenge, by incremental SAT (see the module
    docstring). With a budget it returns status ``"unknown"`` and ``proved_no_win_below``.

    Parameters
    ----------
    puzzle_or_state : Puzzle or State
        A solo challenge, in any mode.
    time_limit : float or None
        Seconds of wall clock, at most.
    conflict_budget : int or None
        Conflicts of the SAT solver in all, at most.
    max_horizon : int or None
        Turns, at most.
    progress : bool
        Show a progress bar (tqdm); off unless asked.
    solver_name : str
        The PySAT solver (``"g4"``, Glucose 4; ``"cd195"``, CaDiCaL; ...).
    count_first_turns : bool
        Count the optimal first turns (else ``optimal_first_turns`` is None).
    proof : path or None
        A folder for the DRAT proof of each UNSAT horizon (:mod:`.proof`, checked by
        :func:`taolong_lab.puzzles.proofs.check`); None keeps no clause and writes nothing.

    Returns
    -------
    Solution
        With a :class:`~taolong_lab.solvers.certificate.SatCertificate`.

    Raises
    ------
    SolverError
        Not a solo challenge, or a bad budget.
    SatEncodingError
        The encoding and the engine disagree: a bug, never an answer.
    """
    start = _start_of(puzzle_or_state)
    run = _SatRun(start, Budget(time_limit, None), solver_name, conflict_budget, max_horizon)
    if proof is not None:
        run.log = ProofLog(proof, start, _proof_settings(start, run.params, solver_name))
    result = start.outcome()
    if result is not None:
        if result.winner == start.to_move:
            return run.finish(Status.OPTIMAL, ())
        return run.finish(Status.NO_WIN, ())
    run.search = SatSearch(start, solver_name, log=run.log)
    run.search.seed(start)
    bar = _progress(progress)
    try:
        return run.deepen(bar, count_first_turns)
    except _Stopped as exc:
        return run.finish(Status.UNKNOWN, (), stop=exc.args[0])
    except monk.TooManyConfigurations as exc:
        return run.finish(Status.UNKNOWN, (), stop=(str(exc),))
    except KeyboardInterrupt:
        return run.finish(Status.UNKNOWN, (), stop=("interrupted",))
    finally:
        if bar is not None:
            bar.close()


class _Stopped(Exception):
    """A budget stopped the search: its one argument is the stop reason's parts."""


class _SatRun:
    """One call of :func:`solve`: the deepening loop (:meth:`deepen`, one horizon at a time by
    :meth:`ask`) and the result (:meth:`finish`). ``search`` is None when the start is over."""

    def __init__(self, start, budget, solver_name, conflict_budget, max_horizon):
        if conflict_budget is not None and conflict_budget < 0:
            raise SolverError.naming(
                Arg("conflict_budget", conflict_budget), ": must be >= 0", limit=0
            )
        reset_peak_memory()
        self.start, self.budget, self.solver_name = start, budget, solver_name
        self.conflict_budget, self.conflicts_left = conflict_budget, conflict_budget
        self.max_horizon = max_horizon
        self.params = bound_params(start)
        self.h0 = lower_bound(start, self.params)
        self.proved = 0
        self.unsat: list[int] = []
        self.per_turn: list[dict] = []
        self.search: SatSearch | None = None
        self.log: ProofLog | None = None

    def deepen(self, bar, count: bool) -> Solution:
        """Add a layer a turn and ask each horizon from the lower bound on, until a real line
        wins (then count its first turns) or a budget stops the search (:class:`_Stopped`)."""
        search, k = self.search, 0
        self.proved = int(self.h0)
        while True:
            if self.max_horizon is not None and k >= self.max_horizon:
                raise _Stopped((Arg("max_horizon", self.max_horizon),))
            if self.budget.spent():
                raise _Stopped(self.budget.stop)
            layer = search.add_layer()
            k += 1
            row = {"turn": k, "clauses": layer.clauses, "variables": layer.variables}
            self.per_turn.append(row)
            if k < self.h0:
                continue
            search.damage_budget(k)
            line = self.ask(k, layer, row, bar)
            if line is not None:
                search.log = None  # the first-turn count is in no proof
                first = self.count_first_turns(k, line, bar) if count else None
                return self.finish(Status.OPTIMAL, line, first)

    def ask(self, k: int, layer, row: dict, bar) -> list | None:
        """The CEGAR loop at horizon ``k``: a real line winning in ``k`` turns (checked in
        the engine), or None when UNSAT proves there is none (``proved`` is then ``k + 1``)."""
        search = self.search
        c0, n0, s0 = search.sat.accum_stats()["conflicts"], search.calls, search.sat_seconds
        r0 = len(search.refinements) + len(search.nogoods)
        while True:
            if bar is not None:
                bar.set_description(f"SAT k={k} refinements={len(search.refinements)}")
                bar.update(1)
            status = self.call(layer.won)
            row["sat_calls"] = search.calls - n0
            row["conflicts"] = search.sat.accum_stats()["conflicts"] - c0
            row["sat_seconds"] = round(search.sat_seconds - s0, 3)
            row["refinements"] = len(search.refinements) + len(search.nogoods) - r0
            if status is False:
                if self.log is not None:
                    self.log.unsat(k, layer.won)
                self.unsat.append(k)
                self.proved = k + 1
                return None
            line, _ = search.check(_Model(search.sat.get_model()), k)
            if line is not None:
                _verify(self.start, line, k)
                return line

    def call(self, goal) -> bool:
        """One answer of the solver under ``goal``, asked in chunks of conflicts between
        checks of the budgets."""
        search, budget = self.search, self.budget
        status = None
        while status is None:
            if budget.spent():
                raise _Stopped(budget.stop)
            if self.conflicts_left is not None and self.conflicts_left <= 0:
                raise _Stopped((Arg("conflict_budget", self.conflict_budget), " conflicts spent"))
            left = self.conflicts_left
            chunk = CHUNK if left is None else min(CHUNK, left)
            before = search.sat.accum_stats()["conflicts"]
            status = search.call(goal, chunk, budget.deadline)
            if left is not None:
                self.conflicts_left -= search.sat.accum_stats()["conflicts"] - before
        return status

    def count_first_turns(self, k: int, line, bar) -> int | None:
        """:meth:`SatSearch.count_first_turns`, the explicit search first for its share of
        the time the optimum took."""
        next_turn = self.start.rules.option("solo_lookahead") == "next-turn"
        explicit_share = COUNT_EXPLICIT_SHARE_NEXT_TURN if next_turn else COUNT_EXPLICIT_SHARE
        share = explicit_share * self.budget.seconds()
        if explicit_share > 0:
            share = max(1.0, share)
        return self.search.count_first_turns(k, line, self.budget.deadline, share, bar)

    def finish(self, status, line, first=None, stop=()) -> Solution:
        """The Solution (:func:`~..common.build_solution`); the SAT solver is released."""
        optimum = len(line) if status == Status.OPTIMAL else None
        proved = 0 if status == Status.NO_WIN else optimum if optimum is not None else self.proved
        stats = self._stats()
        certificate = self._certificate(optimum, proved, stats["conflicts"])
        if self.search is not None:
            self.search.close()
        return build_solution(self.start, status, line, certificate, stats, first, stop)

    def _certificate(self, optimum, proved: int, conflicts: int) -> SatCertificate:
        search, unsat = self.search, self.unsat
        return SatCertificate(
            lookahead=self.start.rules.option("solo_lookahead"),
            lower_bound=self.params,
            damage_budget=bool(search and search.enc.budgeted),
            lift=Lift(
                budget=search.lift_budget if search else SatSearch.LIFT_BUDGET,
                after=SatSearch.LIFT_AFTER,
            ),
            start_lower_bound=None if self.h0 == float("inf") else self.h0,
            proved_no_win_below=proved,
            no_win_below_proofs=tuple(
                NoWinProof(turns=k, by="sat-unsat" if k in unsat else "lower-bound")
                for k in range(proved)
            ),
            unsat_horizons=tuple(unsat),
            sat_solver=search.solver_name if search else self.solver_name,
            per_turn=tuple(HorizonRecord(**row) for row in self.per_turn),
            refinements=len(search.refinements) if search else 0,
            seeded_refinements=search.seeded if search else 0,
            dead_ends=len(search.nogoods) if search else 0,
            conflicts=conflicts,
            optimum=optimum,
        )

    def _stats(self) -> dict:
        search, budget = self.search, self.budget
        stats = {
            "seconds": round(budget.seconds(), 3),
            "cpu_seconds": round(budget.cpu_seconds(), 3),
            **_search_stats(search),
            "peak_memory_mb": peak_memory_mb(),
        }
        if self.log is not None:
            stats["proof"] = str(self.log.folder)
            stats["proof_seconds"] = round(self.log.seconds, 3)
        return stats


def _search_stats(search: SatSearch | None) -> dict:
    """A search's counters, for the Solution's ``stats`` (zeros without a search)."""
    if search is None:
        return {
            "encode_seconds": 0.0,
            "sat_seconds": 0.0,
            "sat_calls": 0,
            "clauses": 0,
            "variables": 0,
            "eliminated_variables": 0,
            "refinements": 0,
            "dead_ends": 0,
            "conflicts": 0,
            "first_turns_seconds": 0.0,
            "first_turns_calls": 0,
            "first_turns_by_explicit": 0,
            "spurious_turns_left": {},
            "short_search_depth": SatSearch.SEARCH_DEPTH,
            "short_search_timeouts": 0,
            "lifted_dead_ends": 0,
            "lift_timeouts": 0,
        }
    return {
        "encode_seconds": round(search.encode_seconds, 3),
        "sat_seconds": round(search.sat_seconds, 3),
        "sat_calls": search.calls,
        "clauses": search.g.n_clauses,
        "variables": search.g.pool.top,
        "eliminated_variables": search.eliminated,
        "refinements": len(search.refinements),
        "dead_ends": len(search.nogoods),
        "conflicts": search.sat.accum_stats()["conflicts"],
        "first_turns_seconds": round(search.count_seconds, 3),
        "first_turns_calls": search.count_calls,
        "first_turns_by_explicit": search.count_explicit,
        "spurious_turns_left": dict(sorted(search.spurious_left.items())),
        "short_search_depth": search.search_depth,
        "short_search_timeouts": search.short_timeouts,
        "lifted_dead_ends": search.lifted,
        "lift_timeouts": search.lift_timeouts,
    }


def _proof_settings(start: State, params, solver_name: str) -> dict:
    """The settings a proof records, as the certificate names them."""
    return {
        "sat_solver": solver_name,
        "lookahead": start.rules.option("solo_lookahead"),
        "lower_bound": params.to_json(),
        "damage_budget": params.exact_rules,
        "eliminate": True,
    }


def _verify(start: State, line, k: int) -> None:
    """The line must replay in the engine to a win in exactly ``k`` turns."""
    state = start
    for i, turn in enumerate(line):
        if state.is_over():
            raise SatEncodingError(f"the SAT line ends the game before turn {i + 1}")
        state = state.play(turn)
    result = state.outcome()
    if len(line) != k or result is None or result.winner != start.to_move:
        raise SatEncodingError(f"the SAT line {line!r} does not win in {k} turns")


def _progress(enabled: bool):
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover
        return None
    return tqdm(unit="call", leave=False)


__all__ = [
    "CHUNK",
    "COUNT_EXPLICIT_SHARE",
    "COUNT_EXPLICIT_SHARE_NEXT_TURN",
    "ELIMINATE_OPTIONS",
    "SOLVER",
    "SatEncodingError",
    "SatSearch",
    "eliminate",
    "solve",
]
