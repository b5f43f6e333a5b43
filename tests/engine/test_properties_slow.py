"""Exhaustive (slow) versions of the property tests in test_properties.py.

Marked ``slow``: ``make test-full`` runs them, ``make test`` does not. About 4 minutes on
2 cores (``pytest tests/engine/test_properties_slow.py -n 2``). They live in their own file so that
the fast property tests stay quick when test_properties.py is run on its own, and so that
pytest-xdist spreads these long tests over the workers.
"""

from __future__ import annotations

import pytest
from conformance import FINISH, check_invariants, check_turns, playout
from hypothesis import HealthCheck, given, settings
from test_properties import CONFIG_IDS, CONFIGS, PERFT, perft, playouts

pytestmark = pytest.mark.slow

SLOW = settings(
    max_examples=100,  # per configuration: 600 playouts in all
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_perft_depth6():
    # About 7 s and 300 MB; the earlier edition's depth 6 is left out (~10x bigger).
    assert perft("current", 6) == PERFT["current"]


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_every_position_reached_is_sound_exhaustive(config):
    @SLOW
    @given(playouts(configs=(config,)))
    def check(path):
        for s in path:
            check_invariants(s)
            check_turns(s)

    check()


@pytest.mark.parametrize(("edition", "options"), CONFIGS, ids=CONFIG_IDS)
def test_whole_games_exhaustive(edition, options):
    for seed in range(25):
        for s in playout(edition, options, seed, FINISH):
            check_invariants(s)
            check_turns(s)
