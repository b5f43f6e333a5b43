"""Tao Long on the game protocol like any other game: its heuristic is its evaluation, its sides
are the two colours (the solo opponent plays one), its result is the engine's; the protocol's
defaults for a game that says nothing more; a State put behind the protocol at the edges."""

from __future__ import annotations

import random

import pytest
from agent_positions import played_on
from hypothesis import given, settings
from hypothesis import strategies as st
from tiny_games import PIG

from taolong_lab import Line, analyse, game_state, new_game, solo_game
from taolong_lab.agents import AgentError, GreedyAgent
from taolong_lab.agents import analyse as analyse_protocol
from taolong_lab.agents.scoring import HeuristicEvaluation, evaluation_for
from taolong_lab.games import (
    TAOLONG,
    GameError,
    TaoLongState,
    Trajectory,
    as_line,
    game,
    winner,
)
from taolong_lab.games.taolong import SOLO_OPPONENT, default_weights, evaluate, features
from taolong_lab.rules import MODES, scenario_names


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10_000),
    scenario=st.sampled_from(scenario_names()),
    mode=st.sampled_from(MODES),
    solo=st.booleans(),
    plies=st.integers(0, 25),
)
def test_the_heuristic_is_taolongs_evaluation(seed, scenario, mode, solo, plies):
    """White's score and its negation for black; the player's side alone in the solo variant."""
    start = solo_game(scenario, mode) if solo else new_game(scenario, mode)
    state = played_on(start, seed, plies)
    if state.is_over():
        return
    white = evaluate(state)
    got = TAOLONG.heuristic(TaoLongState(state))
    if solo:
        assert got == ((white if state.to_move == "white" else -white),)
    else:
        assert got == (white, -white)
    evaluation = evaluation_for(TaoLongState(state))
    assert isinstance(evaluation, HeuristicEvaluation) and evaluation.scale == 40.0


def test_the_weights_reach_the_heuristic():
    state = TaoLongState(played_on(new_game(), 1, 6))
    heavier = default_weights().replace(life=default_weights().life + 1)
    life = state.state.life("white") - state.state.life("black")
    assert TAOLONG.heuristic(state, heavier)[0] == TAOLONG.heuristic(state)[0] + life


def test_the_search_hints_see_a_bite():
    """A turn that damages the other dragon is noisy and scores its damage as tactics."""
    for seed in range(40):
        state = played_on(new_game(), seed, 30)
        if state.is_over():
            continue
        played = TaoLongState(state)
        mover, other = state.to_move, ("black" if state.to_move == "white" else "white")
        assert TAOLONG.pending(played) == (features(state)["initiative"][state.mover] != 0)
        for _, after in played.successors():
            hurt = after.state.life(other) < state.life(other)
            assert TAOLONG.noisy(played, after) == hurt
            gain = after.state.life(mover) - after.state.life(other)
            assert TAOLONG.tactics(played, after) == gain


def test_a_two_player_game_has_its_players_as_sides():
    start = TAOLONG.new()
    assert start.sides() == start.player_names() == ("white", "black")
    after = start.apply("Wa>He a3,a4")
    assert [after.side_of(p) for p in (0, 1)] == [0, 1] and after.side_to_move() == 1
    assert after.side_players(["ann", "bob"]) == ("ann", "bob")


@pytest.mark.parametrize("colour", ["white", "black"])
def test_the_solo_variant_names_both_colours(colour):
    start = TAOLONG.new(solo=True, player=colour)
    side = ("white", "black").index(colour)
    assert start.players == 1 and start.sides() == ("white", "black")
    assert start.side_of(0) == side == start.side_to_move()
    named = start.side_players(["me"])
    assert named[side] == "me" and named[1 - side] == SOLO_OPPONENT


def test_a_finished_game_gives_the_engines_result():
    end = next(s for s in (played_on(new_game(), seed, 400) for seed in range(20)) if s.is_over())
    played = TaoLongState(end)
    found = end.outcome()
    assert played.result() == (found.winner, found.reason)
    assert played.outcome_text() == str(found)
    assert played.returns()[("white", "black").index(found.winner)] == 1.0
    with pytest.raises(GameError, match="not over"):
        TAOLONG.new().result()


def test_an_action_is_described_in_words():
    start = TAOLONG.new()
    turn = start.legal_actions()[0]
    assert start.describe_action(turn) == start.state.describe_turn(turn) != ""


def test_the_protocol_defaults_for_a_game_that_says_nothing_more():
    """Pig gives no side hooks: its sides are its players, its result its returns'."""
    start = PIG.new(target=5)
    assert start.sides() == start.player_names()
    assert start.side_of(1) == 1 and start.side_to_move() == 0
    assert start.side_players(["a", "b"]) == ("a", "b") and start.describe_action("roll") == ""
    state, rng = start, random.Random(3)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
    best = winner(state)
    assert state.result() == (state.player_names()[best], f"{state.player_names()[best]} wins")
    assert state.outcome_text() == state.result()[1]
    hints = (PIG.tactics(start, start), PIG.pending(start), PIG.noisy(start, start))
    assert hints == (0.0, False, False)


def test_as_line_bridges_the_two_sequences():
    start = TAOLONG.new()
    played = Trajectory(start, ["Wa>He a3,a4", "Ea>Wa f8x"])
    line = as_line(played)
    assert isinstance(line, Line) and line == Line(new_game(), ["Wa>He a3,a4", "Ea>Wa f8x"])
    assert [TaoLongState(s) for s in line.states()] == played.states()
    with pytest.raises(GameError, match="only a trajectory of Tao Long"):
        as_line(Trajectory(game("long-tau").new()))


def test_a_state_is_put_behind_the_protocol_at_the_facade():
    state = new_game()
    assert game_state(state) == TaoLongState(state) and game_state(TAOLONG.new()) == TAOLONG.new()
    with pytest.raises(AgentError, match="plays a GameState"):
        analyse_protocol(state, nodes=100)
    found = analyse(state, nodes=300)
    protocol = analyse_protocol(TaoLongState(state), nodes=300)
    assert found.state is state and isinstance(found.line, Line)
    assert isinstance(protocol.line, Trajectory) and protocol.state == TaoLongState(state)
    assert found.line.notation() == protocol.line.notation() and found.turns == protocol.turns
    assert GreedyAgent().choose(game_state(state)) in state.legal_turns()


def test_a_finished_position_is_analysed_from_the_side_to_move():
    """The side to move of a finished game scores its loss (the winner moved last)."""
    end = next(s for s in (played_on(new_game(), seed, 400) for seed in range(20)) if s.is_over())
    found = analyse(end, nodes=100)
    assert found.player == end.to_move and found.source == "rules"
    won = end.outcome().winner == end.to_move
    assert found.proved == ("win" if won else "loss")
    assert (found.white_score > 0) == (end.outcome().winner == "white")
