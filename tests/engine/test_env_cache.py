"""The engine's per-layout tables (``env_for``) are cached for a bounded number of layouts:
reading positions on ever new layouts does not grow memory without end."""

from __future__ import annotations

import itertools

from taolong_lab import State
from taolong_lab.engine.core import ENV_CACHE_SIZE, env_for
from taolong_lab.rules import Rules

# The field's start with one or two fixed rocks ('#') in its middle rows: a new layout each.
START = (
    "field/grasshopper/current {board} a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 WW/-/BW/-/BB/-/WB/- 0:8 w 1"
)
MIDDLE_CELLS = [(x, y) for y in range(2, 6) for x in range(8)]


def _board(rocks) -> str:
    rows = [["."] * 8 for _ in range(8)]
    for x, y in rocks:
        rows[y][x] = "#"
    return "/".join(_compress("".join(row)) for row in rows)


def _compress(row: str) -> str:
    return "".join(
        str(len(run)) if sym == "." else "".join(run)
        for sym, run in ((s, list(g)) for s, g in itertools.groupby(row))
    )


def test_the_cache_keeps_a_bounded_number_of_layouts():
    assert env_for.cache_info().maxsize == ENV_CACHE_SIZE
    env_for.cache_clear()
    layouts = set()
    for rocks in itertools.combinations(MIDDLE_CELLS, 2):
        state = State.from_tln(START.format(board=_board(rocks)))
        layouts.add(state.layout)
        if len(layouts) > ENV_CACHE_SIZE + 20:
            break
    assert len(layouts) > ENV_CACHE_SIZE
    assert env_for.cache_info().currsize == ENV_CACHE_SIZE


def test_the_scenario_layout_stays_cached_while_in_use():
    rules = Rules()
    env = env_for(rules)
    for rocks in itertools.combinations(MIDDLE_CELLS, 2):
        State.from_tln(START.format(board=_board(rocks)))
        assert env_for(rules) is env
