"""The engine core's short cuts agree with the long way round.

The core works plain steps out from tables (``_light_plans``), scores the solo opponent's
priority 2 from the numbers (``plan_damage``) and searches its priority 3 on bit masks
(``_approach``). Each is checked here, on positions of seeded random games in every scenario
and mode, against the step-by-step rules it stands for: ``_stepped_plans`` and ``carry_out``,
the life lost when a plan is carried out, and a breadth-first search one state at a time.
"""

from __future__ import annotations

import random

import pytest
from conformance import combinations, combo_playout, solo_playout, solo_start

from taolong_lab import State, Turn
from taolong_lab.engine.core import (
    _light_plans,
    _stepped_plans,
    carry_out,
    is_light,
    life,
    occupancy,
    plan_damage,
    plans,
)
from taolong_lab.engine.solo import UNREACHABLE, _portal_exits, approach_distance

COMBOS = [c for c in combinations() if c.village is None or c.mode == "grasshopper"]


def positions(combo, games: int = 3, depth: int = 60) -> list[State]:
    out = []
    for seed in range(games):
        out += combo_playout(combo, seed, depth)[::3]
    if combo.edition == "current":
        for seed in range(games):
            start = solo_start(combo, ("white", "black")[seed % 2], seed)
            out += solo_playout(start, seed, 20, greed=0.5)[::2]
    return [s for s in out if not s.is_over()]


def _same_plan(a, b) -> bool:
    return (a.path, a.portals, a.effect, a.facing) == (b.path, b.portals, b.effect, b.facing)


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: c.id)
def test_light_plans_are_the_stepped_plans(combo):
    """Where every step is plain, the table's plans are the step-by-step plans, in the same
    order, and carried out they leave the same walk."""
    checked = 0
    for state in positions(combo):
        env, walk = state._env, state._walk()
        for colour in (0, 1):
            me = walk[0][colour]
            if not is_light(env, walk, me):
                continue
            occ = occupancy(env, walk)
            f = env.facing(me)
            prey = env.targets(walk[0], 1 - colour)
            for element in range(env.ring_size):
                name = env.ring[element]
                light = _light_plans(env, me.cells, f, element, occ)
                stepped = _stepped_plans(env, walk, colour, f, name, occ)
                assert len(light) == len(stepped), (state.to_tln(), colour, name)
                assert all(map(_same_plan, light, stepped)), (state.to_tln(), colour, name)
                assert list(plans(env, walk, colour, element)) == list(light)
                for a, b in zip(light, stepped, strict=True):
                    assert carry_out(env, walk, colour, name, a, prey) == carry_out(
                        env, walk, colour, name, b, prey
                    )
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: c.id)
def test_plan_damage_is_the_life_lost(combo):
    for state in positions(combo, games=2):
        env, walk = state._env, state._walk()
        for colour in (0, 1):
            prey = env.targets(walk[0], 1 - colour)
            before = life(env, walk, 1 - colour)
            for element in range(env.ring_size):
                name = env.ring[element]
                for plan in plans(env, walk, colour, element):
                    after = life(env, carry_out(env, walk, colour, name, plan, prey), 1 - colour)
                    assert plan_damage(env, walk, colour, element, plan, prey) == before - after


def _approach_one_state_at_a_time(env, walk, colour) -> int:
    """Priority 3 as the rulebook states it, a (cell, facing) state at a time."""
    dragons, rocks = walk[0], walk[3]
    me = dragons[colour]
    prey = env.targets(dragons, 1 - colour)
    blocked = occupancy(env, (dragons,)) | env.mask(c for c, _ in rocks)
    frontier = {(me.cells[0], env.facing(me))}
    seen = set(frontier)
    dist = 0
    while frontier:
        for cell, f in frontier:
            front = env.nbr[cell][f]
            if front >= 0 and prey >> front & 1:
                return dist
        following = set()
        for cell, f in frontier:
            for d in (f, (f + 1) % 4, (f + 3) % 4):
                target = env.nbr[cell][d]
                if target < 0 or blocked >> target & 1:
                    continue
                if target in env.portal_colour:
                    nexts = list(_portal_exits(env, target, blocked))
                else:
                    nexts = [(target, d)]
                following.update(n for n in nexts if n not in seen)
        seen |= following
        frontier = following
        dist += 1
    return UNREACHABLE


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: c.id)
def test_approach_distance_is_the_state_by_state_search(combo):
    for state in positions(combo, games=2):
        env, walk = state._env, state._walk()
        for colour in (0, 1):
            assert approach_distance(env, walk, colour) == _approach_one_state_at_a_time(
                env, walk, colour
            ), (state.to_tln(), colour)


def test_legal_turns_work_out_their_notation_when_read():
    state = State()
    turns = state.legal_turns()
    assert [str(t) for t in turns] == [str(t) for t, _ in state.successors()]
    assert turns == [Turn.parse(str(t)) for t in turns]
    assert {hash(t) for t in turns} == {hash(Turn.parse(str(t))) for t in turns}
    played = [state.play(t) for t in turns]
    assert played == [after for _, after in state.successors()]
    rng = random.Random(5)
    for _ in range(40):
        turn = rng.choice(state.legal_turns())
        assert state.play(turn) == state.play(str(turn))
        state = state.play(turn)
        if state.is_over():
            break
