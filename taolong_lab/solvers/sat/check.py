"""One-turn checks of the encoding against the engine (used by the conformance tests).

- :func:`engine_successors`: the engine's successor set of a solo position (``State.successors``).
- :func:`relaxed_successors`: the same turn built from the engine's own pieces
  (``core.executions``, ``solo.group_executions``, ``core.hurt``, ``core.village_damage``) but
  with the two relaxations the SAT layer makes: the opponent's group may end in **any** of its
  legal executions, and the player's penalty may be taken whenever the sown element is
  impossible, unless one of the penalty's necessary conditions fails (some space gives Lake or
  Mountain off the player's axis, a stay; some space with no opponent group gives an element
  possible on the board as it is).
- :func:`OneTurn`: the encoding of one turn from a position, either with the start as constants
  (as the solver builds it) or as free variables pinned by assumptions (the whole circuit,
  nothing folded), optionally with the CEGAR refinements for that position added (``exact``),
  and :meth:`OneTurn.successors`, which enumerates its models projected on the next position.

With ``exact=True`` the encoding must give exactly :func:`engine_successors`; with
``exact=False`` exactly :func:`relaxed_successors`.
"""

from __future__ import annotations

from pysat.solvers import Solver

from ...engine import State
from ...engine.core import _alive, executions, hurt, village_damage
from ...engine.solo import group_executions
from .encode import N_GAPS, N_TILES, Encoder, sow_table
from .gates import Gates
from .solver import SatSearch, _Model


def _walk(state: State):
    return (state._dragons, state._water, state._fire, state._rocks)


def _key(state: State, walk, bagua):
    return State._make(state._env, walk, bagua, state._flux, state._to_move, 0).key()


def engine_successors(state: State) -> set:
    return {after.key() for _, after in state.successors()}


def relaxed_successors(state: State) -> set:
    env = state._env
    player = state._to_move
    opp = 1 - player
    walk = _walk(state)
    out = set()
    table = sow_table(state.bagua, "WB"[opp])
    # the penalty's necessary conditions (Encoder._penalty_needs): no space gives a stay, no
    # space without a group gives an element possible as the board is
    penalty_ok = not any(
        any(not o.path for o in executions(env, walk, player, element))
        or (not group and executions(env, walk, player, element))
        for _new, group, element in table.values()
    )
    for _space, (new, group, element) in table.items():
        for _, w in group_executions(env, walk, opp, group) if group else [((), walk)]:
            if not _alive(w):
                ends = [w]
            else:
                outs = executions(env, w, player, element)
                if outs:
                    ends = [o.walk for o in outs]
                elif penalty_ok:
                    ends = [hurt(w, player, 1, env.cap)]
                else:
                    ends = []
            for e in ends:
                if env.protector is not None:
                    e = village_damage(env, e, player)
                out.add(_key(state, e, new))
    return out


class OneTurn:
    """One encoded turn from ``state`` in a fresh Glucose 4 solver."""

    def __init__(self, state: State, *, exact: bool = True, symbolic: bool = True):
        self.state = state
        self.g = Gates()
        self.enc = Encoder(state, self.g, symbolic_start=symbolic, forbid_loss=False)
        self.pin = self.enc.board.pin(self.enc.layers[0].state, _walk(state)) if symbolic else []
        n_choices = len(self.g.choices)
        self.layer = self.enc.add_layer()
        self.choices = self.g.choices[n_choices:]
        self.sat = Solver(name="g4")
        self.sat.append_formula(self.g.take())
        if exact:  # the CEGAR refinements for this position: every space, and the penalty
            search = SatSearch(state, encoder=self.enc, sat=self.sat)
            walk = _walk(state)
            for space in self.enc.sowings(state.bagua):
                ref = search.group_ref(walk, state.bagua, space)
                if ref is not None:
                    search.refine(ref)
            if any(not t.phases[0].penalty for t, _ in state.successors()):
                search.refine(("penalty", walk, state.bagua))
        self.sat.append_formula(self.g.take())

    def close(self):
        self.sat.delete()

    def successors(self, limit: int = 10_000) -> set:
        """Every next position the encoding admits (State keys), by projected enumeration."""
        found = set()
        L = self.layer
        while len(found) < limit and self.sat.solve(assumptions=self.pin):
            value = _Model(self.sat.get_model())
            walk = self.enc.decode(L.state, value)
            bagua = next(c for c, x in L.bagua.items() if value(x))
            found.add(_key(self.state, walk, bagua))
            eq = self.enc.eq_walk(L.state, walk)
            b = L.bagua[bagua]
            self.g.clause([-eq if eq is not True else False, -b if b is not True else False])
            self.sat.append_formula(self.g.take())
        return found

    def next_literals(self) -> list:
        """Every variable literal of the next position (tiles, facings, meters, gaps, rocks,
        the Ba Gua)."""
        S = self.layer.state
        dicts = []
        for k in range(2):
            dicts += [S.pos[k][j] for j in range(N_TILES)]
            dicts += [S.face[k], S.life[k], S.fire[k]]
            dicts += [S.link[k][j] for j in range(N_GAPS)]
        dicts += [*S.rocks.values(), self.layer.bagua]
        return sorted({x for d in dicts for x in d.values() if x is not True and x is not False})

    def determined(self, literals=None, max_models: int = 3) -> list[tuple]:
        """For up to ``max_models`` models: with the start, the sown space, the end of the
        opponent's group and every free choice fixed as in the model, each next-position
        literal flipped must be UNSAT. Returns the ``(model no, literal)`` that were not."""
        bad = []
        L = self.layer
        lits = self.next_literals() if literals is None else literals
        for n in range(max_models):
            if not self.sat.solve(assumptions=self.pin):
                break
            value = _Model(self.sat.get_model())
            post = self.enc.decode(L.post_group, value)
            fixed = list(self.pin)
            eq = self.enc.eq_walk(L.post_group, post)
            if eq is not True:
                fixed.append(eq)
            for x in L.space.values():
                if x is not True and x is not False:
                    fixed.append(x if value(x) else -x)
            fixed += [c if value(c) else -c for c in self.choices]
            self.sat.append_formula(self.g.take())
            for x in lits:
                wrong = -x if value(x) else x
                if self.sat.solve(assumptions=[*fixed, wrong]):
                    bad.append((n, x))
            # next model: another next position
            walk = self.enc.decode(L.state, value)
            e2 = self.enc.eq_walk(L.state, walk)
            self.g.clause([-e2 if e2 is not True else False])
            self.sat.append_formula(self.g.take())
        return bad
