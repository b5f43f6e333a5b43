"""One-turn checks of the encoding against the engine (used by the conformance tests).

- :func:`engine_successors`: the engine's successor set of a solo position (``State.successors``).
- :func:`relaxed_successors`: the same turn built from the engine's own pieces
  (``core.executions``, ``spirit.resolve_effects``, ``core.hurt``, ``core.village_damage``)
  but with the relaxations the SAT layer makes: the opponent's group, and from Monk on its
  Focus, may end in **any** of its legal executions, and the player's penalty may be taken
  whenever the sown element is impossible, unless one of the penalty's necessary conditions
  fails (some sowing without a Focus of the player's gives Lake or Mountain off the player's
  axis, a stay; some sowing with no opponent group and no effect gives an element possible on
  the board as it is).
- :func:`OneTurn`: the encoding of one turn from a position, either with the start as constants
  (as the solver builds it) or as free variables pinned by assumptions (the whole circuit,
  nothing folded), optionally with the CEGAR refinements for that position added (``exact``)
  and with the layer's own gates eliminated as the solver does (``eliminate``), and
  :meth:`OneTurn.successors`, which enumerates its models projected on the next position.

With ``exact=True`` the encoding must give exactly :func:`engine_successors`; with
``exact=False`` exactly :func:`relaxed_successors`.
"""

from __future__ import annotations

from pysat.solvers import Solver

from ...engine import State
from ...engine.core import executions, hurt, village_damage
from ...engine.spirit import resolve_effects
from ..bounds import sow_table
from . import monk
from .encode import Encoder
from .gates import Gates
from .search import SatSearch, _Model
from .search import eliminate as eliminate_layer


def _key(state: State, walk, config):
    """The key of the position after a turn from ``state``: ``config`` a Ba Gua as the layer
    keys it (:meth:`.encode.Encoder.config_of`)."""
    if state.tables.monk:
        bagua, coin = monk.split(config)
    else:
        bagua, coin = config, state.coin
    return State.compose(state.tables, walk, bagua, coin, state.mover, 0).key()


def _both_alive(walk) -> bool:
    white, black = walk[0]
    return white.alive and black.alive


def engine_successors(state: State) -> set:
    return {after.key() for _, after in state.successors()}


def relaxed_group_ends(env, walk, colour: int, group) -> set:
    """The walks the relaxed opponent's group may end in: every execution of ``group``
    (``solo.group_executions``)."""
    paths = [walk]
    for element in group:
        following = []
        for w in paths:
            if not _both_alive(w):
                following.append(w)
                continue
            outs = executions(env, w, colour, element)
            following.extend([o.walk for o in outs] or [w])
        paths = following
    return set(paths)


def sowings(state: State) -> list[monk.Transition]:
    """Every way to sow from ``state`` as the layer holds it: from Monk on the transitions of
    :func:`.monk.transitions`; in Grasshopper :func:`~..bounds.sow_table`'s, without effects."""
    if state.tables.monk:
        return list(monk.transitions(state.tables, monk.config_of(state), state.mover))
    table = sow_table(state.bagua, "WB"[1 - state.mover])
    return [monk.Transition(s, new, group, el, ()) for s, (new, group, el) in table.items()]


def relaxed_successors(state: State) -> set:
    env = state.tables
    player = state.mover
    opp = 1 - player
    walk = state.board
    out = set()
    table = sowings(state)
    # the penalty's necessary conditions (Encoder._penalty_needs): no sowing without a Focus
    # of the player's gives a stay, no sowing without a group or an effect gives an element
    # possible as the board is
    penalty_ok = not any(
        (
            not monk.moves_player(tr, player)
            and any(not o.path for o in executions(env, walk, player, tr.element))
        )
        or (not tr.group and not tr.effects and executions(env, walk, player, tr.element))
        for tr in table
    )
    for tr in table:
        new, group, element = tr.after, tr.group, tr.element
        # every outcome of the effects: each execution of either dragon's Focus
        starts = [w for w, _ in resolve_effects(env, walk, tr.effects)]
        ends_of_group = [
            e for w0 in starts for e in (relaxed_group_ends(env, w0, opp, group) if group else [w0])
        ]
        for w in ends_of_group:
            if not _both_alive(w):
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

    def __init__(
        self,
        state: State,
        *,
        exact: bool = True,
        symbolic: bool = True,
        eliminate: bool = False,
    ):
        self.state = state
        self.g = Gates()
        self.enc = Encoder(state, self.g, symbolic_start=symbolic, forbid_loss=False)
        self.pin = self.enc.board.pin(self.enc.layers[0].state, state.board) if symbolic else []
        n_choices = len(self.g.choices)
        n0v = self.g.pool.top
        self.layer = self.enc.add_layer()
        self.choices = self.g.choices[n_choices:]
        self.sat = Solver(name="g4")
        clauses = self.g.take()
        self.eliminated = 0
        if eliminate:  # as the solver hands a layer over (the free choices may go)
            clauses, self.eliminated = eliminate_layer(self.g, self.enc.layers, clauses, n0v)
        self.sat.append_formula(clauses)
        if exact:  # the CEGAR refinements for this position: the policy's, and the penalty
            search = SatSearch(state, encoder=self.enc, sat=self.sat)
            for ref in search.position_refs(state):
                search.refine(ref)
            if any(not t.phases[0].penalty for t, _ in state.successors()):
                search.refine(("penalty", state.board, self.enc.config_of(state)))
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
            bagua = L.bagua_value(value)
            found.add(_key(self.state, walk, bagua))
            eq = self.enc.eq_walk(L.state, walk)
            b = L.bagua_is(self.g, bagua)
            self.g.clause([-eq if eq is not True else False, -b if b is not True else False])
            self.sat.append_formula(self.g.take())
        return found

    def next_literals(self) -> list:
        """Every variable literal of the next position (tiles, facings, meters, gaps, rocks,
        the Ba Gua)."""
        lits = [*self.layer.state.literals(), *self.layer.bagua_literals()]
        return sorted({x for x in lits if x is not True and x is not False})

    def determined(self, literals=None, max_models: int = 3, assume=()) -> list[tuple]:
        """For up to ``max_models`` models (under the literals ``assume`` too, e.g. a space of
        :attr:`.encode.Layer.space`): with the start, the sown space and every free choice
        (the opponent's too) fixed as in the model, each next-position literal flipped must
        be UNSAT. Returns the ``(model no, literal)`` that were not."""
        bad = []
        L = self.layer
        lits = self.next_literals() if literals is None else literals
        for n in range(max_models):
            if not self.sat.solve(assumptions=[*self.pin, *assume]):
                break
            value = _Model(self.sat.get_model())
            fixed = list(self.pin)
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


def stack_domain(config) -> list[str]:
    """Every stack a space can hold with the stones of ``config`` (the ``W`` and ``B`` counts)."""
    whites = sum(v.count("W") for v in config)
    blacks = sum(v.count("B") for v in config)
    out = [""]
    frontier = [""]
    while frontier:
        nxt = []
        for v in frontier:
            for c in "WB":
                u = v + c
                if u.count("W") <= whites and u.count("B") <= blacks:
                    nxt.append(u)
        out += nxt
        frontier = nxt
    return out


def factored_sowings(state: State, config) -> set:
    """The factored Ba Gua layer (:meth:`Encoder._sowing`) from free stack variables
    pinned to ``config``: every ``(space, new configuration, (group, element))`` its models
    admit, enumerated with blocking clauses. It must equal :func:`sow_table`'s."""
    from .encode import Layer

    g = Gates()
    enc = Encoder(state, g)
    enc._reach = None  # no pruning by what the start's Ba Gua reaches
    domain = stack_domain(config)
    prev = Layer()
    prev.stacks = [{v: g.var() for v in domain} for _ in config]
    pin = [x if v == config[j] else -x for j, st in enumerate(prev.stacks) for v, x in st.items()]
    L = Layer()
    enc._sowing(prev, L)
    found = set()
    with Solver(name="g4", bootstrap_with=g.take()) as sat:
        while sat.solve(assumptions=pin):
            value = _Model(sat.get_model())
            space = next(s for s, x in L.space.items() if value(x))
            sig = next(k for k, x in L.sig.items() if value(x))
            found.add((space, L.bagua_value(value), sig))
            sat.add_clause([-L.space[space]])
    return found


__all__ = [
    "OneTurn",
    "engine_successors",
    "factored_sowings",
    "relaxed_group_ends",
    "relaxed_successors",
    "sowings",
    "stack_domain",
]
