"""The examples of docs/notation.md are true: positions read back, turns are legal, JSON loads.

Fences: ``tln`` (positions, one a line), ``play`` (a position, turns played in order, and
optionally the position they lead to), ``turn-same`` (spellings of one turn, the canonical
one first), ``json`` (the start position first, then positions also given as TLN).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from taolong_lab import State, Turn, new_game

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
FENCE = re.compile(r"^```(\S*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(kind: str) -> list[list[str]]:
    found = [
        [line for line in body.splitlines() if line.strip()]
        for lang, body in FENCE.findall(DOC.read_text("utf-8"))
        if lang == kind
    ]
    return found


def is_position(line: str) -> bool:
    return len(line.split()) == 8 and "/" in line.split()[0]


def test_every_kind_of_example_is_present():
    assert len(blocks("tln")) >= 3
    assert len(blocks("play")) >= 4
    assert len(blocks("turn-same")) >= 2
    assert len(blocks("json")) >= 1


@pytest.mark.parametrize("line", [line for block in blocks("tln") for line in block])
def test_tln_examples_round_trip(line):
    state = State.from_tln(line)
    assert state.to_tln() == line
    assert State.from_json(state.to_json()) == state
    assert eval(repr(state), {"State": State}).to_tln() == line


def test_the_start_tln_is_the_start():
    assert blocks("tln")[0] == [new_game().to_tln()]


def test_defeated_dragon_example():
    state = State(blocks("tln")[1][0])
    assert state.is_over()
    assert state.dragon("white").segments == 0 and state.dragon("white").water == 0


@pytest.mark.parametrize("block", blocks("play"), ids=lambda b: b[1] if len(b) > 1 else b[0])
def test_play_examples(block):
    assert is_position(block[0]), "a play block starts with a position"
    state = State(block[0])
    played = 0
    for line in block[1:]:
        if is_position(line):
            assert state.to_tln() == line, f"after {played} turn(s)"
            continue
        turn = state.parse_turn(line)
        assert str(turn) == line, "examples are written the way the engine writes turns"
        assert turn in state.legal_turns()
        assert str(Turn.parse(line)) == line
        state = state.play(line)
        played += 1
    assert played


def test_every_turn_form_is_shown_in_a_play_block():
    turns = [line for block in blocks("play") for line in block[1:] if not is_position(line)]
    text = " ".join(turns)
    for form in ("+", "x", "=", " -", ",", " ; ", "[", "/", "{", "{b:-}", " #", " (", ":~"):
        assert form in text, f"no example of {form!r}"


@pytest.mark.parametrize("block", blocks("turn-same"), ids=lambda b: b[0])
def test_turn_spellings(block):
    canonical = Turn.parse(block[0])
    assert str(canonical) == block[0]
    assert all(p.element >= 0 for p in canonical.phases)
    for spelling in block[1:]:
        turn = Turn.parse(spelling)
        assert turn.matches(canonical), spelling
        assert Turn.parse(str(turn)) == turn


def test_turn_spellings_are_legal_where_the_doc_plays_them():
    """Each spelled-out turn is legal in a position of the play examples, and fills in."""
    positions = []
    for block in blocks("play"):
        state = State(block[0])
        positions.append(state)
        for line in block[1:]:
            if not is_position(line):
                state = state.play(line)
                positions.append(state)
    for block in blocks("turn-same"):
        where = [s for s in positions if block[0] in {str(t) for t in s.legal_turns()}]
        assert where, f"{block[0]!r} is not legal in any position of the play examples"
        for spelling in block:
            assert str(where[0].parse_turn(spelling)) == block[0]


def test_json_example_is_the_start():
    block = blocks("json")[0]
    doc = json.loads("\n".join(block))
    assert doc == new_game().to_json()
    assert State.from_json(doc) == new_game()
    assert State.from_json(json.dumps(doc)).to_tln() == new_game().to_tln()


@pytest.mark.parametrize("index", range(1, len(blocks("json"))))
def test_more_json_examples_read_back_and_are_tln_examples(index):
    """Each further JSON example reads back to the same object, and is one of the positions of
    the ``tln`` examples (so the two forms are shown for the same position)."""
    doc = json.loads("\n".join(blocks("json")[index]))
    state = State.from_json(doc)
    assert state.to_json() == doc
    assert state.to_tln() in {line for block in blocks("tln") for line in block}


def test_json_table_names_every_key():
    text = DOC.read_text("utf-8")
    doc = new_game(mode="master").to_json()
    keys = [key for key in doc if key not in ("rules", "dragons")]
    keys += [f"rules.{key}" for key in doc["rules"]]
    keys += [f"dragons.{colour}" for colour in doc["dragons"]]
    for key in keys:
        assert f"`{key}`" in text, key
