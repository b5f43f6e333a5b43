"""Way of the Dragon's paths, read from ``data/games/way-of-the-dragon/paths.toml``.

A bad file raises a :class:`~taolong_lab.errors.DataError` naming the field.

>>> data = paths_data()
>>> data.names[0], data.plain_spaces, data.values
('water', 10, (1, 2, 3, 4, 5))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ...errors import DataError
from ...readers import toml_field
from ...rules.data import load_toml

FILE = "games/way-of-the-dragon/paths.toml"
ELEMENTS = 5


@dataclass(frozen=True)
class PathsData:
    """The elements (in path order), their letters, colours and animals, the dragon's letter,
    the plain spaces of a path and the values of its numbered spaces (nearest first)."""

    names: tuple[str, ...]
    letters: tuple[str, ...]
    colours: tuple[str, ...]
    colour_letters: tuple[str, ...]
    animals: tuple[str, ...]
    dragon_letter: str
    plain_spaces: int
    values: tuple[int, ...]


def _field(doc: dict, dotted: str, kind: type):
    return toml_field(doc, FILE, dotted, kind)


def _words(doc: dict, dotted: str, length: int, single: bool = False) -> tuple[str, ...]:
    words = _field(doc, dotted, list)
    if len(words) != length or not all(isinstance(w, str) and w for w in words):
        raise DataError(FILE, dotted, f"expected {length} names")
    if len(set(words)) != len(words) and dotted != "elements.animals":
        raise DataError(FILE, dotted, "names repeat")
    if single and not all(len(w) == 1 and w.isalpha() for w in words):
        raise DataError(FILE, dotted, "expected single letters")
    return tuple(words)


def _inferred(doc: dict, name: str) -> None:
    if _field(doc, f"{name}.inferred", bool) is not True:
        raise DataError(FILE, f"{name}.inferred", "an inferred fact says so: inferred = true")
    _field(doc, f"{name}.reason", str)


@functools.cache
def paths_data() -> PathsData:
    """The paths' data, checked.

    Returns
    -------
    PathsData

    Raises
    ------
    DataError
        A missing or malformed field, named.
    """
    doc = load_toml(FILE)
    names = _words(doc, "elements.names", ELEMENTS)
    order = _words(doc, "path_order.value", ELEMENTS)
    if order != names:
        raise DataError(FILE, "path_order.value", "must list elements.names in path order")
    letters = _words(doc, "elements.letters", ELEMENTS, single=True)
    dragon = _field(doc, "elements.dragon_letter", str)
    if len(dragon) != 1 or not dragon.isalpha() or dragon in letters:
        raise DataError(FILE, "elements.dragon_letter", "expected a letter no element uses")
    plain = _field(doc, "plain_spaces.value", int)
    if not 1 <= plain <= 40:
        raise DataError(FILE, "plain_spaces.value", f"expected 1 to 40, got {plain}")
    values = _field(doc, "numbered_spaces.values", list)
    if len(values) != ELEMENTS or not all(
        isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 99 for v in values
    ):
        raise DataError(FILE, "numbered_spaces.values", "expected five values from 1 to 99")
    for name in ("path_order", "plain_spaces", "numbered_spaces"):
        _inferred(doc, name)
    return PathsData(
        names=names,
        letters=letters,
        colours=_words(doc, "elements.colours", ELEMENTS),
        colour_letters=_words(doc, "elements.colour_letters", ELEMENTS, single=True),
        animals=_words(doc, "elements.animals", ELEMENTS),
        dragon_letter=dragon,
        plain_spaces=plain,
        values=tuple(values),
    )


__all__ = ["PathsData", "paths_data"]
