"""Game records (read as hostile input, the old version too), matches, ratings and the balance
card."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest

from taolong_lab import Line, game_state, new_game, solo_game
from taolong_lab.agents import (
    AlphaBetaAgent,
    GameRecord,
    GreedyAgent,
    RandomAgent,
    RecordError,
    append_record,
    load_records,
    match,
    ratings,
    save_records,
)
from taolong_lab.agents import balance as card_module
from taolong_lab.agents.matches import MatchResult, play, play_game
from taolong_lab.agents.records import VERSION, records_text
from taolong_lab.files import InputFileError
from taolong_lab.games import TAOLONG, game
from taolong_lab.games.taolong import Weights, evaluate
from taolong_lab.runner import Runner

OLD_RECORDS = Path(__file__).parents[1] / "golden" / "records" / "old-records.jsonl"


def _record(seed=1, max_turns=300):
    start = game_state(new_game())
    return play_game(GreedyAgent(), RandomAgent(), start, seed=seed, max_turns=max_turns)


# ---- records ------------------------------------------------------------------------------
def test_a_record_saves_loads_and_replays(tmp_path):
    record = _record()
    path = tmp_path / "games.jsonl"
    save_records(path, [record])
    append_record(path, _record(seed=2, max_turns=6))
    back = load_records(path)
    assert back[0] == record and back[1].winner is None and back[1].reason == "turn cap"
    line = back[0].line()
    assert isinstance(line, Line) and line.end.outcome().winner == record.winner
    assert back[0].trajectory().notation() == line.notation()
    assert back[0].players == ("GreedyAgent()", "RandomAgent()")


def _bad_line(tmp_path, doc_or_text):
    path = tmp_path / "bad.jsonl"
    good = json.dumps(_record(max_turns=4).to_json())
    bad = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    path.write_text(good + "\n" + bad + "\n")
    with pytest.raises(RecordError) as caught:
        load_records(path)
    assert caught.value.problems[0][0] == 2
    return caught.value.problems[0][1], str(caught.value)


def _doc(**changes):
    doc = _record(max_turns=4).to_json()
    doc.update(changes)
    return doc


def _flipped_winner():
    doc = _record().to_json()  # a finished game
    doc["result"]["winner"] = "black" if doc["result"]["winner"] == "white" else "white"
    return doc


# ---- the records written before the one format ----------------------------------------------
OLD_WEIGHTS = Weights(life=15.0, fire=1.5, threat=1.5, initiative=4.0, stacks=0.25, mobility=0.5)
"""The evaluation's weights before Texel's fit: the greedy agent of the first old record."""


def _old_games() -> list[GameRecord]:
    """The games of tests/golden/records/old-records.jsonl played again today (the first one
    with the evaluation's weights of its day)."""
    greedy = GreedyAgent(weights=OLD_WEIGHTS)
    return [
        play_game(greedy, RandomAgent(), game_state(new_game()), seed=1, id="finished"),
        play_game(
            RandomAgent(),
            GreedyAgent(),
            game_state(new_game("torus", "monk")),
            seed=2,
            max_turns=6,
            id="capped",
        ),
        play_game(
            GreedyAgent(),
            RandomAgent(),
            game_state(solo_game(player="black", segments={"white": 1}, water={"white": 1})),
            seed=3,
            id="solo",
        ),
        play(
            [GreedyAgent(), AlphaBetaAgent(nodes=200)],
            game("long-tau").new(),
            seed=1,
            max_turns=30,
            id="long-tau",
        ),
    ]


def test_old_records_read_as_the_same_games():
    """Tao Long's version 1 records (and a version 2 record of another game) written before
    the one format read back, and they are the games the agents play today."""
    stored = [json.loads(row) for row in OLD_RECORDS.read_text().splitlines()]
    assert [doc["version"] for doc in stored] == [1, 1, 1, 2]
    old = load_records(OLD_RECORDS)
    assert [(r.id, r.winner, r.reason) for r in old] == [
        ("finished", "white", "black lost its last segment"),
        ("capped", None, "turn cap"),
        ("solo", "white", "black lost its last segment"),
        ("long-tau", None, "turn cap"),
    ]
    assert old[2].players == ("solo opponent", "RandomAgent()")
    again = [
        dataclasses.replace(r, date=d.date, players=d.players)
        for r, d in zip(_old_games(), old, strict=True)
    ]
    assert again == old


def test_old_records_are_written_in_the_one_format(tmp_path):
    old = load_records(OLD_RECORDS)
    path = tmp_path / "new.jsonl"
    save_records(path, old)
    docs = [json.loads(row) for row in path.read_text().splitlines()]
    assert {doc["version"] for doc in docs} == {VERSION}
    assert [doc["game"] for doc in docs] == ["taolong"] * 3 + ["long-tau"]
    assert docs[0]["players"] == ["GreedyAgent()", "RandomAgent()"]
    assert docs[0]["result"] == {
        "winner": "white",
        "returns": [1.0, -1.0],
        "reason": "black lost its last segment",
    }
    assert docs[2]["result"]["returns"] == [-1.0]  # the solo player lost
    assert load_records(path) == old
    assert records_text(load_records(path)) == path.read_text()


def test_an_old_record_is_checked_like_any_other(tmp_path):
    doc = json.loads(OLD_RECORDS.read_text().splitlines()[0])
    doc["result"]["winner"] = "black"
    with pytest.raises(RecordError, match=r"result\.winner: the winner is 'white', not 'black'"):
        GameRecord.from_json(doc)
    doc = json.loads(OLD_RECORDS.read_text().splitlines()[0])
    doc["game"] = "taolong"  # a field of the current version only
    with pytest.raises(RecordError, match="record"):
        GameRecord.from_json(doc)


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: "{not json", "json"),
        (lambda: '{"a": 1, "a": 2}', "json"),
        (lambda: "[" * 200 + "]" * 200, ""),
        (lambda: _doc(seed=10**30), "seed"),
        (lambda: _doc(turns="He>Fi a3+"), "turns"),
        (lambda: _doc(players={"white": "x"}), "players"),
        (lambda: _doc(date="yesterday"), "date"),
        (lambda: _doc(start="field/grasshopper/current 8/8"), "start"),
        (lambda: _doc(turns=["He>Fi a3+", "Zz>Qq"]), "turns[1]"),
        (lambda: _doc(result={"winner": "white", "reason": "said so"}), "result"),
        (
            lambda: _doc(result={"winner": "white", "returns": None, "reason": "said so"}),
            "result.winner",
        ),
        (lambda: _doc(players=["me"]), "players"),
        (lambda: _doc(game="chess"), "game"),
        (lambda: _flipped_winner(), "result.winner"),
        (lambda: _doc(extra=1), "record"),
        (lambda: _doc(turns=["He>Fi a3+"] * 5001), "turns"),
    ],
)
def test_a_bad_record_names_its_line_and_field(tmp_path, make, field):
    got, message = _bad_line(tmp_path, make())
    assert got.startswith(field), message
    assert "bad.jsonl:2:" in message


def test_a_record_file_is_read_bounded(tmp_path):
    with pytest.raises(InputFileError, match="directory"):
        load_records(tmp_path)
    path = tmp_path / "big.jsonl"
    path.write_bytes(b" " * 10)
    from taolong_lab.agents import records

    with pytest.raises(InputFileError, match="limit"):
        records.read_bounded(path, limit=4)


def test_a_torn_last_line_is_a_problem_not_a_crash(tmp_path):
    path = tmp_path / "torn.jsonl"
    text = json.dumps(_record(max_turns=4).to_json())
    path.write_text(text + "\n" + text[: len(text) // 2])
    assert len(load_records(path, errors="skip")) == 1
    with pytest.raises(RecordError, match=r"torn\.jsonl:2: json"):
        load_records(path)


def test_record_from_json_text_and_errors():
    record = _record(max_turns=4)
    assert GameRecord.from_json(json.dumps(record.to_json())) == record
    with pytest.raises(RecordError, match="result"):
        GameRecord.from_json({**record.to_json(), "result": {"winner": "white"}})


# ---- matches and ratings ------------------------------------------------------------------
def test_a_match_alternates_colours_and_resumes(tmp_path):
    out = tmp_path / "match.jsonl"
    greedy, rand = GreedyAgent(), RandomAgent()
    first = match(greedy, rand, games=2, seed=4, out=out, max_turns=60)
    assert [r.players for r in first.records] == [
        ("GreedyAgent()", "RandomAgent()"),
        ("RandomAgent()", "GreedyAgent()"),
    ]
    kept = [dataclasses.replace(r, date="2000-01-01") for r in first.records]
    save_records(out, kept)  # the games already played are read back, not played again
    both = match(greedy, rand, games=4, seed=4, out=out, max_turns=60)
    fresh = match(greedy, rand, games=4, seed=4, max_turns=60)
    assert both.records[:2] == tuple(kept) and both.records[2:] == fresh.records[2:]
    assert len(load_records(out)) == 4
    assert both.wins + both.losses + both.draws == 4
    low, high = both.interval
    assert low <= both.score <= high


def test_a_match_refuses_a_record_file_of_another_match(tmp_path):
    out = tmp_path / "other.jsonl"
    save_records(out, [_record(max_turns=4)])
    with pytest.raises(RecordError, match="another match"):
        match(GreedyAgent(), RandomAgent(), games=2, out=out)


def test_a_match_on_the_process_pool_gives_the_same_games():
    serial = match(GreedyAgent(), RandomAgent(), games=2, seed=9, max_turns=40)
    pooled = match(
        GreedyAgent(), RandomAgent(), games=2, seed=9, max_turns=40, runner=Runner(workers=2)
    )
    assert serial.records == pooled.records


def test_ratings_put_the_stronger_player_first_with_intervals():
    results = [
        MatchResult("strong", "weak", 18, 2, 0, 0.9, (0.7, 0.97), ()),
        MatchResult("strong", "middle", 12, 8, 0, 0.6, (0.4, 0.8), ()),
        MatchResult("middle", "weak", 14, 6, 0, 0.7, (0.5, 0.85), ()),
    ]
    found = ratings(results)
    assert [r.name for r in found] == ["strong", "middle", "weak"]
    assert all(r.low <= r.elo <= r.high for r in found)
    assert abs(sum(r.elo for r in found)) < 1e-6


# ---- the balance card ---------------------------------------------------------------------
def test_game_metrics_follow_ludiis_definitions(monkeypatch):
    record = _record()
    states = record.states()[:-1]
    series = [0.5, -0.2, -0.4, 0.3] + [0.6] * (len(states) - 4)
    scale = TAOLONG.heuristic_scale
    by_position = {s.key(): scale * math.atanh(v) for s, v in zip(states, series, strict=True)}

    def heuristic(state, weights=None):
        white = by_position[state.key()]
        return (white, -white)

    monkeypatch.setattr(TAOLONG, "heuristic", heuristic)
    got = card_module.game_metrics(record, capped=False)
    n = len(states)
    sign = 1 if record.winner == "white" else -1
    winner = [sign * v for v in series]
    assert got["lead_change"] == pytest.approx(3 / n)  # none -> w, w -> b, b -> w
    behind = [abs(v) - w for v, w in zip(series, winner, strict=True)]
    assert got["drama"] == pytest.approx(sum(behind) / n)
    threshold = max(-w for w in winner)
    first = next((i for i, w in enumerate(winner) if w > threshold), n)
    assert got["decisiveness_moves"] == pytest.approx(first / n)


def test_a_tao_long_position_is_valued_by_its_evaluation_squashed():
    """Ludii's state evaluation of a Tao Long position: tanh(evaluate / 40) for white, the
    negation for black."""
    for state in _record().line().states()[:12:3]:
        white = math.tanh(evaluate(state) / 40)
        assert card_module.player_values(game_state(state)) == pytest.approx((white, -white))


def test_the_balance_card_resumes_and_reports_intervals(tmp_path):
    out = tmp_path / "card.json"
    options = {
        "games": 2,
        "scenarios": ["field"],
        "modes": ["grasshopper"],
        "editions": ["current"],
        "max_turns": 40,
        "out": out,
    }
    levels = {"greedy": GreedyAgent()}
    card = card_module.balance_card(levels, **options)
    summary = card["cells"][0]["summary"]
    low, high = summary["advantage_p1"]["interval"]
    assert 0 <= low <= summary["advantage_p1"]["value"] <= high <= 1
    assert summary["games"] == 2 and 0 <= summary["capped"]["value"] <= 1
    assert json.loads(out.read_text()) == json.loads(json.dumps(card))
    partial = json.loads(out.read_text())
    partial["cells"][0]["games"] = partial["cells"][0]["games"][:1]
    partial["cells"][0]["games"][0]["branching"] = 99.0  # kept as it is: not played again
    out.write_text(json.dumps(partial))
    again = card_module.balance_card(levels, **options)
    assert [g["branching"] for g in again["cells"][0]["games"]] == [
        99.0,
        card["cells"][0]["games"][1]["branching"],
    ]
    with pytest.raises(Exception, match="other settings"):
        card_module.balance_card(levels, **{**options, "max_turns": 41})
    assert card_module.table(again)[0]["rules"] == "field/grasshopper/current"
