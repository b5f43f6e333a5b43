"""Checking the SAT solver's stored proofs (``docs/proofs.md``): what
``taolong verify --proof`` runs.

A proof folder (written by ``solve(..., method="sat", proof=FOLDER)``,
:mod:`taolong_lab.solvers.sat.proof`) holds, for each UNSAT horizon ``k``, the CNF the solver
was given with the goal ``won_k`` as a unit clause, and the DRAT proof that it has no model.
:func:`check_folder` checks that

1. every DRAT proof refutes its CNF, replayed by ``dratify`` (an independent checker installed
   from PyPI: none of this project's code takes part; its Rust engine when ``cdclkit-native``
   is installed, the extra ``proofs``, else its pure-Python one); each file's SHA-256 is the
   manifest's, its header names the manifest's start, horizon and settings, its last clause is
   the goal;
2. every CEGAR refinement the CNFs hold is a fact of the game: replayed in the engine
   (:func:`taolong_lab.engine.solo.opponent_choices` from its position: the opponent's
   choices end on exactly the boards it names; a penalty refinement: the position has a turn
   without the penalty);
3. every dead-end nogood is a fact of the game: no win within its turns from its position,
   proved again by the explicit solver's :func:`~taolong_lab.solvers.explicit.win_within`
   within a budget of positions;
4. a horizon whose goal the encoding folds to false (no CNF to prove) has no win either:
   proved again the same way from the start.

:func:`check` also ties the folder to a puzzle: the manifest's start is the puzzle's, its
horizons are every one from the start's lower bound to the optimum minus one (and the
certificate's ``unsat_horizons``), its settings are the certificate's. Every file is hostile
input: sizes are bounded before and while it is unpacked, every field is checked before it
is used, and the problems name the file and the field.
"""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

import dratify
from dratify import check_proof, parse_dimacs, to_dimacs

from ..engine import State
from ..engine.solo import opponent_choices
from ..errors import TaoLongError
from ..files import MAX_INPUT_BYTES, InputFileError, read_bounded, write_atomic
from ..solvers.bounds import bound_params, lower_bound
from ..solvers.certificate import SatCertificate
from ..solvers.common import Budget
from ..solvers.explicit import OutOfBudget, win_within
from ..solvers.sat.proof import FORMAT, MANIFEST, VERSION, cnf_header, cnf_name, drat_name, sha256
from .format import MAX_TURNS

MAX_PACKED_BYTES = 1024 * 2**20
"""The largest compressed CNF or DRAT file read (1 GiB)."""
MAX_TEXT_BYTES = 4096 * 2**20
"""The most a CNF or DRAT file may unpack to (4 GiB): a bigger one is refused as it unpacks."""
MAX_MEANINGS = 200_000
"""The most refinements, and the most dead ends, a manifest may list."""
DEAD_END_BUDGET = 200_000
"""Positions the explicit search may expand to re-prove one dead end (or one folded horizon)."""
MAX_REPORTED = 20
"""Problems reported per kind; the rest are counted."""

SETTINGS = ("sat_solver", "lookahead", "lower_bound", "damage_budget", "eliminate")
ENGINES = ("auto", "python", "native")
"""dratify's engines: ``"auto"`` is the Rust one when installed, else the Python one."""


NOT_PRESENT = "not present: run `make proofs` or unpack the release artefact"
"""Why a proof folder a certificate names is missing here: the large proofs are a release
artefact, not in the repository (``docs/proofs.md``)."""
CHECKED, FAILED, NO_PROOF = "checked", "FAILED", "none stored"
"""What :func:`check_stored` says of a puzzle's proof (or :data:`NOT_PRESENT`)."""


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


def check(
    puzzle,
    folder=None,
    *,
    base=".",
    budget: int = DEAD_END_BUDGET,
    engine: str = "auto",
    progress: bool = False,
) -> list[str]:
    """The problems with ``puzzle``'s stored proof (empty when it checks out).

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
        dratify's engine, one of :data:`ENGINES` (:func:`native_engine` says whether the Rust
        one is there).
    progress : bool
        Show a progress bar (tqdm).

    Returns
    -------
    list of str
        Each problem names the file or field at fault.

    Raises
    ------
    ProofNotPresentError
        ``folder`` is None and the folder ``certificate.proof`` names is not there.
    TaoLongError
        An unknown ``engine``, or ``"native"`` without the Rust engine installed.
    """
    _engine(engine)
    cert = puzzle.certificate or {}
    if folder is None:
        try:
            folder = named_folder(puzzle, base)
        except ProofFileError as exc:
            return [str(exc)]
        if folder is None:
            return ["certificate.proof: missing (no stored proof)"]
        if not folder.exists():
            raise ProofNotPresentError(cert["proof"])
    claim = puzzle.optimum or (len(puzzle.solution) if puzzle.solution else None)
    if claim is None:
        return ["optimum: the puzzle claims no optimum for a proof to back"]
    manifest, problems = _manifest(Path(folder))
    if manifest is None:
        return problems
    problems += _tie(puzzle, cert, manifest, claim)
    if problems:
        return problems
    return _check_manifest(Path(folder), manifest, budget, engine, progress)


def check_stored(puzzle, base=".", **options) -> tuple[str, list[str]]:
    """What ``taolong verify --proof`` says of ``puzzle``'s stored proof, and its problems.

    Parameters
    ----------
    puzzle : Puzzle
        A puzzle of the file in ``base``.
    base : path
        The folder of the puzzle's file.
    **options
        ``budget``, ``engine`` and ``progress``, as :func:`check`'s.

    Returns
    -------
    tuple of (str, list of str)
        :data:`CHECKED` and no problem; :data:`FAILED` and each problem (naming the file or
        field at fault); :data:`NOT_PRESENT` (the folder its certificate names is not here) or
        :data:`NO_PROOF` (its certificate names none), and no problem.
    """
    if (puzzle.certificate or {}).get("proof") is None:
        return NO_PROOF, []
    try:
        problems = check(puzzle, base=base, **options)
    except ProofNotPresentError:
        return NOT_PRESENT, []
    return (FAILED, problems) if problems else (CHECKED, [])


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
    folder, *, budget: int = DEAD_END_BUDGET, engine: str = "auto", progress: bool = False
) -> list[str]:
    """The problems with the proof folder ``folder`` on its own, tied to no puzzle: its DRAT
    proofs, refinements and dead ends (items 1 to 3 of the module docstring).

    Parameters
    ----------
    folder : path
        A proof folder.
    budget, engine, progress
        As :func:`check`'s.

    Returns
    -------
    list of str
        Each problem names the file or field at fault.

    Raises
    ------
    TaoLongError
        An unknown ``engine``, or ``"native"`` without the Rust engine installed.
    """
    _engine(engine)
    manifest, problems = _manifest(Path(folder))
    if manifest is None:
        return problems
    return _check_manifest(Path(folder), manifest, budget, engine, progress)


def native_engine() -> bool:
    """Whether dratify's Rust engine is there: ``cdclkit-native`` (the extra ``proofs``)
    hands it to dratify when imported."""
    try:
        import cdclkit.native  # noqa: F401  (registers the Rust checker with dratify)
    except ImportError:
        return False
    return dratify.native_available()


def _engine(engine: str) -> None:
    """Check ``engine``; for ``"auto"`` and ``"native"``, have the Rust engine registered."""
    if engine not in ENGINES:
        raise TaoLongError(f"engine: {engine!r} is not one of {', '.join(ENGINES)}")
    native = engine != "python" and native_engine()
    if engine == "native" and not native:
        raise TaoLongError("engine: 'native' needs cdclkit-native (the extra 'proofs')")


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
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        return None, [f"{name}: not JSON ({str(exc)[:120]})"]
    problems = _manifest_problems(doc)
    return (None if problems else doc), [f"{name}: {p}" for p in problems]


def _manifest_problems(doc) -> list[str]:
    """Every field of the manifest checked for its type before it is used."""
    if not isinstance(doc, dict):
        return ["not a JSON object"]
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        return [f"format/version: expected {FORMAT!r} {VERSION}"]
    found = []
    if not isinstance(doc.get("start"), str):
        found.append("start: not a position (TLN)")
    if not isinstance(doc.get("settings"), dict):
        found.append("settings: not an object")
    for key in ("horizons", "refinements", "dead_ends"):
        rows = doc.get(key)
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            found.append(f"{key}: not a list of objects")
        elif len(rows) > (MAX_TURNS if key == "horizons" else MAX_MEANINGS):
            found.append(f"{key}: {len(rows)} entries, too many")
    if found:
        return found
    last = (0, 0, 0)
    for i, row in enumerate(doc["horizons"]):
        turns, refs, dead = row.get("turns"), row.get("refinements"), row.get("dead_ends")
        if not all(_whole(v) for v in (turns, refs, dead)):
            found.append(f"horizons[{i}]: turns, refinements and dead_ends must be whole numbers")
            continue
        if not (turns > last[0] and refs >= last[1] and dead >= last[2]):
            found.append(f"horizons[{i}]: turns and counts must grow from row to row")
        if refs > len(doc["refinements"]) or dead > len(doc["dead_ends"]):
            found.append(f"horizons[{i}]: counts more refinements or dead ends than listed")
        goal = row.get("goal")
        if goal is not False and not (_whole(goal, low=None) and goal != 0) and goal is not True:
            found.append(f"horizons[{i}].goal: {str(goal)[:40]} is not a literal or false")
        if goal is not False:
            files = ((row.get("cnf"), cnf_name(turns)), (row.get("drat"), drat_name(turns)))
            for name, want in files:
                if name != want:
                    found.append(f"horizons[{i}]: file {str(name)[:60]!r}, expected {want!r}")
            for key in ("cnf_sha256", "drat_sha256"):
                if not (isinstance(row.get(key), str) and re.fullmatch(r"[0-9a-f]{64}", row[key])):
                    found.append(f"horizons[{i}].{key}: not a SHA-256 digest")
        last = (turns, refs, dead)
    return found


def _whole(value, low: int | None = 0) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or low <= value)
        and abs(value) < 2**40
    )


def _unpacked(folder: Path, name: str) -> bytes:
    """The unpacked bytes of the gzip file ``folder/name``, both sizes bounded."""
    try:
        packed = read_bounded(folder / name, limit=MAX_PACKED_BYTES)
    except InputFileError as exc:
        raise ProofFileError(name, exc.reason) from None
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        data = inflate.decompress(packed, MAX_TEXT_BYTES + 1)
    except zlib.error as exc:
        raise ProofFileError(name, f"not gzip data ({exc})") from None
    if len(data) > MAX_TEXT_BYTES:
        raise ProofFileError(name, f"unpacks to more than {MAX_TEXT_BYTES:,} bytes")
    if not inflate.eof or inflate.unused_data:
        raise ProofFileError(name, "truncated gzip data, or more than one gzip member")
    return data


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        raise ProofFileError(name, "not ASCII text") from None


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
    expected = {
        "lookahead": start.rules.option("solo_lookahead"),
        "lower_bound": params.to_json(),
    }
    if cert.get("solver") == SatCertificate.SOLVER:
        expected.update({key: cert.get(key) for key in SETTINGS if key in cert})
    for key, value in expected.items():
        if settings.get(key) != value:
            found.append(
                f"{MANIFEST}: settings.{key}: {str(settings.get(key))[:80]}, the puzzle's "
                f"{'certificate says' if key in cert else 'is'} {str(value)[:80]}"
            )
    return found


# ---- the folder on its own ------------------------------------------------------------------
def _check_manifest(folder: Path, manifest: dict, budget, engine, progress) -> list[str]:
    try:
        start = State(manifest["start"])
    except TaoLongError as exc:
        return [f"{MANIFEST}: start: {exc}"]
    horizons = manifest["horizons"]
    refs = max((row["refinements"] for row in horizons), default=0)
    dead = max((row["dead_ends"] for row in horizons), default=0)
    bar = _progress(progress, len(horizons) + refs + dead)
    problems: list[str] = []
    memo: dict = {}  # what the explicit searches proved, shared between them
    params = bound_params(start)
    try:
        for row in horizons:
            problems += _check_horizon(folder, manifest, start, row, params, memo, budget, engine)
            _tick(bar)
        problems += _limited(
            _check_refinements(manifest["refinements"][:refs], start, bar), "refinements"
        )
        problems += _limited(
            _check_dead_ends(manifest["dead_ends"][:dead], start, params, memo, budget, bar),
            "dead_ends",
        )
    finally:
        if bar is not None:
            bar.close()
    return problems


def _check_horizon(folder, manifest, start, row, params, memo, budget, engine) -> list[str]:
    turns = row["turns"]
    where = f"horizon {turns}"
    if row["goal"] is False:  # folded to false by the encoding: prove it again from the start
        return [f"{where}: {p}" for p in _no_win(start, turns, params, memo, budget)]
    try:
        cnf = _unpacked(folder, row["cnf"])
        if sha256(cnf) != row["cnf_sha256"]:
            return [f"{row['cnf']}: its SHA-256 is not the manifest's"]
        cnf_text = _text(cnf, row["cnf"])
        del cnf
        drat = _unpacked(folder, row["drat"])
        if sha256(drat) != row["drat_sha256"]:
            return [f"{row['drat']}: its SHA-256 is not the manifest's"]
        drat_text = _text(drat, row["drat"])
        del drat
    except ProofFileError as exc:
        return [str(exc)]
    found = _header_problems(cnf_text, manifest, turns, row["cnf"])
    if found:
        return found
    try:
        formula = parse_dimacs(cnf_text, strict=True)
    except ValueError as exc:
        return [f"{row['cnf']}: not DIMACS ({str(exc)[:160]})"]
    del cnf_text
    goal = row["goal"]
    if goal is not True:
        last = list(formula.clauses[-1]) if formula.clauses else []
        if len(last) != 1 or to_dimacs(last[0]) != goal:
            return [f"{row['cnf']}: the last clause is not the goal's unit clause {goal} 0"]
    try:
        result = check_proof(formula, drat_text, engine=engine)
    except ValueError as exc:
        return [f"{row['drat']}: not a DRAT proof ({str(exc)[:160]})"]
    if not (result.ok and result.reached_empty):
        return [f"{row['drat']}: the DRAT check failed: {result.reason}"]
    return []


def _header_problems(text: str, manifest: dict, turns: int, name: str) -> list[str]:
    want = [f"c {line}" for line in cnf_header(manifest["start"], turns, manifest["settings"])]
    head = text[: sum(len(line) + 1 for line in want)].split("\n")[: len(want)]
    if head != want:
        return [f"{name}: its header does not name the manifest's start, horizon and settings"]
    return []


def _no_win(state: State, turns: int, params, memo, budget: int) -> list[str]:
    """Problems unless the explicit search proves no win within ``turns`` from ``state``."""
    try:
        won = win_within(state, turns, params, Budget(None, budget), memo)
    except OutOfBudget:
        return [f"not re-proved within {budget} positions (no win within {turns} turns)"]
    return [f"a win within {turns} turns exists"] if won else []


def _position(text, start: State, field: str) -> State:
    if not isinstance(text, str):
        raise ProofFileError(field, "not a position (TLN)")
    try:
        state = State(text)
    except TaoLongError as exc:
        raise ProofFileError(field, str(exc)) from None
    if state.rules != start.rules or state.mover != start.mover:
        raise ProofFileError(field, "not a position of the start's game, the player to move")
    return state


def _check_refinements(rows, start: State, bar):
    for i, row in enumerate(rows):
        field = f"{MANIFEST}: refinements[{i}]"
        try:
            problem = _refinement_problem(row, start, field)
        except ProofFileError as exc:
            problem = str(exc)
        if problem:
            yield problem
        _tick(bar)


def _refinement_problem(row: dict, start: State, field: str) -> str | None:
    kind = row.get("kind")
    pos = _position(row.get("position"), start, f"{field}.position")
    if kind == "penalty":  # "no penalty here": some turn from this position takes none
        if any(not turn.phases[0].penalty for turn, _ in pos.successors()):
            return None
        return f"{field}: every turn from this position takes the penalty"
    if kind not in ("group", "focus"):
        return f"{field}.kind: {str(kind)[:40]!r} is not 'group', 'focus' or 'penalty'"
    group, element = row.get("group"), row.get("element")
    after, ends = row.get("after"), row.get("ends")
    ring = len(start.bagua)
    if not (
        isinstance(group, list)
        and 0 < len(group) <= ring
        and all(_whole(g) and g < ring for g in group)
        and _whole(element, low=-1)
        and element < ring
        and (kind == "group" or len(group) == 1)
    ):
        return f"{field}: group and element must be Ba Gua space indices (a focus: one space)"
    if after is not None:
        if not (
            isinstance(after, list)
            and len(after) == ring
            and all(isinstance(s, str) and len(s) <= 16 and set(s) <= {"W", "B"} for s in after)
        ):
            return f"{field}.after: not {ring} stacks of 'W' and 'B'"
        coin = row.get("after_coin", pos.coin)
        if coin not in (0, 1) or isinstance(coin, bool):
            return f"{field}.after_coin: {str(coin)[:40]} is not a flux coin (0 or 1)"
        pos = State.compose(pos.tables, pos.board, tuple(after), coin, pos.mover, pos.ply)
    if not isinstance(ends, list) or len(ends) > 10_000:
        return f"{field}.ends: not a list of positions"
    claimed = {_position(e, start, f"{field}.ends[{j}]").board for j, e in enumerate(ends)}
    real = {o.position.board for o in opponent_choices(pos, group, pending=element)}
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


def _check_dead_ends(rows, start: State, params, memo, budget: int, bar):
    for i, row in enumerate(rows):
        field = f"{MANIFEST}: dead_ends[{i}]"
        turns = row.get("turns")
        try:
            pos = _position(row.get("position"), start, f"{field}.position")
        except ProofFileError as exc:
            yield str(exc)
            continue
        if not _whole(turns) or turns > MAX_TURNS:
            yield f"{field}.turns: {str(turns)[:40]} is not a whole number of turns"
            continue
        for p in _no_win(pos, turns, params, memo, budget):
            yield f"{field}: {p}"
        _tick(bar)


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
    "CHECKED",
    "DEAD_END_BUDGET",
    "ENGINES",
    "FAILED",
    "MAX_MEANINGS",
    "MAX_PACKED_BYTES",
    "MAX_TEXT_BYTES",
    "NOT_PRESENT",
    "NO_PROOF",
    "ProofFileError",
    "ProofNotPresentError",
    "attach",
    "check",
    "check_folder",
    "check_stored",
    "named_folder",
    "native_engine",
]
