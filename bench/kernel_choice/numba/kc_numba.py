"""Variant (e): a port of tk::approach (native/kernel/solo.hpp) to numba's ``@njit``.

The board is the tuple ``(masks, ints)`` of bench/kernel_choice/inputs.py. Every mask is a
``uint64`` and every shift count is cast to one: numba, like NumPy, turns a ``uint64`` mixed
with a signed integer into a float. ``KC_NUMBA_CACHE=1`` in the environment keeps the compiled
code in ``__pycache__`` (numba's cache), so that a later process loads it instead of compiling.
"""

import os

import numpy as np
from numba import njit

CACHE = os.environ.get("KC_NUMBA_CACHE") == "1"

MAXC, MAXR, MAXX, NMASKS = 15, 32, 16, 12
H_SIZE, H_PROTECTOR, H_NROCKS, H_NPORTALS, H_BY, H_FAR = 2, 4, 5, 6, 8, 12
ROCKS, PORTALS, NBR, NEXITS, EXITS, NINTS = 16, 48, 64, 320, 384, 1408
DRAGON = 2 + MAXC + 3 * MAXC
HITS = 1 + 2 * DRAGON
ROW = HITS + MAXR
UNREACHABLE = 1000000
M_FULL, M_STATIC, M_VILLAGE, M_PORTAL, M_MOVING, M_WRAPPING = 0, 1, 2, 3, 4, 8
ZERO, ONE = np.uint64(0), np.uint64(1)


def make_board(masks, ints):
    """The board of ``masks`` and ``ints``: private copies, checked."""
    masks = np.ascontiguousarray(masks, dtype=np.uint64).copy()
    ints = np.ascontiguousarray(ints, dtype=np.int32).copy()
    if masks.shape != (NMASKS,) or ints.shape != (NINTS,):
        raise ValueError("an array of the wrong length")
    if not 1 <= ints[H_SIZE] <= 64 or not 0 <= ints[H_NROCKS] <= MAXR:
        raise ValueError("not a board")
    return masks, ints


@njit(cache=CACHE)
def _bit(cell):
    return ONE << np.uint64(cell)


@njit(cache=CACHE)
def _shift(masks, ints, cells, d):
    moved = cells & masks[M_MOVING + d]
    by, far = ints[H_BY + d], ints[H_FAR + d]
    out = moved << np.uint64(by) if by > 0 else moved >> np.uint64(-by)
    back = cells & masks[M_WRAPPING + d]
    if back != ZERO:
        out |= back << np.uint64(far) if far > 0 else back >> np.uint64(-far)
    return out


@njit(cache=CACHE)
def _tiles(row, at):
    m = ZERO
    for k in range(row[at]):
        m |= _bit(row[at + 2 + k])
    for k in range(row[at + 1]):
        link = at + 2 + MAXC + 3 * k
        m |= _bit(row[link + 1]) | _bit(row[link + 2])
    return m


@njit(cache=CACHE)
def _facing(ints, row, at):
    start = row[at + 3]
    if row[at + 1] and row[at + 2 + MAXC] == 0:
        start = row[at + 2 + MAXC + 1]
    for k in range(4):
        if ints[NBR + 4 * start + k] == row[at + 2]:
            return k
    return 0


@njit(cache=CACHE)
def _through_portals(masks, ints, reached, d, blocked):
    """``reached`` towards ``d`` with each portal in it replaced by the free cells beside
    its free exits, as four masks by facing (the other three are added to)."""
    portals = masks[M_PORTAL]
    around = blocked | portals
    entered = reached[d] & portals
    r0, r1, r2, r3 = reached
    if d == 0:
        r0 ^= entered
    elif d == 1:
        r1 ^= entered
    elif d == 2:
        r2 ^= entered
    else:
        r3 ^= entered
    for p in range(ints[H_NPORTALS]):
        entry = ints[PORTALS + p]
        if ((entered >> np.uint64(entry)) & ONE) == ZERO:
            continue
        for x in range(ints[NEXITS + entry]):
            exit_ = ints[EXITS + MAXX * entry + x]
            if ((blocked >> np.uint64(exit_)) & ONE) != ZERO:
                continue
            at = NBR + 4 * exit_
            r0 |= _free_bit(ints[at], around)
            r1 |= _free_bit(ints[at + 1], around)
            r2 |= _free_bit(ints[at + 2], around)
            r3 |= _free_bit(ints[at + 3], around)
    return r0, r1, r2, r3


@njit(cache=CACHE)
def _free_bit(cell, around):
    if cell < 0 or ((around >> np.uint64(cell)) & ONE) != ZERO:
        return ZERO
    return _bit(cell)


@njit(cache=CACHE)
def _approach_row(masks, ints, row):
    colour = row[0]
    me = 1 + colour * DRAGON
    other = _tiles(row, 1 + (1 - colour) * DRAGON)
    prey = other
    if 1 - colour == ints[H_PROTECTOR]:
        prey |= masks[M_VILLAGE]
    blocked = _tiles(row, me) | other | masks[M_STATIC]
    for r in range(ints[H_NROCKS]):
        if row[HITS + r]:
            blocked |= _bit(ints[ROCKS + r])
    free = ~blocked & masks[M_FULL]
    # four masks by facing, as scalars: numba would allocate a small array on the heap
    g0, g1 = _shift(masks, ints, prey, 2), _shift(masks, ints, prey, 3)
    g2, g3 = _shift(masks, ints, prey, 0), _shift(masks, ints, prey, 1)
    f, head = _facing(ints, row, me), _bit(row[me + 2])
    n = head if f == 0 else ZERO
    e = head if f == 1 else ZERO
    s = head if f == 2 else ZERO
    w = head if f == 3 else ZERO
    s0, s1, s2, s3 = n, e, s, w
    for dist in range(4 * ints[H_SIZE]):
        if (n & g0) | (e & g1) | (s & g2) | (w & g3) != ZERO:
            return dist
        reached = (
            _shift(masks, ints, n | e | w, 0) & free,
            _shift(masks, ints, e | n | s, 1) & free,
            _shift(masks, ints, s | e | w, 2) & free,
            _shift(masks, ints, w | n | s, 3) & free,
        )
        if masks[M_PORTAL] != ZERO:
            for d in range(4):
                reached = _through_portals(masks, ints, reached, d, blocked)
        n, e, s, w = reached[0] & ~s0, reached[1] & ~s1, reached[2] & ~s2, reached[3] & ~s3
        if (n | e | s | w) == ZERO:
            return UNREACHABLE
        s0, s1, s2, s3 = s0 | n, s1 | e, s2 | s, s3 | w
    return UNREACHABLE


@njit(cache=CACHE)
def approach(board, positions, i):
    """The distance of row ``i``."""
    if positions.shape[1] != ROW:
        raise ValueError("positions are not rows of the benchmark's width")
    if not 0 <= i < positions.shape[0]:
        raise IndexError("no such position")
    masks, ints = board
    return _approach_row(masks, ints, positions[i])


@njit(cache=CACHE)
def approach_all(board, positions, out):
    """Every row's distance into ``out``."""
    if positions.shape[1] != ROW:
        raise ValueError("positions are not rows of the benchmark's width")
    if out.shape[0] < positions.shape[0]:
        raise ValueError("out is too short")
    masks, ints = board
    for k in range(positions.shape[0]):
        out[k] = _approach_row(masks, ints, positions[k])
