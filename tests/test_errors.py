"""Error paths: every bad input gets a typed error naming the field or the reason at fault.

- TLN: each of the eight fields broken in turn -> ``PositionError`` with ``.field`` set;
- invariants: -> ``InvariantError`` listing every broken invariant at once;
- JSON: field paths like ``dragons.black.cells[2]``, missing keys, wrong types, not JSON;
- turns: unparseable -> ``NotationError``; illegal -> ``IllegalTurnError`` with ``.reason``;
- a failed ``play()`` leaves the position untouched;
- a quick hypothesis fuzz of the TLN parser: it fails only with ``PositionError``.

Tests marked ``xfail(strict=True)`` describe how the engine *should* behave and does not yet.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import taolong_lab
from taolong_lab import (
    DataError,
    IllegalTurnError,
    InvariantError,
    NotationError,
    PositionError,
    RulesError,
    State,
    TaoLongError,
    Turn,
    new_game,
)
from taolong_lab.engine.core import Dragon
from taolong_lab.engine.turns import Phase

START = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 "
    "WW/-/BW/-/BB/-/WB/- 0:8 w 1"
)
# Positions found in seeded random games (random.Random(seed).choice over legal_turns(), seeds 0-1):
# white to move, a Wind (Wa>Wi) grants an extra phase.
EXTRA = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 a4-a3-a2-a1:4:0 f8-g8-h8-h7:4:1 "
    "WWB/-/BWB/-/-/-/B/W 0:7 w 5"
)
# black to move, every Spirit choice is impossible: only penalties ("La -", ...).
PENALTY = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 g5-g4-g3:4:0 h6-g6-f6-e6:2:0 "
    "-/WBB/-/W/-/WW/B/B 2:8 b 54"
)
# black to move; after Fi>Th (Thunder, extra phase) every second choice is a penalty.
PENALTY_2ND = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 d3-c3-b3:4:0 d5-e5-f5-f6:4:0 "
    "BWBW/WBB/W/-/-/-/-/- 0:8 b 110"
)
# a finished game: black lost its last segment.
FINISHED = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 c6-c5:4:0 d7:0:0 -/BWW/-/-/B/-/WB/WB 4:8 b 456"
)


def with_field(index: int, value: str, tln: str = START) -> str:
    parts = tln.split()
    parts[index] = value
    return " ".join(parts)


def test_fixture_positions_are_what_the_tests_assume():
    assert State(EXTRA).to_move == "white"
    assert any(len(t.phases) == 2 for t in State(EXTRA).legal_turns())
    assert all(t.phases[0].penalty for t in State(PENALTY).legal_turns())
    assert any(len(t.phases) == 2 and t.phases[1].penalty for t in State(PENALTY_2ND).legal_turns())
    assert State(FINISHED).is_over()


def test_error_classes_are_value_errors():
    for cls in (
        TaoLongError,
        RulesError,
        DataError,
        PositionError,
        InvariantError,
        NotationError,
        IllegalTurnError,
    ):
        assert issubclass(cls, ValueError), cls
        assert issubclass(cls, TaoLongError), cls
        assert cls.__name__ in taolong_lab.__all__
    assert issubclass(InvariantError, PositionError)


# ---- TLN: one broken field at a time ------------------------------------------------------
TLN_CASES = [
    # (id, text, field, words the message must contain)
    (
        "too-few-fields",
        "field/grasshopper/current 8/8/8/8/8/8/8/8 w 1",
        "tln",
        ["8 fields", "got 4"],
    ),
    ("too-many-fields", START + " extra", "tln", ["8 fields", "got 9"]),
    ("empty", "", "tln", ["8 fields", "got 0"]),
    ("rules-shape", with_field(0, "field/grasshopper"), "rules", ["scenario/mode/edition"]),
    ("rules-scenario", with_field(0, "moon/grasshopper/current"), "rules", ["scenario", "moon"]),
    ("rules-mode", with_field(0, "field/dancer/current"), "rules", ["mode", "dancer"]),
    ("rules-edition", with_field(0, "field/grasshopper/newest"), "rules", ["edition", "newest"]),
    (
        "rules-option",
        with_field(0, "field/grasshopper/current+wings=1"),
        "rules",
        ["option", "wings"],
    ),
    (
        "rules-option-value",
        with_field(0, "field/grasshopper/current+bite_on_stay=maybe"),
        "rules",
        ["bite_on_stay", "maybe"],
    ),
    (
        "rules-option-range",
        with_field(0, "field/grasshopper/current+extra_phases=2"),
        "rules",
        ["extra_phases", "2"],
    ),
    (
        "rules-option-no-value",
        with_field(0, "field/grasshopper/current+bite_on_stay"),
        "rules",
        ["name=value"],
    ),
    ("board-rows", with_field(1, "8/8/8"), "board", ["3 rows"]),
    ("board-symbol", with_field(1, "8/8/8/8/8/8/8/7x"), "board", ["'x'", "h8"]),
    ("board-wide", with_field(1, "8/8/8/8/8/8/8/9"), "board", ["row 8", "9 cells"]),
    ("board-short", with_field(1, "8/8/8/8/8/8/8/"), "board", ["row 8", "0 cells"]),
    ("white-cell-name", with_field(2, "a2-zz-b1-b2:4:0"), "white.cells[1]", ["'zz'", "cell name"]),
    ("white-cell-empty", with_field(2, "a2--b1-b2:4:0"), "white.cells[1]", ["cell name"]),
    ("white-off-column", with_field(2, "a2-a1-b1-i2:4:0"), "white.cells[3]", ["i2", "off"]),
    ("white-off-row", with_field(2, "a2-a1-b1-b9:4:0"), "white.cells[3]", ["b9", "off"]),
    ("white-row-zero", with_field(2, "a0-a1-b1-b2:4:0"), "white.cells[0]", ["a0", "off"]),
    ("white-no-meters", with_field(2, "a2-a1-b1-b2:4"), "white", ["cells:water:fire"]),
    ("white-water-word", with_field(2, "a2-a1-b1-b2:x:0"), "white", ["water", "'x'"]),
    ("white-water-negative", with_field(2, "a2-a1-b1-b2:-1:0"), "white", ["water", "'-1'"]),
    ("white-fire-word", with_field(2, "a2-a1-b1-b2:4:hot"), "white", ["fire", "'hot'"]),
    ("white-five-cells", with_field(2, "a2-a1-b1-b2-c2:4:0"), "white", ["at most 3", "5 cells"]),
    ("black-cell-name", with_field(3, "g8-h8-77-g7:4:0"), "black.cells[2]", ["'77'"]),
    ("black-off-board", with_field(3, "g8-h8-h9-g7:4:0"), "black.cells[2]", ["h9", "off"]),
    ("black-no-meters", with_field(3, "g8-h8-h7-g7"), "black", ["cells:water:fire"]),
    ("black-fire-word", with_field(3, "g8-h8-h7-g7:4:f"), "black", ["fire", "'f'"]),
    ("bagua-stone", with_field(4, "WX/-/BW/-/BB/-/WB/-"), "bagua.heaven", ["'WX'", "W or B"]),
    ("bagua-stone-water", with_field(4, "WW/-/BW/-/BB/-/Wb/-"), "bagua.water", ["'Wb'"]),
    ("bagua-seven-stacks", with_field(4, "WW/-/BW/-/BB/-/WB"), "bagua", ["8 stacks", "got 7"]),
    ("bagua-nine-stacks", with_field(4, "WW/-/BW/-/BB/-/WB/-/-"), "bagua", ["8 stacks", "got 9"]),
    ("centre-one-number", with_field(5, "8"), "centre", ["water:fire"]),
    ("centre-three-numbers", with_field(5, "0:8:0"), "centre", ["water:fire"]),
    ("centre-water-word", with_field(5, "a:8"), "centre", ["water", "'a'"]),
    ("centre-fire-word", with_field(5, "0:b"), "centre", ["fire", "'b'"]),
    ("side", with_field(6, "x"), "side", ["'w' or 'b'", "'x'"]),
    ("side-word", with_field(6, "white"), "side", ["'white'"]),
    ("turn-word", with_field(7, "one"), "turn", ["turn number", "'one'"]),
    ("turn-zero", with_field(7, "0"), "turn", ["start at 1"]),
    ("turn-negative", with_field(7, "-3"), "turn", ["'-3'"]),
]


@pytest.mark.parametrize(("text", "field", "words"), [c[1:] for c in TLN_CASES],
                         ids=[c[0] for c in TLN_CASES])  # fmt: skip
def test_bad_tln_names_the_field(text, field, words):
    with pytest.raises(PositionError) as info:
        State.from_tln(text)
    err = info.value
    assert err.field == field
    assert not isinstance(err, InvariantError)
    message = str(err)
    assert field in message
    for word in words:
        assert word in message, (word, message)
    # State(tln) takes the same path.
    with pytest.raises(PositionError) as again:
        State(text)
    assert again.value.field == field


def test_tln_must_be_a_string():
    for value in (None, 5, b"field", ["a"]):
        with pytest.raises(PositionError) as info:
            State.from_tln(value)
        assert info.value.field == "tln"
        assert "string" in str(info.value)


def test_tln_field_count_error_keeps_the_text():
    with pytest.raises(PositionError) as info:
        State.from_tln("a b c")
    assert info.value.text == "a b c"
    assert "rules board white black bagua centre side turn" in str(info.value)


@pytest.mark.parametrize(
    "token",
    [
        "moon/monk/current",
        "gorge/grasshopper/earlier/solo",
        "moon/master/current",
    ],
)
def test_impossible_rules_in_a_position_are_position_errors(token):
    with pytest.raises(PositionError) as info:
        State.from_tln(with_field(0, token))
    assert info.value.field == "rules"
    doc = new_game().to_json()
    parts = token.split("/")
    doc["rules"].update(scenario=parts[0], mode=parts[1], edition=parts[2], solo=len(parts) == 4)
    with pytest.raises(PositionError):
        State.from_json(doc)


# ---- invariants ---------------------------------------------------------------------------
INVARIANT_CASES = [
    ("overlap", with_field(3, "a2-h8-h7-g7:4:0"), ["overlap: a2 holds white and black"]),
    ("broken-body", with_field(2, "a2-a1-b2-b1:4:0"), ["broken body: white a1 and b2"]),
    ("self-overlap", with_field(2, "a2-a1-a2:4:0"), ["overlap: a2"]),
    (
        "water-too-high",
        with_field(2, "a2-a1-b1-b2:5:0"),
        ["white water meter 5", "water stones: 9"],
    ),
    (
        "living-dragon-without-water",
        with_field(5, "4:8", with_field(2, "a2-a1-b1-b2:0:0")),
        ["white water meter 0", "living dragon"],
    ),
    (
        "fire-too-high",
        with_field(5, "0:3", with_field(2, "a2-a1-b1-b2:4:5")),
        ["white fire meter 5"],
    ),
    ("water-count", with_field(5, "1:8"), ["water stones: 9 in play, must be 8"]),
    ("fire-count", with_field(5, "0:7"), ["fire stones: 7 in play, must be 8"]),
    ("bagua-count", with_field(4, "WWW/-/BW/-/BB/-/WB/-"), ["Ba Gua stones: 5 white, must be 4"]),
    ("bagua-black", with_field(4, "WW/-/BW/-/B/-/WB/-"), ["Ba Gua stones: 3 black, must be 4"]),
    (
        "defeated-with-water",
        with_field(3, "g8:4:0"),
        ["black water meter 4: a defeated dragon's meter is empty"],
    ),
    (
        "both-defeated",
        with_field(5, "8:8", with_field(3, "g8:0:0", with_field(2, "a2:0:0"))),
        ["both dragons are defeated"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in INVARIANT_CASES],
                         ids=[c[0] for c in INVARIANT_CASES])  # fmt: skip
def test_invariant_breaks_are_named(text, expected):
    with pytest.raises(InvariantError) as info:
        State.from_tln(text)
    err = info.value
    assert err.field == "invariants"
    for words in expected:
        assert any(words in p for p in err.problems), (words, err.problems)
        assert words in str(err)


def test_several_invariant_breaks_are_all_reported():
    text = " ".join(
        [
            "field/grasshopper/current",
            "8/8/8/8/8/8/8/8",
            "a2-a1-b2-b1:5:0",  # broken body, water meter 5
            "b1-c1-d1:4:6",  # overlaps white at b1, fire meter 6
            "WWW/-/BW/-/BB/-/WB/-",  # 5 white Ba Gua stones
            "0:8",  # 9 water, 14 fire in play
            "b",
            "12",
        ]
    )
    with pytest.raises(InvariantError) as info:
        State.from_tln(text)
    problems = info.value.problems
    for words in (
        "broken body: white a1 and b2",
        "white water meter 5",
        "overlap: b1 holds white and black",
        "black fire meter 6",
        "water stones: 9",
        "fire stones: 14",
        "Ba Gua stones: 5 white",
    ):
        assert any(words in p for p in problems), (words, problems)
    assert len(problems) >= 7
    assert all(p in str(info.value) for p in problems)


def test_too_many_segments_is_an_invariant():
    """TLN rejects a 5-cell dragon while reading it; a State built in code reports it too."""
    s = new_game()
    walk = ((Dragon((8, 0, 1, 9, 10), 4, 0), s.dragon("black")), 0, 8, ())
    bad = State._make(s._env, walk, s.bagua, 0, 0, 0)
    assert any("white dragon: 5 cells" in p for p in bad.problems())
    with pytest.raises(InvariantError) as info:
        bad.validate()
    assert "5 cells" in str(info.value)


def test_problems_is_empty_for_valid_positions():
    for text in (START, EXTRA, PENALTY, PENALTY_2ND, FINISHED):
        assert State(text).problems() == []
        State(text).validate()


# ---- JSON ---------------------------------------------------------------------------------
def _doc(change):
    doc = new_game().to_json()
    change(doc)
    return doc


def _set(path, value):
    def change(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def _drop(path):
    def change(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return change


JSON_CASES = [
    ("cell-name", _set(("dragons", "black", "cells", 2), "zz"), "dragons.black.cells[2]", ["'zz'"]),
    (
        "cell-off-board",
        _set(("dragons", "black", "cells", 2), "h9"),
        "dragons.black.cells[2]",
        ["h9", "off"],
    ),
    ("cell-not-str", _set(("dragons", "black", "cells", 2), 7), "dragons.black.cells[2]", ["7"]),
    (
        "cells-not-list",
        _set(("dragons", "white", "cells"), "a2"),
        "dragons.white.cells",
        ["expected list"],
    ),
    ("cells-empty", _set(("dragons", "white", "cells"), []), "dragons.white", ["0 cells"]),
    ("missing-water", _drop(("dragons", "white", "water")), "dragons.white.water", ["missing"]),
    (
        "water-str",
        _set(("dragons", "white", "water"), "4"),
        "dragons.white.water",
        ["expected int", "'4'"],
    ),
    (
        "water-bool",
        _set(("dragons", "white", "water"), True),
        "dragons.white.water",
        ["expected int"],
    ),
    (
        "water-float",
        _set(("dragons", "white", "water"), 4.0),
        "dragons.white.water",
        ["expected int"],
    ),
    ("fire-none", _set(("dragons", "black", "fire"), None), "dragons.black.fire", ["expected int"]),
    ("missing-dragons", _drop(("dragons",)), "dragons", ["missing"]),
    ("missing-black", _drop(("dragons", "black")), "dragons.black", ["missing"]),
    ("dragons-list", _set(("dragons",), []), "dragons", ["expected dict"]),
    ("format", _set(("format",), "chess"), "format", ["taolong-position", "chess"]),
    ("version", _set(("version",), 2), "version", ["expected 1", "2"]),
    ("missing-rules", _drop(("rules",)), "rules", ["missing"]),
    ("rules-scenario", _set(("rules", "scenario"), "moon"), "rules", ["scenario", "moon"]),
    ("rules-scenario-type", _set(("rules", "scenario"), 3), "rules.scenario", ["expected str"]),
    ("rules-option", _set(("rules", "options", "wings"), 1), "rules", ["wings"]),
    ("rules-options-type", _set(("rules", "options"), []), "rules.options", ["expected dict"]),
    ("rules-solo-type", _set(("rules", "solo"), "no"), "rules.solo", ["expected bool"]),
    ("board-rows", _set(("board",), ["........"]), "board", ["1 rows"]),
    ("board-row-type", _set(("board",), [8] * 8), "board", ["strings"]),
    ("board-type", _set(("board",), "8/8/8/8/8/8/8/8"), "board", ["expected list"]),
    ("bagua-unknown-space", _set(("bagua", "moon"), ""), "bagua", ["moon"]),
    ("bagua-missing-space", _drop(("bagua", "lake")), "bagua.lake", ["missing"]),
    ("bagua-stone", _set(("bagua", "fire"), "BX"), "bagua.fire", ["'BX'"]),
    ("bagua-stack-type", _set(("bagua", "fire"), ["B", "W"]), "bagua.fire", ["expected str"]),
    ("bagua-type", _set(("bagua",), ["WW"]), "bagua", ["expected dict"]),
    ("centre-missing-fire", _drop(("centre", "fire")), "centre.fire", ["missing"]),
    ("centre-type", _set(("centre",), "0:8"), "centre", ["expected dict"]),
    ("to-move", _set(("to_move",), "red"), "to_move", ["'red'"]),
    ("to-move-type", _set(("to_move",), 0), "to_move", ["expected str"]),
    ("turn-zero", _set(("turn",), 0), "turn", ["start at 1"]),
    ("turn-type", _set(("turn",), "1"), "turn", ["expected int"]),
]


@pytest.mark.parametrize(("change", "field", "words"), [c[1:] for c in JSON_CASES],
                         ids=[c[0] for c in JSON_CASES])  # fmt: skip
@pytest.mark.parametrize("form", ["dict", "text"])
def test_bad_json_names_the_field(change, field, words, form):
    doc = _doc(change)
    with pytest.raises(PositionError) as info:
        State.from_json(doc if form == "dict" else json.dumps(doc))
    err = info.value
    assert err.field == field
    message = str(err)
    assert field in message
    for word in words:
        assert word in message, (word, message)


@pytest.mark.parametrize(
    "text", ["{nope", "", "[1, 2]", "null", "42", '"a string"'], ids=repr
)  # fmt: skip
def test_not_a_json_object(text):
    with pytest.raises(PositionError) as info:
        State.from_json(text)
    assert info.value.field == "json"
    assert "JSON" in str(info.value)


def test_json_with_invariant_breaks():
    doc = new_game().to_json()
    doc["dragons"]["black"]["cells"][0] = "a2"  # onto the white head
    doc["centre"]["water"] = 3
    with pytest.raises(InvariantError) as info:
        State.from_json(doc)
    problems = info.value.problems
    assert any("overlap: a2" in p for p in problems)
    assert any("water stones: 11" in p for p in problems)


def test_from_json_does_not_modify_its_input():
    doc = new_game().to_json()
    doc["dragons"]["black"]["cells"][2] = "zz"
    before = copy.deepcopy(doc)
    with pytest.raises(PositionError):
        State.from_json(doc)
    assert doc == before


# ---- turns: notation ------------------------------------------------------------------
NOTATION_CASES = [
    # (text, words the message must contain)
    ("", ["empty"]),
    ("   ", ["empty"]),
    ("He", ["'He'", "the space sown"]),
    ("Zz>Fi a3x", ["'Zz'", "Ba Gua space"]),
    ("He>Zz a3x", ["'Zz'", "Ba Gua space"]),
    ("He>Fi zz", ["'zz'", "cell name"]),
    ("He>Fi a3y", ["'a3y'", "cell name"]),
    ("He>Fi a3,,a4", ["''", "cell name"]),
    ("He>Fi x", ["names no cell"]),
    ("He>Fi +", ["names no cell"]),
    ("He>>Fi a3", ["'He>>Fi a3'"]),
    ("He>Fi a3x ;", ["cannot read phase ''"]),
    ("He>Fi a3-", ["'a3-'"]),
    ("1>Fi a3", ["'1>Fi a3'"]),
    ("Wa>Wi b4 ; He b3 ; Fi b2", ["at most two phases"]),
    ("He>Fi a3x" + " " * 1000, ["longer than 1000 characters"]),
]


@pytest.mark.parametrize(
    ("text", "words"), NOTATION_CASES, ids=[c[0] or "empty" for c in NOTATION_CASES]
)
def test_unparseable_notation(text, words):
    for parse in (Turn.parse, new_game().parse_turn, new_game().play):
        with pytest.raises(NotationError) as info:
            parse(text)
        for word in words:
            assert word in str(info.value), (word, str(info.value))


def test_notation_accepts_its_documented_spellings():
    s = new_game()
    for text in ("He>Fi a3x", "He a3x", "heaven>fire a3 expel", "He > Fi  a3 x", "HE>FI A3X"):
        assert s.parse_turn(text) == s.legal_turns()[1], text


# ---- turns: illegal --------------------------------------------------------------------
ILLEGAL_CASES = [
    # (id, position, turn, words the reason must contain)
    ("empty-space", START, "La a3", ["Lake space is empty"]),
    ("empty-space-2nd", EXTRA, "Wa>Wi b4 ; La b3", ["phase 2", "Lake space is empty"]),
    ("wrong-element", START, "He>Wa a3+", ["sowing He lands on Fire, not Water"]),
    ("wrong-element-2nd", EXTRA, "Wa>Wi b4 ; He>Fi b3", ["phase 2", "lands on Thunder, not Fire"]),
    ("impossible-axis", START, "Fi>Ea a3", ["Earth, which needs a horizontal facing", "south"]),
    ("impossible-axis-no-element", START, "Fi a3", ["Earth, which needs a horizontal facing"]),
    ("unreachable-cell", START, "He>Fi b3x", ["Fire allows only a3+, a3x"]),
    ("too-far", START, "Wa>He a3,a4,a5", ["Heaven allows only a3, a3,a4"]),
    ("unreachable-2nd", EXTRA, "Wa>Wi b4 ; He b7", ["phase 2", "Thunder allows only b3, b5"]),
    ("unreachable-1st-of-2", EXTRA, "Wa>Wi c4 ; He>Th b3", ["phase 1", "Wind allows only b4"]),
    ("missing-effect", START, "He>Fi a3", ["absorb + or expel x is compulsory"]),
    ("stay-not-allowed", START, "He>Fi =", ["Fire allows only"]),
    ("missing-extra", EXTRA, "Wa>Wi b4", ["Wind grants an extra phase"]),
    ("missing-extra-thunder", PENALTY_2ND, "Fi>Th d4", ["Thunder grants an extra phase"]),
    ("unexpected-extra", START, "He>Fi a3x ; Wa a4", ["only Wind and Thunder grant an extra"]),
    ("unexpected-extra-stay", EXTRA, "Fi>Mo = ; He a5", ["only Wind and Thunder"]),
    ("penalty-when-move-exists", START, "He>Fi -", ["penalty applies only when", "He>Fi a3+"]),
    ("penalty-2nd-when-move-exists", EXTRA, "Wa>Wi b4 ; He -", ["phase 2", "penalty applies only"]),
    ("move-when-penalty-forced", PENALTY, "La>Ea h5", ["every choice is impossible", "'La>Ea -'"]),
    (
        "move-when-penalty-forced-2nd",
        PENALTY_2ND,
        "Fi>Th d4 ; He b3",
        ["phase 2", "every choice is impossible", "'He>Ea -'"],
    ),
    ("penalty-on-empty-space", PENALTY, "Fi -", ["Fire space is empty"]),
    ("game-over", FINISHED, "Wa a1", ["game is over", "white wins"]),
    ("game-over-any", FINISHED, "He>Ea c7", ["game is over"]),
]


@pytest.mark.parametrize(("tln", "text", "words"), [c[1:] for c in ILLEGAL_CASES],
                         ids=[c[0] for c in ILLEGAL_CASES])  # fmt: skip
def test_illegal_turn_reason(tln, text, words):
    s = State(tln)
    before = s.to_tln()
    for attempt in (s.play, s.parse_turn):
        with pytest.raises(IllegalTurnError) as info:
            attempt(text)
        err = info.value
        for word in words:
            assert word in err.reason, (word, err.reason)
        assert err.reason in str(err)
        assert err.turn == str(Turn.parse(text))
    assert s.explain_illegal(Turn.parse(text)) == err.reason
    # The failed attempts changed nothing: same TLN, and the position still plays normally.
    assert s.to_tln() == before
    for turn, after in s.successors():
        assert s.play(str(turn)) == after
    assert State(before).legal_turns() == s.legal_turns()


def test_failed_play_leaves_state_untouched_along_a_game():
    rng = random.Random(11)
    s = new_game()
    for _ in range(60):
        if s.is_over():
            break
        before = s.to_tln()
        for bad in ("Wi a1", "He>Fi -", "La =", "Ea h8,h9", "Wa>Wi b4 ; He b3 ; Fi b2"):
            with contextlib.suppress(IllegalTurnError, NotationError):
                s.play(bad)
        assert s.to_tln() == before
        s = s.play(rng.choice(s.legal_turns()))


def test_legal_turns_still_play_after_errors():
    s = State(EXTRA)
    with pytest.raises(IllegalTurnError):
        s.play("Wa>Wi b4")
    assert s.play("Wa>Wi b4 ; He>Th b3").to_move == "black"
    p = State(PENALTY)
    with pytest.raises(IllegalTurnError):
        p.play("La>Ea h5")
    after = p.play("La -")
    assert after.dragon("black").water == p.dragon("black").water - 1


def test_extra_phase_when_option_off_names_the_option():
    s = State(EXTRA.replace("current", "current+extra_phases=0", 1))
    assert s.play("Wa>Wi b4").to_move == "black"
    with pytest.raises(IllegalTurnError) as info:
        s.play("Wa>Wi b4 ; He>Th b3")
    assert "extra_phases" in info.value.reason


@pytest.mark.parametrize("value", [None, 5, ("He>Fi", "a3x")], ids=repr)
def test_play_rejects_non_turns(value):
    s = new_game()
    with pytest.raises(NotationError):
        s.play(value)
    with pytest.raises(NotationError):
        s.parse_turn(value)


@pytest.mark.parametrize("space", [8, -1])
def test_out_of_range_space_in_a_built_turn(space):
    s = new_game()
    with pytest.raises(IllegalTurnError) as info:
        s.play(Turn((Phase(space, -1, ((0, 2),), "absorb"),)))
    assert "wind" not in info.value.reason.lower()


# ---- fuzzing the TLN parser ----------------------------------------------------------
def _sample_tlns() -> list[str]:
    out = [START, EXTRA, PENALTY, PENALTY_2ND, FINISHED]
    for seed, edition in ((1, "earlier"), (2, "current"), (3, "current")):
        rng = random.Random(seed)
        s = new_game(edition=edition, bite_on_stay=seed != 2)
        for _ in range(40):
            s = s.play(rng.choice(s.legal_turns()))
        out.append(s.to_tln())
    return out


SAMPLES = _sample_tlns()
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzWB/-:+=. \t\n_٤ａé\x00"


@st.composite
def mutated_tln(draw) -> str:
    chars = list(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(["delete", "insert", "replace", "swap-fields", "cut"]))
        pos = draw(st.integers(0, max(len(chars) - 1, 0)))
        if op == "delete" and chars:
            del chars[pos]
        elif op == "insert":
            chars.insert(pos, draw(st.sampled_from(ALPHABET)))
        elif op == "replace" and chars:
            chars[pos] = draw(st.one_of(st.sampled_from(ALPHABET), st.characters()))
        elif op == "swap-fields":
            fields = "".join(chars).split(" ")
            i = draw(st.integers(0, len(fields) - 1))
            j = draw(st.integers(0, len(fields) - 1))
            fields[i], fields[j] = fields[j], fields[i]
            chars = list(" ".join(fields))
        elif op == "cut":
            chars = chars[:pos]
    return "".join(chars)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_tln())
def test_fuzz_tln_parser_fails_only_with_position_errors(text):
    try:
        s = State.from_tln(text)
    except PositionError as exc:
        assert exc.field
        assert str(exc).startswith("bad position: ")
        return
    # A mutation that still parses gives a valid position that round-trips.
    assert s.problems() == []
    assert State.from_tln(s.to_tln()) == s


TURN_ALPHABET = "HeLaFiThEaMoWaWi>;,=-+x abcdefgh0123456789\t٤ａ"


@st.composite
def mutated_turn(draw) -> tuple[str, str]:
    tln = draw(st.sampled_from([START, EXTRA, PENALTY, PENALTY_2ND, FINISHED]))
    legal = [str(t) for t in State(tln).legal_turns()] or ["He>Fi a3x"]
    chars = list(draw(st.sampled_from(legal)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "replace"]))
        pos = draw(st.integers(0, max(len(chars) - 1, 0)))
        if op == "delete" and chars:
            del chars[pos]
        elif op == "insert":
            chars.insert(pos, draw(st.sampled_from(TURN_ALPHABET)))
        elif chars:
            chars[pos] = draw(st.one_of(st.sampled_from(TURN_ALPHABET), st.characters()))
    return tln, "".join(chars)


@settings(max_examples=200, deadline=None)
@given(mutated_turn())
def test_fuzz_turn_notation_fails_only_with_turn_errors(case):
    tln, text = case
    s = State(tln)
    try:
        after = s.play(text)
    except (NotationError, IllegalTurnError) as exc:
        assert str(exc)
    else:
        assert after in [a for _, a in s.successors()]
    assert s.to_tln() == tln
