"""TAO (Giulia Barbieri), a two-player card game with hidden hands, on the game protocol
(docs/games/tao.md): :data:`TAO`, :class:`TaoGame`, :class:`TaoState`, the cards
(:data:`CARDS`) and the exact chance of an opening area that opens a portal at once."""

from .cards import CARDS, Cards
from .exact import opening_chance
from .game import OPTIONS, TAO, TaoGame, TaoState, read_position

__all__ = [
    "CARDS",
    "OPTIONS",
    "TAO",
    "Cards",
    "TaoGame",
    "TaoState",
    "opening_chance",
    "read_position",
]
