"""What every solver shares: the :class:`Solution` value, :class:`SolverError`, budgets,
peak-memory measurement and crash-safe checkpoint files.

A checkpoint is one file per search, replaced atomically (a temporary file, ``fsync``, then
``os.replace``), so at every moment it holds either the previous or the new snapshot, never a
torn one. It is plain data (gzip-compressed JSON, no pickle), tied by a digest to the position,
rules and solver it belongs to, and signed with a per-user key (:func:`checkpoint_key`) over
its compressed bytes: a file that does not verify is refused before it is unpacked, and one
that is too big, unpacks past what its header declares, or does not fit the format is refused
before it is used.
"""

from __future__ import annotations

import contextlib
import gc
import gzip
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import sys
import time
import warnings
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..engine import Line, State
from ..errors import NAMED, Arg, TaoLongError, python_spelling, shown, spelled
from ..files import write_atomic
from ..processes import IN_BROWSER
from ..readers import no_constant

try:  # missing in a web page (Pyodide): peak memory is then unknown
    import resource
except ImportError:  # pragma: no cover - depends on the platform
    resource = None
from .certificate import (
    Certificate,
    Status,
    certificate_from_json,
)


class SolverError(TaoLongError):
    """The solver cannot work on this input (not a solo position, a bad budget, a checkpoint
    for another position, ...)."""


@dataclass(frozen=True)
class Solution:
    """What a solver proved.

    ``status`` (:class:`Status`): ``OPTIMAL`` (``optimum`` turns is the fewest, ``line`` one
    such line), ``UNKNOWN`` (a budget or an interrupt stopped the search: no win in fewer than
    ``proved_no_win_below`` turns), ``NO_WIN`` (every reachable position was searched: the
    player cannot win). ``optimal_first_turns``: how many first turns start an optimal line
    (None if the budget ran out while counting them). ``certificate``: the solver's evidence,
    an :class:`ExplicitCertificate` or a :class:`SatCertificate` (its ``to_json()`` fits the
    puzzle format's ``certificate``). ``stats``: positions expanded and generated, seconds (wall
    and CPU), positions per second, peak memory (MB, the peak resident set during this solve
    on Linux; None where it cannot be measured, in a web page). ``stop``: what stopped an
    ``UNKNOWN`` search, as words and :class:`~taolong_lab.errors.Arg` values (the budget and
    its limit), so that a caller spells the argument its own way (:meth:`stop_reason`); the
    certificate's ``stopped`` is its text.

    >>> from taolong_lab import State, solve
    >>> s = solve(State("field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
    ...     "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"))
    >>> s
    Solution(status='optimal', optimum=1, line=1 turn, solver='taolong_lab.solvers.explicit')
    >>> print(s)
    optimal: a win in 1 turn, 1 optimal first turn (taolong_lab.solvers.explicit)
    """

    status: Status
    optimum: int | None
    line: Line
    optimal_first_turns: int | None
    certificate: Certificate = field(hash=False)
    stats: dict = field(hash=False)
    proved_no_win_below: int
    stop: tuple = field(default=(), hash=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))
        if not isinstance(self.line, Line):
            raise SolverError(f"line: expected a Line, got {type(self.line).__name__}")

    def __repr__(self) -> str:
        turns = f"{len(self.line)} turn{'s' * (len(self.line) != 1)}"
        return (
            f"Solution(status={self.status.value!r}, optimum={self.optimum!r}, line={turns}, "
            f"solver={self.certificate.solver!r})"
        )

    def __str__(self) -> str:
        return self.summary()

    def summary(self) -> str:
        """What was proved, on one line."""
        solver = self.certificate.solver
        if self.status == Status.OPTIMAL:
            first = self.optimal_first_turns
            firsts = "" if first is None else f", {_count(first, 'optimal first turn')}"
            return f"optimal: a win in {_count(self.optimum, 'turn')}{firsts} ({solver})"
        if self.status == Status.NO_WIN:
            return f"no win: every reachable position was searched ({solver})"
        why = self.stop_reason()
        return (
            f"unknown: no win in fewer than {_count(self.proved_no_win_below, 'turn')} "
            f"({why}; {solver})"
        )

    def stop_reason(self, spell: Callable[[Arg], str] = python_spelling) -> str:
        """What stopped the search, each argument it names spelled by ``spell``.

        Parameters
        ----------
        spell : callable
            An :class:`~taolong_lab.errors.Arg` to its text (default: ``name=value``).

        Returns
        -------
        str
            ``"stopped"`` when nothing is said.
        """
        if self.stop:
            return spelled(self.stop, spell)
        return self.certificate.stopped or "stopped"

    def to_json(self) -> dict:
        """The solution as plain JSON (``stop`` only when there is one)."""
        stop = {"stop": _stop_to_json(self.stop)} if self.stop else {}
        return {
            "status": self.status.value,
            "optimum": self.optimum,
            "line": self.line.notation(),
            "optimal_first_turns": self.optimal_first_turns,
            "proved_no_win_below": self.proved_no_win_below,
            "certificate": self.certificate.to_json(),
            "stats": self.stats,
            "start": self.line.start.to_tln(),
            **stop,
        }

    @classmethod
    def from_json(cls, data: dict) -> Solution:
        """The inverse of :meth:`to_json`. Raises :class:`SolverError` (a
        :class:`CertificateError` for the certificate) naming the field that does not fit."""
        try:
            status = Status(data["status"])
        except ValueError:
            raise SolverError(f"status: {data['status']!r} is not a solver status") from None
        return cls(
            status=status,
            optimum=data["optimum"],
            line=Line(State.from_tln(data["start"]), data["line"]),
            optimal_first_turns=data["optimal_first_turns"],
            certificate=certificate_from_json(data["certificate"]),
            stats=data["stats"],
            proved_no_win_below=data["proved_no_win_below"],
            stop=_stop_from_json(data.get("stop", [])),
        )


MAX_STOP_PARTS, MAX_STOP_TEXT = 8, 200  # bounds of a stop reason read from JSON


def _stop_to_json(stop: tuple) -> list:
    """A stop reason's parts as JSON: words as strings, an Arg as ``{"name", "value"}``."""
    return [
        part
        if isinstance(part, str)
        else {"name": part.name, **({} if part.value is NAMED else {"value": part.value})}
        for part in stop
    ]


def _stop_from_json(doc) -> tuple:
    """The inverse of :func:`_stop_to_json`, bounded; a :class:`SolverError` naming ``stop``."""
    if not isinstance(doc, list) or len(doc) > MAX_STOP_PARTS:
        raise SolverError(f"stop: a list of at most {MAX_STOP_PARTS} parts")
    parts = []
    for part in doc:
        if isinstance(part, str) and len(part) <= MAX_STOP_TEXT:
            parts.append(part)
            continue
        name = part.get("name") if isinstance(part, dict) else None
        value = part.get("value", NAMED) if isinstance(part, dict) else None
        good = value is NAMED or (type(value) in (int, float, str) and len(str(value)) <= 40)
        if not (isinstance(name, str) and name.isidentifier() and len(name) <= 40 and good):
            raise SolverError("stop: each part is a short text or a {name, value} argument")
        if set(part) - {"name", "value"}:
            raise SolverError("stop: an argument has only a name and a value")
        parts.append(Arg(name, value))
    return tuple(parts)


def _stop_parts(stop) -> tuple:
    """``stop`` checked to be a tuple of words and Args (a bare string is a solver's slip)."""
    if not isinstance(stop, tuple) or not all(isinstance(p, str | Arg) for p in stop):
        raise TypeError(f"stop: a tuple of words and Args, not {shown(stop)}")
    return stop


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'s' * (n != 1)}"


def build_solution(
    start: State,
    status,
    line,
    certificate: Certificate,
    stats: dict,
    first: int | None = None,
    stop: tuple = (),
) -> Solution:
    """The :class:`Solution` of a solver's run: every solver makes it here, so its optimum and
    proved bound are always the certificate's, and the certificate's ``stopped`` is the text of
    ``stop``.

    Parameters
    ----------
    start : State
        The position solved.
    status : Status or str
        What the run proved.
    line : sequence of str
        The optimal line (empty unless ``status`` is ``OPTIMAL``).
    certificate : Certificate
        The solver's evidence, with its ``optimum`` and ``proved_no_win_below``.
    stats : dict
        The solver's counters.
    first : int or None
        The optimal first turns.
    stop : tuple
        What stopped the search (:attr:`Solution.stop`), empty when nothing did.

    Returns
    -------
    Solution

    Raises
    ------
    SolverError
        A line whose length is not the certificate's optimum.
    """
    status = Status(status)
    optimum = certificate.optimum
    if (status == Status.OPTIMAL) != (optimum is not None) or len(line) != (optimum or 0):
        raise SolverError(f"a {status.value} answer with a line of {len(line)} turns")
    return Solution(
        status=status,
        optimum=optimum,
        line=Line(start, line),
        optimal_first_turns=first,
        certificate=replace(certificate, stopped=spelled(stop) if stop else None),
        stats=stats,
        proved_no_win_below=certificate.proved_no_win_below,
        stop=_stop_parts(stop),
    )


def options_refused(method: str, allowed: tuple[str, ...], options: dict) -> SolverError:
    """The error of a ``method`` given ``options`` it does not take, naming each argument.

    Parameters
    ----------
    method : str
        The method (``"race"``, ``"auto"``).
    allowed : tuple of str
        The keyword arguments it takes.
    options : dict
        Those it was given and does not take.

    Returns
    -------
    SolverError

    >>> str(options_refused("race", ("time_limit", "progress"), {"max_states": 3}))
    "method='race' takes time_limit= and progress= only, not max_states="
    """
    taken = [Arg(name) for name in allowed]
    parts: list = [Arg("method", method), " takes "]
    parts += _listed(taken[:-1]) + ([" and "] if len(taken) > 1 else []) + taken[-1:]
    parts += [" only, not ", *_listed([Arg(name) for name in list(options)[:8]])]
    return SolverError.naming(*parts, limit=allowed)


def _listed(args: list) -> list:
    """``args`` with ", " between them."""
    return [part for i, arg in enumerate(args) for part in ((", ",) if i else ()) + (arg,)]


def solo_start(puzzle_or_state, solver: str):
    """The start position of a puzzle (or a State), checked to be a solo position; ``solver``
    names the solver in the error."""

    if isinstance(puzzle_or_state, State):
        state = puzzle_or_state
    elif isinstance(getattr(puzzle_or_state, "start", None), State):
        state = puzzle_or_state.start
    else:
        raise SolverError(f"solve needs a Puzzle or a State, not {type(puzzle_or_state).__name__}")
    if not state.rules.solo:
        raise SolverError(
            f"the {solver} solver is for solo challenges; {state.rules.token()!r} is a "
            "two-player position (explore() and retrograde_two_player() work on those)"
        )
    return state


# ---- the garbage collector ---------------------------------------------------------------
@contextlib.contextmanager
def paused_gc():
    """The cyclic garbage collector off for the block (or the decorated call), then restored
    as it was.

    The solvers build many small acyclic objects (positions, gates, clauses) that live to
    the end of the search, and each of the collector's full passes walks them all, which
    costs the solvers a large share of their time.
    Reference counting still frees everything acyclic; the few cycles wait for the first
    collection after the block."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# ---- peak memory ---------------------------------------------------------------------------
_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


def reset_peak_memory() -> bool:
    """Reset the process's peak resident set (Linux: ``5 > /proc/self/clear_refs``), so the
    next :func:`peak_memory_mb` measures from now. False where that is not possible."""
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


def peak_memory_mb() -> float | None:
    """The peak resident set in MB: since the last :func:`reset_peak_memory` on Linux, else the
    process's lifetime peak (``ru_maxrss``); None where neither can be read (a web page)."""
    with contextlib.suppress(OSError):
        found = re.search(r"VmHWM:\s+(\d+)\s+kB", _STATUS.read_text())
        if found:
            return round(int(found.group(1)) / 1024, 1)
    if resource is None:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


# ---- progress ------------------------------------------------------------------------------
class ProgressCallback:
    """A progress bar that draws nothing: each change goes to ``report`` as one dict (``stage``,
    ``done``, ``total``, and the solver's fields such as ``bound``, ``depth``, ``frontier``).
    It stands in for tqdm where no bar can be drawn: a web page, whose Python cannot start
    tqdm's monitor thread, passes ``progress=callback``. It keeps the part of tqdm's interface
    the solvers use.

    >>> seen = []
    >>> bar = ProgressCallback(seen.append, stage="positions")
    >>> bar.update(256); bar.set_postfix(bound=3, refresh=False)
    >>> seen[-1]
    {'stage': 'positions', 'done': 256, 'total': None, 'bound': 3}
    """

    def __init__(self, report, *, stage: str = "", total: int | None = None):
        self.report, self.stage, self.total = report, stage, total
        self.n, self.fields, self.unit = 0, {}, ""

    def _send(self) -> None:
        self.report({"stage": self.stage, "done": self.n, "total": self.total, **self.fields})

    def update(self, n: int = 1) -> None:
        self.n += n
        self._send()

    def set_postfix(self, refresh: bool = True, **fields) -> None:
        self.fields = fields
        self._send()

    def set_description(self, text: str) -> None:
        self.stage = text
        self._send()

    def reset(self, total: int | None = None) -> None:
        self.n, self.total = 0, total
        self._send()

    def refresh(self) -> None:
        self._send()

    def close(self) -> None:
        """Nothing to take down."""


def progress_bar(progress, **options):
    """The bar a solver draws for ``progress``.

    Parameters
    ----------
    progress : bool or callable
        False: none; a callable: a :class:`ProgressCallback` reporting to it; True: a tqdm bar
        (none in a web page, where tqdm's monitor thread cannot start, or without tqdm).
    **options
        For tqdm (``desc`` names the stage of a callback too).

    Returns
    -------
    tqdm, ProgressCallback or None
    """
    if callable(progress):
        return ProgressCallback(progress, stage=options.get("desc", ""))
    if not progress or IN_BROWSER:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency, but progress is optional
        return None
    return tqdm(**options)


# ---- budgets -------------------------------------------------------------------------------
class Budget:
    """Seconds of wall clock and positions expanded, either or both bounded: the one budget of
    the solvers and the agents. ``earlier`` seconds and expansions (from a resumed checkpoint)
    count too.

    :meth:`spent` checks both limits (and names the one that ran out in ``stop``, the words
    and the :class:`~taolong_lab.errors.Arg` of a stop reason, and ``reason``, its text);
    :meth:`spend` counts positions and reads the clock every few positions only, for the
    agents' inner loops.

    >>> budget = Budget(None, 3)
    >>> budget.spend(2), budget.spend(), budget.reason
    (False, True, 'max_states=3 positions expanded')
    >>> budget.stop
    (Arg(name='max_states', value=3), ' positions expanded')
    """

    __slots__ = (
        "cpu0",
        "deadline",
        "earlier_seconds",
        "expanded",
        "generated",
        "max_states",
        "stop",
        "t0",
        "time_limit",
    )
    CLOCK_EVERY = 64  # positions counted by spend() between two readings of the clock

    def __init__(
        self, time_limit=None, max_states=None, *, earlier_seconds=0.0, earlier_expanded=0
    ):
        if time_limit is not None and time_limit < 0:
            raise SolverError.naming(Arg("time_limit", time_limit), ": must be >= 0", limit=0)
        if max_states is not None and max_states < 0:
            raise SolverError.naming(Arg("max_states", max_states), ": must be >= 0", limit=0)
        self.t0 = time.perf_counter()
        self.cpu0 = time.process_time()
        self.deadline = None if time_limit is None else self.t0 + time_limit
        self.time_limit, self.max_states = time_limit, max_states
        self.expanded = earlier_expanded
        self.generated = 0
        self.earlier_seconds = earlier_seconds
        self.stop: tuple = ()

    @property
    def reason(self) -> str | None:
        """The stop reason's text (None while no limit is reached)."""
        return spelled(self.stop) if self.stop else None

    def spent(self) -> bool:
        """Whether a limit is reached (the clock read now)."""
        if self.max_states is not None and self.expanded >= self.max_states:
            self.stop = (Arg("max_states", self.max_states), " positions expanded")
            return True
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            self.stop = (Arg("time_limit", self.time_limit), " reached")
            return True
        return False

    def spend(self, count: int = 1) -> bool:
        """Count ``count`` positions, then whether a limit is reached (the clock read once
        every :attr:`CLOCK_EVERY` positions)."""
        self.expanded += count
        if self.max_states is not None and self.expanded >= self.max_states:
            return self.spent()
        return (
            self.deadline is not None and self.expanded % self.CLOCK_EVERY < count and self.spent()
        )

    def seconds(self) -> float:
        """Wall-clock seconds of this run (a resumed run's earlier seconds not included)."""
        return time.perf_counter() - self.t0

    def cpu_seconds(self) -> float:
        return time.process_time() - self.cpu0


# ---- checkpoints ---------------------------------------------------------------------------
CHECKPOINT_FORMAT = "taolong-checkpoint"
CHECKPOINT_VERSION = 2
MAX_CHECKPOINT_BYTES = 1 << 29  # the file: far above what a search that fits in memory saves
MAX_CHECKPOINT_INFLATED = 1 << 31  # the most a header may declare its body unpacks to
MAX_HEADER_BYTES = 1 << 16
KEY_ENV = "TAOLONG_LAB_KEY"
FRESH_HINT = "pass fresh=True to start again"
_GZIP_MAGIC = b"\x1f\x8b"
_WARNED_KEYS: set[str] = set()


class CheckpointError(SolverError):
    """A checkpoint file that cannot be resumed: not a checkpoint, damaged, signed with another
    key, saved for another search, or inconsistent. Names the file and the field; the file is
    left as it is (``fresh=True``, ``--fresh`` on the command line, starts the search again)."""

    def __init__(self, path, field: str, reason: str, hint: str = FRESH_HINT):
        self.path, self.field, self.reason, self.hint = Path(path), field, reason, hint
        super().__init__(f"checkpoint {path}: {field}: {reason}; {hint}")

    def with_hint(self, hint: str) -> CheckpointError:
        """The same error, ending with another hint (the command line's ``--fresh``)."""
        return CheckpointError(self.path, self.field, self.reason, hint)


class CheckpointKeyWarning(UserWarning):
    """The checkpoint key file can be read by other users: any of them can sign a checkpoint
    this user's solver will trust (warned once a process)."""


def checkpoint_key_path() -> Path:
    """Where the per-user checkpoint key lives: ``$TAOLONG_LAB_KEY`` if set, else
    ``$XDG_DATA_HOME/taolong_lab/checkpoint.key`` (``~/.local/share`` by default)."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME", "")
    root = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return root / "taolong_lab" / "checkpoint.key"


def checkpoint_key() -> bytes:
    """The per-user secret that signs checkpoints: 32 random bytes, written in hex to
    :func:`checkpoint_key_path` (mode 0600) on first use. A key file that others may read is
    used, with a :class:`CheckpointKeyWarning` (once a process): whoever holds the key can
    sign a checkpoint."""
    path = checkpoint_key_path()
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(secrets.token_hex(32) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            with contextlib.suppress(FileExistsError):  # another process made it first: use it
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    except OSError as exc:
        raise SolverError(
            f"checkpoint key {path}: cannot create it ({exc.strerror or exc}); "
            f"set {KEY_ENV} to a file name"
        ) from None
    return _read_key(path)


def _read_key(path: Path) -> bytes:
    try:
        with open(path, "rb", opener=_open_nonblocking) as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise SolverError(f"checkpoint key {path}: not a regular file")
            text = handle.read(1024)
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise SolverError(f"checkpoint key {path}: not a regular file") from None
    except OSError as exc:
        raise SolverError(
            f"checkpoint key {path}: cannot read it ({exc.strerror or exc})"
        ) from None
    if not re.fullmatch(rb"[0-9a-f]{64}\s*", text):
        raise SolverError(f"checkpoint key {path}: not a checkpoint key (64 hex digits)")
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077 and str(path) not in _WARNED_KEYS:
        _WARNED_KEYS.add(str(path))
        warnings.warn(
            f"checkpoint key {path} is readable by others (mode {mode:04o}): whoever reads it "
            f"can sign a checkpoint this solver trusts; chmod 600 {path}",
            CheckpointKeyWarning,
            stacklevel=4,
        )
    return bytes.fromhex(text[:64].decode("ascii"))


def _open_nonblocking(path, flags):
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block


class Checkpoint:
    """A solver's checkpoint file: :meth:`load` what an earlier run saved for the same position
    and solver, :meth:`save` (atomically) a dict of plain JSON data. Periodic saves
    (:meth:`due`) come every ``every`` seconds, or every ``OVERHEAD`` times the last save's
    duration if that is longer: a big search never spends more than about 1/``OVERHEAD`` of its
    time saving.

    The file is a header line (JSON: ``format``, ``version``, ``solver``, ``start``,
    ``digest``, ``size``, ``signature``), a newline, then the body: JSON, gzip-compressed.
    ``digest`` is the SHA-256 of the start position, its rules and the solver; ``size`` the
    body's unpacked bytes; ``signature`` the HMAC-SHA256, with the per-user
    :func:`checkpoint_key`, of the header without it, a newline and the **compressed** body.
    So :meth:`load` checks the signature before anything is unpacked, and unpacks no more than
    the header declares (and at most :data:`MAX_CHECKPOINT_INFLATED`).

    The signature says the file was written by someone holding the key (this user, or anyone
    the key file is readable by): it is not a proof. The solvers check what they keep from a
    checkpoint, and ``taolong verify`` re-proves what matters."""

    OVERHEAD = 10

    def __init__(self, path, *, solver: str, start, every: float = 60.0):
        if IN_BROWSER:
            raise SolverError(
                "checkpoints cannot be kept in a web page (its files vanish with the page): "
                "solve without checkpoint="
            )
        self.path = Path(path)
        self.solver, self.start, self.every = solver, start.to_tln(), every
        self.digest = hashlib.sha256(
            json.dumps([self.start, start.rules.token(), solver]).encode()
        ).hexdigest()
        self.last = time.perf_counter()
        self.duration = 0.0
        self.saves = 0

    def _header(self) -> dict:
        return {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "solver": self.solver,
            "start": self.start,
            "digest": self.digest,
        }

    @staticmethod
    def _signed(header: dict, packed: bytes) -> bytes:
        return json.dumps(header, sort_keys=True, separators=(",", ":")).encode() + b"\n" + packed

    def load(self) -> dict | None:
        """The saved body, or None when there is no file. Raises :class:`CheckpointError` when
        the file is not a checkpoint, is damaged or too big, its signature does not verify with
        this user's key (checked before the body is unpacked), or it was saved for another
        search."""
        content = self._read()
        if content is None:
            return None
        if content.startswith(_GZIP_MAGIC):
            raise self._refuse(
                "version",
                "a checkpoint of an older format (version 1), which this lab no longer reads",
            )
        head, newline, packed = content.partition(b"\n")
        if not newline or len(head) > MAX_HEADER_BYTES or not head.startswith(b"{"):
            raise self._refuse("format", "not a taolong checkpoint (no header line)")
        header = self._parse(head, "header")
        if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT:
            raise self._refuse("format", f"not a taolong checkpoint (format {CHECKPOINT_FORMAT!r})")
        version = header.get("version")
        if version != CHECKPOINT_VERSION or isinstance(version, bool):
            raise self._refuse(
                "version", f"{version!r} is not a version this lab reads ({CHECKPOINT_VERSION})"
            )
        signature = header.pop("signature", None)
        want = hmac.new(checkpoint_key(), self._signed(header, packed), hashlib.sha256).hexdigest()
        if not isinstance(signature, str) or not hmac.compare_digest(signature, want):
            raise self._refuse(
                "signature",
                f"does not verify with this user's key ({checkpoint_key_path()}): the file was "
                "changed, or written by another user",
            )
        size = header.pop("size", None)
        for name, value in self._header().items():
            if header.get(name) != value:
                raise self._refuse(
                    name, f"saved for {header.get(name)!r}, this search needs {value!r}"
                )
        if set(header) != set(self._header()):
            raise self._refuse(
                "header", f"unknown fields {sorted(set(header) - set(self._header()))}"
            )
        data = self._parse(self._unpack(packed, size), "body")
        if not isinstance(data, dict):
            raise self._refuse("body", "must be a JSON object")
        return data

    def _refuse(self, field: str, reason: str) -> CheckpointError:
        return CheckpointError(self.path, field, reason)

    def _read(self) -> bytes | None:
        """The file's bytes, or None when there is no file; refused before it is read when it
        is not a regular file or too big."""
        try:
            handle = open(self.path, "rb", opener=_open_nonblocking)  # noqa: SIM115
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            raise self._refuse("file", "not a regular file") from None
        except OSError as exc:
            raise self._refuse("file", f"cannot read it ({exc.strerror or exc})") from None
        with handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise self._refuse("file", "not a regular file")
            if info.st_size > MAX_CHECKPOINT_BYTES:
                raise self._refuse(
                    "file", f"{info.st_size} bytes, more than a checkpoint's {MAX_CHECKPOINT_BYTES}"
                )
            content = handle.read(MAX_CHECKPOINT_BYTES + 1)
        if len(content) > MAX_CHECKPOINT_BYTES:
            raise self._refuse("file", f"more than a checkpoint's {MAX_CHECKPOINT_BYTES} bytes")
        return content

    def _unpack(self, packed: bytes, size) -> bytes:
        """The body, unpacked: exactly the ``size`` bytes the (verified) header declares."""
        if type(size) is not int or not 0 <= size <= MAX_CHECKPOINT_INFLATED:
            raise self._refuse("size", f"must be a number of bytes up to {MAX_CHECKPOINT_INFLATED}")
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            body = inflate.decompress(packed, size + 1)
        except zlib.error as exc:
            raise self._refuse("file", f"damaged gzip data ({exc})") from None
        if len(body) > size:
            raise self._refuse("file", f"unpacks past the {size} bytes its header declares")
        if len(body) < size or not inflate.eof or inflate.unused_data:
            raise self._refuse("file", "damaged gzip data (not the size its header declares)")
        return body

    def _parse(self, text: bytes, field: str):
        try:
            return json.loads(text, parse_constant=no_constant)
        except RecursionError:
            raise self._refuse(field, "JSON nested too deep") from None
        except ValueError as exc:
            raise self._refuse(field, f"not valid JSON ({exc})") from None

    def due(self) -> bool:
        return time.perf_counter() - self.last >= max(self.every, self.OVERHEAD * self.duration)

    def save(self, body: dict) -> None:
        """Write ``body`` (plain JSON data), signed, replacing the file atomically."""
        began = time.perf_counter()
        text = json.dumps(body, separators=(",", ":"), allow_nan=False).encode()
        packed = gzip.compress(text, compresslevel=6, mtime=0)
        header = {**self._header(), "size": len(text)}
        header["signature"] = hmac.new(
            checkpoint_key(), self._signed(header, packed), hashlib.sha256
        ).hexdigest()
        content = json.dumps(header).encode() + b"\n" + packed
        try:
            write_atomic(self.path, content)
        except OSError as exc:
            raise SolverError(
                f"checkpoint {self.path}: cannot write it ({exc.strerror or exc})"
            ) from None
        self.last = time.perf_counter()
        self.duration = self.last - began
        self.saves += 1


__all__ = [
    "Budget",
    "Checkpoint",
    "CheckpointError",
    "CheckpointKeyWarning",
    "ProgressCallback",
    "Solution",
    "SolverError",
    "build_solution",
    "checkpoint_key",
    "checkpoint_key_path",
    "options_refused",
    "peak_memory_mb",
    "progress_bar",
    "reset_peak_memory",
    "solo_start",
]
