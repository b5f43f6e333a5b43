"""The rulebook's own solo challenge, for every scenario and each dragon.

The rulebook's solo variant starts from the standard setup: both dragons with their full three
segments and four water stones, the standard Ba Gua, the Grasshopper mode and the default rule
options. This module builds that challenge for each scenario file and each dragon the player may
choose, with ids like ``field-white``, and ships them as ``puzzles/rulebook-solo.jsonl``.

The file also carries the best results proved for each challenge (made by
``bench/rulebook_results.py``, one challenge at a time): a proved ``optimum``, one
optimal ``solution`` and the solver's ``certificate`` (plus ``optimal_first_turns`` when
counted, and the run's ``time_limit`` and ``seconds``); or, where only a bound is proved, no
optimum or solution and a certificate with ``status: "unknown"``, ``proved_no_win_below``
and the budget. The positions (ids, titles, starts) are always rebuilt from the rules; the
results are **merged from the file itself** (:func:`stored_results`: those of a puzzle whose
rules and start are unchanged), so rewriting the file keeps them and a changed position drops
its stale result. New results come in with ``--results FILE`` (the JSON that
``bench/rulebook_results.py`` writes); one replaces the stored result only when it is better
(:func:`better`: an optimum beats a bound, a higher bound a lower one, a counted first-turn
number an uncounted one).

    python tools/rulebook.py          write the file (left alone if up to date)
    python tools/rulebook.py --check  exit 1 if the file is not what this builds
    python tools/rulebook.py --results bench/rulebook-results.json

The provenance's ``date`` and ``version`` say when and by which taolong_lab the puzzles were
last written; the check ignores both, so the file is only rewritten when a puzzle changes.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from ..engine import solo_start
from ..errors import PuzzleError
from ..files import InputFileError
from ..rules import COLOURS, Rules, game_data, scenario_names
from ..rules.scenario import load_scenario
from ..version import __version__
from .format import Puzzle, load_puzzles

GENERATOR = "taolong_lab.puzzles.rulebook"
SHIPPED = Path(__file__).resolve().parents[2] / "puzzles" / "rulebook-solo.jsonl"
STAMP = ("date", "version")  # provenance fields that record a writing, not the puzzle
RESULT_FIELDS = ("optimum", "solution", "certificate")  # what a result sets in a puzzle


def rulebook_puzzles(date: str | None = None, results: dict | None = None) -> list[Puzzle]:
    """The challenge for each scenario (file order) and each dragon (white, then black), with
    the result in ``results`` (id -> :data:`RESULT_FIELDS`, see :func:`stored_results`) of
    each id that has one."""
    date = date or datetime.datetime.now(datetime.UTC).date().isoformat()
    results = results or {}
    names = game_data().dragon_names
    puzzles = []
    for scenario in scenario_names():
        title = load_scenario(scenario).name
        for colour, name in zip(COLOURS, names, strict=True):
            start = solo_start(Rules.make(scenario, "grasshopper", solo=True), player=colour)
            provenance = {"generator": GENERATOR, "version": __version__, "date": date}
            puzzles.append(
                Puzzle.from_state(
                    f"{scenario}-{colour}",
                    f"{title}, playing {name} ({colour}): the rulebook's solo challenge",
                    start,
                    provenance=provenance,
                    **results.get(f"{scenario}-{colour}", {}),
                )
            )
    return puzzles


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


__all__ = [
    "GENERATOR",
    "RESULT_FIELDS",
    "SHIPPED",
    "STAMP",
    "better",
    "differences",
    "merge_results",
    "result_of",
    "rulebook_puzzles",
    "stored_results",
]
