"""Fuzzing the five readers: TLN, JSON positions, turn notation, puzzle files, scenario files.

Inputs are valid documents mutated (characters and bytes flipped, inserted, deleted, spliced
from another document, numbers blown up, values nested deep, huge strings), arbitrary text, and
decoded JSON documents with odd values put in (wrong types, huge numbers, lists for objects).
Any exception other than a ``TaoLongError`` fails a test.

``make test`` runs a small derandomized budget. ``make fuzz`` (``TAOLONG_FUZZ=1``) runs a long
random campaign (``TAOLONG_FUZZ_EXAMPLES`` examples a test) where an input read in more than
one second fails too; Hypothesis prints how to reproduce a failure.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from taolong_lab import State, TaoLongError, new_game, solo_game
from taolong_lab.engine.turns import parse_turn
from taolong_lab.puzzles import Puzzle, read_puzzles
from taolong_lab.rules import MODES, scenario_names
from taolong_lab.rules.scenario import parse_scenario

ROOT = Path(__file__).resolve().parents[1]

if os.environ.get("TAOLONG_FUZZ") == "1":
    FUZZ = settings(
        max_examples=int(os.environ.get("TAOLONG_FUZZ_EXAMPLES", "20000")),
        deadline=1000,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
    )
else:
    FUZZ = settings(
        max_examples=600,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ---- the corpus: valid documents of each kind ---------------------------------------------
def _positions() -> list[State]:
    """Starts of every scenario and mode, two-player and solo, and positions along seeded
    random games."""
    rng = random.Random(29)
    out = []
    for scenario in scenario_names():
        for mode in MODES:
            for start in (new_game(scenario, mode), solo_game(scenario, mode)):
                state = start
                for _ in range(rng.randrange(12)):
                    if state.is_over():
                        break
                    state = state.play(rng.choice(state.legal_turns()))
                out += [start, state]
    return out


POSITIONS = _positions()
TLNS = [s.to_tln() for s in POSITIONS]
JSONS = [json.dumps(s.to_json()) for s in POSITIONS[::4]]
TURNS = sorted({str(t) for s in POSITIONS if not s.is_over() for t in s.legal_turns()[:6]})
PUZZLE_LINES = [
    path.read_text(encoding="utf-8").splitlines()[0]
    for path in sorted(ROOT.glob("puzzles/*.jsonl"))
]
SCENARIOS = [
    path.read_text(encoding="utf-8") for path in sorted((ROOT / "data/scenarios").glob("*.toml"))
]
OPS = ("tweak", "tweak", "flip", "insert", "delete", "splice", "value", "number", "nest", "huge")
_KINDS = ("0123456789", "abcdefgh", "WB", "wb", "HLFTEMW", "eaihrot", ";:,>/-+=x~#")
NOTATION = " \t\n;:,>/{}()[]~#=-+.xWBwbHeLaFiThEaMoWaWi0123456789abcdefgh@\"'"
# Values of other types, for JSON and TOML alike (a few are valid in only one of them).
VALUES = ('"a"', "1.5", "-1", "0", "true", "null", "[]", "{}", "[1, [2]]", '{"a": 1}', "{a = 1}")
NESTS = (("[", "]"), ('{"a":', "}"), ("{a = ", "}"))
_VALUE_AT = re.compile(r"[:=,\[]\s*")  # where a value starts in JSON and TOML


# ---- mutations ----------------------------------------------------------------------------
@st.composite
def mutated(draw, corpus: list[str]) -> str:
    """A document of ``corpus`` after one to four mutations (one most often); new values go
    where a value starts."""
    text = draw(st.sampled_from(corpus))
    for _ in range(draw(st.sampled_from([1, 1, 2, 3, 4]))):
        pos = draw(st.integers(0, len(text)))
        starts = [m.end() for m in _VALUE_AT.finditer(text)]
        at_value = draw(st.sampled_from(starts)) if starts else pos
        op = draw(st.sampled_from(OPS))
        if op == "tweak" and text:  # a character of the same kind: often still a valid document
            pos = min(pos, len(text) - 1)
            kind = next((k for k in _KINDS if text[pos] in k), NOTATION)
            text = text[:pos] + draw(st.sampled_from(kind)) + text[pos + 1 :]
        elif op == "flip" and text:
            pos = min(pos, len(text) - 1)
            char = draw(st.one_of(st.sampled_from(NOTATION), st.characters(codec="utf-8")))
            text = text[:pos] + char + text[pos + 1 :]
        elif op == "insert":
            text = text[:pos] + draw(st.text(NOTATION, min_size=1, max_size=8)) + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 40)) :]
        elif op == "splice":
            other = draw(st.sampled_from(corpus))
            start = draw(st.integers(0, len(other)))
            text = text[:pos] + other[start : start + draw(st.integers(1, 60))] + text[pos:]
        elif op == "value":  # a value of another type in place of the one there
            end = at_value + len(re.match(r"[^,\]}\n]*", text[at_value:])[0])
            text = text[:at_value] + draw(st.sampled_from(VALUES)) + text[end:]
        elif op == "number":
            digits = draw(st.sampled_from([10, 21, 400, 5000]))
            text = text[:at_value] + draw(st.sampled_from("19")) * digits + text[at_value:]
        elif op == "nest":
            depth = draw(st.sampled_from([17, 100, 5000, 50_000]))
            open_, close = draw(st.sampled_from(NESTS))
            text = text[:at_value] + open_ * depth + "1" + close * depth + text[at_value:]
        elif op == "huge":
            text = text[:pos] + "a" * draw(st.sampled_from([1001, 10_001, 100_001])) + text[pos:]
    return text


def documents(corpus: list[str]):
    """Mutated documents of ``corpus``, and arbitrary text now and then."""
    return st.one_of(
        mutated(corpus), mutated(corpus), st.text(st.characters(codec="utf-8"), max_size=300)
    )


HUGE = "<a number of 5000 digits>"  # put in by the test: a repr of it would fail
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([-1, 0, 10**30, 2**63, HUGE]),
    st.floats(),
    st.text(max_size=20),
    st.lists(st.integers(0, 9), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(0, 9), max_size=2),
    st.builds(lambda: json.loads("[" * 20 + "]" * 20)),  # a new list each time: it may be edited
)


@st.composite
def mutated_object(draw, corpus: list[str]):
    """A JSON document of ``corpus``, decoded, with one to three values replaced by odd ones,
    removed, or turned from a list into an object and back."""
    doc = json.loads(draw(st.sampled_from(corpus)))
    for _ in range(draw(st.integers(1, 3))):
        slots = list(_slots(doc))
        parent, key = draw(st.sampled_from(slots))
        op = draw(st.sampled_from(["replace", "replace", "remove", "swap"]))
        value = parent[key]
        if op == "remove" and isinstance(parent, dict):
            del parent[key]
        elif op == "swap" and isinstance(value, list):
            parent[key] = {str(i): item for i, item in enumerate(value)}
        elif op == "swap" and isinstance(value, dict):
            parent[key] = list(value.values())
        else:
            parent[key] = draw(ODD_VALUES)
    return doc


def _slots(node):
    """Every ``(container, key)`` inside ``node``."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in list(items):
        yield node, key
        if isinstance(value, dict | list) and value:
            yield from _slots(value)


def with_huge_numbers(node):
    """``node`` with :data:`HUGE` replaced by a number past Python's digit limit."""
    if node == HUGE:
        return 10**5000
    if isinstance(node, dict):
        return {key: with_huge_numbers(value) for key, value in node.items()}
    if isinstance(node, list):
        return [with_huge_numbers(value) for value in node]
    return node


def flipped_bytes(data: bytes, flips: list[tuple[int, int]]) -> bytes:
    """``data`` with one bit flipped at each ``(position, bit)``."""
    out = bytearray(data)
    for pos, bit in flips:
        if out:
            out[pos % len(out)] ^= 1 << bit
    return bytes(out)


def read_or_refuse(read, value):
    """``read(value)``; a ``TaoLongError`` is a refusal, any other exception fails the test."""
    try:
        result = read(value)
    except TaoLongError as exc:
        assert str(exc)
        event("refused")
        return None
    event("read")
    return result


# ---- the readers --------------------------------------------------------------------------
@FUZZ
@given(documents(TLNS))
def test_fuzz_tln(text):
    state = read_or_refuse(State.from_tln, text)
    if state is not None:  # what is read can be written back, and reads the same
        assert State.from_tln(state.to_tln()) == state


@FUZZ
@given(documents(JSONS))
def test_fuzz_json_position(text):
    state = read_or_refuse(State.from_json, text)
    if state is not None:
        assert State.from_json(json.dumps(state.to_json())) == state


@FUZZ
@given(documents(TURNS), st.sampled_from(POSITIONS))
def test_fuzz_turn_notation(text, state):
    turn = read_or_refuse(parse_turn, text)
    if turn is not None:
        assert parse_turn(str(turn)) == turn
    read_or_refuse(state.play, text)


@FUZZ
@given(mutated_object(JSONS))
def test_fuzz_position_objects(doc):
    state = read_or_refuse(State.from_json, with_huge_numbers(doc))
    if state is not None:
        assert State.from_json(state.to_json()) == state


@FUZZ
@given(mutated_object(PUZZLE_LINES))
def test_fuzz_puzzle_objects(doc):
    puzzle = read_or_refuse(Puzzle.from_json, with_huge_numbers(doc))
    if puzzle is not None:
        assert Puzzle.from_json(puzzle.to_json()) == puzzle


@pytest.fixture(scope="module")
def puzzle_folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-puzzles")


@FUZZ
@given(
    st.lists(documents(PUZZLE_LINES), min_size=1, max_size=3),
    st.sampled_from(["jsonl", "json"]),
    st.one_of(  # bits flipped in a third of the files: a flip often makes the file not UTF-8
        st.just([]),
        st.just([]),
        st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 7)), min_size=1, max_size=3),
    ),
)
def test_fuzz_puzzle_files(puzzle_folder, lines, kind, flips):
    text = "\n".join(lines) + "\n" if kind == "jsonl" else "[\n" + ",\n".join(lines) + "\n]\n"
    path = puzzle_folder / f"fuzz.{kind}"
    path.write_bytes(flipped_bytes(text.encode("utf-8"), flips))
    puzzles, problems = read_puzzles(path)
    event(f"{len(puzzles)} read")
    assert all(problem.reason for problem in problems)
    for puzzle in puzzles:  # a puzzle that is read can be written and read again
        assert Puzzle.from_json(puzzle.to_json()) == puzzle


@FUZZ
@given(documents(SCENARIOS))
def test_fuzz_scenario_files(text):
    scenario = read_or_refuse(lambda t: parse_scenario(t, "fuzz.toml", "fuzz"), text)
    if scenario is not None:
        assert len(scenario.rows) == scenario.height
        assert all(len(row) == scenario.width for row in scenario.rows)


# ---- the files of long runs: atlas pending lists, proof manifests, balance cards, matches ----
SMALL = settings(FUZZ, max_examples=FUZZ.max_examples if os.environ.get("TAOLONG_FUZZ") else 80)
"""Each example of these reads a file and may replay games or rebuild a CNF: fewer in make test."""


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-runs")


def _pending_corpus() -> list[str]:
    from taolong_lab.puzzles.atlas import challenges

    ids = [ident for ident, _ in challenges("torus")][:3]
    return [
        "{}",
        json.dumps({ids[0]: {"error": "a worker died"}}),
        json.dumps(
            {ids[1]: {"status": "unknown", "proved_no_win_below": 7, "seconds": 3600.2}}, indent=1
        ),
    ]


PENDING = _pending_corpus()


@FUZZ
@given(documents(PENDING))
def test_fuzz_atlas_pending_files(run_folder, text):
    """Finding 9 of issue 40: a pending file of ``[`` nested 200,000 deep raised a
    RecursionError; foreign keys counted as pending."""
    from taolong_lab.puzzles.atlas import _read_pending, challenges

    path = run_folder / "torus.pending.json"
    path.write_text(text, encoding="utf-8")
    pending = read_or_refuse(lambda p: _read_pending(p, "torus"), path)
    if pending is not None:
        assert set(pending) <= {ident for ident, _ in challenges("torus")}


MANIFEST_FOLDERS = ["torus-novice-11", "field-novice-13", "valley-novice-10"]  # tiny proofs
MANIFESTS = [
    (ROOT / "puzzles" / "proofs" / name / "manifest.json").read_text() for name in MANIFEST_FOLDERS
]


@SMALL
@given(documents(MANIFESTS), st.sampled_from(MANIFEST_FOLDERS))
def test_fuzz_proof_manifests(run_folder, text, name):
    """Finding 9 of issue 40: a manifest holding a 5,000-digit number raised a ValueError.
    Every manifest is read into problems (a list of lines) or one TaoLongError."""
    import shutil

    from taolong_lab.puzzles import proofs

    folder = run_folder / "proof"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(ROOT / "puzzles" / "proofs" / name, folder)
    (folder / "manifest.json").write_text(text, encoding="utf-8")
    found = read_or_refuse(lambda f: proofs.check_folder(f, budget=2000), folder)
    if found is not None:
        assert all(isinstance(p, str) and p for p in found)
        event("checked" if not found else "problems")


def _card(folder: Path):
    """A finished balance card of Pig (two games a cell), its settings' arguments."""
    from tiny_games import PIG

    from taolong_lab.agents import RandomAgent
    from taolong_lab.agents.balance import balance_card

    options = {"game": PIG, "variants": [{"target": 8}], "games": 2, "seed": 3, "max_turns": 30}
    levels = {"random": RandomAgent()}
    path = folder / "card-corpus.json"
    balance_card(levels, out=path, **options)
    return path.read_text(), levels, options


@pytest.fixture(scope="module")
def card_corpus(run_folder):
    return _card(run_folder)


@SMALL
@given(st.data())
def test_fuzz_balance_cards(run_folder, card_corpus, data):
    """Finding 9 of issue 40: a card holding a game ``{}`` raised a KeyError. A mutated card
    is resumed (a game or two played again where it lacks them) or refused in one error."""
    from taolong_lab.agents.balance import balance_card, table

    text, levels, options = card_corpus
    doc = data.draw(st.one_of(documents([text]), mutated_object([text]).map(json.dumps)))
    path = run_folder / "card.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    card = read_or_refuse(lambda p: balance_card(levels, out=p, **options), path)
    if card is not None:
        assert all(len(cell["games"]) == options["games"] for cell in card["cells"])
        assert len(table(card)) == len(card["cells"])


@pytest.fixture(scope="module")
def match_corpus(run_folder):
    from tiny_games import PIG

    from taolong_lab.agents import GreedyAgent, RandomAgent
    from taolong_lab.agents.matches import match

    path = run_folder / "match-corpus.jsonl"
    options = {"games": 2, "seed": 5, "start": PIG.new(target=8), "max_turns": 30, "opening": 2}
    agents = (GreedyAgent(), RandomAgent())
    match(*agents, out=path, **options)
    return path.read_text().splitlines(), agents, options


@SMALL
@given(st.data())
def test_fuzz_match_records(run_folder, match_corpus, data):
    """Finding 9 of issue 40: a record id ``game-abc`` raised a ValueError; records of another
    match were kept. A mutated record file is resumed or refused in one error."""
    from taolong_lab.agents.matches import match

    lines, agents, options = match_corpus
    rows = list(lines)
    i = data.draw(st.integers(0, len(rows) - 1))
    rows[i] = data.draw(st.one_of(documents([rows[i]]), mutated_object([rows[i]]).map(json.dumps)))
    path = run_folder / "match.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = read_or_refuse(lambda p: match(*agents, out=p, **options), path)
    if result is not None:
        assert result.games == options["games"]
