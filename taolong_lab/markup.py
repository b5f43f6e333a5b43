"""Text made safe for SVG and HTML: the two escapes every picture uses.

They give exactly what ``xml.sax.saxutils.escape`` and ``quoteattr`` give, without importing
``xml.sax`` (which pulls in ``urllib.request``, a cost the web page pays at every load).

>>> escape("a < b & c")
'a &lt; b &amp; c'
>>> quoteattr('say "hi"'), quoteattr("it's"), quoteattr('both " and \\'')
('\\'say "hi"\\'', '"it\\'s"', '"both &quot; and \\'"')
"""

from __future__ import annotations

from html import escape as _html_escape

_WHITESPACE = str.maketrans({"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped (element content)."""
    return _html_escape(text, quote=False)


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, quotes included."""
    text = escape(text).translate(_WHITESPACE)
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"{}"'.format(text.replace('"', "&quot;"))
