"""Profile the engine's hot path with cProfile and print the top 25 functions by cumulative time.

    .venv/bin/python bench/profile.py                 # both workloads of bench/run.py
    .venv/bin/python bench/profile.py --workload playouts --games 10 --top 40
    .venv/bin/python bench/profile.py --sort tottime
    .venv/bin/python bench/profile.py --workload scenarios --sort tottime

The workloads are the ones bench/run.py times: ``legal+play`` over bench/positions.txt
(fresh ``State(tln)`` each pass), seeded random ``playouts`` from the start, and
``scenarios`` (legal+play over bench/positions-scenarios.txt, every scenario and mode; not part
of ``both``, which stays the Field workloads a and b).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# This file is named like the stdlib's ``profile`` module, which cProfile imports: take bench/
# off sys.path before importing cProfile so that the stdlib module is found.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import argparse  # noqa: E402
import cProfile  # noqa: E402
import io  # noqa: E402
import pstats  # noqa: E402


def _load_run():
    spec = importlib.util.spec_from_file_location("bench_run", HERE / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_run = _load_run()
legal_and_play, load_positions, playouts = _run.legal_and_play, _run.load_positions, _run.playouts
SCENARIO_POSITIONS = _run.SCENARIO_POSITIONS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="cProfile the taolong_lab hot path.")
    parser.add_argument(
        "--workload", choices=["both", "legal", "playouts", "scenarios"], default="both"
    )
    parser.add_argument("--rounds", type=int, default=5, help="passes over the positions file")
    parser.add_argument("--games", type=int, default=10, help="random playouts")
    parser.add_argument("--top", type=int, default=25, help="rows to print")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key")
    args = parser.parse_args(argv)

    tlns = load_positions()
    profiler = cProfile.Profile()
    profiler.enable()
    if args.workload in ("both", "legal"):
        legal_and_play(tlns, args.rounds)
    if args.workload in ("both", "playouts"):
        playouts(args.games)
    if args.workload == "scenarios":
        legal_and_play(load_positions(SCENARIO_POSITIONS), args.rounds)
    profiler.disable()

    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
    print(out.getvalue().rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
