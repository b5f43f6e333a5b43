"""Rules: damage, lost segments and the end of the game.

Attacks here: white "d6 d7 d8 e8" (facing north) steps to d5 and expels fire; the ruler then
covers A=d4 (2), B=d3 (1), C=d2 (0), L=c4 (1), R=e4 (1); the fire bonus is white's fire.
Quotes (``>`` lines) are from the current rulebook.
"""

from __future__ import annotations

import pytest
from positions import D, only_on, pieces, position, turns

from taolong_lab import Dragon, IllegalTurnError, Result
from taolong_lab.engine.core import damage

ATTACKER = "d6 d7 d8 e8"
AFTER = "d5-d6-d7-d8"


def _fire_expel(black: D, fire: int = 1):
    s = position(D(ATTACKER, fire=fire), black, bagua=only_on("Fi"))
    return s.play("Fi>Fi d5x")


@pytest.mark.parametrize(
    ("black", "after_black", "centre"),
    [
        ("d2 c2 b2 a2", "d2-c2-b2-a2:3:0", "1:8"),  # C: 0 + 1
        ("d3 c3 b3 a3", "d3-c3-b3-a3:2:0", "2:8"),  # B: 1 + 1
        ("d4 d3 d2 d1", "d4-d3-d2-d1:1:0", "3:8"),  # A: 2 + 1
    ],
)
def test_each_damage_point_returns_one_water_stone(black, after_black, centre):
    """Each point of damage moves one water stone from the victim's meter to the centre.

    > The attacked dragon then loses lifepoints, returning a water stone to the center of the
    > Ba Gua for each damage taken.
    Decision: A14
    """
    assert pieces(_fire_expel(D(black))) == (f"{AFTER}:4:0", after_black, centre)


def test_empty_meter_loses_the_tail_and_refills():
    """Two damage on a meter of 2 empties it: the tail segment (the one furthest from the
    head, a3) is removed and the meter is refilled to 4 from the centre.

    > A dragon loses a segment as soon as its water meter - that is, its life – is depleted.
    > Remove the segment furthest from the dragon's head – the tail – and place it on the
    > appropriate area on the board of Ba Gua.
    > After removing a segment, if the damage doesn't result in a defeat, the injured dragon's
    > water meter is immediately fully replenished, with any remaining damage being applied
    > afterwards.
    Decision: A14
    """
    after = _fire_expel(D("d3 c3 b3 a3", water=2))
    assert pieces(after) == (f"{AFTER}:4:0", "d3-c3-b3:4:0", "0:8")
    assert after.dragon("black").segments == 2


def test_remaining_damage_is_applied_after_the_refill():
    """Three damage on a meter of 1: the first empties it (tail lost, refill to 4), the other
    two are taken from the refilled meter.

    > After removing a segment, if the damage doesn't result in a defeat, the injured dragon's
    > water meter is immediately fully replenished, with any remaining damage being applied
    > afterwards.
    Decision: A14
    """
    after = _fire_expel(D("d4 d3 d2 d1", water=1))
    assert pieces(after) == (f"{AFTER}:4:0", "d4-d3-d2:2:0", "2:8")


def test_a_big_hit_can_remove_two_segments():
    """Six damage (A 2 + 4 fire) on a meter of 1: one stone empties it (segment lost, refill),
    four more empty it again (second segment lost, refill), the last leaves 3.

    > Remember that a dragon loses a segment as soon as its water stone meter is depleted,
    > which is then immediately replenished so that any remaining damage can be dealt.
    Decision: A14
    """
    after = _fire_expel(D("d4 d3 d2 d1", water=1), fire=4)
    assert pieces(after) == (f"{AFTER}:4:0", "d4-d3:3:0", "1:8")
    assert after.outcome() is None


def test_losing_the_last_segment_ends_the_game():
    """A one-segment dragon with one water stone hit for 2: the first stone empties its meter,
    the last segment goes, its head is flipped (TLN: the head alone, water 0) and the game is
    over at once: white wins, no further turns exist, and playing raises.

    > As soon as one of the dragons has lost its third segment, the winner flips the opposing
    > dragon's head, thus ending the game.
    > When the final segment of a dragon is removed, flip its head, thus marking its defeat.
    Decision: A14
    """
    after = _fire_expel(D("d4 d3", water=1), fire=0)
    assert pieces(after) == (f"{AFTER}:4:0", "d4:0:0", "4:8")
    assert after.outcome() == Result("white", "black lost its last segment")
    assert after.is_over()
    assert after.legal_turns() == []
    assert after.successors() == []
    with pytest.raises(IllegalTurnError) as err:
        after.play("He>La a1")
    assert "the game is over" in err.value.reason


def test_damage_stops_at_defeat():
    """Damage beyond what defeats a dragon is not taken: 6 damage on a one-segment dragon
    with 2 water moves only 2 stones to the centre.

    > As soon as one of the dragons has lost its third segment, the winner flips the opposing
    > dragon's head, thus ending the game.
    Decision: A14
    """
    after = _fire_expel(D("d4 d3", water=2), fire=4)
    assert pieces(after) == (f"{AFTER}:4:0", "d4:0:0", "4:8")
    assert after.outcome() == Result("white", "black lost its last segment")


def test_a_bite_can_end_the_game():
    """A bite on a last segment with one water stone defeats the dragon.

    > The bitten dragon loses 1 lifepoint by returning one water stone to the center of the
    > Ba Gua.
    > Defeat the opposing dragon by eliminating all of its segments.
    """
    s = position("d4 d3 d2 d1", D("d6 e6", water=1), bagua=only_on("He"))
    after = s.play("He>He d5")
    assert pieces(after) == ("d5-d4-d3-d2:4:0", "d6:0:0", "4:8")
    assert after.outcome() == Result("white", "black lost its last segment")
    assert turns(after) == []


def test_black_wins_by_defeating_white():
    """The same rule for black: black's breath defeats white's last segment.

    > Defeat the opposing dragon by eliminating all of its segments.
    """
    s = position(D("d4 d3", water=1), D(ATTACKER, fire=1), side="b", bagua=only_on("Fi"))
    after = s.play("Fi>Fi d5x")
    assert pieces(after) == ("d4:0:0", f"{AFTER}:4:0", "4:8")
    assert after.outcome() == Result("black", "white lost its last segment")
    assert after.legal_turns() == []


def test_a_dragon_has_twelve_lifepoints():
    """Three segments of four water stones: 11 damage leaves the head and one segment with one
    stone; the 12th defeats it. Stones move one at a time, and a refill takes 4 from the
    centre.

    > A dragon loses a segment as soon as its water meter - that is, its life – is depleted.
    Decision: A14
    """
    full = Dragon((0, 1, 2, 3), 4, 0)
    assert damage(full, 11, 0, 4) == (Dragon((0, 1), 1, 0), 3)
    assert damage(full, 12, 0, 4) == (Dragon((0,), 0, 0), 4)
    assert damage(full, 20, 0, 4) == (Dragon((0,), 0, 0), 4)
    assert damage(full, 4, 0, 4) == (Dragon((0, 1, 2), 4, 0), 0)
