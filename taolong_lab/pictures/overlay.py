"""Overlays: what an SVG picture draws over a position (a turn, destinations, highlights).

An overlay is any object with the three methods of the :class:`Overlay` protocol; each returns
SVG elements (strings) for one layer of the picture:

- ``under(grid)``: over the cells, under the tiles and the dragons;
- ``over(grid)``: over the dragons;
- ``wheel(wheel)``: over the Ba Gua wheel.

``grid`` is a :class:`~taolong_lab.pictures.layout.Grid` (where each cell is), ``wheel`` a
:class:`~taolong_lab.pictures.layout.Wheel` (where each space is). While the Board of Human is
hidden (Chosen One), only ``wheel`` is called. Subclass :class:`Overlay` to draw in some
layers only: each method draws nothing by default.

The overlays :func:`taolong_lab.pictures.svg` builds from its options, in drawing order:
:class:`Highlight`, :class:`TurnOverlay`, :class:`Destinations`, :class:`SowingPreview`.
Every element carries a class and ``data-*`` attributes (see docs/render.md).

>>> from taolong_lab import new_game
>>> from taolong_lab.pictures import svg
>>> class Ring(Overlay):
...     def over(self, grid):
...         x, y = grid.centre((2, 2))
...         return [element("circle", class_="ring", cx=x, cy=y, r=grid.cell / 2, fill="none")]
>>> 'class="ring" cx="136" cy="136"' in svg(new_game(), overlays=[Ring()])
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from ..engine.geometry import cell_name, parse_cell
from ..markup import escape
from ..rules.data import game_data
from .layout import Grid, Wheel, label_size, route_pieces
from .primitives import attributes, circle, element, inset_rect, pair, points, text_element
from .style import ATTACK, BLOCKED, DESTINATION, DROP, HIGHLIGHT, LANDING, ROUTE, SOW
from .trace import Attack, Route, Sowing, TurnTrace

Cell = tuple[int, int]
SOW_INSET = (8, 22)  # how far inside the cups each phase's sowing arc runs


@runtime_checkable
class Overlay(Protocol):
    """The interface of an overlay: three layers of SVG elements (see the module)."""

    def under(self, grid: Grid) -> list[str]:
        """Elements drawn over the cells, under the tiles and the dragons."""
        return []

    def over(self, grid: Grid) -> list[str]:
        """Elements drawn over the dragons."""
        return []

    def wheel(self, wheel: Wheel) -> list[str]:
        """Elements drawn over the Ba Gua wheel."""
        return []


class Highlight(Overlay):
    """Shaded cells (``class="highlight"``), under the tiles and the dragons.

    Parameters
    ----------
    cells : iterable of (x, y)
        The cells to shade, in the order they are drawn.
    """

    def __init__(self, cells: Iterable[Cell]):
        self.cells = list(cells)

    def under(self, grid: Grid) -> list[str]:
        out = ['<g class="highlights">']
        for xy in self.cells:
            x, y = grid.corner(xy)
            out.append(
                element(
                    "rect",
                    class_="highlight",
                    data_cell=cell_name(xy),
                    x=x + 1,
                    y=y + 1,
                    width=grid.cell - 2,
                    height=grid.cell - 2,
                    fill=HIGHLIGHT,
                    opacity=0.45,
                )
            )
        out.append("</g>")
        return out


class TurnOverlay(Overlay):
    """What a turn did: the ruler of each expel under the dragons, the routes of the heads
    (and the hits of the ruler) over them, each sowing on the wheel.

    Parameters
    ----------
    trace : TurnTrace
        The turn, as :func:`~taolong_lab.pictures.trace.trace` gives it.
    title : str
        The turn's tooltip (the turn in words); none when empty.
    """

    def __init__(self, trace: TurnTrace, title: str = ""):
        self.trace = trace
        self.title = title

    def under(self, grid: Grid) -> list[str]:
        return [line for attack in self.trace.attacks for line in _attack_cells(grid, attack)]

    def over(self, grid: Grid) -> list[str]:
        trace = self.trace
        attrs = attributes(class_="turn", data_turn=str(trace.turn), data_colour=trace.colour)
        out = [f"<g {attrs}>"]
        if self.title:
            out.append(f"<title>{escape(self.title)}</title>")
        for attack in trace.attacks:
            out.extend(_attack_hits(grid, attack))
        for route in sorted(trace.routes, key=lambda r: r.kind == "matter"):
            out.extend(_route(grid, route))
        out.append("</g>")
        return out

    def wheel(self, wheel: Wheel) -> list[str]:
        return [line for sowing in self.trace.sowings for line in _sowing(sowing, wheel)]

    def legend(self) -> str:
        """What the red squares of an expel mean, for the caption ("" without an expel)."""
        if not self.trace.attacks:
            return ""
        return (
            "red squares: the expel's ruler and the damage it deals on each cell; "
            "a burst: a hit; dashed: out of reach"
        )


class Destinations(Overlay):
    """Marked destinations (``class="destination"``): a dot on a cell, a dashed ring on the
    mover's head for a stay.

    Parameters
    ----------
    marks : mapping of str to sequence of str
        Cell name -> the turns ending there (the mark's tooltip; may be empty).
    head : (x, y) or None
        The mover's head: a mark there is a stay.
    """

    def __init__(self, marks: Mapping[str, Sequence[str]], head: Cell | None = None):
        self.marks = dict(marks)
        self.head = head

    def over(self, grid: Grid) -> list[str]:
        out = ['<g class="destinations">']
        for name, turns in sorted(self.marks.items(), key=_reading_order):
            xy = parse_cell(name)
            cx, cy = grid.centre(xy)
            stay = self.head is not None and xy == self.head
            kind = "destination stay" if stay else "destination"
            out.append(f"<g {attributes(class_=kind, data_cell=name, data_turns=len(turns))}>")
            out.append(f"<title>{escape(name + ': ' + ', '.join(turns))}</title>")
            if stay:
                out.append(
                    circle(
                        cx,
                        cy,
                        grid.cell * 0.44,
                        fill="none",
                        stroke=DESTINATION,
                        stroke_width=3,
                        stroke_dasharray="5 3",
                    )
                )
            else:
                out.append(
                    circle(
                        cx,
                        cy,
                        grid.cell * 0.17,
                        fill=DESTINATION,
                        opacity=0.85,
                        stroke="#ffffff",
                        stroke_width=1.6,
                    )
                )
            out.append("</g>")
        out.append("</g>")
        return out


class SowingPreview(Overlay):
    """A sowing drawn on the wheel before it is played.

    Parameters
    ----------
    sowing : Sowing
        The sowing, as :func:`~taolong_lab.pictures.trace.preview_sowing` gives it.
    """

    def __init__(self, sowing: Sowing):
        self.sowing = sowing

    def wheel(self, wheel: Wheel) -> list[str]:
        return _sowing(self.sowing, wheel)


def _reading_order(item) -> tuple[int, int]:
    x, y = parse_cell(item[0])
    return y, x


# ---- routes -------------------------------------------------------------------------------
def _arrowhead(a, b, colour: str, size: float) -> str:
    """A filled arrowhead with its tip a little beyond ``b``, pointing from ``a`` to ``b``."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    tx, ty = bx + ux * size * 0.5, by + uy * size * 0.5
    back_x, back_y = tx - ux * size * 1.4, ty - uy * size * 1.4
    px, py = -uy * size * 0.8, ux * size * 0.8
    return element(
        "path",
        class_="arrowhead",
        d=f"M {pair(tx, ty)} L {pair(back_x + px, back_y + py)} "
        f"L {pair(back_x - px, back_y - py)} Z",
        fill=colour,
        stroke="#ffffff",
        stroke_width=1,
        stroke_linejoin="round",
    )


def _route(grid: Grid, route: Route) -> list[str]:
    colour = ROUTE[route.kind]
    main = route.kind == "matter"
    width = 5.5 if main else 4
    names = " ".join(cell_name(c) for c in route.cells[1:])
    attrs = attributes(
        class_=f"route {route.kind}",
        data_colour=route.colour,
        data_phase=route.phase,
        data_from=cell_name(route.cells[0]),
        data_cells=names,
        data_effect=route.effect,
    )
    out = [f"<g {attrs}>"]
    sx, sy = grid.centre(route.cells[0])
    if len(route.cells) == 1:  # a stay: a ring round the head
        out.append(
            circle(
                sx,
                sy,
                grid.cell * 0.46,
                class_="stay",
                fill="none",
                stroke=colour,
                stroke_width=3,
                stroke_dasharray="4 3",
                opacity=0.9,
            )
        )
        out.append("</g>")
        return out
    pieces, jumps = route_pieces(grid, route)
    for a, b in jumps:
        out.append(
            element(
                "line",
                class_="jump",
                x1=a[0],
                y1=a[1],
                x2=b[0],
                y2=b[1],
                stroke=colour,
                stroke_width=2,
                stroke_dasharray="2 5",
                stroke_linecap="round",
                opacity=0.9,
            )
        )
    for piece in pieces:
        if len(piece) > 1:
            out.append(
                element(
                    "polyline",
                    class_="path",
                    points=points(piece),
                    fill="none",
                    stroke=colour,
                    stroke_width=width,
                    stroke_linecap="round",
                    stroke_linejoin="round",
                    opacity=0.8 if main else 0.7,
                    stroke_dasharray=None if main else "7 4",
                )
            )
    out.append(circle(sx, sy, 5, class_="start", fill="#ffffff", stroke=colour, stroke_width=2.4))
    for x, y in (grid.centre(c) for c in route.cells[1:-1]):
        out.append(circle(x, y, 3.2, class_="waypoint", fill=colour))
    last = pieces[-1] if len(pieces[-1]) > 1 else pieces[-2]
    out.append(_arrowhead(last[-2], last[-1], colour, 7 if main else 5.5))
    out.append("</g>")
    return out


# ---- attacks ------------------------------------------------------------------------------
def _attack_cells(grid: Grid, attack: Attack) -> list[str]:
    attrs = attributes(
        class_="attack",
        data_colour=attack.colour,
        data_head=cell_name(attack.head),
        data_facing=attack.facing,
        data_value=attack.value,
    )
    out = [f"<g {attrs}>"]
    out.append(
        "<title>"
        + escape(
            f"{attack.colour} expels from {cell_name(attack.head)} facing {attack.facing}: "
            + (f"hits, ruler value {attack.value}" if attack.value >= 0 else "misses")
        )
        + "</title>"
    )
    font = label_size(10.5, grid.scale)
    for cell in attack.cells:
        x, y = grid.corner(cell.cell)
        state = "reached" if cell.reached else "blocked"
        classes = f"attack-cell {state}" + (" hit" if cell.hit else "")
        attrs = attributes(class_=classes, data_cell=cell_name(cell.cell), data_value=cell.value)
        out.append(f"<g {attrs}>")
        out.append(
            inset_rect(
                x,
                y,
                grid.cell,
                grid.cell,
                2,
                rx=4,
                fill=ATTACK if cell.reached else "none",
                fill_opacity=(0.45 if cell.hit else 0.22) if cell.reached else None,
                stroke=ATTACK if cell.reached else BLOCKED,
                stroke_width=1.6,
                stroke_dasharray=None if cell.reached else "3 3",
            )
        )
        out.append(
            text_element(
                x + 5,
                y + 13 * font / 10.5,
                str(cell.value),
                class_="ruler-value",
                font_size=font,
                font_weight="bold",
                fill=ATTACK if cell.reached else BLOCKED,
            )
        )
        out.append("</g>")
    out.append("</g>")
    return out


def _attack_hits(grid: Grid, attack: Attack) -> list[str]:
    """Over the dragons: a burst on each ruler cell that hit (the target's body hides the
    cell's fill)."""
    out = []
    for cell in attack.cells:
        if not cell.hit:
            continue
        cx, cy = grid.centre(cell.cell)
        r1, r2 = grid.cell * 0.2, grid.cell * 0.42
        d = []
        for k in range(8):
            a = math.radians(22.5 + 45 * k)
            d.append(
                f"M {pair(cx + r1 * math.cos(a), cy + r1 * math.sin(a))} "
                f"L {pair(cx + r2 * math.cos(a), cy + r2 * math.sin(a))}"
            )
        out.append(
            element(
                "path",
                class_="attack-hit",
                data_cell=cell_name(cell.cell),
                data_value=cell.value,
                d=" ".join(d),
                stroke=ATTACK,
                stroke_width=3,
                stroke_linecap="round",
            )
        )
    return out


# ---- the sowing on the wheel ------------------------------------------------------------------
def _sowing(sowing: Sowing, wheel: Wheel) -> list[str]:
    """One sowing on the wheel: its title, the sown and landing spaces, its arc, its drops."""
    data = game_data()
    colour = SOW[min(sowing.phase, 1)]
    radius = wheel.radius - wheel.cup - SOW_INSET[min(sowing.phase, 1)]
    abbrev = data.abbrev
    landing = abbrev[sowing.element] if sowing.element >= 0 else ""
    attrs = attributes(
        class_="sowing",
        data_phase=sowing.phase,
        data_space=abbrev[sowing.space],
        data_flow=sowing.flow,
        data_landing=landing or None,
        data_drops="".join(d.stone for d in sowing.drops),
    )
    out = [f"<g {attrs}>"]
    words = ", ".join(f"{d.order}: {d.stone} on {abbrev[d.space]}" for d in sowing.drops)
    out.append(
        f"<title>{escape(f'sow {abbrev[sowing.space]} ({sowing.flow}): {words}')}"
        + (
            escape(f"; the last stone lands on {data.ring[sowing.element].title()}")
            if landing
            else ""
        )
        + "</title>"
    )
    out += _sow_ends(sowing, wheel, colour, landing)
    out += _sow_path(sowing, wheel, colour, radius)
    out += _sow_drops(sowing, wheel, colour, radius)
    out.append("</g>")
    return out


def _sow_ends(sowing: Sowing, wheel: Wheel, colour: str, landing: str) -> list[str]:
    """The rings round the sown space and the space the last stone lands on."""
    data = game_data()
    abbrev = data.abbrev
    out = []
    fx, fy = wheel.point(sowing.space)
    out.append(
        circle(
            fx,
            fy,
            wheel.cup + 3.5,
            class_="sow-from",
            data_space=abbrev[sowing.space],
            fill="none",
            stroke=colour,
            stroke_width=2.6,
            stroke_dasharray="5 3",
        )
    )
    if landing:
        lx, ly = wheel.point(sowing.element)
        out.append(
            circle(
                lx,
                ly,
                wheel.cup + 3.5,
                class_="sow-landing",
                data_space=landing,
                data_element=data.ring[sowing.element],
                fill="none",
                stroke=LANDING,
                stroke_width=3.4,
            )
        )
    return out


def _sow_path(sowing: Sowing, wheel: Wheel, colour: str, radius: float) -> list[str]:
    """The arc from the sown space round the wheel through every space that got a stone."""
    out = []
    step = 1 if sowing.flow == "ccw" else -1
    sweep = 0 if sowing.flow == "ccw" else 1  # on screen, counterclockwise is sweep 0
    count = len(sowing.drops)
    if count:
        sx, sy = wheel.point(sowing.space, radius)
        d = [f"M {pair(sx, sy)}"]
        for j in range(1, count + 1):
            x, y = wheel.point(sowing.space + step * j, radius)
            d.append(f"A {pair(radius, radius)} 0 0 {sweep} {pair(x, y)}")
        out.append(
            element(
                "path",
                class_="sow-path",
                d=" ".join(d),
                fill="none",
                stroke=colour,
                stroke_width=2.6,
                stroke_linecap="round",
                opacity=0.85,
            )
        )
    return out


def _sow_drops(sowing: Sowing, wheel: Wheel, colour: str, radius: float) -> list[str]:
    """Each drop's numbered marker, inside the ring."""
    abbrev = game_data().abbrev
    out = []
    font = label_size(9.5, wheel.scale)
    mark = 7 * font / 9.5  # the marker's radius: its number stays readable
    inside = min(radius, wheel.radius - wheel.cup - mark - 1)  # off the spaces and stones
    for drop in sowing.drops:
        x, y = wheel.point(drop.space, inside)
        fill, ink = DROP[drop.stone]
        attrs = attributes(
            class_="sow-drop",
            data_phase=drop.phase,
            data_order=drop.order,
            data_space=abbrev[drop.space],
            data_stone=drop.stone,
        )
        out.append(f"<g {attrs}>")
        out.append(circle(x, y, mark, fill=fill, stroke=colour, stroke_width=2))
        out.append(
            text_element(
                x,
                y + 3.6 * font / 9.5,
                str(drop.order),
                text_anchor="middle",
                font_size=font,
                font_weight="bold",
                fill=ink,
            )
        )
        out.append("</g>")
    return out


__all__ = ["Destinations", "Highlight", "Overlay", "SowingPreview", "TurnOverlay"]
