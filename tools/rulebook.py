"""Write or check the rulebook's solo puzzles, ``puzzles/rulebook-solo.jsonl``: a maintenance
script around :mod:`taolong_lab.puzzles.rulebook`, which builds the positions.

The file also carries the best results proved for each challenge (made by
``bench/rulebook_results.py``, one challenge at a time): a proved ``optimum``, one
optimal ``solution`` and the solver's ``certificate`` (plus ``optimal_first_turns`` when
counted, and the run's ``time_limit`` and ``seconds``); or, where only a bound is proved, no
optimum or solution and a certificate with ``status: "unknown"``, ``proved_no_win_below``
and the budget. The positions (ids, titles, starts) are always rebuilt from the rules; the
results are **merged from the file itself** (:func:`stored_results`: those of a puzzle whose
rules and start are unchanged), so rewriting the file keeps them and a changed position drops
its stale result. New results come in with ``--results FILE``; one replaces the stored
result only when it is better (:func:`better`: an optimum beats a bound, a higher bound a
lower one, a counted first-turn number an uncounted one).

The provenance's ``date`` and ``version`` say when and by which taolong_lab the puzzles were
last written; the check ignores both, so the file is only rewritten when a puzzle changes.

    python tools/rulebook.py          write the file (left alone if up to date)
    python tools/rulebook.py --check  exit 1 if the file is not what this builds
    python tools/rulebook.py --results bench/rulebook-results.json

``--results`` merges the better results of a ``bench/rulebook_results.py`` JSON file
(:func:`merge_results`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the taolong_lab of this checkout

from taolong_lab.errors import PuzzleError  # noqa: E402
from taolong_lab.files import InputFileError  # noqa: E402
from taolong_lab.puzzles import Puzzle, load_puzzles, save_puzzles  # noqa: E402
from taolong_lab.puzzles.rulebook import SHIPPED, rulebook_puzzles  # noqa: E402

COMMAND = "python tools/rulebook.py"
STAMP = ("date", "version")  # provenance fields that record a writing, not the puzzle
RESULT_FIELDS = ("optimum", "solution", "certificate")  # what a result sets in a puzzle


def stored_results(path: Path | str = SHIPPED) -> dict:
    """The results in the puzzle file (id -> :data:`RESULT_FIELDS`) of the puzzles whose rules
    and start are still what :func:`rulebook_puzzles` builds; {} if the file is missing or does
    not load (``--check`` then reports it)."""
    try:
        shipped = {p.id: p for p in load_puzzles(path)}
    except (InputFileError, PuzzleError):
        return {}
    found = {}
    for fresh in rulebook_puzzles():
        old = shipped.get(fresh.id)
        if old is None or old.start.to_tln() != fresh.start.to_tln() or old.rules != fresh.rules:
            continue
        doc = old.to_json()
        fields = {key: doc[key] for key in RESULT_FIELDS if doc.get(key) is not None}
        if fields:
            found[fresh.id] = fields
    return found


def result_of(record: dict) -> dict | None:
    """The puzzle fields (:data:`RESULT_FIELDS`) of one record of bench/rulebook_results.py's
    JSON; None for a record with nothing proved (an error)."""
    status, cert = record.get("status"), dict(record.get("certificate") or {})
    if status not in ("optimal", "unknown"):
        return None
    cert["time_limit"] = record.get("time_limit")
    cert["seconds"] = (record.get("stats") or {}).get("seconds")
    if status == "unknown":
        cert["status"] = "unknown"
        return {"certificate": cert}
    first = record.get("optimal_first_turns")
    if first is not None:
        cert["optimal_first_turns"] = first
        counted = record.get("first_turns")
        if counted and counted.get("optimal_first_turns") == first:
            cert["first_turns_by"] = {k: counted[k] for k in ("solver", "seconds") if k in counted}
    return {"optimum": record["optimum"], "solution": list(record["line"]), "certificate": cert}


def _rank(fields: dict | None) -> tuple:
    if not fields:
        return (0, 0, 0)
    cert = fields.get("certificate") or {}
    if fields.get("optimum") is not None:
        return (2, 0, cert.get("optimal_first_turns") is not None)
    return (1, cert.get("proved_no_win_below", 0), 0)


def better(new: dict | None, old: dict | None) -> bool:
    """Whether the result ``new`` improves on ``old``: a proved optimum beats a bound, a higher
    bound a lower one, an optimum with its first turns counted one without."""
    return _rank(new) > _rank(old)


def merge_results(stored: dict, records: dict) -> dict:
    """``stored`` with each record of ``records`` (bench/rulebook_results.py's JSON, id ->
    record) that is :func:`better` than the stored result. A stored ``cross_check`` (another
    solver's proof of the same optimum, which no record carries) stays when the new result
    proves that optimum too."""
    merged = dict(stored)
    for ident, record in records.items():
        new = result_of(record)
        old = merged.get(ident)
        if new is None or not better(new, old):
            continue
        cross = ((old or {}).get("certificate") or {}).get("cross_check")
        optimum = new.get("optimum")
        if isinstance(cross, dict) and optimum is not None and cross.get("optimum") == optimum:
            new["certificate"].setdefault("cross_check", cross)
        merged[ident] = new
    return merged


def _unstamped(puzzle: Puzzle) -> dict:
    doc = puzzle.to_json()
    for key in STAMP:
        doc.get("provenance", {}).pop(key, None)
    return doc


def differences(path: Path | str = SHIPPED) -> list[str]:
    """How the file differs from what :func:`rulebook_puzzles` builds (empty: up to date)."""
    try:
        shipped = load_puzzles(path)
    except InputFileError as exc:
        return [str(exc)]
    except PuzzleError as exc:
        return [f"{path} does not load:", str(exc)]
    fresh = {p.id: _unstamped(p) for p in rulebook_puzzles(results=stored_results(path))}
    have = {p.id: _unstamped(p) for p in shipped}
    found = [f"missing puzzle {key!r}" for key in fresh if key not in have]
    found += [f"unexpected puzzle {key!r}" for key in have if key not in fresh]
    found += [f"puzzle {key!r} differs" for key in fresh if key in have and fresh[key] != have[key]]
    if not found and list(fresh) != list(have):
        found.append("the puzzles are in another order")
    return found


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
