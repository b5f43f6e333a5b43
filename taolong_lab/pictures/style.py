"""The colours and the font of every picture, SVG and matplotlib alike."""

from __future__ import annotations

# ---- the board and the panel ----------------------------------------------------------------
INK = "#2b2622"
MUTED = "#6b5a40"  # labels, notes, second lines
PAPER = "#fbf7ee"
LIGHT_CELL, DARK_CELL, GRID = "#f1e7d0", "#e6d7b8", "#b9a37c"
WATER, FIRE = "#2f78c4", "#e0562b"
RING, CUP, MAIN_CUP = "#9c8763", "#f6efdf", "#efe2c4"
STONE = {"W": ("#fcfaf3", "#5b5247"), "B": ("#26221f", "#000000")}  # fill, edge
# per dragon: outline, body, scale marks, eyes
DRAGON = (
    {"outline": "#3a332c", "body": "#fbf6e9", "scale": "#cdbf9f", "eye": "#1f1b17"},
    {"outline": "#0d0c0b", "body": "#34302c", "scale": "#6e665d", "eye": "#f2c14e"},
)
DEFEATED = "#c0392b"
LOST = "#b8aa90"  # the outline of a lost segment
FRAME, WRAP = "#8a6f47", "#5e4a30"
ROCK = {
    "base": "#978e80",
    "damaged": "#a39a8b",
    "light": "#b4ac9e",
    "shine": "#cdc6b9",
    "edge": "#5c554b",
    "crack": "#2f2a24",
    "pip": "#5c554b",
}
VILLAGE = {
    "ground": "#dfe6b8",
    "wall": "#8d7a55",
    "lane": "#efe3c2",
    "ink": "#4a3d2c",
    "roofs": ("#b4432e", "#3f6f6a"),
}
# portal colour letter -> name, ring colour, its dark shade (closed portal), its pale tint (open)
PORTAL = {
    "G": {"name": "green", "ring": "#3f9a58", "dark": "#1f5a31", "pale": "#dcefdc"},
    "R": {"name": "red", "ring": "#cf4436", "dark": "#7e2219", "pale": "#f8dcd6"},
    "B": {"name": "blue", "ring": "#3b78c6", "dark": "#1d4479", "pale": "#d9e6f6"},
    "Y": {"name": "yellow", "ring": "#dcae22", "dark": "#8a6a0c", "pale": "#f8eec9"},
}
MIST = {"ground": "#ebe4d5", "band": "#ddd3bf", "ink": "#9c8763"}
COIN = {"ccw": ("#26221f", "#000000", "#f2ead8"), "cw": ("#fcfaf3", "#5b5247", "#2b2622")}
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

# ---- overlays -------------------------------------------------------------------------------
ROUTE = {"matter": "#d9480f", "focus": "#7048e8", "opponent": "#0c8599"}
SOW = ("#d9480f", "#1c7ed6")  # first phase, second phase
DROP = {"W": ("#fcfaf3", INK), "B": ("#26221f", "#fcfaf3")}  # a dropped stone: fill, number
ATTACK, BLOCKED = "#e03131", "#868e96"
DESTINATION = "#2b8a3e"
HIGHLIGHT = "#fab005"
LANDING = "#f08c00"

__all__ = [
    "ATTACK",
    "BLOCKED",
    "COIN",
    "CUP",
    "DARK_CELL",
    "DEFEATED",
    "DESTINATION",
    "DRAGON",
    "DROP",
    "FIRE",
    "FONT",
    "FRAME",
    "GRID",
    "HIGHLIGHT",
    "INK",
    "LANDING",
    "LIGHT_CELL",
    "LOST",
    "MAIN_CUP",
    "MIST",
    "MUTED",
    "PAPER",
    "PORTAL",
    "RING",
    "ROCK",
    "ROUTE",
    "SOW",
    "STONE",
    "VILLAGE",
    "WATER",
    "WRAP",
]
