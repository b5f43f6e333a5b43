"""The explicit shortest-win solver: hand-made challenges with known optima, budgets, the
certificate, the replay, and the lower bound against retrograde analysis."""

from __future__ import annotations

import pytest
from small_wins import WIN_IN_1, WIN_IN_2, WIN_IN_2_LINE

from taolong_lab import State, new_game, solo_game, solvers
from taolong_lab.errors import Arg
from taolong_lab.graph import explore, retrograde
from taolong_lab.solvers import Solution
from taolong_lab.solvers.bounds import bound_params, lower_bound
from taolong_lab.solvers.explicit import SolverError, replay, replay_text, solve

# Black has 1 segment and 2 water at e8. The optimum 3 is by retrograde analysis: the graph
# explored to depth 3 has turns-to-win 3 at the start, exact because every position within 2
# turns was expanded (checked in the test).
WIN_IN_3 = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
    "a3-a2-a1-b1:4:0 e8-f8:2:0 WW/-/BW/-/-/B/WBB/- 2:8 w 2"
)


def _check_replay(start: State, solution) -> None:
    """The line is legal and wins in exactly the reported number of turns."""
    states = replay(solution, start)
    assert len(states) == solution.optimum + 1
    for s in states[:-1]:
        assert s.outcome() is None
    assert states[-1].outcome().winner == start.player


def test_win_in_1_by_hand():
    start = State(WIN_IN_1)
    s = solve(start)
    assert (s.status, s.optimum, s.proved_no_win_below) == ("optimal", 1, 1)
    assert s.line.notation() == ["Ea>Mo ="]
    assert s.optimal_first_turns == sum(
        1 for _, a in start.successors() if a.outcome() and a.outcome().winner == "white"
    )
    _check_replay(start, s)


def test_win_in_2_by_hand():
    start = State(WIN_IN_2)
    assert not any(a.is_over() for _, a in start.successors())  # no win in 1
    after = start.play(WIN_IN_2_LINE[0]).play(WIN_IN_2_LINE[1])
    assert after.outcome().winner == "white"  # a win in 2
    s = solve(start)
    assert (s.status, s.optimum) == ("optimal", 2)
    _check_replay(start, s)
    # every optimal first turn leads to a position with a win in 1
    firsts = [
        t
        for t, a in start.successors()
        if any(b.outcome() and b.outcome().winner == "white" for _, b in a.successors())
    ]
    assert s.optimal_first_turns == len(firsts)


def test_win_in_3_by_retrograde():
    start = State(WIN_IN_3)
    g = explore(start, depth=3)
    r = retrograde(g)
    assert r.turns_to_win[0] == 3 and r.exact[0]
    s = solve(start)
    assert (s.status, s.optimum) == ("optimal", 3)
    assert s.optimal_first_turns == len(r.optimal_turns[0])
    assert str(s.line[0]) in r.optimal_turns[0]
    _check_replay(start, s)


def test_the_certificate():
    s = solve(State(WIN_IN_3))
    cert = s.certificate.to_json()
    assert cert["solver"] and cert["method"] and cert["lookahead"] == "matter"
    assert cert["optimum"] == 3 and cert["proved_no_win_below"] == 3
    assert [c["turns"] for c in cert["no_win_within"]] == [0, 1, 2]
    counts = [c["positions"] for c in cert["no_win_within"]]
    assert counts == sorted(counts) and counts[-1] >= 1
    assert cert["lower_bound"]["name"] == "opponent-life/v1"
    stats = s.stats
    assert stats["expanded"] >= 1 and stats["seconds"] >= 0 and stats["peak_memory_mb"] > 0


def test_rulebook_start_win_in_4_weakened_opponent():
    """The standard solo start with black weakened to 1 segment and 1 water: optimum 4 by the
    solver; the line is replayed, and the bound is consistent."""
    start = solo_game(segments={"black": 1}, water={"black": 1})
    s = solve(start)
    assert (s.status, s.optimum) == ("optimal", 4)
    _check_replay(start, s)
    # the position after the first turn of an optimal line has optimum 3
    assert solve(start.play(s.line[0])).optimum == 3


def test_unknown_within_max_states():
    start = solo_game()
    s = solve(start, max_states=5)
    assert s.status == "unknown" and s.optimum is None and len(s.line) == 0
    assert s.proved_no_win_below >= lower_bound(start) == 2
    assert s.stats["expanded"] <= 5
    assert "max_states" in s.certificate.stopped
    zero = solve(start, max_states=0)
    assert zero.status == "unknown" and zero.proved_no_win_below == 2


@pytest.mark.parametrize("pure", ["1", "0"], ids=["pure", "kernel"])
def test_unknown_within_time_limit(pure, monkeypatch):
    """A spent time limit stops the search before its first expansion, on either path."""
    monkeypatch.setenv("TAOLONG_PURE", pure)
    s = solve(solo_game(), time_limit=0)
    assert s.status == "unknown" and s.proved_no_win_below == 2
    assert s.certificate.stopped == "time_limit=0 reached"
    assert s.stop == (Arg("time_limit", 0), " reached")
    assert s.stop_reason(lambda arg: arg.name.upper()) == "TIME_LIMIT reached"
    assert s.stats["expanded"] == 0
    assert Solution.from_json(s.to_json()).stop == s.stop  # the race's pipe keeps it


def test_sat_names_the_spent_time_limit_as_the_explicit_solver_does():
    s = solvers.solve(solo_game(), method="sat", time_limit=0)
    assert s.status == "unknown"
    assert s.stop == (Arg("time_limit", 0), " reached")
    assert s.certificate.stopped == "time_limit=0 reached"
    assert Solution.from_json(s.to_json()).stop == s.stop


def test_keyboard_interrupt_returns_what_is_proved(monkeypatch):
    monkeypatch.setenv("TAOLONG_PURE", "1")
    calls = {"n": 0}
    real = State.iter_successors

    def interrupting(self):
        calls["n"] += 1
        if calls["n"] > 20:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(State, "iter_successors", interrupting)
    s = solve(solo_game())
    assert s.status == "unknown" and s.certificate.stopped == "interrupted"
    assert s.proved_no_win_below >= 2


def test_keyboard_interrupt_in_the_kernel_returns_what_is_proved(monkeypatch):
    """Ctrl-C between two slices of the kernel's search: what was proved is kept."""
    from taolong_lab.solvers import kernel

    if not kernel.available():
        pytest.skip(kernel.status())
    calls = {"n": 0}
    real = kernel.KernelSearch._sync

    def interrupting(self, budget):
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt
        return real(self, budget)

    monkeypatch.setattr(kernel.KernelSearch, "SLICE", 16)
    monkeypatch.setattr(kernel.KernelSearch, "_sync", interrupting)
    s = solve(solo_game())
    assert s.status == "unknown" and s.certificate.stopped == "interrupted"
    assert s.proved_no_win_below >= 2 and calls["n"] == 4


def test_two_player_positions_are_refused():
    with pytest.raises(SolverError, match="solo"):
        solve(new_game())
    with pytest.raises(TypeError, match="method"):  # one method here: solvers.solve picks
        solve(State(WIN_IN_1), method="explicit")
    with pytest.raises(SolverError, match="unknown method 'bogus'"):
        solvers.solve(State(WIN_IN_1), method="bogus")


def test_replay_text_shows_the_opponent_and_the_boards():
    start = State(WIN_IN_2)
    s = solve(start)
    text = replay_text(s)
    assert "turn 1:" in text and "turn 2:" in text and "white wins" in text
    assert "the black dragon acts" in text and text.count("Ba Gua") == 3


def test_progress_bar_runs(capsys):
    s = solve(State(WIN_IN_2), progress=True)
    assert s.optimum == 2


@pytest.mark.parametrize("tln", [WIN_IN_1, WIN_IN_2, WIN_IN_3])
def test_lower_bound_never_exceeds_retrograde(tln):
    start = State(tln)
    g = explore(start, depth=3)
    r = retrograde(g)
    params = bound_params(start)
    checked = 0
    for i, ttw in enumerate(r.turns_to_win):
        if ttw is not None and r.exact[i]:
            assert lower_bound(State(g.tln[i]), params) <= ttw
            checked += 1
    assert checked > 1


def test_lower_bound_against_solved_positions_along_a_line():
    start = solo_game(segments={"black": 1}, water={"black": 2})
    s = solve(start)
    for k, state in enumerate(replay(s, start)):
        assert lower_bound(state) <= s.optimum - k


def test_one_builder_makes_every_solution_from_its_certificate():
    """Both solvers' Solutions come from common.build_solution: the optimum and the proved
    bound are the certificate's, and a line that is not the certificate's optimum is refused."""
    from dataclasses import replace

    from taolong_lab.solvers.common import build_solution
    from taolong_lab.solvers.sat import solve as sat_solve

    start = State(WIN_IN_2)
    for solution in (solve(start), sat_solve(start)):
        cert = solution.certificate
        assert (solution.optimum, solution.proved_no_win_below) == (2, 2)
        assert (cert.optimum, cert.proved_no_win_below) == (2, 2)
        line = solution.line.notation()
        again = build_solution(start, "optimal", line, cert, solution.stats, 1)
        assert (again.optimum, again.line.notation(), again.optimal_first_turns) == (2, line, 1)
        with pytest.raises(SolverError, match="optimal answer with a line of 1 turns"):
            build_solution(start, "optimal", line[:1], cert, {})
        with pytest.raises(SolverError, match="unknown answer with a line of 2 turns"):
            build_solution(start, "unknown", line, replace(cert, optimum=None), {})


@pytest.mark.parametrize(
    "stop",
    [
        "not a list",
        ["x"] * 9,
        ["x" * 201],
        [{"name": "not an identifier", "value": 1}],
        [{"name": "max_states", "value": [1]}],
        [{"name": "max_states", "value": 1, "more": 2}],
    ],
)
def test_a_stop_reason_read_back_is_bounded(stop):
    doc = solve(solo_game(), time_limit=0).to_json()
    with pytest.raises(SolverError, match=r"^stop: "):
        Solution.from_json({**doc, "stop": stop})


def test_the_library_draws_no_progress_unless_asked(capsys):
    """Every solver entry point is silent by default: only the caller (the CLI, a notebook)
    asks for a bar."""
    for method in ("explicit", "sat", "auto"):
        solvers.solve(State(WIN_IN_2), method=method)
    assert capsys.readouterr().err == ""
