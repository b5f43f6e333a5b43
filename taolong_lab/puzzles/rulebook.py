"""The rulebook's own solo challenge, for every scenario and each dragon.

The rulebook's solo variant starts from the standard setup: both dragons with their full three
segments and four water stones, the standard Ba Gua, the Grasshopper mode and the default rule
options. This module builds that challenge for each scenario file and each dragon the player may
choose, with ids like ``field-white``, and ships them as ``puzzles/rulebook-solo.jsonl``.

The file also carries the best results proved for each challenge (an ``optimum``, one optimal
``solution`` and the solver's ``certificate``, or a proved bound): the maintenance script
``tools/rulebook.py`` merges them in and checks the file.
"""

from __future__ import annotations

import datetime

from ..engine import solo_start
from ..rules import COLOURS, Rules, game_data, scenario_names
from ..rules.scenario import load_scenario
from ..version import __version__
from .bundle import rulebook_file
from .format import Puzzle

GENERATOR = "taolong_lab.puzzles.rulebook"
SHIPPED = rulebook_file()  # the repository's file in a checkout, else the package's copy


def rulebook_puzzles(date: str | None = None, results: dict | None = None) -> list[Puzzle]:
    """The challenge for each scenario (file order) and each dragon (white, then black), with
    the result in ``results`` (id -> the puzzle's ``optimum``, ``solution`` and
    ``certificate``) of each id that has one."""
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


__all__ = ["GENERATOR", "SHIPPED", "rulebook_puzzles"]
