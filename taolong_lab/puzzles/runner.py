"""Run one function over many jobs, in parallel, and get the results back in job order.

:func:`ordered_map` is the generator's parallel runner. It has three back ends:

* **in-process** (``workers=1``, no scheduler): ``fn(job)`` runs here, one job after the other;
* **a local process pool** (``workers > 1``): the embedded default, a
  :class:`concurrent.futures.ProcessPoolExecutor` with no server;
* **a Dask cluster** (``scheduler="tcp://HOST:PORT"`` or a ``distributed.Client``): the optional
  ``dask`` extra (``pip install 'taolong_lab[dask]'``).

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
and no child process is left behind. A client passed in by the caller is left open.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, suppress
from itertools import chain
from typing import Any

from ..errors import TaoLongError

DASK_EXTRA = "pip install 'taolong_lab[dask]'"
AHEAD_PER_WORKER = 4
CONNECT_TIMEOUT = "10s"  # how long to try to reach a scheduler


class RunnerError(TaoLongError):
    """Bad ``workers``, ``ahead`` or ``scheduler``, or ``--scheduler`` used without the
    optional ``distributed`` package. The message names the argument at fault."""


def ordered_map(
    fn: Callable[[Any], Any],
    jobs: Iterable[Any],
    *,
    workers: int = 1,
    scheduler=None,
    ahead: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> Iterator[tuple[Any, Any]]:
    """Yield ``(job, fn(job))`` for each job of ``jobs``, in job order.

    ``workers``: 1 runs in this process; more uses a local process pool of that many processes.
    ``scheduler``: a Dask scheduler address (``"tcp://HOST:PORT"``) or a ``distributed.Client``;
    when given, ``workers`` is ignored and the jobs run on that cluster. ``ahead``: the most jobs
    in flight at once (default ``4 * workers``, or 4 per thread of the Dask cluster). ``stop``:
    called after each yielded result; true ends the run. See the module docstring for errors,
    crash isolation and what is cleaned up on stop.

    The arguments are checked at once (a :class:`RunnerError`, also when ``scheduler`` is given
    but ``distributed`` is not installed); the jobs start on the first ``next()``.
    """
    _check(workers, ahead, stop)
    if scheduler is not None:
        distributed = _import_distributed()
        _check_scheduler(scheduler, distributed)
        pairs = _dask_map(fn, jobs, distributed, scheduler, ahead)
    elif workers == 1:
        pairs = _serial_map(fn, jobs)
    else:
        pairs = _pool_map(fn, jobs, workers, ahead or AHEAD_PER_WORKER * workers)
    return _until(pairs, stop)


def describe(exc: BaseException) -> str:
    """``"TypeName: message"``, the text of an error result."""
    return f"{type(exc).__name__}: {exc}"


# --- checks ---------------------------------------------------------------------------------


def _check(workers, ahead, stop) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RunnerError(f"workers must be a whole number >= 1, got {workers!r}")
    if ahead is not None and (isinstance(ahead, bool) or not isinstance(ahead, int) or ahead < 1):
        raise RunnerError(f"ahead must be a whole number >= 1 or None, got {ahead!r}")
    if stop is not None and not callable(stop):
        raise RunnerError(f"stop must be callable or None, got {stop!r}")


def _import_distributed():
    try:
        import distributed
    except ImportError as exc:
        raise RunnerError(
            "--scheduler (scheduler=) runs on a Dask cluster and needs the optional 'distributed' "
            f"package: {DASK_EXTRA} ({exc})"
        ) from None
    return distributed


def _check_scheduler(scheduler, distributed) -> None:
    if isinstance(scheduler, distributed.Client):
        return
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise RunnerError(
            "--scheduler (scheduler=) must be a Dask scheduler address such as "
            f"'tcp://HOST:PORT' or a distributed.Client, got {scheduler!r}"
        )


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
                pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
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
        self._process = context.Process(target=_isolated_child, args=(fn, job, writer))
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


def _isolated_child(fn, job, writer) -> None:
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


def _dask_map(fn, jobs, distributed, scheduler, ahead) -> Iterator:
    """The Dask back end: ``client.submit(fn, job, pure=False)``, ``ahead`` in flight."""
    owned = not isinstance(scheduler, distributed.Client)
    client = _connect(distributed, scheduler) if owned else scheduler
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


def _connect(distributed, address: str):
    try:
        return distributed.Client(address, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise RunnerError(
            f"--scheduler (scheduler=): cannot connect to the Dask scheduler at {address!r}: "
            f"{describe(exc)}"
        ) from None


def _dask_outcome(future, distributed):
    try:
        return future.result()
    except distributed.KilledWorker as exc:
        return {"error": f"worker process died ({describe(exc)})"}
    except Exception as exc:
        return {"error": describe(exc)}
