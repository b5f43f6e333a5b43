"""What ``solve`` answers (issue 32): a stopped search combined with the stored line
(:func:`taolong_lab.puzzles.known.combine`), and which solver answered a race."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from taolong_lab import load_puzzles, solve
from taolong_lab.cli import main
from taolong_lab.puzzles import Puzzle
from taolong_lab.puzzles.known import Known, combine

NOVICE, INTERMEDIATE = "puzzles/field-novice.jsonl", "puzzles/field-intermediate.jsonl"
# stopped after 3 positions: no win below 2 proved, the stored line wins in 2
MEETS = (NOVICE, "field-novice-06", 3)
# stopped after 3 positions: no win below 2 proved, the stored line wins in 3
SHORT_OF_IT = (INTERMEDIATE, "field-intermediate-01", 3)


def puzzle_of(file: str, ident: str) -> Puzzle:
    return next(p for p in load_puzzles(file) if p.id == ident)


def stopped(case) -> tuple[Puzzle, object]:
    file, ident, positions = case
    puzzle = puzzle_of(file, ident)
    return puzzle, solve(puzzle, max_states=positions)


# ---- the library ----------------------------------------------------------------------------
def test_a_bound_that_meets_the_stored_line_is_the_optimum():
    puzzle, solution = stopped(MEETS)
    assert (solution.status, solution.proved_no_win_below) == ("unknown", 2)
    known = combine(solution, puzzle)
    assert known == Known(2, puzzle.solution)
    assert known.optimum == 2
    assert str(known) == "optimal 2 (no win below 2 proved now; the stored line wins in 2)"


def test_a_bound_short_of_the_stored_line_reports_both():
    puzzle, solution = stopped(SHORT_OF_IT)
    known = combine(solution, puzzle)
    assert known.optimum is None
    assert str(known) == (
        "between 2 and 3 turns (no win below 2 proved now; the stored line wins in 3)"
    )
    assert known.to_json() == {
        "optimum": None,
        "proved_no_win_below": 2,
        "line": list(puzzle.solution),
    }


def test_a_bound_past_the_stored_line_is_a_contradiction():
    puzzle, solution = stopped(SHORT_OF_IT)
    known = combine(replace(solution, proved_no_win_below=4), puzzle)
    assert known.optimum is None and str(known).startswith("contradiction (no win below 4")


def test_only_a_stopped_search_and_a_winning_stored_line_combine():
    puzzle, solution = stopped(MEETS)
    assert combine(solve(puzzle), puzzle) is None  # exact already
    no_line = replace(puzzle, solution=None, optimum=None, certificate=None, difficulty=None)
    assert combine(solution, no_line) is None
    losing = replace(puzzle, solution=puzzle.solution[:1])  # one turn short: no win
    assert combine(solution, losing) is None
    illegal = replace(puzzle, solution=(puzzle.solution[1], puzzle.solution[0]))
    assert combine(solution, illegal) is None


# ---- the command line -----------------------------------------------------------------------
def test_solve_reports_the_optimum_from_the_bound_and_the_stored_line(capsys):
    file, ident, positions = MEETS
    code = main(["solve", f"{file}:{ident}", "--max-states", str(positions)])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0  # solved: nothing is left unknown
    assert lines[0] == (
        f"{ident}: optimal 2 (no win below 2 proved now; the stored line wins in 2)"
    )
    stored = puzzle_of(file, ident).solution
    assert lines[1:4] == ["  the stored line:", f"  1. {stored[0]}", f"  2. {stored[1]}"]


def test_solve_reports_both_when_they_do_not_meet(capsys):
    file, ident, positions = SHORT_OF_IT
    code = main(["solve", f"{file}:{ident}", "--max-states", str(positions), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1
    assert doc["status"] == "unknown"
    assert doc["known"]["optimum"] is None and doc["known"]["proved_no_win_below"] == 2
    code = main(["solve", f"{file}:{ident}", "--max-states", str(positions)])
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(
        "between 2 and 3 turns (no win below 2 proved now; the stored line wins in 3)"
    )


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # the Monk mode: both solvers run, the first exact answer wins
        ("puzzles/field-novice.jsonl:field-novice-01", "answered by the "),
        ("puzzles/field-novice.jsonl:field-novice-02", "answered by the "),
    ],
)
def test_race_says_which_solver_answered(capsys, spec, expected):
    assert main(["solve", spec, "--method", "race"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(f"  {expected}")
    if expected.endswith("the "):  # a real race: the line names the winner the record names
        assert main(["solve", spec, "--method", "race", "--json"]) == 0
        race = json.loads(capsys.readouterr().out)["stats"]["race"]
        winner = lines[1].split()[3]
        assert winner in ("explicit", "sat")
        other = {"explicit": "sat", "sat": "explicit"}[winner]
        assert lines[1].startswith(f"  answered by the {winner} solver ({other}: ")
        assert set(race) == {"winner", "seconds", "stopping", other}


def test_auto_says_which_solver_answered(capsys):
    assert main(["solve", "puzzles/field-novice.jsonl:field-novice-02", "--method", "auto"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  answered by the explicit solver"
