"""Shared checks for the property and conformance tests (test_properties*.py, test_conformance*.py).

Not a test module: it holds the position checks every test of that kind runs, so that they are
written once.

- :func:`check_invariants`: stones conserved, bodies connected (through portal links), nothing
  overlapping (the other dragon, rocks, the village, portals), meters, ``validate()``, and the
  TLN / JSON / ``repr`` / copy / pickle round trips;
- :func:`check_turns`: ``legal_turns()``, ``successors()``, the notation (``Turn.parse`` and
  ``State.parse_turn``) and ``play()`` agree, no duplicates, a finished game has no turns,
  ``play()`` never mutates;
- :func:`combinations`: every allowed (scenario, mode, edition, village) of the game, read from
  the scenario files (``load_scenario(key).editions`` / ``.village``), not written by hand;
  :func:`solo_combinations` those whose edition has the solo variant (``SOLO_EDITIONS``);
- :func:`playout`: the positions of a seeded random game;
- :func:`solo_start` and :func:`solo_playout`: the same for the solo variant, from a setup drawn
  from a seed (the player's colour, segments, water, Ba Gua), the player choosing at random or
  greedily (the turn that hurts the opponent most).

The checks read the board geometry from the scenario file (size, wrap) and the position's own
layout, not from the engine's tables, so that they are an independent statement of the rules.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import pickle
import random
from dataclasses import dataclass

from taolong_lab import IllegalTurnError, State, Turn, new_game, solo_game
from taolong_lab.rules import EDITIONS, MODES, SOLO_EDITIONS, scenario_names
from taolong_lab.rules.data import COLOURS, game_data
from taolong_lab.rules.scenario import PORTAL_COLOURS, load_scenario

FINISH = 10_000  # "play to the end": longer than any random game seen (about 1,200 turns)
CAP = 4
VECTORS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OBSTACLES = {"#": "a big rock", "o": "a rock", "V": "the village"}


# ---- the combinations ------------------------------------------------------------------------
@dataclass(frozen=True)
class Combo:
    """One allowed way to set up a game: scenario x mode x edition x village."""

    scenario: str
    mode: str
    edition: str
    village: str | None

    def kwargs(self) -> dict:
        """Keyword arguments for ``new_game()``."""
        extra = {} if self.village is None else {"village": self.village}
        return {"scenario": self.scenario, "mode": self.mode, "edition": self.edition, **extra}

    @property
    def id(self) -> str:
        village = "" if self.village is None else f"+village={self.village}"
        return f"{self.scenario}/{self.mode}/{self.edition}{village}"

    def start(self) -> State:
        return new_game(**self.kwargs())


# The earlier edition's box has no village tile and its rulebook no Village variant
# (docs/rules.md §13): the one rule of the combinations that is not in the scenario files.
VILLAGE_EDITIONS = ("current",)


def combinations() -> list[Combo]:
    """Every allowed combination, from the data: the scenario files list their editions and
    whether the Village variant is played there (in the editions that have it); every mode is
    played everywhere."""
    out = []
    for key in scenario_names():
        scenario = load_scenario(key)
        editions = [e for e in EDITIONS if e in scenario.editions]
        for mode, edition in itertools.product(MODES, editions):
            village = scenario.village and edition in VILLAGE_EDITIONS
            for protector in (None, "white", "black") if village else (None,):
                out.append(Combo(key, mode, edition, protector))
    return out


def solo_combinations() -> list[Combo]:
    """The combinations the solo variant is played in: those of an edition whose rulebook has
    it (the earlier one has none)."""
    return [c for c in combinations() if c.edition in SOLO_EDITIONS]


# ---- playouts --------------------------------------------------------------------------------
def playout(edition: str, options: dict, seed: int, depth: int) -> list[State]:
    """Every position of a seeded random game, from the start up to ``depth`` turns or the end.

    ``options`` are passed to ``new_game()`` and may name the scenario and mode too."""
    rng = random.Random(seed)
    state = new_game(edition=edition, **options)
    path = [state]
    while len(path) <= depth and not state.is_over():
        state = state.play(rng.choice(state.legal_turns()))
        path.append(state)
    return path


def combo_playout(combo: Combo, seed: int, depth: int) -> list[State]:
    kwargs = combo.kwargs()
    edition = kwargs.pop("edition")
    return playout(edition, kwargs, seed, depth)


# ---- solo playouts ---------------------------------------------------------------------------
SOLO_LOOKAHEADS = ("matter", "next-turn")


def solo_start(combo: Combo, player: str, seed: int, **options) -> State:
    """A solo start for ``combo`` (``options`` are rule options such as ``solo_lookahead``): the
    player's colour as given; segments (1-3), water (1-4) and the Ba Gua (standard, shuffled or
    random, with its own seed) drawn from ``seed``."""
    rng = random.Random(seed)
    kwargs = combo.kwargs()
    scenario, mode = kwargs.pop("scenario"), kwargs.pop("mode")
    return solo_game(
        scenario,
        mode,
        player=player,
        segments={c: rng.choice((1, 2, 3, 3)) for c in COLOURS},
        water={c: rng.choice((1, 2, 3, 4, 4)) for c in COLOURS},
        bagua=rng.choice(("standard", "shuffled", "random")),
        seed=rng.randrange(2**32),
        **kwargs,
        **options,
    )


def greedy(state: State, turns: list, rng: random.Random):
    """The turn that takes the most life from the opponent, then keeps the most of the
    player's own (ties at random)."""
    me = state.player
    other = COLOURS[1 - COLOURS.index(me)]
    succ = dict(state.successors())
    score = {t: (succ[t].life(other), -succ[t].life(me)) for t in turns}
    best = min(score.values())
    return rng.choice([t for t in turns if score[t] == best])


def solo_playout(start: State, seed: int, depth: int, greed: float = 0.0) -> list[State]:
    """Every position of a seeded solo game from ``start``, up to ``depth`` turns or the end;
    with probability ``greed`` a turn is chosen by :func:`greedy`, else at random."""
    rng = random.Random(seed)
    state, path = start, [start]
    while len(path) <= depth and not state.is_over():
        turns = state.legal_turns()
        turn = greedy(state, turns, rng) if rng.random() < greed else rng.choice(turns)
        state = state.play(turn)
        path.append(state)
    return path


def check_solo_path(path: list[State]) -> None:
    """A solo game: the player never changes and is always to move; one turn a ply."""
    player = path[0].player
    assert player in COLOURS and path[0].rules.solo
    for n, s in enumerate(path):
        assert s.player == s.to_move == player
        assert s.ply == path[0].ply + n
        assert s.rules == path[0].rules


# ---- geometry, from the scenario file --------------------------------------------------------
@dataclass(frozen=True)
class Board:
    width: int
    height: int
    wrap: bool

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def neighbour(self, xy, direction: str):
        (x, y), (dx, dy) = xy, VECTORS[direction]
        x, y = x + dx, y + dy
        if self.wrap:
            x, y = x % self.width, y % self.height
        return (x, y) if 0 <= x < self.width and 0 <= y < self.height else None

    def direction(self, a, b) -> str | None:
        """The direction of the step from ``a`` to ``b``, None if they are not adjacent."""
        return next((d for d in VECTORS if self.neighbour(a, d) == b), None)


@functools.cache
def board_of(scenario: str) -> Board:
    s = load_scenario(scenario)
    return Board(s.width, s.height, s.wrap)


@functools.cache
def start_of(rules) -> State:
    """The start position of the game ``rules`` describes."""
    return new_game(rules.scenario, rules.mode, rules.solo, rules.edition, **dict(rules.options))


def _name(xy) -> str:
    return f"{chr(97 + xy[0])}{xy[1] + 1}"


# ---- the checks ------------------------------------------------------------------------------
def check_invariants(s: State) -> None:
    """Stones, dragons, meters, the board, validate() and the serialisation round trips."""
    data = game_data()
    rules = s.rules
    scenario = load_scenario(rules.scenario)
    board = board_of(rules.scenario)
    # Ba Gua: 8 stones, 4 white and 4 black.
    stones = "".join(s.bagua)
    assert len(s.bagua) == 8
    assert set(stones) <= {"W", "B"}
    assert (stones.count("W"), stones.count("B")) == (4, 4), s.bagua
    # Water and fire: 8 each between the centre and the meters.
    water, fire = s.centre
    dragons = [s.dragon(c) for c in COLOURS]
    assert water >= 0 and fire >= 0
    assert water + sum(d.water for d in dragons) == data.water_stones == 8
    assert fire + sum(d.fire for d in dragons) == data.fire_stones == 8
    # The board: the fixed tiles never change; breakable rocks only lose hits.
    start = start_of(rules)
    assert s.layout == start.layout
    assert len(s.layout) == board.height and all(len(r) == board.width for r in s.layout)
    for cell, hits in s.rocks.items():
        assert scenario.breakable_rocks
        assert 1 <= hits <= start.rocks.get(cell, 0), (cell, hits)
    fixed = {(x, y): sym for y, row in enumerate(s.layout) for x, sym in enumerate(row)}
    portals = {xy for xy, sym in fixed.items() if sym in PORTAL_COLOURS}
    # Bodies: 1-4 cells on the board, connected (orthogonally, around the torus, or through a
    # pair of portals), never overlapping each other, a rock, the village or a portal.
    taken: dict[tuple[int, int], str] = {xy: "a breakable rock" for xy in s.rocks}
    for colour, d in zip(COLOURS, dragons, strict=True):
        cells = s.cells(colour)
        assert cells == [board.xy(c) for c in d.cells]
        assert 1 <= len(cells) <= 4
        for x, y in cells:
            assert 0 <= x < board.width and 0 <= y < board.height
        links = {i: (board.xy(q), board.xy(e)) for i, q, e in d.links}
        assert len(links) == len(d.links), (colour, d.links)
        for i, (a, b) in enumerate(itertools.pairwise(cells)):
            if i in links:
                exit_, entry = links.pop(i)
                assert exit_ in portals and entry in portals and exit_ != entry, (colour, d)
                assert board.direction(exit_, a) and board.direction(entry, b), (colour, d)
                if scenario.portal_rule(fixed[entry]).destination == "twin":
                    assert fixed[exit_] == fixed[entry], (colour, d)
            else:
                assert board.direction(a, b), f"{colour} body broken at {_name(a)}-{_name(b)}"
        assert not links, f"{colour}: a portal link beyond its tail {d.links}"
        tiles = cells + [p for _, q, e in d.links for p in (board.xy(q), board.xy(e))]
        assert len(set(tiles)) == len(tiles), (colour, tiles)
        for xy in tiles:
            assert xy not in taken, f"{colour} on {_name(xy)}, which holds {taken[xy]}"
            taken[xy] = f"the {colour} dragon"
        for xy in cells:
            assert fixed[xy] == ".", f"{colour} on {_name(xy)}, a {fixed[xy]!r} tile"
        # Meters and facing.
        assert 0 <= d.water <= CAP and 0 <= d.fire <= CAP
        if d.alive:
            assert d.water >= 1
            # the neck, or the exit portal when the head has just come out of one
            neck = next((board.xy(q) for i, q, _ in d.links if i == 0), cells[1])
            assert s.facing(colour) == board.direction(neck, cells[0]), (colour, d)
        else:
            assert d.water == 0 and len(cells) == 1 and not d.links
    # The flux coin: Master and Chosen One only.
    stacks = s.to_tln().split()[4]
    if rules.mode in ("master", "chosen-one"):
        assert s.flux in ("ccw", "cw") and stacks.endswith("@" + s.flux)
    else:
        assert "@" not in stacks
    # Outcome.
    assert s.is_over() == (s.outcome() is not None)
    assert sum(d.alive for d in dragons) >= 1
    if s.is_over():
        assert s.outcome().winner == COLOURS[[d.alive for d in dragons].index(True)]
    s.validate()
    assert s.problems() == []
    check_round_trips(s)


def check_round_trips(s: State) -> None:
    """TLN, JSON, repr, copy and pickle give back an equal position."""
    tln = s.to_tln()
    back = State.from_tln(tln)
    assert back == s and back.to_tln() == tln and back.ply == s.ply
    assert State(tln) == s
    # JSON, as a dict and through json.dumps.
    doc = s.to_json()
    assert State.from_json(doc) == s
    text = json.dumps(doc)
    assert State.from_json(text) == s
    assert State.from_json(json.loads(text)).to_tln() == tln
    # repr.
    assert eval(repr(s), {"State": State}) == s
    # copy and pickle.
    pickled = pickle.loads(pickle.dumps(s))
    assert pickled == s and pickled.to_tln() == tln and pickled.ply == s.ply
    assert copy.copy(s) == s and copy.deepcopy(s) == s
    # Hash and key agree with equality across copies.
    for twin in (back, State.from_json(text), pickled):
        assert hash(twin) == hash(s)
        assert twin.key() == s.key()


def check_turns(s: State) -> None:
    """legal_turns / successors / notation / play agree; play() does not mutate."""
    tln, key, h = s.to_tln(), s.key(), hash(s)
    turns = s.legal_turns()
    succ = s.successors()
    assert [t for t, _ in succ] == turns
    assert len(set(turns)) == len(turns), "duplicate legal turns"
    notations = [str(t) for t in turns]
    assert len(set(notations)) == len(notations), "two legal turns share a notation"
    # Stable order: computed again from a fresh state (no cache shared).
    assert [str(t) for t in State(tln).legal_turns()] == notations
    if s.is_over():
        assert turns == []
        assert succ == []
        return
    assert turns, "a game in progress always has a legal turn (a penalty at worst)"
    for turn, after in succ:
        text = str(turn)
        assert Turn.parse(text) == turn, text
        assert s.parse_turn(text) == turn, text
        assert s.parse_turn(turn) == turn, text
        played = s.play(turn)
        assert played == after
        assert s.play(text) == after
        assert played.ply == s.ply + 1
        assert played.rules == s.rules
        if s.rules.solo:  # always the player's turn; no extra phases (A11, A31)
            assert played.to_move == s.to_move == played.player == s.player
            assert len(turn.phases) == 1
            _check_without_group(s, turn, after)
        else:
            assert played.to_move != s.to_move
            assert played.player is None
            assert 1 <= len(turn.phases) <= 2
    assert (s.to_tln(), s.key(), hash(s)) == (tln, key, h), "play() mutated the position"


def _check_without_group(s: State, turn: Turn, after: State) -> None:
    """Solo: the turn written without the opponent's group plays to the same position, or is
    refused as ambiguous when the group was a tie left to the player."""
    phase = turn.phases[0]
    if phase.opponent is None:
        return
    bare = Turn((phase._replace(opponent=None),))
    outcomes = {a for t, a in s.successors() if t.matches(bare)}
    assert after in outcomes
    if len(outcomes) == 1:
        assert s.play(bare) == after
    else:
        try:
            s.play(bare)
        except IllegalTurnError as err:
            assert "ambiguous" in err.reason
        else:
            raise AssertionError(f"{bare} leaves a tie open but was accepted")
