"""The puzzle generator: random solo positions, proved, checked, graded and kept.

:func:`generate` draws candidate positions, solves each with the explicit solver and keeps the
ones that make good puzzles. Everything about one candidate is derived from ``(seed, index)``
alone, so the same seed gives the same puzzles whatever the number of workers.

The candidate source (``random-solo/v1``)
-----------------------------------------
Candidate ``index`` of run ``seed`` uses ``random.Random(f"taolong-generate/{seed}/{index}")``
(a string seed: the same on every machine and Python run). From it, in this order: the scenario
(one of ``scenarios``), the mode (one of ``modes``), the player (white or black), the opponent's
segments (1-2) and water (1-2), the Ba Gua seed, then ``solo_game(scenario, mode, player=,
segments={opp: ..}, water={opp: ..}, bagua="random", seed=..)`` (both dragons on their
scenario's start cells, so placed legally) and 0 to :data:`RANDOM_TURNS` random turns (each
chosen uniformly among the legal turns that do not end the game).

What is checked before a candidate is kept
------------------------------------------
1. not already kept (de-duplicated by canonical position: the start's TLN without its turn
   counter, so the rules are part of it);
2. the start's lower bound is at most ``turns[1]``;
3. the explicit solver proves the optimum (within ``time_limit`` and :data:`MAX_STATES`
   positions), and ``turns[0] <= optimum <= turns[1]``;
4. **fairness**: replaying the stored line, no turn loses and the last one wins;
5. **non-triviality**: the greedy player (:func:`greedy_line`: always the turn that deals the
   most damage now, i.e. takes the most of the opponent's life, ties by engine order) does not
   win within the optimum. A winning turn takes all the opponent's life, so greedy always finds
   a win in 1: no win-in-1 candidate passes this check.

The difficulty grade
--------------------
``score = optimum + log2(branching / optimal_first_turns) / 2 + log10(1 + expanded) / 4``,
rounded to 2 places: the optimum dominates; the second term grows as the right first turns
get rarer among the start's legal turns (``branching``); the third measures the solver's effort
(positions expanded, deterministic). ``grade``: ``novice`` below 3, ``intermediate`` below 4.5,
``advanced`` below 6, ``expert`` from 6.

Crash safety and resuming
-------------------------
With ``out`` (a ``.jsonl`` file), the file is rewritten atomically (:func:`save_puzzles`) each
time a puzzle is kept, and the sidecar ``out + ".state.json"`` records (atomically) the next
candidate index, the run's parameters and the kept positions. A rerun with the same ``out`` and
parameters starts at that index; positions already in the file are never kept twice (the
de-duplication keys are rebuilt from the file itself, so a crash between the two writes costs
nothing). ``count`` is the number of puzzles wanted in the file in all.
"""

from __future__ import annotations

import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..engine import State
from ..errors import TaoLongError
from ..solvers.common import write_atomic
from .format import Puzzle, load_puzzles, save_puzzles

GENERATOR = "taolong_lab.puzzles.generate"
GENERATOR_VERSION = "1"
SOURCE = "random-solo/v1"
STATE_FORMAT = "taolong-generate-state"
RANDOM_TURNS = 4
MAX_STATES = 20000  # a deterministic budget per candidate, besides the time limit
MAX_CANDIDATES_PER_PUZZLE = 500
GRADES = ((3.0, "novice"), (4.5, "intermediate"), (6.0, "advanced"), (math.inf, "expert"))


class GenerateError(TaoLongError):
    """Bad input to :func:`generate`, or an ``out`` file that belongs to another run."""


# ---- one candidate --------------------------------------------------------------------------
def candidate(seed: int, index: int, scenarios, modes) -> tuple[State, dict]:
    """Candidate ``index`` of run ``seed``: the start position and how it was drawn."""
    from .. import solo_game

    rng = random.Random(f"taolong-generate/{seed}/{index}")
    scenario = scenarios[rng.randrange(len(scenarios))]
    mode = modes[rng.randrange(len(modes))]
    player = ("white", "black")[rng.randrange(2)]
    opponent = "black" if player == "white" else "white"
    segments, water = rng.randint(1, 2), rng.randint(1, 2)
    bagua_seed = rng.randrange(2**32)
    random_turns = rng.randint(0, RANDOM_TURNS)
    state = solo_game(
        scenario,
        mode,
        player=player,
        segments={opponent: segments},
        water={opponent: water},
        bagua="random",
        seed=bagua_seed,
    )
    played = 0
    for _ in range(random_turns):
        going_on = [after for _, after in state.successors() if not after.is_over()]
        if not going_on:
            break
        state = going_on[rng.randrange(len(going_on))]
        played += 1
    drawn = {
        "source": SOURCE,
        "scenario": scenario,
        "mode": mode,
        "opponent_segments": segments,
        "opponent_water": water,
        "bagua_seed": bagua_seed,
        "random_turns": played,
    }
    return state, drawn


def position_key(state) -> str:
    """The canonical position: the TLN without its turn counter (rules included)."""
    return " ".join(state.to_tln().split()[:-1])


def greedy_line(state, turns: int) -> tuple[list[str], bool]:
    """The greedy player's first ``turns`` turns (fewer if the game ends): always the turn
    that takes the most of the opponent's life now, ties by engine order. Returns the turns
    played (notation) and whether the player won."""
    player = state.to_move
    opponent = "black" if player == "white" else "white"
    line = []
    for _ in range(turns):
        if state.is_over():
            break
        life = state.life(opponent)
        best = None
        for turn, after in state.successors():
            damage = life - after.life(opponent)
            if best is None or damage > best[0]:
                best = (damage, turn, after)
        if best is None:
            break
        line.append(str(best[1]))
        state = best[2]
    result = state.outcome()
    return line, result is not None and result.winner == player


def wins_within(state, turns: int, max_states: int | None = None) -> bool | None:
    """Whether the player can win within ``turns`` turns (the explicit solver's exact
    :func:`~taolong_lab.solvers.explicit.win_within`); None when ``max_states`` expansions did
    not settle it."""
    from ..solvers.common import Budget
    from ..solvers.explicit import OutOfBudget, bound_params, win_within

    try:
        return win_within(state, turns, bound_params(state), Budget(None, max_states))
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


def difficulty(optimum: int, optimal_first_turns: int, branching: int, expanded: int) -> dict:
    """The documented grade (see the module docstring) and the features it is made of."""
    rarity = math.log2(max(branching, 1) / max(optimal_first_turns, 1)) / 2
    score = round(optimum + rarity + math.log10(1 + expanded) / 4, 2)
    grade = next(name for limit, name in GRADES if score < limit)
    return {
        "grade": grade,
        "score": score,
        "formula": "optimum + log2(branching/optimal_first_turns)/2 + log10(1+expanded)/4",
        "optimum": optimum,
        "optimal_first_turns": optimal_first_turns,
        "branching": branching,
        "expanded": expanded,
    }


def evaluate(job: dict) -> dict:
    """Decide one candidate (runs in a worker). Never raises: an exception is a rejection
    with reason ``error: ...``. Returns ``{"index", "key", "kept", "reason", "puzzle"}``."""
    index = job["index"]
    out = {"index": index, "key": None, "kept": False, "reason": None, "puzzle": None}
    try:
        _evaluate(job, out)
    except Exception as exc:  # a worker exception loses only this candidate
        out["kept"], out["puzzle"] = False, None
        out["reason"] = f"error: {type(exc).__name__}: {exc}"
    return out


def _evaluate(job: dict, out: dict) -> None:
    from .. import __version__
    from ..solvers import solve
    from ..solvers.explicit import lower_bound

    seed, index = job["seed"], job["index"]
    low, high = job["turns"]
    state, drawn = candidate(seed, index, job["scenarios"], job["modes"])
    out["key"] = position_key(state)
    if out["key"] in job.get("skip", ()):
        out["reason"] = "duplicate"
        return
    if state.is_over():
        out["reason"] = "over"
        return
    if lower_bound(state) > high:
        out["reason"] = "lower bound above the turns"
        return
    within = wins_within(state, high, job["max_states"])
    if not within:
        out["reason"] = "too long" if within is False else "unknown (budget)"
        return
    solution = solve(
        state,
        method="explicit",
        time_limit=job["time_limit"],
        max_states=job["max_states"],
        progress=False,
    )
    if solution.status != "optimal":
        beyond = solution.status == "no-win" or solution.proved_no_win_below > high
        out["reason"] = "too long" if beyond else "unknown (budget)"
        return
    optimum = solution.optimum
    if not low <= optimum <= high:
        out["reason"] = "too long" if optimum > high else "too short"
        return
    if solution.optimal_first_turns is None:
        out["reason"] = "unknown (budget while counting first turns)"
        return
    if not line_is_fair(state, solution.line):
        out["reason"] = "unfair"
        return
    greedy, greedy_won = greedy_line(state, optimum)
    if greedy_won:
        out["reason"] = "trivial (greedy wins)"
        return
    branching = len(state.successors())
    grade = difficulty(optimum, solution.optimal_first_turns, branching, solution.stats["expanded"])
    grade["greedy_wins_within_optimum"] = False
    certificate = dict(solution.certificate)
    certificate["optimal_first_turns"] = solution.optimal_first_turns
    certificate["fair"] = True
    certificate["greedy_line"] = greedy
    rules = state.rules
    puzzle = Puzzle.from_state(
        f"gen-{seed}-{index}",
        f"{rules.scenario} ({rules.mode}), {state.to_move} to win in {optimum}",
        state,
        optimum=optimum,
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
    out["kept"], out["reason"], out["puzzle"] = True, "kept", puzzle.to_json()


# ---- the run --------------------------------------------------------------------------------
def _check(count, scenarios, modes, turns, seed, workers, time_limit, out):
    from ..rules import MODES, scenario_names

    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise GenerateError(f"count must be a whole number >= 0, got {count!r}")
    scenarios = tuple(scenario_names()) if scenarios == "all" else tuple(scenarios)
    modes = tuple(MODES) if modes == "all" else tuple(modes)
    if not scenarios:
        raise GenerateError("scenarios: give at least one")
    if not modes:
        raise GenerateError("modes: give at least one")
    for name in scenarios:
        if name not in scenario_names():
            known = ", ".join(scenario_names())
            raise GenerateError(f"scenario: unknown {name!r}; available: {known}, or all")
    for name in modes:
        if name not in MODES:
            raise GenerateError(f"mode: unknown {name!r}; choose from {', '.join(MODES)}, or all")
    try:
        low, high = (int(t) for t in turns)
    except (TypeError, ValueError):
        raise GenerateError(f"turns must be (min, max), got {turns!r}") from None
    if not 1 <= low <= high:
        raise GenerateError(f"turns must satisfy 1 <= min <= max, got {low}..{high}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise GenerateError(f"seed must be a whole number, got {seed!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise GenerateError(f"workers must be a whole number >= 1, got {workers!r}")
    if time_limit is not None and not time_limit > 0:
        raise GenerateError(f"time_limit must be > 0 seconds, got {time_limit!r}")
    if out is not None and Path(out).suffix.lower() != ".jsonl":
        raise GenerateError(f"out: {out} must be a .jsonl file")
    return scenarios, modes, (low, high)


def generate(
    count: int,
    *,
    scenarios=("field",),
    modes=("grasshopper",),
    turns=(1, 4),
    seed: int = 0,
    workers: int = 1,
    out=None,
    time_limit: float | None = 10.0,
    progress: bool = True,
    max_states: int | None = MAX_STATES,
    max_candidates: int | None = None,
) -> list[Puzzle]:
    """Generate puzzles until ``count`` are kept (with ``out``: until the file holds
    ``count``), and return them all in candidate order. See the module docstring for the
    source, the checks, the grade and resuming. ``scenarios`` and ``modes`` are lists of names
    or ``"all"``; ``turns`` the least and most optimum kept. ``max_candidates`` (default
    ``500 * count``) caps the candidates tried in this call."""
    scenarios, modes, turns = _check(count, scenarios, modes, turns, seed, workers, time_limit, out)
    params = {
        "generator_version": GENERATOR_VERSION,
        "source": SOURCE,
        "seed": seed,
        "scenarios": list(scenarios),
        "modes": list(modes),
        "turns": list(turns),
        "max_states": max_states,
    }
    kept: list[Puzzle] = []
    next_index = 0
    stats: dict[str, int] = {}
    side = None
    if out is not None:
        out = Path(out)
        side = Path(str(out) + ".state.json")
        kept, next_index, stats = _resume(out, side, params)
    keys = {position_key(p.start) for p in kept}
    if max_candidates is None:
        max_candidates = MAX_CANDIDATES_PER_PUZZLE * max(count, 1)
    stop = next_index + max_candidates
    bar = _bar(progress, count, len(kept))
    tried, t0, last_save = 0, time.perf_counter(), time.perf_counter()

    def job(index):
        return {
            "seed": seed,
            "index": index,
            "scenarios": scenarios,
            "modes": modes,
            "turns": turns,
            "time_limit": time_limit,
            "max_states": max_states,
            "skip": frozenset(keys),
        }

    def save_state():
        if side is not None:
            state = {
                "format": STATE_FORMAT,
                "version": 1,
                "params": params,
                "next_index": next_index,
                "kept": len(kept),
                "reasons": dict(sorted(stats.items())),
                "keys": sorted(keys),
            }
            write_atomic(side, (json.dumps(state, indent=1) + "\n").encode("utf-8"))

    try:
        for result in _results(job, next_index, stop, workers, lambda: len(kept) >= count):
            reason = result["reason"]
            if result["kept"] and result["key"] in keys:
                reason = "duplicate"
            if reason == "kept":
                kept.append(Puzzle.from_json(result["puzzle"], check_solutions=False))
                keys.add(result["key"])
            stats[reason] = stats.get(reason, 0) + 1
            next_index, tried = result["index"] + 1, tried + 1
            if out is not None and reason == "kept":
                save_puzzles(out, kept)
            now = time.perf_counter()
            if reason == "kept" or now - last_save > 2.0:
                save_state()
                last_save = now
            if bar is not None:
                if reason == "kept":
                    bar.update(1)
                rate = tried / max(now - t0, 1e-9)
                bar.set_postfix(tried=tried, per_s=f"{rate:.1f}", refresh=False)
            if len(kept) >= count:
                break
    finally:
        save_state()
        if bar is not None:
            bar.close()
    return kept


def _results(job, start: int, stop: int, workers: int, done):
    """The candidates' results from ``start`` on, in candidate order."""
    if workers == 1:
        for index in range(start, stop):
            if done():
                return
            yield evaluate(job(index))
        return
    ahead = 4 * workers
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = {}
        index = start
        try:
            while True:
                while index < stop and len(pending) < ahead:
                    pending[index] = pool.submit(evaluate, job(index))
                    index += 1
                if not pending:
                    return
                first = min(pending)
                future = pending.pop(first)
                try:
                    result = future.result()
                except Exception as exc:  # the worker process itself failed
                    result = {
                        "index": first,
                        "key": None,
                        "kept": False,
                        "reason": f"error: {type(exc).__name__}: {exc}",
                        "puzzle": None,
                    }
                yield result
                if done():
                    return
        finally:
            for future in pending.values():
                future.cancel()


def _resume(out: Path, side: Path, params: dict):
    """The puzzles already in ``out``, the next candidate index and the reasons counted."""
    kept = load_puzzles(out, check_solutions=False) if out.exists() else []
    next_index, stats = 0, {}
    if side.exists():
        try:
            saved = json.loads(side.read_text(encoding="utf-8"))
            saved_params, next_index = saved["params"], int(saved["next_index"])
            stats = dict(saved.get("reasons", {}))
        except (ValueError, KeyError, TypeError) as exc:
            raise GenerateError(f"{side}: not a generator state file ({exc})") from None
        if saved_params != params:
            changed = sorted(k for k in params if saved_params.get(k) != params[k])
            raise GenerateError(
                f"{out} was generated with other parameters ({', '.join(changed)}); "
                "use another --out file or the same parameters"
            )
    for puzzle in kept:  # a crash after the file was written but before the sidecar
        prov = puzzle.provenance or {}
        if prov.get("generator") == GENERATOR and prov.get("seed") == params["seed"]:
            next_index = max(next_index, int(prov.get("candidate", -1)) + 1)
    return kept, next_index, stats


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
    "SOURCE",
    "GenerateError",
    "candidate",
    "difficulty",
    "evaluate",
    "generate",
    "greedy_line",
    "line_is_fair",
    "position_key",
]
