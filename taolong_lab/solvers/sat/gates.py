"""A small Tseitin gate layer: structural hashing, constant folding, one ``IDPool``.

A *literal* is a non-zero int (a PySAT literal) or one of the Python constants ``True`` and
``False``. Gates fold constants (``AND(x, False)`` is ``False``, ``AND(x)`` is ``x``), drop
duplicates, spot complementary inputs, and are hashed on their sorted inputs, so the same gate
is built once however often it is asked for. Clauses go to a buffer that the caller flushes
into the solver (``take()``), once per turn.

We never use ``pysat.formula``: its clausification copies a shared sub-formula for each place
it is used, where a gate here is built once and read by reference. Every variable, gate or
choice comes from the one ``IDPool`` of the encoder, so no two parts can collide.
"""

from __future__ import annotations

from pysat.formula import IDPool


def neg(x):
    """The negation of a literal (constants fold)."""
    if x is True:
        return False
    if x is False:
        return True
    return -x


class Gates:
    """The gate layer. ``pool`` is the encoder's single :class:`IDPool`."""

    def __init__(self, pool: IDPool | None = None):
        self.pool = pool if pool is not None else IDPool()
        self.buf: list[list[int]] = []
        self.cache: dict = {}
        self.n_gates = 0
        self.n_clauses = 0
        self.choices: list[int] = []  # the free decision variables, in creation order

    # ---- variables and clauses -------------------------------------------------------------
    def var(self, name=None) -> int:
        """A fresh variable (named ones can be found again through the pool)."""
        if name is not None:
            return self.pool.id(name)
        return self.pool._next()

    def choice(self) -> int:
        """A fresh decision variable (a player's or the opponent's free choice)."""
        v = self.pool._next()
        self.choices.append(v)
        return v

    def clause(self, lits) -> None:
        """Add a clause, folding constants; an empty clause makes the formula UNSAT."""
        out = []
        for x in lits:
            if x is True:
                return
            if x is False:
                continue
            out.append(x)
        if not out:
            v = self.var()
            self.buf.append([v])
            self.buf.append([-v])
            self.n_clauses += 2
            return
        self.buf.append(out)
        self.n_clauses += 1

    def implies(self, a, b) -> None:
        self.clause([neg(a), b])

    def take(self) -> list[list[int]]:
        """The clauses added since the last call."""
        buf, self.buf = self.buf, []
        return buf

    # ---- gates -------------------------------------------------------------------------------
    def AND(self, *lits):
        if len(lits) == 2:  # the common case, without the set
            a, b = lits
            if a is False or b is False:
                return False
            if a is True:
                return b
            if b is True or a == b:
                return a
            if a == -b:
                return False
            key = (a, b) if a < b else (b, a)
        else:
            s = set()
            for x in lits:
                if x is False:
                    return False
                if x is True:
                    continue
                if -x in s:
                    return False
                s.add(x)
            if not s:
                return True
            if len(s) == 1:
                return next(iter(s))
            key = tuple(sorted(s))
        g = self.cache.get(key)
        if g is not None:
            return g
        g = self.pool._next()
        self.cache[key] = g
        buf = self.buf
        for x in key:
            buf.append([-g, x])
        buf.append([g, *(-x for x in key)])
        self.n_gates += 1
        self.n_clauses += len(key) + 1
        return g

    def ANDs(self, lits):
        return self.AND(*lits)

    def OR(self, *lits):
        return neg(self.AND(*(neg(x) for x in lits)))

    def ORs(self, lits):
        return neg(self.AND(*(neg(x) for x in lits)))

    def ITE(self, c, a, b):
        """``a`` if ``c`` else ``b``."""
        if c is True:
            return a
        if c is False:
            return b
        if a == b:
            return a
        if a is True and b is False:
            return c
        if a is False and b is True:
            return -c
        if a is True:
            return self.OR(c, b)
        if a is False:
            return self.AND(-c, b)
        if b is True:
            return self.OR(-c, a)
        if b is False:
            return self.AND(c, a)
        if c < 0:
            c, a, b = -c, b, a
        key = ("ite", c, a, b)
        g = self.cache.get(key)
        if g is not None:
            return g
        g = self.pool._next()
        self.cache[key] = g
        self.buf.extend(([-c, -a, g], [-c, a, -g], [c, -b, g], [c, b, -g], [-a, -b, g], [a, b, -g]))
        self.n_gates += 1
        self.n_clauses += 6
        return g

    def amo(self, lits) -> None:
        """At most one of ``lits`` (pairwise up to 6, a ladder above)."""
        lits = [x for x in lits if x is not False]
        if sum(1 for x in lits if x is True) > 1:
            self.clause([])
            return
        if len(lits) <= 6:
            for i in range(len(lits)):
                for j in range(i + 1, len(lits)):
                    self.clause([neg(lits[i]), neg(lits[j])])
            return
        prev = None  # sequential counter: s_i = "one of the first i is true"
        for i, x in enumerate(lits):
            if prev is not None:
                self.clause([neg(x), neg(prev)])
            if i < len(lits) - 1:
                s = self.var()
                self.clause([neg(x), s])
                if prev is not None:
                    self.clause([neg(prev), s])
                prev = s


# ---- one-hot values ------------------------------------------------------------------------
# A one-hot value is a dict {value: literal}; a missing value is the constant False. Values
# that are constantly False are dropped, so unreachable cells cost nothing.


def const(value) -> dict:
    return {value: True}


def clean(d: dict) -> dict:
    return {k: v for k, v in d.items() if v is not False}


def ite_onehot(g: Gates, c, a: dict, b: dict) -> dict:
    """``a`` if ``c`` else ``b``, value by value."""
    if c is True:
        return a
    if c is False:
        return b
    if a is b:
        return a
    out = {}
    for k in a.keys() | b.keys():
        x = g.ITE(c, a.get(k, False), b.get(k, False))
        if x is not False:
            out[k] = x
    return out


__all__ = [
    "Gates",
    "clean",
    "const",
    "ite_onehot",
    "neg",
]
