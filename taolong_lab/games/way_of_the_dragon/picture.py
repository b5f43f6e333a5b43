"""Way of the Dragon's pictures: a text picture and an SVG picture of a position.

Each path is a row: its symbol space, the plain spaces, then the numbered spaces with their
numbers; a piece is drawn in its colour, a dead piece in grey. Below: the dice, the player to
move and the scores.
"""

from __future__ import annotations

from ...markup import escape
from ..protocol import CHANCE, TERMINAL
from .data import paths_data
from .dice import dice_text

FILL = {"k": "#222222", "r": "#c8302c", "w": "#f4f1e8", "y": "#e5b820", "b": "#2c63c8"}
DEAD_FILL = "#8a8a8a"
FACE_FILL = {"W": "#3a4a66", "F": "#c8302c", "M": "#8c8c8c", "E": "#c9a227", "O": "#3f8f4a"}
CELL = 28


def status(state) -> str:
    """Who acts and what: a line under the paths."""
    names = state.player_names()
    player = state.current_player()
    if player == TERMINAL:
        scores = ", ".join(f"{names[seat]} {state.score(seat)[0]}" for seat in range(state.players))
        return f"game over: {scores}"
    if player == CHANCE:
        if state.phase == "setup":
            return "placing the dead pieces"
        kept = dice_text(state.dice)
        return f"{names[state.player]} rolls (roll {state.rolls + 1}), keeping {kept}"
    what = {"keep": "keeps dice or stops", "move": "moves", "after": "ends the turn or plays again"}
    return (
        f"{names[player]} {what[state.phase]} after roll {state.rolls}: "
        f"dice {dice_text(state.dice)}"
    )


def text(state) -> str:
    """The text picture of a position."""
    data = paths_data()
    s = state.settings
    extras = [name for name, on in (("advanced", s.advanced), ("immunity", s.immunity)) if on]
    lines = [
        f"Way of the Dragon, {state.players} players"
        + (f" ({', '.join(extras)})" if extras else "")
    ]
    width = max(len(name) for name in data.names)
    for path, row in enumerate(state.board):
        plain = " ".join(row[: s.length])
        numbered = " ".join(
            ch if ch != "." else str(data.values[i]) for i, ch in enumerate(row[s.length :])
        )
        lines.append(f"{data.names[path]:<{width}} ({data.letters[path]}) {plain} | {numbered}")
    for seat in range(state.players):
        points, count = state.score(seat)
        used = " (power used)" if seat in state.used else ""
        lines.append(
            f"{data.colours[seat]} ({data.colour_letters[seat]}): {points} points, "
            f"{count} on numbers{used}"
        )
    lines.append(status(state))
    return "\n".join(lines)


def svg(state) -> str:
    """The SVG picture of a position."""
    data = paths_data()
    s = state.settings
    left = 90
    width = left + CELL * (s.cells + 1) + 20
    parts = []
    for path, row in enumerate(state.board):
        y = 20 + path * (CELL + 8)
        cy = y + CELL / 2
        parts.append(
            f'<text x="8" y="{cy + 5}" font-size="14">{escape(data.names[path])}</text>'
            f'<rect x="{left}" y="{y}" width="{CELL}" height="{CELL}" rx="6" '
            f'fill="{FACE_FILL[data.letters[path]]}"/>'
            f'<text x="{left + CELL / 2}" y="{cy + 5}" font-size="14" fill="#fff" '
            f'text-anchor="middle">{data.letters[path]}</text>'
        )
        for index, piece in enumerate(row):
            x = left + CELL * (index + 1)
            numbered = index >= s.length
            fill = "#f3e3b3" if numbered else "#fbf8f0"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                'stroke="#7a6a4a"/>'
            )
            if numbered:
                parts.append(
                    f'<text x="{x + CELL - 4}" y="{y + 10}" font-size="9" '
                    f'text-anchor="end">{data.values[index - s.length]}</text>'
                )
            if piece != ".":
                colour = DEAD_FILL if piece == "x" else FILL[piece]
                parts.append(
                    f'<circle cx="{x + CELL / 2}" cy="{cy}" r="{CELL / 2 - 5}" '
                    f'fill="{colour}" stroke="#333"/>'
                )
    y = 20 + 5 * (CELL + 8) + 4
    for index, ch in enumerate(dice_text(state.dice).strip("-")):
        x = left + index * (CELL + 4)
        fill = FACE_FILL.get(ch, "#7a1f1f")
        parts.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="5" fill="{fill}"/>'
            f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 5}" font-size="14" fill="#fff" '
            f'text-anchor="middle">{ch}</text>'
        )
    parts.append(f'<text x="8" y="{y + CELL / 2 + 5}" font-size="13">dice</text>')
    parts.append(f'<text x="8" y="{y + CELL + 22}" font-size="13">{escape(status(state))}</text>')
    height = y + CELL + 34
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif"><rect width="100%" height="100%" fill="#fffdf6"/>'
        f"{''.join(parts)}</svg>"
    )


__all__ = ["status", "svg", "text"]
