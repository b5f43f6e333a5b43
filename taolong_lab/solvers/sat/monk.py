"""The Spirit phase from Monk on, for the SAT layer (:mod:`.encode`): which colour is dropped
where, Master's flow and flux coin, and the Focus and Balance effects.

From Monk on a sowing depends on the whole Ba Gua (A26's drop priorities count the stones of
every space), so the layer does not factor the Ba Gua by space as in Grasshopper: it holds the
**configuration** (the eight stacks and the flux coin, :func:`config_of`) one-hot over the
configurations reachable at that turn. The Ba Gua never depends on the board, so the
reachable configurations and every way to sow each of them (a :class:`Transition`) come from
the engine's own :func:`~taolong_lab.engine.solo.solo_sowings` and
:func:`~taolong_lab.engine.spirit.flow_for`. Each turn chooses one transition out of the
previous configuration.

What is exact and what is relaxed (refined by the CEGAR loop of :mod:`.solver`):

- the drop priorities (A26, A28's stack order after them), the flow by majority and the coin:
  **exact**, read from the engine for every reachable configuration;
- Balance: **exact** (the dragon's water and fire set to its opponent's);
- a Focus of the player's colour: **exact** (every execution is the player's choice; an
  impossible one costs 1 life);
- a Focus of the opponent's colour: **every** execution admitted, a sound over-approximation;
  a ``"focus"`` refinement (the policy's choice for that position, Focus space and pending
  element) restricts it, as a ``"group"`` refinement restricts the opponent's group.

The effects are applied in **slots**, one per place in the order of the drops that made
them (a sowing makes at most four: one Focus and one Balance of each colour): slot ``i`` holds
the ``i``-th effect of the transition chosen, whichever it is.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from ...engine.solo import solo_sowings
from ...engine.spirit import BALANCE, FOCUS, flow_for
from ..bounds import opponent_group
from ..common import SolverError
from .gates import clean, ite_onehot, neg

# the transitions out of one turn's configurations, at most: past it the layer is refused
# (TooManyConfigurations), as the one-hot Ba Gua grows with the configurations
TRANSITION_LIMIT = 400_000


class TooManyConfigurations(SolverError):
    """The Ba Gua has more transitions at a turn than :data:`TRANSITION_LIMIT`."""


class Transition(NamedTuple):
    """One way to sow a configuration (:func:`transitions`)."""

    space: int  # the space sown
    after: tuple  # the configuration after the sowing
    group: tuple[int, ...]  # the opponent's group, in drop order
    element: int  # the element of the player's Matter phase
    effects: tuple  # (FOCUS, colour, space) or (BALANCE, colour, -1), in the order of drops


class FocusSlot(NamedTuple):
    """Where the opponent's Focus may act in a layer: the state before and after it, and per
    ``(Focus space, element sown)`` the literal "this slot is that Focus"."""

    pre: object
    post: object
    lits: dict


def config_of(state) -> tuple:
    """The Ba Gua of the solo ``state`` as the layer keys it from Monk on: the stacks, then
    the flux coin."""
    return (*state.bagua, state.coin)


def split(config: tuple) -> tuple[tuple[str, ...], int]:
    """``(stacks, coin)`` of a configuration of :func:`config_of`."""
    return config[:-1], config[-1]


@functools.lru_cache(maxsize=1 << 18)
def transitions(env, config: tuple, player: int) -> tuple[Transition, ...]:
    """Every way the solo ``player`` may sow the configuration ``config``: for each space
    with stones, its flow (:func:`~taolong_lab.engine.spirit.flow_for`), then each of the
    engine's solo sowings (the drop priorities, stack order). The coin after it shows the
    flow; the group is the spaces that got one of the opponent's stones
    (:func:`~..bounds.opponent_group`) less, with ``solo_focus_replaces_action``, the
    spaces of the opponent's Focus (as ``solo.solo_options`` builds it).

    In Master the two whites of Heaven flow clockwise (the coin turns to 1) and land last on
    Water; the ties of Fire and Water follow the coin, counterclockwise:

    >>> from taolong_lab import solo_game
    >>> start = solo_game("field", "master")
    >>> config_of(start)
    ('WW', '', 'BW', '', 'BB', '', 'WB', '', 0)
    >>> [(t.space, t.after[-1], t.element, t.group)
    ...  for t in transitions(start.tables, config_of(start), start.mover)]
    [(0, 1, 6, ()), (2, 0, 4, (4,)), (4, 0, 6, (5, 6)), (6, 0, 0, (7,))]
    """
    bagua, coin = split(config)
    opponent = 1 - player
    stone = "WB"[opponent]
    replaces = env.rules.option("solo_focus_replaces_action")
    out = []
    for space, stack in enumerate(bagua):
        if not stack:
            continue
        flow = flow_for(stack, coin, env.rules.mode)
        for option in solo_sowings(env, bagua, space, flow):
            sowing = option.sowing
            group = opponent_group(option.pattern, option.targets, stone)
            if replaces:
                focused = {s for kind, c, s in sowing.effects if kind == FOCUS and c == opponent}
                group = tuple(t for t in group if t not in focused)
            after = (*sowing.bagua, flow)
            out.append(Transition(space, after, group, sowing.element, sowing.effects))
    return tuple(out)


def moves_player(transition: Transition, player: int) -> bool:
    """Whether the effects of ``transition`` can move the player's dragon (its own Focus)."""
    return any(kind == FOCUS and c == player for kind, c, _ in transition.effects)


def sowing(enc, prev, L) -> list:
    """The layer's Ba Gua: one transition chosen out of ``prev``'s configuration, the
    configuration after it one-hot, the space sown and the ``(group, element)`` signature
    as ORs of the transitions. Returns ``[(literal, Transition)]``."""
    g = enc.g
    chosen = []
    total = 0
    table = {}
    for config in prev.configs:
        table[config] = transitions(enc.env, config, enc.player)
        total += len(table[config])
    if total > TRANSITION_LIMIT:
        raise TooManyConfigurations(
            f"the Ba Gua has {total} ways to sow at turn {len(enc.layers)}, more than the "
            f"{TRANSITION_LIMIT} the SAT layer holds"
        )
    outcomes = []
    for config, x in prev.configs.items():
        lits = []
        for tr in table[config]:
            y = g.choice()
            g.implies(y, x)
            lits.append(y)
            chosen.append((y, tr))
            outcomes.append((x, tr.group, tr.element, moves_player(tr, enc.player), tr.effects))
        g.clause([neg(x), *lits])
        g.amo(lits)
    L.configs = _ors(g, ((tr.after, y) for y, tr in chosen))
    L.space = _ors(g, ((tr.space, y) for y, tr in chosen))
    L.sig = _ors(g, (((tr.group, tr.element), y) for y, tr in chosen))
    L.outcomes = outcomes
    return chosen


def effects(enc, S, chosen, L):
    """The Focus and Balance effects of the transition chosen, slot by slot, from ``S`` (the
    board before the sowing's effects). Returns the board after them; the opponent's Focus
    slots go to ``L.focus_slots``."""
    g, B = enc.g, enc.board
    width = max((len(tr.effects) for _, tr in chosen), default=0)
    for i in range(width):
        focus: dict = {}  # colour -> {space: [literals]}
        opp_focus: dict = {}  # (space, element) -> [literals]
        balances: dict = {}  # colour -> [literals]
        for y, tr in chosen:
            if len(tr.effects) <= i:
                continue
            kind, colour, space = tr.effects[i]
            if kind == BALANCE:
                balances.setdefault(colour, []).append(y)
                continue
            focus.setdefault(colour, {}).setdefault(space, []).append(y)
            if colour == enc.opp:
                opp_focus.setdefault((space, tr.element), []).append(y)
        both = g.AND(B.alive(S, 0), B.alive(S, 1))
        for k in sorted(focus):
            E = {e: g.ORs(xs) for e, xs in focus[k].items()}
            active = g.AND(both, g.ORs(list(E.values())))
            pre = S
            S, possible, _ = B.action(S, k, E, active)
            impossible = g.AND(active, neg(possible))
            if impossible is not False:  # an impossible Focus costs its dragon 1 life (A24)
                S = S.copy()
                S.life[k] = B.damage(S.life[k], {1: impossible})
            if k == enc.opp:
                lits = {key: g.ORs(xs) for key, xs in opp_focus.items()}
                L.focus_slots.append(FocusSlot(pre, S, lits))
        for k in sorted(balances):
            S = balance(B, S, k, g.AND(both, g.ORs(balances[k])))
    return S


def _ors(g, pairs) -> dict:
    acc: dict = {}
    for key, y in pairs:
        acc.setdefault(key, []).append(y)
    return clean({key: g.ORs(ys) for key, ys in acc.items()})


def balance(B, S, k: int, on):
    """``spirit._balance`` on a symbolic state: if ``on``, dragon ``k``'s water and fire
    become its opponent's (its segments stay: life loses its water and gains the other's)."""
    g = B.g
    if on is False:
        return S
    cap = B.cap
    other = 1 - k
    acc: dict = {}
    waters = B.water(S, other)
    for life, x in S.life[k].items():
        if life == 0:
            continue
        base = life - ((life - 1) % cap + 1)
        for water, y in waters.items():
            if water > 0:
                acc.setdefault(base + water, []).append(g.AND(x, y))
    T = S.copy()
    T.life[k] = ite_onehot(g, on, clean({v: g.ORs(xs) for v, xs in acc.items()}), S.life[k])
    T.fire[k] = ite_onehot(g, on, S.fire[other], S.fire[k])
    return T


__all__ = [
    "TRANSITION_LIMIT",
    "FocusSlot",
    "TooManyConfigurations",
    "Transition",
    "balance",
    "config_of",
    "effects",
    "moves_player",
    "sowing",
    "split",
    "transitions",
]
