"""Benchmark the explicit solver on bench/solo-set.jsonl.

    .venv/bin/python bench/solve.py                 # solve every challenge, print a table
    .venv/bin/python bench/solve.py --time-limit 600 --json
    .venv/bin/python bench/solve.py --make          # rebuild bench/solo-set.jsonl

The set is built from solo starts with a weakened opponent (1-2 segments, low water) in several
scenarios: each start is solved, and the positions along its optimal line give challenges of
every smaller optimum. Each challenge stores its optimum, a solution and the certificate.
Per challenge the report gives the optimum, positions expanded, positions/s, wall and CPU
seconds and the peak memory of that solve (MB: the peak resident set of a fresh process that
solves only that challenge; `--same-process` solves them all in this one, faster to start but
then memory freed by one search stays with the process and counts in the next one's peak).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from taolong_lab import solo_game  # noqa: E402
from taolong_lab.puzzles import Puzzle, load_puzzles, save_puzzles  # noqa: E402
from taolong_lab.solvers.explicit import replay, solve  # noqa: E402

SET = ROOT / "bench" / "solo-set.jsonl"
# (scenario, black segments, black water, which optima to keep from the line)
SOURCES = [
    ("field", 1, 1, (1, 2, 3, 4)),
    ("field", 1, 4, (5,)),
    ("field", 2, 4, (6,)),
    ("field", 3, 4, (7,)),
    ("cave", 2, 4, (5,)),
    ("cave", 1, 1, (1, 2, 3)),
    ("cave", 1, 2, (4,)),
    ("wall", 1, 1, None),
    ("valley", 1, 1, None),
    ("torus", 1, 1, None),
]


def make(time_limit: float) -> list[Puzzle]:
    puzzles = []
    for scenario, segments, water, keep in SOURCES:
        try:
            start = solo_game(scenario, segments={"black": segments}, water={"black": water})
        except Exception as exc:  # a scenario the engine refuses: leave it out
            print(f"skip {scenario}: {exc}", file=sys.stderr)
            continue
        sol = solve(start, time_limit=time_limit, progress=False)
        if sol.status != "optimal":
            print(f"skip {scenario} {segments}/{water}: {sol.status}", file=sys.stderr)
            continue
        states = replay(sol, start)
        for k, state in enumerate(states[:-1]):
            optimum = sol.optimum - k
            if keep is not None and optimum not in keep:
                continue
            sub = solve(state, progress=False, time_limit=time_limit)
            assert sub.status == "optimal" and sub.optimum == optimum, (scenario, k, sub)
            ident = f"{scenario}-b{segments}w{water}-win{optimum}"
            puzzles.append(
                Puzzle.from_state(
                    ident,
                    f"{scenario.title()}: black with {segments} segment(s), {water} water; "
                    f"win in {optimum}",
                    state,
                    optimum=optimum,
                    solution=sub.line,
                    certificate={
                        k2: v
                        for k2, v in sub.certificate.to_json().items()
                        if k2 != "no_win_within"
                    },
                    provenance={"generator": "bench/solve.py --make", "version": "0.1.0"},
                )
            )
    puzzles.sort(key=lambda p: (p.optimum, p.id))
    return puzzles


def _solve_one(puzzle, time_limit):
    return solve(puzzle, time_limit=time_limit, progress=False)


def _solve(puzzle, time_limit, *, fresh: bool):
    if not fresh:
        return _solve_one(puzzle, time_limit)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, max_tasks_per_child=1) as pool:
        return pool.submit(_solve_one, puzzle, time_limit).result()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--make", action="store_true", help="rebuild the set first")
    parser.add_argument("--time-limit", type=float, default=600.0, help="per challenge, s")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--file", default=str(SET))
    parser.add_argument("--only", nargs="*", metavar="ID", help="these challenges only")
    parser.add_argument("--same-process", action="store_true", help="no fresh process each")
    args = parser.parse_args(argv)
    if args.make:
        puzzles = make(args.time_limit)
        save_puzzles(args.file, puzzles)
        print(f"wrote {len(puzzles)} challenges to {args.file}", file=sys.stderr)
    puzzles = load_puzzles(args.file)
    if not args.json:
        print(
            f"{'challenge':28} {'optimum':>7} {'expanded':>9} {'pos/s':>8} {'s':>8} "
            f"{'cpu s':>8} {'MB':>7}"
        )
    for p in puzzles:
        if args.only and p.id not in args.only:
            continue
        s = _solve(p, args.time_limit, fresh=not args.same_process)
        st = s.stats
        row = {
            "id": p.id,
            "status": s.status,
            "optimum": s.optimum,
            "stored": p.optimum,
            "proved_no_win_below": s.proved_no_win_below,
            **st,
        }
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            opt = s.optimum if s.status == "optimal" else f">={s.proved_no_win_below}"
            print(
                f"{p.id:28} {opt!s:>7} {st['expanded']:>9} {st['positions_per_second']:>8} "
                f"{st['seconds']:>8} {st['cpu_seconds']:>8} {st['peak_memory_mb']:>7}",
                flush=True,
            )
        if s.status == "optimal" and p.optimum is not None and s.optimum != p.optimum:
            print(f"MISMATCH {p.id}: stored {p.optimum}, solved {s.optimum}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
