"""Rules: moving a dragon, and the movement of each element.

Most positions put all eight Ba Gua stones on one space (``only_on``): sowing it lands back
on the same space (A12), so that element is the only Spirit choice. Where a forbidden choice
must be shown next to a legal one, a second stack lands on a Lake or Mountain that stays put
(always possible, A6). Quotes (``>`` lines) are from the current rulebook.
"""

from __future__ import annotations

import pytest
from positions import fields, first_phases, only_on, position, turns

from taolong_lab import IllegalTurnError

FAR = "g8 h8 h7 g7"  # a black dragon out of the way
SOUTH = "d4 d3 d2 d1"  # white head d4 facing south
NORTH = "d5 d6 d7 d8"  # white head d5 facing north
EAST = "d5 c5 b5 a5"  # white head d5 facing east
WEST = "e4 f4 g4 h4"  # white head e4 facing west


# ---- the snake step ------------------------------------------------------------------------
def test_head_moves_and_tail_fills_the_old_head_cell():
    """A step places the head on the new cell and moves the tail segment to the cell the head
    left; every other segment stays where it is.

    > 1) Place its head according to the movement performed.
    > 2) Place the tail segment of the dragon on the space where the head was, flipping and
    > turning the tile in order to connect the entire body again.
    """
    s = position("d4 d3 c3 c2", FAR, bagua=only_on("La"))
    assert fields(s.play("La>La e4"))["white"] == "e4-d4-d3-c3:4:0"
    assert fields(s.play("La>La d5"))["white"] == "d5-d4-d3-c3:4:0"
    assert fields(s.play("La>La c4"))["white"] == "c4-d4-d3-c3:4:0"


def test_facing_after_a_step_is_the_step_direction():
    """After a step the dragon faces the way it moved (the neck is the old head cell).

    > Each set of dragon tiles are always arranged sequentially on the board, with the head to
    > the front.
    """
    s = position(SOUTH, FAR, bagua=only_on("La"))
    assert s.play("La>La e4").facing("white") == "E"
    assert s.play("La>La d5").facing("white") == "S"
    assert s.play("La>La c4").facing("white") == "W"


# ---- Heaven and Earth ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("white", "expected", "two_steps"),
    [
        (SOUTH, ["He>He d5", "He>He d5,d6"], "d6-d5-d4-d3:4:0"),
        (NORTH, ["He>He d4", "He>He d4,d3"], "d3-d4-d5-d6:4:0"),
    ],
)
def test_heaven_moves_one_or_two_steps_forward_on_the_vertical(white, expected, two_steps):
    """Heaven moves the dragon straight ahead along its vertical facing, 1 or 2 spaces (the
    second step optional); each step is a full snake step, so the body follows.

    > Heaven causes the player to move their dragon 1 or 2 spaces in a straight vertical line.
    Decision: A1, A3
    """
    s = position(white, FAR, bagua=only_on("He"))
    assert turns(s) == expected
    assert fields(s.play(expected[1]))["white"] == two_steps
    assert s.play(expected[1]).facing("white") == s.facing("white")


@pytest.mark.parametrize(
    ("white", "expected", "two_steps"),
    [
        (EAST, ["Ea>Ea e5", "Ea>Ea e5,f5"], "f5-e5-d5-c5:4:0"),
        (WEST, ["Ea>Ea d4", "Ea>Ea d4,c4"], "c4-d4-e4-f4:4:0"),
    ],
)
def test_earth_moves_one_or_two_steps_forward_on_the_horizontal(white, expected, two_steps):
    """Earth moves the dragon straight ahead along its horizontal facing, 1 or 2 spaces.

    > Earth causes the player to move their dragon 1 or 2 spaces in a straight horizontal line.
    Decision: A1, A3
    """
    s = position(white, FAR, bagua=only_on("Ea"))
    assert turns(s) == expected
    assert fields(s.play(expected[1]))["white"] == two_steps


@pytest.mark.parametrize(
    ("white", "bagua", "forbidden", "reason"),
    [
        # Wi (1 stone) -> Heaven; Fi (7 stones) -> Lake, which stays on the horizontal
        (EAST, {"Wi": "W", "Fi": "WWWBBBB"}, "Wi>He e5", "Heaven, which needs a vertical facing"),
        # Th (1 stone) -> Earth; Wa (7 stones) -> Mountain, which stays on the vertical
        (SOUTH, {"Th": "W", "Wa": "WWWBBBB"}, "Th>Ea e4", "Earth, which needs a horizontal facing"),
    ],
)
def test_heaven_and_earth_need_their_axis(white, bagua, forbidden, reason):
    """Heaven is impossible for a dragon facing horizontally and Earth for one facing
    vertically (a straight line, no turning), so those Spirit choices are forbidden.

    > Heaven causes the player to move their dragon 1 or 2 spaces in a straight vertical line.
    > Earth causes the player to move their dragon 1 or 2 spaces in a straight horizontal line.
    Decision: A1
    """
    s = position(white, FAR, bagua=bagua)
    stay = "Fi>La =" if "Fi" in bagua else "Wa>Mo ="
    assert turns(s) == [stay]
    with pytest.raises(IllegalTurnError) as err:
        s.play(forbidden)
    assert reason in err.value.reason


@pytest.mark.parametrize(
    ("black", "expected"),
    [
        ("d6 e6 f6 g6", ["He>He d5"]),  # an opponent tile two cells ahead
        ("c6 d6 e6 f6", ["He>He d5"]),
    ],
)
def test_heaven_second_step_blocked_leaves_only_one_step(black, expected):
    """When the second cell ahead holds a tile, only the one-step move remains.

    > Regarding movement, the edges of the board, all dragon, rock and village tiles and all
    > portals that for any reason don't have available destinations are insurmountable
    > obstacles.
    Decision: A3
    """
    assert turns(position(SOUTH, black, bagua=only_on("He"))) == expected


def test_heaven_second_step_blocked_by_the_board_edge():
    """Two cells from the bottom edge, facing south, Heaven can only step once.

    > Regarding movement, the edges of the board, all dragon, rock and village tiles and all
    > portals that for any reason don't have available destinations are insurmountable
    > obstacles.
    Decision: A3
    """
    s = position("a7 a6 a5 a4", FAR, bagua=only_on("He"))
    assert turns(s) == ["He>He a8"]
    assert fields(s.play("He>He a8"))["white"] == "a8-a7-a6-a5:4:0"


def test_heaven_cannot_jump_a_blocked_first_cell():
    """If the cell ahead holds a tile, Heaven is impossible even though the cell beyond is
    free: there is no jumping. With the start Ba Gua, sowing Water (which lands on Heaven) is
    then forbidden while Fire and Water steps stay legal.

    > Regarding movement, the edges of the board, all dragon, rock and village tiles and all
    > portals that for any reason don't have available destinations are insurmountable
    > obstacles.
    Decision: A3
    """
    s = position(SOUTH, "d5 e5 f5 g5")
    assert {p.split()[0] for p in first_phases(s)} == {"He>Fi", "Ea>Wa"}
    assert first_phases(s) == {
        f"{sown} {cell}{mark}"
        for sown in ("He>Fi", "Ea>Wa")
        for cell in ("e4", "c4")
        for mark in "+x"
    }
    with pytest.raises(IllegalTurnError) as err:
        s.play("Wa>He d6")
    assert "Heaven, which has no legal execution" in err.value.reason


# ---- Wind and Thunder ----------------------------------------------------------------------
def test_wind_turns_left_or_right_and_steps_once():
    """Wind turns a vertically facing head to either side of the horizontal axis and steps
    once; the dragon then faces that way. (The extra phase is tested in test_rules_turnflow.)

    > Wind causes the player to move by rotating their dragon's head from the vertical axis
    > to the horizontal axis and moving forward 1 space.
    Decision: A4
    """
    s = position(SOUTH, FAR, bagua=only_on("Wi"))
    assert first_phases(s) == {"Wi>Wi e4", "Wi>Wi c4"}
    after = s.play("Wi>Wi e4 ; He>La =")
    assert fields(after)["white"] == "e4-d4-d3-d2:4:0"
    assert after.facing("white") == "E"
    assert s.play("Wi>Wi c4 ; He>La =").facing("white") == "W"


def test_wind_blocked_side_leaves_the_other():
    """If one side is blocked, Wind can only turn to the other.

    > Wind causes the player to move by rotating their dragon's head from the vertical axis
    > to the horizontal axis and moving forward 1 space.
    Decision: A4
    """
    s = position(SOUTH, "e4 f4 g4 h4", bagua=only_on("Wi"))
    assert first_phases(s) == {"Wi>Wi c4"}


def test_wind_needs_a_vertical_facing():
    """A horizontally facing dragon cannot perform Wind; that Spirit choice is forbidden.

    > Wind causes the player to move by rotating their dragon's head from the vertical axis
    > to the horizontal axis and moving forward 1 space.
    Decision: A4
    """
    # Wa (1 stone) -> Wind; Fi (7 stones) -> Lake, which stays on the horizontal
    s = position(EAST, FAR, bagua={"Wa": "W", "Fi": "WWWBBBB"})
    assert turns(s) == ["Fi>La ="]
    with pytest.raises(IllegalTurnError) as err:
        s.play("Wa>Wi d4 ; He>La =")
    assert (
        "Wind, which needs a vertical facing, but the white dragon faces east" in err.value.reason
    )


def test_thunder_turns_up_or_down_and_steps_once():
    """Thunder turns a horizontally facing head to either side of the vertical axis and steps
    once.

    > Thunder causes the player to move by rotating their dragon's head from the horizontal
    > axis to the vertical axis and moving forward 1 space.
    Decision: A4
    """
    s = position(EAST, FAR, bagua=only_on("Th"))
    assert first_phases(s) == {"Th>Th d4", "Th>Th d6"}
    up = s.play("Th>Th d4 ; Ea>Mo =")
    assert fields(up)["white"] == "d4-d5-c5-b5:4:0"
    assert up.facing("white") == "N"
    assert s.play("Th>Th d6 ; Ea>Mo =").facing("white") == "S"


def test_thunder_blocked_side_leaves_the_other():
    """If one side is blocked, Thunder can only turn to the other.

    > Thunder causes the player to move by rotating their dragon's head from the horizontal
    > axis to the vertical axis and moving forward 1 space.
    Decision: A4
    """
    s = position(EAST, "d4 e4 f4 g4", bagua=only_on("Th"))
    assert first_phases(s) == {"Th>Th d6"}


def test_thunder_needs_a_horizontal_facing():
    """A vertically facing dragon cannot perform Thunder.

    > Thunder causes the player to move by rotating their dragon's head from the horizontal
    > axis to the vertical axis and moving forward 1 space.
    Decision: A4
    """
    # Fi (1 stone) -> Thunder; Wa (7 stones) -> Mountain, which stays on the vertical
    s = position(SOUTH, FAR, bagua={"Fi": "W", "Wa": "WWWBBBB"})
    assert turns(s) == ["Wa>Mo ="]
    with pytest.raises(IllegalTurnError) as err:
        s.play("Fi>Th e4 ; He>La =")
    assert "Thunder, which needs a horizontal facing, but the white dragon faces south" in (
        err.value.reason
    )


def test_wind_with_both_sides_blocked_is_impossible():
    """Wind is possible if either side is free; with both blocked it is impossible.

    > Wind causes the player to move by rotating their dragon's head from the vertical axis
    > to the horizontal axis and moving forward 1 space.
    Decision: A4
    """
    # white in the bottom-left corner area: west is the edge, east is black
    s = position("a7 a6 a5 a4", "b7 b8 c8 d8", bagua={"Wa": "W", "He": "WWWBBBB"})
    # Wa -> Wind (impossible); He (7 stones) -> Wind too, so every choice is impossible
    assert turns(s) == ["He>Wi -", "Wa>Wi -"]


# ---- Lake and Mountain ---------------------------------------------------------------------
def test_lake_moves_any_free_direction_when_facing_vertically():
    """Lake on the vertical axis: one step in any free orthogonal direction (backwards is the
    neck, so at most three).

    > Lake causes the player to move their dragon's head 1 space in any direction when facing
    > the vertical axis.
    Decision: A5
    """
    s = position(SOUTH, FAR, bagua=only_on("La"))
    assert turns(s) == ["La>La e4", "La>La d5", "La>La c4"]
    n = position(NORTH, FAR, bagua=only_on("La"))
    assert turns(n) == ["La>La d4", "La>La e5", "La>La c5"]


def test_lake_stays_when_facing_horizontally():
    """Lake on the horizontal axis: the dragon does not move, and that is a legal action.

    > When facing the horizontal direction, the player doesn't move their dragon.
    Decision: A6
    """
    for white in (EAST, WEST):
        s = position(white, FAR, bagua=only_on("La"))
        assert turns(s) == ["La>La ="]
        after = s.play("La>La =")
        assert fields(after)["white"] == fields(s)["white"]
        assert after.to_move == "black"


def test_mountain_moves_any_free_direction_when_facing_horizontally():
    """Mountain on the horizontal axis: one step in any free orthogonal direction.

    > Mountain causes the player to move their dragon's head 1 space in any direction when
    > facing the horizontal axis.
    Decision: A5
    """
    s = position(EAST, FAR, bagua=only_on("Mo"))
    assert turns(s) == ["Mo>Mo d4", "Mo>Mo e5", "Mo>Mo d6"]
    w = position(WEST, FAR, bagua=only_on("Mo"))
    assert turns(w) == ["Mo>Mo e3", "Mo>Mo e5", "Mo>Mo d4"]
    assert fields(s.play("Mo>Mo d6"))["white"] == "d6-d5-c5-b5:4:0"


def test_mountain_stays_when_facing_vertically():
    """Mountain on the vertical axis: the dragon does not move (a legal action).

    > When facing the vertical direction, the player doesn't move their dragon.
    Decision: A6
    """
    for white in (SOUTH, NORTH):
        s = position(white, FAR, bagua=only_on("Mo"))
        assert turns(s) == ["Mo>Mo ="]
        assert fields(s.play("Mo>Mo ="))["white"] == fields(s)["white"]


def test_lake_on_its_axis_with_every_cell_blocked_is_impossible():
    """The free move of Lake needs a free neighbour; staying is only for the other axis, so
    a boxed-in vertically facing dragon cannot perform Lake and that choice is forbidden.

    > Lake causes the player to move their dragon's head 1 space in any direction when facing
    > the vertical axis.
    Decision: A5, A6
    """
    # white head a8 facing south: the edge below and west, black on b8, the neck above
    # He (1 stone) -> Lake; Wa (7 stones) -> Mountain, which stays on the vertical
    s = position("a8 a7 a6 a5", "b8 c8 d8 e8", bagua={"He": "W", "Wa": "WWWBBBB"})
    assert turns(s) == ["Wa>Mo ="]


# ---- Fire and Water ------------------------------------------------------------------------
@pytest.mark.parametrize("element", ["Fi", "Wa"])
@pytest.mark.parametrize(
    ("white", "cells"),
    [
        (SOUTH, ["e4", "d5", "c4"]),
        (NORTH, ["d4", "e5", "c5"]),
        (EAST, ["d4", "e5", "d6"]),
        (WEST, ["e3", "e5", "d4"]),
    ],
)
def test_fire_and_water_step_any_free_direction_then_absorb_or_expel(element, white, cells):
    """Fire and Water step once in any free orthogonal direction whatever the facing, then
    the player must absorb (+) or expel (x).

    > Fire causes the player to move their dragon 1 space in any direction, regardless of the
    > axis the dragon is facing.
    > After moving, the player chooses between absorbing or expelling fire.
    > Water causes the player to move their dragon 1 space in any direction, regardless of the
    > axis the dragon is facing.
    > After moving, the player chooses between absorbing or expelling water.
    Decision: A5, A13
    """
    s = position(white, FAR, bagua=only_on(element))
    expected = [f"{element}>{element} {c}{mark}" for c in cells for mark in "+x"]
    assert turns(s) == expected


def test_fire_needs_a_step_before_its_effect():
    """Fire with no free neighbour is impossible (no absorb or expel without a move).

    > Fire causes the player to move their dragon 1 space in any direction, regardless of the
    > axis the dragon is facing.
    """
    # Fi (1 stone) -> Thunder (impossible, facing south); Ea (6) -> Fire (boxed in);
    # Wa (1 stone) -> Wind (both sides blocked): every choice is impossible.
    s = position("a8 a7 a6 a5", "b8 c8 d8 e8", bagua={"Fi": "W", "Ea": "WWBBBB", "Wa": "W"})
    assert turns(s) == ["Fi>Th -", "Ea>Fi -", "Wa>Wi -"]


def test_absorb_or_expel_is_compulsory():
    """After the Fire or Water step the player must choose absorb or expel; a bare step is not
    a legal turn.

    > After moving, the player chooses between absorbing or expelling fire.
    Decision: A13
    """
    s = position(SOUTH, FAR, bagua=only_on("Fi"))
    with pytest.raises(IllegalTurnError) as err:
        s.play("Fi>Fi d5")
    assert "absorb + or expel x is compulsory" in err.value.reason


# ---- obstacles -----------------------------------------------------------------------------
def test_opponent_tiles_and_edges_block_steps():
    """Opponent tiles and the board edge are obstacles: Lake facing south with black beside
    the head keeps only the other free cells; against the west edge, only one remains.

    > Regarding movement, the edges of the board, all dragon, rock and village tiles and all
    > portals that for any reason don't have available destinations are insurmountable
    > obstacles.
    """
    s = position("c4 c3 c2 c1", "d4 d5 d6 d7", bagua=only_on("La"))
    assert turns(s) == ["La>La c5", "La>La b4"]
    edge = position("a4 a3 a2 a1", "b4 b5 b6 b7", bagua=only_on("La"))
    assert turns(edge) == ["La>La a5"]


def test_own_tail_blocks_in_the_current_edition():
    """The head is placed before the tail moves, so the cell the tail is about to leave is
    still occupied: from the start coil, Lake can only go to a3 (b2 holds the tail).

    > 1) Place its head according to the movement performed.
    > 2) Place the tail segment of the dragon on the space where the head was, flipping and
    > turning the tile in order to connect the entire body again.
    Decision: A2
    """
    s = position("a2 a1 b1 b2", FAR, bagua=only_on("La"))
    assert turns(s) == ["La>La a3"]
    with pytest.raises(IllegalTurnError):
        s.play("La>La b2")


def test_backwards_onto_the_neck_is_never_possible():
    """A one-segment dragon's only segment is both neck and tail; the head still cannot step
    back onto it.

    > Regarding movement, the edges of the board, all dragon, rock and village tiles and all
    > portals that for any reason don't have available destinations are insurmountable
    > obstacles.
    Decision: A5
    """
    s = position("d4 d3", FAR, bagua=only_on("Fi"))
    assert [t for t in turns(s) if t.endswith("+")] == ["Fi>Fi e4+", "Fi>Fi d5+", "Fi>Fi c4+"]
