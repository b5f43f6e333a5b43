"""TAO's pictures: a text picture and an SVG picture of a position (drawn here, in the game's
package, from its public fields: the pictures package sits above the games)."""

from __future__ import annotations

from ...markup import escape
from .cards import CARDS

FILL = {"R": "#c0392b", "B": "#2e64b5", "": "#8e8e8e"}
NAMES = {"D": "dragon", "T": "tiger"}
CARD_W, CARD_H, GAP = 54, 74, 8


def _deck_line(state, player: int, viewer: int | None) -> str:
    cards = []
    for card in state.decks[player]:
        if card is None:
            cards.append("__")
        elif viewer is None or card[1] >> viewer & 1:
            cards.append(card[0])
        else:
            cards.append("??")
    return " ".join(cards)


def state_text(state, viewer: int | None = None) -> str:
    """A text picture: the second player's area on top, the portals and their coins, the first
    player's area, the decks (top first) and the guardian deck; for ``viewer``, the cards that
    player cannot see written ``??``."""
    names = state.player_names()

    def area(p):
        return " ".join(f"{c:>2}" for c in state.areas[p])

    coins = " ".join(" o" if c < 0 else f" {c + 1}" for c in state.coins)
    rule = state.row[state.at]
    row = [
        c if viewer is None or c == "__" or state._row_known(i) else "??"
        for i, c in enumerate(state.row)
    ]
    lines = [
        f"{names[1]:>6} | {area(1)} | deck {_deck_line(state, 1, viewer)}",
        f"{'coins':>6} |    {coins}    |",
        f"{names[0]:>6} | {area(0)} | deck {_deck_line(state, 0, viewer)}",
        f"guardian deck {' '.join(row)} (current {rule}, barred {state.ban or '-'})",
    ]
    who = state.current_player()
    if who >= 0:
        lines.append(f"{names[who]} to move (move {state.step + 1} of 2, turn {state.turn + 1})")
    elif who == -1:
        lines.append("the deal goes on")
    else:
        lines.append(f"over: {state.returns()}")
    return "\n".join(lines)


def _card(x: float, y: float, code: str) -> str:
    """One card: a guardian filled with its colour, a door framed, the special grey."""
    if code == "--":
        return ""
    if code in ("__", "??"):
        return (
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="#d9cfae" '
            f'stroke="#6b5d3a"/><text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 5}" '
            f'text-anchor="middle" font-size="14" fill="#6b5d3a">?</text>'
        )
    colour = CARDS.colour(code)
    fill = FILL[colour]
    door = CARDS.is_door(code)
    label = NAMES.get(CARDS.animal(code), "special")
    parts = [
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" '
        f'fill="{"#ffffff" if door else fill}" stroke="{fill}" stroke-width="{4 if door else 1}"/>'
    ]
    if door:
        parts.append(
            f'<path d="M{x + 14} {y + CARD_H - 10} v-34 a13 13 0 0 1 26 0 v34 z" fill="{fill}"/>'
        )
    text = "#ffffff" if not door else fill
    parts.append(
        f'<text x="{x + CARD_W / 2}" y="{y + 16}" text-anchor="middle" font-size="11" '
        f'fill="{text if not door else fill}">{escape(label)}</text>'
    )
    parts.append(
        f'<text x="{x + CARD_W / 2}" y="{y + CARD_H - 4 if door else y + CARD_H / 2 + 8}" '
        f'text-anchor="middle" font-size="{10 if door else 20}" font-weight="bold" '
        f'fill="{text}">{escape("door" if door else code)}</text>'
    )
    return "".join(parts)


def state_svg(state, viewer: int | None = None) -> str:
    """An SVG picture: the two areas facing across the portals (coins drawn on them), each
    player's deck (top first) and the guardian deck, the current card outlined."""
    step = CARD_W + GAP
    left = 80
    height = 3 * (CARD_H + GAP) + 150
    width = left + CARDS.slots * step + 40 + CARDS.hand * (CARD_W / 2 + 4) + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
        f'font-family="sans-serif"><rect width="100%" height="100%" fill="#f6f1e4"/>'
    ]
    names = state.player_names()
    rows = {1: 20, 0: 20 + 2 * (CARD_H + GAP)}
    portal_y = 20 + CARD_H + GAP
    for i in range(CARDS.slots):
        x = left + i * step
        border = i in (0, CARDS.slots - 1)
        parts.append(
            f'<rect x="{x}" y="{portal_y}" width="{CARD_W}" height="{CARD_H}" rx="8" '
            f'fill="{"#e5dcc3" if border else "#3d3326"}"/>'
        )
        if not border:
            coin = state.coins[i - 1]
            parts.append(
                f'<text x="{x + CARD_W / 2}" y="{portal_y + 14}" text-anchor="middle" '
                f'font-size="11" fill="#f6f1e4">portal {i}</text>'
            )
            if coin < 0:
                parts.append(
                    f'<circle cx="{x + CARD_W / 2}" cy="{portal_y + CARD_H / 2 + 6}" r="12" '
                    f'fill="#e0b52b" stroke="#8a6d12"/>'
                )
            else:
                parts.append(
                    f'<text x="{x + CARD_W / 2}" y="{portal_y + CARD_H / 2 + 10}" '
                    f'text-anchor="middle" font-size="11" fill="#e0b52b">'
                    f"{escape(names[coin])}</text>"
                )
    for player, y in rows.items():
        mark = " ▶" if state.current_player() == player else ""
        parts.append(
            f'<text x="8" y="{y + CARD_H / 2 + 4}" font-size="13">{escape(names[player])}'
            f"{mark}</text>"
        )
        parts.append(
            f'<text x="8" y="{y + CARD_H / 2 + 20}" font-size="11">coins '
            f"{state.coins.count(player)}</text>"
        )
        for i, code in enumerate(state.areas[player]):
            parts.append(_card(left + i * step, y, code))
        deck_x = left + CARDS.slots * step + 30
        parts.append(f'<text x="{deck_x}" y="{y - 4}" font-size="10">deck, top first</text>')
        for k, card in enumerate(state.decks[player]):
            if card is None:
                code = "__"
            elif viewer is None or card[1] >> viewer & 1:
                code = card[0]
            else:
                code = "??"
            parts.append(
                f'<g transform="translate({deck_x + k * (CARD_W / 2 + 4)} {y}) scale(0.5)">'
                f"{_card(0, 0, code)}</g>"
            )
    row_y = 3 * (CARD_H + GAP) + 40
    parts.append(f'<text x="8" y="{row_y + CARD_H / 2}" font-size="12">guardian deck</text>')
    for i, code in enumerate(state.row):
        x = left + 20 + i * step
        parts.append(_card(x, row_y, code))
        if i == state.at and code != "__":
            parts.append(
                f'<rect x="{x - 3}" y="{row_y - 3}" width="{CARD_W + 6}" height="{CARD_H + 6}" '
                f'rx="7" fill="none" stroke="#e0b52b" stroke-width="3"/>'
            )
    note = f"barred: {state.ban}" if state.ban else ""
    parts.append(f'<text x="{left + 20 + 4 * step}" y="{row_y + 20}" font-size="12">{note}</text>')
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["state_svg", "state_text"]
