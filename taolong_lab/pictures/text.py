"""The text board: a unicode picture of a position, for terminals and doctests; and the words
under every picture (whose turn it is, or the result)."""

from __future__ import annotations

from ..engine.codec import FLUX_MODES, board_rows
from ..rules.data import COLOURS, game_data

# Heads point the way the dragon faces: N, E, S, W. White is hollow, black is solid.
HEADS = (("△", "▷", "▽", "◁"), ("▲", "▶", "▼", "◀"))
BODY = ("○", "●")
DEFEATED = ("⊗", "⊗")
EMPTY = "·"
# Fixed tiles; portals show their colour letter, in lower case while occupied.
TILES = {".": EMPTY, "#": "▓", "o": "◆", "d": "◇", "V": "⌂"}


def board_text(state, *, labels: bool = True, reveal: bool = False) -> str:
    """The Board of Human, the Ba Gua stacks, meters and whose turn it is (what
    ``str(state)`` prints).

    Parameters
    ----------
    state : State
        The position.
    labels : bool
        Write the column letters and the row numbers.
    reveal : bool
        Chosen One: draw the Board of Human, which stays hidden otherwise ("Use only the board
        of Ba Gua").

    Returns
    -------
    str
        Lines of text.

    >>> from taolong_lab import new_game
    >>> print(board_text(new_game()).splitlines()[2])
     2 ▽ ○ · · · · · ·
    """
    env = state.tables
    geo = env.geo
    grid = [[TILES.get(sym, sym) for sym in row] for row in board_rows(state)]
    for dragon in state.dragons:
        for _, q, e in dragon.links:
            for cell in (q, e):
                x, y = geo.xy[cell]
                grid[y][x] = grid[y][x].lower()  # an occupied portal
    for colour, dragon in enumerate(state.dragons):
        for i, cell in enumerate(dragon.cells):
            x, y = geo.xy[cell]
            if i:
                grid[y][x] = BODY[colour]
            elif dragon.alive:
                grid[y][x] = HEADS[colour][env.facing(dragon)]
            else:
                grid[y][x] = DEFEATED[colour]
    lines = ["   " + " ".join(chr(97 + x) for x in range(geo.width))] if labels else []
    for y, row in enumerate(grid):
        lines.append((f"{y + 1:>2} " if labels else "") + " ".join(row))
    if state.rules.mode == "chosen-one" and not reveal:
        lines = ["(Chosen One: the Board of Human is in the players' minds)"]
    lines.append("")
    lines.extend(bagua_lines(state))
    lines.append("")
    data = game_data()
    for colour, dragon in enumerate(state.dragons):
        name = data.dragon_names[colour]
        lines.append(
            f"{COLOURS[colour]:<5} {name:<9} segments {dragon.segments}  "
            f"water {dragon.water}/{data.capacity}  fire {dragon.fire}/{data.capacity}"
        )
    lines.append(f"centre      water {state.centre[0]}  fire {state.centre[1]}")
    if state.rules.mode in FLUX_MODES:
        lines.append(f"flux coin   {state.flux}")
    result = state.outcome()
    lines.append(str(result) if result else f"turn {state.ply + 1}: {state.to_move} to move")
    return "\n".join(lines)


def bagua_lines(state) -> list[str]:
    """The eight Ba Gua stacks on two lines, each with its trigram and abbreviation.

    >>> from taolong_lab import new_game
    >>> bagua_lines(new_game())[0]
    'Ba Gua ☰ He WW    ☱ La -     ☲ Fi BW    ☳ Th -   '
    """
    data = game_data()
    cells = [
        f"{sym} {ab} {stack or '-':<4}"
        for sym, ab, stack in zip(data.symbols, data.abbrev, state.bagua, strict=True)
    ]
    return ["Ba Gua " + "  ".join(cells[:4]), "       " + "  ".join(cells[4:])]


def status_lines(state) -> tuple[str, str]:
    """Whose turn it is, or the result, as the pictures write it: a headline and a second
    line (empty while the game goes on).

    >>> from taolong_lab import new_game
    >>> status_lines(new_game())
    ('Turn 1: white (Tianlong) to move', '')
    """
    result = state.outcome()
    if result is not None:
        return f"Game over: {result.winner} wins", result.reason
    names = game_data().dragon_names
    return f"Turn {state.ply + 1}: {state.to_move} ({names[state.mover]}) to move", ""


__all__ = [
    "BODY",
    "DEFEATED",
    "EMPTY",
    "HEADS",
    "TILES",
    "bagua_lines",
    "board_text",
    "status_lines",
]
