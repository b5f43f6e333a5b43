"""Exhaustive (slow) conformance: many whole games for every combination of test_conformance.py.

Marked ``slow``: ``make test-full`` runs it, ``make test`` does not. Every allowed
(scenario, mode, edition, village) plays GAMES whole seeded random games, each position checked
by conformance.py (check_invariants, check_turns); the last games of each combination also
switch on the non-default readings of A7/A11 and A2. The games of each combination must reach
its features (portal steps, rock hits, Monk drops and Focus, the flux coin turned, extra
phases), so that the checks are not vacuous. About 4 minutes on 2 cores
(``pytest tests/engine/test_conformance_slow.py -n 2``).

The solo variant: every combination for each player colour plays SOLO_GAMES whole games under
each ``solo_lookahead`` reading, from setups drawn from the seed, the player choosing at random
or greedily (so that it wins some games), the last game with ``solo_focus_replaces_action``.
Every position gets the checks of conformance.py and the solo ones (the player never changes).
About 1.5 minutes more on 2 cores.
"""

from __future__ import annotations

import itertools
import random

import pytest
from conformance import (
    FINISH,
    SOLO_LOOKAHEADS,
    check_invariants,
    check_solo_path,
    check_turns,
    playout,
    solo_playout,
    solo_start,
)
from test_conformance import (
    COMBOS,
    PLAIN_COMBOS,
    SOLO_CASES,
    check_paths_agree,
    random_field_position,
    seed_of,
    solo_case_id,
)

from taolong_lab import new_game
from taolong_lab.rules.data import COLOURS
from taolong_lab.rules.scenario import PORTAL_COLOURS, load_scenario

pytestmark = pytest.mark.slow

# Options of game k of a combination (k = 0 .. GAMES-1): the defaults, then the other readings.
GAME_OPTIONS = (
    {},
    {},
    {},
    {},
    {"bite_on_stay": False, "extra_phases": 0},
    {"tail_vacates_first": "flip"},  # the other reading of A2 than the edition's
)
GAMES = len(GAME_OPTIONS)


def options_for(combo, game: int) -> dict:
    options = dict(GAME_OPTIONS[game])
    if options.get("tail_vacates_first") == "flip":
        options["tail_vacates_first"] = combo.edition != "earlier"
    return options


def features(before, after) -> set[str]:
    """What the turn from ``before`` to ``after`` exercised (for the coverage check)."""
    turn = next(t for t, s in before.successors() if s == after)
    seen = {"two phases"} if len(turn.phases) == 2 else set()
    for phase in turn.phases:
        used = {"portal": phase.portals, "drops": phase.drops, "focus": phase.focus}
        seen |= {name for name, value in used.items() if value}
    if sum(after.rocks.values()) < sum(before.rocks.values()):
        seen.add("rock hit")
    if after.rules.mode in ("master", "chosen-one") and after.flux == "cw":
        seen.add("flux cw")
    return seen


def expected_features(combo) -> set[str]:
    """Features every combination's games must reach, so that the checks are not vacuous."""
    scenario = load_scenario(combo.scenario)
    expected = {"two phases"}
    if any(sym in PORTAL_COLOURS for row in scenario.rows for sym in row):
        expected.add("portal")
    if scenario.breakable_rocks:
        expected.add("rock hit")
    if combo.mode != "grasshopper":
        expected |= {"drops", "focus"}
    if combo.mode in ("master", "chosen-one"):
        expected.add("flux cw")
    return expected


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: c.id)
def test_whole_games_are_sound(combo):
    seen: set[str] = set()
    for game in range(GAMES):
        kwargs = {**combo.kwargs(), **options_for(combo, game)}
        edition = kwargs.pop("edition")
        path = playout(edition, kwargs, seed_of(combo, game), FINISH)
        assert path[-1].is_over(), f"{combo.id} game {game} did not end in {FINISH} turns"
        for s in path:
            check_invariants(s)
            check_turns(s)
        for before, after in itertools.pairwise(path):
            seen |= features(before, after)
    assert expected_features(combo) <= seen


@pytest.mark.parametrize("block", range(20))
def test_fast_and_general_paths_agree_on_many_random_field_positions(block):
    for seed in range(10_000 + block * 100, 10_000 + (block + 1) * 100):
        check_paths_agree(random_field_position(seed))


@pytest.mark.parametrize("combo", PLAIN_COMBOS, ids=lambda c: c.id)
def test_fast_and_general_paths_agree_on_whole_games(combo):
    for game in range(3):
        kwargs = {**combo.kwargs(), **options_for(combo, game + 3)}
        edition = kwargs.pop("edition")
        rng = random.Random(seed_of(combo, 100 + game))
        state = new_game(edition=edition, **kwargs)
        while True:
            check_paths_agree(state.to_tln())
            if state.is_over():
                break
            state = state.play(rng.choice(state.legal_turns()))


# ---- the solo variant: whole games ---------------------------------------------------------------
SOLO_GREED = (0.0, 0.7, 1.0)  # game k: how often the player picks the most damaging turn
SOLO_GAMES = len(SOLO_GREED)


def solo_features(before, after) -> set[str]:
    """What a solo turn exercised (for the coverage check)."""
    turn = next(t for t, s in before.successors() if s == after)
    phase = turn.phases[0]
    seen = set()
    if phase.opponent:
        seen.add("group")
        if any(a is None for _, a in phase.opponent):
            seen.add("skipped")
    same_choice = {
        t.phases[0].opponent
        for t in before.legal_turns()
        if t.phases[0]._replace(opponent=None) == phase._replace(opponent=None)
    }
    if len(same_choice) > 1:
        seen.add("tie")
    if phase.focus:
        seen.add("focus")
    if phase.drops:
        seen.add("drops")
    if phase.penalty:
        seen.add("penalty")
    if phase.ended:
        seen.add("ended in the group")
    if after.is_over():
        seen.add("won" if after.outcome().winner == after.player else "lost")
    return seen


@pytest.mark.parametrize("case", SOLO_CASES, ids=solo_case_id)
def test_whole_solo_games_are_sound(case):
    combo, player = case
    seen: set[str] = set()
    for look in SOLO_LOOKAHEADS:
        for game, greed in enumerate(SOLO_GREED):
            n = 100 + 10 * COLOURS.index(player) + 5 * SOLO_LOOKAHEADS.index(look) + game
            seed = seed_of(combo, n)
            options = {"solo_lookahead": look}
            if game == SOLO_GAMES - 1:
                options["solo_focus_replaces_action"] = True
            path = solo_playout(solo_start(combo, player, seed, **options), seed, FINISH, greed)
            assert path[-1].is_over(), f"{combo.id} {player} {look} game {game} did not end"
            check_solo_path(path)
            for s in path:
                check_invariants(s)
                check_turns(s)
            for before, after in itertools.pairwise(path):
                seen |= solo_features(before, after)
    extra = 0
    while "won" not in seen and extra < 6:  # a few more greedy games until the player wins one
        seed = seed_of(combo, 200 + 10 * COLOURS.index(player) + extra)
        path = solo_playout(solo_start(combo, player, seed), seed, FINISH, greed=1.0)
        check_solo_path(path)
        for s in path:
            check_invariants(s)
            check_turns(s)
        seen |= solo_features(path[-2], path[-1])
        extra += 1
    assert {"group", "skipped", "tie", "won", "lost"} <= seen, sorted(seen)
