"""Run one function over many jobs, in parallel, and get the results back in job order.

:func:`ordered_map` is the generator's parallel runner. It has three back ends:

* **in-process** (``workers=1``, no scheduler): ``fn(job)`` runs here, one job after the other;
* **a local process pool** (``workers > 1``): the embedded default, a
  :class:`concurrent.futures.ProcessPoolExecutor` with no server;
* **a Dask cluster** (``scheduler="tcp://HOST:PORT"``, ``"tls://HOST:PORT"`` or a
  ``distributed.Client``): the optional ``dask`` extra (``pip install 'taolong_lab[dask]'``).

Whatever the back end, results come back **in job order** (never in completion order), at most
``ahead`` jobs are in flight (submitted but not yet yielded), and ``jobs`` may be any iterable,
even an infinite or lazily built one: a job is only taken from it when there is room in flight.

Only picklable values cross the wire: the job and the result (a dict). Anything that cannot be
pickled (a PySAT solver, say) must be built inside ``fn``. ``fn`` must be importable by the
workers (a module-level function of an installed package, not a notebook cell).

Errors and crash isolation
--------------------------
A job's result is whatever ``fn(job)`` returned, except that

* if ``fn`` raises an :class:`Exception`, that job's result is ``{"error": "TypeName: message"}``
  and every other job goes on;
* if the **worker process** running the job dies (``os._exit``, a segfault, an OOM kill), that
  job's result is ``{"error": "worker process died (...)"}`` and every other job still gets its
  real result.

The second point needs care with a process pool: one dying worker breaks the whole
:class:`~concurrent.futures.ProcessPoolExecutor`, and every job then pending in it fails with
``BrokenProcessPool``, not only the one that crashed. So when the pool breaks, :func:`ordered_map`

1. keeps the results of the jobs that had already finished;
2. shuts the broken pool down and re-runs each job that was pending in it **in isolation**: in a
   fresh process of its own (``multiprocessing.Process`` and a ``Pipe``), at most ``workers`` at a
   time, results still in job order. A job whose own process dies again is the culprit (or was
   killed twice): it yields ``{"error": "worker process died (exit code N)"}`` or ``(killed by
   SIGKILL)``. The others yield their real results;
3. carries on with the remaining jobs in a new, normal pool.

In-process (``workers=1``) an exception is isolated the same way, but nothing can survive the
process itself dying. On Dask, a task that raises yields its error, and a task whose worker keeps
dying ends as a ``KilledWorker`` (after the scheduler's ``distributed.scheduler.allowed-failures``
retries), which yields ``{"error": "worker process died (KilledWorker: ...)"}``.

Stopping
--------
``stop()`` (if given) is called after each yielded result; when it returns true the iterator ends.
Then, as when the consumer closes the iterator early (``break`` out of a ``for`` loop, ``close()``,
or an exception), the jobs still in flight are cancelled, the pool's worker processes are
terminated and joined, and a Dask client that :func:`ordered_map` opened is closed: nothing hangs
and no child process is left behind. A client passed in by the caller is left open. Each worker
process of the pool, and each isolated re-run, also ends when the process that started it dies,
even by ``kill -9`` (:func:`taolong_lab.processes.end_with_parent`).

A Dask cluster is trusted code
------------------------------
Results come back from a cluster as pickles, and unpickling runs code: whoever runs the
scheduler or a worker, or can talk to them, can run code in this process. Use only a cluster
you control. ``tls://HOST:PORT`` encrypts the traffic and authenticates both ends with Dask's
security settings (``security=``: a ``distributed.security.Security`` or a dict of its
arguments; by default Dask's config ``distributed.comm.tls.*``). That keeps others off the
wire; it does not make a hostile cluster safe. Connecting over plain TCP to a scheduler that is
not on this machine (localhost, 127.0.0.0/8, ::1 or an address of one of its interfaces) is
warned about (:class:`InsecureSchedulerWarning`). The address is checked before connecting:
``[tcp://|tls://]HOST:PORT`` with a port from 1 to 65535, or ``inproc://...``.
"""

from __future__ import annotations

import ipaddress
import multiprocessing
import os
import re
import signal
import socket
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, suppress
from dataclasses import dataclass
from itertools import chain
from typing import Any

from .errors import Arg, TaoLongError, spelled
from .processes import IN_BROWSER, end_with_parent, one_process

DASK_EXTRA = "pip install 'taolong_lab[dask]'"
AHEAD_PER_WORKER = 4
MAX_WORKERS = 4 * (os.cpu_count() or 1)  # local processes: more only share the same cores
CONNECT_TIMEOUT = "10s"  # how long to try to reach a scheduler
CLOSE_TIMEOUT = 5  # seconds to close a client whose connection failed
_SCHEDULER, _SECURITY = Arg("scheduler"), Arg("security")  # named in messages
_ADDRESS = re.compile(
    r"(?:(?P<scheme>tcp|tls)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})"
)
_INPROC = re.compile(r"inproc://[A-Za-z0-9_.:-]+/[0-9]+/[0-9]+")
_LONGEST_ADDRESS = 300


class RunnerError(TaoLongError):
    """Bad ``workers``, ``ahead``, ``scheduler`` or ``security``, a scheduler that cannot be
    reached, or ``scheduler`` used without the optional ``distributed`` package. The message
    names the argument at fault; about a scheduler or its security, it is made by
    :meth:`~taolong_lab.errors.TaoLongError.naming` (the command line words those its own
    way)."""


class InsecureSchedulerWarning(UserWarning):
    """Plain TCP to a Dask scheduler on another machine: anyone on the way can read the jobs
    and answer with results that run code here. ``parts``: the message's words and the
    arguments it names (:func:`taolong_lab.errors.spelled`)."""

    def __init__(self, *parts):
        self.parts = parts
        super().__init__(spelled(parts))


@dataclass(frozen=True)
class Runner:
    """How a long job runs: on how many local processes or on which Dask cluster, and whether
    it draws a progress bar. One value passed to :func:`~taolong_lab.puzzles.generate.generate`,
    :func:`~taolong_lab.agents.balance_card`, :func:`~taolong_lab.agents.match` and
    :func:`~taolong_lab.puzzles.atlas.run` instead of four parameters.

    Parameters
    ----------
    workers : int
        Local processes, 1 (in this process) to :data:`MAX_WORKERS`; ignored with a scheduler.
    scheduler : str or distributed.Client or None
        A Dask scheduler address or client (a cluster is trusted code: see the module
        docstring).
    security : distributed.security.Security or dict or None
        Dask's TLS settings for a ``tls://`` address (None: Dask's config).
    progress : bool
        Draw a progress bar (tqdm); off unless asked.

    Raises
    ------
    RunnerError
        A bad value, named; checked at once, without connecting.

    >>> Runner()
    Runner(workers=1, scheduler=None, security=None, progress=False)
    >>> Runner(workers=2, progress=True).progress
    True
    """

    workers: int = 1
    scheduler: Any = None
    security: Any = None
    progress: bool = False

    def __post_init__(self) -> None:
        _check(self.workers, None, None)
        if not isinstance(self.progress, bool):
            raise _bad("progress", self.progress, "True or False", (True, False))
        check_scheduler(self.scheduler, self.security)

    def map(
        self,
        fn: Callable[[Any], Any],
        jobs: Iterable[Any],
        *,
        ahead: int | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Iterator[tuple[Any, Any]]:
        """:func:`ordered_map` with this runner's workers, scheduler and security.

        Parameters
        ----------
        fn, jobs, ahead, stop
            As :func:`ordered_map` takes them.

        Returns
        -------
        iterator of (job, result)
        """
        return ordered_map(
            fn,
            jobs,
            workers=self.workers,
            scheduler=self.scheduler,
            security=self.security,
            ahead=ahead,
            stop=stop,
        )

    def bar(self, total: int, *, initial: int = 0, desc: str, unit: str, leave: bool = False):
        """A tqdm bar on stderr, or None without ``progress``.

        Parameters
        ----------
        total, initial : int
            The steps in all and those already done.
        desc, unit : str
            Its label and the name of a step.
        leave : bool
            Whether it stays on screen once closed.

        Returns
        -------
        tqdm or None
        """
        if not self.progress:
            return None
        from tqdm.auto import tqdm

        return tqdm(total=total, initial=initial, desc=desc, unit=unit, leave=leave)


def as_runner(runner: Runner | None) -> Runner:
    """``runner``, or the default :class:`Runner` for None.

    Parameters
    ----------
    runner : Runner or None

    Returns
    -------
    Runner

    Raises
    ------
    RunnerError
        Something else than a Runner.
    """
    if runner is None:
        return Runner()
    if not isinstance(runner, Runner):
        raise RunnerError(f"runner must be a Runner or None, got {_shown(runner)}")
    return runner


def ordered_map(
    fn: Callable[[Any], Any],
    jobs: Iterable[Any],
    *,
    workers: int = 1,
    scheduler=None,
    security=None,
    ahead: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> Iterator[tuple[Any, Any]]:
    """Yield ``(job, fn(job))`` for each job of ``jobs``, in job order.

    ``workers``: 1 runs in this process; more (up to :data:`MAX_WORKERS`) uses a local process
    pool of that many processes. ``scheduler``: a Dask scheduler address (``"tcp://HOST:PORT"``,
    ``"tls://HOST:PORT"``) or a ``distributed.Client``; when given, ``workers`` is ignored and
    the jobs run on that cluster, which must be trusted (see the module docstring).
    ``security``: for an address, Dask's security settings (a ``Security`` or a dict of its
    arguments; None: Dask's config). ``ahead``: the most jobs in flight at once (default
    ``4 * workers``, or 4 per thread of the Dask cluster). ``stop``: called after each yielded
    result; true ends the run. See the module docstring for errors, crash isolation and what
    is cleaned up on stop.

    The arguments are checked at once (a :class:`RunnerError`, also when ``scheduler`` is given
    but ``distributed`` is not installed); the jobs start (and a scheduler is connected to) on
    the first ``next()``. In a web page (Pyodide) the jobs run in this process whatever
    ``workers`` says, and a :class:`~taolong_lab.processes.SingleProcessWarning` says so.
    """
    _check(workers, ahead, stop)
    connection = _connection(scheduler, security)
    if connection is not None:
        distributed, security = connection
        pairs = _dask_map(fn, jobs, distributed, scheduler, security, ahead)
    elif workers == 1 or IN_BROWSER:
        if workers > 1:
            one_process(f"workers={workers}: the jobs run one after the other in this process")
        pairs = _serial_map(fn, jobs)
    else:
        pairs = _pool_map(fn, jobs, workers, ahead or AHEAD_PER_WORKER * workers)
    return _until(pairs, stop)


def describe(exc: BaseException) -> str:
    """``"TypeName: message"``, the text of an error result."""
    return f"{type(exc).__name__}: {exc}"


# --- checks ---------------------------------------------------------------------------------


def check_scheduler(scheduler, security=None) -> None:
    """Check a ``scheduler`` and ``security`` as :func:`ordered_map` does, without connecting:
    a :class:`RunnerError` naming what is wrong (see the module docstring for the addresses)."""
    _connection(scheduler, security)


def _connection(scheduler, security):
    """``(distributed, the Security to connect with)`` for a scheduler, None without one."""
    if scheduler is None:
        if security is not None:
            raise RunnerError.naming(_SECURITY, ": only with a tls:// ", _SCHEDULER)
        return None
    distributed = _import_distributed()
    return distributed, _security(scheduler, security, distributed)


def _check(workers, ahead, stop) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        words = f"a whole number from 1 to {MAX_WORKERS} (4 per CPU core)"
        raise _bad("workers", workers, words, (1, MAX_WORKERS))
    if ahead is not None and (isinstance(ahead, bool) or not isinstance(ahead, int) or ahead < 1):
        raise _bad("ahead", ahead, "a whole number >= 1 or None", 1)
    if stop is not None and not callable(stop):
        raise _bad("stop", stop, "callable or None", None)


def _bad(name: str, value, words: str, limit) -> RunnerError:
    """The error of ``name`` given ``value``, which must be ``words``."""
    return RunnerError.naming(Arg(name, value), f": must be {words}", limit=limit)


def _shown(value) -> str:
    """``repr(value)``, kept short (a huge int has no repr)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return "a number of 20 digits or more"
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:60]}..."


def _import_distributed():
    try:
        import distributed
    except ImportError as exc:
        raise RunnerError.naming(
            _SCHEDULER,
            " runs on a Dask cluster and needs the optional 'distributed' package: "
            f"{DASK_EXTRA} ({exc})",
        ) from None
    return distributed


def _parse_address(scheduler) -> tuple[str, str | None]:
    """The scheme (``"tcp"``, ``"tls"`` or ``"inproc"``) and host of an address."""
    shown = _shown(scheduler)
    if isinstance(scheduler, str) and len(scheduler) > _LONGEST_ADDRESS:
        shown += f" ({len(scheduler)} characters)"
    text = scheduler if isinstance(scheduler, str) and len(scheduler) <= _LONGEST_ADDRESS else ""
    if _INPROC.fullmatch(text):
        return "inproc", None
    found = _ADDRESS.fullmatch(text)
    if found is None:
        raise RunnerError.naming(
            _SCHEDULER,
            " must be a Dask scheduler address, tcp://HOST:PORT, tls://HOST:PORT or HOST:PORT, "
            f"or a distributed.Client, got {shown}",
        )
    given = Arg("scheduler", scheduler)
    if not 1 <= int(found["port"]) <= 65535:
        raise RunnerError.naming(given, ": the port must be from 1 to 65535", limit=(1, 65535))
    host = found["host"]
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise RunnerError.naming(given, f": {host} is not an IPv6 address") from None
    return found["scheme"] or "tcp", host


def _security(scheduler, security, distributed):
    """The ``distributed.security.Security`` to connect to ``scheduler`` with (None for a
    Client), once both are checked."""
    if isinstance(scheduler, distributed.Client):
        if security is not None:
            raise RunnerError.naming(_SECURITY, " goes with a scheduler address, not a Client")
        return None
    scheme, _ = _parse_address(scheduler)
    if security is not None and scheme != "tls":
        raise RunnerError.naming(
            _SECURITY, ": need a tls:// ", _SCHEDULER, f", got {_shown(scheduler)}"
        )
    from distributed.security import Security

    if not isinstance(security, (Security, dict, type(None))):
        raise RunnerError.naming(
            _SECURITY, f" must be a distributed Security or a dict, got {_shown(security)}"
        )
    if not isinstance(security, Security):
        try:  # None: Dask's config, distributed.comm.tls.*
            security = Security(**(security or {}))
        except (TypeError, ValueError) as exc:
            raise RunnerError.naming(_SECURITY, f": {describe(exc)}") from None
    if scheme == "tls":
        if not (security.tls_ca_file and security.tls_client_cert):
            raise RunnerError.naming(
                Arg("scheduler", scheduler),
                ": tls:// needs the cluster's CA certificate and a client certificate: ",
                _SECURITY,
                ", or Dask's config distributed.comm.tls.ca-file and "
                "distributed.comm.tls.client.cert",
            )
        try:
            security.get_connection_args("client")  # reads the certificates
        except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
            raise RunnerError.naming(
                _SECURITY, f": cannot use the certificates: {describe(exc)}"
            ) from None
    return security


def _warn_if_exposed(address: str) -> None:
    """Warn about plain TCP to a scheduler on another machine."""
    scheme, host = _parse_address(address)
    if scheme == "tcp" and not _on_this_machine(host):
        warning = InsecureSchedulerWarning(
            Arg("scheduler", address),
            ": plain TCP to another machine: whoever can reach the network between them can "
            "read the jobs and answer with results that run code here; use a tls:// address "
            "with ",
            _SECURITY,
        )
        warnings.warn(warning, stacklevel=2)


def _on_this_machine(host: str) -> bool:
    """Whether every address ``host`` names is a loopback one or one of this machine's."""
    try:
        found = socket.getaddrinfo(host.strip("[]"), None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    addresses = {_ip(info[4][0]) for info in found}
    local = _local_addresses()
    return all(a is not None and (a.is_loopback or a in local) for a in addresses)


def _local_addresses() -> set:
    import psutil  # a dependency of distributed

    return {
        _ip(address.address)
        for addresses in psutil.net_if_addrs().values()
        for address in addresses
    } - {None}


def _ip(text: str):
    try:
        return ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None


# --- the common driver ------------------------------------------------------------------------


def _until(pairs: Iterator, stop) -> Iterator:
    """Yield from ``pairs`` until ``stop()``; always close ``pairs`` (its cleanup runs)."""
    with closing(pairs):
        for pair in pairs:
            yield pair
            if stop is not None and stop():
                return


def _serial_map(fn, jobs) -> Iterator:
    for job in jobs:
        yield job, _call(fn, job)


def _call(fn, job):
    """``fn(job)``, or the error result if it raises."""
    try:
        return fn(job)
    except Exception as exc:
        return {"error": describe(exc)}


# --- the local process pool -------------------------------------------------------------------

_BROKEN = object()  # the outcome of a job lost with a broken pool
_END = object()  # no more jobs


def _pool_map(fn, jobs, workers: int, ahead: int) -> Iterator:
    """The process-pool back end, with crash isolation (see the module docstring)."""
    context = multiprocessing.get_context()
    source = iter(jobs)
    pool = None
    pending: deque = deque()  # (job, future or None if the pool was already broken)
    try:
        while True:
            if pool is None:
                pool = ProcessPoolExecutor(
                    max_workers=workers,
                    mp_context=context,
                    initializer=end_with_parent,
                    initargs=(_parent_pid(context),),
                )
            _fill(pool, fn, source, pending, ahead)
            if not pending:
                return
            job, future = pending[0]
            outcome = _outcome(future)
            if outcome is not _BROKEN:
                pending.popleft()
                yield job, outcome
                continue
            # The pool is broken: every job still pending in it failed with it.
            _close_pool(pool, kill=True)
            pool = None
            stale, pending = pending, deque()
            unsent = [job for job, future in stale if future is None]
            source = chain(unsent, source)  # never started: back to the new pool
            sent = [(job, future) for job, future in stale if future is not None]
            yield from _recover(fn, sent, context, workers)
    finally:
        if pool is not None:
            _close_pool(pool, kill=bool(pending))


def _parent_pid(context) -> int | None:
    """The pid a child of ``context`` sees as its parent: this process's, except under the
    fork server (None: the fork server, which ends with this process)."""
    return None if context.get_start_method() == "forkserver" else os.getpid()


def _fill(pool, fn, source, pending: deque, ahead: int) -> None:
    """Submit jobs from ``source`` until ``ahead`` are pending or it is exhausted."""
    while len(pending) < ahead:
        job = next(source, _END)
        if job is _END:
            return
        try:
            pending.append((job, pool.submit(fn, job)))
        except BrokenProcessPool:
            pending.append((job, None))
            return


def _outcome(future):
    """The result of a pool future: the value, an error result, or ``_BROKEN``."""
    if future is None:
        return _BROKEN
    try:
        return future.result()
    except BrokenProcessPool:
        return _BROKEN
    except Exception as exc:
        return {"error": describe(exc)}


def _recover(fn, sent, context, width: int) -> Iterator:
    """Yield the outcome of each job of a broken pool, in order: the finished ones as they
    are, the lost ones re-run each in a process of its own (``width`` at a time)."""
    running: deque = deque()  # (job, outcome or a running _Isolated)
    try:
        for job, future in sent:
            outcome = _outcome(future)
            if outcome is _BROKEN:
                outcome = _Isolated(fn, job, context)
            running.append((job, outcome))
            while len(running) > width or (running and not isinstance(running[0][1], _Isolated)):
                yield _settle(running.popleft())
        while running:
            yield _settle(running.popleft())
    finally:
        for _, outcome in running:
            if isinstance(outcome, _Isolated):
                outcome.abort()


def _settle(pair):
    job, outcome = pair
    return job, outcome.result() if isinstance(outcome, _Isolated) else outcome


class _Isolated:
    """One job running in a fresh process of its own; :meth:`result` waits for it."""

    def __init__(self, fn, job, context):
        self._reader, writer = context.Pipe(duplex=False)
        parent = _parent_pid(context)
        self._process = context.Process(target=_isolated_child, args=(fn, job, writer, parent))
        self._process.start()
        writer.close()  # so that the reader sees EOF if the child dies

    def result(self):
        try:
            ok, value = self._reader.recv()
        except EOFError:  # the child died before it could answer
            self._process.join()
            return {"error": f"worker process died ({_exit_text(self._process.exitcode)})"}
        finally:
            self._reader.close()
        self._process.join()
        return value if ok else {"error": value}

    def abort(self) -> None:
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._reader.close()


def _isolated_child(fn, job, writer, parent) -> None:
    end_with_parent(parent)
    try:
        try:
            message = (True, fn(job))
        except Exception as exc:
            message = (False, describe(exc))
        try:
            writer.send(message)
        except Exception as exc:  # e.g. a result that cannot be pickled
            writer.send((False, describe(exc)))
    finally:
        writer.close()


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _close_pool(pool: ProcessPoolExecutor, *, kill: bool) -> None:
    """Shut ``pool`` down. With ``kill``, cancel what is queued and terminate (then join)
    its worker processes instead of waiting for the jobs they are running."""
    if not kill:
        pool.shutdown(wait=True)
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    # The pool's manager thread sees its workers die and joins them itself: wait for it rather
    # than race it (two threads reaping one child confuse multiprocessing's bookkeeping).
    if manager is not None:
        manager.join(timeout=10)
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join()


# --- Dask -------------------------------------------------------------------------------------


def _dask_map(fn, jobs, distributed, scheduler, security, ahead) -> Iterator:
    """The Dask back end: ``client.submit(fn, job, pure=False)``, ``ahead`` in flight."""
    owned = not isinstance(scheduler, distributed.Client)
    client = _connect(distributed, scheduler, security) if owned else scheduler
    pending: deque = deque()
    try:
        if ahead is None:
            threads = sum(client.nthreads().values())
            ahead = AHEAD_PER_WORKER * max(threads, 1)
        source = iter(jobs)
        while True:
            while len(pending) < ahead:
                job = next(source, _END)
                if job is _END:
                    break
                pending.append((job, client.submit(fn, job, pure=False)))
            if not pending:
                return
            job, future = pending.popleft()
            yield job, _dask_outcome(future, distributed)
    finally:
        if pending:
            # (a client already closed has nothing left to cancel)
            with suppress(Exception):
                client.cancel([future for _, future in pending])
        if owned:
            client.close()


def _connect(distributed, address: str, security):
    """A client connected to ``address``. It is built in two steps so that a failed connection
    is closed here: left to ``Client.__del__``, it would be closed at exit, slowly and with a
    traceback."""
    _warn_if_exposed(address)
    client = distributed.Client.__new__(distributed.Client)
    try:
        client.__init__(address, set_as_default=False, timeout=CONNECT_TIMEOUT, security=security)
    except BaseException as exc:
        with suppress(Exception):
            client.close(timeout=CLOSE_TIMEOUT)
        if not isinstance(exc, Exception):
            raise
        raise RunnerError.naming(
            Arg("scheduler", address), f": cannot connect to the Dask scheduler: {describe(exc)}"
        ) from None
    return client


def _dask_outcome(future, distributed):
    try:
        return future.result()
    except distributed.KilledWorker as exc:
        return {"error": f"worker process died ({describe(exc)})"}
    except Exception as exc:
        return {"error": describe(exc)}


__all__ = [
    "AHEAD_PER_WORKER",
    "CLOSE_TIMEOUT",
    "CONNECT_TIMEOUT",
    "DASK_EXTRA",
    "MAX_WORKERS",
    "InsecureSchedulerWarning",
    "Runner",
    "RunnerError",
    "as_runner",
    "check_scheduler",
    "describe",
    "ordered_map",
]
