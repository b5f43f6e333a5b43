"""The agents, the evaluation and analyse: legal turns only, the colour symmetry, tactics
found, alpha-beta against plain minimax, MCTS-Solver against retrograde analysis."""

from __future__ import annotations

import random

import pytest
from agent_positions import played_on, random_game, tactical_positions, wins_within
from hypothesis import given, settings
from hypothesis import strategies as st

from taolong_lab import DataError, TaoLongError, analyse, game_state, new_game, solo_game
from taolong_lab.agents import (
    AgentError,
    AlphaBetaAgent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
)
from taolong_lab.agents.alphabeta import IMPROVEMENTS, Search
from taolong_lab.agents.base import Budget
from taolong_lab.agents.mcts import WIN_PROVED
from taolong_lab.games import MATE_BOUND, WIN
from taolong_lab.games.taolong import default_weights, evaluate, swap_colours, weights_from
from taolong_lab.rules import MODES, scenario_names
from taolong_lab.solvers.graph import explore, retrograde, retrograde_two_player

AGENTS = {
    "random": lambda seed: RandomAgent(seed=seed),
    "greedy": lambda seed: GreedyAgent(seed=seed),
    "alphabeta": lambda seed: AlphaBetaAgent(nodes=300, seed=seed),
    "mcts": lambda seed: MCTSAgent(nodes=300, seed=seed),
}


def _position(seed: int, scenario: str, mode: str, edition: str = "current", solo=False):
    """A position some random plies into a game of these rules."""
    if solo:
        state = solo_game(scenario, mode, edition=edition)
    else:
        state = new_game(scenario, mode, edition=edition)
    return played_on(state, seed, random.Random(seed).randrange(0, 30))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10_000),
    scenario=st.sampled_from(scenario_names()),
    mode=st.sampled_from(MODES),
    edition=st.sampled_from(["current", "earlier"]),
    solo=st.booleans(),
    kind=st.sampled_from(sorted(AGENTS)),
)
def test_agents_play_only_legal_turns(seed, scenario, mode, edition, solo, kind):
    if edition == "earlier" and solo:
        solo = False  # the earlier edition is two-player only
    try:
        state = _position(seed, scenario, mode, edition, solo)
    except TaoLongError:
        return  # that edition's components do not build the scenario
    agent = AGENTS[kind](seed)
    for _ in range(2):
        if state.is_over():
            break
        turn = agent.choose(game_state(state))
        assert turn in state.legal_turns()
        state = state.play(turn)


def test_a_fixed_node_budget_is_deterministic():
    state = _position(5, "field", "monk")
    for make in (lambda: AlphaBetaAgent(nodes=800, seed=2), lambda: MCTSAgent(nodes=800, seed=2)):
        assert make().choose(game_state(state)) == make().choose(game_state(state))


@pytest.mark.parametrize(
    "bad",
    [{"nodes": 0}, {"nodes": True}, {"time_limit": -1}, {"time_limit": "1"}, {"seed": -1}],
)
def test_bad_budgets_and_seeds_are_refused_by_name(bad):
    name = next(iter(bad))
    with pytest.raises(AgentError, match=name):
        AlphaBetaAgent(**bad)


@pytest.mark.parametrize("kind", sorted(AGENTS))
def test_an_agent_plays_a_protocol_state_only(kind):
    """A Tao Long State is put behind the protocol at the facade, not by the agents."""
    with pytest.raises(AgentError, match="plays a GameState, not State"):
        AGENTS[kind](0).choose(new_game())


def test_no_turn_to_choose_when_the_game_is_over():
    end = next(s for s in random_game(3) if s.is_over())
    with pytest.raises(AgentError, match="game is over"):
        GreedyAgent().choose(game_state(end))


# ---- the evaluation -----------------------------------------------------------------------
@pytest.mark.parametrize("scenario", scenario_names())
@pytest.mark.parametrize("mode", ["grasshopper", "monk"])
def test_swapping_the_colours_negates_the_score(scenario, mode):
    for seed in range(4):
        state = _position(seed, scenario, mode)
        swapped = swap_colours(state)
        assert swapped.problems() == []
        assert swap_colours(swapped) == state
        assert swapped.dragon("white") == state.dragon("black")
        assert evaluate(swapped) == -evaluate(state)


def test_the_colour_swap_is_refused_where_colours_matter():
    with pytest.raises(TaoLongError, match="master"):
        swap_colours(new_game(mode="master"))
    with pytest.raises(TaoLongError, match="Village"):
        swap_colours(new_game(village="white"))


def test_a_won_game_scores_win_for_the_winner():
    end = next(s for s in random_game(3) if s.is_over())
    assert evaluate(end) == (WIN if end.outcome().winner == "white" else -WIN)


def test_more_life_scores_better():
    state = _position(1, "field", "grasshopper")
    weights = default_weights()
    base = evaluate(state, weights)
    assert evaluate(state, weights.replace(life=weights.life + 1)) == base + (
        state.life("white") - state.life("black")
    )


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ({"fire": 1, "threat": 1, "initiative": 1, "stacks": 1, "mobility": 1}, "weights.life"),
        ({**default_weights().__dict__, "speed": 1}, "weights.speed"),
        ({**default_weights().__dict__, "fire": "hot"}, "weights.fire"),
        ({**default_weights().__dict__, "fire": True}, "weights.fire"),
        ({**default_weights().__dict__, "threat": 1e9}, "weights.threat"),
    ],
)
def test_bad_weights_name_the_key(table, field):
    with pytest.raises(DataError, match=field.replace(".", r"\.")):
        weights_from(table)


# ---- alpha-beta -----------------------------------------------------------------------------
@pytest.mark.parametrize("turns", [1, 2])
def test_alphabeta_finds_every_win_in_one_and_two(turns):
    for state in tactical_positions(turns):
        agent = AlphaBetaAgent(nodes=200_000, depth=2 * turns - 1)
        _, scores = agent.search(game_state(state))
        assert scores[0][1] > MATE_BOUND
        assert WIN - scores[0][1] == 2 * turns - 1
        turn = agent.choose(game_state(state))
        after = state.play(turn)
        me = state.to_move
        assert (after.is_over() and after.outcome().winner == me) or all(
            (r.is_over() and r.outcome().winner == me) or wins_within(r, turns - 1)
            for _, r in after.successors()
        )


def _minimax(state, depth, ply, weights):
    if state.is_over():
        won = state.outcome().winner == state.to_move
        return WIN - ply if won else -(WIN - ply)
    if depth == 0:
        white = evaluate(state, weights)
        return white if state.mover == 0 else -white
    best = -2 * WIN
    for _, after in state.successors():
        value = _minimax(after, depth - 1, ply + 1, weights)
        best = max(best, value if after.mover == state.mover else -value)
    return best


EXACT_REFINEMENTS = [(), ("pvs",), ("pvs", "killers"), ("killers",)]


@pytest.mark.parametrize("seed", range(6))
def test_alphabeta_at_a_fixed_depth_equals_plain_minimax(seed):
    """Without quiescence and late-move reductions the search is exact: principal-variation
    search with aspiration windows, killers and history change the order and the windows, not
    the value."""
    states = random_game(seed, scenario_names()[seed % 8])
    small = sorted(states[10:40], key=lambda s: len(s.legal_turns()))[:3]  # small positions
    weights = default_weights()
    for state in small:
        for depth in (1, 2, 3):
            expected = _minimax(state, depth, 0, weights)
            for improvements in EXACT_REFINEMENTS:
                search = Search(weights, Budget(None, None), False, improvements)
                scores = [scores for _, scores in search.deepen(game_state(state), depth)][-1]
                if search.completed_depth < depth:
                    break  # a proved result stopped the deepening: compare it as it is
                assert scores[0][1] == expected, improvements


@pytest.mark.parametrize("improvements", [("lmr",), ("pvs", "lmr")])
def test_late_move_reductions_search_fewer_positions_to_the_same_depth(improvements):
    """Late quiet actions searched a ply shallower first: a search to a fixed depth makes
    fewer positions with the reductions than without, with or without the null windows of
    principal-variation search."""
    without = with_lmr = 0
    for seed in range(3):
        state = game_state(random_game(seed, "field")[12])
        for used in (tuple(i for i in improvements if i != "lmr"), improvements):
            search = Search(default_weights(), Budget(None, None), False, used)
            [_ for _ in search.deepen(state, 3)]
            if "lmr" in used:
                with_lmr += search.budget.expanded
            else:
                without += search.budget.expanded
    assert with_lmr < without


def test_the_refinements_of_the_search_are_named():
    agent = AlphaBetaAgent(nodes=100, improvements=("lmr", "pvs"))
    assert repr(agent) == "AlphaBetaAgent(nodes=100, improvements=('pvs', 'lmr'), seed=0)"
    assert repr(eval(repr(agent))) == repr(agent)
    assert repr(AlphaBetaAgent(nodes=100)) == "AlphaBetaAgent(nodes=100, seed=0)"
    with pytest.raises(AgentError, match="unknown search improvement 'nmp'"):
        AlphaBetaAgent(improvements=("nmp",))
    with pytest.raises(AgentError, match="a tuple of names"):
        AlphaBetaAgent(improvements="pvs")


@pytest.mark.parametrize("improvements", [(), IMPROVEMENTS])
def test_every_refinement_still_finds_the_shortest_win(improvements):
    """With or without the refinements (late-move reductions among them, which may see a
    quiet winning turn a ply later) the search proves the win in two turns and plays it."""
    for state in tactical_positions(2)[:3]:
        agent = AlphaBetaAgent(nodes=200_000, improvements=improvements)
        _, scores = agent.search(game_state(state))
        assert WIN - scores[0][1] == 3


def test_alphabeta_in_the_solo_variant_finds_the_solvers_win():
    weak = solo_game(segments={"black": 1}, water={"black": 1})  # a win in 4 turns
    _, scores = AlphaBetaAgent(nodes=100_000, depth=4).search(game_state(weak))
    assert WIN - scores[0][1] == 4


# ---- MCTS-Solver --------------------------------------------------------------------------
def _near_end(count: int):
    found, seed = [], 100
    while len(found) < count:
        states = random_game(seed, scenario_names()[seed % 8])
        seed += 1
        if states[-1].is_over() and len(states) > 4:
            found.append(states[-4])
    return found


def test_mcts_solver_agrees_with_retrograde_analysis_two_player():
    agreed = 0
    for state in _near_end(8):
        graph = explore(state, depth=3, max_states=50_000)
        label = retrograde_two_player(graph).value[0]
        root = MCTSAgent(nodes=40_000, seed=1).search(game_state(state))
        if root.proof:
            winner = state.to_move if root.proof == WIN_PROVED else _other(state.to_move)
            assert label in ("", winner)  # never a proof against the retrograde labelling
        if label == state.to_move:  # a win within the explored plies: MCTS proves it
            assert root.proof == WIN_PROVED
            agreed += 1
    assert agreed >= 1


def test_mcts_solver_agrees_with_retrograde_analysis_solo():
    state = solo_game(segments={"black": 1}, water={"black": 1})
    for turn in ["Ea>Wa (Mo:f8 Wa:e8+) a3+", "Mo>Wa (Wa:e7+) b3+"]:  # two turns from a win
        state = state.play(turn)
    analysis = retrograde(explore(state, depth=2))
    assert analysis.status[0] == "win" and analysis.turns_to_win[0] == 2
    root = MCTSAgent(nodes=40_000, seed=1).search(game_state(state))
    assert root.proof == WIN_PROVED
    assert MCTSAgent.best(root).turn in analysis_turns(state, analysis)


def analysis_turns(state, analysis):
    return [state.parse_turn(text) for text in analysis.optimal_turns[0]]


def _other(colour):
    return "black" if colour == "white" else "white"


# ---- analyse --------------------------------------------------------------------------------
def test_analyse_scores_every_turn_and_marks_a_proved_win():
    state = tactical_positions(1)[0]
    found = analyse(state, nodes=50_000)
    assert sorted(map(str, (t.turn for t in found.turns))) == sorted(map(str, state.legal_turns()))
    assert found.proved == "win" and found.plies == 1
    assert found.line.start == state and found.line.end.outcome().winner == state.to_move
    assert [t.score for t in found.turns] == sorted((t.score for t in found.turns), reverse=True)
    assert found.turns[0].proved == "win"


def test_analyse_a_solo_challenge_uses_the_solver():
    weak = solo_game(segments={"black": 1}, water={"black": 1})
    found = analyse(weak, nodes=20_000)
    assert (found.proved, found.plies, found.source) == ("win", 4, "solver")
    assert len(found.line) == 4 and found.line.end.is_over()


def test_analyse_refuses_a_bad_depth():
    with pytest.raises(AgentError, match="depth"):
        analyse(new_game(), depth=0)
