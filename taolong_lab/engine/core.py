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


_dragon = functools.partial(tuple.__new__, Dragon)  # Dragon(*fields) without the Python-level call


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
        self.light = not self.portal_colour and not self.breakable  # see is_light
        self.light_cache: dict = {}
        self._bodies: dict = {}
        self.moves = tuple(ELEMENT_MOVES[name] for name in self.ring)
        # the cells a light plan from each cell may step onto: its neighbours, and the cells
        # two steps away in a straight line
        self.reach = tuple(
            self.mask(
                [n for n in self.nbr[c] if n >= 0]
                + [self.nbr[n][d] for d, n in enumerate(self.nbr[c]) if n >= 0]
            )
            for c in range(self.geo.size)
        )
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

    def body(self, cells: tuple[int, ...]) -> int:
        """:meth:`mask` of a dragon's cells, kept per body (there are few bodies per board)."""
        m = self._bodies.get(cells)
        if m is None:
            if len(self._bodies) >= BODY_CACHE_SIZE:
                self._bodies.clear()
            m = self._bodies[cells] = self.mask(cells)
        return m

    def tiles(self, dragon: Dragon) -> int:
        """The dragon's cells and the portals it occupies."""
        m = self.body(dragon.cells)
        for _, q, e in dragon.links:
            m |= self.bit[q] | self.bit[e]
        return m

    def targets(self, dragons, colour: int) -> int:
        """Cells that count as part of ``colour``'s dragon (bites, expels): its tiles, and the
        village for the protector."""
        m = self.tiles(dragons[colour])
        return m | self.village_mask if colour == self.protector else m


@functools.cache
def light_steps(geo: Geometry) -> tuple:
    """The plans of :func:`_light_plans` on a board, made once: ``(one, two, stay, reach)``
    where ``one[cell * 4 + d]`` holds the one-step plans from ``cell`` towards ``d`` (no
    effect, absorb, expel), ``two[cell * 4 + d]`` the two-step plan, ``stay[d]`` staying put,
    and ``reach[cell]`` the mask of the cells a plan from ``cell`` may step onto."""
    nbr = geo.nbr
    one, two, reach = [], [], []
    for cell in range(geo.size):
        near = 0
        for d in range(4):
            a = nbr[cell][d]
            b = nbr[a][d] if a >= 0 else -1
            one.append(
                None
                if a < 0
                else tuple(_plan(((a,), (), e, d, None, 0)) for e in (None, ABSORB, EXPEL))
            )
            two.append(None if b < 0 else _plan(((a, b), (), None, d, None, 0)))
            near |= (1 << a if a >= 0 else 0) | (1 << b if b >= 0 else 0)
        reach.append(near)
    stay = tuple(_plan(((), (), None, d, None, 0)) for d in range(4))
    return tuple(one), tuple(two), stay, tuple(reach)


# How each element moves the dragon (the axis is the facing's: 0 vertical, 1 horizontal):
# Heaven and Earth two steps forward on their axis; Wind and Thunder one step sideways on theirs;
# Lake and Mountain stay on their axis, else one step any way; Fire and Water one step any way,
# then absorb or expel.
FORWARD, SIDEWAYS, STAY_ON_AXIS, STEP_AND_EFFECT = range(4)
ELEMENT_MOVES = {
    HEAVEN: (FORWARD, 0), EARTH: (FORWARD, 1), WIND: (SIDEWAYS, 0), THUNDER: (SIDEWAYS, 1),
    LAKE: (STAY_ON_AXIS, 1), MOUNTAIN: (STAY_ON_AXIS, 0),
    FIRE: (STEP_AND_EFFECT, -1), WATER: (STEP_AND_EFFECT, -1),
}  # fmt: skip


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


class Sown(NamedTuple):
    """What :func:`sow` does to the Ba Gua."""

    bagua: tuple[str, ...]  # the stacks after sowing
    element: int  # the space the last stone landed on: the element of the Matter phase
    targets: tuple[int, ...]  # the space each stone landed on, base stone first


_sown = functools.partial(tuple.__new__, Sown)


def sow(bagua: tuple[str, ...], space: int, flow: int = CCW) -> Sown:
    """Lift the stack on ``space`` and drop it one stone a space, base stone first (R3.3):
    counterclockwise (``CCW``, up the ring order) or clockwise (``CW``, Master's flow).

    The one place the engine, the solvers and the pictures sow a stack as it stands; Monk's
    drop priorities choose the colours dropped on the same :attr:`Sown.targets`.

    Parameters
    ----------
    bagua : tuple of str
        The eight stacks in ring order, each base first.
    space : int
        The space sown (its ring index).
    flow : int
        ``CCW`` or ``CW``.

    Returns
    -------
    Sown
        The stacks after sowing, the space the last stone landed on and the spaces the
        stones landed on.

    >>> sow(("WW", "", "BW", "", "BB", "", "WB", ""), 0)
    Sown(bagua=('', 'W', 'BWW', '', 'BB', '', 'WB', ''), element=2, targets=(1, 2))
    >>> sow(("WW", "", "BW", "", "BB", "", "WB", ""), 0, CW).targets
    (7, 6)
    """
    stack = bagua[space]
    new = list(bagua)
    new[space] = ""
    i = space
    n = len(new)
    step = 1 if flow == CCW else n - 1
    landed = []
    for stone in stack:
        i = (i + step) % n
        new[i] += stone
        landed.append(i)
    return _sown((tuple(new), i, tuple(landed)))


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


_outcome = functools.partial(tuple.__new__, Outcome)


def _replace(dragons, colour, dragon):
    return (dragon, dragons[1]) if colour == WHITE else (dragons[0], dragon)


def occupancy(env: Env, walk) -> int:
    """Cells a step cannot enter: both dragons' tiles and the fixed tiles."""
    white, black = walk[0]
    if env.plain:
        return env.body(white[0]) | env.body(black[0]) | env.static_mask
    return env.tiles(white) | env.tiles(black) | env.static_mask


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


def _bite_damage(env: Env, head: int, facing: int, moved: bool, prey: int) -> int:
    """What :func:`_bite` deals the opponent: 1 when the head faces its prey."""
    if not moved and not env.bite_on_stay:
        return 0
    front = env.nbr[head][facing]
    return 1 if front >= 0 and prey >> front & 1 else 0


def _hit_rocks(rocks, hits: dict[int, int]):
    return tuple((c, h - hits.get(c, 0)) for c, h in rocks if h - hits.get(c, 0) > 0)


def _alive(walk) -> bool:
    white, black = walk[0]
    return len(white[0]) > 1 and len(black[0]) > 1


def life(env: Env, walk, colour: int) -> int:
    """Damage the dragon can still take: 4 per segment beyond the first plus its water."""
    cells, water = walk[0][colour][:2]
    return (len(cells) - 2) * env.cap + water if len(cells) > 1 else 0


class Plan(NamedTuple):
    """A legal Matter execution, not yet carried out (:func:`carry_out`).

    ``path``, ``portals`` and ``effect`` are what the notation shows, ``facing`` the head's
    direction after the steps. ``moved`` and ``occ`` are the walk after the steps and its
    occupancy; None for plain steps (:func:`is_light`), which cannot hurt the dragon, and
    :func:`carry_out` works the walk out from the path."""

    path: tuple[int, ...]
    portals: tuple[tuple[int, int, int], ...]
    effect: str | None
    facing: int
    moved: tuple | None
    occ: int


_plan = functools.partial(tuple.__new__, Plan)


def plans(env: Env, walk, colour: int, element: int, occ: int | None = None) -> list[Plan]:
    """Every legal Matter execution of ``element`` by the dragon of ``colour``, in the order
    of the notation's turn lists: one step before two, N/E/S/W, absorb before expel.

    An empty list means the action is impossible. ``occ`` may pass :func:`occupancy`.
    """
    if occ is None:
        occ = occupancy(env, walk)
    me = walk[0][colour]
    f = env.facing(me)
    if is_light(env, walk, me):
        row = light_row(env, me.cells, f, occ)
        found = row[element]
        return found if found is not None else fill(env, row, me.cells, f, occ, element)
    return _stepped_plans(env, walk, colour, f, env.ring[element], occ)


def is_light(env: Env, walk, me: Dragon) -> bool:
    """Whether every step ``me`` could take is a plain one: no portal or breakable rock in
    reach of its head and no portal under its body, so :func:`_light_plans` applies."""
    if env.light:
        return True
    if me.links:
        return False
    special = env.portal_mask
    for cell, _ in walk[3]:
        special |= env.bit[cell]
    return not env.reach[me.cells[0]] & special


def _light_plans(env: Env, cells, f: int, element: int, occ: int) -> list[Plan]:
    """:func:`plans` where every step is plain (:func:`is_light`): a step is legal when its
    cell is on the board and free (or, with ``tail_vacates_first``, the cell the tail leaves).
    The plans come from :func:`light_steps`, made once per board."""
    move, axis = env.moves[element]
    one, two, stay, _ = light_steps(env.geo)
    head, tail = cells[0], cells[-1]
    if move == STAY_ON_AXIS and f & 1 == axis:
        return [stay[f]]
    spare = env.tail_first and len(cells) > 2
    if move == FORWARD:
        if f & 1 != axis:
            return []
        first = one[head * 4 + f]
        if first is None:
            return []
        cell = first[0].path[0]
        if occ >> cell & 1 and not (spare and cell == tail):
            return []
        second = two[head * 4 + f]
        if second is not None:
            far = second.path[1]
            if not ((occ & ~env.bit[tail]) | env.bit[cell]) >> far & 1 or (
                spare and far == cells[-2]
            ):
                return [first[0], second]
        return [first[0]]
    if move == SIDEWAYS:
        if f & 1 != axis:
            return []
        turns = (f + 1) % 4, (f + 3) % 4
        if turns[0] > turns[1]:
            turns = turns[::-1]
        pick = slice(0, 1)
    else:
        turns = range(4)
        pick = slice(1, 3) if move == STEP_AND_EFFECT else slice(0, 1)
    out = []
    base = head * 4
    for d in turns:
        step = one[base + d]
        if step is not None:
            cell = step[0].path[0]
            if not occ >> cell & 1 or (spare and cell == tail):
                out += step[pick]
    return out


def light_row(env: Env, cells, f: int, occ: int) -> list:
    """The :func:`_light_plans` of the dragon ``cells`` facing ``f``, a list by element, kept
    per board: keyed by what the plans read (the head and its facing, the occupied cells in
    reach and, with ``tail_vacates_first``, the tail and the cell before it). An element's
    entry is None until :func:`fill` works it out."""
    head = cells[0]
    reach = env.reach[head]
    key = (occ & reach) << 12 | head << 2 | f
    if env.tail_first and len(cells) > 2:
        tail, neck = cells[-1], cells[-2]
        key = (key, tail if reach >> tail & 1 else -1, neck if reach >> neck & 1 else -1)
    row = env.light_cache.get(key)
    if row is None:
        if len(env.light_cache) >= LIGHT_CACHE_SIZE:
            env.light_cache.clear()
        row = env.light_cache[key] = [None] * env.ring_size
    return row


def fill(env: Env, row: list, cells, f: int, occ: int, element: int) -> tuple:
    """``row[element]`` of :func:`light_row`, worked out and kept."""
    found = row[element] = tuple(_light_plans(env, cells, f, element, occ))
    return found


LIGHT_CACHE_SIZE = 1 << 17  # light tables kept per board before the cache starts again
BODY_CACHE_SIZE = 1 << 16  # dragon bodies kept per board (Env.body)


def _stepped_plans(env: Env, walk, colour: int, f: int, name: str, occ: int) -> list[Plan]:
    """:func:`plans` on a board with portals or breakable rocks, step by step (:func:`steps`)."""
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
    effects = (ABSORB, EXPEL) if name in (FIRE, WATER) else (None,)
    return [
        _plan((path, portals, effect, f1, w1, o1))
        for path, portals, w1, f1, o1 in found
        for effect in effects
    ]


def carry_out(env: Env, walk, colour: int, name: str, plan: Plan, prey: int):
    """The walk after the dragon of ``colour`` carries out ``plan``, an execution of the
    element ``name``: its steps, then the bite, or for Fire and Water the absorb or the expel.
    ``prey`` is the opponent's :meth:`Env.targets` mask before the steps."""
    moved, occ = plan.moved, plan.occ
    if moved is None:
        path = plan.path
        if path:
            dragons = walk[0]
            me = dragons[colour]
            cells = me.cells
            new = _dragon((path[::-1] + cells[: len(cells) - len(path)], me.water, me.fire, ()))
            pair = (new, dragons[1]) if colour == WHITE else (dragons[0], new)
            moved = (pair, walk[1], walk[2], walk[3])
        else:
            moved = walk
        occ = -1
    if len(moved[0][colour].cells) < 2:
        return moved
    effect = plan.effect
    if effect is None:
        return _bite(env, moved, colour, plan.facing, bool(plan.path), prey)
    if effect == ABSORB:
        return _absorb(env, moved, colour, name)
    if occ < 0:
        occ = occupancy(env, moved)
    return _expel(env, moved, colour, name, plan.facing, occ, prey)


def executions(env: Env, walk, colour: int, element: int, occ: int | None = None) -> list[Outcome]:
    """Every legal Matter execution of ``element`` by the dragon of ``colour``, carried out.

    An empty list means the action is impossible. ``occ`` may pass :func:`occupancy`.
    """
    found = plans(env, walk, colour, element, occ)
    if not found:
        return []
    prey = env.targets(walk[0], 1 - colour)
    name = env.ring[element]
    return [
        _outcome((p.path, p.portals, p.effect, carry_out(env, walk, colour, name, p, prey)))
        for p in found
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


def _absorb(env: Env, walk, colour: int, name: str):
    """Absorb: one stone of the element from the centre, if the meter has room (A13)."""
    dragons, water, fire, rocks = walk
    me = dragons[colour]
    cap = env.cap
    if name == FIRE:
        take = me.fire < cap and fire > 0
        fed = _dragon((me.cells, me.water, me.fire + take, me.links))
        return _replace(dragons, colour, fed), water, fire - take, rocks
    take = me.water < cap and water > 0
    fed = _dragon((me.cells, me.water + take, me.fire, me.links))
    return _replace(dragons, colour, fed), water - take, fire, rocks


def _expel(env: Env, walk, colour: int, name: str, f: int, occ: int, target: int):
    """Expel: a ranged attack through the ruler (A15: the water bonus counts the centre first)."""
    dragons, water, _fire, rocks = walk
    me = dragons[colour]
    occ = _ruler_blockers(env, occ, rocks)
    hit = _expel_damage(env, me.cells[0], f, occ, target, me.fire if name == FIRE else water)
    new = walk
    if hit:
        new = hurt(walk, 1 - colour, hit, env.cap)
    if rocks:  # rocks take the ruler's value, without the bonus (A21)
        new = (*new[:3], _hit_rocks(rocks, dict(ruler_hits(env, me.cells[0], f, occ))))
    if name == FIRE:  # fire stones go back to the centre, hit or miss (A15)
        dragons2, w2, f2, r2 = new
        attacker = dragons2[colour]
        spent = _dragon((attacker.cells, attacker.water, 0, attacker.links))
        new = (_replace(dragons2, colour, spent), w2, f2 + attacker.fire, r2)
    return new


def _ruler_blockers(env: Env, occ: int, rocks) -> int:
    """What stops the ruler: the tiles of ``occ``, the portals and the breakable rocks."""
    if env.plain:
        return occ
    occ |= env.portal_mask
    for cell, _ in rocks:
        occ |= env.bit[cell]
    return occ


def _expel_damage(env: Env, head: int, f: int, blockers: int, target: int, bonus: int) -> int:
    """What an expel deals: the ruler's best value reaching ``target`` plus the bonus, or 0."""
    best = ruler_hit(env, head, f, blockers, target)
    return best + bonus if best >= 0 else 0


def plan_damage(env: Env, walk, colour: int, element: int, plan: Plan, prey: int) -> int:
    """The life the opponent of ``colour`` loses when ``plan`` is carried out (at most what it
    has): worked out from the numbers for plain steps, else by carrying it out."""
    other = 1 - colour
    have = life(env, walk, other)
    if plan.moved is not None:
        done = carry_out(env, walk, colour, env.ring[element], plan, prey)
        return have - life(env, done, other)
    effect, path = plan.effect, plan.path
    me = walk[0][colour]
    head = path[-1] if path else me.cells[0]
    if effect is None:
        hit = _bite_damage(env, head, plan.facing, bool(path), prey)
    elif effect == ABSORB:
        hit = 0
    else:
        cells = me.cells
        moved = _dragon((path[::-1] + cells[: len(cells) - len(path)], me.water, me.fire, ()))
        pair = (moved, walk[0][1]) if colour == WHITE else (walk[0][0], moved)
        occ = _ruler_blockers(env, occupancy(env, (pair,)), walk[3])
        bonus = me.fire if env.ring[element] == FIRE else walk[1]
        hit = _expel_damage(env, head, plan.facing, occ, prey, bonus)
    return min(hit, have)


@functools.lru_cache(maxsize=1 << 16)
def most_damage(env: Env, walk, colour: int, element: int) -> int:
    """The most life the opponent of ``colour`` can lose from ``colour``'s Matter phase of
    ``element`` (0 if the action is impossible)."""
    found = plans(env, walk, colour, element)
    if not found:
        return 0
    prey = env.targets(walk[0], 1 - colour)
    return max(plan_damage(env, walk, colour, element, p, prey) for p in found)


def village_damage(env: Env, walk, colour: int):
    """End of the challenger's turn: 1 damage if any of its parts is beside the village."""
    if env.protector is None or colour == env.protector or not _alive(walk):
        return walk
    if env.tiles(walk[0][colour]) & env.beside_village:
        return hurt(walk, colour, 1, env.cap)
    return walk


__all__ = [
    "BLACK",
    "BODY_CACHE_SIZE",
    "CCW",
    "CW",
    "EARTH",
    "ELEMENT_MOVES",
    "ENV_CACHE_SIZE",
    "FIRE",
    "FORWARD",
    "HEAVEN",
    "LAKE",
    "LIGHT_CACHE_SIZE",
    "MOUNTAIN",
    "ROCK_HITS",
    "SIDEWAYS",
    "STAY_ON_AXIS",
    "STEP_AND_EFFECT",
    "THUNDER",
    "WATER",
    "WHITE",
    "WIND",
    "Dragon",
    "Env",
    "Layout",
    "Outcome",
    "Plan",
    "Sown",
    "carry_out",
    "damage",
    "env_for",
    "executions",
    "fill",
    "hurt",
    "is_light",
    "life",
    "light_row",
    "light_steps",
    "most_damage",
    "occupancy",
    "plan_damage",
    "plans",
    "ruler_hit",
    "ruler_hits",
    "sow",
    "start_layout",
    "steps",
    "village_damage",
]
