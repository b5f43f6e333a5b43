"""Game records: played games as JSON Lines files, one game a line.

One format for every game of the protocol, Tao Long included (version 2,
``data/game-record.schema.json``; docs/agents.md describes the fields): the game's name, its
start position string, every action (chance outcomes included), the result (the winning side,
the returns, how it ended), who played each side and the date. Tao Long's records of version 1
(``data/game-record-1.schema.json``: the start in TLN, the turns, the winning colour, the
players by colour) are still read, as the same records; they are written as version 2.

A record file is read as hostile input: through :func:`taolong_lab.files.read_bounded`, with
bounded numbers, strings and nesting, the structure checked against the schema of its version,
then the meaning: the game must be known, the start position must read, every action must be
legal where it is played, and the result must be the game's (a winner only when the game is
over, and the right one). Every problem is a :class:`RecordError` naming the file, the line and
the field. Files are written atomically (:func:`save_records`) or appended a whole line at a
time (:func:`append_record`).
"""

from __future__ import annotations

import datetime
import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import Line
from ..errors import TaoLongError
from ..files import append_bytes, read_bounded, write_atomic
from ..games import TAOLONG, Game, GameState, Trajectory, as_line, game
from ..rules import COLOURS, data_dir
from ..rules.data import STRICT_DECODER, decode_json, json_problem, shown
from .annotations import Annotation, ReviewNote, read_annotations

FORMAT = "taolong-game"
VERSION = 2
"""The version of the records written, of every game."""
OLD_VERSION = 1
"""Tao Long's records before the one format: still read."""
SCHEMA_FILES = {VERSION: "game-record.schema.json", OLD_VERSION: "game-record-1.schema.json"}
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

    ``start`` is the start position behind the game protocol (a
    :class:`~taolong_lab.games.TaoLongState` for Tao Long); ``turns`` every action in
    notation, chance outcomes included. ``winner`` is the name of the winning side (one of
    :attr:`sides`: ``"white"`` or ``"black"`` in Tao Long) or None (a draw, or a game stopped
    unfinished, e.g. at the turn cap); ``reason`` says how it ended. ``players`` says who
    played each of :attr:`sides`. ``date`` is ``YYYY-MM-DD``. ``settings``: the match's seed,
    turn cap and random opening plies, for a game of a match
    (:func:`~taolong_lab.agents.matches.match`). A reviewed game
    (:func:`taolong_lab.agents.review`) also holds ``annotations``, one
    :class:`~.annotations.Annotation` an action (None for one not reviewed), and ``review``, a
    :class:`~.annotations.ReviewNote`.

    >>> start = TAOLONG.new()
    >>> record = GameRecord.from_actions(start, ["Wa>He a3,a4"], ("me", "you"),
    ...     date="2026-01-01")
    >>> record.winner, record.reason, record.trajectory().end.state.to_move
    (None, 'unfinished', 'black')
    >>> GameRecord.from_json(record.to_json()) == record
    True
    """

    start: GameState
    turns: tuple[str, ...]
    winner: str | None
    reason: str
    players: tuple[str, ...]
    date: str
    seed: int | None = None
    id: str | None = None
    settings: dict | None = field(default=None, hash=False)
    annotations: tuple[Annotation | None, ...] | None = None
    review: ReviewNote | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        """The names of the sides ``players`` are for (:meth:`GameState.sides
        <taolong_lab.games.GameState.sides>`: Tao Long's two colours, in the solo variant
        too, the solo opponent playing one)."""
        return self.start.sides()

    @classmethod
    def from_actions(
        cls,
        start: GameState,
        actions,
        players: tuple[str, ...],
        *,
        date: str | None = None,
        seed: int | None = None,
        id: str | None = None,
        reason: str | None = None,
        settings: dict | None = None,
    ) -> GameRecord:
        """The record of any game played from ``start`` by ``actions`` (values or notation,
        each checked); ``players`` names who played each of its :attr:`sides`. The result is
        the end position's, else unfinished (``reason``, e.g. ``"turn cap"``)."""
        played = Trajectory(start, actions)
        end = played.end
        won, how = end.result() if end.is_terminal() else (None, reason or "unfinished")
        record = cls(
            start,
            tuple(played.notation()),
            won,
            how,
            tuple(players),
            date or datetime.date.today().isoformat(),
            seed,
            id,
            settings,
        )
        return record._with_replay(played)

    def _with_replay(self, played: Trajectory) -> GameRecord:
        """This record, its replay known to be ``played`` (its start and its actions)."""
        self.__dict__["_replayed"] = played
        return self

    def trajectory(self) -> Trajectory:
        """The game replayed as a :class:`~taolong_lab.games.Trajectory` (once: a record is
        immutable, and so is the trajectory)."""
        return self._replayed

    @functools.cached_property
    def _replayed(self) -> Trajectory:
        return Trajectory(self.start, self.turns)

    def states(self) -> list[GameState]:
        """The start, then the position after each action."""
        return self.trajectory().states()

    def returns(self) -> tuple[float, ...] | None:
        """Each player's return at the end, or None when the game is unfinished."""
        end = self.trajectory().end
        return end.returns() if end.is_terminal() else None

    def line(self) -> Line:
        """A Tao Long game as the engine's :class:`~taolong_lab.Line` (the turns replayed and
        checked; :func:`~taolong_lab.games.as_line`)."""
        try:
            return as_line(self.trajectory())
        except TaoLongError as exc:
            raise RecordError("record", [(None, "start", str(exc))]) from None

    def to_json(self) -> dict:
        """The record as a JSON document of the current version."""
        doc = {"format": FORMAT, "version": VERSION}
        if self.id is not None:
            doc["id"] = self.id
        doc.update(
            game=self.start.game.name,
            start=self.start.to_string(),
            turns=list(self.turns),
            result={
                "winner": self.winner,
                "returns": _listed(self.returns()),
                "reason": self.reason,
            },
            players=list(self.players),
            date=self.date,
        )
        if self.seed is not None:
            doc["seed"] = self.seed
        if self.settings is not None:
            doc["settings"] = dict(self.settings)
        if self.annotations is not None:
            doc["annotations"] = [None if a is None else a.to_json() for a in self.annotations]
        if self.review is not None:
            doc["review"] = self.review.to_json()
        return doc

    @classmethod
    def from_json(cls, doc, *, known: Game | None = None) -> GameRecord:
        """Read one record (a dict or its JSON text) of any version; raise
        :class:`RecordError` naming the field at fault. A record is read with the registered
        game of its name, or with ``known`` when that is the game it names."""
        if isinstance(doc, str):
            try:
                doc = decode_json(STRICT_DECODER, doc)
            except ValueError as exc:
                raise RecordError("record", [(None, *json_problem(exc))]) from None
        record, found = read_record(doc, known)
        if found:
            raise RecordError("record", [(None, field, reason) for field, reason in found])
        return record


def _listed(values):
    return None if values is None else list(values)


# ---- checking one document ----------------------------------------------------------------
def read_record(doc, known: Game | None = None) -> tuple[GameRecord | None, list[tuple[str, str]]]:
    """A record from a decoded JSON document of any version, and every ``(field, reason)``
    problem found; ``known`` as in :meth:`GameRecord.from_json`."""
    found = _schema_problems(doc)
    if found:
        return None, found
    if doc["version"] == OLD_VERSION:
        doc = _upgraded(doc)
    try:
        played_game = (
            known if known is not None and known.name == doc["game"] else game(doc["game"])
        )
    except TaoLongError as exc:
        return None, [("game", str(exc))]
    try:
        start = played_game.from_string(doc["start"])
    except TaoLongError as exc:
        return None, [("start", str(exc))]
    try:
        played = Trajectory(start, doc["turns"])
    except TaoLongError as exc:
        number = str(exc).split(":", 1)[0].removeprefix("action ")
        field = f"turns[{int(number) - 1}]" if number.isdigit() else "turns"
        return None, [(field, str(exc))]
    problem = _result_problem(start, played.end, doc)
    if problem is not None:
        return None, [problem]
    notes, found = read_annotations(doc, played)
    if found:
        return None, found
    review = doc.get("review")
    record = GameRecord(
        start,
        tuple(doc["turns"]),
        doc["result"]["winner"],
        doc["result"]["reason"],
        tuple(doc["players"]),
        doc["date"],
        doc.get("seed"),
        doc.get("id"),
        doc.get("settings"),
        notes,
        None if review is None else ReviewNote.from_json(review),
    )
    return record._with_replay(played), []


def _upgraded(doc: dict) -> dict:
    """A Tao Long record of version 1 in the fields of the current version (its returns are
    not stored: they are not checked)."""
    players = [doc["players"][colour] for colour in COLOURS]
    result = {**doc["result"], "returns": None}
    return {**doc, "game": TAOLONG.name, "result": result, "players": players}


def _result_problem(start: GameState, end: GameState, doc: dict) -> tuple[str, str] | None:
    """The first ``(field, reason)`` where the record's players or result are not the
    game's, or None."""
    sides = start.sides()
    if len(doc["players"]) != len(sides):
        count = len(doc["players"])
        return "players", f"{len(sides)} sides play this game, not {count}"
    result = doc["result"]
    returns = list(end.returns()) if end.is_terminal() else None
    if doc["version"] == VERSION and result["returns"] != returns:
        said = shown(result["returns"])
        return "result.returns", f"the game's returns are {returns}, not {said}"
    name = end.result()[0] if end.is_terminal() else None
    if result["winner"] != name:
        said = shown(result["winner"])
        return "result.winner", f"the winner is {shown(name)}, not {said}"
    return None


@functools.cache
def schema(version: int = VERSION) -> dict:
    """The JSON Schema of one record of ``version`` (``data/game-record.schema.json`` for the
    current one, ``data/game-record-1.schema.json`` for Tao Long's old records)."""
    with (data_dir() / SCHEMA_FILES[version]).open(encoding="utf-8") as handle:
        return json.load(handle)


@functools.cache
def _fast_validator(version: int):
    import fastjsonschema

    return fastjsonschema.compile(schema(version))


def _schema_problems(doc) -> list[tuple[str, str]]:
    """The structural problems: none when the compiled schema accepts ``doc``, else each
    error the full validator finds, with its field. A document that says it is version 1 is
    checked against that version's schema, any other against the current one."""
    from fastjsonschema import JsonSchemaException

    old = isinstance(doc, dict) and doc.get("version") == OLD_VERSION
    version = OLD_VERSION if old else VERSION
    try:
        _fast_validator(version)(doc)
        return []
    except JsonSchemaException:
        pass
    from jsonschema import Draft202012Validator, FormatChecker

    checker = FormatChecker(formats=("date",))
    validator = Draft202012Validator(schema(version), format_checker=checker)
    found = []
    for error in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.path))):
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path)
        found.append((field.lstrip(".") or "record", _short(error.message)))
    return found


def _short(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."


# ---- files ----------------------------------------------------------------------------------
def read_records(
    path, known: Game | None = None
) -> tuple[list[GameRecord], list[tuple[int | None, str, str]]]:
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
            doc = decode_json(STRICT_DECODER, row)
        except ValueError as exc:
            problems.append((number, *json_problem(exc)))
            continue
        record, found = read_record(doc, known)
        if record is not None and record.id is not None:
            if record.id in seen:
                found = [("id", f"duplicate id {record.id!r} (first on line {seen[record.id]})")]
            seen.setdefault(record.id, number)
        problems.extend((number, field, reason) for field, reason in found)
        if record is not None and not found:
            records.append(record)
    return records, problems


def load_records(path, *, errors: str = "raise", known: Game | None = None) -> list[GameRecord]:
    """The records of a ``.jsonl`` file, in file order.

    Parameters
    ----------
    path
        The file.
    errors
        ``"raise"``: any problem raises one :class:`RecordError` listing them all;
        ``"skip"``: the bad lines are left out.
    known
        A game to read the records that name it with, registered or not.

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
    records, problems = read_records(path, known)
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
    crash leaves at most a torn last line. A last line without its newline (a torn append) is
    kept whole: a newline goes first. A file that is not a record file is refused, untouched.

    Raises
    ------
    RecordError
        ``path`` holds a line that is not a game record (:func:`record_file_problem`).
    """
    path = Path(path)
    problem = record_file_problem(path)
    if problem is not None:
        raise RecordError(str(path), [problem])
    data = records_text([record]).encode("utf-8")
    if path.exists() and path.stat().st_size:
        with open(path, "rb") as handle:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                data = b"\n" + data
    append_bytes(path, data)


def record_file_problem(path) -> tuple[int | None, str, str] | None:
    """Why ``path`` cannot take a game record appended.

    Parameters
    ----------
    path
        A file, there or not.

    Returns
    -------
    tuple or None
        ``(line, field, reason)``; None when the file is missing, empty or a record file
        (every line a JSON object of the ``taolong-game`` format, but a torn last line without
        its newline). The records are not replayed.
    """
    path = Path(path)
    if not path.exists():
        return None
    try:
        text = read_bounded(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        return (None, "file", "not UTF-8 text: not a record file")
    rows = text.split("\n")
    for number, row in enumerate(rows, start=1):
        if not row.strip():
            continue
        try:
            doc = decode_json(STRICT_DECODER, row)
        except ValueError:
            if number == len(rows):  # a torn last line: kept, a newline goes after it
                return None
            return (number, "json", "not a game record: not a record file")
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            return (number, "format", f"not a game record ({FORMAT}): not a record file")
    return None


def read_record_at(path, which: str | None = None, known: Game | None = None) -> GameRecord:
    """One record of the file ``path``, read and checked alone: the one whose id is
    ``which``, else the ``which``-th (from 1), the first when ``which`` is None. The other
    lines are only decoded as far as needed to find it, never replayed.

    Parameters
    ----------
    path
        A record file.
    which : str or None
        An id, or a number from 1.
    known
        As in :func:`load_records`.

    Returns
    -------
    GameRecord

    Raises
    ------
    RecordError
        No such record, or the record found is not a good one (naming its line and field).
    taolong_lab.files.InputFileError
        A file that is missing, not a regular file or too big.
    """
    raw = read_bounded(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(str(path), [(None, "file", f"is not UTF-8 text: {exc}")]) from None
    rows = [(n, row) for n, row in enumerate(text.split("\n"), start=1) if row.strip()]
    if not rows:
        raise RecordError(str(path), [(None, "file", "holds no record")])
    found = _row_of(rows, which)
    if found is None:
        reason = f"has no record {shown(which)} (1 to {len(rows)}, or an id)"
        raise RecordError(str(path), [(None, "record", reason)])
    number, row = found
    try:
        doc = decode_json(STRICT_DECODER, row)
    except ValueError as exc:
        raise RecordError(str(path), [(number, *json_problem(exc))]) from None
    record, problems = read_record(doc, known)
    if problems:
        raise RecordError(str(path), [(number, field, reason) for field, reason in problems])
    return record


def _row_of(rows: list, which: str | None):
    """The ``(line, text)`` of ``rows`` that ``which`` names (an id, else a number)."""
    if which is None:
        return rows[0]
    quoted = json.dumps(which)
    for number, row in rows:
        if quoted not in row:  # no need to decode a line that cannot hold the id
            continue
        try:
            doc = decode_json(STRICT_DECODER, row)
        except ValueError:
            continue
        if isinstance(doc, dict) and doc.get("id") == which:
            return number, row
    if which.isascii() and which.isdigit() and len(which) < 10 and 1 <= int(which) <= len(rows):
        return rows[int(which) - 1]
    return None


__all__ = [
    "FORMAT",
    "OLD_VERSION",
    "TURN_CAP",
    "VERSION",
    "GameRecord",
    "RecordError",
    "append_record",
    "load_records",
    "read_record",
    "read_record_at",
    "read_records",
    "record_file_problem",
    "records_text",
    "save_records",
    "schema",
]
