"""What the solo atlas cost (docs/performance.md, "The solo atlas").

Without ``--sample`` it prints, from the stored atlas alone, a row per scenario and dragon:
the positions per challenge (the explicit certificate's count below the optimum), the CPU
time the run recorded where it did, and the costliest challenge.

``--sample N`` also proves again N challenges per scenario and dragon, drawn with ``--seed``,
each in this process one at a time as the atlas run does (:func:`atlas.prove`), and records
their CPU seconds and positions in ``--out`` (JSON, written atomically after each challenge; a
challenge already there is skipped, so a stopped run resumes). From them it estimates the CPU
hours of every stored challenge: the group's CPU seconds per position times its positions.

    .venv/bin/python bench/atlas.py
    nice -n 19 .venv/bin/python bench/atlas.py --sample 3 --out bench/results/atlas-cost.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taolong_lab.files import write_atomic
from taolong_lab.puzzles import atlas
from taolong_lab.puzzles.format import read_puzzles

ROOT = Path(__file__).resolve().parents[1]


def sample(rows: list[atlas.Cost], n: int, seed: int) -> list[atlas.Cost]:
    """``n`` challenges of each scenario and dragon, drawn with ``seed``."""
    rng = random.Random(seed)
    groups = atlas.by_group(rows).values()
    return [r for group in groups for r in rng.sample(group, min(n, len(group)))]


def measure(folder: Path, ident: str, scenario: str) -> dict:
    """Prove one stored challenge again; its CPU seconds, positions and optimum."""
    puzzles = read_puzzles(atlas.atlas_file(folder, scenario), check_solutions=False)[0]
    (puzzle,) = [p for p in puzzles if p.id == ident]
    found = atlas.prove({"start": puzzle.start.to_tln(), "method": "auto", "time_limit": None})
    below = found["certificate"].get("no_win_within") or []
    return {
        "cpu_seconds": found["cpu_seconds"],
        "positions": below[-1]["positions"] if below else None,
        "optimum": found["optimum"],
        "stored_optimum": puzzle.optimum,
    }


def estimate(rows: list[atlas.Cost], timed: dict) -> list[str]:
    """Per scenario and dragon: the sample's CPU seconds per position and the CPU hours the
    group's stored challenges took by that rate."""
    lines = [
        "| scenario | dragon | sampled | CPU s each (sample) | µs a position | est. CPU h |",
        "|---|---|---:|---|---:|---:|",
    ]
    total = 0.0
    for (scenario, player), group in atlas.by_group(rows).items():
        mine = [timed[r.id] for r in group if r.id in timed]
        seconds = sum(m["cpu_seconds"] for m in mine)
        positions = sum(m["positions"] or 0 for m in mine)
        if not mine or not positions:
            lines.append(f"| {scenario} | {player} | {len(mine)} | – | – | – |")
            continue
        rate = seconds / positions
        hours = rate * sum(r.positions or 0 for r in group) / 3600
        total += hours
        each = ", ".join(f"{m['cpu_seconds']:.1f}" for m in mine)
        lines.append(
            f"| {scenario} | {player} | {len(mine)} | {each} | {rate * 1e6:,.0f} | {hours:.2f} |"
        )
    lines.append(f"| all | | | | | {total:.2f} |")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=ROOT / "puzzles" / "atlas")
    parser.add_argument("--sample", type=int, default=0, help="challenges a group to re-time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="the re-timed challenges (JSON, resumed)")
    args = parser.parse_args(argv)
    rows = atlas.costs(args.folder)
    print(atlas.cost_table(rows), end="")
    cpu = [r.cpu_seconds for r in rows if r.cpu_seconds is not None]
    if cpu:
        print(f"\nCPU recorded by the run: {sum(cpu) / 3600:.2f} h over {len(cpu)} challenges")
    if not args.sample:
        return 0
    if args.out is None:
        parser.error("--sample needs --out")
    timed = json.loads(args.out.read_text()) if args.out.exists() else {}
    from tqdm.auto import tqdm

    for row in tqdm(sample(rows, args.sample, args.seed), desc="re-timing", unit="challenge"):
        if row.id in timed:
            continue
        timed[row.id] = measure(args.folder, row.id, row.scenario)
        write_atomic(args.out, (json.dumps(timed, indent=1, sort_keys=True) + "\n").encode())
    wrong = [i for i, m in timed.items() if m["optimum"] != m["stored_optimum"]]
    if wrong:
        print(f"optimum differs from the stored one: {', '.join(wrong)}")
        return 1
    print()
    print("\n".join(estimate(rows, timed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
