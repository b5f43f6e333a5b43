"""``taolong verify``: the certificate consistency checks (no search).

Two good puzzles (the same win-in-2 start, one proved by the explicit solver, one by SAT), with
every field of the agreed layout (first-turn and line counts, the cross-check, fairness, the
greedy line, the difficulty). Each check has a test: a corrupted copy must fail with a message
naming the field, and the good puzzle passes.
"""

from __future__ import annotations

import copy
import io

import pytest

from taolong_lab import load_puzzles
from taolong_lab.cli_solve import (
    SolveCommandError,
    certificate_problems,
    run_verify,
    verify_puzzle,
)
from taolong_lab.puzzles import Puzzle, save_puzzles
from taolong_lab.puzzles.generate import greedy_line
from taolong_lab.solvers import solve

SOURCE = "bench/solo-set.jsonl"
ID = "cave-b1w1-win2"  # win in 2, 11 legal first turns; greedy does not win in 2


def _good(method: str) -> dict:
    base = next(p for p in load_puzzles(SOURCE) if p.id == ID)
    found = solve(base.start, method=method, progress=False)
    other = "sat" if method == "explicit" else "explicit"
    check = solve(base.start, method=other, progress=False)
    greedy, won = greedy_line(base.start, found.optimum)
    assert not won
    first = found.optimal_first_turns or 1
    certificate = {
        **found.certificate,
        "optimal_first_turns": first,
        "optimal_lines": first + 1,
        "optimal_lines_exact": True,
        "cross_check": {
            "solver": check.certificate["solver"],
            "method": "re-proved",
            "optimum": check.optimum,
            "agrees": True,
            "seconds": 0.1,
        },
        "fair": True,
        "greedy_line": greedy,
        "greedy_wins_within_optimum": False,
        "some_future_field": {"ignored": True},
    }
    puzzle = Puzzle.from_state(
        f"good-{method}",
        "a good puzzle",
        base.start,
        optimum=found.optimum,
        solution=list(found.line),
        certificate=certificate,
        difficulty={
            "tier": "novice",
            "grade": "novice",
            "score": 2.5,
            "formula": "optimum + hardness",
            "optimum": 2,
            "optimal_first_turns": first,
            "greedy_wins_within_optimum": False,
        },
    )
    return puzzle.to_json()


@pytest.fixture(scope="module")
def explicit_doc() -> dict:
    return _good("explicit")


@pytest.fixture(scope="module")
def sat_doc() -> dict:
    return _good("sat")


def _problems(doc: dict) -> list[str]:
    return verify_puzzle(Puzzle.from_json(doc, check_solutions=False))


def _corrupt(doc: dict, change) -> list[str]:
    doc = copy.deepcopy(doc)
    change(doc)
    return _problems(doc)


def _fails_on(problems: list[str], field: str) -> None:
    assert problems, "the corrupted puzzle passed"
    assert any(p.startswith(field) for p in problems), problems


def test_the_good_puzzles_pass(explicit_doc, sat_doc):
    assert _problems(explicit_doc) == []
    assert _problems(sat_doc) == []
    assert "no_win_within" in explicit_doc["certificate"]
    assert {"no_win_below_proofs", "unsat_horizons", "per_turn"} <= set(sat_doc["certificate"])


# ---- one test per check -------------------------------------------------------------------
@pytest.mark.parametrize("key", ["optimum", "proved_no_win_below"])
def test_certificate_optimum_must_match(explicit_doc, key):
    def change(d):
        d["certificate"][key] = 3

    _fails_on(_corrupt(explicit_doc, change), f"certificate.{key}")


def test_a_solved_puzzle_status_must_be_optimal(sat_doc):
    _fails_on(
        _corrupt(sat_doc, lambda d: d["certificate"].update(status="unknown")), "certificate.status"
    )


def test_lower_bound_params_must_match(explicit_doc):
    def change(d):
        d["certificate"]["lower_bound"]["player_matter"] += 1

    _fails_on(_corrupt(explicit_doc, change), "certificate.lower_bound")


def test_start_lower_bound_must_match(sat_doc):
    def change(d):
        d["certificate"]["start_lower_bound"] = 2

    _fails_on(_corrupt(sat_doc, change), "certificate.start_lower_bound")


def test_no_win_within_covers_every_horizon(explicit_doc):
    def gap(d):
        d["certificate"]["no_win_within"].pop()

    def empty(d):
        d["certificate"]["no_win_within"][-1]["positions"] = 0

    def falling(d):
        rows = d["certificate"]["no_win_within"]
        rows[0]["positions"] = rows[-1]["positions"] + 1

    for change in (gap, empty, falling):
        _fails_on(_corrupt(explicit_doc, change), "certificate.no_win_within")


def test_no_win_below_proofs_by_lower_bound_then_sat(sat_doc):
    def gap(d):
        d["certificate"]["no_win_below_proofs"].pop()

    def wrong_kind(d):
        d["certificate"]["no_win_below_proofs"][0]["by"] = "sat-unsat"

    for change in (gap, wrong_kind):
        _fails_on(_corrupt(sat_doc, change), "certificate.no_win_below_proofs")


def test_unsat_horizons_have_no_gap_and_stop_below_the_optimum(sat_doc):
    assert sat_doc["certificate"]["unsat_horizons"] == [1]

    def gap(d):
        d["certificate"]["unsat_horizons"] = []

    def beyond(d):
        d["certificate"]["unsat_horizons"] = [1, 2]

    def unordered(d):
        d["certificate"]["unsat_horizons"] = [1, 1]

    for change in (gap, beyond, unordered):
        _fails_on(_corrupt(sat_doc, change), "certificate.unsat_horizons")


def test_per_turn_one_row_per_turn(sat_doc):
    def extra(d):
        d["certificate"]["per_turn"].append({"turn": 3})

    def renumbered(d):
        d["certificate"]["per_turn"][0]["turn"] = 0

    for change in (extra, renumbered):
        _fails_on(_corrupt(sat_doc, change), "certificate.per_turn")


@pytest.mark.parametrize("value", [0, 12, "2"])
def test_optimal_first_turns_within_the_legal_turns(explicit_doc, value):
    def change(d):
        d["certificate"]["optimal_first_turns"] = value

    _fails_on(_corrupt(explicit_doc, change), "certificate.optimal_first_turns")


def test_difficulty_first_turns_must_match_the_certificate(explicit_doc):
    def change(d):
        d["difficulty"]["optimal_first_turns"] += 1

    _fails_on(_corrupt(explicit_doc, change), "difficulty.optimal_first_turns")


def test_optimal_lines_at_least_the_first_turns_when_exact(explicit_doc):
    def fewer(d):
        d["certificate"]["optimal_lines"] = d["certificate"]["optimal_first_turns"] - 1 or 0

    _fails_on(_corrupt(explicit_doc, fewer), "certificate.optimal_lines")

    def fewer_but_a_lower_count(d):
        d["certificate"]["optimal_lines"] = 1
        d["certificate"]["optimal_first_turns"] = 2
        d["difficulty"]["optimal_first_turns"] = 2
        d["certificate"]["optimal_lines_exact"] = False

    assert _corrupt(explicit_doc, fewer_but_a_lower_count) == []

    def not_a_bool(d):
        d["certificate"]["optimal_lines_exact"] = "yes"

    _fails_on(_corrupt(explicit_doc, not_a_bool), "certificate.optimal_lines_exact")


@pytest.mark.parametrize(
    ("field", "value"),
    [("optimum", 3), ("agrees", False), ("solver", "taolong_lab.solvers.explicit")],
)
def test_cross_check_agrees_with_another_solver(explicit_doc, field, value):
    def change(d):
        d["certificate"]["cross_check"][field] = value

    _fails_on(_corrupt(explicit_doc, change), f"certificate.cross_check.{field}")


def test_fair_must_be_true(explicit_doc):
    _fails_on(
        _corrupt(explicit_doc, lambda d: d["certificate"].update(fair=False)), "certificate.fair"
    )


def test_greedy_line_replays_and_does_not_win(explicit_doc):
    def illegal(d):
        d["certificate"]["greedy_line"][0] = "Zz>Zz"

    def short(d):
        d["certificate"]["greedy_line"].pop()

    def winning(d):
        d["certificate"]["greedy_line"] = list(d["solution"])
        d["certificate"]["greedy_wins_within_optimum"] = True

    for change in (illegal, short, winning):
        _fails_on(_corrupt(explicit_doc, change), "certificate.greedy_line")

    def says_it_wins(d):
        d["difficulty"]["greedy_wins_within_optimum"] = True

    _fails_on(_corrupt(explicit_doc, says_it_wins), "difficulty.greedy_wins_within_optimum")


@pytest.mark.parametrize(
    ("field", "value"),
    [("tier", "advanced"), ("grade", "expert"), ("score", 3.0), ("score", 1.99), ("optimum", 3)],
)
def test_difficulty_matches_the_optimum(explicit_doc, field, value):
    def change(d):
        d["difficulty"][field] = value

    _fails_on(_corrupt(explicit_doc, change), f"difficulty.{field}")


# ---- bound-only puzzles ---------------------------------------------------------------------
def _bound_only(sat_doc: dict, proved: int = 2) -> dict:
    """The SAT puzzle as if the budget ran out at horizon 2: no win in fewer than 2 turns."""
    doc = copy.deepcopy(sat_doc)
    for key in ("optimum", "solution", "difficulty"):
        doc.pop(key)
    cert = doc["certificate"]
    for key in (
        "optimum",
        "optimal_first_turns",
        "optimal_lines",
        "optimal_lines_exact",
        "cross_check",
        "fair",
        "greedy_line",
        "greedy_wins_within_optimum",
    ):
        cert.pop(key)
    cert.update(status="unknown", stopped="time_limit reached", time_limit=600)
    cert["proved_no_win_below"] = proved
    cert["no_win_below_proofs"] = cert["no_win_below_proofs"][:proved]
    return doc


def test_a_bound_only_puzzle_verifies_as_unsolved(sat_doc, tmp_path):
    doc = _bound_only(sat_doc)
    assert _problems(doc) == []
    path = tmp_path / "bound.jsonl"
    save_puzzles(path, [Puzzle.from_json(doc, check_solutions=False)])

    class Args:
        file, full, time_limit, method = str(path), True, None, "explicit"

    out = io.StringIO()
    assert run_verify(Args, out) == 0
    assert "ok (unsolved: no win in fewer than 2 turns)" in out.getvalue()


def test_a_bound_only_puzzle_is_checked_too(sat_doc, tmp_path):
    _fails_on(
        _corrupt(_bound_only(sat_doc), lambda d: d["certificate"].pop("status")),
        "certificate.status",
    )
    _fails_on(
        _corrupt(_bound_only(sat_doc), lambda d: d["certificate"].update(optimum=2)),
        "certificate.optimum",
    )

    def overclaimed(d):
        d["certificate"]["proved_no_win_below"] = 3  # the proofs stop at horizon 1

    _fails_on(_corrupt(_bound_only(sat_doc), overclaimed), "certificate.no_win_below_proofs")
    path = tmp_path / "bad.jsonl"
    doc = _bound_only(sat_doc)
    doc["certificate"]["proved_no_win_below"] = 3
    save_puzzles(path, [Puzzle.from_json(doc, check_solutions=False)])

    class Args:
        file, full, time_limit, method = str(path), False, None, "explicit"

    with pytest.raises(SolveCommandError, match=r"certificate\.no_win_below_proofs"):
        run_verify(Args, io.StringIO())


def test_no_solution_and_no_bound_is_a_problem(sat_doc):
    doc = _bound_only(sat_doc)
    doc["certificate"] = None
    assert _problems(doc) == ["no stored solution"]


def test_a_certificate_with_only_the_old_fields_passes(explicit_doc):
    """Puzzles written before the new fields (bench/solo-set.jsonl) still verify."""
    for puzzle in load_puzzles(SOURCE)[:5]:
        assert certificate_problems(puzzle) == []


# ---- --full --method other in the modes SAT does not encode -------------------------------
MONK = (
    "field/monk/current/solo 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8:1:0 WW/-/BW/-/BB/-/WB/- 3:8 w 1"
)


def test_other_re_proves_a_monk_puzzle_by_bounded_search(tmp_path):
    from taolong_lab import State
    from taolong_lab.cli_solve import WIN_WITHIN, _reproving_method

    found = solve(State(MONK), progress=False)
    assert found.optimum == 4
    good = Puzzle.from_state(
        "monk",
        "monk",
        State(MONK),
        optimum=4,
        solution=list(found.line),
        certificate=found.certificate,
    )
    assert _reproving_method(good, "other") == WIN_WITHIN
    assert verify_puzzle(good, full=True, method="other") == []
    # a longer line claimed optimal: the bounded search finds the shorter win
    longer = list(found.line)
    state = State(MONK)
    for text in longer[:-1]:
        state = state.play(text)
    slow = next((t for t, after in state.successors() if not after.is_over()), None)
    assert slow is not None
    doc = good.to_json()
    state = state.play(str(slow))
    rest = solve(state, progress=False)
    doc["solution"] = [*longer[:-1], str(slow), *rest.line]
    doc["optimum"] = len(doc["solution"])
    doc["certificate"] = {"solver": "taolong_lab.solvers.explicit", "method": "m"}
    bad = Puzzle.from_json(doc, check_solutions=False)
    problems = verify_puzzle(bad, full=True, method="other")
    assert any("the optimum is below" in p for p in problems), problems
