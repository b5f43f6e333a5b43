"""The parallel runner (taolong_lab.runner.ordered_map): order, errors, crash
isolation, stopping, and the Dask back end on a LocalCluster."""

from __future__ import annotations

import gc
import itertools
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from taolong_lab import runner
from taolong_lab.errors import TaoLongError
from taolong_lab.runner import (
    MAX_WORKERS,
    InsecureSchedulerWarning,
    Runner,
    RunnerError,
    check_scheduler,
    ordered_map,
)

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


def slow_then_mark(job):
    """``slow``, then a file named after the job in the folder the job names."""
    number, folder = job
    slow(number)
    (Path(folder) / str(number)).touch()
    return {"job": number}


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


def test_closing_early_kills_running_jobs_without_waiting(tmp_path):
    before = children()
    it = ordered_map(slow_then_mark, ((n, str(tmp_path)) for n in itertools.count()), workers=2)
    assert next(it) == ((0, str(tmp_path)), {"job": 0})
    it.close()  # jobs 2 and 3 would sleep 30 s, then leave their mark
    assert children() <= before
    assert not (tmp_path / "2").exists() and not (tmp_path / "3").exists()


# --- argument errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"workers": 0}, "workers"),
        ({"workers": True}, "workers"),
        ({"ahead": 0}, "ahead"),
        ({"stop": 3}, "stop"),
        ({"workers": MAX_WORKERS + 1}, "workers"),
        ({"workers": 10**5000}, "workers"),
        ({"scheduler": ""}, "scheduler="),
        ({"scheduler": "garbage"}, "scheduler="),
        ({"scheduler": "tcp://127.0.0.1"}, "scheduler="),
        ({"scheduler": "tcp://127.0.0.1:0"}, "port"),
        ({"scheduler": "tcp://127.0.0.1:65536"}, "port"),
        ({"scheduler": "http://127.0.0.1:80"}, "scheduler="),
        ({"scheduler": "tcp://[1:2:3]:8786"}, "IPv6"),
        ({"scheduler": "x" * 5000 + ":1"}, "5002 characters"),
        ({"scheduler": 8786}, "scheduler="),
        ({"security": {}}, "tls://"),
        ({"scheduler": "tcp://127.0.0.1:8786", "security": {}}, "tls://"),
        ({"scheduler": "tls://127.0.0.1:8786"}, "CA certificate"),
        ({"scheduler": "tls://127.0.0.1:8786", "security": {"nonsense": 1}}, "security="),
        (
            {"scheduler": "tls://127.0.0.1:8786", "security": {"tls_ca_file": "/nowhere.pem"}},
            "CA certificate",
        ),
    ],
)
def test_bad_arguments_are_named_at_once(kwargs, word):
    pytest.importorskip("distributed")
    with pytest.raises(RunnerError, match=word) as info:
        ordered_map(square, JOBS, **kwargs)
    assert isinstance(info.value, TaoLongError)


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"workers": 0}, "workers"),
        ({"workers": MAX_WORKERS + 1}, "workers"),
        ({"workers": True}, "workers"),
        ({"progress": "yes"}, "progress"),
        ({"security": {}}, "tls://"),
    ],
)
def test_a_bad_runner_is_refused_when_it_is_made(kwargs, word):
    with pytest.raises(RunnerError, match=word):
        Runner(**kwargs)


def test_a_runner_reads_back_from_its_repr_and_maps_as_ordered_map():
    made = Runner(workers=2, progress=True)
    assert eval(repr(made), {"Runner": Runner}) == made
    assert list(Runner().map(square, JOBS)) == list(ordered_map(square, JOBS))
    assert Runner().bar(3, desc="jobs", unit="job") is None  # no bar unless asked


@pytest.mark.parametrize("call", ["generate", "balance_card", "match", "atlas"])
def test_the_long_jobs_refuse_what_is_not_a_runner(call, tmp_path):
    from taolong_lab.agents import GreedyAgent, RandomAgent, balance_card, match
    from taolong_lab.puzzles import atlas
    from taolong_lab.puzzles.generate import generate

    calls = {
        "generate": lambda: generate(1, runner={"workers": 2}),
        "balance_card": lambda: balance_card({"r": RandomAgent()}, runner=2),
        "match": lambda: match(GreedyAgent(), RandomAgent(), runner="local"),
        "atlas": lambda: atlas.run(tmp_path, ["torus"], runner=1),
    }
    with pytest.raises(RunnerError, match="runner must be a Runner"):
        calls[call]()


@pytest.mark.parametrize(
    "address", ["tcp://127.0.0.1:8786", "localhost:1", "tcp://[::1]:65535", "inproc://1.2.3.4/5/6"]
)
def test_good_addresses_pass_the_check(address):
    pytest.importorskip("distributed")
    check_scheduler(address)


def test_a_scheduler_error_carries_its_field_value_and_limit():
    pytest.importorskip("distributed")
    from taolong_lab.cli.common import cli_word

    with pytest.raises(RunnerError) as info:
        check_scheduler("tcp://127.0.0.1:0")
    error = info.value
    assert (error.field, error.value, error.limit) == ("scheduler", "tcp://127.0.0.1:0", (1, 65535))
    assert str(error) == "scheduler='tcp://127.0.0.1:0': the port must be from 1 to 65535"
    assert (
        error.worded(cli_word) == "--scheduler tcp://127.0.0.1:0: the port must be from 1 to 65535"
    )
    with pytest.raises(RunnerError) as info:
        check_scheduler(None, {})
    assert info.value.worded(cli_word) == (
        "--tls-ca-file, --tls-cert and --tls-key: only with a tls:// --scheduler"
    )


def test_certificates_that_cannot_be_read_are_named(tmp_path):
    pytest.importorskip("distributed")
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate\n")
    security = {"tls_ca_file": str(bad), "tls_client_cert": str(bad)}
    with pytest.raises(RunnerError, match=r"security=.*cannot use the certificates"):
        check_scheduler("tls://127.0.0.1:8786", security)


def test_scheduler_without_distributed_names_the_flag_and_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(RunnerError, match=r"scheduler=.*taolong_lab\[dask\]"):
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
        with pytest.raises(RunnerError, match=r"scheduler=.*cannot connect"):
            next(it)


def test_generate_on_dask_equals_generate_in_process(cluster):
    from taolong_lab.puzzles.generate import generate

    options = {"seed": 3, "turns": (1, 3), "time_limit": 10.0}
    local = generate(3, **options)
    remote = generate(3, runner=Runner(2, cluster.scheduler_address), **options)
    assert without_seconds([p.to_json() for p in remote]) == without_seconds(
        [p.to_json() for p in local]
    )
    assert len(local) == 3


# --- orphans: the workers end with their parent ----------------------------------------------

ORPHANS = """
import itertools, json, multiprocessing, os, sys, time
from taolong_lab import processes
from taolong_lab.runner import ordered_map

def nap(job):
    if job == 0:
        if sys.argv[1] == "isolated":
            os._exit(1)  # breaks the pool: the pending jobs re-run in processes of their own
        return 0
    time.sleep(600)

def watched():
    processes._kernel_signals_orphan = lambda: False  # the portable fallback alone
    processes.end_with_parent(os.getppid())
    print("watching", flush=True)
    time.sleep(600)

if __name__ == "__main__":
    if sys.argv[1] == "fallback":
        child = multiprocessing.Process(target=watched)
        child.start()
        pids = [child.pid]
    else:
        pairs = ordered_map(nap, itertools.count(), workers=2)
        next(pairs)
        pids = [p.pid for p in multiprocessing.active_children()]
    print(json.dumps(pids), flush=True)
    time.sleep(600)
"""


def running(pid: int) -> bool:
    """The process exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("kind", ["pool", "isolated", "fallback"])
def test_a_kill_9_of_the_parent_leaves_no_worker_running(kind, tmp_path):
    """kind: the pool's workers, the isolated re-runs of a broken pool, or a child watched by
    the polling thread alone (where Linux's parent-death signal is not used)."""
    script = tmp_path / "orphans.py"
    script.write_text(ORPHANS)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen(
        [sys.executable, str(script), kind], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        lines = [proc.stdout.readline() for _ in range(2 if kind == "fallback" else 1)]
        pids = json.loads(next(line for line in lines if line.startswith("[")))
        assert pids and all(running(pid) for pid in pids)
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 30  # a bound on the wait, not a measure of speed
    while time.monotonic() < deadline and any(running(pid) for pid in pids):
        time.sleep(0.1)
    left = [pid for pid in pids if running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


def test_plain_tcp_off_this_machine_is_warned_about(monkeypatch):
    """Only where the address is another machine's and the link is not TLS; the connection
    itself then fails here (nothing listens), quickly with the shortened timeout."""
    pytest.importorskip("distributed")
    import psutil

    remote = "198.51.100.7"  # TEST-NET-2, documentation only
    local = {a.address for addresses in psutil.net_if_addrs().values() for a in addresses}
    if remote in local:
        pytest.skip(f"{remote} is an address of this machine")
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", "0.5s")
    with (
        pytest.warns(InsecureSchedulerWarning, match=r"198\.51\.100\.7.*tls://"),
        pytest.raises(RunnerError, match="cannot connect"),
    ):
        next(ordered_map(square, JOBS, scheduler=f"tcp://{remote}:8786"))
    interface = sorted(a for a in local if a.count(".") == 3 and not a.startswith("127."))
    addresses = ["tcp://127.0.0.1:1", "tcp://127.3.2.1:1", "localhost:1", "[::1]:1"]
    for address in addresses + [f"{a}:1" for a in interface[:1]]:
        with warnings.catch_warnings():
            warnings.simplefilter("error", InsecureSchedulerWarning)
            with pytest.raises(RunnerError, match="cannot connect"):
                next(ordered_map(square, JOBS, scheduler=address))


def test_a_failed_connection_leaves_no_client_open(monkeypatch):
    """Whatever the failure, the client is closed at once, not left to Client.__del__ (which
    would close it at exit, slowly, with a traceback)."""
    distributed = pytest.importorskip("distributed")

    async def refused(self, timeout=None):
        raise ValueError("refused by the test")

    monkeypatch.setattr(distributed.Client, "_ensure_connected", refused)
    with pytest.raises(RunnerError, match="refused by the test"):
        next(ordered_map(square, JOBS, scheduler="tcp://127.0.0.1:8786"))
    clients = [c for c in gc.get_objects() if isinstance(c, distributed.Client)]
    assert [c.status for c in clients if c.status != "closed"] == []


def self_signed(cert: str, key: str, name: str) -> None:
    """A self-signed certificate and its key (one file if ``cert == key``), made by openssl."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("needs the openssl command to make a certificate")
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    files = ["-keyout", key, "-out", cert, "-days", "1", "-subj", f"/CN={name}"]
    subprocess.run([openssl, "req", "-x509", *curve, *files], check=True, capture_output=True)


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory):
    """A LocalCluster that speaks TLS only, with a self-signed certificate made by openssl;
    yields the cluster and the paths of the certificate and key."""
    distributed = pytest.importorskip("distributed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = str(folder / "cert.pem"), str(folder / "key.pem")
    self_signed(cert, key, "dask-test")
    roles = {
        f"tls_{role}_{part}": path
        for role in ("scheduler", "worker", "client")
        for part, path in (("cert", cert), ("key", key))
    }
    security = distributed.security.Security(tls_ca_file=cert, require_encryption=True, **roles)
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tls://",
        security=security,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},  # its HTTP routes: any free port
    ) as local:
        yield local, cert, key


def test_dask_over_tls(tls_cluster, tmp_path, monkeypatch):
    cluster, cert, key = tls_cluster
    address = cluster.scheduler_address
    assert address.startswith("tls://")
    security = {"tls_ca_file": cert, "tls_client_cert": cert, "tls_client_key": key}
    pairs = list(ordered_map(square, JOBS[:4], scheduler=address, security=security))
    assert without_pid(pairs) == expected(JOBS[:4])
    with pytest.raises(RunnerError, match="CA certificate"):  # never plain text instead
        ordered_map(square, JOBS, scheduler=address)
    # A client that does not hold the cluster's certificate is turned away.
    stranger = str(tmp_path / "stranger.pem")
    self_signed(stranger, stranger, "stranger")
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", "2s")
    other = {"tls_ca_file": cert, "tls_client_cert": stranger}
    with pytest.raises(RunnerError, match="cannot connect"):
        next(ordered_map(square, JOBS, scheduler=address, security=other))
