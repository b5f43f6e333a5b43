"""Load the game's constants from ``data/`` (board, Ba Gua, ruler, scenarios).

Everything inferred about the game lives in those TOML files, never in code.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError

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
    except tomllib.TOMLDecodeError as exc:
        raise DataError(relative, "-", f"not valid TOML: {exc}") from None


def _get(doc: dict, file: str, dotted: str, kind: type):
    node = doc
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            raise DataError(file, dotted, "missing")
        node = node[part]
    if (kind is int and isinstance(node, bool)) or not isinstance(node, kind):
        raise DataError(file, dotted, f"expected {kind.__name__}, got {node!r}")
    return node


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
    raw = _get(doc, file, dotted, list)
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
    ring = tuple(_get(bagua, "bagua.toml", "ring.order", list))
    if sorted(ring) != sorted(ELEMENTS):
        raise DataError(
            "bagua.toml", "ring.order", f"must name the eight elements once each: {ring}"
        )
    abbrev = tuple(_get(bagua, "bagua.toml", "ring.abbrev", list))
    if len(abbrev) != 8 or len({a.lower() for a in abbrev}) != 8:
        raise DataError("bagua.toml", "ring.abbrev", "needs eight distinct abbreviations")
    stacks = _get(bagua, "bagua.toml", "setup.stacks", dict)
    for name, stack in stacks.items():
        if name not in ring or not isinstance(stack, str) or set(stack) - {"W", "B"}:
            raise DataError("bagua.toml", f"setup.stacks.{name}", f"bad stack {stack!r}")
    names = [r["name"] for r in _get(ruler, "ruler.toml", "cell", list)]
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
        width=_get(board, "board.toml", "board.width", int),
        height=_get(board, "board.toml", "board.height", int),
        start_cells=(
            _cells(board, "board.toml", "dragons.white.cells"),
            _cells(board, "board.toml", "dragons.black.cells"),
        ),
        dragon_names=(
            _get(board, "board.toml", "dragons.white.name", str),
            _get(board, "board.toml", "dragons.black.name", str),
        ),
        ring=ring,
        abbrev=abbrev,
        symbols=tuple(_get(bagua, "bagua.toml", "ring.symbols", list)),
        main=frozenset(_get(bagua, "bagua.toml", "ring.main", list)),
        setup_stacks=tuple(stacks.get(name, "") for name in ring),
        capacity=_get(bagua, "bagua.toml", "meters.capacity", int),
        start_water=_get(bagua, "bagua.toml", "meters.start_water", int),
        start_fire=_get(bagua, "bagua.toml", "meters.start_fire", int),
        water_stones=_get(bagua, "bagua.toml", "meters.water_stones", int),
        fire_stones=_get(bagua, "bagua.toml", "meters.fire_stones", int),
        ruler=tuple(cells),
        village_cells=_cells(board, "board.toml", "village.cells"),
    )


def scenario_names() -> list[str]:
    """Keys of the scenario files in ``data/scenarios``."""
    return sorted(p.stem for p in (data_dir() / "scenarios").glob("*.toml"))
