"""The games of the lab by name: :func:`games`, :func:`game` and :func:`register`."""

from __future__ import annotations

from .protocol import Game, GameError
from .taolong import TAOLONG

_GAMES: dict[str, Game] = {TAOLONG.name: TAOLONG}


def games() -> tuple[Game, ...]:
    """Every registered game, by name.

    Returns
    -------
    tuple of Game

    >>> [g.name for g in games()][:1]
    ['taolong']
    """
    return tuple(_GAMES[name] for name in sorted(_GAMES))


def game(name: str) -> Game:
    """The game called ``name``.

    Parameters
    ----------
    name
        Its registry name, e.g. ``"taolong"``.

    Returns
    -------
    Game

    Raises
    ------
    GameError
        No game has that name (the message lists the known ones).

    >>> game("taolong").title
    'Tao Long'
    """
    found = _GAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise GameError(f"unknown game {name!r}; games: {', '.join(sorted(_GAMES))}")
    return found


def register(new: Game) -> Game:
    """Add a game to the registry (a game of the package is listed in ``_GAMES``; a game
    defined elsewhere registers itself).

    Parameters
    ----------
    new
        The game.

    Returns
    -------
    Game
        ``new``.

    Raises
    ------
    GameError
        Not a :class:`Game`, or another game already has its name.
    """
    if not isinstance(new, Game):
        raise GameError(f"only a Game can be registered, not {type(new).__name__}")
    held = _GAMES.get(new.name)
    if held is not None and held is not new:
        raise GameError(f"another game is already registered as {new.name!r}")
    _GAMES[new.name] = new
    return new


__all__ = ["game", "games", "register"]
