"""Solo challenges as files: the ``Puzzle`` value, its JSON form, and puzzle files.

A puzzle is one JSON object (``docs/puzzles.md`` describes every field; ``data/puzzle.schema.json``
is its JSON Schema). A set of puzzles is a JSON Lines file (``.jsonl``, one object a line) or a
JSON file (``.json``, one object or a list of them).

Reading checks everything: the structure against the schema, then the meaning (the rules, the
TLN start position, that the two agree, and, unless told not to, that the solution is legal and
wins). Every problem is collected as ``(line, field, reason)``; :func:`load_puzzles` raises one
:class:`PuzzleError` listing them all, or with ``errors="skip"`` returns the good puzzles.
Writing (:func:`save_puzzles`) is atomic: a temporary file in the same directory, then a rename.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ..engine import Line, State
from ..errors import IllegalTurnError, PuzzleError, RulesError, TaoLongError
from ..files import append_bytes, read_bounded, write_atomic
from ..rules import COLOURS, EDITIONS, MODES, Rules, data_dir, scenario_names
from ..rules.data import (
    STRICT_DECODER,
    BoundError,
    check_bounds,
    decode_json,
    json_problem,
    shown,
)
from ..rules.options import check_option
from .grade import tier_of

FORMAT = "taolong-puzzle"
VERSION = 1
SCHEMA_FILE = "puzzle.schema.json"
OPTIONAL = ("optimum", "solution", "certificate", "difficulty", "provenance")

# The migration hook: MIGRATIONS[n] turns a version-n document into a version n+1 document.
# Version 1 is the first version, so there is nothing to migrate yet.
MIGRATIONS: dict[int, Callable[[dict], dict]] = {}


class Problem(NamedTuple):
    """One problem in a puzzle file: its line (None for the whole file), field and reason."""

    line: int | None
    field: str
    reason: str


# ---- the value ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Puzzle:
    """A solo challenge: a start position, the dragon the player controls, and the goal.

    ``rules`` must be the start position's rules, and solo; ``player`` its side to move.
    ``solution`` holds turns in turn notation (a :class:`~taolong_lab.Line` given is kept as
    its notation). ``certificate``, ``difficulty`` and
    ``provenance`` are JSON objects, copied on construction (a solver's typed certificate is
    taken as its ``to_json()``). Constructing a Puzzle checks its fields (raising
    :class:`PuzzleError`) but does not replay the solution: :meth:`from_json` and
    :func:`load_puzzles` do.
    """

    id: str
    title: str
    rules: Rules
    start: State
    player: str
    goal: str = "win"
    optimum: int | None = None
    solution: tuple[str, ...] | None = None
    certificate: dict | None = field(default=None, hash=False)
    difficulty: dict | None = field(default=None, hash=False)
    provenance: dict | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        where = f"puzzle {shown(self.id, 120)}"
        if not isinstance(self.rules, Rules):
            raise PuzzleError(
                where, [(None, "rules", f"expected a Rules, got {shown(self.rules, 200)}")]
            )
        if not isinstance(self.start, State):
            raise PuzzleError(
                where, [(None, "start", f"expected a State, got {shown(self.start, 200)}")]
            )
        if isinstance(self.solution, Line):
            object.__setattr__(self, "solution", tuple(self.solution.notation()))
        elif isinstance(self.solution, list):
            object.__setattr__(self, "solution", tuple(self.solution))
        elif self.solution is not None and not isinstance(self.solution, tuple):
            reason = f"expected a list of turns, got {shown(self.solution, 200)}"
            raise PuzzleError(where, [(None, "solution", reason)])
        for name in ("id", "title", "player", "goal", "optimum", "solution"):
            try:
                check_bounds(getattr(self, name))
            except BoundError as exc:
                field = name + ("" if exc.path.startswith("[") or not exc.path else ".") + exc.path
                raise PuzzleError(where, [(None, field, exc.reason)]) from None
        for name in ("certificate", "difficulty", "provenance"):
            value = getattr(self, name)
            if value is None:
                continue
            if name == "certificate" and hasattr(value, "to_json"):
                value = value.to_json()  # a solver's typed certificate
            try:  # a private copy, and a check that it is plain JSON
                check_bounds(value)
                copied = json.loads(json.dumps(value, allow_nan=False))
            except (TypeError, ValueError) as exc:
                raise PuzzleError(where, [(None, name, f"not plain JSON: {exc}")]) from None
            object.__setattr__(self, name, copied)
        found = _schema_problems(self.to_json())
        player = self.player if self.player in COLOURS else None  # else the schema says why
        found += _consistency(self.rules, self.start, player, self.certificate)
        if found:
            raise PuzzleError(where, [(None, f, r) for f, r in _in_field_order(found)])

    @classmethod
    def from_state(cls, id: str, title: str, start: State, **fields) -> Puzzle:
        """A puzzle whose rules and player are read from the solo position ``start``.

        Parameters
        ----------
        id, title : str
            The puzzle's id (letters, digits, ``-`` and ``_``) and title.
        start : State
            A solo position, the player to move.
        **fields
            ``goal``, ``optimum``, ``solution``, ``certificate``, ``difficulty``,
            ``provenance``.

        Returns
        -------
        Puzzle

        Raises
        ------
        PuzzleError
            Naming every field at fault.

        >>> from taolong_lab import solo_game
        >>> Puzzle.from_state("p", "A start", solo_game()).player
        'white'
        """
        return cls(id, title, start.rules, start, start.to_move, **fields)

    @property
    def tier(self) -> str | None:
        """The tier of the optimum (:func:`~.grade.tier_of`), None without an optimum."""
        return tier_of(self.optimum) if self.optimum else None

    def __str__(self) -> str:
        """A one-line summary: the id, title, rules, player, optimum and tier.

        >>> from taolong_lab import solo_game
        >>> print(Puzzle.from_state("p1", "A start", solo_game(), optimum=7))
        puzzle p1 'A start': field/grasshopper, white to win; optimum 7 (advanced)
        """
        best = "optimum unknown" if self.optimum is None else f"optimum {self.optimum}"
        tier = f" ({self.tier})" if self.tier else ""
        return (
            f"puzzle {self.id} {shown(self.title, 60)}: {self.rules.scenario}/{self.rules.mode}, "
            f"{self.player} to {self.goal}; {best}{tier}"
        )

    # ---- JSON -------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The puzzle's JSON object (a dict ``json.dumps`` can write), keys in a fixed order."""
        options = {
            "solo_lookahead": self.rules.option("solo_lookahead"),
            **dict(self.rules.options),
        }
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "id": self.id,
            "title": self.title,
            "rules": {
                "scenario": self.rules.scenario,
                "mode": self.rules.mode,
                "edition": self.rules.edition,
                "options": dict(sorted(options.items())),
            },
            "start": self.start.to_tln(),
            "player": self.player,
            "goal": self.goal,
        }
        for name in OPTIONAL:
            value = getattr(self, name)
            if value is not None:
                doc[name] = list(value) if name == "solution" else json.loads(json.dumps(value))
        return doc

    @classmethod
    def from_json(cls, doc: dict | str, *, check_solutions: bool = True) -> Puzzle:
        """Read a puzzle from its JSON object.

        Parameters
        ----------
        doc : dict or str
            The object, or its JSON text.
        check_solutions : bool
            Replay the stored solution.

        Returns
        -------
        Puzzle

        Raises
        ------
        PuzzleError
            Naming every problem.
        """
        where = "puzzle"
        if isinstance(doc, str):
            try:
                doc = _loads(doc)
            except ValueError as exc:
                raise PuzzleError(where, [(None, *json_problem(exc))]) from None
        if isinstance(doc, dict) and isinstance(doc.get("id"), str):
            where = f"puzzle {doc['id']!r}"
        puzzle, found = _read_doc(doc, check_solutions)
        if found:
            raise PuzzleError(where, [(None, f, r) for f, r in found])
        return puzzle

    @property
    def line(self) -> Line | None:
        """The solution as a :class:`~taolong_lab.Line` from the start (None without one); an
        :class:`~taolong_lab.errors.IllegalTurnError` for a turn that is not legal there."""
        return None if self.solution is None else Line(self.start, self.solution)

    def replay(self) -> list[State]:
        """The positions after each turn of the solution (empty without one); an
        :class:`~taolong_lab.errors.IllegalTurnError` for a turn that is not legal there."""
        return Line(self.start, self.solution or ()).states()[1:]


# ---- reading one document -------------------------------------------------------------------
def _read_doc(doc: Any, check_solutions: bool) -> tuple[Puzzle | None, list[tuple[str, str]]]:
    """Check one JSON document; return the puzzle (None if anything is wrong) and the problems
    as ``(field, reason)``."""
    if not isinstance(doc, dict):
        return None, [("json", f"a puzzle is a JSON object, not {_json_type(doc)}")]
    try:
        check_bounds(doc)
    except BoundError as exc:
        return None, [(exc.path or "json", exc.reason)]
    if doc.get("format") != FORMAT:
        got = "missing" if "format" not in doc else f"got {_show(doc['format'])}"
        return None, [("format", f"must be {FORMAT!r} ({got})")]
    try:
        doc = migrate(doc)
    except PuzzleError as exc:
        return None, [(f, r) for _, f, r in exc.problems]
    found = _schema_problems(doc)
    bad = {_root(f) for f, _ in found}
    rules = start = None
    if "rules" not in bad:
        rules, more = _read_rules(doc["rules"])
        found += more
    if "start" not in bad:
        start, more = _read_start(doc["start"])
        found += more
    if rules is not None and start is not None:
        player = None if "player" in bad else doc["player"]
        certificate = None if "certificate" in bad else doc.get("certificate")
        found += _consistency(rules, start, player, certificate)
    if found:
        return None, _in_field_order(found)
    if check_solutions and doc.get("solution") is not None:
        found += _replay(start, doc["player"], doc["solution"], doc.get("optimum"))
        if found:
            return None, found
    fields = {name: doc.get(name) for name in OPTIONAL}
    return Puzzle(doc["id"], doc["title"], rules, start, doc["player"], doc["goal"], **fields), []


def migrate(doc: dict) -> dict:
    """Bring a document of an older format version up to :data:`VERSION` through
    :data:`MIGRATIONS`. Raises :class:`PuzzleError` (field ``version``) for a version this
    taolong_lab cannot read."""
    version = doc.get("version")
    if "version" not in doc:
        raise PuzzleError("puzzle", [(None, "version", "missing")])
    if isinstance(version, bool) or not isinstance(version, int):
        raise PuzzleError(
            "puzzle", [(None, "version", f"must be a whole number, got {_show(version)}")]
        )
    if version > VERSION:
        raise PuzzleError(
            "puzzle",
            [
                (
                    None,
                    "version",
                    f"version {_show(version)} is newer than this taolong_lab reads "
                    f"(up to {VERSION}); "
                    "upgrade taolong_lab",
                )
            ],
        )
    while version < VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            oldest = min(MIGRATIONS, default=VERSION)
            raise PuzzleError(
                "puzzle",
                [
                    (
                        None,
                        "version",
                        f"version {_show(version)} is not supported (from {oldest} on)",
                    )
                ],
            )
        doc = step(dict(doc))
        if doc.get("version") != version + 1:
            raise PuzzleError(
                "puzzle",
                [
                    (
                        None,
                        "version",
                        f"the migration from version {version} did not give version {version + 1}",
                    )
                ],
            )
        version += 1
    return doc


def _read_rules(node: dict) -> tuple[Rules | None, list[tuple[str, str]]]:
    found = []
    scenario, mode, edition = node["scenario"], node["mode"], node["edition"]
    options = node.get("options", {})
    if scenario not in scenario_names():
        known = ", ".join(scenario_names())
        found.append(("rules.scenario", f"unknown scenario {scenario!r}; available: {known}"))
    if mode not in MODES:
        found.append(("rules.mode", f"unknown mode {mode!r}; choose one of {', '.join(MODES)}"))
    if edition not in EDITIONS:
        found.append(
            ("rules.edition", f"unknown edition {edition!r}; choose one of {', '.join(EDITIONS)}")
        )
    for name, value in options.items():
        try:
            check_option(name, value)
        except RulesError as exc:
            found.append((f"rules.options.{name}", str(exc)))
    if found:
        return None, found
    try:
        return Rules(scenario, mode, edition, True, tuple(options.items())), []
    except RulesError as exc:
        return None, [("rules", str(exc))]


def _read_start(tln: str) -> tuple[State | None, list[tuple[str, str]]]:
    try:
        return State.from_tln(tln), []
    except TaoLongError as exc:
        sub = getattr(exc, "field", None)
        reason = getattr(exc, "reason", str(exc))
        return None, [("start" if sub in (None, "tln") else f"start.{sub}", reason)]


def _consistency(rules: Rules, start: State, player, certificate) -> list[tuple[str, str]]:
    """The rules object, the TLN and the player agree; the game is not over yet."""
    found = []
    if not start.rules.solo:
        found.append(
            ("start.rules", f"{start.rules.token()!r} is not a solo position (no '/solo')")
        )
    elif start.rules != rules:
        found.append(
            (
                "start.rules",
                f"the position's rules {start.rules.token()!r} differ from the puzzle's "
                f"rules {rules.token()!r}",
            )
        )
    if not rules.solo:
        found.append(("rules", f"{rules.token()!r} is not the solo variant"))
    if player is not None and start.to_move != player:
        found.append(
            ("player", f"the position's side is {start.to_move!r}, the puzzle's player {player!r}")
        )
    result = start.outcome()
    if result is not None:
        found.append(("start", f"the game is already over: {result}"))
    if isinstance(certificate, dict) and "lookahead" in certificate and rules.solo:
        used = rules.option("solo_lookahead")
        if certificate["lookahead"] != used:
            found.append(
                (
                    "certificate.lookahead",
                    f"the certificate used {certificate['lookahead']!r}, the puzzle's rules "
                    f"say solo_lookahead={used!r}",
                )
            )
    return found


def _replay(start: State, player: str, solution, optimum) -> list[tuple[str, str]]:
    """Play the solution from the start: every turn legal, and a win for the player."""
    try:
        state = Line(start, solution).end
    except IllegalTurnError as exc:
        why = exc.reason.removeprefix(f"turn {exc.number}: ")
        return [(f"solution[{exc.number - 1}]", f"turn {exc.number} ({exc.turn!r}): {why}")]
    result, turns = state.outcome(), len(solution)
    if result is None:
        return [("solution", f"the game is not over after its {turns} turns")]
    if result.winner != player:
        return [("solution", f"the solution loses: {result}")]
    if optimum is not None and turns < optimum:
        return [
            ("optimum", f"solution has {turns} turns, fewer than the claimed optimum {optimum}")
        ]
    if optimum is not None and turns > optimum:
        return [("solution", f"solution has {turns} turns, optimum claims {optimum}")]
    return []


# ---- the schema -----------------------------------------------------------------------------
@functools.cache
def schema() -> dict:
    """The JSON Schema of one puzzle object (``data/puzzle.schema.json``)."""
    with (data_dir() / SCHEMA_FILE).open(encoding="utf-8") as handle:
        return json.load(handle)


def _pattern(validator, pattern, instance, schema):
    """``pattern`` as JSON Schema (ECMA-262) reads it: a final ``$`` is the end of the text,
    where Python's ``re`` would also match before a final newline."""
    if validator.is_type(instance, "string"):
        whole = pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern
        if not re.search(whole, instance):
            from jsonschema import ValidationError

            yield ValidationError(f"{_show(instance)} does not match {pattern!r}")


@functools.cache
def _validator():
    from jsonschema import Draft202012Validator, FormatChecker, validators

    checker = validators.extend(Draft202012Validator, {"pattern": _pattern})
    return checker(schema(), format_checker=FormatChecker(formats=("date",)))


def _field(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@functools.cache
def _fast_validator():
    """The schema compiled to Python once (fastjsonschema, which reads a pattern's final
    ``$`` and the ``date`` format as :func:`_validator` does). It only says whether a
    document fits: the problems of one that does not come from :func:`_validator`."""
    import fastjsonschema

    return fastjsonschema.compile(schema())


def _schema_problems(doc: dict) -> list[tuple[str, str]]:
    """Structural problems, as (field, reason), in the order of the fields."""
    from fastjsonschema import JsonSchemaException

    try:
        _fast_validator()(doc)
        return []
    except JsonSchemaException:
        pass  # the full validator names every problem
    found: list[tuple[str, str]] = []
    for error in _validator().iter_errors(doc):
        for item in _explain(error):
            if item not in found:
                found.append(item)
    return _in_field_order(found)


def _in_field_order(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Problems sorted by the order of their top-level field in the format (stable)."""
    order = {name: i for i, name in enumerate(schema()["properties"])}
    return sorted(found, key=lambda item: order.get(_root(item[0]), len(order)))


def _root(path: str) -> str:
    """The top-level field of a field path: ``rules`` for ``rules.options.village``."""
    return re.split(r"[.\[]", path, maxsplit=1)[0]


def _explain(error) -> list[tuple[str, str]]:
    path, kind = list(error.absolute_path), error.validator
    value, instance = error.validator_value, error.instance
    here = _field(path)
    if kind == "required":
        return [(_field([*path, name]), "missing") for name in value if name not in instance]
    if kind == "additionalProperties":
        known = error.schema.get("properties", {})
        return [
            (_field([*path, name]), f"unknown field (known: {', '.join(known)})")
            for name in instance
            if name not in known
        ]
    if kind == "type":
        kinds = value if isinstance(value, list) else [value]
        return [(here, f"expected {' or '.join(kinds)}, got {_show(instance)}")]
    if kind == "enum":
        return [(here, f"must be one of {', '.join(map(_show, value))}, got {_show(instance)}")]
    if kind == "const":
        return [(here, f"must be {_show(value)}, got {_show(instance)}")]
    if kind == "minLength":
        return [(here, "must not be empty")]
    if kind == "maxLength" and "propertyNames" in error.schema_path:
        return [(here, f"field name {_show(instance)} is longer than {value} characters")]
    if kind == "maxLength":
        return [(here, f"longer than {value} characters")]
    if kind == "minItems":
        return [(here, f"needs at least {value} item{'s' * (value != 1)}")]
    if kind == "maxItems":
        return [(here, f"has more than {value} items")]
    if kind == "maxProperties":
        return [(here, f"has more than {value} fields")]
    if kind == "minimum":
        return [(here, f"must be at least {value}, got {_show(instance)}")]
    if kind == "maximum":
        return [(here, f"must be at most {value}, got {_show(instance)}")]
    if kind == "pattern" and path == ["id"]:
        return [
            (
                here,
                f"{_show(instance)} is not an id: use letters, digits, '.', '_' and '-', "
                "starting with a letter or digit, at most 100 characters",
            )
        ]
    if kind == "format":
        return [(here, f"{_show(instance)} is not a {value} (YYYY-MM-DD)")]
    return [(here or "puzzle", error.message)]


def _show(value) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON, or a number too long to write
        return shown(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_type(value) -> str:
    names = {list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


# ---- files ----------------------------------------------------------------------------------
def _loads(text: str):
    return decode_json(STRICT_DECODER, text)


def _kind(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", ".json"):
        raise PuzzleError(
            str(path), [(None, "file", f"unknown kind {suffix or '(none)'!r}: use .jsonl or .json")]
        )
    return suffix[1:]


def _documents(text: str, kind: str) -> Iterable[tuple[int, Any]]:
    """(line, document or the ValueError that reading it raised) for each puzzle in the text."""
    if kind == "jsonl":
        for number, line in enumerate(text.split("\n"), start=1):
            line = line.rstrip("\r")
            if line.strip():
                try:
                    yield number, _loads(line)
                except ValueError as exc:
                    yield number, exc
        return
    skip = re.compile(r"\s*")
    pos = skip.match(text).end()
    if not text.startswith("[", pos):  # one object
        try:
            doc, end = decode_json(STRICT_DECODER, text, pos)
            if text[skip.match(text, end).end() :]:
                raise json.JSONDecodeError("Extra data", text, skip.match(text, end).end())
            yield text.count("\n", 0, pos) + 1, doc
        except json.JSONDecodeError as exc:
            yield exc.lineno, exc
        except ValueError as exc:
            yield text.count("\n", 0, pos) + 1, exc
        return
    # A list: each item's line is where it starts.
    line = text.count("\n", 0, pos) + 1
    try:
        pos = skip.match(text, pos + 1).end()
        items = []
        if text.startswith("]", pos):
            pos += 1
        else:
            while True:
                line = text.count("\n", 0, pos) + 1
                doc, pos = decode_json(STRICT_DECODER, text, pos)
                items.append((line, doc))
                pos = skip.match(text, pos).end()
                if text.startswith("]", pos):
                    pos += 1
                    break
                if not text.startswith(",", pos):
                    raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
                pos = skip.match(text, pos + 1).end()
        pos = skip.match(text, pos).end()
        if pos != len(text):
            raise json.JSONDecodeError("Extra data", text, pos)
    except json.JSONDecodeError as exc:
        yield exc.lineno, exc
        return
    except ValueError as exc:  # a duplicate key, NaN, a bound: the line of the item being read
        yield line, exc
        return
    yield from items


def read_puzzles(path, *, check_solutions: bool = True) -> tuple[list[Puzzle], list[Problem]]:
    """Every good puzzle in the file and every :class:`Problem` found, in file order.

    ``.jsonl``: one puzzle object a line; blank lines are skipped, nothing else (no comments).
    ``.json``: one puzzle object, or a list of them. A line number is where the object starts.
    A puzzle whose id an earlier line already used is a problem, and is left out.

    Parameters
    ----------
    path : str or Path
        A ``.jsonl`` or ``.json`` file.
    check_solutions : bool
        Replay each stored solution (every turn legal, a win in the stored optimum).

    Returns
    -------
    tuple of (list of Puzzle, list of Problem)

    Raises
    ------
    InputFileError
        A file that is missing, not a regular file, or too big.
    PuzzleError
        A file whose name is neither ``.jsonl`` nor ``.json``.
    """
    path = Path(path)
    kind = _kind(path)
    raw = read_bounded(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [], [Problem(None, "file", f"not UTF-8 text: {exc}")]
    puzzles: list[Puzzle] = []
    problems: list[Problem] = []
    first_line: dict[str, int] = {}
    for line, doc in _documents(text, kind):
        if isinstance(doc, ValueError):
            hint = "; comments are not part of JSON Lines" if _is_comment(text, line) else ""
            field, reason = json_problem(doc)
            problems.append(Problem(line, field, reason + hint))
            continue
        ident = doc.get("id") if isinstance(doc, dict) else None
        duplicate = isinstance(ident, str) and ident in first_line
        if isinstance(ident, str):
            first_line.setdefault(ident, line)
        puzzle, found = _read_doc(doc, check_solutions)
        if duplicate:
            found.insert(0, ("id", f"duplicate id {ident!r} (first on line {first_line[ident]})"))
        problems.extend(Problem(line, f, r) for f, r in found)
        if puzzle is not None and not found:
            puzzles.append(puzzle)
    return puzzles, problems


def _is_comment(text: str, line: int | None) -> bool:
    lines = text.split("\n")
    return line is not None and 0 < line <= len(lines) and lines[line - 1].lstrip().startswith("//")


def load_puzzles(path, *, check_solutions: bool = True, errors: str = "raise") -> list[Puzzle]:
    """The puzzles of a ``.jsonl`` or ``.json`` file, in file order.

    Parameters
    ----------
    path : str or Path
        A ``.jsonl`` or ``.json`` file.
    check_solutions : bool
        Replay each stored solution; ``False`` skips it.
    errors : str
        ``"raise"``: any problem raises one :class:`PuzzleError` listing every problem as
        ``file:line: field: reason``. ``"skip"``: the bad puzzles are left out
        (:func:`read_puzzles` returns the problems too).

    Returns
    -------
    list of Puzzle

    Raises
    ------
    PuzzleError
        A problem in the file (with ``errors="raise"``), or a bad ``errors``.
    InputFileError
        A file that is missing, not a regular file, or too big.

    >>> from taolong_lab.puzzles.rulebook import SHIPPED
    >>> [p.id for p in load_puzzles(SHIPPED)][:2]
    ['cave-white', 'cave-black']
    """
    if errors not in ("raise", "skip"):
        raise PuzzleError(
            str(path), [(None, "errors", f"must be 'raise' or 'skip', not {shown(errors)}")]
        )
    puzzles, problems = read_puzzles(path, check_solutions=check_solutions)
    if problems and errors == "raise":
        raise PuzzleError(str(path), problems)
    return puzzles


def puzzles_text(puzzles: Iterable[Puzzle], kind: str = "jsonl") -> str:
    """The text of a puzzle file: ``kind`` ``"jsonl"`` (one object a line) or ``"json"`` (a
    list, indented)."""
    docs = [puzzle.to_json() for puzzle in puzzles]
    if kind == "jsonl":
        return "".join(json.dumps(doc, ensure_ascii=False, allow_nan=False) + "\n" for doc in docs)
    return json.dumps(docs, ensure_ascii=False, allow_nan=False, indent=2) + "\n"


def save_puzzles(path, puzzles: Iterable[Puzzle]) -> None:
    """Write puzzles to ``path`` (``.jsonl``: one a line; ``.json``: a list), atomically: the
    text goes to a temporary file in the same directory, is flushed to disk, then renamed over
    ``path``. On any failure the old file is left as it was.

    Parameters
    ----------
    path : str or Path
        A ``.jsonl`` or ``.json`` file.
    puzzles : iterable of Puzzle
        Their ids must be unique.

    Raises
    ------
    PuzzleError
        Something that is not a Puzzle, a repeated id, or a file name that is neither
        ``.jsonl`` nor ``.json``.
    OSError
        The file cannot be written.
    """
    path = Path(path)
    kind = _kind(path)
    puzzles = list(puzzles)
    problems, seen = [], {}
    for i, puzzle in enumerate(puzzles):
        if not isinstance(puzzle, Puzzle):
            problems.append((None, f"puzzles[{i}]", f"expected a Puzzle, got {puzzle!r}"))
        elif puzzle.id in seen:
            problems.append(
                (
                    None,
                    f"puzzles[{i}].id",
                    f"duplicate id {puzzle.id!r} (puzzles[{seen[puzzle.id]}])",
                )
            )
        else:
            seen[puzzle.id] = i
    if problems:
        raise PuzzleError(str(path), problems)
    write_atomic(path, puzzles_text(puzzles, kind).encode("utf-8"))


def append_puzzle(path, puzzle: Puzzle) -> None:
    """Append one puzzle to the ``.jsonl`` file ``path`` (created if missing) as one line.

    The whole line, ending in ``"\\n"``, is written by a single ``os.write`` on a descriptor
    opened with ``O_APPEND``, then the file is flushed to disk (``fsync``). Appends never
    interleave, and a crash can leave at most a torn last line (no ending newline); every
    earlier line stays whole. A short write raises ``OSError``."""
    path = Path(path)
    if _kind(path) != "jsonl":
        raise PuzzleError(str(path), [(None, "file", "append_puzzle writes .jsonl files only")])
    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(str(path), [(None, "puzzle", f"expected a Puzzle, got {puzzle!r}")])
    append_bytes(path, puzzles_text([puzzle], "jsonl").encode("utf-8"))


__all__ = [
    "FORMAT",
    "MIGRATIONS",
    "VERSION",
    "Problem",
    "Puzzle",
    "PuzzleError",
    "append_puzzle",
    "load_puzzles",
    "migrate",
    "puzzles_text",
    "read_puzzles",
    "save_puzzles",
    "schema",
]
