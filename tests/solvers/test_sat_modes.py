"""The SAT solver from Monk on (issue 34): agreement with the explicit solver, the Ba Gua's
size limit, the opponent's Focus refined.

Agreement on the bundled Monk and Master puzzles (``puzzles/*.jsonl``): the optimum, a line
that replays to a win in that many turns, and the count of optimal first turns where both
solvers count them. Each run a seeded sample of the short ones is solved by both solvers
(seed: ``TAOLONG_SAMPLE_SEED``, shown in the test id); the slow run solves every one by SAT
and compares it with its certificate, which the explicit solver made.

The bundled puzzles all read the default options, so small challenges of every mode past
Grasshopper (The Chosen One too), both ``solo_lookahead`` readings and
``solo_focus_replaces_action`` are solved by both solvers too: a sample each run, all of them
in the slow run.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from taolong_lab import State, load_puzzles, solo_game
from taolong_lab.solvers import explicit
from taolong_lab.solvers.sat import SatSearch, solve
from taolong_lab.solvers.sat import monk as sat_monk

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = [
    p
    for path in sorted((ROOT / "puzzles").glob("*.jsonl"))
    for p in load_puzzles(path, check_solutions=False)
    if p.start.rules.mode != "grasshopper"
]
SEED = int(os.environ.get("TAOLONG_SAMPLE_SEED", "20261121"))
SAMPLE_SIZE, SAMPLE_OPTIMA = 4, (2, 3)


def assert_wins_in(state, line, k: int) -> None:
    assert len(line) == k
    for turn in line:
        assert not state.is_over()
        state = state.play(turn)
    assert state.outcome() is not None and state.outcome().winner == state.to_move


def test_the_bundled_puzzles_past_grasshopper_are_many():
    modes = {p.start.rules.mode for p in PUZZLES}
    assert modes == {"monk", "master"} and len(PUZZLES) >= 200
    assert {p.start.rules.mode for p in FOCUS_LINES} == modes


def _sample() -> list:
    short = [p for p in PUZZLES if p.optimum in SAMPLE_OPTIMA]
    return random.Random(SEED).sample(short, SAMPLE_SIZE)


@pytest.mark.parametrize("puzzle", _sample(), ids=lambda p: f"seed{SEED}-{p.id}")
def test_sat_agrees_with_the_explicit_solver_on_a_sample(puzzle):
    by_sat = solve(puzzle)
    by_explicit = explicit.solve(puzzle)
    assert by_sat.status == by_explicit.status == "optimal"
    assert by_sat.optimum == by_explicit.optimum == puzzle.optimum
    assert_wins_in(puzzle.start, by_sat.line, by_sat.optimum)
    assert by_sat.optimal_first_turns == by_explicit.optimal_first_turns


# the short puzzles whose stored line needs a Focus (written in braces), run each time
FOCUS_LINES = [p for p in PUZZLES if p.optimum <= 2 and any("{" in t for t in p.solution)]


@pytest.mark.parametrize("puzzle", FOCUS_LINES, ids=lambda p: p.id)
def test_sat_agrees_with_the_explicit_solver_where_a_focus_wins(puzzle):
    test_sat_agrees_with_the_explicit_solver_on_a_sample(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: p.id)
def test_sat_agrees_with_every_bundled_certificate(puzzle):
    by_sat = solve(puzzle)
    cert = puzzle.certificate
    assert cert["solver"] == explicit.SOLVER
    assert by_sat.status == "optimal" and by_sat.optimum == puzzle.optimum
    assert_wins_in(puzzle.start, by_sat.line, by_sat.optimum)
    if cert.get("optimal_first_turns_exact"):
        assert by_sat.optimal_first_turns == cert["optimal_first_turns"]


# ---- small challenges in every mode and reading -----------------------------------------------
SCENARIOS = [
    ("field", {}),
    ("valley", {}),
    ("gorge", {}),
    ("torus", {}),
    ("wall", {}),
    ("cave", {}),
    ("mist", {}),
    ("maze", {}),
    ("field", {"village": "white"}),
    ("valley", {"village": "black"}),
]
MODES = ("monk", "master", "chosen-one")
N_CHALLENGES = 24
CHALLENGE_SAMPLE = [0, 7, 11]


def challenge(i: int):
    """Challenge ``i``: a weakened opponent, a shuffled or random Ba Gua, a few random turns
    in; the mode, the lookahead and ``solo_focus_replaces_action`` vary with ``i``."""
    rng = random.Random(3400 + i)
    scenario, extra = SCENARIOS[i % len(SCENARIOS)]
    player = ("white", "black")[i // 2 % 2]
    opp = "black" if player == "white" else "white"
    start = solo_game(
        scenario,
        MODES[i % 3],
        player=player,
        segments={opp: 1},
        water={opp: rng.choice((1, 2))},
        bagua=rng.choice(("shuffled", "random")),
        seed=rng.randrange(2**32),
        solo_lookahead=("matter", "next-turn")[i % 2],
        solo_focus_replaces_action=i % 4 == 3,
        **extra,
    )
    state = start
    for _ in range(rng.randrange(0, 4)):
        nxt = state.play(rng.choice(state.legal_turns()))
        if nxt.is_over():
            break
        state = nxt
    return state


def check_agreement(i: int) -> None:
    state = challenge(i)
    by_sat = solve(state)
    by_explicit = explicit.solve(state)
    assert by_sat.status == by_explicit.status
    assert by_sat.optimum == by_explicit.optimum
    if by_sat.status == "optimal":
        assert_wins_in(state, by_sat.line, by_sat.optimum)
        assert by_sat.optimal_first_turns == by_explicit.optimal_first_turns


@pytest.mark.parametrize("i", CHALLENGE_SAMPLE)
def test_sat_agrees_with_the_explicit_solver_in_every_mode(i):
    check_agreement(i)


@pytest.mark.slow
@pytest.mark.parametrize("i", range(N_CHALLENGES))
def test_sat_agrees_with_the_explicit_solver_in_every_mode_everywhere(i):
    check_agreement(i)


def test_the_challenges_are_varied():
    states = [challenge(i) for i in range(N_CHALLENGES)]
    assert {s.rules.mode for s in states} == set(MODES)
    assert {s.rules.option("solo_lookahead") for s in states} == {"matter", "next-turn"}
    assert {s.rules.option("solo_focus_replaces_action") for s in states} == {True, False}
    assert {s.player for s in states} == {"white", "black"}
    sample = [states[i] for i in CHALLENGE_SAMPLE]
    assert {s.rules.mode for s in sample} == set(MODES)
    assert {s.rules.option("solo_lookahead") for s in sample} == {"matter", "next-turn"}
    assert any(s.rules.option("solo_focus_replaces_action") for s in sample)


# ---- the Ba Gua's size and the opponent's Focus -----------------------------------------------
def test_too_many_configurations_stop_with_unknown(monkeypatch):
    """Past :data:`~taolong_lab.solvers.sat.monk.TRANSITION_LIMIT` ways to sow at a turn the
    solve stops: status unknown, the horizons proved so far kept."""
    puzzle = next(p for p in PUZZLES if p.optimum >= 4)
    monkeypatch.setattr(sat_monk, "TRANSITION_LIMIT", 60)
    s = solve(puzzle)
    assert s.status == "unknown" and s.optimum is None
    assert "ways to sow" in s.certificate.stopped
    assert 1 < s.proved_no_win_below < puzzle.optimum


# the opponent's Focus on Wind has executions its policy does not pick
FOCUS_CHOICE = (
    "wall/master/current/solo 7d/6d1/8/4o3/3o4/2o5/1o6/o7 a2-b2:4:1 g3-h3-h4-h5:4:1 "
    "-/-/-/-/-/-/WBBBWWB/W@ccw 0:6 b 10"
)


def test_the_opponents_focus_is_refined_to_its_policy(monkeypatch):
    """Where the opponent's policy picks some of its Focus executions only, the position's
    refinements hold a ``"focus"`` one that allows fewer walks than the executions reach, and
    the solve agrees with the explicit solver with the short real searches off (their dead
    ends would otherwise cut the spurious lines too, and hide a refinement that is not
    applied)."""
    from taolong_lab.engine.core import executions

    state = State(FOCUS_CHOICE)
    search = SatSearch(state)
    try:
        refs = [r for r in search.position_refs(state) if r[0] == "focus"]
    finally:
        search.close()
    env, opp = state.tables, 1 - state.mover
    narrowed = [
        r for r in refs if set(r[4]) < {o.walk for o in executions(env, r[1], opp, r[2][0][0])}
    ]
    assert narrowed
    monkeypatch.setattr(SatSearch, "SEARCH_DEPTH", 0)
    by_sat = solve(state)
    by_explicit = explicit.solve(state)
    assert by_sat.optimum == by_explicit.optimum and by_sat.status == "optimal"
    assert_wins_in(state, by_sat.line, by_sat.optimum)


def test_bench_compare_on_monk_and_master_puzzles():
    """bench/compare.py over several puzzle files, keeping the Master challenges, with the
    summary per optimum: equal optima, and the summary counts and adds up the rows."""
    import json
    import subprocess
    import sys

    files = ["puzzles/cave-novice.jsonl", "puzzles/maze-novice.jsonl"]
    chosen = [p for p in load_puzzles(files[0]) if p.start.rules.mode == "monk"][:1]
    chosen += [p for p in load_puzzles(files[1]) if p.start.rules.mode == "master"][:2]
    ids = [p.id for p in chosen]
    args = ["--file", *files, "--ids", *ids, "--mode", "master", "--by-optimum", "--json"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "compare.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    rows = [json.loads(line) for line in lines if line.startswith("{")]
    assert sorted(r["id"] for r in rows) == sorted(ids[1:])  # the Monk one left out
    assert all(r["sat"] == r["explicit"] == r["stored"] for r in rows)
    summary = [line.split("|")[1:-1] for line in lines if line[:3] in ("| 1", "| 2", "| 3")]
    assert sum(int(cells[1]) for cells in summary) == len(rows)

    def seconds(cell: str) -> tuple[float, float]:  # "wall (CPU)"
        wall, cpu = cell.strip(" )").split(" (")
        return float(wall), float(cpu)

    # each total is rounded to the millisecond
    total_sat = sum(seconds(cells[3])[0] for cells in summary)
    assert total_sat == pytest.approx(sum(r["sat_s"] for r in rows), abs=0.0015)
    total_explicit_cpu = sum(seconds(cells[2])[1] for cells in summary)
    assert total_explicit_cpu == pytest.approx(sum(r["explicit_cpu_s"] for r in rows), abs=0.0015)
