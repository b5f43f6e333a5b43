"""What a newcomer meets on the command line: TAO played in a terminal, ``atlas`` saying what
it holds and what it would do, ``tournament`` and ``balance`` explaining their columns and
caps, and the wording of the prompts, the errors and the help. Through
``taolong_lab.cli.main`` with stdin replaced."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from taolong_lab import State
from taolong_lab.agents import MatchResult, ratings
from taolong_lab.cli import main
from taolong_lab.puzzles import Puzzle
from taolong_lab.puzzles.verify import verify_puzzle

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK = ROOT / "puzzles" / "rulebook-solo.jsonl"
ATLAS = ROOT / "puzzles" / "atlas"


def run(capsys, monkeypatch, argv, entries=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(entries))
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refused(capsys, monkeypatch, argv) -> str:
    code, out, err = run(capsys, monkeypatch, argv)
    assert (code, out) == (2, "") and err.startswith("taolong: error: ") and err.count("\n") == 1
    return err


# ---- TAO in a terminal ------------------------------------------------------------------------
def test_tao_shows_its_picture_the_deal_in_one_line_and_the_actions_grouped(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["play", "--game", "tao", "--seed", "1"], "board\n")
    assert (code, err) == (0, "")
    assert "(chance: hidden)" not in out and "tao version=" not in out
    assert out.count("chance: 22 hidden draws (cards dealt face down)") == 1
    assert out.count(" coins |") == 2  # the picture, then again for 'board'
    assert re.search(r"first \| -- \S\S \S\S \S\S \S\S \S\S -- \| deck \?\? \?\? \?\? \?\?", out)
    kinds = [line.split(":")[0] for line in out.splitlines() if re.match(r"^[a-z]+: +\d+\. ", line)]
    assert kinds[:5] == ["swap", "move", "cross", "draw", "deal"]
    assert "action 23 first> " in out


# ---- atlas --------------------------------------------------------------------------------------
def test_atlas_refuses_a_missing_or_empty_folder_and_a_bare_run(capsys, monkeypatch, tmp_path):
    assert "no such folder" in refused(capsys, monkeypatch, ["atlas", "/no/atlas", "--summary"])
    assert "no atlas file" in refused(capsys, monkeypatch, ["atlas", str(tmp_path), "--costs"])
    bare = refused(capsys, monkeypatch, ["atlas"])
    assert "name the folder" in bare and "hours of CPU" in bare
    assert main(["atlas", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for default in ("(default: all)", "(default: auto)", "(default: 3600)", "hours of CPU"):
        assert default in text


def test_atlas_summary_and_costs_say_what_they_leave_out(capsys, monkeypatch, tmp_path):
    from taolong_lab.puzzles.atlas import atlas_id, main_spaces
    from taolong_lab.rules import game_data

    standard = atlas_id("cave", "white", tuple(game_data().setup_stacks[i] for i in main_spaces()))
    lines = (ATLAS / "cave.jsonl").read_text().splitlines()
    white = [line for line in lines if '"player": "white"' in line and standard not in line]
    (tmp_path / "cave.jsonl").write_text("\n".join(white[:5]) + "\n")  # no standard start
    code, out, _ = run(capsys, monkeypatch, ["atlas", str(tmp_path), "--summary", "--costs"])
    assert code == 0
    summary, costs = out.split("\n\n| scenario")
    cave = next(line for line in summary.splitlines() if line.startswith("| cave | white"))
    assert cave.split(" | ")[2] == "5/70"
    assert cave.split(" | ")[-1].startswith("7 (the rulebook set's proof), ")
    assert "not proved yet" not in cave
    assert "Not in the atlas yet (no start proved): cave black, field white" in summary
    assert "CPU s recorded" in costs and '"–": no run of that group did' in costs


# ---- tournament and balance ------------------------------------------------------------------
def test_a_sweep_gets_intervals_of_some_width():
    swept = MatchResult("a", "b", 4, 0, 0, 1.0, (0.51, 1.0), ())
    for rating in ratings([swept]):
        assert rating.high - rating.low > 100 and rating.low <= rating.elo <= rating.high


def test_balance_uses_the_games_own_cap_and_never_calls_capped_games_balanced(
    capsys, monkeypatch, tmp_path
):
    card = tmp_path / "card.json"
    argv = ["balance", "--game", "way-of-the-dragon", "--levels", "random", "--games", "2"]
    argv += ["--variant", "players=3", "--out", str(card), "--no-progress"]
    code, out, err = run(capsys, monkeypatch, argv)
    assert (code, err) == (0, "")
    saved = json.loads(card.read_text())
    assert saved["settings"]["max_turns"] == 2000
    assert saved["cells"][0]["summary"]["length"]["mean"]["value"] > 300  # the old cap
    assert out.splitlines()[1].split()[:3] == ["players=3", "random", "2"]
    for name in ("P1 wins", "wins by seat", "capped", "balance", "lead ch.", "drama", "decisive"):
        assert re.search(rf"^{re.escape(name)}[ ,:]", out, re.M), name
    assert "Wilson" in out
    capped = tmp_path / "capped.json"
    argv = [*argv[:-3], "--out", str(capped), "--max-turns", "20", "--no-progress"]
    code, out, _ = run(capsys, monkeypatch, argv)
    row = out.splitlines()[1]
    assert code == 0 and "100%" in row and "- (all capped)" in row
    assert run(capsys, monkeypatch, ["games", "way-of-the-dragon"])[1].splitlines()[1] == (
        "  the agents' games stop at 2000 decisions (--max-turns)"
    )


def test_balance_and_tournament_help_explain_the_columns(capsys):
    for command, words in (
        ("balance", ("lead ch.", "drama", "decisive", "balance", "Wilson")),
        ("tournament", ("Wilson", "sweep")),
    ):
        assert main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert all(word in text for word in words), command
    assert "decisive" in (ROOT / "docs" / "agents.md").read_text()


# ---- wording ----------------------------------------------------------------------------------
def test_solo_and_two_player_prompts_read_alike_and_a_word_is_no_turn(capsys, monkeypatch):
    solo = run(capsys, monkeypatch, ["play", f"{RULEBOOK}:torus-white"], "clear\nquit\n")[1]
    duel = run(capsys, monkeypatch, ["play", "--vs", "human"], "clear\nquit\n")[1]
    for out in (solo, duel):
        assert "turn 1 white> clear" in out
        assert "'clear' is not a command: list, board, undo, help, quit." in out
        assert "Enter a number from the list, a turn, or 'help'." in out
        assert "<space>" not in out


def test_the_agents_keys_are_named_and_shown(capsys, monkeypatch):
    out = run(capsys, monkeypatch, ["play", "--vs", "alphabeta:depth=3,nodes=50"], "quit\n")[1]
    assert "black: AlphaBetaAgent(nodes=50, depth=3)." in out
    assert main(["play", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "alphabeta: time, nodes, seed, depth, samples" in text
    assert "scenario S: cave, field, gorge, maze, mist, torus, valley, wall" in text


def test_one_turn_is_singular_a_resume_is_said_and_the_lookahead_explained(
    capsys, monkeypatch, tmp_path
):
    start = State(
        "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
        "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"
    )
    two = Puzzle.from_state("two", "win in 2?", start, optimum=2, solution=["Ea>Mo ="])
    assert verify_puzzle(two) == ["the solution wins in 1 turn, the stored optimum is 2"]
    argv = ["solve", f"{RULEBOOK}:torus-white", "--method", "explicit", "--no-progress"]
    argv += ["--checkpoint", str(tmp_path)]
    first = run(capsys, monkeypatch, argv)[1]
    again = run(capsys, monkeypatch, argv)[1]
    assert "resumed from the checkpoint" not in first
    assert f"resumed from the checkpoint {tmp_path / 'torus-white.ckpt'}" in again
    assert "lookahead matter (the solo opponent counts the damage up to the player's" in first
