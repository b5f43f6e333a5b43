"""The game review (``taolong_lab.review``, ``taolong review``): a known blunder found, the
classes and the accuracy against the definitions they follow, the annotated record read back
and replayed, reviews at a node budget identical across runs, a sister game reviewed, and the
opening table (``taolong openings``)."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys

import pytest
from tiny_games import PIG

from taolong_lab import State, game_state
from taolong_lab.agents import (
    GameRecord,
    RecordError,
    Review,
    ReviewError,
    load_records,
    review,
    save_records,
)
from taolong_lab.agents.analysis import AnalysisSettings
from taolong_lab.agents.matches import MatchResult, play_game, ratings
from taolong_lab.agents.openings import OpeningError, opening_starts, opening_table
from taolong_lab.agents.registry import agent_from_spec
from taolong_lab.agents.review import DEFAULT_NODES as REVIEW_NODES
from taolong_lab.agents.review import (
    THRESHOLDS,
    classify,
    move_accuracy,
    side_accuracy,
    volatility_weights,
    win_probability,
)
from taolong_lab.cli import main
from taolong_lab.games import game

# Black, at one life point, plays a Thunder to Mountain that leaves its tail in front of
# white's head after an Earth step: white's Earth to a3 bites it, and the bite ends the game.
# Any of black's other turns keeps it alive for now (found in a seeded random game of The
# Torus, then written here by hand).
HANGS_A_BITE = (
    "torus/grasshopper/current 6/6/6/6/6/6 b3-c3-c2:3:0 f2-a2:1:1 W/-/BW/BB/WB/W/-/- 4:7 b 120"
)
BLUNDER, BITE = "Th>Mo f3", "Fi>Ea a3"


def _blunder_record() -> GameRecord:
    return GameRecord.from_actions(
        game_state(State(HANGS_A_BITE)), [BLUNDER, BITE], ("me", "you"), date="2026-01-01"
    )


def test_a_turn_that_hangs_a_bite_is_a_blunder():
    start = State(HANGS_A_BITE)
    after = start.play(BLUNDER)
    bitten = after.play(BITE)
    assert "x" not in BITE and bitten.life("black") < after.life("black")  # a bite, no breath
    assert bitten.is_over() and bitten.outcome().winner == "white"
    assert any(not a.is_over() for _, a in start.successors())  # black had a way out
    found = review(_blunder_record(), nodes=2000)
    first, second = found.notes
    assert first.kind == "blunder" and first.best not in (None, BLUNDER)
    assert first.after == 0.0 and first.before - first.after >= dict(THRESHOLDS)["blunder"]
    assert first.line[0] == first.best
    assert second.kind == "best" and second.proved == "win" and second.plies == 1
    assert found.counts()["black"]["blunder"] == 1 and found.counts()["white"]["blunder"] == 0
    assert found.accuracy["white"] == 100.0 and found.accuracy["black"] < 50.0
    text = found.text()
    assert f"  1. black  {BLUNDER}" in text and "blunder ??" in text
    assert f"best {first.best}: " in text


def test_the_classes_are_lichess_thresholds_on_the_evaluations_scale():
    """lichess's Advice: a move whose winning chances (from -1 to 1) drop by 0.3 is a blunder,
    by 0.2 a mistake, by 0.1 an inaccuracy; a win probability is half that scale."""
    assert THRESHOLDS == (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
    assert [classify(loss, False) for loss in (0.0, 0.049, 0.05, 0.099, 0.1, 0.149, 0.15)] == [
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
    ]
    assert classify(0.4, True) == "best"
    assert win_probability(40.0, 40.0) == pytest.approx(1 / (1 + math.exp(-1)))
    assert win_probability(1e5 - 3, 40.0) == 1.0 and win_probability(-(1e5 - 3), 40.0) == 0.0


def test_move_accuracy_is_lichess_formula_with_its_bonus():
    """Accuracy% = 103.1668 * exp(-0.04354 * (winPercentBefore - winPercentAfter)) - 3.1669,
    plus lila's bonus of 1, within 0 and 100; 100 when the win percentage does not drop."""
    for before, after in [(0.7, 0.6), (0.5, 0.2), (0.9, 0.05)]:
        lost = 100 * (before - after)
        expected = min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * lost) - 3.1669 + 1))
        assert move_accuracy(before, after) == pytest.approx(expected, abs=0.01)  # rounded
    assert move_accuracy(0.3, 0.4) == 100.0
    assert move_accuracy(1.0, 0.0) == 0.0


def test_side_accuracy_averages_the_volatility_weighted_and_harmonic_means():
    series = [0.5, 0.5, 0.6, 0.2, 0.25, 0.9]
    weights = volatility_weights(series)
    assert len(weights) == len(series) - 1
    assert all(0.5 <= w <= 12 for w in weights)
    window = [50.0, 50.0]  # a game of 5 turns: windows of 2 positions, the first shared
    assert weights[0] == pytest.approx(max(0.5, _deviation(window)))
    assert weights[2] == pytest.approx(min(12.0, _deviation([60.0, 20.0])))
    accuracies = [90.0, 40.0]
    chosen = [weights[0], weights[2]]
    weighted = (90 * chosen[0] + 40 * chosen[1]) / sum(chosen)
    harmonic = 2 / (1 / 90 + 1 / 40)
    assert side_accuracy(accuracies, chosen) == pytest.approx((weighted + harmonic) / 2)
    assert side_accuracy([100.0, 0.0], [1.0, 1.0]) == pytest.approx(25.0)  # harmonic mean 0


def _deviation(values):
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def _played(nodes=600, seed=5):
    start = game("taolong").new(scenario="torus")
    strong, weak = agent_from_spec(f"alphabeta:nodes={nodes}"), agent_from_spec("random")
    return play_game(strong, weak, start, seed=seed, max_turns=30)


def test_an_annotated_record_reads_back_and_replays(tmp_path, capsys, monkeypatch):
    found = review(_played(), nodes=500)
    annotated = found.annotated()
    path = tmp_path / "reviewed.jsonl"
    save_records(path, [annotated])
    [loaded] = load_records(path)
    assert loaded == annotated
    assert loaded.annotations == tuple(n.rounded() for n in found.notes)
    assert loaded.trajectory().notation() == list(found.record.turns)
    again = Review.of_record(loaded)
    assert again.counts() == found.counts() and again.movers == found.movers
    assert found.record.annotations is None and "annotations" not in found.record.to_json()
    index = max(range(len(loaded.turns)), key=lambda i: loaded.annotations[i].before)
    note = loaded.annotations[index]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{index + 1}\nq\n"))
    assert main(["play", "--replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Reviewed: accuracy white " in out
    assert f"{index + 1}. white {loaded.turns[index]}" in out or f"{index + 1}. black " in out
    assert f"   review: {note.before:.0%} -> {note.after:.0%}, {note.kind}" in out


def test_a_record_with_broken_annotations_is_refused():
    doc = review(_blunder_record(), nodes=300).annotated().to_json()
    bad = json.loads(json.dumps(doc))
    bad["annotations"][0]["best"] = "He>Fi h9"
    with pytest.raises(RecordError, match=r"annotations\[0\]\.best: illegal turn"):
        GameRecord.from_json(bad)
    short = {**doc, "annotations": doc["annotations"][:1]}
    with pytest.raises(RecordError, match="one note an action: 2, not 1"):
        GameRecord.from_json(short)
    odd = json.loads(json.dumps(doc))
    odd["annotations"][1]["class"] = "brilliant"
    with pytest.raises(RecordError, match=r"annotations\[1\]"):
        GameRecord.from_json(odd)
    detour = json.loads(json.dumps(doc))
    detour["annotations"][0]["line"] = [detour["annotations"][0]["best"], "Wa>He a1"]
    with pytest.raises(RecordError, match=r"annotations\[0\]\.line"):
        GameRecord.from_json(detour)


def _cli(args, env_seed: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": env_seed}
    code = "import sys; from taolong_lab.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env
    )


def test_node_reviews_are_identical_across_two_runs(tmp_path):
    """Two processes (with different hash seeds) review a record at a node budget and a seed:
    the report and the annotated record are the same byte for byte."""
    path = tmp_path / "game.jsonl"
    save_records(path, [_played(nodes=300, seed=8)])
    outputs = []
    for run, hash_seed in enumerate(("1", "2")):
        out = tmp_path / f"review-{run}.jsonl"
        done = _cli(
            ["review", f"{path}:1", "--nodes", "400", "--seed", "3", "--out", str(out)], hash_seed
        )
        assert done.returncode == 0, done.stderr
        outputs.append((done.stdout.replace(str(out), "OUT"), out.read_bytes()))
    assert outputs[0] == outputs[1]
    assert b'"annotations"' in outputs[0][1] and "Accuracy (lichess's definition" in outputs[0][0]


@pytest.mark.parametrize("name, options", [("long-tau", {}), ("way-of-the-dragon", {"players": 2})])
def test_a_record_of_a_sister_game_reviews(name, options):
    start = game(name).new(**options)
    agents = (agent_from_spec("greedy"), agent_from_spec("random"))
    record = play_game(*agents, start, seed=2, max_turns=12)
    found = review(record, nodes=300)
    movers = found.movers
    assert len(found.notes) == len(record.turns)
    for note, mover in zip(found.notes, movers, strict=True):
        assert (note is None) == (mover is None)  # chance outcomes only go unreviewed
        if note is not None:
            assert note.kind in ("best", "good", "inaccuracy", "mistake", "blunder")
            assert 0.0 <= note.after <= 1.0 and 0.0 <= note.before <= 1.0
    assert set(found.accuracy) <= set(record.sides)
    back = GameRecord.from_json(json.dumps(found.annotated().to_json()))
    assert back.annotations == tuple(None if n is None else n.rounded() for n in found.notes)


def test_a_chance_game_skips_its_chance_outcomes():
    record = play_game(agent_from_spec("greedy"), agent_from_spec("random"), PIG.new(), seed=1)
    found = review(record, nodes=200)
    rolls = [i for i, s in enumerate(record.states()[:-1]) if s.is_chance()]
    assert rolls and all(found.notes[i] is None for i in rolls)
    assert all(found.notes[i] is not None for i in range(len(record.turns)) if i not in rolls)


def test_a_review_refuses_a_bad_budget_and_a_game_of_three():
    with pytest.raises(ReviewError, match="nodes must be"):
        review(_blunder_record(), nodes=0)
    three = game("way-of-the-dragon").new(players=3)
    record = GameRecord.from_actions(three, [], ("a", "b", "c"))
    with pytest.raises(ReviewError, match="one or two players, not 3"):
        review(record)


def test_a_review_and_an_opening_table_read_their_settings_alike():
    start = game("taolong").new(scenario="torus")
    with pytest.raises(OpeningError, match="seed must be"):
        opening_table(start, nodes=10, seed=-1)
    with pytest.raises(ReviewError, match="time_limit must be"):
        review(_blunder_record(), time_limit=-1.0)
    for run, first in ((review, _blunder_record()), (opening_table, start)):
        with pytest.raises(TypeError, match="nodez"):
            run(first, nodez=10)
    empty = GameRecord.from_actions(start, [], ("a", "b"))
    assert review(empty).note.nodes == REVIEW_NODES  # the default budget, recorded
    assert review(empty, time_limit=1.0).note.nodes is None
    settings = AnalysisSettings(time_limit=2.0, seed=3).checked(OpeningError, 7)
    assert (settings.nodes, settings.time_limit, settings.seed) == (None, 2.0, 3)
    assert AnalysisSettings().checked(OpeningError, 7).nodes == 7


def test_the_review_command_writes_the_record_and_the_graph(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    save_records(path, [_blunder_record()])
    out, plot = tmp_path / "reviewed.jsonl", tmp_path / "graph.svg"
    argv = ["review", str(path), "--nodes", "1000", "--out", str(out), "--plot", str(plot)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "blunder ??" in printed and f"{out}: the annotated record" in printed
    assert plot.read_text().startswith("<?xml") and "<svg" in plot.read_text()
    [reviewed] = load_records(out)
    assert reviewed.annotations[0].kind == "blunder"
    assert main(argv) == 2  # the annotated record exists: never written over
    assert "exists; the review writes a new file" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["review", "missing.jsonl"], "review: "),
        (["review", "{path}", "--nodes", "0"], "--nodes: must be from 1"),
        (["review", "{path}", "--plot", "x.gif"], "must end in .svg, .png or .pdf"),
        (["review", "{path}", "--out", "x.txt"], "must be a .jsonl file"),
        (["review", "{path}:7"], "has no record '7'"),
    ],
)
def test_the_review_command_refuses_bad_input_in_one_line(tmp_path, capsys, argv, message):
    path = tmp_path / "game.jsonl"
    save_records(path, [_blunder_record()])
    assert main([a.format(path=path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("taolong: error: ") and message in err and err.count("\n") == 1


# ---- the opening table -------------------------------------------------------------------
def test_the_opening_table_scores_every_first_turn():
    start = game("taolong").new(scenario="torus")
    table = opening_table(start, nodes=300)
    assert sorted(r.turn for r in table.rows) == sorted(str(a) for a in start.legal_actions())
    assert [r.score for r in table.rows] == sorted((r.score for r in table.rows), reverse=True)
    for row in table.rows:
        assert row.line[0] == row.turn
        assert row.probability == win_probability(row.score, 40.0)
    assert table.spread == table.rows[0].probability - table.rows[-1].probability
    starts = opening_starts()
    names = [(s.state.rules.scenario, s.state.rules.edition) for s in starts]
    assert len(names) == 9 and ("field", "earlier") in names
    assert all(s.state.rules.mode == "grasshopper" for s in starts)


def test_the_openings_command_prints_and_writes_the_table(tmp_path, capsys):
    path = tmp_path / "openings.json"
    argv = ["openings", "--scenario", "torus", "--nodes", "200", "--json", str(path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("torus (grasshopper, current edition): 10 first turns, 200 positions")
    assert "spread (best - worst): " in out
    doc = json.loads(path.read_text())
    assert [len(t["rows"]) for t in doc["tables"]] == [10]
    assert main(["openings", "--scenario", "cave", "--edition", "earlier"]) == 2
    assert "The Field only" in capsys.readouterr().err


# ---- ratings -----------------------------------------------------------------------------
def test_a_clean_sweep_keeps_an_interval_of_some_width():
    """A 200-0 sweep: a bootstrap over the games would give a point; the interval from the
    likelihood's curvature with the virtual draw keeps a width."""
    sweep = [
        MatchResult("strong", "weak", 200, 0, 0, 1.0, (0.98, 1.0), ()),
        MatchResult("strong", "middle", 200, 0, 0, 1.0, (0.98, 1.0), ()),
        MatchResult("middle", "weak", 120, 80, 0, 0.6, (0.5, 0.7), ()),
    ]
    found = {r.name: r for r in ratings(sweep)}
    for rating in found.values():
        assert rating.high - rating.low > 50 and rating.low < rating.elo < rating.high
    assert found["strong"].low > found["middle"].high
    closer = ratings([MatchResult("a", "b", 1200, 800, 0, 0.6, (0.58, 0.62), ())])
    wider = ratings([MatchResult("a", "b", 12, 8, 0, 0.6, (0.4, 0.8), ())])
    assert closer[0].high - closer[0].low < (wider[0].high - wider[0].low) / 5


# ---- the Explorer's review mode ----------------------------------------------------------
def test_the_review_panel_steps_through_a_reviewed_game(tmp_path):
    from taolong_lab.explorer import ExplorerSession, ReviewPanel

    path = tmp_path / "reviewed.jsonl"
    save_records(path, [review(_blunder_record(), nodes=2000).annotated()])
    session = ExplorerSession(State(HANGS_A_BITE))
    panel = ReviewPanel(session, nodes=10)  # an annotated record keeps its notes
    found = panel.load(path)
    assert found.notes[0].kind == "blunder" and len(session.line) == 2
    assert panel.marks() == {1: "blunder", 2: "best"}
    assert session.index == 0 and panel.best() == found.notes[0].best
    assert panel.bar() == pytest.approx(1 - found.notes[0].before, abs=1e-4)  # white's share
    assert "turn 1 (black): Th>Mo f3, blunder ??" in panel.summary()
    session.goto(2)
    assert panel.best() is None and panel.bar() == 1.0 and panel.summary() == ""
    session.load(State(HANGS_A_BITE))  # another line: the review is not shown
    assert panel.marks() == {} and panel.bar() == 0.5
