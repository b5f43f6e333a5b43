"""Benchmark the puzzle generator: verified puzzles kept per minute, per tier and worker count.

    .venv/bin/python bench/generate.py                       # the table (novice, intermediate, <=4)
    .venv/bin/python bench/generate.py --tiers 1..4 --workers 1 2 --count 60
    .venv/bin/python bench/generate.py --json

Each row is one fresh `generate()` run on fixed inputs (every scenario, the modes Grasshopper,
Monk and Master, seed 4242 + the tier's first turn, no output file) until `--count` puzzles are
kept. Every kept puzzle is fully verified by the generator: proved optimal, cross-checked by
the second search, counted, fair, non-trivial, graded. Reported: wall seconds, puzzles per
minute (wall), candidates tried, and the CPU seconds of this process plus its worker processes.
The goal (issue 8): at least 100 verified win-in-<=4 puzzles per minute on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from taolong_lab.puzzles.generate import generate  # noqa: E402
from taolong_lab.runner import Runner  # noqa: E402

MODES = ("grasshopper", "monk", "master")


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def one_run(turns: tuple[int, int], workers: int, count: int, time_limit: float) -> dict:
    reasons: dict[str, int] = {}
    t0, c0 = time.perf_counter(), cpu_seconds()
    kept = generate(
        count,
        scenarios="all",
        modes=MODES,
        turns=turns,
        seed=4242 + turns[0],
        time_limit=time_limit,
        runner=Runner(workers=workers),
        stats=reasons,
    )
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    return {
        "turns": f"{turns[0]}..{turns[1]}",
        "workers": workers,
        "kept": len(kept),
        "tried": sum(reasons.values()),
        "seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "per_minute": round(60 * len(kept) / wall, 1),
        "optima": sorted(p.optimum for p in kept),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiers", nargs="+", default=["1..2", "3..4", "1..4"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for span in args.tiers:
        low, high = (int(x) for x in span.split(".."))
        for workers in args.workers:
            row = one_run((low, high), workers, args.count, args.time_limit)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
    if not args.json:
        print("| turns | workers | kept | tried | seconds | CPU seconds | puzzles/min |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print(
                f"| {r['turns']} | {r['workers']} | {r['kept']} | {r['tried']} | "
                f"{r['seconds']} | {r['cpu_seconds']} | {r['per_minute']} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
