"""The web page's Python side (taolong_lab.explorer.page) on CPython: the same calls the page's
worker makes in Pyodide, JSON in and out."""

from __future__ import annotations

import json

import pytest
from page_clicks import clicks

from taolong_lab import load_puzzles
from taolong_lab.explorer.page import ACTIONS, NODES, Page, dispatch
from taolong_lab.puzzles import bundle

RULEBOOK = {p.id: p for p in load_puzzles(bundle.rulebook_file(), check_solutions=False)}


def play_line(page: Page, line) -> dict:
    """Play ``line`` by the clicks and buttons a person uses; the last view."""
    view = page.view()
    for turn in line:
        ply = view["ply"]
        for kind, how, target in clicks(page.session.position, turn):
            if view["next"] != kind:  # taken by the session itself (a lone option)
                continue
            view = page.click(target) if how == "click" else page.choose(target)
            assert view["messages"][-1]["level"] != "error", view["messages"][-1]
        assert view["ply"] > ply, f"{turn} was not played"
    return view


def test_the_catalogue_lists_the_rulebook_sets_and_atlas():
    found = Page().catalogue()
    assert [p["id"] for p in found["rulebook"]] == list(RULEBOOK)
    assert found["rulebook"][0]["optimum"] == RULEBOOK["cave-white"].optimum
    assert found["sets"]["field"]["novice"][0]["id"] == "field-novice-01"
    assert found["tiers"] == ["novice", "intermediate", "advanced", "expert"]
    assert "field" in found["atlas"]["scenarios"] and len(found["atlas"]["stacks"]) == 70
    assert found["nodes"] == list(NODES)


def test_a_rulebook_challenge_is_won_by_clicking_and_the_optimum_said():
    page = Page()
    puzzle = RULEBOOK["torus-white"]
    view = page.open_puzzle("rulebook", "torus-white")
    assert (view["title"], view["optimum"], view["next"]) == ("torus-white", 5, "space")
    view = play_line(page, puzzle.solution)
    assert view["result"] == "you win in 5 turns; the optimum is 5"
    assert [m["notation"] for m in view["moves"]] == list(puzzle.solution)
    first = puzzle.start.parse_turn(puzzle.solution[0])
    assert view["moves"][0]["words"] == puzzle.start.describe_turn(first)
    assert view["over"].startswith("white wins")


def test_choices_cancel_undo_and_redo():
    page = Page()
    page.open_puzzle("rulebook", "torus-white")
    view = page.undo()  # nothing to undo: said, not raised
    last = view["messages"][-1]
    assert last["level"] == "error" and "nothing to undo" in last["text"]
    view = page.click("space-He")
    assert view["picked"] == 1 and view["next"] == "move"
    assert [c["label"] for c in view["choices"] if c["enabled"]] == ["a3", "f2"]
    view = page.cancel()
    assert view["picked"] == 0
    view = page.choose("Wa")  # a space's name sows it; the opponent's lone tie is taken
    assert view["picked"] == 2 and view["next"] == "move"
    assert [c["label"] for c in view["choices"] if c["enabled"]] == ["a3", "a3,a4"]
    view = page.undo()  # with choices pending, undo forgets them
    assert view["picked"] == 0 and view["index"] == 0
    view = page.choose("Wa")
    view = page.choose("a3,a4")
    assert (view["index"], view["length"]) == (1, 1)
    assert view["moves"][0]["notation"] == "Wa>He (He:~) a3,a4"
    view = page.undo()
    assert (view["index"], view["length"], view["moves"][0]["played"]) == (0, 1, False)
    view = page.redo()
    assert (view["index"], view["moves"][0]["played"]) == (1, True)


def test_a_hint_takes_the_stored_line_first():
    page = Page()
    page.open_puzzle("rulebook", "mist-black")
    view = page.hint()
    text = view["messages"][-1]["text"]
    assert "wins in 5 turns, proved" in text and "from the puzzle's stored line" in text
    assert f"hint: {RULEBOOK['mist-black'].solution[0]}" in text


def test_off_the_stored_line_the_hint_and_solve_run_the_explicit_solver():
    page = Page(hint_time=60.0)
    page.open_puzzle("rulebook", "torus-white")
    play_line(page, ["Wa>He (He:~) a3,a4"])  # off the stored line
    view = page.hint()
    text = view["messages"][-1]["text"]
    assert "proved" in text and "solver taolong_lab.solvers.explicit" in text
    page.open_puzzle("torus-novice", "torus-novice-01")
    reports = []
    view = page.solve(reports.append)
    assert "solved: win in" in view["messages"][-1]["text"]
    assert view["length"] == view["optimum"] and view["index"] == 0
    assert reports and reports[-1]["stage"] == "optimal first turns"


def test_an_atlas_start_is_looked_up_by_its_ba_gua(tmp_path, monkeypatch):
    page = Page()
    view = page.open_atlas("field", "white", "WW.BW.BB.WB")
    assert (view["title"], view["optimum"], view["kind"]) == ("field-white-WW.BW.BB.WB", 7, "atlas")
    said = view["messages"][-1]["text"]
    assert said.startswith("the atlas: the optimum is 7 turns, the ") and "hardest of 70" in said
    view = page.open_atlas("field", "white", "WW/-/BW/-/BB/-/WB/-")  # a TLN Ba Gua field
    assert view["title"] == "field-white-WW.BW.BB.WB"
    monkeypatch.setattr(bundle, "atlas_folder", lambda: tmp_path)  # an atlas with nothing proved
    view = page.open_atlas("wall", "black", "WW.BW.BB.WB")
    assert view["optimum"] is None and "not proved this start yet" in view["messages"][-1]["text"]
    assert view["solo"] and view["next"] == "space" and view["title"] == "wall-black-WW.BW.BB.WB"
    view = page.open_atlas("field", "white", "WW.WW.WW.BB")
    assert "is not a shuffled start" in view["messages"][-1]["text"]


def test_a_game_against_alphabeta_in_any_scenario():
    page = Page()
    view = page.new_game("valley", "monk", "black", 300)
    assert view["computer"] == "white" and view["computer_to_move"] and not view["solo"]
    view = page.respond()
    assert view["length"] == 1 and view["to_move"] == "black" and not view["computer_to_move"]
    assert not view["can_undo"]  # the computer's opening turn is not yours to take back
    view = page.undo()
    assert (view["index"], view["to_move"]) == (1, "black") and not view["computer_to_move"]
    assert "the computer's opening turn is not yours" in view["messages"][-1]["text"]
    view = play_line(page, [str(page.session.position.legal_turns()[0])])
    assert view["computer_to_move"]
    view = page.respond()
    assert view["length"] == 3
    assert view["can_undo"]
    view = page.undo()  # back to your own turn, past the computer's
    assert view["index"] == 1 and view["to_move"] == "black" and not view["can_undo"]
    view = page.new_game("valley", "monk", "black", 10**9)
    assert "the computer's budget is" in view["messages"][-1]["text"]


@pytest.mark.parametrize(
    ("name", "arguments", "error"),
    [
        ("eval", "[]", "no action 'eval'"),
        ("click", "{}", "not a short JSON list"),
        ("click", "[" + "1," * 5000 + "1]", "not a short JSON list"),
        ("click", "[1, 2, 3]", "click:"),
    ],
)
def test_a_bad_request_is_an_error_answer(name, arguments, error):
    answer = json.loads(dispatch(Page(), name, arguments))
    assert error in answer["error"]


def test_every_action_answers_a_view():
    page = Page()
    assert "solve" in ACTIONS and "catalogue" in ACTIONS
    for name in ("view", "undo", "redo", "cancel", "hint"):
        view = json.loads(dispatch(page, name, "[]"))
        assert view["svg"].startswith("<svg")
    sent = []
    page.open_puzzle("rulebook", "torus-black")
    view = json.loads(dispatch(page, "solve", "[]", sent.append))
    assert view["length"] == 5 and sent and "stage" in json.loads(sent[0])
