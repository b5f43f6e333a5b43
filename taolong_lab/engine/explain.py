"""Why a turn is illegal, in words. Walks the turn phase by phase against the rules."""

from __future__ import annotations

from ..rules.data import COLOURS
from .core import sow
from .geometry import DIRECTIONS, cell_name
from .spirit import flow_for, phases
from .state import State
from .turns import Turn, space_abbrev

_NEEDS = {
    "heaven": "a vertical facing",
    "earth": "a horizontal facing",
    "wind": "a vertical facing",
    "thunder": "a horizontal facing",
}


def explain(state: State, turn: Turn) -> str:
    result = state.outcome()
    if result is not None:
        return f"the game is over ({result})"
    env, colour = state._env, state._to_move
    walk, bagua, coin = (
        state._walk(),
        state._bagua,
        state._flux,
    )
    if len(turn.phases) > 2:
        return "a turn has at most two phases"
    extra = False
    geo = env.geo
    for number, phase in enumerate(turn.phases, start=1):
        where = f"phase {number}" if len(turn.phases) > 1 else "the turn"
        for x, y in phase.path:
            if not (0 <= x < geo.width and 0 <= y < geo.height):
                return f"{where}: {cell_name((x, y))} is off the {geo.width}x{geo.height} board"
        if number == 2 and env.solo:
            return (
                "the solo variant has no extra phases: Wind and Thunder grant none, as it is "
                "always the player's turn"
            )
        if number == 2 and not extra:
            return "only Wind and Thunder grant an extra phase, at most once a turn"
        if number == 2 and not env.extra_phases:
            return "extra phases are switched off (option extra_phases=0)"
        if not 0 <= phase.space < env.ring_size:
            return f"{where}: Ba Gua spaces are numbered 0-{env.ring_size - 1}, not {phase.space}"
        if not bagua[phase.space]:
            return f"{where}: the {env.ring[phase.space].title()} space is empty"
        element = sow(
            bagua, phase.space, flow_for(bagua[phase.space], coin, env.rules.mode)
        ).element
        if phase.element >= 0 and phase.element != element:
            return (
                f"{where}: sowing {space_abbrev(phase.space)} lands on "
                f"{env.ring[element].title()}, not {env.ring[phase.element].title()}"
            )
        if env.solo:
            from .solo import solo_phases

            options = [(*o, False) for o in solo_phases(env, walk, bagua, coin, colour)]
        else:
            options = phases(env, walk, bagua, coin, colour)
        penalty = bool(options) and options[0][0].penalty
        if phase.penalty and not penalty:
            return (
                f"{where}: the 1-life penalty applies only when every choice is impossible, "
                f"and {space_abbrev(options[0][0].space)}>"
                f"{space_abbrev(options[0][0].element)} {_exec(options[0][0])} is legal"
            )
        mine = [o for o in options if o[0].space == phase.space]
        if not mine:
            d = walk[0][colour]
            name = env.ring[element]
            need = _NEEDS.get(name)
            why = (
                f"{name.title()}, which needs {need}, but the {COLOURS[colour]} dragon faces "
                f"{_COMPASS[DIRECTIONS[env.facing(d)]]}"
                if need and _wrong_axis(env, d, name)
                else f"{name.title()}, which has no legal execution"
            )
            return (
                f"{where}: sowing {space_abbrev(phase.space)} lands on {why}; choose another space"
            )
        if penalty and not phase.penalty:
            return (
                f"{where}: every choice is impossible, so the Matter phase is skipped with a "
                f"1-life penalty: write '{space_abbrev(phase.space)}>{space_abbrev(element)} -'"
            )
        match = [o for o in mine if o[0].matches(phase._replace(element=element))]
        if not match:
            legal = ", ".join(_exec(o[0]) for o in mine)
            name = env.ring[element]
            hint = (
                " (absorb + or expel x is compulsory)"
                if name in ("fire", "water") and phase.path and phase.effect is None
                else ""
            )
            return f"{where}: {name.title()} allows only {legal}{hint}"
        _, walk, bagua, coin, extra = match[0]
        extra = extra and all(d.alive for d in walk[0])
        if extra and number == 1 and len(turn.phases) == 1 and env.extra_phases:
            return f"{env.ring[element].title()} grants an extra phase: add '; <space> <execution>'"
    return "no legal turn matches"


_COMPASS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _wrong_axis(env, dragon, name) -> bool:
    vertical = env.facing(dragon) & 1 == 0
    return vertical != (name in ("heaven", "wind"))


def _exec(phase) -> str:
    return str(phase).split(" ", 1)[1]
