"""Matplotlib pictures of positions: one position, a film strip, an animation.

The board is drawn natively with patches (no SVG converter needed): cells, rocks, the
village, portals, each dragon as a thick line with a head marker, the Ba Gua as eight wedges
with their stones, the meters as small bars. It is plainer than the SVG, and meant for
papers and slides. Artists carry a ``gid`` (``"head-white"``, ``"space-He"``,
``"stone-He-0"``, ``"route-matter-0"``, ...) so tests and scripts can find them.

Figures are :class:`matplotlib.figure.Figure` objects made without pyplot, so nothing is
kept in pyplot's list of open figures; ``fig.savefig(path)`` writes PNG, PDF or SVG.
"""

from __future__ import annotations

import itertools
import math
import sys

from matplotlib.animation import FuncAnimation, writers
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle, RegularPolygon, Wedge

from ..engine.codec import FLUX_MODES, board_rows
from ..engine.geometry import cell_name
from ..rules.data import COLOURS, game_data
from ..views import svg as views
from . import WriterUnavailable
from .overlay import ATTACK, BLOCKED, DESTINATION, HIGHLIGHT, LANDING, ROUTE, SOW
from .overlay import _route_pieces as _svg_route_pieces
from .picture import as_state, resolve
from .trace import as_cell, destinations, preview_sowing

if "IPython" in sys.modules:  # let Jupyter's inline backend register its Figure formatter
    import matplotlib.pyplot  # noqa: F401

PANEL_W = 6.4  # the panel's width, in cells
FACING_ANGLE = {"N": 90, "E": 0, "S": 270, "W": 180}  # RegularPolygon: 0 points up... see _head


class _UnitGrid(views._Grid):
    """views.svg's grid with the origin at 0, so its points divide by CELL into cell units."""

    def __init__(self, state):
        super().__init__(state, 0, 0)


def _unit(points):
    return [(x / views.CELL, y / views.CELL) for x, y in points]


def _centre(xy):
    return xy[0] + 0.5, xy[1] + 0.5


# ---- one position -------------------------------------------------------------------------------
def draw(
    ax,
    position,
    *,
    turn=None,
    before=None,
    show: str = "after",
    panel: bool = True,
    reveal: bool = False,
    legal: bool = False,
    sow=None,
    highlight=None,
    coordinates: bool = True,
    title: str | None = None,
):
    """Draw a position into the matplotlib axes ``ax`` (options as in :func:`figure`)."""
    drawn, traced, _ = resolve(position, turn, before, show)
    env = drawn.tables
    width, height = env.layout.width, env.layout.height
    hidden = drawn.rules.mode == "chosen-one" and not reveal
    ax.set_aspect("equal")
    ax.set_axis_off()
    right = width + (PANEL_W + 0.4 if panel else 0.15)
    bottom = max(height, 9.2 if panel else 0) + 0.15
    ax.set_xlim(-0.6 if coordinates else -0.15, right)
    ax.set_ylim(bottom, -0.6 if coordinates else -0.15)
    if hidden:
        ax.add_patch(
            Rectangle(
                (0, 0),
                width,
                height,
                facecolor=views.MIST["ground"],
                edgecolor=views.FRAME,
                linewidth=2,
                gid="hidden-board",
            )
        )
        ax.text(
            width / 2,
            height / 2,
            "The Board of Human\nis in the players' minds",
            ha="center",
            va="center",
            fontsize=9,
            color=views.INK,
        )
    else:
        _board(ax, drawn, coordinates)
        if highlight:
            for xy in map(as_cell, highlight):
                ax.add_patch(
                    Rectangle(
                        xy,
                        1,
                        1,
                        facecolor=HIGHLIGHT,
                        alpha=0.45,
                        linewidth=0,
                        gid=f"highlight-{cell_name(xy)}",
                    )
                )
        if traced is not None:
            for attack in traced.attacks:
                _attack(ax, attack)
        _features(ax, drawn)
        for colour in COLOURS:
            _dragon(ax, drawn, colour)
        if traced is not None:
            for route in sorted(traced.routes, key=lambda r: r.kind == "matter"):
                _route(ax, drawn, route)
        if legal and not drawn.is_over():
            space = str(sow).split("/")[0] if sow is not None else None
            for name in destinations(drawn, space):
                cx, cy = _centre(as_cell(name))
                ax.add_patch(
                    Circle(
                        (cx, cy),
                        0.17,
                        facecolor=DESTINATION,
                        edgecolor="white",
                        linewidth=1,
                        alpha=0.9,
                        zorder=6,
                        gid=f"destination-{name}",
                    )
                )
    if panel:
        sowings = list(traced.sowings) if traced is not None else []
        if sow is not None:
            space, _, drops = str(sow).partition("/")
            sowings.append(preview_sowing(drawn, space, drops))
        _panel(ax, drawn, width + 0.6, sowings)
    if title:
        ax.set_title(title, fontsize=9, color=views.INK)
    return ax


def _board(ax, state, coordinates: bool):
    env = state.tables
    width, height = env.layout.width, env.layout.height
    cells = [Rectangle((x, y), 1, 1) for y in range(height) for x in range(width)]
    colours = [
        views.LIGHT_CELL if (x + y) % 2 == 0 else views.DARK_CELL
        for y in range(height)
        for x in range(width)
    ]
    ax.add_collection(
        PatchCollection(
            cells, facecolors=colours, edgecolors=views.GRID, linewidths=0.5, gid="cells"
        )
    )
    wrap = env.geo.wrap
    ax.add_patch(
        Rectangle(
            (0, 0),
            width,
            height,
            fill=False,
            edgecolor=views.FRAME,
            linewidth=2.2,
            linestyle="--" if wrap else "-",
            gid="torus" if wrap else "frame",
        )
    )
    if coordinates:
        for x in range(width):
            ax.text(
                x + 0.5, -0.25, chr(97 + x), ha="center", va="center", fontsize=7, color="#6b5a40"
            )
        for y in range(height):
            ax.text(
                -0.3, y + 0.5, str(y + 1), ha="center", va="center", fontsize=7, color="#6b5a40"
            )


def _features(ax, state):
    rows = board_rows(state)
    env = state.tables
    hits = {env.geo.xy[c]: h for c, h in state.board.rocks}
    occupied = {env.geo.xy[c]: who for c, who in views._occupied_portals(state).items()}
    for block in views._rectangles(rows, "#"):
        xs, ys = [c[0] for c in block], [c[1] for c in block]
        x0, y0 = min(xs), min(ys)
        ax.add_patch(
            FancyBboxPatch(
                (x0 + 0.12, y0 + 0.12),
                max(xs) - x0 + 0.76,
                max(ys) - y0 + 0.76,
                boxstyle="round,pad=0,rounding_size=0.35",
                facecolor=views.ROCK["base"],
                edgecolor=views.ROCK["edge"],
                linewidth=1.2,
                gid="big-rock",
                zorder=2,
            )
        )
    for y, row in enumerate(rows):
        for x, sym in enumerate(row):
            if sym in "od":
                left = hits.get((x, y))
                damaged = left is not None and left < 2
                ax.add_patch(
                    Circle(
                        (x + 0.5, y + 0.5),
                        0.34,
                        facecolor=views.ROCK["damaged" if damaged else "base"],
                        edgecolor=views.ROCK["edge"],
                        linewidth=1.2,
                        hatch="//" if damaged else None,
                        gid=f"rock-{cell_name((x, y))}",
                        zorder=2,
                    )
                )
                if left is not None:
                    ax.text(
                        x + 0.5,
                        y + 0.5,
                        str(left),
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white",
                        zorder=3,
                    )
            elif sym in views.PORTAL:
                style = views.PORTAL[sym]
                held = occupied.get((x, y))
                ax.add_patch(
                    Circle(
                        (x + 0.5, y + 0.5),
                        0.36,
                        facecolor=style["ring"] if held else style["pale"],
                        edgecolor=style["dark"] if held else style["ring"],
                        linewidth=2.4,
                        gid=f"portal-{cell_name((x, y))}",
                        zorder=2,
                    )
                )
    for block in views._rectangles(rows, "V"):
        xs, ys = [c[0] for c in block], [c[1] for c in block]
        x0, y0 = min(xs), min(ys)
        w, h = max(xs) - x0 + 1, max(ys) - y0 + 1
        ax.add_patch(
            FancyBboxPatch(
                (x0 + 0.08, y0 + 0.08),
                w - 0.16,
                h - 0.16,
                boxstyle="round,pad=0,rounding_size=0.15",
                facecolor=views.VILLAGE["ground"],
                edgecolor=views.VILLAGE["wall"],
                linewidth=1.6,
                gid="village",
                zorder=2,
            )
        )
        protector = state.rules.option("village")
        ax.text(
            x0 + w / 2,
            y0 + h / 2,
            "village" + (f"\n({protector})" if protector else ""),
            ha="center",
            va="center",
            fontsize=6.5,
            color=views.VILLAGE["ink"],
            zorder=3,
        )


def _head_marker(ax, centre, facing: str, style, gid: str):
    # RegularPolygon's first vertex points along +y of the data; the y axis is inverted, so
    # orientation 0 points down the screen (south)
    orientation = {"S": 0, "N": math.pi, "E": math.pi / 2, "W": -math.pi / 2}[facing]
    ax.add_patch(
        RegularPolygon(
            centre,
            3,
            radius=0.38,
            orientation=orientation,
            facecolor=style["body"],
            edgecolor=style["outline"],
            linewidth=1.6,
            gid=gid,
            zorder=5,
        )
    )


def _dragon(ax, state, colour: str):
    index = COLOURS.index(colour)
    style = views.DRAGON[index]
    cells = state.cells(colour)
    head = _centre(cells[0])
    if len(cells) < 2:  # defeated
        ax.add_line(
            Line2D(
                [head[0]],
                [head[1]],
                marker="X",
                markersize=14,
                color="#c0392b",
                gid=f"head-{colour}",
                zorder=5,
            )
        )
        return
    grid = _UnitGrid(state)
    runs, stubs = views._body_runs(state, colour, grid)
    k = 0
    for points in [*runs, *stubs]:
        points = _unit(points)
        if len(points) < 2:
            continue
        xs, ys = zip(*points, strict=True)
        for width, col, z, gid in ((9, style["outline"], 4, None), (6.5, style["body"], 4.1, k)):
            ax.add_line(
                Line2D(
                    xs,
                    ys,
                    linewidth=width,
                    color=col,
                    solid_capstyle="round",
                    solid_joinstyle="round",
                    zorder=z,
                    gid=None if gid is None else f"body-{colour}-{gid}",
                )
            )
        k += 1
    _head_marker(ax, head, state.facing(colour), style, f"head-{colour}")


def _route(ax, state, route):
    colour = ROUTE[route.kind]
    if len(route.cells) == 1:
        ax.add_patch(
            Circle(
                _centre(route.cells[0]),
                0.46,
                fill=False,
                edgecolor=colour,
                linestyle="--",
                linewidth=1.6,
                zorder=6,
                gid=f"route-{route.kind}-{route.phase}",
            )
        )
        return
    pieces, jumps = _svg_route_pieces(_UnitGrid(state), route)
    for a, b in jumps:
        (ax1, ay1), (bx1, by1) = _unit((a, b))
        ax.add_line(
            Line2D([ax1, bx1], [ay1, by1], color=colour, linestyle=":", linewidth=1.4, zorder=6)
        )
    main = route.kind == "matter"
    for i, piece in enumerate(pieces):
        points = _unit(piece)
        if len(points) < 2:
            continue
        xs, ys = zip(*points, strict=True)
        ax.add_line(
            Line2D(
                xs,
                ys,
                color=colour,
                linewidth=3 if main else 2,
                alpha=0.85,
                linestyle="-" if main else "--",
                zorder=6,
                gid=f"route-{route.kind}-{route.phase}" + (f"-{i}" if i else ""),
            )
        )
    last = [p for p in pieces if len(p) > 1][-1]
    (x0, y0), (x1, y1) = _unit(last[-2:])
    ax.annotate(
        "",
        xy=(x1, y1),
        xytext=(x0 + (x1 - x0) * 0.4, y0 + (y1 - y0) * 0.4),
        arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2, "mutation_scale": 14},
        zorder=7,
        gid=f"arrow-{route.kind}-{route.phase}",
    )


def _attack(ax, attack):
    for cell in attack.cells:
        name = cell_name(cell.cell)
        ax.add_patch(
            Rectangle(
                (cell.cell[0] + 0.05, cell.cell[1] + 0.05),
                0.9,
                0.9,
                facecolor=ATTACK if cell.reached else "none",
                alpha=(0.5 if cell.hit else 0.25) if cell.reached else 1,
                edgecolor=ATTACK if cell.reached else BLOCKED,
                linestyle="-" if cell.reached else "--",
                linewidth=1,
                gid=f"attack-{name}",
                zorder=1.5,
            )
        )
        ax.text(
            cell.cell[0] + 0.12,
            cell.cell[1] + 0.25,
            str(cell.value),
            fontsize=6,
            color=ATTACK if cell.reached else BLOCKED,
            zorder=1.6,
        )


# ---- the panel: the Ba Gua, the meters ---------------------------------------------------
def _panel(ax, state, x0: float, sowings):
    data = game_data()
    n = len(data.ring)
    cx, cy, r_ring = x0 + PANEL_W / 2 - 0.2, 2.7, 2.05
    cup = 0.62

    def polar(radius, index):
        angle = math.radians(90 + 360 * index / n)
        return cx + radius * math.cos(angle), cy - radius * math.sin(angle)

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
                facecolor=views.MAIN_CUP if name in data.main else views.CUP,
                edgecolor=LANDING if i in landing else views.RING,
                linewidth=2.2 if i in landing or i in sown else 0.8,
                linestyle="--" if i in sown and i not in landing else "-",
                gid=f"space-{abbrev}",
            )
        )
        lx, ly = polar(r_ring + cup + 0.32, i)
        ax.text(
            lx,
            ly,
            abbrev,
            ha="center",
            va="center",
            fontsize=7,
            color=views.INK,
            fontweight="bold" if name in data.main else None,
        )
        stack = state.bagua[i]
        rows = [stack[:4], stack[4:]] if len(stack) > 4 else [stack]
        arc = 2 * math.pi * r_ring / n  # the wedge's length along the ring
        k = 0
        for row, marks in enumerate(rows):
            # base first, clockwise on screen (left to right at the top of the wheel)
            radius = r_ring + (0.17 - 0.34 * row if len(rows) > 1 else 0)
            for j, stone in enumerate(marks):
                shift = ((len(marks) - 1) / 2 - j) * 0.34 / arc
                sx, sy = polar(radius, i + shift)
                fill, edge = views.STONE[stone]
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
    for sowing in sowings:
        colour = SOW[min(sowing.phase, 1)]
        radius = r_ring - cup - 0.3 - 0.35 * min(sowing.phase, 1)
        for drop in sowing.drops:
            dx, dy = polar(radius, drop.space)
            fill, ink = ("#fcfaf3", views.INK) if drop.stone == "W" else ("#26221f", "#fcfaf3")
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
    water, fire = state.centre
    ax.text(
        cx,
        cy,
        f"centre\nwater {water}\nfire {fire}",
        ha="center",
        va="center",
        fontsize=6.5,
        color=views.INK,
        gid="centre",
    )
    if state.rules.mode in FLUX_MODES:
        ax.text(
            x0 + PANEL_W - 0.3,
            0.0,
            f"flux {state.flux}",
            ha="right",
            va="center",
            fontsize=7,
            color=views.INK,
            gid="flux",
        )
    y = 5.75
    cap = data.capacity
    total = len(data.start_cells[0]) - 1
    for index, colour in enumerate(COLOURS):
        style = views.DRAGON[index]
        dragon = state.dragon(colour)
        mover = state.to_move == colour and not state.is_over()
        ax.text(
            x0,
            y,
            f"{'▶ ' if mover else ''}{colour} · {data.dragon_names[index]}",
            fontsize=7.5,
            fontweight="bold",
            color=views.INK,
            va="center",
        )
        for k in range(total):
            kept = k < dragon.segments
            ax.add_patch(
                Rectangle(
                    (x0 + 3.6 + k * 0.4, y - 0.15),
                    0.3,
                    0.3,
                    facecolor=style["body"] if kept else "none",
                    edgecolor=style["outline"] if kept else "#b8aa90",
                    linestyle="-" if kept else ":",
                    linewidth=1,
                    gid=f"segment-{colour}-{k}",
                )
            )
        for row, (label, value, col) in enumerate(
            (("water", dragon.water, views.WATER), ("fire", dragon.fire, views.FIRE))
        ):
            yy = y + 0.5 + row * 0.42
            ax.text(x0, yy, label, fontsize=6.5, color="#6b5a40", va="center")
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
    headline, detail = views._status(state)
    ax.text(
        x0,
        y - 0.2,
        headline + (f"\n{detail}" if detail else ""),
        fontsize=7,
        color=views.INK,
        va="top",
        gid="status",
    )


# ---- figures -------------------------------------------------------------------------------
def _new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), facecolor=views.PAPER)
    FigureCanvasAgg(fig)
    return fig


def figure(position, *, size: float = 7.0, dpi: float = 100, **options) -> Figure:
    """A matplotlib Figure of one position, ``size`` inches wide.

    ``options`` are those of :func:`draw`: ``turn``, ``before``, ``show``, ``panel``,
    ``reveal``, ``legal``, ``sow``, ``highlight``, ``coordinates``, ``title``.
    """
    state = as_state(position)
    width = state.tables.layout.width + (PANEL_W + 1 if options.get("panel", True) else 1)
    height = max(state.tables.layout.height, 9.3 if options.get("panel", True) else 0) + 0.8
    fig = _new_figure(size, size * height / width)
    fig.set_dpi(dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    draw(ax, state, **options)
    return fig


def frames(line, start=None):
    """``[(state, turn or None, before or None), ...]`` for a line: a Solution, a puzzle
    with a solution, a list of States, or turns (with ``start=``)."""
    from ..engine.state import State

    turns = None
    if hasattr(line, "line") and hasattr(line, "status"):  # a Solution
        begin = as_state(start) if start is not None else State.from_tln(line.start)
        turns = list(line.line)
    elif hasattr(line, "solution") and hasattr(line, "start"):  # a Puzzle
        begin = as_state(start) if start is not None else line.start
        turns = list(line.solution or ())
    else:
        items = list(line)
        if items and all(isinstance(s, State) for s in items):
            out = [(items[0], None, None)]
            for before, after in itertools.pairwise(items):
                played = next((t for t, s in before.successors() if s == after), None)
                out.append((after, played, before if played is not None else None))
            return out
        if start is None:
            raise TypeError("a list of turns needs start= (the position they start from)")
        begin, turns = as_state(start), items
    out = [(begin, None, None)]
    state = begin
    for text in turns:
        turn = state.parse_turn(text)
        after = state.play(turn)
        out.append((after, turn, state))
        state = after
    return out


def film_strip(
    line,
    *,
    columns: int = 4,
    start=None,
    panel: bool = False,
    size: float = 2.6,
    turns: bool = True,
    **options,
) -> Figure:
    """A grid of the positions along a line (a Solution, a puzzle, States or turns with
    ``start=``), ``columns`` a row, each titled with the turn that led to it and, with
    ``turns=True``, that turn drawn over it. ``size`` is one frame's width in inches."""
    shots = frames(line, start)
    if columns < 1:
        raise ValueError("columns must be at least 1")
    rows = math.ceil(len(shots) / columns)
    state = shots[0][0]
    w = state.tables.layout.width + (PANEL_W + 1 if panel else 1)
    h = max(state.tables.layout.height, 9.3 if panel else 0) + 1.3
    fig = _new_figure(size * columns, size * rows * h / w)
    for i, (after, turn, before) in enumerate(shots):
        ax = fig.add_subplot(rows, columns, i + 1)
        label = "start" if turn is None else f"{i}. {turn}"
        draw(
            ax,
            after,
            turn=turn if turns and turn is not None else None,
            before=before if turns and turn is not None else None,
            panel=panel,
            title=label,
            **options,
        )
        ax.set_gid(f"frame-{i}")
    for j in range(len(shots), rows * columns):  # empty cells of the grid
        fig.add_subplot(rows, columns, j + 1).set_axis_off()
    fig.subplots_adjust(left=0.01, right=0.99, top=0.95, bottom=0.01, wspace=0.05, hspace=0.15)
    return fig


WRITERS = {".gif": "pillow", ".mp4": "ffmpeg"}


def animate(
    line, path, *, start=None, fps: float = 1.0, size: float = 6.0, dpi: float = 80, **options
):
    """Write an animation of a line (as :func:`film_strip` takes it) to ``path``: a GIF
    (Pillow) or an MP4 (ffmpeg). Raises :class:`WriterUnavailable` naming the missing
    writer when it is not installed. Returns the path."""
    from pathlib import Path

    target = Path(path)
    writer_name = WRITERS.get(target.suffix.lower())
    if writer_name is None:
        raise ValueError(f"animate writes .gif or .mp4, not {target.suffix or 'no suffix'!r}")
    if not writers.is_available(writer_name):
        hint = (
            "install ffmpeg (e.g. apt-get install ffmpeg) or write a .gif instead"
            if writer_name == "ffmpeg"
            else "install Pillow (pip install pillow)"
        )
        raise WriterUnavailable(
            f"cannot write {target.name}: matplotlib's {writer_name!r} animation writer "
            f"is not available; {hint}"
        )
    shots = frames(line, start)
    fig = figure(shots[0][0], size=size, dpi=dpi, **options)
    ax = fig.axes[0]

    def update(i):
        after, turn, before = shots[i]
        ax.clear()
        label = "start" if turn is None else f"{i}. {turn}"
        draw(ax, after, turn=turn, before=before, title=label, **options)
        return []

    anim = FuncAnimation(fig, update, frames=len(shots), interval=1000 / fps, blit=False)
    writer = writers[writer_name](fps=fps)
    anim.save(str(target), writer=writer, dpi=dpi)
    return target


__all__ = ["animate", "draw", "figure", "film_strip", "frames"]
