"""Pictures of positions: SVG with overlays, the text board, matplotlib figures, film strips
and animations.

One module a job:

- :mod:`.picture`: :func:`svg`, the one way to draw a position as SVG;
- :mod:`.primitives`: SVG numbers, attributes and elements as text;
- :mod:`.layout`: where cells and Ba Gua spaces go, for the SVG and matplotlib alike;
- :mod:`.style`: the colours and the font;
- :mod:`.artwork` and :mod:`.panel`: the SVG artwork (the board, its tiles, the dragons; the
  Ba Gua wheel, the cards, the caption);
- :mod:`.overlay`: the :class:`Overlay` protocol and the overlays :func:`svg` draws;
- :mod:`.trace`: what a turn did, for drawing it;
- :mod:`.text`: the text board (``str(state)``);
- :mod:`.figures`: matplotlib figures, film strips, animations.

Lazy by design: importing the package does not import matplotlib (the figure functions import
it when first used), and the engine imports it only when a position or a line is drawn.

>>> from taolong_lab import new_game
>>> from taolong_lab.pictures import svg
>>> picture = svg(new_game(), turn="Wa>He a3,a4", legal=True)
>>> 'class="route matter"' in picture and 'data-cell="a4"' in picture
True

See docs/render.md for the options.
"""

from __future__ import annotations

from .errors import PictureError, WriterUnavailable
from .overlay import Destinations, Highlight, Overlay, SowingPreview, TurnOverlay
from .picture import gallery, svg
from .text import board_text
from .trace import TurnTrace, destinations, preview_sowing, trace

_LAZY = {
    "figure",
    "film_strip",
    "animate",
    "draw",
    "frames",
    "atlas_figure",
}  # from .figures (matplotlib)


def __getattr__(name: str):
    if name in _LAZY:
        from . import figures

        return getattr(figures, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_LAZY])


__all__ = [
    "Destinations",
    "Highlight",
    "Overlay",
    "PictureError",
    "SowingPreview",
    "TurnOverlay",
    "TurnTrace",
    "WriterUnavailable",
    "animate",
    "atlas_figure",
    "board_text",
    "destinations",
    "draw",
    "figure",
    "film_strip",
    "frames",
    "gallery",
    "preview_sowing",
    "svg",
    "trace",
]
