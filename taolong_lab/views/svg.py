"""An SVG picture of a position: the Board of Human and the Board of Ba Gua.

Plain string building, no dependencies; the output is deterministic, so it can be
snapshot-tested and committed. ``State._repr_svg_`` calls :func:`board_svg`, which is how
JupyterLab shows a position.

- The board: 8x8 cells with coordinates (``a``-``h`` across the top, ``1``-``8`` down the
  side; ``a1`` is the top-left cell, as in the notation).
- Each dragon is a snake in its colour (the white dragon light with a dark outline, the black
  dragon dark) through its cells, one scale mark per segment; the head is drawn on top,
  pointing the way it faces, with eyes. A defeated dragon keeps only its head, crossed out.
- Beside the board, the Ba Gua wheel in ring order: Heaven at the top and sowing
  (counterclockwise, ring index + 1) going to the left. Each space shows its trigram, its
  abbreviation and its stones as small discs in stack order (base stone on the left, top
  stone on the right, drawn over the others). The centre of the wheel holds the centre's
  water and fire stones.
- Below the wheel: each dragon's segments, water and fire meters, then whose turn it is (or
  the result).

``python -m taolong_lab.views.svg [TLN]`` prints the SVG of a position (default: the start).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from ..rules.data import COLOURS, game_data

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

    def __init__(self, state, ox: float, oy: float):
        env = state._env
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
    frame = {"x": ox - 4, "y": oy - 4, "width": w * CELL + 8, "height": h * CELL + 8, "rx": 5}
    out.append(_el("rect", fill=FRAME, **frame))
    for y in range(h):
        for x in range(w):
            fill = LIGHT_CELL if (x + y) % 2 == 0 else DARK_CELL
            out.append(
                _el("rect", x=ox + x * CELL, y=oy + y * CELL, width=CELL, height=CELL, fill=fill)
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
    """The Torus: the frame becomes a dashed line, and each pair of opposite edges carries the
    same arrows (one arrow for left/right, two for top/bottom), the usual picture of edges glued
    together; a line under the board says it in words."""
    ox, oy = grid.ox, grid.oy
    bw, bh = grid.width * CELL, grid.height * CELL
    out = ['<g class="wrap">']
    out.append(f"<title>The Torus: opposite edges are joined</title>")
    out.append(
        _el(
            "rect",
            x=ox - 2,
            y=oy - 2,
            width=bw + 4,
            height=bh + 4,
            rx=3,
            fill="none",
            stroke=PAPER,
            stroke_width=2.2,
            stroke_dasharray="7 5",
        )
    )

    def arrows(x: float, y: float, angle: int, count: int, edge: str) -> None:
        for k in range(count):
            shift = (k - (count - 1) / 2) * 9
            out.append(
                _el(
                    "path",
                    class_="wrap-arrow",
                    data_edge=edge,
                    d="M -5 3.5 L 0 -3.5 L 5 3.5",
                    fill="none",
                    stroke=WRAP,
                    stroke_width=2.6,
                    stroke_linecap="round",
                    stroke_linejoin="round",
                    transform=f"translate({_n(x)} {_n(y)}) rotate({angle}) "
                    f"translate(0 {_n(shift)})",
                )
            )

    mx, my = ox + bw / 2, oy + bh / 2
    arrows(ox - 4, my, 0, 1, "left")
    arrows(ox + bw + 4, my, 0, 1, "right")
    arrows(mx, oy - 4, 90, 2, "top")
    arrows(mx, oy + bh + 4, 90, 2, "bottom")
    out.append(
        _text(
            ox + bw / 2,
            oy + bh + 24,
            "edges wrap: leave one side, come back on the other",
            class_="wrap-note",
            text_anchor="middle",
            font_size=11.5,
            fill="#6b5a40",
        )
    )
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


def _dragon(state, colour_index: int, ox: float, oy: float) -> list[str]:
    colour = COLOURS[colour_index]
    style = DRAGON[colour_index]
    cells = state.cells(colour)
    centres = [_centre(x, y, ox, oy) for x, y in cells]
    out = [f'<g class="dragon {colour}">']
    if len(centres) > 1:
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in centres)
        common = {
            "points": points,
            "fill": "none",
            "stroke_linecap": "round",
            "stroke_linejoin": "round",
        }
        out.append(
            _el(
                "polyline",
                class_="body-outline",
                stroke=style["outline"],
                stroke_width=CELL * 0.5,
                **common,
            )
        )
        out.append(
            _el(
                "polyline",
                class_="body",
                stroke=style["body"],
                stroke_width=CELL * 0.5 - 4.4,
                **common,
            )
        )
        for x, y in centres[1:]:
            out.append(
                _el("circle", class_="segment", cx=x, cy=y, r=CELL * 0.11, fill=style["scale"])
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


def _stones(stack: str, cx: float, cy: float, name: str) -> list[str]:
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
                    data_space=name,
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


def _wheel(state, cx: float, cy: float) -> list[str]:
    data = game_data()
    count = len(data.ring)
    out = ['<g class="bagua">']
    out.append(_el("circle", cx=cx, cy=cy, r=WHEEL_R, fill="none", stroke=RING, stroke_width=2))
    # sowing direction: a chevron on the ring halfway between each space and the next
    for i in range(count):
        x, y = _polar(cx, cy, WHEEL_R, i + 0.5, count)
        # turn the chevron (drawn pointing right) along the counterclockwise tangent
        rotation = -(90 + 360 * (i + 0.5) / count) - 90
        out.append(
            _el(
                "path",
                class_="flow",
                d="M -4 -5 L 3 0 L -4 5",
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
        out.append(f'<g class="space" data-space="{name}" data-index="{i}">')
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
        out.extend(_stones(state.bagua[i], x, y, name))
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


# ---- the whole picture ----------------------------------------------------------------------
def board_svg(
    state, *, size: int | None = None, coordinates: bool = True, panel: bool = True
) -> str:
    """The position as an SVG document (a string).

    ``size`` is the width in pixels (default: the natural size, 708 px with the panel);
    ``coordinates`` draws the a-h / 1-8 labels; ``panel`` draws the Ba Gua, the meters and
    whose turn it is beside the board.

    >>> from taolong_lab import new_game
    >>> svg = board_svg(new_game())
    >>> svg.startswith("<svg") and svg.count('class="stone ') == 8
    True
    """
    data = game_data()
    ox = oy = MARGIN if coordinates else 8
    board_w, board_h = data.width * CELL, data.height * CELL
    pad = 10 if coordinates else ox
    width = ox + board_w + pad
    height = oy + board_h + pad
    px = width + PANEL_GAP - 10
    if panel:
        width = px + PANEL_W
        # wheel, two dragon cards, two status lines
        height = max(height, WHEEL_TOP + 2 * LABEL_R + 44 + 2 * CARD_H + 30)
    scale = (size / width) if size else 1.0
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{_n(width * scale)}" height="{_n(height * scale)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" '
        f'font-family={quoteattr(FONT)} class="taolong-position">'
    ]
    out.append(f"<title>Tao Long: {escape(state.to_tln())}</title>")
    out.append(_el("rect", x=0, y=0, width=width, height=height, fill=PAPER))
    out.extend(_board(state, ox, oy, coordinates))
    for colour_index in range(len(COLOURS)):
        out.extend(_dragon(state, colour_index, ox, oy))
    if panel:
        cx, cy = px + PANEL_W / 2, WHEEL_TOP + LABEL_R
        out.extend(_wheel(state, cx, cy))
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
    """Print the SVG of a TLN position given as arguments (default: the start position)."""
    import sys

    from ..engine import State

    args = sys.argv[1:] if argv is None else argv
    state = State(" ".join(args)) if args else State()
    sys.stdout.write(board_svg(state))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
