"""The game widgets driven without a kernel or a browser (``Button.click()``, as in
tests/explorer/test_widgets.py): :class:`GameWidget` for any game of the protocol and the Explorer's
computer and analysis controls. Their headless cores: tests/explorer/test_game_play.py."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("ipywidgets")

from agent_positions import tactical_positions
from tiny_games import KUHN, PIG, TINY_GAMES

from taolong_lab import new_game
from taolong_lab.agents import save_records
from taolong_lab.explorer import GamePlay
from taolong_lab.explorer.agent_widget import attach
from taolong_lab.explorer.game_widget import MAX_BUTTONS, GameWidget
from taolong_lab.explorer.widget import Explorer
from taolong_lab.games import registry as registry_module


@pytest.fixture(autouse=True)
def tiny_games_registered(monkeypatch):
    """Pig and Kuhn poker in the registry for each test, and out of it after."""
    monkeypatch.setattr(registry_module, "_GAMES", dict(registry_module._GAMES))
    for tiny in TINY_GAMES:
        registry_module.register(tiny)


def button(gw: GameWidget, label: str):
    return next(b for b in gw.buttons.children if b.description == label)


def test_actions_are_buttons_and_the_agent_answers_a_click():
    gw = GameWidget("taolong", agents={1: "greedy"})
    labels = [b.description for b in gw.buttons.children]
    assert labels == [str(t) for t in new_game().legal_turns()]
    assert gw.menu.layout.display == "none" and gw.draw_button.disabled
    button(gw, "Wa>He a3,a4").click()
    assert len(gw.play.actions) == 2 and gw.play.human_to_move()
    assert 'data-actions="2"' in gw.status.value and "<svg" in gw.picture.value
    gw.undo_button.click()
    assert gw.play.actions == [] and gw.undo_button.disabled


def test_many_actions_are_a_dropdown():
    rng, state = random.Random(0), new_game()
    while len(state.legal_turns()) <= MAX_BUTTONS:
        state = state.play(rng.choice(state.legal_turns()))
    gw = GameWidget(state)
    assert gw.buttons.children == () and gw.menu.layout.display is None
    gw.menu.value = gw.menu.options[2][1]
    gw.menu_button.click()
    assert [str(a) for a in gw.play.actions] == [str(state.legal_turns()[2])]


def test_chance_is_drawn_by_the_seed_button_and_a_bad_click_is_shown():
    def game(seed):
        gw = GameWidget(PIG.new(), seed=seed)
        for _ in range(4):
            button(gw, "roll").click()
            assert not gw.draw_button.disabled and gw.buttons.children == ()
            gw.draw_button.click()
        return [str(a) for a in gw.play.actions]

    assert game(1) == game(1)
    assert any(game(seed) != game(1) for seed in range(2, 6))
    gw = GameWidget(PIG.new())
    gw.draw_button.click()  # not a chance node: said in the widget
    assert "not a chance node" in gw.message.value


def test_an_agent_can_take_either_side_and_hidden_cards_stay_hidden():
    gw = GameWidget(KUHN.new(), seed=3)
    gw.seat_menus[0].value = "mcts"
    assert gw.play.seats[0] is not None  # waits for the deal
    gw.draw_button.click()  # the deal; the agent (player 1) acts, the person (2) is to move
    assert gw.play.human_to_move() and gw.play.state.current_player() == 1
    deal = gw.play.state.deal
    assert gw.play.state.observation(1) in gw.picture.value.replace("&amp;", "&")
    assert f"cards {deal}" not in gw.picture.value
    button(gw, "bet").click()
    assert gw.play.over() and f"cards {deal}" in gw.picture.value


def test_the_explorer_computer_toggle_the_bar_and_a_record():
    ex = Explorer()
    controls = attach(ex, nodes=300)
    assert controls in ex.children and 'data-share="0.5000"' in controls.bar.value
    controls.computer.value = "black"
    ex.play("Wa>He a3,a4")
    assert len(ex.line) == 2 and ex.position.to_move == "white"
    controls.analyse_button.click()
    assert "for white (depth" in controls.line.value
    controls.computer.value = "nobody"
    controls.auto.value = True
    ex.play(str(ex.position.legal_turns()[0]))
    assert len(ex.line) == 3 and "for white (depth" in controls.line.value  # analysed at once
    assert ex.position.to_move == "black"
    won = tactical_positions(1, 1)[0]
    controls.auto.value = False
    ex.load(won)
    assert 'data-share="0.5000"' in controls.bar.value  # analysed after the click only
    controls.analyse_button.click()
    share = "1.0000" if won.to_move == "white" else "0.0000"
    assert f'data-share="{share}"' in controls.bar.value
    assert f"{won.to_move} wins in 1" in controls.line.value


def test_a_record_loads_into_the_explorer_from_the_controls(tmp_path):
    game = GamePlay(new_game(), seats=[None, None])
    for entry in ("1", "1", "2"):
        game.play(entry)
    path = tmp_path / "games.jsonl"
    save_records(path, [game.record()])
    ex = Explorer()
    controls = attach(ex, nodes=100)
    controls.record_path.value = str(path)
    controls.record_button.click()
    assert ex.line.notation() == [str(a) for a in game.actions] and ex.index == 0
    controls.record_path.value = str(tmp_path / "none.jsonl")
    controls.record_button.click()
    assert "cannot read the record" in ex.message


def test_the_review_mode_marks_the_moves_and_draws_the_best_turn(tmp_path):
    from taolong_lab.explorer.review_widget import attach_review

    blunder = (
        "torus/grasshopper/current 6/6/6/6/6/6 b3-c3-c2:3:0 f2-a2:1:1 W/-/BW/BB/WB/W/-/- 4:7 b 120"
    )
    from taolong_lab import State, game_state
    from taolong_lab.agents import GameRecord

    record = GameRecord.from_actions(
        game_state(State(blunder)), ["Th>Mo f3", "Fi>Ea a3"], ("a", "b")
    )
    path = tmp_path / "game.jsonl"
    save_records(path, [record])
    ex = Explorer()
    controls = attach_review(ex, nodes=2000)
    controls.record_path.value = str(path)
    controls.load_button.click()
    assert 'data-class="blunder"' in ex.moves.value and 'data-class="best"' in ex.moves.value
    best = controls.panel.best()
    assert best is not None and ex.session.hint_turn == best
    assert ex.board.value == ex.svg() and "blunder" in controls.turn.value
    ex.next_button.click()
    assert 'data-share="1.0000"' in controls.bar.value
