"""Benchmark ``solve(method="race")``: the explicit solver and SAT at once, one core each.

    .venv/bin/python bench/race.py --file bench/deep-set.jsonl --ids gorge-w-s3 valley-b-r1
    .venv/bin/python bench/race.py --file puzzles/rulebook-solo.jsonl --ids mist-white --json

Per challenge, each race in a fresh process, one after the other (a race takes both cores):
the optimum (or the bound proved), the race's wall seconds with the first-turn count, the
winner, and what became of the other solver ("stopped", or its status when it finished
first without an exact answer).
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--file", default=str(SET))
    ap.add_argument("--ids", nargs="*", default=None, help="these challenges (default: all)")
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--json", action="store_true", help="one JSON object a line")
    ap.add_argument("--one", metavar="ID", help=argparse.SUPPRESS)  # the worker
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.file, args.one, args.time_limit)))
        return 0
    from taolong_lab.puzzles import load_puzzles

    ids = args.ids or [p.id for p in load_puzzles(args.file, check_solutions=False)]
    if not args.json:
        print("| challenge | result | first turns | race s | winner | the other |")
        print("|---|---:|---:|---:|---|---|")
    for pid in ids:
        cmd = [sys.executable, __file__, "--file", args.file, "--one", pid]
        if args.time_limit is not None:
            cmd += ["--time-limit", str(args.time_limit)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        row = json.loads(done.stdout.splitlines()[-1])
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            cells = [row[k] for k in ("id", "result", "first_turns", "race_s", "winner", "other")]
            print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
