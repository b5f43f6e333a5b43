"""Benchmark ``solve(method="race")``: the explicit solver and SAT at once, one core each.

    .venv/bin/python bench/race.py --file bench/deep-set.jsonl --ids gorge-w-s3 valley-b-r1
    .venv/bin/python bench/race.py --file puzzles/rulebook-solo.jsonl --ids mist-white --json

Per challenge, each race in a fresh process, one after the other (a race takes both cores):
the optimum (or the bound proved), the race's wall seconds with the first-turn count, the
winner, and what became of the other solver ("stopped", or its status when it finished
first without an exact answer).

    .venv/bin/python bench/race.py --warm --ids field-b3w4-win7 field-b2w4-win6

``--warm``: per challenge, in one fresh process, the explicit solver alone, SAT alone, then
the race twice: cold (the first race of the process), then warm (after the process has
solved every challenge of the file, as a notebook or a script has). The goal: each race
within 1.3 times the faster solver plus 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SET = ROOT / "bench" / "solo-set.jsonl"


def measure(file: str, pid: str, time_limit: float | None) -> dict:
    """One race on one challenge, in this process."""
    from taolong_lab.puzzles import load_puzzles
    from taolong_lab.solvers import solve

    p = next(q for q in load_puzzles(file, check_solutions=False) if q.id == pid)
    t = time.perf_counter()
    s = solve(p, method="race", time_limit=time_limit, progress=False)
    race = s.stats.get("race", {})
    winner = race.get("winner", "explicit")
    return {
        "id": pid,
        "result": s.optimum if s.status == "optimal" else f">={s.proved_no_win_below}",
        "first_turns": s.optimal_first_turns,
        "race_s": round(time.perf_counter() - t, 3),
        "winner": winner,
        "other": next((v for k, v in race.items() if k not in ("winner", "seconds")), None),
    }


def warm(file: str, pid: str) -> dict:
    """Both solvers alone, then a cold and a warm race, all in this process."""
    from taolong_lab.puzzles import load_puzzles
    from taolong_lab.solvers import solve

    puzzles = load_puzzles(file, check_solutions=False)
    p = next(q for q in puzzles if q.id == pid)

    def timed(method: str) -> float:
        t = time.perf_counter()
        solve(p, method=method, progress=False)
        return round(time.perf_counter() - t, 3)

    row = {"id": pid, "race_cold_s": timed("race")}
    row["explicit_s"], row["sat_s"] = timed("explicit"), timed("sat")
    for q in puzzles:  # what a notebook has done before
        solve(q, method="sat", progress=False)
        solve(q, method="explicit", progress=False)
    row["race_warm_s"] = timed("race")
    row["goal_s"] = round(1.3 * min(row["explicit_s"], row["sat_s"]) + 0.5, 3)
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--file", default=str(SET))
    ap.add_argument("--ids", nargs="*", default=None, help="these challenges (default: all)")
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--json", action="store_true", help="one JSON object a line")
    ap.add_argument("--warm", action="store_true", help="cold and warm races against each solver")
    ap.add_argument("--one", metavar="ID", help=argparse.SUPPRESS)  # the worker
    args = ap.parse_args(argv)
    if args.one:
        how = (
            warm(args.file, args.one)
            if args.warm
            else measure(args.file, args.one, args.time_limit)
        )
        print(json.dumps(how))
        return 0
    from taolong_lab.puzzles import load_puzzles

    ids = args.ids or [p.id for p in load_puzzles(args.file, check_solutions=False)]
    columns = ("id", "result", "first_turns", "race_s", "winner", "other")
    if args.warm:
        columns = ("id", "explicit_s", "sat_s", "race_cold_s", "race_warm_s", "goal_s")
    if not args.json:
        print("| " + " | ".join(columns) + " |")
        print("|---" * len(columns) + "|")
    for pid in ids:
        cmd = [sys.executable, __file__, "--file", args.file, "--one", pid]
        cmd += ["--warm"] if args.warm else []
        if args.time_limit is not None:
            cmd += ["--time-limit", str(args.time_limit)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        row = json.loads(done.stdout.splitlines()[-1])
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            cells = [row[k] for k in columns]
            print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
