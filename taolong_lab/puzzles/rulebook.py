"""The rulebook's own solo challenge, for every scenario and each dragon.

The rulebook's solo variant starts from the standard setup: both dragons with their full three
segments and four water stones, the standard Ba Gua, the Grasshopper mode and the default rule
options. This module builds that challenge for each scenario file and each dragon the player may
choose, with ids like ``field-white``, and ships them as ``puzzles/rulebook-solo.jsonl``.
No optimum is known yet.

    python -m taolong_lab.puzzles.rulebook          write the file (left alone if up to date)
    python -m taolong_lab.puzzles.rulebook --check  exit 1 if the file is not what this builds

The provenance's ``date`` and ``version`` say when and by which taolong_lab the puzzles were
last written; the check ignores both, so the file is only rewritten when a puzzle changes.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import __version__, solo_game
from ..errors import PuzzleError
from ..rules import COLOURS, game_data, scenario_names
from ..rules.scenario import load_scenario
from .format import Puzzle, load_puzzles, save_puzzles

GENERATOR = "taolong_lab.puzzles.rulebook"
SHIPPED = Path(__file__).resolve().parents[2] / "puzzles" / "rulebook-solo.jsonl"
STAMP = ("date", "version")  # provenance fields that record a writing, not the puzzle


def rulebook_puzzles(date: str | None = None) -> list[Puzzle]:
    """The challenge for each scenario (file order) and each dragon (white, then black)."""
    date = date or datetime.datetime.now(datetime.UTC).date().isoformat()
    names = game_data().dragon_names
    puzzles = []
    for scenario in scenario_names():
        title = load_scenario(scenario).name
        for colour, name in zip(COLOURS, names, strict=True):
            start = solo_game(
                scenario, "grasshopper", player=colour, segments=3, water=4, bagua="standard"
            )
            provenance = {"generator": GENERATOR, "version": __version__, "date": date}
            puzzles.append(
                Puzzle.from_state(
                    f"{scenario}-{colour}",
                    f"{title}, playing {name} ({colour}): the rulebook's solo challenge",
                    start,
                    provenance=provenance,
                )
            )
    return puzzles


def _unstamped(puzzle: Puzzle) -> dict:
    doc = puzzle.to_json()
    for key in STAMP:
        doc.get("provenance", {}).pop(key, None)
    return doc


def differences(path: Path | str = SHIPPED) -> list[str]:
    """How the file differs from what :func:`rulebook_puzzles` builds (empty: up to date)."""
    try:
        shipped = load_puzzles(path)
    except FileNotFoundError:
        return [f"{path} does not exist"]
    except PuzzleError as exc:
        return [f"{path} does not load:", str(exc)]
    fresh = {p.id: _unstamped(p) for p in rulebook_puzzles()}
    have = {p.id: _unstamped(p) for p in shipped}
    found = [f"missing puzzle {key!r}" for key in fresh if key not in have]
    found += [f"unexpected puzzle {key!r}" for key in have if key not in fresh]
    found += [f"puzzle {key!r} differs" for key in fresh if key in have and fresh[key] != have[key]]
    if not found and list(fresh) != list(have):
        found.append("the puzzles are in another order")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=f"python -m {GENERATOR}", description="Write or check the rulebook's solo puzzles."
    )
    parser.add_argument("--check", action="store_true", help="only check the file is up to date")
    parser.add_argument("--output", type=Path, default=SHIPPED, help=f"the file ({SHIPPED.name})")
    args = parser.parse_args(argv)
    found = differences(args.output)
    if args.check:
        if found:
            print(f"{args.output} is out of date:", *found, sep="\n  ", file=sys.stderr)
            print(f"Regenerate it with: python -m {GENERATOR}", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    if not found:
        print(f"{args.output} is up to date; left as it is")
        return 0
    puzzles = rulebook_puzzles()
    save_puzzles(args.output, puzzles)
    print(f"wrote {len(puzzles)} puzzles to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
