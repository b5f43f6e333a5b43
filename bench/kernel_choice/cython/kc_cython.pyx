# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Variant (d): a port of tk::approach (native/kernel/solo.hpp) to Cython 3, typed
memoryviews and cdef functions, built by setuptools."""

from libc.stdint cimport int32_t, uint64_t

cdef enum:
    MAXC = 15
    MAXR = 32
    MAXX = 16
    NMASKS = 12
    H_SIZE = 2
    H_PROTECTOR = 4
    H_NROCKS = 5
    H_NPORTALS = 6
    H_BY = 8
    H_FAR = 12
    ROCKS = 16
    PORTALS = 48
    NBR = 64
    NEXITS = 320
    EXITS = 384
    NINTS = 1408
    DRAGON = 2 + MAXC + 3 * MAXC
    HITS = 1 + 2 * DRAGON
    ROW = HITS + MAXR
    UNREACHABLE = 1000000
    M_FULL = 0
    M_STATIC = 1
    M_VILLAGE = 2
    M_PORTAL = 3
    M_MOVING = 4
    M_WRAPPING = 8

cdef struct Env:
    uint64_t m[NMASKS]
    int32_t t[NINTS]


cdef class Board:
    """The board of ``masks`` and ``ints`` (bench/kernel_choice/inputs.py), made once."""

    cdef Env env

    def __init__(self, const uint64_t[::1] masks, const int32_t[::1] ints):
        if masks.shape[0] < NMASKS or ints.shape[0] < NINTS:
            raise ValueError("an array of the wrong length")
        if not 1 <= ints[H_SIZE] <= 64 or not 0 <= ints[H_NROCKS] <= MAXR:
            raise ValueError("not a board")
        cdef int k
        for k in range(NMASKS):
            self.env.m[k] = masks[k]
        for k in range(NINTS):
            self.env.t[k] = ints[k]


def make_board(masks, ints):
    """The board of ``masks`` and ``ints``."""
    return Board(masks, ints)


cdef inline uint64_t shift(const Env* b, uint64_t cells, int d) noexcept nogil:
    cdef uint64_t moved = cells & b.m[M_MOVING + d], back, out
    cdef int by = b.t[H_BY + d], far = b.t[H_FAR + d]
    out = moved << by if by > 0 else moved >> -by
    back = cells & b.m[M_WRAPPING + d]
    if back:
        out |= back << far if far > 0 else back >> -far
    return out


cdef inline uint64_t tiles(const int32_t* dragon) noexcept nogil:
    cdef uint64_t m = 0
    cdef int k
    for k in range(dragon[0]):
        m |= 1ULL << dragon[2 + k]
    for k in range(dragon[1]):
        m |= (1ULL << dragon[2 + MAXC + 3 * k + 1]) | (1ULL << dragon[2 + MAXC + 3 * k + 2])
    return m


cdef inline int facing(const Env* b, const int32_t* dragon) noexcept nogil:
    cdef int start = dragon[3], k
    if dragon[1] and dragon[2 + MAXC] == 0:
        start = dragon[2 + MAXC + 1]
    for k in range(4):
        if b.t[NBR + 4 * start + k] == dragon[2]:
            return k
    return 0


cdef void through_portals(const Env* b, uint64_t* reached, uint64_t blocked) noexcept nogil:
    """Each reached portal replaced by the free cells beside its free exits."""
    cdef uint64_t portals = b.m[M_PORTAL], around = blocked | portals, entered
    cdef int d, p, entry, x, exit_, k, cell
    for d in range(4):
        entered = reached[d] & portals
        if not entered:
            continue
        reached[d] ^= entered
        for p in range(b.t[H_NPORTALS]):
            entry = b.t[PORTALS + p]
            if not (entered >> entry) & 1:
                continue
            for x in range(b.t[NEXITS + entry]):
                exit_ = b.t[EXITS + MAXX * entry + x]
                if (blocked >> exit_) & 1:
                    continue
                for k in range(4):
                    cell = b.t[NBR + 4 * exit_ + k]
                    if cell >= 0 and not (around >> cell) & 1:
                        reached[k] |= 1ULL << cell


cdef int approach_row(const Env* b, const int32_t* row) noexcept nogil:
    cdef int colour = row[0], d, dist, r
    cdef const int32_t* me = row + 1 + colour * DRAGON
    cdef uint64_t other = tiles(row + 1 + (1 - colour) * DRAGON)
    cdef uint64_t prey = other, blocked, free_, n, e, s, w
    cdef uint64_t goal[4]
    cdef uint64_t layer[4]
    cdef uint64_t seen[4]
    cdef uint64_t reached[4]
    if 1 - colour == b.t[H_PROTECTOR]:
        prey |= b.m[M_VILLAGE]
    blocked = tiles(me) | other | b.m[M_STATIC]
    for r in range(b.t[H_NROCKS]):
        if row[HITS + r]:
            blocked |= 1ULL << b.t[ROCKS + r]
    free_ = ~blocked & b.m[M_FULL]
    for d in range(4):
        goal[d] = shift(b, prey, (d + 2) % 4)
        layer[d] = 0
    layer[facing(b, me)] = 1ULL << me[2]
    for d in range(4):
        seen[d] = layer[d]
    for dist in range(4 * b.t[H_SIZE]):
        if (layer[0] & goal[0]) or (layer[1] & goal[1]) or (layer[2] & goal[2]) or (
            layer[3] & goal[3]
        ):
            return dist
        n, e, s, w = layer[0], layer[1], layer[2], layer[3]
        reached[0] = shift(b, n | e | w, 0) & free_
        reached[1] = shift(b, e | n | s, 1) & free_
        reached[2] = shift(b, s | e | w, 2) & free_
        reached[3] = shift(b, w | n | s, 3) & free_
        if b.m[M_PORTAL]:
            through_portals(b, reached, blocked)
        for d in range(4):
            layer[d] = reached[d] & ~seen[d]
        if not (layer[0] or layer[1] or layer[2] or layer[3]):
            return UNREACHABLE
        for d in range(4):
            seen[d] |= layer[d]
    return UNREACHABLE


def approach(Board board, const int32_t[:, ::1] positions, Py_ssize_t i):
    """The distance of row ``i``."""
    if positions.shape[1] != ROW:
        raise ValueError("positions are not rows of the benchmark's width")
    if not 0 <= i < positions.shape[0]:
        raise IndexError("no such position")
    return approach_row(&board.env, &positions[i, 0])


def approach_all(Board board, const int32_t[:, ::1] positions, int32_t[::1] out):
    """Every row's distance into ``out``."""
    if positions.shape[1] != ROW:
        raise ValueError("positions are not rows of the benchmark's width")
    if out.shape[0] < positions.shape[0]:
        raise ValueError("out is too short")
    cdef Py_ssize_t k
    cdef const Env* b = &board.env
    with nogil:
        for k in range(positions.shape[0]):
            out[k] = approach_row(b, &positions[k, 0])
