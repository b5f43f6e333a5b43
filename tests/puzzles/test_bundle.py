"""The bundled sets' recipe and its command (tools/bundle.py), puzzles/README.md, and the
bundled files as the package finds them (taolong_lab.puzzles.bundle)."""

from __future__ import annotations

import pytest
from tool_scripts import load

from taolong_lab.puzzles import Puzzle, load_puzzles
from taolong_lab.puzzles.grade import tier_of
from taolong_lab.rules import scenario_names

bundle = load("bundle")  # tools/bundle.py


def test_the_readme_table_is_what_the_files_hold():
    assert bundle.README.read_text(encoding="utf-8") == bundle.readme_text(), (
        f"puzzles/README.md is stale: {bundle.COMMAND} --readme"
    )
    assert bundle.main(["--check"]) == 0


def test_the_tiers_cover_every_optimum_once_and_match_the_grade():
    covered = []
    for tier in bundle.TIERS:
        low, high = tier.turns
        covered += range(low, high + 1)
        assert {tier_of(k) for k in range(low, high + 1)} == {tier.name}
    assert covered == list(range(1, covered[-1] + 1))  # no gap, no overlap
    assert tier_of(covered[-1] + 5) == bundle.TIERS[-1].name


def test_a_recipe_row_takes_its_turns_from_the_tier_table():
    assert bundle.RECIPE["advanced"].turns == bundle.tier_span("advanced") == (5, 7)
    assert bundle.RECIPE["expert"].turns == (8, 12)  # the last tier, up to the row's longest
    with pytest.raises(bundle.RecipeError, match="'expert' has no upper end"):
        bundle.Tier("expert", 1, ("grasshopper",), 1.0, None, 1, 0)
    with pytest.raises(bundle.RecipeError, match="'nope' is not a tier"):
        bundle.tier_span("nope")


def test_the_bundled_sets_hold_over_300_puzzles_in_every_scenario():
    sets = bundle.bundled_sets()
    total = sum(len(v) for v in sets.values())
    assert total >= 300
    assert {scenario for scenario, _ in sets} == set(scenario_names())
    every = [p for group in sets.values() for p in group]
    assert {p.rules.mode for p in every} >= {"grasshopper", "monk", "master"}
    assert any(dict(p.rules.options).get("village") for p in every)
    assert min(p.optimum for p in every) == 1


def test_publish_sorts_by_score_and_renames(tmp_path):
    work, root = tmp_path / "work", tmp_path / "puzzles"
    work.mkdir()
    root.mkdir()
    source = bundle.set_path("field", "novice")
    if not source.exists():
        pytest.skip("no bundled field-novice set")
    puzzles = load_puzzles(source)[:5]
    reversed_file = bundle.set_path("field", "novice", work)
    from taolong_lab.puzzles import save_puzzles

    hardest_first = []
    for n, puzzle in enumerate(reversed(puzzles)):  # ids in this order too: a sort by id fails
        doc = puzzle.to_json()
        doc["id"] = f"x{n}"
        hardest_first.append(Puzzle.from_json(doc))
    save_puzzles(reversed_file, hardest_first)
    assert bundle.publish("field", bundle.RECIPE["novice"], work=work, root=root) == 5
    published = load_puzzles(bundle.set_path("field", "novice", root))
    assert [p.id for p in published] == [f"field-novice-{n:02d}" for n in range(1, 6)]
    scores = [p.difficulty["score"] for p in published]
    assert scores == sorted(scores)
    assert {p.start.to_tln() for p in published} == {p.start.to_tln() for p in puzzles}
    assert bundle.publish("maze", bundle.RECIPE["expert"], work=work, root=root) == 0
