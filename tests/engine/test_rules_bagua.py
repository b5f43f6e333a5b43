"""Rules: the Ba Gua ring and the Spirit phase (sowing).

Ring order, counterclockwise: He La Fi Th Ea Mo Wa Wi (data/bagua.toml). Stacks are written
base first. Quotes (``>`` lines) are from the current rulebook unless marked ``[earlier]``.
"""

from __future__ import annotations

import pytest
from positions import D, fields, first_phases, only_on, position, turns

from taolong_lab import IllegalTurnError, new_game
from taolong_lab.rules.data import game_data

ONE_EACH = {"He": "W", "La": "B", "Fi": "W", "Th": "B", "Ea": "W", "Mo": "B", "Wa": "W", "Wi": "B"}


def _sown(state) -> set[str]:
    """The 'space>element' pairs of the legal first phases."""
    return {p.split()[0] for p in first_phases(state)}


def test_ring_order_data():
    """The eight spaces in counterclockwise order; the opposite pairs sit four apart and the
    four main spaces alternate with the others. Data: data/bagua.toml (fan code + Fuxi order).

    > Collect all stones from the selected space and drop them on the following spaces, one in
    > each, in a counter-clockwise direction until all collected stones have been dropped.
    """
    data = game_data()
    assert data.ring == ("heaven", "lake", "fire", "thunder", "earth", "mountain", "water", "wind")
    assert data.abbrev == ("He", "La", "Fi", "Th", "Ea", "Mo", "Wa", "Wi")
    assert data.main == frozenset({"heaven", "earth", "fire", "water"})
    opposite = {data.ring[i]: data.ring[(i + 4) % 8] for i in range(8)}
    assert opposite["heaven"] == "earth"
    assert opposite["lake"] == "mountain"
    assert opposite["fire"] == "water"
    assert opposite["thunder"] == "wind"


@pytest.mark.parametrize(
    ("white", "expected"),
    [
        # facing south: Earth and Thunder are impossible
        ("d5 d4 d3 d2", {"He>La", "La>Fi", "Ea>Mo", "Mo>Wa", "Wa>Wi", "Wi>He"}),
        # facing east: Heaven and Wind are impossible
        ("d5 c5 b5 a5", {"He>La", "La>Fi", "Fi>Th", "Th>Ea", "Ea>Mo", "Mo>Wa"}),
    ],
)
def test_one_stone_lands_on_the_next_space_counterclockwise(white, expected):
    """With one stone on every space, sowing a space drops its stone on the next space of the
    ring, which names the action. The two facings together show all eight links of the ring.

    > In order to represent the instability caused by the conflict, the flow of movement on
    > the Ba Gua must go counterclockwise.
    > The last space in which a stone is dropped determines the action to be performed during
    > the Matter phase.
    """
    s = position(white, "g8 h8 h7 g7", bagua=ONE_EACH)
    assert _sown(s) == expected


def test_sowing_drops_one_stone_on_each_following_space():
    """All the stones are lifted and dropped one per following space, on top of what is there.

    > Collect all stones from the selected space and drop them on the following spaces, one in
    > each, in a counter-clockwise direction until all collected stones have been dropped.
    """
    s = new_game()
    assert fields(s.play("He>Fi a3+"))["bagua"] == "-/W/BWW/-/BB/-/WB/-"
    assert fields(s.play("Ea>Wa a3+"))["bagua"] == "WW/-/BW/-/-/B/WBB/-"
    assert fields(s.play("Wa>He a3"))["bagua"] == "WWB/-/BW/-/BB/-/-/W"


def test_base_stone_is_dropped_first():
    """Stones are dropped from the base of the stack up: Water's base (white) goes to Wind and
    its top (black) onto Heaven; Fire's base (black) goes to Thunder, its top (white) onto
    Earth. (Colour order matters only in the solo variant; the engine always sows base first.)

    > In Spirit phases, all stones on the selected space must be dropped on the following
    > spaces in the order they are stacked, starting from the base of the stack.
    """
    assert fields(new_game().play("Wa>He a3"))["bagua"] == "WWB/-/BW/-/BB/-/-/W"
    east = position("d5 c5 b5 a5", "g8 h8 h7 g7")
    assert fields(east.play("Fi>Ea e5"))["bagua"] == "WW/-/-/B/BBW/-/WB/-"


def test_last_space_names_the_element():
    """The element performed is the space that received the last stone, and the notation
    names it after '>'; naming another element is illegal.

    > The last space in which a stone is dropped determines the action to be performed during
    > the Matter phase.
    """
    s = new_game()
    assert {t.split()[0] for t in turns(s)} == {"He>Fi", "Ea>Wa", "Wa>He"}
    with pytest.raises(IllegalTurnError) as err:
        s.play("He>La a3")
    assert "sowing He lands on Fire, not Lake" in err.value.reason


def test_eight_stones_land_back_on_their_own_space():
    """A stack of all eight stones goes once round the ring: its last stone falls back on the
    space it was lifted from, and that space is the action (Heaven here).

    > Collect all stones from the selected space and drop them on the following spaces, one in
    > each, in a counter-clockwise direction until all collected stones have been dropped.
    Decision: A12
    """
    s = position("d4 d3 d2 d1", "g8 h8 h7 g7", bagua=only_on("He"))
    assert turns(s) == ["He>He d5", "He>He d5,d6"]
    after = s.play("He>He d5")
    assert fields(after)["bagua"] == "B/W/W/W/W/B/B/B"
    assert fields(after)["white"] == "d5-d4-d3-d2:4:0"


def test_sowing_wraps_from_wind_to_heaven():
    """Counterclockwise after Wind comes Heaven: three stones sown from Wind land on Heaven,
    Lake and Fire, so the action is Fire.

    > In order to represent the instability caused by the conflict, the flow of movement on
    > the Ba Gua must go counterclockwise.
    """
    s = position(
        "d4 d3 d2 d1", "g8 h8 h7 g7", bagua={"He": "WW", "Ea": "BB", "Mo": "B", "Wi": "WBW"}
    )
    assert "Wi>Fi" in _sown(s)
    after = s.play("Wi>Fi d5+")
    assert fields(after)["bagua"] == "WWW/B/W/-/BB/B/-/-"


def test_empty_space_cannot_be_chosen():
    """Only a space holding at least one stone may be sown.

    > Choose a space with at least one stone from one of the eight spaces on the Ba Gua.
    """
    s = new_game()
    assert "La" not in {t.split(">")[0] for t in turns(s)}
    with pytest.raises(IllegalTurnError) as err:
        s.play("La>Fi a3+")
    assert err.value.reason == "the turn: the Lake space is empty"


def test_stone_colour_does_not_matter_in_grasshopper():
    """Swapping the colours of every Ba Gua stone changes nothing in the Grasshopper game:
    the same turns are legal and lead to the same dragons and centre.

    > Stone color only affects the game in advanced game modes, which are explained later in
    > this rulebook.
    """
    swapped = {"He": "BB", "Fi": "WB", "Ea": "WW", "Wa": "BW"}
    for white in ("a2 a1 b1 b2", "d5 c5 b5 a5"):
        a = position(white, D("g8 h8 h7 g7"))
        b = position(white, D("g8 h8 h7 g7"), bagua=swapped)
        assert turns(a) == turns(b)
        for (ta, sa), (tb, sb) in zip(a.successors(), b.successors(), strict=True):
            assert str(ta) == str(tb)
            assert (fields(sa)["white"], fields(sa)["black"], fields(sa)["centre"]) == (
                fields(sb)["white"],
                fields(sb)["black"],
                fields(sb)["centre"],
            )
