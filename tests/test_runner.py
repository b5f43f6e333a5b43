"""The parallel runner (taolong_lab.puzzles.runner.ordered_map): order, errors, crash
isolation, stopping, and the Dask back end on a LocalCluster."""

from __future__ import annotations

import inspect
import itertools
import multiprocessing
import os
import signal
import sys
import time

import pytest

from taolong_lab.errors import TaoLongError
from taolong_lab.puzzles.runner import RunnerError, ordered_map

JOBS = list(range(12))


# --- job functions (module level: the workers import them) -----------------------------------


def square(job):
    """Later jobs finish first, so completion order differs from job order."""
    time.sleep(0.002 * ((len(JOBS) - job) % 5))
    return {"job": job, "square": job * job, "pid": os.getpid()}


def fail_on_3(job):
    if job == 3:
        raise ValueError("job 3 is bad")
    return square(job)


def exit_on_5(job):
    if job == 5:
        os._exit(1)
    return square(job)


def sigkill_on_2_and_9(job):
    if job in (2, 9):
        os.kill(os.getpid(), signal.SIGKILL)
    return square(job)


def slow(job):
    time.sleep(0.05 if job < 2 else 30)
    return {"job": job}


def expected(jobs=JOBS):
    return [(job, {"job": job, "square": job * job}) for job in jobs]


def without_pid(pairs):
    return [(job, {k: v for k, v in result.items() if k != "pid"}) for job, result in pairs]


def without_seconds(value):
    """A puzzle's JSON without its wall-clock fields (every ``seconds``, at any depth)."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


def children():
    return {process.pid for process in multiprocessing.active_children()}


# --- order and plain errors ------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_order_is_job_order_and_results_equal(workers):
    pairs = list(ordered_map(square, iter(JOBS), workers=workers))
    assert without_pid(pairs) == expected()
    pids = {result["pid"] for _, result in pairs}
    assert (pids == {os.getpid()}) == (workers == 1)  # workers=1 runs in-process, 2 does not


@pytest.mark.parametrize("workers", [1, 2])
def test_an_exception_errors_only_its_job(workers):
    pairs = without_pid(ordered_map(fail_on_3, JOBS, workers=workers))
    assert pairs[3] == (3, {"error": "ValueError: job 3 is bad"})
    assert pairs[:3] + pairs[4:] == expected(JOBS[:3] + JOBS[4:])


def test_at_most_ahead_jobs_are_taken_before_the_first_result():
    taken = []

    def jobs():
        for job in itertools.count():
            taken.append(job)
            yield job

    it = ordered_map(square, jobs(), workers=2, ahead=3)
    try:
        assert next(it)[0] == 0
        assert len(taken) == 3
    finally:
        it.close()


# --- crash isolation -------------------------------------------------------------------------


def test_a_dying_worker_errors_only_its_job():
    before = children()
    pairs = without_pid(ordered_map(exit_on_5, JOBS, workers=2))
    assert [job for job, _ in pairs] == JOBS
    assert pairs[5] == (5, {"error": "worker process died (exit code 1)"})
    assert pairs[:5] + pairs[6:] == expected(JOBS[:5] + JOBS[6:])
    assert children() <= before


def test_two_crashes_far_apart_each_lose_only_their_job():
    jobs = range(30)
    pairs = without_pid(ordered_map(sigkill_on_2_and_9, jobs, workers=2, ahead=4))
    died = {"error": "worker process died (killed by SIGKILL)"}
    assert [job for job, result in pairs if result == died] == [2, 9]
    assert [pair for pair in pairs if pair[0] not in (2, 9)] == expected(
        [j for j in jobs if j not in (2, 9)]
    )


# --- stopping --------------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_stop_ends_early_and_leaves_no_child_process(workers):
    before = children()
    seen = []
    pairs = ordered_map(square, itertools.count(), workers=workers, stop=lambda: len(seen) >= 3)
    for job, _ in pairs:
        seen.append(job)
    assert seen == [0, 1, 2]
    assert children() <= before


def test_closing_early_kills_running_jobs_without_waiting():
    before = children()
    t0 = time.perf_counter()
    it = ordered_map(slow, itertools.count(), workers=2)
    assert next(it) == (0, {"job": 0})
    it.close()  # job 2 and 3 would sleep 30 s
    assert time.perf_counter() - t0 < 10
    assert children() <= before


# --- argument errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"workers": 0}, "workers"),
        ({"workers": True}, "workers"),
        ({"ahead": 0}, "ahead"),
        ({"stop": 3}, "stop"),
        ({"scheduler": ""}, "--scheduler"),
    ],
)
def test_bad_arguments_are_named_at_once(kwargs, word):
    pytest.importorskip("distributed")
    with pytest.raises(RunnerError, match=word) as info:
        ordered_map(square, JOBS, **kwargs)
    assert isinstance(info.value, TaoLongError)


def test_scheduler_without_distributed_names_the_flag_and_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(RunnerError, match=r"--scheduler.*taolong_lab\[dask\]"):
        ordered_map(square, JOBS, scheduler="tcp://127.0.0.1:8786")


# --- Dask ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    import dask

    # One task at a time per worker thread, and no retry of a task whose worker died: a
    # crashing job then fails at once, alone.
    config = {
        "distributed.scheduler.allowed-failures": 0,
        "distributed.scheduler.worker-saturation": 1.0,
    }
    with (
        dask.config.set(config),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as local,
    ):
        yield local


def test_dask_order_and_results_equal_the_local_ones(cluster):
    pairs = list(ordered_map(square, JOBS, scheduler=cluster.scheduler_address))
    assert without_pid(pairs) == expected()
    assert os.getpid() not in {result["pid"] for _, result in pairs}


def test_dask_an_exception_errors_only_its_job(cluster):
    pairs = without_pid(ordered_map(fail_on_3, JOBS, scheduler=cluster.scheduler_address))
    assert pairs[3] == (3, {"error": "ValueError: job 3 is bad"})
    assert pairs[:3] + pairs[4:] == expected(JOBS[:3] + JOBS[4:])


def test_dask_accepts_a_client_and_leaves_it_open(cluster):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        pairs = ordered_map(square, JOBS[:4], scheduler=client, stop=lambda: False)
        assert without_pid(pairs) == expected(JOBS[:4])
        assert client.status == "running"


def test_dask_a_dying_worker_errors_only_its_job(cluster):
    pairs = without_pid(ordered_map(exit_on_5, JOBS, scheduler=cluster.scheduler_address))
    assert pairs[5][1]["error"].startswith("worker process died (KilledWorker")
    assert pairs[:5] + pairs[6:] == expected(JOBS[:5] + JOBS[6:])
    cluster.wait_for_workers(2, timeout=30)  # the nanny restarts it


def test_dask_unreachable_scheduler_is_a_runner_error():
    pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        it = ordered_map(square, JOBS, scheduler="tcp://127.0.0.1:1")
        with pytest.raises(RunnerError, match=r"--scheduler.*cannot connect"):
            next(it)


def test_generate_on_dask_equals_generate_in_process(cluster):
    from taolong_lab.puzzles.generate import generate

    if "scheduler" not in inspect.signature(generate).parameters:
        pytest.skip("generate() does not take scheduler= yet")
    options = {"seed": 3, "turns": (1, 3), "progress": False, "time_limit": 10.0}
    local = generate(3, workers=1, **options)
    remote = generate(3, workers=2, scheduler=cluster.scheduler_address, **options)
    assert without_seconds([p.to_json() for p in remote]) == without_seconds(
        [p.to_json() for p in local]
    )
    assert len(local) == 3
