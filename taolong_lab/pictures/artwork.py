"""The artwork of the Board of Human, in SVG: the board, its fixed tiles, the dragons.

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
- Chosen One: the Board of Human is in the players' minds; :func:`hidden_board` draws a misty
  panel in its place.

Each function returns a list of SVG elements (strings) for :func:`taolong_lab.pictures.svg`
to put together. Elements carry classes and ``data-*`` attributes for tests and styling:
``big-rock`` (``data-cells``), ``rock`` [``breakable``] [``damaged``] (``data-cell``,
``data-hits``), ``village`` (``data-cells``, ``data-protector``), ``portal <colour>
free|occupied`` (``data-cell``, ``data-colour``, ``data-dragon``), ``portal-link``
(``data-exit``, ``data-entry``), ``board hidden``; each board cell ``cell`` (``data-cell``),
each body tile ``segment straight|bent|tail`` (``data-cell``), each head ``head <colour>``
[``defeated``] (``data-facing``).
"""

from __future__ import annotations

import textwrap

from ..engine.codec import board_rows
from ..engine.core import ROCK_HITS
from ..engine.geometry import cell_name
from ..markup import escape
from ..rules.data import COLOURS
from .layout import (
    CELL,
    PORTAL_R,
    Grid,
    cell_names,
    label_size,
    occupied_portals,
    rectangles,
    text_width,
)
from .primitives import attributes, circle, element, inset_rect, number, pair, text_element
from .style import (
    DARK_CELL,
    DRAGON,
    FRAME,
    GRID,
    INK,
    LIGHT_CELL,
    MIST,
    MUTED,
    PAPER,
    PORTAL,
    ROCK,
    VILLAGE,
    WRAP,
)


# ---- the board of Human ---------------------------------------------------------------------
def board(grid: Grid, *, coordinates: bool = True, ids: str | None = None) -> list[str]:
    """The cells, the grid lines, the frame (the Torus: its dashed frame and arrows) and,
    with ``coordinates``, the column letters and row numbers. ``ids`` prefixes an ``id`` on
    each cell (``{ids}cell-c3``); None for no ids."""
    ox, oy, w, h = grid.ox, grid.oy, grid.width, grid.height
    out = [f'<g class="board{" torus" if grid.wrap else ""}">']
    if not grid.wrap:  # the Torus has no edge: its frame is drawn by _wrap_marks
        out.append(inset_rect(ox, oy, w * CELL, h * CELL, -4, rx=5, fill=FRAME))
    for y in range(h):
        for x in range(w):
            fill = LIGHT_CELL if (x + y) % 2 == 0 else DARK_CELL
            name = cell_name((x, y))
            out.append(
                element(
                    "rect",
                    id=f"{ids}cell-{name}" if ids is not None else None,
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
        out.append(
            element("line", x1=x, y1=oy, x2=x, y2=oy + h * CELL, stroke=GRID, stroke_width=1)
        )
    for i in range(h + 1):
        y = oy + i * CELL
        out.append(
            element("line", x1=ox, y1=y, x2=ox + w * CELL, y2=y, stroke=GRID, stroke_width=1)
        )
    out.append("</g>")
    if grid.wrap:
        out.extend(_wrap_marks(grid))
    if coordinates:
        font = label_size(13, grid.scale)
        out.append(f'<g class="coordinates" {attributes(font_size=font, fill=MUTED)}>')
        for x in range(w):
            cx = ox + (x + 0.5) * CELL
            out.append(text_element(cx, oy - 10, chr(97 + x), text_anchor="middle"))
        for y in range(h):
            cy = oy + (y + 0.5) * CELL + font * 4.5 / 13
            out.append(text_element(ox - 11, cy, str(y + 1), text_anchor="middle"))
        out.append("</g>")
    return out


def _wrap_marks(grid: Grid) -> list[str]:
    """The Torus: a dashed frame, and the same arrows on each pair of opposite edges (one
    arrow left and right, two top and bottom), the usual picture of edges glued together."""
    ox, oy = grid.ox, grid.oy
    bw, bh = grid.width * CELL, grid.height * CELL
    out = ['<g class="wrap">', "<title>The Torus: opposite edges are joined</title>"]
    out.append(
        inset_rect(
            ox,
            oy,
            bw,
            bh,
            -2.5,
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
                element(
                    "path",
                    class_="wrap-arrow",
                    data_edge=edge,
                    d="M -5.5 3.5 L 0 -3 L 5.5 3.5",
                    fill="none",
                    stroke=WRAP,
                    stroke_width=2.8,
                    stroke_linecap="round",
                    stroke_linejoin="round",
                    transform=f"translate({pair(x, y)}) rotate({angle}) "
                    f"translate(0 {number(shift)})",
                )
            )

    mx, my = ox + bw / 2, oy + bh / 2
    for x, y, angle, count, edge in (
        (ox - 2.5, my, 0, 1, "left"),
        (ox + bw + 2.5, my, 0, 1, "right"),
        (mx, oy - 2.5, 90, 2, "top"),
        (mx, oy + bh + 2.5, 90, 2, "bottom"),
    ):
        out.append(element("rect", x=x - 9, y=y - 9, width=18, height=18, rx=4, fill=PAPER))
        arrows(x, y, angle, count, edge)
    out.append(
        text_element(
            ox + bw / 2,
            oy + bh + 24,
            "opposite edges are joined",
            class_="wrap-note",
            text_anchor="middle",
            font_size=label_size(11.5, grid.scale),
            fill=MUTED,
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
    parts = [f"M {pair(pts[0][0], pts[0][1])}"]
    for i in range(n):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[(i + 1) % n], pts[(i + 2) % n]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        parts.append(f"C {pair(c1[0], c1[1])} {pair(c2[0], c2[1])} {pair(p2[0], p2[1])}")
    return " ".join(parts) + " Z"


def _big_rock(grid: Grid, block) -> list[str]:
    x0, y0, w, h = grid.box(block)
    pad = 3
    x0, y0, w, h = x0 + pad, y0 + pad, w - 2 * pad, h - 2 * pad
    out = [f'<g class="big-rock" data-cells="{cell_names(block)}">']
    out.append(f"<title>big rock ({cell_names(block)}): impassable</title>")
    out.append(element("path", d=_blob(BOULDER, x0 + 2, y0 + 4, w, h), fill="#000", opacity=0.16))
    out.append(
        element(
            "path",
            d=_blob(BOULDER, x0, y0, w, h),
            fill=ROCK["base"],
            stroke=ROCK["edge"],
            stroke_width=2,
        )
    )
    out.append(
        element(
            "path", d=_blob(BOULDER, x0 - w * 0.06, y0 - h * 0.08, w, h, 0.7), fill=ROCK["light"]
        )
    )
    out.append(
        element(
            "path", d=_blob(BOULDER, x0 - w * 0.1, y0 - h * 0.13, w, h, 0.38), fill=ROCK["shine"]
        )
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
            f"{'M' if i == 0 else 'L'} {pair(x0 + px * w, y0 + py * h)}"
            for i, (px, py) in enumerate(line)
        )
        out.append(
            element(
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


def _small_rock(grid: Grid, xy: tuple[int, int], hits: int | None) -> list[str]:
    """A small rock; ``hits`` is the damage a breakable rock can still take (None: fixed).
    A breakable rock shows its hits left as pips under it; a damaged one is chipped and
    cracked right through."""
    x0, y0 = grid.corner(xy)
    shape = PEBBLES[(xy[0] * 2 + xy[1]) % len(PEBBLES)]
    damaged = hits is not None and hits < ROCK_HITS
    classes = "rock" + (" breakable" if hits is not None else "") + (" damaged" if damaged else "")
    name = cell_name(xy)
    out = [f"<g {attributes(class_=classes, data_cell=name, data_hits=hits)}>"]
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
        return f"{pair(bx + px * size, by + py * size)}"

    out.append(
        element("path", d=_blob(shape, bx + 1.5, by + 3, size, size), fill="#000", opacity=0.16)
    )
    out.append(
        element(
            "path",
            d=_blob(shape, bx, by, size, size),
            fill=ROCK["damaged"] if damaged else ROCK["base"],
            stroke=ROCK["edge"],
            stroke_width=1.6,
        )
    )
    out.append(
        element("path", d=_blob(shape, bx - 3, by - 4, size, size, 0.62), fill=ROCK["light"])
    )
    out.append(element("path", d=_blob(shape, bx - 5, by - 6, size, size, 0.3), fill=ROCK["shine"]))
    if damaged:
        # a wedge knocked out of the top, and a crack from it right through, with a branch
        cell_fill = LIGHT_CELL if (xy[0] + xy[1]) % 2 == 0 else DARK_CELL
        out.append(
            element(
                "path",
                class_="chip",
                d=f"M {at(0.36, 0.08)} L {at(0.5, 0.3)} L {at(0.64, 0.08)} Z",
                fill=cell_fill,
            )
        )
        out.append(
            element(
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
                element(
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
                circle(
                    x0 + CELL / 2 + (i - (ROCK_HITS - 1) / 2) * 7.5,
                    y0 + CELL - 4.6,
                    2.5,
                    class_="hit-pip" + (" left" if i < hits else ""),
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
        element(
            "rect",
            x=cx - half * t,
            y=cy - height * t,
            width=2 * half * t,
            height=height * t,
            fill="#f5ecd6",
            stroke=VILLAGE["ink"],
            stroke_width=0.9,
        ),
        element(
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
    return element(
        "path",
        class_="roof",
        d=f"M {pair(cx - half * t, base)} "
        f"Q {pair(cx - (half - ci) * t, base - cr * t)} {number(cx - (half - ti) * t)} "
        f"{number(base - tr * t)} L {pair(cx + (half - ti) * t, base - tr * t)} "
        f"Q {pair(cx + (half - ci) * t, base - cr * t)} {pair(cx + half * t, base)} Z",
        fill=fill,
        stroke=VILLAGE["ink"],
        stroke_width=0.9,
        stroke_linejoin="round",
    )


def house(cx: float, cy: float, s: float, roof: str) -> list[str]:
    """A little house standing on (cx, cy): walls, a door and a roof with upturned eaves."""
    return [
        *_walls(cx, cy, 6, 8, (1.6, 4.6), s),
        _roof(cx, cy - 7 * s, 10, s, roof, ctrl=(3, 1), top=(4.5, 5.5)),
    ]


def _village(grid: Grid, block, protector: str | None) -> list[str]:
    x0, y0, w, h = grid.box(block)
    names = cell_names(block)
    out = [f"<g {attributes(class_='village', data_cells=names, data_protector=protector)}>"]
    who = f", protected by the {protector} dragon" if protector else ""
    out.append(f"<title>the Village ({names}){escape(who)}: impassable</title>")
    wall = VILLAGE["wall"]
    out.append(
        inset_rect(x0, y0, w, h, 3, rx=8, fill=VILLAGE["ground"], stroke=wall, stroke_width=2.4)
    )
    out.append(
        inset_rect(
            x0,
            y0,
            w,
            h,
            7,
            rx=5,
            fill="none",
            stroke=wall,
            stroke_width=1,
            stroke_dasharray="3 2.5",
        )
    )
    s = min(w, h) / (2 * CELL)
    # a lane up to the pagoda, a house in each corner, the pagoda (drawn back to front)
    px, py = x0 + 0.5 * w, y0 + 0.64 * h
    out.append(
        element(
            "path",
            d=f"M {pair(px, y0 + h - 8)} L {pair(px, py)}",
            stroke=VILLAGE["lane"],
            stroke_width=8 * s,
            stroke_linecap="round",
        )
    )
    houses = ((0.25, 0.4), (0.75, 0.4), (0.23, 0.87), (0.77, 0.87))
    for i, (hx, hy) in enumerate(houses):
        out.extend(house(x0 + hx * w, y0 + hy * h, 1.6 * s, VILLAGE["roofs"][i % 2]))
    t = 1.35 * s
    out.extend(_walls(px, py, 5, 9, (1.8, 5), t))
    for tier, (ty, half) in enumerate(((py - 8 * t, 11), (py - 16 * t, 8), (py - 23 * t, 5.5))):
        out.append(_roof(px, ty, half, t, VILLAGE["roofs"][tier % 2]))
    if protector is not None:
        # the protector's banner on a pole at the top of the pagoda
        style = DRAGON[COLOURS.index(protector)]
        top = py - 36 * t
        out.append(
            element(
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
            element(
                "path",
                class_="banner",
                data_colour=protector,
                d=f"M {pair(px, top)} L {pair(px + 11 * t, top + 2.6 * t)} "
                f"L {pair(px, top + 5.6 * t)} Z",
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
            for y, row in enumerate(state.layout)
            for x, s in enumerate(row)
            if s == sym and (x, y) != xy
        ]
        where = f"leads to its twin {cell_names(twins)}"
    else:
        where = "leads to any other free portal"
    cost = f", costs 1 {rule.cost}" if rule.cost else ""
    held = f"; the {occupant} dragon passes through" if occupant else "; free"
    return f"{colour} portal {cell_name(xy)}: {where}{cost}{held}"


def _portal(state, grid: Grid, xy, sym: str, occupant: str | None) -> list[str]:
    """A portal: an open ring with a swirl when free; closed (filled) when a dragon passes
    through it (the dragon's body is drawn into it afterwards, see _portal_mouth)."""
    style = PORTAL[sym]
    cx, cy = grid.centre(xy)
    r = PORTAL_R
    state_class = "occupied" if occupant else "free"
    classes = f"portal {style['name']} {state_class}"
    attrs = attributes(
        class_=classes, data_cell=cell_name(xy), data_colour=style["name"], data_dragon=occupant
    )
    out = [f"<g {attrs}>"]
    out.append(f"<title>{escape(_portal_title(state, xy, sym, occupant))}</title>")
    out.append(circle(cx + 1, cy + 2, r + 1.5, fill="#000", opacity=0.13))
    if occupant is None:
        out.append(circle(cx, cy, r, fill=style["pale"], stroke=style["ring"], stroke_width=4.2))
        # a swirl: two arcs turning into the centre
        for turn in (0, 180):
            out.append(
                element(
                    "path",
                    d=f"M {pair(cx, cy - r * 0.62)} "
                    f"A {pair(r * 0.62, r * 0.62)} 0 0 1 {pair(cx + r * 0.5, cy + r * 0.2)} "
                    f"A {pair(r * 0.36, r * 0.36)} 0 0 1 {pair(cx, cy + r * 0.12)}",
                    fill="none",
                    stroke=style["ring"],
                    stroke_width=2,
                    stroke_linecap="round",
                    opacity=0.8,
                    transform=f"rotate({turn} {pair(cx, cy)})",
                )
            )
        out.append(circle(cx, cy, 2.2, fill=style["ring"]))
    else:
        out.append(circle(cx, cy, r, fill=style["ring"], stroke=style["dark"], stroke_width=2))
        out.append(circle(cx, cy, r * 0.62, fill=style["dark"]))
    out.append("</g>")
    return out


def _portal_mouth(grid: Grid, xy, sym: str, occupant: str) -> list[str]:
    """Drawn over the dragon's body: the rim of an occupied portal and its dark centre, so the
    body visibly dives into the portal."""
    style = PORTAL[sym]
    cx, cy = grid.centre(xy)
    return [
        circle(
            cx,
            cy,
            PORTAL_R,
            class_="portal-mouth",
            data_cell=cell_name(xy),
            data_dragon=occupant,
            fill="none",
            stroke=style["ring"],
            stroke_width=4.2,
        ),
        circle(cx, cy, PORTAL_R * 0.36, fill=style["dark"], opacity=0.9),
    ]


def _features(state, grid: Grid) -> list[str]:
    """Every fixed tile and breakable rock, in the board's reading order by kind."""
    rows = board_rows(state)
    hits = state.rocks
    xy = state.tables.geo.xy
    occupied = {xy[c]: who for c, who in occupied_portals(state).items()}
    out = ['<g class="features">']
    for block in rectangles(rows, "#"):
        out.extend(_big_rock(grid, block))
    for y, row in enumerate(rows):
        for x, sym in enumerate(row):
            if sym in "od":
                out.extend(_small_rock(grid, (x, y), hits.get((x, y))))
    for block in rectangles(rows, "V"):
        out.extend(_village(grid, block, state.rules.option("village")))
    for y, row in enumerate(rows):
        for x, sym in enumerate(row):
            if sym in PORTAL:
                out.extend(_portal(state, grid, (x, y), sym, occupied.get((x, y))))
    if len(out) == 1:  # nothing on the board: no empty group
        return []
    out.append("</g>")
    return out


def tiles(state, grid: Grid) -> list[str]:
    """The fixed tiles and breakable rocks, over the threads that join the portals a dragon
    passes through."""
    out = []
    for colour in COLOURS:  # under the tiles: the threads come out from under the portals
        out.extend(_portal_links(state, colour, grid))
    out.extend(_features(state, grid))
    return out


def _portal_links(state, colour: str, grid: Grid) -> list[str]:
    """A dotted thread in the dragon's colours from each exit portal to its entry portal, drawn
    under the tiles: the two portals hold one dragon."""
    out = []
    style = DRAGON[COLOURS.index(colour)]
    for i, exit_, entry in state.dragon(colour).links:
        (x1, y1), (x2, y2) = grid.cell_centre(exit_), grid.cell_centre(entry)
        # bend the thread a little to one side so it does not run along a grid line
        mx, my = (x1 + x2) / 2 + (y2 - y1) * 0.12, (y1 + y2) / 2 - (x2 - x1) * 0.12
        d = f"M {pair(x1, y1)} Q {pair(mx, my)} {pair(x2, y2)}"
        attrs = attributes(
            class_=f"portal-link {colour}",
            data_segment=i,
            data_exit=grid.geo.name(exit_),
            data_entry=grid.geo.name(entry),
        )
        out.append(f"<g {attrs}>")
        for stroke, width in ((style["outline"], 5.2), (style["body"], 2.6)):
            out.append(
                element(
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


def hidden_board(grid: Grid) -> list[str]:
    """Chosen One: the Board of Human is not shown (the players keep it in mind): a misty
    panel the size of the board, with a closed eye and a note."""
    ox, oy = grid.ox, grid.oy
    bw, bh = grid.width * CELL, grid.height * CELL
    cx, cy = ox + bw / 2, oy + bh / 2
    out = ['<g class="board hidden" data-hidden="true">']
    out.append(inset_rect(ox, oy, bw, bh, -4, rx=5, fill=FRAME))
    out.append(element("rect", x=ox, y=oy, width=bw, height=bh, fill=MIST["ground"]))
    # drifting mist: soft wavy bands across the board
    for i, fy in enumerate((0.13, 0.27, 0.76, 0.9)):
        x0 = ox + (0.06 if i % 2 else 0.16) * bw
        length = bw * 0.78
        y = oy + fy * bh
        out.append(
            element(
                "path",
                d=f"M {pair(x0, y)} q {number(length / 4)} -9 {number(length / 2)} 0 "
                f"t {number(length / 2)} 0",
                fill="none",
                stroke=MIST["band"],
                stroke_width=9,
                stroke_linecap="round",
            )
        )
    # a closed eye: the lid and its lashes
    ey, r = cy - 24, 32
    out.append(
        element(
            "path",
            class_="closed-eye",
            d=f"M {pair(cx - r, ey)} Q {pair(cx, ey + 20)} {pair(cx + r, ey)}",
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
            element(
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
        ("Chosen One: play from the Ba Gua alone", 11.5, None, MUTED),
    )
    y = cy + 26
    for text, size, weight, fill in lines:
        font = label_size(size, grid.scale)  # wrapped once enlarged for a small picture
        chars = int((grid.width * grid.cell - 16) / text_width("x", font)) if font > size else 99
        for line in textwrap.wrap(text, max(chars, 12)):
            out.append(
                text_element(
                    cx,
                    y,
                    line,
                    class_="hidden-note",
                    text_anchor="middle",
                    font_size=font,
                    font_weight=weight,
                    fill=fill,
                )
            )
            y += 19 * font / size
    out.append("</g>")
    return out


__all__ = ["board", "hidden_board", "house", "tiles"]
