"""The examples of docs/puzzles.md are true: puzzles load and are written back the same way,
files load, and each malformed file gets exactly the message the page shows.

Fences: ``puzzle`` (one puzzle object), ``jsonl`` (a puzzle file), ``jsonl-errors`` (a file
``set.jsonl``, then ``=>`` and the message of the PuzzleError it raises).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from taolong_lab.errors import PuzzleError
from taolong_lab.puzzles import Puzzle, load_puzzles, read_puzzles

DOC = Path(__file__).resolve().parents[2] / "docs" / "puzzles.md"
FENCE = re.compile(r"^```(\S*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(kind: str) -> list[str]:
    return [body for lang, body in FENCE.findall(DOC.read_text("utf-8")) if lang == kind]


def test_every_kind_of_example_is_present():
    assert len(blocks("puzzle")) >= 1
    assert len(blocks("jsonl")) >= 1
    assert len(blocks("jsonl-errors")) >= 1


@pytest.mark.parametrize("body", blocks("puzzle"))
def test_puzzle_examples_load_and_are_written_back_the_same(body):
    doc = json.loads(body)
    puzzle = Puzzle.from_json(doc)
    assert puzzle.to_json() == doc
    # every field of the format appears in some example
    assert set(doc) == set(
        json.loads(DOC.read_text("utf-8").split("```puzzle\n")[1].split("```")[0])
    )


def test_the_puzzle_example_shows_every_field():
    doc = json.loads(blocks("puzzle")[0])
    properties = json.loads((DOC.parents[1] / "data" / "puzzle.schema.json").read_text("utf-8"))[
        "properties"
    ]
    assert list(doc) == list(properties)


@pytest.mark.parametrize("body", blocks("jsonl"))
def test_jsonl_examples_load(body, tmp_path):
    path = tmp_path / "example.jsonl"
    path.write_text(body, encoding="utf-8")
    puzzles = load_puzzles(path)
    assert len(puzzles) == sum(1 for line in body.splitlines() if line.strip())


@pytest.mark.parametrize("body", blocks("jsonl-errors"))
def test_error_examples_give_the_message_shown(body, tmp_path, monkeypatch):
    text, expected = body.split("\n=>\n")
    monkeypatch.chdir(tmp_path)
    Path("set.jsonl").write_text(text + "\n", encoding="utf-8")
    with pytest.raises(PuzzleError) as caught:
        load_puzzles("set.jsonl")
    assert str(caught.value) == expected.rstrip("\n")
    good, problems = read_puzzles("set.jsonl")
    assert [p.id for p in good] == ["two-turns"]
    assert len(problems) == expected.rstrip("\n").count("\n") + 1


def test_fields_table_lists_the_schema_properties():
    table = DOC.read_text("utf-8").split("## The fields")[1].split("###")[0]
    named = re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE)
    properties = json.loads((DOC.parents[1] / "data" / "puzzle.schema.json").read_text("utf-8"))[
        "properties"
    ]
    assert named == list(properties)
