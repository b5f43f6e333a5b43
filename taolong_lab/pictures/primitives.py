"""SVG primitives: numbers, attributes and elements as text.

Every picture of the package is built from these, so the output is deterministic: numbers
keep at most two decimals, attributes keep the order they are given in, and values are
escaped.

>>> element("circle", class_="stone white", cx=10, cy=4.256, r=6.2, stroke=None)
'<circle class="stone white" cx="10" cy="4.26" r="6.2"/>'
>>> text_element(5, 8, "a < b", font_size=11)
'<text x="5" y="8" font-size="11">a &lt; b</text>'
"""

from __future__ import annotations

from collections.abc import Iterable

from ..markup import escape, quoteattr


def number(value: float) -> str:
    """A number for an attribute: at most two decimals, no trailing zeros, never ``-0``.

    >>> number(3.0), number(-0.001), number(2.345)
    ('3', '0', '2.35')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def attributes(**attrs) -> str:
    """Attributes as ``name="value"`` pairs, in the order given.

    A trailing underscore is dropped and underscores become dashes (``class_`` is ``class``,
    ``stroke_width`` is ``stroke-width``); ``None`` values are left out; numbers go through
    :func:`number`; values are quoted and escaped.

    >>> attributes(class_="cell", data_cell="a1", fill=None, stroke_width=1.5)
    'class="cell" data-cell="a1" stroke-width="1.5"'
    """
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        is_number = isinstance(value, float | int) and not isinstance(value, bool)
        parts.append(f"{name}={quoteattr(number(value) if is_number else str(value))}")
    return " ".join(parts)


def element(tag: str, **attrs) -> str:
    """An empty element, ``<tag .../>``, with :func:`attributes`."""
    return f"<{tag} {attributes(**attrs)}/>"


def _labelled(tag: str, geometry: dict, attrs: dict) -> str:
    """An empty element: its ``id``, class and ``data-*`` attributes first, then ``geometry``,
    then the other attributes, in the order given."""
    labels = {k: v for k, v in attrs.items() if k in ("id", "class_") or k.startswith("data_")}
    rest = {k: v for k, v in attrs.items() if k not in labels}
    return element(tag, **labels, **geometry, **rest)


def circle(cx: float, cy: float, r: float, **attrs) -> str:
    """A ``<circle>`` of radius ``r`` centred on ``(cx, cy)``; its ``id``, class and ``data-*``
    attributes come first, then the centre and the radius, then the others (fill, stroke...).

    >>> circle(10, 4, 6, fill="#fff", class_="stone")
    '<circle class="stone" cx="10" cy="4" r="6" fill="#fff"/>'
    """
    return _labelled("circle", {"cx": cx, "cy": cy, "r": r}, attrs)


def inset_rect(x: float, y: float, width: float, height: float, inset: float, **attrs) -> str:
    """A ``<rect>`` ``inset`` inside the box at ``(x, y)`` of ``width`` by ``height`` on every
    side (outside it when ``inset`` is negative); attributes ordered as :func:`circle`'s.

    >>> inset_rect(0, 0, 10, 8, 2, rx=1)
    '<rect x="2" y="2" width="6" height="4" rx="1"/>'
    """
    box = {"x": x + inset, "y": y + inset, "width": width - 2 * inset, "height": height - 2 * inset}
    return _labelled("rect", box, attrs)


def text_element(x: float, y: float, content: str, **attrs) -> str:
    """A ``<text>`` element at ``(x, y)`` holding ``content`` (escaped)."""
    return f"<text {attributes(x=x, y=y, **attrs)}>{escape(content)}</text>"


def pair(x: float, y: float) -> str:
    """A point in path data: ``"x y"``.

    >>> pair(1.0, -2.504)
    '1 -2.5'
    """
    return f"{number(x)} {number(y)}"


def points(xys: Iterable[tuple[float, float]]) -> str:
    """Points for a ``polyline``: ``"x1,y1 x2,y2 ..."``.

    >>> points([(1, 2), (3.5, 4)])
    '1,2 3.5,4'
    """
    return " ".join(f"{number(x)},{number(y)}" for x, y in xys)


__all__ = [
    "attributes",
    "circle",
    "element",
    "inset_rect",
    "number",
    "pair",
    "points",
    "text_element",
]
