"""The library in a web page (Pyodide, ``sys.platform == "emscripten"``), played on CPython by
setting ``IN_BROWSER``: ``race`` falls back to the explicit solver and ``workers`` to one
process, each saying so; checkpoints are refused; peak memory may be unknown, said so; and
progress comes through a callback instead of tqdm's thread. Nothing changes on CPython."""

from __future__ import annotations

import os

import pytest

from taolong_lab import load_puzzles, solve
from taolong_lab import runner as runner_module
from taolong_lab.processes import IN_BROWSER, SingleProcessWarning
from taolong_lab.solvers import SolverError, race
from taolong_lab.solvers import common as solver_common

PUZZLE = load_puzzles("bench/solo-set.jsonl")[0]


def test_cpython_is_not_a_browser():
    assert IN_BROWSER is False
    assert solver_common.resource is not None  # peak memory is measured here


def _pid(_job):
    return os.getpid()


def test_race_runs_the_explicit_solver_alone_in_a_page_and_says_so(monkeypatch):
    monkeypatch.setattr(race, "IN_BROWSER", True)
    with pytest.warns(SingleProcessWarning, match="method='race': the explicit solver runs alone"):
        found = solve(PUZZLE, method="race")
    assert found.optimum == PUZZLE.optimum
    assert found.certificate.solver == "taolong_lab.solvers.explicit"
    assert found.stats["race"]["winner"] == "explicit"
    assert found.stats["race"]["sat"] == "not run (no processes here)"


def test_workers_fall_back_to_this_process_in_a_page_and_say_so(monkeypatch):
    monkeypatch.setattr(runner_module, "IN_BROWSER", True)
    with pytest.warns(SingleProcessWarning, match="workers=2: the jobs run one after the other"):
        pids = [pid for _job, pid in runner_module.ordered_map(_pid, range(3), workers=2)]
    assert pids == [os.getpid()] * 3


def test_workers_use_processes_on_cpython():
    pids = [pid for _job, pid in runner_module.ordered_map(_pid, range(2), workers=2)]
    assert os.getpid() not in pids


def test_a_checkpoint_is_refused_in_a_page(monkeypatch, tmp_path):
    monkeypatch.setattr(solver_common, "IN_BROWSER", True)
    with pytest.raises(SolverError, match="checkpoints cannot be kept in a web page"):
        solve(PUZZLE, checkpoint=tmp_path / "c.ckpt")
    assert not (tmp_path / "c.ckpt").exists()


def test_peak_memory_unknown_is_said(monkeypatch, capsys):
    monkeypatch.setattr(solver_common, "resource", None)
    monkeypatch.setattr(solver_common, "_STATUS", solver_common.Path("/nonexistent/status"))
    assert solver_common.peak_memory_mb() is None
    from taolong_lab.cli import main

    assert main(["solve", "bench/solo-set.jsonl:" + PUZZLE.id, "--no-progress"]) == 0
    assert "peak memory unknown here" in capsys.readouterr().out


def test_progress_comes_through_a_callback():
    seen = []
    found = solve(PUZZLE.start, progress=seen.append)
    plain = solve(PUZZLE.start)
    assert (found.optimum, found.line.notation()) == (plain.optimum, plain.line.notation())
    assert seen and all(set(report) >= {"stage", "done", "total"} for report in seen)
    stages = [r["stage"] for r in seen]
    assert stages[0] == "positions"  # the search, then the count of the optimal first turns
    assert stages[-1] == "optimal first turns"
    assert stages == sorted(stages, key=["positions", "optimal first turns"].index)
    assert seen[-1]["done"] == seen[-1]["total"]  # every first turn counted


def test_no_tqdm_bar_in_a_page(monkeypatch):
    assert solver_common.progress_bar(False) is None
    monkeypatch.setattr(solver_common, "IN_BROWSER", True)
    assert solver_common.progress_bar(True, desc="positions") is None
    bar = solver_common.progress_bar(print, desc="positions")
    assert isinstance(bar, solver_common.ProgressCallback) and bar.stage == "positions"
