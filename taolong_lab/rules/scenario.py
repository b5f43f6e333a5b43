"""Scenarios as data: one TOML file per scenario in ``data/scenarios``.

A user adds a scenario by adding a file. Every problem in a file is reported with the file, the
line, the cell and what is wrong.
"""

from __future__ import annotations

import functools
import itertools
import re
import tomllib
from dataclasses import dataclass, field

from ..errors import DataError
from .data import BoundError, check_bounds, game_data, scenario_file, shown, toml_problem

FEATURES = {".": "empty", "#": "big rock", "o": "small rock"}
PORTAL_COLOURS = {"G": "green", "R": "red", "B": "blue", "Y": "yellow"}
DRAGON_MARKS = {"h": 0, "v": 0, "e": 1, "<": 1}
EDITIONS = ("current", "earlier")
KEYS = (
    "name",
    "motto",
    "status",
    "editions",
    "village",
    "breakable_rocks",
    "wrap",
    "size",
    "grid",
    "starts",
    "portals",
)
MAX_WIDTH = 26  # columns are named a to z
MAX_HEIGHT = 99  # rows 1 to 99: a cell name has at most two digits
MAX_DRAGON_CELLS = 4  # a head and three segments
MAX_TEXT = 200  # name, motto, status
MAX_FILE_CHARS = 100_000


class ScenarioError(DataError):
    """A malformed scenario file: names the file, the line and cell when known, and the problem."""

    def __init__(self, file: str, reason: str, line: int | None = None, cell: str | None = None):
        where = "".join(
            [f", line {line}" if line is not None else "", f", cell {cell}" if cell else ""]
        )
        self.line, self.cell = line, cell
        super().__init__(file, where.lstrip(", ") or "-", reason)


@dataclass(frozen=True)
class PortalRule:
    destination: str = "twin"  # "twin": its same-coloured twin; "any": any other free portal
    cost: str | None = None  # "fire" or "water": paid on entry (The Valley)


@dataclass(frozen=True)
class Scenario:
    key: str
    name: str
    motto: str
    status: str
    editions: tuple[str, ...]
    village: bool
    breakable_rocks: bool
    wrap: bool
    width: int
    height: int
    rows: tuple[str, ...]  # one symbol per cell, dragons removed
    starts: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    portal_rules: dict[str, PortalRule] = field(hash=False, compare=False)

    def portal_rule(self, colour: str) -> PortalRule:
        return self.portal_rules.get(colour, PortalRule())


def _cell(xy) -> str:
    return f"{chr(97 + xy[0])}{xy[1] + 1}"


_MISSING = object()


class _Reader:
    """The keys of one scenario file, each checked for type and shape; errors name the key and
    its line."""

    def __init__(self, doc: dict, text: str, file: str):
        self.doc, self.lines, self.file = doc, text.splitlines(), file

    def line_of(self, key: str) -> int | None:
        """The line where ``key`` is set: ``key = …`` or its table ``[key]``; for a dotted key
        ``table.name``, its ``[table.name]`` table, or ``name = …`` in ``[table]``."""
        table, _, name = key.rpartition(".")
        if not table:
            return self._first(rf"\s*(?:{re.escape(key)}\s*=|\[\s*{re.escape(key)}\s*[.\]])")
        own = self._first(rf"\s*\[\s*{re.escape(key)}\s*\]")
        parent = self._first(rf"\s*\[\s*{re.escape(table)}\s*\]")
        if own or parent:
            return own or self._first(rf"\s*{re.escape(name)}\s*=", parent) or parent
        return self.line_of(table)

    def _first(self, pattern: str, after: int = 0) -> int | None:
        regex = re.compile(pattern)
        lines = enumerate(self.lines[after:], after + 1)
        return next((number for number, line in lines if regex.match(line)), None)

    def fail(self, reason: str, key: str | None = None, line=None, cell=None):
        raise ScenarioError(self.file, reason, line or (key and self.line_of(key)), cell)

    def get(self, key: str, kind, default=_MISSING):
        """The value of a top-level key, checked to be a ``kind``; ``default`` when absent."""
        if key not in self.doc:
            if default is _MISSING:
                self.fail(f"missing key {key!r}")
            return default
        value = self.doc[key]
        if not isinstance(value, kind):
            self.fail(f"key {key!r} must be a {_KIND_NAMES[kind]}, got {shown(value)}", key)
        return value

    def text(self, key: str, default=_MISSING, empty: bool = False) -> str:
        """A one-line string of at most :data:`MAX_TEXT` characters."""
        value = self.get(key, str, default)
        if (not empty and not value.strip()) or len(value) > MAX_TEXT or "\n" in value:
            least = 0 if empty else 1
            self.fail(
                f"key {key!r} must be one line of {least}-{MAX_TEXT} characters, "
                f"got {shown(value)}",
                key,
            )
        return value


_KIND_NAMES = {str: "string", bool: "boolean (true or false)", list: "list", dict: "table"}


def _cells(reader: _Reader, key: str, value, width: int, height: int) -> tuple:
    """A list of [x, y] cells on the board, from 1 to :data:`MAX_DRAGON_CELLS` of them."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DRAGON_CELLS:
        reader.fail(
            f"{key} must be a list of 1-{MAX_DRAGON_CELLS} cells [x, y], head first, "
            f"got {shown(value)}",
            key,
        )
    cells = []
    for i, xy in enumerate(value):
        if (
            not isinstance(xy, list)
            or len(xy) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in xy)
        ):
            reader.fail(
                f"{key}[{i}] must be a cell [x, y] of two whole numbers, got {shown(xy)}", key
            )
        if not (0 <= xy[0] < width and 0 <= xy[1] < height):
            reader.fail(
                f"{key}[{i}]: start cell {shown(xy)} is off the {width}x{height} board", key
            )
        cells.append((xy[0], xy[1]))
    return tuple(cells)


def parse_scenario(text: str, file: str, key: str) -> Scenario:
    """Read and check one scenario file's text: every key's type, shape and range, the grid,
    the portals and the start cells. Raises :class:`ScenarioError` naming the file, the key,
    the line and the cell when known."""
    reader = _document(text, file)
    data = game_data()
    head = _header(reader, data)
    width, height = head["width"], head["height"]
    grid = _grid(reader, width, height)
    rules = _portal_rules(reader, grid)
    starts, seen = _starts(reader, data, grid, width, height, head["wrap"])
    if head["village"]:
        for xy in data.village_cells:
            if not (0 <= xy[0] < width and 0 <= xy[1] < height) or xy in seen:
                reader.fail(
                    f"village = true, but the village cell {_cell(xy)} is off the board or "
                    "under a start cell",
                    "village",
                )
    return Scenario(
        key=key, **head, rows=tuple(grid.rows), starts=tuple(starts), portal_rules=rules
    )


def _document(text: str, file: str) -> _Reader:
    """The file's TOML, within its bounds and with known keys only, behind a reader."""
    if not isinstance(text, str):
        raise ScenarioError(file, f"expected the file's text, got {type(text).__name__}")
    if len(text) > MAX_FILE_CHARS:
        raise ScenarioError(file, f"longer than {MAX_FILE_CHARS} characters")
    try:
        doc = tomllib.loads(text)
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError is a ValueError
        reason, line = toml_problem(exc, text)
        raise ScenarioError(file, f"not valid TOML: {reason}", line) from None
    reader = _Reader(doc, text, file)
    try:
        check_bounds(doc)
    except BoundError as exc:
        reader.fail(f"key {exc.path}: {exc.reason}", re.split(r"[.\[]", exc.path)[0])
    unknown = [name for name in doc if name not in KEYS]
    if unknown:
        reader.fail(f"unknown key {shown(unknown[0])} (known: {', '.join(KEYS)})", unknown[0])
    return reader


def _header(reader: _Reader, data) -> dict:
    """The scenario's keys before its grid: name, motto, status, editions, flags and size."""
    name = reader.text("name")
    motto = reader.text("motto", "", empty=True)
    status = reader.text("status", "inferred")
    editions = reader.get("editions", list, ["current"])
    known = all(isinstance(e, str) and e in EDITIONS for e in editions)
    if not editions or not known or len(set(editions)) != len(editions):
        reader.fail(
            f"key 'editions' must list one or both of {', '.join(map(repr, EDITIONS))}, "
            f"got {shown(editions)}",
            "editions",
        )
    village = reader.get("village", bool, False)
    breakable_rocks = reader.get("breakable_rocks", bool, False)
    wrap = reader.get("wrap", bool, False)
    size = reader.get("size", list, [data.width, data.height])
    if (
        len(size) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in size)
        or not (1 <= size[0] <= MAX_WIDTH and 1 <= size[1] <= MAX_HEIGHT)
    ):
        reader.fail(
            f"key 'size' must be [width, height], width 1-{MAX_WIDTH} (columns a-z) and height "
            f"1-{MAX_HEIGHT}, got {shown(size)}",
            "size",
        )
    return {
        "name": name,
        "motto": motto,
        "status": status,
        "editions": tuple(editions),
        "village": village,
        "breakable_rocks": breakable_rocks,
        "wrap": wrap,
        "width": size[0],
        "height": size[1],
    }


@dataclass
class _Grid:
    """The grid as read: its rows of features, the dragons' marks, the portals' cells, and
    the file's line of each row and of the grid."""

    rows: list
    marks: tuple
    portals: dict
    row_line: list
    grid_line: int


def _grid(reader: _Reader, width: int, height: int) -> _Grid:
    """The grid, each row and symbol checked."""
    file = reader.file
    grid_text = reader.get("grid", str)
    lines = reader.lines
    grid_line = reader.line_of("grid") or 1
    opening = lines[grid_line - 1].split('"""', 1)[-1].strip() if lines else ""
    # each kept row with its line number in the file (blank rows are skipped)
    numbered = [
        (grid_line + i + (0 if opening else 1), row)
        for i, row in enumerate(grid_text.splitlines())
        if row.strip()
    ]
    raw_rows = [row for _, row in numbered]
    row_line = [n for n, _ in numbered]
    if len(raw_rows) != height:
        raise ScenarioError(
            file, f"wrong size: the grid has {len(raw_rows)} rows, expected {height}", grid_line
        )
    grid = _Grid([], ([], []), {}, row_line, grid_line)
    for y, raw in enumerate(raw_rows):
        symbols = raw.split()
        if len(symbols) != width:
            raise ScenarioError(
                file,
                f"wrong size: row {y + 1} has {len(symbols)} cells, expected {width}",
                row_line[y],
            )
        grid.rows.append(
            "".join(_grid_symbol(grid, file, x, y, sym) for x, sym in enumerate(symbols))
        )
    return grid


def _grid_symbol(grid: _Grid, file: str, x: int, y: int, sym: str) -> str:
    """The feature of one grid symbol (a dragon's mark and the sea are open ground), its mark
    or portal noted in ``grid``."""
    if sym in DRAGON_MARKS:
        grid.marks[DRAGON_MARKS[sym]].append((x, y))
        return "."
    if sym in PORTAL_COLOURS:
        grid.portals.setdefault(sym, []).append((x, y))
    elif sym == "~":
        return "."
    elif sym not in FEATURES:
        known = ", ".join(f"{k!r} {v}" for k, v in {**FEATURES, **PORTAL_COLOURS}.items())
        raise ScenarioError(
            file,
            f"unknown symbol {shown(sym)} (known: {known}, dragons h v e <)",
            grid.row_line[y],
            _cell((x, y)),
        )
    return sym


def _portal_rules(reader: _Reader, grid: _Grid) -> dict:
    """The ``[portals]`` tables, checked, and every twin portal paired."""
    rules = {}
    for colour, spec in reader.get("portals", dict, {}).items():
        where = f"portals.{colour}"
        if colour not in PORTAL_COLOURS or not isinstance(spec, dict):
            reader.fail(
                f"portals.{shown(colour)}: not a table of a portal colour "
                f"({', '.join(PORTAL_COLOURS)})",
                where,
            )
        extra = [k for k in spec if k not in ("destination", "cost")]
        dest, cost = spec.get("destination", "twin"), spec.get("cost")
        if extra or dest not in ("twin", "any") or cost not in (None, "fire", "water"):
            reader.fail(
                f'[{where}]: keys destination = "twin" or "any", cost = "fire" or "water"; '
                f"got {shown(spec, 80)}",
                where,
            )
        rules[colour] = PortalRule(dest, cost)
    for colour, cells in sorted(grid.portals.items()):
        rule = rules.get(colour, PortalRule())
        if rule.destination == "twin" and len(cells) != 2:
            raise ScenarioError(
                reader.file,
                f"unpaired portal: {PORTAL_COLOURS[colour]} ({colour}) appears {len(cells)} "
                "time(s); twin portals come in pairs",
                grid.row_line[cells[0][1]],
                _cell(cells[0]),
            )
    return rules


def _starts(reader: _Reader, data, grid: _Grid, width: int, height: int, wrap: bool):
    """The dragons' start cells (``[starts]`` or the game's), checked against each other and
    the grid: the cells, and which dragon starts on each."""
    file, rows, row_line = reader.file, grid.rows, grid.row_line
    starts_doc = reader.get("starts", dict, {})
    extra = [k for k in starts_doc if k not in ("white", "black")]
    if extra:
        reader.fail(f"[starts]: unknown key {shown(extra[0])} (known: white, black)", "starts")
    starts = []
    for colour, default in zip(("white", "black"), data.start_cells, strict=True):
        value = starts_doc.get(colour, [list(c) for c in default])
        starts.append(_cells(reader, f"starts.{colour}", value, width, height))
    seen = {}
    for colour, cells in zip(("white", "black"), starts, strict=True):
        for c in cells:
            if c in seen:
                raise ScenarioError(
                    file, f"overlapping start cells: {colour} and {seen[c]}", None, _cell(c)
                )
            seen[c] = colour
            if rows[c[1]][c[0]] != ".":
                raise ScenarioError(
                    file,
                    f"overlapping start cells: {colour} starts on a "
                    f"{FEATURES.get(rows[c[1]][c[0]], 'portal')}",
                    row_line[c[1]],
                    _cell(c),
                )
        for a, b in itertools.pairwise(cells):
            dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
            if wrap:
                dx, dy = min(dx, width - dx), min(dy, height - dy)
            if dx + dy != 1:
                raise ScenarioError(
                    file, f"{colour} start body is broken between {_cell(a)} and {_cell(b)}"
                )
    for colour, cells in zip(("white", "black"), starts, strict=True):
        drawn = sorted(grid.marks[("white", "black").index(colour)])
        if drawn and drawn != sorted(cells):
            raise ScenarioError(
                file,
                f"the grid draws the {colour} dragon on {[_cell(c) for c in drawn]}, "
                f"but it starts on {[_cell(c) for c in cells]}",
                grid.grid_line,
            )
    return starts, seen


@functools.cache
def load_scenario(key: str) -> Scenario:
    """The scenario of ``data/scenarios/<key>.toml``; an unknown key is a :class:`RulesError`."""
    text = scenario_file(key).read_text(encoding="utf-8")
    return parse_scenario(text, f"scenarios/{key}.toml", key)
