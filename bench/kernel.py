"""The compiled solo kernel against the pure-Python path, side by side, on fixed inputs.

    .venv/bin/python bench/kernel.py                   # the table below, best of 3
    .venv/bin/python bench/kernel.py --repeat 5 --json
    .venv/bin/python bench/kernel.py --only wall,successors

Every workload runs in a fresh process, once with the kernel and once with
``TAOLONG_PURE=1``, the two alternated run by run. Figures: CPU seconds of the workload
(``time.process_time``), the best of ``--repeat`` runs; the ratio pure / kernel; and for the
solves the positions stored (the search's table) with the peak resident memory per stored
position: the kernel's tables over the positions, and for the pure path the process's peak
less what it held before the solve (a figure that means something for the larger searches
only).

Workloads:

- ``field5``, ``field6``, ``field7``: the explicit solver on field-b1w4-win5, -b2w4-win6 and
  -b3w4-win7 of bench/solo-set.jsonl, with the first-turn count; ``field5-opt`` ... the same
  with ``count_first_turns=False`` (the optimum alone);
- ``wall``, ``maze``: the explicit solver on the atlas starts wall-white-BB.BB.WW.WW and
  maze-black-WB.WB.BW.BW, the optimum alone (as the atlas runs them);
``--rulebook``: the compiled kernel alone on the 16 rulebook challenges, each in a fresh
process: the optimum alone, the whole solve with its first-turn count, and the optimum alone
under the next-turn lookahead (CPU seconds, positions stored).

- ``successors``: the solo successors of 1,600 positions of seeded random playouts (every
  scenario, both dragons, the atlas's shuffled starts), made by the parent and read afresh
  by each run (the kernel's as its own bytes, what its search reads); successors / s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIELD = {"field5": "field-b1w4-win5", "field6": "field-b2w4-win6", "field7": "field-b3w4-win7"}
ATLAS = {"wall": ("wall", "white", "BB.BB.WW.WW"), "maze": ("maze", "black", "WB.WB.BW.BW")}
WORKLOADS = (*FIELD, *(f"{k}-opt" for k in FIELD), *ATLAS, "successors")


def _peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _solve(start, count: bool) -> dict:
    from taolong_lab.solvers.explicit import solve

    before = _peak_mb()
    t = time.process_time()
    s = solve(start, progress=False, count_first_turns=count)
    cpu = time.process_time() - t
    stored = s.stats["stored"]
    held = s.stats.get("kernel_bytes")  # the kernel's tables; else the process's growth
    if held is None:
        held = (_peak_mb() - before) * 2**20
    return {
        "cpu": cpu,
        "optimum": s.optimum,
        "expanded": s.stats["expanded"],
        "stored": stored,
        "bytes_per_position": round(held / max(stored, 1)),
    }


def positions(seed: int = 0) -> list[str]:
    """The successors workload's positions, as TLN: 10 seeded random playouts of 10 turns for
    each scenario and dragon, from shuffled starts."""
    import random

    from taolong_lab.puzzles.atlas import arrangements, atlas_start
    from taolong_lab.rules import scenario_names

    rng = random.Random(seed)
    found = []
    for scenario in scenario_names():
        for player in ("white", "black"):
            for _ in range(10):
                state = atlas_start(scenario, player, rng.choice(arrangements()))
                for _ in range(10):
                    if state.is_over():
                        break
                    found.append(state.to_tln())
                    state = rng.choice(state.successors())[1]
    return found


def _successors(file: str) -> dict:
    from taolong_lab import State
    from taolong_lab.solvers import kernel

    states = [State(line) for line in Path(file).read_text().splitlines()]
    if kernel.available():
        jobs = []
        for s in states:
            rocks = tuple(cell for cell, _ in s.board.rocks)
            jobs.append((kernel.game(s), kernel.pack(s, rocks)))
        t = time.process_time()
        n = sum(len(game.successors(data)) for game, data in jobs)
    else:
        t = time.process_time()
        n = sum(len(s.successors()) for s in states)
    cpu = time.process_time() - t
    return {"cpu": cpu, "per_second": round(n / cpu), "positions": len(states)}


def run_one(name: str, file: str | None) -> dict:
    """One workload, in this process."""
    from taolong_lab import load_puzzles
    from taolong_lab.puzzles.atlas import atlas_start

    if name == "successors":
        return _successors(file)
    if name in ATLAS:
        scenario, player, stacks = ATLAS[name]
        return _solve(atlas_start(scenario, player, tuple(stacks.split("."))), count=False)
    key = name.removesuffix("-opt")
    puzzle = next(p for p in load_puzzles(HERE / "solo-set.jsonl") if p.id == FIELD[key])
    return _solve(puzzle.start, count=not name.endswith("-opt"))


def rulebook_one(ident: str) -> dict:
    """The kernel on one rulebook challenge, the three ways ``--rulebook`` gives."""
    from taolong_lab import State, load_puzzles
    from taolong_lab.solvers.explicit import solve

    start = next(p for p in load_puzzles(ROOT / "puzzles" / "rulebook-solo.jsonl") if p.id == ident)
    start = start.start
    rules, rest = start.to_tln().split(" ", 1)
    row = {"id": ident}
    for name, state, count in (
        ("alone", start, False),
        ("count", start, True),
        ("next", State(f"{rules}+solo_lookahead=next-turn {rest}"), False),
    ):
        t = time.process_time()
        s = solve(state, progress=False, count_first_turns=count)
        row[name] = {
            "cpu": round(time.process_time() - t, 3),
            "optimum": s.optimum,
            "stored": s.stats["stored"],
            "first_turns": s.optimal_first_turns,
        }
    return row


def rulebook_table() -> int:
    from taolong_lab import load_puzzles

    print(
        "| challenge | optimum | CPU s | positions stored | with the count: CPU s | first "
        "turns | next-turn: optimum | CPU s | positions stored |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in load_puzzles(ROOT / "puzzles" / "rulebook-solo.jsonl"):
        done = subprocess.run(
            [sys.executable, __file__, "--rulebook-one", p.id],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        row = json.loads(done.stdout.splitlines()[-1])
        a, c, n = row["alone"], row["count"], row["next"]
        print(
            f"| {p.id} | {a['optimum']} | {a['cpu']:.2f} | {a['stored']:,} | {c['cpu']:.2f} | "
            f"{c['first_turns']} | {n['optimum']} | {n['cpu']:.2f} | {n['stored']:,} |",
            flush=True,
        )
    return 0


def measure(name: str, pure: bool, file: str) -> dict:
    env = {**os.environ, "TAOLONG_PURE": "1" if pure else "0"}
    done = subprocess.run(
        [sys.executable, __file__, "--one", name, "--positions", file],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(done.stdout.splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="comma-separated workloads")
    ap.add_argument("--json", action="store_true", help="one JSON object a workload")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--positions", help=argparse.SUPPRESS)
    ap.add_argument("--rulebook", action="store_true", help="the kernel on the rulebook set")
    ap.add_argument("--rulebook-one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.rulebook_one:
        print(json.dumps(rulebook_one(args.rulebook_one)))
        return 0
    if args.rulebook:
        return rulebook_table()
    if args.one:
        print(json.dumps(run_one(args.one, args.positions)))
        return 0
    sys.path.insert(0, str(ROOT))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as out:
        out.write("\n".join(positions()) + "\n")
    try:
        return _table(args, out.name)
    finally:
        os.unlink(out.name)


def _table(args, file: str) -> int:
    names = args.only.split(",") if args.only else WORKLOADS
    if not args.json:
        print(
            "| workload | pure CPU s | kernel CPU s | ratio | stored | bytes/position pure "
            "| kernel |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
    for name in names:
        runs = {True: [], False: []}
        for _ in range(args.repeat):
            for pure in (True, False):
                runs[pure].append(measure(name, pure, file))
        best = {pure: min(found, key=lambda r: r["cpu"]) for pure, found in runs.items()}
        row = {"workload": name, "pure": best[True], "kernel": best[False]}
        row["ratio"] = round(best[True]["cpu"] / max(best[False]["cpu"], 1e-9), 1)
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        p, k = best[True], best[False]
        if name == "successors":
            cells = [f"{p['per_second']:,}/s", f"{k['per_second']:,}/s", row["ratio"], "", "", ""]
        else:
            cells = [
                f"{p['cpu']:.2f}",
                f"{k['cpu']:.3f}",
                row["ratio"],
                f"{k['stored']:,}",
                p["bytes_per_position"],
                k["bytes_per_position"],
            ]
        print(f"| {name} | " + " | ".join(str(c) for c in cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
