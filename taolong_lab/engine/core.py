"""The rules machinery on plain tuples: sowing, the eight elements, bites, expels, damage.

This is the hot path. A position in play is a *walk*: ``(dragons, water, fire, rocks)`` where
``dragons`` holds two :class:`Dragon` values (white first), ``water``/``fire`` are the stones in
the centre of the Ba Gua and ``rocks`` the breakable rocks left, as sorted ``(cell, hits)`` pairs.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from ..rules.data import game_data
from ..rules.options import Rules
from ..rules.scenario import Scenario, load_scenario
from .geometry import Geometry, geometry
from .turns import ABSORB, EXPEL

WHITE, BLACK = 0, 1
CCW, CW = 0, 1  # Ba Gua flow; the flux coin shows the last flow used (Master)
ROCK_HITS = 2  # a breakable rock takes 2 damage (rulebook, The Wall and The Cave)
HEAVEN, LAKE, FIRE, THUNDER, EARTH, MOUNTAIN, WATER, WIND = (
    "heaven", "lake", "fire", "thunder", "earth", "mountain", "water", "wind"
)  # fmt: skip


class Dragon(NamedTuple):
    """A dragon: its cells head first (cell indices), its water (life) and fire meters.

    ``links`` records where the body passes through a pair of portals: ``(i, exit, entry)``
    means ``cells[i]`` sits beside the ``exit`` portal and ``cells[i + 1]`` beside ``entry``.
    """

    cells: tuple[int, ...]
    water: int
    fire: int
    links: tuple[tuple[int, int, int], ...] = ()

    @property
    def segments(self) -> int:
        return len(self.cells) - 1

    @property
    def alive(self) -> bool:
        return len(self.cells) > 1

    def portals(self) -> tuple[int, ...]:
        return tuple(p for _, q, e in self.links for p in (q, e))


class Layout(NamedTuple):
    """The fixed tiles of a board: what TLN's board field holds, less the breakable rocks."""

    width: int
    height: int
    rows: tuple[str, ...]  # one symbol a cell: "." "#" "o" "V" or a portal colour


class Env:
    """Everything fixed by the rules and the layout, precomputed for the hot path."""

    def __init__(self, rules: Rules, layout: Layout):
        data = game_data()
        self.rules, self.layout = rules, layout
        self.scenario: Scenario = load_scenario(rules.scenario)
        self.data = data
        self.geo: Geometry = geometry(layout.width, layout.height, self.scenario.wrap)
        self.nbr, self.xy = self.geo.nbr, self.geo.xy
        self.ring = data.ring
        self.ring_size = len(data.ring)
        self.cap = data.capacity
        self.tail_first = rules.tail_vacates_first
        self.bite_on_stay = rules.option("bite_on_stay")
        self.solo = rules.solo
        self.extra_phases = 0 if rules.solo else rules.option("extra_phases")
        self.bit = tuple(1 << c for c in range(self.geo.size))
        self.breakable = self.scenario.breakable_rocks
        self.protector = {"white": WHITE, "black": BLACK}.get(rules.option("village"))
        cells = [
            (y * layout.width + x, sym)
            for y, row in enumerate(layout.rows)
            for x, sym in enumerate(row)
        ]
        self.portal_colour = {c: s for c, s in cells if s.isupper() and s != "V"}
        self.portal_mask = self.mask(self.portal_colour)
        self.village_mask = self.mask(c for c, s in cells if s == "V")
        self.beside_village = self.mask(
            c
            for c in range(self.geo.size)
            if any(n >= 0 and self.village_mask >> n & 1 for n in self.nbr[c])
        )
        self.static_mask = self.mask(c for c, s in cells if s in "#oV")
        self.extra_elements = frozenset(data.ring.index(e) for e in ("wind", "thunder"))
        self.monk = rules.mode in ("monk", "master", "chosen-one")
        self.main_spaces = tuple(data.ring.index(m) for m in sorted(data.main))
        self.plain = not self.portal_colour and self.protector is None and not self.breakable
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

    def facing(self, dragon: Dragon) -> int:
        """The direction from the neck (or the exit portal) to the head."""
        links = dragon.links
        if links and links[0][0] == 0:
            return self.geo.direction[(links[0][1], dragon.cells[0])]
        return self.geo.direction[(dragon.cells[1], dragon.cells[0])]

    def mask(self, cells) -> int:
        bit = self.bit
        m = 0
        for c in cells:
            m |= bit[c]
        return m

    def tiles(self, dragon: Dragon) -> int:
        """The dragon's cells and the portals it occupies."""
        m = self.mask(dragon.cells)
        for _, q, e in dragon.links:
            m |= self.bit[q] | self.bit[e]
        return m

    def targets(self, dragons, colour: int) -> int:
        """Cells that count as part of ``colour``'s dragon (bites, expels): its tiles, and the
        village for the protector."""
        m = self.tiles(dragons[colour])
        return m | self.village_mask if colour == self.protector else m


def start_layout(rules: Rules) -> tuple[Layout, tuple[tuple[int, int], ...]]:
    """The scenario's fixed tiles (the village replacing the big rock when played) and its
    breakable rocks, as ``(cell, hits)``."""
    scenario = load_scenario(rules.scenario)
    rows = [list(row) for row in scenario.rows]
    if rules.option("village") is not None:
        for row in rows:
            for x, sym in enumerate(row):
                if sym == "#":
                    row[x] = "."
        for x, y in game_data().village_cells:
            rows[y][x] = "V"
    rocks = []
    if scenario.breakable_rocks:
        for y, row in enumerate(rows):
            for x, sym in enumerate(row):
                if sym == "o":
                    rocks.append((y * scenario.width + x, ROCK_HITS))
                    row[x] = "."
    layout = Layout(scenario.width, scenario.height, tuple("".join(r) for r in rows))
    return layout, tuple(sorted(rocks))


ENV_CACHE_SIZE = 256  # layouts whose tables are kept (the ones used last)


@functools.lru_cache(maxsize=ENV_CACHE_SIZE)
def env_for(rules: Rules, layout: Layout | None = None) -> Env:
    """The precomputed tables for ``rules`` on ``layout`` (default: the scenario's own)."""
    return Env(rules, layout or start_layout(rules)[0])


def sow(bagua: tuple[str, ...], space: int, flow: int = CCW) -> tuple[tuple[str, ...], int]:
    """Lift the stack on ``space`` and drop it one stone a space, base stone first.

    Returns the new stacks and the space that received the last stone.

    >>> sow(("WW", "", "BW", "", "BB", "", "WB", ""), 0)
    (('', 'W', 'BWW', '', 'BB', '', 'WB', ''), 2)
    """
    stack = bagua[space]
    new = list(bagua)
    new[space] = ""
    i = space
    n = len(new)
    step = 1 if flow == CCW else n - 1
    for stone in stack:
        i = (i + step) % n
        new[i] += stone
    return tuple(new), i


def damage(dragon: Dragon, amount: int, water: int, cap: int) -> tuple[Dragon, int]:
    """Apply ``amount`` damage one water stone at a time (A14).

    When the meter empties the tail segment is lost; a surviving dragon refills its meter
    from the centre and takes the rest. Returns the dragon and the centre's water.

    >>> damage(Dragon((0, 1, 2), 2, 0), 3, 2, 4)
    (Dragon(cells=(0, 1), water=3, fire=0, links=()), 1)
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
    links = dragon.links
    if links and len(cells) < len(dragon.cells):  # release portals with no tail side left
        links = tuple(link for link in links if link[0] < len(cells) - 1)
    return Dragon(cells, w, dragon.fire, links), water


def hurt(walk, colour: int, amount: int, cap: int):
    """``walk`` after ``colour``'s dragon takes ``amount`` damage."""
    dragons, water, fire, rocks = walk
    hit, water = damage(dragons[colour], amount, water, cap)
    pair = (hit, dragons[1]) if colour == WHITE else (dragons[0], hit)
    return pair, water, fire, rocks


class Outcome(NamedTuple):
    """The result of one Matter execution, before it is turned into notation."""

    path: tuple[int, ...]  # the head's cell after each step
    portals: tuple[tuple[int, int, int], ...]  # (step index, entry portal, exit portal)
    effect: str | None
    walk: tuple


def _replace(dragons, colour, dragon):
    return (dragon, dragons[1]) if colour == WHITE else (dragons[0], dragon)


def occupancy(env: Env, walk) -> int:
    """Cells a step cannot enter: both dragons' tiles and the fixed tiles."""
    dragons = walk[0]
    if env.plain:
        return env.mask(dragons[0].cells) | env.mask(dragons[1].cells) | env.static_mask
    return env.tiles(dragons[0]) | env.tiles(dragons[1]) | env.static_mask


def steps(env: Env, walk, colour: int, d: int, occ: int) -> list[tuple]:
    """Every way the dragon of ``colour`` can take one step in direction ``d``.

    ``occ`` is :func:`occupancy` of ``walk``. Returns ``(walk, facing, portal, occ)`` tuples;
    ``portal`` is ``(entry, exit)`` for a step through a portal, else ``None``; ``occ`` is the
    occupancy after the step. No result means the step is blocked.
    """
    dragons, water, fire, rocks = walk
    me = dragons[colour]
    cells = me.cells
    target = env.nbr[cells[0]][d]
    if target < 0:
        return []
    if env.plain:
        if occ >> target & 1 and not (env.tail_first and target == cells[-1] and len(cells) > 2):
            return []
        moved = Dragon((target, *cells[:-1]), me.water, me.fire)
        pair = (moved, dragons[1]) if colour == WHITE else (dragons[0], moved)
        bit = env.bit
        return [((pair, water, fire, rocks), d, None, (occ & ~bit[cells[-1]]) | bit[target])]
    if target in env.portal_colour and not occ >> target & 1:
        return _portal_steps(env, walk, colour, target, occ)
    if occ >> target & 1 and not (env.tail_first and target == cells[-1] and len(cells) > 2):
        return []
    links = tuple((i + 1, q, e) for i, q, e in me.links if i + 2 < len(cells))
    moved = Dragon((target, *cells[:-1]), me.water, me.fire, links)
    walk = (_replace(dragons, colour, moved), water, fire, rocks)
    for cell, hits in rocks:
        if cell == target:  # trampling: the rock is destroyed and the dragon takes what it had left
            walk = hurt(
                (*walk[:3], tuple(r for r in rocks if r[0] != target)), colour, hits, env.cap
            )
            break
    return [(walk, d, None, occupancy(env, walk))]


def _portal_steps(env: Env, walk, colour: int, entry: int, occ: int):
    """Steps onto the free portal ``entry``: out beside each available destination (A18, A19)."""
    dragons, water, fire, rocks = walk
    me = dragons[colour]
    rule = env.scenario.portal_rule(env.portal_colour[entry])
    if rule.cost == "fire" and me.fire < 1:
        return []
    colour_of = env.portal_colour
    if rule.destination == "twin":
        exits = [c for c in colour_of if c != entry and colour_of[c] == colour_of[entry]]
    else:
        exits = [c for c in colour_of if c != entry]
    blocked = occ | env.portal_mask | env.mask(c for c, _ in rocks)
    cells = me.cells
    out = []
    for exit_ in sorted(exits):
        if occ >> exit_ & 1:
            continue
        for d, cell in enumerate(env.nbr[exit_]):
            if cell < 0:
                continue
            if blocked >> cell & 1 and not (
                env.tail_first and cell == cells[-1] and len(cells) > 2
            ):
                continue
            links = tuple((i + 1, q, e) for i, q, e in me.links if i + 2 < len(cells))
            moved = Dragon(
                (cell, *cells[:-1]),
                me.water,
                me.fire - (rule.cost == "fire"),
                ((0, exit_, entry), *links),
            )
            new = (_replace(dragons, colour, moved), water, fire + (rule.cost == "fire"), rocks)
            if rule.cost == "water":
                new = hurt(new, colour, 1, env.cap)
            out.append((new, d, (entry, exit_), occupancy(env, new)))
    return out


def _bite(env: Env, walk, colour: int, facing: int, moved: bool, prey: int):
    """The bite at the end of a moving element: 1 damage to whatever the head faces.
    ``prey`` is the opponent's :meth:`Env.targets` mask."""
    dragons, _water, _fire, rocks = walk
    me = dragons[colour]
    if (not moved and not env.bite_on_stay) or len(me.cells) < 2:
        return walk
    front = env.nbr[me.cells[0]][facing]
    if front < 0:
        return walk
    if prey >> front & 1:
        return hurt(walk, 1 - colour, 1, env.cap)
    if rocks:
        return (*walk[:3], _hit_rocks(rocks, {front: 1}))
    return walk


def _hit_rocks(rocks, hits: dict[int, int]):
    return tuple((c, h - hits.get(c, 0)) for c, h in rocks if h - hits.get(c, 0) > 0)


def _alive(walk) -> bool:
    return walk[0][0].alive and walk[0][1].alive


def life(env: Env, walk, colour: int) -> int:
    """Damage the dragon can still take: 4 per segment beyond the first plus its water."""
    d = walk[0][colour]
    return (len(d.cells) - 2) * env.cap + d.water if d.alive else 0


def executions(env: Env, walk, colour: int, element: int, occ: int | None = None) -> list[Outcome]:
    """Every legal Matter execution of ``element`` by the dragon of ``colour``.

    An empty list means the action is impossible. ``occ`` may pass :func:`occupancy`.
    """
    if occ is None:
        occ = occupancy(env, walk)
    me = walk[0][colour]
    f = env.facing(me)
    name = env.ring[element]
    found = []  # (path, portals, walk, facing, occupancy)
    if name in (HEAVEN, EARTH):
        if f & 1 != (name == EARTH):
            return []
        for w1, f1, p1, o1 in steps(env, walk, colour, f, occ):
            first = (p1 and ((0, *p1),)) or ()
            head1 = w1[0][colour].cells[0]
            found.append(((head1,), first, w1, f1, o1))
            if w1[0][colour].alive:
                for w2, f2, p2, o2 in steps(env, w1, colour, f1, o1):
                    portals = first + (((1, *p2),) if p2 else ())
                    found.append(((head1, w2[0][colour].cells[0]), portals, w2, f2, o2))
    elif name in (WIND, THUNDER):
        if f & 1 != (name == THUNDER):
            return []
        for d in sorted(((f + 1) % 4, (f + 3) % 4)):
            for w1, f1, p1, o1 in steps(env, walk, colour, d, occ):
                found.append(((w1[0][colour].cells[0],), ((0, *p1),) if p1 else (), w1, f1, o1))
    elif name in (LAKE, MOUNTAIN) and f & 1 != (name == MOUNTAIN):
        found.append(((), (), walk, f, occ))
    else:
        for d in range(4):
            for w1, f1, p1, o1 in steps(env, walk, colour, d, occ):
                found.append(((w1[0][colour].cells[0],), ((0, *p1),) if p1 else (), w1, f1, o1))
        if name in (FIRE, WATER):
            prey = env.targets(walk[0], 1 - colour)
            out = []
            for path, portals, w1, f1, o1 in found:
                out.extend(_absorb_or_expel(env, w1, colour, name, f1, path, portals, o1, prey))
            return out
    prey = env.targets(walk[0], 1 - colour)
    return [
        Outcome(
            path,
            portals,
            None,
            _bite(env, w, colour, f1, bool(path), prey) if w[0][colour].alive else w,
        )
        for path, portals, w, f1, _ in found
    ]


def ruler_hit(env: Env, head: int, f: int, occ: int, target_mask: int) -> int:
    """The highest ruler value reaching one of ``target_mask``'s cells, or -1 for a miss."""
    best = -1
    entries = env.ruler[head * 4 + f]
    for cell, value, blocked_by in entries:
        if cell < 0 or not target_mask >> cell & 1 or value <= best:
            continue
        if not any(entries[b][0] < 0 or occ >> entries[b][0] & 1 for b in blocked_by):
            best = value
    return best


def ruler_hits(env: Env, head: int, f: int, occ: int) -> list[tuple[int, int]]:
    """The ruler cells an expel reaches, as ``(cell, value)``: a cell is reached when the
    cells it depends on hold no tile; a reached cell holding a tile stops what lies beyond."""
    entries = env.ruler[head * 4 + f]
    return [
        (cell, value)
        for cell, value, blocked_by in entries
        if cell >= 0 and not any(entries[b][0] < 0 or occ >> entries[b][0] & 1 for b in blocked_by)
    ]


def _absorb_or_expel(env: Env, walk, colour, name, f, path, portals, occ, target):
    dragons, water, fire, rocks = walk
    me = dragons[colour]
    cap = env.cap
    if not me.alive:
        return [Outcome(path, portals, ABSORB, walk), Outcome(path, portals, EXPEL, walk)]
    # absorb: one stone of the element from the centre, if the meter has room (A13)
    if name == FIRE:
        take = me.fire < cap and fire > 0
        fed = Dragon(me.cells, me.water, me.fire + take, me.links)
        absorbed = (_replace(dragons, colour, fed), water, fire - take, rocks)
    else:
        take = me.water < cap and water > 0
        fed = Dragon(me.cells, me.water + take, me.fire, me.links)
        absorbed = (_replace(dragons, colour, fed), water - take, fire, rocks)
    results = [Outcome(path, portals, ABSORB, absorbed)]
    # expel: a ranged attack through the ruler (A15: the water bonus counts the centre first)
    if not env.plain:
        occ |= env.portal_mask | env.mask(c for c, _ in rocks)
    best = ruler_hit(env, me.cells[0], f, occ, target)
    new = walk
    if best >= 0:
        new = hurt(walk, 1 - colour, best + (me.fire if name == FIRE else water), cap)
    if rocks:  # rocks take the ruler's value, without the bonus (A21)
        new = (*new[:3], _hit_rocks(rocks, dict(ruler_hits(env, me.cells[0], f, occ))))
    if name == FIRE:  # fire stones go back to the centre, hit or miss (A15)
        dragons2, w2, f2, r2 = new
        attacker = dragons2[colour]
        spent = Dragon(attacker.cells, attacker.water, 0, attacker.links)
        new = (_replace(dragons2, colour, spent), w2, f2 + attacker.fire, r2)
    results.append(Outcome(path, portals, EXPEL, new))
    return results


def village_damage(env: Env, walk, colour: int):
    """End of the challenger's turn: 1 damage if any of its parts is beside the village."""
    if env.protector is None or colour == env.protector or not _alive(walk):
        return walk
    if env.tiles(walk[0][colour]) & env.beside_village:
        return hurt(walk, colour, 1, env.cap)
    return walk
