"""Scenarios as data: one TOML file per scenario in ``data/scenarios``.

A user adds a scenario by adding a file. Every problem in a file is reported with the file, the
line, the cell and what is wrong.
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from dataclasses import dataclass, field

from ..errors import DataError
from .data import data_dir, game_data

FEATURES = {".": "empty", "#": "big rock", "o": "small rock"}
PORTAL_COLOURS = {"G": "green", "R": "red", "B": "blue", "Y": "yellow"}
DRAGON_MARKS = {"h": 0, "v": 0, "e": 1, "<": 1}


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


def parse_scenario(text: str, file: str, key: str) -> Scenario:
    """Read and check one scenario file's text."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(file, f"not valid TOML: {exc}") from None
    data = game_data()

    def need(name, kind, default=None):
        if name not in doc:
            if default is not None:
                return default
            raise ScenarioError(file, f"missing key {name!r}")
        value = doc[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ScenarioError(file, f"key {name!r} must be a {kind.__name__}, got {value!r}")
        return value

    grid_text = need("grid", str)
    lines = text.splitlines()
    grid_line = next((i for i, ln in enumerate(lines, 1) if ln.lstrip().startswith("grid")), 1)
    opening = lines[grid_line - 1].split('"""', 1)[-1].strip() if lines else ""
    # each kept row with its line number in the file (blank rows are skipped)
    numbered = [
        (grid_line + i + (0 if opening else 1), row)
        for i, row in enumerate(grid_text.splitlines())
        if row.strip()
    ]
    raw_rows = [row for _, row in numbered]
    row_line = [n for n, _ in numbered]
    size = need("size", list, [data.width, data.height])
    if len(size) != 2 or not all(isinstance(v, int) and v > 0 for v in size):
        raise ScenarioError(file, f"size must be [width, height], got {size!r}")
    width, height = size
    if len(raw_rows) != height:
        raise ScenarioError(
            file, f"wrong size: the grid has {len(raw_rows)} rows, expected {height}", grid_line
        )
    rows, marks = [], ([], [])
    portals: dict[str, list[tuple[int, int]]] = {}
    for y, raw in enumerate(raw_rows):
        line = row_line[y]
        symbols = raw.split()
        if len(symbols) != width:
            raise ScenarioError(
                file, f"wrong size: row {y + 1} has {len(symbols)} cells, expected {width}", line
            )
        row = []
        for x, sym in enumerate(symbols):
            if sym in DRAGON_MARKS:
                marks[DRAGON_MARKS[sym]].append((x, y))
                sym = "."
            elif sym in PORTAL_COLOURS:
                portals.setdefault(sym, []).append((x, y))
            elif sym == "~":
                sym = "."
            elif sym not in FEATURES:
                known = ", ".join(f"{k!r} {v}" for k, v in {**FEATURES, **PORTAL_COLOURS}.items())
                raise ScenarioError(
                    file,
                    f"unknown symbol {sym!r} (known: {known}, dragons h v e <)",
                    line,
                    _cell((x, y)),
                )
            row.append(sym)
        rows.append("".join(row))
    rules = {}
    for colour, spec in need("portals", dict, {}).items():
        if colour not in PORTAL_COLOURS or not isinstance(spec, dict):
            raise ScenarioError(
                file, f"[portals.{colour}]: not a portal colour {list(PORTAL_COLOURS)}"
            )
        dest, cost = spec.get("destination", "twin"), spec.get("cost")
        if dest not in ("twin", "any") or cost not in (None, "fire", "water"):
            raise ScenarioError(file, f"[portals.{colour}]: destination twin|any, cost fire|water")
        rules[colour] = PortalRule(dest, cost)
    for colour, cells in sorted(portals.items()):
        rule = rules.get(colour, PortalRule())
        if rule.destination == "twin" and len(cells) != 2:
            raise ScenarioError(
                file,
                f"unpaired portal: {PORTAL_COLOURS[colour]} ({colour}) appears {len(cells)} "
                "time(s); twin portals come in pairs",
                row_line[cells[0][1]],
                _cell(cells[0]),
            )
    starts_doc = need("starts", dict, {})
    starts = []
    for colour, default in zip(("white", "black"), data.start_cells, strict=True):
        cells = starts_doc.get(colour, default)
        cells = tuple(tuple(c) for c in cells)
        for c in cells:
            if not (0 <= c[0] < width and 0 <= c[1] < height):
                raise ScenarioError(file, f"{colour} start cell {list(c)} is off the board")
        starts.append(cells)
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
            if doc.get("wrap", False):
                dx, dy = min(dx, width - dx), min(dy, height - dy)
            if dx + dy != 1:
                raise ScenarioError(
                    file, f"{colour} start body is broken between {_cell(a)} and {_cell(b)}"
                )
    for colour, cells in zip(("white", "black"), starts, strict=True):
        drawn = sorted(marks[("white", "black").index(colour)])
        if drawn and drawn != sorted(cells):
            raise ScenarioError(
                file,
                f"the grid draws the {colour} dragon on {[_cell(c) for c in drawn]}, "
                f"but it starts on {[_cell(c) for c in cells]}",
                grid_line,
            )
    editions = tuple(need("editions", list, ["current"]))
    return Scenario(
        key=key,
        name=need("name", str),
        motto=need("motto", str, ""),
        status=need("status", str, "inferred"),
        editions=editions,
        village=need("village", bool, False) if "village" in doc else False,
        breakable_rocks=doc.get("breakable_rocks", False) is True,
        wrap=doc.get("wrap", False) is True,
        width=width,
        height=height,
        rows=tuple(rows),
        starts=tuple(starts),
        portal_rules=rules,
    )


@functools.cache
def load_scenario(key: str) -> Scenario:
    path = data_dir() / "scenarios" / f"{key}.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"scenarios/{key}.toml", "-", "no such scenario file") from None
    return parse_scenario(text, f"scenarios/{key}.toml", key)
