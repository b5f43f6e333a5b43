"""Benchmark the engine core against an earlier commit, in the same conditions.

    .venv/bin/python bench/engine.py                         # this checkout only
    .venv/bin/python bench/engine.py --baseline b11c4b1      # and that commit, side by side
    .venv/bin/python bench/engine.py --baseline b11c4b1 --repeat 5 --json out.json
    .venv/bin/python bench/engine.py --only playouts-field,perft5

Each workload runs in a fresh process (so no cache carries over from another workload), with
the package of the checkout under test first on ``sys.path``; ``--baseline REV`` checks REV out
into a temporary git worktree and runs the same workloads there, alternating the two checkouts
run by run. Figures are CPU seconds of the workload alone (``time.process_time``), best of
``--repeat`` runs. Only the public API is used, so any commit since the foundation can be the
baseline.

Workloads:

- ``startup``: ``import taolong_lab`` and ``load_puzzles`` of puzzles/rulebook-solo.jsonl (its
  solutions replayed), wall-clock seconds in a fresh process;
- ``playouts-field``, ``playouts-maze``: seeded random games from ``new_game()`` (seeds
  0..G-1), ``random.Random(seed).choice(state.legal_turns())`` then ``state.play(turn)`` until
  the game ends (or 2,000 turns); turns / s;
- ``playouts-solo``: the same from ``solo_game()`` (The Field, white), at most 300 turns a game;
- ``perft5``: the number of turn sequences of length 5 from the start (current edition,
  95,012), by ``iter_successors``; seconds;
- ``solo-successors``: ``successors()`` of every position of bench/positions-solo.txt, read
  afresh; successors / s;
- ``solver``: the explicit solver on each puzzle of bench/solo-set.jsonl; seconds, with the
  three win-in-5-to-7 Field challenges of the speed goal summed apart.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORKLOADS = (
    "startup",
    "playouts-field",
    "playouts-maze",
    "playouts-solo",
    "perft5",
    "solo-successors",
    "solver",
)
GOAL_PUZZLES = ("field-b1w4-win5", "field-b2w4-win6", "field-b3w4-win7")
GAMES = 30
PLAYOUT_CAP, SOLO_CAP = 2000, 300


# ---- the workloads (run in a child process) ---------------------------------------------------
def _playouts(make, games: int, cap: int) -> dict:
    import random

    turns = 0
    t0 = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = make()
        for _ in range(cap):
            if state.is_over():
                break
            state = state.play(rng.choice(state.legal_turns()))
            turns += 1
    seconds = time.process_time() - t0
    return {"items": turns, "unit": "turns", "seconds": seconds}


def _perft(state, depth: int) -> int:
    if depth == 1:
        return len(state.legal_turns())
    return sum(_perft(after, depth - 1) for _, after in state.iter_successors())


def worker(name: str) -> dict:
    if name == "startup":  # wall time: the import is mostly reading files
        t0 = time.perf_counter()
        from taolong_lab import load_puzzles

        count = len(load_puzzles(HERE.parent / "puzzles" / "rulebook-solo.jsonl"))
        return {"items": count, "unit": "puzzles", "seconds": time.perf_counter() - t0}
    from taolong_lab import load_puzzles, new_game, solo_game

    if name == "playouts-field":
        return _playouts(new_game, GAMES, PLAYOUT_CAP)
    if name == "playouts-maze":
        return _playouts(lambda: new_game("maze"), GAMES, PLAYOUT_CAP)
    if name == "playouts-solo":
        return _playouts(solo_game, GAMES, SOLO_CAP)
    if name == "perft5":
        t0 = time.process_time()
        leaves = _perft(new_game(), 5)
        return {"items": leaves, "unit": "sequences", "seconds": time.process_time() - t0}
    if name == "solo-successors":
        from taolong_lab import State

        lines = (HERE / "positions-solo.txt").read_text(encoding="utf-8").splitlines()
        tlns = [line for line in lines if line.strip() and not line.startswith("#")]
        t0 = time.process_time()
        count = sum(len(State(tln).successors()) for tln in tlns)
        return {"items": count, "unit": "successors", "seconds": time.process_time() - t0}
    if name == "solver":
        from taolong_lab.solvers.explicit import solve

        rows = {}
        for puzzle in load_puzzles(HERE / "solo-set.jsonl"):
            t0 = time.process_time()
            solution = solve(puzzle, progress=False)
            rows[puzzle.id] = {
                "seconds": time.process_time() - t0,
                "optimum": solution.optimum,
                "first_turns": solution.optimal_first_turns,
            }
        seconds = sum(r["seconds"] for r in rows.values())
        return {"items": len(rows), "unit": "puzzles", "seconds": seconds, "puzzles": rows}
    raise SystemExit(f"unknown workload {name!r}")


# ---- the driver -------------------------------------------------------------------------------
def run_in(checkout: Path, name: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, str(HERE / "engine.py"), "--worker", name],
        capture_output=True,
        text=True,
        env=env,
        cwd=checkout,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{name} in {checkout} failed:\n{done.stderr}")
    return json.loads(done.stdout)


@contextlib.contextmanager
def baseline_checkout(rev: str | None):
    if rev is None:
        yield None
        return
    where = Path(tempfile.mkdtemp(prefix="taolong-baseline-"))
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(where), rev], cwd=ROOT, check=True
    )
    try:
        yield where
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT, check=False)


def rate(row: dict) -> float:
    return row["items"] / row["seconds"] if row["seconds"] else float("inf")


def best(rows: list[dict]) -> dict:
    return min(rows, key=lambda row: row["seconds"])


def goal_seconds(row: dict) -> float | None:
    puzzles = row.get("puzzles")
    if not puzzles:
        return None
    return sum(puzzles[p]["seconds"] for p in GOAL_PUZZLES if p in puzzles)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", metavar="REV", help="also run this git revision")
    parser.add_argument("--repeat", type=int, default=3, help="runs per workload (best kept)")
    parser.add_argument("--only", help="comma-separated workloads (default: all)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker)))
        return 0
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    names = args.only.split(",") if args.only else list(WORKLOADS)
    unknown = set(names) - set(WORKLOADS)
    if unknown:
        parser.error(f"unknown workloads {sorted(unknown)}; known: {', '.join(WORKLOADS)}")
    report = {"baseline": args.baseline, "repeat": args.repeat, "workloads": {}}
    with baseline_checkout(args.baseline) as old:
        checkouts = {"new": ROOT} | ({"old": old} if old else {})
        for name in names:
            runs = {label: [] for label in checkouts}
            for _ in range(args.repeat):
                for label, where in checkouts.items():
                    runs[label].append(run_in(where, name))
            report["workloads"][name] = {label: best(rows) for label, rows in runs.items()}
            print(line(name, report["workloads"][name]), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


def line(name: str, rows: dict) -> str:
    new = rows["new"]
    text = f"{name:<16} {new['items']:>9,} {new['unit']:<11} {new['seconds']:8.3f} s"
    text += f" {rate(new):>12,.0f}/s"
    old = rows.get("old")
    if old:
        text += f"   baseline {old['seconds']:8.3f} s {rate(old):>12,.0f}/s"
        text += f"   x{old['seconds'] / new['seconds']:.2f}"
    goal_new, goal_old = goal_seconds(new), goal_seconds(old or {})
    if goal_new is not None:
        text += f"\n{'':<16} speed-goal trio: {goal_new:.3f} s"
        if goal_old is not None:
            text += f", baseline {goal_old:.3f} s, x{goal_old / goal_new:.2f}"
    return text


if __name__ == "__main__":
    sys.exit(main())
