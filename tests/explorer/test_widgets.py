"""The Explorer widget (taolong_lab.explorer.widget), driven without a kernel or a browser: the
buttons' callbacks are called with ``Button.click()`` (what a click in the browser ends in), and
the position, the move list, the messages and the disabled buttons with their reasons are
checked. The headless session and turn builder under it: tests/explorer/test_explorer.py."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from taolong_lab import State, load_puzzles, new_game, solo_game
from taolong_lab.explorer import ExplorerError, bundled_puzzles
from taolong_lab.explorer.widget import Explorer

# Black to move; Fire lands on Thunder, which grants a second phase.
TWO_PHASES = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 b2-b3-a3-a2:4:0 h7-g7-f7-f8:4:0 "
    "B/B/B/BW/W/W/-/W 0:8 b 10"
)
# Monk: sowing Fire lets black choose the order its stones drop in.
MONK = (
    "field/monk/current 8/8/8/8/8/8/8/8 c5-c6-b6-a6:4:0 f8-f7-g7-h7:4:1 "
    "-/-/WWBB/-/BW/W/B/- 0:7 b 16"
)
# White to move with every action impossible: each legal turn is a 1-life penalty.
PENALTY = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 h7-g7:4:3 b6-b7-c7:1:1 -/-/-/-/BWW/BBB/W/W 3:4 w 83"
)
# White has lost.
OVER = "field/grasshopper/current 8/8/8/8/8/8/8/8 h8:0:3 e7-d7-d6:1:0 B/W/B/WB/WB/-/W/- 7:5 w 451"
# A solo challenge won in one turn (the explicit solver's doctest).
ONE_TURN = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 d3-d2-d1-e1:4:0 d4-d5:1:0 "
    "-/-/BB/-/W/-/BWW/WB 3:8 w 1"
)


def space(ex: Explorer, abbrev: str):
    return next(b for b in ex.space_buttons if b.description.split()[0] == abbrev)


def shown_choices(ex: Explorer):
    return [b for b in ex.choice_buttons if b.layout.display != "none"]


def choice(ex: Explorer, label: str):
    return next(b for b in shown_choices(ex) if b.description == label)


def moves_listed(ex: Explorer) -> int:
    return int(ex.moves.value.split('data-moves="')[1].split('"')[0])


# ---- construction ------------------------------------------------------------------------------
def test_it_opens_a_state_a_tln_a_puzzle_or_the_default_start():
    assert Explorer().position == new_game()
    assert Explorer(new_game("valley")).position == new_game("valley")
    assert Explorer(TWO_PHASES).position == State(TWO_PHASES)
    puzzle = load_puzzles("puzzles/rulebook-solo.jsonl")[0]
    ex = Explorer(puzzle)
    assert ex.position == puzzle.start and ex.puzzle is puzzle
    assert puzzle.id in ex.status.value
    assert ex.puzzle_menu.value == f"rulebook-solo.jsonl:{puzzle.id}"


def test_bad_input_is_an_error_with_a_message():
    with pytest.raises(ExplorerError, match="cannot read the position"):
        Explorer("not a position")
    with pytest.raises(ExplorerError, match="State, a Puzzle or a TLN"):
        Explorer(42)


def test_a_line_can_be_loaded_and_a_bad_line_says_where_it_stops():
    ex = Explorer(new_game(), line=["Wa>He a3,a4", "Ea>Wa f8x"])
    assert ex.index == 0 and ex.line.notation() == ["Wa>He a3,a4", "Ea>Wa f8x"]
    assert moves_listed(ex) == 2
    with pytest.raises(ExplorerError, match="turn 2"):
        ex.load(new_game(), line=["Wa>He a3,a4", "He>Fi a3x"])


# ---- playing a turn with the buttons -----------------------------------------------------------
def test_only_legal_spaces_are_enabled_and_the_others_say_why():
    ex = Explorer(new_game())
    enabled = {b.description.split()[0] for b in ex.space_buttons if not b.disabled}
    assert enabled == {"He", "Ea", "Wa"}
    assert "The Lake space is empty." in space(ex, "La").tooltip
    assert "needs a horizontal facing" in space(ex, "Fi").tooltip
    assert "lands on Heaven" in space(ex, "Wa").tooltip
    assert all(b.disabled for b in ex.effect_buttons.values())
    assert "sow a Ba Gua space" in ex.status.value


def test_click_a_space_then_a_destination_plays_the_turn():
    ex = Explorer(new_game())
    board = ex.board.value
    space(ex, "Wa").click()
    assert ex.position == new_game() and ex.index == 0  # nothing played yet
    assert [b.description for b in shown_choices(ex) if not b.disabled] == ["a3", "a3,a4"]
    assert "the last stone names Heaven" in ex.message
    assert "black on" in ex.message and "white on" in ex.message  # where the stones fell
    assert "choose the destination" in ex.status.value
    choice(ex, "a3,a4").click()
    assert ex.position == new_game().play("Wa>He a3,a4")
    assert ex.line.notation() == ["Wa>He a3,a4"] and ex.index == 1
    assert moves_listed(ex) == 1 and "Wa&gt;He a3,a4" in ex.moves.value
    assert ex.board.value != board
    assert "white played Wa>He a3,a4" in ex.message
    assert "black</b> to move" in ex.status.value


def test_other_neighbours_of_the_head_are_disabled_with_the_reason():
    ex = Explorer(new_game())
    space(ex, "Wa").click()
    blocked = {b.description: b.tooltip for b in shown_choices(ex) if b.disabled}
    assert set(blocked) == {"a1", "b2"}  # the head is on a2, facing south
    assert "the white dragon's body is there" in blocked["a1"]
    assert "Heaven goes to a3, a3,a4 only" in blocked["b2"]
    blocked_click = choice(ex, "b2")
    blocked_click.click()  # a disabled button clicked anyway (Python can): an error message
    assert ex.messages[-1][0] == "error" and "b2 is not a legal destination" in ex.message
    assert ex.index == 0


def test_fire_asks_for_absorb_or_expel_after_the_step():
    ex = Explorer(new_game())
    absorb, expel = ex.effect_buttons["absorb"], ex.effect_buttons["expel"]
    assert absorb.disabled and "follows the step of a Fire or Water action" in absorb.tooltip
    space(ex, "He").click()  # a3, the only destination, is taken at once
    assert "a3: the only destination, taken" in ex.message
    assert not absorb.disabled and not expel.disabled
    assert [b for b in shown_choices(ex)] == []
    expel.click()
    assert ex.line.notation() == ["He>Fi a3x"]
    assert absorb.disabled and "follows the step of a Fire or Water action" in absorb.tooltip


def test_choosing_another_space_starts_the_turn_again_and_cancel_forgets():
    ex = Explorer(new_game())
    space(ex, "He").click()
    assert space(ex, "He").button_style == "info"
    assert not space(ex, "Wa").disabled  # still legal: nothing is played yet
    space(ex, "Wa").click()
    assert [c.label for c in ex.options()] == ["a3", "a3,a4"]
    ex.cancel_button.click()
    assert ex.picked == [] and ex.cancel_button.disabled
    assert ex.options()[0].kind == "space"


def test_a_disabled_space_clicked_anyway_says_why():
    ex = Explorer(new_game())
    space(ex, "La").click()
    assert ex.messages[-1] == ("error", "cannot sow La: the Lake space is empty")
    with pytest.raises(ExplorerError, match="needs a horizontal facing"):
        ex.choose_space("Fire")


def test_wind_or_thunder_asks_for_a_second_phase():
    ex = Explorer(TWO_PHASES)
    ex.choose_space("Fi")
    ex.choose("h6")
    assert ex.index == 0 and ex.options()[0].kind == "space"
    enabled = {b.description.split()[0] for b in ex.space_buttons if not b.disabled}
    assert enabled == {"He", "La", "Ea", "Mo", "Th", "Wi"}
    # the buttons show the stacks after the first sowing: Fire's stack went to Thunder
    assert space(ex, "Fi").description == "Fi" and "empty" in space(ex, "Fi").tooltip
    assert space(ex, "Th").description == "Th BWB"
    ex.choose_space("La")
    ex.choose("h5")
    ex.choose("x")
    assert ex.line.notation() == ["Fi>Th h6 ; La>Fi h5x"]


def test_monk_drop_orders_are_choices():
    ex = Explorer(MONK)
    ex.choose_space("Fi")
    opts = ex.options()
    assert opts[0].kind == "drops" and {"BBWW", "BWBW"} <= {c.label for c in opts}
    choice(ex, "BWBW").click()
    ex.choose("g8")
    ex.choose("+")
    assert ex.line.notation() == ["Fi/BWBW>Wa g8+"]


def test_the_penalty_is_a_choice_named_in_words():
    ex = Explorer(PENALTY)
    ex.choose_space("Ea")  # the penalty, the only option, is taken at once
    assert ex.line.notation() == ["Ea>Wi -"]
    assert "skip (-1 life): the only destination, taken" in ex.message


def test_solo_ties_are_choices_and_the_opponent_response_is_shown():
    ex = Explorer(solo_game())
    ex.choose_space("Ea")
    ties = shown_choices(ex)
    assert [b.description for b in ties] == ["(Mo:f8 Wa:f7+)", "(Mo:f8 Wa:e8+)"]
    assert "The black dragon acts: Mountain step f8, Water step e8, absorb." in ties[1].tooltip
    assert "break the opponent" in ex.status.value
    ties[1].click()
    assert "the black dragon acts" in ex.status.value
    assert [c.label for c in ex.session.builder.lone] == ["a3"]
    ex.choose("absorb")
    assert ex.line.notation() == ["Ea>Wa (Mo:f8 Wa:e8+) a3+"]
    assert ex.position.cells("black")[0] == (4, 7)
    assert "the black dragon acts: Mountain step f8, Water step e8, absorb" in ex.message


def test_a_single_opponent_response_is_not_asked_for():
    ex = Explorer(solo_game())
    ex.choose_space("Wa")
    assert [c.label for c in ex.options()] == ["a3", "a3,a4"]
    assert [c.kind for c in ex.picked] == ["space", "group"]


def test_play_takes_notation_and_an_illegal_turn_is_explained_in_the_widget():
    ex = Explorer(new_game())
    ex.play("Wa>He a3,a4")
    assert ex.index == 1
    with pytest.raises(ExplorerError, match="lands on"):
        ex.play("He>Fi a3x")
    assert ex.messages[-1][0] == "error" and "illegal turn" in ex.message
    assert ex.index == 1


def test_game_over_disables_everything_with_the_reason():
    ex = Explorer(OVER)
    assert all(b.disabled for b in ex.space_buttons)
    assert all("game is over" in b.tooltip for b in ex.space_buttons)
    assert "black wins" in ex.status.value
    with pytest.raises(ExplorerError, match="game is over"):
        ex.choose_space("He")


# ---- moving around the line --------------------------------------------------------------------
def test_undo_redo_prev_next_slider_and_play_move_along_the_line():
    ex = Explorer(new_game())
    for turn in ["Wa>He a3,a4", "Ea>Wa f8x", "Wi>He a5"]:
        ex.play(turn)
    states = list(ex.states)
    assert ex.slider.max == 3 and ex.slider.value == 3
    ex.undo_button.click()
    assert ex.position == states[2] and ex.slider.value == 2
    ex.prev_button.click()
    assert ex.index == 1 and ex.line.notation() == ["Wa>He a3,a4", "Ea>Wa f8x", "Wi>He a5"]
    assert "color:#999" in ex.moves.value  # turns ahead of the index are greyed
    ex.redo_button.click()
    ex.next_button.click()
    assert ex.index == 3 and ex.redo_button.disabled and ex.next_button.disabled
    ex.slider.value = 0
    assert ex.position == states[0] and ex.undo_button.disabled
    ex.play_widget.value = 2  # the Play widget drives the slider
    assert ex.slider.value == 2 and ex.position == states[2]
    ex.goto(1)
    assert ex.position == states[1]
    with pytest.raises(ExplorerError, match="no position 9"):
        ex.goto(9)


def test_undo_at_the_start_and_redo_at_the_end_say_so():
    ex = Explorer(new_game())
    ex.undo_button.click()
    assert "nothing to undo" in ex.message
    ex.redo_button.click()
    assert "nothing to redo" in ex.message


def test_playing_the_next_turn_keeps_the_line_and_another_turn_cuts_it():
    ex = Explorer(new_game(), line=["Wa>He a3,a4", "Ea>Wa f8x"])
    ex.play("Wa>He a3,a4")
    assert ex.index == 1 and len(ex.line) == 2
    ex.play("Ea>Wa f8+")
    assert ex.line.notation() == ["Wa>He a3,a4", "Ea>Wa f8+"] and ex.index == 2


def test_undo_with_choices_pending_forgets_them_first():
    ex = Explorer(new_game())
    ex.play("Wa>He a3,a4")
    ex.choose_space("Ea")
    ex.undo()
    assert ex.index == 1 and ex.picked == []
    ex.undo()
    assert ex.index == 0


# ---- solvers -----------------------------------------------------------------------------------
def test_hint_names_the_turn_the_turns_to_win_the_solver_and_the_certificate():
    ex = Explorer(State(ONE_TURN))
    ex.hint_button.click()
    assert ex.hint_turn == "Ea>Mo ="
    text = ex.message
    assert text.startswith("Sow Earth, then stay: wins in 1 turn, proved\n")
    assert "hint: Ea>Mo =" in text
    assert "taolong_lab.solvers.explicit" in text and "certificate" in text
    assert ex.index == 0  # a hint plays nothing


def test_solve_loads_the_winning_line_to_step_through():
    ex = Explorer(State(ONE_TURN))
    ex.solve_button.click()
    assert ex.line.notation() == ["Ea>Mo ="] and ex.index == 0 and ex.slider.max == 1
    assert "solved: win in 1 turn:" in ex.message
    ex.next_button.click()
    assert ex.position.outcome().winner == "white"
    assert all(b.disabled for b in ex.space_buttons)


def test_an_unsolved_challenge_says_what_was_proved(monkeypatch):
    """A challenge far beyond the hint's time (The Maze as black, minutes on the pure path)."""
    monkeypatch.setenv("TAOLONG_PURE", "1")
    ex = Explorer(solo_game("maze", player="black"), hint_time=0.2)
    assert ex.hint() is None
    assert "no win found in time" in ex.message and "stopped: time_limit" in ex.message


def test_solvers_on_a_two_player_position_explain_in_the_widget():
    ex = Explorer(new_game())
    assert ex.hint_button.disabled and "solo" in ex.hint_button.tooltip
    ex.hint_button.click()
    assert ex.messages[-1][0] == "error" and "solo challenges" in ex.message


def test_the_sat_method_answers_or_says_it_is_missing():
    ex = Explorer(State(ONE_TURN), method="sat")
    ex.hint_button.click()
    assert "sat" in ex.message.lower()
    if ex.messages[-1][0] == "ok":
        assert ex.hint_turn == "Ea>Mo ="


# ---- puzzles, errors, static view ----------------------------------------------------------------
def test_the_dropdown_lists_the_bundled_puzzles_and_loads_them():
    catalogue = bundled_puzzles()
    assert "rulebook-solo.jsonl:torus-black" in catalogue
    ex = Explorer(new_game())
    assert len(ex.puzzle_menu.options) == len(catalogue) + 1
    ex.puzzle_menu.value = "rulebook-solo.jsonl:torus-black"
    assert ex.puzzle.id == "torus-black" and ex.position.rules.scenario == "torus"
    assert "loaded the puzzle torus-black" in ex.message
    assert not ex.hint_button.disabled
    with pytest.raises(ExplorerError, match="no bundled puzzle"):
        ex.load_puzzle("nope")


def test_a_bug_in_a_callback_shows_its_traceback_in_the_widget(monkeypatch):
    ex = Explorer(new_game())

    def broken():
        raise RuntimeError("boom")

    monkeypatch.setattr(ex, "redo", broken)
    ex.redo_button.click()
    assert ex.messages[-1][0] == "error"
    assert "RuntimeError: boom" in ex.message and "Traceback" in ex.message
    assert "RuntimeError: boom" in ex.message_area.value


def test_static_views_fall_back_to_the_svg_of_the_current_position():
    ex = Explorer(new_game())
    ex.play("Wa>He a3,a4")
    bundle = ex._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["image/svg+xml"].startswith("<svg")
    assert ex.position.to_tln() in data["image/svg+xml"]
    assert ex._repr_svg_() == data["image/svg+xml"]


def _click_a_random_turn(ex: Explorer, rng) -> None:
    before = ex.index
    spaces = [b for b in ex.space_buttons if not b.disabled]
    assert spaces, ex.position.to_tln()
    rng.choice(spaces).click()
    for _ in range(8):
        if ex.index != before:
            return
        kind = ex.options()[0].kind
        if kind == "space":
            buttons = [b for b in ex.space_buttons if not b.disabled]
        elif kind == "effect":
            buttons = [b for b in ex.effect_buttons.values() if not b.disabled]
        else:
            buttons = [b for b in shown_choices(ex) if not b.disabled]
        assert buttons, f"{kind}: nothing enabled in {ex.position.to_tln()}"
        rng.choice(buttons).click()
        assert ex.messages[-1][0] != "error", ex.message
    raise AssertionError(f"no turn played after 8 clicks: {ex.position.to_tln()}")


@pytest.mark.parametrize("solo", [False, True], ids=["two-player", "solo"])
def test_random_turns_by_clicks_in_every_scenario(solo):
    import random

    from taolong_lab.rules import scenario_names

    rng = random.Random(7)
    modes = ("grasshopper", "monk", "master", "chosen-one")
    for number, scenario in enumerate(scenario_names()):
        mode = modes[number % len(modes)]
        start = solo_game(scenario, mode) if solo else new_game(scenario, mode)
        ex = Explorer(start)
        for _ in range(3):
            if ex.position.is_over():
                break
            before = ex.position
            _click_a_random_turn(ex, rng)
            assert ex.position == before.play(ex.turns[-1])
            assert ex.turns[-1] in before.legal_turns()


def test_the_picture_shows_the_turn_being_built_and_a_failed_overlay_is_reported(monkeypatch):
    import taolong_lab.explorer.session as session

    ex = Explorer(new_game())
    plain = ex.board.value
    ex.choose_space("Wa")  # the sowing and the destinations are drawn over the board
    assert ex.board.value != plain and ex.board.value.startswith("<svg")
    draw = session.svg

    def broken(position, **options):
        if {"sow", "destinations", "highlight"} & set(options):
            raise ValueError("no overlay today")
        return draw(position, **options)

    monkeypatch.setattr(session, "svg", broken)
    ex.choose_space("He")  # another space: its overlay fails
    assert ex.board.value.startswith("<svg")  # the plain board, still drawn
    assert any("no overlay today" in text for _level, text in ex.messages)


# ---- clicks on the picture and the log ---------------------------------------------------------
def test_clicks_on_the_picture_play_a_turn():
    """The browser's messages (what the board's script sends for a click) reach the session:
    a wheel space, then a cell."""
    ex = Explorer(new_game())
    assert 'class="space"' in ex.board.value and 'class="cell"' in ex.board.value
    ex.board._handle_custom_msg({"click": "space-Wa"}, [])
    assert [c.label for c in ex.picked] == ["Wa"]
    ex.board._handle_custom_msg({"click": "cell-b2"}, [])  # not a destination: said, not played
    assert ex.messages[-1][0] == "error" and "b2 is not a legal destination" in ex.message
    ex.board._handle_custom_msg({"click": "cell-a4"}, [])
    assert ex.line.notation() == ["Wa>He a3,a4"] and moves_listed(ex) == 1
    ex.board._handle_custom_msg({"nonsense": 1}, [])  # ignored
    assert ex.index == 1


def test_the_messages_run_newest_first_above_the_board_with_their_details_folded():
    ex = Explorer(State(ONE_TURN))
    ex.play("Ea>Mo =")
    ex.undo()
    ex.hint()
    area = ex.message_area.value
    played, hint = area.index("white played Ea&gt;Mo ="), area.index("Sow Earth, then stay")
    assert hint < played  # the newest first: where the eye is after a click
    assert 'data-age="0"' in area[:hint] and "font-weight:bold" in area[:hint]
    children = list(ex.children)
    board_row = next(c for c in children if ex.board in getattr(c, "children", ()))
    assert children.index(ex.message_area) < children.index(board_row)  # above the board
    shown, folded = area[hint:].split("<details>", 1)
    assert "certificate" in folded and "certificate" not in shown
