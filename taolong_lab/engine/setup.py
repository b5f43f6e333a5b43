"""The start of a game: the rulebook setup (:func:`start_state`) and the start of a solo
challenge (:func:`solo_start`)."""

from __future__ import annotations

import random

from ..errors import RulesError
from ..rules.data import COLOURS, game_data
from ..rules.options import Rules
from ..rules.scenario import load_scenario
from .core import CCW, Dragon, env_for, start_layout
from .state import State

BAGUA_SETUPS = ("standard", "shuffled", "random")


def start_state(rules: Rules) -> State:
    """The start position of a game under ``rules``: the scenario's board and start cells,
    each dragon with the setup's water and fire, the setup's Ba Gua, white to move.

    Parameters
    ----------
    rules : Rules
        The rules of the game.

    Returns
    -------
    State
        The position before the first turn.

    >>> start_state(Rules()).to_tln() == State().to_tln()
    True
    """
    data = game_data()
    scenario = load_scenario(rules.scenario)
    layout, rocks = start_layout(rules)
    env = env_for(rules, layout)
    dragons = tuple(
        Dragon(tuple(env.geo.index(xy) for xy in cells), data.start_water, data.start_fire)
        for cells in scenario.starts
    )
    water = data.water_stones - sum(d.water for d in dragons)
    fire = data.fire_stones - sum(d.fire for d in dragons)
    board = (dragons, water, fire, rocks)
    return State.compose(env, board, data.setup_stacks, CCW, mover=0, ply=0)


def solo_start(
    rules: Rules,
    player: str = "white",
    segments: int | dict = 3,
    water: int | dict = 4,
    bagua: str = "standard",
    seed: int | None = None,
) -> State:
    """The start of a solo challenge (A31): both dragons on the board, the player's colour
    to move for the whole game.

    Parameters
    ----------
    rules : Rules
        Solo rules (``Rules(solo=True)``).
    player : str
        ``"white"`` or ``"black"``: the player's colour.
    segments, water : int or dict
        Each dragon's segments (1-3) and water (1-4): one number for both dragons, or a dict
        by colour (a colour left out keeps the most).
    bagua : str
        ``"standard"``, the setup stacks; ``"shuffled"``, the eight stones shuffled into
        stacks of two on the main spaces; ``"random"``, each stone on a random space.
    seed : int or None
        What ``"shuffled"`` and ``"random"`` draw from (``random.Random(seed)``, once: the
        result is stored in the position).

    Returns
    -------
    State
        The position before the player's first turn.

    Raises
    ------
    RulesError
        Rules that are not solo rules, or a player, segments, water or Ba Gua setup out of
        range, naming the field.

    >>> start = solo_start(Rules(solo=True), player="black", segments={"white": 1})
    >>> start.to_move, len(start.dragon("white").cells), len(start.dragon("black").cells)
    ('black', 2, 4)
    """
    if not rules.solo:
        raise RulesError("solo_start needs solo rules, e.g. Rules(solo=True)")
    if player not in COLOURS:
        raise RulesError(f"player must be 'white' or 'black', not {player!r}")
    if bagua not in BAGUA_SETUPS:
        raise RulesError(f"bagua must be one of {BAGUA_SETUPS}, not {bagua!r}")
    data = game_data()
    start = start_state(rules)
    dragons = []
    for colour, dragon in zip(COLOURS, start.dragons, strict=True):
        n = _per_colour(segments, colour, "segments", 1, len(dragon.cells) - 1)
        w = _per_colour(water, colour, "water", 1, data.capacity)
        dragons.append(Dragon(dragon.cells[: n + 1], w, dragon.fire))
    stacks = data.setup_stacks
    if bagua != "standard":
        stacks = _dealt(stacks, bagua, random.Random(seed))
    water_left = data.water_stones - sum(d.water for d in dragons)
    board = (tuple(dragons), water_left, start.board.fire, start.board.rocks)
    return State.compose(start.tables, board, stacks, CCW, mover=COLOURS.index(player), ply=0)


def _dealt(stacks: tuple[str, ...], bagua: str, rng: random.Random) -> tuple[str, ...]:
    """The stones of ``stacks`` dealt again: ``"shuffled"`` or ``"random"`` (see
    :func:`solo_start`)."""
    data = game_data()
    stones = list("".join(stacks))
    rng.shuffle(stones)
    placed = [""] * len(stacks)
    if bagua == "shuffled":
        main = [i for i, name in enumerate(data.ring) if name in data.main]
        for j, stone in enumerate(stones):
            placed[main[j // 2 % len(main)]] += stone
    else:
        for stone in stones:
            placed[rng.randrange(len(placed))] += stone
    return tuple(placed)


def _per_colour(value, colour: str, name: str, low: int, high: int) -> int:
    if isinstance(value, dict):
        unknown = set(value) - set(COLOURS)
        if unknown:
            raise RulesError(f"{name}: colours are 'white' and 'black', not {sorted(unknown)}")
        value = value.get(colour, high)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{name}[{colour!r}] must be a whole number {low}-{high}, not {value!r}")
    return value


__all__ = ["BAGUA_SETUPS", "solo_start", "start_state"]
