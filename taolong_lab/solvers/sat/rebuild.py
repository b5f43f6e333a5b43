"""The CNFs of a stored proof, built again with this lab's own encoder (``docs/proofs.md``).

A proof folder's manifest lists the steps of the search that wrote it (:data:`.proof.STEPS`:
a layer, a damage budget, a refinement, a dead-end nogood, an UNSAT horizon) and the meaning of
each refinement and nogood. :class:`Rebuild` replays those steps in a
:class:`~.solver.SatSearch` holding an in-memory :class:`~.proof.ProofLog` and no solver: the
same calls, in the same order, as the search that wrote the proof, so the clauses come out the
same, in the same order, whoever wrote the files. Nothing is read from a stored CNF: a DRAT
proof is checked against these clauses, so it speaks of this start and these horizons.

The encoder is deterministic: the same start and steps give the same clauses in every process
(no set or hash order reaches a clause; ``tests/solvers/test_sat_proofs.py`` compares two fresh
processes byte for byte).

:meth:`Rebuild.spot_check` tests the encoding's completeness on a sample: engine-legal lines
from the start, each forced into the rebuilt CNF (without the goal) by assumptions, must each
leave it satisfiable. An encoding that missed a legal turn would prove a false "no win".
"""

from __future__ import annotations

import hashlib
import random
from typing import NamedTuple

from pysat.solvers import Solver

from ...engine import State
from ...errors import TaoLongError
from .monk import config_of
from .proof import (
    BUDGET,
    DEAD_END,
    KINDS,
    LAYER,
    REFINEMENT,
    STEPS,
    ProofLog,
    cnf_header,
)
from .search import SatSearch

MAX_ENDS = 10_000
"""The most boards one refinement may name."""
MAX_STACK = 16
"""The most stones a Ba Gua stack named in a refinement may hold."""


class RebuildError(TaoLongError):
    """A manifest whose steps or meanings this encoder cannot replay: names the field."""

    def __init__(self, field: str, reason: str):
        self.field, self.reason = field, reason
        super().__init__(f"{field}: {reason}")


class Horizon(NamedTuple):
    """One UNSAT horizon of a rebuild: its goal literal (False: folded by the encoding, no
    CNF), the refinements and dead-end nogoods known then, the CNF's variables, clauses (the
    goal unit included) and clauses per kind, the arena's words before its goal, and the
    SHA-256 of its DIMACS text (None when folded)."""

    turns: int
    goal: int | bool
    refinements: int
    dead_ends: int
    variables: int
    clauses: int
    kinds: dict
    end: int
    sha256: str | None


class _NoSolver:
    """Where a rebuild's clauses go besides its log: nowhere."""

    def add_clause(self, clause) -> None:
        pass

    def delete(self) -> None:
        pass


def _position(text, start: State, field: str) -> State:
    if not isinstance(text, str):
        raise RebuildError(field, "not a position (TLN)")
    try:
        state = State(text)
    except TaoLongError as exc:
        raise RebuildError(field, str(exc)) from None
    if state.rules != start.rules or state.mover != start.mover:
        raise RebuildError(field, "not a position of the start's game, the player to move")
    return state


def _row_position(row, start: State, field: str) -> tuple[State, tuple]:
    """The position of the manifest's row ``row`` (an object) and its Ba Gua as the layers key
    it."""
    if not isinstance(row, dict):
        raise RebuildError(field, "not an object")
    pos = _position(row.get("position"), start, f"{field}.position")
    return pos, config_of(pos) if start.tables.monk else pos.bagua


def _index(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value < high


def refinement_of(row, start: State, field: str) -> tuple:
    """The solver's refinement (:meth:`~.solver.SatSearch.policy_ref`'s tuple, or
    ``("penalty", walk, config)``) that the manifest's row ``row`` means.

    Parameters
    ----------
    row : dict
        A row of the manifest's ``refinements``.
    start : State
        The proof's start.
    field : str
        The row's name in errors.

    Returns
    -------
    tuple of (tuple, tuple)
        The refinement and the Ba Gua of its position (as the layers key it).

    Raises
    ------
    RebuildError
        A field of the wrong type or out of range, naming it.
    """
    pos, config = _row_position(row, start, field)
    kind = row.get("kind")
    if kind == "penalty":
        return ("penalty", pos.board, config), config
    if kind not in ("group", "focus"):
        reason = f"{str(kind)[:40]!r} is not 'group', 'focus' or 'penalty'"
        raise RebuildError(f"{field}.kind", reason)
    group, element = row.get("group"), row.get("element")
    ring = len(start.bagua)
    if not (
        isinstance(group, list)
        and 0 < len(group) <= ring
        and all(_index(g, 0, ring) for g in group)
        and _index(element, -1, ring)
        and (kind == "group" or len(group) == 1)
    ):
        raise RebuildError(
            field, "group and element must be Ba Gua space indices (a focus: one space)"
        )
    after = _after(row, start, field)
    ends = row.get("ends")
    if not isinstance(ends, list) or len(ends) > MAX_ENDS:
        raise RebuildError(f"{field}.ends", "not a list of positions")
    walks = {_position(e, start, f"{field}.ends[{j}]").board for j, e in enumerate(ends)}
    if len(walks) != len(ends):
        raise RebuildError(f"{field}.ends", "a board named twice")
    allowed = tuple(sorted(walks, key=repr))
    return (kind, pos.board, (tuple(group), element), after, allowed), config


def _after(row: dict, start: State, field: str):
    """The configuration after the sowing that a refinement names (next-turn lookahead only),
    as the layers key it, or None."""
    after = row.get("after")
    monk = start.tables.monk
    if after is None:
        if "after_coin" in row:
            raise RebuildError(f"{field}.after_coin", "given without the stacks after the sowing")
        return None
    if start.rules.option("solo_lookahead") != "next-turn":
        raise RebuildError(f"{field}.after", "only the next-turn lookahead reads it")
    ring = len(start.bagua)
    if not (
        isinstance(after, list)
        and len(after) == ring
        and all(isinstance(s, str) and len(s) <= MAX_STACK and set(s) <= {"W", "B"} for s in after)
    ):
        raise RebuildError(f"{field}.after", f"not {ring} stacks of 'W' and 'B'")
    if not monk:
        if "after_coin" in row:
            raise RebuildError(f"{field}.after_coin", "Grasshopper has no flux coin")
        return tuple(after)
    coin = row.get("after_coin")
    if coin not in (0, 1) or isinstance(coin, bool):
        raise RebuildError(f"{field}.after_coin", f"{str(coin)[:40]} is not a flux coin (0 or 1)")
    return (*after, coin)


def dead_end_of(row, start: State, field: str, most: int) -> tuple:
    """``(walk, config, turns)``, the dead-end nogood the manifest's row ``row`` means.

    Parameters
    ----------
    row : dict
        A row of the manifest's ``dead_ends``.
    start : State
        The proof's start.
    field : str
        The row's name in errors.
    most : int
        The most turns a nogood may name.

    Returns
    -------
    tuple

    Raises
    ------
    RebuildError
        A field of the wrong type or out of range, naming it.
    """
    pos, config = _row_position(row, start, field)
    turns = row.get("turns")
    if not _index(turns, 1, most + 1):
        raise RebuildError(f"{field}.turns", f"{str(turns)[:40]} is not a whole number of turns")
    return (pos.board, config, turns)


class Rebuild:
    """A proof's CNFs built again: :meth:`run` replays the steps.

    Parameters
    ----------
    start : State
        The proof's start.
    settings : dict
        The manifest's settings (only named in each CNF's header comments).
    steps : str
        The manifest's steps (:data:`.proof.STEPS`).
    refinements, dead_ends : list
        What :func:`refinement_of` and :func:`dead_end_of` return, in the manifest's order.
    """

    def __init__(self, start: State, settings: dict, steps: str, refinements, dead_ends):
        self.start, self.settings, self.steps = start, settings, steps
        self.refinements, self.dead_ends = list(refinements), list(dead_ends)
        self.log = ProofLog(None, start, {})
        self.search = SatSearch(start, encoder=None, sat=_NoSolver(), log=self.log)

    def run(self, most_turns: int) -> list[Horizon]:
        """Replay every step (at most ``most_turns`` layers), and return the UNSAT horizons.

        Raises
        ------
        RebuildError
            A step this encoder cannot take (naming the step), or a refinement or nogood
            listed twice.
        """
        search, enc = self.search, self.search.enc
        refs, nogoods = iter(enumerate(self.refinements)), iter(enumerate(self.dead_ends))
        done: list[Horizon] = []
        budgeted = set()
        for n, letter in enumerate(self.steps):
            where = f"steps[{n}]"
            k = len(enc.layers) - 1
            if letter not in STEPS:
                raise RebuildError(where, f"{letter[:1]!r} is not one of {STEPS}")
            if letter == LAYER:
                if k >= most_turns:
                    raise RebuildError(where, f"more than {most_turns} layers")
                search.add_layer()
            elif letter == BUDGET:
                if k in budgeted or k < 1:
                    raise RebuildError(where, f"a damage budget for horizon {k}, not the first")
                budgeted.add(k)
                search.damage_budget(k)
            elif letter == REFINEMENT:
                i, (ref, config) = _next(refs, where, "refinements")
                if not search.refine(ref, config):
                    raise RebuildError(f"refinements[{i}]", "the same as an earlier one")
            elif letter == DEAD_END:
                i, (walk, config, r) = _next(nogoods, where, "dead_ends")
                if not search.dead_end(walk, config, r):
                    raise RebuildError(f"dead_ends[{i}]", "the same as an earlier one")
            else:
                if (done and done[-1].turns >= k) or k < 1:
                    raise RebuildError(where, f"horizon {k} proved UNSAT twice, or out of order")
                done.append(self._horizon(k))
        return done

    def _horizon(self, k: int) -> Horizon:
        log, goal = self.log, self.search.enc.layers[k].won
        known = (len(self.search.refinements), len(self.search.nogoods))
        if goal is False:
            return Horizon(k, False, *known, 0, 0, {}, len(log.arena), None)
        unit = 0 if goal is True else 1
        digest = hashlib.sha256()
        for chunk in log.dimacs_chunks(cnf_header(self.start.to_tln(), k, self.settings), k, goal):
            digest.update(chunk)
        kinds = {kind: log.kinds.get(kind, 0) for kind in KINDS}
        kinds["goal"] = unit
        variables = max(log.top, abs(goal) if unit else 0)
        count = log.count + unit
        return Horizon(k, goal, *known, variables, count, kinds, len(log.arena), digest.hexdigest())

    # ---- the completeness spot-check -------------------------------------------------------
    def spot_check(self, end: int, turns: int, lines) -> list[str]:
        """Force each line into the CNF of the arena's first ``end`` words, without its goal:
        each must leave it satisfiable.

        Parameters
        ----------
        end : int
            The arena's words of the CNF (a :class:`Horizon`'s ``end``).
        turns : int
            Its last layer: the positions of a line after that are not forced.
        lines : list of list of State
            Lines of engine-legal turns, each a list of positions, the start first.

        Returns
        -------
        list of str
            One problem a line the CNF has no model for.
        """
        enc, g = self.search.enc, self.search.g
        found = []
        with Solver(name="cd195") as sat:
            clause: list[int] = []
            for x in self.log.arena[:end]:
                if x:
                    clause.append(x)
                else:
                    sat.add_clause(clause)
                    clause = []
            for n, states in enumerate(lines):
                assumptions = []
                for t, state in enumerate(states[1 : turns + 1], start=1):
                    layer = enc.layers[t]
                    eq = enc.eq_walk(layer.state, state.board)
                    b = layer.bagua_is(g, enc.config_of(state))
                    assumptions += [x for x in (eq, b) if x is not True]
                for c in g.take():
                    sat.add_clause(c)
                if False in assumptions or not sat.solve(assumptions=assumptions):
                    found.append(
                        f"line {n + 1} ({len(states) - 1} engine-legal turns from the start) "
                        "has no model in the rebuilt CNF: the encoding misses a legal turn"
                    )
        return found


def _next(items, where: str, name: str):
    try:
        return next(items)
    except StopIteration:
        raise RebuildError(where, f"more steps than {name} listed") from None


def playouts(start: State, turns: int, count: int, seed: str) -> list[list[State]]:
    """``count`` seeded random lines of engine-legal turns from ``start``, each up to
    ``turns`` turns or the game's end (the turn that loses the player's dragon left out: the
    encoding has no turn after a loss).

    Parameters
    ----------
    start : State
        A solo position.
    turns, count : int
        The most turns of a line; how many lines.
    seed : str
        The seed of the random source.

    Returns
    -------
    list of list of State
        Each line's positions, the start first.
    """
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        states = [start]
        while len(states) <= turns and not states[-1].is_over():
            nexts = [after for _, after in states[-1].successors()]
            if not nexts:
                break
            after = rng.choice(nexts)
            result = after.outcome()
            if result is not None and result.winner != start.to_move:
                break
            states.append(after)
        lines.append(states)
    return lines


__all__ = [
    "MAX_ENDS",
    "Horizon",
    "Rebuild",
    "RebuildError",
    "dead_end_of",
    "playouts",
    "refinement_of",
]
