"""Where the generator's candidate positions come from (:func:`candidate`).

Candidate ``index`` of run ``seed`` uses ``random.Random(f"taolong-generate/{seed}/{index}")``,
so it depends on ``(seed, index)`` alone, whatever the number of workers. It draws, in this
order: the source (one of ``sources``), the scenario, the mode, the player, the Village (with
probability :data:`VILLAGE_CHANCE` where the scenario allows it, the opponent protecting it:
the village is then part of the dragon the player attacks and hurts the player, R11), then:

- ``random-solo/v2`` (``"random"``): the opponent's segments and water, the Ba Gua seed, a
  solo start (:func:`~taolong_lab.engine.setup.solo_start`: both dragons on their start
  cells, so placed legally, the player's dragon whole) and 0 to :data:`RANDOM_TURNS` random
  turns among those that do not end the game. The opponent's size grows with the turns asked
  for (:func:`opponent_range`).
- ``played-game/v1`` (``"played"``): the rulebook setup (both dragons whole) with a random Ba
  Gua, played by a seeded epsilon-greedy player (with probability ``epsilon``, drawn, a random
  turn that does not end the game; otherwise the damage-greedy turn of
  :func:`~.analysis.greedy_turn`) for at most :data:`PLAYED_TURNS` turns. Of the positions
  along the game whose lower bound is within ``turns`` (all of them if none), one is picked,
  biased to later ones (the latest of three uniform draws) when the maximum is at most 4,
  else uniformly.
- ``backward/v1`` (``"backward"``): a ``random-solo/v2`` position is the seed; the state graph
  is explored forward from it (:func:`~taolong_lab.solvers.graph.explore`, depth ``turns[1]``,
  at most :data:`BACKWARD_STATES` positions); a breadth-first search over the predecessors of
  the won positions (:func:`~taolong_lab.solvers.graph.retrograde`) gives each node its
  distance to a win in the explored graph, an upper bound on its optimum; a node at the largest
  distance within ``turns`` is picked (the seed itself when none is).
- ``deep-solo/v1`` (``"deep"``, only when named): a solo start with both dragons whole and a
  random Ba Gua, then at most one random turn that does not end the game: the deep tier's
  candidates, whose optima are mostly 7 to 11 where the board is large (The Field, The Gorge,
  The Maze, The Valley, The Wall).
- ``proved-line/v1`` (``"line"``, only when named: ``"all"`` means the three above): a
  position along the proved optimal line of a challenge of ``puzzles/rulebook-solo.jsonl``
  whose remaining optimum lies within ``turns`` (drawn among the requested scenarios and
  modes; a ``random-solo/v2`` position when none fits). Used for the deep tier.
"""

from __future__ import annotations

import random

from ..engine import State, solo_start
from ..rules import Rules
from ..rules.scenario import load_scenario
from ..solvers.bounds import lower_bound
from ..solvers.graph import explore, retrograde
from .analysis import greedy_turn, opponent_of
from .format import load_puzzles
from .rulebook import SHIPPED

SOURCES = ("random", "played", "backward")  # what "all" means
SOURCE_NAMES = {
    "random": "random-solo/v2",
    "played": "played-game/v1",
    "backward": "backward/v1",
    "line": "proved-line/v1",
    "deep": "deep-solo/v1",
}
RANDOM_TURNS = 4  # random turns played from a random-solo start, at most
PLAYED_TURNS = 40  # turns of a played game, at most
BACKWARD_STATES = 1500  # positions a backward source explores, at most
VILLAGE_CHANCE = 1 / 3


def opponent_range(turns) -> tuple[tuple[int, int], tuple[int, int]]:
    """The opponent's segments and water ranges drawn by ``random-solo/v2`` for ``turns``
    (``(min, max)``): small dragons for short puzzles, up to whole ones for deep tiers.
    Segments 1-2 and water 1-2 up to a maximum of 3; up to 3 water for a maximum of 4;
    beyond, segments up to 3 (at least 2 when the minimum is 5 or more) and water up to 4.

    >>> opponent_range((1, 3)), opponent_range((5, 7))
    (((1, 2), (1, 2)), ((2, 3), (1, 4)))
    """
    low, high = turns
    if high <= 3:
        return (1, 2), (1, 2)
    if high == 4:
        return (1, 2), (1, 3)
    return (2 if low >= 5 else 1, 3), (1, 4)


def _draw_common(rng: random.Random, scenarios, modes) -> dict:
    scenario = scenarios[rng.randrange(len(scenarios))]
    mode = modes[rng.randrange(len(modes))]
    player = ("white", "black")[rng.randrange(2)]
    village = None
    if load_scenario(scenario).village and rng.random() < VILLAGE_CHANCE:
        village = opponent_of(player)
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
    opponent = opponent_of(drawn["player"])
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


def _deep_solo(rng: random.Random, drawn: dict, turns) -> State:
    state = _solo(drawn, rng)
    going_on = [after for _, after in state.successors() if not after.is_over()]
    drawn["random_turns"] = played = rng.randint(0, 1) if going_on else 0
    return going_on[rng.randrange(len(going_on))] if played else state


def _played_game(rng: random.Random, drawn: dict, turns) -> State:
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
            state = greedy_turn(state, successors)[1]
    eligible = [i for i, s in enumerate(positions) if lower_bound(s) <= turns[1]]
    eligible = eligible or list(range(len(positions)))
    draws = 3 if turns[1] <= 4 else 1
    pick = eligible[max(rng.randrange(len(eligible)) for _ in range(draws))]
    drawn["game_turns"], drawn["picked_turn"] = len(positions), pick
    return positions[pick]


def _backward(rng: random.Random, drawn: dict, turns) -> State:
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
    "deep": _deep_solo,
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


__all__ = [
    "BACKWARD_STATES",
    "PLAYED_TURNS",
    "RANDOM_TURNS",
    "SOURCES",
    "SOURCE_NAMES",
    "VILLAGE_CHANCE",
    "candidate",
    "opponent_range",
    "position_key",
]
