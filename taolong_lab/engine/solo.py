"""The solo variant (A28–A31): stack-order sowing and the automated opponent.

A solo turn is the player's Spirit choice, then the opponent's *group* (the action of every
space that received one of its stones, in drop order), then the player's Matter phase. The
opponent picks among the combined executions of its whole group by four priorities:

1. the most damage dealt to the player's dragon (:func:`damage_dealt`);
2. the least damage it could take (:func:`potential_damage`), up to the end of the player's
   pending Matter phase (``solo_lookahead="matter"``) or of the player's next turn
   (``"next-turn"``, where the opponent uses priorities 1 and 3 only);
3. the shortest path to face the player (:func:`approach_distance`);
4. the player decides: every option still tied is a legal turn of its own.

Every score depends only on where the group leaves the board, so executions that end in the
same place are one option. The core works on walks (see :mod:`.core`); :func:`opponent_choices`
is the same policy on a :class:`~taolong_lab.engine.state.State`.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

from ..errors import RulesError
from .core import (
    Env,
    Outcome,
    Plan,
    _alive,
    executions,
    hurt,
    life,
    most_damage,
    occupancy,
    plan_damage,
    plans,
    sow,
    village_damage,
)
from .spirit import (
    ENDED,
    EXEC,
    FOCUS,
    PENALTY,
    Sowing,
    _action,
    _focus,
    _monk_sowings,
    finish,
    flow_for,
    phase_of_plan,
    resolve_effects,
)
from .turns import Phase, space_index

UNREACHABLE = 10**6  # approach distance when no path exists
PRIORITIES = (1, 2, 3)


class Candidate(NamedTuple):
    """One way the opponent's group can go, with its score at each priority."""

    actions: tuple[tuple[int, Outcome | None], ...]  # (element, execution | None if skipped)
    walk: tuple
    dealt: int  # priority 1: damage dealt to the player's dragon (higher is better)
    risk: int  # priority 2: damage the opponent could take (lower is better; 0 if not judged)
    distance: int  # priority 3: steps to face the player (lower is better; 0 if not judged)


# ---- sowing (A28) --------------------------------------------------------------------------
class SoloSowing(NamedTuple):
    sowing: Sowing
    pattern: str  # the colours dropped, in drop order
    targets: tuple[int, ...]  # the spaces that received them


def solo_sowings(env: Env, bagua, space: int, flow: int) -> tuple[SoloSowing, ...]:
    """The ways the player may sow ``space`` in solo: stack order from the base (A28).

    From Monk on, stack order applies after A26's priorities 1–2: among the arrangements that
    trigger and make imminent the most Focus/Balance effects, the stones those effects need
    are taken lowest first and the others dropped in stack order (:func:`_needed_first`).
    More than one result left means the player chooses, and the drops appear in the notation.
    """
    return _solo_sowings(bagua, space, flow, env.main_spaces, env.monk)


@functools.lru_cache(maxsize=65536)
def _solo_sowings(bagua, space, flow, main, monk) -> tuple[SoloSowing, ...]:
    stack = bagua[space]
    new, element, targets = sow(bagua, space, flow)
    if not monk:
        return (SoloSowing(Sowing("", new, element, ()), stack, targets),)
    options = _monk_sowings(bagua, space, flow, main)
    if "W" not in stack or "B" not in stack:  # one colour: a single way to drop
        return (SoloSowing(options[0], stack, targets),)
    best = {o.drops: o for o in options}
    chosen = _needed_first(stack, best, targets, main) or _fewest_out_of_order(stack, best)
    many = len(chosen) > 1
    return tuple(SoloSowing(best[p]._replace(drops=p if many else ""), p, targets) for p in chosen)


def _needed_first(stack: str, best, targets, main) -> list[str]:
    """A28 from Monk on: for each best arrangement, the drops its effects need (a stone making
    3 or 4 of its colour on a space, or one of the single stones of a main-space Balance or
    near-Balance) take the lowest stones of their colour, the rest follow in stack order. Keep
    the arrangements so made that are still among the best, needing the fewest stones, those
    closest to the base."""
    found = {}
    for pattern, sowing in best.items():
        needed = [
            j
            for j, (t, stone) in enumerate(zip(targets, pattern, strict=True))
            if sowing.bagua[t].count(stone) >= 3
            or (
                t in main
                and sowing.bagua[t].count(stone) == 1
                and sum(sowing.bagua[m].count(stone) == 1 for m in main) >= 3
            )
        ]
        made, taken = _fix(stack, pattern, needed)
        if made in best:
            key = (len(needed), tuple(sorted(taken)))
            found[made] = min(found.get(made, key), key)
    if not found:
        return []
    top = min(found.values())
    return sorted(made for made, key in found.items() if key == top)


def _fix(stack: str, pattern: str, fixed) -> tuple[str, list[int]]:
    """``pattern``'s colours on the ``fixed`` drops, each the lowest such stone left in the
    stack; the other stones in stack order. Returns the drops and the stack indices taken."""
    rest = list(enumerate(stack))
    taken = []
    for j in fixed:
        i = next(n for n, (_, stone) in enumerate(rest) if stone == pattern[j])
        taken.append(rest.pop(i)[0])
    fill = iter(stone for _, stone in rest)
    return "".join(pattern[j] if j in fixed else next(fill) for j in range(len(stack))), taken


def _fewest_out_of_order(stack: str, allowed) -> list[str]:
    """Fallback: the allowed patterns reached by fixing the fewest drops (lowest stones),
    the rest in stack order, those closest to the base first."""
    for size in range(len(stack) + 1):
        found = {}
        for fixed in itertools.combinations(range(len(stack)), size):
            for pattern in allowed:
                made, taken = _fix(stack, pattern, fixed)
                if made in allowed:
                    key = tuple(sorted(taken))
                    found[made] = min(found.get(made, key), key)
        if found:
            top = min(found.values())
            return sorted(made for made, key in found.items() if key == top)
    return sorted(allowed)


# ---- the opponent's group and its scores -----------------------------------------------------
def group_executions(env: Env, walk, colour: int, group) -> list[tuple[tuple, tuple]]:
    """Every combined execution of the actions ``group`` (ring indices, in order) by the
    dragon of ``colour``: ``(actions, walk)`` pairs, executions that end in the same walk
    merged (the first kept). An impossible action is skipped without penalty; once a dragon
    is defeated the rest of the group is not performed."""
    results = {walk: ()}  # walk -> the first actions that lead there
    for element in group:
        following = {}
        for w, actions in results.items():
            if not _alive(w):
                following.setdefault(w, actions)
                continue
            outs = _executions(env, w, colour, element)
            if not outs:
                following.setdefault(w, (*actions, (element, None)))
            for o in outs:
                if o.walk not in following:
                    following[o.walk] = (*actions, (element, o))
        results = following  # executions that meet are merged at once: they go on alike
    return [(actions, w) for w, actions in results.items()]


@functools.lru_cache(maxsize=1 << 16)
def _executions(env: Env, walk, colour: int, element: int) -> tuple:
    """:func:`executions`, kept: the groups of one position's sowings share their actions."""
    return tuple(executions(env, walk, colour, element))


def damage_dealt(env: Env, before, after, player: int) -> int:
    """Priority 1: the life the player's dragon lost between two walks."""
    return life(env, before, player) - life(env, after, player)


def approach_distance(env: Env, walk, colour: int) -> int:
    """Priority 3: the fewest steps (forward, left or right onto free cells, through free
    portals) that leave the head of ``colour``'s dragon adjacently facing the other dragon,
    every other tile fixed; 0 if it already does, :data:`UNREACHABLE` if it never can."""
    if not _alive(walk):
        return 0
    return _approach(env, walk[0], walk[3], colour)


@functools.lru_cache(maxsize=1 << 16)
def _approach(env: Env, dragons, rocks, colour: int) -> int:
    """:func:`approach_distance` on what it reads: the dragons and the rocks.

    A breadth-first search over (cell, facing) states, a layer at a time on bit masks: for
    each facing, the cells the head reaches at the current distance facing that way."""
    me = dragons[colour]
    prey = env.targets(dragons, 1 - colour)
    blocked = occupancy(env, (dragons,))
    for cell, _ in rocks:
        blocked |= env.bit[cell]
    shift = env.geo.shift
    portals = env.portal_mask
    free = ~blocked
    # the cells from which a head facing d has the prey just in front
    goal = [shift(prey, (d + 2) % 4) for d in range(4)]
    layer = [0, 0, 0, 0]
    layer[env.facing(me)] = env.bit[me.cells[0]]
    seen = layer[:]
    for dist in range(4 * env.geo.size):
        n, e, s, w = layer
        if n & goal[0] or e & goal[1] or s & goal[2] or w & goal[3]:
            return dist
        reached = [
            shift(n | e | w, 0) & free,
            shift(e | n | s, 1) & free,
            shift(s | e | w, 2) & free,
            shift(w | n | s, 3) & free,
        ]
        if portals:
            for d in range(4):
                entered = reached[d] & portals
                reached[d] ^= entered
                while entered:
                    low = entered & -entered
                    entered ^= low
                    for cell, out in _portal_exits(env, low.bit_length() - 1, blocked):
                        reached[out] |= env.bit[cell]
        layer = [reached[d] & ~seen[d] for d in range(4)]
        if not (layer[0] or layer[1] or layer[2] or layer[3]):
            return UNREACHABLE
        for d in range(4):
            seen[d] |= layer[d]
    return UNREACHABLE


def _portal_exits(env: Env, entry: int, blocked: int):
    colour_of = env.portal_colour
    rule = env.scenario.portal_rule(colour_of[entry])
    exits = [
        c
        for c in colour_of
        if c != entry and (rule.destination != "twin" or colour_of[c] == colour_of[entry])
    ]
    for exit_ in exits:
        if blocked >> exit_ & 1:
            continue
        for d, cell in enumerate(env.nbr[exit_]):
            if cell >= 0 and not (blocked | env.portal_mask) >> cell & 1:
                yield cell, d


def potential_damage(env: Env, start, walk, opponent: int, pending: int, after, lookahead):
    """Priority 2: the most life the opponent could lose from ``start`` (before its group)
    to the horizon, given that its group led to ``walk``.

    ``lookahead="matter"`` ends the horizon after the player's pending Matter phase (the
    element ``pending``, -1 for none); ``"next-turn"`` adds the player's whole next turn,
    which starts from ``after = (bagua, coin)``. Water the opponent absorbs on the way counts
    against the damage."""
    player = 1 - opponent
    pending_phase = _alive(walk) and pending >= 0
    if lookahead != "next-turn":
        lowest = life(env, walk, opponent)
        if pending_phase:
            lowest -= most_damage(env, walk, player, pending)
        return life(env, start, opponent) - lowest
    if pending_phase:
        outs = executions(env, walk, player, pending)
        ends = [o.walk for o in outs] or [hurt(walk, player, 1, env.cap)]
    else:
        ends = [walk]
    bagua, coin = after
    lowest = min(_next_turn_low(env, w, bagua, coin, player) for w in ends)
    return life(env, start, opponent) - lowest


@functools.lru_cache(maxsize=1 << 16)
def _next_turn_low(env: Env, walk, bagua, coin, player: int) -> int:
    """The opponent's lowest life after the player's next turn from ``walk``."""
    walk = village_damage(env, walk, player)
    if not _alive(walk):
        return life(env, walk, 1 - player)
    return min(
        life(env, option.walk, 1 - player) - option_damage(env, option, player)
        for option in solo_options(env, walk, bagua, coin, player, None)
    )


def rank_groups(env: Env, walk, opponent: int, group, pending, after, lookahead, priorities):
    """Every candidate of the opponent's group (merged by final walk), scored at the
    ``priorities`` asked for (unasked scores are 0)."""
    player = 1 - opponent
    out = []
    for actions, w in group_executions(env, walk, opponent, group):
        out.append(
            Candidate(
                actions,
                w,
                damage_dealt(env, walk, w, player) if 1 in priorities else 0,
                potential_damage(env, walk, w, opponent, pending, after, lookahead)
                if 2 in priorities and lookahead
                else 0,
                approach_distance(env, w, opponent) if 3 in priorities else 0,
            )
        )
    return out


def choose_group(env: Env, walk, opponent: int, group, pending=-1, after=None, lookahead=None):
    """The opponent's options still tied after priorities 1–3, in canonical order.

    ``lookahead=None`` skips priority 2 (the opponent inside a "next-turn" lookahead)."""
    return _choose(env, walk, opponent, tuple(group), pending, after, lookahead)


@functools.lru_cache(maxsize=1 << 17)
def _choose(env, walk, opponent, group, pending, after, lookahead) -> tuple:
    options = group_executions(env, walk, opponent, group)
    if len(options) > 1:
        dealt = [damage_dealt(env, walk, w, 1 - opponent) for _, w in options]
        top = max(dealt)
        options = [o for o, d in zip(options, dealt, strict=True) if d == top]
    if len(options) > 1 and lookahead:
        risk = [
            potential_damage(env, walk, w, opponent, pending, after, lookahead) for _, w in options
        ]
        low = min(risk)
        options = [o for o, r in zip(options, risk, strict=True) if r == low]
    if len(options) > 1:
        dist = [approach_distance(env, w, opponent) for _, w in options]
        near = min(dist)
        options = [o for o, d in zip(options, dist, strict=True) if d == near]
    return tuple(options)


# ---- a whole solo turn -----------------------------------------------------------------------
class SoloOption(NamedTuple):
    """One way a solo turn can go, its Matter phase not yet carried out: the player sows
    ``space`` (``sowing``, with ``flow``; ``records`` the Focus effects), the opponent's group
    performs ``actions`` (``(element, Outcome | None)``), leaving ``walk``; then, by ``kind``
    (see :mod:`.spirit`), the player carries out ``plan`` (EXEC), loses 1 life (PENALTY), or
    the game is over (ENDED)."""

    space: int
    sowing: Sowing
    flow: int
    records: tuple
    actions: tuple
    kind: int
    plan: Plan | None
    walk: tuple


_solo_option = functools.partial(tuple.__new__, SoloOption)


def solo_options(env: Env, walk, bagua, coin, player: int, lookahead, keep=None):
    """Every way a solo turn can go (A10 applied), as :class:`SoloOption` s.

    ``keep(element, group size)``, when given, skips the sowings it rejects. The penalty is
    then judged on the kept sowings alone: a filtered call answers questions about where the
    turn can leave the board (can the opponent die?), not which turns are legal."""
    opponent = 1 - player
    stone = "WB"[opponent]
    replaces = env.rules.option("solo_focus_replaces_action")
    raw = []
    any_possible = False
    for space in range(env.ring_size):
        if not bagua[space]:
            continue
        flow = flow_for(bagua[space], coin, env.rules.mode)
        for option in solo_sowings(env, bagua, space, flow):
            sowing = option.sowing
            after = (sowing.bagua, flow) if lookahead == "next-turn" else None

            def focus_choice(w, colour, at, outs, _pending=sowing.element, _after=after):
                if colour == player:
                    return outs
                picked = choose_group(env, w, colour, (at,), _pending, _after, lookahead)
                chosen = {actions[0][1] for actions, _ in picked}
                return [o for o in outs if o in chosen]

            if sowing.effects:
                focused = {s for kind, c, s in sowing.effects if kind == FOCUS and c == opponent}
                group = tuple(
                    t
                    for t, s in zip(option.targets, option.pattern, strict=True)
                    if s == stone and not (replaces and t in focused)
                )
                spirits = resolve_effects(env, walk, sowing.effects, focus_choice)
            else:
                group = tuple(
                    t for t, s in zip(option.targets, option.pattern, strict=True) if s == stone
                )
                spirits = ((walk, ()),)
            if keep is not None and not keep(sowing.element, len(group)):
                continue
            for w, records in spirits:
                if not _alive(w):
                    raw.append((space, sowing, flow, records, (), w, None))
                    any_possible = True
                    continue
                choices = (
                    choose_group(env, w, opponent, group, sowing.element, after, lookahead)
                    if group
                    else (((), w),)
                )
                for actions, w2 in choices:
                    if not _alive(w2):
                        raw.append((space, sowing, flow, records, actions, w2, None))
                        any_possible = True
                        continue
                    ways = plans(env, w2, player, sowing.element)
                    any_possible = any_possible or bool(ways)
                    raw.append((space, sowing, flow, records, actions, w2, ways))
    out = []
    for space, sowing, flow, records, actions, w, ways in raw:
        head = (space, sowing, flow, records, actions)
        if ways is None:
            out.append(_solo_option((*head, ENDED, None, w)))
        elif not any_possible:
            out.append(_solo_option((*head, PENALTY, None, w)))
        else:
            out.extend(_solo_option((*head, EXEC, plan, w)) for plan in ways)
    return out


def option_end(env: Env, option: SoloOption, player: int):
    """The walk at the end of the solo turn ``option`` (before village damage)."""
    return finish(env, option.kind, option.walk, option.sowing.element, option.plan, player)


def option_damage(env: Env, option: SoloOption, player: int) -> int:
    """The life the opponent loses in the player's Matter phase of ``option``."""
    if option.kind != EXEC:
        return 0
    w = option.walk
    prey = env.targets(w[0], 1 - player)
    return plan_damage(env, w, player, option.sowing.element, option.plan, prey)


def solo_phase(env: Env, option: SoloOption) -> Phase:
    """The notation of the solo turn ``option``."""
    space, sowing, _flow, records, actions, kind, plan, _walk = option
    group = tuple((e, None if o is None else _action(env, o)) for e, o in actions) or None
    focus = _focus(env, records) if records else ()
    if kind != EXEC:
        return Phase(
            space, sowing.element, (), None, kind == PENALTY, (), sowing.drops, focus,
            kind == ENDED, group,
        )  # fmt: skip
    return phase_of_plan(env, plan)._replace(
        space=space, element=sowing.element, drops=sowing.drops, focus=focus, opponent=group
    )


def solo_phases(env: Env, walk, bagua, coin, player: int):
    """Every ``(Phase, walk, bagua, coin)`` of a solo turn (no extra phases in solo)."""
    lookahead = env.rules.option("solo_lookahead")
    return [
        (solo_phase(env, o), option_end(env, o, player), o.sowing.bagua, o.flow)
        for o in solo_options(env, walk, bagua, coin, player, lookahead)
    ]


# ---- the policy on positions -----------------------------------------------------------------
class OpponentOption(NamedTuple):
    """One way the solo opponent can perform its group, as :func:`opponent_choices` gives it."""

    actions: tuple[tuple[int, Phase | None], ...]  # (element, action | None if skipped)
    position: object  # the State after the group, before the player's Matter phase
    dealt: int
    risk: int
    distance: int

    def notation(self) -> str:
        """The group as written in a solo turn, e.g. ``(Fi:c3x La:=)``."""
        return Phase(-1, opponent=self.actions or None).group().strip()


def opponent_options(position, group, pending=None, priorities=PRIORITIES):
    """Every way the opponent of the solo ``position`` can perform the actions ``group``
    (spaces by name, abbreviation or ring index, in drop order), executions that end alike
    merged, each scored at ``priorities``. ``position`` is the board after the Spirit phase;
    ``pending`` is the element of the player's coming Matter phase (priority 2 counts the
    damage it could deal; None counts none).

    >>> from taolong_lab import solo_game
    >>> [o.notation() for o in opponent_options(solo_game(), ["Mo", "Wa"], "Wa")]
    ['(Mo:f8 Wa:f7+)', '(Mo:f8 Wa:e8+)']
    """
    from .state import State

    env = position._env
    if not env.solo:
        raise RulesError("opponent_options needs a solo position")
    spaces = tuple(g if isinstance(g, int) else space_index(g) for g in group)
    pending = (
        -1 if pending is None else pending if isinstance(pending, int) else space_index(pending)
    )
    lookahead = env.rules.option("solo_lookahead")
    after = (position.bagua, position._flux) if lookahead == "next-turn" else None
    walk = position._walk()
    out = []
    for c in rank_groups(
        env, walk, 1 - position._to_move, spaces, pending, after, lookahead, priorities
    ):
        actions = tuple((e, None if o is None else _action(env, o)) for e, o in c.actions)
        after_state = State._make(
            env, c.walk, position.bagua, position._flux, position._to_move, position.ply
        )
        out.append(OpponentOption(actions, after_state, c.dealt, c.risk, c.distance))
    return out


def opponent_choices(position, group, pending=None, priorities=PRIORITIES):
    """The options the opponent's priorities leave (more than one: the player decides).

    Each priority can be asked alone, e.g. ``priorities=(3,)``; they apply in the order
    1 (most damage dealt), 2 (least damage risked), 3 (shortest approach).

    >>> from taolong_lab import solo_game
    >>> [o.distance for o in opponent_choices(solo_game(), ["Mo", "Wa"], "Wa")]
    [8, 8]
    """
    options = opponent_options(position, group, pending, priorities)
    for p, score, best in ((1, "dealt", max), (2, "risk", min), (3, "distance", min)):
        if p in priorities and options:
            top = best(getattr(o, score) for o in options)
            options = [o for o in options if getattr(o, score) == top]
    return options


__all__ = [
    "PRIORITIES",
    "UNREACHABLE",
    "Candidate",
    "OpponentOption",
    "approach_distance",
    "choose_group",
    "damage_dealt",
    "group_executions",
    "life",
    "opponent_choices",
    "opponent_options",
    "potential_damage",
    "rank_groups",
    "solo_options",
    "solo_phases",
    "solo_sowings",
]
