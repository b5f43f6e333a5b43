"""Load the game's constants from ``data/`` (board, Ba Gua, ruler, scenarios).

Everything inferred about the game lives in those TOML files, never in code.
"""

from __future__ import annotations

import functools
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DataError, RulesError
from ..readers import STRICT_JSON, shown, toml_field

ELEMENTS = ("heaven", "lake", "fire", "thunder", "earth", "mountain", "water", "wind")
COLOURS = ("white", "black")


def data_dir() -> Path:
    """The data directory: ``taolong_lab/_data`` in a wheel, else ``<repo>/data``."""
    package = Path(__file__).resolve().parents[1]
    bundled = package / "_data"
    return bundled if bundled.is_dir() else package.parent / "data"


@functools.cache
def load_toml(relative: str) -> dict:
    path = data_dir() / relative
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError(relative, "-", f"file not found in {data_dir()}") from None
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError is a ValueError
        raise DataError(relative, "-", f"not valid TOML: {toml_problem(exc)[0]}") from None


@dataclass(frozen=True)
class RulerCell:
    name: str
    forward: int
    side: int
    value: int
    blocked_by: tuple[int, ...]  # indices of ruler cells that must be empty


@dataclass(frozen=True)
class GameData:
    """The constants of the physical game, as read from ``data/``."""

    width: int
    height: int
    start_cells: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    dragon_names: tuple[str, str]
    ring: tuple[str, ...]
    abbrev: tuple[str, ...]
    symbols: tuple[str, ...]
    main: frozenset[str]
    setup_stacks: tuple[str, ...]
    capacity: int
    start_water: int
    start_fire: int
    water_stones: int
    fire_stones: int
    ruler: tuple[RulerCell, ...]
    village_cells: tuple[tuple[int, int], ...]


def _cells(doc: dict, file: str, dotted: str) -> tuple[tuple[int, int], ...]:
    raw = toml_field(doc, file, dotted, list)
    out = []
    for i, cell in enumerate(raw):
        if (
            not isinstance(cell, list)
            or len(cell) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        ):
            raise DataError(file, f"{dotted}[{i}]", f"expected [x, y], got {cell!r}")
        out.append((cell[0], cell[1]))
    return tuple(out)


@functools.cache
def game_data() -> GameData:
    board = load_toml("board.toml")
    bagua = load_toml("bagua.toml")
    ruler = load_toml("ruler.toml")
    ring = tuple(toml_field(bagua, "bagua.toml", "ring.order", list))
    if sorted(ring) != sorted(ELEMENTS):
        raise DataError(
            "bagua.toml", "ring.order", f"must name the eight elements once each: {ring}"
        )
    abbrev = tuple(toml_field(bagua, "bagua.toml", "ring.abbrev", list))
    if len(abbrev) != 8 or len({a.lower() for a in abbrev}) != 8:
        raise DataError("bagua.toml", "ring.abbrev", "needs eight distinct abbreviations")
    stacks = toml_field(bagua, "bagua.toml", "setup.stacks", dict)
    for name, stack in stacks.items():
        if name not in ring or not isinstance(stack, str) or set(stack) - {"W", "B"}:
            raise DataError("bagua.toml", f"setup.stacks.{name}", f"bad stack {stack!r}")
    names = [r["name"] for r in toml_field(ruler, "ruler.toml", "cell", list)]
    cells = []
    for i, entry in enumerate(ruler["cell"]):
        where = f"cell[{i}]"
        try:
            blocked = tuple(names.index(b) for b in entry.get("blocked_by", []))
            cells.append(
                RulerCell(
                    str(entry["name"]),
                    int(entry["forward"]),
                    int(entry["side"]),
                    int(entry["value"]),
                    blocked,
                )
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise DataError("ruler.toml", where, f"malformed ruler cell: {exc}") from None
    return GameData(
        width=toml_field(board, "board.toml", "board.width", int),
        height=toml_field(board, "board.toml", "board.height", int),
        start_cells=(
            _cells(board, "board.toml", "dragons.white.cells"),
            _cells(board, "board.toml", "dragons.black.cells"),
        ),
        dragon_names=(
            toml_field(board, "board.toml", "dragons.white.name", str),
            toml_field(board, "board.toml", "dragons.black.name", str),
        ),
        ring=ring,
        abbrev=abbrev,
        symbols=tuple(toml_field(bagua, "bagua.toml", "ring.symbols", list)),
        main=frozenset(toml_field(bagua, "bagua.toml", "ring.main", list)),
        setup_stacks=tuple(stacks.get(name, "") for name in ring),
        capacity=toml_field(bagua, "bagua.toml", "meters.capacity", int),
        start_water=toml_field(bagua, "bagua.toml", "meters.start_water", int),
        start_fire=toml_field(bagua, "bagua.toml", "meters.start_fire", int),
        water_stones=toml_field(bagua, "bagua.toml", "meters.water_stones", int),
        fire_stones=toml_field(bagua, "bagua.toml", "meters.fire_stones", int),
        ruler=tuple(cells),
        village_cells=_cells(board, "board.toml", "village.cells"),
    )


SCENARIO_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def scenario_names() -> list[str]:
    """Keys of the scenario files in ``data/scenarios`` (those named like a scenario)."""
    return sorted(
        p.stem for p in (data_dir() / "scenarios").glob("*.toml") if SCENARIO_NAME.fullmatch(p.stem)
    )


def scenario_file(key: str) -> Path:
    """The file of the scenario ``key``: a known name, resolved inside ``data/scenarios``.

    Raises :class:`RulesError` for anything else (a path, a name of the wrong form, a name
    with no file), listing the known scenarios.
    """
    path = _scenario_path(key) if isinstance(key, str) and SCENARIO_NAME.fullmatch(key) else None
    if path is None:
        known = ", ".join(scenario_names())
        raise RulesError(f"unknown scenario {shown(key)}; available: {known}")
    return path


@functools.lru_cache(maxsize=256)
def _scenario_path(key: str) -> Path | None:
    folder = (data_dir() / "scenarios").resolve()
    path = (folder / f"{key}.toml").resolve()
    return path if path.is_relative_to(folder) and path.is_file() else None


# ---- reading a user's file: every number, string and nesting bounded --------------------------
MAX_NESTING = 16  # the formats need a handful of levels
MAX_DIGITS = 20  # digits of a number in a JSON or TOML file
_HUGE = 10**MAX_DIGITS


def _json_int(text: str) -> int:
    # a number too long to read stands as one past the bound: check_bounds then names its field
    if len(text.lstrip("-")) > MAX_DIGITS:
        return _HUGE
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {shown(text)} is too large")
    return value


def json_decoder(**hooks) -> json.JSONDecoder:
    """A JSON decoder whose numbers are bounded (finite floats; whole numbers of more than
    :data:`MAX_DIGITS` digits read as a number past the bound, which :func:`decode_json`'s
    :func:`check_bounds` refuses with its field); ``hooks`` are passed on
    (``object_pairs_hook``, ``parse_constant``)."""
    return json.JSONDecoder(parse_int=_json_int, parse_float=_json_float, **hooks)


def decode_json(decoder: json.JSONDecoder, text: str, pos: int | None = None):
    """``decoder.decode(text)``, or ``decoder.raw_decode(text, pos)`` when ``pos`` is given,
    refusing values nested deeper than :data:`MAX_NESTING` levels (:class:`BoundError`)."""
    try:
        result = decoder.decode(text) if pos is None else decoder.raw_decode(text, pos)
    except RecursionError:
        raise BoundError("", _too_deep()) from None
    check_bounds(result if pos is None else result[0])
    return result


class BoundError(ValueError):
    """A value past a bound of :func:`check_bounds`; ``path`` says where, as in
    ``certificate.rows[2]`` (empty for the whole value)."""

    def __init__(self, path: str, reason: str):
        self.path, self.reason = path, reason
        super().__init__(f"{path}: {reason}" if path else reason)


def check_bounds(value: Any, limit: int = MAX_NESTING) -> None:
    """Raise :class:`BoundError` if lists and dicts in ``value`` nest deeper than ``limit``,
    or if it holds a whole number of more than :data:`MAX_DIGITS` digits: what a decoder from
    :func:`json_decoder` refuses, for values built in code."""
    level, depth = [(None, None, value)], 0  # (parent entry, key, value)
    while level:
        for entry in level:
            if isinstance(entry[2], int) and not -_HUGE < entry[2] < _HUGE:
                raise BoundError(_path(entry), f"a number has more than {MAX_DIGITS} digits")
        containers = [entry for entry in level if isinstance(entry[2], list | tuple | dict)]
        depth += bool(containers)
        if depth > limit:
            raise BoundError(_path(containers[0]), _too_deep(limit))
        level = [
            (entry, key, item)
            for entry in containers
            for key, item in (
                entry[2].items() if isinstance(entry[2], dict) else enumerate(entry[2])
            )
        ]


def _path(entry) -> str:
    parts = []
    while entry[0] is not None:
        parent, key, _ = entry
        parts.append(f".{str(key)[:40]}" if isinstance(parent[2], dict) else f"[{key}]")
        entry = parent
    return "".join(reversed(parts)).lstrip(".")


def _too_deep(limit: int = MAX_NESTING) -> str:
    return f"nested deeper than {limit} levels"


STRICT_DECODER = json_decoder(**STRICT_JSON)
"""The decoder of the lab's own JSON files (records, puzzles): bounded numbers, no key twice,
no NaN or infinity; read with :func:`decode_json`."""


def json_problem(exc: ValueError) -> tuple[str, str]:
    """The field and the reason of a JSON text :func:`decode_json` refused.

    Parameters
    ----------
    exc : ValueError
        What it raised: a :class:`BoundError` (its field), a ``json.JSONDecodeError`` or a
        hook's refusal.

    Returns
    -------
    tuple of (str, str)
        ``("json", reason)``, or the field past a bound and why.

    >>> json_problem(BoundError("rows[2]", "a number has too many digits"))
    ('rows[2]', 'a number has too many digits')
    """
    if isinstance(exc, BoundError):
        return exc.path or "json", exc.reason
    if isinstance(exc, json.JSONDecodeError):
        return "json", f"not valid JSON: {exc.msg} at column {exc.colno}"
    return "json", f"not valid JSON: {exc}"


def toml_problem(exc: BaseException, text: str = "") -> tuple[str, int | None]:
    """Why ``tomllib`` refused ``text``, and the line when it is known: its own message, or the
    bound it ran into."""
    if isinstance(exc, tomllib.TOMLDecodeError):
        return str(exc), None
    if isinstance(exc, RecursionError):
        return _too_deep(), None
    long_word = re.search(r"\w{1000}", text)
    line = text.count("\n", 0, long_word.start()) + 1 if long_word else None
    return "a number has too many digits", line
