"""The five chindice: each shows one of the five elements or the celestial dragon.

A roll is a multiset of faces, held as a tuple of six counts (water, fire, metal, earth, wood,
dragon) and written as its letters in that order (``"WWFMD"``; ``"-"`` for no die). Rolls that
differ only in the order of the dice are one chance outcome, with the probability of the
multiset.

>>> read_dice("DWW")
(2, 0, 0, 0, 0, 1)
>>> dice_text((2, 0, 0, 0, 0, 1))
'WWD'
>>> [(dice_text(roll), str(p)) for roll, p in rolls(1)][:2]
[('W', '1/6'), ('F', '1/6')]
>>> len(rolls(5))
252
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from math import factorial

from ..protocol import GameError
from .data import paths_data

DICE = 5
"""How many chindice are rolled."""
FACES = 6
"""Faces a die: the five elements, then the dragon."""
DRAGON = 5
"""The index of the dragon face."""

Dice = tuple[int, int, int, int, int, int]


def face_letters() -> str:
    """The letters of the faces, in face order (the elements', then the dragon's)."""
    data = paths_data()
    return "".join(data.letters) + data.dragon_letter


@functools.cache
def dice_text(dice: Dice) -> str:
    """The letters of a roll in face order; ``"-"`` for no die."""
    letters = face_letters()
    return "".join(letters[face] * count for face, count in enumerate(dice)) or "-"


@functools.lru_cache(maxsize=4096)
def read_dice(text: str, field: str = "dice") -> Dice:
    """The counts of a roll written in letters (any order; ``"-"`` for none).

    Raises
    ------
    GameError
        A letter that is no face, or more than five dice, named with ``field``.
    """
    letters = face_letters()
    if not isinstance(text, str) or text == "-":
        if text == "-":
            return (0,) * FACES
        raise GameError(f"{field}: dice are letters of {letters}, not {text!r}")
    if len(text) > DICE or any(ch not in letters for ch in text):
        raise GameError(f"{field}: up to {DICE} dice of {letters}, not {text[:20]!r}")
    counts = [0] * FACES
    for ch in text:
        counts[letters.index(ch)] += 1
    return tuple(counts)


def add(a: Dice, b: Dice) -> Dice:
    """Two rolls together."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


@functools.cache
def rolls(count: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every roll of ``count`` dice as a multiset, with its exact probability, in a fixed order.

    Parameters
    ----------
    count
        From 0 to 5 dice.

    Returns
    -------
    tuple of (counts, Fraction)
        The probabilities sum to 1.
    """
    found = []
    for combo in itertools.combinations_with_replacement(range(FACES), count):
        counts = [0] * FACES
        for face in combo:
            counts[face] += 1
        ways = factorial(count)
        for c in counts:
            ways //= factorial(c)
        found.append((tuple(counts), Fraction(ways, FACES**count)))
    return tuple(found)


@functools.cache
def keeps(dice: Dice) -> tuple[Dice, ...]:
    """Every proper part of a roll that can be kept while the others are rolled again (from
    none to four dice), each once, in a fixed order."""
    ranges = [range(c + 1) for c in dice]
    found = [kept for kept in itertools.product(*ranges) if sum(kept) < sum(dice)]
    return tuple(sorted(found, key=lambda kept: (sum(kept), [-c for c in kept])))


__all__ = [
    "DICE",
    "DRAGON",
    "FACES",
    "add",
    "dice_text",
    "face_letters",
    "keeps",
    "read_dice",
    "rolls",
]
