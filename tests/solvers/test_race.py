"""solve(method="race"): both solvers at once, the first exact answer wins, the other stops."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from taolong_lab import load_puzzles
from taolong_lab.solvers import SolverError, solve
from taolong_lab.solvers import race as race_module

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="the fakes below reach the racers through fork",
)


@pytest.fixture(scope="module")
def challenges():
    return {p.id: p for p in load_puzzles("bench/solo-set.jsonl")}


def no_racer_left() -> bool:
    return not multiprocessing.active_children()


def fake(outcomes: dict):
    """A racer that answers from ``outcomes[method]``: a Solution, an exception, a number of
    seconds to sleep first ((seconds, Solution)), or "die"."""

    def run(method, puzzle, time_limit, results, parent):
        what = outcomes[method]
        if what == "die":
            os._exit(3)
        if isinstance(what, Exception):
            results.put((method, "error", f"{type(what).__name__}: {what}"))
            return
        if isinstance(what, tuple):
            time.sleep(what[0])
            what = what[1]
        results.put((method, "done", what.to_json()))

    return run


def answer(challenges, method, **changes):
    """A real Solution of a small challenge by ``method``, with fields changed."""
    from dataclasses import replace

    s = solve(challenges["field-b1w1-win2"], method=method)
    if changes.get("line") == ():
        changes["line"] = s.line[:0]  # no turns, from the same start
    return replace(s, **changes)


@pytest.mark.parametrize("ident", ["field-b1w1-win3", "cave-b1w2-win4"])
def test_the_race_gives_the_stored_optimum(challenges, ident):
    puzzle = challenges[ident]
    s = solve(puzzle, method="race")
    assert s.status == "optimal" and s.optimum == puzzle.optimum
    alone = solve(puzzle, method="explicit")
    assert s.optimal_first_turns == alone.optimal_first_turns
    assert s.stats["race"]["winner"] in ("explicit", "sat")
    assert s.certificate.solver.endswith(s.stats["race"]["winner"])
    assert no_racer_left()


def test_the_first_exact_answer_wins_and_the_other_is_stopped(challenges, monkeypatch):
    quick = answer(challenges, "explicit")
    slow = answer(challenges, "sat")
    monkeypatch.setattr(race_module, "_run", fake({"explicit": quick, "sat": (600, slow)}))
    s = solve(challenges["field-b1w1-win2"], method="race")
    assert s.stats["race"]["winner"] == "explicit" and s.stats["race"]["sat"] == "stopped"
    assert s.line == quick.line and s.certificate == quick.certificate
    assert no_racer_left()


def test_an_unknown_answer_waits_for_the_other(challenges, monkeypatch):
    unknown = answer(challenges, "explicit", status="unknown", optimum=None, line=())
    exact = answer(challenges, "sat")
    monkeypatch.setattr(race_module, "_run", fake({"explicit": unknown, "sat": (0.5, exact)}))
    s = solve(challenges["field-b1w1-win2"], method="race")
    assert s.status == "optimal" and s.stats["race"] == {
        "winner": "sat",
        "seconds": s.stats["race"]["seconds"],
        "stopping": s.stats["race"]["stopping"],
        "explicit": "unknown",
    }


def test_two_unknown_answers_give_the_higher_bound(challenges, monkeypatch):
    low = answer(challenges, "explicit", status="unknown", optimum=None, proved_no_win_below=3)
    high = answer(challenges, "sat", status="unknown", optimum=None, proved_no_win_below=5)
    monkeypatch.setattr(race_module, "_run", fake({"explicit": low, "sat": high}))
    s = solve(challenges["field-b1w1-win2"], method="race")
    assert s.status == "unknown" and s.proved_no_win_below == 5
    assert s.stats["race"]["winner"] == "sat" and s.stats["race"]["explicit"] == "unknown"


def test_a_racer_that_fails_leaves_the_other_to_answer(challenges, monkeypatch):
    exact = answer(challenges, "explicit")
    monkeypatch.setattr(
        race_module, "_run", fake({"explicit": (0.5, exact), "sat": ValueError("bad clause")})
    )
    s = solve(challenges["field-b1w1-win2"], method="race")
    assert s.status == "optimal" and s.stats["race"]["sat"] == "ValueError: bad clause"
    monkeypatch.setattr(race_module, "_run", fake({"explicit": (0.5, exact), "sat": "die"}))
    s = solve(challenges["field-b1w1-win2"], method="race")
    assert s.status == "optimal" and "exit code 3" in s.stats["race"]["sat"]
    assert no_racer_left()


def test_two_failures_raise_naming_both(challenges, monkeypatch):
    outcomes = {"explicit": KeyError("x"), "sat": "die"}
    monkeypatch.setattr(race_module, "_run", fake(outcomes))
    with pytest.raises(SolverError, match=r"explicit: KeyError.*sat: the sat worker died"):
        solve(challenges["field-b1w1-win2"], method="race")
    assert no_racer_left()


def test_an_option_of_one_solver_is_refused(challenges):
    with pytest.raises(SolverError, match=r"race.*max_states"):
        solve(challenges["field-b1w1-win2"], method="race", max_states=10)


def test_monk_and_master_race_both_solvers():
    for mode in ("monk", "master"):
        puzzle = next(
            p for p in load_puzzles("puzzles/cave-novice.jsonl") if p.start.rules.mode == mode
        )
        s = solve(puzzle, method="race")
        assert s.status == "optimal" and s.optimum == puzzle.optimum
        assert s.stats["race"]["winner"] in ("explicit", "sat")
        assert no_racer_left()


def test_a_two_player_position_is_refused_before_the_race():
    from taolong_lab import new_game

    with pytest.raises(SolverError, match=r"^the explicit solver is for solo challenges"):
        solve(new_game(), method="race")
    assert no_racer_left()


def test_bench_race_runs():
    """bench/race.py on two small challenges: the stored optima, a winner each."""
    import json
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "bench" / "race.py"
    done = subprocess.run(
        [sys.executable, str(script), "--ids", "field-b1w1-win2", "cave-b1w1-win3", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["id"], r["result"]) for r in rows] == [("field-b1w1-win2", 2), ("cave-b1w1-win3", 3)]
    assert all(r["winner"] in ("explicit", "sat") and r["race_s"] > 0 for r in rows)


def running(pid: int) -> bool:
    """The process exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc (Linux)")
def test_the_racers_stop_when_the_race_is_killed():
    """A race killed outright (no clean-up in it) leaves no racer running for long."""
    import signal
    import subprocess
    import sys

    code = (
        "from taolong_lab import load_puzzles, solve\n"
        "p = {q.id: q for q in load_puzzles('bench/deep-set.jsonl')}['gorge-w-s3']\n"
        "solve(p, method='race', time_limit=120)\n"
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=root)
    children_file = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    racers: list[int] = []
    for _ in range(300):
        racers = [int(x) for x in children_file.read_text().split()]
        if len(racers) == 2:
            break
        time.sleep(0.1)
    assert len(racers) == 2, racers
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(running(r) for r in racers):
        time.sleep(0.2)
    left = [r for r in racers if running(r)]
    for r in left:
        os.kill(r, signal.SIGKILL)
    assert not left


def test_a_loser_that_ignores_sigterm_is_killed(challenges, monkeypatch):
    """The loser is never waited for: one that ignores SIGTERM is killed after the grace."""
    import signal

    quick = answer(challenges, "explicit")
    killed = []

    def run(method, puzzle, time_limit, results, parent):
        if method == "explicit":
            results.put((method, "done", quick.to_json()))
            return
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            time.sleep(1)

    real = race_module._stop

    def stop(workers):
        workers = list(workers)
        real(workers)
        killed.extend(w.exitcode for w in workers)

    monkeypatch.setattr(race_module, "_run", run)
    monkeypatch.setattr(race_module, "_stop", stop)
    s = solve(challenges["field-b1w1-win2"], method="race")
    assert s.stats["race"]["winner"] == "explicit"
    assert -signal.SIGKILL in killed
    assert no_racer_left()
