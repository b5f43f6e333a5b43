"""The Spirit phase: sowing (with Monk's drop priorities and Master's flow), Focus and
Balance effects, then the Matter phase it names, with the impossible-action rule.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

from .core import CCW, CW, WHITE, Dragon, Env, executions, hurt, occupancy, sow
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
        new, element = sow(bagua, space, flow)
        return (Sowing("", new, element, ()),)
    return _monk_sowings(bagua, space, flow, env.ring_size, env.main_spaces)


@functools.lru_cache(maxsize=65536)
def _monk_sowings(bagua, space, flow, n, main) -> tuple[Sowing, ...]:
    stack = bagua[space]
    step = 1 if flow == CCW else n - 1
    targets = [(space + step * j) % n for j in range(1, len(stack) + 1)]
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
    return Phase(-1, -1, tuple(map(xy.__getitem__, outcome.path)), outcome.effect, False, portals)


def _spirit_options(env: Env, walk, bagua, coin):
    """Every outcome of the Spirit phase: ``(space, sowing, flow, walk, focus_records)``."""
    mode = env.rules.mode
    for space in range(env.ring_size):
        if not bagua[space]:
            continue
        flow = flow_for(bagua[space], coin, mode)
        if not env.monk:
            new, element = sow(bagua, space, flow)
            yield space, Sowing("", new, element, ()), flow, walk, ()
            continue
        for sowing in sowings(env, bagua, space, flow):
            for w, records in resolve_effects(env, walk, sowing.effects):
                yield space, sowing, flow, w, records


def phases(env: Env, walk, bagua, coin, colour):
    """Every ``(Phase, walk, bagua, coin, grants_extra)`` of one Spirit+Matter phase.

    An option whose Matter action is impossible is forbidden, unless every option is (A10):
    then any may be chosen, the Matter phase is skipped and the dragon loses 1 life. An option
    whose Spirit phase ends the game needs no Matter phase.
    """
    occ = None if env.monk else occupancy(env, walk)
    options = []
    possible = False
    for space, sowing, flow, w, records in _spirit_options(env, walk, bagua, coin):
        if records and not (w[0][0].alive and w[0][1].alive):
            outs = None  # the game ended during the Spirit phase
            possible = True
        else:
            outs = executions(env, w, colour, sowing.element, occ)
            possible = possible or bool(outs)
        options.append((space, sowing, flow, w, records, outs))
    result = []
    wind_thunder = env.extra_elements
    for space, sowing, flow, w, records, outs in options:
        element = sowing.element
        focus = _focus(env, records) if records else ()
        if outs is None:
            phase = Phase(space, element, (), None, False, (), sowing.drops, focus, True)
            result.append((phase, w, sowing.bagua, flow, False))
        elif not possible:
            phase = Phase(space, element, (), None, True, (), sowing.drops, focus)
            result.append((phase, hurt(w, colour, 1, env.cap), sowing.bagua, flow, False))
        else:
            extra = element in wind_thunder
            xy = env.xy
            for o in outs:
                portals = tuple((i, xy[a], xy[b]) for i, a, b in o.portals) if o.portals else ()
                phase = Phase(
                    space,
                    element,
                    tuple(map(xy.__getitem__, o.path)),
                    o.effect,
                    False,
                    portals,
                    sowing.drops,
                    focus,
                )
                result.append((phase, o.walk, sowing.bagua, flow, extra))
    return result


def _focus(env: Env, records) -> tuple:
    return tuple(("wb"[colour], _action(env, o)) for colour, _, o in records)
