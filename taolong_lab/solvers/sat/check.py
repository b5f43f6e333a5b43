"""One-turn checks of the encoding against the engine (used by the conformance tests).

- :func:`engine_successors`: the engine's successor set of a solo position (``State.successors``).
- :func:`relaxed_successors`: the same turn built from the engine's own pieces
  (``core.executions``, ``solo.group_executions``, ``core.hurt``, ``core.village_damage``) but
  with the two relaxations the SAT layer makes: the opponent's group may end in **any** of its
  legal executions (but one that hurts the player once one of its actions surely could,
  :func:`surely_hurts`), and the player's penalty may be taken whenever the sown element is
  impossible, unless one of the penalty's necessary conditions fails (some space gives Lake or
  Mountain off the player's axis, a stay; some space with no opponent group gives an element
  possible on the board as it is).
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
from ...engine.core import _alive, executions, hurt, occupancy, ruler_hit, village_damage
from ...engine.solo import damage_dealt
from ..bounds import sow_table
from .encode import Encoder
from .gates import Gates
from .solver import SatSearch, _Model
from .solver import eliminate as eliminate_layer


def _key(state: State, walk, bagua):
    return State.compose(state.tables, walk, bagua, state.coin, state.mover, 0).key()


def engine_successors(state: State) -> set:
    return {after.key() for _, after in state.successors()}


def surely_hurts(env, walk, colour: int, element: int, rock_cells=None) -> bool:
    """The test's mirror of ``Encoder._must_hurt``: ``element`` has a one-step execution by
    ``colour``'s dragon onto a cell with no portal and no rock that bites the other dragon,
    or (Fire, Water) whose ruler, blocked by the tiles before the step, reaches it with a
    value of at least 1. ``rock_cells``: the cells no step may enter, the encoder's (every
    rock at the start of the turn, even one broken earlier in the group); by default the
    rocks of ``walk``."""
    if not _alive(walk):
        return False
    rocks = {c for c, _ in walk[3]}
    no_step = rocks if rock_cells is None else set(rock_cells)
    name = env.ring[element]
    prey = env.targets(walk[0], 1 - colour)
    blocked = occupancy(env, walk) | env.portal_mask | env.mask(rocks)
    head = walk[0][colour].cells[0]
    for o in executions(env, walk, colour, element):
        if len(o.path) != 1 or o.portals or o.path[0] in no_step:
            continue
        if name not in ("fire", "water"):
            if damage_dealt(env, walk, o.walk, 1 - colour) > 0:
                return True
            continue
        facing = env.nbr[head].index(o.path[0])
        if ruler_hit(env, o.path[0], facing, blocked, prey) >= 1:
            return True
    return False


def relaxed_group_ends(env, walk, colour: int, group, damage_hint: bool | None = None) -> set:
    """The walks the relaxed opponent's group may end in: every execution of ``group``
    (``solo.group_executions``) but, with ``damage_hint`` (None: the encoder's default,
    :attr:`.encode.Encoder.DAMAGE_HINT`), one that leaves the other dragon unhurt after
    passing a state where its next action :func:`surely_hurts`."""
    if damage_hint is None:
        damage_hint = Encoder.DAMAGE_HINT
    paths = [(walk, False)]  # (walk so far, some action on the way surely hurt)
    start_rocks = {c for c, _ in walk[3]}  # the encoder's rock cells (Board.rock_cells)
    for element in group:
        following = []
        for w, sure in paths:
            if not _alive(w):
                following.append((w, sure))
                continue
            sure = sure or (damage_hint and surely_hurts(env, w, colour, element, start_rocks))
            outs = executions(env, w, colour, element)
            following.extend([(o.walk, sure) for o in outs] or [(w, sure)])
        paths = following
    return {w for w, sure in paths if not sure or damage_dealt(env, walk, w, 1 - colour) > 0}


def relaxed_successors(state: State, damage_hint: bool | None = None) -> set:
    env = state.tables
    player = state.mover
    opp = 1 - player
    walk = state.board
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
        for w in relaxed_group_ends(env, walk, opp, group, damage_hint) if group else [walk]:
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

    def __init__(
        self,
        state: State,
        *,
        exact: bool = True,
        symbolic: bool = True,
        factored: bool = False,
        damage_hint: bool | None = None,
        eliminate: bool = False,
    ):
        self.state = state
        self.g = Gates()
        self.enc = Encoder(
            state,
            self.g,
            symbolic_start=symbolic,
            forbid_loss=False,
            factor_above=0 if factored else None,
            damage_hint=damage_hint,
        )
        if factored:  # the start's Ba Gua as stacks too (the penalty reads it factored)
            L0 = self.enc.layers[0]
            L0.stacks_of(self.g)
            L0.bagua = None
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
        if exact:  # the CEGAR refinements for this position: every space, and the penalty
            search = SatSearch(state, encoder=self.enc, sat=self.sat)
            walk = state.board
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
    """The factored Ba Gua layer (:meth:`Encoder._factored_sowing`) from free stack variables
    pinned to ``config``: every ``(space, new configuration, (group, element))`` its models
    admit, enumerated with blocking clauses. It must equal :func:`sow_table`'s."""
    from .encode import Layer

    g = Gates()
    enc = Encoder(state, g, factor_above=0)
    enc._reach = None  # no pruning by what the start's Ba Gua reaches
    domain = stack_domain(config)
    prev = Layer()
    prev.bagua = None
    prev.stacks = [{v: g.var() for v in domain} for _ in config]
    pin = [x if v == config[j] else -x for j, st in enumerate(prev.stacks) for v, x in st.items()]
    L = Layer()
    enc._factored_sowing(prev, L)
    found = set()
    with Solver(name="g4", bootstrap_with=g.take()) as sat:
        while sat.solve(assumptions=pin):
            value = _Model(sat.get_model())
            space = next(s for s, x in L.space.items() if value(x))
            sig = next(k for k, x in L.sig.items() if value(x))
            found.add((space, L.bagua_value(value), sig))
            sat.add_clause([-L.space[space]])
    return found
