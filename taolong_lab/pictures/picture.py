"""``svg(position, **options)``: the one way to draw a position as SVG (no matplotlib here).

It reads its arguments (:func:`as_state`, the checks shared with the matplotlib figures),
builds the overlays the options ask for, and puts the picture together from the artwork of
:mod:`.artwork` (the Board of Human) and :mod:`.panel` (the Ba Gua, the cards, the caption).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..engine import Line, State, Turn
from ..engine.geometry import cell_name, parse_cell
from ..errors import NotationError
from ..markup import escape, quoteattr
from ..puzzles import Puzzle
from ..rules.data import shown
from . import artwork, dragon_art
from .errors import PictureError
from .layout import (
    CAPTION_LINE,
    CARD_H,
    CELL,
    CUP_R,
    LABEL_R,
    MARGIN,
    PANEL_GAP,
    PANEL_W,
    WHEEL_R,
    WHEEL_TOP,
    WRAP_NOTE,
    Grid,
    Wheel,
    label_size,
)
from .overlay import Destinations, Highlight, Overlay, SowingPreview, TurnOverlay
from .panel import bagua, caption, caption_lines, cards, flux_coin, status_height
from .primitives import element, number, text_element
from .style import FONT, PAPER
from .trace import TurnTrace, destinations, preview_sowing, trace

SHOW = ("after", "before")
MAX_PIXELS = 20_000  # the widest picture svg() draws
MAX_CELLS = 4096  # cells a destinations or highlight option may list

Cell = tuple[int, int]


# ---- reading the arguments --------------------------------------------------------------------
def as_state(position, argument: str = "position") -> State:
    """The position to draw: a State, a TLN string, or a puzzle's start.

    Raises
    ------
    PictureError
        For anything else, naming ``argument``.
    PositionError
        For a TLN string that does not read.
    """
    if isinstance(position, State):
        return position
    if isinstance(position, str):
        return State.from_tln(position)
    if isinstance(position, Puzzle):
        return position.start
    raise PictureError(
        argument, f"expected a State, a TLN string or a Puzzle, not {type(position).__name__}"
    )


def check_flag(argument: str, value) -> bool:
    """``value`` if it is True or False; a :class:`PictureError` naming ``argument`` if not."""
    if not isinstance(value, bool):
        raise PictureError(argument, f"must be True or False, not {shown(value)}")
    return value


def check_number(argument: str, value, low: float, high: float) -> float:
    """``value`` if it is a finite number in ``(low, high]``; a :class:`PictureError` naming
    ``argument`` if not."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PictureError(argument, f"must be a number, not {type(value).__name__}")
    if not low < value <= high:  # also refuses nan and the infinities
        raise PictureError(
            argument, f"must be above {low:g} and at most {high:g}, not {shown(value)}"
        )
    return value


def as_cells(state: State, values, argument: str) -> list[Cell]:
    """Cells on the board of ``state`` from names (``"c3"``) or ``(x, y)`` pairs.

    Raises
    ------
    PictureError
        Naming ``argument`` and the cell at fault: not a cell, or off the board.
    """
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise PictureError(argument, f"expected a list of cells, not {shown(values)}")
    width, height = state.tables.layout.width, state.tables.layout.height
    cells = []
    for value in values:
        if len(cells) == MAX_CELLS:
            raise PictureError(argument, f"at most {MAX_CELLS} cells")
        if isinstance(value, str):
            try:
                xy = parse_cell(value)
            except NotationError as exc:
                raise PictureError(argument, str(exc)) from None
        elif (
            isinstance(value, tuple | list)
            and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            xy = (value[0], value[1])
        else:
            raise PictureError(
                argument, f"{shown(value)} is not a cell (a name like 'c3' or (x, y))"
            )
        if not (0 <= xy[0] < width and 0 <= xy[1] < height):
            raise PictureError(argument, f"{shown(value)} is off the {width}x{height} board")
        cells.append(xy)
    return cells


def split_sow(value) -> tuple[object, str]:
    """``(space, drops)`` from a ``sow`` option: ``"He"``, ``"He/WB"`` or a ring index."""
    if isinstance(value, str) and "/" in value:
        space, drops = value.split("/", 1)
        return space.strip(), drops.strip()
    return value, ""


def resolve(position, turn=None, before=None, show: str = "after"):
    """``(drawn, trace or None, start)``: the position to draw, the turn's trace, and the
    position the turn was played from.

    ``position`` may be a :class:`~taolong_lab.Line`: its end, with its last turn. Otherwise
    ``turn`` is played from ``position``, or, with ``before``, leads from ``before`` to
    ``position`` (checked). ``show`` picks which of the two positions is drawn.

    Raises
    ------
    PictureError
        A bad ``show``, ``before`` without ``turn``, a turn that does not lead from ``before``
        to ``position``, ``turn`` given with a Line.
    NotationError, IllegalTurnError
        A turn that does not read or is not legal.
    """
    if show not in SHOW:
        raise PictureError("show", f"must be one of {SHOW}, not {shown(show)}")
    if isinstance(position, Line):
        if turn is not None or before is not None:
            name = "turn" if turn is not None else "before"
            raise PictureError(name, "a Line brings its own turns (draw line[:k] for another)")
        if not len(position):
            return position.start, None, None
        start = position[len(position) - 1 :].start
        traced = trace(start, position.turns[-1])
        return (position.end if show == "after" else start), traced, start
    if not isinstance(position, State | str | Puzzle):
        raise PictureError(
            "position",
            f"expected a State, a TLN string, a Line or a Puzzle, not {type(position).__name__}",
        )
    state = as_state(position)
    if turn is None:
        if before is not None:
            raise PictureError("before", "only makes sense with turn=")
        return state, None, None
    if not isinstance(turn, str | Turn):
        raise PictureError("turn", f"expected a Turn or its notation, not {type(turn).__name__}")
    if before is not None:
        start = as_state(before, "before")
        traced = trace(start, turn)
        if start.play(traced.turn) != state:
            raise PictureError(
                "before", f"the turn {traced.turn} played from it does not lead to this position"
            )
        end = state
    else:
        start = state
        traced = trace(start, turn)
        end = start.play(traced.turn)
    return (end if show == "after" else start), traced, start


# ---- the picture ------------------------------------------------------------------------------
def svg(
    position,
    *,
    size: float | None = None,
    coordinates: bool = True,
    panel: bool = True,
    reveal: bool = False,
    turn: Turn | str | None = None,
    before=None,
    show: str = "after",
    legal: bool = False,
    sow=None,
    destinations: Iterable | None = None,
    highlight: Iterable | None = None,
    ids: str | None = None,
    overlays: Iterable[Overlay] = (),
) -> str:
    """The SVG picture of a position, with overlays.

    What ``State._repr_svg_`` and ``Line._repr_svg_`` show in JupyterLab, what the Explorer
    draws; docs/render.md describes every option and element.

    Parameters
    ----------
    position : State, str, Line or Puzzle
        The position (a TLN string is read; a puzzle gives its start). A :class:`~taolong_lab.Line`
        draws its end with its last turn (its start if it has no turn).
    size : float, optional
        The width in pixels (the picture scales; its ``viewBox`` keeps its width). Drawn
        small, the labels grow to stay readable, and the caption may take more lines.
        Default: the natural size.
    coordinates : bool
        Draw the column letters and row numbers.
    panel : bool
        Draw the Ba Gua wheel, the dragon cards and whose turn it is beside the board, and the
        caption under it.
    reveal : bool
        Chosen One: draw the Board of Human (and the overlays on it), hidden otherwise.
    turn : Turn or str, optional
        Draw what this turn did: played from ``position``, or, with ``before``, leading to it.
    before : State or str, optional
        With ``turn``: the position the turn was played from; ``position`` is then the one
        after it (checked).
    show : {"after", "before"}
        With a turn: draw the position after it, or the one it starts from (a plan rather than
        a record).
    legal : bool
        Mark where the side to move can end its first Matter phase.
    sow : str or int, optional
        Preview sowing this space (``"He"``, ``"heaven"``, a ring index; ``"He/WB"`` picks the
        drop order from Monk on); with ``legal``, only the destinations after it.
    destinations, highlight : iterable of cells, optional
        Cells (``"c3"`` or ``(x, y)``) to mark as destinations, and to shade.
    ids : str, optional
        A prefix for ``id`` attributes on the cells (``{ids}cell-c3``) and the Ba Gua spaces
        (``{ids}space-He``); no ids by default, so two pictures on a page cannot clash.
    overlays : iterable of Overlay
        More layers, drawn after the ones the options ask for (see
        :class:`~taolong_lab.pictures.overlay.Overlay`).

    Returns
    -------
    str
        An SVG document, the same bytes for the same position and options.

    Raises
    ------
    PictureError
        A bad option, naming it.
    PositionError, NotationError, IllegalTurnError
        A position, turn, space or cell that does not read, or a turn that is not legal.

    >>> from taolong_lab import new_game
    >>> picture = svg(new_game(), turn="Wa>He a3,a4", legal=True)
    >>> 'class="route matter"' in picture and 'data-cell="a4"' in picture
    True
    >>> svg(new_game(), size=0)
    Traceback (most recent call last):
      ...
    taolong_lab.pictures.errors.PictureError: size: must be above 0 and at most 20000, not 0
    """
    if size is not None:
        check_number("size", size, 0, MAX_PIXELS)
    for name, flag in (("coordinates", coordinates), ("panel", panel), ("reveal", reveal)):
        check_flag(name, flag)
    check_flag("legal", legal)
    if ids is not None and not isinstance(ids, str):
        raise PictureError("ids", f"expected a string, not {type(ids).__name__}")
    if isinstance(overlays, Overlay | str) or not isinstance(overlays, Iterable):
        raise PictureError("overlays", f"expected a list of overlays, not {shown(overlays)}")
    extra = list(overlays)
    for item in extra:
        if not isinstance(item, Overlay):
            raise PictureError(
                "overlays", f"{type(item).__name__} has no under(), over() and wheel()"
            )
    drawn, traced, start = resolve(position, turn, before, show)
    layers = _overlays(drawn, traced, start, legal, sow, destinations, highlight) + extra
    return _document(drawn, layers, size, coordinates, panel, reveal, ids)


def _overlays(drawn, traced: TurnTrace | None, start, legal, sow, marked, highlight):
    """The overlays the options of :func:`svg` ask for, in drawing order."""
    out: list[Overlay] = []
    if highlight:
        out.append(Highlight(as_cells(drawn, highlight, "highlight")))
    if traced is not None:
        out.append(TurnOverlay(traced, f"{traced.turn}: {start.describe_turn(traced.turn)}"))
    space = preview = None
    if sow is not None:
        space, drops = split_sow(sow)
        preview = preview_sowing(drawn, space, drops)
    marks: dict[str, list[str]] = {}
    head = None
    if legal and not drawn.is_over():
        found = destinations(drawn, space)
        marks.update({name: [str(t) for t in turns] for name, turns in found.items()})
        head = drawn.cells(drawn.to_move)[0]
    for xy in as_cells(drawn, marked or (), "destinations"):
        marks.setdefault(cell_name(xy), [])
    if marks:
        out.append(Destinations(marks, head))
    if preview is not None:
        out.append(SowingPreview(preview))
    return out


def _document(state, overlays, size, coordinates, panel, reveal, ids) -> str:
    """The picture put together: the board (or the hidden board), the overlays, the panel."""
    hidden = state.rules.mode == "chosen-one" and not reveal
    ox = oy = MARGIN if coordinates else 8
    grid = Grid(state, ox, oy, cell=CELL)
    board_w, board_h = grid.width * CELL, grid.height * CELL
    pad = 10 if coordinates else ox
    width = ox + board_w + pad
    height = oy + board_h + pad + (WRAP_NOTE if grid.wrap and not hidden else 0)
    px = width + PANEL_GAP - 10
    if panel:
        width = px + PANEL_W
    scale = (size / width) if size else 1.0
    grid.scale = scale
    if panel:
        font = label_size(11.5, scale)
        notes = tuple(
            note for layer in overlays if isinstance(layer, TurnOverlay) if (note := layer.legend())
        )
        lines = caption_lines(state, board_w + PANEL_GAP, notes if not hidden else (), font)
        caption_y = height + 16
        # under the board, the caption; beside it, the wheel, two dragon cards, two status lines
        cards_end = WHEEL_TOP + 2 * LABEL_R + 44 + 2 * CARD_H
        height = max(
            caption_y + (len(lines) - 1) * CAPTION_LINE * font / 11.5 + 12,
            cards_end + max(30, status_height(state, scale)),
        )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{number(width * scale)}" height="{number(height * scale)}" '
        f'viewBox="0 0 {number(width)} {number(height)}" '
        f'font-family={quoteattr(FONT)} class="taolong-position">'
    ]
    if hidden:  # the title must not give the hidden board away
        title = f"{state.rules.token()}, turn {state.ply + 1} (the Board of Human is hidden)"
    else:
        title = state.to_tln()
    out.append(f"<title>Tao Long: {escape(title)}</title>")
    out.append(element("rect", x=0, y=0, width=width, height=height, fill=PAPER))
    if hidden:
        out.extend(artwork.hidden_board(grid))
    else:
        out.extend(artwork.board(grid, coordinates=coordinates, ids=ids))
        for overlay in overlays:
            out.extend(overlay.under(grid))
        out.extend(artwork.tiles(state, grid))
        out.extend(dragon_art.dragons(state, grid))
        for overlay in overlays:
            out.extend(overlay.over(grid))
    if panel:
        out.extend(caption(state, lines, ox - 4, caption_y, font))
        out.extend(flux_coin(state, px + PANEL_W - 20, 24, scale))
        wheel = Wheel(px + PANEL_W / 2, WHEEL_TOP + LABEL_R, WHEEL_R, CUP_R, scale)
        out.extend(bagua(state, wheel, ids))
        for overlay in overlays:
            out.extend(overlay.wheel(wheel))
        out.extend(cards(state, px, wheel.cy + LABEL_R + 44, scale))
    out.append("</svg>")
    return "\n".join(out) + "\n"


MAX_GALLERY = 64  # pictures a gallery may hold
_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')


def gallery(pictures: list[tuple[str, str, str]], columns: int = 4, gap: int = 12) -> str:
    """Several SVG pictures in one SVG, in rows of ``columns``, each with a title and a line
    under it: one picture that renders where HTML holding SVG does not (a notebook opened
    untrusted shows an SVG output's PNG twin, never the SVG inside HTML).

    Parameters
    ----------
    pictures : list of (str, str, str)
        Each picture's SVG (a document of :func:`svg`, its ``width`` and ``height`` set),
        its title (bold) and a line under it (italic).
    columns : int
        Pictures a row.
    gap : int
        Pixels between the pictures.

    Returns
    -------
    str
        The SVG document.

    Raises
    ------
    PictureError
        No pictures or too many, a picture without its size, or a bad count.

    >>> from taolong_lab import new_game
    >>> one = svg(new_game(), size=100, panel=False)
    >>> gallery([(one, "The Field", "Clarity")]).count("<svg")
    2
    """
    if not isinstance(pictures, list) or not 0 < len(pictures) <= MAX_GALLERY:
        raise PictureError("pictures", f"a list of 1 to {MAX_GALLERY} (svg, title, line)")
    check_number("columns", columns, 0, MAX_GALLERY)
    check_number("gap", gap, -1, 200)
    sizes = []
    for picture, *_ in pictures:
        found = _SIZE.match(picture) if isinstance(picture, str) else None
        if found is None:
            raise PictureError("pictures", "each SVG must open with its width and height")
        sizes.append((float(found[1]), float(found[2])))
    cell_w = max(w for w, _ in sizes)
    cell_h = max(h for _, h in sizes) + 36
    rows = -(-len(pictures) // int(columns))
    width = int(columns) * (cell_w + gap) - gap
    height = rows * (cell_h + gap) - gap
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{number(width)}" '
        f'height="{number(height)}" viewBox="0 0 {number(width)} {number(height)}" '
        f'font-family="{FONT}" class="taolong-gallery">',
        element("rect", width=width, height=height, fill=PAPER),
    ]
    for i, ((picture, title, line), (w, h)) in enumerate(zip(pictures, sizes, strict=True)):
        x = (i % int(columns)) * (cell_w + gap) + (cell_w - w) / 2
        y = (i // int(columns)) * (cell_h + gap)
        inner = picture.replace("<svg ", f'<svg x="{number(x)}" y="{number(y)}" ', 1)
        middle = x + w / 2
        parts += [
            inner,
            text_element(
                middle, y + h + 15, title, text_anchor="middle", font_size=13, font_weight="bold"
            ),
            text_element(
                middle, y + h + 31, line, text_anchor="middle", font_size=12, font_style="italic"
            ),
        ]
    parts.append("</svg>")
    return "".join(parts)


__all__ = [
    "MAX_PIXELS",
    "PictureError",
    "as_cells",
    "as_state",
    "check_flag",
    "check_number",
    "gallery",
    "resolve",
    "split_sow",
    "svg",
]
