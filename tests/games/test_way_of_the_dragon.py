"""Way of the Dragon (docs/games/way-of-the-dragon.md): one test per rule sentence, each with a
hand-built position where the rule applies and one where it must not, the options, the
position string, hypothesis invariants, random games played to the end, and the best dice to
keep checked against brute-force enumeration.

Each rule test quotes the rulebook on ``>`` lines; the quotes are checked against the
rulebook's text when ``TAOLONG_RULEBOOKS`` names a folder holding it (as in
tests/test_docs_rules.py), and skipped, saying so, otherwise.
"""

from __future__ import annotations

import ast
import doctest
import itertools
import os
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from game_conformance import check_actions, check_chance, check_end, check_position
from hypothesis import given, settings
from hypothesis import strategies as st

from taolong_lab.errors import DataError, TaoLongError
from taolong_lab.games import CHANCE, TERMINAL, GameError, game, random_action
from taolong_lab.games.way_of_the_dragon import (
    best_keep,
    best_move,
    element_count,
    keep_values,
    paths_data,
)
from taolong_lab.games.way_of_the_dragon import data as data_module
from taolong_lab.games.way_of_the_dragon.dice import keeps, read_dice, rolls

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "games" / "way-of-the-dragon.md"
SEEDS = Path(os.environ.get("TAOLONG_RULEBOOKS", "") or ROOT / "no-rulebooks")
RULEBOOK = next(
    (
        SEEDS / name
        for name in ("way-of-the-dragon.txt", "004_266267a30fbd538c.txt")
        if (SEEDS / name).is_file()
    ),
    SEEDS / "way-of-the-dragon.txt",
)
WOTD = game("way-of-the-dragon")
FAST = settings(max_examples=15, deadline=None, derandomize=True)


def position(paths=None, phase="move", player=0, rolls=1, dice="WWWFD", used="-", **options):
    """A position string built by hand: ``paths`` maps a path letter to its spaces from the
    first (``.`` empty, ``x`` dead, a colour letter), padded with empty spaces."""
    values = {
        "players": 2,
        "advanced": 0,
        "immunity": 0,
        "dead": 0,
        "length": 10,
        "equilibrium": "board",
    } | options
    cells = values["length"] + 5
    rows = {letter: "" for letter in "WFMEO"} | (paths or {})
    fields = " ".join(f"{k}={int(v) if isinstance(v, bool) else v}" for k, v in values.items())
    board = " ".join(f"{letter}={row.ljust(cells, '.')}" for letter, row in rows.items())
    text = (
        f"wotd {fields} {board} phase={phase} player={player} rolls={rolls} dice={dice} used={used}"
    )
    return WOTD.from_string(text)


def actions(state):
    return state.legal_actions()


# ---- setup ---------------------------------------------------------------------------------
def test_dead_pieces_go_on_plain_spaces_one_a_space():
    """> Upon agreement, the players may place some non-playing animals randomly onto the board
    > spaces (except onto the ones with the symbols or numbers).
    > No space can contain more than 1 piece."""
    start = WOTD.new(dead=2)
    assert start.current_player() == CHANCE and start.phase == "setup"
    outcomes = start.chance_outcomes()
    assert len(outcomes) == 5 * 10 and {a for a, _ in outcomes} == {
        f"dead {p}{c}" for p in "WFMEO" for c in range(1, 11)
    }
    once = start.apply("dead W3")
    assert "dead W3" not in once.legal_actions() and len(once.legal_actions()) == 49
    assert once.apply("dead O10").phase == "roll"
    assert WOTD.new().phase == "roll"  # no dead pieces unless agreed


def test_dead_pieces_block_and_never_move_nor_swap():
    """> These are “dead” pieces, they are not moved during the game, but they block the
    > movement of the playing pieces."""
    blocked = position({"W": "..x"}, dice="WWWDD", dead=1)
    assert "move W" not in actions(blocked)
    free = position({"W": "..x"}, dice="WWDDD", dead=1)
    assert "move W" in actions(free)
    swap = position({"W": "..xkr"}, dice="WDDDD", dead=1)
    assert actions(swap) == ["swap W black red", "pass"]  # the dead piece is never swapped


# ---- the turn --------------------------------------------------------------------------------
def test_a_turn_starts_with_the_five_dice_rolled_as_multisets():
    """> 1. Roll the five dice."""
    start = WOTD.new()
    outcomes = dict(start.chance_outcomes())
    assert len(outcomes) == 252
    assert outcomes["roll WWWWW"] == pytest.approx(1 / 6**5)
    assert outcomes["roll WFMEO"] == pytest.approx(120 / 6**5)
    assert sum(outcomes.values()) == pytest.approx(1)
    assert all(sum(p for _, p in rolls(n)) == 1 for n in range(6))


def test_up_to_three_rolls_keeping_any_dice():
    """> You may elect to roll a second and third time re-rolling any or all of dice (as in
    > Yahtzee)."""
    first = WOTD.new().apply("roll WWFMD")
    assert first.phase == "keep" and actions(first)[:3] == ["stop", "keep -", "keep W"]
    assert "keep WWFMD" not in actions(first) and len(actions(first)) == 1 + 23
    second = first.apply("keep WW").apply("roll WWF")
    assert second.dice == read_dice("WWWWF") and second.phase == "keep"
    third = second.apply("keep -").apply("roll EEEEE")
    assert third.phase == "move" and third.rolls == 3  # no fourth roll
    assert first.apply("stop").phase == "move"


def test_turns_pass_in_seat_order():
    """> The players take turns in anticlockwise order.
    > Then the turn passes to the next player."""
    moved = position(players=3, player=2, rolls=3).apply("move W")
    assert moved.player == 0 and moved.current_player() == CHANCE and moved.rolls == 0
    assert position(players=3, player=0, rolls=3).apply("move W").player == 1


# ---- how to move -------------------------------------------------------------------------------
def test_a_move_advances_by_the_count_of_its_element():
    """> you must choose one of the elements and advance the piece on the corresponding path as
    > many spaces as dice are showing this element."""
    state = position({"W": "k", "F": "k"}, dice="WWWFD")
    moved = state.apply("move W")
    assert moved.cell(0, 0) == 4 and moved.cell(1, 0) == 1
    assert moved.apply("end" if moved.phase == "after" else "roll WWWWW").player in (0, 1)
    assert "move M" not in actions(state)  # no metal die: no metal move
    assert state.apply("move F").cell(1, 0) == 2


def test_a_piece_enters_from_the_symbol_space():
    """> If there is no piece of your color on the corresponding path, you must enter a piece
    > from outside the board onto the symbol space of the path and then move it the full number
    > of spaces (pieces never stay on the symbol spaces)."""
    state = position(dice="WWWWD")
    assert state.cell(0, 0) == 0
    assert state.apply("move W").cell(0, 0) == 4  # the rulebook's example: the 4th water square


def test_one_piece_of_a_colour_a_path():
    """> There cannot be more than one piece of each colour on each path, so there is one path
    > for every piece the player has."""
    state = position({"W": ".k"}, dice="WWFMD")
    after = state.apply("move W")
    assert after.board[0].count("k") == 1 and after.cell(0, 0) == 4
    with pytest.raises(GameError, match="two pieces of black"):
        position({"W": "k.k"})


def test_an_occupied_destination_stops_the_move():
    """> If the destination space is occupied by another piece, the player’s piece cannot be
    > moved at all (nor can it be entered onto the board) this turn."""
    state = position({"W": "..r", "F": "k.r"}, dice="WWWFF")
    assert "move W" not in actions(state) and "move F" not in actions(state)
    jump = position({"W": ".r"}, dice="WWWFF")
    assert "move W" in actions(jump) and jump.apply("move W").cell(0, 0) == 3  # jumps over


def test_a_piece_on_a_numbered_space_no_longer_moves():
    """> A piece lying on a numbered space can no longer move, but can be swapped by calling
    > the Great Dragon (see below)."""
    locked = position({"W": "." * 10 + "k"}, dice="WFDDD")
    assert "move W" not in actions(locked) and "move F" in actions(locked)
    plain = position({"W": "." * 9 + "k"}, dice="WFDDD")
    assert "move W" in actions(plain)
    swap = position({"W": "." * 9 + "rk"}, dice="WDDDD")
    assert swap.apply("swap W black red").board[0][9:11] == "kr"


def test_moving_is_mandatory():
    """> If you can, you must move one of your pieces, except if you’ve called the great dragon
    > (see below “Calling the dragon”).
    > Moving is mandatory. This is, if the player can move at least one piece, he must move
    > one."""
    state = position(dice="WWFFM")
    assert "pass" not in actions(state) and actions(state) == ["move W", "move F", "move M"]


def test_a_player_who_cannot_move_passes():
    """> If the player cannot move any of his pieces then simply passes the turn."""
    stuck = position({"W": "..r" + "." * 8 + "k", "F": "." * 10 + "k"}, dice="WWWFF")
    assert actions(stuck) == ["pass"]
    after = stuck.apply("pass")
    assert after.player == 1 and after.board == stuck.board


def test_the_rulebooks_example_turn():
    """> The red player rolls the 5 dice…
    > …and gets one “dragon, 2 “water”, one “metal” and one “earth”.
    > He decides to keep 2 “water”, and rolls the other 3…
    > … and gets another “water” and 2 “fire”. He rolls the 2 “fire” again…
    > … and gets a 4th “water” and a dragon.
    > Then he enters one of his pieces onto the board, on the 4th “water” square."""
    state = position(phase="roll", player=1, rolls=0, dice="-")
    state = state.apply("roll WWMED").apply("keep WW").apply("roll WFF")
    state = state.apply("keep WWW").apply("roll WD")
    assert state.phase == "move" and state.dice == read_dice("WWWWD")
    assert state.apply("move W").board[0] == "...r" + "." * 11


# ---- the Great Dragon ----------------------------------------------------------------------------
def test_four_dragons_swap_two_pieces_of_the_fifth_dies_path():
    """> If a player has rolled 4 or 5 dragons, the he may call the Great Dragon instead of
    > moving. The Great Dragon has the power to swap 2 pieces of one of the paths.
    > - If the player has rolled 4 dragons, he is allowed to swap any two pieces of the
    > corresponding path of the element shown on the 5th die."""
    board = {"W": "ky.r", "F": "kr", "M": ".r.k"}
    state = position(board, dice="MDDDD", players=4)
    swaps = [a for a in actions(state) if a.startswith("swap")]
    assert swaps == ["swap M black red"]  # any two pieces, neither need be the player's
    after = state.apply("swap M black red")
    assert after.board[2].startswith(".k.r") and after.player == 1  # instead of moving
    three = position(board, dice="MMDDD", players=4)
    assert not any(a.startswith("swap") for a in actions(three))


def test_five_dragons_swap_two_pieces_of_any_path():
    """> - If he’s rolled 5 dragons, he is allowed to swap any 2 pieces on any one path."""
    state = position({"W": "ky.r", "F": "kr"}, dice="DDDDD", players=4)
    swaps = [a for a in actions(state) if a.startswith("swap")]
    assert swaps == [
        "swap W black red",
        "swap W black yellow",
        "swap W red yellow",
        "swap F black red",
    ]
    assert "pass" in actions(state)  # calling the dragon is a choice


# ---- perfection and equilibrium ---------------------------------------------------------------
def test_perfection_gives_a_turn_again():
    """> If all the 5 dice show the same element (not dragons), then he’s reached ‘perfection’
    > and may play a complete turn again after moving."""
    moved = position(dice="FFFFF").apply("move F")
    assert moved.phase == "after" and actions(moved) == ["end", "again"]
    again = moved.apply("again")
    assert again.player == 0 and again.current_player() == CHANCE and again.rolls == 0
    assert moved.apply("end").player == 1
    dragons = position(dice="DDDDD").apply("pass")
    assert dragons.phase == "roll" and dragons.player == 1  # five dragons are no perfection
    four = position(dice="FFFFW").apply("move F")
    assert four.player == 1


def test_equilibrium_moves_every_piece_one_space():
    """> If all the 5 dice show a different element (not dragons), then he’s reached
    > ‘equilibrium’ and he must move each of his pieces forward one space (those that can be
    > moved)."""
    board = {"W": "k", "F": "kr", "M": "." * 10 + "k", "E": "..k"}
    state = position(board, dice="WFMEO")
    assert actions(state) == ["equilibrium"]
    after = state.apply("equilibrium")
    assert [after.cell(p, 0) for p in range(5)] == [2, 1, 11, 4, 0]
    entering = position(board, dice="WFMEO", equilibrium="enter").apply("equilibrium")
    assert entering.cell(4, 0) == 1
    one_dragon = position(board, dice="WFMED")
    assert "equilibrium" not in actions(one_dragon)


def test_equilibrium_moves_the_pieces_on_the_paths_not_those_still_outside():
    """> If all the 5 dice show a different element (not dragons), then he’s reached
    > ‘equilibrium’ and he must move each of his pieces forward one space (those that can be
    > moved).
    > If there is no piece of your color on the corresponding path, you must enter a piece
    > from outside the board onto the symbol space of the path and then move it the full
    > number of spaces (pieces never stay on the symbol spaces).
    > If the destination space is occupied by another piece, the player’s piece cannot be
    > moved at all (nor can it be entered onto the board) this turn."""
    first = position(dice="WFMEO")  # the first turn: every piece is still outside
    assert actions(first) == ["pass"]  # the default: entering is not moving a piece forward
    assert first.apply("pass").player == 1
    entered = position(dice="WFMEO", equilibrium="enter")
    assert actions(entered) == ["equilibrium"]
    after = entered.apply("equilibrium")
    assert [after.cell(p, 0) for p in range(5)] == [1, 1, 1, 1, 1]
    one_on = position({"F": "..k"}, dice="WFMEO")  # one piece on its path: only it moves
    assert [one_on.apply("equilibrium").cell(p, 0) for p in range(5)] == [0, 4, 0, 0, 0]


# ---- the end ------------------------------------------------------------------------------------
def test_the_game_ends_when_a_player_has_every_piece_on_numbers():
    """> The game ends when one player has all of his pieces on numbered spaces.
    > This happens when at least one of the players has reached the end of the five paths."""
    nearly = {p: "." * 10 + "k" for p in "WFME"} | {"O": "." * 9 + "k"}
    state = position(nearly, dice="OWWMM")
    assert state.current_player() == 0
    over = state.apply("move O")
    assert over.current_player() == TERMINAL and over.legal_actions() == []
    with pytest.raises(GameError, match="not over"):
        state.returns()


def test_the_numbers_under_the_pieces_score():
    """> Then each player sums up the numbers underneath their pieces. The player with the
    > highest score wins the game."""
    black = {p: "." * 10 + "k" for p in "WFMEO"}  # five pieces on 1: 5 points
    board = {p: row + ("r" if p in "WF" else "") for p, row in black.items()}
    over = position(board, dice="WWWWD")
    assert over.score(0) == (5, 5) and over.score(1) == (4, 2)
    assert over.returns() == (1.0, -1.0)
    red = {p: row + ("..r" if p in "WF" else "") for p, row in black.items()}
    assert position(red, dice="WWWWD").returns() == (-1.0, 1.0)  # 4 + 4 beats 5


def test_the_rulebooks_scoring_example():
    """> Black tortoise: 3+3+5+0+1 = 12
    > Red bird: 4+1+0+2+3 = 10
    > White tiger: 2+0+1+4+4 = 11
    > Yellow dragon: 1+4+3+1+2 = 11
    > Blue dragon: 5+5+2+3 = 15
    > Blue dragon wins!"""
    values = {  # each colour's numbers in path order; 0: not on a numbered space
        "k": (3, 3, 5, 0, 1),
        "r": (4, 1, 0, 2, 3),
        "w": (2, 0, 1, 4, 4),
        "y": (1, 4, 3, 1, 2),
        "b": (5, 5, 2, 3, 0),
    }
    rows = {}
    for path, letter in enumerate("WFMEO"):
        row = ["."] * 15
        for colour, numbers in values.items():
            if numbers[path]:
                assert row[9 + numbers[path]] == ".", "one piece a numbered space"
                row[9 + numbers[path]] = colour
        rows[letter] = "".join(row)
    end = position(rows, dice="WWWWD", players=5)
    assert [end.score(seat)[0] for seat in range(5)] == [12, 10, 11, 11, 15]
    assert end.is_terminal()  # yellow has all five pieces on numbered spaces
    assert end.returns() == (-1.0, -1.0, -1.0, -1.0, 1.0)


def test_ties_go_to_the_most_pieces_on_numbers_then_stand():
    """> In case of a tie, the player with most pieces on numbered spaces wins the game. If the
    > tie persists then the game is a tie."""
    black = {p: "." * 10 + "k" for p in "WFMEO"}
    fewer = black | {"W": "." * 10 + "k...r"}
    assert position(fewer, dice="WWWWD").returns() == (1.0, -1.0)  # 5 to 5: five pieces win
    tied = {"W": "k.r", "F": "kr", "M": "rk", "E": "rk", "O": ".rk"}  # 9 to 9, five each
    even = position({p: "." * 10 + row for p, row in tied.items()}, dice="WWWWD")
    assert even.score(0) == even.score(1) == (9, 5) and even.returns() == (0.0, 0.0)
    three = {p: row + ("r" if p != "O" else "") for p, row in black.items()}  # red: 4 x 2
    three_players = position(three, dice="WWWWD", players=3)
    assert three_players.returns() == (-1.0, 1.0, -1.0)


# ---- the advanced game --------------------------------------------------------------------------
def test_each_power_is_used_once():
    """> In the advanced game, each element has a special power. Each player can use his power
    > only once during the game."""
    fear = position(dice="WWFFM", advanced=1)
    assert "fear" in actions(fear)
    used = fear.apply("fear")
    assert 0 in used.used and used.board == fear.board
    assert "fear" not in actions(position(dice="WWFFM", advanced=1, used="k"))
    assert "fear" not in actions(position(dice="WWFFM"))  # not in the basic game


def test_fear_skips_a_forced_move():
    """> Black tortoise (water): Fear. The player may elect not to move any of his pieces, even
    > if he’s forced to."""
    state = position(dice="WWFFM", advanced=1)
    assert actions(state)[-1] == "fear" and "pass" not in actions(state)
    assert "fear" not in actions(position(dice="WWFFM", advanced=1, player=1, players=3))


def test_rebirth_gives_an_extra_turn():
    """> Red bird (fire): Re-birth. The player has an extra turn."""
    moved = position(dice="WWFFM", advanced=1, player=1).apply("move W")
    assert moved.phase == "after" and actions(moved) == ["end", "rebirth"]
    again = moved.apply("rebirth")
    assert again.player == 1 and 1 in again.used and again.current_player() == CHANCE
    spent = position(dice="WWFFM", advanced=1, player=1, used="r").apply("move W")
    assert spent.player == 0


def test_eye_of_the_tiger_rolls_a_fourth_time():
    """> White tiger (metal): Eye of the tiger. The player may roll a 4th time."""
    third = position(phase="roll", player=2, rolls=2, dice="MM", players=3, advanced=1)
    after = third.apply("roll WFM")
    assert after.phase == "keep" and after.rolls == 3
    fourth = after.apply("keep MM")
    assert 2 in fourth.used and fourth.apply("roll MMM").phase == "move"
    plain = position(phase="roll", player=1, rolls=2, dice="MM", players=3, advanced=1)
    assert plain.apply("roll WFM").phase == "move"


def test_the_wood_dragon_counts_dragons_as_any_element():
    """> Blue dragon (wood): The dragon. The player can use the rolled dragons as a substitute
    > for any other element."""
    state = position(dice="WWFDD", advanced=1, player=4, players=5)
    assert {"move W dragon", "move M dragon"} <= set(actions(state))
    moved = state.apply("move W dragon")
    assert moved.cell(0, 4) == 4 and 4 in moved.used
    assert "move W dragon" not in actions(position(dice="WWFDD", advanced=1, player=3, players=5))


def test_anxiety_jumps_to_the_next_empty_space():
    """> Yellow dragon (earth): Anxiety. If the destination space is occupied, the yellow
    > dragon can jump over the blocking piece/s to the next empty space. This works for
    > “equilibrium” too."""
    state = position({"W": "..kr"}, dice="WWWFF", advanced=1, player=3, players=4)
    assert "move W anxiety" in actions(state)
    assert state.apply("move W anxiety").cell(0, 3) == 5
    free = position(dice="WWWFF", advanced=1, player=3, players=4)
    assert "move W anxiety" not in actions(free)  # only when the destination is occupied
    board = {"W": "yk", "F": "y"}
    balanced = position(board, dice="WFMEO", advanced=1, player=3, players=4)
    assert actions(balanced) == ["equilibrium", "equilibrium anxiety"]
    jumped = balanced.apply("equilibrium anxiety")
    assert jumped.cell(0, 3) == 3 and jumped.cell(1, 3) == 2


def test_immunity_protects_a_piece_on_its_own_path():
    """> Each piece is immune to the Great Dragon when it is on the path of the same color. For
    > example, the black tortoise is immune to the Great Dragon in the first path (water)."""
    board = {"W": "kry"}
    immune = position(board, dice="WDDDD", players=4, immunity=1)
    assert [a for a in actions(immune) if a.startswith("swap")] == ["swap W red yellow"]
    plain = position(board, dice="WDDDD", players=4)
    assert len([a for a in actions(plain) if a.startswith("swap")]) == 3


# ---- options, position string, data ----------------------------------------------------------
def test_every_player_count_and_variant_starts():
    for players in range(2, 6):
        start = WOTD.new(players=players)
        assert start.players == players and len(start.player_names()) == players
    assert [v["players"] for v in WOTD.variants()] == [2, 3, 4, 5]
    with pytest.raises(GameError, match="'players'"):
        WOTD.new(players=6)
    with pytest.raises(GameError, match="'dead'"):
        WOTD.new(dead=20, length=3)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (("players=2", "players=7"), "players"),
        (("phase=move", "phase=fly"), "phase"),
        (("dice=WWWFD", "dice=WWWFZ"), "dice"),
        (("W=...", "W=.q."), "path W"),
        (("used=-", "used=kk"), "used"),
        (("rolls=1", "rolls=0"), "rolls"),
        (("equilibrium=board", "equilibrium=far"), "equilibrium"),
        (("player=0", "player=٣"), "player"),
    ],
)
def test_a_bad_position_string_names_its_field(change, field):
    text = position().to_string().replace(*change, 1)
    with pytest.raises(GameError, match=field):
        WOTD.from_string(text)


def test_a_position_string_bounds_the_dead_pieces():
    with pytest.raises(GameError, match="20 dead pieces"):
        position({"W": "xxx"}, phase="setup", rolls=0, dice="-", length=3, dead=20)
    assert position({"W": "xxx"}, phase="setup", rolls=0, dice="-", length=3, dead=4)


def test_the_paths_come_from_data_and_a_bad_file_names_its_field(monkeypatch):
    data = paths_data()
    assert data.plain_spaces == WOTD.new().settings.length and data.values == (1, 2, 3, 4, 5)
    doc = data_module.load_toml(data_module.FILE)
    broken = {**doc, "numbered_spaces": {**doc["numbered_spaces"], "values": [1, 2]}}
    monkeypatch.setattr(data_module, "load_toml", lambda name: broken)
    data_module.paths_data.cache_clear()
    try:
        with pytest.raises(DataError, match=r"numbered_spaces\.values"):
            data_module.paths_data()
        unmarked = {**doc, "plain_spaces": {"value": 10, "reason": "?"}}
        monkeypatch.setattr(data_module, "load_toml", lambda name: unmarked)
        with pytest.raises(DataError, match=r"plain_spaces\.inferred"):
            data_module.paths_data()
    finally:
        data_module.paths_data.cache_clear()


def test_pictures_show_the_pieces_and_the_dice():
    state = position({"W": "k.x", "F": "." * 10 + "r"}, dice="WWFMD", dead=1)
    text = state.text()
    assert "water (W) k . x" in text and "| r 2 3 4 5" in text and "dice WWFMD" in text
    svg = state.svg()
    assert svg.count("<circle") == 3 and "#8a8a8a" in svg and ">D</text>" in svg


# ---- invariants -----------------------------------------------------------------------------
def _play(seed: int, options: dict, limit: int = 20000):
    rng = random.Random(seed)
    state = WOTD.new(**options)
    states = [state]
    while not state.is_terminal() and len(states) < limit:
        state = state.apply(random_action(state, rng))
        states.append(state)
    return states


OPTION_SETS = st.fixed_dictionaries(
    {
        "players": st.integers(2, 5),
        "advanced": st.booleans(),
        "immunity": st.booleans(),
        "dead": st.integers(0, 4),
        "length": st.integers(3, 10),
        "equilibrium": st.sampled_from(["board", "enter"]),
    }
)


@FAST
@given(options=OPTION_SETS, seed=st.integers(0, 10**6))
def test_random_games_keep_the_invariants(options, seed):
    states = _play(seed, options, limit=400)
    dead = None
    for before, after in itertools.pairwise(states):
        assert after.problems() == [] and WOTD.from_string(after.to_string()) == after
        cells = {(p, i) for p, row in enumerate(after.board) for i, ch in enumerate(row)}
        if after.phase != "setup":
            here = {(p, i) for p, i in cells if after.board[p][i] == "x"}
            assert dead in (None, here)  # dead pieces never move
            dead = here
        for seat in range(after.players):  # a piece on a number stays there unless swapped
            for path in range(5):
                was = before.cell(path, seat)
                if before.numbered(was) and not before.dice[5] >= 4:
                    assert after.cell(path, seat) == was


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 3, "advanced": True, "dead": 3}, {"players": 4, "immunity": True}],
    ids=["two", "three-advanced-dead", "four-immunity"],
)
def test_random_games_end_and_pass_the_conformance_checks(options):
    for seed in range(2):
        states = _play(seed, options)
        end = states[-1]
        assert end.is_terminal(), "a random game reaches the end"
        for state in [*states[:: max(len(states) // 30, 1)], end]:
            check_position(state, thorough=True)
            check_chance(state)
            check_end(state)
            check_actions(state)
        winners = [s for s, v in enumerate(end.returns()) if v == 1]
        best = max(end.score(s) for s in range(end.players))
        assert all(end.score(s) == best for s in winners)


# ---- the best dice to keep ---------------------------------------------------------------------
def _brute(state, objective, dice: tuple, left: int, memo: dict) -> Fraction:
    """The best expected objective from ordered dice, keeping dice by position and rolling the
    others as ordered faces: every one of the 6**k sequences, each with probability 6**-k."""
    key = (tuple(sorted(dice)), left)
    if key in memo:
        return memo[key]
    counts = tuple(dice.count(face) for face in range(6))
    best = Fraction(objective(state._with(dice=counts, phase="move")))
    if left:
        for mask in range(2**5 - 1):
            kept = [d for i, d in enumerate(dice) if mask >> i & 1]
            k = 5 - len(kept)
            total = sum(
                _brute(state, objective, tuple(kept) + faces, left - 1, memo)
                for faces in itertools.product(range(6), repeat=k)
            )
            best = max(best, total / 6**k)
    memo[key] = best
    return best


def _ordered(text: str) -> tuple:
    return tuple(face for face, n in enumerate(read_dice(text)) for _ in range(n))


@pytest.mark.parametrize("roll", ["WWFMD", "WFMEO", "DDDDW", "WWWWW"])
def test_best_keep_matches_brute_force_with_one_roll_left(roll):
    state = position(phase="keep", rolls=2, dice=roll)
    for objective in (element_count(0), element_count(4)):
        action, value = best_keep(state, objective)
        assert value == _brute(state, objective, _ordered(roll), 1, {})
        assert dict(keep_values(state, objective))[action] == value


def test_best_keep_matches_brute_force_with_two_rolls_left():
    state = position(phase="keep", rolls=1, dice="WWWWF")
    objective = element_count(0)
    values = dict(keep_values(state, objective))
    memo: dict = {}
    for action in ("keep WWWW", "keep WWW", "keep WWWF"):
        kept = _ordered(action.split()[1])
        k = 5 - len(kept)
        total = sum(
            _brute(state, objective, kept + faces, 1, memo)
            for faces in itertools.product(range(6), repeat=k)
        )
        assert values[action] == total / 6**k
    assert values["stop"] == 4


@pytest.mark.slow
def test_best_keep_matches_brute_force_from_the_first_roll():
    state = position(phase="keep", rolls=1, dice="WWFMD")
    objective = element_count(0)
    expected = _brute(state, objective, _ordered("WWFMD"), 2, {})
    assert best_keep(state, objective) == ("keep WW", expected)


def test_best_keep_with_one_roll_left_keeps_the_element():
    """Counting one element with one roll left: keep its dice, expect one more for every six
    dice rolled again."""
    state = position(phase="keep", rolls=2, dice="WWFMD")
    assert best_keep(state, element_count(0)) == ("keep WW", 2 + Fraction(3, 6))
    assert best_keep(position(phase="keep", rolls=2, dice="WWWWW"), element_count(0))[0] == "stop"


def test_the_heuristic_counts_progress_and_the_dice_in_hand():
    """Progress: a numbered space's number, two points a path's length on the way; the player
    holding dice adds its best plain move's gain."""
    state = position({"W": "." * 6 + "k", "F": "r"}, dice="WWWFF")
    assert WOTD.heuristic(state) == pytest.approx((1.4 + 0.6 - 0.2, 0.2 - 2.0))
    rolling = position({"W": "." * 6 + "k", "F": "r"}, phase="roll", rolls=0, dice="-")
    assert WOTD.heuristic(rolling) == pytest.approx((1.2, -1.2))
    assert best_move(state) == pytest.approx(2.0 - 0.2)  # move W beats move F (1.6)


def test_best_move_scores_the_position_and_refuses_other_phases():
    state = position({"W": "." * 7 + "k", "F": "r"}, phase="keep", rolls=2, dice="WWWFD")
    action, value = best_keep(state, best_move)
    assert action in state.legal_actions() and value >= dict(keep_values(state, best_move))["stop"]
    with pytest.raises(GameError, match="choice of dice"):
        keep_values(position(), best_move)
    with pytest.raises(GameError, match="element"):
        element_count(5)
    assert len(keeps(read_dice("WWFMD"))) == 23


# ---- the doc and the rulebook -----------------------------------------------------------------
def _rule_tests() -> dict[str, str]:
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    return {
        node.name: ast.get_docstring(node) or ""
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
    }


def _quotes(text: str) -> list[str]:
    found, run = [], []
    for line in [*text.splitlines(), ""]:
        stripped = line.strip()
        if stripped.startswith(">"):
            run.append(stripped[1:].strip())
        elif run:
            found.append(" ".join(run))
            run = []
    return found


def test_the_doc_names_tests_that_exist_and_every_rule_test():
    doc = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"test_way_of_the_dragon\.py::(\w+)", doc))
    tests = _rule_tests()
    assert named and named <= set(tests)
    quoting = {name for name, text in tests.items() if _quotes(text)}
    assert quoting <= named, quoting - named
    assert "../shared" not in doc and "inferred" in doc


def test_the_quotes_are_the_rulebooks_words():
    if not RULEBOOK.is_file():
        pytest.skip(
            "the rulebook's text is not part of the repository: set TAOLONG_RULEBOOKS to a "
            "folder holding way-of-the-dragon.txt to check the quotes against it"
        )
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    quotes = [q for text in _rule_tests().values() for q in _quotes(text)]
    quotes += [
        q.strip(" |") for q in re.findall(r"^\| “([^”|]+)”", DOC.read_text(encoding="utf-8"), re.M)
    ]
    assert quotes
    for quote in quotes:  # each sentence appears as it is (a quote may skip between them)
        for sentence in re.split(r"(?<=[.!?…])\s+", quote):
            assert " ".join(sentence.split()) in book, sentence


def test_bad_inputs_are_tao_long_errors():
    state = position()
    for text in ["move Z", "swap W black red", "keep WW", "", "roll WWWWW"]:
        with pytest.raises(TaoLongError):
            state.apply(text)


def test_the_doc_shows_what_it_says():
    result = doctest.testfile(str(DOC), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
