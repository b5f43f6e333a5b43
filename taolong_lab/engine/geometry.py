"""Board geometry: cells, directions, neighbours, cell names.

Cells are small integers ``y * width + x`` on the hot path; the public value types use
``(x, y)`` pairs and names like ``"a1"`` (column letter, row number counted from the top).
"""

from __future__ import annotations

import functools
import re

from ..errors import NotationError
from ..rules.data import shown

# Directions, clockwise from north. Even = vertical axis, odd = horizontal axis.
N, E, S, W = 0, 1, 2, 3
DIRECTIONS = ("N", "E", "S", "W")
VECTORS = ((0, -1), (1, 0), (0, 1), (-1, 0))
VERTICAL, HORIZONTAL = 0, 1

_CELL_RE = re.compile(r"([a-z])([0-9]{1,2})\Z")


def axis(direction: int) -> int:
    """0 for a vertical direction (N, S), 1 for a horizontal one (E, W)."""
    return direction & 1


def cell_name(xy: tuple[int, int]) -> str:
    """``(0, 0)`` is ``"a1"``: column letter, then row number counted from the top.

    >>> cell_name((2, 4))
    'c5'
    """
    return f"{chr(97 + xy[0])}{xy[1] + 1}"


def parse_cell(text: str) -> tuple[int, int]:
    """Inverse of :func:`cell_name`.

    >>> parse_cell("c5")
    (2, 4)
    """
    match = _CELL_RE.match(text.strip().lower()) if isinstance(text, str) else None
    if not match:
        raise NotationError(
            f"{shown(text)} is not a cell name (expected a letter and a row, like 'c5')"
        )
    return ord(match[1]) - 97, int(match[2]) - 1


class Geometry:
    """Neighbour tables for a ``width`` x ``height`` board (optionally wrapping, for the Torus)."""

    def __init__(self, width: int, height: int, wrap: bool = False):
        self.width, self.height, self.wrap = width, height, wrap
        self.size = width * height
        self.xy = tuple((c % width, c // width) for c in range(self.size))
        nbr = []
        for x, y in self.xy:
            row = []
            for dx, dy in VECTORS:
                nx, ny = x + dx, y + dy
                if wrap:
                    nx, ny = nx % width, ny % height
                row.append(ny * width + nx if 0 <= nx < width and 0 <= ny < height else -1)
            nbr.append(tuple(row))
        self.nbr = tuple(nbr)
        self.direction = {
            (a, b): d for a in range(self.size) for d, b in enumerate(self.nbr[a]) if b >= 0
        }
        self._shifts = self._shift_masks()

    def _shift_masks(self) -> tuple:
        """For each direction: (shift, the cells that move by it, the cells that wrap, how far
        they wrap), as :meth:`shift` uses them."""
        w, h, size = self.width, self.height, self.size
        full = (1 << size) - 1
        first_col = sum(1 << (y * w) for y in range(h))
        last_col = first_col << (w - 1)
        first_row, last_row = (1 << w) - 1, ((1 << w) - 1) << (w * (h - 1))
        wrap = self.wrap
        return (
            (-w, full & ~first_row, first_row if wrap else 0, w * (h - 1)),
            (1, full & ~last_col, last_col if wrap else 0, -(w - 1)),
            (w, full & ~last_row, last_row if wrap else 0, -w * (h - 1)),
            (-1, full & ~first_col, first_col if wrap else 0, w - 1),
        )

    def shift(self, cells: int, direction: int) -> int:
        """The bit mask of cells (bit ``y * width + x``) moved one step in ``direction``;
        cells that step off the board are dropped, or wrap round on a wrapping board.

        >>> g = Geometry(3, 2)
        >>> g.shift(1 << 0, 1), g.shift(1 << 0, 3), g.shift(1 << 4, 0)
        (2, 0, 2)
        """
        by, moving, wrapping, far = self._shifts[direction]
        moved = cells & moving
        out = moved << by if by > 0 else moved >> -by
        if wrapping and cells & wrapping:
            back = cells & wrapping
            out |= back << far if far > 0 else back >> -far
        return out

    def index(self, xy: tuple[int, int]) -> int:
        x, y = xy
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"{cell_name(xy)} is off the {self.width}x{self.height} board")
        return y * self.width + x

    def name(self, cell: int) -> str:
        return cell_name(self.xy[cell])

    def walk(self, cell: int, moves: list[int]) -> int:
        """Follow a list of directions from ``cell``; -1 once off the board."""
        for d in moves:
            if cell < 0:
                return -1
            cell = self.nbr[cell][d]
        return cell


@functools.cache
def geometry(width: int, height: int, wrap: bool = False) -> Geometry:
    return Geometry(width, height, wrap)
