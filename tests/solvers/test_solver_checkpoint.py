"""Crash safety of the explicit solver: "a crash or interrupt loses nothing already proved".

A search stopped by a budget, Ctrl-C or an exception leaves an atomic checkpoint; solving
again with it resumes the search exactly where it stopped (same expansions in total, same
optimum), and a finished checkpoint returns the saved result."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from checkpoint_files import own_key, read  # noqa: F401 (own_key: an autouse fixture)

from taolong_lab import State, solo_game
from taolong_lab.solvers.common import (
    Checkpoint,
    Solution,
    peak_memory_mb,
    reset_peak_memory,
)
from taolong_lab.solvers.explicit import SolverError, solve

# Black with 1 segment and 2 water at the rulebook's start: an optimum of 4 found after a few
# dozen expansions (test_solver_explicit checks the optimum of the 1-water version by hand).
START = solo_game(segments={"black": 1}, water={"black": 2})


@pytest.fixture(scope="module")
def one_shot() -> Solution:
    return solve(START)


def test_resumed_search_does_the_same_work_once(one_shot, tmp_path):
    assert one_shot.status == "optimal" and one_shot.stats["expanded"] > 60
    path = tmp_path / "search.ckpt"
    runs = []
    while True:
        s = solve(START, max_states=10, checkpoint=path)
        runs.append(s)
        if s.status != "unknown":
            break
        assert s.certificate.stopped.startswith("max_states")
    assert len(runs) > 2
    bounds = [r.proved_no_win_below for r in runs]
    assert bounds == sorted(bounds), "a resumed run never proves less"
    final = runs[-1]
    assert (final.optimum, final.line) == (one_shot.optimum, one_shot.line)
    assert final.stats["search_expanded"] == one_shot.stats["search_expanded"]
    assert final.certificate.no_win_within == one_shot.certificate.no_win_within
    assert final.stats["earlier_runs_seconds"] > 0


def test_a_finished_checkpoint_returns_the_saved_result(one_shot, tmp_path, monkeypatch):
    path = tmp_path / "done.ckpt"
    first = solve(START, checkpoint=path)
    assert first.to_json() == Solution.from_json(first.to_json()).to_json()

    def no_search(self):
        raise AssertionError("the saved result must be returned without a search")

    monkeypatch.setattr(State, "iter_successors", no_search)
    again = solve(START, checkpoint=path)
    assert again == first and again.stats == first.stats


def test_a_crash_keeps_the_proved_bound_and_resumes(one_shot, tmp_path, monkeypatch):
    path = tmp_path / "crash.ckpt"
    real = State.iter_successors
    calls = {"n": 0}

    def crashing(self):
        calls["n"] += 1
        if calls["n"] > 20:
            raise MemoryError("simulated")
        return real(self)

    monkeypatch.setattr(State, "iter_successors", crashing)
    with pytest.raises(MemoryError):
        solve(START, checkpoint=path)
    _, saved = read(path)
    assert saved["proved"] >= 2 and saved["expanded"] == 20 and "result" not in saved
    monkeypatch.setattr(State, "iter_successors", real)
    resumed = solve(START, checkpoint=path)
    assert (resumed.optimum, resumed.line) == (one_shot.optimum, one_shot.line)
    assert resumed.stats["search_expanded"] == one_shot.stats["search_expanded"]
    assert resumed.stats["expanded"] == one_shot.stats["expanded"]  # counted in one run


def test_ctrl_c_saves_and_returns_unknown(tmp_path, monkeypatch):
    path = tmp_path / "int.ckpt"
    real = State.iter_successors
    calls = {"n": 0}

    def interrupting(self):
        calls["n"] += 1
        if calls["n"] > 15:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(State, "iter_successors", interrupting)
    s = solve(START, checkpoint=path)
    assert s.status == "unknown" and s.certificate.stopped == "interrupted"
    _, saved = read(path)
    assert saved["proved"] == s.proved_no_win_below >= 2
    assert saved["expanded"] == s.stats["expanded"] == 15


def test_the_bound_is_saved_as_soon_as_it_rises(tmp_path, monkeypatch):
    """Even a kill -9 (no chance to save at the end) loses no proved bound."""
    path = tmp_path / "bound.ckpt"
    seen = []
    real_save = Checkpoint.save

    def recording(self, snapshot):
        seen.append(snapshot["proved"])
        real_save(self, snapshot)

    monkeypatch.setattr(Checkpoint, "save", recording)
    s = solve(START, checkpoint=path, checkpoint_every=3600)
    assert s.optimum == 4
    assert seen[:-1] == sorted(set(seen[:-1])) and set(range(2, 5)) <= set(seen)


def test_a_checkpoint_of_another_position_is_refused(tmp_path):
    path = tmp_path / "other.ckpt"
    solve(START, max_states=3, checkpoint=path)
    other = solo_game(segments={"black": 1}, water={"black": 1})
    with pytest.raises(SolverError, match=r"other\.ckpt: start: saved for '.*'"):
        solve(other, checkpoint=path)


def test_a_foreign_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes")
    with pytest.raises(SolverError, match="format: not a taolong checkpoint"):
        solve(START, checkpoint=path)
    assert path.read_text() == "my notes"


def test_peak_memory_is_per_solve_on_linux():
    if not reset_peak_memory():
        pytest.skip("/proc/self/clear_refs is not writable here")
    ballast = bytearray(400 * 1024 * 1024)
    ballast[::4096] = b"x" * len(ballast[::4096])  # touch every page
    assert peak_memory_mb() >= 400
    del ballast  # a big block goes back to the system at once
    rss = int(re.search(r"VmRSS:\s+(\d+)", Path("/proc/self/status").read_text()).group(1))
    s = solve(solo_game(segments={"black": 1}, water={"black": 1}))
    # the solve's peak: what the process holds now plus the small search, not the ballast
    assert s.stats["peak_memory_mb"] < rss / 1024 + 200


def test_periodic_saves_back_off_when_saving_is_slow(tmp_path, monkeypatch):
    store = Checkpoint(tmp_path / "c.ckpt", solver="s", start=START, every=0.0)
    clock = iter([0.0, 100.0, 105.0, 200.0, 2000.0]).__next__
    monkeypatch.setattr("taolong_lab.solvers.common.time.perf_counter", clock)
    store.last = 0.0
    store.save({})  # began 0.0, finished 100.0: a 100 s save
    assert store.duration == 100.0
    assert not store.due()  # 105 - 100 < 10 * 100
    assert not store.due()  # 200 - 100 < 1000
    assert store.due()  # 2000 - 100 >= 1000


@pytest.mark.parametrize("solver", ["explicit", "sat", "explore"])
def test_the_collector_is_paused_during_a_search_and_restored_after(solver, monkeypatch):
    """``paused_gc``: the cyclic collector is off while the solvers and the graph explorer
    run (their objects are acyclic; its full passes cost a third of the time), and comes
    back as it was, after an error too."""
    import gc

    from taolong_lab.solvers import graph
    from taolong_lab.solvers.sat import solve as sat_solve

    run = {
        "explicit": lambda: solve(START),
        "sat": lambda: sat_solve(START),
        "explore": lambda: graph.explore(START, depth=1),
    }[solver]
    seen = []
    outcome = State.outcome

    def watched(self):
        seen.append(gc.isenabled())
        return outcome(self)

    monkeypatch.setattr(State, "outcome", watched)
    assert gc.isenabled()
    run()
    assert seen and not any(seen)
    assert gc.isenabled()
    monkeypatch.setattr(State, "outcome", lambda self: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        run()
    assert gc.isenabled()
    gc.disable()
    try:
        with pytest.raises(ZeroDivisionError):
            run()
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()
