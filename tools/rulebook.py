"""Write or check the rulebook's solo puzzles, ``puzzles/rulebook-solo.jsonl``: a maintenance
script around :mod:`taolong_lab.puzzles.rulebook`, which builds them.

    python tools/rulebook.py          write the file (left alone if up to date)
    python tools/rulebook.py --check  exit 1 if the file is not what this builds
    python tools/rulebook.py --results bench/rulebook-results.json

``--results`` merges the better results of a ``bench/rulebook_results.py`` JSON file
(:func:`~taolong_lab.puzzles.rulebook.merge_results`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the taolong_lab of this checkout

from taolong_lab.puzzles import save_puzzles  # noqa: E402
from taolong_lab.puzzles.rulebook import (  # noqa: E402
    SHIPPED,
    differences,
    merge_results,
    rulebook_puzzles,
    stored_results,
)

COMMAND = "python tools/rulebook.py"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND, description="Write or check the rulebook's solo puzzles."
    )
    parser.add_argument("--check", action="store_true", help="only check the file is up to date")
    parser.add_argument("--output", type=Path, default=SHIPPED, help=f"the file ({SHIPPED.name})")
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        metavar="FILE",
        help="merge the better results of this bench/rulebook_results.py JSON file",
    )
    args = parser.parse_args(argv)
    results = stored_results(args.output)
    if args.results is not None:
        if args.check:
            parser.error("--check and --results do not go together")
        try:
            records = json.loads(args.results.read_text())
        except (OSError, ValueError) as exc:
            print(f"--results {args.results}: {exc}", file=sys.stderr)
            return 2
        merged = merge_results(results, records)
        if merged != results:
            puzzles = rulebook_puzzles(results=merged)
            save_puzzles(args.output, puzzles)
            changed = sorted(k for k in merged if merged[k] != results.get(k))
            print(f"wrote {len(puzzles)} puzzles to {args.output}; new results: {changed}")
            return 0
    found = differences(args.output)
    if args.check:
        if found:
            print(f"{args.output} is out of date:", *found, sep="\n  ", file=sys.stderr)
            print(f"Regenerate it with: {COMMAND}", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    if not found:
        print(f"{args.output} is up to date; left as it is")
        return 0
    puzzles = rulebook_puzzles(results=results)
    save_puzzles(args.output, puzzles)
    print(f"wrote {len(puzzles)} puzzles to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
