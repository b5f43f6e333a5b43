"""Transition conformance of the SAT layer (issue 6): one encoded turn against the engine.

For random solo positions (hypothesis: every Grasshopper scenario and Village variant,
either player, both ``solo_lookahead`` readings, seeded playouts), the models of one encoded
turn, projected on the next position (both dragons, meters, gaps through portals, rocks, the
Ba Gua) and enumerated with blocking clauses, must give:

- **exact**: with the CEGAR refinements for that position added (the opponent's policy for
  every space, ``solo.choose_group``, and the penalty rule), exactly the engine's successor set
  (``State.successors``). This is the set the solver's candidates live in once refined, so it
  checks the refinement clauses too.
- **relaxed**: without refinements, exactly the successor set built from the engine's own
  pieces with the opponent taking *any* legal option of its group and the penalty taken when
  the sown element is impossible (:func:`relaxed_successors`). This is the over-approximation
  whose UNSAT answers the solver relies on: if it lost a real successor, an UNSAT could be
  wrong; if it gained one, a candidate would fail the engine check. Comparing it with the
  engine's pieces directly (rather than only the refined set) checks every opponent option,
  including the ones the policy never picks.

Both are run with the start as free variables pinned by assumptions (the whole circuit, no
constant folding) and as constants (what the solver builds). Then the negative test: with the
start, the sown space, the end of the opponent's group and every free choice fixed from a
model, flipping any next-position literal is UNSAT.
"""

from __future__ import annotations

import random

import pytest
from conformance import SOLO_LOOKAHEADS, solo_combinations, solo_playout, solo_start
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from taolong_lab import State
from taolong_lab.engine.solo import choose_group
from taolong_lab.solvers.bounds import sow_table
from taolong_lab.solvers.sat.check import (
    OneTurn,
    engine_successors,
    relaxed_group_ends,
    relaxed_successors,
)

COMBOS = [c for c in solo_combinations() if c.mode == "grasshopper"]
SHORT = st.integers(0, 25)
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw, depth=SHORT) -> State:
    combo = draw(st.sampled_from(COMBOS))
    player = draw(st.sampled_from(("white", "black")))
    look = draw(st.sampled_from(SOLO_LOOKAHEADS))
    seed = draw(st.integers(0, 2**32 - 1))
    start = solo_start(combo, player, seed, solo_lookahead=look)
    path = solo_playout(start, seed, draw(depth), draw(st.sampled_from((0.0, 0.5, 1.0))))
    state = path[-1]
    if state.is_over():  # the last position still to play
        state = path[-2] if len(path) > 1 else start
    return state


def check_position(state: State, symbolic: bool) -> None:
    """The exact and the relaxed layer from ``state`` against the engine and its mirror."""
    relaxed = relaxed_successors(state)
    for exact, want in ((True, engine_successors(state)), (False, relaxed)):
        one = OneTurn(state, exact=exact, symbolic=symbolic)
        try:
            got = one.successors()
        finally:
            one.close()
        assert got == want, (
            f"{'exact' if exact else 'relaxed'} successors differ from {state.to_tln()!r}: "
            f"{len(got - want)} extra, {len(want - got)} missing"
        )


# found by CI: a state where the group's first action breaks a rock
BROKEN_ROCK = (
    "cave/grasshopper/current/solo 3o4/2o5/1o6/8/7o/6d1/5o2/4o3 g4-f4-e4:1:1 h8-h7-g7:2:1 "
    "-/BBW/-/-/WW/WB/-/B 5:6 b 7"
)


@settings(max_examples=30, **SETTINGS)
@given(positions(), st.booleans())
@example(State(BROKEN_ROCK), False)
def test_one_turn_successors_equal_the_engines(state, symbolic):
    check_position(state, symbolic)


@settings(max_examples=8, **SETTINGS)
@given(positions())
def test_a_wrong_next_literal_is_unsat(state):
    one = OneTurn(state, exact=True, symbolic=True)
    try:
        lits = one.next_literals()
        sample = random.Random(state.to_tln()).sample(lits, min(40, len(lits)))
        assert one.determined(sample, max_models=2) == []
    finally:
        one.close()


# ---- the relaxation admits the policy's choice ------------------------------------------------
def _groups(state: State):
    """``(walk, opponent, group, element, after)`` for each sowing of ``state`` that gives the
    opponent a group (``after`` as ``SatSearch.group_ref`` passes it to the policy)."""
    opp = 1 - state.mover
    look = state.rules.option("solo_lookahead")
    for new, group, element in sow_table(state.bagua, "WB"[opp]).values():
        if group:
            after = (new, state.coin) if look == "next-turn" else None
            yield state.board, opp, group, element, after


@settings(max_examples=60, **SETTINGS)
@given(positions())
def test_the_relaxed_group_admits_the_policys_choice(state):
    """The relaxation (every execution of the opponent's group) holds the group end the
    opponent's policy chooses (``solo.choose_group``), so an UNSAT answer is a proof."""
    env = state.tables
    for walk, opp, group, element, after in _groups(state):
        look = state.rules.option("solo_lookahead")
        chosen = {w for _, w in choose_group(env, walk, opp, group, element, after, look)}
        assert chosen <= relaxed_group_ends(env, walk, opp, group), (state.to_tln(), group)


# Positions that exercise each feature, found in seeded playouts (the dragon through a portal
# pair, damaged or trampled rocks, the Torus, the Village, the tail-first step: option
# ``tail_vacates_first``, as the solo variant has no earlier edition).
def _feature_positions(limit: int) -> list[State]:
    rng = random.Random(2026)
    found: dict[str, list[State]] = {}
    tries = 0
    while tries < 400 and min((len(found.get(f, [])) for f in FEATURES), default=0) < limit:
        tries += 1
        combo = rng.choice(COMBOS)
        tail_first = {"tail_vacates_first": True} if rng.random() < 0.25 else {}
        start = solo_start(
            combo, rng.choice(("white", "black")), rng.randrange(2**32), **tail_first
        )
        for s in solo_playout(start, rng.randrange(2**32), 40, 0.5)[:-1]:
            for f in FEATURES:
                if FEATURES[f](s) and len(found.setdefault(f, [])) < limit:
                    found[f].append(s)
    unique = {s.to_tln(): s for f in FEATURES for s in found.get(f, [])}
    return list(unique.values())


def _entered(s: State, letter: str) -> bool:
    """A dragon passes through a pair of portals it entered by one of colour ``letter``."""
    width = len(s.layout[0])
    colour = {y * width + x: sym for y, row in enumerate(s.layout) for x, sym in enumerate(row)}
    return any(colour.get(e) == letter for c in ("white", "black") for _, _, e in s.dragon(c).links)


FEATURES = {
    "portal": lambda s: any(s.dragon(c).links for c in ("white", "black")),
    "red portal": lambda s: s.rules.scenario == "valley" and _entered(s, "R"),
    "blue portal": lambda s: s.rules.scenario == "valley" and _entered(s, "B"),
    "destroyed rock": lambda s: s.rules.scenario in ("wall", "cave") and len(s.rocks) < 8,
    "damaged rock": lambda s: 1 in s.rocks.values(),
    "torus": lambda s: s.rules.scenario == "torus",
    "village": lambda s: s.rules.option("village") is not None,
    "tail first": lambda s: s.rules.tail_vacates_first,
    "valley": lambda s: s.rules.scenario == "valley",
}


@pytest.mark.parametrize("state", _feature_positions(1), ids=lambda s: s.rules.token())
def test_feature_positions(state):
    check_position(state, symbolic=True)


@pytest.mark.slow
@settings(max_examples=300, **SETTINGS)
@given(positions(st.integers(0, 60)), st.booleans())
def test_many_one_turn_successors_equal_the_engines(state, symbolic):
    check_position(state, symbolic)


@pytest.mark.slow
@pytest.mark.parametrize("state", _feature_positions(6), ids=lambda s: s.rules.token())
def test_many_feature_positions(state):
    check_position(state, symbolic=True)
    check_position(state, symbolic=False)


def _random_configs(n: int) -> list[tuple]:
    rng = random.Random(6)
    out = [("WWWWBBBB", "", "", "", "", "", "", ""), ("", "", "", "BWBWBWBW", "", "", "", "")]
    for _ in range(n):
        stones = list("WWWWBBBB")
        rng.shuffle(stones)
        placed = [""] * 8
        for stone in stones:
            placed[rng.randrange(rng.choice((2, 4, 8)))] += stone
        out.append(tuple(placed))
    return out


@pytest.mark.parametrize("config", _random_configs(12))
@pytest.mark.parametrize("player", ["white", "black"])
def test_the_factored_ba_gua_layer_sows_like_the_engine(config, player):
    """The factored Ba Gua (per-space stacks, used for deep layers) from free stack variables
    pinned to a configuration: its models are exactly the engine's sowings (every space, the
    new configuration, the opponent's group and the element), laps of the whole ring
    included."""
    from taolong_lab import solo_game
    from taolong_lab.solvers.bounds import sow_table
    from taolong_lab.solvers.sat.check import factored_sowings

    state = solo_game("field", player=player)
    opp = "WB"[1 - state.mover]
    want = {(s, new, (group, el)) for s, (new, group, el) in sow_table(config, opp).items()}
    assert factored_sowings(state, config) == want


@settings(max_examples=16, **SETTINGS)
@given(positions(), st.booleans())
def test_an_eliminated_layer_keeps_its_successors(state, symbolic):
    """The solver hands each layer over with its own gates removed by bounded variable
    elimination (``solver.eliminate``). Projected on the next position, the eliminated
    layer must still give exactly the engine's successors (with the refinements, which read
    the state after the opponent's group) and exactly the relaxed ones (without)."""
    for exact, want in ((True, engine_successors(state)), (False, relaxed_successors(state))):
        one = OneTurn(state, exact=exact, symbolic=symbolic, eliminate=True)
        try:
            got = one.successors()
            assert one.eliminated > 0
        finally:
            one.close()
        assert got == want, (
            f"{'exact' if exact else 'relaxed'} successors of the eliminated layer differ "
            f"from {state.to_tln()!r}: {len(got - want)} extra, {len(want - got)} missing"
        )
