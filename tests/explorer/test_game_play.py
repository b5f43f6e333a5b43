"""The headless cores of the game interfaces: :class:`GamePlay` (people and agents playing any
game of the protocol) and the Explorer's :class:`AgentPanel` (the computer, the evaluation bar,
the best line, game records). The agents play at a node budget, so they are deterministic."""

from __future__ import annotations

import pytest
from agent_positions import tactical_positions
from tiny_games import KUHN, PIG, TINY_GAMES

from taolong_lab import State, new_game, solo_game
from taolong_lab.agents import GameRecord, GreedyAgent, RandomAgent, save_records
from taolong_lab.explorer import AgentPanel, ExplorerError, ExplorerSession, GamePlay, ReviewPanel
from taolong_lab.explorer.agent_panel import first_player_share
from taolong_lab.explorer.game_play import make_agent
from taolong_lab.games import CHANCE
from taolong_lab.games import registry as registry_module


@pytest.fixture(autouse=True)
def tiny_games_registered(monkeypatch):
    """Pig and Kuhn poker in the registry for each test, and out of it after."""
    monkeypatch.setattr(registry_module, "_GAMES", dict(registry_module._GAMES))
    for tiny in TINY_GAMES:
        registry_module.register(tiny)


# White has lost (white to move).
OVER = "field/grasshopper/current 8/8/8/8/8/8/8/8 h8:0:3 e7-d7-d6:1:0 B/W/B/WB/WB/-/W/- 7:5 w 451"


# ---- GamePlay --------------------------------------------------------------------------------
def test_agents_and_chance_answer_a_person_until_it_is_its_turn_again():
    play = GamePlay(PIG.new(target=5), seats=[None, GreedyAgent()], seed=3)
    assert play.human_to_move() and play.state.legal_actions() == ["roll"]
    play.play("roll")
    assert not play.human_to_move() and play.state.current_player() == CHANCE
    moved = list(play.advance())
    assert moved[0][0] == CHANCE
    assert play.over() or play.human_to_move()
    assert play.movers == [0, *[m for m, _ in moved]]


def test_chance_is_drawn_by_the_seed_and_again_after_undo():
    def rolls(seed):
        play = GamePlay(PIG.new(), seed=seed)
        drawn = []
        for _ in range(6):
            play.play("roll")
            drawn.append(play.draw())
            if play.state.current_player() == 1:
                play.play("roll")
                drawn.append(play.draw())
        return play, drawn

    play, first = rolls(1)
    assert rolls(1)[1] == first
    assert any(rolls(seed)[1] != first for seed in range(2, 6))
    before = list(play.actions)
    play.undo()  # the last roll and its outcome
    play.play("roll")
    play.draw()
    assert play.actions == before


def test_undo_takes_back_the_persons_action_and_the_answers():
    play = GamePlay(new_game(), seats=[None, RandomAgent()], seed=1)
    play.play("1")
    list(play.advance())
    play.play("2")
    list(play.advance())
    assert len(play.actions) == 4
    assert play.undo() == 2 and len(play.actions) == 2 and play.state == play.states[2]
    assert play.undo() == 2 and play.actions == [] and play.state == play.start
    with pytest.raises(ExplorerError, match="nothing to undo"):
        play.undo()
    agents = GamePlay(new_game(), seats=[RandomAgent(), RandomAgent()])
    list(agents.advance(most=3))
    assert len(agents.actions) == 3 and agents.undo() == 1  # agents alone: one action


def test_a_person_sees_only_its_sides_cards():
    play = GamePlay(KUHN.new(), seats=[None, GreedyAgent()], seed=5)
    list(play.advance())  # the deal
    state = play.state
    assert play.view() == state.text_for(0) != state.text()
    assert play.action_text(CHANCE, play.actions[0]) == "(chance: hidden)"
    assert play.view(1) == state.text_for(1)
    play.play("bet")
    list(play.advance())
    assert play.over() and play.view() == play.state.text()  # all is shown at the end
    pure = GamePlay(PIG.new())
    assert pure.view() == pure.state.text() and pure.action_text(CHANCE, "4") == "4"


def test_two_people_each_see_their_own_view_when_to_move():
    play = GamePlay(KUHN.new(), seed=2)
    play.draw()
    assert play.viewer() == 0 and play.view() == play.state.text_for(0)
    play.play("pass")
    assert play.viewer() == 1 and play.view() == play.state.text_for(1)


def test_a_bad_entry_raises_with_the_reason_and_changes_nothing():
    play = GamePlay(new_game(), seats=[None, GreedyAgent()])
    with pytest.raises(ExplorerError, match="there is no turn 7: enter 1 to 6"):
        play.play("7")
    with pytest.raises(ExplorerError, match="there is no turn 0"):
        play.play("0")
    with pytest.raises(ExplorerError, match="sowing Wa lands on Heaven, not Fire"):
        play.play("Wa>Fi a3")
    assert play.actions == []
    play.play("1")
    with pytest.raises(ExplorerError, match="not a person's turn"):
        play.play("1")
    with pytest.raises(ExplorerError, match="2 players play this game, not 3 seats"):
        GamePlay(new_game(), seats=[None, None, None])
    with pytest.raises(ExplorerError, match="seed"):
        GamePlay(new_game(), seed=-1)
    with pytest.raises(ExplorerError, match="player: 0 to 1, not 2"):
        play.set_seat(2, None)
    with pytest.raises(ExplorerError, match="agent: one of person"):
        make_agent("deep-blue")


def test_the_record_reads_back_with_the_players_and_chance():
    play = GamePlay(PIG.new(target=5), seats=[None, GreedyAgent()], seed=4, names=["ann", "x"])
    while not play.over():
        play.play("hold" if play.state.turn >= 3 else "roll")
        list(play.advance())
    record = play.record(date="2026-01-02")
    again = GameRecord.from_json(record.to_json(), known=PIG)
    assert again == record and again.players == ("ann", "GreedyAgent()")
    assert list(again.turns) == [str(a) for a in play.actions] and again.winner is not None
    solo = GamePlay(solo_game(player="black"))
    solo.play("1")
    assert solo.record().players == ("solo opponent", "human")


# ---- the Explorer's agent panel ----------------------------------------------------------------
def test_the_computer_answers_the_persons_turn_in_its_colour():
    session = ExplorerSession(new_game())
    panel = AgentPanel(session, nodes=300)
    assert panel.respond() is None  # nobody is the computer
    panel.set_computer("black")
    assert not panel.computer_to_move()
    session.play("Wa>He a3,a4")
    turn = panel.respond()
    assert turn is not None and session.line.notation()[1] == str(turn)
    assert panel.respond() is None  # white, the person, is to move
    session.goto(1)  # stepping back in the line: the computer waits
    assert not panel.computer_to_move()
    white = AgentPanel(ExplorerSession(new_game()), nodes=300)
    white.set_computer("white")
    assert white.respond() is not None and len(white.session.line) == 1
    solo = AgentPanel(ExplorerSession(solo_game()), nodes=300)
    solo.set_computer(solo.session.position.to_move)  # the solo opponent is not the computer
    assert not solo.computer_to_move()
    with pytest.raises(ExplorerError, match="white, black or None, not 'red'"):
        panel.set_computer("red")


def test_the_bar_and_the_best_line_follow_the_analysis_of_the_position_shown():
    session = ExplorerSession(tactical_positions(1, 1)[0])
    panel = AgentPanel(session, nodes=2000)
    assert panel.bar() == 0.5 and panel.summary() == "" and panel.best_line() == []
    panel.analyse()
    winner = session.position.to_move
    assert panel.bar() == (1.0 if winner == "white" else 0.0)
    assert panel.summary().startswith(f"{winner} wins in 1 ")
    assert len(panel.best_line()) == 1
    session.play(panel.best_line()[0])
    assert panel.bar() == 0.5 and panel.current() is None  # another position
    start = AgentPanel(ExplorerSession(new_game()), nodes=500)
    start.analyse()
    assert 0.0 < start.bar() < 1.0 and start.summary().endswith(start.best_line()[-1])
    over = AgentPanel(ExplorerSession(State(OVER)), nodes=10)
    over.analyse()  # white has lost
    assert over.bar() == 0.0 and over.summary().startswith("white loses in 0")
    assert first_player_share(None, new_game()) == 0.5
    with pytest.raises(ExplorerError, match="nodes"):
        AgentPanel(session, nodes=0)


def test_a_game_record_loads_its_moves_into_the_explorer(tmp_path):
    game = GamePlay(new_game("torus"), seats=[RandomAgent(), RandomAgent()], seed=7)
    list(game.advance(most=5))
    other = GamePlay(PIG.new(), seats=[RandomAgent(), RandomAgent()], seed=1)
    list(other.advance(most=5))
    path = tmp_path / "games.jsonl"
    save_records(path, [game.record(), other.record()])
    session = ExplorerSession(new_game())
    panel = AgentPanel(session, nodes=100)
    record = panel.load_record(path)
    assert session.line.notation() == list(record.turns) and len(session.line) == 5
    assert session.index == 0 and session.position == new_game("torus")
    with pytest.raises(ExplorerError, match="plays Tao Long, not Pig"):
        panel.load_record(path, 1)
    with pytest.raises(ExplorerError, match="no record 5"):
        panel.load_record(path, 5)
    with pytest.raises(ExplorerError, match="cannot read the record"):
        panel.load_record(tmp_path / "missing.jsonl")


def test_the_agent_and_review_panels_share_the_budget_and_the_record_loading(tmp_path):
    session = ExplorerSession(new_game())
    agent, reviewer = AgentPanel(session), ReviewPanel(session)
    assert (agent.nodes, agent.time_limit) == (None, 2.0)  # two seconds a move
    assert (reviewer.nodes, reviewer.time_limit) == (2000, None)  # positions a review's turn
    reviewer.set_budget(nodes=50)
    assert (reviewer.nodes, reviewer.time_limit) == (50, None)
    with pytest.raises(ExplorerError, match="needs a budget"):
        agent.set_budget()
    with pytest.raises(ExplorerError, match="time_limit: seconds"):
        ReviewPanel(session, time_limit=0.0)
    pig = GamePlay(PIG.new(), seats=[RandomAgent(), RandomAgent()], seed=1)
    list(pig.advance(most=3))
    path = tmp_path / "pig.jsonl"
    save_records(path, [pig.record()])
    with pytest.raises(ExplorerError, match="plays Tao Long, not Pig"):
        reviewer.load(path)
    with pytest.raises(ExplorerError, match="no record 3"):
        reviewer.load(path, 3)
    assert reviewer.review is None and agent.computer is None and agent.analysis is None
