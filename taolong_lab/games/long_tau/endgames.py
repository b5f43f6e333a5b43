"""Long Tau endgames by retrograde analysis: every position of two players with small
material, its value with best play and its distance to the end.

:func:`endgame` enumerates every position with at most ``material`` pawns a side (at least
one each), either player to move, builds the game graph by the rules of ``rules.py`` and
labels it backwards from the won positions: a position is won for the player to move if one
move leads to a position lost for the other, lost if every move leads to one won for the
other, and drawn (the game can go on for ever) otherwise. The distance is the number of
turns to the end with best play: the winner's fewest, the loser's most.

With three pawns or fewer a side the Golden Chair cannot be filled, so no chair removal is
ever due; the game has no turn limit here (option ``limit`` 0).

>>> table = endgame((1, 1), sides="closed")
>>> len(table), table.summary()["won"], table.summary()["drawn"]
(4512, 0, 4512)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import combinations
from math import comb

from ..protocol import GameError
from .game import LONG_TAU, LongTauState, Settings
from .rules import EMPTY, play, slides, start_of_turn

MAX_PAWNS = 3  # a side: four would fill the chair
MAX_POSITIONS = 3_000_000
WON, LOST, DRAWN = 1, -1, 0


@dataclass(frozen=True)
class EndgameTable:
    """The positions of an endgame and their values.

    ``pawns[i]`` gives position ``i``: north's squares, south's squares and the player to
    move; ``value[i]`` is :data:`WON`, :data:`LOST` or :data:`DRAWN` for the player to move
    and ``distance[i]`` the turns to the end with best play (None when drawn); ``index`` maps
    ``pawns[i]`` to ``i``.
    """

    settings: Settings
    material: tuple[int, int]
    pawns: tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]
    value: tuple[int, ...]
    distance: tuple[int | None, ...]
    index: dict

    def __len__(self) -> int:
        return len(self.pawns)

    def state(self, i: int) -> LongTauState:
        """Position ``i`` as a game position."""
        north, south, mover = self.pawns[i]
        cells = _cells(len(self.settings.board.cells), north, south)
        return LongTauState(self.settings, cells, mover, -1, 0)

    def lookup(self, state: LongTauState) -> int:
        """The index of ``state`` in the table.

        Raises
        ------
        GameError
            The position is not one of the table's.
        """
        found = self.index.get(_key(state.cells, state.to))
        if found is None or state.settings != self.settings or state.pending >= 0:
            raise GameError(f"not a position of the {self.material} endgame: {state.to_string()}")
        return found

    def summary(self, material: tuple[int, int] | None = None, mover: int | None = None) -> dict:
        """How many positions (of ``material`` exactly and with ``mover`` to move, or all) are
        won, lost and drawn for the player to move, and the longest win."""
        rows = [
            i
            for i, (north, south, to) in enumerate(self.pawns)
            if (material is None or (len(north), len(south)) == tuple(material))
            and (mover is None or to == mover)
        ]
        lengths = [self.distance[i] for i in rows if self.value[i] == WON]
        return {
            "positions": len(rows),
            "won": sum(1 for i in rows if self.value[i] == WON),
            "lost": sum(1 for i in rows if self.value[i] == LOST),
            "drawn": sum(1 for i in rows if self.value[i] == DRAWN),
            "longest win": max(lengths, default=None),
        }


def _cells(size: int, north, south) -> tuple[int, ...]:
    cells = [EMPTY] * size
    for s in north:
        cells[s] = 0
    for s in south:
        cells[s] = 1
    return tuple(cells)


def _key(cells: tuple[int, ...], mover: int):
    north = tuple(s for s, held in enumerate(cells) if held == 0)
    south = tuple(s for s, held in enumerate(cells) if held == 1)
    return (north, south, mover)


def endgame(material=(2, 1), *, progress: bool = False, **options) -> EndgameTable:
    """Solve the two-player endgame with at most ``material`` pawns a side.

    Parameters
    ----------
    material
        ``(north's pawns, south's pawns)``, each 1 to 3.
    progress
        Show a progress bar while the positions are expanded.
    **options
        The game's options (``chair``, ``farthest``, ``sides``); two players, no turn limit.

    Returns
    -------
    EndgameTable

    Raises
    ------
    GameError
        Material out of range, an option the endgame does not take, or more than
        :data:`MAX_POSITIONS` positions.
    """
    if (
        not isinstance(material, tuple | list)
        or len(material) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in material)
        or not all(1 <= n <= MAX_PAWNS for n in material)
    ):
        raise GameError(f"endgame material: two numbers of pawns from 1 to {MAX_PAWNS}")
    if "players" in options or "limit" in options or "four" in options:
        raise GameError("endgame: two players and no turn limit; options: chair, farthest, sides")
    settings = Settings(**LONG_TAU.settings({**options, "limit": 0}))
    board = settings.board
    squares = list(range(len(board.cells)))
    size = len(board.cells)
    counts = [(a, b) for a in range(1, material[0] + 1) for b in range(1, material[1] + 1)]
    total = 2 * sum(comb(len(squares), a) * comb(len(squares) - a, b) for a, b in counts)
    if total > MAX_POSITIONS:
        raise GameError(f"endgame {tuple(material)}: {total} positions, more than {MAX_POSITIONS}")
    pawns, index = [], {}
    for a, b in counts:
        for north in combinations(squares, a):
            for south in combinations([s for s in squares if s not in north], b):
                for mover in (0, 1):
                    index[(north, south, mover)] = len(pawns)
                    pawns.append((north, south, mover))
    stop = settings.chair == "stop"
    children: list[list[int]] = []
    terminal = []
    steps = range(len(pawns))
    if progress:
        from tqdm.auto import tqdm

        steps = tqdm(steps, desc=f"endgame {tuple(material)}", unit="position")
    for i in steps:
        north, south, mover = pawns[i]
        cells = _cells(size, north, south)
        after, _ = start_of_turn(cells, board, mover, (1 - mover,), False, settings.farthest)
        if (1 - mover) not in after:
            terminal.append(i)
            children.append([])
            continue
        found = []
        for origin, target in slides(after, board, mover, stop) or [(-1, -1)]:
            moved = after if origin < 0 else play(after, board, origin, target)[0]
            found.append(index[_key(moved, 1 - mover)])
        children.append(found)
    value, distance = _retrograde(children, terminal)
    return EndgameTable(
        settings,
        tuple(material),
        tuple(pawns),
        tuple(value),
        tuple(distance),
        index,
    )


def _retrograde(children: list[list[int]], terminal: list[int]):
    """Label a two-player graph: ``terminal`` nodes are won for the player to move (its
    removals have left the other without pawns); the rest by the rule of :func:`endgame`,
    breadth first so that each distance is exact."""
    n = len(children)
    parents: list[list[int]] = [[] for _ in range(n)]
    for i, found in enumerate(children):
        for j in found:
            parents[j].append(i)
    left = [len(found) for found in children]
    value = [DRAWN] * n
    distance: list[int | None] = [None] * n
    queue = deque()
    for i in terminal:
        value[i], distance[i] = WON, 0
        queue.append(i)
    while queue:
        j = queue.popleft()
        for i in parents[j]:
            if distance[i] is not None:
                continue
            if value[j] == LOST:
                value[i], distance[i] = WON, distance[j] + 1
                queue.append(i)
            else:
                left[i] -= 1
                if left[i] == 0:
                    value[i], distance[i] = LOST, distance[j] + 1
                    queue.append(i)
    return value, distance


def minimax(state: LongTauState, depth: int) -> int:
    """The value of ``state`` for the player to move within ``depth`` turns: :data:`WON` or
    :data:`LOST` when that is forced within them, else :data:`DRAWN` (not decided).

    Parameters
    ----------
    state
        A two-player position.
    depth
        The turns to look ahead, 0 to 12.

    Returns
    -------
    int

    Raises
    ------
    GameError
        Not a two-player position, or a depth out of range.
    """
    if state.players != 2:
        raise GameError("minimax: two-player positions only")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 12:
        raise GameError(f"minimax: depth is a whole number from 0 to 12, not {depth!r}")
    if state.is_terminal():
        return WON if state.returns()[state.to] > 0 else LOST
    if depth == 0:
        return DRAWN
    best = LOST
    for _, after in state.successors():
        best = max(best, -minimax(after, depth - 1))
        if best == WON:
            break
    return best


__all__ = ["DRAWN", "LOST", "WON", "EndgameTable", "endgame", "minimax"]
