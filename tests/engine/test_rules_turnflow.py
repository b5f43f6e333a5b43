"""Rules: the turn (Spirit then Matter), forbidden choices, the penalty, the extra phase.

Quotes (``>`` lines) are from the current rulebook.
"""

from __future__ import annotations

import pytest
from positions import RULES, D, fields, first_phases, only_on, pieces, position, turns

from taolong_lab import IllegalTurnError, NotationError, Result, Turn, new_game

SOUTH = "d4 d3 d2 d1"
EAST = "d5 c5 b5 a5"
FAR = "g8 h8 h7 g7"
# White's head on a8 facing south: the edge below and to the west, black on b8, the neck
# above. Only a Mountain (which stays on the vertical) would be possible, and the start
# Ba Gua never lands on Mountain.
BOXED = "a8 a7 a6 a5"
BOXER = "b8 c8 d8 e8"


# ---- forbidden Spirit choices ----------------------------------------------------------------
def test_forbidden_spirit_choice_is_illegal_and_says_why():
    """At the start, sowing Fire lands on Earth, impossible for a dragon facing south: the
    choice is forbidden while others are possible, and the error says why.

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    Decision: A1, A10
    """
    s = new_game()
    assert not [t for t in turns(s) if t.startswith("Fi")]
    with pytest.raises(IllegalTurnError) as err:
        s.play("Fi>Ea b2")
    reason = err.value.reason
    assert "sowing Fi lands on Earth, which needs a horizontal facing" in reason
    assert "but the white dragon faces south" in reason
    assert "choose another space" in reason
    with pytest.raises(IllegalTurnError):
        s.parse_turn("Fi>Ea a3")


def test_forbidden_when_every_execution_is_blocked():
    """A choice is forbidden not only for the wrong axis but whenever the action has no legal
    execution: Heaven facing south with black straight ahead.

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    Decision: A10
    """
    s = position(SOUTH, "d5 e5 f5 g5")
    assert {t.split()[0] for t in turns(s)} == {"He>Fi", "Ea>Wa"}
    with pytest.raises(IllegalTurnError) as err:
        s.play("Wa>He d6")
    assert "Heaven, which has no legal execution" in err.value.reason


# ---- the penalty -----------------------------------------------------------------------------
def test_all_impossible_offers_every_nonempty_space_with_a_penalty():
    """When every choice is impossible, any non-empty space may be sown, the Matter phase is
    skipped (notation '-') and the dragon loses one water stone to the centre.

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    > In this situation, ignore the entire Matter phase and lose 1 lifepoint, by returning one
    > water stone to the center of the Ba Gua.
    Decision: A10
    """
    s = position(BOXED, BOXER)
    assert turns(s) == ["He>Fi -", "Fi>Ea -", "Ea>Wa -", "Wa>He -"]
    after = s.play("Ea>Wa -")
    assert pieces(after) == ("a8-a7-a6-a5:3:0", "b8-c8-d8-e8:4:0", "1:8")
    assert fields(after)["bagua"] == "WW/-/BW/-/-/B/WBB/-"
    assert after.to_move == "black"
    for turn, nxt in s.successors():
        assert turn.phases[0].penalty
        assert pieces(nxt) == ("a8-a7-a6-a5:3:0", "b8-c8-d8-e8:4:0", "1:8")


def test_penalty_is_illegal_while_a_choice_is_possible():
    """The penalty is only for when there is no other option.

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    Decision: A10
    """
    with pytest.raises(IllegalTurnError) as err:
        new_game().play("He>Fi -")
    assert "only when every choice is impossible" in err.value.reason


def test_penalty_skips_the_matter_phase():
    """When the penalty applies, no Matter execution is legal, not even writing a move.

    > In this situation, ignore the entire Matter phase and lose 1 lifepoint, by returning one
    > water stone to the center of the Ba Gua.
    Decision: A10
    """
    s = position(BOXED, BOXER)
    with pytest.raises(IllegalTurnError) as err:
        s.play("He>Fi a7+")
    assert "every choice is impossible" in err.value.reason


def test_penalty_can_cost_a_segment():
    """The lost lifepoint follows the damage rules: with one water stone left, the tail goes
    and the meter refills.

    > In this situation, ignore the entire Matter phase and lose 1 lifepoint, by returning one
    > water stone to the center of the Ba Gua.
    Decision: A10, A14
    """
    s = position(D(BOXED, water=1), BOXER)
    assert pieces(s.play("He>Fi -")) == ("a8-a7-a6:4:0", "b8-c8-d8-e8:4:0", "0:8")


def test_penalty_can_lose_the_game():
    """A one-segment dragon with one water stone that must take the penalty is defeated.

    > In this situation, ignore the entire Matter phase and lose 1 lifepoint, by returning one
    > water stone to the center of the Ba Gua.
    Decision: A10, A14
    """
    s = position(D("a8 a7", water=1), BOXER)
    assert turns(s) == ["He>Fi -", "Fi>Ea -", "Ea>Wa -", "Wa>He -"]
    after = s.play("Wa>He -")
    assert pieces(after) == ("a8:0:0", "b8-c8-d8-e8:4:0", "4:8")
    assert after.outcome() == Result("black", "white lost its last segment")
    assert after.legal_turns() == []


def test_penalty_in_the_extra_phase():
    """The rule also holds in the extra Spirit phase: after a Wind into the corner, every
    choice of the extra phase is impossible, so each non-empty space is offered with '-'.

    > After the action, the player must perform an extra Spirit phase and, thus, another
    > Matter phase.
    > In this situation, ignore the entire Matter phase and lose 1 lifepoint, by returning one
    > water stone to the center of the Ba Gua.
    Decision: A10, A11
    """
    # white head b8 facing south, own body on b7-a7-a6, black on c8.
    # Wa (1) -> Wind; Th (3) -> Water; Ea (4) -> Heaven (impossible, on the bottom edge).
    s = position("b8 b7 a7 a6", "c8 d8 e8 f8", bagua={"Wa": "W", "Th": "WWW", "Ea": "BBBB"})
    assert turns(s) == [
        "Th>Wa a8+",
        "Th>Wa a8x",
        "Wa>Wi a8 ; Th>Wa -",
        "Wa>Wi a8 ; Ea>He -",
        "Wa>Wi a8 ; Wi>He -",
    ]
    after = s.play("Wa>Wi a8 ; Wi>He -")
    assert pieces(after) == ("a8-b8-b7-a7:3:0", "c8-d8-e8-f8:4:0", "1:8")


def test_a_penalty_on_wind_gives_no_extra_phase():
    """A penalty skips the Matter phase, so a Wind that is never performed grants nothing.

    > In this situation, ignore the entire Matter phase and lose 1 lifepoint, by returning one
    > water stone to the center of the Ba Gua.
    Decision: A11
    """
    s = position("a7 a6 a5 a4", "b7 b8 c8 d8", bagua={"Wa": "W", "He": "WWWBBBB"})
    assert turns(s) == ["He>Wi -", "Wa>Wi -"]
    assert s.play("Wa>Wi -").to_move == "black"


# ---- the extra phase -------------------------------------------------------------------------
def test_wind_gives_exactly_one_extra_phase():
    """Every turn that starts with a Wind has exactly two phases; the extra phase is a full
    Spirit + Matter phase on the Ba Gua as the first one left it.

    > After the action, the player must perform an extra Spirit phase and, thus, another
    > Matter phase.
    Decision: A11
    """
    s = position(SOUTH, FAR, bagua=only_on("Wi"))
    assert all(len(t.phases) == 2 for t in s.legal_turns())
    assert len(s.legal_turns()) == 40
    second = [str(t.phases[1]) for t in s.legal_turns() if str(t.phases[0]) == "Wi>Wi e4"]
    assert second == [
        "He>La =",
        "La>Fi e3+",
        "La>Fi e3x",
        "La>Fi f4+",
        "La>Fi f4x",
        "La>Fi e5+",
        "La>Fi e5x",
        "Fi>Th e3",
        "Fi>Th e5",
        "Th>Ea f4",
        "Th>Ea f4,g4",
        "Ea>Mo e3",
        "Ea>Mo f4",
        "Ea>Mo e5",
        "Mo>Wa e3+",
        "Mo>Wa e3x",
        "Mo>Wa f4+",
        "Mo>Wa f4x",
        "Mo>Wa e5+",
        "Mo>Wa e5x",
    ]


def test_thunder_gives_exactly_one_extra_phase():
    """Thunder grants the extra phase too.

    > After the action, the player must perform an extra Spirit phase and, thus, another
    > Matter phase.
    Decision: A11
    """
    s = position(EAST, FAR, bagua=only_on("Th"))
    assert {len(t.phases) for t in s.legal_turns()} == {2}
    assert first_phases(s) == {"Th>Th d4", "Th>Th d6"}


def test_the_extra_phase_is_compulsory():
    """A Wind turn written without its extra phase is not a legal turn.

    > After the action, the player must perform an extra Spirit phase and, thus, another
    > Matter phase.
    Decision: A11
    """
    s = position(SOUTH, FAR, bagua=only_on("Wi"))
    with pytest.raises(IllegalTurnError) as err:
        s.play("Wi>Wi e4")
    assert "grants an extra phase" in err.value.reason


def test_wind_or_thunder_in_the_extra_phase_gives_no_more():
    """A Thunder performed in the extra phase ends the turn: no third phase.

    > Additional Wind or Thunder actions as a result of these extra phases do not generate
    > further extra phases.
    Decision: A11
    """
    s = position(SOUTH, FAR, bagua=only_on("Wi"))
    assert max(len(t.phases) for t in s.legal_turns()) == 2
    after = s.play("Wi>Wi e4 ; Fi>Th e3")
    assert fields(after)["white"] == "e3-e4-d4-d3:4:0"
    assert (after.to_move, after.ply) == ("black", 1)
    with pytest.raises(NotationError, match="at most two phases"):
        s.play("Wi>Wi e4 ; Fi>Th e3 ; He>La e2")
    three = Turn(Turn.parse("Wi>Wi e4 ; Fi>Th e3").phases + Turn.parse("He>La e2").phases)
    assert s.explain_illegal(three) == "a turn has at most two phases"


def test_no_extra_phase_once_the_game_is_over():
    """A Wind whose bite defeats the opponent ends the game at once: that turn has a single
    phase, and the other Wind (no bite) still has its extra phase.

    > As soon as one of the dragons has lost its third segment, the winner flips the opposing
    > dragon's head, thus ending the game.
    Decision: A11
    """
    s = position(SOUTH, D("f4 g4", water=1), bagua=only_on("Wi"))
    assert [t for t in turns(s) if t.startswith("Wi>Wi e4")] == ["Wi>Wi e4"]
    assert {len(t.phases) for t in s.legal_turns() if str(t).startswith("Wi>Wi c4")} == {2}
    after = s.play("Wi>Wi e4")
    assert pieces(after) == ("e4-d4-d3-d2:4:0", "f4:0:0", "4:8")
    assert after.outcome() == Result("white", "black lost its last segment")


def test_option_extra_phases_zero_turns_the_extra_phase_off():
    """Option ``extra_phases=0``: Wind and Thunder end the turn like any other action.

    > After the action, the player must perform an extra Spirit phase and, thus, another
    > Matter phase.
    Decision: A11
    """
    rules = RULES + "+extra_phases=0"
    s = position(SOUTH, FAR, bagua=only_on("Wi"), rules=rules)
    assert turns(s) == ["Wi>Wi e4", "Wi>Wi c4"]
    after = s.play("Wi>Wi e4")
    assert after.to_move == "black"
    assert fields(after)["rules"] == rules
    with pytest.raises(IllegalTurnError):
        s.play("Wi>Wi e4 ; He>La =")
    assert turns(new_game(extra_phases=0)) == turns(new_game())
