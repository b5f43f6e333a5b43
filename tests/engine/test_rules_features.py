"""Rules: the Board of Human's tiles, portals, scenarios, the Village and the game modes.

These pin the rules of docs/rules.md §9–§13 that tests/test_features_*.py do not already pin.
Positions are built with ``tests/positions.py`` (``board=`` for a scenario's tiles). Quotes
(``>`` lines) are from the current rulebook unless marked ``[earlier]``.
"""

from __future__ import annotations

import pytest
from positions import MASTER, MONK, D, board_of, fields, position, turns

from taolong_lab import RulesError, State, new_game
from taolong_lab.pictures.text import board_text

FAR = "g8 h8 h7 g7"  # a black dragon out of the way
FIRE_ONLY = {"Fi": "WWWWBBBB"}  # sowing Fire lands back on Fire: the only Spirit choice
VALLEY = "valley/grasshopper/current"
VALLEY_BOARD = "8/3R2G1/8/3##3/3##1B1/8/1G6/8"
GORGE = "gorge/grasshopper/current"
GORGE_BOARD = "6oo/6oo/8/3##3/3##3/8/oo6/oo6"
MAZE = "maze/grasshopper/current"
MAZE_BOARD = "7Y/2o2o2/1o4o1/3##3/3##3/1o4o1/2o2o2/Y7"
WALL = "wall/grasshopper/current"
WALL_BOARD = "7o/6o1/5o2/4o3/3o4/2o5/1o6/o7"
VILLAGE_BOARD = "8/8/8/3VV3/3VV3/8/8/8"


def village(protector: str, extra: str = "") -> str:
    return f"field/grasshopper/current{extra}+village={protector}"


def rows(state: State) -> list[str]:
    return fields(state)["board"].split("/")


# ---- the Board of Human: obstacles -----------------------------------------------------------
def test_big_rock_and_village_tiles_block_movement():
    """White's head c4 faces east into the centre 2×2 tile: Earth (straight on, east) is
    impossible and Fire may only step north or south. The village tile blocks exactly like the
    big rock, whichever dragon protects it.

    > Regarding movement, the edges of the board, all dragon, rock and village tiles and all
    > portals that for any reason don't have available destinations are insurmountable
    > obstacles.
    """
    east = D("c4 b4 a4 a3")
    earth = position(east, FAR, bagua={"Ea": "WWWWBBBB"}, rules=GORGE, board=GORGE_BOARD)
    assert turns(earth) == ["Ea>Ea -"]
    fire = position(east, FAR, bagua=FIRE_ONLY, rules=GORGE, board=GORGE_BOARD)
    assert turns(fire) == ["Fi>Fi c3+", "Fi>Fi c3x", "Fi>Fi c5+", "Fi>Fi c5x"]
    for protector in ("white", "black"):
        s = position(
            east, FAR, bagua={"Ea": "WWWWBBBB"}, rules=village(protector), board=VILLAGE_BOARD
        )
        assert turns(s) == ["Ea>Ea -"], protector


def test_a_portal_without_an_available_destination_is_an_obstacle():
    """The Maze's yellow twins sit in the corners a8 and h1. With black on both free cells
    beside h1 (g1 and h2), a8 has no available destination: Heaven cannot step onto it, and
    as it is the only choice, white takes the penalty. With h1's neighbours free, the same
    Heaven goes through.

    > Regarding movement, the edges of the board, all dragon, rock and village tiles and all
    > portals that for any reason don't have available destinations are insurmountable
    > obstacles.
    Decision: A18
    """
    white = D("a7 a6 a5 a4")  # head a7 faces south, onto the portal a8
    heaven = {"He": "WWWWBBBB"}
    blocked = position(white, "g1 g2 h2 h3", bagua=heaven, rules=MAZE, board=MAZE_BOARD)
    assert turns(blocked) == ["He>He -"]
    free = position(white, "e1 e2 e3 d3", bagua=heaven, rules=MAZE, board=MAZE_BOARD)
    assert turns(free) == [
        "He>He [a8h1]h2",
        "He>He [a8h1]h2,h3",
        "He>He [a8h1]g1",
        "He>He [a8h1]g1,f1",
    ]


@pytest.mark.parametrize(
    ("rules", "board", "white", "black", "step"),
    [
        # a free portal on A (d2) shields black on B (e2)
        (VALLEY, VALLEY_BOARD, "b2 b3 b4 b5", "e2 f2 f3 f4", "c2"),
        # a small rock on A (f2) shields black on B (g2)
        (MAZE, MAZE_BOARD, "d2 d3 c3 c4", "g2 h2 h3 h4", "e2"),
        # the big rock on A (d4) shields black on the side cell L (d3)
        (GORGE, GORGE_BOARD, "b4 a4 a3 a2", "d3 e3 f3 g3", "c4"),
    ],
    ids=["portal", "small-rock", "big-rock"],
)
def test_free_portals_and_rocks_block_the_ruler(rules, board, white, black, step):
    """A fire breath with 2 fire stones. On the empty Field the same breath reaches black for
    1 + 2 = 3 damage; with a tile on the ruler's cell A, the cells behind it are not reached,
    so black takes nothing (the fire stones still return to the centre).

    > Regarding range, the edges of the board and all tiles of any kind are insurmountable
    > obstacles.
    """
    args = {"bagua": FIRE_ONLY, "centre": (0, 6)}
    field = position(D(white, fire=2), black, **args).play(f"Fi>Fi {step}x")
    assert field.dragon("black").water == 1 and field.centre == (3, 8)
    s = position(D(white, fire=2), black, rules=rules, board=board, **args)
    after = s.play(f"Fi>Fi {step}x")
    assert after.dragon("black").water == 4 and after.dragon("white").fire == 0
    assert after.centre == (0, 8)


def test_rocks_outside_the_wall_and_the_cave_are_unbreakable():
    """In The Gorge white bites a rock (Earth, east onto f2, facing g2) and breathes fire at
    another: the rocks take no damage, and the board is unchanged.

    > The rock tiles represent insurmountable obstacles and their backs are used for games
    > with special rules.
    > In The Wall and The Cave, the small rock tiles, unlike in the main game, can be
    > destroyed.
    Decision: A21
    """
    s = position("e2 d2 c2 b2", FAR, bagua={"Ea": "WWWWBBBB"}, rules=GORGE, board=GORGE_BOARD)
    bitten = s.play("Ea>Ea f2")
    assert fields(bitten)["board"] == GORGE_BOARD and bitten.rocks == {}
    s = position(D("e2 d2 c2 b2", fire=2), FAR, bagua=FIRE_ONLY, rules=GORGE, board=GORGE_BOARD)
    breathed = s.play("Fi>Fi f2x")
    assert fields(breathed)["board"] == GORGE_BOARD and breathed.rocks == {}


# ---- scenarios as data -----------------------------------------------------------------------
def test_every_scenario_sets_up_its_layout():
    """The start position of each scenario: its tiles (the board field of TLN) and the dragons
    on their start cells (The Torus has its own, on a 6×6 area). The layouts are the data
    files' grids (inferred; docs/rules.md copies them).

    > Each game takes place in a scenario, represented by different arrangements on the board
    > of Human.
    > 6) Setup the board of Human according to the selected scenario among those suggested
    > later in this rulebook.
    """
    expected = {
        "field": "8/8/8/8/8/8/8/8",
        "valley": VALLEY_BOARD,
        "gorge": GORGE_BOARD,
        "torus": "6/6/6/6/6/6",
        "wall": WALL_BOARD,
        "cave": "3o4/2o5/1o6/o7/7o/6o1/5o2/4o3",
        "mist": "4Y3/6G1/2B5/3##2Y/R2##3/5B2/1G6/3R4",
        "maze": MAZE_BOARD,
    }
    for scenario, board in expected.items():
        start = fields(new_game(scenario))
        assert start["board"] == board, scenario
        assert start["white"] == "a2-a1-b1-b2:4:0", scenario
        black = "d5-e5-e4-d4:4:0" if scenario == "torus" else "g8-h8-h7-g7:4:0"
        assert start["black"] == black, scenario


def test_the_torus_is_a_six_by_six_area_with_its_own_start():
    """The Torus plays on the 6×6 area inside the printed rocks, named a1–f6; black starts on
    d5 facing west. There is no row 7 or column g, and the head steps west off column a onto
    column f.

    > In The Torus, the rock tiles' single purpose is to line off the limits of the reduced
    > game area, as indicated by the image. All borders of the game area, however, are
    > treated as adjacent to the opposite border instead of limiting movement and range.
    Decision: A20
    """
    s = new_game("torus")
    assert len(s.layout) == 6 and {len(row) for row in s.layout} == {6}
    assert s.cells("black") == [(3, 4), (4, 4), (4, 3), (3, 3)] and s.facing("black") == "W"
    assert turns(s) == [
        "He>Fi a3+",
        "He>Fi a3x",
        "He>Fi f2+",
        "He>Fi f2x",
        "Ea>Wa a3+",
        "Ea>Wa a3x",
        "Ea>Wa f2+",
        "Ea>Wa f2x",
        "Wa>He a3",
        "Wa>He a3,a4",
    ]
    with pytest.raises(ValueError, match="a7 is off the 6x6 board"):
        State(new_game("torus").to_tln().replace("a2-a1", "a7-a1"))


# ---- portals ---------------------------------------------------------------------------------
def test_twin_portals_lead_only_to_each_other():
    """In The Mist every portal has a twin of its colour. White's head c4 faces north onto the
    blue portal c3: it comes out beside the other blue portal, f6, and nowhere else, facing
    away from it.

    > Portals are special tiles that enable movement to other same-colored portal tiles, thus
    > allowing dragons to travel quickly around the board of Human.
    > 1) Instead of moving the dragon's head onto the portal tile, place it on any space
    > adjacent to the matching destination portal tile, facing outwards.
    Decision: A18
    """
    s = position(
        "c4 c5 c6 c7",
        FAR,
        bagua={"He": "WWWWBBBB"},
        rules="mist/grasshopper/current",
        board=board_of("mist"),
    )
    assert turns(s) == [
        "He>He [c3f6]f5",
        "He>He [c3f6]f5,f4",
        "He>He [c3f6]g6",
        "He>He [c3f6]g6,h6",
        "He>He [c3f6]f7",
        "He>He [c3f6]f7,f8",
        "He>He [c3f6]e6",
        "He>He [c3f6]e6,d6",
    ]
    after = s.play("He>He [c3f6]g6")
    assert fields(after)["white"] == "g6-[f6c3]-c4-c5-c6:4:0" and after.facing("white") == "E"


@pytest.mark.parametrize(
    ("rules", "board", "white", "black", "expected"),
    [
        # a Valley board with a rock beside the green b7: a7 is not an exit cell
        (
            VALLEY,
            "8/3R2G1/8/3##3/3##1B1/8/oG6/8",
            "g3 g4 h4 h5",
            "a8 b8 c8 d8",
            ["He>He [g2b7]b6", "He>He [g2b7]b6,b5", "He>He [g2b7]c7", "He>He [g2b7]c7,d7"],
        ),
        # a Wall board with greens on a3 and g1: the breakable rocks h1 and g2 are not exits
        (
            WALL,
            "6Go/6o1/G4o2/4o3/3o4/2o5/1o6/o7",
            "a4 a5 a6 b6",
            "h5 h6 h7 h8",
            ["He>He [a3g1]f1", "He>He [a3g1]f1,e1"],
        ),
    ],
    ids=["rock", "breakable-rock"],
)
def test_portal_exit_is_a_free_cell_never_a_rock(rules, board, white, black, expected):
    """The head comes out on a free cell beside the destination portal. A cell holding a rock
    (unbreakable or breakable: no trampling on the way out) is not free. These boards are
    scenario variants a user could write; no built-in layout puts a rock beside a portal.

    > 1) Instead of moving the dragon's head onto the portal tile, place it on any space
    > adjacent to the matching destination portal tile, facing outwards.
    Decision: A18
    """
    s = position(white, black, bagua={"He": "WWWWBBBB"}, rules=rules, board=board)
    assert turns(s) == expected


# ---- breakable rocks (The Wall, The Cave) ----------------------------------------------------
def test_a_breath_destroys_a_rock_on_the_two_cell_which_still_shields():
    """White breathes fire east from e3 with 2 fire stones: the rock on f3 (cell A, value 2)
    takes 2 and is removed, without the bonus; black on g3 (cell B) behind it is not reached,
    because the ruler is laid while the rock still stands.

    > Biting inflicts 1 damage to a small rock tile, while expelling causes the amount of
    > damage indicated by the distance ruler, ignoring the elemental bonus damage.
    > Each rock takes 2 damage to destroy.
    Decision: A21
    """
    s = position(
        D("d3 c3 b3 b2", fire=2),
        "g3 g4 g5 g6",
        bagua=FIRE_ONLY,
        rules=WALL,
        board=WALL_BOARD,
    )
    after = s.play("Fi>Fi e3x")
    assert rows(after)[2] == "8"  # f3 destroyed
    assert (5, 2) not in after.rocks and len(after.rocks) == 7
    assert after.dragon("black").water == 4 and after.centre == (0, 8)


def test_a_breath_damages_every_reached_rock_and_the_dragon():
    """White breathes fire east from c4 with 2 fire stones. The ruler reaches e4 (cell B, a
    rock: 1), d3 (cell L, black's head: 1 + 2) and d5 (cell R, a rock: 1): both rocks are
    damaged (``d``) and black takes 3.

    > Biting inflicts 1 damage to a small rock tile, while expelling causes the amount of
    > damage indicated by the distance ruler, ignoring the elemental bonus damage.
    > On the first, it is flipped to its damaged side.
    Decision: A21, A15
    """
    s = position(
        D("b4 a4 a3 a2", fire=2),
        "d3 d2 c2 c1",
        bagua=FIRE_ONLY,
        rules=WALL,
        board=WALL_BOARD,
    )
    after = s.play("Fi>Fi c4x")
    assert rows(after)[3:5] == ["4d3", "3d4"]
    assert after.rocks[(4, 3)] == 1 and after.rocks[(3, 4)] == 1
    assert after.dragon("black").water == 1


def test_trampling_can_cost_a_segment():
    """White, with 1 water stone, tramples the intact rock on g2: 2 damage, so it loses its
    tail, refills to 4 and takes the second point. In The Cave the very first Heaven may
    trample the rock a4 on its second step.

    > To destroy a small rock tile by trampling, the player's dragon advances into the space
    > with the small rock tile, destroying it immediately. The dragon receives damage equal to
    > the damage needed to destroy the rock tile, returning a water stone to the center of the
    > Ba Gua for each damage taken.
    Decision: A21, A14
    """
    s = position(D("f2 e2 d2 c2", water=1), "h5 h6 h7 h8", rules=WALL, board=WALL_BOARD)
    after = s.play("Fi>Ea g2")
    assert fields(after)["white"] == "g2-f2-e2:3:0" and after.centre == (1, 8)
    assert rows(after)[1] == "8"
    cave = new_game("cave").play("Wa>He a3,a4")
    assert fields(cave)["white"] == "a4-a3-a2-a1:2:0" and (0, 3) not in cave.rocks


# ---- the Village -----------------------------------------------------------------------------
def test_the_village_replaces_the_big_rock():
    """With the Village the centre 2×2 holds the village tile (``V``): on The Field it is added,
    on The Valley and The Mist it takes the big rock's place; the scenario's other tiles stay.

    > 2) Place the village tile to the center of the scenario (replacing the big rock, if
    > necessary).
    Decision: A22
    """
    assert board_of("field", village="white") == VILLAGE_BOARD
    assert board_of("valley", village="black") == "8/3R2G1/8/3VV3/3VV1B1/8/1G6/8"
    assert board_of("mist", village="white") == "4Y3/6G1/2B5/3VV2Y/R2VV3/5B2/1G6/3R4"
    rules = fields(new_game("valley", village="white"))["rules"]
    assert rules == "valley/grasshopper/current+village=white"


def test_village_damage_waits_for_the_end_of_the_turn():
    """Black protects the village; white's tail lies on c5, beside it. White's Wind to a4
    keeps c5 in its body, but the extra phase's Fire step to a3 takes it away: at the end of
    the turn no part of white touches the village, so no damage. With the extra phase turned
    off the turn ends after the Wind, with c5 still beside the village: 1 damage.

    > 4) The village inflicts 1 damage to the challenging dragon if there is any part of it
    > adjacent to the village at the end of its player's turn.
    Decision: A22, A11
    """
    stacks = {"He": "WW", "La": "W", "Ea": "BBBB", "Wa": "W"}
    white = "b4 b5 c5 c6"  # head b4 faces north; c5 is beside the village cell d5
    s = position(white, FAR, bagua=stacks, rules=village("black"), board=VILLAGE_BOARD)
    away = s.play("Wa>Wi a4 ; He>Fi a3+")
    assert fields(away)["white"] == "a3-a4-b4-b5:4:1"
    beside = s.play("Wa>Wi c4 ; He>Fi c3+")  # c4 faces the village: a bite, then 1 damage
    assert fields(beside)["white"] == "c3-c4-b4-b5:3:1"
    assert beside.dragon("black").water == 3
    no_extra = position(
        white, FAR, bagua=stacks, rules=village("black", "+extra_phases=0"), board=VILLAGE_BOARD
    )
    assert fields(no_extra.play("Wa>Wi a4"))["white"] == "a4-b4-b5-c5:3:0"


def test_the_village_does_not_hurt_the_challenger_on_the_protectors_turn():
    """White challenges with its head beside the village (c4 next to d4); black, the
    protector, plays: white takes no damage at the end of black's turn.

    > 4) The village inflicts 1 damage to the challenging dragon if there is any part of it
    > adjacent to the village at the end of its player's turn.
    Decision: A22
    """
    s = position("c4 b4 b5 b6", FAR, side="b", rules=village("black"), board=VILLAGE_BOARD)
    waters = {s.play(turn).dragon("white").water for turn in turns(s)}
    assert len(turns(s)) == 6 and waters == {4}


# ---- Monk ------------------------------------------------------------------------------------
def test_a_focus_of_the_movers_own_colour():
    """White sows Heaven: its white stone completes four whites on Lake. White performs Lake
    for the Focus (facing south, it may step), then Lake again in its Matter phase.

    > The dragon of the same color of those four stones must perform that space's action,
    > even if it isn't its turn.
    Decision: A23
    """
    stacks = {"He": "W", "La": "WWW", "Ea": "BB", "Wa": "BB"}
    s = position("d4 d3 d2 d1", FAR, bagua=stacks, rules=MONK)
    lake = [t for t in turns(s) if t.startswith("He")]
    assert lake == [
        "He>La {w:e4} =",
        "He>La {w:d5} e5",
        "He>La {w:d5} d6",
        "He>La {w:d5} c5",
        "He>La {w:c4} =",
    ]
    assert fields(s.play("He>La {w:d5} d6"))["white"] == "d6-d5-d4-d3:4:0"


def test_effects_resolve_in_the_order_of_their_drops():
    """Black sows Water: the white stone lands first, on Wind (four whites: white's Focus), the
    black one next, on Heaven (four blacks: black's Focus). White turns to e3 first, then black
    steps to e5 (a second step to e4 would face white and leave black's own Heaven
    impossible), then black's Matter Heaven takes it to e4, facing white on e3: a bite. White's
    Wind gives no extra phase.

    > During any player's Spirit phase, if one or more of the following combinations occur,
    > their effects must be resolved in the order of ocurrence before the Matter phase of the
    > current player.
    Decision: A23, A24, A11
    """
    s = position(
        "d3 d2 d1 c1",
        "e6 e7 e8 f8",
        bagua={"He": "BBB", "Wa": "BW", "Wi": "WWW"},
        side="b",
        rules=MONK,
    )
    focus = [t for t in turns(s) if t.startswith("Wa")]
    assert focus == [
        "Wa/WB>He {w:e3} {b:e5} e4",
        "Wa/WB>He {w:c3} {b:e5} e4",
        "Wa/WB>He {w:c3} {b:e5} e4,e3",
        "Wa/WB>He {w:c3} {b:e5,e4} e3",
        "Wa/WB>He {w:c3} {b:e5,e4} e3,e2",
    ]
    after = s.play("Wa/WB>He {w:e3} {b:e5} e4")
    assert fields(after)["white"] == "e3-d3-d2-d1:3:0"
    assert fields(after)["black"] == "e4-e5-e6-e7:4:0"
    assert fields(after)["bagua"] == "BBBB/-/-/-/-/-/-/WWWW" and after.to_move == "white"


def test_a_focus_wind_grants_no_extra_phase():
    """White sows Water: its black stone completes four blacks on Wind, its white stone four
    whites on Heaven. Black's Focus Wind turns it to f5 or h5, and no extra phase follows; then
    white's own Focus and Matter Heaven. Every such turn has one phase.

    > Additional Wind or Thunder actions as a result of these extra phases do not generate
    > further extra phases.
    > The dragon of the same color of those four stones must perform that space's action,
    > even if it isn't its turn.
    Decision: A11, A24
    """
    s = position(
        "d4 d3 d2 d1", "g5 g6 g7 g8", bagua={"He": "WWW", "Wa": "BW", "Wi": "BBB"}, rules=MONK
    )
    water = [t for t in s.legal_turns() if str(t).startswith("Wa")]
    assert [str(t) for t in water] == [
        "Wa/BW>He {b:h5} {w:d5} d6",
        "Wa/BW>He {b:h5} {w:d5} d6,d7",
        "Wa/BW>He {b:h5} {w:d5,d6} d7",
        "Wa/BW>He {b:h5} {w:d5,d6} d7,d8",
        "Wa/BW>He {b:f5} {w:d5} d6",
        "Wa/BW>He {b:f5} {w:d5} d6,d7",
        "Wa/BW>He {b:f5} {w:d5,d6} d7",
        "Wa/BW>He {b:f5} {w:d5,d6} d7,d8",
    ]
    assert {len(t.phases) for t in water} == {1}
    assert s.play("Wa/BW>He {b:f5} {w:d5} d6").to_move == "black"


def test_the_focusing_dragon_bites():
    """On white's turn, black's Focus Heaven steps to e5, facing white's head on e4: black
    bites, and white loses a water stone. White's own Lake then stays (facing west).

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    Decision: A9, A24
    """
    s = position(
        "e4 f4 g4 h4", "e6 e7 e8 f8", bagua={"He": "BBB", "Ea": "WWW", "Wi": "BW"}, rules=MONK
    )
    assert [t for t in turns(s) if t.startswith("Wi")] == ["Wi/BW>La {b:e5} ="]
    after = s.play("Wi/BW>La {b:e5} =")
    assert fields(after)["white"] == "e4-f4-g4-h4:3:0"
    assert fields(after)["black"] == "e5-e6-e7-e8:4:0" and after.centre == (1, 8)


def test_the_game_can_end_in_the_spirit_phase():
    """The same Focus bite against a white dragon with one segment and one water stone ends
    the game before white's Matter phase: the execution is written ``#``.

    > As soon as one of the dragons has lost its third segment, the winner flips the opposing
    > dragon's head, thus ending the game.
    Decision: A14, A24
    """
    s = position(
        D("e4 f4", water=1),
        "e6 e7 e8 f8",
        bagua={"He": "BBB", "Ea": "WWW", "Wi": "BW"},
        rules=MONK,
    )
    assert [t for t in turns(s) if t.startswith("Wi")] == ["Wi/BW>La {b:e5} #"]
    after = s.play("Wi/BW>La {b:e5} #")
    assert fields(after)["white"] == "e4:0:0" and after.outcome().winner == "black"
    assert after.legal_turns() == []


def test_possibility_is_judged_after_the_focus():
    """White sows Water: one white stone completes four whites on Wind. White's Focus Wind
    turns it to face east or west, and then its Matter Wind (which needs a vertical facing)
    is impossible, so sowing Water is forbidden while other spaces give possible actions.

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    Decision: A10, A23
    """
    stacks = {"He": "BB", "Ea": "BB", "Wa": "W", "Wi": "WWW"}
    s = position("d4 d3 d2 d1", FAR, bagua=stacks, rules=MONK)
    assert {t.split(">")[0] for t in turns(s)} == {"He", "Ea", "Wi"}
    # without the Focus (Grasshopper) the same Wind is possible, with its extra phase
    grasshopper = turns(position("d4 d3 d2 d1", FAR, bagua=stacks))
    assert "Wa>Wi e4 ; He>Fi e3+" in grasshopper and len(grasshopper) == 46


def test_the_other_dragons_focus_leaves_the_movers_action_possible():
    """A decision: the other dragon's Focus executions are limited to those after which the
    mover's Matter action is possible (unless no option of the phase is). The turn is one
    choice, judged after the whole Spirit phase (A10), and a turn whose action is impossible
    is forbidden while another is possible; letting the Focus pick freely would let the other
    player force the mover's penalty, which the rule allows only when nothing else is possible.

    White (a5 facing S) sows Heaven: its black stone completes four blacks on Lake, so black's
    Focus Lake comes first, then white's Lake. Black (b6 facing S) may step to a6 or b7; on a6
    it takes white's one free cell and white's Lake would be impossible, so only b7 is offered.

    > The dragon of the same color of those four stones must perform that space's action,
    > even if it isn't its turn.
    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    Decision: A10, A24
    """
    white, black = "a5 a4 a3 a2", "b6 b5 c5 c6"
    s = position(white, black, turn=9, rules=MONK, bagua={"He": "B", "La": "BBB", "Wi": "WWWW"})
    assert turns(s) == ["He>La {b:b7} a6"]
    # the same moves in Grasshopper: black's Lake alone can go to a6 or b7 (its tail blocks
    # c6); after black's a6, white's Lake has nowhere to go
    alone = position(white, black, side="b", bagua={"La": "WWWWBBBB"})
    assert sorted(turns(alone)) == ["La>La a6", "La>La b7"]
    blocked = position(white, "a6 b6 b5 c5", bagua={"La": "WWWWBBBB"})
    assert turns(blocked) == ["La>La -"]


def test_effects_trigger_only_when_a_drop_creates_them():
    """White already holds one stone on each main space (a Balance standing since before this
    turn): sowing Lake's four blacks keeps it, but creates nothing, so white's meters stay. A
    Focus standing on Heaven (four whites) is not triggered again by a black stone dropped on
    it.

    > Whenever there is one stone of a single color on all four main spaces on the board of Ba
    > Gua – Heaven, Earth, Fire and Water – a Balance effect occurs.
    > Whenever all the four stones of a color get to the same space on the Ba Gua, a focus
    > effect occurs.
    Decision: A23
    """
    white, black = D("d4 d3 d2 d1", water=2, fire=1), D("e6 e7 e8 f8", fire=3)
    balanced = position(
        white, black, bagua={"He": "W", "La": "BBBB", "Fi": "W", "Ea": "W", "Wa": "W"}, rules=MONK
    )
    after = balanced.play("La>Mo =")
    assert fields(after)["white"] == "d4-d3-d2-d1:2:1"
    assert fields(after)["bagua"] == "W/-/WB/B/WB/B/W/-"
    focused = position(white, black, bagua={"He": "WWWW", "La": "B", "Wa": "BBB"}, rules=MONK)
    assert "Wa>La e4" in turns(focused)
    assert all("{" not in t for t in turns(focused))


def test_drops_are_written_for_a_mixed_stack_only():
    """Sowing a stack of one colour gives no choice and no ``/`` in the notation; a mixed
    stack's colours are written in drop order, and the parser needs them.

    > 3) All remaining stones are dropped on the remaining spaces as the active player
    > chooses.
    > If, when resolving priorities 1 or 2, both black and white are required on a single
    > space, the player chooses which color to drop in that space.
    Decision: A26
    """
    start = new_game(mode="monk")
    assert turns(start) == [
        "He>Fi a3+",
        "He>Fi a3x",
        "Ea>Wa a3+",
        "Ea>Wa a3x",
        "Wa/BW>He a3",
        "Wa/BW>He a3,a4",
    ]
    s = position(
        "e4 f4 g4 h4", "e6 e7 e8 f8", bagua={"He": "BBB", "Ea": "WWW", "Wi": "BW"}, rules=MONK
    )
    assert str(s.parse_turn("wi/bw {b:e5} =")) == "Wi/BW>La {b:e5} ="
    with pytest.raises(ValueError, match="illegal turn"):
        s.parse_turn("Wi>La {b:e5} =")


# ---- Master and Chosen One -------------------------------------------------------------------
def test_the_coin_always_shows_the_last_flow():
    """With the coin on clockwise: Earth's two blacks flow counterclockwise and flip it back;
    Heaven's two whites flow clockwise and leave it; Fire's tie follows the coin (clockwise,
    landing on Heaven) and leaves it.

    > If a player selects a space that results in the Ba Gua flowing in the opposite direction
    > from the direction shown on the flux coin, it must be flipped.
    Decision: A27
    """
    s = position(
        "d4 d3 d2 d1", "e6 e7 e8 f8", bagua=None, rules=MASTER, flux="cw", side="w", turn=5
    )
    after = {t.split()[0]: fields(s.play(t))["bagua"] for t in turns(s)}
    assert after == {
        "He>Wa": "-/-/BW/-/BB/-/WBW/W@cw",
        "Fi/BW>He": "WWW/B/-/-/BB/-/WB/-@cw",
        "Ea>Wa": "WW/-/BW/-/-/B/WBB/-@ccw",
    }


def test_master_keeps_the_monk_rules():
    """Master adds the flux coin to the Monk rules: with the coin on counterclockwise, Wind's
    tied stack flows as in Monk and black's Focus Heaven happens; with the coin on clockwise
    the same stack flows the other way, to Water and Mountain, and no Focus occurs.

    > Each game mode takes the rules from the previous one and add their own.
    > When a player selects a space with the same number of white and black stones, the Ba
    > Gua flows in the direction indicated by the flux coin.
    Decision: A27, A23
    """
    args = {"bagua": {"He": "BBB", "Ea": "WWW", "Wi": "BW"}, "rules": MASTER}
    ccw = position("e4 f4 g4 h4", "e6 e7 e8 f8", flux="ccw", **args)
    assert [t for t in turns(ccw) if t.startswith("Wi")] == ["Wi/BW>La {b:e5} ="]
    cw = position("e4 f4 g4 h4", "e6 e7 e8 f8", flux="cw", **args)
    assert [t for t in turns(cw) if t.startswith("Wi")] == [
        "Wi/BW>Mo e3",
        "Wi/BW>Mo e5",
        "Wi/BW>Mo d4",
        "Wi/WB>Mo e3",
        "Wi/WB>Mo e5",
        "Wi/WB>Mo d4",
    ]


def test_the_chosen_one_text_view_hides_the_board_of_human():
    """The Chosen One plays the Master rules; its text view shows the Ba Gua, the meters and
    the coin, but not the Board of Human (``reveal=True`` shows it).

    > Use only the board of Ba Gua. The movement occurs in the players' minds.
    Decision: A32
    """
    s = new_game(mode="chosen-one")
    hidden = str(s).splitlines()
    assert hidden[0] == "(Chosen One: the Board of Human is in the players' minds)"
    assert not any(line.startswith(" 2 ") for line in hidden)
    assert "flux coin   ccw" in hidden
    shown = board_text(s, reveal=True).splitlines()
    assert shown[2] == " 2 ▽ ○ · · · · · ·"
    assert board_text(new_game(mode="master")) == board_text(s, reveal=True)


# ---- the earlier edition's components --------------------------------------------------------
def test_the_earlier_edition_builds_only_the_field_and_the_valley():
    """The earlier rulebook's box holds one rock and four portals (two green, one red, one
    blue): enough for its two scenarios, the Introductory one (The Field) and The Valley.
    Every other scenario is refused with an error naming it.

    > [earlier] 1 Rock tile
    > [earlier] 4 Portal tiles, 2 green, 1 red and 1 blue
    > [earlier] On **The Valley** scenario, both red and blue portals don't have a specific
    > twin.
    """
    assert fields(new_game("valley", edition="earlier"))["board"] == VALLEY_BOARD
    assert new_game("field", edition="earlier").rules.edition == "earlier"
    names = {
        "gorge": "The Gorge",
        "torus": "The Torus",
        "wall": "The Wall",
        "cave": "The Cave",
        "mist": "The Mist",
        "maze": "The Maze",
    }
    for key, name in names.items():
        with pytest.raises(RulesError, match=f"{name} cannot be built with the earlier"):
            new_game(key, edition="earlier")


def test_the_earlier_edition_has_no_village():
    """The earlier box has a plain rock tile and no village, and its rulebook has no Village
    variant (it came with the current edition), so the Village cannot be played with the
    earlier edition.

    > [earlier] 1 Rock tile
    > [current] The Village is a game variant that may be used on The Field, The Valley and The Mist
    > scenarios.
    """
    for scenario in ("field", "valley"):
        with pytest.raises(RulesError):
            new_game(scenario, edition="earlier", village="white")
