"""What both solo solvers know about bounds: the admissible :func:`lower_bound` on the turns
to a win, its sharper Ba Gua-aware form for the last turns (:func:`may_win_within`,
:func:`may_win_now`) and the sowing table they read (:func:`sow_table`).

The explicit solver orders its search and defers positions by them; the SAT solver starts its
deepening at :func:`lower_bound` and adds :func:`turn_damage_bound` as a damage budget.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import NamedTuple

from ..engine import State, sow
from ..engine.core import life, most_damage
from ..engine.solo import solo_options
from ..engine.spirit import EXEC
from ..rules.data import game_data
from ..rules.scenario import load_scenario

BOUND_NAME = "opponent-life/v1"
INF = math.inf


@dataclass(frozen=True)
class BoundParams:
    """The constants of :func:`lower_bound` for one position's rules and layout.

    ``per_turn``: the most life the opponent can lose in one solo turn, rocks left aside;
    ``tramples``: whether trampling rocks can hurt the opponent (breakable rocks on the board);
    ``exact_rules``: False when the mode has effects the bound does not model (Monk and later),
    and the bound falls back to 1.
    """

    player_matter: int
    portal_per_turn: int
    tramples: bool
    exact_rules: bool

    @property
    def per_turn(self) -> int:
        return self.player_matter + self.portal_per_turn

    def to_json(self) -> dict:
        return {
            "name": BOUND_NAME,
            "player_matter": self.player_matter,
            "portal_per_turn": self.portal_per_turn,
            "tramples": self.tramples,
            "modelled": self.exact_rules,
        }

    @classmethod
    def from_json(cls, doc: dict) -> BoundParams:
        """The inverse of :meth:`to_json`; a ValueError names a field that does not fit."""
        fields = {}
        for key, name, kind in (
            ("player_matter", "player_matter", int),
            ("portal_per_turn", "portal_per_turn", int),
            ("tramples", "tramples", bool),
            ("modelled", "exact_rules", bool),
        ):
            value = doc[key]
            if type(value) is not kind:
                raise ValueError(f"{key}: {value!r} is not a {kind.__name__}")
            fields[name] = value
        return cls(**fields)


@functools.cache
def _expel_terms() -> tuple[int, int, int]:
    """``(capacity, the ruler's best value, the most centre water)``: a fire expel adds the
    attacker's fire meter (at most the capacity); a water expel the centre's water, which is
    all the water but the two living dragons' meters (each at least 1)."""
    data = game_data()
    return data.capacity, max(cell.value for cell in data.ruler), data.water_stones - 2


def bound_params(state: State) -> BoundParams:
    """The :class:`BoundParams` of ``state``: they depend on the rules and the layout only,
    plus the stone counts, which never change.

    Parameters
    ----------
    state : State
        A solo position.

    Returns
    -------
    BoundParams
    """
    cap, rmax, water_bonus = _expel_terms()
    matter = max(1, rmax + cap, rmax + water_bonus)
    scenario = load_scenario(state.rules.scenario)
    letters = {sym for row in state.layout for sym in row if sym.isupper() and sym != "V"}
    water_portals = any(scenario.portal_rule(c).cost == "water" for c in letters)
    opponent_letter = "B" if state.to_move == "white" else "W"
    opponent_stones = sum(stack.count(opponent_letter) for stack in state.bagua)
    portal = 2 * opponent_stones if water_portals else 0
    return BoundParams(
        player_matter=matter,
        portal_per_turn=portal,
        tramples=bool(scenario.breakable_rocks),
        exact_rules=state.rules.mode == "grasshopper",
    )


def lower_bound(state: State, params: BoundParams | None = None) -> float:
    """An admissible lower bound on the player's turns to win from the solo ``state``.

    0 when the player has won, ``math.inf`` when the player's dragon is dead. Otherwise, in
    Grasshopper mode, ``max(1, ceil((L - R) / D))`` with ``L`` the opponent's life
    (``State.life``), ``R`` the hits left in the board's breakable rocks (0 without them) and
    ``D`` = :attr:`BoundParams.per_turn`; in the other modes, 1.

    Proof of admissibility (Grasshopper). (1) *Life drops by exactly one per damage stone.*
    :func:`taolong_lab.engine.core.damage` takes one water stone at a time; when the meter
    empties the dragon loses its tail and refills to the capacity ``c``, so ``(segments - 1) * c
    + water`` falls by one per stone, and the dragon is defeated exactly when it reaches 0.
    Life only rises by absorbing water. So a win needs at least ``L`` damage to the opponent.
    (2) *Where the opponent's damage comes from in one solo turn.* A solo turn is a sowing,
    the opponent's group, then one player Matter phase (no Wind/Thunder extra phase in solo,
    R15.6, and no Focus/Balance in Grasshopper); the village hurts only the player
    (``village_damage`` is applied to the side to move). (a) The player's Matter phase: a bite
    (1), or an expel: the ruler's best value (``max`` over ``data/ruler.toml``) plus the bonus,
    the attacker's fire meter (at most ``c``) for Fire, the centre's water for Water, which is
    the water stones but both living dragons' meters, each at least 1 (an invariant: a living
    dragon holds 1..c water), so at most ``water_stones - 2``. Other elements and movement deal
    the opponent nothing. (b) The opponent's own group: its actions (one per space that got a
    stone of its colour, so at most its number of stones, a constant) each take at most two
    steps; a step hurts it only through a water-cost portal (1) or by trampling a rock (the
    rock's hits left; the rock is destroyed). So per turn at most ``D = (a) + 2 * stones`` (the
    second term only with water-cost portals on the board), and trampling over the whole rest
    of the game at most ``R``, the rocks' hits left now: rocks are never added or mended. (3)
    After ``t`` turns the opponent has taken at most ``t * D + R`` damage, so a win needs
    ``t * D + R >= L``, i.e. ``t >= (L - R) / D``, and a win needs at least one turn. Every
    term is a bound over *every* future turn (constants or non-increasing quantities), so the
    bound holds at every node of the search, which is what A* needs.

    Parameters
    ----------
    state : State
        A solo position.
    params : BoundParams, optional
        :func:`bound_params` of ``state`` (or of any position of the same challenge).

    Returns
    -------
    int or float
        The bound: a whole number of turns, or ``math.inf``.

    >>> from taolong_lab import solo_game
    >>> start = solo_game(segments={"black": 1}, water={"black": 1})
    >>> lower_bound(start), lower_bound(solo_game())
    (1, 2)
    """
    result = state.outcome()
    player = state.to_move
    if result is not None:
        return 0 if result.winner == player else INF
    params = params or bound_params(state)
    if not params.exact_rules:
        return 1
    opponent = "black" if player == "white" else "white"
    rocks = sum(state.rocks.values()) if params.tramples else 0
    need = state.life(opponent) - rocks
    return max(1, -(-need // params.per_turn))


SHARP_TURNS = 3  # :func:`may_win_within` looks at the Ba Gua up to this many turns ahead


def may_win_within(state: State, turns: int, params: BoundParams | None = None) -> bool:
    """False only if the player cannot win from ``state`` within ``turns`` turns: a sharper,
    Ba Gua-aware form of :func:`lower_bound` for the last few turns of a bounded search.

    Grasshopper only (True otherwise, and for more than :data:`SHARP_TURNS` turns, where the
    enumeration would grow). The sowings do not depend on the board, so every sequence of
    ``turns`` sowings from the position's Ba Gua is enumerated (:func:`sow_table`), and
    each turn is given the most damage the opponent can take with the element it sows, as in
    :func:`lower_bound`'s proof: a fire expel, the ruler's best plus the player's fire meter
    (which only an absorbed fire stone raises, by one, so it is bounded by the meter now plus
    the fire turns before, at most the capacity); a water expel, the ruler's best plus the
    centre's water (at most ``water_stones - 2``); any other element a bite (1); plus, with
    water-cost portals, two steps for each of the opponent's actions (its group's length) and,
    with breakable rocks, the rocks' hits left once. A win needs the opponent's life.

    Parameters
    ----------
    state : State
        A solo position.
    turns : int
        The turns left.
    params : BoundParams, optional
        :func:`bound_params` of ``state``.

    Returns
    -------
    bool
        False when no win within ``turns`` is possible; True says nothing.

    >>> from taolong_lab import solo_game
    >>> start = solo_game(segments={"black": 1}, water={"black": 1})
    >>> may_win_within(start, 1), may_win_within(solo_game(), 1)
    (True, False)
    """
    params = params or bound_params(state)
    result = state.outcome()
    if result is not None:
        return result.winner == state.to_move
    if not params.exact_rules or turns > SHARP_TURNS:
        return lower_bound(state, params) <= turns
    player = state.mover
    need = state.life("black" if player == 0 else "white")
    if params.tramples:
        need -= sum(state.rocks.values())
    if need <= 0:
        return True
    fire = state.dragons[player].fire
    most = _most_damage(state.bagua, "WB"[1 - player], fire, turns, params.portal_per_turn > 0)
    return most >= need


def may_win_now(state: State, params: BoundParams | None = None) -> bool:
    """Whether some turn wins from ``state`` at once: :func:`may_win_within` for one turn,
    made exact. A win needs the opponent dead, and only a sowing that can deal it the damage
    it has left can kill it: the element's most damage (:func:`turn_damage_bound`) plus, with
    breakable rocks, the rocks its own group can trample (each action enters at most two
    cells, so the ``2 * group`` rocks with the most hits left). Only those sowings are played
    out, with the opponent's real policy (:func:`.engine.solo.solo_options` with ``keep``);
    the turns themselves come from :meth:`.State.successors` when this says True.

    Parameters
    ----------
    state : State
        A solo position.
    params : BoundParams, optional
        :func:`bound_params` of ``state``.

    Returns
    -------
    bool
        Whether one of the player's turns from ``state`` wins.

    >>> from taolong_lab import solo_game
    >>> start = solo_game(segments={"black": 1}, water={"black": 1})
    >>> may_win_within(start, 1), may_win_now(start)
    (True, False)
    """
    params = params or bound_params(state)
    if not may_win_within(state, 1, params):
        return False
    if state.is_over() or not params.exact_rules:
        return True
    env, player = state.tables, state.mover
    need = state.life("black" if player == 0 else "white")
    rocks = sorted(state.rocks.values(), reverse=True) if params.tramples else []
    fire = state.dragons[player].fire
    portals = params.portal_per_turn > 0
    ring = game_data().ring

    def keep(element: int, group: int) -> bool:
        hit = turn_damage_bound(ring[element], fire, group, portals)[0]
        return hit + sum(rocks[: 2 * group]) >= need

    lookahead = state.rules.option("solo_lookahead")
    walk = state.board
    other = 1 - player
    judged = set()
    options = solo_options(
        env, walk, state.bagua, state.coin, player, lookahead=lookahead, keep=keep
    )
    for option in options:
        w, element = option.walk, option.sowing.element
        have = life(env, w, other)
        if have == 0:
            return True
        if option.kind == EXEC and (id(w), element) not in judged:
            judged.add((id(w), element))  # the player's plans on w, judged at once
            if most_damage(env, w, player, element) >= have:
                return True
    return False


@functools.lru_cache(maxsize=1 << 16)
def _most_damage(bagua, opp_stone: str, fire: int, turns: int, portals: bool) -> int:
    if turns == 0:
        return 0
    ring = game_data().ring
    best = 0
    for new, group, element in sow_table(bagua, opp_stone).values():
        hit, after = turn_damage_bound(ring[element], fire, len(group), portals)
        best = max(best, hit + _most_damage(new, opp_stone, after, turns - 1, portals))
    return best


def turn_damage_bound(element: str, fire: int, group: int, portals: bool) -> tuple[int, int]:
    """``(most damage, fire meter after)`` for one solo turn that sows ``element`` with an
    opponent group of ``group`` actions, the player's fire meter at most ``fire``
    (:func:`may_win_within`'s terms; rocks aside).

    Parameters
    ----------
    element : str
        The element sown, by name (``"fire"``, ``"water"``, ...).
    fire : int
        The most the player's fire meter holds before the turn.
    group : int
        The number of actions in the opponent's group.
    portals : bool
        Whether the board has water-cost portals.

    Returns
    -------
    tuple of int
        The most damage the turn can deal the opponent, and the most the player's fire
        meter holds after it.

    >>> turn_damage_bound("wind", 4, 2, False), turn_damage_bound("fire", 1, 0, False)
    ((1, 4), (3, 2))
    """
    cap, rmax, water_bonus = _expel_terms()
    if element == "fire":
        hit, after = rmax + fire, min(cap, fire + 1)
    elif element == "water":
        hit, after = rmax + water_bonus, fire
    else:
        hit, after = 1, fire
    if portals:
        hit += 2 * group
    return hit, after


# ---- the sowing table ------------------------------------------------------------------------
class GroupSowing(NamedTuple):
    """One Grasshopper solo sowing, as :func:`sow_table` lists it."""

    bagua: tuple[str, ...]  # the stacks after sowing
    group: tuple[int, ...]  # the spaces the opponent's stones landed on, in drop order
    element: int  # the space the last stone landed on


def opponent_group(stack: str, targets, opp_stone: str) -> tuple[int, ...]:
    """The spaces of ``targets`` (where the stones of ``stack`` landed, base first, as
    :attr:`~taolong_lab.engine.core.Sown.targets` gives them) that received one of the
    opponent's stones: its group, in drop order (A29)."""
    return tuple(t for t, stone in zip(targets, stack, strict=True) if stone == opp_stone)


def sow_table(bagua: tuple[str, ...], opp_stone: str) -> dict[int, GroupSowing]:
    """Every Grasshopper solo sowing of ``bagua``: counterclockwise, base stone first
    (:func:`~taolong_lab.engine.core.sow`), with the opponent's group.

    Parameters
    ----------
    bagua : tuple of str
        The eight stacks in ring order, each base first.
    opp_stone : str
        The opponent's stone, ``"W"`` or ``"B"``.

    Returns
    -------
    dict
        ``{space: GroupSowing(bagua, group, element)}`` for every space with stones.

    >>> sow_table(("", "WB", "", "", "", "", "", ""), "B")
    {1: GroupSowing(bagua=('', '', 'W', 'B', '', '', '', ''), group=(3,), element=3)}
    """
    out = {}
    for space, stack in enumerate(bagua):
        if stack:
            new, element, targets = sow(bagua, space)
            out[space] = GroupSowing(new, opponent_group(stack, targets, opp_stone), element)
    return out


__all__ = [
    "BOUND_NAME",
    "SHARP_TURNS",
    "BoundParams",
    "GroupSowing",
    "bound_params",
    "lower_bound",
    "may_win_now",
    "may_win_within",
    "opponent_group",
    "sow_table",
    "turn_damage_bound",
]
