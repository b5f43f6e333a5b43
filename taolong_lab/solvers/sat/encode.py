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
from ...engine.core import Dragon, Env
from ..bounds import bound_params, opponent_group, sow_table, turn_damage_bound
from . import monk
from .gates import Gates, clean, const, ite_onehot, neg

N_TILES = 4  # head + 3 segments at most
N_GAPS = 3


class Sym:
    """A symbolic (or partly concrete) board state; see the module docstring."""

    __slots__ = ("face", "fire", "life", "link", "pos", "rocks")

    def __init__(self, pos, face, life, fire, link, rocks):
        self.pos, self.face, self.life, self.fire, self.link, self.rocks = (
            pos, face, life, fire, link, rocks,
        )  # fmt: skip

    def literals(self):
        """Every literal of the state, constants included."""
        for k in range(2):
            for d in (*self.pos[k], self.face[k], self.life[k], self.fire[k], *self.link[k]):
                yield from d.values()
        for d in self.rocks.values():
            yield from d.values()

    def copy(self) -> Sym:
        return Sym(
            [list(p) for p in self.pos],
            list(self.face),
            list(self.life),
            list(self.fire),
            [list(x) for x in self.link],
            dict(self.rocks),
        )


class Legal(NamedTuple):
    """What :meth:`Board.legal` finds for an action: the literal "the element sown is X" for
    each element by name, the portal exits each entry allows (``avail``), the literal per
    direction "a first step that way is allowed and legal" (``can``), the stay of Lake or
    Mountain off their axis (``stay``) and "the action has an execution" (``possible``)."""

    elements: dict
    avail: dict
    can: dict
    stay: object
    possible: object


class Board:
    """The fixed part of the rules (an :class:`Env`) and the circuit builders for one game."""

    def __init__(self, env: Env, g: Gates, player: int, totals: tuple[int, int], rock_cells):
        self.env, self.g = env, g
        self.player, self.opp = player, 1 - player
        self.cap = env.cap
        self.max_life = 3 * env.cap
        self.nbr = env.nbr
        self.size = env.geo.size
        self.total_water, self.total_fire = totals
        layout = env.layout
        self.static = {
            y * layout.width + x
            for y, row in enumerate(layout.rows)
            for x, s in enumerate(row)
            if s in "#oV"
        }
        self.portals = dict(env.portal_colour)
        self.rock_cells = tuple(sorted(rock_cells))
        self.tail_first = env.tail_first
        self.bite_on_stay = env.bite_on_stay
        self.protector = env.protector
        self.village = {c for c in range(self.size) if env.village_mask >> c & 1}
        self.beside_village = {c for c in range(self.size) if env.beside_village >> c & 1}
        # portals: for each entry, its rule and the exits it may lead to
        self.rule = {}
        self.exits = {}
        for e, colour in self.portals.items():
            rule = env.scenario.portal_rule(colour)
            self.rule[e] = rule
            if rule.destination == "twin":
                self.exits[e] = sorted(
                    c for c, col in self.portals.items() if c != e and col == colour
                )
            else:
                self.exits[e] = sorted(c for c in self.portals if c != e)
        self.pairs = sorted({(q, e) for e, qs in self.exits.items() for q in qs})
        ring = env.ring
        self.el = {name: ring.index(name) for name in ring}
        self.free_cells = [
            c for c in range(self.size) if c not in self.static and c not in self.portals
        ]

    # ---- states --------------------------------------------------------------------------
    def concrete(self, walk) -> Sym:
        """A constant :class:`Sym` for an engine walk."""
        dragons, _water, _fire, rocks = walk
        env = self.env
        pos, face, life, fire, link = [], [], [], [], []
        for d in dragons:
            tiles = [const(c) for c in d.cells] + [{} for _ in range(N_TILES - len(d.cells))]
            pos.append(tiles)
            face.append(const(env.facing(d)) if d.alive else {})
            life.append(const((len(d.cells) - 2) * self.cap + d.water if d.alive else 0))
            fire.append(const(d.fire))
            gaps = [{} for _ in range(N_GAPS)]
            for i, q, e in d.links:
                gaps[i] = const((q, e))
            link.append(gaps)
        hits = dict(rocks)
        rk = {r: const(hits.get(r, 0)) for r in self.rock_cells}
        return Sym(pos, face, life, fire, link, rk)

    def free(self) -> Sym:
        """A state of fresh variables over every value (for the conformance tests): pin it
        with :meth:`pin`."""
        g = self.g

        def fresh(values):
            return {v: g.var() for v in values}

        pos = [[fresh(self.free_cells) for _ in range(N_TILES)] for _ in range(2)]
        face = [fresh(range(4)) for _ in range(2)]
        life = [fresh(range(self.max_life + 1)) for _ in range(2)]
        fire = [fresh(range(self.cap + 1)) for _ in range(2)]
        link = [[fresh(self.pairs) for _ in range(N_GAPS)] for _ in range(2)]
        rocks = {r: fresh(range(3)) for r in self.rock_cells}
        return Sym(pos, face, life, fire, link, rocks)

    def pin(self, S: Sym, walk) -> list[int]:
        """Assumptions that set the free state ``S`` to ``walk`` (don't-cares set false)."""
        C = self.concrete(walk)
        out = []

        def put(sym: dict, val: dict):
            for v, x in sym.items():
                out.append(x if val.get(v, False) is True else -x)

        for k in range(2):
            for j in range(N_TILES):
                put(S.pos[k][j], C.pos[k][j])
            put(S.face[k], C.face[k] or const(0))
            put(S.life[k], C.life[k])
            put(S.fire[k], C.fire[k])
            for j in range(N_GAPS):
                put(S.link[k][j], C.link[k][j])
        for r in self.rock_cells:
            put(S.rocks[r], C.rocks[r])
        return out

    # ---- derived values ------------------------------------------------------------------
    def alive_tile(self, S: Sym, k: int, j: int):
        if j == 0:
            return True
        lo = self.cap * (j - 1) + 1
        return self.g.ORs([x for v, x in S.life[k].items() if v >= lo])

    def alive(self, S: Sym, k: int):
        return self.alive_tile(S, k, 1)

    def segs_is(self, S: Sym, k: int, j: int):
        if j == 0:
            return S.life[k].get(0, False)
        lo, hi = self.cap * (j - 1) + 1, self.cap * j
        return self.g.ORs([x for v, x in S.life[k].items() if lo <= v <= hi])

    def water(self, S: Sym, k: int) -> dict:
        acc: dict = {}
        for v, x in S.life[k].items():
            w = 0 if v == 0 else (v - 1) % self.cap + 1
            acc.setdefault(w, []).append(x)
        return {w: self.g.ORs(xs) for w, xs in acc.items()}

    def tiles(self, S: Sym, k: int) -> dict:
        """``Env.tiles``: the dragon's cells and the portals it occupies."""
        g = self.g
        acc: dict = {}
        for j in range(N_TILES):
            a = self.alive_tile(S, k, j)
            if a is False:
                continue
            for c, x in S.pos[k][j].items():
                acc.setdefault(c, []).append(g.AND(a, x))
        for j in range(N_GAPS):
            a = self.alive_tile(S, k, j + 1)
            if a is False:
                continue
            for (q, e), x in S.link[k][j].items():
                y = g.AND(a, x)
                acc.setdefault(q, []).append(y)
                acc.setdefault(e, []).append(y)
        return clean({c: g.ORs(xs) for c, xs in acc.items()})

    def targets(self, S: Sym, k: int) -> dict:
        """``Env.targets``: what counts as ``k``'s dragon for bites and breath."""
        t = self.tiles(S, k)
        if k == self.protector:
            t = dict(t)
            for c in self.village:
                t[c] = True
        return t

    def occupancy(self, S: Sym) -> dict:
        """``core.occupancy``: cells a step cannot enter (dragon tiles and fixed tiles)."""
        g = self.g
        a, b = self.tiles(S, 0), self.tiles(S, 1)
        occ = {c: g.OR(a.get(c, False), b.get(c, False)) for c in a.keys() | b.keys()}
        for c in self.static:
            occ[c] = True
        return clean(occ)

    def ruler_blockers(self, S: Sym) -> dict:
        """What stops the ruler of an expel (``core._absorb_or_expel``): the occupancy, the
        portals and the rocks still standing."""
        g = self.g
        occ = dict(self.occupancy(S))
        for p in self.portals:
            occ[p] = True
        for r, x in self.rock_present(S).items():
            occ[r] = g.OR(occ.get(r, False), x)
        return occ

    def rock_present(self, S: Sym) -> dict:
        g = self.g
        return clean({r: g.OR(h.get(1, False), h.get(2, False)) for r, h in S.rocks.items()})

    def tail_at(self, S: Sym, k: int) -> dict:
        """Where the tail exception of the tail-first step holds: the dragon's last tile,
        when it has at least two segments (``core.steps``)."""
        if not self.tail_first:
            return {}
        g = self.g
        acc: dict = {}
        for j in (2, 3):
            s = self.segs_is(S, k, j)
            if s is False:
                continue
            for c, x in S.pos[k][j].items():
                acc.setdefault(c, []).append(g.AND(s, x))
        return clean({c: g.ORs(xs) for c, xs in acc.items()})

    def cell_rules(self, S: Sym, k: int):
        """For dragon ``k`` in ``S``: ``okcell[c]`` (a step may end its first move on ``c``)
        and ``avail[(e, q, x)]`` (entering the free portal ``e`` may come out of ``q`` onto
        ``x``), as in ``core.steps`` / ``core._portal_steps``."""
        g = self.g
        occ = self.occupancy(S)
        tail = self.tail_at(S, k)
        rocks = self.rock_present(S)
        ok = {}
        for c in range(self.size):
            if c in self.portals:
                continue
            ok[c] = neg(g.AND(occ.get(c, False), neg(tail.get(c, False))))
        avail = {}
        for e in self.portals:
            rule = self.rule[e]
            free_e = neg(occ.get(e, False))
            cost = True
            if rule.cost == "fire":
                cost = neg(S.fire[k].get(0, False))
            opts = []
            for q in self.exits[e]:
                free_q = neg(occ.get(q, False))
                for x in self.nbr[q]:
                    if x < 0 or x in self.portals:
                        continue
                    blocked = g.OR(occ.get(x, False), rocks.get(x, False))
                    lit = g.AND(free_e, cost, free_q, neg(g.AND(blocked, neg(tail.get(x, False)))))
                    if lit is not False:
                        avail[(e, q, x)] = lit
                        opts.append(lit)
            ok[e] = g.ORs(opts)
        return ok, avail

    def step_ok(self, S: Sym, k: int, ok: dict) -> dict:
        """For each direction: a step that way is legal."""
        g = self.g
        head = S.pos[k][0]
        out = {}
        for d in range(4):
            terms = []
            for c, x in head.items():
                t = self.nbr[c][d]
                if t >= 0:
                    terms.append(g.AND(x, ok[t]))
            out[d] = g.ORs(terms)
        return out

    # ---- damage ----------------------------------------------------------------------------
    def damage(self, life: dict, dmg: dict) -> dict:
        """``core.damage`` on life: ``max(0, life - dmg)``; ``dmg`` one-hot over 1.., none
        meaning 0."""
        g = self.g
        dmg = clean({d: x for d, x in dmg.items() if d > 0})
        if not dmg:
            return life
        none = neg(g.ORs(list(dmg.values())))
        acc: dict = {}
        for u, x in life.items():
            acc.setdefault(u, []).append(g.AND(x, none))
            for d, y in dmg.items():
                acc.setdefault(max(0, u - d), []).append(g.AND(x, y))
        return clean({v: g.ORs(xs) for v, xs in acc.items()})

    def sum_onehot(self, a: dict, b: dict, cond=True) -> dict:
        g = self.g
        acc: dict = {}
        for u, x in a.items():
            for v, y in b.items():
                acc.setdefault(u + v, []).append(g.AND(cond, x, y))
        return clean({s: g.ORs(xs) for s, xs in acc.items()})

    def centre(self, S: Sym, kind: str) -> dict:
        """The centre's water or fire: the stones the two meters leave."""
        g = self.g
        if kind == "water":
            a, b, total = self.water(S, 0), self.water(S, 1), self.total_water
        else:
            a, b, total = S.fire[0], S.fire[1], self.total_fire
        acc: dict = {}
        for u, x in a.items():
            for v, y in b.items():
                acc.setdefault(total - u - v, []).append(g.AND(x, y))
        return clean({s: g.ORs(xs) for s, xs in acc.items()})

    # ---- one step ----------------------------------------------------------------------------
    def step(self, S: Sym, k: int, dsel: dict, avail: dict) -> tuple[Sym, object]:
        """``core.steps`` for the direction selected by ``dsel`` (one-hot, or all false for no
        step). Portal exits are free choices. Returns the new state and the literal "a step
        was taken"."""
        g = self.g
        dsel = clean(dsel)
        if not dsel:
            return S, False
        stepped = g.ORs(list(dsel.values()))
        head = S.pos[k][0]
        acc: dict = {}
        for d, s in dsel.items():
            for c, x in head.items():
                t = self.nbr[c][d]
                if t >= 0:
                    y = g.AND(s, x)
                    if y is not False:
                        acc.setdefault(t, []).append(y)
        tgt = {t: g.ORs(xs) for t, xs in acc.items()}
        new_head: dict = {}
        new_face: dict = {}
        through = []
        px_by_pair: dict = {}
        blue, red = [], []
        for t, x in tgt.items():
            if t not in self.portals:
                new_head.setdefault(t, []).append(x)
                continue
            # through the free portal t: choose an available exit (a free choice)
            through.append(x)
            rule = self.rule[t]
            if rule.cost == "water":
                blue.append(x)
            elif rule.cost == "fire":
                red.append(x)
            opts = []
            for (e, q, c), a in avail.items():
                if e != t:
                    continue
                p = g.choice()
                g.implies(p, x)
                g.implies(p, a)
                opts.append(p)
                new_head.setdefault(c, []).append(p)
                new_face.setdefault(self.env.geo.direction[(q, c)], []).append(p)
                px_by_pair.setdefault((q, e), []).append(p)
            g.clause([neg(x), *opts])
            g.amo(opts)
        thru = g.ORs(through)
        for d, s in dsel.items():
            new_face.setdefault(d, []).append(g.AND(s, neg(thru)))
        head2 = clean({c: g.ORs(xs) for c, xs in new_head.items()})
        face2 = clean({d: g.ORs(xs) for d, xs in new_face.items()})
        link0 = clean({p: g.ORs(xs) for p, xs in px_by_pair.items()})
        T = S.copy()
        T.pos[k][0] = ite_onehot(g, stepped, head2, S.pos[k][0])
        for j in range(N_TILES - 1):
            T.pos[k][j + 1] = ite_onehot(g, stepped, S.pos[k][j], S.pos[k][j + 1])
        T.face[k] = ite_onehot(g, stepped, face2, S.face[k])
        T.link[k][0] = ite_onehot(g, stepped, link0, S.link[k][0])
        for j in range(N_GAPS - 1):
            T.link[k][j + 1] = ite_onehot(g, stepped, S.link[k][j], S.link[k][j + 1])
        # trampling a breakable rock: it goes, the dragon takes what it had left
        dmg: dict = {}
        for r in self.rock_cells:
            x = tgt.get(r, False)
            if x is False:
                continue
            h = S.rocks[r]
            for v in (1, 2):
                if v in h:
                    dmg.setdefault(v, []).append(g.AND(x, h[v]))
            T.rocks[r] = ite_onehot(g, x, const(0), h)
        if blue:  # the blue portal costs one water stone, as damage
            dmg.setdefault(1, []).append(g.ORs(blue))
        if red:  # the red portal costs one fire stone
            r = g.ORs(red)
            f = S.fire[k]
            T.fire[k] = clean(
                {v: g.ITE(r, f.get(v + 1, False), f.get(v, False)) for v in range(self.cap + 1)}
            )
        if dmg:
            T.life[k] = self.damage(S.life[k], {v: g.ORs(xs) for v, xs in dmg.items()})
        return T, stepped

    def legal(self, S: Sym, k: int, E: dict) -> Legal:
        """What ``core.executions`` checks first, for the element ``E`` (one-hot) and dragon
        ``k``: see :class:`Legal`."""
        g = self.g
        el = self.el
        F = S.face[k]
        vert = g.OR(F.get(0, False), F.get(2, False))
        horiz = g.OR(F.get(1, False), F.get(3, False))
        e_he, e_ea = E.get(el["heaven"], False), E.get(el["earth"], False)
        e_wi, e_th = E.get(el["wind"], False), E.get(el["thunder"], False)
        e_la, e_mo = E.get(el["lake"], False), E.get(el["mountain"], False)
        e_fi, e_wa = E.get(el["fire"], False), E.get(el["water"], False)
        ok, avail = self.cell_rules(S, k)
        okd = self.step_ok(S, k, ok)
        allow = {}
        for d in range(4):
            vertical = d % 2 == 0
            allow[d] = g.OR(
                g.AND(e_he, F.get(d, False)) if vertical else False,
                g.AND(e_ea, F.get(d, False)) if not vertical else False,
                g.AND(e_wi, vert) if not vertical else False,
                g.AND(e_th, horiz) if vertical else False,
                g.AND(e_la, vert),
                g.AND(e_mo, horiz),
                e_fi,
                e_wa,
            )
        stay = g.OR(g.AND(e_la, horiz), g.AND(e_mo, vert))
        can = {d: g.AND(allow[d], okd[d]) for d in range(4)}
        possible = g.OR(stay, *can.values())
        elements = {
            "heaven": e_he,
            "earth": e_ea,
            "wind": e_wi,
            "thunder": e_th,
            "lake": e_la,
            "mountain": e_mo,
            "fire": e_fi,
            "water": e_wa,
        }
        return Legal(elements=elements, avail=avail, can=can, stay=stay, possible=possible)

    # ---- one action --------------------------------------------------------------------------
    def action(self, S: Sym, k: int, E: dict, active):
        """``core.executions`` of the element ``E`` (one-hot over ring indices) by dragon
        ``k``, if ``active``. Returns ``(state, possible, info)``: ``possible`` is the
        literal "the element has an execution" (under ``active``); the state is unchanged when
        it has none. Every execution is admitted (the choices are free variables)."""
        g = self.g
        E = clean(E)
        if not E or active is False:
            return S, False, {}
        legal = self.legal(S, k, E)
        e = legal.elements
        e_he, e_ea, e_wi, e_th = e["heaven"], e["earth"], e["wind"], e["thunder"]
        e_la, e_mo, e_fi, e_wa = e["lake"], e["mountain"], e["fire"], e["water"]
        avail, can, stay, possible = legal.avail, legal.can, legal.stay, legal.possible
        doit = g.AND(active, possible)
        D = {}
        for d in range(4):
            c = g.AND(doit, can[d])
            if c is False:
                continue
            v = g.choice()
            g.implies(v, c)
            D[d] = v
        g.clause([neg(doit), stay, *D.values()])
        g.amo(list(D.values()))
        S1, moved = self.step(S, k, D, avail)
        # Heaven / Earth: an optional second step straight on (the facing after the first)
        two = g.AND(g.OR(e_he, e_ea), moved, self.alive(S1, k))
        M2 = False
        S2 = S1
        if two is not False:
            ok1, avail1 = self.cell_rules(S1, k)
            okd1 = self.step_ok(S1, k, ok1)
            ok2 = g.ORs([g.AND(S1.face[k].get(d, False), okd1[d]) for d in range(4)])
            c2 = g.AND(two, ok2)
            if c2 is not False:
                M2 = g.choice()
                g.implies(M2, c2)
                D2 = {d: g.AND(M2, x) for d, x in S1.face[k].items()}
                S2, _ = self.step(S1, k, D2, avail1)
        other = 1 - k
        alive2 = self.alive(S2, k)
        T = S2.copy() if S2 is not S else S.copy()
        dmg_other: dict = {}
        # the bite (core._bite): after Heaven, Earth, Wind, Thunder, Lake, Mountain
        biting = g.OR(e_he, e_ea, e_wi, e_th, e_la, e_mo)
        bite_on = g.AND(doit, biting, alive2, g.OR(moved, self.bite_on_stay))
        if bite_on is not False:
            prey = self.targets(S, other)
            acc: dict = {}
            for c, x in S2.pos[k][0].items():
                for d, y in S2.face[k].items():
                    f = self.nbr[c][d]
                    if f >= 0:
                        acc.setdefault(f, []).append(g.AND(x, y))
            front = clean({f: g.ORs(xs) for f, xs in acc.items()})
            hit = g.AND(bite_on, g.ORs([g.AND(x, prey.get(f, False)) for f, x in front.items()]))
            dmg_other.setdefault(1, []).append(hit)
            for r in self.rock_cells:
                x = front.get(r, False)
                if x is False:
                    continue
                b = g.AND(bite_on, neg(hit), x)
                h = T.rocks[r]
                T.rocks[r] = clean(
                    {
                        v: g.ITE(
                            b,
                            h.get(v + 1, False)
                            if v > 0
                            else g.OR(h.get(0, False), h.get(1, False)),
                            h.get(v, False),
                        )
                        for v in range(3)
                    }
                )
        # Fire and Water (core._absorb_or_expel)
        fw = g.AND(doit, g.OR(e_fi, e_wa), alive2)
        X = False
        if fw is not False:
            X = g.choice()
            g.implies(X, fw)
            absorb = g.AND(fw, neg(X))
            expel = g.AND(fw, X)
            # absorb: one stone from the centre if the meter has room
            fire = S2.fire[k]
            cf = self.centre(S2, "fire")
            take_f = g.AND(absorb, e_fi, neg(fire.get(self.cap, False)), neg(cf.get(0, False)))
            water = self.water(S2, k)
            cw = self.centre(S2, "water")
            take_w = g.AND(absorb, e_wa, neg(water.get(self.cap, False)), neg(cw.get(0, False)))
            life = S2.life[k]
            T.life[k] = clean(
                {
                    v: g.ITE(take_w, life.get(v - 1, False) if v > 0 else False, life.get(v, False))
                    for v in range(self.max_life + 1)
                }
            )
            newfire = {
                v: g.ITE(take_f, fire.get(v - 1, False) if v > 0 else False, fire.get(v, False))
                for v in range(self.cap + 1)
            }
            # expel: the ruler from the new head, in the facing of the step
            occ = self.ruler_blockers(S2)
            prey = self.targets(S, other)
            best, rock_hits = self.ruler(S2, k, occ, prey, expel)
            bonus_f = {v: g.AND(e_fi, x) for v, x in fire.items()}
            bonus_w = {v: g.AND(e_wa, x) for v, x in cw.items()}
            bonus = {}
            for v in set(bonus_f) | set(bonus_w):
                bonus[v] = g.OR(bonus_f.get(v, False), bonus_w.get(v, False))
            for v, xs in self.sum_onehot(best, clean(bonus)).items():
                dmg_other.setdefault(v, []).append(xs)
            for r, hv in rock_hits.items():
                h = T.rocks[r]
                nh: dict = {}
                none = neg(g.ORs(list(hv.values())))
                for u, x in h.items():
                    nh.setdefault(u, []).append(g.AND(x, none))
                    for v, y in hv.items():
                        nh.setdefault(max(0, u - v), []).append(g.AND(x, y))
                T.rocks[r] = clean({u: g.ORs(xs) for u, xs in nh.items()})
            # a fire expel returns every fire stone, hit or miss
            spend = g.AND(expel, e_fi)
            T.fire[k] = clean(
                {v: g.ITE(spend, v == 0, newfire.get(v, False)) for v in range(self.cap + 1)}
            )
        if dmg_other:
            T.life[other] = self.damage(
                S2.life[other], {v: g.ORs(xs) for v, xs in dmg_other.items()}
            )
        info = {"moves": D, "second": M2, "expel": X, "possible": possible}
        return T, possible, info

    def ruler(self, S: Sym, k: int, occ: dict, prey: dict, on):
        """``core.ruler_hit`` / ``ruler_hits`` from ``k``'s head and facing: the best value
        reaching a ``prey`` cell (one-hot over values, absent = a miss) and, per breakable
        rock, the value reaching it."""
        g = self.g
        env = self.env
        hits: dict = {}
        rock_hits: dict = {}
        for c, x in S.pos[k][0].items():
            for f, y in S.face[k].items():
                hf = g.AND(on, x, y)
                if hf is False:
                    continue
                entries = env.ruler[c * 4 + f]
                for cell, value, blocked_by in entries:
                    if cell < 0:
                        continue
                    if any(entries[b][0] < 0 for b in blocked_by):
                        continue
                    reach = g.AND(hf, *(neg(occ.get(entries[b][0], False)) for b in blocked_by))
                    if reach is False:
                        continue
                    h = g.AND(reach, prey.get(cell, False))
                    if h is not False:
                        hits.setdefault(value, []).append(h)
                    if cell in S.rocks and value > 0:
                        rock_hits.setdefault(cell, {}).setdefault(value, []).append(reach)
        best = {}
        higher = []
        for v in sorted(hits, reverse=True):
            h = g.ORs(hits[v])
            best[v] = g.AND(h, *(neg(x) for x in higher))
            higher.append(h)
        rocks = {r: clean({v: g.ORs(xs) for v, xs in vs.items()}) for r, vs in rock_hits.items()}
        return clean(best), rocks


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
