"""Where things go in a picture, whatever draws it: the SVG and the matplotlib figures alike.

- :class:`Grid`: the Board of Human placed in a picture (its corner and the size of a cell);
  a cell's corner, centre and the box of a block of cells.
- :class:`Wheel`: the Ba Gua wheel placed in a picture; the point of a ring position.
- :func:`blocks` and :func:`rectangles` group the fixed tiles (the big rock, the village);
  :func:`occupied_portals` says which dragon passes through which portal.
- :func:`body_runs` and :func:`route_pieces` cut a dragon's body and a head's route into
  unbroken pieces where they jump between portals or cross an edge of the Torus.

The SVG picture's own measures (in its user units) are here too, for the modules that
draw it.

>>> from taolong_lab import new_game
>>> grid = Grid(new_game(), 10, 10, cell=44)
>>> grid.centre((0, 0)), grid.box([(1, 1), (2, 2)])
((32.0, 32.0), (54, 54, 88, 88))
>>> [round(v, 6) for v in Wheel(0, 0, 10, 3).point(2)]  # a quarter turn to the left
[-10.0, -0.0]
"""

from __future__ import annotations

import itertools
import math

from ..engine.geometry import VECTORS, cell_name
from ..rules.data import COLOURS, game_data

Cell = tuple[int, int]
Point = tuple[float, float]

# ---- the SVG picture's measures (user units; ``size`` only scales the picture) -------------
CELL = 44
MARGIN = 26  # room for the coordinates
PANEL_GAP = 30
PANEL_W = 300
WHEEL_R = 90  # radius of the ring through the centres of the eight spaces
CUP_R = 25
LABEL_R = WHEEL_R + CUP_R + 20
CENTRE_R = 40
WHEEL_TOP = 20  # the top of the Heaven label
CARD_H = 60
STONE_R = 6.2
PORTAL_R = CELL * 0.36
WRAP_NOTE = 22  # room under the Torus for its note
CAPTION_LINE = 16
READABLE_PX = 9  # the smallest a label is drawn on screen, in pixels, however small the picture


def label_size(size: float, scale: float) -> float:
    """A label's font size: ``size``, or larger when the picture is drawn at ``scale`` so
    small that it would be under :data:`READABLE_PX` pixels on screen.

    >>> label_size(13, 1.0), round(label_size(13, 0.5), 2)
    (13, 18.0)
    """
    return max(size, READABLE_PX / scale)


def text_width(text: str, font: float, bold: bool = False) -> float:
    """An estimate of the width of ``text`` at ``font`` (the font is not measured)."""
    return len(text) * font * (0.62 if bold else 0.6)


class Grid:
    """The Board of Human of ``state`` placed in a picture.

    Parameters
    ----------
    state : State
        The position whose board is drawn (its size, its geometry, whether it wraps).
    ox, oy : float
        The top-left corner of the board, in the picture's units.
    cell : float
        The side of a cell, in the picture's units.
    scale : float
        Screen pixels per unit of the picture (for :func:`label_size`).
    """

    def __init__(self, state, ox: float = 0, oy: float = 0, *, cell: float = 1, scale=1.0):
        tables = state.tables
        self.ox, self.oy, self.cell = ox, oy, cell
        self.scale = scale
        self.width, self.height = tables.layout.width, tables.layout.height
        self.geo = tables.geo
        self.wrap = tables.geo.wrap

    def corner(self, xy: Cell) -> Point:
        """The top-left corner of the cell ``(x, y)``."""
        return self.ox + xy[0] * self.cell, self.oy + xy[1] * self.cell

    def centre(self, xy: Cell) -> Point:
        """The centre of the cell ``(x, y)``."""
        return self.ox + (xy[0] + 0.5) * self.cell, self.oy + (xy[1] + 0.5) * self.cell

    def cell_centre(self, index: int) -> Point:
        """The centre of the cell with this index in the engine's tables."""
        return self.centre(self.geo.xy[index])

    def box(self, block) -> tuple[float, float, float, float]:
        """``(x, y, width, height)`` of the smallest box holding the cells of ``block``."""
        xs, ys = [c[0] for c in block], [c[1] for c in block]
        x0, y0 = self.corner((min(xs), min(ys)))
        return x0, y0, (max(xs) - min(xs) + 1) * self.cell, (max(ys) - min(ys) + 1) * self.cell


class Wheel:
    """The Ba Gua wheel placed in a picture.

    Parameters
    ----------
    cx, cy : float
        The centre of the wheel.
    radius : float
        The radius of the ring through the centres of the eight spaces.
    cup : float
        The radius of a space.
    scale : float
        Screen pixels per unit of the picture (for :func:`label_size`).
    """

    def __init__(self, cx: float, cy: float, radius: float, cup: float, scale: float = 1.0):
        self.cx, self.cy, self.radius, self.cup = cx, cy, radius, cup
        self.scale = scale

    def point(self, index: float, radius: float | None = None) -> Point:
        """Ring position ``index`` (0 at the top, growing counterclockwise; fractions fall
        between spaces) at ``radius`` from the centre (default: the ring of the spaces)."""
        r = self.radius if radius is None else radius
        angle = math.radians(90 + 360 * index / len(game_data().ring))
        return self.cx + r * math.cos(angle), self.cy - r * math.sin(angle)


# ---- the fixed tiles ----------------------------------------------------------------------
def blocks(rows, symbol: str) -> list[list[Cell]]:
    """The cells holding ``symbol``, grouped into 4-connected blocks, each in reading order.

    >>> blocks(["#.#", "##."], "#")
    [[(0, 0), (0, 1), (1, 1)], [(2, 0)]]
    """
    seen: set[Cell] = set()
    found = []
    for y, row in enumerate(rows):
        for x, sym in enumerate(row):
            if sym != symbol or (x, y) in seen:
                continue
            seen.add((x, y))
            todo, block = [(x, y)], []
            while todo:
                cx, cy = todo.pop()
                block.append((cx, cy))
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    inside = 0 <= ny < len(rows) and 0 <= nx < len(rows[ny])
                    if inside and rows[ny][nx] == symbol and (nx, ny) not in seen:
                        seen.add((nx, ny))
                        todo.append((nx, ny))
            found.append(sorted(block, key=lambda c: (c[1], c[0])))
    return found


def rectangles(rows, symbol: str) -> list[list[Cell]]:
    """The :func:`blocks` of ``symbol`` that fill their bounding box; any other block is split
    into single cells.

    >>> rectangles(["##.", "##.", "#.."], "#")
    [[(0, 0)], [(1, 0)], [(0, 1)], [(1, 1)], [(0, 2)]]
    """
    out = []
    for block in blocks(rows, symbol):
        xs, ys = [c[0] for c in block], [c[1] for c in block]
        if len(block) == (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1):
            out.append(block)
        else:
            out.extend([cell] for cell in block)
    return out


def cell_names(cells) -> str:
    """Cell names separated by spaces: ``"a1 b1"``."""
    return " ".join(cell_name(c) for c in cells)


def occupied_portals(state) -> dict[int, str]:
    """Portal cell index -> the colour of the dragon passing through it."""
    return {
        p: colour
        for colour, dragon in zip(COLOURS, state.dragons, strict=True)
        for _, q, e in dragon.links
        for p in (q, e)
    }


# ---- bodies and routes ------------------------------------------------------------------------
def body_runs(
    state, colour: str, grid: Grid
) -> tuple[list[list[Point]], list[tuple[Point, Point]]]:
    """A dragon's body as unbroken runs of points (cell centres), and its stubs.

    A run breaks where the body passes through a pair of portals (it ends in the exit portal
    and starts again in the entry portal) and where it crosses a wrapping edge (a stub then
    goes from the cell centre to the edge, and another from the opposite edge into the next
    cell).
    """
    dragon = state.dragon(colour)
    geo = grid.geo
    links = {i: (q, e) for i, q, e in dragon.links}
    chain: list[int | None] = []  # tiles head first; None where the body jumps between portals
    for i, cell in enumerate(dragon.cells):
        chain.append(cell)
        if i in links:
            chain.extend((links[i][0], None, links[i][1]))
    runs = [[grid.cell_centre(chain[0])]]
    stubs = []
    half = grid.cell / 2
    for a, b in itertools.pairwise(chain):
        if b is None:
            runs.append([])
        elif a is None:
            runs[-1].append(grid.cell_centre(b))
        else:
            (ax, ay), (bx, by) = geo.xy[a], geo.xy[b]
            if abs(ax - bx) + abs(ay - by) != 1:  # across a wrapping edge
                dx, dy = VECTORS[geo.direction[(a, b)]]
                (px, py), (qx, qy) = grid.cell_centre(a), grid.cell_centre(b)
                stubs.append(((px, py), (px + dx * half, py + dy * half)))
                stubs.append(((qx - dx * half, qy - dy * half), (qx, qy)))
                runs.append([])
            runs[-1].append(grid.cell_centre(b))
    return runs, stubs


def route_pieces(grid: Grid, route) -> tuple[list[list[Point]], list[tuple[Point, Point]]]:
    """A head's route (a :class:`~taolong_lab.pictures.trace.Route`) as unbroken polylines,
    and the jumps (portal to portal) between them; a step across a Torus edge leaves by one
    side and comes back by the other."""
    geo = grid.geo
    portals = {i: (entry, exit_) for i, entry, exit_ in route.portals}
    pieces = [[grid.centre(route.cells[0])]]
    jumps = []
    prev = route.cells[0]
    half = grid.cell / 2
    for i, cell in enumerate(route.cells[1:]):
        if i in portals:
            entry, exit_ = portals[i]
            pieces[-1].append(grid.centre(entry))
            jumps.append((grid.centre(entry), grid.centre(exit_)))
            pieces.append([grid.centre(exit_), grid.centre(cell)])
        elif abs(prev[0] - cell[0]) + abs(prev[1] - cell[1]) != 1:  # across a Torus edge
            dx, dy = VECTORS[geo.direction[(geo.index(prev), geo.index(cell))]]
            (px, py), (qx, qy) = grid.centre(prev), grid.centre(cell)
            pieces[-1].append((px + dx * half, py + dy * half))
            pieces.append([(qx - dx * half, qy - dy * half), (qx, qy)])
        else:
            pieces[-1].append(grid.centre(cell))
        prev = cell
    return pieces, jumps


__all__ = [
    "CAPTION_LINE",
    "CARD_H",
    "CELL",
    "CENTRE_R",
    "CUP_R",
    "LABEL_R",
    "MARGIN",
    "PANEL_GAP",
    "PANEL_W",
    "PORTAL_R",
    "READABLE_PX",
    "STONE_R",
    "WHEEL_R",
    "WHEEL_TOP",
    "WRAP_NOTE",
    "Grid",
    "Wheel",
    "blocks",
    "body_runs",
    "cell_names",
    "label_size",
    "occupied_portals",
    "rectangles",
    "text_width",
]
