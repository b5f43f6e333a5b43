"""The Long Tau board, read from ``data/games/long-tau/board.toml``: the squares, the four
areas and the Golden Chair, the straight lines that join them, and each square's distance
from the chair.

The squares are numbered in reading order (top row first, left to right). A square is named
like a chess square: its column's letter and its row counted from the bottom (``a1`` is the
bottom left corner of the grid).

>>> board = long_tau_board()
>>> len(board.cells), [len(board.areas[name]) for name in AREAS]
(92, [22, 22, 22, 22])
>>> [board.name(i) for i in board.chair]
['f7', 'g7', 'f6', 'g6']
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ...errors import DataError
from ...readers import toml_field
from ...rules.data import load_toml, shown

FILE = "games/long-tau/board.toml"
AREAS = ("north", "east", "south", "west")
AREA_SQUARES = 22
HOME_SQUARES = 12
CHAIR_SQUARES = 4
MAX_SIZE = 26  # a column is one letter
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # up, right, down, left


@dataclass(frozen=True)
class LongTauBoard:
    """The board's geometry.

    ``cells[i]`` is square ``i`` as ``(x, y)``; ``across`` tells whether a line crosses the
    spaces between the areas (else it ends where the squares end); ``areas`` and ``homes``
    map an area's name to its squares and to the 12 nearest the board's edge; ``chair`` holds
    the Golden Chair's squares; ``rays[i]`` gives, for each direction from square ``i``, the
    squares along the line in that direction, nearest first; ``neighbours[i]`` the squares
    one step away along a line; ``steps[i]`` the fewest steps along the lines to a chair square and
    ``euclidean[i]`` the straight distance from the chair's centre, in squares.
    """

    size: int
    across: bool
    cells: tuple[tuple[int, int], ...]
    chair: tuple[int, ...]
    areas: dict
    homes: dict
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    steps: tuple[int, ...]
    euclidean: tuple[float, ...]

    def name(self, index: int) -> str:
        """The name of square ``index``, e.g. ``"f7"``."""
        x, y = self.cells[index]
        return f"{chr(ord('a') + x)}{self.size - y}"

    @functools.cached_property
    def names(self) -> dict:
        """Square name -> square index."""
        return {self.name(i): i for i in range(len(self.cells))}


def _number(doc: dict, dotted: str) -> int:
    return toml_field(doc, FILE, dotted, int)


def _field(doc: dict, dotted: str):
    return toml_field(doc, FILE, dotted)


def _rectangle(value, dotted: str, size: int) -> list[tuple[int, int]]:
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise DataError(FILE, dotted, f"expected [x0, x1, y0, y1], got {shown(value)}")
    x0, x1, y0, y1 = value
    if not (0 <= x0 <= x1 < size and 0 <= y0 <= y1 < size):
        raise DataError(FILE, dotted, f"not a rectangle inside the {size}x{size} grid")
    return [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


def _inferred(doc: dict, section: str) -> None:
    """Every section states that it is inferred and why (the rulebook's picture is lost)."""
    if _field(doc, f"{section}.inferred") is not True:
        raise DataError(FILE, f"{section}.inferred", "must be true: the board is inferred")
    reason = _field(doc, f"{section}.reason")
    if not isinstance(reason, str) or not reason.strip():
        raise DataError(FILE, f"{section}.reason", "a one-line reason is needed")


def read_board(doc: dict, areas: tuple[str, ...] = AREAS, across: bool = True) -> LongTauBoard:
    """Check a board document and build its geometry with the chair and ``areas`` only (the
    others closed: their squares are not on the board, like the spaces between areas).

    Parameters
    ----------
    doc
        The parsed TOML document.
    areas
        The areas in play.
    across
        Whether a line runs on over the spaces between the areas to the next square along
        it (the grid's rows and columns, edge to edge), or ends at the last square before one.

    Returns
    -------
    LongTauBoard

    Raises
    ------
    DataError
        A field is missing or wrong, named.
    """
    size = _number(doc, "grid.size")
    if not 4 <= size <= MAX_SIZE:
        raise DataError(FILE, "grid.size", f"must be 4 to {MAX_SIZE}, not {size}")
    for section in ("grid", "lines", "chair", *(f"areas.{name}" for name in AREAS)):
        _inferred(doc, section)
    if _field(doc, "lines.kind") != "orthogonal":
        raise DataError(FILE, "lines.kind", "only 'orthogonal' lines are known")
    raw_chair = _field(doc, "chair.cells")
    if not isinstance(raw_chair, list) or len(raw_chair) != CHAIR_SQUARES:
        raise DataError(FILE, "chair.cells", f"expected {CHAIR_SQUARES} squares [x, y]")
    chair = []
    for k, cell in enumerate(raw_chair):
        if not isinstance(cell, list) or len(cell) != 2:
            raise DataError(FILE, f"chair.cells[{k}]", f"expected [x, y], got {shown(cell)}")
        chair.append(_rectangle([cell[0], cell[0], cell[1], cell[1]], f"chair.cells[{k}]", size)[0])
    taken = {cell: "chair" for cell in chair}
    area_cells, home_cells = {}, {}
    for name in AREAS:
        rectangles = _field(doc, f"areas.{name}.rectangles")
        if not isinstance(rectangles, list):
            raise DataError(FILE, f"areas.{name}.rectangles", "expected a list of rectangles")
        cells = []
        for k, rectangle in enumerate(rectangles):
            cells += _rectangle(rectangle, f"areas.{name}.rectangles[{k}]", size)
        for cell in cells:
            if cell in taken:
                raise DataError(FILE, f"areas.{name}", f"square {cell} is also {taken[cell]}'s")
            taken[cell] = name
        if len(cells) != AREA_SQUARES:
            raise DataError(FILE, f"areas.{name}", f"has {len(cells)} squares, not 22")
        home = _rectangle(_field(doc, f"areas.{name}.home"), f"areas.{name}.home", size)
        if len(home) != HOME_SQUARES or not set(home) <= set(cells):
            raise DataError(FILE, f"areas.{name}.home", "must be 12 squares of the area")
        area_cells[name], home_cells[name] = cells, home
    kept = [cell for cell, owner in taken.items() if owner == "chair" or owner in areas]
    cells = tuple(sorted(kept, key=lambda c: (c[1], c[0])))
    index = {cell: i for i, cell in enumerate(cells)}
    rays = []
    for x, y in cells:
        out = []
        for dx, dy in STEPS:
            ray, at = [], (x + dx, y + dy)
            while 0 <= at[0] < size and 0 <= at[1] < size and (across or at in index):
                if at in index:
                    ray.append(index[at])
                at = (at[0] + dx, at[1] + dy)
            out.append(tuple(ray))
        rays.append(tuple(out))
    neighbours = tuple(tuple(ray[0] for ray in out if ray) for out in rays)
    chair_index = tuple(index[c] for c in chair)
    steps = [-1] * len(cells)
    frontier = list(chair_index)
    for i in frontier:
        steps[i] = 0
    for i in frontier:  # grows while it is read: a breadth-first walk
        for j in neighbours[i]:
            if steps[j] < 0:
                steps[j] = steps[i] + 1
                frontier.append(j)
    if min(steps) < 0:
        raise DataError(FILE, "areas", "every square must be joined to the chair by lines")
    cx = sum(x for x, _ in chair) / CHAIR_SQUARES
    cy = sum(y for _, y in chair) / CHAIR_SQUARES
    return LongTauBoard(
        size=size,
        across=across,
        cells=cells,
        chair=chair_index,
        areas={n: tuple(sorted(index[c] for c in area_cells[n])) for n in areas},
        homes={n: tuple(sorted(index[c] for c in home_cells[n])) for n in areas},
        rays=tuple(rays),
        neighbours=neighbours,
        steps=tuple(steps),
        euclidean=tuple(math.hypot(x - cx, y - cy) for x, y in cells),
    )


@functools.cache
def long_tau_board(areas: tuple[str, ...] = AREAS, across: bool = True) -> LongTauBoard:
    """The board of ``data/games/long-tau/board.toml``, with the chair and ``areas``.

    Parameters
    ----------
    areas
        The areas in play (all four unless two are closed).
    across
        Whether the lines cross the spaces between the areas (see :func:`read_board`).

    Returns
    -------
    LongTauBoard

    Raises
    ------
    DataError
        The file is missing or a field is wrong, named.
    """
    if not set(areas) <= set(AREAS):
        raise DataError(FILE, "areas", f"unknown area among {shown(areas)}")
    return read_board(load_toml(FILE), tuple(areas), across)


__all__ = ["AREAS", "LongTauBoard", "long_tau_board", "read_board"]
