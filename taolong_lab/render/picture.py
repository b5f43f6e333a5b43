"""``svg(position, **options)``: the SVG of a position with overlays (no matplotlib here)."""

from __future__ import annotations

from ..engine.geometry import cell_name
from ..views.svg import board_svg
from .overlay import Overlay
from .trace import as_cell, preview_sowing, trace
from .trace import destinations as legal_destinations

SHOW = ("after", "before")


def as_state(position):
    """A State from a State, a TLN string, a Puzzle (its start) or anything with ``.start``."""
    from ..engine.state import State

    if isinstance(position, State):
        return position
    if isinstance(position, str):
        return State.from_tln(position)
    start = getattr(position, "start", None)
    if isinstance(start, State):
        return start
    if isinstance(start, str) and start:
        return State.from_tln(start)
    raise TypeError(f"expected a State, a TLN string or a puzzle, not {type(position).__name__}")


def _split_sow(value) -> tuple[object, str]:
    if isinstance(value, str) and "/" in value:
        space, drops = value.split("/", 1)
        return space.strip(), drops.strip()
    return value, ""


def resolve(position, turn=None, before=None, show: str = "after"):
    """``(drawn, trace or None, start)``: the position to draw and the turn's trace.

    With ``before``, ``position`` is the position after ``turn`` (checked). Without it,
    ``turn`` is played from ``position``. ``show`` picks which of the two is drawn."""
    if show not in SHOW:
        raise ValueError(f"show must be one of {SHOW}, not {show!r}")
    state = as_state(position)
    if turn is None:
        if before is not None:
            raise ValueError("before= only makes sense with turn=")
        return state, None, None
    if before is not None:
        start = as_state(before)
        traced = trace(start, turn)
        if start.play(traced.turn) != state:
            raise ValueError(
                f"the turn {traced.turn} played from before= does not lead to this position"
            )
        end = state
    else:
        start = state
        traced = trace(start, turn)
        end = start.play(traced.turn)
    return (end if show == "after" else start), traced, start


def svg(
    position,
    *,
    size: int | None = None,
    coordinates: bool = True,
    panel: bool = True,
    reveal: bool = False,
    turn=None,
    before=None,
    show: str = "after",
    legal: bool = False,
    sow=None,
    destinations=None,
    highlight=None,
    ids: str | None = None,
) -> str:
    """The SVG of ``position`` (a State, a TLN string or a puzzle), as a string.

    See docs/render.md for every option. In short: ``size`` (width in px), ``coordinates``,
    ``panel`` (the Ba Gua and the meters), ``reveal`` (Chosen One), ``turn`` (overlay a turn:
    played from ``position``, or leading to it from ``before=``; ``show="before"`` draws the
    position it starts from), ``legal=True`` (the side to move's destinations), ``sow="He"``
    (preview that sowing; with ``legal``, only the destinations after it), ``destinations``
    and ``highlight`` (cells), ``ids`` (a prefix for element ids).
    """
    drawn, traced, start = resolve(position, turn, before, show)
    preview = None
    space = None
    if sow is not None:
        space, drops = _split_sow(sow)
        preview = preview_sowing(drawn, space, drops)
    marks: dict[str, list[str]] = {}
    head = None
    if legal and not drawn.is_over():
        found = legal_destinations(drawn, space)
        marks.update({name: [str(t) for t in turns] for name, turns in found.items()})
        head = drawn.cells(drawn.to_move)[0]
    for cell in destinations or ():
        marks.setdefault(cell_name(as_cell(cell)), [])
    overlay = None
    if traced is not None or preview is not None or marks or highlight:
        title = ""
        if traced is not None:
            title = f"{traced.turn}: {start.describe_turn(traced.turn)}"
        overlay = Overlay(
            traced,
            preview,
            marks,
            [as_cell(c) for c in highlight or ()],
            head,
            title,
        )
    return board_svg(
        drawn,
        size=size,
        coordinates=coordinates,
        panel=panel,
        reveal=reveal,
        overlay=overlay,
        ids=ids,
    )
