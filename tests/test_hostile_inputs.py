"""Hostile inputs to the readers (issue 29): each one a ``TaoLongError`` naming what is wrong.

- numbers past Python's 4,300-digit limit, and numbers past their meaning, in TLN, JSON
  positions, puzzles, options and scenario sizes;
- scenario names used as paths, or too long to be a file name;
- nesting a thousand levels deep in JSON, JSON Lines and TOML;
- scenario keys of the wrong type or shape;
- a puzzle id ending in a newline, and every unbounded puzzle field;
- turn notation too long, or with more than two phases; turns round-trip through notation;
- the command line on the same inputs: exit 2, one line on stderr, no traceback.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taolong_lab import (
    NotationError,
    PositionError,
    RulesError,
    State,
    Turn,
    new_game,
    solo_game,
)
from taolong_lab.engine import turns
from taolong_lab.engine.codec import MAX_TLN_CHARS, MAX_TURN
from taolong_lab.engine.turns import MAX_TURN_CHARS, parse_turn
from taolong_lab.errors import PuzzleError
from taolong_lab.limits import MAX_PUZZLE_TURNS
from taolong_lab.puzzles import Puzzle, read_puzzles
from taolong_lab.puzzles import format as puzzle_format
from taolong_lab.rules import MODES, Rules, data, scenario_names
from taolong_lab.rules.options import parse_option_value
from taolong_lab.rules.scenario import ScenarioError, load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
START = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 "
    "WW/-/BW/-/BB/-/WB/- 0:8 w 1"
)
HUGE = "1" * 5000  # past Python's 4,300-digit limit for int()
PUZZLE_LINE = (ROOT / "puzzles" / "field-novice.jsonl").read_text(encoding="utf-8").splitlines()[0]
FIELD_TOML = (ROOT / "data" / "scenarios" / "field.toml").read_text(encoding="utf-8")


def with_field(index: int, value: str, tln: str = START) -> str:
    parts = tln.split()
    parts[index] = value
    return " ".join(parts)


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def position_error(read, value) -> PositionError:
    with pytest.raises(PositionError) as info:
        read(value)
    return info.value


# ---- numbers --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("index", "value", "field"),
    [
        (7, HUGE, "turn"),
        (7, str(MAX_TURN + 1), "turn"),
        (2, f"a2-a1-b1-b2:{HUGE}:0", "white"),
        (3, f"g8-h8-h7-g7:4:{HUGE}", "black"),
        (2, "a2-a1-b1-b2:9:0", "white"),
        (5, f"{HUGE}:8", "centre"),
        (5, "0:9", "centre"),
        (0, f"field/grasshopper/current+extra_phases={HUGE}", "rules"),
    ],
    ids=["turn-huge", "turn-past-max", "water-huge", "fire-huge", "water-past-stones",
         "centre-huge", "centre-past-stones", "option-huge"],
)  # fmt: skip
def test_tln_numbers_are_bounded_before_reading(index, value, field):
    error = position_error(State.from_tln, with_field(index, value))
    assert error.field == field
    assert len(str(error)) < 300  # the number is cut short in the message


def test_the_largest_turn_number_reads_and_writes_back():
    """A TLN the reader accepts can be written back, up to the largest turn number."""
    tln = with_field(7, str(MAX_TURN))
    assert State.from_tln(tln).to_tln() == tln


def test_tln_longer_than_the_limit():
    text = START + " " * MAX_TLN_CHARS
    assert position_error(State.from_tln, text).field == "tln"
    assert State.from_tln(START + " " * (MAX_TLN_CHARS - len(START))) == new_game()


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("turn",), 10**5000, "turn"),
        (("turn",), MAX_TURN + 1, "turn"),
        (("dragons", "white", "water"), 10**5000, "dragons.white.water"),
        (("dragons", "black", "fire"), 9, "dragons.black.fire"),
        (("centre", "water"), -1, "centre.water"),
        (("rules", "options"), {"extra_phases": 10**5000}, "rules.options.extra_phases"),
        (("version",), 10**5000, "version"),
    ],
    ids=["turn-huge", "turn-past-max", "water-huge", "fire-past-stones", "centre-negative",
         "option-huge", "version-huge"],
)  # fmt: skip
def test_json_position_numbers_are_bounded(path, value, field):
    doc = new_game().to_json()
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    error = position_error(State.from_json, doc)
    assert error.field == field
    assert len(str(error)) < 300


def test_json_text_with_a_huge_number_names_its_field():
    text = json.dumps(new_game().to_json()).replace('"turn": 1', f'"turn": {HUGE}')
    error = position_error(State.from_json, text)
    assert error.field == "turn" and "20 digits" in str(error)


def test_option_numbers_stay_words_past_nine_digits():
    assert parse_option_value("123456789") == 123456789
    assert parse_option_value(HUGE) == HUGE
    with pytest.raises(RulesError, match="extra_phases") as info:
        Rules.from_token(f"field/grasshopper/current+extra_phases={HUGE}")
    assert len(str(info.value)) < 200
    with pytest.raises(RulesError, match="extra_phases"):
        new_game(extra_phases=10**5000)


# ---- scenario names ---------------------------------------------------------------------------
@pytest.fixture
def scenario_elsewhere(tmp_path) -> str:
    """The path, without ``.toml``, of a valid scenario file outside ``data/scenarios``."""
    (tmp_path / "elsewhere.toml").write_text(FIELD_TOML, encoding="utf-8")
    return str(tmp_path / "elsewhere")


def test_a_scenario_name_is_not_a_path(scenario_elsewhere):
    for name in (scenario_elsewhere, "/etc/passwd", "../scenarios/field", "a" * 251):
        with pytest.raises(RulesError, match="unknown scenario") as info:
            Rules(scenario=name)
        assert "available: " + ", ".join(scenario_names()) in str(info.value)
    doc = new_game().to_json()
    doc["rules"]["scenario"] = scenario_elsewhere
    assert position_error(State.from_json, doc).field == "rules"


@pytest.mark.parametrize("name", ["Field", "field.toml", "", "a" * 41, "9lives", " field", 5])
def test_scenario_names_have_one_form(name):
    with pytest.raises(RulesError, match="unknown scenario"):
        Rules(scenario=name)


def test_scenario_files_resolve_inside_the_scenario_folder(tmp_path, monkeypatch):
    """A link in the scenario folder that leads out of it is not a scenario, nor is a file
    whose name is not a scenario name."""
    folder = tmp_path / "data" / "scenarios"
    folder.mkdir(parents=True)
    (folder / "field.toml").write_text(FIELD_TOML, encoding="utf-8")
    (folder / "Bad Name.toml").write_text(FIELD_TOML, encoding="utf-8")
    (tmp_path / "outside.toml").write_text(FIELD_TOML, encoding="utf-8")
    (folder / "linked.toml").symlink_to(tmp_path / "outside.toml")
    monkeypatch.setattr(data, "data_dir", lambda: tmp_path / "data")
    data._scenario_path.cache_clear()
    try:
        assert data.scenario_file("field") == (folder / "field.toml").resolve()
        assert scenario_names() == ["field", "linked"]
        for name in ("linked", "Bad Name"):
            with pytest.raises(RulesError, match=f"'{name}'"):
                data.scenario_file(name)
    finally:
        data._scenario_path.cache_clear()


def test_load_scenario_takes_names_only():
    with pytest.raises(RulesError, match="unknown scenario"):
        load_scenario("../scenarios/field")


# ---- nesting --------------------------------------------------------------------------------
def test_deep_json_position():
    for text in (nested(1000), '{"format": ' + nested(30) + "}"):
        error = position_error(State.from_json, text)
        assert "nested deeper than 16 levels" in str(error)


@pytest.mark.parametrize(("kind", "good", "line"), [("jsonl", 1, 2), ("json", 0, 3)])
def test_deep_puzzle_files_name_the_line(tmp_path, kind, good, line):
    """A JSON Lines file keeps its other lines; a .json list stops at the bad item."""
    path = tmp_path / f"deep.{kind}"
    deep = PUZZLE_LINE.replace('"optimum": 1', '"optimum": ' + nested(1000), 1)
    body = f"{PUZZLE_LINE}\n{deep}\n" if kind == "jsonl" else f"[\n{PUZZLE_LINE},\n{deep}\n]\n"
    path.write_text(body, encoding="utf-8")
    puzzles, problems = read_puzzles(path)
    assert len(puzzles) == good
    assert [(p.line, p.field) for p in problems] == [(line, "json")]
    assert "nested deeper than 16 levels" in problems[0].reason


def test_moderately_deep_puzzle_field_is_named():
    doc = json.loads(PUZZLE_LINE)
    doc["certificate"]["rows"] = json.loads(nested(20))
    with pytest.raises(PuzzleError) as info:
        Puzzle.from_json(doc)
    assert info.value.problems[0][1].startswith("certificate.rows[0]")


def test_deep_toml_scenario():
    for value in (nested(1000), "{a = " * 20 + "1" + "}" * 20):
        with pytest.raises(ScenarioError, match="nested deeper than 16 levels"):
            parse_scenario(f"extra = {value}\n" + FIELD_TOML, "deep.toml", "deep")


# ---- scenario keys ----------------------------------------------------------------------------
STARTS = "\n[starts]\nwhite = {}\n"


def edited(old: str, new: str) -> str:
    assert old in FIELD_TOML
    return FIELD_TOML.replace(old, new, 1)


def line_of(text: str, start: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(start))


SCENARIO_CASES = [
    # (id, text, words of the message, the line's start)
    ("editions-int", edited('editions = ["current", "earlier"]', "editions = [1]"), "'editions'",
     "editions"),
    ("editions-empty", edited('editions = ["current", "earlier"]', "editions = []"), "'editions'",
     "editions"),
    ("editions-twice", edited('editions = ["current", "earlier"]', 'editions = ["current", '
     '"current"]'), "'editions'", "editions"),
    ("editions-string", edited('editions = ["current", "earlier"]', 'editions = "current"'),
     "'editions' must be a list", "editions"),
    ("wrap-int", edited("wrap = false", "wrap = 1"), "'wrap' must be a boolean", "wrap"),
    ("village-string", edited("village = true", 'village = "yes"'), "'village'", "village"),
    ("rocks-int", edited("breakable_rocks = false", "breakable_rocks = 0"), "'breakable_rocks'",
     "breakable_rocks"),
    ("name-int", edited('name = "The Field"', "name = 5"), "'name' must be a string", "name"),
    ("name-empty", edited('name = "The Field"', 'name = ""'), "'name' must be one line", "name"),
    ("motto-long", edited('motto = "Clarity gives space for practice."', f'motto = "{"m" * 201}"'),
     "'motto'", "motto"),
    ("size-short", edited("wrap = false", "wrap = false\nsize = [8]"), "'size'", "size"),
    ("size-string", edited("wrap = false", 'wrap = false\nsize = "8x8"'), "'size'", "size"),
    ("size-zero", edited("wrap = false", "wrap = false\nsize = [0, 8]"), "'size'", "size"),
    ("size-bool", edited("wrap = false", "wrap = false\nsize = [true, 8]"), "'size'", "size"),
    ("size-wide", edited("wrap = false", "wrap = false\nsize = [27, 8]"), "width 1-26", "size"),
    ("size-tall", edited("wrap = false", "wrap = false\nsize = [8, 100]"), "height 1-99", "size"),
    ("size-huge", edited("wrap = false", f"wrap = false\nsize = [{HUGE}, 8]"), "too many digits",
     "size"),
    ("size-big", edited("wrap = false", f"wrap = false\nsize = [{'9' * 30}, 8]"), "20 digits",
     "size"),
    ("unknown-key", edited("wrap = false", "wrap = false\ncolour = 1"), "unknown key 'colour'",
     "colour"),
    ("starts-triple", FIELD_TOML + STARTS.replace("{}", "[[0, 1, 2]]"), "starts.white[0]",
     "white"),
    ("starts-word", FIELD_TOML + STARTS.replace("{}", '[[0, "a"]]'), "starts.white[0]", "white"),
    ("starts-empty", FIELD_TOML + STARTS.replace("{}", "[]"), "starts.white must be a list",
     "white"),
    ("starts-int", FIELD_TOML + STARTS.replace("{}", "5"), "starts.white must be a list", "white"),
    ("starts-long", FIELD_TOML + STARTS.replace("{}", "[[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]]"),
     "1-4 cells", "white"),
    ("starts-off", FIELD_TOML + STARTS.replace("{}", "[[8, 0]]"), "off the 8x8 board", "white"),
    ("starts-colour", FIELD_TOML + "\n[starts]\ngreen = [[0, 0]]\n", "unknown key 'green'",
     "[starts]"),
    ("portal-int", FIELD_TOML + "\n[portals]\nG = 5\n", "portals.'G'", "G = 5"),
    ("portal-colour", FIELD_TOML + "\n[portals.X]\ndestination = \"any\"\n", "portals.'X'",
     "[portals.X]"),
    ("portal-key", FIELD_TOML + "\n[portals.G]\ncolour = \"any\"\n", "[portals.G]",
     "[portals.G]"),
    ("village-small", edited("wrap = false", "wrap = false\nsize = [4, 8]").replace(
     "h h . . . . . .", "h h . .").replace("v h . . . . . .", "v h . .").replace(
     ". . . . . . . .", ". . . .").replace(". . . . . . e e", ". . e e").replace(
     ". . . . . . < e", ". . < e") + "[starts]\nblack = [[2, 7], [3, 7], [3, 6], [2, 6]]\n",
     "village cell e4", "village"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "words", "start"), [c[1:] for c in SCENARIO_CASES],
                         ids=[c[0] for c in SCENARIO_CASES])  # fmt: skip
def test_scenario_keys_are_checked(text, words, start):
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "user.toml", "user")
    error = info.value
    assert words in str(error) and str(error).startswith("user.toml: line ")
    assert error.line == line_of(text, start)


def test_scenario_file_too_long():
    with pytest.raises(ScenarioError, match="longer than 100000 characters"):
        parse_scenario(FIELD_TOML + "#" * 100_000, "user.toml", "user")


def test_every_shipped_scenario_still_reads():
    for key in scenario_names():
        text = (ROOT / "data" / "scenarios" / f"{key}.toml").read_text(encoding="utf-8")
        assert parse_scenario(text, f"{key}.toml", key) == load_scenario(key)


# ---- puzzle fields --------------------------------------------------------------------------
def puzzle_problems(tmp_path, doc: dict) -> list:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    return [(p.field, p.reason) for p in read_puzzles(path)[1]]


def test_an_id_ending_in_a_newline_is_refused(tmp_path):
    doc = json.loads(PUZZLE_LINE)
    for ident in ("field-novice-01\n", "x\n", "a\nb", "a" * 101):
        doc["id"] = ident
        assert {f for f, _ in puzzle_problems(tmp_path, doc)} == {"id"}, ident
    good = Puzzle.from_json(PUZZLE_LINE)
    with pytest.raises(PuzzleError, match="not an id"):
        Puzzle(good.id + "\n", good.title, good.rules, good.start, good.player)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda d: d.update(title="t" * 201), "title", "longer than 200"),
        (lambda d: d.update(solution=["He a1"] * 1001), "solution", "more than 1000 items"),
        (lambda d: d.update(solution=["He a1" + " " * 1000]), "solution[0]", "longer than 1000"),
        (lambda d: d.update(optimum=1001), "optimum", "at most 1000"),
        (lambda d: d.update(optimum=10**30), "optimum", "20 digits"),
        (lambda d: d.update(start="x" * 10_001), "start", "longer than 10000"),
        (lambda d: d["rules"].update(mode="m" * 41), "rules.mode", "longer than 40"),
        (lambda d: d["rules"]["options"].update({"o" * 41: 1}), "rules.options", "field name"),
        (lambda d: d["rules"]["options"].update(village="w" * 41), "rules.options.village",
         "longer than 40"),
        (lambda d: d["certificate"].update(note="n" * 1001), "certificate.note", "longer than"),
        (lambda d: d["provenance"].update({f"k{i}": i for i in range(100)}), "provenance",
         "more than 100 fields"),
    ],
    ids=["title", "solution-items", "solution-turn", "optimum", "optimum-digits", "start",
         "mode", "option-name", "option-value", "certificate-string", "provenance-keys"],
)  # fmt: skip
def test_puzzle_fields_are_bounded(tmp_path, change, field, words):
    doc = json.loads(PUZZLE_LINE)
    change(doc)
    problems = puzzle_problems(tmp_path, doc)
    assert any(f == field and words in r for f, r in problems), problems


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("optimum", 10**5000, "optimum"),
        ("title", 10**5000, "title"),
        ("solution", ("He a1", 10**5000), "solution[1]"),
        ("id", 10**5000, "id"),
        ("provenance", {"seed": 10**5000}, "provenance"),
    ],
    ids=["optimum", "title", "solution", "id", "provenance"],
)
def test_a_puzzle_built_in_code_bounds_its_numbers(field, value, named):
    good = Puzzle.from_json(PUZZLE_LINE)
    with pytest.raises(PuzzleError) as info:
        dataclasses.replace(good, **{field: value})
    assert info.value.problems[0][1] == named
    assert "20 digits" in str(info.value) and len(str(info.value)) < 300


def test_the_schema_and_the_readers_agree_on_bounds():
    properties = puzzle_format.schema()["properties"]
    assert properties["solution"]["maxItems"] == MAX_PUZZLE_TURNS
    assert properties["optimum"]["maximum"] == MAX_PUZZLE_TURNS
    assert properties["solution"]["items"]["maxLength"] == MAX_TURN_CHARS
    assert properties["start"]["maxLength"] == MAX_TLN_CHARS


def test_huge_number_in_a_puzzle_file(tmp_path):
    path = tmp_path / "huge.jsonl"
    path.write_text(PUZZLE_LINE.replace('"optimum": 1', f'"optimum": {HUGE}', 1), "utf-8")
    [problem] = read_puzzles(path)[1]
    assert (problem.line, problem.field) == (1, "optimum") and "20 digits" in problem.reason


# ---- turn notation ----------------------------------------------------------------------------
def test_turn_notation_is_bounded():
    """The issue's input took 10 s in the old quadratic parser."""
    with pytest.raises(NotationError, match=f"longer than {MAX_TURN_CHARS} characters"):
        parse_turn("He a" + " " * 40000 + "a1")
    longest = "He>Fi" + " " * (MAX_TURN_CHARS - len("He>Fi a3x")) + " a3x"
    assert parse_turn(longest) == parse_turn("He>Fi a3x")


def test_three_phases_are_refused_when_read():
    with pytest.raises(NotationError, match="a turn has at most two phases"):
        parse_turn("Wa>Wi b4 ; He b3 ; Fi b2")
    with pytest.raises(NotationError, match="a turn has at most two phases"):
        new_game().play("He>Fi a3x ; He a4 ; He a5")


def _random_turns(seed: int, scenario: str, mode: str, solo: bool) -> list[Turn]:
    """The legal turns met along a seeded random game."""
    rng = random.Random(seed)
    state = solo_game(scenario, mode) if solo else new_game(scenario, mode)
    seen = []
    for _ in range(30):
        if state.is_over():
            break
        turns = state.legal_turns()
        seen.extend(rng.sample(turns, min(5, len(turns))))
        state = state.play(rng.choice(turns))
    return seen


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(
    st.integers(0, 2**16),
    st.sampled_from(scenario_names()),
    st.sampled_from(MODES),
    st.booleans(),
)
def test_turns_round_trip_through_notation(seed, scenario, mode, solo):
    turns = _random_turns(seed, scenario, mode, solo)
    assert turns
    for turn in turns:
        assert parse_turn(str(turn)) == turn


# The regex the linear parser replaced: the reference for what a phase means. It is quadratic
# on long texts, and is only run on short ones here.
_REGEX_PHASE = re.compile(
    r"\s*([A-Za-z]+)(?:/([WBwb]+))?\s*(?:>\s*([A-Za-z]+))?\s+((?:\{[^}]*\}\s*)*)"
    r"(?:\(([^)]*)\)\s*)?(\S.*?)\s*\Z"
)


def regex_parse_turn(text: str) -> Turn:
    """Turn notation as the regex parser read it."""
    phases = []
    for part in text.split(";"):
        match = _REGEX_PHASE.match(part)
        if not match:
            raise NotationError(f"cannot read phase {part!r}")
        focus = tuple(
            (who.lower(), turns._parse_action(action, part))
            for who, action in turns._FOCUS_RE.findall(match[4])
        )
        opponent = None
        if match[5] is not None:
            group = match[5].split()
            opponent = tuple(turns._parse_group_action(g, part) for g in group) or None
        phases.append(
            turns._parse_action(match[6], part)._replace(
                space=turns.space_index(match[1]),
                element=turns.space_index(match[3]) if match[3] else -1,
                drops=(match[2] or "").upper(),
                focus=focus,
                opponent=opponent,
            )
        )
    return Turn(tuple(phases))


LEGAL_TURNS = sorted(
    {
        str(turn)
        for mode in MODES
        for solo in (False, True)
        for turn in _random_turns(7, "valley", mode, solo)
    }
)
SPACES = " \t\n\r\x0b\x0c\u00a0\u2003"


@st.composite
def turn_texts(draw) -> str:
    """A legal turn's notation, maybe in another case, with a few characters changed: often
    still a turn."""
    text = draw(st.sampled_from(LEGAL_TURNS))
    text = draw(st.sampled_from([text, text.lower(), text.upper()]))
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(text)))
        new = draw(st.sampled_from([SPACES, "{}()[]>/:;,~#=-+x", "case"]))
        new = text[pos : pos + 1].swapcase() if new == "case" else draw(st.sampled_from(new))
        text = text[:pos] + new + text[pos + draw(st.integers(0, 1)) :]
    return text


def outcome(parse, text):
    try:
        return parse(text)
    except NotationError:
        return NotationError


@settings(max_examples=500, deadline=None, derandomize=True)
@given(turn_texts())
def test_the_linear_parser_reads_as_the_regex_did(text):
    """On texts within the bounds, the scanner gives the turns, and refuses the texts, that
    the regex it replaced did."""
    assert outcome(parse_turn, text) == outcome(regex_parse_turn, text)


# ---- the command line -------------------------------------------------------------------------
def _taolong(*argv: str) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("taolong")
    if not script.exists():
        pytest.skip(f"no installed taolong script next to {sys.executable}")
    return subprocess.run(
        [str(script), *argv], capture_output=True, text=True, encoding="utf-8", check=False
    )


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["show", "--position", with_field(7, HUGE)], "turn"),
        (["show", "--position", with_field(0, f"field/grasshopper/current+extra_phases={HUGE}")],
         "extra_phases"),
        (["show", "--scenario", "/etc/passwd"], "unknown scenario '/etc/passwd'"),
        (["show", "--scenario", "a" * 251], "unknown scenario"),
        (["show", "--option", f"extra_phases={HUGE}"], "extra_phases"),
        (["play", "He a" + " " * 4000 + "a1"], "longer than 1000 characters"),
        (["play", "He>Fi a3x ; He a4 ; He a5"], "at most two phases"),
    ],
    ids=["position-turn", "position-option", "scenario-path", "scenario-long", "option",
         "turn-long", "turn-phases"],
)  # fmt: skip
def test_cli_refuses_with_one_line(argv, words):
    done = _taolong(*argv)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("taolong: error: ") and done.stderr.count("\n") == 1
    assert words in done.stderr
    assert "Traceback" not in done.stderr
