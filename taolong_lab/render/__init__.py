"""Pictures of positions: SVG with overlays, and matplotlib figures, film strips, animations.

Lazy by design: importing ``taolong_lab.render`` does not import matplotlib (the figure
functions import it when called), and the engine never imports this package.

>>> from taolong_lab import new_game
>>> from taolong_lab.render import svg
>>> picture = svg(new_game(), turn="Wa>He a3,a4", legal=True)
>>> 'class="route matter"' in picture and 'data-cell="a4"' in picture
True

See docs/render.md for the options.
"""

from __future__ import annotations

from .picture import svg
from .trace import TurnTrace, destinations, preview_sowing, trace

_LAZY = {
    "figure": "figures",
    "film_strip": "figures",
    "animate": "figures",
    "draw": "figures",
}


class WriterUnavailable(RuntimeError):
    """The animation writer a file type needs (Pillow for .gif, ffmpeg for .mp4) is missing."""


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_LAZY])


__all__ = [
    "TurnTrace",
    "WriterUnavailable",
    "animate",
    "destinations",
    "draw",
    "figure",
    "film_strip",
    "preview_sowing",
    "svg",
    "trace",
]
