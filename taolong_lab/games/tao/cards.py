"""TAO's cards and table, read from ``data/games/tao/cards.toml`` (a bad file raises a
:class:`~taolong_lab.errors.DataError` naming the field).

A card is a short code: a guardian is its faction's colour then animal in capitals (``RD``, the
red dragon), a door the same in lower case (``rd``), the special card ``SP``.

>>> CARDS.guardians
('RD', 'BD', 'RT', 'BT')
>>> len(CARDS.deck), CARDS.deck.count("SP")
(22, 2)
>>> CARDS.animal("rd"), CARDS.colour("BT")
('D', 'B')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ...errors import DataError
from ...readers import toml_field
from ...rules.data import load_toml

FILE = "games/tao/cards.toml"
COLOURS = {"red": "R", "blue": "B"}
ANIMALS = {"dragon": "D", "tiger": "T"}


@dataclass(frozen=True)
class Cards:
    """The cards of TAO and its table, as data."""

    guardians: tuple[str, ...]
    doors: tuple[str, ...]
    special: str
    deck: tuple[str, ...]
    portals: int
    hand: int
    guardian_deck: int
    coins_to_win: int
    yang_table: tuple[tuple[str, ...], tuple[str, ...]]
    yang_hands: tuple[tuple[str, ...], tuple[str, ...]]
    yang_row: tuple[str, ...]

    @property
    def slots(self) -> int:
        """A player's area: the portal columns and a border space at each end."""
        return self.portals + 2

    def is_guardian(self, card: str) -> bool:
        return card in self.guardians

    def is_door(self, card: str) -> bool:
        return card in self.doors

    def faction(self, card: str) -> str:
        """The faction code of a guardian or a door (``RD`` for ``rd``); '' for the special."""
        return card.upper() if card != self.special else ""

    def colour(self, card: str) -> str:
        """``R`` or ``B`` for a guardian or a door; '' for the special."""
        return self.faction(card)[:1]

    def animal(self, card: str) -> str:
        """``D`` or ``T`` for a guardian or a door; '' for the special."""
        return self.faction(card)[1:]


def _field(doc: dict, dotted: str, kind: type):
    node = toml_field(doc, FILE, dotted, kind)
    if kind is int and not 0 < node <= 20:
        raise DataError(FILE, dotted, f"expected a count from 1 to 20, got {node}")
    return node


def _codes(doc: dict, dotted: str, known: set[str], length: int, codes=None) -> tuple[str, ...]:
    codes = _field(doc, dotted, list) if codes is None else codes
    if (
        not isinstance(codes, list)
        or len(codes) != length
        or not all(isinstance(c, str) and c in known for c in codes)
    ):
        raise DataError(FILE, dotted, f"expected {length} card codes of {sorted(known)}")
    return tuple(codes)


def read_cards(doc: dict) -> Cards:
    """The cards described by ``doc`` (the parsed TOML), checked field by field."""
    factions = _field(doc, "factions", list)
    if len(factions) != 4:
        raise DataError(FILE, "factions", "expected the four factions")
    guardians: list[str] = []
    deck: list[str] = []
    for index, entry in enumerate(factions):
        if not isinstance(entry, dict):
            raise DataError(FILE, f"factions[{index}]", "expected a table")
        where = {"factions": entry}
        colour = COLOURS.get(_field(where, "factions.colour", str))
        animal = ANIMALS.get(_field(where, "factions.animal", str))
        code = _field(where, "factions.code", str)
        if colour is None or animal is None or code != colour + animal or code in guardians:
            raise DataError(FILE, f"factions[{index}].code", f"not colour then animal: {code!r}")
        guardians.append(code)
        deck += [code] * _field(where, "factions.guardians", int)
        deck += [code.lower()] * _field(where, "factions.doors", int)
    special = _field(doc, "special.code", str)
    if special != "SP":
        raise DataError(FILE, "special.code", f"expected 'SP', got {special!r}")
    deck += [special] * _field(doc, "special.count", int)
    portals = _field(doc, "table.portals", int)
    hand = _field(doc, "table.hand", int)
    guardian_deck = _field(doc, "table.guardian_deck", int)
    if 2 * portals + 2 * hand + guardian_deck != len(deck):
        raise DataError(FILE, "table", "the areas, hands and guardian deck do not use the deck")
    known = {*guardians, *(g.lower() for g in guardians), special}
    rows = _field(doc, "yang.table.rows", list)
    hands = _field(doc, "yang.hands.sets", list)
    if len(rows) != 2 or len(hands) != 2:
        raise DataError(FILE, "yang", "expected two rows and two hands")
    for part in ("table", "hands", "row"):
        if _field(doc, f"yang.{part}.inferred", bool) is not True:
            raise DataError(FILE, f"yang.{part}.inferred", "the YANG set-up is inferred: true")
        _field(doc, f"yang.{part}.reason", str)
    table = tuple(_codes(doc, f"yang.table.rows[{i}]", known, portals, rows[i]) for i in (0, 1))
    held = tuple(_codes(doc, f"yang.hands.sets[{i}]", known, hand, hands[i]) for i in (0, 1))
    row = _codes(doc, "yang.row.cards", set(guardians), guardian_deck)
    if sorted(card for part in (*table, *held, row) for card in part) != sorted(deck):
        raise DataError(FILE, "yang", "the YANG set-up does not use each card once")
    return Cards(
        guardians=tuple(guardians),
        doors=tuple(g.lower() for g in guardians),
        special=special,
        deck=tuple(deck),
        portals=portals,
        hand=hand,
        guardian_deck=guardian_deck,
        coins_to_win=_field(doc, "table.coins_to_win", int),
        yang_table=table,
        yang_hands=held,
        yang_row=row,
    )


@functools.cache
def cards() -> Cards:
    """The cards of ``data/games/tao/cards.toml``."""
    return read_cards(load_toml(FILE))


CARDS = cards()

__all__ = ["CARDS", "Cards", "cards", "read_cards"]
