"""The conformance suite every game of the protocol passes (not a test module: the checks,
written once; tests/games/test_game_conformance.py runs them on every game).

- :func:`playouts`: the positions of seeded random games, within a budget of games and actions,
  for each option set the suite plays (:func:`option_sets`);
- :func:`check_position`: the invariants the game declares (``problems()``), whose turn it
  is, the position string round trip (and a hostile one: a mangled string reads or raises a
  ``TaoLongError``, nothing else), the key, the pictures, pickling;
- :func:`check_actions`: the legal actions apply, in a deterministic order, with notation
  that reads back to the same action, one notation an action; ``successors()`` agrees;
  applying never changes the position;
- :func:`check_outside`: an action outside the legal ones (legal elsewhere, or nonsense) is
  refused with a ``TaoLongError``;
- :func:`check_chance`: a chance node's outcomes are its legal actions, with probabilities
  above 0 that sum to 1;
- :func:`check_end`: a finished game has returns (one a player, from -1 to 1) and no actions;
  a game going on has no returns;
- :func:`check_observations`: what a player sees does not leak what it cannot: positions drawn
  from its view (``sample``) look the same to it, leave the player to move the same actions,
  and draw the same positions again (so the draw depends on the view alone);
- :func:`golden_text`: a golden game, seeded and recorded turn by turn (``tests/golden/games/``);
  :func:`replay_golden` plays a recorded one back. ``python tests/game_conformance.py`` writes
  the golden files of the games that have none.
"""

from __future__ import annotations

import functools
import pickle
import random
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from taolong_lab.errors import TaoLongError
from taolong_lab.games import CHANCE, TERMINAL, GameState, games, random_action

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "games"
PLAYOUTS = 3  # random games an option set
ACTIONS = 120  # actions a random game, at most
VARIANTS = 2  # option sets drawn from a game's variants, beside its defaults
SAMPLES = 3  # positions drawn from a player's view, per position and player
GOLDEN_SEED = 1
GOLDEN_ACTIONS = 60
NONSENSE = ["", " ", "zz", "\x00", "é" * 300, "-1", "9" * 50]


def option_sets(game, extra=()) -> list[dict]:
    """The option sets the suite plays: the defaults, a seeded draw of the game's variants
    (its player counts and versions) and ``extra``."""
    variants = [v for v in game.variants() if v]
    drawn = random.Random(f"variants:{game.name}").sample(variants, min(VARIANTS, len(variants)))
    return [{}, *drawn, *extra]


@functools.cache
def playouts(game, options: tuple = ()) -> tuple[tuple[GameState, ...], ...]:
    """The positions of :data:`PLAYOUTS` seeded random games of ``game`` with ``options`` (a
    tuple of ``(name, value)`` pairs), at most :data:`ACTIONS` actions each."""
    found = []
    for seed in range(PLAYOUTS):
        rng = random.Random(f"playout:{game.name}:{options}:{seed}")
        state = game.new(**dict(options))
        states = [state]
        while not state.is_terminal() and len(states) <= ACTIONS:
            state = state.apply(random_action(state, rng))
            states.append(state)
        found.append(tuple(states))
    return tuple(found)


def positions(game, extra=()) -> list[GameState]:
    """Every position of every playout of every option set of ``game`` (see
    :func:`option_sets`)."""
    return [
        state
        for options in option_sets(game, extra)
        for states in playouts(game, tuple(sorted(options.items())))
        for state in states
    ]


def _read_or_refuse(game, text: str) -> None:
    """A hostile position string reads to a valid position or raises a ``TaoLongError``."""
    try:
        read = game.from_string(text)
    except TaoLongError:
        return
    assert isinstance(read, GameState) and read.problems() == [], text


# ---- one position -----------------------------------------------------------------------------
def check_position(state: GameState, thorough: bool = True) -> None:
    """The checks of one position; ``thorough`` adds the pictures, pickling and the hostile
    position strings."""
    game = state.game
    assert state.problems() == [], state.problems()
    assert state.players in game.players
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < state.players, player
    assert state.is_terminal() == (player == TERMINAL)
    assert state.is_chance() == (player == CHANCE)
    text = state.to_string()
    again = game.from_string(text)
    assert again == state and again.to_string() == text, text
    assert again.key() == state.key() and hash(again) == hash(state)
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert len(state.player_names()) == state.players
    if not thorough:
        return
    assert pickle.loads(pickle.dumps(state)) == state
    assert isinstance(state.text(), str) and state.text()
    assert ElementTree.fromstring(state.svg()).tag.endswith("svg")
    shuffled = "".join(random.Random(text).sample(text, len(text)))
    mangled = [text[: len(text) // 2], text[1:], text + " x", text.replace(" ", "", 1), shuffled]
    for hostile in (*mangled, *NONSENSE):
        _read_or_refuse(game, hostile)


def check_actions(state: GameState) -> None:
    text = state.to_string()
    actions = state.legal_actions()
    assert [str(a) for a in actions] == [str(a) for a in state.legal_actions()]  # deterministic
    notations = [str(a) for a in actions]
    assert len(set(notations)) == len(notations), "two actions share a notation"
    pairs = state.successors()
    assert [str(a) for a, _ in pairs] == notations
    for action, (_, expected) in zip(actions, pairs, strict=True):
        read = state.parse_action(str(action))
        assert read == action and str(read) == str(action)
        after = state.apply(action)
        assert after == expected == state.apply(str(action))
    assert state.to_string() == text, "applying an action changed the position"


def check_outside(state: GameState, pool: set[str]) -> None:
    legal = {str(a) for a in state.legal_actions()}
    for text in sorted(pool - legal)[:20] + NONSENSE:
        try:
            state.apply(text)
        except TaoLongError:
            continue
        raise AssertionError(f"{text!r} applied in {state.to_string()!r}: not a legal action")


def check_chance(state: GameState) -> None:
    outcomes = state.chance_outcomes()
    if not state.is_chance():
        assert outcomes == []
        return
    assert outcomes
    assert [str(a) for a, _ in outcomes] == [str(a) for a in state.legal_actions()]
    assert all(p > 0 for _, p in outcomes)
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9


def check_end(state: GameState) -> None:
    if state.is_terminal():
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        values = state.returns()
        assert len(values) == state.players and all(-1 <= v <= 1 for v in values)
        return
    assert state.legal_actions()
    try:
        state.returns()
    except TaoLongError:
        return
    raise AssertionError(f"returns of a game going on: {state.to_string()!r}")


def check_observations(state: GameState) -> bool:
    """The checks of what each player sees; True when a drawn position differed from
    ``state`` (something is hidden here)."""
    hidden = False
    for player in range(state.players):
        seen = state.observation(player)
        assert isinstance(seen, str)
        for k in range(SAMPLES):
            drawn = state.sample(player, random.Random(k))
            if not state.game.hidden:
                assert drawn == state
                continue
            hidden |= drawn != state
            assert drawn.problems() == []
            assert drawn.observation(player) == seen, "the view changed with what it cannot see"
            assert drawn.current_player() == state.current_player()
            if state.current_player() == player:
                mine = [str(a) for a in drawn.legal_actions()]
                assert mine == [str(a) for a in state.legal_actions()], "the actions leak"
            again = random.Random(f"again:{k}")
            also = random.Random(f"again:{k}")
            assert state.sample(player, again) == drawn.sample(player, also), (
                "the draw depends on more than the view"
            )
    return hidden


# ---- golden games -----------------------------------------------------------------------------
def golden_path(game) -> Path:
    return GOLDEN / f"{game.name}-seed-{GOLDEN_SEED}.txt"


def golden_text(game) -> str:
    """A seeded random game of ``game`` (its defaults), at most :data:`GOLDEN_ACTIONS` actions,
    written out action by action with the position string after each."""
    rng = random.Random(f"golden:{game.name}:{GOLDEN_SEED}")
    state = game.new()
    lines = [f"# {game.title}: a seeded random game (seed {GOLDEN_SEED})", state.to_string()]
    for number in range(1, GOLDEN_ACTIONS + 1):
        if state.is_terminal():
            break
        who = "chance" if state.is_chance() else state.player_names()[state.current_player()]
        action = random_action(state, rng)
        state = state.apply(action)
        lines.append(f"{number}\t{who}\t{action}\t{state.to_string()}")
    end = f"returns {list(state.returns())}" if state.is_terminal() else "unfinished"
    return "\n".join([*lines, end]) + "\n"


def replay_golden(game, text: str) -> int:
    """Play a golden game back from its text: each action read against its position, each
    position string compared. Returns the actions replayed."""
    rows = text.splitlines()
    state = game.from_string(rows[1])
    count = 0
    for row in rows[2:-1]:
        number, who, action, after = row.split("\t")
        player = state.current_player()
        assert who == ("chance" if player == CHANCE else state.player_names()[player]), row
        state = state.apply(state.parse_action(action))
        assert state.to_string() == after, f"action {number}: {after}"
        count += 1
    end = f"returns {list(state.returns())}" if state.is_terminal() else "unfinished"
    assert rows[-1] == end
    return count


def write_missing_goldens(extra=()) -> list[Path]:
    """Write the golden file of every game (registered, and ``extra``) that has none."""
    written = []
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for game in (*games(), *extra):
        path = golden_path(game)
        if not path.exists():
            path.write_text(golden_text(game), encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from tiny_games import TINY_GAMES

    for path in write_missing_goldens(TINY_GAMES):
        print(f"wrote {path}")
