"""Benchmark the SAT solver against the explicit solver on solo challenges (issue 6).

    .venv/bin/python bench/compare.py                       # bench/solo-set.jsonl, both solvers
    .venv/bin/python bench/compare.py --file puzzles/rulebook-solo.jsonl --only sat
    .venv/bin/python bench/compare.py --ids field-b3w4-win7 --time-limit 600 --json
    .venv/bin/python bench/compare.py --paired    # both solvers at once, one core each
    .venv/bin/python bench/compare.py --paired --lookahead next-turn    # the other reading
    .venv/bin/python bench/compare.py --paired --no-count    # the optimum alone, no count
    .venv/bin/python bench/compare.py --file puzzles/*-*.jsonl --mode monk master --by-optimum

Per challenge, measured in one run, one solver after the other, each in a fresh process (no
cache one solver warmed is left for the other): the optimum (or the
bound proved when a budget ran out), seconds for each solver and their ratio (explicit / SAT,
> 1 means SAT is faster), the same for the optimum alone (each solver's time less its
first-turn count, measured inside the same run), the SAT encoding's clauses and variables per
turn (mean over the layers, in thousands), CEGAR refinements (opponent groups and penalties),
dead-end nogoods from the short real searches, SAT calls and conflicts. ``--json`` adds the
explicit solver's positions expanded by its search and each solver's peak memory (MB), what
``method="auto"`` weighs (docs/performance.md, "Choosing a solver"). ``--file`` takes
several files and ``--mode`` keeps the challenges of those modes; ``--by-optimum`` prints, after
the rows, one line per stored optimum: the challenges, each solver's seconds in all (wall and
CPU), and SAT's conflicts and clauses per turn (mean of the challenges' means).
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

from taolong_lab.engine import State  # noqa: E402
from taolong_lab.puzzles import load_puzzles  # noqa: E402
from taolong_lab.solvers import explicit  # noqa: E402
from taolong_lab.solvers.sat import solve as sat_solve  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import solo as solo_bench  # noqa: E402  (bench/solo.py)

SET = ROOT / "bench" / "solo-set.jsonl"


def with_lookahead(p, lookahead: str | None):
    """The challenge ``p`` under another ``solo_lookahead`` reading (its start position with
    the option set; the stored optimum may no longer hold), or ``p`` itself for None."""
    if lookahead is None or p.start.rules.option("solo_lookahead") == lookahead:
        return p
    return State(solo_bench.with_lookahead(p.start.to_tln(), lookahead))


def measure(
    file: str,
    pid: str,
    which: str,
    time_limit: float,
    solver_name: str,
    lookahead=None,
    count: bool = True,
) -> dict:
    """One solver on one challenge, in this process: the fields of :func:`run`'s row;
    ``count=False``: the optimum alone, without the first-turn count."""
    p = next(q for q in load_puzzles(file, check_solutions=False) if q.id == pid)
    p = with_lookahead(p, lookahead)
    row: dict = {}
    if which == "explicit":
        t, c = time.perf_counter(), time.process_time()
        ex = explicit.solve(p, time_limit=time_limit, progress=False, count_first_turns=count)
        row["explicit_s"] = round(time.perf_counter() - t, 3)
        row["explicit_cpu_s"] = round(time.process_time() - c, 3)
        row["explicit_first_turns"] = ex.optimal_first_turns
        row["explicit_count_s"] = ex.stats.get("count_seconds", 0.0)
        row["explicit"] = ex.optimum if ex.status == "optimal" else f">={ex.proved_no_win_below}"
        row["explicit_status"] = ex.status
        row["explicit_expanded"] = ex.stats.get("search_expanded", ex.stats["expanded"])
        row["explicit_peak_mb"] = ex.stats["peak_memory_mb"]
    else:
        t, c = time.perf_counter(), time.process_time()
        sat = sat_solve(
            p,
            time_limit=time_limit,
            progress=False,
            solver_name=solver_name,
            count_first_turns=count,
        )
        row["sat_s"] = round(time.perf_counter() - t, 3)
        row["sat_cpu_s"] = round(time.process_time() - c, 3)
        row["sat_first_turns"] = sat.optimal_first_turns
        row["first_turns_s"] = sat.stats["first_turns_seconds"]
        row["sat"] = sat.optimum if sat.status == "optimal" else f">={sat.proved_no_win_below}"
        row["sat_status"] = sat.status
        cert, st = sat.certificate.to_json(), sat.stats
        per = cert["per_turn"]
        row["clauses_per_turn_k"] = (
            round(sum(x["clauses"] for x in per) / len(per) / 1e3, 1) if per else 0
        )
        row["vars_per_turn_k"] = (
            round(sum(x["variables"] for x in per) / len(per) / 1e3, 1) if per else 0
        )
        row["per_turn"] = per
        row["refinements"] = cert["refinements"]
        row["dead_ends"] = cert["dead_ends"]
        row["conflicts"] = cert["conflicts"]
        row["sat_calls"] = st["sat_calls"]
        row["encode_s"] = st["encode_seconds"]
        row["solve_s"] = st["sat_seconds"]
        row["unsat_horizons"] = cert["unsat_horizons"]
        row["line"] = sat.line.notation()
        row["sat_peak_mb"] = st["peak_memory_mb"]
    return row


def run(
    file: str,
    p,
    which: str,
    time_limit: float,
    solver_name: str,
    paired: bool = False,
    lookahead: str | None = None,
    count: bool = True,
) -> dict:
    """Both solvers (or the one asked for) on ``p``, each in a fresh Python process: the
    solvers share caches (the opponent's choices, the successor tables), and a solver run
    second in the same process would find them warm. ``paired``: the two processes at once,
    one per core, so both see the same machine (a shared VM's speed drifts over an hour)."""
    same = with_lookahead(p, lookahead) is p
    row: dict = {"id": p.id, "stored": p.optimum if same else None}
    if lookahead is not None:
        row["lookahead"] = lookahead
    workers = []
    for one in ("explicit", "sat"):
        if which not in ("both", one):
            continue
        args = [sys.executable, __file__, "--file", file, "--worker", one, p.id]
        args += ["--time-limit", str(time_limit), "--solver", solver_name]
        args += ["--lookahead", lookahead] if lookahead else []
        args += [] if count else ["--no-count"]
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        workers.append((one, proc, None if paired else proc.communicate()))
    for one, proc, done in workers:
        out, err = done or proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"{one} on {p.id} failed:\n{err}")
        row.update(json.loads(out))
    if "explicit_s" in row and "sat_s" in row and row["sat_s"] > 0:
        row["ratio"] = round(row["explicit_s"] / row["sat_s"], 2)
        # the optimum alone: each solver's time without its first-turn count
        ex_opt = row["explicit_s"] - row["explicit_count_s"]
        sat_opt = row["sat_s"] - row["first_turns_s"]
        row["explicit_optimum_s"], row["sat_optimum_s"] = round(ex_opt, 3), round(sat_opt, 3)
        if sat_opt > 0:
            row["optimum_ratio"] = round(ex_opt / sat_opt, 2)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", nargs="+", default=[str(SET)])
    parser.add_argument("--mode", nargs="+", help="only the challenges of these modes")
    parser.add_argument(
        "--by-optimum", action="store_true", help="then a summary line per stored optimum"
    )
    parser.add_argument("--ids", nargs="*", help="only these challenges")
    parser.add_argument("--only", choices=("both", "sat", "explicit"), default="both")
    parser.add_argument("--time-limit", type=float, default=600.0, help="per solver, s")
    parser.add_argument("--solver", default="g4", help="PySAT solver name (g4, cd195, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per challenge")
    parser.add_argument("--min-optimum", type=int, default=0, help="only stored optima >= this")
    parser.add_argument(
        "--paired", action="store_true", help="run the two solvers at once, one per core"
    )
    parser.add_argument(
        "--lookahead",
        choices=("matter", "next-turn"),
        help="solve every challenge under this solo_lookahead reading instead of its own",
    )
    parser.add_argument(
        "--no-count",
        action="store_true",
        help="the optimum alone: neither solver counts the optimal first turns",
    )
    parser.add_argument("--worker", nargs=2, metavar=("SOLVER", "ID"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        one, pid = args.worker
        (file,) = args.file
        row = measure(
            file, pid, one, args.time_limit, args.solver, args.lookahead, not args.no_count
        )
        print(json.dumps(row))
        return 0
    puzzles = [(f, p) for f in args.file for p in load_puzzles(f, check_solutions=False)]
    if args.ids:
        puzzles = [(f, p) for f, p in puzzles if p.id in set(args.ids)]
    if args.mode:
        puzzles = [(f, p) for f, p in puzzles if p.start.rules.mode in args.mode]
    if args.min_optimum:
        puzzles = [(f, p) for f, p in puzzles if p.optimum is None or p.optimum >= args.min_optimum]
    if not args.json:
        print(
            "| challenge | optimum | explicit s (CPU) | SAT s (CPU) | ratio "
            "| optimum alone: explicit s / SAT s (ratio) | clauses/turn (k) "
            "| vars/turn (k) | refinements | dead ends | SAT calls | conflicts "
            "| first turns (explicit / SAT) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    bad = 0
    rows = []
    for file, p in puzzles:
        row = run(
            file,
            p,
            args.only,
            args.time_limit,
            args.solver,
            args.paired,
            args.lookahead,
            not args.no_count,
        )
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            opt = row.get("sat", row.get("explicit"))
            if "sat" in row and "explicit" in row and row["sat"] != row["explicit"]:
                opt = f"{row['explicit']} / SAT {row['sat']}"
            ex_s = f"{row['explicit_s']} ({row['explicit_cpu_s']})" if "explicit_s" in row else "–"
            sat_s = f"{row['sat_s']} ({row['sat_cpu_s']})" if "sat_s" in row else "–"
            firsts = f"{row.get('explicit_first_turns', '–')} / {row.get('sat_first_turns', '–')}"
            alone = (
                f"{row['explicit_optimum_s']} / {row['sat_optimum_s']} "
                f"({row.get('optimum_ratio', '–')})"
                if "explicit_optimum_s" in row
                else "–"
            )
            print(
                f"| {p.id} | {opt} | {ex_s} | {sat_s} "
                f"| {row.get('ratio', '–')} | {alone} | {row.get('clauses_per_turn_k', '–')} "
                f"| {row.get('vars_per_turn_k', '–')} | {row.get('refinements', '–')} "
                f"| {row.get('dead_ends', '–')} | {row.get('sat_calls', '–')} "
                f"| {row.get('conflicts', '–')} | {firsts} |",
                flush=True,
            )
        both_opt = row.get("explicit_status") == "optimal" and row.get("sat_status") == "optimal"
        if both_opt and row["sat"] != row["explicit"]:
            print(f"MISMATCH {p.id}: explicit {row['explicit']}, SAT {row['sat']}", file=sys.stderr)
            bad += 1
        fe, fs = row.get("explicit_first_turns"), row.get("sat_first_turns")
        if both_opt and fe is not None and fs is not None and fe != fs:
            print(f"MISMATCH {p.id}: first turns explicit {fe}, SAT {fs}", file=sys.stderr)
            bad += 1
    if args.by_optimum:
        print_by_optimum(rows)
    return 1 if bad else 0


def print_by_optimum(rows: list[dict]) -> None:
    """One line per stored optimum: challenges, each solver's seconds in all (whole solve,
    wall and CPU, and the optimum alone), SAT's conflicts in all and clauses per turn (mean,
    thousands)."""
    print()
    print(
        "| optimum | challenges | explicit s (CPU) | SAT s (CPU) "
        "| optimum alone: explicit s / SAT s | SAT conflicts | clauses/turn (k) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for optimum in sorted({r["stored"] for r in rows if r["stored"] is not None}):
        group = [r for r in rows if r["stored"] == optimum]

        def total(key, group=group):
            return round(sum(r.get(key, 0) for r in group), 3)

        clauses = round(sum(r.get("clauses_per_turn_k", 0) for r in group) / len(group), 1)
        print(
            f"| {optimum} | {len(group)} | {total('explicit_s')} ({total('explicit_cpu_s')}) "
            f"| {total('sat_s')} ({total('sat_cpu_s')}) "
            f"| {total('explicit_optimum_s')} / {total('sat_optimum_s')} "
            f"| {sum(r.get('conflicts', 0) for r in group)} | {clauses} |",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
