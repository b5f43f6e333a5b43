"""Tao Long's evaluation of a position: one number, from white's side, for the agents to compare
(:meth:`TaoLongGame.heuristic <taolong_lab.games.taolong.TaoLongGame.heuristic>` gives it to
them as every game's heuristic).

Each feature is measured for both dragons; the score adds up ``weight * (white - black)`` over
the features, with the weights of ``data/evaluation.toml``:

``life``
    the damage the dragon can still take (its segments and its water meter);
``fire``
    the fire stones on its fire meter (the fire expel's bonus);
``threat``
    the most damage one Matter phase can deal to the other dragon, over the elements the dragon
    reaches by sowing a stack of the Ba Gua as it stands (the bite and the ruler in reach of its
    head, with the fire and water bonuses);
``initiative``
    the threat again, for the side to move only: it strikes before the other can;
``stacks``
    the stacks it could sow whose element it can perform (the Ba Gua stacks it can use);
``mobility``
    the free cells beside its head.

A finished game scores :data:`~taolong_lab.games.WIN` for the winner. Swapping the colours of a
position (:func:`swap_colours`) negates the score.

>>> from taolong_lab import new_game
>>> evaluate(new_game())
0.0
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields

from ...engine import Board, State
from ...engine.core import CCW, most_damage, occupancy, plans
from ...engine.spirit import flow_for
from ...errors import DataError, TaoLongError
from ...rules.data import load_toml
from ..protocol import WIN

WEIGHTS_FILE = "evaluation.toml"
MAX_WEIGHT = 1000.0
FLUX_MODES = ("master", "chosen-one")


@dataclass(frozen=True)
class Weights:
    """The weight of each feature (see the module docstring)."""

    life: float
    fire: float
    threat: float
    initiative: float
    stacks: float
    mobility: float

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def replace(self, **changes) -> Weights:
        """These weights with some changed, each checked."""
        return weights_from({**self.__dict__, **changes}, "weights")


def weights_from(table, where: str = WEIGHTS_FILE) -> Weights:
    """Weights from a mapping of name to number; a :class:`~taolong_lab.errors.DataError`
    names the key that is missing, unknown or not a finite number of at most
    :data:`MAX_WEIGHT`."""
    if not isinstance(table, dict):
        raise DataError(where, "weights", "expected a table of weights")
    known = Weights.names()
    for key in table:
        if key not in known:
            raise DataError(where, f"weights.{key}", f"unknown weight (known: {', '.join(known)})")
    values = {}
    for key in known:
        if key not in table:
            raise DataError(where, f"weights.{key}", "missing")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise DataError(where, f"weights.{key}", f"expected a number, got {value!r}")
        if not -MAX_WEIGHT <= value <= MAX_WEIGHT:
            raise DataError(where, f"weights.{key}", f"must be within ±{MAX_WEIGHT:g}")
        values[key] = float(value)
    return Weights(**values)


@functools.cache
def default_weights() -> Weights:
    """The weights of ``data/evaluation.toml``."""
    doc = load_toml(WEIGHTS_FILE)
    return weights_from(doc.get("weights"), WEIGHTS_FILE)


def features(state: State) -> dict[str, tuple[int, int]]:
    """Each feature of the evaluation as ``(white, black)``.

    >>> from taolong_lab import new_game
    >>> features(new_game())["life"]
    (12, 12)
    """
    env, walk = state.tables, state.board
    bagua, coin, mode = state.bagua, state.coin, state.rules.mode
    occ = occupancy(env, walk)
    n = len(bagua)
    landings: dict[int, int] = {}
    for space, stack in enumerate(bagua):
        if stack:
            step = 1 if mode not in FLUX_MODES or flow_for(stack, coin, mode) == CCW else -1
            element = (space + step * len(stack)) % n
            landings[element] = landings.get(element, 0) + 1
    found: dict[str, list[int]] = {name: [0, 0] for name in Weights.names()}
    for colour, dragon in enumerate(walk.dragons):
        found["life"][colour] = state.life(("white", "black")[colour])
        found["fire"][colour] = dragon.fire
        if not dragon.alive:
            continue
        threat = usable = 0
        for element, count in landings.items():
            if plans(env, walk, colour, element, occ):
                usable += count
                threat = max(threat, most_damage(env, walk, colour, element))
        found["threat"][colour] = threat
        found["initiative"][colour] = threat if colour == state.mover else 0
        found["stacks"][colour] = usable
        found["mobility"][colour] = sum(
            1 for cell in env.nbr[dragon.cells[0]] if cell >= 0 and not occ >> cell & 1
        )
    return {name: (white, black) for name, (white, black) in found.items()}


def evaluate(state: State, weights: Weights | None = None) -> float:
    """The score of ``state`` from white's side: positive when white stands better.

    Parameters
    ----------
    state
        Any position, two-player or solo.
    weights
        The feature weights; default those of ``data/evaluation.toml``.

    Returns
    -------
    float
        :data:`~taolong_lab.games.WIN` when white has won, ``-WIN`` when black has, else the
        weighted sum of the features (see the module docstring).
    """
    result = state.outcome()
    if result is not None:
        return WIN if result.winner == "white" else -WIN
    w = weights or default_weights()
    score = 0.0
    for name, (white, black) in features(state).items():
        score += getattr(w, name) * (white - black)
    return score + 0.0  # never -0.0


def swap_colours(state: State) -> State:
    """The same position with the colours swapped: the white dragon becomes the black one and
    the other way round, every Ba Gua stone changes colour and the other side is to move.

    It is a symmetry of the game where colours mean nothing but the dragons: not with the
    Village variant (the protector is a colour) nor in Master and Chosen One (the stones'
    colours set the flow); there it raises :class:`~taolong_lab.errors.TaoLongError`.

    >>> from taolong_lab import new_game
    >>> swapped = swap_colours(new_game())
    >>> swapped.to_move, swapped.bagua[0]
    ('black', 'BB')
    >>> swap_colours(swapped) == new_game()
    True
    """
    rules = state.rules
    if rules.option("village") is not None:
        raise TaoLongError("the colours cannot be swapped: the Village variant has a protector")
    if rules.mode in FLUX_MODES:
        raise TaoLongError(f"the colours cannot be swapped in {rules.mode}: they set the flow")
    board = state.board
    white, black = board.dragons
    swapped = Board((black, white), board.water, board.fire, board.rocks)
    bagua = tuple(stack.translate(_SWAP_STONES) for stack in state.bagua)
    return State.compose(state.tables, swapped, bagua, state.coin, 1 - state.mover, state.ply)


_SWAP_STONES = str.maketrans("WB", "BW")

__all__ = [
    "Weights",
    "default_weights",
    "evaluate",
    "features",
    "swap_colours",
    "weights_from",
]
