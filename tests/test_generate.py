"""The puzzle generator (taolong_lab.puzzles.generate) and ``taolong generate``."""

from __future__ import annotations

import json

import pytest

from taolong_lab import State, cli
from taolong_lab.cli_generate import add_commands
from taolong_lab.cli_solve import verify_puzzle
from taolong_lab.puzzles import load_puzzles
from taolong_lab.puzzles.format import PuzzleError, append_puzzle
from taolong_lab.puzzles.generate import (
    SOURCE_NAMES,
    CrossCheckWarning,
    GenerateError,
    count_optimal_lines,
    cross_check,
    difficulty,
    evaluate,
    generate,
    greedy_line,
    line_is_fair,
    optimal_counts,
    position_key,
    repair_tail,
    tier_of,
    win_in_1_ok,
)

FAST = {"turns": (1, 3), "progress": False, "time_limit": 10.0}


def _docs(puzzles):
    """The puzzles' JSON, without the one wall-clock field (the cross-check's seconds)."""
    docs = [p.to_json() for p in puzzles]
    for doc in docs:
        doc["certificate"]["cross_check"].pop("seconds")
    return docs


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
        assert 1 <= puzzle.optimum <= 3
        assert len(puzzle.solution) == puzzle.optimum
        end = puzzle.replay()[-1]
        assert end.outcome().winner == puzzle.player
        assert line_is_fair(puzzle.start, puzzle.solution)
        assert verify_puzzle(puzzle, full=True) == []
        assert puzzle.certificate["optimal_first_turns"] >= 1
        greedy_wins = greedy_line(puzzle.start, puzzle.optimum)[1]
        assert greedy_wins == (puzzle.optimum == 1)  # win-in-1: the documented exception
        assert puzzle.certificate["greedy_wins_within_optimum"] == greedy_wins
        assert puzzle.difficulty["grade"] == puzzle.difficulty["tier"] == tier_of(puzzle.optimum)
        score = puzzle.difficulty["score"]
        assert puzzle.optimum <= score < puzzle.optimum + 1
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
        (["--source", "nowhere"], "--source"),
        (["--source", "all", "played"], "--source"),
        (["--scheduler", "nonsense"], "--scheduler"),
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


# ---- sources ------------------------------------------------------------------------------------
@pytest.mark.parametrize("source", ["random", "played", "backward"])
def test_each_source_yields_kept_puzzles_deterministically(source):
    options = {**FAST, "turns": (1, 4), "scenarios": "all", "sources": (source,), "seed": 5}
    puzzles = generate(2, **options)
    assert len(puzzles) == 2
    for puzzle in puzzles:
        assert puzzle.provenance["source"] == SOURCE_NAMES[source]
        assert verify_puzzle(puzzle, full=False) == []
    assert _docs(generate(2, **options)) == _docs(puzzles)


def test_the_sources_are_drawn_per_candidate(five):
    from taolong_lab.puzzles.generate import SOURCES, candidate

    names = {candidate(0, i, ("field", "valley"), ("grasshopper",))[1]["source"] for i in range(12)}
    assert names == {SOURCE_NAMES[name] for name in SOURCES}  # "line" only when named
    one, drawn = candidate(3, 4, ("field",), ("grasshopper",), ("played",))
    again, drawn_again = candidate(3, 4, ("field",), ("grasshopper",), ("played",))
    assert one.to_tln() == again.to_tln() and drawn == drawn_again
    assert {"epsilon", "game_turns", "picked_turn", "bagua_seed"} <= set(drawn)


def test_the_line_source_walks_a_proved_line():
    from taolong_lab.puzzles.generate import candidate
    from taolong_lab.puzzles.rulebook import SHIPPED

    proved = {p.id: p for p in load_puzzles(SHIPPED, check_solutions=False)}
    for index in range(6):
        state, drawn = candidate(1, index, ("torus", "mist"), ("grasshopper",), ("line",), (3, 4))
        assert drawn["source"] == "proved-line/v1"
        challenge = proved[drawn["line"]]
        assert challenge.rules.scenario in ("torus", "mist")
        assert 3 <= challenge.optimum - drawn["ply"] <= 4
        expected = challenge.start
        for text in challenge.solution[: drawn["ply"]]:
            expected = expected.play(text)
        assert state.to_tln() == expected.to_tln()
    [puzzle] = generate(1, scenarios=("torus",), sources=("line",), turns=(3, 3), progress=False)
    assert puzzle.optimum == 3 and puzzle.provenance["source"] == "proved-line/v1"
    # no challenge fits: a random solo position instead
    _, drawn = candidate(1, 0, ("torus",), ("grasshopper",), ("line",), (20, 20))
    assert drawn["line"] is None and "opponent_segments" in drawn


def test_the_village_is_drawn_with_the_opponent_protecting_it():
    from taolong_lab.puzzles.generate import candidate

    villages = [candidate(1, i, ("field",), ("grasshopper",), ("random",)) for i in range(15)]
    drawn = [(s, d) for s, d in villages if d["village"]]
    assert 1 <= len(drawn) < 15
    for state, d in drawn:
        assert state.rules.option("village") == d["village"] != state.to_move
    walled = [candidate(1, i, ("wall",), ("grasshopper",), ("random",))[1] for i in range(6)]
    assert not any(d["village"] for d in walled)  # The Wall has no Village


# ---- counting the optimal lines -----------------------------------------------------------------
ONE_TURN = (  # the explicit solver's docstring position: one winning turn
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
    "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"
)


def _brute_lines(state, turns):
    """Every sequence of ``turns`` turns, counted when the game is won exactly at its end."""
    result = state.outcome()
    if result is not None:
        return int(turns == 0 and result.winner == state.to_move)
    if turns == 0:
        return 0
    return sum(_brute_lines(after, turns - 1) for _, after in state.successors())


def test_optimal_lines_match_brute_force_and_the_retrograde_count(five):
    from taolong_lab.solvers.graph import explore, retrograde

    starts = [(State(ONE_TURN), 1), (State(TWO_TURNS), 2)]
    starts += [(p.start, p.optimum) for p in five if p.optimum <= 3]
    for start, optimum in starts:
        count, exact = count_optimal_lines(start, optimum)
        assert exact and count >= 1
        assert count == _brute_lines(start, optimum)
        graph = explore(start, depth=optimum)
        assert retrograde(graph).solutions[0] == count
    for puzzle in five:
        assert puzzle.certificate["optimal_lines"] >= puzzle.certificate["optimal_first_turns"]


def test_optimal_first_turns_match_the_explicit_solvers_count(five):
    from taolong_lab.solvers import solve

    starts = [(State(ONE_TURN), 1), (State(TWO_TURNS), 2)]
    starts += [(p.start, p.optimum) for p in five]
    for start, optimum in starts:
        counted = solve(start, method="explicit", progress=False).optimal_first_turns
        assert optimal_counts(start, optimum).first_turns == counted
        assert optimal_counts(start, optimum, cap=1).first_turns == counted  # past the cap
    for puzzle in five:
        first = solve(puzzle, method="explicit", progress=False).optimal_first_turns
        assert puzzle.certificate["optimal_first_turns"] == first


def test_optimal_lines_say_when_they_are_a_lower_bound():
    start = State(TWO_TURNS)
    full, exact = count_optimal_lines(start, 2)
    assert exact and full > 1
    assert count_optimal_lines(start, 2, cap=1) == (1, False)
    partial, exact = count_optimal_lines(start, 2, max_states=1)
    assert not exact and partial < full
    counted = optimal_counts(start, 2)
    cut = optimal_counts(start, 2, max_states=1)
    assert counted.first_turns_exact and not cut.first_turns_exact
    assert cut.first_turns < counted.first_turns
    assert not optimal_counts(start, 2, time_limit=1e-9).first_turns_exact
    assert count_optimal_lines(start, 1) == (0, True)  # no win in one


# ---- the cross-check ----------------------------------------------------------------------------
def test_cross_checks_are_recorded_and_agree(five):
    for puzzle in five:
        check = puzzle.certificate["cross_check"]
        assert check["solver"] == "taolong_lab.solvers.sat"
        assert check["agrees"] is True and check["optimum"] == puzzle.optimum
        assert check["seconds"] >= 0 and check["method"]


def test_cross_check_catches_a_wrong_optimum():
    start = State(TWO_TURNS)
    assert cross_check(start, 2, 10.0, 20000)["agrees"] is True
    assert cross_check(start, 3, 10.0, 20000)["agrees"] is False  # SAT finds a win in 2
    monk = State(TWO_TURNS.replace("grasshopper", "monk"))
    from taolong_lab.solvers.explicit import solve

    optimum = solve(monk, progress=False).optimum
    check = cross_check(monk, optimum, 10.0, 20000)
    assert check["solver"] == "taolong_lab.solvers.explicit.win_within"
    assert check["agrees"] is True and check["optimum"] == optimum
    assert cross_check(monk, optimum + 1, 10.0, 20000)["agrees"] is False
    assert cross_check(monk, optimum - 1, 10.0, 20000)["agrees"] is False
    assert cross_check(monk, optimum, 10.0, 0)["agrees"] is None  # out of budget: unknown


def test_a_disagreeing_cross_check_rejects_warns_and_is_counted(monkeypatch, tmp_path):
    import taolong_lab.puzzles.generate as gen

    def wrong(state, optimum, time_limit, max_states):
        return {"solver": "test", "method": "test", "optimum": optimum + 1, "agrees": False}

    monkeypatch.setattr(gen, "cross_check", wrong)
    out = tmp_path / "bad.jsonl"
    with pytest.warns(CrossCheckWarning, match="cross-check disagrees"):
        assert generate(1, seed=0, out=out, max_candidates=6, **FAST) == []
    reasons = json.loads((tmp_path / "bad.jsonl.state.json").read_text())["reasons"]
    assert reasons["cross-check disagrees"] >= 1


# ---- win-in-1 and the grade ---------------------------------------------------------------------
def test_the_win_in_1_rule():
    assert win_in_1_ok(2, 8) and win_in_1_ok(1, 30)
    assert not win_in_1_ok(1, 7)  # too few legal turns
    assert not win_in_1_ok(3, 11)  # more than a quarter of them win
    start = State(ONE_TURN)
    job = {
        "seed": 0,
        "index": 0,
        "turns": (1, 3),
        "time_limit": 10.0,
        "max_states": 20000,
    }
    import taolong_lab.puzzles.generate as gen

    result = gen._evaluate_state(start, {"source": "test"}, job)
    expected = win_in_1_ok(1, len(start.successors()))
    assert result["kept"] == expected
    if not expected:
        assert result["reason"] == "win-in-1 too easy"
    else:
        assert result["puzzle"]["certificate"]["greedy_wins_within_optimum"] is True


def test_tiers_and_scores_never_cross():
    assert [tier_of(n) for n in range(1, 10)] == [
        "novice",
        "novice",
        "intermediate",
        "intermediate",
        "advanced",
        "advanced",
        "advanced",
        "expert",
        "expert",
    ]
    with pytest.raises(GenerateError, match="optimum"):
        tier_of(0)
    for optimum in range(1, 10):
        hardest = difficulty(optimum, 1, 10**6, 10**9, optimal_lines=1, greedy_turns=None)
        easiest = difficulty(optimum, 50, 50, 0, optimal_lines=10**6, greedy_turns=optimum)
        assert optimum <= easiest["score"] < hardest["score"] < optimum + 1
        assert hardest["tier"] == hardest["grade"] == tier_of(optimum)
    base = difficulty(3, 4, 20, 100, optimal_lines=5, greedy_turns=5)
    assert difficulty(3, 1, 20, 100, optimal_lines=5, greedy_turns=5)["score"] > base["score"]
    assert difficulty(3, 4, 20, 100, optimal_lines=1, greedy_turns=5)["score"] > base["score"]
    assert difficulty(3, 4, 20, 100, optimal_lines=5, greedy_turns=None)["score"] > base["score"]
    for name in ("optimal_first_turns", "branching", "optimal_lines", "expanded", "formula"):
        assert name in base
    assert base["greedy_shortfall"] == 2


# ---- appending and the torn last line -----------------------------------------------------------
def test_append_puzzle_adds_whole_lines(five, tmp_path):
    path = tmp_path / "a.jsonl"
    append_puzzle(path, five[0])
    append_puzzle(path, five[1])
    text = path.read_text()
    assert text.endswith("\n") and len(text.splitlines()) == 2
    assert _docs(load_puzzles(path)) == _docs(five[:2])
    with pytest.raises(PuzzleError, match="jsonl"):
        append_puzzle(tmp_path / "a.json", five[0])


def test_repair_tail_cuts_only_a_torn_last_line(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n')
    assert repair_tail(path) == 0
    path.write_bytes(b'{"a": 1}\n{"b": 2')
    assert repair_tail(path) == 1 and path.read_bytes() == b'{"a": 1}\n'
    path.write_bytes(b'{"a": 1}\n{"b": \n')
    assert repair_tail(path) == 1 and path.read_bytes() == b'{"a": 1}\n'
    path.write_bytes(b'{"a"')
    assert repair_tail(path) == 1 and path.read_bytes() == b""


def test_a_torn_last_line_is_repaired_and_the_run_resumes(five, tmp_path):
    out = tmp_path / "set.jsonl"
    generate(3, seed=0, out=out, **FAST)
    whole = out.read_bytes()
    last = whole[: whole.rstrip(b"\n").rfind(b"\n") + 1]
    out.write_bytes(last + whole[len(last) : len(whole) - 40])  # the third line, torn
    (tmp_path / "set.jsonl.state.json").unlink()  # the crash came before the sidecar
    with pytest.warns(UserWarning, match="torn"):
        again = generate(5, seed=0, out=out, **FAST)
    assert _docs(again) == _docs(five)
    assert _docs(load_puzzles(out)) == _docs(five)  # no duplicate, no torn line
    reasons = json.loads((tmp_path / "set.jsonl.state.json").read_text())["reasons"]
    assert reasons["torn line repaired"] == 1


def test_the_progress_postfix_reports_the_rates(monkeypatch):
    import taolong_lab.puzzles.generate as gen

    run = gen._Run(1, {}, None)
    rates = run.rates()
    assert set(rates) == {"kept", "tried", "cand_per_s", "puzzles_per_min"}


def test_a_crash_in_one_candidate_loses_only_that_candidate(monkeypatch, tmp_path, five):
    import taolong_lab.puzzles.generate as gen

    real = gen.evaluate

    def crashing(job):
        if job["index"] == 1:
            raise RuntimeError("boom")
        return real(job)

    monkeypatch.setattr(gen, "evaluate", crashing)
    out = tmp_path / "crash.jsonl"
    kept = generate(3, seed=0, out=out, **FAST)
    assert _docs(kept) == [d for d in _docs(five) if d["id"] != "gen-0-1"][:3]
    reasons = json.loads((tmp_path / "crash.jsonl.state.json").read_text())["reasons"]
    assert reasons["error: RuntimeError: boom"] == 1


def test_ctrl_c_stops_the_command_and_says_how_to_resume(tmp_path, monkeypatch, capsys):
    import taolong_lab.puzzles.generate as gen

    def interrupted(count, **options):
        raise KeyboardInterrupt

    _wire(monkeypatch)
    monkeypatch.setattr(gen, "generate", interrupted)
    out = tmp_path / "c.jsonl"
    assert cli.main(["generate", "--count", "2", "--out", str(out), "--no-progress"]) == 130
    assert "resumes" in capsys.readouterr().out
