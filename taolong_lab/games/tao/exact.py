"""An exact result of TAO by enumeration: the chance that the first player's area, as YIN deals
it, already shows five guardians of the first guardian card's animal or colour, so that its
first move that keeps them opens a portal (a door cannot help: the table is dealt without
doors).

The deal (docs/games/tao.md): the first player's five cards and then the second's are drawn
from the deck without its doors; the guardian deck is four of the twelve cards left with the
doors, and its first card that is not the special card rules. By symmetry every card of the
twelve that is not special is equally likely to be that card.

>>> opening_chance()
Fraction(20242, 2166021)
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

from .cards import CARDS


def _hands(pool: Counter, size: int):
    """Every multiset of ``size`` cards drawn from ``pool``, with its probability."""
    kinds = sorted(pool)
    total = comb(sum(pool.values()), size)
    for counts in itertools.product(*(range(pool[k] + 1) for k in kinds)):
        if sum(counts) == size:
            ways = 1
            for kind, n in zip(kinds, counts, strict=True):
                ways *= comb(pool[kind], n)
            yield Counter(dict(zip(kinds, counts, strict=True))), Fraction(ways, total)


def _five(area: Counter, rule: str) -> bool:
    """Whether the five cards ``area`` make a five for the guardian card ``rule``."""
    if not all(CARDS.is_guardian(c) for c in area.elements()):
        return False
    return any(
        all(read(c) == read(rule) for c in area.elements()) for read in (CARDS.animal, CARDS.colour)
    )


def opening_chance() -> Fraction:
    """The exact chance that the first player's dealt YIN area opens a portal at once.

    Returns
    -------
    Fraction
        The probability, over the YIN deal.
    """
    deck = Counter(CARDS.deck)
    table = Counter({c: n for c, n in deck.items() if not CARDS.is_door(c)})
    size = CARDS.portals
    chance = Fraction(0)
    for mine, p_mine in _hands(table, size):
        rest = table - mine
        for yours, p_yours in _hands(rest, size):
            left = rest - yours + Counter({d: deck[d] for d in CARDS.doors})
            rules = {c: n for c, n in left.items() if c != CARDS.special and n}
            total = sum(rules.values())
            won = sum(n for rule, n in rules.items() if _five(mine, rule))
            chance += p_mine * p_yours * Fraction(won, total)
    return chance


__all__ = ["opening_chance"]
