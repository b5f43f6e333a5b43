"""Property tests for the solo variant: random solo games keep every invariant.

Hypothesis draws the game (any scenario and mode the data allows in the current edition, the
earlier rulebook having no solo variant, the Village or not,
either player colour, either ``solo_lookahead`` reading, either ``solo_focus_replaces_action``
reading), the setup (segments, water, a standard, shuffled or random Ba Gua, all from a seed)
and a seeded playout, the player choosing at random or greedily. On every position it checks,
through conformance.py: stones conserved (Ba Gua 4 W + 4 B, water 8, fire 8), bodies connected,
nothing overlapping, the meters, ``validate()``, the TLN / JSON / ``repr`` / pickle round trips,
and that the legal turns, their notation (with and without the opponent's group) and ``play()``
agree; and the solo invariants: the player never changes and is always to move, one turn a ply.
Small budgets keep it well under a minute on 2 cores; test_conformance_slow.py plays whole solo
games for every combination.
"""

from __future__ import annotations

from conformance import (
    FINISH,
    SOLO_LOOKAHEADS,
    check_invariants,
    check_round_trips,
    check_solo_path,
    check_turns,
    solo_combinations,
    solo_playout,
    solo_start,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taolong_lab import State
from taolong_lab.rules.data import COLOURS

COMBOS = solo_combinations()

FAST = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


SHORT = st.integers(0, 12)


@st.composite
def solo_games(draw, depth=SHORT) -> list[State]:
    combo = draw(st.sampled_from(COMBOS))
    player = draw(st.sampled_from(COLOURS))
    options = {
        "solo_lookahead": draw(st.sampled_from(SOLO_LOOKAHEADS)),
        "solo_focus_replaces_action": draw(st.booleans()),
    }
    seed = draw(st.integers(0, 2**32 - 1))
    greed = draw(st.sampled_from((0.0, 0.5, 1.0)))
    start = solo_start(combo, player, seed, **options)
    return solo_playout(start, seed, draw(depth), greed)


@FAST
@given(solo_games())
def test_random_solo_positions_are_sound(path):
    check_solo_path(path)
    for s in path:
        check_invariants(s)
        check_turns(s)


@settings(FAST, max_examples=25)
@given(solo_games(depth=st.just(FINISH)))
def test_whole_solo_games_end_soundly(path):
    """Played to the end: every position round-trips; the last one is over, has no turns,
    and its winner is the dragon still alive."""
    check_solo_path(path)
    for s in path:
        check_round_trips(s)
    end = path[-1]
    assert end.is_over() and end.legal_turns() == []
    check_invariants(end)
    loser = next(c for c in COLOURS if not end.dragon(c).alive)
    assert end.outcome().winner != loser and end.player == path[0].player
