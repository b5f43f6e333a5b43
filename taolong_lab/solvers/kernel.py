"""The compiled solo search kernel, when it is built: what it covers, and positions to and
from it.

The kernel (``taolong_lab.solvers._kernel``, C++ sources in ``native/kernel``) holds a solo
Grasshopper challenge's rules and layout (a *game*) and searches packed positions: the
explicit solver's A* with its deferral and first-turn count, the same bounds, the solo
opponent's group and priorities under both lookaheads, every board feature (portals,
breakable rocks, the village, the Torus's wrap). It lists successors in the engine's turn
order, so a turn number means the same turn on both sides. The Python engine stays the
judge: :mod:`.explicit` replays every line the kernel returns, and the tests compare both
on the conformance corpus and on random positions.

``TAOLONG_PURE=1`` in the environment turns the kernel off everywhere.

>>> status().startswith(("compiled kernel", "pure Python"))
True
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import time
import warnings
from array import array

from ..engine import State
from ..errors import TaoLongError
from ..rules.data import game_data
from .bounds import _expel_terms, bound_params

PURE_ENV = "TAOLONG_PURE"
COVERS = (
    "Grasshopper solo challenges on every scenario, both solo lookaheads: the explicit "
    "solver's search and first-turn count, its bounds, the opponent's policy"
)
_MAX_STONES = 15  # stones in the Ba Gua a packed position holds
_MAX_CELLS = 64  # cells on a board (one machine word of bits)

try:  # the compiled module is optional: a machine without a compiler runs the pure path
    from . import _kernel
except ImportError:  # pragma: no cover - depends on the install
    _kernel = None


class KernelMismatchError(TaoLongError):
    """The kernel and the Python engine disagree about a line: a bug, reported, never
    trusted."""


class KernelMissingWarning(UserWarning):
    """The compiled kernel is not built: the solvers run their pure-Python path."""


_pure_depth = 0  # pure() blocks entered and not left


def available() -> bool:
    """Whether the compiled kernel is built and not turned off (``TAOLONG_PURE=1``, or inside
    :func:`pure`)."""
    return _kernel is not None and os.environ.get(PURE_ENV) != "1" and not _pure_depth


@contextlib.contextmanager
def pure():
    """Run the block on the pure-Python path: for the checkers, whose verdicts rest on the
    Python engine alone."""
    global _pure_depth
    _pure_depth += 1
    try:
        yield
    finally:
        _pure_depth -= 1


def status() -> str:
    """One line: which path the solo search runs, and what the kernel covers.

    Returns
    -------
    str
    """
    if _kernel is None:
        return "pure Python: the compiled kernel is not built (no C++ compiler, or a pure build)"
    if os.environ.get(PURE_ENV) == "1":
        return f"pure Python: the compiled kernel is turned off by {PURE_ENV}=1"
    return f"compiled kernel {_kernel.VERSION} (C++): {COVERS}"


def unsupported(state: State) -> str | None:
    """Why the kernel cannot search from ``state``, or None when it can.

    Parameters
    ----------
    state : State

    Returns
    -------
    str or None
    """
    rules = state.rules
    if not rules.solo:
        return "not a solo challenge"
    if rules.mode != "grasshopper":
        return f"{rules.mode} mode (the kernel covers Grasshopper)"
    env = state.tables
    if env.geo.size > _MAX_CELLS:
        return f"a board of {env.geo.size} cells"
    if sum(map(len, state.bagua)) > _MAX_STONES:
        return "more than 15 stones in the Ba Gua"
    if len(env.portal_colour) > 16:
        return "more than 16 portals"
    if any(len(d.cells) > 4 or d.water > 15 or d.fire > 15 for d in state.dragons):
        return "a dragon outside the kernel's bounds"
    return None


def usable(state: State) -> bool:
    """Whether the explicit solver runs this challenge in the kernel (and says once, in a
    warning, when only the build is missing)."""
    if _kernel is None and os.environ.get(PURE_ENV) != "1" and sys.platform != "emscripten":
        _warn_missing()
    return available() and unsupported(state) is None


@functools.cache
def _warn_missing() -> None:
    warnings.warn(status(), KernelMissingWarning, stacklevel=3)


# ---- the game's specification -------------------------------------------------------------
def game(state: State):
    """The kernel's game for ``state``'s challenge (its rules, layout, player and rocks)."""
    rocks = tuple(cell for cell, _ in state.board.rocks)
    params = bound_params(state)
    bounds = params.per_turn, params.tramples, params.portal_per_turn > 0
    return _game(state.tables, state.mover, rocks, bounds)


@functools.lru_cache(maxsize=64)
def _game(env, player: int, rocks: tuple, bounds: tuple):
    return _kernel.Game(_spec(env, player, rocks, bounds).tobytes())


def _spec(env, player: int, rocks: tuple, bounds: tuple) -> array:
    """The game as the kernel reads it: a flat list of 32-bit numbers (native/kernel/module.cpp,
    ``read_env``)."""
    geo, rules = env.geo, env.rules
    lookahead = {"matter": 1, "next-turn": 2}[rules.option("solo_lookahead")]
    out = [1, geo.width, geo.height, int(geo.wrap), player, env.cap, int(env.tail_first)]
    out += [int(env.bite_on_stay), lookahead, -1 if env.protector is None else env.protector]
    for cell in range(geo.size):
        out += [env.static_mask >> cell & 1, env.village_mask >> cell & 1]
        out += [env.beside_village >> cell & 1, int(cell in env.portal_colour)]
        exits = _exits(env, cell)
        out += [_cost(env, cell), len(exits), *exits, *env.nbr[cell]]
    ruler = game_data().ruler
    out.append(len(ruler))
    for entries in env.ruler:
        for cell, value, blocked_by in entries:
            out += [cell, value, sum(1 << b for b in blocked_by)]
    for name, (move, axis) in zip(env.ring, env.moves, strict=True):
        out += [move, axis, int(name == "fire"), int(name == "water")]
    out += [len(rocks), *rocks]
    _, rmax, water_bonus = _expel_terms()
    per_turn, tramples, portals = bounds
    out += [per_turn, rmax, water_bonus, int(tramples), int(portals), 4, 4]
    return array("i", out)


def _exits(env, cell: int) -> list[int]:
    colour_of = env.portal_colour
    if cell not in colour_of:
        return []
    rule = env.scenario.portal_rule(colour_of[cell])
    return sorted(
        c
        for c in colour_of
        if c != cell and (rule.destination != "twin" or colour_of[c] == colour_of[cell])
    )


def _cost(env, cell: int) -> int:
    if cell not in env.portal_colour:
        return 0
    cost = env.scenario.portal_rule(env.portal_colour[cell]).cost
    return {None: 0, "fire": 1, "water": 2}[cost]


# ---- positions ----------------------------------------------------------------------------
def pack(state: State, rocks: tuple) -> bytes:
    """``state`` as the kernel reads a position; ``rocks`` are the game's rock cells."""
    board = state.board
    out = [state.coin, board.water, board.fire]
    for dragon in board.dragons:
        out += [len(dragon.cells), dragon.water, dragon.fire, len(dragon.links), *dragon.cells]
        for link in dragon.links:
            out += link
    hits = dict(board.rocks)
    if not set(hits) <= set(rocks):
        raise ValueError("a rock that the challenge's start does not have")
    out += [hits.get(cell, 0) for cell in rocks]
    for stack in state.bagua:
        out += [len(stack), *(stone == "B" for stone in stack)]
    return bytes(out)


def unpack(data: bytes, like: State, rocks: tuple, ply: int) -> State:
    """The position ``data`` (the kernel's bytes) of ``like``'s challenge, on turn ``ply``."""
    from ..engine import Dragon

    at = 3
    dragons = []
    for _ in range(2):
        n, water, fire, nlinks = data[at : at + 4]
        cells = tuple(data[at + 4 : at + 4 + n])
        at += 4 + n
        links = tuple(tuple(data[at + 3 * k : at + 3 * k + 3]) for k in range(nlinks))
        at += 3 * nlinks
        dragons.append(Dragon(cells, water, fire, links))
    hits = data[at : at + len(rocks)]
    at += len(rocks)
    stacks = []
    for _ in range(len(like.bagua)):
        n = data[at]
        stacks.append("".join("WB"[b] for b in data[at + 1 : at + 1 + n]))
        at += 1 + n
    board = (
        tuple(dragons),
        data[1],
        data[2],
        tuple((c, h) for c, h in zip(rocks, hits, strict=True) if h),
    )
    return State.compose(like.tables, board, tuple(stacks), data[0], like.mover, ply)


def successors(state: State) -> list[State]:
    """The kernel's successors of ``state``, in the engine's turn order (for the tests).

    Parameters
    ----------
    state : State
        A position the kernel supports (:func:`unsupported`).

    Returns
    -------
    list of State
    """
    kernel_game = game(state)
    rocks = tuple(cell for cell, _ in state.board.rocks)
    found = kernel_game.successors(pack(state, rocks))
    return [unpack(data, state, rocks, state.ply + 1) for data in found]


# ---- the bounded depth-first search ---------------------------------------------------------
_PROVER = ("kernel prover",)  # where a win_within memo keeps its kernel prover


def win_moves(state: State, turns: int, budget, failed: dict | None):
    """:func:`.explicit.win_line_within` in the kernel: ``("won", moves)``, ``("none", None)``
    or ``("spent", None)`` when ``budget`` ran out. ``failed``, a memo shared between calls,
    keeps the kernel's own memo (its prover), which remembers what it proved."""
    rocks = tuple(cell for cell, _ in state.board.rocks)
    kernel_game = game(state)
    prover = None if failed is None else failed.get(_PROVER)
    if prover is None or prover[0] is not kernel_game:
        prover = (kernel_game, kernel_game.prover())
        if failed is not None:
            failed[_PROVER] = prover
    left = -1
    if budget is not None and budget.max_states is not None:
        left = max(0, budget.max_states - budget.expanded)
    seconds = -1.0 if budget is None else _seconds_left(budget)
    moves, expanded, generated = prover[1].win_within(pack(state, rocks), turns, left, seconds)
    if budget is not None:
        budget.expanded += expanded
        budget.generated += generated
    if moves is False:
        if budget is not None:
            budget.spent()
        return "spent", None
    return ("none", None) if moves is None else ("won", moves)


# ---- the explicit solver's search ----------------------------------------------------------
RUNNING, FOUND, EXHAUSTED, SPENT = range(4)


class KernelSearch:
    """The explicit solver's A* from ``start`` run in the kernel, with the interface of the
    solver's own search (:mod:`.explicit`): ``run``, ``line``, ``count_first_turns``, the
    counters and the closed histogram. Every line it gives is replayed in the engine.

    Parameters
    ----------
    start : State
        A solo position the kernel supports.
    budget : Budget
        The solve's budget: its ``max_states`` bounds the search and the count together.
    """

    SLICE = 4096  # expansions between two looks at the clock and the progress bar

    def __init__(self, start: State, budget):
        self.start = start
        self.rocks = tuple(cell for cell, _ in start.board.rocks)
        self._game = game(start)
        limit = -1 if budget.max_states is None else budget.max_states
        self._search = self._game.search(pack(start, self.rocks), limit)
        self._stats = self._search.stats()
        self.found = None
        self.seconds = 0.0  # no earlier runs: the kernel does not checkpoint

    def __getattr__(self, name: str):
        if name in ("expanded", "generated", "deferred", "proved", "bytes"):
            return self._stats[name]
        if name == "stored":
            return self._stats["positions"]
        raise AttributeError(name)

    @property
    def buckets(self) -> bool:
        """Whether positions are left on the open list."""
        return self._stats["open"] > 0

    def requeue(self) -> None:
        """Nothing to put back: the kernel stops between expansions."""

    def closed_counts(self) -> dict[int, int]:
        return {f: n for f, n in enumerate(self._search.closed_counts()) if n}

    def _sync(self, budget) -> None:
        before = self._stats["expanded"]
        self._stats = self._search.stats()
        budget.expanded = self._stats["budget_expanded"]
        budget.generated = self._stats["generated"]
        return self._stats["expanded"] - before

    def run(self, budget, bar, on_progress) -> bool:
        """Expand until a win is generated (True), the open list empties or the budget runs
        out (False)."""
        while True:
            result = self._search.run(self.SLICE, _seconds_left(budget))
            done = self._sync(budget)
            if bar is not None:
                bar.update(done)
                bar.set_postfix(bound=self.proved, frontier=self._stats["open"], refresh=False)
            on_progress(False)
            if result == FOUND:
                self.found = True
                return True
            if result == EXHAUSTED or budget.spent():
                return False

    def line(self) -> list[str]:
        """The turns to the win, replayed in the engine and checked against the kernel's."""
        state, line = self.start, []
        for move in self._search.line():
            turns = state.legal_turns()
            if not 0 <= move < len(turns):
                raise KernelMismatchError(f"the kernel's turn {move} is not a legal turn number")
            line.append(str(turns[move]))
            state = state.play(turns[move])
        result = state.outcome()
        if pack(state, self.rocks) != self._search.found_position() or result is None:
            raise KernelMismatchError("the kernel's line does not reach the win it found")
        if result.winner != self.start.to_move:
            raise KernelMismatchError(f"the kernel's line loses: {result}")
        return line

    def count_first_turns(self, optimum: int, budget, bar) -> int | None:
        """The optimal first turns, counted in the kernel; None when the budget runs out."""

        def shown(total) -> None:
            if bar is None:
                return
            if total is None:
                bar.update(1)
            else:
                bar.reset(total=total)
                bar.unit = "turn"
                bar.set_description("optimal first turns")

        try:
            wins = self._search.count_first_turns(optimum, _seconds_left(budget), shown)
        finally:
            self._sync(budget)
        if wins is None:
            budget.spent()
        return wins


def _seconds_left(budget) -> float:
    if budget.deadline is None:
        return -1.0
    return max(0.0, budget.deadline - time.perf_counter())


__all__ = [
    "COVERS",
    "PURE_ENV",
    "KernelMismatchError",
    "KernelMissingWarning",
    "KernelSearch",
    "available",
    "game",
    "pack",
    "pure",
    "status",
    "successors",
    "unpack",
    "unsupported",
    "usable",
    "win_moves",
]
