"""Child processes that end with the process that started them.

A ``kill -9`` gives a process no chance to stop its children: left alone, they run on as
orphans. :func:`end_with_parent`, called first thing in a child, makes it end when its parent
does. On Linux the kernel kills it (``prctl(PR_SET_PDEATHSIG, SIGKILL)``; the kernel counts
the death of the parent *thread* that started the child). Elsewhere a daemon thread checks
``os.getppid()`` every :data:`POLL_SECONDS` and ends the process once it has changed (an orphan
is given another parent on POSIX systems; on Windows the check never fires).

In a web page (Pyodide, ``sys.platform == "emscripten"``: :data:`IN_BROWSER`) there are no
processes and no threads: work asked of several processes runs in this one, and
:func:`one_process` says so in a :class:`SingleProcessWarning`.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
import warnings

POLL_SECONDS = 1.0
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
IN_BROWSER = sys.platform == "emscripten"  # Pyodide: no processes, no threads


class SingleProcessWarning(UserWarning):
    """Work asked of several processes runs in this one: Pyodide starts none."""


def one_process(what: str) -> None:
    """Say, in a :class:`SingleProcessWarning`, that ``what`` runs in this process.

    Parameters
    ----------
    what : str
        What was asked and what runs instead, e.g. ``"workers=2: 1 worker"``.
    """
    warnings.warn(
        f"{what}: this Python runs in a web page (Pyodide), which starts no processes",
        SingleProcessWarning,
        stacklevel=3,
    )


def end_with_parent(parent: int | None = None) -> None:
    """End this process, at once, when its parent process dies, or now if it already has.

    ``parent``: the pid of the process that started this one (its ``os.getpid()``, handed
    over), which also catches a parent that died before this call; None takes this process's
    parent now (a child of multiprocessing's fork server, which ends with the process that
    uses it). Never raises: a child that cannot be watched runs on as before.
    """
    if parent is None:
        parent = os.getppid()
    if not _kernel_signals_orphan():
        threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        os._exit(1)


def _kernel_signals_orphan() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os._exit(1)


__all__ = [
    "IN_BROWSER",
    "POLL_SECONDS",
    "SingleProcessWarning",
    "end_with_parent",
    "one_process",
]
