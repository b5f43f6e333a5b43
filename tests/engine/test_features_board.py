"""Rocks, breakable rocks, The Torus and The Village (rulebook "THE BOARD OF HUMAN",
"The Torus", "The Wall"/"The Cave", "THE VILLAGE"; decisions A20-A22)."""

from taolong_lab import State, new_game

WALL = "wall/grasshopper/current 7o/6o1/5o2/4o3/3o4/2o5/1o6/o7"
STACKS = "WW/-/BW/-/BB/-/WB/-"  # He>Fi, Fi>Ea, Ea>Wa, Wa>He


def board(state) -> str:
    return state.to_tln().split()[1]


def test_rocks_block_movement():
    """'Regarding movement, the edges of the board, all dragon, rock and village tiles ... are
    insurmountable obstacles.' (The Gorge's rocks are not breakable.)"""
    s = State(
        "gorge/grasshopper/current 6oo/6oo/8/3##3/3##3/8/oo6/oo6 "
        "f2-e2-d2-c2:4:0 c5-b5-b4-b3:4:0 WW/-/BW/-/BB/-/WB/- 0:8 w 5"
    )
    earth = [t for t in s.legal_turns() if t.phases[0].element == 4]
    assert earth == []  # g2 is rock


def test_trampling_destroys_the_rock_and_hurts_the_dragon():
    """'the player's dragon advances into the space with the small rock tile, destroying it
    immediately. The dragon receives damage equal to the damage needed to destroy the rock
    tile' (A21: the step then finishes normally, and a second step may follow)."""
    s = State(f"{WALL} f2-e2-d2-c2:4:0 h5-h6-h7-h8:4:0 {STACKS} 0:8 w 5")
    after = s.play("Fi>Ea g2")
    assert after.cells("white")[0] == (6, 1) and after.dragon("white").water == 2
    assert board(after).split("/")[1] == "8"
    assert s.play("Fi>Ea g2,h2").cells("white")[0] == (7, 1)


def test_trampling_a_damaged_rock_costs_one():
    """'Each rock takes 2 damage to destroy. On the first, it is flipped to its damaged side.'
    (trampling deals what the rock has left: 1 for a damaged rock)"""
    s = State(WALL.replace("6o1", "6d1", 1) + f" f2-e2-d2-c2:4:0 h5-h6-h7-h8:4:0 {STACKS} 0:8 w 5")
    assert s.play("Fi>Ea g2").dragon("white").water == 3


def test_bite_damages_a_rock_twice_to_destroy_it():
    """'Biting inflicts 1 damage to a small rock tile' ... 'On the first, it is flipped to its
    damaged side. On the second, it is removed from the board.'"""
    s = State(f"{WALL} e2-d2-c2-b2:4:0 h5-h6-h7-h8:4:0 {STACKS} 0:8 w 5")
    once = s.play("Fi>Ea f2")  # one step east: the head faces the rock on g2
    assert board(once).split("/")[1] == "6d1" and once.dragon("white").water == 4
    again = State(
        WALL.replace("6o1", "6d1", 1)
        + " f2-e2-d2-c2:4:0 h5-h6-h7-h8:4:0 W/-/BW/-/BB/-/WB/W 0:8 w 7"
    )
    twice = again.play("He>La =")  # facing east (horizontal): Lake stays, and bites again
    assert board(twice).split("/")[1] == "8"


def test_expel_damages_rocks_by_the_ruler_value_without_bonus():
    """'expelling causes the amount of damage indicated by the distance ruler, ignoring the
    elemental bonus damage.' (A21: every reached rock; g2 is +2f (1) and f3 is +f+side (1))"""
    s = State(f"{WALL} d2-c2-b2-a2:4:3 h5-h6-h7-h8:4:0 {STACKS} 0:5 w 5")
    after = s.play("He>Fi e2x")
    rows = board(after).split("/")
    assert rows[1] == "6d1" and rows[2] == "5d2"  # damaged, not destroyed by the fire bonus
    assert after.dragon("white").fire == 0


def test_torus_movement_wraps():
    """'All borders of the game area, however, are treated as adjacent to the opposite border
    instead of limiting movement and range.' (the 6x6 area; A20)"""
    s = new_game("torus")
    moves = {str(t) for t in s.legal_turns()}
    assert "He>Fi f2+" in moves  # from a2 west round to f2


def test_torus_range_and_bite_wrap():
    """'treated as adjacent to the opposite border instead of limiting movement and range.'
    (A20: bites wrap too)"""
    tln = "torus/grasshopper/current 6/6/6/6/6/6 a3-b3-b2-b1:4:2 e3-e4-e5-e6:4:0 {} 0:6 w 5"
    s = State(tln.format(STACKS))
    # Fire: step north to a2? no: west round the border to f3, facing west: e3 is right ahead.
    black = s.play("He>Fi f3x").dragon("black")  # 2 (ruler) + 2 (fire): a segment lost
    assert (black.segments, black.water) == (2, 4)
    # Earth: the head a3 faces west; one step to f3 and the bite on e3
    assert s.play("Fi>Ea f3").dragon("black").water == 3


def test_village_hurts_the_challenger_at_the_end_of_its_turn():
    """'The village inflicts 1 damage to the challenging dragon if there is any part of it
    adjacent to the village at the end of its player's turn.' (A22)"""
    s = State(
        "field/grasshopper/current+village=black 8/8/8/3VV3/3VV3/8/8/8 "
        f"c2-b2-b3-b4:4:0 g8-h8-h7-g7:4:0 {STACKS} 0:8 w 5"
    )
    after = s.play("Fi>Ea d2")  # d2 is not beside the village
    assert after.dragon("white").water == 4
    s = State(
        "field/grasshopper/current+village=black 8/8/8/3VV3/3VV3/8/8/8 "
        f"c3-b3-b4-b5:4:0 g8-h8-h7-g7:4:0 {STACKS} 0:8 w 5"
    )
    after = s.play("Fi>Ea d3")  # d3 is beside the village (d4)
    assert after.dragon("white").water == 3


def test_village_does_not_hurt_its_protector():
    """'The village inflicts 1 damage to the challenging dragon' (only the challenger)."""
    s = State(
        "field/grasshopper/current+village=white 8/8/8/3VV3/3VV3/8/8/8 "
        f"c3-b3-b4-b5:4:0 g8-h8-h7-g7:4:0 {STACKS} 0:8 w 5"
    )
    assert s.play("Fi>Ea d3").dragon("white").water == 4


def test_village_counts_as_part_of_the_protector():
    """'The village tile counts as part of the protecting dragon and may be attacked.'"""
    s = State(
        "field/grasshopper/current+village=black 8/8/8/3VV3/3VV3/8/8/8 "
        f"c3-b3-b4-b5:4:0 g8-h8-h7-g7:4:0 {STACKS} 0:8 w 5"
    )
    # step south to c4: the ruler's side cell d5 (value 1) is a village cell
    after = s.play("He>Fi c4x")
    assert after.dragon("black").water == 3
    s2 = State(
        "field/grasshopper/current+village=black 8/8/8/3VV3/3VV3/8/8/8 "
        f"b4-a4-a3-a2:4:0 g8-h8-h7-g7:4:0 {STACKS} 0:8 w 5"
    )
    # Earth: one step east to c4, facing the village on d4: a bite on the protector
    after = s2.play("Fi>Ea c4")
    assert after.dragon("black").water == 3
    assert after.dragon("white").water == 3  # and the village hurts the challenger beside it


def test_village_blocks_the_protectors_own_breath():
    """'Regarding range, the edges of the board and all tiles of any kind are insurmountable
    obstacles.' (A22: the protector's breath is blocked by its own village)"""
    s = State(
        "field/grasshopper/current+village=white 8/8/8/3VV3/3VV3/8/8/8 "
        f"b4-a4-a3-a2:4:2 g4-h4-h5-h6:4:0 {STACKS} 0:6 w 5"
    )
    after = s.play("He>Fi c4x")
    assert after.dragon("black").water == 4
