"""The agents, analyse, records, matches and the balance card on games other than Tao Long:
the dice game (chance) and the hidden-card game of tests/tiny_games.py."""

from __future__ import annotations

import json

import pytest
from tiny_games import KUHN, PIG, TINY_GAMES, KuhnState, PigState

from taolong_lab.agents import (
    AgentError,
    AlphaBetaAgent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    RecordError,
    analyse,
    load_records,
    match,
)
from taolong_lab.agents import balance as card_module
from taolong_lab.agents.alphabeta import Search
from taolong_lab.agents.base import Budget
from taolong_lab.agents.matches import play
from taolong_lab.agents.scoring import HeuristicEvaluation, PlayoutEvaluation, evaluation_for
from taolong_lab.games import WIN, Trajectory
from taolong_lab.games import registry as registry_module

AGENTS = {
    "random": lambda seed: RandomAgent(seed=seed),
    "greedy": lambda seed: GreedyAgent(seed=seed, samples=3),
    "alphabeta": lambda seed: AlphaBetaAgent(nodes=400, seed=seed, samples=3),
    "mcts": lambda seed: MCTSAgent(nodes=400, seed=seed),
}


@pytest.fixture
def registered(monkeypatch):
    """The tiny games in the registry, for the records that name them."""
    monkeypatch.setattr(registry_module, "_GAMES", dict(registry_module._GAMES))
    for game in TINY_GAMES:
        registry_module.register(game)


@pytest.mark.parametrize("game", TINY_GAMES, ids=lambda g: g.name)
@pytest.mark.parametrize("kind", sorted(AGENTS))
def test_every_agent_plays_only_legal_actions(game, kind):
    for seed in range(3):
        record = play([AGENTS[kind](seed)] * 2, game.new(), seed=seed, max_turns=40)
        played = record.trajectory()  # replays and checks every action
        assert len(played) == len(record.turns) and played.start == game.new()


def test_the_evaluations_are_the_games_own_or_random_playouts():
    assert isinstance(evaluation_for(PIG.new()), HeuristicEvaluation)
    assert evaluation_for(PIG.new()).scale == PIG.heuristic_scale
    playouts = evaluation_for(KUHN.new().apply("JQ"))
    assert isinstance(playouts, PlayoutEvaluation)
    state = KUHN.new().apply("KJ").apply("bet")
    scores = playouts.scores(state)
    assert scores == playouts.scores(state) and scores[0] == -scores[1] and scores[0] > 0


def _expectimax(state, depth, evaluation, me, ply=0):
    """Plain expectimax for ``me`` as the search defines it: chance is no ply."""
    if state.is_terminal():
        value = state.returns()[me]
        return WIN - ply if value >= 1 else -(WIN - ply)
    if state.is_chance():
        return sum(
            p * _expectimax(state.apply(a), depth, evaluation, me, ply)
            for a, p in state.chance_outcomes()
        )
    if depth == 0:
        return evaluation.scores(state)[me]
    values = [
        _expectimax(after, depth - 1, evaluation, me, ply + 1) for _, after in state.successors()
    ]
    return max(values) if state.current_player() == me else min(values)


@pytest.mark.parametrize("text", ["pig 12 7 9 3 0-", "pig 12 10 4 0 1-", "pig 20 0 0 6 0-"])
def test_alphabeta_at_a_fixed_depth_equals_plain_expectimax(text):
    state = PIG.from_string(text)
    evaluation = evaluation_for(state)
    for depth in (1, 2, 3, 4):
        search = Search(evaluation, Budget(None, None), quiescence=False)
        scores = [found for _, found in search.deepen(state, depth, every=True)][-1]
        if search.completed_depth < depth:
            break  # a proved result stopped the deepening
        me = state.current_player()
        expected = [
            _expectimax(after, depth - 1, evaluation, me, 1) for _, after in state.successors()
        ]
        assert sorted(s for _, s in scores) == pytest.approx(sorted(expected))


def test_alphabeta_and_greedy_hold_a_winning_total():
    state = PIG.from_string("pig 12 8 11 5 0-")  # holding wins now; rolling may lose it
    assert GreedyAgent().choose(state) == "hold"
    assert AlphaBetaAgent(nodes=2000).choose(state) == "hold"
    assert MCTSAgent(nodes=2000).choose(state) == "hold"


def test_mcts_draws_chance_outcomes_by_their_probabilities():
    state = PIG.from_string("pig 50 0 0 4 0-")
    root = MCTSAgent(nodes=6000, seed=2).search(state)
    roll = next(c for c in root.children if c.turn == "roll")
    shares = {c.turn: c.visits / roll.visits for c in roll.children}
    assert sorted(shares) == ["1", "2", "3", "4", "5", "6"]
    assert all(0.08 < share < 0.27 for share in shares.values()), shares


def _twins():
    """Pairs of Kuhn positions the player to move cannot tell apart (the other card differs)."""
    for bets in ("", "p", "pb", "b"):
        mover = len(bets) % 2
        for mine in "JQK":
            others = [c for c in "JQK" if c != mine]
            pair = [mine + o if mover == 0 else o + mine for o in others]
            yield KuhnState(pair[0], bets), KuhnState(pair[1], bets)


@pytest.mark.parametrize("kind", sorted(AGENTS))
def test_agents_do_not_peek_at_the_hidden_card(kind):
    for first, second in _twins():
        assert first.observation(first.current_player()) == second.observation(
            second.current_player()
        )
        assert AGENTS[kind](5).choose(first) == AGENTS[kind](5).choose(second)


def test_analyse_scores_a_hidden_card_position_from_the_players_view():
    for first, second in _twins():
        a, b = analyse(first, nodes=600, samples=3), analyse(second, nodes=600, samples=3)
        assert [(t.turn, t.score) for t in a.turns] == [(t.turn, t.score) for t in b.turns]
        assert a.proved is None and len(a.line) == 1


def test_analyse_a_position_with_chance():
    found = analyse(PIG.from_string("pig 12 8 11 5 0-"), nodes=3000)
    assert found.turns[0].turn == "hold" and found.proved == "win"
    assert isinstance(found.line, Trajectory) and found.line.end.is_terminal()
    assert "player 1" not in str(found)  # proved: "win in 1 ..."
    with pytest.raises(AgentError, match="chance"):
        analyse(PIG.from_string("pig 12 8 11 5 0r"))


def _mean_return(result):
    """The first agent's mean return over a match's games (it plays first in the even ones)."""
    return sum(r.returns()[i % 2] for i, r in enumerate(result.records)) / len(result.records)


@pytest.mark.parametrize(
    ("start", "agent"),
    [
        (PIG.new(target=20), GreedyAgent()),
        (PIG.new(target=20), MCTSAgent(nodes=600)),
        (PIG.new(target=20), AlphaBetaAgent(nodes=600)),
        (KUHN.new(), GreedyAgent()),
        (KUHN.new(), MCTSAgent(nodes=600)),
    ],
    ids=["pig-greedy", "pig-mcts", "pig-alphabeta", "kuhn-greedy", "kuhn-mcts"],
)
def test_the_agents_beat_random_play(start, agent):
    """Pig is won or lost; in Kuhn poker a player aims at chips, not at winning hands."""
    result = match(agent, RandomAgent(), games=40, seed=3, start=start, opening=0)
    assert result.score > 0.6 if start.game is PIG else _mean_return(result) > 0.05, str(result)


def test_a_match_of_another_game_records_and_resumes(tmp_path, registered):
    out = tmp_path / "pig.jsonl"
    first = match(GreedyAgent(), RandomAgent(), games=2, seed=1, start=PIG.new(), out=out)
    again = match(GreedyAgent(), RandomAgent(), games=2, seed=1, start=PIG.new(), out=out)
    assert first.records == again.records
    back = load_records(out)
    assert back == list(first.records)
    doc = json.loads(out.read_text().splitlines()[0])
    assert doc["version"] == 2 and doc["game"] == "pig" and doc["players"] == list(back[0].players)
    assert doc["result"]["returns"] in ([1.0, -1.0], [-1.0, 1.0])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(game="no-such-game"), "game"),
        (lambda d: d.update(start="pig 12 0 0 0 2-"), "start"),
        (lambda d: d["turns"].insert(1, "hold"), "turns[1]"),
        (lambda d: d["result"].update(returns=[0.0, 0.0]), "result.returns"),
        (lambda d: d["result"].update(winner="player 3"), "result.winner"),
        (lambda d: d.update(players=["me"]), "players"),
        (lambda d: d["result"].update(returns=[2, -2]), "result.returns[0]"),
        (lambda d: d.update(extra=1), "record"),
    ],
)
def test_a_bad_record_of_another_game_names_its_field(tmp_path, registered, change, field):
    record = play([GreedyAgent(), RandomAgent()], PIG.new(), seed=4)
    doc = record.to_json()
    change(doc)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(doc) + "\n")
    with pytest.raises(RecordError) as caught:
        load_records(path)
    assert caught.value.problems[0][1] == field, str(caught.value)


def test_the_balance_card_of_another_game(tmp_path):
    levels = {"greedy": GreedyAgent(), "mcts": MCTSAgent(nodes=200)}
    variants = [{"target": 8}, {"target": 15}]
    card = card_module.balance_card(levels, game=PIG, variants=variants, games=3, seed=2)
    assert card["settings"]["game"] == "pig" and "weights" not in card["settings"]
    assert [c["rules"] for c in card["cells"]] == ["target=8", "target=8", "target=15", "target=15"]
    for cell in card["cells"]:
        summary = cell["summary"]
        assert summary["games"] == 3 and len(summary["wins"]) == 2
        first, second = (w["value"] for w in summary["wins"])
        assert first + second == pytest.approx(1.0)  # Pig has no draws, and every game ends
        assert summary["balance"]["value"] == pytest.approx(1 - abs(first - second))
    row = card_module.table(card)[0]
    assert row["rules"] == "target=8" and row["branching"] <= 2  # roll or hold
    with pytest.raises(AgentError, match="variants"):
        card_module.balance_card(levels, game=PIG, scenarios=["field"])


def test_the_metrics_count_the_turns_not_the_chance_events():
    record = play([GreedyAgent(), GreedyAgent()], PIG.new(target=8), seed=3)
    figures = card_module.game_metrics(record, capped=False)
    decisions = [s for s in record.states()[:-1] if not s.is_chance()]
    assert figures["turns"] == len(decisions) < len(record.turns)
    assert figures["winner"] == record.winner and figures["drama"] is not None


def test_a_game_of_more_than_two_players_is_refused_where_it_must_be():
    class ThreeState(PigState):  # Pig's state, said to be of three players: enough to refuse
        __slots__ = ()
        players = 3

    three = ThreeState(12, (0, 0), 0, 0, False)
    with pytest.raises(AgentError, match="one or two players"):
        AlphaBetaAgent(nodes=100).choose(three)
    with pytest.raises(AgentError, match="two players"):
        match(RandomAgent(), RandomAgent(), start=three)
    assert MCTSAgent(nodes=100).choose(three) in three.legal_actions()


def test_a_card_of_another_game_resumed_with_other_variants_keeps_the_earlier_cells(tmp_path):
    out = tmp_path / "card.json"
    levels = {"greedy": GreedyAgent()}
    first = card_module.balance_card(levels, game=PIG, variants=[{"target": 8}], games=2, out=out)
    both = card_module.balance_card(levels, game=PIG, variants=[{"target": 9}], games=2, out=out)
    assert [c["rules"] for c in both["cells"]] == ["target=8", "target=9"]
    assert both["cells"][0]["summary"] == first["cells"][0]["summary"]
    assert sum(w["value"] for w in both["cells"][1]["summary"]["wins"]) == pytest.approx(1.0)


def test_partners_win_together_on_the_balance_card():
    """In a game of teams every player with the top return wins: the card counts the first
    player's win when its partner's side took the game."""
    games = [
        {
            "winner": None,
            "winners": ["north", "south"],
            "capped": False,
            "turns": 10,
            "branching": 3.0,
            "lead_change": 0.1,
            "drama": None,
            "decisiveness_moves": None,
        },
        {
            "winner": "east",
            "capped": False,
            "turns": 12,  # a card written before "winners"
            "branching": 3.0,
            "lead_change": 0.1,
            "drama": None,
            "decisiveness_moves": None,
        },
    ]
    sides = ("north", "east", "south", "west")
    card = card_module.summarise_cell(games, 0, sides)
    assert [w["value"] for w in card["wins"]] == [0.5, 0.5, 0.5, 0.0]
    assert card["advantage_p1"]["value"] == 0.5
