"""The benchmark inputs are fixed: regenerating them from their seeds gives the files on disk,
and every position in them is valid."""

from __future__ import annotations

import json
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


def _kernel_choice_inputs():
    """bench/kernel_choice/inputs.py, loaded under a name of its own."""
    import importlib.util

    path = BENCH / "kernel_choice" / "inputs.py"
    spec = importlib.util.spec_from_file_location("kernel_choice_inputs", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_kernel_choice_rows_hold_the_positions_they_were_made_from():
    """The flat input of bench/kernel_choice: each row decodes to its board's dragons and
    rocks, and the board's masks, neighbours and shifts are the engine's."""
    import random

    inputs = _kernel_choice_inputs()
    rng = random.Random(5)
    for scenario in inputs.SCENARIOS:
        boards, rocks = inputs.playout_boards(scenario, 6, rng)
        env = boards[0][0]
        masks, ints = inputs.encode_board(env, rocks)
        assert int(masks[inputs.M_PORTAL]) == env.portal_mask
        assert int(masks[inputs.M_STATIC]) == env.static_mask
        size = env.geo.size
        assert [tuple(ints[inputs.NBR + 4 * c : inputs.NBR + 4 * c + 4]) for c in range(size)] == [
            tuple(n) for n in env.nbr
        ]
        cells = rng.getrandbits(size)
        for d in range(4):
            assert _flat_shift(inputs, masks, ints, cells, d) == env.geo.shift(cells, d)
        for _, board in boards:
            row = inputs.encode_position(board, 1, rocks)
            assert row[0] == 1
            assert _decode_dragons(inputs, row) == [
                (d.cells, tuple(map(tuple, d.links))) for d in board.dragons
            ]
            hits = row[inputs.HITS : inputs.HITS + len(rocks)]
            assert {c: h for c, h in zip(rocks, hits, strict=True) if h} == dict(board.rocks)


def _flat_shift(inputs, masks, ints, cells: int, d: int) -> int:
    by, far = int(ints[inputs.H_BY + d]), int(ints[inputs.H_FAR + d])
    moved = cells & int(masks[inputs.M_MOVING + d])
    out = moved << by if by > 0 else moved >> -by
    back = cells & int(masks[inputs.M_WRAPPING + d])
    return out | (back << far if far > 0 else back >> -far)


def _decode_dragons(inputs, row) -> list:
    out = []
    for c in range(2):
        at = 1 + c * inputs.DRAGON
        n, nlinks = row[at], row[at + 1]
        links = row[at + 2 + inputs.MAXC : at + 2 + inputs.MAXC + 3 * nlinks]
        out.append((tuple(row[at + 2 : at + 2 + n]), tuple(zip(*[iter(links)] * 3, strict=True))))
    return out


def test_the_agents_benchmark_runs_its_matches_and_resumes(tmp_path):
    """bench/agents.py at toy budgets: each refinement's match, the tuning match and two
    pairings of the ladder, the report written; a rerun reads the games back."""
    candidate = tmp_path / "tuning.json"
    weights = {"life": 20, "fire": 2, "threat": 1, "initiative": 4, "stacks": 1, "mobility": 1}
    candidate.write_text(json.dumps({"fitted": weights}))
    out = tmp_path / "agents.json"
    argv = [
        sys.executable,
        str(BENCH / "agents.py"),
        "--only",
        "search,tuning,ladder",
        "--games=2",
        "--search-games=2",
        "--tuning-games=2",
        "--search-nodes=150",
        "--tuning-nodes=150",
        "--ab-nodes",
        "100",
        "200",
        "300",
        "--mcts-nodes=100",
        "--pairs",
        "greedy-random",
        "alphabeta300-random",
        f"--candidate={candidate}",
        f"--out={out}",
    ]
    for _ in range(2):
        done = subprocess.run(argv, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    steps = report["search"]["steps"]
    assert [s["improvement"] for s in steps] == ["pvs", "killers", "lmr", "quiescence"]
    assert all(s["games"] == 2 and s["kept"] == (s["score"] > 0.5) for s in steps)
    assert report["tuning"]["games"] == 2 and report["tuning"]["candidate"]["life"] == 20
    assert report["tuning"]["keep"] == (report["tuning"]["interval"][0] > 0.5)
    ladder = report["ladder"]
    assert [(m["first"], m["second"]) for m in ladder["matches"]] == [
        ("greedy", "random"),
        ("alphabeta300", "random"),
    ]
    assert all(r["low"] < r["elo"] < r["high"] for r in ladder["ratings"])
    assert len(list((tmp_path / "agents" / "ladder").glob("*.jsonl"))) == 2
