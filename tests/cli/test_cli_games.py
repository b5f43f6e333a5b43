"""``taolong play --vs/--game/--replay``, ``games``, ``tournament`` and ``balance``: through
``taolong_lab.cli.main`` with stdin replaced, the agents at a node budget (deterministic)."""

from __future__ import annotations

import io
import json
import re

import pytest
from tiny_games import TINY_GAMES

from taolong_lab.agents import load_records
from taolong_lab.cli import main
from taolong_lab.games import registry as registry_module


@pytest.fixture(autouse=True)
def tiny_games_registered(monkeypatch):
    """Pig and Kuhn poker in the registry for each test, and out of it after."""
    monkeypatch.setattr(registry_module, "_GAMES", dict(registry_module._GAMES))
    for tiny in TINY_GAMES:
        registry_module.register(tiny)


def run(capsys, monkeypatch, argv, entries=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(entries))
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ---- play against an agent --------------------------------------------------------------------
def test_the_agent_answers_each_turn_and_the_record_is_appended(capsys, monkeypatch, tmp_path):
    record = tmp_path / "games.jsonl"
    argv = ["play", "--vs", "alphabeta", "--nodes", "200", "--record", str(record)]
    code, out, err = run(capsys, monkeypatch, argv, "Wa>He a3,a4\nquit\n")
    assert (code, err) == (0, "")
    assert "white: you; black: AlphaBetaAgent(nodes=200)." in out
    assert "1. white Wa>He a3,a4" in out
    assert "2. black (AlphaBetaAgent(nodes=200)) plays " in out
    assert out.count("turn 3: white to move") == 1  # the board after the agent's turn
    [saved] = load_records(record)
    assert saved.turns[0] == "Wa>He a3,a4" and len(saved.turns) == 2
    assert saved.players == ("human", "AlphaBetaAgent(nodes=200)")
    assert saved.reason == "unfinished"
    run(capsys, monkeypatch, argv, "1\nquit\n")
    assert len(load_records(record)) == 2  # appended, the first kept


def test_playing_black_the_agent_opens(capsys, monkeypatch):
    argv = ["play", "--vs", "greedy", "--colour", "black", "--scenario", "torus"]
    code, out, _ = run(capsys, monkeypatch, argv, "")
    assert code == 0
    assert "white: GreedyAgent(); black: you." in out
    assert "1. white (GreedyAgent()) plays " in out
    assert "turn 2 black> " in out


def test_an_illegal_entry_asks_again_with_the_reason(capsys, monkeypatch):
    argv = ["play", "--vs", "random"]
    code, out, _ = run(capsys, monkeypatch, argv, "Wa>Fi a3\n99\nhelp\n5\nquit\n")
    assert code == 0
    assert "sowing Wa lands on Heaven, not Fire" in out
    assert "there is no turn 99: enter 1 to 6" in out
    assert "undo   take back your last turn" in out
    assert "1. white Wa>He a3" in out  # the game went on after the bad entries


def test_undo_takes_back_the_reply_too(capsys, monkeypatch):
    argv = ["play", "--vs", "greedy"]
    code, out, _ = run(capsys, monkeypatch, argv, "1\nundo\nundo\nquit\n")
    assert code == 0
    assert "Took back 2 turns." in out
    assert "nothing to undo." in out
    assert "You left after 0 turns." in out


def test_the_end_of_the_input_and_ctrl_c_end_cleanly(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["play", "--vs", "human"], "")
    assert (code, err) == (0, "")
    assert "white: you; black: you." in out and "You left after 0 turns." in out

    class Interrupted(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", Interrupted())
    assert main(["play", "--vs", "random"]) == 0
    captured = capsys.readouterr()
    assert "You left after 0 turns." in captured.out and captured.err == ""


def test_a_dice_game_draws_chance_by_the_seed(capsys, monkeypatch, tmp_path):
    record = tmp_path / "pig.jsonl"
    argv = ["play", "--game", "pig", "--option", "target=5", "--vs", "greedy", "--seed", "4"]
    entries = "roll\nhold\n" * 40
    code, out, _ = run(capsys, monkeypatch, [*argv, "--record", str(record)], entries)
    assert code == 0
    assert "Game over: " in out
    chance = [line for line in out.splitlines() if ". chance: " in line]
    assert chance  # the die is rolled and shown
    [saved] = load_records(record)
    assert saved.winner is not None and saved.seed == 4
    again = run(capsys, monkeypatch, argv, entries)[1]
    assert [line for line in again.splitlines() if ". chance: " in line] == chance


def test_hidden_cards_are_shown_only_to_the_human_side(capsys, monkeypatch):
    argv = ["play", "--game", "kuhn", "--vs", "mcts", "--nodes", "50", "--seed", "2"]
    code, out, _ = run(capsys, monkeypatch, argv, "pass\nquit\n")
    assert code == 0
    assert "chance: 1 hidden draw (cards dealt face down)" in out
    assert "(chance: hidden)" not in out
    assert "kuhn card " in out  # the human's observation
    assert "Kuhn poker: cards" not in out.split("Game over")[0]  # never the whole deal
    pure = run(capsys, monkeypatch, ["play", "--game", "pig", "--vs", "human"], "quit\n")[1]
    assert "Pig to 12: 0 - 0" in pure  # a game without hidden cards shows its text


def test_replay_steps_through_a_record(capsys, monkeypatch, tmp_path):
    record = tmp_path / "games.jsonl"
    run(capsys, monkeypatch, ["play", "--vs", "human", "--record", str(record)], "1\n2\n1\nq\n")
    [saved] = load_records(record)
    code, out, _ = run(capsys, monkeypatch, ["play", "--replay", f"{record}:1"], "\np\n3\n9\nq\n")
    assert code == 0
    assert f"1. white {saved.turns[0]}" in out
    assert out.count("turn 1: white to move") == 2  # the start, and again after 'p'
    assert f"3. white {saved.turns[2]}" in out
    assert "The end: unfinished (winner: nobody)." in out
    assert "No position 9: 0 to 3." in out


# ---- games, tournament, balance ---------------------------------------------------------------
def test_a_bad_record_file_is_one_line(capsys, monkeypatch, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "taolong-game"}\nnot json\n')
    code, out, err = run(capsys, monkeypatch, ["play", "--replay", str(bad)])
    assert out == ""
    assert code == 2 and err.count("\n") == 1
    assert f"--replay: {bad}:1: " in err and "(and 6 more problems)" in err  # line 1's only


def test_replay_reads_only_the_record_it_shows(capsys, monkeypatch, tmp_path):
    """Finding 7 of issue 40: ``--replay F:N`` replayed every record of F first. Now the
    other lines are not even decoded unless they may hold the id asked for: record 2 of a file
    whose first and last lines are broken plays, and so does its id."""
    record = tmp_path / "games.jsonl"
    run(capsys, monkeypatch, ["play", "--vs", "human", "--record", str(record)], "1\n2\nq\n")
    good = record.read_text()
    broken = '{"format": "taolong-game", "version": 1, "turns": ["Zz"]}\n'
    doc = json.loads(good)
    doc["id"] = "game-abc"
    record.write_text(broken + json.dumps(doc) + "\n" + "not json\n")
    code, out, err = run(capsys, monkeypatch, ["play", "--replay", f"{record}:2"], "q\n")
    assert (code, err) == (0, "") and "turn 1: white to move" in out
    code, out, err = run(capsys, monkeypatch, ["play", "--replay", f"{record}:game-abc"], "q\n")
    assert (code, err) == (0, "") and "turn 1: white to move" in out
    code, _, err = run(capsys, monkeypatch, ["play", "--replay", f"{record}:1"], "q\n")
    assert code == 2 and f"--replay: {record}:1: " in err and err.count("\n") == 1


def test_games_lists_the_registry(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["games"])
    rows = {line.split()[0]: re.split(r"\s{2,}", line) for line in out.splitlines()[1:]}
    assert code == 0 and {"taolong", "pig", "kuhn"} <= set(rows)
    assert rows["kuhn"][:6] == ["kuhn", "Kuhn poker", "2", "yes", "yes", "-"]
    assert rows["pig"][:6] == ["pig", "Pig", "2", "yes", "no", "target"]
    assert rows["taolong"][2:5] == ["1,2", "no", "no"]
    out = run(capsys, monkeypatch, ["games", "pig"])[1]
    assert "target = 12  (a whole number from 5 to 100): the points that win" in out


def test_tournament_rates_and_resumes(capsys, monkeypatch, tmp_path):
    out_file = tmp_path / "ladder.json"
    argv = ["tournament", "random", "greedy", "--game", "pig", "--games", "4", "--seed", "1"]
    argv += ["--out", str(out_file), "--no-progress"]
    code, out, _ = run(capsys, monkeypatch, argv)
    assert code == 0
    assert "random vs greedy: " in out and "ratings (Bradley-Terry" in out
    doc = json.loads(out_file.read_text())
    assert doc["done"] and [r["name"] for r in doc["ratings"]] == ["greedy", "random"]
    assert doc["matches"][0]["wins"] + doc["matches"][0]["losses"] + doc["matches"][0]["draws"] == 4
    games_file = tmp_path / "ladder.games" / "random-vs-greedy.jsonl"
    assert len(load_records(games_file)) == 4
    again = run(capsys, monkeypatch, argv)[1]  # resumed: read back, the same result
    first, rest = again.split("\n", 1)
    assert first.startswith("resumed: 4 of the games were played by an earlier run") and rest == out
    other = [*argv[:6], "5", *argv[7:]]
    code, _, err = run(capsys, monkeypatch, other)
    assert code == 2 and "a tournament of other settings" in err


def test_balance_prints_the_card_and_resumes(capsys, monkeypatch, tmp_path):
    card = tmp_path / "card.json"
    picture = tmp_path / "card.svg"
    argv = ["balance", "--game", "pig", "--levels", "random", "--games", "3", "--out", str(card)]
    argv += ["--variant", "target=5", "--no-progress", "--plot", str(picture)]
    code, out, err = run(capsys, monkeypatch, argv)
    assert (code, err) == (0, "")
    head, row = out.splitlines()[:2]
    assert head.split()[:4] == ["cell", "level", "games", "P1"]
    assert row.split()[:3] == ["target=5", "random", "3"]
    assert picture.read_text().lstrip().startswith("<?xml")
    saved = json.loads(card.read_text())
    assert len(saved["cells"][0]["games"]) == 3
    again = run(capsys, monkeypatch, argv)[1]
    assert again == "resumed: 3 of the games were played by an earlier run (" + f"{card})\n" + out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--vs", "deep-blue"], "unknown agent 'deep-blue'"),
        (["play", "--vs", "mcts:depth=3"], "mcts takes key=value with the keys time, nodes"),
        (["play", "--vs", "alphabeta:nodes=0"], "nodes must be a whole number"),
        (["play", "--vs", "greedy", "--colour", "green"], "--colour 'green': one of white"),
        (["play", "--game", "chess"], "unknown game 'chess'"),
        (["play", "--game", "pig", "--option", "goal=3"], "unknown option 'goal'"),
        (["play", "--game", "pig", "--mode", "monk"], "--mode: Tao Long's"),
        (["play", "--vs", "greedy", "--mode", "monk", "--option", "mode=master"], "give it once"),
        (["play", "--vs", "greedy", "--record", "x.txt"], "must be a .jsonl file"),
        (["play", "--vs", "greedy", "--time", "1", "--nodes", "5"], "give one budget"),
        (["play", "--vs", "greedy", "Wa>He a3"], "drop the TURNs"),
        (["play", "--replay", "no-such-file.jsonl"], "--replay"),
        (["play", "--vs", "greedy", "--record", "no/such/dir/g.jsonl"], "no such folder"),
        (["play", "--replay", "g.jsonl", "--vs", "greedy"], "drop --vs, --game and --record"),
        (["games", "chess"], "unknown game 'chess'"),
        (["tournament", "greedy"], "at least two different agents"),
        (["tournament", "greedy", "random", "--games", "0"], "--games: must be from 1 to"),
        (["tournament", "greedy", "random", "--out", "x.txt"], "must be a .json file"),
        (["tournament", "greedy", "random", "--scheduler", "a b"], "must be a Dask scheduler"),
        (["tournament", "greedy", "random", "--tls-cert", "c.pem"], "--tls-cert: only with"),
        (
            [
                *("balance", "--levels", "greedy", "--out", "c.json"),
                *("--scheduler", "tls://127.0.0.1:8786", "--tls-ca-file", "no-ca.pem"),
            ],
            "--tls-ca-file 'no-ca.pem': no such file",
        ),
        (["play", "--vs", "greedy", "--seed", "-1"], "--seed: must be from 0"),
        (["play", "--vs", "greedy", "--time", "nan"], "--time: 'nan' is not a number"),
        (["balance", "--levels", "greedy", "--out", "c.json", "--variant", "a=1"], "--variant"),
        (["balance", "--levels", "greedy", "--out", "c.json", "--plot", "c.png"], ".svg file"),
    ],
)
def test_bad_input_is_one_line(capsys, monkeypatch, argv, message):
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 2 and out == ""
    assert err.startswith("taolong: error: ") and err.count("\n") == 1
    assert message in err
