"""Benchmark rendering: SVG time per position (goal: under 20 ms), and matplotlib figures.

    .venv/bin/python bench/render.py                 # table on stdout
    .venv/bin/python bench/render.py --repeat 9 --json out.json
    .venv/bin/python bench/render.py --skip-figures  # SVG only

For each fixed position of bench/positions.txt, positions-scenarios.txt and
positions-solo.txt (one core, best of ``--repeat`` runs per position, each run on a fresh
``State(tln)`` built outside the timer, so no cached legal turns carry over):

- ``svg``: ``svg(state)``, the plain picture (what ``State._repr_svg_`` draws);
- ``svg legal``: ``svg(state, legal=True)``: the side to move's destinations, so the
  time includes generating the legal turns;
- ``svg turn``: ``svg(state, turn=t, legal=True)`` with ``t`` the position's first
  legal turn: the turn is replayed (trace) and the picture is the position after it, with its
  own destinations;
- ``figure``: ``figure(state, legal=True)`` drawn to an Agg canvas (``--skip-figures``
  leaves it out; it runs on every fifth position only).

Reported per workload: mean, median, 95th percentile and worst of the per-position best
times, in ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from taolong_lab import State  # noqa: E402
from taolong_lab.pictures import svg  # noqa: E402

FILES = ("positions.txt", "positions-scenarios.txt", "positions-solo.txt")
GOAL_MS = 20.0


def load(name: str) -> list[str]:
    lines = (HERE / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def time_one(tln: str, repeat: int, work) -> float:
    """Best wall time (s) of ``work(state)`` over ``repeat`` runs on fresh states."""
    best = float("inf")
    for _ in range(repeat):
        state = State(tln)
        start = time.perf_counter()
        work(state)
        best = min(best, time.perf_counter() - start)
    return best


def first_turn(state):
    turns = state.legal_turns()
    return turns[0] if turns else None


WORKLOADS = {
    "svg": lambda s: svg(s),
    "svg legal": lambda s: svg(s, legal=True),
    "svg turn": lambda s: svg(s, turn=first_turn(s), legal=True),
}


def summary(times: list[float]) -> dict:
    ms = sorted(t * 1000 for t in times)
    return {
        "positions": len(ms),
        "mean_ms": round(statistics.fmean(ms), 3),
        "median_ms": round(statistics.median(ms), 3),
        "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 3),
        "max_ms": round(ms[-1], 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--skip-figures", action="store_true")
    parser.add_argument("--limit", type=int, help="the first N positions of each file only")
    args = parser.parse_args(argv)
    tlns = [tln for name in FILES for tln in load(name)[: args.limit]]
    for tln in tlns[:3]:  # warm up imports and caches
        for work in WORKLOADS.values():
            work(State(tln))
    results = {}
    for name, work in WORKLOADS.items():
        results[name] = summary([time_one(tln, args.repeat, work) for tln in tlns])
    if not args.skip_figures:
        import matplotlib

        matplotlib.use("Agg")
        from taolong_lab.pictures import figure

        def draw(state):
            figure(state, legal=True).canvas.draw()

        draw(State(tlns[0]))
        results["figure"] = summary([time_one(t, args.repeat, draw) for t in tlns[::5]])
    print(f"render benchmark: {len(tlns)} positions ({', '.join(FILES)}), best of {args.repeat}")
    print(f"command: .venv/bin/python bench/render.py {' '.join(argv or sys.argv[1:])}".rstrip())
    print(f"{'workload':<12} {'n':>4} {'mean':>8} {'median':>8} {'p95':>8} {'max':>8}  (ms)")
    for name, r in results.items():
        print(
            f"{name:<12} {r['positions']:>4} {r['mean_ms']:>8.2f} {r['median_ms']:>8.2f} "
            f"{r['p95_ms']:>8.2f} {r['max_ms']:>8.2f}"
        )
    worst = max(results[n]["max_ms"] for n in WORKLOADS)
    verdict = "meets" if worst < GOAL_MS else "MISSES"
    print(f"goal: every SVG under {GOAL_MS:g} ms; worst {worst:.2f} ms: {verdict} the goal")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
