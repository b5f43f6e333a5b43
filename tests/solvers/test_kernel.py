"""The compiled solo kernel against the Python engine, its judge.

- successors: the whole Grasshopper solo part of the conformance corpus (every scenario, both
  lookaheads, the village variants), recorded from the engine, and a differential fuzzer of
  random solo positions (random starts, shuffled and random Ba Gua, weak dragons, playouts);
- bounds: ``lower_bound``, ``may_win_within`` and ``may_win_now`` on the same positions;
- the explicit solver run both ways on the bundled Grasshopper puzzles: the same optimum,
  certificate, first-turn count and counters, and a line the engine replays to a win;
- every line the kernel returns is replayed: a kernel that lies is caught;
- ``TAOLONG_PURE=1`` turns the kernel off.

The tests skip, saying so, where the kernel is not built.
"""

from __future__ import annotations

import datetime
import hashlib
import random
import subprocess
import sys

import pytest
from engine_corpus import load
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taolong_lab import Line, State, load_puzzles, solo_game
from taolong_lab.puzzles.atlas import arrangements, atlas_start
from taolong_lab.rules import scenario_names
from taolong_lab.solvers import kernel
from taolong_lab.solvers.bounds import INF, bound_params, lower_bound, may_win_now, may_win_within
from taolong_lab.solvers.explicit import solve, win_line_within

pytestmark = pytest.mark.skipif(not kernel.available(), reason=kernel.status())

_, RECORDS = load()
GRASSHOPPER = sorted(
    {r["combo"] for r in RECORDS if "/solo" in r["combo"] and "/grasshopper/" in r["combo"]}
)
DAY = datetime.date.today().toordinal()
BUNDLED = sorted(__import__("pathlib").Path(__file__).parents[2].glob("puzzles/*-*.jsonl"))


def kernel_tlns(state: State) -> list[str]:
    return [after.to_tln() for after in kernel.successors(state)]


def check_bounds(state: State) -> None:
    """The kernel's bounds are the Python bounds."""
    params = bound_params(state)
    game = kernel.game(state)
    data = kernel.pack(state, tuple(cell for cell, _ in state.board.rocks))
    want = lower_bound(state, params)
    assert game.lower_bound(data) == (-1 if want == INF else want), state.to_tln()
    assert game.may_win_within(data, 1) == may_win_now(state, params), state.to_tln()
    for turns in (1, 2, 3, 5):
        loose = game.may_win_within_loose(data, turns)
        assert loose == may_win_within(state, turns, params), (state.to_tln(), turns)


def check_position(state: State) -> None:
    """Successors (in the engine's turn order) and bounds agree."""
    assert [after.key() for after in kernel.successors(state)] == [
        after.key() for _, after in state.successors()
    ], state.to_tln()
    check_bounds(state)


def test_corpus_has_every_grasshopper_solo_variant():
    assert {c.split("/")[0] for c in GRASSHOPPER} == set(scenario_names())
    assert any("next-turn" in c for c in GRASSHOPPER)
    assert any("village=" in c for c in GRASSHOPPER)


@pytest.mark.parametrize("combo", GRASSHOPPER)
def test_corpus_successors(combo):
    """Every recorded position: the kernel's successors are the recorded engine's, in order
    (the SHA-256 of their TLN lines), and its lower bound the solver's."""
    for record in RECORDS:
        if record["combo"] != combo:
            continue
        state = State(record["tln"])
        text = "\n".join(kernel_tlns(state))
        assert hashlib.sha256(text.encode()).hexdigest() == record["successors"], record["tln"]
        if not state.is_over():
            params = bound_params(state)
            game = kernel.game(state)
            data = kernel.pack(state, tuple(cell for cell, _ in state.board.rocks))
            want = lower_bound(state, params)
            assert game.lower_bound(data) == (-1 if want == INF else want)


@pytest.mark.parametrize("seed", [DAY], ids=lambda s: f"seed={s}")
@pytest.mark.parametrize("combo", GRASSHOPPER)
def test_corpus_bounds_sample(combo, seed):
    """A seeded sample of the corpus (changing daily): the Ba Gua-aware bounds agree too."""
    rng = random.Random(f"{seed}:{combo}")
    records = [r for r in RECORDS if r["combo"] == combo]
    for record in rng.sample(records, min(8, len(records))):
        state = State(record["tln"])
        if not state.is_over():
            check_bounds(state)


# ---- the differential fuzzer ----------------------------------------------------------------
@st.composite
def solo_positions(draw):
    """A random solo Grasshopper position: a random start (any scenario, either dragon, a
    shuffled, standard or random Ba Gua, dragons of any strength, either lookahead, the
    village where the scenario has one), then a random playout."""
    scenario = draw(st.sampled_from(scenario_names()))
    player = draw(st.sampled_from(("white", "black")))
    options = {}
    if draw(st.booleans()):
        options["solo_lookahead"] = "next-turn"
    if scenario in ("field", "valley", "mist") and draw(st.booleans()):
        options["village"] = draw(st.sampled_from(("white", "black")))
    if draw(st.booleans()):
        options["bite_on_stay"] = False
    if draw(st.booleans()):
        options["tail_vacates_first"] = True
    start = solo_game(
        scenario,
        player=player,
        segments={c: draw(st.integers(1, 3)) for c in ("white", "black")},
        water={c: draw(st.integers(1, 4)) for c in ("white", "black")},
        bagua=draw(st.sampled_from(("standard", "shuffled", "random"))),
        seed=draw(st.integers(0, 10**6)),
        **options,
    )
    if not options and draw(st.booleans()):
        start = atlas_start(scenario, player, draw(st.sampled_from(arrangements())))
    rng = random.Random(draw(st.integers(0, 2**32)))
    depth = draw(st.integers(0, 4 if "solo_lookahead" in options else 14))
    state = start
    for _ in range(depth):
        if state.is_over():
            break
        state = rng.choice(state.successors())[1]
    return state


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(solo_positions())
def test_random_positions_agree(state):
    check_position(state)


@pytest.mark.slow
@settings(
    max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(solo_positions())
def test_random_positions_agree_long(state):
    check_position(state)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(solo_positions(), st.integers(1, 3))
def test_win_within_agrees(state, turns):
    """The bounded depth-first search (the generator's and SAT's) answers alike, and the
    kernel's winning line wins in the engine."""
    params = bound_params(state)
    with kernel.pure():
        assert not kernel.available()
        want = win_line_within(state, turns, params)
    got = win_line_within(state, turns, params)
    assert (got is None) == (want is None), state.to_tln()
    if got is not None:
        assert len(got) <= turns
        end = Line(state, [str(t) for t in got]).end if got else state
        assert end.outcome() is not None and end.outcome().winner == state.to_move


def test_pack_round_trip_keeps_portals_and_rocks():
    """Positions with a body through a portal (The Mist) and trampled rocks (The Wall) cross
    to the kernel and back unchanged."""
    rng = random.Random(3)
    seen_links = seen_rocks = False
    for scenario in ("mist", "valley", "wall", "cave"):
        state = solo_game(scenario, bagua="random", seed=5)
        rocks = tuple(cell for cell, _ in state.board.rocks)
        for _ in range(60):
            if state.is_over():
                break
            back = kernel.unpack(kernel.pack(state, rocks), state, rocks, state.ply)
            assert back.key() == state.key() and back.to_tln() == state.to_tln()
            seen_links |= any(d.links for d in state.dragons)
            seen_rocks |= len(state.board.rocks) < len(rocks)
            state = rng.choice(state.successors())[1]
    assert seen_links and seen_rocks


# ---- the explicit solver both ways ----------------------------------------------------------
def grasshopper_puzzles(most: int):
    for path in BUNDLED:
        for puzzle in load_puzzles(path):
            if puzzle.start.rules.mode == "grasshopper" and puzzle.optimum <= most:
                yield puzzle


def solve_both(start, monkeypatch, **options):
    with monkeypatch.context() as m:
        m.setenv(kernel.PURE_ENV, "1")
        pure = solve(start, **options)
    fast = solve(start, **options)
    assert "kernel_bytes" in fast.stats and "kernel_bytes" not in pure.stats
    return pure, fast


def check_same(pure, fast) -> None:
    assert fast.status == pure.status and fast.optimum == pure.optimum
    assert fast.certificate.to_json() == pure.certificate.to_json()
    assert fast.optimal_first_turns == pure.optimal_first_turns
    for name in ("expanded", "search_expanded", "count_expanded", "generated", "deferred"):
        assert fast.stats[name] == pure.stats[name], name
    assert fast.line.notation() == pure.line.notation()
    end = Line(fast.line.start, fast.line.notation()).end
    assert end.outcome().winner == fast.line.start.to_move


def test_solver_both_ways_on_every_bundled_puzzle_of_optimum_4(monkeypatch):
    puzzles = list(grasshopper_puzzles(4))
    assert len(puzzles) > 40
    for puzzle in puzzles:
        pure, fast = solve_both(puzzle.start, monkeypatch)
        check_same(pure, fast)
        assert fast.optimum == puzzle.optimum


def test_solver_both_ways_under_budgets(monkeypatch):
    """A budget that stops the search, and one that stops the first-turn count, stop both
    paths at the same position with the same certificate."""
    start = solo_game(segments={"black": 2}, water={"black": 4})
    for max_states in (5, 40, 400):
        pure, fast = solve_both(start, monkeypatch, max_states=max_states)
        assert fast.status == pure.status
        assert fast.proved_no_win_below == pure.proved_no_win_below
        assert fast.certificate.to_json() == pure.certificate.to_json()
        assert fast.stats["expanded"] == pure.stats["expanded"] == max_states


def test_solver_both_ways_under_next_turn(monkeypatch):
    start = solo_game(segments={"black": 1}, water={"black": 2}, solo_lookahead="next-turn")
    pure, fast = solve_both(start, monkeypatch)
    check_same(pure, fast)


def test_a_kernel_line_is_replayed(monkeypatch):
    """A kernel whose line is not the engine's is refused, never reported."""
    start = solo_game(segments={"black": 1}, water={"black": 1})
    real = kernel.KernelSearch.line

    def wrong(self):
        moves = self._search.line()
        self._search = _Lying(self._search, [(moves[0] + 1) % 3, *moves[1:]])
        return real(self)

    monkeypatch.setattr(kernel.KernelSearch, "line", wrong)
    with pytest.raises(kernel.KernelMismatchError):
        solve(start)


class _Lying:
    def __init__(self, search, moves):
        self.search, self.moves = search, moves

    def line(self):
        return self.moves

    def __getattr__(self, name):
        return getattr(self.search, name)


def test_pure_environment_turns_the_kernel_off():
    code = (
        "from taolong_lab import solo_game\n"
        "from taolong_lab.solvers import kernel, solve\n"
        "s = solve(solo_game(segments={'black': 1}, water={'black': 1}))\n"
        "print(kernel.status().split(':')[0], 'kernel_bytes' in s.stats, s.optimum)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        env={**__import__("os").environ, kernel.PURE_ENV: "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.split() == ["pure", "Python", "False", "4"]


def test_doctor_names_the_path(capsys):
    from taolong_lab.cli import main

    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "solo search: compiled kernel" in out
