"""Best proved results for the rulebook's 16 solo challenges (puzzles/rulebook-solo.jsonl).

Solves each challenge ONE AT A TIME, each in a fresh child process (so one search's memory is
given back before the next), and writes the results JSON atomically after each one, so an
interrupted run resumes where it stopped (ids already in the file are skipped).

- Grasshopper challenges: the SAT solver (``method="sat"``), ``--time-limit`` seconds each
  (600 by default); The Maze as white: the explicit solver (it proved a win in 10 in 173 s,
  where SAT's turn-10 layer is too big), see ``EXPLICIT``.
- Then, for each proved challenge whose solver did not count its optimal first turns (SAT
  does not), a second pass counts them with the explicit solver's exact bounded search
  (``explicit.win_within`` on every first turn), ``--first-turns`` seconds each (0: skip;
  ``--recount`` tries again where an earlier count ran out).

The results file maps each id to ``{"method", "time_limit", "status", "optimum", "line",
"proved_no_win_below", "optimal_first_turns", "certificate", "stats", "date"}``; import it
into the puzzle file with ``python tools/rulebook.py --results FILE``.

    .venv/bin/python bench/rulebook_results.py --out bench/rulebook-results.json
    .venv/bin/python bench/rulebook_results.py --only maze-black --redo --solver explicit \\
        --time-limit 1200                                  # try harder, keep the better result
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles" / "rulebook-solo.jsonl"
EXPLICIT = {"maze-white"}  # solved by the explicit solver, the others by SAT
# Cheapest first (docs/performance.md, SAT seconds), so a short run still settles the most.
ORDER = [
    "torus-white",
    "torus-black",
    "mist-black",
    "wall-black",
    "mist-white",
    "wall-white",
    "field-white",
    "field-black",
    "valley-white",
    "valley-black",
    "gorge-black",
    "cave-black",
    "cave-white",
    "gorge-white",
    "maze-white",
    "maze-black",
]


def load_results(path: Path) -> dict:
    """The results file's contents ({} if it does not exist yet)."""
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        return {}


def save_results(path: Path, results: dict) -> None:
    """Write ``results`` atomically (temporary file in the same folder, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def solve_one(ident: str, method: str, time_limit: float) -> dict:
    """Solve one challenge in this process; the record stored in the results file."""
    from taolong_lab import load_puzzles
    from taolong_lab.solvers import solve

    puzzle = next(p for p in load_puzzles(PUZZLES, check_solutions=False) if p.id == ident)
    s = solve(puzzle, method=method, time_limit=time_limit, progress=False)
    return {
        "method": method,
        "time_limit": time_limit,
        "status": s.status,
        "optimum": s.optimum,
        "line": s.line.notation(),
        "proved_no_win_below": s.proved_no_win_below,
        "optimal_first_turns": s.optimal_first_turns,
        "certificate": s.certificate.to_json(),
        "stats": s.stats,
        "start": s.start,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


def count_first_turns(ident: str, optimum: int, time_limit: float) -> dict:
    """Count the optimal first turns of a challenge with a known optimum (explicit search)."""
    from taolong_lab import load_puzzles
    from taolong_lab.solvers.bounds import bound_params
    from taolong_lab.solvers.common import Budget
    from taolong_lab.solvers.explicit import _count_first_turns

    puzzle = next(p for p in load_puzzles(PUZZLES, check_solutions=False) if p.id == ident)
    t0 = time.perf_counter()
    budget = Budget(time_limit, None)
    count = _count_first_turns(puzzle.start, optimum, bound_params(puzzle.start), budget)
    return {
        "optimal_first_turns": count,
        "solver": "taolong_lab.solvers.explicit.win_within",
        "time_limit": time_limit,
        "seconds": round(time.perf_counter() - t0, 3),
        "expanded": budget.expanded,
    }


def _child(args: list[str]) -> dict:
    """Run this script on one task in a fresh process; its JSON answer."""
    done = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return {"status": "error", "error": done.stderr[-2000:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _rank(record: dict | None) -> tuple:
    """Solved beats bounded beats nothing; then the higher bound; then counted first turns."""
    if not record or record.get("status") not in ("optimal", "unknown"):
        return (0, 0, False)
    if record["status"] == "optimal":
        return (2, 0, record.get("optimal_first_turns") is not None)
    return (1, record["proved_no_win_below"], False)


def run(
    out: Path,
    time_limit: float,
    first_turns: float,
    only: list[str] | None,
    redo: bool = False,
    solver: str | None = None,
    recount: bool = False,
) -> None:
    """Solve every challenge not in ``out`` yet (``redo``: the ``only`` ones again, keeping
    the better result; the other attempt goes to the record's ``attempts``), then count the
    optimal first turns where missing (``recount``: also where an earlier count ran out).
    ``solver``: this method for every challenge."""
    results = load_results(out)
    ids = [i for i in ORDER if only is None or i in only]
    for ident in ids:
        old = results.get(ident)
        if old and old.get("status") != "error" and not redo:
            continue
        method = solver or ("explicit" if ident in EXPLICIT else "sat")
        print(f"{ident}: {method}, {time_limit} s ...", flush=True)
        record = _child(["--one", ident, "--method", method, "--time-limit", str(time_limit)])
        if old and _rank(old) >= _rank(record):
            record, kept = old, _summary(record)
        else:
            kept = _summary(old) if old else None
        if kept:
            record.setdefault("attempts", []).append(kept)
        results[ident] = record
        save_results(out, results)
        print(f"{ident}: {_brief(record)}", flush=True)
    if first_turns <= 0:
        return
    for ident in ids:
        record = results[ident]
        if record.get("status") != "optimal" or record.get("optimal_first_turns") is not None:
            continue
        if "first_turns" in record and not recount:
            continue
        print(f"{ident}: counting optimal first turns, {first_turns} s ...", flush=True)
        count = _child(
            [
                "--count",
                ident,
                "--optimum",
                str(record["optimum"]),
                "--time-limit",
                str(first_turns),
            ]
        )
        if "first_turns" in record:
            record.setdefault("first_turns_attempts", []).append(record["first_turns"])
        record["first_turns"] = count
        if count.get("optimal_first_turns") is not None:
            record["optimal_first_turns"] = count["optimal_first_turns"]
        save_results(out, results)
        print(f"{ident}: {count}", flush=True)


def _summary(record: dict) -> dict:
    """A short trace of a run that is not the stored result."""
    keys = ("method", "time_limit", "status", "optimum", "proved_no_win_below", "date")
    return {**{k: record.get(k) for k in keys}, "seconds": record.get("stats", {}).get("seconds")}


def _brief(record: dict) -> str:
    seconds = record.get("stats", {}).get("seconds")
    if record["status"] == "optimal":
        return f"win in {record['optimum']} ({seconds} s)"
    if record["status"] == "error":
        return "error: " + record["error"].strip().splitlines()[-1]
    return f"{record['status']}: no win in fewer than {record['proved_no_win_below']} ({seconds} s)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "rulebook-results.json")
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per challenge")
    parser.add_argument(
        "--first-turns", type=float, default=120.0, help="seconds per first-turn count (0: skip)"
    )
    parser.add_argument("--only", nargs="*", default=None, help="these ids only")
    parser.add_argument("--redo", action="store_true", help="solve again, keep the better")
    parser.add_argument("--solver", choices=("sat", "explicit"), help="for every challenge")
    parser.add_argument(
        "--recount",
        action="store_true",
        help="count the first turns again where an earlier count ran out",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--count", help=argparse.SUPPRESS)
    parser.add_argument("--method", default="sat", help=argparse.SUPPRESS)
    parser.add_argument("--optimum", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(solve_one(args.one, args.method, args.time_limit)))
        return 0
    if args.count:
        print(json.dumps(count_first_turns(args.count, args.optimum, args.time_limit)))
        return 0
    run(
        args.out, args.time_limit, args.first_turns, args.only, args.redo, args.solver, args.recount
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
