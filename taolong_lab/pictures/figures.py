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

import math
import os
import sys
from pathlib import Path

from matplotlib.animation import FuncAnimation, writers
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle, RegularPolygon

from ..engine import Line
from ..engine.codec import board_rows
from ..engine.core import ROCK_HITS
from ..engine.geometry import cell_name, parse_cell
from ..files import write_atomic
from ..rules.data import COLOURS
from . import style
from .errors import PictureError, WriterUnavailable
from .figure_panel import PANEL_W, draw_panel
from .layout import Grid, body_runs, occupied_portals, rectangles, route_pieces
from .picture import as_cells, as_state, check_flag, check_number, resolve, split_sow
from .style import ATTACK, BLOCKED, DESTINATION, HIGHLIGHT, ROUTE
from .trace import destinations, preview_sowing

if "IPython" in sys.modules:  # let Jupyter's inline backend register its Figure formatter
    import matplotlib.pyplot  # noqa: F401


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
    """Draw a position into the matplotlib axes ``ax``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw; its limits and aspect are set, its axis turned off.
    position, turn, before, show, panel, reveal, legal, sow, highlight, coordinates
        As for :func:`taolong_lab.pictures.svg`.
    title : str, optional
        The axes' title.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Raises
    ------
    PictureError
        A bad option, naming it.
    PositionError, NotationError, IllegalTurnError
        A position, turn, space or cell that does not read, or a turn that is not legal.
    """
    for name, flag in (("panel", panel), ("reveal", reveal), ("legal", legal)):
        check_flag(name, flag)
    check_flag("coordinates", coordinates)
    if title is not None and not isinstance(title, str):
        raise PictureError("title", f"expected a string, not {type(title).__name__}")
    drawn, traced, _ = resolve(position, turn, before, show)
    grid = Grid(drawn)
    width, height = grid.width, grid.height
    hidden = drawn.rules.mode == "chosen-one" and not reveal
    shaded = as_cells(drawn, highlight or (), "highlight")
    space = preview = None
    if sow is not None:
        space, drops = split_sow(sow)
        preview = preview_sowing(drawn, space, drops)
    ax.set_aspect("equal")
    ax.set_axis_off()
    right = width + (PANEL_W + 0.4 if panel else 0.15)
    bottom = max(height, 9.2 if panel else 0) + 0.15
    ax.set_xlim(-0.6 if coordinates else -0.15, right)
    ax.set_ylim(bottom, -0.6 if coordinates else -0.15)
    if hidden:
        _hidden_board(ax, width, height)
    else:
        _open_board(ax, drawn, grid, coordinates, shaded, traced, legal, space)
    if panel:
        sowings = list(traced.sowings) if traced is not None else []
        if preview is not None:
            sowings.append(preview)
        draw_panel(ax, drawn, width + 0.6, sowings)
    if title:
        ax.set_title(title, fontsize=9, color=style.INK)
    return ax


def _hidden_board(ax, width: int, height: int) -> None:
    """The Board of Human, hidden: a blank board and its caption."""
    ax.add_patch(
        Rectangle(
            (0, 0),
            width,
            height,
            facecolor=style.MIST["ground"],
            edgecolor=style.FRAME,
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
        color=style.INK,
    )


def _open_board(ax, drawn, grid: Grid, coordinates, shaded, traced, legal, space) -> None:
    """The board and what stands on it: the cells shaded, the attacks, the features, the
    dragons, the routes of the turn traced and (``legal``) the destinations of a turn sowing
    ``space`` (None: any)."""
    _board(ax, grid, coordinates)
    for xy in shaded:
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
        _dragon(ax, drawn, colour, grid)
    if traced is not None:
        for route in sorted(traced.routes, key=lambda r: r.kind == "matter"):
            _route(ax, grid, route)
    if legal and not drawn.is_over():
        for name in destinations(drawn, space):
            ax.add_patch(
                Circle(
                    grid.centre(parse_cell(name)),
                    0.17,
                    facecolor=DESTINATION,
                    edgecolor="white",
                    linewidth=1,
                    alpha=0.9,
                    zorder=6,
                    gid=f"destination-{name}",
                )
            )


def _board(ax, grid: Grid, coordinates: bool):
    width, height = grid.width, grid.height
    cells = [Rectangle((x, y), 1, 1) for y in range(height) for x in range(width)]
    colours = [
        style.LIGHT_CELL if (x + y) % 2 == 0 else style.DARK_CELL
        for y in range(height)
        for x in range(width)
    ]
    ax.add_collection(
        PatchCollection(
            cells, facecolors=colours, edgecolors=style.GRID, linewidths=0.5, gid="cells"
        )
    )
    wrap = grid.wrap
    ax.add_patch(
        Rectangle(
            (0, 0),
            width,
            height,
            fill=False,
            edgecolor=style.FRAME,
            linewidth=2.2,
            linestyle="--" if wrap else "-",
            gid="torus" if wrap else "frame",
        )
    )
    if coordinates:
        for x in range(width):
            ax.text(
                x + 0.5, -0.25, chr(97 + x), ha="center", va="center", fontsize=7, color=style.MUTED
            )
        for y in range(height):
            ax.text(
                -0.3, y + 0.5, str(y + 1), ha="center", va="center", fontsize=7, color=style.MUTED
            )


def _features(ax, state):
    rows = board_rows(state)
    hits = state.rocks
    xy = state.tables.geo.xy
    occupied = {xy[c]: who for c, who in occupied_portals(state).items()}
    rock, village = style.ROCK, style.VILLAGE
    for block in rectangles(rows, "#"):
        ax.add_patch(_block_patch(block, 0.12, 0.35, rock["base"], rock["edge"], 1.2, "big-rock"))
    for y, row in enumerate(rows):
        for x, sym in enumerate(row):
            if sym in "od":
                left = hits.get((x, y))
                damaged = left is not None and left < ROCK_HITS
                ax.add_patch(
                    Circle(
                        (x + 0.5, y + 0.5),
                        0.34,
                        facecolor=style.ROCK["damaged" if damaged else "base"],
                        edgecolor=style.ROCK["edge"],
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
            elif sym in style.PORTAL:
                portal = style.PORTAL[sym]
                held = occupied.get((x, y))
                ax.add_patch(
                    Circle(
                        (x + 0.5, y + 0.5),
                        0.36,
                        facecolor=portal["ring"] if held else portal["pale"],
                        edgecolor=portal["dark"] if held else portal["ring"],
                        linewidth=2.4,
                        gid=f"portal-{cell_name((x, y))}",
                        zorder=2,
                    )
                )
    for block in rectangles(rows, "V"):
        x0, y0, w, h = _bounds(block)
        ax.add_patch(
            _block_patch(block, 0.08, 0.15, village["ground"], village["wall"], 1.6, "village")
        )
        protector = state.rules.option("village")
        ax.text(
            x0 + w / 2,
            y0 + h / 2,
            "village" + (f"\n({protector})" if protector else ""),
            ha="center",
            va="center",
            fontsize=6.5,
            color=village["ink"],
            zorder=3,
        )


def _bounds(block) -> tuple[int, int, int, int]:
    """The corner, width and height of a block of cells, in cells."""
    xs, ys = [c[0] for c in block], [c[1] for c in block]
    x0, y0 = min(xs), min(ys)
    return x0, y0, max(xs) - x0 + 1, max(ys) - y0 + 1


def _block_patch(block, inset, rounding, face, edge, linewidth, gid) -> FancyBboxPatch:
    """A rounded box over a block of cells (a big rock, the village), ``inset`` inside it."""
    x0, y0, w, h = _bounds(block)
    corner, box = (x0 + inset, y0 + inset), f"round,pad=0,rounding_size={rounding}"
    look = {"facecolor": face, "edgecolor": edge, "linewidth": linewidth, "gid": gid, "zorder": 2}
    return FancyBboxPatch(corner, w - 2 * inset, h - 2 * inset, boxstyle=box, **look)


def _head_marker(ax, centre, facing: str, look, gid: str):
    # RegularPolygon's first vertex points along +y of the data; the y axis is inverted, so
    # orientation 0 points down the screen (south)
    orientation = {"S": 0, "N": math.pi, "E": math.pi / 2, "W": -math.pi / 2}[facing]
    ax.add_patch(
        RegularPolygon(
            centre,
            3,
            radius=0.38,
            orientation=orientation,
            facecolor=look["body"],
            edgecolor=look["outline"],
            linewidth=1.6,
            gid=gid,
            zorder=5,
        )
    )


def _dragon(ax, state, colour: str, grid: Grid):
    look = style.DRAGON[COLOURS.index(colour)]
    cells = state.cells(colour)
    head = grid.centre(cells[0])
    if len(cells) < 2:  # defeated
        ax.add_line(
            Line2D(
                [head[0]],
                [head[1]],
                marker="X",
                markersize=14,
                color=style.DEFEATED,
                gid=f"head-{colour}",
                zorder=5,
            )
        )
        return
    runs, stubs = body_runs(state, colour, grid)
    k = 0
    for points in [*runs, *stubs]:
        if len(points) < 2:
            continue
        xs, ys = zip(*points, strict=True)
        for width, col, z, gid in ((9, look["outline"], 4, None), (6.5, look["body"], 4.1, k)):
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
    _head_marker(ax, head, state.facing(colour), look, f"head-{colour}")


def _route(ax, grid: Grid, route):
    colour = ROUTE[route.kind]
    if len(route.cells) == 1:
        ax.add_patch(
            Circle(
                grid.centre(route.cells[0]),
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
    pieces, jumps = route_pieces(grid, route)
    for (ax1, ay1), (bx1, by1) in jumps:
        ax.add_line(
            Line2D([ax1, bx1], [ay1, by1], color=colour, linestyle=":", linewidth=1.4, zorder=6)
        )
    main = route.kind == "matter"
    for i, piece in enumerate(pieces):
        if len(piece) < 2:
            continue
        xs, ys = zip(*piece, strict=True)
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
    (x0, y0), (x1, y1) = last[-2:]
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


# ---- figures -------------------------------------------------------------------------------
def _new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), facecolor=style.PAPER)
    FigureCanvasAgg(fig)
    return fig


MAX_INCHES = 100  # the widest figure or film-strip frame
MAX_DPI = 1200
MAX_FRAMES = 400  # positions in a film strip or an animation
MAX_COLUMNS = 40
MAX_FPS = 60
WRITERS = {".gif": "pillow", ".mp4": "ffmpeg"}


def figure(position, *, size: float = 7.0, dpi: float = 100, **options) -> Figure:
    """A matplotlib Figure of one position.

    Parameters
    ----------
    position : State, str, Line or Puzzle
        As for :func:`taolong_lab.pictures.svg`.
    size : float
        The width in inches.
    dpi : float
        Dots per inch.
    **options
        Those of :func:`draw`: ``turn``, ``before``, ``show``, ``panel``, ``reveal``,
        ``legal``, ``sow``, ``highlight``, ``coordinates``, ``title``.

    Returns
    -------
    matplotlib.figure.Figure
        Made without pyplot; ``fig.savefig(path)`` writes PNG, PDF or SVG.

    Raises
    ------
    PictureError
        A bad option, naming it.
    """
    check_number("size", size, 0, MAX_INCHES)
    check_number("dpi", dpi, 0, MAX_DPI)
    state = position.start if isinstance(position, Line) else as_state(position)
    panel = options.get("panel", True)
    width = state.tables.layout.width + (PANEL_W + 1 if panel else 1)
    height = max(state.tables.layout.height, 9.3 if panel else 0) + 0.8
    fig = _new_figure(size, size * height / width)
    fig.set_dpi(dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    draw(ax, position, **options)
    return fig


DRAGON_FILLS = {"white": "#d8c8a8", "black": "#404040"}  # the atlas's bars, by dragon


def atlas_figure(rows, starts: int | None = None, *, width: float = 3.0) -> Figure:
    """The spread of the solo atlas's optima: a panel a scenario, a bar a dragon and optimum.

    Each panel spans its optima with a turn to spare on each side, so a scenario with one
    optimum shows one narrow bar; the counts are whole numbers; the legend, under the panels,
    names both dragons whichever the panels show.

    Parameters
    ----------
    rows : list of taolong_lab.puzzles.atlas.Row
        What :func:`taolong_lab.puzzles.atlas.summary` returns.
    starts : int or None
        The starts a scenario and dragon has (70), for the panels' titles.
    width : float
        The width of one panel in inches.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    PictureError
        No rows, or a bad width.
    """
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    check_number("width", width, 0, MAX_INCHES / 10)
    if not rows:
        raise PictureError("rows", "the atlas holds no proved start")
    scenarios = list(dict.fromkeys(r.scenario for r in rows))
    fig = _new_figure(width * len(scenarios), 3.2)
    axes = fig.subplots(1, len(scenarios), squeeze=False)[0]
    for ax, scenario in zip(axes, scenarios, strict=True):
        mine = {r.player: r for r in rows if r.scenario == scenario}
        turns = sorted({k for r in mine.values() for k in r.optima})
        for shift, player in zip((-0.2, 0.2), COLOURS, strict=True):
            if player in mine:
                counts = [mine[player].optima.get(k, 0) for k in turns]
                ax.bar(
                    [k + shift for k in turns],
                    counts,
                    width=0.4,
                    color=DRAGON_FILLS[player],
                    edgecolor="#222",
                    linewidth=0.5,
                    gid=f"bar-{scenario}-{player}",
                )
        proved = "/".join(str(mine[p].proved) for p in COLOURS if p in mine)
        ax.set_title(f"{scenario} ({proved}{'' if starts is None else f' of {starts}'})")
        ax.set_xlim(turns[0] - 1, turns[-1] + 1)
        ax.set_xticks(turns)
        ax.set_xlabel("optimum (turns)")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0].set_ylabel("starts")
    handles = [Patch(facecolor=DRAGON_FILLS[p], edgecolor="#222", label=p) for p in COLOURS]
    fig.legend(handles=handles, loc="lower center", ncol=2, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def frames(line: Line) -> list[tuple]:
    """``[(state, turn or None, before or None), ...]``: the positions along ``line``, each
    with the turn that led to it and the position that turn was played from.

    Raises
    ------
    PictureError
        ``line`` is not a :class:`~taolong_lab.Line`, or has more than :data:`MAX_FRAMES`
        positions.

    >>> from taolong_lab import Line, new_game
    >>> shots = frames(Line(new_game(), ["Wa>He a3,a4"]))
    >>> shots[0] == (new_game(), None, None)
    True
    >>> [(str(turn), before == new_game()) for _, turn, before in shots[1:]]
    [('Wa>He a3,a4', True)]
    """
    if not isinstance(line, Line):
        raise PictureError(
            "line", f"expected a taolong_lab.Line(start, turns), not {type(line).__name__}"
        )
    states = line.states()
    if len(states) > MAX_FRAMES:
        raise PictureError(
            "line", f"{len(states)} positions; at most {MAX_FRAMES} (draw a slice: line[:k])"
        )
    return [(states[0], None, None)] + [
        (states[i + 1], turn, states[i]) for i, turn in enumerate(line.turns)
    ]


def film_strip(
    line: Line,
    *,
    columns: int = 4,
    panel: bool = False,
    size: float = 2.6,
    turns: bool = True,
    **options,
) -> Figure:
    """A grid of the positions along a line, each titled with the turn that led to it.

    Parameters
    ----------
    line : Line
        The line (``taolong_lab.Line(start, turns)``).
    columns : int
        Frames a row.
    panel : bool
        Draw the Ba Gua and the meters beside each board.
    size : float
        One frame's width in inches.
    turns : bool
        Draw on each frame the turn that led to it.
    **options
        More options of :func:`draw` (``reveal``, ``coordinates``, ...).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    PictureError
        A bad argument, naming it.
    """
    shots = frames(line)
    if isinstance(columns, bool) or not isinstance(columns, int) or not 1 <= columns <= MAX_COLUMNS:
        raise PictureError("columns", f"must be a whole number from 1 to {MAX_COLUMNS}")
    check_number("size", size, 0, MAX_INCHES)
    check_flag("turns", turns)
    check_flag("panel", panel)
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


def animate(
    line: Line, path, *, fps: float = 1.0, size: float = 6.0, dpi: float = 80, **options
) -> Path:
    """Write an animation of a line, one frame a position, to a GIF (Pillow) or an MP4
    (ffmpeg). The file is written whole or not at all.

    Parameters
    ----------
    line : Line
        The line (``taolong_lab.Line(start, turns)``).
    path : str or Path
        The file to write: ``.gif`` or ``.mp4``.
    fps : float
        Frames a second.
    size, dpi : float
        As for :func:`figure`.
    **options
        More options of :func:`draw`.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    PictureError
        A bad argument (a file type other than .gif or .mp4, ...), naming it.
    WriterUnavailable
        The writer the file type needs is not installed; says how to get it.
    """
    target = Path(path)
    writer_name = WRITERS.get(target.suffix.lower())
    if writer_name is None:
        raise PictureError(
            "path", f"animate writes .gif or .mp4, not {target.suffix or 'no suffix'!r}"
        )
    check_number("fps", fps, 0, MAX_FPS)
    shots = frames(line)
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
    fig = figure(shots[0][0], size=size, dpi=dpi, **options)
    ax = fig.axes[0]

    def update(i):
        after, turn, before = shots[i]
        ax.clear()
        label = "start" if turn is None else f"{i}. {turn}"
        draw(ax, after, turn=turn, before=before, title=label, **options)
        return []

    anim = FuncAnimation(fig, update, frames=len(shots), interval=1000 / fps, blit=False)

    def save(tmp: Path) -> None:
        # the writers pick the format from the file's suffix: write under it, then move
        typed = tmp.with_name(tmp.name + target.suffix)
        try:
            anim.save(str(typed), writer=writers[writer_name](fps=fps), dpi=dpi)
            os.replace(typed, tmp)
        finally:
            typed.unlink(missing_ok=True)

    write_atomic(target, save)
    return target


__all__ = [
    "MAX_FRAMES",
    "animate",
    "atlas_figure",
    "draw",
    "figure",
    "film_strip",
    "frames",
]
