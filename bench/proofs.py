"""SAT proof logging: its overhead and the check time per challenge (docs/proofs.md).

For each challenge of a set (``bench``, ``rulebook``, or ``bundled``: every puzzle file under
puzzles/ but the rulebook's), ONE AT A TIME: SAT without a proof (``--no-baseline``
skips it), SAT with ``proof=FOLDER`` (the proof folder kept under ``--proofs``), then the
independent check (:func:`taolong_lab.puzzles.proofs.report`: each CNF built again by the lab's
encoder, each DRAT proof checked against it, the engine on every refinement, the explicit
search on every dead end, the spot-check of the encoding). The results JSON is
rewritten atomically after each challenge, and a challenge already in it is skipped, so an
interrupted run resumes where it stopped.

    .venv/bin/python bench/proofs.py --set bench --out bench/results/proofs-bench.json
    nice -n 19 .venv/bin/python bench/proofs.py --set rulebook --proofs puzzles/proofs \\
        --out bench/results/proofs-rulebook.json --attach    # store and record the proofs

``--attach`` records each checked proof folder in its puzzle's ``certificate.proof``
(relative to the puzzle file), every other field left as it is.

    nice -n 19 .venv/bin/python bench/proofs.py --set bundled --no-baseline \
        --proofs puzzles/proofs --out bench/results/proofs-bundled.json --attach

``--missing`` (``make proofs``) makes again every proof folder a certificate names that is not
there (the large proofs are a release artefact, docs/proofs.md): each is written into
``<folder>.partial`` (started again if a run stopped), checked, then renamed into place, so a
stopped run resumes with the next folder not made.

    .venv/bin/python bench/proofs.py --set rulebook --missing
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "bench": [ROOT / "bench" / "solo-set.jsonl"],
    "rulebook": [ROOT / "puzzles" / "rulebook-solo.jsonl"],
    "bundled": sorted(
        p for p in (ROOT / "puzzles").glob("*.jsonl") if p.name != "rulebook-solo.jsonl"
    ),
}


def folder_bytes(folder: Path) -> dict:
    """Bytes of the folder's CNF and DRAT files, packed."""
    cnf = sum(p.stat().st_size for p in folder.glob("h*.cnf.gz"))
    drat = sum(p.stat().st_size for p in folder.glob("h*.drat.gz"))
    return {"cnf_gz_bytes": cnf, "drat_gz_bytes": drat}


def solve_one(puzzle, folder: Path | None, time_limit) -> dict:
    """One SAT solve, with a proof in ``folder`` unless it is None."""
    from taolong_lab.solvers import solve

    t0, cpu0 = time.perf_counter(), time.process_time()
    found = solve(
        puzzle,
        method="sat",
        progress=False,
        time_limit=time_limit,
        count_first_turns=False,
        proof=folder,
    )
    return {
        "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds": round(time.process_time() - cpu0, 3),
        "status": found.status,
        "optimum": found.optimum,
        "unsat_horizons": list(found.certificate.unsat_horizons),
        "proof_seconds": found.stats.get("proof_seconds"),
    }


def check_one(puzzle, folder: Path, engine: str) -> dict:
    """The check of ``folder`` with the DRAT checker ``engine`` (``lab``: the compiled one;
    ``native``, ``python``: dratify's), its time and its process's peak memory."""
    from taolong_lab.puzzles.proofs import report
    from taolong_lab.solvers.common import peak_memory_mb, reset_peak_memory

    reset_peak_memory()
    t0, cpu0 = time.perf_counter(), time.process_time()
    found = report(puzzle, folder, engine=engine)
    return {
        "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds": round(time.process_time() - cpu0, 3),
        "peak_memory_mb": peak_memory_mb(),
        "checker": found.checker,
        "rests_on": [basis for _, basis, _ in found.horizons],
        "problems": found.problems,
    }


def child(args: list[str]) -> dict:
    """This script on one step in a fresh process (no cache warmed by an earlier step)."""
    done = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return {"status": "error", "problems": [done.stderr[-2000:]]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(ident: str, name: str, folder: Path, baseline: bool, time_limit, engines) -> dict:
    """One challenge, each step in its own process: SAT without and with a proof, the sizes,
    the check with each of dratify's ``engines``."""
    common = ["--set", name, "--only", ident]
    if time_limit is not None:
        common += ["--time-limit", str(time_limit)]
    row: dict = {}
    if baseline:
        plain = child(["--step", "solve", *common])
        row["seconds"], row["status"] = plain.get("seconds"), plain.get("status")
        row["cpu_seconds"] = plain.get("cpu_seconds")
    proved = child(["--step", "prove", "--proofs", str(folder.parent), *common])
    row["seconds_with_proof"] = proved.get("seconds")
    row["cpu_seconds_with_proof"] = proved.get("cpu_seconds")
    row["proof_seconds"] = proved.get("proof_seconds")
    row["status_with_proof"] = proved.get("status")
    row["sat_optimum"] = proved.get("optimum")
    row["unsat_horizons"] = proved.get("unsat_horizons")
    if proved.get("status") != "optimal":
        row["problems"] = [f"not solved: {proved.get('status')}", *proved.get("problems", [])]
        return row
    manifest = json.loads((folder / "manifest.json").read_text())
    row["refinements"] = len(manifest["refinements"])
    row["dead_ends"] = len(manifest["dead_ends"])
    row["clauses_last"] = max((h.get("clauses", 0) for h in manifest["horizons"]), default=0)
    row["drat_lines"] = sum(h.get("drat_lines", 0) for h in manifest["horizons"])
    row.update(folder_bytes(folder))
    row["problems"] = []
    for engine in engines:
        checked = child(
            ["--step", "check", "--engines", engine, "--proofs", str(folder.parent), *common]
        )
        row[f"check_seconds_{engine}"] = checked.get("seconds")
        row[f"check_cpu_seconds_{engine}"] = checked.get("cpu_seconds")
        row[f"check_peak_mb_{engine}"] = checked.get("peak_memory_mb")
        row["problems"] += checked["problems"]
    return row


def table(results: dict) -> str:
    """The results as the Markdown table of docs/proofs.md (CPU seconds)."""
    head = (
        "| challenge | optimum | UNSAT horizons | SAT s | SAT + proof s | proof s | DRAT lines "
        "| CNF gz MB | DRAT gz MB | refinements | dead ends | check s (lab) | check MB (lab) "
        "| check s (dratify, Python) | checked |\n"
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
    )
    rows = []
    for ident, r in sorted(results.items(), key=lambda item: item[1].get("drat_lines") or 0):
        horizons = r.get("unsat_horizons") or []
        span = f"{horizons[0]}–{horizons[-1]}" if horizons else "–"
        rows.append(
            f"| {ident} | {r.get('optimum')} | {span} | {_n(r.get('cpu_seconds'))} "
            f"| {_n(r.get('cpu_seconds_with_proof'))} | {_n(r.get('proof_seconds'))} "
            f"| {r.get('drat_lines', 0):,} | {r.get('cnf_gz_bytes', 0) / 1e6:.2f} "
            f"| {r.get('drat_gz_bytes', 0) / 1e6:.2f} | {r.get('refinements', '–')} "
            f"| {r.get('dead_ends', '–')} | {_n(r.get('check_cpu_seconds_lab'))} "
            f"| {_n(r.get('check_peak_mb_lab'))} | {_n(r.get('check_cpu_seconds_python'))} "
            f"| {'yes' if not r.get('problems') else 'NO'} |"
        )
    return head + "\n".join(rows) + "\n"


def _n(value) -> str:
    return "–" if value is None else f"{value:.1f}"


def make_missing(files: dict, puzzles, time_limit) -> list[str]:
    """Make every proof folder the certificates of ``puzzles`` name and that is not there
    (``files[puzzle.id]``: the puzzle's file); the problems of those that cannot be made or do
    not check."""
    from tqdm.auto import tqdm

    from taolong_lab.puzzles.proofs import check, named_folder
    from taolong_lab.solvers import solve

    problems = []
    named = [(p, named_folder(p, files[p.id].parent)) for p in puzzles]
    todo = [(p, folder) for p, folder in named if folder is not None and not folder.exists()]
    for puzzle, folder in tqdm(todo, desc="proofs", unit="challenge"):
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        found = solve(
            puzzle,
            method="sat",
            progress=False,
            time_limit=time_limit,
            count_first_turns=False,
            proof=partial,
        )
        if found.status != "optimal" or found.optimum != puzzle.optimum:
            problems.append(f"{puzzle.id}: SAT gave {found.status} {found.optimum}")
            continue
        failed = check(puzzle, partial, progress=True)
        if failed:
            problems += [f"{puzzle.id}: {p}" for p in failed]
            continue
        partial.rename(folder)
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="bench")
    parser.add_argument("--out", type=Path, help="results JSON (resumed)")
    parser.add_argument("--proofs", type=Path, help="keep the proof folders here")
    parser.add_argument("--only", nargs="*", help="these challenge ids only")
    parser.add_argument("--no-baseline", action="store_true", help="no solve without a proof")
    parser.add_argument("--time-limit", type=float, help="seconds a solve, at most")
    parser.add_argument("--attach", action="store_true", help="record checked proofs")
    parser.add_argument("--table", action="store_true", help="print --out as a Markdown table")
    parser.add_argument(
        "--missing", action="store_true", help="make the named proof folders not there"
    )
    parser.add_argument("--step", choices=["solve", "prove", "check"], help=argparse.SUPPRESS)
    parser.add_argument(
        "--engines",
        nargs="+",
        choices=["lab", "native", "python"],
        default=["lab"],
        help=(
            "the DRAT checkers to time the check with (lab: taolong_lab._drat, built by the "
            "install; native, python: dratify's engines, native with the extra 'proofs')"
        ),
    )
    args = parser.parse_args(argv)

    from taolong_lab import load_puzzles
    from taolong_lab.files import write_atomic
    from taolong_lab.puzzles.proofs import attach

    files = {}  # puzzle id -> its file
    puzzles = []
    for path in SETS[args.set]:
        for p in load_puzzles(path, check_solutions=False):
            if p.optimum is not None and (not args.only or p.id in args.only):
                files[p.id] = path
                puzzles.append(p)
    # cheapest first, by the stored solve's seconds, so a short run settles the most
    puzzles.sort(key=lambda p: (p.certificate or {}).get("seconds", 0.0))
    if args.step is not None:  # one step of one challenge, in a child process
        (puzzle,) = puzzles
        folder = None if args.step == "solve" else args.proofs / puzzle.id
        if args.step == "check":
            print(json.dumps(check_one(puzzle, folder, args.engines[0])))
        else:
            print(json.dumps(solve_one(puzzle, folder, args.time_limit)))
        return 0
    if args.missing:
        problems = make_missing(files, puzzles, args.time_limit)
        print("\n".join(problems) or "every named proof folder is there (each one made, checked)")
        return 1 if problems else 0
    if args.out is None:
        parser.error("--out is required")
    if args.table:
        print(table(json.loads(args.out.read_text())), end="")
        return 0
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
        row = measure(
            puzzle.id, args.set, folder, not args.no_baseline, args.time_limit, args.engines
        )
        row["optimum"] = puzzle.optimum
        row["date"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        results[puzzle.id] = row
        write_atomic(args.out, (json.dumps(results, indent=1, sort_keys=True) + "\n").encode())
        print(puzzle.id, json.dumps(row), flush=True)
        if args.attach and not row["problems"]:
            home = files[puzzle.id].parent.resolve()
            attach(files[puzzle.id], puzzle.id, folder.resolve().relative_to(home).as_posix())
    if scratch is not None:
        scratch.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
