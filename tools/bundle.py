"""Generate, publish and describe the bundled puzzle sets, ``puzzles/{scenario}-{tier}.jsonl``:
a maintenance script around :mod:`taolong_lab.puzzles.bundle`, which holds the recipe.

    python tools/bundle.py                                generate what is missing, publish, README
    python tools/bundle.py --tier novice --scenario field
    python tools/bundle.py --readme                       only rewrite puzzles/README.md
    python tools/bundle.py --check                        exit 1 if the README is out of date

A run is resumable: the same command carries on where it stopped (the work files are in
``artifacts/bundle/``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the taolong_lab of this checkout

from taolong_lab.files import write_atomic  # noqa: E402
from taolong_lab.puzzles.bundle import (  # noqa: E402
    COMMAND,
    README,
    RECIPE,
    TIERS,
    publish,
    readme_text,
    run,
)
from taolong_lab.rules import scenario_names  # noqa: E402
from taolong_lab.runner import MAX_WORKERS  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenario", nargs="+", default=["all"], choices=["all", *scenario_names()]
    )
    parser.add_argument("--tier", nargs="+", default=["all"], choices=["all", *RECIPE])
    parser.add_argument(
        "--workers", type=int, default=2, choices=range(1, MAX_WORKERS + 1), metavar="K"
    )
    parser.add_argument("--readme", action="store_true", help="only rewrite puzzles/README.md")
    parser.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.check:
        if not README.exists() or README.read_text(encoding="utf-8") != readme_text():
            print(f"{README} is out of date; run {COMMAND} --readme", file=sys.stderr)
            return 1
        print(f"{README} is up to date")
        return 0
    if not args.readme:
        scenarios = scenario_names() if "all" in args.scenario else args.scenario
        tiers = TIERS if "all" in args.tier else [RECIPE[name] for name in args.tier]
        for tier in tiers:
            for scenario in scenarios:
                if tier.scenarios is not None and scenario not in tier.scenarios:
                    continue
                kept = run(scenario, tier, workers=args.workers, progress=not args.no_progress)
                n = publish(scenario, tier)
                print(f"{scenario}-{tier.name}: {len(kept)} kept, {n} published", flush=True)
    write_atomic(README, readme_text().encode("utf-8"))
    print(f"wrote {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
