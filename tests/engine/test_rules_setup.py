"""Rules: the setup, the board and its pieces.

Every test quotes the rulebook sentence it checks on its ``>`` lines (the current rulebook,
unless marked ``[earlier]``) and names the decision (A1-A32) when one applies;
``tests/test_docs_rules.py`` checks the quotes.
"""

from __future__ import annotations

import pytest
from positions import D, position, turns

from taolong_lab import PositionError, State, new_game
from taolong_lab.rules.data import game_data

START_TLN = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 "
    "WW/-/BW/-/BB/-/WB/- 0:8 w 1"
)


def test_start_position_is_exact():
    """The whole start position of the default game, as TLN.

    > 3) On the board of Ba Gua, lay 2 white stones on Heaven, 2 black stones on Earth, 1 white
    > stone on top of 1 black stone on Fire and the opposite on Water.
    > 4) Lay 4 water stones on each dragon's water meter on the board of Ba Gua.
    > 5) Lay the fire stones on the center of the Ba Gua.
    """
    assert new_game().to_tln() == START_TLN
    assert State().to_tln() == START_TLN


def test_start_dragon_cells_and_facings():
    """White (Tianlong) is coiled in the top-left corner with its head on (0,1) facing south;
    black (Dilong) mirrors it in the bottom-right corner, head (6,7) facing west. The cells
    are data (data/board.toml, sourced from fan code).

    > 6) Setup the board of Human according to the selected scenario among those suggested
    > later in this rulebook.
    > Each set of dragon tiles are always arranged sequentially on the board, with the head to
    > the front.
    """
    s = new_game()
    assert s.cells("white") == [(0, 1), (0, 0), (1, 0), (1, 1)]
    assert s.cells("black") == [(6, 7), (7, 7), (7, 6), (6, 6)]
    assert s.facing("white") == "S"
    assert s.facing("black") == "W"
    assert s.dragon("white").segments == s.dragon("black").segments == 3
    data = game_data()
    assert data.dragon_names == ("Tianlong", "Dilong")


def test_board_is_an_8x8_grid_named_from_the_top_left():
    """The Board of Human is 8x8; a cell is named by its column letter and its row counted
    from the top, so a1 = (0, 0), h8 = (7, 7), c5 = (2, 4). Nothing exists beyond h8.

    > In the game board, the board of Human is a quadrangular grid representing the world
    > disputed by the dragons.
    """
    data = game_data()
    assert (data.width, data.height) == (8, 8)
    s = position("h8 h7 g7 g6", "a1 b1 c1 d1")
    assert s.cells("white") == [(7, 7), (7, 6), (6, 6), (6, 5)]
    assert s.cells("black") == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert position("c5 c4 c3 c2", "a1 b1").cells("white")[0] == (2, 4)
    with pytest.raises(PositionError) as err:
        position("i1 h1 g1 f1", "a8 b8 c8 d8")
    assert err.value.field == "white.cells[0]"


@pytest.mark.parametrize(
    ("cells", "facing"),
    [
        ("d4 d5 d6 d7", "N"),
        ("d4 c4 b4 a4", "E"),
        ("d4 d3 d2 d1", "S"),
        ("d4 e4 f4 g4", "W"),
        ("d4 d3", "S"),
        ("d4 e4 e5 e6", "W"),
    ],
)
def test_facing_is_the_direction_from_neck_to_head(cells, facing):
    """A dragon faces the way its head points: from the neck (the segment next to the head)
    to the head. The body behind the neck does not matter.

    > Each set of dragon tiles are always arranged sequentially on the board, with the head to
    > the front.
    """
    assert position(cells, "h8 g8 f8 e8").facing("white") == facing


def test_start_ba_gua_stacks():
    """Heaven holds two white stones, Earth two black ones, Fire black under white and Water
    white under black; the other four spaces are empty. Stacks are written base first.

    > 3) On the board of Ba Gua, lay 2 white stones on Heaven, 2 black stones on Earth, 1 white
    > stone on top of 1 black stone on Fire and the opposite on Water.
    """
    assert new_game().bagua == ("WW", "", "BW", "", "BB", "", "WB", "")


def test_start_meters_and_centre():
    """Each dragon starts with 4 water stones (its life) and no fire; the centre holds all 8
    fire stones and no water.

    > 4) Lay 4 water stones on each dragon's water meter on the board of Ba Gua.
    > 5) Lay the fire stones on the center of the Ba Gua.
    """
    s = new_game()
    assert (s.dragon("white").water, s.dragon("white").fire) == (4, 0)
    assert (s.dragon("black").water, s.dragon("black").fire) == (4, 0)
    assert s.centre == (0, 8)


def test_heaven_dragon_plays_first_then_players_alternate():
    """White (the heaven dragon) moves first; then the players alternate, one turn each.

    > The heaven dragon plays first.
    > On their turn, each player completes the following phases:
    """
    s = new_game()
    assert (s.to_move, s.ply) == ("white", 0)
    s = s.play("Wa>He a3")
    assert (s.to_move, s.ply) == ("black", 1)
    s = s.play("Ea>Wa f8+")
    assert (s.to_move, s.ply) == ("white", 2)
    assert s.to_tln().endswith(" w 3")


def test_exactly_six_legal_turns_at_the_start():
    """At the start white has exactly six legal turns: Heaven's two stones land on Fire, Earth's
    on Water, Water's on Heaven (one or two steps); Fire's land on Earth, which is impossible
    for a dragon facing south, so sowing Fire is forbidden.

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    """
    assert turns(new_game()) == [
        "He>Fi a3+",
        "He>Fi a3x",
        "Ea>Wa a3+",
        "Ea>Wa a3x",
        "Wa>He a3",
        "Wa>He a3,a4",
    ]


def test_stones_are_conserved_by_every_turn():
    """No stone enters or leaves the game: 8 water and 8 fire stones split between the meters
    and the centre, and 4 white + 4 black Ba Gua stones, after every turn of two plies.

    > All gain and loss of such stones occurs between the water and fire meter of each dragon
    > and the center of the Ba Gua.
    """
    frontier = [new_game(), position(D("d6 d7 d8 e8", water=2, fire=3), "d3 c3 b3 a3")]
    seen = 0
    for _ in range(2):
        nxt = []
        for s in frontier:
            for _, after in s.successors():
                w, b = after.dragon("white"), after.dragon("black")
                assert after.centre[0] + w.water + b.water == 8
                assert after.centre[1] + w.fire + b.fire == 8
                stones = "".join(after.bagua)
                assert (stones.count("W"), stones.count("B"), len(stones)) == (4, 4, 8)
                nxt.append(after)
                seen += 1
        frontier = nxt
    assert seen > 100
