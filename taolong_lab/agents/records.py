"""Game records: played games as JSON Lines files, one game a line.

A record holds the start position (TLN), the turns in notation, the result, the players and
the date (``data/game-record.schema.json`` is its JSON Schema; docs/agents.md describes the
fields). A record file is read as hostile input: through
:func:`taolong_lab.files.read_bounded`, with bounded numbers, strings and nesting, the structure
checked against the schema, then the meaning: the start position must read, every turn must be
legal where it is played, and the result must be the game's (a winner only when the game is
over, and the right one). Every problem is a :class:`RecordError` naming the file, the line and
the field. Files are written atomically (:func:`save_records`) or appended a whole line at a
time (:func:`append_record`).
"""

from __future__ import annotations

import datetime
import functools
import json
from dataclasses import dataclass
from pathlib import Path

from ..engine import Line, State
from ..errors import IllegalTurnError, TaoLongError
from ..files import append_bytes, read_bounded, write_atomic
from ..rules import data_dir
from ..rules.data import BoundError, decode_json, json_decoder, shown

FORMAT = "taolong-game"
VERSION = 1
SCHEMA_FILE = "game-record.schema.json"
TURN_CAP = "turn cap"


class RecordError(TaoLongError):
    """A malformed game record or record file. Names the file, the line and the field;
    ``problems`` lists every ``(line, field, reason)`` found."""

    def __init__(self, file: str, problems: list[tuple[int | None, str, str]]):
        self.file, self.problems = file, list(problems)
        lines = [
            f"{file}:{line}: {field}: {reason}" if line else f"{file}: {field}: {reason}"
            for line, field, reason in self.problems
        ]
        super().__init__("\n".join(lines) if lines else f"{file}: bad record file")


@dataclass(frozen=True)
class GameRecord:
    """One played game.

    ``winner`` is ``"white"``, ``"black"`` or None (a game stopped unfinished, e.g. at the
    turn cap); ``reason`` says how it ended. ``players`` is ``(white, black)``. ``date`` is
    ``YYYY-MM-DD``. ``turns`` are in turn notation.

    >>> from taolong_lab import new_game
    >>> record = GameRecord.from_line(Line(new_game(), ["Wa>He a3,a4"]), ("me", "you"),
    ...     date="2026-01-01")
    >>> record.winner, record.reason, record.line().end.to_move
    (None, 'unfinished', 'black')
    >>> GameRecord.from_json(record.to_json()) == record
    True
    """

    start: State
    turns: tuple[str, ...]
    winner: str | None
    reason: str
    players: tuple[str, str]
    date: str
    seed: int | None = None
    id: str | None = None

    @classmethod
    def from_line(
        cls,
        line: Line,
        players: tuple[str, str],
        *,
        date: str | None = None,
        seed: int | None = None,
        id: str | None = None,
        reason: str | None = None,
    ) -> GameRecord:
        """The record of a game played as ``line``: the result is the end position's, else
        unfinished (``reason``, e.g. ``"turn cap"``)."""
        result = line.end.outcome()
        return cls(
            line.start,
            tuple(line.notation()),
            result.winner if result else None,
            result.reason if result else (reason or "unfinished"),
            tuple(players),
            date or datetime.date.today().isoformat(),
            seed,
            id,
        )

    def line(self) -> Line:
        """The game as a :class:`~taolong_lab.Line` (the turns replayed and checked)."""
        return Line(self.start, self.turns)

    def to_json(self) -> dict:
        doc = {"format": FORMAT, "version": VERSION}
        if self.id is not None:
            doc["id"] = self.id
        doc.update(
            start=self.start.to_tln(),
            turns=list(self.turns),
            result={"winner": self.winner, "reason": self.reason},
            players={"white": self.players[0], "black": self.players[1]},
            date=self.date,
        )
        if self.seed is not None:
            doc["seed"] = self.seed
        return doc

    @classmethod
    def from_json(cls, doc) -> GameRecord:
        """Read one record (a dict or its JSON text); raise :class:`RecordError` naming the
        field at fault."""
        if isinstance(doc, str):
            try:
                doc = decode_json(_DECODER, doc)
            except ValueError as exc:
                raise RecordError("record", [(None, *_json_problem(exc))]) from None
        record, found = read_record(doc)
        if found:
            raise RecordError("record", [(None, field, reason) for field, reason in found])
        return record


# ---- checking one document ----------------------------------------------------------------
def read_record(doc) -> tuple[GameRecord | None, list[tuple[str, str]]]:
    """A record from a decoded JSON document, and every ``(field, reason)`` problem found."""
    found = _schema_problems(doc)
    if found:
        return None, found
    try:
        start = State.from_tln(doc["start"])
    except TaoLongError as exc:
        return None, [("start", str(exc))]
    try:
        line = Line(start, doc["turns"])
    except IllegalTurnError as exc:
        number = exc.reason.split(":", 1)[0].removeprefix("turn ")
        field = f"turns[{int(number) - 1}]" if number.isdigit() else "turns"
        return None, [(field, str(exc))]
    end = line.end.outcome()
    winner = doc["result"]["winner"]
    if end is not None and winner != end.winner:
        return None, [("result.winner", f"the game ended: {end}, not {shown(winner)}")]
    if end is None and winner is not None:
        return None, [("result.winner", f"{winner} cannot have won: the game is not over")]
    players = doc["players"]
    record = GameRecord(
        start,
        tuple(doc["turns"]),
        winner,
        doc["result"]["reason"],
        (players["white"], players["black"]),
        doc["date"],
        doc.get("seed"),
        doc.get("id"),
    )
    return record, []


@functools.cache
def schema() -> dict:
    """The JSON Schema of one record (``data/game-record.schema.json``)."""
    with (data_dir() / SCHEMA_FILE).open(encoding="utf-8") as handle:
        return json.load(handle)


@functools.cache
def _fast_validator():
    import fastjsonschema

    return fastjsonschema.compile(schema())


def _schema_problems(doc) -> list[tuple[str, str]]:
    """The structural problems: none when the compiled schema accepts ``doc``, else each
    error the full validator finds, with its field."""
    from fastjsonschema import JsonSchemaException

    try:
        _fast_validator()(doc)
        return []
    except JsonSchemaException:
        pass
    from jsonschema import Draft202012Validator, FormatChecker

    validator = Draft202012Validator(schema(), format_checker=FormatChecker(formats=("date",)))
    found = []
    for error in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.path))):
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path)
        found.append((field.lstrip(".") or "record", _short(error.message)))
    return found


def _short(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."


# ---- files ----------------------------------------------------------------------------------
def _no_duplicate_keys(pairs):
    doc = {}
    for key, value in pairs:
        if key in doc:
            raise ValueError(f"duplicate key {shown(key)}")
        doc[key] = value
    return doc


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


_DECODER = json_decoder(object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)


def _json_problem(exc: ValueError) -> tuple[str, str]:
    if isinstance(exc, BoundError):
        return exc.path or "json", exc.reason
    if isinstance(exc, json.JSONDecodeError):
        return "json", f"not valid JSON: {exc.msg} at column {exc.colno}"
    return "json", f"not valid JSON: {exc}"


def read_records(path) -> tuple[list[GameRecord], list[tuple[int | None, str, str]]]:
    """Every good record of a ``.jsonl`` file and every ``(line, field, reason)`` problem, in
    file order. Blank lines are skipped; a torn last line (no newline at the end, as a crash
    during an append may leave) is a problem like any other. A file that is missing, not a
    regular file or too big raises :class:`~taolong_lab.files.InputFileError`."""
    raw = read_bounded(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [], [(None, "file", f"not UTF-8 text: {exc}")]
    records, problems, seen = [], [], {}
    for number, row in enumerate(text.split("\n"), start=1):
        row = row.rstrip("\r")
        if not row.strip():
            continue
        try:
            doc = decode_json(_DECODER, row)
        except ValueError as exc:
            problems.append((number, *_json_problem(exc)))
            continue
        record, found = read_record(doc)
        if record is not None and record.id is not None:
            if record.id in seen:
                found = [("id", f"duplicate id {record.id!r} (first on line {seen[record.id]})")]
            seen.setdefault(record.id, number)
        problems.extend((number, field, reason) for field, reason in found)
        if record is not None and not found:
            records.append(record)
    return records, problems


def load_records(path, *, errors: str = "raise") -> list[GameRecord]:
    """The records of a ``.jsonl`` file, in file order.

    Parameters
    ----------
    path
        The file.
    errors
        ``"raise"``: any problem raises one :class:`RecordError` listing them all;
        ``"skip"``: the bad lines are left out.

    Returns
    -------
    list of GameRecord

    Raises
    ------
    RecordError
        A line that is not a good record (with ``errors="raise"``).
    taolong_lab.files.InputFileError
        A file that is missing, not a regular file or too big.
    """
    if errors not in ("raise", "skip"):
        raise TaoLongError(f"errors must be 'raise' or 'skip', not {shown(errors)}")
    records, problems = read_records(path)
    if problems and errors == "raise":
        raise RecordError(str(path), problems)
    return records


def records_text(records) -> str:
    """The text of a record file: one JSON object a line."""
    out = []
    for i, record in enumerate(records):
        if not isinstance(record, GameRecord):
            raise RecordError("records", [(None, f"records[{i}]", f"not a GameRecord: {record!r}")])
        out.append(json.dumps(record.to_json(), ensure_ascii=False, allow_nan=False) + "\n")
    return "".join(out)


def save_records(path, records) -> None:
    """Write ``records`` to ``path`` atomically (one a line)."""
    write_atomic(Path(path), records_text(records).encode("utf-8"))


def append_record(path, record: GameRecord) -> None:
    """Append one record to ``path`` (created if missing) as one whole line, by a single
    write on a file opened for appending, then flushed to disk: appends never interleave, and a
    crash leaves at most a torn last line."""
    append_bytes(Path(path), records_text([record]).encode("utf-8"))


__all__ = [
    "FORMAT",
    "TURN_CAP",
    "VERSION",
    "GameRecord",
    "RecordError",
    "append_record",
    "load_records",
    "read_record",
    "read_records",
    "records_text",
    "save_records",
    "schema",
]
