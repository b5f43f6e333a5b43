"""One SAT search (:class:`SatSearch`): the encoder, the incremental solver, the refinements
and dead-end nogoods, the check of a candidate line in the engine, the short real searches and
the first-turn count; and :func:`eliminate`, each new layer's gates removed by bounded variable
elimination. :func:`.solver.solve` drives it."""

from __future__ import annotations

import functools
import threading
import time
from itertools import chain
from typing import ClassVar

import pysolvers
from pysat.solvers import Cadical195, Glucose4, Solver

from ...engine import State
from ...engine.core import executions
from ...engine.solo import choose_group
from ...engine.spirit import resolve_effects
from ..common import Budget, SolverError
from ..explicit import OutOfBudget, win_line_within, win_within
from . import monk
from .encode import Encoder
from .gates import Gates, neg
from .proof import BUDGET, LAYER, ProofLog

CHUNK = 20_000  # conflicts per solver call between time checks


class SatEncodingError(SolverError):
    """The SAT layer and the engine disagree on a turn the relaxation cannot explain: a bug
    in the encoding. Raised instead of returning an answer."""


class _Model:
    """Fast literal evaluation on a PySAT model."""

    def __init__(self, model):
        self.sign = bytearray(len(model) + 1)  # PySAT models list +-1 .. +-n in order
        for x in model:
            if x > 0:
                self.sign[x] = 1

    def __call__(self, lit) -> bool:
        if lit is True or lit is False:
            return lit
        v = abs(lit)
        s = self.sign[v] if v < len(self.sign) else 0
        return bool(s) if lit > 0 else not s


class SatSearch:
    """The state of one search: encoder, solver, refinements. :func:`solve` drives it; the
    tests use its pieces."""

    SEARCH_DEPTH = 4  # short real searches at spurious turns this close to the end
    SEARCH_FLOOR = 2  # ... lowered below a search out of budget, down to this
    SHORT_BUDGET = 10_000  # positions expanded by one short search
    LIFT_BUDGET = 2_000  # ... by one search from a dead end's ancestor (0: no lifting)
    LIFT_AFTER = 2  # ... from an ancestor once it is above this many dead ends
    SHORT_FROM = 1  # the first turn of a candidate a short search may start at
    # with a proof log, the short searches and lifts start at turn 2: a search from the start
    # would hand SAT a nogood for the very start and horizon being proved, and the DRAT proof
    # of that horizon would then add nothing to the explicit search
    PROOF_SHORT_FROM = 2
    # solo_lookahead -> whether the short searches and lifts run. Under "next-turn" the
    # policy looks over the player's whole next turn, so an expansion costs much more and the
    # searches cost more than the refinements they spare
    SEARCHES: ClassVar[dict[str, bool]] = {"matter": True, "next-turn": False}

    def __init__(
        self,
        start: State,
        solver_name: str = "g4",
        *,
        encoder=None,
        sat=None,
        log: ProofLog | None = None,
    ):
        """A new search from ``start``; ``encoder`` (with its gates) and ``sat`` (a PySAT
        solver holding its clauses) let the one-turn checks reuse the refinement code; ``log``
        keeps every clause handed to the solver, and what each refinement and nogood means."""
        self.start = start
        self.env = start.tables
        self.enc = encoder if encoder is not None else Encoder(start, Gates())
        self.g = self.enc.g
        self.solver_name = solver_name
        kwargs = (
            {"incr": True} if solver_name in ("g3", "g4", "glucose3", "glucose4", "g41") else {}
        )
        self.sat = sat if sat is not None else Solver(name=solver_name, **kwargs)
        self._add_clause = _clause_adder(self.sat)
        self.log = log
        self.refinements: list[tuple] = []  # (kind, data)
        self._keys: set = set()
        self.lookahead = start.rules.option("solo_lookahead")
        self.player = start.mover
        self.ply0 = start.ply
        self.encode_seconds = 0.0
        self.sat_seconds = 0.0
        self.calls = 0
        self.seeded = 0
        self.nogoods: list[tuple] = []
        self.params = self.enc.params
        searches = self.SEARCHES[self.lookahead]
        self.search_depth = self.SEARCH_DEPTH if searches else 0
        self.lift_budget = self.LIFT_BUDGET if searches else 0
        self.short_budget = self.SHORT_BUDGET
        self.short_timeouts = 0
        # short real searches at spurious turns from this turn on; with a proof log, never from
        # the start (:attr:`PROOF_SHORT_FROM`)
        self.short_from = self.SHORT_FROM if log is None else self.PROOF_SHORT_FROM
        self.lift_depth = None  # no ancestor searched deeper (lowered below one out of budget)
        self.lifted = 0  # dead-end nogoods proved at the ancestors of a dead end
        self.lift_timeouts = 0
        self._below: dict = {}  # position key -> dead ends met below it
        self._no_win_within: dict = {}  # position key -> most turns proved not to win in
        self.count_seconds = 0.0
        self.count_calls = 0
        self.count_explicit = 0  # first positions the explicit bounded search settled
        self.spurious_left: dict[int, int] = {}  # turns left at a candidate's first fake turn
        self.eliminated = 0  # variables eliminated so far

    def close(self):
        self.sat.delete()

    def append(self, clauses, kind: str = "layer", label: str = "") -> None:
        """Hand ``clauses`` to the SAT solver (:func:`_clause_adder`); with a :attr:`log`,
        keep them too, as ``kind`` (:data:`.proof.KINDS`) described by ``label``."""
        if self.log is not None:
            self.log.record(kind, label, clauses)
        add = self._add_clause
        for clause in clauses:
            add(clause)

    # ---- solver calls ------------------------------------------------------------------------
    def call(self, goal, chunk: int, deadline: float | None):
        """One bounded call under the assumption ``goal``: True, False, or None when the
        ``chunk`` of conflicts or the time ran out (Glucose and the other MiniSat-family solvers
        are interrupted at the deadline; CaDiCaL has no ``interrupt()``, so its chunk is
        smaller)."""
        if goal is False:
            return False
        if isinstance(goal, list):
            assumptions = [x for x in goal if x is not True]
            if False in assumptions:
                return False
        else:
            assumptions = [] if goal is True else [goal]
        sat = self.sat
        timer = None
        if self.solver_name.startswith(("cd", "cadical")):
            chunk = min(chunk, CHUNK // 10)
        elif deadline is not None:
            timer = threading.Timer(max(0.0, deadline - time.perf_counter()), sat.interrupt)
            timer.daemon = True
            timer.start()
        sat.conf_budget(chunk)
        t1 = time.perf_counter()
        try:
            status = sat.solve_limited(assumptions=assumptions, expect_interrupt=timer is not None)
        finally:
            if timer is not None:
                timer.cancel()
                sat.clear_interrupt()
        self.sat_seconds += time.perf_counter() - t1
        self.calls += 1
        return status

    # ---- layers and refinements -------------------------------------------------------------
    def add_layer(self):
        t0 = time.perf_counter()
        n0v = self.g.pool.top
        L = self.enc.add_layer()
        t = len(self.enc.layers) - 1
        for ref in self.refinements:
            self._apply(ref, t)
        for nogood in self.nogoods:
            if t - nogood[2] >= 0:
                self._apply_nogood(nogood, t - nogood[2])
        label = self.log and (
            f"layer {t}: turn {t}'s gates with the {len(self.refinements)} refinements and "
            f"{len(self.nogoods)} dead-end nogoods known then, variables eliminated"
        )
        self._flush(t0, n0v, "layer", label)
        if self.log is not None:
            self.log.step(LAYER)
        return L

    def _flush(self, t0: float, n0v: int | None = None, kind="layer", label="") -> None:
        """Hand the clauses built since ``t0`` to the solver (:meth:`append`, as ``kind`` and
        ``label``), the time to ``encode_seconds``; with ``n0v`` (the last variable before a
        new layer) through :func:`eliminate`."""
        clauses = self.g.take()
        if n0v is not None:
            clauses, gone = eliminate(self.g, self.enc.layers, clauses, n0v)
            self.eliminated += gone
        self.append(clauses, kind, label)
        self.encode_seconds += time.perf_counter() - t0

    def damage_budget(self, k: int) -> None:
        """The horizon's :meth:`.encode.Encoder.damage_budget`, under ``won_k``."""
        t0 = time.perf_counter()
        self.enc.damage_budget(k)
        self._flush(t0, kind="damage-budget", label=self.log and f"damage budget under won_{k}")
        if self.log is not None:
            self.log.step(BUDGET)

    def _apply(self, ref, t: int) -> None:
        """Add refinement ``ref`` at turn ``t`` (pre-state layer ``t - 1``)."""
        enc, g = self.enc, self.g
        L, prev = enc.layers[t], enc.layers[t - 1]
        kind = ref[0]
        if kind in ("group", "focus"):
            _, walk, sig, after, allowed = ref
            if after is not None:
                b = L.bagua_is(g, after)
                if b is False:
                    return
            else:
                b = True
            if kind == "group":
                places = [(L.pre_group, L.sig.get(sig, False), L.post_group)]
            else:  # the opponent's Focus, in each slot it may take (.monk)
                key = (sig[0][0], sig[1])
                places = [(f.pre, f.lits.get(key, False), f.post) for f in L.focus_slots]
            for before, s, after_it in places:
                if s is False:
                    continue
                pre = enc.eq_walk(before, walk)
                if pre is False:
                    continue
                posts = [enc.eq_walk(after_it, w) for w in allowed]
                g.clause([*(neg(c) for c in (pre, s, b)), *posts])
        else:  # "penalty": no penalty from this (walk, Ba Gua)
            _, walk, bagua = ref
            if L.penalty is False:
                return
            at = _at(enc, g, prev, walk, bagua)
            if at is not None:
                g.clause([*at, -L.penalty])

    def refine(self, ref, bagua=None) -> bool:
        """Store ``ref`` (found with ``bagua`` on the spaces) and add it at every layer; False
        if it was already known."""
        key = ref[:4] if ref[0] in ("group", "focus") else ref
        if key in self._keys:
            return False
        self._keys.add(key)
        label = self.log and f"refinement {len(self.refinements)} ({ref[0]}), at every layer"
        self.refinements.append(ref)
        if self.log is not None:
            self.log.refinement(ref, bagua)
        t0 = time.perf_counter()
        for t in range(1, len(self.enc.layers)):
            self._apply(ref, t)
        self._flush(t0, kind="refinement", label=label)
        return True

    def group_ref(self, walk, bagua, space):
        """The refinement for the opponent's group at (walk, Ba Gua, space), None without a
        group (Grasshopper)."""
        new, group, element = self.enc.sowings(bagua)[space]
        if not group:
            return None
        return self.policy_ref("group", walk, group, element, new)

    def policy_ref(self, kind: str, walk, group, element: int, after):
        """The refinement ``(kind, walk, (group, element), after, allowed)``: from ``walk``
        the opponent's policy (``solo.choose_group``) performs ``group`` (a ``"focus"``: its
        Focus, a group of one) ending in one of ``allowed`` when the player's element is
        ``element``; ``after`` (the configuration after the sowing) is kept under the
        next-turn lookahead only, which reads it."""
        after = after if self.lookahead == "next-turn" else None
        chosen = choose_group(
            self.env,
            walk,
            self.enc.opp,
            group,
            pending=element,
            after=None if after is None else self.enc.split(after),
            lookahead=self.lookahead,
        )
        allowed = tuple(sorted({w for _, w in chosen}, key=repr))
        return (kind, walk, (group, element), after, allowed)

    def position_refs(self, state: State) -> list:
        """Every refinement the opponent's policy needs for one turn from ``state``: its group
        for each space (Grasshopper); from Monk on, for each way to sow, its Focus and its
        group after each outcome of the effects (``spirit.resolve_effects``)."""
        walk = state.board
        if not self.enc.explicit:
            refs = [
                self.group_ref(walk, state.bagua, space) for space in self.enc.sowings(state.bagua)
            ]
            return [ref for ref in refs if ref is not None]
        refs = []
        for tr in monk.transitions(self.env, self.enc.config_of(state), self.player):

            def policy(w, colour, space, outs, tr=tr):
                if colour == self.player:
                    return outs
                ref = self.policy_ref("focus", w, (space,), tr.element, tr.after)
                refs.append(ref)
                return [o for o in outs if o.walk in ref[4]]

            for w, _ in resolve_effects(self.env, walk, tr.effects, policy):
                if tr.group and w[0][0].alive and w[0][1].alive:
                    refs.append(self.policy_ref("group", w, tr.group, tr.element, tr.after))
        return refs

    def broken_refs(self, walk, config, decoded) -> list:
        """The refinements the decoded turn from (``walk``, ``config``) breaks: its
        opponent's group (and from Monk on its Focus) ending where the policy would not."""
        if not self.enc.explicit:
            ref = self.group_ref(walk, config, decoded.space)
            return [ref] if ref is not None and decoded.post_group not in ref[4] else []
        group, element = decoded.signature
        out = []
        for pre, space, post in decoded.focus:
            if (
                pre[0][0].alive
                and pre[0][1].alive
                and executions(self.env, pre, self.enc.opp, space)
            ):
                ref = self.policy_ref("focus", pre, (space,), element, decoded.bagua)
                if post not in ref[4]:
                    out.append(ref)
        pre = decoded.pre_group
        if group and pre[0][0].alive and pre[0][1].alive:
            ref = self.policy_ref("group", pre, group, element, decoded.bagua)
            if decoded.post_group not in ref[4]:
                out.append(ref)
        return out

    def seed(self, state: State) -> None:
        """Refinements for every way to sow from ``state`` (the start): its policy's choices
        are known (:meth:`position_refs`)."""
        for ref in self.position_refs(state):
            if self.refine(ref, state.bagua):
                self.seeded += 1

    # ---- checking a candidate --------------------------------------------------------------
    def short_win(self, state: State, r: int):
        """A real line winning within ``r`` turns from ``state`` (:meth:`_search`; the
        positions proved to have no win within r turns are remembered across calls), None if
        there is none; None too, without a nogood, when the budget runs out
        (:attr:`short_budget` expansions), which also lowers :attr:`search_depth` to
        ``r - 1`` if ``r`` is above :attr:`SEARCH_FLOOR`."""
        found = self._search(state, r, self.short_budget)
        if found is _NOT_SEARCHED:
            self.short_timeouts += 1
            if self.SEARCH_FLOOR < r <= self.search_depth:
                self.search_depth = r - 1  # too deep for this challenge: search shallower
        return found

    def _search(self, state: State, r: int, budget: int):
        """The explicit solver's exact depth-first search (:func:`~..explicit.win_line_within`,
        its memo shared by every search of this one), ``_NOT_SEARCHED`` past ``budget``
        expansions."""
        try:
            line = win_line_within(state, r, self.params, Budget(None, budget), self._no_win_within)
        except OutOfBudget:
            return _NOT_SEARCHED
        return None if line is None else [str(turn) for turn in line]

    def lift(self, path, r: int):
        """After a dead end ``r`` turns from the end at ``path[-1]`` (``path``: the real
        positions of a candidate line, one before each turn, from the start): the same fact
        for its ancestors, nearest first, ``path[i]`` searched ``r + len(path) - 1 - i`` turns
        deep. An ancestor is searched once it has been above :attr:`LIFT_AFTER` dead ends
        (one seen once is skipped, the climb goes on above it); a search has
        :attr:`lift_budget` expansions (:attr:`LIFT_BUDGET`, 0 where :attr:`SEARCHES` says
        no), and one out of budget stops the climb and caps later ones one turn shallower.
        Each ancestor proved adds its own dead-end nogood, which cuts every candidate through
        it, where the dead end cut only the ones through one of its descendants.

        Returns ``(nogoods added, win)``: ``win`` is None, or ``(i, suffix)`` when ``path[i]``
        turns out to win within its depth (the climb stops there): the line to ``path[i]``
        plus ``suffix`` is a real win. The climb stops above :attr:`short_from` (the
        first-turn count blocks first positions)."""
        added = 0
        for i in range(len(path) - 2, self.short_from - 2, -1):
            depth = r + len(path) - 1 - i
            if not self.lift_budget or (self.lift_depth is not None and depth > self.lift_depth):
                break
            st = path[i]
            key = st.key()
            self._below[key] = seen = self._below.get(key, 0) + 1
            if seen < self.LIFT_AFTER:
                continue
            found = self._search(st, depth, self.lift_budget)
            if found is _NOT_SEARCHED:
                self.lift_timeouts += 1
                self.lift_depth = depth - 1
                break
            if found is not None:
                return added, (i, found)
            new = self.dead_end(st.board, self.enc.config_of(st), depth)
            self.lifted += new
            added += new
        return added, None

    def dead_end(self, walk, bagua, r: int) -> int:
        """Store the nogood "from (walk, Ba Gua) no win within r turns" and add it at every
        layer (the real game's fact, true at every turn, so adding it is sound)."""
        key = ("dead", walk, bagua, r)
        if key in self._keys:
            return 0
        self._keys.add(key)
        label = self.log and f"dead-end nogood {len(self.nogoods)}: no win within {r} turns"
        self.nogoods.append((walk, bagua, r))
        if self.log is not None:
            self.log.dead_end(walk, bagua, r)
        for j in range(len(self.enc.layers) - r):
            self._apply_nogood((walk, bagua, r), j)
        self.append(self.g.take(), "dead-end", label)
        return 1

    def _apply_nogood(self, nogood, j: int) -> None:
        walk, bagua, r = nogood
        enc, g = self.enc, self.g
        at = _at(enc, g, enc.layers[j], walk, bagua)
        if at is not None:
            g.clause([*at, enc.layers[j].won, neg(enc.layers[j + r].won)])

    def count_first_turns(
        self, k: int, line, deadline: float | None, explicit_seconds: float = 0.0, bar=None
    ) -> int | None:
        """How many of the start's turns begin a win in ``k`` turns (``k`` the proved
        optimum, ``line`` the optimal line found): the explicit solver's
        ``optimal_first_turns``. The start's successors are grouped by position.

        First the explicit solver's exact bounded search (:func:`~..explicit.win_within`,
        sharing what the short searches proved) decides as many first positions as it can in
        ``explicit_seconds`` (one after the other, what it proved shared between them, as the
        explicit solver counts). The positions it did not settle go to SAT: the positions
        known to win, or known not to, are blocked at layer 1 under an activation literal and
        the CEGAR loop is asked again for a win in ``k`` from another one: each real line
        found adds its first position, an UNSAT answer proves that no other successor wins in
        ``k - 1`` more turns (the relaxation is sound). The count is the number of the
        start's turns that lead to a winning position. None when the time runs out. ``bar``
        (a tqdm bar or None) shows the first positions settled."""
        enc, g = self.enc, self.g
        t0 = time.perf_counter()
        start = self.start
        turns_to: dict = {}
        firsts: dict = {}
        for _turn, after in start.successors():
            turns_to.setdefault(after.key(), []).append(after)
            firsts.setdefault(after.key(), after)
        winning: set = {start.play(line[0]).key()}
        losing: set = set()

        def settled() -> None:
            if bar is not None:
                done = len(winning) + len(losing)
                bar.set_description(f"SAT optimal first turns: {done}/{len(firsts)} settled")
                bar.update(1)

        settled()
        budget = Budget(max(0.0, explicit_seconds), None)
        if deadline is not None:
            budget.deadline = min(budget.deadline, deadline)
        for key, after in firsts.items():
            if explicit_seconds <= 0:
                break
            if key in winning:
                continue
            try:
                won = win_within(after, k - 1, self.params, budget, self._no_win_within)
            except OutOfBudget:
                break
            (winning if won else losing).add(key)
            settled()
        self.count_explicit = len(winning) + len(losing) - 1  # the line's first is known
        if len(winning) + len(losing) == len(firsts):
            self.count_seconds += time.perf_counter() - t0
            return sum(len(turns_to[key]) for key in winning)

        L1 = enc.layers[1]
        act = g.var()

        def block(after: State) -> None:
            walk = after.board
            eq = g.AND(enc.eq_walk(L1.state, walk), L1.bagua_is(g, enc.config_of(after)))
            g.clause([-act, neg(eq)])
            self.append(g.take())

        for key in winning | losing:
            block(firsts[key])
        self.short_from = 2  # a short search at turn 1 could return a blocked first turn
        try:
            while True:
                status = None
                while status is None:
                    if deadline is not None and time.perf_counter() >= deadline:
                        return None
                    status = self.call([act, enc.layers[k].won], CHUNK, deadline)
                    self.count_calls += 1
                if status is False:
                    break
                found, _ = self.check(_Model(self.sat.get_model()), k)
                if found is None:
                    continue
                after = start.play(found[0])
                if after.key() in winning or after.key() in losing:
                    raise SatEncodingError("a blocked first turn came back in a SAT line")
                winning.add(after.key())
                settled()
                block(after)
        finally:
            self.short_from = self.SHORT_FROM if self.log is None else self.PROOF_SHORT_FROM
            self.count_seconds += time.perf_counter() - t0
        return sum(len(turns_to[key]) for key in winning if key in turns_to)

    def state_of(self, walk, config, ply) -> State:
        bagua, coin = self.enc.split(config)
        return State.compose(
            self.env, board=walk, bagua=bagua, coin=coin, mover=self.player, ply=ply
        )

    def check(self, value, k: int):
        """Check the candidate line of ``k`` turns. Returns ``(line, refined)``: the turns in
        notation if every turn is real, else None and the number of refinements added."""
        enc = self.enc
        prev_walk, prev_bagua = enc.start_walk, enc.config_of(self.start)
        path = []  # the position before each turn, while the line is real
        line = []
        refined = 0
        real = True
        for t in range(1, k + 1):
            decoded = enc.decode_layer(t, value)
            space, bagua, walk = decoded.space, decoded.bagua, decoded.walk
            pre = self.state_of(prev_walk, prev_bagua, self.ply0 + t - 1)
            if real:
                path.append(pre)
            want = self.state_of(walk, bagua, self.ply0 + t).key()
            match = None
            for turn, after in pre.successors():
                if after.key() == want:
                    match = turn
                    break
            if match is not None:
                line.append(str(match))
            else:
                r = k - t + 1
                if real:
                    self.spurious_left[r] = self.spurious_left.get(r, 0) + 1
                if r <= self.search_depth and t >= self.short_from:
                    # a short real search from this position: a real win finishes the line
                    # (when the prefix is real), none gives a dead-end nogood
                    found = self.short_win(pre, r)
                    if found is None:
                        refined += self.dead_end(prev_walk, prev_bagua, r)
                        if real:
                            added, win = self.lift(path, r)
                            refined += added
                            if win is not None:  # an ancestor wins: the line to it, then on
                                i, found = win
                                line = line[:i]
                    if isinstance(found, list) and real:
                        full = line + found
                        if len(full) != k:
                            raise SatEncodingError(
                                f"a real win in {len(full)} turns was found at horizon {k}: "
                                "an earlier UNSAT answer was wrong"
                            )
                        return full, 0
                real = False
                fixed = False
                for ref in self.broken_refs(prev_walk, prev_bagua, decoded):
                    fixed = True
                    refined += self.refine(ref, prev_bagua)
                if decoded.penalty and any(not t2.phases[0].penalty for t2, _ in pre.successors()):
                    fixed = True
                    refined += self.refine(("penalty", prev_walk, prev_bagua))
                if not fixed:
                    raise SatEncodingError(
                        f"turn {t} of a SAT candidate is not a legal turn from "
                        f"{pre.to_tln()!r} (sowing {space}, reaching "
                        f"{self.state_of(walk, bagua, 0).to_tln()!r}): encoding error"
                    )
            if value(enc.layers[t].won):
                break
            prev_walk, prev_bagua = walk, bagua
        if real:
            return line, 0
        if refined == 0:
            raise SatEncodingError("a spurious SAT candidate added no new refinement")
        return None, refined


# bounded variable elimination only: probing, vivification, equivalent-literal substitution
# and subsumption cost more time than they save here
ELIMINATE_OPTIONS = {"probe": False, "vivify": False, "decompose": False, "subsume": False}


def _at(enc, g: Gates, layer, walk, bagua) -> tuple | None:
    """The literals of a clause that holds unless ``layer`` is at the walk ``walk`` with the
    Ba Gua ``bagua`` (its walk, then its Ba Gua, each negated); None when it cannot be there."""
    b = layer.bagua_is(g, bagua)
    if b is False:
        return None
    eq = enc.eq_walk(layer.state, walk)
    if eq is False:
        return None
    return neg(eq), neg(b)


def eliminate(g: Gates, layers, clauses: list, n0v: int) -> tuple[list, int]:
    """The clauses of the newest layer (``layers[-1]``, every variable above ``n0v`` made
    for it) with the layer's own gates removed by bounded variable elimination (CaDiCaL's,
    ``pysat``'s ``process``), and how many variables went.

    Frozen: every variable older than the layer, and every literal a later clause or the
    decoding may read (:meth:`.encode.Layer.read_later`). The clauses returned are the projection of
    ``clauses`` on the variables that are left, so a formula that adds them instead has the
    same models on those variables: UNSAT answers stay proofs, and a model decodes to a line
    the full layer admits. The eliminated gates leave the structural-hashing cache (and the
    layers' Ba Gua equalities), so a later request builds them afresh; a clause added later
    never reads a variable that is gone. A layer that is contradictory on its own is returned
    as it is."""
    occurs = set(map(abs, chain.from_iterable(clauses)))
    keep = {v for v in occurs if v <= n0v}
    keep.update(v for v in layers[-1].read_later() if v in occurs)
    with Cadical195() as proc:
        add, handle = pysolvers.cadical195_add_cl, proc.cadical  # bootstrap_with, unwrapped
        for c in clauses:
            add(handle, c)
        status, out = proc.process(freeze=sorted(keep), **ELIMINATE_OPTIONS)
    if status == 20:
        return clauses, 0
    # a frozen variable may leave the clauses too: fixed ones come back as units, the others
    # are free once the fixed ones satisfy their clauses, as they are in the full layer
    gone = occurs - set(map(abs, chain.from_iterable(out))) - keep
    cache = g.cache
    stale = []
    for key, v in reversed(cache.items()):  # the layer's gates are the newest entries
        if v <= n0v:
            break
        if v in gone:
            stale.append(key)
    for key in stale:
        del cache[key]
    for layer in layers:
        for key in [k for k, v in layer._eq.items() if abs(v) in gone]:
            del layer._eq[key]
    return out, len(gone)


def _clause_adder(sat):
    """The fastest way to add one clause to ``sat``: Glucose 4's own ``add_cl`` without
    PySAT's per-clause wrappers (which only record a status that a later ``solve`` sets
    again), else ``sat.add_clause``."""
    backend = getattr(sat, "solver", None)
    if type(backend) is Glucose4 and backend.glucose:
        return functools.partial(pysolvers.glucose41_add_cl, backend.glucose)
    return sat.add_clause


class _NotSearched:
    """The short search ran out of budget: neither a line nor a proof."""

    def __add__(self, other):  # pragma: no cover - never concatenated
        raise TypeError


_NOT_SEARCHED = _NotSearched()


__all__ = [
    "CHUNK",
    "ELIMINATE_OPTIONS",
    "SatEncodingError",
    "SatSearch",
    "eliminate",
]
