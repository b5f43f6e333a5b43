"""The dragons of the Board of Human, in SVG: each body run by run, its segments, its head
turned to its facing (or crossed out when it is defeated)."""

from __future__ import annotations

from ..engine.geometry import cell_name
from ..rules.data import COLOURS
from .artwork import _portal_mouth
from .layout import CELL, Grid, body_runs, occupied_portals
from .primitives import circle, element, number, pair, points
from .style import DEFEATED, DRAGON

DIRECTION_ANGLE = {"N": 0, "E": 90, "S": 180, "W": 270}  # a head drawn facing north, turned


def dragons(state, grid: Grid) -> list[str]:
    """Both dragons, white first."""
    return [line for index in range(len(COLOURS)) for line in _dragon(state, index, grid)]


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
        xy = [
            number(cx + v * s) if i % 2 == 0 else number(cy + v * s) for i, v in enumerate(coords)
        ]
        parts.append(cmd + " " + " ".join(xy))
    return " ".join(parts) + " Z"


def _tile_kinds(state, colour: str, grid: Grid) -> list[str]:
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


def _dragon(state, colour_index: int, grid: Grid) -> list[str]:
    """One dragon: its body and segments (with the portal mouths it sits in), then its head,
    or the head alone, crossed out, when it is defeated."""
    colour = COLOURS[colour_index]
    style = DRAGON[colour_index]
    centres = [grid.centre(xy) for xy in state.cells(colour)]
    out = [f'<g class="dragon {colour}">']
    if len(centres) > 1:
        out += _body(state, colour, style, grid, centres)
    hx, hy = centres[0]
    if len(centres) > 1:
        out += _head(state, colour, style, hx, hy)
    else:
        out += _defeated_head(colour, style, hx, hy)
    out.append("</g>")
    return out


def _body(state, colour: str, style: dict, grid: Grid, centres) -> list[str]:
    """The body's outline and fill, run by run (square ends at the board's edge), the portal
    mouths the dragon sits in, and a scale on each segment."""
    out = []
    runs, stubs = body_runs(state, colour, grid)
    round_ends = {"fill": "none", "stroke_linecap": "round", "stroke_linejoin": "round"}
    for part, stroke, width in (
        ("body-outline", style["outline"], CELL * 0.5),
        ("body", style["body"], CELL * 0.5 - 4.4),
    ):
        for run in runs:
            if len(run) > 1:
                out.append(
                    element(
                        "polyline",
                        class_=part,
                        stroke=stroke,
                        stroke_width=width,
                        points=points(run),
                        **round_ends,
                    )
                )
        for a, b in stubs:  # square ends, cut off by the edge of the board
            out.append(
                element(
                    "polyline",
                    class_=f"{part}-stub",
                    points=points((a, b)),
                    fill="none",
                    stroke=stroke,
                    stroke_width=width,
                )
            )
    occupied = occupied_portals(state)
    rows = state.layout
    for cell, who in sorted(occupied.items()):
        if who == colour:
            x, y = grid.geo.xy[cell]
            out.extend(_portal_mouth(grid, (x, y), rows[y][x], who))
    names = [cell_name(xy) for xy in state.cells(colour)]
    kinds = _tile_kinds(state, colour, grid)
    for (x, y), name, kind in zip(centres[1:], names[1:], kinds, strict=True):
        out.append(
            circle(x, y, CELL * 0.11, class_=f"segment {kind}", data_cell=name, fill=style["scale"])
        )
    return out


def _head(state, colour: str, style: dict, hx: float, hy: float) -> list[str]:
    """The head, turned to the dragon's facing: horns, eyes and nostrils."""
    out = []
    angle = DIRECTION_ANGLE[state.facing(colour)]
    out.append(
        f'<g class="head {colour}" data-facing="{state.facing(colour)}" '
        f'transform="rotate({angle} {pair(hx, hy)})">'
    )
    out.append(
        element(
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
            element(
                "path",
                d=f"M {pair(hx + side * 8 * s, hy + 7 * s)} "
                f"Q {pair(hx + side * 15 * s, hy + 13 * s)} "
                f"{pair(hx + side * 19 * s, hy + 21 * s)}",
                fill="none",
                stroke=style["outline"],
                stroke_width=2.6,
                stroke_linecap="round",
            )
        )
        out.append(
            element(
                "ellipse",
                class_="eye",
                cx=hx + side * 7 * s,
                cy=hy - 2 * s,
                rx=3 * s,
                ry=4.4 * s,
                fill=style["eye"],
                stroke=style["outline"],
                stroke_width=0.8,
                transform=f"rotate({side * -25} {pair(hx + side * 7 * s, hy - 2 * s)})",
            )
        )
        out.append(circle(hx + side * 2.6 * s, hy - 14 * s, 1.3 * s, fill=style["outline"]))
    out.append("</g>")
    return out


def _defeated_head(colour: str, style: dict, hx: float, hy: float) -> list[str]:
    """A defeated dragon: the head alone, flipped and crossed out."""
    out = []
    r = CELL * 0.36
    out.append(f'<g class="head {colour} defeated" data-facing="-">')
    out.append(
        circle(
            hx, hy, r, fill=style["body"], stroke=style["outline"], stroke_width=2.2, opacity=0.75
        )
    )
    d = r * 0.62
    out.append(
        element(
            "path",
            class_="defeated-mark",
            d=f"M {pair(hx - d, hy - d)} L {pair(hx + d, hy + d)} "
            f"M {pair(hx + d, hy - d)} L {pair(hx - d, hy + d)}",
            stroke=DEFEATED,
            stroke_width=4,
            stroke_linecap="round",
        )
    )
    out.append("</g>")
    return out


__all__ = ["dragons"]
