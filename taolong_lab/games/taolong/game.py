"""Tao Long behind the game protocol: a thin view of :class:`taolong_lab.State`.

Tao Long is a game of perfect information without chance. The two-player game has two players,
white (0) and black (1); the solo variant has one, the player's dragon (its turns carry the
solo opponent's actions). The actions are the engine's own :class:`~taolong_lab.Turn` values,
the position string is TLN, and the pictures are the engine's: nothing is copied, and a
:class:`TaoLongState` holds one reference to the engine's position.

Its heuristic is :func:`~.evaluation.evaluate` (white's score, black's its negation; in the solo
variant, the player's side), with the search hints of a bite or a breath that hits. A record
names both colours, in the solo variant too (the solo opponent plays the other), and a game's
result is the engine's (:meth:`~taolong_lab.State.outcome`).

>>> start = TAOLONG.new(scenario="torus", mode="monk")
>>> start.to_string() == start.state.to_tln(), start.state.rules.token()
(True, 'torus/monk/current')
>>> solo = TAOLONG.new(solo=True, player="black")
>>> solo.players, solo.player_names(), solo.current_player()
(1, ('black',), 0)
"""

from __future__ import annotations

import functools

from ...engine import Line, State, solo_start, start_state
from ...engine.setup import BAGUA_SETUPS
from ...errors import TaoLongError
from ...limits import MAX_SEED
from ...rules import COLOURS, EDITIONS, MODES, OPTIONS, Rules, scenario_names
from ..protocol import TERMINAL, Game, GameError, GameOption, GameState
from ..trajectory import Trajectory
from .evaluation import Weights, evaluate, features

SOLO_SETUP = ("player", "segments", "water", "bagua", "seed")
SOLO_OPPONENT = "solo opponent"
"""Who plays the other colour of the solo variant, as a record names it."""


class TaoLongGame(Game):
    """Tao Long: two players, or one in the solo variant. Its options are the rules' (scenario,
    mode, edition, solo and the named options of docs/rules.md) and the solo set-up."""

    name = "taolong"
    title = "Tao Long"
    players = (2, 1)

    @functools.cached_property
    def options(self) -> tuple[GameOption, ...]:
        rules = [
            GameOption("scenario", "field", "the scenario (board and start)", scenario_names()),
            GameOption("mode", "grasshopper", "the mode of play", MODES),
            GameOption("edition", "current", "the rulebook's edition", EDITIONS),
            GameOption("solo", False, "the solo variant: one player", (False, True)),
        ]
        rules += [GameOption(o.name, o.default, o.doc, o.choices) for o in OPTIONS.values()]
        solo = [
            GameOption("player", "white", "solo: the player's colour", COLOURS),
            GameOption("segments", 3, "solo: each dragon's segments", (1, 2, 3)),
            GameOption("water", 4, "solo: each dragon's water", (1, 2, 3, 4)),
            GameOption("bagua", "standard", "solo: the Ba Gua set-up", BAGUA_SETUPS),
            GameOption("seed", None, "solo: the Ba Gua deal's seed", low=0, high=MAX_SEED),
        ]
        return tuple(rules + solo)

    def start(self, settings: dict) -> TaoLongState:
        named = {name: settings[name] for name in OPTIONS}
        rules = Rules.make(
            settings["scenario"], settings["mode"], settings["solo"], settings["edition"], **named
        )
        if not rules.solo:
            defaults = {o.name: o.default for o in self.options}
            for name in SOLO_SETUP:
                if settings[name] != defaults[name]:
                    raise GameError(f"option {name!r} only applies to the solo variant")
            return TaoLongState(start_state(rules))
        setup = [settings[name] for name in SOLO_SETUP]
        return TaoLongState(solo_start(rules, *setup))

    def from_string(self, text: str) -> TaoLongState:
        if not isinstance(text, str):
            raise GameError(f"a Tao Long position is a TLN string, not {type(text).__name__}")
        return TaoLongState(State.from_tln(text))

    def variants(self) -> list[dict]:
        """Every scenario × mode × edition of the two-player game (see :func:`two_player_rules`)."""
        return [
            {"scenario": r.scenario, "mode": r.mode, "edition": r.edition}
            for r in two_player_rules()
        ]

    heuristic_scale = 40.0

    def heuristic(self, state: TaoLongState, weights: Weights | None = None) -> tuple[float, ...]:
        """:func:`~.evaluation.evaluate` with ``weights`` (default: ``data/evaluation.toml``):
        white's score and its negation for black; in the solo variant, the player's side.

        >>> TAOLONG.heuristic(TAOLONG.new()) == (0.0, 0.0)
        True
        """
        white = evaluate(state.state, weights)
        if state.players == 1:
            return (white if state.state.mover == 0 else -white,)
        return (white, -white)

    def tactics(self, state: TaoLongState, after: TaoLongState) -> float:
        """The life the action takes from the other dragon, less what it costs the mover's."""
        mover, other = _colours(state)
        return after.state.life(mover) - after.state.life(other)

    def pending(self, state: TaoLongState) -> bool:
        """The side to move threatens damage now (the evaluation's initiative)."""
        return features(state.state)["initiative"][state.state.mover] != 0

    def noisy(self, state: TaoLongState, after: TaoLongState) -> bool:
        """The action damages the other dragon (a bite, or a breath that hits)."""
        _, prey = _colours(state)
        return after.state.life(prey) < state.state.life(prey)


def _colours(state: TaoLongState) -> tuple[str, str]:
    """The colour to move and the other one."""
    mover = state.state.mover
    return COLOURS[mover], COLOURS[1 - mover]


def two_player_rules(scenarios=None, modes=None, editions=None) -> list[Rules]:
    """Every two-player rules of the given scenarios × modes × editions (default all), the
    earlier edition only where its components build the scenario.

    >>> len(two_player_rules(["field"], ["monk"]))
    2
    """
    found = []
    for scenario in scenarios or scenario_names():
        for mode in modes or MODES:
            for edition in editions or EDITIONS:
                try:
                    found.append(Rules.make(scenario, mode, False, edition))
                except TaoLongError:
                    continue  # that edition's components do not build the scenario
    return found


TAOLONG = TaoLongGame()


class TaoLongState(GameState):
    """A Tao Long position behind the protocol; ``state`` is the engine's position."""

    __slots__ = ("state",)

    def __init__(self, state: State):
        if not isinstance(state, State):
            raise GameError(f"a Tao Long position is a State, not {type(state).__name__}")
        object.__setattr__(self, "state", state)

    def __setattr__(self, name, value):
        raise AttributeError("a game state is immutable; apply() returns a new one")

    def __reduce__(self):
        return (TaoLongState, (self.state,))

    @property
    def game(self) -> TaoLongGame:
        return TAOLONG

    @property
    def players(self) -> int:
        return 1 if self.state.rules.solo else 2

    def current_player(self) -> int:
        if self.state.is_over():
            return TERMINAL
        return 0 if self.state.rules.solo else self.state.mover

    def legal_actions(self) -> list:
        return self.state.legal_turns()

    def apply(self, action) -> TaoLongState:
        return TaoLongState(self.state.play(action))

    def successors(self) -> list:
        return [(turn, TaoLongState(after)) for turn, after in self.state.iter_successors()]

    def parse_action(self, text):
        return self.state.parse_turn(text)

    def is_terminal(self) -> bool:
        return self.state.is_over()

    def is_chance(self) -> bool:
        return False

    def returns(self) -> tuple[float, ...]:
        result = self.state.outcome()
        if result is None:
            raise GameError("no returns: the game is not over")
        if self.state.rules.solo:
            return (1.0 if result.winner == self.state.player else -1.0,)
        return (1.0, -1.0) if result.winner == COLOURS[0] else (-1.0, 1.0)

    def player_names(self) -> tuple[str, ...]:
        return (self.state.player,) if self.state.rules.solo else COLOURS

    def sides(self) -> tuple[str, ...]:
        """Both colours, in the solo variant too (the solo opponent plays the other)."""
        return COLOURS

    def side_of(self, player: int) -> int:
        return self.state.mover if self.state.rules.solo else player

    def side_to_move(self) -> int:
        """The colour to move (the next one, once the game is over)."""
        return self.state.mover

    def side_players(self, names) -> tuple[str, ...]:
        if not self.state.rules.solo:
            return tuple(names)
        return tuple(names[0] if c == self.state.player else SOLO_OPPONENT for c in COLOURS)

    def outcome_text(self) -> str:
        return str(self.state.outcome())

    def result(self) -> tuple[str | None, str]:
        found = self.state.outcome()
        if found is None:
            raise GameError("no result: the game is not over")
        return found.winner, found.reason

    def describe_action(self, action) -> str:
        return self.state.describe_turn(action)

    def to_string(self) -> str:
        return self.state.to_tln()

    def key(self):
        return self.state.key()

    def problems(self) -> list[str]:
        return self.state.problems()

    def text(self) -> str:
        return str(self.state)

    def svg(self) -> str:
        return self.state._repr_svg_()

    def __eq__(self, other) -> bool:
        if not isinstance(other, TaoLongState):
            return NotImplemented
        return self.state == other.state

    def __hash__(self) -> int:
        return hash(self.state)


def as_line(played: Trajectory) -> Line:
    """A Tao Long trajectory as the engine's :class:`~taolong_lab.Line` (the solvers', the
    puzzles', the pictures' and the Explorer's sequence of turns).

    Parameters
    ----------
    played : Trajectory
        A trajectory from a :class:`TaoLongState`.

    Returns
    -------
    Line
        The same start and turns.

    Raises
    ------
    GameError
        A trajectory of another game.

    >>> start = TAOLONG.new()
    >>> as_line(Trajectory(start, ["Wa>He a3,a4"])).end.to_move
    'black'
    """
    if not isinstance(played, Trajectory) or not isinstance(played.start, TaoLongState):
        raise GameError("only a trajectory of Tao Long is a Line")
    return Line(played.start.state, played.actions)


__all__ = [
    "SOLO_OPPONENT",
    "TAOLONG",
    "TaoLongGame",
    "TaoLongState",
    "as_line",
    "two_player_rules",
]
