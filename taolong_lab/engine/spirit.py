"""The Spirit phase: sowing (with Monk's drop priorities and Master's flow), Focus and
Balance effects, then the Matter phase it names, with the impossible-action rule.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

from .core import (
    CCW,
    CW,
    WHITE,
    Dragon,
    Env,
    Plan,
    carry_out,
    executions,
    fill,
    hurt,
    is_light,
    light_row,
    occupancy,
    plans,
    sow,
)
from .turns import Phase

FOCUS, BALANCE = "focus", "balance"
COLOUR_OF_STONE = {"W": WHITE, "B": 1 - WHITE}


class Sowing(NamedTuple):
    drops: str  # the colours in drop order, when the player had a choice to make
    bagua: tuple[str, ...]
    element: int
    effects: tuple[tuple[str, int, int], ...]  # (FOCUS, colour, space) or (BALANCE, colour, -1)


def flow_for(stack: str, coin: int, mode: str) -> int:
    """The Ba Gua's flow for sowing ``stack`` (A27): counterclockwise except in Master and
    Chosen One, where a white majority flows clockwise, a black one counterclockwise and a tie
    follows the flux coin."""
    if mode not in ("master", "chosen-one"):
        return CCW
    white, black = stack.count("W"), stack.count("B")
    return CW if white > black else CCW if black > white else coin


def _balanced(bagua, stone: str, main: tuple[int, ...]) -> bool:
    return all(bagua[m].count(stone) == 1 for m in main)


def _imminent(bagua, main: tuple[int, ...]) -> int:
    """Focus and Balance effects one stone away: a space with exactly 3 stones of a colour;
    exactly 3 main spaces holding exactly one stone of a colour (A26)."""
    count = sum(stack.count(s) == 3 for stack in bagua for s in "WB")
    return count + sum(sum(bagua[m].count(s) == 1 for m in main) == 3 for s in "WB")


def sowings(env: Env, bagua: tuple[str, ...], space: int, flow: int) -> tuple[Sowing, ...]:
    """Every way the player may sow ``space``.

    Grasshopper drops the stack base stone first: colours do not matter there. From Monk on,
    the colour dropped on each space follows A26: first the arrangements that trigger the most
    Focus/Balance effects, then those that make the most imminent; the player picks among the
    rest.
    """
    if not env.monk:
        new, element, _ = sow(bagua, space, flow)
        return (Sowing("", new, element, ()),)
    return _monk_sowings(bagua, space, flow, env.main_spaces)


@functools.lru_cache(maxsize=65536)
def _monk_sowings(bagua, space, flow, main) -> tuple[Sowing, ...]:
    stack = bagua[space]
    targets = sow(bagua, space, flow).targets
    whites = stack.count("W")
    scored = []
    for places in itertools.combinations(range(len(stack)), whites):
        drops = "".join("W" if i in places else "B" for i in range(len(stack)))
        new = list(bagua)
        new[space] = ""
        effects = []
        for target, stone in zip(targets, drops, strict=True):
            was_balanced = _balanced(new, stone, main)
            new[target] += stone
            if new[target].count(stone) == 4:
                effects.append((FOCUS, COLOUR_OF_STONE[stone], target))
            if not was_balanced and _balanced(new, stone, main):
                effects.append((BALANCE, COLOUR_OF_STONE[stone], -1))
        new = tuple(new)
        scored.append((len(effects), _imminent(new, main), drops, new, tuple(effects)))
    best = max(s[:2] for s in scored)
    mixed = 0 < whites < len(stack)
    return tuple(
        Sowing(drops if mixed else "", new, targets[-1], effects)
        for triggered, imminent, drops, new, effects in sorted(scored, key=lambda s: s[2])
        if (triggered, imminent) == best
    )


def _balance(walk, colour: int):
    """Balance: the dragon of ``colour`` matches its opponent's water and fire (A25)."""
    dragons, water, fire, rocks = walk
    me, other = dragons[colour], dragons[1 - colour]
    moved = Dragon(me.cells, other.water, other.fire, me.links)
    pair = (moved, other) if colour == WHITE else (other, moved)
    return pair, water + me.water - other.water, fire + me.fire - other.fire, rocks


def resolve_effects(env: Env, walk, effects, choose=None):
    """Apply Focus and Balance effects in the order they occurred. Returns every
    ``(walk, focus_records)``; a record is ``(colour, space, Outcome | None)``, None for the
    1-life penalty of a Focus whose action is impossible (A24).

    ``choose(walk, colour, space, outcomes)``, if given, narrows a Focus's executions to those its
    dragon's controller would pick (the solo opponent's policy)."""
    results = [(walk, ())]
    for kind, colour, space in effects:
        following = []
        for w, records in results:
            if not (w[0][0].alive and w[0][1].alive):
                following.append((w, records))
            elif kind == BALANCE:
                following.append((_balance(w, colour), records))
            else:
                outs = executions(env, w, colour, space)
                if outs and choose is not None:
                    outs = choose(w, colour, space, outs)
                if not outs:
                    following.append(
                        (hurt(w, colour, 1, env.cap), (*records, (colour, space, None)))
                    )
                following.extend((o.walk, (*records, (colour, space, o))) for o in outs)
        results = following
    return results


def _action(env: Env, outcome) -> Phase:
    """A Matter execution as a space-less Phase (the Matter part of the notation)."""
    if outcome is None:
        return Phase(-1, penalty=True)
    xy = env.xy
    portals = tuple((i, xy[a], xy[b]) for i, a, b in outcome.portals) if outcome.portals else ()
    path = tuple(map(xy.__getitem__, outcome.path))
    return Phase(-1, path=path, effect=outcome.effect, portals=portals)


def _spirit_options(env: Env, walk, bagua, coin):
    """Every outcome of the Spirit phase: ``(space, sowing, flow, walk, focus_records)``."""
    mode = env.rules.mode
    for space in range(env.ring_size):
        if not bagua[space]:
            continue
        flow = flow_for(bagua[space], coin, mode)
        if not env.monk:
            new, element, _ = sow(bagua, space, flow)
            yield space, Sowing("", new, element, ()), flow, walk, ()
            continue
        for sowing in sowings(env, bagua, space, flow):
            for w, records in resolve_effects(env, walk, sowing.effects):
                yield space, sowing, flow, w, records


EXEC, PENALTY, ENDED = 0, 1, 2  # Spirit.kind


class Spirit(NamedTuple):
    """One outcome of a Spirit phase: the space sown and where its last stone landed, with what
    the Matter phase then does (``kind``): EXEC, carry out one of its plans; PENALTY, every
    option of the phase is impossible (A10); ENDED, the Spirit phase ended the game."""

    space: int
    element: int
    flow: int
    walk: tuple  # after the Spirit phase (its Focus and Balance effects applied)
    records: tuple  # the Focus records, see resolve_effects
    kind: int
    before: tuple  # the Ba Gua before sowing
    sowing: Sowing | None  # None in Grasshopper: bagua_after sows when asked
    plans: tuple  # the Matter executions of an EXEC spirit (Plan); (None,) for the others


_spirit = functools.partial(tuple.__new__, Spirit)


def bagua_after(spirit: Spirit) -> tuple[str, ...]:
    """The Ba Gua after ``spirit``'s sowing."""
    if spirit.sowing is None:
        return sow(spirit.before, spirit.space, spirit.flow).bagua
    return spirit.sowing.bagua


def options(env: Env, walk, bagua, coin, colour) -> list[Spirit]:
    """Every option of one Spirit+Matter phase, in ring order: a :class:`Spirit` for each
    space sown (and each way of sowing it), with its Matter plans. See :func:`phases` for
    the rules."""
    if not env.monk:
        return _grasshopper_options(env, walk, bagua, colour)
    found = []
    possible = False
    for space, sowing, flow, w, records in _spirit_options(env, walk, bagua, coin):
        if records and not (w[0][0].alive and w[0][1].alive):
            ways = None  # the game ended during the Spirit phase
            possible = True
        else:
            ways = plans(env, w, colour, sowing.element)
            possible = possible or bool(ways)
        found.append((space, sowing.element, flow, w, records, ways, sowing))
    out = []
    for space, element, flow, w, records, ways, sowing in found:
        kind = ENDED if ways is None else EXEC if possible else PENALTY
        ways = ways if kind == EXEC else (None,)
        out.append(_spirit((space, element, flow, w, records, kind, bagua, sowing, ways)))
    return out


def _grasshopper_options(env: Env, walk, bagua, colour) -> list[Spirit]:
    """:func:`options` in Grasshopper: counterclockwise, base stone first, so the last stone
    lands as many spaces on as the stack has stones (the stacks are sown when asked)."""
    occ = occupancy(env, walk)
    n = env.ring_size
    out = []
    possible = False
    me = walk[0][colour]
    cells, f = me.cells, env.facing(me)
    row = light_row(env, cells, f, occ) if is_light(env, walk, me) else None
    for space, stack in enumerate(bagua):
        if stack:
            element = (space + len(stack)) % n
            if row is None:
                ways = plans(env, walk, colour, element, occ)
            else:
                ways = row[element]
                if ways is None:
                    ways = fill(env, row, cells, f, occ, element)
            if ways:
                possible = True
            out.append(_spirit((space, element, CCW, walk, (), EXEC, bagua, None, ways)))
    if possible:
        return out
    return [spirit._replace(kind=PENALTY, plans=(None,)) for spirit in out]


def carry(env: Env, spirit: Spirit, plan: Plan | None, colour: int):
    """The walk after the Matter phase of ``spirit`` with ``plan``."""
    return finish(env, spirit.kind, spirit.walk, spirit.element, plan, colour)


def finish(env: Env, kind: int, walk, element: int, plan: Plan | None, colour: int):
    """The walk after a Matter phase of ``element`` by ``colour`` from ``walk``: ``plan``
    carried out (EXEC), the 1-life penalty (PENALTY), or nothing (ENDED)."""
    if kind == EXEC:
        name = env.ring[element]
        return carry_out(env, walk, colour, name, plan, env.targets(walk[0], 1 - colour))
    if kind == PENALTY:
        return hurt(walk, colour, 1, env.cap)
    return walk


def phase_of(env: Env, spirit: Spirit, plan: Plan | None) -> Phase:
    """The notation of ``spirit`` carried out with ``plan``."""
    space, element, records, kind, sowing = (
        spirit.space,
        spirit.element,
        spirit.records,
        spirit.kind,
        spirit.sowing,
    )
    focus = _focus(env, records) if records else ()
    drops = sowing.drops if sowing is not None else ""
    if kind == ENDED:
        return Phase(space, element, drops=drops, focus=focus, ended=True)
    if kind == PENALTY:
        return Phase(space, element, penalty=True, drops=drops, focus=focus)
    return phase_of_plan(env, plan)._replace(space=space, element=element, drops=drops, focus=focus)


def phase_of_plan(env: Env, plan: Plan) -> Phase:
    """A Matter execution as a space-less Phase (the Matter part of the notation)."""
    xy = env.xy
    portals = tuple((i, xy[a], xy[b]) for i, a, b in plan.portals) if plan.portals else ()
    path = tuple(map(xy.__getitem__, plan.path))
    return Phase(-1, path=path, effect=plan.effect, portals=portals)


def grants_extra(env: Env, spirit: Spirit) -> bool:
    """Whether ``spirit`` carries out a Wind or Thunder, which grants an extra phase."""
    return spirit.kind == EXEC and spirit.element in env.extra_elements


def phases(env: Env, walk, bagua, coin, colour):
    """Every ``(Phase, walk, bagua, coin, grants_extra)`` of one Spirit+Matter phase.

    An option whose Matter action is impossible is forbidden, unless every option is (A10):
    then any may be chosen, the Matter phase is skipped and the dragon loses 1 life. An option
    whose Spirit phase ends the game needs no Matter phase.
    """
    return [
        (
            phase_of(env, spirit, plan),
            carry(env, spirit, plan, colour),
            bagua_after(spirit),
            spirit.flow,
            grants_extra(env, spirit),
        )
        for spirit in options(env, walk, bagua, coin, colour)
        for plan in spirit.plans
    ]


def _focus(env: Env, records) -> tuple:
    return tuple(("wb"[colour], _action(env, o)) for colour, _, o in records)


__all__ = [
    "BALANCE",
    "COLOUR_OF_STONE",
    "ENDED",
    "EXEC",
    "FOCUS",
    "PENALTY",
    "Sowing",
    "Spirit",
    "bagua_after",
    "carry",
    "finish",
    "flow_for",
    "grants_extra",
    "options",
    "phase_of",
    "phase_of_plan",
    "phases",
    "resolve_effects",
    "sowings",
]
