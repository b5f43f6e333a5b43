"""The benchmark inputs are fixed: regenerating them from their seeds gives the files on disk,
and every position in them is valid."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from taolong_lab import State

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize("script", ["make_positions.py", "solo.py"])
def test_bench_positions_are_reproducible(script):
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_solo_bench_positions_are_mid_game_solo_positions():
    sys.path.insert(0, str(BENCH))
    try:
        import solo as bench_solo
    finally:
        sys.path.pop(0)
    tlns = bench_solo.load_positions()
    assert len(tlns) == 8 * 3 * 2
    for tln in tlns:
        state = State(tln)
        assert state.rules.solo and not state.is_over() and state.ply >= 8
        assert state.legal_turns()
    players = {State(t).player for t in tlns}
    assert players == {"white", "black"}
