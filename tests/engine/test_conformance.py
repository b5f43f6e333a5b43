"""Conformance: the property checks of test_properties.py on every scenario, mode, edition and
village the game allows.

The combinations are read from the data (``scenario_names()``, each scenario file's
``editions`` and ``village``), never listed by hand: 8 scenarios x 4 modes (grasshopper, monk,
master, chosen-one) x the editions the scenario allows (The Field and The Valley: current and
earlier) x the villages it allows (The Field, The Valley and The Mist: none, white, black; the
earlier edition has no Village). That is (4 + 4 + 3 + 5) boards x 4 modes = 64 combinations.

On every position reached by seeded random playouts, conformance.py checks: stones conserved
(Ba Gua 4 W + 4 B; water 8; fire 8), bodies connected (through portal links where present),
no overlaps (with each other, rocks, the village, portals), ``validate()``, the TLN / JSON /
``repr`` / pickle round trips, every legal turn's notation (``Turn.parse(str(t)) == t`` and
``state.parse_turn(str(t)) == t``) and that it plays to the same successor, no duplicate legal
turns, no turns once the game is over, and that ``play()`` never mutates.

This file is the seeded SAMPLE run by ``make test``: per combination, every position of one
30-turn playout and the last positions of a 150-turn one (about 20 s on 2 cores with ``-n 2``).
test_conformance_slow.py (marked ``slow``, run by ``make test-full``) plays many whole games per
combination.

The solo variant runs through the same checks: every combination of the current edition (the
earlier rulebook has no solo variant), once for each player colour (112 cases), from a setup
drawn from the case's seed (segments, water, a standard, shuffled or random Ba Gua) under both
``solo_lookahead`` readings, with the solo invariants on top (the player never changes and is
always to move, one phase a turn, a turn written without its opponent group plays the same or
is refused as ambiguous). A few turns each keep ``make test`` fast; test_conformance_slow.py
plays whole solo games.

It also holds the differential test of the engine's two movement paths: on boards without
portals, the village or breakable rocks (``core.Env.plain``) ``steps()`` takes a fast path; the
general path must give the same successors.
"""

from __future__ import annotations

import itertools
import random
import zlib

import pytest
from conformance import (
    FINISH,
    SOLO_LOOKAHEADS,
    VILLAGE_EDITIONS,
    Combo,
    check_invariants,
    check_solo_path,
    check_turns,
    combinations,
    combo_playout,
    solo_combinations,
    solo_playout,
    solo_start,
    start_of,
)

from taolong_lab import RulesError, State, new_game, solo_game
from taolong_lab.engine.geometry import cell_name
from taolong_lab.rules import EDITIONS, MODES, scenario_names
from taolong_lab.rules.data import COLOURS
from taolong_lab.rules.scenario import load_scenario

COMBOS = combinations()
# boards: field and valley 3 villages (current) + 1 (earlier), mist 3, 5 others 1: 16; x 4 modes
EXPECTED_COMBINATIONS = 64
SAMPLE_DEPTH = 30  # turns per sample playout
LATE_DEPTH, LATE_CHECKED = 150, 8  # a longer playout, whose last positions are checked


def seed_of(combo: Combo, game: int = 0) -> int:
    """A fixed seed per combination (and game number), stable across runs and machines."""
    return zlib.crc32(f"{combo.id}#{game}".encode())


# ---- the combinations ------------------------------------------------------------------------
def test_the_combinations_come_from_the_data():
    names = scenario_names()
    assert len(names) == 8
    boards = 0
    for key in names:
        scenario = load_scenario(key)
        for edition in scenario.editions:
            boards += 3 if scenario.village and edition in VILLAGE_EDITIONS else 1
    assert len(COMBOS) == boards * len(MODES) == EXPECTED_COMBINATIONS
    assert len(set(COMBOS)) == len(COMBOS)
    assert {c.scenario for c in COMBOS} == set(names)
    assert {c.mode for c in COMBOS} == {"grasshopper", "monk", "master", "chosen-one"}
    assert {c.edition for c in COMBOS} == {"current", "earlier"}
    assert {c.village for c in COMBOS} == {None, "white", "black"}
    # The expected shape, as the issue states it.
    assert {c.scenario for c in COMBOS if c.edition == "earlier"} == {"field", "valley"}
    assert {c.scenario for c in COMBOS if c.village} == {"field", "mist", "valley"}
    assert {c.edition for c in COMBOS if c.village} == {"current"}


def test_exactly_the_allowed_combinations_can_be_set_up():
    allowed = set(COMBOS)
    for scenario, mode, edition, village in itertools.product(
        scenario_names(), MODES, EDITIONS, (None, "white", "black")
    ):
        combo = Combo(scenario, mode, edition, village)
        if combo in allowed:
            start = combo.start()
            assert start.rules.token().startswith(f"{scenario}/{mode}/{edition}")
            assert start.rules.option("village") == village
        else:
            with pytest.raises(RulesError):
                combo.start()


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: c.id)
def test_start_position(combo):
    start = combo.start()
    scenario = load_scenario(combo.scenario)
    assert start.ply == 0 and start.to_move == "white" and not start.is_over()
    assert [start.cells(c) for c in ("white", "black")] == [list(s) for s in scenario.starts]
    assert start.centre == (0, 8)
    assert start.flux == "ccw"
    village = {(x, y) for y, row in enumerate(start.layout) for x, s in enumerate(row) if s == "V"}
    assert bool(village) == (combo.village is not None)
    assert bool(start.rocks) == scenario.breakable_rocks
    assert start_of(start.rules) == start
    check_invariants(start)
    check_turns(start)


# ---- the sample: one short seeded playout per combination ------------------------------------
@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: c.id)
def test_sample_playout_is_sound(combo):
    path = combo_playout(combo, seed_of(combo), SAMPLE_DEPTH)
    assert len(path) == SAMPLE_DEPTH + 1 or path[-1].is_over()
    for s in path:
        check_invariants(s)
        check_turns(s)


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: c.id)
def test_sample_late_positions_are_sound(combo):
    """Late in a game (segments lost, portals released, rocks broken) or at its end."""
    path = combo_playout(combo, seed_of(combo, 1), LATE_DEPTH)
    for s in path[-LATE_CHECKED:]:
        check_invariants(s)
        check_turns(s)


@pytest.mark.parametrize("scenario", scenario_names())
def test_finished_games_have_no_turns(scenario):
    combo = Combo(scenario, "grasshopper", "current", None)
    end = combo_playout(combo, seed_of(combo), FINISH)[-1]
    assert end.is_over()
    check_invariants(end)
    check_turns(end)
    assert end.legal_turns() == [] and end.successors() == []


# ---- the solo variant ------------------------------------------------------------------------
SOLO_CASES = [(combo, player) for combo in solo_combinations() for player in COLOURS]
SOLO_DEPTH = {"matter": 12, "next-turn": 4}  # turns per sample playout


def solo_case_id(case) -> str:
    combo, player = case
    return f"{combo.id}/solo/{player}"


def test_solo_cases():
    earlier = sum(c.edition == "earlier" for c in COMBOS)
    assert len(SOLO_CASES) == 2 * (EXPECTED_COMBINATIONS - earlier) == 112
    assert all(solo_start(c, p, 0).rules.solo for c, p in SOLO_CASES[:4])


@pytest.mark.parametrize("case", SOLO_CASES, ids=solo_case_id)
def test_solo_start_position(case):
    """The standard solo start: both dragons on the scenario's start cells, full segments and
    water, the setup stacks, the chosen colour to move."""
    combo, player = case
    kwargs = combo.kwargs()
    start = solo_game(kwargs.pop("scenario"), kwargs.pop("mode"), player=player, **kwargs)
    two = combo.start()
    assert start.rules.solo and start.rules.option("village") == combo.village
    assert start.player == start.to_move == player and start.ply == 0
    assert [start.cells(c) for c in COLOURS] == [two.cells(c) for c in COLOURS]
    assert (start.bagua, start.centre, start.layout, start.rocks) == (
        two.bagua,
        two.centre,
        two.layout,
        two.rocks,
    )
    check_invariants(start)
    check_turns(start)


@pytest.mark.parametrize("case", SOLO_CASES, ids=solo_case_id)
def test_solo_sample_playout_is_sound(case):
    combo, player = case
    for game, look in enumerate(SOLO_LOOKAHEADS):
        seed = seed_of(combo, 10 + 2 * COLOURS.index(player) + game)
        start = solo_start(combo, player, seed, solo_lookahead=look)
        assert start.rules.option("solo_lookahead") == look
        path = solo_playout(start, seed, SOLO_DEPTH[look], greed=0.3)
        check_solo_path(path)
        for s in path:
            check_invariants(s)
            check_turns(s)


# ---- differential: the fast (plain) movement path against the general one --------------------
PLAIN_COMBOS = [c for c in COMBOS if c.start()._env.plain]
OPTION_SETS = (
    {},
    {"bite_on_stay": False},
    {"extra_phases": 0},
    {"tail_vacates_first": True},
    {"tail_vacates_first": False},
)


def successor_list(state: State) -> list[tuple[str, str]]:
    return [(str(t), after.to_tln()) for t, after in state.iter_successors()]


def general_path_successors(tln: str) -> list[tuple[str, str]]:
    """The successors of ``tln`` with the position's Env forced onto the general path."""
    state = State(tln)
    env = state._env
    assert env.plain, "only plain boards have a fast path"
    env.plain = False
    try:
        return successor_list(State(tln))
    finally:
        env.plain = True


def check_paths_agree(tln: str) -> None:
    fast = successor_list(State(tln))
    general = general_path_successors(tln)
    assert State(tln)._env.plain  # restored
    assert fast == general, tln


STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def random_body(rng: random.Random, length: int, taken: set, starts: list) -> list | None:
    """A self-avoiding orthogonal chain of ``length`` free Field cells, head first, with its
    head on one of ``starts``; None if the random walk gets stuck."""
    cells = [rng.choice(starts)]
    while len(cells) < length:
        x, y = cells[-1]
        free = [
            (x + dx, y + dy)
            for dx, dy in STEPS
            if 0 <= x + dx < 8 and 0 <= y + dy < 8 and (x + dx, y + dy) not in {*taken, *cells}
        ]
        if not free:
            return None
        cells.append(rng.choice(free))
    return cells


def random_field_position(seed: int) -> str:
    """A random valid position on The Field (any mode, edition and options): two random bodies
    (often touching), random meters, the Ba Gua stones spread at random."""
    rng = random.Random(seed)
    mode, edition = rng.choice(MODES), rng.choice(EDITIONS)
    options = rng.choice(OPTION_SETS)
    token = f"field/{mode}/{edition}" + "".join(
        f"+{k}={str(v).lower()}" for k, v in sorted(options.items())
    )
    everywhere = [(x, y) for y in range(8) for x in range(8)]
    lengths = [rng.choice((2, 3, 4, 4, 4)) for _ in range(2)]
    if rng.random() < 0.05:
        lengths[rng.randrange(2)] = 1  # a defeated dragon: the game is over
    white = black = None
    while white is None or black is None:
        white = random_body(rng, lengths[0], set(), everywhere)
        if white is None:
            continue
        beside = {(x + dx, y + dy) for x, y in white for dx, dy in STEPS} - set(white)
        beside = sorted(c for c in beside if 0 <= c[0] < 8 and 0 <= c[1] < 8)
        free = [c for c in everywhere if c not in white]
        # often with the black head right beside the white dragon (bites, blocked steps)
        black = random_body(rng, lengths[1], set(white), beside if rng.random() < 0.6 else free)
    waters = [0 if n == 1 else rng.randint(1, 4) for n in lengths]
    fires = [rng.randint(0, 4), rng.randint(0, 4)]
    stacks = [""] * 8
    for stone in rng.sample("WWWWBBBB", 8):
        stacks[rng.randrange(8)] += stone
    bagua = "/".join(s or "-" for s in stacks)
    if mode in ("master", "chosen-one"):
        bagua += "@" + rng.choice(("ccw", "cw"))
    dragons = " ".join(
        f"{'-'.join(cell_name(c) for c in body)}:{w}:{f}"
        for body, w, f in zip((white, black), waters, fires, strict=True)
    )
    centre = f"{8 - sum(waters)}:{8 - sum(fires)}"
    side, turn = rng.choice("wb"), rng.randint(1, 99)
    return f"{token} 8/8/8/8/8/8/8/8 {dragons} {bagua} {centre} {side} {turn}"


def test_plain_combinations():
    """The boards with a fast path: no portals, no village, no breakable rocks."""
    plain = {(c.scenario, c.edition) for c in PLAIN_COMBOS}
    assert plain == {("field", "current"), ("field", "earlier"), ("gorge", "current"),
                     ("torus", "current")}  # fmt: skip
    assert all(c.village is None for c in PLAIN_COMBOS)
    assert len(PLAIN_COMBOS) == 16


@pytest.mark.parametrize("block", range(6))
def test_fast_and_general_paths_agree_on_random_field_positions(block):
    for seed in range(block * 50, (block + 1) * 50):
        tln = random_field_position(seed)
        check_invariants(State(tln))
        check_paths_agree(tln)


@pytest.mark.parametrize("combo", PLAIN_COMBOS, ids=lambda c: c.id)
def test_fast_and_general_paths_agree_on_playouts(combo):
    for options in OPTION_SETS[:3]:
        kwargs = {**combo.kwargs(), **options}
        edition = kwargs.pop("edition")
        rng = random.Random(seed_of(combo, len(options)))
        state = new_game(edition=edition, **kwargs)
        for _ in range(40):
            check_paths_agree(state.to_tln())
            if state.is_over():
                break
            state = state.play(rng.choice(state.legal_turns()))
