"""The puzzle format (taolong_lab.puzzles): round trips, every kind of malformed file with its
exact message, atomic saving, and the shipped rulebook puzzles."""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_scripts import load

from taolong_lab import OPTIONS, Rules, State, solo_game
from taolong_lab.errors import PuzzleError
from taolong_lab.files import InputFileError
from taolong_lab.puzzles import (
    MIGRATIONS,
    VERSION,
    Problem,
    Puzzle,
    load_puzzles,
    read_puzzles,
    rulebook,
    save_puzzles,
)
from taolong_lab.puzzles import format as puzzle_format
from taolong_lab.rules import COLOURS, MODES, scenario_names

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "puzzles" / "rulebook-solo.jsonl"
rulebook_tool = load("rulebook")  # tools/rulebook.py
START_TLN = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 "
    "WW/-/BW/-/BB/-/WB/- 0:8 w 1"
)
# White wins in two turns (and not in one): the example of docs/puzzles.md.
TWO_TURNS_TLN = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 c3-c2-c1-b1:4:0 d6-d7:2:0 "
    "WW/-/BW/-/BB/-/WB/- 2:8 w 1"
)
TWO_TURNS = ["He>Fi d3+", "La>Fi d4x"]
# White, down to one segment and one water stone, can lose in one turn.
LOSING_TLN = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 c3-c2:1:0 c5-c6-c7:4:2 "
    "WW/-/BW/-/BB/-/WB/- 3:6 w 1"
)
KNOWN_FIELDS = (
    "format, version, id, title, rules, start, player, goal, optimum, solution, certificate, "
    "difficulty, provenance"
)


def puzzle_doc(**changes) -> dict:
    """A valid puzzle object with every field; ``changes`` replace fields (None removes one)."""
    doc = {
        "format": "taolong-puzzle",
        "version": 1,
        "id": "two-turns",
        "title": "Two turns to win",
        "rules": {"scenario": "field", "mode": "grasshopper", "edition": "current"},
        "start": TWO_TURNS_TLN,
        "player": "white",
        "goal": "win",
        "optimum": 2,
        "solution": list(TWO_TURNS),
        "certificate": {"solver": "hand", "method": "all depth-1 turns", "lookahead": "matter"},
        "difficulty": {"grade": "easy", "score": 0.5},
        "provenance": {"generator": "tests", "version": "1", "seed": 7, "date": "2025-01-15"},
    }
    for key, value in changes.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def simple_doc(ident: str, **changes) -> dict:
    """A valid puzzle object with only the required fields, from the solo start."""
    doc = {
        "format": "taolong-puzzle",
        "version": 1,
        "id": ident,
        "title": f"Puzzle {ident}",
        "rules": {"scenario": "field", "mode": "grasshopper", "edition": "current"},
        "start": START_TLN,
        "player": "white",
        "goal": "win",
    }
    doc.update(changes)
    return doc


def write_lines(path: Path, *lines) -> Path:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(tmp_path, *lines, name="set.jsonl", **kwargs) -> list[Problem]:
    """The problems load_puzzles raises for a file of these lines (it must raise)."""
    path = write_lines(tmp_path / name, *lines)
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(path, **kwargs)
    assert caught.value.file == str(path)
    assert str(caught.value) == "\n".join(
        f"{path}:{line}: {field}: {reason}" if line else f"{path}: {field}: {reason}"
        for line, field, reason in caught.value.problems
    )
    return caught.value.problems


def only_problem(tmp_path, doc) -> tuple[int, str, str]:
    (problem,) = problems_of(tmp_path, doc)
    return tuple(problem)


# ---- the value and its round trips ------------------------------------------------------------
def test_a_full_puzzle_round_trips():
    doc = puzzle_doc()
    puzzle = Puzzle.from_json(doc)
    assert puzzle.id == "two-turns" and puzzle.title == "Two turns to win"
    assert puzzle.rules == Rules("field", "grasshopper", "current", True)
    assert puzzle.start == State(TWO_TURNS_TLN) and puzzle.player == "white"
    assert (puzzle.goal, puzzle.optimum, puzzle.solution) == ("win", 2, tuple(TWO_TURNS))
    assert puzzle.certificate == doc["certificate"]
    assert puzzle.difficulty == doc["difficulty"] and puzzle.provenance == doc["provenance"]
    again = puzzle.to_json()
    # solo_lookahead is always written; everything else comes back as it was
    assert again == {**doc, "rules": {**doc["rules"], "options": {"solo_lookahead": "matter"}}}
    assert Puzzle.from_json(json.dumps(again)) == puzzle
    assert eval(repr(puzzle), {"Puzzle": Puzzle, "Rules": Rules, "State": State}) == puzzle
    assert puzzle.replay()[-1].outcome().winner == "white"


FIELD_VALUES = {
    "id": ["a", "field-white", "A.b_c-9", "x" * 100],
    "title": ["t", "Le défi du dragon ☰", 'quotes " and \\ backslash'],
    "player": ["white", "black"],
    "optimum": [1, 2, 40],
    "solution": [TWO_TURNS],
    "certificate": [
        {"solver": "sat", "method": "incremental", "lookahead": "matter", "clauses": 120},
        {"solver": "bfs", "method": "exhaustive", "nodes": [1, 2, {"deep": None}]},
    ],
    "difficulty": [{}, {"grade": "hard", "score": 3}, {"score": -1.25, "notes": "x"}],
    "provenance": [
        {},
        {"generator": "g", "version": "2.0", "seed": "abc", "date": "2024-02-29"},
        {"seed": None, "extra": [True, False]},
    ],
}


@pytest.mark.parametrize(
    ("name", "value"), [(name, v) for name, values in FIELD_VALUES.items() for v in values]
)
def test_round_trip_of_each_field(name, value, tmp_path):
    if name == "player":
        start = solo_game(player=value)
        puzzle = Puzzle.from_state("p", "t", start)
    else:
        base = Puzzle.from_json(puzzle_doc(optimum=None, solution=None))
        if name == "optimum":  # an optimum is checked against the solution: drop it
            puzzle = dataclasses.replace(base, optimum=value)
        elif name == "solution":
            puzzle = dataclasses.replace(base, solution=tuple(value), optimum=len(value))
        else:
            puzzle = dataclasses.replace(base, **{name: value})
    assert getattr(puzzle, name) == (tuple(value) if name == "solution" else value)
    doc = json.loads(json.dumps(puzzle.to_json()))
    assert Puzzle.from_json(doc) == puzzle
    assert Puzzle.from_json(doc).to_json() == doc
    for suffix in (".jsonl", ".json"):
        path = tmp_path / f"one{suffix}"
        save_puzzles(path, [puzzle])
        (back,) = load_puzzles(path)
        assert back == puzzle and back.to_json() == puzzle.to_json()


RULES_CASES = [
    ("field", "grasshopper", "current", {}),
    ("valley", "grasshopper", "current", {}),
    ("field", "grasshopper", "current", {"solo_lookahead": "next-turn"}),
    ("field", "monk", "current", {"village": "black", "bite_on_stay": False}),
    ("torus", "master", "current", {"solo_focus_replaces_action": True}),
    ("mist", "chosen-one", "current", {"tail_vacates_first": True}),
]


@pytest.mark.parametrize(("scenario", "mode", "edition", "options"), RULES_CASES)
def test_round_trip_of_the_rules(scenario, mode, edition, options):
    start = solo_game(scenario, mode, edition=edition, **options)
    puzzle = Puzzle.from_state("r", "rules", start)
    doc = puzzle.to_json()
    written = doc["rules"]["options"]
    assert written == dict(sorted({"solo_lookahead": "matter", **options}.items()))
    assert (doc["rules"]["scenario"], doc["rules"]["mode"]) == (scenario, mode)
    assert doc["rules"]["edition"] == edition
    back = Puzzle.from_json(doc)
    assert back.rules == start.rules == Rules(scenario, mode, edition, True, tuple(options.items()))
    # the defaults may be left out, or written: the same rules
    short = dict(doc, rules={k: v for k, v in doc["rules"].items() if k != "options"})
    if not options:
        assert Puzzle.from_json(short).rules == back.rules


positions = st.builds(
    lambda scenario, mode, player, segments, water, bagua, seed: solo_game(
        scenario,
        mode,
        player=player,
        segments=segments,
        water=water,
        bagua=bagua,
        seed=seed,
    ),
    st.sampled_from(scenario_names()),
    st.sampled_from(MODES),
    st.sampled_from(COLOURS),
    st.integers(1, 3) | st.fixed_dictionaries({c: st.integers(1, 3) for c in COLOURS}),
    st.integers(1, 4) | st.fixed_dictionaries({c: st.integers(1, 4) for c in COLOURS}),
    st.sampled_from(["standard", "shuffled", "random"]),
    st.integers(0, 2**32),
)
json_leaf = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8)
json_values = st.recursive(
    json_leaf | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
extras = st.dictionaries(
    st.text(min_size=1, max_size=6).map(lambda s: "x_" + s), json_values, max_size=3
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    start=positions,
    ident=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,20}", fullmatch=True),
    title=st.text(min_size=1, max_size=30),
    optimum=st.none() | st.integers(1, 500),
    certificate=st.none()
    | st.builds(
        lambda extra, solver, look: {"solver": solver, "method": "m", **look, **extra},
        extras,
        st.text(min_size=1, max_size=10),
        st.sampled_from([{}, {"lookahead": "matter"}]),
    ),
    difficulty=st.none() | extras,
    provenance=st.none()
    | st.builds(
        lambda extra, seed: {"generator": "g", "seed": seed, **extra},
        extras,
        st.none() | st.integers(-(10**19), 10**19) | st.text(max_size=5),
    ),
)
def test_round_trip_of_generated_puzzles(
    start, ident, title, optimum, certificate, difficulty, provenance
):
    puzzle = Puzzle.from_state(
        ident,
        title,
        start,
        optimum=optimum,
        certificate=certificate,
        difficulty=difficulty,
        provenance=provenance,
    )
    text = json.dumps(puzzle.to_json())
    back = Puzzle.from_json(text)
    assert back == puzzle
    assert back.start.to_tln() == start.to_tln()
    assert back.to_json() == puzzle.to_json() == json.loads(text)


def test_the_value_is_frozen_hashable_and_keeps_its_own_copies():
    provenance = {"generator": "g", "list": [1]}
    puzzle = Puzzle.from_state("p", "t", solo_game(), provenance=provenance)
    provenance["list"].append(2)
    assert puzzle.provenance == {"generator": "g", "list": [1]}
    puzzle.to_json()["provenance"]["list"].append(3)
    assert puzzle.provenance == {"generator": "g", "list": [1]}
    with pytest.raises(dataclasses.FrozenInstanceError):
        puzzle.id = "q"  # type: ignore[misc]
    assert hash(puzzle) == hash(dataclasses.replace(puzzle, provenance=None))
    same = Puzzle.from_state("p", "t", solo_game(), provenance={"generator": "g", "list": [1]})
    assert len({puzzle, same}) == 1
    assert Puzzle.from_state("p", "t", solo_game(), solution=["He>Fi a3+"]).solution == (
        "He>Fi a3+",
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: Puzzle("p", "t", Rules(), State(), "white"),
            "puzzle 'p': rules: 'field/grasshopper/current' is not the solo variant\n"
            "puzzle 'p': start.rules: 'field/grasshopper/current' is not a solo position "
            "(no '/solo')",
        ),
        (
            lambda: Puzzle("p", "t", Rules(solo=True, mode="monk"), solo_game(), "white"),
            "puzzle 'p': start.rules: the position's rules 'field/grasshopper/current/solo' "
            "differ from the puzzle's rules 'field/monk/current/solo'",
        ),
        (
            lambda: Puzzle.from_state("p", "t", solo_game(), player="black"),
            None,  # a TypeError: player is given twice
        ),
        (
            lambda: Puzzle("p", "t", Rules(solo=True), solo_game(), "black"),
            "puzzle 'p': player: the position's side is 'white', the puzzle's player 'black'",
        ),
        (
            lambda: Puzzle("p", "t", Rules(solo=True), solo_game(), "red"),
            'puzzle \'p\': player: must be one of "white", "black", got "red"',
        ),
        (
            lambda: Puzzle.from_state("a b", "", solo_game(), goal="draw", optimum=0),
            "puzzle 'a b': id: \"a b\" is not an id: use letters, digits, '.', '_' and '-', "
            "starting with a letter or digit, at most 100 characters\n"
            "puzzle 'a b': title: must not be empty\n"
            'puzzle \'a b\': goal: must be "win", got "draw"\n'
            "puzzle 'a b': optimum: must be at least 1, got 0",
        ),
        (
            lambda: Puzzle.from_state("p", "t", solo_game(), solution=()),
            "puzzle 'p': solution: needs at least 1 item",
        ),
        (
            lambda: Puzzle.from_state("p", "t", solo_game(), certificate={"solver": "s"}),
            "puzzle 'p': certificate.method: missing",
        ),
        (
            lambda: Puzzle.from_state("p", "t", solo_game(), difficulty={"x": {1, 2}}),
            "puzzle 'p': difficulty: not plain JSON: Object of type set is not JSON serializable",
        ),
        (
            lambda: Puzzle.from_state("p", "t", solo_game(), provenance={"date": "yesterday"}),
            "puzzle 'p': provenance.date: \"yesterday\" is not a date (YYYY-MM-DD)",
        ),
        (
            lambda: Puzzle.from_state("p", "t", solo_game(), solution="He>Fi a3+"),
            "puzzle 'p': solution: expected a list of turns, got 'He>Fi a3+'",
        ),
        (
            lambda: Puzzle("p", "t", "field", solo_game(), "white"),
            "puzzle 'p': rules: expected a Rules, got 'field'",
        ),
        (
            lambda: Puzzle("p", "t", Rules(solo=True), START_TLN, "white"),
            f"puzzle 'p': start: expected a State, got {START_TLN!r}",
        ),
    ],
)
def test_making_a_bad_puzzle_says_why(make, message):
    if message is None:
        with pytest.raises(TypeError):
            make()
        return
    with pytest.raises(PuzzleError) as caught:
        make()
    assert str(caught.value) == message


# ---- malformed files, each with its message ----------------------------------------------------
def test_bad_json_on_line_3_names_line_3_and_the_others_load_with_skip(tmp_path):
    path = tmp_path / "set.jsonl"
    lines = [json.dumps(simple_doc(f"p{i}")) for i in (1, 2, 3, 4)]
    lines[2] = lines[2].replace('"version": 1,', '"version": 1', 1)  # a comma missing
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(path)
    assert caught.value.problems == [
        (3, "json", "not valid JSON: Expecting ',' delimiter at column 43")
    ]
    assert (
        str(caught.value) == f"{path}:3: json: not valid JSON: Expecting ',' delimiter at column 43"
    )
    assert [p.id for p in load_puzzles(path, errors="skip")] == ["p1", "p2", "p4"]
    good, problems = read_puzzles(path)
    assert [p.id for p in good] == ["p1", "p2", "p4"] and len(problems) == 1


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        (puzzle_doc(id=None), ("id", "missing")),
        (puzzle_doc(optimum="three"), ("optimum", 'expected integer or null, got "three"')),
        (puzzle_doc(optimum=True), ("optimum", "expected integer or null, got true")),
        (puzzle_doc(title=5), ("title", "expected string, got 5")),
        (puzzle_doc(rules="field"), ("rules", 'expected object, got "field"')),
        (puzzle_doc(hint="go north"), ("hint", f"unknown field (known: {KNOWN_FIELDS})")),
        (
            puzzle_doc(
                rules={
                    "scenario": "field",
                    "mode": "grasshopper",
                    "edition": "current",
                    "solo": True,
                }
            ),
            ("rules.solo", "unknown field (known: scenario, mode, edition, options)"),
        ),
        (puzzle_doc(goal="draw"), ("goal", 'must be "win", got "draw"')),
        (puzzle_doc(solution=["He>Fi d3+", 7]), ("solution[1]", "expected string, got 7")),
        (puzzle_doc(solution=[]), ("solution", "needs at least 1 item")),
        (
            puzzle_doc(certificate={"method": "m"}),
            ("certificate.solver", "missing"),
        ),
        (
            puzzle_doc(certificate={"solver": "s", "method": "m", "lookahead": "forever"}),
            ("certificate.lookahead", 'must be one of "matter", "next-turn", got "forever"'),
        ),
        (
            puzzle_doc(provenance={"date": "2024-02-30"}),
            ("provenance.date", '"2024-02-30" is not a date (YYYY-MM-DD)'),
        ),
        (
            puzzle_doc(start=TWO_TURNS_TLN.replace("WW/", "WX/")),
            ("start.bagua.heaven", "stones are W or B, got 'WX'"),
        ),
        (
            puzzle_doc(start=TWO_TURNS_TLN.replace("c1-b1", "c1-z1")),
            ("start.white.cells[3]", "z1 is off the 8x8 board"),
        ),
        (
            puzzle_doc(start=TWO_TURNS_TLN.replace(" w 1", " w")),
            ("start", "expected 8 fields (rules board white black bagua centre side turn), got 7"),
        ),
        (
            puzzle_doc(start=TWO_TURNS_TLN.replace("2:8", "3:8")),
            ("start.invariants", "water stones: 9 in play, must be 8"),
        ),
        (
            puzzle_doc(start=TWO_TURNS_TLN.replace("/solo", "/sol")),
            (
                "start.rules",
                "rules 'field/grasshopper/current/sol' must read scenario/mode/edition[/solo]",
            ),
        ),
        (
            puzzle_doc(
                rules={"scenario": "field", "mode": "monk", "edition": "current"},
            ),
            (
                "start.rules",
                "the position's rules 'field/grasshopper/current/solo' differ from the puzzle's "
                "rules 'field/monk/current/solo'",
            ),
        ),
        (
            puzzle_doc(start=TWO_TURNS_TLN.replace("/solo", "")),
            ("start.rules", "'field/grasshopper/current' is not a solo position (no '/solo')"),
        ),
        (
            puzzle_doc(start=TWO_TURNS_TLN.replace(" w 1", " b 1")),
            ("player", "the position's side is 'black', the puzzle's player 'white'"),
        ),
        (
            puzzle_doc(rules={"scenario": "moon", "mode": "grasshopper", "edition": "current"}),
            (
                "rules.scenario",
                "unknown scenario 'moon'; available: " + ", ".join(scenario_names()),
            ),
        ),
        (
            puzzle_doc(rules={"scenario": "field", "mode": "ant", "edition": "current"}),
            (
                "rules.mode",
                "unknown mode 'ant'; choose one of grasshopper, monk, master, chosen-one",
            ),
        ),
        (
            puzzle_doc(rules={"scenario": "field", "mode": "grasshopper", "edition": "first"}),
            ("rules.edition", "unknown edition 'first'; choose one of current, earlier"),
        ),
        (
            puzzle_doc(
                rules={
                    "scenario": "field",
                    "mode": "grasshopper",
                    "edition": "current",
                    "options": {"bite": 1},
                }
            ),
            (
                "rules.options.bite",
                "unknown option 'bite'; known options: " + ", ".join(sorted(OPTIONS)),
            ),
        ),
        (
            puzzle_doc(
                rules={
                    "scenario": "field",
                    "mode": "grasshopper",
                    "edition": "current",
                    "options": {"solo_lookahead": "forever"},
                }
            ),
            (
                "rules.options.solo_lookahead",
                "option 'solo_lookahead' takes one of ('matter', 'next-turn'), not 'forever'",
            ),
        ),
        (
            puzzle_doc(
                rules={
                    "scenario": "gorge",
                    "mode": "grasshopper",
                    "edition": "current",
                    "options": {"village": "black"},
                }
            ),
            ("rules", "the Village variant is not played on The Gorge"),
        ),
        (
            puzzle_doc(
                rules={
                    "scenario": "field",
                    "mode": "grasshopper",
                    "edition": "current",
                    "options": {"solo_lookahead": "next-turn"},
                },
                start=TWO_TURNS_TLN.replace("/solo", "/solo+solo_lookahead=next-turn"),
            ),
            (
                "certificate.lookahead",
                "the certificate used 'matter', the puzzle's rules say solo_lookahead='next-turn'",
            ),
        ),
        (
            puzzle_doc(solution=["He>Fi d3+", "He>Fi d4x"], optimum=None),
            (
                "solution[1]",
                "turn 2 ('He>Fi d4x'): the turn: the Heaven space is empty",
            ),
        ),
        (
            puzzle_doc(solution=["He>Fi d3+", "La"], optimum=None),
            (
                "solution[1]",
                "turn 2 ('La'): cannot read phase 'La': a phase is the space sown, '>' and "
                "the element, then what the dragon does, e.g. 'He>Fi c3x'",
            ),
        ),
        (
            puzzle_doc(solution=["He>Fi d3+", "La>Fi d4+"], optimum=None),
            ("solution", "the game is not over after its 2 turns"),
        ),
        (
            puzzle_doc(solution=[*TWO_TURNS, "He>Fi d5x"], optimum=None),
            (
                "solution[2]",
                "turn 3 ('He>Fi d5x'): the game is over (white wins: black lost its last segment)",
            ),
        ),
        (
            puzzle_doc(optimum=3),
            ("optimum", "solution has 2 turns, fewer than the claimed optimum 3"),
        ),
        (
            puzzle_doc(optimum=1),
            ("solution", "solution has 2 turns, optimum claims 1"),
        ),
        (
            puzzle_doc(start=LOSING_TLN, solution=["Wa>He (He:c4) #"], optimum=None),
            ("solution", "the solution loses: black wins: white lost its last segment"),
        ),
        (
            puzzle_doc(start=START_TLN, solution=["Ea>Wa a3+"], optimum=None),
            (
                "solution[0]",
                "turn 1 ('Ea>Wa a3+'): ambiguous: the opponent's "
                "priorities leave the choice to you; write 'Ea>Wa (Mo:f8 Wa:f7+) a3+' or "
                "'Ea>Wa (Mo:f8 Wa:e8+) a3+'",
            ),
        ),
        (
            puzzle_doc(
                start=LOSING_TLN.replace("c3-c2:1:0", "c3:0:0").replace("3:6", "4:6"),
                solution=None,
                optimum=None,
            ),
            ("start", "the game is already over: black wins: white lost its last segment"),
        ),
        (
            puzzle_doc(version=2),
            (
                "version",
                "version 2 is newer than this taolong_lab reads (up to 1); upgrade taolong_lab",
            ),
        ),
        (puzzle_doc(version=0), ("version", "version 0 is not supported (from 1 on)")),
        (puzzle_doc(version="1"), ("version", 'must be a whole number, got "1"')),
        (puzzle_doc(version=None), ("version", "missing")),
        (
            puzzle_doc(format="taolong-position"),
            ("format", "must be 'taolong-puzzle' (got \"taolong-position\")"),
        ),
        (puzzle_doc(format=None), ("format", "must be 'taolong-puzzle' (missing)")),
        (["a", "list"], ("json", "a puzzle is a JSON object, not a list")),
    ],
    ids=lambda v: v[0] if isinstance(v, tuple) else None,
)
def test_each_malformed_puzzle_gets_its_message(tmp_path, doc, problem):
    assert only_problem(tmp_path, doc) == (1, *problem)


def test_every_problem_of_a_line_is_reported(tmp_path):
    doc = puzzle_doc(id=None, player="red", optimum=0, extra=1, start="x")
    assert problems_of(tmp_path, doc) == [
        (1, "id", "missing"),
        (1, "start", "expected 8 fields (rules board white black bagua centre side turn), got 1"),
        (1, "player", 'must be one of "white", "black", got "red"'),
        (1, "optimum", "must be at least 1, got 0"),
        (1, "extra", f"unknown field (known: {KNOWN_FIELDS})"),
    ]


def test_duplicate_ids(tmp_path):
    problems = problems_of(
        tmp_path, simple_doc("a"), simple_doc("b"), simple_doc("a", title="again"), simple_doc("b")
    )
    assert problems == [
        (3, "id", "duplicate id 'a' (first on line 1)"),
        (4, "id", "duplicate id 'b' (first on line 2)"),
    ]
    assert [p.title for p in load_puzzles(tmp_path / "set.jsonl", errors="skip")] == [
        "Puzzle a",
        "Puzzle b",
    ]


def test_blank_lines_are_skipped_and_comments_refused(tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text(
        "\n" + json.dumps(simple_doc("a")) + "\n   \n\r\n// note\n" + json.dumps(simple_doc("b")),
        encoding="utf-8",
    )
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(path)
    assert caught.value.problems == [
        (
            5,
            "json",
            "not valid JSON: Expecting value at column 1; comments are not part of JSON Lines",
        )
    ]
    assert [p.id for p in load_puzzles(path, errors="skip")] == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"id": "a", "id": "b"}', (1, "json", "not valid JSON: duplicate key 'id'")),
        ('{"score": NaN}', (1, "json", "not valid JSON: NaN is not JSON")),
        ('{"a": 1} {"b": 2}', (1, "json", "not valid JSON: Extra data at column 10")),
    ],
)
def test_json_that_python_would_accept_but_json_does_not(tmp_path, text, problem):
    path = tmp_path / "set.jsonl"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(path)
    assert caught.value.problems == [problem]


def test_file_level_problems(tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(path)
    assert str(caught.value) == f"{path}: file: unknown kind '.txt': use .jsonl or .json"
    path = tmp_path / "set.jsonl"
    path.write_bytes(b'{"id": "\xff"}\n')
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(path)
    assert caught.value.problems[0][:2] == (None, "file")
    assert caught.value.problems[0][2].startswith("not UTF-8 text: ")
    with pytest.raises(InputFileError, match=r"absent\.jsonl: No such file"):
        load_puzzles(tmp_path / "absent.jsonl")
    path.write_text("", encoding="utf-8")
    assert load_puzzles(path) == []
    with pytest.raises(PuzzleError, match="errors: must be 'raise' or 'skip', not 'ignore'"):
        load_puzzles(path, errors="ignore")


def test_a_byte_order_mark_is_allowed(tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(simple_doc("a")).encode() + b"\n")
    assert [p.id for p in load_puzzles(path)] == ["a"]


def test_json_files_one_object_or_a_list_with_line_numbers(tmp_path):
    one = tmp_path / "one.json"
    one.write_text(json.dumps(simple_doc("a"), indent=2), encoding="utf-8")
    assert [p.id for p in load_puzzles(one)] == ["a"]
    many = tmp_path / "many.json"
    docs = [simple_doc("a"), simple_doc("b", player="black"), simple_doc("c")]
    many.write_text(json.dumps(docs, indent=2), encoding="utf-8")
    # each object takes 14 lines and the first starts after the '[' line
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(many)
    assert caught.value.problems == [
        (16, "player", "the position's side is 'white', the puzzle's player 'black'")
    ]
    assert [p.id for p in load_puzzles(many, errors="skip")] == ["a", "c"]
    empty = tmp_path / "empty.json"
    empty.write_text(" [ ] ", encoding="utf-8")
    assert load_puzzles(empty) == []
    broken = tmp_path / "broken.json"
    broken.write_text('[\n{"a": 1},\n{"b": 2}\n{"c": 3}]', encoding="utf-8")
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(broken)
    assert caught.value.problems == [
        (4, "json", "not valid JSON: Expecting ',' delimiter at column 1")
    ]
    broken.write_text('{"a": 1}\n\n{"b": 2}', encoding="utf-8")
    with pytest.raises(PuzzleError) as caught:
        load_puzzles(broken)
    assert caught.value.problems == [(3, "json", "not valid JSON: Extra data at column 1")]


def test_check_solutions_false_does_not_replay(tmp_path):
    doc = puzzle_doc(solution=["He>Fi d3+", "He>Fi d4x"], optimum=None)
    path = write_lines(tmp_path / "set.jsonl", doc)
    (puzzle,) = load_puzzles(path, check_solutions=False)
    assert puzzle.solution == ("He>Fi d3+", "He>Fi d4x")
    with pytest.raises(PuzzleError):
        Puzzle.from_json(doc)
    assert Puzzle.from_json(doc, check_solutions=False).solution == puzzle.solution


def test_from_json_names_the_puzzle(tmp_path):
    with pytest.raises(PuzzleError) as caught:
        Puzzle.from_json(puzzle_doc(optimum=3))
    assert str(caught.value) == (
        "puzzle 'two-turns': optimum: solution has 2 turns, fewer than the claimed optimum 3"
    )
    with pytest.raises(PuzzleError) as caught:
        Puzzle.from_json("{nope")
    assert str(caught.value) == (
        "puzzle: json: not valid JSON: Expecting property name enclosed in double quotes "
        "at column 2"
    )


def test_the_migration_hook(tmp_path, monkeypatch):
    def from_0(doc):  # version 0 called the player 'dragon'
        doc = dict(doc, version=1, player=doc.pop("dragon"))
        return doc

    old = simple_doc("old", version=0)
    old["dragon"] = old.pop("player")
    assert only_problem(tmp_path, old) == (1, "version", "version 0 is not supported (from 1 on)")
    monkeypatch.setitem(MIGRATIONS, 0, from_0)
    (puzzle,) = load_puzzles(write_lines(tmp_path / "old.jsonl", old))
    assert (puzzle.player, puzzle.to_json()["version"]) == ("white", VERSION)
    assert only_problem(tmp_path, simple_doc("older", version=-1)) == (
        1,
        "version",
        "version -1 is not supported (from 0 on)",
    )
    monkeypatch.setitem(MIGRATIONS, 0, lambda doc: dict(doc, version=0))
    assert only_problem(tmp_path, old) == (
        1,
        "version",
        "the migration from version 0 did not give version 1",
    )


def test_the_schema_file_is_valid_and_is_the_one_used():
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "data" / "puzzle.schema.json").read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema == puzzle_format.schema()
    assert schema["properties"]["version"] == {"const": VERSION}
    assert Draft202012Validator(schema).is_valid(puzzle_doc())
    assert not Draft202012Validator(schema).is_valid(puzzle_doc(hint=1))


# ---- saving -----------------------------------------------------------------------------------
def some_puzzles() -> list[Puzzle]:
    return [Puzzle.from_json(puzzle_doc()), Puzzle.from_state("b", "B", solo_game(player="black"))]


def test_save_writes_jsonl_and_json(tmp_path):
    puzzles = some_puzzles()
    save_puzzles(tmp_path / "set.jsonl", puzzles)
    lines = (tmp_path / "set.jsonl").read_text("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [p.to_json() for p in puzzles]
    save_puzzles(tmp_path / "set.json", puzzles)
    assert json.loads((tmp_path / "set.json").read_text("utf-8")) == [p.to_json() for p in puzzles]
    assert load_puzzles(tmp_path / "set.json") == load_puzzles(tmp_path / "set.jsonl") == puzzles
    assert sorted(os.listdir(tmp_path)) == ["set.json", "set.jsonl"]  # no temporary files left


def test_save_refuses_duplicates_and_non_puzzles_without_touching_the_file(tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text("old\n", encoding="utf-8")
    puzzle = some_puzzles()[0]
    with pytest.raises(PuzzleError) as caught:
        save_puzzles(path, [puzzle, "p", puzzle])
    assert caught.value.problems == [
        (None, "puzzles[1]", "expected a Puzzle, got 'p'"),
        (None, "puzzles[2].id", "duplicate id 'two-turns' (puzzles[0])"),
    ]
    with pytest.raises(PuzzleError, match=r"unknown kind '\.csv'"):
        save_puzzles(tmp_path / "set.csv", [puzzle])
    assert path.read_text("utf-8") == "old\n"
    assert sorted(os.listdir(tmp_path)) == ["set.jsonl"]


@pytest.mark.parametrize("failing", ["os.replace", "os.fsync", "write"])
def test_a_failing_save_leaves_the_old_file_intact(tmp_path, monkeypatch, failing):
    path = tmp_path / "set.jsonl"
    save_puzzles(path, some_puzzles()[:1])
    before = path.read_bytes()

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    if failing == "write":
        monkeypatch.setattr(puzzle_format, "puzzles_text", lambda *a: "partial" + 10**6 * "x")
        real_fdopen = os.fdopen

        class Failing:
            def __init__(self, handle):
                self.handle = handle

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.handle.close()

            def write(self, data):
                self.handle.write(data[:100])
                self.handle.flush()
                boom()

        monkeypatch.setattr(os, "fdopen", lambda fd, mode: Failing(real_fdopen(fd, mode)))
    else:
        monkeypatch.setattr(failing, boom)
    with pytest.raises(OSError, match="No space left"):
        save_puzzles(path, some_puzzles())
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["set.jsonl"]
    monkeypatch.undo()
    save_puzzles(path, some_puzzles())
    assert len(load_puzzles(path)) == 2


def test_save_keeps_the_file_mode(tmp_path):
    path = tmp_path / "set.jsonl"
    save_puzzles(path, some_puzzles())
    os.chmod(path, 0o640)
    save_puzzles(path, some_puzzles()[:1])
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert len(load_puzzles(path)) == 1


# ---- the shipped puzzles ----------------------------------------------------------------------
def test_the_shipped_rulebook_puzzles_load_and_are_what_the_generator_builds(capsys):
    puzzles = load_puzzles(SHIPPED)
    expected_ids = [f"{s}-{c}" for s in scenario_names() for c in COLOURS]
    assert [p.id for p in puzzles] == expected_ids
    for puzzle in puzzles:
        scenario, colour = puzzle.id.split("-")
        assert puzzle.start == solo_game(scenario, player=colour)
        assert puzzle.rules == Rules(scenario, "grasshopper", "current", True)
        assert puzzle.player == colour and puzzle.start.ply == 0
        # the best result proved (bench/rulebook_results.py): an optimum, or only a bound
        cert = puzzle.certificate or {}
        if puzzle.optimum is None:
            assert puzzle.solution is None and cert.get("status") == "unknown", puzzle.id
        assert cert.get("proved_no_win_below", 0) >= 5, puzzle.id
        for c in COLOURS:
            dragon = puzzle.start.dragon(c)
            assert (len(dragon.cells), dragon.water, dragon.fire) == (4, 4, 0)
        assert puzzle.start.bagua == ("WW", "", "BW", "", "BB", "", "WB", "")
        assert puzzle.provenance["generator"] == "taolong_lab.puzzles.rulebook"
        assert set(puzzle.provenance) == {"generator", "version", "date"}
    assert rulebook_tool.differences(SHIPPED) == []
    assert rulebook_tool.main(["--check"]) == 0
    assert capsys.readouterr().out == f"{SHIPPED} is up to date\n"


def test_the_rulebook_check_finds_a_stale_file(tmp_path, capsys):
    path = tmp_path / "rulebook-solo.jsonl"
    assert rulebook_tool.main(["--check", "--output", str(path)]) == 1
    assert f"cannot read {path}: No such file or directory" in capsys.readouterr().err
    assert rulebook_tool.main(["--output", str(path)]) == 0
    assert capsys.readouterr().out == f"wrote {2 * len(scenario_names())} puzzles to {path}\n"
    assert rulebook_tool.main(["--check", "--output", str(path)]) == 0
    first = path.read_bytes()
    # an older date and version are not a difference: the file is left alone
    lines = path.read_text("utf-8").splitlines()
    docs = [json.loads(line) for line in lines]
    for doc in docs:
        doc["provenance"].update(date="2000-01-01", version="0.0.1")
    write_lines(path, *docs)
    assert rulebook_tool.main(["--output", str(path)]) == 0
    assert "left as it is" in capsys.readouterr().out
    assert path.read_bytes() != first and rulebook_tool.differences(path) == []
    # a changed title, a missing and an extra puzzle are
    docs[0]["title"] = "Changed"
    replaced, docs[1]["id"] = docs[1]["id"], "moon-white"
    write_lines(path, *docs)
    assert rulebook_tool.differences(path) == [
        f"missing puzzle {replaced!r}",
        "unexpected puzzle 'moon-white'",
        f"puzzle {docs[0]['id']!r} differs",
    ]
    assert rulebook_tool.main(["--check", "--output", str(path)]) == 1
    err = capsys.readouterr().err
    assert "is out of date" in err and "python tools/rulebook.py" in err
    write_lines(path, docs[0], {"format": "x"})
    assert rulebook_tool.differences(path)[0] == f"{path} does not load:"


# ---- engine problems found while writing these tests (fixed) ----------------------------------
def test_a_solution_turn_with_an_invented_opponent_group_is_refused(tmp_path):
    # Heaven's two white stones give the black dragon no action: the turn has no group.
    start = State(TWO_TURNS_TLN)
    assert str(start.parse_turn("He>Fi d3+")) == "He>Fi d3+"
    doc = puzzle_doc(solution=["He>Fi (Fi:d5x) d3+", "La>Fi d4x"])
    problems = problems_of(tmp_path, doc)
    assert [p.field for p in problems] == ["solution[0]"]


# ---- the compiled schema agrees with the full validator -------------------------------------
def _fits(doc) -> tuple[bool, bool]:
    """Whether the compiled schema and the full validator accept ``doc``."""
    try:
        puzzle_format._fast_validator()(doc)
        fast = True
    except Exception:
        fast = False
    return fast, not list(puzzle_format._validator().iter_errors(doc))


LEAVES = [
    None, True, 0, 7, 7.0, -1, 1001, "", "x", "cave-white\n", "a" * 101, "2026-11-26",
    "2026-02-30", "26-11-2026", [], {}, ["He a1"], {"a": 1},
]  # fmt: skip
PATHS = [(name,) for name in sorted(puzzle_format.schema()["properties"])] + [
    ("provenance", "date"), ("rules", "mode"), ("rules", "options"), ("rules", "scenario"),
    ("certificate", "optimum"), ("difficulty", "tier"),
]  # fmt: skip


@pytest.mark.parametrize("path", PATHS, ids=".".join)
def test_the_compiled_schema_and_the_full_validator_agree(path):
    """One field changed at a time, to each of values of every kind: both accept, or both
    refuse (the compiled one decides alone for the documents that fit)."""
    lines = Path("puzzles/rulebook-solo.jsonl").read_text().splitlines()
    for value in LEAVES:
        doc = json.loads(lines[0])
        node = doc
        for name in path[:-1]:
            node = node.setdefault(name, {})
        node[path[-1]] = value
        fast, full = _fits(doc)
        assert fast == full, (path, value)
    assert _fits(json.loads(lines[0])) == (True, True)


def test_the_rulebook_tool_is_a_script(tmp_path):
    """``python tools/rulebook.py`` runs from any folder with no PYTHONPATH, writes a missing
    file and checks it; ``taolong_lab.puzzles.rulebook`` has no command of its own."""
    import subprocess
    import sys

    assert not hasattr(rulebook, "main")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    path = tmp_path / "rulebook-solo.jsonl"

    def run(*args):
        return subprocess.run(
            [sys.executable, str(Path(rulebook_tool.__file__)), "--output", str(path), *args],
            cwd="/",
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    assert run("--check").returncode == 1
    assert run().returncode == 0 and path.exists()
    done = run("--check")
    assert done.returncode == 0 and "is up to date" in done.stdout
