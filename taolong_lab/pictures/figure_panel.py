"""The matplotlib panel beside the board (:func:`.figures.draw`): the Ba Gua wheel with its
stones and the sowings, the centre, the flux coin, each dragon's segments and meters, the
status line."""

from __future__ import annotations

import math

from matplotlib.patches import Circle, Rectangle, Wedge

from ..engine.codec import FLUX_MODES
from ..rules.data import COLOURS, game_data
from . import style
from .layout import Wheel
from .style import DROP, LANDING, SOW
from .text import status_lines

PANEL_W = 6.4  # the panel's width, in cells


def draw_panel(ax, state, x0: float, sowings):
    """Draw the panel beside the board: the Ba Gua wheel with its stones and the sowings, the
    centre, the flux coin, each dragon's segments and meters, the status.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The position's axes.
    state : State
        The position drawn.
    x0 : float
        The panel's left edge, in cells.
    sowings : list
        The sowings to show (:class:`~.trace.Sowing`).
    """
    wheel = Wheel(x0 + PANEL_W / 2 - 0.2, 2.7, 2.05, 0.62)
    _ring(ax, state, wheel, sowings)
    _drops(ax, wheel, sowings)
    cx, cy = wheel.cx, wheel.cy
    water, fire = state.centre
    centre = f"centre\nwater {water}\nfire {fire}"
    _ink(ax, cx, cy, centre, 6.5, ha="center", va="center", gid="centre")
    if state.rules.mode in FLUX_MODES:
        right = x0 + PANEL_W - 0.3
        _ink(ax, right, 0.0, f"flux {state.flux}", 7, ha="right", va="center", gid="flux")
    y = _meters(ax, state, x0)
    headline, detail = status_lines(state)
    _ink(ax, x0, y - 0.2, headline + (f"\n{detail}" if detail else ""), 7, va="top", gid="status")


def _ink(ax, x: float, y: float, text: str, size: float, **options) -> None:
    """The panel's text ``text`` at ``(x, y)``, in ink, ``size`` points."""
    ax.text(x, y, text, fontsize=size, color=style.INK, **options)


def _ring(ax, state, wheel: Wheel, sowings) -> None:
    """The wheel's spaces (a sown or landing space outlined) and the stones on them."""
    data = game_data()
    n = len(data.ring)
    cx, cy, r_ring, cup = wheel.cx, wheel.cy, wheel.radius, wheel.cup
    landing = {s.element for s in sowings if s.element >= 0}
    sown = {s.space for s in sowings}
    for i, (name, abbrev) in enumerate(zip(data.ring, data.abbrev, strict=True)):
        # a wedge of the wheel for each space (angles counterclockwise, y inverted: mirror)
        mid = -(90 + 360 * i / n)
        ax.add_patch(
            Wedge(
                (cx, cy),
                r_ring + cup,
                mid - 22.5,
                mid + 22.5,
                width=2 * cup,
                facecolor=style.MAIN_CUP if name in data.main else style.CUP,
                edgecolor=LANDING if i in landing else style.RING,
                linewidth=2.2 if i in landing or i in sown else 0.8,
                linestyle="--" if i in sown and i not in landing else "-",
                gid=f"space-{abbrev}",
            )
        )
        lx, ly = wheel.point(i, r_ring + cup + 0.32)
        bold = "bold" if name in data.main else None
        _ink(ax, lx, ly, abbrev, 7, ha="center", va="center", fontweight=bold)
        stack = state.bagua[i]
        rows = [stack[:4], stack[4:]] if len(stack) > 4 else [stack]
        arc = 2 * math.pi * r_ring / n  # the wedge's length along the ring
        k = 0
        for row, marks in enumerate(rows):
            # base first, clockwise on screen (left to right at the top of the wheel)
            radius = r_ring + (0.17 - 0.34 * row if len(rows) > 1 else 0)
            for j, stone in enumerate(marks):
                shift = ((len(marks) - 1) / 2 - j) * 0.34 / arc
                sx, sy = wheel.point(i + shift, radius)
                fill, edge = style.STONE[stone]
                ax.add_patch(
                    Circle(
                        (sx, sy),
                        0.15,
                        facecolor=fill,
                        edgecolor=edge,
                        linewidth=0.8,
                        gid=f"stone-{abbrev}-{k}",
                        zorder=3,
                    )
                )
                k += 1


def _drops(ax, wheel: Wheel, sowings) -> None:
    """Each sowing's drops, numbered in order, inside the ring."""
    r_ring, cup = wheel.radius, wheel.cup
    for sowing in sowings:
        colour = SOW[min(sowing.phase, 1)]
        radius = r_ring - cup - 0.3 - 0.35 * min(sowing.phase, 1)
        for drop in sowing.drops:
            dx, dy = wheel.point(drop.space, radius)
            fill, ink = DROP[drop.stone]
            ax.add_patch(
                Circle(
                    (dx, dy),
                    0.17,
                    facecolor=fill,
                    edgecolor=colour,
                    linewidth=1.4,
                    zorder=4,
                    gid=f"sow-{sowing.phase}-{drop.order}",
                )
            )
            ax.text(
                dx, dy, str(drop.order), ha="center", va="center", fontsize=5.5, color=ink, zorder=5
            )


def _meters(ax, state, x0: float) -> float:
    """Each dragon's name, segments and water and fire meters; the height below them."""
    data = game_data()
    y = 5.75
    cap = data.capacity
    total = len(data.start_cells[0]) - 1
    for index, colour in enumerate(COLOURS):
        look = style.DRAGON[index]
        dragon = state.dragon(colour)
        mover = state.to_move == colour and not state.is_over()
        name = f"{'▶ ' if mover else ''}{colour} · {data.dragon_names[index]}"
        _ink(ax, x0, y, name, 7.5, fontweight="bold", va="center")
        for k in range(total):
            kept = k < dragon.segments
            ax.add_patch(
                Rectangle(
                    (x0 + 3.6 + k * 0.4, y - 0.15),
                    0.3,
                    0.3,
                    facecolor=look["body"] if kept else "none",
                    edgecolor=look["outline"] if kept else style.LOST,
                    linestyle="-" if kept else ":",
                    linewidth=1,
                    gid=f"segment-{colour}-{k}",
                )
            )
        for row, (label, value, col) in enumerate(
            (("water", dragon.water, style.WATER), ("fire", dragon.fire, style.FIRE))
        ):
            yy = y + 0.5 + row * 0.42
            ax.text(x0, yy, label, fontsize=6.5, color=style.MUTED, va="center")
            for k in range(cap):
                ax.add_patch(
                    Rectangle(
                        (x0 + 1.1 + k * 0.42, yy - 0.13),
                        0.34,
                        0.26,
                        facecolor=col if k < value else "none",
                        edgecolor=col,
                        linewidth=0.8,
                        gid=f"meter-{colour}-{label}-{k}",
                    )
                )
        y += 1.55
    return y
