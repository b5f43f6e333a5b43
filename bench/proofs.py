"""SAT proof logging: its overhead and the check time per challenge (docs/proofs.md).

For each Grasshopper challenge of a set, ONE AT A TIME: SAT without a proof (``--no-baseline``
skips it), SAT with ``proof=FOLDER`` (the proof folder kept under ``--proofs``), then the
independent check (:func:`taolong_lab.puzzles.proofs.check`: dratify on every DRAT proof, the
engine on every refinement, the explicit search on every dead end). The results JSON is
rewritten atomically after each challenge, and a challenge already in it is skipped, so an
interrupted run resumes where it stopped.

    .venv/bin/python bench/proofs.py --set bench --out bench/results/proofs-bench.json
    nice -n 19 .venv/bin/python bench/proofs.py --set rulebook --proofs puzzles/proofs \\
        --out bench/results/proofs-rulebook.json --attach    # store and record the proofs

``--attach`` records each checked proof folder in its puzzle's ``certificate.proof``
(relative to the puzzle file), every other field left as it is.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "bench": ROOT / "bench" / "solo-set.jsonl",
    "rulebook": ROOT / "puzzles" / "rulebook-solo.jsonl",
}


def folder_bytes(folder: Path) -> dict:
    """Bytes of the folder's CNF and DRAT files, packed."""
    cnf = sum(p.stat().st_size for p in folder.glob("h*.cnf.gz"))
    drat = sum(p.stat().st_size for p in folder.glob("h*.drat.gz"))
    return {"cnf_gz_bytes": cnf, "drat_gz_bytes": drat}


def measure(puzzle, folder: Path, baseline: bool, time_limit: float | None) -> dict:
    """One challenge: the solve times with and without a proof, sizes, the check."""
    from taolong_lab.puzzles.proofs import check
    from taolong_lab.solvers import solve

    row: dict = {"optimum": puzzle.optimum}
    options = {"method": "sat", "progress": False, "time_limit": time_limit}
    if baseline:
        t0 = time.perf_counter()
        plain = solve(puzzle, count_first_turns=False, **options)
        row["seconds"] = round(time.perf_counter() - t0, 3)
        row["status"] = plain.status
    t0 = time.perf_counter()
    proved = solve(puzzle, count_first_turns=False, proof=folder, **options)
    row["seconds_with_proof"] = round(time.perf_counter() - t0, 3)
    row["proof_seconds"] = proved.stats["proof_seconds"]
    row["status_with_proof"] = proved.status
    row["sat_optimum"] = proved.optimum
    row["unsat_horizons"] = list(proved.certificate.unsat_horizons)
    manifest = json.loads((folder / "manifest.json").read_text())
    row["refinements"] = len(manifest["refinements"])
    row["dead_ends"] = len(manifest["dead_ends"])
    row["clauses_last"] = max((h.get("clauses", 0) for h in manifest["horizons"]), default=0)
    row["drat_lines"] = sum(h.get("drat_lines", 0) for h in manifest["horizons"])
    row.update(folder_bytes(folder))
    if proved.status != "optimal":
        row["problems"] = [f"not solved: {proved.status}"]
        return row
    t0 = time.perf_counter()
    problems = check(puzzle, folder)
    row["check_seconds"] = round(time.perf_counter() - t0, 3)
    row["problems"] = problems
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="bench")
    parser.add_argument("--out", type=Path, required=True, help="results JSON (resumed)")
    parser.add_argument("--proofs", type=Path, help="keep the proof folders here")
    parser.add_argument("--only", nargs="*", help="these challenge ids only")
    parser.add_argument("--no-baseline", action="store_true", help="no solve without a proof")
    parser.add_argument("--time-limit", type=float, help="seconds a solve, at most")
    parser.add_argument("--attach", action="store_true", help="record checked proofs")
    args = parser.parse_args(argv)

    from taolong_lab import load_puzzles
    from taolong_lab.files import write_atomic
    from taolong_lab.puzzles.proofs import attach

    path = SETS[args.set]
    puzzles = [
        p
        for p in load_puzzles(path, check_solutions=False)
        if p.rules.mode == "grasshopper" and (not args.only or p.id in args.only)
    ]
    # cheapest first, by the stored solve's seconds, so a short run settles the most
    puzzles.sort(key=lambda p: (p.certificate or {}).get("seconds", 0.0))
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    scratch = None
    if args.proofs is None:
        scratch = tempfile.TemporaryDirectory()
        proofs = Path(scratch.name)
    else:
        proofs = args.proofs
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for puzzle in puzzles:
        if puzzle.id in results:
            continue
        folder = proofs / puzzle.id
        row = measure(puzzle, folder, not args.no_baseline, args.time_limit)
        row["date"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        results[puzzle.id] = row
        write_atomic(args.out, (json.dumps(results, indent=1, sort_keys=True) + "\n").encode())
        print(puzzle.id, json.dumps(row), flush=True)
        if args.attach and not row["problems"]:
            attach(path, puzzle.id, folder.resolve().relative_to(path.parent.resolve()).as_posix())
    if scratch is not None:
        scratch.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
