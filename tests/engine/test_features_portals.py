"""Portals and The Valley (rulebook "Portals", "The Valley"; decisions A16-A19)."""

import pytest

from taolong_lab import IllegalTurnError, State

# The Valley: green twins g2/b7, red d2 and blue g5 lead anywhere (facts §2.7).
VALLEY = "valley/grasshopper/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8"
STACKS = "WW/-/BW/-/BB/-/WB/-"  # He>Fi, Ea>Wa, Wa>He from the setup stacks


def valley(white: str, black: str = "a8-b8-c8-d8:4:0", centre: str = "0:6", stacks=STACKS):
    return State(f"{VALLEY} {white} {black} {stacks} {centre} w 5")


def portal_turns(state):
    return {str(t) for t in state.legal_turns() if any(p.portals for p in t.phases)}


def test_portal_exit_beside_destination_facing_outwards():
    """'Instead of moving the dragon's head onto the portal tile, place it on any space adjacent
    to the matching destination portal tile, facing outwards.' (A18: any free neighbour)"""
    s = valley("g3-g4-h4-h5:4:2")
    after = s.play("Wa>He [g2b7]b6")
    assert after.cells("white")[0] == (1, 5)
    assert after.facing("white") == "N"  # away from b7
    after = s.play("Wa>He [g2b7]a7")
    assert after.facing("white") == "W"


def test_portal_exit_cells_must_be_free():
    """'place it on any space adjacent to the matching destination portal tile' (A18: a free
    one; b8 holds the black dragon, so only a7, b6 and c7 are offered)."""
    s = valley("g3-g4-h4-h5:4:2")
    heaven = {str(t) for t in s.legal_turns() if str(t).startswith("Wa>He")}
    assert heaven == {
        "Wa>He [g2b7]a7",
        "Wa>He [g2b7]b6",
        "Wa>He [g2b7]b6,b5",
        "Wa>He [g2b7]c7",
        "Wa>He [g2b7]c7,d7",
    }


def test_second_heaven_step_follows_exit_facing():
    """'If a dragon moves through a portal during the first Heaven or Earth movement, the second
    optional movement must be in the same direction the dragon came out of the portal.' (A17:
    even sideways during Heaven)"""
    s = valley("g3-g4-h4-h5:4:2")
    after = s.play("Wa>He [g2b7]c7,d7")
    assert after.cells("white")[:2] == [(3, 6), (2, 6)]
    assert after.facing("white") == "E"


def test_occupied_portals_join_the_body_and_flip_back_when_passed():
    """'Flip both portal tiles to their occupied faces, connecting them to the dragon.' ...
    'Both portal tiles are immediately flipped to their unoccupied sides as soon as there are no
    more segments connected to either portal' (A16: when the tail side is empty)."""
    s = valley("g3-g4-h4-h5:4:2")
    assert s.play("Wa>He [g2b7]b6,b5").to_tln().split()[2] == "b5-b6-[b7g2]-g3-g4:4:2"
    one_left = valley("b5-b6-[b7g2]-g3-g4:4:2")
    assert one_left.play("Wa>He b4").to_tln().split()[2] == "b4-b5-b6-[b7g2]-g3:4:2"
    released = one_left.play("Wa>He b4,b3")
    assert released.to_tln().split()[2] == "b3-b4-b5-b6:4:2"
    assert released.layout[1][6] == "G" and not released.dragon("white").links


def test_losing_the_tail_releases_the_portals():
    """'Both portal tiles are immediately flipped to their unoccupied sides as soon as there are
    no more segments connected to either portal' (A14, A16: a tail lost to damage)."""
    rules = "valley/grasshopper/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8"
    black = State(f"{rules} c6-b6-[b7g2]-g3:1:0 d6-e6-f6-f7:4:0 W/-/BW/-/BB/-/WB/W 3:8 b 9")
    after = black.play("He>La =")  # black stays facing west at c6 and bites
    assert after.to_tln().split()[2] == "c6-b6:4:0"
    assert not after.dragon("white").links


def test_occupied_portal_is_an_obstacle_and_its_twin_unavailable():
    """'all portals that for any reason don't have available destinations are insurmountable
    obstacles' (A19: a green whose twin is in use is unavailable)."""
    s = valley("b6-[b7g2]-g3-g4-h4:4:2", "f2-f3-e3-e2:4:0")
    black = State(s.to_tln().replace(" w 5", " b 5"))
    assert not any("g2" in str(t) for t in black.legal_turns())


def test_bite_through_an_occupied_portal():
    """'While a dragon is going through a portal, both occupied portal tiles count as dragon
    tiles, thus enabling bites and ranged attacks.'"""
    rules = "valley/grasshopper/current+extra_phases=0 8/3R2G1/8/3##3/3##1B1/8/1G6/8"
    black = State(f"{rules} b6-[b7g2]-g3-g4-h4:4:2 e2-e3-f3-f4:4:0 WW/-/BW/-/BB/-/W/B 0:6 b 9")
    after = black.play("Wa>Wi f2")  # black turns east onto f2, facing the occupied portal g2
    assert after.dragon("white").water == 3
    free = State(f"{rules} b6-b5-b4-b3:4:2 e2-e3-f3-f4:4:0 WW/-/BW/-/BB/-/W/B 0:6 b 9")
    assert free.play("Wa>Wi f2").dragon("white").water == 4  # a free portal is not a dragon


def test_expel_hits_an_occupied_portal():
    """'both occupied portal tiles count as dragon tiles, thus enabling bites and ranged
    attacks.' (ruler cell A in front of the head: 2, plus a fire bonus of 1)"""
    rules = "valley/grasshopper/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8"
    black = State(f"{rules} b6-[b7g2]-g3-h3-h4:4:0 e2-e3-f3-f4:4:1 WW/-/BW/-/BB/-/WB/- 0:7 b 9")
    after = black.play("He>Fi f2x")  # black steps east to f2, facing the occupied portal g2
    assert after.dragon("white").water == 1
    assert after.dragon("black").fire == 0 and after.centre == (3, 8)


def test_valley_red_costs_fire_and_leads_to_any_free_portal():
    """'A dragon entering one of these may, therefore, come out through any other unoccupied
    portal. In order to use the red or blue portal, however, the dragon must return a fire or
    water stone, respectively, to the center of the Ba Gua.' (A19)"""
    s = valley("c2-b2-b3-b4:4:2")  # head c2 faces E toward the red portal d2
    exits = {str(t).split()[1] for t in s.legal_turns() if str(t).startswith("Fi>Ea [d2")}
    # every other portal: g2, b7 (green) and g5 (blue), each with its free neighbours
    assert {e.split("]")[0] for e in exits} == {"[d2g2", "[d2b7", "[d2g5"}
    after = s.play("Fi>Ea [d2g5]h5")
    assert after.facing("white") == "E"
    assert after.dragon("white").fire == 1 and after.centre == (0, 7)


def test_valley_red_needs_fire():
    """'the dragon must return a fire ... stone' (A19: red is unavailable without fire, so it is
    an obstacle)."""
    s = valley("c2-b2-b3-b4:4:0", centre="0:8")
    assert not portal_turns(s)
    with pytest.raises(IllegalTurnError):
        s.play("Fi>Ea [d2g2]f2")


def test_valley_blue_costs_water_even_the_last_one():
    """'In order to use the red or blue portal, however, the dragon must return a fire or water
    stone' (A19: blue is allowed at 1 water; it costs a lifepoint and may cost a segment)."""
    s = valley("g6-g7-h7-h8:1:0", "a8-b8-c8-d8:4:0", centre="3:8")
    # head g6 faces N toward the blue portal g5
    after = s.play("Wa>He [g5d2]d3")
    white = after.dragon("white")
    assert white.segments == 2 and white.water == 4  # lost the tail, meter refilled
    assert after.centre == (0, 8)
