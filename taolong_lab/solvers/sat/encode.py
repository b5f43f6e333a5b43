"""The per-turn layer: the solo turn as a circuit over one-hot values.

A board state (:class:`Sym`) holds, for each dragon (white first, as in the engine's walks):

- ``pos[k][j]``: the cell of tile ``j`` (0 the head, 1..3 the segments), one-hot;
- ``face[k]``: the facing, one-hot over N, E, S, W;
- ``life[k]``: the life, 0..12, one-hot (``(segments - 1) * 4 + water``, :func:`core.life`):
  it fixes the water meter and the segments, so tile ``j >= 1`` exists iff life >= 4(j-1)+1;
- ``fire[k]``: the fire meter, 0..4, one-hot;
- ``link[k][j]``: for the gap between tiles ``j`` and ``j+1``, the portal pair it passes
  through, one-hot over ``(exit, entry)`` pairs, all false when there is none (the engine's
  ``Dragon.links``);

and ``rocks[cell]``: the hits a breakable rock still needs, 0..2, one-hot. The centre's water
and fire are what the meters leave of the (conserved) stones. Values of tiles and gaps a dragon
no longer has are don't-cares: every reader masks them with the life.

A value is a dict ``{value: literal}``; a value that is constantly false is absent, so cells a
dragon cannot reach by turn ``t`` cost nothing (constant folding in :mod:`.gates` does the
pruning). The turn follows :mod:`taolong_lab.engine.core` and :mod:`..engine.solo` step by step
(the function names say which engine function each mirrors). The opponent's choices (its
directions, second steps, portal exits, absorb or expel) are free: the layer admits every
legal option of its group, and the CEGAR loop (:mod:`.solver`) restricts it to the policy's.
The player's penalty is admitted whenever the sown element is impossible and two necessary
conditions of the engine's rule (every choice impossible) hold (:meth:`Encoder._penalty_needs`);
the rule itself is restored by refinement.

The Ba Gua after each turn's sowing (:class:`Layer`) is **factored**: for each space, its
stack's contents one-hot (only the contents that some configuration reachable at that turn
gives the space: the reachable configurations are tracked by a plain breadth-first pass over
the sowings, which never depend on the board), the chosen space one-hot, and the sowing a
circuit: space ``j`` receives stone ``i - 1`` of the chosen space ``s``'s stack when
``j = s + i``, the lifted space is emptied (or receives the last stone of a full lap). One-hot
over whole configurations would grow with their number, which multiplies turn by turn.

From Monk on (:mod:`.monk`) the sowing reads the whole Ba Gua, so a layer holds it one-hot over
whole configurations (stacks and flux coin, :attr:`Layer.configs`) and chooses one of the
engine's sowings of the configuration before; the Focus and Balance effects it makes are
applied between the sowing and the opponent's group (:attr:`Layer.pre_group`).

The facing is kept as state although a walk does not hold it (it is a function of the cells
and gaps; the conformance tests check it); the centre's stones are derived from the meters.
"""

from __future__ import annotations

from typing import NamedTuple

from ...engine import sow
from ...engine.core import Dragon
from ..bounds import bound_params, opponent_group, sow_table, turn_damage_bound
from . import monk
from .board import N_GAPS, N_TILES, Board, Legal, Sym
from .gates import Gates, clean, const, neg


class Layer:
    """One turn of the unrolled formula, with what decoding and refinement need.

    The Ba Gua after the sowing is held factored, ``stacks``: for each space, one-hot over its
    stack's contents (``{stack string: literal}``)."""

    def __init__(self):
        self.state: Sym | None = None  # after the turn
        self.pre_group: Sym | None = None  # before the opponent's group (after the effects)
        self.post_group: Sym | None = None
        self.stacks: list = []  # per space {stack: literal}
        self.configs: dict | None = None  # from Monk on: {configuration: literal} (.monk)
        self.focus_slots: list = []  # from Monk on: the opponent's Focus (.monk.FocusSlot)
        self.outcomes: list = []  # from Monk on: the sowings out of the layer before
        self._eq: dict = {}
        self._opp = "B"  # the opponent's stone colour (set by the encoder)
        self.sig: dict = {}  # (group, element) -> literal
        self.space: dict = {}  # space -> literal
        self.penalty = False
        self.won = False
        self.lost = False
        self.info: dict = {}
        self.clauses = 0
        self.variables = 0

    def bagua_is(self, g: Gates, config):
        """The literal "the Ba Gua after this turn's sowing is ``config``" (from Monk on, a
        configuration of :func:`.monk.config_of`)."""
        if self.configs is not None:
            return self.configs.get(config, False)
        x = self._eq.get(config)
        if x is None:
            x = self._eq[config] = g.ANDs(
                [st.get(v, False) for st, v in zip(self.stacks, config, strict=True)]
            )
        return x

    def bagua_value(self, value):
        """The configuration under ``value`` (a literal -> bool function)."""
        if self.configs is not None:
            return next((c for c, x in self.configs.items() if value(x)), None)
        out = []
        for st in self.stacks:
            v = next((v for v, x in st.items() if value(x)), None)
            if v is None:
                return None
            out.append(v)
        return tuple(out)

    def bagua_literals(self) -> list:
        if self.configs is not None:
            return list(self.configs.values())
        return [x for st in self.stacks for x in st.values()]

    def read_later(self) -> set[int]:
        """Every variable a later clause or the decoding may read from this layer: its state
        and the state after the opponent's group, the Ba Gua after the sowing (and its
        equalities), the signature, the space, the penalty, the goal."""
        lits = [*self.state.literals(), *self.post_group.literals(), self.won, self.lost]
        lits += [self.penalty, *self.sig.values(), *self.space.values(), *self._eq.values()]
        lits += self.bagua_literals()
        lits += self.pre_group.literals()
        for slot in self.focus_slots:
            lits += [*slot.pre.literals(), *slot.post.literals(), *slot.lits.values()]
        return {abs(x) for x in lits if x is not True and x is not False}

    def sowing_outcomes(self):
        """``[(literal, group, element)]``: for every space and stack this Ba Gua may hold,
        the literal that it holds it, and the opponent's group and the element sowing it
        gives."""
        n = len(self.stacks)
        return [
            (x, *stack_sowing(s, v, n, self._opp))
            for s, st in enumerate(self.stacks)
            for v, x in st.items()
            if v
        ]


def stack_sowing(space: int, stack: str, n: int, opp_stone: str) -> tuple[tuple[int, ...], int]:
    """``(group, element)`` of sowing ``stack`` from ``space`` on a ring of ``n`` spaces
    (counterclockwise, :func:`~taolong_lab.engine.core.sow`)."""
    ring = tuple(stack if j == space else "" for j in range(n))
    _, element, targets = sow(ring, space)
    return opponent_group(stack, targets, opp_stone), element


class DecodedTurn(NamedTuple):
    """One turn of a model (:meth:`Encoder.decode_layer`): the space sown, the Ba Gua after
    the sowing, the ``(group, element)`` it gave, the walk after the opponent's group and
    after the turn, and whether the player took the penalty; from Monk on, the walk before
    the group (after the effects) and the opponent's Focus, ``(walk before, space, walk
    after)``."""

    space: int
    bagua: tuple
    signature: tuple
    post_group: tuple
    walk: tuple
    penalty: bool
    pre_group: tuple | None = None
    focus: tuple = ()


class Encoder:
    """The incremental unrolling: layer 0 is the start (constant, or free for the tests),
    :meth:`add_layer` adds one turn."""

    def __init__(
        self,
        start,
        g: Gates | None = None,
        symbolic_start: bool = False,
        forbid_loss=True,
    ):
        env = start.tables
        self.forbid_loss = forbid_loss
        self.env = env
        self.g = g or Gates()
        self.player = start.mover
        self.opp = 1 - self.player
        self.lookahead = env.rules.option("solo_lookahead")
        self.flux = start.coin
        self.params = bound_params(start)
        self.rock_hits = sum(h for _, h in start.board.rocks) if self.params.tramples else 0
        walk = start.board
        self.start_walk = walk
        totals = (
            start.centre[0] + sum(d.water for d in start.dragons),
            start.centre[1] + sum(d.fire for d in start.dragons),
        )
        self.board = Board(env, self.g, self.player, totals, [c for c, _ in start.board.rocks])
        self.opp_stone = "WB"[self.opp]
        S0 = self.board.free() if symbolic_start else self.board.concrete(walk)
        self.layers: list[Layer] = []
        L0 = Layer()
        L0.state = S0
        # from Monk on the Ba Gua is one-hot over whole configurations (.monk)
        self.explicit = env.monk
        if self.explicit:
            L0.configs = {monk.config_of(start): True}
        else:
            L0.stacks = [const(stack) for stack in start.bagua]
        L0._opp = self.opp_stone
        L0.won = False
        self.layers.append(L0)
        self._sow_cache: dict = {}
        # the Ba Gua configurations reachable at the last layer (any space may always be sown,
        # whatever the board): the factored layers keep only stack contents some reachable
        # configuration has, which is exact (a real line never leaves the set)
        self._reach: set | None = None if self.explicit else {start.bagua}

    def config_of(self, state) -> tuple:
        """The Ba Gua of ``state`` as the layers key it (:meth:`Layer.bagua_is`): its stacks,
        and from Monk on the flux coin after them (:func:`.monk.config_of`)."""
        return monk.config_of(state) if self.explicit else state.bagua

    def split(self, config) -> tuple[tuple[str, ...], int]:
        """``(stacks, coin)`` of a configuration of :meth:`config_of`."""
        return monk.split(config) if self.explicit else (config, self.flux)

    def sowings(self, bagua):
        t = self._sow_cache.get(bagua)
        if t is None:
            t = self._sow_cache[bagua] = sow_table(bagua, self.opp_stone)
        return t

    def add_layer(self) -> Layer:
        g = self.g
        prev = self.layers[-1]
        n0c, n0v = g.n_clauses, g.pool.top
        L = Layer()
        L._opp = self.opp_stone
        if self.explicit:
            chosen = monk.sowing(self, prev, L)
            L.pre_group = monk.effects(self, prev.state, chosen, L)
        else:
            self._advance_reach()
            self._sowing(prev, L)
            L.pre_group = prev.state
        self._rest_of_turn(prev, L, n0c, n0v)
        return L

    REACH_LIMIT = 500_000  # stop tracking the reachable configurations above this many

    def _advance_reach(self) -> None:
        if self._reach is None:
            return
        nxt = set()
        for config in self._reach:
            for space, stack in enumerate(config):
                if stack:
                    nxt.add(sow(config, space).bagua)
        self._reach = nxt if len(nxt) <= self.REACH_LIMIT else None

    def _sowing(self, prev: Layer, L: Layer) -> None:
        """The Ba Gua, factored: per space, its stack's contents one-hot; the chosen space
        (one-hot) lifts its stack and drops stone ``i`` on the ``i``-th space after it (the
        engine's :func:`~taolong_lab.engine.core.sow`, counter-clockwise)."""
        g = self.g
        P = prev.stacks
        n = len(P)
        opp = self.opp_stone
        sel = {}
        for s in range(n):
            nonempty = neg(P[s].get("", False))
            if nonempty is False:
                continue
            x = g.var()
            g.implies(x, nonempty)
            sel[s] = x
        g.clause(list(sel.values()))
        g.amo(list(sel.values()))
        # slot[s][p][c]: stone p (from the base) of space s's stack has colour c
        slot = {}
        for s in sel:
            for p in range(n):
                for c in "WB":
                    lit = g.ORs([x for v, x in P[s].items() if len(v) > p and v[p] == c])
                    if lit is not False:
                        slot[(s, p, c)] = lit
        stacks = []
        for j in range(n):
            adds = {}
            for c in "WB":
                terms = []
                for s, x in sel.items():
                    i = (j - s) % n  # space j gets stone i-1 of space s's stack
                    if i == 0:
                        i = n
                    terms.append(g.AND(x, slot.get((s, i - 1, c), False)))
                adds[c] = g.ORs(terms)
            here = sel.get(j, False)
            acc: dict = {}
            # lifted: empty, unless the stack went all the way round (it then holds the last)
            full = g.ORs([x for v, x in P[j].items() if len(v) >= n])
            acc.setdefault("", []).append(g.AND(here, neg(full)))
            keep = g.AND(neg(here), neg(adds["W"]), neg(adds["B"]))
            for v, x in P[j].items():
                acc.setdefault(v, []).append(g.AND(keep, x))
                for c in "WB":
                    if here is not False:
                        # the lap back onto the lifted space itself
                        acc.setdefault(c, []).append(
                            g.AND(here, x, slot.get((j, n - 1, c), False) if len(v) >= n else False)
                        )
                    a = g.AND(neg(here), adds[c], x)
                    if a is not False:
                        acc.setdefault(v + c, []).append(a)
            if self._reach is not None:
                seen = {c[j] for c in self._reach}
                acc = {v: xs for v, xs in acc.items() if v in seen}
            stacks.append(clean({v: g.ORs(xs) for v, xs in acc.items()}))
        L.stacks = stacks
        sig: dict = {}
        for s, x in sel.items():
            for v, y in P[s].items():
                if not v:
                    continue
                z = g.AND(x, y)
                if z is not False:
                    sig.setdefault(stack_sowing(s, v, n, opp), []).append(z)
        L.sig = {k: g.ORs(xs) for k, xs in sig.items()}
        L.space = dict(sel)

    def _rest_of_turn(self, prev: Layer, L: Layer, n0c: int, n0v: int) -> None:
        g, B = self.g, self.board
        # ---- the opponent's group (solo.group_executions), every legal option
        S = L.pre_group
        width = max((len(gr) for gr, _ in L.sig), default=0)
        for a in range(width):
            E: dict = {}
            for (gr, _el), x in L.sig.items():
                if len(gr) > a:
                    E.setdefault(gr[a], []).append(x)
            E = {e: g.ORs(xs) for e, xs in E.items()}
            both = g.AND(B.alive(S, 0), B.alive(S, 1))
            active = g.AND(both, g.ORs(list(E.values())))
            S, _, _ = B.action(S, self.opp, E, active)
        L.post_group = S
        # ---- the player's Matter phase, or the penalty
        E = {}
        for (_gr, el), x in L.sig.items():
            E.setdefault(el, []).append(x)
        E = {e: g.ORs(xs) for e, xs in E.items()}
        both = g.AND(B.alive(S, 0), B.alive(S, 1))
        S2, possible, info = B.action(S, self.player, E, both)
        L.penalty = g.AND(both, neg(possible))
        if L.penalty is not False:
            self._penalty_needs(prev, L)
        if L.penalty is not False:
            S2 = S2.copy()
            S2.life[self.player] = B.damage(S2.life[self.player], {1: L.penalty})
        # ---- the village hurts the challenger at the end of its turn (core.village_damage)
        if B.protector is not None and B.protector != self.player:
            both = g.AND(B.alive(S2, 0), B.alive(S2, 1))
            mine = B.tiles(S2, self.player)
            near = g.ORs([x for c, x in mine.items() if c in B.beside_village])
            hurt = g.AND(both, near)
            if hurt is not False:
                S2 = S2.copy()
                S2.life[self.player] = B.damage(S2.life[self.player], {1: hurt})
        L.state = S2
        L.info = info  # the player's decision literals
        # ---- the goal: won by this turn (latched); no turn after a loss
        opp_dead = S2.life[self.opp].get(0, False)
        L.won = g.OR(prev.won, opp_dead)
        L.lost = S2.life[self.player].get(0, False)
        if self.forbid_loss:  # no turn after a loss: the player's dragon lives until the win
            g.clause([neg(L.lost), prev.won])
        L.clauses = g.n_clauses - n0c
        L.variables = g.pool.top - n0v
        self.layers.append(L)

    @property
    def budgeted(self) -> bool:
        """Whether :meth:`damage_budget` adds clauses: in a mode the bound models."""
        return self.params.exact_rules

    def damage_budget(self, k: int, goal=None) -> list[dict] | None:
        """Clauses "``goal`` (by default ``won_k``) -> after each turn ``t <= k`` the
        opponent's life is at most the most damage turns ``t+1..k`` can deal", the most a
        turn can deal given by the element it sows and its group's length
        (:func:`~..bounds.turn_damage_bound`, the player's fire meter taken at the
        capacity), plus the breakable rocks' hits at the start. Sound: a win by turn ``j <= k``
        takes the opponent's life after turn ``t`` down to 0 by turns ``t+1..j`` (and it stays
        0), and what it absorbs on the way only adds to the damage needed. It is the explicit
        solver's :func:`~..bounds.may_win_within` over every turn, read off the Ba Gua
        circuit, so a candidate line whose sowings cannot deal the damage is cut before the
        board is looked at. Grasshopper only, as the bound.

        Returns the budgets, ``[t]`` one-hot over what turns ``t+1..k`` can deal (capped at
        the most life a dragon can have), None when there is no budget."""
        if not self.budgeted:
            return None
        g = self.g
        goal = self.layers[k].won if goal is None else goal
        if goal is False:
            return
        top = self.board.max_life  # not the start's: the opponent's life can rise (water)
        ring = self.env.ring
        portals = self.params.portal_per_turn > 0
        cap = self.board.cap
        budget = {min(top, self.rock_hits): True}  # what turns t+1..k can deal
        budgets = [budget]
        for t in range(k, -1, -1):
            for v, x in self.layers[t].state.life[self.opp].items():
                if v > 0:
                    enough = g.ORs([y for r, y in budget.items() if r >= v])
                    g.clause([neg(goal), neg(x), enough])
            if t == 0:
                break
            hits: dict = {}
            for (group, element), x in self.layers[t].sig.items():
                hit = turn_damage_bound(ring[element], cap, len(group), portals)[0]
                hits.setdefault(hit, []).append(x)
            acc: dict = {}
            for r, x in budget.items():
                for hit, xs in hits.items():
                    acc.setdefault(min(top, r + hit), []).append(g.AND(x, g.ORs(xs)))
            budget = clean({r: g.ORs(xs) for r, xs in acc.items()})
            budgets.append(budget)
        return budgets[::-1]

    def _penalty_needs(self, prev: Layer, L: Layer) -> None:
        """Necessary conditions of the penalty (``solo.solo_options``: every choice
        impossible), added to the relaxation, so still sound: no sowing may give Lake or
        Mountain off the player's axis unless its effects include a Focus of the player's
        (a stay is always possible, and neither the opponent's group, its Focus nor a Balance
        turns the player), and no sowing without an opponent group or an effect may give an
        element possible on the board as it is."""
        g, B = self.g, self.board
        has: dict = {}
        free: dict = {}
        if self.explicit:
            outcomes = L.outcomes
        else:
            outcomes = [(*o, False, ()) for o in prev.sowing_outcomes()]
        for lit, group, element, turns_player, effects in outcomes:
            if not turns_player:
                has.setdefault(element, set()).add(lit)
            if not group and not effects:
                free.setdefault(element, set()).add(lit)
        S = prev.state
        k = self.player
        bad = []
        for e, lits in has.items():
            stay = B.legal(S, k, {e: True}).stay
            bad.append(g.AND(g.ORs(sorted(lits, key=str)), stay))
        for e, lits in free.items():
            possible = B.legal(S, k, {e: True}).possible
            bad.append(g.AND(g.ORs(sorted(lits, key=str)), possible))
        for b in bad:
            g.clause([neg(L.penalty), neg(b)])

    # ---- equality with an engine walk (refinements, tests) -----------------------------
    def eq_walk(self, S: Sym, walk):
        """The literal "``S`` is the walk ``walk``" (only what a walk holds: the tiles the
        dragons have, their gaps, meters, rocks)."""
        g, B = self.g, self.board
        lits = []
        dragons, _w, _f, rocks = walk
        cap = B.cap
        for k, d in enumerate(dragons):
            life = (len(d.cells) - 2) * cap + d.water if d.alive else 0
            lits.append(S.life[k].get(life, False))
            lits.append(S.fire[k].get(d.fire, False))
            for j, c in enumerate(d.cells):
                lits.append(S.pos[k][j].get(c, False))
            gaps = {i: (q, e) for i, q, e in d.links}
            for j in range(len(d.cells) - 1):
                want = gaps.get(j)
                for p, x in S.link[k][j].items():
                    lits.append(x if p == want else neg(x))
                if want is not None and want not in S.link[k][j]:
                    return False
            if False in lits:
                return False
        hits = dict(rocks)
        for r in B.rock_cells:
            lits.append(S.rocks[r].get(hits.get(r, 0), False))
        return g.ANDs(lits)

    # ---- decoding ------------------------------------------------------------------------
    def decode(self, S: Sym, value):
        """The engine walk that ``S`` holds under ``value`` (a literal -> bool function)."""
        B = self.board
        cap = B.cap

        def pick(d: dict, default=None):
            for v, x in d.items():
                if value(x):
                    return v
            return default

        dragons = []
        waters, fires = 0, 0
        for k in range(2):
            life = pick(S.life[k], 0)
            fire = pick(S.fire[k], 0)
            if life == 0:
                segs, water = 0, 0
            else:
                segs, water = (life - 1) // cap + 1, (life - 1) % cap + 1
            cells = tuple(pick(S.pos[k][j]) for j in range(segs + 1))
            links = []
            for j in range(segs):
                p = pick(S.link[k][j])
                if p is not None:
                    links.append((j, p[0], p[1]))
            dragons.append(Dragon(cells, water, fire, tuple(links)))
            waters += water
            fires += fire
        rocks = tuple(sorted((r, h) for r in B.rock_cells if (h := pick(S.rocks[r], 0)) > 0))
        return (
            (dragons[0], dragons[1]),
            B.total_water - waters,
            B.total_fire - fires,
            rocks,
        )

    def decode_layer(self, t: int, value) -> DecodedTurn:
        """Turn ``t`` under ``value`` (a literal -> bool function)."""
        L = self.layers[t]

        def pick(d: dict):
            for v, x in d.items():
                if value(x):
                    return v
            return None

        focus = tuple(
            (self.decode(slot.pre, value), space, self.decode(slot.post, value))
            for slot in L.focus_slots
            for (space, _), x in slot.lits.items()
            if value(x)
        )
        return DecodedTurn(
            space=pick(L.space),
            bagua=L.bagua_value(value),
            signature=pick(L.sig),
            post_group=self.decode(L.post_group, value),
            walk=self.decode(L.state, value),
            penalty=value(L.penalty),
            pre_group=self.decode(L.pre_group, value),
            focus=focus,
        )


__all__ = [
    "N_GAPS",
    "N_TILES",
    "Board",
    "DecodedTurn",
    "Encoder",
    "Layer",
    "Legal",
    "Sym",
    "stack_sowing",
]
