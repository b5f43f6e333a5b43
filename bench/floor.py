"""SAT's fixed cost against the explicit solver's whole answer on small challenges (issue 6).

    .venv/bin/python bench/floor.py                    # every stored win in 5 of both sets
    .venv/bin/python bench/floor.py --optimum 6 --repeat 3
    .venv/bin/python bench/floor.py --file bench/solo-set.jsonl --ids field-b1w4-win5 --json

Per challenge, both solvers one after the other ``--repeat`` times in one process, the
optimum alone (``count_first_turns=False``): the explicit solver's seconds on the first run
(the process's caches cold) and the best run; SAT's best seconds split into building and
loading its layers (``encode_seconds``, each layer's gates eliminated as the solver does it),
the SAT solver's calls (``sat_seconds``) and the whole; and the cheapest form of the same
encoding: the optimum's layers built and loaded raw, without elimination. SAT runs second,
after the explicit solver warmed the engine's caches, so its figures are its best case.
``floor`` is SAT's calls alone over the explicit solver's cold whole answer: above 1, the SAT
solver's search by itself takes longer than the explicit solver's answer, so no encoder
however fast would make SAT the faster method there
(bench/history/2026-11-25-sat-speed-goal.md). Exits 1 when the two solvers' optima differ.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from taolong_lab.puzzles import load_puzzles  # noqa: E402
from taolong_lab.solvers import explicit  # noqa: E402
from taolong_lab.solvers.common import solo_start  # noqa: E402
from taolong_lab.solvers.sat import SatSearch  # noqa: E402
from taolong_lab.solvers.sat import solve as sat_solve  # noqa: E402

SETS = [ROOT / "bench" / "solo-set.jsonl", ROOT / "puzzles" / "rulebook-solo.jsonl"]


def measure(p, repeat: int) -> dict:
    """Both solvers on ``p``, ``repeat`` times each, alternating: the row :func:`main` prints."""
    ex, enc, calls, whole, raw = [], [], [], [], []
    for _ in range(repeat):
        t = time.perf_counter()
        e = explicit.solve(p, progress=False, count_first_turns=False)
        ex.append(time.perf_counter() - t)
        s = sat_solve(p, progress=False, count_first_turns=False)
        whole.append(s.stats["seconds"])
        enc.append(s.stats["encode_seconds"])
        calls.append(s.stats["sat_seconds"])
        t = time.perf_counter()
        search = SatSearch(solo_start(p, "SAT"))
        for _ in range(s.optimum or 0):  # each layer handed over as built, not eliminated
            search.enc.add_layer()
            search.append(search.g.take())
        raw.append(time.perf_counter() - t)
        search.close()
    row = {
        "id": p.id,
        "explicit": e.optimum,
        "sat": s.optimum,
        "explicit_cold_s": round(ex[0], 3),
        "explicit_best_s": round(min(ex), 3),
        "sat_encode_s": round(min(enc), 3),
        "sat_calls_s": round(min(calls), 3),
        "sat_s": round(min(whole), 3),
        "raw_layers_s": round(min(raw), 3),
        "sat_calls": s.stats["sat_calls"],
        "conflicts": s.stats["conflicts"],
        "explicit_expanded": e.stats.get("search_expanded", e.stats["expanded"]),
    }
    row["floor"] = round(row["sat_calls_s"] / max(row["explicit_cold_s"], 1e-6), 2)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", action="append", help="a puzzle file (repeatable)")
    parser.add_argument("--ids", nargs="*", help="only these challenges")
    parser.add_argument("--optimum", type=int, default=5, help="stored optimum (0: any)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each solver")
    parser.add_argument("--json", action="store_true", help="one JSON object per challenge")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    puzzles = [p for f in args.file or SETS for p in load_puzzles(f, check_solutions=False)]
    if args.ids:
        puzzles = [p for p in puzzles if p.id in set(args.ids)]
    if args.optimum:
        puzzles = [p for p in puzzles if p.optimum == args.optimum]
    if not args.json:
        print(
            "| challenge | optimum | explicit s (cold / best) | SAT encode s | SAT calls s "
            "| SAT whole s | raw layers s | floor | SAT calls | conflicts | positions expanded |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    bad = 0
    for p in puzzles:
        row = measure(p, args.repeat)
        if row["sat"] != row["explicit"]:
            print(f"MISMATCH {p.id}: explicit {row['explicit']}, SAT {row['sat']}", file=sys.stderr)
            bad += 1
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"| {p.id} | {row['sat']} | {row['explicit_cold_s']} / {row['explicit_best_s']} "
                f"| {row['sat_encode_s']} | {row['sat_calls_s']} | {row['sat_s']} "
                f"| {row['raw_layers_s']} | {row['floor']} | {row['sat_calls']} "
                f"| {row['conflicts']} | {row['explicit_expanded']} |",
                flush=True,
            )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
