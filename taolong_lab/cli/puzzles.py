"""``taolong puzzles [FILE...] [--tier T] [--scenario S] [--json]``: the puzzles of files, one
row each (id, scenario, mode, player, optimum, tier, difficulty), to pick one to ``show``,
``play`` or ``solve`` by its ``FILE:ID``. With no file, the bundled sets (the rulebook's
challenges, the generated sets, the solo atlas), with a ``set`` column: such a puzzle is
``SET:ID``, or its id alone where it is unique.

A file's bad lines are warnings (the good puzzles are listed); a file that cannot be read is
an error.
"""

from __future__ import annotations

import json

from ..puzzles import Puzzle, bundle
from ..rules import scenario_names
from .common import EXIT_OK, Command, CommandError, add_tier_argument, of_tier, puzzles_of

COLUMNS = ("id", "scenario", "mode", "player", "optimum", "tier", "difficulty")


def _arguments(listing) -> None:
    """The arguments of ``puzzles``."""
    listing.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="puzzle files (.jsonl or .json) or bundled sets (default: every bundled set)",
    )
    add_tier_argument(listing, "only the puzzles of this tier")
    listing.add_argument(
        "--scenario",
        choices=scenario_names(),
        metavar="S",
        help=f"only the puzzles of this scenario: {', '.join(scenario_names())}",
    )
    listing.add_argument("--json", action="store_true", help="print JSON, one object a line")


def row(puzzle: Puzzle) -> dict:
    """The puzzle's row: :data:`COLUMNS`, None where the file does not say.

    Parameters
    ----------
    puzzle : Puzzle

    Returns
    -------
    dict
    """
    score = (puzzle.difficulty or {}).get("score")
    return {
        "id": puzzle.id,
        "scenario": puzzle.rules.scenario,
        "mode": puzzle.rules.mode,
        "player": puzzle.player,
        "optimum": puzzle.optimum,
        "tier": puzzle.tier,
        "difficulty": score if isinstance(score, (int, float)) else None,
    }


def run(args, out) -> int:
    """``taolong puzzles``: list the puzzles of ``args.files`` that pass the filters.

    Raises
    ------
    CommandError
        No puzzle passes the filters.
    InputFileError, PuzzleError
        A file that cannot be read, or holds no puzzle.
    """
    files, column = args.files, "file"
    if not files:
        files, column = list(bundle.sets()), "set"
        if not files:
            raise CommandError("this install has no bundled puzzles: name a FILE")
    several = len(files) > 1
    rows = []
    for file in files:
        for puzzle in of_tier(puzzles_of(file, check_solutions=False, strict=False), args.tier):
            if args.scenario is None or puzzle.rules.scenario == args.scenario:
                rows.append({column: file, **row(puzzle)} if several else row(puzzle))
    if not rows:
        raise CommandError("no puzzle of the files passes --tier and --scenario")
    if args.json:
        for entry in rows:
            print(json.dumps(entry), file=out)
        return EXIT_OK
    columns = list(rows[0])
    cells = [columns] + [["-" if r[c] is None else str(r[c]) for c in columns] for r in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    for line in cells:
        print("  ".join(f"{c:<{w}}" for c, w in zip(line, widths, strict=True)).rstrip(), file=out)
    return EXIT_OK


COMMAND = Command(
    "puzzles", "list the puzzles of puzzle files, or of the bundled sets", run, _arguments
)


__all__ = ["COLUMNS", "COMMAND", "row", "run"]
