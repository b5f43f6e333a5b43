"""An SVG picture of a position: the Board of Human and the Board of Ba Gua.

Plain string building, no dependencies; the output is deterministic, so it can be
snapshot-tested and committed. ``State._repr_svg_`` calls :func:`board_svg`, which is how
JupyterLab shows a position.

- The board: the scenario's cells (8x8, the Torus 6x6) with coordinates (``a``-``h`` across
  the top, ``1``-``8`` down the side; ``a1`` is the top-left cell, as in the notation).
- Its fixed tiles: the big rock as one boulder over its 2x2 block; small rocks as pebbles (a
  breakable rock, in The Wall and The Cave, shows the hits it can still take as pips under it,
  and once damaged it is chipped and cracked right through); the Village as a walled 2x2
  square of little houses round a pagoda flying its protector's banner; portals as rings in
  their colour (green, red, blue, yellow), open with a swirl while free, closed (filled)
  while a dragon passes through them. The Torus has a dashed frame with matching arrows on
  opposite edges: they are joined.
- Each dragon is a snake in its colour (the white dragon light with a dark outline, the black
  dragon dark) through its cells, one scale mark per segment; the head is drawn on top,
  pointing the way it faces, with eyes. A defeated dragon keeps only its head, crossed out.
  A body passing through portals dives into the exit portal and comes out of the entry
  portal, and a dotted thread in the dragon's colours joins the two; on the Torus a body
  crossing an edge leaves the board on one side and comes back on the other.
- Under the board: the scenario and its motto, the mode and options, and what the special
  tiles do.
- Beside the board, the Ba Gua wheel in ring order: Heaven at the top and sowing
  (counterclockwise, ring index + 1) going to the left; in Master and Chosen One, where a
  stack may flow either way, double chevrons and the flux coin (top right: black side up with
  a counterclockwise arrow, or white side up with a clockwise one). Each space shows its
  trigram, its abbreviation and its stones as small discs in stack order (base stone on the
  left, top stone on the right, drawn over the others). The centre of the wheel holds the
  centre's water and fire stones.
- Below the wheel: each dragon's segments, water and fire meters (a little house marks the
  village's protector), then whose turn it is (or the result).
- Chosen One: the Board of Human is in the players' minds, so it is not drawn (nor written in
  the picture's title) unless ``reveal=True``.

Elements carry classes and ``data-*`` attributes for tests and styling: ``big-rock``
(``data-cells``), ``rock`` [``breakable``] [``damaged``] (``data-cell``, ``data-hits``),
``village`` (``data-cells``, ``data-protector``), ``portal <colour> free|occupied``
(``data-cell``, ``data-colour``, ``data-dragon``), ``portal-link`` (``data-exit``,
``data-entry``), ``flux-coin`` (``data-flux``), ``board hidden``; each board cell ``cell``
(``data-cell``), each Ba Gua space ``space`` (``data-space`` its abbreviation as in the
notation, ``data-element``, ``data-index``) and its stones ``stone`` (``data-space``,
``data-index``), each body tile ``segment straight|bent|tail`` (``data-cell``). Overlays
(a turn, destinations, highlights) come from :mod:`taolong_lab.render`.

``python -m taolong_lab.views.svg [--reveal] [TLN]`` prints the SVG of a position (default:
the start).
"""

from __future__ import annotations

import itertools
import math
import textwrap
from xml.sax.saxutils import escape, quoteattr

from ..engine.codec import FLUX_MODES, board_rows
from ..engine.core import ROCK_HITS
from ..engine.geometry import VECTORS, cell_name
from ..rules.data import COLOURS, game_data
from ..rules.scenario import load_scenario

# ---- palette ----------------------------------------------------------------------------------
INK = "#2b2622"
PAPER = "#fbf7ee"
LIGHT_CELL, DARK_CELL, GRID = "#f1e7d0", "#e6d7b8", "#b9a37c"
WATER, FIRE = "#2f78c4", "#e0562b"
RING, CUP, MAIN_CUP = "#9c8763", "#f6efdf", "#efe2c4"
STONE = {"W": ("#fcfaf3", "#5b5247"), "B": ("#26221f", "#000000")}
# per dragon: outline, body, scale marks, eyes
DRAGON = (
    {"outline": "#3a332c", "body": "#fbf6e9", "scale": "#cdbf9f", "eye": "#1f1b17"},
    {"outline": "#0d0c0b", "body": "#34302c", "scale": "#6e665d", "eye": "#f2c14e"},
)
FRAME, WRAP = "#8a6f47", "#5e4a30"
ROCK = {
    "base": "#978e80",
    "damaged": "#a39a8b",
    "light": "#b4ac9e",
    "shine": "#cdc6b9",
    "edge": "#5c554b",
    "crack": "#2f2a24",
    "pip": "#5c554b",
}
VILLAGE = {
    "ground": "#dfe6b8",
    "wall": "#8d7a55",
    "lane": "#efe3c2",
    "ink": "#4a3d2c",
    "roofs": ("#b4432e", "#3f6f6a"),
}
# portal colour letter -> name, ring colour, its dark shade (closed portal), its pale tint (open)
PORTAL = {
    "G": {"name": "green", "ring": "#3f9a58", "dark": "#1f5a31", "pale": "#dcefdc"},
    "R": {"name": "red", "ring": "#cf4436", "dark": "#7e2219", "pale": "#f8dcd6"},
    "B": {"name": "blue", "ring": "#3b78c6", "dark": "#1d4479", "pale": "#d9e6f6"},
    "Y": {"name": "yellow", "ring": "#dcae22", "dark": "#8a6a0c", "pale": "#f8eec9"},
}
MIST = {"ground": "#ebe4d5", "band": "#ddd3bf", "ink": "#9c8763"}
COIN = {"ccw": ("#26221f", "#000000", "#f2ead8"), "cw": ("#fcfaf3", "#5b5247", "#2b2622")}
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

# ---- layout (user units; ``size`` only scales the picture) -----------------------------------
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
DIRECTION_ANGLE = {"N": 0, "E": 90, "S": 180, "W": 270}


def _n(value: float) -> str:
    """A number for an attribute: at most 2 decimals, no trailing zeros, no '-0'."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(**attrs) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        number = isinstance(value, float | int) and not isinstance(value, bool)
        text = _n(value) if number else value
        parts.append(f"{name}={quoteattr(str(text))}")
    return " ".join(parts)


def _el(tag: str, **attrs) -> str:
    return f"<{tag} {_attrs(**attrs)}/>"


def _text(x: float, y: float, content: str, **attrs) -> str:
    return f"<text {_attrs(x=x, y=y, **attrs)}>{escape(content)}</text>"


# ---- the board of Human ---------------------------------------------------------------------
class _Grid:
    """Where the Board of Human sits in the picture: its origin, size in cells, wrapping."""

    def __init__(self, state, ox: float, oy: float, ids: str | None = None):
        env = state.tables
        self.ids = ids  # a prefix for element ids, or None for no ids
        self.ox, self.oy = ox, oy
        self.width, self.height = env.layout.width, env.layout.height
        self.wrap = env.geo.wrap
        self.geo = env.geo

    def centre(self, xy: tuple[int, int]) -> tuple[float, float]:
        return _centre(xy[0], xy[1], self.ox, self.oy)

    def cell_centre(self, cell: int) -> tuple[float, float]:
        return self.centre(self.geo.xy[cell])


def _centre(x: int, y: int, ox: float, oy: float) -> tuple[float, float]:
    return ox + (x + 0.5) * CELL, oy + (y + 0.5) * CELL


def _board(grid: _Grid, coordinates: bool) -> list[str]:
    ox, oy, w, h = grid.ox, grid.oy, grid.width, grid.height
    out = [f'<g class="board{" torus" if grid.wrap else ""}">']
    if not grid.wrap:  # the Torus has no edge: its frame is drawn by _wrap_marks
        out.append(
            _el(
                "rect",
                x=ox - 4,
                y=oy - 4,
                width=w * CELL + 8,
                height=h * CELL + 8,
                rx=5,
                fill=FRAME,
            )
        )
    for y in range(h):
        for x in range(w):
            fill = LIGHT_CELL if (x + y) % 2 == 0 else DARK_CELL
            name = cell_name((x, y))
            out.append(
                _el(
                    "rect",
                    id=f"{grid.ids}cell-{name}" if grid.ids is not None else None,
                    class_="cell",
                    data_cell=name,
                    x=ox + x * CELL,
                    y=oy + y * CELL,
                    width=CELL,
                    height=CELL,
                    fill=fill,
                )
            )
    for i in range(w + 1):
        x = ox + i * CELL
        out.append(_el("line", x1=x, y1=oy, x2=x, y2=oy + h * CELL, stroke=GRID, stroke_width=1))
    for i in range(h + 1):
        y = oy + i * CELL
        out.append(_el("line", x1=ox, y1=y, x2=ox + w * CELL, y2=y, stroke=GRID, stroke_width=1))
    out.append("</g>")
    if grid.wrap:
        out.extend(_wrap_marks(grid))
    if coordinates:
        out.append(f'<g class="coordinates" {_attrs(font_size=13, fill="#6b5a40")}>')
        for x in range(w):
            cx = ox + (x + 0.5) * CELL
            out.append(_text(cx, oy - 10, chr(97 + x), text_anchor="middle"))
        for y in range(h):
            cy = oy + (y + 0.5) * CELL + 4.5
            out.append(_text(ox - 11, cy, str(y + 1), text_anchor="middle"))
        out.append("</g>")
    return out


def _wrap_marks(grid: _Grid) -> list[str]:
    """The Torus: a dashed frame, and the same arrows on each pair of opposite edges (one
    arrow left and right, two top and bottom), the usual picture of edges glued together."""
    ox, oy = grid.ox, grid.oy
    bw, bh = grid.width * CELL, grid.height * CELL
    out = ['<g class="wrap">', "<title>The Torus: opposite edges are joined</title>"]
    out.append(
        _el(
            "rect",
            x=ox - 2.5,
            y=oy - 2.5,
            width=bw + 5,
            height=bh + 5,
            rx=3,
            fill="none",
            stroke=FRAME,
            stroke_width=3,
            stroke_dasharray="8 5",
        )
    )

    def arrows(x: float, y: float, angle: int, count: int, edge: str) -> None:
        for k in range(count):
            shift = (k - (count - 1) / 2) * 8
            out.append(
                _el(
                    "path",
                    class_="wrap-arrow",
                    data_edge=edge,
                    d="M -5.5 3.5 L 0 -3 L 5.5 3.5",
                    fill="none",
                    stroke=WRAP,
                    stroke_width=2.8,
                    stroke_linecap="round",
                    stroke_linejoin="round",
                    transform=f"translate({_n(x)} {_n(y)}) rotate({angle}) "
                    f"translate(0 {_n(shift)})",
                )
            )

    mx, my = ox + bw / 2, oy + bh / 2
    for x, y, angle, count, edge in (
        (ox - 2.5, my, 0, 1, "left"),
        (ox + bw + 2.5, my, 0, 1, "right"),
        (mx, oy - 2.5, 90, 2, "top"),
        (mx, oy + bh + 2.5, 90, 2, "bottom"),
    ):
        out.append(_el("rect", x=x - 9, y=y - 9, width=18, height=18, rx=4, fill=PAPER))
        arrows(x, y, angle, count, edge)
    out.append(
        _text(
            ox + bw / 2,
            oy + bh + 24,
            "opposite edges are joined",
            class_="wrap-note",
            text_anchor="middle",
            font_size=11.5,
            fill="#6b5a40",
        )
    )
    out.append("</g>")
    return out


# ---- the fixed tiles: rocks, the village, portals -----------------------------------------
# Outlines in unit-square coordinates, smoothed into pebbles by _blob. The big rock is one
# boulder over its 2x2 block; small rocks take one of three shapes, by cell, so that a row of
# rocks does not look stamped.
BOULDER = (
    (0.05, 0.6), (0.1, 0.3), (0.28, 0.1), (0.52, 0.05), (0.77, 0.1), (0.94, 0.32),
    (0.96, 0.64), (0.84, 0.88), (0.56, 0.96), (0.26, 0.93), (0.09, 0.8),
)  # fmt: skip
PEBBLES = (
    ((0.14, 0.62), (0.2, 0.3), (0.45, 0.15), (0.74, 0.2), (0.88, 0.48), (0.8, 0.8),
     (0.5, 0.88), (0.24, 0.84)),
    ((0.12, 0.5), (0.3, 0.2), (0.6, 0.14), (0.84, 0.32), (0.88, 0.62), (0.66, 0.86),
     (0.36, 0.88), (0.16, 0.76)),
    ((0.16, 0.7), (0.14, 0.4), (0.34, 0.18), (0.62, 0.16), (0.86, 0.38), (0.84, 0.7),
     (0.62, 0.88), (0.34, 0.88)),
)  # fmt: skip


def _blob(points, x0: float, y0: float, w: float, h: float, shrink: float = 1.0) -> str:
    """A closed smooth path through ``points`` (unit square, scaled to the box), drawn with
    Catmull-Rom curves; ``shrink`` scales it about the box centre."""
    cx, cy = x0 + w / 2, y0 + h / 2
    pts = [(cx + (px - 0.5) * w * shrink, cy + (py - 0.5) * h * shrink) for px, py in points]
    n = len(pts)
    parts = [f"M {_n(pts[0][0])} {_n(pts[0][1])}"]
    for i in range(n):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[(i + 1) % n], pts[(i + 2) % n]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        parts.append(f"C {_n(c1[0])} {_n(c1[1])} {_n(c2[0])} {_n(c2[1])} {_n(p2[0])} {_n(p2[1])}")
    return " ".join(parts) + " Z"


def _blocks(rows, symbol: str) -> list[list[tuple[int, int]]]:
    """The cells holding ``symbol``, grouped into 4-connected blocks, each in reading order."""
    seen: set[tuple[int, int]] = set()
    blocks = []
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
            blocks.append(sorted(block, key=lambda c: (c[1], c[0])))
    return blocks


def _rectangles(rows, symbol: str) -> list[list[tuple[int, int]]]:
    """Blocks of ``symbol`` that fill their bounding box; any other block is split into cells."""
    out = []
    for block in _blocks(rows, symbol):
        xs, ys = [c[0] for c in block], [c[1] for c in block]
        if len(block) == (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1):
            out.append(block)
        else:
            out.extend([cell] for cell in block)
    return out


def _names(cells) -> str:
    return " ".join(cell_name(c) for c in cells)


def _box(grid: _Grid, block) -> tuple[float, float, float, float]:
    xs, ys = [c[0] for c in block], [c[1] for c in block]
    x0, y0 = grid.ox + min(xs) * CELL, grid.oy + min(ys) * CELL
    return x0, y0, (max(xs) - min(xs) + 1) * CELL, (max(ys) - min(ys) + 1) * CELL


def _big_rock(grid: _Grid, block) -> list[str]:
    x0, y0, w, h = _box(grid, block)
    pad = 3
    x0, y0, w, h = x0 + pad, y0 + pad, w - 2 * pad, h - 2 * pad
    out = [f'<g class="big-rock" data-cells="{_names(block)}">']
    out.append(f"<title>big rock ({_names(block)}): impassable</title>")
    out.append(_el("path", d=_blob(BOULDER, x0 + 2, y0 + 4, w, h), fill="#000", opacity=0.16))
    out.append(
        _el(
            "path",
            d=_blob(BOULDER, x0, y0, w, h),
            fill=ROCK["base"],
            stroke=ROCK["edge"],
            stroke_width=2,
        )
    )
    out.append(
        _el("path", d=_blob(BOULDER, x0 - w * 0.06, y0 - h * 0.08, w, h, 0.7), fill=ROCK["light"])
    )
    out.append(
        _el("path", d=_blob(BOULDER, x0 - w * 0.1, y0 - h * 0.13, w, h, 0.38), fill=ROCK["shine"])
    )
    # a few clefts and strata lines, scaled to the block
    s = min(w, h)
    lines = [
        ((0.62, 0.18), (0.56, 0.34), (0.63, 0.47)),
        ((0.2, 0.64), (0.38, 0.7), (0.52, 0.66), (0.7, 0.76)),
        ((0.8, 0.44), (0.88, 0.56)),
    ]
    for line in lines:
        d = " ".join(
            f"{'M' if i == 0 else 'L'} {_n(x0 + px * w)} {_n(y0 + py * h)}"
            for i, (px, py) in enumerate(line)
        )
        out.append(
            _el(
                "path",
                d=d,
                fill="none",
                stroke=ROCK["edge"],
                stroke_width=max(1.2, s / 60),
                stroke_linecap="round",
                stroke_linejoin="round",
                opacity=0.7,
            )
        )
    out.append("</g>")
    return out


def _small_rock(grid: _Grid, xy: tuple[int, int], hits: int | None) -> list[str]:
    """A small rock; ``hits`` is the damage a breakable rock can still take (None: fixed).
    A breakable rock shows its hits left as pips under it; a damaged one is chipped and
    cracked right through."""
    x0, y0 = grid.ox + xy[0] * CELL, grid.oy + xy[1] * CELL
    shape = PEBBLES[(xy[0] * 2 + xy[1]) % len(PEBBLES)]
    damaged = hits is not None and hits < ROCK_HITS
    classes = "rock" + (" breakable" if hits is not None else "") + (" damaged" if damaged else "")
    name = cell_name(xy)
    out = [f"<g {_attrs(class_=classes, data_cell=name, data_hits=hits)}>"]
    if hits is None:
        title = f"rock {name}: impassable"
    else:
        title = f"breakable rock {name}: {hits} of {ROCK_HITS} hits left"
        title += " (damaged)" if damaged else ""
    out.append(f"<title>{escape(title)}</title>")
    # the rock's box: a breakable rock sits a little higher, to leave room for its pips
    size = CELL if hits is None else CELL * 0.9
    bx, by = x0 + (CELL - size) / 2, y0 + (CELL - size) / 2 - (0 if hits is None else 3)

    def at(px: float, py: float) -> str:
        return f"{_n(bx + px * size)} {_n(by + py * size)}"

    out.append(_el("path", d=_blob(shape, bx + 1.5, by + 3, size, size), fill="#000", opacity=0.16))
    out.append(
        _el(
            "path",
            d=_blob(shape, bx, by, size, size),
            fill=ROCK["damaged"] if damaged else ROCK["base"],
            stroke=ROCK["edge"],
            stroke_width=1.6,
        )
    )
    out.append(_el("path", d=_blob(shape, bx - 3, by - 4, size, size, 0.62), fill=ROCK["light"]))
    out.append(_el("path", d=_blob(shape, bx - 5, by - 6, size, size, 0.3), fill=ROCK["shine"]))
    if damaged:
        # a wedge knocked out of the top, and a crack from it right through, with a branch
        cell_fill = LIGHT_CELL if (xy[0] + xy[1]) % 2 == 0 else DARK_CELL
        out.append(
            _el(
                "path",
                class_="chip",
                d=f"M {at(0.36, 0.08)} L {at(0.5, 0.3)} L {at(0.64, 0.08)} Z",
                fill=cell_fill,
            )
        )
        out.append(
            _el(
                "path",
                d=f"M {at(0.39, 0.15)} L {at(0.5, 0.3)} L {at(0.61, 0.15)}",
                fill="none",
                stroke=ROCK["edge"],
                stroke_width=1.6,
                stroke_linejoin="round",
            )
        )
        crack = [(0.5, 0.3), (0.43, 0.44), (0.55, 0.56), (0.46, 0.7), (0.52, 0.88)]
        branch = [(0.55, 0.56), (0.7, 0.6), (0.8, 0.72)]
        for line, width in ((crack, 2.2), (branch, 1.5)):
            d = " ".join(f"{'M' if i == 0 else 'L'} {at(*pt)}" for i, pt in enumerate(line))
            out.append(
                _el(
                    "path",
                    class_="crack",
                    d=d,
                    fill="none",
                    stroke=ROCK["crack"],
                    stroke_width=width,
                    stroke_linecap="round",
                    stroke_linejoin="round",
                )
            )
    if hits is not None:
        # the hits still needed to break it, as pips under it: filled = still needed
        for i in range(ROCK_HITS):
            out.append(
                _el(
                    "circle",
                    class_="hit-pip" + (" left" if i < hits else ""),
                    cx=x0 + CELL / 2 + (i - (ROCK_HITS - 1) / 2) * 7.5,
                    cy=y0 + CELL - 4.6,
                    r=2.5,
                    fill=ROCK["pip"] if i < hits else "none",
                    stroke=ROCK["pip"],
                    stroke_width=1.1,
                )
            )
    out.append("</g>")
    return out


def _walls(cx: float, cy: float, half: float, height: float, door: tuple, t: float) -> list[str]:
    """Walls standing on (cx, cy), ``2 * half`` wide, with a door ``(half width, height)``."""
    return [
        _el(
            "rect",
            x=cx - half * t,
            y=cy - height * t,
            width=2 * half * t,
            height=height * t,
            fill="#f5ecd6",
            stroke=VILLAGE["ink"],
            stroke_width=0.9,
        ),
        _el(
            "rect",
            x=cx - door[0] * t,
            y=cy - door[1] * t,
            width=2 * door[0] * t,
            height=door[1] * t,
            fill="#7b5a3a",
        ),
    ]


def _roof(cx, base, half, t, fill, ctrl=(2.5, 1.5), top=(4, 5)) -> str:
    """A curved roof with upturned eaves on ``base``: ``ctrl`` places the curve's control point
    (inset, rise) and ``top`` the ridge (inset, rise), in units of ``t``."""
    (ci, cr), (ti, tr) = ctrl, top
    return _el(
        "path",
        class_="roof",
        d=f"M {_n(cx - half * t)} {_n(base)} "
        f"Q {_n(cx - (half - ci) * t)} {_n(base - cr * t)} {_n(cx - (half - ti) * t)} "
        f"{_n(base - tr * t)} L {_n(cx + (half - ti) * t)} {_n(base - tr * t)} "
        f"Q {_n(cx + (half - ci) * t)} {_n(base - cr * t)} {_n(cx + half * t)} {_n(base)} Z",
        fill=fill,
        stroke=VILLAGE["ink"],
        stroke_width=0.9,
        stroke_linejoin="round",
    )


def _house(cx: float, cy: float, s: float, roof: str) -> list[str]:
    """A little house standing on (cx, cy): walls, a door and a roof with upturned eaves."""
    return [
        *_walls(cx, cy, 6, 8, (1.6, 4.6), s),
        _roof(cx, cy - 7 * s, 10, s, roof, ctrl=(3, 1), top=(4.5, 5.5)),
    ]


def _village(grid: _Grid, block, protector: str | None) -> list[str]:
    x0, y0, w, h = _box(grid, block)
    out = [f"<g {_attrs(class_='village', data_cells=_names(block), data_protector=protector)}>"]
    who = f", protected by the {protector} dragon" if protector else ""
    out.append(f"<title>the Village ({_names(block)}){escape(who)}: impassable</title>")
    out.append(
        _el(
            "rect",
            x=x0 + 3,
            y=y0 + 3,
            width=w - 6,
            height=h - 6,
            rx=8,
            fill=VILLAGE["ground"],
            stroke=VILLAGE["wall"],
            stroke_width=2.4,
        )
    )
    out.append(
        _el(
            "rect",
            x=x0 + 7,
            y=y0 + 7,
            width=w - 14,
            height=h - 14,
            rx=5,
            fill="none",
            stroke=VILLAGE["wall"],
            stroke_width=1,
            stroke_dasharray="3 2.5",
        )
    )
    s = min(w, h) / (2 * CELL)
    # a lane up to the pagoda, a house in each corner, the pagoda (drawn back to front)
    px, py = x0 + 0.5 * w, y0 + 0.64 * h
    out.append(
        _el(
            "path",
            d=f"M {_n(px)} {_n(y0 + h - 8)} L {_n(px)} {_n(py)}",
            stroke=VILLAGE["lane"],
            stroke_width=8 * s,
            stroke_linecap="round",
        )
    )
    houses = ((0.25, 0.4), (0.75, 0.4), (0.23, 0.87), (0.77, 0.87))
    for i, (hx, hy) in enumerate(houses):
        out.extend(_house(x0 + hx * w, y0 + hy * h, 1.6 * s, VILLAGE["roofs"][i % 2]))
    t = 1.35 * s
    out.extend(_walls(px, py, 5, 9, (1.8, 5), t))
    for tier, (ty, half) in enumerate(((py - 8 * t, 11), (py - 16 * t, 8), (py - 23 * t, 5.5))):
        out.append(_roof(px, ty, half, t, VILLAGE["roofs"][tier % 2]))
    if protector is not None:
        # the protector's banner on a pole at the top of the pagoda
        style = DRAGON[COLOURS.index(protector)]
        top = py - 36 * t
        out.append(
            _el(
                "line",
                x1=px,
                y1=py - 27 * t,
                x2=px,
                y2=top,
                stroke=VILLAGE["ink"],
                stroke_width=1.3,
            )
        )
        out.append(
            _el(
                "path",
                class_="banner",
                data_colour=protector,
                d=f"M {_n(px)} {_n(top)} L {_n(px + 11 * t)} {_n(top + 2.6 * t)} "
                f"L {_n(px)} {_n(top + 5.6 * t)} Z",
                fill=style["body"],
                stroke=style["outline"],
                stroke_width=1.1,
                stroke_linejoin="round",
            )
        )
    out.append("</g>")
    return out


def _portal_title(state, xy, sym: str, occupant: str | None) -> str:
    rule = state.tables.scenario.portal_rule(sym)
    colour = PORTAL[sym]["name"]
    if rule.destination == "twin":
        twins = [
            (x, y)
            for y, row in enumerate(state.tables.layout.rows)
            for x, s in enumerate(row)
            if s == sym and (x, y) != xy
        ]
        where = f"leads to its twin {_names(twins)}"
    else:
        where = "leads to any other free portal"
    cost = f", costs 1 {rule.cost}" if rule.cost else ""
    held = f"; the {occupant} dragon passes through" if occupant else "; free"
    return f"{colour} portal {cell_name(xy)}: {where}{cost}{held}"


def _portal(state, grid: _Grid, xy, sym: str, occupant: str | None) -> list[str]:
    """A portal: an open ring with a swirl when free; closed (filled) when a dragon passes
    through it (the dragon's body is drawn into it afterwards, see _portal_mouth)."""
    style = PORTAL[sym]
    cx, cy = grid.centre(xy)
    r = PORTAL_R
    state_class = "occupied" if occupant else "free"
    classes = f"portal {style['name']} {state_class}"
    attrs = _attrs(
        class_=classes, data_cell=cell_name(xy), data_colour=style["name"], data_dragon=occupant
    )
    out = [f"<g {attrs}>"]
    out.append(f"<title>{escape(_portal_title(state, xy, sym, occupant))}</title>")
    out.append(_el("circle", cx=cx + 1, cy=cy + 2, r=r + 1.5, fill="#000", opacity=0.13))
    if occupant is None:
        out.append(
            _el(
                "circle",
                cx=cx,
                cy=cy,
                r=r,
                fill=style["pale"],
                stroke=style["ring"],
                stroke_width=4.2,
            )
        )
        # a swirl: two arcs turning into the centre
        for turn in (0, 180):
            out.append(
                _el(
                    "path",
                    d=f"M {_n(cx)} {_n(cy - r * 0.62)} "
                    f"A {_n(r * 0.62)} {_n(r * 0.62)} 0 0 1 {_n(cx + r * 0.5)} {_n(cy + r * 0.2)} "
                    f"A {_n(r * 0.36)} {_n(r * 0.36)} 0 0 1 {_n(cx)} {_n(cy + r * 0.12)}",
                    fill="none",
                    stroke=style["ring"],
                    stroke_width=2,
                    stroke_linecap="round",
                    opacity=0.8,
                    transform=f"rotate({turn} {_n(cx)} {_n(cy)})",
                )
            )
        out.append(_el("circle", cx=cx, cy=cy, r=2.2, fill=style["ring"]))
    else:
        out.append(
            _el(
                "circle",
                cx=cx,
                cy=cy,
                r=r,
                fill=style["ring"],
                stroke=style["dark"],
                stroke_width=2,
            )
        )
        out.append(_el("circle", cx=cx, cy=cy, r=r * 0.62, fill=style["dark"]))
    out.append("</g>")
    return out


def _portal_mouth(grid: _Grid, xy, sym: str, occupant: str) -> list[str]:
    """Drawn over the dragon's body: the rim of an occupied portal and its dark centre, so the
    body visibly dives into the portal."""
    style = PORTAL[sym]
    cx, cy = grid.centre(xy)
    return [
        _el(
            "circle",
            class_="portal-mouth",
            data_cell=cell_name(xy),
            data_dragon=occupant,
            cx=cx,
            cy=cy,
            r=PORTAL_R,
            fill="none",
            stroke=style["ring"],
            stroke_width=4.2,
        ),
        _el("circle", cx=cx, cy=cy, r=PORTAL_R * 0.36, fill=style["dark"], opacity=0.9),
    ]


def _occupied_portals(state) -> dict[int, str]:
    """Portal cell -> the colour of the dragon passing through it."""
    return {
        p: colour for colour in COLOURS for _, q, e in state.dragon(colour).links for p in (q, e)
    }


def _features(state, grid: _Grid) -> list[str]:
    """Every fixed tile and breakable rock, in the board's reading order by kind."""
    rows = board_rows(state)
    env = state.tables
    rocks = state.board.rocks
    hits = {env.geo.xy[c]: h for c, h in rocks}
    occupied = {env.geo.xy[c]: who for c, who in _occupied_portals(state).items()}
    out = ['<g class="features">']
    for block in _rectangles(rows, "#"):
        out.extend(_big_rock(grid, block))
    for y, row in enumerate(rows):
        for x, sym in enumerate(row):
            if sym in "od":
                out.extend(_small_rock(grid, (x, y), hits.get((x, y))))
    for block in _rectangles(rows, "V"):
        out.extend(_village(grid, block, state.rules.option("village")))
    for y, row in enumerate(rows):
        for x, sym in enumerate(row):
            if sym in PORTAL:
                out.extend(_portal(state, grid, (x, y), sym, occupied.get((x, y))))
    if len(out) == 1:  # nothing on the board: no empty group
        return []
    out.append("</g>")
    return out


def _head_path(cx: float, cy: float) -> str:
    """A dragon head facing north, centred on (cx, cy): a pointed snout, wide cheeks."""
    s = CELL / 44
    points = [
        ("M", -12, 14),
        ("Q", -18, 2, -13, -8),
        ("L", -5, -18),
        ("Q", 0, -22, 5, -18),
        ("L", 13, -8),
        ("Q", 18, 2, 12, 14),
        ("Q", 0, 19, -12, 14),
    ]
    parts = []
    for cmd, *coords in points:
        xy = [_n(cx + v * s) if i % 2 == 0 else _n(cy + v * s) for i, v in enumerate(coords)]
        parts.append(cmd + " " + " ".join(xy))
    return " ".join(parts) + " Z"


def _body_runs(state, colour: str, grid: _Grid):
    """The dragon's body as unbroken runs of points (cell centres), and its stubs.

    A run breaks where the body passes through a pair of portals (it ends in the exit portal and
    starts again in the entry portal) and where it crosses a wrapping edge (a stub then goes
    from the cell centre to the edge, and another from the opposite edge into the next cell).
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
                half = CELL / 2
                stubs.append(((px, py), (px + dx * half, py + dy * half)))
                stubs.append(((qx - dx * half, qy - dy * half), (qx, qy)))
                runs.append([])
            runs[-1].append(grid.cell_centre(b))
    return runs, stubs


def _tile_kinds(state, colour: str, grid: _Grid) -> list[str]:
    """The body tile on each cell behind the head: ``straight`` (the body goes through it),
    ``bent`` (it turns there) or ``tail`` (the last one). A tile beside a portal counts the
    portal as its neighbour; on the Torus the neighbour across an edge counts."""
    dragon = state.dragon(colour)
    links = {i: (q, e) for i, q, e in dragon.links}
    chain: list[int] = []  # tiles head first, each portal pair in between (exit, entry)
    position = []  # where each of the dragon's cells sits in the chain
    for i, cell in enumerate(dragon.cells):
        position.append(len(chain))
        chain.append(cell)
        if i in links:
            chain.extend(links[i])
    direction = grid.geo.direction
    kinds = []
    for i in range(1, len(dragon.cells)):
        at = position[i]
        if i == len(dragon.cells) - 1:
            kinds.append("tail")
            continue
        before = direction.get((chain[at], chain[at - 1]))
        after = direction.get((chain[at], chain[at + 1]))
        straight = before is not None and after is not None and (before - after) % 4 == 2
        kinds.append("straight" if straight else "bent")
    return kinds


def _points(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _portal_links(state, colour: str, grid: _Grid) -> list[str]:
    """A dotted thread in the dragon's colours from each exit portal to its entry portal, drawn
    under the tiles: the two portals hold one dragon."""
    out = []
    style = DRAGON[COLOURS.index(colour)]
    for i, exit_, entry in state.dragon(colour).links:
        (x1, y1), (x2, y2) = grid.cell_centre(exit_), grid.cell_centre(entry)
        # bend the thread a little to one side so it does not run along a grid line
        mx, my = (x1 + x2) / 2 + (y2 - y1) * 0.12, (y1 + y2) / 2 - (x2 - x1) * 0.12
        d = f"M {_n(x1)} {_n(y1)} Q {_n(mx)} {_n(my)} {_n(x2)} {_n(y2)}"
        attrs = _attrs(
            class_=f"portal-link {colour}",
            data_segment=i,
            data_exit=grid.geo.name(exit_),
            data_entry=grid.geo.name(entry),
        )
        out.append(f"<g {attrs}>")
        for stroke, width in ((style["outline"], 5.2), (style["body"], 2.6)):
            out.append(
                _el(
                    "path",
                    d=d,
                    fill="none",
                    stroke=stroke,
                    stroke_width=width,
                    stroke_dasharray="0.1 8",
                    stroke_linecap="round",
                )
            )
        out.append("</g>")
    return out


def _dragon(state, colour_index: int, grid: _Grid) -> list[str]:
    colour = COLOURS[colour_index]
    style = DRAGON[colour_index]
    centres = [grid.centre(xy) for xy in state.cells(colour)]
    out = [f'<g class="dragon {colour}">']
    if len(centres) > 1:
        runs, stubs = _body_runs(state, colour, grid)
        round_ends = {"fill": "none", "stroke_linecap": "round", "stroke_linejoin": "round"}
        for part, stroke, width in (
            ("body-outline", style["outline"], CELL * 0.5),
            ("body", style["body"], CELL * 0.5 - 4.4),
        ):
            for run in runs:
                if len(run) > 1:
                    out.append(
                        _el(
                            "polyline",
                            class_=part,
                            stroke=stroke,
                            stroke_width=width,
                            points=_points(run),
                            **round_ends,
                        )
                    )
            for a, b in stubs:  # square ends, cut off by the edge of the board
                out.append(
                    _el(
                        "polyline",
                        class_=f"{part}-stub",
                        points=_points((a, b)),
                        fill="none",
                        stroke=stroke,
                        stroke_width=width,
                    )
                )
        occupied = _occupied_portals(state)
        rows = state.tables.layout.rows
        for cell, who in sorted(occupied.items()):
            if who == colour:
                x, y = grid.geo.xy[cell]
                out.extend(_portal_mouth(grid, (x, y), rows[y][x], who))
        names = [cell_name(xy) for xy in state.cells(colour)]
        kinds = _tile_kinds(state, colour, grid)
        for (x, y), name, kind in zip(centres[1:], names[1:], kinds, strict=True):
            out.append(
                _el(
                    "circle",
                    class_=f"segment {kind}",
                    data_cell=name,
                    cx=x,
                    cy=y,
                    r=CELL * 0.11,
                    fill=style["scale"],
                )
            )
    hx, hy = centres[0]
    if len(centres) > 1:
        angle = DIRECTION_ANGLE[state.facing(colour)]
        out.append(
            f'<g class="head {colour}" data-facing="{state.facing(colour)}" '
            f'transform="rotate({angle} {_n(hx)} {_n(hy)})">'
        )
        out.append(
            _el(
                "path",
                d=_head_path(hx, hy),
                fill=style["body"],
                stroke=style["outline"],
                stroke_width=2.2,
                stroke_linejoin="round",
            )
        )
        s = CELL / 44
        for side in (-1, 1):
            # horns sweeping back past the cheeks, eyes looking forward, nostrils on the snout
            out.append(
                _el(
                    "path",
                    d=f"M {_n(hx + side * 8 * s)} {_n(hy + 7 * s)} "
                    f"Q {_n(hx + side * 15 * s)} {_n(hy + 13 * s)} "
                    f"{_n(hx + side * 19 * s)} {_n(hy + 21 * s)}",
                    fill="none",
                    stroke=style["outline"],
                    stroke_width=2.6,
                    stroke_linecap="round",
                )
            )
            out.append(
                _el(
                    "ellipse",
                    class_="eye",
                    cx=hx + side * 7 * s,
                    cy=hy - 2 * s,
                    rx=3 * s,
                    ry=4.4 * s,
                    fill=style["eye"],
                    stroke=style["outline"],
                    stroke_width=0.8,
                    transform=f"rotate({side * -25} {_n(hx + side * 7 * s)} {_n(hy - 2 * s)})",
                )
            )
            out.append(
                _el(
                    "circle",
                    cx=hx + side * 2.6 * s,
                    cy=hy - 14 * s,
                    r=1.3 * s,
                    fill=style["outline"],
                )
            )
        out.append("</g>")
    else:  # defeated: the head alone, flipped and crossed out
        r = CELL * 0.36
        out.append(f'<g class="head {colour} defeated" data-facing="-">')
        out.append(
            _el(
                "circle",
                cx=hx,
                cy=hy,
                r=r,
                fill=style["body"],
                stroke=style["outline"],
                stroke_width=2.2,
                opacity=0.75,
            )
        )
        d = r * 0.62
        out.append(
            _el(
                "path",
                class_="defeated-mark",
                d=f"M {_n(hx - d)} {_n(hy - d)} L {_n(hx + d)} {_n(hy + d)} "
                f"M {_n(hx + d)} {_n(hy - d)} L {_n(hx - d)} {_n(hy + d)}",
                stroke="#c0392b",
                stroke_width=4,
                stroke_linecap="round",
            )
        )
        out.append("</g>")
    out.append("</g>")
    return out


# ---- the board of Ba Gua ----------------------------------------------------------------------
def _polar(cx: float, cy: float, radius: float, index: float, count: int) -> tuple[float, float]:
    """Ring position ``index``: index 0 at the top, increasing counterclockwise (to the left)."""
    angle = math.radians(90 + 360 * index / count)
    return cx + radius * math.cos(angle), cy - radius * math.sin(angle)


def _trigram(symbol: str, cx: float, cy: float, fill: str) -> list[str]:
    """Three bars from the Unicode trigram (U+2630..U+2637): bit 0 is the top line, 1 = yin."""
    code = ord(symbol) - 0x2630 if len(symbol) == 1 else -1
    if not 0 <= code < 8:
        return [_text(cx, cy + 5, symbol, text_anchor="middle", font_size=15, fill=fill)]
    width, bar, gap = 20.0, 3.2, 2.6
    out = []
    for line in range(3):  # top to bottom
        y = cy - 1.5 * bar - gap + line * (bar + gap)
        x0 = cx - width / 2
        if code >> line & 1:  # yin: a broken line
            half = width * 0.4
            out.append(_el("rect", x=x0, y=y, width=half, height=bar, fill=fill))
            out.append(_el("rect", x=x0 + width - half, y=y, width=half, height=bar, fill=fill))
        else:
            out.append(_el("rect", x=x0, y=y, width=width, height=bar, fill=fill))
    return out


def _stones(stack: str, cx: float, cy: float, space: str) -> list[str]:
    """A stack as discs in stack order: base stone first, read like text (left to right, then
    a second row for a stack of more than four); each disc is drawn over the one before."""
    n = len(stack)
    rows = [stack[:4], stack[4:]] if n > 4 else [stack]
    radius = STONE_R if n <= 4 else STONE_R - 0.8
    spacing = 2 * radius + 1.5 if n <= 3 else 2 * radius - 0.4
    out = []
    index = 0
    for row, marks in enumerate(rows):
        y = cy + (row - (len(rows) - 1) / 2) * (2 * radius + 1.5)
        x0 = cx - spacing * (len(marks) - 1) / 2
        for i, mark in enumerate(marks):
            fill, stroke = STONE[mark]
            out.append(
                _el(
                    "circle",
                    class_=f"stone {'white' if mark == 'W' else 'black'}",
                    data_space=space,
                    data_index=index,
                    cx=x0 + i * spacing,
                    cy=y,
                    r=radius,
                    fill=fill,
                    stroke=stroke,
                    stroke_width=1.3,
                )
            )
            index += 1
    return out


def _wheel(state, cx: float, cy: float, ids: str | None = None) -> list[str]:
    data = game_data()
    count = len(data.ring)
    out = ['<g class="bagua">']
    out.append(_el("circle", cx=cx, cy=cy, r=WHEEL_R, fill="none", stroke=RING, stroke_width=2))
    # sowing direction: a chevron on the ring halfway between each space and the next; in
    # Master and Chosen One a stack may flow either way (see the flux coin): a double chevron
    both = state.rules.mode in FLUX_MODES
    for i in range(count):
        x, y = _polar(cx, cy, WHEEL_R, i + 0.5, count)
        # turn the chevron (drawn pointing right) along the counterclockwise tangent
        rotation = -(90 + 360 * (i + 0.5) / count) - 90
        out.append(
            _el(
                "path",
                class_="flow both" if both else "flow",
                d="M -1.5 -4.5 L -6 0 L -1.5 4.5 M 1.5 -4.5 L 6 0 L 1.5 4.5"
                if both
                else "M -4 -5 L 3 0 L -4 5",
                fill="none",
                stroke=RING,
                stroke_width=2,
                stroke_linecap="round",
                stroke_linejoin="round",
                transform=f"translate({_n(x)} {_n(y)}) rotate({_n(rotation)})",
            )
        )
    for i, (name, abbrev, symbol) in enumerate(
        zip(data.ring, data.abbrev, data.symbols, strict=True)
    ):
        x, y = _polar(cx, cy, WHEEL_R, i, count)
        main = name in data.main
        attrs = _attrs(
            id=f"{ids}space-{abbrev}" if ids is not None else None,
            class_="space",
            data_space=abbrev,
            data_element=name,
            data_index=i,
        )
        out.append(f"<g {attrs}>")
        out.append(f"<title>{escape(name.title())}: {escape(state.bagua[i] or 'empty')}</title>")
        out.append(
            _el(
                "circle",
                cx=x,
                cy=y,
                r=CUP_R,
                fill=MAIN_CUP if main else CUP,
                stroke=RING,
                stroke_width=2.4 if main else 1.4,
            )
        )
        out.extend(_stones(state.bagua[i], x, y, abbrev))
        lx, ly = _polar(cx, cy, LABEL_R, i, count)
        out.extend(_trigram(symbol, lx, ly - 7, INK))
        out.append(
            _text(
                lx,
                ly + 15,
                abbrev,
                text_anchor="middle",
                font_size=12,
                font_weight="bold" if main else None,
                fill=INK,
            )
        )
        out.append("</g>")
    # the centre of the Ba Gua: the water and fire stones no dragon holds
    water, fire = state.centre
    out.append('<g class="centre">')
    out.append(_el("circle", cx=cx, cy=cy, r=CENTRE_R, fill=PAPER, stroke=RING, stroke_width=1.4))
    out.append(_text(cx, cy - 17, "centre", text_anchor="middle", font_size=10, fill="#7a6a52"))
    for dy, value, colour, what in ((0, water, WATER, "water"), (18, fire, FIRE, "fire")):
        out.append(
            _el("circle", class_=f"centre-{what}", cx=cx - 11, cy=cy + dy - 1, r=5.5, fill=colour)
        )
        out.append(
            _text(cx + 1, cy + dy + 4, str(value), font_size=13, font_weight="bold", fill=INK)
        )
    out.append("</g>")
    out.append("</g>")
    return out


def _meter(x: float, y: float, label: str, value: int, cap: int, colour: str) -> list[str]:
    out = [_text(x, y + 4, label, font_size=11, fill="#6b5a40")]
    for i in range(cap):
        filled = i < value
        out.append(
            _el(
                "circle",
                class_=f"meter-{label}" + (" full" if filled else ""),
                cx=x + 44 + i * 15,
                cy=y,
                r=5.5,
                fill=colour if filled else "none",
                stroke=colour,
                stroke_width=1.4,
            )
        )
    return out


def _dragon_card(state, colour_index: int, x: float, y: float) -> list[str]:
    data = game_data()
    colour = COLOURS[colour_index]
    style = DRAGON[colour_index]
    dragon = state.dragon(colour)
    out = [f'<g class="card {colour}">']
    to_move = state.to_move == colour and not state.is_over()
    if to_move:
        out.append(
            _el(
                "rect",
                x=x - 6,
                y=y - 16,
                width=PANEL_W - 8,
                height=48,
                rx=6,
                fill="#f3e6c8",
                stroke="#c9a55a",
                stroke_width=1.2,
            )
        )
    out.append(
        _el(
            "circle",
            cx=x + 7,
            cy=y - 4,
            r=7,
            fill=style["body"],
            stroke=style["outline"],
            stroke_width=2,
        )
    )
    out.append(
        _text(
            x + 20,
            y,
            f"{colour} · {data.dragon_names[colour_index]}",
            font_size=13,
            font_weight="bold",
            fill=INK,
        )
    )
    if state.rules.option("village") == colour:  # the protector of the village
        out.append(f'<g class="protector" data-colour="{colour}">')
        out.append("<title>protects the village</title>")
        out.extend(_house(x + 160, y + 1, 0.85, VILLAGE["roofs"][0]))
        out.append("</g>")
    # segments: one mark per segment still attached, hollow for lost ones
    total = len(data.start_cells[colour_index]) - 1
    sx = x + 178
    out.append(_text(sx, y, "segments", font_size=11, fill="#6b5a40"))
    for i in range(total):
        kept = i < dragon.segments
        out.append(
            _el(
                "rect",
                class_="segment-mark" + (" kept" if kept else ""),
                x=sx + 58 + i * 14,
                y=y - 10,
                width=10,
                height=11,
                rx=3,
                fill=style["body"] if kept else "none",
                stroke=style["outline"] if kept else "#b8aa90",
                stroke_width=1.4,
                stroke_dasharray=None if kept else "2 2",
            )
        )
    out.extend(_meter(x, y + 19, "water", dragon.water, data.capacity, WATER))
    out.extend(_meter(x + 130, y + 19, "fire", dragon.fire, data.capacity, FIRE))
    out.append("</g>")
    return out


def _status(state) -> tuple[str, str]:
    """Whose turn it is, or the result: a bold line and a second, plain one."""
    result = state.outcome()
    if result is not None:
        return f"Game over: {result.winner} wins", result.reason
    names = game_data().dragon_names
    mover = f"{state.to_move} ({names[COLOURS.index(state.to_move)]})"
    return f"Turn {state.ply + 1}: {mover} to move", ""


# ---- the rules: caption, flux coin, the hidden board of Chosen One ---------------------------
def _caption_lines(state, width: float) -> list[tuple[str, bool]]:
    """Under the board: the scenario and its motto (bold), then the mode, edition and options,
    wrapped to ``width`` (an estimate of the text's width; the font is not measured)."""
    rules = state.rules
    scenario = load_scenario(rules.scenario)
    parts = [f"{rules.mode} mode"]
    if rules.edition != "current":
        parts.append(f"{rules.edition} edition")
    for name, value in rules.options:
        if name == "village":
            parts.append(f"the {value} dragon protects the village")
        else:
            parts.append(f"{name}={str(value).lower()}")
    lines = [(scenario.name, True)]
    if scenario.motto:
        lines = [(f"{scenario.name} \u2014 {scenario.motto}", True)]
    if len(lines[0][0]) * 12.5 * 0.62 > width:  # too long: the motto on a line of its own
        lines = [(scenario.name, True), (scenario.motto, False)]
    chars = max(20, int(width / (11.5 * 0.58)))
    for group in (parts, _legend(state)):
        for line in textwrap.wrap(" · ".join(group), chars):
            lines.append((line.strip(" ·"), False))
    return lines


def _legend(state) -> list[str]:
    """What the board's special tiles do, in a few words."""
    env = state.tables
    present = {sym for row in env.layout.rows for sym in row}
    twins, anywhere = [], []
    for sym, style in PORTAL.items():
        if sym in present:
            rule = env.scenario.portal_rule(sym)
            if rule.destination == "twin":
                twins.append(style["name"])
            else:
                anywhere.append((style["name"], rule.cost))
    out = []
    if twins:
        out.append(f"{' and '.join(twins) + ' ' if anywhere else ''}portals lead to their twin")
    if anywhere:
        text = " and ".join(name for name, _ in anywhere) + " portals lead to any free portal"
        costs = [f"{name} costs 1 {cost}" for name, cost in anywhere if cost]
        out.append(text + (f" ({', '.join(costs)})" if costs else ""))
    if env.breakable:
        out.append(f"rocks break after {ROCK_HITS} hits (pips: hits left)")
    return out


def _caption(state, lines, x: float, y: float) -> list[str]:
    rules = state.rules
    out = [f'<g class="caption" data-scenario="{rules.scenario}" data-mode="{rules.mode}">']
    for i, (line, bold) in enumerate(lines):
        out.append(
            _text(
                x,
                y + i * CAPTION_LINE,
                line,
                font_size=12.5 if bold else 11.5,
                font_weight="bold" if bold else None,
                fill=INK if bold else "#6b5a40",
            )
        )
    out.append("</g>")
    return out


def _flux_coin(state, cx: float, cy: float) -> list[str]:
    """Master and Chosen One: the flux coin, black side up with a counterclockwise arrow
    (``ccw``) or white side up with a clockwise one (``cw``)."""
    flux = state.flux
    face, edge, ink = COIN[flux]
    r, a = 15.0, 8.0  # the coin, the arrow's arc
    sweep = 1 if flux == "cw" else 0  # SVG: sweep 1 turns clockwise on screen
    side = 1 if flux == "cw" else -1
    # an arc of 3/4 turn starting at the top, then an arrowhead along the tangent at its end
    sx, sy = cx, cy - a
    ex, ey = cx - side * a, cy
    out = [f'<g class="flux-coin" data-flux="{flux}">']
    out.append(
        "<title>flux coin: "
        + ("counterclockwise" if flux == "ccw" else "clockwise")
        + " (a stack with more white stones is sown clockwise, more black counterclockwise, "
        "a tie follows the coin)</title>"
    )
    out.append(_el("circle", cx=cx + 1, cy=cy + 1.8, r=r, fill="#000", opacity=0.15))
    out.append(_el("circle", cx=cx, cy=cy, r=r, fill=face, stroke=edge, stroke_width=1.6))
    out.append(
        _el(
            "circle",
            cx=cx,
            cy=cy,
            r=r - 2.6,
            fill="none",
            stroke=ink,
            stroke_width=0.6,
            opacity=0.6,
        )
    )
    out.append(
        _el(
            "path",
            d=f"M {_n(sx)} {_n(sy)} A {_n(a)} {_n(a)} 0 1 {sweep} {_n(ex)} {_n(ey)}",
            fill="none",
            stroke=ink,
            stroke_width=1.9,
            stroke_linecap="round",
        )
    )
    # at the end (left or right of centre) the motion is upwards
    out.append(
        _el(
            "path",
            d=f"M {_n(ex - 3.2)} {_n(ey + 0.6)} L {_n(ex)} {_n(ey - 3.6)} "
            f"L {_n(ex + 3.2)} {_n(ey + 0.6)}",
            fill="none",
            stroke=ink,
            stroke_width=1.9,
            stroke_linecap="round",
            stroke_linejoin="round",
        )
    )
    out.append(_text(cx - r - 6, cy - 1, "flux", text_anchor="end", font_size=10.5, fill="#6b5a40"))
    out.append(
        _text(
            cx - r - 6,
            cy + 11,
            flux,
            class_="flux",
            text_anchor="end",
            font_size=11.5,
            font_weight="bold",
            fill=INK,
        )
    )
    out.append("</g>")
    return out


def _hidden_board(grid: _Grid) -> list[str]:
    """Chosen One: the Board of Human is not shown (the players keep it in mind): a misty
    panel the size of the board, with a closed eye and a note."""
    ox, oy = grid.ox, grid.oy
    bw, bh = grid.width * CELL, grid.height * CELL
    cx, cy = ox + bw / 2, oy + bh / 2
    out = ['<g class="board hidden" data-hidden="true">']
    out.append(_el("rect", x=ox - 4, y=oy - 4, width=bw + 8, height=bh + 8, rx=5, fill=FRAME))
    out.append(_el("rect", x=ox, y=oy, width=bw, height=bh, fill=MIST["ground"]))
    # drifting mist: soft wavy bands across the board
    for i, fy in enumerate((0.13, 0.27, 0.76, 0.9)):
        x0 = ox + (0.06 if i % 2 else 0.16) * bw
        length = bw * 0.78
        y = oy + fy * bh
        out.append(
            _el(
                "path",
                d=f"M {_n(x0)} {_n(y)} q {_n(length / 4)} -9 {_n(length / 2)} 0 "
                f"t {_n(length / 2)} 0",
                fill="none",
                stroke=MIST["band"],
                stroke_width=9,
                stroke_linecap="round",
            )
        )
    # a closed eye: the lid and its lashes
    ey, r = cy - 24, 32
    out.append(
        _el(
            "path",
            class_="closed-eye",
            d=f"M {_n(cx - r)} {_n(ey)} Q {_n(cx)} {_n(ey + 20)} {_n(cx + r)} {_n(ey)}",
            fill="none",
            stroke=MIST["ink"],
            stroke_width=3,
            stroke_linecap="round",
        )
    )
    for t in (-0.6, -0.2, 0.2, 0.6):
        x = cx + t * r
        y = ey + 10 * (1 - t * t)  # on the lid (a parabola through the ends)
        out.append(
            _el(
                "line",
                x1=x,
                y1=y,
                x2=x + t * 6,
                y2=y + 7,
                stroke=MIST["ink"],
                stroke_width=2.4,
                stroke_linecap="round",
            )
        )
    lines = (
        ("The Board of Human", 15, "bold", INK),
        ("is in the players' minds", 13.5, None, INK),
        ("Chosen One: play from the Ba Gua alone", 11.5, None, "#6b5a40"),
    )
    for i, (line, size, weight, fill) in enumerate(lines):
        out.append(
            _text(
                cx,
                cy + 26 + i * 19,
                line,
                class_="hidden-note",
                text_anchor="middle",
                font_size=size,
                font_weight=weight,
                fill=fill,
            )
        )
    out.append("</g>")
    return out


# ---- the whole picture ----------------------------------------------------------------------
def board_svg(
    state,
    *,
    size: int | None = None,
    coordinates: bool = True,
    panel: bool = True,
    reveal: bool = False,
    overlay=None,
    ids: str | None = None,
) -> str:
    """The position as an SVG document (a string).

    ``size`` is the width in pixels (default: the natural size, 708 px with the panel on an
    8x8 board); ``coordinates`` draws the a-h / 1-8 labels; ``panel`` draws the Ba Gua, the
    meters and whose turn it is beside the board. In Chosen One mode the Board of Human is
    hidden ("in the players' minds") unless ``reveal`` is set.

    ``ids``: a prefix for ``id`` attributes on the cells (``{ids}cell-c3``) and the Ba Gua
    spaces (``{ids}space-He``); no ids by default (two pictures on a page must not clash).
    ``overlay``: an object drawing extra layers (see :mod:`taolong_lab.render`): its
    ``under(grid)`` is drawn over the cells, under the tiles and dragons; ``over(grid)`` over
    the dragons; ``wheel(cx, cy)`` over the Ba Gua. The board layers are left out while the
    Board of Human is hidden.

    >>> from taolong_lab import new_game
    >>> svg = board_svg(new_game())
    >>> svg.startswith("<svg") and svg.count('class="stone ') == 8
    True
    """
    hidden = state.rules.mode == "chosen-one" and not reveal
    ox = oy = MARGIN if coordinates else 8
    grid = _Grid(state, ox, oy, ids)
    board_w, board_h = grid.width * CELL, grid.height * CELL
    pad = 10 if coordinates else ox
    width = ox + board_w + pad
    height = oy + board_h + pad + (WRAP_NOTE if grid.wrap and not hidden else 0)
    px = width + PANEL_GAP - 10
    if panel:
        width = px + PANEL_W
        caption = _caption_lines(state, board_w + PANEL_GAP)
        caption_y = height + 16
        # under the board, the caption; beside it, the wheel, two dragon cards, two status lines
        height = max(
            caption_y + (len(caption) - 1) * CAPTION_LINE + 12,
            WHEEL_TOP + 2 * LABEL_R + 44 + 2 * CARD_H + 30,
        )
    scale = (size / width) if size else 1.0
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{_n(width * scale)}" height="{_n(height * scale)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" '
        f'font-family={quoteattr(FONT)} class="taolong-position">'
    ]
    if hidden:  # the title must not give the hidden board away
        title = f"{state.rules.token()}, turn {state.ply + 1} (the Board of Human is hidden)"
    else:
        title = state.to_tln()
    out.append(f"<title>Tao Long: {escape(title)}</title>")
    out.append(_el("rect", x=0, y=0, width=width, height=height, fill=PAPER))
    if hidden:
        out.extend(_hidden_board(grid))
    else:
        out.extend(_board(grid, coordinates))
        if overlay is not None:
            out.extend(overlay.under(grid))
        for colour in COLOURS:  # under the tiles: the threads come out from under the portals
            out.extend(_portal_links(state, colour, grid))
        out.extend(_features(state, grid))
        for colour_index in range(len(COLOURS)):
            out.extend(_dragon(state, colour_index, grid))
        if overlay is not None:
            out.extend(overlay.over(grid))
    if panel:
        out.extend(_caption(state, caption, ox - 4, caption_y))
        if state.rules.mode in FLUX_MODES:
            out.extend(_flux_coin(state, px + PANEL_W - 20, 24))
        cx, cy = px + PANEL_W / 2, WHEEL_TOP + LABEL_R
        out.extend(_wheel(state, cx, cy, ids))
        if overlay is not None:
            out.extend(overlay.wheel(cx, cy))
        y = cy + LABEL_R + 44
        for colour_index in range(len(COLOURS)):
            out.extend(_dragon_card(state, colour_index, px + 8, y))
            y += CARD_H
        headline, detail = _status(state)
        out.append(
            _text(
                px + PANEL_W / 2,
                y + 4,
                headline,
                class_="status",
                text_anchor="middle",
                font_size=13.5,
                font_weight="bold",
                fill=INK,
            )
        )
        if detail:
            out.append(
                _text(
                    px + PANEL_W / 2,
                    y + 22,
                    detail,
                    class_="status-detail",
                    text_anchor="middle",
                    font_size=12,
                    fill=INK,
                )
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the SVG of a TLN position given as arguments (default: the start position);
    ``--reveal`` shows the Board of Human in Chosen One mode."""
    import sys

    from ..engine import State

    args = list(sys.argv[1:] if argv is None else argv)
    reveal = "--reveal" in args
    args = [a for a in args if a != "--reveal"]
    state = State(" ".join(args)) if args else State()
    sys.stdout.write(board_svg(state, reveal=reveal))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
