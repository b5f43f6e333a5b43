"""Seeded positions for the agent tests: tactical positions (a win in 1 or 2) found at the end
of random games, and a brute-force judge of them."""

from __future__ import annotations

import functools
import random

from taolong_lab import new_game
from taolong_lab.rules import scenario_names


def random_game(seed: int, scenario: str = "field", mode: str = "grasshopper", cap: int = 400):
    """The positions of a seeded random game."""
    rng = random.Random(seed)
    state = new_game(scenario, mode)
    states = [state]
    while not state.is_over() and state.ply < cap:
        state = state.play(rng.choice(state.legal_turns()))
        states.append(state)
    return states


def played_on(state, seed: int, plies: int):
    """``state`` after up to ``plies`` seeded random turns (fewer when the game ends)."""
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        state = state.play(rng.choice(state.legal_turns()))
    return state


def wins_within(state, turns: int) -> bool:
    """Whether the side to move (two-player) can force a win within ``turns`` of its turns."""
    me = state.to_move
    for _, after in state.successors():
        if after.is_over():
            if after.outcome().winner == me:
                return True
            continue
        if turns > 1 and all(
            (reply.is_over() and reply.outcome().winner == me)
            or (not reply.is_over() and wins_within(reply, turns - 1))
            for _, reply in after.successors()
        ):
            return True
    return False


@functools.cache
def tactical_positions(turns: int, count: int = 6) -> tuple:
    """``count`` positions, over the scenarios, where the side to move forces a win in
    exactly ``turns`` of its turns (and not fewer)."""
    found = []
    names = scenario_names()
    seed = 0
    while len(found) < count:
        states = random_game(seed, names[seed % len(names)])
        seed += 1
        end = states[-1]
        if not end.is_over():
            continue
        back = 2 * turns - 1
        if len(states) <= back:
            continue
        candidate = states[-1 - back]
        if candidate.to_move != end.outcome().winner:
            continue
        if wins_within(candidate, turns) and (turns == 1 or not wins_within(candidate, turns - 1)):
            found.append(candidate)
    return tuple(found)
