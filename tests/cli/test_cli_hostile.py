"""Hostile command lines (issue 29): files that are no puzzle files, numbers that are no
numbers, crafted certificates, odd entries in the interactive session, a graph with no end.
Each bad input exits 2 with one ``taolong: error:`` line on stderr and no traceback."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taolong_lab import load_puzzles
from taolong_lab.cli import build_parser, main
from taolong_lab.cli.common import MAX_COUNT, MAX_SECONDS
from taolong_lab.cli.session import Session
from taolong_lab.files import MAX_INPUT_BYTES
from taolong_lab.solvers.graph import MAX_DEPTH, MAX_STATES

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "puzzles" / "rulebook-solo.jsonl"
GENERATED = ROOT / "puzzles" / "field-advanced.jsonl"
NOVICE = ROOT / "puzzles" / "field-novice.jsonl"
HUGE = "9" * 5000  # past Python's 4,300-digit limit for int()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_error_line(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.startswith("taolong: error: "), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err


def _doc(path: Path, ident: str) -> dict:
    for line in path.read_text("utf-8").splitlines():
        doc = json.loads(line)
        if doc["id"] == ident:
            return doc
    raise LookupError(ident)


def _write(path: Path, *docs: dict) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


# ---- files that are not puzzle files ---------------------------------------------------------
def _directory(tmp_path: Path) -> Path:
    folder = tmp_path / "set.jsonl"
    folder.mkdir()
    return folder


def _fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


def _oversized(tmp_path: Path) -> Path:
    path = tmp_path / "big.jsonl"
    with path.open("wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1)  # sparse: costs no disk
    return path


def _device(tmp_path: Path) -> Path:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    return Path("/dev/zero")


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (_directory, ["a directory, not a regular file"]),
        (_fifo, ["a pipe, not a regular file"]),
        (_oversized, [f"over the {MAX_INPUT_BYTES:,}-byte limit"]),
        (_device, ["/dev/zero", "a character device"]),
        (lambda tmp: tmp / "absent.jsonl", ["absent.jsonl: No such file or directory"]),
    ],
    ids=["directory", "pipe", "oversized", "device", "missing"],
)
@pytest.mark.parametrize(
    "command", ["verify", "solve", "show", "show --puzzle", "turns", "play", "graph", "puzzles"]
)
def test_a_file_that_is_no_puzzle_file_is_refused_unread(capsys, tmp_path, make, words, command):
    path = str(make(tmp_path))
    argv = {
        "verify": ["verify", path],
        "solve": ["solve", path],
        "show": ["show", path],
        "show --puzzle": ["show", "--puzzle", path],
        "turns": ["turns", path],
        "play": ["play", path],
        "graph": ["graph", path, "--depth", "1", "--out", str(tmp_path / "g.gexf")],
        "puzzles": ["puzzles", path],
    }[command]
    code, out, err = run(capsys, *argv)
    assert out == ""
    assert_one_error_line(code, err, "cannot read", *words)
    assert err.startswith("taolong: error: cannot read")  # the same words for every command


def test_a_file_name_with_a_newline_stays_on_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "verify", str(tmp_path / "two\nlines.jsonl"))
    assert_one_error_line(code, err, "'", "two\\nlines.jsonl")


def test_show_on_dev_zero_in_a_real_process():
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    done = subprocess.run(
        [sys.executable, "-m", "taolong_lab.cli", "show", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "taolong: error: cannot read /dev/zero: a character device, not a regular file\n"
    )


# ---- number options ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", "x.jsonl", "--time-limit", "nan"], ["--time-limit: 'nan' is not a number"]),
        (["solve", "x.jsonl", "--time-limit", "inf"], [f"from 0 to {MAX_SECONDS:,}", "'inf'"]),
        (["solve", "x.jsonl", "--time-limit", "-1"], ["from 0 to", "'-1'"]),
        (["solve", "x.jsonl", "--time-limit", "1e400"], ["from 0 to", "'1e400'"]),
        (["verify", "x.jsonl", "--time-limit", "NaN"], ["--time-limit: 'NaN' is not a number"]),
        (["solve", "x.jsonl", "--max-states", HUGE], [f"from 0 to {MAX_COUNT:,}", "'999"]),
        (["solve", "x.jsonl", "--max-states", "1e5"], ["'1e5' is not a whole number"]),
        (["solve", "x.jsonl", "--conflicts", "\u0663"], ["is not a whole number"]),
        (["graph", "--puzzle", "x", "--out", "g.gexf", "--depth", HUGE], ["--depth: must be"]),
        (
            ["graph", "--puzzle", "x", "--out", "g.gexf", "--depth", str(MAX_DEPTH + 1)],
            [f"from 0 to {MAX_DEPTH:,}"],
        ),
        (
            ["graph", "--puzzle", "x", "--out", "g.gexf", "--depth", "1", "--max-states", "0"],
            ["--max-states: must be from 1"],
        ),
    ],
)
def test_a_number_option_is_a_finite_number_in_its_range(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert out == ""
    assert_one_error_line(code, err, *words)
    assert len(err) < 200  # a 5,000-digit value is not echoed whole


def test_a_number_option_in_range_is_read():
    parser = build_parser()
    args = parser.parse_args(["solve", "x", "--time-limit", "1.5", "--max-states", " 0012 "])
    assert (args.time_limit, args.max_states) == (1.5, 12)
    assert parser.parse_args(["solve", "x", "--max-states", str(MAX_COUNT)]).max_states == MAX_COUNT


# ---- crafted certificates ---------------------------------------------------------------------
def _bound_only(doc: dict, proved) -> dict:
    """A solved SAT puzzle as if its search had stopped: no solution, only the bound."""
    doc = copy.deepcopy(doc)
    for key in ("optimum", "solution", "difficulty"):
        doc.pop(key, None)
    cert = doc["certificate"]
    for key in ("optimum", "optimal_first_turns", "first_turns_by"):
        cert.pop(key, None)
    cert.update(status="unknown", proved_no_win_below=proved)
    return doc


def _sat(change) -> dict:
    doc = copy.deepcopy(_doc(RULEBOOK, "field-white"))
    change(doc["certificate"])
    return doc


def _explicit(change) -> dict:
    doc = copy.deepcopy(_doc(GENERATED, "field-advanced-05"))
    change(doc["certificate"])
    return doc


CRAFTED = {
    "bound 10**12": (
        lambda: _bound_only(_doc(RULEBOOK, "field-white"), 10**12),
        "certificate.proved_no_win_below",
    ),
    "bound 10**30": (
        lambda: _bound_only(_doc(RULEBOOK, "field-white"), 10**30),
        "certificate.proved_no_win_below",
    ),
    "huge unsat horizon": (
        lambda: _sat(lambda c: c.update(unsat_horizons=[2, 3, 4, 5, 6, 10**30])),
        "certificate.unsat_horizons",
    ),
    "unhashable unsat horizons": (
        lambda: _sat(lambda c: c.update(unsat_horizons=[[2], {"3": 4}])),
        "certificate.unsat_horizons",
    ),
    "text horizons": (
        lambda: _sat(lambda c: c["no_win_below_proofs"][0].update(turns="0")),
        "certificate.no_win_below_proofs",
    ),
    "list horizons": (
        lambda: _sat(lambda c: c["no_win_below_proofs"][3].update(turns=[3])),
        "certificate.no_win_below_proofs",
    ),
    "true for a horizon": (
        lambda: _sat(lambda c: c["no_win_below_proofs"][1].update(turns=True)),
        "certificate.no_win_below_proofs",
    ),
    "per_turn turns": (
        lambda: _sat(lambda c: c["per_turn"][0].update(turn={"1": 1})),
        "certificate.per_turn",
    ),
    "per_turn with a number for unsat_horizons": (
        lambda: _bound_only(_sat(lambda c: c.update(unsat_horizons=5)), 7),
        "certificate.unsat_horizons",
    ),
    "cross_check a list": (
        lambda: _explicit(lambda c: c.update(cross_check=[1, 2])),
        "certificate.cross_check",
    ),
    "cross_check optimum a list": (
        lambda: _explicit(lambda c: c["cross_check"].update(optimum=[7])),
        "certificate.cross_check.optimum",
    ),
    "greedy_line an object": (
        lambda: _explicit(lambda c: c.update(greedy_line={"a": 1})),
        "certificate.greedy_line",
    ),
    "no_win_within rows of lists": (
        lambda: _explicit(lambda c: c.update(no_win_within=[[0, 1]] * 7)),
        "certificate.no_win_within",
    ),
}


# numbers past the reader's 20 digits: the puzzle file itself is refused, naming the field
READER_REFUSES = {"bound 10**30", "huge unsat horizon"}


@pytest.mark.parametrize("case", list(CRAFTED))
def test_verify_on_a_crafted_certificate_names_the_field(capsys, tmp_path, case):
    make, field = CRAFTED[case]
    path = _write(tmp_path / "crafted.jsonl", make())
    code, out, err = run(capsys, "verify", str(path))
    if case in READER_REFUSES:
        assert_one_error_line(code, err, f"crafted.jsonl:1: {field}", "more than 20 digits")
        return
    assert_one_error_line(code, err, "problem(s), listed above; the first: ", ": certificate.")
    assert "FAIL" in out and f"\n  {field}: " in out


# ---- the interactive session ------------------------------------------------------------------
ODD_ENTRIES = [
    "\u00b2",  # a superscript two: str.isdigit() is true, int() refuses it
    "\u0661\u0662",  # Arabic-Indic digits
    HUGE,
    "9" * 900,
    "x" * 5000,
    "He a" + " " * 40000 + "a1",
    "\x00",
    "\x1b[2J",
    "00000000000001",  # turn 1, last: it may end the game
]


def test_odd_entries_in_a_session_get_a_message_not_an_internal_error():
    puzzle = next(p for p in load_puzzles(NOVICE) if p.id == "field-novice-03")
    first = puzzle.start.legal_turns()[0]
    entries = "".join(e + "\n" for e in ODD_ENTRIES) + "quit\n"
    done = subprocess.run(
        [sys.executable, "-m", "taolong_lab.cli", "play", "--puzzle", f"{NOVICE}:field-novice-03"],
        input=entries,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "internal error" not in done.stdout
    assert f"longer than {Session.MAX_ENTRY} characters" in done.stdout
    assert "There is no turn 999999999...: enter 1 to" in done.stdout
    assert f"\n1. {first}\n" in done.stdout  # the zeros before 1 still name turn 1


# ---- graph ----------------------------------------------------------------------------------
def test_graph_has_a_default_budget_of_positions(capsys):
    args = build_parser().parse_args(["graph", "--puzzle", "x", "--depth", "30", "--out", "g"])
    assert args.max_states == MAX_STATES
    assert main(["graph", "--help"]) == 0
    assert f"default {MAX_STATES:,}" in capsys.readouterr().out


def test_graph_stops_at_its_budget_and_shows_progress(tmp_path):
    out = tmp_path / "g.graphml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "taolong_lab.cli",
            "graph",
            "--puzzle",
            f"{GENERATED}:field-advanced-05",
            "--depth",
            "30",
            "--max-states",
            "300",
            "--progress",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "stopped at --max-states 300" in done.stdout
    assert "positions" in done.stderr  # the bar
    import networkx as nx

    assert 1 < nx.read_graphml(out).number_of_nodes() <= 300
