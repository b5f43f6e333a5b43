"""SVG overlays drawn on :func:`taolong_lab.views.svg.board_svg`: a turn's routes, sowing
and ruler attack, legal destinations, highlighted cells.

:class:`Overlay` is what ``board_svg(..., overlay=)`` calls: ``under(grid)`` over the cells
(under the tiles and the dragons), ``over(grid)`` over the dragons, ``wheel(cx, cy)`` over
the Ba Gua. Every element carries a class and ``data-*`` attributes (see docs/render.md).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..engine.geometry import VECTORS, cell_name
from ..rules.data import game_data
from ..views.svg import CELL, CUP_R, INK, WHEEL_R, _attrs, _el, _n, _polar, _text
from .trace import Sowing, TurnTrace

ROUTE = {"matter": "#d9480f", "focus": "#7048e8", "opponent": "#0c8599"}
SOW = ("#d9480f", "#1c7ed6")  # first phase, second phase
ATTACK, BLOCKED = "#e03131", "#868e96"
DESTINATION = "#2b8a3e"
HIGHLIGHT = "#fab005"
LANDING = "#f08c00"
SOW_R = (57.0, 43.0)  # the radius of each phase's sowing arc in the wheel


class Overlay:
    """The layers for one picture. ``trace``: a :class:`TurnTrace` (or None); ``sowing``: a
    :class:`Sowing` preview; ``destinations``: cell name -> titles; ``highlight``: cells."""

    def __init__(
        self,
        trace: TurnTrace | None = None,
        sowing: Sowing | None = None,
        destinations: dict[str, list[str]] | None = None,
        highlight: list[tuple[int, int]] | None = None,
        head: tuple[int, int] | None = None,
        title: str = "",
    ):
        self.trace = trace
        self.sowing = sowing
        self.destinations = destinations or {}
        self.highlight = highlight or []
        self.head = head  # the mover's head, where a "stay" destination is drawn
        self.title = title

    # ---- the board ---------------------------------------------------------------------
    def under(self, grid) -> list[str]:
        out = []
        if self.highlight:
            out.append('<g class="highlights">')
            for xy in self.highlight:
                x, y = grid.ox + xy[0] * CELL, grid.oy + xy[1] * CELL
                out.append(
                    _el(
                        "rect",
                        class_="highlight",
                        data_cell=cell_name(xy),
                        x=x + 1,
                        y=y + 1,
                        width=CELL - 2,
                        height=CELL - 2,
                        fill=HIGHLIGHT,
                        opacity=0.45,
                    )
                )
            out.append("</g>")
        for attack in self.trace.attacks if self.trace else ():
            out.extend(_attack_cells(grid, attack))
        return out

    def over(self, grid) -> list[str]:
        out = []
        if self.trace is not None:
            attrs = _attrs(
                class_="turn", data_turn=str(self.trace.turn), data_colour=self.trace.colour
            )
            out.append(f"<g {attrs}>")
            if self.title:
                out.append(f"<title>{escape(self.title)}</title>")
            for attack in self.trace.attacks:
                out.extend(_attack_hits(grid, attack))
            for route in sorted(self.trace.routes, key=lambda r: r.kind == "matter"):
                out.extend(_route(grid, route))
            out.append("</g>")
        if self.destinations:
            out.append('<g class="destinations">')
            for name, turns in sorted(self.destinations.items(), key=_reading_order):
                cx, cy = grid.centre(_xy(name))
                stay = self.head is not None and _xy(name) == self.head
                kind = "destination stay" if stay else "destination"
                out.append(f"<g {_attrs(class_=kind, data_cell=name, data_turns=len(turns))}>")
                out.append(f"<title>{escape(name + ': ' + ', '.join(turns))}</title>")
                if stay:
                    out.append(
                        _el(
                            "circle",
                            cx=cx,
                            cy=cy,
                            r=CELL * 0.44,
                            fill="none",
                            stroke=DESTINATION,
                            stroke_width=3,
                            stroke_dasharray="5 3",
                        )
                    )
                else:
                    out.append(
                        _el(
                            "circle",
                            cx=cx,
                            cy=cy,
                            r=CELL * 0.17,
                            fill=DESTINATION,
                            opacity=0.85,
                            stroke="#ffffff",
                            stroke_width=1.6,
                        )
                    )
                out.append("</g>")
            out.append("</g>")
        return out

    # ---- the Ba Gua --------------------------------------------------------------------
    def wheel(self, cx: float, cy: float) -> list[str]:
        sowings = list(self.trace.sowings) if self.trace else []
        if self.sowing is not None:
            sowings.append(self.sowing)
        out = []
        for sowing in sowings:
            out.extend(_sowing(sowing, cx, cy))
        return out


def _xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - 97, int(name[1:]) - 1


def _reading_order(item) -> tuple[int, int]:
    x, y = _xy(item[0])
    return y, x


# ---- routes -------------------------------------------------------------------------------
def _route_pieces(grid, route):
    """Unbroken polylines of the route, and the jumps (portal to portal) between them."""
    geo = grid.geo
    portals = {i: (entry, exit_) for i, entry, exit_ in route.portals}
    pieces = [[grid.centre(route.cells[0])]]
    jumps = []
    prev = route.cells[0]
    half = CELL / 2
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


def _arrowhead(a, b, colour: str, size: float) -> str:
    """A filled arrowhead with its tip a little beyond ``b``, pointing from ``a`` to ``b``."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    tx, ty = bx + ux * size * 0.5, by + uy * size * 0.5
    back_x, back_y = tx - ux * size * 1.4, ty - uy * size * 1.4
    px, py = -uy * size * 0.8, ux * size * 0.8
    return _el(
        "path",
        class_="arrowhead",
        d=f"M {_n(tx)} {_n(ty)} L {_n(back_x + px)} {_n(back_y + py)} "
        f"L {_n(back_x - px)} {_n(back_y - py)} Z",
        fill=colour,
        stroke="#ffffff",
        stroke_width=1,
        stroke_linejoin="round",
    )


def _points(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _route(grid, route) -> list[str]:
    colour = ROUTE[route.kind]
    main = route.kind == "matter"
    width = 5.5 if main else 4
    names = " ".join(cell_name(c) for c in route.cells[1:])
    attrs = _attrs(
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
            _el(
                "circle",
                class_="stay",
                cx=sx,
                cy=sy,
                r=CELL * 0.46,
                fill="none",
                stroke=colour,
                stroke_width=3,
                stroke_dasharray="4 3",
                opacity=0.9,
            )
        )
        out.append("</g>")
        return out
    pieces, jumps = _route_pieces(grid, route)
    for a, b in jumps:
        out.append(
            _el(
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
                _el(
                    "polyline",
                    class_="path",
                    points=_points(piece),
                    fill="none",
                    stroke=colour,
                    stroke_width=width,
                    stroke_linecap="round",
                    stroke_linejoin="round",
                    opacity=0.8 if main else 0.7,
                    stroke_dasharray=None if main else "7 4",
                )
            )
    out.append(
        _el(
            "circle",
            class_="start",
            cx=sx,
            cy=sy,
            r=5,
            fill="#ffffff",
            stroke=colour,
            stroke_width=2.4,
        )
    )
    for x, y in (grid.centre(c) for c in route.cells[1:-1]):
        out.append(_el("circle", class_="waypoint", cx=x, cy=y, r=3.2, fill=colour))
    last = pieces[-1] if len(pieces[-1]) > 1 else pieces[-2]
    out.append(_arrowhead(last[-2], last[-1], colour, 7 if main else 5.5))
    out.append("</g>")
    return out


# ---- attacks ------------------------------------------------------------------------------
def _attack_cells(grid, attack) -> list[str]:
    attrs = _attrs(
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
    for cell in attack.cells:
        x, y = grid.ox + cell.cell[0] * CELL, grid.oy + cell.cell[1] * CELL
        state = "reached" if cell.reached else "blocked"
        classes = f"attack-cell {state}" + (" hit" if cell.hit else "")
        out.append(
            f"<g {_attrs(class_=classes, data_cell=cell_name(cell.cell), data_value=cell.value)}>"
        )
        out.append(
            _el(
                "rect",
                x=x + 2,
                y=y + 2,
                width=CELL - 4,
                height=CELL - 4,
                rx=4,
                fill=ATTACK if cell.reached else "none",
                fill_opacity=(0.45 if cell.hit else 0.22) if cell.reached else None,
                stroke=ATTACK if cell.reached else BLOCKED,
                stroke_width=1.6,
                stroke_dasharray=None if cell.reached else "3 3",
            )
        )
        out.append(
            _text(
                x + 5,
                y + 13,
                str(cell.value),
                class_="ruler-value",
                font_size=10.5,
                font_weight="bold",
                fill=ATTACK if cell.reached else BLOCKED,
            )
        )
        out.append("</g>")
    out.append("</g>")
    return out


def _attack_hits(grid, attack) -> list[str]:
    """Over the dragons: a burst on each ruler cell that hit (the target's body hides the
    cell's fill)."""
    out = []
    for cell in attack.cells:
        if not cell.hit:
            continue
        cx, cy = grid.centre(cell.cell)
        r1, r2 = CELL * 0.2, CELL * 0.42
        d = []
        for k in range(8):
            a = math.radians(22.5 + 45 * k)
            d.append(
                f"M {_n(cx + r1 * math.cos(a))} {_n(cy + r1 * math.sin(a))} "
                f"L {_n(cx + r2 * math.cos(a))} {_n(cy + r2 * math.sin(a))}"
            )
        out.append(
            _el(
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
def _sowing(sowing: Sowing, cx: float, cy: float) -> list[str]:
    data = game_data()
    n = len(data.ring)
    colour = SOW[min(sowing.phase, 1)]
    radius = SOW_R[min(sowing.phase, 1)]
    abbrev = data.abbrev
    landing = abbrev[sowing.element] if sowing.element >= 0 else ""
    attrs = _attrs(
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
    fx, fy = _polar(cx, cy, WHEEL_R, sowing.space, n)
    out.append(
        _el(
            "circle",
            class_="sow-from",
            data_space=abbrev[sowing.space],
            cx=fx,
            cy=fy,
            r=CUP_R + 3.5,
            fill="none",
            stroke=colour,
            stroke_width=2.6,
            stroke_dasharray="5 3",
        )
    )
    if landing:
        lx, ly = _polar(cx, cy, WHEEL_R, sowing.element, n)
        out.append(
            _el(
                "circle",
                class_="sow-landing",
                data_space=landing,
                data_element=data.ring[sowing.element],
                cx=lx,
                cy=ly,
                r=CUP_R + 3.5,
                fill="none",
                stroke=LANDING,
                stroke_width=3.4,
            )
        )
    # the arc: from the sown space round the wheel through every space that got a stone
    step = 1 if sowing.flow == "ccw" else -1
    sweep = 0 if sowing.flow == "ccw" else 1  # on screen, counterclockwise is sweep 0
    count = len(sowing.drops)
    if count:
        sx, sy = _polar(cx, cy, radius, sowing.space, n)
        d = [f"M {_n(sx)} {_n(sy)}"]
        for j in range(1, count + 1):
            x, y = _polar(cx, cy, radius, sowing.space + step * j, n)
            d.append(f"A {_n(radius)} {_n(radius)} 0 0 {sweep} {_n(x)} {_n(y)}")
        out.append(
            _el(
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
    for drop in sowing.drops:
        x, y = _polar(cx, cy, radius, drop.space, n)
        fill, ink = ("#fcfaf3", INK) if drop.stone == "W" else ("#26221f", "#fcfaf3")
        attrs = _attrs(
            class_="sow-drop",
            data_phase=drop.phase,
            data_order=drop.order,
            data_space=abbrev[drop.space],
            data_stone=drop.stone,
        )
        out.append(f"<g {attrs}>")
        out.append(_el("circle", cx=x, cy=y, r=7, fill=fill, stroke=colour, stroke_width=2))
        out.append(
            _text(
                x,
                y + 3.6,
                str(drop.order),
                text_anchor="middle",
                font_size=9.5,
                font_weight="bold",
                fill=ink,
            )
        )
        out.append("</g>")
    out.append("</g>")
    return out
