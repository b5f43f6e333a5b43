"""The solve / verify / graph commands (taolong_lab.cli.solve, .verify, .graph)."""

from __future__ import annotations

import io
import json

import networkx as nx
import pytest
from small_wins import WIN_IN_1, WIN_IN_2, WIN_IN_2_LINE

from taolong_lab import State
from taolong_lab.cli import build_parser
from taolong_lab.cli.common import CommandError, UsageError
from taolong_lab.errors import TaoLongError
from taolong_lab.files import InputFileError
from taolong_lab.puzzles import Puzzle, save_puzzles


def run(*argv) -> tuple[int, str]:
    args = build_parser().parse_args(argv)
    out = io.StringIO()
    return args.run(args, out), out.getvalue()


@pytest.fixture
def puzzles(tmp_path):
    path = tmp_path / "set.jsonl"
    save_puzzles(
        path,
        [
            Puzzle.from_state("one", "win in 1", State(WIN_IN_1), optimum=1, solution=["Ea>Mo ="]),
            Puzzle.from_state(
                "two", "win in 2", State(WIN_IN_2), optimum=2, solution=WIN_IN_2_LINE
            ),
        ],
    )
    return path


def test_solve_prints_optimum_line_and_certificate(puzzles):
    code, text = run("solve", f"{puzzles}:two")
    assert code == 0
    assert "two: optimal: win in 2" in text and "certificate:" in text and "  1. " in text
    code, text = run("solve", str(puzzles), "--json")
    docs = [json.loads(line) for line in text.splitlines()]
    assert [d["id"] for d in docs] == ["one", "two"] and [d["optimum"] for d in docs] == [1, 2]
    assert docs[1]["certificate"]["no_win_within"][1]["turns"] == 1


def test_solve_unknown_within_budget_exits_non_zero(puzzles):
    code, text = run("solve", f"{puzzles}:two", "--max-states", "0")
    assert code == 1 and "unknown" in text and "no win below 1 proved now" in text
    assert "between 1 and 2 turns" in text  # the stored line wins in 2


def test_solve_bad_input(puzzles, tmp_path):
    with pytest.raises(CommandError, match="no puzzle 'nope'; its ids: one, two"):
        run("solve", f"{puzzles}:nope")
    with pytest.raises(InputFileError, match=r"missing\.jsonl: No such file or directory"):
        run("solve", str(tmp_path / "missing.jsonl"))
    with pytest.raises(UsageError, match="--time-limit: must be from 0"):
        run("solve", str(puzzles), "--time-limit", "-1")


def test_verify_ok_and_full(puzzles):
    code, text = run("verify", str(puzzles))
    assert code == 0 and "one: ok (win in 1)" in text and "two: ok" in text
    code, text = run("verify", str(puzzles), "--full")
    assert code == 0 and "optimum re-proved" in text


def test_verify_catches_a_wrong_optimum(tmp_path):
    """A legal 3-turn win stored as the optimum of the win-in-2 challenge: the replay passes,
    ``--full`` re-proves the optimum and fails."""
    path = tmp_path / "bad.jsonl"
    slow = ["He>Fi b2+", "Wa>Fi (He:e6,e5 La:d5 Fi:d4x) c2x", "Fi>Wa (Th:~ Wa:d3x) c3x"]
    save_puzzles(
        path, [Puzzle.from_state("slow", "not optimal", State(WIN_IN_2), optimum=3, solution=slow)]
    )
    assert run("verify", str(path))[0] == 0  # the replay alone is fine
    with pytest.raises(TaoLongError, match="the optimum is 2"):
        run("verify", str(path), "--full")


def test_verify_catches_a_losing_solution(tmp_path):
    path = tmp_path / "bad.jsonl"
    save_puzzles(
        path,
        [Puzzle.from_state("x", "x", State(WIN_IN_2), optimum=1, solution=[WIN_IN_2_LINE[0]])],
    )
    with pytest.raises(CommandError, match="does not win"):
        run("verify", str(path))


@pytest.mark.parametrize("suffix", [".graphml", ".gexf"])
def test_graph_writes_a_file(puzzles, tmp_path, suffix):
    out = tmp_path / f"g{suffix}"
    code, text = run("graph", "--puzzle", f"{puzzles}:two", "--depth", "2", "--out", str(out))
    assert code == 0 and "positions" in text
    read = nx.read_graphml if suffix == ".graphml" else nx.read_gexf
    g = read(out, node_type=int)
    assert g.nodes[0]["turns_to_win"] == 2
    with pytest.raises(CommandError, match="graphml"):
        run("graph", "--puzzle", str(puzzles), "--depth", "1", "--out", str(tmp_path / "g.txt"))


def test_solve_checkpoint_resumes_across_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("TAOLONG_LAB_KEY", str(tmp_path / "checkpoint.key"))  # not the user's
    path = tmp_path / "start.jsonl"
    from taolong_lab import solo_game

    start = solo_game(segments={"black": 1}, water={"black": 2})
    save_puzzles(path, [Puzzle.from_state("weak-black", "weak black", start)])
    ckpt = tmp_path / "ckpt"
    code, text = run("solve", str(path), "--max-states", "12", "--checkpoint", str(ckpt))
    assert code == 1 and "unknown" in text
    assert [p.name for p in ckpt.iterdir()] == ["weak-black.ckpt"]
    runs = 1
    while code != 0:
        code, text = run("solve", str(path), "--max-states", "12", "--checkpoint", str(ckpt))
        runs += 1
        assert runs < 50
    assert "weak-black: optimal: win in 4" in text and runs > 2
    with pytest.raises(CommandError, match="--checkpoint"):
        run("solve", str(path), "--checkpoint", str(path))


def test_solve_with_sat_and_auto_agree_with_explicit(puzzles):
    code, text = run("solve", str(puzzles), "--json", "--method", "sat")
    docs = [json.loads(line) for line in text.splitlines()]
    assert code == 0 and [d["optimum"] for d in docs] == [1, 2]
    assert all("sat" in d["certificate"]["solver"] for d in docs)
    assert docs[1]["certificate"]["unsat_horizons"] == [1]
    code, text = run("solve", f"{puzzles}:two", "--method", "sat")
    assert "two: optimal: win in 2" in text and "UNSAT answer" in text
    code, text = run("solve", f"{puzzles}:two", "--method", "auto", "--json")
    assert code == 0 and json.loads(text)["optimum"] == 2
    code, text = run("solve", f"{puzzles}:two", "--method", "race", "--json")
    doc = json.loads(text)
    assert code == 0 and doc["optimum"] == 2
    assert doc["stats"]["race"]["winner"] in doc["certificate"]["solver"]


def test_solve_rejects_an_option_of_the_other_solver(puzzles):
    with pytest.raises(CommandError, match="--max-states does not apply to the sat solver"):
        run("solve", str(puzzles), "--method", "sat", "--max-states", "10")
    with pytest.raises(CommandError, match="--conflicts does not apply to the explicit"):
        run("solve", str(puzzles), "--conflicts", "10")
    with pytest.raises(CommandError, match="--checkpoint does not apply to the race"):
        run("solve", str(puzzles), "--method", "race", "--checkpoint", "x")


@pytest.mark.parametrize("method", ["sat", "other"])
def test_verify_full_with_the_other_solver(puzzles, method):
    code, text = run("verify", str(puzzles), "--full", "--method", method)
    assert code == 0 and text.count("optimum re-proved") == 2


def test_a_sat_certificate_is_rechecked_by_the_explicit_solver(tmp_path):
    from taolong_lab.puzzles.verify import reproving_method
    from taolong_lab.solvers import solve

    found = solve(State(WIN_IN_2), method="sat")
    path = tmp_path / "sat.jsonl"
    puzzle = Puzzle.from_state(
        "two",
        "win in 2",
        State(WIN_IN_2),
        optimum=2,
        solution=found.line.notation(),
        certificate=found.certificate,
    )
    save_puzzles(path, [puzzle])
    assert reproving_method(puzzle, "other") == "explicit"
    code, text = run("verify", str(path), "--full", "--method", "other")
    assert code == 0 and "optimum re-proved" in text
