"""Every game of the protocol passes the conformance suite (tests/game_conformance.py): the
registered games and the two tiny games of tests/tiny_games.py (a dice game and a hidden-card
game), which prove the protocol is not Tao-Long-shaped."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from game_conformance import (
    check_actions,
    check_chance,
    check_end,
    check_observations,
    check_outside,
    check_position,
    golden_path,
    golden_text,
    positions,
    replay_golden,
)
from tiny_games import TINY_GAMES

from taolong_lab.games import Game, GameError, game, games, register
from taolong_lab.games import registry as registry_module

GAMES = [*games(), *(g for g in TINY_GAMES if g not in games())]
EXTRA = {
    "taolong": [{"solo": True, "segments": 2, "water": 3}],  # the solo variant too
    "long-tau": [{"limit": 40}, {"players": 4, "four": "each", "limit": 40}],  # games that end
}
EVERY = {"taolong": 20}  # the actions of every n-th position are checked (they are many)
# Games whose random games outlast the playout budget (Way of the Dragon: its own tests play
# random games to the end).
LONG = {"taolong", "way-of-the-dragon"}
ids = [g.name for g in GAMES]


def _positions(played):
    return positions(played, EXTRA.get(played.name, ()))


@pytest.mark.parametrize("played", GAMES, ids=ids)
def test_random_playouts_keep_the_invariants(played):
    found = _positions(played)
    assert found
    for index, state in enumerate(found):
        check_position(state, thorough=index % EVERY.get(played.name, 1) == 0)
        check_chance(state)
        check_end(state)
    assert any(s.is_terminal() for s in found) or played.name in LONG
    if played.chance:
        assert any(s.is_chance() for s in found), "a game with chance shows a chance node"


@pytest.mark.parametrize("played", GAMES, ids=ids)
def test_legal_actions_apply_and_read_back(played):
    for state in _positions(played)[:: EVERY.get(played.name, 1)]:
        check_actions(state)


@pytest.mark.parametrize("played", GAMES, ids=ids)
def test_no_action_outside_the_legal_ones(played):
    found = _positions(played)[:: EVERY.get(played.name, 1)]
    pool = {str(a) for state in found for a in state.legal_actions()}
    for state in found:
        check_outside(state, pool)


@pytest.mark.parametrize("played", GAMES, ids=ids)
def test_observations_do_not_leak_what_a_player_cannot_see(played):
    hidden = [check_observations(s) for s in _positions(played)[:: EVERY.get(played.name, 1)]]
    assert any(hidden) == played.hidden  # a game that hides something shows it somewhere


@pytest.mark.parametrize("played", GAMES, ids=ids)
def test_the_golden_game_replays(played):
    path = golden_path(played)
    assert path.exists(), f"write it: python tests/game_conformance.py ({path.name})"
    text = path.read_text(encoding="utf-8")
    assert replay_golden(played, text) > 0
    assert golden_text(played) == text, "the seeded game is no longer the recorded one"


@pytest.mark.parametrize("played", GAMES, ids=ids)
def test_options_are_data_and_checked_by_name(played):
    start = played.new(**{o.name: o.default for o in played.options})
    assert start == played.new()
    with pytest.raises(GameError, match="no_such_option"):
        played.new(no_such_option=1)
    for option in played.options:
        with pytest.raises(GameError, match=repr(option.name)):
            played.new(**{option.name: object()})


def test_the_registry_names_the_games_and_refuses_clashes(monkeypatch):
    assert game("taolong").title == "Tao Long"
    with pytest.raises(GameError, match="taolong"):
        game("no-such-game")
    monkeypatch.setattr(registry_module, "_GAMES", dict(registry_module._GAMES))
    pig = TINY_GAMES[0]
    assert register(pig) is pig and game(pig.name) is pig and pig in games()
    clash = type("Clash", (type(pig),), {})()
    with pytest.raises(GameError, match="already registered"):
        register(clash)
    with pytest.raises(GameError, match="only a Game"):
        register("pig")
    assert isinstance(pig, Game)


def test_the_protocol_page_shows_what_it_says():
    page = Path(__file__).resolve().parents[2] / "docs" / "games" / "protocol.md"
    result = doctest.testfile(str(page), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
