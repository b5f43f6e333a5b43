"""The puzzle generator (taolong_lab.puzzles.generate) and ``taolong generate``."""

from __future__ import annotations

import json

import pytest

from taolong_lab import State, cli
from taolong_lab.cli_generate import add_commands
from taolong_lab.cli_solve import verify_puzzle
from taolong_lab.puzzles import load_puzzles
from taolong_lab.puzzles.generate import (
    GenerateError,
    evaluate,
    generate,
    greedy_line,
    line_is_fair,
    position_key,
)

FAST = {"turns": (1, 3), "progress": False, "time_limit": 10.0}


def _docs(puzzles):
    return [p.to_json() for p in puzzles]


@pytest.fixture(scope="module")
def five():
    return generate(5, seed=0, **FAST)


def test_same_seed_same_puzzles(five):
    assert _docs(generate(5, seed=0, **FAST)) == _docs(five)
    assert _docs(generate(5, seed=1, **FAST)) != _docs(five)


def test_workers_do_not_change_the_puzzles(five):
    assert _docs(generate(5, seed=0, workers=2, **FAST)) == _docs(five)


def test_each_puzzle_replays_to_a_win_in_its_optimum_and_verifies(five, tmp_path):
    assert len(five) == 5
    assert len({position_key(p.start) for p in five}) == 5
    for puzzle in five:
        assert 2 <= puzzle.optimum <= 3  # greedy always wins a win-in-1
        assert len(puzzle.solution) == puzzle.optimum
        end = puzzle.replay()[-1]
        assert end.outcome().winner == puzzle.player
        assert line_is_fair(puzzle.start, puzzle.solution)
        assert verify_puzzle(puzzle, full=True) == []
        assert puzzle.certificate["optimal_first_turns"] >= 1
        assert not greedy_line(puzzle.start, puzzle.optimum)[1]
        assert puzzle.difficulty["grade"] in ("novice", "intermediate", "advanced", "expert")
        prov = puzzle.provenance
        assert prov["seed"] == 0 and prov["candidate"] == int(puzzle.id.rsplit("-", 1)[1])
        assert prov["rules"] == puzzle.rules.token()
    path = tmp_path / "five.jsonl"
    from taolong_lab.puzzles import save_puzzles

    save_puzzles(path, five)
    assert cli.main(["verify", str(path)]) == 0


def test_resume_keeps_the_first_and_adds_no_duplicates(five, tmp_path):
    out = tmp_path / "set.jsonl"
    first = generate(3, seed=0, out=out, **FAST)
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and _docs(first) == _docs(five[:3])
    state = json.loads((tmp_path / "set.jsonl.state.json").read_text())
    assert state["kept"] == 3 and state["next_index"] == five[2].provenance["candidate"] + 1
    more = generate(5, seed=0, out=out, **FAST)
    assert out.read_text().splitlines()[:3] == lines
    assert _docs(more) == _docs(five)
    assert len({position_key(p.start) for p in load_puzzles(out)}) == 5
    again = generate(5, seed=0, out=out, **FAST)  # nothing left to do
    assert _docs(again) == _docs(five)
    with pytest.raises(GenerateError, match="other parameters"):
        generate(5, seed=1, out=out, **FAST)


def test_resume_after_a_crash_between_file_and_sidecar(five, tmp_path):
    out = tmp_path / "set.jsonl"
    generate(3, seed=0, out=out, **FAST)
    (tmp_path / "set.jsonl.state.json").unlink()  # as if the run died before writing it
    assert _docs(generate(5, seed=0, out=out, **FAST)) == _docs(five)


TWO_TURNS = (  # docs/puzzles.md's win-in-2, which the greedy player finds
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 c3-c2-c1-b1:4:0 d6-d7:2:0 "
    "WW/-/BW/-/BB/-/WB/- 2:8 w 1"
)


def test_greedy_wins_are_rejected(monkeypatch):
    import taolong_lab.puzzles.generate as gen

    start = State(TWO_TURNS)
    assert greedy_line(start, 1) == (["He>Fi d3+"], False)
    assert greedy_line(start, 2) == (["He>Fi d3+", "La>Fi d4x"], True)
    monkeypatch.setattr(gen, "candidate", lambda *a: (start, {"source": "test"}))
    job = {
        "seed": 0,
        "index": 7,
        "scenarios": ("field",),
        "modes": ("grasshopper",),
        "turns": (1, 3),
        "time_limit": 10.0,
        "max_states": 20000,
    }
    assert evaluate(job)["reason"] == "trivial (greedy wins)"
    # The same candidate passes every other check: the greedy check is what rejects it.
    monkeypatch.setattr(gen, "greedy_line", lambda state, turns: ([], False))
    result = evaluate(job)
    assert result["kept"] and result["puzzle"]["optimum"] == 2


def test_a_worker_exception_loses_only_its_candidate():
    result = evaluate({"seed": 0, "index": 0, "scenarios": ("field",), "modes": ()})
    assert result["reason"].startswith("error:") and not result["kept"]


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["--count", "x"], "--count"),
        (["--count", "0"], "--count"),
        (["--turns", "3..1"], "--turns"),
        (["--turns", "a-b"], "--turns"),
        (["--scenario", "nowhere"], "--scenario"),
        (["--mode", "all", "monk"], "--mode"),
        (["--seed", "1.5"], "--seed"),
        (["--workers", "0"], "--workers"),
        (["--time-limit", "0"], "--time-limit"),
        (["--out", "x.json"], "--out"),
    ],
)
def test_bad_cli_input_names_the_flag(argv, flag, tmp_path, monkeypatch, capsys):
    _wire(monkeypatch)
    base = {"--count": "2", "--out": str(tmp_path / "x.jsonl")}
    args = ["generate"]
    for name, value in base.items():
        if name not in argv:
            args += [name, value]
    assert cli.main([*args, *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("taolong: error: ") and flag in err


def test_cli_generates_and_resumes(tmp_path, monkeypatch, capsys, five):
    _wire(monkeypatch)
    out = tmp_path / "cli.jsonl"
    argv = ["generate", "--out", str(out), "--turns", "1..3", "--seed", "0", "--no-progress"]
    assert cli.main([*argv, "--count", "2", "--scenario", "field", "--mode", "grasshopper"]) == 0
    assert cli.main([*argv, "--count", "3", "--workers", "2"]) == 0
    assert _docs(load_puzzles(out)) == _docs(five[:3])
    assert "3 puzzles" in capsys.readouterr().out


def _wire(monkeypatch):
    """Add ``generate`` to the ``taolong`` parser (a no-op once cli.py wires it itself)."""
    solver_commands = cli.add_solver_commands

    def both(commands):
        solver_commands(commands)
        add_commands(commands)

    monkeypatch.setattr(cli, "add_solver_commands", both)
