"""Checking the SAT solver's stored proofs (``docs/proofs.md``): what
``taolong verify --proof`` runs.

A proof folder (written by ``solve(..., method="sat", proof=FOLDER)``,
:mod:`taolong_lab.solvers.sat.proof`) holds, for each UNSAT horizon ``k``, the DRAT proof that
the CNF of "a win within ``k`` turns" has no model, and a manifest: the start, the settings,
the steps of the search and the meaning of each refinement and dead-end nogood.
:func:`check_folder` checks that

1. every CEGAR refinement is a fact of the game: replayed in the engine
   (:func:`taolong_lab.engine.solo.opponent_choices` from its position: the opponent's choices
   end on exactly the boards it names; a penalty refinement: the position has a turn without
   the penalty);
2. every dead-end nogood is a fact of the game: no win within its turns from its position,
   proved again by the explicit solver's :func:`~taolong_lab.solvers.explicit.win_within`
   within a budget of positions a nogood and in all; a horizon whose goal the encoding folds
   to false (no CNF) is proved again the same way from the start;
3. the CNF of each horizon, **built again by this lab's encoder** from the start and the steps
   (:mod:`taolong_lab.solvers.sat.rebuild`), has the manifest's counts (variables, clauses,
   clauses per kind) and digest; a stored CNF is only a cache and must be the same bytes;
4. every DRAT proof refutes the rebuilt CNF and its goal unit, never a stored one
   (:func:`taolong_lab.solvers.sat.drat.check_drat`: the lab's compiled streaming checker, or
   dratify), within a memory budget;
5. the encoding is complete on a sample: seeded random engine-legal lines from the start (and
   the puzzle's winning line cut one turn short), forced into the top horizon's rebuilt CNF
   without its goal, each leave it satisfiable.

:func:`check` also ties the folder to a puzzle: the manifest's start is the puzzle's, its
horizons are every one from the start's lower bound to the optimum minus one (and the
certificate's ``unsat_horizons``), its settings are the certificate's. :func:`report` says, for
each horizon, what its claim rests on: the DRAT proof, the explicit search, or both. Every file
is hostile input: sizes are bounded before and while it is unpacked, every field is checked
before it is used, and the problems name the file and the field.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import State
from ..engine.solo import opponent_choices
from ..errors import TaoLongError
from ..files import MAX_INPUT_BYTES, InputFileError, read_bounded, read_chunks, write_atomic
from ..limits import MAX_PUZZLE_TURNS
from ..solvers.bounds import bound_params, lower_bound
from ..solvers.certificate import SatCertificate
from ..solvers.common import Budget
from ..solvers.explicit import OutOfBudget, win_within
from ..solvers.sat.drat import (
    ENGINES,
    MEMORY_BUDGET,
    ProofBudgetError,
    check_drat,
    dratify_native,
    resolve,
)
from ..solvers.sat.monk import config_of
from ..solvers.sat.proof import FORMAT, MANIFEST, STEPS, VERSION, cnf_name, drat_name
from ..solvers.sat.rebuild import (
    Rebuild,
    RebuildError,
    dead_end_of,
    playouts,
    refinement_of,
)

MAX_PACKED_BYTES = 1024 * 2**20
"""The largest compressed CNF or DRAT file read (1 GiB)."""
MAX_TEXT_BYTES = 4096 * 2**20
"""The most a CNF or DRAT file may unpack to (4 GiB): a bigger one is refused as it unpacks."""
MAX_MEANINGS = 20_000
"""The most refinements, and the most dead ends, a manifest may list."""
DEAD_END_BUDGET = 200_000
"""Positions the explicit search may expand to re-prove one dead end (or one folded horizon)."""
DEAD_END_TOTAL = 2_000_000
"""Positions the explicit search may expand for all the dead ends and folded horizons of one
proof together."""
SPOT_LINES = 8
"""Random engine-legal lines forced into a proof's top CNF (the completeness spot-check)."""
MAX_REPORTED = 20
"""Problems reported per kind; the rest are counted."""
CHUNK = 1 << 20

SETTINGS = ("sat_solver", "lookahead", "lower_bound", "damage_budget", "eliminate")

NOT_PRESENT = (
    "missing: a large proof, not shipped in the repository; `make proofs` makes every "
    "missing one (docs/proofs.md gives its cost)"
)
"""Why a proof folder a certificate names is missing here (``docs/proofs.md``)."""
CHECKED, FAILED, NO_PROOF, UNCHECKED = "checked", "FAILED", "none stored", "not checked"
"""What :func:`check_stored` says of a puzzle's proof (or :data:`NOT_PRESENT`)."""
NO_PROOF_SENTENCE = "no proof stored: its certificate names none"

DRAT, SEARCH, BOTH = "DRAT", "the explicit search", "DRAT and the explicit search"
"""What a horizon's claim rests on (:attr:`ProofReport.horizons`)."""


class ProofFileError(TaoLongError):
    """A proof file that cannot be read as one: names the file and why."""

    def __init__(self, name: str, reason: str):
        self.name, self.reason = name, reason
        super().__init__(f"{name}: {reason}")


class ProofNotPresentError(TaoLongError):
    """The proof folder a certificate names is not on this machine: nothing was checked (not a
    failed check)."""

    def __init__(self, where: str):
        self.where = where
        super().__init__(f"certificate.proof: {where}: {NOT_PRESENT}")


@dataclass
class ProofReport:
    """What checking one proof found.

    ``status``: :data:`CHECKED`, :data:`FAILED`, :data:`NOT_PRESENT`, :data:`NO_PROOF` or
    :data:`UNCHECKED` (a budget stopped it: ``problems`` says which); ``problems``: each names
    the file or field at fault; ``horizons``: ``(turns, what its claim rests on, why)`` for
    each UNSAT horizon checked (:data:`DRAT`, :data:`SEARCH` or :data:`BOTH`); ``checker``: the
    DRAT checker that ran; ``lines``: the engine lines forced into the rebuilt CNF."""

    status: str
    problems: list[str] = field(default_factory=list)
    horizons: list[tuple[int, str, str]] = field(default_factory=list)
    checker: str | None = None
    lines: int = 0


def check(puzzle, folder=None, **options) -> list[str]:
    """The problems with ``puzzle``'s stored proof (empty when it checks out): the problems
    of :func:`report`.

    Parameters
    ----------
    puzzle : Puzzle
        A solved puzzle whose certificate names its proof folder (``certificate.proof``).
    folder : path or None
        The proof folder; None: the one ``certificate.proof`` names.
    **options
        ``base``, ``budget``, ``engine``, ``progress`` and ``memory``, as :func:`report`'s.

    Returns
    -------
    list of str
        Each problem names the file or field at fault.

    Raises
    ------
    ProofNotPresentError, ProofBudgetError, TaoLongError
        As :func:`report`.
    """
    return report(puzzle, folder, **options).problems


def report(
    puzzle,
    folder=None,
    *,
    base=".",
    budget: int = DEAD_END_BUDGET,
    engine: str = "auto",
    progress: bool = False,
    memory: int = MEMORY_BUDGET,
) -> ProofReport:
    """What checking ``puzzle``'s stored proof finds.

    Parameters
    ----------
    puzzle : Puzzle
        A solved puzzle whose certificate names its proof folder (``certificate.proof``).
    folder : path or None
        The proof folder; None: the one ``certificate.proof`` names, relative to ``base``.
    base : path
        The folder of the puzzle's file.
    budget : int
        Positions the explicit search may expand to re-prove one dead-end nogood.
    engine : str
        The DRAT checker, one of :data:`~taolong_lab.solvers.sat.drat.ENGINES`.
    progress : bool
        Show a progress bar (tqdm).
    memory : int
        The DRAT checker's memory budget, in bytes.

    Returns
    -------
    ProofReport
        :data:`CHECKED` or :data:`FAILED`, the problems (each naming the file or field at
        fault), and what each horizon rests on.

    Raises
    ------
    ProofNotPresentError
        ``folder`` is None and the folder ``certificate.proof`` names is not there.
    ProofBudgetError
        A DRAT proof its checker cannot check within ``memory``.
    TaoLongError
        An unknown ``engine``, or one that is not installed.
    """
    resolve(engine)
    cert = puzzle.certificate or {}
    if folder is None:
        try:
            folder = named_folder(puzzle, base)
        except ProofFileError as exc:
            return ProofReport(FAILED, [str(exc)])
        if folder is None:
            return ProofReport(FAILED, ["certificate.proof: missing (no stored proof)"])
        if not folder.exists():
            raise ProofNotPresentError(cert["proof"])
    claim = puzzle.optimum or (len(puzzle.solution) if puzzle.solution else None)
    if claim is None:
        return ProofReport(FAILED, ["optimum: the puzzle claims no optimum for a proof to back"])
    manifest, problems = _manifest(Path(folder))
    if manifest is None:
        return ProofReport(FAILED, problems)
    problems += _tie(puzzle, cert, manifest, claim)
    if problems:
        return ProofReport(FAILED, problems)
    line = None
    if puzzle.solution and len(puzzle.solution) == claim:
        line = puzzle.line.states()[:-1]  # the winning line, cut one turn short
    return _check_manifest(Path(folder), manifest, _Options(budget, engine, progress, memory), line)


def check_stored(puzzle, base=".", **options) -> tuple[str, list[str]]:
    """What ``taolong verify --proof`` says of ``puzzle``'s stored proof, and its problems.

    Parameters
    ----------
    puzzle : Puzzle
        A puzzle of the file in ``base``.
    base : path
        The folder of the puzzle's file.
    **options
        ``budget``, ``engine``, ``progress`` and ``memory``, as :func:`check`'s.

    Returns
    -------
    tuple of (str, list of str)
        :data:`CHECKED` and no problem; :data:`FAILED` and each problem (naming the file or
        field at fault); :data:`UNCHECKED` and the budget that stopped it;
        :data:`NOT_PRESENT` (the folder its certificate names is not here) or :data:`NO_PROOF`
        (its certificate names none), and no problem.
    """
    found = stored_report(puzzle, base, **options)
    return found.status, found.problems


def stored_report(puzzle, base=".", **options) -> ProofReport:
    """:func:`check_stored`'s answer as a :class:`ProofReport` (with what each horizon rests
    on and the checker that ran).

    Parameters
    ----------
    puzzle : Puzzle
        A puzzle of the file in ``base``.
    base : path
        The folder of the puzzle's file.
    **options
        ``budget``, ``engine``, ``progress`` and ``memory``, as :func:`report`'s.

    Returns
    -------
    ProofReport
        Its status one of :data:`CHECKED`, :data:`FAILED`, :data:`UNCHECKED`,
        :data:`NOT_PRESENT` and :data:`NO_PROOF`.
    """
    if (puzzle.certificate or {}).get("proof") is None:
        return ProofReport(NO_PROOF)
    try:
        return report(puzzle, base=base, **options)
    except ProofNotPresentError:
        return ProofReport(NOT_PRESENT)
    except ProofBudgetError as exc:
        return ProofReport(UNCHECKED, [str(exc)])


def named_folder(puzzle, base=".") -> Path | None:
    """The proof folder ``puzzle``'s certificate names (None if it names none), whether it is
    there or not.

    Parameters
    ----------
    puzzle : Puzzle
        A puzzle.
    base : path
        The folder of the puzzle's file: the name is relative to it.

    Returns
    -------
    Path or None

    Raises
    ------
    ProofFileError
        ``certificate.proof`` is not a relative path of plain names (no ``..``).
    """
    where = (puzzle.certificate or {}).get("proof")
    if where is None:
        return None
    if not isinstance(where, str) or not _relative(where):
        reason = f"{repr(where)[:80]} is not a relative folder name"
        raise ProofFileError("certificate.proof", reason)
    return Path(base) / where


def check_folder(
    folder,
    *,
    budget: int = DEAD_END_BUDGET,
    engine: str = "auto",
    progress: bool = False,
    memory: int = MEMORY_BUDGET,
) -> list[str]:
    """The problems with the proof folder ``folder`` on its own, tied to no puzzle (items 1
    to 5 of the module docstring; the spot-check with random lines only).

    Parameters
    ----------
    folder : path
        A proof folder.
    budget, engine, progress, memory
        As :func:`check`'s.

    Returns
    -------
    list of str
        Each problem names the file or field at fault.

    Raises
    ------
    ProofBudgetError
        A DRAT proof its checker cannot check within ``memory``.
    TaoLongError
        An unknown ``engine``, or one that is not installed.
    """
    resolve(engine)
    manifest, problems = _manifest(Path(folder))
    if manifest is None:
        return problems
    options = _Options(budget, engine, progress, memory)
    return _check_manifest(Path(folder), manifest, options, None).problems


def native_engine() -> bool:
    """Whether dratify's Rust engine is there: ``cdclkit-native`` (the extra ``proofs``)
    hands it to dratify when imported."""
    return dratify_native()


def attach(path, puzzle_id: str, folder: str) -> None:
    """Record ``folder`` as the proof of puzzle ``puzzle_id`` in the ``.jsonl`` file ``path``:
    its ``certificate.proof``. Every other line, and every other field, is left as it is; the
    file is replaced atomically.

    Parameters
    ----------
    path : path
        A ``.jsonl`` puzzle file.
    puzzle_id : str
        The puzzle's id.
    folder : str
        The proof folder, relative to the file's folder (plain names, no ``..``).

    Raises
    ------
    ProofFileError
        ``folder`` is not such a relative path, or the file has no puzzle (or more than one)
        of that id with a certificate.
    """
    path = Path(path)
    if not _relative(folder):
        raise ProofFileError(folder, "not a relative folder name")
    lines = read_bounded(path).decode("utf-8").splitlines(keepends=True)
    found = 0
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        doc = json.loads(line)
        if doc.get("id") != puzzle_id:
            continue
        if not isinstance(doc.get("certificate"), dict):
            raise ProofFileError(str(path), f"puzzle {puzzle_id!r} has no certificate")
        doc["certificate"]["proof"] = folder
        lines[i] = json.dumps(doc, ensure_ascii=False, allow_nan=False) + "\n"
        found += 1
    if found != 1:
        raise ProofFileError(str(path), f"{found} puzzles with id {puzzle_id!r}, expected one")
    write_atomic(path, "".join(lines).encode("utf-8"))


# ---- reading ---------------------------------------------------------------------------------
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def _relative(where: str) -> bool:
    """A relative path of plain names (no ``..``, no absolute path)."""
    parts = where.split("/")
    return 0 < len(parts) <= 8 and all(_NAME.fullmatch(p) and p != ".." for p in parts)


def _manifest(folder: Path) -> tuple[dict | None, list[str]]:
    name = f"{folder.name}/{MANIFEST}"
    try:
        doc = json.loads(read_bounded(folder / MANIFEST, limit=MAX_INPUT_BYTES))
    except InputFileError as exc:
        return None, [f"{name}: {exc.reason}"]
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, [f"{name}: not JSON ({str(exc)[:120]})"]
    problems = _manifest_problems(doc)
    return (None if problems else doc), [f"{name}: {p}" for p in problems]


def _manifest_problems(doc) -> list[str]:
    """Every field of the manifest checked for its type before it is used."""
    if not isinstance(doc, dict):
        return ["not a JSON object"]
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        return [
            f"format/version: expected {FORMAT!r} {VERSION} (a proof of another format: make "
            "it again with this lab)"
        ]
    found = []
    if not isinstance(doc.get("start"), str):
        found.append("start: not a position (TLN)")
    if not isinstance(doc.get("settings"), dict):
        found.append("settings: not an object")
    steps = doc.get("steps")
    most_steps = 3 * MAX_PUZZLE_TURNS + 2 * MAX_MEANINGS
    if not (isinstance(steps, str) and len(steps) <= most_steps and set(steps) <= set(STEPS)):
        found.append(f"steps: not a string of at most {most_steps} letters of {STEPS!r}")
    for key in ("horizons", "refinements", "dead_ends"):
        rows = doc.get(key)
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            found.append(f"{key}: not a list of objects")
        elif len(rows) > (MAX_PUZZLE_TURNS if key == "horizons" else MAX_MEANINGS):
            found.append(f"{key}: {len(rows)} entries, too many")
    if found:
        return found
    last = (0, 0, 0)
    for i, row in enumerate(doc["horizons"]):
        found += _horizon_problems(doc, i, row, last)
        if all(_whole(row.get(k)) for k in ("turns", "refinements", "dead_ends")):
            last = (row["turns"], row["refinements"], row["dead_ends"])
    return found


def _horizon_problems(doc: dict, i: int, row: dict, last: tuple) -> list[str]:
    turns, refs, dead = row.get("turns"), row.get("refinements"), row.get("dead_ends")
    if not all(_whole(v) for v in (turns, refs, dead)) or turns > MAX_PUZZLE_TURNS:
        return [f"horizons[{i}]: turns, refinements and dead_ends must be whole numbers"]
    found = []
    if not (turns > last[0] and refs >= last[1] and dead >= last[2]):
        found.append(f"horizons[{i}]: turns and counts must grow from row to row")
    if refs > len(doc["refinements"]) or dead > len(doc["dead_ends"]):
        found.append(f"horizons[{i}]: counts more refinements or dead ends than listed")
    goal = row.get("goal")
    if goal is not False and not (_whole(goal, low=None) and goal != 0) and goal is not True:
        found.append(f"horizons[{i}].goal: {str(goal)[:40]} is not a literal or false")
    if goal is False:
        return found
    files = ((row.get("cnf"), cnf_name(turns)), (row.get("drat"), drat_name(turns)))
    for name, want in files:
        if name != want:
            found.append(f"horizons[{i}]: file {str(name)[:60]!r}, expected {want!r}")
    for key in ("cnf_sha256", "drat_sha256"):
        if not (isinstance(row.get(key), str) and re.fullmatch(r"[0-9a-f]{64}", row[key])):
            found.append(f"horizons[{i}].{key}: not a SHA-256 digest")
    kinds = row.get("kinds")
    if not (
        _whole(row.get("variables"))
        and _whole(row.get("clauses"))
        and isinstance(kinds, dict)
        and len(kinds) <= 8
        and all(_whole(v) for v in kinds.values())
    ):
        found.append(f"horizons[{i}]: variables, clauses and kinds must be whole numbers")
    return found


def _whole(value, low: int | None = 0) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or low <= value)
        and abs(value) < 2**40
    )


def _unpacked(folder: Path, name: str, digest) -> object:
    """The unpacked text of the gzip file ``folder/name`` in pieces, both sizes bounded;
    ``digest`` (a hashlib object) sees every piece."""
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    total = 0
    try:
        for packed in read_chunks(folder / name, limit=MAX_PACKED_BYTES, size=CHUNK):
            data = b"-"
            while packed or len(data) == CHUNK:  # a full piece: more may be waiting
                try:
                    data = inflate.decompress(packed, CHUNK)
                except zlib.error as exc:
                    raise ProofFileError(name, f"not gzip data ({exc})") from None
                total += len(data)
                if total > MAX_TEXT_BYTES:
                    raise ProofFileError(name, f"unpacks to more than {MAX_TEXT_BYTES:,} bytes")
                if inflate.unused_data:
                    raise ProofFileError(name, "more than one gzip member")
                packed = inflate.unconsumed_tail
                digest.update(data)
                yield data
    except InputFileError as exc:
        raise ProofFileError(name, exc.reason) from None
    if not inflate.eof:
        raise ProofFileError(name, "truncated gzip data")


# ---- the folder against the puzzle -----------------------------------------------------------
def _tie(puzzle, cert: dict, manifest: dict, claim: int) -> list[str]:
    """The manifest's start, horizons and settings against the puzzle and its certificate."""
    found = []
    start = puzzle.start
    if manifest["start"] != start.to_tln():
        found.append(f"{MANIFEST}: start: not the puzzle's start {start.to_tln()!r}")
        return found
    params = bound_params(start)
    h0 = lower_bound(start, params)
    want = list(range(max(1, int(min(h0, claim))), claim))
    turns = [row["turns"] for row in manifest["horizons"]]
    if turns != want:
        found.append(
            f"{MANIFEST}: horizons: {turns}, expected {want} (from the start's lower bound "
            f"{h0} to the optimum {claim} minus one)"
        )
    if cert.get("solver") == SatCertificate.SOLVER and cert.get("unsat_horizons") != turns:
        found.append(
            f"{MANIFEST}: horizons: {turns}, the certificate's unsat_horizons are "
            f"{cert.get('unsat_horizons')!r}"
        )
    settings = manifest["settings"]
    found += _settings_problems(start, settings)
    expected = {}
    if cert.get("solver") == SatCertificate.SOLVER:
        expected.update({key: cert.get(key) for key in SETTINGS if key in cert})
    for key, value in expected.items():
        if settings.get(key) != value:
            found.append(
                f"{MANIFEST}: settings.{key}: {str(settings.get(key))[:80]}, the puzzle's "
                f"certificate says {str(value)[:80]}"
            )
    return found


def _settings_problems(start: State, settings: dict) -> list[str]:
    """The settings this lab's encoder rebuilds with: the manifest must name the same."""
    params = bound_params(start)
    expected = {
        "lookahead": start.rules.option("solo_lookahead"),
        "lower_bound": params.to_json(),
        "damage_budget": params.exact_rules,
        "eliminate": True,
    }
    return [
        f"{MANIFEST}: settings.{key}: {str(settings.get(key))[:80]}, the start's is "
        f"{str(value)[:80]}"
        for key, value in expected.items()
        if settings.get(key) != value
    ]


# ---- the folder on its own ------------------------------------------------------------------
@dataclass(frozen=True)
class _Options:
    budget: int
    engine: str
    progress: bool
    memory: int


def _check_manifest(folder: Path, manifest: dict, options: _Options, line) -> ProofReport:
    try:
        start = State(manifest["start"])
    except TaoLongError as exc:
        return ProofReport(FAILED, [f"{MANIFEST}: start: {exc}"])
    problems = _settings_problems(start, manifest["settings"])
    if problems:
        return ProofReport(FAILED, problems)
    refs, dead, problems = _meanings(manifest, start)
    if problems:
        return ProofReport(FAILED, problems)
    horizons = manifest["horizons"]
    bar = _progress(options.progress, 2 * len(horizons) + len(refs) + len(dead))
    try:
        problems = _limited(_check_refinements(manifest["refinements"], refs, start, bar), "r")
        problems += _facts(start, horizons, dead, options.budget, bar)
        if problems:
            return ProofReport(FAILED, problems)
        return _check_rebuilt(folder, manifest, start, (refs, dead), options, line, bar)
    finally:
        if bar is not None:
            bar.close()


def _meanings(manifest: dict, start: State):
    """The refinements and nogoods as the solver holds them, or the problems of the rows."""
    refs, dead, problems = [], [], []
    for i, row in enumerate(manifest["refinements"]):
        try:
            refs.append(refinement_of(row, start, f"{MANIFEST}: refinements[{i}]"))
        except RebuildError as exc:
            problems.append(str(exc))
    for i, row in enumerate(manifest["dead_ends"]):
        try:
            dead.append(dead_end_of(row, start, f"{MANIFEST}: dead_ends[{i}]", MAX_PUZZLE_TURNS))
        except RebuildError as exc:
            problems.append(str(exc))
    return refs, dead, _limited(problems, "meanings")


def _facts(start: State, horizons, dead, budget: int, bar) -> list[str]:
    """The dead ends and the folded horizons re-proved by the explicit search, within
    ``budget`` positions each and :data:`DEAD_END_TOTAL` in all."""
    memo: dict = {}  # what the explicit searches proved, shared between them
    params = bound_params(start)
    total = Budget(None, DEAD_END_TOTAL)
    found = []
    for row in horizons:
        if row["goal"] is False:  # folded to false by the encoding: proved from the start
            no_win = _no_win(start, row["turns"], params, memo, budget, total)
            found += [f"horizon {row['turns']}: {p}" for p in no_win]
    for i, (walk, config, turns) in enumerate(dead):
        pos = _state(start, walk, config)
        no_win = _no_win(pos, turns, params, memo, budget, total)
        found += [f"{MANIFEST}: dead_ends[{i}]: {p}" for p in no_win]
        _tick(bar)
        if total.expanded >= DEAD_END_TOTAL:
            left = len(dead) - i - 1
            found.append(
                f"{MANIFEST}: dead_ends: the explicit search's budget for the whole proof "
                f"({DEAD_END_TOTAL:,} positions) is spent with {left} dead ends left"
            )
            break
    return _limited(found, "dead_ends")


def _state(start: State, walk, config) -> State:
    stacks, coin = (config[:-1], config[-1]) if start.tables.monk else (config, start.coin)
    return State.compose(start.tables, walk, stacks, coin, start.mover, start.ply)


def _no_win(state: State, turns: int, params, memo, budget: int, total: Budget) -> list[str]:
    """Problems unless the explicit search proves no win within ``turns`` from ``state``,
    within ``budget`` positions and what is left of ``total``."""
    left = max(0, total.max_states - total.expanded)
    run = Budget(None, min(budget, left))
    try:
        won = win_within(state, turns, params, run, memo)
    except OutOfBudget:
        total.expanded += run.expanded
        return [f"not re-proved within {run.max_states} positions (no win within {turns} turns)"]
    total.expanded += run.expanded
    return [f"a win within {turns} turns exists"] if won else []


def _check_refinements(rows, refs, start: State, bar):
    for i, (row, (ref, _)) in enumerate(zip(rows, refs, strict=True)):
        problem = _refinement_problem(row, ref, start, f"{MANIFEST}: refinements[{i}]")
        if problem:
            yield problem
        _tick(bar)


def _refinement_problem(row: dict, ref: tuple, start: State, field: str) -> str | None:
    """The refinement ``ref`` (the manifest's ``row``) against the engine's policy."""
    pos = State(row["position"])
    if ref[0] == "penalty":  # "no penalty here": some turn from this position takes none
        if any(not turn.phases[0].penalty for turn, _ in pos.successors()):
            return None
        return f"{field}: every turn from this position takes the penalty"
    _, _, (group, element), after, allowed = ref
    if after is not None:
        stacks, coin = (after[:-1], after[-1]) if start.tables.monk else (after, pos.coin)
        pos = State.compose(pos.tables, pos.board, tuple(stacks), coin, pos.mover, pos.ply)
    claimed = set(allowed)
    real = {o.position.board for o in opponent_choices(pos, list(group), pending=element)}
    if real - claimed:
        return (
            f"{field}: the opponent may end its group on {len(real - claimed)} board(s) the "
            "refinement leaves out (unsound)"
        )
    if claimed - real:
        return (
            f"{field}: {len(claimed - real)} of its boards are not the opponent's choices "
            "(the policy allows fewer)"
        )
    return None


def _check_rebuilt(folder, manifest, start, meanings, options, line, bar) -> ProofReport:
    """Items 3 to 5: the CNFs rebuilt, each DRAT proof checked against its rebuilt CNF, the
    spot-check, and what each horizon rests on."""
    rebuild = Rebuild(start, manifest["settings"], manifest["steps"], *meanings)
    try:
        rebuilt = rebuild.run(MAX_PUZZLE_TURNS)
    except RebuildError as exc:
        return ProofReport(FAILED, [f"{MANIFEST}: {exc}"])
    rows = manifest["horizons"]
    if [h.turns for h in rebuilt] != [row["turns"] for row in rows]:
        turns = [h.turns for h in rebuilt]
        return ProofReport(
            FAILED, [f"{MANIFEST}: steps: they prove horizons {turns}, the manifest lists others"]
        )
    found = ProofReport(CHECKED, checker=None)
    for h, row in zip(rebuilt, rows, strict=True):
        problems = _compare(folder, h, row)
        if not problems and h.goal is not False:
            problems, found.checker = _check_proof(folder, rebuild, h, row, options)
        found.problems += problems
        found.horizons.append((h.turns, *_rests_on(start, h, row, meanings[1])))
        _tick(bar)
    if found.problems:
        found.status = FAILED
        return found
    with_cnf = [h for h in rebuilt if h.goal is not False]
    if with_cnf:
        top = with_cnf[-1]
        lines = playouts(start, top.turns, SPOT_LINES, f"spot-check:{manifest['start']}")
        if line is not None:
            lines.append(line[: top.turns + 1])
        found.problems = rebuild.spot_check(top.end, top.turns, lines)
        found.lines = len(lines)
    found.status = FAILED if found.problems else CHECKED
    return found


def _compare(folder: Path, h, row: dict) -> list[str]:
    """The rebuilt horizon ``h`` against the manifest's row and the stored CNF (a cache)."""
    where = f"horizon {h.turns}"
    if h.goal is False or row["goal"] is False:
        if h.goal is not row["goal"]:
            return [f"{where}: the manifest's goal {row['goal']}, the rebuilt one {h.goal}"]
        return []
    for key in ("goal", "refinements", "dead_ends", "variables", "clauses", "kinds"):
        if row[key] != getattr(h, key):
            return [
                f"{where}: {key}: the manifest says {str(row[key])[:80]}, the CNF rebuilt here "
                f"has {str(getattr(h, key))[:80]}: not the CNF of this start and horizon"
            ]
    if row["cnf_sha256"] != h.sha256:
        return [f"{where}: the CNF rebuilt here is not the one the proof was for"]
    if (folder / row["cnf"]).exists():
        digest = hashlib.sha256()
        try:
            for _ in _unpacked(folder, row["cnf"], digest):
                pass
        except ProofFileError as exc:
            return [str(exc)]
        if digest.hexdigest() != h.sha256:
            return [f"{row['cnf']}: not the CNF rebuilt here (a stored CNF is only a cache)"]
    return []


def _check_proof(folder: Path, rebuild, h, row: dict, options: _Options):
    """The DRAT proof of horizon ``h`` against its rebuilt CNF: the problems, the checker."""
    name = row["drat"]
    digests = []

    def text():
        digest = hashlib.sha256()
        digests.append(digest)
        return _unpacked(folder, name, digest)

    try:
        result = check_drat(
            rebuild.log.arena[: h.end],
            h.variables,
            h.goal,
            text,
            engine=options.engine,
            memory=options.memory,
        )
    except ProofFileError as exc:
        return [str(exc)], None
    except ProofBudgetError as exc:
        raise ProofBudgetError(f"{name}: {exc}") from None
    except TaoLongError as exc:
        return [f"{name}: {exc}"], None
    if digests[-1].hexdigest() != row["drat_sha256"]:
        return [f"{name}: its SHA-256 is not the manifest's"], result.checker
    if not result.ok:
        return [f"{name}: the DRAT check failed: {result.reason}"], result.checker
    return [], result.checker


def _rests_on(start: State, h, row: dict, dead) -> tuple[str, str]:
    """What the claim of horizon ``h`` rests on, and why."""
    if h.goal is False:
        return SEARCH, "the encoding folds the goal to false: re-proved from the start"
    known = dead[: h.dead_ends]
    here = (start.board, config_of(start) if start.tables.monk else start.bagua)
    if any((walk, config) == here and r >= h.turns for walk, config, r in known):
        return SEARCH, "a dead-end nogood at the start for this horizon: the DRAT adds nothing"
    if known:
        return BOTH, "its CNF holds dead-end nogoods, each re-proved by the explicit search"
    return DRAT, "its CNF holds no dead-end nogood"


def _limited(problems, kind: str) -> list[str]:
    out = list(problems)
    if len(out) > MAX_REPORTED:
        out = [*out[:MAX_REPORTED], f"{MANIFEST}: {kind}: {len(out) - MAX_REPORTED} more problems"]
    return out


def _progress(enabled: bool, total: int):
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="check", leave=False)


def _tick(bar) -> None:
    if bar is not None:
        bar.update(1)


__all__ = [
    "BOTH",
    "CHECKED",
    "DEAD_END_BUDGET",
    "DEAD_END_TOTAL",
    "DRAT",
    "ENGINES",
    "FAILED",
    "MAX_MEANINGS",
    "MAX_PACKED_BYTES",
    "MAX_TEXT_BYTES",
    "NOT_PRESENT",
    "NO_PROOF",
    "NO_PROOF_SENTENCE",
    "SEARCH",
    "SPOT_LINES",
    "UNCHECKED",
    "ProofBudgetError",
    "ProofFileError",
    "ProofNotPresentError",
    "ProofReport",
    "attach",
    "check",
    "check_folder",
    "check_stored",
    "named_folder",
    "native_engine",
    "report",
    "stored_report",
]
