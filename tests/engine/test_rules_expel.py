"""Rules: absorbing and expelling (Fire and Water), and the distance ruler.

The ruler (data/ruler.toml), relative to the attacking head facing f, with l = to the side::

             [C 0]        +3f     reached if A and B hold no tile
             [B 1]        +2f     reached if A holds no tile
      [L 1]  [A 2]  [R 1] +f      A always reached; L and R if A holds no tile
             (head)

Most attacks here: white "d6 d7 d8 e8" (facing north) steps to d5 and expels, so the ruler
covers A=d4, B=d3, C=d2, L=c4, R=e4. Quotes (``>`` lines) are from the current rulebook.
"""

from __future__ import annotations

import pytest
from positions import D, only_on, pieces, position, shapes, turns

from taolong_lab import Rules
from taolong_lab.engine.core import env_for, ruler_hit
from taolong_lab.engine.geometry import parse_cell
from taolong_lab.rules.data import game_data

ATTACKER = "d6 d7 d8 e8"
AFTER = "d5-d6-d7-d8"  # the attacker after the step north
FAR = "g8 h8 h7 g7"


def _fire_expel(black, fire=1, white_water=4):
    s = position(D(ATTACKER, water=white_water, fire=fire), black, bagua=only_on("Fi"))
    return s.play("Fi>Fi d5x")


def _water_expel(black, white_water=4, black_water=4):
    s = position(D(ATTACKER, water=white_water), D(black, water=black_water), bagua=only_on("Wa"))
    return s.play("Wa>Wa d5x")


# ---- the ruler -----------------------------------------------------------------------------
def test_ruler_data():
    """The printed values and the reach of the five ruler cells, as data (values sourced from
    fan code, reach rule inferred).

    > The damage is equal to the highest printed value on the distance ruler overlapping it
    > plus the element bonus based on the action taken.
    > This would end up in a ranged attack that affects a T-shaped area.
    """
    ruler = {c.name: c for c in game_data().ruler}
    names = [c.name for c in game_data().ruler]
    assert {n: (c.forward, c.side, c.value) for n, c in ruler.items()} == {
        "A": (1, 0, 2),
        "B": (2, 0, 1),
        "C": (3, 0, 0),
        "L": (1, -1, 1),
        "R": (1, 1, 1),
    }
    blocked = {n: sorted(names[i] for i in c.blocked_by) for n, c in ruler.items()}
    assert blocked == {"A": [], "B": ["A"], "C": ["A", "B"], "L": ["A"], "R": ["A"]}


@pytest.mark.parametrize(
    ("cell", "black", "after_black", "centre"),
    [
        ("A", "d4 d3 d2 d1", "d4-d3-d2-d1:1:0", "3:8"),  # 2 + 1
        ("B", "d3 c3 b3 a3", "d3-c3-b3-a3:2:0", "2:8"),  # 1 + 1
        ("C", "d2 c2 b2 a2", "d2-c2-b2-a2:3:0", "1:8"),  # 0 + 1
        ("L", "c4 b4 a4 a5", "c4-b4-a4-a5:2:0", "2:8"),  # 1 + 1
        ("R", "e4 f4 g4 h4", "e4-f4-g4-h4:2:0", "2:8"),  # 1 + 1
    ],
)
def test_expel_hits_each_ruler_cell(cell, black, after_black, centre):
    """Black on exactly one ruler cell (or on A, which shields the cells beyond it) takes
    that cell's printed value plus the fire bonus (1 fire stone), one water stone each; the
    fire stone returns to the centre.

    > If the opposing dragon is in this area and there is no obstacle in the way, it is then
    > dealt damage.
    > The damage is equal to the highest printed value on the distance ruler overlapping it
    > plus the element bonus based on the action taken.
    """
    assert pieces(_fire_expel(black)) == (f"{AFTER}:4:0", after_black, centre)


@pytest.mark.parametrize(
    ("white", "step", "black", "after_black"),
    [
        ("d4 d3 d2 d1", "d5", "d8 e8 f8 g8", "d8-e8-f8-g8:3:0"),  # facing S, C = d8
        ("e4 f4 g4 h4", "d4", "a4 a5 a6 a7", "a4-a5-a6-a7:3:0"),  # facing W, C = a4
        ("d5 c5 b5 a5", "e5", "h5 h6 h7 h8", "h5-h6-h7-h8:3:0"),  # facing E, C = h5
        ("d4 d3 d2 d1", "d5", "e6 f6 g6 h6", "e6-f6-g6-h6:2:0"),  # facing S, L = e6
        ("e4 f4 g4 h4", "d4", "c3 c2 c1 b1", "c3-c2-c1-b1:2:0"),  # facing W, R = c3
        ("d5 c5 b5 a5", "e5", "f4 f3 f2 f1", "f4-f3-f2-f1:2:0"),  # facing E, L = f4
    ],
)
def test_ruler_turns_with_the_facing_after_the_step(white, step, black, after_black):
    """The ruler is laid in front of the head in the direction of the step just made.

    > Align the distance ruler so that the section with a dragon's mouth is in front of the
    > attacking dragon's head, then do the same with the other side of the ruler.
    """
    s = position(D(white, fire=1), black, bagua=only_on("Fi"))
    assert pieces(s.play(f"Fi>Fi {step}x"))[1] == after_black


def test_expel_takes_the_highest_value_not_the_sum():
    """Black on L, B and C at once (all reached): the damage is the highest value (1) plus the
    bonus, not the sum.

    > The damage is equal to the highest printed value on the distance ruler overlapping it
    > plus the element bonus based on the action taken.
    """
    assert pieces(_fire_expel("c4 c3 d3 d2")) == (f"{AFTER}:4:0", "c4-c3-d3-d2:2:0", "2:8")


@pytest.mark.parametrize(
    ("black", "after_black", "centre"),
    [
        ("d4 d3 d2 d1", "d4-d3-d2-d1:1:0", "3:8"),  # A, with B and C behind it
        ("d4 c4 c3 d3", "d4-c4-c3-d3:1:0", "3:8"),  # A, with L and B beside/behind it
        ("d4 e4 e3 d3", "d4-e4-e3-d3:1:0", "3:8"),  # A, with R and B
        ("d3 d2 c2 b2", "d3-d2-c2-b2:2:0", "2:8"),  # B, with C behind it
    ],
)
def test_opponent_tile_on_a_shields_the_rest(black, after_black, centre):
    """When black holds A, A's value counts and the cells it shields add nothing: 2 + bonus 1,
    whatever else black covers; likewise black on B shields C (1 + 1).

    > Regarding range, the edges of the board and all tiles of any kind are insurmountable
    > obstacles.
    """
    assert pieces(_fire_expel(black)) == (f"{AFTER}:4:0", after_black, centre)


def test_ruler_stops_at_the_board_edge():
    """Ruler cells beyond the edge do not exist; the cells still on the board work normally:
    at d2 facing north only A (d1), L (c1) and R (e1) remain; in column a, L is gone but R is
    hit.

    > Regarding range, the edges of the board and all tiles of any kind are insurmountable
    > obstacles.
    """
    top = position(D("d3 d4 d5 d6", fire=1), "e1 f1 g1 h1", bagua=only_on("Fi"))
    assert pieces(top.play("Fi>Fi d2x")) == ("d2-d3-d4-d5:4:0", "e1-f1-g1-h1:2:0", "2:8")
    side = position(D("a6 a7 a8 b8", fire=1), "b4 c4 d4 e4", bagua=only_on("Fi"))
    assert pieces(side.play("Fi>Fi a5x")) == ("a5-a6-a7-a8:4:0", "b4-c4-d4-e4:2:0", "2:8")


def test_expel_misses_outside_the_t():
    """Black beside the head or beyond the T is not hit.

    > This would end up in a ranged attack that affects a T-shaped area.
    """
    for black in ("c5 b5 a5 a4", "c3 b3 a3 a2", "d1 c1 b1 a1", "f4 g4 h4 h5"):
        after = _fire_expel(black)
        assert pieces(after)[1:] == (f"{'-'.join(black.split())}:4:0", "0:8")


# ---- the reach rule with obstacles that are not the target ---------------------------------
_ENV = env_for(Rules())
_DIR = {"N": 0, "E": 1, "S": 2, "W": 3}


def _hit(head, facing, obstacles=(), targets=()):
    """ruler_hit for a head at ``head`` facing ``facing`` with tiles on ``obstacles`` (not the
    target: own body, rocks) and the target's tiles on ``targets``."""
    cells = {name: _ENV.geo.index(parse_cell(name)) for name in (*obstacles, *targets)}
    occ = sum(1 << cells[n] for n in (*obstacles, *targets))
    target = sum(1 << cells[n] for n in targets)
    return ruler_hit(_ENV, _ENV.geo.index(parse_cell(head)), _DIR[facing], occ, target)


@pytest.mark.parametrize(
    ("target", "value", "blockers"),
    [("A", 2, []), ("B", 1, ["A"]), ("C", 0, ["A", "B"]), ("L", 1, ["A"]), ("R", 1, ["A"])],
)
def test_reach_rule_with_a_non_target_obstacle(target, value, blockers):
    """A tile that is not the opponent's (the attacker's own body, later a rock) stops the
    ruler just as an opponent tile does: a target behind it is not reached. Head d5 facing
    north: A=d4, B=d3, C=d2, L=c4, R=e4. (On the Field an own segment can never lie on the
    ruler, see test_own_body_never_on_the_ruler, so this is checked on the reach function.)

    > If the opposing dragon is in this area and there is no obstacle in the way, it is then
    > dealt damage.
    > Regarding range, the edges of the board and all tiles of any kind are insurmountable
    > obstacles.
    """
    where = {"A": "d4", "B": "d3", "C": "d2", "L": "c4", "R": "e4"}
    assert _hit("d5", "N", targets=[where[target]]) == value
    for blocker in blockers:
        assert _hit("d5", "N", obstacles=[where[blocker]], targets=[where[target]]) == -1
    # a tile on a cell that does not shield the target changes nothing
    others = [c for c in "ABCLR" if c != target and c not in blockers]
    for other in others:
        assert _hit("d5", "N", obstacles=[where[other]], targets=[where[target]]) == value
    # an obstacle beside the T blocks nothing
    assert _hit("d5", "N", obstacles=["c5", "e5"], targets=[where[target]]) == value


def test_reach_rule_at_the_edge():
    """Facing the edge, no ruler cell exists; one cell from it, only A, L and R do.

    > Regarding range, the edges of the board and all tiles of any kind are insurmountable
    > obstacles.
    """
    assert _hit("d1", "N", targets=["c1", "e1"]) == -1
    assert _hit("d2", "N", targets=["d1"]) == 2
    assert _hit("d2", "N", targets=["c1"]) == 1
    assert _hit("a5", "N", targets=["b4"]) == 1


def test_own_body_never_on_the_ruler():
    """After any step the neck is directly behind the head, and at most two more segments
    follow, so no own tile can lie on A, B, C, L or R: every shape is checked. (Own tiles do
    block range, as the previous test shows, but on the Field they never get in the way.)

    > Regarding range, the edges of the board and all tiles of any kind are insurmountable
    > obstacles.
    """
    checked = 0
    for length in (2, 3, 4):
        for chain in shapes(length):
            (nx, ny) = chain[1]
            fx, fy = -nx, -ny  # the facing: from the neck to the head at (0, 0)
            lx, ly = fy, -fx  # a side direction
            ruler = {(fx, fy), (2 * fx, 2 * fy), (3 * fx, 3 * fy)}
            ruler |= {(fx + lx, fy + ly), (fx - lx, fy - ly)}
            assert not ruler & set(chain)
            checked += 1
    assert checked == 52


# ---- the bonuses ---------------------------------------------------------------------------
def test_fire_bonus_is_the_attackers_fire_stones_all_returned():
    """Fire's bonus is the attacker's fire stones (3 here): C (0) + 3 = 3 damage; then all
    three fire stones go back to the centre.

    > For Fire, the bonus is equal to the number of fire stones on the attacking dragon's fire
    > meter.
    > After the attack, all fire stones on the attacking dragon's fire meter are returned to
    > the center of the Ba Gua.
    """
    assert pieces(_fire_expel("d2 c2 b2 a2", fire=3)) == (
        f"{AFTER}:4:0",
        "d2-c2-b2-a2:1:0",
        "3:8",
    )


def test_fire_stones_return_even_on_a_miss():
    """A fire expel that reaches nobody still returns all the attacker's fire stones.

    > After the attack, all fire stones on the attacking dragon's fire meter are returned to
    > the center of the Ba Gua.
    Decision: A15
    """
    assert pieces(_fire_expel(FAR, fire=3)) == (f"{AFTER}:4:0", "g8-h8-h7-g7:4:0", "0:8")


def test_fire_expel_without_fire_stones_deals_the_ruler_value():
    """With an empty fire meter the bonus is 0: A deals exactly 2.

    > For Fire, the bonus is equal to the number of fire stones on the attacking dragon's fire
    > meter.
    """
    assert pieces(_fire_expel("d4 d3 d2 d1", fire=0)) == (
        f"{AFTER}:4:0",
        "d4-d3-d2-d1:2:0",
        "2:8",
    )


def test_water_bonus_is_the_centre_water_before_damage():
    """Water's bonus is the water in the centre before the damage: white holds 1, black 4, so
    the centre holds 3; black on C (0) takes 0 + 3 = 3. White's own water is not spent.

    > For Water, the bonus is equal to the number of water stones currently in the center of
    > the Ba Gua.
    Decision: A15
    """
    after = _water_expel("d2 c2 b2 a2", white_water=1)
    assert pieces(after) == (f"{AFTER}:1:0", "d2-c2-b2-a2:1:0", "6:8")


def test_water_expel_with_an_empty_centre_deals_the_ruler_value():
    """With no water in the centre the water bonus is 0: B deals exactly 1.

    > For Water, the bonus is equal to the number of water stones currently in the center of
    > the Ba Gua.
    """
    assert pieces(_water_expel("d3 c3 b3 a3")) == (f"{AFTER}:4:0", "d3-c3-b3-a3:3:0", "1:8")


def test_water_expel_miss_changes_nothing_but_the_step():
    """A water expel that reaches nobody changes no meter.

    > If the opposing dragon is in this area and there is no obstacle in the way, it is then
    > dealt damage.
    """
    after = _water_expel(FAR, white_water=2, black_water=3)
    assert pieces(after) == (f"{AFTER}:2:0", "g8-h8-h7-g7:3:0", "3:8")


# ---- absorbing -----------------------------------------------------------------------------
def test_absorb_fire_takes_one_stone_from_the_centre():
    """Absorbing fire moves one fire stone from the centre to the attacker's fire meter.

    > Absorbing an element causes the player to take a fire or water stone from the center of
    > the Ba Gua corresponding to the action taken.
    > The player then adds it to their dragon's respective meter.
    """
    s = position(D(ATTACKER, fire=2), FAR, bagua=only_on("Fi"))
    assert pieces(s.play("Fi>Fi d5+")) == (f"{AFTER}:4:3", "g8-h8-h7-g7:4:0", "0:5")


def test_absorb_water_takes_one_stone_from_the_centre():
    """Absorbing water moves one water stone from the centre to the water meter (healing).

    > Absorbing an element causes the player to take a fire or water stone from the center of
    > the Ba Gua corresponding to the action taken.
    > The player then adds it to their dragon's respective meter.
    """
    s = position(D(ATTACKER, water=2), FAR, bagua=only_on("Wa"))
    assert pieces(s.play("Wa>Wa d5+")) == (f"{AFTER}:3:0", "g8-h8-h7-g7:4:0", "1:8")


@pytest.mark.parametrize(
    ("element", "white", "black", "centre"),
    [
        ("Fi", D(ATTACKER, fire=4), D(FAR), "0:4"),  # full fire meter
        ("Wa", D(ATTACKER, water=4), D(FAR, water=3), "1:8"),  # full water meter
        ("Fi", D(ATTACKER, fire=4), D(FAR, fire=4), "0:0"),  # full meter, empty centre
        ("Wa", D(ATTACKER, water=4), D(FAR, water=4), "0:8"),  # full meter, empty centre
    ],
)
def test_absorb_with_a_full_meter_or_empty_centre_does_nothing(element, white, black, centre):
    """Absorbing into a full meter (4) takes no stone, and with no stone in the centre there
    is nothing to take; absorb is still a legal choice that does nothing. (With 8 stones of
    each kind and meters of 4, an empty centre means both meters are full.)

    > If that meter is already full, no stone is taken.
    Decision: A13
    """
    s = position(white, black, bagua=only_on(element))
    assert f"{element}>{element} d5+" in turns(s)
    after = s.play(f"{element}>{element} d5+")
    assert pieces(after) == (
        f"{AFTER}:{white.water}:{white.fire}",
        black.tln(),
        centre,
    )


def test_meters_hold_at_most_four():
    """Both meters cap at 4 stones (data/bagua.toml; the earlier rulebook states the limit).

    > [earlier] Absorbing consists in taking a stone of the performed element from the center
    > of the Ba-Gua and gathering it for the active dragon, never exceeding the limit of 4
    > stones per element.
    """
    assert game_data().capacity == 4
    s = position(D(ATTACKER, fire=3), FAR, bagua=only_on("Fi"))
    full = s.play("Fi>Fi d5+")
    assert full.dragon("white").fire == 4
    assert pieces(full)[2] == "0:4"
