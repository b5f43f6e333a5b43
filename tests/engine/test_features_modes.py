"""Monk, Master and Chosen One (rulebook "THE MODES"; decisions A23-A27)."""

import pytest

from taolong_lab import RulesError, State, new_game

START_CELLS = "8/8/8/8/8/8/8/8 a2-a1-b1-b2:{w} g8-h8-h7-g7:{b}"


def monk(stacks: str, w="4:0", b="4:0", centre="0:8", mode="monk") -> State:
    return State(f"field/{mode}/current {START_CELLS.format(w=w, b=b)} {stacks} {centre} w 3")


def test_focus_makes_the_other_dragon_act_and_pays_the_penalty():
    """'Whenever all the four stones of a color get to the same space on the Ba Gua, a focus
    effect occurs. The dragon of the same color of those four stones must perform that space's
    action, even if it isn't its turn. If the action is not possible, the dragon ignores it
    entirely and loses 1 lifepoint' (A23, A24). Black faces west: Heaven is impossible."""
    s = monk("BBB/-/WW/-/-/-/WW/B")
    turns = {str(t) for t in s.legal_turns() if str(t).startswith("Wi")}
    assert turns == {"Wi>He {b:-} a3", "Wi>He {b:-} a3,a4"}
    after = s.play("Wi>He {b:-} a3")
    assert after.dragon("black").water == 3 and after.centre == (1, 8)


def test_focus_action_is_chosen_and_written_in_the_turn():
    """'The dragon of the same color of those four stones must perform that space's action'
    (A24: its controller chooses; here black faces west, so Lake keeps it in place)."""
    s = monk("B/BBB/WW/-/-/-/WW/-")
    assert {str(t) for t in s.legal_turns() if str(t).startswith("He")} == {"He>La {b:=} a3"}


def test_balance_matches_the_opponents_meters():
    """'Whenever there is one stone of a single color on all four main spaces on the board of
    Ba Gua - Heaven, Earth, Fire and Water - a Balance effect occurs. The dragon in the color of
    the four single stones on those spaces must adjust its water stone and fire stone quantities
    so that they are equal to its opponent's' (A23, A25)."""
    s = monk("W/BB/W/BB/W/W/-/-", w="2:0", b="4:3", centre="2:5")
    after = s.play("Mo>Wa a3+")
    white = after.dragon("white")
    assert (white.water, white.fire) == (4, 3) and after.centre == (0, 2)


def test_drop_priority_triggers_effects_first():
    """'1) If Focus and Balance effects can be triggered, they must be.' (A26: the white stone
    must go to Lake, where it completes four whites.)"""
    s = monk("BW/WWW/-/-/BB/-/B/-")
    sown = {str(t).split()[0] for t in s.legal_turns() if str(t).startswith("He")}
    assert sown == {"He/WB>Fi"}


def test_drop_priority_then_makes_effects_imminent():
    """'2) If Focus and Balance effects can be made imminent (3 stones of a color in a single
    space and 3 main spaces with exactly 1 stone of a color), they must be.' (A26)"""
    s = monk("BW/WW/-/-/BB/-/BW/-")
    sown = {str(t).split()[0] for t in s.legal_turns() if str(t).startswith("He")}
    assert sown == {"He/WB>Fi"}  # W on Lake makes three whites there


def test_drop_choice_left_to_the_player():
    """'3) All remaining stones are dropped on the remaining spaces as the active player
    chooses.' Neither arrangement triggers or makes imminent anything more than the other."""
    s = monk("WB/-/-/-/BB/W/WB/W")
    sown = {str(t).split()[0] for t in s.legal_turns() if str(t).startswith("He")}
    assert len(sown) == 2 and all(x.startswith("He/") for x in sown)


def test_master_flow_follows_the_majority_and_flips_the_coin():
    """'If the majority of stones collected from the space are white, the Ba Gua flows
    clockwise. ... If a player selects a space that results in the Ba Gua flowing in the
    opposite direction from the direction shown on the flux coin, it must be flipped.' (A27)"""
    s = new_game(mode="master")
    assert s.flux == "ccw"
    after = s.play("He>Wa a3+")  # two whites flow clockwise: Wind, then Water
    assert after.flux == "cw"
    assert after.to_tln().split()[4] == "-/-/BW/-/BB/-/WBW/W@cw"


def test_master_tie_follows_the_coin():
    """'When a player selects a space with the same number of white and black stones, the Ba
    Gua flows in the direction indicated by the flux coin.' Water holds one of each: with the
    coin on counterclockwise it lands on Heaven; on clockwise, on Earth (impossible for white,
    who faces south)."""
    ccw = new_game(mode="master")
    landed = {str(t).split()[0].split(">")[1] for t in ccw.legal_turns() if str(t)[:2] == "Wa"}
    assert landed == {"He"}
    cw = State(ccw.to_tln().replace("@ccw", "@cw"))
    assert not [t for t in cw.legal_turns() if str(t)[:2] == "Wa"]


def test_chosen_one_plays_master_rules():
    """'Use only the board of Ba Gua. The movement occurs in the players' minds.' (A32: the same
    rules as Master; only the views hide the Board of Human)"""
    master = [str(t) for t in new_game(mode="master").legal_turns()]
    chosen = [str(t) for t in new_game(mode="chosen-one").legal_turns()]
    assert master == chosen


def test_earlier_edition_builds_only_its_scenarios():
    """Earlier edition components: '1 rock tile; 4 portals' (facts §4), so only The Field and
    The Valley can be set up with it."""
    assert new_game("valley", edition="earlier").rules.edition == "earlier"
    with pytest.raises(RulesError, match="The Gorge"):
        new_game("gorge", edition="earlier")
