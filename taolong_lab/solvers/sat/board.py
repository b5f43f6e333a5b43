"""The board's part of a turn's circuit (:class:`Board`): a board state (:class:`Sym`: each
dragon's cells, facing, life, fire and portal links, and the rocks, one-hot as
:mod:`.encode` describes), and the engine's steps over it (:mod:`taolong_lab.engine.core`
function by function: the step, the element's execution, the bite, the ruler, the damage).
:class:`.encode.Encoder` puts a turn together from it.
"""

from __future__ import annotations

from typing import NamedTuple

from ...engine.core import Env
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
        it has none. Every execution is admitted (the choices are free variables). The gates
        are made in the engine's order: the step, the second step, the bite, Fire and Water."""
        g = self.g
        E = clean(E)
        if not E or active is False:
            return S, False, {}
        legal = self.legal(S, k, E)
        e = legal.elements
        e_he, e_ea, e_wi, e_th = e["heaven"], e["earth"], e["wind"], e["thunder"]
        e_la, e_mo, e_fi, e_wa = e["lake"], e["mountain"], e["fire"], e["water"]
        possible = legal.possible
        doit, D, S1, moved = self._first_step(S, k, legal, active)
        # Heaven / Earth: an optional second step straight on (the facing after the first)
        M2, S2 = self._second_step(S1, k, g.OR(e_he, e_ea), moved)
        other = 1 - k
        alive2 = self.alive(S2, k)
        T = S2.copy() if S2 is not S else S.copy()
        dmg_other: dict = {}
        # the bite (core._bite): after Heaven, Earth, Wind, Thunder, Lake, Mountain
        biting = g.OR(e_he, e_ea, e_wi, e_th, e_la, e_mo)
        bite_on = g.AND(doit, biting, alive2, g.OR(moved, self.bite_on_stay))
        if bite_on is not False:
            self._bite(S, S2, T, k, bite_on, dmg_other)
        # Fire and Water (core._absorb_or_expel)
        fw = g.AND(doit, g.OR(e_fi, e_wa), alive2)
        X = False
        if fw is not False:
            X = self._absorb_or_expel(S, S2, T, k, fw, (e_fi, e_wa), dmg_other)
        if dmg_other:
            T.life[other] = self.damage(
                S2.life[other], {v: g.ORs(xs) for v, xs in dmg_other.items()}
            )
        info = {"moves": D, "second": M2, "expel": X, "possible": possible}
        return T, possible, info

    def _first_step(self, S: Sym, k: int, legal: Legal, active):
        """The step of an execution: ``(doit, directions, state after, moved)``."""
        g = self.g
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
        return doit, D, S1, moved

    def _second_step(self, S1: Sym, k: int, heaven_or_earth, moved):
        """Heaven's and Earth's optional second step: ``(chosen, state after)``."""
        g = self.g
        two = g.AND(heaven_or_earth, moved, self.alive(S1, k))
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
        return M2, S2

    def _bite(self, S: Sym, S2: Sym, T: Sym, k: int, bite_on, dmg_other: dict) -> None:
        """``core._bite`` from ``S2``'s head: the prey's damage into ``dmg_other``, a rock's
        hit into ``T``."""
        g = self.g
        other = 1 - k
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
                        h.get(v + 1, False) if v > 0 else g.OR(h.get(0, False), h.get(1, False)),
                        h.get(v, False),
                    )
                    for v in range(3)
                }
            )

    def _absorb_or_expel(self, S: Sym, S2: Sym, T: Sym, k: int, fw, fire_water, dmg_other):
        """``core._absorb_or_expel`` into ``T`` and ``dmg_other``; the choice literal
        (true: expel)."""
        g = self.g
        other = 1 - k
        e_fi, e_wa = fire_water
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
        return X

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


__all__ = ["N_GAPS", "N_TILES", "Board", "Legal", "Sym"]
