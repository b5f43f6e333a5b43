"""Transition conformance of the SAT layer (issues 6 and 34): one encoded turn against the
engine.

For random solo positions (hypothesis: every scenario and Village variant, either player, both
``solo_lookahead`` readings, seeded playouts; Grasshopper, and Monk, Master and The Chosen One
with and without ``solo_focus_replaces_action``), the models of one encoded
turn, projected on the next position (both dragons, meters, gaps through portals, rocks, the
Ba Gua) and enumerated with blocking clauses, must give:

- **exact**: with the CEGAR refinements for that position added (the opponent's policy for
  every space, ``solo.choose_group``, and the penalty rule), exactly the engine's successor set
  (``State.successors``). This is the set the solver's candidates live in once refined, so it
  checks the refinement clauses too.
- **relaxed**: without refinements, exactly the successor set built from the engine's own
  pieces with the opponent taking *any* legal option of its group (and of its Focus, from
  Monk on) and the penalty taken when the sown element is impossible
  (:func:`relaxed_successors`). This is the over-approximation
  whose UNSAT answers the solver relies on: if it lost a real successor, an UNSAT could be
  wrong; if it gained one, a candidate would fail the engine check. Comparing it with the
  engine's pieces directly (rather than only the refined set) checks every opponent option,
  including the ones the policy never picks.

Both are run with the start as free variables pinned by assumptions (the whole circuit, no
constant folding) and as constants (what the solver builds). Then the negative test: with the
start, the sown space, the end of the opponent's group and every free choice fixed from a
model, flipping any next-position literal is UNSAT.

From Monk on, a playout's position is the one whose sowings make the most Focus and Balance
effects, and positions found for each effect, flow and option (:data:`MONK_FEATURES`) are
checked by name.
"""

from __future__ import annotations

import functools
import random

import pytest
from conformance import SOLO_LOOKAHEADS, solo_combinations, solo_playout, solo_start
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from taolong_lab import State
from taolong_lab.engine.core import CW, executions, life
from taolong_lab.engine.solo import choose_group
from taolong_lab.engine.spirit import BALANCE, FOCUS, resolve_effects
from taolong_lab.solvers.bounds import sow_table
from taolong_lab.solvers.sat.check import (
    OneTurn,
    engine_successors,
    relaxed_group_ends,
    relaxed_successors,
    sowings,
)
from taolong_lab.solvers.sat.monk import config_of

COMBOS = [c for c in solo_combinations() if c.mode == "grasshopper"]
SHORT = st.integers(0, 25)
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


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
    real = engine_successors(state)
    assert real <= relaxed, f"the relaxation loses a real turn from {state.to_tln()!r}"
    for exact, want in ((True, real), (False, relaxed)):
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


# ---- Monk, Master and The Chosen One ----------------------------------------------------------
MONK_COMBOS = [c for c in solo_combinations() if c.mode != "grasshopper"]
MONK_DEPTH = st.integers(0, 40)


@functools.lru_cache(maxsize=4096)
def _played(state: State) -> list:
    """The sowings of ``state`` (:func:`sowings`) that some legal turn takes."""
    taken = {(t.phases[0].space, config_of(after)) for t, after in state.successors()}
    return [tr for tr in sowings(state) if (tr.space, tr.after) in taken]


def _effects(state: State) -> int:
    """How many Focus and Balance effects the legal turns of ``state`` make, in all."""
    return sum(len(tr.effects) for tr in _played(state))


@st.composite
def monk_positions(draw, depth=MONK_DEPTH) -> State:
    """A position of a seeded playout from Monk on: the one whose sowings make the most Focus
    and Balance effects (the latest of those)."""
    combo = draw(st.sampled_from(MONK_COMBOS))
    options = {"solo_lookahead": draw(st.sampled_from(SOLO_LOOKAHEADS))}
    if draw(st.booleans()):
        options["solo_focus_replaces_action"] = True
    seed = draw(st.integers(0, 2**32 - 1))
    start = solo_start(combo, draw(st.sampled_from(("white", "black"))), seed, **options)
    path = solo_playout(start, seed, draw(depth), draw(st.sampled_from((0.0, 0.5, 1.0))))
    live = [s for s in path if not s.is_over()]
    return max(reversed(live), key=_effects)


@settings(max_examples=20, **SETTINGS)
@given(monk_positions(), st.booleans())
def test_monk_one_turn_successors_equal_the_engines(state, symbolic):
    check_position(state, symbolic)


@settings(max_examples=6, **SETTINGS)
@given(monk_positions())
def test_monk_a_wrong_next_literal_is_unsat(state):
    one = OneTurn(state, exact=True, symbolic=True)
    try:
        lits = one.next_literals()
        sample = random.Random(state.to_tln()).sample(lits, min(40, len(lits)))
        assert one.determined(sample, max_models=2) == []
    finally:
        one.close()


# found by hypothesis: sowing Fire makes the opponent's Focus on Heaven, which has no
# execution: it costs the opponent's dragon 1 life and its policy is never asked
IMPOSSIBLE_OPPONENT_FOCUS = (
    "cave/master/current/solo 3o4/2o5/1o6/8/7o/6o1/5o2/8 c6-c7-c8-b8:4:0 c4-d4:1:1 "
    "BBB/WW/BW/-/-/-/W/-@cw 3:7 w 15"
)


def opponent_focus_choices(state: State) -> list[tuple]:
    """``(sowing, Focus space, walk before, the policy's walks, every execution's walks)``
    for each time the engine asks the opponent's policy about its Focus
    (``spirit.resolve_effects`` as ``solo.solo_options`` calls it) in a turn from ``state``."""
    env, opp = state.tables, 1 - state.mover
    look = state.rules.option("solo_lookahead")
    out = []
    for tr in sowings(state):
        after = (tr.after[:-1], tr.after[-1]) if look == "next-turn" else None

        def policy(w, colour, space, outs, tr=tr, after=after):
            if colour == opp:
                picked = choose_group(env, w, opp, (space,), tr.element, after, look)
                out.append((tr, space, w, {p for _, p in picked}, {o.walk for o in outs}))
            return outs

        resolve_effects(env, state.board, tr.effects, policy)
    return out


def assert_the_relaxed_focus_admits_the_policys_choice(state: State) -> None:
    """The relaxation of the opponent's Focus (every execution, as a group of one:
    :func:`relaxed_group_ends`) holds the walks its policy chooses, so an UNSAT answer is a
    proof. The policy is asked for every first effect that is an opponent's Focus with an
    execution (an impossible one costs a life and asks nothing)."""
    env, opp = state.tables, 1 - state.mover
    asked = set()
    for tr, space, walk, picked, _ in opponent_focus_choices(state):
        asked.add((tr, space))
        assert picked <= relaxed_group_ends(env, walk, opp, (space,)), state.to_tln()
    first = {
        (tr, tr.effects[0][2])
        for tr in sowings(state)
        if tr.effects
        and tr.effects[0][:2] == (FOCUS, opp)
        and executions(env, state.board, opp, tr.effects[0][2])
    }
    assert first <= asked


@settings(max_examples=30, **SETTINGS)
@given(monk_positions())
@example(State(IMPOSSIBLE_OPPONENT_FOCUS))
def test_the_relaxed_focus_admits_the_policys_choice(state):
    assert_the_relaxed_focus_admits_the_policys_choice(state)


def test_an_impossible_focus_of_the_opponent_costs_it_a_life():
    """The regression position of :data:`IMPOSSIBLE_OPPONENT_FOCUS`: the engine takes 1 life
    from the opponent without asking its policy, and both layers (exact and relaxed) give
    exactly the engine's and the relaxed successors."""
    state = State(IMPOSSIBLE_OPPONENT_FOCUS)
    env, opp = state.tables, 1 - state.mover
    (tr,) = [tr for tr in sowings(state) if tr.effects]
    ((kind, colour, space),) = tr.effects
    assert (kind, colour) == (FOCUS, opp) and not executions(env, state.board, opp, space)

    def policy(*args):
        raise AssertionError("the policy is not asked for an impossible Focus")

    ((walk, records),) = resolve_effects(env, state.board, tr.effects, policy)
    assert records == ((opp, space, None),)
    assert life(env, walk, opp) == life(env, state.board, opp) - 1
    for symbolic in (True, False):
        check_position(state, symbolic)


@settings(max_examples=8, **SETTINGS)
@given(monk_positions(), st.booleans())
def test_monk_an_eliminated_layer_keeps_its_successors(state, symbolic):
    for exact, want in ((True, engine_successors(state)), (False, relaxed_successors(state))):
        one = OneTurn(state, exact=exact, symbolic=symbolic, eliminate=True)
        try:
            got = one.successors()
        finally:
            one.close()
        assert got == want, (exact, state.to_tln())


def _has_effect(kind: str, whose: str):
    def test(s: State) -> bool:
        colour = s.mover if whose == "player" else 1 - s.mover
        return any((kind, colour) == e[:2] for tr in _played(s) for e in tr.effects)

    return test


def _impossible_focus(s: State) -> bool:
    """Some legal sowing's first effect is a Focus whose action is impossible (it costs 1
    life)."""
    env = s.tables
    return any(
        tr.effects[0][0] == FOCUS and not executions(env, s.board, *tr.effects[0][1:])
        for tr in _played(s)
        if tr.effects
    )


def _drops_chosen(s: State) -> bool:
    """The player chooses the colours dropped: two legal sowings of one space."""
    spaces = [tr.space for tr in _played(s)]
    return len(spaces) > len(set(spaces))


def _focus_narrowed(s: State) -> bool:
    """The opponent's policy picks some of its Focus's executions only."""
    return any(picked < every for *_, picked, every in opponent_focus_choices(s))


MONK_FEATURES = {
    "focus of the player": _has_effect(FOCUS, "player"),
    "focus of the opponent": _has_effect(FOCUS, "opponent"),
    "focus narrowed by the policy": _focus_narrowed,
    "balance of the player": _has_effect(BALANCE, "player"),
    "balance of the opponent": _has_effect(BALANCE, "opponent"),
    "two effects": lambda s: any(len(tr.effects) > 1 for tr in _played(s)),
    "impossible focus": _impossible_focus,
    "drops chosen": _drops_chosen,
    "clockwise": lambda s: any(tr.after[-1] == CW for tr in _played(s)),
    "coin on clockwise": lambda s: s.rules.mode != "monk" and s.coin == CW,
    "focus replaces action": lambda s: (
        s.rules.option("solo_focus_replaces_action") and _has_effect(FOCUS, "opponent")(s)
    ),
    "village": lambda s: s.rules.option("village") is not None and _effects(s) > 0,
    "portal": lambda s: any(s.dragon(c).links for c in ("white", "black")) and _effects(s) > 0,
}


@functools.cache
def _monk_feature_positions(limit: int) -> dict[str, list[State]]:
    """Positions of seeded Monk, Master and Chosen One playouts, up to ``limit`` for each of
    :data:`MONK_FEATURES` (found when a test first asks, not at collection)."""
    rng = random.Random(34)
    found: dict[str, list[State]] = {f: [] for f in MONK_FEATURES}
    tries = 0
    while tries < 400 and min(len(v) for v in found.values()) < limit:
        tries += 1
        options = {"solo_lookahead": rng.choice(SOLO_LOOKAHEADS)}
        if rng.random() < 0.3:
            options["solo_focus_replaces_action"] = True
        combo = rng.choice(MONK_COMBOS)
        start = solo_start(combo, rng.choice(("white", "black")), rng.randrange(2**32), **options)
        for s in solo_playout(start, rng.randrange(2**32), 40, 0.5)[:-1]:
            for f, test in MONK_FEATURES.items():
                if len(found[f]) < limit and test(s):
                    found[f].append(s)
    return found


@pytest.mark.parametrize("feature", MONK_FEATURES)
def test_monk_feature_positions(feature):
    """Each feature's position: its successors (:func:`check_position`), the policy's Focus
    inside the relaxation, and every next-position literal determined by a model's choices,
    for the first two legal sowings that make an effect."""
    (state,) = _monk_feature_positions(1)[feature]
    assert MONK_FEATURES[feature](state)
    check_position(state, symbolic=True)
    assert_the_relaxed_focus_admits_the_policys_choice(state)
    afters = [tr.after for tr in _played(state) if tr.effects][:2]
    one = OneTurn(state, exact=True, symbolic=True)
    try:
        for after in afters:
            assert one.determined(max_models=2, assume=[one.layer.bagua_is(one.g, after)]) == []
    finally:
        one.close()


@pytest.mark.slow
@settings(max_examples=200, **SETTINGS)
@given(monk_positions(st.integers(0, 60)), st.booleans())
def test_many_monk_one_turn_successors_equal_the_engines(state, symbolic):
    check_position(state, symbolic)


@pytest.mark.slow
@pytest.mark.parametrize("feature", MONK_FEATURES)
def test_many_monk_feature_positions(feature):
    states = _monk_feature_positions(5)[feature]
    assert states
    for state in states:
        check_position(state, symbolic=True)
        check_position(state, symbolic=False)
