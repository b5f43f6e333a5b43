"""The puzzle generator: candidate positions from three sources, proved, cross-checked,
counted, checked, graded and appended to a file.

:func:`generate` draws candidate positions, proves each one's optimum with the explicit solver,
re-checks it with a second method, and keeps the ones that make good puzzles. Everything about
one candidate is derived from ``(seed, index)`` alone, so the same seed gives the same puzzles
whatever the number of workers. ``docs/puzzles.md`` ("Generating puzzles") is the reference;
this docstring is its summary.

Candidate sources (``sources``, drawn per candidate)
----------------------------------------------------
Candidate ``index`` of run ``seed`` uses ``random.Random(f"taolong-generate/{seed}/{index}")``.
It draws, in this order: the source (one of ``sources``), the scenario, the mode, the player,
the Village (with probability 1/3 where the scenario allows it, the opponent protecting it:
the village is then part of the dragon the player attacks and hurts the player, R11), then:

- ``random-solo/v2`` (``"random"``): the opponent's segments and water, the Ba Gua seed, a
  :func:`~taolong_lab.solo_game` (both dragons on their start cells, so placed legally, the
  player's dragon whole) and 0 to :data:`RANDOM_TURNS` random turns among those that do not end
  the game. Segments 1-2 and water 1-2 for ``turns`` up to 3; up to 3 water for a maximum of 4;
  segments up to 3 and water up to 4 beyond, and at least 2 segments when the minimum is 5 or
  more (:func:`opponent_range`).
- ``played-game/v1`` (``"played"``): the rulebook setup (both dragons whole) with a random Ba
  Gua, played by a seeded epsilon-greedy player (with probability ``epsilon``, drawn, a random
  turn that does not end the game; otherwise the damage-greedy turn of :func:`greedy_line`) for
  at most :data:`PLAYED_TURNS` turns. Of the positions along the game whose lower bound is
  within ``turns`` (all of them if none), one is picked, biased to later ones (the latest of
  three uniform draws) when the maximum is at most 4, else uniformly.
- ``backward/v1`` (``"backward"``): a ``random-solo/v2`` position is the seed; the state graph
  is explored forward from it (:func:`~taolong_lab.solvers.graph.explore`, depth ``turns[1]``,
  at most :data:`BACKWARD_STATES` positions); a breadth-first search over the predecessors of
  the won positions (:func:`~taolong_lab.solvers.graph.retrograde`) gives each node its
  distance to a win in the explored graph, an upper bound on its optimum; a node at the largest
  distance within ``turns`` is picked (the seed itself when none is).
- ``proved-line/v1`` (``"line"``, only when named: ``"all"`` means the three above): a
  position along the proved optimal line of a challenge of ``puzzles/rulebook-solo.jsonl``
  whose remaining optimum lies within ``turns`` (drawn among the requested scenarios and
  modes; a ``random-solo/v2`` position when none fits). Used for the deep tier.

Checks, in order (the first that fails is the rejection's reason)
-----------------------------------------------------------------
1. not a duplicate (canonical position: the TLN without its turn counter, rules included), not
   over; 2. the lower bound is at most ``turns[1]`` and a win within ``turns[1]`` exists
   (:func:`wins_within`); 3. the explicit solver proves the optimum, within ``turns``;
   4. **fairness**: the stored line never loses; 5. **non-triviality**: the greedy player does
   not win within the optimum; 6. the optimal lines and first turns are counted
   (:func:`optimal_counts`, lines exact or "at least"); win-in-1 (which the greedy player always
   finds) is kept only when at most a quarter of the legal turns win and at least
   :data:`WIN_IN_1_MIN_TURNS` turns are legal; 7. the **cross-check** (:func:`cross_check`):
   SAT re-proves a Grasshopper optimum, the explicit solver's bounded depth-first search the
   others (a disagreement is a bug: warned about and counted).

The grade (:func:`difficulty`)
------------------------------
``tier``/``grade`` by the optimum: novice 1-2, intermediate 3-4, advanced 5-7, expert 8+.
``score = optimum + hardness``, ``hardness = 1 - exp(-x)`` in [0, 1) (floored to 3 places,
at most 0.999), ``x = 0.15 * log2(branching / optimal_first_turns) + 0.3 / optimal_lines +
0.1 * log10(1 + expanded) + 0.1 * greedy_shortfall``: the score orders puzzles within a tier
and never crosses tiers.

Crash safety and resuming
-------------------------
With ``out`` (a ``.jsonl`` file), the sidecar ``out + ".state.json"`` records (atomically) the
run's parameters, the next candidate index, the reasons counted, the kept positions and what
the run wrote: the file's size after its last whole append, the SHA-256 of those bytes and,
while a puzzle is being appended, that line. Each kept puzzle is appended with one write
(:func:`~taolong_lab.puzzles.format.append_bytes`) between two saves of the sidecar. A rerun
with the same ``out`` and parameters resumes at the next index; positions already in the file
are never kept twice (the keys are rebuilt from the file itself).

The file is never shortened but by :func:`repair_tail`, and only by the bytes a crash tore:
those past the recorded size when the recorded bytes are unchanged and the rest begins the line
being appended (warned about). Any other file (no sidecar, or one the file no longer matches)
is left whole: a last line without its newline that reads as a puzzle gets its newline before
the first append, and a file that does not read as puzzles is refused, untouched.
"""

from __future__ import annotations

import hashlib
import json
import math
import operator
import os
import random
import re
import time
import warnings
from contextlib import closing
from pathlib import Path
from typing import NamedTuple

from ..engine import State, solo_start
from ..errors import TaoLongError
from ..files import write_atomic
from ..rules import Rules
from .format import Puzzle, append_bytes, load_puzzles, puzzles_text, read_puzzles
from .runner import check_scheduler, ordered_map

GENERATOR = "taolong_lab.puzzles.generate"
GENERATOR_VERSION = "2"
SOURCES = ("random", "played", "backward")  # what "all" means
SOURCE_NAMES = {
    "random": "random-solo/v2",
    "played": "played-game/v1",
    "backward": "backward/v1",
    "line": "proved-line/v1",
}
STATE_FORMAT = "taolong-generate-state"
STATE_VERSION = 3  # version 2 had no record of the bytes written
MAX_COUNT = 1_000_000  # puzzles wanted in one file
SEED_LIMIT = 2**64  # seeds are 0 .. 2**64 - 1
INDEX_LIMIT = 2**63  # candidate indices
MAX_ASKED_TURNS = 100  # the deepest puzzle asked for
MAX_TIME_LIMIT = 86_400  # seconds per candidate: a day
RANDOM_TURNS = 4
PLAYED_TURNS = 40
BACKWARD_STATES = 1500
VILLAGE_CHANCE = 1 / 3
MAX_STATES = 20000  # a deterministic budget per candidate, besides the time limit
LINE_CAP = 10_000
GREEDY_HORIZON = 4  # the greedy player is followed up to optimum + 4 turns
WIN_IN_1_MIN_TURNS = 8
MAX_CANDIDATES_PER_PUZZLE = 500
TIERS = ((2, "novice"), (4, "intermediate"), (7, "advanced"), (math.inf, "expert"))
WEIGHTS = {"rarity": 0.15, "uniqueness": 0.3, "effort": 0.1, "greedy_shortfall": 0.1}
FORMULA = (
    "score = optimum + hardness; hardness = 1 - exp(-x), floored to 3 places, <= 0.999; "
    "x = 0.15*log2(branching/optimal_first_turns) + 0.3/optimal_lines "
    "+ 0.1*log10(1+expanded) + 0.1*greedy_shortfall"
)
SAT_SOLVER = "taolong_lab.solvers.sat"
EXPLICIT_CHECK = "taolong_lab.solvers.explicit.win_within"


class GenerateError(TaoLongError):
    """Bad input to :func:`generate`, or an ``out`` file that belongs to another run."""


class CrossCheckWarning(UserWarning):
    """The two methods disagree on a candidate's optimum: a bug in one of the solvers."""


# ---- candidate sources ----------------------------------------------------------------------
def _opponent(player: str) -> str:
    return "black" if player == "white" else "white"


def opponent_range(turns) -> tuple[tuple[int, int], tuple[int, int]]:
    """The opponent's segments and water ranges drawn by ``random-solo/v2`` for ``turns``:
    small dragons for short puzzles, up to whole ones for deep tiers."""
    low, high = turns
    if high <= 3:
        return (1, 2), (1, 2)
    if high == 4:
        return (1, 2), (1, 3)
    return (2 if low >= 5 else 1, 3), (1, 4)


def _draw_common(rng: random.Random, scenarios, modes) -> dict:
    from ..rules.scenario import load_scenario

    scenario = scenarios[rng.randrange(len(scenarios))]
    mode = modes[rng.randrange(len(modes))]
    player = ("white", "black")[rng.randrange(2)]
    village = None
    if load_scenario(scenario).village and rng.random() < VILLAGE_CHANCE:
        village = _opponent(player)
    return {"scenario": scenario, "mode": mode, "player": player, "village": village}


def _solo(drawn: dict, rng: random.Random, **sizes) -> State:
    options = {"village": drawn["village"]} if drawn["village"] else {}
    drawn["bagua_seed"] = rng.randrange(2**32)
    rules = Rules.make(drawn["scenario"], drawn["mode"], solo=True, **options)
    return solo_start(
        rules, player=drawn["player"], bagua="random", seed=drawn["bagua_seed"], **sizes
    )


def _random_solo(rng: random.Random, drawn: dict, turns) -> State:
    (s_low, s_high), (w_low, w_high) = opponent_range(turns)
    opponent = _opponent(drawn["player"])
    drawn["opponent_segments"] = segments = rng.randint(s_low, s_high)
    drawn["opponent_water"] = water = rng.randint(w_low, w_high)
    random_turns = rng.randint(0, RANDOM_TURNS)
    state = _solo(drawn, rng, segments={opponent: segments}, water={opponent: water})
    played = 0
    for _ in range(random_turns):
        going_on = [after for _, after in state.successors() if not after.is_over()]
        if not going_on:
            break
        state = going_on[rng.randrange(len(going_on))]
        played += 1
    drawn["random_turns"] = played
    return state


def _played_game(rng: random.Random, drawn: dict, turns) -> State:
    from ..solvers.bounds import lower_bound

    drawn["epsilon"] = epsilon = rng.choice((0.2, 0.35, 0.5))
    state = _solo(drawn, rng)
    positions = []
    while not state.is_over() and len(positions) < PLAYED_TURNS:
        positions.append(state)
        successors = state.successors()
        going_on = [after for _, after in successors if not after.is_over()]
        if going_on and rng.random() < epsilon:
            state = going_on[rng.randrange(len(going_on))]
        else:
            state = _most_damage(state, successors)[1]
    eligible = [i for i, s in enumerate(positions) if lower_bound(s) <= turns[1]]
    eligible = eligible or list(range(len(positions)))
    draws = 3 if turns[1] <= 4 else 1
    pick = eligible[max(rng.randrange(len(eligible)) for _ in range(draws))]
    drawn["game_turns"], drawn["picked_turn"] = len(positions), pick
    return positions[pick]


def _backward(rng: random.Random, drawn: dict, turns) -> State:
    from ..solvers.graph import explore, retrograde

    seed_state = _random_solo(rng, drawn, turns)
    graph = explore(seed_state, depth=turns[1], max_states=BACKWARD_STATES)
    distance = retrograde(graph).turns_to_win
    within = [d for d in distance if d is not None and 1 <= d <= turns[1]]
    drawn["explored"] = len(graph)
    if not within:
        drawn["backward_distance"] = None
        return seed_state
    best = max(within)
    nodes = [i for i, d in enumerate(distance) if d == best]
    node = nodes[rng.randrange(len(nodes))]
    drawn["backward_distance"], drawn["backward_depth"] = best, graph.depth[node]
    return graph.state(node)


def _proved_line(rng: random.Random, drawn: dict, turns) -> State:
    from .rulebook import SHIPPED

    eligible = []
    for puzzle in load_puzzles(SHIPPED, check_solutions=False):
        if puzzle.optimum is None or not puzzle.solution:
            continue
        if (
            puzzle.rules.scenario not in drawn["scenarios"]
            or puzzle.rules.mode not in drawn["modes"]
        ):
            continue
        eligible += [
            (puzzle, k) for k in range(puzzle.optimum) if turns[0] <= puzzle.optimum - k <= turns[1]
        ]
    if not eligible:
        drawn["line"] = None
        return _random_solo(rng, drawn, turns)
    puzzle, k = eligible[rng.randrange(len(eligible))]
    state = puzzle.start
    for text in puzzle.solution[:k]:
        state = state.play(text)
    drawn.update(scenario=puzzle.rules.scenario, mode=puzzle.rules.mode, player=puzzle.player)
    drawn.update(village=dict(puzzle.rules.options).get("village"), line=puzzle.id, ply=k)
    return state


_DRAW = {
    "random": _random_solo,
    "played": _played_game,
    "backward": _backward,
    "line": _proved_line,
}


def candidate(
    seed: int, index: int, scenarios, modes, sources=SOURCES, turns=(1, 4)
) -> tuple[State, dict]:
    """Candidate ``index`` of run ``seed``: the start position and how it was drawn (the
    source's name under ``"source"`` and every parameter drawn). Depends on the arguments
    only (see the module docstring for the draws)."""
    rng = random.Random(f"taolong-generate/{seed}/{index}")
    source = sources[rng.randrange(len(sources))]
    drawn = {"source": SOURCE_NAMES[source], **_draw_common(rng, scenarios, modes)}
    if source == "line":
        drawn.update(scenarios=tuple(scenarios), modes=tuple(modes))
    state = _DRAW[source](rng, drawn, tuple(turns))
    drawn.pop("scenarios", None)
    drawn.pop("modes", None)
    return state, drawn


def position_key(state) -> str:
    """The canonical position: the TLN without its turn counter (rules included)."""
    return " ".join(state.to_tln().split()[:-1])


# ---- the checks -----------------------------------------------------------------------------
def _most_damage(state, successors=None):
    """The ``(turn, after)`` taking the most of the opponent's life now, ties by engine
    order (None without a legal turn)."""
    opponent = _opponent(state.to_move)
    life = state.life(opponent)
    best = None
    for turn, after in state.successors() if successors is None else successors:
        damage = life - after.life(opponent)
        if best is None or damage > best[0]:
            best = (damage, turn, after)
    return None if best is None else best[1:]


def greedy_line(state, turns: int) -> tuple[list[str], bool]:
    """The greedy player's first ``turns`` turns (fewer if the game ends): always the turn
    that takes the most of the opponent's life now, ties by engine order. Returns the turns
    played (notation) and whether the player won."""
    player = state.to_move
    line = []
    for _ in range(turns):
        if state.is_over():
            break
        best = _most_damage(state)
        if best is None:
            break
        line.append(str(best[0]))
        state = best[1]
    result = state.outcome()
    return line, result is not None and result.winner == player


def wins_within(
    state,
    turns: int,
    max_states: int | None = None,
    failed: dict | None = None,
    time_limit: float | None = None,
) -> bool | None:
    """Whether the player can win within ``turns`` turns (the explicit solver's exact
    :func:`~taolong_lab.solvers.explicit.win_within`, sharing what it proved through
    ``failed``); None when ``max_states`` expansions or ``time_limit`` seconds did not
    settle it."""
    from ..solvers.bounds import bound_params
    from ..solvers.common import Budget
    from ..solvers.explicit import OutOfBudget, win_within

    budget = Budget(time_limit, max_states)
    try:
        return win_within(state, turns, bound_params(state), budget, failed)
    except OutOfBudget:
        return None


def line_is_fair(state, line) -> bool:
    """The line never loses: every turn legal, none ends the game but the last, a win."""
    player = state.to_move
    for i, text in enumerate(line):
        if state.is_over():
            return False
        state = state.play(text)
        result = state.outcome()
        if result is not None and (result.winner != player or i != len(line) - 1):
            return False
    result = state.outcome()
    return result is not None and result.winner == player


class OptimalCounts(NamedTuple):
    """What :func:`optimal_counts` found: the optimal lines and the optimal first turns, each
    exact or, when a budget ran out, "at least" (``exact``, ``first_turns_exact`` False)."""

    lines: int
    exact: bool
    first_turns: int
    first_turns_exact: bool = True


def count_optimal_lines(
    state,
    optimum: int,
    cap: int = LINE_CAP,
    max_states: int | None = MAX_STATES,
    failed: dict | None = None,
) -> tuple[int, bool]:
    """The number of winning lines of exactly ``optimum`` turns from ``state`` (sequences of
    the engine's turns, distinct texts; two turns to the same position count twice; a line
    wins at its last turn only), and whether the count is exact. See :func:`optimal_counts`."""
    counts = optimal_counts(state, optimum, cap, max_states, failed)
    return counts.lines, counts.exact


def optimal_counts(
    state,
    optimum: int,
    cap: int = LINE_CAP,
    max_states: int | None = MAX_STATES,
    failed: dict | None = None,
    time_limit: float | None = None,
) -> OptimalCounts:
    """The optimal lines from ``state`` (see :func:`count_optimal_lines`) and the optimal first
    turns (the turns that start one).

    A depth-first search pruned by the lower bound and by
    :func:`~taolong_lab.solvers.explicit.win_within`, memoised on ``(State.key(), turns
    left)``. ``exact`` is False when the count reached ``cap`` (the count is then ``cap``)
    or ``max_states`` expansions ran out (the lines counted so far): "at least this many".
    Past the cap, the remaining first turns are decided by ``win_within`` alone. When
    ``max_states`` or ``time_limit`` runs out, both counts are what was counted so far ("at
    least").
    ``failed``: a ``win_within`` memo to share (what an earlier search proved).
    """
    from ..solvers.bounds import bound_params, lower_bound
    from ..solvers.common import Budget
    from ..solvers.explicit import OutOfBudget, win_within

    params = bound_params(state)
    budget = Budget(time_limit, max_states)
    failed = {} if failed is None else failed
    memo: dict = {}

    def lines(st: State, r: int) -> int:
        h = lower_bound(st, params)
        if h == 0 or r == 0 or h > r:
            return 1 if h == 0 and r == 0 else 0
        k = (st.key(), r)
        if k not in memo:
            if not win_within(st, r, params, budget, failed):
                memo[k] = 0
                return 0
            if budget.spent():
                raise OutOfBudget
            budget.expanded += 1
            total = 0
            for _, after in st.iter_successors():
                total += lines(after, r - 1)
                if total >= cap:
                    break
            memo[k] = min(total, cap)
        return memo[k]

    if state.is_over() or optimum == 0:
        return OptimalCounts(lines(state, optimum), True, 0)
    total, first, exact = 0, 0, True
    try:
        for _, after in state.iter_successors():
            if total < cap:
                found = lines(after, optimum - 1)
                total += found
                first += found > 0
            else:
                exact = False
                first += win_within(after, optimum - 1, params, budget, failed)
    except OutOfBudget:
        return OptimalCounts(total, False, first, False)
    if total >= cap:
        return OptimalCounts(cap, False, first)
    return OptimalCounts(total, exact, first)


def cross_check(state, optimum: int, time_limit: float | None, max_states: int | None) -> dict:
    """Re-prove ``optimum`` by a second method: the SAT solver in Grasshopper (it must return
    status optimal with the same optimum; optimum 1 needs no search: a win needs a turn); in
    the other modes, which SAT does not encode, the explicit solver's bounded depth-first
    search :func:`~taolong_lab.solvers.explicit.win_within` (no win within ``optimum - 1``, a
    win within ``optimum``). ``agrees``: True, False (a disagreement: a bug) or None (a
    budget ran out)."""
    t0 = time.perf_counter()
    if state.rules.mode == "grasshopper":
        check = _sat_check(state, optimum, time_limit)
    else:
        check = _explicit_check(state, optimum, time_limit, max_states)
    check["seconds"] = round(time.perf_counter() - t0, 3)
    return check


def _sat_check(state, optimum: int, time_limit: float | None) -> dict:
    from ..solvers.sat.solver import SatEncodingError, solve

    check = {"solver": SAT_SOLVER, "optimum": None, "agrees": None}
    if optimum == 1:
        check.update(method="optimum 1: no win exists in 0 turns", optimum=1, agrees=True)
        return check
    check["method"] = f"incremental SAT by turns up to max_horizon={optimum}"
    try:
        sol = solve(
            state,
            time_limit=time_limit,
            max_horizon=optimum,
            progress=False,
            count_first_turns=False,  # the generator counts them itself
        )
    except SatEncodingError as exc:
        check.update(agrees=False, error=str(exc))
        return check
    check["status"], check["proved_no_win_below"] = sol.status, sol.proved_no_win_below
    check["conflicts"] = sol.certificate.conflicts
    if sol.status == "optimal":
        check["optimum"], check["agrees"] = sol.optimum, sol.optimum == optimum
    elif sol.status == "no-win" or sol.proved_no_win_below > optimum:
        check["agrees"] = False  # SAT proves no win within the claimed optimum
    return check


def _explicit_check(state, optimum: int, time_limit, max_states) -> dict:
    from ..solvers.bounds import bound_params
    from ..solvers.common import Budget
    from ..solvers.explicit import OutOfBudget, win_within

    check = {
        "solver": EXPLICIT_CHECK,
        "method": f"bounded depth-first search: no win within {optimum - 1}, a win within "
        f"{optimum}",
        "optimum": None,
        "agrees": None,
    }
    params, budget = bound_params(state), Budget(time_limit, max_states)
    try:
        shorter = win_within(state, optimum - 1, params, budget)
        within = win_within(state, optimum, params, budget)
    except OutOfBudget:
        return check
    check["win_within_optimum_minus_1"], check["win_within_optimum"] = shorter, within
    check["agrees"] = within and not shorter
    check["optimum"] = optimum if check["agrees"] else None
    return check


def tier_of(optimum: int) -> str:
    """The tier of a puzzle by its optimum: novice 1-2, intermediate 3-4, advanced 5-7,
    expert 8 and more."""
    if isinstance(optimum, bool) or not isinstance(optimum, int) or optimum < 1:
        raise GenerateError(f"optimum must be a whole number >= 1, got {optimum!r}")
    return next(name for limit, name in TIERS if optimum <= limit)


def greedy_shortfall(greedy_turns: int | None, optimum: int) -> int:
    """How many turns beyond the optimum the greedy player needs to win, or
    ``GREEDY_HORIZON + 1`` when it does not win within ``optimum + GREEDY_HORIZON``."""
    if greedy_turns is None:
        return GREEDY_HORIZON + 1
    return max(0, greedy_turns - optimum)


def difficulty(
    optimum: int,
    optimal_first_turns: int,
    branching: int,
    expanded: int,
    optimal_lines: int = 1,
    greedy_turns: int | None = None,
    **features,
) -> dict:
    """The documented grade (:data:`FORMULA`, see the module docstring) and every feature it
    is made of (``features`` are recorded as given). ``greedy_turns``: the turns the greedy
    player needs to win (None: not within ``optimum + GREEDY_HORIZON``)."""
    shortfall = greedy_shortfall(greedy_turns, optimum)
    terms = {
        "rarity": math.log2(max(branching, 1) / max(optimal_first_turns, 1)),
        "uniqueness": 1 / max(optimal_lines, 1),
        "effort": math.log10(1 + max(expanded, 0)),
        "greedy_shortfall": shortfall,
    }
    x = sum(WEIGHTS[name] * value for name, value in terms.items())
    hardness = min(math.floor((1 - math.exp(-x)) * 1000) / 1000, 0.999)
    tier = tier_of(optimum)
    return {
        "tier": tier,
        "grade": tier,
        "score": round(optimum + hardness, 3),
        "hardness": hardness,
        "formula": FORMULA,
        "optimum": optimum,
        "optimal_first_turns": optimal_first_turns,
        "branching": branching,
        "optimal_lines": optimal_lines,
        "expanded": expanded,
        "greedy_turns_to_win": greedy_turns,
        "greedy_shortfall": shortfall,
        "rarity": round(terms["rarity"], 4),
        **features,
    }


def win_in_1_ok(optimal_first_turns: int, branching: int) -> bool:
    """The win-in-1 exception to the greedy rule: kept only when at most a quarter of the
    legal turns win and at least :data:`WIN_IN_1_MIN_TURNS` turns are legal."""
    return branching >= WIN_IN_1_MIN_TURNS and 4 * optimal_first_turns <= branching


# ---- one candidate --------------------------------------------------------------------------
def evaluate(job: dict) -> dict:
    """Decide one candidate (runs in a worker). Never raises: an exception is a rejection
    with reason ``error: ...``. Returns ``{"index", "key", "kept", "reason", "puzzle"}``
    (plus ``"detail"`` for a cross-check that does not agree)."""
    out = _blank(job["index"])
    try:
        state, drawn = candidate(
            job["seed"],
            job["index"],
            job["scenarios"],
            job["modes"],
            job.get("sources", SOURCES),
            job["turns"],
        )
        _judge(state, drawn, job, out)
    except Exception as exc:  # a worker exception loses only this candidate
        out["kept"], out["puzzle"] = False, None
        out["reason"] = f"error: {type(exc).__name__}: {exc}"
    return out


def _evaluate_state(state, drawn: dict, job: dict) -> dict:
    """:func:`evaluate` for a given position (``drawn`` its provenance); raises."""
    out = _blank(job["index"])
    _judge(state, drawn, job, out)
    return out


def _blank(index: int) -> dict:
    return {"index": index, "key": None, "kept": False, "reason": None, "puzzle": None}


def _prove(state, job: dict, failed: dict):
    """The explicit solution when the optimum is within ``job["turns"]``, else the reason
    (``failed``: the ``win_within`` memo, shared with the line count)."""
    from ..solvers import solve
    from ..solvers.bounds import lower_bound

    low, high = job["turns"]
    if lower_bound(state) > high:
        return None, "lower bound above the turns"
    within = wins_within(state, high, job["max_states"], failed, job["time_limit"])
    if not within:
        return None, "too long" if within is False else "unknown (budget)"
    solution = solve(
        state,
        method="explicit",
        time_limit=job["time_limit"],
        max_states=job["max_states"],
        progress=False,
        count_first_turns=False,  # counted with the lines, sharing the pre-check's memo
    )
    if solution.status != "optimal":
        beyond = solution.status == "no-win" or solution.proved_no_win_below > high
        return None, "too long" if beyond else "unknown (budget)"
    if not low <= solution.optimum <= high:
        return None, "too long" if solution.optimum > high else "too short"
    return solution, None


def _judge(state, drawn: dict, job: dict, out: dict) -> None:
    """Run the checks on one candidate, filling ``out`` (see the module docstring)."""
    seed, index = job["seed"], job["index"]
    out["key"] = position_key(state)
    if out["key"] in job.get("skip", ()):
        out["reason"] = "duplicate"
        return
    if state.is_over():
        out["reason"] = "over"
        return
    failed: dict = {}
    solution, reason = _prove(state, job, failed)
    if reason is not None:
        out["reason"] = reason
        return
    optimum = solution.optimum
    if not line_is_fair(state, solution.line):
        out["reason"] = "unfair"
        return
    branching = len(state.successors())
    greedy, greedy_won = greedy_line(state, optimum + GREEDY_HORIZON)
    greedy_turns = len(greedy) if greedy_won else None
    greedy_within = greedy_turns is not None and greedy_turns <= optimum
    if optimum > 1 and greedy_within:
        out["reason"] = "trivial (greedy wins)"
        return
    counts = optimal_counts(
        state, optimum, max_states=job["max_states"], failed=failed, time_limit=job["time_limit"]
    )
    lines, exact, first, first_exact = counts
    first = max(first, 1)  # the stored line's first turn is optimal, counted or not
    if optimum == 1 and not win_in_1_ok(first, branching):
        out["reason"] = "win-in-1 too easy"
        return
    check = cross_check(state, optimum, job["time_limit"], job["max_states"])
    if check["agrees"] is not True:
        unknown = check["agrees"] is None
        out["reason"] = "cross-check unknown" if unknown else "cross-check disagrees"
        out["detail"] = check
        return
    grade = difficulty(
        optimum,
        first,
        branching,
        solution.stats["expanded"],
        optimal_lines=lines,
        greedy_turns=greedy_turns,
        optimal_lines_exact=exact,
        greedy_wins_within_optimum=greedy_within,
    )
    certificate = solution.certificate.to_json()
    certificate.update(
        optimal_first_turns=first,
        optimal_first_turns_exact=first_exact,
        optimal_lines=lines,
        optimal_lines_exact=exact,
        cross_check=check,
        fair=True,
        greedy_line=greedy[:optimum],
        greedy_turns_to_win=greedy_turns,
        greedy_wins_within_optimum=greedy_within,
    )
    puzzle = _puzzle(state, seed, index, solution, certificate, grade, drawn)
    out["kept"], out["reason"], out["puzzle"] = True, "kept", puzzle.to_json()


def _puzzle(state, seed, index, solution, certificate, grade, drawn) -> Puzzle:
    from .. import __version__

    rules = state.rules
    village = f", village of {drawn['village']}" if drawn.get("village") else ""
    return Puzzle.from_state(
        f"gen-{seed}-{index}",
        f"{rules.scenario} ({rules.mode}{village}), {state.to_move} to win in {solution.optimum}",
        state,
        optimum=solution.optimum,
        solution=solution.line,
        certificate=certificate,
        difficulty=grade,
        provenance={
            "generator": GENERATOR,
            "version": f"{__version__}/{GENERATOR_VERSION}",
            "seed": seed,
            "candidate": index,
            "rules": rules.token(),
            **drawn,
        },
    )


# ---- the run --------------------------------------------------------------------------------
def _names(field: str, given, known, every=None) -> tuple[str, ...]:
    names = tuple(every or known) if given == "all" else tuple(given)
    if not names:
        raise GenerateError(f"{field}: give at least one")
    for name in names:
        if name not in known:
            raise GenerateError(
                f"{field}: unknown {name!r}; choose from {', '.join(known)}, or all"
            )
    return names


def _whole(field: str, value, low: int, high: int) -> int:
    """``value`` as an int if it is a whole number from ``low`` to ``high``."""
    try:
        number = operator.index(value)
    except TypeError:
        number = None
    if number is None or isinstance(value, bool):
        raise GenerateError(f"{field} must be a whole number, got a {type(value).__name__}")
    if not low <= number <= high:
        shown = f"{number}" if number.bit_length() <= 64 else "a number of 20 digits or more"
        raise GenerateError(f"{field} must be from {low} to {high}, got {shown}")
    return number


def _check(count, scenarios, modes, sources, turns, seed, workers, time_limit, out, budgets):
    from ..rules import MODES, scenario_names
    from .runner import MAX_WORKERS

    _whole("count", count, 0, MAX_COUNT)
    scenarios = _names("scenario", scenarios, tuple(scenario_names()))
    modes = _names("mode", modes, tuple(MODES))
    sources = _names("source", sources, tuple(SOURCE_NAMES), SOURCES)
    try:
        low, high = turns
    except (TypeError, ValueError):
        raise GenerateError(f"turns must be (min, max), got a {type(turns).__name__}") from None
    low, high = (
        _whole("turns min", low, 1, MAX_ASKED_TURNS),
        _whole("turns max", high, 1, MAX_ASKED_TURNS),
    )
    if low > high:
        raise GenerateError(f"turns must satisfy 1 <= min <= max, got {low}..{high}")
    _whole("seed", seed, 0, SEED_LIMIT - 1)
    _whole("workers", workers, 1, MAX_WORKERS)
    if isinstance(time_limit, int) and not isinstance(time_limit, bool):
        _whole("time_limit", time_limit, 1, MAX_TIME_LIMIT)
    elif time_limit is not None and not (
        isinstance(time_limit, float) and 0 < time_limit <= MAX_TIME_LIMIT
    ):
        shown = repr(time_limit) if isinstance(time_limit, float) else type(time_limit).__name__
        raise GenerateError(
            f"time_limit must be seconds, more than 0 and at most {MAX_TIME_LIMIT} (a day), or "
            f"None for no limit; got {shown}"
        )
    for name, value in budgets.items():
        if value is not None:
            _whole(name, value, 1 if name == "max_states" else 0, INDEX_LIMIT)
    if out is not None and Path(out).suffix.lower() != ".jsonl":
        raise GenerateError(f"out: {out} must be a .jsonl file")
    return scenarios, modes, sources, (low, high)


def generate(
    count: int,
    *,
    scenarios=("field",),
    modes=("grasshopper",),
    sources=SOURCES,
    turns=(1, 4),
    seed: int = 0,
    workers: int = 1,
    out=None,
    time_limit: float | None = 10.0,
    progress: bool = True,
    max_states: int | None = MAX_STATES,
    max_candidates: int | None = None,
    scheduler=None,
    security=None,
    stats: dict | None = None,
) -> list[Puzzle]:
    """Generate puzzles until ``count`` are kept (with ``out``: until the file holds
    ``count``), and return them all in candidate order. See the module docstring for the
    sources, the checks, the grade and resuming. ``scenarios``, ``modes`` and ``sources``
    (``"random"``, ``"played"``, ``"backward"``) are lists of names or ``"all"``; ``turns``
    the least and most optimum kept. ``max_candidates`` (default ``500 * count``) caps the
    candidates tried in this call. ``scheduler``: a Dask scheduler address, and ``security``
    its TLS settings, passed to the runner (:mod:`taolong_lab.puzzles.runner`; a cluster is
    trusted code). Everything is checked before ``out`` is read. A cross-check that disagrees
    is warned about (:class:`CrossCheckWarning`) and counted under its reason in the sidecar.
    ``stats``, a dict, receives the candidates of this call counted by reason (``kept``,
    ``too long``...)."""
    budgets = {"max_states": max_states, "max_candidates": max_candidates}
    scenarios, modes, sources, turns = _check(
        count, scenarios, modes, sources, turns, seed, workers, time_limit, out, budgets
    )
    check_scheduler(scheduler, security)
    params = {
        "generator_version": GENERATOR_VERSION,
        "sources": list(sources),
        "seed": seed,
        "scenarios": list(scenarios),
        "modes": list(modes),
        "turns": list(turns),
        "max_states": max_states,
    }
    run = _Run(count, params, out)
    base = {
        "seed": seed,
        "scenarios": scenarios,
        "modes": modes,
        "sources": sources,
        "turns": turns,
        "time_limit": time_limit,
        "max_states": max_states,
    }

    def jobs():
        start = run.next_index
        cap = max_candidates
        if cap is None:
            cap = MAX_CANDIDATES_PER_PUZZLE * max(count, 1)
        for index in range(start, start + cap):
            yield {**base, "index": index, "skip": frozenset(run.keys)}

    bar = _bar(progress, count, len(run.kept))
    try:
        if not run.done():
            results = _results(jobs(), workers, scheduler, security, run.done)
            with closing(results):
                for result in results:
                    run.record(result, bar)
                    if run.done():
                        break
    finally:
        run.save_state()
        if bar is not None:
            bar.close()
        if stats is not None:
            stats.update(run.call_stats)
    return run.kept


class _Run:
    """One call's bookkeeping: the puzzles kept, their keys, the reasons counted, the file,
    what this run wrote to it (its size, the digest of its bytes, the line being appended)
    and the sidecar."""

    def __init__(self, count: int, params: dict, out):
        self.count, self.params = count, params
        self.kept: list[Puzzle] = []
        self.next_index, self.stats = 0, {}
        self.out = self.side = None
        data = b""
        if out is not None:
            self.out = Path(out)
            self.side = Path(str(out) + ".state.json")
            self.kept, self.next_index, self.stats, data = _resume(self.out, self.side, params)
        self.size, self.digest, self.appending = len(data), hashlib.sha256(data), None
        self.newline_first = bool(data) and not data.endswith(b"\n")
        self.keys = {position_key(p.start) for p in self.kept}
        self.tried, self.new, self.t0 = 0, 0, time.perf_counter()
        self.call_stats: dict[str, int] = {}
        self.last_save = self.t0

    def done(self) -> bool:
        return len(self.kept) >= self.count

    def record(self, result: dict, bar) -> None:
        reason = result["reason"]
        if result["kept"] and result["key"] in self.keys:
            reason = "duplicate"
        if reason == "kept":
            puzzle = Puzzle.from_json(result["puzzle"], check_solutions=False)
            if self.out is not None:
                self.append(puzzle)
            self.kept.append(puzzle)
            self.keys.add(result["key"])
            self.new += 1
        elif reason == "cross-check disagrees":
            warnings.warn(
                f"candidate {result['index']}: the cross-check disagrees with the explicit "
                f"solver: {json.dumps(result.get('detail'))}",
                CrossCheckWarning,
                stacklevel=2,
            )
        self.stats[reason] = self.stats.get(reason, 0) + 1
        self.call_stats[reason] = self.call_stats.get(reason, 0) + 1
        self.next_index, self.tried = result["index"] + 1, self.tried + 1
        now = time.perf_counter()
        if reason == "kept" or now - self.last_save > 2.0:
            self.save_state()
            self.last_save = now
        if bar is not None:
            bar.update(1 if reason == "kept" else 0)
            bar.set_postfix(self.rates(now), refresh=False)

    def append(self, puzzle: Puzzle) -> None:
        """Append ``puzzle`` to the file, the sidecar saying meanwhile what is being written."""
        data = puzzles_text([puzzle], "jsonl").encode("utf-8")
        if self.newline_first:  # the file's last line had no newline: it is kept whole
            data = b"\n" + data
        self.appending = data
        self.save_state()
        append_bytes(self.out, data)
        self.size += len(data)
        self.digest.update(data)
        self.appending, self.newline_first = None, False

    def rates(self, now: float | None = None) -> dict:
        """The progress bar's postfix: kept, tried, candidates/s, puzzles/min (this call)."""
        seconds = max((now or time.perf_counter()) - self.t0, 1e-9)
        return {
            "kept": len(self.kept),
            "tried": self.tried,
            "cand_per_s": f"{self.tried / seconds:.1f}",
            "puzzles_per_min": f"{60 * self.new / seconds:.1f}",
        }

    def save_state(self) -> None:
        if self.side is None:
            return
        appending = None if self.appending is None else self.appending.decode("utf-8")
        state = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "params": self.params,
            "next_index": self.next_index,
            "kept": len(self.kept),
            "reasons": dict(sorted(self.stats.items())),
            "file": {"size": self.size, "sha256": self.digest.hexdigest(), "appending": appending},
            "keys": sorted(self.keys),
        }
        write_atomic(self.side, (json.dumps(state, indent=1) + "\n").encode("utf-8"))


def _error_result(index: int, message: str) -> dict:
    return {**_blank(index), "reason": f"error: {message}"}


def _results(jobs, workers: int, scheduler, security, done):
    """The candidates' results, in candidate order, until ``done()``. An exception or a dead
    worker process loses only its own candidate (reason ``error: ...``; see
    :mod:`taolong_lab.puzzles.runner`)."""
    pairs = ordered_map(
        evaluate, jobs, workers=workers, scheduler=scheduler, security=security, stop=done
    )
    with closing(pairs):
        for job, result in pairs:
            if "error" in result and "index" not in result:
                result = _error_result(job["index"], result["error"])
            yield result


def repair_tail(path, written: dict | None) -> int:
    """Cut away the torn end of the line a crashed run was appending to the ``.jsonl`` file
    ``path``, and nothing else.

    ``written`` is what the run's sidecar recorded (None: nothing): ``size``, the file's size
    after the run's last whole append, ``sha256``, the digest of those bytes, and
    ``appending``, the text it was appending then (or None). The bytes past ``size`` are cut
    only when the first ``size`` bytes still have that digest and the bytes past them are a
    strict beginning of ``appending``. Returns the number of lines cut (0 or 1).
    """
    if not written or written.get("appending") is None:
        return 0
    data = Path(path).read_bytes()
    size, appending = written["size"], written["appending"].encode("utf-8")
    torn = data[size:]
    if not (0 < len(torn) < len(appending) and appending.startswith(torn)):
        return 0
    if hashlib.sha256(data[:size]).hexdigest() != written["sha256"]:
        return 0
    with open(path, "r+b") as handle:
        handle.truncate(size)
        handle.flush()
        os.fsync(handle.fileno())
    return 1


def _resume(out: Path, side: Path, params: dict):
    """The puzzles already in ``out``, the next candidate index, the reasons counted and the
    file's bytes, once the file is checked (a torn append of this run cut away first)."""
    next_index, stats, written = 0, {}, None
    if side.exists():
        saved = _read_state(side, out, params)
        next_index, stats, written = saved["next_index"], saved["reasons"], saved.get("file")
    if not out.exists():
        return [], next_index, stats, b""
    if not out.is_file():
        raise GenerateError(f"{out}: not a regular file")
    if repair_tail(out, written):
        warnings.warn(f"{out}: cut away the torn line this run was appending", stacklevel=4)
        stats["torn line repaired"] = stats.get("torn line repaired", 0) + 1
    puzzles, problems = read_puzzles(out, check_solutions=False)
    if problems:
        line, field, reason = problems[0]
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        where = f"{out}:{line}" if line else f"{out}"
        raise GenerateError(
            f"{where}: {field}: {reason}{more}; the file is left as it is: fix it or write to "
            "another file"
        )
    for puzzle in puzzles:  # a crash after the file was written but before the sidecar
        prov = puzzle.provenance or {}
        index = prov.get("candidate")
        if (
            prov.get("generator") == GENERATOR
            and prov.get("seed") == params["seed"]
            and type(index) is int
            and 0 <= index < INDEX_LIMIT
        ):
            next_index = max(next_index, index + 1)
    return puzzles, next_index, stats, out.read_bytes()


def _read_state(side: Path, out: Path, params: dict) -> dict:
    """The sidecar's contents, checked: a GenerateError if it is not a generator state file
    or was written for other parameters."""
    try:
        if not side.is_file():
            raise ValueError("not a regular file")
        saved = json.loads(side.read_bytes().decode("utf-8"))
        _check_state(saved)
    except (OSError, ValueError, RecursionError) as exc:
        raise GenerateError(f"{side}: not a generator state file ({exc})") from None
    if saved["params"] != params:
        changed = sorted(k for k in params if saved["params"].get(k) != params[k])
        raise GenerateError(
            f"{out} was generated with other parameters ({', '.join(changed)}); "
            "use another --out file or the same parameters"
        )
    return saved


def _check_state(saved) -> None:
    """A ValueError naming the first field of the sidecar ``saved`` that is wrong."""

    def whole(value) -> bool:
        return type(value) is int and 0 <= value < INDEX_LIMIT

    if not isinstance(saved, dict) or saved.get("format") != STATE_FORMAT:
        raise ValueError(f"format: not {STATE_FORMAT!r}")
    if saved.get("version") not in (2, STATE_VERSION):
        raise ValueError(f"version: not 2 or {STATE_VERSION}")
    if not isinstance(saved.get("params"), dict):
        raise ValueError("params: not an object")
    if not whole(saved.get("next_index")):
        raise ValueError(f"next_index: not a whole number below {INDEX_LIMIT}")
    reasons = saved.get("reasons", {})
    if not isinstance(reasons, dict) or not all(whole(n) for n in reasons.values()):
        raise ValueError("reasons: not an object of whole numbers")
    saved["reasons"] = dict(reasons)
    if saved["version"] == 2:
        return  # no record of the bytes written: the file is left whole
    file = saved.get("file")
    if not (
        isinstance(file, dict)
        and whole(file.get("size"))
        and isinstance(file.get("sha256"), str)
        and re.fullmatch(r"[0-9a-f]{64}", file["sha256"])
        and isinstance(file.get("appending"), (str, type(None)))
    ):
        raise ValueError("file: not {size, sha256, appending}")


def _bar(enabled: bool, total: int, initial: int):
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover
        return None
    return tqdm(total=total, initial=initial, desc="puzzles kept", unit="puzzle")


__all__ = [
    "GENERATOR",
    "GENERATOR_VERSION",
    "MAX_STATES",
    "RANDOM_TURNS",
    "SOURCES",
    "SOURCE_NAMES",
    "TIERS",
    "CrossCheckWarning",
    "GenerateError",
    "candidate",
    "count_optimal_lines",
    "cross_check",
    "difficulty",
    "evaluate",
    "generate",
    "greedy_line",
    "greedy_shortfall",
    "line_is_fair",
    "opponent_range",
    "position_key",
    "repair_tail",
    "tier_of",
    "win_in_1_ok",
]
