"""The Line value: a start position and its turns, checked as they are played."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taolong_lab import IllegalTurnError, Line, State, TaoLongError, new_game, solo_game


def _random_line(seed: int, length: int, solo: bool) -> tuple[State, list[str]]:
    rng = random.Random(seed)
    start = solo_game() if solo else new_game(("field", "maze", "valley")[seed % 3])
    state, played = start, []
    for _ in range(length):
        if state.is_over():
            break
        turn = rng.choice(state.legal_turns())
        played.append(str(turn))
        state = state.play(turn)
    return start, played


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), length=st.integers(0, 12), solo=st.booleans())
def test_a_line_replays_its_turns_and_evaluates_back(seed, length, solo):
    start, played = _random_line(seed, length, solo)
    line = Line(start, played)
    assert line.notation() == played and len(line) == len(played)
    states = line.states()
    assert states[0] == start and len(states) == len(played) + 1
    for before, turn, after in zip(states, line, states[1:], strict=False):
        assert before.play(turn) == after
    assert eval(repr(line), {"Line": Line, "State": State}) == line
    assert line[: len(line)] == line and len(line[:0]) == 0
    if played:
        assert line[:-1].play(played[-1]) == line
        assert line[1:].start == states[1] and line[1:].notation() == played[1:]


def test_an_illegal_turn_names_its_number():
    with pytest.raises(IllegalTurnError, match=r"turn 2: ") as caught:
        Line(new_game(), ["He>Fi a3x", "Wa>He a3"])
    assert caught.value.turn == "Wa>He a3"
    with pytest.raises(IllegalTurnError, match=r"turn 1: .*not a Ba Gua space"):
        Line(new_game(), ["Zz a3"])


def test_a_turn_after_the_end_is_refused():
    over = State(
        "field/grasshopper/current 8/8/8/8/8/8/8/8 h8:0:3 e7-d7-d6:1:0 B/W/B/WB/WB/-/W/- 7:5 w 451"
    )
    with pytest.raises(IllegalTurnError, match="turn 1: the game is over"):
        Line(over, ["He a1"])


def test_a_line_needs_a_state_and_no_step():
    with pytest.raises(TaoLongError, match="starts from a State"):
        Line("field", [])
    line = Line(new_game(), ["Wa>He a3,a4", "Ea>Wa f8x"])
    with pytest.raises(TaoLongError, match="without a step"):
        line[::2]
    assert line.text() == "1. Wa>He a3,a4  2. Ea>Wa f8x"
    picture = line._repr_svg_()  # the end, with the last turn drawn on it
    assert line.end.to_tln() in picture and 'data-turn="Ea&gt;Wa f8x"' in picture
