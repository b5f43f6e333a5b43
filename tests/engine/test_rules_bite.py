"""Rules: the bite.

At the end of a Heaven, Earth, Wind, Thunder, Lake or Mountain action, a head facing an
opponent tile in the cell straight ahead costs the opponent one water stone. Quotes (``>``
lines) are from the current rulebook unless marked ``[earlier]``.
"""

from __future__ import annotations

import pytest
from positions import RULES, D, only_on, pieces, position, shapes, turns

SOUTH = "d4 d3 d2 d1"  # white head d4 facing south
EAST = "d5 c5 b5 a5"  # white head d5 facing east


def test_bite_after_heaven_one_step():
    """Heaven one step south ends with the head facing black's head on d6: black loses one
    water stone to the centre. The second step is blocked by that tile.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    > The bitten dragon loses 1 lifepoint by returning one water stone to the center of the
    > Ba Gua.
    Decision: A8
    """
    s = position(SOUTH, "d6 e6 f6 g6", bagua=only_on("He"))
    assert turns(s) == ["He>He d5"]
    assert pieces(s.play("He>He d5")) == ("d5-d4-d3-d2:4:0", "d6-e6-f6-g6:3:0", "1:8")


def test_bite_is_checked_at_the_end_of_a_two_step_heaven():
    """With black two cells beyond the head, stopping after one step bites nothing; taking
    the second step ends facing black and bites.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A3
    """
    s = position(SOUTH, "d7 e7 f7 g7", bagua=only_on("He"))
    assert turns(s) == ["He>He d5", "He>He d5,d6"]
    assert pieces(s.play("He>He d5")) == ("d5-d4-d3-d2:4:0", "d7-e7-f7-g7:4:0", "0:8")
    assert pieces(s.play("He>He d5,d6")) == ("d6-d5-d4-d3:4:0", "d7-e7-f7-g7:3:0", "1:8")


def test_bite_after_earth():
    """Earth one step east ends facing black's tail on f5: a bite.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    """
    s = position(EAST, "f8 f7 f6 f5", bagua=only_on("Ea"))
    assert turns(s) == ["Ea>Ea e5"]
    assert pieces(s.play("Ea>Ea e5")) == ("e5-d5-c5-b5:4:0", "f8-f7-f6-f5:3:0", "1:8")


def test_bite_after_wind_uses_the_new_facing():
    """Wind turns west onto c4 and then faces b4, a black segment: a bite, before the extra
    phase (here a Fire step north with absorb, which does not bite).

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A11
    """
    s = position(SOUTH, "b7 b6 b5 b4", bagua=only_on("Wi"))
    # first sowing leaves one stone per space: W/W/W/W/B/B/B/B; La -> Fire
    after = s.play("Wi>Wi c4 ; La>Fi c3+")
    assert pieces(after) == ("c3-c4-d4-d3:4:1", "b7-b6-b5-b4:3:0", "1:7")
    no_bite = s.play("Wi>Wi e4 ; La>Fi e3+")
    assert pieces(no_bite) == ("e3-e4-d4-d3:4:1", "b7-b6-b5-b4:4:0", "0:7")


def test_bite_after_thunder():
    """Thunder turns north onto d4 and faces black on d3: a bite.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    """
    s = position(EAST, "d3 e3 f3 g3", bagua=only_on("Th"))
    # first sowing leaves B/B/B/B/W/W/W/W; La -> Fire
    after = s.play("Th>Th d4 ; La>Fi c4+")
    assert pieces(after) == ("c4-d4-d5-c5:4:1", "d3-e3-f3-g3:3:0", "1:7")


def test_bite_after_a_lake_move_only_where_it_faces_black():
    """Lake (facing south, so it moves): only the step that ends facing black bites.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    """
    s = position(SOUTH, "f4 g4 h4 h5", bagua=only_on("La"))
    assert turns(s) == ["La>La e4", "La>La d5", "La>La c4"]
    assert pieces(s.play("La>La e4")) == ("e4-d4-d3-d2:4:0", "f4-g4-h4-h5:3:0", "1:8")
    assert pieces(s.play("La>La d5"))[1:] == ("f4-g4-h4-h5:4:0", "0:8")
    assert pieces(s.play("La>La c4"))[1:] == ("f4-g4-h4-h5:4:0", "0:8")


def test_bite_after_a_mountain_move():
    """Mountain (facing east, so it moves) north onto d4 faces black on d3: a bite.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    """
    s = position(EAST, "d3 e3 f3 g3", bagua=only_on("Mo"))
    assert pieces(s.play("Mo>Mo d4")) == ("d4-d5-c5-b5:4:0", "d3-e3-f3-g3:3:0", "1:8")
    assert pieces(s.play("Mo>Mo d6"))[1:] == ("d3-e3-f3-g3:4:0", "0:8")


@pytest.mark.parametrize(
    ("white", "black", "element"),
    [
        (EAST, "e5 f5 g5 h5", "La"),  # Lake facing the horizontal: stays
        (SOUTH, "d5 e5 f5 g5", "Mo"),  # Mountain facing the vertical: stays
    ],
)
def test_bite_after_a_lake_or_mountain_that_stays(white, black, element):
    """A Lake or Mountain that leaves the dragon in place is still a Lake or Mountain action,
    so a head already facing black bites (default ``bite_on_stay=True``).

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A7
    """
    s = position(white, black, bagua=only_on(element))
    after = s.play(f"{element}>{element} =")
    w = "-".join(white.split())
    assert pieces(after) == (f"{w}:4:0", f"{'-'.join(black.split())}:3:0", "1:8")


@pytest.mark.parametrize(
    ("white", "black", "element"),
    [(EAST, "e5 f5 g5 h5", "La"), (SOUTH, "d5 e5 f5 g5", "Mo")],
)
def test_bite_on_stay_false_turns_the_stay_bite_off(white, black, element):
    """Option ``bite_on_stay=False`` (the fan code's reading): a Lake or Mountain that stays
    does not bite; the rules token records the option.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A7
    """
    rules = RULES + "+bite_on_stay=false"
    s = position(white, black, bagua=only_on(element), rules=rules)
    after = s.play(f"{element}>{element} =")
    assert pieces(after)[1:] == (f"{'-'.join(black.split())}:4:0", "0:8")
    assert after.to_tln().startswith(rules + " ")


def test_bite_on_stay_false_keeps_the_bite_after_a_move():
    """``bite_on_stay=False`` only concerns staying: a Lake that moves still bites.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A7
    """
    s = position(SOUTH, "f4 g4 h4 h5", bagua=only_on("La"), rules=RULES + "+bite_on_stay=false")
    assert pieces(s.play("La>La e4"))[1:] == ("f4-g4-h4-h5:3:0", "1:8")


@pytest.mark.parametrize(
    "black",
    [
        "c5 c6 c7 c8",  # diagonally ahead-left
        "e5 e6 e7 e8",  # diagonally ahead-right
        "e4 f4 g4 h4",  # beside the head
        "c4 b4 a4 a5",  # beside the head, other side
        "d6 e6 f6 g6",  # two cells ahead
    ],
)
def test_bite_checks_only_the_cell_straight_ahead(black):
    """Only a tile in the one cell in front of the head counts as "adjacently facing": black
    diagonally ahead, beside the head or two cells ahead is not bitten (Mountain stay, facing
    south).

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A8
    """
    s = position(SOUTH, black, bagua=only_on("Mo"))
    after = s.play("Mo>Mo =")
    assert pieces(after) == ("d4-d3-d2-d1:4:0", f"{'-'.join(black.split())}:4:0", "0:8")


@pytest.mark.parametrize("element", ["Fi", "Wa"])
def test_no_bite_after_fire_or_water(element):
    """Fire and Water are not in the bite list: stepping to face black and absorbing leaves
    black untouched.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    """
    s = position(SOUTH, "d6 e6 f6 g6", bagua=only_on(element))
    after = s.play(f"{element}>{element} d5+")
    white, black, centre = pieces(after)
    assert black == "d6-e6-f6-g6:4:0"
    if element == "Fi":
        assert (white, centre) == ("d5-d4-d3-d2:4:1", "0:7")
    else:  # the centre holds no water to absorb
        assert (white, centre) == ("d5-d4-d3-d2:4:0", "0:8")


def test_the_biter_never_loses_water():
    """The bite damages only the opponent: in every legal turn of these positions that bites,
    the active dragon's meters are unchanged by the bite.

    > The bitten dragon loses 1 lifepoint by returning one water stone to the center of the
    > Ba Gua.
    """
    cases = [
        (SOUTH, "d6 e6 f6 g6", "He"),
        (EAST, "e5 f5 g5 h5", "La"),
        (SOUTH, "f4 g4 h4 h5", "La"),
    ]
    bites = 0
    for white, black, element in cases:
        s = position(white, black, bagua=only_on(element))
        for _, after in s.successors():
            assert after.dragon("white").water == 4
            bites += after.dragon("black").water == 3
    assert bites == 3


def test_own_body_is_never_straight_ahead():
    """Only "its opponent" is bitten, never the own body. With at most three segments it can
    never even lie in the cell ahead of the head (the neck is behind, and two more segments
    cannot get round the head), so an own-body bite cannot arise; checked for every shape.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A8
    """
    count = 0
    for length in (2, 3, 4):
        for chain in shapes(length):
            (hx, hy), (nx, ny) = chain[0], chain[1]
            ahead = (2 * hx - nx, 2 * hy - ny)
            assert ahead not in chain
            count += 1
    assert count == 4 + 12 + 36


def test_a_bite_can_cost_a_segment():
    """A bite on a dragon with one water stone left empties its meter: it loses its tail and
    refills to 4 from the centre.

    > The bitten dragon loses 1 lifepoint by returning one water stone to the center of the
    > Ba Gua.
    > A dragon loses a segment as soon as its water meter - that is, its life – is depleted.
    Decision: A14
    """
    s = position(SOUTH, D("d6 e6 f6 g6", water=1), bagua=only_on("He"))
    assert pieces(s.play("He>He d5")) == ("d5-d4-d3-d2:4:0", "d6-e6-f6:4:0", "0:8")


def test_bites_on_both_phases_of_a_wind_turn():
    """A Wind that bites, then an extra-phase Lake that stays facing the same tile, bites
    again: two bites in one turn.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A7, A11
    """
    s = position(SOUTH, "b7 b6 b5 b4", bagua=only_on("Wi"))
    # He (one stone after the first sowing) -> Lake; facing west, Lake stays
    after = s.play("Wi>Wi c4 ; He>La =")
    assert pieces(after) == ("c4-d4-d3-d2:4:0", "b7-b6-b5-b4:2:0", "2:8")


def test_bite_rule_is_the_same_in_the_earlier_edition():
    """The earlier rulebook words the bite as facing "another dragon"; the engine applies the
    same rule in both editions.

    > [earlier] At the end of any Sky, Earth, Wind, Thunder, Lake or Mountain action, if the
    > active dragon's head is facing any part of another dragon, it attacks with a bite.
    """
    s = position(SOUTH, "d6 e6 f6 g6", bagua=only_on("He"), rules="field/grasshopper/earlier")
    assert pieces(s.play("He>He d5"))[1:] == ("d6-e6-f6-g6:3:0", "1:8")
