"""The SAT solver (issue 6): agreement with the explicit solver, replay, budgets (the modes
past Grasshopper: ``tests/solvers/test_sat_modes.py``).

Agreement: small challenges (the opponent with 1-2 segments and low water; every Grasshopper
scenario, the Village, the tail-first step (the earlier edition's, which has no solo variant,
as option ``tail_vacates_first``), both players, both ``solo_lookahead`` readings,
standard, shuffled and random Ba Gua, a few random turns played first) are solved by both
solvers; the optima must be equal and every SAT line must replay in the engine to a win in
exactly that many turns. A seeded sample runs by default, all 60 under ``slow``.
"""

from __future__ import annotations

import random

import pytest
from small_wins import WIN_IN_1

from taolong_lab import State, solo_game
from taolong_lab.solvers import bounds, explicit
from taolong_lab.solvers.common import SolverError
from taolong_lab.solvers.sat import SatEncodingError, solve
from taolong_lab.solvers.sat import encode as sat_encode
from taolong_lab.solvers.sat import search as sat_search
from taolong_lab.solvers.sat import solver as sat_solver

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
    ("mist", {"village": "white"}),
    ("field", {"tail_vacates_first": True}),
    ("valley", {"tail_vacates_first": True}),
]
N_CHALLENGES = 62
# Challenges the explicit solver cannot finish in 30 s (both 6 and 5 for SAT): left out so the
# agreement is always a comparison; 60 challenges remain.
HARD = {31, 43}
# The default run: one challenge per kind, each under 2 s for both solvers.
SAMPLE = [5, 6, 20, 22, 23, 24, 29, 47, 51, 56]


def challenge(i: int) -> State:
    """Challenge ``i``: a weakened opponent, a few random turns in."""
    rng = random.Random(1000 + i)
    scenario, extra = SCENARIOS[i % len(SCENARIOS)]
    player = ("white", "black")[i // len(SCENARIOS) % 2]
    opp = "black" if player == "white" else "white"
    options = dict(extra)
    start = solo_game(
        scenario,
        player=player,
        segments={opp: rng.choice((1, 1, 2))},
        water={opp: rng.choice((1, 2))},
        bagua=rng.choice(("standard", "shuffled", "random")),
        seed=rng.randrange(2**32),
        solo_lookahead=("matter", "next-turn")[i % 2],
        **options,
    )
    state = start
    for _ in range(rng.randrange(0, 5)):
        turns = state.legal_turns()
        nxt = state.play(rng.choice(turns))
        if nxt.is_over():
            break
        state = nxt
    return state


def assert_wins_in(state: State, line, k: int) -> None:
    assert len(line) == k
    for turn in line:
        assert not state.is_over()
        state = state.play(turn)
    assert state.outcome() is not None and state.outcome().winner == state.to_move


# budgets in positions and conflicts, never seconds: the same on a loaded machine
EXPLICIT_BUDGET = 500_000
SAT_BUDGET = 5_000_000


def agree(i: int, share: float | None = None):
    """``share``: the first-turn count's explicit share (0: SAT counts every first turn)."""
    state = challenge(i)
    ex = explicit.solve(state, max_states=EXPLICIT_BUDGET)
    if ex.status != "optimal":
        pytest.skip(f"the explicit solver did not finish challenge {i} ({ex.status})")
    if share is None:
        sat = solve(state, conflict_budget=SAT_BUDGET)
    else:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(sat_solver, "COUNT_EXPLICIT_SHARE", share)
            sat = solve(state, conflict_budget=SAT_BUDGET)
        if share == 0:  # the SAT loop ran and ended with an UNSAT answer
            assert sat.stats["first_turns_calls"] >= 1
    assert sat.status == "optimal", sat
    assert sat.optimum == ex.optimum, (i, state.to_tln(), sat.line, ex.line)
    assert_wins_in(state, sat.line, sat.optimum)
    cert = sat.certificate.to_json()
    assert cert["proved_no_win_below"] == sat.optimum
    assert cert["unsat_horizons"] == [k for k in range(cert["start_lower_bound"], sat.optimum)]
    assert len(cert["per_turn"]) == sat.optimum
    # the optimal first turns: the explicit bounded search, then SAT (blocking at layer 1)
    assert sat.optimal_first_turns is not None
    if ex.optimal_first_turns is not None:
        assert sat.optimal_first_turns == ex.optimal_first_turns, (i, state.to_tln())
    return sat


@pytest.mark.parametrize("i", SAMPLE)
def test_sat_agrees_with_the_explicit_solver(i):
    agree(i)


@pytest.mark.parametrize("i", SAMPLE)
def test_sat_alone_counts_the_first_turns_as_the_explicit_solver(i):
    agree(i, share=0.0)


@pytest.mark.slow
@pytest.mark.parametrize("i", [i for i in range(N_CHALLENGES) if i not in HARD])
def test_sat_agrees_with_the_explicit_solver_everywhere(i):
    agree(i)


def test_the_agreement_set_is_big_and_varied():
    kept = [i for i in range(N_CHALLENGES) if i not in HARD]
    assert len(kept) >= 50
    assert {SCENARIOS[i % len(SCENARIOS)][0] for i in SAMPLE} >= {"cave", "mist", "torus", "wall"}


# ---- fixed challenges ------------------------------------------------------------------------
WIN_IN_4 = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
    "a2-a1-b1-b2:4:0 g8-h8:1:0 WW/-/BW/-/BB/-/WB/- 3:8 w 1"
)


def test_win_in_one_and_the_certificate():
    s = solve(State(WIN_IN_1))
    assert (s.status, s.optimum, s.line.notation()) == ("optimal", 1, ["Ea>Mo ="])
    cert = s.certificate.to_json()
    assert cert["solver"] == "taolong_lab.solvers.sat"
    assert cert["sat_solver"] == "g4"
    assert cert["per_turn"][0]["clauses"] > 0 and cert["per_turn"][0]["variables"] > 0
    for key in ("unsat_horizons", "refinements", "conflicts", "lower_bound", "no_win_below_proofs"):
        assert key in cert
    assert cert["damage_budget"] is True


def test_win_in_four_with_cadical():
    s = solve(State(WIN_IN_4), solver_name="cd195")
    assert (s.status, s.optimum) == ("optimal", 4)
    assert s.certificate.unsat_horizons == (1, 2, 3)
    assert_wins_in(State(WIN_IN_4), s.line, 4)


def test_a_won_start_is_optimal_in_zero():
    state = State(WIN_IN_1).play("Ea>Mo =")
    assert solve(state).optimum == 0


def test_two_player_positions_are_refused():
    from taolong_lab import new_game

    with pytest.raises(SolverError, match="solo"):
        solve(new_game())


def test_budgets_give_unknown():
    state = State(WIN_IN_4)
    s = solve(state, conflict_budget=0)
    assert s.status == "unknown" and s.optimum is None
    assert s.proved_no_win_below == 1  # the lower bound
    assert "conflict_budget" in s.certificate.stopped
    s = solve(state, time_limit=0)
    assert s.status == "unknown" and "time_limit" in s.certificate.stopped
    s = solve(state, max_horizon=3)
    assert s.status == "unknown" and s.proved_no_win_below == 4
    assert s.certificate.unsat_horizons == (1, 2, 3)
    with pytest.raises(SolverError):
        solve(state, time_limit=-1)


def test_a_wrong_encoding_is_caught_not_returned(monkeypatch):
    """Damage doubled in the encoding makes spurious wins. With the short real searches
    off, the engine check finds a turn no refinement explains and raises; with them on, the
    spurious lines only add dead-end nogoods, and here the answer is still the real optimum
    (a wrong encoding can also lose real lines: the conformance tests are what rule that
    out)."""
    from taolong_lab.solvers.sat import SatSearch

    damage = sat_encode.Board.damage

    def double(self, life, dmg):
        return damage(self, life, {2 * v: x for v, x in dmg.items()})

    monkeypatch.setattr(sat_encode.Board, "damage", double)
    s = solve(State(WIN_IN_4))
    assert (s.status, s.optimum) == ("optimal", 4) and s.certificate.dead_ends > 0
    monkeypatch.setattr(SatSearch, "SEARCH_DEPTH", 0)
    with pytest.raises(SatEncodingError):
        solve(State(WIN_IN_4))


def test_short_real_search_and_dead_ends():
    """The short search at the end of a line: a real win within 1 turn from WIN_IN_1, none
    within 3 from WIN_IN_4 (its optimum is 4), which makes a dead-end nogood."""
    from taolong_lab.solvers.sat import SatSearch

    search = SatSearch(State(WIN_IN_4))
    try:
        assert search.short_win(State(WIN_IN_1), 1) == ["Ea>Mo ="]
        start = State(WIN_IN_4)
        assert search.short_win(start, 3) is None
        walk = start.board
        assert search.dead_end(walk, start.bagua, 3) == 1
        assert search.dead_end(walk, start.bagua, 3) == 0  # known already
    finally:
        search.close()


def test_dead_ends_are_lifted_to_their_ancestors(monkeypatch):
    """``SatSearch.lift``: after a dead end at the end of a real path, each ancestor is
    searched one turn deeper, nearest first. From WIN_IN_4 (optimum 4) through
    ``Wa>He (He:~) a3`` (no win within 3): that position is a dead end within 3 and the start
    within 3, but the start wins within 4, which gives a real line instead of a nogood. By
    default an ancestor is searched only once it is above ``LIFT_AFTER`` dead ends."""
    from taolong_lab.solvers.sat import SatSearch

    start = State(WIN_IN_4)
    s1 = start.play("Wa>He (He:~) a3")
    s2 = next(iter(s1.successors()))[1]
    path = [start, s1, s2]

    def walk(st):
        return st.board

    monkeypatch.setattr(SatSearch, "LIFT_AFTER", 1)  # search each ancestor at once
    search = SatSearch(start)
    try:
        assert search.lift(path, 1) == (2, None)  # s1 within 2, the start within 3
        assert search.nogoods == [(walk(s1), s1.bagua, 2), (walk(start), start.bagua, 3)]
        assert search.lifted == 2
        added, (i, suffix) = search.lift(path, 2)  # s1 within 3: dead; the start within 4: a win
        assert (added, i) == (1, 0) and search.nogoods[-1] == (walk(s1), s1.bagua, 3)
        assert_wins_in(start, suffix, 4)
        search.short_from = 2  # the first-turn count: the start is never searched
        assert search.lift([start, s1, s2], 2) == (0, None)  # s1's nogood is known already
        assert search.lifted == 3
    finally:
        search.close()

    monkeypatch.setattr(SatSearch, "LIFT_AFTER", 2)  # an ancestor above a second dead end
    search = SatSearch(start)
    try:
        assert search.lift(path, 1) == (0, None) and search.lift_timeouts == 0
        assert search.lift(path, 1) == (2, None) and search.lifted == 2
    finally:
        search.close()
    monkeypatch.setattr(SatSearch, "LIFT_BUDGET", 1)  # every search runs out
    monkeypatch.setattr(SatSearch, "LIFT_AFTER", 1)
    search = SatSearch(start)
    try:
        assert search.lift(path, 2) == (0, None)
        assert (search.lift_timeouts, search.lift_depth, search.nogoods) == (1, 2, [])
        assert search.lift(path, 2) == (0, None)  # depth 3 is above the cap: not searched
        assert search.lift_timeouts == 1
    finally:
        search.close()
    monkeypatch.setattr(SatSearch, "LIFT_BUDGET", 0)  # lifting off
    search = SatSearch(start)
    try:
        assert search.lift(path, 1) == (0, None) and search.lifted == 0
    finally:
        search.close()


@pytest.mark.parametrize("i", [16, 18, 20])
def test_lifted_dead_ends_change_the_speed_not_the_answer(i, monkeypatch):
    """Lifting dead ends to their ancestors (on by default) adds nogoods proved by real
    searches: the same optimum, UNSAT horizons and first-turn count as without it, and the
    certificate says how it was set."""
    from taolong_lab.solvers.sat import SatSearch

    state = challenge(i)
    runs = {}
    for budget in (SatSearch.LIFT_BUDGET, 0):
        monkeypatch.setattr(SatSearch, "LIFT_BUDGET", budget)
        s = runs[budget] = solve(state)
        assert s.status == "optimal"
        assert s.certificate.lift == (budget, SatSearch.LIFT_AFTER)
        assert_wins_in(state, s.line, s.optimum)
    on, off = runs.values()
    assert on.stats["lifted_dead_ends"] > 0 and off.stats["lifted_dead_ends"] == 0
    assert on.optimum == off.optimum
    assert on.certificate.unsat_horizons == off.certificate.unsat_horizons
    assert on.optimal_first_turns == off.optimal_first_turns


def bench_rows(script: str, *args: str) -> list[dict]:
    """The JSON rows of ``bench/<script> ARGS --json``, run from the project root (its exit
    code 0 asserted)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, str(root / "bench" / script), *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("paired", [False, True])
def test_bench_compare_runs(paired):
    """bench/compare.py on two small challenges: both solvers (one after the other, or at
    once with ``--paired``), equal optima, exit code 0."""
    ids = ["--ids", "field-b1w1-win2", "cave-b1w1-win3"]
    rows = bench_rows("compare.py", *ids, *["--paired"] * paired)
    assert all(r["ratio"] > 0 and r["sat_s"] > 0 and r["explicit_s"] > 0 for r in rows)
    assert all(r["explicit_expanded"] > 0 for r in rows)
    assert all(r["explicit_peak_mb"] > 0 and r["sat_peak_mb"] > 0 for r in rows)
    assert sorted((r["id"], r["sat"], r["explicit"]) for r in rows) == [
        ("cave-b1w1-win3", 3, 3),
        ("field-b1w1-win2", 2, 2),
    ]


def test_bench_compare_the_optimum_alone():
    """bench/compare.py --no-count: both solvers prove the optimum and count no first turns,
    so the optimum-alone times are the whole times."""
    (row,) = bench_rows("compare.py", "--ids", "cave-b1w1-win3", "--no-count")
    assert row["sat"] == row["explicit"] == 3
    assert row["sat_first_turns"] is None and row["explicit_first_turns"] is None
    assert (row["explicit_optimum_s"], row["sat_optimum_s"]) == (row["explicit_s"], row["sat_s"])


def test_bench_floor_runs():
    """bench/floor.py on a small challenge: equal optima, SAT's encoding and calls each within
    its whole, the best explicit run no slower than the cold one, and the floor SAT's calls
    over the explicit solver's cold answer."""
    args = ["--file", "bench/solo-set.jsonl", "--ids", "cave-b1w1-win3", "--optimum", "0"]
    (row,) = bench_rows("floor.py", *args, "--repeat", "2")
    assert (row["id"], row["explicit"], row["sat"]) == ("cave-b1w1-win3", 3, 3)
    assert 0 <= row["sat_calls_s"] <= row["sat_s"] and 0 < row["sat_encode_s"] <= row["sat_s"]
    assert 0 < row["explicit_best_s"] <= row["explicit_cold_s"] and row["raw_layers_s"] > 0
    assert row["floor"] == round(row["sat_calls_s"] / row["explicit_cold_s"], 2)


def test_bench_compare_under_the_other_lookahead():
    """bench/compare.py --lookahead next-turn solves a matter challenge under the next-turn
    reading: both solvers agree, the row says which reading, and the stored optimum (proved
    for the other reading) is not reported as this one's."""
    (row,) = bench_rows("compare.py", "--ids", "field-b1w1-win2", "--lookahead", "next-turn")
    assert (row["lookahead"], row["stored"]) == ("next-turn", None)
    assert row["sat"] == row["explicit"] and isinstance(row["sat"], int)
    assert row["dead_ends"] == 0


@pytest.mark.parametrize(
    "name, least, lookahead",
    [
        ("deep-set.jsonl", 8, "matter"),
        ("deep9-set.jsonl", 9, "matter"),
        ("deep-next-turn-set.jsonl", 8, "next-turn"),
    ],
)
def test_the_deep_sets_replay(name, least, lookahead):
    """bench/deep-set.jsonl, bench/deep9-set.jsonl and bench/deep-next-turn-set.jsonl
    (bench/deep.py): win-in-8+ challenges with provenance; every stored line replays in the
    engine to a win in exactly the stored optimum (load_puzzles checks), under the set's
    ``solo_lookahead``, and the provenance's call deals exactly the stored start."""
    import re
    from pathlib import Path

    from taolong_lab.puzzles import load_puzzles

    path = Path(__file__).resolve().parents[2] / "bench" / name
    puzzles = load_puzzles(path)
    assert puzzles and all(p.optimum >= least for p in puzzles)
    call = re.compile(
        r"solo_game\('(\w+)', player='(\w+)', bagua='(\w+)', seed=(\d+)"
        r"(?:, solo_lookahead='([\w-]+)')?\)"
    )
    for p in puzzles:
        assert p.provenance["generator"] == "bench/deep.py"
        assert p.start.rules.option("solo_lookahead") == lookahead, p.id
        scenario, player, deal, seed, look = call.fullmatch(p.provenance["how"]).groups()
        start = solo_game(
            scenario, player=player, bagua=deal, seed=int(seed), solo_lookahead=look or "matter"
        )
        assert start.to_tln() == p.start.to_tln(), p.id


def test_short_searches_out_of_budget_get_shallower(monkeypatch):
    """With no budget every short search runs out: one ``r`` turns deep lowers the depth to
    ``r - 1``, never below the floor, and the answer is still the real optimum (the searches
    only ever add sound nogoods or real lines)."""
    from taolong_lab.solvers.sat import SatSearch

    start = State(WIN_IN_4)
    for depths, want in (((4, 3, 2, 2), (3, 2, 2, 2)), ((3,), (2,))):
        search = SatSearch(start)
        try:
            search.short_budget = 0
            assert search.search_depth == SatSearch.SEARCH_DEPTH == 4
            for timeouts, (r, depth) in enumerate(zip(depths, want, strict=True), 1):
                search.short_win(start, r)
                assert (search.search_depth, search.short_timeouts) == (depth, timeouts)
        finally:
            search.close()
    monkeypatch.setattr(SatSearch, "SHORT_BUDGET", 0)
    s = solve(start)
    assert (s.status, s.optimum) == ("optimal", 4)
    assert s.stats["short_search_depth"] == SatSearch.SEARCH_FLOOR


@pytest.mark.parametrize(
    "scenario, seed, segments",
    [("field", 1, 3), ("valley", 2, 3), ("wall", 3, 3), ("gorge", 4, 3), ("field", 5, 1)],
)
def test_the_damage_budget_is_the_most_damage_of_the_sowings(scenario, seed, segments):
    """``Encoder.damage_budget``: for every sequence of three sowings from the start, the
    budget the circuit computes for turns 1..3 is the sum of ``turn_damage_bound`` along it
    (Fire with the player's meter at the capacity; the water-cost portals of The Valley; The
    Wall's breakable rocks added once), capped at the most life a dragon can have (not the
    opponent's life at the start: it can rise); under the goal, a sequence that cannot deal
    the opponent's life is UNSAT (the bound is the explicit
    solver's ``may_win_within``, whose proof is in ``bounds.lower_bound``)."""
    from pysat.solvers import Solver

    from taolong_lab.solvers.bounds import sow_table

    k = 3
    start = solo_game(scenario, bagua="random", seed=seed, segments={"black": segments})
    assert start.to_move == "white"
    enc = sat_encode.Encoder(start, forbid_loss=False)
    for _ in range(k):
        enc.add_layer()
    goal = enc.g.var()
    budgets = enc.damage_budget(k, goal)
    assert len(budgets) == k + 1
    life = start.life("black")
    portals = scenario == "valley"
    rocks = sum(start.rocks.values())
    assert (rocks > 0) == (scenario == "wall")
    ring, cap = start.tables.ring, start.tables.cap
    most = 3 * cap
    seen = []
    with Solver(name="g4", bootstrap_with=enc.g.take()) as sat:

        def walk(bagua, total, spaces):
            if len(spaces) == k:
                assumptions = [enc.layers[t + 1].space[s] for t, s in enumerate(spaces)]
                want = min(most, total + rocks)
                if want < life:
                    assert not sat.solve(assumptions=[*assumptions, goal])
                # some sequences are not lines of the game (A10: a sowing with no possible
                # Matter is refused while another has one)
                if sat.solve(assumptions=[*assumptions, -goal]):
                    model = set(sat.get_model())
                    got = [v for v, x in budgets[0].items() if x is True or x in model]
                    assert got == [want], (spaces, got, want)
                    seen.append(want)
                return
            for space, (new, group, element) in sow_table(bagua, "B").items():
                hit = bounds.turn_damage_bound(ring[element], cap, len(group), portals)[0]
                walk(new, total + hit, [*spaces, space])

        walk(start.bagua, 0, [])
    assert len(seen) >= 20
    if rocks >= most:  # The Wall: its rocks alone could take any life
        assert set(seen) == {most}
    else:  # the lines deal different amounts
        assert len(set(seen)) > 1


def test_the_damage_budget_is_in_the_certificate():
    """The damage budget's clauses are added at each horizon, and the certificate says so;
    the answer is the explicit solver's."""
    s = solve(challenge(20), count_first_turns=False)
    assert s.certificate.damage_budget is True
    assert s.optimum == explicit.solve(challenge(20)).optimum == 4


@pytest.mark.parametrize("i", [20, 24, 47])
def test_elimination_keeps_the_answer(i):
    """The solver hands each layer over with its own gates eliminated
    (``solver.eliminate``): the explicit solver's optimum and first-turn count, and the
    certificate says elimination was used."""
    state = challenge(i)
    s = solve(state)
    by_explicit = explicit.solve(state)
    assert s.status == "optimal" and s.certificate.eliminate is True
    assert_wins_in(state, s.line, s.optimum)
    assert s.stats["eliminated_variables"] > 0
    assert s.optimum == by_explicit.optimum
    assert s.optimal_first_turns == by_explicit.optimal_first_turns


def test_eliminated_gates_are_never_read_again():
    """After each layer's elimination no variable that went is still handed out: not by the
    structural-hashing cache, not by a layer's Ba Gua equalities, not among what later
    clauses and the decoding read (``Layer.read_later``); and something did go."""
    state = challenge(47)
    search = sat_solver.SatSearch(state)
    search.seed(state)
    g, layers = search.g, search.enc.layers
    total = 0
    for _ in range(4):
        n0v = g.pool.top
        search.enc.add_layer()
        for t in range(1, len(layers)):  # refinements read the new layer too
            for ref in search.refinements:
                search._apply(ref, t)
        clauses = g.take()
        out, gone_count = sat_solver.eliminate(g, layers, clauses, n0v)
        before = {abs(x) for c in clauses for x in c}
        after = {abs(x) for c in out for x in c}
        gone = before - after
        assert len(gone) == gone_count
        assert all(v > n0v for v in gone)  # older variables are frozen
        assert not gone & set(g.cache.values())
        assert not gone & {abs(v) for L in layers for v in L._eq.values()}
        assert not gone & layers[-1].read_later()
        search.sat.append_formula(out)
        total += gone_count
    assert total > 1000
    assert search.call(layers[-1].won, 10**6, None) in (True, False)


@pytest.mark.parametrize("name", ["g4", "cd195", "mgh"])
def test_clauses_reach_every_back_end(name):
    """``SatSearch.append`` hands clauses to Glucose 4 directly and to the other back-ends
    through PySAT; either way the solver sees them."""
    from pysat.solvers import Solver

    sat = Solver(name=name)
    add = sat_search._clause_adder(sat)
    assert (name == "g4") == (add != sat.add_clause)
    for clause in ([1, 2], [-1, 2], [1, -2]):
        add(clause)
    assert sat.solve() is True and sat.get_model()[:2] == [1, 2]
    add([-1, -2])
    assert sat.solve() is False
    sat.delete()


def test_no_short_searches_under_the_next_turn_lookahead(monkeypatch):
    """``SatSearch.SEARCHES``: under ``solo_lookahead="next-turn"`` the policy's lookahead makes
    every expansion 20-100x dearer, so the CEGAR loop runs no short real searches and no
    lifts, and finds the same optimum by refinements alone, and SAT alone counts the first
    turns. Challenge 47 (next-turn) meets a dead end when the searches are on."""
    from taolong_lab.solvers.sat import SatSearch

    state = challenge(47)
    assert state.rules.option("solo_lookahead") == "next-turn"
    search = SatSearch(state)
    try:
        assert (search.search_depth, search.lift_budget) == (0, 0)
    finally:
        search.close()
    off = solve(state)
    assert off.certificate.dead_ends == 0 and off.stats["short_search_depth"] == 0
    assert off.certificate.lift.budget == 0
    # the first-turn count is SAT's alone (COUNT_EXPLICIT_SHARE_NEXT_TURN = 0)
    assert off.stats["first_turns_by_explicit"] == 0 and off.stats["first_turns_calls"] >= 1
    monkeypatch.setitem(SatSearch.SEARCHES, "next-turn", True)
    on = solve(state)
    assert on.certificate.dead_ends > 0
    assert on.certificate.lift.budget == SatSearch.LIFT_BUDGET
    assert on.optimum == off.optimum == explicit.solve(state).optimum
    assert on.optimal_first_turns == off.optimal_first_turns
    assert_wins_in(state, off.line, off.optimum)


def test_short_searches_run_under_the_matter_lookahead():
    from taolong_lab.solvers.sat import SatSearch

    state = challenge(20)
    assert state.rules.option("solo_lookahead") == "matter"
    search = SatSearch(state)
    try:
        assert search.search_depth == SatSearch.SEARCH_DEPTH > 0
        assert search.lift_budget == SatSearch.LIFT_BUDGET > 0
    finally:
        search.close()
    s = solve(state)
    assert s.stats["first_turns_by_explicit"] > 0  # COUNT_EXPLICIT_SHARE > 0
