"""The rules machinery on plain tuples: sowing, the eight elements, bites, expels, damage.

This is the hot path. Positions here are ``(dragons, bagua, water, fire)`` tuples: ``dragons``
holds two :class:`Dragon` values (white first), ``bagua`` eight stacks (strings of ``W``/``B``,
base first), and ``water``/``fire`` the stones in the centre of the Ba Gua.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from ..rules.data import game_data
from ..rules.options import Rules
from .geometry import Geometry, geometry
from .turns import ABSORB, EXPEL

WHITE, BLACK = 0, 1
# Element behaviours, looked up by element name so the ring order stays data.
HEAVEN, LAKE, FIRE, THUNDER, EARTH, MOUNTAIN, WATER, WIND = (
    "heaven", "lake", "fire", "thunder", "earth", "mountain", "water", "wind"
)  # fmt: skip


class Dragon(NamedTuple):
    """A dragon: its cells head first (cell indices), its water (life) and fire meters."""

    cells: tuple[int, ...]
    water: int
    fire: int

    @property
    def segments(self) -> int:
        return len(self.cells) - 1

    @property
    def alive(self) -> bool:
        return len(self.cells) > 1


class Env:
    """Everything fixed by the rules, precomputed for the hot path."""

    def __init__(self, rules: Rules):
        data = game_data()
        self.rules = rules
        self.data = data
        self.geo: Geometry = geometry(data.width, data.height)
        self.nbr = self.geo.nbr
        self.xy = self.geo.xy
        self.ring = data.ring
        self.ring_size = len(data.ring)
        self.element_of = {name: i for i, name in enumerate(data.ring)}
        self.cap = data.capacity
        self.tail_first = rules.tail_vacates_first
        self.bite_on_stay = rules.option("bite_on_stay")
        self.extra_phases = rules.option("extra_phases")
        self.static_mask = 0  # rocks and other fixed tiles arrive with the scenarios
        self.bit = tuple(1 << c for c in range(self.geo.size))
        self.ruler = self._ruler_table(data.ruler)

    def _ruler_table(self, ruler):
        """For each (head, facing): the ruler cells as ``(cell, value, blocked_by)`` tuples."""
        table = []
        for head in range(self.geo.size):
            for f in range(4):
                right = (f + 1) % 4
                entries = []
                for rc in ruler:
                    side = [right] * rc.side if rc.side > 0 else [(f + 3) % 4] * -rc.side
                    cell = self.geo.walk(head, [f] * rc.forward + side)
                    entries.append((cell, rc.value, rc.blocked_by))
                table.append(tuple(entries))
        return tuple(table)

    def facing(self, cells: tuple[int, ...]) -> int:
        """The direction from the neck to the head."""
        return self.geo.direction[(cells[1], cells[0])]

    def mask(self, cells) -> int:
        bit = self.bit
        m = 0
        for c in cells:
            m |= bit[c]
        return m


@functools.cache
def env_for(rules: Rules) -> Env:
    return Env(rules)


def sow(bagua: tuple[str, ...], space: int) -> tuple[tuple[str, ...], int]:
    """Lift the stack on ``space`` and drop it counterclockwise, base stone first.

    Returns the new stacks and the space that received the last stone.

    >>> sow(("WW", "", "BW", "", "BB", "", "WB", ""), 0)
    (('', 'W', 'BWW', '', 'BB', '', 'WB', ''), 2)
    """
    stack = bagua[space]
    new = list(bagua)
    new[space] = ""
    i = space
    n = len(new)
    for stone in stack:
        i = (i + 1) % n
        new[i] += stone
    return tuple(new), i


def damage(dragon: Dragon, amount: int, water: int, cap: int) -> tuple[Dragon, int]:
    """Apply ``amount`` damage one water stone at a time (A14).

    When the meter empties the tail segment is lost; a surviving dragon refills its meter
    from the centre and takes the rest. Returns the dragon and the centre's water.

    >>> damage(Dragon((0, 1, 2), 2, 0), 3, 2, 4)
    (Dragon(cells=(0, 1), water=3, fire=0), 1)
    """
    cells, w = dragon.cells, dragon.water
    for _ in range(amount):
        w -= 1
        water += 1
        if w == 0:
            cells = cells[:-1]
            if len(cells) == 1:
                break
            w = cap
            water -= cap
    return Dragon(cells, w, dragon.fire), water


class Outcome(NamedTuple):
    """The result of one Matter execution, before it is turned into notation."""

    path: tuple[int, ...]
    effect: str | None
    dragons: tuple[Dragon, Dragon]
    water: int
    fire: int


def _free(env: Env, target: int, occ: int, cells: tuple[int, ...]) -> bool:
    """May the head of ``cells`` step onto ``target``? (A2: the tail cell is an obstacle
    unless the tail is lifted first; the neck never is free.)"""
    if target < 0:
        return False
    if not occ >> target & 1:
        return True
    return env.tail_first and target == cells[-1] and len(cells) > 2


def executions(
    env: Env, dragons: tuple[Dragon, Dragon], water: int, fire: int, colour: int, element: int
) -> list[Outcome]:
    """Every legal Matter execution of ``element`` by the dragon of ``colour``.

    An empty list means the action is impossible.
    """
    me, opp = dragons[colour], dragons[1 - colour]
    cells = me.cells
    cells[0]
    f = env.facing(cells)
    nbr = env.nbr
    bit = env.bit
    occ = env.mask(cells) | env.mask(opp.cells) | env.static_mask
    name = env.ring[element]
    paths: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []  # (path, cells, facing)

    def step(cur, cur_occ, d):
        target = nbr[cur[0]][d]
        if not _free(env, target, cur_occ, cur):
            return None
        return (target, *cur[:-1]), (cur_occ & ~bit[cur[-1]]) | bit[target]

    if name in (HEAVEN, EARTH):
        if f & 1 != (0 if name == HEAVEN else 1):
            return []
        first = step(cells, occ, f)
        if first is None:
            return []
        c1, occ1 = first
        paths.append(((c1[0],), c1, f))
        second = step(c1, occ1, f)
        if second is not None:
            paths.append(((c1[0], second[0][0]), second[0], f))
    elif name in (WIND, THUNDER):
        if f & 1 != (0 if name == WIND else 1):
            return []
        for d in sorted(((f + 1) % 4, (f + 3) % 4)):
            moved = step(cells, occ, d)
            if moved is not None:
                paths.append(((moved[0][0],), moved[0], d))
    elif name in (LAKE, MOUNTAIN):
        if f & 1 != (0 if name == LAKE else 1):
            paths.append(((), cells, f))
        else:
            for d in range(4):
                moved = step(cells, occ, d)
                if moved is not None:
                    paths.append(((moved[0][0],), moved[0], d))
    else:  # fire, water: a free step, then absorb or expel
        out = []
        for d in range(4):
            moved = step(cells, occ, d)
            if moved is not None:
                new_cells, new_occ = moved
                out.extend(
                    _absorb_or_expel(env, dragons, water, fire, colour, name, new_cells, d, new_occ)
                )
        return out

    out = []
    opp_mask = env.mask(opp.cells)
    for path, new_cells, new_f in paths:
        moved = Dragon(new_cells, me.water, me.fire)
        new_opp, new_water = opp, water
        front = nbr[new_cells[0]][new_f]
        if front >= 0 and opp_mask >> front & 1 and (path or env.bite_on_stay):
            new_opp, new_water = damage(opp, 1, water, env.cap)
        pair = (moved, new_opp) if colour == WHITE else (new_opp, moved)
        out.append(Outcome(path, None, pair, new_water, fire))
    return out


def ruler_hit(env: Env, head: int, f: int, occ: int, target_mask: int) -> int:
    """The highest ruler value reaching one of ``target_mask``'s cells, or -1 for a miss."""
    best = -1
    entries = env.ruler[head * 4 + f]
    for cell, value, blocked_by in entries:
        if cell < 0:
            continue
        if any(entries[b][0] < 0 or occ >> entries[b][0] & 1 for b in blocked_by):
            continue
        if target_mask >> cell & 1 and value > best:
            best = value
    return best


def _absorb_or_expel(env, dragons, water, fire, colour, name, cells, f, occ):
    me, opp = dragons[colour], dragons[1 - colour]
    path = (cells[0],)
    cap = env.cap
    # absorb: one stone of the element from the centre, if the meter has room (A13)
    if name == FIRE:
        take = me.fire < cap and fire > 0
        absorbed = Dragon(cells, me.water, me.fire + take)
        a_water, a_fire = water, fire - take
    else:
        take = me.water < cap and water > 0
        absorbed = Dragon(cells, me.water + take, me.fire)
        a_water, a_fire = water - take, fire
    pair = (absorbed, opp) if colour == WHITE else (opp, absorbed)
    results = [Outcome(path, ABSORB, pair, a_water, a_fire)]
    # expel: a ranged attack through the ruler (A15: the water bonus counts the centre first)
    hit = ruler_hit(env, cells[0], f, occ, env.mask(opp.cells))
    new_opp, e_water, e_fire = opp, water, fire
    if hit >= 0:
        bonus = me.fire if name == FIRE else water
        new_opp, e_water = damage(opp, hit + bonus, water, cap)
    if name == FIRE:
        attacker = Dragon(cells, me.water, 0)
        e_fire += me.fire
    else:
        attacker = Dragon(cells, me.water, me.fire)
    pair = (attacker, new_opp) if colour == WHITE else (new_opp, attacker)
    results.append(Outcome(path, EXPEL, pair, e_water, e_fire))
    return results
