"""solve(method="auto"): the explicit solver, and SAT once the explicit search has expanded
AUTO_EXPLICIT_STATES positions (AUTO_EXPLICIT_STATES_NEXT_TURN under the next-turn lookahead;
docs/performance.md, "Choosing a solver")."""

from __future__ import annotations

from dataclasses import replace

import pytest

import taolong_lab.solvers as solvers
from taolong_lab import State, load_puzzles, solo_game
from taolong_lab.solvers import explicit, solve
from taolong_lab.solvers import sat as sat_package


@pytest.fixture(scope="module")
def challenges():
    return {p.id: p for p in load_puzzles("bench/solo-set.jsonl")}


def test_auto_answers_with_the_explicit_solver_within_its_budget(challenges):
    puzzle = challenges["field-b1w4-win5"]
    s = solve(puzzle, method="auto")
    assert s.status == "optimal" and s.optimum == puzzle.optimum == 5
    assert s.certificate.solver == explicit.SOLVER
    assert s.stats["auto"]["answered_by"] == "explicit"
    assert s.stats["auto"]["explicit_expanded"] == s.stats["expanded"] > 0


def test_auto_hands_over_to_sat_past_the_explicit_budget(challenges, monkeypatch):
    puzzle = challenges["field-b1w1-win3"]
    monkeypatch.setattr(solvers, "AUTO_EXPLICIT_STATES", 1)
    monkeypatch.setattr(solvers, "AUTO_KERNEL_STATES", 1)
    s = solve(puzzle, method="auto")
    assert s.status == "optimal" and s.optimum == puzzle.optimum == 3
    assert s.certificate.solver == sat_package.SOLVER
    record = s.stats["auto"]
    assert record["answered_by"] == "sat"
    assert record["explicit_status"] == "unknown" and record["explicit_expanded"] == 1
    by_explicit = solve(puzzle, method="explicit")
    assert s.optimal_first_turns == by_explicit.optimal_first_turns is not None


@pytest.mark.parametrize("budget", [None, 1])  # the explicit solver answers; SAT does
def test_auto_can_skip_the_first_turn_count(challenges, monkeypatch, budget):
    """The atlas stores no first-turn count, so it asks ``auto`` for none: the same optimum,
    the same certificate's solver, no count (and no recount)."""
    puzzle = challenges["field-b1w1-win3"]
    if budget is not None:
        monkeypatch.setattr(solvers, "AUTO_EXPLICIT_STATES", budget)
        monkeypatch.setattr(solvers, "AUTO_KERNEL_STATES", budget)
    s = solve(puzzle, method="auto", count_first_turns=False)
    assert s.status == "optimal" and s.optimum == puzzle.optimum == 3
    assert s.optimal_first_turns is None
    assert "recounted_first_turns" not in s.stats["auto"]
    want = "sat" if budget else "explicit"
    assert s.stats["auto"]["answered_by"] == want


def _unknown(proved: int, start: State, method: str):
    """A budget-stopped answer of ``method`` with a real certificate, claiming ``proved``."""
    run = explicit.solve if method == "explicit" else sat_package.solve
    found = run(start, max_states=0) if method == "explicit" else run(start, conflict_budget=0)
    assert found.status == "unknown"
    certificate = replace(found.certificate, proved_no_win_below=proved)
    return replace(found, certificate=certificate, proved_no_win_below=proved)


@pytest.mark.parametrize(
    ("explicit_proved", "sat_proved", "answered_by"), [(4, 2, "explicit"), (4, 5, "sat")]
)
def test_auto_keeps_the_higher_proved_bound_when_both_run_out(
    challenges, monkeypatch, explicit_proved, sat_proved, answered_by
):
    start = challenges["field-b1w1-win3"].start
    by_explicit = _unknown(explicit_proved, start, "explicit")
    by_sat = _unknown(sat_proved, start, "sat")
    monkeypatch.setattr(explicit, "solve", lambda *a, **k: by_explicit)
    monkeypatch.setattr(sat_package, "solve", lambda *a, **k: by_sat)
    s = solve(start, method="auto", time_limit=60)
    assert s.status == "unknown"
    assert s.proved_no_win_below == max(explicit_proved, sat_proved)
    assert s.stats["auto"]["answered_by"] == answered_by
    assert s.certificate.solver == (
        explicit.SOLVER if answered_by == "explicit" else sat_package.SOLVER
    )


def test_auto_does_not_start_sat_when_the_time_is_spent(challenges, monkeypatch):
    start = challenges["field-b1w1-win3"].start
    stopped = replace(_unknown(2, start, "explicit"), stats={"seconds": 1.0, "expanded": 3})

    def slow_explicit(*args, time_limit=None, **kwargs):
        return stopped

    def no_sat(*args, **kwargs):
        raise AssertionError("SAT started with no time left")

    monkeypatch.setattr(explicit, "solve", slow_explicit)
    monkeypatch.setattr(sat_package, "solve", no_sat)
    s = solve(start, method="auto", time_limit=0)
    assert s.status == "unknown" and s.proved_no_win_below == 2
    assert s.stats["auto"]["answered_by"] == "explicit"


def test_auto_hands_a_monk_challenge_over_to_sat(monkeypatch):
    """From Monk on too, SAT takes over past the explicit budget; the options of one solver
    are refused as in Grasshopper."""
    puzzle = next(p for p in load_puzzles("puzzles/cave-novice.jsonl") if p.optimum == 2)
    assert puzzle.start.rules.mode != "grasshopper"
    monkeypatch.setattr(solvers, "AUTO_EXPLICIT_STATES", 1)
    monkeypatch.setattr(solvers, "AUTO_KERNEL_STATES", 1)
    s = solve(puzzle, method="auto")
    assert s.status == "optimal" and s.optimum == puzzle.optimum
    assert s.certificate.solver == sat_package.SOLVER
    assert s.stats["auto"]["answered_by"] == "sat"
    with pytest.raises(solvers.SolverError, match="max_states"):
        solve(puzzle, method="auto", max_states=5)


def test_auto_counts_the_first_turns_again_when_its_positions_ran_out(challenges, monkeypatch):
    puzzle = challenges["field-b1w4-win5"]
    alone = explicit.solve(puzzle)
    enough_for_the_search = alone.stats["search_expanded"] + 1
    cut = explicit.solve(puzzle, max_states=enough_for_the_search)
    assert cut.status == "optimal" and cut.optimal_first_turns is None
    monkeypatch.setattr(solvers, "AUTO_EXPLICIT_STATES", enough_for_the_search)
    monkeypatch.setattr(solvers, "AUTO_KERNEL_STATES", enough_for_the_search)
    s = solve(puzzle, method="auto")
    assert s.certificate.solver == explicit.SOLVER and s.optimum == 5
    assert s.optimal_first_turns == alone.optimal_first_turns == 9
    assert s.stats["auto"]["recounted_first_turns"] is True


def test_count_first_turns_is_the_solutions_count(challenges):
    puzzle = challenges["field-b1w1-win3"]
    s = explicit.solve(puzzle)
    assert explicit.count_first_turns(puzzle.start, 3) == s.optimal_first_turns > 0
    assert explicit.count_first_turns(puzzle.start, 3, max_states=1) is None


def test_auto_hands_over_sooner_under_the_next_turn_lookahead(challenges, monkeypatch):
    """Under solo_lookahead="next-turn" SAT takes over after AUTO_EXPLICIT_STATES_NEXT_TURN
    positions, not AUTO_EXPLICIT_STATES; a matter challenge keeps the larger budget (the
    pure-Python path: with the compiled kernel both readings get AUTO_KERNEL_STATES)."""
    monkeypatch.setenv("TAOLONG_PURE", "1")
    puzzle = challenges["field-b1w1-win3"]
    rules, rest = puzzle.start.to_tln().split(" ", 1)
    next_turn = State(f"{rules}+solo_lookahead=next-turn {rest}")
    assert solvers.auto_explicit_states(next_turn) == solvers.AUTO_EXPLICIT_STATES_NEXT_TURN
    assert solvers.auto_explicit_states(puzzle) == solvers.AUTO_EXPLICIT_STATES
    assert solvers.AUTO_EXPLICIT_STATES_NEXT_TURN < solvers.AUTO_EXPLICIT_STATES
    monkeypatch.setattr(solvers, "AUTO_EXPLICIT_STATES_NEXT_TURN", 1)
    s = solve(next_turn, method="auto")
    record = s.stats["auto"]
    assert record["answered_by"] == "sat" and record["explicit_expanded"] == 1
    assert s.certificate.solver == sat_package.SOLVER
    assert s.optimum == explicit.solve(next_turn).optimum
    m = solve(puzzle, method="auto")
    assert m.stats["auto"]["answered_by"] == "explicit" and m.optimum == 3


def test_auto_keeps_the_explicit_solver_on_the_maze_under_next_turn(monkeypatch):
    """In the scenarios of AUTO_EXPLICIT_SCENARIOS (The Maze, where the explicit solver was the
    faster one under both readings) the next-turn lookahead keeps the full budget; elsewhere
    it hands over sooner (the pure-Python path)."""
    monkeypatch.setenv("TAOLONG_PURE", "1")
    maze = solo_game("maze", player="black", solo_lookahead="next-turn")
    field = solo_game("field", player="black", solo_lookahead="next-turn")
    assert "maze" in solvers.AUTO_EXPLICIT_SCENARIOS
    assert solvers.auto_explicit_states(maze) == solvers.AUTO_EXPLICIT_STATES
    assert solvers.auto_explicit_states(field) == solvers.AUTO_EXPLICIT_STATES_NEXT_TURN


def test_auto_gives_the_kernel_its_own_budget_under_both_readings(challenges, monkeypatch):
    from taolong_lab.solvers import kernel

    if not kernel.available():
        pytest.skip(kernel.status())
    puzzle = challenges["field-b1w1-win3"]
    rules, rest = puzzle.start.to_tln().split(" ", 1)
    next_turn = State(f"{rules}+solo_lookahead=next-turn {rest}")
    for start in (puzzle.start, next_turn):
        assert solvers.auto_explicit_states(start) == solvers.AUTO_KERNEL_STATES
    monkeypatch.setenv("TAOLONG_PURE", "1")
    assert solvers.auto_explicit_states(puzzle.start) == solvers.AUTO_EXPLICIT_STATES
