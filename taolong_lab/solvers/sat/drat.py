"""Checking a DRAT proof against a rebuilt CNF, within a memory and a work budget.

Two checkers, the same forward DRAT check (every lemma verified as it comes, RUP then RAT on
its first literal, unit deletions ignored):

- ``"lab"``: this lab's compiled checker, the extension ``taolong_lab._drat`` (C++,
  ``native/drat/``). It streams: the proof is fed in pieces as it is unpacked, never held
  whole, and its clauses sit in one flat ``int32`` arena. It stops with a clear reason past
  :data:`MEMORY_BUDGET` bytes of its own or :data:`WORK_BUDGET` propagation steps.
- ``"dratify"``: the pinned PyPI checker ``dratify`` (its Rust engine when ``cdclkit-native``
  is installed, else its pure-Python one; ``"python"`` and ``"native"`` pick one). It holds
  the whole proof as Python objects, up to :data:`DRATIFY_BYTES_PER_BYTE` bytes for each byte
  of text (a proof of short lines; about a tenth of that on the lab's proofs), so a proof whose
  projection passes the memory budget is refused before it is read (:class:`ProofBudgetError`).

``"auto"`` is the lab's checker when it is built (and ``TAOLONG_PURE=1`` is not set), else
dratify. :func:`available` says which are there.
"""

from __future__ import annotations

import importlib
import os
from typing import NamedTuple

from ...errors import TaoLongError

MEMORY_BUDGET = 4 * 2**30
"""The most memory (bytes) a DRAT check may take: the compiled checker's own structures, or
dratify's projected use."""
WORK_BUDGET = 2 * 10**12
"""The most propagation steps (watched clauses visited, literals scanned) the compiled checker
spends on one proof."""
DRATIFY_BYTES_PER_BYTE = 100
"""dratify's memory for each byte of CNF and proof text at worst (a proof of short lines, such
as ``1 0`` repeated; the lab's own proofs take about 13)."""
ENGINES = ("auto", "lab", "dratify", "python", "native")
"""``"lab"``: ``taolong_lab._drat``; ``"dratify"``: dratify with its fastest engine;
``"python"``, ``"native"``: dratify's pure-Python or Rust engine; ``"auto"``: the lab's when it
is built, else dratify's."""
PURE_ENV = "TAOLONG_PURE"
CHUNK = 1 << 20


class ProofBudgetError(TaoLongError):
    """A proof that its checker cannot check within the memory budget: refused, unchecked."""


class DratResult(NamedTuple):
    """A DRAT check: ``ok`` (the empty clause derived, every step verified), the reason, the
    checker that ran, the steps checked and the checker's peak memory (bytes; None when not
    measured)."""

    ok: bool
    reason: str
    checker: str
    steps: int
    peak_bytes: int | None


def compiled():
    """The compiled checker module, or None when it is not built or ``TAOLONG_PURE=1``."""
    if os.environ.get(PURE_ENV) == "1":
        return None
    try:
        return importlib.import_module("taolong_lab._drat")
    except ImportError:
        return None


def dratify_native() -> bool:
    """Whether dratify's Rust engine is there: ``cdclkit-native`` hands it over on import."""
    try:
        import cdclkit.native  # noqa: F401  (registers the Rust checker with dratify)
        import dratify
    except ImportError:
        return False
    return dratify.native_available()


def status() -> str:
    """Which checker ``engine="auto"`` runs here, in words (``taolong doctor``)."""
    if compiled() is not None:
        return "compiled (taolong_lab._drat), streaming, within its memory budget"
    why = f"turned off by {PURE_ENV}=1" if os.environ.get(PURE_ENV) == "1" else "not built"
    engine = "Rust" if dratify_native() else "pure-Python"
    return f"dratify ({engine} engine): the compiled checker is {why}"


def available() -> dict:
    """Which checkers this machine has: ``{"lab": bool, "dratify-native": bool}``."""
    return {"lab": compiled() is not None, "dratify-native": dratify_native()}


def resolve(engine: str) -> str:
    """The checker ``engine`` means here: ``"lab"``, ``"native"`` or ``"python"``.

    Raises
    ------
    TaoLongError
        An unknown engine, or one that is not installed.
    """
    if engine not in ENGINES:
        raise TaoLongError(f"engine: {engine!r} is not one of {', '.join(ENGINES)}")
    if engine == "lab" and compiled() is None:
        raise TaoLongError(
            "engine: 'lab' needs the compiled checker taolong_lab._drat (not built, or "
            f"{PURE_ENV}=1)"
        )
    if engine == "native" and not dratify_native():
        raise TaoLongError("engine: 'native' needs cdclkit-native (the extra 'proofs')")
    if engine == "auto":
        return "lab" if compiled() is not None else resolve("dratify")
    if engine == "dratify":
        return "native" if dratify_native() else "python"
    return engine


CHECKER_NAMES = {
    "lab": "taolong_lab._drat (the lab's compiled checker)",
    "native": "dratify 0.1.10, Rust engine",
    "python": "dratify 0.1.10, pure-Python engine",
}


def check_drat(
    arena,
    variables: int,
    goal,
    text,
    *,
    engine: str = "auto",
    memory: int = MEMORY_BUDGET,
    work: int = WORK_BUDGET,
) -> DratResult:
    """Check the DRAT proof ``text`` against the CNF of ``arena`` and the goal unit.

    Parameters
    ----------
    arena : array of int32
        The CNF's clauses, DIMACS literals, each clause ended by 0 (the rebuild's).
    variables : int
        The CNF's variables: a proof literal beyond them is refused.
    goal : int or True
        The goal literal, added as a unit clause (True: none).
    text : callable
        Returns an iterator over the proof's text in pieces (bytes); called once by the
        compiled checker, twice by dratify (its size is measured first, for the projection).
    engine : str
        One of :data:`ENGINES`.
    memory, work : int
        The budgets.

    Returns
    -------
    DratResult

    Raises
    ------
    ProofBudgetError
        dratify's projected memory is over ``memory``.
    TaoLongError
        The proof is not DRAT text (naming the line), or an unknown engine.
    """
    checker = resolve(engine)
    if checker == "lab":
        return _check_compiled(arena, variables, goal, text(), memory, work)
    return _check_dratify(arena, variables, goal, text, checker, memory)


def _check_compiled(arena, variables, goal, pieces, memory: int, work: int) -> DratResult:
    from array import array

    native = compiled()
    clauses = arena if goal is True else arena + array("i", [goal, 0])
    try:
        checker = native.Checker(variables, clauses, memory, work)
        for piece in pieces:
            checker.feed(piece)
        found = checker.finish()
    except ValueError as exc:
        raise TaoLongError(f"the CNF: {exc}") from None
    except MemoryError as exc:
        raise ProofBudgetError(f"the compiled checker ran out of memory ({exc})") from None
    status, reason = found["status"], found["reason"]
    if status == "syntax":
        raise TaoLongError(reason if reason == "not ASCII text" else f"not a DRAT proof ({reason})")
    if status == "memory":
        raise ProofBudgetError(f"the compiled checker {reason}")
    if status == "work":
        raise ProofBudgetError(f"the compiled checker {reason}")
    ok = status == "verified" and found["reached_empty"]
    return DratResult(ok, reason, CHECKER_NAMES["lab"], found["steps"], found["peak_bytes"])


def _check_dratify(arena, variables, goal, text, engine, memory) -> DratResult:
    from dratify import CNF, check_proof, from_dimacs

    text_bytes = sum(len(piece) for piece in text())  # measured, never held
    cnf_bytes = len(arena) * 8  # about the DIMACS text's length
    projected = DRATIFY_BYTES_PER_BYTE * (cnf_bytes + text_bytes)
    if projected > memory:
        raise ProofBudgetError(
            f"dratify would need about {projected / 2**30:.1f} GiB for this proof "
            f"({DRATIFY_BYTES_PER_BYTE} bytes a byte of text), over the memory budget of "
            f"{memory / 2**30:.1f} GiB; the lab's compiled checker checks it (taolong doctor says "
            "whether it is built and on)"
        )
    formula = CNF(variables)
    clause: list[int] = []
    for x in arena:
        if x:
            clause.append(from_dimacs(x))
        else:
            formula.add(clause)
            clause = []
    if goal is not True:
        formula.add([from_dimacs(goal)])
    data = b"".join(text())
    try:
        proof = data.decode("ascii")
    except UnicodeDecodeError:
        raise TaoLongError("not ASCII text") from None
    del data
    _bounded_literals(proof, variables)
    try:
        result = check_proof(formula, proof, engine=engine)
    except ValueError as exc:
        raise TaoLongError(f"not a DRAT proof ({str(exc)[:160]})") from None
    return DratResult(
        bool(result.ok and result.reached_empty),
        result.reason,
        CHECKER_NAMES[engine],
        result.steps,
        None,
    )


def _bounded_literals(proof: str, variables: int) -> None:
    """Refuse a literal beyond the CNF's variables (as the compiled checker does)."""
    for number, line in enumerate(proof.splitlines(), 1):
        if line.strip()[:1] == "c":
            continue
        for token in line.split():
            digits = token.lstrip("d+-").replace("_", "")
            if digits.isdigit() and (len(digits) > 12 or int(digits) > variables):
                raise TaoLongError(
                    f"not a DRAT proof (proof line {number}: literal {token[:20]} names a "
                    f"variable beyond the CNF's {variables})"
                )


__all__ = [
    "CHECKER_NAMES",
    "DRATIFY_BYTES_PER_BYTE",
    "ENGINES",
    "MEMORY_BUDGET",
    "PURE_ENV",
    "WORK_BUDGET",
    "DratResult",
    "ProofBudgetError",
    "available",
    "check_drat",
    "compiled",
    "dratify_native",
    "resolve",
    "status",
]
