"""The artwork beside and under the board, in SVG: the Ba Gua wheel, the dragon cards, whose
turn it is, the flux coin and the caption.

- The Ba Gua wheel in ring order: Heaven at the top and sowing (counterclockwise, ring index
  + 1) going to the left; in Master and Chosen One, where a stack may flow either way, double
  chevrons and the flux coin (top right: black side up with a counterclockwise arrow, or
  white side up with a clockwise one). Each space shows its trigram, its abbreviation and its
  stones as small discs in stack order (base stone on the left, top stone on the right, drawn
  over the others). The centre of the wheel holds the centre's water and fire stones.
- Below the wheel: each dragon's segments, water and fire meters (a little house marks the
  village's protector), then whose turn it is (or the result).
- Under the board: the scenario and its motto, the mode and options, and what the special
  tiles do.

Each function returns a list of SVG elements (strings) for :func:`taolong_lab.pictures.svg`
to put together. Elements carry classes and ``data-*`` attributes: each Ba Gua space
``space`` (``data-space`` its abbreviation as in the notation, ``data-element``,
``data-index``) and its stones ``stone`` (``data-space``, ``data-index``), ``card <colour>``,
``flux-coin`` (``data-flux``), ``caption`` (``data-scenario``, ``data-mode``), ``status``.
"""

from __future__ import annotations

import math
import textwrap

from ..engine.codec import FLUX_MODES
from ..engine.core import ROCK_HITS
from ..markup import escape
from ..rules.data import COLOURS, game_data
from ..rules.scenario import load_scenario
from .artwork import house
from .layout import (
    CAPTION_LINE,
    CARD_H,
    CENTRE_R,
    LABEL_R,
    PANEL_W,
    STONE_R,
    Wheel,
    label_size,
    text_width,
)
from .primitives import attributes, circle, element, number, pair, text_element
from .style import (
    COIN,
    CUP,
    DRAGON,
    FIRE,
    INK,
    LOST,
    MAIN_CUP,
    MUTED,
    PAPER,
    PORTAL,
    RING,
    STONE,
    VILLAGE,
    WATER,
)
from .text import status_lines

STONE_RIM = 2.5  # the room kept between a stone and the rim of its space
STATUS_LINE = 18  # from one status line to the next


# ---- the board of Ba Gua ----------------------------------------------------------------------
def _trigram(symbol: str, cx: float, cy: float, fill: str) -> list[str]:
    """Three bars from the Unicode trigram (U+2630..U+2637): bit 0 is the top line, 1 = yin."""
    code = ord(symbol) - 0x2630 if len(symbol) == 1 else -1
    if not 0 <= code < 8:
        return [text_element(cx, cy + 5, symbol, text_anchor="middle", font_size=15, fill=fill)]
    width, bar, gap = 20.0, 3.2, 2.6
    out = []
    for line in range(3):  # top to bottom
        y = cy - 1.5 * bar - gap + line * (bar + gap)
        x0 = cx - width / 2
        if code >> line & 1:  # yin: a broken line
            half = width * 0.4
            out.append(element("rect", x=x0, y=y, width=half, height=bar, fill=fill))
            out.append(element("rect", x=x0 + width - half, y=y, width=half, height=bar, fill=fill))
        else:
            out.append(element("rect", x=x0, y=y, width=width, height=bar, fill=fill))
    return out


def _stones(stack: str, cx: float, cy: float, space: str, cup: float) -> list[str]:
    """A stack as discs in stack order: base stone first, read like text (left to right, then
    a second row for a stack of more than four); each disc is drawn over the one before, and
    every disc lies inside the space's circle of radius ``cup``, clear of its rim."""
    n = len(stack)
    rows = [stack[:4], stack[4:]] if n > 4 else [stack]
    radius = STONE_R if n <= 3 else STONE_R - 0.8
    room = cup - STONE_RIM - radius  # the farthest a disc's centre may lie from the cup's
    out = []
    index = 0
    for row, marks in enumerate(rows):
        dy = (row - (len(rows) - 1) / 2) * (2 * radius + 1.5)
        half = math.sqrt(max(room**2 - dy**2, 0.0))  # half the row's room, at this height
        spacing = min(2 * radius + 1.5, 2 * half / (len(marks) - 1)) if len(marks) > 1 else 0
        x0 = cx - spacing * (len(marks) - 1) / 2
        for i, mark in enumerate(marks):
            fill, stroke = STONE[mark]
            out.append(
                circle(
                    x0 + i * spacing,
                    cy + dy,
                    radius,
                    class_=f"stone {'white' if mark == 'W' else 'black'}",
                    data_space=space,
                    data_index=index,
                    fill=fill,
                    stroke=stroke,
                    stroke_width=1.3,
                )
            )
            index += 1
    return out


def bagua(state, wheel: Wheel, ids: str | None = None) -> list[str]:
    """The Ba Gua wheel: its eight spaces with their stones, trigrams and names, the way the
    stones flow, and the centre. ``ids`` prefixes an ``id`` on each space (``{ids}space-He``);
    None for no ids."""
    cx, cy = wheel.cx, wheel.cy
    out = ['<g class="bagua">']
    out.append(circle(cx, cy, wheel.radius, fill="none", stroke=RING, stroke_width=2))
    out += _flows(state, wheel)
    out += _spaces(state, wheel, ids)
    out += _centre(state, wheel)
    out.append("</g>")
    return out


def _flows(state, wheel: Wheel) -> list[str]:
    """The way the stones flow: a chevron on the ring between each space and the next."""
    count = len(game_data().ring)
    out = []
    # sowing direction: a chevron on the ring halfway between each space and the next; in
    # Master and Chosen One a stack may flow either way (see the flux coin): a double chevron
    both = state.rules.mode in FLUX_MODES
    for i in range(count):
        x, y = wheel.point(i + 0.5)
        # turn the chevron (drawn pointing right) along the counterclockwise tangent
        rotation = -(90 + 360 * (i + 0.5) / count) - 90
        out.append(
            element(
                "path",
                class_="flow both" if both else "flow",
                d="M -1.5 -4.5 L -6 0 L -1.5 4.5 M 1.5 -4.5 L 6 0 L 1.5 4.5"
                if both
                else "M -4 -5 L 3 0 L -4 5",
                fill="none",
                stroke=RING,
                stroke_width=2,
                stroke_linecap="round",
                stroke_linejoin="round",
                transform=f"translate({pair(x, y)}) rotate({number(rotation)})",
            )
        )
    return out


def _spaces(state, wheel: Wheel, ids: str | None) -> list[str]:
    """The eight spaces: each one's cup, stones, trigram and name."""
    data = game_data()
    out = []
    for i, (name, abbrev, symbol) in enumerate(
        zip(data.ring, data.abbrev, data.symbols, strict=True)
    ):
        x, y = wheel.point(i)
        main = name in data.main
        attrs = attributes(
            id=f"{ids}space-{abbrev}" if ids is not None else None,
            class_="space",
            data_space=abbrev,
            data_element=name,
            data_index=i,
        )
        out.append(f"<g {attrs}>")
        out.append(f"<title>{escape(name.title())}: {escape(state.bagua[i] or 'empty')}</title>")
        out.append(
            circle(
                x,
                y,
                wheel.cup,
                fill=MAIN_CUP if main else CUP,
                stroke=RING,
                stroke_width=2.4 if main else 1.4,
            )
        )
        out.extend(_stones(state.bagua[i], x, y, abbrev, wheel.cup))
        lx, ly = wheel.point(i, LABEL_R)
        out.extend(_trigram(symbol, lx, ly - 7, INK))
        out.append(
            text_element(
                lx,
                ly + 15,
                abbrev,
                text_anchor="middle",
                font_size=label_size(12, wheel.scale),
                font_weight="bold" if main else None,
                fill=INK,
            )
        )
        out.append("</g>")
    return out


def _centre(state, wheel: Wheel) -> list[str]:
    """The centre of the Ba Gua: the water and fire stones no dragon holds."""
    cx, cy = wheel.cx, wheel.cy
    out = []
    water, fire = state.centre
    out.append('<g class="centre">')
    out.append(circle(cx, cy, CENTRE_R, fill=PAPER, stroke=RING, stroke_width=1.4))
    out.append(
        text_element(
            cx,
            cy - 17,
            "centre",
            text_anchor="middle",
            font_size=label_size(10, wheel.scale),
            fill="#7a6a52",
        )
    )
    for dy, value, colour, what in ((0, water, WATER, "water"), (18, fire, FIRE, "fire")):
        out.append(circle(cx - 11, cy + dy - 1, 5.5, class_=f"centre-{what}", fill=colour))
        out.append(
            text_element(
                cx + 1,
                cy + dy + 4,
                str(value),
                font_size=label_size(13, wheel.scale),
                font_weight="bold",
                fill=INK,
            )
        )
    out.append("</g>")
    return out


def _meter(x, y, label: str, value: int, cap: int, colour: str, font: float) -> list[str]:
    out = [text_element(x, y + 4, label, font_size=font, fill=MUTED)]
    start = x + max(44, text_width(label, font) + 10)  # the first disc, after the label
    for i in range(cap):
        filled = i < value
        out.append(
            circle(
                start + i * 15,
                y,
                5.5,
                class_=f"meter-{label}" + (" full" if filled else ""),
                fill=colour if filled else "none",
                stroke=colour,
                stroke_width=1.4,
            )
        )
    return out


def _dragon_card(state, colour_index: int, x: float, y: float, scale: float) -> list[str]:
    data = game_data()
    colour = COLOURS[colour_index]
    style = DRAGON[colour_index]
    dragon = state.dragon(colour)
    out = [f'<g class="card {colour}">']
    to_move = state.to_move == colour and not state.is_over()
    if to_move:
        out.append(
            element(
                "rect",
                x=x - 6,
                y=y - 16,
                width=PANEL_W - 8,
                height=48,
                rx=6,
                fill="#f3e6c8",
                stroke="#c9a55a",
                stroke_width=1.2,
            )
        )
    out.append(circle(x + 7, y - 4, 7, fill=style["body"], stroke=style["outline"], stroke_width=2))
    big, small = label_size(13, scale), label_size(11, scale)
    marks = x + 236  # the segment marks, then their label before them
    label_x = min(x + 178, marks - 5 - text_width("segments", small))
    names = [f"{c} · {n}" for c, n in zip(COLOURS, data.dragon_names, strict=True)]
    longest = max(text_width(n, big, bold=True) for n in names)
    name = names[colour_index]
    if x + 20 + longest > label_x - 6:  # no room on either card: the circle gives the colour
        name = data.dragon_names[colour_index]
    out.append(text_element(x + 20, y, name, font_size=big, font_weight="bold", fill=INK))
    if state.rules.option("village") == colour:  # the protector of the village
        out.append(f'<g class="protector" data-colour="{colour}">')
        out.append("<title>protects the village</title>")
        out.extend(house(x + 160, y + 1, 0.85, VILLAGE["roofs"][0]))
        out.append("</g>")
    # segments: one mark per segment still attached, hollow for lost ones
    total = len(data.start_cells[colour_index]) - 1
    out.append(text_element(label_x, y, "segments", font_size=small, fill=MUTED))
    for i in range(total):
        kept = i < dragon.segments
        out.append(
            element(
                "rect",
                class_="segment-mark" + (" kept" if kept else ""),
                x=marks + i * 14,
                y=y - 10,
                width=10,
                height=11,
                rx=3,
                fill=style["body"] if kept else "none",
                stroke=style["outline"] if kept else LOST,
                stroke_width=1.4,
                stroke_dasharray=None if kept else "2 2",
            )
        )
    out.extend(_meter(x, y + 19, "water", dragon.water, data.capacity, WATER, small))
    out.extend(_meter(x + 130, y + 19, "fire", dragon.fire, data.capacity, FIRE, small))
    out.append("</g>")
    return out


def cards(state, x: float, y: float, scale: float = 1.0) -> list[str]:
    """A card for each dragon (its segments, water and fire), the first with its top line at
    ``y``, then whose turn it is (or the result), all :data:`~.layout.PANEL_W` wide from
    ``x``; ``scale`` (screen pixels per unit) keeps the labels readable (:func:`label_size`),
    each line within the panel."""
    out = []
    for colour_index in range(len(COLOURS)):
        out.extend(_dragon_card(state, colour_index, x + 8, y, scale))
        y += CARD_H
    for line, font, bold in status_block(state, scale):
        out.append(
            text_element(
                x + PANEL_W / 2,
                y + 4,
                line,
                class_="status" if bold else "status-detail",
                text_anchor="middle",
                font_size=font,
                font_weight="bold" if bold else None,
                fill=INK,
            )
        )
        y += STATUS_LINE * font / 13.5
    return out


def status_block(state, scale: float = 1.0) -> list[tuple[str, float, bool]]:
    """Whose turn it is (or the result) and its detail, as the lines under the cards:
    ``(text, font size, bold)``, wrapped to the panel's width once their labels are enlarged
    for a small picture (:func:`label_size`)."""
    out = []
    for text, size, bold in zip(status_lines(state), (13.5, 12), (True, False), strict=True):
        if not text:
            continue
        font = label_size(size, scale)
        chars = int((PANEL_W - 8) / text_width("x", font, bold)) if font > size else len(text)
        out.extend((line, font, bold) for line in textwrap.wrap(text, max(chars, 12)))
    return out


def status_height(state, scale: float = 1.0) -> float:
    """How far the status lines reach below the cards' end."""
    lines = status_block(state, scale)
    return 4 + sum(STATUS_LINE * font / 13.5 for _line, font, _bold in lines[:-1]) + 8


# ---- the rules: caption, flux coin ------------------------------------------------------------
def caption_lines(
    state, width: float, notes: tuple[str, ...] = (), font: float = 11.5
) -> list[tuple[str, bool]]:
    """Under the board: the scenario and its motto (bold), then the mode, edition and options,
    the legend of its special tiles, then ``notes`` (the overlays' legends), wrapped to
    ``width`` at ``font`` (an estimate of the text's width; the font is not measured)."""
    rules = state.rules
    scenario = load_scenario(rules.scenario)
    parts = [f"{rules.mode} mode"]
    if rules.edition != "current":
        parts.append(f"{rules.edition} edition")
    for name, value in rules.options:
        if name == "village":
            parts.append(f"the {value} dragon protects the village")
        else:
            parts.append(f"{name}={str(value).lower()}")
    bold = font + 1
    lines = [(scenario.name, True)]
    if scenario.motto:
        lines = [(f"{scenario.name} \u2014 {scenario.motto}", True)]
    if len(lines[0][0]) * bold * 0.62 > width:  # too long: the motto on a line of its own
        lines = [(scenario.name, True), (scenario.motto, False)]
    chars = max(20, int(width / (font * 0.58)))
    for group in (parts, _legend(state), list(notes)):
        for line in textwrap.wrap(" · ".join(group), chars):
            lines.append((line.strip(" ·"), False))
    return lines


def _legend(state) -> list[str]:
    """What the board's special tiles do, in a few words."""
    env = state.tables
    present = {sym for row in env.layout.rows for sym in row}
    twins, anywhere = [], []
    for sym, style in PORTAL.items():
        if sym in present:
            rule = env.scenario.portal_rule(sym)
            if rule.destination == "twin":
                twins.append(style["name"])
            else:
                anywhere.append((style["name"], rule.cost))
    out = []
    if twins:
        out.append(f"{' and '.join(twins) + ' ' if anywhere else ''}portals lead to their twin")
    if anywhere:
        text = " and ".join(name for name, _ in anywhere) + " portals lead to any free portal"
        costs = [f"{name} costs 1 {cost}" for name, cost in anywhere if cost]
        out.append(text + (f" ({', '.join(costs)})" if costs else ""))
    if env.breakable:
        out.append(f"rocks break after {ROCK_HITS} hits (pips: hits left)")
    return out


def caption(state, lines, x: float, y: float, font: float = 11.5) -> list[str]:
    """The :func:`caption_lines` from ``(x, y)`` down at ``font``, the bold ones larger."""
    rules = state.rules
    out = [f'<g class="caption" data-scenario="{rules.scenario}" data-mode="{rules.mode}">']
    for i, (line, bold) in enumerate(lines):
        out.append(
            text_element(
                x,
                y + i * CAPTION_LINE * font / 11.5,
                line,
                font_size=font + 1 if bold else font,
                font_weight="bold" if bold else None,
                fill=INK if bold else MUTED,
            )
        )
    out.append("</g>")
    return out


def flux_coin(state, cx: float, cy: float, scale: float = 1.0) -> list[str]:
    """Master and Chosen One: the flux coin, black side up with a counterclockwise arrow
    (``ccw``) or white side up with a clockwise one (``cw``); nothing in the other modes."""
    if state.rules.mode not in FLUX_MODES:
        return []
    flux = state.flux
    face, edge, ink = COIN[flux]
    r, a = 15.0, 8.0  # the coin, the arrow's arc
    sweep = 1 if flux == "cw" else 0  # SVG: sweep 1 turns clockwise on screen
    side = 1 if flux == "cw" else -1
    # an arc of 3/4 turn starting at the top, then an arrowhead along the tangent at its end
    sx, sy = cx, cy - a
    ex, ey = cx - side * a, cy
    out = [f'<g class="flux-coin" data-flux="{flux}">']
    out.append(
        "<title>flux coin: "
        + ("counterclockwise" if flux == "ccw" else "clockwise")
        + " (a stack with more white stones is sown clockwise, more black counterclockwise, "
        "a tie follows the coin)</title>"
    )
    out.append(circle(cx + 1, cy + 1.8, r, fill="#000", opacity=0.15))
    out.append(circle(cx, cy, r, fill=face, stroke=edge, stroke_width=1.6))
    out.append(circle(cx, cy, r - 2.6, fill="none", stroke=ink, stroke_width=0.6, opacity=0.6))
    out.append(
        element(
            "path",
            d=f"M {pair(sx, sy)} A {pair(a, a)} 0 1 {sweep} {pair(ex, ey)}",
            fill="none",
            stroke=ink,
            stroke_width=1.9,
            stroke_linecap="round",
        )
    )
    # at the end (left or right of centre) the motion is upwards
    out.append(
        element(
            "path",
            d=f"M {pair(ex - 3.2, ey + 0.6)} L {pair(ex, ey - 3.6)} L {pair(ex + 3.2, ey + 0.6)}",
            fill="none",
            stroke=ink,
            stroke_width=1.9,
            stroke_linecap="round",
            stroke_linejoin="round",
        )
    )
    out.append(
        text_element(
            cx - r - 6,
            cy - 1,
            "flux",
            text_anchor="end",
            font_size=label_size(10.5, scale),
            fill=MUTED,
        )
    )
    out.append(
        text_element(
            cx - r - 6,
            cy + 11,
            flux,
            class_="flux",
            text_anchor="end",
            font_size=label_size(11.5, scale),
            font_weight="bold",
            fill=INK,
        )
    )
    out.append("</g>")
    return out


__all__ = [
    "bagua",
    "caption",
    "caption_lines",
    "cards",
    "flux_coin",
    "status_block",
    "status_height",
]
