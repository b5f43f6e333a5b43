"""The puzzle generator (taolong_lab.puzzles.generate) and ``taolong generate``."""

from __future__ import annotations

import hashlib
import json
import math
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from taolong_lab import State, TaoLongError, cli
from taolong_lab.puzzles import load_puzzles
from taolong_lab.puzzles.analysis import (
    count_optimal_lines,
    cross_check,
    greedy_line,
    line_is_fair,
    optimal_counts,
)
from taolong_lab.puzzles.format import PuzzleError, append_puzzle, puzzles_text
from taolong_lab.puzzles.generate import (
    CrossCheckWarning,
    GenerateError,
    evaluate,
    generate,
    repair_tail,
)
from taolong_lab.puzzles.grade import GradeError, difficulty, tier_of, win_in_1_ok
from taolong_lab.puzzles.sources import SOURCE_NAMES, position_key
from taolong_lab.puzzles.verify import verify_puzzle
from taolong_lab.runner import Runner

# budgets in positions, not seconds: the same candidates kept on a loaded machine
FAST = {"turns": (1, 3), "time_limit": None, "max_states": 50_000}


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
    assert _docs(generate(5, seed=0, runner=Runner(workers=2), **FAST)) == _docs(five)


def test_each_puzzle_replays_to_a_win_in_its_optimum_and_verifies(five, tmp_path):
    assert len(five) == 5
    assert len({position_key(p.start) for p in five}) == 5
    for puzzle in five:
        assert 1 <= puzzle.optimum <= 3
        assert len(puzzle.solution) == puzzle.optimum
        end = puzzle.replay()[-1]
        assert end.outcome().winner == puzzle.player
        assert line_is_fair(puzzle.line)
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
        (["--scheduler", "tcp://127.0.0.1:0"], "--scheduler"),
        (["--time-limit", "nan"], "--time-limit"),
        (["--time-limit", "inf"], "--time-limit"),
        (["--time-limit", "-inf"], "--time-limit"),
        (["--time-limit", "1e999"], "--time-limit"),
        (["--time-limit", "86401"], "--time-limit"),
        (["--count", "9" * 5000], "--count"),
        (["--count", "1000001"], "--count"),
        (["--workers", "100000"], "--workers"),
        (["--workers", "9" * 5000], "--workers"),
        (["--seed", "-1"], "--seed"),
        (["--seed", str(2**64)], "--seed"),
        (["--seed", "9" * 5000], "--seed"),
        (["--turns", "1..101"], "--turns"),
        (["--turns", "1.." + "9" * 5000], "--turns"),
        (["--tls-cert", "cert.pem"], "--tls-cert"),
        (["--scheduler", "tls://127.0.0.1:8786", "--tls-ca-file", "/nowhere.pem"], "--tls-ca"),
    ],
)
def test_bad_cli_input_names_the_flag(argv, flag, tmp_path, capsys):
    base = {"--count": "2", "--out": str(tmp_path / "x.jsonl")}
    args = ["generate"]
    for name, value in base.items():
        if name not in argv:
            args += [name, value]
    assert cli.main([*args, *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("taolong: error: ") and flag in err
    assert err.count("\n") == 1 and len(err) < 500  # one line, the input not echoed whole
    assert list(tmp_path.iterdir()) == []  # refused before anything was written


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"count": 10**5000}, "count"),
        ({"count": -1}, "count"),
        ({"count": 2.0}, "count"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"runner": 2}, "runner"),
        ({"turns": (1, 10**5000)}, "turns max"),
        ({"turns": (0, 3)}, "turns min"),
        ({"turns": "1..3"}, "turns"),
        ({"time_limit": math.inf}, "time_limit"),
        ({"time_limit": math.nan}, "time_limit"),
        ({"time_limit": "10"}, "time_limit"),
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": 10**5000}, "time_limit"),
        ({"time_limit": 86_400.5}, "time_limit"),
        ({"max_states": 0}, "max_states"),
        ({"max_candidates": -1}, "max_candidates"),
    ],
)
def test_bad_options_are_refused_before_the_file_is_read(options, field, tmp_path):
    out = tmp_path / "x.jsonl"
    options = {"count": 1, "seed": 0, "out": out, **FAST, **options}
    count = options.pop("count")
    with pytest.raises(TaoLongError, match=field):
        generate(count, **options)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["garbage", "tcp://127.0.0.1:1"])
def test_a_bad_scheduler_is_one_line_and_exit_2(address, tmp_path):
    """In a process of its own: the command ends by itself, with one line and no traceback (a
    half-built Dask client used to print one at exit)."""
    pytest.importorskip("distributed")
    root = Path(__file__).resolve().parents[2]
    argv = ["generate", "--count", "1", "--out", str(tmp_path / "x.jsonl"), "--no-progress"]
    code = "import sys; from taolong_lab.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", code, *argv, "--scheduler", address],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=120,  # a guard against a hang, not a measure of speed
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("taolong: error: --scheduler") and address in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_cli_warnings_are_one_line_each(tmp_path, monkeypatch, capsys):
    import taolong_lab.puzzles.generate as gen

    def warned(count, **options):
        warnings.warn(f"{options['out']}: cut away\nthe torn line", UserWarning, stacklevel=2)
        return []

    monkeypatch.setattr(gen, "generate", warned)
    out = tmp_path / "w.jsonl"
    assert cli.main(["generate", "--count", "1", "--out", str(out), "--no-progress"]) == 1
    assert capsys.readouterr().err == f"taolong: warning: {out}: cut away the torn line\n"


def test_cli_tls_flags_become_dask_security_settings(tmp_path, monkeypatch):
    from taolong_lab import runner
    from taolong_lab.cli.generate import parse

    monkeypatch.setattr(runner, "check_scheduler", lambda *_: None)  # the files are not PEM
    files = {name: tmp_path / f"{name}.pem" for name in ("ca", "cert", "key")}
    for path in files.values():
        path.write_text("PEM\n")
    parser = cli.build_parser()
    argv = ["generate", "--count", "1", "--out", str(tmp_path / "t.jsonl")]
    argv += ["--scheduler", "tls://127.0.0.1:8786", "--tls-ca-file", str(files["ca"])]
    argv += ["--tls-cert", str(files["cert"]), "--tls-key", str(files["key"])]
    assert parse(parser.parse_args(argv))["runner"].security == {
        "tls_ca_file": str(files["ca"]),
        "tls_client_cert": str(files["cert"]),
        "tls_client_key": str(files["key"]),
    }
    assert parse(parser.parse_args(argv[:7]))["runner"].security is None  # Dask's config


def test_cli_generates_and_resumes(tmp_path, capsys, five):
    out = tmp_path / "cli.jsonl"
    argv = ["generate", "--out", str(out), "--turns", "1..3", "--seed", "0", "--no-progress"]
    assert cli.main([*argv, "--count", "2", "--scenario", "field", "--mode", "grasshopper"]) == 0
    assert cli.main([*argv, "--count", "3", "--workers", "2"]) == 0
    assert _docs(load_puzzles(out)) == _docs(five[:3])
    assert "3 puzzles" in capsys.readouterr().out


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
    from taolong_lab.puzzles.sources import SOURCES, candidate

    names = {candidate(0, i, ("field", "valley"), ("grasshopper",))[1]["source"] for i in range(12)}
    assert names == {SOURCE_NAMES[name] for name in SOURCES}  # "line" only when named
    one, drawn = candidate(3, 4, ("field",), ("grasshopper",), ("played",))
    again, drawn_again = candidate(3, 4, ("field",), ("grasshopper",), ("played",))
    assert one.to_tln() == again.to_tln() and drawn == drawn_again
    assert {"epsilon", "game_turns", "picked_turn", "bagua_seed"} <= set(drawn)


def test_the_line_source_walks_a_proved_line():
    from taolong_lab.puzzles.rulebook import SHIPPED
    from taolong_lab.puzzles.sources import candidate

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
    [puzzle] = generate(1, scenarios=("torus",), sources=("line",), turns=(3, 3))
    assert puzzle.optimum == 3 and puzzle.provenance["source"] == "proved-line/v1"
    # no challenge fits: a random solo position instead
    _, drawn = candidate(1, 0, ("torus",), ("grasshopper",), ("line",), (20, 20))
    assert drawn["line"] is None and "opponent_segments" in drawn


def test_the_village_is_drawn_with_the_opponent_protecting_it():
    from taolong_lab.puzzles.sources import candidate

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
        counted = solve(start, method="explicit").optimal_first_turns
        assert optimal_counts(start, optimum).first_turns == counted
        assert optimal_counts(start, optimum, cap=1).first_turns == counted  # past the cap
    for puzzle in five:
        first = solve(puzzle, method="explicit").optimal_first_turns
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

    optimum = solve(monk).optimum
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
    with pytest.raises(GradeError, match="optimum"):
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


def _sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_repair_tail_cuts_only_the_torn_append_it_recorded(tmp_path):
    path = tmp_path / "t.jsonl"
    kept = b'{"a": 1}\n'
    written = {
        "size": len(kept),
        "sha256": hashlib.sha256(kept).hexdigest(),
        "appending": '{"b": 2}\n',
    }
    path.write_bytes(kept + b'{"b"')  # the append, torn
    assert repair_tail(path, written) == 1 and path.read_bytes() == kept
    for untouched in (
        kept + b'{"b": 2}\n',  # the append went through
        kept + b'{"c"',  # not the line being appended
        b'{"A": 1}\n{"b"',  # the bytes before it changed since
        kept[:-1],  # shorter than recorded
    ):
        path.write_bytes(untouched)
        assert repair_tail(path, written) == 0 and path.read_bytes() == untouched
    path.write_bytes(kept + b'{"b"')
    assert repair_tail(path, None) == 0  # no sidecar: never cut
    assert repair_tail(path, {**written, "appending": None}) == 0  # nothing was being appended
    assert path.read_bytes() == kept + b'{"b"'


class Crash(BaseException):
    """A kill -9 in the middle of an append."""


def _crash_mid_append(out, monkeypatch) -> bytes:
    """Run the generator on ``out`` until it tears the line it appends; the sidecar is left as
    a kill -9 would leave it. Returns the torn bytes."""
    import taolong_lab.puzzles.generate as gen

    side = Path(str(out) + ".state.json")
    real, at_crash = gen.append_bytes, {}

    def torn(path, data):
        real(path, data[: len(data) // 2])
        at_crash["side"], at_crash["torn"] = side.read_bytes(), data[: len(data) // 2]
        raise Crash

    with monkeypatch.context() as patch:
        patch.setattr(gen, "append_bytes", torn)
        with pytest.raises(Crash):
            generate(3, seed=0, out=out, **FAST)
    side.write_bytes(at_crash["side"])  # no clean-up ran
    return at_crash["torn"]


def test_a_torn_append_is_cut_away_and_the_run_resumes(five, tmp_path, monkeypatch):
    out = tmp_path / "set.jsonl"
    generate(2, seed=0, out=out, **FAST)
    whole = out.read_bytes()
    torn = _crash_mid_append(out, monkeypatch)
    assert out.read_bytes() == whole + torn
    # A copy whose first line was edited since is no longer the run's: nothing is cut.
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(out.read_bytes().replace(b'"title": "', b'"title": "My ', 1))
    Path(str(edited) + ".state.json").write_bytes(Path(str(out) + ".state.json").read_bytes())
    before = _sha(edited)
    with pytest.raises(GenerateError, match=r"edited\.jsonl:3: json: .*left as it is"):
        generate(5, seed=0, out=edited, **FAST)
    assert _sha(edited) == before
    with pytest.warns(UserWarning, match="torn"):
        again = generate(5, seed=0, out=out, **FAST)
    assert out.read_bytes().startswith(whole)
    assert _docs(again) == _docs(five)
    assert _docs(load_puzzles(out)) == _docs(five)  # no duplicate, no torn line
    reasons = json.loads((tmp_path / "set.jsonl.state.json").read_text())["reasons"]
    assert reasons["torn line repaired"] == 1


def test_a_hand_made_file_without_a_final_newline_is_kept_whole(five, tmp_path):
    from taolong_lab.puzzles.rulebook import SHIPPED

    mine = load_puzzles(SHIPPED, check_solutions=False)[0]
    out = tmp_path / "mine.jsonl"
    out.write_bytes(puzzles_text([mine]).rstrip("\n").encode("utf-8"))
    handed = out.read_bytes()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kept = generate(2, seed=0, out=out, **FAST)
    assert not [w for w in caught if "torn" in str(w.message)]
    assert out.read_bytes().startswith(handed + b"\n")  # whole, given its newline
    assert [p.id for p in load_puzzles(out)] == [mine.id, five[0].id]
    assert _docs(kept[1:]) == _docs(five[:1])


def _puzzle_line() -> bytes:
    from taolong_lab.puzzles.rulebook import SHIPPED

    return puzzles_text(load_puzzles(SHIPPED, check_solutions=False)[:1]).encode("utf-8")


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (bytes(range(256)) * 4, r"bad\.jsonl: file: not UTF-8"),
        (b'{"id": "caf\xe9"}\n', r"bad\.jsonl: file: not UTF-8"),
        (b'{"a": 1}\n', r"bad\.jsonl:1: "),
        ("line", r"bad\.jsonl:2: json: "),  # a torn last line the run did not write
        ("line-and-a-bad-one", r"bad\.jsonl:2: .*and 1 more"),
    ],
)
def test_a_file_that_is_not_puzzles_is_refused_untouched(content, where, tmp_path, capsys):
    if content == "line":
        content = _puzzle_line() + b'{"format": "taolong-puz'
    elif content == "line-and-a-bad-one":
        content = _puzzle_line() + b"{}\n[]\n"
    out = tmp_path / "bad.jsonl"
    out.write_bytes(content)
    before = _sha(out)
    with pytest.raises(GenerateError, match=where + ".*left as it is"):
        generate(2, seed=0, out=out, **FAST)
    argv = ["generate", "--count", "2", "--out", str(out), "--no-progress"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("taolong: error: ") and err.count("\n") == 1 and "bad.jsonl" in err
    assert _sha(out) == before
    assert not (tmp_path / "bad.jsonl.state.json").exists()


STATE = {"format": "taolong-generate-state", "version": 3, "params": {}, "next_index": 0}


@pytest.mark.parametrize(
    ("sidecar", "field"),
    [
        (b"not json", "Expecting value"),
        (b"\xff\xfe", "utf-8"),
        (b"[" * 100_000, "recursion"),
        (b'{"next_index": 1' + b"0" * 5000 + b"}", "digits"),
        (json.dumps({**STATE, "format": "x"}).encode(), "format"),
        (json.dumps({**STATE, "version": 9}).encode(), "version"),
        (json.dumps({**STATE, "next_index": "5"}).encode(), "next_index"),
        (json.dumps({**STATE, "next_index": 2**70}).encode(), "next_index"),
        (json.dumps({**STATE, "reasons": {"kept": -1}}).encode(), "reasons"),
        (json.dumps({**STATE, "file": {"size": 0, "sha256": "zz"}}).encode(), "file"),
    ],
)
def test_a_bad_sidecar_is_refused_and_the_file_left_whole(sidecar, field, tmp_path):
    out = tmp_path / "set.jsonl"
    out.write_bytes(_puzzle_line()[:-1])  # no final newline, as a user may leave it
    (tmp_path / "set.jsonl.state.json").write_bytes(sidecar)
    before = _sha(out)
    with pytest.raises(GenerateError, match=rf"set\.jsonl\.state\.json: .*{field}"):
        generate(2, seed=0, out=out, **FAST)
    assert _sha(out) == before


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

    monkeypatch.setattr(gen, "generate", interrupted)
    out = tmp_path / "c.jsonl"
    assert cli.main(["generate", "--count", "2", "--out", str(out), "--no-progress"]) == 130
    assert "resumes" in capsys.readouterr().out
