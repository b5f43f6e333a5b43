"""The Ba Gua-aware bound of the last turns (:func:`bounds.may_win_within`): it never
rules out a real win (checked against unpruned searches on random solo positions of every
scenario, with and without the Village), and it prunes where :func:`lower_bound` cannot."""

from __future__ import annotations

import itertools
import random

import pytest
from conformance import solo_combinations, solo_playout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taolong_lab import State, solo_game
from taolong_lab.solvers import bounds, explicit
from taolong_lab.solvers.bounds import bound_params, lower_bound, may_win_within
from taolong_lab.solvers.explicit import solve, win_line_within, win_within

GRASSHOPPER = [c for c in solo_combinations() if c.mode == "grasshopper"]
OTHER = {"white": "black", "black": "white"}


def wins_within(state: State, turns: int) -> bool:
    """Whether the player wins within ``turns``: every line tried, no bound at all."""
    result = state.outcome()
    if result is not None:
        return result.winner == state.player
    if turns == 0:
        return False
    return any(wins_within(after, turns - 1) for _, after in state.iter_successors())


@st.composite
def weak_positions(draw) -> State:
    """A Grasshopper solo position whose opponent is weak enough to be beaten in 1-2 turns
    (1 segment, 1-4 water, or 2 segments), after 0-6 seeded random turns."""
    combo = draw(st.sampled_from(GRASSHOPPER))
    player = draw(st.sampled_from(("white", "black")))
    seed = draw(st.integers(0, 2**32 - 1))
    kwargs = combo.kwargs()
    start = solo_game(
        kwargs.pop("scenario"),
        kwargs.pop("mode"),
        player=player,
        segments={OTHER[player]: draw(st.sampled_from((1, 1, 2)))},
        water={OTHER[player]: draw(st.integers(1, 4))},
        bagua=draw(st.sampled_from(("standard", "shuffled", "random"))),
        seed=seed,
        **kwargs,
    )
    path = solo_playout(start, seed, draw(st.integers(0, 6)), 0.5)
    return path[-1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_positions())
def test_never_rules_out_a_win_in_one(state):
    if not may_win_within(state, 1):
        assert not wins_within(state, 1), state.to_tln()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_positions())
def test_never_rules_out_a_win_in_two(state):
    if not may_win_within(state, 2):
        assert not wins_within(state, 2), state.to_tln()


def test_a_position_only_the_sharp_bound_prunes():
    """The Field, the opponent at 2 segments and 3 water (life 7). A water expel could deal the
    ruler's best (2) plus up to 6 centre water, so lower_bound says 1 turn. But this Ba Gua's
    stacks land on Thunder, Earth, Mountain, Wind and Heaven (WBW from Heaven: 3 stones to
    Thunder, B from Thunder to Earth, B from Earth to Mountain, WB from Mountain to Wind, W
    from Wind to Heaven): neither Fire nor Water on turn 1, so at most a bite (1)."""
    tln = (
        "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7:3:0 "
        "WBW/-/-/B/B/WB/-/W 1:8 w 1"
    )
    start = State(tln)
    params = bound_params(start)
    assert start.life("black") == 7
    assert lower_bound(start, params) == 1
    assert not may_win_within(start, 1, params)
    assert not wins_within(start, 1)
    assert may_win_within(start, 2, params)  # a second sowing can land on Fire or Water


# Wins in one found by a seeded scan of random weak positions (every Grasshopper scenario),
# each one a turn where a weaker bound would have been wrong: a bite is the only damage the
# sown element allows (the Mist with the Village, black to move, white at 1 water), and a fire
# expel that needs the meter's stone (white's fire meter holds 1).
WIN_BY_BITE = (
    "mist/grasshopper/current/solo+village=black 4Y3/6G1/2B5/3VV2Y/R2VV3/5B2/1G6/3R4 "
    "b2-a2:1:0 b3-b4-a4-[a5d8]-e8:4:0 -/-/-/BB/-/WWBB/-/WW 3:8 b 6"
)
WIN_BY_FIRE_METER = (
    "mist/grasshopper/current/solo 4Y3/6G1/2B5/3##2Y/R2##3/5B2/1G6/3R4 "
    "e8-[d8a5]-a4-a3-a2:4:1 g7-g8:3:1 -/W/BWB/-/-/-/BBWW/- 1:6 w 4"
)


@pytest.mark.parametrize("tln", [WIN_BY_BITE, WIN_BY_FIRE_METER])
def test_wins_in_one_that_need_every_term(tln):
    state = State(tln)
    assert wins_within(state, 1)
    assert may_win_within(state, 1)


def test_portal_steps_count_two_per_action():
    """With water-cost portals each of the opponent's actions may take two steps through
    them: 2 damage per stone of its group, added to the element's."""
    bagua = ("WBW", "", "", "B", "B", "WB", "", "W")  # Heaven's stack gives black one action
    with_portals = bounds._most_damage(bagua, "B", 0, 1, True)
    without = bounds._most_damage(bagua, "B", 0, 1, False)
    assert (without, with_portals) == (1, 3)


def test_an_absorbed_fire_stone_feeds_the_next_expel():
    """Lake's stone lands on Fire (an expel from an empty meter: the ruler's best, 2, or an
    absorb); Heaven's two stones then land on Fire again, and the meter may now hold 1."""
    bagua = ("WW", "W", "", "", "", "", "", "")
    assert bounds._most_damage(bagua, "B", 0, 1, False) == 2
    assert bounds._most_damage(bagua, "B", 0, 2, False) == 2 + 3


def test_found_wins_are_allowed_along_solved_lines():
    """Along an optimal line every position wins in exactly the turns left, so the bound must
    allow it there (and at every larger horizon)."""
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        start = solo_game(
            rng.choice(("field", "cave", "wall", "valley")),
            segments={"black": 1},
            water={"black": rng.randint(2, 4)},
            bagua="random",
            seed=seed,
        )
        s = solve(start, max_states=20_000)
        if s.status != "optimal":
            continue
        state = start
        for k, turn in enumerate(s.line):
            left = s.optimum - k
            for r in range(left, bounds.SHARP_TURNS + 1):
                assert may_win_within(state, r), (state.to_tln(), r)
            state = state.play(turn)
            checked += 1
    assert checked >= 6


def test_bounded_search_agrees_with_and_without_it(monkeypatch):
    start = solo_game(segments={"black": 2}, water={"black": 3}, bagua="random", seed=2)
    params = bound_params(start)
    sharp = [win_within(start, r, params) for r in (1, 2, 3)]
    monkeypatch.setattr(explicit, "SHARP_TURNS", 0)
    assert [win_within(start, r, params) for r in (1, 2, 3)] == sharp


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_positions(), st.integers(1, 2))
def test_the_bounded_search_returns_a_real_line_exactly_when_a_win_exists(state, turns):
    """``win_line_within`` (the search the SAT solver's short searches run): a line exactly
    when the unpruned search finds a win within ``turns``, and that line replays in the
    engine to the player's win within ``turns``; ``win_within`` says the same."""
    params = bound_params(state)
    line = win_line_within(state, turns, params)
    assert (line is not None) == wins_within(state, turns) == win_within(state, turns, params)
    if line is not None:
        assert len(line) <= turns
        end = state
        for turn in line:
            assert not end.is_over()
            end = end.play(turn)
        assert end.outcome() is not None and end.outcome().winner == state.player


# ---- may_win_now: the last turn, exact ------------------------------------------------------
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_positions())
def test_may_win_now_is_exact(state):
    """``may_win_now`` plays out only the sowings that can deal the damage needed, so it
    must say exactly whether some turn wins: never a win missed, never a false one."""
    assert bounds.may_win_now(state) == wins_within(state, 1), state.to_tln()


@pytest.mark.parametrize("tln", [WIN_BY_BITE, WIN_BY_FIRE_METER])
def test_may_win_now_finds_wins_that_need_every_term(tln):
    assert bounds.may_win_now(State(tln))


# Found by a seeded scan of random weak positions: wins in one where no sown element can deal
# the opponent's life, so the opponent tramples the rocks itself (its group walks into them).
WINS_BY_TRAMPLE = [
    "cave/grasshopper/current/solo 3o4/2o5/1o6/o7/7o/6o1/5o2/4o3 a3-a2:2:0 f8-g8-h8-h7:4:0 "
    "-/-/B/BW/-/WB/BW/W 2:8 b 2",
    "wall/grasshopper/current/solo 7o/6o1/5o2/4o3/8/2o5/8/o7 b6-b5:4:2 e5-f5-f6-f7:4:1 "
    "B/W/-/B/BBW/-/W/W 0:5 b 6",
]


@pytest.mark.parametrize("tln", WINS_BY_TRAMPLE)
def test_may_win_now_counts_the_rocks_the_opponent_tramples(tln):
    state = State(tln)
    assert wins_within(state, 1)
    assert bounds.may_win_now(state)


def test_only_sowings_that_can_deal_the_damage_are_played_out(monkeypatch):
    """Black needs 5 damage: only Earth's stones land on Water (a water expel, up to 8);
    Heaven's end on Fire (an expel from an empty meter: 2), Fire's on Earth and Water's on
    Heaven (bites: 1). So only Earth (space 4) is played out, and no turn wins."""
    tln = (
        "field/grasshopper/current/solo+tail_vacates_first=true 8/8/8/8/8/8/8/8 "
        "a2-a1-b1-b2:4:0 g8-h8-h7:1:0 BW/-/BB/-/WW/-/BW/- 3:8 w 1"
    )
    played = []
    real = bounds.solo_options

    def spy(env, walk, bagua, coin, player, lookahead, keep=None):
        for option in real(env, walk, bagua, coin, player, lookahead, keep):
            played.append(option[0])
            yield option

    monkeypatch.setattr(bounds, "solo_options", spy)
    state = State(tln)
    assert state.life("black") == 5
    assert bounds.may_win_within(state, 1)
    assert not bounds.may_win_now(state)
    assert set(played) == {4}
    assert not wins_within(state, 1)


# ---- A* defers the positions the sharp bound rules out ----------------------------------------
@pytest.mark.parametrize(
    "pid", ["cave-b1w1-win3", "wall-b1w1-win3", "cave-b1w2-win4", "wall-b1w1-win4",
            "field-b1w4-win5"],
)  # fmt: skip
def test_deferring_keeps_the_answer(pid):
    """A position taken with ``h <= SHARP_TURNS`` that :func:`may_win_within` (or
    :func:`may_win_now` for one turn) rules out goes back one bound higher, unexpanded: the
    optimum is the stored one, and the certificate still proves it."""
    from taolong_lab import load_puzzles

    [puzzle] = [p for p in load_puzzles("bench/solo-set.jsonl") if p.id == pid]
    sharp = solve(puzzle.start, count_first_turns=False)
    assert sharp.optimum == puzzle.optimum
    assert sharp.stats["deferred"] > 0
    state = puzzle.start
    for turn in sharp.line:
        state = state.play(turn)
    assert state.outcome().winner == puzzle.start.player
    # every row of the certificate still counts positions proved without a win, and a
    # deferred position is counted where it was proved
    rows = sharp.certificate.no_win_within
    assert [r.turns for r in rows] == list(range(puzzle.optimum))
    assert all(a.positions <= b.positions for a, b in itertools.pairwise(rows))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_positions())
def test_a_star_with_deferral_matches_the_unpruned_search(state):
    """Against every line tried without any bound: a win within one or two turns is found
    exactly when one exists, and ``proved_no_win_below`` never rules one out."""
    s = solve(state, count_first_turns=False, max_states=400)
    for r in (1, 2):
        exists = wins_within(state, r)
        if s.status == "optimal":
            assert (s.optimum <= r) == exists, (state.to_tln(), r, s.optimum)
        else:
            assert not (exists and s.proved_no_win_below > r), (state.to_tln(), r)
