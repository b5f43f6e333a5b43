"""The certificate verifier (taolong_lab.puzzles.verify, ``taolong verify``): the consistency
checks (no search).

Two good puzzles (the same win-in-2 start, one proved by the explicit solver, one by SAT), with
every field of the agreed layout (first-turn and line counts, the cross-check, fairness, the
greedy line, the difficulty). Each check has a test: a corrupted copy must fail with a message
naming the field, and the good puzzle passes.
"""

from __future__ import annotations

import copy
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taolong_lab import load_puzzles
from taolong_lab.cli import build_parser
from taolong_lab.cli.common import CommandError
from taolong_lab.cli.verify import run as run_verify
from taolong_lab.errors import TaoLongError
from taolong_lab.puzzles import Puzzle, save_puzzles
from taolong_lab.puzzles.generate import greedy_line
from taolong_lab.puzzles.verify import VerifyError, certificate_problems, verify_puzzle
from taolong_lab.solvers import solve

SOURCE = "bench/solo-set.jsonl"
ID = "cave-b1w1-win2"  # win in 2, 11 legal first turns; greedy does not win in 2


def _good(method: str) -> dict:
    base = next(p for p in load_puzzles(SOURCE) if p.id == ID)
    found = solve(base.start, method=method)
    other = "sat" if method == "explicit" else "explicit"
    check = solve(base.start, method=other)
    greedy, won = greedy_line(base.start, found.optimum)
    assert not won
    first = found.optimal_first_turns or 1
    certificate = {
        **found.certificate.to_json(),
        "optimal_first_turns": first,
        "optimal_lines": first + 1,
        "optimal_lines_exact": True,
        "cross_check": {
            "solver": check.certificate.solver,
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
        solution=found.line.notation(),
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

    args = build_parser().parse_args(["verify", str(path), "--full"])
    out = io.StringIO()
    assert run_verify(args, out) == 0
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

    args = build_parser().parse_args(["verify", str(path)])
    with pytest.raises(CommandError, match=r"certificate\.no_win_below_proofs"):
        run_verify(args, io.StringIO())


def test_an_illegal_turn_of_the_solution_is_named(explicit_doc):
    def illegal(d):
        d["solution"][1] = "He>Fi a3x"

    problems = _corrupt(explicit_doc, illegal)
    assert len(problems) == 1 and problems[0].startswith("solution: illegal turn 'He>Fi a3x'")
    assert "turn 2: " in problems[0]


def test_an_unknown_reproving_method_is_refused(explicit_doc):
    puzzle = Puzzle.from_json(explicit_doc, check_solutions=False)
    with pytest.raises(VerifyError, match=r"^method: 'magic' is not one of explicit, sat"):
        verify_puzzle(puzzle, full=True, method="magic")


def test_no_solution_and_no_bound_is_a_problem(sat_doc):
    doc = _bound_only(sat_doc)
    doc["certificate"] = None
    assert _problems(doc) == ["no stored solution"]


def test_a_certificate_with_only_the_old_fields_passes(explicit_doc):
    """Puzzles written before the new fields (bench/solo-set.jsonl) still verify."""
    for puzzle in load_puzzles(SOURCE)[:5]:
        assert certificate_problems(puzzle) == []


# ---- --full --method other from Monk on: SAT re-proves an explicit certificate --------------
MONK = (
    "field/monk/current/solo 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8:1:0 WW/-/BW/-/BB/-/WB/- 3:8 w 1"
)


def test_other_re_proves_a_monk_puzzle_by_sat(tmp_path):
    from taolong_lab import State
    from taolong_lab.puzzles.verify import reproving_method

    found = solve(State(MONK))
    assert found.optimum == 4
    good = Puzzle.from_state(
        "monk",
        "monk",
        State(MONK),
        optimum=4,
        solution=found.line.notation(),
        certificate=found.certificate,
    )
    assert reproving_method(good, "other") == "sat"
    assert verify_puzzle(good, full=True, method="other") == []
    # a longer line claimed optimal: SAT finds the shorter win
    longer = found.line.notation()
    state = State(MONK)
    for text in longer[:-1]:
        state = state.play(text)
    slow = next((t for t, after in state.successors() if not after.is_over()), None)
    assert slow is not None
    doc = good.to_json()
    state = state.play(str(slow))
    rest = solve(state)
    doc["solution"] = [*longer[:-1], str(slow), *rest.line.notation()]
    doc["optimum"] = len(doc["solution"])
    doc["certificate"] = {"solver": "taolong_lab.solvers.explicit", "method": "m"}
    bad = Puzzle.from_json(doc, check_solutions=False)
    problems = verify_puzzle(bad, full=True, method="other")
    assert problems == [f"the optimum is 4, the stored solution takes {len(doc['solution'])}"]


# ---- crafted fields: a problem, never an exception ------------------------------------------
BUNDLED = Path(__file__).resolve().parents[2] / "puzzles"


def _bundled(file: str, ident: str) -> dict:
    return next(p for p in load_puzzles(BUNDLED / file) if p.id == ident).to_json()


def _bound_only_of(doc: dict, proved: int) -> dict:
    """A solved SAT puzzle as if its search had stopped at ``proved``: no solution, the
    proofs below ``proved`` kept."""
    doc = copy.deepcopy(doc)
    for key in ("optimum", "solution", "difficulty"):
        doc.pop(key, None)
    cert = doc["certificate"]
    for key in ("optimum", "optimal_first_turns", "first_turns_by"):
        cert.pop(key, None)
    cert.update(status="unknown", proved_no_win_below=proved)
    cert["no_win_below_proofs"] = cert["no_win_below_proofs"][:proved]
    cert["unsat_horizons"] = [k for k in cert["unsat_horizons"] if k < proved]
    cert["per_turn"] = cert["per_turn"][:proved]
    return doc


@pytest.fixture(scope="module")
def seeds() -> list[dict]:
    """Bundled puzzles with each kind of certificate, and a bound-only one."""
    sat = _bundled("rulebook-solo.jsonl", "field-white")
    return [
        _bundled("field-advanced.jsonl", "field-advanced-05"),  # explicit, greedy, difficulty
        _bundled("rulebook-solo.jsonl", "maze-white"),  # explicit, cross-checked by SAT
        sat,
        _bound_only_of(sat, 5),
    ]


def test_the_seeds_pass(seeds):
    for doc in seeds:
        assert _problems(doc) == [], doc["id"]


def _paths(node, here=()) -> list[tuple]:
    """Every place in a JSON value, as the keys and indices that lead there."""
    found = [here]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*here, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:3]):  # a few rows are enough
            found += _paths(value, (*here, i))
    return found


def _get(node, path):
    for step in path:
        node = node[step]
    return node


def _set(root, path, value):
    _get(root, path[:-1])[path[-1]] = value


NUMBERS = st.sampled_from([-1, 0, 1, 2, 7, 99, 100, 101, 10**12, 10**30, 10**4000])
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    NUMBERS,
    st.floats(allow_nan=False),
    st.text(max_size=8),
)
JSON = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
KNOWN_FIELDS = [
    "optimum",
    "proved_no_win_below",
    "status",
    "lower_bound",
    "start_lower_bound",
    "no_win_within",
    "no_win_below_proofs",
    "unsat_horizons",
    "per_turn",
    "optimal_first_turns",
    "optimal_lines",
    "optimal_lines_exact",
    "cross_check",
    "fair",
    "greedy_line",
    "greedy_wins_within_optimum",
]


def _mutate(value, how: str, data):
    if how == "replace":
        return data.draw(JSON)
    if how == "deepen":
        for _ in range(data.draw(st.integers(1, 100))):
            value = [value]
        return value
    if how == "swap":  # a list becomes an object and an object a list
        if isinstance(value, list):
            return {str(i): v for i, v in enumerate(value)}
        return list(value.values()) if isinstance(value, dict) else [value]
    if how == "repeat":
        return [value] * data.draw(st.integers(0, 300))
    # "number": a blow-up of a number
    return data.draw(NUMBERS) if not isinstance(value, int) else value * data.draw(NUMBERS)


@settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_any_certificate_gives_problems_or_none_never_an_exception(seeds, data):
    doc = copy.deepcopy(data.draw(st.sampled_from(seeds)))
    for _ in range(data.draw(st.integers(1, 3))):
        part = data.draw(st.sampled_from(["certificate", "difficulty"]))
        root = doc.get(part)
        if not isinstance(root, dict):
            continue
        if data.draw(st.booleans()):
            root[data.draw(st.sampled_from(KNOWN_FIELDS))] = data.draw(JSON)
            continue
        path = data.draw(st.sampled_from(_paths(root)[1:] or [()]))
        if not path:
            continue
        how = data.draw(st.sampled_from(["replace", "deepen", "swap", "repeat", "number", "drop"]))
        if how == "drop":
            del _get(root, path[:-1])[path[-1]]
        else:
            _set(root, path, _mutate(_get(root, path), how, data))
    try:
        puzzle = Puzzle.from_json(doc, check_solutions=False)
    except TaoLongError:
        return  # the reader refused the file: nothing to verify
    try:
        problems = verify_puzzle(puzzle)
    except TaoLongError:
        return
    assert all(isinstance(p, str) and "\n" not in p and len(p) < 1000 for p in problems), problems


# ---- what plain verify proves, and what only --full does -----------------------------------
def _longer_line(puzzle) -> list[str] | None:
    """A real winning line one turn longer than the optimum, if the start has one: a first
    turn after which the optimum is unchanged, then an optimal line from there."""
    for turn, after in puzzle.start.successors():
        if after.is_over():
            continue
        rest = solve(after, count_first_turns=False)
        if rest.status == "optimal" and rest.optimum == puzzle.optimum:
            return [str(turn), *rest.line.notation()]
    return None


@pytest.fixture(scope="module")
def forgery() -> Puzzle:
    """A bundled win in 2 claimed as a win in 3, with a real 3-turn winning line and every
    certificate and difficulty field consistent with that claim."""
    for puzzle in load_puzzles(BUNDLED / "field-novice.jsonl"):
        line = _longer_line(puzzle) if puzzle.optimum == 2 else None
        if line is not None:
            break
    else:
        pytest.fail("no bundled win in 2 with a 3-turn win")
    truth = solve(puzzle.start)
    done = truth.certificate.to_json()
    cert = {key: done[key] for key in ("solver", "method", "lookahead")}
    rows = done["no_win_within"]
    cert.update(
        lower_bound=done["lower_bound"],
        start_lower_bound=done["start_lower_bound"],
        optimum=3,
        proved_no_win_below=3,
        no_win_within=[*rows, {"turns": 2, "positions": rows[-1]["positions"] + 1}],
        cross_check={"solver": "taolong_lab.solvers.sat", "optimum": 3, "agrees": True},
        fair=True,
    )
    difficulty = {"tier": "intermediate", "grade": "intermediate", "score": 3.5, "optimum": 3}
    return Puzzle.from_state(
        "forged",
        "forged",
        puzzle.start,
        optimum=3,
        solution=line,
        certificate=cert,
        difficulty=difficulty,
    )


def test_plain_verify_passes_a_consistent_forgery_and_full_catches_it(forgery, tmp_path, capsys):
    from taolong_lab.cli import main

    assert verify_puzzle(forgery) == []
    assert verify_puzzle(forgery, full=True) == ["the optimum is 2, the stored solution takes 3"]
    other = verify_puzzle(forgery, full=True, method="other")
    assert len(other) == 1 and other[0].startswith("the optimum is "), other
    path = tmp_path / "forged.jsonl"
    save_puzzles(path, [forgery])
    assert main(["verify", str(path)]) == 0
    assert main(["verify", str(path), "--full"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the optimum is 2, the stored solution takes 3" in err


def test_verify_help_says_what_plain_verify_does_not_prove(capsys):
    from taolong_lab.cli import main

    assert main(["verify", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "proves that the stored line wins in that many turns" in text
    assert "does not prove that no shorter win exists" in text
    assert "--full proves it" in text
