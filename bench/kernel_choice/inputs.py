"""The input set of the kernel-choice benchmark: seeded random solo playouts, each position
flattened into arrays that every variant reads.

A *board* is two arrays made once per scenario:

- ``masks`` (uint64, :data:`NMASKS`): the full board, the fixed tiles, the village, the
  portals, then for each direction the cells that move by a shift and the cells that wrap;
- ``ints`` (int32, :data:`NINTS`): a header (:data:`H_WIDTH` ...), the breakable rocks' cells,
  the portals' cells, the neighbour table, and for each portal cell where it leads.

A *position* is a row of ``positions`` (int32, :data:`ROW` wide): the colour whose distance is
asked, then each dragon as its length, its number of portal links, its cells and its links
``(i, exit, entry)``, then the hits left in each breakable rock of ``ints``.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the lab from this checkout, not installed

from taolong_lab import solo_game  # noqa: E402
from taolong_lab.engine.solo import _approach  # noqa: E402

SCENARIOS = ("field", "mist", "torus", "cave")
MAXC, MAXR, MAXP, MAXCELLS, MAXX = 15, 32, 16, 64, 16
# the header of ``ints``
H_WIDTH, H_HEIGHT, H_SIZE, H_WRAP, H_PROTECTOR, H_NROCKS, H_NPORTALS = range(7)
H_BY, H_FAR = 8, 12  # four shifts each, one a direction
ROCKS = 16
PORTALS = ROCKS + MAXR
NBR = PORTALS + MAXP
NEXITS = NBR + 4 * MAXCELLS
EXITS = NEXITS + MAXCELLS
NINTS = EXITS + MAXCELLS * MAXX
# ``masks``
M_FULL, M_STATIC, M_VILLAGE, M_PORTAL, M_MOVING, M_WRAPPING = 0, 1, 2, 3, 4, 8
NMASKS = 12
# a position's row
DRAGON = 2 + MAXC + 3 * MAXC  # len, nlinks, cells, links
HITS = 1 + 2 * DRAGON
ROW = HITS + MAXR


@dataclass
class Case:
    """One scenario's board and positions, and what the Python reference needs for each."""

    scenario: str
    masks: np.ndarray
    ints: np.ndarray
    positions: np.ndarray
    calls: list  # (env, dragons, rocks, colour) per row, for ``_approach.__wrapped__``


def encode_board(env, rock_cells: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``masks`` and ``ints`` of an engine ``Env`` whose breakable rocks start on
    ``rock_cells``."""
    geo = env.geo
    ints = np.zeros(NINTS, dtype=np.int32)
    masks = np.zeros(NMASKS, dtype=np.uint64)
    portals = sorted(env.portal_colour)
    ints[H_WIDTH], ints[H_HEIGHT], ints[H_SIZE], ints[H_WRAP] = (
        geo.width,
        geo.height,
        geo.size,
        int(geo.wrap),
    )
    ints[H_PROTECTOR] = -1 if env.protector is None else env.protector
    ints[H_NROCKS], ints[H_NPORTALS] = len(rock_cells), len(portals)
    ints[ROCKS : ROCKS + len(rock_cells)] = rock_cells
    ints[PORTALS : PORTALS + len(portals)] = portals
    for cell in range(geo.size):
        ints[NBR + 4 * cell : NBR + 4 * cell + 4] = env.nbr[cell]
    for cell in portals:
        exits = _exits(env, cell)
        ints[NEXITS + cell] = len(exits)
        ints[EXITS + MAXX * cell : EXITS + MAXX * cell + len(exits)] = exits
    full = (1 << geo.size) - 1
    for k, value in enumerate((full, env.static_mask, env.village_mask, env.portal_mask)):
        masks[k] = value
    for d, (by, moving, wrapping, far) in enumerate(geo._shifts):
        ints[H_BY + d], ints[H_FAR + d] = by, far
        masks[M_MOVING + d], masks[M_WRAPPING + d] = moving, wrapping
    return masks, ints


def _exits(env, cell: int) -> list[int]:
    """Where the portal on ``cell`` leads, sorted (the engine's ``_portal_exits`` order)."""
    colour_of = env.portal_colour
    rule = env.scenario.portal_rule(colour_of[cell])
    return sorted(
        c
        for c in colour_of
        if c != cell and (rule.destination != "twin" or colour_of[c] == colour_of[cell])
    )


def encode_position(board, colour: int, rock_cells: tuple[int, ...]) -> list[int]:
    """The row of ``board`` (an engine ``Board``) asking for ``colour``'s distance."""
    row = [0] * ROW
    row[0] = colour
    for c, dragon in enumerate(board.dragons):
        at = 1 + c * DRAGON
        row[at], row[at + 1] = len(dragon.cells), len(dragon.links)
        row[at + 2 : at + 2 + len(dragon.cells)] = dragon.cells
        for k, link in enumerate(dragon.links):
            row[at + 2 + MAXC + 3 * k : at + 5 + MAXC + 3 * k] = link
    hits = dict(board.rocks)
    row[HITS : HITS + len(rock_cells)] = [hits.get(cell, 0) for cell in rock_cells]
    return row


def playout_boards(scenario: str, count: int, rng: random.Random) -> tuple:
    """``count`` distinct mid-game boards (both dragons alive) of seeded random solo
    playouts on ``scenario``, and the rock cells of its start."""
    seen, boards, rocks = set(), [], None
    while len(boards) < count:
        player = rng.choice(("white", "black"))
        state = solo_game(scenario, player=player, bagua="shuffled", seed=rng.randrange(10**6))
        rocks = tuple(cell for cell, _ in state.board.rocks)
        while not state.is_over() and len(boards) < count:
            board = state.board
            if all(len(d.cells) > 1 for d in board.dragons) and board not in seen:
                seen.add(board)
                boards.append((state.tables, board))
            state = state.play(rng.choice(state.legal_turns()))
    return boards, rocks


def make_cases(per_scenario: int = 600, seed: int = 39) -> list[Case]:
    """The whole input set: ``per_scenario`` boards a scenario, each asked for both colours."""
    rng = random.Random(seed)
    cases = []
    for scenario in SCENARIOS:
        boards, rocks = playout_boards(scenario, per_scenario, rng)
        env = boards[0][0]
        masks, ints = encode_board(env, rocks)
        rows, calls = [], []
        for env_, board in boards:
            for colour in (0, 1):
                rows.append(encode_position(board, colour, rocks))
                calls.append((env_, board.dragons, board.rocks, colour))
        cases.append(Case(scenario, masks, ints, np.array(rows, dtype=np.int32), calls))
    return cases


def reference(case: Case) -> np.ndarray:
    """The pure-Python distances of ``case`` (the engine's function, its cache bypassed)."""
    fn = _approach.__wrapped__
    return np.array([fn(*call) for call in case.calls], dtype=np.int32)
