"""The one sowing helper, ``engine.sow``, and the solvers' sowing table built on it."""

from __future__ import annotations

import random

import pytest

from taolong_lab import solo_game
from taolong_lab.engine import CCW, CW, sow
from taolong_lab.engine.solo import solo_sowings
from taolong_lab.solvers.bounds import sow_table


@pytest.mark.parametrize("flow", [CCW, CW])
def test_sow_names_every_space_a_stone_landed_on(flow):
    """``engine.sow``, the one sowing helper: stone ``j`` of the stack (base first) lands
    ``j + 1`` spaces on in the flow's direction, the last one names the element, and each
    target holds its stone on top."""
    bagua = ("WBWB", "", "BW", "", "B", "", "", "W")
    sown = sow(bagua, 0, flow)
    step = 1 if flow == CCW else -1
    assert sown.targets == tuple((step * j) % 8 for j in range(1, 5))
    assert sown.element == sown.targets[-1]
    assert sown.bagua[0] == ""
    for target, stone in zip(sown.targets, bagua[0], strict=True):
        assert sown.bagua[target] == bagua[target] + stone


def test_the_solvers_sowing_table_is_the_engines():
    """``solvers.bounds.sow_table`` reads the engine's sowing: for every space of random Ba
    Guas, the same stacks after, element and opponent group as the solo variant's own
    sowings (``engine.solo.solo_sowings``)."""
    for seed in range(40):
        state = solo_game(
            bagua="random", seed=seed, player=random.Random(seed).choice(["white", "black"])
        )
        opp = "WB"[1 - state.mover]
        table = sow_table(state.bagua, opp)
        assert set(table) == {i for i, stack in enumerate(state.bagua) if stack}
        for space, row in table.items():
            [solo] = solo_sowings(state.tables, state.bagua, space, CCW)
            group = tuple(t for t, s in zip(solo.targets, solo.pattern, strict=True) if s == opp)
            assert (row.bagua, row.element, row.group) == (
                solo.sowing.bagua,
                solo.sowing.element,
                group,
            )
