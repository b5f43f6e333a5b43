"""Long Tau's rules on a plain board: a tuple with one entry a square, the colour of the pawn
on it or :data:`EMPTY`. The game (``game.py``) and the endgame tables (``endgames.py``) both
play by these functions.

- :func:`slides`: a pawn moves along a straight line as far as it can, to the line's end or
  up to the first pawn; it never jumps.
- :func:`besieged`: a group of pawns of one colour (joined along the lines) is besieged when
  no square next to it is empty: it is surrounded by enemy pawns and cannot move.
- :func:`start_of_turn`: the removals a player makes before moving: every enemy group it
  besieges (but those its partner earned), then, if its last move completed the Golden Chair,
  the four enemy pawns farthest from the chair.
- :func:`besieged_groups`: the enemy groups a colour besieges, to tell which ones a move
  earned.
- :func:`play`: a move, and whether it completed the chair.
"""

from __future__ import annotations

from .board import LongTauBoard

EMPTY = -1
CHAIR_REMOVALS = 4


def groups(cells: tuple[int, ...], board: LongTauBoard, colour: int) -> list[list[int]]:
    """The groups of ``colour``'s pawns: squares joined along the lines, each in board order."""
    seen: set[int] = set()
    found = []
    for start, held in enumerate(cells):
        if held != colour or start in seen:
            continue
        group = [start]
        seen.add(start)
        for square in group:  # grows while it is read: a breadth-first walk
            for other in board.neighbours[square]:
                if cells[other] == colour and other not in seen:
                    seen.add(other)
                    group.append(other)
        groups_sorted = sorted(group)
        found.append(groups_sorted)
    return found


def besieged(cells: tuple[int, ...], board: LongTauBoard, group: list[int]) -> bool:
    """Whether ``group`` has no empty square next to it (it cannot move)."""
    return all(cells[n] != EMPTY for square in group for n in board.neighbours[square])


def start_of_turn(
    cells: tuple[int, ...],
    board: LongTauBoard,
    colour: int,
    enemies: tuple[int, ...],
    chair_due: bool,
    farthest: str,
    reserved: frozenset[int] = frozenset(),
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board after ``colour``'s removals at the start of its turn, and the squares
    emptied (in board order).

    Every enemy group that is besieged and touches one of ``colour``'s pawns goes, but a group
    with a square in ``reserved`` (a siege the player's partner earned: it waits for the
    partner's turn); then, when
    ``chair_due`` (its last move completed the Golden Chair), the four enemy pawns farthest
    from the chair, by ``farthest`` (``"euclidean"``: the straight distance from the chair's
    centre; ``"steps"``: the fewest steps along the lines), ties in board order.
    """
    removed: list[int] = []
    for enemy in enemies:
        for group in groups(cells, board, enemy):
            touches = any(cells[n] == colour for s in group for n in board.neighbours[s])
            if reserved.intersection(group):
                continue
            if touches and besieged(cells, board, group):
                removed += group
    after = list(cells)
    for square in removed:
        after[square] = EMPTY
    if chair_due:
        distance = board.euclidean if farthest == "euclidean" else board.steps
        theirs = [s for s, held in enumerate(after) if held in enemies]
        theirs.sort(key=lambda s: (-distance[s], s))
        for square in theirs[:CHAIR_REMOVALS]:
            after[square] = EMPTY
            removed.append(square)
    return tuple(after), tuple(sorted(removed))


def besieged_groups(
    cells: tuple[int, ...], board: LongTauBoard, enemies: tuple[int, ...]
) -> list[list[int]]:
    """The groups of the ``enemies``' pawns that are besieged (no empty square next to them)."""
    return [
        group
        for enemy in enemies
        for group in groups(cells, board, enemy)
        if besieged(cells, board, group)
    ]


def slides(
    cells: tuple[int, ...], board: LongTauBoard, colour: int, chair_stops: bool
) -> list[tuple[int, int]]:
    """Every move of ``colour``'s pawns as ``(from, to)``, in board order then direction order
    (up, right, down, left). With ``chair_stops`` a pawn entering the Golden Chair stops on
    its first square."""
    chair = board.chair
    found = []
    for origin, held in enumerate(cells):
        if held != colour:
            continue
        for ray in board.rays[origin]:
            target = -1
            for square in ray:
                if cells[square] != EMPTY:
                    break
                target = square
                if chair_stops and square in chair and origin not in chair:
                    break
            if target >= 0:
                found.append((origin, target))
    return found


def play(
    cells: tuple[int, ...], board: LongTauBoard, origin: int, target: int
) -> tuple[tuple[int, ...], bool]:
    """The board after the pawn on ``origin`` slides to ``target``, and whether the move
    completed the Golden Chair (the pawn landed on it and its colour now holds all four
    squares)."""
    colour = cells[origin]
    after = list(cells)
    after[origin], after[target] = EMPTY, colour
    completed = target in board.chair and all(after[s] == colour for s in board.chair)
    return tuple(after), completed


__all__ = [
    "CHAIR_REMOVALS",
    "EMPTY",
    "besieged",
    "besieged_groups",
    "groups",
    "play",
    "slides",
    "start_of_turn",
]
